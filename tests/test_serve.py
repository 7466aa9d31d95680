"""byapar serve: the /v1 JSON API through FastAPI's TestClient (no socket, no browser)."""

from __future__ import annotations

import json
import random
import threading
import warnings

import numpy as np
import pytest

from byapar_env import byapar_v0
from byapar_env.action_table import ACTIONS
from byapar_env.action_table import engine_action as action_of_id
from byapar_env.engine import Action, ActionKind, Game, IllegalActionError, Phase, Rules, actions

with warnings.catch_warnings():
    # starlette's TestClient warns that it will want httpx2 one day; httpx works today.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from byapar_serve import cli
from byapar_serve.app import create_app
from byapar_serve.roster import PERSON, Roster
from byapar_serve.seat_view import seat_view
from byapar_serve.tables import Table, TableStore


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def new_table(client: TestClient, seats=("person", "hard"), **rules) -> dict:
    r = client.post("/v1/tables", json={"seats": list(seats), "rules": rules, "seed": 7})
    assert r.status_code == 201, r.text
    return r.json()


def engine_action(data: dict) -> Action:
    """An engine action from the API's JSON form, as a game site would rebuild it."""
    return Action(ActionKind[data["kind"].upper()], data["square"], data["amount"],
                  data["target"], tuple(data["give"]), tuple(data["take"]))


def game_at(phase: Phase, num_players: int = 3) -> Game:
    """A seeded game of random legal play stopped at the first decision of ``phase``."""
    for seed in range(300):
        game = Game(Rules(num_players=num_players), seed=seed)
        rng = random.Random(seed)
        for _ in range(4000):
            if game.is_over:
                break
            if game.phase == phase and len(game.legal_actions()) > 1:
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no seeded game reached {phase.name}")


def game_answering_trade() -> Game:
    """A seeded game in which seat ``turn`` has offered a place and the target must answer."""
    game = game_at(Phase.PRE_ROLL)
    rng = random.Random(1)
    while True:
        p = game.current_player
        if game.phase == Phase.PRE_ROLL and game.places_of(p) and game.can_offer_trade():
            target = next(s for s in game.active_seats() if s != p)
            offer = actions.offer_trade(target, (game.places_of(p)[0],), (), 0)
            if game.trade_error(offer) is None:
                game.apply(offer)
                return game
        game.apply(rng.choice(game.legal_actions()))


# ---------------------------------------------------------------------- tables
def test_create_and_read_a_table(client: TestClient) -> None:
    state = new_table(client, rounds=20)
    assert state["api_version"] == 1
    assert [s["player"] for s in state["seats"]] == ["person", "hard"]
    assert state["to_move"] == "person"
    assert state["status"]["phase"] == "PRE_ROLL" and state["status"]["round_limit"] == 20
    assert state["game"]["format"] == "byapar-game"
    assert Game.from_json(json.dumps(state["game"])).to_json() == json.dumps(
        state["game"], separators=(",", ":"))
    assert state["legal"] == [{"id": 0, "name": "roll the dice", "text": "roll",
                               "engine": {"kind": "roll", "square": -1, "amount": 0,
                                          "target": -1, "give": [], "take": []}}]
    again = client.get(f"/v1/tables/{state['id']}").json()
    assert again["game"] == state["game"]


@pytest.mark.parametrize("how", [{"name": "roll the dice"}, {"name": "ROLL"}, {"id": 0},
                                 {"engine": {"kind": "roll"}}])
def test_apply_by_name_id_or_engine_form(client: TestClient, how: dict) -> None:
    state = new_table(client)
    r = client.post(f"/v1/tables/{state['id']}/actions", json=how)
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["version"] == 1
    assert after["game"]["turn_count"] > 1 or after["status"]["phase"] != "PRE_ROLL" or (
        after["game"]["dice"] != [0, 0])


def test_an_illegal_action_is_refused_with_the_legal_ones_and_changes_nothing(
        client: TestClient) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}/actions"
    for body in ({"id": 5}, {"name": "buy Kathmandu"}, {"engine": {"kind": "build", "square": 35}},
                 {"id": 160}):
        r = client.post(url, json=body)
        assert r.status_code == 422, (body, r.text)
        err = r.json()
        assert err["error"] == "illegal_action" and "legal" in err["detail"]
        assert err["allowed"] == [{"id": 0, "name": "roll the dice", "text": "roll"}]
    r = client.post(url, json={"id": 160})  # a trade-composition id: the hint says how to offer
    assert "offer_trade" in r.json()["detail"]
    assert client.get(f"/v1/tables/{state['id']}").json() == state


