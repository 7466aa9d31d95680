"""What every game's PettingZoo environment shares (``byapar_v0``, ``businessman_v0``).

Each environment is an AEC environment over one game's engine: seat ``i`` is agent
``player_i``, every decision a masked id of a fixed table, observations a float32 vector beside
the mask. ``TableEnv`` holds the parts that are the same whatever the game: the agents and
their spaces, the seeded reset, the zero-sum outcome reward with optional dense shaping, the
bankrupt and truncated agents, and the errors for steps without an agent; the checks of
options, action ids and seeds are here too, and ``wrap`` puts PettingZoo's usual wrappers
around a raw environment. Each game's module keeps its options, its action table, its
observation and its stepping.
"""

from __future__ import annotations

import json
import random
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .core.errors import IllegalActionError, RulesError, SeedError, show


def is_whole(value: object) -> bool:
    # bool is an int subclass: True must not pass for 1.
    return isinstance(value, int) and not isinstance(value, bool)


def check_whole(name: str, value: object, low: int, high: int) -> None:
    """RulesError naming option ``name`` unless ``value`` is a Python int from low to high."""
    if not is_whole(value) or not low <= value <= high:
        raise RulesError(f"{name} must be a whole number from {low:,} to {high:,} (a Python int), "
                         f"got {show(value)}")


def check_real(name: str, value: object, low: float, high: float) -> float:
    """``value`` as a float, refusing bools, strings, NaN and values outside [low, high]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise RulesError(f"{name} must be a finite number from {low:g} to {high:g}, "
                         f"got {show(value)}")
    number = float(value)
    if not low <= number <= high:  # NaN fails every comparison, so it lands here too
        raise RulesError(f"{name} must be a finite number from {low:g} to {high:g}, "
                         f"got {show(value)}")
    return number


def check_render_mode(render_mode: object, modes: list[str]) -> None:
    if render_mode is not None and render_mode not in modes:
        raise RulesError(f"render_mode must be one of {modes} or None, got {show(render_mode)}")


def as_action_id(action: object, num_actions: int) -> int:
    """The id from 0 to ``num_actions - 1`` that ``action`` stands for, or
    ``IllegalActionError`` naming it and the range.

    Accepted: a Python ``int``, a numpy integer, or a 0-d integer array (SB3's ``predict`` on
    one observation). Refused: bools (``False`` is not id 0), floats (even ``5.0``: a float id
    is a bug upstream), strings, ``None`` and arrays of any other shape, a 1-element array
    included, as gymnasium's ``Discrete.contains`` refuses it.
    """
    value = None
    if is_whole(action):
        value = action
    elif isinstance(action, np.integer) or (isinstance(action, np.ndarray) and action.shape == ()
                                            and action.dtype.kind in "iu"):
        value = int(action)
    if value is not None and 0 <= value < num_actions:
        return int(value)
    hint = ""
    if isinstance(action, np.ndarray) and action.size == 1 and action.shape != ():
        hint = f"; this is an array of shape {action.shape}: pass its element, action.item()"
    elif action is None:
        hint = "; None only steps out an agent that is terminated or truncated"
    raise IllegalActionError(
        f"action {show(action)} ({type(action).__name__}) is not an action id: ids are "
        f"whole numbers from 0 to {num_actions - 1}, as a Python int, a numpy integer or a 0-d "
        f"integer array{hint}")


def as_seed(seed: object) -> int | None:
    """``seed`` as a Python int (or None), or ``SeedError``: a seed is None or a whole number
    from 0 up, as a Python or numpy integer. Floats are refused rather than truncated (1.7 would
    silently be 1), and negative seeds because ``random.Random`` folds them onto their absolute
    values (-5 and 5 would play the same game)."""
    if seed is None:
        return None
    if (is_whole(seed) or isinstance(seed, np.integer)) and seed >= 0:
        return int(seed)
    raise SeedError(f"seed must be None or a whole number from 0 up (a Python or numpy "
                    f"integer), got {show(seed)} ({type(seed).__name__})")


def wrap(raw: AECEnv) -> AECEnv:
    """``raw`` (a ``TableEnv``) with PettingZoo's standard wrappers: a masked-out move ends the
    game with -1 for its maker; a malformed one raises, as from the raw environment."""
    e = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    e = ActionIdWrapper(e)
    return OrderEnforcing(e)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order check; ``last()`` once every seat has left is the raw environment's
    (the last seat's final view), not a KeyError."""

    def last(self, observe: bool = True) -> tuple:
        raw = self.unwrapped
        if raw.agent_selection is not None and not raw.agents and getattr(raw, "game", None):
            return raw.last(observe)
        return super().last(observe)


