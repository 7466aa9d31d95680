"""The players' errors that every game's players share."""

from __future__ import annotations

from byapar_env.engine.errors import ByaparError


class UnknownAgentError(ByaparError, ValueError):
    """A player name that is neither a known kind of its game nor a checkpoint folder."""
