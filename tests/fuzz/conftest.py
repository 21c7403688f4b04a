"""The fuzzer's modes and its record of what it found.

CI mode (the default): a fixed seed (``derandomize``) and a bounded number of examples, so
that all of tests/fuzz takes about a minute. ``CHAINRULE_FUZZ=long`` runs
``CHAINRULE_FUZZ_EXAMPLES`` examples per test (default 100000) from a random seed, for at
most ``CHAINRULE_FUZZ_SECONDS`` per test (default 600), and prints at the end every
distinct mismatch class found, each with its smallest reproducer (also written to
``CHAINRULE_FUZZ_REPORT``, default /tmp/chainrule_fuzz_report.txt):

    CHAINRULE_FUZZ=long CHAINRULE_FUZZ_SECONDS=1200 pytest tests/fuzz -n0 -s

``CHAINRULE_FUZZ_OPS=REGEX`` keeps only the ops whose key matches (to work on one family).
"""
import importlib
import os
import time

import pytest

from hypothesis import HealthCheck, settings

from fuzz.known_classes import DELIBERATE_PROMOTION, KNOWN, KNOWN_BAD_INPUT, KNOWN_PROMOTION, deliberate_for

LONG = os.environ.get("CHAINRULE_FUZZ") == "long"
# "collect": CI's examples, but record every class instead of failing (to refresh known_classes.py)
STRICT = os.environ.get("CHAINRULE_FUZZ", "ci") == "ci"
SECONDS = float(os.environ.get("CHAINRULE_FUZZ_SECONDS", "600"))
REPORT = os.environ.get("CHAINRULE_FUZZ_REPORT", "/tmp/chainrule_fuzz_report.txt")


def fuzz_settings(ci_examples):
    """Hypothesis settings for one fuzz test: ``ci_examples`` in CI, many more when long."""
    return settings(max_examples=int(os.environ.get("CHAINRULE_FUZZ_EXAMPLES", "100000")) if LONG else ci_examples,
                    derandomize=not LONG, deadline=None, database=None, print_blob=False,
                    suppress_health_check=list(HealthCheck))


class Record:
    """Per session: how many programs and cases ran, and the smallest case of each class."""

    def __init__(self):
        self.counts = {}
        self.classes = {}  # key -> (size, detail, reproducer code)
        self.started = {}

    def count(self, what, n=1):
        self.counts[what] = self.counts.get(what, 0) + n

    def out_of_time(self, test):
        start = self.started.setdefault(test, time.monotonic())
        return LONG and time.monotonic() - start > SECONDS

    def add(self, key, size, detail, code, step=None):
        old = self.classes.get(key)
        if old is None or size < old[0]:
            self.classes[key] = (size, detail, code, step)

    def known_entries(self):
        """The classes as lines for known_classes.KNOWN (paste, then check each description)."""
        lines = []
        for key, (_, detail, _, step) in sorted(self.classes.items()):
            if isinstance(step, tuple):  # a promotion case
                lines.append(f"    {key!r}: {step!r},  # {detail[:150]!r}")
            elif step is not None:
                lines.append(f"    {key!r}: ({detail[:150]!r},\n        {step!r}),")
        return "\n".join(lines)

    def report(self, known, deliberate, deliberate_keys):
        # a program class is recorded only where no deliberate rule covered its input; the
        # promotion grid records its deliberate classes too (deliberate_keys)
        new = [k for k in self.classes if k not in known and k not in deliberate_keys]
        lines = [f"chainrule fuzz: {', '.join(f'{n} {w}' for w, n in sorted(self.counts.items()))}",
                 f"{len(self.classes)} mismatch classes ({len(new)} not in known_classes.py)"]
        for key in sorted(self.classes):
            size, detail, code, _ = self.classes[key]
            tag = ("known" if key in known else "deliberate" if key in deliberate_keys
                   else "NEW, a rule's key but not its input" if deliberate(key) else "NEW")
            lines += [f"\n[{tag}] {key}", f"    {detail}"] + [f"    {line}" for line in code.splitlines()]
        return "\n".join(lines)


RECORD = Record()


def write_report():
    """The report so far, to ``CHAINRULE_FUZZ_REPORT`` (and its .known.py); its text."""
    text = RECORD.report({**KNOWN, **KNOWN_PROMOTION, **KNOWN_BAD_INPUT}, deliberate_for, DELIBERATE_PROMOTION)
    with open(REPORT, "w") as f:
        f.write(text + "\n")
    with open(REPORT + ".known.py", "w") as f:
        f.write(RECORD.known_entries() + "\n")
    return text


def pytest_terminal_summary(terminalreporter):
    if not RECORD.counts:
        return
    text = write_report()
    if not STRICT:
        terminalreporter.write_line(text)


@pytest.fixture(autouse=True)
def _pinned_global_state():
    """The fuzz runs see the same global switches whatever ran before them in the worker
    (a known class must not appear or vanish with test order)."""
    import chainrule
    torch = importlib.import_module("torch")
    saved = chainrule.get_default_dtype(), torch.get_default_dtype()
    chainrule.set_default_dtype(chainrule.float32)
    torch.set_default_dtype(torch.float32)
    try:
        with chainrule.enable_grad(), torch.enable_grad():
            yield
    finally:
        chainrule.set_default_dtype(saved[0])
        torch.set_default_dtype(saved[1])
