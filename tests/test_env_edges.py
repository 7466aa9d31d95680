"""Edges of the environments' input: action types, seeds, options, steps after the end, and the
gymnasium registration. Each bad value is refused with a typed error that names it and changes
nothing; each good one plays exactly as a plain ``int`` would."""

from __future__ import annotations

import math
import random
import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest

import byapar_env
from byapar_env import byapar_v0
from byapar_env.engine import IllegalActionError, RulesError, SeedError
from byapar_env.players import RandomPlayer
from byapar_env.single_seat import SingleSeatEnv


class Opaque:
    """An object that is no number; its repr is fixed so the test ids are the same in every
    process (pytest-xdist's workers must collect the same ids)."""

    def __repr__(self) -> str:
        return "Opaque()"


# Values that are not action ids, whatever the mask: each must raise, never be read as an id.
MALFORMED = [False, True, np.bool_(False), np.array(True), 5.0, np.float64(0), np.array(5.0),
             "0", b"0", None, [0], (0,), np.array([0]), np.array([[0]]), np.array([0, 1]), 181,
             -1, np.int64(181), np.array(-1), 10**30, Opaque()]


def first_legal(env: byapar_v0.raw_env) -> int:
    return int(np.flatnonzero(env.action_mask())[0])


def fresh(seed: int = 0, **kwargs) -> byapar_v0.raw_env:
    e = byapar_v0.raw_env(**kwargs)
    e.reset(seed=seed)
    return e


# ---------------------------------------------------------------------------- D7: action types
@pytest.mark.parametrize("wrap", [int, np.int64, np.int32, np.uint8, np.array,
                                  lambda i: np.array(i, dtype=np.uint16)])
def test_integer_ids_of_every_kind_play_as_the_plain_int(wrap) -> None:
    plain, other = fresh(3, num_players=3), fresh(3, num_players=3)
    rng = random.Random(3)
    for _ in range(60):
        if not plain.agents:
            break
        agent = plain.agent_selection
        if plain.terminations[agent] or plain.truncations[agent]:
            plain.step(None)
            other.step(None)
            continue
        action = rng.choice(np.flatnonzero(plain.action_mask()).tolist())
        plain.step(action)
        other.step(wrap(action))
    assert other.save_state() == plain.save_state()


@pytest.mark.parametrize("bad", MALFORMED, ids=repr)
def test_raw_env_refuses_malformed_actions_naming_the_range(bad) -> None:
    e = fresh(0, num_players=2, skip_trivial=False)
    assert first_legal(e) == 0  # rolling is legal: step(False) must not be read as a roll
    before = e.save_state()
    with pytest.raises(IllegalActionError, match="ids are whole numbers from 0 to 180"):
        e.step(bad)
    assert e.save_state() == before


def test_a_one_element_array_is_refused_with_a_hint() -> None:
    e = fresh(0, num_players=2)
    with pytest.raises(IllegalActionError, match=r"shape \(1,\).*action.item\(\)"):
        e.step(np.array([first_legal(e)]))
    assert byapar_v0.as_action_id(np.array(7)) == 7 and type(byapar_v0.as_action_id(
        np.array(7))) is int


@pytest.mark.parametrize("bad", [False, 5.0, "0", np.array([0]), None, 181], ids=repr)
def test_wrapped_env_refuses_malformed_actions_without_ending_the_game(bad) -> None:
    e = byapar_v0.env(num_players=2, skip_trivial=False)
    e.reset(seed=0)
    before = e.unwrapped.save_state()
    with pytest.raises(IllegalActionError, match="0 to 180"):
        e.step(bad)
    assert e.unwrapped.save_state() == before
    assert not any(e.terminations.values())


def test_wrapped_env_accepts_a_0d_array() -> None:
    e, plain = byapar_v0.env(num_players=2), byapar_v0.env(num_players=2)
    e.reset(seed=1)
    plain.reset(seed=1)
    action = int(np.flatnonzero(e.last()[0]["action_mask"])[0])
    e.step(np.array(action))
    plain.step(action)
    assert e.unwrapped.save_state() == plain.unwrapped.save_state()
    assert not any(e.terminations.values())  # not taken for an illegal move


