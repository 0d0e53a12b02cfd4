"""What each hand action costs: the one place where human timing enters recognition.

A story (host/recognition/story.py) explains the switch history by hand actions;
its cost is how surprising those actions are, in units where two stories whose
costs differ by less than MARGIN both still stand. A cost is roughly a negative
log-likelihood: an action every hand makes costs nothing, a clumsy one a little,
one no hand makes (a piece left on a square where the game has none) a lot.

Time enters in two ways.

- An action may be too fast for a hand: a piece that surely arrived within CARRY
  of leaving its square was pushed, not carried (`carry_cost`).
- A condition may last too long: a hand touching a square it passes over does
  not stay there, a knocked piece is put back at once. Such a condition costs
  `rate * time` from when it began, up to a cap (`Term`); that is how time
  passing with the board still becomes evidence.

A change is known only to have happened between two reads of the switches: after
the last read that did not show it, no later than the read that did (`Context.lead`:
how much earlier than its time it may have been; a host that stalled, reading late,
widens it). A judgement that two changes were too close (a push, not a carry) holds
only if even the longest gap the reads allow is too short; one that a condition
lasted too long, only if even the shortest gap is too long. So a late read never
makes a hand's action look impossible. Nor is time the switches went unread (past a
moment, TOGETHER) evidence that the board stood still: a piece may have gone and come
back meanwhile, so it counts towards no condition (`Story.unread`).

Each figure below says the human timing it stands for and where that figure
comes from. Where it is a judgement it says so. The hand families of
tests/host/hands check them from both sides.

Sources:
- [MTM] MTM-1 motion time tables (MTM Association e.V.; 1 TMU = 36 ms): Grasp G1A
  (pick up an isolated object) 2.0 TMU = 72 ms; Release RL1 (open the fingers)
  2.0 TMU = 72 ms; Move M-B over 2.5 cm about 3 TMU = 0.1 s. Stored copies:
  https://www.citeman.com/165-motion-time-systems.html (TMU), the MTM-1 tables at
  https://www.scribd.com/document/706829238/MTM1-Tables (grasp, move).
- [RT] Human simple visual reaction time: 150 to 300 ms, about 250 ms on average,
  100-120 ms only for trained athletes (e.g.
  https://scienceinsights.org/what-is-the-average-reaction-time-of-a-human).
- [PICO] PicoChess waits 3 s for a stable board before asking to set the pieces,
  "enough for sliding pieces around" (github.com/jromang/picochess issue 152);
  lichess's DGT bridge quarantines a doubtful move 2.5 s (github.com/lichess-org/lila
  pull 7417); /work/shared/EBOARD-LESSONS.md: wait 3-4 s before nagging.
- [SCAN] The board itself: two agreeing 10-20 ms scans (hardware/debounce.py).
"""

from __future__ import annotations

from dataclasses import dataclass

# -- the scale ---------------------------------------------------------------------------

#: two stories whose costs differ by less than this both stand: the plies they disagree
#: on are not committed (host/recognition/verdict.py)
MARGIN = 1.0
#: a story costing this much more than the best is dropped (it could only come back
#: through several surprises)
DROP = 7.0
#: putting a board right, a story this close to the best that has another piece on a
#: square makes the board ask to check the colours (asking costs a glance; a wrong
#: colour left unsaid costs the game: judgement)
DOUBT = 2 * MARGIN
#: stories kept at most after each change (the cheapest); with DROP this bounds memory
BEAM = 24
#: a piece left where no story can have it (a wrong board): the cost of "someone put a
#: piece there for no reason of the game". Larger than DROP - MARGIN's worth of
#: ordinary surprises, so a legal story always wins over a wrong one when one exists
WRONG = 3.0

# -- how long a hand stays (the conditions) ------------------------------------------------

