"""Factorisations, solvers and inverses (``chainrule.linalg``'s inv, det, solve, cholesky, qr,
eigh, svd, lstsq, lu...), and the matrix norms, powers and ranks built on them.

The gradient formulas are PyTorch's (FunctionsManual.cpp), written with chainrule ops so
that they can be differentiated again.

Notes on the invariants:

* **Several outputs, one node.** PyTorch records one node for a decomposition with several
  outputs (``U, S, Vh = svd(A)``), and its gradient formula needs all their gradients at
  once: svd's checks that the loss doesn't depend on the phases of U and V together. The
  engine's nodes have one output, so such an op returns its outputs packed side by side
  along a last axis, and each output is a part of that array, recorded under the
  decomposition's node name. Backward sums the parts' gradients into the packed one, so
  the op's rule sees them all. An output that no loss used gets zeros: the rules treat an
  all-zero gradient as PyTorch treats an undefined one.
* **Hermitian inputs.** ``eigh`` and ``cholesky`` read one triangle of a Hermitian matrix,
  and PyTorch's gradients for them are Hermitian: gradients for Hermitian perturbations.
  The ops compute on the Hermitian part ``(A + A^H) / 2`` (A itself for the Hermitian inputs
  they are meant for), so that each op's derivative is exactly the transpose of its
  gradient. A matrix that isn't Hermitian is first made so from the triangle LAPACK would
  read (chainrule ops), which gives PyTorch's values.
* **Singular matrices.** The LU factorisation is computed here (LAPACK's partial pivoting),
  so the errors name the zero pivot as PyTorch's do.
"""
import warnings

import numpy as np

from .. import return_types
from .._tensor import Tensor, _wrap
from ..autograd.grad_mode import STATE
from . import linalg as _linalg, reductions
from .elementwise import where
from .linalg import (check_floating, check_matrix, diag_embed, diagonal, eye_like, mH, matmul, tril, triu,
                     type_name)
from .batching import aligned, any_batched, has_values, leading, pad, per_sample
from . import registry
from .registry import apply, defop, unary
from .unary import nan_to_num


class _LinAlgError(RuntimeError):
    """``torch.linalg.LinAlgError``: a matrix that the computation cannot handle (singular,
    not positive definite)."""


def _batch_error(cls, fn, message, failed, batch):
    """PyTorch's message for a failure in (the first failing matrix of) a batch."""
    where_ = f"(Batch element {int(np.flatnonzero(failed)[0])}): " if batch else ""
    return cls(f"{fn}: {where_}{message}")


def _real_dtype(dtype):
    return np.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype


def _eps(x):
    return float(np.finfo(_real_dtype(x._data.dtype)).eps)


def _nonzero(t):
    """Whether a gradient term can be skipped (all zero); a batched one under vmap can't be."""
    return not has_values(t._data) or bool(np.any(t._data))


def _solve(a, b):
    """np.linalg.solve for (..., n, n) and (..., n, k), broadcasting the batch dims."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.linalg.solve(np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:]))


# --- LU with partial pivoting, as LAPACK's getrf ----------------------------------------------


def _np_lu(a, pivots=None):
    """``(LU, pivots, info)``: L (unit diagonal, below) and U packed in one matrix, the row
    swaps as LAPACK's 1-based pivots (int32), and info: the first zero pivot (1-based), 0 if
    none. The pivot is the largest |re| + |im| in the column (the first of ties). With
    ``pivots`` given, those swaps are replayed: the same arithmetic, so the same numbers."""
    m, n = a.shape[-2:]
    k, batch = min(m, n), a.shape[:-2]
    count = int(np.prod(batch))
    lu = np.array(a).reshape((count, m, n))
    swaps = np.zeros((count, k), np.int64) if pivots is None else np.reshape(pivots, (count, k)) - 1
    info = np.zeros(count, np.int32)
    rows = np.arange(count)
    for j in range(k):
        if pivots is None:
            column = lu[:, j:, j]
            swaps[:, j] = j + np.argmax(np.abs(column.real) + np.abs(column.imag), axis=1)
        p = swaps[:, j]
        row_j = lu[rows, j].copy()
        lu[rows, j] = lu[rows, p]
        lu[rows, p] = row_j
        pivot = lu[:, j, j]
        zero = pivot == 0
        info = np.where((info == 0) & zero, j + 1, info).astype(np.int32)
        lu[:, j + 1:, j] /= np.where(zero, 1, pivot)[:, None]
        lu[:, j + 1:, j + 1:] -= lu[:, j + 1:, j, None] * lu[:, j, None, j + 1:]
    return lu.reshape(a.shape), (swaps + 1).astype(np.int32).reshape(batch + (k,)), info.reshape(batch)


def _np_permutation(pivots, m, dtype):
    """P with A = P L U, from LAPACK's pivots."""
    batch, k = pivots.shape[:-1], pivots.shape[-1]
    perm = np.broadcast_to(np.arange(m), batch + (m,)).copy()
    flat = perm.reshape(-1, m)
    rows = np.arange(flat.shape[0])
    swaps = pivots.reshape(-1, k) - 1
    for j in range(k):
        p = swaps[:, j]
        flat[rows, j], flat[rows, p] = flat[rows, p], flat[rows, j].copy()
    p_matrix = np.zeros(batch + (m, m), dtype)
    np.put_along_axis(p_matrix, flat.reshape(batch + (1, m)), 1, axis=-2)
    return p_matrix


