"""The Businessman board, its lot table, its four decks and every figure of its rules: the one
place this data lives.

Plain data, read by the rules in :mod:`byapar_env.businessman.game`. Amounts are integer credits.
Cells have global ids 0..77 on four tracks: the big perimeter 0..39, the small perimeter
("abroad") 40..55, the motorway M1..M10 (56..65) and the roulette ring R0..R11 (66..77). A variant
board is a copy of this module with other figures; ``BOARD_HASH`` covers all of it, so a saved
game names the exact figures it was played with.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

# --- tracks -----------------------------------------------------------------------------------
BIG, ABROAD, MOTORWAY, ROULETTE = 0, 1, 2, 3
TRACK_NAMES = ("big perimeter", "abroad", "motorway", "roulette")
BIG_CELLS = 40
ABROAD_FIRST, ABROAD_CELLS = 40, 16
MOTORWAY_FIRST, MOTORWAY_CELLS = 56, 10  # M1 is 56; M0 is cell 5 on the motorway track
ROULETTE_FIRST, ROULETTE_CELLS = 66, 12  # R0 is 66
NUM_CELLS = 78

# --- cell kinds -------------------------------------------------------------------------------
START = "start"
LOT = "lot"
SUPERMARKET = "supermarket"
NOTICE = "notice"
SURPRISE = "surprise"
PENALTY = "penalty"  # pay ``amount``
WIN = "win"  # receive ``amount``
PROFIT = "profit"  # receive ``amount``
GIFT = "gift"  # take ``amount`` shares, colours chosen
EXCHANGE = "exchange"  # one free exchange session (Exchange and Bank cells)
MOTORWAY_ENTRY = "motorway_entry"
ROULETTE_ENTRY = "roulette_entry"
CUSTOMS = "customs"
BROKER = "broker"
HOTEL = "hotel"
BORDER = "border"  # arrival point abroad: nothing
PLAIN = "plain"  # a motorway or roulette cell with no effect
M_SHARES = "m_shares"  # take ``amount`` shares, then one exchange session
M_ACCIDENT = "m_accident"  # pay ``amount``
M_HALF = "m_half"  # pay half one's cash
M_INTERSECTION = "m_intersection"  # pay ``amount`` toll, placed on the big cell 35
R_LOSS = "r_loss"  # pay ``amount``
R_EXIT = "r_exit"  # placed on the big cell 15
R_BANK = "r_bank"  # receive ``amount``, placed on the big cell 15

# --- decks ------------------------------------------------------------------------------------
SURPRISE_DECK = "surprise"
NOTICE_DECK = "notice"
DECKS = (SURPRISE_DECK, NOTICE_DECK)

# --- share colours ----------------------------------------------------------------------------
COLOURS = ("RED", "BLUE", "GREEN", "YELLOW")
NUM_COLOURS = len(COLOURS)

# --- forks (a yes/no choice on landing) -------------------------------------------------------
FORK_MOTORWAY, FORK_ROULETTE, FORK_CUSTOMS, FORK_BROKER = 0, 1, 2, 3
FORK_NAMES = ("motorway entry", "roulette entry", "customs", "broker")

# --- the Hotel's options ----------------------------------------------------------------------
HOTEL_ABROAD_PURCHASE, HOTEL_ROULETTE_3, HOTEL_EXCHANGE_1, HOTEL_NOTHING = 0, 1, 2, 3


@dataclass(frozen=True)
class Figures:
    """Every number of the rules besides the cells and the cards, each written once below."""

    starting_cash: int
    start_pay: int  # for passing or landing on START
    supermarket_fee: int  # paid by whoever lands on the Supermarket (not its owner)
    supermarket_owner_percent: int  # of the fee, to an owner whose Supermarket is not pledged
    abroad_surcharge: int  # added to the price of a lot abroad
    customs_fee: int  # paid when going abroad
    broker_fee: int  # for one exchange session at the Broker
    roulette_exit_cell: int  # where EXIT and TO THE BANK put the token
    motorway_exit_cell: int  # where the motorway's intersection puts the token
    motorway_entry_cell: int  # M0
    customs_cell: int
    roulette_entry_cell: int
    pledge_percent: int  # of the price: what the bank lends on a pledge
    redeem_interest_percent: int  # added to the pledge value to redeem it
    building_sale_percent: int  # of a building's cost, paid by the bank when it is sold
    whole_group_rent_multiplier: int  # a bare lot's rent when its owner holds the whole group
    forfeit_laps: int  # a pledge not redeemed after this many laps goes to the bank
    branch_tokens: int
    enterprise_tokens: int
    point: int  # credits per exchange price point
    price_min: int
    price_max: int
    price_start: int
    shares_per_colour: int  # the whole stock of a colour: the bank supply plus all holdings
    starting_shares: int  # of each colour, per player
    session_buy_limit: int  # shares of one colour a player may buy in one session
    crash_per_share: int  # halving a colour at the floor: every other holder pays this a share
    hand_large: int  # Exchange cards dealt to each player from the large deck
    hand_small: int  # and from the small deck
    dice_sides: int
    exchange_roll: tuple[int, int]  # the movement roll that opens one session first
    max_trades_per_turn: int
    trade_cash_steps: tuple[int, ...]  # the sizes of one cash step in a trade, either way
    max_compose_steps: int  # composition steps of one proposal before only submit/cancel remain
    min_players: int
    max_players: int
    default_num_players: int
    default_max_rounds: int


FIGURES = Figures(
    starting_cash=250_000,
    start_pay=20_000,
    supermarket_fee=20_000,
    supermarket_owner_percent=75,
    abroad_surcharge=5_000,
    customs_fee=10_000,
    broker_fee=1_000,
    roulette_exit_cell=15,
    motorway_exit_cell=35,
    motorway_entry_cell=5,
    customs_cell=30,
    roulette_entry_cell=15,
    pledge_percent=50,
    redeem_interest_percent=10,
    building_sale_percent=50,
    whole_group_rent_multiplier=2,
    forfeit_laps=2,
    branch_tokens=26,
    enterprise_tokens=12,
    point=1_000,
    price_min=1,
    price_max=25,
    price_start=10,
    shares_per_colour=60,
    starting_shares=1,
    session_buy_limit=4,
    crash_per_share=50_000,
    hand_large=3,
    hand_small=4,
    dice_sides=6,
    exchange_roll=(3, 3),
    max_trades_per_turn=3,
    trade_cash_steps=(1_000, 10_000, 50_000),
    max_compose_steps=24,
    min_players=2,
    max_players=6,
    default_num_players=4,
    default_max_rounds=20,
)


@dataclass(frozen=True)
class Cell:
    """One cell. Lots carry their group and prices; other cells an ``amount`` where they use one."""

    index: int
    name: str
    kind: str
    group: int = -1  # 0..10 for G1..G11, -1 for no group
    price: int = 0
    rents: tuple[int, ...] = ()  # bare, with a branch, with an enterprise
    branch_cost: int = 0
    enterprise_cost: int = 0
    pledge: int = 0
    amount: int = 0


def money(amount: int) -> str:
    """An amount of credits as the game's log writes it: ``"12,000 cr"``."""
    return f"{amount:,} cr"


