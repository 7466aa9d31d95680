"""The arena's error, below the arena and its Ray backend, which both raise it."""

from __future__ import annotations

from byapar_env.engine.errors import ByaparError


class ArenaError(ByaparError, ValueError):
    """Bad arena input, found before any game is played."""
