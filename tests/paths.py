"""Where the tests find the project's shared data.

`shared/` (corpus, examples, rule documents) sits beside the repository, both
in a developer's checkout and in CI's fresh clone, so it is found relative to
this file, never by an absolute path.
"""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
EXAMPLES = SHARED / "examples"
