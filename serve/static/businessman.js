"use strict";
// A Businessman table on the page: a simple view of its state as the person's seat sees it (the
// cells with their owners, each player's cash, the person's own Exchange hand, the share prices,
// the legal actions as buttons, the log). Like the Byapar table it goes through the /v1 API
// only, and shares the page's helpers (app.js): the pace, the seat names, the error sentences.

const BM_PHASE_TEXT = {
  PRE_ROLL: "to play", TRADE_COMPOSE: "composing a trade", TRADE_RESPONSE: "answering a trade",
  BUY_OFFER: "may buy", FORK: "at a fork", HOTEL_MENU: "at the Hotel",
  PICK_COLOUR: "choosing colours for shares", EXCHANGE_CARD: "at the exchange: a card",
  EXCHANGE_TRADE: "at the exchange: buying and selling shares", RAISE_FUNDS: "raising funds",
  GAME_OVER: "",
};
// Actions kept in a second row of smaller buttons before the roll: managing lots, trading.
const BM_MORE_KINDS = ["mortgage", "redeem", "build_branch", "build_enterprise", "sell_building",
  "start_trade", "use_pass"];
const BM_LEVELS = ["", "a branch", "a branch and an enterprise"];

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
    BM.render(st);
  },

  close() {
    BM.state = null;
    $("bm-table").hidden = true;
  },

  render(st) {
    if (BM.state && BM.state.id === st.id && st.version < BM.state.version) return;  // stale
    BM.state = st;
    BM.renderStatus(st);
    BM.renderTrade(st);
    BM.renderControls(st);
    BM.renderHand(st);
    BM.renderPrices(st);
    BM.renderCells(st);
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

  // The engine's words in the table's names: "seat 1 buys Kiosk" becomes "Bikash buys Kiosk",
  // "seat 0 rolls 2+1" becomes "You roll 2+1".
  words(line, st) {
    const n = st.seats.length;
    return line.replace(/\bseat (\d)\b(\s+)?([a-z]+)?/g, (m, k, space, verb, at) => {
      if (Number(k) >= n) return m;
      const who = seatLabel(Number(k), st);
      if (!space) return who;
      const next = verb ? (who === "You" && at === 0 ? asYou(verb) : verb) : "";
      return `${who}${space}${next}`;
    });
  },

  cellName(i) { return BM.board.cells[i].name; },

  renderStatus(st) {
    const box = $("bm-status");
    box.replaceChildren();
    const stt = st.status;
    const round = el("div", "round", `Businessman · Round ${stt.round} of ${stt.round_limit}` +
      (stt.dice[0] ? ` · dice ${stt.dice[0]}+${stt.dice[1]}` : ""));
    box.appendChild(round);
    if (stt.is_over) {
      box.appendChild(el("strong", null, "Game over: " + winnersText(st)));
      return;
    }
    const s = stt.current_player;
    const who = el("span", "who", seatLabel(s, st));
    who.style.background = seatColour(s);
    box.appendChild(who);
    let text = " " + (BM_PHASE_TEXT[stt.phase] || stt.phase.toLowerCase());
    if (stt.phase === "BUY_OFFER" && st.view.pending_cell >= 0) {
      text += " " + BM.cellName(st.view.pending_cell);
    }
    box.appendChild(document.createTextNode(text));
  },

  renderTrade(st) {
    const box = $("bm-trade");
    const t = st.view.trade;
    box.hidden = !t;
    if (!t) return;
    const from = seatLabel(st.view.turn, st);
    const to = seatLabel(t.target, st);
    const gives = t.give.map(BM.cellName);
    const takes = t.take.map(BM.cellName);
    t.shares.forEach((x, c) => {
      if (x > 0) gives.push(`${x} ${BM.board.colours[c]}`);
      if (x < 0) takes.push(`${-x} ${BM.board.colours[c]}`);
    });
    if (t.cash > 0) gives.push(cr(t.cash));
    if (t.cash < 0) takes.push(cr(-t.cash));
    const list = (xs) => (xs.length ? xs.join(", ") : "nothing");
    box.textContent = `${from} proposes to ${to}: ${from} gives ${list(gives)} and gets ` +
      `${list(takes)}.`;
  },

  renderControls(st) {
    const main = $("bm-controls");
    const more = $("bm-more");
    main.replaceChildren();
    more.replaceChildren();
    if (st.to_move === "computer") {
      main.appendChild(el("span", "hint", "The computers are playing…"));
    }
    const early = ["PRE_ROLL", "RAISE_FUNDS"].includes(st.status.phase);
    for (const e of st.legal) {
      const second = early && BM_MORE_KINDS.includes(e.kind);
      const b = button(BM.words(e.name, st), () => BM.act(e.id),
        e.kind === "roll" ? "primary" : null);
      b.dataset.kind = e.kind;
      b.dataset.id = String(e.id);
      (second ? more : main).appendChild(b);
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
    for (const c of st.hand) box.appendChild(el("li", "card-line", `${c.code}: ${c.text}`));
  },

  renderPrices(st) {
    const box = $("bm-prices");
    box.replaceChildren();
    st.view.prices.forEach((p, c) => {
      const span = el("span");
      span.append(el("span", "colour", BM.board.colours[c]), document.createTextNode(
        ` ${p} (bank holds ${st.view.supply[c]})`));
      box.appendChild(span);
    });
  },

  renderCells(st) {
    const box = $("bm-cells");
    box.replaceChildren();
    const v = st.view;
    let track = -1;
    for (const c of BM.board.cells) {
      if (c.track !== track) {
        track = c.track;
        box.appendChild(el("div", "bm-track", BM.board.tracks[track]));
      }
      const d = el("div", "bm-cell");
      d.id = `cell-${c.index}`;
      const owner = v.owner[c.index];
      if (owner >= 0) d.style.borderLeftColor = seatColour(owner);
      if (v.mortgaged[c.index]) d.classList.add("pledged");
      d.appendChild(el("div", "cname", c.name));
      let info = "";
      if (c.kind === "lot" || c.kind === "supermarket") {
        info = owner >= 0 ? seatLabel(owner, st) : cr(c.price);
        if (v.level[c.index]) info += ", " + BM_LEVELS[v.level[c.index]];
        if (v.mortgaged[c.index]) info += ", pledged";
      } else {
        info = c.kind.replace(/_/g, " ");
      }
      d.appendChild(el("div", "cinfo", info));
      const here = st.players.filter((p) => !p.bankrupt && p.position === c.index);
      if (here.length) {
        const tokens = el("div", "tokens");
        for (const p of here) {
          const t = el("span", "token", String(p.seat + 1));
          t.style.background = seatColour(p.seat);
          t.title = seatLabel(p.seat, st);
          tokens.appendChild(t);
        }
        d.appendChild(tokens);
      }
      box.appendChild(d);
    }
  },

  renderPlayers(st) {
    const box = $("bm-players");
    box.replaceChildren();
    for (const p of st.players) {
      const card = playerCard(st, p, `bm-player-${p.seat}`, cr(p.cash));
      const shares = p.shares.map((x, c) => `${BM.board.colours[c][0]}${x}`).join(" ");
      const extras = [`net worth ${cr(p.net_worth)}`, `on ${BM.cellName(p.position)}`,
        `shares ${shares}`, `${p.lots.length} lot${p.lots.length === 1 ? "" : "s"}`,
        `${p.hand_size} card${p.hand_size === 1 ? "" : "s"}`];
      if (p.passes.length) extras.push(`${p.passes.length} pass${p.passes.length > 1 ? "es" : ""}`);
      card.append(el("div", "worth", extras.join(" · ")));
      box.appendChild(card);
    }
  },

  renderLog(st) {
    const box = $("bm-log");
    box.replaceChildren();
    for (const line of st.log.slice(-150)) {
      box.appendChild(el("li", line.startsWith("Round") ? "round-line" : null,
        BM.words(line, st)));
    }
    box.scrollTop = box.scrollHeight;
  },
};
