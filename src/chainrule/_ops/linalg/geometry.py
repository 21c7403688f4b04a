"""Vector geometry: the cross product of 3-vectors and pairwise p-norm distances (``cdist``).

Both work along one dim of broadcast operands; ``cdist``'s rules work on the
differences ``x1_i - x2_j``, as PyTorch's ``_cdist_backward`` does.

>>> cross(chainrule.tensor([1.0, 0.0, 0.0]), chainrule.tensor([0.0, 1.0, 0.0]), dim=0)
tensor([0., 0., 1.])
"""
import math
import warnings

import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import Tensor, _wrap
from ..pointwise.elementwise import complex_product, where, zeros_like
from ..batching import dim_params, leading
from ..registry import apply, broadcast_error, defop
from ..reduce.norms import _vector_norm
from ..._core.dims import wrap_dim_of_tensor
from .products import _scalar_type_check, type_name

# --- cross products and distances ------------------------------------------------------------

def _np_cross(a, b, dim):
    """PyTorch's cross kernel: r0 = a1 b2 - a2 b1, ... For complex inputs each product as
    c10::complex's (``complex_product``: np.cross's complex products are not all rounded
    alike, so cross(a, a) was not 0)."""
    if a.dtype.kind != "c" and b.dtype.kind != "c":
        return np.cross(a, b, axisa=dim, axisb=dim, axisc=dim)
    a, b = np.broadcast_arrays(a, b)
    (a0, a1, a2), (b0, b1, b2) = np.moveaxis(a, dim, 0), np.moveaxis(b, dim, 0)
    parts = (complex_product(a1, b2) - complex_product(a2, b1), complex_product(a2, b0) - complex_product(a0, b2),
             complex_product(a0, b1) - complex_product(a1, b0))
    return np.moveaxis(np.stack(parts), 0, dim)


CROSS = defop("cross", _np_cross,
              batch=dim_params(0), node="LinalgCrossBackward0", save=lambda ans, a, b, dim: (a, b, dim),
              vjp=(lambda g, a, b, dim: _cross(b.conj(), g, dim), lambda g, a, b, dim: _cross(g, a.conj(), dim)),
              jvp=(lambda t, a, b, dim: _cross(t, b, dim), lambda t, a, b, dim: _cross(a, t, dim)))


def _cross(a, b, dim):
    return apply(CROSS, (a, b), (dim,))


def linalg_cross(input, other, *, dim=-1):
    """The cross product of 3-vectors along ``dim``; the other dims broadcast."""
    if input._data.ndim != other._data.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = wrap_dim_of_tensor(dim, input._data.ndim)
    if input._data.shape[d] != 3 or other._data.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {input._data.shape[d]} "
                           f"and {other._data.shape[d]}")
    if input._data.dtype.kind == "b":  # the kernel refuses bool before the dtypes are compared
        raise _dtype.not_implemented("cross", input._data.dtype)
    _scalar_type_check(input, other)
    mismatch = broadcast_error(None, input._data.shape, other._data.shape)
    if mismatch is not None:
        raise mismatch
    return _cross(input, other, d - input._data.ndim)


def cross(input, other, dim=None):
    """``linalg.cross``, with the legacy default: the first dim of size 3."""
    if dim is None:
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
                      "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
                      "agree with that of linalg.cross in a future release.", UserWarning, stacklevel=2)
        sizes = input._data.shape
        if 3 not in sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes.index(3)
    return linalg_cross(input, other, dim=dim)


# cdist(x1, x2)_ij = |x1_i - x2_j|_p: the rules work on the differences d (..., r1, r2, m)
def _differences(x1, x2):
    return x1.unsqueeze(-2) - x2.unsqueeze(-3)


def _cdist_grad(g, x1, x2, dist, p):
    """PyTorch's _cdist_backward, for the differences: the p-norm's gradient (0 where the
    distance is 0), except that every tie of the inf-norm gets the whole gradient."""
    d = _differences(x1, x2)
    g, dist = g.unsqueeze(-1), dist.unsqueeze(-1)
    magnitude = d.abs()
    if p == 0:
        return zeros_like(d)
    sign = where(d == d, d.sign(), d)  # the kernel's sign, min(max(0, ceil d), 1) + ...: nan at nan
    if p == 1:
        return sign * g
    if p == np.inf:  # the kernel's 1 - min(1, ceil(| |d| - dist |)): 1 at a tie, nan where |d| = dist = inf
        gap = (magnitude - dist).detach()
        return sign * g * where(gap == 0, 1.0, where(gap == gap, 0.0, gap))
    # each in the kernel's order of operations (g d / dist is not d (g / dist) in rounding)
    if p < 2:  # below 1, the elements with d = 0 have no slope
        none = (dist == 0) | (d == 0) if p < 1 else dist == 0
        return where(none, 0.0, sign * magnitude ** (p - 1) * g / dist ** (p - 1))
    if p == 2:
        return where(dist == 0, 0.0, g * d / dist)
    return where(dist == 0, 0.0, d * magnitude ** (p - 2) * g / dist ** (p - 1))


