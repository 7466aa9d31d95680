"""Table options: which ``Rules`` values are allowed, and the errors for the impossible ones."""

from __future__ import annotations

import dataclasses

import pytest

from byapar_env.engine import ByaparError, Game, Rules, RulesError
from byapar_env.engine.rules import UNTIL_ONE_LEFT_ROUND_CAP


def test_defaults_are_four_players_40_rounds_15000_with_auctions():
    """The default table: 4 players, 40 rounds, Rs 15,000 each, auctions on."""
    r = Rules()
    assert (r.num_players, r.rounds, r.starting_cash, r.auctions) == (4, 40, 15_000, True)
    assert r.round_limit == 40


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_two_to_six_players_are_allowed(n):
    """Any table of 2 to 6 players; a game gets one seat each, with the starting cash."""
    game = Game(Rules(num_players=n), seed=1)
    assert game.num_players == n
    assert game.cash == [15_000] * n
    assert game.position == [0] * n
    assert game.current_player == 0 and game.turn == 0 and game.round == 1


@pytest.mark.parametrize("n", [0, 1, 7, 10, -2, 2.0, "4", True, None])
def test_other_player_counts_raise_rules_error(n):
    """Fewer than 2, more than 6, or not a whole number: RulesError naming num_players."""
    with pytest.raises(RulesError) as err:
        Rules(num_players=n)
    msg = str(err.value)
    assert "num_players" in msg and "2 to 6" in msg and repr(n) in msg


@pytest.mark.parametrize("rounds", [20, 40, 1, 7, 100, 1000])
def test_any_positive_round_count_is_allowed(rounds):
    """20 and 40 are the presets, but any positive whole number of rounds works."""
    r = Rules(rounds=rounds)
    assert r.rounds == rounds and r.round_limit == rounds


def test_rounds_none_plays_until_one_left_capped_at_100():
    """``rounds=None`` is the until-one-player-is-left game; its round limit is 100."""
    r = Rules(rounds=None)
    assert r.rounds is None
    assert r.round_limit == 100 == UNTIL_ONE_LEFT_ROUND_CAP


@pytest.mark.parametrize("rounds", [0, -1, -40, 2.5, 40.0, "40", True, False])
def test_impossible_round_counts_raise_rules_error(rounds):
    """Zero, negative, fractional, text or bool rounds: RulesError naming rounds and the choices."""
    with pytest.raises(RulesError) as err:
        Rules(rounds=rounds)
    msg = str(err.value)
    assert "rounds" in msg and "positive whole number" in msg and "None" in msg
    assert repr(rounds) in msg


@pytest.mark.parametrize("cash", [10_000, 15_000, 20_000, 100, 12_300, 1_000_000])
def test_starting_cash_any_positive_multiple_of_100(cash):
    """Presets are 10,000/15,000/20,000; any positive multiple of 100 is allowed."""
    game = Game(Rules(num_players=3, starting_cash=cash), seed=0)
    assert game.cash == [cash] * 3


@pytest.mark.parametrize("cash", [0, -100, -15_000, 150, 15_050, 99, 15_000.0, "15000", True,
                                  None])
def test_impossible_starting_cash_raises_rules_error(cash):
    """Zero, negative, not a multiple of 100, or not an int: RulesError listing the presets."""
    with pytest.raises(RulesError) as err:
        Rules(starting_cash=cash)
    msg = str(err.value)
    assert "starting_cash" in msg and "positive multiple of 100" in msg
    assert "10,000, 15,000, 20,000" in msg and repr(cash) in msg


@pytest.mark.parametrize("auctions", [True, False])
def test_auctions_on_or_off(auctions):
    """``auctions`` is True or False."""
    assert Rules(auctions=auctions).auctions is auctions


@pytest.mark.parametrize("auctions", [1, 0, "yes", None])
def test_non_bool_auctions_raise_rules_error(auctions):
    """Anything but a bool for auctions: RulesError saying True or False."""
    with pytest.raises(RulesError) as err:
        Rules(auctions=auctions)
    msg = str(err.value)
    assert "auctions" in msg and "True or False" in msg and repr(auctions) in msg


def test_rules_error_is_a_value_error_and_a_byapar_error():
    """RulesError can be caught as ValueError or as the engine's ByaparError."""
    assert issubclass(RulesError, ValueError)
    assert issubclass(RulesError, ByaparError)
    with pytest.raises(ValueError):
        Rules(num_players=9)


def test_rules_is_frozen_and_hashable():
    """A Rules value cannot be changed after it is made, and equal options compare equal."""
    r = Rules(num_players=3, rounds=20)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.rounds = 40
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.num_players = 7
    assert r.rounds == 20 and r.num_players == 3
    assert r == Rules(num_players=3, rounds=20)
    assert hash(r) == hash(Rules(num_players=3, rounds=20))


def test_dict_round_trip():
    """to_dict gives the four options; from_dict builds the same Rules back."""
    r = Rules(num_players=5, rounds=None, starting_cash=20_000, auctions=False)
    d = r.to_dict()
    assert d == {"num_players": 5, "rounds": None, "starting_cash": 20_000, "auctions": False}
    assert Rules.from_dict(d) == r
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"rounds": 20}) == Rules(rounds=20)


def test_from_dict_rejects_unknown_options():
    """An option name the table does not have: RulesError naming it and the allowed names."""
    with pytest.raises(RulesError) as err:
        Rules.from_dict({"num_players": 4, "free_parking": True})
    msg = str(err.value)
    assert "free_parking" in msg
    for name in ("auctions", "num_players", "rounds", "starting_cash"):
        assert name in msg


def test_from_dict_rejects_a_non_mapping_and_bad_values():
    """from_dict wants a mapping, and still checks each value."""
    with pytest.raises(RulesError, match="mapping"):
        Rules.from_dict([("num_players", 4)])
    with pytest.raises(RulesError, match="num_players"):
        Rules.from_dict({"num_players": 1})
    with pytest.raises(RulesError, match="starting_cash"):
        Rules.from_dict({"starting_cash": 1_234})


def test_game_rejects_rules_that_are_not_a_rules_value():
    """Game takes a Rules value (or None for the defaults), not a dict."""
    with pytest.raises(TypeError):
        Game({"num_players": 2})
    assert Game(None, seed=0).rules == Rules()
