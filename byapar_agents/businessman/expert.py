"""Businessman's expert: the hard policy's judgement, checked by search on sampled deals.

    make_agent("expert")          # DEFAULT_SIMS simulations per candidate: reproducible
    make_agent("expert@48")       # 48 per candidate
    ExpertBusinessmanPlayer(sims=12, horizon_rounds=None)   # rollouts to the game's end

**The candidates.** At a decision with more than one legal action (a single one is answered at
once), the expert lists a few actions worth simulating: the hard player's choice
(``byapar_checkpoints/businessman_hard``; at the Exchange card, a gift's colour and the answer
to a proposal that is the hard player's sums, ``hard.CALCULATED_PHASES``, unless
``calculated=False`` asks for the bare network's), the network's next most likely legal
actions while their probability is at least ``PRIOR_FLOOR`` (``TOP_K`` of its ids looked at),
and the medium player's choice.
A trade proposal is one candidate from its first step to its submission: the policy's (or
medium's) composition is played out on a copy of the position, and the expert then submits the
same steps. A proposal its composer would cancel is no candidate, except as the policy's
own choice: the hard player then starts it and cancels, which spends one of the turn's three
proposals and leaves its next choice to be made with one fewer; the expert's policy candidate
is the same (starting and cancelling at once), so that its next decisions start from hard's
position.
While a chosen proposal is being composed the expert plays its steps without searching; the
steps of a proposal it did not plan are the policy's.

**The simulations.** Each simulation starts from ``Game.determinise(seat, rng)``: a copy in which
what the expert's seat cannot see is drawn afresh (the other seats' Exchange hands, of their
sizes, from the cards it has not seen; the order of the Surprise and Notice decks; the dice),
so the search never reads another hand or the real game's future. Simulation ``k`` of every
candidate uses the same seed, hence the same deal and the same dice (common random numbers):
the candidates are compared on the same luck. The candidate is taken, then every seat (the
expert's own included) is played by the rollout players (``rollout``: ``medium`` everywhere by
default; ``hard``, the hard player, sums included, everywhere; ``mixed``, the hard player in
the expert's seat and, in each other seat, it or medium drawn from the simulation's seed) for
``horizon_rounds`` rounds, to the point where the seat whose turn it is at the decision starts
its turn again, or to the game's end (``horizon_rounds=None``, or the end comes first).

**The score** of a simulation is the expert seat's share of the win if the game is over (1, 1/k
for a k-way shared win, or 0), else its share of the table's net worth (``Game.net_worth``:
cash, lots, buildings and shares; 0 once bankrupt). With ``value="rent"`` (``-rent``) each
seat's net worth counts, beside, the rent its unpledged lots should still bring over the
opponent turns left (``rent_score``).

**The choice** (``byapar_agents.expert.pick``, the Byapar expert's rule): a candidate replaces the
policy's choice only if its mean beats the policy's by more than ``EDGE_Z`` standard errors of
the paired differences (shared out over the candidates tested, from Student's t) and by at
least ``MIN_EDGE``, over at least ``MIN_PAIRS`` simulations; otherwise the policy's choice stands.
The best of several noisy means is high by chance, and this margin keeps the search from
overruling the policy on noise.

**The budget.** ``sims`` simulations per candidate (``DEFAULT_SIMS``); with ``budget_ms`` a round
of simulations (one per candidate) starts only while the time spent on the decision plus the
expected time of a round stays within it, up to ``sims`` rounds (at least one round is played):
then the play depends on the machine's speed. ``seed`` seeds the decisions' simulation seeds,
so the same seed in the same game gives the same choices.
"""

from __future__ import annotations

import copy
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from byapar_checkpoints import shipped
from byapar_env.businessman import ACTION_ID, ALL_ACTIONS, Action, ActionKind, Game, Phase, board
from byapar_env.businessman.actions import CANCEL_TRADE
from byapar_env.businessman_action_table import NUM_ACTIONS
from byapar_env.businessman_observation import encode
from byapar_env.businessman_v0 import TurnCaps
from byapar_env.engine.errors import ByaparError

