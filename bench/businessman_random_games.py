"""The long random-game check of the Businessman engine (issue 27: a million games, 2 to 6 seats).

    python -m bench.businessman_random_games --out RUN_DIR [--games 1000000] [--shard 0/2]
    python -m bench.businessman_random_games --out RUN_DIR --report

Game ``i`` is seeded ``i`` and seats ``2 + i % 5`` players; a uniformly random legal action is
taken at every decision (its own ``random.Random(i)``). Each game must end within
``MAX_DECISIONS``, raise nothing, conserve money, hold no negative cash, name its winners,
pass the engine's whole-game check at its end, and save to JSON and back to the same text at
one random point and at its end (``play_checked``; ``tests/test_businessman_many_games.py`` runs
a seeded sample of it).

A shard ``k/n`` plays the ``k``-th of ``n`` equal runs of seeds. It writes its progress to
``RUN_DIR/shard-k-of-n.json`` every ``--save-every`` games (written whole, then renamed, so a
kill leaves the last save intact) and starts from there when run again: stop it at any time.
A game that fails is recorded with its seed and the error and the run goes on. ``--report``
adds up every shard file in ``RUN_DIR``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

from byapar_env.businessman import Game, Rules, board
from byapar_env.businessman.state import check_whole

MAX_DECISIONS = 100_000  # a random game takes about 1,600 decisions at 4 players
_START = board.FIGURES.starting_cash


class CheckFailed(Exception):
    """A random game broke one of the checks; the message names the game and the check."""


def players_for(seed: int) -> int:
    """The table size of game ``seed``: 2 to 6 in turn."""
    return 2 + seed % 5


def play_checked(players: int, seed: int) -> int:
    """One random game of ``players`` seats with every check; the decisions it took.
    CheckFailed (or the engine's own error) if a check fails."""
    game = Game(Rules(num_players=players), seed=seed)
    rng = random.Random(seed)
    save_at = rng.randrange(1, 400)
    decisions = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        decisions += 1
        if decisions == save_at:
            _round_trip(game, f"{players} seats, seed {seed}, decision {decisions}")
        if decisions >= MAX_DECISIONS:
            raise CheckFailed(f"{players} seats, seed {seed}: no end after {decisions:,} decisions")
    where = f"{players} seats, seed {seed}, at its end"
    if sum(game.cash) != players * _START + game.bank_paid - game.bank_received:
        raise CheckFailed(f"{where}: money not conserved")
    if min(game.cash) < 0 or not game.winners:
        raise CheckFailed(f"{where}: negative cash or no winner")
    check_whole(game)
    _round_trip(game, where)
    return decisions


def _round_trip(game: Game, where: str) -> None:
    text = game.to_json()
    if Game.from_json(text).to_json() != text:
        raise CheckFailed(f"{where}: the JSON save does not read back to the same text")


def shard_range(games: int, shard: int, shards: int) -> range:
    """The seeds of shard ``shard`` of ``shards`` equal runs of ``range(games)``."""
    return range(games * shard // shards, games * (shard + 1) // shards)


def _save(path: Path, progress: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(progress, indent=1))
    os.replace(tmp, path)


def run_shard(out: Path, games: int, shard: int, shards: int, save_every: int = 1000,
              log=print) -> dict:
    """Play (or go on playing) one shard; its progress, as saved."""
    seeds = shard_range(games, shard, shards)
    path = out / f"shard-{shard}-of-{shards}.json"
    if path.exists():
        progress = json.loads(path.read_text())
        if (progress["first"], progress["end"]) != (seeds.start, seeds.stop):
            raise SystemExit(f"{path} holds seeds {progress['first']}..{progress['end']}, not "
                             f"{seeds.start}..{seeds.stop}: use the --games it was started with")
    else:
        progress = {"first": seeds.start, "end": seeds.stop, "next": seeds.start, "games": 0,
                    "decisions": 0, "seconds": 0.0, "failures": []}
    started, since = time.perf_counter(), 0
    for seed in range(progress["next"], seeds.stop):
        try:
            progress["decisions"] += play_checked(players_for(seed), seed)
        except Exception as exc:  # noqa: BLE001 - every failure is recorded, the run goes on
            progress["failures"].append({"seed": seed, "players": players_for(seed),
                                         "error": f"{type(exc).__name__}: {exc}"})
        progress["games"] += 1
        progress["next"] = seed + 1
        since += 1
        if since == save_every or seed + 1 == seeds.stop:
            progress["seconds"] += time.perf_counter() - started
            started, since = time.perf_counter(), 0
            _save(path, progress)
            log(f"shard {shard}/{shards}: {progress['games']:,} of {len(seeds):,} games, "
                f"{len(progress['failures'])} failed, "
                f"{progress['games'] / max(progress['seconds'], 1e-9):.1f} games/s")
    return progress


def report(out: Path) -> dict:
    """The shards in ``out`` added up."""
    total = {"games": 0, "decisions": 0, "seconds": 0.0, "failures": [], "shards": 0}
    for path in sorted(out.glob("shard-*-of-*.json")):
        p = json.loads(path.read_text())
        total["shards"] += 1
        for key in ("games", "decisions", "seconds"):
            total[key] += p[key]
        total["failures"] += p["failures"]
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="the run folder (progress files)")
    ap.add_argument("--games", type=int, default=1_000_000, help="games over all shards")
    ap.add_argument("--shard", default="0/1", help="K/N: play the K-th of N equal seed runs")
    ap.add_argument("--save-every", type=int, default=1000, help="games between saves")
    ap.add_argument("--report", action="store_true", help="add up the shards in --out and stop")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.report:
        try:
            shard, shards = (int(x) for x in args.shard.split("/"))
        except ValueError:
            ap.error(f"--shard must be K/N with whole numbers, got {args.shard!r}")
        if not (shards >= 1 and 0 <= shard < shards) or args.games < 1 or args.save_every < 1:
            ap.error("--shard K/N needs 0 <= K < N; --games and --save-every at least 1")
        run_shard(args.out, args.games, shard, shards, args.save_every)
    t = report(args.out)
    print(f"{t['games']:,} games in {t['shards']} shard(s), {t['decisions']:,} decisions, "
          f"{len(t['failures'])} failed; {t['seconds'] / 3600:.2f} core-hours")
    for f in t["failures"][:20]:
        print(f"  seed {f['seed']} ({f['players']} seats): {f['error']}")
    return 1 if t["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
