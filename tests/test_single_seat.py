"""The single-seat gymnasium view: checkers, rewards on opponents' moves, illegal actions, SB3."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env

from byapar_env.players import PolicyPlayer, RandomPlayer
from byapar_env.single_seat import SingleSeatEnv


@pytest.mark.parametrize("players", [2, 4, 6, (2, 3, 4, 5, 6)])
def test_gymnasium_checker_passes(players) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gymnasium_check_env(SingleSeatEnv(num_players=players), skip_render_check=True)


def test_sb3_checker_passes() -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sb3_checker.check_env(SingleSeatEnv(num_players=4))


def play_episode(env: SingleSeatEnv, seed: int):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    rng = np.random.default_rng(seed)
    while True:
        mask = env.action_masks()
        assert mask.any()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, env, steps


def test_learner_gets_its_final_outcome_whoever_ends_the_game() -> None:
    outcomes = set()
    for seed in range(12):
        total, env, _ = play_episode(SingleSeatEnv(num_players=3, rounds=None), seed)
        game = env.env.game
        if env.seat in game.winners:
            assert total == pytest.approx(1.0 if len(game.winners) == 1 else 0.25)
        else:
            assert total == pytest.approx(-0.5)
            assert game.bankrupt[env.seat] or game.is_over
        outcomes.add(round(total, 3))
    assert {1.0, -0.5} <= outcomes  # both wins and losses happened


def test_same_seed_same_episode() -> None:
    a = [play_episode(SingleSeatEnv(num_players=4), 5)[0] for _ in range(2)]
    b1 = play_episode(SingleSeatEnv(num_players=4), 5)[1].env.game.to_json()
    b2 = play_episode(SingleSeatEnv(num_players=4), 5)[1].env.game.to_json()
    assert a[0] == a[1] and b1 == b2


def test_illegal_action_is_replaced_and_reported() -> None:
    env = SingleSeatEnv(num_players=2, illegal_penalty=-0.1, seat=0)
    env.reset(seed=3)
    mask = env.action_masks()
    bad = int(np.flatnonzero(~mask)[0])
    before = env.env.decisions
    _, reward, terminated, truncated, info = env.step(bad)
    assert info["illegal_action"] is True
    assert reward == pytest.approx(-0.1)  # the penalty; the game goes on with zero reward
    assert not terminated and not truncated
    assert env.env.decisions > before  # a legal action was played in its place
    _, reward, *_, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert info["illegal_action"] is False


def test_fixed_seat_and_opponent_list() -> None:
    seen = []

    def first_legal(obs, mask):
        seen.append(1)
        return int(np.flatnonzero(mask)[0])

    env = SingleSeatEnv(num_players=3, seat=2,
                        opponents=[PolicyPlayer(first_legal), RandomPlayer(1)])
    env.reset(seed=0)
    assert env.seat == 2 and env.env.agent_selection == "player_2"
    assert seen  # the policy player at seat 0 played before the learner's first decision


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat must be None"):
        SingleSeatEnv(num_players=3, seat=3)
    with pytest.raises(ValueError, match="num_players"):
        SingleSeatEnv(num_players=[])


@pytest.mark.parametrize("vec", ["dummy", "subproc"])
def test_maskable_ppo_trains_in_vectorised_envs(vec: str) -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    cls = DummyVecEnv if vec == "dummy" else SubprocVecEnv
    venv = cls([lambda: SingleSeatEnv(num_players=(2, 4)) for _ in range(2)])
    model = sb3_contrib.MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1,
                                    seed=0, verbose=0)
    model.learn(total_timesteps=128)
    obs = venv.reset()
    masks = np.array(venv.env_method("action_masks"))
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert all(masks[i, a] for i, a in enumerate(actions))
    venv.close()


def test_stepping_after_the_episode_is_refused() -> None:
    env = SingleSeatEnv(num_players=2, rounds=1)
    play_episode(env, 0)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_readme_example_in_docs_single_seat_runs() -> None:
    """docs/single_seat.md is the README's gymnasium section: its code must run as written."""
    import pathlib
    import re
    import subprocess
    import sys

    pytest.importorskip("sb3_contrib")
    root = pathlib.Path(__file__).resolve().parent.parent
    blocks = re.findall(r"```python\n(.*?)```", (root / "docs" / "single_seat.md").read_text(),
                        re.S)
    assert len(blocks) == 1
    # A fresh interpreter, as a reader has: nothing registered or imported beforehand. The
    # timeout is generous (the example trains in about 10 s on 2 idle cores) for busy machines.
    out = subprocess.run([sys.executable, "-c", blocks[0]], cwd=root, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert re.fullmatch(r"seat [0-3] of 4: outcome [+-]\d\.\d{3}\n", out.stdout), out.stdout
