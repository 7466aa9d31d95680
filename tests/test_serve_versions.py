"""byapar serve: every table state carries a version; an action that names its version or
carries an idempotency key is never applied twice, even when sent twice at once."""

from __future__ import annotations

import json
import threading
import warnings

import pytest

from byapar_env.engine import Action, ActionKind, Game
from byapar_env.engine.serialize import game_to_dict

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's TestClient warns about httpx2 one day
    from fastapi.testclient import TestClient

from byapar_serve.app import create_app
from byapar_serve.limits import MAX_REPLAY_BYTES, MAX_REPLAY_KEYS
from byapar_serve.tables import TableStore


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(store=TableStore(max_tables=200, idle_evict_s=3600)))


def new_table(client: TestClient, seats=("person", "person"), seed: int = 7) -> dict:
    r = client.post("/v1/tables", json={"seats": list(seats), "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def engine_action(data: dict) -> Action:
    return Action(ActionKind[data["kind"].upper()], data["square"], data["amount"],
                  data["target"], tuple(data["give"]), tuple(data["take"]))


def applied_once(before: dict, entry: dict) -> dict:
    """The saved game after applying ``entry`` once to the saved game ``before``."""
    game = Game.from_json(json.dumps(before["game"]))
    game.apply(engine_action(entry["engine"]))
    return game_to_dict(game)


def pick(state: dict) -> dict:
    """Rolling when it is legal (a second roll would show), else the first legal action."""
    return next((e for e in state["legal"] if e["id"] == 0), state["legal"][0])


def test_every_change_raises_the_version_and_a_stale_one_is_refused(client) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}"
    assert state["version"] == 0
    r = client.post(f"{url}/actions", json={"id": 0, "version": 0})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["version"] == 1
    # The same request again, chosen in version 0: refused, naming the field and the version.
    again = client.post(f"{url}/actions", json={"id": 0, "version": 0})
    assert again.status_code == 409
    assert again.json() == {
        "error": "stale_version", "field": "version", "version": 1,
        "detail": "version 0 is not the table's version now (1): the table has changed "
                  "since; read it again (GET /v1/tables/ID) and choose anew"}
    assert client.get(url).json() == after
    # A version from the future is as stale; without a version the old behaviour stays.
    assert client.post(f"{url}/actions", json={"id": 0, "version": 5}).status_code == 409
    legal = after["legal"][0]
    r = client.post(f"{url}/actions", json={"id": legal["id"]})
    assert r.status_code == 200 and r.json()["version"] == 2


@pytest.mark.parametrize(("body", "field"), [
    ({"id": 0, "version": -1}, "version"), ({"id": 0, "version": "0"}, "version"),
    ({"id": 0, "version": 1.5}, "version"), ({"id": 0, "idempotency_key": ""},
                                             "idempotency_key"),
    ({"id": 0, "idempotency_key": "has space"}, "idempotency_key"),
    ({"id": 0, "idempotency_key": "k" * 129}, "idempotency_key"),
    ({"id": 0, "idempotency_key": 7}, "idempotency_key"),
])
def test_bad_versions_and_keys_name_the_field(client, body: dict, field: str) -> None:
    state = new_table(client)
    r = client.post(f"/v1/tables/{state['id']}/actions", json=body)
    assert r.status_code == 422 and r.json()["field"] == field, r.text
    assert client.get(f"/v1/tables/{state['id']}").json() == state


def test_a_repeated_idempotency_key_gets_the_first_answer(client) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}/actions"
    first = client.post(url, json={"id": 0, "idempotency_key": "roll-1"})
    assert first.status_code == 200 and "idempotent-replayed" not in first.headers
    second = client.post(url, json={"id": 0, "idempotency_key": "roll-1"})
    assert second.status_code == 200 and second.headers["idempotent-replayed"] == "true"
    assert second.content == first.content
    assert first.json()["game"] == applied_once(state, pick(state))
    assert client.get(f"/v1/tables/{state['id']}").json()["version"] == 1
    # The same key for another request is a client's mistake: refused, nothing applied.
    other = client.post(url, json={"name": "roll the dice", "idempotency_key": "roll-1"})
    assert other.status_code == 409 and other.json()["field"] == "idempotency_key"
    assert client.get(f"/v1/tables/{state['id']}").json()["version"] == 1
    # A refused request is not remembered: the key may be used again once it is legal.
    bad = client.post(url, json={"id": 5, "idempotency_key": "k2"})
    assert bad.status_code == 422
    entry = pick(first.json())
    ok = client.post(url, json={"id": entry["id"], "idempotency_key": "k2"})
    assert ok.status_code == 200 and ok.json()["version"] == 2


