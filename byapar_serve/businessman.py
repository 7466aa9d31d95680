"""Businessman at the server: its tables, its state as one seat sees it, its actions by id or
name, its table save, and one decision of its computer players.

Businessman has a secret: each seat's Exchange hand (and the decks' order). A table's state is
therefore always shown to one seat, the *viewer*: the public state plus the viewer's own hand
(``Game.view``), never another seat's hand, a deck's order or the engine's saved game. The
viewer is a person seat: the one asked for (``?seat=N``), else the person deciding now, else
the first person seat; a table of computers has none (no hand is shown). The table save, by
contrast, is the whole game (every hand): it is the table's file, for its owner to load again.

Every action of Businessman has an id (``ALL_ACTIONS``: trades are composed step by step), so a
person's action is an id or its name. Computer seats play with ``choose(game, seat, legal)``;
a decision with one legal action is taken without asking, as in the environment. The
environment's per-turn caps (``businessman_v0.TurnCaps``) hold at a table for every seat, the
person's included: past them only rolling (or submitting and cancelling a proposal) is legal.
A decide call on a saved game knows no count of the turn's actions: only the step cap applies.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable

from byapar_agents.businessman import BusinessmanPlayer, ExpertBusinessmanPlayer
from byapar_agents.businessman.expert import rent_score
from byapar_env.businessman import (
    ACTION_ID,
    ALL_ACTIONS,
    Action,
    ActionKind,
    Game,
    GameStateError,
    Phase,
    Rules,
    RulesError,
)
from byapar_env.businessman import board as bm_board
from byapar_env.businessman.game import purchase_price
from byapar_env.businessman.rules import DEFAULT_MAX_ROUNDS
from byapar_env.businessman.state import FORMAT as GAME_FORMAT
from byapar_env.businessman_v0 import TurnCaps

from .businessman_expert import expert_decision
from .decide import Decision
from .errors import BadSavedGame, Conflict, IllegalAction, InvalidInput
from .limits import API_VERSION, MAX_ROUNDS
from .roster import PERSON, Roster
from .slow import SlowPool
from .tables import TableBase

TABLE_FORMAT = "businessman-table"  # the table save: seats and the engine's saved game
TABLE_VERSION = 1
NUM_ACTIONS = len(ALL_ACTIONS)


def is_saved_game(data: object) -> bool:
    """Whether ``data`` (a JSON object, or its text) is a Businessman saved game by its
    format; what else it holds is the engine's to judge."""
    if isinstance(data, str):
        if GAME_FORMAT not in data:
            return False
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            return False
    return isinstance(data, dict) and data.get("format") == GAME_FORMAT


def is_table_save(data: object) -> bool:
    return isinstance(data, dict) and data.get("format") == TABLE_FORMAT


def load_game(data: object, field: str = "game") -> Game:
    """The Businessman game in ``data`` (the engine's saved game as a JSON object, or its
    text), checked by the engine; ``BadSavedGame`` with its typed message otherwise."""
    try:
        if isinstance(data, str):
            game = Game.from_json(data)
        else:
            game = Game.SAVE.load_dict(data, Game.__new__(Game))
    except GameStateError as exc:
        raise BadSavedGame(f"{field}: {type(exc).__name__}: {exc}", field=field) from None
    except RecursionError:
        raise BadSavedGame(f"{field}: GameStateError: nested too deeply", field=field) from None
    if not 1 <= game.rules.max_rounds <= MAX_ROUNDS:
        raise BadSavedGame(f"{field}: this server plays Businessman games of 1 to {MAX_ROUNDS} "
                           "rounds", field=field)
    return game


