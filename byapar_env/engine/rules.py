"""Table options: the frozen ``Rules`` value a game is played under."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import RulesError, show
from ..core.table import TableRules, check_options, is_whole
from . import board
from .board import FIGURES

# The table options' figures live in ``board.FIGURES`` (covered by the board hash); these
# names are read from there for the callers that import them from this module.
MIN_PLAYERS = FIGURES.min_players
MAX_PLAYERS = FIGURES.max_players
DEFAULT_NUM_PLAYERS = FIGURES.default_num_players
DEFAULT_ROUNDS = FIGURES.default_rounds
ROUND_PRESETS = FIGURES.round_presets
# With the game played until one player is left, the richest player wins after this many rounds.
UNTIL_ONE_LEFT_ROUND_CAP = FIGURES.until_one_left_round_cap
DEFAULT_AUCTIONS = FIGURES.default_auctions


@dataclass(frozen=True)
class Rules(TableRules):
    """The options of one table.

    ``rounds`` is the game length in rounds (40 by default, 20 is the quick preset, any positive
    number works); ``None`` plays until one player is left, with the richest player winning after
    100 rounds if that has not happened. ``starting_cash`` is any positive multiple of 100 (15,000
    by default, 10,000 and 20,000 are the presets). With ``auctions=False`` a place nobody buys
    stays with the bank. These figures are read from ``board.FIGURES``.
    """

    num_players: int = DEFAULT_NUM_PLAYERS
    rounds: int | None = DEFAULT_ROUNDS
    starting_cash: int = board.DEFAULT_STARTING_CASH
    auctions: bool = DEFAULT_AUCTIONS

    def __post_init__(self) -> None:
        self.check_players(MIN_PLAYERS, MAX_PLAYERS)
        if self.rounds is not None and (not is_whole(self.rounds) or self.rounds < 1):
            raise RulesError(
                f"rounds must be a positive whole number ({DEFAULT_ROUNDS} is the default, "
                f"{min(ROUND_PRESETS)} the quick game) "
                f"or None to play until one player is left, got {show(self.rounds)}"
            )
        if (
            not is_whole(self.starting_cash)
            or self.starting_cash <= 0
            or self.starting_cash % FIGURES.starting_cash_step
        ):
            raise RulesError(
                f"starting_cash must be a positive multiple of {FIGURES.starting_cash_step} "
                f"(presets: "
                f"{', '.join(f'{c:,}' for c in board.STARTING_CASH_PRESETS)}), "
                f"got {show(self.starting_cash)}"
            )
        if not isinstance(self.auctions, bool):
            raise RulesError(f"auctions must be True or False, got {show(self.auctions)}")

    @property
    def round_limit(self) -> int:
        """The last round that is played: ``rounds``, or the cap when playing until one is left."""
        return UNTIL_ONE_LEFT_ROUND_CAP if self.rounds is None else self.rounds


def table_rules(num_players: int, rounds: int | None = DEFAULT_ROUNDS, **options: object) -> Rules:
    """A table's rules in the words every game shares (``byapar_env.games``): ``rounds`` None
    plays until one player is left; ``options`` are ``starting_cash`` and ``auctions``."""
    check_options(options, ("starting_cash", "auctions"), "Byapar")
    return Rules(num_players=num_players, rounds=rounds, **options)
