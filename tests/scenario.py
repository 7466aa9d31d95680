"""Helpers for scenario tests: set up an exact position, force dice and cards, then play."""

from __future__ import annotations

import pytest

from byapar_agents.base import EnginePlayer
from byapar_env.engine import Game, IllegalActionError, Phase, Rules, actions
from byapar_env.engine.board import square_by_name


def sq(name: str) -> int:
    """The square index of a place or square by name, e.g. ``sq("Pokhara") == 26``."""
    return square_by_name(name).index


def new_game(players: int = 2, seed: int = 0, **options) -> Game:
    """A fresh game whose turn is seat 0's, before rolling."""
    return Game(Rules(num_players=players, **options), seed=seed)


def give(game: Game, seat: int, *names: str, buildings: int = 0, mortgaged: bool = False) -> None:
    """Hand places to ``seat`` directly (no money moves), with buildings or a mortgage."""
    for name in names:
        s = sq(name)
        game.owner[s] = seat
        game.buildings[s] = buildings
        game.mortgaged[s] = mortgaged


def roll(game: Game, d1: int, d2: int) -> None:
    """Force the next roll to ``d1``+``d2`` and roll it (the current player must be able to)."""
    game.force_dice((d1, d2))
    game.apply(actions.ROLL)


def owing_rent_on_pokhara() -> Game:
    """A two-seat game where seat 0, holding Kathmandu, Jumla and Bus park with Rs 100, has
    just landed on Pokhara (seat 1's) and owes more rent than it holds: it must raise cash."""
    game = new_game(2)
    give(game, 0, "Kathmandu", "Jumla", "Bus park")
    game.cash[0] = 100
    game.owner[sq("Pokhara")] = 1
    game.position[0] = (sq("Pokhara") - 5) % 36
    roll(game, 2, 3)
    return game


def landed_on(name: str, cash: int, players: int = 3, seed: int = 0) -> Game:
    """A new game where seat 0, with ``cash``, has rolled 3+4 onto the unowned place ``name``
    and is asked whether to buy it."""
    game = new_game(players, seed)
    game.cash[0] = cash
    game.position[0] = (sq(name) - 7) % 36
    roll(game, 3, 4)
    assert game.phase == Phase.BUY
    return game


def raise_cash_moves(player: EnginePlayer, game: Game) -> list[actions.Action]:
    """What ``player`` chooses, one decision after another, while the seat to play raises cash;
    each applied, until the debt is met (or the seat is out)."""
    taken = []
    while game.phase == Phase.RAISE_CASH:
        action = player.choose(game, game.current_player, game.legal_actions())
        taken.append(action)
        game.apply(action)
    return taken


def put(game: Game, seat: int, name_or_square: str | int) -> None:
    """Stand ``seat`` on a square."""
    s = name_or_square if isinstance(name_or_square, int) else sq(name_or_square)
    game.position[seat] = s


def assert_illegal(game: Game, action: actions.Action) -> None:
    """``action`` raises IllegalActionError and leaves the whole game unchanged."""
    before = game.to_json()
    assert not game.is_legal(action)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.to_json() == before


def balance_money(game: Game) -> Game:
    """A position set up by hand (cash written directly) made to add up as play would have it:
    the difference booked as money the bank received or paid out, so that a save of it loads
    (``Game.check_loaded``). The seats' cash is left as set."""
    expected = game.num_players * game.rules.starting_cash + game.bank_paid - game.bank_received
    gap = sum(game.cash) - expected
    if gap > 0:
        game.bank_paid += gap
    else:
        game.bank_received -= gap
    return game