#: A piece in the hand touching a square on its way (a slide passing over, a hand
#: hovering) stays well under this; a piece put down stays longer. Putting a piece
#: down deliberately is a position and a release: about 0.07 s to let go [MTM RL1]
#: after the piece has come to rest, and a hand carrying a piece on does not rest it
#: that long. A brush of a square costs MARGIN after this long: a legal final board
#: that stayed SETTLE is the move, not a brush (the commit of a still board).
SETTLE = 0.25
#: A piece touching down on a landing square of a multi-capture (the player shows the
#: way, then goes on), or a pause between two captured pieces taken off, lasts up to
#: about 0.6 s at a normal pace (judgement, from watching club play: a touch-down is a
#: deliberate stop, about twice a placement). Costs MARGIN after HOLD: a shorter
#: capture's final board on the way of a longer one counts once it stayed HOLD.
HOLD = 0.65
#: The position before the last move (or the initial position) shown by hand must stay
#: this long to be read as a takeback (or a new game): setting back two or more pieces
#: on purpose takes a hand at least two placements, and the board must not read a king
#: sliding back across its own square as a takeback (judgement).
CALM = 0.5
#: A board no story explains (only wrong ones) is left alone this long before the
#: board says so and guides: hands are often still moving [PICO].
GRACE = 3.0
#: A knocked piece is put back soon; one left off its square, or on a neighbour, costs
#: MARGIN after this long, then grows slowly to a wrong board by GRACE. Noticing takes a
#: reaction time, 0.15-0.3 s [RT], and pushing it back a short move, about 0.1-0.2 s
#: [MTM M-B at 100-150 %]: about half a second; a player finishing the move first adds
#: the carry, up to a second more (judgement). The pieces one stroke knocked share the
#: term, and the moving piece in the hand that knocked them does not wait meanwhile.
KNOCK_STAYS = 1.0
#: A piece lifted out of turn (a touch) is put back within about a second and a half:
#: a release and a regrasp take 0.14 s [MTM RL1 + G1A], a player hesitating with the
#: piece in the hand longer (judgement).
TOUCH_HELD = 1.5
#: A crowned man lifted to stack a king on it is back within about two seconds: a reach
#: for a captured piece beside the board, a grasp, the stack put down [MTM reach and
#: grasp 0.2-0.3 s each; the rest judgement].
CROWNING = 2.0
#: A player carries the moving piece to its square within about a second; slow players
#: think with it in the hand for several (judgement). Only matters between two stories
#: that disagree on who holds what while the board stays still.
AIR = 1.5
#: A piece of the next player's held in the air since before the move it answers began
#: (touched, then played): no more than a touch would cost, plus this.
HELD_EARLY = 0.5
#: A piece of the next player's lifted before the landing it answers (however little
#: before) and played on is a reply prepared while the opponent moved, carried at once:
#: a move of one or two squares to an exact place takes 0.19-0.37 s [MTM M2C-M6C], a
#: hand already on its piece does not wait for a reaction [RT]. Held on with nothing
#: done, it is as likely a touch its player now thinks over, and a touch lifted before
#: the landing says nothing of where the landing was; so past this (the carry with a
#: grasp's slack: judgement) its thinking costs at once (`in_air`), not after AIR.
PREPARED = 0.5

# -- how fast a hand is (the actions) ---------------------------------------------------------

#: A hand carrying a piece from one square to another needs at least a grasp and a
#: release, 0.14 s at a normal pace [MTM G1A + RL1], about 0.1 s for the fastest hands
#: (MTM's 150 %); a piece that surely arrived within this of leaving its square (even
#: the longest gap the reads allow is shorter) was pushed (a knock sliding it), never
#: carried. A push one square takes 15-50 ms, read up to two scans off [SCAN].
CARRY = 0.1
#: A knock slides a piece onto a neighbour within this of leaving its square (a push
#: one square, 15-50 ms, and a scan); and a piece lifted again this soon after its mover
#: released it is that hand going on with it (its fingers barely off), not a knock.
SLIDE = 0.06
#: Changes this close together are one moment: a scan or two of the switch matrix,
#: and a switch still chattering may show the later change first [SCAN].
TOGETHER = 0.05

# -- what each action costs --------------------------------------------------------------

