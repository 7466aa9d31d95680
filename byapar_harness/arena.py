"""The arena: computer players against each other, with honest statistics.

    byapar arena --players medium,easy,easy,random --games 2000 --seed 0 --workers 2
    byapar arena --game businessman --players medium,easy,easy,easy --rounds 20

Seats rotate from game to game (game ``g`` seats the lineup shifted by ``g mod n``), and every
game's seed is derived from ``--seed`` and the game's number alone, so results are the same for
any number of workers. Win rates count a shared win as its share and carry a 95% Wilson interval;
an OpenSkill (Plackett-Luce) rating per player kind is fitted over the games in order.
"""

from __future__ import annotations

import os
import random
import signal
import statistics
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context

from byapar_agents.network import single_thread_blas
from byapar_agents.seating import table_env as rules_env
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Game
from byapar_env.engine.board import FIGURES
from byapar_env.games import GAMES, GameSpec, available_games, find_game
from byapar_env.stats import wilson

from .arena_errors import ArenaError
from .arena_ray import run_ranges  # Ray itself is imported only by a run on it

# Every game's result is kept until the end (the ratings are fitted over the games in order),
# about a kilobyte each: a million games is hours of play and about a gigabyte, and a bigger
# run is far more likely a typo than a plan.
MAX_GAMES = 1_000_000
# Seeds from 0 up: random.Random folds a negative seed onto its absolute value, so --seed -1
# would replay the games of --seed 1. The top is the largest signed 64-bit integer, so that the
# seed in the JSON output reads back exactly in other languages too.
MAX_SEED = 2**63 - 1
# ``ArenaConfig.rounds`` by default: the round limit of the game's own default table.
GAME_DEFAULT_ROUNDS = "the game's default"


def max_workers() -> int:
    """The most worker processes a run may ask for: four per core, and never more than 64
    (more processes than that only share the same cores and the memory)."""
    return min(64, 4 * max(os.cpu_count() or 1, 1))


@dataclass(frozen=True)
class ArenaConfig:
    players: tuple[str, ...] = ("hard", "medium", "easy", "random")
    games: int = 400
    seed: int = 0
    workers: int = 1
    # The round limit (None: until one player is left); by default the game's own (Byapar 40,
    # Businessman 20: ``GameSpec.default_rounds``).
    rounds: int | None | str = GAME_DEFAULT_ROUNDS
    # Byapar's table options (``GameSpec.options``); a game without one takes only its default.
    starting_cash: int = FIGURES.default_starting_cash
    auctions: bool = FIGURES.default_auctions
    # Where the games run: "local" (this machine's processes) or "ray" (Ray tasks: a local Ray
    # instance, or the cluster at ``address``; arena_ray.py). Results do not depend on it.
    backend: str = "local"
    address: str | None = None
    # The game the tables play (``byapar_env.games.available_games()``): its engine, rules and
    # players come from its ``GameSpec``.
    game: str = "byapar"

    def __post_init__(self) -> None:
        if self.rounds == GAME_DEFAULT_ROUNDS and self.game in GAMES:
            object.__setattr__(self, "rounds", GAMES[self.game].default_rounds)

    def spec(self) -> GameSpec:
        return find_game(self.game)

    def table_options(self) -> dict:
        """This game's table options, as set here (``GameSpec.options``)."""
        return {o.name: getattr(self, o.name) for o in self.spec().options
                if hasattr(self, o.name)}

    def rules(self):
        return self.spec().rules(len(self.players), self.rounds, **self.table_options())


@dataclass
class GameResult:
    index: int
    kinds: list[str]  # by seat
    shares: list[float]  # each seat's share of the win
    net_worth: list[int]
    ranks: list[float]  # 1 is best; ties share the average rank
    bankrupt: list[bool]
    rounds: int
    decisions: int
    turns: int
    ended_by_bankruptcy: bool


