"use strict";
// The share prices over the game, as a small chart (SVG drawn here, nothing fetched): one step
// line a colour from the start of the game to now, rounds along the bottom, price points up
// the side. The history comes from the log, which writes the prices after every Exchange card
// played ("prices now RED 20, BLUE 6, GREEN 6, YELLOW 6"); every colour starts at the board's
// starting price.

const BMC = {
  // [{x, prices}]: the start, then each change; x is in rounds (2.5: half-way through the
  // third round by the log's lines).
  history(st) {
    const log = st.log;
    const starts = [];
    log.forEach((line, j) => { if (/^Round \d+/.test(line)) starts.push(j); });
    const roundAt = (j) => {
      let r = 0;
      while (r + 1 < starts.length && starts[r + 1] <= j) r++;
      const end = r + 1 < starts.length ? starts[r + 1] : log.length;
      return r + (j - starts[r]) / Math.max(1, end - starts[r]);
    };
    let prices = st.view.prices.map(() => BM.board.prices.start);
    const points = [{ x: 0, prices }];
    log.forEach((line, j) => {
      const m = line.match(/^prices now (.+)$/);
      if (!m) return;
      prices = prices.slice();
      for (const part of m[1].split(", ")) {
        const [name, p] = part.split(" ");
        const c = BM.board.colours.indexOf(name);
        if (c >= 0) prices[c] = Number(p);
      }
      points.push({ x: roundAt(j), prices });
    });
    const now = st.status.is_over ? BMC.span(st) : roundAt(Math.max(0, log.length - 1));
    points.push({ x: Math.max(now, points[points.length - 1].x), prices: st.view.prices.slice() });
    return points;
  },

  // The rounds the chart spans: the whole game when it is short, else the rounds so far.
  span(st) {
    const limit = st.status.round_limit;
    return limit && limit <= 30 ? limit : Math.max(10, st.status.round);
  },

  render(st) {
    const box = $("bm-chart");
    const ns = "http://www.w3.org/2000/svg";
    const width = Math.max(200, Math.floor(box.clientWidth || 320));
    const height = 150;
    const pad = { left: 26, right: 8, top: 8, bottom: 22 };
    const { min, max } = BM.board.prices;
    const span = BMC.span(st);
    const X = (x) => pad.left + (x / span) * (width - pad.left - pad.right);
    const Y = (p) => pad.top + ((max - p) / (max - min)) * (height - pad.top - pad.bottom);
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(height));
    svg.setAttribute("role", "img");
    const now = st.view.prices.map((p, c) => `${BMW.colour(c)} ${p}`).join(", ");
    svg.setAttribute("aria-label", `Share prices over the game; now ${now}`);
    const add = (tag, attrs, text) => {
      const e = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      if (text !== undefined) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
    for (const p of [1, 5, 10, 15, 20, 25].filter((q) => q >= min && q <= max)) {
      add("line", { x1: pad.left, x2: width - pad.right, y1: Y(p), y2: Y(p),
        class: "grid" });
      add("text", { x: pad.left - 4, y: Y(p) + 4, class: "axis", "text-anchor": "end" }, p);
    }
    const step = span <= 12 ? 1 : span <= 30 ? 5 : 10;
    for (let r = 0; r <= span; r += step) {
      // The tick at r is the start of round r + 1; the axis counts rounds played.
      add("text", { x: X(r), y: height - 6, class: "axis", "text-anchor": "middle" }, r);
    }
    const points = BMC.history(st);
    const n = st.view.prices.length;
    st.view.prices.forEach((p, c) => {
      // Colours at one price would hide each other: each line sits a little off the others.
      const off = (c - (n - 1) / 2) * 2.5;
      let d = "";
      points.forEach((pt, k) => {
        const y = (Y(pt.prices[c]) + off).toFixed(1);
        d += k === 0 ? `M${X(pt.x).toFixed(1)},${y}` : `H${X(pt.x).toFixed(1)}V${y}`;
      });
      add("path", { d, class: "price-line", stroke: BM.board.share_colours[c],
        "data-colour": BM.board.colours[c],
        "data-prices": points.map((pt) => pt.prices[c]).join(",") });
      const last = points[points.length - 1];
      add("circle", { cx: X(last.x), cy: Y(p) + off, r: 4, fill: BM.board.share_colours[c],
        class: "price-now" });
    });
    box.replaceChildren(svg);
  },
};

window.addEventListener("resize", () => { if (BM.state) BMC.render(BM.state); });
