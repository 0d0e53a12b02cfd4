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


def test_once_a_relay_acknowledges_messages_are_held_until_it_has_stored_them(
        tmp_path: Path) -> None:
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    for n in (1, 2, 3):
        box.acked(box.add("t/move", {"n": n}).seq)  # no relay yet: the broker is enough
    assert box.pending() == []
    box.relay_acked(box.epoch, 3)  # a relay follows this board from now on
    for n in (4, 5, 6):
        box.acked(box.add("t/move", {"n": n}).seq)
    assert [e.seq for e in box.pending()] == [4, 5, 6]  # the broker has them; the relay not
    assert [e.seq for e in box.replay()] == [4, 5, 6]  # sent again on the next connection
    box.relay_acked("another-epoch", 6)  # another board's SD card: not ours
    box.relay_acked(box.epoch, 5)
    again = Outbox(path)  # power cut
    assert [e.seq for e in again.replay()] == [6] and again.delivered == 5
    again.relay_acked(again.epoch, 6)
    assert again.pending() == [] and Outbox(path).pending() == []


def test_without_a_relay_only_what_the_broker_lacks_is_sent_again(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "outbox.jsonl")
    first, second = box.add("t/a", {}), box.add("t/b", {})
    box.acked(first.seq)
    assert [e.seq for e in box.replay()] == [second.seq]
    assert [e.seq for e in box.unsent()] == [second.seq]


def test_what_follows_a_torn_line_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    box.add("t/a", {"n": 1})
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"seq": 2, "topic": "t/mo')  # power lost mid-write
    again = Outbox(path)
    third = again.add("t/b", {"n": 3})
    assert [e.seq for e in Outbox(path).pending()] == [1, third.seq]


def test_the_assignments_of_finished_games_are_remembered_across_restarts(
        tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(outbox_module, "COMPACT_AFTER", 3)
    path = tmp_path / "outbox.jsonl"
    box = Outbox(path)
    box.finish(("Open", "3", 7))
    assert Outbox(path).finished == [("Open", "3", 7)]
    for n in range(4):
        box.acked(box.add("t/move", {"n": n}).seq)  # compacted to its header meanwhile
    assert len(path.read_text().splitlines()) == 1
    assert Outbox(path).finished == [("Open", "3", 7)]
