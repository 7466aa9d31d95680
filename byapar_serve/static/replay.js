// Replays: a finished game played back move by move, with each seat's win chance over the
// game drawn as a graph and the biggest swings named. Opened by #r=ID (a link to share), or
// by "Replay the game" at the end of a game. Positions come from GET /v1/tables/ID/replay/N
// as table states nobody acts on ("to_move": "replay"), drawn by the table's own code
// (app.js for Byapar, businessman.js for Businessman).

const Replay = {
  id: null,
  data: null,  // GET /v1/tables/ID/replay
  at: 0,  // moves made in the position shown
  cache: new Map(),  // moves -> table state (the latest few)
  timer: null,
  asking: 0,  // the latest position asked for: an older answer is dropped
  named: false,  // whether the swings are listed (once a position gives the seats' names)
  said: new Map(),  // move -> its swing's words
  CACHE: 64,
  STEP_MS: 450,

  active() { return Replay.id !== null; },

  // #r=ID or #r=ID&s=SECRET (the secret is kept as a table link's is)
  async openFromHash() {
    const m = location.hash.match(/^#r=([0-9a-f]{1,64})(?:&s=([A-Za-z0-9_,-]{1,600}))?$/);
    if (!m) return false;
    if (m[2]) {
      try { localStorage.setItem(`byapar-seats-${m[1]}`, m[2]); } catch (e) { /* private */ }
      history.replaceState(null, "", `#r=${m[1]}`);
    }
    if (m[1] === Replay.id) return true;
    return Replay.open(m[1]);
  },

  async open(id) {
    let data;
    try {
      data = await api("GET", `/v1/tables/${id}/replay`);
    } catch (err) {
      if (err.code === "replay_unavailable") say(err);
      else showError("That replay cannot be opened here (the table is gone): start a new table.");
      return false;
    }
    if (data.game_name === "businessman" && !BM.board) {
      try { BM.board = await api("GET", "/v1/board?game=businessman"); } catch (err) {
        say(err);
        return false;
      }
    }
    clearTimeout(S.timer);
    Replay.stop();
    Replay.id = id;
    Replay.data = data;
    Replay.cache.clear();
    S.tableId = null;  // nothing is played from here: no advance, no actions
    history.replaceState(null, "", `#r=${id}`);
    document.title = (data.game_name === "businessman" ? "Businessman" : "Byapar") + ": replay";
    $("setup").hidden = true;
    $("result").hidden = true;
    $("table-tools").hidden = true;
    $("replay-btn").hidden = true;
    $("replay").hidden = false;
    $("replay-move").max = String(data.moves);
    $("replay-kind").textContent = data.chance_kind === "value network"
      ? "Win chance by the value network after each move"
      : "Share of the table's worth (with rents to come) after each move";
    Replay.named = false;
    await Replay.go(data.moves);
    return true;
  },

  // The top bar's Replay button, shown at a table whose game is over (app.js and
  // businessman.js call this with each state they draw).
  offer(st) {
    $("replay-btn").hidden = Replay.active() || !st.status.is_over;
  },

  close() {
    Replay.stop();
    S.resultSeen = null;
    Replay.id = null;
    Replay.data = null;
    Replay.cache.clear();
    $("replay").hidden = true;
  },

  async position(n) {
    if (Replay.cache.has(n)) return Replay.cache.get(n);
    const st = await api("GET", `/v1/tables/${Replay.id}/replay/${n}`);
    Replay.cache.set(n, st);
    if (Replay.cache.size > Replay.CACHE) Replay.cache.delete(Replay.cache.keys().next().value);
    return st;
  },

  async go(n) {
    const data = Replay.data;
    if (!data) return;
    n = Math.max(0, Math.min(data.moves, n));
    Replay.asking = n;
    let st;
    try {
      st = await Replay.position(n);
    } catch (err) {
      Replay.stop();
      say(err);
      return;
    }
    if (Replay.asking !== n || !Replay.data) return;
    Replay.at = n;
    Replay.show(st);
    $("replay-move").value = String(n);
    const frame = n > 0 ? data.frames[n - 1] : null;
    $("replay-where").textContent = `Move ${n} of ${data.moves}` +
      (frame ? ` · round ${frame.round}` : " · the start");
    $("replay-said").textContent = frame
      ? (Replay.joined(frame.log.map((x) => Replay.line(x, st))) || frame.action) : "";
    if (!Replay.named) Replay.drawSwings(st);
    Replay.drawGraph();
  },

  // The position drawn by the table's own code, as a table that nobody plays.
  show(st) {
    S.resultSeen = st.id;  // no "game over" card over a replay
    S.sinceLog = null;
    if (st.game_name === "businessman") {
      S.kind = "businessman";
      $("table").hidden = true;
      $("bm-table").hidden = false;
      BM.state = null;
      BM.render(st);
    } else {
      S.kind = "byapar";
      $("bm-table").hidden = true;
      $("table").hidden = false;
      S.state = null;
      render(st);
      // nobody is deciding in a replay: no "is thinking" under the board
      $("controls").replaceChildren(el("p", "hint", "A replay: step through it above."));
    }
  },

  // A log line in the table's words: Byapar's offers read as offers (app.js humanLine);
  // the seats named as at the table.
  line(text, st) {
    if (!st) return Replay.words(text);
    if (st.game_name !== "businessman") return humanLine(text, st);
    return BMW.line(text, st);  // bm_words.js: Businessman's cards, colours and offers
  },

  // lines joined as one sentence (a card's text ends with a full stop: not before "; ")
  joined(lines) {
    return lines.map((x) => x.replace(/\.$/, "")).join("; ");
  },

  seatName(s) {
    return SEAT_NAMES[s % SEAT_NAMES.length];
  },

  // "seat 2 pays Rs 300 to seat 0" in the names the table uses
  words(text, st) {
    return text.replace(/\bseat (\d)\b/g, (_, d) => Replay.seatName(Number(d), st));
  },

  play() {
    if (Replay.timer) { Replay.stop(); return; }
    if (Replay.at >= Replay.data.moves) Replay.go(0);
    $("replay-play").textContent = "Pause";
    $("replay-play").setAttribute("aria-label", "Pause");
    Replay.timer = setInterval(() => {
      if (!Replay.data || Replay.at >= Replay.data.moves) { Replay.stop(); return; }
      Replay.go(Replay.at + 1);
    }, Replay.STEP_MS);
  },

  stop() {
    clearInterval(Replay.timer);
    Replay.timer = null;
    const b = $("replay-play");
    if (b) { b.textContent = "Play"; b.setAttribute("aria-label", "Play"); }
  },

  // ---------------------------------------------------------------- the graph
  drawGraph() {
    const data = Replay.data;
    const svg = $("replay-graph");
    // one unit of the drawing a pixel of the screen: text keeps its size on a phone
    const W = Math.max(300, Math.round(svg.getBoundingClientRect().width) || 600);
    const H = 170, L = 42, T = 10, B = 20;
    const x = (n) => L + (W - L - 6) * (data.moves ? n / data.moves : 0);
    const y = (c) => T + (H - T - B) * (1 - c);
    const ns = "http://www.w3.org/2000/svg";
    const add = (tag, attrs, text) => {
      const e = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    for (const c of [0, 0.5, 1]) {
      add("line", { x1: L, x2: W - 6, y1: y(c), y2: y(c), class: "grid" });
      add("text", { x: L - 4, y: y(c) + 4, class: "axis", "text-anchor": "end" },
        `${Math.round(c * 100)}%`);
    }
    const rows = [data.start.chances, ...data.frames.map((f) => f.chances)];
    const seats = data.start.chances.length;
    for (let s = 0; s < seats; s++) {
      const pts = rows.map((c, n) => `${x(n).toFixed(1)},${y(c[s]).toFixed(1)}`).join(" ");
      add("polyline", { points: pts, class: "chance", stroke: seatColour(s) });
    }
    for (const sw of data.swings) {
      const c = rows[sw.n][sw.seat];
      const dot = add("circle", { cx: x(sw.n), cy: y(c), r: 6, class: "swing",
        fill: seatColour(sw.seat) });
      const t = document.createElementNS(ns, "title");
      t.textContent = Replay.swingText(sw);
      dot.appendChild(t);
    }
    add("line", { x1: x(Replay.at), x2: x(Replay.at), y1: T, y2: H - B, class: "cursor" });
    add("text", { x: L, y: H - 4, class: "axis" }, "start");
    add("text", { x: W - 6, y: H - 4, class: "axis", "text-anchor": "end" }, "end");
    const legend = $("replay-legend");
    legend.replaceChildren();
    for (let s = 0; s < seats; s++) {
      const item = el("span", "replay-seat", `${Replay.seatName(s)} (${data.seats[s]})`);
      item.style.borderColor = seatColour(s);
      legend.appendChild(item);
    }
  },

  swingText(sw) {
    const pts = (sw.points > 0 ? "+" : "−") + Math.abs(sw.points);
    const said = Replay.said.get(sw.n) || Replay.words(sw.text);
    return `Move ${sw.n}: ${said} (${Replay.seatName(sw.seat)} ${pts} points)`;
  },

  // The swings listed, in the table's words (``st``: a position, for the seats' names).
  drawSwings(st) {
    Replay.named = true;
    Replay.said = new Map(Replay.data.swings.map((sw) => [sw.n,
      Replay.joined(sw.lines.map((x) => Replay.line(x, st))) || sw.text]));
    const list = $("replay-swings");
    list.replaceChildren();
    for (const sw of Replay.data.swings) {
      const li = el("li");
      li.appendChild(button(Replay.swingText(sw), () => { Replay.stop(); Replay.go(sw.n); },
        "replay-swing"));
      list.appendChild(li);
    }
    $("replay-swings-head").hidden = Replay.data.swings.length === 0;
  },

  // a click on the graph: the move under it
  pick(event) {
    const box = $("replay-graph").getBoundingClientRect();
    const share = (event.clientX - box.left - 42) / (box.width - 48);
    Replay.stop();
    Replay.go(Math.round(Math.max(0, Math.min(1, share)) * Replay.data.moves));
  },

  link() {
    const url = `${location.origin}/#r=${Replay.id}`;
    const done = () => { $("replay-link").textContent = "Link copied"; };
    if (navigator.clipboard) navigator.clipboard.writeText(url).then(done, () => prompt("Link", url));
    else prompt("Link", url);
  },

  wire() {
    $("replay-first").addEventListener("click", () => { Replay.stop(); Replay.go(0); });
    $("replay-back").addEventListener("click", () => { Replay.stop(); Replay.go(Replay.at - 1); });
    $("replay-play").addEventListener("click", () => Replay.play());
    $("replay-next").addEventListener("click", () => { Replay.stop(); Replay.go(Replay.at + 1); });
    $("replay-last").addEventListener("click", () => {
      Replay.stop();
      Replay.go(Replay.data.moves);
    });
    $("replay-move").addEventListener("input", (e) => {
      Replay.stop();
      Replay.go(Number(e.target.value));
    });
    $("replay-graph").addEventListener("click", (e) => Replay.pick(e));
    $("replay-link").addEventListener("click", () => Replay.link());
    $("replay-new").addEventListener("click", () => {
      Replay.close();
      history.replaceState(null, "", location.pathname);
      document.title = "Byapar";
      $("table").hidden = true;
      $("bm-table").hidden = true;
      showSetup();
    });
    $("result-replay").addEventListener("click", () => {
      const id = S.tableId || (BM.state && BM.state.id);
      if (id) location.hash = `#r=${id}`;
    });
    window.addEventListener("resize", () => { if (Replay.data) Replay.drawGraph(); });
    document.addEventListener("keydown", (e) => {
      if (!Replay.active() || e.target.closest("input, select, textarea")) return;
      if (e.key === "ArrowLeft") { Replay.stop(); Replay.go(Replay.at - 1); }
      if (e.key === "ArrowRight") { Replay.stop(); Replay.go(Replay.at + 1); }
    });
    // app.js opens #r= links (its openFromHash); leaving one for a table ends the replay
    window.addEventListener("hashchange", () => {
      if (!location.hash.startsWith("#r=") && Replay.active()) Replay.close();
    });
    $("replay-btn").addEventListener("click", () => {
      const id = S.tableId || (BM.state && BM.state.id);
      if (id) location.hash = `#r=${id}`;
    });
  },
};

Replay.wire();
