"""Rivals' answers read in play: how likely each seat is to take a trade offer, learned this game.

A seat that judges offers by its own rule (a price table, a reserve, a wish list) takes some
offers that another judge would call bad for it and refuses some it would call good. The deal
module (``byapar_agents.deals``) offers what the value network says the target gains by; an
``AnswerReader`` instead watches every answer given at the table (to any seat's offer, through
the environment's watchers) and fits, for each seat, the chance that it accepts an offer from
what the offer looks like to it (``offer_features``: what it gives and gets at list price, the
money, whether it sells or buys or swaps, whether a group is completed on either side, whether
it breaks up or adds to a set of its own).

The model is a logistic one per seat: the weights start at ``PRIOR`` (fitted on the answers of
the seen players, ``python -m byapar_training.answer_prior``; never an unseen player's) and
move towards the seat's own answers, a Gaussian pull of ``PRIOR_PULL`` keeping them near the
prior while the answers are few. It reads the offer and the places as they stand, so the same
answers seen give the same chances (the same seed, the same game).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from byapar_env.engine import Action, ActionKind, Game, Phase

from .deals import SET_OF, completes_group, completes_target_group
from .tactics import PRICE

SCALE = 1000.0  # money in the features, in thousands of rupees

FEATURES = (
    "bias",
    "balance",  # what it gets less what it gives, at list price, money counted (thousands)
    "ratio",  # what it gets over what it gives, less one (places it gives only), in [-1, 3]
    "sells",  # it gives places and gets none
    "buys",  # it gets places and gives none
    "gives_several",  # it gives two places or more
    "completes_offerer",  # the deal gives the offering seat a whole colour group
    "completes_answerer",  # the deal gives the answering seat a whole colour group
    "breaks_own",  # it gives a place of a set where it holds another piece
    "adds_own",  # it gets a place of a set where it holds another piece
)
# Fitted on seen players' answers (see the module docstring; 43,500 answers of 240 games, seed
# 9000, 13.3% accepted); the order of ``FEATURES``.
PRIOR = np.array([-1.271, 0.694, 1.129, -0.221, 0.034, 0.000, -3.515, 1.354, -0.002, 0.233])
PRIOR_PULL = 1.0  # the Gaussian prior's precision on each weight
MAX_ANSWERS = 400  # answers kept per seat (the newest): a bounded fit for a long game


def offer_features(game: Game, offerer: int, offer: Action) -> np.ndarray:
    """The features of ``offer`` (by ``offerer``) as its target sees it, in ``FEATURES``'
    order."""
    owner = game.owner
    target = offer.target
    gets, gives = offer.give, offer.take  # the offer's places, from the target's side
    got = sum(PRICE[s] for s in gets)
    given = sum(PRICE[s] for s in gives)
    money = offer.amount  # positive: the offering seat pays the target
    balance = (got - given + money) / SCALE
    ratio = (min(3.0, max(-1.0, (got + money) / given - 1.0)) if given else 0.0)
    return np.array([
        1.0,
        balance,
        ratio,
        float(bool(gives) and not gets),
        float(bool(gets) and not gives),
        float(len(gives) > 1),
        float(completes_group(game, offerer, offer)),
        float(completes_target_group(game, offerer, offer)),
        float(any(owner[s] == target for sq in gives for s in SET_OF[sq] if s != sq
                  and s not in gives)),
        float(any(owner[s] == target for sq in gets for s in SET_OF[sq] if s != sq)),
    ])


def answer_in(game: Game, action: Action) -> tuple[int, Action, bool] | None:
    """``(offerer, offer, accepted)`` when ``action``, about to be applied to ``game``, answers
    the offer pending there; else None."""
    if game.phase != Phase.TRADE_ANSWER or game.offer is None or action.kind not in (
            ActionKind.ACCEPT_TRADE, ActionKind.REJECT_TRADE):
        return None
    offerer, offer = game.offer
    return offerer, offer, action.kind == ActionKind.ACCEPT_TRADE


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


def fit_weights(x: np.ndarray, y: np.ndarray, prior: np.ndarray, pull: float,
                steps: int = 8) -> np.ndarray:
    """The weights of a logistic model of ``y`` on ``x`` that maximise the likelihood times a
    Gaussian prior around ``prior`` of precision ``pull`` (Newton's method)."""
    def loss(w: np.ndarray) -> float:
        z = x @ w
        # -log likelihood, written to stay finite for large |z|
        return float(np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * pull * np.sum((w - prior) ** 2))

    w = prior.copy()
    eye = np.eye(len(prior)) * pull
    current = loss(w)
    for _ in range(steps):
        p = _sigmoid(x @ w)
        grad = x.T @ (p - y) + pull * (w - prior)
        hess = (x * (p * (1 - p))[:, None]).T @ x + eye
        step = np.linalg.solve(hess, grad)
        # Halved until the loss falls: a full step from a flat point can overshoot and swing
        # back (the logistic's curvature vanishes far from the data).
        scale = 1.0
        while scale > 1e-3:
            trial = w - scale * step
            after = loss(trial)
            if after <= current:
                break
            scale /= 2
        else:
            break
        w, moved, current = trial, float(np.abs(scale * step).max()), after
        if moved < 1e-6:
            break
    return w


class AnswerReader:
    """Every seat's answers in one game of ``num_players`` seats, and the chance each accepts
    an offer."""

    def __init__(self, num_players: int, prior: np.ndarray = PRIOR,
                 pull: float = PRIOR_PULL) -> None:
        self.prior = np.asarray(prior, dtype=float)
        self.pull = pull
        self.answers: list[list[tuple[np.ndarray, float]]] = [[] for _ in range(num_players)]
        self._weights: list[np.ndarray | None] = [self.prior] * num_players

    def watch(self, game: Game, action: Action) -> None:
        """An engine action about to be applied to ``game`` (the environment's watcher): an
        answer to a pending offer is read."""
        answer = answer_in(game, action)
        if answer is not None:
            self.observe(game, *answer)

    def observe(self, game: Game, offerer: int, offer: Action, accepted: bool) -> None:
        """``offer``'s target answered it (``accepted`` or not) in ``game``."""
        seat_answers = self.answers[offer.target]
        seat_answers.append((offer_features(game, offerer, offer), float(accepted)))
        if len(seat_answers) > MAX_ANSWERS:
            del seat_answers[0]
        self._weights[offer.target] = None

    def weights(self, seat: int) -> np.ndarray:
        """``seat``'s weights now (``PRIOR`` before any answer)."""
        w = self._weights[seat]
        if w is None:
            data = self.answers[seat]
            x = np.stack([f for f, _ in data])
            y = np.array([a for _, a in data])
            w = self._weights[seat] = fit_weights(x, y, self.prior, self.pull)
        return w

    def chances(self, game: Game, offerer: int, offers: Sequence[Action]) -> np.ndarray:
        """The chance that each of ``offers`` (by ``offerer``) is accepted by its target."""
        if not offers:
            return np.zeros(0)
        x = np.stack([offer_features(game, offerer, o) for o in offers])
        w = np.stack([self.weights(o.target) for o in offers])
        return _sigmoid((x * w).sum(axis=1))
