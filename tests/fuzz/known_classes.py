"""Every mismatch class the fuzzer knows, each with one reproducer.

The CI programs are drawn by index from the op list, so a change to the op database draws
other programs: refresh ``KNOWN`` then with ``CI=true python scripts/refresh_fuzz_known.py``.

``KNOWN``: differences from PyTorch that exist today and are to be fixed. CI fails on any
class not listed here, and test_known_classes_still_reproduce fails on a listed class that
no longer reproduces (strict, like ``xfail(strict=True)``): remove a class once it is fixed.

``DELIBERATE``: differences kept on purpose, each documented in docs/differences.md; the
fuzzer allows them only where ``applies(step)`` holds, and a test asserts each still differs.

A class key is ``"<op>|<stage>:<kind>|<dtype>-<input category>"`` (see compare.py).
"""
import dataclasses
from math import inf, nan  # noqa: F401  (reproducers below write nan and inf)
from typing import Callable

import numpy as np

from fuzz.compare import ArraySpec, Step  # noqa: F401


@dataclasses.dataclass(frozen=True)
class Deliberate:
    description: str
    step: Step
    applies: Callable


def _has_zero(step):
    return 0.0 in step.arrays[0].values


DELIBERATE = {
    "sinc|grad2:nan|float64-regular": Deliberate(
        "sinc''(0): chainrule gives -pi^2/3 (calculus, gradgradcheck); PyTorch nan (docs/differences.md)",
        Step("sinc", (ArraySpec("float64", (1,), (0.0,)),)), _has_zero),
}



@dataclasses.dataclass(frozen=True)
class DeliberateRule:
    """A deliberate difference that spans classes: every key ``matches`` accepts, on the
    inputs ``applies`` accepts; ``step`` still shows it."""
    description: str
    matches: Callable
    applies: Callable
    step: Step


# the factors LAPACK computes: unique only for finite, full-rank input
_DECOMPOSITIONS = ("qr", "svd", "eig", "cholesky", "lu", "matrix_norm", "cond", "matrix_rank", "pinv", "lstsq",
                   "slogdet", "det", "inv", "solve", "matrix_exp")
# the products BLAS computes: complex multiply-adds with inf or nan order their terms as the build does
_PRODUCTS = ("matrix_power", "vdot", "vecdot", "dot", "inner", "matmul", "mm", "bmm", "mv", "tensordot", "einsum",
             "linear", "addmm", "addmv", "addbmm", "baddbmm", "chain_matmul", "multi_dot", "solve", "lstsq")


def _op_family(key):
    return key.split("|")[0].split("[")[0]


def _arrays(step):
    return [np.array(a.values, complex if a.dtype.startswith("complex") else float).reshape(a.shape)
            for a in step.arrays if a.dtype.startswith(("float", "complex"))]


def _lapack_ambiguous(step):
    """Input holding inf or nan, or a first input of matrices that are not of full rank."""
    arrays = _arrays(step)
    if any(not np.isfinite(a).all() for a in arrays):
        return True
    a = arrays[0] if arrays else None
    return a is not None and a.ndim >= 2 and a.size > 0 and bool(
        (np.linalg.matrix_rank(a) < min(a.shape[-2:])).any())


def _complex_non_finite(step):
    arrays = _arrays(step)
    return any(a.dtype.kind == "c" for a in arrays) and any(not np.isfinite(a).all() for a in arrays)


DELIBERATE_RULES = [
    DeliberateRule(
        "LAPACK on non-finite or rank-deficient input: the factors (and nan placement) follow the build, "
        "PyTorch's MKL or NumPy's OpenBLAS (docs/differences.md)",
        lambda key: _op_family(key).startswith(_DECOMPOSITIONS) and (":error-" not in key or ":error-text|" in key),
        _lapack_ambiguous,
        Step(op='qr[wide_complete]', arrays=(ArraySpec(dtype='complex128', shape=(2, 6, 5), values=(1.5 + 3j,) * 60),))),
    DeliberateRule(
        "BLAS complex products of inf or nan: where nan and inf land follows the build (docs/differences.md)",
        lambda key: _op_family(key) in _PRODUCTS and ":error-" not in key, _complex_non_finite,
        Step(op='vdot', arrays=(ArraySpec(dtype='complex64', shape=(3,), values=((0.5 + 0j), (3.51953125 - 1.9033203125j),
                                                                          (0.88232421875 + 0j))),
                                ArraySpec(dtype='complex64', shape=(3,), values=((1e-200 + 0j), complex(-inf, 6),
                                                                          (-2.296875 - 0.6005859375j)),
                                          layout='strided')))),
]


