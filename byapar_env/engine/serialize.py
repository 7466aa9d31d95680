"""A game as JSON text and back: an exact round trip, generator state and deck order included."""

from __future__ import annotations

import json
import random

from . import board as B
from .actions import Action, ActionKind
from .errors import GameStateError, RulesError
from .game import Auction, Game, Phase
from .rules import Rules

FORMAT = "byapar-game"
VERSION = 1


def game_to_dict(game: Game) -> dict:
    version, internal, gauss = game.rng.getstate()
    offer = None
    if game.offer is not None:
        seat, a = game.offer
        offer = {"seat": seat, "target": a.target, "give": list(a.give), "take": list(a.take),
                 "amount": a.amount}
    return {
        "format": FORMAT,
        "version": VERSION,
        "board": B.BOARD_HASH,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "rng": [version, list(internal), gauss],
        "cash": game.cash, "position": game.position, "in_jail": game.in_jail,
        "jail_misses": game.jail_misses, "bail_cards": game.bail_cards,
        "bankrupt": game.bankrupt, "owner": game.owner, "buildings": game.buildings,
        "mortgaged": game.mortgaged, "decks": game.decks,
        "turn": game.turn, "round": game.round, "turn_count": game.turn_count,
        "doubles": game.doubles, "roll_again": game.roll_again, "dice": list(game.dice),
        "offers_made": game.offers_made, "phase": int(game.phase),
        "current_player": game.current_player, "tasks": [list(t) for t in game.tasks],
        "pending_square": game.pending_square,
        "auction": game.auction.to_dict() if game.auction else None,
        "offer": offer, "debt": list(game.debt) if game.debt else None,
        "winners": game.winners, "forced_dice": [list(r) for r in game.forced_dice],
        "bank_paid": game.bank_paid, "bank_received": game.bank_received,
        "log": game.log,
    }


def game_to_json(game: Game) -> str:
    return json.dumps(game_to_dict(game), separators=(",", ":"))


def _check_list(data: dict, key: str, length: int) -> list:
    value = data[key]
    if not isinstance(value, list) or len(value) != length:
        raise GameStateError(f"saved game field {key!r} must be a list of {length} entries")
    return value


def game_from_dict(data: dict) -> Game:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameStateError(f"not a saved Byapar game (expected format {FORMAT!r})")
    if data.get("version") != VERSION:
        raise GameStateError(
            f"saved game version {data.get('version')!r} is not supported; this engine reads "
            f"version {VERSION}")
    if data.get("board") != B.BOARD_HASH:
        raise GameStateError(
            f"saved game was played on board {data.get('board')!r}, this engine has board "
            f"{B.BOARD_HASH!r}")
    try:
        rules = Rules.from_dict(data["rules"])
        n = rules.num_players
        game = Game.__new__(Game)
        game.rules = rules
        game.num_players = n
        game.seed = data["seed"]
        version, internal, gauss = data["rng"]
        game.rng = random.Random()
        game.rng.setstate((version, tuple(internal), gauss))
        for key in ("cash", "position", "in_jail", "jail_misses", "bail_cards", "bankrupt"):
            setattr(game, key, list(_check_list(data, key, n)))
        game.bail_cards = [list(c) for c in game.bail_cards]
        for key in ("owner", "buildings", "mortgaged"):
            setattr(game, key, list(_check_list(data, key, B.NUM_SQUARES)))
        decks = data["decks"]
        if sorted(decks) != sorted(B.DECKS):
            raise GameStateError(f"saved decks must be {list(B.DECKS)}")
        game.decks = {d: list(decks[d]) for d in B.DECKS}
        for key in ("turn", "round", "turn_count", "doubles", "offers_made", "current_player",
                    "pending_square", "bank_paid", "bank_received"):
            value = data[key]
            if not isinstance(value, int) or isinstance(value, bool):
                raise GameStateError(f"saved game field {key!r} must be a whole number")
            setattr(game, key, value)
        game.roll_again = bool(data["roll_again"])
        game.dice = tuple(data["dice"])
        game.phase = Phase(data["phase"])
        game.tasks = [tuple(t) for t in data["tasks"]]
        auction = data["auction"]
        game.auction = Auction(**auction) if auction else None
        offer = data["offer"]
        game.offer = None
        if offer:
            game.offer = (offer["seat"], Action(ActionKind.OFFER_TRADE, -1, offer["amount"],
                                                offer["target"], tuple(offer["give"]),
                                                tuple(offer["take"])))
        game.debt = tuple(data["debt"]) if data["debt"] else None
        game.winners = list(data["winners"])
        game.forced_dice = [tuple(r) for r in data["forced_dice"]]
        game.log = list(data["log"])
        game.version = 0
    except GameStateError:
        raise
    except (KeyError, TypeError, ValueError, RulesError) as exc:
        raise GameStateError(f"corrupt saved game: {exc!r}") from exc
    return game


def game_from_json(text: str) -> Game:
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise GameStateError(f"saved game is not valid JSON: {exc}") from exc
    return game_from_dict(data)
