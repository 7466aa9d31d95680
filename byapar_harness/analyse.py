"""Analysis of a saved game: each seat's chance of winning, and what the expert would play.

    byapar analyse SAVED_GAME.json [--sims 200] [--expert-sims 48] [--seed 0] [--json PATH]

The chances come from rollouts to the game's end from the saved position: the medium player in
every seat (a saved game does not say who sits where), fresh dice and reshuffled decks per
rollout from the seed, a shared win counted as its share; each seat's rate carries a 95% Wilson
interval. Beside them, the value network's chances (``byapar_agents.value``: learned from games of
the
hard policy and the hand-written players, instant, no interval). The expert's choice is its
evaluation of the decision under way (``ExpertPlayer.evaluate``): every candidate with its prior
and mean simulated score. The same seed gives the same figures. ``POST /v1/analyse`` of
``byapar serve`` answers with the same ``analyse`` call.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from pathlib import Path

from byapar_agents.expert import MAX_SIMS, Evaluation, ExpertPlayer
from byapar_agents.search import ROLLOUT_PLAYER, chance_game, search_root
from byapar_agents.value import shipped_value
from byapar_env.driver import NO_DECISION_CAP, SeatDriver
from byapar_env.engine import ByaparError, Game, GameStateError
from byapar_env.engine.serialize import game_from_dict
from byapar_env.stats import wilson

DEFAULT_ROLLOUTS = 200
# The expert's simulations for the decision under way: twice its play budget, since an analysis
# is asked for once, not at every decision of a game.
EXPERT_SIMS = 48
MAX_SEED = 2**63 - 1
TABLE_FORMAT = "byapar-table"  # serve's table save: seats, pre-roll count and the saved game
_NO_CAP = NO_DECISION_CAP


class AnalyseError(ByaparError, ValueError):
    """A saved game or setting the analysis cannot use; the message says what is wrong."""


@dataclass
class SeatChance:
    seat: int
    wins: float  # shared wins counted as their share
    rollouts: int
    rate: float | None  # None when no rollout finished (a strict deadline)
    ci95: tuple[float, float]


@dataclass
class Analysis:
    seat_to_move: int
    chances: list[SeatChance]
    rollouts: int  # finished rollouts (fewer than asked only when a deadline stopped them)
    expert: Evaluation | None
    seconds: float
    value_net: list[float]  # each seat's chance by the value network (byapar_agents.value): instant

    def to_dict(self) -> dict:
        ev = self.expert
        return {
            "seat_to_move": self.seat_to_move, "rollouts": self.rollouts,
            "seconds": round(self.seconds, 3),
            "chances": [{"seat": c.seat, "wins": c.wins, "rate": c.rate, "ci95": list(c.ci95),
                         "value_net": round(self.value_net[c.seat], 4)}
                        for c in self.chances],
            "expert": None if ev is None else {
                "sims": ev.sims, "choice": ev.choice, "action": str(ev.action),
                "candidates": [{"action": str(c.action), "prior": round(c.prior, 4),
                                "source": c.source, "sims": len(c.scores),
                                "value": None if c.mean is None else round(c.mean, 4)}
                               for c in ev.candidates]},
        }


def _check_count(name: str, value: object, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise AnalyseError(f"{name} must be a whole number from {low:,} to {high:,}, "
                           f"got {value!r:.40}")
    return value


def read_saved_game(path: str | Path) -> tuple[Game, int]:
    """The game and this turn's pre-roll count from a file: the engine's saved game
    (``Game.to_json``) or a table save of ``byapar serve``. ``AnalyseError`` naming the file and
    what is wrong otherwise."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise AnalyseError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise AnalyseError(f"{path}: cannot be read as text: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise AnalyseError(f"{path}: not JSON ({exc}); expected a saved game (the engine's "
                           "Game.to_json, or a table save from byapar serve)") from None
    try:
        return parse_saved_game(data)
    except AnalyseError as exc:
        raise AnalyseError(f"{path}: {exc}") from None


def parse_saved_game(data: object) -> tuple[Game, int]:
    """The game and pre-roll count in ``data`` (a saved game's JSON value), fully checked by
    the engine's saved-game schema (``engine.state``: every field, and what holds between
    fields). The server's size limits are its own (``byapar_serve.saves.load_game``)."""
    pre_roll = 0
    if isinstance(data, dict) and data.get("format") == TABLE_FORMAT:
        pre_roll = data.get("pre_roll_actions", 0)
        if type(pre_roll) is not int or pre_roll < 0:
            raise AnalyseError(f"the table save's pre_roll_actions must be a whole number from "
                               f"0, got {pre_roll!r:.40}")
        data = data.get("game")
    if not isinstance(data, dict):
        raise AnalyseError(f"expected a saved game as a JSON object, got "
                           f"{type(data).__name__}")
    try:
        game = game_from_dict(data)
    except GameStateError as exc:
        raise AnalyseError(f"damaged or foreign saved game: {exc}") from None
    return game, pre_roll


