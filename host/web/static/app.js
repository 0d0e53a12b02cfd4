// The page: one WebSocket for live state (and, in order, the hands and controls), this
// viewer's own language and settings, looking back through the game, the dialogs, and
// the browser's own speech and sounds where it has them.
"use strict";

(function () {
  const TOKEN_KEY = "draughtsboard-token";
  const SPEECH_KEY = "draughtsboard-speech";
  const SOUNDS_KEY = "draughtsboard-sounds";
  const LANGUAGE_KEY = "draughtsboard-language";
  const FLIP_KEY = "draughtsboard-flipped";
  const SLIP_SHOWN = 5000; // ms a slip's reason stays in the status line

  // A token in the address (from the QR code) is kept for this browser and removed
  // from the address bar, so it is not shared with a screenshot or a bookmark.
  const params = new URLSearchParams(location.search);
  if (params.has("token")) {
    localStorage.setItem(TOKEN_KEY, params.get("token"));
    history.replaceState(null, "", location.pathname);
  }
  let token = localStorage.getItem(TOKEN_KEY) || "";

  let state = null;
  let mayControl = false;
  let why = null; // why this page may not control (the host's hello says)
  let socket = null;
  let retry = 500;
  let nextId = 1;
  const waiting = new Map(); // message id -> resolve
  let queue = Promise.resolve(); // actions go out one after another, in order
  let unanswered = 0; // actions sent (or waiting to go) that the host has not answered
  let heard = null; // how many announcements this page has already spoken or shown
  let movesSeen = null; // how many moves this page has already sounded
  let slip = null; // {key, values, until}: why a piece just went back
  let slipTimer = null;
  let ply = null; // the position looked at (plies from the start), or null: live
  let past = null; // {key, positions}: the game's positions (GET /api/history)
  const sounds = new Sounds();

  const board = new BoardView($("board"), $("ghost"), {
    lift: (square, hold) => send("hands", hold ? { lift: square, hold: true } : { lift: square }),
    place: (square, piece) => send("hands", piece ? { place: square, piece } : { place: square }),
    drop: (square) => send("hands", { drop: square }),
    busy: () => unanswered > 0,
    settled: () => queue,
  });
  // The note under the tray always holds a line (what the tray is for, or what the hand
  // holds), so lifting a piece never moves the page.
  board.hands.onHandChange = () => renderHandNote();
  board.hands.onSlip = (key, values) => {
    slip = { key, values };
    clearTimeout(slipTimer);
    slipTimer = setTimeout(() => { slip = null; if (state) render(); }, SLIP_SHOWN);
    tell(say(language(), key, values));
    if (state) render();
  };
  board.flip(localStorage.getItem(FLIP_KEY) === "on");

  function renderHandNote() {
    const hand = board.hands.held;
    const key = hand ? (hand.byKey ? "hand-keys" : "hand") : "tray-help";
    setText($("hand-note"), say(language(), key));
    $("hand-note").dataset.holding = String(Boolean(hand));
  }

  function language() {
    return chooseLanguage(localStorage.getItem(LANGUAGE_KEY), navigator.languages,
      state && state.language);
  }

  // -- talking to the host ----------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const query = token ? "?token=" + encodeURIComponent(token) : "";
    socket = new WebSocket(scheme + location.host + "/ws" + query);
    setLink("connecting");
    socket.onopen = () => { retry = 500; };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = () => {
      setLink("offline");
      board.hands.dropHand(); // the host puts a held piece back where it was lifted (docs/web.md)
      for (const resolve of waiting.values()) resolve({ type: "error", error: "connection lost" });
      waiting.clear();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 2000);
    };
  }

  function reconnect() {
    if (socket) {
      socket.onclose = null;
      socket.close();
    }
    retry = 500;
    connect();
  }

  function receive(message) {
    if (message.type === "hello") {
      mayControl = Boolean(message.control);
      why = message.why || null;
    } else if (message.type === "state") {
      state = message.state;
      setLink("live");
      render();
    } else if (message.id !== undefined && waiting.has(message.id)) {
      if (message.state) { // the board as it stands once it has answered this action
        state = message.state;
        render();
      }
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
    if (message.type === "error") toast(errorText(message));
  }

  // What the host refused, in this viewer's language: its code rendered from the host's
  // own table (GET /api/words, "errors"); the English line when the code is unknown.
  function errorText(answer) {
    const lang = language();
    if (answer.code && answer.code in hostTable("errors", lang)) {
      return renderMessage(lang, answer.code, answer.params, "errors");
    }
    return answer.error;
  }

  // One action (hands or control). Over the socket when it is open, else over HTTP;
  // either way strictly after the previous action, so a lift always precedes its place.
  function send(kind, body) {
    unanswered += 1;
    queue = queue.then(() => deliver(kind, body)).catch(() => {})
      .then(() => { unanswered -= 1; });
    return queue;
  }

  function deliver(kind, body) {
    if (socket && socket.readyState === WebSocket.OPEN) {
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, [kind]: body }));
      });
    }
    const headers = { "Content-Type": "application/json" };
    if (token) headers["Authorization"] = "Bearer " + token;
    return fetch("/api/" + kind, { method: "POST", headers, body: JSON.stringify(body) })
      .then((response) => response.json())
      .then((answer) => {
        if (answer.error) toast(errorText(answer));
        else { state = answer; render(); }
      });
  }

  function control(command, extra) {
    return send("control", Object.assign({ command }, extra || {}));
  }

  // -- looking back: the position after any move --------------------------------------

  async function history() {
    const key = state.moves.length + "|" + state.fen;
    if (!past || past.key !== key) {
      const answer = await (await fetch("/api/history")).json();
      past = { key, positions: answer.positions };
    }
    return past.positions;
  }

  async function look(at) {
    if (!state) return;
    const active = document.activeElement;
    const inList = Boolean(active && active.closest && active.closest("#move-list"));
    if (at === null || at >= state.moves.length) {
      ply = null;
    } else {
      ply = Math.max(0, at);
      await history();
    }
    render();
    if (inList) { // the list was drawn again: the focus follows the position shown
      const button = document.querySelector('#move-list [tabindex="0"]');
      if (button) button.focus();
    }
  }

  function shownPosition() {
    if (ply === null || !past || !past.positions[ply]) return null;
    const position = past.positions[ply];
    const leds = {};
    for (const square of position.last || []) leds[square] = "last-move";
    return { pieces: position.pieces, leds, blink: [] };
  }

  // -- drawing --------------------------------------------------------------------------

  function render() {
    const lang = language();
    document.documentElement.lang = lang;
    for (const element of document.querySelectorAll("[data-i18n]")) {
      if (element.dataset.armed === "true") continue; // showing its question
      setText(element, say(lang, element.dataset.i18n));
    }
    if (ply !== null && ply >= state.moves.length) ply = null; // that move was taken back
    const shown = shownPosition();
    const browsing = shown !== null;
    const simulated = state.mode === "sim";
    const view = { state, lang, slip, browsing, ply: browsing ? ply : null, mayControl };
    board.render(state, simulated && mayControl && !browsing, lang, shown || undefined);
    $("tray").hidden = !(simulated && mayControl);
    renderHandNote();
    setText($("variant-name"), capitalise(variantLabel(lang, state.variant)));
    setText($("mode-badge"), say(lang, simulated ? "sim" : "companion"));
    $("watch-badge").hidden = mayControl;
    setText($("watch-badge"), say(lang, "watching"));
    setLink($("link-badge").dataset.link);
    renderAccess(lang);
    renderControls(lang);
    renderStatus(view);
    renderMoves(view, look);
    Clocks.render(state, lang, mayControl, (command) => control(command)); // clock.js
    renderViewing(view);
    renderSaid(view);
    renderLegend(view, shown || state);
    for (const button of document.querySelectorAll("[data-hints]")) {
      button.setAttribute("aria-checked", String(button.dataset.hints === state.hints));
    }
    for (const button of document.querySelectorAll("[data-language]")) {
      button.setAttribute("aria-checked", String(button.dataset.language === state.language));
    }
    for (const button of document.querySelectorAll("[data-page-language]")) {
      button.setAttribute("aria-checked", String(button.dataset.pageLanguage === lang));
    }
    hearNew(lang);
  }

  // The game's controls: off without the right to control, and off where they make no
  // sense now (the host says why: state.controls), with the reason as a tooltip.
  function renderControls(lang) {
    const refusals = state.controls || {};
    const over = Boolean(state.outcome);
    for (const button of document.querySelectorAll("button.game")) {
      const command = button.id.replace("btn-", "");
      const refusal = refusals[command];
      button.disabled = !mayControl || Boolean(refusal);
      if (refusal) button.title = renderMessage(lang, refusal, {}, "refusals");
      else button.removeAttribute("title");
    }
    $("controls").classList.toggle("watching", !mayControl);
    $("btn-hint").hidden = !state.computer;
    $("btn-rematch").disabled = !mayControl || !over;
    $("btn-flip").setAttribute("aria-pressed", String(board.flipped));
    $("btn-new").disabled = !mayControl;
  }

  // Why this page cannot control, and how to get the controls (companion mode, a LAN).
  function renderAccess(lang) {
    $("access").hidden = mayControl;
    if (mayControl) return;
    const key = { "token": "why-token", "stale-token": "why-stale", "local-only": "why-local",
                  "other-site": "why-other-site" }[why] || "why-token";
    setText($("access-text"), say(lang, key));
    $("token-form").hidden = !(why === "token" || why === "stale-token");
  }

  function setLink(kind) {
    $("link-badge").dataset.link = kind;
    setText($("link-badge"), say(language(), kind));
  }

  let toastTimer = null;
  function toast(text) {
    $("toast").textContent = text;
    $("toast").hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { $("toast").hidden = true; }, 4000);
  }

  // For screen readers: what is said, as it is said (a live region kept short).
  function tell(text) {
    const live = $("live");
    const line = document.createElement("p");
    line.textContent = text;
    live.append(line);
    while (live.childElementCount > 4) live.firstElementChild.remove();
  }

  // -- what is new: announcements (read out, spoken), moves (sounded) -----------------

  function hearNew(lang) {
    const total = state.announced;
    if (heard === null || total < heard) heard = total; // nothing old is read out
    const said = state.said || [];
    const fresh = said.slice(said.length - Math.min(total - heard, said.length));
    heard = total;
    const texts = fresh.map((item) => renderMessage(lang, item.kind, item.params));
    for (const text of texts) tell(text);
    const moves = state.moves.length;
    if (movesSeen !== null && moves > movesSeen) { // the latest of the new moves
      sounds.play(state.moves[moves - 1].includes("x"));
    }
    movesSeen = moves;
    if (!$("speech").checked || !("speechSynthesis" in window)) return;
    for (const text of texts) {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = lang === "pt-BR" ? "pt-BR" : "en-GB";
      window.speechSynthesis.speak(utterance);
    }
  }

  // -- controls -------------------------------------------------------------------------

  $("btn-takeback").addEventListener("click", () => control("takeback"));
  $("btn-hint").addEventListener("click", () => control("hint"));
  $("btn-review").addEventListener("click", () => { location.href = "/review?game=current"; });
  $("btn-play-computer").addEventListener("click", () => {
    const move = state && state.computer && state.computer.move;
    if (!move) return;
    send("hands", { lift: move.from });
    for (const square of move.captured_order) send("hands", { lift: square });
    send("hands", { place: move.to });
  });
  // The put-right a person would do: the same lifts and places, one after another.
  // (decided, like a click, once the board has answered what the hands already sent)
  $("btn-put-right").addEventListener("click", () => board.hands.act(() => {
    board.hands.putBack();
    for (const step of (state && state.put_right) || []) send("hands", step);
  }));
  $("btn-rematch").addEventListener("click", () => {
    const players = state.players || { W: "human", B: "human" };
    control("new", { variant: state.variant, players: { W: players.B, B: players.W } });
  });
  $("btn-flip").addEventListener("click", () => {
    board.flip(!board.flipped);
    localStorage.setItem(FLIP_KEY, board.flipped ? "on" : "off");
    if (state) render();
  });
  $("btn-live").addEventListener("click", () => look(null));
  armed($("btn-resign"), () => control("resign"), () => "confirm-resign");
  armed($("btn-draw"), () => control("draw"), drawQuestion);

  // What pressing Draw does (Session.command): against the computer it is an offer the
  // computer answers; between two people, or with the computer on both sides, the game
  // ends drawn at once.
  function drawQuestion() {
    const computerSides = Object.keys((state && state.computer && state.computer.sides) || {});
    if (computerSides.length === 1) return "confirm-draw-computer";
    return computerSides.length === 2 ? "confirm-draw-computers" : "confirm-draw";
  }

  // A button that needs a second press within 3 s (resigning cannot be undone by accident).
  function armed(button, action, question) {
    let timer = null;
    button.addEventListener("click", () => {
      if (button.dataset.armed === "true") {
        clearTimeout(timer);
        button.dataset.armed = "false";
        action();
        render();
        return;
      }
      button.dataset.armed = "true";
      // the side that gives up is the host's to say (the person's, against the computer)
      const side = SIDE_NAMES[language()][state ? state.resigning || state.turn : "W"];
      button.textContent = say(language(), question(), { side });
      timer = setTimeout(() => { button.dataset.armed = "false"; render(); }, 3000);
    });
  }

  // The move list (or the page, when nothing else has the focus): the arrow keys step
  // through the positions, Home to the start, End or Escape back to the live game.
  function stepThrough(event) {
    if (!state || !state.moves.length) return;
    const at = ply === null ? state.moves.length : ply;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    if (step !== undefined) look(at + step);
    else if (event.key === "Home") look(0);
    else if (event.key === "End" || event.key === "Escape") look(null);
    else return;
    event.preventDefault();
  }
  $("move-list").addEventListener("keydown", stepThrough);
  document.addEventListener("keydown", (event) => {
    if (event.target === document.body && !event.altKey && !event.ctrlKey) stepThrough(event);
  });

  for (const button of document.querySelectorAll("[data-hints]")) {
    button.addEventListener("click", () => control("hints", { hints: button.dataset.hints }));
  }
  for (const button of document.querySelectorAll("[data-language]")) {
    button.addEventListener("click", () => control("language", { language: button.dataset.language }));
  }
  for (const button of document.querySelectorAll("[data-page-language]")) {
    button.addEventListener("click", () => {
      localStorage.setItem(LANGUAGE_KEY, button.dataset.pageLanguage);
      if (state) render();
    });
  }
  for (const piece of document.querySelectorAll("[data-tray]")) {
    piece.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      board.hands.act(() => board.hands.takeFromTray(piece.dataset.tray, event));
    });
    piece.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      board.hands.act(() => board.hands.takeFromTray(piece.dataset.tray, null));
      $("board").querySelector('[tabindex="0"]').focus();
    });
  }
  $("speech").checked = localStorage.getItem(SPEECH_KEY) === "on";
  $("speech-setting").hidden = !("speechSynthesis" in window);
  $("speech").addEventListener("change", () => {
    localStorage.setItem(SPEECH_KEY, $("speech").checked ? "on" : "off");
  });
  $("sounds").checked = localStorage.getItem(SOUNDS_KEY) === "on";
  $("sounds").addEventListener("change", () => {
    localStorage.setItem(SOUNDS_KEY, $("sounds").checked ? "on" : "off");
    sounds.enable($("sounds").checked);
  });
  // A browser starts sound only after a gesture: the first click or key on the page.
  const wake = () => sounds.enable($("sounds").checked);
  window.addEventListener("pointerdown", wake, { once: true });
  window.addEventListener("keydown", wake, { once: true });

  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = $("token-input").value.trim();
    if (!typed) return;
    token = typed;
    localStorage.setItem(TOKEN_KEY, token);
    $("token-input").value = "";
    reconnect();
  });

  setUpDialogs({ state: () => state, language, control, toast });

  // The host's sentences first (each viewer renders them in its own language), then live.
  fetch("/api/words")
    .then((response) => response.json())
    .then((tables) => { HOST_WORDS = tables; })
    .catch(() => { HOST_WORDS = {}; })
    .finally(connect);
})();