def _np_lu_substitute(lu_matrix, pivots, b):
    """X with P L U X = b by substitution, as LAPACK's getrs: a zero pivot gives infinities."""
    n = lu_matrix.shape[-1]
    permuted = np.swapaxes(_np_permutation(pivots, n, lu_matrix.dtype), -1, -2) @ b
    unit_lower = np.tril(lu_matrix, -1) + np.eye(n, dtype=lu_matrix.dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _np_substitute(np.triu(lu_matrix), _np_substitute(unit_lower, permuted, False), True)


def _singular_info(a):
    """The first zero pivot of each matrix (0: invertible), as LAPACK reports it."""
    return _np_lu(a)[2]


# --- outputs packed in one array --------------------------------------------------------------


def _layout(parts):
    """``[(shape, real)]`` -> ``((start, stop, shape, real), ...)``: where each output lies
    along the packed array's last axis. ``real``: the real part of a complex packing."""
    out, start = [], 0
    for shape, real in parts:
        size = int(np.prod(shape))
        out.append((start, start + size, tuple(shape), real))
        start += size
    return tuple(out)


def _np_pack(arrays, batch, layout):
    packed = np.zeros(batch + (layout[-1][1],), np.result_type(*arrays))
    for a, (start, stop, _, _) in zip(arrays, layout):
        packed[..., start:stop] = np.reshape(a, batch + (stop - start,))
    return packed


def _np_part(packed, layout, i):
    start, stop, shape, real = layout[i]
    if start == stop:  # an empty output: PyTorch gives it its own shape, (0,), whatever the batch
        return np.zeros(shape, packed.real.dtype if real else packed.dtype)
    part = packed[..., start:stop].reshape(packed.shape[:-1] + shape)
    return np.array(part.real if real else part)  # own memory: the node keeps the packed array


def _np_embed(g, layout, i, packed_shape, dtype):
    out = np.zeros(packed_shape, dtype)
    start, stop, _, _ = layout[i]
    if start != stop:
        out[..., start:stop] = g.reshape(packed_shape[:-1] + (stop - start,))
    return out


def _part_batched(op, args, batched, params, dtype):
    """A part of a batch of packed arrays is the batch of the parts; an empty part (its own
    shape whatever the packing's batch) gets the vmap batch dim that stacking would give it."""
    out = apply(op, args, params, dtype)
    layout, i = params
    start, stop, shape, _ = layout[i]
    return out.reshape(args[0]._data.shape[:1] + shape) if start == stop else out


def _part_rules(node):
    return dict(node=node, batch=_part_batched, save=lambda ans, p, layout, i: (p._data.shape, p._data.dtype, layout, i),
                vjp=lambda g, shape, dtype, layout, i: unary(EMBED, g, (layout, i, shape, dtype)),
                jvp=lambda t, shape, dtype, layout, i: unary(PART, t, (layout, i)))


# the generic pair, for the rules: a part of a packed array, and a part placed in zeros
PART = defop("linalg_part", _np_part, **_part_rules("SplitBackward0"))
def _embed_batched(op, args, batched, params, dtype):
    """Parts placed in a batch of packed arrays: the packed shape gets the batch dim."""
    layout, i, shape, packed_dtype = params
    return apply(op, args, (layout, i, args[0]._data.shape[:1] + tuple(shape), packed_dtype), dtype)


EMBED = defop("linalg_embed", _np_embed, batch=_embed_batched, node="SplitBackward0",
              save=lambda ans, g, layout, i, shape, dtype: (layout, i, shape, dtype),
              vjp=lambda g, layout, i, shape, dtype: unary(PART, g, (layout, i)),
              jvp=lambda t, layout, i, shape, dtype: unary(EMBED, t, (layout, i, shape, dtype)))


def _parts(packed, layout):
    return [unary(PART, packed, (layout, i)) for i in range(len(layout))]


def _packed(tangents, like, layout):
    """The packed array of the given parts (None: zeros), shaped and typed like ``like``."""
    total = None
    for i, t in enumerate(tangents):
        if t is not None:
            term = unary(EMBED, t, (layout, i, like._data.shape, like._data.dtype))
            total = term if total is None else total + term
    return total


def _outputs(op, packed, layout):
    """The decomposition's outputs: parts of the packed array, under its node name."""
    return [unary(op, packed, (layout, i)) for i in range(len(layout))]


# --- the named results: torch.return_types.<name> ----------------------------------------------


class named:
    """The named tuples this module returns, under PyTorch's names (``named.linalg_svd``)."""

    class linalg_inv_ex(return_types._ReturnType):
        __slots__ = ()
        _fields = ("inverse", "info")

    class linalg_slogdet(return_types._ReturnType):
        __slots__ = ()
        _fields = ("sign", "logabsdet")

    class slogdet(return_types._ReturnType):
        __slots__ = ()
        _fields = ("sign", "logabsdet")

    class linalg_solve_ex(return_types._ReturnType):
        __slots__ = ()
        _fields = ("result", "info")

    class linalg_cholesky_ex(return_types._ReturnType):
        __slots__ = ()
        _fields = ("L", "info")

    class linalg_qr(return_types._ReturnType):
        __slots__ = ()
        _fields = ("Q", "R")

    class qr(return_types._ReturnType):
        __slots__ = ()
        _fields = ("Q", "R")

    class linalg_eigh(return_types._ReturnType):
        __slots__ = ()
        _fields = ("eigenvalues", "eigenvectors")

    class linalg_svd(return_types._ReturnType):
        __slots__ = ()
        _fields = ("U", "S", "Vh")

    class svd(return_types._ReturnType):
        __slots__ = ()
        _fields = ("U", "S", "V")

    class linalg_lstsq(return_types._ReturnType):
        __slots__ = ()
        _fields = ("solution", "residuals", "rank", "singular_values")

    class triangular_solve(return_types._ReturnType):
        __slots__ = ()
        _fields = ("solution", "cloned_coefficient")

    class linalg_lu_factor(return_types._ReturnType):
        __slots__ = ()
        _fields = ("LU", "pivots")

    class linalg_lu_factor_ex(return_types._ReturnType):
        __slots__ = ()
        _fields = ("LU", "pivots", "info")

    class linalg_lu(return_types._ReturnType):
        __slots__ = ()
        _fields = ("P", "L", "U")

    class _lu_with_info(return_types._ReturnType):
        __slots__ = ()
        _fields = ("LU", "pivots", "info")

    class lu_unpack(return_types._ReturnType):
        __slots__ = ()
        _fields = ("P", "L", "U")


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


def _check_square_floating(A, fn):
    check_matrix(A, fn)
    check_floating(A, fn)


def inv(A, *, out=None):
    """The inverse of each square matrix; a singular one raises ``LinAlgError``."""
    _check_square_floating(A, "linalg.inv")
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
    _check_square_floating(A, "linalg.inv_ex")
    if registry.BATCHING and any_batched(A):  # the batch at once: its failures say "(Batch element i)"
        return reductions.on_batch(lambda a: inv_ex(a, check_errors=check_errors), A)
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
    scale = (g * ans.conj()).unsqueeze(-1).unsqueeze(-1)
    singular = np.abs(ans._data) < 100 * _eps(a)
    if not singular.any():
        return scale * mH(inv(a))
    if not STATE.enabled:
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
    return unary(DET, A)


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
    trace = diagonal(solve(a, t)).sum(-1)
    if a.is_complex():
        return _packed([trace.imag * 1j * sign, trace.real], packed, layout)
    return _packed([None, trace], packed, layout)


SLOGDET = defop("linalg_slogdet", _np_slogdet, batch=leading, node="LinalgSlogdetBackward0", save=lambda ans, a: (a, ans),
                vjp=_slogdet_grad, jvp=_slogdet_tangent)
SLOGDET_OUT = defop("linalg_slogdet_output", _np_part, **_part_rules("LinalgSlogdetBackward0"))


def linalg_slogdet(A, *, out=None):
    """``(sign, logabsdet)``: det = sign * exp(logabsdet), without overflow."""
    _check_square_floating(A, "linalg.slogdet")
    return named.linalg_slogdet(_outputs(SLOGDET_OUT, unary(SLOGDET, A), _SLOGDET_LAYOUT))


def slogdet(input):
    return named.slogdet(linalg_slogdet(input))


def logdet(input):
    """log(det): NaN for a negative determinant (real input), as PyTorch computes it."""
    check_matrix(input, "logdet")
    check_floating(input, "logdet")
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
    if registry.BATCHING and any_batched(A, B):  # the batch at once: its failures say "(Batch element i)"
        vector = _solve_shapes(A, B, left)
        return reductions.on_batch(lambda a, b: _solve_ex_batch(a, b, vector, left, check_errors), A, B)
    lu_matrix, pivots, info = _np_lu(A._data) if A._data.ndim >= 2 and A._data.dtype.kind in "fc" else (0, 0, None)
    if info is None or check_errors or not info.any() or not left:
        return named.linalg_solve_ex((_solve_checked(A, B, left, "torch.linalg.solve_ex"),
                                      _wrap(np.zeros(A._data.shape[:-2], np.int32) if info is None else info)))
    b = B._data if B._data.ndim > 1 and B._data.shape != A._data.shape[:-1] else B._data[..., None]
    x = _wrap(_np_lu_substitute(lu_matrix, pivots, b))
    x = x if b is B._data else x[..., 0]
    solved = _where_failed(info, x, A, lambda a: solve(a, B), 2 if b is B._data else 1)
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
    return apply(SOLVE, (A, B), (left, _solve_shapes(A, B, left), fn))


def _solve_shapes(A, B, left):
    """PyTorch's checks of a system's dtypes and shapes; whether B is a (batch of) vector(s)."""
    check_floating(A, "linalg.solve")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{type_name(A)} and B of type {type_name(B)} instead")
    check_matrix(A, "linalg.solve")
    a_shape, b_shape = A._data.shape, B._data.shape
    vector = left and (B._data.ndim == 1 or (B._data.ndim == A._data.ndim - 1 and b_shape == a_shape[:-1]))
    rows = b_shape[-1] if vector else b_shape[-2] if left else b_shape[-1]
    if rows != a_shape[-1] or B._data.ndim < 1:
        b = (b_shape[-1], 1) if vector else b_shape[-2:]
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {equation} "
                           f"({a_shape[-2]}x{a_shape[-1]} and {b[0]}x{b[1]})")
    batch_b = b_shape[:-1] if vector else b_shape[:-2]
    for i in range(1, min(len(a_shape) - 2, len(batch_b)) + 1):
        x, y = a_shape[-2 - i], batch_b[-i]
        if x != y and 1 not in (x, y):
            raise RuntimeError(f"The size of tensor a ({y}) must match the size of tensor b ({x}) at "
                               f"non-singleton dimension {max(len(a_shape) - 2, len(batch_b)) - i}")
    return vector


# --- Hermitian inputs -------------------------------------------------------------------------


def _np_hermitian_part(a):
    return (a + np.conj(np.swapaxes(a, -1, -2))) / 2


def _hermitian_input(A, upper):
    """``A`` if it is Hermitian, else the Hermitian matrix of its lower (upper) triangle, as
    LAPACK reads it (a complex diagonal counts by its real part)."""
    data = A._data
    if has_values(data) and np.array_equal(data, np.conj(np.swapaxes(data, -1, -2))):
        return A
    strict = triu(A, 1) if upper else tril(A, -1)
    built = strict + mH(strict) + diag_embed(diagonal(A).real)
    if has_values(data):
        return built
    return where(_equal_matrices(A, mH(A)), A, built)  # under vmap: each sample as above


