"""Businessman («Бизнесмен»): an exact rules engine, standard library only, integer money,
seeded, serializable; the same design as Byapar's engine (``byapar_env.engine``).

>>> from byapar_env.businessman import Game, Rules
>>> game = Game(Rules(num_players=4), seed=7)
>>> while not game.is_over:
...     game.apply(game.legal_actions()[0])

The rules as implemented, with every choice where the sources are silent, are in
``docs/businessman_rules.md``.
"""

from ..core.errors import ByaparError, GameStateError, IllegalActionError, RulesError, SeedError
from . import actions, board
from .actions import ACTION_ID, ALL_ACTIONS, Action, ActionKind
from .game import Game, purchase_price, redeem_cost
from .rules import DEFAULT_ROUNDS, MAX_PLAYERS, MIN_PLAYERS, Rules, table_rules
from .state import BANK, Phase, Trade

__all__ = [
    "DEFAULT_ROUNDS", "MAX_PLAYERS", "MIN_PLAYERS", "table_rules",
    "ACTION_ID", "ALL_ACTIONS", "Action", "ActionKind", "BANK", "ByaparError", "Game",
    "GameStateError", "IllegalActionError", "Phase", "Rules", "RulesError", "SeedError", "Trade",
    "actions", "board", "purchase_price", "redeem_cost",
]
