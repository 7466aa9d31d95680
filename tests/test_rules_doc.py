"""docs/rules.md against the code: every number it states in the sentences below is built here
from the engine's figures (``board``, ``FIGURES``, ``actions``), so a figure changed in the
code and not in the page fails; and every test the page names exists in the file it names.

The expected sentences are written here, in the repository; nothing outside it is read.
"""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path

import pytest

from byapar_env.engine import actions, board
from byapar_env.engine.board import FIGURES

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}
ORDINALS = {2: "second", 3: "third", 4: "fourth"}


def _text() -> str:
    """The page with every run of spaces and line breaks as one space."""
    return " ".join(DOC.read_text().split())


def _rs(amount: int) -> str:
    return f"{amount:,}"


def _first(kind: str) -> int:
    return next(s.index for s in board.SQUARES if s.kind == kind)


def _payoff(price: int) -> tuple[int, int, int]:
    """(mortgage value, value plus interest, the payoff rounded up) of a place's price."""
    value = price * FIGURES.mortgage_value_percent // 100
    owed = value + value * FIGURES.mortgage_interest_percent // 100
    return value, owed, math.ceil(owed / FIGURES.payoff_rounding) * FIGURES.payoff_rounding


def _card(deck: str, effect: str) -> board.Card:
    return next(c for c in board.CARDS[deck] if c.effect == effect)


def _sentences() -> list[str]:
    taxes = [s for s in board.SQUARES if s.kind == board.TAX]
    card_squares = {d: [s.index for s in board.SQUARES if s.deck == d] for d in board.DECKS}
    lalitpur = board.square_by_name("Lalitpur")
    value, owed, payoff = _payoff(lalitpur.price)
    house_costs = {g: board.SQUARES[board.GROUPS[g][0]].house_cost for g in board.GROUP_NAMES}
    by_cost: dict[int, list[str]] = {}
    for g, cost in house_costs.items():
        by_cost.setdefault(cost, []).append(g)
    groups_text = "Rs " + ", ".join(
        f"{_rs(c)} {' and '.join(gs)}" for c, gs in by_cost.items())
    repairs_b, repairs_s = _card(board.BHAGYA, "repairs"), _card(board.SAMUDAYA, "repairs")
    owed_three = 1_000
    share = owed_three // 3 // FIGURES.bankruptcy_share_step * FIGURES.bankruptcy_share_step
    transport_rents = FIGURES.transport_rent[1:]
    return [
        # Board data.
        f"{board.NUM_SQUARES} squares numbered clockwise from Start (0), with corners at "
        f"{_first(board.START)} (Start), {_first(board.JAIL)} (Jail), "
        f"{_first(board.CHAUTARI)} (Chautari) and {_first(board.GO_TO_JAIL)} (Go to jail)",
        f"{len(board.CITIES)} cities in {len(board.GROUPS)} colour groups, {len(board.TRANSPORTS)} "
        f"transport squares ({', '.join(map(str, board.TRANSPORTS))}), {len(board.UTILITIES)} "
        f"utilities ({', '.join(map(str, board.UTILITIES))})",
        f"card squares at {' and '.join(map(str, card_squares[board.SAMUDAYA]))} (Samudaya) and "
        f"{' and '.join(map(str, card_squares[board.BHAGYA]))} (Bhagya)",
        f"taxes at {taxes[0].index} (Rs {_rs(taxes[0].tax)}) and {taxes[1].index} "
        f"(Rs {_rs(taxes[1].tax)})",
        f"That makes {len(board.PLACES)} places that can be owned.",
        f"{WORDS[FIGURES.doubles_to_jail]} doubles to jail, "
        f"{WORDS[FIGURES.jail_max_misses]} misses in jail, "
        f"{WORDS[FIGURES.max_offers_per_turn]} offers a turn, "
        f"the hotel as building {FIGURES.hotel}",
        f"({FIGURES.min_players} to {FIGURES.max_players} players, the defaults of "
        f"{FIGURES.default_num_players} players, {FIGURES.default_rounds} rounds, "
        f"Rs {_rs(FIGURES.default_starting_cash)} and auctions on",
        f"the cap of {FIGURES.until_one_left_round_cap} rounds when playing until one is left, "
        f"starting cash in multiples of {FIGURES.starting_cash_step}",
        f"salary {_rs(FIGURES.salary)}, fine {FIGURES.jail_fine}, transport rents "
        f"{'/'.join(map(_rs, transport_rents))}, utility rents of "
        f"{FIGURES.utility_multiplier[1]}x and {FIGURES.utility_multiplier[2]}x the dice, "
        f"bids from {FIGURES.bid_step} in steps of {FIGURES.bid_step}",
        f"Lalitpur: {_rs(value)} + {_rs(owed - value)} = {_rs(owed)}, so Rs {_rs(payoff)}",
        f"Each of the {sum(len(c) for c in board.CARDS.values())} cards",
        # Table options.
        f"Its defaults are {FIGURES.default_num_players} players, {FIGURES.default_rounds} rounds, "
        f"Rs {_rs(FIGURES.default_starting_cash)} each and auctions on",
        f"`num_players` must be a whole number from {FIGURES.min_players} to {FIGURES.max_players}",
        f"The presets are {' and '.join(map(str, sorted(FIGURES.round_presets, reverse=True)))}",
        f"`round_limit` is `rounds`, or {FIGURES.until_one_left_round_cap} when `rounds` is `None`",
        f"`starting_cash` takes any positive multiple of {FIGURES.starting_cash_step}. The presets "
        f"{', '.join(map(_rs, FIGURES.starting_cash_presets[:-1]))} and "
        f"{_rs(FIGURES.starting_cash_presets[-1])}",
        # A turn, doubles, the end.
        f"holds at least Rs {FIGURES.jail_fine}",
        f"pays Rs {_rs(FIGURES.salary)} from the bank, once",
        f"the limit of {WORDS[FIGURES.max_offers_per_turn]} offers starts again",
        f"The {ORDINALS[FIGURES.doubles_to_jail]} double in a row of one turn sends the player",
        f"If more than one player is still in after round {FIGURES.until_one_left_round_cap}",
        # Rent, taxes, auctions.
        f"{_rs(transport_rents[0])} for one, {_rs(transport_rents[1])} for two, "
        f"{_rs(transport_rents[2])} for three, {_rs(transport_rents[3])} for four",
        f"Utility rent is {FIGURES.utility_multiplier[1]} times the dice total when the owner "
        f"holds one utility, and {FIGURES.utility_multiplier[2]} times with both",
        f"Income tax (square {taxes[0].index}) costs {_rs(taxes[0].tax)} and Property tax "
        f"(square {taxes[1].index}) costs {_rs(taxes[1].tax)}",
        f"any multiple of {FIGURES.bid_step} from the highest bid plus {FIGURES.bid_step}",
        f"every one of them up to {_rs(actions.BIDS_LISTED_EACH)} bids above the minimum "
        f"(Rs {_rs(actions.BIDS_LISTED_EACH * FIGURES.bid_step)}",
        f"then at most {actions.BIDS_LISTED_ABOVE} more",
        # Building, mortgages, jail, cards, bankruptcy.
        f"costs the group's house cost ({groups_text})",
        f"all {len(board.CITIES)} cities can take four houses and a hotel "
        f"({len(board.CITIES) * FIGURES.hotel} buildings)",
        "(for example " + ", ".join(
            f"{_rs(p)} → {_rs(_payoff(p)[0])} → {_rs(_payoff(p)[2])}"
            for p in (600, 1_500, 3_500)) + ")",
        f"pay the Rs {FIGURES.jail_fine} fine (only with Rs {FIGURES.jail_fine} in cash)",
        f"Bhagya {repairs_b.number} charges Rs {repairs_b.amount} a house and "
        f"Rs {_rs(repairs_b.per_hotel)} a hotel, Samudaya {repairs_s.number} charges "
        f"Rs {repairs_s.amount} and Rs {_rs(repairs_s.per_hotel)}",
        f"Rs {_rs(owed_three)} owed to three players gives each Rs {share}, and the bank takes "
        f"Rs {owed_three - 3 * share}",
        f"Bhagya {_card(board.BHAGYA, 'pay_each').number} (\"pay every other player Rs "
        f"{_card(board.BHAGYA, 'pay_each').amount}\")",
        f"Samudaya {_card(board.SAMUDAYA, 'collect_each').number} (Bhailo) is a separate Rs "
        f"{_card(board.SAMUDAYA, 'collect_each').amount} debt",
    ]


