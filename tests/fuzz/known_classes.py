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
import math
from math import inf, nan
from typing import Callable

import numpy as np

from fuzz.compare import TOL, ArraySpec, Step, lstsq_without_columns
from fuzz.strategies import OPS

infj, nanj = complex(0, inf), complex(0, nan)  # complex reprs with infinite parts read back: (inf+nanj)


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
                   "slogdet", "logdet", "det", "inv", "solve", "matrix_exp", "triangular_solve")
# linalg.norm's samples that take a matrix norm through the SVD
_MATRIX_NORM_KEYS = ("linalg_norm[matrix_ord]", "linalg_norm[string]")
# the keys outside _DECOMPOSITIONS that factor: those matrix norms, and a negative matrix_power,
# which inverts first (LAPACK's getrf: a singular matrix meets an exact zero pivot, or not)
_LAPACK_KEYS = _MATRIX_NORM_KEYS + ("matrix_power[n-",)
# the products BLAS computes: complex multiply-adds with inf or nan order their terms as the build does
_PRODUCTS = ("matrix_power", "vdot", "vecdot", "dot", "inner", "matmul", "mm", "bmm", "mv", "tensordot", "einsum",
             "linear", "addmm", "addmv", "addbmm", "baddbmm", "chain_matmul", "multi_dot", "solve", "lstsq",
             "triangular_solve", "solve_triangular", "einsum_sublist", "matmul_folded")


def _op_family(key):
    return key.split("|")[0].split("[")[0]


def _arrays(step):
    """The step's floating arrays, in their dtypes (1e-200 in float32 is 0)."""
    return [np.array(a.values, complex if a.dtype.startswith("complex") else float).astype(a.dtype).reshape(a.shape)
            for a in step.arrays if a.dtype.startswith(("float", "complex"))]


def _lapack_ambiguous(step):
    """Input holding inf or nan, or a first input of matrices that are not of full rank (for
    a wide QR, whose first columns are not)."""
    arrays = _arrays(step)
    if any(not np.isfinite(a).all() for a in arrays):
        return True
    a = step.arrays[0].array().astype(np.float64) if step.arrays[0].dtype.startswith(("bool", "int", "uint")) else (
        arrays[0] if arrays else None)  # an integer or bool matrix is decomposed in floating point
    if a is None or not a.size:
        return False
    if a.dtype == np.float16:  # (NumPy's linalg has no float16: judged in float32)
        a = a.astype(np.float32)
    try:
        return any(m.ndim >= 2 and (_rank_deficient_or_repeated(m) or (
            _op_family(step.op).startswith("qr") and _householder_pivot_at_rounding(m)))
            for m in _decomposed(step.op, a) + _solve_factor(step))
    except np.linalg.LinAlgError:  # NumPy's own SVD does not converge on it (1e30 next to 0 in float32)
        return True


def _solve_factor(step):
    """cholesky_solve's factor, which the entry builds from its second array: the triangle it
    divides by (a zero on its diagonal makes it singular); [] for the other ops."""
    if _op_family(step.op) != "cholesky_solve" or len(step.arrays) < 2 or step.op not in OPS:
        return []
    import chainrule
    from opdb_linalg import lower, upper
    b, up = step.arrays[1].array(), OPS[step.op].rest[-1]
    try:
        factor = (upper if up else lower)(chainrule, chainrule.from_numpy(b)).numpy()
    except Exception:  # noqa: BLE001  (a shape the entry refuses)
        return []
    factor = np.triu(factor) if up else np.tril(factor)  # the triangle LAPACK reads
    return [factor] if np.isfinite(factor).all() else []


def _householder_pivot_at_rounding(m):
    """A Householder QR step whose pivot (the diagonal entry it reflects onto) has a real part
    that is 0 up to rounding: LAPACK's reflector sends it to -sign(Re pivot) |column|, so the
    sign of that column of Q is what the build's rounding leaves there (+0., -0. or 1e-17 of
    either sign). A complex pivot is reflected even on the last row (to make R's diagonal
    real), unless its imaginary part is 0: within rounding of 0, that is the build's too. The pivot of step k is entry k of Q_k^H a_k, Q_k the QR of the first k columns
    (checked in float64: the pivots of float32 input are as near 0 there)."""
    a = np.array(m, np.complex128 if m.dtype.kind == "c" else np.float64).reshape((-1,) + m.shape[-2:])
    rows, cols = a.shape[-2:]
    scale = np.abs(a).max(axis=(-2, -1))
    for k in range(min(rows, cols)):
        if k == 0:
            column = a[:, :, 0]
        else:
            q = np.linalg.qr(a[:, :, :k], mode="complete")[0]
            column = np.einsum("bji,bj->bi", q.conj(), a[:, :, k])[:, k:]
        pivot, tail = column[:, 0], np.linalg.norm(column[:, 1:], axis=-1)
        reflected = (tail > 0) | (pivot.imag != 0)
        # (the first pivot is an input element: exact, and ambiguous only as -0.)
        near_zero = (np.signbit(pivot.real) & (pivot.real == 0) if k == 0
                     else np.abs(pivot.real) <= 64 * np.finfo(m.dtype).eps * scale)
        # on the last row, a complex pivot is reflected only if its imaginary part is not 0:
        # within rounding of 0, whether it is follows the build
        last_row_doubt = (tail == 0) & (np.abs(pivot.imag) <= 64 * np.finfo(m.dtype).eps * scale) if k else False
        if bool((near_zero & reflected).any()) or bool(np.any(last_row_doubt)):
            return True
    return False


def _rank_deficient_or_repeated(m):
    """Not of full rank, or so ill-conditioned (1 / cond below 1e3 eps) that the derivatives,
    which divide by the small singular values, hold rounding noise; or two singular values
    (eigenvalues of a Hermitian m) within 1e-6 of each other relative to the largest: the
    singular vectors are not unique there."""
    if bool((np.linalg.matrix_rank(m) < min(m.shape[-2:])).any()):
        return True
    values = np.linalg.svd(m.astype(np.complex128 if m.dtype.kind == "c" else np.float64), compute_uv=False)
    if bool((values[..., -1:] < 1e3 * np.finfo(m.dtype).eps * values[..., :1]).any()):
        return True
    if m.shape[-1] == m.shape[-2] and np.allclose(m, np.conj(np.swapaxes(m, -1, -2))):
        values = np.sort(np.linalg.eigvalsh(m), -1)
    gaps = np.abs(np.diff(values, axis=-1))
    return bool((gaps <= 1e-6 * np.abs(values).max(-1, keepdims=True)).any())


def _decomposed(op, a):
    """The matrices an op-database entry decomposes: its first array, or what its ``fn``
    builds from it (opdb_linalg's spd, hermitian, well_conditioned)."""
    import chainrule
    from opdb_linalg import hermitian, spd, well_conditioned
    family = _op_family(op)
    build = (spd if family.startswith(("logdet", "cholesky", "pinv_hermitian")) and family != "cholesky_inverse"
             and family != "cholesky_solve" else hermitian if family.startswith(("eigh", "eigvalsh"))
             else well_conditioned if family.startswith(("inv", "det", "solve", "lu_solve")) and family != "det_random"
             else None)
    if family.startswith(("qr", "lu")) and not family.startswith("lu_solve") and a.ndim >= 2 and \
            a.shape[-2] < a.shape[-1]:  # a wide one's derivative needs its head
        return [a, a[..., :a.shape[-2]]]
    if family == "cholesky_inverse":  # the matrix inverted: the product of the triangle the entry builds
        import chainrule
        from opdb_linalg import lower, upper
        up = OPS[op].rest[-1]
        try:
            factor = (upper if up else lower)(chainrule, chainrule.from_numpy(a)).numpy()
        except Exception:  # noqa: BLE001  (a shape the entry refuses: judged on the array itself)
            return [a]
        factor_h = np.conj(np.swapaxes(factor, -1, -2))
        return [a, factor_h @ factor if up else factor @ factor_h]
    if family == "cholesky_ex_failed" and a.ndim >= 2:  # (x + x.mT) / 2, which broadcasts a (1, n) x
        try:
            return [(a + np.swapaxes(a, -1, -2)) / 2]
        except ValueError:
            return [a]
    if build is None or family in ("logdet_negative", "det_singular", "solve_triangular", "solve_ex_singular"):
        return [a]
    try:
        return [a, build(chainrule, chainrule.from_numpy(a)).numpy()]
    except Exception:  # noqa: BLE001  (a shape the entry refuses: judged on the array itself)
        return [a]


