// The board as it physically stands, and the simulated hands that move its pieces.
//
// Every square is a gridcell of the role=grid; a dark square carries data-square (the
// variant's number), data-piece ("", "W", "B", "WK", "BK") and data-led (the LED's role,
// or ""), and an accessible name that says its piece and its light ("c3, white man, may
// move here"). The hands never send moves: only lift and place, as switches would see.
//
// Hands, with a mouse or a finger:
// - press on a piece: it is lifted and follows the pointer; release on an empty dark
//   square to put it down there (back on its own square is a lift-and-return). Released
//   anywhere it cannot stand (off the board, on a light square, on another piece) it
//   goes back to its own square at once, and the page says why (`onSlip`);
// - a click (press and release without moving) keeps the piece in the hand; the next
//   click on an empty dark square puts it down, so a multi-capture can touch down on
//   every landing square;
// - a click on a piece lit "remove", or on a piece the held one may capture, takes it
//   off; a click on any other piece picks it up (the held one goes back first);
// - the tray holds spare men and kings: drop a king on a man of its colour to crown it
//   (lift, stack, put back).
//
// Keyboard: the board is one Tab stop (a roving tabindex); the arrow keys move across
// it, Home and End along a rank; Enter or Space acts as a click. A tray piece is a
// button: Enter takes it into the hand, then Enter on a square puts it down.
"use strict";

const DRAG_THRESHOLD = 6; // pixels a pointer must travel before a press becomes a drag

