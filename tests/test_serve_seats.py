"""Seats that belong to someone (``byapar serve`` without ``--open-seats``): a table hands out
one secret per person seat and one for spectators; a request is played and shown only as the
seats whose secrets it carries, and no answer shows another seat's Exchange hand."""

from __future__ import annotations

import json
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from byapar_serve.app import create_app

HEADER = "X-Seat-Secret"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(open_seats=False))


def bm_table(client: TestClient, seed: int = 4) -> dict:
    r = client.post("/v1/tables", json={"game_name": "businessman", "seed": seed,
                                        "seats": ["person", "medium", "person", "easy"]})
    assert r.status_code == 201, r.text
    return r.json()


def hands(client: TestClient, table: dict) -> list[list[int]]:
    """Every seat's hand, as each person seat sees its own (and the computers' are not shown)."""
    url = f"/v1/tables/{table['id']}"
    out = []
    for seat, secret in table["secrets"]["seats"].items():
        view = client.get(url, headers={HEADER: secret}).json()["view"]
        assert view["seat"] == int(seat)
        out.append(view["hand"])
    return out


def test_a_table_hands_out_one_secret_per_person_seat_and_one_for_spectators(client) -> None:
    table = bm_table(client)
    given = table["secrets"]
    assert sorted(given["seats"]) == ["0", "2"] and given["spectator"]
    assert len({*given["seats"].values(), given["spectator"]}) == 3
    assert all(len(s) >= 24 for s in given["seats"].values())