def _complex_non_finite(step):
    """Complex operands holding inf or nan, or values whose products overflow to them, or a
    complex result that overflowed on the way (a solve by a tiny pivot)."""
    arrays = _arrays(step)
    if not any(a.dtype.kind == "c" for a in arrays):
        return False
    if any(not np.isfinite(a).all() or (np.abs(a) >= np.sqrt(np.finfo(a.dtype).max)).any() for a in arrays):
        return True
    from fuzz.compare import run
    import chainrule
    forward = run(chainrule, step)["forward"]
    return bool(forward and forward[0] == "ok" and not isinstance(forward[1], str) and any(
        r is not None and r[0] != "py" and np.asarray(r[2]).dtype.kind == "c" and not np.isfinite(r[2]).all()
        for r in forward[1]))


def _real_products_overflow(step):
    """Real float operands whose products overflow their dtype (|x| >= sqrt(max)), or a real
    result that overflowed on the way (matrix_power of a moderately large matrix)."""
    arrays = [a for a in _arrays(step) if a.dtype.kind == "f"]
    if not arrays:
        return False
    if any((np.abs(a[np.isfinite(a)]) >= np.sqrt(np.finfo(a.dtype).max)).any() for a in arrays):
        return True
    from fuzz.compare import run
    import chainrule
    forward = run(chainrule, step)["forward"]
    return bool(all(np.isfinite(a).all() for a in arrays) and forward and forward[0] == "ok"
                and not isinstance(forward[1], str) and any(
                    r is not None and r[0] != "py" and np.asarray(r[2]).dtype.kind == "f" and not np.isfinite(r[2]).all()
                    for r in forward[1]))


DELIBERATE_RULES = [
    DeliberateRule(
        "LAPACK on non-finite or rank-deficient input: the factors (and nan placement) follow the build, "
        "PyTorch's MKL or NumPy's OpenBLAS (docs/differences.md)",
        lambda key: (_op_family(key).startswith(_DECOMPOSITIONS) or key.startswith(_LAPACK_KEYS))
        and (":error-" not in key or ":error-text|" in key or (_op_family(key) == "lstsq" and ":error-type|" in key)),
        _lapack_ambiguous,
        Step(op='qr[wide_complete]', arrays=(ArraySpec(dtype='complex128', shape=(2, 6, 5), values=(1.5 + 3j,) * 60),))),
    DeliberateRule(
        "BLAS complex products of inf or nan, and prod's: where nan and inf land follows the order the build "
        "multiplies in (docs/differences.md)",
        lambda key: _op_family(key) in _PRODUCTS + ("prod",) and ":error-" not in key, _complex_non_finite,
        Step(op='vdot', arrays=(ArraySpec(dtype='complex64', shape=(3,), values=((0.5 + 0j), (3.51953125 - 1.9033203125j),
                                                                          (0.88232421875 + 0j))),
                                ArraySpec(dtype='complex64', shape=(3,), values=((1e-200 + 0j), complex(-inf, 6),
                                                                          (-2.296875 - 0.6005859375j)),
                                          layout='strided')))),
    DeliberateRule(
        "BLAS real products whose terms overflow: fused multiply-adds keep an overflowed sum where separate "
        "products make inf - inf = nan, so nan and inf land as the build puts them (docs/differences.md)",
        lambda key: _op_family(key) in _PRODUCTS and (":nan|" in key or ":inf|" in key), _real_products_overflow,
        Step(op='matrix_power[n3]', arrays=(ArraySpec(dtype='float32', shape=(3, 3), values=(
            2.188193285920732e+19, 9.588295111780905e+22, 1.2983685476048247e+25, 3.1454284072148866e+24,
            1.313176073735487e+28, 9.590188425064252e+22, 4.1291553490775305e+26, 3.145410248701189e+24,
            2.2078472761695535e+19), layout='contig'),))),
]


def _within_normwise_accuracy(stage):
    """For one derivative ``stage``: finite input whose results from both libraries agree
    normwise, each within min(100 cond(A)^2 eps, 1e-3) of its largest entry (eps of the
    input's dtype; A each matrix the op decomposes). LAPACK's and the derivative formulas'
    accuracy is normwise; the entries far below the largest hold the build's rounding,
    beyond what an elementwise tolerance allows."""
    def applies(step):
        arrays = _arrays(step)
        if not arrays or any(not np.isfinite(a).all() for a in arrays):
            return False
        matrices = [m.astype(np.complex128 if m.dtype.kind == "c" else np.float64)
                    for m in _decomposed(step.op, arrays[0]) if m.ndim >= 2 and m.shape[-1] and m.shape[-2]]
        if not matrices:
            return False
        cond = max(float(np.max(np.linalg.cond(m))) for m in matrices)
        bound = min(100 * cond ** 2 * np.finfo(arrays[0].dtype).eps, 1e-3)
        from fuzz.compare import run
        import chainrule
        from helpers import require_torch
        o, t = run(chainrule, step)[stage], run(require_torch(), step)[stage]
        if o is None or t is None or o[0] != "ok" or t[0] != "ok" or isinstance(o[1], str) or isinstance(t[1], str):
            return False
        for a, b in zip(o[1], t[1]):
            if (a is None) != (b is None):
                return False
            if a is not None and not np.max(np.abs(a[2] - b[2]), initial=0) <= bound * np.max(np.abs(b[2]), initial=0):
                return False
        return True
    return applies


# (second derivatives only so far: the classes the long runs found, pinv's and cholesky_inverse's)
DELIBERATE_RULES.append(DeliberateRule(
    "second derivatives through a decomposition of an ill-conditioned matrix agree normwise (within 100 cond^2 "
    "eps of their largest entry, at most 1e-3), as LAPACK's accuracy is normwise; their entries far below the "
    "largest hold each build's rounding (docs/differences.md)",
    lambda key: _op_family(key).startswith(_DECOMPOSITIONS) and "|grad2:value|" in key,
    _within_normwise_accuracy("grad2"),
    Step(op='pinv', arrays=(ArraySpec(dtype='float64', shape=(3, 3), values=(
        100.0, -0.00024187564849853516, 0.65185546875, 1.0, -0.00024187564849853516, -0.0, 3.125, 100.0, -20.0),
        layout='transposed'),))))


