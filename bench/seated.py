"""One seat's share of the arena's games, its table's players adapted first: the benches that
change one player or wrap its rivals (``bench.hard_rules``, ``bench.clique_table``) play the
arena's own games this way, so every variant meets the same seats, seeds and dice."""

from __future__ import annotations

from collections.abc import Callable

from byapar_agents import make_agent, play_through_env
from byapar_env.engine import Game
from byapar_harness.arena import ArenaConfig, lineup_seat, seat_game, table_env

# (the arena's seated players, the watched seat, the game's seed) -> the players that play
Adapt = Callable[[list, int, int], list]


def hero_share(lineup: tuple[str, ...], index: int, seed: int, adapt: Adapt,
               finished: Callable[[Game, int], None] | None = None) -> float:
    """The share of the arena's game ``index`` (run seed ``seed``, seats rotated) won by the
    seat of ``lineup[0]``, the table played by ``adapt(players, seat, game_seed)``; with
    ``finished``, ``finished(game, seat)`` is told the game once it is over."""
    config = ArenaConfig(players=lineup, games=index + 1, seed=seed)
    _, players, game_seed = seat_game(config, index)
    me = lineup_seat(config, index)
    env = table_env(config, game_seed)
    play_through_env(env, adapt(players, me, game_seed))
    if finished is not None:
        finished(env.game, me)
    winners = env.game.winners
    return 1 / len(winners) if me in winners else 0.0


def check_opponents(opponents: list[str]) -> None:
    """ValueError unless ``opponents`` (a lineup's rivals) names 1 to 5 players, each one a
    player name ``make_agent`` knows (its own error names one that is not)."""
    if not 1 <= len(opponents) <= 5:
        raise ValueError(f"--opponents must name 1 to 5 players, got {len(opponents)}")
    for name in set(opponents):
        make_agent(name)
