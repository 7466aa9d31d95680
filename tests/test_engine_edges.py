"""Engine edges found by fuzzing, each pinned by a regression test.

D1: bids at huge cash are listed in a bounded set, any bid in range is still legal.
D4: every action field is type-checked (an int, never a bool or a float).
D5: a field an action's kind does not use is refused.
D6: a damaged or mismatched save is refused with GameStateError naming the field.
D11: negative, bool and float seeds are refused with SeedError.
And the game's state is declared once (``state.STATE``): save, load and clone follow it.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable

import pytest

from byapar_env.engine import (
    Action,
    ActionKind,
    ByaparError,
    Game,
    GameStateError,
    IllegalActionError,
    Phase,
    Rules,
    SeedError,
    actions,
    board,
)
from byapar_env.engine.game import Auction
from byapar_env.engine.state import STATE

LISTED_MAX = 1 + actions.BIDS_LISTED_EACH + actions.BIDS_LISTED_ABOVE


def play_to(phase: Phase, players: int = 3, seed: int = 0, min_steps: int = 60,
            **options) -> Game:
    """A seeded game played by random legal choices until ``phase``, after ``min_steps``
    decisions (an auction once someone has bid; a trade offer made by the turn's player)."""
    game = Game(Rules(num_players=players, **options), seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over:
        steps += 1
        if steps > min_steps and game.phase == phase and (
                phase != Phase.AUCTION or game.auction.high):
            return game
        if phase == Phase.TRADE_ANSWER and steps > min_steps and game.can_offer_trade():
            p = game.turn
            mine = [s for s in game.places_of(p)
                    if not any(game.buildings[x] for x in (board.GROUP_OF[s] or (s,)))]
            if mine:
                other = next(s for s in game.active_seats() if s != p)
                offer = actions.offer_trade(other, mine[:1], [], 0)
                if game.is_legal(offer):
                    game.apply(offer)
                    continue
        game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"seed {seed} never reached {phase.name}")


def open_auction(cash: int, players: int = 3) -> Game:
    """Seat 0 lands on Pokhara (26) and declines it: seat 1 opens the bidding."""
    game = Game(Rules(num_players=players, starting_cash=cash), seed=1)
    game.position[0] = 21
    game.force_dice((2, 3))
    game.apply(actions.ROLL)
    game.apply(actions.decline(26))
    assert game.phase == Phase.AUCTION and game.current_player == 1
    return game


# ------------------------------------------------------------------------------------------ D1
@pytest.mark.parametrize("cash", [10**8, 10**12, 10**40])
def test_huge_cash_lists_a_bounded_set_of_bids(cash: int) -> None:
    """With any cash the auction lists DROP_OUT then at most 1,024 bids, in increasing order,
    from the lowest bid up to the all-in bid, quickly and without growing the bids cache."""
    game = open_auction(cash)
    start = time.perf_counter()
    legal = game.legal_actions()
    assert time.perf_counter() - start < 0.5
    assert legal[0] == actions.DROP_OUT
    amounts = [a.amount for a in legal[1:]]
    assert all(a.kind == ActionKind.BID and a.square == 26 for a in legal[1:])
    assert len(legal) <= LISTED_MAX
    assert amounts == sorted(set(amounts))
    assert amounts[:actions.BIDS_LISTED_EACH] == list(
        range(100, 100 * actions.BIDS_LISTED_EACH + 1, 100))
    assert amounts[-1] == cash  # the all-in bid is listed
    assert all(a % board.BID_STEP == 0 for a in amounts)
    assert all(len(t) <= actions._BID_CACHE_SIZE for t in actions._BIDS)


def test_unlisted_bids_in_range_are_legal_and_above_cash_are_not() -> None:
    """Any multiple of the bid step from the lowest bid to the cash is legal, listed or not."""
    cash = 10**12
    game = open_auction(cash)
    listed = set(game.legal_actions())
    unlisted = actions.bid(26, 777_777_700)
    assert unlisted not in listed
    assert game.is_legal(unlisted)
    for bad in (actions.bid(26, cash + 100), actions.bid(26, 777_777_750), actions.bid(26, 0)):
        assert not game.is_legal(bad)
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="may not exceed the bidder's cash"):
        game.apply(actions.bid(26, cash + 100))
    assert game.to_json() == before
    game.apply(unlisted)
    assert game.auction.high == 777_777_700 and game.auction.holder == 1
    assert game.legal_actions()[1] == actions.bid(26, 777_777_800)


