"""Who sits at the learner's table: the opponents and the table options of each episode.

Two ways, at random seats, table sizes 2 to 6 and mixed table options (``TABLES``):

- league self-play (``--league`` names hand-written players, ``--exploiters`` checkpoint
  folders; ``byapar_training/league.py``): the newest snapshot for ``--latest-share`` of the seats,
  the
  rest by prioritised fictitious self-play over the named players, the exploiters and the window
  of recent snapshots, weighted towards whoever the learner does worst against;
- the original pool (``OpponentPool``): frozen snapshots of the learner (a window of recent
  ones, and a share of games against the latest) plus the easy and medium players as anchors.

``make_env`` builds the SB3 trainer's environments from them; the compact trainer's collectors
(``byapar_training/ppo.py``) draw from the same pools.
"""

from __future__ import annotations

import random
from pathlib import Path

from byapar_agents import LearnedPlayer
from byapar_env.single_seat import SingleSeatEnv

from .config import Config, names
from .games import BYAPAR, trained_game
from .league import LeaguePool, LeagueSeatEnv

# The table options an episode's table is drawn from (the table size apart).
TABLES = list(trained_game(BYAPAR).tables)  # the SB3 trainer plays Byapar only


class OpponentPool:
    """Picks the other seats' players at each episode (picklable, for SubprocVecEnv)."""

    def __init__(self, config: Config) -> None:
        self.pool_dir = Path(config.run_dir) / "pool"
        self.config = config
        self.game = trained_game(config.game)
        self._loaded: dict[str, LearnedPlayer] = {}

    def snapshots(self) -> list[Path]:
        return sorted(self.pool_dir.glob("step_*"))[-self.config.pool_window:]

    def __call__(self, rng: random.Random, count: int) -> list:
        c = self.config
        snaps = self.snapshots()
        players = []
        for _ in range(count):
            r = rng.random()
            if not snaps or r < c.anchor_share:
                game = self.game
                name = game.teacher if rng.random() < c.medium_share_of_anchors else game.sparring
                players.append(game.player(name))
            elif r < c.anchor_share + c.latest_share:
                players.append(self._load(snaps[-1]))
            else:
                players.append(self._load(rng.choice(snaps)))
        return players

    def _load(self, path: Path) -> LearnedPlayer:
        key = str(path)
        if key not in self._loaded:
            keep = {str(p) for p in self.snapshots()}  # forget snapshots out of the window
            self._loaded = {k: v for k, v in self._loaded.items() if k in keep}
            self._loaded[key] = self.game.learned(path)
        return self._loaded[key]


def league_pool(config: Config, worker: int, latest_share: float) -> LeaguePool:
    """The league of a league run (``--league`` or ``--exploiters``), for one worker process
    (its scores in RUN/league/worker_K.json)."""
    return LeaguePool(config.run_dir, names(config.league), names(config.exploiters),
                      latest_share, config.pool_window, worker, trained_game(config.game))


def make_env(config: Config, worker: int = 0):
    """The SB3 trainer's environment ``worker``: a thunk, built in the worker process."""
    def thunk() -> SingleSeatEnv:
        if config.league or config.exploiters:
            return LeagueSeatEnv(num_players=config.table_sizes,
                                 opponents=league_pool(config, worker, config.latest_share),
                                 tables=TABLES, reward=config.reward)
        return SingleSeatEnv(num_players=config.table_sizes, opponents=OpponentPool(config),
                             tables=TABLES, reward=config.reward)
    return thunk