def make_rules(rules: object, num_players: int) -> Rules:
    """Businessman's options from the request's ``rules`` (``RulesIn``): ``rounds`` (1 to
    ``MAX_ROUNDS``, 20 by default) and ``abroad``; Byapar's other options are refused."""
    given = getattr(rules, "model_fields_set", set()) if rules is not None else set()
    for name in ("starting_cash", "auctions"):
        if name in given:
            raise InvalidInput(f"rules.{name} is an option of Byapar tables; Businessman's are "
                               "rounds and abroad", field=f"rules.{name}",
                               allowed=["rounds", "abroad"])
    rounds = rules.rounds if "rounds" in given else DEFAULT_MAX_ROUNDS
    if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(f"rules.rounds must be a whole number from 1 to {MAX_ROUNDS} for a "
                           "Businessman table", field="rules.rounds")
    abroad = rules.abroad if rules is not None and rules.abroad is not None else True
    try:
        return Rules(num_players=num_players, max_rounds=rounds, abroad_enabled=abroad)
    except RulesError as exc:
        raise InvalidInput(f"rules: {exc}", field="rules") from None


class BusinessmanTable(TableBase):
    """A game of Businessman and who plays each seat. Use it only inside
    ``with table.locked():``."""

    game_name = "businessman"

    def __init__(self, table_id: str, seats: list[str], game: Game, roster: Roster,
                 seed: int = 0) -> None:
        super().__init__(table_id, seats, game, seed)
        self.game: Game = game
        self.players = [None if name == PERSON else self.make_player(roster, name, seed + s)
                        for s, name in enumerate(seats)]
        # The environment's per-turn caps (businessman_v0.TurnCaps), for every seat: a person
        # gets the choices a computer would. The count starts again at a table's creation.
        self.caps = TurnCaps()
        self.caps.start(game)

    def make_player(self, roster: Roster, name: str, seed: int) -> BusinessmanPlayer:
        return roster.make_businessman(name, seed)

    @staticmethod
    def read_save(data: dict) -> tuple[list, Game, dict]:
        seats, game = read_table_save(data)
        return seats, game, {}

    @staticmethod
    def load_game(data: object, field: str) -> Game:
        return load_game(data, field)

    @staticmethod
    def new_game(rules: object, num_players: int, seed: int) -> Game:
        return Game(make_rules(rules, num_players), seed=seed)

    chance_kind = "share of net worth with expected rents"

    def encode_action(self, action: Action) -> object:
        return ACTION_ID[action]  # its place in the game's fixed list of actions

    def decode_action(self, data: object, field: str) -> Action:
        if type(data) is not int or not 0 <= data < len(ALL_ACTIONS):
            raise InvalidInput(f"{field} must be an action id from 0 to {len(ALL_ACTIONS) - 1}",
                               field=field)
        return ALL_ACTIONS[data]

    def win_chances(self, games: list) -> list[list[float] | None]:
        # No value network for Businessman: the expert's own judgement of a position.
        return [None if g.trade is not None else
                [rent_score(g, s) for s in range(g.num_players)] for g in games]

    def person_seats(self) -> list[int]:
        return [s for s, p in enumerate(self.players) if p is None]

    def state_view(self, moves: list[dict] | None, seat: int | None,
                   held: set[int] | None) -> dict:
        """The table as its viewer sees it: ``seat``, or the default, among any person seat
        (``held`` None: seats open to every client) or among the seats whose secrets the
        request carries (none of them: a spectator's view)."""
        viewer = self.viewer(seat) if held is None else self.viewer_among(held, seat)
        return table_state(self, viewer, moves)

    def save_data(self, hide_chance: bool) -> dict:
        return table_save(self)  # given only once the game is over, or at open seats

    def replay_view(self) -> dict:
        return table_state(self, None)

    def viewer(self, asked: int | None = None) -> int | None:
        """The seat the state is shown to: ``asked`` (a person seat, else 422), or the person
        deciding now, or the first person seat; None at a table of computers."""
        people = self.person_seats()
        if asked is not None:
            if asked not in people:
                raise InvalidInput(f"seat must be a person seat of this table: {people}",
                                   field="seat", allowed=people)
            return asked
        if not people:
            return None
        current = self.game.current_player
        return current if current in people else people[0]

    def apply_to_game(self, action: Action, steps: int) -> None:
        """The engine applies ``action`` through the turn's caps, which count it."""
        self.caps.apply(self.game, action)

    def resolve(self, request: dict) -> Action:
        return resolve(request, self.game, self.caps)

    def computer_decision(self, left_s: Callable[[], float], slow: SlowPool | None
                          ) -> Decision:
        """The only legal action, else the seat's player's choice among the legal actions
        (a seated expert searches in ``slow`` within ``left_s()``, ``businessman_expert``;
        without a pool, here, its budget cut to what is left); a choice that is not legal
        (a player bug) becomes the first legal action, so the table never stalls."""
        game = self.game
        seat = game.current_player
        legal = self.caps.legal_actions(game)
        player = self.players[seat]
        if len(legal) == 1:
            action = legal[0]
        elif isinstance(player, ExpertBusinessmanPlayer):
            action = self._expert_choice(player, legal, left_s(), slow)
        else:
            action = player.choose(game, seat, legal)
        if action not in legal:
            action = legal[0]
        return Decision(action, ACTION_ID[action], 1)

    def unstick(self) -> Decision:
        """The first legal action under the caps, applied."""
        action = self.caps.legal_actions(self.game)[0]
        self.apply(action)
        return Decision(action, ACTION_ID[action], 1)

    def public_move(self, seat: int, decision: Decision) -> dict:
        return public_move(seat, self.seats[seat], decision.action)

    def _expert_choice(self, expert: ExpertBusinessmanPlayer, legal: list[Action],
                       left_s: float, slow: SlowPool | None) -> Action:
        if slow is not None:
            return expert_decision(slow, expert, self.game, legal, left_s)[0]
        own = expert.budget_ms
        expert.budget_ms = max(1.0, min(own or math.inf, left_s * 1000.0))
        try:
            return expert.choose(self.game, self.game.current_player, legal)
        finally:
            expert.budget_ms = own