def _equal_matrices(x, y):
    """Whether each matrix of ``x`` equals ``y``'s (NaN never does, as np.array_equal), as a
    bool tensor (..., 1, 1): the checks of one matrix, done by ops on a whole vmap batch."""
    return (x != y).sum((-2, -1), keepdim=True) == 0


def _np_cholesky_partial(h):
    """LAPACK's unblocked potf2 on the lower triangle: ``(L, info)``; a matrix that is not
    positive definite stops at its first bad pivot (info, 1-based), left as LAPACK leaves it."""
    n = h.shape[-1]
    low = np.tril(h).reshape((-1, n, n)).copy()
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
        below = (low[:, j + 1:, j] - np.einsum("bij,bj->bi", low[:, j + 1:, :j], np.conj(low[:, j, :j]))) / \
            root[:, None]
        low[live, j + 1:, j] = below[live]
    return low.reshape(h.shape), info.reshape(h.shape[:-2])


def _np_cholesky(a, upper, fn):
    h = _np_hermitian_part(a)
    try:
        low = np.linalg.cholesky(h)
    except np.linalg.LinAlgError:
        _, info = _np_cholesky_partial(h)
        raise _batch_error(_LinAlgError, fn, "The factorization could not be completed because the input is not "
                           f"positive-definite (the leading minor of order {int(info[info > 0].flat[0])} is not "
                           "positive-definite).", info, a.ndim > 2) from None
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
    Hermitian part of the tangent, which is what the op reads)."""
    low = mH(factor) if upper else factor
    da = 0.5 * (t + mH(t))
    dl = solve_triangular(low, da, upper=False, left=True)
    dl = solve_triangular(mH(low), dl, upper=True, left=False)
    dl = matmul(low, tril(dl) - 0.5 * diag_embed(diagonal(dl)))
    return mH(dl) if upper else dl


_cholesky_rules = dict(save=lambda ans, a, upper, fn: (ans, upper, fn), vjp=_cholesky_grad, jvp=_cholesky_tangent)
CHOLESKY = defop("linalg_cholesky", _np_cholesky, batch=leading, node="LinalgCholeskyExBackward0", **_cholesky_rules)
CHOLESKY_LEGACY = defop("cholesky", _np_cholesky, batch=leading, node="CholeskyBackward0", **_cholesky_rules)


def _cholesky_checked(A, upper, fn, op):
    _check_square_floating(A, fn)
    return unary(op, _hermitian_input(A, upper), (upper, fn))


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
    _check_square_floating(A, "linalg.cholesky_ex")
    if registry.BATCHING and any_batched(A):  # the batch at once: its failures say "(Batch element i)"
        return reductions.on_batch(lambda a: cholesky_ex(a, upper=upper, check_errors=check_errors), A)
    hermitian = _hermitian_input(A, upper)
    partial, info = _np_cholesky_partial(_np_hermitian_part(hermitian._data))
    if check_errors or not info.any():
        return named.linalg_cholesky_ex((unary(CHOLESKY, hermitian, (upper, "linalg.cholesky_ex")), _wrap(info)))
    factor = _wrap(np.conj(np.swapaxes(partial, -1, -2)) if upper else partial)
    return named.linalg_cholesky_ex((_where_failed(info, factor, hermitian, lambda h: unary(
        CHOLESKY, h, (upper, "linalg.cholesky_ex"))), _wrap(info)))


# --- triangular and Cholesky solves ------------------------------------------------------------


def _np_triangular(a, upper, unitriangular):
    """The triangle that a triangular solver reads (with ones on the diagonal if unit)."""
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        t = np.where(np.eye(a.shape[-1], dtype=bool), np.ones((), a.dtype), t)
    return t


def _np_solve_triangular(a, b, upper, left, unitriangular):
    t = _np_triangular(a, upper, unitriangular)
    if not left:  # X T = B is T^T X^T = B^T
        return np.swapaxes(_np_solve_triangular(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2), not upper, True,
                                                False), -1, -2)
    with np.errstate(divide="ignore", invalid="ignore"):
        diag = np.diagonal(t, axis1=-2, axis2=-1)
        if np.all(diag != 0):
            return _solve(t, b)
        return _np_substitute(t, b, upper)


def _np_substitute(t, b, upper):
    """Back (forward) substitution, for triangles with a zero on the diagonal: infinities
    and NaNs where LAPACK's trsm gives them, no error."""
    batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    t, x = np.broadcast_to(t, batch + t.shape[-2:]), np.array(np.broadcast_to(b, batch + b.shape[-2:]),
                                                            dtype=np.result_type(t, b))
    n = t.shape[-1]
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        done = slice(i + 1, n) if upper else slice(0, i)
        x[..., i, :] = (x[..., i, :] - np.sum(t[..., i, done, None] * x[..., done, :], axis=-2)) / t[..., i, i, None]
    return x


def _triangle(a, upper, unitriangular):
    """The gradient's projection: what the solver reads (strictly, if unit)."""
    return triu(a, int(unitriangular)) if upper else tril(a, -int(unitriangular))


def _solve_triangular_grad_a(g, a, x, upper, left, unitriangular):
    gb = solve_triangular(mH(a), g, upper=not upper, left=left, unitriangular=unitriangular)
    return _triangle(-matmul(gb, mH(x)) if left else -matmul(mH(x), gb), upper, unitriangular)


def _solve_triangular_tangent_a(t, a, x, upper, left, unitriangular):
    da = _triangle(t, upper, unitriangular)
    return solve_triangular(a, -(matmul(da, x) if left else matmul(x, da)), upper=upper, left=left,
                            unitriangular=unitriangular)


SOLVE_TRIANGULAR = defop(
    "linalg_solve_triangular", _np_solve_triangular, batch=leading, node="LinalgSolveTriangularBackward0",
    save=lambda ans, a, b, upper, left, unitriangular: (a, ans, upper, left, unitriangular),
    vjp=(_solve_triangular_grad_a,
         lambda g, a, x, upper, left, unit: solve_triangular(mH(a), g, upper=not upper, left=left, unitriangular=unit)),
    jvp=(_solve_triangular_tangent_a,
         lambda t, a, x, upper, left, unit: solve_triangular(a, t, upper=upper, left=left, unitriangular=unit)))


def solve_triangular(A, B, *, upper=None, left=True, unitriangular=False, out=None):
    """X with ``A X = B`` (``X A = B`` if not ``left``) for A triangular: only its upper
    (lower) triangle is read, and not its diagonal if ``unitriangular``."""
    if upper is None:
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: "upper"')
    if B._data.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    check_matrix(A, "linalg.solve_triangular")
    if A._data.dtype.kind not in "fc":
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for '{type_name(A)}'")
    n, (rows, cols) = A._data.shape[-1], B._data.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    dtype = np.result_type(A._data.dtype, B._data.dtype)
    return apply(SOLVE_TRIANGULAR, (A, B), (upper, left, unitriangular), dtype)


def _triangular_solve_layout(b_shape, a_shape):
    return _layout([(b_shape[-2:], False), (a_shape[-2:], False)])