def _cond_terms_cancel(step):
    """cond(A) = |A| |A^-1| of finite, invertible matrices whose derivatives (a difference of
    two terms each about cond(A) |A^-1| |t| large, t the direction) differ by no more than
    rounding of those terms: 100 n eps cond(A) |A^-1| |t| (|A^-1| once more for a second
    derivative), with |t| at most 6 per element of the fuzzer's normal draws."""
    arrays = _arrays(step)
    if len(arrays) != 1 or arrays[0].ndim < 2 or arrays[0].shape[-1] != arrays[0].shape[-2] or \
            not arrays[0].size or not np.isfinite(arrays[0]).all():
        return False
    a = arrays[0].astype(np.complex128 if arrays[0].dtype.kind == "c" else np.float64)
    values = np.linalg.svd(a, compute_uv=False)
    if not (values[..., -1] > 0).all():
        return False
    inverse_norm = float(np.max(1 / values[..., -1]))
    cond = float(np.max(values[..., 0] / values[..., -1]))
    direction = 6 * np.sqrt(a.size)
    from fuzz.compare import run
    import chainrule
    from helpers import require_torch
    ours, theirs = run(chainrule, step), run(require_torch(), step)
    for stage in ("grad", "grad2", "jvp"):
        o, t = ours[stage], theirs[stage]
        if o is None or t is None or o[0] != "ok" or t[0] != "ok" or isinstance(o[1], str) or isinstance(t[1], str):
            if repr(o) != repr(t):
                return False
            continue
        bound = 100 * a.shape[-1] * np.finfo(arrays[0].dtype).eps * cond * inverse_norm * direction * (
            inverse_norm * direction if stage == "grad2" else 1)
        for x, y in zip(o[1], t[1]):
            if (x is None) != (y is None) or (x is not None and not np.all(np.abs(x[2] - y[2]) <= bound)):
                return False
    return True


DELIBERATE_RULES.append(DeliberateRule(
    "cond's derivatives of a tiny matrix: the two terms of d(|A| |A^-1|) are each about cond(A) |A^-1| |t| large and "
    "cancel, so PyTorch's tangent of cond([[-1e-30]]) is -2.8e14 of rounding where chainrule's is the exact 0; "
    "accepted within rounding of those terms (docs/differences.md)",
    lambda key: _op_family(key) == "cond" and any(f"|{s}:value|" in key for s in ("grad", "grad2", "jvp")),
    _cond_terms_cancel,
    Step(op='cond[p_nuc]', arrays=(ArraySpec(dtype='float64', shape=(1, 1, 1), values=(-1e-30,), layout='contig'),))))


def _factor_diagonal_not_real(step):
    """cholesky_inverse of a complex triangle (as the entry builds it) whose diagonal has an
    imaginary part: no Cholesky factor, whose diagonal is real."""
    arrays = _arrays(step)
    if not arrays or arrays[0].dtype.kind != "c":
        return False
    import chainrule
    from opdb_linalg import lower, upper
    try:
        factor = (upper if OPS[step.op].rest[-1] else lower)(chainrule, chainrule.from_numpy(arrays[0])).numpy()
    except Exception:  # noqa: BLE001  (a shape the entry refuses)
        return False
    return bool((np.diagonal(factor, axis1=-2, axis2=-1).imag != 0).any())


DELIBERATE_RULES.append(DeliberateRule(
    "cholesky_inverse of a triangle whose diagonal is not real (no Cholesky factor): LAPACK's potri takes the "
    "real part of the inverse's diagonal in its product step (lauum), so PyTorch's result is not (U^H U)^-1; "
    "chainrule's is (docs/differences.md)",
    lambda key: _op_family(key) == "cholesky_inverse" and ":error-" not in key,
    _factor_diagonal_not_real,
    Step(op='cholesky_inverse[noncontig]', arrays=(ArraySpec(dtype='complex64', shape=(1,), values=(
        (-1.0000000031710769e-30 - 3.767578125j),), layout='contig'),))))


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
    """An integer operand whose square, or negation, overflows its dtype (PyTorch computes
    both in that dtype: -3 in uint8 is 253), or a bool operand (its negation raises)."""
    for a in step.arrays:
        if a.dtype == "bool":
            return True
        if a.dtype.startswith(("int", "uint")):
            info = np.iinfo(a.dtype)
            if any(v * v > info.max or not info.min <= -v <= info.max for v in a.values):
                return True
    return False


DELIBERATE_RULES.append(DeliberateRule(
    "atan2's gradient with an integer operand: PyTorch's formula squares and negates the integer in its own "
    "dtype, which wraps (int8 65 * 65 is -127, uint8 -3 is 253), so its gradient is wrong there, and negating "
    "a bool raises; chainrule's is right (docs/differences.md)",
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


def _negation_or_square_wraps(step):
    """``_negation_wraps``, or an integer target whose square overflows its dtype (PyTorch's
    double backward multiplies target * target in it: int16 32655 squared wraps)."""
    x, t = step.arrays[0], step.arrays[1]
    if _negation_wraps(step):
        return True
    if not t.dtype.startswith(("int", "uint")):
        return False
    past_half = x.dtype == "float16" and any(abs(v) > np.finfo(np.float16).max for v in t.values)  # inf there
    return past_half or any(v * v > np.iinfo(t.dtype).max for v in t.values)


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
    "dtype, which wraps (uint8 -216 is 40), and its double backward squares it there (int16 32655 squared "
    "wraps), so its derivatives are wrong there; chainrule's are right (docs/differences.md)",
    _soft_margin_stage(("grad", "grad2", "jvp")), _negation_or_square_wraps,
    Step(op='soft_margin_loss[matrix_none]', arrays=(ArraySpec(dtype='float64', shape=(2,), values=(-40.0, -1.9609375)),
                                                    ArraySpec(dtype='uint8', shape=(2,), values=(3, 216))))))



def _square_rounds(step):
    """A floating target narrower than the input whose square rounds in its own dtype:
    PyTorch's soft_margin_loss_double_backward multiplies target * target there."""
    x, t = step.arrays[0], step.arrays[1]
    if t.dtype not in ("float16", "float32") or not x.dtype.startswith("float") or \
            np.dtype(x.dtype).itemsize <= np.dtype(t.dtype).itemsize:
        return False
    with np.errstate(all="ignore"):
        narrow = np.array(t.values, t.dtype)
        return bool(np.any((narrow * narrow).astype(float) != narrow.astype(float) ** 2))


DELIBERATE_RULES.append(DeliberateRule(
    "soft_margin_loss's second derivative with a target narrower than the input: PyTorch's double backward "
    "squares the target in the target's dtype (float16 -0.059 squared is 2.5e-4 off); chainrule squares it "
    "in the input's (docs/differences.md)",
    _soft_margin_stage(("grad2",)), _square_rounds,
    Step(op='soft_margin_loss[matrix_mean]', arrays=(
        ArraySpec(dtype='float64', shape=(4, 1), values=(-20.0, 1.0, 0.068115234375, 0.068115234375)),
        ArraySpec(dtype='float16', shape=(4, 1), values=(-0.058990478515625, 1.0, -0.0, -1.0))))))

def _wraps_cropped_core(step):
    """A circular pad wider than what its dim keeps after a negative pad crops it: PyTorch
    fills it by copying within its output, overlapping, from memory not yet written."""
    from fuzz.strategies import OPS
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
    """A float max pooling with a window wholly in the padding: -inf where the pooling of zeros
    in the input's place gives -inf (so an input -inf is no window of its own)."""
    import chainrule
    from fuzz.strategies import OPS
    op, x = OPS.get(step.op), step.arrays[0]
    if op is None or not x.dtype.startswith("float"):
        return False
    try:
        out = op.call(chainrule, chainrule.from_numpy(np.zeros_like(x.array())))
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
    "has no complex32 and raises its own TypeError (docs/differences.md), also where PyTorch's result is real again "
    "(pairwise_distance's norm of a complex32 difference is float16)",
    lambda key: ("|forward:error-" in key or "|forward:extra-error" in key) and "|float16-" in key, _half_with_complex,
    Step(op='add[complex_number]', arrays=(ArraySpec(dtype='float16', shape=(2,), values=(1.0, -2.0)),))))


def _empty_vector_block(step):
    """block_diag of an empty 1-d tensor (a 1 x 0 block: one row) and a later block."""
    return any(a.shape == (0,) for a in step.arrays[:-1])


