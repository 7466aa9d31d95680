"""The scenario tests that pin Businessman's rules (the specification's section 14, tests 1-25):
exact positions with forced dice and cards, exact cash, owners, shares and buildings after."""

from __future__ import annotations

from test_businessman_helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    assert_illegal,
    give,
    land,
    new,
    put,
    roll,
    set_hand,
    skip_session,
    slot,
    turn_of,
)

from byapar_env.businessman import Phase, actions, board
from byapar_env.businessman.game import redeem_cost

SU, NO = board.SURPRISE_DECK, board.NOTICE_DECK
START = 250_000


# 1 ------------------------------------------------------------------------------ Start, Penalty
def test_01_start_then_penalty() -> None:
    g = new()
    put(g, 0, 35)
    roll(g, 4, 5)
    assert g.position[0] == 4
    assert g.cash[0] == START + 20_000 - 30_000 == 240_000
    assert g.laps[0] == 1
    assert g.current_player == 1  # the turn has passed


def test_01_landing_on_start_pays_once() -> None:
    g = new()
    put(g, 0, 36)
    roll(g, 1, 3)
    assert g.position[0] == 0 and g.cash[0] == 270_000 and g.laps[0] == 1


# 2 ---------------------------------------------------------------------------- Win, Gift, Profit
def test_02_win_gift_profit() -> None:
    g = new()
    put(g, 0, 26)
    roll(g, 1, 1)
    assert g.position[0] == 28 and g.cash[0] == 290_000
    roll(g, 2, 3, seat=0)
    assert g.position[0] == 33 and g.phase == Phase.PICK_COLOUR and g.picks_left == 3
    for colour in (RED, RED, YELLOW):
        g.apply(actions.pick_colour(colour))
    assert g.shares[0] == [3, 1, 1, 2]
    assert g.supply == [56, 58, 58, 57]
    assert g.current_player == 1
    roll(g, 1, 2, seat=0)
    assert g.position[0] == 36 and g.cash[0] == 340_000


def test_02_an_empty_colour_cannot_be_picked() -> None:
    g = new()
    put(g, 0, 31)
    g.supply[RED] = 0
    roll(g, 1, 1)
    assert g.phase == Phase.PICK_COLOUR
    assert_illegal(g, actions.pick_colour(RED))
    assert actions.pick_colour(BLUE) in g.legal_actions()


# 3 ----------------------------------------------------------------- Lot: buy, rent, doubling
def test_03_buy_rent_doubling_decline() -> None:
    g = new()
    roll(g, 2, 4)
    assert g.phase == Phase.BUY and g.pending_cell == 6
    g.apply(actions.buy(6))
    assert g.cash[0] == 220_000 and g.owner[6] == 0
    roll(g, 2, 4)  # B from 0
    assert g.cash[1] == 247_000 and g.cash[0] == 223_000
    give(g, 0, 8)
    give(g, 0, 9, mortgaged=True)
    put(g, 1, 4)
    roll(g, 1, 3, seat=1)
    assert g.position[1] == 8
    assert g.cash[1] == 247_000 - 6_000 and g.cash[0] == 223_000 + 6_000
    put(g, 1, 5)
    roll(g, 2, 2, seat=1)
    assert g.position[1] == 9
    assert g.cash[1] == 241_000 and g.cash[0] == 229_000  # pledged: no rent
    put(g, 1, 9)
    roll(g, 1, 1, seat=1)
    assert g.phase == Phase.BUY and g.pending_cell == 11
    g.apply(actions.decline(11))
    assert g.owner[11] == -1 and g.cash[1] == 241_000
    assert g.phase == Phase.PRE_ROLL and g.current_player == 0  # no auction


def test_03_buy_is_masked_without_the_cash() -> None:
    g = new()
    g.cash[0] = 29_999
    roll(g, 2, 4)
    assert g.legal_actions() == [actions.decline(6)]
    assert_illegal(g, actions.buy(6))


