"""byapar serve plays Businessman: tables, versions, computer seats, the hidden Exchange hands,
saves and /v1/decide, through FastAPI's TestClient (no socket, no browser)."""

from __future__ import annotations

import copy
import json
import random
import warnings

import pytest

from byapar_env.businessman import ALL_ACTIONS, Game, Phase, Rules
from byapar_env.businessman import board as bm_board

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's TestClient warns about httpx2 one day
    from fastapi.testclient import TestClient

from byapar_serve.app import create_app

PLAYERS = ("random", "easy", "medium", "hard", "expert")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def new_table(client: TestClient, seats=("person", "medium", "hard"), seed: int = 7,
              **rules) -> dict:
    body: dict = {"game": "businessman", "seats": list(seats), "seed": seed}
    if rules:
        body["rules"] = rules
    r = client.post("/v1/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def saved(game: Game) -> dict:
    return json.loads(game.to_json())


def game_at(phase: Phase, num_players: int = 3) -> Game:
    """A seeded game of random legal play stopped at the first choice in ``phase``."""
    for seed in range(200):
        game = Game(Rules(num_players=num_players), seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over:
                break
            if game.phase == phase and len(game.legal_actions()) > 1:
                return game
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no seeded game reached {phase.name}")


# ---------------------------------------------------------------------- tables
def test_create_a_businessman_table(client: TestClient) -> None:
    state = new_table(client)
    assert state["game"] == "businessman" and state["api_version"] == 1
    assert state["version"] == 0 and state["to_move"] == "person" and state["viewer"] == 0
    assert [s["player"] for s in state["seats"]] == ["person", "medium", "hard"]
    assert state["status"]["phase"] == "PRE_ROLL" and state["status"]["round_limit"] == 20
    assert {"id": 0, "name": "roll", "kind": "roll"} in state["legal"]
    for e in state["legal"]:
        assert str(ALL_ACTIONS[e["id"]]) == e["name"]
    assert len(state["hand"]) == bm_board.HAND_MAX == state["players"][0]["hand_size"]
    assert [c["kind"] for c in state["hand"]] == state["view"]["hand"]
    assert state["view"]["seat"] == 0
    # Another seat's hand, the decks' order and the engine's saved game are never in it.
    assert "hands" not in state["view"] and "decks" not in state["view"]
    assert "rng" not in json.dumps(state)
    again = client.get(f"/v1/tables/{state['id']}").json()
    assert again == state


def test_table_options_and_bad_ones(client: TestClient) -> None:
    state = new_table(client, seats=("person", "easy"), rounds=5, abroad=False)
    assert state["status"]["round_limit"] == 5
    assert state["view"]["rules"]["abroad_enabled"] is False
    count = len(client.app.state.store)
    for body, field in (
            ({"game": "businessman", "seats": ["person", "shark"]}, "seats[1]"),
            ({"game": "businessman", "seats": ["person"]}, "seats"),
            ({"game": "businessman"}, "seats"),
            ({"game": "businessman", "seats": ["person", "easy"],
              "rules": {"starting_cash": 15000}}, "rules.starting_cash"),
            ({"game": "businessman", "seats": ["person", "easy"], "rules": {"rounds": 0}},
             "rules.rounds"),
            ({"game": "businessman", "seats": ["person", "easy"], "rules": {"rounds": None}},
             "rules.rounds"),
            ({"game": "businessman", "seats": ["person", "easy"], "rules": {"abroad": "no"}},
             "rules.abroad"),
            ({"seats": ["person", "hard"], "rules": {"abroad": False}}, "rules.abroad")):
        r = client.post("/v1/tables", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["field"] == field, (body, r.json())
    r = client.post("/v1/tables", json={"game": "businessman", "seats": ["person", "shark"]})
    assert r.json()["error"] == "unknown_player"
    assert r.json()["allowed"] == ["person", *PLAYERS]
    assert len(client.app.state.store) == count


def test_byapar_is_the_default_and_may_be_named(client: TestClient) -> None:
    for body in ({"seats": ["person", "hard"]}, {"game": "byapar", "seats": ["person", "hard"]}):
        r = client.post("/v1/tables", json=body)
        assert r.status_code == 201, r.text
        assert r.json()["game"]["format"] == "byapar-game"


def test_act_with_a_version_and_a_stale_version_is_refused(client: TestClient) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}/actions"
    r = client.post(url, json={"id": 0, "version": 0})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["version"] == 1 and after["status"]["dice"] != [0, 0]
    assert after["log"][-1] != state["log"][-1]
    again = client.post(url, json={"id": 0, "version": 0})
    assert again.status_code == 409
    err = again.json()
    assert err["error"] == "stale_version" and err["field"] == "version"
    assert err["version"] == 1
    assert client.get(f"/v1/tables/{state['id']}").json() == after


def test_an_idempotency_key_replays_the_first_answer(client: TestClient) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}/actions"
    first = client.post(url, json={"name": "roll", "idempotency_key": "k1"})
    second = client.post(url, json={"name": "roll", "idempotency_key": "k1"})
    assert first.status_code == second.status_code == 200
    assert second.content == first.content
    assert second.headers.get("idempotent-replayed") == "true"
    assert first.json()["version"] == 1


def test_an_illegal_action_is_refused_naming_the_legal_ones(client: TestClient) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}/actions"
    legal = [{"id": e["id"], "name": e["name"]} for e in state["legal"]]
    buy = next(i for i, a in enumerate(ALL_ACTIONS) if a.kind.name == "BUY")
    for body, field in (({"id": buy}, "id"), ({"name": "buy Kiosk"}, "name")):
        r = client.post(url, json=body)
        assert r.status_code == 422, r.text
        err = r.json()
        assert err["error"] == "illegal_action" and err["field"] == field
        assert err["allowed"] == legal and "legal" in err["detail"]
    for body, field in (({"id": len(ALL_ACTIONS)}, "id"), ({"engine": {"kind": "roll"}}, "action"),
                        ({}, "action"), ({"id": 0, "name": "roll"}, "action")):
        r = client.post(url, json=body)
        assert r.status_code == 422 and r.json()["field"] == field, (body, r.text)
    assert client.get(f"/v1/tables/{state['id']}").json() == state


