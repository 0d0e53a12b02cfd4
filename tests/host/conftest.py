"""tests/host is not a package (its modules import `humanise` directly), so pytest puts
only this folder on sys.path; the repository root is added here so `tests.paths` imports
whether pytest is run as `pytest` or `python -m pytest`."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