# 4 -------------------------------------------------------------- Build, rent on buildings, sell
def test_04_build_rent_and_sell_back() -> None:
    g = new()
    give(g, 0, 1, 3)
    g.apply(actions.build_branch(1))
    assert g.cash[0] == 235_000
    g.apply(actions.build_enterprise(1))
    assert g.cash[0] == 205_000 and g.level[1] == 2
    assert g.tokens_left() == (25, 11)
    assert_illegal(g, actions.build_enterprise(3))
    assert_illegal(g, actions.mortgage(1))
    land(g, 1, 1)
    assert g.cash[1] == 220_000 and g.cash[0] == 235_000  # rent2, not doubled
    land(g, 1, 3)
    assert g.cash[1] == 215_000 and g.cash[0] == 240_000  # bare, whole group: 2,500 x 2
    turn_of(g, 0)
    g.apply(actions.sell_building(1))
    assert g.level[1] == 1 and g.cash[0] == 255_000 and g.tokens_left() == (25, 12)
    assert g.rent(1) == 10_000


# 5 ---------------------------------------------------------------------------------- Supermarket
def test_05_supermarket() -> None:
    g = new()
    put(g, 1, 10)
    roll(g, 1, 1, seat=1)
    assert g.cash[1] == 230_000 and g.phase == Phase.BUY
    g.apply(actions.buy(12))
    assert g.cash[1] == 180_000 and g.owner[12] == 1
    bank = g.bank_received
    put(g, 0, 10)
    roll(g, 1, 1, seat=0)
    assert g.cash[0] == 230_000 and g.cash[1] == 195_000
    assert g.bank_received == bank + 5_000
    turn_of(g, 1)
    g.apply(actions.mortgage(12))
    assert g.cash[1] == 220_000
    put(g, 0, 10)
    roll(g, 1, 1, seat=0)
    assert g.cash[0] == 210_000 and g.cash[1] == 220_000
    put(g, 1, 10)
    roll(g, 1, 1, seat=1)
    assert g.cash[1] == 220_000


# 6 ---------------------------------------------------------------------- Surprise and the pass
def test_06_surprise_and_the_pass() -> None:
    g = new(3)
    g.stack_deck(SU, "SU6", "SU2")
    put(g, 0, 4)
    roll(g, 1, 2)
    assert g.cash == [260_000, 245_000, 245_000]
    assert g.decks[SU][-1] == 6
    put(g, 1, 4)
    roll(g, 1, 2, seat=1)
    assert g.passes[1] == [SU] and len(g.decks[SU]) == 15 and 2 not in g.decks[SU]
    turn_of(g, 1)
    assert actions.USE_PASS in g.legal_actions()
    g.apply(actions.USE_PASS)
    assert g.phase == Phase.EXCHANGE_TRADE and g.decks[SU][-1] == 2
    g.apply(actions.END_SESSION)
    assert g.phase == Phase.PRE_ROLL and g.current_player == 1
    assert_illegal(g, actions.USE_PASS)


# 7 ------------------------------------------------------------------------------ Card movement
def test_07a_back_to_start_walks_and_pays_once() -> None:
    g = new()
    g.stack_deck(SU, "SU3")
    put(g, 0, 19)
    roll(g, 1, 2)
    assert g.position[0] == 0 and g.cash[0] == 270_000 and g.laps[0] == 1


def test_07b_back_three_to_penalty() -> None:
    g = new()
    g.stack_deck(SU, "SU11")
    put(g, 0, 4)
    roll(g, 1, 2)
    assert g.position[0] == 4 and g.cash[0] == 220_000 and g.laps[0] == 0


def test_07c_motorway_card_passes_start_and_forks() -> None:
    g = new()
    g.stack_deck(SU, "SU4")
    put(g, 0, 4)
    roll(g, 1, 2)
    assert g.position[0] == 5 and g.cash[0] == 270_000 and g.laps[0] == 1
    assert g.phase == Phase.FORK and g.fork == board.FORK_MOTORWAY


def test_07d_back_three_abroad_stays_abroad() -> None:
    g = new()
    g.stack_deck(SU, "SU11")
    put(g, 0, 40)
    roll(g, 1, 2)
    assert g.position[0] == 40 and g.track[0] == board.ABROAD and g.cash[0] == START


def test_07e_start_from_abroad_counts_one_lap() -> None:
    g = new()
    g.stack_deck(SU, "SU3")
    put(g, 0, 40)
    roll(g, 1, 2)
    assert g.position[0] == 0 and g.track[0] == board.BIG
    assert g.cash[0] == 270_000 and g.laps[0] == 1