def test_advance_plays_the_computers_until_the_person(client: TestClient) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}"
    state = client.post(f"{url}/actions", json={"id": 0}).json()
    while state["to_move"] == "person":  # the rest of the person's turn: end it
        state = client.post(f"{url}/actions", json={"id": state["legal"][0]["id"]}).json()
    assert state["to_move"] == "computer" and state["legal"] == []
    r = client.post(f"{url}/actions", json={"id": 0})
    assert r.status_code == 409 and r.json()["field"] == "seat"
    before = state["version"]
    after = client.post(f"{url}/advance", json={"max_decisions": 1000,
                                                "version": before}).json()
    assert after["to_move"] in ("person", None)
    assert after["moves"] and {m["seat"] for m in after["moves"]} <= {1, 2}
    assert after["version"] == before + len(after["moves"])
    for m in after["moves"]:
        if m["id"] is not None:  # a card played shows no id (below)
            assert str(ALL_ACTIONS[m["id"]]) == m["text"]
    if after["to_move"] == "person":
        assert after["status"]["current_player"] == 0 and after["legal"]


def test_advance_keeps_to_its_caps(client: TestClient) -> None:
    from byapar_serve.businessman import BusinessmanTable
    from byapar_serve.roster import Roster

    state = new_table(client, seats=("medium", "hard", "easy"))
    assert state["viewer"] is None and state["to_move"] == "computer"
    one = client.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 1}).json()
    assert len(one["moves"]) == 1 and one["version"] == 1
    table = BusinessmanTable("t", ["medium", "hard", "easy"], Game(Rules(num_players=3), seed=1),
                             Roster())
    ticks = iter(range(100))
    # A clock that moves one second a reading: the start, then one reading before each move.
    moves = table.advance(1000, budget_s=3.0, clock=lambda: next(ticks))
    assert len(moves) == 2 and table.version == 2


