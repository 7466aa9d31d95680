"""Rollouts for the compact PPO trainer: many games in one process, every network batched.

A ``Collector`` keeps ``n_tables`` games in flight. Each game's seats are controlled by

- the **learner** (the policy being trained): its own seat, and, for ``latest_share`` of the
  other seats, further copies of itself (self-play). Every learner seat is a *stream* of
  samples of its own; all of them go into the rollout;
- a **frozen policy** (a snapshot, an exploiter, the hard player): a numpy network;
- a **hand-written player** (the levels and the panel), asked directly.

One round of collection advances every game until the seat to move is played by a network,
then runs one forward pass per network over all the games waiting on it (one matrix product
per layer for the learner's whole batch, one for each snapshot's), takes those actions, and
repeats. Rewards reach a learner stream between its decisions (an opponent's move may end the
game or bankrupt it); they are added to the stream's open sample.

The rollout ends after ``n_samples`` learner decisions. A stream whose last sample is still open
is bootstrapped with the critic's value of its seat's observation at that moment (CleanRL's
``next_value``); the rewards it gets before its next decision are then not counted (rarely any:
shaping, or the game's end in that window). Advantages are GAE over each stream's own samples,
linked by index, so that interleaved streams never mix.

The same code runs in this process or in worker processes (``byapar_training/ppo.py``): a collector
needs only the learner's numpy weights and the run folder, and returns plain arrays.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from byapar_env.action_table import NUM_ACTIONS
from byapar_env.byapar_v0 import raw_env
from byapar_env.observation import OBSERVATION_SIZE

from .games import TrainedGame, trained_game

Layers = list[tuple[np.ndarray, np.ndarray]]
LEARNER = "learner"


def mlp(layers: Layers, x: np.ndarray) -> np.ndarray:
    """tanh hidden layers, a linear output (the hard player's network, and the critic's)."""
    for w, b in layers[:-1]:
        x = np.tanh(x @ w + b)
    w, b = layers[-1]
    return x @ w + b


@dataclass
class Table:
    """One game in flight and who plays each of its seats."""

    env: raw_env  # or the environment of the game trained (byapar_training/games.py)
    control: list  # per seat: LEARNER, a NumpyPolicy, or a hand-written player
    keys: list[str]  # per seat: the league key of its player ("" for the learner)
    open: dict[int, int] = field(default_factory=dict)  # learner seat -> its open sample index

    def learner_seats(self) -> list[int]:
        return [s for s, c in enumerate(self.control) if c is LEARNER]


class Buffer:
    """One rollout's samples, preallocated; ``nxt[i]`` is the same stream's next sample."""

    def __init__(self, size: int, observation_size: int = OBSERVATION_SIZE,
                 num_actions: int = NUM_ACTIONS) -> None:
        self.obs = np.zeros((size, observation_size), np.float32)
        self.mask = np.zeros((size, num_actions), bool)
        self.act = np.zeros(size, np.int64)
        self.logp = np.zeros(size, np.float32)
        self.value = np.zeros(size, np.float32)
        self.reward = np.zeros(size, np.float32)
        self.done = np.zeros(size, bool)
        self.nxt = np.full(size, -1, np.int64)
        self.boot = np.zeros(size, np.float32)  # bootstrap value of a sample cut open
        self.size = 0

    def advantages(self, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
        """GAE along each stream (a sample's successor always has a larger index)."""
        n = self.size
        adv = np.zeros(n, np.float32)
        value, reward, nxt, done, boot = self.value, self.reward, self.nxt, self.done, self.boot
        for i in range(n - 1, -1, -1):
            j = nxt[i]
            if done[i]:
                adv[i] = reward[i] - value[i]
            elif j >= 0:
                adv[i] = reward[i] + gamma * value[j] - value[i] + gamma * lam * adv[j]
            else:
                adv[i] = reward[i] + gamma * boot[i] - value[i]
        return adv, adv + value[:n]


class Collector:
    """Plays ``n_tables`` games at once and hands back rollouts of the learner's samples.

    ``pick_opponents(rng, count)`` gives the players of the seats the learner does not hold
    (a league pool or the original pool); ``report(table)``, if given, hears each finished
    game (the league's scores).
    """

    def __init__(self, n_tables: int, table_sizes: Sequence[int], tables: Sequence[dict],
                 reward: str, latest_share: float,
                 pick_opponents: Callable[[random.Random, int], list], seed: int,
                 report: Callable[[Table], None] | None = None,
                 single_opponent_share: float = 0.0, game: TrainedGame | None = None) -> None:
        self.game = game or trained_game("byapar")
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.table_sizes = list(table_sizes)
        self.table_options = [dict(t) for t in tables] or [{}]
        self.reward = reward
        self.latest_share = latest_share
        self.single_opponent_share = single_opponent_share
        self.pick_opponents = pick_opponents
        self.report = report
        self.actor: Layers = []
        self.critic: Layers = []
        self.episodes = 0
        self.tables = [self._new_table() for _ in range(n_tables)]
        self.buffer: Buffer | None = None

    def close(self) -> None:
        """Write the league's last scores, whatever the episode count: its members and their
        weights even before any game has ended (a short run, or slow games)."""
        pool = self.pick_opponents
        if hasattr(pool, "write_report"):
            pool.write_report()

    # ------------------------------------------------------------------ tables
    def _new_table(self) -> Table:
        rng = self.rng
        n = rng.choice(self.table_sizes)
        env = self.game.env(n, self.reward, **rng.choice(self.table_options))
        me = rng.randrange(n)
        # A single-opponent table (one league member in every other seat) has no self-play
        # seats; the draw is skipped at share 0 so that seeded runs without it are unchanged.
        single = self.single_opponent_share > 0 and rng.random() < self.single_opponent_share
        selves = [] if single else [s for s in range(n)
                                    if s != me and rng.random() < self.latest_share]
        others = [s for s in range(n) if s != me and s not in selves]
        if single:
            players = self.pick_opponents(rng, len(others), single=True)
        else:
            players = self.pick_opponents(rng, len(others)) if others else []
        control: list = [LEARNER] * n
        keys = [""] * n
        for seat, player in zip(others, players, strict=True):
            if hasattr(player, "reset"):
                player.reset(rng.getrandbits(32))
            keys[seat] = getattr(player, "league_key", getattr(player, "name", "?"))
            # A learned player is batched as a bare network; anyone else is asked directly.
            control[seat] = player.policy_for(n) if hasattr(player, "policy_for") else player
        env.reset(seed=rng.getrandbits(63))
        return Table(env, control, keys)

    def _finish(self, index: int) -> None:
        """The game is over for every learner seat: report it and start the next one."""
        table = self.tables[index]
        if self.report is not None:
            self.report(table)
        self.episodes += 1
        self.tables[index] = self._new_table()

    # ------------------------------------------------------------------ stepping
    def _step(self, table: Table, action: int | None) -> None:
        """Take one action and hand its rewards to the learner seats' open samples."""
        env = table.env
        env.step(action)
        if not table.open:
            return
        buf = self.buffer
        for seat, i in list(table.open.items()):
            agent = env.possible_agents[seat]
            buf.reward[i] += env.rewards.get(agent, 0.0)
            if env.terminations.get(agent, True) or env.truncations.get(agent, True):
                buf.done[i] = True
                del table.open[seat]

    def _advance(self, index: int) -> None:
        """Play the table until a network's seat must decide, starting new games as needed."""
        while True:
            table = self.tables[index]
            env = table.env
            if not env.agents or not any(
                    a in env.agents and not env.terminations[a] and not env.truncations[a]
                    for a in (env.possible_agents[s] for s in table.learner_seats())):
                # Over, or every learner seat is out: the rest would teach nothing.
                self._finish(index)
                continue
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            seat = env.agent_name_mapping[agent]
            player = table.control[seat]
            if player is LEARNER or hasattr(player, "logits"):
                return
            self._step(table, player.act(env, seat))

    def collect(self, n_samples: int, actor: Layers, critic: Layers, gamma: float,
                lam: float) -> dict[str, np.ndarray]:
        """``n_samples`` learner decisions with their advantages and returns."""
        from threadpoolctl import threadpool_limits

        # One BLAS thread: the batches are small, and OpenBLAS's idle threads spin on a busy
        # machine (docs/training_profile.md has what its default of one thread per core cost).
        with threadpool_limits(1, user_api="blas"):
            return self._collect(n_samples, actor, critic, gamma, lam)

    def _collect(self, n_samples: int, actor: Layers, critic: Layers, gamma: float,
                 lam: float) -> dict[str, np.ndarray]:
        self.actor, self.critic = actor, critic
        buf = self.buffer = Buffer(n_samples, self.game.observation_size, self.game.num_actions)
        episodes = self.episodes
        while buf.size < n_samples:
            learner: list[int] = []
            frozen: dict[int, list[int]] = {}
            for k in range(len(self.tables)):
                self._advance(k)
                table = self.tables[k]
                player = table.control[table.env.agent_name_mapping[table.env.agent_selection]]
                if player is LEARNER:
                    learner.append(k)
                else:
                    frozen.setdefault(id(player), []).append(k)
            self._learner_moves(learner[:n_samples - buf.size])
            for ks in frozen.values():
                self._frozen_moves(ks)
        self._cut_open_streams()
        adv, ret = buf.advantages(gamma, lam)
        n = buf.size
        return {"obs": buf.obs[:n], "mask": buf.mask[:n], "act": buf.act[:n],
                "logp": buf.logp[:n], "value": buf.value[:n], "adv": adv, "ret": ret,
                "episodes": np.int64(self.episodes - episodes)}

    def _observe(self, ks: list[int]) -> tuple[np.ndarray, np.ndarray]:
        views = []
        for k in ks:
            env = self.tables[k].env
            views.append(env.observe(env.agent_selection))
        obs = np.stack([v["observation"] for v in views])
        mask = np.stack([v["action_mask"] for v in views]).astype(bool)
        return obs, mask

    def _learner_moves(self, ks: list[int]) -> None:
        if not ks:
            return
        buf = self.buffer
        obs, mask = self._observe(ks)
        logits = np.where(mask, mlp(self.actor, obs), -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        logp_all = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
        # Gumbel-max: a sample of the masked softmax from the collector's own generator.
        acts = np.argmax(logits + self.np_rng.gumbel(size=logits.shape), axis=1)
        values = mlp(self.critic, obs)[:, 0]
        for row, k in enumerate(ks):
            table = self.tables[k]
            seat = table.env.agent_name_mapping[table.env.agent_selection]
            i = buf.size
            buf.size += 1
            buf.obs[i], buf.mask[i], buf.act[i] = obs[row], mask[row], acts[row]
            buf.logp[i], buf.value[i] = logp_all[row, acts[row]], values[row]
            if seat in table.open:
                buf.nxt[table.open[seat]] = i
            table.open[seat] = i
            self._step(table, int(acts[row]))

    def _frozen_moves(self, ks: list[int]) -> None:
        first = self.tables[ks[0]]
        policy = first.control[first.env.agent_name_mapping[first.env.agent_selection]]
        obs, mask = self._observe(ks)
        acts = np.argmax(np.where(mask, policy.logits(obs), -np.inf), axis=1)
        for row, k in enumerate(ks):
            self._step(self.tables[k], int(acts[row]))

    def _cut_open_streams(self) -> None:
        """Bootstrap every sample still open with the value of its seat's view now."""
        buf = self.buffer
        rows, where = [], []
        for table in self.tables:
            for seat, i in table.open.items():
                rows.append(table.env.observe(table.env.possible_agents[seat])["observation"])
                where.append(i)
            table.open.clear()
        if rows:
            buf.boot[where] = mlp(self.critic, np.stack(rows))[:, 0]
