"""The registry of games (``byapar_env.games``): each game's facts declared once and read from
its own engine, and the harnesses reading a game there instead of branching on its name."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

from byapar_agents import UnknownAgentError, make_agent
from byapar_agents.businessman import MediumPlayer as BusinessmanMedium
from byapar_env.businessman import Rules as BusinessmanRules
from byapar_env.engine import Rules
from byapar_env.engine.errors import RulesError
from byapar_env.games import GAMES, UnknownGameError, available_games, find_game
from byapar_harness.arena import ArenaConfig, ArenaError, format_table, run_arena, validate

ROOT = pathlib.Path(__file__).resolve().parent.parent
CODE = ("byapar_env", "byapar_agents", "byapar_training", "byapar_serve", "byapar_harness",
        "byapar_cli")
# Comparisons with a game's name still to be routed through the registry, each with its issue.
KNOWN_BRANCHES: set[tuple[str, str]] = set()


def test_the_games_and_their_facts() -> None:
    assert available_games() == ("byapar", "businessman")
    byapar, businessman = find_game("byapar"), find_game("businessman")
    assert (byapar.min_players, byapar.max_players, byapar.default_rounds) == (2, 6, 40)
    assert (businessman.min_players, businessman.max_players, businessman.default_rounds) \
        == (2, 6, 20)
    assert not byapar.hidden_information and businessman.hidden_information
    assert byapar.option_default("starting_cash") == 15_000
    assert byapar.option_default("auctions") is True
    assert businessman.option_default("abroad_enabled") is True
    assert [o.name for o in businessman.options] == ["abroad_enabled"]
    assert byapar.policy_format == "byapar-policy"
    assert businessman.policy_format == "businessman-policy"
    assert byapar.module("env").raw_env.__module__ == "byapar_env.byapar_v0"
    assert businessman.module("env").raw_env.__module__ == "byapar_env.businessman_v0"


def test_rounds_mean_the_same_in_every_game() -> None:
    assert find_game("byapar").rules(3, None) == Rules(num_players=3, rounds=None)
    assert find_game("byapar").rules(4, 20, auctions=False) == Rules(num_players=4, rounds=20,
                                                                     auctions=False)
    # Businessman's engine plays "no limit" as max_rounds=0; "until one is left" is capped at
    # 100 rounds in every game, as Byapar's engine caps it.
    assert find_game("businessman").rules(5, None) == BusinessmanRules(num_players=5,
                                                                      max_rounds=100)
    assert find_game("businessman").rules(2, 7, abroad_enabled=False) == BusinessmanRules(
        num_players=2, max_rounds=7, abroad_enabled=False)
    with pytest.raises(RulesError, match="rounds must be a positive whole number"):
        find_game("businessman").rules(4, 0)
    with pytest.raises(RulesError, match="Byapar has no table option 'abroad_enabled'"):
        find_game("byapar").rules(4, 20, abroad_enabled=False)
    with pytest.raises(RulesError, match="Businessman has no table option 'auctions'"):
        find_game("businessman").rules(4, 20, auctions=False)


@pytest.mark.parametrize("name", ["chess", "", None, 3, "Byapar"])
def test_an_unknown_game_is_refused_naming_the_games(name) -> None:
    with pytest.raises(UnknownGameError, match="expected one of byapar, businessman"):
        find_game(name)


def test_one_make_agent_for_every_game() -> None:
    assert isinstance(make_agent("medium", game="businessman"), BusinessmanMedium)
    with pytest.raises(UnknownAgentError, match="unknown Businessman player 'strategist'"):
        make_agent("strategist", game="businessman")
    with pytest.raises(UnknownAgentError, match="unknown player 'zz'"):
        make_agent("zz")
    with pytest.raises(UnknownGameError):
        make_agent("medium", game="chess")


def test_the_arena_plays_each_game_its_own_default_round_limit() -> None:
    assert ArenaConfig().rounds == 40
    assert ArenaConfig(game="businessman").rounds == 20
    summary = run_arena(ArenaConfig(players=("medium", "easy"), games=2, game="businessman"))
    assert summary["config"]["rounds"] == 20
    assert max(r for r in [summary["run"]["mean_rounds"]]) <= 20
    assert format_table(summary).startswith("Businessman: 2 games, seats rotated: medium, "
                                            "easy; 20 rounds, seed 0")
    with pytest.raises(ArenaError, match="Businessman has no --no-auctions option"):
        validate(ArenaConfig(players=("medium", "easy"), game="businessman", auctions=False))


def test_the_cli_arena_plays_businessman_for_20_rounds() -> None:
    out = subprocess.run([sys.executable, "-m", "byapar_cli", "arena", "--game", "businessman",
                          "--players", "medium,easy", "--games", "1", "--quiet"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert out.startswith("Businessman: 1 games, seats rotated: medium, easy; 20 rounds, seed 0")


def _branches(path: pathlib.Path) -> list[tuple[str, int]]:
    """(innermost enclosing function, line) of each comparison with a game's name."""
    names = set(GAMES) | {"BYAPAR", "BUSINESSMAN"}
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, func: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            func = node.name
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                if ((isinstance(side, ast.Constant) and side.value in names)
                        or (isinstance(side, ast.Name) and side.id in names)):
                    found.append((func, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, func)

    visit(ast.parse(path.read_text()), "<module>")
    return found


def test_no_branch_on_a_game_name_outside_the_registry() -> None:
    seen = set()
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel == "byapar_env/games.py":
                continue
            for func, line in _branches(path):
                seen.add((rel, func))
                assert (rel, func) in KNOWN_BRANCHES, f"{rel}:{line} branches on a game's name"
    assert seen >= KNOWN_BRANCHES  # an exception mended leaves this list


def test_both_games_players_go_by_the_same_class_names() -> None:
    import byapar_agents
    import byapar_agents.businessman as businessman

    for name in ("RandomPlayer", "EasyPlayer", "MediumPlayer", "LearnedPlayer", "ExpertPlayer"):
        assert hasattr(byapar_agents, name) and hasattr(businessman, name), name
        assert getattr(byapar_agents, name) is not getattr(businessman, name)
    assert businessman.LearnedPlayer is businessman.LearnedBusinessmanPlayer