# 8 ---------------------------------------------------------------------------- Notice amounts
def _notice(g, code: str) -> None:
    g.stack_deck(NO, code)
    put(g, 0, 0)
    roll(g, 1, 1)
    assert g.position[0] == 2


def test_08a_income_tax() -> None:
    g = new()
    g.cash[0] = 255_500
    _notice(g, "NO1")
    assert g.cash[0] == 230_500


def test_08b_property_tax() -> None:
    g = new()
    give(g, 0, 1, level=1)
    give(g, 0, 3, level=2)
    _notice(g, "NO2")
    assert g.cash[0] == START - 45_000


def test_08c_utility_bills() -> None:
    g = new()
    give(g, 0, 6, 12)
    give(g, 0, 8, mortgaged=True)
    _notice(g, "NO4")
    assert g.cash[0] == START - 15_000


def test_08d_share_dilution() -> None:
    g = new()
    g.shares[0] = [3, 0, 1, 2]
    supply = list(g.supply)
    _notice(g, "NO10")
    assert g.shares[0] == [2, 0, 0, 1] and g.cash[0] == START
    assert g.supply == [supply[0] + 1, supply[1], supply[2] + 1, supply[3] + 1]


def test_08e_brokerage_fees() -> None:
    g = new()
    g.shares[0] = [3, 1, 1, 2]
    _notice(g, "NO15")
    assert g.cash[0] == START - 14_000


def test_08f_court_ruling_pays_each_in_seat_order() -> None:
    g = new(3)
    _notice(g, "NO7")
    assert g.cash == [240_000, 255_000, 255_000]
    paid = [line for line in g.log if "pays 5,000 cr to seat" in line]
    assert paid == ["seat 0 pays 5,000 cr to seat 1", "seat 0 pays 5,000 cr to seat 2"]


# 9 ---------------------------------------------------------- Exchange session: Bank and Broker
def test_09_session_at_the_bank() -> None:
    g = new()
    set_hand(g, 0, "L-BOOM-3", "S-RISE-1")
    put(g, 0, 23)
    roll(g, 1, 1)
    assert g.position[0] == 25 and g.phase == Phase.EXCHANGE_CARD
    g.apply(actions.SKIP_CARD)
    for _ in range(4):
        g.apply(actions.buy_share(RED))
    assert g.cash[0] == 210_000 and g.shares[0][RED] == 5 and g.supply[RED] == 54
    assert_illegal(g, actions.buy_share(RED))
    g.apply(actions.sell_share(RED))
    assert g.cash[0] == 220_000 and g.shares[0][RED] == 4 and g.supply[RED] == 55
    assert_illegal(g, actions.buy_share(RED))
    g.apply(actions.sell_share(BLUE))
    assert g.cash[0] == 230_000
    assert_illegal(g, actions.sell_share(BLUE))
    g.apply(actions.END_SESSION)
    assert g.current_player == 1


def test_09_broker() -> None:
    g = new()
    put(g, 0, 33)
    roll(g, 1, 1)
    assert g.phase == Phase.FORK and g.fork == board.FORK_BROKER
    g.apply(actions.yes(board.FORK_BROKER))
    assert g.cash[0] == 249_000 and g.phase == Phase.EXCHANGE_TRADE
    g = new()
    g.cash[0] = 500
    put(g, 0, 33)
    roll(g, 1, 1)
    assert g.legal_actions() == [actions.no(board.FORK_BROKER)]
    assert_illegal(g, actions.yes(board.FORK_BROKER))


def test_09_free_sessions_on_10_50_52() -> None:
    for start, cell in ((8, 10), (48, 50), (50, 52)):
        g = new()
        put(g, 0, start)
        roll(g, 1, 1)
        assert g.position[0] == cell and g.phase == Phase.EXCHANGE_TRADE
        assert g.cash[0] == START


# 10 --------------------------------------------------------------------------------------- 3:3
def test_10_three_three_gives_a_session_before_the_move() -> None:
    g = new()
    set_hand(g, 0, "S-FALL-2")
    roll(g, 3, 3)
    assert g.phase == Phase.EXCHANGE_CARD and g.position[0] == 0
    skip_session(g)
    assert g.position[0] == 6 and g.phase == Phase.BUY
    g.apply(actions.decline(6))
    assert g.current_player == 1 and g.turn == 1


