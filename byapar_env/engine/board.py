"""The Byapar board, its money, both card decks and every figure of the rules: the one place
this data lives.

Everything here is plain data read by the rules in :mod:`byapar_env.engine.game`. Amounts are
integer rupees. A variant board is a copy of this module with other figures. ``board_hash()``
covers all of it (squares, cards and ``FIGURES``), so saved games and checkpoints name the
exact figures they were made with.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import asdict, dataclass

# --- square kinds -----------------------------------------------------------------------------
START = "start"
CITY = "city"
CARD = "card"
TAX = "tax"
TRANSPORT = "transport"
UTILITY = "utility"
JAIL = "jail"
CHAUTARI = "chautari"
GO_TO_JAIL = "go_to_jail"

# --- decks ------------------------------------------------------------------------------------
BHAGYA = "bhagya"
SAMUDAYA = "samudaya"
DECKS = (BHAGYA, SAMUDAYA)

# --- the figures of the rules -----------------------------------------------------------------


@dataclass(frozen=True)
class RuleFigures:
    """Every number the rules use besides the squares and the cards, each written once in
    ``FIGURES`` below. The engine, the table options, the environment, the arena, the
    command line's table flags and the server's API read them from there (their defaults
    included; the web page's option lists are still written in ``byapar_serve/static/index.html``);
    ``board_hash()`` covers them (``tests/test_board_data.py``), and ``tests/test_rules_doc.py``
    checks docs/rules.md against them."""

    # Money (integer rupees).
    salary: int  # for a forward move onto or past Start
    jail_fine: int
    transport_rent: tuple[int, ...]  # by number of transport squares the owner holds (0-4)
    utility_multiplier: tuple[int, ...]  # times the dice total, by number of utilities held (0-2)
    whole_group_rent_multiplier: int  # an unbuilt city's base rent when one seat holds its group
    mortgage_value_percent: int  # of a place's price: what the bank pays for a mortgage
    mortgage_interest_percent: int  # added to the mortgage value to pay it off
    payoff_rounding: int  # the payoff is rounded up to a multiple of this
    building_sale_percent: int  # of a building's cost: what the bank pays when it is sold back
    bid_step: int  # minimum first bid, minimum raise and bid granularity at auction
    trade_money_step: int  # trade money is a whole multiple of this
    bankruptcy_share_step: int  # a bankrupt's cash is shared among creditors in multiples of this
    # Turns.
    dice_sides: int  # each of the two dice shows 1 to this
    doubles_to_jail: int  # this many doubles in a row in one turn send the player to jail
    jail_max_misses: int  # rolls without a double in jail before the fine must be paid
    max_offers_per_turn: int  # trade offers the turn's player may make in one turn
    hotel: int  # a city's building count meaning a hotel (below it: that many houses)
    # Table options (``rules.Rules``): the allowed range, the defaults and the presets.
    min_players: int
    max_players: int
    default_num_players: int
    default_rounds: int
    round_presets: tuple[int, ...]
    until_one_left_round_cap: int  # rounds=None: the richest player wins after this many rounds
    default_starting_cash: int
    starting_cash_presets: tuple[int, ...]
    starting_cash_step: int  # starting cash is a positive multiple of this
    default_auctions: bool


FIGURES = RuleFigures(
    salary=2_000,
    jail_fine=500,
    transport_rent=(0, 250, 500, 1_000, 2_000),
    utility_multiplier=(0, 40, 100),
    whole_group_rent_multiplier=2,
    mortgage_value_percent=50,
    mortgage_interest_percent=10,
    payoff_rounding=10,
    building_sale_percent=50,
    bid_step=100,
    trade_money_step=10,
    bankruptcy_share_step=10,
    dice_sides=6,
    doubles_to_jail=3,
    jail_max_misses=3,
    max_offers_per_turn=3,
    hotel=5,
    min_players=2,
    max_players=6,
    default_num_players=4,
    default_rounds=40,
    round_presets=(20, 40),
    until_one_left_round_cap=100,
    default_starting_cash=15_000,
    starting_cash_presets=(10_000, 15_000, 20_000),
    starting_cash_step=100,
    default_auctions=True,
)

# Module-level names for the figures that callers (and the engine's hot paths) have always read
# here. They are the figures above, not copies: change a figure in FIGURES only.
SALARY = FIGURES.salary
JAIL_FINE = FIGURES.jail_fine
TRANSPORT_RENT = FIGURES.transport_rent
UTILITY_MULTIPLIER = FIGURES.utility_multiplier
BID_STEP = FIGURES.bid_step
STARTING_CASH_PRESETS = FIGURES.starting_cash_presets
DEFAULT_STARTING_CASH = FIGURES.default_starting_cash
MORTGAGE_INTEREST_PERCENT = FIGURES.mortgage_interest_percent
HOTEL = FIGURES.hotel
JAIL_MAX_MISSES = FIGURES.jail_max_misses


@dataclass(frozen=True)
class Square:
    index: int
    name: str
    kind: str
    group: str | None = None
    price: int = 0
    house_cost: int = 0
    rents: tuple[int, ...] = ()  # cities: base, 1-4 houses, hotel
    tax: int = 0
    deck: str | None = None


def _city(i: int, name: str, group: str, price: int, house: int, *rents: int) -> Square:
    return Square(i, name, CITY, group, price, house, tuple(rents))


SQUARES: tuple[Square, ...] = (
    Square(0, "Start", START),
    _city(1, "Jumla", "Karnali", 600, 500, 20, 100, 300, 900, 1_600, 2_500),
    Square(2, "Samudaya", CARD, deck=SAMUDAYA),
    _city(3, "Surkhet", "Karnali", 600, 500, 40, 200, 600, 1_800, 3_200, 4_500),
    Square(4, "Income tax", TAX, tax=1_000),
    Square(5, "Bus park", TRANSPORT, price=2_000),
    _city(6, "Mahendranagar", "Sudurpashchim", 1_000, 500, 60, 300, 900, 2_700, 4_000, 5_500),
    _city(7, "Dhangadhi", "Sudurpashchim", 1_000, 500, 60, 300, 900, 2_700, 4_000, 5_500),
    _city(8, "Dadeldhura", "Sudurpashchim", 1_200, 500, 80, 400, 1_000, 3_000, 4_500, 6_000),
    Square(9, "Jail", JAIL),
    _city(10, "Nepalgunj", "Lumbini", 1_400, 800, 100, 500, 1_500, 4_500, 6_250, 7_500),
    Square(11, "Hydropower", UTILITY, price=1_500),
    _city(12, "Butwal", "Lumbini", 1_400, 800, 100, 500, 1_500, 4_500, 6_250, 7_500),
    _city(13, "Lumbini", "Lumbini", 1_600, 800, 120, 600, 1_800, 5_000, 7_000, 9_000),
    Square(14, "Airport", TRANSPORT, price=2_000),
    _city(15, "Birgunj", "Madhesh", 1_800, 1_000, 140, 700, 2_000, 5_500, 7_500, 9_500),
    Square(16, "Bhagya", CARD, deck=BHAGYA),
    _city(17, "Janakpur", "Madhesh", 2_000, 1_000, 160, 800, 2_200, 6_000, 8_000, 10_000),
    Square(18, "Chautari", CHAUTARI),
    _city(19, "Ilam", "Koshi", 2_200, 1_200, 180, 900, 2_500, 7_000, 8_750, 10_500),
    Square(20, "Samudaya", CARD, deck=SAMUDAYA),
    _city(21, "Dharan", "Koshi", 2_200, 1_200, 180, 900, 2_500, 7_000, 8_750, 10_500),
    _city(22, "Biratnagar", "Koshi", 2_400, 1_200, 200, 1_000, 3_000, 7_500, 9_250, 11_000),
    Square(23, "Railway", TRANSPORT, price=2_000),
    _city(24, "Gorkha", "Gandaki", 2_600, 1_400, 220, 1_100, 3_300, 8_000, 9_750, 11_500),
    _city(25, "Mustang", "Gandaki", 2_600, 1_400, 220, 1_100, 3_300, 8_000, 9_750, 11_500),
    _city(26, "Pokhara", "Gandaki", 2_800, 1_400, 240, 1_200, 3_600, 8_500, 10_250, 12_000),
    Square(27, "Go to jail", GO_TO_JAIL),
    _city(28, "Chitwan", "Bagmati", 3_000, 1_800, 260, 1_300, 3_900, 9_000, 11_000, 12_750),
    Square(29, "Bhagya", CARD, deck=BHAGYA),
    _city(30, "Bhaktapur", "Bagmati", 3_200, 1_800, 280, 1_500, 4_500, 10_000, 12_000, 14_000),
    Square(31, "Drinking water", UTILITY, price=1_500),
    Square(32, "Cable car", TRANSPORT, price=2_000),
    _city(33, "Lalitpur", "Capital", 3_500, 2_000, 350, 1_750, 5_000, 11_000, 13_000, 15_000),
    Square(34, "Property tax", TAX, tax=1_500),
    _city(35, "Kathmandu", "Capital", 4_000, 2_000, 500, 2_000, 6_000, 14_000, 17_000, 20_000),
)
NUM_SQUARES = len(SQUARES)
JAIL_SQUARE = next(s.index for s in SQUARES if s.kind == JAIL)

# Colour groups from the cheapest to the dearest, each a tuple of square indices.
GROUP_NAMES: tuple[str, ...] = (
    "Karnali", "Sudurpashchim", "Lumbini", "Madhesh", "Koshi", "Gandaki", "Bagmati", "Capital",
)
GROUPS: dict[str, tuple[int, ...]] = {
    g: tuple(s.index for s in SQUARES if s.group == g) for g in GROUP_NAMES
}
# Each square's colour group as a tuple of squares, or None for squares outside the groups.
GROUP_OF: tuple[tuple[int, ...] | None, ...] = tuple(
    GROUPS[s.group] if s.group else None for s in SQUARES
)
PLACES: tuple[int, ...] = tuple(s.index for s in SQUARES if s.kind in (CITY, TRANSPORT, UTILITY))
CITIES: tuple[int, ...] = tuple(s.index for s in SQUARES if s.kind == CITY)
TRANSPORTS: tuple[int, ...] = tuple(s.index for s in SQUARES if s.kind == TRANSPORT)
UTILITIES: tuple[int, ...] = tuple(s.index for s in SQUARES if s.kind == UTILITY)
# Whether each square is a place (a city, transport or utility: owned, mortgaged, traded).
IS_PLACE: tuple[bool, ...] = tuple(s.kind in (CITY, TRANSPORT, UTILITY) for s in SQUARES)


def square_by_name(name: str) -> Square:
    """The square called ``name`` (the first one, for the repeated card squares)."""
    for s in SQUARES:
        if s.name == name:
            return s
    raise KeyError(f"no square named {name!r}; squares are {[s.name for s in SQUARES]}")


# --- cards ------------------------------------------------------------------------------------
# Effects: advance (to square), advance_transport, back (squares), jail, bail, collect (amount),
# pay (amount), repairs (per house, per hotel), pay_each (amount), collect_each (amount).


@dataclass(frozen=True)
class Card:
    deck: str
    number: int  # 1-16 within its deck
    effect: str
    text: str
    amount: int = 0
    target: int = -1
    per_hotel: int = 0


def _cards(deck: str, rows: list[tuple]) -> tuple[Card, ...]:
    out = []
    for number, (effect, text, *args) in enumerate(rows, start=1):
        kw: dict = {}
        if effect == "advance":
            kw["target"] = args[0]
        elif effect == "repairs":
            kw["amount"], kw["per_hotel"] = args
        elif args:
            kw["amount"] = args[0]
        out.append(Card(deck, number, effect, text, **kw))
    return tuple(out)


BHAGYA_CARDS: tuple[Card, ...] = _cards(BHAGYA, [
    ("advance", "The road is clear all the way home: advance to Start.", 0),
    ("advance", "A meeting in the capital: advance to Kathmandu.", 35),
    ("advance", "A holiday by the lake: advance to Pokhara.", 26),
    ("advance", "Business calls you west: advance to Butwal.", 12),
    ("advance", "Catch a flight: advance to the Airport.", 14),
    ("advance_transport", "Hurry on: advance to the next transport square."),
    ("advance_transport", "Take the next ride out: advance to the next transport square."),
    ("back", "A landslide blocks the road: go back three squares.", 3),
    ("jail", "Caught without a permit: go straight to jail.", 0),
    ("bail", "A friend stands bail: keep this card to leave jail."),
    ("collect", "Your tea shop has a good season: collect Rs 500.", 500),
    ("collect", "A lottery ticket pays off: collect Rs 1,500.", 1_500),
    ("collect", "Your shares pay a dividend: collect Rs 1,000.", 1_000),
    ("pay", "A fine for overloading your jeep: pay Rs 150.", 150),
    ("repairs", "Monsoon repairs: pay Rs 250 per house and Rs 1,000 per hotel.", 250, 1_000),
    ("pay_each", "You host a feast for the table: pay every other player Rs 500.", 500),
])

SAMUDAYA_CARDS: tuple[Card, ...] = _cards(SAMUDAYA, [
    ("advance", "The bus leaves for home: advance to Start.", 0),
    ("collect", "Dashain dakshina from your elders: collect Rs 1,000.", 1_000),
    ("collect_each", "Bhailo at every door: collect Rs 100 from every other player.", 100),
    ("pay", "Hospital bill: pay Rs 1,000.", 1_000),
    ("pay", "School fees: pay Rs 500.", 500),
    ("pay", "The tole's new water tap: pay Rs 500.", 500),
    ("collect", "You win a prize at the mela: collect Rs 200.", 200),
    ("collect", "An old loan is repaid: collect Rs 2,000.", 2_000),
    ("collect", "Your harvest sells well: collect Rs 500.", 500),
    ("collect", "A cousin abroad sends money: collect Rs 1,000.", 1_000),
    ("jail", "A quarrel at the chowk: go straight to jail.", 0),
    ("bail", "The tole vouches for you: keep this card to leave jail."),
    ("repairs", "Earthquake repairs: pay Rs 400 per house and Rs 1,150 per hotel.", 400, 1_150),
    ("collect", "A refund from the tax office: collect Rs 250.", 250),
    ("collect", "Your homestay is full all season: collect Rs 1,000.", 1_000),
    ("collect", "You find a note in an old coat: collect Rs 100.", 100),
])

CARDS: dict[str, tuple[Card, ...]] = {BHAGYA: BHAGYA_CARDS, SAMUDAYA: SAMUDAYA_CARDS}
# Each deck's bail card: a seat keeps it until used, then it goes back under its deck.
BAIL_CARD: dict[str, int] = {
    d: next(c.number for c in CARDS[d] if c.effect == "bail") for d in DECKS}


def board_hash() -> str:
    """A short hash of all the data above (squares, cards and every rule figure), so saved games
    and checkpoints can name their board and rules."""
    data = {
        "squares": [asdict(s) for s in SQUARES],
        "cards": {d: [asdict(c) for c in cs] for d, cs in CARDS.items()},
        "figures": asdict(FIGURES),
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


BOARD_HASH = board_hash()


def __getattr__(name: str) -> object:
    """``RULES_FIGURES``, the figures' name before both games called them ``FIGURES``: still
    read, with a DeprecationWarning, for one release."""
    if name == "RULES_FIGURES":
        warnings.warn("byapar_env.engine.board.RULES_FIGURES is deprecated: use "
                      "board.FIGURES, the name both games' boards use", DeprecationWarning,
                      stacklevel=2)
        return FIGURES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
