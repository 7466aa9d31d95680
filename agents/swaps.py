"""Swap offers for the hard player: trades that complete a colour group, offered before rolling.

At tables where the rivals trade with each other, two of them swap the pieces that complete a
group each, and a player that only answers offers is left behind. The policy alone proposes
offers its own kind would accept; players who judge by their own values refuse them. This
module lists the few offers that change who holds a group whole, and keeps those that a
target judging by the game's worth would take:

- **What is listed.** To each other seat still in: one of its places that completes a group
  of the offering seat's (it holds every other piece), either for money (``BUY_AMOUNTS``) or
  for one of the offering seat's places that completes another group, the target's, with
  money from ``SWAP_AMOUNTS`` either way; only what the engine allows now
  (``Game.trade_error``).
- **Is it worth it?** The offering seat's gain in win chance by the value network, with the
  offer accepted against declined, must be at least ``MIN_GAIN``.
- **Might the target take it?** A group completed costs every rival some win chance, so by
  the same judgement the target nearly always loses; but a target that completes a group of
  its own, or is paid, and values places by its own lights often takes it. The target's loss
  by the value network may be at most ``TARGET_LOSS_SHARE`` times the offering seat's gain.
  Of the offers that pass, the one with the largest gain is made.

A seat offers at most once a turn, and never again the same places to the same target while
the places' owners stay as they were (a refused offer is not repeated in the same position).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from byapar_env.driver import offer_steps
from byapar_env.engine import Action, Game, Phase
from byapar_env.engine import board as B

from .hard import DEFAULT_CHECKPOINT, LearnedPlayer
from .trade_finder import offers_with_money
from .trade_guard import trade_gains
from .value import ValueNet

BUY_AMOUNTS = (500, 1000, 2000, 3000)
SWAP_AMOUNTS = (-1000, -500, 0, 500, 1000)
MIN_GAIN = 0.02  # two points of win chance: what the offering seat must gain
# What the target may lose by the same judgement, as a share of the offering seat's gain: a
# group completed costs every rival some win chance, but a target that completes its own too,
# or is paid, and values places by their rents and its own groups, often takes it.
TARGET_LOSS_SHARE = 1.5


def completing_places(game: Game, seat: int, holder: int) -> list[int]:
    """The places ``holder`` owns that would complete a colour group of ``seat``'s: ``seat``
    holds every other piece of the group."""
    owner = game.owner
    out = []
    for sq in B.PLACES:
        group = B.GROUP_OF[sq]
        if owner[sq] == holder and group is not None and all(
                owner[s] == seat for s in group if s != sq):
            out.append(sq)
    return out


def listed_swaps(game: Game, seat: int, target: int) -> list[Action]:
    """The offers this module considers from ``seat`` (to play, before rolling) to ``target``."""
    takes = completing_places(game, seat, target)
    if not takes:
        return []
    gives = completing_places(game, target, seat)
    out: list[Action] = []
    for take in takes:
        out += offers_with_money(game, seat, target, (), (take,), BUY_AMOUNTS)
        for give in gives:
            if B.GROUP_OF[give] != B.GROUP_OF[take]:  # a piece of the group it would complete
                out += offers_with_money(game, seat, target, (give,), (take,), SWAP_AMOUNTS)
    return out


def best_swap(game: Game, value: ValueNet, skip: frozenset | set = frozenset()
              ) -> tuple[Action, float, float] | None:
    """The offer to make now (see the module docstring) with its gains in win chance for the
    offering seat and for the target, or None; none of ``skip`` (``(target, give, take)``)."""
    if game.phase != Phase.PRE_ROLL or not game.can_offer_trade():
        return None
    seat = game.current_player
    offers = [o for target in game.active_seats() if target != seat
              for o in listed_swaps(game, seat, target)
              if (o.target, o.give, o.take) not in skip]
    if not offers:
        return None
    theirs, mine = trade_gains(game, offers, value)
    best = None
    for offer, t, g in zip(offers, theirs, mine, strict=True):
        if g >= MIN_GAIN and t >= -TARGET_LOSS_SHARE * g and (best is None or g > best[1]):
            best = (offer, float(g), float(t))
    return best


@dataclass
class SwapMemory:
    """What a seat offered: the turn of its last offer and the offers made in each position."""

    last_turn: int = -1
    made: set = field(default_factory=set)

    def reset(self) -> None:
        self.last_turn = -1
        self.made.clear()

    def skip(self, game: Game) -> set:
        """The ``(target, give, take)`` keys already offered with the owners as they are now."""
        owners = tuple(game.owner)
        return {key for key, at in self.made if at == owners}

    def offer(self, game: Game, value: ValueNet) -> Action | None:
        """The swap to offer now, once a turn, remembered; or None."""
        if game.turn_count == self.last_turn:
            return None
        found = best_swap(game, value, self.skip(game))
        if found is None:
            return None
        offer = found[0]
        self.last_turn = game.turn_count
        self.made.add(((offer.target, offer.give, offer.take), tuple(game.owner)))
        return offer


class SwappingPlayer(LearnedPlayer):
    """The hard player (guarded answers) that also offers swaps (``SwapMemory.offer``) before
    rolling, composed step by step through the environment; everything else is the policy's."""

    def __init__(self, folder=DEFAULT_CHECKPOINT, name: str | None = "hard-swaps") -> None:
        super().__init__(folder, name=name, safe_trades=True)
        self.memory = SwapMemory()
        self._steps: list[int] = []

    def reset(self, seed: int | None = None) -> None:
        self.memory.reset()
        self._steps = []

    def act(self, env, seat: int) -> int:
        game = env.game
        if env.draft is None and game.phase == Phase.PRE_ROLL and not self._steps:
            offer = self.memory.offer(game, self.value)
            if offer is not None:
                self._steps = offer_steps(seat, game.num_players, offer)
        if self._steps:
            i = self._steps.pop(0)
            if env.observe(env.possible_agents[seat])["action_mask"][i]:
                return i
            self._steps = []  # the table's caps ended the draft: the policy goes on
        return super().act(env, seat)
