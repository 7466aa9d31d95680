"""Hand-written players think in engine actions; this adapter seats them in the environment.

An ``EnginePlayer`` answers ``choose(game, seat, legal)`` with an engine ``Action``: one of
``legal`` or a trade offer that ``game.is_legal`` accepts. Its ``act(env, seat)`` (the
``byapar_env.players.Player`` interface) turns that choice into the environment's action ids: a
trade offer becomes the composition steps (start, toggle each place, money, submit), a bid the
bid id of that amount. The arena plays tables of engine players on the engine directly, which is
several times faster; the same seed gives the same game either way.
"""

from __future__ import annotations

from byapar_env.action_table import (
    ACTIONS,
    BID_MIN_ID,
    BID_PRICE_IDS,
    BID_RAISE_IDS,
    CANCEL_ID,
    ROLL_ID,
    TRADE_MONEY_IDS,
    bid_amount,
    fixed_action_id,
)
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import offer_steps
from byapar_env.engine import Action, ActionKind, Game

_TOGGLE = {a.arg: a.id for a in ACTIONS if a.kind == "trade_toggle"}


class EnginePlayer:
    """Base of the hand-written players. Subclasses implement ``choose``."""

    name = "engine"
    # Whether the arena may seat this player on an engine table (``arena._play_on_engine``),
    # where its choice is taken as one engine action: a player that composes trade drafts step
    # by step through the environment (the expert, following the policy) says no.
    engine_tables = True

    def __init__(self) -> None:
        self._steps: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        """Called at the start of each game."""
        self._steps = []

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        raise NotImplementedError

    # ------------------------------------------------------------------ the environment's side
    def act(self, env: raw_env, seat: int) -> int:
        legal_ids = env.legal_action_ids()
        if env.draft is not None:
            step = self._steps.pop(0) if self._steps else CANCEL_ID
            if step not in legal_ids:
                self._steps = []
                step = CANCEL_ID
            return step
        game = env.game
        action = self.choose(game, seat, game.legal_actions())
        i = self.to_id(env, seat, action)
        return i if i in legal_ids else (ROLL_ID if ROLL_ID in legal_ids else legal_ids[0])

    def to_id(self, env: raw_env, seat: int, action: Action) -> int:
        """The id (or the first composition step) that carries out an engine action."""
        k = action.kind
        if k == ActionKind.OFFER_TRADE:
            if action.amount and action.amount not in TRADE_MONEY_IDS:
                return ROLL_ID  # not expressible on the environment's money steps
            self._steps = offer_steps(seat, env.game.num_players, action)
            return self._steps.pop(0)
        if k == ActionKind.BID:
            return bid_id(env.game, action.amount)
        return fixed_action_id(action)


def bid_id(game: Game, amount: int) -> int:
    """The environment's id of a bid of ``amount`` in ``game``'s auction (the least raise where
    no id bids exactly that)."""
    for i in (BID_MIN_ID, *BID_RAISE_IDS, *BID_PRICE_IDS):
        if bid_amount(game, i) == amount:
            return i
    return BID_MIN_ID
