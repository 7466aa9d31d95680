"""The expert's strength: arena cells against medium, hard and panel tables, and against budget.

    python -m bench.expert_strength [--json PATH] [--png PATH] [--plot-only] [--workers N]

Each cell is an arena run (seats rotated, every game seeded from the seed and its number, so a
cell is reproducible); the expert plays at a simulation budget (``expert@SIMS``; plain
``expert`` is ``DEFAULT_SIMS``), and the variants that chose its defaults are measured on the
same games (``expert-medium@48`` and the like: see ``byapar_agents._EXPERT_NAME``). Cells are
written to the JSON file as they finish, and a run started again with the same file goes on
from the cells already there. ``--plot-only`` draws the strength-against-budget chart from the
file: the win rate at four seats against three medium players, with 95% Wilson intervals (cells
of one budget on several seeds pooled), the hard player (no search) at budget 0; the shipped
expert's cells only, not the variants'.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from byapar_agents import DEFAULT_SIMS, expert_options, is_expert_name
from byapar_harness.arena import ArenaConfig, run_arena, wilson

MEDIUM3 = ("medium", "medium", "medium")
HARD3 = ("hard", "hard", "hard")
STRATEGIST3 = ("strategist", "strategist", "strategist")
# (name, lineup, games, seed): the bars' tables, on a second seed too, each beside the hard
# player on the same games; a panel table; heads-up and six seats; the budget (24 and 96
# simulations); then the variant that chose this release's default, on the same games: the
# expert without the trade finder (``-nofind``).
CELLS: tuple[tuple[str, tuple[str, ...], int, int], ...] = (
    ("expert+3hard", ("expert", *HARD3), 120, 0),
    ("expert+3medium", ("expert", *MEDIUM3), 120, 0),
    ("expert-nofind+3hard", ("expert-nofind", *HARD3), 120, 0),
    ("expert+3hard/seed1", ("expert", *HARD3), 120, 1),
    ("expert+3medium/seed1", ("expert", *MEDIUM3), 120, 1),
    ("hard+3medium", ("hard", *MEDIUM3), 120, 0),
    ("hard+3medium/seed1", ("hard", *MEDIUM3), 120, 1),
    ("expert+3strategist", ("expert", *STRATEGIST3), 80, 0),
    ("hard+3strategist", ("hard", *STRATEGIST3), 80, 0),
    ("expert+3strategist/seed1", ("expert", *STRATEGIST3), 80, 1),
    ("hard+3strategist/seed1", ("hard", *STRATEGIST3), 80, 1),
    ("expert+medium", ("expert", "medium"), 120, 0),
    ("hard+medium", ("hard", "medium"), 120, 0),
    ("expert+5medium", ("expert", *MEDIUM3, "medium", "medium"), 60, 0),
    ("hard+5medium", ("hard", *MEDIUM3, "medium", "medium"), 60, 0),
    ("expert-nofind+3medium", ("expert-nofind", *MEDIUM3), 120, 0),
    ("expert@24+3medium", ("expert@24", *MEDIUM3), 120, 0),
    ("expert@96+3medium", ("expert@96", *MEDIUM3), 120, 0),
)


def budget_of(name: str) -> int:
    """The simulation budget a lineup's first seat plays at (0: the hard player, no search)."""
    options = expert_options(name)
    return 0 if options is None else options.get("sims", DEFAULT_SIMS)


def is_default_expert(name: str) -> bool:
    """The shipped expert at some budget (``expert``, ``expert@SIMS``), not a variant."""
    return is_expert_name(name) and "-" not in name  # a variant's name has a dash


def run(path: Path, workers: int = 1) -> dict:
    data = json.loads(path.read_text()) if path.exists() else {}
    cells = data.setdefault("cells", {})
    data["default_sims"] = DEFAULT_SIMS
    for name, lineup, games, seed in CELLS:
        if name in cells:
            continue
        start = time.perf_counter()
        # The same games whatever the workers: each is seeded from the seed and its number.
        summary = run_arena(ArenaConfig(players=lineup, games=games, seed=seed,
                                        workers=workers))
        me = summary["players"][lineup[0]]
        cells[name] = {"players": list(lineup), "games": games, "seed": seed,
                       "sims": budget_of(lineup[0]), "win_rate": me["win_rate"],
                       "ci95": me["ci95"], "chance": 1 / len(lineup),
                       "mean_rank": me["mean_rank"],
                       "seconds": round(time.perf_counter() - start, 1)}
        print(f"{name}: {me['win_rate']:.1%} ({me['ci95'][0]:.1%} - {me['ci95'][1]:.1%}) "
              f"in {cells[name]['seconds']} s", flush=True)
        path.write_text(json.dumps(data, indent=2) + "\n")
    return data


def plot(data: dict, png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pooled: dict[int, list[float]] = {}  # sims: [wins, games], seeds pooled
    for c in data["cells"].values():
        first = c["players"][0]
        if c["players"][1:] == list(MEDIUM3) and (first == "hard" or is_default_expert(first)):
            row = pooled.setdefault(c["sims"], [0.0, 0])
            row[0] += c["win_rate"] * c["games"]
            row[1] += c["games"]
    points = []
    for sims, (wins, games) in sorted(pooled.items()):
        label = "hard" if sims == 0 else f"expert@{sims}"
        points.append((sims, wins / games, wilson(wins, games), f"{label}, {games:.0f} games"))
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    err = [[p[1] - p[2][0] for p in points], [p[2][1] - p[1] for p in points]]
    ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=4)
    for x, y, _, name in points:
        ax.annotate(f"{name}\n{y:.0%}", (x, y), textcoords="offset points",
                    xytext=(6, 6), fontsize=8)
    ax.axhline(0.25, color="grey", linestyle=":", label="chance (4 seats)")
    ax.set_xscale("symlog", linthresh=8)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(x) for x in xs])
    ax.set_xlim(-1, max(xs) * 2.5 if xs else 100)
    ax.set_xlabel("simulations per decision (0: the hard policy alone)")
    ax.set_ylabel("win rate vs 3 medium (95% Wilson)")
    ax.set_title("expert strength against budget (4 seats; seeds pooled where two ran)")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, default=Path("docs/expert_strength.json"))
    ap.add_argument("--png", type=Path, default=Path("docs/expert_strength.png"))
    ap.add_argument("--plot-only", action="store_true")
    ap.add_argument("--workers", type=int, default=1, help="processes playing each cell's games")
    args = ap.parse_args(argv)
    data = json.loads(args.json.read_text()) if args.plot_only else run(args.json, args.workers)
    plot(data, args.png)


if __name__ == "__main__":
    main()