from ..expert import pick
from .base import BusinessmanPlayer
from .hard import CALCULATED_PHASES, HardBusinessmanPlayer
from .medium import MediumPlayer, lot_worth, opponent_turns

DEFAULT_SIMS = 24  # simulations per candidate
DEFAULT_HORIZON_ROUNDS = 3
DEFAULT_ROLLOUT = "medium"
ROLLOUT_MODES = ("medium", "hard", "mixed")
DEFAULT_VALUE = "share"
VALUE_MODES = ("share", "rent")  # how a simulation cut at its horizon is scored
MAX_SIMS = 10_000
MAX_BUDGET_MS = 600_000.0  # ten minutes a decision: anything more is a typo
MAX_HORIZON_ROUNDS = 1_000
TOP_K = 3  # the policy's most likely ids looked at (its choice among them)
PRIOR_FLOOR = 0.05  # an action less likely than this under the policy is not simulated
EDGE_Z = 2.0
MIN_EDGE = 0.002  # a fifth of a point of net-worth share
MIN_PAIRS = 6

Chooser = Callable[[Game, int, list[Action]], Action]


class ExpertOptionError(ByaparError, ValueError):
    """An expert option that cannot be used; the message says what is allowed."""


def check_options(sims: object, budget_ms: object, horizon_rounds: object,
                  rollout: object, value: object = DEFAULT_VALUE) -> None:
    """``ExpertOptionError`` unless ``sims`` is a whole number from 1 to MAX_SIMS,
    ``budget_ms`` None or a number of milliseconds above 0 up to MAX_BUDGET_MS,
    ``horizon_rounds`` None or a whole number from 1 to MAX_HORIZON_ROUNDS, ``rollout`` one
    of ROLLOUT_MODES and ``value`` one of VALUE_MODES."""
    if type(sims) is not int or not 1 <= sims <= MAX_SIMS:
        raise ExpertOptionError(f"sims must be a whole number of simulations per candidate "
                                f"from 1 to {MAX_SIMS:,}, got {sims!r:.40}")
    if budget_ms is not None:
        ok = (isinstance(budget_ms, (int, float)) and not isinstance(budget_ms, bool)
              and math.isfinite(budget_ms) and 0 < budget_ms <= MAX_BUDGET_MS)
        if not ok:
            raise ExpertOptionError(f"budget_ms must be a number of milliseconds a decision "
                                    f"above 0 and at most {MAX_BUDGET_MS:,.0f}, "
                                    f"got {budget_ms!r:.40}")
    if horizon_rounds is not None and (type(horizon_rounds) is not int
                                       or not 1 <= horizon_rounds <= MAX_HORIZON_ROUNDS):
        raise ExpertOptionError(f"horizon_rounds must be None (to the game's end) or a whole "
                                f"number of rounds from 1 to {MAX_HORIZON_ROUNDS:,}, "
                                f"got {horizon_rounds!r:.40}")
    if rollout not in ROLLOUT_MODES:
        raise ExpertOptionError(f"rollout must be one of {', '.join(ROLLOUT_MODES)}, "
                                f"got {rollout!r:.40}")
    if value not in VALUE_MODES:
        raise ExpertOptionError(f"value must be one of {', '.join(VALUE_MODES)}, "
                                f"got {value!r:.40}")


_POLICIES: dict[Path, HardBusinessmanPlayer] = {}


def _learned(folder: Path) -> HardBusinessmanPlayer:
    """One loaded checkpoint per process: the arena makes a fresh expert for every game."""
    player = _POLICIES.get(folder)
    if player is None:
        player = _POLICIES[folder] = HardBusinessmanPlayer(folder)
    return player