def test_single_seat_plays_0d_arrays_as_given() -> None:
    """The defect: every 0-d array was replaced by a random legal action (50 of 50 steps)."""
    arrays, ints = SingleSeatEnv(num_players=3, seat=0), SingleSeatEnv(num_players=3, seat=0)
    arrays.reset(seed=4)
    ints.reset(seed=4)
    rng = random.Random(4)
    steps, done = 0, False
    while steps < 50 and not done:
        action = rng.choice(np.flatnonzero(ints.action_masks()).tolist())
        *_, terminated, truncated, info = arrays.step(np.array(action))
        ints.step(action)
        assert info["illegal_action"] is False
        steps, done = steps + 1, terminated or truncated
    assert steps == 50
    assert arrays.env.save_state() == ints.env.save_state()


@pytest.mark.parametrize("bad", MALFORMED, ids=repr)
def test_single_seat_raises_for_malformed_actions_instead_of_replacing_them(bad) -> None:
    env = SingleSeatEnv(num_players=2, seat=0)
    env.reset(seed=3)
    before, rng_before = env.env.save_state(), env.rng.getstate()
    with pytest.raises(IllegalActionError, match="0 to 180"):
        env.step(bad)
    assert env.env.save_state() == before and env.rng.getstate() == rng_before


def test_single_seat_still_replaces_a_masked_in_range_id() -> None:
    env = SingleSeatEnv(num_players=2, seat=0)
    env.reset(seed=3)
    masked = np.flatnonzero(~env.action_masks())
    for bad in (int(masked[0]), np.int64(masked[1]), np.array(masked[2])):
        *_, info = env.step(bad)
        assert info["illegal_action"] is True


def test_single_seat_step_before_reset_is_refused() -> None:
    with pytest.raises(RuntimeError, match="before reset"):
        SingleSeatEnv(num_players=2).step(0)


# ---------------------------------------------------------------------------- D11: seeds
@pytest.mark.parametrize("seed", [1.7, 1.0, np.float64(2), True, np.bool_(True), -1,
                                  np.int64(-3), "3", [3], math.nan])
def test_bad_seeds_are_refused_and_change_nothing(seed) -> None:
    e = fresh(5, num_players=3)
    e.step(first_legal(e))
    before, seeder = e.save_state(), e._seeder.getstate()
    with pytest.raises(SeedError, match="seed must be None or a whole number from 0 up"):
        e.reset(seed=seed)
    assert e.save_state() == before and e._seeder.getstate() == seeder
    view = SingleSeatEnv(num_players=3)
    with pytest.raises(SeedError, match="seed must be None"):
        view.reset(seed=seed)


def test_good_seeds_of_every_kind_give_the_same_game() -> None:
    states = set()
    for seed in (7, np.int64(7), np.uint32(7)):
        states.add(fresh(seed, num_players=2).save_state())
        view = SingleSeatEnv(num_players=2)
        view.reset(seed=seed)
        states.add(view.env.game.to_json())
    assert len(states) == 2  # one raw environment state, one single-seat game
    big = fresh(2**100, num_players=2)  # any size: random.Random takes it whole
    assert big.agents


# ---------------------------------------------------------------------------- D11: steps after
def finished(wrapped: bool):
    e = (byapar_v0.env if wrapped else byapar_v0.raw_env)(
        num_players=2, starting_cash=100, rounds=1, auctions=False)
    e.reset(seed=0)
    for _agent in e.agent_iter():
        e.step(None)
    assert not e.agents
    return e


@pytest.mark.parametrize("action", [None, 0])
def test_raw_env_step_after_the_end_is_a_clear_error(action) -> None:
    e = finished(wrapped=False)
    before = e.save_state()
    with pytest.raises(IllegalActionError, match=r"after every agent is done.*call reset\(\)"):
        e.step(action)
    assert e.save_state() == before
    e.reset(seed=1)  # and the environment is still usable
    assert e.agents


def test_raw_env_step_before_reset_is_a_clear_error() -> None:
    with pytest.raises(IllegalActionError, match=r"before reset\(\)"):
        byapar_v0.raw_env().step(0)


