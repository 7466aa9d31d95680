"""Search's unit of work: one-round rollouts a second on one core, beside the code before the
search-speed work, in the same run.

    python -m bench.rollout_speed [--rollouts 1200] [--repeats 5] [--baseline COMMIT|none]

A one-round rollout (``byapar_agents.search.Rollouts.run``, horizon one round, medium in every seat)
clones a mid-game position, reseeds its chance and plays every seat's turn, then scores the
position. The positions are 12 seeded four-seat games of medium players at the start of round
12. Each run plays ``--rollouts`` of them (rollout seed k from every position in turn), timed in
chunks of 120; a run's figure is its median chunk, and the figure printed the median over
``--repeats`` runs.

The baseline is the same measurement of the tree at ``--baseline`` (default ``BASELINE``, the
last commit before this work), extracted with ``git archive`` into a temporary folder and run in
its own process, alternating with the current tree's runs so that both meet the same load. It
needs a git checkout; ``--baseline none`` skips it. Also printed: ``Game.clone()`` of a
mid-game position with a long log, and the expert's simulations a decision within 100 ms and
300 ms (the mean over 8 of the positions), before and after, and now on two worker processes
(``ExpertPlayer(workers=2)``, which the code before did not have).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from pathlib import Path

BASELINE = "4ab05cb"  # main before issue 38 (search speed)
POSITIONS = 12
CHUNK = 120  # rollouts timed together: ten from each position
ROUND = 12
# The baseline's folders that installed under other names (before every folder was named as
# it is imported): linked under those names so that the baseline imports as it did.
_PACKAGE_DIRS = {"agents": "byapar_agents", "training": "byapar_training",
                 "checkpoints": "byapar_checkpoints", "serve": "byapar_serve"}


def _roots() -> list:
    from byapar_agents.medium import MediumPlayer
    from byapar_agents.search import search_root
    from byapar_env.driver import SeatDriver
    from byapar_env.engine import Game, Rules

    roots = []
    for seed in range(POSITIONS):
        game = Game(Rules(num_players=4), seed=seed)
        driver = SeatDriver.for_game(game)
        players = [MediumPlayer() for _ in range(4)]
        for s, p in enumerate(players):
            p.reset(seed + s)
        while game.round < ROUND and (legal := driver.engine_choices()):
            seat = game.current_player
            driver.take_engine(players[seat].choose(game, seat, legal))
        roots.append(search_root(game))
    return roots


def measure(rollouts: int, expert: bool = True) -> dict:
    """One run in this process: rollouts a second, clone microseconds, and (with ``expert``)
    the expert's simulations."""
    from byapar_agents import make_agent
    from byapar_agents.search import Rollouts

    roots = _roots()
    runners = [Rollouts(r, r.current_player, horizon_rounds=1, mode="medium") for r in roots]
    # Timed in chunks of CHUNK rollouts; the run's figure is the median chunk (a shared
    # machine's bursts of load then move it less).
    rates = []
    for first in range(0, rollouts, CHUNK):
        start = time.perf_counter()
        for k in range(first, min(first + CHUNK, rollouts)):
            runners[k % POSITIONS].run(None, k // POSITIONS)
        rates.append((min(first + CHUNK, rollouts) - first) / (time.perf_counter() - start))
    per_second = statistics.median(rates)
    long_game = roots[0].clone()
    long_game.log = [f"line {i}" for i in range(700)]  # a long game's log, as a site holds
    clone_us = min(timeit.repeat(long_game.clone, number=2000, repeat=3)) / 2000 * 1e6
    if not expert:
        return {"rollouts_per_s": per_second, "clone_us": clone_us}
    sims = {}
    make_agent("expert", sims=8).evaluate(roots[-1], 0)  # times a simulation for the budget
    for ms in (100, 300):
        expert = make_agent("expert", budget_ms=ms)
        counts = [expert.evaluate(r, 0, seed=i).sims for i, r in enumerate(roots[:8])]
        sims[ms] = statistics.mean(counts)
    out = {"rollouts_per_s": per_second, "clone_us": clone_us,
           "sims_100ms": sims[100], "sims_300ms": sims[300]}
    from byapar_agents.expert import ExpertPlayer

    if "workers" in inspect.signature(ExpertPlayer).parameters:  # the tree has worker search
        from byapar_agents.network import single_thread_blas

        single_thread_blas()  # as the commands that play: one thread a process
        ExpertPlayer(sims=8, workers=2).evaluate(roots[-1], 0)  # the workers are up
        for ms in (100, 300):
            expert = ExpertPlayer(budget_ms=ms, workers=2)
            out[f"sims_{ms}ms_2w"] = statistics.mean(
                expert.evaluate(r, 0, seed=i).sims for i, r in enumerate(roots[:8]))
    return out


def _baseline_tree(commit: str, into: Path) -> Path:
    """The tree at ``commit`` under ``into``, with the folders that install under other names
    linked by those names; the folder to put first on ``PYTHONPATH``."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(["git", "-C", str(root), "archive", commit], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-xf", "-", "-C", str(into)], input=archive, check=True)
    names = into / "_names"
    names.mkdir()
    for folder, name in _PACKAGE_DIRS.items():
        (names / name).symlink_to(into / folder)
    return names


def _run_worker(rollouts: int, tree: Path | None, expert: bool) -> dict:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(tree), str(tree.parent)])
    command = [sys.executable, __file__, "--worker", str(rollouts)]
    if not expert:
        command.append("--no-expert")
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=1200, help="rollouts a run")
    ap.add_argument("--repeats", type=int, default=5, help="runs of each tree (medians)")
    ap.add_argument("--baseline", default=BASELINE,
                    help="the commit to compare with, or none (default: %(default)s)")
    ap.add_argument("--no-expert", dest="expert", action="store_false",
                    help="leave out the expert's simulations (seconds a run)")
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker is not None:
        print(json.dumps(measure(args.worker, args.expert)))
        return
    runs: dict[str, list[dict]] = {"now": [], "before": []}
    with tempfile.TemporaryDirectory() as tmp:
        tree = None if args.baseline == "none" else _baseline_tree(args.baseline, Path(tmp))
        for i in range(args.repeats):
            runs["now"].append(_run_worker(args.rollouts, None, args.expert))
            if tree is not None:
                runs["before"].append(_run_worker(args.rollouts, tree, args.expert))
            print(f"  run {i + 1}/{args.repeats}", file=sys.stderr, flush=True)
    print(f"one-round rollouts, 4 medium seats, {POSITIONS} mid-game positions, "
          f"{args.rollouts} a run, medians of {args.repeats} runs, one core")
    # (key, label, format, whether more is better): the speed-up is always above 1 when faster.
    keys = (("rollouts_per_s", "rollouts/s", "{:,.0f}", True),
            ("clone_us", "clone (us)", "{:.1f}", False),
            ("sims_100ms", "expert sims in 100 ms", "{:.1f}", True),
            ("sims_300ms", "expert sims in 300 ms", "{:.1f}", True),
            ("sims_100ms_2w", "  100 ms, 2 workers", "{:.1f}", True),
            ("sims_300ms_2w", "  300 ms, 2 workers", "{:.1f}", True))
    print(f"  {'':24}{'now':>10}{'before':>10}{'speed-up':>10}")
    for key, label, fmt, more in keys:
        if key not in runs["now"][0]:
            continue
        now = statistics.median(r[key] for r in runs["now"])
        line = f"  {label:24}{fmt.format(now):>10}"
        if runs["before"] and key in runs["before"][0]:
            before = statistics.median(r[key] for r in runs["before"])
            ratio = (now / before if more else before / now) if before and now else float("nan")
            line += f"{fmt.format(before):>10}{ratio:>9.2f}x"
        print(line)


if __name__ == "__main__":
    if "--worker" in sys.argv:  # run by path: the package on sys.path is the one measured
        sys.path.remove(str(Path(__file__).resolve().parent))
    main()
