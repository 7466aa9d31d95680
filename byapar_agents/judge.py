"""The judge: the hard player's money decisions chosen one ply deep by a value network.

Where the hard policy buys or declines, bids or drops out, leaves jail or not, builds, and raises
cash, the judge lists the candidates, makes the position after each on a clone of the game,
reads the deciding seat's chance of winning in each by a value network (``byapar_agents.value``),
and
plays the best of them when it beats the policy's own choice by more than ``margin``; otherwise
the policy's choice stands. Trades are not judged: offers, drafts and answers stay the deal
module's (``byapar_agents.deals``) and the policy's.

The candidates (``candidate_ids``), every one a legal id of the action table:

- buying: buy and decline; an auction: every bid id and dropping out (at most 12);
- before rolling: the policy's choice, rolling, paying the fine or using a bail card, and the
  policy's next most likely ids (``TOP_K`` in all, prior at least ``PRIOR_FLOOR``) that build,
  sell, mortgage or pay off; never one that undoes a move the judge chose earlier in the turn
  (a building it put up, a mortgage it paid off), so a turn cannot go back and forth;
- raising cash: the policy's ``TOP_K`` most likely ids.

Rolling is read as the position before the dice: the network's chance there is its expectation
over the roll, and a clone never rolls the game's own dice (which would read the real game's
future). Every other candidate changes no chance: a purchase, a bid, a building or a mortgage.

The network it reads is a choice: the shipped value network, trained on game outcomes, or one
fitted to search labels (``byapar_training.search_value``), whose sibling order is the search's.
"""

from __future__ import annotations

import numpy as np

from byapar_env.action_table import ACTIONS, ROLL_ID, engine_action
from byapar_env.driver import NO_DECISION_CAP, SeatDriver
from byapar_env.engine import Action, Game, Phase

from .policy_rollout import UNDOES
from .value import ValueNet

MARGIN = 0.005  # the chance a candidate must gain over the policy's choice to replace it
TOP_K = 4  # the policy's most likely ids considered before rolling and when raising cash
PRIOR_FLOOR = 0.02  # ... and only those at least this likely
JUDGED_PHASES = frozenset({Phase.PRE_ROLL, Phase.BUY, Phase.AUCTION, Phase.RAISE_CASH})
_EVERY_ID = frozenset({"buy", "decline", "drop_out", "bid_min", "bid_raise", "bid_price"})
_PRE_ROLL_WAYS = frozenset({"roll", "pay_fine", "use_bail_card"})
_PRE_ROLL_MOVES = frozenset({"build", "sell", "mortgage", "unmortgage"})


class Judge:
    """Chooses among a decision's candidates by ``value``'s chance for the deciding seat."""

    def __init__(self, value: ValueNet, margin: float = MARGIN, top_k: int = TOP_K) -> None:
        if not 0 <= margin < 1 or top_k < 1:
            raise ValueError(f"margin must be from 0 to below 1 and top_k at least 1, got "
                             f"{margin!r} and {top_k!r}")
        self.value = value
        self.margin = margin
        self.top_k = top_k

    def candidate_ids(self, game: Game, probs: np.ndarray, mask: np.ndarray,
                      undone: frozenset[Action] | set[Action] = frozenset()) -> list[int]:
        """The ids worth judging at ``game``'s decision, the policy's choice first; a single
        id where nothing is to be judged. ``probs`` are the policy's over the legal ids
        ``mask``; ``undone``: engine actions that would undo a move chosen this turn."""
        legal = np.flatnonzero(mask)
        choice = int(legal[np.argmax(probs[legal])])
        if game.phase not in JUDGED_PHASES or ACTIONS[choice].kind.startswith("trade"):
            return [choice]
        by_prior = sorted(legal.tolist(), key=lambda i: (-probs[i], i))
        if game.phase in (Phase.BUY, Phase.AUCTION):
            picked = [i for i in by_prior if ACTIONS[i].kind in _EVERY_ID]
        elif game.phase == Phase.PRE_ROLL:
            picked = [i for i in by_prior if ACTIONS[i].kind in _PRE_ROLL_WAYS]
            picked += [i for i in by_prior[:self.top_k] if ACTIONS[i].kind in _PRE_ROLL_MOVES
                       and probs[i] >= PRIOR_FLOOR
                       and engine_action(game, i) not in undone]
        else:
            picked = [i for i in by_prior[:self.top_k] if probs[i] >= PRIOR_FLOOR]
        return [choice] + [i for i in dict.fromkeys(picked) if i != choice]

    def choose(self, game: Game, seat: int, probs: np.ndarray, mask: np.ndarray,
               undone: frozenset[Action] | set[Action] = frozenset()) -> int:
        """The id to play: the best candidate by the network, or the policy's choice unless
        another beats it by more than the margin."""
        ids = self.candidate_ids(game, probs, mask, undone)
        if len(ids) == 1:
            return ids[0]
        chances = self.value.seat_chances([child(game, i) for i in ids], seat)
        best = int(np.argmax(chances))
        return ids[best] if chances[best] > chances[0] + self.margin else ids[0]


def child(game: Game, action_id: int) -> Game:
    """The position after ``action_id`` (no trade id) as the table takes it; rolling: the
    position before the dice, unchanged (``game`` itself, not to be changed)."""
    if action_id == ROLL_ID:
        return game
    return position_after(game, engine_action(game, action_id))


def position_after(game: Game, action: Action, pre_roll_actions: int = 0) -> Game:
    """A clone of ``game`` after ``action``, taken as the table takes it (a trade offer composed
    step by step, ``pre_roll_actions`` already counted this turn)."""
    position = game.clone()
    driver = SeatDriver.for_game(position, max_decisions=NO_DECISION_CAP)
    driver.pre_roll_actions = pre_roll_actions
    driver.take_engine(action)
    return position


def undoing(action: Action) -> Action | None:
    """The engine action that would undo ``action`` within a turn
    (``policy_rollout.UNDOES``), if any."""
    reverse = UNDOES.get(action.kind)
    return None if reverse is None else action._replace(kind=reverse)
