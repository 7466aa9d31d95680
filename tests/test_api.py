"""The engine's public surface: playing a game, naming actions, refusing illegal ones, saving."""

from __future__ import annotations

import json

import pytest
from scenario import balance_money, give, new_game, put, roll, sq

from byapar_env.engine import (
    Action,
    ActionKind,
    Game,
    GameStateError,
    IllegalActionError,
    Phase,
    Rules,
    actions,
    board,
)

START_CASH = 15_000


def test_public_names_import_from_the_engine_package():
    """The documented imports work, and the errors are ValueErrors."""
    from byapar_env.engine import Game as documented_game
    from byapar_env.engine import IllegalActionError as documented_error
    from byapar_env.engine import Rules as documented_rules

    assert (documented_game is Game and documented_rules is Rules
            and documented_error is IllegalActionError)
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(GameStateError, ValueError)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_always_taking_the_first_legal_action_finishes_the_game(players):
    """A loop applying legal_actions()[0] ends with winners who have the top net worth."""
    for seed in range(3):
        game = Game(Rules(num_players=players), seed=seed)
        steps = 0
        while not game.is_over:
            game.apply(game.legal_actions()[0])
            steps += 1
            assert steps < 50_000
        assert game.phase == Phase.GAME_OVER and game.current_player == -1
        assert game.legal_actions() == []
        assert game.winners
        alive = game.active_seats()
        best = max(game.net_worth(s) for s in alive)
        if len(alive) > 1:
            assert game.round == 40
            assert game.winners == [s for s in alive if game.net_worth(s) == best]
        else:
            assert game.winners == alive


def test_equal_net_worth_shares_the_win():
    """After the last round the highest net worth wins; equal worth shares the win."""
    game = new_game(3, rounds=1)
    for _ in range(3):
        roll(game, 4, 5)  # everyone to Jail, visiting: nothing changes hands
    assert game.is_over
    assert game.winners == [0, 1, 2]


def test_highest_net_worth_wins_after_the_last_round():
    """Net worth counts places at price (half if mortgaged) and buildings at cost."""
    game = new_game(3, rounds=1)
    give(game, 2, "Jumla", "Surkhet", buildings=1)
    game.cash[2] = START_CASH - 2_200  # 600 + 600 + 2 x 500 back in places and houses
    give(game, 1, "Bus park", mortgaged=True)
    game.cash[1] = START_CASH - 1_000 + 10
    for _ in range(3):
        roll(game, 4, 5)
    assert game.net_worth(0) == START_CASH
    assert game.net_worth(1) == START_CASH + 10
    assert game.net_worth(2) == START_CASH
    assert game.winners == [1]


def test_net_worth_formula_and_zero_once_bankrupt():
    """Net worth = cash + price of each place (half when mortgaged) + building cost."""
    game = new_game(2)
    game.cash[0] = 1_000
    give(game, 0, "Jumla", buildings=board.HOTEL)
    give(game, 0, "Surkhet", buildings=4)
    give(game, 0, "Hydropower", mortgaged=True)
    assert game.net_worth(0) == 1_000 + 600 + 5 * 500 + 600 + 4 * 500 + 750
    game.bankrupt[1] = True
    assert game.net_worth(1) == 0


# --------------------------------------------------------------------------- naming actions


@pytest.mark.parametrize(("action", "text"), [
    (actions.ROLL, "roll"),
    (actions.PAY_FINE, "pay the jail fine"),
    (actions.USE_BAIL_CARD, "use a bail card"),
    (actions.build(1), "build on Jumla"),
    (actions.sell_building(26), "sell a building on Pokhara"),
    (actions.mortgage(5), "mortgage Bus park"),
    (actions.unmortgage(11), "pay off the mortgage on Hydropower"),
    (actions.buy(35), "buy Kathmandu"),
    (actions.decline(31), "do not buy Drinking water"),
    (actions.bid(26, 1_200), "bid 1,200 on Pokhara"),
    (actions.bid(14, 100), "bid 100 on Airport"),
    (actions.DROP_OUT, "drop out of the auction"),
    (actions.ACCEPT_TRADE, "accept the trade"),
    (actions.REJECT_TRADE, "decline the trade"),
    (actions.offer_trade(1, [3, 1], [26], 500),
     "offer seat 1: give Jumla, Surkhet for Pokhara; pay Rs 500"),
    (actions.offer_trade(2, [], [5], -1_250),
     "offer seat 2: give nothing for Bus park; ask Rs 1,250"),
    (actions.offer_trade(1, [5], []), "offer seat 1: give Bus park for nothing"),
])
def test_actions_have_readable_names(action, text):
    """str(action) names every kind of action in plain words."""
    assert str(action) == text