def _lot(i: int, group: int, name: str, price: int, r0: int, r1: int, r2: int, branch: int,
         enterprise: int, pledge: int) -> Cell:
    return Cell(i, name, LOT, group, price, (r0, r1, r2), branch, enterprise, pledge)


GROUP_NAMES = ("G1 Stalls", "G2 Food", "G3 Services", "G4 Retail", "G5 Leisure", "G6 Transport",
               "G7 Light industry", "G8 Heavy industry", "G9 Europe", "G10 Asia", "G11 America")

_BIG: tuple[Cell, ...] = (
    Cell(0, "Start", START),
    _lot(1, 0, "Market stall", 20_000, 2_000, 10_000, 30_000, 15_000, 30_000, 10_000),
    Cell(2, "Notice", NOTICE),
    _lot(3, 0, "Kiosk", 24_000, 2_500, 12_000, 36_000, 15_000, 30_000, 12_000),
    Cell(4, "Penalty", PENALTY, amount=30_000),
    Cell(5, "Motorway entry", MOTORWAY_ENTRY),
    _lot(6, 1, "Bakery", 30_000, 3_000, 15_000, 45_000, 20_000, 40_000, 15_000),
    Cell(7, "Surprise", SURPRISE),
    _lot(8, 1, "Cafe", 30_000, 3_000, 15_000, 45_000, 20_000, 40_000, 15_000),
    _lot(9, 1, "Canteen", 34_000, 3_500, 17_000, 50_000, 20_000, 40_000, 17_000),
    Cell(10, "Exchange", EXCHANGE),
    _lot(11, 2, "Hairdresser", 40_000, 4_000, 20_000, 60_000, 25_000, 50_000, 20_000),
    Cell(12, "Supermarket", SUPERMARKET, price=50_000, pledge=25_000),
    _lot(13, 2, "Photo studio", 40_000, 4_000, 20_000, 60_000, 25_000, 50_000, 20_000),
    _lot(14, 2, "Dry cleaner", 44_000, 4_500, 22_000, 66_000, 25_000, 50_000, 22_000),
    Cell(15, "Roulette entry", ROULETTE_ENTRY),
    _lot(16, 3, "Bookshop", 50_000, 5_000, 25_000, 75_000, 30_000, 60_000, 25_000),
    Cell(17, "Notice", NOTICE),
    _lot(18, 3, "Pharmacy", 50_000, 5_000, 25_000, 75_000, 30_000, 60_000, 25_000),
    _lot(19, 3, "Department store", 56_000, 6_000, 28_000, 84_000, 30_000, 60_000, 28_000),
    Cell(20, "Hotel", HOTEL),
    _lot(21, 4, "Cinema", 60_000, 6_000, 30_000, 90_000, 40_000, 80_000, 30_000),
    Cell(22, "Surprise", SURPRISE),
    _lot(23, 4, "Theatre", 60_000, 6_000, 30_000, 90_000, 40_000, 80_000, 30_000),
    _lot(24, 4, "Stadium", 66_000, 7_000, 33_000, 100_000, 40_000, 80_000, 33_000),
    Cell(25, "Bank", EXCHANGE),
    _lot(26, 5, "Taxi firm", 70_000, 7_000, 35_000, 105_000, 45_000, 90_000, 35_000),
    _lot(27, 5, "Bus depot", 70_000, 7_000, 35_000, 105_000, 45_000, 90_000, 35_000),
    Cell(28, "Win", WIN, amount=40_000),
    _lot(29, 5, "Airline", 76_000, 8_000, 38_000, 115_000, 45_000, 90_000, 38_000),
    Cell(30, "Customs", CUSTOMS),
    _lot(31, 6, "Textile mill", 80_000, 8_000, 40_000, 120_000, 50_000, 100_000, 40_000),
    _lot(32, 6, "Furniture factory", 80_000, 8_000, 40_000, 120_000, 50_000, 100_000, 40_000),
    Cell(33, "Gift", GIFT, amount=3),
    _lot(34, 6, "Brewery", 88_000, 9_000, 44_000, 130_000, 50_000, 100_000, 44_000),
    Cell(35, "Broker", BROKER),
    Cell(36, "Profit", PROFIT, amount=50_000),
    _lot(37, 7, "Steel works", 90_000, 9_000, 45_000, 135_000, 60_000, 120_000, 45_000),
    _lot(38, 7, "Car plant", 95_000, 9_500, 48_000, 145_000, 60_000, 120_000, 47_500),
    _lot(39, 7, "Oil refinery", 100_000, 10_000, 50_000, 150_000, 60_000, 120_000, 50_000),
)

