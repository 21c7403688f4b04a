"""Triangular solves: ``linalg.solve_triangular`` and the legacy ``triangular_solve``.

Their own module because the factorizations' gradients (Cholesky, QR, LU) are triangular
solves: those modules import ``solve_triangular`` from here.

>>> solve_triangular(torch.tensor([[2.0, 0.0], [1.0, 1.0]]), torch.ones(2, 1), upper=False)
tensor([[0.5000],
        [0.5000]])
"""
import warnings

import numpy as np

from ..._core.tensor import Tensor
from .products import check_matrix, mH, matmul, refuse_non_lapack, tril, triu, type_name
from ..batching import leading
from ..registry import apply, defop
from .decomposition_base import (_layout, _np_pack, _np_part, _np_substitute, _outputs, _packed, _part_rules,
                                 _parts, named)


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
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _np_substitute(t, b, upper)


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
    check_matrix(A, "linalg.solve_triangular")
    if B._data.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    n, (rows, cols) = A._data.shape[-1], B._data.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    refuse_non_lapack(A, "triangular_solve_cpu")
    if B._data.dtype != A._data.dtype:  # PyTorch solves in A's dtype (a complex B loses its imaginary part)
        B = B.to(A.dtype)
    return apply(SOLVE_TRIANGULAR, (A, B), (upper, left, unitriangular))


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
    coefficient = tuple(packed.shape[:-1]) + tuple(a.shape[-2:])
    if tuple(t.shape) != coefficient:  # PyTorch gives the cloned A its tangent as it is, unbroadcast
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(coefficient)} while the given "
                           f"forward gradient is of size {list(t.shape)}.")
    return _packed([dx, t], packed, layout)


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
    for name, t in (("b", b), ("A", A)):
        if t._data.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected {name} to have at least 2 dimensions, but it has "
                               f"{t._data.ndim} dimensions instead")
    if b._data.dtype != A._data.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {type_name(b)} and A of "
                           f"type {type_name(A)} instead.")
    if A._data.shape[-2] != A._data.shape[-1]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {A._data.shape[-2]} by "
                           f"{A._data.shape[-1]} matrices")
    if A._data.shape[-1] != b._data.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is "
                           f"{A._data.shape[-2]} by {A._data.shape[-1]} but each b matrix is {b._data.shape[-2]} by "
                           f"{b._data.shape[-1]}")
    if A._data.dtype.kind not in "fc" or A._data.dtype == np.float16:  # even empty: the dispatch comes first
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for '{type_name(A)}'")
    packed = apply(TRIANGULAR_SOLVE, (b, A), (upper, transpose, unitriangular))
    return named.triangular_solve(_outputs(TRIANGULAR_SOLVE_OUT, packed,
                                           _triangular_solve_layout(b._data.shape, A._data.shape)))


# --- Tensor methods --------------------------------------------------------------------------

Tensor.triangular_solve = triangular_solve
