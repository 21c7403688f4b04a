"""Solvers: inverse, determinant, linear systems, Cholesky (factor, solve, inverse), least
squares and the pseudo-inverse.

The answers to ``A X = B`` in its forms; a singular or not positive-definite matrix raises
``LinAlgError`` with PyTorch's message (the zero pivot from ``decomposition_base``'s LU).

>>> torch.linalg.solve(torch.tensor([[2.0, 0.0], [0.0, 4.0]]), torch.tensor([2.0, 2.0]))
tensor([1.0000, 0.5000])
"""
import warnings

import numpy as np

from ..._core.tensor import Tensor, _wrap
from ..._core.modes import GRAD_MODE
from ..pointwise.elementwise import where
from .contractions import np_einsum
from .products import (check_floating, check_matrix, diag_embed, diagonal, eye_like, lacks_kernel, mH, matmul,
                       refuse_non_lapack, tril, triu, type_name)
from ..batching import aligned, batched_by, has_values, leading, ON_BATCH, on_batch, pad, PER_SAMPLE, per_sample
from ..._core.dims import wrap_dim
from .. import registry
from ..registry import apply, defop, unary
from .decomposition_base import (_LinAlgError, _batch_error, _eps, _equal_matrices, _hermitian_input, _layout,
                                 _real_dtype, np_svd, _np_hermitian_part, _np_lu, _np_lu_substitute, _np_pack, _np_part,
                                 _np_substitute, _outputs, _packed, _part_rules, _parts, _singular_info, _solve, named)
from .factorizations import linalg_svd, svdvals
from .triangular import solve_triangular


# --- inverse, determinant, linear systems ------------------------------------------------------


def _np_inv(a, fn):
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        info = _singular_info(a)
        raise _batch_error(_LinAlgError, fn, f"The diagonal element {int(info[info > 0].flat[0])} is zero, the "
                           "inversion could not be completed because the input matrix is singular.", info,
                           a.ndim > 2) from None


INV = defop("linalg_inv", _np_inv, batch=leading, node="LinalgInvExBackward0", save=lambda ans, a, fn: (ans,),
            vjp=lambda g, inverse: -matmul(mH(inverse), matmul(g, mH(inverse))),
            jvp=lambda t, inverse: -matmul(matmul(inverse, t), inverse))


def _check_square_floating(A, fn, half=None):
    check_matrix(A, fn)
    check_floating(A, fn, half)


def inv(A, *, out=None):
    """The inverse of each square matrix; a singular one raises ``LinAlgError``."""
    _check_square_floating(A, "linalg.inv", "low")
    return unary(INV, A, ("linalg.inv",))


inverse = inv


def _where_failed(info, failed, A, compute, tail=2):
    """``compute(A)`` for the matrices whose ``info`` is 0, ``failed`` (values without a
    gradient) for the others. A batch that mixes both (a vmap batch of samples) keeps the
    good matrices' gradients, as one sample at a time would: the failed ones are computed
    on the identity instead. ``tail``: the result's dims after the batch (1: vectors).

    >>> _where_failed(info, inverse_with_infinities, A, inv)  # info (2,): [0, 3]
    """
    bad = info != 0
    if bad.all():
        return failed
    mask = _wrap(bad.reshape(bad.shape + (1, 1)))
    good = compute(where(mask, eye_like(A), A))
    return where(_wrap(bad.reshape(bad.shape + (1,) * tail)), failed, good)


def inv_ex(A, *, check_errors=False, out=None):
    """``(inverse, info)``: info (int32) is the first zero pivot of a singular matrix, whose
    "inverse" is then what LAPACK's solver leaves (infinities), without a gradient."""
    _check_square_floating(A, "linalg.inv", "low")  # PyTorch's inv_ex checks as inv
    return _inv_ex(A, check_errors)


@batched_by(ON_BATCH)  # the batch at once: its failures say "(Batch element i)"
def _inv_ex(A, check_errors):
    lu_matrix, pivots, info = _np_lu(A._data)
    if check_errors or not info.any():
        return named.linalg_inv_ex((unary(INV, A, ("linalg.inv_ex",)), _wrap(info)))
    identity = np.broadcast_to(np.eye(A._data.shape[-1], dtype=A._data.dtype), A._data.shape)
    failed = _wrap(_np_lu_substitute(lu_matrix, pivots, identity))
    return named.linalg_inv_ex((_where_failed(info, failed, A, inv), _wrap(info)))


