"""Playing a table of Byapar's players out: ``play_seated``, part of the face every game's
players module shows the harnesses (``byapar_env.games``).

A table of hand-written players that may sit at engine tables (``EnginePlayer.engine_tables``)
is played on the engine by the environment's own driver: the same game as through the
environment (the same seed, the same choices), several times faster. Any other table is played
through the environment (``play_through_env``).
"""

from __future__ import annotations

from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import NO_DECISION_CAP, SeatDriver
from byapar_env.engine import Game, Rules

from .base import EnginePlayer


def table_env(rules: Rules, seed: int) -> raw_env:
    """An environment of ``rules`` reset with ``seed``, played to the end (no decision cap)."""
    env = raw_env(num_players=rules.num_players, rounds=rules.rounds,
                  starting_cash=rules.starting_cash, auctions=rules.auctions,
                  max_decisions=NO_DECISION_CAP)
    env.reset(seed=seed)
    return env


def play_seated(rules: Rules, seed: int, players: list) -> tuple[Game, int]:
    """One game of ``rules`` and ``seed``, one player a seat, played to its end: the finished
    game and the decisions taken."""
    if all(isinstance(p, EnginePlayer) and p.engine_tables for p in players):
        driver = SeatDriver.for_game(Game(rules, seed=seed), max_decisions=NO_DECISION_CAP)
        game = driver.game
        decisions = 0
        while legal := driver.engine_choices():
            seat = game.current_player
            decisions += driver.take_engine(players[seat].choose(game, seat, legal))
        return game, decisions
    env = table_env(rules, seed)
    decisions = play_through_env(env, players)
    return env.game, decisions


def play_through_env(env: raw_env, players: list, on_decision=None) -> int:
    """Play a reset environment to the end, one player per seat; ``on_decision(env, seat,
    action)`` sees each choice before it is taken. Returns the number of decisions."""
    names = env.agent_name_mapping
    terminations, truncations = env.terminations, env.truncations
    decisions = 0
    while env.agents:
        agent = env.agent_selection
        if terminations[agent] or truncations[agent]:
            env.step(None)
            continue
        seat = names[agent]
        action = players[seat].act(env, seat)
        if on_decision is not None:
            on_decision(env, seat, action)
        env.step(action)
        decisions += 1
    return decisions


__all__ = ["play_seated", "play_through_env", "table_env"]