def test_action_constructors_return_shared_equal_values():
    """Fixed actions are shared values that compare equal to freshly built ones."""
    assert actions.build(1) is actions.build(1)
    assert actions.bid(26, 1_200) == Action(ActionKind.BID, 26, 1_200)
    assert actions.offer_trade(1, [3, 1]) == actions.offer_trade(1, (1, 3))


# --------------------------------------------------------------------------- illegal actions


def pre_roll():
    return new_game(3)


def buy_phase():
    game = new_game(3)
    put(game, 0, 21)
    roll(game, 2, 3)  # Pokhara
    return game


def auction_phase():
    game = buy_phase()
    game.apply(actions.decline(26))
    game.cash[1] = 1_000
    return game


def trade_phase():
    game = new_game(3)
    give(game, 0, "Jumla")
    give(game, 1, "Pokhara")
    game.apply(actions.offer_trade(1, [1], [26], 100))
    return game


def raise_phase():
    game = new_game(3)
    give(game, 1, "Lalitpur", "Kathmandu")
    give(game, 0, "Bus park")
    game.cash[0] = 100
    put(game, 0, 30)
    roll(game, 2, 3)
    return game


ILLEGAL = [
    (pre_roll, actions.build(1)),
    (pre_roll, actions.buy(5)),
    (pre_roll, actions.PAY_FINE),
    (pre_roll, actions.USE_BAIL_CARD),
    (pre_roll, actions.bid(26, 100)),
    (pre_roll, actions.ACCEPT_TRADE),
    (pre_roll, actions.offer_trade(0, [], [], 0)),
    (pre_roll, actions.offer_trade(1, [26], [])),
    (buy_phase, actions.ROLL),
    (buy_phase, actions.buy(25)),
    (buy_phase, actions.DROP_OUT),
    (auction_phase, actions.bid(26, 50)),
    (auction_phase, actions.bid(26, 150)),
    (auction_phase, actions.bid(26, 1_100)),
    (auction_phase, actions.bid(25, 100)),
    (auction_phase, actions.ROLL),
    (auction_phase, actions.buy(26)),
    (trade_phase, actions.ROLL),
    (trade_phase, actions.offer_trade(0, [26], [1])),
    (raise_phase, actions.ROLL),
    (raise_phase, actions.unmortgage(5)),
]


@pytest.mark.parametrize(("setup", "action"), ILLEGAL,
                         ids=[f"{s.__name__}-{a}" for s, a in ILLEGAL])
def test_illegal_action_raises_names_it_lists_legal_and_changes_nothing(setup, action):
    """An illegal action raises IllegalActionError (a ValueError) naming the action and the
    legal ones, and leaves the whole game exactly as it was."""
    game = setup()
    before = game.to_json()
    legal = [str(a) for a in game.legal_actions()]
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert f"illegal action {action}" in message
    assert "Legal now: " in message
    for text in legal[:12]:
        assert text in message
    if len(legal) > 12:
        assert f"({len(legal)} in all)" in message
    assert game.to_json() == before
    assert not game.is_legal(action)


def test_illegal_message_lists_the_legal_actions_exactly():
    """The message's legal list is the legal actions' names in order, plus trades when open."""
    game = new_game(2)
    give(game, 0, "Bus park")
    with pytest.raises(IllegalActionError) as info:
        game.apply(actions.build(5))
    assert str(info.value) == (
        "illegal action build on Bus park for seat 0 in PRE_ROLL: it is not among the legal "
        "actions. Legal now: roll, mortgage Bus park, or a trade offer"
    )


@pytest.mark.parametrize("thing", ["roll", None, 0, (0, -1, 0, -1, (), ()), ActionKind.ROLL])
def test_non_action_input_raises(thing):
    """Anything that is not an Action is refused with IllegalActionError, changing nothing."""
    game = new_game(2)
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="expected an Action"):
        game.apply(thing)
    assert game.to_json() == before