@dataclass
class Candidate:
    """An action the expert simulated (a whole trade proposal for a trade: every step from the
    start to the submission), why, and its simulations' scores."""

    actions: tuple[Action, ...]
    prior: float  # the policy's probability of the first action
    source: str  # "policy" (its choice), "prior" (next most likely) or "medium"
    scores: list[float] = field(default_factory=list)

    @property
    def action(self) -> Action:
        return self.actions[0]

    @property
    def mean(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None


@dataclass
class Evaluation:
    """One decision: the candidates with their scores, the index of the one chosen, and the
    simulations played."""

    seat: int
    candidates: list[Candidate]
    choice: int
    sims: int
    seconds: float

    @property
    def action(self) -> Action:
        return self.candidates[self.choice].action


def score(game: Game, seat: int) -> float:
    """``seat``'s share of the win once the game is over, else its share of the table's net
    worth (from 0 to 1)."""
    if game.is_over:
        winners = game.winners
        return 1.0 / len(winners) if seat in winners else 0.0
    worth = [game.net_worth(s) for s in range(game.num_players)]
    total = sum(worth)
    return worth[seat] / total if total > 0 else 0.0


_LOT_PRICE = tuple(c.price for c in board.CELLS)


def rent_score(game: Game, seat: int) -> float:
    """As ``score``, but before the end each seat's net worth counts, beside, the rent its
    unpledged lots should still bring over the opponent turns left (the medium player's
    ``lot_worth`` less the price)."""
    if game.is_over:
        return score(game, seat)
    turns = opponent_turns(game)
    owner = game.owner
    worth = []
    for s in range(game.num_players):
        if game.bankrupt[s]:
            worth.append(0.0)
            continue
        v = float(game.net_worth(s))
        for c in board.OWNABLES:
            if owner[c] == s and not game.mortgaged[c]:
                v += lot_worth(game, s, c, owner, turns) - _LOT_PRICE[c]
        worth.append(v)
    total = sum(worth)
    return worth[seat] / total if total > 0 else 0.0


def compose(game: Game, seat: int, first: Action, chooser: Chooser) -> tuple[Action, ...]:
    """The steps of the proposal ``seat`` composes after starting it with ``first``, each chosen
    by ``chooser`` on a copy of ``game`` (left unchanged), to the submission or cancellation."""
    g = game.clone()
    g.log = []
    steps = [first]
    g.apply(first)
    while g.phase == Phase.TRADE_COMPOSE and g.current_player == seat:
        action = chooser(g, seat, g.legal_actions())
        steps.append(action)
        g.apply(action)
    return tuple(steps)


class ExpertBusinessmanPlayer(BusinessmanPlayer):
    """Search over a few candidate actions on determinised copies; see the module docstring."""

    name = "expert"

    def __init__(self, sims: int = DEFAULT_SIMS, budget_ms: float | None = None,
                 seed: int | None = None,
                 horizon_rounds: int | None = DEFAULT_HORIZON_ROUNDS,
                 rollout: str = DEFAULT_ROLLOUT, checkpoint: str | Path | None = None,
                 value: str = DEFAULT_VALUE, calculated: bool = True) -> None:
        check_options(sims, budget_ms, horizon_rounds, rollout, value)
        self.value = value
        self.calculated = calculated
        self.sims = sims
        self.budget_ms = budget_ms
        self.horizon_rounds = horizon_rounds
        self.rollout = rollout
        folder = Path(checkpoint) if checkpoint is not None else Path(shipped("businessman_hard"))
        self.learned = _learned(folder)
        self.last: Evaluation | None = None
        self._round_s = 0.0  # running mean time of one round of simulations (budget_ms)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """A new game: the decisions' simulation seeds start again from ``seed``."""
        self._rng = random.Random(seed)
        self._adviser = MediumPlayer()
        self._plan: list[Action] = []
        self._plan_turn = -1
        self.last = None

    # ------------------------------------------------------------------ its memory
    def memory(self) -> dict:
        """What it carries from one decision to the next (the decisions' seeds, the proposal
        it is composing, the medium adviser's memory), to play a decision in another process
        (the server's workers) and take up the game after it with ``remember``."""
        return {"rng": self._rng.getstate(), "adviser": self._adviser,
                "plan": [ACTION_ID[a] for a in self._plan], "plan_turn": self._plan_turn}

    def remember(self, memory: dict) -> None:
        """Take up the state ``memory`` gave (of this expert or of a copy elsewhere)."""
        self._rng.setstate(memory["rng"])
        self._adviser = memory["adviser"]
        self._plan = [ALL_ACTIONS[i] for i in memory["plan"]]
        self._plan_turn = memory["plan_turn"]

    def needs_search(self, game: Game, legal: list[Action]) -> bool:
        """Whether ``choose`` would search here (not for one legal action, nor for a step of
        a proposal being composed, which is the plan's or the policy's)."""
        return len(legal) > 1 and game.phase != Phase.TRADE_COMPOSE

    def prior(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """The policy's choice, the expert's move when there is no time to search (the hard
        player's); forgets any planned proposal."""
        self._plan = []
        self.last = None
        if not self.calculated:
            return self.learned.policy_choice(game, seat, legal)
        return self.learned.choose(game, seat, legal)

    # ------------------------------------------------------------------ playing
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        self.last = None
        if len(legal) == 1:
            return legal[0]
        if game.phase == Phase.TRADE_COMPOSE:
            if self._plan and self._plan_turn == game.turn_count and self._plan[0] in legal:
                return self._plan.pop(0)
            self._plan = []
            return self.learned.choose(game, seat, legal)
        self._plan = []
        evaluation = self.evaluate(game, self._rng.getrandbits(62))
        self.last = evaluation
        chosen = evaluation.candidates[evaluation.choice]
        if len(chosen.actions) > 1:
            self._plan = list(chosen.actions[1:])
            self._plan_turn = game.turn_count
        return chosen.action

    # ------------------------------------------------------------------ searching
    def candidates(self, game: Game) -> tuple[list[Candidate], int]:
        """The candidates for the seat that must decide in ``game`` (left unchanged), and the
        index of the policy's choice among them."""
        seat = game.current_player
        legal = game.legal_actions()
        mask = np.zeros(NUM_ACTIONS, np.int8)
        ids = sorted(ACTION_ID[a] for a in legal)
        mask[ids] = 1
        probs = self.learned.policy_for(game.num_players).probabilities(encode(game.view(seat)),
                                                                         mask)
        order = sorted(ids, key=lambda i: (-probs[i], i))
        out: list[Candidate] = []

        def add(actions: tuple[Action, ...], prior: float, source: str) -> bool:
            if (actions[0].kind == ActionKind.START_TRADE
                    and actions[-1].kind != ActionKind.SUBMIT_TRADE):
                return False  # a proposal its composer cancels changes nothing
            if any(c.actions == actions for c in out):
                return False
            out.append(Candidate(actions, prior, source))
            return True

        policy_choose = self.learned.choose
        if self.calculated and game.phase in CALCULATED_PHASES:
            sums = policy_choose(game, seat, legal)  # the hard player's sums, not the network
            add((sums,), float(probs[ACTION_ID[sums]]), "policy")
        else:
            first = self._steps(game, seat, ALL_ACTIONS[order[0]], policy_choose)
            if (first[0].kind == ActionKind.START_TRADE
                    and first[-1].kind != ActionKind.SUBMIT_TRADE):
                # The hard player starts this proposal and cancels it: that spends one of the
                # turn's proposals (the engine allows three), and its next choice is made with
                # one fewer. The expert does the same, starting and cancelling at once.
                # Skipping to the network's next most likely action instead would be a move
                # hard never makes here, and one that recurs (a pledge, then a redemption).
                out.append(Candidate((first[0], CANCEL_TRADE), float(probs[order[0]]),
                                     "policy"))
            else:
                add(first, float(probs[order[0]]), "policy")
        for i in order[:TOP_K]:
            if probs[i] >= PRIOR_FLOOR:
                add(self._steps(game, seat, ALL_ACTIONS[i], policy_choose), float(probs[i]),
                    "prior")
        advice = self._adviser.choose(game, seat, legal)
        if advice in legal:
            adviser = copy.deepcopy(self._adviser)
            add(self._steps(game, seat, advice, adviser.choose), float(probs[ACTION_ID[advice]]),
                "medium")
        return out, 0

    @staticmethod
    def _steps(game: Game, seat: int, action: Action, chooser: Chooser) -> tuple[Action, ...]:
        if action.kind == ActionKind.START_TRADE:
            return compose(game, seat, action, chooser)
        return (action,)

    def evaluate(self, game: Game, seed: int = 0) -> Evaluation:
        """The candidates for the seat that must decide in ``game`` (left unchanged), each
        scored by simulations seeded from ``seed``, and the choice."""
        start = time.perf_counter()
        seat = game.current_player
        candidates, policy_index = self.candidates(game)
        played = 0
        if len(candidates) > 1:
            played = self._simulate(game, seat, candidates, seed, start)
            choice = pick([c.scores for c in candidates], policy_index, EDGE_Z, MIN_EDGE,
                          MIN_PAIRS)
        else:
            choice = policy_index
        return Evaluation(seat, candidates, choice, played, time.perf_counter() - start)

    def _simulate(self, game: Game, seat: int, candidates: list[Candidate], seed: int,
                  start: float) -> int:
        """Rounds of one simulation per candidate, all with the round's seed; ``sims`` rounds,
        or fewer under ``budget_ms``. The simulations played."""
        root = game.clone()
        root.log = []  # each simulation copies the root: not a long game's text
        n = root.num_players
        stop = (math.inf, 0) if self.horizon_rounds is None else (
            root.round + self.horizon_rounds, root.turn)
        mediums = [MediumPlayer() for _ in range(n)]
        hard = self.learned
        seeds = random.Random(seed)
        clock = time.perf_counter
        played = 0
        for r in range(self.sims):
            if self.budget_ms is not None and r and (
                    clock() - start + self._round_s) * 1000.0 > self.budget_ms:
                break
            began = clock()
            s = seeds.getrandbits(62)
            players: list[BusinessmanPlayer] = mediums
            if self.rollout == "hard":
                players = [hard] * n
            elif self.rollout == "mixed":
                draw = random.Random(s ^ 0x5EA7)
                players = [hard if i == seat or draw.random() < 0.5 else mediums[i]
                           for i in range(n)]
            for c in candidates:
                c.scores.append(self._rollout(root, seat, c.actions, s, stop, players, mediums,
                                              self.value))
            played += len(candidates)
            took = clock() - began
            self._round_s = took if self._round_s == 0 else 0.8 * self._round_s + 0.2 * took
        return played

    @staticmethod
    def _rollout(root: Game, seat: int, actions: tuple[Action, ...], seed: int,
                 stop: tuple[float, int], players: list[BusinessmanPlayer],
                 mediums: list[MediumPlayer], value: str = DEFAULT_VALUE) -> float:
        game = root.determinise(seat, random.Random(seed))
        for a in actions:
            if game.is_over or not game.is_legal(a):
                break
            game.apply(a)
        for i, m in enumerate(mediums):
            m.reset(seed + i)
        # The rollouts play under the per-turn caps, as every real table does: without them a
        # deterministic policy that pledges and redeems, or starts and cancels a proposal,
        # could repeat itself forever within one turn.
        caps = TurnCaps()
        caps.start(game)
        while not game.is_over and (game.round, game.turn) < stop:
            legal = caps.legal_actions(game)
            s = game.current_player
            caps.apply(game, legal[0] if len(legal) == 1 else players[s].choose(game, s, legal))
        return rent_score(game, seat) if value == "rent" else score(game, seat)


__all__ = ["DEFAULT_HORIZON_ROUNDS", "DEFAULT_ROLLOUT", "DEFAULT_SIMS", "DEFAULT_VALUE",
           "Candidate", "Evaluation", "ExpertBusinessmanPlayer", "ExpertOptionError", "MIN_PAIRS",
           "ROLLOUT_MODES", "VALUE_MODES", "check_options", "compose", "rent_score", "score"]
