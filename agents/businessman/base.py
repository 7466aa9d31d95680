"""The interface of Businessman's computer players, and the loop that plays a table of them.

A player answers ``choose(game, seat, legal)`` with one of ``legal`` (the engine's
``Game.legal_actions()`` for ``seat``, the seat that must decide). Players read only what their
seat may know: the public state and their own Exchange hand, never another seat's hand or a
deck's order (``tests/test_businessman_players.py`` checks that another seat's hand changes no
choice). ``act(env, seat)`` seats the same player in ``businessman_v0``: the id of its choice.
"""

from __future__ import annotations

from byapar_env.businessman import ACTION_ID, Action, Game
from byapar_env.driver import NO_DECISION_CAP


class BusinessmanPlayer:
    """Base of Businessman's players. Subclasses implement ``choose``."""

    name = "businessman"

    def reset(self, seed: int | None = None) -> None:
        """Called at the start of each game."""

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        raise NotImplementedError

    def act(self, env, seat: int) -> int:
        """The environment's side: the id of this player's choice in ``env.game``."""
        game = env.game
        return ACTION_ID[self.choose(game, seat, game.legal_actions())]


def play_game(game: Game, players: list[BusinessmanPlayer], skip_trivial: bool = True,
              max_decisions: int = NO_DECISION_CAP, on_decision=None) -> int:
    """Play ``game`` to its end, one player per seat, as ``businessman_v0`` would with the same
    ``skip_trivial``: a decision with a single legal action is taken without asking. Every
    choice is checked by the engine (an illegal one raises). ``on_decision(game, seat, action)``
    sees each asked choice before it is taken. Returns the decisions taken, asked or not."""
    decisions = 0
    while not game.is_over and decisions < max_decisions:
        legal = game.legal_actions()
        seat = game.current_player
        if len(legal) == 1 and skip_trivial:
            action = legal[0]
        else:
            action = players[seat].choose(game, seat, legal)
            if on_decision is not None:
                on_decision(game, seat, action)
        game.apply(action)
        decisions += 1
    return decisions
