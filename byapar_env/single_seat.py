"""A single-seat gymnasium view: the learner holds one seat, given players hold the others.

    from byapar_env.single_seat import SingleSeatEnv
    env = SingleSeatEnv(num_players=4)            # random opponents, random seat each episode
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.action_masks().argmax())

- ``observation_space``: the flat observation of the learner's seat (``Box(float32, (641,))``);
  ``action_space``: ``Discrete(181)``, the environment's action table. ``action_masks()`` gives
  the learner's mask, as sb3-contrib's ``MaskablePPO`` expects.
- The other seats are played inside ``step()`` until the learner must decide again or its game
  ends. The learner's reward is the sum of everything credited to its seat since its last action,
  so it gets its final outcome even when an opponent's move ends the game or bankrupts it.
- An episode ends when the game ends or the learner goes bankrupt (``terminated``), or at the
  environment's decision cap (``truncated``).
- An illegal action (SB3's ``check_env`` samples without the mask) does not crash: it is replaced
  by a uniformly random legal action from the view's seeded generator, ``info["illegal_action"]``
  is True, and ``illegal_penalty`` (0 by default) is added to the reward.
- ``num_players`` may be a sequence: each episode draws its table size from it, and
  ``tables`` a list of table options (e.g. ``[{"rounds": 40}, {"auctions": False}]``) to draw
  from as well. ``opponents`` is
  one player for every other seat, a list of players (cycled), or a function
  ``(rng, count) -> list of players`` called at each reset (for opponent pools). Players follow
  ``byapar_env.players.Player``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from .action_table import NUM_ACTIONS
from .byapar_v0 import raw_env
from .observation import OBSERVATION_SIZE
from .players import Player, RandomPlayer

Opponents = Player | Sequence[Player] | Callable[[random.Random, int], Sequence[Player]]


class SingleSeatEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(self, num_players: int | Sequence[int] = 4, opponents: Opponents | None = None,
                 seat: int | None = None, illegal_penalty: float = 0.0,
                 render_mode: str | None = None, tables: Sequence[dict] | None = None,
                 **env_kwargs) -> None:
        sizes = [num_players] if isinstance(num_players, int) else list(num_players)
        if not sizes:
            raise ValueError("num_players must be a table size from 2 to 6 or a sequence of them")
        # ``tables``: table options (rounds, starting_cash, auctions...) to draw one of per
        # episode, on top of ``env_kwargs``. One raw environment per (size, table) is built up
        # front: this also validates every option.
        self.tables = [dict(t) for t in tables] if tables else [{}]
        self._envs = {(n, i): raw_env(num_players=n, render_mode=render_mode,
                                      **{**env_kwargs, **t})
                      for n in sizes for i, t in enumerate(self.tables)}
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < min(sizes)):
            raise ValueError(f"seat must be None (random) or a seat from 0 to {min(sizes) - 1}, "
                             f"got {seat!r}")
        self.sizes = sizes
        self.fixed_seat = seat
        self.opponents = opponents if opponents is not None else RandomPlayer()
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.rng = random.Random()
        self.env: raw_env = self._envs[(sizes[0], 0)]
        self.seat = 0
        self.agent = "player_0"
        self._players: list[Player | None] = []

    # ------------------------------------------------------------------ episode
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self.rng = random.Random(seed)
        n = self.rng.choice(self.sizes)
        self.env = self._envs[(n, self.rng.randrange(len(self.tables)))]
        self.seat = self.fixed_seat if self.fixed_seat is not None else self.rng.randrange(n)
        self.agent = self.env.possible_agents[self.seat]
        others = self._pick_opponents(n - 1)
        for player in others:  # seeded from this view, so the same seed gives the same episode
            if hasattr(player, "reset"):
                player.reset(self.rng.getrandbits(32))
        self._players = others[:self.seat] + [None] + others[self.seat:]
        # A tiny table (a short game, little cash) can end before the learner's first decision:
        # such a game is skipped, as it holds nothing to learn from.
        for _ in range(100):
            self.env.reset(seed=self.rng.getrandbits(63))
            self._play_others()
            if not self._learner_done():
                break
        else:
            raise RuntimeError("100 games in a row ended before the learner's first decision; "
                               "the table options leave it nothing to decide")
        return self._observation(), {"seat": self.seat, "num_players": n}

    def _pick_opponents(self, count: int) -> list[Player]:
        opp = self.opponents
        if callable(opp) and not hasattr(opp, "act"):
            chosen = list(opp(self.rng, count))
        elif hasattr(opp, "act"):
            # One player object for every other seat: each seat gets its own copy, so a player
            # with a memory (what it offered, what it plans) does not mix seats up.
            chosen = [opp] + [copy.deepcopy(opp) for _ in range(count - 1)]
        else:
            chosen = [opp[i % len(opp)] for i in range(count)]
        if len(chosen) != count:
            raise ValueError(f"the opponent function returned {len(chosen)} players for "
                             f"{count} seats")
        return chosen

    def step(self, action):
        env = self.env
        if self._learner_done():
            raise RuntimeError("the learner's episode is over: call reset() before step()")
        mask = self.action_masks()
        info: dict = {"illegal_action": False}
        reward = 0.0
        if not (isinstance(action, (int, np.integer)) and 0 <= action < NUM_ACTIONS
                and mask[action]):
            info["illegal_action"] = True
            reward += self.illegal_penalty
            action = self.rng.choice(np.flatnonzero(mask).tolist())
        env.step(int(action))
        reward += env.rewards.get(self.agent, 0.0)
        more, done = self._play_others()
        reward += more
        terminated = done and not self._truncated()
        return self._observation(), reward, terminated, self._truncated(), info

    def _truncated(self) -> bool:
        return bool(self.env.truncations.get(self.agent, False))

    def _learner_done(self) -> bool:
        env = self.env
        return (self.agent not in env.agents or env.terminations[self.agent]
                or env.truncations[self.agent])

    def _play_others(self) -> tuple[float, bool]:
        """Play every other seat until the learner decides or its game is over."""
        env = self.env
        reward = 0.0
        while True:
            if self._learner_done():
                return reward, True
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            if agent == self.agent:
                return reward, False
            seat = env.agent_name_mapping[agent]
            env.step(self._players[seat].act(env, seat))
            reward += env.rewards.get(self.agent, 0.0)

    # ------------------------------------------------------------------ views
    def _observation(self) -> np.ndarray:
        return self.env.observe(self.agent)["observation"]

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (all False once its game is over)."""
        return self.env.action_mask(self.agent).astype(bool)

    def render(self):
        return self.env.render()
