"""2,000 seeded random Businessman games, 400 at each table size from 2 to 6 players: every game
ends, raises nothing, conserves money, passes the whole-game check at its end, and saves to
JSON and back exactly at one random point and at its end.

The long run of the same checks (up to a million games) is a script outside the test suite;
this is its seeded sample.
"""

from __future__ import annotations

import random

import pytest

from byapar_env.businessman import Game, Rules
from byapar_env.businessman import board as B
from byapar_env.businessman.state import check_whole

GAMES_PER_SIZE = 400
MAX_DECISIONS = 100_000  # a random game takes about 1,600 decisions at 4 players
_START = B.FIGURES.starting_cash


def play_checked(players: int, seed: int) -> int:
    """One random game with its checks; the decisions it took."""
    game = Game(Rules(num_players=players), seed=seed)
    rng = random.Random(seed)
    save_at = rng.randrange(1, 400)
    decisions = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        decisions += 1
        if decisions == save_at:
            text = game.to_json()
            assert Game.from_json(text).to_json() == text, (players, seed, decisions)
        assert decisions < MAX_DECISIONS, f"game {players}/{seed} did not end"
    assert sum(game.cash) == players * _START + game.bank_paid - game.bank_received
    assert min(game.cash) >= 0 and game.winners
    check_whole(game)
    text = game.to_json()
    assert Game.from_json(text).to_json() == text
    return decisions


@pytest.mark.parametrize("players", range(2, 7))
def test_hundreds_of_seeded_random_games_per_table_size(players: int) -> None:
    total = 0
    for seed in range(10_000, 10_000 + GAMES_PER_SIZE):
        total += play_checked(players, seed)
    assert total > GAMES_PER_SIZE * 100  # real games, not ones that stopped at once
