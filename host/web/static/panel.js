// The side panel, drawn from the state in this viewer's language: the status card (whose
// regions keep their height whatever they say, so the controls below never move), the
// legend of the lights, the moves (a position to look at for each), the announcements.
"use strict";

const $ = (id) => document.getElementById(id);

// Write a text only when it changed: a page redrawn on every state should touch the
// document only where something differs.
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

// What the status line says: the board as it stands now, most urgent first.
function statusText(view) {
  const { state, lang, slip, browsing } = view;
  if (slip) return say(lang, slip.key, slip.values);
  if (browsing) return say(lang, "browsing-note");
  if (state.outcome) return say(lang, "over-next");
  if (state.correcting) { // the board's own words when it knows the reason
    return state.mistake ? renderMessage(lang, "illegal-move", { why: state.mistake })
      : say(lang, "correcting");
  }
  if (state.mistake) return say(lang, "mistake", { why: reasonOf(lang, state.mistake) });
  if (state.underway) {
    const squares = state.underway.remove.map((sq) => squareName(state, lang, sq)).join(", ");
    return say(lang, "underway", { move: state.underway.move, squares });
  }
  const computer = state.computer;
  if (computer && computer.thinking) {
    return say(lang, "computer-thinking", { side: SIDE_NAMES[lang][state.turn] });
  }
  if (computer && computer.move) return say(lang, "computer-plays", { move: computer.move.text });
  if (computer && computer.hint) return say(lang, "hint-shown", { move: computer.hint.text });
  const said = state.said || [];
  const latest = said.length ? said[said.length - 1] : null;
  if (latest && latest.kind !== "new-game") return renderMessage(lang, latest.kind, latest.params);
  if (!state.moves.length) return say(lang, "first-steps");
  return latest ? renderMessage(lang, latest.kind, latest.params) : "";
}

function reasonOf(lang, mistake) {
  return reasonText(lang, mistake.code, mistake.params);
}

function squareName(state, lang, square) {
  return state.names ? state.names[square] : String(square);
}

function renderStatus(view) {
  const { state, lang } = view;
  const over = state.outcome;
  // The players, event and round a club's pairings give the game (docs/broadcast.md).
  const tags = state.tags || {};
  const computerSides = (state.computer && state.computer.sides) || {};
  const player = (side) => tags[side === "W" ? "White" : "Black"] ||
    (computerSides[side] ? playerLabel(lang, "computer:" + computerSides[side]) : "");
  const names = say(lang, "white") + ": " + (player("W") || say(lang, "human")) + " · " +
    say(lang, "black") + ": " + (player("B") || say(lang, "human"));
  const round = [tags.Event, tags.Round].filter(Boolean).join(" · ");
  const playersLine = [names, round].filter(Boolean).join(" — ");
  setText($("players-line"), playersLine);
  $("players-line").title = playersLine; // one line, cut short on a narrow panel: in full here
  $("turn-dot").className = "dot " + (state.turn === "W" ? "white" : "black");
  setText($("turn-text"), say(lang, "to-move", { side: SIDE_NAMES[lang][state.turn] }));
  $("turn").hidden = Boolean(over);
  $("outcome").hidden = !over;
  if (over) {
    const kind = over.winner ? "win" : "draw";
    $("outcome").textContent = renderMessage(lang, kind, { side: over.winner || "", reason: over.reason }) +
      "  " + over.result;
    $("outcome").dataset.winner = over.winner || "draw";
  }
  const text = statusText(view);
  setText($("latest"), text);
  $("status-card").dataset.correcting = String(Boolean(state.correcting && !over));
  const simulated = state.mode === "sim";
  const move = state.computer && state.computer.move;
  const hands = simulated && view.mayControl && !view.browsing;
  $("btn-play-computer").hidden = !(move && hands && !state.correcting && !over);
  $("btn-put-right").hidden = !(hands && state.correcting && (state.put_right || []).length);
  $("btn-review").hidden = !over || !state.moves.length; // the review of the game just ended
}

