"""The gauntlet: one player against every panel member and every level, at several table sizes.

    byapar gauntlet hard --games 400 --seed 0 --json gauntlet.json

For each opponent and table size the player sits with copies of that opponent in every other
seat (``hard,guardian,guardian,guardian`` at four seats), seats rotated, each game seeded from
``--seed`` and its number (the arena's rules). The figure of a cell is the player's win rate as
a multiple of chance (1 / table size), with the 95% Wilson interval; the **worst case** of a
table size is its lowest multiple. With ``--json`` every finished cell is written at once, and
a run started again with the same settings and file goes on from the cells already there.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from .arena import ArenaConfig, ArenaError, run_arena
from .arena import validate as validate_arena
from .panel import PANEL_NAMES

LEVELS = ("random", "easy", "medium", "hard")
DEFAULT_OPPONENTS = LEVELS + PANEL_NAMES
DEFAULT_SIZES = (2, 4, 6)


@dataclass(frozen=True)
class GauntletConfig:
    player: str = "hard"
    opponents: tuple[str, ...] = DEFAULT_OPPONENTS
    sizes: tuple[int, ...] = DEFAULT_SIZES
    games: int = 400
    seed: int = 0
    workers: int = 1
    rounds: int | None = 40
    starting_cash: int = 15_000
    auctions: bool = True
    backend: str = "local"  # or "ray": where each cell's games run (results do not change)
    address: str | None = None

    def cells(self) -> list[tuple[str, int]]:
        return [(o, n) for n in self.sizes for o in self.opponents if o != self.player]

    def arena(self, opponent: str, size: int) -> ArenaConfig:
        return ArenaConfig(players=(self.player,) + (opponent,) * (size - 1), games=self.games,
                           seed=self.seed, workers=self.workers, rounds=self.rounds,
                           starting_cash=self.starting_cash, auctions=self.auctions,
                           backend=self.backend, address=self.address)


def validate(config: GauntletConfig) -> None:
    if not config.cells():
        raise ArenaError("the gauntlet has no opponent other than the player itself")
    for n in config.sizes:
        if not isinstance(n, int) or not 2 <= n <= 6:
            raise ArenaError(f"table sizes must be from 2 to 6, got {n}")
    if len(set(config.sizes)) != len(config.sizes) or not config.sizes:
        raise ArenaError(f"table sizes must be distinct and at least one, got {config.sizes}")
    for opponent in dict.fromkeys(o for o, _ in config.cells()):
        validate_arena(config.arena(opponent, config.sizes[0]))


def _key(opponent: str, size: int) -> str:
    return f"{opponent}@{size}"


def _settings(config: GauntletConfig) -> dict:
    d = asdict(config)
    for key in ("workers", "backend", "address"):  # results do not depend on them
        d.pop(key)
    d.pop("opponents")
    d.pop("sizes")
    return d


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
    for opponent, size in config.cells():
        key = _key(opponent, size)
        if key in cells:
            continue
        start = time.perf_counter()
        summary = run_arena(config.arena(opponent, size))
        me = summary["players"][config.player]
        chance = 1 / size
        cells[key] = {
            "opponent": opponent, "size": size, "games": me["games"],
            "win_rate": me["win_rate"], "ci95": me["ci95"],
            "multiple": me["win_rate"] / chance,
            "multiple_ci95": [x / chance for x in me["ci95"]],
            "opponent_win_rate": summary["players"][opponent]["win_rate"] / (size - 1),
            "seconds": round(time.perf_counter() - start, 1),
        }
        if progress:
            progress(f"{key}: {me['win_rate']:.1%} ({me['win_rate'] / chance:.2f}x chance)")
        out.update(worst_cases(config, cells))
        if json_path:
            _write(json_path, out)
    out.update(worst_cases(config, cells))
    if json_path:
        _write(json_path, out)
    return out


def worst_cases(config: GauntletConfig, cells: dict) -> dict:
    worst = {}
    for n in config.sizes:
        row = [cells[_key(o, n)] for o, size in config.cells()
               if size == n and _key(o, n) in cells]
        if row:
            w = min(row, key=lambda c: c["multiple"])
            worst[str(n)] = {"opponent": w["opponent"], "multiple": w["multiple"],
                             "win_rate": w["win_rate"], "ci95": w["ci95"]}
    return {"worst": worst}


def _write(path: str, data: dict) -> None:
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2))
    tmp.replace(p)


def format_gauntlet(config: GauntletConfig, result: dict) -> str:
    cells = result["cells"]
    opponents = [o for o in config.opponents if o != config.player]
    width = max(12, 2 + max(len(o) for o in opponents))
    head = f"{'opponent':<{width}}" + "".join(f"{f'{n} seats (chance {1 / n:.0%})':>30}"
                                               for n in config.sizes)
    lines = [f"gauntlet of {config.player}: {config.games} games a cell, seats rotated, "
             f"seed {config.seed}; win rate, 95% interval, multiple of chance", "", head]
    for o in opponents:
        row = f"{o:<{width}}"
        for n in config.sizes:
            c = cells.get(_key(o, n))
            text = "-" if c is None else (f"{c['win_rate']:.1%} ({c['ci95'][0]:.0%}-"
                                          f"{c['ci95'][1]:.0%}) {c['multiple']:.2f}x")
            row += f"{text:>30}"
        lines.append(row)
    lines.append("")
    for n, w in result["worst"].items():
        lines.append(f"worst case at {n} seats: {w['multiple']:.2f}x chance against "
                     f"{w['opponent']} ({w['win_rate']:.1%}, 95% interval {w['ci95'][0]:.1%} - "
                     f"{w['ci95'][1]:.1%})")
    return "\n".join(lines)