class ActionIdWrapper(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's out-of-bounds check, reading actions as the raw environment does.

    The wrapper below it indexes the mask with the action before the raw environment sees it:
    a bool would index as a numpy boolean mask and fail with numpy's "truth value of an empty
    array", and a float would fail the out-of-bounds assert. Here a live agent's action becomes
    a plain int id first, or ``IllegalActionError`` naming the value and the range, changing
    nothing. A done agent's action goes to PettingZoo's check unchanged (it must be None).
    """

    def step(self, action: int | np.integer | np.ndarray | None) -> None:
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            action = as_action_id(action, self.unwrapped.NUM_ACTIONS)
        super().step(action)


class TableEnv(AECEnv):
    """The shared half of a game's ``raw_env``; the game's class sets ``NUM_ACTIONS`` and
    ``OBSERVATION_SIZE`` and keeps its options, observation and stepping. Its ``game`` is the
    engine's game under way, ``rules`` its rules, ``decisions`` the decisions taken in it,
    ``max_decisions`` the cap, ``dense_coef`` the shaping weight."""

    NUM_ACTIONS: ClassVar[int]
    OBSERVATION_SIZE: ClassVar[int]

    def _set_agents(self, num_players: int) -> None:
        """The agents ``player_0`` ... and their spaces, and a fresh seeder."""
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.NUM_ACTIONS) for a in self.possible_agents}
        self._seeder = random.Random()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def last(self, observe: bool = True) -> tuple:
        """PettingZoo's ``last()``; once the game is over and every seat has left, the last
        seat's final view (no reward left to give, its episode ended) rather than a KeyError."""
        agent = self.agent_selection
        if agent is None or agent in self._cumulative_rewards:
            return super().last(observe)
        over = self.game is not None and self.game.is_over
        return (self.observe(agent) if observe else None), 0.0, over, not over, {}

    # ------------------------------------------------------------------ saved states
    def common_state(self) -> dict:
        """The part of ``save_state`` every game's environment has: the AEC bookkeeping, the
        counts and the seeder."""
        return {"decisions": self.decisions, "agents": self.agents,
                "agent_selection": self.agent_selection, "rewards": self.rewards,
                "cumulative_rewards": self._cumulative_rewards,
                "terminations": self.terminations, "truncations": self.truncations,
                "out": self._out, "shares": self._shares,
                "seeder": generator_state(self._seeder),
                "skip_agent_selection": getattr(self, "_skip_agent_selection", None)}

    def read_state(self, text: str, fmt: str, observation_version: int) -> dict:
        """A ``save_state`` text of format ``fmt`` as a dict, checked for its format, its
        observation version and this environment's options (``ValueError`` naming what
        differs)."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"environment state is not valid JSON: {exc}") from exc
        if not isinstance(data, dict) or data.get("format") != fmt:
            raise ValueError(f"not a saved {self.metadata['name']} state (format {fmt!r})")
        if data.get("observation_version") != observation_version:
            raise ValueError(f"state has observation version "
                             f"{data.get('observation_version')!r}, this environment has "
                             f"{observation_version}")
        mine = {k: v for k, v in self._kwargs.items() if k != "render_mode"}
        theirs = {k: v for k, v in (data.get("options") or {}).items() if k != "render_mode"}
        if theirs != mine:
            raise ValueError(f"state was saved with options {theirs}, this environment has "
                             f"{mine} (the render mode may differ)")
        return data

    @staticmethod
    def common_fields(data: dict) -> dict:
        """``common_state``'s fields read back, as attribute values (KeyError, TypeError or
        ValueError for a damaged state); ``set_common_fields`` applies them."""
        seeder = random.Random()
        seeder.setstate(generator_from(data["seeder"]))
        return dict(decisions=int(data["decisions"]), agents=list(data["agents"]),
                    agent_selection=str(data["agent_selection"]),
                    rewards=dict(data["rewards"]),
                    _cumulative_rewards=dict(data["cumulative_rewards"]),
                    terminations=dict(data["terminations"]),
                    truncations=dict(data["truncations"]), _out=list(data["out"]),
                    _shares=data["shares"], _seeder=seeder,
                    _skip=data.get("skip_agent_selection"))

    def set_common_fields(self, fields: dict) -> None:
        skip = fields.pop("_skip")
        for key, value in fields.items():
            setattr(self, key, value)
        self.infos = {a: {} for a in self.agents}
        if skip is not None:
            self._skip_agent_selection = skip

    def require_game(self, what: str) -> None:
        """``RuntimeError`` for ``what`` (a method) called before the first ``reset()``."""
        if getattr(self, "game", None) is None:
            raise RuntimeError(f"{what}() before reset(): call reset() first")

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def close(self) -> None:
        pass

    # ------------------------------------------------------------------ reset
    def _game_seed(self, seed: object) -> int:
        """The next game's seed: ``seed`` itself (and the seeder reseeded with it), or one
        drawn from the seeder. ``SeedError`` before anything changes."""
        seed = as_seed(seed)
        if seed is not None:
            self._seeder = random.Random(seed)
            return seed
        return self._seeder.getrandbits(63)

    def _open_books(self) -> None:
        """Every agent live, with no reward yet and nobody out."""
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._out = [False] * len(self.possible_agents)  # bankruptcies already rewarded

    # ------------------------------------------------------------------ rewards and endings
    def _value_shares(self) -> list[float]:
        """Each seat's share of the table's total net worth (the dense shaping's figure)."""
        worth = [self.game.net_worth(s) for s in range(len(self.possible_agents))]
        total = sum(worth) or 1
        return [w / total for w in worth]

    def _hand_out(self) -> None:
        """This step's rewards, terminations and truncations: the change in each seat's share
        (when shaping), -1/(n-1) to each seat gone bankrupt, at the end the winners' share of
        the losers' total to each winner, and truncation at the decision cap."""
        game = self.game
        n = len(self.possible_agents)
        loss = -1.0 / (n - 1)
        if self._shares is not None:
            shares = self._value_shares()
            for s in range(n):
                if not self._out[s]:
                    self.rewards[self.possible_agents[s]] += (
                        self.dense_coef * (shares[s] - self._shares[s]))
            self._shares = shares
        for s in range(n):
            if game.bankrupt[s] and not self._out[s]:
                self._out[s] = True
                a = self.possible_agents[s]
                self.rewards[a] += loss
                self.terminations[a] = True
        if game.is_over:
            winners = set(game.winners)
            losers = n - len(winners)
            for s in range(n):
                a = self.possible_agents[s]
                if a not in self.terminations or self._out[s]:
                    continue
                self.rewards[a] += losers / (n - 1) / len(winners) if s in winners else loss
                self.terminations[a] = True
                self._out[s] = True
        elif self.decisions >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True

    # ------------------------------------------------------------------ stepping
    def _deciding_agent(self, action: object) -> str | None:
        """The agent that must decide, or None when the step was a terminated or truncated
        agent's (stepped out here, as PettingZoo does); ``IllegalActionError`` naming the cause
        before reset and once every agent is done."""
        try:
            agent = self.agent_selection
            done = self.terminations[agent] or self.truncations[agent]
        except (AttributeError, KeyError):
            # Before reset there is no agent; after the last one stepped out, agent_selection
            # names an agent no longer in the dictionaries.
            raise IllegalActionError(self._no_agent_message(action)) from None
        if done:
            self._was_dead_step(action)
            return None
        return agent

    def _no_agent_message(self, action: object) -> str:
        """Why ``step(action)`` has no agent to step: before reset, or after every agent."""
        shown = show(action)
        if self.game is None:
            return f"step({shown}) before reset(): call reset() to start a game"
        return (f"step({shown}) after every agent is done (the game is over or truncated): "
                f"call reset() to start a new game")

    def _not_legal_message(self, action: int, agent: str, legal: list[int], name: callable
                           ) -> str:
        """The error for a masked-out ``action``: the agent and the first legal ids, named."""
        names = ", ".join(f"{i} ({name(i)})" for i in legal[:12])
        more = f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
        return f"action {action!r} is not legal for {agent} now; legal ids: {names}{more}"


def generator_state(rng: random.Random) -> list:
    """A ``random.Random``'s state as JSON can hold it (``generator_from`` reads it back)."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def generator_from(data: list) -> tuple:
    """The ``random.Random.setstate`` value of a ``generator_state`` list."""
    version, internal, gauss = data
    return (version, tuple(internal), gauss)
