"""The hard MonopolyBot of Bradderz65/MonopolyMain, ported (byapar_agents.outside.bradderz).

Each phase's choice in an exact position (its buying score and reserve, its auction limits, its
answers with their multipliers and its memory of refusals, its proposals and their escalation,
its building plan, jail and raising cash), and whole games of six, beside hard and medium,
through the environment and the arena, the same game from the same seed.
"""

from __future__ import annotations

import pytest
from outside_games import check_arena_game_is_environment_game, check_copies_replay
from scenario import give, landed_on, new_game, raise_cash_moves, roll, sq

from byapar_agents.base import bid_id
from byapar_agents.outside import BradderzHardPlayer
from byapar_agents.outside.bradderz import game_phase, place_value
from byapar_env.action_table import bid_amount
from byapar_env.engine import ActionKind, Game, Phase, actions, board

NAME = "outside-bradderz-hard"
JUMLA, SURKHET = sq("Jumla"), sq("Surkhet")
DHANGADHI, DADELDHURA = sq("Dhangadhi"), sq("Dadeldhura")
BIRGUNJ, JANAKPUR, ILAM = sq("Birgunj"), sq("Janakpur"), sq("Ilam")
GORKHA, POKHARA = sq("Gorkha"), sq("Pokhara")
KATHMANDU, HYDROPOWER = sq("Kathmandu"), sq("Hydropower")
# Places handed to a bystander to set the game's phase: 8 of 26 owned is mid (30% or more),
# 19 is late (70% or more). None is in Gandaki or Capital, whose places the buying tests offer.
MID = ("Bus park", "Airport", "Railway", "Cable car", "Hydropower", "Drinking water", "Jumla",
       "Surkhet")
LATE = MID + ("Mahendranagar", "Dhangadhi", "Dadeldhura", "Nepalgunj", "Butwal", "Lumbini",
              "Birgunj", "Janakpur", "Ilam", "Dharan", "Biratnagar")


def decide(player, game: Game):
    return player.choose(game, game.current_player, game.legal_actions())


def open_auction(name: str = "Pokhara", players: int = 2, seed: int = 0) -> Game:
    """Seat 0 lands on ``name`` and declines: seat 1 bids first."""
    game = landed_on(name, 15_000, players, seed)
    game.apply(actions.decline(sq(name)))
    assert game.phase == Phase.AUCTION and game.current_player == 1
    return game


# ------------------------------------------------------------------------------ buying
def test_it_buys_by_its_score_and_the_phase() -> None:
    """Kathmandu with Rs 6,000: a score of 0.1 for the price, +0.08 for its colour, +0.2 early:
    0.38 early is a buy, 0.18 mid and 0.08 late are under the 0.25 line; late, with Lalitpur
    held, the +0.7 for completing a group buys it."""
    player = BradderzHardPlayer()
    for filler, expected in (((), actions.buy), (MID, actions.decline), (LATE, actions.decline)):
        game = landed_on("Kathmandu", 6_000)
        give(game, 2, *filler)
        assert decide(player, game) == expected(KATHMANDU)
    assert game_phase(game) == "late"
    give(game, 0, "Lalitpur")
    assert decide(player, game) == actions.buy(KATHMANDU)


def test_it_keeps_the_phases_reserve_unless_the_place_completes_a_group() -> None:
    """Mid game, Gorkha (Rs 2,600): with Rs 3,500 it would keep less than the Rs 1,000 reserve
    and declines, unless it holds the rest of Gandaki; with Rs 4,000 the score is 0.265 (buys),
    with Rs 3,700 it is 0.249 (declines)."""
    player = BradderzHardPlayer()
    for cash, expected in ((3_500, actions.decline), (3_700, actions.decline),
                           (4_000, actions.buy)):
        game = landed_on("Gorkha", cash)
        give(game, 2, *MID)
        assert game_phase(game) == "mid"
        assert decide(player, game) == expected(GORKHA)
    game = landed_on("Gorkha", 3_500)
    give(game, 2, *MID)
    give(game, 0, "Mustang", "Pokhara")
    assert decide(player, game) == actions.buy(GORKHA)


