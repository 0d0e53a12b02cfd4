"""The relay's intake: each message handled on its own, stored, and counted.

`Intake` is what the relay knows: every board's games (`relay_games.Boards`),
the rounds and where games are filed (`relay_rounds.Rounds`), and the store
on disk that both are rebuilt from (`relay_store.Store`). It has no network:
the relay's loop hands it messages and commits the store before telling the
broker they arrived.

Every message is handled in isolation: whatever is wrong with it (not JSON, a
missing field, a variant the relay does not know, an illegal move, a claim to
a board that is not its own, even a fault of the relay's own code) refuses
that message only, with the board and the reason logged and counted in the
relay's status; the next message is handled as if nothing happened.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterator
from typing import Any

from host.broadcast import topics
from host.broadcast.relay_games import Boards, GameLog, Refused
from host.broadcast.relay_rounds import Pairing, Rounds
from host.broadcast.relay_status import RelayStatus
from host.broadcast.relay_store import COMPACT_AFTER, Store

#: seconds a gap in a board's seqs may stay open while later ones arrive before the
#: relay asks the board for them, and before it gives up on them
GAP_ASK, GAP_PATIENCE = 5.0, 30.0
KEPT_KINDS = (topics.STATE, topics.MOVE, topics.CORRECTION)


class Intake:
    """Applies messages to the relay's picture and its store; remembers what changed."""

    def __init__(self, store: Store, status: RelayStatus,
                 log: Callable[[str], None]) -> None:
        self.store = store
        self.status = status
        self.log = log
        self.boards = Boards()
        self.rounds = Rounds()
        self.rounds_changed: set[str | None] = set()  # rounds whose pairings or games moved
        self.pairings_changed: set[str] = set()  # rounds the organiser (re)published
        self._acked: dict[tuple[str, str], int] = {}  # (board, epoch) -> seq acknowledged
        self._asked: set[tuple[str, str, int]] = set()  # gaps asked for (board, epoch, high)

    # -- messages ---------------------------------------------------------------------

    def board_message(self, board_id: str, kind: str, payload: bytes, arrived: float,
                      wall: float, *, restoring: bool = False) -> None:
        """One message on `draughtsboard/v1/board/<board_id>/<kind>`."""
        if kind == topics.STATUS:
            online = payload.decode("utf-8", "replace") == topics.ONLINE
            self.boards.set_online(board_id, online, arrived)
            self.status.boards.setdefault(board_id, {})["online"] = online
            self.status.touch()
            return
        if kind not in KEPT_KINDS:
            return
        if not restoring:
            self.status.messages += 1
        try:
            data = topics.check_message(kind, payload)
        except topics.BadMessage as error:
            self.refuse(board_id, kind, "bad message", str(error))
            return
        feed = self.boards.feed(board_id)
        known = feed.games.get(data["game"])
        if known is not None and known.has(feed.key(data["epoch"], data["seq"])):
            feed.mark(data["epoch"], data["seq"], arrived)
            if not restoring:
                self.status.duplicates += 1
            return
        try:
            self._apply(board_id, kind, data, arrived)
        except Refused as error:
            self.boards.feed(board_id).mark(data["epoch"], data["seq"], arrived)
            self.store.add({"x": [board_id, data["epoch"], data["seq"]]})
            self.refuse(board_id, kind, error.category, str(error), restoring=restoring)
            return
        except Exception as error:  # a fault of ours costs this message, not the relay
            self.boards.feed(board_id).mark(data["epoch"], data["seq"], arrived)
            self.store.add({"x": [board_id, data["epoch"], data["seq"]]})
            self.log("".join(traceback.format_exception(error)).rstrip())
            self.refuse(board_id, kind, "internal error",
                        f"{type(error).__name__}: {error}", restoring=restoring)
            return
        if not restoring:
            self.status.applied += 1
            self.store.add({"m": [board_id, kind, payload.decode("utf-8"), round(wall, 3)]})

    def _apply(self, board_id: str, kind: str, data: dict[str, Any], arrived: float) -> None:
        if kind == topics.STATE:
            self.rounds.check_claim(board_id, data["round"], data["board"])
        log = self.boards.apply(board_id, kind, data, arrived)
        for late in (log.take_refusals() if log else []):
            self.refuse(board_id, "move", late.category, str(late))
        if log is not None and log.view is not None:
            self.rounds_changed |= self.rounds.place(log.view)
            games = self.status.boards.setdefault(board_id, {})
            games["games"] = len(self.boards.feed(board_id).games)

    def refuse(self, board_id: str, kind: str, category: str, reason: str, *,
               restoring: bool = False) -> None:
        if restoring:
            return
        self.log(f"board {board_id}: refused a {kind} message ({category}): {reason}")
        self.status.refused(board_id, kind, category, reason)

    def pairings(self, payload: bytes, *, restoring: bool = False) -> None:
        """The organiser's round (`draughtsboard/v1/round`, retained)."""
        if not payload:
            return
        try:
            data = topics.check_message("round", payload)
        except topics.BadMessage as error:
            self.log(f"ignored the round's pairings: {error}")
            return
        record = self.rounds.rounds.get(data["round"])
        pairings = [Pairing(int(b["board"]), b["board_id"], b.get("white"), b.get("black"))
                    for b in data["boards"]]
        if (record is not None and self.rounds.current == data["round"]
                and record.event == data["event"]
                and record.pairings == {p.board: p for p in pairings}):
            return  # the retained round again, after a reconnect
        self.rounds.set_pairings(data["round"], data["event"], pairings)
        self.rounds_changed.add(data["round"])
        self.pairings_changed.add(data["round"])
        if not restoring:
            self.store.add({"round": data})
            self.log(f"round {data['round']}: {len(pairings)} boards paired")

    # -- acknowledgements -----------------------------------------------------------------

    def give_up_gaps(self, now: float) -> None:
        for feed in self.boards.feeds.values():
            for epoch, run in feed.seqs.items():
                missing = run.give_up(now, GAP_PATIENCE)
                if missing:
                    self.status.lost += len(missing)
                    self.store.add({"lost": [feed.board_id, epoch, missing[-1]]})
                    self.log(f"board {feed.board_id}: gave up waiting for seq "
                             f"{missing[0]}..{missing[-1]} (later ones arrived)")

    def gaps(self, now: float) -> list[tuple[str, str, int, list[int]]]:
        """(board, epoch, seq acknowledged, [first, last] missing) for each gap open for
        GAP_ASK seconds, once per gap: the board sends those again."""
        asks = []
        for feed in self.boards.feeds.values():
            for epoch, run in feed.seqs.items():
                if (run.gap_since is None or now - run.gap_since < GAP_ASK
                        or (feed.board_id, epoch, run.high) in self._asked):
                    continue
                self._asked.add((feed.board_id, epoch, run.high))
                asks.append((feed.board_id, epoch, run.high, [run.high + 1, min(run.above) - 1]))
        return asks

    def acks(self) -> list[tuple[str, str, int]]:
        """(board, epoch, seq) to acknowledge: what moved since the last call."""
        due = []
        for feed in self.boards.feeds.values():
            for epoch, run in feed.seqs.items():
                if self._acked.get((feed.board_id, epoch)) != run.high and run.high > 0:
                    self._acked[(feed.board_id, epoch)] = run.high
                    due.append((feed.board_id, epoch, run.high))
                    self.status.boards.setdefault(feed.board_id, {})["acknowledged"] = run.high
        return due

    # -- the store ----------------------------------------------------------------------

    def restore(self, now: float, wall: float) -> int:
        """Rebuild from the store (arrival times back on the monotonic clock); the number
        of records read."""
        count = 0
        for record in self.store.read():
            count += 1
            if "m" in record:
                board_id, kind, payload, arrived = record["m"]
                self.board_message(board_id, kind, payload.encode("utf-8"),
                                   now - (wall - float(arrived)), float(arrived), restoring=True)
            elif "x" in record or "lost" in record:
                board_id, epoch, seq = record.get("x") or record["lost"]
                feed = self.boards.feed(board_id)
                feed.key(epoch, int(seq))
                if "lost" in record and epoch in feed.seqs:
                    run = feed.seqs[epoch]
                    run.high = max(run.high, int(seq))
                    run.above = {s for s in run.above if s > run.high}
                else:
                    feed.mark(epoch, int(seq), now)
            elif "round" in record:
                self.pairings(topics.encode(record["round"]), restoring=True)
            elif "file" in record:
                board_id, game_id, name = record["file"]
                self.rounds.file((board_id, game_id), name)
            elif "current" in record:
                self.rounds.current = record["current"]
            elif "seqs" in record:
                board_id, epoch, high, above = record["seqs"]
                feed = self.boards.feed(board_id)
                feed.key(epoch, int(high))
                feed.mark(epoch, int(high), now)
                feed.seqs[epoch].above = {int(s) for s in above}
        for feed in self.boards.feeds.values():
            for log in feed.games.values():
                log.take_refusals()
        self.store.lines = count
        return count

    def should_compact(self, delay: float) -> bool:
        """Compaction drops the versions `--delay` may still have to show: only without it."""
        return delay == 0 and self.store.lines > COMPACT_AFTER

    def compact(self) -> None:
        self.store.commit()
        self.store.rewrite(self._essentials())

    def _essentials(self) -> Iterator[dict[str, Any]]:
        """The records that rebuild what the relay knows now (see relay_store)."""
        for name, record in self.rounds.rounds.items():
            if name is not None and record.pairings:
                yield {"round": {"event": record.event, "round": name, "boards": [
                    {"board": p.board, "board_id": p.board_id, "white": p.white,
                     "black": p.black} for _, p in sorted(record.pairings.items())]}}
        yield {"current": self.rounds.current}
        for name, record in self.rounds.rounds.items():
            for board_id, game_id in record.filed:
                yield {"file": [board_id, game_id, name]}
        for feed in self.boards.feeds.values():
            for epoch in feed.epochs:
                run = feed.seqs.get(epoch)
                if run is not None:
                    yield {"seqs": [feed.board_id, epoch, run.high, sorted(run.above)]}
            for log in feed.ordered():
                yield from _messages_of(log)


def _messages_of(log: GameLog) -> Iterator[dict[str, Any]]:
    """A game's newest state and what follows it (arrival 0: compaction happens only
    without `--delay`, so everything kept is visible at once after a restart)."""
    kept = ([log.state] if log.state is not None else []) + [log.after[k]
                                                            for k in sorted(log.after)]
    for message in kept:
        yield {"m": [log.board_id, message.kind, topics.encode(message.data).decode("utf-8"),
                     0.0]}
