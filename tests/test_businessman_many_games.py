"""2,000 seeded random Businessman games, 400 at each table size from 2 to 6 players: every game
ends, raises nothing, conserves money, passes the whole-game check at its end, and saves to
JSON and back exactly at one random point and at its end.

The long run of the same checks (a million games) is ``bench.businessman_random_games``; this
is its seeded sample, and its resumable shards are checked below.
"""

from __future__ import annotations

import json

import pytest

from bench.businessman_random_games import play_checked, players_for, run_shard, shard_range

GAMES_PER_SIZE = 400


@pytest.mark.parametrize("players", range(2, 7))
def test_hundreds_of_seeded_random_games_per_table_size(players: int) -> None:
    total = 0
    for seed in range(10_000, 10_000 + GAMES_PER_SIZE):
        total += play_checked(players, seed)
    assert total > GAMES_PER_SIZE * 100  # real games, not ones that stopped at once


def test_the_long_run_resumes_where_it_stopped_and_splits_seeds_evenly(tmp_path) -> None:
    assert [players_for(s) for s in range(7)] == [2, 3, 4, 5, 6, 2, 3]
    assert list(shard_range(10, 0, 3)) == [0, 1, 2]
    assert list(shard_range(10, 2, 3)) == [6, 7, 8, 9]
    first = run_shard(tmp_path, 12, 1, 2, save_every=2, log=lambda _: None)
    assert (first["first"], first["end"], first["next"], first["games"]) == (6, 12, 12, 6)
    assert first["failures"] == [] and first["decisions"] > 6 * 100
    saved = json.loads((tmp_path / "shard-1-of-2.json").read_text())
    assert saved["decisions"] == first["decisions"]
    # Stopped after three games: the next run plays only the other three.
    saved.update(next=9, games=3, decisions=0)
    (tmp_path / "shard-1-of-2.json").write_text(json.dumps(saved))
    again = run_shard(tmp_path, 12, 1, 2, save_every=2, log=lambda _: None)
    assert again["games"] == 6 and again["next"] == 12
    assert again["decisions"] == sum(play_checked(players_for(s), s) for s in (9, 10, 11))
    with pytest.raises(SystemExit, match="use the --games it was started with"):
        run_shard(tmp_path, 14, 1, 2, log=lambda _: None)