def _cdist_tangent(td, x1, x2, dist, p):
    """The tangent of the distances for a tangent ``td`` of the differences."""
    d = _differences(x1, x2)
    td = td.expand(d.shape)
    magnitude = d.abs()
    along = d.sign() * td
    if p == 0:
        return (along * 0).sum(-1)
    if p == 1:
        return along.sum(-1)
    if p == np.inf:
        winners = magnitude == dist.unsqueeze(-1)
        return (along * winners).sum(-1) / winners.sum(-1)
    slope = where(d == 0, 0.0, magnitude ** (p - 1)) if p < 1 else magnitude ** (p - 1)
    return where(dist == 0, 0.0, (slope * along).sum(-1) / dist ** (p - 1))


def _np_cdist(x1, x2, p):
    d = x1[..., :, None, :] - x2[..., None, :, :]
    if not d.shape[-1]:  # no columns: every distance is 0, for every p (inf too)
        return np.zeros(d.shape[:-1], d.dtype)
    if p == 0:  # PyTorch's count of the differences, min(ceil(|d|), 1): nan stays nan (vector_norm counts it)
        return np.minimum(np.ceil(np.abs(d)), 1).sum(-1)
    if p == np.inf:  # the kernel's max from 0 keeps what it has against a nan (vector_norm's is nan)
        magnitude = np.abs(d)
        return np.max(np.where(magnitude != magnitude, 0, magnitude), axis=-1)
    return _vector_norm(d, p, (-1,), False, single_is_abs=False)  # the kernel's sum of |d|^p, even of one


def _np_cdist_backward(g, x1, x2, dist, p, first):
    if not first:  # as PyTorch's, x2's from the transposed problem: x2 - x1, not -(x1 - x2) (the sign of a 0)
        g, x1, x2, dist = np.swapaxes(g, -1, -2), x2, x1, np.swapaxes(dist, -1, -2)
    return _cdist_grad(_wrap(g), _wrap(x1), _wrap(x2), _wrap(dist), p)._data.sum(-2)


def _no_cdist_second(*_):
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


# PyTorch's _cdist_backward has no derivative of its own: the gradient is an op whose rules refuse
CDIST_BACKWARD = defop("cdist_backward", _np_cdist_backward, batch=leading, node="CdistBackwardBackward0",
                       save=lambda ans, *args: (), vjp=(_no_cdist_second,) * 4, jvp=(_no_cdist_second,) * 4)


CDIST = defop(
    "cdist", _np_cdist,
    batch=leading, node="CdistBackward0", save=lambda ans, x1, x2, p: (x1, x2, ans, p),
    vjp=(lambda g, x1, x2, dist, p: apply(CDIST_BACKWARD, (g, x1, x2, dist), (p, True)),
         lambda g, x1, x2, dist, p: apply(CDIST_BACKWARD, (g, x1, x2, dist), (p, False))),
    jvp=(lambda t, x1, x2, dist, p: _cdist_tangent(t.unsqueeze(-2), x1, x2, dist, p),
         lambda t, x1, x2, dist, p: _cdist_tangent(-t.unsqueeze(-3), x1, x2, dist, p)))


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distances between the rows of x1 and of x2 (batch dims broadcast)."""
    for t, name in ((x1, "X1"), (x2, "X2")):
        if t._data.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t._data.ndim}D")
    if x1._data.shape[-1] != x2._data.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1._data.shape[-1]} "
                           f"X2: {x2._data.shape[-1]}")
    for t, name in ((x1, "X1"), (x2, "X2")):
        if t._data.dtype.kind != "f":
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{type_name(t)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    s1, s2 = x1._data.shape, x2._data.shape
    batch = np.broadcast_shapes(s1[:-2], s2[:-2]) if len(s1) > 2 or len(s2) > 2 else ()
    if not s1[-2] or not s2[-2] or not s1[-1] or not math.prod(batch):  # no kernel runs, nothing is checked
        return apply(CDIST, (x1, x2), (float(p),), x1._data.dtype)
    if x1._data.dtype == np.float16:  # the kernel's dispatch (on x1's dtype): no half precision
        raise NotImplementedError("\"cdist\" not implemented for 'Half'")
    _scalar_type_check(x1, x2)
    return apply(CDIST, (x1, x2), (float(p),))


# --- Tensor methods --------------------------------------------------------------------------

Tensor.cross = cross
