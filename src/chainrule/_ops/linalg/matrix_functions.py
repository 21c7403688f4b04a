"""Functions of a whole matrix: its norms, integer powers, rank and condition number.

Composites of the solvers and factorizations (singular values, eigenvalues, inverses):
they need no gradient rule of their own.

>>> torch.linalg.matrix_rank(torch.eye(3))
tensor(3)
"""
import numpy as np

from ..._core import dtype as _dtype

from ..._core.tensor import Tensor, _wrap
from . import products as _linalg
from ..reduce import reductions
from .products import check_floating, check_matrix, matmul
from ..._core.dims import wrap_dim
from ..batching import batched_by, has_values, PER_SAMPLE
from ..pointwise.rounding import nan_to_num
from .decomposition_base import _eps, _hermitian_input, _not_converged, _np_hermitian_part, np_svd
from .factorizations import eigvalsh, svdvals
from .solvers import inv, inv_ex


# --- norms, powers, ranks and condition numbers of matrices ------------------------------------


def _order_text(order):
    return order if isinstance(order, str) else f"{order:g}"


def _no_largest(values, dim, keepdim):
    """The largest of no values along ``dim``: PyTorch's fresh zeros (outside the graph)."""
    return _wrap(np.zeros(np.sum(values._data, dim, keepdims=keepdim).shape, values._data.dtype))


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """'fro' (entries as a vector), 'nuc' (sum of singular values), 2 / -2 (largest /
    smallest singular value), 1 / -1 (max / min column sum of |A|), inf / -inf (rows)."""
    if not isinstance(ord, str) and abs(ord) not in (1, 2, np.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {_order_text(ord)} not supported.")
    if A._data.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    check_floating(A, "linalg.matrix_norm", "low" if ord in ("nuc", 2, -2) else None)
    dims = tuple(dim)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dims))}")
    d0, d1 = (wrap_dim(d, A._data.ndim) for d in dims)
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
        if ord == 2 and not values._data.shape[-1]:
            result = _no_largest(values, -1, keepdim)
        elif ord == "nuc":
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
    if ord > 0 and not sums._data.shape[d1]:
        return _no_largest(sums, d1, keepdim)
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


@batched_by(PER_SAMPLE, when=("tol", "atol", "rtol", "out"))  # batched tolerances
def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The number of singular values (|eigenvalues| if ``hermitian``) above
    max(atol, rtol * largest); ``tol`` is the older spelling of atol."""
    if A._data.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    lapack_dtype = A._data.dtype.kind in "fc" and A._data.dtype != np.float16
    only_rtol = rtol is not None or tol is not None  # PyTorch's overloads with a float rtol (or tol) check no dtype
    if not lapack_dtype and not only_rtol:
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, 0.0
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else _eps(A) * max(A._data.shape[-2:])
    if not A._data.size:  # no values: rank 0 (hermitian or not, any dtype or shape)
        return _wrap(np.zeros(A._data.shape[:-2], np.int64))
    if hermitian:
        check_matrix(A, "linalg.eigh")
    if not lapack_dtype:  # the kernel's own refusal
        if hermitian or A._data.dtype == np.float16:
            raise _dtype.not_implemented("linalg_eigh_cpu" if hermitian else "linalg_svd_cpu", A._data.dtype)
        check_floating(A, "linalg.svd")
    if has_values(A._data):
        data = A._data
        if hermitian:
            part = _np_hermitian_part(_hermitian_input(A, False)._data)
            try:
                values = np.abs(np.linalg.eigvalsh(part))
            except np.linalg.LinAlgError:  # PyTorch's error, as eigh's (inf in the matrix, say)
                raise _not_converged("linalg.eigh", part, np.linalg.eigvalsh, "eigenvalues") from None
        else:
            values = np_svd(data, compute_uv=False)
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
        where_ = f"(ord={p})" if isinstance(p, str) else ""
        raise RuntimeError(f"linalg.cond{where_}: The input tensor{' A' if where_ else ''} must have at least 2 "
                           "dimensions.")
    if p not in (None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {_order_text(p)}")
    if p is None or p in (2, -2):
        if not A._data.size:  # no values: PyTorch's condition number 0 (fresh zeros), whatever the dtype
            return _wrap(np.zeros(A._data.shape[:-2], np.empty(0, A._data.dtype).real.dtype))
        values = svdvals(A)
        largest, smallest = values[..., :1], values[..., -1:]
        return (smallest / largest if p == -2 else largest / smallest).squeeze(-1)
    if isinstance(p, str):  # the Frobenius and nuclear norms need square matrices, even empty ones
        check_matrix(A, f"linalg.cond(ord={_order_text(p)})")
    if not A._data.size:  # PyTorch's condition number of empty matrices: 0
        return _wrap(np.zeros(A._data.shape[:-2], np.empty(0, A._data.dtype).real.dtype))
    check_matrix(A, f"linalg.cond(ord={_order_text(p)})")
    if p == "nuc":  # PyTorch: from the singular values, without an inverse (so differentiable)
        values = svdvals(A)
        return values.sum(-1) * values.reciprocal().sum(-1)
    inverse, info = inv_ex(A)
    inverse.masked_fill_(_wrap(info._data[..., None, None] > 0), float("inf"))  # in place, as PyTorch: see below
    # (the inverse is saved by its node, so backward through cond raises, as in PyTorch)
    return nan_to_num(matrix_norm(A, p) * matrix_norm(inverse, p), np.inf, np.inf, -np.inf)


# --- Tensor methods --------------------------------------------------------------------------

Tensor.matrix_power = matrix_power
