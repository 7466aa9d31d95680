"""``byapar evaluate AGENT``: how your agent compares, the way to report a result.

    byapar evaluate my_agent:act                      # a function (observation, mask) -> id
    byapar evaluate runs/mine/pool/step_000300000     # a checkpoint folder
    byapar evaluate hard --game businessman --json hard.json --plot hard.png

The agent (a player name, a checkpoint folder, or ``module:callable``) plays the gauntlet
(``byapar_harness.gauntlet``): against each opponent, with copies of it in every other seat, at
2, 4 and 6 seats, seats rotated, every game seeded from ``--seed`` and its number. For Byapar
the opponents are the gauntlet's four groups: the levels and the panel and the two outside
players training may use (seen), the outside players and the population's evaluation seeds no
training may use (unseen); for Businessman its levels. The report gives every cell's win rate
with its 95% Wilson interval as a multiple of chance, and the worst case first: over the unseen
groups, then the seen, at each table size. With ``--json`` each finished cell is written at
once and the same command goes on from there; ``--plot`` draws the cells.

The figures are the gauntlet's own: ``byapar evaluate hard`` gives, cell for cell, what
``byapar gauntlet hard --groups all`` gives with the same games and seed. On top of them, the
agent's **rating** on one scale with the shipped levels (``byapar_harness.rating_scale``),
from its cells against the levels, in the report, the JSON (``rating``) and the plot.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from byapar_env.games import find_game

from .gauntlet import (
    DEFAULT_POPULATION,
    GROUP_NAMES,
    GauntletConfig,
    format_gauntlet,
    run_gauntlet,
    worst_line,
    write_json,
)
from .rating_scale import format_rating, rate_cells

DEFAULT_GAMES = 100  # per cell: 60 cells for Byapar at three sizes, 6,000 games
# Each game's opponents, by the game's name: Byapar's gauntlet groups (seen and unseen apart),
# or a list of opponents for a game without groups.
EVALUATION_GROUPS: dict[str, tuple[str, ...]] = {"byapar": GROUP_NAMES, "businessman": ()}
EVALUATION_OPPONENTS: dict[str, tuple[str, ...]] = {
    "businessman": ("random", "easy", "medium", "hard")}


@dataclass(frozen=True)
class EvaluateConfig:
    agent: str
    game: str = "byapar"
    games: int = DEFAULT_GAMES
    seed: int = 0
    workers: int = 1
    sizes: tuple[int, ...] = (2, 4, 6)
    population: int = DEFAULT_POPULATION

    def gauntlet(self) -> GauntletConfig:
        """The gauntlet this evaluation plays."""
        spec = find_game(self.game)
        common = dict(player=self.agent, sizes=self.sizes, games=self.games, seed=self.seed,
                      workers=self.workers, rounds=spec.default_rounds, game=spec.name)
        groups = EVALUATION_GROUPS[spec.name]
        if groups:
            return GauntletConfig(groups=groups, population=self.population, **common)
        return GauntletConfig(opponents=EVALUATION_OPPONENTS[spec.name], **common)


def run_evaluation(config: EvaluateConfig, json_path: str | None = None,
                   progress: Callable[[str], None] | None = None) -> dict:
    """Play every cell (going on from ``json_path``'s finished cells) and summarise; each
    finished cell is reported to ``progress`` with the cells left and the time they should
    take."""
    gauntlet = config.gauntlet()
    total = len(gauntlet.cells()) + len(gauntlet.mixed_tables())
    done, start = [0], time.perf_counter()

    def report(line: str) -> None:
        done[0] += 1
        left = total - done[0]
        spent = time.perf_counter() - start
        eta = spent / done[0] * left
        progress(f"[{done[0]}/{total}] {line}; about {eta:,.0f} s left")

    result = run_gauntlet(gauntlet, json_path, report if progress else None)
    result["rating"] = rate_cells(gauntlet.game, result["cells"])
    if json_path:
        write_json(json_path, result)
    return result


def format_evaluation(config: EvaluateConfig, result: dict) -> str:
    """The report: the worst cases (unseen first) and the rating, then every cell."""
    lines = [f"evaluation of {config.agent} ({config.game}): {config.games} games a cell, "
             f"seats rotated, seed {config.seed}"]
    worst = [("worst_unseen", "UNSEEN worst case"), ("worst_seen", "seen worst case")]
    if "worst_unseen" not in result:
        worst = [("worst", "worst case")]
    for name, what in worst:
        for n, w in result.get(name, {}).items():
            lines.append(worst_line(what, n, w))
    lines += [format_rating(result.get("rating")), "", format_gauntlet(config.gauntlet(), result)]
    return "\n".join(lines)


def plot_evaluation(config: EvaluateConfig, result: dict, path: str) -> None:
    """A chart of every cell's multiple of chance with its interval, one panel a table size,
    and below them the rating among the levels'."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = config.sizes
    fig = plt.figure(figsize=(5 * len(sizes), 8))
    grid = fig.add_gridspec(2, len(sizes), height_ratios=(5, 1.2))
    for i, n in enumerate(sizes):
        ax = fig.add_subplot(grid[0, i])
        cells = [c for c in result["cells"].values() if c["size"] == n]
        names = [c["opponent"] for c in cells]
        values = [c["multiple"] for c in cells]
        low = [c["multiple"] - c["multiple_ci95"][0] for c in cells]
        high = [c["multiple_ci95"][1] - c["multiple"] for c in cells]
        ax.barh(names, values, xerr=[low, high], color="#4C72B0")
        ax.axvline(1.0, color="black", linewidth=1)
        ax.set_title(f"{n} seats")
        ax.set_xlabel("win rate / chance (95% interval)")
    _plot_rating(fig.add_subplot(grid[1, :]), config, result.get("rating"))
    fig.suptitle(f"{config.agent} ({config.game}): games per cell {config.games}, "
                 f"seed {config.seed}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _plot_rating(ax, config: EvaluateConfig, rating: dict | None) -> None:
    """The levels' ratings as marks on a line, the agent's as a point with its interval (an
    open end drawn to the panel's edge)."""
    ax.set_yticks([])
    ax.set_xlabel("rating (400 points: ten times the odds of winning)")
    if rating is None:
        ax.set_title("rating: no cell against the levels")
        return
    levels = rating["levels"]
    for i, (name, value) in enumerate(levels.items()):
        ax.axvline(value, color="grey", linewidth=1)
        # neighbours' names at two heights, so that two close ratings keep both names
        ax.annotate(name, (value, 0.95 - 0.2 * (i % 2)), xycoords=("data", "axes fraction"),
                    ha="center", va="top", fontsize=9,
                    bbox={"facecolor": "white", "edgecolor": "none"})
    low, high = rating["ci95"]
    known = [*levels.values(), *(x for x in (low, high, rating["rating"]) if x is not None)]
    left, right = min(known) - 100, max(known) + 100
    ax.set_xlim(left, right)
    start = left if low is None else low
    end = right if high is None else high
    ax.plot([start, end], [0.4, 0.4], color="#C44E52", linewidth=3)
    if rating["rating"] is not None:
        ax.plot([rating["rating"]], [0.4], "o", color="#C44E52")
    ax.set_ylim(0, 1)
    ax.set_title(f"{config.agent}'s {format_rating(rating).split(', from')[0]}")