_ABROAD: tuple[Cell, ...] = (
    Cell(40, "Border", BORDER),
    _lot(41, 8, "Paris boutique", 60_000, 8_000, 40_000, 120_000, 40_000, 80_000, 30_000),
    _lot(42, 8, "Berlin brewery", 60_000, 8_000, 40_000, 120_000, 40_000, 80_000, 30_000),
    Cell(43, "Surprise abroad", SURPRISE),
    _lot(44, 8, "Vienna hotel", 66_000, 9_000, 44_000, 130_000, 40_000, 80_000, 33_000),
    Cell(45, "Penalty abroad", PENALTY, amount=30_000),
    _lot(46, 9, "Tokyo electronics", 75_000, 10_000, 50_000, 150_000, 50_000, 100_000, 37_500),
    Cell(47, "Notice abroad", NOTICE),
    _lot(48, 9, "Delhi textiles", 75_000, 10_000, 50_000, 150_000, 50_000, 100_000, 37_500),
    _lot(49, 9, "Singapore port", 80_000, 11_000, 55_000, 160_000, 50_000, 100_000, 40_000),
    Cell(50, "Exchange abroad", EXCHANGE),
    _lot(51, 10, "Chicago grain", 100_000, 13_000, 65_000, 190_000, 60_000, 120_000, 50_000),
    Cell(52, "Bank abroad", EXCHANGE),
    _lot(53, 10, "Texas oil", 100_000, 13_000, 65_000, 190_000, 60_000, 120_000, 50_000),
    Cell(54, "Profit abroad", PROFIT, amount=50_000),
    _lot(55, 10, "New York bank", 110_000, 14_000, 70_000, 210_000, 60_000, 120_000, 55_000),
)

