"""The gauntlet: one player against every panel member and every level, at several table sizes.

    byapar gauntlet hard --games 400 --seed 0 --json gauntlet.json

For each opponent and table size the player sits with copies of that opponent in every other
seat (``hard,guardian,guardian,guardian`` at four seats), seats rotated, each game seeded from
``--seed`` and its number (the arena's rules). The figure of a cell is the player's win rate as
a multiple of chance (1 / table size), with the 95% Wilson interval; the **worst case** of a
table size is its lowest multiple. With ``--json`` every finished cell is written at once, and
a run started again with the same settings and file goes on from the cells already there.

Opponent groups (``--groups``, issue 24) report the opponents the player may have been trained or
selected on apart from those it cannot have been:

- ``panel`` (seen): the panel and the levels, the default opponents;
- ``outside-seen`` (seen): the outside players training may use (``outside.SEEN_OUTSIDE``);
- ``outside-unseen`` (unseen): the outside players no training may use (``UNSEEN_OUTSIDE``);
- ``population`` (unseen): generated players of the population's evaluation seeds, which
  training never draws (``population.EVALUATION_SEEDS``; ``--population`` of them).

With ``--mixed`` each group also gets a mixed table at every size from 3 seats: the player and
the group's members, one of each in turn (``hard,A,B,C`` for a group of three at four seats).
The report then gives, per group and table size, the worst case over the group's cells and its
mixed table, the unseen groups first, and the worst case over all unseen and over all seen
groups. Groups only choose which cells are played: a cell's figures, its key in the JSON file
and the settings that must match to go on from a file do not depend on them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from byapar_agents import LEVEL_NAMES
from byapar_agents.outside import SEEN_OUTSIDE, UNSEEN_OUTSIDE
from byapar_agents.panel import PANEL_NAMES
from byapar_agents.population import EVALUATION_SEEDS, evaluation_names
from byapar_env.engine.board import FIGURES
from byapar_env.engine.rules import MAX_PLAYERS, MIN_PLAYERS

from .arena import ArenaConfig, ArenaError, run_arena
from .arena import validate as validate_arena

LEVELS = LEVEL_NAMES
DEFAULT_OPPONENTS = LEVELS + PANEL_NAMES
DEFAULT_SIZES = (2, 4, 6)
# The opponent groups, whether the player may have seen each (training, selection), in the order
# the report lists them: the unseen first.
GROUPS: dict[str, bool] = {"outside-unseen": False, "population": False,
                           "panel": True, "outside-seen": True}
GROUP_NAMES = tuple(GROUPS)
DEFAULT_POPULATION = 3  # evaluation seeds of the population group
MAX_POPULATION = 100
MIXED = "mixed:"  # a mixed table's cell is "mixed:GROUP@SIZE"


def group_members(group: str, population: int = DEFAULT_POPULATION) -> tuple[str, ...]:
    """The opponents of ``group`` (one of ``GROUP_NAMES``)."""
    if group == "panel":
        return PANEL_NAMES + LEVELS  # the styles first: a mixed table seats the first ones
    if group == "outside-seen":
        return SEEN_OUTSIDE
    if group == "outside-unseen":
        return UNSEEN_OUTSIDE
    if group == "population":
        return evaluation_names(population)
    raise ArenaError(f"unknown opponent group {group!r}: expected one of "
                     f"{', '.join(GROUP_NAMES)} or all")


@dataclass(frozen=True)
class GauntletConfig:
    player: str = "hard"
    opponents: tuple[str, ...] = DEFAULT_OPPONENTS
    sizes: tuple[int, ...] = DEFAULT_SIZES
    games: int = 400
    seed: int = 0
    workers: int = 1
    rounds: int | None = FIGURES.default_rounds
    starting_cash: int = FIGURES.default_starting_cash
    auctions: bool = FIGURES.default_auctions
    backend: str = "local"  # or "ray": where each cell's games run (results do not change)
    address: str | None = None
    # Opponent groups (GROUP_NAMES); when given they replace ``opponents``.
    groups: tuple[str, ...] = ()
    population: int = DEFAULT_POPULATION  # evaluation seeds in the population group
    mixed: bool = False  # a mixed table per group and size from 3 seats
    game: str = "byapar"  # the game the tables play (byapar_env.games); groups are Byapar's

    def members(self, group: str) -> tuple[str, ...]:
        return tuple(o for o in group_members(group, self.population) if o != self.player)

    def opponent_list(self) -> tuple[str, ...]:
        """Every opponent played alone (with copies of itself), in the order listed."""
        if not self.groups:
            return tuple(o for o in self.opponents if o != self.player)
        return tuple(dict.fromkeys(o for g in self.groups for o in self.members(g)))

    def cells(self) -> list[tuple[str, int]]:
        return [(o, n) for n in self.sizes for o in self.opponent_list()]

    def mixed_tables(self) -> list[tuple[str, int, tuple[str, ...]]]:
        """(group, size, the seats after the player's) of every mixed table of the run."""
        if not self.mixed:
            return []
        out = []
        for n in self.sizes:
            for g in self.groups:
                members = self.members(g)
                if n >= 3 and members:
                    out.append((g, n, tuple(members[i % len(members)] for i in range(n - 1))))
        return out

    def arena(self, opponent: str, size: int) -> ArenaConfig:
        return self.table((opponent,) * (size - 1))

    def table(self, others: tuple[str, ...]) -> ArenaConfig:
        return ArenaConfig(players=(self.player,) + others, games=self.games,
                           seed=self.seed, workers=self.workers, rounds=self.rounds,
                           starting_cash=self.starting_cash, auctions=self.auctions,
                           backend=self.backend, address=self.address, game=self.game)


def validate(config: GauntletConfig) -> None:
    for g in config.groups:
        group_members(g)  # an unknown group's name raises
    if len(set(config.groups)) != len(config.groups):
        raise ArenaError(f"opponent groups must be distinct, got {', '.join(config.groups)}")
    p = config.population
    if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= MAX_POPULATION:
        raise ArenaError(f"--population must be a whole number from 1 to {MAX_POPULATION} "
                         f"(evaluation seeds from {EVALUATION_SEEDS[0]:,}), got {p!r}")
    if config.mixed and not config.groups:
        raise ArenaError("mixed tables are made of an opponent group's members: give --groups")
    if not config.cells():
        raise ArenaError("the gauntlet has no opponent other than the player itself")
    for n in config.sizes:
        if not isinstance(n, int) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ArenaError(f"table sizes must be from {MIN_PLAYERS} to {MAX_PLAYERS}, got {n}")
    if len(set(config.sizes)) != len(config.sizes) or not config.sizes:
        raise ArenaError(f"table sizes must be distinct and at least one, got {config.sizes}")
    for opponent in dict.fromkeys(o for o, _ in config.cells()):
        validate_arena(config.arena(opponent, config.sizes[0]))


def _key(opponent: str, size: int) -> str:
    return f"{opponent}@{size}"


def _mixed_key(group: str, size: int) -> str:
    return _key(MIXED + group, size)


def _settings(config: GauntletConfig) -> dict:
    d = asdict(config)
    for key in ("workers", "backend", "address"):  # results do not depend on them
        d.pop(key)
    for key in ("opponents", "sizes", "groups", "population", "mixed"):  # they choose cells
        d.pop(key)
    return d


def _cell(config: GauntletConfig, arena: ArenaConfig, label: str, size: int) -> dict:
    start = time.perf_counter()
    summary = run_arena(arena)
    me = summary["players"][config.player]
    chance = 1 / size
    # The arena's win rate of a name is per seat it held.
    rivals = {k: v["win_rate"] for k, v in summary["players"].items() if k != config.player}
    best = max(rivals, key=lambda k: (rivals[k], k))
    cell = {
        "opponent": label, "size": size, "games": me["games"],
        "win_rate": me["win_rate"], "ci95": me["ci95"],
        "multiple": me["win_rate"] / chance,
        "multiple_ci95": [x / chance for x in me["ci95"]],
        "opponent_win_rate": rivals[best],
        "seconds": round(time.perf_counter() - start, 1),
    }
    if label.startswith(MIXED):
        cell["players"] = list(arena.players)
        cell["opponent_win_rates"] = rivals
        cell["best_opponent"] = best
    return cell


def run_gauntlet(config: GauntletConfig, json_path: str | None = None,
                 progress: Callable[[str], None] | None = None) -> dict:
    """Play every cell (reusing finished ones from ``json_path`` made with the same settings)
    and summarise."""
    validate(config)
    cells: dict[str, dict] = {}
    if json_path and Path(json_path).exists():
        try:
            old = json.loads(Path(json_path).read_text())
        except ValueError:
            old = {}
        if old.get("settings") == _settings(config):
            cells = {k: v for k, v in old.get("cells", {}).items()}
    out = {"settings": _settings(config), "cells": cells}
    todo = [(_key(o, n), o, n, (o,) * (n - 1)) for o, n in config.cells()]
    todo += [(_mixed_key(g, n), MIXED + g, n, others) for g, n, others in config.mixed_tables()]
    for key, label, size, others in todo:
        if key in cells:
            continue
        cells[key] = c = _cell(config, config.table(others), label, size)
        if progress:
            progress(f"{key}: {c['win_rate']:.1%} ({c['multiple']:.2f}x chance)")
        out.update(worst_cases(config, cells))
        if json_path:
            write_json(json_path, out)
    out.update(worst_cases(config, cells))
    if json_path:
        write_json(json_path, out)
    return out


def _worst(row: list[dict]) -> dict:
    w = min(row, key=lambda c: c["multiple"])
    return {"opponent": w["opponent"], "multiple": w["multiple"], "win_rate": w["win_rate"],
            "ci95": w["ci95"], "multiple_ci95": w.get("multiple_ci95")}


def worst_cases(config: GauntletConfig, cells: dict) -> dict:
    """The worst case per table size over the opponents played alone (``worst``); with groups,
    also per group and size over its cells and its mixed table (``groups``, unseen groups
    first), and over all unseen and all seen groups (``worst_unseen``, ``worst_seen``)."""
    worst = {}
    for n in config.sizes:
        row = [cells[_key(o, n)] for o, size in config.cells()
               if size == n and _key(o, n) in cells]
        if row:
            w = _worst(row)
            worst[str(n)] = {k: w[k] for k in ("opponent", "multiple", "win_rate", "ci95")}
    out: dict = {"worst": worst}
    if not config.groups:
        return out
    groups: dict[str, dict] = {}
    seen_rows: dict[bool, dict[int, list[dict]]] = {True: {}, False: {}}
    for g in sorted(config.groups, key=GROUP_NAMES.index):
        seen = GROUPS[g]
        entry = {"seen": seen, "members": list(config.members(g)), "worst": {}}
        for n in config.sizes:
            keys = [_key(o, n) for o in config.members(g)] + [_mixed_key(g, n)]
            row = [cells[k] for k in keys if k in cells]
            if row:
                entry["worst"][str(n)] = _worst(row)
                seen_rows[seen].setdefault(n, []).extend(row)
        groups[g] = entry
    out["groups"] = groups
    for seen, name in ((False, "worst_unseen"), (True, "worst_seen")):
        out[name] = {str(n): _worst(row) for n, row in sorted(seen_rows[seen].items())}
    return out


def write_json(path: str, data: dict) -> None:
    """``data`` as JSON at ``path``, whole or not at all (written beside it, then moved)."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2))
    tmp.replace(p)


def _rows(config: GauntletConfig, cells: dict, rows: list[tuple[str, str]]) -> list[str]:
    """A table: one line per (label, cell key prefix), one column per size."""
    width = max(12, 2 + max(len(label) for label, _ in rows))
    head = f"{'opponent':<{width}}" + "".join(f"{f'{n} seats (chance {1 / n:.0%})':>30}"
                                               for n in config.sizes)
    lines = [head]
    for label, prefix in rows:
        row = f"{label:<{width}}"
        for n in config.sizes:
            c = cells.get(_key(prefix, n))
            text = "-" if c is None else (f"{c['win_rate']:.1%} ({c['ci95'][0]:.0%}-"
                                          f"{c['ci95'][1]:.0%}) {c['multiple']:.2f}x")
            row += f"{text:>30}"
        lines.append(row)
    return lines


def worst_line(what: str, n: str, w: dict) -> str:
    return (f"{what} at {n} seats: {w['multiple']:.2f}x chance against {w['opponent']} "
            f"({w['win_rate']:.1%}, 95% interval {w['ci95'][0]:.1%} - {w['ci95'][1]:.1%})")


def format_gauntlet(config: GauntletConfig, result: dict) -> str:
    cells = result["cells"]
    lines = [f"gauntlet of {config.player}: {config.games} games a cell, seats rotated, "
             f"seed {config.seed}; win rate, 95% interval, multiple of chance", ""]
    if not config.groups:
        lines += _rows(config, cells, [(o, o) for o in config.opponent_list()])
        lines.append("")
        for n, w in result["worst"].items():
            lines.append(worst_line("worst case", n, w))
        return "\n".join(lines)
    for g, entry in result.get("groups", {}).items():
        kind = "seen" if entry["seen"] else "UNSEEN"
        lines.append(f"{g} ({kind}): {', '.join(entry['members'])}")
        rows = [(o, o) for o in entry["members"]]
        if config.mixed:
            rows.append(("mixed table", MIXED + g))
        lines += _rows(config, cells, rows)
        for n, w in entry["worst"].items():
            lines.append(worst_line(f"  {g} worst case", n, w))
        lines.append("")
    for name, what in (("worst_unseen", "UNSEEN worst case"), ("worst_seen", "seen worst case")):
        for n, w in result.get(name, {}).items():
            lines.append(worst_line(what, n, w))
    return "\n".join(lines).rstrip()
