"""Regression tests for issue 10's integer, bool, complex and bad-input classes in the
elementwise and binary ops: each case runs on chainrule and on PyTorch, and the values,
dtypes or exception types (and first lines) must agree."""
import math
import warnings

import pytest

import chainrule
from helpers import require_torch

CASES = [
    # Python ints out of an integer dtype's range wrap, as in PyTorch
    "t.tensor([1, 2], dtype=t.uint8) + (-3)",
    "t.tensor([1, 2], dtype=t.uint8) - 300",
    "t.tensor([1, 2], dtype=t.int8) * 300",
    "300 - t.tensor([1, 2], dtype=t.int8)",
    "t.tensor([1, 2], dtype=t.int8) // -300",
    "t.tensor([1, 2], dtype=t.int8) % -300",
    "t.remainder(300, t.tensor([1, 2], dtype=t.int8))",
    "t.tensor([1, 2], dtype=t.int8) | 300",
    "t.tensor([1, 2], dtype=t.int8).bitwise_and(2**63)",
    "t.tensor([1, 2], dtype=t.int8).div(300, rounding_mode='trunc')",
    "t.tensor([1, 2], dtype=t.int8).div(300)",
    "t.tensor([1, 2]) + 2**63",
    "t.tensor([1, 2], dtype=t.uint8) > -1",
    "t.tensor([1, 2], dtype=t.uint8) == 257",
    "t.tensor([5, 7], dtype=t.int16) < 2**17 + 1",
    "t.tensor([1, 2]) < 2**63",
    "t.tensor([1, 2], dtype=t.int8).mul_(300)",
    # beyond 64 bits, or a uint64 number with bool: PyTorch's errors
    "t.tensor([1, 2]) + 2**64",
    "t.tensor([1., 2.]) + 2**64",
    "t.tensor([1., 2.]) < 2**64",
    "t.tensor([1, 2]) + (-2**63 - 1)",
    "t.tensor([True]) + 2**63",
    # checked conversions: fill_, full, alpha, pow exponent, where's numbers
    "t.tensor([1, 2], dtype=t.int8).fill_(300)",
    "t.tensor([1, 2], dtype=t.uint8).fill_(-3)",
    "t.ones(1, dtype=t.float16).fill_(1e6)",
    "t.full((2,), 300, dtype=t.int8)",
    "t.full((2,), -3, dtype=t.uint8)",
    "t.tensor([1, 2], dtype=t.uint8).add(1, alpha=300)",
    "t.tensor([1, 2], dtype=t.uint8).sub(1, alpha=-3)",
    "t.tensor([1, 2], dtype=t.int8).pow(200)",
    "t.where(t.tensor([False, True]), t.tensor([1, 2], dtype=t.int8), 300)",
    # integer and bool powers
    "t.tensor([-2, -1, 0, 1, 2]) ** t.tensor(-1)",
    "t.tensor([-1, -1, 3]) ** t.tensor([-2, -3, -1])",
    "2 ** t.tensor([-1, -2])",
    "t.tensor([2, 3], dtype=t.int8) ** t.tensor([-1], dtype=t.int8)",
    "t.tensor([2]) ** -1",
    "t.tensor([True, False]) ** 2",
    "t.tensor([True, False]) ** True",
    "t.tensor([True, False]) ** 2.0",
    "t.tensor([True, False]) ** t.tensor([True, False])",
    "True ** t.tensor([True, False])",
    "2 ** t.tensor([True, False])",
    "t.tensor([True, False]).pow(-1)",
    # bool subtraction
    "2 - t.tensor([True, False])",
    "2.0 - t.tensor([True, False])",
    "True - t.tensor([True, False])",
    # a number operand stays weakly typed against a 0-d tensor
    "2 // t.tensor(3, dtype=t.uint8)",
    "300 // t.tensor(3, dtype=t.uint8)",
    "2.5 // t.tensor(3, dtype=t.uint8)",
    # signed zero: x ** -0.5 is rsqrt
    "t.tensor([-0., 0., -math.inf, 4.]) ** -0.5",
    "t.tensor([-0., 0., 4.], dtype=t.float64) ** -0.5",
    # bad operands
    "t.ones(2) + [1, 2]",
    "t.ones(2) - [1, 2]",
    "[1, 2] / t.ones(2)",
    "t.ones(2) ** [1, 2]",
    "t.ones(2) < [1, 2]",
    "t.ones(2) == [1, 2]",
    "t.ones(2) == None",
    "t.ones(2) + None",
    "t.add(t.ones(2), [1, 2])",
    "t.mul(t.ones(2), None)",
    "t.exp(3.0)",
    "t.exp(None)",
    "t.sin([1.0])",
    "t.neg(None)",
    # creation errors
    "t.tensor(2**63)",
    "t.tensor([2**64])",
    "t.tensor(300, dtype=t.uint8)",
    "t.tensor(-1, dtype=t.uint8)",
    "t.zeros(2**62)",
    "t.ones(2**62)",
    "t.empty(2**40)",
]