# 11-15 ------------------------------------------------------------------------ Exchange cards
def _session(g, seat: int = 0) -> None:
    """``seat`` lands on the Exchange (10) for a session."""
    put(g, seat, 8)
    roll(g, 1, 1, seat=seat)
    assert g.phase == Phase.EXCHANGE_CARD


def test_11_top_overshoot() -> None:
    g = new()
    g.prices = [23, 10, 10, 10]
    g.shares[0] = [3, 1, 1, 1]
    g.shares[1] = [2, 1, 1, 1]
    set_hand(g, 0, "L-BOOM-3", "L-BOOM-4", "L-DOUBLE", "S-RISE-1", "S-RISE-2", "S-FALL-2",
             "S-FALL-3")
    _session(g)
    g.apply(actions.play_card(slot(g, 0, "L-BOOM-3"), RED))
    assert g.prices == [25, 7, 7, 7]
    assert g.cash[0] == 253_000 and g.cash[1] == 266_000
    large = [k for k in g.hands[0] if board.EXCHANGE_KINDS[k].deck == board.LARGE]
    assert len(large) == 2 and len(g.hands[0]) == 6
    assert g.played == [board.exchange_kind("L-BOOM-3")]
    assert g.phase == Phase.EXCHANGE_TRADE


def test_12_bottom_overshoot() -> None:
    g = new(3)
    g.prices = [10, 3, 10, 10]
    g.shares = [[1, 4, 1, 1], [1, 5, 1, 1], [1, 0, 1, 1]]
    set_hand(g, 0, "S-FALL-5")
    _session(g)
    g.apply(actions.play_card(0, BLUE))
    assert g.prices[BLUE] == 1
    assert g.cash == [258_000, 235_000, 250_000]


def test_13_small_rise_with_a_floor() -> None:
    g = new()
    g.prices = [10, 2, 10, 10]
    g.shares = [[2, 1, 0, 1], [1, 3, 1, 1]]
    set_hand(g, 0, "S-RISE-3")
    _session(g)
    g.apply(actions.play_card(0, RED))
    assert g.prices == [13, 1, 7, 7]
    assert g.cash == [248_000, 244_000]


def test_14_card_mask() -> None:
    g = new()
    g.cash[0] = 5_000
    g.shares[0] = [3, 0, 0, 0]
    g.prices = [20, 10, 10, 10]
    set_hand(g, 0, "L-BOOM-3")
    _session(g)
    assert_illegal(g, actions.play_card(0, RED))
    assert_illegal(g, actions.play_card(0, BLUE, down=True))  # only a Deuce halves
    g.apply(actions.play_card(0, BLUE))
    assert g.prices == [17, 20, 7, 7] and g.cash[0] == 14_000


def test_15_crash_bankruptcy_and_the_end() -> None:
    g = new()
    g.prices[GREEN] = 1
    g.shares = [[1, 1, 3, 1], [1, 1, 2, 1]]
    g.cash[1] = 80_000
    set_hand(g, 0, "L-DOUBLE")
    set_hand(g, 1, "S-RISE-1", "L-BOOM-5")
    supply = list(g.supply)
    received = g.bank_received
    _session(g)
    g.apply(actions.play_card(0, GREEN, down=True))
    assert g.prices[GREEN] == 1 and g.cash[0] == START
    assert g.bankrupt[1] and g.cash[1] == 0 and g.hands[1] == []
    assert g.bank_received == received + 80_000
    assert g.supply == [supply[c] + [1, 1, 2, 1][c] for c in range(4)]
    assert g.is_over and g.winners == [0]


def test_15_crash_charges_the_others_in_seat_order() -> None:
    g = new(3)
    g.prices[GREEN] = 1
    set_hand(g, 0, "L-DOUBLE")
    _session(g)
    g.apply(actions.play_card(0, GREEN, down=True))
    assert g.cash == [START, 200_000, 200_000]
    paid = [line for line in g.log if "pays 50,000 cr to the bank" in line]
    assert paid == ["seat 1 pays 50,000 cr to the bank", "seat 2 pays 50,000 cr to the bank"]


# 16 ---------------------------------------------------------------------------------- Motorway
def _on_motorway(g, cell: int = 5) -> None:
    put(g, 0, cell, track=board.MOTORWAY)


