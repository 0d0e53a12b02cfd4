// The board as it physically stands, and the simulated hands that move its pieces.
//
// Every dark square is an element with data-square (the variant's number),
// data-piece ("", "W", "B", "WK", "BK") and data-led (the LED's role, or "").
// The hands never send moves: only lift and place, as switches would see them.
//
// Hands, with a mouse or a finger:
// - press on a piece: it is lifted and follows the pointer; release on an
//   empty dark square to put it down there (back on its own square is a
//   lift-and-return); release anywhere else and it falls off the board, as a
//   knocked piece would;
// - a click (press and release without moving) keeps the piece in the hand;
//   the next click on an empty dark square puts it down, so a multi-capture
//   can touch down on every landing square;
// - a click on a piece lit "remove" or of the side not to move, or on a piece of
//   the other colour while holding one, takes it off;
// - the tray holds spare men and kings: drop a king on a man of its colour to
//   crown it (lift, stack, put back).
"use strict";

const DRAG_THRESHOLD = 6; // pixels a pointer must travel before a press becomes a drag

class BoardView {
  constructor(root, ghost, hands) {
    this.root = root;
    this.ghost = ghost;
    // {lift(square, hold), place(square, piece), drop(square)} -> Promise. A piece lifted
    // with hold stays in this page's hand: if the page goes away the host puts it back;
    // drop says the hand let go of it off the board (it fell, or was taken off).
    this.hands = hands;
    this.cells = new Map(); // square -> element
    this.key = "";
    this.state = null;
    this.interactive = false;
    this.hand = null; // {piece, from: square or null (tray)}
    this.press = null; // {x, y, moved, pointerId}
    this.pointer = { x: 0, y: 0 };
    this.onHandChange = () => {};
    root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.pointerUp(e));
    window.addEventListener("pointercancel", () => this.cancelPress());
    root.addEventListener("keydown", (e) => this.keyDown(e));
  }

  // -- drawing ------------------------------------------------------------------

  render(state, interactive) {
    this.state = state;
    this.interactive = interactive;
    this.root.classList.toggle("interactive", interactive);
    const key = state.variant + ":" + state.size + ":" + JSON.stringify(state.squares);
    if (key !== this.key) {
      this.build(state);
      this.key = key;
      this.dropHand();
    }
    const pieces = state.pieces || {};
    const leds = state.leds || {};
    const blink = new Set(state.blink || []);
    for (const [square, cell] of this.cells) {
      const piece = pieces[square] || "";
      const role = leds[square] || "";
      if (cell.dataset.piece !== piece) {
        cell.dataset.piece = piece;
        cell.querySelector(".piece").className = pieceClass(piece);
      }
      if (piece === "" || (this.hand && this.hand.from !== square)) {
        cell.classList.remove("held");
      }
      cell.dataset.led = role;
      cell.dataset.blink = blink.has(square) ? "true" : "false";
      if (role) {
        cell.style.setProperty("--led", state.colours[role] || "#ffffff");
      } else {
        cell.style.removeProperty("--led");
      }
    }
  }

  build(state) {
    const size = state.size;
    const at = new Map();
    for (const [square, [file, rank]] of Object.entries(state.squares)) {
      at.set(file + "," + rank, Number(square));
    }
    this.root.replaceChildren();
    this.cells.clear();
    this.label(size);
    this.root.style.setProperty("--size", size);
    const numeric = !state.names;
    for (let row = 0; row < size; row++) {
      const rank = size - 1 - row;
      for (let file = 0; file < size; file++) {
        const square = at.get(file + "," + rank);
        const cell = document.createElement("div");
        if (square === undefined) {
          cell.className = "sq light";
        } else {
          cell.className = "sq dark";
          cell.dataset.square = String(square);
          cell.dataset.piece = "";
          cell.dataset.led = "";
          cell.tabIndex = 0;
          cell.setAttribute("role", "gridcell");
          cell.setAttribute("aria-label", numeric ? String(square) : state.names[square]);
          const glow = document.createElement("span");
          glow.className = "glow";
          const label = document.createElement("span");
          label.className = "num";
          label.textContent = numeric ? String(square) : "";
          const piece = document.createElement("div");
          piece.className = "piece";
          cell.append(glow, label, piece);
          this.cells.set(square, cell);
        }
        this.root.append(cell);
      }
    }
  }

  // File letters and rank numbers around the board, as printed on a real one.
  label(size) {
    const files = "abcdefghij".slice(0, size).split("");
    const ranks = Array.from({ length: size }, (_, i) => String(size - i));
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

  // -- hands ----------------------------------------------------------------------

  squareAt(x, y) {
    const element = document.elementFromPoint(x, y);
    const cell = element && element.closest("[data-square]");
    return cell && this.root.contains(cell) ? Number(cell.dataset.square) : null;
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
      } else if (piece[0] !== hand.piece[0]) {
        this.hands.lift(square); // taking off a captured piece with the other hand
      } else {
        // Another piece of the same colour: the held one goes back first.
        if (hand.from !== null && !this.pieceOn(hand.from)) {
          this.hands.place(hand.from, hand.piece);
          this.dropHand();
        } else {
          this.letGo();
        }
        this.pickUp(square, piece, event);
      }
      return;
    }
    if (!piece) return;
    // A captured piece (lit "remove") or one of the side not to move is taken off by a
    // click; dragged, it moves like any other (to put a knocked piece right, say).
    const role = this.state.leds[square] || "";
    const takeOff = role === "remove" || piece[0] !== this.state.turn;
    this.pickUp(square, piece, event);
    if (!event || event.pointerId === undefined) {
      if (takeOff) this.letGo();
    } else if (this.press) {
      this.press.takeOff = takeOff;
    }
  }

  pickUp(square, piece, event) {
    this.hand = { piece, from: square };
    const cell = this.cells.get(square);
    if (cell) cell.classList.add("held");
    this.hands.lift(square, true);
    this.startPress(event);
    this.showHand();
  }

  takeFromTray(piece, event) {
    if (!this.interactive) return;
    event.preventDefault();
    this.pointer = { x: event.clientX, y: event.clientY };
    this.letGo();
    this.hand = { piece, from: null };
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

  crown(square, king) {
    // A person lifts the man, stacks the king on it and puts it back.
    this.dropHand();
    this.hands.lift(square);
    return this.hands.place(square, king);
  }

  // The hand lets go of its piece off the board (knocked, or a captured piece taken off):
  // the switches already see the square empty; the host learns the hand is empty.
  letGo() {
    const hand = this.hand;
    this.dropHand();
    if (hand && hand.from !== null) this.hands.drop(hand.from);
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
      this.letGo(); // dropped off the board: the switches no longer see it
      return;
    }
    const piece = this.pieceOn(square);
    if (!piece || square === hand.from) {
      this.putDown(square);
    } else if (stacksOn(hand, piece)) {
      this.crown(square, hand.piece);
    } else {
      this.letGo(); // onto another piece: it rolls off the board
    }
  }

  cancelPress() {
    this.press = null;
  }

  keyDown(event) {
    if (!this.interactive || (event.key !== "Enter" && event.key !== " ")) return;
    const cell = event.target.closest("[data-square]");
    if (!cell) return;
    event.preventDefault();
    this.touchSquare(Number(cell.dataset.square), null);
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