def _np_triangular_solve(b, a, upper, transpose, unitriangular):
    batch = np.broadcast_shapes(b.shape[:-2], a.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    t = np.swapaxes(a, -1, -2) if transpose else a
    x = _np_solve_triangular(t, b, upper != transpose, True, unitriangular)
    return _np_pack([x, a], batch, _triangular_solve_layout(b.shape, a.shape))


def _triangular_solve_grads(g, b, a, packed, upper, transpose, unitriangular):
    """PyTorch's triangular_solve_backward: (grad for b, grad for A)."""
    layout = _triangular_solve_layout(b.shape, a.shape)
    x, _ = _parts(packed, layout)
    gx, gm = _parts(g, layout)
    gb = _triangular_solve_solution(gx, a.conj(), upper, not transpose, unitriangular)
    ga = -matmul(x.conj(), gb.mT) if transpose else -matmul(gb, mH(x))
    return gb, _triangle(ga, upper, unitriangular) + gm


def _triangular_solve_tangent_b(t, b, a, packed, upper, transpose, unitriangular):
    dx = _triangular_solve_solution(t, a, upper, transpose, unitriangular)
    return _packed([dx, None], packed, _triangular_solve_layout(b.shape, a.shape))


def _triangular_solve_tangent_a(t, b, a, packed, upper, transpose, unitriangular):
    layout = _triangular_solve_layout(b.shape, a.shape)
    x, _ = _parts(packed, layout)
    da = _triangle(t, upper, unitriangular)
    dx = _triangular_solve_solution(-matmul(da.mT if transpose else da, x), a, upper, transpose, unitriangular)
    return _packed([dx, t.expand(packed.shape[:-1] + a.shape[-2:])], packed, layout)


def _triangular_solve_solution(b, a, upper, transpose, unitriangular):
    return solve_triangular(a.mT if transpose else a, b, upper=upper != transpose, unitriangular=unitriangular)


TRIANGULAR_SOLVE = defop(
    "triangular_solve", _np_triangular_solve, batch=leading, node="TriangularSolveBackward0",
    save=lambda ans, b, a, upper, transpose, unitriangular: (b, a, ans, upper, transpose, unitriangular),
    vjp=(lambda g, *saved: _triangular_solve_grads(g, *saved)[0],
         lambda g, *saved: _triangular_solve_grads(g, *saved)[1]),
    jvp=(_triangular_solve_tangent_b, _triangular_solve_tangent_a))
TRIANGULAR_SOLVE_OUT = defop("triangular_solve_output", _np_part, **_part_rules("TriangularSolveBackward0"))


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False, *, out=None):
    """``(X, A)`` with ``op(A) X = b`` for A triangular (op: transpose if ``transpose``)."""
    warnings.warn("torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be "
                  "removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed "
                  "and does not return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\n"
                  "should be replaced with\nX = torch.linalg.solve_triangular(A, B).", UserWarning, stacklevel=2)
    if A._data.shape[-1] != b._data.shape[-2] or A._data.shape[-2] != A._data.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is "
                           f"{A._data.shape[-2]} by {A._data.shape[-1]} but each b matrix is {b._data.shape[-2]} by "
                           f"{b._data.shape[-1]}")
    packed = apply(TRIANGULAR_SOLVE, (b, A), (upper, transpose, unitriangular))
    return named.triangular_solve(_outputs(TRIANGULAR_SOLVE_OUT, packed,
                                           _triangular_solve_layout(b._data.shape, A._data.shape)))


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
    """(L L^H)^-1 b from the whole factor (the gradient treats every element of it)."""
    a = np.conj(np.swapaxes(factor, -1, -2)) @ factor if upper else factor @ np.conj(np.swapaxes(factor, -1, -2))
    return _solve(a, b)


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
    if n != n2 or rows != n:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {n} by {n2} but each "
                           f"b matrix is {rows} by {b._data.shape[-1]}")
    return apply(CHOLESKY_SOLVE, (b, _triangle_read(factor, upper)), (upper,))


def _np_cholesky_inverse(factor, upper):
    a = np.conj(np.swapaxes(factor, -1, -2)) @ factor if upper else factor @ np.conj(np.swapaxes(factor, -1, -2))
    return np.linalg.inv(a)


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
    return unary(CHOLESKY_INVERSE, _triangle_read(input, upper), (upper,))


# --- QR ---------------------------------------------------------------------------------------


def _qr_layout(shape, mode):
    m, n = shape[-2:]
    k = min(m, n)
    q_shape = (0,) if mode == "r" else (m, m if mode == "complete" else k)
    return _layout([(q_shape, False), ((m if mode == "complete" else k, n), False)])


def _np_qr(a, mode):
    layout = _qr_layout(a.shape, mode)
    if mode == "r":
        return _np_pack([np.zeros(a.shape[:-2] + (0,), a.dtype), np.linalg.qr(a, mode="r")], a.shape[:-2], layout)
    q, r = np.linalg.qr(a, mode=mode)
    return _np_pack([q, r], a.shape[:-2], layout)


def _qr_check(mode, m, n):
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
                           "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")


def _qr_grad(g, a, packed, mode):
    """PyTorch's linalg_qr_backward."""
    m, n = a.shape[-2:]
    _qr_check(mode, m, n)
    layout = _qr_layout(a.shape, mode)
    q, r = _parts(packed, layout)
    gq, gr = _parts(g, layout)
    ga = matmul(gr, mH(r)) - matmul(mH(q), gq)
    if m >= n:
        sym = triu(ga) + mH(triu(ga))
        sym = sym - 0.5 * diag_embed(diagonal(sym).real)  # the real part of the diagonal halved
        return solve_triangular(mH(r), matmul(q, sym) + gq, upper=False, left=False)
    skew = tril(mH(ga) - ga)
    if a.is_complex():
        skew = skew - 0.5j * diag_embed(diagonal(skew).imag)
    ga = solve_triangular(mH(r[..., :m]), matmul(q, skew), upper=False, left=False)
    return matmul(ga, eye_like(ga, n)[:m]) + matmul(q, gr)


def _qr_tangent(t, a, packed, mode):
    """PyTorch's linalg_qr_jvp."""
    m, n = a.shape[-2:]
    _qr_check(mode, m, n)
    layout = _qr_layout(a.shape, mode)
    q, r = _parts(packed, layout)
    if m >= n:
        da_rinv = solve_triangular(r, t, upper=True, left=False)
        x = matmul(mH(q), da_rinv)
        sym = x + mH(x)
        dr = triu(sym) - 0.5 * diag_embed(diagonal(sym))
        return _packed([da_rinv - matmul(q, dr), matmul(dr, r)], packed, layout)
    qh_da = matmul(mH(q), t)
    x = solve_triangular(r[..., :m], qh_da[..., :m], upper=True, left=False)
    if a.is_complex():
        lower = tril(x) - diag_embed(diagonal(x).real)
        dq = lower - mH(lower)
        dq = dq - 0.5 * diag_embed(diagonal(dq))
    else:
        lower = tril(x, -1)
        dq = lower - lower.mT
    return _packed([matmul(q, dq), qh_da - matmul(dq, r)], packed, layout)


QR = defop("linalg_qr", _np_qr, batch=leading, node="LinalgQrBackward0", save=lambda ans, a, mode: (a, ans, mode),
           vjp=_qr_grad, jvp=_qr_tangent)
QR_OUT = defop("linalg_qr_output", _np_part, **_part_rules("LinalgQrBackward0"))


def linalg_qr(A, mode="reduced", *, out=None):
    """``(Q, R)``: Q with orthonormal columns, R upper triangular, A = Q R. ``mode``:
    "reduced" (Q m x k), "complete" (Q m x m) or "r" (R only; Q empty)."""
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    check_matrix(A, "linalg.qr", square=False)
    check_floating(A, "linalg.qr")
    return named.linalg_qr(_outputs(QR_OUT, unary(QR, A, (mode,)), _qr_layout(A._data.shape, mode)))


def qr(input, some=True, *, out=None):
    warnings.warn("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                  "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = "
                  "torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else "
                  "'complete')", UserWarning, stacklevel=2)
    return named.qr(linalg_qr(input, "reduced" if some else "complete"))


# --- eigh -------------------------------------------------------------------------------------


def _eigh_layout(shape):
    n = shape[-1]
    return _layout([((n,), True), ((n, n), False)])


def _np_eigh(a, uplo):
    values, vectors = np.linalg.eigh(_np_hermitian_part(a))
    return _np_pack([values, vectors], a.shape[:-2], _eigh_layout(a.shape))


def _eigh_grad(g, a, packed):
    """PyTorch's linalg_eig_backward (Hermitian): V (diag(gL) + sym(V^H gV) / E) V^H with
    E_ij = L_j - L_i. Complex: the loss must not depend on the eigenvectors' phases."""
    layout = _eigh_layout(a.shape)
    values, vectors = _parts(packed, layout)
    g_values, g_vectors = _parts(g, layout)
    if not _nonzero(g_vectors):
        return matmul(vectors * g_values.unsqueeze(-2), mH(vectors))
    vh_gv = matmul(mH(vectors), g_vectors)
    if vectors.is_complex() and np.any(np.abs(np.diagonal(vh_gv._data, axis1=-2, axis2=-1).imag) > 1e-2):
        raise RuntimeError("linalg_eigh_backward: The eigenvectors in the complex case are specified up to "
                           "multiplication by e^{i phi}. The specified loss function depends on this quantity, so "
                           "it is ill-defined.")
    gaps = values.unsqueeze(-2) - values.unsqueeze(-1) + eye_like(vectors)
    inner = 0.5 * (vh_gv - mH(vh_gv)) / gaps
    if _nonzero(g_values):  # the diagonal is gL's
        inner = inner * _off_diagonal(inner) + diag_embed(g_values)
    return matmul(vectors, matmul(inner, mH(vectors)))


