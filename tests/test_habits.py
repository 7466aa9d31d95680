"""The seats' habits (observation version 2): exact counts from a forced game, their place in the
observation, saving, and the widening of version 1 checkpoints."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scenario import give, new_game, sq

from byapar_agents.network import NumpyPolicy, expected_meta, load_checkpoint
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import IllegalActionError, actions
from byapar_env.habits import FEATURES, Habits, HabitsError
from byapar_env.observation import OBSERVATION_SIZE, SLICES
from byapar_training.widen import WidenError, widen


def played() -> raw_env:
    """Three seats, round 1, every kind of habit shown once or more (dice forced)."""
    game = new_game(players=3)
    give(game, 0, "Lalitpur", "Kathmandu")
    env = raw_env(num_players=3)
    env.reset(seed=0)
    env.show_game(game)
    take = env.take_engine
    take(actions.build(sq("Lalitpur")))  # seat 0 builds a house
    game.force_dice((1, 2))
    take(actions.ROLL)  # seat 0 lands on Surkhet (600)
    take(actions.buy(sq("Surkhet")))
    # Seat 1: two offers for Surkhet, refused then accepted; then a place it declines.
    offer = actions.offer_trade(target=0, give=(), take=(sq("Surkhet"),), amount=700)
    take(offer)
    take(actions.REJECT_TRADE)
    take(offer)
    take(actions.ACCEPT_TRADE)
    game.force_dice((3, 4))
    take(actions.ROLL)  # seat 1 lands on Dhangadhi (1,000)
    take(actions.decline(sq("Dhangadhi")))
    # The auction: seat 2, seat 0, seat 1 in turn.
    d = sq("Dhangadhi")
    take(actions.bid(d, 500))  # seat 2
    take(actions.DROP_OUT)  # seat 0
    take(actions.bid(d, 600))  # seat 1
    take(actions.bid(d, 1_200))  # seat 2 raises: its last bid replaces the first
    take(actions.DROP_OUT)  # seat 1: seat 2 wins at 1,200
    assert game.owner[d] == 2 and game.owner[sq("Surkhet")] == 1 and game.round == 1
    return env


def test_each_seat_s_habits_are_counted_exactly() -> None:
    env = played()
    h = env.habits
    assert FEATURES == ("offers_per_round", "offers_accepted", "answers_accepted",
                        "bid_to_price", "buys", "builds_per_round")
    assert h.features(0, 1) == (0.0, 0.0, pytest.approx(1 / 3), 0.0, 0.5, 0.2)
    assert h.features(1, 1) == (pytest.approx(2 / 3), pytest.approx(1 / 3), 0.0, 0.3, 0.0, 0.0)
    assert h.features(2, 1) == (0.0, 0.0, 0.0, 0.6, 0.0, 0.0)
    # Later in the game the per-round figures fall: round 4.
    assert h.features(1, 4)[0] == pytest.approx(2 / 12)


def test_the_observation_shows_habits_relative_to_the_observer() -> None:
    env = played()
    block = SLICES["habits"]
    obs = env.observe("player_1")["observation"][block].reshape(6, 6)
    # Slot 0 is the observer (seat 1), slot 1 seat 2, slot 2 seat 0; empty slots are zeros.
    np.testing.assert_allclose(obs[0], env.habits.features(1, 1), rtol=1e-6)
    np.testing.assert_allclose(obs[1], env.habits.features(2, 1), rtol=1e-6)
    np.testing.assert_allclose(obs[2], env.habits.features(0, 1), rtol=1e-6)
    assert not obs[3:].any()
    assert OBSERVATION_SIZE == 641 + 36 and block == slice(641, 677)


def test_saved_state_carries_the_habits_and_bad_ones_are_refused() -> None:
    env = played()
    copy = env.clone()
    assert copy.habits.to_list() == env.habits.to_list()
    for agent in env.possible_agents:
        assert np.array_equal(copy.observe(agent)["observation"],
                              env.observe(agent)["observation"])
    state = json.loads(env.save_state())
    state["habits"] = [[1] * 11] * 2  # two rows at a table of three
    fresh = raw_env(num_players=3)
    fresh.reset(seed=1)
    before = fresh.save_state()
    with pytest.raises(ValueError, match="habits must be 3 rows of 11 numbers"):
        fresh.load_state(json.dumps(state))
    assert fresh.save_state() == before
    with pytest.raises(HabitsError, match="offers_made must be a number"):
        Habits.from_list([[-1] + [0] * 10] * 2, 2)


def test_show_game_starts_from_given_habits_or_zero() -> None:
    env = played()
    other = raw_env(num_players=3)
    other.reset(seed=2)
    other.show_game(env.game)
    assert not other.observe("player_0")["observation"][SLICES["habits"]].any()
    other.show_game(env.game, habits=env.habits)
    assert other.habits.to_list() == env.habits.to_list() and other.habits is not env.habits
    with pytest.raises(ValueError, match="habits are of 2 seats"):
        other.show_game(env.game, habits=Habits(2))


def _v1_checkpoint(folder, rng) -> NumpyPolicy:
    policy = NumpyPolicy([(rng.standard_normal((641, 8)), rng.standard_normal(8)),
                          (rng.standard_normal((8, 181)), rng.standard_normal(181))])
    policy.save(folder, {"name": "old"})
    meta = json.loads((folder / "meta.json").read_text())
    meta.update(observation_version=1, observation_size=641)
    (folder / "meta.json").write_text(json.dumps(meta))
    return policy


def test_a_widened_version_1_checkpoint_plays_exactly_as_before(tmp_path) -> None:
    rng = np.random.default_rng(0)
    old = _v1_checkpoint(tmp_path / "old", rng)
    widen([tmp_path / "old"])
    new, meta = load_checkpoint(tmp_path / "old")
    assert meta["observation_version"] == expected_meta()["observation_version"] == 2
    assert meta["layers"][0] == [OBSERVATION_SIZE, 8]
    obs = rng.standard_normal((32, OBSERVATION_SIZE)).astype(np.float32)
    np.testing.assert_allclose(new.logits(obs), old.logits(obs[:, :641]), rtol=1e-4, atol=1e-4)
    with pytest.raises(WidenError, match="only observation version 1"):
        widen([tmp_path / "old"])  # already widened


def test_shipped_checkpoints_are_version_2() -> None:
    from byapar_checkpoints import shipped

    for name in ("hard", "value"):
        meta = json.loads((shipped(name) / "meta.json").read_text())
        assert meta["observation_version"] == 2 and meta["observation_size"] == OBSERVATION_SIZE


def test_a_refused_action_counts_nothing() -> None:
    env = played()
    before = env.habits.to_list()
    with pytest.raises(IllegalActionError):
        env.take_engine(actions.build(sq("Pokhara")))  # nobody's city to build on
    assert env.habits.to_list() == before
