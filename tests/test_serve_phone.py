"""byapar serve's page on a phone (390 x 844 in headless Chromium, as in test_browser.py): every
touch target a person can see is at least 44 px each way, no text is drawn under 11 px, and no
label on the board is cut off, on Byapar's table and on Businessman's, in the situations with
the most controls (the setup, a turn with places to manage, a sale and an auction, the trade
composer, the board zoomed in, a place's card, the game-over card, an exchange session, a trade
being written). A failure names each offender with its size."""

from __future__ import annotations

import json
import random

from test_browser import PHONE, fits, post, seat_link

VIEWPORT = PHONE  # every page of this module (conftest.page)
MIN_TARGET = 44  # px, each way
MIN_TEXT = 11  # px

# What a finger can press, as the page has it: buttons, links, menus, fields, file pickers,
# anything given a button's role or a place in the tab order. A checkbox or a file field is
# pressed through its label, so the label is measured in its place.
MEASURE = """
([minTarget, minText]) => {
  const shown = (e) => {
    if (!e.getClientRects().length) return false;
    const cs = getComputedStyle(e);
    return cs.visibility !== "hidden" && Number(cs.opacity) > 0;
  };
  const name = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += "#" + e.id;
    else if (e.className && typeof e.className === "string") {
      s += "." + e.className.trim().split(/\\s+/).join(".");
    }
    const text = (e.textContent || e.getAttribute("aria-label") || "").trim().replace(/\\s+/g, " ");
    return text ? `${s} "${text.slice(0, 40)}"` : s;
  };
  const targets = new Set();
  const query = "button, a[href], select, textarea, input, [role=button], label.file-button, " +
    "[tabindex]:not([tabindex='-1'])";
  for (const e of document.querySelectorAll(query)) {
    let t = e;
    if (e.tagName === "INPUT" && ["checkbox", "radio", "file"].includes(e.type)) {
      t = e.closest("label") || e;
    }
    if (e.tagName === "INPUT" && e.type === "hidden") continue;
    if (shown(t) || (t !== e && shown(e))) targets.add(t);
  }
  const small = [];
  for (const t of targets) {
    const r = t.getBoundingClientRect();
    if (r.width < minTarget - 0.01 || r.height < minTarget - 0.01) {
      small.push(`${name(t)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
    }
  }
  // Every piece of text drawn, at its size on the screen (an SVG's text by its scale too).
  const tiny = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim();
    const e = n.parentElement;
    if (!text || !e || !shown(e) || e.closest("script, style, option, title")) continue;
    let size = parseFloat(getComputedStyle(e).fontSize);
    const svg = e.closest("svg");
    if (svg && svg.getScreenCTM()) size *= svg.getScreenCTM().a;
    if (size < minText - 0.01) {
      tiny.push(`"${text.slice(0, 30)}" in ${name(e).split(" ")[0]} at ${size.toFixed(1)} px`);
    }
  }
  // A board label wider than its square is cut off.
  const cut = [];
  for (const e of document.querySelectorAll("#board .sq .short, #bm-board .bm-cell .short")) {
    if (shown(e) && e.scrollWidth > e.clientWidth + 0.5) {
      cut.push(`"${e.textContent}" ${e.scrollWidth}>${e.clientWidth}`);
    }
  }
  return { targets: targets.size, small, tiny, cut };
}
"""


def check(page, where: str) -> int:
    """The page as it stands passes the three checks; returns how many targets it measured."""
    found = page.evaluate(MEASURE, [MIN_TARGET, MIN_TEXT])
    problems = [f"touch target under {MIN_TARGET} px: {s}" for s in found["small"]]
    problems += [f"text under {MIN_TEXT} px: {s}" for s in found["tiny"]]
    problems += [f"board label cut off: {s}" for s in found["cut"]]
    assert not problems, f"{where}:\n" + "\n".join(problems)
    fits(page)
    return found["targets"]