def _det_grad(g, a, ans):
    """PyTorch's linalg_det_backward: g det* A^-H. At a singular matrix PyTorch's first
    backward gives det* (= 0) times a perturbed inverse, and, when differentiating again,
    the adjugate from an SVD: U diag(prod_{j != i} s_j) Vh (det U det Vh)*, exact there."""
    if not a._data.size:  # PyTorch's gradient of empty matrices: fresh zeros, outside the graph
        return _wrap(np.zeros(a._data.shape, a._data.dtype))
    if a._data.shape[-1] == 1:  # the determinant is the entry: PyTorch passes g through (no graph of its own)
        return g.unsqueeze(-1).unsqueeze(-1).expand(a._data.shape)
    scale = (g * ans.conj()).unsqueeze(-1).unsqueeze(-1)
    singular = np.abs(ans._data) < 100 * _eps(a)
    if not singular.any():
        return scale * mH(inv(a))
    if not GRAD_MODE.enabled:
        exact = _wrap((ans._data == 0)[..., None, None])
        return scale * mH(inv(where(exact, eye_like(a), a)))
    u, s, vh = linalg_svd(a, full_matrices=True)
    alpha = (det(u) * det(vh)).conj() * g
    n = s.shape[-1]
    others = []  # prod_{j != i} s_j, without dividing by a zero s_i
    for i in range(n):
        product = alpha
        for j in range(n):
            if j != i:
                product = product * s[..., j]
        others.append(product.unsqueeze(-1) * _constant_row(n, i, s))
    return matmul(u * sum(others).unsqueeze(-2), vh)


def _constant_row(n, i, like):
    """The i-th unit vector of length n, in ``like``'s dtype."""
    return _wrap(np.eye(n, dtype=like._data.dtype)[i])


def _det_tangent(t, a, ans):
    exact = _wrap((ans._data == 0)[..., None, None])
    return ans * diagonal(solve(where(exact, eye_like(a), a), t)).sum(-1)


DET = defop("linalg_det", np.linalg.det, batch=leading, node="LinalgDetBackward0", save=lambda ans, a: (a, ans),
            vjp=_det_grad, jvp=_det_tangent)


def det(A, *, out=None):
    """The determinant of each square matrix."""
    _check_square_floating(A, "linalg.det")
    empty = lacks_kernel(A, "lu_cpu", det)
    return unary(DET, A) if empty is None else empty


_SLOGDET_LAYOUT = _layout([((), False), ((), True)])  # sign (A's dtype), logabsdet (real)


def _np_slogdet(a):
    sign, logabsdet = np.linalg.slogdet(a)
    return _np_pack([sign, logabsdet], a.shape[:-2], _SLOGDET_LAYOUT)


def _slogdet_grad(g, a, packed):
    """(g_logabsdet - i Im(g_sign* sign)) A^-H (the sign only matters for complex A)."""
    layout = _SLOGDET_LAYOUT
    sign, _ = _parts(packed, layout)
    g_sign, g_logabs = _parts(g, layout)
    if a.is_complex():
        g_logabs = g_logabs - 1j * (g_sign.conj() * sign).imag
    return solve(mH(a), diag_embed(g_logabs.unsqueeze(-1).expand(a.shape[:-1])))


def _slogdet_tangent(t, a, packed):
    layout = _SLOGDET_LAYOUT
    sign, _ = _parts(packed, layout)
    trace = diagonal(solve_ex(a, t)[0]).sum(-1)  # PyTorch solves with the forward's LU: no singular check
    if a.is_complex():
        return _packed([trace.imag * 1j * sign, trace.real], packed, layout)
    return _packed([None, trace], packed, layout)


SLOGDET = defop("linalg_slogdet", _np_slogdet, batch=leading, node="LinalgSlogdetBackward0", save=lambda ans, a: (a, ans),
                vjp=_slogdet_grad, jvp=_slogdet_tangent)
SLOGDET_OUT = defop("linalg_slogdet_output", _np_part, **_part_rules("LinalgSlogdetBackward0"))


def linalg_slogdet(A, *, out=None):
    """``(sign, logabsdet)``: det = sign * exp(logabsdet), without overflow."""
    _check_square_floating(A, "linalg.slogdet", "low")
    return named.linalg_slogdet(_outputs(SLOGDET_OUT, unary(SLOGDET, A), _SLOGDET_LAYOUT))


def slogdet(input):
    return named.slogdet(linalg_slogdet(input))


def logdet(input):
    """log(det): NaN for a negative determinant (real input), as PyTorch computes it."""
    check_matrix(input, "logdet")
    check_floating(input, "logdet", "low")
    sign, logabsdet = linalg_slogdet(input)
    if input.is_complex():
        return sign.log() + logabsdet
    return where(sign == -1, float("nan"), logabsdet)


