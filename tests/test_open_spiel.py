"""Both games as OpenSpiel Python games (``byapar_env.open_spiel_games``): OpenSpiel's own
random-simulation checks, its MCTS bot on Byapar, explicit dice, Businessman's information
states hiding the other hands, and the one-line refusal without the package."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import byapar_env.open_spiel_games  # noqa: E402,F401  (registers both games)
from byapar_env.action_table import ROLL_ID  # noqa: E402


@pytest.mark.parametrize("name", ["python_byapar", "python_businessman"])
def test_openspiel_random_simulations_pass(name) -> None:
    game = pyspiel.load_game(name, {"players": 3, "rounds": 2, "seed": 4})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_facts_openspiel_reads() -> None:
    byapar = pyspiel.load_game("python_byapar")
    businessman = pyspiel.load_game("python_businessman")
    assert byapar.num_players() == 4 and byapar.num_distinct_actions() == 181
    assert businessman.num_distinct_actions() == 402
    info = pyspiel.GameType.Information
    assert byapar.get_type().information == info.PERFECT_INFORMATION
    assert businessman.get_type().information == info.IMPERFECT_INFORMATION
    assert byapar.get_parameters()["rounds"] == 40 and businessman.get_parameters()["rounds"] == 20
    assert byapar.max_chance_outcomes() == 36


def test_a_roll_is_a_chance_node_whose_outcome_is_the_dice() -> None:
    state = pyspiel.load_game("python_byapar", {"players": 2, "seed": 3}).new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [ROLL_ID]
    state.apply_action(ROLL_ID)
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, 1 / 36) for i in range(36)]
    state.apply_action(6 * (3 - 1) + (4 - 1))  # a 3 and a 4
    game = state.env.game
    assert game.dice == (3, 4) and game.position == [7, 0]  # GO + 7: a place to buy
    assert state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "buy the place landed on", "do not buy it"]
    assert state.history() == [ROLL_ID, 15]


def test_the_same_choices_give_the_same_game() -> None:
    def play(seed: int) -> tuple[str, list[float]]:
        state = pyspiel.load_game("python_byapar", {"players": 3, "rounds": 3,
                                                    "seed": seed}).new_initial_state()
        rng = np.random.RandomState(0)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.randint(36)))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randint(len(legal))])
        return str(state), state.returns()

    first = play(5)
    assert first == play(5) and sum(first[1]) == pytest.approx(1.0)


def test_businessman_information_states_hide_the_other_hands() -> None:
    state = pyspiel.load_game("python_businessman", {"players": 2, "seed": 3}).new_initial_state()
    game = state.env.game
    assert game.hands[0] != game.hands[1]
    for seat in (0, 1):
        history, view = state.information_state_string(seat).split("|", 1)
        seen = json.loads(view)
        assert history == "" and seen["seat"] == seat and seen["hand"] == game.hands[seat]
        assert "hands" not in seen and str(game.hands[1 - seat]) not in view


def test_openspiels_mcts_bot_plays_byapar() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_byapar", {"players": 2, "rounds": 2, "seed": 2})
    state = game.new_initial_state()
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=4,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    rng = np.random.RandomState(1)
    decided = 0
    while not state.is_terminal() and decided < 8:
        if state.is_chance_node():
            state.apply_action(int(rng.randint(36)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decided += 1
    assert decided == 8


def test_without_openspiel_the_import_is_refused_in_one_line() -> None:
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "try:\n    import byapar_env.open_spiel_games\n"
            "except ModuleNotFoundError as exc:\n    print(exc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out == "OpenSpiel is not installed: pip install -e '.[openspiel]' (the open_spiel " \
                  "package)\n"
