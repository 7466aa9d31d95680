"""Deals played to the end: what the value network says an offer gains the seat making it,
beside what the offer gains when the game is played out by the table's own players
(docs/expert_iteration.md, "Deals played to the end").

    python -m bench.deal_outcomes --rivals outside-chrisaacson-trading --seats 4 --games 40 \
        --seed 56 --run-dir ../runs/deal-outcomes

Game ``i`` (``--seats`` seats, 40 rounds, Rs 15,000, auctions; seeded from ``--seed`` and ``i``
alone) seats the dealing rollout player (the hard player's policy with its deal module, at the
engine's level: ``byapar_agents.dealing_rollout``) in seat ``i mod seats`` and ``--rivals`` in
every other seat (``dealer``: that same kind, rivals that deal alike). At a share ``--sample``
of its turns, before its first move of the turn, the offers of ``aimed_offers.wide_offers`` that
gain it at least ``deals.MIN_GAIN`` by the value network are put, best first, to the target's
own player (which answers on a copy of the game), until ``--top`` are accepted or 40 were asked.
Each accepted offer, and the turn without it, is played to the game's end ``--pairs`` times by
the table's own players, the k-th play of each from the same seed (common random numbers); an
offer's played-out gain is the mean of the seat's win share with it less without it. With
``--offers module`` the offers are the deal module's own proposals (``deals.ranked_offers``),
asked in the order it makes them; the seat's policy plays the rest of that turn before rolling
on both sides (``QuietTurn``), since its own player would otherwise make the same offer in the
turn without it.

Each game's rows go to a file of its own in ``--run-dir``: a game whose file is there is read,
not played again, so a stopped run resumes. The figures are printed per kind of deal: whether
it completes a colour group for the seat, for its target, both or neither.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path

from byapar_agents import make_agent
from byapar_agents.aimed_offers import wide_offers
from byapar_agents.dealing_rollout import DealingRolloutPlayer
from byapar_agents.deals import MIN_GAIN, Appraisal, appraise, made, ranked_offers
from byapar_agents.hard import DEFAULT_CHECKPOINT
from byapar_agents.network import load_checkpoint
from byapar_agents.policy_rollout import PolicyRolloutPlayer
from byapar_agents.search import chance_game
from byapar_agents.value import ValueNet, shipped_value, win_shares
from byapar_env.engine import Action, Game, Phase, actions
from byapar_env.engine.rules import Rules
from byapar_env.fast_play import play_on
from byapar_env.stats import paired_mean_se

ASKED = 40  # offers put to their targets at one turn, at most
_END = (10**9, 0)  # a stopping point no game reaches: play on to the end
DEALER = "dealer"  # --rivals: the dealing rollout player in every seat (rivals that deal alike)
SOURCES = ("wide", "module")  # the offers listed: the wide list, or the deal module's proposals
KINDS = ("completes the seat's group", "completes the target's group", "completes both",
         "completes neither")


@dataclass(frozen=True)
class DealRow:
    """One accepted offer, played to the end with it and without it."""

    rivals: str
    seats: int
    round: int
    offer: str
    network_gain: float  # the seat's gain by the value network
    completes_seat: bool
    completes_target: bool
    with_deal: tuple[float, ...]  # the seat's win share in each play with the offer
    without: tuple[float, ...]  # and without it, from the same seeds

    @property
    def kind(self) -> str:
        """Which groups the deal completes: one of ``KINDS``."""
        if self.completes_seat and self.completes_target:
            return KINDS[2]
        return KINDS[0] if self.completes_seat else KINDS[1] if self.completes_target else KINDS[3]

    @property
    def played_gain(self) -> float:
        """The seat's mean win share with the deal less without it."""
        return paired_mean_se(self.with_deal, self.without)[0]


class Tables:
    """The players of one table: the dealing rollout player in the watched seat, ``rivals``
    elsewhere (with ``rivals`` ``"dealer"``, that player too); a fresh set for every play, so no
    play reads another's memory."""

    def __init__(self, rivals: str, seats: int, seat: int, value: ValueNet) -> None:
        self.rivals, self.seats, self.seat, self.value = rivals, seats, seat, value
        self.policy = load_checkpoint(DEFAULT_CHECKPOINT)[0]

    def players(self, seed: int, quiet_turn: int | None = None) -> list:
        """A fresh set of the table's players, reset from ``seed``; with ``quiet_turn``, the
        watched seat makes no offer of its own in that turn (``QuietTurn``)."""
        out = [self._watched(quiet_turn) if s == self.seat else self._rival()
               for s in range(self.seats)]
        for s, p in enumerate(out):
            p.reset(seed * 10 + s)
        return out

    def dealer(self) -> DealingRolloutPlayer:
        """A fresh dealing rollout player of this table's policy and value network."""
        return DealingRolloutPlayer(self.policy, self.value)

    def _rival(self):
        return self.dealer() if self.rivals == DEALER else make_agent(self.rivals)

    def _watched(self, quiet_turn: int | None):
        dealer = self.dealer()
        if quiet_turn is None:
            return dealer
        return QuietTurn(dealer, PolicyRolloutPlayer(self.policy), quiet_turn)


