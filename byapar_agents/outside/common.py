"""What the outside players share: the board read the way their sources read theirs.

Nothing here values a place: each player keeps its own source's model of worth. These are the
mechanics of porting from a 40-square Monopoly board with dollars to Byapar's 36 squares and
rupees: money scaled by ten (Byapar's prices, rents, salary and starting cash are the classic
game's times ten), the classic colour sets matched to Byapar's groups in board order, trade money
put on the amounts the environment can compose, and a reproducible random draw where a source
draws at random.
"""

from __future__ import annotations

import random

from byapar_env.engine import Action, ActionKind, Game, board

from ..tactics import money_step, money_step_below

SCALE = 10  # Byapar rupees per classic-board dollar (prices, rents, salary, starting cash)
PRICE = tuple(s.price for s in board.SQUARES)
HOUSE_COST = tuple(s.house_cost for s in board.SQUARES)
GROUP_OF = board.GROUP_OF
GROUPS = tuple(board.GROUPS.values())
# The classic board's colour sets in board order, matched to Byapar's groups in board order.
CLASSIC_SET = dict(zip(("brown", "light_blue", "purple", "orange", "red", "yellow", "green",
                        "dark_blue"), board.GROUP_NAMES, strict=True))
CAPITAL_PAIR = board.GROUPS["Capital"]  # the classic board's Park Lane and Mayfair


def rng(game: Game, seat: int, salt: str) -> random.Random:
    """A random draw for one decision, the same each time the same game reaches it (a player
    seated twice at a table, or asked again, draws the same)."""
    return random.Random(f"{game.seed}:{game.turn_count}:{game.version}:{seat}:{salt}")


def pay_at_most(amount: float) -> int:
    """The largest trade amount the environment can compose that is at most ``amount``."""
    return money_step_below(int(amount) + 1) if amount >= 1 else 0


def ask_at_least(amount: float) -> int:
    """The smallest composable trade amount of at least ``amount`` (0 when there is none)."""
    return money_step(int(amount + 0.999))


def bid_or_drop(game: Game, square: int, ceiling: float) -> Action:
    """An open auction played as the sealed bid ``ceiling``: the least raise while it stays at
    or under the ceiling and the cash, else drop out (an ascending auction with minimum raises
    ends where a second-price sealed auction would)."""
    from byapar_env.engine import actions

    bid = game.auction.high + board.BID_STEP
    if bid <= ceiling and bid <= game.cash[game.current_player]:
        return actions.bid(square, bid)
    return actions.DROP_OUT


def others(game: Game, seat: int) -> list[int]:
    return [s for s in range(game.num_players) if s != seat and not game.bankrupt[s]]


def held(game: Game, seat: int, group: tuple[int, ...]) -> list[int]:
    """The places of ``group`` that ``seat`` owns, in board order."""
    return [s for s in group if game.owner[s] == seat]


def whole_groups(game: Game, seat: int) -> list[tuple[int, ...]]:
    """The colour groups ``seat`` owns whole, in board order."""
    return [g for g in GROUPS if all(game.owner[s] == seat for s in g)]


def legal_of(legal: list[Action], kind: ActionKind) -> list[Action]:
    return [a for a in legal if a.kind == kind]


def forced_sale(legal: list[Action]) -> Action:
    """Raising cash when the source would mortgage nothing more: Byapar asks for a choice, so
    the first building sale offered (then anything legal)."""
    sales = legal_of(legal, ActionKind.SELL_BUILDING)
    return sales[0] if sales else legal[0]


# ------------------------------------------------------------------------ landing chances
def _landing_chances() -> tuple[float, ...]:
    """The long-run share of moves that end on each square, from a Markov chain of one roll:
    two dice, Go to jail, and the cards that move a player (advance, next transport, back
    three, jail), each drawn with the chance its deck holds it. A player in jail rolls out
    on the next turn (the chain does not model staying). Written for this board; it is the
    model the EPT players' sources build for theirs (a Markov chain of the token)."""
    n = board.NUM_SQUARES
    rolls = [0.0] * 13
    for a in range(1, 7):
        for b in range(1, 7):
            rolls[a + b] += 1 / 36
    go_to_jail = next(s.index for s in board.SQUARES if s.kind == board.GO_TO_JAIL)

    def after_card(sq: int) -> list[tuple[int, float]]:
        deck = board.CARDS[board.SQUARES[sq].deck]
        out: list[tuple[int, float]] = []
        for card in deck:
            p = 1 / len(deck)
            if card.effect == "advance":
                out.append((card.target, p))
            elif card.effect == "advance_transport":
                out.append((min(board.TRANSPORTS, key=lambda t: (t - sq) % n or n), p))
            elif card.effect == "back":
                out.append(((sq - card.amount) % n, p))
            elif card.effect == "jail":
                out.append((board.JAIL_SQUARE, p))
            else:
                out.append((sq, p))
        return out

    moves: list[list[tuple[int, float]]] = []
    for start in range(n):
        row: dict[int, float] = {}
        for total in range(2, 13):
            end = (start + total) % n
            ends = [(end, 1.0)]
            if board.SQUARES[end].kind == board.CARD:
                ends = after_card(end)
            for e, p in ends:
                e = board.JAIL_SQUARE if e == go_to_jail else e
                row[e] = row.get(e, 0.0) + rolls[total] * p
        moves.append(list(row.items()))
    dist = [1 / n] * n
    for _ in range(300):
        nxt = [0.0] * n
        for s, p in enumerate(dist):
            if p:
                for e, q in moves[s]:
                    nxt[e] += p * q
        dist = nxt
    return tuple(dist)


LANDING = _landing_chances()