def test_16_motorway_trip() -> None:
    g = new()
    roll(g, 2, 3)
    assert g.phase == Phase.FORK and g.fork == board.FORK_MOTORWAY
    g.apply(actions.yes(board.FORK_MOTORWAY))
    assert g.track[0] == board.MOTORWAY and g.position[0] == 5
    roll(g, 1, 2, seat=0)
    assert g.position[0] == 58 and g.phase == Phase.PICK_COLOUR and g.picks_left == 5
    for _ in range(5):
        g.apply(actions.pick_colour(RED))
    assert g.shares[0] == [6, 1, 1, 1] and g.supply[RED] == 53
    skip_session(g)
    assert g.current_player == 1
    roll(g, 3, 4, seat=0)
    assert g.cash[0] == 245_000 and g.position[0] == 35 and g.track[0] == board.BIG
    assert g.current_player == 1  # no Broker offer; the turn ended
    roll(g, 1, 1, seat=0)
    assert g.position[0] == 37 and g.phase == Phase.BUY


def test_16_motorway_variants() -> None:
    for dice, cell, cash in (((4, 4), 63, 125_000), ((2, 3), 60, 220_000),
                             ((6, 6), 35, 245_000)):
        g = new()
        _on_motorway(g)
        roll(g, *dice)
        assert g.position[0] == cell and g.cash[0] == cash
    g = new()
    _on_motorway(g)
    roll(g, 3, 3)
    assert g.phase == Phase.EXCHANGE_TRADE and g.position[0] == 5
    g.apply(actions.END_SESSION)
    assert g.position[0] == 61 and g.cash[0] == 220_000
    g = new()
    put(g, 0, 5)  # said no: still on the big perimeter
    g.stack_deck(SU, "SU1")
    roll(g, 1, 1)
    assert g.position[0] == 7 and g.cash[0] == 275_000


def test_16_every_motorway_move_stops_at_the_intersection_at_most() -> None:
    for k in range(10):
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                g = new()
                _on_motorway(g, 5 if k == 0 else 55 + k)
                g.cash[0] = 10_000_000
                roll(g, d1, d2)
                if (d1, d2) == (3, 3):
                    skip_session(g)
                target = min(k + d1 + d2, 10)
                expect = 35 if target == 10 else 55 + target
                assert g.position[0] == expect, (k, d1, d2)


def _motorway_trip_statistics() -> tuple[float, float, float, float]:
    """Exact chances over a trip from M0, by the rule the engine follows (checked above) and the
    board's cell kinds."""
    probs = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
    visit = [0.0] * 11  # chance that the trip stands on Mk at some point
    visit[0] = 1.0
    moves = 0.0
    for k in range(10):
        moves += visit[k]
        for s, pr in probs.items():
            visit[min(k + s, 10)] += visit[k] * pr
    kind = {k: board.CELLS[55 + k].kind for k in range(1, 11)}
    p3 = sum(visit[k] for k in kind if kind[k] == board.M_SHARES)
    p_acc = sum(visit[k] for k in kind if kind[k] == board.M_ACCIDENT)
    p8 = sum(visit[k] for k in kind if kind[k] == board.M_HALF)
    return moves, p3, p_acc, p8


def test_16_motorway_statistics() -> None:
    moves, p3, p_acc, p8 = _motorway_trip_statistics()
    assert round(moves, 2) == 1.93
    assert round(p3, 4) == 0.0556
    assert round(p_acc, 4) == 0.2608
    assert round(p8, 4) == 0.1663


# 17 ---------------------------------------------------------------------------------- Roulette
def test_17_roulette_to_the_bank() -> None:
    g = new()
    put(g, 0, 13)
    roll(g, 1, 1)
    assert g.fork == board.FORK_ROULETTE
    g.apply(actions.yes(board.FORK_ROULETTE))
    assert g.track[0] == board.ROULETTE and g.position[0] == 66
    roll(g, 5, 6, seat=0)
    assert g.cash[0] == 450_000 and g.position[0] == 15 and g.track[0] == board.BIG
    assert g.current_player == 1  # no fork on the way out


def test_17_roulette_loss_exit_and_wrap() -> None:
    g = new()
    put(g, 0, 66)
    roll(g, 1, 1)
    assert g.position[0] == 68 and g.cash[0] == 230_000 and g.track[0] == board.ROULETTE
    roll(g, 1, 2, seat=0)
    assert g.position[0] == 15 and g.track[0] == board.BIG
    roll(g, 2, 3, seat=0)
    assert g.position[0] == 20 and g.phase == Phase.HOTEL_MENU
    g = new()
    put(g, 0, 74)
    roll(g, 2, 2)
    assert g.position[0] == 66 and g.cash[0] == START


