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
- Actions are ids as for the AEC environment (``byapar_v0.as_action_id``): a Python ``int``, a
  numpy integer or a 0-d integer array (what ``model.predict(obs)`` returns), from 0 to 180.
- A well-formed id that the mask forbids (SB3's and gymnasium's ``check_env`` sample without the
  mask) does not crash: it is replaced by a uniformly random legal action from the view's seeded
  generator, ``info["illegal_action"]`` is True, and ``illegal_penalty`` (0 by default, a finite
  number from -100 to 0) is added to the reward. A malformed action (a bool, a float, a string,
  an id out of range, an array that is not 0-d, such as ``np.array([5])``) is never replaced: it
  raises ``IllegalActionError`` (a ``ValueError``) naming the value and the range, changing
  nothing.
- ``step()`` before ``reset()`` or after the learner's episode ended raises ``RuntimeError``.
- Seeds are as for the AEC environment: None or a whole number from 0 up, else ``SeedError``.
- ``num_players`` may be a sequence: each episode draws its table size from it, and
  ``tables`` a list of table options (e.g. ``[{"rounds": 40}, {"auctions": False}]``) to draw
  from as well. ``opponents`` is
  one player for every other seat, a list of players (cycled), or a function
  ``(rng, count) -> list of players`` called at each reset (for opponent pools). Players follow
  ``byapar_env.players.Player``.
- Bad arguments (a table size outside 2 to 6, a bool for a seat, an empty opponent list, an
  unknown table option, a NaN penalty...) raise ``RulesError`` naming the argument.
- Registered with gymnasium as ``byapar/Byapar-SingleSeat-v0`` when ``byapar_env`` is imported:
  ``gymnasium.make("byapar/Byapar-SingleSeat-v0", num_players=4)`` takes the arguments above.
- ``game="businessman"`` (``byapar/Businessman-SingleSeat-v0``) is the same view of a
  Businessman table (``businessman_v0``: 1,080 observation figures, 402 action ids, its own
  table options); every point above holds for it with its own sizes.
