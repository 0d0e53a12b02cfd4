"""The one error type the command line turns into a clean message.

Anything a player or builder can get wrong (an unknown variant, a bad FEN, a
missing file, a board that is not plugged in) is raised as `UserError` with a
sentence meant for them; `host.cli.main` prints it on one line and exits 2.
"""


class UserError(Exception):
    """A mistake in input or set-up, reported to the user without a traceback."""