def test_a_whole_game_through_the_api(client: TestClient) -> None:
    state = new_table(client, seats=("person", "random"), rounds=3)
    url = f"/v1/tables/{state['id']}"
    rng = random.Random(0)
    for _ in range(2000):
        if state["to_move"] is None:
            break
        if state["to_move"] == "computer":
            state = client.post(f"{url}/advance", json={"max_decisions": 1000}).json()
        else:
            choice = rng.choice(state["legal"])["id"]
            r = client.post(f"{url}/actions", json={"id": choice, "version": state["version"]})
            assert r.status_code == 200, r.text
            state = r.json()
    assert state["status"]["is_over"] and state["status"]["winners"]
    assert state["legal"] == []


def test_mute_is_for_byapar_tables(client: TestClient) -> None:
    state = new_table(client)
    r = client.post(f"/v1/tables/{state['id']}/mute", json={"seat": 1})
    assert r.status_code == 409 and r.json()["field"] == "table_id"


# ---------------------------------------------------------------------- hidden information
def _other_hand(data: dict, seat: int) -> dict:
    """The same saved game with a different Exchange hand for ``seat`` (one card swapped for a
    kind nobody holds to its limit) and the Surprise deck in another order."""
    out = copy.deepcopy(data)
    used = [sum(h.count(k.index) for h in data["hands"]) + data["played"].count(k.index)
            for k in bm_board.EXCHANGE_KINDS]
    hand = out["hands"][seat]
    spare = next(k.index for k in bm_board.EXCHANGE_KINDS
                 if used[k.index] < k.count and k.index not in hand)
    hand[0] = spare
    out["hands"][seat] = sorted(hand)
    out["decks"][bm_board.SURPRISE_DECK] = out["decks"][bm_board.SURPRISE_DECK][::-1]
    assert Game.from_json(json.dumps(out)).hands[seat] != data["hands"][seat]
    return out


def _seen(client: TestClient, data: dict, seats: list[str], query: str = "") -> dict:
    r = client.post("/v1/tables", json={"game": data, "seats": seats})
    assert r.status_code == 201, r.text
    state = client.get(f"/v1/tables/{r.json()['id']}{query}").json()
    del state["id"]
    return state


@pytest.mark.parametrize("phase", [Phase.PRE_ROLL, Phase.EXCHANGE_CARD, Phase.BUY])
def test_another_seats_hand_never_reaches_the_viewer(client: TestClient, phase: Phase) -> None:
    game = game_at(phase)
    data = saved(game)
    viewer = game.current_player
    other = (viewer + 1) % 3
    seats = ["hard"] * 3
    seats[viewer] = "person"
    mine = _seen(client, data, seats)
    assert mine["viewer"] == viewer and mine["legal"]
    # Only another seat's hand (and a deck's order) differ: the viewer sees the same state.
    assert _seen(client, _other_hand(data, other), seats) == mine
    # The viewer's own hand is shown: changing it changes what the viewer sees.
    assert _seen(client, _other_hand(data, viewer), seats)["hand"] != mine["hand"]


@pytest.mark.parametrize(("phase", "shown"), [
    (Phase.BUY, "BUY_OFFER"), (Phase.TRADE_ANSWER, "TRADE_RESPONSE"),
    (Phase.RAISE_CASH, "RAISE_FUNDS"), (Phase.FORK, "FORK")])
def test_the_status_names_a_phase_as_it_always_has(client: TestClient, phase: Phase,
                                                   shown: str) -> None:
    """Three phases took Byapar's names in the engine; the server's status still sends the
    names a client has always read (the schema's list)."""
    game = game_at(phase)
    seats = ["hard"] * 3
    seats[game.current_player] = "person"
    r = client.post("/v1/tables", json={"game": saved(game), "seats": seats})
    assert r.status_code == 201, r.text
    assert r.json()["status"]["phase"] == shown


