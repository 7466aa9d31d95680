"""The environments' edges as PettingZoo users meet them, for both games: ``observe()`` before
``reset()`` says so, and ``last()`` once the game is over gives the last seat's final view."""

from __future__ import annotations

import numpy as np
import pytest

from byapar_env import businessman_v0, byapar_v0


@pytest.mark.parametrize("face", [byapar_v0, businessman_v0])
def test_observe_before_reset_says_what_to_do(face) -> None:
    with pytest.raises(RuntimeError, match=r"observe\(\) before reset\(\): call reset\(\) first"):
        face.raw_env(num_players=2).observe("player_0")


@pytest.mark.parametrize("face, size", [(byapar_v0, 677), (businessman_v0, 1080)])
def test_last_after_the_end_is_the_last_seats_final_view(face, size) -> None:
    env = face.env(num_players=2, rounds=2)
    env.reset(seed=3)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(env.unwrapped.action_mask(agent))[0]))
    observation, reward, terminated, truncated, info = env.last()
    seat = env.unwrapped.agent_name_mapping[env.agent_selection]
    assert observation["observation"].shape == (size,) and not observation["action_mask"].any()
    assert np.array_equal(observation["observation"],
                          env.unwrapped.observe(f"player_{seat}")["observation"])
    assert (reward, terminated, truncated, info) == (0.0, True, False, {})
    assert env.unwrapped.game.is_over
