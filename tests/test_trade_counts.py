"""bench.trade_counts counts what the game's own log records: offers made, accepted and
received, played again from the same seeded game."""

from __future__ import annotations

from collections import Counter

from bench.trade_counts import count_game
from byapar_agents import play_through_env
from byapar_harness.arena import ArenaConfig, seat_game, table_env


def _from_log(log: list[str], seats: set[int]) -> Counter:
    """Offers made and received by ``seats`` and how many were accepted, read from the log."""
    out: Counter = Counter()
    for i, line in enumerate(log):
        if " offers seat " not in line:
            continue
        offerer = int(line.split()[1])
        target = int(line.split(" offers seat ")[1].split(":")[0])
        answer = next(x for x in log[i + 1:] if x.endswith(" the trade"))
        accepted = answer.endswith("accepts the trade")
        if offerer in seats:
            out["offers made"] += 1
            out["made and accepted"] += accepted
        if target in seats:
            out["offers received"] += 1
            out["received and accepted"] += accepted
    return out


def test_the_counts_are_the_logs() -> None:
    config = ArenaConfig(players=("hard", "medium", "medium", "medium"), games=2, seed=3,
                         rounds=20)
    for index in range(2):
        counts: Counter = Counter()
        count_game(config, index, "hard", counts)
        kinds, players, seed = seat_game(config, index)
        env = table_env(config, seed)
        play_through_env(env, players)
        logged = _from_log(env.game.log, {s for s, k in enumerate(kinds) if k == "hard"})
        assert logged["offers made"] > 0 and logged["offers received"] > 0
        for key, n in logged.items():
            assert counts[key] == n, key
        assert counts["made and accepted, completing its group"] <= counts["made and accepted"]
