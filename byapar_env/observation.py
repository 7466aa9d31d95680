"""The observation: one flat float32 vector from the acting seat's point of view.

Seats are relative: slot 0 is the observer, slot 1 the next seat in turn order, and so on, so one
shared policy can play any seat. Places are in ``board.PLACES`` order. ``LAYOUT`` names every
slice; ``observation_layout()`` returns them as ``{name: slice}``.
"""

from __future__ import annotations

import numpy as np

from .engine import Game, Phase, board, place_worth
from .habits import PER_SEAT as HABITS_PER_SEAT
from .habits import Habits

OBSERVATION_VERSION = 2
SLOTS = 6  # player slots, the largest table
PLACE_FEATURES = ("owner_bank", "owner_slot0", "owner_slot1", "owner_slot2", "owner_slot3",
                  "owner_slot4", "owner_slot5", "buildings", "mortgaged", "group_complete")
NP = len(board.PLACES)
CASH_SCALE = 10_000.0
WORTH_SCALE = 50_000.0

# Decision kinds as the observation shows them (composing a trade is the environment's own).
DECISIONS = ("pre_roll", "compose_trade", "buy", "auction", "trade_answer", "raise_cash")

LAYOUT: tuple[tuple[str, int], ...] = (
    # Per place, in board.PLACES order, PLACE_FEATURES values: owner one-hot [bank, slot 0..5],
    # buildings / 5 (a hotel is 1), mortgaged, its owner holds the whole colour group.
    ("places", NP * 10),
    ("players.present", SLOTS),  # a seat still in the game
    ("players.cash", SLOTS),  # / 10,000
    ("players.position", SLOTS * board.NUM_SQUARES),  # per slot: one-hot square
    ("players.in_jail", SLOTS),
    ("players.jail_misses", SLOTS),  # / 3
    ("players.bail_cards", SLOTS),
    ("players.net_worth", SLOTS),  # / 50,000
    ("players.is_turn", SLOTS),  # whose turn it is
    ("decision.kind", len(DECISIONS)),
    ("decision.place", NP),  # the place to buy or being auctioned
    ("auction.high_bid", 1),  # / 10,000
    ("auction.holder", SLOTS),
    ("auction.still_in", SLOTS),
    ("trade.counterpart", SLOTS),  # the other side of the draft or of the offer received
    ("trade.places_in", NP),  # places the observer would receive
    ("trade.places_out", NP),  # places the observer would give
    ("trade.money_in", 1),  # / 10,000; negative when the observer would pay
    ("trade.draft_steps", 1),  # composition steps used / the cap
    ("debt.owed", 1),  # / 10,000
    ("debt.shortfall", 1),  # owed minus cash, / 10,000
    ("turn.round", 1),  # / the round limit
    ("turn.rounds_left", 1),  # / the round limit
    ("turn.dice", 2),  # last roll / 6
    ("turn.doubles", 1),  # doubles in a row / 3
    ("turn.offers_made", 1),  # / 3
    ("turn.pre_roll_actions", 1),  # / the cap
    ("options.players", 5),  # one-hot 2..6
    ("options.until_one_left", 1),
    ("options.rounds", 1),  # the round limit / 100
    ("options.starting_cash", 1),  # / 20,000
    ("options.auctions", 1),
    # Version 2: per slot, what that seat has done so far this game (byapar_env.habits.FEATURES,
    # each a ratio from 0 to 1); zeros when the environment has no record of the game.
    ("habits", SLOTS * HABITS_PER_SEAT),
)


def _offsets() -> dict[str, slice]:
    out, at = {}, 0
    for name, size in LAYOUT:
        out[name] = slice(at, at + size)
        at += size
    return out


SLICES = _offsets()
OBSERVATION_SIZE = sum(size for _, size in LAYOUT)
_O = {name: s.start for name, s in SLICES.items()}
_PLACE_INDEX = {sq: i for i, sq in enumerate(board.PLACES)}
_GROUP_SQUARES = tuple(board.GROUPS.values())


# The place block (owner, buildings, mortgaged, group complete) leads the vector and changes only
# when property changes hands, is built on or mortgaged. ``PlaceBlocks`` keeps it from one call
# to the next and recomputes it only when the property state differs from the one it saw.
_PLACE_BLOCK = _O["players.present"]


def _place_rows() -> np.ndarray:
    """Every possible place row, indexed by ((owner code * 6 + buildings) * 2 + mortgaged) * 2
    + group complete, where the owner code is 0 for the bank and 1 + slot otherwise."""
    rows = np.zeros((7 * 6 * 2 * 2, len(PLACE_FEATURES)), np.float32)
    for code in range(7):
        for b in range(6):
            for m in range(2):
                for gc in range(2):
                    row = rows[((code * 6 + b) * 2 + m) * 2 + gc]
                    row[code] = 1.0
                    row[7], row[8], row[9] = b / 5.0, m, gc
    return rows


