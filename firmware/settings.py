"""Wiring and tuning of the board's microcontroller (Raspberry Pi Pico / RP2040).

Edit this file on the CIRCUITPY drive to match how *this* board is wired. It
only names pins and counts: which key number or LED index sits under which
square is the host's business (the layout TOML), so a board wired in an
unusual order needs no firmware change.

Key number = row * len(COLUMN_PINS) + column, as keypad.KeyMatrix numbers them.
"""

# Switch matrix: one pin per row (rank) and per column (dark square in the rank).
# 8x8 board: 8 rows x 4 columns = 32 keys. 10x10 board: 10 rows x 5 columns.
ROW_PINS = ("GP2", "GP3", "GP4", "GP5", "GP6", "GP7", "GP8", "GP9")
COLUMN_PINS = ("GP10", "GP11", "GP12", "GP13")
# One diode per switch, anode towards the column (keypad's default orientation).
COLUMNS_TO_ANODES = True
# Seconds between matrix scans, and how many identical scans make a change:
# reed contacts bounce for about 1 ms, so 10 ms x 2 scans is plenty.
# (CircuitPython 9.0 cannot debounce in keypad: there the threshold is 1.)
SCAN_INTERVAL = 0.010
DEBOUNCE_THRESHOLD = 2

# NeoPixel chain: data pin, number of LEDs along the chain, colour order.
NEOPIXEL_PIN = "GP16"
LED_COUNT = 32
PIXEL_ORDER = "GRB"
# Upper bound on brightness whatever the host asks: a WS2812 draws ~60 mA at
# full white (32 x 60 mA x 0.2 = 384 mA) and USB gives 500 mA. Raise it only
# with a separate 5 V supply for the LEDs.
MAX_BRIGHTNESS = 0.2

# Link timing, in seconds.
SNAPSHOT_INTERVAL = 1.0  # full occupancy at least this often, besides every change
KEEPALIVE_INTERVAL = 1.0  # keepalive when nothing else was sent for this long
HOST_TIMEOUT = 5.0  # no message from the host this long: LEDs off (stale hints mislead)
WRITE_TIMEOUT = 0.05  # never let a stalled USB host block the scan loop
WATCHDOG_TIMEOUT = 8.0  # reset the board if the loop hangs; 0 disables (max ~8.3 on RP2040)

BOARD_NAME = "draughtsboard-pico"
