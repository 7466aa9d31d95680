"""Table options: the frozen ``Rules`` value a Businessman game is played under."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import RulesError, show
from ..engine.table import TableRules, is_whole
from . import board as B

_F = B.FIGURES
MIN_PLAYERS = _F.min_players
MAX_PLAYERS = _F.max_players
DEFAULT_NUM_PLAYERS = _F.default_num_players
DEFAULT_MAX_ROUNDS = _F.default_max_rounds


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
