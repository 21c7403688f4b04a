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


DELIBERATE = {
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


def _half_with_complex(step):
    """A float16 array meets a complex operand (a complex array, or the op's complex number)."""
    return any(a.dtype == "float16" for a in step.arrays) and (
        "complex" in step.op or any(a.dtype.startswith("complex") for a in step.arrays))


DELIBERATE_RULES.append(DeliberateRule(
    "complex32: float16 with a complex operand, which PyTorch computes (or refuses) in ComplexHalf; chainrule "
    "has no complex32 and raises its own TypeError (docs/differences.md)",
    lambda key: "|forward:error-" in key and "|float16-" in key, _half_with_complex,
    Step(op='add[complex_number]', arrays=(ArraySpec(dtype='float16', shape=(2,), values=(1.0, -2.0)),))))


# the ops and stages whose value is trigamma (polygamma(1, .)): digamma's gradient, lgamma's and
# mvlgamma's second derivative
_TRIGAMMA_STAGE = {"polygamma": "forward", "polygamma_": "forward", "digamma": "grad", "lgamma": "grad2",
                   "float_unary_bool[lgamma": "grad2", "mvlgamma": "grad2"}


def _trigamma_in_float32(key):
    op, stage, dtype = key.split("|")
    family = next((f for f in _TRIGAMMA_STAGE if op == f or op.startswith(f + ("_" if "[" in f else "["))), None)
    return (family is not None and stage == f"{_TRIGAMMA_STAGE[family]}:value"
            and dtype.startswith(("float32", "int", "uint", "bool")))


def _trigamma_reflects(step):
    """Trigamma of some element below 1/2, where PyTorch's float32 kernel reflects through its
    float32 sin(pi x); for polygamma only order 1, for mvlgamma its shifted arguments x - j/2."""
    from fuzz.strategies import OPS
    rest = OPS[step.op].rest if step.op in OPS else (1,)
    order, shift = (rest[0], 0.0) if step.op.startswith("polygamma") else (1, 0.0)
    if step.op.startswith("mvlgamma"):
        shift = (rest[0] - 1) / 2 if rest else 1.0
    return order == 1 and any(v - shift < 0.5 for v in step.arrays[0].values)


DELIBERATE_RULES.append(DeliberateRule(
    "trigamma in float32 below 1/2: PyTorch reflects with float32's sin(pi x), which loses digits (polygamma(1, "
    "-16.96) is 693.36, the value 693.33); chainrule computes in float64 and rounds (docs/differences.md)",
    _trigamma_in_float32, _trigamma_reflects,
    Step(op='polygamma[matrix_1]', arrays=(ArraySpec(dtype='float32', shape=(), values=(-16.961933135986328,)),))))


def _sinc_near_zero(first_order):
    """An element where PyTorch's sinc' formula (pi x cos(pi x) - sin(pi x)) / (pi x^2)
    cancels: its first derivative below |x| = 1e-6 (float64) or 0.01 (float32), its second
    (and 0/0 at 0) below 1e-4 or 0.06."""
    def applies(step):
        a = step.arrays[0]
        near = (1e-6 if a.dtype == "float64" else 0.01) if first_order else (1e-4 if a.dtype == "float64" else 0.06)
        return any(abs(v) < near for v in a.values)
    return applies


def _sinc_key(key, stages):
    op, stage = key.split("|")[:2]
    return (op == "sinc" or op.startswith("float_unary_bool[sinc")) and stage.split(":")[0] in stages


DELIBERATE_RULES.append(DeliberateRule(
    "sinc's second derivative near 0: chainrule's series gives -pi^2/3 at 0 (calculus, gradgradcheck); PyTorch's "
    "formula gives nan at 0 and cancels nearby (0 at 1e-30, -5.2 at 1e-8) (docs/differences.md)",
    lambda key: _sinc_key(key, ("grad2",)), _sinc_near_zero(False), Step("sinc", (ArraySpec("float64", (1,), (0.0,)),))))

DELIBERATE_RULES.append(DeliberateRule(
    "sinc's derivative near 0: chainrule's series is exact (-pi^2 x / 3); PyTorch's formula cancels, off by "
    "about 1e-16 / x (docs/differences.md)",
    lambda key: _sinc_key(key, ("grad", "jvp")), _sinc_near_zero(True),
    Step("sinc", (ArraySpec("float64", (), (1.8720616168366178e-08,)),))))


def _signed_zero_tie(step):
    """Two operands that meet as +0 and -0 somewhere (broadcast)."""
    if len(step.arrays) != 2 or not all(a.dtype.startswith("float") for a in step.arrays):
        return False
    a, b = (s.array().astype(np.float64) for s in step.arrays)
    try:
        a, b = np.broadcast_arrays(a, b)
    except ValueError:
        return False
    return bool(((a == 0) & (b == 0) & (np.signbit(a) != np.signbit(b))).any())


DELIBERATE_RULES.append(DeliberateRule(
    "the sign of a zero from a +0/-0 tie in minimum, maximum, fmin, fmax: PyTorch's element-by-element path returns "
    "the first operand's zero, its vectorised path the second's (so it depends on the size); chainrule the first's "
    "at every size (docs/differences.md)",
    lambda key: _op_family(key) in ("minimum", "maximum", "fmin", "fmax") and "|forward:signed-zero|" in key,
    _signed_zero_tie,
    Step(op='minimum', arrays=(ArraySpec(dtype='float64', shape=(4, 4), values=(
        100.0, 96.21875, inf, inf, inf, inf, inf, inf, -0.5, 1.5, 1.5, 41.5, 0.0, 1e-200, 40.0, 40.0)),
        ArraySpec(dtype='float64', shape=(), values=(-0.0,))))))


def deliberate_for(key):
    """The deliberate difference that may explain class ``key`` (its ``applies(step)`` says
    whether it does on a given step), or None."""
    return DELIBERATE.get(key) or next((r for r in DELIBERATE_RULES if r.matches(key)), None)


KNOWN = {
    # opdb_shape.py KNOWN_BUGS BASE_RESHAPED_IN_PLACE (a view of a base reshaped in place), not a fuzz finding
    'inplace_view_of_base|forward:extra-error|float64-nan': ('IndexError: index 1 is out of bounds for axis 0 with size 1',
        Step(op='inplace_view_of_base', arrays=(ArraySpec(dtype='float64', shape=(4,), values=(nan, -1e-30, 1e-30, -0.0), layout='strided'),))),
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
