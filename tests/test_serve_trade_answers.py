"""byapar serve: a person's trade offers are answered by the computer players' deal judgement
(byapar_agents.deals) at once, and the same offer in the same position gets the same answer however
often it comes."""

from __future__ import annotations

import json
import warnings

import pytest

from byapar_agents import make_agent
from byapar_env.engine import Game, Rules, actions

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from byapar_serve.app import create_app

JUMLA, SURKHET = 1, 3


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _position() -> Game:
    """Two seats, the person's (seat 0) turn before rolling: it holds Jumla, seat 1 Surkhet."""
    game = Game(Rules(num_players=2), seed=3)
    game.owner[JUMLA], game.owner[SURKHET] = 0, 1
    return game


def _engine(offer: actions.Action) -> dict:
    return {"kind": "offer_trade", "target": offer.target, "give": list(offer.give),
            "take": list(offer.take), "amount": offer.amount}


@pytest.mark.parametrize("computer", ["hard", "expert"])
def test_the_same_offer_gets_the_same_answer_three_times(client: TestClient,
                                                         computer: str) -> None:
    game = _position()
    grab = actions.offer_trade(1, (), (SURKHET,), 500)  # Karnali for the person, for 500
    # Karnali for the computer, for 1,000 (for 2,000 its rollouts find it dear: refused)
    sell = actions.offer_trade(1, (JUMLA,), (), -1000)
    want = make_agent("hard").accepts(game, [grab, sell, sell._replace(amount=-2000)])
    assert want == [False, True, False]  # the answers of this position
    state = client.post("/v1/tables", json={"game": json.loads(game.to_json()),
                                            "seats": ["person", computer]}).json()
    url = f"/v1/tables/{state['id']}"
    for _ in range(3):  # the engine allows three offers a turn
        state = client.post(f"{url}/actions", json={"engine": _engine(grab),
                                                    "version": state["version"]}).json()
        assert state["to_move"] == "computer" and state["offer"]["from"] == 0
        state = client.post(f"{url}/advance", json={"max_decisions": 1}).json()
        assert state["game"]["log"][-1] == "seat 1 declines the trade"
        assert state["game"]["owner"][SURKHET] == 1 and state["to_move"] == "person"
    assert state["trade"] is None  # no offers left this turn: nothing to offer


def test_a_good_offer_is_still_accepted(client: TestClient) -> None:
    game = _position()
    sell = actions.offer_trade(1, (JUMLA,), (), -1000)
    state = client.post("/v1/tables", json={"game": json.loads(game.to_json()),
                                            "seats": ["person", "hard"]}).json()
    url = f"/v1/tables/{state['id']}"
    state = client.post(f"{url}/actions", json={"engine": _engine(sell)}).json()
    state = client.post(f"{url}/advance", json={"max_decisions": 1}).json()
    assert state["game"]["log"][-1] == "seat 1 accepts the trade"
    assert state["game"]["owner"][JUMLA] == 1
    assert [p["cash"] for p in state["players"]] == [game.cash[0] + 1000, game.cash[1] - 1000]
