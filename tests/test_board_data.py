"""The engine's board data checked figure by figure against the spec (board.md) and the rules page.

The figures come from tests/data, extracted from the spec files that live beside the
repository (``python tests/data/extract.py ../shared/spec`` regenerates them): ``board.md``
holds the spec's tables as written, and ``rules_figures.json`` the figures the rules page states.
So a figure changed on either side shows up here, and the tests run on a fresh clone.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from scenario import new_game, sq

from byapar_env.engine import board, mortgage_value, payoff_cost

DATA = Path(__file__).resolve().parent / "data"
BOARD_MD = DATA / "board.md"
RULES_JSON = DATA / "rules_figures.json"


# --------------------------------------------------------------------------- parsing the spec
def _num(text: str) -> int:
    """``"1,200"`` -> 1200."""
    return int(text.replace(",", "").strip())


def _sections() -> dict[str, str]:
    """board.md split by its ``## `` headings."""
    out: dict[str, str] = {}
    name = ""
    for line in BOARD_MD.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            name = line[3:].strip()
            out[name] = ""
        elif name:
            out[name] += line + "\n"
    return out


def _table(section_title: str) -> list[list[str]]:
    """The rows (header and separator dropped) of the first table under a heading."""
    section = next(text for title, text in _sections().items() if title.startswith(section_title))
    rows = []
    for line in section.splitlines():
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append(cells)
    assert len(rows) > 2, f"no table under {section_title!r}"
    return rows[2:]


def _rules() -> dict:
    """The figures the rules page states (see tests/data/extract.py)."""
    return json.loads(RULES_JSON.read_text(encoding="utf-8"))


CORNER_KINDS = {"Start": board.START, "Jail": board.JAIL, "Chautari": board.CHAUTARI,
                "Go to jail": board.GO_TO_JAIL}
CARD_DECKS = {"Bhagya": board.BHAGYA, "Samudaya": board.SAMUDAYA}


# --------------------------------------------------------------------------- squares
def test_square_table_has_36_rows_matching_the_engine_one_for_one():
    """board.md lists 36 squares clockwise from Start; the engine has the same 36, in order."""
    rows = _table("The squares")
    assert len(rows) == 36 == board.NUM_SQUARES == len(board.SQUARES)
    assert [_num(r[0]) for r in rows] == list(range(36))
    assert [s.index for s in board.SQUARES] == list(range(36))
    assert [r[1] for r in rows] == [s.name for s in board.SQUARES]


def test_every_square_kind_group_price_and_tax_matches_the_spec():
    """Kind, colour group, price and tax amount of each square are the spec's figures."""
    for row in _table("The squares"):
        i, name, kind_text, group, price = _num(row[0]), row[1], row[2], row[3], row[4]
        s = board.SQUARES[i]
        where = f"square {i} {name}"
        if kind_text.startswith("corner"):
            assert s.kind == CORNER_KINDS[name], where
        elif kind_text == "card square":
            assert s.kind == board.CARD and s.deck == CARD_DECKS[name], where
        elif kind_text.startswith("tax"):
            m = re.fullmatch(r"tax, pay Rs ([\d,]+)", kind_text)
            assert m, kind_text
            assert s.kind == board.TAX and s.tax == _num(m.group(1)), where
        else:
            assert kind_text in ("city", "transport", "utility"), kind_text
            assert s.kind == {"city": board.CITY, "transport": board.TRANSPORT,
                              "utility": board.UTILITY}[kind_text], where
        assert s.group == (group or None), where
        assert s.price == (_num(price) if price else 0), where
        if s.kind != board.TAX:
            assert s.tax == 0, where
        if s.kind != board.CARD:
            assert s.deck is None, where