def validate(config: ArenaConfig) -> None:
    n = len(config.players)
    if config.game not in GAMES:
        raise ArenaError(f"--game must be one of {', '.join(available_games())}, "
                         f"got {config.game!r}")
    _check_options(config)
    spec = config.spec()
    if not spec.min_players <= n <= spec.max_players:
        raise ArenaError(f"an arena table seats {spec.min_players} to {spec.max_players} "
                         f"players, got {n}: "
                         f"{', '.join(config.players) or 'none'}")
    _check_whole("--games", config.games, 1, MAX_GAMES)
    _check_whole("--workers", config.workers, 1, max_workers(), " (four per core here)")
    _check_whole("--seed", config.seed, 0, MAX_SEED, " (2**63 - 1)")
    if config.backend not in ("local", "ray"):
        raise ArenaError(f"--backend must be local or ray, got {config.backend!r}")
    if config.address is not None and (not isinstance(config.address, str)
                                       or not config.address.strip()):
        raise ArenaError(f"--address must be a Ray cluster's address (HOST:PORT or auto), "
                         f"got {config.address!r}")
    if config.address is not None and config.backend != "ray":
        raise ArenaError("--address is where Ray runs the games: it needs --backend ray")
    try:
        config.rules()
    except ValueError as exc:
        raise ArenaError(str(exc)) from exc
    for name in dict.fromkeys(config.players):
        try:
            _make(config, name)
        except ValueError as exc:
            raise ArenaError(str(exc)) from exc


def _check_options(config: ArenaConfig) -> None:
    """A table option the game does not have must stay at its default (the other games')."""
    spec = config.spec()
    for other in GAMES.values():
        for option in other.options:
            if (spec.option(option.name) is None and hasattr(config, option.name)
                    and getattr(config, option.name) != other.option_default(option.name)):
                raise ArenaError(f"{spec.title} has no {option.flag} option ({other.title}'s)")
    if config.rounds == GAME_DEFAULT_ROUNDS or (
            config.rounds is not None and (isinstance(config.rounds, bool)
                                           or not isinstance(config.rounds, int)
                                           or config.rounds < 1)):
        raise ArenaError(f"--rounds must be a whole number from 1 up, got {config.rounds!r}")


def _make(config: ArenaConfig, name: str, seed: int | None = None):
    return config.spec().make_agent(name, seed)


