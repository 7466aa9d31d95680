"""Do the two trainers learn alike? The same budget, from scratch, each trainer, side by side.

    python -m bench.trainer_parity [--steps 65536] [--games 400] [--seeds 0,1] [--json FILE]

Each run is the real ``byapar train`` from a fresh network (no imitation warm start), at
heads-up tables against the random player, for ``--steps`` learner steps, once with
``--trainer sb3`` (MaskablePPO, 2 environments in 2 processes) and once with
``--trainer compact`` (64 games in one process), the PPO settings otherwise the defaults. Each
final policy then plays ``--games`` heads-up games against the random player (seed 17, seats
rotated); the untrained network's rate on the same games is the starting point. Learning alike
means both rise from that start, to rates within each other's intervals.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path


def one_run(trainer: str, steps: int, seed: int, games: int) -> dict:
    from byapar_harness.arena import ArenaConfig, run_arena
    from byapar_training.checks import fit_to_budget
    from byapar_training.config import Config
    from byapar_training.selfplay import train

    envs, workers = (64, 1) if trainer == "compact" else (2, 2)
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(run_dir=str(Path(tmp) / "run"), trainer=trainer, total_steps=steps,
                        seed=seed, n_envs=envs, n_workers=workers, n_steps=4096 // envs,
                        batch_size=512, imitation_games=0, league="random", latest_share=0.0,
                        pool_window=0, table_sizes=(2,), save_every=10**9, eval_every=10**9,
                        eval_games=1, eval_tables="random:1")
        # As byapar train does: a budget under one rollout (4,096 decisions) shrinks the
        # rollout, so that the run trains the steps it names, no more.
        config, _ = fit_to_budget(config, frozenset({"imitation_games", "eval_games"}))
        start = time.time()
        run = train(config)
        seconds = time.time() - start
        pool = sorted((run / "pool").iterdir())

        def rate(folder: Path) -> dict:
            summary = run_arena(ArenaConfig(players=(str(folder), "random"), games=games,
                                            seed=17))
            me = summary["players"][str(folder)]
            return {"win_rate": me["win_rate"], "ci95": me["ci95"], "games": me["games"],
                    "policy_steps": int(folder.name.removeprefix("step_"))}

        return {"trainer": trainer, "seed": seed, "steps": steps, "seconds": round(seconds, 1),
                "start": rate(pool[0]), "end": rate(pool[-1])}


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=65_536, help="learner steps per run")
    ap.add_argument("--games", type=int, default=400, help="evaluation games per policy")
    ap.add_argument("--seeds", default="0,1", help="comma-separated training seeds")
    ap.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    args = ap.parse_args(argv)
    results = []
    for seed in (int(s) for s in args.seeds.split(",")):
        for trainer in ("sb3", "compact"):
            r = one_run(trainer, args.steps, seed, args.games)
            results.append(r)
            lo, hi = r["end"]["ci95"]
            print(f"{trainer:8s} seed {seed}: vs random heads-up {r['start']['win_rate']:.1%} "
                  f"untrained -> {r['end']['win_rate']:.1%} ({lo:.1%}-{hi:.1%}) after "
                  f"{args.steps:,} steps, {r['seconds']:.0f} s", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