@pytest.mark.parametrize("sentence", _sentences())
def test_the_rules_page_states_the_codes_figures(sentence: str) -> None:
    assert sentence in _text(), f"docs/rules.md does not say: {sentence}"


def test_the_figures_the_page_quotes_are_the_boards() -> None:
    """The page's worked examples are of real prices (Rs 600, 1,500 and 3,500 places)."""
    prices = {s.price for s in board.SQUARES}
    assert {600, 1_500, 3_500} <= prices
    assert {FIGURES.max_offers_per_turn, FIGURES.jail_max_misses,
            FIGURES.doubles_to_jail} <= set(WORDS)


def test_every_test_the_page_names_exists() -> None:
    """A name starting ``::`` is in the file named last before it."""
    doc = DOC.read_text()
    last = None
    defined: dict[str, set[str]] = {}
    missing = []
    for m in re.finditer(r"`(tests/[\w/]+\.py)(?:::(\w+))?`|`::(\w+)`", doc):
        path, name, short = m.groups()
        if path:
            last = path
            assert (ROOT / path).is_file(), f"docs/rules.md names {path}, which is not there"
            if name is None:
                continue
        else:
            name = short
        assert last is not None, f"::{name} before any file is named"
        if last not in defined:
            tree = ast.parse((ROOT / last).read_text())
            defined[last] = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        if name not in defined[last]:
            missing.append(f"{last}::{name}")
    assert missing == []
