"""The AIPlayer of usama8800/monopoly, ported (byapar_agents.outside.usama).

Each phase's choice in an exact position (its buying guards, its auction ceilings, its answers
by its worth of holdings and their gates, the offers it proposes and how it walks them across
turns, its building plan, paying off, jail and raising cash), and whole games of six, beside
hard and medium, through the environment and the arena, the same game from the same seed.
"""

from __future__ import annotations

import pytest
from outside_games import check_arena_game_is_environment_game, check_copies_replay
from scenario import give, landed_on, new_game, raise_cash_moves, roll, sq

from byapar_agents.outside import UsamaAIPlayer
from byapar_agents.outside.usama import (
    building_plan,
    offers_for,
    swap_money,
    usable_money,
    value_items,
)
from byapar_env.engine import Game, Phase, actions, board

NAME = "outside-usama8800"
JUMLA, SURKHET = sq("Jumla"), sq("Surkhet")
DHANGADHI = sq("Dhangadhi")
BIRGUNJ, JANAKPUR = sq("Birgunj"), sq("Janakpur")
ILAM, DHARAN = sq("Ilam"), sq("Dharan")
POKHARA, LALITPUR, KATHMANDU = sq("Pokhara"), sq("Lalitpur"), sq("Kathmandu")
HYDROPOWER, BUS_PARK = sq("Hydropower"), sq("Bus park")


def decide(player, game: Game):
    return player.choose(game, game.current_player, game.legal_actions())


def play_out_turn(player, game: Game) -> list:
    """Apply its choices before the roll until it rolls; the choices made."""
    taken = []
    while (action := decide(player, game)) != actions.ROLL:
        taken.append(action)
        game.apply(action)
    return taken


# ------------------------------------------------------------------------------ buying
def test_it_buys_only_with_half_its_raisable_money_at_1_2x_the_price() -> None:
    """Pokhara (Rs 2,800): half its raisable money must reach 1.2x the price (Rs 3,360): with
    Rs 6,700 and nothing else it declines though it could pay, with Rs 6,800 it buys."""
    for cash, expected in ((6_700, actions.decline), (6_800, actions.buy)):
        game = landed_on("Pokhara", cash)
        assert decide(UsamaAIPlayer(), game) == expected(POKHARA)


def test_it_declines_what_no_rival_could_buy_at_auction() -> None:
    """With Rs 15,000 it declines Pokhara while no rival has 0.8x the price (Rs 2,240): the
    auction will be cheaper."""
    for rivals, expected in ((2_230, actions.decline), (2_240, actions.buy)):
        game = landed_on("Pokhara", 15_000)
        game.cash[1] = game.cash[2] = rivals
        assert decide(UsamaAIPlayer(), game) == expected(POKHARA)


def test_a_set_one_short_makes_it_buy_with_no_cash_to_spare() -> None:
    """With exactly the price in cash (its rule wants more) it declines Pokhara, unless some
    player, itself or a rival, holds the rest of Gandaki."""
    for holder, expected in ((None, actions.decline), (2, actions.buy), (0, actions.buy)):
        game = landed_on("Pokhara", 2_800)
        give(game, 0, "Chitwan", "Bhaktapur", "Lalitpur", "Kathmandu")  # raisable money
        if holder is not None:
            give(game, holder, "Gorkha", "Mustang")
        assert decide(UsamaAIPlayer(), game) == expected(POKHARA)


# ------------------------------------------------------------------------------ auctions
def open_auction(name: str = "Pokhara", players: int = 2) -> Game:
    """Seat 0 lands on ``name`` and declines: seat 1 bids first."""
    game = landed_on(name, 15_000, players)
    game.apply(actions.decline(sq(name)))
    assert game.phase == Phase.AUCTION and game.current_player == 1
    return game


def bids_up_to(game: Game, square: int, ceiling: int) -> None:
    """It bids the least raise while that stays within ``ceiling``, then drops out."""
    step = ceiling // board.BID_STEP * board.BID_STEP
    game.auction.high = step - board.BID_STEP
    assert decide(UsamaAIPlayer(), game) == actions.bid(square, step)
    game.auction.high = step
    assert decide(UsamaAIPlayer(), game) == actions.DROP_OUT


