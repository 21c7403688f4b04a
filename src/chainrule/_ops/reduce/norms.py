"""Norms over some dims: ``norm`` (``torch.norm``'s vector and Frobenius forms) and the
p-norm every vector norm computes (``linalg.vector_norm`` is built on it), each sum
``accurate_sum``'s as PyTorch's kernels accumulate.
"""
import math

import numpy as np

from ..._core.tensor import Tensor, _wrap
from ..pointwise.elementwise import where, zeros_like
from ..batching import dim_params
from ..registry import defop, unary
from ..._core.dims import wrap_dim
from ..pointwise.unary import abs, sgn
from .reductions import (_all_dims, _count, _reduce_args, _sum_over, _type_name, _unreduce,
                         accurate_sum)


def _vector_norm(x, p, dims, keepdim, single_is_abs=True):
    """The p-norm; float16 is worked out in float32 (PyTorch's accumulation type), and every
    sum is ``accurate_sum``'s. (As PyTorch's, a float32 2-norm past 1e19 overflows, but
    not the norm of one element: PyTorch's reduction of one element is its abs, except
    along an explicit dim of a 0-d tensor: ``single_is_abs`` False.)"""
    a = np.abs(x)
    axes = (dims,) if isinstance(dims, (int, np.integer)) else dims  # (cdist passes one int)
    if p in (math.inf, -math.inf) or p != 0 and single_is_abs and _count(a.shape, axes) == 1:
        return (np.max if p > 0 else np.min)(a, axis=dims, keepdims=keepdim)
    if p == 0:
        return np.sum(a != 0, axis=dims, keepdims=keepdim).astype(a.dtype)
    wide = a.astype(np.float32) if a.dtype == np.float16 else a
    with np.errstate(divide="ignore", over="ignore"):
        if p == 1:
            out = accurate_sum(wide, dims, keepdim)
        elif p == 2:
            out = np.sqrt(accurate_sum(wide * wide, dims, keepdim))
        else:
            out = accurate_sum(wide ** p, dims, keepdim) ** (1 / p)
    return np.asarray(out).astype(a.dtype)


def _norm_slope(x, ans, p, dims, keepdim):
    """d ||x||_p / d x_i for p >= 1 and ±inf, following PyTorch's norm_backward case by case
    (0 where the norm is 0; the ±inf norms share among the elements that reach it)."""
    norm = _unreduce(ans, x.shape, dims, keepdim)
    if p == 1:
        return sgn(x)
    if p == 2:
        return where(norm == 0, 0.0, x / norm)
    if math.isinf(p):
        a = np.abs(x._data)
        reach = (a == norm._data) | (a != a)
        return sgn(x) * _wrap((reach / np.sum(reach, axis=dims, keepdims=True)).astype(a.dtype))
    # a zero norm is divided by as 1, so that the branch where() drops has no 0 / 0 for the
    # next derivative to meet
    safe = where(norm == 0, 1.0, norm) ** (p - 1)
    if p < 2:
        return where(norm == 0, 0.0, sgn(x) * abs(x) ** (p - 1) / safe)
    return where(norm == 0, 0.0, x * abs(x) ** (p - 2) / safe)


def _norm_grad(g, x, ans, p, dims, keepdim):
    """PyTorch's norm_backward, its products in its order (which the second derivative's
    rounding follows); p = 0 counts the nonzero elements, a step function: no gradient."""
    if p == 0:
        return None
    g = _unreduce(g, x.shape, dims, keepdim)
    if p < 1 and not math.isinf(p):  # (negative p too)
        norm = _unreduce(ans, x.shape, dims, keepdim)
        return sgn(x) * where(x == 0, 0.0, abs(x) ** (p - 1)) * g * norm ** (1 - p)
    if 1 < p < 2 or p > 2 and not math.isinf(p):
        norm = _unreduce(ans, x.shape, dims, keepdim)
        scaled = sgn(x) * abs(x) ** (p - 1) if p < 2 else x * abs(x) ** (p - 2)
        # a zero norm is divided by as 1, so that the branch where() drops has no 0 / 0 for the
        # next derivative to meet
        return scaled * where(norm == 0, 0.0, g / where(norm == 0, 1.0, norm) ** (p - 1))
    return g * _norm_slope(x, ans, p, dims, keepdim)


