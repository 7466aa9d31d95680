"""Rivals read in play: which kind of player each seat plays like, from its decisions so far.

The search plays a rival's continuation in its rollouts; the closer that continuation is to the
rival, the better its estimates (piKL's search anchored to how others play; Pluribus's few
continuation strategies). ``RivalReader`` keeps, for every seat of one game, a posterior over a
portfolio of kinds (``PORTFOLIO``: medium, the panel, the first three seen outside players, a
few of the population's training seeds; never an unseen player). At each decision a seat takes
with more than one legal action, every kind's model (a fresh player of that kind, seated in
that seat for the whole game) is asked what it would do there, and the kind's log-likelihood
grows by ``log(EPS + (1 - EPS) * match)``: ``match`` is 1 for the same action, ``NEAR`` for one
of the same kind on the same place or seat (a bid of another amount, another offer to the same
seat), else 0. The posterior is the softmax of the log-likelihoods (a uniform prior).

Cost: one clone of the position and one decision of every kind, for each real decision of every
seat read (``bench.rival_reading`` measures it, with how often the reader names the right kind
at tables of known players).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from byapar_env.engine import Action, ActionKind, Game

from .medium import MediumPlayer
from .outside import SEEN_OUTSIDE, make_outside
from .panel import PANEL_NAMES, PanelPlayer
from .population import make_population, training_names

EPS = 0.05  # a kind's chance of a move it would not make: one stray move does not rule it out
NEAR = 0.5  # the same kind of move on the same place or seat, another amount or mix
# The kinds a rival may be read as, each with how a fresh one is made. Population players:
# three training seeds, drawn once from a fixed generator (never an evaluation seed).
_POPULATION = training_names(3, random.Random(0x12EAD))
PORTFOLIO: dict[str, Callable[[], object]] = {
    "medium": MediumPlayer,
    **{name: (lambda name=name: PanelPlayer(name)) for name in PANEL_NAMES},
    **{name: (lambda name=name: make_outside(name)) for name in SEEN_OUTSIDE[:3]},
    **{name: (lambda name=name: make_population(name)) for name in _POPULATION},
}


def match(a: Action, b: Action) -> float:
    """How closely action ``b`` matches ``a``: 1 the same, ``NEAR`` the same kind on the same
    place (or an offer to the same seat), 0 otherwise."""
    if a == b:
        return 1.0
    if a.kind != b.kind:
        return 0.0
    if a.kind == ActionKind.OFFER_TRADE:
        return NEAR if a.target == b.target else 0.0
    return NEAR if a.square == b.square else 0.0


class RivalReader:
    """The posterior over ``kinds`` (default: all of ``PORTFOLIO``) of every seat of one game
    of ``num_players`` seats; ``seats`` (default: all) are the ones read."""

    def __init__(self, num_players: int, kinds: Sequence[str] | None = None,
                 seats: Sequence[int] | None = None, seed: int = 0) -> None:
        self.kinds = tuple(kinds) if kinds is not None else tuple(PORTFOLIO)
        unknown = [k for k in self.kinds if k not in PORTFOLIO]
        if unknown:
            raise ValueError(f"unknown kinds {unknown}: expected some of {list(PORTFOLIO)}")
        self.seats = tuple(seats) if seats is not None else tuple(range(num_players))
        self.models = {s: [PORTFOLIO[k]() for k in self.kinds] for s in self.seats}
        for s, models in self.models.items():
            for m in models:
                m.reset(seed + s)
        self.log_likelihood = {s: [0.0] * len(self.kinds) for s in self.seats}
        self.decisions = dict.fromkeys(self.seats, 0)

    def observe(self, game: Game, seat: int, legal: list[Action], action: Action) -> None:
        """``seat`` takes ``action`` (one of ``legal``, or an offer) in ``game``, before it is
        applied. A decision without a choice, or a seat not read, tells nothing."""
        models = self.models.get(seat)
        if models is None or len(legal) < 2:
            return
        view = game.clone()  # the models read a copy: none can change the real game
        scores = self.log_likelihood[seat]
        for i, model in enumerate(models):
            scores[i] += math.log(EPS + (1 - EPS) * match(action,
                                                          model.choose(view, seat, legal)))
        self.decisions[seat] += 1

    def posterior(self, seat: int) -> dict[str, float]:
        """Each kind's probability for ``seat``, from its decisions so far."""
        scores = self.log_likelihood[seat]
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return {k: w / total for k, w in zip(self.kinds, weights, strict=True)}

    def fit(self, seat: int) -> float:
        """How well the most probable kind explains ``seat``: its likelihood per decision read
        (the geometric mean; 1 before any). A rival that no kind explains well (an unseen
        player) reads low whatever its posterior says."""
        n = self.decisions[seat]
        return math.exp(max(self.log_likelihood[seat]) / n) if n else 1.0

    def named(self, seat: int) -> str:
        """The kind ``seat`` is read as now (the most probable; the first listed on a tie)."""
        post = self.posterior(seat)
        return max(self.kinds, key=lambda k: post[k])

