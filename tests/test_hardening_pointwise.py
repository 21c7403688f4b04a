"""Regression tests for issue 10's promotion classes (tests/fuzz/test_fuzz_promotion.py): each
case runs on chainrule and on PyTorch; the dtypes, the values (the places of nan and inf,
the signs of zeros, both parts of complex numbers) or the exceptions (type and first line)
must agree."""
import math
import warnings

import numpy as np
import pytest

import chainrule
from helpers import require_torch

CASES = [
    # complex add and sub are a + alpha * b: an inf or nan part of b spreads to both parts
    "t.tensor([complex(0, math.nan), complex(math.inf, 1)]) + t.tensor([1., 2.])",
    "t.tensor([1., -3.]) + t.tensor([complex(0, math.nan), 2j])",
    "t.tensor([1 + 1j]) + math.inf",
    "t.tensor([-0. + 0j], dtype=t.complex64) - complex(0, -0.0)",
    "5 - t.tensor([complex(math.inf, 0)])",
    "t.tensor([1 + 1j]).sub_(t.tensor([math.nan]))",
    # complex pow is glibc's cpow, exp(y log x), without NumPy's shortcuts
    "t.tensor([-0. + 0j, 0.5, -3 + 0j]) ** t.tensor([False, True, True])",
    "t.tensor([0., -2.5]) ** t.tensor(-0. + 0j)",
    "t.tensor([1 - 2j, -3 + 0j]) ** t.tensor([0, 3])",
    "t.tensor([0.5 + 0j, -0. + 0j], dtype=t.complex64) ** 300",
    "t.tensor([-0. + 0j]) ** True",
    "t.tensor([0., 2.]) ** (1 + 2j)",
    "t.tensor([2., 3.]) ** 0j",
    "t.float_power(t.tensor([-3 + 0j]), 3)",
    "t.float_power(t.tensor([0, 2]), t.tensor(1 + 1j))",
    # ... whose y * log(x) is C's complex product: an infinity where NumPy's is nan+nanj,
    # and no fused multiply-add (which moves sin and cos of a huge part)
    "t.tensor([complex(-math.inf, math.nan), 0j, complex(math.nan, math.inf)]) ** (-3.4 + 0j)",
    "t.tensor([0j, -0j, 0j]) ** t.tensor([complex(1, math.nan), complex(-1, math.nan), complex(math.inf, -math.inf)])",
    "t.tensor([-2.5 + 0j], dtype=t.complex128) ** t.tensor([1e300 - 1e300j], dtype=t.complex128)",
    "t.float_power(t.tensor([complex(math.inf, math.nan)], dtype=t.complex64), -2.5)",
    # a number to a tensor power: ones for 1 (not for True), else pow, cpow for complex
    "1 ** t.tensor([math.nan, 2.])",
    "True ** t.tensor([0, -3])",
    "False ** t.tensor([-3, 0, 2])",
    "True ** t.tensor([complex(0, math.nan)])",
    "(1 + 2j) ** t.tensor([-3, 0, 2])",
    "2 ** t.tensor([0.5 + 0j, complex(0, math.nan)])",
    "(1 + 2j) ** t.tensor([1.], dtype=t.float16)",
    # a number exponent: PyTorch's sqrt, products and reciprocal
    "t.tensor([-0., -math.inf, 4.]) ** 0.5",
    "t.tensor([complex(math.inf, 0), 1 + 2j]) ** 2",
    "t.tensor([-0., 2.]) ** -1",
    # float remainder: fmod moved by b; a zero keeps the sign of a
    "t.tensor([-0., -2.5, 3.]) % 2.5",
    "t.tensor([0., 2.]) % t.tensor([-2., -1.])",
    "t.remainder(t.tensor([-0.], dtype=t.float16), 3)",
    "t.tensor([0, 3]) % t.tensor([-2.5])",
    # in place: the promoted dtype must cast to self's before the kernel runs
    "t.tensor([True, False]).floor_divide_(t.tensor([0, 1]))",
    "t.tensor([1, 2]).bitwise_and_(t.tensor([1.5, 2.]))",
    "t.tensor([1, 2]).__ilshift__(t.tensor([1., 2.]))",
    "t.tensor([True]).div_(3)",
    "t.tensor([True]).div_(t.tensor([3]))",
    "t.tensor([True]).div_(2**63)",
    "t.tensor([True]).pow_(-3)",
    "t.tensor([True]).pow_(2)",
    "t.ones(2, dtype=t.float16).add_(1j)",
    "t.ones(2, dtype=t.float16).mul_(t.tensor(1j))",
    "t.tensor([1, 2]).remainder_(t.tensor([1 + 1j]))",
    "t.tensor([True]).atan2_(t.tensor([1]))",
    "t.tensor([True]).xlogy_(300)",
    # in place, tensor-only ops check their operands first, by the method's name
    "t.tensor([1., 2.]).atan2_(2.0)",
    "t.tensor([True]).logical_and_(300)",
    "t.tensor([1.]).hypot_(1j)",
    # in-place comparisons: as the out-of-place ones, in the promoted dtype
    "t.tensor([200, 3], dtype=t.uint8).eq_(t.tensor(-56, dtype=t.int8))",
    "t.tensor([0, 1], dtype=t.uint8).eq_(256)",
    "t.tensor([True]).lt_(2**63)",
    "t.tensor([1., 0.1], dtype=t.float16).eq_(t.tensor(0.1 + 0j))",
    # Python ints from 2**63 are uint64 (not promoted with bool); beyond, OverflowError first
    "t.tensor([True]) & 2**63",
    "t.tensor([True]) / 2**63",
    "t.copysign(t.tensor([True]), 2**63)",
    "t.tensor([1 + 1j]) < -2**63 - 1",
    "t.tensor([True]) - (-2**63 - 1)",
    "t.tensor([3], dtype=t.int32) ** 2**63",
    "t.tensor([True]) ** 2**63",
    "t.float_power(t.tensor([1.]), -2**63 - 1)",
    # kernels without complex32: PyTorch's errors, naming ComplexHalf
    "t.tensor([1.], dtype=t.float16) / 1j",
    "t.tensor([1.], dtype=t.float16) / t.tensor(1j)",
    "t.atan2(t.tensor([1.], dtype=t.float16), t.tensor(1j))",
    "t.tensor([1.], dtype=t.float16) % t.tensor(1j)",
    "t.tensor([1.], dtype=t.float16) // t.tensor(1j)",
    "t.tensor([1.], dtype=t.float16) < 1j",
    "t.tensor(1j) >= t.tensor([1.], dtype=t.float16)",
    "t.tensor([1.], dtype=t.float16) & t.tensor(1j)",
    "t.logical_and(t.tensor([1.], dtype=t.float16), t.tensor(1j))",
    "t.maximum(t.tensor([1.], dtype=t.float16), t.tensor(1j))",
    "t.tensor([1.], dtype=t.float16) ** (1 + 2j)",
    "t.tensor([1.], dtype=t.float16) ** t.tensor(1j)",
    # complex32 comparisons: each part rounded to float16
    "t.tensor([0.1, 1.], dtype=t.float16) == (0.1 + 0j)",
    "t.tensor(0.1 + 0j) != t.tensor([0.1], dtype=t.float16)",
    # comparisons and shifts in the promoted dtype: the 0-d int8 -1 is uint8 255
    "t.tensor([255, 1], dtype=t.uint8) == t.tensor(-1, dtype=t.int8)",
    "t.tensor([1, 2], dtype=t.uint8) < t.tensor(-3)",
    "t.tensor([200, 255, 3], dtype=t.uint8) >> t.tensor([200, 8, 1], dtype=t.uint8)",
    "t.tensor([200], dtype=t.uint8) >> -3",
    "t.tensor(-3) >> t.tensor([0, 1, 200], dtype=t.uint8)",
    "t.tensor([1, 2], dtype=t.uint8) ** t.tensor(-3)",
    # a Python bool counts as a bool tensor in subtraction
    "t.tensor([1., 2.]) - True",
    "t.tensor([1, 2]).sub_(False)",
    "True - t.tensor([1., 2.])",
    # float16 times or over a number: computed in float32, rounded once
    "t.tensor([1e-3, 2.], dtype=t.float16) * 1e5",
    "t.tensor([1e-3], dtype=t.float16) / 1e-5",
    "t.tensor([math.inf, 1.], dtype=t.float16) / 2**31",
    "t.tensor([-0.], dtype=t.float16) * 2**31",
    "t.tensor([1e-3], dtype=t.float16).mul_(1e5)",
    # a float number beyond the default dtype's range is inf there: 0 * 1e300 is nan
    "t.tensor([0, 1]) * 1e300",
    "t.tensor([True, False]) * 1e300",
    # alpha: checked against the result dtype (which it never changes), one complex product
    "t.add(t.tensor([True, False]), t.tensor([True, True]), alpha=300)",
    "t.add(t.tensor([1.]), t.tensor([2.]), alpha=True)",
    "t.sub(t.tensor([1]), t.tensor([2]), alpha=True)",
    "t.add(t.tensor([True]), t.tensor([True]), alpha=1 + 2j)",
    "t.add(t.tensor([1.]), t.tensor([2.]), alpha=1j)",
    "t.add(t.tensor([1 + 1j]), t.tensor([complex(math.inf, 0)]), alpha=3)",
    "t.add(t.tensor([1.]), t.tensor([2.]), alpha=-2**63 - 1)",
    "t.add(2.0, t.tensor([1., 2.]), alpha=3)",
    # where's numbers: float16 takes them unchecked (inf), as fill_ does
    "t.where(t.tensor([True, False]), t.ones(2, dtype=t.float16), 2**31)",
    "t.where(t.tensor([True, False]), t.ones(2, dtype=t.float16), 1e300)",
    # addcmul, addcdiv, lerp: float16 computed in float32, the value checked for it
    "t.addcmul(t.tensor([-0.], dtype=t.float16), t.tensor([1.], dtype=t.float16), t.tensor([-0.], dtype=t.float16), value=2**31)",
    "t.addcmul(t.tensor([1.], dtype=t.float16), t.tensor([1.], dtype=t.float16), t.tensor([1.], dtype=t.float16), value=-0j)",
    "t.addcmul(t.tensor([1.], dtype=t.float16), t.tensor([1.], dtype=t.float16), t.tensor([1.], dtype=t.float16), value=1j)",
    "t.lerp(t.tensor([1 + 0j], dtype=t.complex64), t.tensor([0j], dtype=t.complex64), 1e300)",
    "t.lerp(t.tensor([-0.], dtype=t.float16), t.tensor([1.], dtype=t.float16), 2**31)",
    "t.lerp(t.ones(2), t.ones(2), t.tensor(True))",
    "t.lerp(t.ones(2), t.ones(2), t.tensor(1j))",
    "t.lerp(t.ones(2), t.ones(2), t.tensor(0.5, dtype=t.float64))",
    "t.lerp(t.ones(2), t.ones(2), t.tensor([0.5], dtype=t.float64))",
    "t.lerp(t.ones(2, dtype=t.int64), t.ones(2, dtype=t.int64), t.tensor(1))",
    "t.ones(2, dtype=t.bool).lerp_(t.ones(2, dtype=t.bool), t.tensor(1j))",
    # a float16 pow exponent is checked
    "t.tensor([2.], dtype=t.float16) ** 2**31",
    "t.tensor([2.], dtype=t.float16) ** 1e300",
    # ties of zeros in maximum and co. keep the first operand's (PyTorch's element path)
    "t.maximum(t.tensor([0., -0.]), t.tensor([-0., 0.], dtype=t.float64))",
    "t.minimum(t.tensor([0., -0.], dtype=t.float16), t.tensor([-0., 0.]))",
    "t.fmin(t.tensor([-0.]), t.tensor(False))",
    "t.fmax(t.tensor(False), t.tensor([-0., math.nan]))",
    # mixed float dtypes: computed in the result's (xlogy's log of a float16 in float64)
    "t.xlogy(t.tensor([1.], dtype=t.float64), t.tensor([0.3635], dtype=t.float16))",
]