def test_transports_utilities_and_blocking_weigh_in_its_score() -> None:
    """Late, with Rs 3,500: the Airport (+0.25 for a transport) is bought where Janakpur, of the
    same price, is not (+0.2 for the best-ranked colour); Hydropower with Rs 3,000 scores 0.2
    and is declined, 0.3 with the other utility held. Mid game, Kathmandu with Rs 6,000 is
    bought once a rival holds Lalitpur (+0.5 for the piece a rival lacks)."""
    late = tuple(board.SQUARES[s].name for g in board.GROUPS.values() for s in g
                 if s not in (BIRGUNJ, JANAKPUR)) + ("Bus park",)
    player = BradderzHardPlayer()
    for name, cash, expected in (("Airport", 3_500, actions.buy),
                                 ("Janakpur", 3_500, actions.decline),
                                 ("Hydropower", 3_000, actions.decline)):
        game = landed_on(name, cash)
        give(game, 2, *late)
        assert game_phase(game) == "late"
        assert decide(player, game) == expected(sq(name))
    give(game, 0, "Drinking water")
    assert decide(player, game) == actions.buy(HYDROPOWER)
    game = landed_on("Kathmandu", 6_000)
    give(game, 2, *MID)
    assert decide(player, game) == actions.decline(KATHMANDU)
    give(game, 1, "Lalitpur")
    assert decide(player, game) == actions.buy(KATHMANDU)


# ------------------------------------------------------------------------------ auctions
def test_its_auction_limit_rises_to_complete_or_block_a_group() -> None:
    """Up to 0.85x the price (Rs 2,380 for Pokhara), 1.8x for the piece completing its own
    group (Rs 5,040), 1.3x for the piece completing a rival's (Rs 3,640); never past its cash
    less Rs 1,000. It bids while the least bid stays within the limit."""
    player = BradderzHardPlayer()
    for holder, limit in ((None, 2_380), (1, 5_040), (0, 3_640)):
        game = open_auction()
        if holder is not None:
            give(game, holder, "Gorkha", "Mustang")
        assert player.auction_limit(game, 1, POKHARA) == limit
        step = limit // 100 * 100
        game.auction.high, game.auction.holder = step - 100, 0
        assert decide(player, game) == actions.bid(POKHARA, step)
        game.auction.high = step
        assert decide(player, game) == actions.DROP_OUT
    poor = open_auction()
    poor.cash[1] = 2_500
    assert player.auction_limit(poor, 1, POKHARA) == 1_500


def test_a_third_transport_is_worth_more_at_auction() -> None:
    game = open_auction("Airport")
    assert BradderzHardPlayer.auction_limit(game, 1, sq("Airport")) == 1_700  # 0.85 x 2,000
    give(game, 1, "Bus park", "Railway")
    assert BradderzHardPlayer.auction_limit(game, 1, sq("Airport")) == 2_400  # 1.2 x 2,000


def test_its_raise_is_the_sources_random_raise_rounded_up_to_the_step() -> None:
    """The source bids $6-20 over the highest bid: Rs 100 or 200 over here, from a draw fixed
    by the game. Its opening bid ($15-29) is Rs 200, the environment's largest raise under
    300; every bid is one the environment can make."""
    game = open_auction()
    assert decide(BradderzHardPlayer(), game) == actions.bid(POKHARA, 200)
    amounts = set()
    for seed in range(20):
        game = open_auction(seed=seed)
        game.auction.high, game.auction.holder = 1_000, 0
        bid = decide(BradderzHardPlayer(), game)
        assert bid == decide(BradderzHardPlayer(), game)  # the same position, the same draw
        amounts.add(bid.amount)
        assert bid_amount(game, bid_id(game, bid.amount)) == bid.amount
    assert amounts == {1_100, 1_200}


def test_it_drops_out_of_the_auction_of_a_place_it_declined() -> None:
    """The source's player who declines has passed: asked after seat 1's bid of Rs 100, seat 0
    drops out though Rs 200 is far under its limit."""
    game = open_auction()
    game.apply(actions.bid(POKHARA, 100))
    assert game.current_player == 0
    assert decide(BradderzHardPlayer(), game) == actions.DROP_OUT


# ------------------------------------------------------------------------------ answers
def answer_to(game: Game, offer, player=None):
    game.apply(offer)
    assert game.phase == Phase.TRADE_ANSWER and game.current_player == 1
    return decide(player or BradderzHardPlayer(), game)


def test_money_for_its_place_needs_its_multiplier() -> None:
    """Money alone for Dadeldhura (Rs 1,200) needs 1.5x the price; 4x when seat 0 holds the
    rest of Sudurpashchim (the giveaway multiplier 3 plus the blocking premium 2.5 - 1.5):
    Rs 2,000 is enough for a loose place, Rs 4,000 is not enough for the completing piece,
    Rs 5,000 is."""
    for others, money, expected in (((), 1_500, actions.REJECT_TRADE),
                                    ((), 2_000, actions.ACCEPT_TRADE),
                                    (("Mahendranagar", "Dhangadhi"), 4_000, actions.REJECT_TRADE),
                                    (("Mahendranagar", "Dhangadhi"), 5_000, actions.ACCEPT_TRADE)):
        game = new_game(3)
        give(game, 1, "Dadeldhura")
        give(game, 0, *others)
        assert answer_to(game, actions.offer_trade(1, [], [DADELDHURA], money)) == expected


