"""``byapar evaluate AGENT``: how your agent compares, the way to report a result.

    byapar evaluate my_agent:act                      # a function (observation, mask) -> id
    byapar evaluate runs/mine/checkpoints/step_..     # a checkpoint folder
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
``byapar gauntlet hard --groups all`` gives with the same games and seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from byapar_env.games import find_game

from .gauntlet import DEFAULT_POPULATION, GROUP_NAMES, GauntletConfig, run_gauntlet

DEFAULT_GAMES = 100  # per cell: 57 cells for Byapar at three sizes, about 6,000 games
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

    return run_gauntlet(gauntlet, json_path, report if progress else None)


def plot_evaluation(config: EvaluateConfig, result: dict, path: str) -> None:
    """A chart of every cell's multiple of chance with its interval, one panel a table size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = config.sizes
    fig, axes = plt.subplots(1, len(sizes), figsize=(5 * len(sizes), 6), squeeze=False)
    for ax, n in zip(axes[0], sizes, strict=True):
        cells = [c for c in result["cells"].values() if c["size"] == n]
        names = [c["opponent"] for c in cells]
        values = [c["multiple"] for c in cells]
        low = [c["multiple"] - c["multiple_ci95"][0] for c in cells]
        high = [c["multiple_ci95"][1] - c["multiple"] for c in cells]
        ax.barh(names, values, xerr=[low, high], color="#4C72B0")
        ax.axvline(1.0, color="black", linewidth=1)
        ax.set_title(f"{n} seats")
        ax.set_xlabel("win rate / chance (95% interval)")
    fig.suptitle(f"{config.agent} ({config.game}): games per cell {config.games}, "
                 f"seed {config.seed}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
