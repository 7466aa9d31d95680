"use strict";
// What the page tells a person when something cannot be done, in players' words. The API's
// answers carry an error code, the field at fault and a "detail" written for developers (the
// engine's phrasing, "listed in 'allowed'"); the page never shows that detail. It shows the
// sentence here for the code, made more precise by the context of the request (a bid, a trade
// offer, a loaded file) or by the field. tests/test_serve_page.py checks that every code the
// API can answer has a sentence and that no sentence reads like the API.

const MESSAGES = /* BEGIN MESSAGES */ {
  "network": "The server did not answer. Check that byapar serve is still running, then try again.",
  "unknown": "Something went wrong. Try again.",
  "internal": "Something went wrong on the server. Try again; if it keeps happening, save the game and start the server again.",
  "bad_request": "The page sent something the server did not understand. Reload the page and try again.",
  "invalid_input": "The page sent something the server did not understand. Reload the page and try again.",
  "invalid_input:bid": "Bids go from {min} to {max}, in steps of {step}.",
  "invalid_input:trade": "That offer is not possible. Check the places and the money, then try again.",
  "invalid_input:create": "Those table options are not possible. Check the seats and the number of rounds.",
  "invalid_input:load": "That file is not a saved game of Byapar or Businessman, or it is damaged.",
  "illegal_action": "That move is not possible right now.",
  "illegal_action:bid": "Bids go from {min} to {max}, in steps of {step}.",
  "illegal_action:trade": "That offer cannot be made now. Places in a colour group with buildings cannot change hands, and each turn allows only a few offers.",
  "bad_saved_game": "That file is not a saved game of Byapar or Businessman, or it is damaged.",
  "unknown_player": "One of the chosen players is not offered by this server. Choose another.",
  "not_found": "This table is gone: a finished game is kept for a week, and a full server makes room by letting long-idle tables go. Start a new table.",
  "seat_secret_required": "This browser holds no place at that table. Open it from the browser that made it, or from your own link to it, or start a new table.",
  "replay_unavailable": "This game cannot be replayed yet: a game is replayed once it is over.",
  "method_not_allowed": "The page sent something the server did not understand. Reload the page and try again.",
  "http_error": "Something went wrong. Try again.",
  "conflict": "It is not your turn just now.",
  "conflict:table_id": "This game is over. Start a new table to play again.",
  "stale_version": "The table moved on before your move arrived. This is where it stands now: choose again.",
  "body_too_large": "That file is too large to be a saved Byapar game.",
  "too_many_tables": "The server holds as many tables as it can. Try again in a few minutes.",
  "table_busy": "The server is still busy with this table. Try again in a moment.",
  "server_busy": "The server is busy just now. Try again in a few seconds.",
  "body_timeout": "The server stopped waiting for the file. Check the connection, then try again.",
  "host_not_allowed": "This server does not answer to that address. Open it at the address it was started with.",
  "token_required": "This server needs its access key. Open the link with the key that its owner gave you.",
  "trade:no_place": "Choose at least one place: a trade needs a place on one side or the other.",
  "trade:money_step": "Money in a trade goes in steps of {step}.",
  "trade:cash_you": "You hold only {cash}.",
  "trade:cash_them": "{who} holds only {cash}."
} /* END MESSAGES */;

function fillIn(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? String(values[k]) : m));
}

// The sentence for an error from api() (err.code, err.field; code "network" when no answer
// came), in ``context`` ("bid", "trade", "create", "load" or none), with ``values`` filled in.
function plainMessage(err, context, values) {
  const code = (err && err.code) || "unknown";
  const keys = [];
  if (context) keys.push(`${code}:${context}`);
  if (err && err.field) keys.push(`${code}:${err.field}`);
  keys.push(code);
  const key = keys.find((k) => k in MESSAGES) || "unknown";
  return fillIn(MESSAGES[key], values);
}

if (typeof module !== "undefined") module.exports = { MESSAGES, plainMessage, fillIn };