def test_a_computers_card_is_shown_without_its_hand_slot(client: TestClient) -> None:
    state = new_table(client, seats=("person", "medium", "hard"), seed=2, rounds=6)
    url = f"/v1/tables/{state['id']}"
    cards = []
    for _ in range(400):
        if state["to_move"] is None:
            break
        if state["to_move"] == "computer":
            state = client.post(f"{url}/advance", json={"max_decisions": 1000}).json()
            cards += [m for m in state["moves"] if "Exchange card" in m["text"]]
        else:
            state = client.post(f"{url}/actions", json={"id": state["legal"][0]["id"]}).json()
    assert cards, "no computer played an Exchange card"
    for m in cards:
        assert m["id"] is None and "slot" not in m["text"], m
        assert m["text"].startswith("play an Exchange card on ")


def test_the_viewer_is_a_person_seat(client: TestClient) -> None:
    data = saved(Game(Rules(num_players=3), seed=3))
    both = _seen(client, data, ["person", "hard", "person"], "?seat=2")
    assert both["viewer"] == 2 and both["legal"] == []  # seat 0 decides, not seat 2
    assert both["view"]["hand"] == data["hands"][2]
    r = client.post("/v1/tables", json={"game": data, "seats": ["person", "hard", "hard"]})
    bad = client.get(f"/v1/tables/{r.json()['id']}?seat=1")
    assert bad.status_code == 422 and bad.json()["field"] == "seat"
    assert bad.json()["allowed"] == [0]
    nobody = _seen(client, data, ["hard", "medium", "easy"])
    assert nobody["viewer"] is None and nobody["hand"] is None
    assert nobody["view"]["hand"] is None and nobody["legal"] == []


# ---------------------------------------------------------------------- saves
def test_save_and_load_a_table(client: TestClient) -> None:
    state = new_table(client, seats=("person", "easy", "medium"))
    url = f"/v1/tables/{state['id']}"
    client.post(f"{url}/actions", json={"id": 0})
    client.post(f"{url}/advance", json={"max_decisions": 50})
    now = client.get(url).json()
    saved_file = client.get(f"{url}/save")
    assert saved_file.status_code == 200
    assert "businessman-" in saved_file.headers["content-disposition"]
    data = saved_file.json()
    assert data["format"] == "businessman-table" and data["seats"] == ["person", "easy", "medium"]
    assert data["game"]["format"] == "businessman-game"
    loaded = client.post("/v1/tables", json={"save": data})
    assert loaded.status_code == 201, loaded.text
    back = loaded.json()
    assert back["id"] != now["id"] and back["version"] == 0
    for key in ("status", "players", "hand", "legal", "view", "log", "seats", "to_move"):
        assert back[key] == now[key], key
    assert Game.from_json(json.dumps(data["game"])).to_json() == json.dumps(
        data["game"], separators=(",", ":"))
    swapped = client.post("/v1/tables", json={"save": data, "seats": ["person"] * 3})
    assert [s["player"] for s in swapped.json()["seats"]] == ["person"] * 3
    bare = client.post("/v1/tables", json={"game": data["game"], "seats": ["hard"] * 3})
    assert bare.status_code == 201 and bare.json()["viewer"] is None
    text = client.post("/v1/tables", json={"game": json.dumps(data["game"]),
                                           "seats": ["person", "hard", "hard"]})
    assert text.status_code == 201 and text.json()["game"] == "businessman"


def _bad_saves() -> list[tuple[str, dict, str]]:
    good = saved(Game(Rules(num_players=3), seed=1))
    table = {"format": "businessman-table", "version": 1,
             "seats": ["person", "hard", "hard"], "game": good}
    missing = dict(good)
    del missing["rng"]
    return [
        ("cash", {"save": {**table, "game": {**good, "cash": [1, 2, 3]}}}, "save.game"),
        ("hands", {"save": {**table, "game": {**good, "hands": [[0, 0, 0, 0, 0]] * 3}}},
         "save.game"),
        ("board", {"save": {**table, "game": {**good, "board": "another"}}}, "save.game"),
        ("missing rng", {"save": {**table, "game": missing}}, "save.game"),
        ("version", {"save": {**table, "version": 9}}, "save.format"),
        ("no limit", {"save": {**table, "game": {**good, "rules": {
            **good["rules"], "max_rounds": 0}}}}, "save.game"),
        ("seats", {"save": {**table, "seats": "person"}}, "save.seats"),
        ("seat count", {"game": good, "seats": ["person", "hard"]}, "seats"),
        ("bare", {"game": {**good, "phase": 99}, "seats": ["person", "hard", "hard"]}, "game"),
        ("with rules", {"game": good, "seats": ["person", "hard", "hard"],
                        "rules": {"rounds": 5}}, "rules"),
        ("named byapar", {"game": "byapar", "save": table}, "game"),
    ]