def test_a_place_blocking_a_rival_needs_two_and_a_half_times_its_price() -> None:
    """It holds two of Sudurpashchim and seat 0 the third: Dhangadhi blocks seat 0, so money
    for it needs 2.5x the price (Rs 2,500, not Rs 2,000)."""
    for money, expected in ((2_000, actions.REJECT_TRADE), (2_500, actions.ACCEPT_TRADE)):
        game = new_game(3)
        give(game, 1, "Mahendranagar", "Dhangadhi")
        give(game, 0, "Dadeldhura")
        assert answer_to(game, actions.offer_trade(1, [], [DHANGADHI], money)) == expected


def test_it_refuses_the_swap_that_completes_both_groups_without_money() -> None:
    """Ilam would complete its Koshi, but Pokhara completes seat 0's Gandaki: its value given
    (x1.5 as a blocker, plus 1.5x the price for giving a group away) outweighs Ilam's (x1.8 as
    its completing piece, plus half the price); it wants 1.2x: Rs 6,000 on top does it, Rs
    5,000 does not."""
    for money, expected in ((0, actions.REJECT_TRADE), (5_000, actions.REJECT_TRADE),
                            (6_000, actions.ACCEPT_TRADE)):
        game = new_game(3)
        give(game, 1, "Pokhara", "Dharan", "Biratnagar")
        give(game, 0, "Gorkha", "Mustang", "Ilam")
        assert answer_to(game, actions.offer_trade(1, [ILAM], [POKHARA], money)) == expected
    assert place_value(game, 1, ILAM, "receiving") == 4_672  # 2,200 x 1.18 x 1.8
    assert place_value(game, 1, POKHARA, "giving") == 4_872  # 2,800 x 1.16 x 1.5


def test_it_refuses_unread_an_offer_it_refused_twice() -> None:
    """After two refusals of the same places from the same seat, even money it would take is
    refused for six turns a refusal (the source's minute), then read again."""
    game = new_game(3)
    give(game, 1, "Jumla")
    player = BradderzHardPlayer()
    for _ in range(2):
        assert answer_to(game, actions.offer_trade(1, [], [JUMLA], 700), player) == \
            actions.REJECT_TRADE
        game.apply(actions.REJECT_TRADE)
    generous = actions.offer_trade(1, [], [JUMLA], 1_500)
    game.offers_made = 0
    assert answer_to(game, generous, player) == actions.REJECT_TRADE
    assert decide(BradderzHardPlayer(), game) == actions.ACCEPT_TRADE  # a fresh one reads it
    game.turn_count += 12
    assert decide(player, game) == actions.ACCEPT_TRADE


# ------------------------------------------------------------------------------ proposals
def test_it_asks_for_the_last_piece_with_money_and_raises_each_time() -> None:
    """It holds Jumla, seat 1 Surkhet (worth Rs 1,144 to it: 600 x 1.06 x 1.8). It offers
    1.2x, 1.35x, 1.5x, 1.65x, 1.8x of that on the environment's amounts, waiting 12, 24, 30 and
    30 turns between asks, and gives up after five; one ask a turn."""
    game = new_game(2)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet")
    player = BradderzHardPlayer()
    turn = game.turn_count
    for wait, money in ((0, 1_200), (12, 1_500), (24, 1_500), (30, 1_800), (30, 2_000)):
        if wait:
            game.turn_count = turn + wait - 1
            game.offers_made = 0
            assert decide(player, game) == actions.ROLL  # not yet
        turn = game.turn_count = turn + wait
        game.offers_made = 0
        assert decide(player, game) == actions.offer_trade(1, [], [SURKHET], money)
        game.apply(actions.offer_trade(1, [], [SURKHET], money))
        game.apply(actions.REJECT_TRADE)
        assert decide(player, game) == actions.ROLL  # one proposal a turn
    game.turn_count += 100
    game.offers_made = 0
    assert decide(player, game) == actions.ROLL


def test_short_of_cash_it_offers_a_place_the_holder_needs() -> None:
    """It holds two of Gandaki and Ilam; seat 1 Pokhara and the rest of Koshi. Pokhara is worth
    Rs 7,015 to ask for (x1.2); with Rs 5,000 it cannot spare that in money, so it offers Ilam
    (Rs 3,894 to it) and the difference, Rs 3,121, on the environment's amounts Rs 3,000. With
    Rs 4,000 it cannot make up the difference and offers nothing."""
    game = new_game(2)
    give(game, 0, "Gorkha", "Mustang", "Ilam")
    give(game, 1, "Pokhara", "Dharan", "Biratnagar")
    game.cash[0] = 5_000
    offer = decide(BradderzHardPlayer(), game)
    assert offer == actions.offer_trade(1, [ILAM], [POKHARA], 3_000)
    assert game.trade_error(offer) is None
    game.cash[0] = 15_000
    assert decide(BradderzHardPlayer(), game) == actions.offer_trade(1, [], [POKHARA], 6_000)
    game.cash[0] = 4_000
    assert decide(BradderzHardPlayer(), game) == actions.ROLL