def _wide_line(step):
    """Some finite element lies more than 13 below the largest: where PyTorch's 1e-13 shows."""
    finite = [v for a in _arrays(step) for v in a.real.ravel().tolist() if np.isfinite(v)]
    return len(finite) > 1 and max(finite) - min(finite) > 13


DELIBERATE_RULES.append(DeliberateRule(
    "logcumsumexp's tangent: PyTorch divides by its running sum plus 1e-13, off by up to 1e-6 where an element "
    "lies far below the line's max; chainrule's is exact (docs/differences.md)",
    lambda key: _op_family(key) == "logcumsumexp" and "|jvp:value|" in key, _wide_line,
    Step(op='logcumsumexp[vector]', arrays=(ArraySpec(dtype='float64', shape=(3,), values=(
        1.4142074932138864, 16.653542494782574, 17.652885309961153)),))))


def _integer_square_overflows(step):
    """An integer operand whose square overflows its dtype (PyTorch squares it in that dtype)."""
    for a in step.arrays:
        if a.dtype.startswith(("int", "uint")):
            info = np.iinfo(a.dtype)
            if any(v * v > info.max for v in a.values):
                return True
    return False


DELIBERATE_RULES.append(DeliberateRule(
    "atan2's gradient with an integer operand: PyTorch's formula squares the integer in its own dtype, "
    "which wraps (int8 65 * 65 is -127), so its gradient is wrong there; chainrule's is right (docs/differences.md)",
    lambda key: "tan2" in key.split("|")[0] and key.split("|")[1].split(":")[0] in ("grad", "grad2", "jvp"),
    _integer_square_overflows,
    Step(op='atan2', arrays=(ArraySpec(dtype='float32', shape=(), values=(1.25,)),
                             ArraySpec(dtype='int8', shape=(), values=(65,))))))


def _half_with_complex(step):
    """A float16 array meets a complex operand (a complex array, or the op's complex number)."""
    return any(a.dtype == "float16" for a in step.arrays) and (
        "complex" in step.op or any(a.dtype.startswith("complex") for a in step.arrays))


DELIBERATE_RULES.append(DeliberateRule(
    "complex32: float16 with a complex operand, which PyTorch computes (or refuses) in ComplexHalf; chainrule "
    "has no complex32 and raises its own TypeError (docs/differences.md)",
    lambda key: "|forward:error-" in key and "|float16-" in key, _half_with_complex,
    Step(op='add[complex_number]', arrays=(ArraySpec(dtype='float16', shape=(2,), values=(1.0, -2.0)),))))


def _signed_zero_of_a_sum(key):
    """A zero's sign in the result of a decomposition or a BLAS product."""
    family = _op_family(key)
    return ":signed-zero|" in key and (family.startswith(_DECOMPOSITIONS + ("solve_triangular", "cholesky_solve"))
                                        or family in _PRODUCTS)


DELIBERATE_RULES.append(DeliberateRule(
    "the sign of a zero that LAPACK or BLAS computes as a sum follows the build: MKL's small-size kernels "
    "multiply where OpenBLAS adds to +0 (docs/differences.md)",
    _signed_zero_of_a_sum, lambda step: True,
    Step(op='tensordot[zero]', arrays=(ArraySpec(dtype='float32', shape=(4,), values=(-2.0, -3.0, 1.5, -0.5)),
                                       ArraySpec(dtype='float32', shape=(4,), values=(0.0,) * 4)))))


_LOW = {"float32": "float64", "float16": "float64", "complex64": "complex128"}


def _distances(ours, reference, dtype):
    """Per stage, the largest distance of ``ours`` from ``reference`` in units of the
    comparison tolerance of ``dtype`` (None where a stage did not run on both)."""
    from fuzz.compare import STAGES, TOL
    rtol, atol = TOL[dtype]
    out = {}
    for stage in STAGES:
        o, r = ours[stage], reference[stage]
        if not (o and r and o[0] == r[0] == "ok") or isinstance(o[1], str) or isinstance(r[1], str):
            out[stage] = None
            continue
        worst = 0.0
        for a, b in zip(o[1], r[1]):
            if a is None or b is None or a[0] == "py" or b[0] == "py" or np.shape(a[2]) != np.shape(b[2]):
                continue
            x, y = np.asarray(a[2], complex), np.asarray(b[2], complex)
            finite = np.isfinite(x) & np.isfinite(y)
            if finite.any():
                worst = max(worst, float(np.max(np.abs(x[finite] - y[finite]) / (atol + rtol * np.abs(y[finite])))))
        out[stage] = worst
    return out


