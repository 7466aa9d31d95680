"""Deals priced by simulation: a deal the value network passes is played forward before it is
taken, where it matters.

The deal module (``byapar_agents.deals``) judges by the value network, which learned from games
between our own players; a deal that completes a colour group changes the game more than any
other single decision, and is where the network's errors cost most. So such a deal is checked
by rollouts of the real engine (``byapar_agents.search.Rollouts``): ``rollouts`` pairs, each pair
one
rollout with the offer accepted and one with it declined from the same seed (common random
numbers), ``rounds`` rounds on, scored by the value network at the horizon (the true shares if
the game ends first). The rivals are played by several kinds of player, drawn per rollout from
the rollout's seed (``population`` mode: the policy, the medium player or a player of the
generated population's training seeds), never by copies of the deciding player alone.

``simulated_gain`` gives the judging seat's mean gain over the pairs; ``RolloutCheck`` is the
deal module's confirmation: an answer stands if the mean gain is at least ``-ANSWER_SLACK``, a
proposal (unless ``proposals`` is off) if it is at least ``PROPOSAL_GAIN``. The seeds come
from the position and the offer, so the same offer in the same position always gets the same
answer.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from byapar_env.engine import Action, Game, Phase, actions

from .deals import made
from .network import NumpyPolicy
from .search import Rollouts, rollout_seeds
from .value import ValueNet

ROLLOUTS = 8  # pairs a deal
ROUNDS = 3  # rounds each rollout plays on
ANSWER_SLACK = 0.0  # an answer stands unless the rollouts find the answering seat worse off
PROPOSAL_GAIN = 0.0  # a proposal is made only if the rollouts find the proposer no worse off


def deal_seed(game: Game, offerer: int, offer: Action) -> int:
    """The rollouts' seed for ``offer`` from ``offerer`` in ``game``: from the places, the
    cash, the turn and the offer, never from the game's own generator."""
    text = repr((game.turn_count, tuple(game.owner), tuple(game.buildings),
                 tuple(game.mortgaged), tuple(game.cash), offerer, offer))
    return zlib.crc32(text.encode())


def simulated_gain(pending: Game, seat: int, value: ValueNet, policy: NumpyPolicy,
                   rollouts: int = ROLLOUTS, rounds: int = ROUNDS) -> float:
    """``seat``'s mean win chance with the offer pending in ``pending`` accepted, less with it
    declined, over ``rollouts`` paired rollouts of ``rounds`` rounds (see the module
    docstring)."""
    if pending.phase != Phase.TRADE_ANSWER or pending.offer is None:
        raise ValueError("simulated_gain needs a game with a trade offer to answer")
    offerer, offer = pending.offer
    runner = Rollouts(pending, seat, 0, rounds, "population", policy=policy, value=value)
    seeds = rollout_seeds(deal_seed(pending, offerer, offer))
    total = 0.0
    for _ in range(rollouts):
        s = seeds.getrandbits(62)
        total += runner.run(actions.ACCEPT_TRADE, s) - runner.run(actions.REJECT_TRADE, s)
    return total / rollouts


@dataclass
class RolloutCheck:
    """The deal module's confirmation of a deal that completes a colour group (see the
    module docstring); deals that complete none pass unchecked."""

    value: ValueNet
    policy: NumpyPolicy
    rollouts: int = ROLLOUTS
    rounds: int = ROUNDS
    proposals: bool = True  # check proposals too, not just answers (the costlier half)

    def answer(self, pending: Game, completes: bool) -> bool:
        """Whether the answering seat's acceptance of the pending offer stands."""
        if not completes or self.rollouts <= 0:
            return True
        target = pending.offer[1].target
        gain = simulated_gain(pending, target, self.value, self.policy, self.rollouts,
                              self.rounds)
        return gain >= -ANSWER_SLACK

    def proposal(self, game: Game, offer: Action, completes: bool) -> bool:
        """Whether the seat to play in ``game`` (before rolling) should make ``offer``."""
        if not completes or self.rollouts <= 0 or not self.proposals:
            return True
        gain = simulated_gain(made(game, offer), game.current_player, self.value, self.policy,
                              self.rollouts, self.rounds)
        return gain >= PROPOSAL_GAIN
