"""Table options: the frozen ``Rules`` value a Businessman game is played under."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import RulesError, show
from ..core.table import TableRules, check_options, is_whole
from .board import FIGURES

MIN_PLAYERS = FIGURES.min_players
MAX_PLAYERS = FIGURES.max_players
DEFAULT_NUM_PLAYERS = FIGURES.default_num_players
DEFAULT_MAX_ROUNDS = FIGURES.default_max_rounds
DEFAULT_ROUNDS = DEFAULT_MAX_ROUNDS  # the name every game shares (byapar_env.games)
# "Until one player is left" as every game of this package plays it: the richest player wins
# after this many rounds if that has not happened (Byapar's figure).
UNTIL_ONE_LEFT_ROUND_CAP = 100


@dataclass(frozen=True)
class Rules(TableRules):
    """The options of one table.

    ``num_players`` 2 to 6. ``max_rounds``: the game ends after this many rounds with the
    highest net worth winning (20 by default); 0 plays until one player is left, with no limit.
    ``abroad_enabled=False`` plays the outer perimeter only: Customs does nothing and the
    Hotel's purchase abroad is not offered.
    """

    num_players: int = DEFAULT_NUM_PLAYERS
    max_rounds: int = DEFAULT_MAX_ROUNDS
    abroad_enabled: bool = True

    def __post_init__(self) -> None:
        self.check_players(MIN_PLAYERS, MAX_PLAYERS)
        if not is_whole(self.max_rounds) or self.max_rounds < 0:
            raise RulesError(
                f"max_rounds must be a whole number from 0 up ({DEFAULT_MAX_ROUNDS} by default, "
                f"0 for no limit), got {show(self.max_rounds)}")
        if not isinstance(self.abroad_enabled, bool):
            raise RulesError(f"abroad_enabled must be True or False, got "
                             f"{show(self.abroad_enabled)}")


def table_rules(num_players: int, rounds: int | None = DEFAULT_ROUNDS, **options: object) -> Rules:
    """A table's rules in the words every game shares (``byapar_env.games``): ``rounds`` None
    plays until one player is left, to ``UNTIL_ONE_LEFT_ROUND_CAP`` rounds (the engine's own
    ``max_rounds=0`` has no cap); the option is ``abroad_enabled``."""
    check_options(options, ("abroad_enabled",), "Businessman")
    if rounds is not None and (not is_whole(rounds) or rounds < 1):
        raise RulesError(f"rounds must be a positive whole number ({DEFAULT_ROUNDS} is the "
                         f"default) or None to play until one player is left, got {show(rounds)}")
    return Rules(num_players=num_players,
                 max_rounds=UNTIL_ONE_LEFT_ROUND_CAP if rounds is None else rounds, **options)