DELIBERATE_RULES.append(DeliberateRule(
    "block_diag's gradient after an empty 1-d block: PyTorch's backward skips the block without its row, so the "
    "later blocks read the wrong rows of the gradient; chainrule's is right (docs/differences.md)",
    lambda key: _op_family(key) == "block_diag" and key.split("|")[1].split(":")[0] in ("grad", "grad2"),
    _empty_vector_block,
    Step(op='block_diag', arrays=(ArraySpec(dtype='float32', shape=(0,), values=()),
                                  ArraySpec(dtype='float32', shape=(1,), values=(-2.0,))))))


DELIBERATE_RULES.append(DeliberateRule(
    "kron of a non-contiguous operand: PyTorch's kron views it (\"view size is not compatible\") where the "
    "strides do not allow; chainrule computes the product (docs/differences.md)",
    lambda key: key.startswith("kron|forward:missing-error|"),
    lambda step: any(a.layout != "contig" for a in step.arrays),
    Step(op='kron', arrays=(ArraySpec(dtype='float32', shape=(2, 3), values=(1.0,) * 6, layout='transposed'),
                            ArraySpec(dtype='float32', shape=(2,), values=(1.0, 2.0))))))


def _factor(step):
    """cholesky_inverse's or cholesky_solve's factor (opdb_linalg's upper/lower of its array),
    the ``upper`` flag; (None, _) if the entry refuses the array."""
    import chainrule
    from opdb_linalg import lower, upper
    up = OPS[step.op].rest[0]
    try:
        return (upper if up else lower)(chainrule, chainrule.from_numpy(step.arrays[-1].array())).numpy(), up
    except Exception:  # noqa: BLE001
        return None, up


def _factor_not_triangular(step):
    factor, up = _factor(step)
    return factor is not None and not np.array_equal(factor, np.triu(factor) if up else np.tril(factor))


def _complex_diagonal(step):
    """A complex factor whose diagonal is not real (LAPACK's potri takes it as real)."""
    factor, _ = _factor(step)
    return factor is not None and bool(np.diagonal(factor, axis1=-2, axis2=-1).imag.any())


DELIBERATE_RULES.append(DeliberateRule(
    "cholesky_inverse of a factor that is not triangular: LAPACK reads only its triangle, and chainrule's "
    "gradient is the derivative (zero off the triangle); PyTorch's backward is the formula for a triangular "
    "factor, applied to the whole matrix (docs/differences.md)",
    lambda key: _op_family(key) in ("cholesky_inverse", "cholesky_solve")
    and key.split("|")[1] in ("grad:value", "grad2:value", "jvp:value"),
    _factor_not_triangular,
    Step(op='cholesky_inverse[upper]', arrays=(ArraySpec('float64', (1, 4), (0.1, -0.2, 0.05, 0.3)),))))
DELIBERATE_RULES.append(DeliberateRule(
    "cholesky_inverse's tangent: PyTorch's cholesky_inverse_jvp is not the derivative (finite differences "
    "disagree even for a triangular factor and tangent); chainrule's is (docs/differences.md)",
    lambda key: _op_family(key) == "cholesky_inverse" and key.split("|")[1] == "jvp:value", lambda step: True,
    Step(op='cholesky_inverse[upper]', arrays=(ArraySpec('float64', (1, 4), (0.1, -0.2, 0.05, 0.3)),))))


DELIBERATE_RULES.append(DeliberateRule(
    "cholesky_inverse of a complex factor whose diagonal is not real: LAPACK's potri takes the diagonal as real; "
    "chainrule inverts the triangle it reads (docs/differences.md)",
    lambda key: _op_family(key) == "cholesky_inverse" and key.split("|")[1].split(":")[1] in ("value", "nan")
    and "|complex" in key,
    _complex_diagonal,
    Step(op='cholesky_inverse[upper]', arrays=(ArraySpec('complex64', (1, 1), (-23.25 - 80.25j,)),))))


DELIBERATE_RULES.append(DeliberateRule(
    "cholesky's and eigh's tangent where the tangent is not Hermitian (the *_triangle entries add one to the "
    "triangle not read): PyTorch's uses the whole tangent, chainrule's is the derivative (docs/differences.md)",
    lambda key: _op_family(key) in ("cholesky_triangle", "eigh_triangle") and key.split("|")[1] == "jvp:value",
    lambda step: True,
    Step(op='cholesky_triangle[lower_read]', arrays=(
        ArraySpec('float64', (3, 3), (0.0, -1.25, 0.625, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0)),
        ArraySpec('float64', (3, 3), (0.5, 0.3, -0.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0))))))


def _index_out_of_range(step):
    """Some index (the second array) outside the dim it takes along (of the input; with no
    dim, the flattened input)."""
    if len(step.arrays) < 2:
        return False
    x, index, dim = step.arrays[0].shape, step.arrays[1].shape, OPS[step.op].rest[-1]
    if dim is None:
        size = math.prod(x)
    elif not -len(x) <= dim < max(len(x), 1) or len(x) != len(index):
        return False
    else:
        size = x[dim] if x else 1
    return any(not 0 <= v < size for v in step.arrays[1].values)  # gather's range: no negative index


