"""The examples of docs/engine-api.md run as written (doctest)."""

from __future__ import annotations

import doctest

from tests.paths import REPO


def test_engine_api_examples_run_as_documented() -> None:
    path = REPO / "docs" / "engine-api.md"
    # A closing code fence would read as expected output: blank it out first.
    text = "\n".join("" if line.strip().startswith("```") else line
                     for line in path.read_text(encoding="utf-8").splitlines())
    test = doctest.DocTestParser().get_doctest(text, {}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted >= 20, "the examples were not found"
    assert results.failed == 0, f"{results.failed} examples of {path.name} failed (see above)"
