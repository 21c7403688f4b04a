"""Scans and order statistics: running sums and products, sorting, selection, counting.

The gradient of a scan is the same scan run from the other end: ``cumsum``'s vjp is
``cumsum(g, reverse=True)``, and the rules of ``cumprod`` and ``logcumsumexp`` build on
it. Ops that pick elements (``sort``, ``topk``, ``median(dim)``, ``cummax``) compute
where they pick from, then record the values with ``reductions.PICK_RULES``: each
gradient goes back to the element it came from.

>>> x = chainrule.tensor([2.0, 0.0, 3.0], requires_grad=True)
>>> x.cumprod(0).sum().backward()   # zeros are handled without dividing by them
>>> x.grad
tensor([1., 8., 0.])
"""
import builtins
import math

import numpy as np

from .. import _argparse, _dtype, return_types
from .._tensor import Tensor, _wrap
from .._modes import FORWARD_AD
from .tangents import not_differentiable, not_implemented, refuse_tangents, tangent_of
from .._modes import GRAD_MODE
from .elementwise import where
from .joining import cat, stack
from .searching import _unequal_samples
from .methods import inplace_method
from .reductions import (PICK_RULES, PUT_ALONG, TAKE_ALONG, TIE_SHARING_RULES, _check_autograd_dtype, _check_nonempty, _count,
                         _reduce_args, _result_dtype, _sum_over, _type_name, _unreduce, int_dim, past_batch,
                         pick, sum, wider)
from .batching import any_batched, dim_params, dynamic_shape, on_batch, per_sample
from . import registry, stl_order
from .registry import Op, defop, record, unary
from .._dims import wrap_dim
from .unary import _log1p, abs, exp, log

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


def _no_complex_sort(x, name):
    if x._data.dtype.kind == "c":
        raise RuntimeError(f" {name} does not support complex dtypes on CPU")


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


def cummax(x, dim):
    if registry.BATCHING and any_batched(x):
        return _along_batch(x, dim, lambda b, d: cummax(b, d))
    return _running_extreme(x, dim, "cummax", CUMMAX, np.maximum.accumulate, return_types.cummax)


def cummin(x, dim):
    if registry.BATCHING and any_batched(x):
        return _along_batch(x, dim, lambda b, d: cummin(b, d))
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


# --- sorting ----------------------------------------------------------------------------------

def _sort_index(a, dim, descending=False):
    """A stable argsort along ``dim``; NaN sorts above everything, as in PyTorch. For
    descending order the reversed input is sorted ascending and the order reversed, which
    keeps ties in their original order and puts NaNs first."""
    if a.ndim == 0:
        return np.zeros((), dtype=np.int64)
    if not descending:
        return np.argsort(a, axis=dim, kind="stable")
    backwards = np.argsort(np.flip(a, dim), axis=dim, kind="stable")
    return a.shape[dim] - 1 - np.flip(backwards, dim)


def _cpu_sort_index(a, dim, descending, stable):
    """sort's order: PyTorch's CPU sort is std::sort unless ``stable``, which (an insertion
    sort up to 16 elements) keeps equal elements in order only in short rows."""
    index = _sort_index(a, dim, descending)
    if stable or a.ndim == 0 or a.shape[dim] <= 16:
        return index
    compare = stl_order.greater_nan_first if descending else stl_order.less_nan_last
    return stl_order.replayed(a, dim, index, lambda row: stl_order.sort(row, compare))


def _leading(index, dim, k):
    """The first ``k`` entries of ``index`` along ``dim``."""
    return index if index.ndim == 0 else np.take(index, np.arange(k), axis=dim)


SORT = defop("sort", TAKE_ALONG.forward, node="SortBackward0", **PICK_RULES)
SORT_STABLE = defop("sort_stable", TAKE_ALONG.forward, node="SortBackward1", **PICK_RULES)  # stable= given
TOPK = defop("topk", TAKE_ALONG.forward, node="TopkBackward0", **PICK_RULES)


def _sortable(x, name):
    """PyTorch's argument parser: ``input`` must be a tensor (complex is refused after the dims)."""
    if not isinstance(x, Tensor):
        _argparse.check_tensor(name, x)


