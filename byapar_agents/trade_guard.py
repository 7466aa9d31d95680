"""Safe trade answers: a computer player accepts a trade only when the value network says that
its own chance of winning does not fall.

The learned policy answers offers from its observation alone, and it learned those answers
against players who all priced places one way; an offering seat that prices groups finds the
deals it accepts and should not (``docs/trade_safety.md``). So an answer is checked before it
is given:

- **The policy's answer, in a canonical form** (``policy_accepts``): the answering seat's
  encoding of the position with the offer pending, the offer shown as the turn's first
  (``turn.offers_made`` 1/3) and the pre-roll count as the offer's own composition steps. The
  answer then depends on the position and the offer alone, never on how many offers came
  before it this turn: a seat that makes the same offer again gets the same answer.
- **The value network's check** (``answer_gains``): the answering seat's win chance with the
  offer accepted, less with it declined, both by ``byapar_agents.value`` (one forward pass over both
  positions' seats). An offer is accepted only if the policy accepts it, the gain is at least
  ``ACCEPT_MARGIN``, the offering seat's gain is below it by at least ``-RIVAL_EDGE`` and at
  most ``MAX_RIVAL_GAIN``, and, when
  the offer hands the offering seat the last place of a colour group (``completes_group``), the
  gain is at least ``COMPLETION_GAIN``: a rival's completed group is worth more than any single
  figure shows, so it must pay for itself clearly.

``safe_answers`` gives the answers to many offers of one position at once (the offer exploit
test, ``byapar_harness`` style callers); ``safe_pending_answer`` the answer to the offer pending
in a game.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from byapar_env.action_table import ACTIONS, fixed_action_id
from byapar_env.driver import PRE_ROLL_CAP, TRADE_STEP_CAP, offer_step_count
from byapar_env.engine import Action, Game, Phase, actions
from byapar_env.observation import (
    OBSERVATION_SIZE,
    encode,
    observation_layout,
    write_offer_received,
)

from .deals import answered, completes_group
from .network import NumpyPolicy
from .value import ValueNet

# The answering seat's win chance may not fall at all (measured: docs/trade_safety.md).
ACCEPT_MARGIN = 0.0
# Handing a rival the last place of a group: only for a clear gain (three points of win chance).
COMPLETION_GAIN = 0.03
# The answering seat must gain at least a point more than the offering seat: an offer comes
# from a seat that chose it, so where the value network errs, the offers made are those it errs
# on in the offering seat's favour (adverse selection); a deal good for both is still taken
# when it is better for the answering seat. Measured beside 0 and -0.02: docs/trade_safety.md.
RIVAL_EDGE = -0.01
# The most the offering seat may gain, two points of win chance, however much the answering
# seat gains: a seat that trades with every other one gains from each deal while each of them
# gains from its own deals only, so deals that make the offering seat much stronger cost the
# table (measured: without the cap a seat making the best accepted offers won 35.5% against
# three hard players, with it 27.0%; docs/trade_safety.md).
MAX_RIVAL_GAIN = 0.02
ACCEPT_ID = fixed_action_id(actions.ACCEPT_TRADE)
REJECT_ID = fixed_action_id(actions.REJECT_TRADE)
_LAYOUT = observation_layout()
_OFFERS_SLOT = _LAYOUT["turn.offers_made"].start
_PRE_ROLL_SLOT = _LAYOUT["turn.pre_roll_actions"].start
_ANSWER_MASK = np.zeros(len(ACTIONS), bool)
_ANSWER_MASK[[ACCEPT_ID, REJECT_ID]] = True


def canonical_rows(game: Game, offerer: int, offers: Sequence[Action]) -> np.ndarray:
    """The answering seat's canonical encoding (see the module docstring) of each offer of
    ``offerer``'s, pending in ``game`` (the offerer to play before rolling). All offers go to
    one target."""
    target = offers[0].target
    answer = game.clone()
    answer.log = []
    answer.apply(offers[0])
    base = encode(answer, target, np.empty(OBSERVATION_SIZE, np.float32), None, 0,
                  PRE_ROLL_CAP, TRADE_STEP_CAP)
    base[_OFFERS_SLOT] = 1 / 3
    rows = np.repeat(base[None, :], len(offers), axis=0)
    n = game.num_players
    for row, offer in zip(rows, offers, strict=True):
        write_offer_received(row, target, offerer, offer, n)
        row[_PRE_ROLL_SLOT] = offer_step_count(offer) / PRE_ROLL_CAP
    return rows


def policy_accept_chances(policy: NumpyPolicy, game: Game, offerer: int,
                          offers: Sequence[Action]) -> np.ndarray:
    """The policy's probability of accepting each offer (all to one target) in the canonical
    encoding, in one forward pass."""
    logits = np.where(_ANSWER_MASK, policy.logits(canonical_rows(game, offerer, offers)),
                      -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    return probs[:, ACCEPT_ID] / probs.sum(axis=1)


def trade_gains(game: Game, offers: Sequence[Action], value: ValueNet
                ) -> tuple[np.ndarray, np.ndarray]:
    """For each offer the seat to play in ``game`` could make (before rolling), the win
    chance with the offer accepted less with it declined, by the value network: of its target
    and of the offering seat. Offers may go to different targets; the declined position is the
    same for all of them. One forward pass."""
    offerer = game.current_player
    positions = [answered(game, offers[0], False, first=False)]
    positions += [answered(game, offer, True, first=False) for offer in offers]
    chances = value.table_chances(positions)
    declined = chances[0]
    target = np.array([chances[k + 1][o.target] - declined[o.target]
                       for k, o in enumerate(offers)])
    mine = np.array([chances[k + 1][offerer] - declined[offerer] for k in range(len(offers))])
    return target, mine


def answer_gains(game: Game, offers: Sequence[Action], value: ValueNet) -> np.ndarray:
    """The targets' gains of ``trade_gains``."""
    return trade_gains(game, offers, value)[0]


