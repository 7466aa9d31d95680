"""The grouped process vector env steps exactly as SB3's in-process one, masks included."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from byapar_env.players import RandomPlayer  # noqa: E402
from byapar_env.single_seat import SingleSeatEnv  # noqa: E402
from byapar_training.vec_env import GroupedSubprocVecEnv  # noqa: E402


def make(i: int):
    def thunk() -> SingleSeatEnv:
        return SingleSeatEnv(num_players=(2, 3), opponents=RandomPlayer(i),
                             tables=[{"rounds": 2}])
    return thunk


def steps_like_the_in_process_env(grouped, fns) -> None:
    """``grouped`` (built on ``fns`` in two groups) steps exactly as SB3's DummyVecEnv on the
    same environments: observations, masks, rewards, dones and final observations, then
    attributes and methods by index; a missing attribute raises in the caller."""
    ref = DummyVecEnv(fns)
    try:
        assert grouped.num_envs == 5 and grouped.groups == [[0, 2, 4], [1, 3]]
        for venv in (ref, grouped):
            venv.seed(11)
        obs_a, obs_b = ref.reset(), grouped.reset()
        rng = np.random.default_rng(0)
        dones_seen = 0
        for _ in range(300):
            np.testing.assert_array_equal(obs_a, obs_b)
            masks_a = np.stack(ref.env_method("action_masks"))
            masks_b = np.stack(grouped.env_method("action_masks"))
            np.testing.assert_array_equal(masks_a, masks_b)
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks_a])
            obs_a, rew_a, done_a, info_a = ref.step(actions)
            obs_b, rew_b, done_b, info_b = grouped.step(actions)
            np.testing.assert_array_equal(rew_a, rew_b)
            np.testing.assert_array_equal(done_a, done_b)
            for a, b in zip(info_a, info_b, strict=True):
                if "terminal_observation" in a:
                    np.testing.assert_array_equal(a["terminal_observation"],
                                                  b["terminal_observation"])
            dones_seen += int(done_a.sum())
        assert dones_seen > 5  # games of two rounds: several ended and were reset
        assert grouped.get_attr("sizes", indices=[3]) == [[2, 3]]
        grouped.set_attr("sizes", [3], indices=[1, 2])
        assert grouped.get_attr("sizes") == [[2, 3], [3], [3], [2, 3], [2, 3]]
        masks = grouped.env_method("action_masks", indices=[1, 4])
        np.testing.assert_array_equal(np.stack(masks),
                                      np.stack(ref.env_method("action_masks", indices=[1, 4])))
        with pytest.raises(AttributeError):
            grouped.get_attr("no_such_attribute")
    finally:
        ref.close()


def test_grouped_env_matches_the_in_process_env_step_for_step() -> None:
    fns = [make(i) for i in range(5)]
    grouped = GroupedSubprocVecEnv(fns, workers=2)
    try:
        steps_like_the_in_process_env(grouped, fns)
    finally:
        grouped.close()


def test_grouped_env_refuses_more_workers_than_envs() -> None:
    with pytest.raises(ValueError, match="workers must be from 1 to the number of environments"):
        GroupedSubprocVecEnv([make(0)], workers=2)
