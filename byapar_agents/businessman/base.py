"""The interface of Businessman's computer players, and the loop that plays a table of them.

A player answers ``choose(game, seat, legal)`` with one of ``legal`` (the engine's
``Game.legal_actions()`` for ``seat``, the seat that must decide, less what the per-turn caps of
``businessman_v0`` take away: ``TurnCaps``). Players read only what their
seat may know: the public state and their own Exchange hand, never another seat's hand or a
deck's order (``tests/test_businessman_players.py`` checks that another seat's hand changes no
choice). ``act(env, seat)`` seats the same player in ``businessman_v0``: the id of its choice.
"""

from __future__ import annotations

from collections.abc import Callable

from byapar_env.businessman import ACTION_ID, Action, Game
from byapar_env.businessman_v0 import TurnCaps
from byapar_env.driver import NO_DECISION_CAP, PRE_ROLL_CAP, TRADE_STEP_CAP


class BusinessmanPlayer:
    """Base of Businessman's players. Subclasses implement ``choose``."""

    name = "businessman"

    def reset(self, seed: int | None = None) -> None:
        """Called at the start of each game."""

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        raise NotImplementedError

    def act(self, env, seat: int) -> int:
        """The environment's side: the id of this player's choice in ``env.game``, chosen from
        the environment's legal actions (caps applied)."""
        return ACTION_ID[self.choose(env.game, seat, env.legal_engine_actions())]


def play_game(game: Game, players: list[BusinessmanPlayer], skip_trivial: bool = True,
              max_decisions: int = NO_DECISION_CAP,
              on_decision: Callable[[Game, int, Action], None] | None = None,
              max_pre_roll_actions: int = PRE_ROLL_CAP,
              max_trade_steps: int = TRADE_STEP_CAP) -> int:
    """Play ``game`` to its end, one player per seat, as ``businessman_v0`` would with the same
    options: the legal actions are the engine's less what the per-turn caps take away
    (``TurnCaps``, counting from 0 in the turn under way), and with ``skip_trivial`` a decision
    with a single legal action is taken without asking. Every choice is checked (one the engine
    or a cap refuses raises ``IllegalActionError``). ``on_decision(game, seat, action)`` sees
    each asked choice before it is taken. Returns the decisions taken, asked or not. A bad cap
    raises ``RulesError`` naming it."""
    caps = TurnCaps(max_pre_roll_actions, max_trade_steps)
    caps.start(game)
    decisions = 0
    while not game.is_over and decisions < max_decisions:
        legal = caps.legal_actions(game)
        seat = game.current_player
        if len(legal) == 1 and skip_trivial:
            action = legal[0]
        else:
            action = players[seat].choose(game, seat, legal)
            if on_decision is not None:
                on_decision(game, seat, action)
        caps.apply(game, action)
        decisions += 1
    return decisions