#: The piece in the hand coming down on a square it does not stay on (a brush, a
#: hover): a hand carrying a piece seldom touches the board on its way, and every
#: touch is a small surprise (judgement). Its rest costs the rest of MARGIN by SETTLE.
BRUSH = 0.3
#: The opponent lifting one of their pieces out of turn (a touch, to be put back).
#: Cheap: hands do it all the time. With a brush's cost it decides when the next
#: player's start proves a move that just landed: once the piece has stood about
#: SETTLE * (1 - TOUCH / MARGIN) = 0.2 s (the old BRUSH).
TOUCH = 0.2
#: A piece knocked off its square (rocked off the switch, or pushed to a neighbour).
KNOCK = 0.5
#: The last move's piece knocked while its mover may still go on with it (home play):
#: the mover's own hand, still over it, is the likelier to have lifted it, so a knock
#: by another costs half a MARGIN more (judgement).
KNOCK_MOVED = KNOCK + MARGIN / 2
#: A second piece lifted out of turn by a hand that already holds one.
SECOND = 0.8
#: The last move's piece lifted again by its player before the opponent acted (to
#: carry it on, touch-move off, or to adjust it): no more surprising than a touch at
#: first; the longer it stood, the surer its move (`reopen_cost`).
REOPEN = 0.2
#: The moving piece put back on its own square after it touched down on landings of a
#: capture (showing the way): the player abandoning a capture they had shown, rarer than
#: a ring capture coming home (judgement).
ABANDON = MARGIN
#: A capture waiting for captured pieces to come off costs at most this (`removing`):
#: a player may pause between two for a second and more [MTM reach and grasp 0.2-0.3 s,
#: hesitations beyond: judgement], or have forgotten them.
STILL_REMOVING = 1.5 * MARGIN
#: A capture done with captured pieces left standing (forgotten). More than a pause
#: between removals can cost beyond MARGIN, so a pause never reads as forgetting by
#: itself; less than that plus the next player's touch, so their start proves it
#: (docs/play.md, "Forgotten pieces").
FORGET = STILL_REMOVING - MARGIN + TOUCH / 2
#: A captured piece put back on its own square (the player changed their mind).
UNDO_REMOVAL = 0.3
#: The piece of a capture lifted before the piece it takes had come down (the last move
#: still in the air): nobody starts taking a piece that is not there yet.
ANTICIPATED = MARGIN
#: A piece that landed and was taken off by the next player's capture within one scan
#: of the switches (never seen standing there): a blitz hand, prepared, can be that
#: fast (judgement; the hands of tests/host/hands/landing.py are).
UNSEEN = 0.8
#: Lifting a piece that has no legal move (the capture alert).
IMMOVABLE = 0.4
#: A hand that says which piece it puts down (the simulator's tray, the page's hand) is
#: believed: a story with a piece of the other colour there, or a man where it said a
#: king, costs a margin more than a wrong board, so the piece said stands even where
#: the only other story is a wrong board (judgement).
TOLD = WRONG + MARGIN
#: A piece that came down faster than a hand can carry it (see `carry_cost`): it was
#: pushed, never carried, so no story of a move explains it (beyond a wrong board).
TOO_FAST = WRONG + MARGIN
#: A piece pushed onto a neighbour whose switch closes before the switch of the square
#: it left opens: a reed switch lets go at a weaker field than it closes at, and the
#: debounce confirms a chattering change a scan late [SCAN]; within TOGETHER only
#: (judgement).
LAG = 0.3
#: The moving piece, already travelling, coming down off its diagonal within TOGETHER
#: of leaving its last square: a hand darting across, or two scans' jitter (judgement).
DART = 0.5


@dataclass(frozen=True, slots=True)
class Term:
    """A condition that grows more costly while it lasts: `rate` per second from
    `start` for `knee` seconds, `slow` per second after, never more than `cap`; `usual`
    is what it costs when it has lasted as long as such conditions usually do."""

    start: float
    rate: float
    cap: float
    usual: float = MARGIN
    knee: float = float("inf")
    slow: float = 0.0
    #: at its cap the condition has lasted past all plausibility: a wrong board
    wrong: bool = False
    #: the condition waits for the hand, and stands still while that hand puts back
    #: pieces it knocked (story.py: `knocked_since`)
    pauses: bool = False

    def at(self, now: float) -> float:
        lasted = max(0.0, now - self.start)
        grown = self.rate * min(lasted, self.knee) + self.slow * max(0.0, lasted - self.knee)
        return min(self.cap, grown)

    def slope(self, now: float) -> tuple[float, float]:
        """How fast the cost grows just after `now`, and until when it grows so."""
        lasted = now - self.start
        capped = self.capped_at()
        if lasted < 0:
            return 0.0, self.start
        if now >= capped:
            return 0.0, float("inf")
        if lasted < self.knee:
            return self.rate, min(self.start + self.knee, capped)
        return self.slow, capped

    def ended(self, end: float) -> float:
        """What the condition costs once it is over at `end`: nothing if it lasted no
        longer than such conditions usually do (until its cost reached `usual`), then
        what it cost beyond. (While it lasts, `at` weighs "it goes on" against "it is
        over"; once over, only an overlong one is a surprise.)"""
        return max(0.0, self.at(end) - self.usual)

    def capped_at(self) -> float:
        """When the cost reaches its cap."""
        if self.rate > 0 and self.cap <= self.rate * self.knee:
            return self.start + self.cap / self.rate
        if self.slow <= 0:
            return float("inf")
        return self.start + self.knee + (self.cap - self.rate * self.knee) / self.slow