def _np_solve(a, b, left, vector, fn):
    if vector:
        b = b[..., None]
    try:
        x = _solve(a, b) if left else np.swapaxes(_solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    except np.linalg.LinAlgError:
        info = _singular_info(np.broadcast_to(a, np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + a.shape[-2:]))
        raise _batch_error(_LinAlgError, fn, "The solver failed because the input matrix is singular.", info,
                           a.ndim > 2 or b.ndim > 2) from None
    return x[..., 0] if vector else x


def _as_matrix(t, vector):
    return t.unsqueeze(-1) if vector else t


def _solve_grad_b(g, a, x, left, vector, fn):
    return solve(mH(a), g, left=left)


def _solve_grad_a(g, a, x, left, vector, fn):
    gb, x = _as_matrix(solve(mH(a), g, left=left), vector), _as_matrix(x, vector)
    return -matmul(gb, mH(x)) if left else -matmul(mH(x), gb)


def _solve_tangent_a(t, a, x, left, vector, fn):
    x = _as_matrix(x, vector)
    product = matmul(t, x) if left else matmul(x, t)
    result = solve(a, -product, left=left)
    return result.squeeze(-1) if vector else result


def _systems(vector_at):
    """The batching rule of a solver of ``A X = B`` (``solve``, ``lstsq``) where B may be a
    (batch of) vector(s) (the flag at ``vector_at`` in params): every input batched, A and B
    with as many batch dims, in front of their matrix (vector) dims, as broadcasting would."""
    def rule(op, args, batched, params, dtype):
        args, _ = aligned(args, batched, same_rank=False)
        cores = (2, 1 if params[vector_at] else 2)
        rank = max(a._data.ndim - 1 - c for a, c in zip(args, cores))
        return apply(op, [pad(a, rank + c) for a, c in zip(args, cores)], params, dtype)
    return rule


SOLVE = defop("linalg_solve", _np_solve, batch=_systems(1), node="LinalgSolveExBackward0",
              save=lambda ans, a, b, left, vector, fn: (a, ans, left, vector, fn),
              vjp=(_solve_grad_a, _solve_grad_b),
              jvp=(_solve_tangent_a, lambda t, a, x, left, vector, fn: solve(a, t, left=left)))


def solve(A, B, *, left=True, out=None):
    """X with ``A X = B`` (``X A = B`` when not ``left``); B may be a (batch of) vector(s)."""
    return _solve_checked(A, B, left, "torch.linalg.solve")


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """``(result, info)``: info (int32) is the first zero pivot of a singular A, whose
    "solution" is then what LAPACK's solver leaves (infinities), without a gradient."""
    vector = _solve_shapes(A, B, left)  # before any factoring: a singular A must not skip the checks
    return _solve_ex(A, B, left, check_errors, vector)


@batched_by(lambda A, B, left, check_errors, vector:  # the batch at once: its failures say "(Batch element i)"
            on_batch(lambda a, b: _solve_ex_batch(a, b, vector, left, check_errors), A, B))
def _solve_ex(A, B, left, check_errors, vector):
    factorable = A._data.ndim >= 2 and A._data.dtype.kind in "fc" and A._data.dtype != np.float16  # (no Half kernel)
    lu_matrix, pivots, info = _np_lu(A._data) if factorable else (0, 0, None)
    if info is None or check_errors or not info.any() or not left:
        return named.linalg_solve_ex((_solve_checked(A, B, left, "torch.linalg.solve_ex"),
                                      _wrap(np.zeros(A._data.shape[:-2], np.int32) if info is None else info)))
    b = B._data[..., None] if vector else B._data
    x = _wrap(_np_lu_substitute(lu_matrix, pivots, b))
    x = x[..., 0] if vector else x
    solved = _where_failed(info, x, A, lambda a: solve(a, B), 1 if vector else 2)
    return named.linalg_solve_ex((solved, _wrap(info)))


def _solve_ex_batch(a, b, vector, left, check_errors):
    """``solve_ex`` of a vmap batch (dim 0 of ``a`` and ``b``): a ``vector`` sample as a
    one-column matrix (the batch dim could make a vector look like a matrix), and both with
    as many batch dims as broadcasting gives one sample; info keeps A's batch shape."""
    if vector:
        b = b.unsqueeze(-1)
    ndim = max(a._data.ndim, b._data.ndim) - 1
    x, info = solve_ex(pad(a, ndim), pad(b, ndim), left=left, check_errors=check_errors)
    return named.linalg_solve_ex((x.squeeze(-1) if vector else x, info.reshape(a._data.shape[:-2])))


def _solve_checked(A, B, left, fn):
    vector = _solve_shapes(A, B, left)
    empty = lacks_kernel(A, "lu_cpu", lambda a: _solve_checked(a, B.to(a.dtype), left, fn))
    return apply(SOLVE, (A, B), (left, vector, fn)) if empty is None else empty


def is_vector_rhs(a_shape, b_shape):
    """PyTorch's linalg_solve_is_vector_rhs: B is a (batch of) vector(s) when 1-d, or when
    its shape is A's without the last dim; else a (batch of) matrix (matrices)."""
    return len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1 and tuple(b_shape) == tuple(a_shape[:-1]))


