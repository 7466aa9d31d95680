"use strict";
// The Businessman board, drawn as a board on an 11 x 11 grid: the big ring of 40 cells round
// the edge (Start at the bottom right, as in Byapar), and inside it the three side tracks
// beside the cells that lead to them: abroad (two rows under the top edge, entered at
// Customs in the top right corner and left for cell 31), the motorway (from cell 5 up and
// across to the Broker, cell 35) and the roulette ring (beside cell 15, on the left). Arrows
// mark the ways on and off. Each cell shows its group's colour, its name, its price or what it
// does, its owner, its buildings, a pledge and the tokens on it. On a phone the cells are
// too small to tap one by one: a tap on the board zooms in on the track or side tapped.

// Each cell's [row, column] on the grid.
const BM_ROULETTE = [[5, 1], [4, 1], [4, 2], [4, 3], [5, 3], [6, 3], [7, 3], [8, 3], [8, 2],
  [8, 1], [7, 1], [6, 1]];
function bmPlace(i) {
  if (i < 40) {
    const side = Math.floor(i / 10), k = i % 10;
    if (side === 0) return [10, 10 - k];
    if (side === 1) return [10 - k, 0];
    if (side === 2) return [0, k];
    return [k, 10];
  }
  if (i < 48) return [1, 9 - (i - 40)];  // abroad, right to left from the Border
  if (i < 56) return [2, 2 + (i - 48)];  // and back, left to right, to New York
  if (i < 62) return [9 - (i - 56), 5];  // M1..M6 up from cell 5
  if (i < 66) return [4, 6 + (i - 62)];  // M7..M10 across to the Broker
  return BM_ROULETTE[i - 66];
}

const BM_TRACK_CLASS = ["bm-big", "bm-abroad", "bm-motorway", "bm-roulette"];
// The big-ring cells that lead to a side track (or back from one), in that track's tint.
const BM_GATES = { 5: "bm-motorway", 15: "bm-roulette", 30: "bm-abroad", 35: "bm-motorway",
  31: "bm-abroad" };

// What a cell says on a phone: about six letters fit at 11 px.
const BM_SHORT = {
  "Market stall": "Stall", "Penalty": "Fine", "Motorway entry": "M-way", "Surprise": "Surpr.",
  "Canteen": "Cant.", "Exchange": "Exch.", "Hairdresser": "Hair", "Supermarket": "Super",
  "Photo studio": "Photo", "Dry cleaner": "Clean", "Roulette entry": "Roul.",
  "Bookshop": "Books", "Pharmacy": "Pharm", "Department store": "Dept.", "Theatre": "Theat.",
  "Stadium": "Stad.", "Taxi firm": "Taxi", "Bus depot": "Bus", "Airline": "Air",
  "Customs": "Cust.", "Textile mill": "Textil", "Furniture factory": "Furn.",
  "Brewery": "Brew.", "Steel works": "Steel", "Car plant": "Cars", "Oil refinery": "Oil",
  "Paris boutique": "Paris", "Berlin brewery": "Berlin", "Surprise abroad": "Surpr.",
  "Vienna hotel": "Vienna", "Penalty abroad": "Fine", "Tokyo electronics": "Tokyo",
  "Notice abroad": "Notice", "Delhi textiles": "Delhi", "Singapore port": "Sing.",
  "Exchange abroad": "Exch.", "Chicago grain": "Chic.", "Bank abroad": "Bank",
  "Texas oil": "Texas", "Profit abroad": "Profit", "New York bank": "NY",
};
function bmShort(name) { return BM_SHORT[name] || name.split(" ")[0]; }

// The zoom's sections: the big ring's four sides, then each side track.
const BM_SECTIONS = [
  { title: "The big ring: Start to Canteen", cells: [0, 10] },
  { title: "The big ring: Exchange to Department store", cells: [10, 20] },
  { title: "The big ring: Hotel to Airline", cells: [20, 30] },
  { title: "The big ring: Customs to Oil refinery", cells: [30, 40] },
  { title: "Abroad: in at Customs, out to Textile mill", cells: [40, 56] },
  { title: "The motorway: from cell 5 to the Broker", cells: [56, 66] },
  { title: "The roulette: from cell 15, out at an exit", cells: [66, 78] },
];
function bmSection(i) {
  return BM_SECTIONS.findIndex((s) => i >= s.cells[0] && i < s.cells[1]);
}