_MOTORWAY: tuple[Cell, ...] = (
    Cell(56, "M1", PLAIN),
    Cell(57, "M2", PLAIN),
    Cell(58, "M3", M_SHARES, amount=5),
    Cell(59, "M4", PLAIN),
    Cell(60, "M5 accident", M_ACCIDENT, amount=30_000),
    Cell(61, "M6 accident", M_ACCIDENT, amount=30_000),
    Cell(62, "M7", PLAIN),
    Cell(63, "M8", M_HALF),
    Cell(64, "M9", PLAIN),
    Cell(65, "M10 intersection", M_INTERSECTION, amount=5_000),
)

_ROULETTE: tuple[Cell, ...] = (
    Cell(66, "R0 entry", PLAIN),
    Cell(67, "R1", R_LOSS, amount=30_000),
    Cell(68, "R2", R_LOSS, amount=20_000),
    Cell(69, "R3", R_LOSS, amount=30_000),
    Cell(70, "R4", R_LOSS, amount=20_000),
    Cell(71, "R5 exit", R_EXIT),
    Cell(72, "R6", R_LOSS, amount=40_000),
    Cell(73, "R7 exit", R_EXIT),
    Cell(74, "R8", R_LOSS, amount=30_000),
    Cell(75, "R9 exit", R_EXIT),
    Cell(76, "R10", R_LOSS, amount=30_000),
    Cell(77, "R11 to the bank", R_BANK, amount=200_000),
)

CELLS: tuple[Cell, ...] = _BIG + _ABROAD + _MOTORWAY + _ROULETTE
assert len(CELLS) == NUM_CELLS and all(c.index == i for i, c in enumerate(CELLS))

NUM_GROUPS = len(GROUP_NAMES)
GROUPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c.index for c in CELLS if c.kind == LOT and c.group == g) for g in range(NUM_GROUPS))
# Each cell's group as a tuple of its lots, or None.
GROUP_OF: tuple[tuple[int, ...] | None, ...] = tuple(
    GROUPS[c.group] if c.kind == LOT else None for c in CELLS)
