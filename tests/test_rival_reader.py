"""The rival reader (``byapar_agents.rival_reader``): how actions match, a seeded table of three
known
kinds read right by its end, the real game never touched, and a kind outside the portfolio
refused."""

from __future__ import annotations

import pytest

from byapar_agents.rival_reader import NEAR, PORTFOLIO, RivalReader, match
from byapar_env.driver import NO_DECISION_CAP, SeatDriver
from byapar_env.engine import Game, Rules, actions

PORTFOLIO_POP = next(k for k in PORTFOLIO if k.startswith("pop-"))


def test_actions_match_fully_nearly_or_not() -> None:
    assert match(actions.bid(5, 600), actions.bid(5, 600)) == 1.0
    assert match(actions.bid(5, 600), actions.bid(5, 800)) == NEAR  # another amount, the same place
    assert match(actions.bid(5, 600), actions.DROP_OUT) == 0.0
    assert match(actions.offer_trade(2, [1], [3], 100),
                 actions.offer_trade(2, [], [3], 500)) == NEAR
    assert match(actions.offer_trade(2, [1], [3], 100),
                 actions.offer_trade(1, [1], [3], 100)) == 0.0
    assert match(actions.build(1), actions.build(3)) == 0.0
    assert match(actions.ROLL, actions.ROLL) == 1.0


def test_a_table_of_three_known_kinds_is_read_right() -> None:
    kinds = ["medium", "outside-chrisaacson-trading", PORTFOLIO_POP]
    players = [PORTFOLIO[k]() for k in kinds]
    for s, p in enumerate(players):
        p.reset(7 + s)
    reader = RivalReader(3, seed=100)
    driver = SeatDriver.for_game(Game(Rules(num_players=3), seed=7),
                                 max_decisions=NO_DECISION_CAP)
    game = driver.game
    untouched = True
    while legal := driver.engine_choices():
        seat = game.current_player
        action = players[seat].choose(game, seat, legal)
        before = game.to_json() if game.round < 3 else None
        reader.observe(game, seat, legal, action)
        if before is not None:
            untouched &= game.to_json() == before
        driver.take_engine(action)
    assert untouched
    assert [reader.named(s) for s in range(3)] == kinds
    assert all(reader.decisions[s] >= 20 for s in range(3))
    for s in range(3):
        post = reader.posterior(s)
        assert sum(post.values()) == pytest.approx(1.0)
        assert post[kinds[s]] > 0.9
        assert reader.fit(s) > 0.95  # its own kind explains it nearly move for move


def test_a_player_outside_the_portfolio_reads_a_low_fit() -> None:
    """monopyly-huw (unseen, not in the portfolio) is named as some kind, but no kind explains
    half its moves: the expert then plays it as in mixed rollouts."""
    from byapar_agents import make_agent
    from byapar_agents.expert import READ_FIT

    players = [make_agent("outside-monopyly-huw") for _ in range(3)]
    for s, p in enumerate(players):
        p.reset(s)
    reader = RivalReader(3, seats=[0], seed=9)
    driver = SeatDriver.for_game(Game(Rules(num_players=3), seed=0),
                                 max_decisions=NO_DECISION_CAP)
    game = driver.game
    while (legal := driver.engine_choices()) and game.round <= 15:
        seat = game.current_player
        action = players[seat].choose(game, seat, legal)
        reader.observe(game, seat, legal, action)
        driver.take_engine(action)
    assert reader.decisions[0] >= 50
    assert reader.fit(0) < READ_FIT


def test_a_decision_without_a_choice_tells_nothing() -> None:
    reader = RivalReader(2, kinds=["medium"], seats=[1])
    game = Game(Rules(num_players=2), seed=1)
    reader.observe(game, 0, game.legal_actions(), game.legal_actions()[0])  # seat 0: not read
    reader.observe(game, 1, [actions.ROLL], actions.ROLL)
    assert reader.decisions == {1: 0} and reader.log_likelihood == {1: [0.0]}


def test_kinds_outside_the_portfolio_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown kinds \\['outside-monopyly-huw'\\]"):
        RivalReader(4, kinds=["medium", "outside-monopyly-huw"])


def test_read_rollouts_seat_each_rival_as_its_reading_draws() -> None:
    from byapar_agents.expert import ExpertPlayer
    from byapar_agents.outside import TradingPlayer
    from byapar_agents.policy_rollout import PolicyRolloutPlayer
    from byapar_agents.search import Rollouts

    game = Game(Rules(num_players=4), seed=3)
    policy = ExpertPlayer(sims=12).policy(game)
    sure = {1: {"outside-chrisaacson-trading": 1.0}, 2: {"medium": 1.0}}
    rollouts = Rollouts(game, 0, mode="read", policy=policy, reading=sure)
    for seed in range(5):
        seated = rollouts.seat_players(seed)
        assert isinstance(seated[0], PolicyRolloutPlayer)
        assert isinstance(seated[1], TradingPlayer)
        assert type(seated[2]).__name__ == "MediumPlayer"
        assert type(seated[3]).__name__ in ("MediumPlayer", "PolicyRolloutPlayer")  # mixed
    split = Rollouts(game, 0, mode="read", policy=policy,
                     reading={1: {"medium": 0.5, "outside-monopyly-sophie": 0.5}})
    kinds = [type(split.seat_players(seed)[1]).__name__ for seed in range(40)]
    assert kinds == [type(split.seat_players(seed)[1]).__name__ for seed in range(40)]
    assert 8 < kinds.count("MediumPlayer") < 32  # both kinds drawn, about evenly


def test_the_expert_reads_its_rivals_from_the_environment() -> None:
    from byapar_agents import play_through_env
    from byapar_agents.expert import ExpertPlayer
    from byapar_env.byapar_v0 import raw_env

    env = raw_env(num_players=3, rounds=6)
    env.reset(seed=5)
    expert = ExpertPlayer(5, sims=12, rollout="read")
    rivals = [PORTFOLIO["outside-chrisaacson-trading"](), PORTFOLIO["medium"]()]
    for s, p in enumerate(rivals):
        p.reset(s)
    play_through_env(env, [expert, *rivals])
    reading = expert.reading()
    assert set(reading) == {1, 2}
    assert max(reading[1], key=reading[1].get) == "outside-chrisaacson-trading"
    assert max(reading[2], key=reading[2].get) == "medium"
    assert env.watchers == [expert._watch]
