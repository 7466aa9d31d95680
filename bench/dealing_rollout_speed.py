"""What rivals that trade among themselves cost the search: one-round rollouts of the ``dealing``
mode (``byapar_agents.search``; the expert's ``expert-dealing``) against the default ``mixed``
mode, timed alternately on the same positions in one process.

    python -m bench.dealing_rollout_speed [--seats 4] [--rollouts 240] [--repeats 5]

The positions are 12 seeded games of medium players at the start of round 10 (``--seats`` each);
each run plays ``--rollouts`` of them (rollout seed k from every position in turn, the value
network at the horizon, as the expert plays them). A mode's figure is the median over
``--repeats`` runs; printed beside it, the ratio of the medians.
"""

from __future__ import annotations

import argparse
import statistics
import time

from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.medium import MediumPlayer
from byapar_agents.search import Rollouts, search_root
from byapar_env.engine import Game, Rules
from byapar_env.fast_play import play_on

POSITIONS = 12
ROUND = 10
MODES = ("mixed", "dealing")


def positions(seats: int) -> list[Game]:
    out, seed = [], 0
    while len(out) < POSITIONS:
        game = Game(Rules(num_players=seats), seed=seed)
        play_on(game, [MediumPlayer() for _ in range(seats)], (ROUND, 0))
        if not game.is_over:
            out.append(search_root(game))
        seed += 1
    return out


def run(runners: list[Rollouts], rollouts: int) -> float:
    """Milliseconds a rollout over ``rollouts`` rollouts, the positions in turn."""
    start = time.perf_counter()
    for k in range(rollouts):
        runners[k % len(runners)].run(None, 1_000 + k)
    return 1000 * (time.perf_counter() - start) / rollouts


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seats", type=int, default=4, choices=range(2, 7), help="table size")
    ap.add_argument("--rollouts", type=int, default=240, help="rollouts a run")
    ap.add_argument("--repeats", type=int, default=5, help="runs of each mode (medians)")
    args = ap.parse_args(argv)
    hard = LearnedPlayer(DEFAULT_CHECKPOINT)
    policy = hard.policy_for(args.seats)
    roots = positions(args.seats)
    runners = {mode: [Rollouts(r, r.current_player, 0, 1, mode, policy, hard.value)
                      for r in roots] for mode in MODES}
    times: dict[str, list[float]] = {mode: [] for mode in MODES}
    for _ in range(args.repeats):
        for mode in MODES:  # alternating, so both meet the same load
            times[mode].append(run(runners[mode], args.rollouts))
    medians = {mode: statistics.median(t) for mode, t in times.items()}
    for mode in MODES:
        print(f"{mode:8s} {medians[mode]:6.2f} ms a one-round rollout ({args.seats} seats, "
              f"median of {args.repeats})")
    print(f"dealing / mixed: {medians['dealing'] / medians['mixed']:.2f}x")


if __name__ == "__main__":
    main()