LOTS: tuple[int, ...] = tuple(c.index for c in CELLS if c.kind == LOT)
SUPERMARKET_CELL = next(c.index for c in CELLS if c.kind == SUPERMARKET)
OWNABLES: tuple[int, ...] = tuple(sorted(LOTS + (SUPERMARKET_CELL,)))
IS_OWNABLE: tuple[bool, ...] = tuple(c.kind in (LOT, SUPERMARKET) for c in CELLS)
IS_LOT: tuple[bool, ...] = tuple(c.kind == LOT for c in CELLS)
IS_ABROAD: tuple[bool, ...] = tuple(ABROAD_FIRST <= i < ABROAD_FIRST + ABROAD_CELLS
                                    for i in range(NUM_CELLS))


def track_of_cell(cell: int) -> int:
    """The track a cell id lies on (cell 5 is BIG; a token at M0 stands there on the motorway)."""
    if cell < ABROAD_FIRST:
        return BIG
    if cell < MOTORWAY_FIRST:
        return ABROAD
    if cell < ROULETTE_FIRST:
        return MOTORWAY
    return ROULETTE


def cell_by_name(name: str) -> Cell:
    """The first cell called ``name``."""
    for c in CELLS:
        if c.name == name:
            return c
    raise KeyError(f"no cell named {name!r}")


# --- Surprise and Notice cards ----------------------------------------------------------------
# Effects: cash (signed amount), pct_cash (percent, paid rounded down to ``round_to``),
# collect_each, pay_each, move_to (cell), move_back (cells), shares (count), dividend (per
# share), lose_shares (per colour), repairs (per branch, per enterprise), per_lot, pass.
@dataclass(frozen=True)
class Card:
    deck: str
    number: int  # 1..16 within its deck
    code: str  # SU1..SU16, NO1..NO16
    text: str
    effect: str
    amount: int = 0
    amount2: int = 0


def _deck(deck: str, prefix: str, rows: list[tuple]) -> tuple[Card, ...]:
    return tuple(Card(deck, i, f"{prefix}{i}", text, effect, *args)
                 for i, (text, effect, *args) in enumerate(rows, start=1))


SURPRISE_CARDS: tuple[Card, ...] = _deck(SURPRISE_DECK, "SU", [
    ("The bank pays you a bonus", "cash", 25_000),
    ("Play on the stock exchange", "pass"),
    ("Back to Start", "move_to", 0),
    ("Take the motorway", "move_to", 5),
    ("Lottery win", "cash", 50_000),
    ("Your birthday", "collect_each", 5_000),
    ("A partner gives you shares", "shares", 2),
    ("An evening at the casino", "move_to", 15),
    ("Business trip: go to the Hotel", "move_to", 20),
    ("Dividends", "dividend", 1_000),
    ("Wrong turn", "move_back", 3),
    ("Insurance payout", "cash", 30_000),
    ("Inheritance", "cash", 100_000),
    ("You host a banquet", "cash", -20_000),
    ("Pickpocket", "cash", -10_000),
    ("Trip abroad: go to Customs", "move_to", 30),
])

NOTICE_CARDS: tuple[Card, ...] = _deck(NOTICE_DECK, "NO", [
    ("Income tax", "pct_cash", 10, 1_000),
    ("Property tax", "repairs", 10_000, 25_000),
    ("Speeding fine", "cash", -15_000),
    ("Utility bills", "per_lot", 5_000),
    ("Play on the stock exchange", "pass"),
    ("Audit refund", "cash", 20_000),
    ("Court ruling: compensate your partners", "pay_each", 5_000),
    ("Report to Start", "move_to", 0),
    ("Call at the Bank", "move_to", 25),
    ("Share dilution", "lose_shares", 1),
    ("Insurance premium", "cash", -20_000),
    ("Deposit interest", "cash", 15_000),
    ("See your broker", "move_to", 35),
    ("Customs inspection", "move_to", 30),
    ("Brokerage fees", "share_fee", 2_000),
    ("Pension fund", "cash", 10_000),
])