def test_its_auction_ceilings() -> None:
    """Pokhara (Rs 2,800): 1.3x the price when its cash covers that (Rs 3,640); 2x for the
    piece completing its set (Rs 5,600); 1.6x for the piece completing the highest bidder's
    (Rs 4,480); never past half its raisable money (with Rs 3,000: Rs 1,500)."""
    player = UsamaAIPlayer()
    game = open_auction()
    assert player.ceiling(game, 1, POKHARA) == 3_640
    game.auction.holder = 0
    bids_up_to(game, POKHARA, 3_640)
    complete = open_auction()
    give(complete, 1, "Gorkha", "Mustang")
    assert player.ceiling(complete, 1, POKHARA) == 5_600
    complete.auction.holder = 0
    bids_up_to(complete, POKHARA, 5_600)
    block = open_auction()
    give(block, 0, "Gorkha", "Mustang")
    assert player.ceiling(block, 1, POKHARA) == 3_640  # seat 0 has not bid yet
    block.auction.holder = 0
    assert player.ceiling(block, 1, POKHARA) == 4_480
    bids_up_to(block, POKHARA, 4_480)
    poor = open_auction()
    poor.cash[1] = 3_000
    assert player.ceiling(poor, 1, POKHARA) == 1_500


def test_before_any_bid_one_owned_piece_of_the_set_means_1_6x() -> None:
    """The source compares owners with the highest bidder, -1 before the first bid: there, one
    owned place of the set sets the ceiling to 1.6x, even over its own 2x. It holds Lalitpur:
    Kathmandu's ceiling is Rs 6,400 for the opening bid, Rs 8,000 once seat 0 has bid."""
    game = open_auction("Kathmandu")
    give(game, 1, "Lalitpur")
    assert game.auction.holder == -1
    assert UsamaAIPlayer.ceiling(game, 1, KATHMANDU) == 6_400
    assert decide(UsamaAIPlayer(), game) == actions.bid(KATHMANDU, 100)
    game.auction.high, game.auction.holder = 6_400, 0
    assert UsamaAIPlayer.ceiling(game, 1, KATHMANDU) == 8_000
    bids_up_to(game, KATHMANDU, 8_000)


# ------------------------------------------------------------------------------ answers
def answer_to(game: Game, offer, player=None):
    game.apply(offer)
    assert game.phase == Phase.TRADE_ANSWER and game.current_player == 1
    return decide(player or UsamaAIPlayer(), game)


def test_it_takes_a_deal_when_it_gains_at_least_as_much_as_the_offerer() -> None:
    """Money for its Jumla (worth Rs 600 to it): alone, Rs 700 is a gain of 100 against the
    buyer's loss, taken, and Rs 500 a loss, refused. When the buyer holds Surkhet, Jumla makes
    its Karnali whole (worth 3x the prices, Rs 3,600 from Rs 600): its gain is Rs 3,000 less
    the money, so Rs 1,500 (gain 900 against 1,500) is refused and Rs 1,800 (1,200 each) taken."""
    for surkhet, money, expected in ((False, 500, actions.REJECT_TRADE),
                                     (False, 700, actions.ACCEPT_TRADE),
                                     (True, 1_500, actions.REJECT_TRADE),
                                     (True, 1_800, actions.ACCEPT_TRADE)):
        game = new_game(3)
        give(game, 1, "Jumla")
        if surkhet:
            give(game, 0, "Surkhet")
        assert answer_to(game, actions.offer_trade(1, [], [JUMLA], money)) == expected
    assert value_items(game, 0, [JUMLA, SURKHET], 0, 0) == 3_600


def test_its_gates_before_the_worth() -> None:
    """Rs 10,000 for Jumla is a gain by its worth, but it refuses it to a buyer with a set while
    it has none (the deal makes it no set); and while it alone has a set it trades nothing,
    until a rival has one too."""
    game = new_game(3)
    give(game, 1, "Jumla")
    give(game, 0, "Birgunj", "Janakpur")
    assert answer_to(game, actions.offer_trade(1, [], [JUMLA], 10_000)) == actions.REJECT_TRADE
    alone = new_game(3)
    give(alone, 1, "Jumla", "Birgunj", "Janakpur")
    assert answer_to(alone, actions.offer_trade(1, [], [JUMLA], 5_000)) == actions.REJECT_TRADE
    give(alone, 2, "Lalitpur", "Kathmandu")
    assert decide(UsamaAIPlayer(), alone) == actions.ACCEPT_TRADE


