"""The seat-level driver that the environment and the arena share (``byapar_env.driver``).

The environment takes ids through the driver's mask (``_take``, ``_auto_play``); the arena's
engine tables take engine actions through its engine-level calls (``engine_choices``,
``take_engine``). These tests play the two side by side from the same games and choices, small
pre-roll caps included, and require the same game, the same counts and the same choices at
every step.
"""

from __future__ import annotations

import random

import pytest
from scenario import give, new_game, sq

from byapar_agents.base import offer_steps as agents_offer_steps
from byapar_env.action_table import (
    ACTIONS,
    ROLL_ID,
    SUBMIT_ID,
    TRADE_AMOUNTS,
    TRADE_START_IDS,
    engine_action,
    fixed_action_id,
)
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import PRE_ROLL_CAP, SeatDriver, offer_steps
from byapar_env.engine import Game, IllegalActionError, Phase, Rules, actions
from byapar_env.engine.board import PLACES
from byapar_env.engine.state import state_to_dict


def _random_offer(game: Game, rng: random.Random) -> actions.Action | None:
    """A legal offer of the seat deciding before rolling, with money the environment can
    express, or None."""
    if not game.can_offer_trade():
        return None
    p = game.current_player
    t = rng.choice([s for s in game.active_seats() if s != p])
    give_ = [s for s in game.places_of(p) if rng.random() < 0.3]
    take = [s for s in game.places_of(t) if rng.random() < 0.3]
    amount = rng.choice((0, 0, *TRADE_AMOUNTS[:6], *(-a for a in TRADE_AMOUNTS[:6])))
    offer = actions.offer_trade(t, give_, take, amount)
    # Within the draft's step cap, so that every step is a legal id.
    fits = len(give_) + len(take) + (amount != 0) <= SeatDriver().max_trade_steps
    return offer if fits and game.trade_error(offer) is None else None


def _same(ids: SeatDriver, engine: SeatDriver) -> None:
    a, b = ids.game, engine.game
    assert (a.version, a.phase, a.current_player, a.turn_count, a.cash, a.owner, a.buildings,
            a.mortgaged, a.position) == (b.version, b.phase, b.current_player, b.turn_count,
                                         b.cash, b.owner, b.buildings, b.mortgaged, b.position)
    assert (ids.decisions, ids.pre_roll_actions, ids._turn_stamp) == (
        engine.decisions, engine.pre_roll_actions, engine._turn_stamp)


def _play_side_by_side(num_players: int, seed: int, cap: int) -> int:
    """Play one game on two drivers, by ids and by engine actions, with the same choices;
    returns the number of decisions asked."""
    rules = Rules(num_players=num_players)
    ids = SeatDriver.for_game(Game(rules, seed=seed), max_pre_roll_actions=cap)
    engine = SeatDriver.for_game(Game(rules, seed=seed), max_pre_roll_actions=cap)
    rng = random.Random(seed)
    asked = 0
    while True:
        ids._auto_play()
        legal = engine.engine_choices()
        _same(ids, engine)
        if not legal:
            assert ids.game.is_over
            assert state_to_dict(ids.game) == state_to_dict(engine.game)
            return asked
        legal_ids = ids.legal_action_ids()
        assert len(legal_ids) > 1  # a decision asked by one is asked by the other
        game = ids.game
        # The engine's choices are exactly the ids' (bids aside: the ids offer a few amounts).
        if game.phase != Phase.AUCTION:
            assert sorted({fixed_action_id(a) for a in legal}) == sorted(
                i for i in legal_ids if ACTIONS[i].kind != "trade_start")
        offer = _random_offer(game, rng) if rng.random() < 0.3 else None
        if offer is not None:
            steps = offer_steps(game.current_player, game.num_players, offer)
            taken = 0
            for step in steps:
                assert step in ids.legal_action_ids()
                ids._take(step)
                taken += 1
                if ids.draft is None and step != SUBMIT_ID:
                    break
            assert engine.take_engine(offer) == taken
            asked += taken
            continue
        choice = rng.choice([i for i in legal_ids if ACTIONS[i].kind != "trade_start"])
        action = engine_action(game, choice)
        ids._take(choice)
        assert engine.take_engine(action) == 1
        asked += 1


@pytest.mark.parametrize("cap", [2, 5, PRE_ROLL_CAP])
@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_engine_level_play_is_id_level_play(num_players: int, cap: int) -> None:
    """Same game, same counts, same decisions asked, by ids or by engine actions; small caps
    drop drafts part-way and force rolls."""
    for seed in range(2):
        assert _play_side_by_side(num_players, seed, cap) > 0


def test_the_environment_is_a_driver_with_the_same_defaults() -> None:
    env = raw_env()
    assert isinstance(env, SeatDriver)
    assert env.max_pre_roll_actions == PRE_ROLL_CAP == SeatDriver().max_pre_roll_actions
    assert (env.max_trade_steps, env.max_decisions) == (
        SeatDriver().max_trade_steps, SeatDriver().max_decisions)