CARDS: dict[str, tuple[Card, ...]] = {SURPRISE_DECK: SURPRISE_CARDS, NOTICE_DECK: NOTICE_CARDS}
DECK_SIZE: dict[str, int] = {d: len(c) for d, c in CARDS.items()}
# Each deck's pass card ("play on the stock exchange"): kept until used.
PASS_CARD: dict[str, int] = {d: next(c.number for c in CARDS[d] if c.effect == "pass")
                             for d in DECKS}


def card_by_code(code: str) -> Card:
    for cards in CARDS.values():
        for c in cards:
            if c.code == code:
                return c
    raise KeyError(f"no card {code!r}")


# --- Exchange cards ---------------------------------------------------------------------------
# Kinds: boom (chosen +up, the others -down), double (chosen x2 or halved), rise (chosen +up,
# the others -down), fall (chosen -down). Cards of one kind are alike, so hands hold kinds.
LARGE, SMALL = "large", "small"


@dataclass(frozen=True)
class ExchangeKind:
    index: int
    code: str
    deck: str
    count: int
    kind: str  # boom, double, rise, fall
    up: int = 0  # points added to the chosen colour
    down: int = 0  # points taken from the others (boom, rise) or from the chosen (fall)
    text: str = ""


EXCHANGE_KINDS: tuple[ExchangeKind, ...] = (
    ExchangeKind(0, "L-BOOM-3", LARGE, 4, "boom", 10, 3, "Market boom: one colour +10, others -3"),
    ExchangeKind(1, "L-BOOM-4", LARGE, 4, "boom", 10, 4, "Market boom: one colour +10, others -4"),
    ExchangeKind(2, "L-BOOM-5", LARGE, 4, "boom", 10, 5, "Market boom: one colour +10, others -5"),
    ExchangeKind(3, "L-DOUBLE", LARGE, 6, "double", 0, 0, "Deuce: double or halve one colour"),
    ExchangeKind(4, "S-RISE-1", SMALL, 4, "rise", 1, 1, "One colour +1, the others -1"),
    ExchangeKind(5, "S-RISE-2", SMALL, 4, "rise", 2, 2, "One colour +2, the others -2"),
    ExchangeKind(6, "S-RISE-3", SMALL, 4, "rise", 3, 3, "One colour +3, the others -3"),
    ExchangeKind(7, "S-FALL-2", SMALL, 3, "fall", 0, 2, "One colour -2"),
    ExchangeKind(8, "S-FALL-3", SMALL, 3, "fall", 0, 3, "One colour -3"),
    ExchangeKind(9, "S-FALL-4", SMALL, 3, "fall", 0, 4, "One colour -4"),
    ExchangeKind(10, "S-FALL-5", SMALL, 3, "fall", 0, 5, "One colour -5"),
)
NUM_EXCHANGE_KINDS = len(EXCHANGE_KINDS)
HAND_MAX = FIGURES.hand_large + FIGURES.hand_small  # 7 slots
EXCHANGE_DECK: dict[str, tuple[int, ...]] = {
    d: tuple(k.index for k in EXCHANGE_KINDS if k.deck == d for _ in range(k.count))
    for d in (LARGE, SMALL)
}


def exchange_kind(code: str) -> int:
    """The index of the Exchange card kind ``code`` (e.g. ``"L-BOOM-3"``)."""
    for k in EXCHANGE_KINDS:
        if k.code == code:
            return k.index
    raise KeyError(f"no Exchange card {code!r}; kinds are {[k.code for k in EXCHANGE_KINDS]}")


def board_hash() -> str:
    """A short hash of all the data above, so saved games name their board and figures."""
    data = {
        "cells": [asdict(c) for c in CELLS],
        "cards": {d: [asdict(c) for c in cs] for d, cs in CARDS.items()},
        "exchange": [asdict(k) for k in EXCHANGE_KINDS],
        "figures": asdict(FIGURES),
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


BOARD_HASH = board_hash()
