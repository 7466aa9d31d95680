"use strict";
// A Businessman table on the page: its board (bm_board.js), the person's decisions as buttons
// in plain words (bm_words.js), each player's cash, shares and lots, the person's own Exchange
// cards, the share prices over the game (bm_chart.js) and the log. Like the Byapar table it
// goes through the /v1 API only, and shares the page's helpers (app.js): the pace, the seat
// names, the error sentences.

// Decisions kept in a second group of buttons before the roll (and while raising funds):
// managing lots, trading, a kept pass; each kind's heading there.
const BM_MORE = [["use_pass", "Exchange pass"], ["start_trade", "Trade"],
  ["mortgage", "Pledge a lot (the bank lends half its price)"],
  ["redeem", "Redeem a pledge"], ["build_branch", "Build"], ["build_enterprise", "Build"],
  ["sell_building", "Sell a building (for half its cost)"]];
const BM_MORE_KINDS = BM_MORE.map(([k]) => k);
// Headings for groups of the main decisions.
const BM_GROUPS = { trade_give_lot: "Give", trade_take_lot: "Ask for",
  trade_give_share: "Shares", trade_take_share: "Shares", trade_give_cash: "Money",
  trade_take_cash: "Money", buy_share: "Buy shares", sell_share: "Sell shares",
  pick_colour: "Choose a colour" };
const BM_FORKS = ["at the motorway entry", "at the roulette entry", "at Customs",
  "at the Broker"];

function cr(n) { return Number(n).toLocaleString("en-US") + " cr"; }