NORM = defop("linalg_vector_norm", _vector_norm, node="LinalgVectorNormBackward0", batch=dim_params(1),
             save=lambda ans, x, p, dims, keepdim, *single_is_abs: (x, ans, p, dims, keepdim),
             vjp=_norm_grad, jvp=lambda t, x, ans, p, dims, keepdim: _norm_tangent(t, x, ans, p, dims, keepdim))


def _norm_tangent(t, x, ans, p, dims, keepdim):
    """The slope's sum along the tangent; for p < 1 (negative too), as PyTorch's norm_jvp,
    the norm's factor ||x||^(1-p) multiplies the sum, not each term (an infinite norm: inf,
    not nan)."""
    if p == 0:
        return zeros_like(ans)
    complex_x = x._data.dtype.kind == "c"
    if p > 1 and not math.isinf(p):
        # PyTorch's order: the sum of x t (|x|^(p-2) x t) divided by the norm (its p-1 power)
        # once, 0 where the norm is 0 (x = 1.8e308 and |t| > 1: inf / inf, nan, as PyTorch's)
        along = (x * t.conj()).real if complex_x else x * t
        if p < 2:
            along = abs(x) ** (p - 1) * ((sgn(x) * t.conj()).real if complex_x else sgn(x) * t)
        elif p > 2:
            along = abs(x) ** (p - 2) * along
        scale = ans if p == 2 else ans ** (p - 1)
        return where(ans == 0, 0.0, _sum_over(along, dims, keepdim) / where(ans == 0, 1.0, scale))
    if p < 1 and not math.isinf(p):
        slope, factor = sgn(x) * where(x == 0, 0.0, abs(x) ** (p - 1)), ans ** (1 - p)
    else:
        slope, factor = _norm_slope(x, ans, p, dims, keepdim), None
    # a complex x's slope is the gradient's direction: the real norm moves by Re(conj(slope) t)
    terms = (slope.conj() * t).real if complex_x else t * slope
    tangent = _sum_over(terms, dims, keepdim)
    return tangent if factor is None else tangent * factor


def _vector_norm_checked(x, p, dim, keepdim):
    if x._data.dtype.kind not in "fc":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {_type_name(x._data.dtype)}")
    dims = _all_dims(x) if dim is None else _reduce_args(x, dim)
    if x._data.size == 0 and (p < 0 or p == math.inf):
        if dim is None:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor because the "
                               "operation does not have an identity")
        for d in (dim,) if isinstance(dim, (int, np.integer)) else dim:  # named as given
            if x._data.shape[wrap_dim(d, x._data.ndim)] == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on the dimension {d}because "
                                   "this dimension is empty and the operation does not have an identity")
    return unary(NORM, x, (float(p), dims, keepdim, dim is None or x._data.ndim > 0))


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """``torch.norm``: the vector p-norm over ``dim`` (all dims when None); "fro" is p = 2.
    The nuclear norm (p="nuc") needs an SVD, which chainrule does not have yet."""
    if out is not None:
        raise NotImplementedError("norm(): out= is not supported")
    if dtype is not None:
        input = input.to(dtype)
    if isinstance(p, str):
        dims = () if dim is None else (dim,) if isinstance(dim, (int, np.integer)) else tuple(dim)
        if p == "fro" and len(dims) <= 2:
            p = 2.0
        elif p == "nuc":
            raise NotImplementedError("norm(): p='nuc' (the nuclear norm) needs an SVD; not supported yet")
        else:
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dims))}")
    return _vector_norm_checked(input, 2.0 if p is None else p, dim, keepdim)


Tensor.norm = norm
