"""Saved games in, checked; and the table save file (seats plus the engine's saved game).

The engine's ``game_from_dict`` refuses a save of another format, version or board, and one
with missing or mistyped fields, with ``GameStateError``. A save edited by hand can still pass
that and hold values no game reaches (an owner seat that does not exist, a hotel on a railway,
an auction with nobody bidding), which would fail deep inside a player later. ``load_game``
checks those too, and tries the game's own queries once, so that a damaged save is refused at
the door with a message, never half-way through a request.
"""

from __future__ import annotations

from byapar_env.engine import MAX_OFFERS_PER_TURN, Game, GameStateError, Phase
from byapar_env.engine import board as B
from byapar_env.engine.serialize import game_from_dict, game_from_json

from .errors import BadSavedGame
from .limits import MAX_ROUNDS, MAX_STARTING_CASH

TABLE_FORMAT = "byapar-table"
TABLE_VERSION = 1
_CARD_COUNT = {d: len(B.CARDS[d]) for d in B.DECKS}
_MAX_CASH = 10**12
_IS_PLACE = frozenset(B.PLACES)
_IS_CITY = frozenset(B.CITIES)


def _whole(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _each(values: list, ok, what: str, key: str) -> None:
    for i, v in enumerate(values):
        if not ok(v):
            raise GameStateError(f"saved game field {key!r}[{i}] must be {what}, got {v!r:.40}")


def _check_seats(game: Game) -> None:
    n = game.num_players
    _each(game.cash, lambda v: _whole(v, 0, _MAX_CASH), "a whole number of rupees from 0", "cash")
    _each(game.position, lambda v: _whole(v, 0, B.NUM_SQUARES - 1),
          f"a square from 0 to {B.NUM_SQUARES - 1}", "position")
    _each(game.in_jail, lambda v: type(v) is bool, "true or false", "in_jail")
    _each(game.bankrupt, lambda v: type(v) is bool, "true or false", "bankrupt")
    _each(game.jail_misses, lambda v: _whole(v, 0, B.JAIL_MAX_MISSES),
          f"a whole number from 0 to {B.JAIL_MAX_MISSES}", "jail_misses")
    _each(game.bail_cards, lambda v: all(d in B.DECKS for d in v) and len(v) <= 2,
          f"a list of deck names ({', '.join(B.DECKS)})", "bail_cards")
    if not _whole(game.turn, 0, n - 1) or game.bankrupt[game.turn]:
        raise GameStateError(f"saved game field 'turn' must be a seat still in the game, "
                             f"got {game.turn!r}")


def _check_squares(game: Game) -> None:
    n = game.num_players
    for sq in range(B.NUM_SQUARES):
        o, b, m = game.owner[sq], game.buildings[sq], game.mortgaged[sq]
        name = B.SQUARES[sq].name
        if not _whole(o, -1, n - 1) or (o >= 0 and (sq not in _IS_PLACE or game.bankrupt[o])):
            raise GameStateError(f"saved game: {name} has owner {o!r:.40}; an owner is -1 (the "
                                 f"bank) or a seat still in the game from 0 to {n - 1}, and "
                                 "only places are owned")
        if not _whole(b, 0, B.HOTEL) or (b and (sq not in _IS_CITY or o < 0)):
            raise GameStateError(f"saved game: {name} has {b!r:.40} buildings; an owned city "
                                 f"has 0 to {B.HOTEL}, any other square 0")
        if type(m) is not bool or (m and (o < 0 or b)):
            raise GameStateError(f"saved game: {name} mortgaged is {m!r:.40}; only an owned "
                                 "place without buildings may be mortgaged")
    for deck, cards in game.decks.items():
        count = _CARD_COUNT[deck]
        if (len(set(cards)) != len(cards)
                or not all(_whole(c, 1, count) for c in cards)):
            raise GameStateError(f"saved game deck {deck!r} must list distinct card numbers "
                                 f"from 1 to {count}")


def _check_turn(game: Game) -> None:
    limit = game.rules.round_limit
    fields = (("round", 1, limit), ("turn_count", 1, 10**9), ("doubles", 0, 3),
              ("offers_made", 0, MAX_OFFERS_PER_TURN), ("bank_paid", 0, 10**15),
              ("bank_received", 0, 10**15))
    for key, low, high in fields:
        if not _whole(getattr(game, key), low, high):
            raise GameStateError(f"saved game field {key!r} must be a whole number from {low} "
                                 f"to {high}")
    if len(game.dice) != 2 or not all(_whole(d, 0, 6) for d in game.dice):
        raise GameStateError("saved game field 'dice' must be two whole numbers from 0 to 6")
    if len(game.tasks) > 64 or not all(t and all(type(x) is int for x in t) for t in game.tasks):
        raise GameStateError("saved game field 'tasks' must be a short list of lists of whole "
                             "numbers")
    if len(game.forced_dice) > 1000 or not all(
            len(r) == 2 and all(_whole(d, 1, 6) for d in r) for r in game.forced_dice):
        raise GameStateError("saved game field 'forced_dice' must list pairs of dice from 1 to 6")
    if game.seed is not None and type(game.seed) is not int:
        raise GameStateError("saved game field 'seed' must be a whole number or null")


def _check_decision(game: Game) -> None:
    """The decision under way must be one the engine could be waiting for."""
    n, ph, p = game.num_players, game.phase, game.current_player
    if ph == Phase.GAME_OVER:
        if not game.winners or not all(_whole(w, 0, n - 1) for w in game.winners):
            raise GameStateError("a finished saved game must name its winners (seats)")
        return
    if not _whole(p, 0, n - 1) or game.bankrupt[p]:
        raise GameStateError(f"saved game field 'current_player' must be a seat still in the "
                             f"game, got {p!r:.40}")
    if ph == Phase.BUY and (game.pending_square not in _IS_PLACE
                            or game.owner[game.pending_square] >= 0):
        raise GameStateError("a saved game deciding a purchase needs an unowned pending_square")
    a = game.auction
    if ph == Phase.AUCTION and (
            a is None or a.square not in _IS_PLACE or not isinstance(a.bidders, list)
            or not a.bidders or not all(_whole(s, 0, n - 1) for s in a.bidders)
            or not _whole(a.high, 0, _MAX_CASH) or not _whole(a.holder, -1, n - 1)
            or not _whole(a.idx, 0, len(a.bidders)) or p not in a.bidders):
        raise GameStateError("a saved game at an auction needs the auction: a place, the "
                             "seats still bidding (the current player among them), the high "
                             "bid and its holder")
    if ph == Phase.TRADE_ANSWER and (game.offer is None or not _whole(game.offer[0], 0, n - 1)
                                     or game.offer[1].target != p):
        raise GameStateError("a saved game answering a trade needs the offer, made to the "
                             "current player")
    if ph == Phase.RAISE_CASH and (not game.debt or game.debt[1] != p):
        raise GameStateError("a saved game raising cash needs the current player's debt")


def check_game(game: Game) -> None:
    """``GameStateError`` if ``game`` holds values no real game reaches."""
    try:
        _check_seats(game)
        _check_squares(game)
        _check_turn(game)
        _check_decision(game)
        # The queries every request makes; a state that breaks them is damaged.
        for seat in range(game.num_players):
            game.net_worth(seat)
        if not game.is_over and not game.legal_actions():
            raise GameStateError("the saved game has no legal action although it is not over")
    except GameStateError:
        raise
    except Exception as exc:  # a value of a type no save holds (a list for a number, ...)
        raise GameStateError(f"saved game is inconsistent: {type(exc).__name__}") from exc


def load_game(data: object, field: str = "game") -> Game:
    """The game in ``data`` (the engine's saved game as a JSON object, or its text), checked;
    ``BadSavedGame`` with the engine's typed message otherwise."""
    try:
        game = game_from_json(data) if isinstance(data, str) else game_from_dict(data)
        check_game(game)
    except GameStateError as exc:
        raise BadSavedGame(f"{field}: {type(exc).__name__}: {exc}", field=field) from None
    rules = game.rules
    if (rules.rounds is not None and rules.rounds > MAX_ROUNDS) or (
            rules.starting_cash > MAX_STARTING_CASH):
        raise BadSavedGame(f"{field}: this server plays at most {MAX_ROUNDS} rounds and a "
                           f"starting cash of at most {MAX_STARTING_CASH:,}", field=field)
    return game


def table_save(seats: list[str], game: Game, pre_roll_actions: int) -> dict:
    """A table as a file: who sits where, the pre-roll count, and the engine's saved game."""
    from .state import game_snapshot

    return {"format": TABLE_FORMAT, "version": TABLE_VERSION, "seats": list(seats),
            "pre_roll_actions": pre_roll_actions, "game": game_snapshot(game)}


def read_table_save(data: dict, field: str = "save") -> tuple[list, Game, int]:
    """Seats (unchecked names), game and pre-roll count from a table save."""
    if data.get("format") != TABLE_FORMAT or data.get("version") != TABLE_VERSION:
        raise BadSavedGame(f"{field}: not a table save (format {TABLE_FORMAT!r}, version "
                           f"{TABLE_VERSION}); a bare saved game goes in 'game' with 'seats'",
                           field=f"{field}.format")
    seats = data.get("seats")
    if not isinstance(seats, list):
        raise BadSavedGame(f"{field}.seats must be a list of player names", field=f"{field}.seats")
    pre_roll = data.get("pre_roll_actions", 0)
    if not _whole(pre_roll, 0, 10**6):
        raise BadSavedGame(f"{field}.pre_roll_actions must be a whole number from 0",
                           field=f"{field}.pre_roll_actions")
    return seats, load_game(data.get("game"), f"{field}.game"), pre_roll