const BM = {
  state: null,
  board: null,

  async open(st) {
    if (!BM.board) {
      try {
        BM.board = await api("GET", "/v1/board?game=businessman");
      } catch (err) {
        say(err);
        return;
      }
    }
    showError("");
    clearTimeout(S.timer);
    S.state = null;
    S.kind = "businessman";
    S.tableId = st.id;
    BM.state = null;
    history.replaceState(null, "", `#t=${st.id}`);
    $("setup").hidden = true;
    $("table").hidden = true;
    $("result").hidden = true;
    $("bm-table").hidden = false;
    $("table-tools").hidden = false;
    gameTitle("Businessman");
    BM.render(st);
  },

  close() {
    BM.state = null;
    $("bm-table").hidden = true;
    gameTitle("Byapar");
  },

  render(st) {
    if (BM.state && BM.state.id === st.id && st.version < BM.state.version) return;  // stale
    BM.state = st;
    BM.renderStatus(st);
    BM.renderTrade(st);
    BM.renderControls(st);
    BM.renderHand(st);
    BMB.render(st);
    BM.renderPrices(st);
    BM.renderPlayers(st);
    BM.renderLog(st);
    Replay.offer(st);
    BM.schedule();
  },

  schedule() {
    clearTimeout(S.timer);
    if (BM.state && BM.state.to_move === "computer") S.timer = setTimeout(BM.advance, S.pace);
  },

  async advance() {
    if (S.busy || !S.tableId || !BM.state) return;
    S.busy = true;
    const id = S.tableId;
    try {
      const st = await api("POST", `/v1/tables/${id}/advance`,
        { max_decisions: S.pace === 0 ? 200 : 1, version: BM.state.version });
      if (id === S.tableId && BM.state) { showError(""); S.busy = false; BM.render(st); }
    } catch (err) {
      if (err.code === "stale_version") { S.busy = false; await BM.refresh(id); return; }
      say(err);
      if (err.status !== 404) S.timer = setTimeout(BM.advance, Math.max(S.pace, 1000));
    } finally {
      S.busy = false;
    }
  },

  async refresh(id) {
    try {
      const st = await api("GET", `/v1/tables/${id}`);
      if (id === S.tableId && BM.state) BM.render(st);
    } catch (err) {
      say(err);
    }
  },

  // A person's action by id, naming the version it was chosen in (never applied twice).
  async act(actionId) {
    if (S.busy || !S.tableId || !BM.state) return;
    S.busy = true;
    clearTimeout(S.timer);
    const id = S.tableId;
    try {
      const st = await api("POST", `/v1/tables/${id}/actions`,
        { id: actionId, version: BM.state.version });
      if (id === S.tableId && BM.state) { showError(""); S.busy = false; BM.render(st); }
    } catch (err) {
      say(err);
      if (err.code === "stale_version") { S.busy = false; await BM.refresh(id); }
    } finally {
      S.busy = false;
    }
  },

  cellName(i) { return BM.board.cells[i].name; },

  renderStatus(st) {
    const box = $("bm-status");
    box.replaceChildren();
    const stt = st.status;
    if (stt.is_over) {
      box.appendChild(el("strong", null, "Game over: " + winnersText(st)));
      return;
    }
    const s = stt.current_player;
    const who = el("span", "who", seatLabel(s, st));
    who.style.background = seatColour(s);
    box.appendChild(who);
    box.appendChild(document.createTextNode(" " + BM.phaseWords(st)));
  },

  // What the seat deciding now is doing, in words.
  phaseWords(st) {
    const v = st.view;
    const you = isYou(st.status.current_player, st);
    switch (st.status.phase) {
      case "PRE_ROLL": return "to play";
      case "TRADE_COMPOSE": return `${you ? "are" : "is"} writing a trade offer to ` +
        seatLabel(v.trade.target, st);
      case "TRADE_RESPONSE": return `${you ? "answer" : "answers"} ` +
        `${seatLabel(v.turn, st)}'s trade offer`;
      case "BUY_OFFER": return `may buy ${BM.cellName(v.pending_cell)}`;
      case "FORK": return BM_FORKS[v.fork] || "at a fork";
      case "HOTEL_MENU": return "at the Hotel: four choices";
      case "PICK_COLOUR": return `${you ? "choose" : "chooses"} a colour for each free share ` +
        `(${v.picks_left} to go)`;
      case "EXCHANGE_CARD": return "at the exchange: may play one Exchange card";
      case "EXCHANGE_TRADE": return "at the exchange: buying and selling shares";
      case "RAISE_FUNDS": {
        // A debt is [kind, debtor, creditor, amount, creditor, amount, ...].
        const owed = v.debt ? v.debt.slice(3).filter((x, k) => k % 2 === 0)
          .reduce((a, b) => a + b, 0) : 0;
        return `${you ? "owe" : "owes"} ${cr(owed)}: ${you ? "raise" : "raises"} it by ` +
          "selling buildings or pledging lots";
      }
      default: return "";
    }
  },

  renderTrade(st) {
    const box = $("bm-trade");
    const t = st.view.trade;
    box.hidden = !t;
    if (!t) return;
    const [gives, gets] = BMW.tradeSides(t);
    box.textContent = BMW.offerSentence(st.view.turn, t.target, gives, gets, st) +
      (st.status.phase === "TRADE_COMPOSE" ? " (not sent yet)." : ".");
  },

  renderControls(st) {
    const main = $("bm-controls");
    const more = $("bm-more");
    main.replaceChildren();
    more.replaceChildren();
    if (st.to_move === "computer" && !st.status.is_over) {
      main.appendChild(el("span", "thinking",
        `${seatLabel(st.status.current_player, st)} is thinking…`));
    }
    const early = ["PRE_ROLL", "RAISE_FUNDS"].includes(st.status.phase);
    const rows = new Map();  // a heading's row of buttons, made at the heading's first use
    const rowFor = (box, heading) => {
      const key = `${box.id}:${heading}`;
      if (!rows.has(key)) {
        if (heading) box.appendChild(el("h4", null, heading));
        const row = el("div", "row");
        box.appendChild(row);
        rows.set(key, row);
      }
      return rows.get(key);
    };
    // The second group in the order of BM_MORE (trading first); the main one as listed.
    const rank = (e) => BM_MORE_KINDS.indexOf(BMW.fields(e.id)[0]);
    const legal = st.legal.slice().sort((a, b) => rank(a) - rank(b));
    for (const e of legal) {
      const [kind, arg] = BMW.fields(e.id);
      const second = early && BM_MORE_KINDS.includes(kind);
      let heading = second ? BM_MORE.find(([k]) => k === kind)[1] : BM_GROUPS[kind] || "";
      if (kind === "play_card") {
        const card = st.hand ? st.hand.find((h) => h.slot === arg) : null;
        heading = card ? `Play: ${BMW.cardName(card.kind)}` : "Play a card";
      }
      const b = button(BMW.label(e, st), () => BM.act(e.id),
        ["roll", "accept_trade", "submit_trade"].includes(kind) ? "primary" : null);
      b.dataset.kind = e.kind;
      b.dataset.id = String(e.id);
      rowFor(second ? more : main, heading).appendChild(b);
    }
  },

  renderHand(st) {
    const box = $("bm-hand");
    box.replaceChildren();
    if (st.hand === null) {
      box.appendChild(el("li", "hint", "No person plays at this table."));
      return;
    }
    if (!st.hand.length) box.appendChild(el("li", "hint", "No cards left."));
    for (const c of st.hand) {
      const li = el("li", "card-line", BMW.cardName(c.kind));
      const large = BM.board.exchange_cards[c.kind].deck === "large";
      li.appendChild(el("span", "deck", large ? " (large card)" : " (small card)"));
      box.appendChild(li);
    }
  },

  renderPrices(st) {
    BMC.render(st);
    const box = $("bm-prices");
    box.replaceChildren();
    st.view.prices.forEach((p, c) => {
      const span = el("span", "bm-price");
      span.style.borderLeftColor = BM.board.share_colours[c];
      span.append(el("span", "colour", `${BMW.colour(c)} ${p}`), document.createTextNode(
        `: ${cr(p * BM.board.prices.point)} a share, the bank holds ${st.view.supply[c]}`));
      box.appendChild(span);
    });
  },

  renderPlayers(st) {
    const box = $("bm-players");
    box.replaceChildren();
    for (const p of st.players) {
      const card = playerCard(st, p, `bm-player-${p.seat}`, cr(p.cash));
      const shares = p.shares.map((x, c) => `${x} ${BMW.colour(c)}`).join(", ");
      const where = ["", " (abroad)", " (on the motorway)", " (at the roulette)"][p.track] || "";
      const extras = [`net worth ${cr(p.net_worth)}`, `on ${BM.cellName(p.position)}${where}`,
        `shares: ${shares}`, `${p.lots.length} lot${p.lots.length === 1 ? "" : "s"}`,
        `${p.hand_size} Exchange card${p.hand_size === 1 ? "" : "s"}`];
      if (p.passes.length) extras.push(`${p.passes.length} pass${p.passes.length > 1 ? "es" : ""}`);
      card.append(el("div", "worth", extras.join(" · ")));
      box.appendChild(card);
    }
  },

  renderLog(st) {
    const box = $("bm-log");
    box.replaceChildren();
    for (const line of st.log.slice(-150)) {
      box.appendChild(el("li", line.startsWith("Round") ? "round-line" : null, BMW.line(line, st)));
    }
    box.scrollTop = box.scrollHeight;
  },
};
