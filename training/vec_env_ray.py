"""Many environments per Ray actor, for SB3: ``GroupedSubprocVecEnv`` (training/vec_env.py) with
Ray actors in place of worker processes, on a local Ray instance or on a cluster.

``RayGroupedVecEnv(env_fns, workers)`` starts ``workers`` actors; actor ``w`` builds and steps
the environments ``w, w + workers, w + 2 * workers, ...`` one after another, and returns their
masks with every step and reset, so that MaskablePPO's ``action_masks`` call costs no round
trip. Stepping, resets, seeds, ``env_method``/``get_attr``/``set_attr`` by index and ``close``
behave exactly as in ``GroupedSubprocVecEnv`` (tests/test_ray.py checks it step for step against
SB3's in-process ``DummyVecEnv``).

On a cluster, each actor holds one CPU of some machine, and every machine needs this project
installed (the same version) and the run folder at the same path (the opponents are snapshots
the learner writes there): docs/ray.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from byapar_agents.arena_ray import connect, import_ray
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices


class _RemoteError:
    """An exception raised in an actor by a call the learner made, raised again in the
    learner as itself (Ray would wrap it in a RayTaskError)."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc


class _EnvGroup:
    """One actor's environments (becomes a Ray actor class in ``RayGroupedVecEnv``)."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]], cwd: str) -> None:
        # A worker process of GroupedSubprocVecEnv shares the learner's working folder, where a
        # relative --run-dir (the opponent pool's snapshots) lives; an actor does the same
        # wherever that folder exists (this machine, or a cluster's shared file system).
        if os.path.isdir(cwd):
            os.chdir(cwd)
        self.envs = [fn() for fn in env_fns]

    def _masks(self) -> np.ndarray:
        return np.stack([e.action_masks() for e in self.envs])

    def spaces(self) -> tuple[gym.Space, gym.Space]:
        return self.envs[0].observation_space, self.envs[0].action_space

    def step(self, actions: Sequence[Any]) -> tuple:
        obs, rews, dones, infos, reset_infos = [], [], [], [], []
        for env, action in zip(self.envs, actions, strict=True):
            o, r, term, trunc, info = env.step(action)
            done = term or trunc
            info["TimeLimit.truncated"] = trunc and not term
            reset_info: dict = {}
            if done:
                info["terminal_observation"] = o
                o, reset_info = env.reset()
            obs.append(o)
            rews.append(r)
            dones.append(done)
            infos.append(info)
            reset_infos.append(reset_info)
        return np.stack(obs), rews, dones, infos, reset_infos, self._masks()

    def reset(self, seeds: Sequence[int | None], options: Sequence[dict]) -> tuple:
        out = [env.reset(seed=s, **({"options": o} if o else {}))
               for env, s, o in zip(self.envs, seeds, options, strict=True)]
        return np.stack([o for o, _ in out]), [i for _, i in out], self._masks()

    def env_method(self, name: str, args: tuple, kwargs: dict, local: list[int]) -> Any:
        try:
            return [getattr(self.envs[i], name)(*args, **kwargs) for i in local]
        except Exception as exc:  # noqa: BLE001 - handed to the caller to raise
            return _RemoteError(exc)

    def get_attr(self, name: str, local: list[int]) -> Any:
        try:
            return [getattr(self.envs[i], name) for i in local]
        except AttributeError as exc:
            return _RemoteError(exc)

    def set_attr(self, name: str, value: Any, local: list[int]) -> None:
        for i in local:
            setattr(self.envs[i], name, value)

    def close(self) -> None:
        for env in self.envs:
            env.close()


class RayGroupedVecEnv(VecEnv):
    """``len(env_fns)`` environments in ``workers`` Ray actors (see the module docstring).

    ``address``: the Ray cluster to join (``auto``: the one ``ray start --head`` started on this
    machine); without it a local Ray instance of ``workers`` CPUs is started. A Ray the caller
    initialised already is used as it is. ``close`` disconnects from a Ray this object started.
    """

    def __init__(self, env_fns: list[Callable[[], gym.Env]], workers: int,
                 address: str | None = None) -> None:
        if not 1 <= workers <= len(env_fns):
            raise ValueError(f"workers must be from 1 to the number of environments "
                             f"({len(env_fns)}), got {workers}")
        ray = import_ray()
        self._ray = ray
        self.groups = [list(range(w, len(env_fns), workers)) for w in range(workers)]
        self._started = connect(address, workers)
        # One CPU each, so that a cluster spreads the actors over its machines' cores (an actor
        # asks for no CPU by default, and any number of them would share one machine).
        actor = ray.remote(num_cpus=1)(_EnvGroup)
        cwd = os.getcwd()
        # Ray pickles the arguments with cloudpickle, closures (make_env's thunks) included.
        self.actors = [actor.remote([env_fns[i] for i in group], cwd) for group in self.groups]
        observation_space, action_space = ray.get(self.actors[0].spaces.remote())
        super().__init__(len(env_fns), observation_space, action_space)
        self._masks: np.ndarray | None = None
        self._pending: list | None = None
        self.closed = False

    # ------------------------------------------------------------------ stepping
    @property
    def waiting(self) -> bool:
        return self._pending is not None

    def _scatter(self, values: Sequence[Any]) -> list[Any]:
        """Per-group results back into environment order."""
        out: list[Any] = [None] * self.num_envs
        for group, part in zip(self.groups, values, strict=True):
            for i, v in zip(group, part, strict=True):
                out[i] = v
        return out

    def step_async(self, actions: np.ndarray) -> None:
        self._pending = [a.step.remote([actions[i] for i in group])
                         for group, a in zip(self.groups, self.actors, strict=True)]

    def step_wait(self):
        results = self._ray.get(self._pending)
        self._pending = None
        obs = self._scatter([r[0] for r in results])
        rews = self._scatter([r[1] for r in results])
        dones = self._scatter([r[2] for r in results])
        infos = self._scatter([r[3] for r in results])
        self.reset_infos = self._scatter([r[4] for r in results])
        self._masks = np.stack(self._scatter([r[5] for r in results]))
        return (np.stack(obs), np.array(rews, dtype=np.float32), np.array(dones, dtype=bool),
                infos)

    def reset(self):
        results = self._ray.get([
            a.reset.remote([self._seeds[i] for i in group], [self._options[i] for i in group])
            for group, a in zip(self.groups, self.actors, strict=True)])
        obs = self._scatter([r[0] for r in results])
        self.reset_infos = self._scatter([r[1] for r in results])
        self._masks = np.stack(self._scatter([r[2] for r in results]))
        self._reset_seeds()
        self._reset_options()
        return np.stack(obs)

    # ------------------------------------------------------------------ the rest of VecEnv
    def _by_group(self, indices: VecEnvIndices) -> list[tuple[int, list[int], list[int]]]:
        """(group number, local positions, environment indices) for the wanted indices."""
        wanted = set(self._get_indices(indices))
        out = []
        for g, group in enumerate(self.groups):
            local = [k for k, i in enumerate(group) if i in wanted]
            if local:
                out.append((g, local, [group[k] for k in local]))
        return out

    def _gather(self, method: str, make: Callable[[list[int]], tuple],
                indices: VecEnvIndices) -> list[Any]:
        parts = self._by_group(indices)
        got = self._ray.get([getattr(self.actors[g], method).remote(*make(local))
                             for g, local, _ in parts])
        values: dict[int, Any] = {}
        errors = []
        for (_, _, env_ids), part in zip(parts, got, strict=True):
            if isinstance(part, _RemoteError):
                errors.append(part.exc)
                continue
            if part is None:  # set_attr answers nothing
                continue
            for i, v in zip(env_ids, part, strict=True):
                values[i] = v
        if errors:
            raise errors[0]
        return [values[i] for i in sorted(values)]

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None,
                   **method_kwargs) -> list[Any]:
        if method_name == "action_masks" and indices is None and self._masks is not None:
            return list(self._masks)  # sent with the last step or reset
        return self._gather("env_method",
                            lambda local: (method_name, method_args, method_kwargs, local),
                            indices)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._gather("get_attr", lambda local: (attr_name, local), indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        self._gather("set_attr", lambda local: (attr_name, value, local), indices)

    def has_attr(self, attr_name: str) -> bool:
        try:
            self.get_attr(attr_name, indices=[0])
        except AttributeError:
            return False
        return True

    def env_is_wrapped(self, wrapper_class, indices: VecEnvIndices = None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def get_images(self):
        return [None] * self.num_envs

    def close(self) -> None:
        if self.closed:
            return
        ray = self._ray
        if self._pending is not None:
            ray.get(self._pending)
            self._pending = None
        ray.get([a.close.remote() for a in self.actors])
        for a in self.actors:
            ray.kill(a)  # the actor's process ends now, not when Ray gets round to it
        if self._started:
            ray.shutdown()
        self.closed = True
