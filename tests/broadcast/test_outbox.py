"""The board's outbox: numbered once, kept until acknowledged, across restarts."""

from __future__ import annotations

import json
from pathlib import Path

from host.broadcast import outbox as outbox_module
from host.broadcast.outbox import Outbox


def test_numbers_go_on_after_a_restart_and_unacknowledged_messages_come_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    entries = [box.add("t/move", {"ply": n}) for n in (1, 2, 3)]
    assert [e.seq for e in entries] == [1, 2, 3]
    box.acked(1)
    again = Outbox(path)  # power cut and restart
    assert again.epoch == box.epoch
    assert [e.seq for e in again.pending()] == [2, 3]
    assert json.loads(again.pending()[0].payload) == {"ply": 2, "epoch": box.epoch, "seq": 2}
    assert again.add("t/move", {"ply": 4}).seq == 4


def test_a_torn_last_line_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    box.add("t/state", {"n": 1}, retain=True)
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"seq": 2, "topic": "t/mo')  # power lost mid-write
    again = Outbox(path)
    assert [(e.seq, e.retain) for e in again.pending()] == [(1, True)]
    assert again.next_seq == 2


def test_numbers_never_go_back_after_compaction(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(outbox_module, "COMPACT_AFTER", 5)
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    for n in range(1, 8):
        box.acked(box.add("t/move", {"n": n}).seq)
    assert len(path.read_text().splitlines()) < 5  # compacted to its header
    again = Outbox(path)
    assert again.pending() == [] and again.add("t/move", {}).seq == 8


def test_an_unreadable_outbox_starts_a_new_epoch(tmp_path: Path) -> None:
    path = tmp_path / "outbox.jsonl"
    first = Outbox(path)
    first.add("t/move", {})
    path.write_bytes(b"\xff\xfe garbage")
    second = Outbox(path)
    assert second.epoch != first.epoch and second.next_seq == 1