def win_chances(game: Game, rollouts: int, seed: int, deadline: float | None = None,
                strict: bool = False) -> tuple[list[SeatChance], int]:
    """Each seat's chance of winning by ``rollouts`` rollouts to the end (fewer if
    ``deadline``, a ``time.perf_counter`` time, passes first; at least one). ``strict`` (the
    server's bounded calls): the deadline is checked at every decision too, a rollout it cuts
    short is not counted, and there may be none (rates None, intervals 0 to 1)."""
    root = search_root(game)
    n = game.num_players
    wins = [0.0] * n
    players = [ROLLOUT_PLAYER() for _ in range(n)]
    seeds = random.Random(seed)
    done = 0
    for _ in range(rollouts):
        if (done or strict) and deadline is not None and time.perf_counter() > deadline:
            break
        s = seeds.getrandbits(62)
        g = chance_game(root, s)
        driver = SeatDriver.for_game(g, max_decisions=_NO_CAP)
        for i, p in enumerate(players):
            p.reset(s + i)
        cut = False
        while legal := driver.engine_choices():
            if strict and time.perf_counter() > deadline:
                cut = True
                break
            seat = g.current_player
            driver.take_engine(players[seat].choose(g, seat, legal))
        if cut:
            break
        for w in g.winners:
            wins[w] += 1.0 / len(g.winners)
        done += 1
    chances = [SeatChance(s, wins[s], done, wins[s] / done if done else None,
                          wilson(wins[s], done) if done else (0.0, 1.0)) for s in range(n)]
    return chances, done


def analyse(game: Game, pre_roll_actions: int = 0, rollouts: int = DEFAULT_ROLLOUTS,
            expert_sims: int = EXPERT_SIMS, seed: int = 0,
            deadline: float | None = None) -> Analysis:
    """Win chances by rollouts and the expert's evaluation of the decision under way."""
    _check_count("rollouts", rollouts, 1, MAX_SIMS)
    _check_count("expert sims", expert_sims, 1, MAX_SIMS)
    _check_count("seed", seed, 0, MAX_SEED)
    if game.is_over:
        won = ", ".join(f"seat {s}" for s in game.winners)
        raise AnalyseError(f"the saved game is over ({won} won): there is nothing to analyse")
    start = time.perf_counter()
    expert = ExpertPlayer(seed, sims=expert_sims)
    evaluation = expert.evaluate(game, pre_roll_actions, seed)
    chances, done = win_chances(game, rollouts, seed, deadline)
    by_net = shipped_value().win_chances(game)
    return Analysis(game.current_player, chances, done, evaluation,
                    time.perf_counter() - start, by_net)


def format_analysis(analysis: Analysis, game: Game) -> str:
    lines = [f"seat {analysis.seat_to_move} to play, round {game.round} of "
             f"{game.rules.round_limit}, {game.num_players} seats",
             "",
             f"chance of winning ({analysis.rollouts} rollouts to the end, the medium player in "
             f"every seat; 95% Wilson interval; and by the value network):"]
    for c in analysis.chances:
        state = "  bankrupt" if game.bankrupt[c.seat] else ""
        lines.append(f"  seat {c.seat}  {c.rate:6.1%}  ({c.ci95[0]:.1%} - {c.ci95[1]:.1%})"
                     f"  value network {analysis.value_net[c.seat]:6.1%}"
                     f"  net worth {game.net_worth(c.seat):,}{state}")
    ev = analysis.expert
    if ev is not None:
        why = ""
        if ev.sims == 0:  # say why nothing was simulated
            why = (": a single candidate, nothing to compare" if len(ev.candidates) < 2 else
                   ": the time ran out before a round of simulations")
        lines += ["", f"the expert's choice for seat {ev.seat} ({ev.sims} simulations{why}; "
                      "value: mean score, its share of the win or of the position value):"]
        for i, c in enumerate(ev.candidates):
            mark = "*" if i == ev.choice else " "
            value = "  not simulated" if c.mean is None else f"  value {c.mean:.3f}"
            lines.append(f"  {mark} {str(c.action):<48} prior {c.prior:.2f}{value}  "
                         f"({len(c.scores)} sims, {c.source})")
    return "\n".join(lines)
