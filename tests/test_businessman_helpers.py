"""Helpers for Businessman's scenario tests: set up an exact position, force dice and cards."""

from __future__ import annotations

import pytest

from byapar_env.businessman import Game, IllegalActionError, Phase, Rules, actions, board
from byapar_env.businessman.state import T_END_TURN, T_LAND

RED, BLUE, GREEN, YELLOW = range(4)


def new(players: int = 2, **options) -> Game:
    """A fresh game, seat 0 (A) to play before rolling; every seat has an empty Exchange hand
    unless a test deals one (so that sessions open at the trade phase)."""
    game = Game(Rules(num_players=players, **options), seed=0)
    game.hands = [[] for _ in range(players)]
    return game


def put(game: Game, seat: int, cell: int, track: int | None = None) -> None:
    """Stand ``seat`` on ``cell`` without a landing effect."""
    game.position[seat] = cell
    game.track[seat] = board.track_of_cell(cell) if track is None else track


def turn_of(game: Game, seat: int) -> None:
    """Make it ``seat``'s turn, before rolling."""
    assert game.phase == Phase.PRE_ROLL and not game.tasks
    game.turn = game.current_player = seat
    game.trades_made = 0


def roll(game: Game, d1: int, d2: int, seat: int | None = None) -> None:
    """Force the next roll and roll it (as ``seat``'s turn when given)."""
    if seat is not None:
        turn_of(game, seat)
    game.force_dice((d1, d2))
    game.apply(actions.ROLL)


def land(game: Game, seat: int, cell: int) -> None:
    """``seat`` lands on ``cell`` in its own turn, as if a move ended there (no START)."""
    turn_of(game, seat)
    put(game, seat, cell)
    game.tasks = [(T_END_TURN,), (T_LAND,)]
    game._run()


def give(game: Game, seat: int, *cells: int, level: int = 0, mortgaged: bool = False) -> None:
    for c in cells:
        game.owner[c] = seat
        game.level[c] = level
        game.mortgaged[c] = mortgaged
        game.pledge_lap[c] = game.laps[seat] if mortgaged else -1


def set_hand(game: Game, seat: int, *codes: str) -> None:
    game.hands[seat] = sorted(board.exchange_kind(c) for c in codes)


def slot(game: Game, seat: int, code: str) -> int:
    return game.hands[seat].index(board.exchange_kind(code))


def skip_session(game: Game) -> None:
    """Play no card (if asked) and end the session."""
    if game.phase == Phase.EXCHANGE_CARD:
        game.apply(actions.SKIP_CARD)
    assert game.phase == Phase.EXCHANGE_TRADE
    game.apply(actions.END_SESSION)


def assert_illegal(game: Game, action: actions.Action) -> None:
    """``action`` is masked: refused with IllegalActionError, the game unchanged."""
    before = game.to_json()
    assert action not in game.legal_actions()
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.to_json() == before


def deuce_at_the_exchange() -> Game:
    """Four seats: seat 0 at the Exchange holds one Deuce (a large-deck DOUBLE); seats 1 to 3
    hold six YELLOW shares each (one of each colour dealt, five more), seat 0 one of each."""
    game = new(4)
    set_hand(game, 0, "L-DOUBLE")
    for s in (1, 2, 3):
        game.shares[s][YELLOW] += 5
        game.supply[YELLOW] -= 5
    land(game, 0, 10)
    assert game.phase == Phase.EXCHANGE_CARD
    return game