def _rounding_noise(step):
    """PyTorch's float32 (float16, complex64) result is itself off the same step in float64
    by half the comparison tolerance or more, and chainrule's is no further (at most twice):
    the difference between the two is rounding, and chainrule is not the less accurate."""
    from fuzz.compare import run
    import chainrule
    torch = __import__("torch")
    low = [a.dtype for a in step.arrays if a.dtype in _LOW]
    if not low:
        return False
    wide = Step(step.op, tuple(dataclasses.replace(a, dtype=_LOW.get(a.dtype, a.dtype)) for a in step.arrays))
    reference = run(torch, wide)
    theirs, ours = _distances(run(torch, step), reference, low[0]), _distances(run(chainrule, step), reference, low[0])
    # the stages where either is off by half the tolerance: PyTorch must be too, and chainrule no more
    noisy = [s for s in theirs if theirs[s] is not None and ours[s] is not None and max(theirs[s], ours[s]) > 0.5]
    return bool(noisy) and all(theirs[s] > 0.5 and ours[s] <= 2 * theirs[s] for s in noisy)


DELIBERATE_RULES.append(DeliberateRule(
    "float32 rounding: where PyTorch's own float32 result is off its float64 result by more than the "
    "comparison tolerance (an ill-conditioned matrix, a cancellation), chainrule's is compared with the "
    "float64 result instead and must be no further off (docs/differences.md)",
    lambda key: ":value|" in key and key.split("|")[2].startswith(tuple(_LOW)), _rounding_noise,
    Step(op='cholesky[noncontig]', arrays=(ArraySpec(dtype='float32', shape=(1, 2, 1), values=(
        0.42800846695899963, 0.42800846695899963)),))))


# PyTorch's CPU kernels of these ops answer ties of ±0 and nan inputs one way element by
# element and another in their vectorised loop, which runs on contiguous runs of 8 or 16
# elements as the CPU's vector width decides
_VECTORISED_DISAGREE = ("clamp", "clamp_min", "clamp_max", "clamp_tensor", "clamp_one_tensor_bound", "softshrink",
                        "hardshrink", "hardshrink_method", "hardtanh", "hardtanh_inplace", "relu6", "relu6_inplace",
                        "elu", "elu_inplace", "celu", "celu_inplace", "gelu", "neg",
                        "hardswish", "hardswish_inplace", "lerp", "lerp_")
_VECTORISED_KINDS = ("forward:signed-zero", "forward:nan", "grad:value", "grad:nan", "grad2:value", "grad2:nan", "jvp:value",
                     "jvp:nan")


def _element_by_element(step):
    """chainrule agrees with PyTorch on every element of ``step`` run alone (PyTorch's
    element-by-element kernel), so the step's difference is PyTorch's vectorised loop."""
    from fuzz.compare import check_step
    arrays = [a.array() for a in step.arrays]
    try:
        arrays = np.broadcast_arrays(*arrays)
    except ValueError:
        return False
    if not arrays[0].size:
        return False
    return not any(check_step(Step(step.op, tuple(ArraySpec(a.dtype.name, (1,), (a.flat[i].item(),))
                                                     for a in arrays)))[0]
                   for i in range(arrays[0].size))


DELIBERATE_RULES.append(DeliberateRule(
    "clamp, hardtanh, relu6, softshrink, hardshrink, hardswish, elu, celu, gelu, lerp, complex neg: PyTorch's vectorised CPU loop gives another "
    "zero sign on ±0 ties, another gradient at nan (gelu(inf): nan) than its element-by-element kernel; chainrule gives the "
    "element-by-element answer at every size (docs/differences.md)",
    lambda key: _op_family(key) in _VECTORISED_DISAGREE and key.split("|")[1] in _VECTORISED_KINDS,
    _element_by_element,
    Step(op='relu6', arrays=(ArraySpec(dtype='float64', shape=(8,), values=(nan,) * 8),))))


def _sinc_op(key):
    op = key.split("|")[0]
    return op == "sinc" or op.startswith("float_unary_bool[sinc_")


def _near_zero(step):
    """Some input within 0.5 / pi of 0, where PyTorch's sinc_backward cancels."""
    return any(abs(v) < 0.5 / np.pi for a in step.arrays if a.dtype.startswith("float") for v in a.values)


DELIBERATE_RULES.append(DeliberateRule(
    "sinc'' at and near 0 through any entry that calls sinc: chainrule gives -pi^2/3 at 0 and a series near it, "
    "PyTorch nan at 0 and a formula that cancels near it (docs/differences.md)",
    lambda key: _sinc_op(key) and key.split("|")[1] in ("grad2:nan", "grad2:value"), _near_zero,
    Step(op='float_unary_bool[sinc_vector]', arrays=(ArraySpec(dtype='float64', shape=(1,), values=(0.0,)),))))


def _exp_overflows(step):
    """Some floating input x where exp(x) overflows its dtype."""
    return any(v > np.log(np.finfo(a.dtype).max) for a in step.arrays if a.dtype.startswith("float")
               for v in a.values)


