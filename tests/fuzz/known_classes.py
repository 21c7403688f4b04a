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
        lambda key: _op_family(key).startswith(_DECOMPOSITIONS) and ":error-" not in key, _lapack_ambiguous,
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


def _soft_margin_overflows(step):
    """-target * input is past the input dtype's log(max): PyTorch's exp overflows there."""
    x, t = step.arrays[0], step.arrays[1]
    if not x.dtype.startswith("float") or t.dtype.startswith("complex"):
        return False
    with np.errstate(all="ignore"):
        z = -np.array(x.values, float).reshape(x.shape) * np.array(t.values, float).reshape(t.shape)
    return bool((z > np.log(np.finfo(x.dtype).max)).any())


def _negation_wraps(step):
    """An integer target whose negation wraps in its dtype (uint8 above 0, the signed minimum)."""
    t = step.arrays[1]
    if t.dtype == "uint8":
        return any(t.values)
    return t.dtype.startswith("int") and np.iinfo(t.dtype).min in t.values


def _soft_margin_stage(stages):
    return lambda key: _op_family(key) == "soft_margin_loss" and key.split("|")[1].split(":")[0] in stages \
        and ":error-" not in key


DELIBERATE_RULES.append(DeliberateRule(
    "soft_margin_loss where -target * input overflows exp: PyTorch's log1p(exp(z)) is inf and its gradient "
    "nan; chainrule's log(1 + e^z) is exact (docs/differences.md)",
    _soft_margin_stage(("forward", "grad", "grad2", "jvp")), _soft_margin_overflows,
    Step(op='soft_margin_loss[matrix_sum]', arrays=(ArraySpec(dtype='float64', shape=(), values=(-138.89658739627262,)),
                                                   ArraySpec(dtype='int16', shape=(), values=(34,))))))

DELIBERATE_RULES.append(DeliberateRule(
    "soft_margin_loss's gradient with an integer target: PyTorch's backward negates the target in its own "
    "dtype, which wraps (uint8 -216 is 40), so its gradient is wrong there; chainrule's is right "
    "(docs/differences.md)",
    _soft_margin_stage(("grad", "grad2", "jvp")), _negation_wraps,
    Step(op='soft_margin_loss[matrix_none]', arrays=(ArraySpec(dtype='float64', shape=(2,), values=(-40.0, -1.9609375)),
                                                    ArraySpec(dtype='uint8', shape=(2,), values=(3, 216))))))


def _wraps_cropped_core(step):
    """A circular pad wider than what its dim keeps after a negative pad crops it: PyTorch
    fills it by copying within its output, overlapping, from memory not yet written."""
    from fuzz.strategies import OPS  # noqa: PLC0415  (the op's pad is a non-array argument)
    op = OPS.get(step.op)
    if op is None or not step.arrays:
        return False
    pad, shape = op.rest[0], step.arrays[0].shape
    for i in range(len(pad) // 2):
        left, right = pad[2 * i], pad[2 * i + 1]
        core = shape[-1 - i] + min(left, 0) + min(right, 0)
        if max(left, 0) > core or max(right, 0) > core:
            return True
    return False


DELIBERATE_RULES.append(DeliberateRule(
    "circular pad wider than a cropped dim's core: PyTorch's overlapping in-place copies read memory not yet "
    "written (forward) and lose the gradient of what was copied twice; chainrule wraps around as often as "
    "needed (docs/differences.md)",
    lambda key: _op_family(key) == "pad_circular" and ":error-" not in key, _wraps_cropped_core,
    Step(op='pad_circular[crop]', arrays=(ArraySpec(dtype='float32', shape=(2, 3, 2), values=(
        -36.0, -36.0, -0.46, -0.46, 0.09, 0.09, -0.0, -0.0, 5.9e+29, 5.9e+29, nan, inf)),))))


def _empty_pool_window(step):
    """A float max pooling with a window wholly in the padding (its output -inf, no input -inf)."""
    import chainrule  # noqa: PLC0415  (the windows, as chainrule pools them)
    from fuzz.strategies import OPS  # noqa: PLC0415
    op, x = OPS.get(step.op), step.arrays[0]
    if op is None or not x.dtype.startswith("float") or -inf in x.values:
        return False
    try:
        out = op.call(chainrule, chainrule.from_numpy(x.array()))
    except Exception:  # noqa: BLE001
        return False
    out = out[0] if isinstance(out, tuple) else out
    return bool((out.detach().numpy() == -inf).any())


DELIBERATE_RULES.append(DeliberateRule(
    "max pooling with a window wholly in the padding: its output is the constant -inf, whose gradient "
    "chainrule gives no element; PyTorch's backward adds it to the element where the window's scan would have "
    "started (docs/differences.md)",
    lambda key: _op_family(key) in ("max_pool2d", "max_pool1d") and key.split("|")[1].split(":")[0] in (
        "grad", "grad2", "jvp") and ":error-" not in key, _empty_pool_window,
    Step(op='max_pool2d[padding_dilation]', arrays=(ArraySpec(dtype='float64', shape=(1, 3, 1),
                                                              values=(1.0, 2.0, 3.0)),))))


def _float32_squares_overflow(step):
    """A float32 input with an element past 1e19, whose square overflows float32."""
    x = step.arrays[0]
    return x.dtype == "float32" and any(abs(v) > 1e19 for v in x.values if v == v and abs(v) != inf)


DELIBERATE_RULES.append(DeliberateRule(
    "batch_norm in training on float32 whose variance passes float32's range: PyTorch's contiguous kernel "
    "overflows (its output 0), its channels-last one accumulates in double; chainrule always does "
    "(docs/differences.md)",
    lambda key: _op_family(key) == "batch_norm" and ":error-" not in key, _float32_squares_overflow,
    Step(op='batch_norm[train]', arrays=(ArraySpec(dtype='float32', shape=(1, 3, 2), values=(
        -1e+30, -3.845703125, -3.845703125, -0.5, 6.0, 0.5)),))))


def _half_with_complex(step):
    """A float16 array meets a complex operand (a complex array, or the op's complex number)."""
    return any(a.dtype == "float16" for a in step.arrays) and (
        "complex" in step.op or any(a.dtype.startswith("complex") for a in step.arrays))


DELIBERATE_RULES.append(DeliberateRule(
    "complex32: float16 with a complex operand, which PyTorch computes (or refuses) in ComplexHalf; chainrule "
    "has no complex32 and raises its own TypeError (docs/differences.md)",
    lambda key: "|forward:error-" in key and "|float16-" in key, _half_with_complex,
    Step(op='add[complex_number]', arrays=(ArraySpec(dtype='float16', shape=(2,), values=(1.0, -2.0)),))))


def deliberate_for(key):
    """The deliberate difference that may explain class ``key`` (its ``applies(step)`` says
    whether it does on a given step), or None."""
    return DELIBERATE.get(key) or next((r for r in DELIBERATE_RULES if r.matches(key)), None)


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