def _solve_shapes(A, B, left):
    """PyTorch's checks of a system's dtypes and shapes; whether B is a (batch of) vector(s)."""
    check_floating(A, "linalg.solve")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{type_name(A)} and B of type {type_name(B)} instead")
    check_matrix(A, "linalg.solve")
    a_shape, b_shape = A._data.shape, B._data.shape
    vector = is_vector_rhs(a_shape, b_shape)
    if B._data.ndim == 0:
        check_matrix(B, "linalg.solve", "B", square=False)
    b = b_shape[-1:] + (1,) if vector else b_shape[-2:]  # a vector B reads as a column
    if b[0 if left else 1] != a_shape[-1]:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {equation} "
                           f"({a_shape[-2]}x{a_shape[-1]} and {b[0]}x{b[1]})")
    batch_b = b_shape[:-1] if vector else b_shape[:-2]
    for i in range(1, min(len(a_shape) - 2, len(batch_b)) + 1):
        x, y = a_shape[-2 - i], batch_b[-i]
        if x != y and 1 not in (x, y):
            raise RuntimeError(f"The size of tensor a ({y}) must match the size of tensor b ({x}) at "
                               f"non-singleton dimension {max(len(a_shape) - 2, len(batch_b)) - i}")
    if vector and not left:
        raise RuntimeError("linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. "
                           "In this case linalg.solve is equivalent to B / A.squeeze(-1)")
    return vector


# --- Cholesky ---------------------------------------------------------------------------------


def _np_cholesky_partial(h):
    """LAPACK's unblocked potf2 on the lower triangle: ``(L, info)``; a matrix that is not
    positive definite stops at its first bad pivot (info, 1-based), left as LAPACK leaves it."""
    n = h.shape[-1]
    low = np.tril(h).reshape((int(np.prod(h.shape[:-2])), n, n)).copy()
    info = np.zeros(low.shape[0], np.int32)
    for j in range(n):
        live = info == 0
        d = (low[:, j, j] - np.sum(low[:, j, :j] * np.conj(low[:, j, :j]), axis=-1)).real
        bad = live & ~(d > 0)
        info[bad] = j + 1
        live &= ~bad
        low[bad, j, j] = d[bad]
        root = np.sqrt(np.where(live, d, 1))
        low[live, j, j] = root[live]
        below = (low[:, j + 1:, j] - np_einsum("bij,bj->bi", low[:, j + 1:, :j], np.conj(low[:, j, :j]))) / \
            root[:, None]
        low[live, j + 1:, j] = below[live]
    return low.reshape(h.shape), info.reshape(h.shape[:-2])


def _np_cholesky(a, upper, fn):
    h = _np_hermitian_part(a)
    try:
        low = np.linalg.cholesky(h)
        failed = not np.isfinite(low).all()  # NumPy lets nan through; LAPACK's pivot test (d > 0) does not
    except np.linalg.LinAlgError:
        low, failed = None, True
    if failed:
        partial, info = _np_cholesky_partial(h)
        low = partial if low is None else low
    if failed and info.any():
        raise _batch_error(_LinAlgError, fn, "The factorization could not be completed because the input is not "
                           f"positive-definite (the leading minor of order {int(info[info > 0].flat[0])} is not "
                           "positive-definite).", info, a.ndim > 2)
    return np.conj(np.swapaxes(low, -1, -2)) if upper else low


def _cholesky_grad(g, factor, upper, fn):
    """PyTorch's cholesky_backward: gA = L^-H Phi(L^H gL) L^-1, Phi taking the lower
    triangle with its diagonal halved, symmetrised."""
    low, g_low = (mH(factor), mH(g)) if upper else (factor, g)
    ga = tril(matmul(mH(low), g_low))
    ga = 0.5 * (ga + mH(tril(ga, -1)))
    ga = solve_triangular(mH(low), ga, upper=True, left=True)
    return solve_triangular(low, ga, upper=False, left=False)


def _cholesky_tangent(t, factor, upper, fn):
    """dL = L Pi(L^-1 dA L^-H), Pi: the lower triangle with its diagonal halved (dA: the
    Hermitian part of the tangent, which is what the op reads: its input is Hermitian, see
    READ_HERMITIAN)."""
    low = mH(factor) if upper else factor
    da = 0.5 * (t + mH(t))
    dl = solve_triangular(low, da, upper=False, left=True)
    dl = solve_triangular(mH(low), dl, upper=True, left=False)
    dl = matmul(low, tril(dl) - 0.5 * diag_embed(diagonal(dl)))
    return mH(dl) if upper else dl