function playerLabel(lang, value) {
  if (value === "human") return say(lang, "human");
  const level = Number(value.split(":")[1]);
  return say(lang, "computer") + " · " + say(lang, "level", { n: level }) +
    " (" + words(lang)["level-names"][level] + ")";
}

// The lights now shown, each with its colour and its symbol (never the shade alone).
function renderLegend(view, shown) {
  const { state, lang } = view;
  const blink = new Set(shown.blink || []);
  const items = new Map(); // key -> [role, blinking]
  for (const [square, role] of Object.entries(shown.leds || {})) {
    const blinking = blink.has(Number(square));
    const key = role === "wrong" ? (blinking ? "wrong-take" : "wrong-put") : role;
    if (!items.has(key)) items.set(key, [role, blinking]);
  }
  const legend = $("legend");
  const key = lang + "|" + [...items].map(([k, [role]]) => k + ":" + state.colours[role]).join(",");
  if (legend.dataset.key === key) return;
  legend.dataset.key = key;
  legend.replaceChildren();
  for (const [key, [role, blinking]] of items) {
    const item = document.createElement("li");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.setProperty("--led", state.colours[role] || "#ffffff");
    swatch.dataset.role = role;
    swatch.textContent = roleSymbol(role, blinking);
    swatch.setAttribute("aria-hidden", "true");
    if (blinking) swatch.classList.add("blinks");
    item.append(swatch, document.createTextNode(words(lang).roles[key] || role));
    legend.append(item);
  }
}

// The moves, two a line; each is a button showing the position after it. The list is one
// Tab stop: the arrow keys step through the positions, Home to the start, End back live.
function renderMoves(view, onPick) {
  const { state, lang } = view;
  const list = $("move-list");
  const moves = state.moves;
  const key = lang + "|" + moves.join(" ") + "|" + view.ply;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren();
  if (!moves.length) {
    const empty = document.createElement("li");
    empty.className = "empty";
    empty.textContent = say(lang, "no-moves-yet");
    list.append(empty);
    return;
  }
  const current = view.ply === null ? moves.length : view.ply;
  for (let i = 0; i < moves.length; i += 2) {
    const item = document.createElement("li");
    const number = document.createElement("span");
    number.className = "n";
    number.textContent = i / 2 + 1 + ".";
    item.append(number);
    moves.slice(i, i + 2).forEach((text, offset) => {
      const ply = i + offset + 1;
      const move = document.createElement("button");
      move.type = "button";
      move.className = "m";
      move.dataset.ply = String(ply);
      move.textContent = text;
      move.tabIndex = ply === Math.max(1, current) ? 0 : -1;
      if (view.ply !== null && ply === view.ply) move.setAttribute("aria-current", "true");
      move.addEventListener("click", () => onPick(ply));
      item.append(move);
    });
    list.append(item);
  }
  // The list scrolls to the move shown (the latest when live), never the page.
  const picked = list.querySelector('[aria-current="true"]');
  if (picked) {
    const offset = picked.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop += offset - list.clientHeight / 2;
  } else {
    list.scrollTop = list.scrollHeight;
  }
}

function renderViewing(view, position) {
  const { lang, state } = view;
  const browsing = view.ply !== null;
  $("viewing").dataset.browsing = String(browsing);
  $("btn-live").hidden = !browsing;
  if (!browsing) {
    setText($("viewing-text"), "");
  } else if (view.ply === 0) {
    setText($("viewing-text"), say(lang, "viewing-start"));
  } else {
    const number = Math.floor((view.ply - 1) / 2) + 1;
    const dots = view.ply % 2 === 1 ? "." : "...";
    setText($("viewing-text"), say(lang, "viewing", {
      ply: number + dots, move: state.moves[view.ply - 1] || "" }));
  }
  return position;
}

function renderSaid(view) {
  const { state, lang } = view;
  const list = $("said-list");
  const said = (state.said || []).slice().reverse();
  const key = lang + "|" + state.announced;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren();
  for (const item of said) {
    const line = document.createElement("li");
    line.textContent = renderMessage(lang, item.kind, item.params);
    list.append(line);
  }
}
