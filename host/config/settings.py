"""The settings table: every key a board can be given, declared once.

Why one table (`SETTINGS`): each key is declared once, with its kind (what is
allowed, host/config/kinds.py), its help and an example, and the command-line
flags (flags.py), `config --check` (layering.py) and docs/config.md (docs.py)
all derive from it. Adding a setting is one `Setting(...)` row in `SETTINGS`
below and one field of `Config` with its default, both in this file; then add
the key to the flag test in tests/host/test_config.py and regenerate the table
in docs/config.md (the test says how).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from host.config.kinds import (
    BoardId,
    BoardSpec,
    Boolean,
    BrokerUrl,
    Choice,
    ClockControl,
    Colours,
    Kind,
    LayoutRef,
    ListenAddress,
    Number,
    PathValue,
    PlayerKind,
    Seconds,
    Text,
    Token,
)
from host.config.paths import default_data_dir

LANGUAGES = ("pt-BR", "en")
HINT_LEVELS = ("off", "captures", "full")
LOG_LEVELS = ("debug", "info", "warning", "error")
#: the computer's strength when a side is set to plain "computer" (host/players.py)
COMPUTER_LEVELS = range(1, 5)

#: Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
DEFAULT_COLOURS: dict[str, tuple[int, int, int]] = {
    "must-capture": (230, 159, 0),  # orange
    "capture-alert": (230, 159, 0),  # orange, blinking
    "destination": (0, 114, 178),  # blue
    "landing": (86, 180, 233),  # sky blue
    "remove": (213, 94, 0),  # vermillion
    "crown": (240, 228, 66),  # yellow
    "wrong": (204, 121, 167),  # reddish purple
    "last-move": (40, 40, 40),  # dim white
    "end": (0, 158, 115),  # bluish green
    # board commands (host/gestures/commands.py)
    "command": (255, 255, 255),  # the command piece: white
    "resign": (213, 94, 0),  # vermillion, blinking
    "draw": (0, 158, 115),  # bluish green
    "takeback": (240, 228, 66),  # yellow
    "choice": (0, 114, 178),  # blue: a variant or level chosen at the start
    "hint": (86, 180, 233),  # sky blue: ask for the best move
    "clock": (0, 114, 178),  # blue: stop the clocks, or run them again (a timed game)
    # the computer's move, or a hint (host/computer/player.py): the piece to move
    "move-from": (255, 255, 255),  # white
}


@dataclass(frozen=True)
class Setting:
    """One key: its kind, what it does (docs and `--help`), and an example value.

    `documented_default` is the default as docs/config.md words it, for a default
    that is not a plain value (one derived from another key or from the variant);
    without it the docs show `Config`'s default, or "none" when that is None.
    """

    key: str
    kind: Kind
    help: str
    example: str
    documented_default: str | None = None

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")


def _variants() -> tuple[str, ...]:
    from engine import VARIANTS

    return tuple(VARIANTS)


SETTINGS: tuple[Setting, ...] = (
    Setting("variant", Choice(_variants(), fold_case=True), "rules to play by", '"brazilian"'),
    Setting("language", Choice(LANGUAGES), "language of announcements and messages", '"pt-BR"'),
    Setting("speech", Boolean(), "speak announcements with espeak-ng", "true"),
    Setting(
        "hints",
        Choice(HINT_LEVELS),
        "how much the LEDs help: all hints, only capture help, or only what the board needs",
        '"full"',
    ),
    Setting("board", BoardSpec(), "which board to drive", '"gpio"'),
    Setting(
        "layout",
        LayoutRef(),
        "the board's wiring (default: standard-8x8 or standard-10x10 by the variant)",
        '"standard-8x8"',
        documented_default="standard-NxN for the variant",
    ),
    Setting("brightness", Number(0, 1), "LED brightness (the layout's cap still applies)", "0.3"),
    Setting(
        "colours",
        Colours(),
        "LED colour per role (see docs/play.md)",
        '{ destination = "#0072b2" }',
        documented_default="Okabe-Ito (below)",
    ),
    Setting(
        "data_dir",
        PathValue(),
        "folder for the journal, saved games and the status file",
        '"/var/lib/draughtsboard"',
        documented_default="~/.local/share/draughtsboard",
    ),
    Setting(
        "games_dir",
        PathValue(),
        "folder for finished games (default: DATA_DIR/games)",
        '"games"',
        documented_default="DATA_DIR/games",
    ),
    Setting(
        "journal",
        PathValue(),
        "the current game's journal (default: DATA_DIR/journal.jsonl)",
        '"journal.jsonl"',
        documented_default="DATA_DIR/journal.jsonl",
    ),
    Setting("log_level", Choice(LOG_LEVELS), "least important log message written", '"info"'),
    Setting(
        "log_file",
        PathValue(optional=True),
        'also log to this file, rotated at 1 MB, 3 kept ("" for none)',
        '"/var/log/draughtsboard/board.log"',
    ),
    Setting("gestures", Boolean(), "board commands with a spare piece (docs/play.md)", "true"),
    Setting(
        "gesture_hold",
        Number(1, 10, unit=" seconds"),
        "how long the command piece must stay still before the board answers",
        "2.0",
    ),
    Setting(
        "touch_move",
        Boolean(),
        "club play: a piece released on a legal square has moved; off (home play), a move "
        "whose piece goes on before the opponent acts is read again (docs/play.md)",
        "false",
    ),
    Setting(
        "computer_level",
        Number(COMPUTER_LEVELS.start, COMPUTER_LEVELS.stop - 1, integer=True),
        'the level of a side set to plain "computer" (1 beginner to 4 strongest)',
        "2",
    ),
    Setting(
        "white",
        PlayerKind(),
        "who plays White: a person, or the computer (also chosen on the board at the start "
        "and in the page's new-game dialog)",
        '"human"',
    ),
    Setting("black", PlayerKind(), "who plays Black (as white)", '"computer:3"'),
    Setting(
        "clock",
        ClockControl(),
        "time each game: minutes each + seconds added after every move (the board is the "
        "clock: docs/play.md, \"Timed games\"); the page's new-game dialog offers others",
        '"5+3"',
    ),
    Setting(
        "clock_warnings",
        Seconds(),
        "say the time left when a player's clock passes these seconds (a timed game)",
        "[60, 10]",
    ),
    Setting(
        "listen",
        ListenAddress(),
        "serve the board's page here; an address other than loopback serves the LAN, "
        "where controls need the token (docs/web.md)",
        '"0.0.0.0:8080"',
    ),
    Setting(
        "token",
        Token(),
        "the token the page's controls need (default: none on loopback; on the LAN one "
        "made once and kept in the data folder's page-token, rotated by run --new-token)",
        '"correct-horse-9"',
    ),
    # -- broadcast: publishing this board's games to a club's MQTT broker ------------------
    # With no `broker` nothing below is used, and the MQTT client itself
    # (host/broadcast/) is imported only when one is set. The password is a file, never
    # a setting, so it is not shown by `draughtsboard config` nor on a command line.
    Setting("broker", BrokerUrl(),
            "publish this board's games to a club's MQTT broker (docs/broadcast.md)",
            '"mqtt://clube.local:1883"'),
    Setting("board_id", BoardId(), "this board's name on the broker (needed with broker)",
            '"b7"'),
    Setting("broker_username", Text(),
            "user at the broker (default with a password file: the board id)", '"b7"'),
    Setting("broker_password_file", PathValue(optional=True),
            "file holding the broker password (draughtsboard broker-config writes it)",
            '"broker-password"'),
    Setting("broker_ca_file", PathValue(optional=True),
            "CA certificate that signed an mqtts:// broker's certificate", '"ca.crt"'),
    Setting("broker_keepalive", Number(1, 600, integer=True, unit=" seconds"),
            "the broker shows the board offline after 1.5 times this silence", "15"),
    Setting("broker_outbox", PathValue(optional=True),
            "messages not yet acknowledged by the broker (default: beside the journal)",
            '"journal.outbox.jsonl"', documented_default="JOURNAL.outbox.jsonl"),
)

SETTING_BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}
#: other spellings a file may use for a key
ALIASES = {"colors": "colours"}
#: keys an earlier version read that do nothing now, with why: a file that still has
#: one is accepted (a board is never refused for a key it was once told to write),
#: and the owner is told once, by `config --check` and in `run`'s log
RETIRED = {
    "recogniser": "ignored: the board has one way of reading hands now (docs/play.md); "
    "remove this line",
}


@dataclass(frozen=True)
class Config:
    """Everything `draughtsboard run` needs to know about this board and its players.

    One field per row of `SETTINGS`, with its default (a key without a field here
    would be read and then dropped).
    """

    variant: str = "brazilian"
    language: str = "pt-BR"
    speech: bool = True
    hints: str = "full"
    colours: dict[str, tuple[int, int, int]] = field(default_factory=lambda: dict(DEFAULT_COLOURS))
    board: str = "sim"
    layout: str | None = None
    brightness: float = 0.3
    data_dir: Path = field(default_factory=default_data_dir)
    games_dir: Path = field(default_factory=lambda: default_data_dir() / "games")
    journal: Path = field(default_factory=lambda: default_data_dir() / "journal.jsonl")
    log_level: str = "info"
    log_file: Path | None = None
    gestures: bool = True
    gesture_hold: float = 2.0
    #: club play (FMJD touch-move): a piece released on a legal square has moved.
    #: Off (home play): a move whose piece goes on before the opponent acts is re-read.
    touch_move: bool = False
    computer_level: int = 2
    # who plays each side (host/players.py): "human", "computer" or "computer:N"
    white: str = "human"
    black: str = "human"
    # the clock (host/clock): a time control ("none": untimed) and the spoken warnings
    clock: str = "none"
    clock_warnings: tuple[float, ...] = (60.0, 10.0)
    # the board's page (host/web): where it is served, and the token controls need
    listen: str = "127.0.0.1:8080"
    token: str | None = None
    # broadcast (docs/broadcast.md): all None/default = no broker, nothing published
    broker: str | None = None
    board_id: str | None = None
    broker_username: str | None = None
    broker_password_file: Path | None = None
    broker_ca_file: Path | None = None
    broker_keepalive: int = 15
    broker_outbox: Path | None = None

    @property
    def broadcast(self) -> BroadcastConfig | None:
        """Where this board publishes, or None when no broker is set."""
        if self.broker is None or self.board_id is None:
            return None
        return BroadcastConfig(
            broker=self.broker,
            board_id=self.board_id,
            username=self.broker_username
            or (self.board_id if self.broker_password_file else None),
            password_file=self.broker_password_file,
            ca_file=self.broker_ca_file,
            keepalive=self.broker_keepalive,
            outbox=self.outbox,
        )

    @property
    def outbox(self) -> Path:
        """Where messages the broker has not acknowledged wait: `broker_outbox`, or beside
        the journal."""
        return self.broker_outbox or self.journal.with_name(self.journal.stem + ".outbox.jsonl")

    @property
    def status_file(self) -> Path:
        """Where the running board writes its state for `draughtsboard status`."""
        return self.data_dir / "status.json"

    def with_overrides(self, **changes: Any) -> Config:
        """A copy with the non-None `changes` applied (no validation: use flags for that)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


@dataclass(frozen=True)
class BroadcastConfig:
    """The broadcast settings in force, as the publisher needs them (`Config.broadcast`)."""

    broker: str
    board_id: str
    username: str | None = None
    password_file: Path | None = None
    ca_file: Path | None = None
    keepalive: int = 15
    outbox: Path | None = None
