"""Scans: running sums and products (and prod), running extremes, logcumsumexp. Sorting,
selection and counting are in ``sorting``.

The gradient of a scan is the same scan run from the other end: ``cumsum``'s vjp is
``cumsum(g, reverse=True)``, and the rules of ``cumprod`` and ``logcumsumexp`` build on
it. ``cummax`` and ``cummin`` compute where they pick from, then record the values with
``reductions.PICK_RULES``: each gradient goes back to the element it came from.

>>> x = chainrule.tensor([2.0, 0.0, 3.0], requires_grad=True)
>>> x.cumprod(0).sum().backward()   # zeros are handled without dividing by them
>>> x.grad
tensor([1., 8., 0.])
"""
import math

import numpy as np

from ..._core import dtype as _dtype
from ... import return_types
from ..._core.tensor import Tensor, _wrap
from ..._core.modes import FORWARD_AD
from ..tangents import tangent_of
from ..._core.modes import GRAD_MODE
from ..pointwise.elementwise import where
from ..shape.joining import cat, stack
from ..methods import inplace_method
from .reductions import (PICK_RULES, PUT_ALONG, TAKE_ALONG, _check_autograd_dtype, _check_nonempty, _count,
                         _reduce_args, _result_dtype, _sum_over, _type_name, _unreduce, int_dim, past_batch,
                         pick, sum, wider)
from ..batching import batched_by, dim_params, on_batch
from ..registry import defop, unary
from ..._core.dims import wrap_dim
from ..pointwise.unary import _log1p, abs, exp, log

# --- helpers ------------------------------------------------------------------------------


def _scan(ufunc, x, dim, reverse):
    """``ufunc.accumulate`` along ``dim``, from the end when ``reverse``; a 0-d tensor is
    its own scan. As PyTorch's, it runs in the wider type (float32 in float64) and rounds
    each result once: a float32 running sum of 10**7 values of 0.1 ends at 1e6, not 1.09e6."""
    if x.ndim == 0:
        return x.copy()
    acc = wider(x.dtype)
    if ufunc is np.add and x.dtype.kind in "fc":  # PyTorch's running sum starts from +0: 0 + -0 is 0
        x = x + x.dtype.type(0)
    if ufunc is np.multiply and x.dtype.kind == "c" and x.shape[dim]:  # its running product from 1 + 0j: 1 * (3 + inf j) is nan + inf j
        x, first = x.copy(), (slice(None),) * (dim % x.ndim) + (-1 if reverse else 0,)
        x[first] = x[first] * x.dtype.type(1)  # only the first: the others multiply the running product
    if reverse:
        return np.flip(ufunc.accumulate(np.flip(x, dim), axis=dim, dtype=acc), dim).astype(x.dtype)
    return ufunc.accumulate(x, axis=dim, dtype=acc).astype(x.dtype, copy=False)


def _positions(shape, dim):
    """0, 1, 2... along ``dim``, shaped to broadcast against an array of ``shape``."""
    return np.arange(shape[dim]).reshape((-1,) + (1,) * (len(shape) - dim - 1))


def _floating_only(x, kernel):
    if x._data.dtype.kind not in "fc":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(x._data.dtype)}\'')


def _unordered(x, kernel, bool_too=True):
    """PyTorch's error for a kernel that orders elements: complex numbers have no order,
    and the selection kernels (kthvalue, median) have no bool version either."""
    if x._data.dtype.kind == "c" or bool_too and x._data.dtype.kind == "b":
        raise _dtype.not_implemented(kernel, x._data.dtype)




def _along_batch(x, dim, fn):
    """Under vmap: ``fn(b, d)`` run once on the batch ``b`` of ``x``, ``d`` one sample's
    ``dim`` past the batch dim. A 0-d sample is a row of one (``b.unsqueeze(1)`` along 1),
    and its results, 0-d per sample, lose that dim again."""
    if x._data.ndim:
        d = past_batch(x, dim)
        return on_batch(lambda b: fn(b, d), x)
    wrap_dim(dim, 0)

    def on_rows(b):
        out = fn(b.unsqueeze(1), 1)
        if isinstance(out, tuple):
            return type(out)(tuple(o.reshape(o.shape[:1]) for o in out))
        return out.reshape(out.shape[:1])
    return on_batch(on_rows, x)


# --- cumsum -------------------------------------------------------------------------------

