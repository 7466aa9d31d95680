"use strict";
// The Byapar web table. Everything goes through the /v1 JSON API: the page sets up a table,
// draws its state, sends a person's choices, and asks the server to let computer seats move
// (POST .../advance) one decision after each pause, so the pace is the page's to set.

const $ = (id) => document.getElementById(id);
const S = {
  info: null, board: null, state: null, tableId: null,
  busy: false, timer: null, pace: 400, resultSeen: null,
  // The log's length after the person's last move: the recap shows what came after it.
  sinceLog: null,
};
// Names for the seats, so that the log and the cards speak of people, not numbers. A table with
// one person calls that seat "You".
const SEAT_NAMES = ["Asha", "Bikash", "Chandra", "Dipa", "Gopal", "Hira"];
// The seat menu's words for the computer players.
const LEVEL_TEXT = {
  random: "beginner: plays at random", easy: "easy", medium: "medium", hard: "hard",
  expert: "expert: thinks ahead, slower",
};
const PHASE_TEXT = {
  PRE_ROLL: "to play", BUY: "landed on an unowned place", AUCTION: "bidding",
  TRADE_ANSWER: "answering a trade offer", RAISE_CASH: "raising cash", GAME_OVER: "",
};
const MAIN_KINDS = ["roll", "pay_fine", "use_bail_card", "buy", "decline"];
const PROPERTY_KINDS = [["build", "Build a house"], ["sell_building", "Sell a building"],
  ["mortgage", "Mortgage"], ["unmortgage", "Pay off a mortgage"]];

