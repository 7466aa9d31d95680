"""businessman_v0's per-turn caps (``TurnCaps``), in the environment and in ``play_game`` alike:
only rolling after ``max_pre_roll_actions`` counted actions before the roll, only submitting or
cancelling after ``max_trade_steps`` steps of a proposal, a proposal started at the pre-roll cap
only cancelled, the count starting again every turn and copied by ``clone``, bad options refused,
the API tests under tight caps, and the players (the shipped learned one included) choosing only
what the caps leave."""

from __future__ import annotations

import pytest
from pettingzoo.test import api_test
from test_businessman_helpers import give

from byapar_agents.businessman import BusinessmanPlayer, make_agent, play_game
from byapar_agents.businessman.medium import MediumPlayer
from byapar_env import businessman_v0
from byapar_env.businessman import (
    ACTION_ID,
    Action,
    ActionKind,
    Game,
    IllegalActionError,
    Phase,
    Rules,
    RulesError,
    board,
)
from byapar_env.businessman import actions as bm_actions

LOT = board.LOTS[0]  # seat 0's lot
OTHER = board.LOTS[1]  # seat 1's lot
STEP_KINDS = (ActionKind.TRADE_GIVE_LOT, ActionKind.TRADE_TAKE_LOT, ActionKind.TRADE_GIVE_SHARE,
              ActionKind.TRADE_TAKE_SHARE, ActionKind.TRADE_GIVE_CASH, ActionKind.TRADE_TAKE_CASH)


def _env(players: int = 2, **options) -> businessman_v0.raw_env:
    """Seat 0 to play before rolling, holding LOT (seat 1 holding OTHER), every decision asked."""
    env = businessman_v0.raw_env(num_players=players, skip_trivial=False, **options)
    env.reset(seed=0)
    game = env.game
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0
    give(game, 0, LOT)
    give(game, 1, OTHER)
    game.cash[0] = 250_000
    env.game_changed()  # the position was set by hand, after reset
    return env


def _ids(*actions: Action) -> list[int]:
    return sorted(ACTION_ID[a] for a in actions)


def _pledge_and_redeem(env: businessman_v0.raw_env, times: int) -> None:
    """Pledge LOT, or redeem it when pledged, ``times`` times."""
    for _ in range(times):
        action = bm_actions.redeem(LOT) if env.game.mortgaged[LOT] else bm_actions.mortgage(LOT)
        assert ACTION_ID[action] in env.legal_action_ids()
        env.step(ACTION_ID[action])


def _play_to_turn_of(env: businessman_v0.raw_env, seat: int) -> None:
    """Roll, and otherwise take the last legal action, until ``seat`` is to play before rolling."""
    game = env.game
    while not (game.phase == Phase.PRE_ROLL and game.turn == seat):
        legal = env.legal_engine_actions()
        env.step(ACTION_ID[bm_actions.ROLL if bm_actions.ROLL in legal else legal[-1]])


# ----------------------------------------------------------------------------- the pre-roll cap
def test_after_24_pre_roll_actions_only_rolling_is_left_until_the_next_turn() -> None:
    env = _env()
    _pledge_and_redeem(env, 23)
    assert (env.pre_roll_actions == 23
            and ACTION_ID[bm_actions.redeem(LOT)] in env.legal_action_ids())
    _pledge_and_redeem(env, 1)  # the 24th: LOT redeemed
    assert env.pre_roll_actions == 24
    roll = _ids(bm_actions.ROLL)
    assert env.legal_action_ids() == roll
    assert env.observe("player_0")["action_mask"].nonzero()[0].tolist() == roll
    assert bm_actions.mortgage(LOT) in env.game.legal_actions()  # the engine would allow it
    before = env.game.to_json()
    with pytest.raises(IllegalActionError):
        env.step(ACTION_ID[bm_actions.mortgage(LOT)])
    assert env.game.to_json() == before and env.pre_roll_actions == 24
    env.step(ACTION_ID[bm_actions.ROLL])
    _play_to_turn_of(env, 1)
    assert env.pre_roll_actions == 0 and len(env.legal_action_ids()) > 1
    _play_to_turn_of(env, 0)
    assert env.pre_roll_actions == 0
    assert ACTION_ID[bm_actions.mortgage(LOT)] in env.legal_action_ids()


def test_with_skip_trivial_the_environment_rolls_at_the_cap() -> None:
    env = businessman_v0.raw_env(num_players=2, max_pre_roll_actions=4)
    env.reset(seed=0)
    give(env.game, 0, LOT)
    env.game_changed()
    _pledge_and_redeem(env, 4)
    assert "seat 0 rolls" in " ".join(env.game.log)
    assert env.game.turn == 1 or env.game.phase != Phase.PRE_ROLL


