"""Rivals' answers read in play (``byapar_agents.answer_reader``) and the offers aimed by them
(``byapar_agents.aimed_offers``): exact positions, exact features, the model moved by the
answers it sees, and the hard player composing the aimed offer that a rival takes."""

from __future__ import annotations

import numpy as np
import pytest
from scenario import give, new_game, sq
from stubs import JudgedValue, assert_composes, group_value

from byapar_agents import make_agent
from byapar_agents.aimed_offers import MIN_CHANCE, aimed_offer, near_amounts, wide_offers
from byapar_agents.answer_reader import (
    FEATURES,
    MAX_ANSWERS,
    PRIOR,
    AnswerReader,
    fit_weights,
    offer_features,
)
from byapar_agents.deals import MIN_GAIN, appraise, listed_deals
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase, actions

JUMLA, SURKHET = sq("Jumla"), sq("Surkhet")
MAHENDRANAGAR, DHANGADHI = sq("Mahendranagar"), sq("Dhangadhi")
JUDGE = JudgedValue(group_value)


def _features(game, offerer, offer) -> dict[str, float]:
    return dict(zip(FEATURES, offer_features(game, offerer, offer).tolist(), strict=True))


def test_an_offer_is_described_as_its_target_sees_it() -> None:
    game = new_game(4)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet", "Mahendranagar")
    give(game, 0, "Dhangadhi")
    # seat 0 asks for Surkhet (Rs 600), which completes its Karnali, paying Rs 1,000
    buy = actions.offer_trade(1, (), (SURKHET,), 1000)
    assert _features(game, 0, buy) == {
        "bias": 1.0, "balance": 0.4, "ratio": pytest.approx(1000 / 600 - 1), "sells": 1.0,
        "buys": 0.0, "gives_several": 0.0, "completes_offerer": 1.0,
        "completes_answerer": 0.0, "breaks_own": 0.0, "adds_own": 0.0}
    # seat 0 gives Dhangadhi (Rs 1,000, a piece of seat 1's Sudurpashchim) for Surkhet and is
    # paid Rs 500: seat 1 gets Rs 1,000 of places for Rs 600 of places and Rs 500 of money
    swap = actions.offer_trade(1, (DHANGADHI,), (SURKHET,), -500)
    f = _features(game, 0, swap)
    assert f["balance"] == pytest.approx((1000 - 600 - 500) / 1000)
    assert f["ratio"] == pytest.approx((1000 - 500) / 600 - 1)
    assert (f["sells"], f["buys"], f["completes_offerer"], f["completes_answerer"]) == (0, 0, 1, 0)
    assert (f["breaks_own"], f["adds_own"]) == (0.0, 1.0)


def test_a_seat_that_takes_every_sale_is_read_as_likely_to_take_the_next() -> None:
    game = new_game(4)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet")
    give(game, 2, "Mahendranagar")
    sale = actions.offer_trade(1, (), (SURKHET,), 700)
    other = actions.offer_trade(2, (), (MAHENDRANAGAR,), 1000)
    reader = AnswerReader(4)
    before = reader.chances(game, 0, [sale, other])
    assert reader.weights(1).tolist() == PRIOR.tolist()
    for _ in range(6):
        reader.observe(game, 0, actions.offer_trade(1, (), (SURKHET,), 700), accepted=True)
        reader.observe(game, 0, actions.offer_trade(2, (), (MAHENDRANAGAR,), 1000),
                       accepted=False)
    after = reader.chances(game, 0, [sale, other])
    assert after[0] > before[0] + 0.3 and after[1] < before[1] - 0.05
    # the seats that answered nothing keep the prior
    assert reader.weights(3).tolist() == PRIOR.tolist()
    # the same answers read, the same chances
    again = AnswerReader(4)
    for _ in range(6):
        again.observe(game, 0, actions.offer_trade(1, (), (SURKHET,), 700), accepted=True)
        again.observe(game, 0, actions.offer_trade(2, (), (MAHENDRANAGAR,), 1000),
                      accepted=False)
    assert again.chances(game, 0, [sale, other]).tolist() == after.tolist()


def test_the_reader_reads_answers_through_the_watcher_and_keeps_a_bounded_number() -> None:
    game = new_game(4)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet")
    reader = AnswerReader(4)
    offer = actions.offer_trade(1, (), (SURKHET,), 700)
    reader.watch(game, actions.ROLL)  # not an answer: nothing read
    game.apply(offer)
    assert game.phase == Phase.TRADE_ANSWER
    reader.watch(game, actions.REJECT_TRADE)
    assert len(reader.answers[1]) == 1 and reader.answers[1][0][1] == 0.0
    for _ in range(MAX_ANSWERS + 5):
        reader.observe(game, 0, offer, accepted=True)
    assert len(reader.answers[1]) == MAX_ANSWERS


def test_the_fit_recovers_the_weights_of_plentiful_answers() -> None:
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(4000), rng.normal(size=4000)])
    truth = np.array([-1.0, 2.0])
    y = (rng.random(4000) < 1 / (1 + np.exp(-x @ truth))).astype(float)
    w = fit_weights(x, y, np.zeros(2), pull=1e-3, steps=30)
    assert np.abs(w - truth).max() < 0.2
    # with no answers' weight against it, a strong pull keeps the prior
    held = fit_weights(x[:2], y[:2], np.array([0.5, 0.5]), pull=1e6)
    assert np.abs(held - 0.5).max() < 1e-3