// ------------------------------------------------------------------ helpers
function rs(n) { return "Rs " + Number(n).toLocaleString("en-US"); }

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function button(label, onClick, cls) {
  const b = el("button", cls, label);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

// Each table's seat secrets, as the server gave them when the page made the table: sent with
// every request on that table (a server without --open-seats shows and plays a seat only for
// its secret). Kept in localStorage, so that a reload of #t=ID still holds them.
function rememberSecrets(id, given) {
  const all = [...Object.values(given.seats || {}), given.spectator].filter(Boolean);
  try { localStorage.setItem(`byapar-seats-${id}`, all.join(",")); } catch (e) { /* private mode */ }
}

function seatSecrets(id) {
  try { return localStorage.getItem(`byapar-seats-${id}`); } catch (e) { return null; }
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const table = path.match(/^\/v1\/tables\/([0-9a-f]{1,64})/);
  const held = table && seatSecrets(table[1]);
  if (held) opts.headers["X-Seat-Secret"] = held;
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    const err = new Error("no answer");
    err.code = "network";
    throw err;
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    // The detail is for developers (and the console); the page shows plainMessage(err).
    const err = new Error((data && data.detail) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.code = (data && data.error) || "http_error";
    err.field = data && data.field;
    throw err;
  }
  if (method === "POST" && path === "/v1/tables" && data && data.id && data.secrets) {
    rememberSecrets(data.id, data.secrets);
  }
  return data;
}

// The person's words for an error (messages.js), never the API's detail.
function say(err, context, values) {
  showError(plainMessage(err, context, values));
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

function squareName(i) { return S.board.squares[i].name; }
function seatColour(s) { return S.board.seat_colours[s % S.board.seat_colours.length]; }

function playerLabel(name) {
  if (name === "person") return "Person";
  if (S.info.players.checkpoints.includes(name)) {
    const parts = name.split(/[\\/]/).filter(Boolean);
    return "checkpoint " + (parts[parts.length - 1] || name);
  }
  return name;
}

function seatLabel(seat, st) {
  st = st || S.state;
  const persons = st.seats.filter((x) => x.person).length;
  if (st.seats[seat].person && persons === 1) return "You";
  return SEAT_NAMES[seat % SEAT_NAMES.length];
}

function isYou(seat, st) { return seatLabel(seat, st) === "You"; }

// What plays at a seat, in a few words: "person", "hard computer".
function seatKind(seat, st) {
  const info = (st || S.state).seats[seat];
  return info.person ? "person" : `${playerLabel(info.player)} computer`;
}

// The engine's log line in the table's names: "seat 1 buys Jumla" becomes "Bikash buys Jumla",
// "seat 0 rolls 2+1" becomes "You roll 2+1".
const IRREGULAR = { is: "are", has: "have", does: "do", goes: "go" };
function asYou(verb) {
  if (verb in IRREGULAR) return IRREGULAR[verb];
  if (/(ss|sh|ch|x|z)es$/.test(verb)) return verb.slice(0, -2);
  if (/[^s]s$/.test(verb)) return verb.slice(0, -1);
  return verb;
}

// A list in words: "nothing", "Jumla", "Jumla and Surkhet", "Jumla, Surkhet and Ilam".
function listWords(xs) {
  if (!xs.length) return "nothing";
  if (xs.length === 1) return xs[0];
  return xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
}

function tradeWords(st, from, give, take, money) {
  // ``from`` gives ``give`` and takes ``take``; money > 0 is paid by ``from``.
  const gets = give.slice();
  const gives = take.slice();
  if (money > 0) gets.push(rs(money));
  if (money < 0) gives.push(rs(-money));
  return [listWords(gets), listWords(gives)];
}

function humanLine(line, st) {
  st = st || S.state;
  const n = st.seats.length;
  const name = (k) => (Number(k) < n ? seatLabel(Number(k), st) : `seat ${k}`);
  // The engine writes an offer as the offerer's action ("give nothing for Janakpur; pay
  // Rs 3,500"); a person reads what is offered for what ("offers you Rs 3,500 for Janakpur").
  const m = line.match(/^seat (\d+) offers seat (\d+): give (.+?) for (.+?)(?:; (pay|ask) Rs ([\d,]+))?$/);
  if (m) {
    const money = m[6] ? Number(m[6].replace(/,/g, "")) * (m[5] === "pay" ? 1 : -1) : 0;
    const split = (t) => (t === "nothing" ? [] : t.split(/, | and /));
    const [gets, gives] = tradeWords(st, Number(m[1]), split(m[3]), split(m[4]), money);
    const to = isYou(Number(m[2]), st) ? "you" : name(m[2]);
    const verb = isYou(Number(m[1]), st) ? "offer" : "offers";
    return `${name(m[1])} ${verb} ${to} ${gets} for ${gives}`;
  }
  line = line.replace(/\bbids ([\d,]+) on\b/, "bids Rs $1 on")
    .replace(/\bbeat ([\d,]+)\b/, "beat Rs $1");
  return seatWords(line, st);
}

// The seats of a log line (either game's) in the table's names, with the verbs to match:
// "seat 1 buys Jumla" becomes "Bikash buys Jumla", "seat 0 is bankrupt to seat 2" becomes
// "You are bankrupt to Chandra"; the line starts with a capital letter.
function seatWords(line, st) {
  const n = st.seats.length;
  const name = (k) => (Number(k) < n ? seatLabel(Number(k), st) : `seat ${k}`);
  let m = line.match(/^Round (\d+): seat (\d+) to play \((\d+) players\)$/);
  if (m) return `Round ${m[1]}: ${name(m[2])} to play (${m[3]} players)`;
  m = line.match(/^Game over: ((?:seat \d+, )+seat \d+) (.*)$/);
  if (m) {
    const names = m[1].split(", ").map((x) => (Number(x.slice(5)) < n &&
      isYou(Number(x.slice(5)), st) ? "you" : name(x.slice(5))));
    return `Game over: ${listWords(names)} ${m[2]}`;
  }
  // A seat at the start of the line (or after "Game over: ") is the one acting.
  let you = false;
  line = line.replace(/^((?:Game over: )?)seat (\d+)(,?) (\w+)/, (all, pre, k, comma, verb) => {
    if (Number(k) < n && isYou(Number(k), st)) {
      you = true;
      return `${pre}${pre ? "you" : "You"}${comma} ${comma ? verb : asYou(verb)}`;
    }
    return `${pre}${name(k)}${comma} ${verb}`;
  });
  if (you) {
    // The second verb too: "and leaves jail", "and holds Rs 1,010", "and is bankrupt".
    line = line.replace(/ and (plays|drops|leaves|holds|is|crosses)\b/g,
      (all, v) => ` and ${asYou(v)}`);
  }
  line = line.replace(/\bseat (\d+)/g, (all, k) => (Number(k) < n && isYou(Number(k), st)
    ? "you" : name(k)));
  return line.charAt(0).toUpperCase() + line.slice(1);
}

function payoffCost(i) {
  const mv = Math.floor(S.board.squares[i].price / 2);
  return Math.ceil((mv * 110) / 1000) * 10;
}

// ------------------------------------------------------------------ setup
// The game chosen in the setup: "byapar" or "businessman".
function gameKind() { return $("game-kind").value; }

function playerOptions() {
  const p = S.info.players;
  const out = [["person", "Person (plays in this browser)"]];
  if (gameKind() === "businessman") {
    for (const n of S.info.games.businessman.players) {
      if (n !== "person") out.push([n, `Computer: ${LEVEL_TEXT[n] || n}`]);
    }
    return out;
  }
  // The difficulty ladder, beginner to expert; then the other levels, the panel's styles and
  // any checkpoints.
  const ladder = p.ladder || [];
  ladder.forEach((level, k) => {
    out.push([level.name, `Computer, level ${k + 1} of ${ladder.length}: ${level.text}`]);
  });
  const onLadder = new Set(ladder.map((level) => level.name));
  for (const n of [...p.levels, ...(p.search || [])]) {
    if (!onLadder.has(n)) out.push([n, `Computer: ${LEVEL_TEXT[n] || n}`]);
  }
  for (const n of p.panel) out.push([n, `Computer (panel): ${n}`]);
  for (const n of p.checkpoints) out.push([n, `Computer: ${playerLabel(n)}`]);
  return out;
}

function seatRow(value) {
  const li = el("li");
  const row = el("div", "seat-row");
  const sw = el("span", "swatch");
  const sel = el("select", "seat-select");
  for (const [v, label] of playerOptions()) {
    const o = el("option", null, label);
    o.value = v;
    sel.appendChild(o);
  }
  sel.value = value;
  const remove = button("Remove", () => { li.remove(); refreshSeats(); });
  remove.className = "remove-seat";
  row.append(sw, sel, remove);
  li.appendChild(row);
  return li;
}

function refreshSeats() {
  const items = [...$("seats").children];
  items.forEach((li, s) => {
    li.querySelector(".swatch").style.background = seatColour(s);
    li.querySelector(".remove-seat").disabled = items.length <= 2;
  });
  $("add-seat").disabled = items.length >= 6;
}

function buildSetup() {
  const seats = $("seats");
  seats.replaceChildren();
  for (const v of ["person", "hard", "medium", "easy"]) seats.appendChild(seatRow(v));
  refreshSeats();
}

function chosenSeats() {
  return [...document.querySelectorAll(".seat-select")].map((s) => s.value);
}

function chosenRules() {
  const r = $("rounds").value;
  let rounds = 40;
  if (r === "none") rounds = null;
  else if (r === "custom") rounds = Number($("rounds-custom").value);
  else rounds = Number(r);
  return { rounds, starting_cash: Number($("cash").value), auctions: $("auctions").checked };
}

// The game chosen: its table options and its players in the seat menus.
function chooseGame() {
  const bm = gameKind() === "businessman";
  $("byapar-options").hidden = bm;
  $("businessman-options").hidden = !bm;
  const seats = chosenSeats();
  const known = new Set(playerOptions().map(([v]) => v));
  $("seats").replaceChildren();
  for (const v of seats) $("seats").appendChild(seatRow(known.has(v) ? v : "medium"));
  refreshSeats();
}

// A table's state, Byapar's or Businessman's, opened in its own view.
function openAny(st) {
  if (st.game === "businessman") BM.open(st);
  else openTable(st);
}

async function startGame() {
  const body = { seats: chosenSeats(), rules: chosenRules() };
  if (gameKind() === "businessman") {
    body.game = "businessman";
    body.rules = { rounds: Number($("bm-rounds").value), abroad: $("bm-abroad").checked };
  }
  const seed = $("seed").value.trim();
  if (seed !== "") body.seed = Number(seed);
  try {
    openAny(await api("POST", "/v1/tables", body));
  } catch (err) {
    say(err, "create");
  }
}

async function loadGame(file, input) {
  try {
    const data = JSON.parse(await file.text());
    const tableSave = data && ["byapar-table", "businessman-table"].includes(data.format);
    const body = tableSave ? { save: data } : { game: data, seats: chosenSeats() };
    openAny(await api("POST", "/v1/tables", body));
  } catch (err) {
    // A file that is not JSON at all fails in JSON.parse, before any request.
    const why = err.code ? plainMessage(err, "load") : plainMessage({ code: "bad_saved_game" });
    showError(`Could not load ${file.name}. ${why}`);
  } finally {
    (input || $("load-file")).value = "";
  }
}

// The page's title and heading name the game at the table, and Rules opens that game's rules.
function gameTitle(name) {
  document.title = name;
  const h1 = document.querySelector(".topbar h1");
  h1.textContent = name;
  h1.title = name === "Byapar" ? "व्यापार: trade" : "";
  $("rules-link").href = name === "Businessman" ? "/static/rules.html#businessman"
    : "/static/rules.html";
}

function showSetup() {
  clearTimeout(S.timer);
  S.tableId = null;
  S.state = null;
  history.replaceState(null, "", location.pathname);
  $("table").hidden = true;
  BM.close();
  $("table-tools").hidden = true;
  $("result").hidden = true;
  $("setup").hidden = false;
}

// ------------------------------------------------------------------ the table
function openTable(st) {
  showError("");
  BM.close();
  S.kind = "byapar";
  S.tableId = st.id;
  S.state = null;
  S.sinceLog = st.game.log.length;
  history.replaceState(null, "", `#t=${st.id}`);
  $("setup").hidden = true;
  $("table").hidden = false;
  $("table-tools").hidden = false;
  render(st);
}

function render(st) {
  if (S.state && S.state.id === st.id && st.version < S.state.version) return;  // stale
  S.state = st;
  renderBoard(st);
  renderPlayers(st);
  renderStatus(st);
  renderRecap(st);
  renderControls(st);
  renderHoldings(st);
  renderLog(st);
  renderResult(st);
  Replay.offer(st);
  schedule(st);
}

function schedule(st) {
  clearTimeout(S.timer);
  if (st.to_move === "computer") S.timer = setTimeout(advance, S.pace);
}

async function advance() {
  if (S.busy || !S.tableId) return;
  S.busy = true;
  const id = S.tableId;
  try {
    // At pace 0 the computers play on until a person must decide, in one request.
    const st = await api("POST", `/v1/tables/${id}/advance`,
      { max_decisions: S.pace === 0 ? 200 : 1, version: S.state.version });
    if (id === S.tableId) { showError(""); S.busy = false; render(st); }
  } catch (err) {
    if (err.code === "stale_version") {  // another tab moved this table: show it as it is
      S.busy = false;
      await refresh(id);
      return;
    }
    say(err);
    if (err.status !== 404) S.timer = setTimeout(advance, Math.max(S.pace, 1000));
  } finally {
    S.busy = false;
  }
}

// The table as the server has it now (after a stale version: another tab, a lost answer).
async function refresh(id) {
  try {
    const st = await api("GET", `/v1/tables/${id}`);
    if (id === S.tableId) render(st);
  } catch (err) {
    say(err);
  }
}

// A person's action. It names the version of the table it was chosen in, so a double click
// or a repeated request is never applied twice: the server refuses the second (409).
async function act(body, context, values) {
  if (S.busy || !S.tableId) return;
  S.busy = true;
  clearTimeout(S.timer);
  const id = S.tableId;
  try {
    const st = await api("POST", `/v1/tables/${id}/actions`,
      { ...body, version: S.state.version });
    if (id === S.tableId) {
      S.sinceLog = st.game.log.length;
      showError("");
      S.busy = false;
      render(st);
    }
  } catch (err) {
    say(err, context, values);
    if (err.code === "stale_version") { S.busy = false; await refresh(id); }
  } finally {
    S.busy = false;
  }
}

// Stop (or allow again) trade offers from a computer seat to the people at this table.
async function mute(seat, muted) {
  if (S.busy || !S.tableId) return;
  S.busy = true;
  const id = S.tableId;
  try {
    const st = await api("POST", `/v1/tables/${id}/mute`,
      { seat, muted, version: S.state.version });
    if (id === S.tableId) { showError(""); S.busy = false; render(st); }
  } catch (err) {
    say(err);
    if (err.code === "stale_version") { S.busy = false; await refresh(id); }
  } finally {
    S.busy = false;
  }
}

// Whether every person at the table has muted offers from ``seat``.
function isMuted(st, seat) {
  const people = st.seats.filter((x) => x.person);
  return people.length > 0 && people.every((x) => (x.muted || []).includes(seat));
}

// ------------------------------------------------------------------ drawing
// A phone's screen: the board's squares are under 44 px there, so a tap on the board zooms
// in on the side tapped (big rows, full names) rather than choosing a square.
const PHONE = window.matchMedia("(max-width: 760px)");

// What a square says on a phone, where a name has room for about five letters at 11 px.
const SHORT_NAMES = {
  "Samudaya": "Sam.", "Surkhet": "Surk.", "Income tax": "Tax", "Bus park": "Bus",
  "Mahendranagar": "Mahe.", "Dhangadhi": "Dhan.", "Dadeldhura": "Dadel", "Nepalgunj": "Nepal",
  "Hydropower": "Hydro", "Butwal": "Butw.", "Lumbini": "Lumb.", "Airport": "Air",
  "Birgunj": "Birg.", "Bhagya": "Bhag.", "Janakpur": "Janak", "Chautari": "Chau.",
  "Dharan": "Dhar.", "Biratnagar": "Birat", "Railway": "Rail", "Gorkha": "Gork.",
  "Mustang": "Must.", "Pokhara": "Pokh.", "Go to jail": "To jail", "Chitwan": "Chitw",
  "Bhaktapur": "Bhakt", "Drinking water": "Water", "Cable car": "Cable", "Lalitpur": "Lalit",
  "Property tax": "Tax", "Kathmandu": "Ktm",
};
function shortName(name) { return SHORT_NAMES[name] || name.slice(0, 5); }

// The squares are buttons on a large screen; on a phone the board is one button (zoom).
function boardTargets() {
  const phone = PHONE.matches;
  for (const d of document.querySelectorAll("#board .sq")) {
    if (phone) {
      d.removeAttribute("role");
      d.removeAttribute("tabindex");
    } else {
      d.setAttribute("role", "button");
      d.tabIndex = 0;
    }
  }
}

function cellPlace(i) {
  const side = Math.floor(i / 9), k = i % 9;
  if (side === 0) return [9, 9 - k];
  if (side === 1) return [9 - k, 0];
  if (side === 2) return [0, k];
  return [k, 9];
}

function buildBoard() {
  const board = $("board");
  for (const sq of S.board.squares) {
    const d = el("div", "sq");
    d.id = `sq-${sq.index}`;
    const [row, col] = cellPlace(sq.index);
    d.style.gridRow = String(row + 1);
    d.style.gridColumn = String(col + 1);
    d.title = squareTitle(sq);
    d.addEventListener("click", () => showPlace(sq.index));
    d.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); showPlace(sq.index); }
    });
    board.appendChild(d);
  }
  $("board-zoom").addEventListener("click", (ev) => {
    const side = sideAt(ev);
    if (side !== null) zoomSide(side);
  });
  boardTargets();
  PHONE.addEventListener("change", boardTargets);
}

