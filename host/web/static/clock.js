// The clocks of a timed game (docs/web.md, "The clocks"): both sides' time, large enough
// to read across the table, the running one marked, tenths under 10 s, warning colours
// when time runs low, the flag; the time each move took beside it in the move list; the
// arbiter's pause; and the time control of the new-game dialog.
//
// The host sends both clocks with every state (ms left when the board last looked);
// between states the running one counts down on this device's own clock.
"use strict";

const Clocks = (function () {
  const $ = (id) => document.getElementById(id);
  let clock = null; // the state's "clock" (null: an untimed game)
  let receivedAt = 0; // performance.now() when it arrived
  let lang = "pt-BR";
  let presets = [];
  let send = null;

  function left(side) {
    const shown = side === "W" ? clock.white : clock.black;
    if (clock.running !== side || clock.paused || clock.flagged) return shown;
    return Math.max(0, shown - (performance.now() - receivedAt));
  }

  // 1:05:09, 4:59, 0:09.4 (tenths under 10 s).
  function format(ms) {
    if (ms < 10000) {
      const tenths = Math.floor(ms / 100);
      return "0:0" + Math.floor(tenths / 10) + "." + (tenths % 10);
    }
    const seconds = Math.floor(ms / 1000);
    const h = Math.floor(seconds / 3600);
    const m = Math.floor((seconds % 3600) / 60);
    const s = String(seconds % 60).padStart(2, "0");
    return h ? h + ":" + String(m).padStart(2, "0") + ":" + s : m + ":" + s;
  }

  // What a move took: 0.8s, 12s, 1:05.
  function took(ms) {
    if (ms < 10000) return (Math.round(ms / 100) / 10).toFixed(1) + "s";
    if (ms < 60000) return Math.round(ms / 1000) + "s";
    const seconds = Math.round(ms / 1000);
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function tick() {
    if (!clock) return;
    const warnings = clock.warnings || [];
    const low = Math.max(10, ...warnings) * 1000;
    const critical = Math.min(10, ...warnings) * 1000;
    for (const side of ["W", "B"]) {
      const ms = left(side);
      const face = $("clock-" + side);
      $("clock-" + side + "-time").textContent = format(ms);
      face.dataset.running = String(clock.running === side && !clock.paused);
      face.dataset.flag = String(clock.flagged === side);
      face.dataset.level = ms <= critical ? "critical" : ms <= low ? "low" : "ok";
    }
  }

  function render(state, language, mayControl, control) {
    clock = state.clock;
    presets = state.clock_presets || [];
    lang = language;
    send = control;
    receivedAt = performance.now();
    const card = $("clocks");
    card.hidden = !clock;
    annotateMoves();
    if (!clock) return;
    $("clock-control").textContent = say(lang, "time-control") + " " + clock.control +
      (clock.paused ? " · " + say(lang, "clock-paused") : "");
    const pause = $("btn-pause");
    pause.textContent = say(lang, clock.paused ? "resume" : "pause");
    pause.disabled = !mayControl || Boolean(state.outcome) || !clock.running;
    card.dataset.paused = String(Boolean(clock.paused));
    tick();
  }

  // The time each move took, after its move in the list (a label of its own, so the
  // move's text stays the move).
  function annotateMoves() {
    const spans = document.querySelectorAll("#move-list .m");
    const times = (clock && clock.took) || [];
    spans.forEach((span, i) => {
      if (i < times.length) {
        span.dataset.took = took(times[i]);
        span.title = say(lang, "took", { time: took(times[i]) });
      } else {
        delete span.dataset.took;
        span.removeAttribute("title");
      }
    });
  }

  // The new-game dialog: no clock, the common controls, or one typed in.
  function fillDialog() {
    const select = $("clock-preset");
    const current = select.value;
    select.replaceChildren();
    const option = (value, text) => {
      const item = document.createElement("option");
      item.value = value;
      item.textContent = text;
      select.append(item);
    };
    option("none", say(lang, "no-clock"));
    for (const preset of presets) {
      option(preset.control, say(lang, "preset-" + preset.key) + " · " + preset.control);
    }
    option("custom", say(lang, "custom-clock"));
    const known = [...select.options].some((item) => item.value === current);
    select.value = known ? current : (clock ? clock.control : "none");
    if (!known && clock && select.value !== clock.control) {
      select.value = "custom";
      $("clock-custom").value = clock.control;
    }
    $("clock-custom").hidden = select.value !== "custom";
  }

  function chosen() {
    const value = $("clock-preset").value;
    return value === "custom" ? $("clock-custom").value.trim() || "none" : value;
  }

  $("clock-preset").addEventListener("change", () => {
    $("clock-custom").hidden = $("clock-preset").value !== "custom";
    if (!$("clock-custom").hidden) $("clock-custom").focus();
  });
  $("btn-pause").addEventListener("click", () => {
    if (clock && send) send(clock.paused ? "resume" : "pause");
  });
  $("btn-new").addEventListener("click", fillDialog);
  setInterval(tick, 100);

  return { render, chosen, format, took };
})();
