// The review page: any game, step by step, with the engine's view of every position.
//
// The address says which game: /review?game=saved:NAME.pdn&number=1, an upload's
// ?game=upload:HASH.pdn, or ?game=current (the game just finished on the board).
// Without one the page lists the games and offers an upload (review-list.js). The host
// sends every position and move once (/api/review/game), then the analysis as it grows;
// the page asks for it every second until it is complete. Keys: left and right step one
// move, Home and End go to the start and the end.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const LANGUAGE_KEY = "draughtsboard-language";
  const POLL_MS = 1000;

  let language = chooseLanguage();
  let game = null; // from /api/review/game
  let analysis = null; // its analysis, as it stands
  let ply = 0; // the position shown: 0 the start, n after the nth move
  let pollTimer = null;

  const board = new BoardView($("board"), $("ghost"), null);
  const games = new GameList(() => language, (id, number) => open(id, number));

  function chooseLanguage() {
    const asked = new URLSearchParams(location.search).get("lang");
    const kept = localStorage.getItem(LANGUAGE_KEY);
    for (const choice of [asked, kept]) if (choice === "pt-BR" || choice === "en") return choice;
    const browser = (navigator.languages && navigator.languages[0]) || navigator.language || "";
    return browser.toLowerCase().startsWith("pt") ? "pt-BR" : "en";
  }

  const t = (key, values) => reviewSay(language, key, values);

  // -- loading --------------------------------------------------------------------------

  async function open(id, number) {
    clearTimeout(pollTimer);
    try {
      if (id === "current") {
        const current = await reviewFetch("/api/review/current");
        id = current.id;
        number = current.number;
      }
      const body = await reviewFetch(gameUrl("/api/review/game", id, number));
      game = body.game;
      analysis = body.analysis;
    } catch (error) {
      showList(reviewProblem(language, error));
      return;
    }
    history.replaceState(null, "", "/review?game=" + encodeURIComponent(game.id) +
      (game.number > 1 ? "&number=" + game.number : ""));
    document.body.dataset.view = "review";
    ply = 0;
    renderGame();
    go(0);
    poll();
  }

  function gameUrl(path, id, number) {
    return path + "?id=" + encodeURIComponent(id) + "&number=" + (number || 1);
  }

  function poll() {
    clearTimeout(pollTimer);
    if (!analysis || analysis.status === "done" || analysis.status === "failed") return;
    pollTimer = setTimeout(async () => {
      try {
        const fresh = await reviewFetch(gameUrl("/api/review/analysis", game.id, game.number));
        if (fresh.key === game.key) analysis = fresh;
      } catch (error) {
        // the board stopped or the network blinked: ask again
      }
      renderAnalysis();
      poll();
    }, POLL_MS);
  }

  function showList(error) {
    document.body.dataset.view = "list";
    games.showError(error || "");
    games.load();
  }

  // -- drawing the game ---------------------------------------------------------------------

  function renderGame() {
    const tags = game.tags;
    const white = reviewPlayer(language, tags.White, "W");
    const black = reviewPlayer(language, tags.Black, "B");
    $("game-title").textContent = white + " – " + black + "  " + game.result;
    $("game-meta").textContent = [tags.Event, tags.Round, tags.Date, tags.Site]
      .filter(reviewKnown).join(" · ");
    $("variant-name").textContent = game.variant_names[language] || game.variant;
    document.title = "draughtsboard — " + t("title") + ": " + white + " – " + black;
    renderNumbers();
    renderMoves();
    renderAnalysis();
  }

  // A file of several games: choose which one (the ones that cannot be reviewed greyed).
  function renderNumbers() {
    const select = $("game-number");
    select.hidden = game.games <= 1;
    select.replaceChildren();
    for (const entry of game.file_games) {
      const option = document.createElement("option");
      option.value = String(entry.number);
      option.textContent = t("game-n", { n: entry.number,
        white: reviewPlayer(language, entry.white, "W"),
        black: reviewPlayer(language, entry.black, "B"), result: entry.result });
      option.disabled = Boolean(entry.error);
      select.append(option);
    }
    select.value = String(game.number);
  }

  $("game-number").addEventListener("change", () => open(game.id, Number($("game-number").value)));

  function renderMoves() {
    const list = $("moves");
    list.replaceChildren();
    let row = null;
    for (const move of game.moves) {
      if (!row || move.side === "W") {
        row = document.createElement("li");
        const number = document.createElement("span");
        number.className = "n";
        number.textContent = move.number + (move.side === "B" ? "…" : ".");
        row.append(number);
        if (move.side === "B") row.append(document.createElement("span"));
        list.append(row);
      }
      const button = document.createElement("button");
      button.type = "button";
      button.className = "mv";
      button.dataset.ply = String(move.ply + 1);
      button.textContent = move.text;
      button.addEventListener("click", () => go(move.ply + 1));
      row.append(button);
    }
  }

  function renderAnalysis() {
    if (!game || !analysis) return;
    const status = analysis.status;
    $("progress").max = analysis.total;
    $("progress").value = analysis.done;
    $("progress-line").dataset.status = status;
    $("progress-text").textContent = t(status, {
      done: analysis.done, total: analysis.total, error: analysis.error || "",
    });
    for (const button of $("moves").querySelectorAll("button.mv")) {
      const verdict = analysis.verdicts[Number(button.dataset.ply) - 1];
      const move = game.moves[Number(button.dataset.ply) - 1];
      button.dataset.class = verdict ? verdict.class : "";
      button.textContent = move.text + (verdict && verdict.mark ? verdict.mark : "");
    }
    renderSummary();
    renderPosition();
  }

  function renderSummary() {
    const table = $("summary");
    table.replaceChildren();
    const head = table.insertRow();
    for (const text of ["", t("white"), t("black")]) {
      const cell = document.createElement("th");
      cell.textContent = text;
      head.append(cell);
    }
    const rows = [["inaccuracies", "inaccuracy"], ["mistakes", "mistake"],
      ["blunders", "blunder"], ["average-loss", "average_loss"]];
    for (const [label, field] of rows) {
      const row = table.insertRow();
      row.dataset.class = field;
      const name = document.createElement("th");
      name.scope = "row";
      name.textContent = t(label);
      row.append(name);
      for (const side of ["W", "B"]) {
        const value = analysis.summary[side][field];
        row.insertCell().textContent = field === "average_loss"
          ? formatMen(language, value * 100, false) : String(value);
      }
    }
    const limits = analysis.thresholds;
    const men = (value) => formatMen(language, value * 100, false);
    $("thresholds").textContent = t("thresholds", {
      inaccuracy: men(limits.inaccuracy), mistake: men(limits.mistake),
      blunder: men(limits.blunder), clamp: men(limits.clamp),
    });
    $("graph-note").textContent = t("graph-note", { clamp: men(limits.clamp) });
  }

  // -- one position ---------------------------------------------------------------------

  function go(target) {
    if (!game) return;
    ply = Math.max(0, Math.min(game.moves.length, target));
    renderPosition();
  }

  function renderPosition() {
    if (!game || !analysis) return;
    const position = game.positions[ply];
    const evaluation = analysis.evals[ply];
    const played = ply > 0 ? game.moves[ply - 1] : null;
    const best = evaluation && evaluation.best;
    const showBest = $("show-best").checked && best;
    const leds = {};
    if (played) {
      leds[played.from] = "last-move";
      leds[played.to] = "last-move";
    }
    if (showBest) {
      for (const square of best.path.slice(0, -1)) leds[square] = "landing";
      for (const square of best.captures) leds[square] = "remove";
      leds[best.from] = "move-from";
      leds[best.to] = "destination";
    }
    board.render({
      variant: game.variant, size: game.size, squares: game.squares, names: game.names,
      pieces: position.pieces, leds, blink: [], colours: game.colours, turn: position.turn,
    }, false);
    // A picture of the position: its squares are not stops for Tab (the arrow keys step).
    for (const cell of $("board").querySelectorAll("[data-square]")) cell.tabIndex = -1;
    drawArrow(showBest ? best : null);
    $("board").dataset.ply = String(ply);
    $("board").setAttribute("aria-label", played ? played.text : t("start"));
    $("where").textContent = played
      ? t("after", { move: played.number + (played.side === "W" ? ". " : "… ") + played.text,
        n: ply, total: game.moves.length })
      : t("start");
    $("first").disabled = $("back").disabled = ply === 0;
    $("last").disabled = $("forward").disabled = ply === game.moves.length;
    for (const button of $("moves").querySelectorAll("button.mv")) {
      const here = Number(button.dataset.ply) === ply;
      button.classList.toggle("current", here);
      if (here) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
    keepInView($("moves"), $("moves").querySelector("button.current"));
    $("evaluation").textContent = evaluation ? evaluationText(evaluation) : "…";
    $("best-move").textContent = best ? best.text : evaluation ? t("game-over") : "…";
    $("best-line").textContent = evaluation && evaluation.pv.length > 1
      ? t("line", { line: evaluation.pv.join(" ") }) : "";
    renderVerdict(played);
    drawGraph($("graph"), {
      evals: analysis.evals, verdicts: analysis.verdicts, current: ply,
      clamp: analysis.thresholds.clamp, label: t("graph"),
    }, go);
  }

  // Scroll the move list (never the page) so the current move shows.
  function keepInView(list, item) {
    if (!item) return;
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + item.offsetHeight - list.clientHeight;
    }
  }

  function evaluationText(evaluation) {
    if (evaluation.mate !== null && evaluation.mate !== undefined) {
      const side = evaluation.score > 0 ? t("white") : t("black");
      if (evaluation.mate === 0) return t("won", { side });
      return t("wins-in", { side, n: Math.abs(evaluation.mate) });
    }
    return formatMen(language, evaluation.score, true);
  }

  function renderVerdict(played) {
    const line = $("verdict");
    line.hidden = !played;
    if (!played) return;
    const verdict = analysis.verdicts[played.ply];
    const name = played.number + (played.side === "W" ? ". " : "… ") + played.text;
    line.dataset.class = verdict ? verdict.class : "";
    if (!verdict) {
      line.textContent = t("verdict-wait", { move: name });
      return;
    }
    const before = analysis.evals[played.ply];
    const best = before && before.best ? before.best.text : "";
    const loss = formatMen(language, verdict.loss, false);
    if (verdict.mark) {
      line.textContent = t("verdict-bad", { move: name + verdict.mark, kind: t(verdict.class),
        loss, best });
    } else {
      line.textContent = t("verdict-" + verdict.class, { move: name, loss });
    }
  }

  // The best move as an arrow over the board (through every landing of a capture).
  function drawArrow(best) {
    const svg = $("arrows");
    svg.replaceChildren();
    const size = game.size;
    svg.setAttribute("viewBox", "0 0 " + size + " " + size);
    if (!best) return;
    const centre = (square) => {
      const [file, rank] = game.squares[String(square)];
      return [file + 0.5, size - rank - 0.5];
    };
    const points = [best.from, ...best.path].map(centre);
    const defs = svgElement("defs");
    const marker = svgElement("marker", {
      id: "arrow-head", viewBox: "0 0 10 10", refX: 5, refY: 5,
      markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse",
    });
    marker.append(svgElement("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }));
    defs.append(marker);
    svg.append(defs, svgElement("polyline", {
      class: "arrow", "marker-end": "url(#arrow-head)",
      points: points.map(([x, y]) => x + "," + y).join(" "),
    }));
  }

  // -- controls ---------------------------------------------------------------------------

  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(ply - 1));
  $("forward").addEventListener("click", () => go(ply + 1));
  $("last").addEventListener("click", () => go(game.moves.length));
  $("show-best").addEventListener("change", () => renderPosition());
  document.addEventListener("keydown", (event) => {
    if (!game || document.body.dataset.view !== "review") return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const steps = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: game.moves.length };
    if (!(event.key in steps) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    go(steps[event.key]);
  });

  for (const button of document.querySelectorAll("[data-language]")) {
    button.addEventListener("click", () => {
      language = button.dataset.language;
      localStorage.setItem(LANGUAGE_KEY, language);
      translate();
      games.render();
      if (game) renderGame();
    });
  }

  function translate() {
    document.documentElement.lang = language;
    for (const element of document.querySelectorAll("[data-t]")) {
      element.textContent = t(element.dataset.t);
    }
    for (const element of document.querySelectorAll("[data-t-label]")) {
      element.setAttribute("aria-label", t(element.dataset.tLabel));
      element.title = t(element.dataset.tLabel);
    }
    for (const button of document.querySelectorAll("[data-language]")) {
      button.setAttribute("aria-checked", String(button.dataset.language === language));
    }
    if (!game) document.title = "draughtsboard — " + t("title");
  }

  translate();
  games.load();
  const asked = new URLSearchParams(location.search);
  if (asked.get("game")) open(asked.get("game"), Number(asked.get("number") || 1));
})();
