"""The difficulty ladder: its levels, who plays each, lapses drawn from the seed, legal play."""

from __future__ import annotations

import pytest

from byapar_agents import play_through_env
from byapar_agents.easy import EasyPlayer
from byapar_agents.expert import ExpertPlayer
from byapar_agents.hard import LearnedPlayer
from byapar_agents.ladder import (
    LADDER,
    LADDER_TEXT,
    LapsingEnginePlayer,
    LapsingPlayer,
    lapsing,
    make_level,
)
from byapar_agents.medium import MediumPlayer
from byapar_env.driver import SeatDriver
from byapar_env.engine import Game, Rules
from byapar_harness.arena import ArenaConfig, table_env


def test_the_levels_run_from_a_beginner_to_the_expert() -> None:
    assert LADDER == ("beginner", "novice", "casual", "club", "strong", "master", "expert")
    assert set(LADDER_TEXT) == set(LADDER)
    assert isinstance(make_level("beginner"), EasyPlayer)
    assert isinstance(make_level("master"), LearnedPlayer)
    assert isinstance(make_level("expert", 0, budget_ms=50), ExpertPlayer)
    novice, casual, club, strong = (make_level(n, 1)
                                    for n in ("novice", "casual", "club", "strong"))
    for level in (novice, casual):
        assert (type(level.sound), type(level.habit)) == (MediumPlayer, EasyPlayer)
        assert isinstance(level, LapsingEnginePlayer)
    for level in (club, strong):
        assert (type(level.sound), type(level.habit)) == (LearnedPlayer, MediumPlayer)
        assert type(level) is LapsingPlayer  # a learned player: through the environment
    # the shares that space the ratings evenly (docs/serve.md): lapses shrink up the ladder
    assert [p.lapse for p in (novice, casual, club, strong)] == [4 / 5, 9 / 20, 17 / 20, 3 / 20]
    with pytest.raises(ValueError, match="unknown ladder level"):
        make_level("grandmaster")
    with pytest.raises(ValueError, match="lapse"):
        lapsing("x", MediumPlayer(), EasyPlayer(), 1.5)


def _engine_game(player: LapsingEnginePlayer, seed: int) -> list:
    driver = SeatDriver.for_game(Game(Rules(num_players=3), seed=seed), max_decisions=10**9)
    game = driver.game
    others = [MediumPlayer(), MediumPlayer()]
    choices = []
    while game.round < 20 and (legal := driver.engine_choices()):
        seat = game.current_player
        if seat == 0:
            action = player.choose(game, seat, legal)
            choices.append(action)
        else:
            action = others[seat - 1].choose(game, seat, legal)
        driver.take_engine(action)
    return choices


def test_lapses_are_drawn_from_the_seed_at_about_their_share() -> None:
    player = make_level("novice", 5)
    first = _engine_game(player, 3)
    share = player.lapses / player.decisions
    player.reset(5)
    assert _engine_game(player, 3) == first  # same seed, same game
    assert player.decisions > 30 and abs(share - 4 / 5) < 0.15
    never = lapsing("x", MediumPlayer(), EasyPlayer(), 0.0)
    never.reset(5)
    plain = MediumPlayer()
    plain.reset(5)
    assert _engine_game(never, 3) == _engine_game(_Wrapped(plain), 3)


class _Wrapped:
    def __init__(self, player) -> None:
        self.player = player

    def choose(self, game, seat, legal):
        return self.player.choose(game, seat, legal)


@pytest.mark.parametrize("lineup", [("strong", "novice", "casual"),
                                    ("beginner", "club", "master", "strong")])
def test_ladder_levels_play_whole_games_through_the_environment(lineup) -> None:
    players = [make_level(n, 10 + s) for s, n in enumerate(lineup)]
    env = table_env(ArenaConfig(players=lineup, rounds=12), 4)
    assert play_through_env(env, players) > 0 and env.game.is_over