@pytest.mark.parametrize(("action", "named"), [
    (Action(ActionKind.BUILD, 99), "build on square 99"),
    (Action(ActionKind.MORTGAGE, -7), "mortgage square -7"),
    (Action(ActionKind.BID, 26, "lots"), "bid 'lots' on Pokhara"),
    (Action(ActionKind.BID, 99, 100), "bid 100 on square 99"),
    (actions.offer_trade(1, [99], []), "give square 99 for nothing"),
], ids=["build-99", "mortgage-minus-7", "bid-text", "bid-square-99", "trade-square-99"])
def test_malformed_action_raises_illegal_action_error(action, named):
    """A malformed Action (a square off the board, a bid that is not a number) is refused with
    IllegalActionError naming it as given, and changes nothing."""
    game = new_game(2)
    if action.kind == ActionKind.BID:
        put(game, 0, 21)
        roll(game, 2, 3)
        game.apply(actions.decline(26))
        assert game.phase == Phase.AUCTION
    before = game.to_json()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert named in str(info.value)
    assert game.to_json() == before


def test_action_of_unknown_kind_raises_illegal_action_error():
    """An Action with a kind that does not exist is refused like any illegal action."""
    game = new_game(2)
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply(Action(99))
    assert game.to_json() == before


def test_applying_after_game_over_raises():
    """Once the game is over every action is refused, and the message says why."""
    game = new_game(2, rounds=1)
    roll(game, 4, 5)
    roll(game, 4, 5)
    assert game.is_over
    before = game.to_json()
    for action in (actions.ROLL, actions.DROP_OUT, actions.offer_trade(1, [], [26])):
        with pytest.raises(IllegalActionError, match="the game is over"):
            game.apply(action)
    assert game.to_json() == before


# --------------------------------------------------------------------------- perft


def estate_game(cash=START_CASH):
    """Seat 0 holds the whole Karnali group, Bus park and a mortgaged Hydropower."""
    game = new_game(2)
    give(game, 0, "Jumla", "Surkhet", "Bus park")
    give(game, 0, "Hydropower", mortgaged=True)
    game.cash[0] = cash
    return game


def perft(game, depth):
    """Number of action sequences of ``depth`` that never roll (rolling is chance)."""
    if depth == 0:
        return 1
    total = 0
    for action in game.legal_actions():
        if action == actions.ROLL:
            continue
        child = game.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def test_perft_start_of_game():
    """A fresh game: seat 0 can only roll (or offer a trade, which has no place to offer)."""
    game = new_game(4)
    assert game.legal_actions() == [actions.ROLL]


def test_perft_in_jail():
    """In jail with a bail card and the fine: roll, pay the fine, use the card; broke: roll only."""
    game = new_game(2)
    game.in_jail[0] = True
    put(game, 0, board.JAIL_SQUARE)
    game.bail_cards[0] = [board.BHAGYA]
    game.decks[board.BHAGYA].remove(10)
    assert game.legal_actions() == [actions.ROLL, actions.PAY_FINE, actions.USE_BAIL_CARD]
    game.cash[0] = 490
    game.bail_cards[0] = []
    assert game.legal_actions() == [actions.ROLL]


def test_perft_estate_before_rolling():
    """Whole Karnali, Bus park, mortgaged Hydropower: 7 actions; 28 non-roll pairs deep."""
    game = estate_game()
    assert game.legal_actions() == [
        actions.ROLL, actions.mortgage(1), actions.build(1), actions.mortgage(3),
        actions.build(3), actions.mortgage(5), actions.unmortgage(11),
    ]
    assert perft(game, 1) == 6
    # After mortgaging or building on either Karnali city 4 non-roll actions remain; after
    # mortgaging Bus park or paying off Hydropower, 6.
    assert perft(game, 2) == 4 * 4 + 2 * 6


def test_perft_estate_short_of_cash():
    """With Rs 600 the pay-off (825) is out of reach but a house (500) is not."""
    game = estate_game(600)
    assert len(game.legal_actions()) == 6
    assert actions.unmortgage(11) not in game.legal_actions()