CUMSUM = defop("cumsum", lambda x, dim, reverse, dtype: _scan(np.add, x.astype(dtype, copy=False), dim, reverse),
               batch=dim_params(0), node="CumsumBackward0", save=lambda ans, x, dim, reverse, dtype: (dim, reverse, dtype),
               vjp=lambda g, dim, reverse, dtype: _cumsum(g, dim, not reverse),
               jvp=lambda t, dim, reverse, dtype: _cumsum(t, dim, reverse, dtype))


def _cumsum(x, dim, reverse=False, dtype=None):
    """The running sum, from the last element backwards when ``reverse``."""
    return unary(CUMSUM, x, (dim, reverse, dtype or x._data.dtype))


def cumsum(x, dim, *, dtype=None):
    out = _result_dtype(x, dtype)
    dim = int_dim(dim, x._data.ndim, "cumsum")
    _check_autograd_dtype(x, out)  # after the dim's check, as PyTorch's
    return unary(CUMSUM, x, (dim, False, out))


# --- products: prod and cumprod, whose gradients divide by x unless x has zeros ---------------

def _like(x, ans):
    """``x`` in the dtype of the result (a product asked for ``dtype=float64``)."""
    return x if x._data.dtype == ans._data.dtype else x.to(ans.dtype)


def _gather_shifted(y, dim, source, fill):
    """``y`` gathered along ``dim`` from the positions ``source`` (one per position, out of
    range where ``fill`` goes instead): shifts and flips that autograd can differentiate."""
    n = y._data.shape[dim]
    along = (-1,) + (1,) * (y._data.ndim - dim - 1)
    index = np.broadcast_to(np.clip(source, 0, n - 1).reshape(along), y._data.shape)
    picked = unary(TAKE_ALONG, y, (index, dim, True))
    outside = (source < 0) | (source >= n)
    return where(_wrap(outside.reshape(along)), fill, picked) if outside.any() else picked


def _exclusive_products(x, dim):
    """(prod of x_k for k < j, prod of x_k for k > j) at every j along ``dim``: PyTorch's
    prod_safe_zeros_backward, cumprods of x shifted by one from either end (so no product
    holds an element it leaves out: an inf there would turn its zero gradient into nan). No
    division, so exact with zeros, and differentiable again (cumprod's own rule handles zeros)."""
    n = x._data.shape[dim]
    position = np.arange(n)
    before = _cumprod(_gather_shifted(x, dim, position - 1, 1.0), dim)  # cumprod of [1, x_0, ..., x_{n-2}]
    after_reversed = _cumprod(_gather_shifted(x, dim, n - position, 1.0), dim)  # of [1, x_{n-1}, ..., x_1]
    return before, _gather_shifted(after_reversed, dim, n - 1 - position, 1.0)


def _prod_slope(x, ans, dims, keepdim):
    """d prod / d x_j, the product of the other elements of the slice: ans / x_j where x has
    no zero (as PyTorch), else the exclusive products from both sides."""
    if x._data.ndim == 0:
        return _wrap(np.ones((), dtype=ans._data.dtype))
    x = _like(x, ans)
    if not (x._data == 0).any():
        return _unreduce(ans, x.shape, dims, keepdim) / x
    if _count(x._data.shape, dims) == 1:  # PyTorch's prod_safe_zeros_backward: 1, with no graph
        return _wrap(np.ones(x._data.shape, dtype=ans._data.dtype))
    if len(dims) > 1:  # the whole tensor: along its flattened elements
        before, after = _exclusive_products(x.reshape(-1), 0)
        return (before * after).reshape(x.shape)
    before, after = _exclusive_products(x, dims[0])
    return before * after


def _prod(x, dims, keepdim, dtype):
    return np.prod(x, axis=dims, keepdims=keepdim, dtype=dtype)


def _prod_grad(g, x, ans, dims, keepdim):
    return _unreduce(g, x.shape, dims, keepdim) * _prod_slope(x, ans, dims, keepdim).conj()


def _whole_prod_grad(g, x, ans, dims, keepdim):
    # PyTorch's prod() (not prod(dim)): with two zeros or more and no graph to build, zeros
    if x._data.ndim and not GRAD_MODE.enabled and np.count_nonzero(x._data.astype(ans._data.dtype, copy=False) == 0) > 1:
        return _wrap(np.zeros(x._data.shape, dtype=ans._data.dtype))
    return _prod_grad(g, x, ans, dims, keepdim)