def sort(x, dim=-1, descending=False, *, stable=None):
    """Sorted values and their indices, equal elements in the order PyTorch's CPU sort
    leaves them (``_cpu_sort_index``); passing ``stable`` also names the node differently."""
    if registry.BATCHING and any_batched(x):
        return _along_batch(x, dim, lambda b, d: sort(b, d, descending, stable=stable))
    _sortable(x, "sort")
    dim = int_dim(dim, x._data.ndim, "sort")
    _no_complex_sort(x, "Sort")
    op = SORT if stable is None else SORT_STABLE
    return pick(op, x, _cpu_sort_index(x._data, dim, descending, stable), dim, True, return_types.sort)


def argsort(x, dim=-1, descending=False, *, stable=False):
    if registry.BATCHING and any_batched(x):
        return _along_batch(x, dim, lambda b, d: argsort(b, d, descending, stable=stable))
    _sortable(x, "argsort")
    dim = int_dim(dim, x._data.ndim, "argsort")
    _no_complex_sort(x, "Sort")
    return _wrap(_cpu_sort_index(x._data, dim, descending, stable).astype(np.int64))


def msort(x):
    return sort(x, 0).values


def topk(x, k, dim=-1, largest=True, sorted=True):
    """The k largest (smallest) elements along ``dim``, in order; among equal elements, and
    in the order of sorted=False, the ones PyTorch's partial sort picks (stl_order)."""
    dim = int_dim(dim, x._data.ndim, "topk")
    size = x._data.shape[dim] if x._data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if x._data.dtype.kind == "b":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    _no_complex_sort(x, "topk")
    if registry.BATCHING and any_batched(x):
        return _along_batch(x, dim, lambda b, d: topk(b, k, d, largest, sorted))
    index = _leading(_sort_index(x._data, dim, descending=largest), dim, k)
    index = stl_order.replayed(x._data, dim, index, lambda row: stl_order.topk_row(row, k, largest, sorted),
                               every_row=not sorted)
    return pick(TOPK, x, index, dim, True, return_types.topk)


# --- selection: kthvalue, median, mode --------------------------------------------------------

KTHVALUE = defop("kthvalue", TAKE_ALONG.forward, node="KthvalueBackward0", **PICK_RULES)
MEDIAN_DIM = defop("median_dim", TAKE_ALONG.forward, node="MedianBackward1", **PICK_RULES)
NANMEDIAN_DIM = defop("nanmedian_dim", TAKE_ALONG.forward, node="NanmedianBackward1", **PICK_RULES)
MODE = defop("mode", TAKE_ALONG.forward, node="ModeBackward0", **PICK_RULES)


def kthvalue(x, k, dim=-1, keepdim=False):
    """The k-th smallest element along ``dim``; among equal elements, the one PyTorch's
    quickselect leaves at k (stl_order)."""
    dim = int_dim(dim, x._data.ndim, "kthvalue")
    size = x._data.shape[dim] if x._data.ndim else 1
    if size == 0:
        _check_nonempty(x, "kthvalue", (dim,))
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    if x._data.ndim:  # a 0-d tensor is its own k-th value, of any dtype
        _unordered(x, "kthvalue_cpu")
    if registry.BATCHING and any_batched(x):
        return _along_batch(x, dim, lambda b, d: kthvalue(b, k, d, keepdim))
    index = _sort_index(x._data, dim)
    if index.ndim:
        index = stl_order.replayed(x._data, dim, np.take(index, [k - 1], axis=dim),
                                   lambda row: stl_order.kthvalue_row(row, k))
    return pick(KTHVALUE, x, index, dim, keepdim, return_types.kthvalue)