def test_a_proposal_started_at_the_pre_roll_cap_can_only_be_cancelled() -> None:
    env = _env(max_pre_roll_actions=3)
    _pledge_and_redeem(env, 2)
    env.step(ACTION_ID[bm_actions.start_trade(1)])
    assert env.game.phase == Phase.TRADE_COMPOSE and env.pre_roll_actions == 3
    assert env.legal_action_ids() == _ids(bm_actions.CANCEL_TRADE)
    env.step(ACTION_ID[bm_actions.CANCEL_TRADE])
    assert env.legal_action_ids() == _ids(bm_actions.ROLL)


def test_the_pre_roll_count_leaves_out_a_proposals_steps() -> None:
    env = _env()
    env.step(ACTION_ID[bm_actions.start_trade(1)])
    env.step(ACTION_ID[bm_actions.take_lot(OTHER)])
    env.step(ACTION_ID[bm_actions.give_cash(1_000)])
    env.step(ACTION_ID[bm_actions.CANCEL_TRADE])
    assert env.pre_roll_actions == 1  # the start alone
    _pledge_and_redeem(env, 1)
    assert env.pre_roll_actions == 2


# ----------------------------------------------------------------------------- the proposal cap
def test_after_12_steps_of_a_proposal_only_submit_and_cancel_are_left() -> None:
    env = _env()
    env.step(ACTION_ID[bm_actions.start_trade(1)])
    for _ in range(11):  # toggled 11 times: OTHER asked for
        env.step(ACTION_ID[bm_actions.take_lot(OTHER)])
    env.step(ACTION_ID[bm_actions.give_cash(1_000)])
    assert env.game.trade.steps == 12 and env.game.trade.take == [OTHER]
    assert env.legal_action_ids() == _ids(bm_actions.SUBMIT_TRADE, bm_actions.CANCEL_TRADE)
    assert len(env.game.legal_actions()) > 2  # the engine allows 24 steps
    with pytest.raises(IllegalActionError):
        env.step(ACTION_ID[bm_actions.give_cash(1_000)])
    env.step(ACTION_ID[bm_actions.SUBMIT_TRADE])
    assert env.game.phase == Phase.TRADE_ANSWER and env.game.current_player == 1


def test_an_empty_proposal_at_the_step_cap_can_only_be_cancelled() -> None:
    env = _env(max_trade_steps=4)
    env.step(ACTION_ID[bm_actions.start_trade(1)])
    for _ in range(4):  # toggled on and off twice: nothing in it
        env.step(ACTION_ID[bm_actions.take_lot(OTHER)])
    assert env.legal_action_ids() == _ids(bm_actions.CANCEL_TRADE)


# ----------------------------------------------------------------------------- clone and options
def test_clone_copies_the_count_and_is_independent() -> None:
    env = _env()
    _pledge_and_redeem(env, 10)
    twin = env.clone()
    assert twin.pre_roll_actions == 10
    assert twin.caps.max_pre_roll_actions == 24 and twin.caps.max_trade_steps == 12
    _pledge_and_redeem(twin, 14)
    assert twin.legal_action_ids() == _ids(bm_actions.ROLL)
    assert env.pre_roll_actions == 10 and len(env.legal_action_ids()) > 1


@pytest.mark.parametrize("name", ["max_pre_roll_actions", "max_trade_steps"])
@pytest.mark.parametrize("bad", [0, 1_001, True, 2.0, "3", None])
def test_bad_caps_are_refused_naming_the_option(name: str, bad: object) -> None:
    with pytest.raises(RulesError, match=name):
        businessman_v0.raw_env(**{name: bad})
    with pytest.raises(RulesError, match=name):
        businessman_v0.env(**{name: bad})
    with pytest.raises(RulesError, match=name):
        play_game(Game(Rules(num_players=2), seed=0), [], **{name: bad})


@pytest.mark.parametrize("players", [2, 5])
def test_pettingzoo_api_test_under_tight_caps(players: int) -> None:
    api_test(businessman_v0.env(num_players=players, max_pre_roll_actions=2, max_trade_steps=1),
             num_cycles=200)