def _run(lib, case):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "value", eval(case, {"t": lib, "math": math})
    except Exception as e:  # noqa: BLE001  (the exception is the result compared)
        return "error", e


@pytest.mark.parametrize("case", CASES)
def test_matches_torch(case):
    torch = require_torch()
    theirs_kind, theirs = _run(torch, case)
    ours_kind, ours = _run(chainrule, case)
    if theirs_kind == "error":
        assert ours_kind == "error", f"{case}: torch raised {theirs!r}, chainrule gave {ours!r}"
        assert isinstance(ours, type(theirs)), f"{case}: {ours!r} is not a {type(theirs).__name__}"
        if not isinstance(theirs, RuntimeError) or "alloc" not in str(theirs):  # the allocator's line varies
            assert str(ours).splitlines()[0] == str(theirs).splitlines()[0], case
        return
    assert ours_kind == "value", f"{case}: chainrule raised {ours!r}"
    if isinstance(theirs, bool):
        assert ours is theirs
        return
    assert repr(ours.dtype) == repr(theirs.dtype), case
    assert ours.tolist() == theirs.tolist() or repr(ours) == repr(theirs), case
    assert [math.copysign(1, v) for v in ours.flatten().tolist()] == \
        [math.copysign(1, v) for v in theirs.flatten().tolist()], case  # signed zeros too


@pytest.mark.parametrize("value", ["1j", "t.tensor(1j)", "t.tensor([1j])"])
def test_float16_with_complex_refuses_complex32(value):
    """PyTorch's result is complex32, a dtype chainrule lacks: a TypeError naming it
    rather than a silent complex64 (docs/differences.md)."""
    torch = require_torch()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = (torch.tensor([1.], dtype=torch.float16) + eval(value, {"t": torch})).dtype
    with pytest.raises(TypeError, match="complex32"):
        r = chainrule.tensor([1.], dtype=chainrule.float16) + eval(value, {"t": chainrule})
        if repr(expected) != "torch.complex32":  # torch promoted past complex32: so must we
            assert repr(r.dtype) == repr(expected)
            raise TypeError("complex32 not involved")


@pytest.mark.parametrize("exponent", [-2.0, -1.0, -0.5, 0.0, 0.5, 2.0])
def test_zero_base_power_gradients(exponent):
    """``0.0 ** x``, ``x ** y`` at x = 0 and ``x ** p``: PyTorch's pow_backward rules."""
    torch = require_torch()
    grads = []
    for lib in (chainrule, torch):
        y = lib.tensor([exponent, 1.0], dtype=lib.float64, requires_grad=True)
        x = lib.tensor([0.0, 0.0], dtype=lib.float64, requires_grad=True)
        (gy,) = lib.autograd.grad((0.0 ** y).sum(), y)
        gx, gy2 = lib.autograd.grad((x ** y).sum(), (x, y))
        grads.append([gy.tolist(), gx.tolist(), gy2.tolist()])
    assert repr(grads[0]) == repr(grads[1])


def test_where_keeps_a_number_exact_in_a_float64_result():
    torch = require_torch()
    for L in (chainrule, torch):
        t = L.ones(3, dtype=L.float64)
        assert L.where(t > 0, 1.0507009873554805, t).tolist() == [1.0507009873554805] * 3


def test_division_gradient_in_pytorchs_order():
    """-g * ((x / y) / y): at x = y = 1e-200 the product y * y would underflow to 0."""
    torch = require_torch()
    grads = []
    for L in (chainrule, torch):
        x = L.tensor([1e-200, 3.0], dtype=L.float64, requires_grad=True)
        y = L.tensor([1e-200, 7.0], dtype=L.float64, requires_grad=True)
        (x / y).sum().backward()
        grads.append((x.grad.tolist(), y.grad.tolist()))
    assert grads[0] == grads[1]


def test_a_float32_tensor_with_a_float64_0d_one_computes_in_float32():
    torch = require_torch()
    results = []
    for L in (chainrule, torch):
        a, b = L.tensor([0.1, 0.7, 1e-3], dtype=L.float32), L.tensor(3.3, dtype=L.float64)
        results.append([(op(a, b)).numpy().tobytes() for op in (lambda p, q: p / q, lambda p, q: p * q,
                                                                 lambda p, q: p + q, lambda p, q: p - q)])
    assert results[0] == results[1]
