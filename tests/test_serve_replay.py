"""Replays: a table records its game, and /replay plays it back move by move with each seat's
win chance, the biggest swings named, and any position shown as a table state."""

from __future__ import annotations

import json
import pickle
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from byapar_agents.value import shipped_value
from byapar_env.businessman import Game as BusinessmanGame
from byapar_env.engine import Game
from byapar_serve.app import create_app
from byapar_serve.replay import MAX_RECORDED_MOVES, MIN_SWING, GameRecord

HEADER = "X-Seat-Secret"


def play_out(client: TestClient, url: str, headers: dict | None = None) -> dict:
    state = client.get(url, headers=headers).json()
    for _ in range(200):
        if state["to_move"] is None:
            return state
        state = client.post(f"{url}/advance", json={"max_decisions": 500},
                            headers=headers).json()
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def finished() -> tuple[TestClient, str]:
    """A finished four-seat Byapar game of computers (8 rounds, seed 5) on an open server."""
    client = TestClient(create_app())
    r = client.post("/v1/tables", json={"seats": ["hard", "medium", "easy", "random"],
                                        "seed": 5, "rules": {"rounds": 8}})
    assert r.status_code == 201, r.text
    url = f"/v1/tables/{r.json()['id']}"
    play_out(client, url)
    return client, url


def test_replaying_the_record_gives_the_tables_own_game(finished) -> None:
    client, url = finished
    table = client.app.state.store.get(url.rsplit("/", 1)[1])
    record = table.record
    assert len(record) == table.version > 50
    assert record.position(Game, len(record)).to_json() == table.game.to_json()
    assert record.position(Game, 0).to_json() == record.opening
    assert Game.from_json(record.opening).log == ["Round 1: seat 0 to play (4 players)"]


def test_the_replay_has_a_frame_a_move_with_the_value_networks_chances(finished) -> None:
    client, url = finished
    data = client.get(f"{url}/replay").json()
    table = client.app.state.store.get(url.rsplit("/", 1)[1])
    assert data["game_name"] == "byapar" and data["seats"] == ["hard", "medium", "easy", "random"]
    assert data["moves"] == len(data["frames"]) == table.version
    assert data["chance_kind"] == "value network" and data["complete"] is True
    # each frame: the seat that moved, and the chances the value network gives after the
    # move; with an offer waiting for its answer, the chances before it
    game = Game.from_json(table.record.opening)
    value = shipped_value()
    before = data["start"]["chances"]
    offers = 0
    for frame, action in zip(data["frames"], table.record.actions, strict=True):
        assert frame["seat"] == game.current_player
        written = len(game.log)
        game.apply(action)
        assert frame["log"] == game.log[written:]
        assert frame["action"] == str(action)
        if game.offer is not None:
            offers += 1
            assert frame["chances"] == before
        elif frame["n"] <= 60 or frame["n"] % 25 == 0:
            assert frame["chances"] == pytest.approx(value.win_chances(game), abs=2e-4)
        before = frame["chances"]
    assert offers > 0
    # the last frame holds the true result: the winner's whole share
    last = data["frames"][-1]["chances"]
    winners = table.game.winners
    assert [s for s, c in enumerate(last) if c > 0] == sorted(winners)
    assert data["start"]["log"] == Game.from_json(table.record.opening).log


def test_the_swings_are_the_biggest_changes_of_one_seats_chance(finished) -> None:
    client, url = finished
    data = client.get(f"{url}/replay").json()
    frames = [data["start"], *data["frames"]]
    changes = []
    for n in range(1, len(frames)):
        deltas = [a - b for a, b in zip(frames[n]["chances"], frames[n - 1]["chances"],
                                        strict=True)]
        seat = max(range(4), key=lambda s: abs(deltas[s]))
        if abs(deltas[seat]) >= MIN_SWING:
            changes.append((abs(deltas[seat]), n, seat, round(deltas[seat] * 100)))
    biggest = sorted(sorted(changes, reverse=True)[:5], key=lambda c: c[1])
    assert [(s["n"], s["seat"], s["points"]) for s in data["swings"]] == [
        (n, seat, points) for _, n, seat, points in biggest]
    assert 1 <= len(data["swings"]) <= 5
    for swing in data["swings"]:
        frame = data["frames"][swing["n"] - 1]
        # a deal's answer is named with the offer it answers (the moves whose chances waited)
        lines, k = list(frame["log"]), swing["n"] - 2
        while k >= 0 and data["frames"][k]["chances"] == frame_before(data, k):
            lines = data["frames"][k]["log"] + lines
            k -= 1
        lines = [x for x in lines if not x.startswith("Round ")]
        assert swing["lines"] == lines
        text = "; ".join(x.removesuffix(".") for x in lines) or frame["action"]
        assert swing["text"] == (text if len(text) <= 160 else text[:159] + "…")