def public_move(seat: int, player: str, action: Action) -> dict:
    """A computer seat's move as every viewer may see it. A card played names its colour, not
    its hand slot (nor its id, which holds the slot): hands are kept in order of kind, so the
    slot would tell how many cards of lower kinds the seat still holds."""
    if action.kind == ActionKind.PLAY_CARD:
        how = " (halve)" if action.down else ""
        text = f"play an Exchange card on {bm_board.COLOURS[action.colour]}{how}"
        return {"seat": seat, "player": player, "text": text, "id": None}
    return {"seat": seat, "player": player, "text": str(action), "id": ACTION_ID[action]}


# ---------------------------------------------------------------------- the state
def _kind(action: Action) -> str:
    return ActionKind(action.kind).name.lower()


def legal_entries(game: Game, caps: TurnCaps | None = None) -> list[dict]:
    """Every legal action now (less what ``caps`` take away), by id: id, name and kind."""
    if game.is_over:
        return []
    ids = sorted(ACTION_ID[a] for a in (caps or TurnCaps()).legal_actions(game))
    return [{"id": i, "name": str(ALL_ACTIONS[i]), "kind": _kind(ALL_ACTIONS[i])} for i in ids]


def seat_view(game: Game, viewer: int | None) -> dict:
    """``Game.view`` of the viewer; for no viewer, the same with no hand at all."""
    if viewer is not None:
        return game.view(viewer)
    view = game.view(0)
    view["seat"] = None
    view["hand"] = None
    return view


def hand_cards(hand: list[int]) -> list[dict]:
    return [{"slot": i, "kind": k, "code": bm_board.EXCHANGE_KINDS[k].code,
             "text": bm_board.EXCHANGE_KINDS[k].text} for i, k in enumerate(hand)]


