"""League opponents for self-play: prioritised fictitious self-play over a population.

The learner's opponents come from three sources, as in AlphaStar's league (Vinyals et al.,
2019):

- the newest snapshot of the learner (``latest_share`` of the seats): plain self-play keeps the
  learner moving and meeting its own current habits;
- everyone else, drawn by **prioritised fictitious self-play (PFSP)**: the hand-written players
  named in ``league`` (the strategic panel of :mod:`byapar_agents.panel`, the levels, the
  training half of the outside panel, and ``population``: a fresh player of the generated
  population at each draw, from its training seeds, all of them one member), the
  exploiter checkpoints named in ``exploiters`` (players trained by ``byapar exploit`` to beat
  a frozen learner), and the window of recent snapshots. A member is drawn with weight
  ``(1 - p) ** 2 + 0.02``, where ``p`` is the learner's recent head-to-head score against it
  (1 for finishing ahead of it, 0 behind, a half for a tie, as a moving average). Chance at a
  head-to-head comparison is 0.5 at every table size, so one number serves all tables. A name
  listed k times in ``league`` is k members with one shared score: it is drawn k times as often
  (how a run leans on the opponents its bars are measured against).

Why PFSP: a uniform mix spends most games on opponents the learner already beats, which is how
the last hard player came to exploit the medium player alone; ``(1 - p)^2`` puts the games
where the learner is worst, and the small floor keeps every member in sight so that old
weaknesses cannot come back unseen. Each environment process keeps its own scores from its own
games (no shared state between processes) and writes them to ``RUN/league/worker_K.json``
for inspection.

Mixed tables alone never show the learner a table full of one style, which is what the gauntlet,
the arena and a game site's regulars look like: with ``single_opponent_share`` (compact trainer)
that share of tables has one PFSP-drawn member in every seat but the learner's, and no
self-play seats.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

from byapar_agents import LearnedPlayer, make_agent
from byapar_agents.outside import SEEN_OUTSIDE
from byapar_agents.population import TRAINING_SEEDS, training_names
from byapar_agents.unseen import kept_unseen
from byapar_env.single_seat import SingleSeatEnv

from .games import TrainedGame, trained_game

PFSP_FLOOR = 0.02
# The league name of the generated population (byapar_agents.population): one member with one
# score, whose every draw seats a fresh player from a training seed, so a run meets thousands
# of distinct valuations and never the evaluation seeds.
POPULATION = "population"
SCORE_DECAY = 0.98  # the moving average's weight on the past: about the last 50 games count
REPORT_EVERY = 50  # episodes between writes of the scores to the run folder


def unseen_refusal(name: str, flag: str) -> str | None:
    """Why flag ``flag`` may not name ``name`` (an opponent kept unseen, ``byapar_agents.unseen``:
    no training run seats it), or None."""
    if not kept_unseen(name):
        return None
    return (f"{flag}: {name!r} is kept unseen (evaluation only); training may use "
            f"{', '.join(SEEN_OUTSIDE)}, {POPULATION!r} or pop-SEED with a seed below "
            f"{TRAINING_SEEDS.stop:,}")


def pfsp_weight(score: float) -> float:
    """AlphaStar's 'hard' weighting: opponents the learner scores badly against come up more."""
    return (1.0 - score) ** 2 + PFSP_FLOOR


