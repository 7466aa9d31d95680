"""Whole games of one outside player, shared by its tests: copies of it through the environment,
and the arena's engine game beside a level checked against the environment's game."""

from __future__ import annotations

from collections.abc import Callable

from byapar_agents import make_agent, play_through_env
from byapar_agents.base import EnginePlayer
from byapar_env.byapar_v0 import raw_env
from byapar_harness.arena import ArenaConfig, game_seed, play_game, seat_game


def play_copies(make: Callable[[], EnginePlayer], seats: int, seed: int) -> tuple[list[str], int]:
    """The log and decision count of a game of ``seats`` fresh players from ``make``, seat ``s``
    seeded ``seed + s``, played through the environment to its end."""
    env = raw_env(num_players=seats)
    env.reset(seed=seed)
    players = [make() for _ in range(seats)]
    for s, p in enumerate(players):
        p.reset(seed + s)
    decisions = play_through_env(env, players)
    assert env.game.is_over
    return env.game.log, decisions


def check_copies_replay(make: Callable[[], EnginePlayer]) -> list[str]:
    """Six copies from ``make`` through the environment: seed 7 gives the same game twice and
    seed 8 another; the log of seed 7's game."""
    first, second = play_copies(make, 6, 7), play_copies(make, 6, 7)
    assert first == second
    assert first[0] != play_copies(make, 6, 8)[0]
    return first[0]


def check_arena_game_is_environment_game(name: str, level: str, seats: int) -> None:
    """The arena's first two games of ``level`` and ``seats - 1`` of ``name`` are the same twice,
    and the environment, given the same players and seed, ends each with the same net worths,
    round and winners (an offer takes several steps there: decisions are not compared)."""
    config = ArenaConfig(players=(level,) + (name,) * (seats - 1))
    for index in range(2):
        fast = play_game(config, index)
        assert fast == play_game(config, index)
        kinds, _, seed = seat_game(config, index)
        assert seed == game_seed(config.seed, index)
        players = [make_agent(k) for k in kinds]
        for s, p in enumerate(players):
            p.reset(seed + s)
        env = raw_env(num_players=seats)
        env.reset(seed=seed)
        play_through_env(env, players)
        assert [env.game.net_worth(s) for s in range(seats)] == fast.net_worth
        assert env.game.round == fast.rounds and env.game.winners == [
            s for s in range(seats) if fast.shares[s] > 0]
