// The page's dialogs: a new game (the variant, who plays each side, the clock from
// clock.js) and the saved games to download.
"use strict";

// `page`: {state(), language(), control(command, extra), toast(text)} from app.js.
function setUpDialogs(page) {
  // New game: the variant picker (all eight; those that do not fit a real board are
  // shown but cannot be chosen) and who plays each side.
  $("btn-new").addEventListener("click", () => {
    const lang = page.language();
    const state = page.state();
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
      name.textContent = capitalise(variantLabel(lang, variant.name));
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
    const state = page.state();
    const chosen = document.querySelector("#variant-grid input:checked");
    const players = { W: $("player-W").value, B: $("player-B").value };
    page.control("new", {
      variant: chosen ? chosen.value : state.variant, players, clock: Clocks.chosen(),
    });
  });

  $("btn-games").addEventListener("click", async () => {
    const list = $("games-list");
    list.replaceChildren();
    let games = [];
    try {
      games = (await (await fetch("/api/games")).json()).games;
    } catch (error) { // the host did not answer: say so in the viewer's language
      page.toast(say(page.language(), "offline"));
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
      review.textContent = say(page.language(), "review-one");
      item.append(link, " · ", review);
      list.append(item);
    }
    if (!games.length) {
      const item = document.createElement("li");
      item.textContent = say(page.language(), "no-games");
      list.append(item);
    }
    $("games-dialog").showModal();
  });
}

function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}
