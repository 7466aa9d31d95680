"""Many environments per worker process, for SB3: one message a step for each process, not for
each environment.

SB3's ``SubprocVecEnv`` runs one environment per process and asks each process twice a step (the
step, then ``action_masks`` for MaskablePPO). With two cores that means two environments, and the
learner's network is called on a batch of two: the per-call cost of the network and of the pipes
then dominates a training step. ``GroupedSubprocVecEnv`` runs ``len(env_fns)`` environments in
``workers`` processes (each steps its group one after another), returns every group's masks with
its step, and answers MaskablePPO's ``action_masks`` call from them, so that the learner sees a
batch of all environments at once and each process costs one round trip a step.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    CloudpickleWrapper,
    VecEnv,
    VecEnvIndices,
)


class RemoteError:
    """An exception raised in a worker by a call the learner made, handed back to be raised
    again in the learner as itself."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc


class EnvGroup:
    """One worker's environments: stepped one after another, masks sent with every step and
    reset. A worker process (below) or a Ray actor (byapar_training/vec_env_ray.py) holds one."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]], cwd: str | None = None) -> None:
        # A relative --run-dir (the opponent pool's snapshots) is read from the learner's
        # working folder: a Ray actor moves there when that folder exists where it runs.
        if cwd is not None and os.path.isdir(cwd):
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
            if done:  # SB3's convention: the last observation in the info, then a new game
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
            return RemoteError(exc)

    def get_attr(self, name: str, local: list[int]) -> Any:
        try:
            return [getattr(self.envs[i], name) for i in local]
        except AttributeError as exc:
            return RemoteError(exc)

    def set_attr(self, name: str, value: Any, local: list[int]) -> None:
        for i in local:
            setattr(self.envs[i], name, value)

    def close(self) -> None:
        for env in self.envs:
            env.close()


def _worker(remote, parent_remote, fns_wrapper: CloudpickleWrapper) -> None:
    parent_remote.close()
    group = EnvGroup(fns_wrapper.var)
    try:
        while True:
            cmd, args = remote.recv()
            remote.send(getattr(group, cmd)(*args))
            if cmd == "close":
                remote.close()
                break
    except (EOFError, KeyboardInterrupt):
        pass


class GroupedVecEnv(VecEnv):
    """What the process and Ray layouts share: environments in groups, one call per group for
    each step, results put back in environment order. Subclasses carry the calls
    (``_call``: one method of ``EnvGroup`` on some groups, with each group's arguments)."""

    def __init__(self, num_envs: int, workers: int, observation_space, action_space) -> None:
        super().__init__(num_envs, observation_space, action_space)
        self._masks: np.ndarray | None = None

    @staticmethod
    def make_groups(num_envs: int, workers: int) -> list[list[int]]:
        if not 1 <= workers <= num_envs:
            raise ValueError(f"workers must be from 1 to the number of environments "
                             f"({num_envs}), got {workers}")
        return [list(range(w, num_envs, workers)) for w in range(workers)]

    def _call(self, method: str, calls: list[tuple[int, tuple]]) -> list[Any]:
        raise NotImplementedError

    def _scatter(self, values: Sequence[Any]) -> list[Any]:
        """Per-group results back into environment order."""
        out: list[Any] = [None] * self.num_envs
        for group, part in zip(self.groups, values, strict=True):
            for i, v in zip(group, part, strict=True):
                out[i] = v
        return out

    def _finish_step(self, results: list[tuple]):
        obs = self._scatter([r[0] for r in results])
        rews = self._scatter([r[1] for r in results])
        dones = self._scatter([r[2] for r in results])
        infos = self._scatter([r[3] for r in results])
        self.reset_infos = self._scatter([r[4] for r in results])
        self._masks = np.stack(self._scatter([r[5] for r in results]))
        return (np.stack(obs), np.array(rews, dtype=np.float32), np.array(dones, dtype=bool),
                infos)

    def reset(self):
        results = self._call("reset", [
            (g, ([self._seeds[i] for i in group], [self._options[i] for i in group]))
            for g, group in enumerate(self.groups)])
        obs = self._scatter([r[0] for r in results])
        self.reset_infos = self._scatter([r[1] for r in results])
        self._masks = np.stack(self._scatter([r[2] for r in results]))
        self._reset_seeds()
        self._reset_options()
        return np.stack(obs)

    def _by_group(self, indices: VecEnvIndices) -> list[tuple[int, list[int], list[int]]]:
        """(group number, local positions, environment indices) for the wanted indices."""
        wanted = set(self._get_indices(indices))
        out = []
        for g, group in enumerate(self.groups):
            local = [k for k, i in enumerate(group) if i in wanted]
            if local:
                out.append((g, local, [group[k] for k in local]))
        return out

    def _gather(self, method: str, make, indices: VecEnvIndices) -> list[Any]:
        parts = self._by_group(indices)
        got = self._call(method, [(g, make(local)) for g, local, _ in parts])
        values: dict[int, Any] = {}
        errors = []
        for (_, _, env_ids), part in zip(parts, got, strict=True):
            if isinstance(part, RemoteError):
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


class GroupedSubprocVecEnv(GroupedVecEnv):
    """``len(env_fns)`` environments in ``workers`` processes (see the module docstring)."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]], workers: int) -> None:
        self.groups = self.make_groups(len(env_fns), workers)
        ctx = mp.get_context("forkserver" if "forkserver" in mp.get_all_start_methods()
                             else "spawn")
        self.remotes, work_remotes = zip(*[ctx.Pipe() for _ in range(workers)], strict=True)
        self.processes = []
        for group, work, remote in zip(self.groups, work_remotes, self.remotes, strict=True):
            fns = CloudpickleWrapper([env_fns[i] for i in group])
            p = ctx.Process(target=_worker, args=(work, remote, fns), daemon=True)
            p.start()
            self.processes.append(p)
            work.close()
        self.remotes[0].send(("spaces", ()))
        observation_space, action_space = self.remotes[0].recv()
        super().__init__(len(env_fns), workers, observation_space, action_space)
        self.waiting = False
        self.closed = False

    def _call(self, method: str, calls: list[tuple[int, tuple]]) -> list[Any]:
        for g, args in calls:
            self.remotes[g].send((method, args))
        return [self.remotes[g].recv() for g, _ in calls]

    def step_async(self, actions: np.ndarray) -> None:
        for group, remote in zip(self.groups, self.remotes, strict=True):
            remote.send(("step", ([actions[i] for i in group],)))
        self.waiting = True

    def step_wait(self):
        results = [remote.recv() for remote in self.remotes]
        self.waiting = False
        return self._finish_step(results)

    def close(self) -> None:
        if self.closed:
            return
        if self.waiting:
            for remote in self.remotes:
                remote.recv()
        for remote in self.remotes:
            remote.send(("close", ()))
            remote.recv()
        for p in self.processes:
            p.join()
        for remote in self.remotes:
            remote.close()
        self.closed = True