// The side of the board under a tap on the zoom button: that of the square tapped, else of
// the nearest edge.
function sideAt(ev) {
  const box = $("sq-0").parentElement.getBoundingClientRect();
  const cell = $("sq-0").getBoundingClientRect().width;
  const col = Math.min(9, Math.max(0, Math.floor((ev.clientX - box.left) / cell)));
  const row = Math.min(9, Math.max(0, Math.floor((ev.clientY - box.top) / cell)));
  for (let i = 0; i < 36; i++) {
    const [r, c] = cellPlace(i);
    if (r === row && c === col) return Math.floor(i / 9);
  }
  const edges = [[9 - row, 0], [col, 1], [row, 2], [9 - col, 3]];
  edges.sort((a, b) => a[0] - b[0]);
  return edges[0][1];
}

// The zoomed view of one side of the board: its nine squares as rows a finger can tap, with
// full names, prices, owners, buildings and tokens; a row opens the square's card.
function zoomSide(side) {
  const st = S.state;
  if (!st) return;
  const g = st.game;
  const first = side * 9;
  const rows = [];
  for (let i = first; i < first + 9; i++) {
    const sq = S.board.squares[i];
    const facts = [];
    if (sq.price) facts.push(rs(sq.price));
    else if (sq.tax) facts.push(`pay ${rs(sq.tax)}`);
    if (g.owner[i] >= 0) facts.push(`owned by ${seatLabel(g.owner[i], st)}`);
    const b = g.buildings[i];
    if (b) facts.push(b === S.board.hotel ? "a hotel" : `${b} house${b > 1 ? "s" : ""}`);
    if (g.mortgaged[i]) facts.push("mortgaged");
    const here = [];
    g.position.forEach((pos, s) => { if (pos === i && !g.bankrupt[s]) here.push(s); });
    rows.push({ index: i, name: sq.name, band: sq.group ? S.board.group_colours[sq.group] : null,
      owner: g.owner[i] >= 0 ? seatColour(g.owner[i]) : null, facts: facts.join(" · "), here,
      open: () => showPlace(i) });
  }
  const title = `${S.board.squares[first].name} to ${S.board.squares[first + 8].name}`;
  openZoom(title, rows, st, () => zoomSide((side + 3) % 4), () => zoomSide((side + 1) % 4));
}

