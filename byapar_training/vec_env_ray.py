"""Many environments per Ray actor, for SB3: ``GroupedSubprocVecEnv`` (byapar_training/vec_env.py)
with
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
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from byapar_harness.arena_ray import connect, import_ray

from .vec_env import EnvGroup, GroupedVecEnv


class RayGroupedVecEnv(GroupedVecEnv):
    """``len(env_fns)`` environments in ``workers`` Ray actors (see the module docstring).

    ``address``: the Ray cluster to join (``auto``: the one ``ray start --head`` started on this
    machine); without it a local Ray instance of ``workers`` CPUs is started. A Ray the caller
    initialised already is used as it is. ``close`` disconnects from a Ray this object started.
    """

    def __init__(self, env_fns: list[Callable[[], gym.Env]], workers: int,
                 address: str | None = None) -> None:
        self.groups = self.make_groups(len(env_fns), workers)
        ray = import_ray()
        self._ray = ray
        self._started = connect(address, workers)
        # One CPU each, so that a cluster spreads the actors over its machines' cores (an actor
        # asks for no CPU by default, and any number of them would share one machine).
        actor = ray.remote(num_cpus=1)(EnvGroup)
        cwd = os.getcwd()
        # Ray pickles the arguments with cloudpickle, closures (make_env's thunks) included.
        self.actors = [actor.remote([env_fns[i] for i in group], cwd) for group in self.groups]
        observation_space, action_space = ray.get(self.actors[0].spaces.remote())
        super().__init__(len(env_fns), workers, observation_space, action_space)
        self._pending: list | None = None
        self.closed = False

    # ------------------------------------------------------------------ stepping
    @property
    def waiting(self) -> bool:
        return self._pending is not None

    def step_async(self, actions: np.ndarray) -> None:
        self._pending = [a.step.remote([actions[i] for i in group])
                         for group, a in zip(self.groups, self.actors, strict=True)]

    def step_wait(self):
        results = self._ray.get(self._pending)
        self._pending = None
        return self._finish_step(results)

    def _call(self, method: str, calls: list[tuple[int, tuple]]) -> list[Any]:
        return self._ray.get([getattr(self.actors[g], method).remote(*args)
                              for g, args in calls])

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