def test_wrapped_env_step_after_the_end_follows_pettingzoo(caplog) -> None:
    """PettingZoo's order-enforcing wrapper logs a warning and does nothing, as for its own
    games."""
    e = finished(wrapped=True)
    before = e.unwrapped.save_state()
    e.step(None)
    e.step(0)
    assert "after all agents are terminated or truncated" in caplog.text
    assert e.unwrapped.save_state() == before


# ---------------------------------------------------------------------------- options
BAD_OPTIONS = [
    ("dense_coef", math.nan), ("dense_coef", math.inf), ("dense_coef", -math.inf),
    ("dense_coef", -0.5), ("dense_coef", 101), ("dense_coef", True), ("dense_coef", "1"),
    ("dense_coef", None),
    ("max_decisions", 10**30), ("max_decisions", 10**9 + 1), ("max_decisions", 0),
    ("max_decisions", True), ("max_decisions", 20_000.0), ("max_decisions", np.int64(5)),
    ("max_pre_roll_actions", True), ("max_pre_roll_actions", 1_001),
    ("max_pre_roll_actions", 0), ("max_trade_steps", 2.0), ("max_trade_steps", 10**6),
    ("starting_cash", 10**40), ("starting_cash", 1_000_100), ("starting_cash", 15_000.0),
    ("starting_cash", True), ("starting_cash", -100),
    ("rounds", 10**6), ("rounds", 1_001), ("rounds", True), ("rounds", 40.0), ("rounds", 0),
    ("num_players", True), ("num_players", 4.0), ("num_players", 7),
    ("auctions", 1), ("auctions", "yes"), ("skip_trivial", "no"), ("skip_trivial", 1),
    ("skip_trivial", None), ("reward", None), ("reward", "money"), ("reward", ["outcome"]),
    ("render_mode", "video"), ("render_mode", 1),
]


@pytest.mark.parametrize(("name", "value"), BAD_OPTIONS, ids=lambda v: repr(v)[:20])
def test_bad_options_are_refused_naming_the_option(name: str, value) -> None:
    with pytest.raises(RulesError, match=name):
        byapar_v0.raw_env(**{name: value})
    with pytest.raises(RulesError, match=name):
        byapar_v0.env(**{name: value})
    if name not in ("num_players", "render_mode"):
        with pytest.raises(RulesError, match=name):
            SingleSeatEnv(num_players=2, **{name: value})
        with pytest.raises(RulesError, match=name):
            SingleSeatEnv(num_players=2, tables=[{}, {name: value}])


@pytest.mark.parametrize(("name", "value"), [
    ("dense_coef", 0), ("dense_coef", 100), ("dense_coef", np.float32(0.5)),
    ("max_decisions", 10**9), ("max_pre_roll_actions", 1_000), ("max_trade_steps", 1),
    ("starting_cash", 1_000_000), ("rounds", 1_000), ("rounds", None),
    ("skip_trivial", np.bool_(False)),
])
def test_options_at_their_bounds_are_accepted(name: str, value) -> None:
    e = fresh(0, num_players=2, reward="net_worth_share", **{name: value})
    e.step(first_legal(e))
    rewards = list(e.rewards.values())
    assert all(math.isfinite(r) for r in rewards)


@pytest.mark.parametrize(("kwargs", "match"), [
    (dict(num_players=4.0), "num_players"), (dict(num_players="24"), "num_players"),
    (dict(num_players=[]), "num_players"), (dict(num_players=[2, 7]), "num_players"),
    (dict(num_players=True), "num_players"), (dict(num_players=[2, True]), "num_players"),
    (dict(num_players=3, seat=True), "seat"), (dict(num_players=3, seat=3), "seat"),
    (dict(num_players=3, seat=1.0), "seat"),
    (dict(opponents=[]), "opponents"), (dict(opponents="random"), "opponents"),
    (dict(opponents=[object()]), "opponents"), (dict(opponents=5), "opponents"),
    (dict(illegal_penalty=math.nan), "illegal_penalty"),
    (dict(illegal_penalty=math.inf), "illegal_penalty"),
    (dict(illegal_penalty=0.5), "illegal_penalty"),
    (dict(illegal_penalty="-0.1"), "illegal_penalty"),
    (dict(illegal_penalty=False), "illegal_penalty"),
    (dict(tables="rounds"), "tables"), (dict(tables={"rounds": 20}), "tables"),
    (dict(tables=[5]), "tables"), (dict(tables=[{"round": 20}]), "unknown table options"),
    (dict(tables=[{"num_players": 3}]), "unknown table options"),
    (dict(colour="red"), "unknown table options"),
])
def test_single_seat_bad_arguments_are_refused(kwargs: dict, match: str) -> None:
    with pytest.raises(RulesError, match=match):
        SingleSeatEnv(**kwargs)