def frame_before(data: dict, k: int) -> list[float]:
    return data["frames"][k - 1]["chances"] if k > 0 else data["start"]["chances"]


def test_a_position_is_a_table_state_nobody_acts_on(finished) -> None:
    client, url = finished
    table = client.app.state.store.get(url.rsplit("/", 1)[1])
    state = client.get(f"{url}/replay/30").json()
    assert state["to_move"] == "replay" and state["legal"] == []
    assert state["replay"] == {"moves": 30, "of": table.version}
    assert state["version"] == 30
    assert Game.from_json(json.dumps(state["game"])).to_json() == \
        table.record.position(Game, 30).to_json()
    # the table itself is untouched
    assert client.get(url).json()["version"] == table.version


def test_a_position_past_the_end_is_refused_by_name(finished) -> None:
    client, url = finished
    made = client.get(f"{url}/replay").json()["moves"]
    r = client.get(f"{url}/replay/{made + 1}")
    assert r.status_code == 422
    assert r.json()["field"] == "moves" and f"from 0 to {made}" in r.json()["detail"]
    assert client.get(f"{url}/replay/-1").status_code == 422


def test_with_secret_seats_a_game_is_replayed_once_over_by_its_link_alone() -> None:
    client = TestClient(create_app(open_seats=False))
    r = client.post("/v1/tables", json={"seats": ["person", "medium", "easy"], "seed": 2,
                                        "rules": {"rounds": 6}})
    table = r.json()
    url = f"/v1/tables/{table['id']}"
    mine = {HEADER: table["secrets"]["seats"]["0"]}
    watcher = {HEADER: table["secrets"]["spectator"]}
    for headers in (None, mine):  # not before the end, even to a seat
        refused = client.get(f"{url}/replay", headers=headers)
        assert refused.status_code == 403 and refused.json()["error"] == "replay_unavailable"
        assert "dice to come" in refused.json()["detail"]
        assert client.get(f"{url}/replay/0", headers=headers).status_code == 403
    # the person drops out: the computers finish the game
    state = client.get(url, headers=mine).json()
    for _ in range(300):
        if state["to_move"] is None:
            break
        if state["to_move"] == "computer":
            state = client.post(f"{url}/advance", json={"max_decisions": 500},
                                headers=mine).json()
        else:
            legal = {e["name"]: e["id"] for e in state["legal"]}
            choice = legal.get("drop_out", legal.get("roll", next(iter(legal.values()))))
            state = client.post(f"{url}/actions", json={"id": choice}, headers=mine).json()
    assert state["to_move"] is None
    for headers in (mine, watcher, None):
        r = client.get(f"{url}/replay", headers=headers)
        assert r.status_code == 200 and r.json()["moves"] > 0
    assert client.get(f"{url}/replay/3").json()["replay"]["moves"] == 3


def test_a_businessman_game_is_replayed_once_over_with_its_estimate() -> None:
    client = TestClient(create_app())
    r = client.post("/v1/tables", json={"game_name": "businessman", "seed": 3,
                                        "seats": ["person", "medium", "easy", "random"],
                                        "rules": {"rounds": 3}})
    url = f"/v1/tables/{r.json()['id']}"
    refused = client.get(f"{url}/replay")
    assert refused.status_code == 403 and "every hand" in refused.json()["detail"]
    table = client.app.state.store.get(r.json()["id"])
    table.players[0] = table.make_player(client.app.state.roster, "medium", 3)
    play_out(client, url)
    data = client.get(f"{url}/replay").json()
    assert data["chance_kind"] == "share of net worth with expected rents"
    assert data["moves"] == len(table.record) > 0
    assert table.record.position(BusinessmanGame, data["moves"]).to_json() == \
        table.game.to_json()
    assert all(abs(sum(f["chances"]) - 1) < 1e-3 for f in data["frames"][:-1])
    state = client.get(f"{url}/replay/{data['moves'] // 2}").json()
    assert state["to_move"] == "replay" and state["viewer"] is None and state["hand"] is None


