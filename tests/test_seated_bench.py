"""``bench.seated``: the watched seat follows the first lineup position's rotation,
also when every seat is the same kind of player, and its share is that seat's; its check of a
lineup's opponents names what is wrong."""

from __future__ import annotations

import pytest

from bench.seated import check_opponents, hero_share
from byapar_harness.arena import ArenaConfig, play_game


def test_the_watched_seat_rotates_when_the_lineup_repeats_one_name() -> None:
    seen: list[int] = []

    def adapt(players: list, me: int, game_seed: int) -> list:
        seen.append(me)
        return players

    shares = [hero_share(("random",) * 4, i, 5, adapt) for i in range(4)]
    assert seen == [0, 3, 2, 1]  # the arena moves each lineup position one seat back a game
    arena = [play_game(ArenaConfig(players=("random",) * 4, games=4, seed=5), i) for i in range(4)]
    assert shares == [game.shares[me] for game, me in zip(arena, seen, strict=True)]


def test_check_opponents_names_what_is_wrong() -> None:
    check_opponents(["medium", "pop-4", "medium"])
    with pytest.raises(ValueError, match="must name 1 to 5 players, got 0"):
        check_opponents([])
    with pytest.raises(ValueError, match="must name 1 to 5 players, got 6"):
        check_opponents(["easy"] * 6)
    with pytest.raises(ValueError, match="nobody-at-all"):
        check_opponents(["easy", "nobody-at-all"])