# ----------------------------------------------------------------------------- play_game
class Looper(BusinessmanPlayer):
    """Before rolling: starts a proposal to the next seat while it may, else pledges or redeems
    while it may, else rolls; in a proposal takes a step while it may, then submits if it may,
    else cancels; rejects every proposal; otherwise the last legal action. It keeps what it was
    offered: (turn_count, phase, the proposal's steps, legal)."""

    name = "looper"

    def __init__(self) -> None:
        self.seen: list[tuple[int, Phase, int, list[Action]]] = []

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        phase = game.phase
        steps = game.trade.steps if game.trade is not None else 0
        self.seen.append((game.turn_count, phase, steps, list(legal)))
        if phase == Phase.PRE_ROLL:
            for kinds in ((ActionKind.START_TRADE,), (ActionKind.MORTGAGE, ActionKind.REDEEM)):
                picks = [a for a in legal if a.kind in kinds]
                if picks:
                    return picks[0]
            return bm_actions.ROLL
        if phase == Phase.TRADE_COMPOSE:
            picks = [a for a in legal if a.kind in STEP_KINDS]
            if picks:
                return picks[-1]
            return (bm_actions.SUBMIT_TRADE if bm_actions.SUBMIT_TRADE in legal
                    else bm_actions.CANCEL_TRADE)
        if phase == Phase.TRADE_ANSWER:
            return bm_actions.REJECT_TRADE
        return legal[-1]


def _start(**options) -> Game:
    """The position of ``_env`` as a bare game."""
    return _env(**options).game.clone()


def test_play_game_applies_the_same_caps_as_the_environment() -> None:
    game = _start(rounds=2)
    loopers = [Looper(), Looper()]
    decisions = play_game(game, loopers, skip_trivial=False)
    assert game.is_over
    proposals = 0
    for looper in loopers:
        counted: dict[int, int] = {}
        for turn, phase, steps, legal in looper.seen:
            if phase == Phase.PRE_ROLL:
                done = counted.get(turn, 0)
                assert (legal == [bm_actions.ROLL]) == (done >= 24), (turn, done)
                if legal != [bm_actions.ROLL] and done < 24:
                    counted[turn] = done + 1
            elif phase == Phase.TRADE_COMPOSE:
                assert steps <= 12
                if steps == 12:
                    proposals += 1
                    assert set(legal) <= {bm_actions.SUBMIT_TRADE, bm_actions.CANCEL_TRADE}
        assert counted and all(n == 24 for n in counted.values())
    assert proposals >= 3
    # The same loopers seated in the environment play the same game.
    env = _env(rounds=2)
    seats = [Looper(), Looper()]
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        seat = env.agent_name_mapping[agent]
        env.step(seats[seat].act(env, seat))
    assert env.game.to_json() == game.to_json() and env.decisions == decisions
    assert [s.seen for s in seats] == [s.seen for s in loopers]


def test_play_game_refuses_an_action_a_cap_removed() -> None:
    class Stubborn(BusinessmanPlayer):
        def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
            if game.phase == Phase.PRE_ROLL and game.mortgaged[LOT]:
                return bm_actions.redeem(LOT)
            return bm_actions.mortgage(LOT) if game.phase == Phase.PRE_ROLL else legal[0]

    game = _start()
    with pytest.raises(IllegalActionError, match="cap"):
        play_game(game, [Stubborn(), Stubborn()], skip_trivial=False, max_pre_roll_actions=5)
    assert game.version == 5 and game.mortgaged[LOT]  # the refused redemption changed nothing
    assert bm_actions.redeem(LOT) in game.legal_actions()  # which the engine alone would allow


# ----------------------------------------------------------------------------- the players
def test_medium_composes_a_proposal_within_the_step_cap() -> None:
    plan = MediumPlayer._steps(1, [OTHER], 149_000)
    cash = [a for a in plan if a.kind == ActionKind.TRADE_GIVE_CASH]
    assert len(plan) - 2 <= 12 and sum(a.arg for a in cash) == 150_000
    plan = MediumPlayer._steps(1, [OTHER], 37_000)  # fits as it is
    assert sum(a.arg for a in plan if a.kind == ActionKind.TRADE_GIVE_CASH) == 37_000
    assert len(plan) == 2 + 1 + 10


def test_the_learned_player_chooses_only_what_the_caps_leave() -> None:
    hard = make_agent("hard")
    env = _env()
    _pledge_and_redeem(env, 24)
    game = env.game
    assert hard.choose(game, 0, env.legal_engine_actions()) == bm_actions.ROLL
    assert hard.act(env, 0) == ACTION_ID[bm_actions.ROLL]
    # A whole game under tight caps: play_game refuses any action a cap removed.
    game = Game(Rules(num_players=3, max_rounds=4), seed=2)
    players = [hard, make_agent("medium", 1), make_agent("hard")]
    play_game(game, players, skip_trivial=False, max_pre_roll_actions=1, max_trade_steps=1)
    assert game.is_over and game.winners
