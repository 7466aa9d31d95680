"""Table options: the frozen ``Rules`` value a game is played under."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from . import board
from .errors import RulesError, show

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DEFAULT_ROUNDS = 40
ROUND_PRESETS = (20, 40)
# With the game played until one player is left, the richest player wins after this many rounds.
UNTIL_ONE_LEFT_ROUND_CAP = 100


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Rules:
    """The options of one table.

    ``rounds`` is the game length in rounds (40 by default, 20 is the quick preset, any positive
    number works); ``None`` plays until one player is left, with the richest player winning after
    100 rounds if that has not happened. ``starting_cash`` is any positive multiple of 100 (15,000
    by default, 10,000 and 20,000 are the presets). With ``auctions=False`` a place nobody buys
    stays with the bank.
    """

    num_players: int = 4
    rounds: int | None = DEFAULT_ROUNDS
    starting_cash: int = board.DEFAULT_STARTING_CASH
    auctions: bool = True

    def __post_init__(self) -> None:
        if not _is_int(self.num_players) or not MIN_PLAYERS <= self.num_players <= MAX_PLAYERS:
            raise RulesError(
                f"num_players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                f"got {show(self.num_players)}"
            )
        if self.rounds is not None and (not _is_int(self.rounds) or self.rounds < 1):
            raise RulesError(
                "rounds must be a positive whole number (40 is the default, 20 the quick game) "
                f"or None to play until one player is left, got {show(self.rounds)}"
            )
        if (
            not _is_int(self.starting_cash)
            or self.starting_cash <= 0
            or self.starting_cash % 100
        ):
            raise RulesError(
                "starting_cash must be a positive multiple of 100 (presets: "
                f"{', '.join(f'{c:,}' for c in board.STARTING_CASH_PRESETS)}), "
                f"got {show(self.starting_cash)}"
            )
        if not isinstance(self.auctions, bool):
            raise RulesError(f"auctions must be True or False, got {show(self.auctions)}")

    @property
    def round_limit(self) -> int:
        """The last round that is played: ``rounds``, or the cap when playing until one is left."""
        return UNTIL_ONE_LEFT_ROUND_CAP if self.rounds is None else self.rounds

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a mapping of option names to values, got {show(data)}")
        allowed = set(cls.__dataclass_fields__)
        unknown = set(data) - allowed
        if unknown:
            raise RulesError(f"unknown table options {show(sorted(map(str, unknown)))}; "
                             f"allowed: {sorted(allowed)}")
        return cls(**data)
