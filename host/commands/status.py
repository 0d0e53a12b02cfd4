"""`draughtsboard status`: is the board running, on what, which game, what went wrong.

It asks systemd about the service and reads the status file the running board
keeps (host/appliance/status.py). Which config says where that file is: `--config` if
given; else the service's (/etc/draughtsboard/config.toml) when the service is
installed; else yours. Exit status 0 when the board is running, 3 when not
(as `systemctl status`).
"""

from __future__ import annotations

import argparse
import json
import os
from datetime import datetime

from engine import get_variant
from host.appliance.status import StatusWriter
from host.appliance.systemd import UNIT, run_command, service_state
from host.config import add_config_argument, load_config, system_config_path
from host.errors import ExitStatus
from host.voice.messages import SIDES, VARIANT_NAMES


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "status",
        help="is the board running, on which board, which game, recent problems",
        description="The service's state and the running board's status file.",
    )
    add_config_argument(
        parser,
        help="the config naming the data folder (default: the service's when it is "
        "installed, else yours)",
    )
    parser.add_argument("--json", action="store_true", help="print the status file as JSON")
    parser.set_defaults(func=run)


def _clock_line(clock: dict[str, object]) -> str:
    """`clock 5+3: White 4:47 (running), Black 5:01` from the status file's clock."""
    def shown(side: str, key: str) -> str:
        ms = clock.get(key)
        seconds = int(ms) // 1000 if isinstance(ms, int | float) else 0
        text = f"{SIDES['en'][side]} {seconds // 60}:{seconds % 60:02d}"
        if clock.get("flagged") == side:
            return text + " (out of time)"
        return text + (" (running)" if clock.get("running") == side else "")

    line = f"clock {clock.get('control')}: {shown('W', 'white')}, {shown('B', 'black')}"
    return line + (", stopped" if clock.get("paused") else "")


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: it exists
    return True


def run(args: argparse.Namespace, runner=run_command) -> int:  # noqa: ANN001
    state = service_state(runner)
    if args.config is not None:
        config = load_config(args.config)
    elif state.installed and system_config_path().is_file():
        config = load_config(system_config_path())
    else:
        config = load_config()
    data = StatusWriter.read(config.status_file)
    running = data is not None and data.get("state") == "running" and _alive(data.get("pid"))
    if args.json:
        print(json.dumps({"service": state.__dict__, "status": data, "running": running}))
        return ExitStatus.OK if running else ExitStatus.NOT_RUNNING
    for line in describe(state, data, running, str(config.status_file)):
        print(line)
    return ExitStatus.OK if running else ExitStatus.NOT_RUNNING


def describe(state, data, running: bool, where: str) -> list[str]:  # noqa: ANN001
    """The status as sentences (English: this is for whoever maintains the board)."""
    lines = []
    if state.installed:
        lines.append(f"service: {state.active} ({state.enabled}) - {UNIT}")
    elif state.enabled == "unknown":
        lines.append("service: unknown (no systemctl here)")
    else:
        lines.append("service: not installed (draughtsboard service install)")
    if not data:
        lines.append(f"board: no status file at {where} (the board has not run yet)")
        return lines
    if running:
        lines.append(f"board: running since {data.get('started')} (pid {data.get('pid')})")
    elif data.get("state") == "running":
        lines.append(
            f"board: NOT running: it stopped without saying so (a crash?), "
            f"last seen {data.get('updated')}"
        )
    else:
        lines.append(f"board: stopped at {data.get('updated')}")
    lines.append(f"board type: {data.get('board')}, layout {data.get('layout')}")
    if running and data.get("waiting"):
        lines.append(f"WAITING for the board (play starts when it is ready): {data['waiting']}")
    game = data.get("game") or {}
    if game:
        name = VARIANT_NAMES["en"].get(game.get("variant", ""), game.get("variant"))
        try:
            size = get_variant(game["variant"]).size
            name = f"{name} ({size}x{size})"
        except (KeyError, ValueError):
            pass
        if game.get("result"):
            result = "draw" if game["result"] == "draw" else f"{SIDES['en'][game['result']]} won"
            where_now = f"finished: {result} ({game.get('reason')})"
        else:
            turn = str(game.get("turn"))
            where_now = f"{SIDES['en'].get(turn, turn)} to move"
        moves = game.get("moves")
        lines.append(f"game: {name}, {moves} move{'' if moves == 1 else 's'}, {where_now}")
        clock = game.get("clock")
        if isinstance(clock, dict):
            lines.append(_clock_line(clock))
        if game.get("correcting"):
            lines.append("the board is being put right (the lit squares differ from the game)")
    players = data.get("players") or {}
    computer = {side: who for side, who in players.items() if who != "human"}
    if computer:
        named = ", ".join(f"{SIDES['en'].get(side, side)} {who}" for side, who in computer.items())
        lines.append(f"computer plays: {named}")
    problems = data.get("problems") or []
    if problems:
        lines.append("last problems:")
        lines += [f"  {p.get('time')} {p.get('level')}: {p.get('message')}" for p in problems[-5:]]
    else:
        lines.append("last problems: none")
    chatter = data.get("chatter") or {}
    if chatter:
        detail = ", ".join(f"square {sq} ({n} flickers)" for sq, n in chatter.items())
        lines.append(
            f"switches that chatter (last minute): {detail}; check with: draughtsboard selftest"
        )
    else:
        lines.append("switches that chatter: none")
    updated = data.get("updated")
    if updated:
        try:
            age = (datetime.now() - datetime.fromisoformat(updated)).total_seconds()
            lines.append(f"status written {age:.0f} s ago to {where}")
        except ValueError:
            pass
    return lines