DELIBERATE_RULES.append(DeliberateRule(
    "mish's second derivative where exp(x) overflows: PyTorch's double backward differentiates log1p(exp(x)), "
    "inf / inf = nan; chainrule gives the derivative, 0 there (docs/differences.md)",
    lambda key: _op_family(key) in ("mish", "mish_inplace") and key.split("|")[1] == "grad2:nan", _exp_overflows,
    Step(op='mish', arrays=(ArraySpec(dtype='float32', shape=(1,), values=(100.0,)),))))


def _close_at_float32(step):
    """Both libraries' derivatives agree at float32's tolerance: the op computes in float32
    (``dtype=float32``) whatever its input, so its float64 gradient holds float32 rounding."""
    from fuzz.compare import STAGES, TOL, run
    import chainrule
    ours, theirs = run(chainrule, step), run(__import__("torch"), step)
    rtol, atol = TOL["float32"]
    for stage in STAGES[1:]:
        o, t = ours[stage], theirs[stage]
        if (o is None) != (t is None) or (o and (o[0] != t[0] or o[0] == "error" or isinstance(o[1], str))):
            return False
        for a, b in zip(o[1] if o else (), t[1] if t else ()):
            if (a is None) != (b is None) or (a is not None and not np.allclose(a[2], b[2], rtol, atol, equal_nan=True)):
                return False
    return True


DELIBERATE_RULES.append(DeliberateRule(
    "softmax/log_softmax with dtype=float32 on float64 input: the derivatives are float32 computations cast to "
    "float64, compared at float32's tolerance, where the two libraries' summation orders round differently",
    lambda key: "[to_float32]" in key.split("|")[0] and key.split("|")[1] in ("grad:value", "grad2:value", "jvp:value"),
    _close_at_float32,
    Step(op='softmax[to_float32]', arrays=(ArraySpec(dtype='float64', shape=(2, 4, 2), values=(
        -1.2744140625, 0.775390625, 2.625, 0.0, -0.0, 0.5, 2.0, -3.62109375, -1e+30, 0.88623046875, 2.263671875,
        -0.63037109375, 1.0, 20.0, 0.0, -1.65234375), layout='transposed'),))))


def deliberate_for(key):
    """The deliberate difference that may explain class ``key`` (its ``applies(step)`` says
    whether it does on a given step: any of the rules that match the key), or None."""
    if key in DELIBERATE:
        return DELIBERATE[key]
    rules = [r for r in DELIBERATE_RULES if r.matches(key)]
    if len(rules) <= 1:
        return rules[0] if rules else None
    return DeliberateRule("; ".join(r.description for r in rules), lambda k: k == key,
                          lambda step: any(r.applies(step) for r in rules), rules[0].step)


KNOWN = {
}

# classes the CI programs find whose one-step reproducer does not show them on its own (the
# step's inputs came from PyTorch's previous step; replayed from their printed values they
# do not): listed in KNOWN, exempt from the still-reproduces check
IN_CONTEXT_ONLY = set()

# promotion classes (test_fuzz_promotion.py): key -> one case of the class, as check(*case) takes it
KNOWN_PROMOTION = {
}

# promotion classes kept on purpose (docs/differences.md): key -> (why, one case of the class)
_COMPLEX32 = ("chainrule has no complex32 (ComplexHalf): float16 with a complex operand raises chainrule's TypeError "
              "where PyTorch computes in complex32 (docs/differences.md)")
DELIBERATE_PROMOTION = {
    'add|binary:error-text|complexxfloat16': (_COMPLEX32, ('add', '0d-tensor', 'complex128', 'float16')),
    'add|binary:error-text|float16xcomplex': (_COMPLEX32, ('add', 'tensor-0d', 'float16', 'complex128')),
    'mul|binary:error-text|complexxfloat16': (_COMPLEX32, ('mul', '0d-tensor', 'complex128', 'float16')),
    'mul|binary:error-text|float16xcomplex': (_COMPLEX32, ('mul', 'tensor-0d', 'float16', 'complex128')),
    'pow|binary:error-text|float16xcomplex': (_COMPLEX32, ('pow', 'tensor-scalar', 'float16', complex(0, -0.0))),
    'sub|binary:error-text|complexxfloat16': (_COMPLEX32, ('sub', '0d-tensor', 'complex128', 'float16')),
    'sub|binary:error-text|float16xcomplex': (_COMPLEX32, ('sub', 'tensor-0d', 'float16', 'complex128')),
}

# bad-input classes (test_fuzz_bad_input.py): key -> (call, bad value) as check(*case) takes it
KNOWN_BAD_INPUT = {
}