DELIBERATE_RULES.append(DeliberateRule(
    "take_along_dim with a dim and an index out of range: PyTorch's gather of the broadcast operands runs without "
    "its bounds check and reads outside the tensor; chainrule raises gather's error (docs/differences.md)",
    lambda key: key.startswith("take_along_dim[") and "|forward:extra-error|" in key, _index_out_of_range,
    Step(op='take_along_dim[broadcast_input]', arrays=(ArraySpec('float32', (1,), (0.0,)),
                                                       ArraySpec('int64', (1,), (5,))))))


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
    comparison tolerance of each result's dtype (``dtype``'s for results of another kind),
    None where a stage did not run on both."""
    from fuzz.compare import STAGES, TOL
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
            rtol, atol = TOL[a[0] if a[0] in TOL else dtype]
            finite = np.isfinite(x) & np.isfinite(y)
            if finite.any():
                worst = max(worst, float(np.max(np.abs(x[finite] - y[finite]) / (atol + rtol * np.abs(y[finite])))))
        out[stage] = worst
    return out


def _widened_reference(step):
    """PyTorch's run of ``step`` with its float32 and float16 (complex64) arrays widened to
    float64 (complex128), its derivatives kept for the arrays that are leaves in ``step``
    itself (a float16 array is not one there, but is once widened)."""
    from fuzz.compare import run
    wide = Step(step.op, tuple(dataclasses.replace(a, dtype=_LOW.get(a.dtype, a.dtype)) for a in step.arrays))
    reference = run(__import__("torch"), wide)

    def leaves(arrays):
        return [i for i, a in enumerate(arrays) if a.dtype.startswith("float") and a.dtype != "float16"]
    keep = [leaves(wide.arrays).index(i) for i in leaves(step.arrays)]
    for stage in ("grad", "grad2"):
        record = reference[stage]
        if record and record[0] == "ok" and not isinstance(record[1], str) and len(record[1]) > len(keep):
            reference[stage] = ("ok", [record[1][k] for k in keep])
    return reference


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
    reference = _widened_reference(step)
    theirs, ours = _distances(run(torch, step), reference, low[0]), _distances(run(chainrule, step), reference, low[0])
    # the stages where either is off by half the tolerance: PyTorch must be too, and chainrule no more
    noisy = [s for s in theirs if theirs[s] is not None and ours[s] is not None and max(theirs[s], ours[s]) > 0.5]
    return bool(noisy) and all(theirs[s] > 0.5 and ours[s] <= 2 * theirs[s] for s in noisy)


DELIBERATE_RULES.append(DeliberateRule(
    "float32 rounding: where PyTorch's own float32 result is off its float64 result by more than the "
    "comparison tolerance (an ill-conditioned matrix, a cancellation), chainrule's is compared with the "
    "float64 result instead and must be no further off (docs/differences.md)",
    lambda key: ":value|" in key and key.split("|")[2].startswith(tuple(_LOW)), _rounding_noise,
    # (x x^T + 1 with x = (1, 1.01): clearly positive definite, its last pivot 5e-5 a cancellation;
    # a rank-one x = (a, a) passes or fails LAPACK's pivot test by the CPU's rounding)
    Step(op='cholesky[noncontig]', arrays=(ArraySpec(dtype='float32', shape=(1, 2, 1), values=(1.0, 1.01)),))))
# the ops whose result is singular values (or norms of them), which LAPACK computes to
# eps * |A| (backward stable), not each to its own relative precision
_SINGULAR_VALUES = ("svdvals", "svd_no_uv", "matrix_norm", "cond", "linalg_norm", "pinv")


def _normwise_accurate(step):
    """chainrule's float32 (complex64) singular values are within 1e-5 |A| (100 eps) of the
    same step in float64 (a small singular value of an ill-conditioned A is only that exact)."""
    from fuzz.compare import run
    import chainrule
    if not any(a.dtype in ("float32", "complex64") for a in step.arrays):
        return False
    wide = Step(step.op, tuple(dataclasses.replace(a, dtype=_LOW.get(a.dtype, a.dtype)) for a in step.arrays))
    ours, reference = run(chainrule, step)["forward"], run(__import__("torch"), wide)["forward"]
    if not (ours and reference and ours[0] == reference[0] == "ok") or isinstance(ours[1], str):
        return False
    scale = max(float(np.max(np.abs(a)) if a.size else 0.0) for a in _arrays(step))
    for a, b in zip(ours[1], reference[1]):
        x, y = np.asarray(a[2], complex), np.asarray(b[2], complex)
        if x.shape != y.shape or not np.allclose(x, y, rtol=1e-5, atol=1e-5 * scale, equal_nan=True):
            return False
    return True


DELIBERATE_RULES.append(DeliberateRule(
    "float32 singular values to LAPACK's accuracy: within 1e-5 |A| of the float64 result, as a backward-stable "
    "SVD gives them (a small one of an ill-conditioned matrix is no more exact in either library; "
    "docs/differences.md)",
    lambda key: _op_family(key).startswith(_SINGULAR_VALUES) and key.split("|")[1] == "forward:value"
    and key.split("|")[2].startswith(("float32", "complex64")),
    _normwise_accurate,
    Step(op='svd_no_uv', arrays=(ArraySpec(dtype='float32', shape=(2, 3), values=(
        187.0, 2.0, 138.0, 453220686102528.0, 77.0, 187.0)),))))
# the ops and stages whose value is trigamma (polygamma(1, .)): digamma's gradient, lgamma's and
# mvlgamma's second derivative
_TRIGAMMA_STAGE = {"polygamma": "forward", "polygamma_": "forward", "digamma": "grad", "lgamma": "grad2",
                   "float_unary_bool[lgamma": "grad2", "mvlgamma": "grad2"}


def _trigamma_in_float32(key):
    op, stage, dtype = key.split("|")
    family = next((f for f in _TRIGAMMA_STAGE if op == f or op.startswith(f + ("_" if "[" in f else "["))), None)
    return (family is not None and stage in (f"{_TRIGAMMA_STAGE[family]}:value", f"{_TRIGAMMA_STAGE[family]}:nan")
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
    "-16.96) is 693.36, the value 693.33) and past -1.1e38 overflows (pi x is -inf: nan); chainrule computes in "
    "float64 and rounds (docs/differences.md)",
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


def _bessel_i1_near_zero(step):
    """An element where PyTorch's double backward of i1' = i0 - i1/x (i1e' likewise) cancels,
    off by about eps / x^2: below |x| = 1e-5 in float64, 0.02 in float32 (at |x| <= eps its
    i1' is the constant 1/2: i1e''(1e-30) is 0 there, -1 in calculus)."""
    a = step.arrays[0]
    near = 1e-5 if a.dtype == "float64" else 0.02
    return a.dtype.startswith("float") and any(0 < abs(v) < near for v in a.values)


DELIBERATE_RULES.append(DeliberateRule(
    "i1's and i1e's second derivatives near 0: chainrule's series is exact (i1'' = 3x/8 + ...); PyTorch's double "
    "backward of i0 - i1/x cancels, off by about eps / x^2 (docs/differences.md)",
    lambda key: _op_family(key) in ("i1", "i1e") and key.split("|")[1].split(":")[0] == "grad2",
    _bessel_i1_near_zero,
    Step("i1", (ArraySpec("float64", (1,), (5.960464477539063e-08,)),))))


def _signed_zero_tie(step):
    """Two operands that meet as +0 and -0 somewhere (broadcast; an integer 0 is +0.)."""
    if len(step.arrays) != 2 or not all(a.dtype.startswith(("float", "int", "uint", "bool")) for a in step.arrays):
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
    lambda key: _op_family(key) in ("minimum", "maximum", "maximum_fn", "fmin", "fmax") and "|forward:signed-zero|" in key,
    _signed_zero_tie,
    Step(op='minimum', arrays=(ArraySpec(dtype='float64', shape=(4, 4), values=(
        100.0, 96.21875, inf, inf, inf, inf, inf, inf, -0.5, 1.5, 1.5, 41.5, 0.0, 1e-200, 40.0, 40.0)),
        ArraySpec(dtype='float64', shape=(), values=(-0.0,))))))


# PyTorch's CPU kernels of these ops answer ties of ±0 and nan inputs one way element by
# element and another in their vectorised loop, which runs on contiguous runs of 8 or 16
# elements as the CPU's vector width decides
_VECTORISED_DISAGREE = ("clamp", "clamp_min", "clamp_max", "clamp_tensor", "clamp_one_tensor_bound", "softshrink",
                        "hardshrink", "hardshrink_method", "hardtanh", "hardtanh_inplace", "relu6", "relu6_inplace",
                        "elu", "elu_inplace", "celu", "celu_inplace", "selu", "selu_inplace", "torch_selu", "gelu", "neg",
                        "hardswish", "hardswish_inplace", "lerp", "lerp_", "sgn", "pow")
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
    "clamp, hardtanh, relu6, softshrink, hardshrink, hardswish, elu, celu, selu, gelu, lerp, complex neg, sgn and "
    "pow: "
    "PyTorch's "
    "vectorised CPU loop gives another "
    "zero sign on ±0 ties, another gradient at nan (gelu(inf): nan) than its element-by-element kernel; chainrule gives the "
    "element-by-element answer at every size (docs/differences.md)",
    lambda key: _op_family(key) in _VECTORISED_DISAGREE and key.split("|")[1] in _VECTORISED_KINDS,
    _element_by_element,
    Step(op='relu6', arrays=(ArraySpec(dtype='float64', shape=(8,), values=(nan,) * 8),))))


DELIBERATE_RULES.append(DeliberateRule(
    "a complex loss that ends in a negation (cross_entropy with class probabilities): PyTorch's complex neg gives "
    "+0 for 0 in its vectorised loop, -0 element by element; chainrule -0 at every size (docs/differences.md)",
    lambda key: _op_family(key) in ("cross_entropy", "cross_entropy_probs") and "|forward:signed-zero|complex" in key,
    lambda step: step.arrays[0].dtype.startswith("complex"),
    # (32 results: vectorised on AVX2 and AVX-512 alike)
    Step(op='cross_entropy[spatial_none]', arrays=(ArraySpec(dtype='complex128', shape=(2, 0, 16), values=()),
                                                   ArraySpec(dtype='float64', shape=(2, 0, 16), values=())))))


def _exp_spread_underflows(step):
    """Finite elements of one array further apart than exp's range in their dtype (709 in
    float64, 88 in float32): exp(x - max) of the lower ones is 0."""
    for a in _arrays(step):
        finite = a[np.isfinite(a)].real
        if finite.size and finite.max() - finite.min() > np.log(np.finfo(a.dtype).max):
            return True
    return False


