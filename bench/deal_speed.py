"""What trading by the deal module costs a game site: the hard player's time per decision in
played games, every decision and those that trade, beside the previous release's player.

    python -m bench.deal_speed [--games 8] [--repeats 3] [--seed 0] [--players hard,hard-guarded]

Plays the arena's games of each player against three of a rival (``--rivals``: the medium
player and a seen outside trader, which offers swaps), times every one of its decisions, and
prints per player: the median and mean of all decisions, the 99th percentile and the slowest,
the mean of its answers to offers and of its decisions before rolling, and the ratio of its mean
to the baseline's (the last of ``--players``, by default ``hard-guarded``, run beside it on the
same games). Each figure is the median over ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import statistics
import time

from byapar_agents import play_through_env
from byapar_agents.network import single_thread_blas
from byapar_env.engine import Phase
from byapar_harness.arena import ArenaConfig, seat_game, table_env

PLAYERS = ("hard", "hard-guarded")
RIVALS = ("medium", "outside-chrisaacson-trading")


class _Timed:
    """Wraps a player: times each ``act`` call, by the phase it was asked in."""

    def __init__(self, player, times: dict) -> None:
        self.player, self.times = player, times

    def reset(self, seed=None) -> None:
        if hasattr(self.player, "reset"):
            self.player.reset(seed)

    def act(self, env, seat: int) -> int:
        phase = env.game.phase
        start = time.perf_counter()
        i = self.player.act(env, seat)
        took = time.perf_counter() - start
        self.times["all"].append(took)
        if phase == Phase.TRADE_ANSWER:
            self.times["answers"].append(took)
        elif phase == Phase.PRE_ROLL:
            self.times["pre-roll"].append(took)
        return i


def time_player(name: str, rival: str, games: int, seed: int) -> dict:
    """Seconds of ``name``'s decisions over ``games`` games against three ``rival``."""
    times: dict = {"all": [], "answers": [], "pre-roll": []}
    config = ArenaConfig(players=(name, rival, rival, rival), games=games, seed=seed)
    for index in range(games):
        kinds, players, game_seed = seat_game(config, index)
        players = [_Timed(p, times) if k == name else p for k, p in zip(kinds, players,
                                                                          strict=True)]
        play_through_env(table_env(config, game_seed), players)
    ordered = sorted(times["all"])
    return {"median": statistics.median(ordered), "mean": statistics.fmean(ordered),
            "p99": ordered[int(0.99 * (len(ordered) - 1))], "max": ordered[-1],
            "answers": statistics.fmean(times["answers"] or [0.0]),
            "pre-roll": statistics.fmean(times["pre-roll"] or [0.0]),
            "decisions": len(ordered)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8, help="games per player, rival and run")
    ap.add_argument("--repeats", type=int, default=3, help="runs; each figure is their median")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rivals", default=",".join(RIVALS), help="comma-separated rival names")
    ap.add_argument("--players", default=",".join(PLAYERS),
                    help="comma-separated players timed; the last is the baseline")
    args = ap.parse_args(argv)
    players = args.players.split(",")
    single_thread_blas()
    for rival in args.rivals.split(","):
        runs = {name: [time_player(name, rival, args.games, args.seed)
                       for _ in range(args.repeats)] for name in players}
        base = statistics.median(r["mean"] for r in runs[players[-1]])
        for name in players:
            med = {k: statistics.median(r[k] for r in runs[name]) for k in runs[name][0]}
            print(f"{name} against three {rival}: median {med['median'] * 1e3:.2f} ms, mean "
                  f"{med['mean'] * 1e3:.2f} ms ({med['mean'] / base:.2f}x {players[-1]}), "
                  f"99th percentile {med['p99'] * 1e3:.1f} ms, slowest {med['max'] * 1e3:.0f} "
                  f"ms; answers {med['answers'] * 1e3:.2f} ms, before rolling "
                  f"{med['pre-roll'] * 1e3:.2f} ms ({int(med['decisions'])} decisions, "
                  f"median of {args.repeats} runs)")


if __name__ == "__main__":
    main()