// The zoom dialog, either game's: a title, rows (``open`` runs on a tap), and the sides or
// tracks before and after this one.
function openZoom(title, rows, st, prev, next) {
  const dlg = $("zoom-dialog");
  $("zoom-title").textContent = title;
  const list = $("zoom-list");
  list.replaceChildren();
  for (const r of rows) {
    const b = button("", () => { dlg.close(); r.open(); }, "zoom-row");
    b.dataset.cell = String(r.index);
    const band = el("span", "zoom-band");
    band.style.background = r.band || "transparent";
    const text = el("span", "zoom-text");
    text.append(el("span", "zoom-name", r.name), el("span", "zoom-facts", r.facts));
    b.append(band, text);
    if (r.here.length) {
      const tokens = el("span", "zoom-tokens");
      for (const s of r.here) {
        const t = el("span", "zoom-token", seatLabel(s, st));
        t.style.background = seatColour(s);
        tokens.appendChild(t);
      }
      b.appendChild(tokens);
    }
    if (r.owner) b.style.borderRight = `8px solid ${r.owner}`;  // the owner's colour
    list.appendChild(b);
  }
  $("zoom-prev").onclick = prev;
  $("zoom-next").onclick = next;
  if (!dlg.open) dlg.showModal();
  list.scrollTop = 0;
}

function squareTitle(sq) {
  if (sq.kind === "city") {
    return `${sq.name} (${sq.group}): price ${rs(sq.price)}, house ${rs(sq.house_cost)}, ` +
      `rent ${sq.rents.map((r) => r.toLocaleString("en-US")).join(" / ")}`;
  }
  if (sq.price) return `${sq.name}: price ${rs(sq.price)}`;
  if (sq.tax) return `${sq.name}: pay ${rs(sq.tax)}`;
  return sq.name;
}

function renderBoard(st) {
  const g = st.game;
  const pending = st.status.phase === "BUY" ? g.pending_square
    : (st.bids ? st.bids.square : -1);
  for (const sq of S.board.squares) {
    const i = sq.index;
    const d = $(`sq-${i}`);
    const owner = g.owner[i];
    const classes = ["sq"];
    if (i % 9 === 0) classes.push("corner");
    if (sq.kind === "card") classes.push("card-sq");
    if (sq.kind === "tax") classes.push("tax");
    if (g.mortgaged[i]) classes.push("mortgaged");
    if (i === pending) classes.push("pending");
    d.className = classes.join(" ");
    d.replaceChildren();
    const band = el("div", "band");
    band.style.background = sq.group ? S.board.group_colours[sq.group] : "transparent";
    if (!sq.group) band.style.borderBottom = "none";
    d.appendChild(band);
    // One long word (Mahendranagar) in a smaller size rather than broken across lines.
    d.appendChild(el("div", !sq.name.includes(" ") && sq.name.length > 11 ? "name long" : "name",
      sq.name));
    d.appendChild(el("div", "short", shortName(sq.name)));
    let sub = "";
    if (sq.price) sub = rs(sq.price);
    else if (sq.tax) sub = `pay ${rs(sq.tax)}`;
    else if (sq.kind === "card") sub = "draw a card";
    else if (sq.kind === "start") sub = `collect ${rs(S.board.salary)}`;
    d.appendChild(el("div", "price", sub));
    const b = g.buildings[i];
    if (b) {
      const blds = el("div", "blds");
      if (b === S.board.hotel) blds.appendChild(el("span", "hotel"));
      else for (let h = 0; h < b; h++) blds.appendChild(el("span", "house"));
      d.appendChild(blds);
    }
    if (g.mortgaged[i]) d.appendChild(el("span", "mort", "M"));
    if (owner >= 0) {
      const bar = el("div", "owner");
      bar.style.background = seatColour(owner);
      d.appendChild(bar);
      d.title = `${squareTitle(sq)}; owned by ${seatLabel(owner, st)}`;
    } else {
      d.title = squareTitle(sq);
    }
    const tokens = el("div", "tokens");
    g.position.forEach((pos, s) => {
      if (pos === i && !g.bankrupt[s]) {
        // The seat's initial; a phone shows the coloured token alone (no letter under 11 px).
        const t = el("span", "token");
        t.appendChild(el("b", null, seatLabel(s, st)[0]));
        t.style.background = seatColour(s);
        t.title = seatLabel(s, st);
        tokens.appendChild(t);
      }
    });
    d.appendChild(tokens);
  }
  const stt = st.status;
  $("round").textContent = `Round ${stt.round} of ${stt.round_limit}`;
  const dice = $("dice");
  dice.replaceChildren();
  if (stt.dice[0]) for (const v of stt.dice) dice.appendChild(die(v));
}

// A die with its pips: a 3 x 3 grid with the dots of ``v`` filled in.
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8],
  6: [0, 2, 3, 5, 6, 8] };
function die(v) {
  const d = el("span", "die");
  d.dataset.value = String(v);
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", String(v));
  d.title = String(v);
  for (let k = 0; k < 9; k++) d.appendChild(el("i", (PIPS[v] || []).includes(k) ? "pip" : null));
  return d;
}

// A player's card in either game's list: its swatch, its name and kind, and its cash.
function playerCard(st, p, id, cash) {
  const card = el("div", "player");
  card.id = id;
  if (p.seat === st.status.current_player) card.classList.add("current");
  if (p.bankrupt) card.classList.add("out");
  const sw = el("span", "swatch");
  sw.style.background = seatColour(p.seat);
  const name = el("div", "pname", `${seatLabel(p.seat, st)} `);
  name.appendChild(el("span", "kind", `(${seatKind(p.seat, st)})`));
  const money = el("div", "money", p.bankrupt ? "bankrupt" : cash);
  money.classList.add("cash");
  card.append(sw, name, money);
  return card;
}

