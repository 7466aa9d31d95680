"""The Byapar rules engine: standard library only, integer money, seeded, serializable.

>>> from byapar_env.engine import Game, Rules
>>> game = Game(Rules(num_players=4), seed=7)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])
"""

from ..core.errors import ByaparError, GameStateError, IllegalActionError, RulesError, SeedError
from . import actions, board
from .actions import Action, ActionKind
from .game import (
    BANK,
    MAX_OFFERS_PER_TURN,
    Game,
    Phase,
    mortgage_value,
    payoff_cost,
    place_worth,
)
from .rules import DEFAULT_ROUNDS, MAX_PLAYERS, MIN_PLAYERS, Rules, table_rules

__all__ = [
    "DEFAULT_ROUNDS", "MAX_PLAYERS", "MIN_PLAYERS", "table_rules",
    "Action", "ActionKind", "BANK", "ByaparError", "Game", "GameStateError",
    "IllegalActionError", "MAX_OFFERS_PER_TURN", "Phase", "Rules", "RulesError", "actions",
    "board", "mortgage_value", "payoff_cost", "place_worth", "SeedError",
]
