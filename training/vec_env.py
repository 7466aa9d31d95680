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
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import (
    CloudpickleWrapper,
    VecEnv,
    VecEnvIndices,
)


class _RemoteError:
    """An exception raised in a worker by a call the main process made."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc


def _worker(remote, parent_remote, fns_wrapper: CloudpickleWrapper) -> None:
    parent_remote.close()
    envs = [fn() for fn in fns_wrapper.var]

    def masks() -> np.ndarray:
        return np.stack([e.action_masks() for e in envs])

    try:
        while True:
            cmd, data = remote.recv()
            if cmd == "step":
                obs, rews, dones, infos, reset_infos = [], [], [], [], []
                for env, action in zip(envs, data, strict=True):
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
                remote.send((np.stack(obs), rews, dones, infos, reset_infos, masks()))
            elif cmd == "reset":
                seeds, options = data
                out = [env.reset(seed=s, **({"options": o} if o else {}))
                       for env, s, o in zip(envs, seeds, options, strict=True)]
                remote.send((np.stack([o for o, _ in out]), [i for _, i in out], masks()))
            elif cmd == "env_method":
                name, args, kwargs, local = data
                try:
                    remote.send([getattr(envs[i], name)(*args, **kwargs) for i in local])
                except Exception as exc:  # noqa: BLE001 - handed to the caller to raise
                    remote.send(_RemoteError(exc))
            elif cmd == "get_attr":
                name, local = data
                try:
                    remote.send([getattr(envs[i], name) for i in local])
                except AttributeError as exc:
                    remote.send(_RemoteError(exc))
            elif cmd == "set_attr":
                name, value, local = data
                for i in local:
                    setattr(envs[i], name, value)
                remote.send(None)
            elif cmd == "get_spaces":
                remote.send((envs[0].observation_space, envs[0].action_space))
            elif cmd == "close":
                for env in envs:
                    env.close()
                remote.close()
                break
    except (EOFError, KeyboardInterrupt):
        pass


class GroupedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` environments in ``workers`` processes (see the module docstring)."""

    def __init__(self, env_fns: list[Callable[[], gym.Env]], workers: int) -> None:
        if not 1 <= workers <= len(env_fns):
            raise ValueError(f"workers must be from 1 to the number of environments "
                             f"({len(env_fns)}), got {workers}")
        self.groups = [list(range(w, len(env_fns), workers)) for w in range(workers)]
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
        self.remotes[0].send(("get_spaces", None))
        observation_space, action_space = self.remotes[0].recv()
        super().__init__(len(env_fns), observation_space, action_space)
        self._masks: np.ndarray | None = None
        self._actions: np.ndarray | None = None
        self.waiting = False
        self.closed = False

    # ------------------------------------------------------------------ stepping
    def _scatter(self, values: Sequence[Any]) -> np.ndarray:
        """Per-group results back into environment order."""
        out = [None] * self.num_envs
        for group, part in zip(self.groups, values, strict=True):
            for i, v in zip(group, part, strict=True):
                out[i] = v
        return out

    def step_async(self, actions: np.ndarray) -> None:
        for group, remote in zip(self.groups, self.remotes, strict=True):
            remote.send(("step", [actions[i] for i in group]))
        self.waiting = True

    def step_wait(self):
        results = [remote.recv() for remote in self.remotes]
        self.waiting = False
        obs = self._scatter([r[0] for r in results])
        rews = self._scatter([r[1] for r in results])
        dones = self._scatter([r[2] for r in results])
        infos = self._scatter([r[3] for r in results])
        self.reset_infos = self._scatter([r[4] for r in results])
        self._masks = np.stack(self._scatter([r[5] for r in results]))
        return (np.stack(obs), np.array(rews, dtype=np.float32), np.array(dones, dtype=bool),
                infos)

    def reset(self):
        for group, remote in zip(self.groups, self.remotes, strict=True):
            remote.send(("reset", ([self._seeds[i] for i in group],
                                   [self._options[i] for i in group])))
        results = [remote.recv() for remote in self.remotes]
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

    def _gather(self, cmd: str, make, indices: VecEnvIndices) -> list[Any]:
        parts = self._by_group(indices)
        for g, local, _ in parts:
            self.remotes[g].send((cmd, make(local)))
        values: dict[int, Any] = {}
        errors = []
        for g, _, env_ids in parts:
            got = self.remotes[g].recv()
            if isinstance(got, _RemoteError):
                errors.append(got.exc)
                continue
            for i, v in zip(env_ids, got, strict=True):
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
        if self.waiting:
            for remote in self.remotes:
                remote.recv()
        for remote in self.remotes:
            remote.send(("close", None))
        for p in self.processes:
            p.join()
        for remote in self.remotes:
            remote.close()
        self.closed = True