def test_corners_and_place_counts():
    """Corners at 0, 9, 18, 27; 20 cities, 4 transport squares, 2 utilities, 26 places."""
    corners = [s.index for s in board.SQUARES
               if s.kind in (board.START, board.JAIL, board.CHAUTARI, board.GO_TO_JAIL)]
    assert corners == [0, 9, 18, 27]
    assert board.JAIL_SQUARE == 9 == sq("Jail")
    assert len(board.CITIES) == 20
    assert board.TRANSPORTS == (5, 14, 23, 32)
    assert board.UTILITIES == (11, 31)
    assert len(board.PLACES) == 26
    assert sorted(board.PLACES) == sorted(board.CITIES + board.TRANSPORTS + board.UTILITIES)
    assert [s.index for s in board.SQUARES if s.kind == board.CARD] == [2, 16, 20, 29]
    assert [s.index for s in board.SQUARES if s.kind == board.TAX] == [4, 34]


def test_city_rents_and_house_costs_match_the_spec_table():
    """Each city's house cost and its base, 1-4 house and hotel rents are the spec's figures."""
    rows = _table("City rents")
    assert len(rows) == 20
    assert [r[0] for r in rows] == [board.SQUARES[i].name for i in board.CITIES]
    for row in rows:
        s = board.square_by_name(row[0])
        assert s.kind == board.CITY
        assert s.group == row[1], row[0]
        assert s.house_cost == _num(row[2]), row[0]
        assert s.rents == tuple(_num(c) for c in row[3:9]), row[0]
    for s in board.SQUARES:
        if s.kind != board.CITY:
            assert s.house_cost == 0 and s.rents == (), s.name


def test_engine_rent_reads_the_table_for_every_city_and_building_count():
    """The rent the engine charges is the table figure: base (doubled for the whole group when
    unbuilt), then the 1-4 house and hotel columns."""
    for row in _table("City rents"):
        s = board.square_by_name(row[0])
        base, *built = (_num(c) for c in row[3:9])
        game = new_game(2)
        game.owner[s.index] = 1
        assert game.rent(s.index) == base, s.name
        for other in board.GROUPS[s.group]:
            game.owner[other] = 1
        assert game.rent(s.index) == 2 * base, s.name
        for n, expected in enumerate(built, start=1):
            for other in board.GROUPS[s.group]:
                game.buildings[other] = n
            assert game.rent(s.index) == expected, (s.name, n)


def test_house_costs_by_group_match_the_rules_page():
    """The rules page gives one house cost per province; every city of it uses that cost."""
    costs = _rules()["house_cost_by_group"]
    assert costs == {"Karnali": 500, "Sudurpashchim": 500, "Lumbini": 800, "Madhesh": 1_000,
                     "Koshi": 1_200, "Gandaki": 1_400, "Bagmati": 1_800, "Capital": 2_000}
    for group, squares in board.GROUPS.items():
        assert {board.SQUARES[i].house_cost for i in squares} == {costs[group]}, group


def test_groups_match_the_province_lists_of_the_rules_page():
    """The eight colour groups, cheapest first, hold exactly the places the rules page lists."""
    listed = _rules()["groups_cheapest_first"]
    assert list(listed) == list(board.GROUP_NAMES)
    for group, names in listed.items():
        assert [board.SQUARES[i].name for i in board.GROUPS[group]] == names, group
    assert sum(len(v) for v in listed.values()) == 20


def test_groups_are_ordered_cheapest_to_dearest():
    """GROUP_NAMES runs from the cheapest group to the dearest, as the rules page lists them."""
    top_prices = [max(board.SQUARES[i].price for i in board.GROUPS[g]) for g in board.GROUP_NAMES]
    low_prices = [min(board.SQUARES[i].price for i in board.GROUPS[g]) for g in board.GROUP_NAMES]
    assert top_prices == sorted(top_prices)
    assert all(top < low for top, low in zip(top_prices, low_prices[1:], strict=False))


def test_transport_and_utility_names_match_the_rules_page():
    """Bus park, Airport, Railway, Cable car; Hydropower and Drinking water."""
    rules = _rules()
    assert rules["transport_squares"] == ["Bus park", "Airport", "Railway", "Cable car"]
    assert rules["utilities"] == ["Hydropower", "Drinking water"]
    assert [board.SQUARES[i].name for i in board.TRANSPORTS] == rules["transport_squares"]
    assert [board.SQUARES[i].name for i in board.UTILITIES] == rules["utilities"]