@pytest.mark.parametrize(("label", "body", "field"), _bad_saves())
def test_a_bad_save_is_refused(client: TestClient, label: str, body: dict, field: str) -> None:
    count = len(client.app.state.store)
    r = client.post("/v1/tables", json=body)
    assert r.status_code == 422, (label, r.text)
    err = r.json()
    assert err["field"] == field, (label, err)
    if field.endswith("game") and label not in ("named byapar", "no limit"):
        assert err["error"] == "bad_saved_game" and "GameStateError" in err["detail"], err
    assert len(client.app.state.store) == count


# ---------------------------------------------------------------------- decide
@pytest.mark.parametrize("phase", [Phase.PRE_ROLL, Phase.BUY, Phase.EXCHANGE_CARD,
                                   Phase.EXCHANGE_TRADE, Phase.FORK])
@pytest.mark.parametrize("player", PLAYERS)
def test_decide_answers_a_legal_action(client: TestClient, phase: Phase, player: str) -> None:
    game = game_at(phase)
    r = client.post("/v1/decide", json={"game": saved(game), "player": player})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["game"] == "businessman" and out["seat"] == game.current_player
    assert out["player"] == player
    action = ALL_ACTIONS[out["action"]["id"]]
    assert action in game.legal_actions() and out["action"]["name"] == str(action)
    game.apply(action)  # a site applies it as is


def test_decide_refuses_what_businessman_does_not_take(client: TestClient) -> None:
    data = saved(Game(Rules(num_players=2), seed=1))
    for body, field, code in (
            ({"game": data, "player": "shark"}, "player", "unknown_player"),
            ({"game": data, "budget_ms": 100}, "budget_ms", "invalid_input"),
            ({"game": data, "pre_roll_actions": 3}, "pre_roll_actions", "invalid_input"),
            ({"game": "businessman"}, "game", "invalid_input"),
            ({"game": {**data, "cash": [0, 0]}}, "game", "bad_saved_game")):
        r = client.post("/v1/decide", json=body)
        assert r.status_code == 422, (body, r.text)
        assert (r.json()["field"], r.json()["error"]) == (field, code)
    r = client.post("/v1/analyse", json={"game": data})
    assert r.status_code == 422 and r.json()["field"] == "game"
    assert "Byapar" in r.json()["detail"]
    over = Game(Rules(num_players=2, max_rounds=1), seed=1)
    while not over.is_over:
        over.apply(over.legal_actions()[0])
    r = client.post("/v1/decide", json={"game": saved(over)})
    assert r.status_code == 409


# ---------------------------------------------------------------------- the rest
def test_info_board_and_openapi_list_both_games(client: TestClient) -> None:
    info = client.get("/v1").json()
    assert info["games"]["businessman"]["players"] == ["person", *PLAYERS]
    assert "shark" in info["games"]["byapar"]["players"]
    board = client.get("/v1/board", params={"game": "businessman"}).json()
    assert len(board["cells"]) == bm_board.NUM_CELLS and board["colours"] == list(bm_board.COLOURS)
    assert len(client.get("/v1/board").json()["squares"]) == 36
    assert client.get("/v1/board", params={"game": "chess"}).status_code == 422
    spec = client.get("/openapi.json").json()
    for name in ("BusinessmanTableState", "BusinessmanDecideOut", "TableState"):
        assert name in spec["components"]["schemas"], name