def test_it_never_takes_a_loss_of_worth_however_the_offerer_fares() -> None:
    """A transport counts by its holder's present transports: the Bus park is worth Rs 1,741 to
    it (none held: 2,000 x 2 ** -0.2) and Rs 3,031 to seat 0, which holds all four. The Bus
    park for its Ilam (Rs 2,200) loses it Rs 459, refused though seat 0 loses more; with Rs 500
    on top it gains Rs 41, taken."""
    for money, expected in ((0, actions.REJECT_TRADE), (500, actions.ACCEPT_TRADE)):
        game = new_game(3)
        give(game, 0, "Bus park", "Airport", "Railway", "Cable car")
        give(game, 1, "Ilam")
        offer = actions.offer_trade(1, [BUS_PARK], [ILAM], money)
        assert answer_to(game, offer) == expected
    assert value_items(game, 1, [BUS_PARK], 0, 0) == 1_741
    assert value_items(game, 0, [BUS_PARK], 0, 0) == 3_031


# ------------------------------------------------------------------------------ proposals
def test_it_offers_a_swap_with_money_then_rising_money_and_never_repeats_a_refusal() -> None:
    """It holds Gorkha, Mustang and Dharan; seat 1 Pokhara, Ilam and Biratnagar. Pokhara would
    complete its Gandaki, Dharan seat 1's Koshi, and Pokhara is Rs 600 dearer: it offers the
    swap with $60 ** 1.15 and ** 1.2 (Rs 1,110 and 1,360: Rs 1,000 and 1,200 on the
    environment's amounts), then money at 1x, 1.5x and 2x the price (Rs 2,800, 4,200, 5,600:
    Rs 2,500, 4,000, 5,000) while its usable money (Rs 6,516) covers it. Three offers a turn;
    the rest next turn; then nothing, until a place changes hands and the list starts over."""
    game = new_game(2)
    give(game, 0, "Gorkha", "Mustang", "Dharan")
    give(game, 1, "Pokhara", "Ilam", "Biratnagar")
    assert usable_money(game, 0) == 6_516
    assert (swap_money(600, 1.15), swap_money(600, 1.2)) == (1_110, 1_360)
    swap = [actions.offer_trade(1, [DHARAN], [POKHARA], m) for m in (1_000, 1_200)]
    money = [actions.offer_trade(1, [], [POKHARA], m) for m in (2_500, 4_000, 5_000)]
    player = UsamaAIPlayer()

    def next_turn() -> None:
        game.turn_count += 1
        game.offers_made = 0

    def refused(offers) -> None:
        for offer in offers:
            assert decide(player, game) == offer
            game.apply(offer)
            game.apply(actions.REJECT_TRADE)

    refused(swap + money[:1])
    assert decide(player, game) == actions.ROLL  # three offers this turn
    next_turn()
    refused(money[1:])
    assert decide(player, game) == actions.ROLL
    next_turn()
    assert decide(player, game) == actions.ROLL  # every offer refused: none again
    give(game, 1, "Jumla")  # a place changes hands
    next_turn()
    refused(swap[:1])


def test_it_asks_money_for_the_dearer_place_it_gives() -> None:
    """It holds Gorkha, Mustang and Kathmandu; seat 1 Pokhara and Lalitpur. Its Kathmandu is Rs
    1,200 dearer than Pokhara: it asks money for the swap, $120 ** 1.3, ** 1.25, ** 1.2 (Rs
    5,050, 3,970, 3,130: Rs 5,000, 3,500, 3,000 on the environment's amounts), and goes down to
    ** 1.15 (Rs 2,460: Rs 2,000) once seat 1 has a set and it has none; each only while its
    own usable money covers the sum it asks (with Rs 13,000, Rs 4,662: the first is left out,
    and so is money at 2x the price)."""
    ask = [actions.offer_trade(1, [KATHMANDU], [POKHARA], -m) for m in (5_000, 3_500, 3_000)]
    pay = [actions.offer_trade(1, [], [POKHARA], m) for m in (2_500, 4_000, 5_000)]
    for cash, usable, expected in ((15_000, 6_662, ask + pay),
                                   (13_000, 4_662, ask[1:] + pay[:2])):
        game = new_game(2)
        give(game, 0, "Gorkha", "Mustang", "Kathmandu")
        give(game, 1, "Pokhara", "Lalitpur")
        game.cash[0] = cash
        assert usable_money(game, 0) == usable
        assert [swap_money(1_200, f) for f in (1.3, 1.25, 1.2)] == [5_050, 3_970, 3_130]
        assert offers_for(game, 0, POKHARA) == expected
        assert decide(UsamaAIPlayer(), game) == expected[0]
    give(game, 1, "Jumla", "Surkhet")
    lower = actions.offer_trade(1, [KATHMANDU], [POKHARA], -2_000)
    assert offers_for(game, 0, POKHARA)[2] == lower