class QuietTurn:
    """The dealing rollout player, except in one turn before rolling, where the policy alone
    plays (it makes no offers): a deal played out against the same turn without it, and no other
    offer of the seat's in that turn on either side."""

    def __init__(self, dealer: DealingRolloutPlayer, policy: PolicyRolloutPlayer,
                 turn: int) -> None:
        self.dealer, self.policy, self.turn = dealer, policy, turn

    def reset(self, seed: int | None = None) -> None:
        self.dealer.reset(seed)
        self.policy.reset(seed)

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        quiet = game.turn_count == self.turn and game.phase == Phase.PRE_ROLL
        return (self.policy if quiet else self.dealer).choose(game, seat, legal)


def accepted_offers(game: Game, players: Sequence, value: ValueNet, top: int,
                    source: str = "wide") -> list[Appraisal]:
    """Of the offers the seat to play in ``game`` could make now, the first ``top`` that their
    target's player in ``players`` accepts, of at most ``ASKED`` asked; each is asked of a copy
    of the player, on a copy of the game. The offers (``source``): the wide offers that gain the
    seat at least ``MIN_GAIN`` by ``value``, best first (``"wide"``), or the deal module's
    proposals in the order it makes them (``"module"``: ``deals.ranked_offers``)."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {', '.join(SOURCES)}, got {source!r:.40}")
    if source == "module":
        gaining = ranked_offers(game, value)
    else:
        gaining = [a for a in appraise(game, wide_offers(game, game.current_player), value)
                   if a.offerer_gain >= MIN_GAIN]
        gaining.sort(key=lambda a: -a.offerer_gain)
    taken = []
    for a in gaining[:ASKED]:
        pending = made(game, a.offer)
        answerer = copy.deepcopy(players[a.target])
        answer = answerer.choose(pending, a.target, pending.legal_actions())
        if answer == actions.ACCEPT_TRADE:
            taken.append(a)
            if len(taken) == top:
                break
    return taken


def played_out(root: Game, tables: Tables, first: Action | None, pairs: int,
               seed: int, quiet: bool = False) -> tuple[float, ...]:
    """The watched seat's win share in each of ``pairs`` plays of ``root`` to the end, with
    ``first`` taken first (None: its own player's move); with ``quiet``, the seat makes no offer
    of its own in the root's turn (``QuietTurn``). Play ``k`` draws its chance and its players'
    seeds from ``seed`` and ``k`` alone."""
    shares = []
    turn = root.turn_count if quiet else None
    for k in range(pairs):
        game = chance_game(root, seed * 1000 + k)
        play_on(game, tables.players(seed * 1000 + k, turn), _END, 0, first)
        shares.append(win_shares(game)[tables.seat])
    return tuple(shares)


class _Watched:
    """The watched seat: the dealing rollout player, labelling a sample of its turns."""

    def __init__(self, tables: Tables, players: list, rng: random.Random, sample: float,
                 top: int, pairs: int, rows: list[DealRow], source: str) -> None:
        self.player = tables.dealer()
        self.tables, self.players, self.rng = tables, players, rng
        self.sample, self.top, self.pairs, self.rows = sample, top, pairs, rows
        self.source = source
        self.turn = -1

    def reset(self, seed: int | None = None) -> None:
        self.player.reset(seed)

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        if game.phase == Phase.PRE_ROLL and game.turn_count != self.turn:
            self.turn = game.turn_count
            if game.can_offer_trade() and self.rng.random() < self.sample:
                self._label(game)
        return self.player.choose(game, seat, legal)

    def _label(self, game: Game) -> None:
        taken = accepted_offers(game, self.players, self.tables.value, self.top, self.source)
        if not taken:
            return
        root = game.clone()
        root.log = []
        seed = self.rng.getrandbits(40)
        quiet = self.source == "module"  # else the seat's own player would make it anyway
        without = played_out(root, self.tables, None, self.pairs, seed, quiet)
        for a in taken:
            self.rows.append(DealRow(
                self.tables.rivals, game.num_players, game.round, str(a.offer),
                round(a.offerer_gain, 6), a.completes_offerer, a.completes_target,
                played_out(root, self.tables, a.offer, self.pairs, seed, quiet), without))


def labelled_game(rivals: str, seats: int, index: int, seed: int, sample: float, top: int,
                  pairs: int, source: str = "wide") -> list[DealRow]:
    """The rows of game ``index`` of a run (see the module docstring)."""
    value = shipped_value()
    seat = index % seats
    tables = Tables(rivals, seats, seat, value)
    game = Game(Rules(num_players=seats), seed=seed * 100_000 + index)
    rows: list[DealRow] = []
    players = tables.players(seed * 100_000 + index)
    players[seat] = _Watched(tables, players, random.Random(seed * 7919 + index), sample, top,
                             pairs, rows, source)
    play_on(game, players, _END)
    return rows


def _game_file(run_dir: Path, rivals: str, seats: int, seed: int, index: int,
               source: str) -> Path:
    tail = "" if source == "wide" else f"-{source}"
    return run_dir / f"{rivals}-{seats}-{seed}-{index}{tail}.jsonl"


def run_game(job: tuple) -> Path:
    """The file of one game's rows (``job``: the run folder, rivals, seats, seed, the game's
    number, sample, top, pairs, source), the game played first unless its file is there."""
    run_dir, rivals, seats, seed, index, sample, top, pairs, source = job
    path = _game_file(run_dir, rivals, seats, seed, index, source)
    if not path.exists():
        rows = labelled_game(rivals, seats, index, seed, sample, top, pairs, source)
        part = path.with_suffix(".part")
        part.write_text("".join(json.dumps(asdict(r)) + "\n" for r in rows) + "end\n")
        os.replace(part, path)
    return path


def read_rows(path: Path) -> list[DealRow]:
    """The rows of one game's file."""
    rows = []
    for line in path.read_text().splitlines():
        if line != "end":
            d = json.loads(line)
            d["with_deal"], d["without"] = tuple(d["with_deal"]), tuple(d["without"])
            rows.append(DealRow(**d))
    return rows


