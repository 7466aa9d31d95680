"""Deals played to the end (``bench.deal_outcomes``): the offers put to their targets' own
players, plays that repeat from their seeds, a run that resumes from its files, and the figures
per kind of deal."""

from __future__ import annotations

import pytest
from scenario import give, new_game, sq
from stubs import JudgedValue, group_value

from bench import deal_outcomes
from bench.deal_outcomes import (
    KINDS,
    DealRow,
    QuietTurn,
    Tables,
    accepted_offers,
    played_out,
    read_rows,
    run_game,
    summary,
)
from byapar_agents.aimed_offers import wide_offers
from byapar_agents.deals import MIN_GAIN, appraise, made
from byapar_agents.medium import MediumPlayer
from byapar_agents.value import shipped_value
from byapar_env.engine import actions

JUDGE = JudgedValue(group_value)
SURKHET = sq("Surkhet")


def _table():
    """Seat 0 holds Jumla and Dhangadhi, seat 1 Surkhet (the rest of seat 0's Karnali) and
    Mahendranagar, seat 2 Dadeldhura; seat 0 to play, before rolling."""
    game = new_game(4)
    give(game, 0, "Jumla", "Dhangadhi")
    give(game, 1, "Surkhet", "Mahendranagar")
    give(game, 2, "Dadeldhura")
    return game


def test_the_offers_kept_are_the_best_that_their_targets_take() -> None:
    game = _table()
    before = game.to_json()
    players = [None, MediumPlayer(), MediumPlayer(), MediumPlayer()]
    taken = accepted_offers(game, players, JUDGE, top=3)
    assert game.to_json() == before  # asking moved nothing
    gaining = sorted((a for a in appraise(game, wide_offers(game, 0), JUDGE)
                      if a.offerer_gain >= MIN_GAIN), key=lambda a: -a.offerer_gain)

    def takes(a) -> bool:
        pending = made(game, a.offer)
        return MediumPlayer().choose(pending, a.target, pending.legal_actions()) == (
            actions.ACCEPT_TRADE)

    assert [a.offer for a in taken] == [a.offer for a in gaining if takes(a)][:3]
    # Eleven offers for Surkhet (which completes seat 0's Karnali) gain seat 0 more by the stub
    # judge, and medium refuses each; it sells for Rs 5,000, and nothing else gains seat 0.
    assert [a.offer for a in taken] == [actions.offer_trade(1, (), (SURKHET,), 5000)]
    assert len(gaining) == 12 and taken[0].completes_offerer


def test_plays_to_the_end_repeat_from_their_seed() -> None:
    game = _table()
    tables = Tables("medium", 4, 0, shipped_value())
    offer = actions.offer_trade(1, (), (SURKHET,), 3000)
    once = played_out(game, tables, offer, 3, seed=11)
    assert once == played_out(game, tables, offer, 3, seed=11)
    assert len(once) == 3 and all(0 <= s <= 1 for s in once)
    assert game.owner[SURKHET] == 1  # the root is played on copies


def test_dealer_rivals_are_the_watched_seat_s_kind() -> None:
    tables = Tables("dealer", 3, 1, shipped_value())
    players = tables.players(5)
    assert [type(p).__name__ for p in players] == ["DealingRolloutPlayer"] * 3
    quiet = tables.players(5, quiet_turn=9)
    assert isinstance(quiet[1], QuietTurn) and quiet[1].turn == 9
    assert [type(p).__name__ for p in (quiet[0], quiet[2])] == ["DealingRolloutPlayer"] * 2


def _row(kind: str, network: float, with_deal, without) -> DealRow:
    seat, target = {KINDS[0]: (True, False), KINDS[1]: (False, True),
                    KINDS[2]: (True, True), KINDS[3]: (False, False)}[kind]
    return DealRow("medium", 4, 3, "an offer", network, seat, target, tuple(with_deal),
                   tuple(without))


