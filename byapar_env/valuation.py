"""What places and groups are worth, from the board itself: landing chances, rents, house costs.

The strategic players of ``byapar_agents.panel`` value a holding by the rent it will earn, not by
its printed price alone, and the environment's ``"position_share"`` reward shapes learning with
the same measure:

- ``LANDINGS_PER_TURN[sq]``: how often one player's turn lands on ``sq``, the stationary
  distribution of a Markov chain over the squares built from the dice (two six-sided dice,
  with a third double sending the mover to jail), the go-to-jail square and the card decks'
  moves (advance, back, jail), times the expected number of moves in a turn (doubles roll
  again). Computed once at import from :mod:`byapar_env.engine.board`.
- ``income_per_round(game, seat, owner, cash)``: the rent ``seat`` can expect from the other
  players in one round with a given ownership of the board, building its whole groups as far
  as ``cash`` (above a reserve) allows.
- ``position_value``: net worth plus that income over the rounds still to play (up to a
  horizon). A trade or a purchase is judged by how it changes this value for each side.
"""

from __future__ import annotations

from .engine import Game, board
from .engine.board import NUM_SQUARES

_DICE = [(a + b, 1 / 36) for a in range(1, 7) for b in range(1, 7)]
# Rolling doubles grants another move (up to three moves); the third double goes to jail.
MOVES_PER_TURN = 1 + 1 / 6 + 1 / 36
_JAIL_BY_DOUBLES = (1 / 6) ** 3


def _card_moves(deck: str, pos: int) -> list[tuple[int, float]]:
    """Where drawing a card of ``deck`` on ``pos`` leaves the player, with chances."""
    cards = board.CARDS[deck]
    out: list[tuple[int, float]] = []
    for c in cards:
        p = 1 / len(cards)
        if c.effect == "advance":
            out.append((c.target, p))
        elif c.effect == "advance_transport":
            steps = min((t - pos) % NUM_SQUARES or NUM_SQUARES for t in board.TRANSPORTS)
            out.append(((pos + steps) % NUM_SQUARES, p))
        elif c.effect == "back":
            out.append(((pos - c.amount) % NUM_SQUARES, p))
        elif c.effect == "jail":
            out.append((board.JAIL_SQUARE, p))
        else:
            out.append((pos, p))
    return out


def _landings(square: int) -> list[tuple[int, float]]:
    """The squares a move ending on ``square`` counts as landings on, and the final square's
    chances: a card may move the player on (one level deep, as card chains are rare)."""
    sq = board.SQUARES[square]
    if sq.kind == board.GO_TO_JAIL:
        return [(board.JAIL_SQUARE, 1.0)]
    if sq.kind == board.CARD:
        return _card_moves(sq.deck, square)
    return [(square, 1.0)]


def _landing_chances() -> tuple[float, ...]:
    """Per-turn landing chances, by power iteration of the move chain."""
    pos = [1.0 / NUM_SQUARES] * NUM_SQUARES
    land = [0.0] * NUM_SQUARES
    for _ in range(200):
        new = [0.0] * NUM_SQUARES
        land = [0.0] * NUM_SQUARES
        for s, ps in enumerate(pos):
            if ps == 0.0:
                continue
            new[board.JAIL_SQUARE] += ps * _JAIL_BY_DOUBLES
            for total, pd in _DICE:
                base = ps * pd * (1 - _JAIL_BY_DOUBLES)
                target = (s + total) % NUM_SQUARES
                land[target] += base
                for final, pf in _landings(target):
                    new[final] += base * pf
                    if final != target and board.SQUARES[target].kind == board.CARD:
                        land[final] += base * pf
        pos = new
    return tuple(x * MOVES_PER_TURN for x in land)


LANDINGS_PER_TURN: tuple[float, ...] = _landing_chances()
AVERAGE_DICE = 7
# The rounds over which a holding is expected to pay: further rent is too uncertain to pay for
# now (a game of 40 rounds is usually decided well before its end). Used when more remain.
HORIZON_ROUNDS = 20


def rounds_left(game: Game) -> int:
    return max(1, min(HORIZON_ROUNDS, game.rules.round_limit - game.round + 1))


_RENTS = {sq: board.SQUARES[sq].rents for sq in board.CITIES}
# What one house on every city of a group costs, by the group.
_GROUP_HOUSES = {group: board.SQUARES[group[0]].house_cost * len(group)
                 for group in board.GROUPS.values()}


def city_rent(sq: int, buildings: int, whole_group: bool) -> int:
    rents = _RENTS[sq]
    if buildings:
        return rents[buildings]
    return rents[0] * 2 if whole_group else rents[0]


