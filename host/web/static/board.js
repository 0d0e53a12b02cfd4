// The board as it physically stands: the grid of squares, drawn from the state (or a
// past position), and the keyboard's way across it. Its hands are in hands.js.
//
// Every square is a gridcell of the role=grid; a dark square carries data-square (the
// variant's number), data-piece ("", "W", "B", "WK", "BK") and data-led (the LED's role,
// or ""), and an accessible name that says its piece and its light ("c3, white man, may
// move here").
//
// Keyboard: the board is one Tab stop (a roving tabindex); the arrow keys move across
// it, Home and End along a rank; Enter or Space acts as a click.
"use strict";

class BoardView {
  constructor(root, ghost, actions) {
    this.root = root;
    this.cells = new Map(); // square -> element (dark squares)
    this.grid = []; // [row][column] -> element, as drawn (flipped or not)
    this.key = "";
    this.state = null;
    this.shown = null; // {pieces, leds, blink}: what is drawn (the live board or a past one)
    this.interactive = false;
    this.flipped = false;
    this.language = "en";
    this.focusAt = [0, 0]; // the [row, column] that holds the board's one Tab stop
    // the simulated hands (hands.js), or none for a board only looked at (the review)
    this.hands = actions ? new Hands(this, ghost, actions) : null;
    root.addEventListener("keydown", (e) => this.keyDown(e));
    root.addEventListener("focusin", (e) => this.focused(e));
  }

  // -- drawing ------------------------------------------------------------------