def _median_index(a, dim, ignore_nan):
    """The lower median's index along ``dim`` (keepdims). With NaNs: the first NaN for
    median, the median of the other elements for nanmedian."""
    if a.ndim == 0:
        return np.zeros((), dtype=np.int64)
    order = np.argsort(a, axis=dim, kind="stable")  # NaNs last, in index order
    nan = a != a
    n = a.shape[dim]
    if ignore_nan:
        rank = np.maximum((n - np.sum(nan, axis=dim, keepdims=True) - 1) // 2, 0)
        index = np.take_along_axis(order, rank, dim)
        if not np.all(nan, axis=dim).any():
            return index
        # a row of NaNs only: the one PyTorch's std::nth_element leaves first
        first_nan = stl_order.nth_element([math.nan] * n, 0, stl_order.less_nan_last)[0]
        return np.where(np.all(nan, axis=dim, keepdims=True), first_nan, index)
    index = np.take(order, [(n - 1) // 2], axis=dim)
    return np.where(np.any(nan, axis=dim, keepdims=True), np.argmax(nan, axis=dim, keepdims=True), index)


def _median_all(x, ignore_nan):
    flat = np.sort(x.ravel(), kind="stable")  # (NumPy 2.4.6's default sort can turn a +0 into -0)
    nan = flat != flat
    if flat.size == 0 or (nan.any() and not ignore_nan):
        return np.asarray(np.nan).astype(x.dtype)
    count = flat.size - int(nan.sum()) if ignore_nan else flat.size
    median = flat[max((count - 1) // 2, 0)]
    zero_signs = np.signbit(flat[flat == 0]) if median == 0 and x.dtype.kind == "f" else np.zeros(1, bool)
    if zero_signs.any() and not zero_signs.all():
        # +0 and -0 tie: the zero PyTorch's std::nth_element leaves at k, over a copy of x
        # in memory order (its clone keeps a transposed layout)
        keys = x.ravel(order="K")
        median = keys[stl_order.nth_element(keys.tolist(), max((count - 1) // 2, 0), stl_order.less_nan_last)[
            max((count - 1) // 2, 0)]]
    return median


# the whole-tensor median shares its gradient among the elements equal to it, as max() does
MEDIAN = defop("median", lambda x: _median_all(x, False), node="MedianBackward0", **TIE_SHARING_RULES)
NANMEDIAN = defop("nanmedian", lambda x: _median_all(x, True), node="NanmedianBackward0", **TIE_SHARING_RULES)


def _median(x, dim, keepdim, ignore_nan):
    """median and nanmedian. PyTorch refuses bool and complex input in the words of its
    kernel, after the checks of the shape; an empty input's median is NaN in its dtype
    (True for bool) before any."""
    name = "nanmedian" if ignore_nan else "median"
    if dim is None:
        if x._data.size:
            _unordered(x, "median_cpu")
        if registry.BATCHING and any_batched(x) and x._data.size:
            # each flattened sample's median(dim) (ties: the gradient goes to the picked one, not shared)
            return on_batch(lambda b: _median(b.reshape((b.shape[0], -1)), 1, False, ignore_nan).values, x)
        if registry.BATCHING and any_batched(x):  # an empty sample's median is NaN
            return per_sample(median if not ignore_nan else nanmedian, x)
        return unary(NANMEDIAN if ignore_nan else MEDIAN, x)
    dim = int_dim(dim, x._data.ndim, name)
    _check_nonempty(x, "median", (dim,))
    _unordered(x, "median_out")
    if registry.BATCHING and any_batched(x):
        return _along_batch(x, dim, lambda b, d: _median(b, d, keepdim, ignore_nan))
    index = _median_index(x._data, dim, ignore_nan)
    op, result = (NANMEDIAN_DIM, return_types.nanmedian) if ignore_nan else (MEDIAN_DIM, return_types.median)
    return pick(op, x, index, dim, keepdim, result)


def median(x, dim=None, keepdim=False):
    """The lower of the two middle elements (no averaging); NaN if there is a NaN. Among
    equal elements the index is the middle one of a stable sort, which may differ from
    PyTorch's selection algorithm."""
    return _median(x, dim, keepdim, ignore_nan=False)


def nanmedian(x, dim=None, keepdim=False):
    return _median(x, dim, keepdim, ignore_nan=True)


def _mode_index(a, dim):
    """The most frequent value's index along ``dim`` (keepdims), as PyTorch's CPU kernel
    finds it: sort, take the longest run of equal values (the smallest value among equally
    long runs) and the last element of that run in sorted order."""
    if a.ndim == 0:
        return np.zeros((), dtype=np.int64)
    order = np.moveaxis(np.argsort(a, axis=dim, kind="stable"), dim, -1)
    values = np.take_along_axis(np.moveaxis(a, dim, -1), order, -1)
    ends = np.ones(values.shape, dtype=bool)
    ends[..., :-1] = values[..., 1:] != values[..., :-1]
    starts = np.ones(values.shape, dtype=bool)
    starts[..., 1:] = ends[..., :-1]
    position = np.arange(values.shape[-1])
    run_start = np.maximum.accumulate(np.where(starts, position, 0), axis=-1)
    run_length = np.where(ends, position - run_start + 1, 0)
    best = np.argmax(run_length, axis=-1, keepdims=True)
    return np.moveaxis(np.take_along_axis(order, best, -1), -1, dim)


def mode(x, dim=-1, keepdim=False):
    dim = int_dim(dim, x._data.ndim, "mode")
    _check_nonempty(x, "mode", (dim,))
    if x._data.size and x._data.ndim:  # a 0-d tensor is its own mode, of any dtype; nothing has none
        _unordered(x, "mode_cpu", bool_too=False)
    if registry.BATCHING and any_batched(x):
        return _along_batch(x, dim, lambda b, d: mode(b, d, keepdim))
    index = stl_order.replayed(x._data, dim, _mode_index(x._data, dim), stl_order.mode_row, nan_rows=True)
    return pick(MODE, x, index, dim, keepdim, return_types.mode)


# --- unique, bincount, histc: counting, with no gradient -------------------------------------------

def _no_derivative(node, error, message):
    """A node for a result that PyTorch marks as requiring grad although the op has no
    derivative: backward through it raises ``error(message)``. Not a registered op: it
    has no rules to register."""
    def refuse(g):
        raise error(message)
    return Op(node, None, node, refuse, refuse, None, False, False, False)


_UNIQUE_NODES = {
    "unique": _no_derivative("Unique2Backward0", NotImplementedError,
                             "the derivative for '_unique2' is not implemented."),
    "unique_dim": _no_derivative("UniqueDimBackward0", NotImplementedError,
                                 "the derivative for 'unique_dim' is not implemented."),
    "unique_consecutive": _no_derivative("UniqueConsecutiveBackward0", NotImplementedError,
                                         "the derivative for 'unique_consecutive' is not implemented."),
}
_BINCOUNT_NODE = _no_derivative("torch::autograd::NotImplemented", RuntimeError,
                                "derivative for aten::bincount is not implemented")

# and what forward AD says for each, in PyTorch's words
_FORWARD_AD_ERRORS = {
    "Unique2Backward0": not_implemented("_unique2"),
    "UniqueDimBackward0": not_implemented("unique_dim"),
    "UniqueConsecutiveBackward0": not_implemented("unique_consecutive"),
    "torch::autograd::NotImplemented": not_differentiable("bincount"),
}


def _without_derivative(op, data, source):
    """``data`` as a tensor; it requires grad (through ``op``, which refuses backward)
    when ``source`` does, as PyTorch's result does."""
    out = _wrap(data)
    if source is not None and source._requires_grad and GRAD_MODE.enabled and data.dtype.kind in "fc":
        record(op, out, (source,), ())
    if FORWARD_AD.active and source is not None:
        refuse_tangents((source,), _FORWARD_AD_ERRORS[op.name])
    return out


def _unique_checks(x, dim):
    """unique's and unique_consecutive's checks, in PyTorch's order: the dtype (complex
    numbers have no order), then ``dim`` (wrapped), then the empty dims along it."""
    a = x._data
    if a.dtype.kind == "c":
        raise _dtype.not_implemented("unique" if dim is None else "unique_dim", a.dtype)
    if dim is None:
        return None
    if a.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = wrap_dim(dim, a.ndim)
    if a.size == 0:
        if a.shape[dim] != 0:
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
        if a.shape.count(0) > 1:
            raise RuntimeError("Number of zero sized dimensions is more than one, so unique cannot be applied ")
    return dim


def _unique_dim(a, dim):
    """np.unique along ``dim``; an empty ``dim`` gives nothing. With a NaN or both zeros,
    PyTorch's own steps (see ``_unique_dim_replayed``)."""
    if a.shape[dim] == 0:
        return a, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if a.dtype.kind == "f":
        zero = a == 0
        if np.isnan(a).any() or ((zero & np.signbit(a)).any() and (zero & ~np.signbit(a)).any()):
            return _unique_dim_replayed(a, dim)
    return np.unique(a, return_inverse=True, return_counts=True, axis=dim)


def _rows_less(a, b):
    # PyTorch's unique_dim order: the first element that is < or > decides (a NaN never does)
    for left, right in zip(a, b):
        if left < right:
            return True
        if left > right:
            return False
    return False


def _unique_dim_replayed(a, dim):
    """PyTorch's CPU unique_dim: std::sort of the slices (lexicographic, NaN comparing false
    either way), then each slice kept unless it equals (==, so never with a NaN) the last
    one kept; -0. and 0. merge into the first in that order."""
    moved = np.moveaxis(a, dim, 0)
    rows = moved.reshape(moved.shape[0], -1)
    keys = [tuple(r) for r in rows.tolist()]
    order = stl_order.sort(keys, _rows_less)
    kept, counts, start = [order[0]], [], 0
    inverse = np.zeros(len(keys), dtype=np.int64)
    for position in range(1, len(order)):
        current = order[position]
        if not builtins.all(left == right for left, right in zip(keys[current], keys[kept[-1]])):
            kept.append(current)
            counts.append(position - start)
            start = position
        inverse[current] = len(kept) - 1
    counts.append(len(order) - start)
    values = np.moveaxis(moved[kept], 0, dim)
    return values, inverse, np.asarray(counts, dtype=np.int64)


def _unique_results(x, node, values, inverse, counts, return_inverse, return_counts):
    out = [_without_derivative(_UNIQUE_NODES[node], values, x)]
    if return_inverse:
        out.append(_wrap(np.asarray(inverse, dtype=np.int64)))
    if return_counts:
        out.append(_wrap(np.asarray(counts, dtype=np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


_REPLAY_AT_MOST = 10 ** 5  # elements: the replay is a Python loop; past it, the first zero in memory order


def _unique_zero_sign(flat, values):
    """PyTorch's unique std::sorts the elements and keeps the first of each run of equals: of
    -0. and 0. the one libstdc++'s introsort (NaN last) leaves first (the first in memory order below 17
    elements, where it is an insertion sort), replayed where both are present."""
    zeros = flat[flat == 0] if flat.dtype.kind == "f" else flat[:0]
    if not (np.signbit(zeros).any() and (~np.signbit(zeros)).any()):
        return values
    if flat.size <= _REPLAY_AT_MOST:
        keys = flat.tolist()
        first = next(keys[i] for i in stl_order.sort(keys, stl_order.less_nan_last) if keys[i] == 0)
    else:
        first = zeros[0]
    return np.where(values == 0, flat.dtype.type(first), values)


def unique(x, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements (slices along ``dim``) in ascending order, as PyTorch's CPU
    kernel returns them whether or not ``sorted``. NaNs are all distinct."""
    if registry.BATCHING and any_batched(x):
        raise dynamic_shape("_unique2")
    a = x._data
    dim = _unique_checks(x, dim)
    if dim is None:
        values, inverse, counts = np.unique(a.ravel(), return_inverse=True, return_counts=True, equal_nan=False)
        inverse = inverse.reshape(a.shape)
        values = _unique_zero_sign(a.ravel(), values)
        return _unique_results(x, "unique", values, inverse, counts, return_inverse, return_counts)
    values, inverse, counts = _unique_dim(a, dim)
    return _unique_results(x, "unique_dim", values, inverse.reshape(-1), counts, return_inverse, return_counts)


def unique_consecutive(x, return_inverse=False, return_counts=False, dim=None):
    """Collapses each run of equal consecutive elements (slices along ``dim``) to one."""
    a = x._data
    if dim == 0 and a.ndim == 1:  # PyTorch's shortcut: the elements, as for dim=None
        dim = None
    dim = _unique_checks(x, dim)
    if dim is None:
        rows = a.reshape(-1, 1)
    elif a.shape[dim] == 0:
        return _unique_results(x, "unique_consecutive", a, np.zeros(0, np.int64), np.zeros(0, np.int64),
                               return_inverse, return_counts)
    else:
        rows = np.moveaxis(a, dim, 0).reshape(a.shape[dim], -1)
    new_run = np.ones(rows.shape[0], dtype=bool)
    new_run[1:] = np.any(rows[1:] != rows[:-1], axis=1)
    starts = np.flatnonzero(new_run)
    counts = np.diff(np.append(starts, rows.shape[0]))
    inverse = np.cumsum(new_run) - 1
    if dim is None:
        values, inverse = a.reshape(-1)[starts], inverse.reshape(a.shape)
    else:
        values = np.take(a, starts, axis=dim)
    return _unique_results(x, "unique_consecutive", values, inverse, counts, return_inverse, return_counts)


def bincount(input, weights=None, minlength=0):
    a = input._data
    if a.dtype.kind not in "iu":
        raise NotImplementedError(f'"bincount_cpu" not implemented for \'{_type_name(a.dtype)}\'')
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if a.ndim != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if registry.BATCHING and any_batched(input, weights):
        return _bincount_rows(input, weights, minlength)
    if a.size == 0:
        return _wrap(np.zeros(minlength, dtype=np.int64))
    if a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return _wrap(np.bincount(a, minlength=minlength).astype(np.int64))
    w = weights._data
    if w.ndim != 1 or w.shape[0] != a.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out_dtype = np.float32 if w.dtype == np.float32 else np.float64
    counts = np.bincount(a, weights=w.astype(np.float64), minlength=minlength).astype(out_dtype)
    return _without_derivative(_BINCOUNT_NODE, counts, weights)


def _bincount_rows(x, weights, minlength):
    """``bincount`` of each sample of a batch (1-d samples; batch dims first, one per vmap
    level) in one ``np.bincount``: row r counts into bins ``r * length...``. Every sample
    must give the same length, as PyTorch's vmap (a loop) stacks them.

    >>> vmap(lambda x: bincount(x, minlength=4))(tensor([[0, 1], [3, 3]]))  # [[1, 1, 0, 0], [0, 0, 0, 2]]
    """
    if registry.BATCHING and any_batched(x, weights):
        return on_batch(lambda b, w: _bincount_rows(b, w, minlength), x, weights)
    a = x._data
    lead, n = a.shape[:-1], a.shape[-1]
    rows = a.reshape((int(np.prod(lead)), n))
    if n and a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and n and weights._data.shape != a.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    lengths = np.maximum(rows.max(axis=1) + 1, minlength) if n else np.full(rows.shape[0], minlength)
    if lengths.size and np.any(lengths != lengths[0]):
        raise _unequal_samples([(int(count),) for count in lengths])
    length = int(lengths[0]) if lengths.size else minlength
    flat = (rows + np.arange(rows.shape[0]).reshape(-1, 1) * length).reshape(-1)
    if weights is None or not n:
        counts = np.bincount(flat, minlength=rows.shape[0] * length).astype(np.int64)
        return _wrap(counts.reshape(lead + (length,)))
    w = weights._data
    out_dtype = np.float32 if w.dtype == np.float32 else np.float64
    counts = np.bincount(flat, weights=w.astype(np.float64).reshape(-1), minlength=rows.shape[0] * length)
    return _without_derivative(_BINCOUNT_NODE, counts.astype(out_dtype).reshape(lead + (length,)), weights)


def histc(input, bins=100, min=0, max=0):
    """Counts in ``bins`` equal bins between min and max (the data's range when both are
    equal); the bin of each element computed in the input's precision, as PyTorch does.
    PyTorch's order: bins, the range (from aminmax: none for complex), its checks, the bin
    edges (a linspace in the input's dtype: none for bool, an overflow check for integers),
    then the counting kernel (floats only)."""
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    return _histc_rows(input, bins, min, max, 0)


def _cpp_number(v):
    # C++'s ostream: %g, and the sign of a NaN
    return ("-nan" if np.signbit(v) else "nan") if v != v else f"{v:g}"


def _data_range(rows):
    """aminmax of each row, as PyTorch's (a NaN among two or more elements is its default
    NaN, -nan; a lone element is itself)."""
    lo, hi = rows.min(axis=1).astype(np.float64), rows.max(axis=1).astype(np.float64)
    if rows.shape[1] > 1:
        nan = np.isnan(lo)
        lo, hi = np.where(nan, -np.nan, lo), np.where(nan, -np.nan, hi)
    return lo, hi


def _histc_rows(x, bins, min, max, batch_dims):
    """``histc`` of each sample of ``x`` (its first ``batch_dims`` dims are batch dims, one
    per vmap level), in one ``np.bincount``: row r counts into bins ``r * bins...``; each
    sample gets its own range when ``min == max``."""
    if registry.BATCHING and any_batched(x):
        return on_batch(lambda b: _histc_rows(b, bins, min, max, batch_dims + 1), x)
    a = x._data
    kind = a.dtype.kind
    lead = a.shape[:batch_dims]
    rows = a.reshape((int(np.prod(lead)), -1))
    lo, hi = np.full(rows.shape[0], float(min)), np.full(rows.shape[0], float(max))
    if min == max and rows.shape[1]:
        if kind == "c":
            raise _dtype.not_implemented("aminmax_cpu", a.dtype)
        lo, hi = _data_range(rows)
    same = lo == hi
    if kind == "f":  # one apart, in the input's dtype, and at least to the neighbouring numbers
        # (1e30 - 1 is 1e30, and inf - 1 is the largest float)
        # (float16 keeps them in double, checked when converted to Half below)
        below, above = (lo - 1), (hi + 1)
        if a.dtype != np.float16:
            below, above = below.astype(a.dtype), above.astype(a.dtype)
            below = np.minimum(below, np.nextafter(lo.astype(a.dtype), a.dtype.type(-np.inf)))
            above = np.maximum(above, np.nextafter(hi.astype(a.dtype), a.dtype.type(np.inf)))
        lo, hi = np.where(same, below, lo), np.where(same, above, hi)
    else:
        lo, hi = np.where(same, lo - 1, lo), np.where(same, hi + 1, hi)
    for low, high in zip(lo, hi):  # the checks, in sample order (numbers only: no loop over the values)
        if not (np.isfinite(low) and np.isfinite(high)):
            raise RuntimeError(f"torch.histc: range of [{_cpp_number(low)}, {_cpp_number(high)}] is not finite")
        if low >= high:
            raise RuntimeError("torch.histc: max must be larger than min")
    if kind == "b":
        raise _dtype.not_implemented("linspace_cpu", a.dtype)
    if kind in "iu" or a.dtype == np.float16:  # the edges converted to the input's dtype, checked (no wrapping)
        info = np.iinfo(a.dtype) if kind in "iu" else np.finfo(a.dtype)
        if ((lo < info.min) | (lo > info.max) | (hi < info.min) | (hi > info.max)).any():
            raise RuntimeError(f"value cannot be converted to type {_dtype._C_SCALAR_NAMES[a.dtype.name]} "
                               "without overflow")
    if kind != "f":
        raise _dtype.not_implemented("histogram_cpu", a.dtype)
    left, right = lo.astype(a.dtype).reshape(-1, 1), hi.astype(a.dtype).reshape(-1, 1)
    inside = (rows >= left) & (rows <= right)
    with np.errstate(over="ignore", invalid="ignore"):
        position = np.where(right > left, (rows - left) * bins / (right - left), 0).astype(np.int64)  # (float16 edges may meet)
    position = np.minimum(position, bins - 1) + np.arange(rows.shape[0]).reshape(-1, 1) * bins  # right edge: last bin
    counts = np.bincount(position[inside], minlength=rows.shape[0] * bins).astype(a.dtype)
    return _wrap(counts.reshape(lead + (bins,)))


# --- Tensor methods --------------------------------------------------------------------------

Tensor.prod = prod
Tensor.cumsum = cumsum
Tensor.cumsum_ = inplace_method(cumsum, "cumsum_")
Tensor.cumprod = cumprod
Tensor.cumprod_ = inplace_method(cumprod, "cumprod_")
Tensor.cummax = cummax
Tensor.cummin = cummin
Tensor.logcumsumexp = logcumsumexp
Tensor.sort = sort
Tensor.argsort = argsort
Tensor.msort = msort
Tensor.topk = topk
Tensor.kthvalue = kthvalue
Tensor.median = median
Tensor.nanmedian = nanmedian
Tensor.mode = mode
Tensor.unique = unique
Tensor.unique_consecutive = unique_consecutive
Tensor.bincount = bincount
Tensor.histc = histc
