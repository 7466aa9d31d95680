"""The generated population (byapar_agents.population): players whose judgement is drawn.

Whole seeded games at 2, 4 and 6 seats without an illegal action, the same player and game from
the same seed, thousands of distinct players, the one split of the seeds (and that training
names no evaluation seed), and exact positions where one drawn trait changes the decision.
"""

from __future__ import annotations

import random
import re
from dataclasses import asdict, replace
from pathlib import Path

import pytest
from scenario import give, new_game, sq

from byapar_agents import UnknownAgentError, make_agent
from byapar_agents.population import (
    EVALUATION_SEEDS,
    TRAINING_SEEDS,
    PopulationPlayer,
    draw_traits,
    evaluation_names,
    is_population_name,
    population_seed,
    training_names,
)
from byapar_env.driver import SeatDriver, offer_steps
from byapar_env.engine import ActionKind, Game, Phase, actions
from byapar_harness.arena import ArenaConfig, play_game, seat_game
from byapar_harness.arena import validate as validate_arena

REPO = Path(__file__).resolve().parents[1]
GORKHA, MUSTANG, POKHARA = sq("Gorkha"), sq("Mustang"), sq("Pokhara")
ILAM, DHARAN, BIRATNAGAR = sq("Ilam"), sq("Dharan"), sq("Biratnagar")
JUMLA, SURKHET = sq("Jumla"), sq("Surkhet")


def decide(player, game):
    return player.choose(game, game.current_player, game.legal_actions())


def player_with(seed: int = 5, **traits) -> PopulationPlayer:
    """Population player ``seed`` with some drawn traits set (the rest as drawn)."""
    return PopulationPlayer(seed, replace(draw_traits(seed), **traits))


def play_checked(players: list, seed: int) -> tuple[Game, list[tuple[int, ActionKind]]]:
    """A whole game on the engine; every choice must be legal (an offer also composable on the
    environment's steps). Returns the game and every (seat, kind) chosen."""
    driver = SeatDriver.for_game(Game(ArenaConfig(players=("x",) * len(players)).rules(),
                                      seed=seed), max_decisions=10**9)
    game = driver.game
    chosen = []
    while legal := driver.engine_choices():
        seat = game.current_player
        action = players[seat].choose(game, seat, legal)
        assert game.is_legal(action), f"{players[seat].name}: {action} ({game.phase.name})"
        if action.kind == ActionKind.OFFER_TRADE:
            offer_steps(seat, game.num_players, action)  # raises if not composable
        chosen.append((seat, action.kind))
        driver.take_engine(action)
    assert game.is_over
    return game, chosen


# ------------------------------------------------------------------------------ whole games
@pytest.mark.parametrize("seats", [2, 4, 6])
def test_whole_games_without_illegal_actions(seats: int) -> None:
    kinds = set()
    for seed in (1, 2, 3):
        names = [f"pop-{seed * 100 + i}" for i in range(seats - 1)]
        names.append(evaluation_names(1, seed)[0] if seed != 3 else "medium")
        players = [make_agent(n) for n in names]
        for s, p in enumerate(players):
            p.reset(seed + s)
        _, chosen = play_checked(players, seed)
        kinds |= {k for _, k in chosen}
    # The games exercise the player's whole range of decisions.
    assert {ActionKind.BUY, ActionKind.BID, ActionKind.BUILD, ActionKind.OFFER_TRADE} <= kinds


def test_the_same_seed_gives_the_same_player_and_game() -> None:
    assert draw_traits(17) == draw_traits(17)
    assert make_agent("pop-17").traits == PopulationPlayer(17).traits
    config = ArenaConfig(players=("pop-17", "medium", "pop-1000001", "pop-17"))
    assert play_game(config, 3) == play_game(config, 3)
    kinds, _, seed = seat_game(config, 3)
    logs = [play_checked([make_agent(k) for k in kinds], seed)[0].log for _ in range(2)]
    assert logs[0] == logs[1]


def test_one_object_seated_twice_plays_as_two() -> None:
    """The arena seats one object for every seat of a population name: the player keeps its
    state per seat, so the game is the same as with one object a seat."""
    shared = make_agent("pop-23")
    shared.reset(5)
    apart = [make_agent("pop-23") for _ in range(4)]
    for p in apart:
        p.reset(5)
    assert play_checked([shared] * 4, 11)[0].log == play_checked(apart, 11)[0].log