  // `shown`: what to draw ({pieces, leds, blink}); the live state's own by default.
  render(state, interactive, language, shown) {
    this.state = state;
    this.interactive = interactive && this.hands !== null;
    this.language = language || "en";
    this.shown = shown || { pieces: state.pieces, leds: state.leds, blink: state.blink };
    this.root.classList.toggle("interactive", this.interactive);
    const key = state.variant + ":" + state.size + ":" + this.flipped + ":" +
      JSON.stringify(state.squares);
    if (key !== this.key) {
      const rebuilt = this.key !== "";
      const sameBoard = this.key.split(":").slice(0, 2).join(":") === key.split(":").slice(0, 2).join(":");
      this.build(state);
      this.key = key;
      // a flip keeps the piece in the hand
      if (this.hands && !(rebuilt && sameBoard)) this.hands.dropHand();
    }
    const pieces = this.shown.pieces || {};
    const leds = this.shown.leds || {};
    const blink = new Set(this.shown.blink || []);
    for (const [square, cell] of this.cells) {
      const piece = pieces[square] || "";
      const role = leds[square] || "";
      const blinking = blink.has(square);
      if (cell.dataset.piece !== piece) {
        cell.dataset.piece = piece;
        cell.querySelector(".piece").className = pieceClass(piece);
      }
      const held = this.hands && this.hands.held;
      if (piece === "" || (held && held.from !== square)) {
        cell.classList.remove("held");
      }
      cell.dataset.led = role;
      cell.dataset.blink = blinking ? "true" : "false";
      cell.querySelector(".mark").textContent = roleSymbol(role, blinking);
      if (role) {
        cell.style.setProperty("--led", state.colours[role] || "#ffffff");
      } else {
        cell.style.removeProperty("--led");
      }
      const label = this.squareLabel(square, piece, role, blinking);
      if (cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
    }
    this.root.setAttribute("aria-label", say(this.language, "board-name"));
  }

  // "c3, white man, may move here"; "22, empty"; "d4, black king, in the hand".
  squareLabel(square, piece, role, blinking) {
    const lang = this.language;
    const text = words(lang);
    const parts = [this.squareName(square)];
    const hand = this.hands && this.hands.held;
    const held = hand && hand.from === square;
    parts.push(held ? text.pieces[hand.piece] + ", " + text["in-hand"]
      : piece ? text.pieces[piece] : text.empty);
    if (role) {
      const key = role === "wrong" ? (blinking ? "wrong-take" : "wrong-put") : role;
      parts.push(text.roles[key] || role);
      if (blinking && role !== "wrong") parts.push(text.blinking);
    }
    return parts.join(", ");
  }

  squareName(square) {
    const names = this.state && this.state.names;
    return names ? names[square] : say(this.language, "square-n", { n: square });
  }

  build(state) {
    const size = state.size;
    const at = new Map();
    for (const [square, [file, rank]] of Object.entries(state.squares)) {
      at.set(file + "," + rank, Number(square));
    }
    const focusedSquare = this.focusedSquare();
    this.root.replaceChildren();
    this.cells.clear();
    this.grid = [];
    this.label(size);
    this.root.style.setProperty("--size", size);
    const numeric = !state.names;
    const files = "abcdefghij";
    for (let row = 0; row < size; row++) {
      const rank = this.flipped ? row : size - 1 - row;
      const line = document.createElement("div");
      line.setAttribute("role", "row");
      line.className = "row";
      const cells = [];
      for (let column = 0; column < size; column++) {
        const file = this.flipped ? size - 1 - column : column;
        const square = at.get(file + "," + rank);
        const cell = document.createElement("div");
        cell.setAttribute("role", "gridcell");
        cell.tabIndex = -1;
        if (square === undefined) {
          cell.className = "sq light";
          cell.setAttribute("aria-disabled", "true");
          cell.setAttribute("aria-label", files[file] + (rank + 1) + ", " +
            say(this.language, "light-square"));
        } else {
          cell.className = "sq dark";
          cell.dataset.square = String(square);
          cell.dataset.piece = "";
          cell.dataset.led = "";
          const glow = document.createElement("span");
          glow.className = "glow";
          const label = document.createElement("span");
          label.className = "num";
          label.setAttribute("aria-hidden", "true");
          label.textContent = numeric ? String(square) : "";
          const piece = document.createElement("div");
          piece.className = "piece";
          const mark = document.createElement("span");
          mark.className = "mark";
          mark.setAttribute("aria-hidden", "true");
          cell.append(glow, label, piece, mark);
          this.cells.set(square, cell);
        }
        line.append(cell);
        cells.push(cell);
      }
      this.grid.push(cells);
      this.root.append(line);
    }
    // One Tab stop: the square that had it, else the first dark square of the near rank.
    const keep = focusedSquare !== null ? this.cells.get(focusedSquare) : null;
    const start = keep || this.grid[size - 1].find((cell) => cell.dataset.square) ||
      this.grid[size - 1][0];
    this.setTabStop(start, false);
  }

  // File letters and rank numbers around the board, as printed on a real one.
  label(size) {
    let files = "abcdefghij".slice(0, size).split("");
    let ranks = Array.from({ length: size }, (_, i) => String(size - i));
    if (this.flipped) {
      files = files.reverse();
      ranks = ranks.reverse();
    }
    for (const [id, texts] of [["files-top", files], ["files-bottom", files],
                               ["ranks-left", ranks], ["ranks-right", ranks]]) {
      const edge = document.getElementById(id);
      if (!edge) continue;
      edge.replaceChildren(...texts.map((text) => {
        const span = document.createElement("span");
        span.textContent = text;
        return span;
      }));
    }
  }

  flip(flipped) {
    this.flipped = flipped;
    this.root.classList.toggle("flipped", flipped);
    if (this.state) this.render(this.state, this.interactive, this.language);
  }

  // -- the keyboard: one Tab stop, arrows across the board ----------------------------

  focusedSquare() {
    const [row, column] = this.focusAt;
    const cell = this.grid[row] && this.grid[row][column];
    return cell && cell.dataset.square ? Number(cell.dataset.square) : null;
  }

  setTabStop(cell, focus) {
    for (const line of this.grid) for (const other of line) other.tabIndex = -1;
    cell.tabIndex = 0;
    this.grid.forEach((line, row) => {
      const column = line.indexOf(cell);
      if (column >= 0) this.focusAt = [row, column];
    });
    if (focus) cell.focus();
  }

  focused(event) {
    const cell = event.target.closest("[role=gridcell]");
    if (cell && cell.tabIndex !== 0) this.setTabStop(cell, false);
  }

  moveFocus(key) {
    const size = this.grid.length;
    let [row, column] = this.focusAt;
    if (key === "ArrowUp") row = Math.max(0, row - 1);
    else if (key === "ArrowDown") row = Math.min(size - 1, row + 1);
    else if (key === "ArrowLeft") column = Math.max(0, column - 1);
    else if (key === "ArrowRight") column = Math.min(size - 1, column + 1);
    else if (key === "Home") column = 0;
    else if (key === "End") column = size - 1;
    else return false;
    this.setTabStop(this.grid[row][column], true);
    return true;
  }

  keyDown(event) {
    if (event.key === "Escape" && this.hands && this.hands.held) {
      // Escape lets go of the piece in the hand: it goes back where it was lifted.
      event.preventDefault();
      this.hands.act(() => this.hands.putBack());
      return;
    }
    if (this.moveFocus(event.key)) {
      event.preventDefault();
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const cell = event.target.closest("[data-square]");
    event.preventDefault();
    if (!this.interactive || !cell) return;
    const square = Number(cell.dataset.square);
    this.hands.act(() => { if (this.interactive) this.hands.touchSquare(square, null); });
  }

  // -- hands ----------------------------------------------------------------------

  squareAt(x, y) {
    const element = document.elementFromPoint(x, y);
    const cell = element && element.closest("[role=gridcell]");
    if (!cell || !this.root.contains(cell)) return null;
    return cell.dataset.square ? Number(cell.dataset.square) : 0; // 0: a light square
  }

  pieceOn(square) {
    return (this.state && this.state.pieces[square]) || "";
  }

}


function pieceClass(piece) {
  if (!piece) return "piece";
  return "piece " + (piece[0] === "W" ? "white" : "black") + (piece.endsWith("K") ? " king" : "");
}