def test_money_alone_goes_to_3_5x_the_price_unless_it_has_a_set() -> None:
    """For Dadeldhura (Rs 1,200), with cash to spare: 1x to 3.5x the price while nobody has a
    set or a rival has one and it has none (Rs 1,200, 1,800, 2,400, 3,000, 3,600, 4,200: Rs
    1,200, 1,800, 2,000, 3,000, 3,500, 4,000); to 3x once it has a set."""
    money = [actions.offer_trade(1, [], [sq("Dadeldhura")], m)
             for m in (1_200, 1_800, 2_000, 3_000, 3_500, 4_000)]
    for holder, expected in ((None, money), (2, money), (0, money[:5])):
        game = new_game(3)
        game.cash[0] = 40_000
        give(game, 0, "Mahendranagar", "Dhangadhi")
        give(game, 1, "Dadeldhura")
        if holder is not None:
            give(game, holder, "Jumla", "Surkhet")
        assert offers_for(game, 0, sq("Dadeldhura")) == expected


def test_with_a_set_it_trades_only_once_its_sets_average_more_than_three_houses() -> None:
    """It holds Karnali and two of Gandaki; seat 1 Pokhara and Capital. With three houses on
    each Karnali place it builds instead of asking for Pokhara; with four it asks (money, Rs
    2,800: Rs 2,500). With four but seat 1 holding no set it builds: it trades with a set of its
    own only when every player still in has one."""
    for houses, capital, expected in ((3, True, actions.build(JUMLA)),
                                      (4, True, actions.offer_trade(1, [], [POKHARA], 2_500)),
                                      (4, False, actions.build(JUMLA))):
        game = new_game(2)
        give(game, 0, "Jumla", "Surkhet", buildings=houses)
        give(game, 0, "Gorkha", "Mustang")
        give(game, 1, "Pokhara")
        if capital:
            give(game, 1, "Lalitpur", "Kathmandu")
        assert decide(UsamaAIPlayer(), game) == expected


def test_what_it_trades_for_is_read_once_when_its_turn_routine_starts() -> None:
    """It holds Jumla and Birgunj; seat 1 Surkhet, seat 2 Janakpur; nobody has a set. Its
    money for Surkhet (Rs 600: Rs 500) is taken: now it has a set, unbuilt, and would not
    start trading; but the source's turn-end routine goes on to the next piece, Janakpur (Rs
    2,000). Next turn it builds instead."""
    game = new_game(3)
    give(game, 0, "Jumla", "Birgunj")
    give(game, 1, "Surkhet")
    give(game, 2, "Janakpur")
    player = UsamaAIPlayer()
    offer = decide(player, game)
    assert offer == actions.offer_trade(1, [], [SURKHET], 500)
    game.apply(offer)
    game.apply(actions.ACCEPT_TRADE)
    assert game.owner[SURKHET] == 0
    assert decide(player, game) == actions.offer_trade(2, [], [JANAKPUR], 2_000)
    game.turn_count += 1
    game.offers_made = 0
    assert decide(player, game) == actions.build(JUMLA)


# ------------------------------------------------------------------------------ building
def test_it_builds_its_sets_in_board_order_with_its_usable_money() -> None:
    """It holds Karnali and Madhesh whole; one rival can reach Karnali, another Madhesh (more
    often). Both are taken, and built in board order: its usable money (Rs 4,680) buys nine
    Karnali houses, evenly, and nothing is left for Madhesh. With no rival able to reach
    Karnali, the plan stops there and builds Madhesh: four houses."""
    game = new_game(3)
    give(game, 0, "Jumla", "Surkhet", "Birgunj", "Janakpur")
    game.position[:] = [9, 0, 10]
    assert usable_money(game, 0) == 4_680
    assert play_out_turn(UsamaAIPlayer(), game) == [actions.build(s) for s in
                                                    [JUMLA, SURKHET] * 4 + [JUMLA]]
    assert game.cash[0] == 15_000 - 9 * 500
    other = new_game(3)
    give(other, 0, "Jumla", "Surkhet", "Birgunj", "Janakpur")
    other.position[:] = [9, 10, 10]
    assert play_out_turn(UsamaAIPlayer(), other) == [actions.build(s) for s in
                                                     [BIRGUNJ, JANAKPUR] * 2]