# ------------------------------------------------------------------------------ drawn traits
def test_different_seeds_give_different_players() -> None:
    drawn = [draw_traits(s) for s in range(3_000)]
    assert len({t for t in drawn}) == 3_000
    # Without the per-square beliefs and group tastes, still thousands of distinct players.
    assert len({tuple(v for k, v in asdict(t).items() if k not in ("belief", "group_taste"))
                for t in drawn}) == 3_000
    # Every trait varies over the population, and the yes/no ones take both values.
    for field in asdict(drawn[0]):
        assert len({repr(getattr(t, field)) for t in drawn}) > 1, field
    share = sum(t.trades for t in drawn) / len(drawn)
    assert 0.7 < share < 0.95
    assert {t.partners for t in drawn} == {"any", "not_leader", "poorer"}
    assert any(t.jail_stay_houses is None for t in drawn)
    assert any(t.payoff_multiple is None for t in drawn)


def test_names() -> None:
    assert make_agent("pop-17").name == "pop-17"
    assert population_seed("pop-0") == 0 and population_seed("pop-1000000") == 1_000_000
    for bad in ("pop-017", "pop-", "pop-x", "pop--1", "pop-99999999999", "pop", 17):
        assert not is_population_name(bad), bad
    with pytest.raises(UnknownAgentError):
        make_agent("pop-017")
    validate_arena(ArenaConfig(players=("hard", "pop-3", "pop-1000000")))


# ------------------------------------------------------------------------------ the seed split
def test_training_and_evaluation_seeds_are_apart() -> None:
    assert TRAINING_SEEDS.stop <= EVALUATION_SEEDS.start
    assert len(TRAINING_SEEDS) >= 10_000 and len(EVALUATION_SEEDS) >= 1_000
    for name in evaluation_names(50):
        assert population_seed(name) in EVALUATION_SEEDS
    for name in training_names(500, random.Random(0)):
        assert population_seed(name) in TRAINING_SEEDS
    # The gauntlet's population group is evaluation seeds.
    from byapar_harness.gauntlet import group_members

    assert all(population_seed(n) in EVALUATION_SEEDS for n in group_members("population", 20))


def test_no_training_module_names_an_evaluation_seed() -> None:
    sources = [p for p in (REPO / "byapar_training").rglob("*") if p.is_file()
               and p.suffix in (".py", ".json", ".toml", ".yaml", ".yml", ".txt", ".md")]
    assert sources
    names = re.compile(r"pop-([0-9]+)")
    for path in sources:
        text = path.read_text(errors="replace")
        for word in ("EVALUATION_SEEDS", "evaluation_names"):
            assert word not in text, f"{path} reads the population's evaluation seeds"
        for m in names.finditer(text):
            assert int(m.group(1)) not in EVALUATION_SEEDS, f"{path} names {m.group(0)}"


# ------------------------------------------------------------------------------ exact positions
def open_auction() -> Game:
    """Two players; seat 0 lands on Pokhara and declines: seat 1 bids first."""
    game = new_game(2)
    game.position[0] = POKHARA - 7
    game.force_dice((3, 4))
    game.apply(actions.ROLL)
    game.apply(actions.decline(POKHARA))
    assert game.phase == Phase.AUCTION and game.current_player == 1
    return game


def test_a_drawn_bid_ceiling_stops_a_bid() -> None:
    game = open_auction()
    game.auction.high, game.auction.holder = 2_000, 0
    keen = player_with(bid_multiple=1.4, bid_cash_share=1.0, reserve_base=0, reserve_danger=0.0)
    worth = keen.worth(game, 1, POKHARA)
    # A ceiling just over the next bid bids; one just under it drops out.
    over = player_with(bid_multiple=2_150 / worth, bid_cash_share=1.0, reserve_base=0,
                       reserve_danger=0.0)
    under = player_with(bid_multiple=2_050 / worth, bid_cash_share=1.0, reserve_base=0,
                        reserve_danger=0.0)
    assert decide(over, game) == actions.bid(POKHARA, 2_100)
    assert decide(under, game) == actions.DROP_OUT
    # The drawn share of spare cash caps it too.
    poor = player_with(bid_multiple=1.4, bid_cash_share=0.1, reserve_base=0, reserve_danger=0.0)
    assert decide(poor, game) == actions.DROP_OUT


def swap_position() -> Game:
    """Seat 0 holds two of Gandaki and one of Koshi; seat 1 the third of Gandaki and the other
    two of Koshi: one swap completes both."""
    game = new_game(4)
    give(game, 0, "Gorkha", "Mustang", "Ilam")
    give(game, 1, "Pokhara", "Dharan", "Biratnagar")
    return game


TRADER = dict(trades=True, offers=True, partners="any", offer_margin=0.0, accept_margin=0.0,
              rival_weight=0.3, generosity=0.5, offers_per_turn=3, offer_tries=3,
              retry_rounds=1, cash_offer_share=0.5)


