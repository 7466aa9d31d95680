"""A table's state as the API returns it: the engine's saved game plus what a client needs to
show it and to act (the legal actions with ids and names, bids, trade options, each player's
cash and net worth)."""

from __future__ import annotations

import random
import secrets
from typing import TYPE_CHECKING

from byapar_env.driver import PRE_ROLL_CAP
from byapar_env.engine import Game
from byapar_env.engine.serialize import game_to_dict

from .legal import bid_range, legal_entries, offer_view, trade_options
from .limits import API_VERSION
from .roster import PERSON

if TYPE_CHECKING:  # a type only (tables imports saves, which imports this module)
    from .tables import Table


def game_snapshot(game: Game, hide_chance: bool = False) -> dict:
    """The engine's saved game (``game_to_dict``: values of the caller's own, so a state kept
    by a client does not change as play goes on). With ``hide_chance`` (seats that belong to
    someone) what no seat may know is drawn afresh: the dice generator and the order of the
    card decks (each deck keeps its cards), so that the save still loads and plays, but tells
    nothing of the dice and cards to come."""
    data = game_to_dict(game)
    if hide_chance:
        fresh = random.Random(secrets.randbits(64))
        version, internal, gauss = fresh.getstate()
        data["rng"] = [version, list(internal), gauss]
        data["seed"] = secrets.randbits(31)
        for cards in data["decks"].values():
            fresh.shuffle(cards)
    return data


def players_view(game: Game) -> list[dict]:
    return [{"seat": s, "cash": game.cash[s], "net_worth": game.net_worth(s),
             "bankrupt": game.bankrupt[s], "in_jail": game.in_jail[s],
             "position": game.position[s], "bail_cards": len(game.bail_cards[s]),
             "places": game.places_of(s)} for s in range(game.num_players)]


def status_view(game: Game, pre_roll_actions: int) -> dict:
    return {"phase": game.phase.name, "current_player": game.current_player,
            "is_over": game.is_over, "winners": list(game.winners), "round": game.round,
            "round_limit": game.rules.round_limit, "turn_count": game.turn_count,
            "dice": list(game.dice), "debt_owed": game.debt_owed(),
            "pre_roll_actions": pre_roll_actions, "pre_roll_cap": PRE_ROLL_CAP}


def _seat(table: Table, s: int) -> dict:
    name = table.seats[s]
    out = {"seat": s, "player": name, "person": name == PERSON}
    if name == PERSON:  # the computer seats whose trade offers this person does not get
        out["muted"] = sorted(c for p, c in table.mutes if p == s)
    return out


def table_state(table: Table, moves: list[dict] | None = None,
                hide_chance: bool = False) -> dict:
    game = table.game
    pre_roll = table.pre_roll_actions
    state = {
        "api_version": API_VERSION,
        "id": table.id,
        "version": table.version,
        "seats": [_seat(table, s) for s in range(len(table.seats))],
        "to_move": table.to_move(),
        "status": status_view(game, pre_roll),
        "players": players_view(game),
        "legal": legal_entries(game, pre_roll),
        "bids": bid_range(game),
        "trade": trade_options(game, pre_roll),
        "offer": offer_view(game),
        "game": game_snapshot(game, hide_chance),
        "game_name": "byapar",  # which game: "game" is Byapar's saved game, Businessman's name
    }
    if moves is not None:
        state["moves"] = moves
    return state