function renderPlayers(st) {
  const box = $("players");
  box.replaceChildren();
  for (const p of st.players) {
    const card = playerCard(st, p, `player-${p.seat}`, rs(p.cash));
    const extras = [`net worth ${rs(p.net_worth)}`, `${p.places.length} place${p.places.length === 1 ? "" : "s"}`];
    if (p.in_jail) extras.push("in jail");
    if (p.bail_cards) extras.push(`${p.bail_cards} bail card${p.bail_cards > 1 ? "s" : ""}`);
    const worth = el("div", "worth", extras.join(" · "));
    worth.classList.add("net-worth");
    card.append(worth);
    if (!st.seats[p.seat].person && st.seats.some((x) => x.person) && !p.bankrupt) {
      const muted = isMuted(st, p.seat);
      const m = button(muted ? "Allow trade offers" : "Mute trade offers",
        () => mute(p.seat, !muted), "mute-toggle");
      m.id = `mute-${p.seat}`;
      m.title = muted ? "This player's trade offers are not sent to you"
        : "Stop this player's trade offers to you";
      card.appendChild(m);
    }
    box.appendChild(card);
  }
}

function renderStatus(st) {
  const box = $("status");
  box.replaceChildren();
  const stt = st.status;
  if (stt.is_over) {
    box.textContent = "Game over: " + winnersText(st);
    return;
  }
  const s = stt.current_player;
  const who = el("span", "who", seatLabel(s, st));
  who.style.background = seatColour(s);
  box.appendChild(who);
  const you = isYou(s, st);
  let text = " " + PHASE_TEXT[stt.phase];
  if (stt.phase === "BUY") {
    text = ` ${you ? "landed" : "landed"} on ${squareName(st.game.pending_square)}`;
  }
  if (stt.phase === "AUCTION" && st.bids) {
    const b = st.bids;
    text = ` bidding for ${squareName(b.square)}: ` +
      (b.holder >= 0 ? `high bid ${rs(b.high)} by ${seatLabel(b.holder, st)}` : "no bid yet");
  }
  if (stt.phase === "RAISE_CASH") {
    text = ` ${you ? "owe" : "owes"} ${rs(stt.debt_owed)}: raising cash`;
  }
  box.appendChild(document.createTextNode(text));
}

function renderControls(st) {
  const box = $("controls");
  box.replaceChildren();
  if (st.status.is_over) {
    box.appendChild(button("New table", showSetup, "primary"));
    return;
  }
  if (st.to_move !== "person") {
    const s = st.status.current_player;
    box.appendChild(el("div", "thinking", `${seatLabel(s, st)} is thinking…`));
    return;
  }
  const seat = st.status.current_player;
  const me = st.players[seat];
  box.appendChild(el("h4", null, isYou(seat, st) ? `Your move (cash ${rs(me.cash)})`
    : `${seatLabel(seat, st)} to move (cash ${rs(me.cash)})`));
  if (st.offer) box.appendChild(offerCard(st));
  if (st.status.phase === "BUY") {
    const sq = S.board.squares[st.game.pending_square];
    const note = el("div", "note", `${sq.name} is for sale at ${rs(sq.price)}.` +
      (st.game.rules.auctions ? " If you do not buy it, it goes to auction. " : " "));
    note.appendChild(placeLink(sq.index, "See its card"));
    box.appendChild(note);
  }
  if (st.status.phase === "RAISE_CASH") {
    box.appendChild(el("div", "note", `You owe ${rs(st.status.debt_owed)} and hold ` +
      `${rs(me.cash)}: sell buildings or mortgage places until you can pay.`));
  }
  if (st.status.pre_roll_actions >= st.status.pre_roll_cap && st.status.phase === "PRE_ROLL") {
    box.appendChild(el("div", "note", "That is the most actions before rolling in one turn."));
  }
  const main = el("div", "row");
  for (const e of st.legal) {
    if (MAIN_KINDS.includes(e.engine.kind)) main.appendChild(actionButton(e, mainLabel(e, st)));
  }
  if (st.trade) {
    const t = button("Propose a trade…", () => openTrade(st));
    t.id = "trade-open";
    main.appendChild(t);
  }
  if (main.childNodes.length) box.appendChild(main);
  if (st.bids) box.appendChild(bidControls(st));
  for (const [kind, title] of PROPERTY_KINDS) {
    const entries = st.legal.filter((e) => e.engine.kind === kind);
    if (!entries.length) continue;
    box.appendChild(el("h4", null, title));
    const row = el("div", "row");
    for (const e of entries) row.appendChild(actionButton(e, propertyLabel(e)));
    box.appendChild(row);
  }
}

function actionButton(entry, label, cls) {
  const b = button(label, () => act({ id: entry.id }),
    cls || (entry.engine.kind === "roll" ? "primary" : undefined));
  b.dataset.actionId = String(entry.id);
  b.dataset.kind = entry.engine.kind;
  return b;
}

function mainLabel(e, st) {
  const k = e.engine.kind;
  if (k === "roll") return "Roll the dice";
  if (k === "pay_fine") return `Pay the fine (${rs(S.board.jail_fine)})`;
  if (k === "use_bail_card") return "Use a bail card";
  if (k === "buy") return `Buy ${squareName(e.engine.square)} (${rs(S.board.squares[e.engine.square].price)})`;
  if (k === "decline") return "Do not buy";
  if (k === "accept_trade") return "Accept";
  if (k === "reject_trade") return "Refuse";
  if (k === "drop_out") return "Drop out";
  return e.name;
}

function propertyLabel(e) {
  const i = e.engine.square;
  const sq = S.board.squares[i];
  const k = e.engine.kind;
  if (k === "build") return `${sq.name} (${rs(sq.house_cost)})`;
  if (k === "sell_building") return `${sq.name} (+${rs(Math.floor(sq.house_cost / 2))})`;
  if (k === "mortgage") return `${sq.name} (+${rs(Math.floor(sq.price / 2))})`;
  return `${sq.name} (${rs(payoffCost(i))})`;
}

// A bid is large when it is above the place's price or more than half the bidder's cash: the
// page asks before sending it.
function largeBid(st, amount) {
  const price = S.board.squares[st.bids.square].price;
  const cash = st.players[st.status.current_player].cash;
  if (amount > price) return `That is more than its price of ${rs(price)}.`;
  if (amount * 2 > cash) return `That is more than half of your ${rs(cash)}.`;
  return null;
}

function bid(st, amount, send) {
  const why = largeBid(st, amount);
  if (!why) { send(); return; }
  confirmThen(`Bid ${rs(amount)} for ${squareName(st.bids.square)}? ${why}`,
    `Yes, bid ${rs(amount)}`, send);
}