# --------------------------------------------------------------------------- other money
def _money_rows() -> dict[str, str]:
    return {r[0]: r[1] for r in _table("Other money")}


def test_salary_fine_and_bid_step_match_the_spec():
    """Salary Rs 2,000, jail fine Rs 500, bids from Rs 100 in steps of Rs 100."""
    rows = _money_rows()
    assert board.SALARY == _num(rows["salary for a forward move onto or past Start"]) == 2_000
    assert board.JAIL_FINE == _num(rows["jail fine"]) == 500
    bid = rows["minimum first bid and minimum raise at auction"]
    assert bid == "100, bids in multiples of 100"
    assert board.BID_STEP == 100


def test_transport_and_utility_rents_match_the_spec():
    """Transport 250/500/1,000/2,000 by squares held; utilities 40x or 100x the dice total."""
    rows = _money_rows()
    transport = rows["transport rent by number of transport squares the owner holds (1, 2, 3, 4)"]
    assert board.TRANSPORT_RENT[1:] == tuple(_num(x) for x in transport.split(", "))
    assert board.TRANSPORT_RENT[0] == 0
    m = re.fullmatch(r"(\d+) × dice total with one utility, (\d+) × dice total with both",
                     rows["utility rent"])
    assert m
    assert board.UTILITY_MULTIPLIER == (0, int(m.group(1)), int(m.group(2))) == (0, 40, 100)


def test_engine_transport_and_utility_rent_for_each_count_held():
    """A game charges the spec's transport rent for 1-4 held and 40x / 100x for utilities."""
    game = new_game(2)
    for held, expected in zip(range(1, 5), (250, 500, 1_000, 2_000), strict=True):
        game.owner[board.TRANSPORTS[held - 1]] = 1
        for t in board.TRANSPORTS[:held]:
            assert game.rent(t) == expected, held
    game.owner[11] = 1
    assert game.rent(11, dice_total=7) == 280
    game.owner[31] = 1
    assert game.rent(11, dice_total=7) == 700
    assert game.rent(31, dice_total=12) == 1_200


def test_taxes_match_the_rules_page():
    """Income tax Rs 1,000 and Property tax Rs 1,500 (rules page and spec agree)."""
    taxes = _rules()["taxes"]
    assert taxes == {"Income tax": 1_000, "Property tax": 1_500}
    for name, amount in taxes.items():
        assert board.square_by_name(name).tax == amount


def test_rules_page_money_figures():
    """Salary, fine, transport rents and utility multipliers as the rules page states them."""
    rules = _rules()
    assert board.SALARY == rules["salary"] == 2_000
    assert board.JAIL_FINE == rules["jail_fine"] == 500
    assert list(board.TRANSPORT_RENT[1:]) == rules["transport_rent_by_squares_held"] == [
        250, 500, 1_000, 2_000]
    assert list(board.UTILITY_MULTIPLIER[1:]) == rules["utility_multiplier_one_and_both"] == [
        40, 100]


def test_mortgage_value_and_payoff_for_every_place():
    """Mortgage value is half the price; paying off is that plus 10%, rounded up to Rs 10."""
    rows = _money_rows()
    assert rows["mortgage value"] == "half the price"
    assert rows["paying off a mortgage"] == "mortgage value + 10% (rounded up to the next Rs 10)"
    assert board.MORTGAGE_INTEREST_PERCENT == 10
    for i in board.PLACES:
        price = board.SQUARES[i].price
        assert mortgage_value(i) == price // 2 and price % 2 == 0, i
        assert payoff_cost(i) == math.ceil(Fraction(price, 2) * Fraction(11, 10) / 10) * 10, i
    assert payoff_cost(sq("Jumla")) == 330
    assert payoff_cost(sq("Dadeldhura")) == 660
    assert payoff_cost(sq("Lalitpur")) == 1_930  # 1,750 + 175 = 1,925, rounded up


