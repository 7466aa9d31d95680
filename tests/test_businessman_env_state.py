"""Businessman's environment saves and loads its whole state as Byapar's does
(``save_state``/``load_state``): the same game goes on, and a bad state changes nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

from byapar_env import businessman_v0


def played(seed: int, steps: int) -> businessman_v0.raw_env:
    env = businessman_v0.raw_env(num_players=3, rounds=6)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        agent = env.agent_selection
        if not env.agents:
            break
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(agent)))))
    return env


def finish(env: businessman_v0.raw_env, seed: int) -> list:
    rng = np.random.default_rng(seed)
    trail = []
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(env.action_mask(agent))))
        trail.append((agent, action, env.observe(agent)["observation"].tobytes()))
        env.step(action)
    return trail + [env.game.to_json(), dict(env._cumulative_rewards)]


@pytest.mark.parametrize("steps", [0, 37, 250])
def test_a_loaded_state_plays_on_as_the_saved_one(steps) -> None:
    env = played(4, steps)
    twin = businessman_v0.raw_env(num_players=3, rounds=6)
    twin.load_state(env.save_state())
    assert twin.save_state() == env.save_state()
    assert finish(twin, 9) == finish(env, 9)


def test_a_bad_state_is_refused_and_changes_nothing() -> None:
    env = played(5, 40)
    before = env.save_state()
    other = businessman_v0.raw_env(num_players=3, rounds=7)
    with pytest.raises(ValueError, match="saved with options"):
        other.load_state(before)
    data = json.loads(before)
    data["caps"] = "x"
    with pytest.raises(ValueError, match="corrupt"):
        env.load_state(json.dumps(data))
    with pytest.raises(ValueError, match="not a saved"):
        env.load_state(json.dumps({"format": "byapar-env-state"}))
    assert env.save_state() == before
    with pytest.raises(RuntimeError, match=r"save_state\(\) before reset\(\)"):
        businessman_v0.raw_env().save_state()