def _check_whole(flag: str, value: object, low: int, high: int, why: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = f"{value:,}" if isinstance(value, int) else repr(value)
        raise ArenaError(f"{flag} must be a whole number from {low:,} to {high:,}{why}, "
                         f"got {shown}")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index``: from the run's seed and the game's number alone."""
    return random.Random(seed * 1_000_003 + index).getrandbits(63)


def _ranks(worth: list[int]) -> list[float]:
    ranks = []
    for w in worth:
        better = sum(1 for x in worth if x > w)
        equal = sum(1 for x in worth if x == w)
        ranks.append(better + (equal + 1) / 2)
    return ranks


def lineup_seat(config: ArenaConfig, index: int, position: int = 0) -> int:
    """The seat of game ``index`` where the player at ``position`` of the lineup sits: seats
    rotate by the game's number (game ``g`` seats the lineup shifted by ``g mod n``), and
    ``seat_game`` seats every position here, so a position keeps its own seat even when the
    lineup names that kind of player more than once."""
    return (position - index) % len(config.players)


def seat_game(config: ArenaConfig, index: int) -> tuple[list[str], list, int]:
    """Game ``index``'s table: the seats' kinds (rotated by the game's number), fresh players
    reset for the game, and the game's seed."""
    kinds = [""] * len(config.players)
    for position, kind in enumerate(config.players):
        kinds[lineup_seat(config, index, position)] = kind
    seed = game_seed(config.seed, index)
    seat_player = config.spec().module("players").seat_player
    players = [seat_player(k, seed + s) for s, k in enumerate(kinds)]
    for s, player in enumerate(players):
        if hasattr(player, "reset"):
            player.reset(seed + s)
    return kinds, players, seed


def table_env(config: ArenaConfig, seed: int) -> raw_env:
    """A Byapar environment reset for a game of the run: its table options, played to the
    end."""
    return rules_env(config.rules(), seed)


def play_game(config: ArenaConfig, index: int) -> GameResult:
    """Play game ``index`` of the run: rotated seats, fresh players, the derived seed, played
    by the game's players module (``play_seated``)."""
    kinds, players, seed = seat_game(config, index)
    game, decisions = config.spec().module("players").play_seated(config.rules(), seed, players)
    return game_result(index, kinds, game, decisions)


def game_result(index: int, kinds: list[str], game: Game, decisions: int) -> GameResult:
    """The figures of game ``index`` (seated as ``kinds``) once it is over."""
    n = game.num_players
    worth = [game.net_worth(s) for s in range(n)]
    winners = game.winners
    shares = [1 / len(winners) if s in winners else 0.0 for s in range(n)]
    return GameResult(index, kinds, shares, worth, _ranks(worth), list(game.bankrupt),
                      game.round, decisions, game.turn_count, len(game.active_seats()) == 1)


def play_range(args: tuple[ArenaConfig, int, int]) -> list[GameResult]:
    """Games ``start`` to ``stop - 1`` of the run: one chunk of ``run_games``, in a worker
    process or a Ray task (module-level, so that both send it by reference)."""
    config, start, stop = args
    return [play_game(config, i) for i in range(start, stop)]


def run_games(config: ArenaConfig, progress: Callable[[int, int], None] | None = None
              ) -> list[GameResult]:
    """Every game of the run, in game order, on ``config.workers`` processes, or as Ray tasks
    (``config.backend == "ray"``: arena_ray.py), one per chunk of games either way."""
    chunk = max(1, min(50, config.games // (config.workers * 4) or 1))
    ranges = [(config, i, min(i + chunk, config.games)) for i in range(0, config.games, chunk)]
    # Never more processes than pieces of work (--workers 8 --games 2 starts two); the results
    # do not depend on the number of processes.
    workers = min(config.workers, len(ranges))
    if config.backend == "ray":
        return run_ranges(play_range, ranges, workers, config.games, config.address, progress)
    results: list[GameResult] = []
    if workers == 1:
        for r in ranges:
            results += play_range(r)
            if progress:
                progress(len(results), config.games)
    else:
        with worker_pool(workers) as pool:
            for part in pool.imap(play_range, ranges):
                results += part
                if progress:
                    progress(len(results), config.games)
    return results


def _worker_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    single_thread_blas()  # a spawned worker starts with numpy's default threads


def worker_pool(workers: int):
    """A pool of spawned processes that ignore Ctrl-C: the terminal sends SIGINT to every
    process of the group, and only the parent should answer it (it stops the run and the pool
    terminates the workers on the way out), not each worker with a traceback of its own. SIGINT
    is ignored while the workers are started as well, because a worker inherits that setting
    from its birth, before it could run an initializer; the parent's handler comes back at
    once."""
    # Only the main thread may set handlers; a handler set outside Python reads as None.
    old = (signal.signal(signal.SIGINT, signal.SIG_IGN)
           if threading.current_thread() is threading.main_thread() else None)
    try:
        return get_context("spawn").Pool(workers, initializer=_worker_start)
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)


@dataclass
class KindStats:
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    ci95: list[float] = field(default_factory=lambda: [0.0, 0.0])
    mean_net_worth: float = 0.0
    mean_rank: float = 0.0
    bankruptcies: int = 0
    rating_mu: float = 0.0
    rating_sigma: float = 0.0
    rating: float = 0.0  # the conservative ordinal, mu - 3 sigma


def _fit_ratings(results: Sequence[GameResult], kinds: list[str]) -> dict[str, tuple[float, float]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {k: model.rating(name=k) for k in kinds}
    for r in results:
        teams = [[model.rating(mu=ratings[k].mu, sigma=ratings[k].sigma)] for k in r.kinds]
        new = model.rate(teams, ranks=r.ranks)
        for k in set(r.kinds):
            seats = [s for s, x in enumerate(r.kinds) if x == k]
            mu = statistics.fmean(new[s][0].mu for s in seats)
            sigma = statistics.fmean(new[s][0].sigma for s in seats)
            ratings[k] = model.rating(mu=mu, sigma=sigma)
    return {k: (v.mu, v.sigma) for k, v in ratings.items()}


def summarise(config: ArenaConfig, results: Sequence[GameResult], elapsed: float) -> dict:
    kinds = list(dict.fromkeys(config.players))
    stats = {k: KindStats() for k in kinds}
    worth: dict[str, list[int]] = {k: [] for k in kinds}
    ranks: dict[str, list[float]] = {k: [] for k in kinds}
    for r in results:
        for s, k in enumerate(r.kinds):
            st = stats[k]
            st.games += 1
            st.wins += r.shares[s]
            st.bankruptcies += r.bankrupt[s]
            worth[k].append(r.net_worth[s])
            ranks[k].append(r.ranks[s])
    ratings = _fit_ratings(results, kinds)
    for k, st in stats.items():
        st.win_rate = st.wins / st.games
        st.ci95 = list(wilson(st.wins, st.games))
        st.mean_net_worth = statistics.fmean(worth[k])
        st.mean_rank = statistics.fmean(ranks[k])
        st.rating_mu, st.rating_sigma = ratings[k]
        st.rating = st.rating_mu - 3 * st.rating_sigma
    games = len(results)
    return {
        "config": {**asdict(config), "players": list(config.players)},
        "players": {k: asdict(st) for k, st in stats.items()},
        "run": {
            "games": games,
            "mean_rounds": statistics.fmean(r.rounds for r in results),
            "ended_by_bankruptcy": sum(r.ended_by_bankruptcy for r in results) / games,
            "ended_by_round_limit": sum(not r.ended_by_bankruptcy for r in results) / games,
            "decisions_per_game": statistics.fmean(r.decisions for r in results),
            "games_per_s": games / elapsed,
            "turns_per_s": sum(r.turns for r in results) / elapsed,
            "seconds": elapsed,
        },
    }


def run_arena(config: ArenaConfig, progress: Callable[[int, int], None] | None = None) -> dict:
    """Validate, play every game, and summarise."""
    validate(config)
    start = time.perf_counter()
    results = run_games(config, progress)
    return summarise(config, results, time.perf_counter() - start)


def format_table(summary: dict) -> str:
    cfg = summary["config"]
    width = max(10, 2 + max(len(k) for k in summary["players"]))
    rounds = "until one is left" if cfg["rounds"] is None else f"{cfg['rounds']} rounds"
    spec = find_game(cfg.get("game", available_games()[0]))
    # The first game's tables are headed as they always were; another game names itself.
    title = "" if spec.name == available_games()[0] else f"{spec.title}: "
    options = "".join(f", {o.shown(cfg[o.name])}" for o in spec.options if o.name in cfg)
    head = (f"{title}{summary['run']['games']} games, seats rotated: "
            f"{', '.join(cfg['players'])}; {rounds}{options}, seed {cfg['seed']}")
    lines = [
        head,
        "",
        f"{'player':<{width}}{'games':>7}{'wins':>9}{'win rate':>10}{'95% CI':>17}"
        f"{'net worth':>11}{'rank':>6}{'bankrupt':>10}{'rating':>8}",
    ]
    for k, st in summary["players"].items():
        lo, hi = st["ci95"]
        lines.append(
            f"{k:<{width}}{st['games']:>7}{st['wins']:>9.1f}{st['win_rate']:>10.1%}"
            f"{f'{lo:.1%} - {hi:.1%}':>17}{st['mean_net_worth']:>11,.0f}{st['mean_rank']:>6.2f}"
            f"{st['bankruptcies']:>10}{st['rating']:>8.1f}")
    run = summary["run"]
    lines += [
        "",
        f"mean rounds {run['mean_rounds']:.1f}; "
        f"ended by bankruptcy {run['ended_by_bankruptcy']:.1%}, "
        f"by the round limit {run['ended_by_round_limit']:.1%}; "
        f"{run['decisions_per_game']:.0f} decisions a game",
        f"{run['games_per_s']:.1f} games/s, {run['turns_per_s']:,.0f} turns/s "
        f"({run['seconds']:.1f} s)",
        "rating: OpenSkill Plackett-Luce, mu - 3 sigma, fitted over the games in order",
    ]
    return "\n".join(lines)


_LOGGED: dict[int, float] = {}  # stream id -> when progress_bar last wrote a line to it
LOG_EVERY_S = 30.0


def progress_bar(done: int, total: int, stream=sys.stderr) -> None:
    """A bar redrawn in place on a terminal; elsewhere (a log file) a line at the first report,
    at each tenth, and at least every ``LOG_EVERY_S`` seconds."""
    if not stream.isatty():
        now = time.monotonic()
        last = _LOGGED.get(id(stream))
        if (last is None or done == total or now - last >= LOG_EVERY_S
                or done * 10 // total != (done - 1) * 10 // total):
            _LOGGED[id(stream)] = now
            stream.write(f"{done}/{total} games\n")
            stream.flush()
        return
    width = 30
    filled = width * done // total
    stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        stream.write("\n")
    stream.flush()


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))
