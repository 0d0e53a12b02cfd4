// The relay's spectator page: every game of the round at a glance; click one to
// follow it. Data: /api/events (Server-Sent Events): first the whole round
// ({"kind": "round"}), then one small message per change ({"kind": "moves"}: the
// plies from `from_ply` on, the position, the result), never a whole game again.
// A page that misses a change (a gap in the plies) asks for the round again.
// Drawing: board.js.
"use strict";

const WORDS = {
  en: { board: "Board", game: "game", notStarted: "not started", plies: "plies",
        offline: "offline", allBoards: "← all boards", catchingUp: "catching up…",
        round: "Round" },
  pt: { board: "Mesa", game: "jogo", notStarted: "não começou", plies: "lances",
        offline: "desconectada", allBoards: "← todas as mesas", catchingUp: "atualizando…",
        round: "Rodada" },
};
const words = (navigator.language || "en").toLowerCase().startsWith("pt") ? WORDS.pt : WORDS.en;

const state = { round: null, games: new Map(), following: null, events: null };

function players(game) {
  return `${game.white || "?"} – ${game.black || "?"}`;
}

function title(game) {
  const where = game.board ? `${words.board} ${game.board}` : game.board_id;
  return game.nth > 1 ? `${where} · ${words.game} ${game.nth}` : where;
}

// A timed game's clocks (the board's state at `ts`; the running one counts down here):
// "▶4:58 – 5:00". Empty for an untimed game.
function clockText(game) {
  const c = game.clocks;
  if (!c) return "";
  const running = !game.result && !c.paused && !c.flagged ? c.running : null;
  const since = running ? Math.max(0, Date.now() / 1000 - (game.ts || 0)) * 1000 : 0;
  const shown = (side, ms) => {
    const left = Math.max(0, ms - (running === side ? since : 0));
    const s = Math.floor(left / 1000);
    return (running === side ? "▶" : "") + `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  };
  return `${shown("W", c.white)} – ${shown("B", c.black)}`;
}

function tickClocks() {
  for (const el of document.querySelectorAll("[data-clock-key]")) {
    const game = state.games.get(el.dataset.clockKey);
    if (game) el.textContent = clockText(game);
  }
}

function status(game) {
  if (game.result) return game.result;
  if (!game.moves || game.moves.length === 0) return words.notStarted;
  const last = game.moves[game.moves.length - 1];
  return `${game.moves.length} ${words.plies} · ${last}`;
}

// Board by board, each board's games in the order they were played.
function order() {
  const rank = (game) => [game.board ?? Number.MAX_SAFE_INTEGER, game.board_id || "", game.nth || 1];
  return [...state.games.values()].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  }).map((game) => game.key);
}

function card(key) {
  const game = state.games.get(key);
  const el = document.createElement("button");
  el.type = "button";
  el.className = "card" + (game.online === false ? " offline" : "");
  el.dataset.key = key;
  const head = document.createElement("div");
  head.className = "card-head";
  head.textContent = title(game);
  const who = document.createElement("div");
  who.className = "players";
  who.textContent = players(game);
  const board = document.createElement("div");
  board.className = "board small";
  if (game.diagram) drawBoard(board, game.diagram, { label: players(game) });
  const foot = document.createElement("div");
  foot.className = "status";
  foot.textContent = status(game) + (game.online === false ? ` · ${words.offline}` : "");
  const clock = document.createElement("div");
  clock.className = "clocks";
  clock.dataset.clockKey = key;
  clock.textContent = clockText(game);
  el.append(head, who, board, foot, clock);
  el.addEventListener("click", () => follow(key));
  return el;
}

function renderGrid() {
  document.getElementById("grid").replaceChildren(...order().map(card));
}

function renderFollow() {
  const key = state.following;
  const game = key && state.games.get(key);
  document.getElementById("grid").hidden = !!game;
  document.getElementById("follow").hidden = !game;
  if (!game) return;
  document.getElementById("follow-title").textContent =
    `${title(game)}: ${players(game)} ${game.result || ""}`;
  const clock = document.getElementById("follow-clocks");
  clock.dataset.clockKey = key;
  clock.textContent = clockText(game);
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
  history.replaceState(null, "", key ? `#game-${key}` : "#");
  renderFollow();
}

function showRound(round) {
  state.round = round.round;
  state.games = new Map(round.games.map((game) => [game.key, game]));
  document.getElementById("title").textContent = round.event || "draughtsboard";
  document.getElementById("subtitle").textContent = round.round ? `${words.round} ${round.round}` : "";
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

// One change of one game: what is new since `from_ply`.
function applyChange(change) {
  if (state.round !== null && change.round !== state.round) return;
  const old = state.games.get(change.key);
  const known = old ? old.moves || [] : [];
  if (change.from_ply - 1 > known.length || (!old && change.from_ply > 1)) {
    reconnect(); // we missed something: start again from the whole round
    return;
  }
  const game = Object.assign({}, old || {}, change, {
    moves: known.slice(0, change.from_ply - 1).concat(change.moves),
  });
  delete game.from_ply;
  state.games.set(change.key, game);
  const existing = document.querySelector(`.card[data-key="${CSS.escape(change.key)}"]`);
  if (existing && old) existing.replaceWith(card(change.key));
  else renderGrid();
  if (state.following === change.key) renderFollow();
}

function connect() {
  const dot = document.getElementById("connection");
  const events = new EventSource("/api/events");
  state.events = events;
  events.onopen = () => { dot.className = "online"; dot.title = ""; };
  events.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.kind === "round") showRound(message.data);
    else if (message.kind === "moves") applyChange(message.data);
  };
  events.onerror = () => {
    dot.className = "offline";
    if (events.readyState === EventSource.CLOSED) { // e.g. 503 while the relay catches up
      dot.title = words.catchingUp;
      setTimeout(() => { if (state.events === events) connect(); }, 2000);
    }
  };
}

function reconnect() {
  if (state.events) state.events.close();
  connect();
}

document.getElementById("back").textContent = words.allBoards;
document.getElementById("back").addEventListener("click", () => follow(null));
const wanted = location.hash.match(/^#game-(.+)$/);
if (wanted) state.following = decodeURIComponent(wanted[1]);
connect();
setInterval(tickClocks, 1000);
