// The simulated hands that move the board's pieces, for a BoardView (board.js). The hands
// never send moves: only lift and place, as switches would see them.
//
// With a mouse or a finger:
// - press on a piece: it is lifted and follows the pointer; release on an empty dark
//   square to put it down there (back on its own square is a lift-and-return). Released
//   anywhere it cannot stand (off the board, on a light square, on another piece) it
//   goes back to its own square at once, and the page says why (`onSlip`);
// - a click (press and release without moving) keeps the piece in the hand; the next
//   click on an empty dark square puts it down, so a multi-capture can touch down on
//   every landing square;
// - a click on a piece lit "remove", or on a piece the side to move may capture this
//   turn, takes it off; a click on any other piece picks it up (the held one goes back
//   first);
// - the tray holds spare men and kings: drop a king on a man of its colour to crown it
//   (lift, stack, put back).
// With the keyboard, Enter or Space on a square acts as a click, and a tray piece is a
// button: Enter takes it into the hand (BoardView sends the keys here).
//
// The hands never keep their own idea of the pieces: every press, release and key is
// decided from the board's state. While an action they sent is still unanswered (the
// board has not sensed it yet), the next input waits for the answer, which brings the
// board as it then stands (`act`): a piece put down and lifted again with two quick
// clicks is lifted again, whatever was last drawn.
"use strict";

const DRAG_THRESHOLD = 6; // pixels a pointer must travel before a press becomes a drag

class Hands {
  constructor(view, ghost, actions) {
    this.view = view;
    this.ghost = ghost;
    // {lift(square, hold), place(square, piece), drop(square)} -> Promise. A piece lifted
    // with hold stays in this page's hand: if the page goes away the host puts it back;
    // drop says the hand let go of it off the board (a captured piece taken off).
    // {busy()}: an action sent is not answered yet; {settled()} -> Promise resolved once
    // every action sent so far is answered and the board's state that came back is drawn.
    this.actions = actions;
    this.inputs = Promise.resolve(); // the inputs waiting for the board, in order
    this.waiting = 0; // how many inputs wait for the board
    this.held = null; // {piece, from: square or null (tray), byKey}
    this.press = null; // {x, y, moved, pointerId, takeOff}
    this.pointer = { x: 0, y: 0 };
    this.onHandChange = () => {};
    this.onSlip = () => {};
    view.root.addEventListener("pointerdown", (e) => this.pointerDown(e));
    window.addEventListener("pointermove", (e) => this.pointerMove(e));
    window.addEventListener("pointerup", (e) => this.act(() => this.pointerUp(e)));
    window.addEventListener("pointercancel", () => this.cancelPress());
  }

  // Do `input` now if the board has answered everything these hands sent, else once it
  // has (after the inputs already waiting), so it is decided from the board's state.
  act(input) {
    if (this.waiting === 0 && !this.actions.busy()) {
      input();
      return;
    }
    this.waiting += 1;
    this.inputs = this.inputs
      .then(() => this.actions.settled())
      .then(() => { this.waiting -= 1; input(); })
      .catch((error) => { console.error(error); });
  }

  pointerDown(event) {
    if (!this.view.interactive || event.button > 0) return;
    const cell = event.target.closest("[data-square]");
    if (!cell) return;
    event.preventDefault();
    this.pointer = { x: event.clientX, y: event.clientY };
    const square = Number(cell.dataset.square);
    this.act(() => { if (this.view.interactive) this.touchSquare(square, event); });
  }

  // May the hand take the piece on `square` off the board? A captured piece lit
  // "remove", or a piece of the other side that the side to move may capture this turn
  // (taken off before the capturer is lifted, or while it is in the hand).
  mayTakeOff(square, piece) {
    const state = this.view.state;
    if ((state.leds[square] || "") === "remove") return true;
    return piece[0] !== state.turn && (state.capturable || []).includes(square);
  }