# ------------------------------------------------------------------------------ building
def test_it_builds_its_best_ranked_group_first_within_its_budget() -> None:
    """With Rs 10,000 and Madhesh (rank 10) and Karnali (rank 3) whole, it spends at most 60% of
    its cash: six houses evenly on Madhesh, none on Karnali. With a Madhesh place mortgaged it
    builds Karnali, to ten houses (the turn's most)."""
    game = new_game(2)
    give(game, 0, "Birgunj", "Janakpur", "Jumla", "Surkhet")
    game.cash[0] = 10_000
    player = BradderzHardPlayer()
    built = []
    while (action := decide(player, game)) != actions.ROLL:
        assert action.kind == ActionKind.BUILD
        built.append(action.square)
        game.apply(action)
    assert built == [BIRGUNJ, JANAKPUR] * 3 and game.cash[0] == 4_000
    other = new_game(2)
    give(other, 0, "Birgunj", "Jumla", "Surkhet")
    give(other, 0, "Janakpur", mortgaged=True)
    other.cash[0] = 10_000
    assert BradderzHardPlayer.building_plan(other, 0) == [JUMLA, SURKHET] * 5


# ------------------------------------------------------------------------------ jail
def jailed(cash: int, misses: int = 0) -> Game:
    game = new_game(3)
    game.in_jail[0], game.position[0], game.jail_misses[0] = True, board.JAIL_SQUARE, misses
    game.cash[0] = cash
    return game


def test_it_pays_to_leave_jail_with_money_and_stays_late() -> None:
    """A bail card first; late in the game it rolls on its first two tries; else it pays with
    more than Rs 2,000 on its first two tries, and rolls otherwise."""
    player = BradderzHardPlayer()
    assert decide(player, jailed(15_000)) == actions.PAY_FINE
    assert decide(player, jailed(2_000)) == actions.ROLL
    assert decide(player, jailed(2_100)) == actions.PAY_FINE
    assert decide(player, jailed(15_000, misses=2)) == actions.ROLL
    late = jailed(15_000)
    give(late, 2, *LATE)
    assert decide(player, late) == actions.ROLL
    card = jailed(15_000)
    card.decks[board.SAMUDAYA].remove(12)
    card.bail_cards[0].append(board.SAMUDAYA)
    assert decide(player, card) == actions.USE_BAIL_CARD


# ------------------------------------------------------------------------------ raising cash
def test_it_sells_from_its_worst_group_then_mortgages_the_cheapest_place() -> None:
    """Owing Rs 3,600 with Rs 100: houses from Karnali (rank 3) before Madhesh (rank 10), then
    mortgages by price, Jumla and Surkhet (a whole group) before the loose Hydropower and
    Kathmandu."""
    game = new_game(2)
    give(game, 0, "Jumla", "Surkhet", buildings=1)
    give(game, 0, "Birgunj", "Janakpur", buildings=2)
    give(game, 0, "Hydropower", "Kathmandu")
    give(game, 1, "Gorkha", "Mustang", "Pokhara", buildings=2)
    game.cash[0] = 100
    game.position[0] = POKHARA - 7
    roll(game, 3, 4)
    taken = raise_cash_moves(BradderzHardPlayer(), game)
    sell, mortgage = actions.sell_building, actions.mortgage
    assert taken == [sell(JUMLA), sell(SURKHET), sell(BIRGUNJ), sell(JANAKPUR), sell(BIRGUNJ),
                     sell(JANAKPUR), mortgage(JUMLA), mortgage(SURKHET), mortgage(HYDROPOWER)]
    assert game.owner[KATHMANDU] == 0 and not game.mortgaged[KATHMANDU]


# ------------------------------------------------------------------------------ whole games
def test_six_of_it_play_to_the_end_through_the_environment() -> None:
    log = check_copies_replay(BradderzHardPlayer)
    assert any("offers seat" in line for line in log)  # it proposes in a real game


@pytest.mark.parametrize("level", ["hard", "medium"])
@pytest.mark.parametrize("seats", [4, 6])
def test_it_beside_a_level_plays_the_same_game_from_the_same_seed(level: str,
                                                                   seats: int) -> None:
    """The arena's engine table and the environment give the same game."""
    check_arena_game_is_environment_game(NAME, level, seats)