def test_evening_up_piles_on_the_first_low_place_and_builds_one() -> None:
    """Sudurpashchim with houses 1, 0, 0: the source plans its evening-up houses all on the
    first place that was low before the plan (Dhangadhi); only the first is legal, the rest
    would build unevenly and are skipped."""
    game = new_game(2)
    give(game, 0, "Mahendranagar", "Dhangadhi", "Dadeldhura")
    game.buildings[sq("Mahendranagar")] = 1
    game.position[1] = 0
    player = UsamaAIPlayer()
    assert usable_money(game, 0) == 4_320
    assert building_plan(game, 0) == [DHANGADHI] * 8  # eight houses of Rs 500
    assert play_out_turn(player, game) == [actions.build(DHANGADHI)]


def test_it_pays_off_a_mortgage_where_rivals_may_land() -> None:
    """Jumla and Kathmandu mortgaged; the rival stands on Kathmandu and can reach Jumla, not
    Kathmandu. It pays Jumla off (Rs 330) once its usable money with doubled charges is more
    than that: not with Rs 21,130 (exactly Rs 330), with Rs 21,140; Kathmandu never."""
    for cash, expected in ((21_130, []), (21_140, [actions.unmortgage(JUMLA)]),
                           (40_000, [actions.unmortgage(JUMLA)])):
        game = new_game(2)
        give(game, 0, "Jumla", "Kathmandu", mortgaged=True)
        game.position[1] = KATHMANDU
        game.cash[0] = cash
        assert play_out_turn(UsamaAIPlayer(), game) == expected


# ------------------------------------------------------------------------------ jail
def jailed(cash: int) -> Game:
    game = new_game(3)
    game.in_jail[0], game.position[0] = True, board.JAIL_SQUARE
    game.cash[0] = cash
    return game


def test_it_leaves_jail_while_its_usable_money_is_rs_500() -> None:
    """Usable money with doubled charges and unowned places not counted: cash less Rs 1,800
    (cards and taxes) must be Rs 500: Rs 2,299 rolls, Rs 2,300 pays; a card before the fine; a
    rival's rent (Kathmandu, Rs 500) counts against it."""
    player = UsamaAIPlayer()
    assert decide(player, jailed(2_299)) == actions.ROLL
    assert decide(player, jailed(2_300)) == actions.PAY_FINE
    card = jailed(2_300)
    card.decks[board.SAMUDAYA].remove(12)
    card.bail_cards[0].append(board.SAMUDAYA)
    assert decide(player, card) == actions.USE_BAIL_CARD
    rent = jailed(2_300)
    give(rent, 2, "Kathmandu")
    assert decide(player, rent) == actions.ROLL
    assert decide(player, jailed(2_500)) == actions.PAY_FINE


# ------------------------------------------------------------------------------ raising cash
def test_it_raises_cash_in_its_sources_order() -> None:
    """Owing Rs 7,500 (Birgunj with four houses) with Rs 100: it mortgages the loose Ilam, the
    utility, the transport, then the bare Capital set, then sells Karnali's houses (the last of
    the highest first) and mortgages Jumla; Surkhet is left."""
    game = new_game(2)
    give(game, 0, "Jumla", "Surkhet", buildings=1)
    give(game, 0, "Ilam", "Hydropower", "Bus park", "Lalitpur", "Kathmandu")
    give(game, 1, "Birgunj", "Janakpur", buildings=4)
    game.cash[0] = 100
    game.position[0] = BIRGUNJ - 7
    roll(game, 3, 4)
    taken = raise_cash_moves(UsamaAIPlayer(), game)
    mortgage, sell = actions.mortgage, actions.sell_building
    assert taken == [mortgage(ILAM), mortgage(HYDROPOWER), mortgage(BUS_PARK),
                     mortgage(LALITPUR), mortgage(KATHMANDU), sell(SURKHET), sell(JUMLA),
                     mortgage(JUMLA)]
    assert game.owner[SURKHET] == 0 and not game.mortgaged[SURKHET] and not game.bankrupt[0]


# ------------------------------------------------------------------------------ whole games
def test_six_of_it_play_to_the_end_through_the_environment() -> None:
    log = check_copies_replay(UsamaAIPlayer)
    assert any("offers seat" in line for line in log)  # it proposes in a real game
    assert any(" builds " in line for line in log)


@pytest.mark.parametrize("level", ["hard", "medium"])
@pytest.mark.parametrize("seats", [4, 6])
def test_it_beside_a_level_plays_the_same_game_from_the_same_seed(level: str,
                                                                   seats: int) -> None:
    """The arena's engine table and the environment give the same game."""
    check_arena_game_is_environment_game(NAME, level, seats)
