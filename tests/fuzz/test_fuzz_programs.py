"""Random programs of 1 to 12 ops from the op database, on chainrule and on PyTorch.

Each program starts from a drawn array (any dtype, 0-d to 3-d, empty and size-1 dims,
transposed or strided, mostly special values) and chains ops: each step's input is
PyTorch's output of the step before, and each step is compared on its own (compare.py),
forward, first and second derivatives and forward-mode tangents. CI fails on a mismatch
class not in known_classes.py; see conftest.py for the long mode.
"""
import contextlib
import math
import os
import pathlib
import signal
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz.compare import Mismatch, Step, check_step, spec_of
from fuzz.conftest import LONG, RECORD, STRICT, fuzz_settings, write_report
from fuzz.known_classes import DELIBERATE, DELIBERATE_RULES, IN_CONTEXT_ONLY, KNOWN, deliberate_for
from fuzz.strategies import BINARY, OPS, UNARY, arrays, broadcast_partner, partner_dtype

MAX_OPS = 12 if LONG else 6
_FAMILY = {"float16": "float32", "int8": "int64", "int16": "int64", "int32": "int64", "uint8": "int64",
           "complex64": "complex128"}


def _accepting(dtype):
    """The ops whose entry lists ``dtype`` (or its family) among the dtypes it is tested with."""
    family = _FAMILY.get(dtype, dtype)
    return tuple(k for k in UNARY + BINARY if family in OPS[k].dtypes or dtype in OPS[k].dtypes)


ACCEPTING = {d: _accepting(d) for d in set(_FAMILY) | set(_FAMILY.values()) | {"float64", "bool"}}


def unexplained(mismatches):
    """The mismatches that are neither known nor deliberate (the known ones recorded too;
    the deliberate ones, docs/differences.md, only counted)."""
    out = []
    for m in mismatches:
        deliberate = deliberate_for(m.key)
        try:
            covered = bool(deliberate) and deliberate.applies(m.step)
        except Exception as e:
            if STRICT:
                raise
            m = Mismatch(f"{m.key.split('|')[0]}|harness:rule-{type(e).__name__}|-", str(e)[:200], m.step)
            covered = False
        if covered:
            RECORD.count("deliberate differences")
            continue
        RECORD.add(m.key, m.step.size(), m.detail, m.step.code(), m.step)
        if m.key not in KNOWN:
            out.append(m)
    return out


class StepTimeout(Exception):
    pass


STEP_SECONDS = 120  # long mode: a step still running then is recorded as a class (a hang in Python code)


@contextlib.contextmanager
def _watchdog():
    if not LONG:
        yield
        return

    def expired(signum, frame):
        raise StepTimeout(f"the step ran for more than {STEP_SECONDS} s")
    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(STEP_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_program(data, first):
    """Draws and checks one program from the array ``first``; the unexplained mismatches."""
    current, bad = first, []
    for _ in range(data.draw(st.integers(1, MAX_OPS), label="length")):
        pool = ACCEPTING.get(current.dtype) or UNARY + BINARY
        key = data.draw(st.one_of(st.sampled_from(pool), st.sampled_from(UNARY + BINARY)), label="op")
        inputs = (current,)
        if OPS[key].arity == 2:
            shape = data.draw(broadcast_partner(current.shape))
            other = data.draw(arrays(dtype=data.draw(partner_dtype(current.dtype)), shape=shape))
            inputs = data.draw(st.sampled_from(((current, other), (other, current))))
        try:
            with _watchdog():
                mismatches, nxt = check_step(Step(key, inputs))
        except Exception as e:
            if STRICT:
                raise
            mismatches, nxt = [Mismatch(f"{key}|harness:{type(e).__name__}|-", str(e)[:200], Step(key, inputs))], None
        RECORD.count("cases")
        RECORD.count("cases PyTorch ran", nxt is not None)
        bad += unexplained(mismatches)
        if nxt is not None and nxt.ndim <= 4 and math.prod(nxt.shape) <= 64:
            current = spec_of(nxt)  # else (an error, a number, too big): the next op gets the same input
    RECORD.count("programs")
    if LONG and RECORD.counts["programs"] % 1000 == 0:
        write_report()  # a long run that dies (out of memory, a crash in a kernel) keeps what it found
    return bad


def _one_program(data):
    bad = run_program(data, data.draw(arrays(), label="input"))
    if STRICT:
        assert not bad, "mismatch classes not in known_classes.py:\n" + "\n\n".join(
            f"{m.key}\n  {m.detail}\n{m.step.code()}" for m in bad)


random_programs = fuzz_settings(ci_examples=300)(given(st.data())(_one_program))


# Hypothesis draws each example after the outcomes of the ones before, so the CI examples are
# the same only in the same state: state other tests left in a worker drew other programs.
_FRESH_PROCESS = ("import sys; sys.path[:0] = [{tests!r}]\n"
                  "from fuzz.test_fuzz_programs import random_programs\nrandom_programs()\n")


LONG_BATCH = 1000  # programs per Hypothesis run in long mode: the time limit is looked at between runs


def _long_run():
    """Hypothesis runs of LONG_BATCH programs, each from a fresh random seed, until
    CHAINRULE_FUZZ_EXAMPLES programs ran or CHAINRULE_FUZZ_SECONDS passed. (A test that stops
    drawing once out of time would be, to Hypothesis, a strategy that changed its mind.)"""
    wanted = int(os.environ.get("CHAINRULE_FUZZ_EXAMPLES", "100000"))
    while RECORD.counts.get("programs", 0) < wanted and not RECORD.out_of_time("programs"):
        batch = settings(fuzz_settings(ci_examples=0), max_examples=min(LONG_BATCH, wanted - RECORD.counts.get("programs", 0)))
        batch(given(st.data())(_one_program))()


def test_random_programs():
    """CI mode: the fixed examples, in a fresh process; the long and collect modes here."""
    if LONG:
        _long_run()
        return
    if not STRICT:
        random_programs()
        return
    tests = str(pathlib.Path(__file__).resolve().parents[1])
    done = subprocess.run([sys.executable, "-c", _FRESH_PROCESS.format(tests=tests)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, (done.stdout[-8000:] + done.stderr[-8000:])


def test_known_classes_still_reproduce():
    """Strict: a listed class that no longer reproduces must leave KNOWN (it was fixed)."""
    gone = [key for key, (_, step) in KNOWN.items()
            if key not in IN_CONTEXT_ONLY and key not in {m.key for m in check_step(step)[0]}]
    assert not gone, f"fixed: remove from known_classes.KNOWN: {gone}"


def test_deliberate_differences_still_differ():
    """Each deliberate difference (docs/differences.md) is still there, on its reproducer."""
    gone = [key for key, d in DELIBERATE.items() if key not in {m.key for m in check_step(d.step)[0]}]
    gone += [rule.description for rule in DELIBERATE_RULES
             if not (rule.applies(rule.step) and any(rule.matches(m.key) for m in check_step(rule.step)[0]))]
    assert not gone, f"no longer different from PyTorch: {gone}"