def test_the_wide_list_buys_and_swaps_for_places_of_sets_it_has_a_piece_of() -> None:
    game = new_game(4)
    give(game, 0, "Jumla", "Mahendranagar", "Nepalgunj", "Birgunj", "Janakpur")
    give(game, 1, "Surkhet", "Dhangadhi", "Kathmandu")
    offers = wide_offers(game, 0)
    listed = [o for o, _ in listed_deals(game, 0)]
    assert offers[:len(listed)] == listed  # the deal module's list first, then the wider one
    extra = offers[len(listed):]
    # Surkhet completes Karnali, Dhangadhi is a piece of Sudurpashchim where it holds one;
    # Kathmandu is of a set it has nothing of
    assert {o.take for o in extra} == {(SURKHET,), (DHANGADHI,)}
    buys = sorted(o.amount for o in extra if o.take == (DHANGADHI,) and not o.give)
    assert buys == near_amounts(1000) == [500, 1000, 1500, 2000, 3000]
    swaps = {(o.give, o.amount) for o in extra if o.take == (DHANGADHI,) and o.give}
    # never a piece of Madhesh, which it holds whole
    assert swaps == {((g,), m) for g in (JUMLA, MAHENDRANAGAR, sq("Nepalgunj"))
                     for m in (-1000, 0, 1000, 2000)}
    assert all(game.trade_error(o) is None for o in offers) and len(set(offers)) == len(offers)


def test_the_aimed_offer_is_the_largest_gain_of_those_a_rival_may_take() -> None:
    game = new_game(4)
    give(game, 0, "Jumla", "Mahendranagar", "Dadeldhura")
    give(game, 1, "Surkhet")
    give(game, 2, "Dhangadhi")
    reader = AnswerReader(4)
    # seat 1 has refused every offer for Surkhet, eight times over; seat 2 has sold Dhangadhi
    # at any price
    for _ in range(8):
        for o in wide_offers(game, 0):
            reader.observe(game, 0, o, accepted=o.target == 2)
    offers = wide_offers(game, 0)
    chances = reader.chances(game, 0, offers)
    assert max(c for o, c in zip(offers, chances, strict=True) if o.target == 1) < MIN_CHANCE
    aimed = aimed_offer(game, JUDGE, reader)
    assert aimed is not None and aimed.offer.target == 2 and aimed.offer.take == (DHANGADHI,)
    # the largest gain of seat 2's offers (the stub judge counts whole groups and cash): Jumla,
    # a loose place, for the completing piece and Rs 1,000
    gains = [a.offerer_gain for a in appraise(game, [o for o in offers if o.target == 2],
                                              JUDGE)]
    assert aimed.offerer_gain == max(gains) >= MIN_GAIN
    assert aimed.offer == actions.offer_trade(2, (JUMLA,), (DHANGADHI,), -1000)
    # made before, it gives way to the next best; seat 2's all made: none
    second = aimed_offer(game, JUDGE, reader, lambda o: o == aimed.offer)
    assert second is not None and second.offer != aimed.offer
    assert second.offerer_gain <= aimed.offerer_gain
    assert aimed_offer(game, JUDGE, reader, lambda o: o.target == 2) is None


def _env_with_seller() -> raw_env:
    """Seat 0 to play before rolling, holding two of Sudurpashchim; seat 2 holds the third."""
    game = new_game(4, seed=3)
    give(game, 0, "Jumla", "Mahendranagar", "Dadeldhura")
    give(game, 2, "Dhangadhi")
    env = raw_env(num_players=4)
    env.reset(seed=3)
    env.show_game(game)
    return env


def test_the_aiming_hard_player_composes_the_aimed_offer_and_the_hard_player_does_not() -> None:
    env = _env_with_seller()
    hard = LearnedPlayer(DEFAULT_CHECKPOINT, value=JUDGE, deal_rollouts=0, read_answers=True)
    reader = hard.answer_reader(env)
    assert reader.watch in env.watchers and hard.answer_reader(env) is reader
    for o in wide_offers(env.game, 0):
        reader.observe(env.game, 0, o, accepted=True)
    expected = aimed_offer(env.game, JUDGE, reader).offer
    # made once: remembered, so never aimed again while its places stand
    assert_composes(hard, env, 0, expected)
    unread = LearnedPlayer(DEFAULT_CHECKPOINT, value=JUDGE, deal_rollouts=0)
    fresh = _env_with_seller()
    unread.act(fresh, 0)
    assert not fresh.watchers and unread.seat_state(fresh.game, 0).aimed_turn == -1
    assert make_agent("hard-aimed").read_answers and not make_agent("hard").read_answers


def test_an_environment_reset_for_game_after_game_holds_one_reader_of_the_player() -> None:
    env = raw_env(num_players=4)
    hard = make_agent("hard-aimed")
    readers = []
    for seed in (0, 1, 2):
        env.reset(seed=seed)
        readers.append(hard.answer_reader(env))
        assert env.watchers == [readers[-1].watch]
    assert len({id(r) for r in readers}) == 3  # a fresh reader for each game