@pytest.mark.parametrize(("body", "field"), [
    ({}, "action"), ({"id": 0, "name": "roll"}, "action"), ({"id": "0"}, "id"),
    ({"id": True}, "id"), ({"id": 999}, "id"), ({"engine": {"kind": "fly"}}, "engine.kind"),
    ({"engine": {"kind": "bid", "square": "x"}}, "engine.square"),
    ({"engine": {"kind": "roll", "colour": 1}}, "engine.colour"), ({"seat": 9}, "seat"),
    ({"extra": 1}, "extra"),
])
def test_malformed_action_requests_name_the_field(client: TestClient, body: dict,
                                                  field: str) -> None:
    state = new_table(client)
    r = client.post(f"/v1/tables/{state['id']}/actions", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["field"] == field, r.json()
    assert client.get(f"/v1/tables/{state['id']}").json()["version"] == 0


def test_a_computer_seat_is_not_played_by_a_client(client: TestClient) -> None:
    state = new_table(client, seats=("hard", "person"))
    assert state["to_move"] == "computer"
    r = client.post(f"/v1/tables/{state['id']}/actions", json={"id": 0})
    assert r.status_code == 409 and "advance" in r.json()["detail"]
    r = client.post(f"/v1/tables/{state['id']}/actions", json={"id": 0, "seat": 1})
    assert r.status_code == 409 and r.json()["field"] == "seat"
    moved = client.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 1000})
    assert moved.status_code == 200
    after = moved.json()
    assert after["moves"] and all(m["seat"] == 0 for m in after["moves"])
    assert after["to_move"] in ("person", None)
    # Nothing to advance on a person's turn: no moves, nothing changed.
    again = client.post(f"/v1/tables/{state['id']}/advance").json()
    assert again["moves"] == [] and again["version"] == after["version"]


def test_a_whole_game_through_the_api(client: TestClient) -> None:
    state = new_table(client, seats=("person", "medium", "hard"), rounds=3)
    url = f"/v1/tables/{state['id']}"
    for _ in range(2000):
        if state["to_move"] is None:
            break
        if state["to_move"] == "computer":
            state = client.post(f"{url}/advance", json={"max_decisions": 100}).json()
        else:
            legal = state["legal"]
            pick = next((e for e in legal if e["engine"]["kind"] in ("buy", "roll")), legal[-1])
            state = client.post(f"{url}/actions", json={"id": pick["id"]}).json()
    assert state["status"]["is_over"] and state["status"]["winners"]
    assert state["legal"] == [] and state["to_move"] is None
    r = client.post(f"{url}/actions", json={"id": 0})
    assert r.status_code == 409 and "over" in r.json()["detail"]


def test_bids_at_any_amount_and_by_name(client: TestClient) -> None:
    game = game_at(Phase.AUCTION, num_players=2)
    seats = ["person", "person"]
    state = client.post("/v1/tables", json={"game": json.loads(game.to_json()),
                                            "seats": seats}).json()
    bids = state["bids"]
    assert bids["min"] == game.auction.high + 100 and bids["max"] == game.cash[
        game.current_player]
    amount = bids["min"] + 300 if bids["min"] + 300 <= bids["max"] else bids["min"]
    square = bids["square"]
    r = client.post(f"/v1/tables/{state['id']}/actions",
                    json={"engine": {"kind": "bid", "square": square, "amount": amount}})
    assert r.status_code == 200, r.text
    assert r.json()["game"]["auction"]["high"] == amount
    r = client.post(f"/v1/tables/{state['id']}/actions",
                    json={"engine": {"kind": "bid", "square": square, "amount": 10**8}})
    assert r.status_code == 422 and "any bid from" in r.json()["detail"]


