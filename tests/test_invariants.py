"""Seeded random games with an invariant check after every decision, for every table."""

from __future__ import annotations

import random

import pytest

from byapar_env.engine import Game, Phase, Rules, actions, board
from byapar_env.engine.game import _GROUP


def random_offer(game: Game, rng: random.Random):
    """A random trade offer, legal or not, from the turn's player."""
    p = game.turn
    others = [s for s in game.active_seats() if s != p]
    t = rng.choice(others)
    mine = [s for s in game.places_of(p) if rng.random() < 0.3]
    theirs = [s for s in game.places_of(t) if rng.random() < 0.3]
    amount = rng.choice([0, 0, 100, 500, -100, -500, 2000])
    return actions.offer_trade(t, mine, theirs, amount)


def every_fixed_action(game: Game) -> list:
    """Every non-trade action with every square, plus bids around the legal range."""
    out = [actions.ROLL, actions.PAY_FINE, actions.USE_BAIL_CARD, actions.DROP_OUT,
           actions.ACCEPT_TRADE, actions.REJECT_TRADE]
    for sq in range(board.NUM_SQUARES):
        out += [actions.build(sq), actions.sell_building(sq), actions.mortgage(sq),
                actions.unmortgage(sq), actions.buy(sq), actions.decline(sq)]
    if game.auction is not None:
        low = game.auction.high + 100
        out += [actions.bid(game.auction.square, a) for a in (low - 100, low, low + 50, low + 100)]
    return out


def check_is_legal_matches_the_list(game: Game) -> None:
    legal = set(game.legal_actions())
    for a in every_fixed_action(game):
        assert game.is_legal(a) == (a in legal), f"is_legal disagrees on {a}"


def play_random(game: Game, rng: random.Random, check=None, trade_rate: float = 0.05) -> int:
    """Play to the end with random legal choices (and some random trade offers)."""
    steps = 0
    while not game.is_over:
        acts = game.legal_actions()
        assert acts, "no legal action while the game is not over"
        if game.can_offer_trade() and rng.random() < trade_rate:
            offer = random_offer(game, rng)
            if game.is_legal(offer):
                game.apply(offer)
                steps += 1
                if check:
                    check(game)
                continue
        game.apply(rng.choice(acts))
        steps += 1
        if check:
            check(game)
        assert steps < 200_000, "game did not end"
    return steps


def check_invariants(game: Game) -> None:
    n = game.num_players
    start_total = n * game.rules.starting_cash
    assert sum(game.cash) == start_total + game.bank_paid - game.bank_received
    assert all(c >= 0 for c in game.cash)
    for s in range(n):
        if game.bankrupt[s]:
            assert game.cash[s] == 0 and not game.places_of(s) and not game.bail_cards[s]
    for sq in range(board.NUM_SQUARES):
        o = game.owner[sq]
        if sq not in board.PLACES:
            assert o == -1 and game.buildings[sq] == 0 and not game.mortgaged[sq]
            continue
        assert o == -1 or (0 <= o < n and not game.bankrupt[o])
        if o == -1:
            assert game.buildings[sq] == 0 and not game.mortgaged[sq]
        if game.mortgaged[sq] and _GROUP[sq]:
            assert all(game.buildings[s] == 0 for s in _GROUP[sq])
    for group in board.GROUPS.values():
        levels = [game.buildings[s] for s in group]
        assert all(0 <= b <= board.HOTEL for b in levels)
        if any(levels):
            assert len({game.owner[s] for s in group}) == 1
            assert not any(game.mortgaged[s] for s in group)
            assert max(levels) - min(levels) <= 1, f"uneven building {levels}"
    for deck in board.DECKS:
        held = sum(cards.count(deck) for cards in game.bail_cards)
        assert sorted(game.decks[deck] + [10 if deck == board.BHAGYA else 12] * held) == list(
            range(1, 17))
    if game.is_over:
        assert game.winners and all(not game.bankrupt[w] for w in game.winners)
        assert game.current_player == -1
    else:
        assert not game.bankrupt[game.current_player]
        assert not game.bankrupt[game.turn]
        assert 1 <= game.round <= game.rules.round_limit
        if game.phase == Phase.RAISE_CASH:
            assert game.cash[game.current_player] < game.debt_owed()


TABLES = [
    Rules(num_players=n, rounds=rounds, starting_cash=cash, auctions=auctions)
    for n in range(2, 7)
    for rounds, cash, auctions in [
        (40, 15_000, True), (20, 10_000, False), (None, 10_000, True), (None, 20_000, False),
    ]
]


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.num_players}p-{r.rounds}-"
                         f"{r.starting_cash}-{'auction' if r.auctions else 'bank'}")
def test_random_games_keep_every_invariant(rules: Rules) -> None:
    for seed in range(6):
        game = Game(rules, seed=seed)
        check_invariants(game)
        play_random(game, random.Random(seed), check_invariants, trade_rate=0.2)
        if rules.rounds is not None and game.winners != game.active_seats():
            assert game.round == rules.rounds


@pytest.mark.parametrize("players", [2, 4, 6])
def test_is_legal_agrees_with_legal_actions(players: int) -> None:
    """The quick legality checks in apply say exactly what legal_actions lists."""
    for seed in range(4):
        game = Game(Rules(num_players=players), seed=seed)
        play_random(game, random.Random(seed), check_is_legal_matches_the_list, trade_rate=0.1)


@pytest.mark.parametrize("players", range(2, 7))
def test_many_fast_games_end_and_conserve_money(players: int) -> None:
    """Hundreds of games per table size, invariants checked at the end of each."""
    for seed in range(150):
        game = Game(Rules(num_players=players, rounds=None if seed % 3 == 0 else 40), seed=seed)
        play_random(game, random.Random(seed))
        check_invariants(game)


def test_same_seed_same_choices_same_game() -> None:
    logs = []
    for _ in range(2):
        game = Game(Rules(num_players=4), seed=11)
        play_random(game, random.Random(5), trade_rate=0.1)
        logs.append(game.to_json())
    assert logs[0] == logs[1]
    other = Game(Rules(num_players=4), seed=12)
    play_random(other, random.Random(5), trade_rate=0.1)
    assert other.to_json() != logs[0]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_json_round_trip_mid_game_is_exact(players: int) -> None:
    for seed in range(5):
        game = Game(Rules(num_players=players), seed=seed)
        rng = random.Random(seed)
        for _ in range(120 + 37 * seed):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        text = game.to_json()
        copy = Game.from_json(text)
        assert copy.to_json() == text
        clone = game.clone()
        # Both continue identically: generator state and deck order came along.
        rngs = [random.Random(99), random.Random(99), random.Random(99)]
        for g, r in zip((game, copy, clone), rngs, strict=True):
            play_random(g, r, trade_rate=0.1)
        assert game.to_json() == copy.to_json() == clone.to_json()


def test_clone_is_independent() -> None:
    game = Game(Rules(num_players=3), seed=3)
    rng = random.Random(3)
    for _ in range(50):
        game.apply(rng.choice(game.legal_actions()))
    before = game.to_json()
    clone = game.clone()
    play_random(clone, random.Random(1))
    assert game.to_json() == before