DELIBERATE_RULES.append(DeliberateRule(
    "logcumsumexp's tangent where elements lie further apart than exp's range: PyTorch's logcumsumexp_jvp "
    "normalises by the dim's max, so exp underflows and the tangents before the max are 0; chainrule's running max "
    "gives them (docs/differences.md)",
    lambda key: _op_family(key) == "logcumsumexp" and key.split("|")[1] == "jvp:value",
    _exp_spread_underflows,
    Step(op='logcumsumexp[noncontig]', arrays=(ArraySpec(dtype='float64', shape=(2, 2, 2), values=(0.0, -0.4755859375, -40.0, -20.0, -1e-30, -0.5, -0.1552734375, 1.7976931348623157e+308)),))))


def _exp_overflows(step):
    """Some floating input x where exp(x) overflows its dtype."""
    return any(v > np.log(np.finfo(a.dtype).max) for a in step.arrays if a.dtype.startswith("float")
               for v in a.values)


DELIBERATE_RULES.append(DeliberateRule(
    "mish's second derivative where exp(x) overflows: PyTorch's double backward differentiates log1p(exp(x)), "
    "inf / inf = nan; chainrule gives the derivative, 0 there (docs/differences.md)",
    lambda key: _op_family(key) in ("mish", "mish_inplace") and key.split("|")[1] == "grad2:nan", _exp_overflows,
    Step(op='mish', arrays=(ArraySpec(dtype='float32', shape=(1,), values=(100.0,)),))))


DELIBERATE_RULES.append(DeliberateRule(
    "linalg.lstsq by gelsd of a B with no columns: MKL refuses the arguments and PyTorch fails an internal assert; "
    "chainrule returns the empty solution (docs/differences.md)",
    lambda key: _op_family(key) == "lstsq" and key.split("|")[1] == "forward:missing-error",
    lambda step: lstsq_without_columns(step, ("gelsd",)),
    Step(op='lstsq[vector]', arrays=(ArraySpec(dtype='float64', shape=(1, 3, 1), values=(100.0, -3.484375, -1.87109375)),
                                     ArraySpec(dtype='float64', shape=(1, 3, 0), values=())))))


DELIBERATE_RULES.append(DeliberateRule(
    "triangular_solve's tangent: PyTorch's solves with A's whole tangent, also outside the triangle the solver reads "
    "(and its diagonal when unitriangular); chainrule's is the derivative (docs/differences.md)",
    lambda key: _op_family(key) == "triangular_solve" and key.split("|")[1] == "jvp:value",
    lambda step: OPS[step.op].rest[2] or (len(step.arrays) > 1 and math.prod(step.arrays[1].shape[-2:]) > 1),
    Step(op='triangular_solve[unit]', arrays=(ArraySpec(dtype='float64', shape=(1, 1), values=(1.5,)),
                                              ArraySpec(dtype='float64', shape=(1, 1), values=(1.0,))))))


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



def _mean_below_float64_noise(step):
    """The float64 error bound of a sum, n eps max|x|, is past the comparison tolerance of
    the exact mean (fsum / n, so sums are judged no more loosely): elements 1e30 apart cancel,
    and what is left of the small ones depends on the order they were added in."""
    a = _arrays(step)
    rest = OPS[step.op].rest if step.op in OPS else ()
    cast = next((r for r in rest if isinstance(r, str) and r.startswith(("float", "complex"))), None)
    if cast and step.arrays and step.arrays[0].dtype.startswith(("int", "uint", "bool")):
        a = [step.arrays[0].array().astype(cast)]  # an integer input summed in a float dtype (sum(dtype=float32))
    if a and _op_family(step.op).startswith("nan"):  # nansum, nanmean: their nan elements are left out
        a[0] = np.where(np.isnan(a[0]), 0, a[0])
    if not a or a[0].dtype.kind not in "fc" or not a[0].size:
        return False
    rtol, atol = TOL[str(a[0].dtype)]
    dims = OPS[step.op].rest[0] if OPS[step.op].rest else None
    dims = tuple(dims) if isinstance(dims, list) else dims
    if not isinstance(dims, (int, tuple)) or isinstance(dims, bool) or not a[0].ndim:
        dims = tuple(range(a[0].ndim))
    dims = tuple(d % a[0].ndim for d in ((dims,) if isinstance(dims, int) else dims)) or tuple(range(a[0].ndim))
    # each result's slice of the elements (a complex sum: its two parts' sums)
    slices = np.moveaxis(a[0].astype(np.complex128), dims, tuple(range(-len(dims), 0)))
    slices = slices.reshape(slices.shape[:slices.ndim - len(dims)] + (-1,)).reshape(-1, math.prod(
        a[0].shape[d] for d in dims))
    # PyTorch adds float32 and float16 (complex64) in float32, its opmath type
    eps = np.finfo(np.float64 if a[0].dtype in (np.float64, np.complex128) else np.float32).eps
    for x in slices:
        if not x.size or not np.isfinite(x).all():  # (a slice holding inf or nan is judged by its own values)
            continue
        exact = complex(math.fsum(x.real), math.fsum(x.imag)) / x.size
        largest = max(np.abs(x.real).max(), np.abs(x.imag).max())
        if x.size * eps * largest > atol + rtol * abs(exact):
            return True
    return False


_SUMS = ("var_mean", "std_mean", "sum", "sum_dim", "sum_dtype", "nansum", "mean", "mean_dim", "mean_dtype", "nanmean")


DELIBERATE_RULES.append(DeliberateRule(
    "sums and means where elements cancel past the precision they are added in (float64; PyTorch adds float32 and "
    "float16 in float32): PyTorch adds in its cascade's order (var_mean "
    "by Welford in memory order), chainrule pairwise; both are off the exact result by rounding noise up to "
    "n eps max|x| (docs/differences.md)",
    lambda key: _op_family(key) in _SUMS and key.split("|")[1] == "forward:value",
    _mean_below_float64_noise,
    Step(op='var_mean[whole]', arrays=(ArraySpec(dtype='float32', shape=(4, 1, 4), values=(
        0.004001617431640625, -0.0, -1e+30, 2.7265625, -3.13671875, 3.84375, -2.0, 0.0, 20.0, -40.0, -2.734375,
        -20.0, 1e+30, 1.7822265625, 0.0, -0.0), layout='transposed'),))))


def _vector_entry_near_zero(step):
    """A singular vector (eigenvector) entry within 1e3 eps of 0: the entries' absolute values
    the op-database entries compare (_svd_invariants, _eigh_invariants) have their kink there,
    and which side of it LAPACK's rounding lands on decides the gradient's sign."""
    import chainrule
    from opdb_linalg import hermitian
    a = _arrays(step)
    if not a or a[0].ndim < 2 or not a[0].size or not np.isfinite(a[0]).all():
        return False
    m = a[0]
    if _op_family(step.op).startswith("eigh"):
        m = hermitian(chainrule, chainrule.from_numpy(m)).numpy()
        vectors = [np.linalg.eigh(m)[1]]
    else:
        u, _, vh = np.linalg.svd(m)
        vectors = [u, vh]
    tiny = 1e3 * np.finfo(m.dtype).eps
    return any(bool((np.abs(v) < tiny).any()) for v in vectors)


DELIBERATE_RULES.append(DeliberateRule(
    "the derivatives of |U|, |V| (the op database's sign-free view of singular vectors and eigenvectors) where "
    "an entry is within rounding of 0: abs's kink, whose side LAPACK's rounding picks (docs/differences.md)",
    lambda key: _op_family(key) in ("svd", "svd_legacy", "eigh", "eigh_triangle")
    and key.split("|")[1].split(":")[0] in ("grad", "grad2", "jvp") and ":error-" not in key,
    _vector_entry_near_zero,
    Step(op='svd_legacy[tall]', arrays=(ArraySpec(dtype='float64', shape=(1, 2, 3), values=(
        -0.0, 20.0, -40.0, 1e-30, -40.0, 0.07037353515625)),))))


