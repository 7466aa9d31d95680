"""byapar serve's page writes both games' logs in a person's words (in headless Chromium, as in
test_browser.py): an offer reads as the offer ("Chandra offers you Rs 3,500 for Janakpur"), not
as the engine's action ("give nothing for Janakpur; pay Rs 3,500"); a card's own full stop
never meets the recap's "; " (no ".;"); seats, colours, cards and decks are named as players
name them. The engine's lines come from real games where a game can make them."""

from __future__ import annotations

import random

import pytest
from test_browser import DESKTOP, launch, post, seat_link


@pytest.fixture(scope="module")
def page(base_url: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page
        browser.close()
        assert errors == [], errors


def _card_lines() -> list[str]:
    """A seeded Byapar game's log from seat 1's roll to the card it draws (whose text ends in
    a full stop) and what the card makes it do."""
    from byapar_env.engine import Game, Rules

    for seed in range(200):
        game = Game(Rules(num_players=3), seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.turn_count < 60:
            game.apply(rng.choice(game.legal_actions()))
        log = game.log
        for j, line in enumerate(log):
            if line.startswith("seat 1 draws ") and line.endswith(".") and j + 1 < len(log) \
                    and log[j + 1].startswith("seat 1 pays "):
                start = max(k for k in range(j) if log[k].startswith("seat 1 rolls "))
                return log[start:j + 2]
    raise AssertionError("no seeded game had seat 1 draw a card and pay")


def test_byapar_lines_and_the_recap(base_url: str, page) -> None:
    table = post(base_url + "/v1/tables", {"seats": ["person", "easy", "hard"], "seed": 1})
    page.goto(seat_link(base_url, table))
    page.wait_for_selector("#table:not([hidden])")
    lines = {
        "seat 2 offers seat 0: give nothing for Janakpur; pay Rs 3,500":
            "Chandra offers you Rs 3,500 for Janakpur",
        "seat 2 offers seat 1: give nothing for Janakpur; pay Rs 3,500":
            "Chandra offers Bikash Rs 3,500 for Janakpur",
        "seat 0 offers seat 1: give Jumla, Surkhet, Ilam for nothing; ask Rs 900":
            "You offer Bikash Jumla, Surkhet and Ilam for Rs 900",
        "Game over: seat 1, seat 2 share the win with the highest net worth":
            "Game over: Bikash and Chandra share the win with the highest net worth",
        "Game over: seat 0, seat 2 share the win with the highest net worth":
            "Game over: you and Chandra share the win with the highest net worth",
        "auction of Jumla": "Auction of Jumla",
        "nobody bids: Jumla stays with the bank": "Nobody bids: Jumla stays with the bank",
    }
    shown = page.evaluate("ls => ls.map(l => humanLine(l, S.state))", list(lines))
    assert dict(zip(lines, shown, strict=True)) == lines

    # The recap of what Bikash did since the person's move: a real game's lines, a card's text
    # among them; each act ends without its own full stop, the line with one.
    acts = _card_lines()
    recap = page.evaluate("""acts => {
        const st = JSON.parse(JSON.stringify(S.state));
        S.sinceLog = st.game.log.length;
        st.game.log.push(...acts);
        renderRecap(st);
        return document.querySelector('#recap li').textContent;
    }""", acts)
    assert [a.split(" ")[2] for a in acts] == ["rolls", "moves", "draws", "pays"], acts
    words = [a.replace("seat 1 ", "", 1) for a in acts]  # "draws Samudaya: ... Rs 500."
    assert recap == "Bikash " + "; ".join([*words[:2], words[2][:-1], words[3]]) + "."
    assert ".;" not in recap and ".." not in recap


def test_businessman_lines(base_url: str, page) -> None:
    table = post(base_url + "/v1/tables", {"game": "businessman",
                                           "seats": ["person", "easy", "hard"], "seed": 3})
    page.goto(seat_link(base_url, table))
    page.wait_for_selector("#bm-table:not([hidden])")
    lines = {
        "seat 2 proposes to seat 0: takes Texas oil; pays 3,500 cr":
            "Chandra offers you 3,500 cr for Texas oil",
        "seat 0 proposes to seat 1: gives Kiosk, Cafe; takes Bakery; gives 1 RED; takes 2 BLUE; "
        "asks 10,000 cr":
            "You offer Bikash Kiosk, Cafe and 1 red share for Bakery, 2 blue shares and 10,000 cr",
        "seat 1 plays L-BOOM-5 on RED": "Bikash plays an Exchange card: red up 10, the others "
                                        "down 5",
        "seat 0 plays L-DOUBLE on GREEN (halve)": "You play an Exchange card: halve green",
        "seat 2 plays S-FALL-3 on YELLOW": "Chandra plays an Exchange card: yellow down 3",
        "seat 1 draws SU5: Lottery win": "Bikash draws a Surprise card: Lottery win",
        "seat 0 draws NO1: Income tax": "You draw a Notice card: Income tax",
        "prices now RED 20, BLUE 5, GREEN 5, YELLOW 5":
            "Share prices now: red 20, blue 5, green 5, yellow 5",
        "seat 0 uses an exchange pass (surprise)":
            "You use an exchange pass (from the Surprise deck)",
        "seat 0 cannot pay 30,000 cr and is bankrupt": "You cannot pay 30,000 cr and are bankrupt",
        "seat 0 pays 10,000 cr and crosses the border": "You pay 10,000 cr and cross the border",
        "seat 2 sells 1 RED at customs": "Chandra sells 1 red share at customs",
        "seat 0 rolled 3:3: one exchange session first":
            "You rolled 3 and 3: one exchange session first",
        "the bank pays seat 1 the 5,000 cr owed": "The bank pays Bikash the 5,000 cr owed",
        "seat 1 takes a share of YELLOW": "Bikash takes a share of yellow",
        "Round 1: seat 0 to play (3 players)": "Round 1: You to play (3 players)",
        "Round 4": "Round 4",
    }
    shown = page.evaluate("ls => ls.map(l => BMW.line(l, BM.state))", list(lines))
    assert dict(zip(lines, shown, strict=True)) == lines
