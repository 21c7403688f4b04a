"""Tensor printing must match PyTorch 2.13 character for character.

Every case of tests/printing_corpus.py is checked against the golden strings that
scripts/regen_printing_golden.py recorded from real PyTorch and, when PyTorch is
installed, live against ``repr`` of the same tensor. In CI (``CI`` set) a missing
PyTorch is a failure, not a skip, so the live comparison can't silently vanish.
"""
import contextlib
import importlib
import json
import math
import os
import pathlib
import sys

import numpy as np
import pytest

from chainrule._core import dtype as _dtype, printing as _printing

TESTS = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))

from printing_corpus import CASES, GRAD_OPS  # noqa: E402

GOLDEN = json.loads((TESTS / "golden" / "printing.json").read_text())["cases"]
CASE_IDS = [case.name for case in CASES]


@pytest.fixture(autouse=True)
def restore_print_state():
    """Print options and the default dtype are global: put them back after each test."""
    options, default = _printing.get_printoptions(), _dtype.get_default_dtype()
    yield
    _printing.set_printoptions(**options)
    _dtype.set_default_dtype(default)


@contextlib.contextmanager
def live_torch():
    """PyTorch, with its print options and default dtype restored afterwards.

    Used inside the test body (not as a fixture) so that a missing PyTorch in CI is
    reported as a test failure rather than a setup error.
    """
    try:
        torch = importlib.import_module("torch")
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("PyTorch is required in CI for the live printing comparison")
        pytest.skip("PyTorch is not installed")
    options, default = torch._tensor_str.get_printoptions(), torch.get_default_dtype()
    try:
        yield torch
    finally:
        torch.set_printoptions(**options)
        torch.set_default_dtype(default)


def chainrule_repr(case):
    """Our repr of a corpus case, under its options and default dtype."""
    if case.default_dtype:
        _dtype.set_default_dtype(getattr(_dtype, case.default_dtype))
    _printing.set_printoptions(**case.options)
    data = case.array()
    return _printing.tensor_repr(data, _dtype.from_numpy_dtype(data.dtype),
                                 requires_grad=case.requires_grad or bool(case.grad_fn),
                                 grad_fn_name=case.grad_fn)


def live_torch_repr(torch, case):
    if case.default_dtype:
        torch.set_default_dtype(getattr(torch, case.default_dtype))
    torch.set_printoptions(**case.options)
    t = torch.from_numpy(case.array())
    if case.requires_grad or case.grad_fn:
        t.requires_grad_()
    if case.grad_fn:
        t = GRAD_OPS[case.grad_fn](t)
    return repr(t)


# --- the corpus --------------------------------------------------------------------

def test_corpus_is_large_and_golden_is_current():
    assert len(CASES) >= 170
    assert set(GOLDEN) == set(CASE_IDS), "run scripts/regen_printing_golden.py"
    covered = {case.dtype for case in CASES}
    assert covered == {d.name for d in _dtype.ALL_DTYPES}


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_matches_golden(case):
    assert chainrule_repr(case) == GOLDEN[case.name]


@pytest.mark.torch
@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_matches_live_torch(case):
    with live_torch() as torch:
        assert chainrule_repr(case) == live_torch_repr(torch, case)


# --- print options -----------------------------------------------------------------

DEFAULTS = dict(precision=4, threshold=1000, edgeitems=3, linewidth=80, sci_mode=None)


def test_default_printoptions():
    assert _printing.get_printoptions() == DEFAULTS


def test_profiles():
    _printing.set_printoptions(profile="short")
    assert _printing.get_printoptions() == dict(DEFAULTS, precision=2, edgeitems=2)
    _printing.set_printoptions(profile="full")
    assert _printing.get_printoptions() == dict(DEFAULTS, threshold=math.inf)
    _printing.set_printoptions(profile="default")
    assert _printing.get_printoptions() == DEFAULTS


def test_explicit_options_override_profile():
    _printing.set_printoptions(profile="short", precision=7, linewidth=100)
    assert _printing.get_printoptions() == dict(DEFAULTS, precision=7, edgeitems=2,
                                                linewidth=100)


def test_unknown_profile_is_ignored():
    _printing.set_printoptions(precision=6)
    _printing.set_printoptions(profile="nonsense")
    assert _printing.get_printoptions()["precision"] == 6


def test_any_call_resets_sci_mode():
    """PyTorch assigns sci_mode on every call, so omitting it means automatic again."""
    _printing.set_printoptions(sci_mode=True)
    assert _printing.get_printoptions()["sci_mode"] is True
    _printing.set_printoptions(precision=3)
    assert _printing.get_printoptions()["sci_mode"] is None


def test_get_printoptions_round_trips():
    _printing.set_printoptions(precision=2, threshold=7, edgeitems=1, linewidth=50,
                               sci_mode=False)
    saved = _printing.get_printoptions()
    _printing.set_printoptions(profile="default")
    _printing.set_printoptions(**saved)
    assert _printing.get_printoptions() == saved


def test_printoptions_context_manager_restores():
    with _printing.printoptions(precision=1, sci_mode=True):
        assert _printing.get_printoptions() == dict(DEFAULTS, precision=1, sci_mode=True)
    assert _printing.get_printoptions() == DEFAULTS


@pytest.mark.torch
@pytest.mark.parametrize("calls", [
    [dict(profile="short")],
    [dict(profile="full")],
    [dict(profile="short", precision=5)],
    [dict(precision=6), dict(profile="nonsense")],
    [dict(sci_mode=True), dict(linewidth=100)],
    [dict(threshold=5, edgeitems=0), dict(profile="default")],
])
def test_printoptions_match_live_torch(calls):
    with live_torch() as torch:
        for kwargs in calls:
            _printing.set_printoptions(**kwargs)
            torch.set_printoptions(**kwargs)
        assert _printing.get_printoptions() == torch._tensor_str.get_printoptions()


# --- the interface -----------------------------------------------------------------

def test_grad_fn_replaces_requires_grad():
    text = _printing.tensor_repr(np.array(2.0, np.float32), _dtype.float32,
                                 requires_grad=True, grad_fn_name="MulBackward0")
    assert text == "tensor(2., grad_fn=<MulBackward0>)"


def test_accepts_array_likes():
    assert _printing.tensor_repr([1, 2], _dtype.int64) == "tensor([1, 2])"