def test_trade_offers_in_engine_form(client: TestClient) -> None:
    game = Game(Rules(num_players=2), seed=3)
    game.owner[1], game.owner[3] = 0, 1  # Jumla to seat 0, Surkhet to seat 1
    state = client.post("/v1/tables", json={"game": json.loads(game.to_json()),
                                            "seats": ["person", "person"]}).json()
    assert state["trade"] == {"targets": [1], "offers_left": 3}
    url = f"/v1/tables/{state['id']}/actions"
    bad = client.post(url, json={"engine": {"kind": "offer_trade", "target": 1, "give": [3]}})
    assert bad.status_code == 422 and "does not own" in bad.json()["detail"]
    offer = {"kind": "offer_trade", "target": 1, "give": [1], "take": [3], "amount": -200}
    r = client.post(url, json={"engine": offer})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["status"]["phase"] == "TRADE_ANSWER" and after["status"]["current_player"] == 1
    assert after["offer"]["from"] == 0 and after["offer"]["give"] == [1]
    accepted = client.post(url, json={"name": "accept the trade offered"}).json()
    assert accepted["game"]["owner"][1] == 1 and accepted["game"]["owner"][3] == 0
    assert accepted["players"][0]["cash"] == game.cash[0] + 200


def test_save_and_load_a_table(client: TestClient) -> None:
    state = new_table(client, seats=("person", "easy", "medium"))
    url = f"/v1/tables/{state['id']}"
    client.post(f"{url}/actions", json={"id": 0})
    client.post(f"{url}/advance", json={"max_decisions": 50})
    saved = client.get(f"{url}/save")
    assert saved.status_code == 200
    assert "attachment" in saved.headers["content-disposition"]
    data = saved.json()
    assert data["format"] == "byapar-table" and data["seats"] == ["person", "easy", "medium"]
    loaded = client.post("/v1/tables", json={"save": data})
    assert loaded.status_code == 201, loaded.text
    assert loaded.json()["id"] != state["id"]
    assert loaded.json()["game"] == client.get(url).json()["game"]
    swapped = client.post("/v1/tables", json={"save": data, "seats": ["person"] * 3})
    assert [s["player"] for s in swapped.json()["seats"]] == ["person"] * 3
    bare = client.post("/v1/tables", json={"game": data["game"], "seats": ["hard"] * 3})
    assert bare.status_code == 201
    wrong = client.post("/v1/tables", json={"game": data["game"], "seats": ["hard"] * 2})
    assert wrong.status_code == 422 and wrong.json()["field"] == "seats"


# ---------------------------------------------------------------------- bad input
def _damaged_saves() -> list[tuple[str, object]]:
    good = json.loads(Game(Rules(num_players=2), seed=1).to_json())
    out: list[tuple[str, object]] = [("not an object", [1, 2]), ("text", "{not json"),
                                     ("empty", {})]
    for key, value in (("board", "another"), ("version", 99), ("cash", [1]),
                       ("owner", [7] * 36), ("phase", 2), ("current_player", 5)):
        out.append((key, {**good, key: value}))
    missing = dict(good)
    del missing["rng"]
    out.append(("missing rng", missing))
    return out


@pytest.mark.parametrize(("label", "save"), _damaged_saves())
def test_a_damaged_save_is_refused_with_the_engines_error(client: TestClient, label: str,
                                                          save: object) -> None:
    r = client.post("/v1/decide", json={"game": save, "player": "hard"})
    assert r.status_code == 422, (label, r.text)
    err = r.json()
    assert err["field"] == "game" and "GameStateError" in err["detail"], err
    count = len(client.app.state.store)
    r = client.post("/v1/tables", json={"game": save, "seats": ["person", "hard"]})
    assert r.status_code == 422 and "GameStateError" in r.json()["detail"]
    assert len(client.app.state.store) == count


def test_unknown_players_are_refused_listing_the_known_ones(client: TestClient) -> None:
    game = json.loads(Game(Rules(num_players=2), seed=1).to_json())
    r = client.post("/v1/decide", json={"game": game, "player": "grandmaster"})
    assert r.status_code == 422
    err = r.json()
    assert err["error"] == "unknown_player" and err["field"] == "player"
    for name in ("random", "easy", "medium", "hard", "strategist", "guardian"):
        assert name in err["allowed"] and name in err["detail"]
    r = client.post("/v1/tables", json={"seats": ["person", "grandmaster"]})
    assert r.status_code == 422 and r.json()["field"] == "seats[1]"
    assert "person" in r.json()["allowed"]
    # A folder on the server's disk is not a player unless the server was started with it.
    r = client.post("/v1/decide", json={"game": game, "player": "/tmp"})
    assert r.status_code == 422


