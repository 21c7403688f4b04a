"""Rewrites ``KNOWN`` in tests/fuzz/known_classes.py from the CI programs, run as CI runs
them: in a fresh process (see test_fuzz_programs.py). Run after changing the op database
(it changes which programs the fixed seed draws) or after fixing a class:

    CI=true python scripts/refresh_fuzz_known.py

The promotion and bad-input lists are not affected by the order of tests: refresh those from
``CHAINRULE_FUZZ=collect pytest -n0 tests/fuzz`` (its ``<report>.known.py``).
"""
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
os.environ["CHAINRULE_FUZZ"] = "collect"

from fuzz.conftest import RECORD  # noqa: E402
from fuzz.test_fuzz_programs import random_programs  # noqa: E402


def _literal(match):
    """``(-0-infj)`` is no Python literal: ``complex(-0.0, -inf)`` is."""
    real = match.group(1) + ".0" if match.group(1) in ("0", "-0") else match.group(1)
    return f"complex({real}, {match.group(2)}{match.group(3)})"


def main():
    random_programs()
    entries = [e.strip("\n") for e in re.split(r"\n(?=    ')", "\n" + RECORD.known_entries()) if e.strip()]
    entries = [re.sub(r"\((-?0|-?nan|-?inf|[-+]?[0-9][0-9.e+-]*)([-+])(inf|nan)j\)", _literal, e) for e in entries]
    path = ROOT / "tests" / "fuzz" / "known_classes.py"
    text = path.read_text()
    start = text.index("KNOWN = {\n") + len("KNOWN = {\n")
    end = text.index("\n}\n", start)
    path.write_text(text[:start] + "\n".join(entries) + text[end:])
    print(f"{len(entries)} program classes; {RECORD.counts}")


if __name__ == "__main__":
    main()