def _roulette_statistics() -> tuple[float, float, float, float, float]:
    """Exact figures for a full visit from R0 and for the Hotel's three spins, from the board."""
    probs = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
    cells = [board.CELLS[66 + k] for k in range(12)]
    stops = {k for k, c in enumerate(cells) if c.kind in (board.R_EXIT, board.R_BANK)}

    def gain(k: int) -> int:
        c = cells[k]
        return c.amount if c.kind == board.R_BANK else -c.amount if c.kind == board.R_LOSS else 0

    # Solve the absorbing chain by iteration: from each non-stop cell, spins, P(bank), net.
    spins = [0.0] * 12
    bank = [0.0] * 12
    net = [0.0] * 12
    for _ in range(2_000):
        for k in range(12):
            if k in stops:
                continue
            s_, b_, n_ = 1.0, 0.0, 0.0
            for s, pr in probs.items():
                j = (k + s) % 12
                n_ += pr * gain(j)
                if j in stops:
                    b_ += pr * (cells[j].kind == board.R_BANK)
                else:
                    s_ += pr * spins[j]
                    b_ += pr * bank[j]
                    n_ += pr * net[j]
            spins[k], bank[k], net[k] = s_, b_, n_
    # The Hotel: at most three spins from R0.
    dist = {0: 1.0}
    hotel_bank = hotel_net = 0.0
    for _ in range(3):
        nxt: dict[int, float] = {}
        for k, pk in dist.items():
            for s, pr in probs.items():
                j = (k + s) % 12
                hotel_net += pk * pr * gain(j)
                if cells[j].kind == board.R_BANK:
                    hotel_bank += pk * pr
                elif j not in stops:
                    nxt[j] = nxt.get(j, 0.0) + pk * pr
        dist = nxt
    return spins[0], bank[0], net[0], hotel_bank, hotel_net


def test_17_roulette_statistics() -> None:
    spins, bank, net, hotel_bank, hotel_net = _roulette_statistics()
    assert round(spins, 2) == 2.66
    assert round(bank, 3) == 0.202
    assert -3_400 < net < -3_200
    assert round(hotel_bank, 3) == 0.141
    assert -3_800 < hotel_net < -3_600


# 18 ------------------------------------------------------------------------------------- Hotel
def _hotel(**options):
    g = new(**options)
    put(g, 0, 18)
    roll(g, 1, 1)
    assert g.phase == Phase.HOTEL_MENU
    return g


def test_18a_purchase_abroad_from_the_hotel() -> None:
    g = _hotel()
    g.force_dice((2, 4))
    g.apply(actions.hotel(board.HOTEL_ABROAD_PURCHASE))
    assert g.phase == Phase.BUY and g.pending_cell == 46
    g.apply(actions.buy(46))
    assert g.cash[0] == 170_000 and g.owner[46] == 0
    assert g.position[0] == 20 and g.track[0] == board.BIG
    g = _hotel()
    give(g, 1, 46)
    g.force_dice((2, 4))
    g.apply(actions.hotel(board.HOTEL_ABROAD_PURCHASE))
    assert g.cash == [START, START] and g.current_player == 1  # no rent


def test_18b_three_spins_from_the_hotel() -> None:
    g = _hotel()
    g.force_dice((1, 1), (2, 2), (2, 3))
    g.apply(actions.hotel(board.HOTEL_ROULETTE_3))
    assert g.cash[0] == 390_000 and g.position[0] == 20 and g.current_player == 1


def test_18c_an_exit_ends_the_spins() -> None:
    g = _hotel()
    g.force_dice((2, 3), (1, 1))
    g.apply(actions.hotel(board.HOTEL_ROULETTE_3))
    assert g.cash[0] == START and g.forced_dice == [(1, 1)]


def test_18d_no_session_on_a_hotel_three_three() -> None:
    g = _hotel()
    g.force_dice((3, 3), (6, 5))
    g.apply(actions.hotel(board.HOTEL_ROULETTE_3))
    assert g.cash[0] == 210_000 and g.current_player == 1


