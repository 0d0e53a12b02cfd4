"""The examples of the "Reading and writing PDN" section of docs/engine-api.md run as written.

Only that section is run here (the rest of the file has its own owner and
its own checks), so the examples stay true whoever runs the file's doctests.
"""

from __future__ import annotations

import doctest

from tests.paths import REPO

DOC = REPO / "docs" / "engine-api.md"
TITLE = "## Reading and writing PDN"


def pdn_section() -> tuple[str, int]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(TITLE)
    end = text.find("\n## ", start + len(TITLE))
    return text[start : end if end >= 0 else len(text)], text.count("\n", 0, start)


def test_pdn_examples_in_the_engine_api_document_run() -> None:
    section, line = pdn_section()
    test = doctest.DocTestParser().get_doctest(section, {}, "engine-api.md: PDN", str(DOC), line)
    assert len(test.examples) >= 10
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