_cholesky_rules = dict(save=lambda ans, a, upper, fn: (ans, upper, fn), vjp=_cholesky_grad, jvp=_cholesky_tangent)
CHOLESKY = defop("linalg_cholesky", _np_cholesky, batch=leading, node="LinalgCholeskyExBackward0", **_cholesky_rules)
CHOLESKY_LEGACY = defop("cholesky", _np_cholesky, batch=leading, node="CholeskyBackward0", **_cholesky_rules)


def _np_cholesky_partial_factor(a, upper, fn):
    partial = _np_cholesky_partial(_np_hermitian_part(a))[0]
    return np.conj(np.swapaxes(partial, -1, -2)) if upper else partial


CHOLESKY_PARTIAL = defop("linalg_cholesky_partial", _np_cholesky_partial_factor, batch=leading,
                         node="LinalgCholeskyExBackward0", **_cholesky_rules)

def _cholesky_checked(A, upper, fn, op):
    check_matrix(A, fn)
    if op is CHOLESKY:  # the legacy one has no dtype check of its own
        check_floating(A, fn)
    empty = lacks_kernel(A, "cholesky_cpu", lambda a: _cholesky_checked(a, upper, fn, op))
    return unary(op, _hermitian_input(A, upper), (upper, fn)) if empty is None else empty


def linalg_cholesky(A, *, upper=False, out=None):
    """L (lower triangular, positive diagonal) with A = L L^H; U = L^H when ``upper``."""
    return _cholesky_checked(A, upper, "linalg.cholesky", CHOLESKY)


def cholesky(input, upper=False, *, out=None):
    warnings.warn("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
                  "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\n"
                  "and\nU = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH"
                  "\nThis transform will produce equivalent results for all valid (symmetric positive definite) "
                  "inputs.", UserWarning, stacklevel=2)
    return _cholesky_checked(input, upper, "cholesky", CHOLESKY_LEGACY)


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """``(L, info)``: info (int32) is the order of the first leading minor that is not
    positive definite (0: none); L is then LAPACK's partial factor."""
    _check_square_floating(A, "linalg.cholesky")  # PyTorch's cholesky_ex checks as cholesky
    empty = lacks_kernel(A, "cholesky_cpu", lambda a: cholesky_ex(a, upper=upper, check_errors=check_errors))
    if empty is not None:
        return empty
    return _cholesky_ex(A, upper, check_errors)


@batched_by(ON_BATCH)  # the batch at once: its failures say "(Batch element i)"
def _cholesky_ex(A, upper, check_errors):
    hermitian = _hermitian_input(A, upper)
    partial, info = _np_cholesky_partial(_np_hermitian_part(hermitian._data))
    if check_errors or not info.any():
        return named.linalg_cholesky_ex((unary(CHOLESKY, hermitian, (upper, "linalg.cholesky_ex")), _wrap(info)))
    # PyTorch differentiates LAPACK's partial factor too, with the same backward
    return named.linalg_cholesky_ex((unary(CHOLESKY_PARTIAL, hermitian, (upper, "linalg.cholesky_ex")), _wrap(info)))


# --- Cholesky solves ---------------------------------------------------------------------------


def _triangle_read(factor, upper):
    """The triangle of a Cholesky factor that LAPACK reads: the factor itself where it is
    triangular (its gradient then covers every element, as PyTorch's), else a copy with
    the rest zeroed. Under vmap, decided for each sample by ops."""
    data = factor._data
    if has_values(data) and np.array_equal(data, np.triu(data) if upper else np.tril(data)):
        return factor
    triangle = triu(factor) if upper else tril(factor)
    return triangle if has_values(data) else where(_equal_matrices(factor, triangle), factor, triangle)


def _np_cholesky_solve(b, factor, upper):
    """(L L^H)^-1 b = L^-H (L^-1 b), two substitutions as LAPACK's potrs, from the whole factor
    (the gradient treats every element of it; see _triangle_read). Forming L L^H would
    square the factor's range: 1e30 in float32 overflows."""
    lower = np.conj(np.swapaxes(factor, -1, -2)) if upper else factor
    if np.triu(lower, 1).any():  # the op itself on a whole matrix (as its rules are checked): no triangle to substitute in
        return _solve(np.conj(np.swapaxes(lower, -1, -2)), _solve(lower, b))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _np_substitute(np.conj(np.swapaxes(lower, -1, -2)), _np_substitute(lower, b, False), True)


def _cholesky_solve_grad_factor(g, factor, x, upper):
    gb = cholesky_solve(g, factor, upper)
    common = matmul(gb, mH(x))
    common = common + mH(common)
    return -matmul(factor, common) if upper else -matmul(common, factor)


def _cholesky_solve_tangent_factor(t, factor, x, upper):
    dk = matmul(mH(t), factor) if upper else matmul(t, mH(factor))
    return cholesky_solve(-matmul(dk + mH(dk), x), factor, upper)


