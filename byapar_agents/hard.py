"""The hard player: policies learned by self-play, read from ``byapar_checkpoints/hard/``, trading
by
the deal judgement of ``byapar_agents.deals``.

It reads its observation and mask and plays the policy's most likely legal action, except in
trades. A checkpoint may name table specialists in its ``meta.json`` (``"table_specialists":
{"2": "table_2"}``): a sub-folder holding a checkpoint trained further on tables of that size,
played when the game started with that many players; the folder's own policy plays every other
table. Loading needs numpy alone; a checkpoint made for another observation layout, action
table or board, or a damaged one, is refused with ``CheckpointError``.

How it trades is ``trades``:

- ``"deals"`` (the default, the name ``hard``): its answers are the deal judgement's
  (``byapar_agents.deals.refusal``), and an acceptance of a deal that completes a group stands only
  if
  ``deal_rollouts`` pairs of rollouts confirm it (``byapar_agents.deal_rollouts``; 0: none); before
  rolling, once a turn, it makes the deal module's offer if there is one (swaps and
  purchases that complete a group, sales, denials), composed step by step through the
  environment; the policy's own offers are made too, but never one that the seat made before
  while the places it touches stand as they did (``byapar_agents.deals.DealMemory``, one per game
  and
  seat): a repeat is cancelled and the policy offers nothing more that turn. With
  ``screen_offers`` (the default; off for ``hard-unscreened``, the release before) an offer the
  policy composed is cancelled the same way when the value network says it would cost the seat
  win chance if accepted (``deals.own_offer_loses``). With
  ``check_proposals`` (the name ``hard-sim``) its own offers that complete a group are checked
  by rollouts too, at about four times the cost of a game.
  ``offers`` names where its offers come from (both by default): ``"module"``, the deal
  module's; ``"policy"``, those the policy composes. Left out, the deal module is not asked,
  or the policy is not given the actions that start an offer; its answers stay as they are.
  (What each source is worth at seen tables, measured by ``bench.hard_offers``:
  docs/expert_iteration.md, "Where the hard player's edge comes from".)
- ``"guard"`` (the name ``hard-guarded``, the previous release): the policy's answers in a
  canonical form, checked by the value network with fixed caps (``byapar_agents.trade_guard``); the
  policy's offers as it composes them.
- ``"policy"`` (the name ``hard-unguarded``): the policy alone, answers and offers.

With ``read_answers`` (the name ``hard-aimed``; off by default), once a turn before the deal
module's offer it makes the offer of ``byapar_agents.aimed_offers``: of a wide list, the one that
gains it most by its value network among those that the target may accept by the answers read
this game (``byapar_agents.answer_reader``, one reader per game, fed by the environment's
watchers from the player's first decision on; like the deal memory, it lives with the game in
this process). Ahead of the hard player on four seen tables, behind it on the unseen gate
(docs/expert_iteration.md, "Offers aimed by the rivals' answers"), so not the default.

With ``consolidate`` (the name ``hard-consolidating``; off by default), in the same slot it makes
instead the offer of ``aimed_offers.consolidation_offer``: the wide list's deal that completes no
group on either side and gains it most, among those the answers read this game give at least a
5% chance. Ahead of the hard player on five seen tables, level on the unseen gate at six seats
(docs/expert_iteration.md, "Two-way swaps barred, and consolidating offers"), so not the
default.

With a ``judge`` (``byapar_agents.judge``; the name ``hard-judged``), the policy's choices away from
trades (buying, bids, jail, building, raising cash) are checked one ply deep by a value network
and replaced where another candidate is better by more than the judge's margin.

With ``value_bid_tables`` (table sizes; none by default, ``VALUE_BID_TABLES`` for the name
``hard-valuebids``), at a table that started with one of those many players it bids in auctions
as the ``strategist`` does (``byapar_agents.panel.value_bid``: the least raise while the bid stays
within the place's worth to it and leaves a third of the medium player's reserve), not by its
policy.

With ``keep_moves`` (the default; off for ``hard-guarded`` and ``hard-unguarded``, the earlier
releases), it never undoes before rolling a move it made earlier in the same turn: no paying off
a mortgage it took that turn, no mortgaging a place it paid off, no selling a house it built, no
building where it sold (``policy_rollout.UNDOES``). Such a pair changes nothing but the cost: a
mortgage paid off costs its interest, a house sold half its price. The policy did it: at six seats
against five no-trade players (``pop-4``) it mortgaged and paid off about 18 times a game,
often the same place twice in one turn.
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path

import numpy as np

from byapar_checkpoints import shipped
from byapar_env.action_table import (
    ACTIONS,
    CANCEL_ID,
    DROP_OUT_ID,
    SUBMIT_ID,
    TRADE_START_IDS,
    engine_action,
)
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import offer_steps
from byapar_env.engine import Action, Game, Phase, actions

from .aimed_offers import aimed_offer, consolidation_offer
from .answer_reader import AnswerReader
from .base import bid_id
from .deal_rollouts import ROLLOUTS as DEAL_ROLLOUTS
from .deal_rollouts import RolloutCheck
from .deals import DealMemory, accepts_pending, appraise, made, own_offer_loses, refusal
from .judge import Judge, undoing
from .network import NumpyPolicy, load_checkpoint, specialist_folders
from .panel import value_bid
from .trade_guard import ACCEPT_ID, REJECT_ID, safe_answers, safe_pending_answer
from .value import ValueNet, shipped_value

DEFAULT_CHECKPOINT = shipped("hard")
TRADE_MODES = ("deals", "guard", "policy")
# Where the offers of the "deals" mode come from: the deal module's proposals, and the offers
# the policy composes itself (screened as the module docstring says).
OFFER_SOURCES = ("module", "policy")
# The tables (players at the start) where ``hard-valuebids`` bids in auctions by the places'
# worth (``panel.value_bid``): ahead of the policy's bids at six seats on seen tables, behind at
# four; level on the unseen gate, so not the hard player's default (docs/expert_iteration.md,
# "Auctions bid by worth at six seats").
VALUE_BID_TABLES = frozenset({6})


class _Seat:
    """One seat's trading state in one game: its deal memory, the steps of an offer being
    composed, and the turn in which its policy may offer no more."""

    __slots__ = ("memory", "steps", "quiet_turn", "aimed_turn", "undone", "undone_turn")

    def __init__(self) -> None:
        self.memory = DealMemory()
        self.steps: list[int] = []
        self.quiet_turn = -1
        self.aimed_turn = -1  # the turn its aimed offer was last looked for
        self.undone: set[Action] = set()  # what would undo the judge's moves this turn
        self.undone_turn = -1


class LearnedPlayer:
    """A player from any checkpoint folder."""

    def __init__(self, folder: str | Path = DEFAULT_CHECKPOINT, name: str | None = None,
                 safe_trades: bool = True, value: ValueNet | None = None,
                 trades: str | None = None, deal_rollouts: int = DEAL_ROLLOUTS,
                 check_proposals: bool = False, judge: Judge | None = None,
                 keep_moves: bool = True, value_bid_tables: frozenset[int] = frozenset(),
                 screen_offers: bool = True, read_answers: bool = False,
                 consolidate: bool = False, offers: tuple[str, ...] = OFFER_SOURCES):
        self.folder = Path(folder)
        self.trades = trades or ("deals" if safe_trades else "policy")
        if self.trades not in TRADE_MODES:
            raise ValueError(f"trades must be one of {', '.join(TRADE_MODES)}, "
                             f"got {self.trades!r}")
        if not (isinstance(offers, (tuple, list))
                and all(isinstance(o, str) and o in OFFER_SOURCES for o in offers)):
            raise ValueError(f"offers must be a tuple of {', '.join(OFFER_SOURCES)} (or empty), "
                             f"got {offers!r}")
        self.offers = tuple(offers)
        self.value = (value or shipped_value()) if self.safe_trades else None
        self.policy, self.meta = load_checkpoint(self.folder)
        self.name = name or self.meta.get("name", self.folder.name)
        self.judge = judge
        self.keep_moves = keep_moves
        self.screen_offers = screen_offers
        self.read_answers = read_answers and self.trades == "deals"
        self.consolidate = consolidate and self.trades == "deals"
        self.value_bid_tables = frozenset(value_bid_tables)
        # Deals that complete a group, checked by rollouts (byapar_agents.deal_rollouts): answers,
        # and with check_proposals its own offers too
        self.check = (RolloutCheck(self.value, self.policy, deal_rollouts,
                                   proposals=check_proposals)
                      if self.trades == "deals" and deal_rollouts > 0 else None)
        self.specialists: dict[int, NumpyPolicy] = {
            size: load_checkpoint(sub)[0] for size, sub in specialist_folders(self.folder,
                                                                              self.meta).items()}
        # Trading state per game (weakly held: it goes with the game) and seat. One player
        # object may sit at several seats and, in byapar serve, at several tables at once.
        self._seats: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._readers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # The reader each environment's watchers hold for this player: one at a time, so an
        # environment reset for game after game does not gather readers.
        self._watching: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:
        # Trading state lives with games in this process: a copy sent to another process
        # (training's workers, the arena's) starts without it.
        state = dict(self.__dict__)
        del state["_seats"], state["_readers"], state["_watching"], state["_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._seats = weakref.WeakKeyDictionary()
        self._readers = weakref.WeakKeyDictionary()
        self._watching = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    @property
    def safe_trades(self) -> bool:
        """Whether its answers are checked (``trades`` other than ``"policy"``)."""
        return self.trades != "policy"

    def policy_for(self, num_players: int) -> NumpyPolicy:
        """The policy that plays a table of ``num_players``."""
        return self.specialists.get(num_players, self.policy)

    def reset(self, seed: int | None = None) -> None:
        """Forget every game's trading state."""
        with self._lock:
            self._seats = weakref.WeakKeyDictionary()
            self._readers = weakref.WeakKeyDictionary()

    def answer_reader(self, env: raw_env) -> AnswerReader:
        """The answers read in ``env``'s game: made, and set to watch every move of the
        environment, the first time it is asked for."""
        game = env.game
        with self._lock:
            reader = self._readers.get(game)
            if reader is None:
                reader = self._readers[game] = AnswerReader(game.num_players)
            before = self._watching.get(env)
            if before is not reader:
                if before is not None and before.watch in env.watchers:
                    env.watchers.remove(before.watch)
                env.watchers.append(reader.watch)
                self._watching[env] = reader
        return reader

    def seat_state(self, game: Game, seat: int) -> _Seat:
        """``seat``'s trading state in ``game``."""
        with self._lock:
            seats = self._seats.get(game)
            if seats is None:
                seats = self._seats[game] = {}
            return seats.setdefault(seat, _Seat())

    def act(self, env: raw_env, seat: int) -> int:
        game = env.game
        if (self.value_bid_tables and game.phase == Phase.AUCTION and env.draft is None
                and len(env.possible_agents) in self.value_bid_tables):
            move = value_bid(game, seat)
            return DROP_OUT_ID if move == actions.DROP_OUT else bid_id(game, move.amount)
        if self.trades == "policy":
            return self._policy_act(env, seat)
        if game.phase == Phase.TRADE_ANSWER and env.draft is None:
            return ACCEPT_ID if self.accepts_pending(game) else REJECT_ID
        if self.trades == "guard":
            return self._policy_act(env, seat)
        return self._dealing_act(env, seat)

    def _dealing_act(self, env: raw_env, seat: int) -> int:
        game = env.game
        state = self.seat_state(game, seat)
        obs = env.observe(env.possible_agents[seat])
        reader = self.answer_reader(env) if self.read_answers or self.consolidate else None
        if (reader is not None and env.draft is None and game.phase == Phase.PRE_ROLL
                and not state.steps and state.aimed_turn != game.turn_count
                and game.can_offer_trade()):
            # One slot a turn: the aimed offer, or with consolidate alone the consolidating one
            state.aimed_turn = game.turn_count
            pick = aimed_offer if self.read_answers else consolidation_offer
            chosen = pick(game, self.value, reader,
                          lambda offer: state.memory.is_repeat(game, offer))
            if chosen is not None:
                state.memory.remember(game, chosen.offer)
                state.steps = offer_steps(seat, game.num_players, chosen.offer)
        if (env.draft is None and game.phase == Phase.PRE_ROLL and not state.steps
                and "module" in self.offers):
            offer = state.memory.propose(game, self.value, self.check)
            if offer is not None:
                state.steps = offer_steps(seat, game.num_players, offer)
        if state.steps:
            i = state.steps.pop(0)
            if obs["action_mask"][i]:
                return i
            state.steps = []  # the table's caps ended the draft: the policy goes on
        quiet = state.quiet_turn == game.turn_count or "policy" not in self.offers
        i = self._policy_act(env, seat, obs, quiet=quiet)
        if i == SUBMIT_ID and env.draft is not None:
            offer = env.draft.offer()
            repeat = state.memory.is_repeat(game, offer)
            if not repeat:
                # Remembered even if screened out below: composed again while its places
                # stand, it is cancelled as a repeat.
                state.memory.remember(game, offer)
            if repeat or (self.screen_offers and own_offer_loses(game, offer, self.value)):
                state.quiet_turn = game.turn_count
                return CANCEL_ID
        return i

    def _policy_act(self, env: raw_env, seat: int, obs: dict | None = None,
                    quiet: bool = False) -> int:
        if obs is None:
            obs = env.observe(env.possible_agents[seat])
        mask = obs["action_mask"]
        if quiet and any(mask[i] for i in TRADE_START_IDS):
            mask = np.array(mask, copy=True)
            mask[list(TRADE_START_IDS)] = 0
        game = env.game
        keeping = env.draft is None and game.phase == Phase.PRE_ROLL and (
            self.keep_moves or self.judge is not None)
        if keeping:
            state = self.seat_state(game, seat)
            if state.undone_turn != game.turn_count:
                state.undone, state.undone_turn = set(), game.turn_count
            if self.keep_moves:
                mask = kept_moves_mask(game, mask, state.undone)
        policy = self.policy_for(len(env.possible_agents))
        if self.judge is None or env.draft is not None:
            i = policy.act(obs["observation"], mask)
        else:
            i = self.judge.choose(game, seat, policy.probabilities(obs["observation"], mask),
                                  mask, state.undone if keeping else frozenset())
        if keeping and not ACTIONS[i].kind.startswith("trade"):
            reverse = undoing(engine_action(game, i))
            if reverse is not None:
                state.undone.add(reverse)
        return i

    def accepts_pending(self, game: Game) -> bool:
        """Whether it accepts the trade offer pending in ``game`` (see the module
        docstring)."""
        if self.trades == "deals":
            return accepts_pending(game, self.value, self.check)
        return safe_pending_answer(self.policy_for(game.num_players), self.value, game)

    def accepts(self, game: Game, offers: list[Action]) -> list[bool]:
        """Its answers to each of ``offers``, offers the seat to play in ``game`` could make
        before rolling, all at once (the offer exploit test asks thousands). Unguarded, the
        policy's answers in the canonical form, which at the start of a turn (no offer made,
        no action taken) is the form the environment shows it."""
        if self.trades == "deals":
            return [refusal(a) is None and self._confirmed(game, a)
                    for a in appraise(game, offers, self.value)]
        policy = self.policy_for(game.num_players)
        return safe_answers(policy, self.value, game, offers)

    def _confirmed(self, game: Game, a) -> bool:
        """Whether the rollout check (if any) lets an acceptance of appraised offer ``a``
        (one the seat to play in ``game`` could make) stand, as at the table."""
        completes = a.completes_offerer or a.completes_target
        if self.check is None or not completes:
            return True
        return self.check.answer(made(game, a.offer), completes)


_MOVE_KINDS = frozenset({"build", "sell", "mortgage", "unmortgage"})
_MOVE_IDS = np.array([i for i, a in enumerate(ACTIONS) if a.kind in _MOVE_KINDS])


def kept_moves_mask(game: Game, mask: np.ndarray, undone: set[Action]) -> np.ndarray:
    """``mask`` without the ids whose engine action is in ``undone`` (what would undo a move
    made earlier this turn); ``mask`` itself when none is."""
    if not undone:
        return mask
    drop = [i for i in _MOVE_IDS[mask[_MOVE_IDS] != 0] if engine_action(game, int(i)) in undone]
    if not drop:
        return mask
    kept = np.array(mask, copy=True)
    kept[drop] = 0
    return kept