def _run(lib, case):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return "value", eval(case, {"t": lib, "math": math})
    except Exception as e:  # noqa: BLE001  (the exception is the result compared)
        return "error", e


def _parts(array):
    """Real and imaginary parts (one for real arrays) as float64, for nan, inf and signs."""
    array = np.asarray(array)
    parts = [array.real, array.imag] if array.dtype.kind == "c" else [array]
    return [np.asarray(p, dtype=np.float64) for p in parts]


@pytest.mark.parametrize("case", CASES)
def test_matches_torch(case):
    torch = require_torch()
    theirs_kind, theirs = _run(torch, case)
    ours_kind, ours = _run(chainrule, case)
    if theirs_kind == "error":
        assert ours_kind == "error", f"{case}: torch raised {theirs!r}, chainrule gave {ours!r}"
        assert type(ours).__name__ == type(theirs).__name__, f"{case}: {ours!r} / {theirs!r}"
        assert str(ours).splitlines()[0] == str(theirs).splitlines()[0], case
        return
    assert ours_kind == "value", f"{case}: chainrule raised {ours!r}"
    assert repr(ours.dtype) == repr(theirs.dtype), case
    for o, t in zip(_parts(ours.numpy()), _parts(theirs.resolve_conj().numpy())):
        assert (np.isnan(o) == np.isnan(t)).all() and (np.isinf(o) == np.isinf(t)).all(), f"{case}: {o} / {t}"
        assert (np.signbit(o) == np.signbit(t))[~np.isnan(o)].all(), f"{case}: {o} / {t}"  # signed zeros too
        np.testing.assert_allclose(o, t, rtol=1e-6, atol=0, equal_nan=True, err_msg=case)