def test_a_snapshot_keeps_the_record_and_one_from_before_replays_is_refused(finished) -> None:
    client, url = finished
    table = client.app.state.store.get(url.rsplit("/", 1)[1])
    copy = pickle.loads(pickle.dumps(table))
    assert copy.record.actions == table.record.actions
    state = table.__getstate__()
    del state["record"]
    old = type(table).__new__(type(table))
    old.__setstate__(state)
    assert old.record is None
    with pytest.raises(Exception, match="before this server recorded games"):
        old.replay_summary()


def test_a_record_stops_at_its_bound_and_says_so(finished) -> None:
    client, url = finished
    record = GameRecord(client.app.state.store.get(url.rsplit("/", 1)[1]).game)
    record.actions = ["a move"] * (MAX_RECORDED_MOVES - 1)
    record.add("the last one kept")
    assert record.complete and record.actions[-1] == "the last one kept"
    record.add("one too many")
    assert len(record) == MAX_RECORDED_MOVES and record.complete is False


def test_a_finished_games_save_carries_its_record_and_loads_as_a_replay(finished) -> None:
    client, url = finished
    table = client.app.state.store.get(url.rsplit("/", 1)[1])
    save = client.get(f"{url}/save").json()
    assert len(save["record"]["actions"]) == table.version and save["record"]["complete"]
    loaded = client.post("/v1/tables", json={"save": save})
    assert loaded.status_code == 201, loaded.text
    again = f"/v1/tables/{loaded.json()['id']}"
    original = client.get(f"{url}/replay").json()
    copy = client.get(f"{again}/replay").json()
    assert copy["frames"] == original["frames"] and copy["swings"] == original["swings"]


def test_a_record_that_does_not_lead_to_the_saved_game_is_refused(finished) -> None:
    client, url = finished
    save = client.get(f"{url}/save").json()
    before = len(client.app.state.store)
    cut = {**save, "record": {**save["record"], "actions": save["record"]["actions"][:-1]}}
    r = client.post("/v1/tables", json={"save": cut})
    assert r.status_code == 422 and r.json()["error"] == "bad_saved_game"
    assert "do not lead to the saved game" in r.json()["detail"]
    moves = save["record"]["actions"]
    bad = {**save, "record": {**save["record"], "actions": [moves[1], *moves[1:]]}}
    r = client.post("/v1/tables", json={"save": bad})
    assert r.status_code == 422 and r.json()["field"] == "save.record.actions[0]"
    assert "not legal there" in r.json()["detail"]
    junk = {**save, "record": {**save["record"], "actions": [{"kind": "fly"}]}}
    r = client.post("/v1/tables", json={"save": junk})
    assert r.status_code == 422 and r.json()["field"].startswith("save.record.actions[0]")
    r = client.post("/v1/tables", json={"save": {**save, "record": [1, 2]}})
    assert r.status_code == 422 and r.json()["field"] == "save.record"
    assert len(client.app.state.store) == before  # nothing was made


def test_a_businessman_record_travels_as_action_ids() -> None:
    client = TestClient(create_app())
    r = client.post("/v1/tables", json={"game_name": "businessman", "seed": 6,
                                        "seats": ["medium", "easy"], "rules": {"rounds": 2}})
    url = f"/v1/tables/{r.json()['id']}"
    play_out(client, url)
    save = client.get(f"{url}/save").json()
    assert all(type(a) is int for a in save["record"]["actions"])
    loaded = client.post("/v1/tables", json={"save": save}).json()
    assert client.get(f"/v1/tables/{loaded['id']}/replay").json()["frames"] == \
        client.get(f"{url}/replay").json()["frames"]
    bad = {**save, "record": {**save["record"], "actions": [10**6]}}
    r = client.post("/v1/tables", json={"save": bad})
    assert r.status_code == 422 and "action id from 0 to" in r.json()["detail"]


def test_a_save_mid_game_with_secret_seats_has_no_record() -> None:
    client = TestClient(create_app(open_seats=False))
    table = client.post("/v1/tables", json={"seats": ["person", "medium"], "seed": 1}).json()
    mine = {HEADER: table["secrets"]["seats"]["0"]}
    save = client.get(f"/v1/tables/{table['id']}/save", headers=mine).json()
    assert "record" not in save