class LeaguePool:
    """Picks the other seats' players at each episode and learns whom to pick (picklable)."""

    def __init__(self, run_dir: str, league: tuple[str, ...], exploiters: tuple[str, ...],
                 latest_share: float, pool_window: int, worker: int = 0,
                 game: TrainedGame | None = None) -> None:
        self.game = game or trained_game("byapar")
        self.pool_dir = Path(run_dir) / "pool"
        self.report_dir = Path(run_dir) / "league"
        self.league = tuple(league)
        self.exploiters = tuple(exploiters)
        self.latest_share = latest_share
        self.pool_window = pool_window
        self.scores: dict[str, float] = {}
        self.games: dict[str, int] = {}
        self._loaded: dict[str, LearnedPlayer] = {}
        self._fixed: dict[str, LearnedPlayer] = {}
        self._episodes = 0
        self.worker = worker

    # ------------------------------------------------------------------ members
    def snapshots(self) -> list[Path]:
        if self.pool_window <= 0:
            return []
        return sorted(self.pool_dir.glob("step_*"))[-self.pool_window:]

    def members(self) -> list[str]:
        """Every member PFSP draws from: names, exploiter folders and snapshot folders."""
        return list(self.league) + list(self.exploiters) + [str(p) for p in self.snapshots()]

    def _player(self, key: str, rng: random.Random | None = None):
        if key == POPULATION:
            return make_agent(training_names(1, rng or random.Random())[0])
        if key in self._fixed:
            return self._fixed[key]
        if key in self.league:
            player = self.game.player(key)
            if hasattr(player, "policy_for"):  # a learned player is stateless: load it once
                self._fixed[key] = player
            return player
        if key not in self._loaded:
            keep = set(self.exploiters) | {str(p) for p in self.snapshots()}
            self._loaded = {k: v for k, v in self._loaded.items() if k in keep}
            self._loaded[key] = self.game.learned(key)
        return self._loaded[key]

    def __call__(self, rng: random.Random, count: int, single: bool = False) -> list:
        """Players for ``count`` seats; ``single``: one PFSP-drawn member in all of them."""
        snaps = self.snapshots()
        members = self.members()
        weights = [pfsp_weight(self.scores.get(m, 0.5)) for m in members]

        def draw() -> str:
            if snaps and rng.random() < self.latest_share:
                return str(snaps[-1])
            return rng.choices(members, weights)[0]

        chosen = [rng.choices(members, weights)[0]] * count if single else [
            draw() for _ in range(count)]
        players = [self._player(k, rng) for k in chosen]
        for p, k in zip(players, chosen, strict=True):
            p.league_key = k
        return players

    # ------------------------------------------------------------------ results
    def report(self, keys: list[str], learner_worth: float, worths: list[float]) -> None:
        """The learner's game is over: score it against each opponent it sat with."""
        for key, worth in zip(keys, worths, strict=True):
            result = 1.0 if learner_worth > worth else 0.0 if learner_worth < worth else 0.5
            old = self.scores.get(key, 0.5)
            self.scores[key] = SCORE_DECAY * old + (1 - SCORE_DECAY) * result
            self.games[key] = self.games.get(key, 0) + 1
        self._episodes += 1
        if self._episodes % REPORT_EVERY == 0:
            self.write_report()

    def write_report(self) -> None:
        self.report_dir.mkdir(parents=True, exist_ok=True)
        members = self.members()
        data = {m: {"score": round(self.scores.get(m, 0.5), 3), "games": self.games.get(m, 0),
                    "weight": round(pfsp_weight(self.scores.get(m, 0.5)), 3)} for m in members}
        path = self.report_dir / f"worker_{self.worker}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"episodes": self._episodes, "members": data}, indent=2))
        tmp.replace(path)


class LeagueSeatEnv(SingleSeatEnv):
    """The single-seat view that tells its league pool how each game went."""

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        pool = self.opponents
        if (terminated or truncated) and isinstance(pool, LeaguePool):
            game = self.env.game
            keys, worths = [], []
            for seat, player in enumerate(self._players):
                if player is not None:
                    keys.append(getattr(player, "league_key", player.name))
                    worths.append(float(game.net_worth(seat)))
            pool.report(keys, float(game.net_worth(self.seat)), worths)
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        if isinstance(self.opponents, LeaguePool) and self.opponents.games:
            self.opponents.write_report()  # the last scores, whatever the episode count
        super().close()


def league_scores(run_dir: str | Path) -> dict[str, dict]:
    """The workers' latest scores, merged: each member's games summed, scores averaged by
    games."""
    merged: dict[str, dict] = {}
    for path in sorted((Path(run_dir) / "league").glob("worker_*.json")):
        try:
            members = json.loads(path.read_text())["members"]
        except (OSError, ValueError, KeyError):
            continue
        for key, row in members.items():
            m = merged.setdefault(key, {"games": 0, "score_sum": 0.0})
            m["games"] += row["games"]
            m["score_sum"] += row["score"] * row["games"]
    return {k: {"games": v["games"],
                "score": float(np.round(v["score_sum"] / v["games"], 3)) if v["games"] else 0.5}
            for k, v in merged.items()}