def _both_zeros(step):
    """The input holds +0 and -0 (a tie whose sign the reduction picks)."""
    return any(bool((a == 0).any() and np.signbit(a[a == 0]).any() and (~np.signbit(a[a == 0])).any())
               for a in _arrays(step) if a.dtype.kind == "f")


DELIBERATE_RULES.append(DeliberateRule(
    "aminmax, min and max of a whole tensor with a ±0 tie: PyTorch's kernels keep the zero their vector lanes "
    "leave (aminmax: the last one below 8 elements, unlike its own amin and amax, the first; min and max by dtype "
    "and size: float16 [0, -0].min() is -0); chainrule's aminmax gives amin's and amax's, so does histc's range in "
    "its error text, its min and max NumPy's reduction's (docs/differences.md)",
    lambda key: (_op_family(key) in ("aminmax", "min", "max", "max_nan", "min_nan") and key.split("|")[1] == "forward:signed-zero")
    or (_op_family(key) == "histc" and key.split("|")[1] == "forward:error-text"),
    _both_zeros,
    Step(op='aminmax[scalar]', arrays=(ArraySpec(dtype='float64', shape=(3,), values=(100.0, 0.0, -0.0)),))))


def _target_past_precision(step):
    """A target so large that t a + (1 - t) b, about |t| eps off in x's dtype, is past a
    quarter of the comparison's tolerance (past 1 / eps it cancels to 0)."""
    if len(step.arrays) < 2 or not step.arrays[0].dtype.startswith(("float", "complex")):
        return False
    x, t = step.arrays[:2]
    rtol = TOL.get(x.dtype, TOL["float64"])[0]
    return any(math.isfinite(v) and abs(v) * np.finfo(x.dtype).eps >= rtol / 4 for v in t.values)


DELIBERATE_RULES.append(DeliberateRule(
    "multilabel_soft_margin_loss with a huge target (1e30, an integer 1e12): the loss t logsig(x) + "
    "(1 - t) logsig(-x) cancels in both libraries, |t| eps off (past 1 / eps all of it: the exact value is "
    "logsig's, 0.69 at 0), and so do its derivatives (docs/differences.md)",
    lambda key: _op_family(key) == "multilabel_soft_margin_loss" and ":error-" not in key,
    _target_past_precision,
    Step(op='multilabel_soft_margin_loss[vector]', arrays=(ArraySpec(dtype='float64', shape=(1,), values=(
        1.0507009873554804e-200,)), ArraySpec(dtype='float64', shape=(), values=(1e+30,))))))


def _lstsq_empty(step):
    """An lstsq of no systems or no columns: PyTorch's rank (and residuals) are uninitialised memory there."""
    return any(0 in a.shape for a in step.arrays)


DELIBERATE_RULES.append(DeliberateRule(
    "lstsq of an empty batch: PyTorch returns its rank tensor unwritten, uninitialised memory "
    "(139966669593968); chainrule's is the rank of the empty problem (docs/differences.md)",
    lambda key: _op_family(key) == "lstsq" and key.split("|")[1] == "forward:value",
    _lstsq_empty,
    Step(op='lstsq[batch]', arrays=(ArraySpec(dtype='complex128', shape=(1, 1, 1), values=(3j,)),
                                    ArraySpec(dtype='complex128', shape=(0, 1, 0), values=())))))


def _lstsq_rank_lost(step):
    """gelsy (PyTorch's default driver) of an A that a QR in column order would find rank
    deficient: PyTorch hands LAPACK a column-pivot array it has not initialised (seen: the
    ranks vary from call to call, and the second matrix of a batch is always factored in
    column order), so columns are forced to the front unpivoted; a zero column, or a
    prefix of columns of lower rank than A, then loses rank (numerical rank: float64
    singular values past eps(dtype) max(m, n) s_max, PyTorch's rcond)."""
    a = _arrays(step)
    if len(a) < 2 or OPS[step.op].rest[0] not in (None, "gelsy") or a[0].ndim < 2 or not a[0].size or \
            not np.isfinite(a[0]).all():
        return False
    rcond = np.finfo(a[0].dtype).eps * max(a[0].shape[-2:])
    for m in a[0].astype(np.complex128).reshape((-1,) + a[0].shape[-2:]):
        s = np.linalg.svd(m, compute_uv=False)
        tol = rcond * s.max()
        rank = int((s > tol).sum())
        in_order = next((k for k in range(1, m.shape[1] + 1)
                         if np.linalg.svd(m[:, :k], compute_uv=False).min() <= tol), m.shape[1] + 1) - 1
        if in_order < rank or (rank and any(np.linalg.norm(m[:, j]) <= tol for j in range(m.shape[1]))):
            return True
    return False


DELIBERATE_RULES.append(DeliberateRule(
    "lstsq by gelsy (the default) of an A with a zero column, or whose columns in order lose rank: PyTorch hands "
    "LAPACK an uninitialised column-pivot array, so its rank and solution vary from call to call and are often "
    "wrong (rank 0 of a matrix with singular values 47 and 17); chainrule's are A's (docs/differences.md)",
    lambda key: _op_family(key) == "lstsq" and key.split("|")[0] != "harness" and
    key.split("|")[1] in ("forward:value", "forward:signed-zero", "forward:nan", "grad:value", "grad:nan",
                          "grad2:value", "grad2:nan", "jvp:value", "jvp:nan"),
    _lstsq_rank_lost,
    # two copies: the second matrix of a batch is factored in column order on every call
    Step(op='lstsq[tall]', arrays=(
        ArraySpec(dtype='complex64', shape=(2, 2, 4), values=(
            0j, (6+3j), (1.943359375-3.298828125j), 40j, 0j, (-2-0.326171875j), (20+0.22216796875j), (-3+20j)) * 2),
        ArraySpec(dtype='complex64', shape=(2, 2, 4), values=(
            (0.5-1j), (80.5-1j), (-107.5-1j), (6.5-1j), (114.5-1j), (80.5-1j), (1.5-1j),
            (6.502475738525391-1j)) * 2)))))


def _lstsq_rows_broadcast(step):
    """lstsq of a matrix B of one dim less than A (not a batch of vectors): the solution's
    batch is A's broadcast against B's leading dims."""
    if len(step.arrays) < 2:
        return False
    a, b = step.arrays[0].shape, step.arrays[1].shape
    return len(b) == len(a) - 1 and tuple(b) != tuple(a[:-1])


DELIBERATE_RULES.append(DeliberateRule(
    "lstsq of a matrix B of one dim less than A: PyTorch's forward AD computes the tangent of A's batch, not "
    "of the solution's broadcast one, and refuses it ('Trying to set a forward gradient that has a different "
    "size'); chainrule gives the tangent (docs/differences.md)",
    lambda key: _op_family(key) == "lstsq" and key.split("|")[1] == "jvp:missing-error",
    _lstsq_rows_broadcast,
    Step(op='lstsq[tall]', arrays=(ArraySpec(dtype='float64', shape=(1, 3, 2), values=(1.0, 2.0, -1.0, 0.5, 3.0, 1.0)),
                                   ArraySpec(dtype='float64', shape=(3, 4), values=tuple(range(12)))))))