def brush(start: float, *, touched: bool = True, hesitate: bool = False) -> Term:
    """A piece in the hand resting on a square it only passes (or a destination it may
    still leave): MARGIN after SETTLE (with the BRUSH it came down with, when it just
    `touched` the square); at its cap, a piece left on a wrong square. On a square no
    move of the piece stops on, a hand may hesitate there with it (`hesitate`): past
    SETTLE it grows more slowly, a wrong board by GRACE [PICO]."""
    usual = MARGIN - (BRUSH if touched else 0.0)
    cap = WRONG - MARGIN + usual
    if not hesitate:
        return Term(start, usual / SETTLE, cap, usual=usual, wrong=True)
    return Term(start, usual / SETTLE, cap, usual=usual, knee=SETTLE,
                slow=(WRONG - MARGIN) / (GRACE - SETTLE), wrong=True)


def touch_down(start: float) -> Term:
    """A piece resting on a landing of a multi-capture (or on its end square with
    captured pieces still coming off): MARGIN after HOLD."""
    return Term(start, MARGIN / HOLD, WRONG, wrong=True)


def removing(start: float) -> Term:
    """A capture landed on its end square with captured pieces still to come off:
    MARGIN after HOLD, but never a wrong board (the player may have forgotten them);
    not while the hand puts back pieces it knocked. Once the next piece comes off, the
    pause cost nothing: people hesitate between removals up to a second and a half
    (STILL_REMOVING), so only while it lasts does it weigh "forgotten" against "still
    coming"."""
    return Term(start, MARGIN / HOLD, STILL_REMOVING, usual=STILL_REMOVING, pauses=True)


def held(start: float) -> Term:
    """A piece touched out of turn, still in the hand: free for TOUCH_HELD, then MARGIN
    a second, up to just under a wrong board (like the moving piece in the hand)."""
    return Term(start + TOUCH_HELD, MARGIN, WRONG - MARGIN / 2)


def crowning(start: float) -> Term:
    """A crowned man in the hand to have a king stacked on it: free for CROWNING, then
    MARGIN a second, up to just under a wrong board (like a touch held)."""
    return Term(start + CROWNING, MARGIN, WRONG - MARGIN / 2)


def in_air(start: float, prepared: float | None = None) -> Term:
    """The moving piece in the hand since `start`: free for AIR, then MARGIN a second, up
    to just under a wrong board (a player may think with the piece in the hand). A piece
    lifted before its turn began is free only until PREPARED after `prepared` (the
    landing it answers), if that is sooner."""
    free = start + AIR
    if prepared is not None:
        free = min(free, prepared + PREPARED)
    return Term(free, MARGIN, WRONG - MARGIN / 2)


def knocked(start: float) -> Term:
    """A knocked piece not yet back: MARGIN after KNOCK_STAYS; then, its player busy
    with the move first, more slowly: a wrong board by GRACE."""
    return Term(start, MARGIN / KNOCK_STAYS, WRONG, knee=KNOCK_STAYS,
                slow=(WRONG - MARGIN) / (GRACE - KNOCK_STAYS), wrong=True)


def lagged(start: float) -> Term:
    """A switch still reading a piece pushed off its square at `start`: it lets go
    within TOGETHER, or the story is dropped (past DROP at once)."""
    return Term(start + TOGETHER, 1000.0, 2 * DROP, wrong=True)


def carry_cost(elapsed: float, steps: float, *, from_rest: bool) -> float:
    """The cost of the moving piece coming down at most `elapsed` seconds after it left
    a square `steps` squares away along a diagonal (infinite: not on one): the longest
    gap the reads of the two changes allow. Picked up from where it stood (`from_rest`:
    its own square), a hand needs CARRY at least to carry it.
    Already travelling, it may slide along its diagonal as fast as a hand moves (its
    magnet leaves one switch and reaches the next within a scan or two); elsewhere
    faster than TOGETHER is a dart (DART)."""
    if from_rest:
        return TOO_FAST if elapsed + 1e-9 < CARRY else 0.0
    return DART if steps == float("inf") and elapsed + 1e-9 < TOGETHER else 0.0


def reopen_cost(stood: float) -> float:
    """The cost of lifting again a piece released at least `stood` seconds ago (to carry
    it on, or to adjust it): REOPEN, plus half a MARGIN a second it stood, up to two seconds
    (judgement: a player changes their mind within a second or two of letting go)."""
    return REOPEN + MARGIN / 2 * min(max(stood, 0.0), 2.0)


def held_early(early: float) -> float:
    """The cost of a ply whose piece was lifted `early` seconds before its turn began (a
    touch played on as the reply): nothing within TOGETHER (one moment), else
    HELD_EARLY and MARGIN a second more, up to two seconds' worth (judgement: a piece
    picked up while the opponent's is still in the air is more often put back)."""
    if early <= TOGETHER:
        return 0.0
    return HELD_EARLY + MARGIN * min(early, 2.0)
