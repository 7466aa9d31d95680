"""The PettingZoo environment: PettingZoo's own checks for every table, masks, saving, caps."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from byapar_env import byapar_v0
from byapar_env.action_table import (
    ACTION_VERSION,
    ACTIONS,
    NUM_ACTIONS,
    action_to_string,
    engine_action,
)
from byapar_env.engine import IllegalActionError, Phase
from byapar_env.observation import (
    OBSERVATION_SIZE,
    OBSERVATION_VERSION,
    encode,
    observation_layout,
)

TABLES = [(n, auctions) for n in range(2, 7) for auctions in (True, False)]


@pytest.mark.parametrize(("players", "auctions"), TABLES)
def test_pettingzoo_api_and_seed_tests(players: int, auctions: bool) -> None:
    api_test(byapar_v0.env(num_players=players, auctions=auctions), num_cycles=300)
    seed_test(lambda: byapar_v0.env(num_players=players, auctions=auctions), num_cycles=100)


@pytest.mark.parametrize("players", [2, 6])
def test_render_modes(players: int) -> None:
    render_test(lambda render_mode=None: byapar_v0.env(num_players=players,
                                                       render_mode=render_mode))
    e = byapar_v0.raw_env(num_players=players, render_mode="rgb_array")
    e.reset(seed=1)
    img = e.render()
    assert img.shape == (720, 720, 3) and img.dtype == np.uint8


def test_registered_with_pettingzoo() -> None:
    import pettingzoo

    e = pettingzoo.make("aec", "byapar/byapar-v0", num_players=3)
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]


def test_every_action_id_has_a_unique_name() -> None:
    names = [action_to_string(i) for i in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert action_to_string(0) == "roll the dice"
    with pytest.raises(ValueError, match="action ids run from 0 to 180"):
        action_to_string(NUM_ACTIONS)


def play(env, rng: random.Random, check=None) -> int:
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        if check:
            check(env, agent, obs)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps


def check_mask(env, agent, obs) -> None:
    """The mask is the engine's legal set; only the deciding agent has one."""
    game = env.game
    assert obs["observation"].shape == (OBSERVATION_SIZE,)
    assert obs["observation"].dtype == np.float32
    seat = env.agent_name_mapping[agent]
    assert seat == game.current_player
    # The cached observation equals one encoded from scratch.
    fresh = encode(game, seat, np.zeros(OBSERVATION_SIZE, np.float32),
                   env.draft if seat == game.turn else None, env.pre_roll_actions,
                   env.max_pre_roll_actions, env.max_trade_steps, habits=env.habits)
    assert np.array_equal(obs["observation"], fresh)
    ids = np.flatnonzero(obs["action_mask"]).tolist()
    assert ids
    for other in env.agents:
        if other != agent:
            assert not env.observe(other)["action_mask"].any()
    if env.draft is not None:
        submit = next(a.id for a in ACTIONS if a.kind == "trade_submit")
        assert (submit in ids) == (game.trade_error(env.draft.offer()) is None
                                   and bool(env.draft.give or env.draft.take))
    if env.draft is None:
        legal = set(game.legal_actions())
        mapped = {engine_action(game, i) for i in ids if not ACTIONS[i].kind.startswith("trade")}
        assert mapped <= legal
        if game.phase != Phase.AUCTION and not (
                game.phase == Phase.PRE_ROLL and env.pre_roll_actions >= env.max_pre_roll_actions):
            assert mapped == legal  # every legal engine action is reachable
        if game.phase == Phase.AUCTION:
            low = game.auction.high + 100
            assert engine_action(game, ids[1]).amount == low  # the minimum raise is always there


@pytest.mark.parametrize("players", range(2, 7))
def test_masked_random_games_end_and_masks_are_exact(players: int) -> None:
    for seed in range(3):
        e = byapar_v0.raw_env(num_players=players, skip_trivial=seed % 2 == 0)
        e.reset(seed=seed)
        play(e, random.Random(seed), check_mask)
        assert e.game.is_over and not e.agents


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = byapar_v0.raw_env(num_players=3)
    e.reset(seed=4)
    before = e.save_state()
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=f"is not legal for {e.agent_selection}"):
        e.step(bad)
    assert e.save_state() == before


def test_outcome_rewards_are_zero_sum_and_reach_bankrupt_players() -> None:
    for seed in range(4):
        e = byapar_v0.raw_env(num_players=4, rounds=None)
        e.reset(seed=seed)
        totals = {a: 0.0 for a in e.possible_agents}
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            totals[agent] += e._cumulative_rewards[agent]
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        game = e.game
        assert abs(sum(totals.values())) < 1e-9
        for s, a in enumerate(e.possible_agents):
            if s in game.winners:
                assert totals[a] > 0
            else:
                assert totals[a] == pytest.approx(-1 / 3)