def _off_diagonal(x):
    n = x._data.shape[-1]
    return _wrap((1 - np.eye(n)).astype(_real_dtype(x._data.dtype)))


def _eigh_tangent(t, a, packed):
    """PyTorch's linalg_eig_jvp (Hermitian), for the Hermitian part of the tangent."""
    layout = _eigh_layout(a.shape)
    values, vectors = _parts(packed, layout)
    dp = matmul(mH(vectors), matmul(0.5 * (t + mH(t)), vectors))
    gaps = values.unsqueeze(-2) - values.unsqueeze(-1) + eye_like(vectors)
    dx = dp / gaps * _off_diagonal(dp)
    return _packed([diagonal(dp).real, matmul(vectors, dx)], packed, layout)


EIGH = defop("linalg_eigh", _np_eigh, batch=leading, node="LinalgEighBackward0", save=lambda ans, a, uplo: (a, ans),
             vjp=_eigh_grad, jvp=_eigh_tangent)
EIGH_OUT = defop("linalg_eigh_output", _np_part, **_part_rules("LinalgEighBackward0"))


def _eigh_packed(A, UPLO, fn):
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    check_matrix(A, fn)
    if A._data.dtype.kind not in "fc":
        raise NotImplementedError(f"\"linalg_eigh_cpu\" not implemented for '{type_name(A)}'")
    return unary(EIGH, _hermitian_input(A, UPLO == "U"), (UPLO,))


def eigh(A, UPLO="L", *, out=None):
    """``(eigenvalues, eigenvectors)`` of a Hermitian matrix (its ``UPLO`` triangle is read),
    eigenvalues ascending."""
    packed = _eigh_packed(A, UPLO, "linalg.eigh")
    return named.linalg_eigh(_outputs(EIGH_OUT, packed, _eigh_layout(A._data.shape)))


def eigvalsh(A, UPLO="L", *, out=None):
    """The eigenvalues of a Hermitian matrix, ascending."""
    packed = _eigh_packed(A, UPLO, "linalg.eigh")
    return unary(EIGH_OUT, packed, (_eigh_layout(A._data.shape), 0))


# --- SVD --------------------------------------------------------------------------------------


def _svd_layout(shape, full_matrices):
    m, n = shape[-2:]
    k = min(m, n)
    u_cols, v_rows = (m, n) if full_matrices else (k, k)
    return _layout([((m, u_cols), False), ((k,), True), ((v_rows, n), False)])


def _np_svd(a, full_matrices):
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return _np_pack([u, s, vh], a.shape[:-2], _svd_layout(a.shape, full_matrices))


def _svd_factors(packed, shape, full_matrices):
    """U, S, Vh, reduced to the k = min(m, n) singular vectors (the rest has no gradient)."""
    u, s, vh = _parts(packed, _svd_layout(shape, full_matrices))
    k = min(shape[-2:])
    return (u[..., :k], s, vh[..., :k, :]) if full_matrices else (u, s, vh)


def _svd_grad(g, a, packed, full_matrices):
    """PyTorch's svd_backward: gA = U [(skew(U^H gU) / E) S + S (skew(V^H gV) / E) + diag(gS)]
    V^H (+ the terms of a rectangular A), E_jk = S_k^2 - S_j^2. Complex: the loss must not
    depend on the phases of the singular vectors: Im diag(U^H gU + V^H gV) = 0."""
    u, s, vh = _svd_factors(packed, a.shape, full_matrices)
    gu, gs, gvh = _svd_factors(g, a.shape, full_matrices)
    m, n = a.shape[-2:]
    has_u, has_v = _nonzero(gu), _nonzero(gvh)
    if not has_u and not has_v:
        return matmul(u, gs.unsqueeze(-1) * vh) if m >= n else matmul(u * gs.unsqueeze(-2), vh)
    uh_gu = matmul(mH(u), gu) if has_u else None
    vh_gv = matmul(vh, mH(gvh)) if has_v else None
    uh_gu = uh_gu - mH(uh_gu) if has_u else None
    vh_gv = vh_gv - mH(vh_gv) if has_v else None
    if a.is_complex():
        im_u = np.diagonal(uh_gu._data, axis1=-2, axis2=-1).imag if has_u else 0
        im_v = np.diagonal(vh_gv._data, axis1=-2, axis2=-1).imag if has_v else 0
        if not np.allclose(im_u, -im_v, rtol=1e-2, atol=1e-2):
            raise RuntimeError("svd_backward: The singular vectors in the complex case are specified up to "
                               "multiplication by e^{i phi}. The specified loss function depends on this phase "
                               "term, making it ill-defined.")
    s2 = s * s
    gaps = s2.unsqueeze(-2) - s2.unsqueeze(-1) + eye_like(s2)
    if has_u and has_v:
        inner = (uh_gu * s.unsqueeze(-2) + s.unsqueeze(-1) * vh_gv) / gaps
    elif has_u:
        inner = uh_gu / gaps * s.unsqueeze(-2)
    else:
        inner = s.unsqueeze(-1) * (vh_gv / gaps)
    inner = inner + diag_embed(gs)
    if a.is_complex() and has_u and has_v:
        inner = inner + diag_embed(diagonal(uh_gu) / (2 * s))
    if m > n and has_u:
        gu_sinv = gu / s.unsqueeze(-2)
        ga = matmul(u, inner) + gu_sinv - matmul(u, matmul(mH(u), gu_sinv))
        return matmul(ga, vh)
    if m < n and has_v:
        sinv_gvh = gvh / s.unsqueeze(-1)
        ga = matmul(inner, vh) + sinv_gvh - matmul(matmul(sinv_gvh, mH(vh)), vh)
        return matmul(u, ga)
    return matmul(u, matmul(inner, vh)) if m >= n else matmul(matmul(u, inner), vh)


def _svd_tangent(t, a, packed, full_matrices):
    """PyTorch's linalg_svd_jvp (the extra columns of full U, V get zeros)."""
    u, s, vh = _svd_factors(packed, a.shape, full_matrices)
    m, n = a.shape[-2:]
    k = min(m, n)
    v = mH(vh)
    dp = matmul(mH(u), matmul(t, v)) if m < n else matmul(matmul(mH(u), t), v)
    ds = diagonal(dp).real
    dp = dp - diag_embed(ds)
    s2 = s * s
    gaps = s2.unsqueeze(-2) - s2.unsqueeze(-1) + eye_like(s2)
    du_inner = (dp * s.unsqueeze(-2) + mH(dp * s.unsqueeze(-2))) / gaps
    dvh_inner = (dp * (-s).unsqueeze(-1) + mH(dp * (-s).unsqueeze(-1))) / gaps
    if a.is_complex():
        imaginary = diag_embed(diagonal(dp) / (2 * s))
        du_inner, dvh_inner = du_inner + imaginary, dvh_inner + imaginary
    du, dvh = matmul(u, du_inner), matmul(dvh_inner, vh)
    if m > n:
        da_v_sinv = matmul(t, v / s.unsqueeze(-2))
        du = du + da_v_sinv - matmul(u, matmul(mH(u), da_v_sinv))
    if m < n:
        uh_da_sinv = matmul(mH(u) / s.unsqueeze(-1), t)
        dvh = dvh + uh_da_sinv - matmul(matmul(uh_da_sinv, v), vh)
    if full_matrices:
        du, dvh = matmul(du, eye_like(du, m)[:k]), matmul(eye_like(dvh, n)[:, :k], dvh)
    return _packed([du, ds, dvh], packed, _svd_layout(a.shape, full_matrices))


SVD = defop("linalg_svd", _np_svd, batch=leading, node="LinalgSvdBackward0", save=lambda ans, a, full: (a, ans, full),
            vjp=_svd_grad, jvp=_svd_tangent)
SVD_OUT = defop("linalg_svd_output", _np_part, **_part_rules("LinalgSvdBackward0"))


def _svd_packed(A, full_matrices):
    check_matrix(A, "linalg.svd", square=False)
    check_floating(A, "linalg.svd")
    return unary(SVD, A, (full_matrices,))