CHOLESKY_SOLVE = defop(
    "cholesky_solve", _np_cholesky_solve, batch=leading, node="CholeskySolveBackward0",
    save=lambda ans, b, factor, upper: (factor, ans, upper),
    vjp=(lambda g, factor, x, upper: cholesky_solve(g, factor, upper), _cholesky_solve_grad_factor),
    jvp=(lambda t, factor, x, upper: cholesky_solve(t, factor, upper), _cholesky_solve_tangent_factor))


def cholesky_solve(input, input2, upper=False, *, out=None):
    """X with ``A X = input`` for A = L L^H given L (``input2``; A = U^H U when ``upper``)."""
    b, factor = input, input2
    if b._data.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {b._data.ndim} dimensions instead")
    if factor._data.ndim < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {factor._data.ndim} dimensions instead")
    if b._data.dtype != factor._data.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {type_name(b)} and A of "
                           f"type {type_name(factor)} instead.")
    (n, n2), rows = factor._data.shape[-2:], b._data.shape[-2]
    if n != n2:
        raise RuntimeError(f"A must be batches of square matrices, but they are {n} by {n2} matrices")
    if rows != n:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} by {n2} but each "
                           f"b matrix is {rows} by {b._data.shape[-1]}")
    refuse_non_lapack(b, "cholesky_solve_cpu")
    return apply(CHOLESKY_SOLVE, (b, _triangle_read(factor, upper)), (upper,))


def _np_cholesky_inverse(factor, upper):
    """As LAPACK's potri: the factor's inverse X, then X X^H (U^-1 U^-H) or X^H X (L^-H
    L^-1). The factor's own product is never formed: it overflows first. (From the whole
    factor, which the gradient treats: triangular whenever it comes from _triangle_read.)"""
    zero = np.diagonal(factor, axis1=-2, axis2=-1) == 0
    if zero.any():
        failed = zero.reshape(-1, zero.shape[-1]).any(-1)
        first = int(np.argmax(zero.reshape(-1, zero.shape[-1])[np.argmax(failed)])) + 1
        raise _batch_error(_LinAlgError, "cholesky_inverse", f"The diagonal element {first} is zero, the inversion "
                           "could not be completed because the input matrix is singular.", failed, factor.ndim > 2)
    x = np.linalg.inv(factor)
    xh = np.conj(np.swapaxes(x, -1, -2))
    return x @ xh if upper else xh @ x


def _cholesky_inverse_grad(g, factor, inverse, upper):
    """PyTorch's cholesky_inverse_backward: -X (g + g^H) X L (X: the result)."""
    common = matmul(inverse, matmul(g + mH(g), inverse))
    return -matmul(factor, common) if upper else -matmul(common, factor)


def _cholesky_inverse_tangent(t, factor, inverse, upper):
    dk = matmul(mH(t), factor) if upper else matmul(t, mH(factor))
    return -matmul(inverse, matmul(dk + mH(dk), inverse))


CHOLESKY_INVERSE = defop("cholesky_inverse", _np_cholesky_inverse, batch=leading, node="CholeskyInverseBackward0",
                         save=lambda ans, factor, upper: (factor, ans, upper),
                         vjp=_cholesky_inverse_grad, jvp=_cholesky_inverse_tangent)


def cholesky_inverse(input, upper=False, *, out=None):
    """(L L^H)^-1 from the Cholesky factor L (U^H U with U when ``upper``)."""
    check_matrix(input, "cholesky_inverse")
    refuse_non_lapack(input, "cholesky_inverse_out_cpu")
    return unary(CHOLESKY_INVERSE, _triangle_read(input, upper), (upper,))


# --- pseudo-inverse and least squares ----------------------------------------------------------


def _np_pinv(a, atol, rtol, hermitian):
    """Through the SVD (also for ``hermitian``: the values equal those of an eigendecomposition)."""
    u, s, vh = np_svd(a, full_matrices=False)
    largest = s[..., :1] if s.shape[-1] else s
    keep = s > np.maximum(atol, rtol * largest)
    with np.errstate(divide="ignore"):
        inverse_s = np.where(keep, 1 / np.where(keep, s, 1), 0)
    return np.conj(np.swapaxes(vh, -1, -2)) @ (inverse_s[..., None] * np.conj(np.swapaxes(u, -1, -2)))


def _pinv_grad(g, p, a):
    """PyTorch's pinv_backward (p = pinv(a))."""
    m, n = a.shape[-2:]
    ph, gh = mH(p), mH(g)
    if m <= n:
        k = matmul(gh, p)
        k_ph = matmul(k, ph)
        return -mH(matmul(p, k)) + k_ph - matmul(matmul(a, p), k_ph) + matmul(matmul(ph, p), gh - matmul(k, a))
    k = matmul(p, gh)
    ph_k = matmul(ph, k)
    return -mH(matmul(k, p)) + matmul(matmul(gh - matmul(a, k), p), ph) + ph_k - matmul(matmul(ph_k, p), a)