def test_single_seat_good_arguments_still_work() -> None:
    env = SingleSeatEnv(num_players=(2, 3), seat=1, opponents=[RandomPlayer(1)],
                        illegal_penalty=-1, tables=({"rounds": 20}, {"auctions": False}),
                        max_decisions=500)
    obs, info = env.reset(seed=0)
    assert env.seat == 1 and obs.shape == (677,)
    assert SingleSeatEnv(tables=[]).tables == [{}]  # no tables: the given options alone


# ---------------------------------------------------------------------------- gymnasium id
def test_gymnasium_ids_are_registered_once_whichever_is_imported_first() -> None:
    assert byapar_env.SINGLE_SEAT_IDS == {"byapar/Byapar-SingleSeat-v0": "byapar",
                                          "byapar/Businessman-SingleSeat-v0": "businessman"}
    specs = [gymnasium.spec(i) for i in (*byapar_env.SINGLE_SEAT_IDS, "byapar/SingleSeat-v0")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a second register() would warn of an override
        byapar_env.register_gymnasium()
    assert [gymnasium.spec(i) for i in (*byapar_env.SINGLE_SEAT_IDS,
                                        "byapar/SingleSeat-v0")] == specs
    # In a fresh interpreter, importing the package is all it takes, before gymnasium or after,
    # and the package alone does not import gymnasium.
    for first, then in (("gymnasium", "byapar_env"), ("byapar_env", "gymnasium")):
        code = (f"import sys, {first}; import {then}; "
                "e = gymnasium.make('byapar/Businessman-SingleSeat-v0', num_players=3); "
                "print(e.reset(seed=0)[1]['num_players'])")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=120, check=True)
        assert out.stdout.strip() == "3"
    out = subprocess.run([sys.executable, "-c", "import sys, byapar_env.engine; "
                          "print('gymnasium' in sys.modules)"], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.strip() == "False"


def test_the_old_id_still_makes_byapars_view_with_a_warning() -> None:
    with pytest.warns(DeprecationWarning, match="now byapar/Byapar-SingleSeat-v0"):
        env = gymnasium.make("byapar/SingleSeat-v0", num_players=3)
    assert isinstance(env.unwrapped, SingleSeatEnv) and env.unwrapped.game_name == "byapar"


@pytest.mark.parametrize("env_id, size, actions", [("byapar/Byapar-SingleSeat-v0", 677, 181),
                                                   ("byapar/Businessman-SingleSeat-v0", 1080,
                                                    402)])
def test_made_env_passes_gymnasium_check_env_and_plays(env_id, size, actions) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, num_players=4)
    assert isinstance(env.unwrapped, SingleSeatEnv) and env.spec.id == env_id
    assert env.observation_space.shape == (size,) and env.action_space.n == actions
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker warns of the wrappers and infinite bounds
        check_env(env, skip_render_check=True)
        check_env(env.unwrapped, skip_render_check=True)
    made = gymnasium.make(env_id, num_players=2, rounds=20, seat=0)
    direct = SingleSeatEnv(num_players=2, rounds=20, seat=0, game=env.unwrapped.game_name)
    made.reset(seed=9)
    direct.reset(seed=9)
    for _ in range(30):
        action = np.flatnonzero(direct.action_masks())[0]  # a numpy integer
        made_out = made.step(np.array(action))
        direct_out = direct.step(action)
        assert np.array_equal(made_out[0], direct_out[0]) and made_out[1:4] == direct_out[1:4]
        if direct_out[2] or direct_out[3]:
            break
    with pytest.raises(RulesError, match="num_players"):
        gymnasium.make(env_id, num_players=9)
