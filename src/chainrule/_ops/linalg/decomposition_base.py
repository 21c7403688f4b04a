"""What the decomposition modules share: LinAlgError and its messages, LU with LAPACK's
pivoting, outputs packed in one array, Hermitian inputs, and the named result tuples.

The ops live in ``triangular`` (triangular solves), ``factorizations`` (QR, eigh, SVD, LU),
``solvers`` (inverse, determinant, linear systems, Cholesky, least squares, pseudo-inverse)
and ``matrix_functions`` (matrix norms, powers, ranks, condition numbers); they import
from here, so the helpers have one home and the modules no cycle. Their gradient formulas
are PyTorch's (FunctionsManual.cpp), written with chainrule ops so that they can be
differentiated again.

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

>>> _layout([((2, 2), False), ((2,), True)])  # where U (2, 2) and S (2,) lie, packed
((0, 4, (2, 2), False), (4, 6, (2,), True))
"""
import numpy as np

from ... import return_types
from ..batching import has_values, leading
from ..registry import LINEAR, apply, defop, unary


class _LinAlgError(RuntimeError):
    """``torch.linalg.LinAlgError``: a matrix that the computation cannot handle (singular,
    not positive definite)."""


def _batch_error(cls, fn, message, failed, batch):
    """PyTorch's message for a failure in (the first failing matrix of) a batch."""
    where_ = f"(Batch element {int(np.flatnonzero(failed)[0])}): " if batch else ""
    return cls(f"{fn}: {where_}{message}")


def np_svd(a, full_matrices=True, compute_uv=True):
    """NumPy's SVD, as PyTorch's (MKL's) on non-finite input: a matrix holding nan raises
    PyTorch's LinAlgError, one holding inf (but no nan) gives nan factors. OpenBLAS's gesdd
    is never called on such a matrix: it may not return."""
    bad = ~np.isfinite(a).all(axis=(-2, -1))
    if bad.any():
        nan = np.isnan(a).any(axis=(-2, -1)).reshape(-1)
        if nan.any():
            raise _batch_error(_LinAlgError, "linalg.svd", "The algorithm failed to converge because the input "
                               "matrix contained non-finite values.", nan, a.ndim > 2)
        a = np.where(bad[..., None, None], 0, a)
    try:
        out = np.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)
    except np.linalg.LinAlgError:
        raise _not_converged("linalg.svd", a, np.linalg.svd, "singular values") from None
    if not bad.any():
        return out
    parts = list(out) if compute_uv else [out]
    for p in parts:
        p[bad] = np.nan
    return tuple(parts) if compute_uv else parts[0]


def _not_converged(fn, a, compute, what):
    """PyTorch's LinAlgError for a LAPACK routine that did not converge (NumPy raised its own),
    naming the first matrix of the batch that fails, as PyTorch does."""
    flat = a.reshape((-1,) + a.shape[-2:])
    failed = np.zeros(len(flat), bool)
    for i, matrix in enumerate(flat):
        try:
            compute(matrix)
        except np.linalg.LinAlgError:
            failed[i] = True
            break
    first = flat[failed.argmax()]
    why = ("the input matrix contained non-finite values." if not np.isfinite(first).all() else
           f"the input matrix is ill-conditioned or has too many repeated {what}.")
    return _batch_error(_LinAlgError, fn, "The algorithm failed to converge because " + why, failed, a.ndim > 2)


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


def _np_row_order(pivots, m):
    """The rows of A = P L U that P's columns pick, from LAPACK's pivots: (P y)[order[j]] = y[j]."""
    batch, k = pivots.shape[:-1], pivots.shape[-1]
    order = np.broadcast_to(np.arange(m), batch + (m,)).copy()
    count = int(np.prod(batch))  # not -1: a batch of 0 by 0 matrices has no size to infer from
    flat = order.reshape(count, m)
    rows = np.arange(count)
    swaps = pivots.reshape(count, k) - 1
    for j in range(k):
        p = swaps[:, j]
        flat[rows, j], flat[rows, p] = flat[rows, p], flat[rows, j].copy()
    return order


def _np_permutation(pivots, m, dtype):
    """P with A = P L U, from LAPACK's pivots."""
    order = _np_row_order(pivots, m)
    p_matrix = np.zeros(order.shape + (m,), dtype)
    np.put_along_axis(p_matrix, order[..., None, :], 1, axis=-2)
    return p_matrix


def _np_lu_substitute(lu_matrix, pivots, b, transposed=False):
    """X with P L U X = b (U^T L^T P^T X = b if ``transposed``) as LAPACK's getrs: the row
    swaps (no arithmetic), then two triangular substitutions; A itself is never formed (a
    general solve of an ill-conditioned product loses what the factors hold). A zero pivot
    gives infinities."""
    n = lu_matrix.shape[-1]
    batch = np.broadcast_shapes(lu_matrix.shape[:-2], pivots.shape[:-1], b.shape[:-2])
    order = np.broadcast_to(_np_row_order(pivots, n), batch + (n,))[..., None]
    b = np.broadcast_to(b, batch + b.shape[-2:])
    lower, upper = np.tril(lu_matrix, -1) + np.eye(n, dtype=lu_matrix.dtype), np.triu(lu_matrix)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if not transposed:
            return _np_substitute(upper, _np_substitute(lower, np.take_along_axis(b, order, axis=-2), False), True)
        y = _np_substitute(np.swapaxes(lower, -1, -2), _np_substitute(np.swapaxes(upper, -1, -2), b, False), True)
        x = np.empty(y.shape, y.dtype)
        np.put_along_axis(x, order, y, axis=-2)
        return x


