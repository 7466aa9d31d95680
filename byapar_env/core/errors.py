"""Typed errors of the rules engine. Each message names what was wrong and what is allowed."""

from __future__ import annotations

import reprlib

# Foreign values named in messages are cut short, so that a huge or deeply nested value can
# neither flood an error message nor overflow the stack while the message is written.
_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlong = 40


def show(value: object) -> str:
    """``repr(value)`` cut short, for naming a bad value in an error message; never raises."""
    try:
        return _SHORT.repr(value)
    except Exception:  # a value whose own repr fails: name its type instead
        return f"<{type(value).__name__}>"


class ByaparError(Exception):
    """Base class of every error the project raises on a bad value from its user: the engine's
    below, and on every floor above it those of the players, the arena and the other harnesses,
    training and the command line (each also a ``ValueError``, or an ``ImportError`` for a
    missing package). The ``byapar`` command reports any of them as one line."""


class RulesError(ByaparError, ValueError):
    """An impossible table option."""


class IllegalActionError(ByaparError, ValueError):
    """An action that is not legal now. The game is left unchanged."""


class GameStateError(ByaparError, ValueError):
    """A saved game that is corrupt, or was saved by another version or board."""


class UnbalancedMoneyError(GameStateError):
    """A saved game whose money does not add up: the seats' cash is not the starting cash of
    every seat plus what the bank paid out less what it received (money from nowhere)."""


class SeedError(ByaparError, ValueError):
    """A seed that is not None or a whole number from 0 up (random.Random would fold a negative
    seed onto its absolute value, and truncate or hash a float)."""