class BoardView {
  constructor(root, ghost, hands) {
    this.root = root;
    this.ghost = ghost;
    // {lift(square, hold), place(square, piece), drop(square)} -> Promise. A piece lifted
    // with hold stays in this page's hand: if the page goes away the host puts it back;
    // drop says the hand let go of it off the board (a captured piece taken off).
    this.hands = hands;
    this.cells = new Map(); // square -> element (dark squares)
    this.grid = []; // [row][column] -> element, as drawn (flipped or not)
    this.key = "";
    this.state = null;
    this.shown = null; // {pieces, leds, blink}: what is drawn (the live board or a past one)
    this.interactive = false;
    this.flipped = false;
    this.language = "en";
    this.hand = null; // {piece, from: square or null (tray)}
    this.press = null; // {x, y, moved, pointerId, takeOff}
    this.pointer = { x: 0, y: 0 };
    this.focusAt = [0, 0]; // the [row, column] that holds the board's one Tab stop
    this.onHandChange = () => {};
    this.onSlip = () => {};
    root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.pointerUp(e));
    window.addEventListener("pointercancel", () => this.cancelPress());
    root.addEventListener("keydown", (e) => this.keyDown(e));
    root.addEventListener("focusin", (e) => this.focused(e));
  }

  // -- drawing ------------------------------------------------------------------

  // `shown`: what to draw ({pieces, leds, blink}); the live state's own by default.
  render(state, interactive, language, shown) {
    this.state = state;
    this.interactive = interactive;
    this.language = language;
    this.shown = shown || { pieces: state.pieces, leds: state.leds, blink: state.blink };
    this.root.classList.toggle("interactive", interactive);
    const key = state.variant + ":" + state.size + ":" + this.flipped + ":" +
      JSON.stringify(state.squares);
    if (key !== this.key) {
      const rebuilt = this.key !== "";
      const sameBoard = this.key.split(":").slice(0, 2).join(":") === key.split(":").slice(0, 2).join(":");
      this.build(state);
      this.key = key;
      if (!(rebuilt && sameBoard)) this.dropHand(); // a flip keeps the piece in the hand
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
      if (piece === "" || (this.hand && this.hand.from !== square)) {
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
    this.root.setAttribute("aria-label", say(language, "board-name"));
  }

  // "c3, white man, may move here"; "22, empty"; "d4, black king, in the hand".
  squareLabel(square, piece, role, blinking) {
    const lang = this.language;
    const text = words(lang);
    const parts = [this.squareName(square)];
    const held = this.hand && this.hand.from === square;
    parts.push(held ? text.pieces[this.hand.piece] + ", " + text["in-hand"]
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
    if (this.moveFocus(event.key)) {
      event.preventDefault();
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const cell = event.target.closest("[data-square]");
    event.preventDefault();
    if (!this.interactive || !cell) return;
    this.touchSquare(Number(cell.dataset.square), null);
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

  pointerDown(event) {
    if (!this.interactive || event.button > 0) return;
    const cell = event.target.closest("[data-square]");
    if (!cell) return;
    event.preventDefault();
    this.pointer = { x: event.clientX, y: event.clientY };
    this.touchSquare(Number(cell.dataset.square), event);
  }

  // May the hand take the piece on `square` off the board? A captured piece lit
  // "remove", or, while a piece of the side to move is in the hand, one it may capture.
  mayTakeOff(square, piece) {
    const state = this.state;
    if ((state.leds[square] || "") === "remove") return true;
    const hand = this.hand;
    return Boolean(hand && hand.from !== null && hand.piece[0] === state.turn &&
      piece[0] !== state.turn && (state.capturable || []).includes(square));
  }

  // A press (or a key) on a dark square.
  touchSquare(square, event) {
    const piece = this.pieceOn(square);
    const hand = this.hand;
    if (hand) {
      if (!piece) {
        this.putDown(square);
      } else if (square === hand.from) {
        this.putDown(square); // the held piece's own square: it goes back
      } else if (stacksOn(hand, piece)) {
        this.crown(square, hand.piece);
      } else if (this.mayTakeOff(square, piece)) {
        this.hands.lift(square); // taking off a captured piece with the other hand
      } else {
        // Another piece: the held one goes back first, then this one is picked up.
        this.putBack();
        this.pickUp(square, piece, event);
      }
      return;
    }
    if (!piece) return;
    // A captured piece (lit "remove") is taken off by a click; dragged, it moves like any
    // other (to put a knocked piece right, say). Any other piece is picked up.
    const takeOff = this.mayTakeOff(square, piece);
    this.pickUp(square, piece, event);
    if (!event || event.pointerId === undefined) {
      if (takeOff) this.letGo();
    } else if (this.press) {
      this.press.takeOff = takeOff;
    }
  }

  pickUp(square, piece, event) {
    this.hand = { piece, from: square, byKey: !event };
    const cell = this.cells.get(square);
    if (cell) cell.classList.add("held");
    this.hands.lift(square, true);
    this.startPress(event);
    this.showHand();
  }

  takeFromTray(piece, event) {
    if (!this.interactive) return;
    if (event && event.pointerId !== undefined) {
      event.preventDefault();
      this.pointer = { x: event.clientX, y: event.clientY };
    }
    this.putBack();
    this.hand = { piece, from: null, byKey: !event };
    this.startPress(event);
    this.showHand();
  }

  startPress(event) {
    if (event && event.pointerId !== undefined) {
      this.press = { x: event.clientX, y: event.clientY, moved: false, pointerId: event.pointerId };
    }
  }

  putDown(square) {
    const hand = this.hand;
    this.dropHand();
    return this.hands.place(square, hand.piece);
  }

  // The held piece goes back where it was lifted (nothing if it came from the tray).
  putBack() {
    const hand = this.hand;
    if (!hand) return;
    if (hand.from !== null && !this.pieceOn(hand.from)) {
      this.putDown(hand.from);
    } else {
      this.dropHand();
    }
  }

  crown(square, king) {
    // A person lifts the man, stacks the king on it and puts it back.
    this.dropHand();
    this.hands.lift(square);
    return this.hands.place(square, king);
  }

  // The hand lets go of its piece off the board (a captured piece taken off): the
  // switches already see the square empty; the host learns the hand is empty.
  letGo() {
    const hand = this.hand;
    this.dropHand();
    if (hand && hand.from !== null) this.hands.drop(hand.from);
  }

  // A piece released where it cannot stand goes back where it came from, and the page
  // says why (a spare piece from the tray simply goes back to the tray).
  slip(reason, to) {
    const hand = this.hand;
    if (!hand) return;
    if (hand.from === null) {
      this.dropHand();
      this.onSlip("slip-tray", {});
      return;
    }
    const from = this.squareName(hand.from);
    this.putBack();
    this.onSlip(reason, { square: from, to: to === null ? "" : this.squareName(to) });
  }

  // The hand is empty (its piece was put down, or the board was set up afresh).
  dropHand() {
    if (this.hand && this.hand.from !== null) {
      const cell = this.cells.get(this.hand.from);
      if (cell) cell.classList.remove("held");
    }
    this.hand = null;
    this.press = null;
    this.showHand();
  }

  pointerMove(event) {
    this.pointer = { x: event.clientX, y: event.clientY };
    const press = this.press;
    if (press && event.pointerId === press.pointerId && !press.moved) {
      const dx = event.clientX - press.x;
      const dy = event.clientY - press.y;
      if (dx * dx + dy * dy > DRAG_THRESHOLD * DRAG_THRESHOLD) press.moved = true;
    }
    if (this.hand) this.placeGhost();
  }

  pointerUp(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.pointerId) return;
    this.press = null;
    if (!this.hand) return;
    if (!press.moved) {
      if (press.takeOff) this.letGo(); // clicked off the board
      return; // otherwise a click: the piece stays in the hand
    }
    const square = this.squareAt(event.clientX, event.clientY);
    const hand = this.hand;
    if (square === null) {
      this.slip("slip-off", null); // dropped off the board
      return;
    }
    if (square === 0) {
      this.slip("slip-light", null);
      return;
    }
    const piece = this.pieceOn(square);
    if (!piece || square === hand.from) {
      this.putDown(square);
    } else if (stacksOn(hand, piece)) {
      this.crown(square, hand.piece);
    } else {
      this.slip("slip-occupied", square); // onto another piece
    }
  }

  cancelPress() {
    this.press = null;
  }

  showHand() {
    const hand = this.hand;
    this.ghost.hidden = !hand;
    if (hand) {
      this.ghost.firstElementChild.className = pieceClass(hand.piece);
      this.placeGhost();
    }
    this.onHandChange(hand);
  }

  placeGhost() {
    if (this.hand && this.hand.byKey) {
      // Taken with the keyboard: no pointer to follow (the note under the tray says it).
      this.ghost.hidden = true;
      return;
    }
    const size = this.root.clientWidth / (this.state ? this.state.size : 8);
    this.ghost.style.setProperty("--cell", size + "px");
    this.ghost.style.transform =
      "translate(" + (this.pointer.x - size / 2) + "px," + (this.pointer.y - size / 2) + "px)";
  }
}

// A spare king from the tray dropped on a piece of its colour is stacked on it (crowning).
function stacksOn(hand, piece) {
  return hand.from === null && hand.piece.endsWith("K") && piece[0] === hand.piece[0];
}

function pieceClass(piece) {
  if (!piece) return "piece";
  return "piece " + (piece[0] === "W" ? "white" : "black") + (piece.endsWith("K") ? " king" : "");
}