def pending_gains(game: Game, value: ValueNet) -> tuple[float, float]:
    """For the offer pending in ``game``: the win chance with it accepted less with it
    declined, of the answering seat and of the offering seat (one forward pass)."""
    offerer, offer = game.offer
    accepted, declined = value.table_chances(
        [answered(game, None, True, first=False),
         answered(game, None, False, first=False)])
    return (accepted[offer.target] - declined[offer.target],
            accepted[offerer] - declined[offerer])


def passes_check(gain: float, offerer_gain: float, completes: bool) -> bool:
    """Whether a trade clears the check: the answering seat's ``gain`` in win chance, the
    offering seat's ``offerer_gain``, and whether it completes the offering seat's group."""
    floor = max(ACCEPT_MARGIN, COMPLETION_GAIN) if completes else ACCEPT_MARGIN
    return gain >= floor and offerer_gain - gain <= RIVAL_EDGE and offerer_gain <= MAX_RIVAL_GAIN


def safe_answers(policy: NumpyPolicy, value: ValueNet | None, game: Game,
                 offers: Sequence[Action]) -> list[bool]:
    """Whether the guarded player accepts each offer the seat to play in ``game`` could make
    (before rolling; every offer legal now): the policy's canonical answer and the value
    network's check (``value`` None: the policy's answer alone)."""
    if not offers:
        return []
    offerer = game.current_player
    accepts = np.zeros(len(offers), bool)
    by_target: dict[int, list[int]] = {}
    for k, offer in enumerate(offers):
        by_target.setdefault(offer.target, []).append(k)
    for ks in by_target.values():
        chances = policy_accept_chances(policy, game, offerer, [offers[k] for k in ks])
        accepts[ks] = chances > 0.5
    if value is None:
        return [bool(a) for a in accepts]
    out = [False] * len(offers)
    asked = [k for k in range(len(offers)) if accepts[k]]
    if asked:
        gains, theirs = trade_gains(game, [offers[k] for k in asked], value)
        for k, gain, other in zip(asked, gains, theirs, strict=True):
            out[k] = passes_check(float(gain), float(other),
                                  completes_group(game, offerer, offers[k]))
    return out


def safe_pending_answer(policy: NumpyPolicy, value: ValueNet | None, game: Game) -> bool:
    """Whether the guarded player accepts the offer pending in ``game`` (its target to
    answer; ``value`` None: the policy's canonical answer alone)."""
    if game.phase != Phase.TRADE_ANSWER or game.offer is None:
        raise ValueError("safe_pending_answer needs a game with a trade offer to answer")
    offerer, offer = game.offer
    rows = np.empty((1, OBSERVATION_SIZE), np.float32)
    encode(game, offer.target, rows[0], None, offer_step_count(offer), PRE_ROLL_CAP,
           TRADE_STEP_CAP)
    rows[0, _OFFERS_SLOT] = 1 / 3
    logits = policy.logits(rows)[0]
    if logits[ACCEPT_ID] <= logits[REJECT_ID] or value is None:
        return bool(logits[ACCEPT_ID] > logits[REJECT_ID])
    return pending_passes_check(game, value)


def pending_passes_check(game: Game, value: ValueNet) -> bool:
    """Whether the offer pending in ``game`` passes the value network's check for the seat
    that must answer it (the expert's searched answers go through this too)."""
    offerer, offer = game.offer
    return passes_check(*pending_gains(game, value), completes_group(game, offerer, offer))