def _pinv_tangent(t, p, a):
    """PyTorch's pinv_jvp."""
    m, n = a.shape[-2:]
    th, ph = mH(t), mH(p)
    if m <= n:
        k = matmul(ph, th)
        return matmul(p, k - mH(k) - matmul(k, matmul(a, p))) + matmul(th - matmul(p, matmul(a, th)), matmul(ph, p))
    k = matmul(p, t)
    kh = mH(k)
    return matmul(kh - k - matmul(matmul(p, a), kh), p) + matmul(matmul(p, ph), th - matmul(matmul(th, a), p))


PINV = defop("linalg_pinv", _np_pinv, batch=leading, node="LinalgPinvBackward0", save=lambda ans, a, *tolerances: (ans, a),
             vjp=_pinv_grad, jvp=_pinv_tangent)


@batched_by(PER_SAMPLE, when=("rcond", "atol", "rtol", "out"))  # batched tolerances
def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The Moore-Penrose pseudo-inverse: singular values at most max(atol, rtol * largest)
    count as zero (default rtol: eps * max(m, n), 0 when only atol is given)."""
    if atol is not None:  # PyTorch's overload with atol checks as matrix_rank does
        wrap_dim(-2, A._data.ndim)
        if A._data.dtype.kind not in "fc" or A._data.dtype == np.float16:
            raise RuntimeError("This function doesn't handle types other than float and double")
    if A._data.ndim < 2 or A._data.dtype.kind not in "fc" or A._data.dtype == np.float16:
        kind = {"f": "Float", "d": "Double"}.get(A._data.dtype.char, type_name(A))
        raise RuntimeError(f"linalg.pinv({kind}{{{list(A._data.shape)}}}): expected a tensor with 2 or more "
                           "dimensions of float, double, cfloat or cdouble types")
    if rcond is not None:
        rtol = rcond
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else _eps(A) * max(A._data.shape[-2:])
    if hermitian:
        A = _hermitian_input(A, False)
    return unary(PINV, A, (0.0 if atol is None else float(atol), float(rtol), hermitian))


def pinverse(input, rcond=1e-15):
    return pinv(input, rtol=rcond)


def _lstsq_layout(a_shape, b_shape, vector, residuals):
    n, k = a_shape[-1], (1 if vector else b_shape[-1])
    return _layout([((n,) if vector else (n, k), False), ((k,) if residuals else None, True)])


def _np_lstsq(a, b, rcond, residuals, vector):
    bm = b[..., None] if vector else b
    batch = np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    x = _np_pinv(np.broadcast_to(a, batch + a.shape[-2:]), 0.0, rcond, False) @ bm
    parts = [x[..., 0] if vector else x]
    if residuals:
        parts.append(np.sum(np.abs(a @ x - bm) ** 2, axis=-2))
    else:
        parts.append(np.zeros(batch + (0,), x.dtype))
    return _np_pack(parts, batch, _lstsq_layout(a.shape, b.shape, vector, residuals))


def _lstsq_grads(g, a, b, packed, rcond, residuals, vector):
    """PyTorch's linalg_lstsq_backward: through pinv for the solution, and the residuals'
    2 Re((A X - B) * ...) terms."""
    layout = _lstsq_layout(a.shape, b.shape, vector, residuals)
    x, _ = _parts(packed, layout)
    gx, gl = _parts(g, layout)
    x, gx, bm = _as_matrix(x, vector), _as_matrix(gx, vector), _as_matrix(b, vector)
    p = pinv(a, rtol=rcond)
    ga = _pinv_grad(matmul(gx, mH(bm)), p, a)
    gb = matmul(mH(p), gx)
    if residuals:
        r = matmul(a, x) - bm
        ga = ga + 2 * matmul(gl.unsqueeze(-2) * r, mH(x))
        gb = gb - 2 * gl.unsqueeze(-2) * r
    return ga, gb.squeeze(-1) if vector else gb


def _lstsq_tangent(ta, tb, a, b, packed, rcond, residuals, vector):
    layout = _lstsq_layout(a.shape, b.shape, vector, residuals)
    x, _ = _parts(packed, layout)
    x, bm = _as_matrix(x, vector), _as_matrix(b, vector)
    p = pinv(a, rtol=rcond)
    dx = matmul(_pinv_tangent(ta, p, a), bm) if ta is not None else matmul(p, _as_matrix(tb, vector))
    dl = None
    if residuals:
        dr = matmul(ta, x) if ta is not None else -_as_matrix(tb, vector)
        dl = 2 * ((matmul(a, x) - bm) * dr.conj()).real.sum(-2)
    return _packed([dx.squeeze(-1) if vector else dx, dl], packed, layout)


LSTSQ = defop("linalg_lstsq", _np_lstsq, batch=_systems(2), node="LinalgLstsqBackward0",
              save=lambda ans, a, b, *params: (a, b, ans, *params),
              vjp=(lambda g, *saved: _lstsq_grads(g, *saved)[0], lambda g, *saved: _lstsq_grads(g, *saved)[1]),
              jvp=(lambda t, *saved: _lstsq_tangent(t, None, *saved),
                   lambda t, *saved: _lstsq_tangent(None, t, *saved)))
LSTSQ_OUT = defop("linalg_lstsq_output", _np_part, **_part_rules("LinalgLstsqBackward0"))


def lstsq(A, B, rcond=None, *, driver=None):
    """``(solution, residuals, rank, singular_values)`` minimising |A X - B|. As PyTorch's
    CPU drivers: residuals (squared, per column) only for tall full-rank A and a driver
    other than the default gelsy; rank unless gels; singular values for gelsd and gelss."""
    driver = driver or "gelsy"
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    if A._data.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if B._data.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's "
                           f"dtype {type_name(A)} and other's dtype {type_name(B)}")
    if not 0 <= A._data.ndim - B._data.ndim <= 1:
        raise RuntimeError("torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and "
                           "(input.dim() - other.dim()) <= 1")
    vector = is_vector_rhs(A._data.shape, B._data.shape)
    if (B._data.shape[-1] if vector else B._data.shape[-2]) != A._data.shape[-2]:
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match other.size({-1 if vector else -2})")
    if A._data.dtype.kind not in "fc" or A._data.dtype == np.float16:  # (the default rcond's eps)
        raise RuntimeError("This function doesn't handle types other than float and double")
    # a matrix B of one dim less than A: PyTorch's outputs take the batch of A's against
    # B's leading dims, B's rows included (values: copies of the one solution)
    out_batch = None
    if not vector and B._data.ndim == A._data.ndim - 1:
        error = registry.broadcast_error(None, A._data.shape[:-2], B._data.shape[:-1])
        if error is not None:
            raise error
        out_batch = np.broadcast_shapes(A._data.shape[:-2], B._data.shape[:-1])
    if has_values(A._data) and (np.isnan(A._data).any() or np.isnan(B._data).any()
                                or (driver == "gelsd" and not np.isfinite(A._data).all())):
        raise RuntimeError("torch.linalg.lstsq: Argument 4 has illegal value: LAPACK refuses nan (PyTorch fails an "
                           "internal assert here)")
    m, n = A._data.shape[-2:]
    rcond = _eps(A) * max(m, n) if rcond is None else rcond
    if not has_values(A._data):  # vmap
        s = svdvals(A.detach())
    elif np.isfinite(A._data).all():
        s = _wrap(np_svd(A._data, compute_uv=False))
    else:
        s = _wrap(np.full(A._data.shape[:-2] + (min(m, n),), np.nan, _real_dtype(A._data.dtype)))
    rank = (s > s[..., :1] * rcond).sum(-1)
    if 0 in np.broadcast_shapes(A._data.shape[:-2], B._data.shape[:-1 if vector else -2]):
        rank = rank * 0  # LAPACK never ran on an empty broadcast batch: PyTorch's ranks stay 0 (so no residuals)
    residuals = m > n and driver != "gelsy"
    if residuals and driver != "gels":  # only if every matrix has full rank: the output's shape depends on it
        if not has_values(rank._data):  # under vmap, each sample decides for itself
            return per_sample(lstsq, A, B, rcond, driver=driver)
        residuals = bool(np.all(rank._data == n))
    packed = apply(LSTSQ, (A, B), (rcond, residuals, vector))
    solution, residual = _outputs(LSTSQ_OUT, packed, _lstsq_layout(A._data.shape, B._data.shape, vector, residuals))
    if out_batch is not None:
        solution = solution.expand(out_batch + solution.shape[-2:])
        if residuals:
            residual = residual.expand(out_batch + residual.shape[-1:])
    empty = _wrap(np.zeros(0, np.int64))
    rank_out = empty if driver == "gels" else rank
    values = s if driver in ("gelsd", "gelss") else _wrap(np.zeros(0, s._data.dtype))
    return named.linalg_lstsq((solution, residual, rank_out, values))


# --- Tensor methods --------------------------------------------------------------------------

Tensor.det = det
Tensor.logdet = logdet
Tensor.slogdet = slogdet
Tensor.inverse = inv
Tensor.cholesky = cholesky
Tensor.cholesky_solve = cholesky_solve
Tensor.cholesky_inverse = cholesky_inverse
Tensor.pinverse = pinverse
