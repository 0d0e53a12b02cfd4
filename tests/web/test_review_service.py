"""The review queue with its real worker process: it analyses at the lowest priority,
keeps the analysis beside the game, waits while the game on the board needs the machine,
and lets a game someone opens go before one analysed in the background."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from conftest import run_async
from review_games import game_with_blunder

from host.review import store
from host.review.analysis import evaluate_positions
from host.review.games import ReviewGame, load
from host.review.service import ReviewService
from tests.paths import REPO

BUDGET = 1500  # nodes per position: these tests are about the queue, not the search
SLOW = 240.0  # seconds: generous, the worker runs at nice 19 on a shared machine


def saved(folder: Path, name: str, variant: str, plies: int, seed: int) -> ReviewGame:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(game_with_blunder(variant, plies, 3, seed=seed).pdn())
    return load(folder, f"saved:{name}")


async def until(check: Callable[[], bool], timeout: float = SLOW) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def test_a_game_is_analysed_once_and_kept_beside_it(tmp_path: Path) -> None:
    review = saved(tmp_path, "a.pdn", "brazilian", 10, 1)

    async def first() -> None:
        service = ReviewService(nodes=BUDGET)
        try:
            job = service.request(review)
            assert service.report(job)["status"] in ("queued", "running")
            await until(lambda: job.status == "done")
            (worker, *_) = [w for w in service.workers if w is not None]
            niceness = int(Path(f"/proc/{worker.process.pid}/stat").read_text()
                           .rsplit(")", 1)[1].split()[16])
            assert niceness == 19  # the lowest priority there is
        finally:
            await service.close()
        report = service.report(job)
        assert report["done"] == report["total"] == len(review.game.moves) + 1
        assert all(item is not None for item in report["evals"])
        assert sum(report["summary"][side]["moves"] for side in "WB") == len(review.game.moves)

    run_async(first())
    kept = store.load(review.store, review.key, BUDGET)
    assert kept is not None and len(kept) == len(review.game.moves) + 1

    async def again() -> None:  # another start of the board: read, not searched again
        service = ReviewService(nodes=BUDGET)
        try:
            job = service.request(review)
            assert job.status == "done" and service.workers == [None] * service.slots
            assert [service.report(job)["evals"][i]["score"] for i in range(3)] == [
                kept[i].score for i in range(3)]
        finally:
            await service.close()

    run_async(again())


def test_the_search_waits_while_the_game_needs_the_machine(tmp_path: Path) -> None:
    review = saved(tmp_path, "b.pdn", "russian", 12, 2)
    busy = {"now": True}  # a move is being made when the review is asked for

    async def check() -> None:
        service = ReviewService(lambda: busy["now"], nodes=BUDGET)
        try:
            job = service.request(review)
            await until(lambda: service.paused)  # the worker says it is holding
            assert service.report(job)["status"] == "paused"
            await asyncio.sleep(1.5)
            assert len(job.evals) == 0  # nothing was searched while the game went on
            busy["now"] = False
            service.nudge()
            await until(lambda: len(job.evals) >= 2)
            assert service.report(job)["status"] in ("running", "done")
            busy["now"] = True  # the next move: it yields again, mid-game
            service.nudge()
            await until(lambda: service.paused or job.status == "done")
            if job.status != "done":
                held = len(job.evals)
                await asyncio.sleep(1.0)
                assert len(job.evals) == held and service.report(job)["status"] == "paused"
                busy["now"] = False
                service.nudge()
            await until(lambda: job.status == "done")
            assert not service.paused
        finally:
            await service.close()

    run_async(check())


def test_a_game_someone_opens_goes_before_a_background_one(tmp_path: Path) -> None:
    background = saved(tmp_path, "c.pdn", "international", 40, 3)  # three chunks
    opened = saved(tmp_path, "d.pdn", "brazilian", 8, 4)  # one
    finished: list[str] = []

    async def check() -> None:
        service = ReviewService(nodes=BUDGET, workers=1)
        try:
            behind = service.request(background, urgent=False)
            await until(lambda: len(behind.evals) >= 1)
            ahead = service.request(opened)

            async def watch(name: str, job: object) -> None:
                await until(lambda: job.status == "done")  # type: ignore[attr-defined]
                finished.append(name)

            await asyncio.gather(watch("background", behind), watch("opened", ahead))
            assert finished == ["opened", "background"]  # between two of its chunks
            assert service.report(behind)["done"] == behind.total
        finally:
            await service.close()

    run_async(check())
    assert store.load(background.store, background.key, BUDGET) is not None
    assert store.load(opened.store, opened.key, BUDGET) is not None


def test_a_worker_that_dies_fails_the_review_which_can_be_asked_again(tmp_path: Path) -> None:
    review = saved(tmp_path, "e.pdn", "pool", 10, 5)

    async def check() -> None:
        service = ReviewService(lambda: True, nodes=BUDGET)  # held, so it is still running
        try:
            job = service.request(review)
            await until(lambda: service.paused)
            (searching,) = [w for w in service.workers if w is not None and w.busy]
            searching.process.kill()
            await until(lambda: job.status == "failed")
            assert "stopped" in (service.report(job)["error"] or "")
            service.busy = lambda: False
            again = service.request(review)
            assert again is not job
            await until(lambda: again.status == "done")
        finally:
            await service.close()

    run_async(check())


def test_the_analysis_is_the_same_however_it_is_split_and_paused(tmp_path: Path) -> None:
    review = saved(tmp_path, "f.pdn", "russian", 36, 6)  # three chunks
    alone = [item.to_json() for item in evaluate_positions(review.game, nodes=BUDGET)]
    results = []
    for workers in (1, 2):
        for stored in tmp_path.glob("*.analysis.json"):
            stored.unlink()

        async def check(workers: int = workers) -> None:
            toggles = {"n": 0}

            def busy() -> bool:  # the game needs the machine now and then
                toggles["n"] += 1
                return toggles["n"] % 3 == 0

            service = ReviewService(busy, nodes=BUDGET, workers=workers)
            try:
                job = service.request(review)
                if workers == 2:
                    await until(lambda: sum(w is not None and w.busy
                                            for w in service.workers) == 2)
                await until(lambda: job.status == "done")
                results.append(service.report(job)["evals"])
            finally:
                await service.close()

        run_async(check())
    assert results[0] == results[1] == alone


def test_a_paused_worker_ends_when_its_host_dies(tmp_path: Path) -> None:
    """A host killed while the game held the review (its flag stuck at pause) leaves no
    search process behind."""
    review = saved(tmp_path, "g.pdn", "brazilian", 8, 7)
    script = tmp_path / "crashing_board.py"
    script.write_text(
        "import asyncio, os, sys\n"
        "from pathlib import Path\n"
        "from host.review.games import load\n"
        "from host.review.service import ReviewService\n"
        "async def main():\n"
        "    service = ReviewService(lambda: True, nodes=500, workers=1)\n"
        f"    service.request(load(Path({str(tmp_path)!r}), 'saved:g.pdn'))\n"
        "    while not service.paused:\n"
        "        await asyncio.sleep(0.05)\n"
        "    print(service.workers[0].process.pid, flush=True)\n"
        "    os._exit(0)  # as a crash would: nothing cleaned up\n"
        "asyncio.run(main())\n")
    done = subprocess.run([sys.executable, str(script)], cwd=REPO, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, timeout=300, check=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    worker = int(done.stdout.split()[0])
    deadline = time.monotonic() + 30
    while Path(f"/proc/{worker}").exists() and "Z" not in _state(worker):
        assert time.monotonic() < deadline, "the worker outlived its host"
        time.sleep(0.1)
    assert review.key  # the game it was holding


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