def test_no_secret_no_view_and_no_hand_in_the_refusal(client) -> None:
    table = bm_table(client)
    url = f"/v1/tables/{table['id']}"
    mine, theirs = hands(client, table)
    for headers in ({}, {HEADER: "not-a-secret"}):
        r = client.get(url, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "seat_secret_required"
        assert "hand" not in r.text and "view" not in r.json()


def test_each_seat_sees_its_own_hand_never_another(client) -> None:
    table = bm_table(client)
    url = f"/v1/tables/{table['id']}"
    secrets = table["secrets"]
    seat0 = client.get(url, headers={HEADER: secrets["seats"]["0"]}).json()
    assert seat0["viewer"] == 0 and seat0["view"]["hand"] is not None
    assert "hands" not in json.dumps(seat0)
    refused = client.get(url, params={"seat": 2}, headers={HEADER: secrets["seats"]["0"]})
    assert refused.status_code == 403 and "hand" not in refused.text
    spectator = client.get(url, headers={HEADER: secrets["spectator"]}).json()
    assert spectator["viewer"] is None and spectator["hand"] is None
    assert spectator["view"]["hand"] is None and spectator["legal"] == []
    # a page holding both seats' secrets sees either, as asked
    both = ",".join(secrets["seats"].values())
    assert client.get(url, params={"seat": 2}, headers={HEADER: both}).json()["viewer"] == 2


def test_only_the_deciding_seats_secret_plays_its_move(client) -> None:
    table = bm_table(client)
    url = f"/v1/tables/{table['id']}"
    secrets = table["secrets"]
    assert table["status"]["current_player"] == 0
    roll = {"name": "roll", "version": table["version"]}
    for headers in ({}, {HEADER: secrets["seats"]["2"]}, {HEADER: secrets["spectator"]}):
        r = client.post(f"{url}/actions", json=roll, headers=headers)
        assert r.status_code == 403 and "hand" not in r.text
    assert client.get(url, headers={HEADER: secrets["seats"]["0"]}).json()["version"] == 0
    r = client.post(f"{url}/actions", json=roll, headers={HEADER: secrets["seats"]["0"]})
    assert r.status_code == 200 and r.json()["version"] >= 1 and r.json()["viewer"] == 0


def test_a_keyed_answer_is_given_again_only_to_the_seat_that_asked(client) -> None:
    table = bm_table(client, seed=6)
    url = f"/v1/tables/{table['id']}"
    secrets = table["secrets"]
    body = {"name": "roll", "idempotency_key": "k-1"}
    first = client.post(f"{url}/actions", json=body, headers={HEADER: secrets["seats"]["0"]})
    again = client.post(f"{url}/actions", json=body, headers={HEADER: secrets["seats"]["0"]})
    assert again.content == first.content and again.headers["Idempotent-Replayed"] == "true"
    other = client.post(f"{url}/advance", json={"idempotency_key": "k-1"},
                        headers={HEADER: secrets["seats"]["2"]})
    assert other.status_code == 409 and "hand" not in other.text


def test_a_businessman_save_waits_for_the_end_a_byapar_one_needs_a_seat(client) -> None:
    table = bm_table(client)
    url = f"/v1/tables/{table['id']}"
    secrets = table["secrets"]
    r = client.get(f"{url}/save", headers={HEADER: secrets["seats"]["0"]})
    assert r.status_code == 403 and "every seat's hand" in r.json()["detail"]
    assert "hands" not in r.text
    byapar = client.post("/v1/tables", json={"seats": ["person", "medium"], "seed": 1}).json()
    burl = f"/v1/tables/{byapar['id']}"
    assert client.get(f"{burl}/save").status_code == 403
    assert client.get(f"{burl}/save", headers={
        HEADER: byapar["secrets"]["spectator"]}).status_code == 403
    saved = client.get(f"{burl}/save", headers={HEADER: byapar["secrets"]["seats"]["0"]})
    assert saved.status_code == 200 and saved.json()["seats"] == ["person", "medium"]


def test_advance_and_delete_need_a_secret(client) -> None:
    table = bm_table(client)
    url = f"/v1/tables/{table['id']}"
    assert client.post(f"{url}/advance", json={}).status_code == 403
    assert client.delete(url).status_code == 403
    assert client.delete(url, headers={HEADER: table["secrets"]["spectator"]}).status_code == 403
    assert client.delete(url, headers={HEADER: table["secrets"]["seats"]["2"]}).status_code == 204


def test_a_whole_businessman_game_never_shows_a_seat_another_hand(client) -> None:
    table = bm_table(client, seed=9)
    url = f"/v1/tables/{table['id']}"
    secrets = table["secrets"]["seats"]
    state = table
    for _ in range(400):
        if state["to_move"] is None:
            break
        if state["to_move"] == "computer":
            state = client.post(f"{url}/advance", json={"max_decisions": 20},
                                headers={HEADER: secrets["0"]}).json()
        else:
            seat = str(state["status"]["current_player"])
            state = client.get(url, headers={HEADER: secrets[seat]}).json()
            state = client.post(f"{url}/actions", json={"id": state["legal"][0]["id"]},
                                headers={HEADER: secrets[seat]}).json()
        viewer = state["viewer"]
        assert viewer in (0, 2) and "hands" not in json.dumps(state)
        game = client.app.state.store.get(table["id"]).game
        # every hand an answer holds (as card kinds, or as cards) is the viewer's own
        held = [[c["kind"] if isinstance(c, dict) else c for c in h]
                for h in _values(state, "hand")]
        assert held == [game.hands[viewer]] * 2
    assert state["status"]["round"] >= 3


def _values(data: object, key: str) -> list:
    """Every value stored under ``key`` anywhere in a JSON document."""
    if isinstance(data, dict):
        return [v for k, v in data.items() if k == key] + [
            x for v in data.values() for x in _values(v, key)]
    if isinstance(data, list):
        return [x for v in data for x in _values(v, key)]
    return []


def test_a_byapar_state_tells_nothing_of_the_dice_and_cards_to_come(client) -> None:
    from byapar_env.engine import Game
    from byapar_env.engine.serialize import game_from_dict, game_to_dict

    table = client.post("/v1/tables", json={"seats": ["person", "medium"], "seed": 3}).json()
    url = f"/v1/tables/{table['id']}"
    secret = {HEADER: table["secrets"]["seats"]["0"]}
    real = game_to_dict(client.app.state.store.get(table["id"]).game)
    shown_states = [client.get(url, headers=secret).json()["game"],
                    client.get(f"{url}/save", headers=secret).json()["game"]]
    for shown in shown_states:
        assert shown["rng"] != real["rng"] and shown["seed"] != real["seed"]
        assert {k: sorted(v) for k, v in shown["decks"].items()} == {
            k: sorted(v) for k, v in real["decks"].items()}  # the same cards, another order
        assert {k: v for k, v in shown.items() if k not in ("rng", "seed", "decks")} == {
            k: v for k, v in real.items() if k not in ("rng", "seed", "decks")}
        assert isinstance(game_from_dict(shown), Game)  # it still loads and plays
    # The answer to an action hides them too (it showed the real generator and decks).
    acted = client.post(f"{url}/actions", headers=secret, json={"seat": 0, "name": "roll"})
    assert acted.status_code == 200, acted.text
    real = game_to_dict(client.app.state.store.get(table["id"]).game)
    shown = acted.json()["game"]
    assert shown["rng"] != real["rng"] and shown["seed"] != real["seed"]
    assert shown["position"] == real["position"] and shown["cash"] == real["cash"]
