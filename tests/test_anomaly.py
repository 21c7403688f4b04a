"""Anomaly detection against PyTorch: the switches, the warning on entering
``detect_anomaly``, the "Error detected in ..." warning with the forward traceback, the
NaN error, and chainrule's cheap mode.

Each program runs on chainrule and on torch from the same line, so the forward
tracebacks PyTorch records (``node.metadata['traceback_']``) have the same frames on both
sides. PyTorch's C++ warnings end with " (Triggered internally at <its C++ file>)", which
is left out before comparing; frames inside a library (PyTorch's Python ops, chainrule's
own code) are dropped too.
"""
import os
import warnings

import numpy as np
import pytest

import chainrule
from helpers import both, data, require_torch


def _library_dirs():
    return os.path.dirname(chainrule.__file__), os.path.dirname(require_torch().__file__)


def _clean(text):
    """A warning's text without PyTorch's C++ suffix and without library frames."""
    text = text.split(" (Triggered internally at")[0]
    lines = text.split("\n")
    kept, skip = [], False
    for line in lines:
        if skip:
            skip = False
            continue
        if line.startswith('  File "') and line[len('  File "'):].startswith(_library_dirs()):
            skip = True  # and the source line under it
            continue
        kept.append(line)
    return "\n".join(kept).rstrip("\n")


