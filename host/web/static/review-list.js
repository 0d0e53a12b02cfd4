// The games a review can be of: the saved and uploaded games, and the upload of a PDN file.
//
// new GameList(language, open): `language()` says the viewer's language now, `open(id,
// number)` opens a game's review. `load()` asks the host for the list and draws it;
// `render()` draws it again (another language); `showError(text)` says what went wrong
// under the upload button. An upload needs the token this browser keeps, when the board
// has one; a file over the host's limit is refused here before it is sent.
"use strict";

// JSON from the host; an answer that is not 2xx throws an Error carrying the host's
// `code` and `detail` (reviewProblem says it in the viewer's language).
async function reviewFetch(url, options) {
  const response = await fetch(url, options);
  let body = null;
  try {
    body = await response.json();
  } catch (error) {
    body = { error: response.statusText };
  }
  if (!response.ok) {
    const error = new Error(body.error || response.statusText);
    error.code = body.code;
    error.detail = body.detail || "";
    throw error;
  }
  return body;
}

class GameList {
  constructor(language, open) {
    this.language = language;
    this.open = open;
    this.entries = [];
    this.variantNames = {};
    this.list = document.getElementById("games");
    this.input = document.getElementById("upload");
    this.error = document.getElementById("upload-error");
    this.input.addEventListener("change", () => this.upload());
  }

  t(key, values) {
    return reviewSay(this.language(), key, values);
  }

  async load() {
    try {
      const body = await reviewFetch("/api/review/games");
      this.entries = body.games;
      this.variantNames = body.variant_names;
    } catch (error) {
      this.entries = [];
    }
    this.render();
  }

  render() {
    this.list.replaceChildren();
    const names = this.variantNames[this.language()] || {};
    for (const entry of this.entries) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link";
      button.dataset.id = entry.id;
      const language = this.language();
      button.textContent = [entry.white, entry.black].some(reviewKnown)
        ? reviewPlayer(language, entry.white, "W") + " – " + reviewPlayer(language, entry.black, "B")
        : entry.name;  // two unknown players: the file's name tells games apart
      button.addEventListener("click", () => this.open(entry.id, 1));
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = [entry.result, names[entry.variant] || entry.variant, entry.date,
        entry.games > 1 ? this.t("n-games", { n: entry.games }) : ""]
        .filter(reviewKnown).join(" · ");
      item.append(button, meta);
      this.list.append(item);
    }
    if (!this.entries.length) {
      const item = document.createElement("li");
      item.className = "empty";
      item.textContent = this.t("no-games");
      this.list.append(item);
    }
  }

  showError(text) {
    this.error.textContent = text;
    this.error.hidden = !text;
  }

  async upload() {
    const file = this.input.files[0];
    if (!file) return;
    this.input.value = "";
    if (file.size > REVIEW_MAX_UPLOAD) {
      this.showError(this.t("error-too-large", { max: REVIEW_MAX_UPLOAD / 1024 }));
      return;
    }
    this.showError(this.t("uploading"));
    const token = localStorage.getItem("draughtsboard-token"); // as the board's page keeps it
    try {
      const body = await reviewFetch("/api/review/upload", {
        method: "POST",
        body: file,
        headers: Object.assign({ "Content-Type": "application/x-portable-draughts-notation" },
          token ? { Authorization: "Bearer " + token } : {}),
      });
      this.showError("");
      const first = body.games.find((entry) => !entry.error) || body.games[0];
      await this.open(body.id, first.number);
    } catch (error) {
      this.showError(reviewProblem(this.language(), error));
    }
  }
}
