"""Issue 10's classes in special functions, reductions, scans, sorting and quantiles, found
by the long fuzz run (tests/fuzz): each program runs on chainrule and on PyTorch and gives
the same result or the same error (type name and first line)."""
import pytest

import chainrule
from helpers import outcome, require_torch

pytestmark = pytest.mark.torch

nan, inf = float("nan"), float("inf")


def _x(lib, *values, dtype="float64"):
    return lib.tensor(values, dtype=getattr(lib, dtype)).requires_grad_(dtype.startswith(("float", "complex")))


def _grads(lib, fn, x):
    """fn's gradient at x and, through it, the second derivative of sum(gradient * weights)."""
    y = fn(lib, x)
    g, = lib.autograd.grad(y.sum(), x, create_graph=True)
    if not g.requires_grad:
        return g, None
    h, = lib.autograd.grad((g * lib.arange(1, g.numel() + 1, dtype=g.dtype).reshape(g.shape)).sum(), x,
                           allow_unused=True)
    return g, h


def _tangent(lib, fn, x, t):
    fwd = lib.autograd.forward_ad
    with fwd.dual_level():
        return fwd.unpack_dual(fn(lib, fwd.make_dual(x, t))).tangent


CASES = {
    # quantile checks the interpolation and a number q first, q's values after wrapping the dim
    "quantile_q_values_after_dim": lambda lib: lib.quantile(lib.tensor(0.0), lib.tensor(-20.0), 1),
    "nanquantile_q_values_after_dim": lambda lib: lib.nanquantile(lib.tensor(1.0), lib.tensor(inf), 1),
    "quantile_interpolation_before_empty": lambda lib: lib.quantile(lib.zeros(0), 0.5, interpolation="x"),
    "quantile_interpolation_before_dtype": lambda lib: lib.quantile(lib.zeros(3, dtype=lib.int64), 0.5,
                                                                    interpolation="x"),
    "quantile_q_number_as_cpp_prints": lambda lib: lib.quantile(lib.tensor(0.0), 2.0, 1),
    # a sequence of one NaN: PyTorch's binary search (NaN compares false), not NumPy's order
    "searchsorted_lone_nan": lambda lib: lib.searchsorted(lib.tensor([nan]), lib.tensor(0.0)),
    "searchsorted_lone_nan_right": lambda lib: lib.searchsorted(lib.tensor([nan]), lib.tensor([3.25]), right=True),
    "bucketize_lone_nan": lambda lib: lib.bucketize(lib.tensor([0.0, nan]), lib.tensor([nan])),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome(name):
    torch = require_torch()
    assert outcome(CASES[name], chainrule) == outcome(CASES[name], torch)