def linalg_svd(A, full_matrices=True, *, driver=None, out=None):
    """``(U, S, Vh)`` with A = U diag(S) Vh, S descending. U's and V's columns are defined up to
    a sign (a phase); losses should not depend on it."""
    packed = _svd_packed(A, full_matrices)
    return named.linalg_svd(_outputs(SVD_OUT, packed, _svd_layout(A._data.shape, full_matrices)))


def svdvals(A, *, driver=None, out=None):
    """The singular values, descending."""
    return unary(SVD_OUT, _svd_packed(A, False), (_svd_layout(A._data.shape, False), 1))


def svd(input, some=True, compute_uv=True, *, out=None):
    """``(U, S, V)`` (V, not Vh); without ``compute_uv``, U and V are zeros."""
    if not compute_uv:
        m, n = input._data.shape[-2:]
        batch = input._data.shape[:-2]
        zeros_u, zeros_v = (_wrap(np.zeros(batch + (k, k), input._data.dtype)) for k in (m, n))
        return named.svd((zeros_u, svdvals(input), zeros_v))
    u, s, vh = linalg_svd(input, full_matrices=not some)
    return named.svd((u, s, mH(vh)))


# --- pseudo-inverse and least squares ----------------------------------------------------------


def _np_pinv(a, atol, rtol, hermitian):
    """Through the SVD (also for ``hermitian``: the values equal those of an eigendecomposition)."""
    u, s, vh = np.linalg.svd(a, full_matrices=False)
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


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The Moore-Penrose pseudo-inverse: singular values at most max(atol, rtol * largest)
    count as zero (default rtol: eps * max(m, n), 0 when only atol is given)."""
    if registry.BATCHING and any_batched(rcond, atol, rtol, out):  # batched tolerances: one sample at a time
        return per_sample(pinv, A, rcond, hermitian, atol=atol, rtol=rtol, out=out)
    if A._data.ndim < 2 or A._data.dtype.kind not in "fc":
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
    return _layout([((n,) if vector else (n, k), False), ((k,) if residuals else (0,), True)])


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
    if A._data.dtype.kind not in "fc":
        raise RuntimeError("This function doesn't handle types other than float and double")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's "
                           f"dtype {type_name(A)} and other's dtype {type_name(B)}")
    vector = B._data.ndim == A._data.ndim - 1
    if (B._data.shape[-1] if vector else B._data.shape[-2]) != A._data.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    m, n = A._data.shape[-2:]
    rcond = _eps(A) * max(m, n) if rcond is None else rcond
    s = _wrap(np.linalg.svd(A._data, compute_uv=False)) if has_values(A._data) else svdvals(A.detach())  # vmap
    rank = (s > s[..., :1] * rcond).sum(-1)
    residuals = m > n and driver != "gelsy"
    if residuals and driver != "gels":  # only if every matrix has full rank: the output's shape depends on it
        if not has_values(rank._data):  # under vmap, each sample decides for itself
            return per_sample(lstsq, A, B, rcond, driver=driver)
        residuals = bool(np.all(rank._data == n))
    packed = apply(LSTSQ, (A, B), (rcond, residuals, vector))
    solution, residual = _outputs(LSTSQ_OUT, packed, _lstsq_layout(A._data.shape, B._data.shape, vector, residuals))
    empty = _wrap(np.zeros(0, np.int64))
    rank_out = empty if driver == "gels" else rank
    values = s if driver in ("gelsd", "gelss") else _wrap(np.zeros(0, s._data.dtype))
    return named.linalg_lstsq((solution, residual, rank_out, values))


# --- LU ---------------------------------------------------------------------------------------


def _unpacked(lu_matrix):
    """L (unit lower, m x k) and U (upper, k x n) from a packed LU, as chainrule ops."""
    m, n = lu_matrix.shape[-2:]
    k = min(m, n)
    lower = tril(lu_matrix[..., :, :k], -1) + eye_like(lu_matrix, max(m, n))[:m, :k]
    return lower, triu(lu_matrix[..., :k, :])


def _lu_grad(g_lower, g_upper, p, lower, upper):
    """PyTorch's linalg_lu_backward: the gradient for A = P L U."""
    m, n = lower.shape[-2], upper.shape[-1]
    k = min(m, n)
    if m == n:
        ga = tril(matmul(mH(lower), g_lower), -1) + triu(matmul(g_upper, mH(upper)))
        ga = solve_triangular(mH(upper), ga, upper=False, left=False)
        ga = solve_triangular(mH(lower), ga, upper=True, left=True, unitriangular=True)
    elif m < n:  # wide: U = [U1 | U2]
        ga = matmul(mH(lower), g_lower) - matmul(triu(g_upper), mH(upper))
        ga = solve_triangular(mH(upper[..., :k]), tril(ga, -1), upper=False, left=False)
        ga = _pad_columns(ga + triu(g_upper[..., :k]), 0, n) + _pad_columns(g_upper[..., k:], k, n)
        ga = solve_triangular(mH(lower), ga, upper=True, left=True, unitriangular=True)
    else:  # tall: L = [L1; L2]
        ga = matmul(g_upper, mH(upper)) - matmul(mH(lower), tril(g_lower, -1))
        ga = solve_triangular(mH(lower[..., :k, :]), triu(ga), upper=True, left=True, unitriangular=True)
        ga = _pad_rows(ga + tril(g_lower[..., :k, :], -1), 0, m) + _pad_rows(g_lower[..., k:, :], k, m)
        ga = solve_triangular(mH(upper), ga, upper=False, left=False)
    return matmul(p, ga)


def _pad_columns(x, start, n):
    """x (..., r, c) placed from column ``start`` in an (..., r, n) zero matrix."""
    return matmul(x, eye_like(x, n)[start:start + x.shape[-1]])


def _pad_rows(x, start, m):
    """x (..., r, c) placed from row ``start`` in an (..., m, c) zero matrix."""
    return matmul(eye_like(x, m)[:, start:start + x.shape[-2]], x)


def _lu_tangents(t, p, lower, upper):
    """PyTorch's linalg_lu_jvp: (dL, dU)."""
    m, n = t.shape[-2:]
    k = min(m, n)
    pt = matmul(p.mT, t)
    l1, u1 = lower[..., :k, :], upper[..., :k]
    dk = solve_triangular(l1, pt[..., :k, :k], upper=False, left=True, unitriangular=True)
    dk = solve_triangular(u1, dk, upper=True, left=False)
    dl1, du1 = matmul(l1, tril(dk, -1)), matmul(triu(dk), u1)
    if m == n:
        return dl1, du1
    if m < n:
        du2 = solve_triangular(l1, pt[..., k:], upper=False, left=True, unitriangular=True) - \
            matmul(tril(dk, -1), upper[..., k:])
        return dl1, matmul(du1, eye_like(du1, n)[:k]) + _pad_columns(du2, k, n)
    dl2 = solve_triangular(u1, pt[..., k:, :], upper=True, left=False) - matmul(lower[..., k:, :], triu(dk))
    return matmul(eye_like(dl1, m)[:, :k], dl1) + _pad_rows(dl2, k, m), du1


def _lu_factor_forward(a, pivots):
    return _np_lu(a, pivots)[0]


def _lu_factor_grad(g, lu_matrix, pivots):
    m, n = lu_matrix.shape[-2:]
    k = min(m, n)
    lower, upper = _unpacked(lu_matrix)
    p = _wrap(_np_permutation(pivots, m, lu_matrix._data.dtype))
    return _lu_grad(g[..., :, :k], g[..., :k, :], p, lower, upper)


def _lu_factor_tangent(t, lu_matrix, pivots):
    m, n = lu_matrix.shape[-2:]
    lower, upper = _unpacked(lu_matrix)
    dl, du = _lu_tangents(t, _wrap(_np_permutation(pivots, m, lu_matrix._data.dtype)), lower, upper)
    if m >= n:
        return dl + _pad_rows(du, 0, m)
    return du + _pad_columns(dl, 0, n)


LU_FACTOR = defop("linalg_lu_factor", _lu_factor_forward, node="LinalgLuFactorExBackward0",
                  save=lambda ans, a, pivots: (ans, pivots), vjp=_lu_factor_grad, jvp=_lu_factor_tangent)


