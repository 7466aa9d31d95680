"""Businessman's expert at the server: seated at tables and asked by /v1/decide, its search in
the slow pool, answered by its budget with the hard player's move when the worker is late."""

from __future__ import annotations

import json
import random
import time
import warnings

from byapar_agents.businessman import ExpertBusinessmanPlayer, make_agent
from byapar_env.businessman import ACTION_ID, Game, Phase, Rules

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from late_pool import LatePool, expert_once_loaded, expert_then_hard

from byapar_serve.app import create_app
from byapar_serve.slow import SlowPool
from byapar_serve.tables import TableStore


def buy_offer(seed: int = 0) -> Game:
    """A seeded game of random play stopped at its first offer to buy a lot it can pay for."""
    game = Game(Rules(num_players=3), seed=seed)
    rng = random.Random(seed)
    while not (game.phase == Phase.BUY and len(game.legal_actions()) == 2):
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_server_offers_the_businessman_expert() -> None:
    client = TestClient(create_app())
    info = client.get("/v1").json()
    assert "expert" in info["games"]["businessman"]["players"]


def test_decide_searches_by_its_budget_and_answers_a_legal_action() -> None:
    game = buy_offer()
    saved = json.loads(game.to_json())
    legal_ids = {ACTION_ID[a] for a in game.legal_actions()}
    client = TestClient(create_app())
    r = client.post("/v1/decide", json={"game": saved, "player": "expert", "budget_ms": 1000})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["player"] == "expert" and out["searched"] is True
    assert out["seat"] == game.current_player
    assert out["action"]["id"] in legal_ids and out["ms"] < 2000
    hard = client.post("/v1/decide", json={"game": saved, "player": "hard"}).json()
    assert "searched" not in hard


def test_a_late_worker_gets_the_hard_players_move_by_the_budget() -> None:
    saved = json.loads(buy_offer().to_json())
    with TestClient(create_app(slow=LatePool(workers=0, max_queued=8))) as client:
        r, took, hard = expert_then_hard(client, saved, 60)
        assert r.status_code == 200 and took < 0.6
        assert r.json()["searched"] is False and r.json()["action"] == hard["action"]
        # Seated, the same: a table of the expert moves as a table of the hard player.
        body = {"game": "businessman", "seed": 3, "rules": {"rounds": 3}}
        expert = client.post("/v1/tables", json={"seats": ["expert", "easy"], **body}).json()
        learned = client.post("/v1/tables", json={"seats": ["hard", "easy"], **body}).json()
        moved = client.post(f"/v1/tables/{expert['id']}/advance", json={"max_decisions": 12})
        same = client.post(f"/v1/tables/{learned['id']}/advance", json={"max_decisions": 12})
        # Each late search waits out the expert's 300 ms: the advance may stop on its budget.
        made = [m["text"] for m in moved.json()["moves"]]
        assert moved.status_code == 200 and len(made) >= 4
        assert made == [m["text"] for m in same.json()["moves"]][:len(made)]


def test_budget_ms_is_the_experts_alone_and_bounded() -> None:
    saved = json.loads(buy_offer().to_json())
    client = TestClient(create_app())
    r = client.post("/v1/decide", json={"game": saved, "player": "medium", "budget_ms": 100})
    assert r.status_code == 422 and r.json()["field"] == "budget_ms"
    r = client.post("/v1/decide", json={"game": saved, "player": "expert", "budget_ms": 10**6})
    assert r.status_code == 422
    r = client.post("/v1/decide", json={"game": saved, "player": "expert",
                                        "pre_roll_actions": 3})
    assert r.status_code == 422 and r.json()["field"] == "pre_roll_actions"


def test_a_seated_expert_plays_a_whole_short_game_within_each_advance_budget() -> None:
    store = TableStore(advance_budget_s=1.0)
    client = TestClient(create_app(store=store))
    body = {"game": "businessman", "seats": ["expert", "medium"], "seed": 5,
            "rules": {"rounds": 2}}
    state = client.post("/v1/tables", json=body).json()
    for _ in range(200):
        start = time.perf_counter()
        r = client.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 50})
        assert r.status_code == 200, r.text
        assert time.perf_counter() - start < 1.0 + 0.6  # the last search bounded by what was left
        state = r.json()
        if state["status"]["is_over"]:
            break
    assert state["status"]["is_over"] and state["status"]["winners"]


def test_an_experts_memory_carries_its_seeds_to_another_copy() -> None:
    game = buy_offer(1)
    one, two = ExpertBusinessmanPlayer(sims=4, seed=9), ExpertBusinessmanPlayer(sims=4, seed=123)
    seat, legal = game.current_player, game.legal_actions()
    first = one.choose(game, seat, legal)
    two.remember(one.memory())
    assert two.memory()["rng"] == one.memory()["rng"]
    again = game.clone()
    again.apply(first)
    medium = make_agent("medium")
    while not (again.phase == Phase.BUY and len(again.legal_actions()) == 2):
        again.apply(medium.choose(again, again.current_player, again.legal_actions()))
    s, moves = again.current_player, again.legal_actions()
    assert one.choose(again, s, moves) == two.choose(again, s, moves)
    assert one.last.candidates[0].scores == two.last.candidates[0].scores


def test_the_expert_decides_and_plays_at_a_table_through_a_worker_process() -> None:
    saved = json.loads(buy_offer().to_json())
    with TestClient(create_app(slow=SlowPool(workers=1))) as client:
        r = expert_once_loaded(client, saved, 400)
        assert r.status_code == 200 and r.json()["player"] == "expert"
        body = {"game": "businessman", "seats": ["expert", "easy"], "seed": 3,
                "rules": {"rounds": 3}}
        state = client.post("/v1/tables", json=body).json()
        moved = client.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 30})
        assert moved.status_code == 200 and len(moved.json()["moves"]) >= 10
        assert {m["player"] for m in moved.json()["moves"]} == {"expert", "easy"}
