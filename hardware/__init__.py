"""The board as a device: occupancy snapshots in, LED frames out. No rules.

Squares here are numbered 1..N in *reading order from White's seat*: row by
row from the far row, left to right, dark squares only. On a board in its
normal orientation that is exactly the Brazilian/International numbering; the
host maps it to each variant's own numbering. Hardware-only packages (RPi.GPIO,
neopixel, pyserial) are imported inside the backend that needs them.
"""
