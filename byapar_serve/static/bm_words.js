"use strict";
// Businessman in a person's words: the action buttons, the Exchange cards, the trade in
// progress and the log. The server sends the engine's names ("pledge Canteen", "L-BOOM-5",
// "seat 1 proposes to seat 0: gives Kiosk; pays 3,000 cr"); the page says them as a player
// would ("Canteen (get 17,000 cr)", "Market boom: one colour up 10, the others down 5",
// "Bikash offers you Kiosk and 3,000 cr for Bakery"). Shares the page's helpers (app.js):
// seatLabel, isYou, asYou, listWords.

const BMW = {
  // "RED" -> "red"
  colour(c) { return BM.board.colours[c].toLowerCase(); },

  money(n) { return Number(n).toLocaleString("en-US") + " cr"; },

  // An Exchange card kind (BM.board.exchange_cards[k]) by what it does.
  cardName(k) {
    const c = BM.board.exchange_cards[k];
    if (c.effect === "boom") return `Market boom: one colour up ${c.up}, the others down ${c.down}`;
    if (c.effect === "double") return "Deuce: double or halve one colour";
    if (c.effect === "rise") return `One colour up ${c.up}, the others down ${c.down}`;
    return `One colour down ${c.down}`;
  },

  // What playing card kind ``k`` on ``colour`` does: "red up 10, the others down 5".
  cardPlay(k, colour, down) {
    const c = BM.board.exchange_cards[k];
    const name = BMW.colour(colour);
    if (c.effect === "double") return down ? `halve ${name}` : `double ${name}`;
    if (c.effect === "fall") return `${name} down ${c.down}`;
    return `${name} up ${c.up}, the others down ${c.down}`;
  },

  cardByCode(code) { return BM.board.exchange_cards.findIndex((c) => c.code === code); },

  cellName(i) { return BM.board.cells[i].name; },

  // The fields of action ``id``: [kind, arg, colour, down].
  fields(id) { return BM.board.actions[id]; },

  // A legal action's button text.
  label(e, st) {
    const [kind, arg, colour, down] = BMW.fields(e.id);
    const cell = arg >= 0 && arg < BM.board.cells.length ? BM.board.cells[arg] : null;
    const v = st.view;
    const t = v.trade;
    switch (kind) {
      case "roll": return "Roll the dice";
      case "use_pass": return "Use an exchange pass (one session now)";
      case "mortgage": return `${cell.name} (get ${BMW.money(cell.pledge)})`;
      case "redeem": return `${cell.name} (${BMW.money(cell.pledge + Math.floor(cell.pledge / 10))})`;
      case "build_branch": return `A branch on ${cell.name} (${BMW.money(cell.branch_cost)})`;
      case "build_enterprise":
        return `An enterprise on ${cell.name} (${BMW.money(cell.enterprise_cost)})`;
      case "sell_building": {
        const top = v.level[arg] === 2 ? ["enterprise", cell.enterprise_cost]
          : ["branch", cell.branch_cost];
        return `The ${top[0]} on ${cell.name} (get ${BMW.money(Math.floor(top[1] / 2))})`;
      }
      case "start_trade": return `Propose a trade to ${seatLabel(arg, st)}`;
      case "trade_give_lot":
        return t && t.give.includes(arg) ? `Keep ${cell.name}` : `Give ${cell.name}`;
      case "trade_take_lot":
        return t && t.take.includes(arg) ? `Do not ask for ${cell.name}`
          : `Ask for ${cell.name}`;
      case "trade_give_share":
        return t && t.shares[colour] < 0 ? `Ask for one ${BMW.colour(colour)} share fewer`
          : `Give one more ${BMW.colour(colour)} share`;
      case "trade_take_share":
        return t && t.shares[colour] > 0 ? `Give one ${BMW.colour(colour)} share fewer`
          : `Ask for one more ${BMW.colour(colour)} share`;
      case "trade_give_cash": return `You pay ${BMW.money(arg)} more`;
      case "trade_take_cash": return `They pay ${BMW.money(arg)} more`;
      case "submit_trade": return "Send the offer";
      case "cancel_trade": return "Cancel the offer";
      case "accept_trade": return "Accept";
      case "reject_trade": return "Refuse";
      case "buy": return `Buy ${cell.name} (${BMW.money(cell.price)})`;
      case "decline": return "Do not buy";
      case "yes":
        return [
          "Take the motorway",
          "Play the roulette",
          `Go abroad (sell half your shares, pay ${BMW.money(BM.board.fees.customs)})`,
          `Pay the broker ${BMW.money(BM.board.fees.broker)} for a session`,
        ][arg];
      case "no":
        return ["Keep to the big ring", "Keep to the big ring", "Stay at home",
          "No, thanks"][arg];
      case "hotel":
        return ["Buy a company abroad (roll for it)", "Play the roulette three times",
          "Trade on the exchange once", "Do nothing"][arg];
      case "pick_colour": return `A ${BMW.colour(colour)} share`;
      case "play_card": {
        const card = st.hand ? st.hand.find((h) => h.slot === arg) : null;
        const what = card ? BMW.cardPlay(card.kind, colour, down) : BMW.colour(colour);
        return what[0].toUpperCase() + what.slice(1);
      }
      case "skip_card": return "Play no card";
      case "buy_share":
        return `Buy a ${BMW.colour(colour)} share (${BMW.money(v.prices[colour] * BM.board.prices.point)})`;
      case "sell_share":
        return `Sell a ${BMW.colour(colour)} share (get ${BMW.money(v.prices[colour] * BM.board.prices.point)})`;
      case "end_session": return "End the session";
      default: return e.name;
    }
  },

  // Each side of a trade proposal (``t`` as Game.view has it) in words: [what the proposer
  // gives, what the proposer gets].
  tradeSides(t) {
    const gives = t.give.map(BMW.cellName);
    const gets = t.take.map(BMW.cellName);
    t.shares.forEach((x, c) => {
      const n = Math.abs(x);
      const words = `${n} ${BMW.colour(c)} share${n === 1 ? "" : "s"}`;
      if (x > 0) gives.push(words);
      if (x < 0) gets.push(words);
    });
    if (t.cash > 0) gives.push(BMW.money(t.cash));
    if (t.cash < 0) gets.push(BMW.money(-t.cash));
    return [gives, gets];
  },

  // The engine's trade text ("gives Kiosk, Cafe; takes Bakery; gives 1 RED; pays 3,000 cr")
  // as the two sides in words.
  tradeTextSides(text) {
    const gives = [];
    const gets = [];
    for (const part of text.split("; ")) {
      const m = part.match(/^(gives|takes|pays|asks) (.+)$/);
      if (!m) continue;
      const side = m[1] === "gives" || m[1] === "pays" ? gives : gets;
      const shares = m[2].match(/^(\d+) ([A-Z]+)$/);
      if (shares) {
        const n = Number(shares[1]);
        side.push(`${n} ${shares[2].toLowerCase()} share${n === 1 ? "" : "s"}`);
      } else if (m[1] === "pays" || m[1] === "asks") {
        side.push(m[2]);
      } else {
        side.push(...m[2].split(", "));
      }
    }
    return [gives, gets];
  },

  // "Chandra offers you 3,500 cr for Texas oil"
  offerSentence(from, to, gives, gets, st) {
    const verb = isYou(from, st) ? "offer" : "offers";
    const whom = isYou(to, st) ? "you" : seatLabel(to, st);
    return `${seatLabel(from, st)} ${verb} ${whom} ${listWords(gives)} for ${listWords(gets)}`;
  },

  // One line of the engine's log in a person's words.
  line(line, st) {
    let m = line.match(/^seat (\d+) proposes to seat (\d+): (.+)$/);
    if (m) {
      const [gives, gets] = BMW.tradeTextSides(m[3]);
      return BMW.offerSentence(Number(m[1]), Number(m[2]), gives, gets, st);
    }
    m = line.match(/^seat (\d+) plays ([A-Z]-[A-Z]+(?:-\d+)?) on ([A-Z]+)( \(halve\))?$/);
    if (m) {
      const k = BMW.cardByCode(m[2]);
      const colour = BM.board.colours.indexOf(m[3]);
      if (k >= 0 && colour >= 0) {
        line = `seat ${m[1]} plays an Exchange card: ${BMW.cardPlay(k, colour, Boolean(m[4]))}`;
      }
    }
    m = line.match(/^seat (\d+) draws (SU|NO)\d+: (.+)$/);
    if (m) line = `seat ${m[1]} draws a ${m[2] === "SU" ? "Surprise" : "Notice"} card: ${m[3]}`;
    m = line.match(/^prices now (.+)$/);
    if (m) line = `Share prices now: ${m[1]}`;
    line = line.replace(/ an exchange pass \((surprise|notice)\)$/,
      (all, deck) => ` an exchange pass (from the ${deck[0].toUpperCase()}${deck.slice(1)} deck)`)
      .replace(/^(seat \d+ sells) (\d+) ([A-Z]+) at customs$/,
        (all, who, n, c) => `${who} ${n} ${c} share${n === "1" ? "" : "s"} at customs`)
      .replace(/ rolled (\d):(\d):/, " rolled $1 and $2:")
      .replace(/\b(RED|BLUE|GREEN|YELLOW)\b/g, (c) => c.toLowerCase());
    return seatWords(line, st);
  },
};

if (typeof module !== "undefined") module.exports = { BMW };