def test_perft_auction():
    """An auction bidder with Rs 1,000: drop out or bid 100..1,000 (11); after a bid of 500 the
    next bidder with Rs 15,000 has drop out and 600..15,000 (146)."""
    game = buy_phase()
    assert len(game.legal_actions()) == 2
    game.apply(actions.decline(26))
    game.cash[1] = 1_000
    assert game.phase == Phase.AUCTION and game.current_player == 1
    legal = game.legal_actions()
    assert legal[0] == actions.DROP_OUT
    assert legal[1:] == [actions.bid(26, a) for a in range(100, 1_001, 100)]
    game.apply(actions.bid(26, 500))
    assert game.current_player == 2
    assert len(game.legal_actions()) == 146
    assert game.legal_actions()[1] == actions.bid(26, 600)


def test_perft_trade_answer():
    """Answering a trade offer: accept or decline, nothing else."""
    game = trade_phase()
    assert game.phase == Phase.TRADE_ANSWER and game.current_player == 1
    assert game.legal_actions() == [actions.ACCEPT_TRADE, actions.REJECT_TRADE]


# --------------------------------------------------------------------------- saving and copying


PHASES = {
    "pre_roll": estate_game,
    "buy": buy_phase,
    "auction": auction_phase,
    "trade": trade_phase,
    "raise": raise_phase,
}


@pytest.mark.parametrize("name", PHASES)
def test_json_round_trip_is_exact_in_every_phase(name):
    """from_json(to_json()) gives back the same game, which then plays on identically."""
    game = balance_money(PHASES[name]())
    text = game.to_json()
    copy = Game.from_json(text)
    assert copy.to_json() == text
    assert copy.phase == game.phase and copy.current_player == game.current_player
    assert copy.legal_actions() == game.legal_actions()
    for g in (game, copy):
        g.apply(g.legal_actions()[-1])
        while not g.is_over and g.turn_count < 40:
            g.apply(g.legal_actions()[0])
    assert copy.to_json() == game.to_json()


def test_json_round_trip_of_a_finished_game():
    """A finished game saves and loads too, winners included."""
    game = new_game(2, rounds=1)
    roll(game, 4, 5)
    roll(game, 4, 5)
    copy = Game.from_json(game.to_json())
    assert copy.is_over and copy.winners == [0, 1]
    assert copy.to_json() == game.to_json()


def test_clone_is_an_independent_copy_mid_auction():
    """clone() copies everything; playing on the clone leaves the original untouched."""
    game = auction_phase()
    game.bail_cards[2] = [board.BHAGYA]
    game.decks[board.BHAGYA].remove(10)
    before = game.to_json()
    clone = game.clone()
    assert clone.to_json() == before
    clone.apply(actions.bid(26, 500))
    clone.apply(actions.DROP_OUT)
    clone.apply(actions.DROP_OUT)
    clone.bail_cards[2].clear()
    clone.decks[board.SAMUDAYA].reverse()
    assert clone.owner[26] == 1
    assert game.to_json() == before
    assert game.auction.high == 0 and game.current_player == 1


def test_clone_and_original_roll_the_same_dice():
    """The clone carries the generator state: both roll the same dice afterwards."""
    game = new_game(2, seed=42)
    clone = game.clone()
    game.apply(actions.ROLL)
    clone.apply(actions.ROLL)
    assert game.dice == clone.dice
    assert game.to_json() == clone.to_json()


def saved(**changes):
    data = json.loads(new_game(2).to_json())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(("text", "words"), [
    ("{not json", "not valid JSON"),
    ("", "not valid JSON"),
    ("[1, 2, 3]", "not a saved Byapar game"),
    (json.dumps({"format": "chess"}), "not a saved Byapar game"),
    (saved(format="byapar"), "not a saved Byapar game"),
    (saved(version=2), "version 2 is not supported"),
    (saved(board="0123456789abcdef"), "board '0123456789abcdef'"),
    (saved(cash=[1, 2, 3]), "'cash'"),
    (saved(rules={"num_players": 9}), "corrupt saved game"),
    (saved(phase=99), "corrupt saved game"),
    (saved(turn="zero"), "'turn'"),
    (saved(decks={"bhagya": []}), "saved decks"),
])
def test_from_json_refuses_bad_text_with_a_clear_message(text, words):
    """Corrupt text, another format, version or board: GameStateError (a ValueError) saying so."""
    with pytest.raises(GameStateError) as info:
        Game.from_json(text)
    assert isinstance(info.value, ValueError)
    assert words in str(info.value)


def test_from_json_refuses_a_save_missing_a_field():
    """A save with a field missing is corrupt."""
    data = json.loads(new_game(2).to_json())
    del data["owner"]
    with pytest.raises(GameStateError, match="corrupt saved game"):
        Game.from_json(json.dumps(data))


