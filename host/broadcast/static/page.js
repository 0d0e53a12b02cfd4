// The relay's spectator page: every board of the round at a glance; click one
// to follow it. Data: /api/round (the round, board order) and /api/events
// (Server-Sent Events, one message per change). Drawing: board.js.
"use strict";

const state = { round: null, games: new Map(), order: [], following: null };

function keyOf(game) {
  return game.board !== null && game.board !== undefined ? String(game.board) : game.board_id;
}

function players(game) {
  return `${game.white || "?"} – ${game.black || "?"}`;
}

function status(game) {
  if (game.result) return game.result;
  if (!game.moves || game.moves.length === 0) return "not started";
  const last = game.moves[game.moves.length - 1];
  return `${game.moves.length} plies · ${last}`;
}

function card(key) {
  const game = state.games.get(key);
  const el = document.createElement("button");
  el.type = "button";
  el.className = "card" + (game.online === false ? " offline" : "");
  el.dataset.key = key;
  const head = document.createElement("div");
  head.className = "card-head";
  head.textContent = `${game.board ? "Board " + game.board : game.board_id}`;
  const who = document.createElement("div");
  who.className = "players";
  who.textContent = players(game);
  const board = document.createElement("div");
  board.className = "board small";
  if (game.diagram) drawBoard(board, game.diagram, { label: players(game) });
  const foot = document.createElement("div");
  foot.className = "status";
  foot.textContent = status(game) + (game.online === false ? " · offline" : "");
  el.append(head, who, board, foot);
  el.addEventListener("click", () => follow(key));
  return el;
}

function renderGrid() {
  const grid = document.getElementById("grid");
  grid.replaceChildren(...state.order.map(card));
}

function renderFollow() {
  const key = state.following;
  const game = key && state.games.get(key);
  document.getElementById("grid").hidden = !!game;
  document.getElementById("follow").hidden = !game;
  if (!game) return;
  document.getElementById("follow-title").textContent =
    `${game.board ? "Board " + game.board : game.board_id}: ${players(game)} ${game.result || ""}`;
  const board = document.getElementById("follow-board");
  if (game.diagram) drawBoard(board, game.diagram, { label: players(game) });
  const list = document.getElementById("follow-moves");
  const items = [];
  for (let i = 0; i < (game.moves || []).length; i += 2) {
    const li = document.createElement("li");
    li.textContent = game.moves.slice(i, i + 2).join("  ");
    items.push(li);
  }
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

function follow(key) {
  state.following = key;
  history.replaceState(null, "", key ? `#board-${key}` : "#");
  renderFollow();
}

async function loadRound() {
  const response = await fetch("/api/round", { cache: "no-store" });
  const round = await response.json();
  state.round = round.round;
  state.games = new Map();
  state.order = [];
  for (const game of round.games) {
    const key = keyOf(game);
    state.games.set(key, game);
    state.order.push(key);
  }
  document.getElementById("title").textContent = round.event || "draughtsboard";
  document.getElementById("subtitle").textContent = round.round ? `Round ${round.round}` : "";
  const files = document.getElementById("files");
  files.replaceChildren();
  if (round.round) {
    const link = document.createElement("a");
    link.href = `/round-${encodeURIComponent(round.round)}/games.pdn`;
    link.textContent = "games.pdn";
    files.append(link);
  }
  renderGrid();
  renderFollow();
}

function onChange(message) {
  if (message.kind === "round") {
    if (message.data.round !== state.round) loadRound();
    return;
  }
  const game = message.data;
  if (state.round && game.round && game.round !== state.round) return;
  const key = keyOf(game);
  const old = state.games.get(key) || {};
  state.games.set(key, Object.assign({}, old, game, {
    white: old.white || game.white, black: old.black || game.black,
  }));
  if (!state.order.includes(key)) state.order.push(key);
  const existing = document.querySelector(`.card[data-key="${CSS.escape(key)}"]`);
  if (existing) existing.replaceWith(card(key));
  else renderGrid();
  if (state.following === key) renderFollow();
}

function connect() {
  const dot = document.getElementById("connection");
  const events = new EventSource("/api/events");
  events.onopen = () => { dot.className = "online"; loadRound(); };
  events.onmessage = (event) => onChange(JSON.parse(event.data));
  events.onerror = () => { dot.className = "offline"; };
}

document.getElementById("back").addEventListener("click", () => follow(null));
const wanted = location.hash.match(/^#board-(.+)$/);
if (wanted) state.following = decodeURIComponent(wanted[1]);
connect();
