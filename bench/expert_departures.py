"""Where the expert leaves the hard player's choice, by phase and kind of move: what its search
would teach the fast player (issue 39, item 4; docs/expert_iteration.md, "The search's
departures, as rules").

    python -m bench.expert_departures --opponents medium,medium,medium --games 40 --seed 0

The expert (``--player``, any expert name) plays the first seat of ``byapar arena``'s games:
seats rotated, game ``i`` seeded from ``--seed`` and ``i`` alone. At each decision it searched
(two candidates or more), its first candidate is the hard player's choice (the deal module's
or the policy's); a departure is a decision where the search chose another. The report counts
searched decisions by phase and the kind of the hard player's choice, then the departures by
that, the kind of the move chosen instead and where that candidate came from (the policy's
runners-up, the rollout player, the trade finder). Measure on seen opponents only.
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field

from bench.seated import hero_share
from byapar_agents import is_expert_name, make_agent
from byapar_agents.expert import Evaluation, ExpertPlayer
from byapar_env.engine import Phase
from byapar_harness.arena import worker_pool

# (phase, the hard player's kind of move) and (phase, its kind, the chosen kind, the source)
Searched = tuple[str, str]
Departure = tuple[str, str, str, str]


@dataclass
class Departures:
    """The searched decisions and the departures of some games, and the hero's wins."""

    searched: Counter = field(default_factory=Counter)
    departed: Counter = field(default_factory=Counter)
    games: int = 0
    wins: float = 0.0

    def record(self, phase: Phase, evaluation: Evaluation | None) -> None:
        """Count one decision: nothing unless it was searched (two candidates or more)."""
        if evaluation is None or len(evaluation.candidates) < 2:
            return
        base = evaluation.candidates[0].action.kind.name
        self.searched[phase.name, base] += 1
        if evaluation.choice != 0:
            chosen = evaluation.candidates[evaluation.choice]
            self.departed[phase.name, base, chosen.action.kind.name, chosen.source] += 1

    def merge(self, other: Departures) -> None:
        self.searched.update(other.searched)
        self.departed.update(other.departed)
        self.games += other.games
        self.wins += other.wins


def play(lineup: tuple[str, ...], index: int, seed: int) -> Departures:
    """Game ``index`` of the arena's run of ``lineup``, whose first player (an expert) has its
    decisions counted."""
    out = Departures(games=1)

    def watch(players: list, me: int, game_seed: int) -> list:
        hero: ExpertPlayer = players[me]
        search = hero.choose

        def choose(game, seat, legal):
            phase = Phase(game.phase)
            action = search(game, seat, legal)
            out.record(phase, hero.last)
            return action

        hero.choose = choose
        return players

    out.wins = hero_share(lineup, index, seed, watch)
    return out


def _play(args: tuple) -> Departures:
    return play(*args)


def report(d: Departures, top: int = 20) -> list[str]:
    """The report's lines: the hero's share of the wins, the searched decisions, the
    departures most frequent first."""
    lines = [f"{d.games} games, the expert's share of the wins {d.wins / max(1, d.games):.1%}",
             "searched (phase, the hard player's move): count, departures"]
    for (phase, base), n in sorted(d.searched.items()):
        gone = sum(v for k, v in d.departed.items() if k[:2] == (phase, base))
        lines.append(f"  {phase:<13} {base:<16} {n:>6} {gone:>6}")
    lines.append("departures (phase, the hard player's move -> the move chosen, from)")
    for (phase, base, chosen, source), n in d.departed.most_common(top):
        lines.append(f"  {n:>5}  {phase:<13} {base:<16} -> {chosen:<16} {source}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--player", default="expert", help="the expert to watch (an expert name)")
    ap.add_argument("--opponents", default="medium,medium,medium",
                    help="comma-separated opponents, 1 to 5 (seen ones)")
    ap.add_argument("--games", type=int, default=40, help="games (at least 1)")
    ap.add_argument("--seed", type=int, default=0, help="the run's seed, as the arena's")
    ap.add_argument("--workers", type=int, default=1, help="processes (the same counts for any)")
    args = ap.parse_args(argv)
    opponents = tuple(args.opponents.split(","))
    if not 1 <= len(opponents) <= 5:
        ap.error(f"--opponents must name 1 to 5 players, got {len(opponents)}")
    if args.games < 1 or args.workers < 1:
        ap.error(f"--games and --workers must be at least 1, got {args.games} and {args.workers}")
    if not is_expert_name(args.player):
        ap.error(f"--player must name an expert (expert, expert@SIMS, ...), got {args.player!r}")
    try:
        for name in {args.player, *opponents}:
            make_agent(name)
    except ValueError as exc:
        ap.error(str(exc))
    jobs = [((args.player, *opponents), i, args.seed) for i in range(args.games)]
    total = Departures()
    if args.workers == 1:
        parts = [_play(job) for job in jobs]
    else:
        with worker_pool(args.workers) as pool:
            parts = pool.map(_play, jobs)
    for part in parts:
        total.merge(part)
    print(f"{args.player} + {', '.join(opponents)}: seed {args.seed}, seats rotated")
    print("\n".join(report(total)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