def test_every_bid_is_listed_up_to_the_dense_run() -> None:
    """Up to BIDS_LISTED_EACH bids above the lowest, the list holds every bid, as before (so
    normal games, which never come near, play exactly as they did)."""
    cash = 100 * actions.BIDS_LISTED_EACH
    game = open_auction(cash)
    assert game.legal_actions() == [actions.DROP_OUT] + [
        actions.bid(26, a) for a in range(100, cash + 1, 100)]
    game = open_auction(cash + 100)
    legal = game.legal_actions()
    assert len(legal) == 2 + actions.BIDS_LISTED_EACH  # the all-in bid follows the dense run
    assert legal[-1] == actions.bid(26, cash + 100)


def test_bids_helper_edges() -> None:
    """bids() lists nothing when the cash is below the lowest bid and rounds cash down."""
    assert actions.bids(26, 500, 400) == []
    assert actions.bids(26, 500, 599) == [actions.bid(26, 500)]
    assert [a.amount for a in actions.bids(26, 300, 750)] == [300, 400, 500, 600, 700]
    # Far above the cache: built on the fly, the cache stays capped.
    low = 10**15
    run = actions.bids(26, low, low + 10**9)
    assert run[0] == actions.bid(26, low) and run[-1] == actions.bid(26, low + 10**9)
    assert len(run) <= LISTED_MAX
    assert len(actions._BIDS[26]) <= actions._BID_CACHE_SIZE


def test_a_game_at_a_trillion_plays_to_the_end_and_saves() -> None:
    """Starting cash of 10^12: random play ends, net worth, to_json and from_json all work."""
    game = Game(Rules(num_players=3, rounds=6, starting_cash=10**12), seed=4)
    rng = random.Random(4)
    longest = 0
    while not game.is_over:
        legal = game.legal_actions()
        longest = max(longest, len(legal))
        game.apply(rng.choice(legal))
    assert longest <= LISTED_MAX
    worth = [game.net_worth(s) for s in range(3)]
    assert max(worth) > 10**11
    text = game.to_json()
    assert Game.from_json(text).to_json() == text


# ------------------------------------------------------------------------------------ D4 and D5
def buy_phase() -> Game:
    game = Game(Rules(num_players=3), seed=0)
    game.position[0] = 21
    game.force_dice((2, 3))
    game.apply(actions.ROLL)  # Pokhara
    assert game.phase == Phase.BUY
    return game


def estate() -> Game:
    """Seat 0 before rolling, holding the whole Karnali group and Bus park."""
    game = Game(Rules(num_players=3), seed=0)
    for sq in (1, 3, 5):
        game.owner[sq] = 0
    game.owner[26] = 1
    return game


def trade_answer() -> Game:
    game = estate()
    game.apply(actions.offer_trade(1, [5], [26], 100))
    assert game.phase == Phase.TRADE_ANSWER
    return game


def auction() -> Game:
    return open_auction(15_000)


MALFORMED = [
    # (setup, action, the field the message names, the same action well formed and legal)
    (buy_phase, Action(ActionKind.BUY, 26.0), "square", actions.buy(26)),
    (buy_phase, Action(ActionKind.DECLINE, True), "square", None),
    (buy_phase, Action(ActionKind.BUY, 26, 0.0), "amount", actions.buy(26)),
    (estate, Action(ActionKind.BUILD, 1.0), "square", actions.build(1)),
    (estate, Action(ActionKind.MORTGAGE, 5.0), "square", actions.mortgage(5)),
    (estate, Action(ActionKind.MORTGAGE, "5"), "square", actions.mortgage(5)),
    (estate, Action(ActionKind.ROLL, -1.0), "square", actions.ROLL),
    (estate, Action(ActionKind.ROLL, -1, False), "amount", actions.ROLL),
    (estate, Action(3.0, 1), "kind", actions.build(1)),
    (estate, Action(False), "kind", actions.ROLL),  # False == 0 == ROLL, yet no kind
    (estate, Action(99), "kind", None),
    (estate, Action(ActionKind.OFFER_TRADE, -1, 100.0, 1, (5,), (26,)), "amount",
     actions.offer_trade(1, [5], [26], 100)),
    (estate, Action(ActionKind.OFFER_TRADE, -1, 100, 1.0, (5,), (26,)), "target",
     actions.offer_trade(1, [5], [26], 100)),
    (estate, Action(ActionKind.OFFER_TRADE, -1, 100, 1, (5.0,), (26,)), "give",
     actions.offer_trade(1, [5], [26], 100)),
    (estate, Action(ActionKind.OFFER_TRADE, -1, 100, 1, (5,), [26]), "take",
     actions.offer_trade(1, [5], [26], 100)),
    (auction, Action(ActionKind.BID, 26, 500.0), "amount", actions.bid(26, 500)),
    (auction, Action(ActionKind.BID, 26.0, 500), "square", actions.bid(26, 500)),
    (auction, Action(ActionKind.BID, 26, True), "amount", None),
    (auction, Action(ActionKind.BID, 26, float("inf")), "amount", None),
    (trade_answer, Action(ActionKind.ACCEPT_TRADE, -1.0), "square", actions.ACCEPT_TRADE),
]