def test_the_answers_kept_for_keys_are_bounded(client) -> None:
    state = new_table(client)
    url = f"/v1/tables/{state['id']}"
    table = client.app.state.store.get(state["id"])
    for i in range(MAX_REPLAY_KEYS + 10):
        current = client.get(url).json()
        r = client.post(f"{url}/actions", json={"id": pick(current)["id"],
                                                 "idempotency_key": f"key-{i}"})
        assert r.status_code == 200
        assert len(table._replies) <= MAX_REPLAY_KEYS
        assert table._reply_bytes == sum(len(b) for _, b in table._replies.values())
        assert table._reply_bytes <= MAX_REPLAY_BYTES or len(table._replies) == 1
    assert f"key-{MAX_REPLAY_KEYS + 9}" in table._replies and "key-0" not in table._replies


def test_advance_and_mute_take_a_version_too(client) -> None:
    state = new_table(client, seats=("hard", "person"))
    url = f"/v1/tables/{state['id']}"
    moved = client.post(f"{url}/advance", json={"max_decisions": 1, "version": 0})
    assert moved.status_code == 200 and moved.json()["version"] == 1
    stale = client.post(f"{url}/advance", json={"max_decisions": 1, "version": 0})
    assert stale.status_code == 409 and stale.json()["version"] == 1
    assert client.get(url).json()["version"] == 1
    r = client.post(f"{url}/mute", json={"seat": 0, "version": 0})
    assert r.status_code == 409 and r.json()["error"] == "stale_version"
    key = {"max_decisions": 1, "idempotency_key": "adv-1"}
    first = client.post(f"{url}/advance", json=key)
    again = client.post(f"{url}/advance", json=key)
    assert again.content == first.content and again.headers["idempotent-replayed"] == "true"


def test_duplicate_actions_sent_at_once_are_never_applied_twice(client) -> None:
    """100 pairs of the same action sent at the same moment by two threads, on 10 tables of
    two people at a time: with the version, with a key, or with both. Each pair changes its
    table exactly once: the game afterwards is the one the action makes when applied once."""
    tables = [new_table(client, seed=100 + t) for t in range(10)]
    ids = [t["id"] for t in tables]
    outcomes: dict[str, int] = {}
    pairs = 0
    for rnd in range(10):
        before = {i: client.get(f"/v1/tables/{i}").json() for i in ids}
        bodies = {}
        for n, i in enumerate(ids):
            mode = (rnd + n) % 3
            body: dict = {"id": pick(before[i])["id"]}
            if mode in (0, 2):
                body["version"] = before[i]["version"]
            if mode in (1, 2):
                body["idempotency_key"] = f"{i}-{rnd}"
            bodies[i] = body
        answers: dict[str, list] = {i: [] for i in ids}
        barrier = threading.Barrier(2 * len(ids))

        def send(i: str, body: dict, into: list, barrier: threading.Barrier) -> None:
            barrier.wait()
            into.append(client.post(f"/v1/tables/{i}/actions", json=body))

        threads = [threading.Thread(target=send, args=(i, bodies[i], answers[i], barrier))
                   for i in ids for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for i in ids:
            pairs += 1
            after = client.get(f"/v1/tables/{i}").json()
            assert after["version"] == before[i]["version"] + 1, bodies[i]
            assert after["game"] == applied_once(before[i], pick(before[i]))
            codes = sorted(r.status_code for r in answers[i])
            if "idempotency_key" in bodies[i]:
                assert codes == [200, 200]
                assert answers[i][0].content == answers[i][1].content
                assert sum("idempotent-replayed" in r.headers for r in answers[i]) == 1
            else:
                assert codes == [200, 409]
                assert [r.json()["version"] for r in answers[i]
                        if r.status_code == 409] == [after["version"]]
            outcomes[str(codes)] = outcomes.get(str(codes), 0) + 1
    assert pairs == 100
    assert sum(outcomes.values()) == 100 and set(outcomes) == {"[200, 200]", "[200, 409]"}


def test_duplicates_on_a_real_server_are_never_applied_twice(capsys) -> None:
    """The benchmark's --duplicates mode: a uvicorn server on a free loopback port, two
    connections per pair released together."""
    from bench import serve_load

    result = serve_load.main(["--duplicates", "30", "--workers", "3"])["duplicates"]
    assert result["guarded_pairs"] == 30 and result["guarded_applied_twice"] == 0
    assert {m: r["pairs"] for m, r in result["by_mode"].items() if m != "none"} == {
        "version": 10, "key": 10, "both": 10}
    assert result["by_mode"]["version"]["answers"] == {"200,409": 10}
    assert "0 of 30 guarded pairs applied twice" in capsys.readouterr().out
