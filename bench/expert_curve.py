"""The expert's strength against its simulation budget, on the same seeded games at every budget.

    python -m bench.expert_curve --out DIR [--sims 12,24,48,96,192] [--games 40] [--seed 0]
                                 [--rollout mixed] [--opponents medium]
    python -m bench.expert_curve --out DIR --summary [--json PATH] [--png PATH]

Each point is ``--games`` games of the expert at ``SIMS`` simulations a decision with three
opponents (four seats, rotated by the game's number as in the arena: ``arena.seat_game``, so
game ``i`` has the same seed, seats and dice at every budget); budget 0 is the hard player (the
policy alone) on the same games. ``--opponents``: a player name (``medium``), or ``unseen``:
three players of the generated population's evaluation seeds (``byapar_agents.population``, never
drawn by training), the same three in every game. ``--rollout`` is the expert's rollout mode
(``byapar_agents.search.ROLLOUT_MODES``). Games are played in blocks of ten, every budget in turn,
and
each game's result is appended to ``DIR/games.jsonl`` as it ends: a run started again goes on
from there. ``--summary`` prints each point's win rate over the games it played, with its 95% Wilson
interval and the hard player's win rate over the same games.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from byapar_agents import ExpertPlayer, play_through_env
from byapar_agents.network import single_thread_blas
from byapar_agents.population import evaluation_names
from byapar_harness.arena import ArenaConfig, seat_game, table_env, wilson

BLOCK = 10


def opponents(kind: str) -> tuple[str, ...]:
    return evaluation_names(3) if kind == "unseen" else (kind,) * 3


def play(sims: int, index: int, games: int, seed: int, rollout: str, kind: str) -> dict:
    """Game ``index`` with the expert at ``sims`` (0: the hard player) in the first lineup seat."""
    first = "hard" if sims == 0 else "expert@4"  # the expert's seat object is replaced below
    config = ArenaConfig(players=(first, *opponents(kind)), games=games, seed=seed)
    kinds, players, game_seed = seat_game(config, index)
    seat = kinds.index(first)
    if sims:
        players[seat] = ExpertPlayer(game_seed + seat, sims=sims, rollout=rollout)
        players[seat].reset(game_seed + seat)
    env = table_env(config, game_seed)
    play_through_env(env, players)
    winners = env.game.winners
    return {"sims": sims, "game": index, "seat": seat,
            "share": 1 / len(winners) if seat in winners else 0.0, "rounds": env.game.round}


def key(row: dict) -> tuple:
    return row["sims"], row["game"]


def run(out: Path, sims: list[int], games: int, seed: int, rollout: str, kind: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    path = out / "games.jsonl"
    setup = {"seed": seed, "rollout": rollout, "opponents": kind, "games": games}
    meta = out / "setup.json"
    if meta.exists() and json.loads(meta.read_text()) != setup:
        raise SystemExit(f"{out} holds a run with other settings: {meta.read_text()}")
    meta.write_text(json.dumps(setup) + "\n")
    done = {key(json.loads(line)) for line in path.read_text().splitlines()} \
        if path.exists() else set()
    for start in range(0, games, BLOCK):
        for s in sims:
            for i in range(start, min(start + BLOCK, games)):
                if (s, i) in done:
                    continue
                t = time.perf_counter()
                row = play(s, i, games, seed, rollout, kind)
                row["seconds"] = round(time.perf_counter() - t, 1)
                with path.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                print(json.dumps(row), flush=True)


def summary(out: Path) -> dict:
    """Each budget's win rate over the games it played, with its 95% Wilson interval, and
    the hard player's (budget 0) over the same games."""
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    setup = json.loads((out / "setup.json").read_text())
    by: dict[int, dict[int, dict]] = {}
    for r in rows:
        by.setdefault(r["sims"], {})[r["game"]] = r
    points = []
    for s in sorted(by):
        games = sorted(by[s])
        wins = sum(by[s][i]["share"] for i in games)
        n = len(games)
        hard = [by.get(0, {}).get(i) for i in games]
        hard_wins = sum(h["share"] for h in hard if h is not None)
        points.append({"sims": s, "games": n, "win_rate": wins / n if n else None,
                       "ci95": list(wilson(wins, n)),
                       "hard_same_games": hard_wins / n if n and None not in hard else None,
                       "seconds_per_game": sum(by[s][i]["seconds"] for i in games) / max(1, n)})
    return {**setup, "lineup": ["expert@SIMS (0: hard)", *opponents(setup["opponents"])],
            "points": points}


def plot(result: dict, png: Path) -> None:
    """Win rate against budget with 95% Wilson intervals; budget 0 is the hard player."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = result["points"]
    xs = [p["sims"] for p in points]
    ys = [p["win_rate"] for p in points]
    err = [[p["win_rate"] - p["ci95"][0] for p in points],
           [p["ci95"][1] - p["win_rate"] for p in points]]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=4)
    for p in points:
        ax.annotate(f"{p['win_rate']:.0%}\n({p['games']})", (p["sims"], p["win_rate"]),
                    textcoords="offset points", xytext=(4, -24), fontsize=8)
    ax.axhline(1 / len(result["lineup"]), color="grey", linestyle=":", label="chance")
    ax.set_xscale("symlog", linthresh=8)
    ax.set_xticks(xs)
    ax.set_xticklabels([str(x) for x in xs])
    ax.set_xlim(-1, max(xs) * 1.6)
    ax.set_xlabel("simulations per decision (0: the hard policy alone); (games)")
    ax.set_ylabel("win rate (95% Wilson)")
    ax.set_title(f"expert ({result['rollout']} rollouts) + 3 {result['opponents']}\n"
                 f"seed {result['seed']}, the same games", fontsize=10)
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--sims", default="12,24,48,96,192")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--rollout", default="mixed")
    ap.add_argument("--opponents", default="medium")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--json", type=Path, help="with --summary: also write it here")
    ap.add_argument("--png", type=Path, help="with --summary: also draw it here")
    args = ap.parse_args(argv)
    single_thread_blas()
    if args.summary:
        result = summary(args.out)
        for p in result["points"]:
            print(f"sims {p['sims']:>4}: {p['win_rate']:.1%} ({p['ci95'][0]:.1%} - "
                  f"{p['ci95'][1]:.1%}) of {p['games']} games (hard on the same games "
                  f"{p['hard_same_games']:.1%}), {p['seconds_per_game']:.1f} s a game")
        if args.json:
            args.json.write_text(json.dumps(result, indent=2) + "\n")
        if args.png:
            plot(result, args.png)
        return
    sims = [int(x) for x in args.sims.split(",")]
    run(args.out, [0, *sims] if 0 not in sims else sims, args.games, args.seed, args.rollout,
        args.opponents)


if __name__ == "__main__":
    main()
