"""businessman_v0: PettingZoo's API and seed tests for 2 to 6 players, what each seat may see
(another seat's hand and the decks' order never reach an observation), masks, illegal and
malformed actions, rewards, truncation and clones."""

from __future__ import annotations

import random

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, seed_test

from byapar_env import businessman_v0
from byapar_env.businessman import ACTION_ID, ALL_ACTIONS, IllegalActionError, RulesError, board
from byapar_env.businessman_action_table import NUM_ACTIONS, id_ranges, legal_ids
from byapar_env.businessman_observation import OBSERVATION_SIZE, observation_layout


def _random_steps(env, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if not env.agents:
            return
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(rng.choice(env.legal_action_ids()))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pettingzoo_api_and_seed_tests(players: int) -> None:
    api_test(businessman_v0.env(num_players=players), num_cycles=300)
    seed_test(lambda: businessman_v0.env(num_players=players), num_cycles=100)


def test_registered_and_spaces() -> None:
    env = pettingzoo.make("aec", "byapar/businessman-v0", num_players=3)
    env.reset(seed=4)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    space = env.observation_space("player_1")
    assert space["observation"].shape == (OBSERVATION_SIZE,)
    assert space["action_mask"].shape == (NUM_ACTIONS,) == (402,)
    assert env.action_space("player_0").n == NUM_ACTIONS
    layout = observation_layout()
    # the parts tile the vector: each starts where the one before stops, from 0 to the end
    parts = sorted(layout.values(), key=lambda s: s.start)
    assert parts[0].start == 0 and parts[-1].stop == OBSERVATION_SIZE
    assert all(a.stop == b.start for a, b in zip(parts, parts[1:], strict=False))
    assert all(s.stop > s.start for s in parts)
    assert id_ranges()[0] == (0, 0, "roll") and id_ranges()[-1][1] == NUM_ACTIONS - 1
    assert businessman_v0.raw_env.action_to_string(ACTION_ID[ALL_ACTIONS[0]]) == "roll"


def test_the_mask_is_the_engines_legal_actions_for_the_deciding_agent_only() -> None:
    # Caps that never bite here (the engine's own 24 proposal steps, 1,000 pre-roll actions);
    # tests/test_businessman_caps.py checks what the default caps take away.
    env = businessman_v0.raw_env(num_players=4, skip_trivial=False, max_pre_roll_actions=1_000,
                                 max_trade_steps=24)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(400):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        seat = env.agent_name_mapping[agent]
        assert seat == env.game.current_player
        mask = env.observe(agent)["action_mask"]
        assert np.flatnonzero(mask).tolist() == legal_ids(env.game)
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(rng.choice(env.legal_action_ids()))


def test_illegal_and_malformed_actions_change_nothing() -> None:
    env = businessman_v0.raw_env(num_players=3)
    env.reset(seed=5)
    before = env.game.to_json()
    illegal = next(i for i in range(NUM_ACTIONS) if i not in env.legal_action_ids())
    for bad in (illegal, -1, NUM_ACTIONS, True, 0.0, "0", np.array([0]), None):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert env.game.to_json() == before
    roll = env.legal_action_ids()[0]
    assert businessman_v0.raw_env.action_to_string(roll) == "roll"
    env.step(np.int64(roll))  # numpy ids are fine: the roll is applied, once
    assert env.game.version == 1 and env.game.to_json() != before
    wrapped = businessman_v0.env(num_players=3)
    wrapped.reset(seed=5)
    with pytest.raises(IllegalActionError):
        wrapped.step(2.0)


def test_bad_options_and_seeds_are_refused() -> None:
    for kwargs in ({"num_players": 7}, {"rounds": 0}, {"rounds": True}, {"rounds": 1_001},
                   {"reward": "cash"}, {"dense_coef": float("nan")}, {"skip_trivial": 1},
                   {"max_decisions": 0}, {"render_mode": "rgb_array"}):
        with pytest.raises(RulesError):
            businessman_v0.raw_env(**kwargs)
    env = businessman_v0.raw_env()
    for seed in (-1, 1.5, True, "3"):
        with pytest.raises(ValueError):
            env.reset(seed=seed)


def test_rounds_is_the_round_limit_as_in_byapar_and_max_rounds_still_works() -> None:
    assert businessman_v0.env(rounds=12).unwrapped.rules.max_rounds == 12
    # None: until one player is left, the richest winning after 100 rounds, as Byapar plays it
    assert businessman_v0.raw_env(rounds=None).rules.max_rounds == 100
    with pytest.warns(DeprecationWarning, match="max_rounds is now rounds"):
        env = businessman_v0.raw_env(max_rounds=7)
    assert env.rules.max_rounds == 7
    assert env.clone().rules.max_rounds == 7
    with pytest.warns(DeprecationWarning), pytest.raises(RulesError, match="rounds must be"):
        businessman_v0.raw_env(max_rounds=0)


# ----------------------------------------------------------------------------- what a seat sees
def _other_hand(hand: list[int], used: list[int]) -> list[int]:
    """A hand of the same size, other cards where any are left undealt and unplayed."""
    spare = {k.index: k.count - used.count(k.index) for k in board.EXCHANGE_KINDS}
    new = []
    for card in hand:
        pick = next((k for k in spare if k != card and spare[k] > 0), (card + 1) % 11)
        spare[pick] = spare.get(pick, 0) - 1
        new.append(pick)
    assert sorted(new) != sorted(hand)
    return sorted(new)


def _observations(env) -> dict[str, np.ndarray]:
    return {a: env.observe(a)["observation"] for a in env.possible_agents}


@pytest.mark.parametrize("players", [2, 4, 6])
def test_another_seats_hidden_hand_changes_no_other_seats_observation(players: int) -> None:
    env = businessman_v0.raw_env(num_players=players)
    env.reset(seed=players)
    rng = random.Random(players)
    checked = 0
    for _ in range(60):
        _random_steps(env, rng, 7)
        if not env.agents or env.game.is_over:
            break
        game = env.game
        used = [k for h in game.hands for k in h] + game.played
        for hidden in range(players):
            if not game.hands[hidden]:
                continue
            twin = env.clone()
            twin.game.hands[hidden] = _other_hand(game.hands[hidden], used)
            mine, theirs = _observations(env), _observations(twin)
            for agent, obs in mine.items():
                seat = env.agent_name_mapping[agent]
                if seat == hidden:
                    assert not np.array_equal(obs, theirs[agent])  # its own hand shows
                else:
                    assert np.array_equal(obs, theirs[agent]), (agent, hidden)
                    if seat != game.current_player:
                        assert np.array_equal(env.action_mask(agent), twin.action_mask(agent))
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize("players", [2, 5])
def test_no_observation_holds_a_deck_order_or_the_generator(players: int) -> None:
    env = businessman_v0.raw_env(num_players=players)
    env.reset(seed=11)
    rng = random.Random(11)
    for _ in range(25):
        _random_steps(env, rng, 9)
        if not env.agents or env.game.is_over:
            break
        twin = env.clone()
        for deck in twin.game.decks.values():
            deck.reverse()  # another order, the same cards
        twin.game.rng.seed(12345)  # another generator state, another seed
        twin.game.seed = 12345
        mine, theirs = _observations(env), _observations(twin)
        for agent in env.possible_agents:
            assert np.array_equal(mine[agent], theirs[agent])
            assert np.array_equal(env.action_mask(agent), twin.action_mask(agent))


def test_the_observer_sees_its_own_hand_and_every_hand_size() -> None:
    env = businessman_v0.raw_env(num_players=3)
    env.reset(seed=2)
    layout = observation_layout()
    for agent in env.possible_agents:
        seat = env.agent_name_mapping[agent]
        obs = env.observe(agent)["observation"]
        counts = np.round(obs[layout["hand"]] * 4).astype(int).tolist()
        assert counts == [env.game.hands[seat].count(k) for k in range(board.NUM_EXCHANGE_KINDS)]


# ----------------------------------------------------------------------------- rewards and endings
def test_a_whole_game_ends_with_zero_sum_outcome_rewards() -> None:
    env = businessman_v0.raw_env(num_players=4, rounds=8)
    env.reset(seed=9)
    rng = random.Random(9)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        _, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
        else:
            env.step(rng.choice(env.legal_action_ids()))
    assert env.game.is_over
    assert sum(totals.values()) == pytest.approx(0.0)
    for s in env.game.winners:
        assert totals[f"player_{s}"] > 0


def test_dense_net_worth_shaping_is_zero_sum() -> None:
    env = businessman_v0.raw_env(num_players=3, reward="net_worth_share", dense_coef=2.0)
    env.reset(seed=1)
    rng = random.Random(1)
    for _ in range(300):
        if not env.agents:
            break
        assert sum(env.rewards.values()) == pytest.approx(0.0, abs=1e-9)
        _random_steps(env, rng, 1)


def test_truncation_at_the_decision_cap() -> None:
    env = businessman_v0.raw_env(num_players=3, max_decisions=40)
    env.reset(seed=6)
    rng = random.Random(6)
    steps = 0
    while not any(env.truncations.values()):
        env.step(rng.choice(env.legal_action_ids()))
        steps += 1
    assert env.decisions == 40 and steps <= 40
    assert all(env.truncations[a] for a in env.agents)
    assert not any(env.terminations.values())
    assert not env.game.is_over
    while env.agents:  # every agent steps out with None
        assert not env.action_mask(env.agent_selection).any()
        env.step(None)
    with pytest.raises(IllegalActionError):
        env.step(0)


def test_same_seed_same_game_and_clones_are_independent() -> None:
    a, b = businessman_v0.raw_env(num_players=4), businessman_v0.raw_env(num_players=4)
    a.reset(seed=21)
    b.reset(seed=21)
    _random_steps(a, random.Random(0), 150)
    _random_steps(b, random.Random(0), 150)
    assert a.game.to_json() == b.game.to_json()
    copy = a.clone()
    assert copy.game.to_json() == a.game.to_json()
    _random_steps(copy, random.Random(1), 50)
    assert a.game.to_json() == b.game.to_json()
    assert a.render() is None
    text = businessman_v0.raw_env(num_players=2, render_mode="ansi")
    text.reset(seed=0)
    assert "seat 1" in text.render()


def test_show_game_points_the_environment_at_an_engine_game() -> None:
    env = businessman_v0.raw_env(num_players=3)
    env.reset(seed=1)
    other = businessman_v0.raw_env(num_players=3)
    other.reset(seed=9)
    _random_steps(other, random.Random(2), 40)
    game = other.game.clone()
    seat = game.current_player
    env.show_game(game, pre_roll_actions=other.pre_roll_actions)
    assert env.game is game and env.agent_selection == f"player_{seat}"
    shown, theirs = env.observe(f"player_{seat}"), other.observe(f"player_{seat}")
    assert np.array_equal(shown["observation"], theirs["observation"])
    assert np.array_equal(shown["action_mask"], theirs["action_mask"])
    # Stepping plays that game on, and only it.
    before, theirs_before = game.to_json(), other.game.to_json()
    env.step(int(np.flatnonzero(shown["action_mask"])[0]))
    assert game.to_json() != before and other.game.to_json() == theirs_before
    with pytest.raises(ValueError, match="the game has 3 seats, this environment 2"):
        two = businessman_v0.raw_env(num_players=2)
        two.reset(seed=1)
        before = two.game
        two.show_game(game)
    assert two.game is before
