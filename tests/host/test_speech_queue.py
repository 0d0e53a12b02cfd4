"""The speech queue: one voice at a time, the end of the game cuts a move short, and
queuing never waits for the voice. A fake synthesiser records when each sentence
started and ended (and whether it was cut), on the real clock."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from host.voice.announce import Announcer, speech_listener
from host.voice.speech import END, MOVE, NOTICE, Speaker
from tests.tools import need


class FakeSynthesiser:
    """Takes `seconds` per sentence, as espeak-ng would, and stops when told to."""

    def __init__(self, seconds: float = 0.15) -> None:
        self.seconds = seconds
        self.said: list[tuple[str, float, float, bool]] = []  # text, start, end, cut short
        self._lock = threading.Lock()
        self.speaking = 0
        self.most_at_once = 0

    def speak(self, text: str, voice: str, stop: threading.Event) -> None:
        with self._lock:
            self.speaking += 1
            self.most_at_once = max(self.most_at_once, self.speaking)
        start = time.monotonic()
        cut = stop.wait(self.seconds)
        end = time.monotonic()
        with self._lock:
            self.speaking -= 1
            self.said.append((text, start, end, cut))


def no_overlap(said: list[tuple[str, float, float, bool]]) -> bool:
    spans = sorted((start, end) for _, start, end, _ in said)
    return all(a_end <= b_start for (_, a_end), (b_start, _) in zip(spans, spans[1:], strict=False))


def test_a_burst_of_announcements_is_said_one_after_the_other_in_order() -> None:
    synth = FakeSynthesiser(0.05)
    speaker = Speaker("en", synthesiser=synth)
    texts = [f"move {n}" for n in range(5)] + ["capture is mandatory"]
    for n, text in enumerate(texts):
        speaker.say(text, MOVE if n < 5 else NOTICE)
    assert speaker.idle(timeout=5)
    assert [t for t, *_ in synth.said] == texts
    assert synth.most_at_once == 1 and no_overlap(synth.said)
    assert not any(cut for *_, cut in synth.said)


def test_the_end_of_the_game_cuts_a_move_short_and_drops_what_waits() -> None:
    synth = FakeSynthesiser(1.0)
    speaker = Speaker("en", synthesiser=synth)
    speaker.say("White played c3-d4.", MOVE)
    time.sleep(0.1)  # the move is being said
    speaker.say("Black played f6-g5.", MOVE)
    speaker.say("The board is wrong.", NOTICE)
    speaker.say("White wins: the opponent has no moves.", END)
    assert speaker.idle(timeout=5)
    said = [(t, cut) for t, _, _, cut in synth.said]
    assert said == [
        ("White played c3-d4.", True),
        ("White wins: the opponent has no moves.", False),
    ]
    assert speaker.dropped == ["Black played f6-g5.", "The board is wrong."]
    assert no_overlap(synth.said)
    first_end = synth.said[0][2] - synth.said[0][1]
    assert first_end < 0.9  # cut short, not said to the end


def test_a_notice_waits_for_the_move_it_follows() -> None:
    synth = FakeSynthesiser(0.3)
    speaker = Speaker("en", synthesiser=synth)
    speaker.say("White played c3-d4.", MOVE)
    time.sleep(0.05)
    speaker.say("Crown the piece on 1.", NOTICE)
    speaker.say("Draw agreed.", END)
    speaker.say("Draw: agreement.", END)  # one end sentence never cuts another
    assert speaker.idle(timeout=5)
    assert [(t, cut) for t, _, _, cut in synth.said] == [
        ("White played c3-d4.", True),
        ("Draw agreed.", False),
        ("Draw: agreement.", False),
    ]
    assert no_overlap(synth.said)


def test_queuing_never_waits_for_the_voice() -> None:
    synth = FakeSynthesiser(0.5)
    speaker = Speaker("en", synthesiser=synth)
    took = []
    for n in range(4):
        start = time.monotonic()
        speaker.say(f"move {n}", MOVE)
        took.append(time.monotonic() - start)
    assert max(took) < 0.05  # generous: a say() is a queue append
    speaker.close(timeout=0.1)


def test_a_long_backlog_drops_the_oldest_moves_first() -> None:
    gate = threading.Event()

    class Stuck(FakeSynthesiser):
        def speak(self, text: str, voice: str, stop: threading.Event) -> None:
            gate.wait(5)
            super().speak(text, voice, stop)

    synth = Stuck(0.0)
    speaker = Speaker("en", synthesiser=synth)
    speaker.say("first", MOVE)
    time.sleep(0.05)
    for n in range(8):
        speaker.say(f"move {n}", MOVE)
    speaker.say("notice", NOTICE)
    gate.set()
    assert speaker.idle(timeout=5)
    said = [t for t, *_ in synth.said]
    assert said[0] == "first" and said[-1] == "notice" and len(said) == 1 + 6
    assert speaker.dropped == ["move 0", "move 1", "move 2"]


def test_announcer_gives_the_end_of_the_game_its_priority() -> None:
    synth = FakeSynthesiser(1.0)
    speaker = Speaker("en", synthesiser=synth)
    announcer = Announcer("en")
    announcer.subscribe(speech_listener(speaker))
    announcer.announce("move", side="W", move="c3-d4")
    time.sleep(0.1)
    announcer.announce("resign", side="B")
    assert speaker.idle(timeout=5)
    assert [(t, cut) for t, _, _, cut in synth.said] == [
        ("White played c3-d4.", True),
        ("Black resigns.", False),
    ]


def test_espeak_speaks_through_the_queue_one_at_a_time(tmp_path: Path, monkeypatch) -> None:
    """The real program through the queue: with a sound card absent espeak-ng still runs
    (and exits); what matters is one process at a time."""
    need("espeak-ng")
    import subprocess

    running: list[int] = []
    most = [0]
    real_popen = subprocess.Popen

    class Counting(real_popen):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            running.append(1)
            most[0] = max(most[0], len(running))

        def wait(self, timeout=None):  # noqa: ANN001
            code = super().wait(timeout)
            if running:
                running.pop()
            return code

    monkeypatch.setattr(subprocess, "Popen", Counting)
    speaker = Speaker("pt-BR")
    for n in range(3):
        speaker.say(f"Lance {n}.", MOVE)
    assert speaker.idle(timeout=30)
    assert most[0] == 1