const BMB = {
  built: false,

  // A cell's second line: its price, or what landing there does, in a few words.
  sub(c) {
    const m = (n) => Number(n).toLocaleString("en-US");
    switch (c.kind) {
      case "lot": case "supermarket": return m(c.price);
      case "start": return "get 20,000";
      case "penalty": case "m_accident": case "r_loss": return `pay ${m(c.amount)}`;
      case "win": case "profit": case "r_bank": return `get ${m(c.amount)}`;
      case "gift": return `${c.amount} shares`;
      case "m_shares": return `${c.amount} shares`;
      case "notice": case "surprise": return "a card";
      case "exchange": return "exchange";
      case "motorway_entry": return "motorway";
      case "roulette_entry": return "roulette";
      case "customs": return "go abroad";
      case "broker": return "exchange";
      case "hotel": return "4 choices";
      case "m_half": return "pay half";
      case "m_intersection": return `toll ${m(c.amount)}`;
      case "r_exit": return "exit";
      case "plain": return c.index === 66 ? "entry" : "";
      default: return "";
    }
  },

  // What landing on a cell does, in a sentence (the cell's card).
  landing(c) {
    const m = BMW.money;
    switch (c.kind) {
      case "start": return "Collect 20,000 cr, passing or landing";
      case "notice": return "Draw a Notice card";
      case "surprise": return "Draw a Surprise card";
      case "penalty": case "m_accident": case "r_loss": return `Pay ${m(c.amount)}`;
      case "win": case "profit": return `Receive ${m(c.amount)}`;
      case "gift": case "m_shares":
        return `Take ${c.amount} shares, colours of your choice` +
          (c.kind === "m_shares" ? ", then trade once at the exchange" : "");
      case "exchange": return "Trade once at the exchange, free";
      case "motorway_entry": return "You may take the motorway (M1 to M10, out at the Broker)";
      case "roulette_entry": return "You may play the roulette";
      case "customs":
        return `You may go abroad: sell half of each colour's shares and pay ` +
          m(BM.board.fees.customs);
      case "broker": return `You may pay ${m(BM.board.fees.broker)} to trade once at the exchange`;
      case "hotel":
        return "Buy a company abroad, play the roulette three times, trade once at the " +
          "exchange, or nothing";
      case "border": return "Nothing: the way in from Customs";
      case "m_half": return "Pay half your cash";
      case "m_intersection": return `Pay a ${m(c.amount)} toll and leave for the Broker`;
      case "r_exit": return "Leave the roulette for cell 15";
      case "r_bank": return `Receive ${m(c.amount)} and leave the roulette`;
      default: return "Nothing";
    }
  },

  build() {
    const board = $("bm-board");
    for (const c of BM.board.cells) {
      const d = el("div", "bm-cell");
      d.id = `cell-${c.index}`;
      const [row, col] = bmPlace(c.index);
      d.style.gridRow = String(row + 1);
      d.style.gridColumn = String(col + 1);
      d.addEventListener("click", () => BMB.showCell(c.index));
      d.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); BMB.showCell(c.index); }
      });
      board.appendChild(d);
    }
    for (const [text, cls] of [["Abroad", "bm-label-abroad"], ["Roulette", "bm-label-roulette"],
      ["Motorway", "bm-label-motorway"]]) {
      board.appendChild(el("div", `bm-label ${cls}`, text));
    }
    board.appendChild(BMB.arrows());
    $("bm-board-zoom").addEventListener("click", (ev) => BMB.zoomAt(ev));
    BMB.targets();
    PHONE.addEventListener("change", BMB.targets);
    BMB.built = true;
  },

  // The ways on and off the side tracks, as arrows across the cells' shared edges and corners.
  arrows() {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", "bm-arrows");
    svg.setAttribute("viewBox", "0 0 11 11");
    svg.setAttribute("aria-hidden", "true");
    const defs = document.createElementNS(ns, "defs");
    const marker = document.createElementNS(ns, "marker");
    for (const [k, v] of [["id", "bm-head"], ["viewBox", "0 0 10 10"], ["refX", "5"],
      ["refY", "5"], ["markerWidth", "2.2"], ["markerHeight", "2.2"], ["orient", "auto"]]) {
      marker.setAttribute(k, v);
    }
    const head = document.createElementNS(ns, "path");
    head.setAttribute("d", "M0,0 L10,5 L0,10 z");
    head.setAttribute("fill", "#7a1f1a");
    marker.appendChild(head);
    defs.appendChild(marker);
    svg.appendChild(defs);
    // [x1, y1, x2, y2] in cells: on at 5, off at M10; on at 15 and back; out at Customs and
    // home from New York.
    const links = [[5.5, 10.25, 5.5, 9.8], [9.8, 4.8, 10.2, 5.2], [0.75, 5.35, 1.2, 5.35],
      [1.25, 5.65, 0.8, 5.65], [10.2, 0.8, 9.8, 1.2], [9.8, 2.2, 10.2, 1.8]];
    for (const [x1, y1, x2, y2] of links) {
      const line = document.createElementNS(ns, "line");
      for (const [k, v] of [["x1", x1], ["y1", y1], ["x2", x2], ["y2", y2]]) {
        line.setAttribute(k, String(v));
      }
      line.setAttribute("marker-end", "url(#bm-head)");
      svg.appendChild(line);
    }
    return svg;
  },

  // The cells are buttons on a large screen; on a phone the board is one button (zoom).
  targets() {
    for (const d of document.querySelectorAll("#bm-board .bm-cell")) {
      if (PHONE.matches) {
        d.removeAttribute("role");
        d.removeAttribute("tabindex");
      } else {
        d.setAttribute("role", "button");
        d.tabIndex = 0;
      }
    }
  },

  render(st) {
    if (!BMB.built) BMB.build();
    const v = st.view;
    for (const c of BM.board.cells) {
      const i = c.index;
      const d = $(`cell-${i}`);
      const classes = ["bm-cell", BM_TRACK_CLASS[c.track], `kind-${c.kind}`];
      if (BM_GATES[i]) classes.push("bm-gate", BM_GATES[i]);
      if (v.mortgaged[i]) classes.push("pledged");
      if (i === v.pending_cell && st.status.phase === "BUY_OFFER") classes.push("pending");
      d.className = classes.join(" ");
      d.replaceChildren();
      const band = el("div", "band");
      if (c.kind === "lot") band.style.background = BM.board.group_colours[c.group];
      d.appendChild(band);
      // A motorway or roulette cell is named by its number ("M5"); the rest says what it does.
      const name = c.track >= 2 ? c.name.split(" ")[0] : c.name;
      d.appendChild(el("div", !name.includes(" ") && name.length > 10 ? "name long" : "name",
        name));
      d.appendChild(el("div", "short", bmShort(c.name)));
      d.appendChild(el("div", "price", BMB.sub(c)));
      if (v.level[i]) {
        const blds = el("div", "blds");
        blds.appendChild(el("span", v.level[i] === 2 ? "enterprise" : "branch"));
        d.appendChild(blds);
      }
      const owner = v.owner[i];
      if (owner >= 0) {
        const bar = el("div", "owner");
        bar.style.background = seatColour(owner);
        d.appendChild(bar);
      }
      d.title = BMB.title(c, st);
      const here = st.players.filter((p) => !p.bankrupt && p.position === i);
      if (here.length) {
        const tokens = el("div", "tokens");
        for (const p of here) {
          const t = el("span", "token");
          t.appendChild(el("b", null, seatLabel(p.seat, st)[0]));
          t.style.background = seatColour(p.seat);
          t.title = seatLabel(p.seat, st);
          tokens.appendChild(t);
        }
        d.appendChild(tokens);
      }
    }
    const stt = st.status;
    $("bm-round").textContent = `Round ${stt.round} of ${stt.round_limit}`;
    const dice = $("bm-dice");
    dice.replaceChildren();
    if (stt.dice[0]) for (const x of stt.dice) dice.appendChild(die(x));
    const scores = $("bm-scores");
    scores.replaceChildren();
    v.prices.forEach((p, c) => {
      const s = el("span", "bm-score", `${BMW.colour(c)} ${p}`);
      s.style.borderLeftColor = BM.board.share_colours[c];
      scores.appendChild(s);
    });
  },

  // A cell's facts in one line (its tooltip).
  title(c, st) {
    const v = st.view;
    const parts = [c.name];
    if (c.price) parts.push(`price ${BMW.money(c.price)}`);
    else parts.push(BMB.landing(c).toLowerCase());
    if (v.owner[c.index] >= 0) parts.push(`owned by ${seatLabel(v.owner[c.index], st)}`);
    if (v.mortgaged[c.index]) parts.push("pledged");
    return parts.join("; ");
  },

  // A cell's card in the place dialog: price, rents, costs, owner, or what landing does.
  showCell(i) {
    const st = BM.state;
    if (!st) return;
    const c = BM.board.cells[i];
    const v = st.view;
    const m = BMW.money;
    const card = $("place-card");
    card.replaceChildren();
    const head = el("div", "place-head", c.name);
    head.style.background = c.kind === "lot" ? BM.board.group_colours[c.group] : "#d9ddd6";
    if (c.kind !== "lot" || [1, 3, 5].includes(c.group)) head.classList.add("dark-text");
    card.appendChild(head);
    const rows = [];
    const add = (k, val) => rows.push([k, val]);
    add("Where", ["The big ring", "Abroad", "The motorway", "The roulette"][c.track] +
      (c.track === 0 ? `, cell ${i}` : ""));
    if (c.kind === "lot") {
      const group = BM.board.groups[c.group].replace(/^G\d+ /, "");
      const lots = BM.board.cells.filter((x) => x.kind === "lot" && x.group === c.group);
      add("Group", `${group} (${lots.map((x) => x.name).join(", ")})`);
      add("Price", m(c.price) + (c.track === 1 ? " (with the 5,000 cr paid abroad)" : ""));
      add("Rent", m(c.rents[0]));
      add("Rent with the whole group", m(c.rents[0] * 2));
      add("With a branch", m(c.rents[1]));
      add("With an enterprise", m(c.rents[2]));
      add("A branch costs", m(c.branch_cost));
      add("An enterprise costs", m(c.enterprise_cost));
    } else if (c.kind === "supermarket") {
      add("Price", m(c.price));
      add("Landing", "Pay 20,000 cr: 15,000 to its owner, the rest to the bank");
    } else {
      add("Landing", BMB.landing(c));
    }
    if (c.pledge) {
      add("Pledging gives", m(c.pledge));
      add("Redeeming costs", m(c.pledge + Math.floor(c.pledge / 10)));
      const owner = v.owner[i];
      add("Owner", owner >= 0 ? seatLabel(owner, st) : "the bank (for sale)");
      if (v.level[i]) add("Buildings", v.level[i] === 2 ? "a branch and an enterprise" : "a branch");
      if (v.mortgaged[i]) add("Pledged", "yes: no rent");
    }
    const here = st.players.filter((p) => !p.bankrupt && p.position === i);
    if (here.length) add("Here now", listWords(here.map((p) => seatLabel(p.seat, st))));
    const table = el("table", "place-table");
    for (const [k, val] of rows) {
      const tr = el("tr");
      tr.append(el("th", null, k), el("td", null, val));
      table.appendChild(tr);
    }
    card.appendChild(table);
    const dlg = $("place-dialog");
    if (!dlg.open) dlg.showModal();
  },

  // A tap on the board (a phone): zoom in on the section of the cell under the finger, or of
  // the cell nearest to it.
  zoomAt(ev) {
    const box = $("bm-board").getBoundingClientRect();
    const size = $("cell-0").getBoundingClientRect().width;
    const x = (ev.clientX - box.left) / size;
    const y = (ev.clientY - box.top) / size;
    let best = 0;
    let bestD = Infinity;
    for (const c of BM.board.cells) {
      const [row, col] = bmPlace(c.index);
      const d = (col + 0.5 - x) ** 2 + (row + 0.5 - y) ** 2;
      if (d < bestD) { best = c.index; bestD = d; }
    }
    BMB.zoom(bmSection(best));
  },

  zoom(k) {
    const st = BM.state;
    if (!st) return;
    const v = st.view;
    const sec = BM_SECTIONS[k];
    const rows = [];
    for (let i = sec.cells[0]; i < sec.cells[1]; i++) {
      const c = BM.board.cells[i];
      const facts = [];
      if (c.price) facts.push(BMW.money(c.price));
      else facts.push(BMB.landing(c));
      if (v.owner[i] >= 0) facts.push(`owned by ${seatLabel(v.owner[i], st)}`);
      if (v.level[i]) facts.push(v.level[i] === 2 ? "an enterprise" : "a branch");
      if (v.mortgaged[i]) facts.push("pledged");
      const here = st.players.filter((p) => !p.bankrupt && p.position === i).map((p) => p.seat);
      rows.push({ index: i, name: c.name,
        band: c.kind === "lot" ? BM.board.group_colours[c.group] : null,
        owner: v.owner[i] >= 0 ? seatColour(v.owner[i]) : null, facts: facts.join(" · "),
        here, open: () => BMB.showCell(i) });
    }
    const n = BM_SECTIONS.length;
    openZoom(sec.title, rows, st, () => BMB.zoom((k + n - 1) % n), () => BMB.zoom((k + 1) % n));
  },
};