_PROD_RULES = dict(
    save=lambda ans, x, dims, keepdim, dtype: (x, ans, dims, keepdim),
    jvp=lambda t, x, ans, dims, keepdim: _sum_over(t * _prod_slope(x, ans, dims, keepdim), dims, keepdim))

PROD = defop("prod", _prod, batch=dim_params(0), node="ProdBackward0", vjp=_whole_prod_grad, **_PROD_RULES)
PROD_DIM = defop("prod_dim", _prod, batch=dim_params(0), node="ProdBackward1", vjp=_prod_grad, **_PROD_RULES)


def prod(x, dim=None, keepdim=False, *, dtype=None):
    out = _result_dtype(x, dtype)
    if dim is None:
        _check_autograd_dtype(x, out)
        return unary(PROD, x, (tuple(range(x._data.ndim)), False, out))
    if not isinstance(dim, (int, np.integer)):
        raise TypeError(f"prod(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
    dims = _reduce_args(x, dim)
    _check_autograd_dtype(x, out)
    return unary(PROD_DIM, x, (dims, keepdim, out))


def _zero_layout(x, dim):
    """Masks along ``dim``: before the first zero of each slice, that first zero, and the
    elements after it up to the second zero."""
    zero = x._data == 0
    seen = np.cumsum(zero, axis=dim)
    return _wrap(seen == 0), _wrap(zero & (seen == 1)), _wrap(~zero & (seen == 1))


def _cumprod_grad(g, x, ans, dim):
    """The gradient of y_i = x_0 ... x_i at x_j: the sum over i >= j of g_i y_i / x_j (the
    reversed cumsum of g y, over x). With zeros that division fails: ``_cumprod_grad_at_zeros``.
    As PyTorch's, g itself (no graph through x) for at most one element or a dim of one."""
    if x._data.size <= 1 or x._data.shape[dim] == 1:
        return g
    x, ans = _like(x, ans).conj(), ans.conj()  # complex: the conjugate slope, as every vjp
    if not (x._data == 0).any():
        return _cumsum(g * ans, dim, reverse=True) / x
    if GRAD_MODE.enabled:  # create_graph: a form that stays exact when differentiated again
        return _cumprod_grad_quadratic(g, x, dim)
    return _cumprod_grad_at_zeros(g, x, ans, dim)


def _cumprod_grad_at_zeros(g, x, ans, dim):
    """PyTorch's O(n) form: before the first zero z1 of a slice, the reversed cumsum of g y
    over it, over x; at z1, y[z1 - 1] times the sum over z1 <= i < z2 (the second zero) of
    g_i times the product of x over (z1, i]; after it, 0 (every product holds the zero).
    Each part masks what it leaves out before multiplying, so an inf there gives no nan.
    (Its derivative in x would miss what the zero multiplies, hence the quadratic form for
    create_graph, as in PyTorch.)"""
    before, first, between = _zero_layout(x, dim)
    ahead = _cumsum(where(before, g * ans, 0.0), dim, reverse=True) / where(before, x, 1.0)
    z1 = np.argmax(first._data, axis=dim)[(slice(None),) * dim + (None,)]
    y_before_z1 = np.where(z1 == 0, 1, np.take_along_axis(ans._data, np.maximum(z1 - 1, 0), dim))
    up_to_z2 = where(_wrap(first._data | between._data), g, 0.0)
    at_zero = sum(_cumprod(where(between, x, 1.0), dim) * up_to_z2, dim, keepdim=True) * _wrap(y_before_z1)
    return where(before, ahead, where(first, at_zero, 0.0))


def _cumprod_grad_quadratic(g, x, dim):
    """PyTorch's cumprod_backward under create_graph: at each k, the sum over i >= k of g_i
    times the product of x_j, j <= i, j != k, as prod(x[:k]) * cumprod(x[k+1:i+1]). No
    division, so every derivative is exact (and nan where PyTorch's is). O(n^2) work."""
    n = x._data.shape[dim]
    ones = _wrap(np.ones(x._data.shape[:dim] + (1,) + x._data.shape[dim + 1:], dtype=g._data.dtype))
    slopes = []
    for k in range(n):
        if k == 0:
            omitted = cat([ones, _cumprod(x.narrow(dim, 1, n - 1), dim)], dim)
        else:
            until_k = prod(x.narrow(dim, 0, k), dim, keepdim=True)
            if k == n - 1:
                omitted = until_k
            else:
                from_k = _cumprod(x.narrow(dim, k + 1, n - k - 1), dim)
                omitted = cat([until_k, until_k.expand_as(from_k) * from_k], dim)
        slopes.append(sum(g.narrow(dim, k, n - k) * omitted, dim, keepdim=True))
    return cat(slopes, dim)


def _cumprod_tangent(t, x, ans, dim):
    """sum over j <= i of t_j y_i / x_j; from the first zero on, the one term left is t at
    that zero times the product of the others. (As PyTorch's, t / x * y even for one
    element: nan at x = inf or nan.)"""
    x = _like(x, ans)
    if x._data.ndim == 0:
        return where(x == 0, t, t / x * ans)
    if not (x._data == 0).any():
        return _cumsum(t / x, dim) * ans
    before, first, _ = _zero_layout(x, dim)
    return where(before, _cumsum(t / where(before, x, 1.0), dim) * ans, _cumprod(where(first, t, x), dim))


CUMPROD = defop("cumprod", lambda x, dim, dtype: _scan(np.multiply, x.astype(dtype, copy=False), dim, False),
                batch=dim_params(0), node="CumprodBackward0", save=lambda ans, x, dim, dtype: (x, ans, dim),
                vjp=_cumprod_grad, jvp=_cumprod_tangent)


def _cumprod(x, dim):
    return unary(CUMPROD, x, (dim, x._data.dtype))


def cumprod(x, dim, *, dtype=None):
    out = _result_dtype(x, dtype)
    dim = int_dim(dim, x._data.ndim, "cumprod")
    _check_autograd_dtype(x, out)
    return unary(CUMPROD, x, (dim, out))


# --- cummax and cummin ----------------------------------------------------------------------

def _running_extreme_index(a, dim, accumulate):
    """Where the running max (min) comes from: the last element so far that reached it
    (PyTorch compares with >=), or once a NaN was seen, the last NaN."""
    if a.ndim == 0:
        return np.zeros((), dtype=np.int64)
    running = accumulate(a, axis=dim)
    reached = (a == running) | (a != a)
    return np.maximum.accumulate(np.where(reached, _positions(a.shape, dim), 0), axis=dim)


# PICK_RULES, but as PyTorch's cummaxmin_backward, the gradient of an empty input is that
# input itself (so it requires grad, and a second derivative has a graph to go through)
_RUNNING_EXTREME_RULES = dict(
    PICK_RULES,
    save=lambda ans, x, index, dim, keepdim: (x if x._data.size == 0 else x._data.shape, index, dim, keepdim),
    vjp=lambda g, shape, index, dim, keepdim: shape if isinstance(shape, Tensor) else unary(
        PUT_ALONG, g, (index, dim, keepdim, shape)))
CUMMAX = defop("cummax", TAKE_ALONG.forward, node="CummaxBackward0", **_RUNNING_EXTREME_RULES)
CUMMIN = defop("cummin", TAKE_ALONG.forward, node="CumminBackward0", **_RUNNING_EXTREME_RULES)


def _running_extreme(x, dim, name, op, accumulate, result_type):
    """cummax and cummin, with PyTorch's checks: a 0-d input's bad dim in their own words;
    an empty input, whatever its dim, is its own result (PyTorch checks nothing else),
    which is also all that a complex input may be."""
    if x._data.ndim == 0:
        if isinstance(dim, int) and dim not in (-1, 0):
            raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    elif x._data.size == 0:
        if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
            int_dim(dim, 1, name)  # PyTorch's TypeError
        ndim = x._data.ndim
        if not -ndim <= dim < ndim and FORWARD_AD.active and tangent_of(x) is not None:
            wrap_dim(dim, ndim)  # PyTorch's tangent gathers along the dim: its IndexError
        dim = dim % ndim if -ndim <= dim < ndim else 0  # any dim picks nothing
        return pick(op, x, np.zeros(x._data.shape, dtype=np.int64), dim, True, result_type)
    dim = int_dim(dim, x._data.ndim, name)
    if x._data.ndim:
        _unordered(x, f"{name}_cpu", bool_too=False)
    return pick(op, x, _running_extreme_index(x._data, dim, accumulate), dim, True, result_type)


@batched_by(lambda x, dim: _along_batch(x, dim, lambda b, d: cummax(b, d)))
def cummax(x, dim):
    return _running_extreme(x, dim, "cummax", CUMMAX, np.maximum.accumulate, return_types.cummax)


@batched_by(lambda x, dim: _along_batch(x, dim, lambda b, d: cummin(b, d)))
def cummin(x, dim):
    return _running_extreme(x, dim, "cummin", CUMMIN, np.minimum.accumulate, return_types.cummin)


# --- logcumsumexp -----------------------------------------------------------------------------

def _log_scan_of_signed(v, shift, dim, reverse):
    """log of the running sums of |v| exp(shift), split by the sign of v: (positive part,
    negative part). Summing in log space keeps large exponents from overflowing; PyTorch
    computes logcumsumexp's gradient the same way, leaving the elements out of a part with
    the dtype's lowest number (which no finite shift brings near the others)."""
    # (filled in before the shift, as PyTorch: lowest - 1.8e308 is -inf, where lowest filled in
    # after it would meet x = 1.8e308 as exp(0) = 1 and cancel the other part)
    magnitude = log(abs(v))
    absent = float(np.finfo(v._data.dtype).min)
    up = _logcumsumexp(magnitude.masked_fill((v > 0).logical_not(), absent) + shift, dim, reverse)
    down = _logcumsumexp(magnitude.masked_fill((v < 0).logical_not(), absent) + shift, dim, reverse)
    return up, down


def _logcumsumexp_grad(g, x, ans, dim, reverse):
    # sum over i >= j of g_i exp(x_j - y_i), as PyTorch's logcumsumexp_backward computes it
    if g._data.ndim == 0 or g._data.size == 0:
        return g
    if g._data.dtype.kind == "c":  # a complex log needs no split by sign
        return exp(_logcumsumexp(log(g.conj()) - ans, dim, not reverse) + x).conj()
    up, down = _log_scan_of_signed(g, -ans, dim, not reverse)
    return exp(up + x) - exp(down + x)


def _running_weighted(t, x, dim, reverse):
    """out_i = sum over j <= i of t_j exp(x_j - y_i), y_i = log sum exp(x_j), as a ratio of
    two running sums shifted by the running max r_i (each weight at most 1, the max's 1):
    num_i = num_{i-1} exp(r_{i-1} - r_i) + t_i exp(x_i - r_i), den_i likewise with t = 1.
    (In log space, log|t| + x absorbs log|t| where |x| is 1e30, and y_i, rounded, may
    absorb log 2: the tangent of logcumsumexp([1e300, 1e300]) is the mean of the two.)"""
    with np.errstate(invalid="ignore"):
        peaks = _wrap(_scan(np.maximum, x._data, dim, reverse))  # a constant: r cancels in the ratio
    n = x._data.shape[dim]
    outs, previous = [None] * n, None
    for i in (reversed if reverse else iter)(range(n)):
        r_i = peaks.select(dim, i)
        weight = exp(x.select(dim, i) - r_i)
        num, den = t.select(dim, i) * weight, weight
        if previous is not None:
            r_before, num_before, den_before = previous
            carry = exp(r_before - r_i)
            nothing_before = r_before == -math.inf
            num = where(nothing_before, num, num_before * carry + num)
            den = where(nothing_before, den, den_before * carry + den)
        outs[i], previous = num / den, (r_i, num, den)
    return stack(outs, dim)


def _logcumsumexp_tangent(t, x, ans, dim, reverse):
    # sum over j <= i of t_j exp(x_j - y_i)
    if t._data.size == 0:
        if t._data.ndim:  # PyTorch's tangent takes the max along the dim
            _check_nonempty(t, "max", dim)
        return t
    if t._data.ndim == 0:  # PyTorch's exp(x - max(x)) is nan at a non-finite x (see below)
        return where(x.isfinite(), t, math.nan)
    out = _running_weighted(t, x, dim, reverse)
    # PyTorch's edges: it takes cumsum(t exp(x - m)) / (cumsum(exp(x - m)) + 1e-13) with m the
    # max of the whole line, so it gives 0 where every x so far is -inf (or is finite and m is
    # +inf), and nan along a line whose max is -inf or nan: logcumsumexp([-inf, 1]) -> [0, t_1]
    peak = x.amax(dim, keepdim=True)
    vanishing = (ans == -math.inf) | ((peak == math.inf) & (ans < math.inf))
    undefined = (peak == -math.inf) | peak.isnan()
    return where(undefined, math.nan, where(vanishing, 0.0, out))


def _complex(real, imag):
    # real + 1j * imag would add +0 to each part, losing the sign of a zero
    out = np.empty(np.broadcast_shapes(np.shape(real), np.shape(imag)), np.complex128)
    out.real, out.imag = real, imag
    return out


def _complex_exp(z):
    """exp of complex z as glibc's cexp: exp(re) times cis(im), so exp(-inf + i y) is a zero
    with the signs of cos y and sin y (NumPy's drops them); a real z stays real."""
    re, im = z.real, z.imag
    magnitude = np.exp(re)
    real = np.where(im == 0, magnitude, magnitude * np.cos(im))
    imag = np.where(im == 0, im, magnitude * np.sin(im))
    unbounded = ~np.isfinite(im)  # C99's cexp: -inf + i inf is 0, +inf + i inf is inf + nan j
    real = np.where(unbounded & (re == np.inf), np.inf, real)
    return np.where(unbounded & (re == -np.inf), 0j, _complex(real, imag))


def _complex_log_add_exp(x, y):
    """PyTorch's _log_add_exp_helper for complex: log1p(exp(lo - hi)) + hi, ordered by real
    part; NaN anywhere gives nan + nan j, two equal infinite real parts their own answers."""
    x_low = x.real < y.real
    lo, hi = np.where(x_low, x, y), np.where(x_low, y, x)
    same_infinity = ~np.isfinite(lo.real) & (lo.real == hi.real)
    out = np.where(same_infinity, np.where(lo.real < 0, lo, np.log(_complex_exp(lo) + _complex_exp(hi))),
                   _log1p(_complex_exp(lo - hi)) + hi)
    nan = np.isnan(x.real) | np.isnan(x.imag) | np.isnan(y.real) | np.isnan(y.imag)
    return np.where(nan, complex(np.nan, np.nan), out)


def _complex_logcumsumexp(x, dim, reverse):
    """The running complex log-sum-exp along ``dim``, from -inf + 0j as PyTorch's kernel, one
    step per position (vectorised over the other dims), in complex128."""
    lines = np.moveaxis(x.astype(np.complex128), dim, -1)
    out = np.empty_like(lines)
    acc = np.full(lines.shape[:-1], complex(-np.inf, 0.0))
    for i in (reversed if reverse else iter)(range(lines.shape[-1])):
        acc = _complex_log_add_exp(lines[..., i], acc)
        out[..., i] = acc
    return np.moveaxis(out, -1, dim).astype(x.dtype)


def _logcumsumexp_forward(x, dim, reverse):
    # + 0.0: PyTorch adds log1p(exp(-inf)) = 0 to the first element too, so -0. comes out 0.
    if x.size == 0 or x.ndim == 0:  # nothing to add up, of any dtype; PyTorch copies a 0-d x
        return x.copy()
    if x.dtype.kind == "c":  # NumPy's logaddexp has no complex loop
        with np.errstate(all="ignore"):
            return _complex_logcumsumexp(x, dim, reverse)
    out = _scan(np.logaddexp, x, dim, reverse)
    return out + x.dtype.type(0)


LOGCUMSUMEXP = defop("logcumsumexp", _logcumsumexp_forward,
                     batch=dim_params(0), node="LogcumsumexpBackward0", save=lambda ans, x, dim, reverse: (x, ans, dim, reverse),
                     vjp=_logcumsumexp_grad, jvp=_logcumsumexp_tangent)


def _logcumsumexp(x, dim, reverse=False):
    return unary(LOGCUMSUMEXP, x, (dim, reverse))


def logcumsumexp(x, dim):
    dim = int_dim(dim, x._data.ndim, "logcumsumexp")
    _floating_only(x, "logcumsumexp_out_cpu")
    return _logcumsumexp(x, dim)


# --- Tensor methods --------------------------------------------------------------------------

Tensor.prod = prod
Tensor.cumsum = cumsum
Tensor.cumsum_ = inplace_method(cumsum, "cumsum_")
Tensor.cumprod = cumprod
Tensor.cumprod_ = inplace_method(cumprod, "cumprod_")
Tensor.cummax = cummax
Tensor.cummin = cummin
Tensor.logcumsumexp = logcumsumexp