function bidControls(st) {
  const b = st.bids;
  const wrap = el("div", "bids");
  const head = el("h4", null, `Bid for ${squareName(b.square)} ` +
    `(price ${rs(S.board.squares[b.square].price)})`);
  wrap.appendChild(head);
  wrap.appendChild(el("div", "note", b.holder >= 0
    ? `Highest bid: ${rs(b.high)} by ${seatLabel(b.holder, st)}.` : "No bid yet."));
  const row = el("div", "row quick-bids");
  // The quick bids in increasing order, then "Drop out" last.
  const bids = st.legal.filter((e) => e.engine.kind === "bid")
    .sort((x, y) => x.engine.amount - y.engine.amount);
  const seen = new Set();
  for (const e of bids) {
    if (seen.has(e.engine.amount)) continue;
    seen.add(e.engine.amount);
    const q = button(`Bid ${rs(e.engine.amount)}`,
      () => bid(st, e.engine.amount, () => act({ id: e.id })));
    q.dataset.actionId = String(e.id);
    q.dataset.kind = "bid";
    q.dataset.amount = String(e.engine.amount);
    row.appendChild(q);
  }
  for (const e of st.legal) {
    if (e.engine.kind === "drop_out") row.appendChild(actionButton(e, "Drop out", "drop"));
  }
  wrap.appendChild(row);
  const own = el("div", "row");
  const input = el("input");
  input.type = "number";
  input.id = "bid-amount";
  input.min = String(b.min);
  input.max = String(b.max);
  input.step = String(b.step);
  input.value = String(b.min);
  input.setAttribute("aria-label", "Your bid in rupees");
  const go = button("Bid this", () => {
    const amount = Number(input.value);
    const range = { min: rs(b.min), max: rs(b.max), step: rs(b.step) };
    if (!Number.isInteger(amount) || amount < b.min || amount > b.max || amount % b.step) {
      showError(fillIn(MESSAGES["illegal_action:bid"], range));
      return;
    }
    bid(st, amount,
      () => act({ engine: { kind: "bid", square: b.square, amount } }, "bid", range));
  });
  go.id = "bid-custom";
  own.append(el("span", "hint", "Or bid Rs"), input, go);
  wrap.appendChild(own);
  return wrap;
}

// An offer made to the person: what each side gives and the cash, with Accept and Refuse.
function offerCard(st) {
  const o = st.offer;
  const card = el("div", "offer-card");
  card.id = "offer-card";
  const from = seatLabel(o.from, st);
  const [gets, gives] = tradeWords(st, o.from, o.give.map(squareName), o.take.map(squareName),
    o.amount);
  card.appendChild(el("div", "offer-title", `${from} offers you ${gets} for ${gives}.`));
  const sides = el("div", "offer-sides");
  const side = (title, places, money, cls) => {
    const col = el("div", "offer-side " + cls);
    col.appendChild(el("h5", null, title));
    const ul = el("ul");
    for (const i of places) {
      const li = el("li");
      li.appendChild(placeLink(i, squareName(i)));
      li.appendChild(document.createTextNode(` (${rs(S.board.squares[i].price)})`));
      ul.appendChild(li);
    }
    if (money > 0) ul.appendChild(el("li", "cash-line", rs(money)));
    if (!ul.childNodes.length) ul.appendChild(el("li", "hint", "nothing"));
    col.appendChild(ul);
    return col;
  };
  sides.append(side("You get", o.give, Math.max(o.amount, 0), "gets"),
    side("You give", o.take, Math.max(-o.amount, 0), "gives"));
  card.appendChild(sides);
  const me = st.status.current_player;
  card.appendChild(el("div", "hint", `Cash now: you ${rs(st.players[me].cash)}, ` +
    `${from} ${rs(st.players[o.from].cash)}.`));
  const row = el("div", "row");
  for (const e of st.legal) {
    if (e.engine.kind === "accept_trade") row.appendChild(actionButton(e, "Accept", "primary"));
  }
  for (const e of st.legal) {
    if (e.engine.kind === "reject_trade") row.appendChild(actionButton(e, "Refuse"));
  }
  if (!st.seats[o.from].person) {
    const m = button(`Mute ${from}'s offers`, () => mute(o.from, true), "mute-offer");
    m.id = "mute-offerer";
    m.title = "Refuse this offer by muting: no more trade offers from this player";
    row.appendChild(m);
  }
  card.appendChild(row);
  return card;
}

// What each computer did since the person's last move, a line a seat.
function renderRecap(st) {
  const box = $("recap");
  box.replaceChildren();
  const log = st.game.log;
  if (st.to_move !== "person" || S.sinceLog === null || S.sinceLog >= log.length ||
      st.status.is_over) {
    box.hidden = true;
    return;
  }
  const bySeat = new Map();
  for (const line of log.slice(S.sinceLog)) {
    const m = line.match(/^seat (\d+) /);
    if (!m) continue;
    const seat = Number(m[1]);
    if (seat >= st.seats.length || st.seats[seat].person) continue;
    if (!bySeat.has(seat)) bySeat.set(seat, []);
    // The line without its subject: "buys Jumla for Rs 600".
    bySeat.get(seat).push(humanLine(line, st).replace(/^\S+ /, ""));
  }
  if (!bySeat.size) { box.hidden = true; return; }
  box.appendChild(el("h4", null, "Since your last move"));
  const ul = el("ul");
  for (const [seat, acts] of bySeat) {
    const li = el("li");
    li.dataset.seat = String(seat);
    const who = el("b", "who-chip", seatLabel(seat, st));
    who.style.borderColor = seatColour(seat);
    // A card's text ends with its own full stop: the line's "; " and "." come after none.
    const shown = (acts.length > 6 ? ["…", ...acts.slice(-6)] : acts)
      .map((a) => a.replace(/[.!]+$/, ""));
    li.append(who, document.createTextNode(" " + shown.join("; ") + "."));
    ul.appendChild(li);
  }
  box.appendChild(ul);
  box.hidden = false;
}

// ------------------------------------------------------------------ place cards
function placeLink(i, text) {
  const a = button(text, () => showPlace(i), "link");
  a.dataset.place = String(i);
  return a;
}