def table_state(table: BusinessmanTable, viewer: int | None,
                moves: list[dict] | None = None) -> dict:
    """The table as ``viewer`` sees it (see the module's docstring)."""
    game = table.game
    view = seat_view(game, viewer)
    deciding = (viewer is not None and not game.is_over and game.current_player == viewer)
    state = {
        "api_version": API_VERSION,
        "game": "businessman",
        "game_name": "businessman",  # as on every table state, Byapar's too
        "id": table.id,
        "version": table.version,
        "seats": [{"seat": s, "player": name, "person": name == PERSON}
                  for s, name in enumerate(table.seats)],
        "to_move": table.to_move(),
        "viewer": viewer,
        "status": {"phase": Phase(game.phase).shown_name, "current_player": game.current_player,
                   "is_over": game.is_over, "winners": list(game.winners),
                   "round": game.round, "round_limit": game.rules.max_rounds,
                   "turn_count": game.turn_count, "dice": list(game.dice)},
        "players": [{"seat": s, "cash": game.cash[s], "net_worth": game.net_worth(s),
                     "bankrupt": game.bankrupt[s], "track": game.track[s],
                     "position": game.position[s], "laps": game.laps[s],
                     "shares": list(game.shares[s]), "passes": list(game.passes[s]),
                     "hand_size": len(game.hands[s]), "lots": game.lots_of(s)}
                    for s in range(game.num_players)],
        "hand": None if view["hand"] is None else hand_cards(view["hand"]),
        "legal": legal_entries(game, table.caps) if deciding else [],
        "view": view,
        "log": list(game.log),
    }
    if moves is not None:
        state["moves"] = moves
    return state


# The page's colours: one per lot group (the specification's names: brown, light blue, pink,
# orange, red, yellow, green, dark blue, purple, teal, grey) and one per share colour.
GROUP_COLOURS = ("#8b5a2b", "#87ceeb", "#da70d6", "#ffa500", "#dc143c", "#ffd700", "#228b22",
                 "#1919a0", "#8e44ad", "#138d90", "#8c9396")
SHARE_COLOURS = ("#d32f2f", "#1e63c4", "#2e8b3e", "#d4a000")


def board_view() -> dict:
    """The 78 cells (names, kinds, tracks, prices with the surcharge abroad, rents), the
    groups, the share colours and the Exchange card kinds; for the page, the colours it draws
    with, the price scale and every action id's fields (kind, arg, colour, down)."""
    cells = [{"index": c.index, "name": c.name, "kind": c.kind,
              "track": bm_board.track_of_cell(c.index), "group": c.group,
              "price": purchase_price(c.index) if bm_board.IS_OWNABLE[c.index] else 0,
              "rents": list(c.rents), "branch_cost": c.branch_cost,
              "enterprise_cost": c.enterprise_cost, "pledge": c.pledge, "amount": c.amount}
             for c in bm_board.CELLS]
    figures = bm_board.FIGURES
    return {"game": "businessman", "board": bm_board.BOARD_HASH, "cells": cells,
            "tracks": list(bm_board.TRACK_NAMES), "groups": list(bm_board.GROUP_NAMES),
            "colours": list(bm_board.COLOURS),
            "exchange_cards": [{"kind": k.index, "code": k.code, "text": k.text, "deck": k.deck,
                                "effect": k.kind, "up": k.up, "down": k.down}
                               for k in bm_board.EXCHANGE_KINDS],
            "group_colours": list(GROUP_COLOURS), "share_colours": list(SHARE_COLOURS),
            "prices": {"start": figures.price_start, "min": figures.price_min,
                       "max": figures.price_max, "point": figures.point},
            "fees": {"customs": figures.customs_fee, "broker": figures.broker_fee},
            "actions": [[_kind(a), a.arg, a.colour, a.down] for a in ALL_ACTIONS]}


# ---------------------------------------------------------------------- actions
def _short(game: Game, caps: TurnCaps) -> list[dict]:
    return [{"id": e["id"], "name": e["name"]} for e in legal_entries(game, caps)]


def _refuse(game: Game, caps: TurnCaps, field: str, why: str) -> IllegalAction:
    return IllegalAction(f"{why}; the legal actions are listed in 'allowed'", field=field,
                         allowed=_short(game, caps))


def _normal(text: str) -> str:
    return " ".join(text.lower().replace(",", "").split())