"""

from __future__ import annotations

import copy
import inspect
import random
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from .engine import RulesError
from .engine.errors import show
from .games import find_game
from .players import Player, RandomPlayer
from .table_env import TableEnv, as_seed

Opponents = Player | Sequence[Player] | Callable[[random.Random, int], Sequence[Player]]


class SingleSeatEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"]}

    def __init__(self, num_players: int | Sequence[int] = 4, opponents: Opponents | None = None,
                 seat: int | None = None, illegal_penalty: float = 0.0,
                 render_mode: str | None = None, tables: Sequence[dict] | None = None,
                 game: str = "byapar", **env_kwargs) -> None:
        # The game's versioned environment (byapar_env.games): its raw_env, action ids, caps.
        spec = find_game(game)
        face = spec.module("env")
        self.game_name = game
        # the face's function, not the module: a view crosses processes (SubprocVecEnv)
        self._as_action_id = face.as_action_id
        # the view returns what it renders; "human" (printing) is the AEC environment's
        self.metadata = {"render_modes": [m for m in face.raw_env.metadata["render_modes"]
                                          if m != "human"]}
        sizes = _table_sizes(num_players, spec.min_players, spec.max_players)
        if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool)
                                     and 0 <= seat < min(sizes)):
            raise RulesError(f"seat must be None (random) or a seat from 0 to {min(sizes) - 1}, "
                             f"got {show(seat)}")
        _check_opponents(opponents)
        # A penalty is a negative reward: a positive one would pay for illegal actions, and
        # NaN would poison every return. The bound matches dense_coef's.
        if isinstance(illegal_penalty, (bool, np.bool_)) or not isinstance(
                illegal_penalty, (int, float, np.integer, np.floating)) or not (
                -face.MAX_DENSE_COEF <= float(illegal_penalty) <= 0):
            raise RulesError(f"illegal_penalty must be a finite number from "
                             f"{-face.MAX_DENSE_COEF:g} to 0, got {show(illegal_penalty)}")
        # ``tables``: table options (rounds, starting_cash, auctions...) to draw one of per
        # episode, on top of ``env_kwargs``. One raw environment per (size, table) is built up
        # front: this also validates every option's value.
        allowed = _table_options(face.raw_env)
        _check_options("the keyword arguments", env_kwargs, allowed)
        if tables is not None and (isinstance(tables, (str, bytes, Mapping))
                                   or not isinstance(tables, Iterable)):
            raise RulesError("tables must be None or a list of dicts of table options, got "
                             f"{show(tables)}")
        self.tables = list(tables) if tables is not None else []
        for t in self.tables:
            _check_options("each of tables", t, allowed)
        self.tables = [dict(t) for t in self.tables] or [{}]  # none: the given options alone
        self._envs = {(n, i): face.raw_env(num_players=n, render_mode=render_mode,
                                           **{**env_kwargs, **t})
                      for n in sizes for i, t in enumerate(self.tables)}
        self.sizes = sizes
        self.fixed_seat = seat
        self.opponents = opponents if opponents is not None else RandomPlayer()
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.env: TableEnv = self._envs[(sizes[0], 0)]
        first = self.env.possible_agents[0]
        self.observation_space = spaces.Box(
            -np.inf, np.inf, self.env.observation_space(first)["observation"].shape, np.float32)
        self.action_space = spaces.Discrete(self.env.action_space(first).n)
        self.rng = random.Random()
        self.seat = 0
        self.agent = "player_0"
        self._players: list[Player | None] = []

    # ------------------------------------------------------------------ episode
    def reset(self, *, seed: int | None = None,
              options: dict | None = None) -> tuple[np.ndarray, dict]:
        seed = as_seed(seed)  # refuses 1.7 and -1 with SeedError; numpy integers become ints
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
            raise RulesError(f"the opponent function returned {len(chosen)} players for "
                             f"{count} seats")
        return chosen

    def step(self, action: int | np.integer | np.ndarray) -> tuple[np.ndarray, float, bool,
                                                                    bool, dict]:
        env = self.env
        if env.game is None:
            raise RuntimeError("step() before reset(): call reset() first")
        if self._learner_done():
            raise RuntimeError("the learner's episode is over: call reset() before step()")
        # Only a well-formed id may be replaced below: a float, a bool or a batch is a bug in
        # the caller, and playing a random action for it would hide that bug.
        action = self._as_action_id(action)
        mask = self.action_masks()
        info: dict = {"illegal_action": False}
        reward = 0.0
        if not mask[action]:
            info["illegal_action"] = True
            reward += self.illegal_penalty
            action = self.rng.choice(np.flatnonzero(mask).tolist())
        env.step(action)
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

    def render(self) -> str | np.ndarray | None:
        return self.env.render()


def _table_options(raw_env: type) -> tuple[str, ...]:
    """The options a table may set: ``raw_env``'s arguments less the two the view sets itself
    (read from its signature, so that a new option needs no second edit here)."""
    return tuple(name for name in inspect.signature(raw_env.__init__).parameters
                 if name not in ("self", "num_players", "render_mode"))


def _table_sizes(num_players: object, low: int, high: int) -> list[int]:
    message = (f"num_players must be a table size from {low} to {high} or a "
               f"non-empty sequence of them, got {show(num_players)}")
    if isinstance(num_players, int) and not isinstance(num_players, bool):
        sizes = [num_players]
    elif isinstance(num_players, Sequence) and not isinstance(num_players, (str, bytes)):
        sizes = list(num_players)
    else:
        raise RulesError(message)
    if not sizes or not all(isinstance(n, int) and not isinstance(n, bool)
                            and low <= n <= high for n in sizes):
        raise RulesError(message)
    return sizes


def _check_options(where: str, options: object, allowed: tuple[str, ...]) -> None:
    if not isinstance(options, Mapping):
        raise RulesError(f"{where} must be a dict of table options, got {show(options)}")
    unknown = sorted(set(options) - set(allowed), key=str)
    if unknown:
        raise RulesError(f"unknown table options {unknown} in {where}; allowed: "
                         f"{list(allowed)}")


def old_single_seat(**kwargs) -> SingleSeatEnv:
    """``byapar/SingleSeat-v0``, the earlier id of ``byapar/Byapar-SingleSeat-v0``: the same
    view, with a ``DeprecationWarning`` (the id goes in the next release)."""
    warnings.warn("byapar/SingleSeat-v0 is now byapar/Byapar-SingleSeat-v0 (Businessman's is "
                  "byapar/Businessman-SingleSeat-v0); the old id goes in the next release",
                  DeprecationWarning, stacklevel=2)
    return SingleSeatEnv(**kwargs)


def _check_opponents(opponents: object) -> None:
    if opponents is None or hasattr(opponents, "act") or callable(opponents):
        return
    if (isinstance(opponents, Sequence) and not isinstance(opponents, (str, bytes))
            and opponents and all(hasattr(p, "act") for p in opponents)):
        return
    raise RulesError("opponents must be None (random players), a player (an object with "
                     "act(env, seat)), a non-empty list of players, or a function "
                     f"(rng, count) -> players; got {show(opponents)}")
