"""Recognition: turning the switches' boards into moves, as real hands make them.

`Recogniser` (recogniser.py) is the one entry point; the rest are its rooms:

- turn_boards.py: which boards a turn can pass through (matching boards to moves);
- reading.py: which reading of the sensed board holds as the hands go on;
- turn_evidence.py: what the hands did this turn and what it proves;
- finished.py: whether a move's piece stopped where it was seen, for a reply to
  answer it;
- still_board.py and hand_paths.py: two plies on a still board, and the squares
  a piece passes on its way;
- timers.py and timing.py: what is due when the board stays still, and how long;
- moves.py and reread.py: committing, correcting and re-reading moves;
- piece_identity.py: which piece (colour, king or man) may stand where;
- lights.py and guidance.py: what the LEDs show, and how to put a board right;
- events.py: what the recogniser reports to the session.

docs/play.md says what the board does for each kind of hand.
"""

from host.recognition.recogniser import Recogniser

__all__ = ["Recogniser"]