def resolve(request: dict, game: Game, caps: TurnCaps) -> Action:
    """The engine action an apply request names: exactly one of ``id`` or ``name`` (every
    Businessman action has an id; there is no engine form), legal under ``caps``."""
    given = [k for k in ("id", "name", "engine") if request.get(k) is not None]
    if len(given) != 1 or given[0] == "engine":
        raise InvalidInput("give exactly one of id (an action id) or name (an action's name); "
                           f"a Businessman action has no engine form, got {given or 'none'}",
                           field="action", allowed=["id", "name"])
    how = given[0]
    value = request[how]
    legal = caps.legal_actions(game)
    if how == "id":
        if type(value) is not int or not 0 <= value < NUM_ACTIONS:
            raise InvalidInput(f"id must be a Businessman action id from 0 to {NUM_ACTIONS - 1}",
                               field="id")
        action = ALL_ACTIONS[value]
        if action in legal:
            return action
        raise _refuse(game, caps, "id", f"action {value} ({action}) is not legal now")
    if not isinstance(value, str) or len(value) > 200:
        raise InvalidInput("name must be an action's name of at most 200 characters",
                           field="name")
    wanted = _normal(value)
    for action in legal:
        if _normal(str(action)) == wanted:
            return action
    raise _refuse(game, caps, "name", f"no legal action is called {value!r}")


# ---------------------------------------------------------------------- saves
def table_save(table: BusinessmanTable) -> dict:
    """The table as a file: who sits where and the engine's whole saved game (every hand)."""
    return {"format": TABLE_FORMAT, "version": TABLE_VERSION, "seats": list(table.seats),
            "game": json.loads(table.game.to_json())}


def read_table_save(data: dict, field: str = "save") -> tuple[list, Game]:
    """Seats (unchecked names) and game from a Businessman table save."""
    if data.get("format") != TABLE_FORMAT or data.get("version") != TABLE_VERSION:
        raise BadSavedGame(f"{field}: not a Businessman table save (format {TABLE_FORMAT!r}, "
                           f"version {TABLE_VERSION})", field=f"{field}.format")
    seats = data.get("seats")
    if not isinstance(seats, list):
        raise BadSavedGame(f"{field}.seats must be a list of player names", field=f"{field}.seats")
    return seats, load_game(data.get("game"), f"{field}.game")


# ---------------------------------------------------------------------- decide
def decide_position(data: object) -> tuple[Game, list[Action]]:
    """The saved game ``data`` (checked) and the legal actions of the seat that must decide.
    A saved game carries no count of the turn's actions: only the trade-step cap applies."""
    game = load_game(data, "game")
    if game.is_over:
        raise Conflict("the game is over: there is nothing to decide", field="game")
    return game, TurnCaps().legal_actions(game)


def decide_answer(game: Game, name: str, action: Action, start: float,
                  searched: bool | None = None) -> dict:
    """The answer to a decide call: ``action`` by ``name`` for the seat that decides."""
    out = {"api_version": API_VERSION, "game": "businessman",
           "action": {"id": ACTION_ID[action], "name": str(action), "kind": _kind(action)},
           "seat": game.current_player, "player": name,
           "ms": round((time.perf_counter() - start) * 1000.0, 3)}
    if searched is not None:
        out["searched"] = searched
    return out


def decide(roster: Roster, data: object, name: str, start: float) -> dict:
    """What player ``name`` (checked; not the expert, which searches in the slow pool) does
    for the seat that must decide in the saved game ``data``; nothing is stored."""
    game, legal = decide_position(data)
    return decide_answer(game, name, quick_choice(roster, name, game, legal), start)


def quick_choice(roster: Roster, name: str, game: Game, legal: list[Action]) -> Action:
    """Player ``name``'s action now (a fresh player seeded 0; the shared hard player)."""
    player = roster.make_businessman(name, 0)
    action = legal[0] if len(legal) == 1 else player.choose(game, game.current_player, legal)
    return action if action in legal else legal[0]
