"""Runs once at power-on, before USB starts: turn on the second USB serial port.

CircuitPython exposes only the REPL console over USB by default. The host
speaks the wire protocol on a separate binary "data" port so that debug prints
on the console can never corrupt a frame. On Linux the data port is usually
the second /dev/ttyACM*. Changes here take effect after a hard reset (unplug
and replug, or press RESET), not after a soft reload.
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)