@pytest.mark.parametrize(("setup", "action", "field", "good"), MALFORMED,
                         ids=[f"{s.__name__}-{i}" for i, (s, *_) in enumerate(MALFORMED)])
def test_malformed_fields_are_refused_naming_the_field(setup: Callable[[], Game], action: Action,
                                                        field: str, good: Action | None) -> None:
    """An int field given as a float, bool or string: is_legal says no, apply raises
    IllegalActionError naming the field and changes nothing (a float square used to pass
    is_legal, then apply raised TypeError)."""
    game = setup()
    if good is not None:
        assert game.is_legal(good)  # the well-formed twin is legal: only the type is wrong
    before = game.to_json()
    assert not game.is_legal(action)
    start = time.perf_counter()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert time.perf_counter() - start < 0.5
    assert f"field '{field}'" in str(info.value)
    assert game.to_json() == before


STRAY = [
    (auction, Action(ActionKind.BID, 26, 500, target=2), "target"),
    (auction, Action(ActionKind.BID, 26, 500, give=(1,)), "give"),
    (auction, Action(ActionKind.BID, 26, 500, take=(26,)), "take"),
    (auction, Action(ActionKind.DROP_OUT, 26), "square"),
    (auction, Action(ActionKind.DROP_OUT, amount=100), "amount"),
    (estate, Action(ActionKind.ROLL, 3), "square"),
    (estate, Action(ActionKind.ROLL, amount=5), "amount"),
    (estate, Action(ActionKind.ROLL, target=1), "target"),
    (estate, Action(ActionKind.BUILD, 1, 500), "amount"),
    (estate, Action(ActionKind.MORTGAGE, 5, give=(5,)), "give"),
    (estate, Action(ActionKind.OFFER_TRADE, 26, 100, 1, (5,), (26,)), "square"),
    (buy_phase, Action(ActionKind.BUY, 26, target=0), "target"),
    (buy_phase, Action(ActionKind.DECLINE, 26, take=(1,)), "take"),
    (trade_answer, Action(ActionKind.ACCEPT_TRADE, target=1), "target"),
    (trade_answer, Action(ActionKind.REJECT_TRADE, amount=100), "amount"),
]


@pytest.mark.parametrize(("setup", "action", "field"), STRAY,
                         ids=[f"{s.__name__}-{i}" for i, (s, *_) in enumerate(STRAY)])
def test_stray_fields_are_refused(setup: Callable[[], Game], action: Action, field: str) -> None:
    """A field the kind does not use (a bid carrying a target or places, a roll with an
    amount, ...) is refused although the action without it is legal."""
    game = setup()
    plain = action._replace(**{field: {"give": (), "take": (), "target": -1, "square": -1,
                                       "amount": 0}[field]})
    if action.kind == ActionKind.OFFER_TRADE:
        assert game.is_legal(plain)
    before = game.to_json()
    assert not game.is_legal(action)
    assert action not in game.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert f"field '{field}'" in str(info.value)
    assert game.to_json() == before


