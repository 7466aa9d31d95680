"""The hard player never undoes, before rolling, a move it made earlier in the same turn
(``LearnedPlayer(keep_moves=True)``, the default): a seeded six-seat game where the bare policy
mortgages and pays off the same place over and over in one turn, and the mask that stops it."""

from __future__ import annotations

import numpy as np

from byapar_agents import make_agent, play_through_env
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer, kept_moves_mask
from byapar_agents.policy_rollout import UNDOES
from byapar_env.action_table import ACTIONS, ROLL_ID, engine_action
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import ActionKind, Phase, actions

MAHENDRANAGAR = 6


def _undone_in_a_turn(keep_moves: bool) -> list[tuple[int, ActionKind, int]]:
    """Seed 2000, ten rounds, the hard player in seat 0 and five ``pop-4`` (no trades): each
    move of seat 0 before rolling that undoes one it made earlier that turn, as (turn, kind,
    square)."""
    env = raw_env(num_players=6, rounds=10)
    env.reset(seed=2000)
    players = [LearnedPlayer(DEFAULT_CHECKPOINT, keep_moves=keep_moves)]
    players += [make_agent("pop-4") for _ in range(5)]
    made: dict[int, list] = {}
    undone = []

    def seen(env: raw_env, seat: int, i: int) -> None:
        game = env.game
        if (seat != 0 or game.phase != Phase.PRE_ROLL or env.draft is not None
                or ACTIONS[i].kind.startswith("trade")):
            return
        move = engine_action(game, i)
        turn = made.setdefault(game.turn_count, [])
        if any(UNDOES.get(m.kind) == move.kind and m.square == move.square for m in turn):
            undone.append((game.turn_count, move.kind, move.square))
        turn.append(move)

    play_through_env(env, players, on_decision=seen)
    return undone


def test_the_bare_policy_pays_off_a_mortgage_it_took_that_turn_and_hard_does_not() -> None:
    before = _undone_in_a_turn(keep_moves=False)
    assert before[:3] == [(44, ActionKind.UNMORTGAGE, MAHENDRANAGAR),
                          (44, ActionKind.MORTGAGE, MAHENDRANAGAR),
                          (44, ActionKind.UNMORTGAGE, MAHENDRANAGAR)]
    assert _undone_in_a_turn(keep_moves=True) == []


def test_the_earlier_releases_keep_the_bare_policys_moves() -> None:
    assert make_agent("hard").keep_moves
    assert not make_agent("hard-guarded").keep_moves
    assert not make_agent("hard-unguarded").keep_moves


def test_the_mask_drops_only_the_moves_that_undo() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=0)
    game = env.game
    mask = np.zeros(len(ACTIONS), np.int8)
    mortgage = next(i for i, a in enumerate(ACTIONS)
                    if a.kind == "mortgage" and a.arg == MAHENDRANAGAR)
    mask[[ROLL_ID, mortgage]] = 1
    assert kept_moves_mask(game, mask, set()) is mask
    assert kept_moves_mask(game, mask, {actions.unmortgage(MAHENDRANAGAR)}) is mask
    kept = kept_moves_mask(game, mask, {actions.mortgage(MAHENDRANAGAR)})
    assert kept[mortgage] == 0 and kept[ROLL_ID] == 1 and mask[mortgage] == 1