def _singular_info(a):
    """The first zero pivot of each matrix (0: invertible), as LAPACK reports it."""
    return _np_lu(a)[2]


def _np_substitute(t, b, upper):
    """Back (forward) substitution, as LAPACK's trsm: a triangular system solved row by row
    (a general solve pivots through the triangle's far entries and loses the accuracy that
    substitution keeps); a zero on the diagonal gives infinities and NaNs, no error."""
    batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    t, x = np.broadcast_to(t, batch + t.shape[-2:]), np.array(np.broadcast_to(b, batch + b.shape[-2:]),
                                                            dtype=np.result_type(t, b))
    n = t.shape[-1]
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        done = slice(i + 1, n) if upper else slice(0, i)
        x[..., i, :] = (x[..., i, :] - np.sum(t[..., i, done, None] * x[..., done, :], axis=-2)) / t[..., i, i, None]
    return x


# --- outputs packed in one array --------------------------------------------------------------


def _layout(parts):
    """``[(shape, real)]`` -> ``((start, stop, shape, real), ...)``: where each output lies
    along the packed array's last axis. ``real``: the real part of a complex packing. A shape
    of None: an output not computed, which PyTorch returns as an empty (0,), whatever the batch."""
    out, start = [], 0
    for shape, real in parts:
        size = 0 if shape is None else int(np.prod(shape))
        out.append((start, start + size, None if shape is None else tuple(shape), real))
        start += size
    return tuple(out)


def _np_pack(arrays, batch, layout):
    packed = np.zeros(batch + (layout[-1][1],), np.result_type(*arrays))
    for a, (start, stop, _, _) in zip(arrays, layout):
        packed[..., start:stop] = np.reshape(a, batch + (stop - start,))
    return packed


def _np_part(packed, layout, i):
    start, stop, shape, real = layout[i]
    if shape is None:
        return np.zeros((0,), packed.real.dtype if real else packed.dtype)
    part = packed[..., start:stop].reshape(packed.shape[:-1] + shape)
    return np.array(part.real if real else part)  # own memory: the node keeps the packed array


def _np_embed(g, layout, i, packed_shape, dtype):
    out = np.zeros(packed_shape, dtype)
    start, stop, _, _ = layout[i]
    if start != stop:
        out[..., start:stop] = g.reshape(packed_shape[:-1] + (stop - start,))
    return out


def _part_batched(op, args, batched, params, dtype):
    """A part of a batch of packed arrays is the batch of the parts; a part not computed (its
    own shape whatever the packing's batch) gets the vmap batch dim that stacking would give it."""
    out = apply(op, args, params, dtype)
    layout, i = params
    return out.reshape(args[0]._data.shape[:1] + (0,)) if layout[i][2] is None else out


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
              jvp=LINEAR)


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


# --- Hermitian inputs -------------------------------------------------------------------------


def _np_hermitian_part(a):
    return (a + np.conj(np.swapaxes(a, -1, -2))) / 2


def _np_read_hermitian(a, upper):
    strict = np.triu(a, 1) if upper else np.tril(a, -1)
    diagonal_ = np.diagonal(a, axis1=-2, axis2=-1).real
    return strict + np.conj(np.swapaxes(strict, -1, -2)) + diagonal_[..., None] * np.eye(a.shape[-1], dtype=a.dtype)


# The Hermitian matrix LAPACK reads from one triangle of A. Its gradient is A's as it comes, as
# in PyTorch: the backward formulas give a Hermitian gradient, also for the triangle that is not
# read. Its tangent is the derivative (the map is linear).
READ_HERMITIAN = defop("read_hermitian", _np_read_hermitian, batch=leading, node="ReadHermitianBackward",
                       save=lambda ans, a, upper: (upper,), vjp=lambda g, upper: g,
                       jvp=LINEAR)


def _hermitian_input(A, upper):
    """``A`` if it is Hermitian, else the Hermitian matrix of its lower (upper) triangle, as
    LAPACK reads it (a complex diagonal counts by its real part): see READ_HERMITIAN."""
    data = A._data
    if has_values(data) and np.array_equal(data, np.conj(np.swapaxes(data, -1, -2))):
        return A
    return unary(READ_HERMITIAN, A, (upper,))


def _equal_matrices(x, y):
    """Whether each matrix of ``x`` equals ``y``'s (NaN never does, as np.array_equal), as a
    bool tensor (..., 1, 1): the checks of one matrix, done by ops on a whole vmap batch."""
    return (x != y).sum((-2, -1), keepdim=True) == 0


# --- the named results: torch.return_types.<name> ----------------------------------------------


class named:
    """The named tuples the decomposition modules return, under PyTorch's names (``named.linalg_svd``)."""

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
