"""The expert: the hard player's judgement, checked by search with the real engine.

    make_agent("expert")                  # 48 simulations a decision: reproducible (the default)
    make_agent("expert", sims=128)        # more simulations, still reproducible
    make_agent("expert", budget_ms=300)   # a time budget: as many as fit (``byapar serve``)
    make_agent("expert-all-medium@24")    # a variant: every decision searched, medium rollouts

**What is searched.** The decisions that move money (``focus``, the default): buying or
declining, bids, answers to trade offers, and, before rolling, a choice between the policy's
move and a trade offer or a way out of jail. Building, selling and mortgaging are left to the
policy: over three rounds they change a seat's share by a tenth of a point or less, which a few
dozen simulations cannot tell from noise, and the simulations they took go to the money
decisions instead (``focus=False``, ``expert-all``, searches every decision with a real choice).
With ``enumerate_moves`` (``expert-moves``) the moves that ``byapar_agents.candidates.move_choices``
lists (jail, a building per group, a pay-off, the ways of raising cash) are searched as well;
with ``enumerate_bids`` (``expert-enum``) its auction bids join the candidates.
For a searched decision the expert lists a few candidate actions and plays each forward on
clones of the game:

- the learned hard policy's choice (a trade offer composed step by step by the policy, as in the
  environment), and its next most likely actions while their prior is at least ``PRIOR_FLOOR``,
  ``TOP_K`` in all: the prior prunes a choice of up to 180 ids to the few worth simulating;
- the rollout player's own choice in this position (``ROLLOUT_PLAYER``, the medium player),
  which brings the concrete trade offers and bids a hand-written player would make;
- before rolling, with ``find_trades``, the trade finder's best offer
(``byapar_agents.trade_finder``):
  of a list of one-place offers with money either way, one the policy would accept as its
  target, with the largest gain in win chance by the value network. The search then plays it
  like any candidate, against targets played by the policy or the medium player, so it is made
  only when the simulations show an edge over the policy's choice.

A decision with a single candidate (rolling with nothing else worth doing, a forced sale) is
answered at once, without a simulation.

**The policy's choice is the hard player's.** Through the environment (``act``), when the
policy's choice stands and it is to start a trade draft, the expert takes the start id and the
policy composes the draft live, step by step, to its submit or cancel, as the hard player does:
the order of its steps and their count toward the pre-roll cap are the hard player's. A draft
the policy would cancel is started too (the search simulates the policy's next choice in its
place: a cancelled draft changes nothing in the game). The one deliberate difference is
``UNDOES`` (``byapar_agents.policy_rollout``). So with the search silent (fewer than
``MIN_PAIRS`` paired simulations: ``expert@8`` or fewer), the expert plays the hard player's
game decision for decision (``tests/test_expert.py`` checks it); the arena seats it on
environment tables for that reason (``engine_tables``). Called at the engine level (``choose``:
``byapar serve``, ``analyse``), it answers with the finished offer, which an engine table
composes in its own order.

**How values are estimated.** ``byapar_agents.search``: each simulation clones the game, gives it
fresh
dice and reshuffled decks from a per-simulation seed, takes the candidate and plays every seat
on for ``horizon_rounds`` rounds (``DEFAULT_HORIZONS``: 1 with the value network, the default;
3 with the share), to the point where the seat whose turn it is at the decision starts its turn
again (the same point for every candidate, ``byapar_agents.search.horizon``), or to the game's end
if
that comes first. The score is the
expert's share of the win at the end; at the horizon (``value``) either its share of all
seats' position value (``share``) or its chance of winning by the value network (``net``,
``byapar_agents.value``, trained by ``byapar train-value`` on the outcomes of games: a position's
worth
in wins, not in money, so that being the one rich seat counts for more than a share of the
money). Simulation ``k`` of every candidate uses the same seed (common random numbers), so
candidates are compared on the same luck. Who plays the rollouts (``rollout``): by default
``mixed``, the learned policy in the expert's own seat (its later moves are the policy's, as
they will be) and, in each other seat, the policy or the medium player, drawn for each
simulation. The expert cannot know its opponents; a search that models them all as medium
players departs from the policy wrongly against strong players, and one that models them as
itself misjudges loose players (``docs/expert.md`` compares the three on the same games).
The policy in a rollout costs about what the medium player does a round: it takes its most
likely action, composes no trade offers and never undoes its own move within a turn
(``PolicyRolloutPlayer``). ``rollout="population"`` draws each other seat from three kinds
instead: the policy, the medium player or a player of the generated population (training seeds
only; ``byapar_agents.search``). ``rollout="read"`` (``expert-read``) reads every rival's moves
through
the environment (``SeatDriver.watchers``) and plays each rival as a kind drawn from what it
resembles so far (``byapar_agents.rival_reader``). ``rollout="dealing"`` (``expert-dealing``)
plays rivals that trade among themselves: its own seat and each rival the policy with the hard
player's deal module, or a rival the medium player (``byapar_agents.search``; it needs
``value="net"``). ``workers=N`` plays the simulations on N processes, the same scores for any N
(``byapar_agents.search_pool``).

**What the choice is.** Of the candidates that beat the policy's choice by more than ``EDGE_Z``
(2) standard errors of their paired difference, shared out over the candidates tested and
read from Student's t with the pairs' degrees of freedom (``edge_z``: the best of several noisy
estimates is high by chance, and a standard error from few pairs is rough), and by at least
``MIN_EDGE`` (a fifth of a point of share), over at least ``MIN_PAIRS`` (6) pairs, the one
with the best mean: on a tie, or on a difference the simulations cannot tell from noise, the
expert plays the policy's choice, so the search never overrules the policy without evidence.
An answer to a trade offer is guarded as the hard player's is: the search may choose to
accept, but the offer is accepted only if it passes the value network's check
(``byapar_agents.trade_guard.pending_passes_check``); the trade finder's offers are those a guarded
target would accept.

**What the budget buys.** ``sims``: simulations per decision in all, spread evenly over the
candidates in rounds (one simulation per candidate per round; at least one round). The same
seed then gives the same game: the arena and the gauntlet use this form (``DEFAULT_SIMS``).
``budget_ms``: rounds are played while the next one is expected to fit in the budget (from the
time of the simulations so far in this process, shared by its experts, with a margin of
``ROUND_MARGIN``; the candidates, the trade finder's list included, are counted from the start
of the decision); within a round each simulation after the first starts only if one is
expected to fit, a simulation stops at the end (checked at each of its decisions), and a round
cut short is dropped whole; the trade finder stops at the same end. A serve-side form, not
reproducible, since the number of rounds depends on the machine's speed. ``deadline`` (a
``time.perf_counter`` time, none by default) bounds the search the same way whatever the
budget: a server sets it from a request's arrival.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist

import numpy as np

from byapar_env.action_table import (
    ACTIONS,
    CANCEL_ID,
    ROLL_ID,
    SUBMIT_ID,
    TRADE_MONEY_IDS,
    DraftChoices,
    TradeDraft,
    draft_mask,
    engine_action,
    legal_ids,
)
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import PRE_ROLL_CAP, TRADE_STEP_CAP, offer_step_count
from byapar_env.engine import Action, ActionKind, Game, Phase, actions
from byapar_env.engine.errors import ByaparError
from byapar_env.observation import OBSERVATION_SIZE, encode, encode_env_part

from .base import EnginePlayer
from .candidates import auction_bids, move_choices
from .deals import DealMemory, accepts_pending
from .hard import DEFAULT_CHECKPOINT, LearnedPlayer
from .network import NumpyPolicy
from .policy_rollout import UNDOES
from .rival_reader import RivalReader
from .search import (
    DEFAULT_HORIZON_ROUNDS,
    ROLLOUT_MODES,
    ROLLOUT_PLAYER,
    Rollouts,
    paired_edge,
    rollout_seeds,
    search_root,
)
from .search_pool import MAX_WORKERS, RoundSpec, round_pool
from .trade_finder import find_offers
from .value import value_at

DEFAULT_SIMS = 48  # the arena's and gauntlet's budget: reproducible
READER_SEED = 0x12EAD  # the rival reader's models' seed (rollout "read")
# The least per-decision likelihood of a rival's best kind for the rollouts to play it as that
# kind. Measured over whole four-seat games (two seeds each): the portfolio's own kinds 1.0;
# of the unseen players, chrisaacson-aggressive 0.98-0.995 (read as chrisaacson-trading),
# intrepid-aitest 0.67-0.90, monopyly-huw 0.46-0.49 (below: played as in mixed rollouts).
READ_FIT = 0.8
DEFAULT_ROLLOUT = "mixed"  # who plays the rollouts (byapar_agents.search.ROLLOUT_MODES)
# How a rollout cut at its horizon is scored: "net", the value network's win chance
# (byapar_agents.value), or "share", the seat's share of the table's position value.
VALUE_MODES = ("net", "share")
DEFAULT_VALUE_MODE = "net"
# The horizon in rounds, by value mode: the network reads a position's worth in wins, so one
# round (the next landing of every seat) is enough and leaves time for more simulations; the
# share needs rounds of rent to tell places apart.
DEFAULT_HORIZONS = {"net": 1, "share": DEFAULT_HORIZON_ROUNDS}
# Whether the trade finder (byapar_agents.trade_finder) adds an offer to the candidates before
# rolling.
DEFAULT_FIND_TRADES = True
FINDER_LIMIT = 1  # found offers simulated a decision (each one shares out the simulations)
# A found offer made to a seat is not found again for as many rounds: a target that answers
# unlike the policy would otherwise be asked the same thing every turn.
FINDER_RETRY_ROUNDS = 3
DEFAULT_BUDGET_MS = 300.0  # the serve budget
MAX_SIMS = 100_000
MAX_BUDGET_MS = 600_000.0  # ten minutes a decision: anything more is a typo
MAX_HORIZON_ROUNDS = 200
TOP_K = 3  # the policy's most likely ids simulated (its choice among them)
PRIOR_FLOOR = 0.05  # an id less likely than this under the policy is not simulated
# What it takes to overrule the policy: an edge over its choice of two standard errors of the
# paired difference, and of at least a fifth of a point of share. With about a dozen pairs of
# simulations a looser test switches on noise, at dozens of decisions a game; and the smallest
# steady edges (a tenth of a point: mortgaging a spare place or not) are not worth a departure
# from the policy.
EDGE_Z = 2.0
MIN_EDGE = 0.002
# ...and at least this many paired simulations: from fewer the standard error is itself too
# rough for a two-error test (at 8 simulations a decision the expert then plays the policy).
# The default budget gives every candidate at least this many (48 over at most 4 candidates).
MIN_PAIRS = 6
# A round of simulations under a deadline starts only if this many times its expected time fits:
# one simulation's time varies (a rollout that meets an auction or a trade plays longer).
ROUND_MARGIN = 1.5
# The time one simulation took in this process, a running mean shared by every expert here, so
# that a fresh expert (a server may make one a call) knows it from its first decision.
_SIM_SECONDS = [0.0]
# An action that undoes one the expert took earlier in the same turn (``UNDOES``) is not a
# candidate: the policy can fall into mortgaging and paying off one place over and over before
# rolling (each pay-off costs 10% interest), and such a pair never gains anything within a turn.
_TRADE_START = "trade_start"
# Focus: the decisions that move the most money are searched, the rest left to the policy. The
# buying, auction and trade-answer decisions always; before rolling, only a choice between the
# policy's move and a trade offer or a way out of jail (the candidates of these kinds). Building,
# selling and mortgaging before the roll or to raise cash differ by a tenth of a point of share
# or less over three rounds, which a few dozen simulations cannot tell from noise; their
# simulations go to the money decisions instead.
_FOCUS_PHASES = frozenset({Phase.BUY, Phase.AUCTION, Phase.TRADE_ANSWER})
_FOCUS_KINDS = frozenset({ActionKind.OFFER_TRADE, ActionKind.PAY_FINE, ActionKind.USE_BAIL_CARD})
_ENUMERATED = "enumerated"  # a candidate's source: byapar_agents.candidates


class ExpertBudgetError(ByaparError, ValueError):
    """A search budget that cannot be used; the message says what is allowed."""


def check_budget(sims: object, budget_ms: object, horizon_rounds: object = DEFAULT_HORIZON_ROUNDS
                 ) -> None:
    """``ExpertBudgetError`` unless the budget is one of: ``sims`` a whole number from 1 to
    MAX_SIMS, or ``budget_ms`` a number of milliseconds above 0 up to MAX_BUDGET_MS (not
    both); and ``horizon_rounds`` a whole number from 1 to MAX_HORIZON_ROUNDS."""
    if sims is not None and budget_ms is not None:
        raise ExpertBudgetError("give the expert's budget as sims (simulations a decision, "
                                "reproducible) or budget_ms (milliseconds a decision), not both")
    if sims is not None and (type(sims) is not int or not 1 <= sims <= MAX_SIMS):
        raise ExpertBudgetError(f"sims must be a whole number of simulations a decision from 1 "
                                f"to {MAX_SIMS:,}, got {sims!r:.40}")
    if budget_ms is not None:
        ok = (isinstance(budget_ms, (int, float)) and not isinstance(budget_ms, bool)
              and math.isfinite(budget_ms) and 0 < budget_ms <= MAX_BUDGET_MS)
        if not ok:
            raise ExpertBudgetError(f"budget_ms must be a number of milliseconds a decision "
                                    f"above 0 and at most {MAX_BUDGET_MS:,.0f}, "
                                    f"got {budget_ms!r:.40}")
    if type(horizon_rounds) is not int or not 1 <= horizon_rounds <= MAX_HORIZON_ROUNDS:
        raise ExpertBudgetError(f"horizon_rounds must be a whole number of rounds from 1 to "
                                f"{MAX_HORIZON_ROUNDS}, got {horizon_rounds!r:.40}")


_POLICIES: dict[Path, LearnedPlayer] = {}


def _learned(folder: Path) -> LearnedPlayer:
    """One loaded checkpoint per process: the arena makes a fresh expert for every game."""
    player = _POLICIES.get(folder)
    if player is None:
        player = _POLICIES[folder] = LearnedPlayer(folder, name="hard")
    return player


@dataclass
class Candidate:
    """An action the expert simulated, why, and what the simulations made of it."""

    action: Action
    prior: float  # the policy's probability of the id carrying it out (0 for none)
    source: str  # "policy" (its choice), "prior" (next most likely) or "rollout player"
    scores: list[float] = field(default_factory=list)
    # The policy's choice when it is to start a trade draft: the start id. Through the
    # environment the expert then takes that id and lets the policy compose the draft step by
    # step, as the hard player does (``action`` is the offer it composes, or, for a draft it
    # would cancel, its next choice, which is what the search simulates).
    start_id: int | None = None

    @property
    def mean(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None


@dataclass
class Evaluation:
    """One decision: the candidates with their simulated scores, and the one chosen."""

    seat: int
    candidates: list[Candidate]
    choice: int  # index into candidates
    sims: int  # simulations played in all
    seconds: float
    guarded: bool = False  # an accept the search chose, turned down by the trade guard

    @property
    def action(self) -> Action:
        return self.candidates[self.choice].action


def edge_z(alternatives: int, z: float = EDGE_Z, pairs: int | None = None) -> float:
    """The standard errors an edge must clear when ``alternatives`` candidates are each tested
    against the policy's choice over ``pairs`` paired simulations: the one-sided level of ``z``
    shared out among the candidates (Bonferroni: ``z`` itself for one), since the best of several
    noisy estimates is high by chance; and, with ``pairs``, read from Student's t with
    ``pairs - 1`` degrees of freedom rather than the normal, since a standard error from a few
    pairs is itself rough (``t_quantile``)."""
    tail = (1.0 - NormalDist().cdf(z)) / max(1, alternatives)
    if pairs is None or pairs < 2:
        return NormalDist().inv_cdf(1.0 - tail) if alternatives > 1 else z
    return t_quantile(1.0 - tail, pairs - 1)


def t_quantile(p: float, dof: int) -> float:
    """Student's t quantile by the Cornish-Fisher expansion about the normal's (within about
    1% from 5 degrees of freedom up)."""
    x = NormalDist().inv_cdf(p)
    v = float(dof)
    return (x + (x**3 + x) / (4 * v) + (5 * x**5 + 16 * x**3 + 3 * x) / (96 * v**2)
            + (3 * x**7 + 19 * x**5 + 17 * x**3 - 15 * x) / (384 * v**3))


def pick(scores: list[list[float]], policy_index: int, z: float = EDGE_Z,
         min_edge: float = MIN_EDGE, min_pairs: int = MIN_PAIRS) -> int:
    """The candidate to play: of those that beat the policy's choice (``policy_index``) by
    more than ``edge_z`` standard errors of the paired difference (``z`` shared out over the
    candidates tested) and by more than ``min_edge``, over at least ``min_pairs`` paired
    simulations, the one with the best mean; the policy's choice when none does (on any tie in
    particular)."""
    means = [sum(s) / len(s) if s else -math.inf for s in scores]
    tested = [i for i in range(len(scores)) if i != policy_index
              and min(len(scores[i]), len(scores[policy_index])) >= min_pairs]
    passed = []
    for i in tested:
        edge, se = paired_edge(scores[i], scores[policy_index])
        pairs = min(len(scores[i]), len(scores[policy_index]))
        if edge > max(min_edge, edge_z(len(tested), z, pairs) * se):
            passed.append(i)
    if not passed:
        return policy_index
    return max(passed, key=lambda i: (means[i], -i))


class ExpertPlayer(EnginePlayer):
    """Search over a few candidate actions with the real engine; see the module docstring."""

    name = "expert"
    # Through the environment the policy composes its trade drafts step by step (``act``), as
    # the hard player does; an engine table could only take the finished offer, composed in
    # another order, with other steps counted toward the pre-roll cap, and not a draft the
    # policy cancels: the arena seats the expert on environment tables.
    engine_tables = False

    def __init__(self, seed: int | None = None, budget_ms: float | None = None,
                 sims: int | None = None, horizon_rounds: int | None = None,
                 checkpoint: str | Path = DEFAULT_CHECKPOINT, focus: bool = True,
                 rollout: str = DEFAULT_ROLLOUT, value: str = DEFAULT_VALUE_MODE,
                 find_trades: bool = DEFAULT_FIND_TRADES, workers: int = 1,
                 value_checkpoint: str | Path | None = None,
                 enumerate_bids: bool = False, enumerate_moves: bool = False) -> None:
        if value not in VALUE_MODES:
            raise ExpertBudgetError(f"value must be one of {', '.join(VALUE_MODES)}, "
                                    f"got {value!r:.40}")
        if horizon_rounds is None:
            horizon_rounds = DEFAULT_HORIZONS[value]
        check_budget(sims, budget_ms, horizon_rounds)
        if not isinstance(focus, bool):
            raise ExpertBudgetError(f"focus must be true or false, got {focus!r:.40}")
        if rollout not in ROLLOUT_MODES:
            raise ExpertBudgetError(f"rollout must be one of {', '.join(ROLLOUT_MODES)}, "
                                    f"got {rollout!r:.40}")
        if rollout == "dealing" and value != "net":
            raise ExpertBudgetError("rollout 'dealing' needs value 'net': the rivals' deals in "
                                    f"its rollouts read the value network, got value {value!r}")
        if not isinstance(find_trades, bool):
            raise ExpertBudgetError(f"find_trades must be true or false, got {find_trades!r:.40}")
        if not isinstance(enumerate_bids, bool):
            raise ExpertBudgetError(f"enumerate_bids must be true or false, got "
                                    f"{enumerate_bids!r:.40}")
        if not isinstance(enumerate_moves, bool):
            raise ExpertBudgetError(f"enumerate_moves must be true or false, got "
                                    f"{enumerate_moves!r:.40}")
        # The auction bids of agents.candidates among the candidates (issue 39, item 2), and
        # its moves away from auctions and trades (jail, houses, mortgages, raising cash)
        self.enumerate_bids = enumerate_bids
        self.enumerate_moves = enumerate_moves
        if (not isinstance(workers, int) or isinstance(workers, bool)
                or not 1 <= workers <= MAX_WORKERS):
            raise ExpertBudgetError(f"workers must be a whole number of processes from 1 to "
                                    f"{MAX_WORKERS}, got {workers!r:.40}")
        self.workers = workers
        if workers > 1:
            round_pool(workers)  # started now: its processes load while the game is set up
        self.focus = focus
        self.find_trades = find_trades
        # The rollouts' value network: the shipped one, or a value checkpoint folder (a round of
        # expert iteration measured against the shipped one on the same games).
        self.value_folder = None if value_checkpoint is None else str(Path(value_checkpoint))
        self.value = value_at(self.value_folder) if value == "net" else None
        self.rollout = rollout
        super().__init__()
        self.sims = sims if budget_ms is None and sims is not None else (
            DEFAULT_SIMS if budget_ms is None else None)
        self.budget_ms = budget_ms
        self.horizon_rounds = horizon_rounds
        self.checkpoint = str(Path(checkpoint))
        self.learned = _learned(Path(checkpoint))
        self.last: Evaluation | None = None
        # The actions already taken before rolling this turn, when the caller knows them (the
        # environment, a server); otherwise the player counts its own.
        self.known_pre_roll: int | None = None
        self._rollout_s = 0.0  # running mean time of one simulation, for the time budget
        # A hard deadline (``time.perf_counter`` time) on top of the budget, checked while the
        # search runs (before each simulation and in the trade finder): a server sets it.
        self.deadline = math.inf
        self._end = math.inf  # the current decision's end: the budget's or the deadline
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """A new game: the decision seeds start again from ``seed``; the rollout player's
        own memory of offers tried is forgotten."""
        super().reset(seed)
        self._rng = random.Random(seed)
        self._adviser = ROLLOUT_PLAYER()
        self._adviser.reset(seed)
        self._turn_key = -1
        self._pre_roll = 0
        self._no_undo: set[Action] = set()  # this turn's actions' reverses
        self._following = False  # the policy composes the draft open in the environment
        self._offered: dict[tuple, int] = {}  # (target, give, take) of offers made: the round
        self._found: tuple[tuple, list] = ((), [])  # the finder's last answer, by position
        # As the hard player: the deal module's offers and the policy's, never one repeated
        # while its places stand as they did; after cancelling a repeat, no more this turn.
        self._deals = DealMemory()
        self._deal_offer: tuple[int, Action | None] = (-1, None)  # (turn, the module's offer)
        self._quiet_turn = -1
        # rollout "read": the rivals read from every move of this game (``_watch``).
        self._reader: RivalReader | None = None
        self._reader_game: Game | None = None
        self._own_seat = -1

    # ------------------------------------------------------------------ playing
    def act(self, env: raw_env, seat: int) -> int:
        """Through the environment: as ``EnginePlayer.act``, but the pre-roll count is the
        environment's own, and when the policy's choice stands and is to start a trade draft,
        the start id is taken and the policy composes the draft live, step by step (submit or
        cancel), as the hard player does but for its screen of the policy's offers by the value
        network (the search weighs those drafts itself); so with the search silent the expert
        plays the game of the hard player with that screen off (``hard-unscreened``), decision
        for decision."""
        if env.draft is not None and self._following:
            obs = env.observe(env.possible_agents[seat])
            i = self.policy(env.game).act(obs["observation"], obs["action_mask"])
            if i == SUBMIT_ID:  # as the hard player: a repeated offer is cancelled
                offer = env.draft.offer()
                if self._deals.is_repeat(env.game, offer):
                    self._quiet_turn = env.game.turn_count
                    return CANCEL_ID
                self._deals.remember(env.game, offer)
            return i
        self._following = False
        if self.rollout == "read":
            self._own_seat = seat
            if self._watch not in env.watchers:
                env.watchers.append(self._watch)
        self.known_pre_roll = env.pre_roll_actions
        turn, undo = self._turn_key, set(self._no_undo)
        try:
            i = super().act(env, seat)
        finally:
            self.known_pre_roll = None
        last = self.last
        if env.draft is None and last is not None:
            chosen = last.candidates[last.choice]
            if chosen.start_id is not None and chosen.start_id in env.legal_action_ids():
                self._steps = []
                self._following = True
                # A draft the policy will cancel stood for its next choice, which is not taken
                # now: its reverse is no action to avoid.
                reverse = UNDOES.get(chosen.action.kind)
                if reverse is not None:
                    back = chosen.action._replace(kind=reverse)
                    if self._turn_key != turn or back not in undo:
                        self._no_undo.discard(back)
                return chosen.start_id
        return i

    def _watch(self, game: Game, action: Action) -> None:
        """Every move of the game (the environment's watcher): the rivals' moves are read."""
        seat = game.current_player
        if seat == self._own_seat or self._own_seat < 0:
            return
        if self._reader is None or self._reader_game is not game:
            n = game.num_players
            self._reader = RivalReader(n, seats=[s for s in range(n) if s != self._own_seat],
                                       seed=READER_SEED)
            self._reader_game = game
        legal = game.legal_actions()
        if action not in legal:  # a trade offer: a choice beside the listed actions
            legal = [*legal, action]
        self._reader.observe(game, seat, legal, action)

    def reading(self) -> dict[int, dict[str, float]] | None:
        """Each rival's posterior over the reader's kinds so far this game (rollout "read"),
        for the rivals that some kind explains well (``READ_FIT``; the others are played as
        in mixed rollouts), or None before any move was read."""
        if self._reader is None:
            return None
        reader = self._reader
        return {s: reader.posterior(s) for s in reader.seats if reader.fit(s) >= READ_FIT}

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        pre_roll = self._pre_roll_now(game)
        if len(legal) == 1 and not (game.phase == Phase.PRE_ROLL and pre_roll < PRE_ROLL_CAP
                                    and game.can_offer_trade()):
            self.last = None
            action = legal[0]  # forced: nothing to search
        else:
            same_turn = self._turn_key == game.turn_count and game.phase == Phase.PRE_ROLL
            avoid = self._no_undo if same_turn else set()
            self.last = self.evaluate(game, pre_roll, self._rng.getrandbits(62), avoid)
            action = self.last.action
        self._count(game, action)
        return action

    def _pre_roll_now(self, game: Game) -> int:
        if self.known_pre_roll is not None:
            return self.known_pre_roll
        return self._pre_roll if self._turn_key == game.turn_count else 0

    def _count(self, game: Game, action: Action) -> None:
        """Keep this turn's pre-roll count (on engine tables nobody else tells the player)."""
        if game.phase != Phase.PRE_ROLL:
            return
        if self._turn_key != game.turn_count:
            self._turn_key, self._pre_roll = game.turn_count, 0
            self._no_undo = set()
        reverse = UNDOES.get(action.kind)
        if reverse is not None:
            self._no_undo.add(action._replace(kind=reverse))
        if action.kind == ActionKind.OFFER_TRADE:
            self._offered[(action.target, action.give, action.take)] = game.round
            self._pre_roll += offer_step_count(action)
        else:
            self._pre_roll += 1

    # ------------------------------------------------------------------ searching
    def evaluate(self, game: Game, pre_roll_actions: int = 0, seed: int = 0,
                 avoid: set[Action] | frozenset[Action] = frozenset()) -> Evaluation:
        """Candidates for the seat that must decide in ``game`` (left unchanged; none of
        ``avoid``), each scored by simulations seeded from ``seed``, and the choice."""
        start = time.perf_counter()
        end = self.deadline
        if self.budget_ms is not None:
            end = min(end, start + self.budget_ms / 1000.0)
        self._end = end
        seat = game.current_player
        try:
            candidates, policy_index = self.candidates(game, pre_roll_actions, avoid)
            if self.focus and game.phase not in _FOCUS_PHASES:
                # enumerated moves are searched wherever they are listed
                candidates = [c for i, c in enumerate(candidates)
                              if i == policy_index or c.action.kind in _FOCUS_KINDS
                              or c.source == _ENUMERATED]
            sims = 0
            if len(candidates) > 1:
                sims = self._simulate(game, seat, candidates, pre_roll_actions, seed, end)
                choice = pick([c.scores for c in candidates], policy_index)
            else:
                choice = policy_index
        finally:
            self._end = math.inf
        guarded = (game.phase == Phase.TRADE_ANSWER
                   and candidates[choice].action == actions.ACCEPT_TRADE
                   and not accepts_pending(game, self.learned.value, self.learned.check))
        if guarded:  # the deal judgement refuses it (byapar_agents.deals): decline
            choice = next((i for i, c in enumerate(candidates)
                           if c.action == actions.REJECT_TRADE), len(candidates))
            if choice == len(candidates):
                candidates.append(Candidate(actions.REJECT_TRADE, 0.0, "trade guard"))
        return Evaluation(seat, candidates, choice, sims, time.perf_counter() - start, guarded)

    def _simulate(self, game: Game, seat: int, candidates: list[Candidate],
                  pre_roll_actions: int, seed: int, end: float = math.inf) -> int:
        """Rounds of one simulation per candidate, all with the round's seed, until ``sims``
        (``rounds`` of them) or, against ``end`` (``time.perf_counter`` time): a round starts
        only if ``ROUND_MARGIN`` times its expected time fits (from the simulations timed so
        far in this process; with none yet, the first one measures it), each simulation after
        a round's first only if one is expected to fit, and a simulation stops at ``end``; a
        round cut short is dropped whole, so the candidates stay paired."""
        seeds = rollout_seeds(seed)
        per_round = len(candidates)
        rounds = max(1, (self.sims if self.sims is not None else MAX_SIMS) // per_round)
        if self.workers > 1:
            if math.isfinite(end):  # no more rounds than twice what the time seems to allow
                fit = (end - time.perf_counter()) / (per_round * max(self._sim_seconds(), 1e-4))
                rounds = max(1, min(rounds, int(2 * self.workers * fit) + self.workers))
            return self._simulate_on_workers(game, seat, candidates, pre_roll_actions,
                                             [seeds.getrandbits(62) for _ in range(rounds)], end)
        rollouts = Rollouts(search_root(game), seat, pre_roll_actions, self.horizon_rounds,
                            self.rollout, self.policy(game), self.value, self.reading())
        clock = time.perf_counter
        played = 0
        for _ in range(rounds):
            if clock() + per_round * ROUND_MARGIN * self._sim_seconds() > end:
                break
            s = seeds.getrandbits(62)
            for i, c in enumerate(candidates):
                now = clock()
                score = (None if i and now + self._sim_seconds() > end
                         else rollouts.run(c.action, s, end))
                if score is None:  # no time for it, or cut by the deadline
                    for done in candidates[:i]:
                        done.scores.pop()
                    return played
                c.scores.append(score)
                self._note_sim(clock() - now)
            played += per_round
        return played

    def _simulate_on_workers(self, game: Game, seat: int, candidates: list[Candidate],
                             pre_roll_actions: int, seeds: list[int], end: float) -> int:
        """``_simulate``'s rounds, the same seeds in the same order, played on ``workers``
        processes (``byapar_agents.search_pool``): the same scores, sooner. Under a deadline every
        worker plays until it, and the rounds it cut short are left out."""
        spec = RoundSpec(search_root(game), seat, pre_roll_actions, self.horizon_rounds,
                         self.rollout, self.checkpoint, self.value is not None, self.reading(),
                         self.value_folder)
        start = time.perf_counter()
        seconds = end - start if math.isfinite(end) else math.inf
        rounds = round_pool(self.workers).play(spec, [c.action for c in candidates], seeds,
                                               seconds)
        for scores in rounds:
            for c, score in zip(candidates, scores, strict=True):
                c.scores.append(score)
        played = len(rounds) * len(candidates)
        if played:  # the time budget's estimate: a simulation's share of the wall time
            self._note_sim((time.perf_counter() - start) * self.workers / played)
        return played

    def _sim_seconds(self) -> float:
        return self._rollout_s or _SIM_SECONDS[0]

    def _note_sim(self, took: float) -> None:
        self._rollout_s = took if self._rollout_s == 0 else 0.8 * self._rollout_s + 0.2 * took
        shared = _SIM_SECONDS[0]
        _SIM_SECONDS[0] = took if shared == 0 else 0.8 * shared + 0.2 * took

    def policy(self, game: Game) -> NumpyPolicy:
        return self.learned.policy_for(game.num_players)

    def candidates(self, game: Game, pre_roll_actions: int = 0,
                   avoid: set[Action] | frozenset[Action] = frozenset()
                   ) -> tuple[list[Candidate], int]:
        """The actions worth simulating (none of ``avoid``), and the index of the policy's
        choice among them (the policy's most likely id that is not avoided)."""
        seat = game.current_player
        policy = self.policy(game)
        capped = game.phase == Phase.PRE_ROLL and pre_roll_actions >= PRE_ROLL_CAP
        ids = legal_ids(game, None, TRADE_STEP_CAP, capped)
        obs = encode(game, seat, np.empty(OBSERVATION_SIZE, np.float32), None,
                     pre_roll_actions, PRE_ROLL_CAP, TRADE_STEP_CAP)
        mask = np.zeros(len(ACTIONS), np.int8)
        mask[ids] = 1
        probs = policy.probabilities(obs, mask)
        order = sorted(ids, key=lambda i: (-probs[i], i))
        out: list[Candidate] = []

        def add(action: Action | None, prior: float, source: str,
                start_id: int | None = None) -> bool:
            if action is None or action in avoid or any(c.action == action for c in out):
                return False
            out.append(Candidate(action, prior, source, start_id=start_id))
            return True

        # The hard player's choice first: the deal module's answer to an offer or its offer
        # before rolling (once a turn), else the policy's own choice, a trade offer it would
        # compose if it starts one.
        deal = self._deal_choice(game)
        if deal is not None:
            add(deal, 1.0, "deal module")
        cancelled = None  # a trade draft the policy would start and then cancel
        quiet = self._quiet_turn == game.turn_count
        for i in order:
            if out:
                break
            if ACTIONS[i].kind != _TRADE_START:
                if add(engine_action(game, i), float(probs[i]), "policy", cancelled):
                    break
            elif not quiet:
                offer = policy_offer(policy, game, seat, i, pre_roll_actions)
                if offer is not None and self._deals.is_repeat(game, offer):
                    # the hard player composes it, cancels it at the end and offers nothing
                    # more this turn
                    offer, quiet = None, True
                if offer is not None:
                    if add(offer, float(probs[i]), "policy",
                           i if cancelled is None else cancelled):
                        break
                elif cancelled is None:
                    # The policy would cancel the draft (or run into the pre-roll cap). Through
                    # the environment the expert starts it all the same, as the hard player
                    # does (the steps count toward the cap, then the policy decides again); the
                    # search simulates its next choice, since a cancelled draft changes nothing
                    # in the game.
                    cancelled = i
        if not out:  # everything the policy would do is avoided: roll (always legal then)
            out.append(Candidate(engine_action(game, ROLL_ID), float(probs[ROLL_ID]), "policy"))
        for i in order[:TOP_K]:
            if probs[i] < PRIOR_FLOOR or ACTIONS[i].kind == _TRADE_START:
                continue
            add(engine_action(game, i), float(probs[i]), "prior")
        if self.enumerate_bids:
            for bid in auction_bids(game):
                add(bid, _prior_of(game, bid, probs), _ENUMERATED)
        if self.enumerate_moves and not capped:  # at the cap only rolling is legal
            for move in move_choices(game):
                add(move, _prior_of(game, move, probs), _ENUMERATED)
        if not capped:
            advice = self._adviser.choose(game, seat, game.legal_actions())
            if _playable(game, advice):
                add(advice, _prior_of(game, advice, probs), "rollout player")
            if self.find_trades and game.phase == Phase.PRE_ROLL:
                for offer in self.found_offers(game, pre_roll_actions, policy):
                    add(offer, 0.0, "trade finder")
        return out, 0

    def _deal_choice(self, game: Game) -> Action | None:
        """The hard player's trade choice where the deal module makes it (``byapar_agents.deals``):
        its answer to a pending offer; before rolling, its offer of the turn (asked once a
        turn, at the turn's first decision), or None."""
        value = self.learned.value
        if value is None:
            return None
        if game.phase == Phase.TRADE_ANSWER:
            yes = accepts_pending(game, value, self.learned.check)
            return actions.ACCEPT_TRADE if yes else actions.REJECT_TRADE
        if game.phase != Phase.PRE_ROLL:
            return None
        if self._deal_offer[0] != game.turn_count:
            self._deal_offer = (game.turn_count,
                                self._deals.propose(game, value, self.learned.check))
            offer = self._deal_offer[1]
            return offer if offer is not None and _playable(game, offer) else None
        return None

    def found_offers(self, game: Game, pre_roll_actions: int, policy: NumpyPolicy
                     ) -> list[Action]:
        """The trade finder's offers for this position (``byapar_agents.trade_finder``): none made
        to the same seat for the same places in the last ``FINDER_RETRY_ROUNDS`` rounds, and
        each composed within the pre-roll cap. Asked again only when the places or the offers
        made this turn have changed: building or mortgaging before rolling leaves it be. The
        finder stops at the decision's deadline (``find_offers``' ``deadline``)."""
        if self.value is None or not game.can_offer_trade():
            return []
        key = (game.turn_count, game.offers_made, tuple(game.owner))
        if self._found[0] != key:
            skip = {k for k, r in self._offered.items() if game.round - r < FINDER_RETRY_ROUNDS}
            found = find_offers(game, policy, self.value, FINDER_LIMIT, skip, pre_roll_actions,
                                deadline=self._end)
            offers = [f.offer for f in found]
            if time.perf_counter() <= self._end:  # a list cut short by the deadline is not kept
                self._found = (key, offers)
        else:
            offers = self._found[1]
        steps = PRE_ROLL_CAP - pre_roll_actions
        return [o for o in offers if _playable(game, o) and offer_step_count(o) < steps]


def _playable(game: Game, action: object) -> bool:
    """Whether a suggested action can be taken as the environment would: legal now, and an
    offer's money one of the table's trade amounts."""
    if not isinstance(action, Action):
        return False
    if action.kind == ActionKind.OFFER_TRADE:
        return game.trade_error(action) is None and action.amount in TRADE_MONEY_IDS
    return game.is_legal(action)


def _prior_of(game: Game, action: Action, probs: np.ndarray) -> float:
    from byapar_env.action_table import fixed_action_id

    if action.kind in (ActionKind.OFFER_TRADE, ActionKind.BID):
        return 0.0
    i = fixed_action_id(action)
    return float(probs[i]) if i >= 0 else 0.0


def policy_offer(policy: NumpyPolicy, game: Game, seat: int, start_id: int,
                 pre_roll_actions: int) -> Action | None:
    """The trade offer the policy composes after choosing ``start_id``, step by step as in the
    environment (its most likely step each time), or None if it would cancel it or run into the
    pre-roll cap."""
    target = (seat + ACTIONS[start_id].arg) % game.num_players
    draft = TradeDraft(target)
    choices = DraftChoices(game, target)
    base = encode(game, seat, np.empty(OBSERVATION_SIZE, np.float32))
    steps = pre_roll_actions + 1
    for _ in range(TRADE_STEP_CAP + 2):
        if steps >= PRE_ROLL_CAP:
            return None
        mask = np.frombuffer(bytes(draft_mask(draft, TRADE_STEP_CAP, choices)), np.int8)
        obs = encode_env_part(base.copy(), game, seat, draft, steps, PRE_ROLL_CAP,
                              TRADE_STEP_CAP)
        i = policy.act(obs, mask)
        spec = ACTIONS[i]
        if i == SUBMIT_ID:
            offer = draft.offer()
            ok = game.trade_error(offer) is None and offer.amount in TRADE_MONEY_IDS
            return offer if ok else None
        if spec.kind == "trade_toggle":
            side = draft.give if game.owner[spec.arg] == seat else draft.take
            side.symmetric_difference_update((spec.arg,))
            draft.steps += 1
        elif spec.kind == "trade_money":
            draft.amount = spec.arg
            draft.steps += 1
        else:
            return None  # cancel
        steps += 1
    return None