def fundable_houses(group: tuple[int, ...], budget: int) -> int:
    """Houses per city of ``group`` that ``budget`` buys, at most a hotel."""
    return max(0, min(board.HOTEL, budget // _GROUP_HOUSES[group])) if budget > 0 else 0


# Per colour group, in board order: the group and each city's landing chance.
_GROUP_TABLE = tuple((group, tuple((s, LANDINGS_PER_TURN[s]) for s in group))
                     for group in board.GROUPS.values())
_TRANSPORT_LANDINGS = tuple((t, LANDINGS_PER_TURN[t]) for t in board.TRANSPORTS)
_UTILITY_LANDINGS = tuple((u, LANDINGS_PER_TURN[u]) for u in board.UTILITIES)
# Each place with its price and house cost (0 for places that are not cities).
_PLACE_WORTH = tuple((sq, board.SQUARES[sq].price, board.SQUARES[sq].house_cost or 0)
                     for sq in board.PLACES)


def income_per_round(game: Game, seat: int, owner: list[int], cash: int,
                     reserve: int = 0) -> float:
    """Rent ``seat`` may expect from the others in one round, with ``owner`` the ownership
    to judge (a list indexed by square) and ``cash`` what it could build with (less
    ``reserve``); every whole group is judged as if the cash went to it alone."""
    bankrupt = game.bankrupt
    opponents = sum(1 for s in range(game.num_players) if s != seat and not bankrupt[s])
    if opponents == 0:
        return 0.0
    total = 0.0
    budget = cash - reserve
    mortgaged, real_owner, buildings = game.mortgaged, game.owner, game.buildings
    for group, cities in _GROUP_TABLE:
        held = [c for c in cities if owner[c[0]] == seat]
        if not held:
            continue
        whole = len(held) == len(group)
        level = fundable_houses(group, budget) if whole else 0
        for s, landings in held:
            mine = real_owner[s] == seat
            if mine and mortgaged[s]:
                continue
            b = buildings[s] if mine else 0
            total += landings * city_rent(s, b if b > level else level, whole)
    transports = [land for t, land in _TRANSPORT_LANDINGS if owner[t] == seat]
    if transports:
        rent = board.TRANSPORT_RENT[len(transports)]
        for land in transports:
            total += land * rent
    utilities = [land for u, land in _UTILITY_LANDINGS if owner[u] == seat]
    if utilities:
        multiplier = board.UTILITY_MULTIPLIER[len(utilities)]
        for land in utilities:
            total += land * multiplier * AVERAGE_DICE
    return total * opponents


def holdings_worth(game: Game, seat: int, owner: list[int]) -> int:
    """Places of ``seat`` under ``owner`` at what they count for in net worth."""
    total = 0
    mortgaged, buildings = game.mortgaged, game.buildings
    for sq, price, house_cost in _PLACE_WORTH:
        if owner[sq] == seat:
            total += price // 2 if mortgaged[sq] else price
            total += buildings[sq] * house_cost
    return total


def position_value(game: Game, seat: int, owner: list[int] | None = None,
                   cash: int | None = None, reserve: int = 0) -> float:
    """Cash, places at their worth and the rent they should bring over the rounds left (0 once
    bankrupt, as net worth)."""
    if game.bankrupt[seat]:
        return 0.0
    owner = game.owner if owner is None else owner  # only read
    cash = game.cash[seat] if cash is None else cash
    return (cash + holdings_worth(game, seat, owner)
            + rounds_left(game) * income_per_round(game, seat, owner, cash, reserve))


def rent_exposure(game: Game, seat: int, sq: int, rival: int, owner: list[int],
                  rival_cash: int) -> float:
    """Rent ``seat`` may expect to pay per round on ``sq``'s group if ``rival`` held it as in
    ``owner`` and built with ``rival_cash``."""
    group = board.GROUP_OF[sq]
    squares = group if group is not None else (sq,)
    whole = group is not None and all(owner[s] == rival for s in group)
    level = fundable_houses(group, rival_cash) if whole else 0
    total = 0.0
    for s in squares:
        if owner[s] == rival and board.SQUARES[s].kind == board.CITY:
            total += LANDINGS_PER_TURN[s] * city_rent(s, max(game.buildings[s], level), whole)
    return total


def trade_gains(game: Game, offerer: int, target: int, give, take, amount: int,
                reserve: int = 0) -> tuple[float, float]:
    """How the trade (``offerer`` gives ``give`` and pays ``amount`` for ``target``'s
    ``take``) changes the position value of ``offerer`` and of ``target``."""
    after = list(game.owner)
    for s in give:
        after[s] = target
    for s in take:
        after[s] = offerer
    gains = []
    for seat, money in ((offerer, -amount), (target, amount)):
        cash = game.cash[seat]
        before_v = position_value(game, seat, cash=cash, reserve=reserve)
        after_v = position_value(game, seat, after, cash + money, reserve)
        gains.append(after_v - before_v)
    return gains[0], gains[1]


def acquisition_gain(game: Game, seat: int, sq: int, pay: int, reserve: int = 0) -> float:
    """How buying ``sq`` from the bank for ``pay`` changes ``seat``'s position value."""
    after = list(game.owner)
    after[sq] = seat
    cash = game.cash[seat]
    return (position_value(game, seat, after, cash - pay, reserve)
            - position_value(game, seat, cash=cash, reserve=reserve))


def denial_value(game: Game, seat: int, sq: int) -> float:
    """What keeping ``sq`` from the rival who would gain most by it is worth to ``seat``: that
    rival's gain in position value if it got ``sq`` at its price, shared among the table
    (in full heads-up, where every rupee it earns is one of ours)."""
    active = [s for s in range(game.num_players) if not game.bankrupt[s]]
    rivals = [s for s in active if s != seat]
    if not rivals:
        return 0.0
    price = board.SQUARES[sq].price
    best = 0.0
    for r in rivals:
        if game.cash[r] < price:
            continue
        best = max(best, acquisition_gain(game, r, sq, price))
    return best * 2 / len(active)