def test_18_purchase_abroad_masked_without_abroad() -> None:
    g = _hotel(abroad_enabled=False)
    assert_illegal(g, actions.hotel(board.HOTEL_ABROAD_PURCHASE))
    assert len(g.legal_actions()) == 3


# 19 ------------------------------------------------------------------------ Customs and abroad
def test_19_customs_and_abroad() -> None:
    g = new()
    g.shares[0] = [3, 1, 2, 0]
    supply = list(g.supply)
    put(g, 0, 28)
    roll(g, 1, 1)
    assert g.position[0] == 30 and g.cash[0] == START
    assert g.phase == Phase.FORK and g.fork == board.FORK_CUSTOMS
    g.apply(actions.yes(board.FORK_CUSTOMS))
    assert g.cash[0] == 260_000 and g.shares[0] == [2, 1, 1, 0]
    assert g.supply == [supply[0] + 1, supply[1], supply[2] + 1, supply[3]]
    assert g.position[0] == 40 and g.track[0] == board.ABROAD
    roll(g, 4, 5, seat=0)
    assert g.position[0] == 49 and g.phase == Phase.BUY
    g.apply(actions.buy(49))
    assert g.cash[0] == 175_000
    roll(g, 3, 4, seat=0)
    assert g.position[0] == 31 and g.track[0] == board.BIG and g.laps[0] == 1
    assert g.cash[0] == 175_000
    g.apply(actions.buy(31))
    assert g.cash[0] == 95_000


def test_19_home_past_start() -> None:
    g = new()
    put(g, 0, 53)
    roll(g, 6, 6)
    assert g.position[0] == 0 and g.cash[0] == 270_000 and g.laps[0] == 2


def test_19_customs_mask() -> None:
    g = new()
    g.cash[0] = 5_000
    put(g, 0, 28)
    roll(g, 1, 1)
    assert_illegal(g, actions.yes(board.FORK_CUSTOMS))
    g.cash[0] = 1_000
    g.shares[0] = [2, 0, 0, 0]
    assert actions.yes(board.FORK_CUSTOMS) in g.legal_actions()
    g.apply(actions.yes(board.FORK_CUSTOMS))
    assert g.cash[0] == 1_000 and g.shares[0] == [1, 0, 0, 0]


# 20 ------------------------------------------------------------- Pledge, redeem, forfeiture
def test_20_pledge_redeem_forfeit() -> None:
    g = new()
    give(g, 0, 6)
    g.laps[0] = 2
    g.apply(actions.mortgage(6))
    assert g.cash[0] == 265_000 and g.pledge_lap[6] == 2
    g.apply(actions.start_trade(1))
    assert_illegal(g, actions.give_lot(6))
    g.apply(actions.CANCEL_TRADE)
    land(g, 1, 6)
    assert g.cash[1] == START
    put(g, 0, 37)
    roll(g, 1, 2, seat=0)  # to Start: lap 3
    assert g.laps[0] == 3 and g.owner[6] == 0 and g.mortgaged[6]
    assert redeem_cost(6) == 16_500
    turn_of(g, 0)
    saved = g.clone()
    cash = g.cash[0]
    g.apply(actions.redeem(6))
    assert g.cash[0] == cash - 16_500 and not g.mortgaged[6]
    g = saved
    put(g, 0, 37)
    roll(g, 1, 2, seat=0)
    assert g.laps[0] == 4 and g.owner[6] == -1 and not g.mortgaged[6]
    assert g.cash[0] == cash + 20_000


# 21 ------------------------------------------------------------------------------ Raising funds
def test_21_raising_funds() -> None:
    g = new()
    g.cash[1] = 20_000
    give(g, 1, 6)
    land(g, 1, 4)
    assert g.phase == Phase.RAISE_CASH and g.current_player == 1
    assert g.legal_actions() == [actions.mortgage(6)]
    g.apply(actions.mortgage(6))
    assert g.cash[1] == 5_000 and g.phase == Phase.PRE_ROLL and g.current_player == 0


def test_21_bankrupt_at_once() -> None:
    g = new()
    g.cash[1] = 5_000
    give(g, 1, 6)
    received = g.bank_received
    land(g, 1, 4)
    assert g.bankrupt[1] and g.owner[6] == -1 and g.bank_received == received + 5_000
    assert g.is_over and g.winners == [0]


