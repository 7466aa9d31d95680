"""Businessman's engine interface: what a seat may see, saved games refused when corrupt
(money not conserved included), illegal actions changing nothing, actions in words, options."""

from __future__ import annotations

import json
import random

import pytest
from test_businessman_helpers import assert_illegal, new, put, roll

from byapar_env.businessman import (
    ACTION_ID,
    ALL_ACTIONS,
    Game,
    GameStateError,
    IllegalActionError,
    Phase,
    Rules,
    RulesError,
    SeedError,
    actions,
    board,
)
from byapar_env.businessman.state import STATE


def _played(players: int, seed: int, steps: int) -> Game:
    g = Game(Rules(num_players=players), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def _with_other_hand(g: Game, seat: int) -> tuple[Game, set[int]]:
    """A copy of ``g`` in which only hidden hands differ: ``seat`` holds other cards of the same
    decks, as many, taken from those never dealt; where every card of a deck is dealt, one card
    is swapped with another seat's. The copy is a consistent game. Returns it and the seats
    whose hands changed."""
    other = g.clone()
    used = [k for h in g.hands for k in h] + g.played
    spare = {k.index: k.count - used.count(k.index) for k in board.EXCHANGE_KINDS}
    changed = {seat}
    new_hand = list(g.hands[seat])
    for i, card in enumerate(new_hand):
        deck = board.EXCHANGE_KINDS[card].deck
        choice = next((k.index for k in board.EXCHANGE_KINDS
                       if k.deck == deck and k.index != card and spare[k.index] > 0), None)
        if choice is not None:
            spare[choice] -= 1
            new_hand[i] = choice
            continue
        for partner in range(g.num_players):
            theirs = other.hands[partner]
            j = next((j for j, k in enumerate(theirs)
                      if board.EXCHANGE_KINDS[k].deck == deck and k != card), None)
            if partner != seat and j is not None:
                new_hand[i], theirs[j] = theirs[j], card
                other.hands[partner] = sorted(theirs)
                changed.add(partner)
                break
    other.hands[seat] = sorted(new_hand)
    assert other.hands[seat] != g.hands[seat]
    Game.from_json(other.to_json())  # still a consistent game
    return other, changed


@pytest.mark.parametrize(("players", "seed", "steps"),
                         [(2, 1, 0), (3, 2, 40), (4, 3, 300), (5, 4, 700), (6, 5, 150)])
def test_a_hidden_hand_changes_no_other_seats_view(players: int, seed: int, steps: int) -> None:
    g = _played(players, seed, steps)
    for hidden in range(players):
        if not g.hands[hidden]:
            continue
        other, changed = _with_other_hand(g, hidden)
        for seat in range(players):
            if seat in changed:
                assert g.view(seat) != other.view(seat)
                assert other.view(seat)["hand"] == other.hands[seat]
            else:
                assert g.view(seat) == other.view(seat)


def test_the_view_holds_no_deck_order_generator_or_seed() -> None:
    g = _played(4, 9, 200)
    v = g.view(1)
    text = json.dumps(v)
    assert {"decks", "rng", "seed", "forced_dice", "hands", "log"}.isdisjoint(v)
    assert v["hand"] == g.hands[1]
    assert v["hand_sizes"] == [len(h) for h in g.hands]
    assert v["deck_sizes"] == {d: len(c) for d, c in g.decks.items()}
    # Two games that differ only in the order of the Surprise and Notice decks look the same.
    other = g.clone()
    for d in board.DECKS:
        other.decks[d] = list(reversed(other.decks[d]))
    assert other.view(1) == v and json.dumps(other.view(1)) == text
    with pytest.raises(ValueError):
        g.view(4)


def test_illegal_actions_raise_and_change_nothing() -> None:
    g = new()
    for bad in (actions.buy(6), actions.END_SESSION, actions.pick_colour(0),
                actions.build_branch(1), actions.redeem(6), actions.start_trade(0),
                actions.start_trade(5), actions.play_card(0, 0), actions.ACCEPT_TRADE):
        assert_illegal(g, bad)
    before = g.to_json()
    for malformed in (actions.Action(actions.ActionKind.BUY, 6.0),
                      actions.Action(actions.ActionKind.ROLL, 3), actions.Action(99), "roll", None,
                      actions.Action(actions.ActionKind.ROLL, -1, -1, 1)):
        assert not g.is_legal(malformed)
        with pytest.raises(IllegalActionError) as err:
            g.apply(malformed)
        assert isinstance(err.value, ValueError)
    assert g.to_json() == before
    # A legal list is never empty while the game is on, and nothing is legal once it is over.
    g = _played(2, 7, 10**6)
    assert g.is_over and g.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        g.apply(actions.ROLL)


def test_three_phases_take_byapars_names_and_the_old_ones_still_read() -> None:
    """Businessman's phases are named as Byapar's where the decision is the same. The old names
    read as the same members for one release, with a DeprecationWarning pointing at the reader,
    and remain the names text shows: an illegal action's message and the rendered table (a
    damaged save's message: DAMAGE above). Saves hold the numbers, which are unchanged."""
    from byapar_env.businessman_v0 import render_text

    renamed = {"BUY_OFFER": Phase.BUY, "TRADE_RESPONSE": Phase.TRADE_ANSWER,
               "RAISE_FUNDS": Phase.RAISE_CASH}
    assert [int(member) for member in renamed.values()] == [3, 2, 9]
    for old, member in renamed.items():
        with pytest.warns(DeprecationWarning,
                          match=rf"Phase\.{old} is deprecated: use Phase\.{member.name}\b") as got:
            assert getattr(Phase, old) is member
        assert [w.filename for w in got] == [__file__]
        with pytest.warns(DeprecationWarning, match=old) as got:
            assert Phase[old] is member
        assert [w.filename for w in got] == [__file__]
        assert member.shown_name == old
    assert [p.name for p in Phase if p.shown_name != p.name] == ["TRADE_ANSWER", "BUY",
                                                                 "RAISE_CASH"]
    assert not set(renamed) & set(Phase.__members__)
    with pytest.raises(AttributeError, match="'Phase' has no attribute 'BUY_OFER'"):
        Phase.BUY_OFER  # noqa: B018 (the read is the test)
    with pytest.raises(KeyError):
        Phase["BUY_OFER"]
    g = new()
    roll(g, 2, 4)
    assert g.phase == Phase.BUY
    with pytest.raises(IllegalActionError, match=r"for seat 0 in BUY_OFFER: "):
        g.apply(actions.ROLL)
    assert "deciding: seat 0 (BUY_OFFER); prices" in render_text(g)


def test_actions_read_in_words() -> None:
    assert str(actions.ROLL) == "roll"
    assert str(actions.build_branch(6)) == "build a branch on Bakery"
    assert str(actions.buy(46)) == "buy Tokyo electronics"
    assert str(actions.play_card(2, 0)) == "play the card in slot 2 on RED"
    assert str(actions.play_card(0, 2, down=True)) == "play the card in slot 0 on GREEN (halve)"
    assert str(actions.yes(board.FORK_CUSTOMS)) == "go abroad through customs"
    assert str(actions.give_cash(10_000)) == "give 10,000 cr more"
    assert (str(actions.hotel(board.HOTEL_ROULETTE_3))
            == "play the roulette three times from the Hotel")
    assert str(actions.Action(99)) == "unknown action kind 99"
    assert len(set(map(str, ALL_ACTIONS))) == len(ALL_ACTIONS)
    assert len(ACTION_ID) == len(ALL_ACTIONS)
    with pytest.raises(ValueError):
        actions.mortgage(78)
    with pytest.raises(ValueError):
        actions.give_cash(5_000)


def test_the_log_names_what_happened_in_words() -> None:
    g = new()
    put(g, 0, 23)
    roll(g, 1, 1)
    assert g.log[-2:] == ["seat 0 rolls 1+1", "seat 0 moves to Bank"]
    assert g.phase == Phase.EXCHANGE_TRADE


def test_rules_options() -> None:
    assert Rules() == Rules(num_players=4, max_rounds=20, abroad_enabled=True)
    for bad in ({"num_players": 1}, {"num_players": 7}, {"num_players": True},
                {"max_rounds": -1}, {"max_rounds": 2.0}, {"abroad_enabled": 1}):
        with pytest.raises(RulesError):
            Rules(**bad)
    with pytest.raises(RulesError, match="unknown"):
        Rules.from_dict({"rounds": 3})
    for seed in (-1, 1.5, True, "1"):
        with pytest.raises(SeedError):
            Game(seed=seed)
    # max_rounds=0: no round limit; the game goes on past round 20.
    g = Game(Rules(num_players=2, max_rounds=0), seed=1)
    rng = random.Random(1)
    while not g.is_over and g.round <= 21:
        g.apply(rng.choice(g.legal_actions()))
    assert g.round > 20 or len(g.active_seats()) == 1


# ------------------------------------------------------------------------------- saved games
def _save() -> dict:
    return json.loads(_played(4, 11, 400).to_json())


def _damaged(change) -> str:
    data = _save()
    change(data)
    return json.dumps(data)


DAMAGE = {
    "money not conserved": (lambda d: d["cash"].__setitem__(0, d["cash"][0] + 1_000), "conserved"),
    "bank ledger off": (lambda d: d.update(bank_paid=d["bank_paid"] + 1), "conserved"),
    "a share made up": (lambda d: d["shares"][0].__setitem__(1, d["shares"][0][1] + 1),
                        "supply"),
    "a card twice": (lambda d: d["decks"]["surprise"].append(d["decks"]["surprise"][0]),
                     "decks.surprise"),
    "too many of a card": (lambda d: d["hands"].__setitem__(0, [3] * 7), "hands"),
    "unsorted hand": (lambda d: d["hands"].__setitem__(0, [5, 1]), "hands"),
    "a price off the scale": (lambda d: d["prices"].__setitem__(0, 26), "prices"),
    "a float": (lambda d: d["cash"].__setitem__(1, 1.5), "cash"),
    "negative cash": (lambda d: d["cash"].__setitem__(1, -5), "cash"),
    "a bool for an int": (lambda d: d.update(turn=True), "turn"),
    "an unowned lot pledged": (lambda d: d["mortgaged"].__setitem__(0, True), "mortgaged"),
    "a building on a bank lot": (lambda d: (d["owner"].__setitem__(1, -1),
                                            d["level"].__setitem__(1, 2)), "level"),
    "a bad phase": (lambda d: d.update(phase=42), "phase"),
    "a buy offer with no lot": (lambda d: d.update(phase=int(Phase.BUY)), "BUY_OFFER"),
    "a bad task": (lambda d: d.update(tasks=[[9, 9]]), "tasks"),
    "an unknown field": (lambda d: d.update(extra=1), "unknown"),
    "a missing field": (lambda d: d.pop("owner"), "owner"),
    "another board": (lambda d: d.update(board="0" * 16), "board"),
    "another version": (lambda d: d.update(version=2), "version"),
    "another game": (lambda d: d.update(format="byapar-game"), "Businessman"),
    "bad rules": (lambda d: d.update(rules={"num_players": 9}), "rules"),
    "a bad generator": (lambda d: d["rng"].__setitem__(1, [0] * 625), "rng"),
    "a position off its track": (lambda d: (d["track"].__setitem__(0, 1),
                                            d["position"].__setitem__(0, 3)), "position"),
}


@pytest.mark.parametrize("name", DAMAGE)
def test_damaged_saves_are_refused_naming_the_field(name: str) -> None:
    change, words = DAMAGE[name]
    text = _damaged(change)
    with pytest.raises(GameStateError, match=words) as err:
        Game.from_json(text)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("text", ["", "{", "[]", "null", "1" * 10, "[" * 100_000])
def test_damaged_text_is_refused(text: str) -> None:
    with pytest.raises(GameStateError):
        Game.from_json(text)


def test_a_save_restores_the_generator_and_deck_order() -> None:
    g = _played(3, 4, 250)
    back = Game.from_json(g.to_json())
    assert back.rng.getstate() == g.rng.getstate()
    assert back.decks == g.decks and back.hands == g.hands and back.log == g.log
    assert Game.from_json(g.to_json().encode()).to_json() == g.to_json()


STATE_NAMES = [f.name for f in STATE]


def test_clone_shares_nothing_mutable() -> None:
    g = _played(4, 2, 300)
    c = g.clone()
    for name in STATE_NAMES:  # read through the game: the lazy fields then take their copies
        value = getattr(g, name)
        if isinstance(value, (list, dict)) or (name in ("rng", "trade") and value is not None):
            assert getattr(c, name) is not value, name
    for a, b in zip(g.shares, c.shares, strict=True):
        assert a is not b