_PLACE_ROWS = _place_rows()


def _seat_rows() -> dict[tuple[int, int], np.ndarray]:
    """For a table of n and observer ``me``: the place rows indexed by the same formula with the
    owner code 1 + absolute seat, so one absolute index per place serves every observer."""
    out = {}
    for n in range(2, SLOTS + 1):
        for me in range(n):
            order = []
            for code in range(7):
                rel = 0 if code == 0 else 1 + (code - 1 - me) % n if code <= n else code
                for rest in range(24):
                    order.append(rel * 24 + rest)
            out[n, me] = _PLACE_ROWS[order]
    return out


_SEAT_ROWS = _seat_rows()


def _absolute_places(game: Game) -> tuple[list[int], list[int]]:
    """Each place's row index with absolute owner codes, and each seat's property worth."""
    worth = [0] * game.num_players
    owner, blds, mort = game.owner, game.buildings, game.mortgaged
    complete = set()  # places whose owner holds the whole colour group
    for group in _GROUP_SQUARES:
        o = owner[group[0]]
        if o >= 0 and owner[group[-1]] == o and owner[group[len(group) // 2]] == o:
            complete.update(group)  # groups have 2 or 3 places: first, middle, last cover all
    rows = []
    for sq in board.PLACES:
        o = owner[sq]
        if o < 0:
            rows.append(0)
            continue
        b = blds[sq]
        m = mort[sq]
        rows.append(((((1 + o) * 6 + b) * 2 + m) * 2) + (sq in complete))
        worth[o] += place_worth(sq, b, m)
    return rows, worth


class PlaceBlocks:
    """The place block per observer and each seat's property worth, kept between calls: rebuilt
    when places change hands, patched row by row when only buildings or mortgages change."""

    __slots__ = ("_n", "_owner", "_blds", "_mort", "_rows", "worth", "_blocks")

    def __init__(self) -> None:
        self._n = 0
        self._owner: list[int] = []
        self._blds: list[int] = []
        self._mort: list[bool] = []
        self._rows: list[int] = []
        self.worth: list[int] = []
        self._blocks: dict[int, np.ndarray] = {}

    def get(self, game: Game, me: int) -> np.ndarray:
        owner, blds, mort = game.owner, game.buildings, game.mortgaged
        if self._n != game.num_players or owner != self._owner:
            self._n = game.num_players
            self._owner, self._blds, self._mort = owner[:], blds[:], mort[:]
            self._rows, self.worth = _absolute_places(game)
            self._blocks = {}
        elif blds != self._blds or mort != self._mort:
            self._patch(blds, mort)
        block = self._blocks.get(me)
        if block is None:
            block = self._blocks[me] = (
                _SEAT_ROWS[self._n, me].take(self._rows, axis=0).reshape(-1))
        return block

    def _patch(self, blds: list[int], mort: list[bool]) -> None:
        """Rewrite the rows of places whose buildings or mortgage changed (same owners, so the
        group-complete flags stand)."""
        old_b, old_m, owner, rows, worth = self._blds, self._mort, self._owner, self._rows, \
            self.worth
        for i, sq in _PLACE_ENUM:
            b, m = blds[sq], mort[sq]
            if b == old_b[sq] and m == old_m[sq]:
                continue
            o = owner[sq]
            worth[o] += place_worth(sq, b, m) - place_worth(sq, old_b[sq], old_m[sq])
            rows[i] = row = (((1 + o) * 6 + b) * 2 + m) * 2 + (rows[i] & 1)
            for seat, block in self._blocks.items():
                block[i * 10:i * 10 + 10] = _SEAT_ROWS[self._n, seat][row]
        self._blds, self._mort = blds[:], mort[:]


_PLACE_ENUM = tuple(enumerate(board.PLACES))


_DECISION_INDEX = {Phase.PRE_ROLL: 0, Phase.BUY: 2, Phase.AUCTION: 3, Phase.TRADE_ANSWER: 4,
                   Phase.RAISE_CASH: 5}


def observation_layout() -> dict[str, slice]:
    """The named slices of the observation vector."""
    return dict(SLICES)


def encode(game: Game, me: int, out: np.ndarray, draft=None, pre_roll_actions: int = 0,
           pre_roll_cap: int = 1, draft_cap: int = 1,
           habits: Habits | None = None, places: PlaceBlocks | None = None) -> np.ndarray:
    """Write seat ``me``'s observation into ``out`` (float32, OBSERVATION_SIZE) and return it.

    ``draft`` (the trade offer ``me`` is composing, if any), the pre-roll counter and the seats'
    ``habits`` are the environment's own state; ``encode_env_part`` writes the first two onto an
    engine-only encoding, ``write_habits`` the last (zeros without it). ``places``: a
    ``PlaceBlocks`` kept by the caller (the same observation, cheaper when the board has not
    changed since its last call: several seats of one game, or a player's next decision).
    """
    encode_engine_part(game, me, out, places)
    if habits is not None:
        write_habits(out, game, me, habits)
    return encode_env_part(out, game, me, draft, pre_roll_actions, pre_roll_cap, draft_cap)


def encode_env_part(out: np.ndarray, game: Game, me: int, draft, pre_roll_actions: int,
                    pre_roll_cap: int, draft_cap: int) -> np.ndarray:
    """Write the environment's part (a draft being composed, the pre-roll counter) onto ``out``,
    which holds ``encode_engine_part``'s encoding for ``me``."""
    v = memoryview(out)
    v[_PRE_ROLL_ACTIONS] = pre_roll_actions / pre_roll_cap
    if draft is not None and game.turn == me and not game.is_over:
        v[_D_KIND] = 0.0
        v[_D_KIND + 1] = 1.0
        v[_T_OTHER + (draft.target - me) % game.num_players] = 1.0
        for s in draft.take:
            v[_T_IN + _PLACE_INDEX[s]] = 1.0
        for s in draft.give:
            v[_T_OUT + _PLACE_INDEX[s]] = 1.0
        v[_T_MONEY] = -draft.amount / CASH_SCALE
        v[_T_STEPS] = draft.steps / draft_cap
    return out


def encode_engine_part(game: Game, me: int, out: np.ndarray,
                       places: PlaceBlocks | None = None) -> np.ndarray:
    """Write everything the engine's state shows seat ``me`` into ``out``. ``places`` keeps the
    place block between calls (an environment holds one); without it the block is computed."""
    n = game.num_players
    if places is None:
        places = PlaceBlocks()
    block = places.get(game, me)
    worth = places.worth
    template = _TEMPLATES.get(game.rules)
    if template is None:
        template = _TEMPLATES[game.rules] = _template(game)
    out[:] = template
    out[:_PLACE_BLOCK] = block
    # Single items through a memoryview: far cheaper than numpy item or fancy assignment.
    v = memoryview(out)
    cash, position, bankrupt = game.cash, game.position, game.bankrupt
    misses, bail, in_jail = game.jail_misses, game.bail_cards, game.in_jail
    for r in range(n):
        s = me + r
        if s >= n:
            s -= n
        if bankrupt[s]:
            continue
        c = cash[s]
        v[_P_PRESENT + r] = 1.0
        v[_P_POSITION + r * board.NUM_SQUARES + position[s]] = 1.0
        v[_P_CASH + r] = c / CASH_SCALE
        v[_P_WORTH + r] = (c + worth[s]) / WORTH_SCALE
        v[_P_MISSES + r] = misses[s] / 3.0
        v[_P_BAIL + r] = float(len(bail[s]))
        if in_jail[s]:
            v[_P_JAIL + r] = 1.0
    if not game.is_over:
        ph = game.phase
        v[_P_TURN + (game.turn - me) % n] = 1.0
        v[_D_KIND + _DECISION_INDEX[ph]] = 1.0
        if ph == Phase.BUY:
            v[_D_PLACE + _PLACE_INDEX[game.pending_square]] = 1.0
        elif ph == Phase.AUCTION:
            a = game.auction
            v[_D_PLACE + _PLACE_INDEX[a.square]] = 1.0
            v[_A_HIGH] = a.high / CASH_SCALE
            if a.holder >= 0:
                v[_A_HOLDER + (a.holder - me) % n] = 1.0
            for s in a.bidders:
                v[_A_IN + (s - me) % n] = 1.0
        elif ph == Phase.RAISE_CASH:
            owed = game.debt_owed()
            v[_DEBT_OWED] = owed / CASH_SCALE
            v[_DEBT_SHORT] = (owed - cash[game.current_player]) / CASH_SCALE
        # An offer the observer must answer (a draft is the environment's, see encode_env_part).
        elif ph == Phase.TRADE_ANSWER and game.offer is not None:
            offerer, offer = game.offer
            if offer.target == me:
                _write_offer(v, me, offerer, offer, n)
    limit = game.rules.round_limit
    v[_ROUND] = game.round / limit
    v[_ROUNDS_LEFT] = (limit - game.round) / limit
    v[_DICE] = game.dice[0] / 6.0
    v[_DICE + 1] = game.dice[1] / 6.0
    v[_DOUBLES] = game.doubles / 3.0
    v[_OFFERS] = game.offers_made / 3.0
    return out


def write_habits(out: np.ndarray, game: Game, me: int, habits: Habits) -> np.ndarray:
    """Write every seat's habits into ``out`` (an encoding for ``me``), slot 0 being ``me``;
    seats out of the game keep zeros. The block is kept per observer until the counts, the
    round or a seat's bankruptcy change (most actions change none of them)."""
    key = (habits.changes, game.round, me, *game.bankrupt)
    cache = habits.cache
    block = cache.get(key)
    if block is None:
        if len(cache) >= 4 * SLOTS:  # only the latest keys are ever asked again
            cache.clear()
        block = np.zeros(SLOTS * HABITS_PER_SEAT, np.float32)
        n = game.num_players
        for r in range(n):
            s = (me + r) % n
            if not game.bankrupt[s]:
                block[r * HABITS_PER_SEAT:(r + 1) * HABITS_PER_SEAT] = habits.features(
                    s, game.round)
        cache[key] = block
    out[_HABITS:_HABITS + SLOTS * HABITS_PER_SEAT] = block
    return out


def _write_offer(v, me: int, offerer: int, offer, n: int) -> None:
    v[_T_OTHER + (offerer - me) % n] = 1.0
    v[_T_MONEY] = offer.amount / CASH_SCALE
    for s in offer.give:
        v[_T_IN + _PLACE_INDEX[s]] = 1.0
    for s in offer.take:
        v[_T_OUT + _PLACE_INDEX[s]] = 1.0


def write_offer_received(out: np.ndarray, me: int, offerer: int, offer,
                         num_players: int) -> np.ndarray:
    """Put another offer into ``out``, seat ``me``'s encoding of a game in which ``me`` must
    answer a trade offer: the trade slots are cleared and ``offer`` (from ``offerer``) written
    in, so ``out`` then equals ``me``'s encoding of the game with that offer pending. One
    encoding of the answer phase then serves many offers (``byapar_agents.trade_finder``)."""
    out[_TRADE_BLOCK] = 0.0
    _write_offer(memoryview(out), me, offerer, offer, num_players)
    return out


def _template(game: Game) -> np.ndarray:
    """The vector before a position is written: zeros but for the table options, which are the
    same for a whole game."""
    out = np.zeros(OBSERVATION_SIZE, np.float32)
    rules = game.rules
    out[_O["options.rounds"]] = rules.round_limit / 100.0
    out[_O["options.starting_cash"]] = rules.starting_cash / 20_000.0
    out[_O["options.players"] + game.num_players - 2] = 1.0
    out[_O["options.until_one_left"]] = rules.rounds is None
    out[_O["options.auctions"]] = rules.auctions
    return out


_TEMPLATES: dict = {}
(_P_PRESENT, _P_POSITION, _P_CASH, _P_WORTH, _P_MISSES, _P_BAIL, _P_JAIL, _P_TURN, _D_KIND,
 _D_PLACE, _A_HIGH, _A_HOLDER, _A_IN, _DEBT_OWED, _DEBT_SHORT, _T_OTHER, _T_MONEY, _T_IN, _T_OUT,
 _ROUND, _ROUNDS_LEFT, _DICE, _DOUBLES, _OFFERS) = (_O[k] for k in (
    "players.present", "players.position", "players.cash", "players.net_worth",
    "players.jail_misses", "players.bail_cards", "players.in_jail", "players.is_turn",
    "decision.kind", "decision.place", "auction.high_bid", "auction.holder", "auction.still_in",
    "debt.owed", "debt.shortfall", "trade.counterpart", "trade.money_in", "trade.places_in",
    "trade.places_out", "turn.round", "turn.rounds_left", "turn.dice", "turn.doubles",
    "turn.offers_made"))
_PRE_ROLL_ACTIONS, _T_STEPS = _O["turn.pre_roll_actions"], _O["trade.draft_steps"]
_HABITS = _O["habits"]
# The slots an offer received fills: the counterpart, the places in and out, the money (in this
# order in LAYOUT, one after another).
_TRADE_BLOCK = slice(SLICES["trade.counterpart"].start, SLICES["trade.money_in"].stop)
if sum(SLICES[k].stop - SLICES[k].start for k in (
        "trade.counterpart", "trade.places_in", "trade.places_out", "trade.money_in")) != (
        _TRADE_BLOCK.stop - _TRADE_BLOCK.start):
    raise ImportError("observation LAYOUT: the trade slots of an offer must be consecutive")