function showPlace(i) {
  if (!S.board) return;
  const sq = S.board.squares[i];
  const st = S.state;
  const card = $("place-card");
  card.replaceChildren();
  const head = el("div", "place-head", sq.name);
  head.style.background = sq.group ? S.board.group_colours[sq.group] : "#d9ddd6";
  if (sq.group && ["Sudurpashchim", "Madhesh", "Gandaki"].includes(sq.group)) {
    head.classList.add("dark-text");
  }
  card.appendChild(head);
  const rows = [];
  const add = (k, v) => rows.push([k, v]);
  if (sq.group) add("Colour group", `${sq.group} (${S.board.groups[sq.group].map(squareName).join(", ")})`);
  if (sq.kind === "city") {
    add("Price", rs(sq.price));
    add("Rent", rs(sq.rents[0]));
    add("Rent with the whole group", rs(sq.rents[0] * 2));
    for (let h = 1; h <= 4; h++) add(`With ${h} house${h > 1 ? "s" : ""}`, rs(sq.rents[h]));
    add("With a hotel", rs(sq.rents[5]));
    add("Each house costs", rs(sq.house_cost));
    add("Selling a building gives", rs(Math.floor(sq.house_cost / 2)));
  } else if (sq.kind === "transport") {
    add("Price", rs(sq.price));
    const r = S.board.transport_rent || [0, 250, 500, 1000, 2000];
    for (let k = 1; k < r.length; k++) add(`Rent, owner holds ${k} transport${k > 1 ? "s" : ""}`, rs(r[k]));
  } else if (sq.kind === "utility") {
    add("Price", rs(sq.price));
    const u = S.board.utility_multiplier || [0, 40, 100];
    add("Rent, owner holds one utility", `${u[1]} × the dice`);
    add("Rent, owner holds both", `${u[2]} × the dice`);
  } else if (sq.kind === "tax") {
    add("Pay", rs(sq.tax));
  } else if (sq.kind === "start") {
    add("Passing or landing", `collect ${rs(S.board.salary)}`);
  } else if (sq.kind === "card") {
    add("Landing", "draw a card");
  } else if (sq.kind === "jail") {
    add("Leaving jail", `pay ${rs(S.board.jail_fine)}, use a bail card, or roll a double`);
  } else if (sq.kind === "go_to_jail") {
    add("Landing", "go straight to jail");
  } else {
    add("Landing", "nothing happens");
  }
  if (sq.price) {
    add("Mortgage gives", rs(Math.floor(sq.price / 2)));
    add("Paying off the mortgage", rs(payoffCost(i)));
  }
  if (st && sq.price) {
    const g = st.game;
    const owner = g.owner[i];
    add("Owner", owner >= 0 ? seatLabel(owner, st) : "the bank (for sale)");
    const b = g.buildings[i];
    if (b) add("Buildings", b === S.board.hotel ? "a hotel" : `${b} house${b > 1 ? "s" : ""}`);
    if (g.mortgaged[i]) add("Mortgaged", "yes: no rent");
  }
  const table = el("table", "place-table");
  for (const [k, v] of rows) {
    const tr = el("tr");
    tr.append(el("th", null, k), el("td", null, v));
    table.appendChild(tr);
  }
  card.appendChild(table);
  const dlg = $("place-dialog");
  if (!dlg.open) dlg.showModal();
}

// Ask before doing something large; ``then`` runs on yes.
function confirmThen(text, yes, then) {
  const dlg = $("confirm-dialog");
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  $("confirm-yes").onclick = () => { dlg.close(); then(); };
  $("confirm-no").onclick = () => dlg.close();
  dlg.showModal();
}

function renderHoldings(st) {
  // Each player's places as chips in their group's colour: who holds what at a glance.
  const box = $("holdings");
  box.replaceChildren();
  const g = st.game;
  for (const p of st.players) {
    if (p.bankrupt || !p.places.length) continue;
    const row = el("div", "holding");
    const sw = el("span", "swatch");
    sw.style.background = seatColour(p.seat);
    row.append(sw, el("span", "holder", seatLabel(p.seat, st)));
    for (const i of p.places) {
      const sq = S.board.squares[i];
      const b = g.buildings[i];
      const chip = button(sq.name + (b === S.board.hotel ? " H" : b ? " " + "•".repeat(b) : ""),
        () => showPlace(i), g.mortgaged[i] ? "chip mortgaged" : "chip");
      chip.dataset.place = String(i);
      chip.style.borderLeftColor = sq.group ? S.board.group_colours[sq.group] : "#888";
      chip.title = g.mortgaged[i] ? `${sq.name} (mortgaged)` : sq.name;
      row.appendChild(chip);
    }
    box.appendChild(row);
  }
}

function renderLog(st) {
  const box = $("log");
  box.replaceChildren();
  for (const line of st.game.log.slice(-150)) {
    box.appendChild(el("li", line.startsWith("Round") ? "round-line" : null, humanLine(line, st)));
  }
  box.scrollTop = box.scrollHeight;
}

function winnersText(st) {
  const w = st.status.winners.map((s) => seatLabel(s, st));
  if (w.length === 1 && w[0] === "You") return "You win";
  return w.join(" and ") + (w.length === 1 ? " wins" : " share the win");
}

function renderResult(st) {
  const box = $("result");
  if (!st.status.is_over || S.resultSeen === st.id) {
    box.hidden = true;
    return;
  }
  $("result-title").textContent = "Game over: " + winnersText(st);
  const table = $("result-table");
  table.replaceChildren();
  const head = el("tr");
  for (const h of ["Player", "Plays as", "Cash", "Net worth"]) head.appendChild(el("th", null, h));
  table.appendChild(head);
  const order = [...st.players].sort((a, b) => b.net_worth - a.net_worth);
  for (const p of order) {
    const tr = el("tr", st.status.winners.includes(p.seat) ? "winner" : null);
    tr.append(el("td", null, seatLabel(p.seat, st)), el("td", null, seatKind(p.seat, st)),
      el("td", "num", p.bankrupt ? "bankrupt" : rs(p.cash)), el("td", "num", rs(p.net_worth)));
    table.appendChild(tr);
  }
  box.hidden = false;
}

// ------------------------------------------------------------------ trades
function tradeable(g, i) {
  const sq = S.board.squares[i];
  if (!sq.group) return true;
  return S.board.groups[sq.group].every((s) => g.buildings[s] === 0);
}

function fillTradeLists(st) {
  const g = st.game;
  const me = st.status.current_player;
  const target = Number($("trade-target").value);
  for (const [box, seat, side] of [[$("trade-give"), me, "give"], [$("trade-take"), target, "take"]]) {
    box.replaceChildren();
    const places = g.owner.map((o, i) => [o, i]).filter(([o, i]) => o === seat && tradeable(g, i));
    if (!places.length) box.appendChild(el("div", "hint", "no place that can change hands"));
    for (const [, i] of places) {
      const label = el("label");
      const cb = el("input");
      cb.type = "checkbox";
      cb.value = String(i);
      cb.dataset.side = side;
      cb.addEventListener("change", tradeSummary);
      label.append(cb, document.createTextNode(" " + squareName(i) +
        ` (${rs(S.board.squares[i].price)}` + (g.mortgaged[i] ? ", mortgaged)" : ")")));
      box.appendChild(label);
    }
  }
  $("trade-take-legend").textContent = `You get (from ${seatLabel(target, st)})`;
  $("trade-give-cash").textContent = `Your cash: ${rs(st.players[me].cash)}`;
  $("trade-take-cash").textContent = `${seatLabel(target, st)}'s cash: ` +
    rs(st.players[target].cash);
  tradeSummary();
}

// The offer as it stands, both sides and the cash, in one sentence.
function tradeSummary() {
  const st = S.state;
  if (!st) return;
  const pick = (side) => [...document.querySelectorAll(`#trade-dialog input[data-side=${side}]`)]
    .filter((c) => c.checked).map((c) => squareName(Number(c.value)));
  const money = Math.round(Number($("trade-money").value) || 0);
  const amount = $("trade-money-way").value === "pay" ? money : -money;
  const target = Number($("trade-target").value);
  const give = pick("give");
  const take = pick("take");
  if (amount > 0) give.push(rs(amount));
  if (amount < 0) take.push(rs(-amount));
  const list = (xs) => (xs.length ? xs.join(" and ") : "nothing");
  $("trade-summary").textContent = `You give ${list(give)}; ${seatLabel(target, st)} ` +
    `gives you ${list(take)}.`;
}