def test_starting_cash_presets():
    """Starting cash 15,000 by default, with 10,000 and 20,000 presets."""
    assert _money_rows()["starting cash (table option)"] == (
        "15,000 default; 10,000 and 20,000 presets")
    assert board.DEFAULT_STARTING_CASH == 15_000
    assert board.STARTING_CASH_PRESETS == (10_000, 15_000, 20_000)


def test_every_amount_is_a_multiple_of_10():
    """board.md: every amount is a multiple of 10."""
    amounts = [board.SALARY, board.JAIL_FINE, *board.TRANSPORT_RENT, board.BID_STEP]
    for s in board.SQUARES:
        amounts += [s.price, s.house_cost, s.tax, *s.rents]
    for deck in board.DECKS:
        for c in board.CARDS[deck]:
            amounts += [c.per_hotel] + ([c.amount] if c.effect != "back" else [])
    assert all(a % 10 == 0 for a in amounts)


# --------------------------------------------------------------------------- cards
def _expected_card(effect_text: str) -> dict:
    """The engine card fields a board.md deck row means."""
    t = effect_text
    if t == "Advance to Start (collect the salary)":
        return {"effect": "advance", "target": 0}
    if t == "Advance to the next transport square":
        return {"effect": "advance_transport"}
    if m := re.fullmatch(r"Advance to (.+)", t):
        return {"effect": "advance", "target": sq(m.group(1))}
    if t == "Go back three squares (no salary)":
        return {"effect": "back", "amount": 3}
    if t == "Go to jail (no salary)":
        return {"effect": "jail"}
    if t.startswith("Bail card: keep it; use it to leave jail"):
        return {"effect": "bail"}
    if m := re.fullmatch(r"Pay Rs ([\d,]+) per house and Rs ([\d,]+) per hotel you own, "
                         r"to the bank", t):
        return {"effect": "repairs", "amount": _num(m.group(1)), "per_hotel": _num(m.group(2))}
    if m := re.fullmatch(r"Pay every other player Rs ([\d,]+)", t):
        return {"effect": "pay_each", "amount": _num(m.group(1))}
    if m := re.fullmatch(r"(?:.*: )?collect Rs ([\d,]+) from every other player", t):
        return {"effect": "collect_each", "amount": _num(m.group(1))}
    if m := re.fullmatch(r"(?:.*: )?[Cc]ollect Rs ([\d,]+) from the bank", t):
        return {"effect": "collect", "amount": _num(m.group(1))}
    if m := re.fullmatch(r"Pay Rs ([\d,]+) to the bank", t):
        return {"effect": "pay", "amount": _num(m.group(1))}
    raise AssertionError(f"unrecognised card text in board.md: {t!r}")


@pytest.mark.parametrize(("deck", "title"),
                         [(board.BHAGYA, "Bhagya"), (board.SAMUDAYA, "Samudaya")])
def test_each_card_effect_and_amount_matches_the_spec(deck, title):
    """All 16 cards of each deck: number, effect, amount, target square, hotel charge."""
    rows = _table(title)
    assert len(rows) == 16 == len(board.CARDS[deck])
    for row, card in zip(rows, board.CARDS[deck], strict=True):
        number = _num(row[0])
        assert card.number == number and card.deck == deck
        want = {"effect": "", "amount": 0, "target": -1, "per_hotel": 0}
        want.update(_expected_card(row[1]))
        got = {"effect": card.effect, "amount": card.amount, "target": card.target,
               "per_hotel": card.per_hotel}
        assert got == want, (title, number, row[1])


def test_card_effect_counts_per_deck():
    """One bail card and one go-to-jail card in each deck; two next-transport cards in Bhagya."""
    effects = {d: [c.effect for c in board.CARDS[d]] for d in board.DECKS}
    for d in board.DECKS:
        assert effects[d].count("bail") == 1
        assert effects[d].count("jail") == 1
    assert effects[board.BHAGYA].count("advance_transport") == 2
    assert [c.number for c in board.CARDS[board.BHAGYA] if c.effect == "bail"] == [10]
    assert [c.number for c in board.CARDS[board.SAMUDAYA] if c.effect == "bail"] == [12]


