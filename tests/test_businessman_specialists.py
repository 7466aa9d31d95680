"""Table specialists in Businessman checkpoints (``byapar_agents/businessman/learned.py``): a
sub-folder
named in ``meta.json``'s ``table_specialists`` plays the tables of its size, the main policy the
others; the hard player and the expert's policy candidate follow it; a bad entry is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from byapar_agents.businessman import HardBusinessmanPlayer, LearnedBusinessmanPlayer, make_agent
from byapar_agents.businessman.learned import POLICY_FORMAT
from byapar_agents.network import CheckpointError, NumpyPolicy, load_checkpoint
from byapar_checkpoints import shipped
from byapar_env.businessman import ACTION_ID, Game, Rules
from byapar_env.businessman_v0 import raw_env
from byapar_harness.arena import ArenaConfig, ArenaError, validate


def _forcing_policy(folder: Path, action_id: int) -> NumpyPolicy:
    """The shipped policy's layers with an output layer that prefers ``action_id`` whatever it
    sees (zero weights, a bias of 1 there and 0 elsewhere)."""
    policy, _ = load_checkpoint(folder, fmt=POLICY_FORMAT)
    layers = [(w.copy(), b.copy()) for w, b in policy.layers]
    w, b = layers[-1]
    w[:] = 0.0
    b[:] = 0.0
    b[action_id] = 1.0
    layers[-1] = (w, b)
    return NumpyPolicy(layers, policy.activation)


def _with_specialist(tmp_path: Path, action_id: int, key: str = "2",
                     fmt: str = POLICY_FORMAT) -> Path:
    folder = tmp_path / "bm"
    shutil.copytree(shipped("businessman_hard"), folder)
    meta = json.loads((folder / "meta.json").read_text())
    special = _forcing_policy(folder, action_id)
    special.save(folder / "table_2", {"name": "forced"}, fmt)
    meta["table_specialists"] = {key: "table_2"}
    (folder / "meta.json").write_text(json.dumps(meta))
    return folder


def _opening(num_players: int) -> Game:
    return Game(Rules(num_players=num_players), seed=3)


def _forced_action(game: Game, seat: int = 0) -> int:
    """A legal action id of ``seat``'s decision that the shipped policy does not choose."""
    main = LearnedBusinessmanPlayer(shipped("businessman_hard"))
    chosen = ACTION_ID[main.choose(game, seat, game.legal_actions())]
    return max(ACTION_ID[a] for a in game.legal_actions() if ACTION_ID[a] != chosen)


def test_the_specialist_plays_its_table_size_and_the_main_policy_the_rest(tmp_path) -> None:
    heads_up = _opening(2)
    forced = _forced_action(heads_up)
    player = LearnedBusinessmanPlayer(_with_specialist(tmp_path, forced))
    assert set(player.specialists) == {2}
    assert ACTION_ID[player.choose(heads_up, 0, heads_up.legal_actions())] == forced
    main = LearnedBusinessmanPlayer(shipped("businessman_hard"))
    for n in (3, 4, 6):
        game = _opening(n)
        legal = game.legal_actions()
        assert player.choose(game, 0, legal) == main.choose(game, 0, legal)


def test_the_environment_and_the_hard_player_follow_the_specialist(tmp_path) -> None:
    env = raw_env(num_players=2)
    env.reset(seed=0)
    seat = env.game.current_player
    forced = _forced_action(env.game, seat)
    folder = _with_specialist(tmp_path, forced)
    assert env.observe(env.possible_agents[seat])["action_mask"][forced] == 1
    assert LearnedBusinessmanPlayer(folder).act(env, seat) == forced
    hard = HardBusinessmanPlayer(folder)
    assert ACTION_ID[hard.choose(env.game, seat, env.game.legal_actions())] == forced


@pytest.mark.parametrize("key, message", [("7", "is not a table size from 2 to 6"),
                                          ("1", "is not a table size from 2 to 6")])
def test_a_specialist_for_no_table_size_is_refused(tmp_path, key, message) -> None:
    folder = _with_specialist(tmp_path, 0, key=key)
    with pytest.raises(CheckpointError, match=message):
        LearnedBusinessmanPlayer(folder)


def test_a_byapar_specialist_in_a_businessman_checkpoint_is_refused(tmp_path) -> None:
    folder = tmp_path / "bm"
    shutil.copytree(shipped("businessman_hard"), folder)
    shutil.rmtree(folder / "table_2", ignore_errors=True)
    shutil.copytree(shipped("hard"), folder / "table_2",
                    ignore=shutil.ignore_patterns("table_*"))
    meta = json.loads((folder / "meta.json").read_text())
    meta["table_specialists"] = {"2": "table_2"}
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="table_2 was made for format = 'byapar-policy', "
                                              "but this installation has 'businessman-policy'"):
        LearnedBusinessmanPlayer(folder)


def test_the_experts_policy_candidate_is_the_specialists(tmp_path) -> None:
    from byapar_agents.businessman import ExpertBusinessmanPlayer

    heads_up = _opening(2)
    forced = _forced_action(heads_up)
    expert = ExpertBusinessmanPlayer(checkpoint=_with_specialist(tmp_path, forced), seed=0)
    candidates, policy_index = expert.candidates(heads_up)
    assert ACTION_ID[candidates[policy_index].actions[0]] == forced


def test_the_shipped_hard_has_a_heads_up_specialist_and_plays_it() -> None:
    player = LearnedBusinessmanPlayer(shipped("businessman_hard"))
    assert set(player.specialists) == {2}
    assert player.policy_for(2) is player.specialists[2]
    assert all(player.policy_for(n) is player.policy for n in (3, 4, 5, 6))
    main_only = LearnedBusinessmanPlayer(shipped("businessman_hard"))
    main_only.specialists.clear()
    # Along one seeded heads-up game played by the shipped player, the specialist's choice
    # differs from the main policy's somewhere: the heads-up network is a network of its own.
    game = Game(Rules(num_players=2), seed=5)
    differ = 0
    for _ in range(300):
        if game.is_over:
            break
        seat, legal = game.current_player, game.legal_actions()
        choice = player.choose(game, seat, legal)
        differ += choice != main_only.choose(game, seat, legal)
        game.apply(choice)
    assert differ > 0


def test_hard_over_a_folder_is_the_hard_player_with_that_network(tmp_path) -> None:
    heads_up = _opening(2)
    forced = _forced_action(heads_up)
    folder = _with_specialist(tmp_path, forced)
    player = make_agent(f"hard:{folder}")
    assert isinstance(player, HardBusinessmanPlayer)
    assert player.name == f"hard:{folder}"
    legal = heads_up.legal_actions()
    assert ACTION_ID[player.choose(heads_up, heads_up.current_player, legal)] == forced
    assert ACTION_ID[make_agent("hard").choose(heads_up, heads_up.current_player, legal)] != forced


@pytest.mark.parametrize("name", ["hard:", "hard:no/such/folder"])
def test_hard_over_no_folder_is_refused_by_name_and_by_the_arena(name) -> None:
    with pytest.raises(ValueError, match="hard:FOLDER needs a Businessman checkpoint folder"):
        make_agent(name)
    with pytest.raises(ArenaError, match="hard:FOLDER needs"):
        validate(ArenaConfig(players=(name, "medium"), games=1, game="businessman", rounds=20))