function openTrade(st) {
  const sel = $("trade-target");
  sel.replaceChildren();
  for (const t of st.trade.targets) {
    const o = el("option", null, `${seatLabel(t, st)} (${seatKind(t, st)}, cash ${rs(st.players[t].cash)})`);
    o.value = String(t);
    sel.appendChild(o);
  }
  sel.onchange = () => fillTradeLists(S.state);
  $("trade-money").value = "0";
  $("trade-error").textContent = "";
  fillTradeLists(st);
  $("trade-dialog").showModal();
}

async function sendTrade() {
  const pick = (side) => [...document.querySelectorAll(`#trade-dialog input[data-side=${side}]`)]
    .filter((c) => c.checked).map((c) => Number(c.value));
  const money = Math.round(Number($("trade-money").value) || 0);
  const amount = $("trade-money-way").value === "pay" ? money : -money;
  const target = Number($("trade-target").value);
  const body = { engine: { kind: "offer_trade", target, give: pick("give"),
    take: pick("take"), amount }, version: S.state.version };
  // The checks a person can fix in the dialog, said in their words before anything is sent.
  const st0 = S.state;
  const payer = amount > 0 ? st0.status.current_player : target;
  let problem = null;
  if (!body.engine.give.length && !body.engine.take.length) problem = MESSAGES["trade:no_place"];
  else if (money < 0 || money % S.board.trade_money_step) {
    problem = fillIn(MESSAGES["trade:money_step"], { step: rs(S.board.trade_money_step) });
  } else if (money > st0.players[payer].cash) {
    problem = payer === st0.status.current_player
      ? fillIn(MESSAGES["trade:cash_you"], { cash: rs(st0.players[payer].cash) })
      : fillIn(MESSAGES["trade:cash_them"], { who: seatLabel(payer, st0),
        cash: rs(st0.players[payer].cash) });
  }
  if (problem) {
    $("trade-error").textContent = problem;
    return;
  }
  try {
    const st = await api("POST", `/v1/tables/${S.tableId}/actions`, body);
    S.sinceLog = st.game.log.length;
    $("trade-dialog").close();
    showError("");
    render(st);
  } catch (err) {
    $("trade-error").textContent = plainMessage(err, "trade");
    if (err.code === "stale_version") { $("trade-dialog").close(); await refresh(S.tableId); }
  }
}

// ------------------------------------------------------------------ saving
async function saveGame() {
  try {
    const data = await api("GET", `/v1/tables/${S.tableId}/save`);
    const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
    const a = el("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${S.kind || "byapar"}-${S.tableId}.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (err) {
    say(err);
  }
}

// ------------------------------------------------------------------ start
function setPace(ms) {
  S.pace = ms;
  $("pace").value = String(ms);
  $("pace-out").textContent = ms === 0 ? "instant" : `${(ms / 1000).toFixed(1)} s`;
  try { localStorage.setItem("byapar-pace", String(ms)); } catch (e) { /* private mode */ }
}

function wire() {
  $("add-seat").addEventListener("click", () => {
    $("seats").appendChild(seatRow("medium"));
    refreshSeats();
  });
  $("rounds").addEventListener("change", () => {
    $("rounds-custom-row").hidden = $("rounds").value !== "custom";
  });
  $("start").addEventListener("click", startGame);
  $("game-kind").addEventListener("change", chooseGame);
  for (const id of ["load-file", "load-file-top"]) {
    $(id).addEventListener("change", (ev) => {
      if (ev.target.files.length) loadGame(ev.target.files[0], ev.target);
    });
  }
  $("result-save").addEventListener("click", saveGame);
  $("place-close").addEventListener("click", () => $("place-dialog").close());
  // A click on the backdrop closes a place's card.
  $("place-dialog").addEventListener("click", (ev) => {
    if (ev.target === $("place-dialog")) $("place-dialog").close();
  });
  $("zoom-close").addEventListener("click", () => $("zoom-dialog").close());
  $("zoom-dialog").addEventListener("click", (ev) => {
    if (ev.target === $("zoom-dialog")) $("zoom-dialog").close();
  });
  $("trade-money").addEventListener("input", tradeSummary);
  $("trade-money-way").addEventListener("change", tradeSummary);
  $("pace").addEventListener("input", () => {
    setPace(Number($("pace").value));
    if (S.state) schedule(S.state);
    else if (BM.state) BM.schedule();
  });
  $("save-btn").addEventListener("click", saveGame);
  $("new-btn").addEventListener("click", showSetup);
  $("result-new").addEventListener("click", showSetup);
  $("result-board").addEventListener("click", () => {
    S.resultSeen = S.tableId;
    $("result").hidden = true;
  });
  $("trade-send").addEventListener("click", sendTrade);
  $("trade-cancel").addEventListener("click", () => $("trade-dialog").close());
}

async function init() {
  try {
    [S.info, S.board] = await Promise.all([api("GET", "/v1"), api("GET", "/v1/board")]);
  } catch (err) {
    say({ code: "network" });
    return;
  }
  let pace = S.info.pace_ms;
  try {
    const saved = localStorage.getItem("byapar-pace");
    if (saved !== null && !Number.isNaN(Number(saved))) pace = Number(saved);
  } catch (e) { /* storage unavailable */ }
  setPace(pace);
  wire();
  buildSetup();
  chooseGame();  // a reloaded page may keep the game chosen before
  buildBoard();
  window.addEventListener("hashchange", openFromHash);
  if (!(await openFromHash())) showSetup();
}

async function openFromHash() {
  // #t=ID opens that table: a reload, a bookmark, or a link to a table made through the API.
  // #t=ID&s=SECRET is a seat's link (a game site hands each person theirs): the page keeps
  // the secret for the table, then shows the address without it. #r=ID is a replay.
  if (location.hash.startsWith("#r=")) return Replay.openFromHash();
  const m = location.hash.match(/^#t=([0-9a-f]{1,64})(?:&s=([A-Za-z0-9_,-]{1,600}))?$/);
  if (!m) return false;
  if (m[2]) {
    try { localStorage.setItem(`byapar-seats-${m[1]}`, m[2]); } catch (e) { /* private mode */ }
    history.replaceState(null, "", `#t=${m[1]}`);
  }
  if (m[1] === S.tableId) return false;
  try {
    openAny(await api("GET", `/v1/tables/${m[1]}`));
    return true;
  } catch (err) {
    showError("That table cannot be opened here (it is gone, or this browser holds none of its seats): start a new one.");
    return false;
  }
}

// After every script of the page has run: init() may open a Businessman table or a replay,
// whose code comes in the scripts after this one.
document.addEventListener("DOMContentLoaded", init);