def summary(rows: Sequence[DealRow]) -> dict[str, tuple[int, float, float, float]]:
    """Per kind of deal: (offers, the network's mean gain, the mean played-out gain, its
    standard error over the offers)."""
    out = {}
    for kind in KINDS:
        mine = [r for r in rows if r.kind == kind]
        if not mine:
            continue
        n = len(mine)
        mean, se = paired_mean_se([r.played_gain for r in mine], [0.0] * n)
        out[kind] = (n, sum(r.network_gain for r in mine) / n, mean, se)
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rivals", default="medium",
                    help=f"every other seat's player: a player's name, or {DEALER} (the "
                         f"watched seat's own kind)")
    ap.add_argument("--seats", type=int, default=4, choices=range(2, 7), metavar="2..6",
                    help="seats at the table (default 4)")
    ap.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    ap.add_argument("--seed", type=int, default=56, help="the run's seed (default 56)")
    ap.add_argument("--sample", type=float, default=0.25,
                    help="the share of the seat's turns looked at (default 0.25)")
    ap.add_argument("--top", type=int, default=3,
                    help="accepted offers played out at a turn, at most (default 3)")
    ap.add_argument("--pairs", type=int, default=16,
                    help="plays to the end of each offer and of the turn without (default 16)")
    ap.add_argument("--offers", choices=SOURCES, default="wide",
                    help="the offers listed: the wide list (default) or the deal module's "
                         "proposals")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--run-dir", type=Path, required=True,
                    help="where each game's rows are kept (a stopped run resumes from it)")
    args = ap.parse_args(argv)
    for name in ("games", "top", "pairs", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if not 0 < args.sample <= 1:
        ap.error(f"--sample must be above 0 and at most 1, got {args.sample}")
    try:
        if args.rivals != DEALER:
            make_agent(args.rivals)
    except ValueError as exc:
        ap.error(f"{exc} (or {DEALER})")
    args.run_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(args.run_dir, args.rivals, args.seats, args.seed, i, args.sample, args.top,
             args.pairs, args.offers) for i in range(args.games)]
    rows: list[DealRow] = []
    with Pool(args.workers) as pool:
        for done, path in enumerate(pool.imap(run_game, jobs), 1):
            rows += read_rows(path)
            print(f"game {done} of {args.games}: {len(rows)} offers so far", flush=True)
    figures = summary(rows)
    print(f"{args.seats - 1} x {args.rivals}, {args.games} games of seed {args.seed}, "
          f"{args.offers} offers, {args.pairs} plays to the end each")
    for kind, (n, network, played, se) in figures.items():
        print(f"{kind:30s} offers {n:4d}  network {network:+.3f}  played out {played:+.3f} "
              f"(standard error {se:.3f})")
    return figures


if __name__ == "__main__":
    main()