def _check_lu_args(A, pivot, fn):
    if A._data.ndim < 2:
        raise RuntimeError(f"torch.lu_factor: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A._data.shape)} instead")
    if A._data.dtype.kind not in "fc":
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{type_name(A)}'")
    if not pivot:
        raise RuntimeError(f"{fn}: LU without pivoting is not implemented on the CPU")


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """``(LU, pivots, info)``: A = P L U packed in one matrix, LAPACK's pivots (int32) and
    info, the first zero pivot (1-based; 0: none)."""
    _check_lu_args(A, pivot, "linalg.lu_factor")
    if registry.BATCHING and any_batched(A):  # the batch's pivots at once, a parameter of one op call
        return reductions.on_batch(lambda a: lu_factor_ex(a, check_errors=check_errors), A)
    _, pivots, info = _np_lu(A._data)
    if check_errors:
        _check_lu_info(info, "torch.linalg.lu_factor_ex")
    return named.linalg_lu_factor_ex((unary(LU_FACTOR, A, (pivots,)), _wrap(pivots), _wrap(info)))


def _check_lu_info(info, fn):
    """PyTorch's error for a zero pivot (lu_solve would divide by it)."""
    if info.any():
        k = int(info[info > 0].flat[0])
        raise _batch_error(RuntimeError, fn, f"U[{k},{k}] is zero and using it on lu_solve would result in a "
                           "division by zero. If you still want to perform the factorization, consider calling "
                           "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)", info, info.ndim)


def lu_factor(A, *, pivot=True, out=None):
    """``(LU, pivots)``; a zero pivot raises (lu_solve would divide by it)."""
    _check_lu_args(A, pivot, "linalg.lu_factor")
    if registry.BATCHING and any_batched(A):
        return reductions.on_batch(lu_factor, A)
    _, pivots, info = _np_lu(A._data)
    _check_lu_info(info, "torch.linalg.lu_factor")
    return named.linalg_lu_factor((unary(LU_FACTOR, A, (pivots,)), _wrap(pivots)))


def lu(A, pivot=True, get_infos=False, out=None):
    """``torch.lu``: ``(LU, pivots)`` (and the infos), a plain tuple. A zero pivot doesn't
    raise, whatever ``get_infos`` (PyTorch's ``_lu_with_info`` ignores its check_errors)."""
    warnings.warn("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will "
                  "be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be "
                  "replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = "
                  "torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
                  "torch.linalg.lu_factor_ex(A, compute_pivots)", UserWarning, stacklevel=2)
    factored = lu_factor_ex(A, pivot=pivot)
    return named._lu_with_info(factored) if get_infos else tuple(factored[:2])


def _lu_layout(shape):
    m, n = shape[-2:]
    k = min(m, n)
    return _layout([((m, k), False), ((k, n), False)])


def _np_lu_factors(lu_matrix, pivots):
    """L and U packed from a packed LU (A given: factored first, with its pivots)."""
    m, n = lu_matrix.shape[-2:]
    k = min(m, n)
    lower = np.tril(lu_matrix[..., :, :k], -1) + np.eye(m, k, dtype=lu_matrix.dtype)
    return _np_pack([lower, np.triu(lu_matrix[..., :k, :])], lu_matrix.shape[:-2], _lu_layout(lu_matrix.shape))


def _linalg_lu_grad(g, packed, pivots, shape):
    layout = _lu_layout(shape)
    lower, upper = _parts(packed, layout)
    g_lower, g_upper = _parts(g, layout)
    p = _wrap(_np_permutation(pivots, shape[-2], lower._data.dtype))
    return _lu_grad(g_lower, g_upper, p, lower, upper)


def _linalg_lu_tangent(t, packed, pivots, shape):
    layout = _lu_layout(t.shape)
    lower, upper = _parts(packed, layout)
    p = _wrap(_np_permutation(pivots, lower.shape[-2], lower._data.dtype))
    return _packed(list(_lu_tangents(t, p, lower, upper)), packed, layout)


LU = defop("linalg_lu", lambda a, pivots: _np_lu_factors(_np_lu(a, pivots)[0], pivots), node="LinalgLuBackward0",
           save=lambda ans, a, pivots: (ans, pivots, a.shape), vjp=_linalg_lu_grad, jvp=_linalg_lu_tangent)
LU_OUT = defop("linalg_lu_output", _np_part, **_part_rules("LinalgLuBackward0"))


def linalg_lu(A, *, pivot=True, out=None):
    """``(P, L, U)`` with A = P L U: P a permutation, L unit lower, U upper triangular."""
    _check_lu_args(A, pivot, "linalg.lu_factor")
    if registry.BATCHING and any_batched(A):  # the batch's pivots at once, a parameter of one op call
        return reductions.on_batch(linalg_lu, A)
    _, pivots, _ = _np_lu(A._data)
    lower, upper = _outputs(LU_OUT, unary(LU, A, (pivots,)), _lu_layout(A._data.shape))
    return named.linalg_lu((_wrap(_np_permutation(pivots, A._data.shape[-2], A._data.dtype)), lower, upper))


def _lu_unpack_grad(g, shape):
    """The lower part of gL (not its unit diagonal) and the upper part of gU, back in one matrix."""
    g_lower, g_upper = _parts(g, _lu_layout(shape))
    return _pad_columns(tril(g_lower, -1), 0, shape[-1]) + _pad_rows(triu(g_upper), 0, shape[-2])


def _lu_unpack_tangent(t, shape):
    m, n = shape[-2:]
    k = min(m, n)
    like = _wrap(np.zeros(t.shape[:-2] + (m * k + k * n,), t._data.dtype))
    return _packed([tril(t[..., :, :k], -1), triu(t[..., :k, :])], like, _lu_layout(shape))


LU_UNPACK = defop("lu_unpack", lambda lu_matrix: _np_lu_factors(lu_matrix, None), node="LuUnpackBackward0",
                  save=lambda ans, lu_matrix: (lu_matrix.shape,), vjp=_lu_unpack_grad, jvp=_lu_unpack_tangent)
LU_UNPACK_OUT = defop("lu_unpack_output", _np_part, **_part_rules("LuUnpackBackward0"))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """``(P, L, U)`` from a packed LU and its pivots."""
    empty = _wrap(np.zeros(0, LU_data._data.dtype))  # an output left out: (0,), under vmap too
    if registry.BATCHING and any_batched(LU_data, LU_pivots):  # the batch's permutations at once
        p, lower, upper = reductions.on_batch(lu_unpack, LU_data, LU_pivots)
        return named.lu_unpack((p if unpack_pivots else empty, lower if unpack_data else empty,
                                upper if unpack_data else empty))
    shape = LU_data._data.shape
    lower, upper = _outputs(LU_UNPACK_OUT, unary(LU_UNPACK, LU_data), _lu_layout(shape))
    p = _wrap(_np_permutation(LU_pivots._data, shape[-2], LU_data._data.dtype))
    return named.lu_unpack((p if unpack_pivots else empty, lower if unpack_data else empty,
                            upper if unpack_data else empty))


