"""The live session: board snapshots in, moves journaled, announced and lit.

One `Session` owns a recogniser and wires its events to the outside world in a
fixed order: journal first (fsync'd), then announcements, then LEDs, so a
power cut can never lose a move anyone has heard about. Board commands with a
spare piece (host/gestures/commands.py) are read from the same snapshots and carried
out by the same methods as typed commands and the page's controls. Every
change is also published on the session's update bus (`subscribe`), which the
web page, the status file and the club's MQTT publisher (host/broadcast) listen
to, and so does the computer opponent (host/computer/player.py), which plays
through `allow_only`, `players` and `overlay`.

The session keeps no time of its own and does no I/O beyond the journal: the
live runtime (`host.live.runtime`) feeds it snapshots and commands on the real clock,
`host.streams.events.run_stream` feeds it a recorded stream on a simulated clock
(tests, the crash test, bug reports), and every timer runs on the time it is
given. Only the date a game starts (the journal's record, the PDN Date tag) is
read from the wall clock, since that is what a player files the game under.

`Session` (core.py) is the one entry point; the rest are its rooms, mixed into it:

- core.py: its state, starting or resuming a game, and its public calls
  (observe, new game, settings, typed commands, resign);
- events.py: what each recogniser event does outside: the journal first, then
  the saved game, the announcer and the update bus;
- board_commands.py: the spare piece's board commands, bridged to those calls;
- leds.py: which frame the LEDs show, blinking, and when they are lit again.
"""

from host.session.core import COMANDOS, COMMANDS, Session

__all__ = ["COMANDOS", "COMMANDS", "Session"]