# --------------------------------------------------------------------------- forcing chance


@pytest.mark.parametrize("bad", [(0, 3), (1, 7), (1, 2, 3), (4,), (1.0, 2), ("1", "2")])
def test_force_dice_rejects_bad_rolls_and_queues_nothing(bad):
    """force_dice takes pairs of whole numbers 1-6; a bad pair raises ValueError, and no roll
    of the same call is queued."""
    game = new_game(2)
    with pytest.raises(ValueError, match="two dice from 1 to 6"):
        game.force_dice((2, 3), bad)
    assert game.forced_dice == []


def test_forced_dice_are_used_in_order():
    """Forced rolls come out first, in the order given."""
    game = new_game(2)
    game.force_dice((4, 5), (1, 2))
    game.apply(actions.ROLL)
    assert game.dice == (4, 5) and game.position[0] == 9
    game.apply(actions.ROLL)
    assert game.dice == (1, 2) and game.position[1] == 3


@pytest.mark.parametrize(("deck", "numbers", "words"), [
    ("luck", (1,), "deck must be one of"),
    (board.BHAGYA, (17,), "card 17 is not in the bhagya deck"),
    (board.BHAGYA, (0,), "card 0 is not in the bhagya deck"),
    (board.SAMUDAYA, ("3",), "is not in the samudaya deck"),
])
def test_stack_deck_rejects_bad_input(deck, numbers, words):
    """stack_deck names a real deck and cards that are in it now; otherwise ValueError."""
    game = new_game(2)
    with pytest.raises(ValueError, match=words):
        game.stack_deck(deck, *numbers)


def test_stack_deck_refuses_a_held_bail_card():
    """A bail card held by a player is not in the deck and cannot be stacked."""
    game = new_game(2)
    game.decks[board.BHAGYA].remove(10)
    game.bail_cards[1] = [board.BHAGYA]
    with pytest.raises(ValueError, match="card 10 is not in the bhagya deck now"):
        game.stack_deck(board.BHAGYA, 10)


def test_stack_deck_puts_cards_on_top_in_the_order_named():
    """The first card named ends on top; the others keep their relative order."""
    game = new_game(2)
    rest = [c for c in game.decks[board.SAMUDAYA] if c not in (5, 9)]
    game.stack_deck(board.SAMUDAYA, 9, 5)
    assert game.decks[board.SAMUDAYA] == [9, 5] + rest


def test_stack_deck_refused_call_leaves_the_deck_unchanged():
    """A refused stack_deck call changes nothing, like a refused action."""
    game = new_game(2)
    before = list(game.decks[board.BHAGYA])
    with pytest.raises(ValueError):
        game.stack_deck(board.BHAGYA, 99, before[-1])
    assert game.decks[board.BHAGYA] == before


def test_square_helper_matches_the_board():
    """The helper names used in these tests resolve to the board's squares."""
    assert sq("Pokhara") == 26 and sq("Bus park") == 5 and sq("Hydropower") == 11


@pytest.mark.parametrize("bad", [
    actions.offer_trade(True, [1], [3], 0),  # a bool is not a seat
    Action(ActionKind.OFFER_TRADE, target=1, give=([1],)),
    Action(ActionKind.OFFER_TRADE, target=1, give=5),
    Action(ActionKind.OFFER_TRADE, -1, 0, 1, (True,), ()),
    Action(ActionKind.OFFER_TRADE, -1, True, 1, (1,), ()),
    Action([1]),
])
def test_malformed_offers_and_kinds_are_refused_without_change(bad):
    """Malformed trade offers and unhashable kinds are refused like any illegal action."""
    game = new_game(3)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet")
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply(bad)
    assert game.to_json() == before


def test_square_constructors_refuse_squares_off_the_board():
    """A negative square is refused rather than wrapping round to the end of the board."""
    with pytest.raises(ValueError, match="from 0 to 35, got -5"):
        actions.mortgage(-5)


def test_negative_and_non_integer_seeds_are_refused():
    """random.Random would fold -7 onto 7; the engine refuses such seeds instead."""
    with pytest.raises(ValueError, match="seed must be a whole number from 0 up"):
        Game(seed=-7)
    with pytest.raises(ValueError, match="seed must be a whole number from 0 up"):
        Game(seed="7")
