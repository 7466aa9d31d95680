"""Search's fused play loop (``byapar_env.fast_play.play_on``) against the driver it stands in
for: from many seeded positions (two to six seats, every phase, pre-roll counts near the cap),
the same players played on by ``SeatDriver.engine_choices``/``take_engine`` and by ``play_on``
leave the same saved game and the same player memory."""

from __future__ import annotations

import random

import pytest
from scenario import give, new_game

from byapar_agents.medium import MediumPlayer
from byapar_agents.population import make_population
from byapar_env.action_table import TRADE_AMOUNTS
from byapar_env.driver import PRE_ROLL_CAP, SeatDriver
from byapar_env.engine import Game, IllegalActionError, Phase, Rules, actions
from byapar_env.fast_play import PlayStop, play_on


class Chooser:
    """A seeded random player that also makes random legal offers, some too long for the
    pre-roll cap, and reads ``legal`` in every phase (it declares nothing)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int, legal: list) -> actions.Action:
        assert legal  # never None for a player that declares nothing
        rng = self.rng
        if game.can_offer_trade() and rng.random() < 0.3:
            t = rng.choice([s for s in game.active_seats() if s != seat])
            offer = actions.offer_trade(t, [s for s in game.places_of(seat) if rng.random() < 0.4],
                                        [s for s in game.places_of(t) if rng.random() < 0.4],
                                        rng.choice((0, *TRADE_AMOUNTS[:4])))
            if game.trade_error(offer) is None:
                return offer
        return rng.choice(legal)


class ReadsLegal(MediumPlayer):
    """Medium's judgement in a subclass that declares nothing: it must get ``legal`` always."""

    def choose(self, game: Game, seat: int, legal: list) -> actions.Action:
        assert legal is not None
        return super().choose(game, seat, legal)


def _by_driver(game: Game, players: list, stop: tuple[int, int], pre: int, first) -> None:
    driver = SeatDriver.for_game(game, max_decisions=10**9)
    driver.pre_roll_actions = pre
    if first is not None and not game.is_over:
        driver.take_engine(first)
    while (game.round, game.turn) < stop and (legal := driver.engine_choices()):
        seat = game.current_player
        driver.take_engine(players[seat].choose(game, seat, legal))


def _position(seed: int) -> Game:
    """A seeded game some way in, reached by medium and random moves (any phase)."""
    rng = random.Random(seed)
    n = 2 + seed % 5
    game = Game(Rules(num_players=n), seed=seed)
    driver = SeatDriver.for_game(game)
    players = [MediumPlayer() for _ in range(n)]
    for _ in range(rng.randint(0, 500)):
        legal = driver.engine_choices()
        if not legal:
            break
        seat = game.current_player
        driver.take_engine(players[seat].choose(game, seat, legal) if rng.random() < 0.8
                           else rng.choice(legal))
    return game


def _kinds(kind: str, n: int, seed: int) -> list:
    if kind == "medium":
        return [MediumPlayer() for _ in range(n)]
    if kind == "mixed":
        return [(MediumPlayer(), make_population("pop-7"), Chooser(seed + s), ReadsLegal())[s % 4]
                for s in range(n)]
    return [Chooser(seed + s) for s in range(n)]


@pytest.mark.parametrize("kind", ["medium", "mixed", "random"])
def test_play_on_plays_as_the_driver_does(kind: str) -> None:
    phases = set()
    compared = 0
    for seed in range(48):
        game = _position(seed)
        if game.is_over:
            continue
        rng = random.Random(seed)
        for k in range(3):
            pre = rng.choice((0, 5, PRE_ROLL_CAP - 2, PRE_ROLL_CAP - 1, PRE_ROLL_CAP))
            if game.phase != Phase.PRE_ROLL:
                pre = 0
            stop = (game.round + rng.randint(1, 3), game.turn)
            first = rng.choice(game.legal_actions()) if k == 2 else None
            a, b = game.clone(), game.clone()
            pa, pb = _kinds(kind, game.num_players, k), _kinds(kind, game.num_players, k)
            _by_driver(a, pa, stop, pre, first)
            play_on(b, pb, stop, pre, first)
            assert a.to_json() == b.to_json(), (seed, k)
            assert [getattr(p, "tried", None) for p in pa] == [
                getattr(p, "tried", None) for p in pb]
            phases.add(game.phase)
            compared += 1
    assert compared >= 100
    assert {Phase.PRE_ROLL, Phase.BUY, Phase.AUCTION}.issubset(phases)


def test_an_offer_too_long_for_the_cap_is_dropped_as_the_driver_drops_it() -> None:
    """Three places and money are six composition steps (start, three toggles, money, submit):
    at 20 of 24 actions the draft reaches the cap on its fourth step and is dropped; only
    rolling is left, and nothing changed hands."""
    for by_driver in (True, False):
        game = new_game(2, seed=3)
        give(game, 0, "Jumla", "Ilam")
        give(game, 1, "Janakpur")
        places0, places1 = game.places_of(0), game.places_of(1)
        offer = actions.offer_trade(1, places0, places1, TRADE_AMOUNTS[0])
        assert game.trade_error(offer) is None
        players = [MediumPlayer(), MediumPlayer()]
        stop = (game.round, game.turn)  # only the offer: no decision after it
        if by_driver:
            _by_driver(game, players, stop, 20, offer)
        else:
            play_on(game, players, stop, 20, offer)
        assert game.phase == Phase.PRE_ROLL and game.offers_made == 0
        assert game.places_of(0) == places0 and game.places_of(1) == places1
        assert game.legal_actions()[0] == actions.ROLL


def test_an_illegal_offer_is_refused_as_the_driver_refuses_it() -> None:
    game = new_game(2, seed=1)
    give(game, 0, "Jumla")
    before = game.to_json()
    for offer in (actions.offer_trade(1, [], [], 100),  # no place
                  actions.offer_trade(1, game.places_of(0), [], 150)):  # money the table cannot say
        with pytest.raises(IllegalActionError):
            play_on(game, [MediumPlayer(), MediumPlayer()], (5, 0), 0, offer)
        with pytest.raises(IllegalActionError):
            SeatDriver.for_game(game.clone()).take_engine(offer)
    assert game.to_json() == before


def test_a_passed_deadline_stops_before_the_next_decision() -> None:
    game = _position(11)
    version = game.version
    with pytest.raises(PlayStop):
        play_on(game, [MediumPlayer() for _ in range(game.num_players)],
                (game.round + 2, game.turn), deadline=-1.0)
    # Only decisions without a choice were taken before the first one asked.
    assert game.version - version <= 3