def test_two_population_players_swap_to_complete_both_groups() -> None:
    """Before rolling, seat 0 offers its deals best first (as it sees them); seat 1 answers
    each by its own model: the two-way swap is among them, and they make it."""
    game = swap_position()
    first, second = player_with(11, **TRADER), player_with(12, **TRADER)
    offers = []
    while game.phase in (Phase.PRE_ROLL, Phase.TRADE_ANSWER):
        if game.phase == Phase.TRADE_ANSWER:
            game.apply(decide(second, game))
            continue
        action = decide(first, game)
        if action.kind != ActionKind.OFFER_TRADE:
            break
        offers.append(action)
        game.apply(action)
    assert any(set(o.give) == {ILAM} and set(o.take) == {POKHARA} for o in offers), offers
    assert game.owns_group(0, GORKHA) and game.owns_group(1, DHARAN)


def test_a_player_drawn_not_to_trade_never_offers_nor_accepts() -> None:
    game = swap_position()
    loner = player_with(11, **{**TRADER, "trades": False})
    assert decide(loner, game).kind != ActionKind.OFFER_TRADE
    game.apply(decide(player_with(12, **TRADER), game))  # the swap, offered to seat 1
    assert decide(loner, game) == actions.REJECT_TRADE
    # Nor in whole games, with traders at the table offering it deals.
    loner = player_with(11, trades=False)
    for seed in (1, 2):
        players = [loner, player_with(12, **TRADER), player_with(13, **TRADER), loner]
        for s, p in enumerate(players):
            p.reset(seed + s)
        _, chosen = play_checked(players, seed)
        mine = {k for s, k in chosen if s in (0, 3)}
        assert ActionKind.OFFER_TRADE not in mine and ActionKind.ACCEPT_TRADE not in mine
        assert ActionKind.REJECT_TRADE in mine  # it was offered deals, and said no


def test_the_drawn_acceptance_margin_decides_an_exact_offer() -> None:
    """Seat 1 is offered Rs 3,000 for Jumla. What the deal nets it, as its model sees it, is
    fixed; a drawn margin just under that share of the price accepts, just over refuses."""
    game = new_game(4)
    give(game, 1, "Jumla")
    give(game, 2, "Surkhet")
    game.apply(actions.offer_trade(1, [], [JUMLA], 3_000))
    probe = player_with(7, **TRADER)
    net = probe.deal_value(game, 1, (), (JUMLA,), 0, 3_000)
    margin = net / 600
    assert decide(player_with(7, **{**TRADER, "accept_margin": margin - 0.01}), game) \
        == actions.ACCEPT_TRADE
    assert decide(player_with(7, **{**TRADER, "accept_margin": margin + 0.01}), game) \
        == actions.REJECT_TRADE


def test_drawn_partners_refuse_a_richer_offerer() -> None:
    game = swap_position()
    game.cash[0] = 30_000  # seat 0, the offerer, is the richest
    game.apply(actions.offer_trade(1, [ILAM], [POKHARA], 2_000))
    assert decide(player_with(12, **TRADER), game) == actions.ACCEPT_TRADE
    assert decide(player_with(12, **{**TRADER, "partners": "poorer"}), game) == actions.REJECT_TRADE
    assert decide(player_with(12, **{**TRADER, "partners": "not_leader"}), game) \
        == actions.REJECT_TRADE


def test_the_drawn_building_pace_and_cap() -> None:
    game = new_game(2)
    give(game, 0, "Jumla", "Surkhet")
    calm = dict(trades=False, reserve_base=0, reserve_danger=0.0, build_reserve_share=0.0,
                build_cap=5, payoff_multiple=None)
    slow, fast = player_with(3, **calm, build_pace=1), player_with(3, **calm, build_pace=4)
    builds = {}
    for name, player in (("slow", slow), ("fast", fast)):
        g = game.clone()
        n = 0
        while (a := decide(player, g)).kind == ActionKind.BUILD:
            g.apply(a)
            n += 1
        assert a == actions.ROLL
        builds[name] = n
    assert builds == {"slow": 1, "fast": 4}
    capped = player_with(3, **{**calm, "build_cap": 1, "build_pace": 8})
    g = game.clone()
    while (a := decide(capped, g)).kind == ActionKind.BUILD:
        g.apply(a)
    assert (g.buildings[JUMLA], g.buildings[SURKHET]) == (1, 1)


def test_the_drawn_jail_policy() -> None:
    game = new_game(2)
    game.in_jail[0] = True
    game.position[0] = 9
    give(game, 1, "Jumla", "Surkhet", buildings=3)  # six houses of the rival's
    leaver = player_with(3, trades=False, jail_stay_houses=None)
    stayer = player_with(3, trades=False, jail_stay_houses=6, build_pace=0)
    assert decide(leaver, game) == actions.PAY_FINE
    assert decide(stayer, game) == actions.ROLL
    assert decide(player_with(3, trades=False, jail_stay_houses=7, build_pace=0), game) \
        == actions.PAY_FINE
