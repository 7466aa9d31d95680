"""The learned policy that also deals, as a fast engine-level player (the roster kind
``dealer`` of ``byapar_training.value``).

``policy_rollout.PolicyRolloutPlayer`` makes no offers, so tables of it never show the
positions that the hard player's own deals make: groups completed by a swap or a purchase it
proposed. This player is that rollout player, with the hard player's deal module on top and no
rollouts:

- before rolling, once a turn, the deal module's offer if there is one
  (``deals.DealMemory.propose``: swaps, purchases, sales and denials, judged by the value
  network), made whole where the table still takes an offer;
- a pending offer is answered by the deal judgement (``deals.accepts_pending``, without the
  rollout check the hard player adds for deals that complete a group).

Everything else is the policy's most likely legal action, as ``PolicyRolloutPlayer`` plays it.
"""

from __future__ import annotations

import weakref

from byapar_env.engine import Action, Game, Phase, actions

from .deals import DealMemory, accepts_pending
from .network import NumpyPolicy
from .policy_rollout import PolicyRolloutPlayer
from .value import ValueNet


class DealingRolloutPlayer(PolicyRolloutPlayer):
    """``PolicyRolloutPlayer`` with the deal module's offers and answers (see the module
    docstring); one per seat."""

    def __init__(self, policy: NumpyPolicy, value: ValueNet) -> None:
        self.value = value
        # a deal memory per game (weakly held: it goes with the game)
        self._memories: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        super().__init__(policy)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self._memories.clear()

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        if game.phase == Phase.TRADE_ANSWER:
            accept = accepts_pending(game, self.value)
            return actions.ACCEPT_TRADE if accept else actions.REJECT_TRADE
        if game.phase == Phase.PRE_ROLL and game.can_offer_trade():
            memory = self._memories.setdefault(game, DealMemory())
            offer = memory.propose(game, self.value)
            if offer is not None and game.trade_error(offer) is None:
                return offer
        return super().choose(game, seat, legal)
