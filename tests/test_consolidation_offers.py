"""Consolidating offers (``byapar_agents.aimed_offers.consolidation_offer``): of the wide list,
the deal completing no group on either side that gains the seat most, and the hard player that
composes it (``hard-consolidating``). Exact positions and a stub judge."""

from __future__ import annotations

from scenario import give, new_game, sq
from stubs import JudgedValue, assert_composes

from byapar_agents import make_agent
from byapar_agents.aimed_offers import MIN_CHANCE, consolidation_offer, wide_offers
from byapar_agents.answer_reader import AnswerReader
from byapar_agents.deals import MIN_GAIN, appraise, completes_group, mirrored
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import board

JUMLA, SURKHET = sq("Jumla"), sq("Surkhet")
NEPALGUNJ, BUTWAL = sq("Nepalgunj"), sq("Butwal")
GORKHA, MUSTANG = sq("Gorkha"), sq("Mustang")


def pieces_value(game) -> list[float]:
    """Each seat's chance in proportion to 1 + 2 a group held whole + 0.5 a three-place group
    held two of + its cash in units of Rs 20,000: a stub judge that prices a second piece."""
    scores = []
    for seat in range(game.num_players):
        score = 1 + game.cash[seat] / 20_000
        for group in board.GROUPS.values():
            held = sum(game.owner[s] == seat for s in group)
            score += 2 if held == len(group) else 0.5 if held == 2 else 0
        scores.append(score)
    total = sum(scores)
    return [s / total for s in scores]


JUDGE = JudgedValue(pieces_value)


def _game():
    """Seat 0 to play before rolling with one piece each of Karnali, Lumbini and Gandaki; seat 1
    holds Surkhet (Karnali's other piece) and Butwal, seat 2 Mustang."""
    game = new_game(4, seed=5)
    give(game, 0, "Jumla", "Nepalgunj", "Gorkha")
    give(game, 1, "Surkhet", "Butwal")
    give(game, 2, "Mustang")
    return game


def _completes_any(game, offer) -> bool:
    return (completes_group(game, 0, offer)
            or completes_group(game, offer.target, mirrored(0, offer)))


def test_the_consolidating_offer_is_the_best_of_the_deals_that_complete_no_group() -> None:
    game = _game()
    offers = wide_offers(game, 0)
    gains = {a.offer: a.offerer_gain for a in appraise(game, offers, JUDGE)}
    # the best of the whole list completes Karnali (bought from seat 1): left out here
    best_of_all = max(gains, key=gains.get)
    assert best_of_all.take == (SURKHET,) and completes_group(game, 0, best_of_all)
    # so is a swap of Jumla, which would hand seat 1 Karnali
    handing = [o for o in offers if o.give == (JUMLA,) and o.take == (BUTWAL,)]
    assert handing and all(completes_group(game, 1, mirrored(0, o)) for o in handing)
    made = consolidation_offer(game, JUDGE)
    assert made is not None and not _completes_any(game, made.offer)
    quiet = [o for o in offers if not _completes_any(game, o)]
    assert made.offerer_gain == max(gains[o] for o in quiet) >= MIN_GAIN
    # a second piece of Lumbini or Gandaki for a loose place, with Rs 1,000 from the target
    assert made.offer.amount == -1000 and made.offer.take in ((BUTWAL,), (MUSTANG,))
    assert made.offer.give in ((NEPALGUNJ,), (GORKHA,), (JUMLA,))


def test_offers_made_before_give_way_and_none_is_made_without_a_gain() -> None:
    game = _game()
    first = consolidation_offer(game, JUDGE)
    second = consolidation_offer(game, JUDGE, made_before=lambda o: o == first.offer)
    assert second is not None and second.offer != first.offer
    assert second.offerer_gain <= first.offerer_gain
    assert consolidation_offer(game, JUDGE, made_before=lambda o: True) is None
    # a judge that sees no difference between positions: nothing gains MIN_GAIN
    flat = JudgedValue(lambda g: [0.25] * 4)
    assert consolidation_offer(game, flat) is None


def test_read_answers_leave_out_the_offers_a_rival_is_unlikely_to_take() -> None:
    game = _game()
    unread = consolidation_offer(game, JUDGE)
    reader = AnswerReader(4)
    # the target of the best offer has refused every offer, eight times over; the others have
    # taken every one
    for _ in range(8):
        for o in wide_offers(game, 0):
            reader.observe(game, 0, o, accepted=o.target != unread.offer.target)
    read = consolidation_offer(game, JUDGE, reader)
    assert read is not None and read.offer.target != unread.offer.target
    assert reader.chances(game, 0, [read.offer])[0] >= MIN_CHANCE
    assert reader.chances(game, 0, [unread.offer])[0] < MIN_CHANCE
    assert read.offerer_gain <= unread.offerer_gain


def test_the_consolidating_hard_player_composes_it_and_the_hard_player_does_not() -> None:
    def env_at():
        env = raw_env(num_players=4)
        env.reset(seed=5)
        env.show_game(_game())
        return env

    env = env_at()
    player = LearnedPlayer(DEFAULT_CHECKPOINT, value=JUDGE, deal_rollouts=0, consolidate=True)
    expected = consolidation_offer(env.game, JUDGE, player.answer_reader(env)).offer
    assert_composes(player, env, 0, expected)
    # the hard player reads no answers and keeps no consolidating slot
    hard, fresh = make_agent("hard"), env_at()
    hard.act(fresh, 0)
    assert not fresh.watchers and hard.seat_state(fresh.game, 0).aimed_turn == -1
    assert make_agent("hard-consolidating").consolidate and not hard.consolidate