def test_every_legal_action_is_well_formed_in_random_games() -> None:
    """What legal_actions lists always passes the field checks (no over-strict refusal)."""
    for seed in range(3):
        game = Game(Rules(num_players=4), seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            assert all(actions.field_error(a) is None for a in legal)
            game.apply(rng.choice(legal))


def test_messages_for_huge_or_nested_values_stay_short() -> None:
    """A malformed action naming a huge or deeply nested value gets a short message."""
    game = estate()
    nested: list = []
    for _ in range(5_000):
        nested = [nested]
    for action in (Action(ActionKind.BUILD, nested),
                   Action(ActionKind.OFFER_TRADE, -1, 0, 1, (nested,), ()),
                   Action(ActionKind.BUILD, "x" * 1_000_000), Action(nested)):
        with pytest.raises(IllegalActionError) as info:
            game.apply(action)
        assert len(str(info.value)) < 2_000
    with pytest.raises(IllegalActionError):
        game.apply(nested)  # not an Action at all


# ------------------------------------------------------------------------------------------ D6
SAVES = {
    "auction": lambda: play_to(Phase.AUCTION, seed=0),
    "trade": lambda: play_to(Phase.TRADE_ANSWER, seed=0),
    "raise": lambda: play_to(Phase.RAISE_CASH, seed=0),
    "buy": lambda: play_to(Phase.BUY, seed=0),
}

# The save of each phase as text, digested with the engine before the state was declared once:
# the format is unchanged byte for byte (so older saves load, and new ones load in older code).
# Re-digested when the rule figures joined the board hash: only the "board" header changed
# (2981d7036e29f770 -> 4f57ea04e8b23371); with the old hash put back the old digests hold.
FORMAT_DIGESTS = {
    "auction": "cd87ded11933514f",
    "trade": "fbe8595aee814854",
    "raise": "7c072d418e325358",
    "buy": "794a0eefd5457866",
}


@pytest.fixture(scope="module")
def saves() -> dict[str, dict]:
    return {name: json.loads(make().to_json()) for name, make in SAVES.items()}


@pytest.mark.parametrize("name", SAVES)
def test_real_saves_round_trip_exactly_in_the_same_format(name: str) -> None:
    game = SAVES[name]()
    text = game.to_json()
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == FORMAT_DIGESTS[name]
    copy = Game.from_json(text)
    assert copy.to_json() == text
    assert copy.legal_actions() == game.legal_actions()
    clone = game.clone()
    for g in (game, copy, clone):
        rng = random.Random(9)
        for _ in range(200):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
    assert game.to_json() == copy.to_json() == clone.to_json()


def _set(path: str, value: object) -> Callable[[dict], None]:
    """A damage: set the entry at ``path`` (keys and list indices joined by dots)."""
    def damage(data: dict) -> None:
        *parents, last = path.split(".")
        node = data
        for p in parents:
            node = node[int(p)] if isinstance(node, list) else node[p]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return damage


def _drop(key: str) -> Callable[[dict], None]:
    return lambda data: data.pop(key)


def _drop_in(record: str, key: str) -> Callable[[dict], None]:
    return lambda data: data[record].pop(key)


def _alive(data: dict) -> int:
    """The first seat still in the game (a seat of a real save may be bankrupt)."""
    return data["bankrupt"].index(False)


def _free(data: dict) -> int:
    """A seat still in the game and out of jail."""
    return next(s for s in range(len(data["cash"]))
                if not data["bankrupt"][s] and not data["in_jail"][s])


def _seat_in_jail_elsewhere(data: dict) -> None:
    s = _alive(data)
    data["in_jail"][s] = True
    data["position"][s] = 3 if data["position"][s] == board.JAIL_SQUARE else data["position"][s]


def _misses_out_of_jail(data: dict) -> None:
    data["jail_misses"][_free(data)] = 1


def _two_bhagya_bail_cards(data: dict) -> None:
    alive = [s for s, b in enumerate(data["bankrupt"]) if not b]
    data["bail_cards"] = [["bhagya"] if s in alive[:2] else [] for s in range(len(data["cash"]))]
    data["decks"] = {"bhagya": [c for c in range(1, 17) if c != 10],
                     "samudaya": list(range(1, 17))}


def _bail_card_both_held_and_in_deck(data: dict) -> None:
    data["bail_cards"][_alive(data)].append("samudaya")


def _duplicate_card(data: dict) -> None:
    data["decks"]["bhagya"][0] = data["decks"]["bhagya"][1]


def _missing_card(data: dict) -> None:
    data["decks"]["samudaya"].pop()


def _building_on_a_lone_city(data: dict) -> None:
    alive = [s for s, b in enumerate(data["bankrupt"]) if not b]
    data["owner"][35], data["owner"][33] = alive[0], alive[1]
    data["mortgaged"][35] = data["mortgaged"][33] = False
    data["buildings"][35] = 1


def _mortgaged_with_buildings(data: dict) -> None:
    for sq in (1, 3):
        data["owner"][sq] = _alive(data)
    data["buildings"][1] = data["buildings"][3] = 1
    data["mortgaged"][1], data["mortgaged"][3] = False, True


def _uneven_buildings(data: dict) -> None:
    for sq in (1, 3):
        data["owner"][sq] = _alive(data)
        data["mortgaged"][sq] = False
    data["buildings"][1], data["buildings"][3] = 3, 1


def _bankrupt_with_cash(data: dict) -> None:
    s = next(s for s, c in enumerate(data["cash"]) if c)
    data["bankrupt"][s] = True


def _owned_by_bankrupt(data: dict) -> None:
    """A seat with no part in the decision pending (buy and trade saves) is made bankrupt
    properly, then handed a place."""
    busy = {data["turn"], data["current_player"]}
    seat = next(s for s in range(len(data["cash"])) if s not in busy)
    data["bankrupt"][seat] = True
    data["cash"][seat] = 0
    data["bail_cards"][seat] = []
    data["in_jail"][seat] = False
    data["jail_misses"][seat] = 0
    data["owner"] = [-1 if o == seat else o for o in data["owner"]]
    free = next(sq for sq in board.PLACES if data["owner"][sq] == -1 and not data["buildings"][sq]
                and not data["mortgaged"][sq] and sq != data["pending_square"])
    data["owner"][free] = seat


def _deep(depth: int) -> list:
    nested: list = []
    for _ in range(depth):
        nested = [nested]
    return nested


# (save name or "*" for every save, damage, the field the message must name)
DAMAGES: list[tuple[str, Callable[[dict], None], str]] = [
    # money and seats
    ("*", _set("cash.0", "15000"), "cash[0]"),
    ("*", _set("cash.0", float("nan")), "cash[0]"),
    ("*", _set("cash.1", 1500.0), "cash[1]"),
    ("*", _set("cash.1", -100), "cash[1]"),
    ("*", _set("cash.0", True), "cash[0]"),
    ("*", _set("cash", [1, 2]), "'cash'"),
    ("*", _set("cash", {"0": 1}), "'cash'"),
    ("*", _set("position.0", 36), "position[0]"),
    ("*", _set("position.1", -1), "position[1]"),
    ("*", _set("position.1", None), "position[1]"),
    ("*", _set("in_jail.0", 1), "in_jail[0]"),
    ("*", _seat_in_jail_elsewhere, "position["),
    ("*", _set("jail_misses.0", 3), "jail_misses[0]"),
    ("*", _misses_out_of_jail, "jail_misses["),
    ("*", _set("bail_cards.0", ["nope"]), "bail_cards[0][0]"),
    ("*", _set("bail_cards.0", "bhagya"), "bail_cards[0]"),
    ("*", _two_bhagya_bail_cards, "decks.bhagya"),
    ("*", _bail_card_both_held_and_in_deck, "decks.samudaya"),
    ("*", _set("bankrupt.0", "no"), "bankrupt[0]"),
    ("*", _bankrupt_with_cash, "cash["),
    ("buy", _owned_by_bankrupt, "owner["),
    ("trade", _owned_by_bankrupt, "owner["),
    # squares
    ("*", _set("owner.5", 7), "owner[5]"),
    ("*", _set("owner.5", -2), "owner[5]"),
    ("*", _set("owner.0", 0), "owner[0]"),
    ("*", _set("owner", [-1] * 35), "'owner'"),
    ("*", _set("buildings.1", 6), "buildings[1]"),
    ("*", _set("buildings.1", -1), "buildings[1]"),
    ("*", _set("buildings.0", 1), "buildings[0]"),
    ("*", _building_on_a_lone_city, "buildings[35]"),
    ("*", _mortgaged_with_buildings, "mortgaged[3]"),
    ("*", _uneven_buildings, "buildings[1]"),
    ("*", _set("mortgaged.2", True), "mortgaged[2]"),
    ("*", _set("mortgaged.7", 0), "mortgaged[7]"),
    # decks
    ("*", _set("decks.bhagya.0", 17), "decks.bhagya[0]"),
    ("*", _set("decks.bhagya.0", 0), "decks.bhagya[0]"),
    ("*", _set("decks.bhagya.0", "1"), "decks.bhagya[0]"),
    ("*", _duplicate_card, "decks.bhagya"),
    ("*", _missing_card, "decks.samudaya"),
    ("*", _set("decks.chance", list(range(1, 17))), "saved decks"),
    ("*", _set("decks", [[1]]), "saved decks"),
    ("*", _set("decks.samudaya", None), "decks.samudaya"),
    # the turn
    ("*", _set("turn", 3), "'turn'"),
    ("*", _set("turn", "0"), "'turn'"),
    ("*", _set("round", 0), "'round'"),
    ("*", _set("round", 41), "'round'"),
    ("*", _set("turn_count", 0), "'turn_count'"),
    ("*", _set("doubles", 3), "'doubles'"),
    ("*", _set("roll_again", 0), "'roll_again'"),
    ("*", _set("dice", [7, 1]), "dice[0]"),
    ("*", _set("dice", [0, 3]), "'dice'"),
    ("*", _set("dice", [1, 2, 3]), "'dice'"),
    ("*", _set("offers_made", 4), "'offers_made'"),
    ("*", _set("offers_made", -1), "'offers_made'"),
    ("*", _set("phase", 7), "'phase'"),
    ("*", _set("phase", "AUCTION"), "'phase'"),
    ("*", _set("phase", 2.0), "'phase'"),
    ("*", _set("current_player", 5), "'current_player'"),
    ("*", _set("current_player", -1), "'current_player'"),
    ("*", _set("tasks", [[9]]), "tasks[0]"),
    ("*", _set("tasks", [[1, 99]]), "tasks[0]"),
    ("*", _set("tasks", [[3, 0, 0, 100]]), "tasks[0]"),
    ("*", _set("tasks", [[3, 0, 1]]), "tasks[0]"),
    ("*", _set("tasks", [[0], "x"]), "tasks[1]"),
    ("*", _set("tasks", {"0": [0]}), "'tasks'"),
    ("*", _set("pending_square", 36), "'pending_square'"),
    ("*", _set("winners", [0]), "'winners'"),
    ("*", _set("winners", [9]), "winners[0]"),
    ("*", _set("forced_dice", [[1, 7]]), "forced_dice[0][1]"),
    ("*", _set("forced_dice", [[1]]), "forced_dice[0]"),
    ("*", _set("bank_paid", -1), "'bank_paid'"),
    ("*", _set("bank_received", "0"), "'bank_received'"),
    ("*", _set("log", [1]), "log[0]"),
    ("*", _set("log", "text"), "'log'"),
    # generator, seed, rules
    ("*", _set("rng.0", 2), "'rng'"),
    ("*", _set("rng", [3, [0] * 625, None]), "rng[1]"),
    ("*", _set("rng.1.0", 2 ** 32), "rng[1]"),
    ("*", _set("rng.1.0", -1), "rng[1]"),
    ("*", _set("rng.1.624", 625), "rng[1]"),
    ("*", _set("rng.1.5", 1.5), "rng[1]"),
    ("*", _set("rng.2", "x"), "rng[2]"),
    ("*", _set("rng.2", float("nan")), "rng[2]"),
    ("*", _set("rng", "state"), "'rng'"),
    ("*", _set("seed", -1), "'seed'"),
    ("*", _set("seed", 1.5), "'seed'"),
    ("*", _set("seed", True), "'seed'"),
    ("*", _set("rules.num_players", 9), "'rules'"),
    ("*", _set("rules.colour", "red"), "'rules'"),
    ("*", _set("rules.starting_cash", 150), "'rules'"),
    ("*", _set("rules", None), "'rules'"),
    ("*", _set("rules.num_players", 4), "'cash'"),  # the seat lists are for 3
    ("*", _set("rules.rounds", 1), "'round'"),
    # header and fields
    ("*", _drop("owner"), "'owner'"),
    ("*", _drop("log"), "'log'"),
    ("*", _set("extra", 1), "unknown fields"),
    ("*", _set("version", 2), "version 2"),
    ("*", _set("version", True), "version True"),
    ("*", _set("format", "chess"), "not a saved Byapar game"),
    ("*", _set("board", "0" * 16), "board '0000000000000000'"),
    ("*", _set("cash", _deep(300)), "'cash'"),
    ("*", _set("log", [_deep(300)]), "log[0]"),
    # phases and their records
    ("trade", _set("phase", int(Phase.AUCTION)), "'auction'"),
    ("auction", _set("phase", int(Phase.TRADE_ANSWER)), "'auction'"),
    ("auction", _set("auction", None), "'auction'"),
    ("trade", _set("offer", None), "'offer'"),
    ("trade", _set("phase", int(Phase.BUY)), "'offer'"),
    ("raise", _set("debt", None), "'debt'"),
    ("raise", _set("phase", int(Phase.PRE_ROLL)), "'debt'"),
    ("buy", _set("pending_square", -1), "'pending_square'"),
    ("buy", _set("pending_square", 0), "'pending_square'"),
    ("buy", _set("phase", int(Phase.PRE_ROLL)), "'pending_square'"),
    ("auction", _set("phase", int(Phase.GAME_OVER)), "'winners'"),
    ("auction", _set("tasks", []), "'tasks'"),
    ("trade", _set("tasks", [[0]]), "'tasks'"),
    # the auction
    ("auction", _set("auction.high", 150), "auction.high"),
    ("auction", _set("auction.high", -100), "auction.high"),
    ("auction", _set("auction.holder", 7), "auction.holder"),
    ("auction", _set("auction.holder", -1), "auction.holder"),
    ("auction", _set("auction.idx", 9), "auction.idx"),
    ("auction", _set("auction.bidders", [0, 0]), "auction.bidders"),
    ("auction", _set("auction.bidders", []), "auction.bidders"),
    ("auction", _set("auction.square", 0), "auction.square"),
    ("auction", _set("auction.square", "26"), "auction.square"),
    ("auction", _drop_in("auction", "idx"), "'auction'"),
    ("auction", _set("auction.extra", 1), "'auction'"),
    ("auction", _set("auction", [26]), "'auction'"),
    # the trade offer
    ("trade", _set("offer.target", 7), "offer.target"),
    ("trade", _set("offer.amount", 15), "offer.amount"),
    ("trade", _set("offer.amount", 10**9), "offer.amount"),
    ("trade", _set("offer.give", [0]), "offer.give"),
    ("trade", _set("offer.give", [1.5]), "offer.give[0]"),
    ("trade", _set("offer.give", "1"), "offer.give"),
    ("trade", _set("offer.seat", 9), "offer.seat"),
    ("trade", _set("offers_made", 0), "'offers_made'"),
    ("trade", _drop_in("offer", "amount"), "'offer'"),
    # the debt
    ("raise", _set("debt", [0]), "'debt'"),
    ("raise", _set("debt", [3, 9, -1, 100]), "'debt'"),
    ("raise", _set("debt", [3, 0, -1, -100]), "'debt'"),
]


CASES = [(name, damage, field) for target, damage, field in DAMAGES
         for name in (SAVES if target == "*" else (target,))]


@pytest.mark.parametrize(("name", "damage", "field"), CASES,
                         ids=[f"{n}-{i}-{f}" for i, (n, _, f) in enumerate(CASES)])
def test_damaged_saves_are_refused_naming_the_field(saves: dict[str, dict], name: str,
                                                    damage: Callable[[dict], None],
                                                    field: str) -> None:
    """Each save damaged in one field: GameStateError (a ByaparError and ValueError) naming the
    field, found by the checks themselves (not the safety net), in well under a second."""
    data = json.loads(json.dumps(saves[name]))
    damage(data)
    text = json.dumps(data)
    start = time.perf_counter()
    with pytest.raises(GameStateError) as info:
        Game.from_json(text)
    assert time.perf_counter() - start < 0.5
    message = str(info.value)
    assert field in message, message
    assert isinstance(info.value, ByaparError) and isinstance(info.value, ValueError)
    for leak in ("TypeError", "KeyError", "IndexError", "RecursionError", "AttributeError"):
        assert leak not in message, message
    assert len(message) < 2_000


@pytest.mark.parametrize(("text", "words"), [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ("{", "not valid JSON"),
    ("", "not valid JSON"),
    (None, "not valid JSON"),
    (5, "not valid JSON"),
    ("[1, 2]", "not a saved Byapar game"),
    ("NaN", "not a saved Byapar game"),
    ('{"format": "byapar-game", "version": 1}', "played on board None"),
    ("9" * 5_000, "not valid JSON"),  # past Python's limit on digits in an int
])
def test_damaged_text_is_refused(text: object, words: str) -> None:
    """Text that is not JSON, nests past the decoder's stack or is no save: GameStateError."""
    start = time.perf_counter()
    with pytest.raises(GameStateError) as info:
        Game.from_json(text)
    assert time.perf_counter() - start < 0.5
    assert words in str(info.value)


def test_a_save_missing_every_field_names_the_first(saves: dict[str, dict]) -> None:
    """Only the header: the first field of the state is named as missing."""
    header = {k: saves["auction"][k] for k in ("format", "version", "board")}
    with pytest.raises(GameStateError, match="field 'rules' is missing"):
        Game.from_json(json.dumps(header))


def test_bytes_load_too(saves: dict[str, dict]) -> None:
    text = json.dumps(saves["trade"], separators=(",", ":"))
    assert Game.from_json(text.encode()).to_json() == text


# --------------------------------------------------------------------------- the state, once
def test_state_declares_every_field_of_a_game() -> None:
    """STATE names exactly the attributes a new game has: save, load and clone miss none."""
    for game in (Game(Rules(num_players=2), seed=0), SAVES["auction"]()):
        assert [f.name for f in STATE if f.saved] == [
            k for k in json.loads(game.to_json()) if k not in ("format", "version", "board")]
        # A lazy field (the generator, the log) is held as ``_name`` and its shared flag.
        held = set()
        for f in STATE:
            held |= {f"_{f.name}", f"_{f.name}_shared"} if f.kind.lazy else {f.name}
        assert held == set(vars(game))
        assert {f.name for f in STATE if f.kind.lazy} == {"rng", "log"}


def test_clone_shares_nothing_mutable() -> None:
    """Every list, dict and the generator of a clone are its own (mid-auction and mid-trade)."""
    for make in (SAVES["auction"], SAVES["trade"]):
        game = make()
        clone = game.clone()
        for f in STATE:
            a, b = getattr(game, f.name), getattr(clone, f.name)
            if isinstance(a, (list, dict, random.Random, Auction)):
                assert a is not b, f.name
        for s in range(game.num_players):
            assert game.bail_cards[s] is not clone.bail_cards[s]
        for d in board.DECKS:
            assert game.decks[d] is not clone.decks[d]
        if game.auction is not None:
            assert game.auction.bidders is not clone.auction.bidders
        assert clone.to_json() == game.to_json()


def test_clone_shares_the_generator_and_log_until_either_game_reads_them() -> None:
    """Right after a clone both games hold one generator and one log; the first game to read
    either takes its own copy, so the other's dice and log are as if it had never been cloned."""
    game, twin = SAVES["trade"](), SAVES["trade"]()
    clone = game.clone()
    assert vars(clone)["_rng"] is vars(game)["_rng"]
    assert vars(clone)["_log"] is vars(game)["_log"]
    draws = [clone.rng.random() for _ in range(5)]  # the clone copies on its first read
    assert draws == [twin.rng.random() for _ in range(5)]
    assert [game.rng.random() for _ in range(5)] == draws  # the game's own is untouched
    clone.log.append("only in the clone")
    assert game.log == twin.log and clone.log[-1] == "only in the clone"
    # A reseeded clone never copies the shared generator at all.
    reseeded = game.clone()
    shared = vars(reseeded)["_rng"]
    reseeded.rng = random.Random(7)
    assert vars(reseeded)["_rng"] is not shared and vars(reseeded)["_rng_shared"] is False
    assert reseeded.rng.random() == random.Random(7).random()


def test_from_json_refuses_without_touching_the_caller() -> None:
    """A refused load leaves the game it came from as it was."""
    game = SAVES["trade"]()
    text = game.to_json()
    data = json.loads(text)
    data["offer"]["amount"] = 15
    with pytest.raises(GameStateError):
        Game.from_json(json.dumps(data))
    assert game.to_json() == text


# ----------------------------------------------------------------------------------------- D11
@pytest.mark.parametrize("seed", [-1, -7, -(2 ** 70), True, False, 1.0, 1.5, float("nan"), "7",
                                  b"7", [1], (1,)])
def test_bad_seeds_are_refused_with_seed_error(seed: object) -> None:
    """random.Random folds -1 onto 1 and would truncate or hash the rest: SeedError instead,
    naming the range, for negatives, bools, floats and anything else not an int."""
    with pytest.raises(SeedError, match="from 0 up") as info:
        Game(seed=seed)
    assert isinstance(info.value, ByaparError) and isinstance(info.value, ValueError)


def test_seeds_give_distinct_deterministic_games() -> None:
    """Each seed from 0 up plays its own game, the same every time; big seeds work too."""
    def opening(seed: int) -> str:
        game = Game(Rules(num_players=3), seed=seed)
        rng = random.Random(0)
        for _ in range(40):
            game.apply(rng.choice(game.legal_actions()))
        return game.to_json()

    seeds = [0, 1, 2, 7, 2 ** 63 - 1, 2 ** 64, 2 ** 200]
    games = [opening(s) for s in seeds]
    assert len(set(games)) == len(seeds)
    assert games == [opening(s) for s in seeds]
    unseeded = Game(Rules(num_players=3), seed=None)
    assert unseeded.seed is None
