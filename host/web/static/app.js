// The page: one WebSocket for live state (and, in order, the hands and controls),
// the side panel, the dialogs, and the browser's own speech where it has one.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const TOKEN_KEY = "draughtsboard-token";
  const SPEECH_KEY = "draughtsboard-speech";

  // A token in the address (from the QR code) is kept for this browser and removed
  // from the address bar, so it is not shared with a screenshot or a bookmark.
  const params = new URLSearchParams(location.search);
  if (params.has("token")) {
    localStorage.setItem(TOKEN_KEY, params.get("token"));
    history.replaceState(null, "", location.pathname);
  }
  const token = localStorage.getItem(TOKEN_KEY) || "";

  let state = null;
  let mayControl = false;
  let socket = null;
  let retry = 500;
  let nextId = 1;
  const waiting = new Map(); // message id -> resolve
  let queue = Promise.resolve(); // actions go out one after another, in order
  let spoken = null; // how many announcements this page has already heard

  const board = new BoardView($("board"), $("ghost"), {
    lift: (square, hold) => send("hands", hold ? { lift: square, hold: true } : { lift: square }),
    place: (square, piece) => send("hands", piece ? { place: square, piece } : { place: square }),
    drop: (square) => send("hands", { drop: square }),
  });
  // The note under the tray always holds a line (what the tray is for, or what the hand
  // holds), so lifting a piece never moves the page.
  board.onHandChange = () => renderHandNote();
  function renderHandNote() {
    const holding = Boolean(board.hand);
    $("hand-note").textContent = say(language(), holding ? "hand" : "tray-help");
    $("hand-note").dataset.holding = String(holding);
  }

  function language() {
    return (state && state.language) || "pt-BR";
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
      board.dropHand(); // the host puts a held piece back where it was lifted (docs/web.md)
      for (const resolve of waiting.values()) resolve({ type: "error", error: "connection lost" });
      waiting.clear();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 2000);
    };
  }

  function receive(message) {
    if (message.type === "hello") {
      mayControl = Boolean(message.control);
    } else if (message.type === "state") {
      state = message.state;
      setLink("live");
      render();
    } else if (message.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)(message);
      waiting.delete(message.id);
    }
    if (message.type === "error") toast(message.error);
  }

  // One action (hands or control). Over the socket when it is open, else over HTTP;
  // either way strictly after the previous action, so a lift always precedes its place.
  function send(kind, body) {
    queue = queue.then(() => deliver(kind, body)).catch(() => {});
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
        if (answer.error) toast(answer.error);
        else { state = answer; render(); }
      });
  }

  function control(command, extra) {
    return send("control", Object.assign({ command }, extra || {}));
  }

  // -- drawing --------------------------------------------------------------------------

  function render() {
    const lang = language();
    document.documentElement.lang = lang;
    for (const element of document.querySelectorAll("[data-i18n]")) {
      if (element.dataset.armed === "true") continue; // showing its question
      element.textContent = say(lang, element.dataset.i18n);
    }
    const simulated = state.mode === "sim";
    board.render(state, simulated && mayControl);
    $("tray").hidden = !(simulated && mayControl);
    renderHandNote();
    $("variant-name").textContent = capitalise(state.variant_name);
    $("mode-badge").textContent = say(lang, simulated ? "sim" : "companion");
    $("watch-badge").hidden = mayControl;
    $("watch-badge").textContent = say(lang, "watching");
    $("controls").classList.toggle("disabled", !mayControl);
    for (const button of document.querySelectorAll("#controls button")) {
      button.disabled = !mayControl;
    }
    renderStatus(lang);
    renderComputer(lang, simulated);
    renderMoves(lang);
    Clocks.render(state, lang, mayControl, (command) => control(command)); // clock.js
    renderSaid();
    renderLegend(lang);
    for (const button of document.querySelectorAll("[data-hints]")) {
      button.setAttribute("aria-checked", String(button.dataset.hints === state.hints));
    }
    for (const button of document.querySelectorAll("[data-language]")) {
      button.setAttribute("aria-checked", String(button.dataset.language === lang));
    }
    speakNew();
  }

  function renderStatus(lang) {
    const over = state.outcome;
    // The players, event and round a club's pairings give the game (docs/broadcast.md).
    const tags = state.tags || {};
    const computerSides = (state.computer && state.computer.sides) || {};
    const player = (side) => tags[side === "W" ? "White" : "Black"] ||
      (computerSides[side] ? playerLabel(lang, "computer:" + computerSides[side]) : "");
    const names = player("W") || player("B")
      ? say(lang, "white") + ": " + (player("W") || say(lang, "human")) + " · " +
        say(lang, "black") + ": " + (player("B") || say(lang, "human"))
      : "";
    const round = [tags.Event, tags.Round].filter(Boolean).join(" · ");
    $("players-line").textContent = [names, round].filter(Boolean).join(" — ");
    $("players-line").hidden = !names && !round;
    $("turn-dot").className = "dot " + (state.turn === "W" ? "white" : "black");
    $("turn-text").textContent = say(lang, "to-move", { side: SIDE_NAMES[lang][state.turn] });
    $("turn").hidden = Boolean(over);
    $("outcome").hidden = !over;
    $("btn-review").hidden = !over || !state.moves.length; // the review of the game just ended
    if (over) {
      $("outcome").textContent = over.text + "  " + over.result;
      $("outcome").dataset.winner = over.winner || "draw";
    }
    const said = state.announcements;
    let latest = said.length ? said[said.length - 1] : "";
    if (!latest && !state.moves.length) latest = say(lang, "first-steps");
    if (over && latest === over.text) latest = "";
    if (state.correcting && !over) latest = say(lang, "correcting");
    $("latest").textContent = latest;
    $("latest").hidden = !latest;
    $("status-card").dataset.correcting = String(Boolean(state.correcting && !over));
  }

  // The computer opponent: thinking, or its move waiting for a hand (on the simulator, a
  // button carries it out square by square, as a hand would: lift, take, put down).
  function renderComputer(lang, simulated) {
    const computer = state.computer;
    const move = computer && computer.move;
    let text = "";
    if (computer && computer.thinking) {
      text = say(lang, "computer-thinking", { side: SIDE_NAMES[lang][state.turn] });
    } else if (move) {
      text = say(lang, "computer-plays", { move: move.text });
    } else if (computer && computer.hint) {
      text = say(lang, "hint-shown", { move: computer.hint.text });
    }
    $("computer-text").textContent = text;
    $("computer-line").hidden = !text || Boolean(state.outcome);
    // The same move announced just now is said once, here, beside its button.
    const shown = move || (computer && computer.hint);
    if (text && shown && $("latest").textContent.includes(shown.text)) $("latest").hidden = true;
    $("btn-play-computer").hidden = !(move && simulated && mayControl);
    $("btn-hint").hidden = !computer;
  }

  function playerLabel(lang, value) {
    if (value === "human") return say(lang, "human");
    const level = Number(value.split(":")[1]);
    return say(lang, "computer") + " · " + say(lang, "level", { n: level }) +
      " (" + words(lang)["level-names"][level] + ")";
  }

  function renderMoves(lang) {
    const list = $("move-list");
    list.replaceChildren();
    const moves = state.moves;
    if (!moves.length) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = say(lang, "no-moves-yet");
      list.append(empty);
      return;
    }
    for (let i = 0; i < moves.length; i += 2) {
      const item = document.createElement("li");
      const number = document.createElement("span");
      number.className = "n";
      number.textContent = i / 2 + 1 + ".";
      item.append(number);
      for (const text of moves.slice(i, i + 2)) {
        const move = document.createElement("span");
        move.className = "m";
        move.textContent = text;
        item.append(move);
      }
      list.append(item);
    }
    list.scrollTop = list.scrollHeight; // the list scrolls, never the page
  }

  function renderSaid() {
    const list = $("said-list");
    list.replaceChildren();
    for (const text of state.announcements.slice().reverse()) {
      const item = document.createElement("li");
      item.textContent = text;
      list.append(item);
    }
  }

  function renderLegend(lang) {
    const roles = [...new Set(Object.values(state.leds))];
    const legend = $("legend");
    legend.replaceChildren();
    for (const role of roles) {
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.setProperty("--led", state.colours[role] || "#ffffff");
      swatch.dataset.role = role;
      if (role === "capture-alert" || role === "wrong") swatch.classList.add("blinks");
      item.append(swatch, document.createTextNode(words(lang).roles[role] || role));
      legend.append(item);
    }
  }

  function capitalise(text) {
    return text ? text[0].toUpperCase() + text.slice(1) : "";
  }

  function setLink(kind) {
    $("link-badge").dataset.link = kind;
    $("link-badge").textContent = say(language(), kind);
  }

  let toastTimer = null;
  function toast(text) {
    $("toast").textContent = text;
    $("toast").hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { $("toast").hidden = true; }, 4000);
  }

  // -- speech (the browser's own, where it has one) ---------------------------------

  function speakNew() {
    const total = state.announced;
    if (spoken === null || total < spoken) spoken = total; // nothing old is read out
    const fresh = Math.min(total - spoken, state.announcements.length);
    spoken = total;
    if (!$("speech").checked || !("speechSynthesis" in window) || fresh <= 0) return;
    for (const text of state.announcements.slice(-fresh)) {
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = language() === "pt-BR" ? "pt-BR" : "en-GB";
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
  armed($("btn-resign"), () => control("resign"), "confirm-resign");
  armed($("btn-draw"), () => control("draw"), "confirm-draw");

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
      const side = SIDE_NAMES[language()][state ? state.turn : "W"];
      button.textContent = say(language(), question, { side });
      timer = setTimeout(() => { button.dataset.armed = "false"; render(); }, 3000);
    });
  }

  for (const button of document.querySelectorAll("[data-hints]")) {
    button.addEventListener("click", () => control("hints", { hints: button.dataset.hints }));
  }
  for (const button of document.querySelectorAll("[data-language]")) {
    button.addEventListener("click", () => control("language", { language: button.dataset.language }));
  }
  for (const piece of document.querySelectorAll("[data-tray]")) {
    piece.addEventListener("pointerdown", (event) => board.takeFromTray(piece.dataset.tray, event));
  }
  $("speech").checked = localStorage.getItem(SPEECH_KEY) === "on";
  $("speech-setting").hidden = !("speechSynthesis" in window);
  $("speech").addEventListener("change", () => {
    localStorage.setItem(SPEECH_KEY, $("speech").checked ? "on" : "off");
  });

  // New game: the variant picker (all eight; those that do not fit a real board are
  // shown but cannot be chosen) and who plays each side.
  $("btn-new").addEventListener("click", () => {
    const lang = language();
    const grid = $("variant-grid");
    grid.replaceChildren();
    for (const variant of state.variants) {
      const label = document.createElement("label");
      label.className = "variant-choice";
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "variant";
      input.value = variant.name;
      input.checked = variant.name === state.variant;
      input.disabled = !variant.playable;
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = capitalise(variant.label);
      const size = document.createElement("span");
      size.className = "size";
      size.textContent = say(lang, "size", { n: variant.size }) +
        (variant.playable ? "" : " · " + say(lang, "not-here"));
      label.append(input, name, size);
      grid.append(label);
    }
    for (const side of ["W", "B"]) {
      const select = $("player-" + side);
      select.replaceChildren();
      for (const value of ["human", "computer:1", "computer:2", "computer:3", "computer:4"]) {
        const option = document.createElement("option");
        option.value = value;
        option.textContent = playerLabel(lang, value);
        select.append(option);
      }
      const current = (state.players && state.players[side]) || "human";
      const level = state.computer && state.computer.sides && state.computer.sides[side];
      select.value = current === "human" ? "human" : "computer:" + (level || 2);
    }
    $("new-note").textContent = say(lang, state.mode === "sim" ? "new-note" : "new-note-real");
    $("new-dialog").showModal();
  });
  $("new-dialog").addEventListener("close", () => {
    if ($("new-dialog").returnValue !== "start") return;
    const chosen = document.querySelector("#variant-grid input:checked");
    const players = { W: $("player-W").value, B: $("player-B").value };
    control("new", {
      variant: chosen ? chosen.value : state.variant, players, clock: Clocks.chosen(),
    });
  });

  $("btn-games").addEventListener("click", async () => {
    const list = $("games-list");
    list.replaceChildren();
    let games = [];
    try {
      games = (await (await fetch("/api/games")).json()).games;
    } catch (error) {
      toast(String(error));
    }
    for (const game of games) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "/api/games/" + encodeURIComponent(game.name);
      link.download = game.name;
      link.textContent = game.name;
      const review = document.createElement("a");
      review.href = "/review?game=" + encodeURIComponent("saved:" + game.name);
      review.className = "review";
      review.textContent = say(language(), "review-one");
      item.append(link, " · ", review);
      list.append(item);
    }
    if (!games.length) {
      const item = document.createElement("li");
      item.textContent = say(language(), "no-games");
      list.append(item);
    }
    $("games-dialog").showModal();
  });

  connect();
})();