def test_the_figures_per_kind_of_deal() -> None:
    rows = [_row(KINDS[0], 0.30, (1, 1, 0, 1), (0, 1, 0, 0)),  # played out +0.50
            _row(KINDS[0], 0.10, (0, 0, 0, 0), (0, 0, 0, 0)),  # played out 0
            _row(KINDS[3], 0.05, (0, 0, 1, 0), (0, 1, 1, 0))]  # played out -0.25
    figures = summary(rows)
    assert set(figures) == {KINDS[0], KINDS[3]}
    n, network, played, se = figures[KINDS[0]]
    assert (n, network, played) == (2, pytest.approx(0.20), pytest.approx(0.25))
    assert se == pytest.approx(0.25)  # the standard deviation of (0.5, 0) over the root of 2
    assert figures[KINDS[3]] == (1, pytest.approx(0.05), pytest.approx(-0.25), 0.0)


def test_a_run_resumes_from_the_files_of_its_games(tmp_path, monkeypatch) -> None:
    job = (tmp_path, "medium", 4, 3, 0, 0.5, 2, 2, "wide")
    path = run_game(job)
    rows = read_rows(path)
    assert all(len(r.with_deal) == len(r.without) == 2 for r in rows)
    assert all(r.network_gain >= MIN_GAIN for r in rows)

    def replayed(*args):
        raise AssertionError("a game whose file is there was played again")

    monkeypatch.setattr(deal_outcomes, "labelled_game", replayed)
    assert read_rows(run_game(job)) == rows


def test_bad_arguments_are_refused(tmp_path, capsys) -> None:
    for args, words in ((["--pairs", "0"], "--pairs must be at least 1, got 0"),
                        (["--sample", "1.5"], "--sample must be above 0 and at most 1"),
                        (["--rivals", "nobody"], "unknown player 'nobody'")):
        with pytest.raises(SystemExit):
            deal_outcomes.main([*args, "--run-dir", str(tmp_path)])
        assert words in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_the_script_prints_its_figures(tmp_path, capsys) -> None:
    figures = deal_outcomes.main(["--games", "2", "--pairs", "1", "--workers", "1",
                                  "--rivals", "outside-chrisaacson-trading",
                                  "--run-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert "game 2 of 2: " in out and "3 x outside-chrisaacson-trading, 2 games of seed 56" in out
    assert figures and all(f"{kind:30s} offers" in out for kind in figures)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "outside-chrisaacson-trading-4-56-0.jsonl", "outside-chrisaacson-trading-4-56-1.jsonl"]


class _Says:
    """A stub player that always makes one move."""

    def __init__(self, move) -> None:
        self.move, self.seeds = move, []

    def reset(self, seed=None) -> None:
        self.seeds.append(seed)

    def choose(self, game, seat, legal):
        return self.move


def test_a_quiet_turn_is_the_policy_s_before_rolling_and_the_dealer_s_after() -> None:
    game = _table()
    offer = actions.offer_trade(1, (), (SURKHET,), 3000)
    quiet = QuietTurn(_Says(offer), _Says(actions.ROLL), game.turn_count)
    quiet.reset(7)
    assert (quiet.dealer.seeds, quiet.policy.seeds) == ([7], [7])
    assert quiet.choose(game, 0, game.legal_actions()) == actions.ROLL
    game.turn_count += 1  # the next turn: the dealer plays again
    assert quiet.choose(game, 0, game.legal_actions()) == offer


def test_the_deal_module_s_proposals_are_asked_in_its_order(monkeypatch) -> None:
    game = _table()
    refused = actions.offer_trade(1, (), (SURKHET,), 300)
    taken = actions.offer_trade(1, (), (SURKHET,), 5000)
    proposals = appraise(game, [refused, taken], JUDGE)
    monkeypatch.setattr(deal_outcomes, "ranked_offers", lambda g, v: proposals)
    players = [None, MediumPlayer(), MediumPlayer(), MediumPlayer()]
    assert [a.offer for a in accepted_offers(game, players, JUDGE, 2, "module")] == [taken]
    with pytest.raises(ValueError, match="source must be one of wide, module, got 'deals'"):
        accepted_offers(game, players, JUDGE, 2, "deals")
