"""``bench.money_flows``: the figures read from a game's log and end, and the script's refusals."""

from __future__ import annotations

import pytest

from bench.money_flows import main, seat_figures
from byapar_env.engine import Game, Rules, board


def test_seat_figures_read_rent_mortgages_and_groups() -> None:
    game = Game(Rules(num_players=3), seed=0)
    game.log = ["seat 0 pays Rs 1,200 to seat 2", "seat 1 pays Rs 80 to seat 2",
                "seat 2 pays Rs 500 to the bank", "seat 0 mortgages Mahendranagar",
                "seat 0 pays off the mortgage on Mahendranagar", "seat 0 mortgages Mahendranagar"]
    group = next(iter(board.GROUPS.values()))
    for square in group:
        game.owner[square] = 1
    rows = seat_figures(game)
    assert rows[2]["rent received"] == 1_280 and rows[2]["rent paid"] == 0
    assert rows[0]["rent paid"] == 1_200 and rows[1]["rent paid"] == 80
    assert rows[0]["mortgages"] == 2 and rows[0]["mortgages paid off"] == 1
    assert [r["groups held"] for r in rows] == [0, 1, 0]
    assert [r["cash"] for r in rows] == game.cash


def test_the_script_runs_and_refuses_what_it_cannot_do(capsys) -> None:
    assert main(["--opponent", "easy", "--seats", "2", "--games", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hard and 1 x easy: 1 games from seed 2000, a game"
    assert out[2].startswith("rent received")
    with pytest.raises(SystemExit):
        main(["--player", "medium", "--undo-moves"])
    assert "--undo-moves is the hard player's" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--opponent", "grandmaster"])
    assert "unknown player 'grandmaster'" in capsys.readouterr().err
