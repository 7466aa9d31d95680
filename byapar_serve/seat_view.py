"""A ``raw_env`` showing a given engine game, for players that read observations and masks.

Building an environment and loading a saved state (JSON both ways) for every request would
cost more than the decision itself. Instead each thread keeps one environment per table size
and points it at the request's game: the game, no trade draft, the pre-roll counter the caller
gives, and the turn stamp that tells the environment the counter belongs to this turn. The
environment is built with ``skip_trivial=False``, so stepping it through trade-composition ids
never plays an engine action by itself.

It sets ``raw_env._turn_stamp``, the one private field this needs; a public
``raw_env.set_game(game, pre_roll_actions)`` would replace this module. ``tests/test_serve.py``
checks that the view observes exactly what a live environment observes.
"""

from __future__ import annotations

import threading

from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import NO_DECISION_CAP, PRE_ROLL_CAP
from byapar_env.engine import Game
from byapar_env.habits import Habits

_LOCAL = threading.local()
# The view never ends a game on its own count: the caller owns the game.
_NO_DECISION_CAP = NO_DECISION_CAP


def _env_for(num_players: int) -> raw_env:
    envs = getattr(_LOCAL, "envs", None)
    if envs is None:
        envs = _LOCAL.envs = {}
    env = envs.get(num_players)
    if env is None:
        env = raw_env(num_players=num_players, skip_trivial=False,
                      max_pre_roll_actions=PRE_ROLL_CAP, max_decisions=_NO_DECISION_CAP)
        env.reset(seed=0)  # creates the per-agent bookkeeping that stepping needs
        envs[num_players] = env
    return env


def seat_view(game: Game, pre_roll_actions: int = 0, habits: Habits | None = None) -> raw_env:
    """This thread's environment for ``game.num_players`` seats, now showing ``game`` with
    ``pre_roll_actions`` already taken this turn and the seats' ``habits`` so far (a table's;
    none given: zeros, all a lone game shows); ``game.current_player`` decides. Valid until the
    thread's next call for the same table size. The view steps only trade-composition ids,
    which apply no engine action, so it never changes ``habits``."""
    env = _env_for(game.num_players)
    env.game = game
    env.habits = habits if habits is not None else Habits(game.num_players)
    env.draft = None
    env.pre_roll_actions = pre_roll_actions
    env._turn_stamp = game.turn_count  # the counter is this turn's, not a stale one
    env.decisions = 0
    agent = env.possible_agents[game.current_player]
    env.agent_selection = agent
    env.terminations[agent] = env.truncations[agent] = False
    env.game_changed()
    return env
