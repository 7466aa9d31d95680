"""Our own choices where the specification leaves a detail open (docs/businessman_rules.md,
"Our own further choices"), each pinned."""

from __future__ import annotations

from test_businessman_helpers import (
    RED,
    assert_illegal,
    give,
    land,
    new,
    put,
    roll,
    set_hand,
)

from byapar_env.businessman import Phase, actions, board


def test_1_a_proposal_counts_when_started() -> None:
    g = new()
    give(g, 0, 6)
    for _ in range(3):
        g.apply(actions.start_trade(1))
        g.apply(actions.CANCEL_TRADE)
    assert g.trades_made == 3
    assert_illegal(g, actions.start_trade(1))


def test_2_a_proposal_takes_at_most_24_steps() -> None:
    g = new()
    give(g, 0, 6)
    g.apply(actions.start_trade(1))
    for _ in range(24):
        g.apply(actions.give_lot(6))
    # 24 toggles: 6 is out again, nothing to submit
    assert g.legal_actions() == [actions.CANCEL_TRADE]
    g.trade.give = [6]
    assert g.legal_actions() == [actions.SUBMIT_TRADE, actions.CANCEL_TRADE]


def test_3_cash_alone_is_not_a_trade() -> None:
    g = new()
    g.apply(actions.start_trade(1))
    g.apply(actions.give_cash(1_000))
    assert_illegal(g, actions.SUBMIT_TRADE)


def test_4_shares_and_cash_are_net_and_only_while_held() -> None:
    g = new()
    g.apply(actions.start_trade(1))
    g.apply(actions.take_share(RED))
    g.apply(actions.give_share(RED))
    assert g.trade.shares[RED] == 0
    g.apply(actions.give_share(RED))
    assert_illegal(g, actions.give_share(RED))  # seat 0 holds one RED
    g.cash[1] = 10_000
    g.apply(actions.take_cash(10_000))
    assert_illegal(g, actions.take_cash(1_000))
    g.apply(actions.give_cash(10_000))
    assert g.trade.cash == 0


def test_5_a_bare_lot_leaves_a_built_group_and_the_buildings_stay() -> None:
    g = new()
    give(g, 0, 1, level=2)
    give(g, 0, 3)
    g.apply(actions.start_trade(1))
    g.apply(actions.give_lot(3))
    g.apply(actions.SUBMIT_TRADE)
    g.apply(actions.ACCEPT_TRADE)
    assert g.owner[3] == 1 and g.level[1] == 2 and g.rent(1) == 30_000
    assert_illegal(g, actions.build_branch(3))


def test_6_an_empty_hand_skips_the_card_step_and_7_alike_cards_are_one_choice() -> None:
    g = new()
    put(g, 0, 8)
    roll(g, 1, 1)
    assert g.phase == Phase.EXCHANGE_TRADE
    g = new()
    set_hand(g, 0, "S-FALL-2", "S-FALL-2", "S-FALL-3")
    put(g, 0, 8)
    roll(g, 1, 1)
    plays = [a for a in g.legal_actions() if a.kind == actions.ActionKind.PLAY_CARD]
    assert {a.arg for a in plays} == {0, 2}
    assert_illegal(g, actions.play_card(1, RED))


def test_12_gift_picks_are_lost_when_the_bank_runs_dry() -> None:
    g = new()
    g.supply = [0, 0, 0, 1]
    put(g, 0, 31)
    roll(g, 1, 1)
    assert g.legal_actions() == [actions.pick_colour(3)]
    g.apply(actions.pick_colour(3))
    assert g.picks_left == 0 and g.current_player == 1
    assert any("lost" in line for line in g.log)


def test_9_paying_each_player_skips_bankrupt_seats() -> None:
    g = new(3)
    g.cash[1] = 1_000
    g.stack_deck(board.NOTICE_DECK, "NO7")
    g.bankrupt[1] = True
    g.cash[1] = 0
    g.shares[1] = [0, 0, 0, 0]
    g.hands[1] = []
    received = g.bank_received
    land(g, 0, 2)
    assert g.cash[0] == 245_000 and g.cash[2] == 255_000
    assert g.bank_received == received  # only live seats are paid; seat 1 is skipped