def test_save_load_pickle_deepcopy_and_clone_keep_the_game() -> None:
    e = byapar_v0.raw_env(num_players=4)
    e.reset(seed=9)
    rng = random.Random(9)
    for _ in range(150):
        obs = e.observe(e.agent_selection)
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    state = e.save_state()
    copies = [pickle.loads(pickle.dumps(e)), copy.deepcopy(e), e.clone()]
    restored = byapar_v0.raw_env(num_players=4)
    restored.load_state(state)
    copies.append(restored)
    for c in copies:
        assert c.save_state() == state
    # All continue identically.
    results = []
    for env in [e, *copies]:
        play(env, random.Random(1))
        results.append(env.game.to_json())
    assert len(set(results)) == 1


def test_load_state_refuses_other_options() -> None:
    e = byapar_v0.raw_env(num_players=4)
    e.reset(seed=0)
    other = byapar_v0.raw_env(num_players=3)
    with pytest.raises(ValueError, match="saved with options"):
        other.load_state(e.save_state())
    with pytest.raises(ValueError, match="not valid JSON"):
        other.load_state("{")


def test_decision_cap_truncates_every_agent() -> None:
    e = byapar_v0.raw_env(num_players=3, max_decisions=40)
    e.reset(seed=2)
    steps = play(e, random.Random(2))
    assert steps <= 40
    assert not e.game.is_over


def test_pre_roll_cap_leaves_only_rolling() -> None:
    e = byapar_v0.raw_env(num_players=2, max_pre_roll_actions=2, skip_trivial=False)
    e.reset(seed=0)
    game = e.game
    game.owner[1] = 0  # Jumla: seat 0 can mortgage it, and trade
    e.game_changed()
    mortgage_id = next(a.id for a in ACTIONS if a.kind == "mortgage" and a.arg == 1)
    e.step(mortgage_id)
    unmortgage_id = next(a.id for a in ACTIONS if a.kind == "unmortgage" and a.arg == 1)
    e.step(unmortgage_id)
    mask = e.observe("player_0")["action_mask"]
    assert np.flatnonzero(mask).tolist() == [0]


def test_invalid_options_are_refused() -> None:
    with pytest.raises(ValueError, match="num_players"):
        byapar_v0.raw_env(num_players=7)
    with pytest.raises(ValueError, match="reward must be one of"):
        byapar_v0.raw_env(reward="money")
    with pytest.raises(ValueError, match="max_trade_steps"):
        byapar_v0.raw_env(max_trade_steps=0)


def test_observation_layout_covers_the_vector() -> None:
    layout = observation_layout()
    # the parts tile the vector: each starts where the one before stops, from 0 to the end
    parts = sorted(layout.values(), key=lambda s: s.start)
    assert parts[0].start == 0 and parts[-1].stop == OBSERVATION_SIZE
    assert all(a.stop == b.start for a, b in zip(parts, parts[1:], strict=False))
    assert all(s.stop > s.start for s in parts)
    e = byapar_v0.raw_env(num_players=3)
    e.reset(seed=0)
    obs = e.observe("player_0")["observation"]
    assert obs[layout["players.present"]].tolist() == [1, 1, 1, 0, 0, 0]
    assert obs[layout["players.cash"]][0] == pytest.approx(1.5)


def test_docs_tables_match_the_code() -> None:
    import pathlib

    from byapar_env.doc_tables import refresh

    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "env.md").read_text()
    assert refresh(text) == text, "run: python -m byapar_env.doc_tables docs/env.md"


def test_dense_net_worth_share_reward_is_zero_sum_shaping() -> None:
    e = byapar_v0.raw_env(num_players=3, reward="net_worth_share", dense_coef=1.0)
    e.reset(seed=3)
    rng = random.Random(3)
    totals = {a: 0.0 for a in e.possible_agents}
    dense_steps = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        step_rewards = dict(e.rewards)
        if any(abs(r) > 0 for r in step_rewards.values()) and not e.game.is_over:
            dense_steps += 1
        if not e.game.is_over and not any(e.game.bankrupt):
            assert abs(sum(step_rewards.values())) < 1e-6  # shaping alone is zero-sum
        totals[agent] += e._cumulative_rewards[agent]
        if term or trunc:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert dense_steps > 10
    assert abs(sum(totals.values())) < 1e-6