def test_byapar_at_a_phone(base_url: str, page) -> None:
    from byapar_env.engine import Game, Rules

    page.goto(base_url + "/")
    page.wait_for_selector("#start")
    assert check(page, "the setup") >= 12  # seat menus, Remove, Add, Start, options, Load

    # Three seats holding places (You: Jumla and Surkhet, a whole group); the first roll, 3+4,
    # reaches Dhangadhi, which nobody owns.
    game = Game(Rules(num_players=3, rounds=3), seed=5)
    game.owner[1], game.owner[3], game.owner[5], game.owner[6] = 0, 0, 1, 2
    game.force_dice((3, 4))
    table = post(base_url + "/v1/tables", {"game": json.loads(game.to_json()),
                                           "seats": ["person", "easy", "medium"]})
    page.goto(seat_link(base_url, table))
    page.wait_for_selector("#controls button[data-kind=roll]")
    assert page.locator("#holdings .chip").count() == 4
    assert page.locator("#controls button[data-kind=build]").count() == 2
    assert check(page, "a turn with places to build on and mortgage") >= 15
    # The squares show short names at 11 px; the full names are a tap away.
    assert page.text_content("#sq-6 .short") == "Mahe."
    assert page.is_hidden("#sq-6 .name")

    # A tap on the board zooms in on the side tapped: its nine squares as rows.
    box = page.locator("#sq-3").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector("#zoom-dialog[open]")
    assert page.text_content("#zoom-title") == "Start to Dadeldhura"
    rows = page.eval_on_selector_all("#zoom-list .zoom-row", "rs => rs.map(r => r.dataset.cell)")
    assert rows == [str(i) for i in range(9)]
    assert "owned by You" in page.text_content("#zoom-list [data-cell='1']")
    check(page, "the board zoomed in")
    page.click("#zoom-next")
    assert page.text_content("#zoom-title") == "Jail to Janakpur"
    page.click("#zoom-list [data-cell='12']")  # Butwal's card
    page.wait_for_selector("#place-dialog[open]")
    assert "Butwal" in page.text_content("#place-card") and page.is_hidden("#zoom-dialog")
    check(page, "a place's card")
    page.click("#place-close")

    page.click("#trade-open")
    page.select_option("#trade-target", "1")
    check(page, "the trade composer")
    page.click("#trade-cancel")

    # A sale (with its "See its card" link), then the auction when it is not bought.
    page.click("#controls button[data-kind=roll]")
    page.wait_for_selector("#controls button[data-kind=decline]")
    check(page, "a place for sale")
    page.click("#controls button[data-kind=decline]")
    page.wait_for_selector("#bid-amount", timeout=20_000)
    check(page, "an auction")

    # A finished game: the game-over card over the table.
    done = Game(Rules(num_players=2, rounds=1), seed=1)
    rng = random.Random(1)
    while not done.is_over:
        done.apply(rng.choice(done.legal_actions()))
    table = post(base_url + "/v1/tables", {"game": json.loads(done.to_json()),
                                           "seats": ["person", "easy"]})
    page.goto(seat_link(base_url, table))
    page.wait_for_selector("#result:not([hidden])")
    check(page, "the game over")


def test_businessman_at_a_phone(base_url: str, page) -> None:
    from byapar_env.businessman import Game, Rules

    # The person holds the whole first group (Market stall, Kiosk): pledges and branches to
    # choose from; the first roll, 3 and 3, opens an exchange session before the move.
    game = Game(Rules(num_players=3, max_rounds=3), seed=2)
    game.owner[1] = game.owner[3] = 0
    game.force_dice((3, 3))
    table = post(base_url + "/v1/tables", {"game": json.loads(game.to_json()),
                                           "seats": ["person", "easy", "medium"]})
    page.goto(seat_link(base_url, table))
    page.wait_for_selector("#bm-controls button[data-kind=roll]")
    assert page.locator("#bm-more button[data-kind=mortgage]").count() == 2
    assert page.locator("#bm-more button[data-kind=build_branch]").count() == 2
    assert check(page, "a turn with lots to pledge and build on") >= 10
    assert page.text_content("#cell-32 .short") == "Furn."

    # A tap on the motorway zooms in on it.
    box = page.locator("#cell-60").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector("#zoom-dialog[open]")
    assert page.text_content("#zoom-title") == "The motorway: from cell 5 to the Broker"
    assert page.locator("#zoom-list .zoom-row").count() == 10
    check(page, "the board zoomed in")
    page.click("#zoom-list [data-cell='60']")
    page.wait_for_selector("#place-dialog[open]")
    assert "Pay 30,000 cr" in page.text_content("#place-card")
    check(page, "a cell's card")
    page.click("#place-close")

    # A trade being written: lots, shares and money either way.
    page.click("#bm-more button[data-kind=start_trade] >> nth=0")
    page.wait_for_selector("#bm-controls button[data-kind=trade_give_lot]")
    check(page, "a trade being written")
    page.click("#bm-controls button[data-kind=cancel_trade]")
    page.wait_for_selector("#bm-controls button[data-kind=roll]")

    # The exchange session of the 3 and 3: a card to play on a colour, or none.
    page.click("#bm-controls button[data-kind=roll]")
    page.wait_for_selector("#bm-controls button[data-kind=play_card]")
    check(page, "an exchange session")
