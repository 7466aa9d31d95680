"""Time per decision of a learned player (numpy forward pass and masked argmax).

    python -m bench.hard_speed [--checkpoint byapar_checkpoints/hard] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from byapar_agents.hard import DEFAULT_CHECKPOINT
from byapar_agents.network import load_checkpoint
from byapar_env import byapar_v0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", default=str(DEFAULT_CHECKPOINT))
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    policy, _ = load_checkpoint(args.checkpoint)
    env = byapar_v0.raw_env(num_players=4)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    samples = []
    for _ in range(500):
        o = env.observe(env.agent_selection)
        samples.append((o["observation"], o["action_mask"]))
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    runs = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for obs, mask in samples:
            policy.act(obs, mask)
        runs.append((time.perf_counter() - start) / len(samples))
    print(f"learned player {args.checkpoint}: {statistics.median(runs) * 1e6:.1f} us per "
          f"decision (median of {args.repeats} runs of {len(samples)} decisions; forward pass "
          "and masked argmax, observation not included)")


if __name__ == "__main__":
    main()