def _np_lu_solve(lu_matrix, b, pivots, left, adjoint):
    """A X = b (A^H if ``adjoint``; X A = b if not ``left``) for A = P L U, all of the packed
    LU read (the gradient treats every element of it)."""
    n = lu_matrix.shape[-1]
    a = _np_permutation(pivots, n, lu_matrix.dtype) @ (np.tril(lu_matrix, -1) + np.eye(n, dtype=lu_matrix.dtype)) \
        @ np.triu(lu_matrix)
    a = np.conj(np.swapaxes(a, -1, -2)) if adjoint else a
    if left:
        return _solve(a, b)
    return np.swapaxes(_solve(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


def _lu_solve_grad_lu(g, lu_matrix, x, pivots, left, adjoint):
    """The gradient for A (A X = B and its variants), taken to L and U:
    tril(P^T gA U^H, -1) + triu(L^H P^T gA)."""
    gb = lu_solve(lu_matrix, _wrap(pivots), g, left=left, adjoint=not adjoint)
    if left:
        ga = -matmul(x, mH(gb)) if adjoint else -matmul(gb, mH(x))
    else:
        ga = -matmul(mH(gb), x) if adjoint else -matmul(mH(x), gb)
    lower, upper = _unpacked(lu_matrix)
    pt_ga = matmul(_wrap(_np_permutation(pivots, lu_matrix.shape[-1], lu_matrix._data.dtype)).mT, ga)
    return tril(matmul(pt_ga, mH(upper)), -1) + triu(matmul(mH(lower), pt_ga))


def _lu_solve_tangent_lu(t, lu_matrix, x, pivots, left, adjoint):
    lower, upper = _unpacked(lu_matrix)
    p = _wrap(_np_permutation(pivots, lu_matrix.shape[-1], lu_matrix._data.dtype))
    da = matmul(p, matmul(tril(t, -1), upper) + matmul(lower, triu(t)))
    da = mH(da) if adjoint else da
    return lu_solve(lu_matrix, _wrap(pivots), -(matmul(da, x) if left else matmul(x, da)), left=left,
                    adjoint=adjoint)


LU_SOLVE = defop(
    "linalg_lu_solve", _np_lu_solve, node="LinalgLuSolveBackward0",
    save=lambda ans, lu_matrix, b, pivots, left, adjoint: (lu_matrix, ans, pivots, left, adjoint),
    vjp=(_lu_solve_grad_lu, lambda g, lu_matrix, x, pivots, left, adjoint: lu_solve(
        lu_matrix, _wrap(pivots), g, left=left, adjoint=not adjoint)),
    jvp=(_lu_solve_tangent_lu, lambda t, lu_matrix, x, pivots, left, adjoint: lu_solve(
        lu_matrix, _wrap(pivots), t, left=left, adjoint=adjoint)))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """X with ``A X = B`` (``A^H`` if ``adjoint``; ``X A = B`` if not ``left``) from A's LU."""
    if pivots._data.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    n, (rows, cols) = LU._data.shape[-1], B._data.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    if registry.BATCHING and any_batched(LU, pivots, B):  # the batch's pivots: a parameter of one op call
        return reductions.on_batch(lambda lu_matrix, p, b: _lu_solve_batch(lu_matrix, p, b, left, adjoint),
                                   LU, pivots, B)
    return apply(LU_SOLVE, (LU, B), (pivots._data, left, adjoint))


def _lu_solve_batch(lu_matrix, pivots, b, left, adjoint):
    """``lu_solve`` of a vmap batch (dim 0 of each): the three with as many batch dims as
    broadcasting gives one sample."""
    ndim = max(lu_matrix._data.ndim, b._data.ndim) - 1
    return lu_solve(pad(lu_matrix, ndim), pad(pivots, ndim - 1), pad(b, ndim), left=left, adjoint=adjoint)


def lu_solve_legacy(b, LU_data, LU_pivots, *, out=None):
    """``torch.lu_solve(b, LU, pivots)``: ``linalg.lu_solve`` with its arguments reversed."""
    warnings.warn("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future "
                  "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
                  "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)",
                  UserWarning, stacklevel=2)
    return lu_solve(LU_data, LU_pivots, b)


# --- norms, powers, ranks and condition numbers of matrices ------------------------------------


def _order_text(order):
    return order if isinstance(order, str) else f"{order:g}"


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """'fro' (entries as a vector), 'nuc' (sum of singular values), 2 / -2 (largest /
    smallest singular value), 1 / -1 (max / min column sum of |A|), inf / -inf (rows)."""
    if not isinstance(ord, str) and abs(ord) not in (1, 2, np.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {_order_text(ord)} not supported.")
    if A._data.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    check_floating(A, "linalg.matrix_norm")
    dims = tuple(dim)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dims))}")
    d0, d1 = (d % A._data.ndim for d in dims)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({d0}, {d1})")
    if isinstance(ord, str) and ord not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if ord == "fro":
        return _linalg.vector_norm(A, 2, (d0, d1), keepdim, dtype=dtype)
    if dtype is not None:
        A = A.to(dtype)
    if ord == "nuc" or abs(ord) == 2:
        order = [d for d in range(A._data.ndim) if d not in (d0, d1)] + [d0, d1]
        values = svdvals(A.permute(order))
        if ord == "nuc":
            result = values.sum(-1, keepdim=keepdim)
        else:
            result = (reductions.amax if ord > 0 else reductions.amin)(values, -1, keepdim)
        if keepdim:
            result = result.unsqueeze(-1).permute(list(np.argsort(order)))
        return result
    if abs(ord) == np.inf:
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    sums = _linalg.vector_norm(A, 1, d0, keepdim)
    return (reductions.amax if ord > 0 else reductions.amin)(sums, d1, keepdim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """``linalg.norm``: a matrix norm for a matrix (or two dims) when ``ord`` is given, else
    the vector norm (2 by default) over ``dim``."""
    dims = None if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)
    if dims is not None and len(dims) not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
    if dims is None and ord is not None and A._data.ndim not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                           f"{A._data.ndim}D.")
    if ord is not None and (isinstance(ord, str) or (len(dims) == 2 if dims else A._data.ndim == 2)):
        return matrix_norm(A, ord, dims or (0, 1), keepdim, dtype=dtype)
    return _linalg.vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def matrix_power(A, n, *, out=None):
    """A^n for an integer n (negative: powers of the inverse), by repeated squaring as PyTorch."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"linalg_matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}")
    check_matrix(A, "linalg.matrix_power")
    if n == 0:  # through a copy, so that the result is in the graph (with a zero gradient)
        return A.clone().copy_(_wrap(np.broadcast_to(np.eye(A._data.shape[-1], dtype=A._data.dtype),
                                                     A._data.shape)))
    if n == 1:
        return A.clone()
    if n == -1:
        return inv(A)
    a, n = (inv(A) if n < 0 else A), abs(n)
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    square = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        square = a if square is None else matmul(square, square)
        if bit:
            result = square if result is None else matmul(result, square)
    return result


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The number of singular values (|eigenvalues| if ``hermitian``) above
    max(atol, rtol * largest); ``tol`` is the older spelling of atol."""
    if registry.BATCHING and any_batched(tol, atol, rtol, out):  # batched tolerances: one sample at a time
        return per_sample(matrix_rank, A, tol, hermitian, atol=atol, rtol=rtol, out=out)
    if A._data.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if A._data.dtype.kind not in "fc":
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else _eps(A) * max(A._data.shape[-2:])
    if has_values(A._data):
        data = A._data
        if hermitian:
            values = np.abs(np.linalg.eigvalsh(_np_hermitian_part(_hermitian_input(A, False)._data)))
        else:
            values = np.linalg.svd(data, compute_uv=False)
        largest = values.max(-1, keepdims=True, initial=0)
        limit = np.maximum(0.0 if atol is None else atol, rtol * largest)
        return _wrap(np.asarray(np.sum(values > limit, axis=-1), np.int64))
    A = A.detach()  # under vmap: the same by ops, which vmap batches (a rank has no gradient)
    values = eigvalsh(A).abs() if hermitian else svdvals(A)
    if not values._data.shape[-1]:
        return _wrap(np.zeros(values._data.shape[:-1], np.int64))
    above = (values > values.amax(-1, keepdim=True) * rtol) & (values > (0.0 if atol is None else atol))
    return above.sum(-1)  # the count above max(atol, rtol * largest)


def cond(A, p=None, *, out=None):
    """The condition number |A| |A^-1| in the norm ``p`` (None: 2, the ratio of the extreme
    singular values); infinite for a singular matrix."""
    if A._data.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if p not in (None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {_order_text(p)}")
    if p is None or p in (2, -2):
        values = svdvals(A)
        largest, smallest = values[..., :1], values[..., -1:]
        return (smallest / largest if p == -2 else largest / smallest).squeeze(-1)
    check_matrix(A, f"linalg.cond(ord={_order_text(p)})")
    inverse, info = inv_ex(A)
    inverse.masked_fill_(_wrap(info._data[..., None, None] > 0), float("inf"))  # in place, as PyTorch: see below
    # (the inverse is saved by its node, so backward through cond raises, as in PyTorch)
    return nan_to_num(matrix_norm(A, p) * matrix_norm(inverse, p), np.inf, np.inf, -np.inf)


# --- Tensor methods --------------------------------------------------------------------------

Tensor.det = det
Tensor.logdet = logdet
Tensor.slogdet = slogdet
Tensor.inverse = inv
Tensor.cholesky = cholesky
Tensor.cholesky_solve = cholesky_solve
Tensor.cholesky_inverse = cholesky_inverse
Tensor.qr = qr
Tensor.svd = svd
Tensor.pinverse = pinverse
Tensor.matrix_power = matrix_power
Tensor.lu = lu
Tensor.lu_solve = lu_solve_legacy
Tensor.triangular_solve = triangular_solve