@pytest.mark.parametrize(("body", "field"), [
    ({"seats": ["person"]}, "seats"),
    ({"seats": ["person"] * 7}, "seats"),
    ({"seats": ["x" * 300, "hard"]}, "seats.0"),
    ({"seats": ["person", "hard"], "rules": {"rounds": 0}}, "rules.rounds"),
    ({"seats": ["person", "hard"], "rules": {"rounds": 10_000}}, "rules.rounds"),
    ({"seats": ["person", "hard"], "rules": {"rounds": "40"}}, "rules.rounds"),
    ({"seats": ["person", "hard"], "rules": {"starting_cash": 150}}, "rules.starting_cash"),
    ({"seats": ["person", "hard"], "rules": {"starting_cash": 10**9}}, "rules.starting_cash"),
    ({"seats": ["person", "hard"], "rules": {"auctions": "yes"}}, "rules.auctions"),
    ({"seats": ["person", "hard"], "rules": {"speed": 2}}, "rules.speed"),
    ({"seats": ["person", "hard"], "seed": -1}, "seed"),
])
def test_bad_table_options_name_the_field(client: TestClient, body: dict, field: str) -> None:
    count = len(client.app.state.store)
    r = client.post("/v1/tables", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["field"] == field, r.json()
    assert len(client.app.state.store) == count


def test_bad_json_unknown_routes_and_tables(client: TestClient) -> None:
    r = client.post("/v1/decide", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == "the request body is not valid JSON"
    assert client.get("/v2/anything").status_code == 404
    r = client.get("/v1/tables/doesnotexist")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    assert client.delete("/v1/tables/doesnotexist").status_code == 404
    r = client.post(f"/v1/tables/{new_table(client)['id']}/advance",
                    json={"max_decisions": 10**6})
    assert r.status_code == 422 and r.json()["field"] == "max_decisions"


def test_no_traceback_reaches_a_client(monkeypatch: pytest.MonkeyPatch) -> None:
    from byapar_serve import api_info

    def broken(*args, **kwargs):
        raise RuntimeError("secret internals at /srv/app.py line 12")

    monkeypatch.setattr(api_info, "decide", broken)
    quiet = TestClient(create_app(), raise_server_exceptions=False)
    game = json.loads(Game(Rules(num_players=2), seed=1).to_json())
    r = quiet.post("/v1/decide", json={"game": game})
    assert r.status_code == 500
    assert r.json() == {"error": "internal", "detail": "internal server error"}
    assert "secret" not in r.text and "Traceback" not in r.text


# ---------------------------------------------------------------------- bounds and isolation
def test_the_number_of_tables_is_bounded() -> None:
    full = TestClient(create_app(store=TableStore(max_tables=2, idle_evict_s=3600)))
    for _ in range(2):
        assert full.post("/v1/tables", json={"seats": ["person", "easy"]}).status_code == 201
    r = full.post("/v1/tables", json={"seats": ["person", "easy"]})
    assert r.status_code == 429 and "at most 2 tables" in r.json()["detail"]
    # With idle tables evictable, the least recently used one goes.
    evicting = TestClient(create_app(store=TableStore(max_tables=2, idle_evict_s=0)))
    ids = [evicting.post("/v1/tables", json={"seats": ["person", "easy"]}).json()["id"]
           for _ in range(2)]
    evicting.get(f"/v1/tables/{ids[0]}")  # ids[0] used last: ids[1] is the oldest idle
    third = evicting.post("/v1/tables", json={"seats": ["person", "easy"]})
    assert third.status_code == 201
    assert evicting.get(f"/v1/tables/{ids[1]}").status_code == 404
    assert evicting.get(f"/v1/tables/{ids[0]}").status_code == 200
    assert evicting.delete(f"/v1/tables/{ids[0]}").status_code == 204
    assert len(evicting.app.state.store) == 1


def test_request_bodies_are_bounded() -> None:
    small = TestClient(create_app(max_body_bytes=1000))
    game = json.loads(Game(Rules(num_players=2), seed=1).to_json())
    r = small.post("/v1/decide", json={"game": game})
    assert r.status_code == 413 and r.json()["error"] == "body_too_large"

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(10):
            yield b" " * 500

    r = small.post("/v1/decide", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert small.get("/v1").status_code == 200


def test_tables_are_isolated(client: TestClient) -> None:
    a = new_table(client, seats=("person", "easy"))
    b = new_table(client, seats=("person", "easy"))
    client.post(f"/v1/tables/{a['id']}/actions", json={"id": 0})
    client.post(f"/v1/tables/{a['id']}/advance", json={"max_decisions": 100})
    assert client.get(f"/v1/tables/{b['id']}").json() == b
    assert client.get(f"/v1/tables/{a['id']}").json()["version"] > 0


def test_requests_on_one_table_never_interleave(client: TestClient) -> None:
    # Two computer seats: every advance plays; with a lock per table the moves of all the
    # concurrent requests add up to the table's version, and the game stays consistent.
    state = new_table(client, seats=("random", "easy"), rounds=5)
    other = new_table(client, seats=("random", "medium"), rounds=5)
    url = f"/v1/tables/{state['id']}/advance"
    counts: list[int] = []

    def worker(target: str) -> None:
        for _ in range(5):
            r = client.post(target, json={"max_decisions": 7})
            if target == url:
                counts.append(len(r.json()["moves"]))

    threads = [threading.Thread(target=worker, args=(u,))
               for u in [url] * 6 + [f"/v1/tables/{other['id']}/advance"] * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = client.get(f"/v1/tables/{state['id']}").json()
    assert final["version"] == sum(counts) > 0
    Game.from_json(json.dumps(final["game"]))  # the engine still reads it: consistent


# ---------------------------------------------------------------------- decide
@pytest.mark.parametrize("phase", [Phase.PRE_ROLL, Phase.BUY, Phase.AUCTION, Phase.RAISE_CASH,
                                   Phase.TRADE_ANSWER])
@pytest.mark.parametrize("player", ["hard", "medium", "random", "strategist"])
def test_decide_returns_a_legal_action(client: TestClient, phase: Phase, player: str) -> None:
    game = game_answering_trade() if phase == Phase.TRADE_ANSWER else game_at(phase)
    assert game.phase == phase
    r = client.post("/v1/decide", json={"game": json.loads(game.to_json()), "player": player})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["seat"] == game.current_player and out["player"] == player
    assert 0 <= out["ms"] < 1000
    action = engine_action(out["action"]["engine"])
    if action.kind == ActionKind.OFFER_TRADE:
        assert out["action"]["id"] is None and game.trade_error(action) is None
    else:
        assert game.is_legal(action), out
    assert out["action"]["text"] == str(action)
    before = game.to_json()
    game.apply(action)  # a game site applies it on its own engine
    assert game.to_json() != before


def test_decide_accepts_the_saved_game_as_text_and_honours_the_cap(client: TestClient) -> None:
    game = game_at(Phase.PRE_ROLL)
    r = client.post("/v1/decide", json={"game": game.to_json(), "pre_roll_actions": 24})
    assert r.status_code == 200
    assert r.json()["action"] == {"id": 0, "name": "roll the dice", "text": "roll",
                                  "engine": {"kind": "roll", "square": -1, "amount": 0,
                                             "target": -1, "give": [], "take": []}}
    over = Game(Rules(num_players=2, rounds=1), seed=2)
    while not over.is_over:
        over.apply(over.legal_actions()[0])
    r = client.post("/v1/decide", json={"game": json.loads(over.to_json())})
    assert r.status_code == 409 and "over" in r.json()["detail"]


def test_the_hard_player_can_offer_a_trade_in_engine_form(client: TestClient) -> None:
    # Positions where seat 0 holds most of several groups and seat 1 may hold the rest: the
    # hard player offers trades in some; each answer must be legal, an offer whole, with no id.
    seen_offer = False
    for seed in range(40):
        game = Game(Rules(num_players=2), seed=seed)
        rng = random.Random(seed)
        for sq in (1, 6, 7, 10, 12):
            game.owner[sq] = 0
        for sq in (3, 8, 13, 15):
            game.owner[sq] = rng.choice((0, 1))
        out = client.post("/v1/decide", json={"game": json.loads(game.to_json())}).json()
        action = engine_action(out["action"]["engine"])
        if action.kind == ActionKind.OFFER_TRADE:
            seen_offer = True
            assert out["action"]["id"] is None and game.trade_error(action) is None
        else:
            assert game.is_legal(action)
    assert seen_offer, "the hard player never offered a trade in 40 positions built for it"


def test_the_seat_view_observes_what_a_live_environment_observes() -> None:
    env = byapar_v0.raw_env(num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    compared = 0
    for _ in range(1500):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)  # a bankrupt seat steps out
            continue
        if env.draft is None:
            live = env.observe(agent)
            game = Game.from_json(env.game.to_json())
            view = seat_view(game, env.pre_roll_actions, env.habits)
            mine = view.observe(agent)
            assert np.array_equal(live["observation"], mine["observation"])
            assert np.array_equal(live["action_mask"], mine["action_mask"])
            compared += 1
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    assert compared > 100


def test_a_table_counts_the_habits_a_live_environment_counts() -> None:
    """Every engine action a table applies is counted as the environment counts it, so a
    policy at the table sees what it would see in the environment (observation version 2)."""
    env = byapar_v0.raw_env(num_players=3, skip_trivial=False)
    env.reset(seed=6)
    table = Table("t", [PERSON] * 3, Game.from_json(env.game.to_json()), Roster())
    rng = random.Random(6)
    for _ in range(600):
        if env.game.is_over:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)  # a bankrupt seat steps out
            continue
        i = rng.choice([i for i in env.legal_action_ids()
                        if not ACTIONS[i].kind.startswith("trade")])
        action = action_of_id(env.game, i)
        env.step(i)
        table.apply(action)
        assert table.habits.to_list() == env.habits.to_list()
    counts = table.habits.to_list()
    assert sum(row[7] for row in counts) > 5 and sum(row[4] for row in counts) > 0
    agent = env.agent_selection
    view = seat_view(table.game, table.pre_roll_actions, table.habits)
    assert np.array_equal(view.observe(agent)["observation"], env.observe(agent)["observation"])
    before = table.habits.to_list()
    with pytest.raises(IllegalActionError):
        table.apply(actions.build(1))  # nobody may build there: refused, nothing counted
    assert table.habits.to_list() == before


# ---------------------------------------------------------------------- the rest
def test_openapi_and_info(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    for path in ("/v1/decide", "/v1/tables", "/v1/tables/{table_id}",
                 "/v1/tables/{table_id}/actions", "/v1/tables/{table_id}/advance"):
        assert path in spec["paths"], path
    info = client.get("/v1").json()
    assert info["api_version"] == 1 and info["limits"]["max_tables"] == 64
    assert "hard" in info["players"]["levels"] and "shark" in info["players"]["panel"]
    board = client.get("/v1/board").json()
    assert len(board["squares"]) == 36
    assert client.get("/").status_code == 200 and "<title>Byapar" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200


def test_the_ladder_is_offered_and_each_level_plays_at_a_table(client: TestClient) -> None:
    from byapar_agents.ladder import LADDER

    ladder = client.get("/v1").json()["players"]["ladder"]
    assert [level["name"] for level in ladder] == list(LADDER)
    assert all(level["text"] for level in ladder)
    every = client.get("/v1").json()["players"]["all"]
    assert all(name in every for name in LADDER) and len(every) == len(set(every))
    for first in range(0, len(LADDER) - 1, 3):  # every level but the expert, three a table
        seats = list(LADDER[first:first + 3])
        state = client.post("/v1/tables", json={"seats": seats, "seed": first}).json()
        assert [s["player"] for s in state["seats"]] == seats
        moved = client.post(f"/v1/tables/{state['id']}/advance",
                            json={"max_decisions": 40}).json()
        assert moved["moves"] and all(m["player"] in seats for m in moved["moves"])
    for name in LADDER[:-1]:
        r = client.post("/v1/decide", json={"game": json.loads(Game(Rules(num_players=3),
                                                                         seed=2).to_json()),
                                            "player": name})
        assert r.status_code == 200 and r.json()["player"] == name


def test_cli_options_and_a_bad_checkpoint(tmp_path, capsys) -> None:
    args = cli.parse_args([])
    assert (args.host, args.port, args.pace_ms, args.player) == ("127.0.0.1", 8000, 400, [])
    args = cli.parse_args(["--port", "9000", "--pace-ms", "0", "--player", "hard"])
    assert (args.port, args.pace_ms, args.player) == (9000, 0, ["hard"])
    with pytest.raises(SystemExit):
        cli.parse_args(["--pace-ms", "-5"])
    assert cli.main(["--player", str(tmp_path)]) == 2
    assert "weights.npz" in capsys.readouterr().err
    assert Roster(["hard", "medium"]).checkpoints == ()


def test_the_load_benchmark_runs_and_stops_by_itself(capsys) -> None:
    from bench import serve_load

    result = serve_load.main(["--seconds", "3", "--workers", "2", "--max-tables", "2",
                              "--decide-calls", "10"])
    out = capsys.readouterr().out
    assert "requests/s" in out and "decide (hard" in out
    assert result["load"]["errors"] == 0 and result["load"]["requests"] > 0
    assert result["decide"]["calls"] == 10
