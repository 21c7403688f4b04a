"""What many test files need: PyTorch as the reference, loaded so that CI can't skip it.

``require_torch()`` is called inside a test body (not a fixture), so that a missing
PyTorch in CI (``CI`` set) is reported as a test failure, never as a skip.
"""
import importlib
import os
import warnings

import numpy as np
import pytest

import chainrule


def require_torch():
    try:
        torch = importlib.import_module("torch")
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("PyTorch is required in CI for the comparison tests")
        pytest.skip("PyTorch is not installed")
    torch.set_num_threads(1)
    chainrule.set_num_threads(1)  # as a user's torch.set_num_threads(1) would: PyTorch's choices depend on it
    return torch


def to_numpy(t):
    """A chainrule or torch tensor (or None) as a NumPy array."""
    if t is None:
        return None
    return np.asarray(t.detach().numpy())


def both(program):
    """``program(lib)`` run with chainrule and with torch: the same code on both sides."""
    import chainrule
    torch = require_torch()
    return program(chainrule), program(torch)


def assert_close(ours, theirs, rtol=1e-6, atol=1e-8):
    """Nested tuples/lists of tensors (or None, or plain values) match element by element."""
    if isinstance(ours, dict):
        assert isinstance(theirs, dict) and list(ours) == list(theirs)
        for key in ours:
            assert_close(ours[key], theirs[key], rtol, atol)
    elif isinstance(ours, (tuple, list)):
        assert isinstance(theirs, (tuple, list)) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert_close(a, b, rtol, atol)
    elif ours is None or theirs is None:
        assert ours is None and theirs is None
    elif isinstance(ours, (bool, int, float, str)):
        assert ours == theirs
    else:
        np.testing.assert_allclose(to_numpy(ours), to_numpy(theirs), rtol=rtol, atol=atol)


def data(L, values, requires_grad=True, dtype="float64"):
    """A leaf of library ``L`` from exact values (float64 unless told: never through float32)."""
    t = L.from_numpy(np.array(values, dtype=dtype))
    return t.requires_grad_() if requires_grad else t


def error_of(fn):
    """(exception type, first line of its message) raised by ``fn()``."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type is what we compare)
        return type(e), str(e).splitlines()[0]
    raise AssertionError("no exception raised")


def full_error_of(fn):
    """(exception type, whole message) raised by ``fn()``."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type is what we compare)
        return type(e), str(e)
    raise AssertionError("no exception raised")


def outcome(fn, lib):
    """``fn(lib)`` as ``("ok", dtype, shape, values)`` or ``("error", type name, first line)``,
    its warnings silenced: what a comparison with PyTorch compares."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = fn(lib)
    except Exception as e:  # noqa: BLE001  (the type is what we compare)
        return "error", type(e).__name__, str(e).splitlines()[0]
    if isinstance(out, (tuple, list)):
        return tuple(outcome(lambda _, o=o: o, lib) for o in out)
    if out is None:
        return None
    values = out.detach().numpy()
    return "ok", str(out.dtype).split(".")[-1], tuple(out.shape), [str(v) for v in np.round(values.astype(complex), 5).ravel()]


def leaf(lib, *values, dtype="float64"):
    """A tensor of ``values`` that requires grad where its dtype can."""
    return lib.tensor(values, dtype=getattr(lib, dtype)).requires_grad_(dtype.startswith(("float", "complex")))


def grads(lib, fn, x, create_graph=True):
    """fn's gradient at x and, through it, the second derivative of sum(gradient * weights)."""
    y = fn(lib, x)
    g, = lib.autograd.grad(y.sum(), x, create_graph=create_graph)
    if not g.requires_grad:
        return g, None
    h, = lib.autograd.grad((g * lib.arange(1, g.numel() + 1, dtype=g.dtype).reshape(g.shape)).sum(), x,
                           allow_unused=True)
    return g, h


def op_tangent(op, inputs, tangents, params=()):
    """``(output, tangent)`` of the registered ``op`` at ``inputs`` (tensors) for input tangents
    (None: zero), by forward AD itself: dual inputs in a level, the op, then ``unpack_dual``."""
    fwd = chainrule.autograd.forward_ad
    with fwd.dual_level():
        duals = [x if t is None else fwd.make_dual(x, t) for x, t in zip(inputs, tangents)]
        primal, tangent = fwd.unpack_dual(chainrule._ops.registry.apply(op, duals, params))
    return primal, tangent