def test_card_texts_state_their_own_amounts_and_targets():
    """The text shown to players names the amount (and place) the card actually uses."""
    for d in board.DECKS:
        for c in board.CARDS[d]:
            if c.effect in ("collect", "pay", "pay_each", "collect_each", "repairs"):
                assert f"Rs {c.amount:,}" in c.text, c
            if c.effect == "repairs":
                assert f"Rs {c.per_hotel:,} per hotel" in c.text, c
            if c.effect == "advance":
                assert board.SQUARES[c.target].name in c.text, c


def test_a_new_game_holds_each_deck_of_16_cards_shuffled_by_seed():
    """Each deck starts with cards 1-16 once each; the same seed gives the same order."""
    a, b = new_game(2, seed=5), new_game(2, seed=5)
    for d in board.DECKS:
        assert sorted(a.decks[d]) == list(range(1, 17))
        assert a.decks[d] == b.decks[d]
    others = [new_game(2, seed=s).decks[board.BHAGYA] for s in range(6)]
    assert len({tuple(o) for o in others}) > 1


# --------------------------------------------------------------------------- the board hash
def _changed(value: object) -> object:
    """Another value of a figure's type (a tuple gets another first entry, a bool flips)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, tuple):
        return (value[0] + 1, *value[1:])
    return value + 1


def test_the_board_hash_covers_every_rule_figure(monkeypatch):
    """Every figure of the rules lives in board.FIGURES, and changing any one of them
    changes the board hash that saved games and checkpoints carry."""
    import dataclasses

    base = board.board_hash()
    assert base == board.BOARD_HASH
    for f in dataclasses.fields(board.FIGURES):
        value = getattr(board.FIGURES, f.name)
        other = dataclasses.replace(board.FIGURES, **{f.name: _changed(value)})
        monkeypatch.setattr(board, "FIGURES", other)
        assert board.board_hash() != base, f.name
    monkeypatch.undo()
    assert board.board_hash() == base


def test_the_old_name_of_the_figures_warns_and_is_the_same_object():
    """``RULES_FIGURES``, Byapar's name for the figures before both games said ``FIGURES``,
    still reads for one release: the same object, with a DeprecationWarning naming the new
    name, whether read as an attribute or imported; any other missing name is refused."""
    with pytest.warns(DeprecationWarning, match=r"RULES_FIGURES is deprecated: use board\.FIGURES"):
        old = board.RULES_FIGURES
    assert old is board.FIGURES
    with pytest.warns(DeprecationWarning, match="RULES_FIGURES"):
        from byapar_env.engine.board import RULES_FIGURES
    assert RULES_FIGURES is board.FIGURES
    with pytest.raises(AttributeError, match="has no attribute 'RULE_FIGURES'"):
        board.RULE_FIGURES  # noqa: B018 (the read is the test)


def test_module_level_figures_are_the_rule_figures():
    """The older module-level names read FIGURES: one home for each number."""
    names = {"SALARY": "salary", "JAIL_FINE": "jail_fine", "TRANSPORT_RENT": "transport_rent",
             "UTILITY_MULTIPLIER": "utility_multiplier", "BID_STEP": "bid_step",
             "STARTING_CASH_PRESETS": "starting_cash_presets",
             "DEFAULT_STARTING_CASH": "default_starting_cash",
             "MORTGAGE_INTEREST_PERCENT": "mortgage_interest_percent", "HOTEL": "hotel",
             "JAIL_MAX_MISSES": "jail_max_misses"}
    for name, figure in names.items():
        assert getattr(board, name) == getattr(board.FIGURES, figure), name
    jail = board.square_by_name("Jail")
    assert jail.index == board.JAIL_SQUARE
