"""Typed errors of the rules engine. Each message names what was wrong and what is allowed."""


class ByaparError(Exception):
    """Base class of every error the engine raises on bad input."""


class RulesError(ByaparError, ValueError):
    """An impossible table option."""


class IllegalActionError(ByaparError, ValueError):
    """An action that is not legal now. The game is left unchanged."""


class GameStateError(ByaparError, ValueError):
    """A saved game that is corrupt, or was saved by another version or board."""