@pytest.mark.parametrize("case", ["t.tensor([1.], dtype=t.float16) + t.tensor(1j)",
                                  "t.tensor(1j) * t.tensor([1.], dtype=t.float16)",
                                  "t.tensor([1.], dtype=t.float16) - 1j",
                                  "t.tensor([1.], dtype=t.float16) ** 0j"])
def test_complex32_arithmetic_is_refused(case):
    """Deliberate (docs/differences.md): PyTorch computes these in complex32, which chainrule
    lacks; chainrule's TypeError names it (the fuzzer's DELIBERATE_PROMOTION classes)."""
    torch = require_torch()
    theirs_kind, theirs = _run(torch, case)
    ours_kind, ours = _run(chainrule, case)
    assert theirs_kind == "error" or repr(theirs.dtype) == "torch.complex32", case
    assert ours_kind == "error" and isinstance(ours, TypeError) and "complex32" in str(ours), case


def test_backward_prints_no_numpy_warnings():
    """Backward's inf * 0 and 0 / 0 are PyTorch's inf and nan, without NumPy's RuntimeWarnings
    (PyTorch prints none); NumPy's own error state is left as it was."""
    torch = require_torch()
    grads = []
    for lib in (torch, chainrule):
        x = lib.tensor([0., 1., -1.], requires_grad=True)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            y = (x.sqrt() + x.log()).sum()
        before = np.geterr()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            y.backward()
        assert np.geterr() == before
        grads.append(x.grad.tolist())
    assert str(grads[0]) == str(grads[1])
