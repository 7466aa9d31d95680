"""The Businessman gauntlet report (byapar_harness/businessman_report.py) and the shared Wilson
interval (byapar_env/stats.py)."""

from __future__ import annotations

import json

import pytest

from byapar_agents.businessman import make_agent
from byapar_agents.businessman.base import play_game
from byapar_env.businessman import Game, Rules
from byapar_env.stats import wilson
from byapar_harness import businessman_report as report


def test_wilson_interval() -> None:
    assert wilson(0, 0) == (0.0, 0.0)
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 20)
    assert low == 0.0 and 0 < high < 0.2
    low, high = wilson(20, 20)
    assert high == 1.0 and 0.8 < low < 1.0


def _replayed_wins(hero: str, field: str, seats: int, games: int, rounds: int,
                   seed: int) -> float:
    """The hero's wins recounted from the games themselves: its seat moves round the table,
    a shared win counts 1/k."""
    wins = 0.0
    for i in range(games):
        hero_seat = i % seats
        players = [make_agent(hero if s == hero_seat else field, (seed + i) * 8 + s)
                   for s in range(seats)]
        game = Game(Rules(num_players=seats, max_rounds=rounds), seed=seed + i)
        play_game(game, players)
        if hero_seat in game.winners:
            wins += 1 / len(game.winners)
    return wins


@pytest.mark.parametrize(("hero", "field", "seats"), [("medium", "easy", 2),
                                                     ("random", "medium", 3)])
def test_a_row_counts_the_heros_wins_and_repeats(hero: str, field: str, seats: int) -> None:
    row = report.play_row(hero, field, seats, games=6, rounds=6, seed=11)
    assert row == report.play_row(hero, field, seats, games=6, rounds=6, seed=11)
    assert row.wins == pytest.approx(_replayed_wins(hero, field, seats, 6, 6, 11))
    assert row.win_rate == pytest.approx(row.wins / 6)
    assert (row.low, row.high) == wilson(row.wins, 6)
    assert row.low <= row.win_rate <= row.high
    assert row.fair == pytest.approx(1 / seats) and row.ratio == pytest.approx(
        row.win_rate * seats)
    assert row.decisions_per_game > 0


def test_the_command_prints_every_pairing_and_writes_json(tmp_path, capsys) -> None:
    out = tmp_path / "rows.json"
    rows = report.main(["--games", "2", "--seats", "2", "--rounds", "3", "--json", str(out)])
    assert [(r.hero, r.field) for r in rows] == [
        (h, f) for h in report.LEVELS for f in report.LEVELS if f != h]
    text = capsys.readouterr().out
    assert text.count("\n| ") == 1 + len(rows)  # the header row, then one a pairing
    saved = json.loads(out.read_text())
    assert saved["games"] == 2 and len(saved["rows"]) == len(rows)


def test_the_command_refuses_bad_tables() -> None:
    with pytest.raises(SystemExit):
        report.main(["--seats", "1"])
    with pytest.raises(SystemExit):
        report.main(["--seats", "two"])
