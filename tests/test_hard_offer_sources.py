"""Where the hard player's offers come from (``LearnedPlayer(offers=...)``): the deal module's
proposals, the offers its policy composes, both (the default) or neither, in a seeded four-seat
game of twelve rounds against three medium players; its answers stay in every case."""

from __future__ import annotations

import numpy as np
import pytest

from byapar_agents import make_agent, play_through_env
from byapar_agents.deals import DealMemory
from byapar_agents.hard import DEFAULT_CHECKPOINT, OFFER_SOURCES, LearnedPlayer
from byapar_env.action_table import TRADE_START_IDS
from byapar_env.byapar_v0 import raw_env


class MaskWatch:
    """The policy, noting whether any mask it was given let it start an offer."""

    def __init__(self, policy) -> None:
        self.policy = policy
        self.offered_a_start = False

    def _note(self, mask: np.ndarray) -> None:
        self.offered_a_start |= bool(np.asarray(mask)[list(TRADE_START_IDS)].any())

    def act(self, obs, mask):
        self._note(mask)
        return self.policy.act(obs, mask)

    def probabilities(self, obs, mask):
        self._note(mask)
        return self.policy.probabilities(obs, mask)


def _play(offers: tuple[str, ...]) -> tuple[list[str], MaskWatch]:
    """Seed 1, twelve rounds, the hard player in seat 0: the game's log and the watched policy."""
    env = raw_env(num_players=4, rounds=12)
    env.reset(seed=1)
    hard = LearnedPlayer(DEFAULT_CHECKPOINT, offers=offers)
    watch = MaskWatch(hard.policy)
    hard.policy = watch
    play_through_env(env, [hard] + [make_agent("medium") for _ in range(3)])
    return env.game.log, watch


def _offers_of_seat_0(log: list[str]) -> list[str]:
    return [line for line in log if line.startswith("seat 0 offers")]


def test_both_sources_by_default() -> None:
    assert make_agent("hard").offers == OFFER_SOURCES == ("module", "policy")
    log, watch = _play(OFFER_SOURCES)
    made = _offers_of_seat_0(log)
    assert len(made) == 12
    assert made[0] == "seat 0 offers seat 3: give nothing for Lalitpur; pay Rs 4,000"
    assert watch.offered_a_start


def test_the_module_alone_keeps_offer_starts_from_the_policy() -> None:
    log, watch = _play(("module",))
    made = _offers_of_seat_0(log)
    assert len(made) == 10
    # The module's price for Lalitpur, where the policy offered Rs 4,000
    assert made[0] == "seat 0 offers seat 3: give nothing for Lalitpur; pay Rs 5,000"
    assert not watch.offered_a_start


def test_the_policy_alone_never_asks_the_module(monkeypatch: pytest.MonkeyPatch) -> None:
    def asked(*args, **kwargs):
        raise AssertionError("the deal module was asked for an offer")

    monkeypatch.setattr(DealMemory, "propose", asked)
    log, watch = _play(("policy",))
    assert len(_offers_of_seat_0(log)) == 8
    assert watch.offered_a_start


def test_no_offers_but_answers_as_ever(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(DealMemory, "propose", lambda *a, **k: pytest.fail("module asked"))
    log, watch = _play(())
    assert _offers_of_seat_0(log) == []
    assert not watch.offered_a_start
    answers = [line for line in log if line in ("seat 0 accepts the trade",
                                                "seat 0 declines the trade")]
    assert answers


@pytest.mark.parametrize("bad", [("modules",), "module", ("module", "search"), 5, [["module"]],
                                 None], ids=repr)
def test_unknown_sources_are_refused_naming_the_known_ones(bad) -> None:
    with pytest.raises(ValueError, match="offers must be a tuple of module, policy"):
        LearnedPlayer(DEFAULT_CHECKPOINT, offers=bad)