def test_offer_steps_are_the_table_ids_of_the_offer() -> None:
    """An offer composes as start (to the seat so many on), a toggle per place given or asked
    for, the money if any, submit: each id read back from the action table's own rows, not
    from the driver's lookups. The players' adapter composes with this very function."""
    assert agents_offer_steps is offer_steps
    by_row = {(spec.kind, spec.arg): spec.id for spec in ACTIONS}
    rng = random.Random(1)
    for _ in range(200):
        n = rng.randint(2, 6)
        seat, target = rng.sample(range(n), 2)
        places = rng.sample(PLACES, rng.randint(1, 8))
        cut = rng.randint(0, len(places))
        amount = rng.choice((0, *TRADE_AMOUNTS, *(-a for a in TRADE_AMOUNTS)))
        offer = actions.offer_trade(target, places[:cut], places[cut:], amount)
        expected = [by_row["trade_start", (target - seat) % n]]
        # The offer keeps its places sorted: given ones first, then those asked for.
        toggles = sorted(places[:cut]) + sorted(places[cut:])
        expected += [by_row["trade_toggle", sq] for sq in toggles]
        expected += [by_row["trade_money", amount]] if amount else []
        expected += [by_row["trade_submit", 0]]
        steps = offer_steps(seat, n, offer)
        assert steps == expected
        assert steps[0] == TRADE_START_IDS[(target - seat) % n - 1] and steps[-1] == SUBMIT_ID
        assert len(steps) == 2 + len(places) + (amount != 0)
    with pytest.raises(IllegalActionError, match="cannot be composed"):
        offer_steps(0, 2, actions.offer_trade(1, [PLACES[0]], [], 150))


def test_an_offer_counts_its_steps_and_is_dropped_at_the_cap() -> None:
    """An offer is as many decisions as composition steps; one that would run past the pre-roll
    cap is dropped part-way (not made), and then only rolling is left, taken unasked."""
    def position() -> Game:
        game = new_game(2)
        give(game, 0, "Jumla")
        give(game, 1, "Surkhet")
        return game

    offer = actions.offer_trade(1, [sq("Jumla")], [sq("Surkhet")], 500)
    assert len(offer_steps(0, 2, offer)) == 5  # start, two toggles, money, submit

    roomy = SeatDriver.for_game(position(), max_pre_roll_actions=5)
    roomy.engine_choices()
    assert roomy.take_engine(offer) == 5
    assert roomy.game.phase == Phase.TRADE_ANSWER and roomy.game.offers_made == 1
    assert (roomy.decisions, roomy.pre_roll_actions) == (5, 5)

    tight = SeatDriver.for_game(position(), max_pre_roll_actions=4)
    tight.engine_choices()
    assert tight.take_engine(offer) == 4  # the fourth step reaches the cap: the draft is dropped
    assert tight.game.phase == Phase.PRE_ROLL and tight.game.offers_made == 0
    assert tight.draft is None
    assert tight.game.dice == (0, 0)
    tight.engine_choices()  # only rolling is left: taken without asking
    assert tight.game.dice != (0, 0) and tight.decisions == 5

    # The same through ids: the fourth step drops the draft, and the roll is the only id left.
    ids = SeatDriver.for_game(position(), max_pre_roll_actions=4)
    for step in offer_steps(0, 2, offer)[:4]:
        assert step in ids.legal_action_ids()
        ids._take(step)
    assert ids.draft is None and ids.legal_action_ids() == [ROLL_ID]


def test_offers_that_cannot_be_composed_are_refused_changing_nothing() -> None:
    game = new_game(2)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet")
    driver = SeatDriver.for_game(game)
    before = game.to_json()
    odd_money = actions.offer_trade(1, [sq("Jumla")], [], 250)  # not a trade amount of the table
    with pytest.raises(IllegalActionError, match="cannot be composed"):
        driver.take_engine(odd_money)
    not_theirs = actions.offer_trade(1, [sq("Surkhet")], [], 0)  # seat 0 does not hold Surkhet
    with pytest.raises(IllegalActionError, match="does not own"):
        driver.take_engine(not_theirs)
    assert game.to_json() == before and (driver.decisions, driver.pre_roll_actions) == (0, 0)


def test_skip_trivial_off_asks_every_decision() -> None:
    """Without skip_trivial nothing is taken unasked, the forced roll at the cap included."""
    driver = SeatDriver.for_game(new_game(2), skip_trivial=False, max_pre_roll_actions=1)
    assert driver.engine_choices() == [actions.ROLL]
    assert driver.decisions == 0
    asking = SeatDriver.for_game(new_game(2))
    asking.engine_choices()
    assert asking.decisions > 0  # the first roll of a fresh game is the only choice