def _run(program, L):
    """(exception type and message or None, the UserWarnings' cleaned texts) of ``program(L)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            program(L)
            error = None
        except RuntimeError as e:
            error = (type(e).__name__, str(e))
    return error, [_clean(str(w.message)) for w in caught if w.category is UserWarning]


def same_on_both(program):
    ours, theirs = both(lambda L: _run(program, L))
    assert ours == theirs
    return ours


# --- the switches -----------------------------------------------------------------------------


def test_switches_and_restoring_match_torch():
    def program(L):
        seen = [(L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled())]
        with L.autograd.set_detect_anomaly(True, check_nan=False):
            seen.append((L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with L.autograd.detect_anomaly():
                    seen.append((L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()))
            seen.append((L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()))
        seen.append((L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()))
        L.autograd.set_detect_anomaly(True)  # as a plain call: stays on
        seen.append(L.is_anomaly_enabled())
        L.set_anomaly_enabled(False)
        seen.append((L.is_anomaly_enabled(), L.is_anomaly_check_nan_enabled()))
        return seen
    ours, theirs = both(program)
    assert ours == theirs


def test_detect_anomaly_warns_on_creation_as_torch():
    def program(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            L.autograd.detect_anomaly(check_nan=False)
        return [(w.category, str(w.message), os.path.basename(w.filename)) for w in caught]
    ours, theirs = both(program)
    assert ours == theirs and len(ours) == 1


# --- errors in backward -----------------------------------------------------------------------


def test_nan_gradient_raises_with_the_forward_traceback():
    def program(L):
        x, w = data(L, [-1.0, 1.0]), data(L, [-1.0, 1.0])
        with L.autograd.detect_anomaly():
            z = x.sqrt() * 2
            loss = (z * w).sum()  # w's gradient, z, holds a NaN: MulBackward0's 1th output
            loss.backward()
    error, warned = same_on_both(program)
    assert error == ("RuntimeError", "Function 'MulBackward0' returned nan values in its 1th output.")
    assert warned[1].startswith("Error detected in MulBackward0. Traceback of forward call that caused the error:")
    assert warned[1].endswith("loss = (z * w).sum()  # w's gradient, z, holds a NaN: MulBackward0's 1th output")


def test_nan_in_the_first_output():
    def program(L):
        a, b = data(L, [1.0, 2.0]), data(L, [0.0, 2.0])
        with L.autograd.detect_anomaly():
            (a / b * 0).sum().backward()
    error, _ = same_on_both(program)
    assert error == ("RuntimeError", "Function 'DivBackward0' returned nan values in its 0th output.")


def test_check_nan_false_lets_nan_through():
    def program(L):
        x = data(L, [-1.0, 4.0])
        with L.autograd.set_detect_anomaly(True, check_nan=False):
            x.sqrt().sum().backward()
        return [float(v) for v in x.grad]
    ours, theirs = both(lambda L: _run(program, L) + (program(L),))
    assert str(ours) == str(theirs)  # NaN != NaN: compare the printed values


def test_inplace_error_gets_the_anomaly_hint_and_traceback():
    def program(L):
        a = data(L, [1.0, 2.0])
        with L.autograd.detect_anomaly():
            b = a.exp()
            b.add_(1)
            b.sum().backward()
    error, warned = same_on_both(program)
    assert "Hint: the backtrace further above shows the operation" in error[1]
    assert warned[1].endswith("b = a.exp()")


def test_node_recorded_before_anomaly_mode_has_no_traceback():
    def program(L):
        x = data(L, [-1.0, 1.0])
        y = x.sqrt()
        with L.autograd.detect_anomaly():
            y.sum().backward()
    error, warned = same_on_both(program)
    assert warned[1].startswith("Error detected in SqrtBackward0. No forward pass information available.")


def test_metadata_holds_the_traceback():
    def program(L):
        x = data(L, [1.0, 2.0])
        outside = x.exp().grad_fn.metadata
        with L.autograd.set_detect_anomaly(True):
            inside = x.exp().grad_fn.metadata
        return outside, sorted(inside), _clean("".join(inside["traceback_"]))
    ours, theirs = both(program)
    assert ours == theirs
    assert ours[2].endswith("inside = x.exp().grad_fn.metadata")


def test_double_backward_names_the_node_that_induced_it():
    def program(L):
        x = data(L, [0.0, 1.0])
        with L.autograd.detect_anomaly():
            y = x * x * x
            g, = L.autograd.grad(y.sum(), x, create_graph=True)
            g.sqrt().sum().backward()  # sqrt'(0) = inf, times x = 0 in a MulBackward0 made by backward
    error, warned = same_on_both(program)
    assert error[1].startswith("Function 'MulBackward0' returned nan values")
    assert any(w.startswith("\n\nPrevious calculation was induced by MulBackward0.") for w in warned)


def test_anomaly_off_lets_nan_through_silently():
    def program(L):
        x = data(L, [-1.0, 4.0])
        x.sqrt().sum().backward()
        return str([float(v) for v in x.grad]), x.sqrt().grad_fn.metadata
    ours, theirs = both(program)
    assert ours == theirs


# --- chainrule only: the decorator and the cheap mode -------------------------------------------


def test_detect_anomaly_as_a_decorator():
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        @chainrule.autograd.detect_anomaly(check_nan=False)
        def inside():
            return chainrule.is_anomaly_enabled(), chainrule.is_anomaly_check_nan_enabled()
    assert inside() == (True, False)
    assert (chainrule.is_anomaly_enabled(), chainrule.is_anomaly_check_nan_enabled()) == (False, True)


def _cheap_nan(x):
    return x.sqrt()  # the line cheap mode names


def test_cheap_mode_names_the_user_line():
    torch = require_torch()
    x = data(chainrule, [-1.0, 1.0])
    tx = data(torch, [-1.0, 1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with chainrule.autograd.detect_anomaly(cheap=True):
            y = _cheap_nan(x) * 2
            with pytest.raises(RuntimeError) as ours:
                y.sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly(), pytest.raises(RuntimeError) as theirs:
            (_cheap_nan(tx) * 2).sum().backward()
    line = _cheap_nan.__code__.co_firstlineno + 1
    assert str(ours.value) == (f"{theirs.value} The op was created at {__file__}:{line} in _cheap_nan: "
                               "`return x.sqrt()  # the line cheap mode names`")
    assert not [w for w in caught if w.category is UserWarning]  # cheap mode: no warnings
    assert not chainrule.is_anomaly_enabled()


def _exp_then_modify(a):
    b = a.exp()  # ExpBackward0 saves b, which the next line changes
    b.add_(1)
    return b


def test_cheap_mode_warns_with_the_line_when_a_vjp_fails():
    a = data(chainrule, [1.0, 2.0])
    with chainrule.autograd.set_detect_anomaly(True, cheap=True):
        b = _exp_then_modify(a)
        with pytest.warns(UserWarning) as caught, pytest.raises(RuntimeError, match="modified by an inplace"):
            b.sum().backward()
    line = _exp_then_modify.__code__.co_firstlineno + 1
    assert str(caught[0].message) == (f"Error detected in ExpBackward0. The op was created at {__file__}:{line} in "
                                      "_exp_then_modify: `b = a.exp()  # ExpBackward0 saves b, which the next line "
                                      "changes`")


def test_cheap_mode_records_one_code_line_per_node():
    x = data(chainrule, np.ones(3))
    with chainrule.autograd.set_detect_anomaly(True, cheap=True):
        y = x.exp()
    code, line = y.grad_fn.metadata["origin_"]
    first = test_cheap_mode_records_one_code_line_per_node.__code__.co_firstlineno
    assert (code.co_filename, code.co_name, line) == (__file__, "test_cheap_mode_records_one_code_line_per_node",
                                                      first + 3)