  // A press (or a key) on a dark square.
  touchSquare(square, event) {
    const piece = this.view.pieceOn(square);
    const hand = this.held;
    if (hand) {
      if (!piece) {
        this.putDown(square);
      } else if (square === hand.from) {
        this.putDown(square); // the held piece's own square: it goes back
      } else if (stacksOn(hand, piece)) {
        this.crown(square, hand.piece);
      } else if (this.mayTakeOff(square, piece)) {
        this.actions.lift(square); // taking off a captured piece with the other hand
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
    this.held = { piece, from: square, byKey: !event };
    const cell = this.view.cells.get(square);
    if (cell) cell.classList.add("held");
    this.actions.lift(square, true);
    this.startPress(event);
    this.showHand();
  }

  takeFromTray(piece, event) {
    if (!this.view.interactive) return;
    if (event && event.pointerId !== undefined) {
      event.preventDefault();
      this.pointer = { x: event.clientX, y: event.clientY };
    }
    this.putBack();
    this.held = { piece, from: null, byKey: !event };
    this.startPress(event);
    this.showHand();
  }

  startPress(event) {
    if (event && event.pointerId !== undefined) {
      this.press = { x: event.clientX, y: event.clientY, moved: false, pointerId: event.pointerId };
    }
  }

  putDown(square) {
    const hand = this.held;
    this.dropHand();
    return this.actions.place(square, hand.piece);
  }

  // The held piece goes back where it was lifted (nothing if it came from the tray).
  putBack() {
    const hand = this.held;
    if (!hand) return;
    if (hand.from !== null && !this.view.pieceOn(hand.from)) {
      this.putDown(hand.from);
    } else {
      this.dropHand();
    }
  }

  crown(square, king) {
    // A person lifts the man, stacks the king on it and puts it back.
    this.dropHand();
    this.actions.lift(square);
    return this.actions.place(square, king);
  }

  // The hand lets go of its piece off the board (a captured piece taken off): the
  // switches already see the square empty; the host learns the hand is empty.
  letGo() {
    const hand = this.held;
    this.dropHand();
    if (hand && hand.from !== null) this.actions.drop(hand.from);
  }

  // A piece released where it cannot stand goes back where it came from, and the page
  // says why (a spare piece from the tray simply goes back to the tray).
  slip(reason, to) {
    const hand = this.held;
    if (!hand) return;
    if (hand.from === null) {
      this.dropHand();
      this.onSlip("slip-tray", {});
      return;
    }
    const from = this.view.squareName(hand.from);
    this.putBack();
    this.onSlip(reason, { square: from, to: to === null ? "" : this.view.squareName(to) });
  }

  // The hand is empty (its piece was put down, or the board was set up afresh).
  dropHand() {
    if (this.held && this.held.from !== null) {
      const cell = this.view.cells.get(this.held.from);
      if (cell) cell.classList.remove("held");
    }
    this.held = null;
    this.press = null;
    this.showHand();
  }

  pointerMove(event) {
    this.pointer = { x: event.clientX, y: event.clientY };
    const press = this.press;
    // Only travel with the button still down makes a drag: a press whose release waits
    // for the board (`act`) must not become one because the pointer went on to the next
    // square after letting go.
    if (press && event.pointerId === press.pointerId && !press.moved && event.buttons !== 0) {
      const dx = event.clientX - press.x;
      const dy = event.clientY - press.y;
      if (dx * dx + dy * dy > DRAG_THRESHOLD * DRAG_THRESHOLD) press.moved = true;
    }
    if (this.held) this.placeGhost();
  }

  pointerUp(event) {
    const press = this.press;
    if (!press || event.pointerId !== press.pointerId) return;
    this.press = null;
    if (!this.held) return;
    // (a press that waited for the board missed the moves before it: the release says)
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (dx * dx + dy * dy > DRAG_THRESHOLD * DRAG_THRESHOLD) press.moved = true;
    if (!press.moved) {
      if (press.takeOff) this.letGo(); // clicked off the board
      return; // otherwise a click: the piece stays in the hand
    }
    const square = this.view.squareAt(event.clientX, event.clientY);
    const hand = this.held;
    if (square === null) {
      this.slip("slip-off", null); // dropped off the board
      return;
    }
    if (square === 0) {
      this.slip("slip-light", null);
      return;
    }
    const piece = this.view.pieceOn(square);
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
    const hand = this.held;
    this.ghost.hidden = !hand;
    if (hand) {
      this.ghost.firstElementChild.className = pieceClass(hand.piece);
      this.placeGhost();
    }
    this.onHandChange(hand);
  }

  placeGhost() {
    if (this.held && this.held.byKey) {
      // Taken with the keyboard: no pointer to follow (the note under the tray says it).
      this.ghost.hidden = true;
      return;
    }
    const size = this.view.root.clientWidth / (this.view.state ? this.view.state.size : 8);
    this.ghost.style.setProperty("--cell", size + "px");
    this.ghost.style.transform =
      "translate(" + (this.pointer.x - size / 2) + "px," + (this.pointer.y - size / 2) + "px)";
  }
}

// A spare king from the tray dropped on a piece of its colour is stacked on it (crowning).
function stacksOn(hand, piece) {
  return hand.from === null && hand.piece.endsWith("K") && piece[0] === hand.piece[0];
}