def test_no_body_gets_a_500(client: TestClient) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}"
    rng = random.Random(5)
    values = [None, 0, -1, 10**20, 1.5, "", "x" * 300, "businessman", [], {}, [1, "a"],
              {"kind": 1}, True]
    keys = ["id", "name", "engine", "seat", "version", "idempotency_key", "game", "seats",
            "rules", "save", "max_decisions", "player"]
    for _ in range(150):
        body = {rng.choice(keys): rng.choice(values) for _ in range(rng.randint(0, 3))}
        for path in (f"{url}/actions", f"{url}/advance", "/v1/tables", "/v1/decide"):
            r = client.post(path, json=body)
            assert r.status_code < 500, (path, body, r.text)


def test_the_environments_per_turn_caps_hold_at_a_table(client: TestClient) -> None:
    from byapar_env.businessman import ACTION_ID
    from byapar_env.businessman import actions as bm_actions
    from byapar_env.driver import PRE_ROLL_CAP

    game = Game(Rules(num_players=2), seed=0)
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0
    lot = bm_board.LOTS[0]
    game.owner[lot] = 0
    r = client.post("/v1/tables", json={"game": saved(game), "seats": ["person", "medium"]})
    assert r.status_code == 201, r.text
    state = r.json()
    url = f"/v1/tables/{state['id']}/actions"
    for k in range(PRE_ROLL_CAP):  # pledge and redeem the lot, the person's turn throughout
        action = bm_actions.redeem(lot) if k % 2 else bm_actions.mortgage(lot)
        assert ACTION_ID[action] in [e["id"] for e in state["legal"]]
        state = client.post(url, json={"id": ACTION_ID[action]}).json()
        assert state["version"] == k + 1
    roll = [{"id": ACTION_ID[bm_actions.ROLL], "name": str(bm_actions.ROLL)}]
    assert [{"id": e["id"], "name": e["name"]} for e in state["legal"]] == roll
    r = client.post(url, json={"id": ACTION_ID[bm_actions.mortgage(lot)]})
    assert r.status_code == 422 and r.json()["allowed"] == roll
    assert client.get(f"/v1/tables/{state['id']}").json()["version"] == PRE_ROLL_CAP
    assert client.post(url, json={"id": ACTION_ID[bm_actions.ROLL]}).status_code == 200


# ---------------------------------------------------------------------- game_name
def test_game_name_tells_the_game_on_requests_and_states(client: TestClient) -> None:
    r = client.post("/v1/tables", json={"game_name": "businessman", "seats": ["medium", "easy"],
                                        "seed": 3})
    assert r.status_code == 201, r.text
    assert r.json()["game_name"] == "businessman" and r.json()["game"] == "businessman"
    byapar = client.post("/v1/tables", json={"game_name": "byapar", "seats": ["medium", "easy"],
                                             "seed": 3})
    assert byapar.status_code == 201 and byapar.json()["game_name"] == "byapar"
    assert isinstance(byapar.json()["game"], dict)  # Byapar's "game" is its saved game
    # with game_name, "game" is a saved game of that game
    game = Game(Rules(num_players=2), seed=9)
    again = client.post("/v1/tables", json={"game_name": "businessman", "game": saved(game),
                                            "seats": ["medium", "easy"]})
    assert again.status_code == 201 and again.json()["game_name"] == "businessman"


@pytest.mark.parametrize("body, field, says", [
    ({"game_name": "chess"}, "game_name", "game_name must be one of byapar, businessman"),
    ({"game_name": "byapar", "game": "businessman"}, "game", "name different games"),
    ({"game_name": "byapar", "game": "SAVED"}, "game", "the save is a Businessman table"),
])
def test_a_wrong_game_name_is_refused(client: TestClient, body, field, says) -> None:
    if body.get("game") == "SAVED":
        body = {**body, "game": saved(Game(Rules(num_players=2), seed=9))}
    r = client.post("/v1/tables", json={**body, "seats": ["medium", "easy"]})
    assert r.status_code == 422, r.text
    error = r.json()
    assert error["error"] == "invalid_input" and error["field"] == field
    assert says in error["detail"] and error["allowed"] == ["byapar", "businessman"]