def test_a_game_that_ends_during_reset_is_settled() -> None:
    """Tiny tables can end while reset plays the trivial decisions: every agent is then
    terminated and steps out, and nobody is asked to act."""
    e = byapar_v0.raw_env(num_players=2, starting_cash=100, rounds=1, auctions=False)
    e.reset(seed=0)
    assert e.game.is_over and all(e.terminations.values())
    for _agent in e.agent_iter():
        assert e.last()[2]
        e.step(None)
    assert not e.agents


def test_truncated_agents_have_an_empty_mask() -> None:
    e = byapar_v0.raw_env(num_players=3, max_decisions=5)
    e.reset(seed=1)
    play(e, random.Random(1))
    e = byapar_v0.raw_env(num_players=3, max_decisions=1)
    e.reset(seed=1)
    assert all(e.truncations.values())
    assert not e.observe(e.agent_selection)["action_mask"].any()


def test_load_state_refuses_a_corrupt_state_without_change() -> None:
    import json

    e = byapar_v0.raw_env(num_players=3)
    e.reset(seed=2)
    data = json.loads(e.save_state())
    del data["draft"]
    other = byapar_v0.raw_env(num_players=3)
    other.reset(seed=5)
    before = other.save_state()
    with pytest.raises(ValueError, match="corrupt byapar_v0 state"):
        other.load_state(json.dumps(data))
    assert other.save_state() == before


@pytest.mark.parametrize(("draft", "message"), [
    ({"target": 0, "give": [], "take": [], "amount": 0, "steps": 0}, "draft target 0"),
    ({"target": 1, "give": [], "take": [], "amount": 150, "steps": 0}, "draft amount 150"),
    ({"target": 1, "give": [99], "take": [], "amount": 0, "steps": 0}, "distinct places"),
    ({"target": 1, "give": [1], "take": [], "amount": 0, "steps": 0}, "composer's places"),
    ({"target": 1, "give": [], "take": [], "amount": 0, "steps": -1}, "draft steps"),
])
def test_load_state_refuses_an_impossible_draft(draft, message) -> None:
    import json

    e = byapar_v0.raw_env(num_players=3)
    e.reset(seed=2)
    assert e.game.current_player == 0 and e.game.owner[1] == -1
    data = json.loads(e.save_state())
    data["draft"] = draft
    before = e.save_state()
    with pytest.raises(ValueError, match=message):
        e.load_state(json.dumps(data))
    assert e.save_state() == before


def test_legal_ids_are_the_callers_own_list() -> None:
    e = byapar_v0.raw_env(num_players=2)
    e.reset(seed=0)
    legal = e.legal_action_ids()
    legal.clear()
    assert e.legal_action_ids() == np.flatnonzero(e.action_mask()).tolist() != []


def test_numpy_ids_and_seeds_are_accepted() -> None:
    assert action_to_string(np.int64(0)) == "roll the dice"
    e = byapar_v0.raw_env(num_players=2)
    e.reset(seed=np.int64(3))
    f = byapar_v0.raw_env(num_players=2)
    f.reset(seed=3)
    assert e.save_state() == f.save_state()


# Digests of the observations and masks of 400 seeded masked-random decisions. The shipped
# checkpoints read exactly this encoding: a change to it must come with new OBSERVATION_VERSION /
# ACTION_VERSION numbers (and new digests here), never silently with a speed-up. Version 2 only
# appended the habits: the digests of the first 641 values and the masks are version 1's.
ENCODING_DIGESTS = {2: "2f349020a1047ab8", 4: "e582de94208116f6", 6: "cce798537041f0d7"}
HABITS_DIGESTS = {2: "04c96d6409f1e5a6", 4: "d896f77f68ff4399", 6: "89800c333782c31f"}


@pytest.mark.parametrize("n", sorted(ENCODING_DIGESTS))
def test_the_encoding_is_pinned(n: int) -> None:
    import hashlib

    env = byapar_v0.raw_env(num_players=n)
    env.reset(seed=11)
    rng = random.Random(11)
    digest, habits = hashlib.sha256(), hashlib.sha256()
    for _agent in env.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = env.last()
        digest.update(obs["observation"][:641].tobytes())
        digest.update(obs["action_mask"].tobytes())
        habits.update(obs["observation"][641:].tobytes())
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert (OBSERVATION_VERSION, ACTION_VERSION) == (2, 1)
    assert digest.hexdigest()[:16] == ENCODING_DIGESTS[n]
    assert habits.hexdigest()[:16] == HABITS_DIGESTS[n]