def _spread_at_rounding(step):
    """Two distinct finite elements within 4 eps of each other (relative to the larger): a
    variance of such a slice is rounding, and the derivatives divide by it."""
    a = _arrays(step)
    if not a or a[0].dtype.kind != "f":
        return False
    x = np.unique(a[0][np.isfinite(a[0])].astype(np.float64))
    if x.size < 2:
        return False
    gaps, scale = np.diff(x), np.maximum(np.abs(x[1:]), np.abs(x[:-1]))
    return bool((gaps <= 4 * np.finfo(a[0].dtype).eps * scale).any())


DELIBERATE_RULES.append(DeliberateRule(
    "the derivatives of std and var where elements differ by rounding only (1 + 2^-52 and 1): the std is "
    "rounding (PyTorch's Welford and chainrule's two-pass sum round it differently, both at 1e-16) and the "
    "derivatives divide by it (docs/differences.md)",
    lambda key: _op_family(key) in ("std", "std_legacy", "std_mean", "var", "var_legacy", "var_mean")
    and key.split("|")[1].split(":")[0] in ("grad", "grad2", "jvp") and ":error-" not in key,
    _spread_at_rounding,
    Step(op='std[dim]', arrays=(ArraySpec(dtype='float64', shape=(2, 2), values=(1.0000000000000002, 1.0,
                                                                                 1.0000000000000002, 1.0)),))))

def _derivatives_normwise(step):
    """chainrule's derivatives (every stage after the forward) within 100 eps of the largest
    element of a reference: PyTorch's on the step widened to float64 for float32 input (so
    the float64 truth), PyTorch's own for float64 input. An element that is a cancellation of
    terms as large as the largest (std's second derivative at [0, 1e-30, 0]; the mean of
    elements 1e30 apart in var's gradient) holds rounding noise of that size in either
    library, and no reference to compare it to elementwise."""
    from fuzz.compare import run
    import torch
    import chainrule
    low = any(a.dtype in _LOW for a in step.arrays)
    ours, theirs = run(chainrule, step), _widened_reference(step) if low else run(torch, step)
    # (float64 input computed in float32, prod(dtype=float32): PyTorch's own, to float32's precision)
    forward = run(torch, step)["forward"] if not low else None
    low = low or bool(forward and forward[0] == "ok" and not isinstance(forward[1], str) and any(
        isinstance(r, tuple) and r[0] in _LOW for r in forward[1]))
    eps = np.finfo(np.float32 if low else np.float64).eps
    floor = _std_second_derivative_scale(step, run(torch, step)["forward"])
    for stage in ("grad", "grad2", "jvp"):
        o, t = ours[stage], theirs[stage]
        if o is None and (t is None or low):  # (tangents are compared for float64 input only)
            continue
        if not (o and t and o[0] == t[0] == "ok") or len(o[1]) != len(t[1]):
            return False
        for a, b in zip(o[1], t[1]):
            if a is None or b is None:
                if (a is None) != (b is None):
                    return False
                continue
            x, y = np.asarray(a[2], complex), np.asarray(b[2], complex)
            if x.shape != y.shape or not (np.isfinite(x).all() and np.isfinite(y).all()):
                return False
            scale = max(np.abs(y).max(initial=0), floor if stage == "grad2" else 0)
            if not np.allclose(x, y, rtol=0, atol=100 * eps * scale):
                return False
    return True


def _std_second_derivative_scale(step, forward):
    """The size of the terms a std's second derivative cancels: about |v| |w| / sigma (v, w the
    fuzzer's normal directions, at most 6 per element; sigma the smallest std of a slice). At
    [1e-30, 0] they are 1e31 and cancel to 0 exactly; both libraries' results are 1e14 of
    rounding, of either sign. A finite p-norm's (p not 1): |v| |w| |p - 1| max|x_i|^(p-2) /
    norm^(p-1), which cancel to 0 for one element (the norm is |x|). 0 for the other ops."""
    if _op_family(step.op) == "vector_norm":
        return _norm_second_derivative_scale(step, forward)
    if not _op_family(step.op).startswith("std") or not forward or forward[0] != "ok" or isinstance(forward[1], str):
        return 0.0
    first = next((r for r in forward[1] if isinstance(r, tuple) and len(r) > 2), None)
    sigma = np.abs(np.asarray(first[2], float)) if first is not None else np.zeros(0)
    sigma = sigma[np.isfinite(sigma) & (sigma > 0)]
    n = max((a.size for a in _arrays(step)), default=1)
    return 36 * np.sqrt(n) / float(sigma.min()) if sigma.size else 0.0


def _norm_second_derivative_scale(step, forward):
    p = OPS[step.op].rest[0] if step.op in OPS else 2
    arrays = _arrays(step)
    if not arrays or not forward or forward[0] != "ok" or isinstance(forward[1], str) or not math.isfinite(p) \
            or p in (0, 1):
        return 0.0
    x = np.abs(arrays[0].astype(np.float64))
    x = x[np.isfinite(x) & (x > 0)]
    norms = [np.abs(np.asarray(r[2], float)) for r in forward[1] if isinstance(r, tuple) and len(r) > 2]
    norms = norms[0][np.isfinite(norms[0]) & (norms[0] > 0)] if norms else np.zeros(0)
    if not x.size or not norms.size:
        return 0.0
    return 36 * arrays[0].size * abs(p - 1) * float(np.max(x ** (p - 2))) * float(np.max(norms ** (1 - p)))


# the ops whose derivatives cancel terms as large as their largest: variances (through the
# mean), the decompositions' (through products of factors), prod's second (weighted sums of
# products of the other elements)
_NORMWISE_DERIVATIVES = ("std", "std_legacy", "std_mean", "var", "var_legacy", "var_mean", "cholesky_inverse",
                         "eigvalsh", "eigh", "prod", "vector_norm")


DELIBERATE_RULES.append(DeliberateRule(
    "derivatives of variances and of cholesky_inverse, eigh, eigvalsh, prod, vector_norm to normwise accuracy: an element "
    "that cancels terms as large as the largest (or, for std's and a p-norm's second derivative, as large as their "
    "terms) is rounding noise of that size in both libraries (docs/differences.md)",
    lambda key: _op_family(key).startswith(_NORMWISE_DERIVATIVES) and key.split("|")[1] in (
        "grad:value", "grad2:value", "jvp:value"),
    _derivatives_normwise,
    Step(op='std[correction_half]', arrays=(ArraySpec(dtype='float64', shape=(1, 1, 3), values=(0.0, 1e-30, 0.0)),))))


def _whole_of_equal_values(step):
    """A whole-tensor variance (no dim, or every dim of size above 1) of at least two
    elements, all finite and equal."""
    a = _arrays(step)
    if not a or a[0].size < 2 or not np.isfinite(a[0]).all() or not (a[0] == a[0].flat[0]).all():
        return False
    rest = OPS[step.op].rest if step.op in OPS else ()
    dims = rest[0] if rest else None  # (the legacy signatures: unbiased, or (dim, unbiased, keepdim))
    dims = dims[0] if isinstance(dims, tuple) and dims and _op_family(step.op).endswith("_legacy") else dims
    if dims is None or isinstance(dims, bool):
        return True
    dims = {d % a[0].ndim for d in ((dims,) if isinstance(dims, int) else dims)}
    return all(d in dims for d in range(a[0].ndim) if a[0].shape[d] > 1)


DELIBERATE_RULES.append(DeliberateRule(
    "the whole-tensor variance of equal values is 0: PyTorch's deviations from its mean(), exact or an ulp off by "
    "its sum's lane order (three 1e30s: 2e28), give it noise and its derivatives more; chainrule corrects the mean "
    "(docs/differences.md)",
    lambda key: _op_family(key) in ("std", "std_legacy", "std_mean", "var", "var_legacy", "var_mean")
    and ":error-" not in key,
    _whole_of_equal_values,
    Step(op='var[whole]', arrays=(ArraySpec(dtype='float64', shape=(3,), values=(1e30, 1e30, 1e30)),))))


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