# 22 ----------------------------------------------------------------- Bankruptcy to a player
def test_22_bankruptcy_to_a_player() -> None:
    g = new(3)
    give(g, 0, 37, 38)
    give(g, 0, 39, level=2)
    g.cash[1] = 10_000
    g.decks[SU].remove(2)
    g.passes[1] = [SU]
    set_hand(g, 1, "L-BOOM-3", "S-FALL-2")
    supply = list(g.supply)
    received = g.bank_received
    land(g, 1, 39)
    assert g.bankrupt[1]
    assert g.cash[0] == 400_000 and g.bank_received == received + 10_000
    assert g.supply == [s + 1 for s in supply]
    assert g.hands[1] == [] and g.passes[1] == [] and g.decks[SU][-1] == 2
    assert g.current_player == 2 and not g.is_over
    put(g, 2, 26)
    roll(g, 1, 1)  # C to Win
    assert g.current_player == 0


# 23 -------------------------------------------------------------------------------------- Trade
def test_23_trade() -> None:
    g = new()
    give(g, 0, 6)
    give(g, 1, 8)
    g.apply(actions.start_trade(1))
    assert g.phase == Phase.TRADE_COMPOSE
    for action in (actions.give_lot(6), actions.give_cash(10_000), actions.give_cash(10_000),
                   actions.take_lot(8), actions.take_share(RED)):
        g.apply(action)
    g.apply(actions.SUBMIT_TRADE)
    assert g.phase == Phase.TRADE_ANSWER and g.current_player == 1
    g.apply(actions.ACCEPT_TRADE)
    assert g.owner[8] == 0 and g.owner[6] == 1
    assert g.cash == [230_000, 270_000]
    assert g.shares == [[2, 1, 1, 1], [0, 1, 1, 1]]
    assert g.phase == Phase.PRE_ROLL and g.current_player == 0
    for _ in range(2):
        g.apply(actions.start_trade(1))
        g.apply(actions.CANCEL_TRADE)
    assert_illegal(g, actions.start_trade(1))


def test_23_pledged_and_built_lots_cannot_be_toggled() -> None:
    g = new()
    give(g, 0, 1, 3)
    give(g, 0, 1, level=1)
    give(g, 1, 8, mortgaged=True)
    g.apply(actions.start_trade(1))
    assert_illegal(g, actions.give_lot(1))
    assert_illegal(g, actions.take_lot(8))
    assert actions.give_lot(3) in g.legal_actions()


# 24 ------------------------------------------------------------------- Round limit and winner
def test_24_round_limit_and_shared_win() -> None:
    g = new(3)
    g.round = 20
    turn_of(g, 1)
    put(g, 1, 18)
    roll(g, 1, 1)  # B to the Hotel
    g.apply(actions.hotel(board.HOTEL_NOTHING))
    assert not g.is_over and g.current_player == 2
    give(g, 0, 1, level=1)
    give(g, 0, 3)
    give(g, 0, 8, mortgaged=True)
    g.shares = [[2, 1, 0, 0], [1, 1, 1, 1], [0, 0, 0, 0]]
    g.prices = [12, 8, 10, 10]
    g.cash = [100_000, 164_500, 200_000]
    assert g.net_worth(0) == 204_500
    assert g.net_worth(1) == 204_500
    assert g.net_worth(2) == 200_000
    put(g, 2, 18)
    roll(g, 1, 1)
    g.apply(actions.hotel(board.HOTEL_NOTHING))
    assert g.is_over and g.winners == [0, 1] and g.round == 20


# 25 ------------------------------------------------------------------------ Forks from a card
def test_25_forks_and_sessions_from_cards() -> None:
    g = new()
    g.stack_deck(SU, "SU16")
    put(g, 0, 19)
    roll(g, 1, 2)
    assert g.position[0] == 30 and g.phase == Phase.FORK and g.fork == board.FORK_CUSTOMS
    g = new()
    g.stack_deck(SU, "SU8")
    put(g, 0, 19)
    roll(g, 1, 2)
    assert g.position[0] == 15 and g.cash[0] == 270_000
    assert g.phase == Phase.FORK and g.fork == board.FORK_ROULETTE
    g = new()
    g.stack_deck(NO, "NO9")
    put(g, 0, 15)
    roll(g, 1, 1)
    assert g.position[0] == 25 and g.phase == Phase.EXCHANGE_TRADE
