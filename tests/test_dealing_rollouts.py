"""Rollouts whose rivals trade among themselves (``byapar_agents.search``, mode ``dealing``;
the expert's ``expert-dealing``): who sits in each seat, a swap taken inside a rollout, and the
options refused."""

from __future__ import annotations

import pytest
from scenario import give, new_game, sq
from stubs import JudgedValue, group_value

from byapar_agents import expert_options, make_agent
from byapar_agents.dealing_rollout import DealingRolloutPlayer
from byapar_agents.expert import ExpertBudgetError, ExpertPlayer
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.medium import MediumPlayer
from byapar_agents.policy_rollout import PolicyRolloutPlayer
from byapar_agents.search import Rollouts, chance_game, search_root
from byapar_env.engine import actions
from byapar_env.fast_play import play_on

POLICY = LearnedPlayer(DEFAULT_CHECKPOINT).policy
JUDGE = JudgedValue(group_value)  # chances from whole groups and cash: a swap of two is good
SURKHET, DADELDHURA = sq("Surkhet"), sq("Dadeldhura")


def _swap_position():
    """Seat 0 (to play, before rolling) holds Jumla and Dadeldhura, seat 1 Surkhet,
    Mahendranagar and Dhangadhi: each holds the piece that completes the other's group."""
    game = new_game(4, seed=3)
    give(game, 0, "Jumla", "Dadeldhura")
    give(game, 1, "Surkhet", "Mahendranagar", "Dhangadhi")
    return game


def _seed_where(rollouts: Rollouts, seat: int, kind: type) -> int:
    return next(s for s in range(100) if isinstance(rollouts.seat_players(s)[seat], kind))


def test_the_searching_seat_deals_and_each_rival_deals_or_plays_medium() -> None:
    rollouts = Rollouts(search_root(_swap_position()), 0, mode="dealing", policy=POLICY,
                        value=JUDGE)
    kinds = set()
    for seed in range(40):
        players = rollouts.seat_players(seed)
        assert players == rollouts.seat_players(seed)  # the same seats for every candidate
        assert isinstance(players[0], DealingRolloutPlayer)
        for rival in players[1:]:
            assert isinstance(rival, (DealingRolloutPlayer, MediumPlayer))
            kinds.add(type(rival))
    assert kinds == {DealingRolloutPlayer, MediumPlayer}


def test_rivals_that_deal_take_the_swap_inside_a_rollout() -> None:
    root = search_root(_swap_position())
    dealing = Rollouts(root, 0, mode="dealing", policy=POLICY, value=JUDGE)
    seed = _seed_where(dealing, 1, DealingRolloutPlayer)
    game = chance_game(root, seed)
    players = dealing.seat_players(seed)
    for s, player in enumerate(players):
        player.reset(seed + s)
    play_on(game, players, (root.round, root.turn + 1))  # seat 0's turn only
    # seat 0 offered the swap that completes a group on each side; seat 1 accepted it
    assert game.owner[SURKHET] == 0 and game.owner[DADELDHURA] == 1
    assert game.owns_group(0, SURKHET) and game.owns_group(1, DADELDHURA)

    # the policy's rollout seats make no offers: the same turn leaves both groups split
    policy = Rollouts(root, 0, mode="policy", policy=POLICY, value=JUDGE)
    game = chance_game(root, seed)
    players = policy.seat_players(seed)
    assert all(isinstance(p, PolicyRolloutPlayer) and not isinstance(p, DealingRolloutPlayer)
               for p in players)
    for s, player in enumerate(players):
        player.reset(seed + s)
    play_on(game, players, (root.round, root.turn + 1))
    assert game.owner[SURKHET] == 1 and game.owner[DADELDHURA] == 0


def test_dealing_rollouts_need_the_value_network() -> None:
    with pytest.raises(ValueError, match="needs the value network"):
        Rollouts(search_root(_swap_position()), 0, mode="dealing", policy=POLICY, value=None)
    with pytest.raises(ExpertBudgetError, match="rollout 'dealing' needs value 'net'"):
        ExpertPlayer(rollout="dealing", value="share")
    assert make_agent("expert").rollout == "mixed"  # not the default


def test_the_name_expert_dealing_seats_the_expert_with_dealing_rollouts() -> None:
    assert expert_options("expert-dealing@24") == {
        "focus": True, "rollout": "dealing", "value": "net", "sims": 24}
    expert = make_agent("expert-dealing@24", seed=1)
    assert isinstance(expert, ExpertPlayer) and expert.rollout == "dealing"
    game = _swap_position()
    game.apply(actions.offer_trade(1, (DADELDHURA,), (SURKHET,)))  # seat 1 to answer the swap
    ev = expert.evaluate(game, 0, seed=5)
    assert [c.action for c in ev.candidates] == [actions.ACCEPT_TRADE, actions.REJECT_TRADE]
    # both answers simulated on the same 12 seeds: the budget spent in whole rounds
    assert [len(c.scores) for c in ev.candidates] == [12, 12] and ev.sims == 24


def test_dealing_rollouts_on_workers_give_the_scores_one_process_gives() -> None:
    game = _swap_position()
    game.apply(actions.offer_trade(1, (DADELDHURA,), (SURKHET,)))
    scores = {}
    for workers in (1, 2):
        ev = ExpertPlayer(sims=12, rollout="dealing", workers=workers).evaluate(game, 0, seed=7)
        scores[workers] = [(str(c.action), c.scores) for c in ev.candidates]
    assert scores[1] == scores[2] and len(scores[1][0][1]) == 6
