"""The outside panel (byapar_agents.outside): players ported from public Monopoly-family AIs.

Whole seeded games at 2, 4 and 6 seats without an illegal action, the same game from the same
seed, the seen/unseen split, and each player's signature decision in an exact position.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario import give, new_game, sq

from byapar_agents import make_agent
from byapar_agents.outside import (
    OUTSIDE_NAMES,
    SEEN_OUTSIDE,
    UNSEEN_OUTSIDE,
    AggressiveTradingPlayer,
    DarlingBenchmarkPlayer,
    HuwPlayer,
    IntrepidTestPlayer,
    SophiePlayer,
    TradingPlayer,
    make_outside,
)
from byapar_agents.outside.harveyxia import Plan
from byapar_env.driver import SeatDriver, offer_steps
from byapar_env.engine import ActionKind, Game, Phase, actions
from byapar_harness.arena import ArenaConfig, play_game, seat_game

REPO = Path(__file__).resolve().parents[1]
GORKHA, MUSTANG, POKHARA = sq("Gorkha"), sq("Mustang"), sq("Pokhara")
ILAM, DHARAN, BIRATNAGAR = sq("Ilam"), sq("Dharan"), sq("Biratnagar")
JUMLA, SURKHET = sq("Jumla"), sq("Surkhet")
LALITPUR, KATHMANDU = sq("Lalitpur"), sq("Kathmandu")


def decide(player, game):
    return player.choose(game, game.current_player, game.legal_actions())


def play_checked(players: list, seed: int) -> Game:
    """A whole game on the engine; every choice must be legal (an offer also composable on the
    environment's steps) before the table's driver takes it."""
    driver = SeatDriver.for_game(Game(ArenaConfig(players=("x",) * len(players)).rules(),
                                      seed=seed), max_decisions=10**9)
    game = driver.game
    while legal := driver.engine_choices():
        seat = game.current_player
        action = players[seat].choose(game, seat, legal)
        assert game.is_legal(action), f"{players[seat].name}: {action} ({game.phase.name})"
        if action.kind == ActionKind.OFFER_TRADE:
            offer_steps(seat, game.num_players, action)  # raises if not composable
        driver.take_engine(action)
    assert game.is_over
    return game


# ------------------------------------------------------------------------------ whole games
@pytest.mark.parametrize("name", OUTSIDE_NAMES)
@pytest.mark.parametrize("seats", [2, 4, 6])
def test_whole_games_without_illegal_actions(name: str, seats: int) -> None:
    others = ["medium", "outside-chrisaacson-trading", "outside-monopyly-huw", name]
    for seed in (1, 2):
        players = [make_agent(name)] + [make_agent(others[i % 4]) for i in range(seats - 1)]
        for s, p in enumerate(players):
            p.reset(seed + s)
        play_checked(players, seed)


@pytest.mark.parametrize("name", OUTSIDE_NAMES)
def test_the_same_seed_gives_the_same_game(name: str) -> None:
    config = ArenaConfig(players=(name, "medium", name, name))
    first, second = play_game(config, 3), play_game(config, 3)
    assert first == second
    kinds, players, seed = seat_game(config, 3)
    logs = [play_checked([make_agent(k) for k in kinds], seed).log for _ in range(2)]
    assert logs[0] == logs[1]


@pytest.mark.parametrize("name", OUTSIDE_NAMES)
def test_one_object_seated_twice_plays_as_two(name: str) -> None:
    """The arena seats one object for every seat of a name it does not list as a level: the
    players keep their state per seat, so the game is the same as with one object a seat."""
    shared = make_agent(name)
    shared.reset(5)
    apart = [make_agent(name) for _ in range(4)]
    for p in apart:
        p.reset(5)
    assert play_checked([shared] * 4, 11).log == play_checked(apart, 11).log


def test_names_and_split() -> None:
    assert len(OUTSIDE_NAMES) == 8 and len(SEEN_OUTSIDE) == 5
    assert "outside-harveyxia-benchmark" in SEEN_OUTSIDE
    assert "outside-bradderz-hard" in SEEN_OUTSIDE
    assert SEEN_OUTSIDE[-1] == "outside-usama8800"  # new ports join the seen set, last
    assert all(n.startswith("outside-") for n in OUTSIDE_NAMES)
    assert set(SEEN_OUTSIDE).isdisjoint(UNSEEN_OUTSIDE)
    assert set(SEEN_OUTSIDE) | set(UNSEEN_OUTSIDE) == set(OUTSIDE_NAMES)
    # The unseen set is fixed (every unseen figure stays comparable across releases); new
    # ports join the seen set.
    assert UNSEEN_OUTSIDE == ("outside-chrisaacson-aggressive", "outside-monopyly-huw",
                              "outside-intrepid-aitest")
    for name in OUTSIDE_NAMES:
        assert make_agent(name).name == name
        assert type(make_outside(name)) is type(make_agent(name))
    with pytest.raises(ValueError, match="unknown outside player"):
        make_outside("outside-nobody")


def test_the_rival_readers_portfolio_keeps_the_first_three_seen_players() -> None:
    """The seen set grows; the rival reader's portfolio reads its first three, so that the
    shipped reader does not change as ports join."""
    from byapar_agents.rival_reader import PORTFOLIO

    first = ("outside-chrisaacson-trading", "outside-monopyly-sophie",
             "outside-harveyxia-benchmark")
    assert SEEN_OUTSIDE[:3] == first
    assert tuple(k for k in PORTFOLIO if k.startswith("outside-")) == first


def test_no_training_module_names_an_unseen_player() -> None:
    sources = [p for p in (REPO / "byapar_training").rglob("*") if p.is_file()
               and p.suffix in (".py", ".json", ".toml", ".yaml", ".yml", ".txt", ".md")]
    assert sources
    for path in sources:
        text = path.read_text(errors="replace")
        for name in UNSEEN_OUTSIDE:
            assert name not in text, f"{path} names the unseen player {name}"
        assert "UNSEEN_OUTSIDE" not in text, f"{path} reads the unseen list"


# ------------------------------------------------------------------ the two-way swap (EPT)
def swap_position(players: int = 4) -> Game:
    """Seat 0 holds two of Gandaki and one of Koshi; seat 1 the third of Gandaki and the other
    two of Koshi: one swap completes both."""
    game = new_game(players)
    give(game, 0, "Gorkha", "Mustang", "Ilam")
    give(game, 1, "Pokhara", "Dharan", "Biratnagar")
    return game


def test_trading_player_offers_the_swap_that_completes_both_groups() -> None:
    game = swap_position()
    offer = decide(TradingPlayer(), game)
    assert offer.kind == ActionKind.OFFER_TRADE
    # Its first group in board order is Koshi: Gorkha and Mustang (the rival's missing Gandaki
    # pieces) for Dharan and Biratnagar; the price difference split by the share of the gains.
    assert (offer.target, offer.give, offer.take) == (1, (GORKHA, MUSTANG), (DHARAN, BIRATNAGAR))
    assert 0 < -offer.amount < (2_600 + 2_600) - (2_200 + 2_400)
    assert game.is_legal(offer)
    game.apply(offer)
    game.apply(actions.ACCEPT_TRADE)
    assert game.owns_group(0, ILAM) and game.owns_group(1, POKHARA)


@pytest.mark.parametrize("answerer", [TradingPlayer, AggressiveTradingPlayer, HuwPlayer])
def test_the_traders_accept_the_swap_that_completes_both_groups(answerer) -> None:
    game = swap_position()
    game.apply(actions.offer_trade(1, [ILAM], [POKHARA], 0))
    assert game.phase == Phase.TRADE_ANSWER and game.current_player == 1
    assert decide(answerer(), game) == actions.ACCEPT_TRADE


def test_two_trading_players_complete_both_groups_by_themselves() -> None:
    game = swap_position()
    players = {0: TradingPlayer(), 1: AggressiveTradingPlayer()}
    for _ in range(4):
        if game.phase == Phase.PRE_ROLL and game.current_player == 0 and game.offer is None:
            action = decide(players[0], game)
            if action.kind != ActionKind.OFFER_TRADE:
                break
            game.apply(action)
        elif game.phase == Phase.TRADE_ANSWER:
            game.apply(decide(players[1], game))
    assert game.owns_group(0, ILAM) and game.owns_group(1, POKHARA)


@pytest.mark.parametrize("answerer", [TradingPlayer, HuwPlayer])
def test_the_traders_refuse_to_complete_only_the_rivals_group(answerer) -> None:
    """Seat 0 holds two of Gandaki; seat 1 the third. Money near the price for it, or a loose
    place for it, is refused: it completes only the offerer's group."""
    game = new_game(4)
    give(game, 0, "Gorkha", "Mustang", "Jumla")
    give(game, 1, "Pokhara")
    game.apply(actions.offer_trade(1, [], [POKHARA], 3_000))
    assert decide(answerer(), game) == actions.REJECT_TRADE
    game.apply(actions.REJECT_TRADE)
    game.apply(actions.offer_trade(1, [JUMLA], [POKHARA], 0))
    assert decide(answerer(), game) == actions.REJECT_TRADE


def test_trading_player_charges_for_the_rivals_gain() -> None:
    """It sells the rival's last piece only when paid the place's value plus 40% of the gain it
    gives away: Rs 2,800 is refused, Rs 10,000 accepted."""
    game = new_game(4)
    give(game, 0, "Gorkha", "Mustang")
    give(game, 1, "Pokhara")
    player = TradingPlayer()
    game.apply(actions.offer_trade(1, [], [POKHARA], 2_800))
    assert decide(player, game) == actions.REJECT_TRADE
    game.apply(actions.REJECT_TRADE)
    game.apply(actions.offer_trade(1, [], [POKHARA], 10_000))
    assert decide(player, game) == actions.ACCEPT_TRADE


def test_aggressive_player_takes_any_completion_but_keeps_its_whole_groups() -> None:
    """A piece completing its group is taken even at a poor price (which the trading player
    refuses), but not when it would give away a place of a group it holds whole: then the
    trading player's measure decides."""
    game = new_game(4)
    give(game, 1, "Gorkha", "Mustang", "Jumla", "Surkhet", "Railway")
    give(game, 0, "Pokhara")
    game.apply(actions.offer_trade(1, [POKHARA], [sq("Railway")], -10_000))
    assert decide(AggressiveTradingPlayer(), game) == actions.ACCEPT_TRADE
    assert decide(TradingPlayer(), game) == actions.REJECT_TRADE
    game.apply(actions.REJECT_TRADE)
    game.apply(actions.offer_trade(1, [POKHARA], [JUMLA], -10_000))
    assert decide(AggressiveTradingPlayer(), game) == actions.REJECT_TRADE


# ------------------------------------------------------------------------------ Huw
def open_auction(lander_cash: int = 15_000) -> Game:
    """Two players; seat 0 lands on Pokhara and declines: seat 1 bids first."""
    game = new_game(2)
    game.cash[0] = lander_cash
    game.position[0] = POKHARA - 7
    game.force_dice((3, 4))
    game.apply(actions.ROLL)
    game.apply(actions.decline(POKHARA))
    assert game.phase == Phase.AUCTION and game.current_player == 1
    return game


def test_huw_bids_two_and_a_half_times_price_for_the_piece_completing_its_set() -> None:
    game = open_auction()
    give(game, 1, "Gorkha", "Mustang")
    huw = HuwPlayer()
    ceiling = huw.auction_ceiling(game, 1, POKHARA)
    assert 2.5 * 2_800 + 10 <= ceiling <= 2.5 * 2_800 + 200
    game.auction.high, game.auction.holder = 6_900, 0
    assert decide(huw, game) == actions.bid(POKHARA, 7_000)
    game.auction.high = 7_200
    assert decide(huw, game) == actions.DROP_OUT
    # A place of a set nobody has started: the price and the small random margin.
    plain = open_auction()
    assert 2_810 <= huw.auction_ceiling(plain, 1, POKHARA) <= 3_000


def test_huw_never_sells_a_place_for_money_alone() -> None:
    game = new_game(2)
    give(game, 1, "Jumla")
    game.apply(actions.offer_trade(1, [], [JUMLA], 10_000))
    assert decide(HuwPlayer(), game) == actions.REJECT_TRADE


# ------------------------------------------------------------------------------ Sophie
def landed_on(name: str, cash: int) -> Game:
    game = new_game(2)
    game.cash[0] = cash
    game.position[0] = (sq(name) - 7) % 36
    game.force_dice((3, 4))
    game.apply(actions.ROLL)
    assert game.phase == Phase.BUY
    return game


def test_sophie_buys_only_the_dearest_pair_and_the_transports() -> None:
    sophie = SophiePlayer()
    assert decide(sophie, landed_on("Kathmandu", 4_100)) == actions.buy(KATHMANDU)
    assert decide(sophie, landed_on("Kathmandu", 4_000)) == actions.decline(KATHMANDU)
    assert decide(sophie, landed_on("Airport", 15_000)) == actions.buy(sq("Airport"))
    assert decide(sophie, landed_on("Pokhara", 50_000)) == actions.decline(POKHARA)


def test_sophie_offers_twice_the_price_and_refuses_every_deal() -> None:
    game = new_game(2)
    give(game, 1, "Lalitpur")
    assert decide(SophiePlayer(), game) == actions.offer_trade(1, [], [LALITPUR], 6_000)
    game.cash[0] = 7_000  # not above twice the price: no offer
    other = new_game(2)
    give(other, 1, "Lalitpur")
    other.cash[0] = 7_000
    assert decide(SophiePlayer(), other) == actions.ROLL
    answer = new_game(2)
    give(answer, 1, "Jumla")
    answer.apply(actions.offer_trade(1, [], [JUMLA], 10_000))
    assert decide(SophiePlayer(), answer) == actions.REJECT_TRADE
    assert decide(SophiePlayer(), open_auction()) == actions.DROP_OUT


# ------------------------------------------------------------------------------ intrepid
def test_intrepid_accepts_by_list_value_above_a_small_margin() -> None:
    game = new_game(2)
    give(game, 1, "Jumla")
    game.apply(actions.offer_trade(1, [], [JUMLA], 860))  # 260 over the price
    assert decide(IntrepidTestPlayer(), game) == actions.ACCEPT_TRADE
    game.apply(actions.REJECT_TRADE)
    game.apply(actions.offer_trade(1, [], [JUMLA], 850))  # 250 over: not enough
    assert decide(IntrepidTestPlayer(), game) == actions.REJECT_TRADE


def test_intrepid_bids_to_one_and_a_half_times_price() -> None:
    game = open_auction()
    player = IntrepidTestPlayer()
    game.auction.high, game.auction.holder = 3_500, 0
    action = decide(player, game)
    assert action.kind == ActionKind.BID and 3_600 <= action.amount <= 3_800
    game.auction.high = 4_100  # any raise passes 1.5 x 2,800 = 4,200
    assert decide(player, game) == actions.DROP_OUT


def test_intrepid_offers_its_lone_utility_for_a_transport_once() -> None:
    game = new_game(2)
    give(game, 0, "Hydropower")
    give(game, 1, "Railway")
    player = IntrepidTestPlayer()
    offer = decide(player, game)
    assert offer == actions.offer_trade(1, [sq("Hydropower")], [sq("Railway")], 0)
    game.apply(offer)
    game.apply(actions.REJECT_TRADE)
    assert decide(player, game) == actions.ROLL


# ------------------------------------------------------------------ harveyxia's benchmark
BIRGUNJ, JANAKPUR = sq("Birgunj"), sq("Janakpur")


def test_benchmark_keeps_the_largest_rival_rent_in_hand() -> None:
    """It buys a transport only with the price plus the largest rent a rival charges (here
    Kathmandu with three houses, Rs 14,000) in hand, never a utility, and bids on a place it
    would buy up to the price and no further."""
    player = DarlingBenchmarkPlayer()
    for cash, expected in ((16_000, actions.buy), (15_900, actions.decline)):
        game = landed_on("Airport", cash)
        give(game, 1, "Lalitpur", "Kathmandu", buildings=3)
        assert decide(player, game) == expected(sq("Airport"))
    assert decide(player, landed_on("Hydropower", 50_000)) == actions.decline(sq("Hydropower"))
    game = open_auction()
    assert decide(player, game) == actions.DROP_OUT  # Gandaki is not a set it collects yet
    give(game, 1, "Gorkha", "Mustang")  # now Pokhara completes its set
    game.auction.high, game.auction.holder = 2_700, 0
    assert decide(player, game) == actions.bid(POKHARA, 2_800)
    game.auction.high = 2_800
    assert decide(player, game) == actions.DROP_OUT


def test_benchmark_collects_the_first_free_preferred_set() -> None:
    """Early it collects one set at a time, orange (Madhesh) before light blue
    (Sudurpashchim); a set outside the four preferred ones is declined while one of them is
    free."""
    player = DarlingBenchmarkPlayer()
    assert decide(player, landed_on("Ilam", 15_000)) == actions.decline(ILAM)
    dhangadhi = sq("Dhangadhi")
    assert decide(player, landed_on("Dhangadhi", 15_000)) == actions.decline(dhangadhi)
    assert decide(player, landed_on("Janakpur", 15_000)) == actions.buy(JANAKPUR)
    assert player.plans[0] == Plan(focus="orange")
    # Once a rival holds a piece of orange, light blue is next (a fresh player: no focus).
    game = landed_on("Dhangadhi", 15_000)
    give(game, 1, "Birgunj")
    assert decide(DarlingBenchmarkPlayer(), game) == actions.buy(dhangadhi)
    # Completing its focus set starts the late game.
    done = landed_on("Janakpur", 15_000)
    give(done, 0, "Birgunj")
    player.plans[0] = Plan(focus="orange")
    assert decide(player, done) == actions.buy(JANAKPUR)
    assert player.plans[0] == Plan(focus=None, late=True)


def test_benchmark_builds_three_houses_first() -> None:
    """Every place of its sets gets three houses before any gets a fourth, and a fourth only
    once it has completed a second set: then on the last place offered."""
    game = new_game(2)
    give(game, 0, "Jumla", "Surkhet", buildings=3)
    give(game, 0, "Birgunj", "Janakpur")
    player = DarlingBenchmarkPlayer()
    assert decide(player, game) == actions.build(BIRGUNJ)
    game.buildings[BIRGUNJ] = game.buildings[JANAKPUR] = 3
    assert decide(player, game) == actions.ROLL
    player.plans[0] = Plan(late=True, finished=True)
    assert decide(player, game) == actions.build(JANAKPUR)


def test_benchmark_shelters_in_jail_once_a_rival_holds_a_set() -> None:
    """Early it pays to leave jail; it rolls for a double instead once a rival holds a whole
    set, or while one double (3+3 or 4+4) could finish its orange set."""
    game = new_game(2)
    game.in_jail[0], game.position[0] = True, 9
    player = DarlingBenchmarkPlayer()
    assert decide(player, game) == actions.PAY_FINE
    give(game, 0, "Birgunj")
    player.plans[0] = Plan(focus="orange")
    assert decide(player, game) == actions.ROLL  # Janakpur is 8 squares from jail
    player.plans[0] = Plan()
    assert decide(player, game) == actions.PAY_FINE  # not collecting orange: nothing to chase
    give(game, 1, "Jumla", "Surkhet")
    assert decide(player, game) == actions.ROLL
