"""Reductions: sums, extremes and counts over some dims (variance: variance.py; norms: norms.py;
products: scans.py).

Every reduction takes PyTorch's ``dim`` (an int, a tuple, or None for every dim) and
``keepdim``. Its gradient is the incoming one broadcast back over the reduced dims
(``_unreduce``) times the local slope of each element: 1 for ``sum``, the centred value
for ``var``. Ops that pick elements (``max``, ``amax``, ``median``) send the gradient to
the picked ones only; where several elements tie, they share it evenly, as in PyTorch.

>>> x = chainrule.tensor([1.0, 3.0, 3.0], requires_grad=True)
>>> x.amax().backward()
>>> x.grad
tensor([0.0000, 0.5000, 0.5000])
"""
import builtins

import numpy as np

from ..._core import arguments as _argparse, dtype as _dtype
from ... import return_types
from ..._core.tensor import Tensor, _wrap, tensor_methods
from ..._autograd import engine
from ..._core.modes import GRAD_MODE
from ..pointwise.binary import maximum, minimum  # max(x, other) is maximum; chainrule.maximum comes through here
from ..operands import cast
from ..batching import batched_by, dim_params, on_batch
from ..registry import LINEAR, apply, defop, unary
from ..._core.dims import wrap_dim
from ..._core.arguments import reduced_dims, size_arg, wrap_dims
from ..pointwise.unary import exp

# --- helpers ------------------------------------------------------------------------------


def _type_name(np_dtype):
    """PyTorch's name for a dtype in its messages: Float, Long, Bool..."""
    return _dtype._LEGACY_NAMES[np.dtype(np_dtype).name]


def _reduce_args(x, dim):
    """The reduced dims as a sorted tuple (``shape.reduced_dims``); as in PyTorch's sums,
    an empty list of dims means every dim."""
    return reduced_dims(dim, x._data.ndim) or _all_dims(x)


def int_dim(dim, ndim, name):
    """``dim`` wrapped for ``ndim`` dims, for ops that take one int dim: PyTorch's TypeError
    (its keyword form) for anything else, where a tuple or None would slip into ``wrap_dim``."""
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"{name}(): argument 'dim' must be int, not {type(dim).__name__}")
    return wrap_dim(dim, ndim)


def _all_dims(x):
    return tuple(range(x._data.ndim))


def _unreduce(g, shape, dims, keepdim):
    """Broadcasts the gradient of a reduction over ``dims`` (None: all) back to ``shape``."""
    if dims and not keepdim:
        kept = list(g.shape)
        for d in sorted(dims):
            kept.insert(d, 1)
        g = g.reshape(kept)
    return g.expand(shape)


def _kept(ans, dims, keepdim):
    """``_unreduce`` for a NumPy array: the result with its reduced dims back, as size 1."""
    return ans if keepdim or not dims else np.expand_dims(ans, dims)


def _count(shape, dims):
    n = 1
    for d in (range(len(shape)) if dims is None else dims):
        n *= shape[d]
    return n


def _result_dtype(x, dtype):
    """The NumPy dtype a sum-like reduction returns: ``dtype`` if given, int64 for integer
    and bool inputs (PyTorch never sums in a narrower integer type), else the input's."""
    if dtype is not None:
        return dtype.np
    if x._data.dtype.kind in "biu":
        return np.dtype(np.int64)
    return x._data.dtype


def _check_autograd_dtype(x, out_dtype):
    """PyTorch refuses to record an integer result of a floating input that needs grad."""
    if x._requires_grad and GRAD_MODE.enabled and np.dtype(out_dtype).kind not in "fc":
        raise RuntimeError(f"Autograd not support dtype: {_type_name(out_dtype)}")


def _check_nonempty(x, name, dims):
    """Reducing nothing has no max; reducing a non-empty dim of an empty tensor is fine.
    As PyTorch's zero_numel_check_dims, the dims are checked in the caller's order and
    named as the caller wrote them (``amax(-1)``: "dim -1"), each wrapped on its turn."""
    if x._data.size == 0:
        if dims is None or not isinstance(dims, (int, np.integer)) and not len(dims):
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        for d in (dims,) if isinstance(dims, (int, np.integer)) else dims:
            if x._data.shape[wrap_dim(d, x._data.ndim)] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


# --- accumulation: as accurate as PyTorch's kernels ---------------------------------------------

# The type PyTorch's CPU scans (cumsum, cumprod, logcumsumexp) accumulate in (at::acc_type):
# float16 in float32, float32 in float64; its sums accumulate float16 in float32 as well.
_WIDER = {np.dtype(np.float16): np.dtype(np.float32), np.dtype(np.float32): np.dtype(np.float64),
          np.dtype(np.complex64): np.dtype(np.complex128)}


def wider(dtype):
    """The accumulation type of ``dtype`` in PyTorch's scans: one size up for floats below
    float64, else ``dtype`` itself.

    >>> wider(np.float32)   # dtype('float64')
    """
    return _WIDER.get(np.dtype(dtype), np.dtype(dtype))


def _sums_pairwise(a, dims):
    """Whether ``np.sum`` adds ``a`` over ``dims`` pairwise: only where its inner loop walks
    the reduced elements in memory order, i.e. they are the trailing dims of a C-contiguous
    array. Elsewhere (``sum(0)``) it adds row after row, an error growing with the count
    (1 % for 10**6 float32 rows)."""
    if dims is None or a.ndim <= 1:
        return a.flags.c_contiguous
    dims = sorted(d % a.ndim for d in (dims if isinstance(dims, (tuple, list)) else (dims,)))
    return a.flags.c_contiguous and dims == list(range(a.ndim - len(dims), a.ndim))


def wide_sum(a, dims, keepdims=False, dtype=None):
    """``np.sum`` of ``a`` (in ``dtype``, default its own) as accurate as PyTorch's cascade
    sum, left in the type it was added in: NumPy's pairwise sum where it applies (float16
    added in float32), else in float64 (complex128), rounded once by the caller. Callers
    that divide (mean) divide before rounding, so a float16 mean of big sums stays finite.

    >>> wide_sum(np.full((10**6, 2), 0.1, np.float32), (0,)).dtype   # dtype('float64')
    """
    out = np.dtype(dtype) if dtype is not None else a.dtype
    if out not in _WIDER:
        acc = out
    elif _sums_pairwise(a, dims):
        acc = np.dtype(np.float32) if out == np.float16 else out
    else:
        acc = np.dtype(np.complex128 if out.kind == "c" else np.float64)
    return np.sum(a, axis=dims, keepdims=keepdims, dtype=acc)


def accurate_sum(a, dims, keepdims=False, dtype=None):
    """``wide_sum`` rounded to ``dtype`` (default ``a``'s): every float sum of this package."""
    out = np.dtype(dtype) if dtype is not None else a.dtype
    return wide_sum(a, dims, keepdims, out).astype(out, copy=False)


# --- under vmap: functions that read values run once on the whole batch ------------------------

def past_batch(x, dim):
    """One sample's ``dim`` of ``x`` (an int, a tuple, or None: every dim) as the batch's
    dims: wrapped for the sample, then moved past the batch dim. A 0-d sample has no dims
    to move: callers reduce its batch ``b.unsqueeze(1)`` over dim 1 instead."""
    ndim = x._data.ndim
    if dim is None:
        return tuple(range(1, ndim + 1))
    if isinstance(dim, (int, np.integer)):
        return wrap_dim(dim, ndim) + 1
    return tuple(d + 1 for d in wrap_dims(dim, ndim))


# --- sum and mean -------------------------------------------------------------------------

def _in_dtype(x, dtype):
    """``x`` cast to ``dtype``, as sum and nansum add it (mean does not): PyTorch's
    ``int32.sum(dtype=float16)`` of 70000 - 70000 is nan."""
    with np.errstate(over="ignore", invalid="ignore"):
        return x.astype(dtype, copy=False)


def _sum(x, dims, keepdim, dtype):
    return accurate_sum(_in_dtype(x, dtype), dims, keepdim)


_SUM_RULES = dict(save=lambda ans, x, dims, keepdim, dtype: (x._data.shape, dims, keepdim, dtype),
                  vjp=lambda g, shape, dims, keepdim, dtype: _unreduce(g, shape, dims, keepdim),
                  jvp=lambda t, shape, dims, keepdim, dtype: _sum_over(t, dims, keepdim, dtype))

SUM = defop("sum", _sum, node="SumBackward0", batch=dim_params(0), **_SUM_RULES)
SUM_DIM = defop("sum_dim", _sum, node="SumBackward1", batch=dim_params(0), **_SUM_RULES)


def _sum_over(x, dims, keepdim, dtype=None):
    """The sum the rules use: over ``dims`` (None: every dim), in ``dtype``."""
    return unary(SUM if dims is None else SUM_DIM, x, (dims, keepdim, dtype or x._data.dtype))


def sum(x, dim=None, keepdim=False, *, dtype=None):
    out = _result_dtype(x, dtype)
    dims = None if dim is None and not keepdim else _reduce_args(x, () if dim is None else dim)
    _check_autograd_dtype(x, out)  # after the dims' checks, as PyTorch's
    if dims is None:
        return unary(SUM, x, (None, False, out))
    return unary(SUM_DIM, x, (dims, keepdim, out))


_ROUND_BEFORE_DIVIDING = (np.dtype(np.float32), np.dtype(np.complex64))


def _mean(x, dims, keepdim, dtype):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # the mean of nothing is nan, quietly
        total, count = wide_sum(x, dims, keepdim, dtype), _count(x.shape, dims)
        if np.dtype(dtype) in _ROUND_BEFORE_DIVIDING:  # PyTorch's float32 sum overflows at 3.4e38, then divides
            return np.asarray(total.astype(dtype) / np.asarray(count, dtype))  # (complex: as complex numbers)
        return (total / count).astype(dtype, copy=False)  # float16: added in float32, divided before rounding


_MEAN_RULES = dict(save=lambda ans, x, dims, keepdim, dtype: (x._data.shape, dims, keepdim, dtype),
                   vjp=lambda g, shape, dims, keepdim, dtype: _unreduce(g, shape, dims, keepdim) / _count(shape, dims),
                   jvp=lambda t, shape, dims, keepdim, dtype: _mean_over(t, dims, keepdim, dtype))

MEAN = defop("mean", _mean, node="MeanBackward0", batch=dim_params(0), **_MEAN_RULES)
MEAN_DIM = defop("mean_dim", _mean, node="MeanBackward1", batch=dim_params(0), **_MEAN_RULES)


def _mean_over(x, dims, keepdim, dtype=None):
    return unary(MEAN if dims is None else MEAN_DIM, x, (dims, keepdim, dtype or x._data.dtype))


def _floating_mean_dtype(x, dtype):
    if dtype is not None and dtype.np.kind not in "fc":
        raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating "
                           f"point or complex dtype. Got: {_type_name(dtype.np)}")
    if dtype is None and x._data.dtype.kind not in "fc":
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                           f"point or complex dtype. Got: {_type_name(x._data.dtype)}")
    return _result_dtype(x, dtype)


def mean(x, dim=None, keepdim=False, *, dtype=None):
    out = _floating_mean_dtype(x, dtype)
    if dim is None and not keepdim:
        return unary(MEAN, x, (None, False, out))
    return unary(MEAN_DIM, x, (_reduce_args(x, () if dim is None else dim), keepdim, out))


def _nansum(x, dims, keepdim, dtype):
    x = _in_dtype(x, dtype)
    return accurate_sum(np.where(x != x, 0, x) if x.dtype.kind in "fc" else x, dims, keepdim)


# NaNs count as zeros, so they get no gradient
NANSUM = defop("nansum", _nansum, node="NansumBackward0", batch=dim_params(0),
               save=lambda ans, x, dims, keepdim, dtype: (x, dims, keepdim, dtype),
               vjp=lambda g, x, dims, keepdim, dtype: _unreduce(g, x.shape, dims, keepdim) * (x == x),
               jvp=lambda t, x, dims, keepdim, dtype: _sum_over(t * (x == x), dims, keepdim, dtype))


def nansum(x, dim=None, keepdim=False, *, dtype=None):
    out = _result_dtype(x, dtype)
    dims = None if dim is None else _reduce_args(x, dim)
    if x._data.dtype.kind == "c":
        raise RuntimeError("nansum on CPU does not support complex inputs")
    _check_autograd_dtype(x, out)
    return unary(NANSUM, x, (dims, keepdim, out))


def _nanmean_batched(x, dim, keepdim, dtype):
    if x._data.ndim == 0:
        return on_batch(lambda b: nanmean(b.unsqueeze(1), 1, dtype=dtype), x)
    dims = past_batch(x, None if not isinstance(dim, int) and not dim else dim)  # (): every dim
    return on_batch(lambda b: nanmean(b, dims, keepdim, dtype=dtype), x)


@batched_by(_nanmean_batched, when=("x",))
def nanmean(x, dim=None, keepdim=False, *, dtype=None):
    """The mean of the non-NaN elements: ``nansum / count``, recorded as PyTorch does."""
    if x._data.dtype.kind not in "fc":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_type_name(x._data.dtype)}")
    count = _wrap(x._data == x._data).sum(dim, keepdim)
    return nansum(x, dim, keepdim, dtype=dtype) / count


# --- max, min, amax, amin, aminmax --------------------------------------------------------

def _ties(x, value):
    """The elements equal to a whole-tensor extreme or median ``value`` (all NaNs when it
    is NaN), as a bool tensor: they share the gradient evenly."""
    data, v = x._data, np.asarray(value._data)
    return _wrap(data != data if v != v else data == v)


def _evenly_distribute(g, x, ans):
    winners = _ties(x, ans)
    return winners * (g / winners.sum())


def _evenly_read(t, x, ans):
    """The tangent: the mean of the tied elements' tangents. As PyTorch's, a NaN result
    equals no element, so its tangent is NaN (0 / 0)."""
    winners = _wrap(x._data == np.asarray(ans._data))
    return (winners * (t / winners.sum())).sum()


# whole-tensor max, min and median: the elements equal to the result share its gradient
TIE_SHARING_RULES = dict(save=lambda ans, x: (x, ans),
                         vjp=lambda g, x, ans: _evenly_distribute(g, x, ans),
                         jvp=lambda t, x, ans: _evenly_read(t, x, ans))

def _whole_sample(op, args, batched, params, dtype):
    """``max()``/``min()`` of each sample: ``amax``/``amin`` of the flattened sample (the
    same ties-share-the-gradient rule)."""
    x = args[0]
    return apply(AMAX if op is MAX else AMIN, (x.reshape((x._data.shape[0], -1)),), ((1,), False), dtype)


MAX = defop("max", np.max, batch=_whole_sample, node="MaxBackward1", **TIE_SHARING_RULES)
MIN = defop("min", np.min, batch=_whole_sample, node="MinBackward1", **TIE_SHARING_RULES)


def _take_along(x, index, dim, keepdim):
    if x.ndim == 0:  # max(dim=0) of a 0-d tensor is the tensor itself
        return x.copy()
    out = np.take_along_axis(x, index, dim)
    return out if keepdim else out.squeeze(dim)


def _put_along(g, index, dim, keepdim, shape):
    """Zeros of ``shape`` with ``g`` added at ``index`` along ``dim``; indices may repeat
    (cummax picks one element many times), so the additions accumulate."""
    if not shape:
        return g.copy()
    out = np.zeros(shape, dtype=g.dtype)
    grid = list(np.ogrid[tuple(slice(n) for n in index.shape)])
    grid[dim] = index
    np.add.at(out, tuple(grid), g if keepdim else np.expand_dims(g, dim))
    return out


def _along_batch(op, args, batched, params, dtype):
    """``take_along``, ``put_along`` and the ops that pick like them, on a batch: the
    sample's index (a parameter, the same for every sample) broadcast over the batch dim,
    the dim moved past it, put_along's shape prefixed with the batch size. A 0-d sample
    (picked from itself, index 0-d) is a batch of one-element rows.

    >>> # max(dim=1) of each (3, 4) sample of a (B, 3, 4) batch: take_along dim 2, index (B, 3, 1)
    """
    x, (index, dim, keepdim), shape = args[0], params[:3], params[3:]
    size = x._data.shape[0]
    if index.ndim == 0:
        rows = np.zeros((size, 1), np.int64)
        return apply(op, (x.unsqueeze(1),), (rows, 1, True) + ((size, 1),) * len(shape), dtype).squeeze(1)
    shape = ((size,) + tuple(shape[0]),) if shape else ()
    return apply(op, (x,), (np.broadcast_to(index, (size,) + index.shape), dim + 1 if dim >= 0 else dim, keepdim)
                 + shape, dtype)


# the gradient of picking elements along a dim: put it back where it came from
PUT_ALONG = defop("put_along", _put_along, node="IndexBackward0", batch=_along_batch,
                  save=lambda ans, g, index, dim, keepdim, shape: (index, dim, keepdim, shape),
                  vjp=lambda gg, index, dim, keepdim, shape: unary(TAKE_ALONG, gg, (index, dim, keepdim)),
                  jvp=LINEAR)

# Ops that pick elements along a dim at known indices (max(dim), sort, median(dim)...)
# share these rules; ``index`` keeps the picked dim (size 1, or k for sort and topk).
PICK_RULES = dict(
    batch=_along_batch,
    save=lambda ans, x, index, dim, keepdim: (x._data.shape, index, dim, keepdim),
    vjp=lambda g, shape, index, dim, keepdim: unary(PUT_ALONG, g, (index, dim, keepdim, shape)),
    jvp=lambda t, shape, index, dim, keepdim: unary(TAKE_ALONG, t, (index, dim, keepdim)))

TAKE_ALONG = defop("take_along", _take_along, node="GatherBackward0", **PICK_RULES)
MAX_DIM = defop("max_dim", _take_along, node="MaxBackward0", **PICK_RULES)
MIN_DIM = defop("min_dim", _take_along, node="MinBackward0", **PICK_RULES)


def pick(op, x, index, dim, keepdim, result_type):
    """``result_type((values, indices))`` for an op that picked ``index`` (keepdims) along
    ``dim``: the values recorded with ``op``'s node, the indices as a plain int64 tensor."""
    values = unary(op, x, (index, dim, keepdim))
    indices = index if keepdim or x._data.ndim == 0 else index.squeeze(dim)
    return result_type((values, _wrap(indices.astype(np.int64))))


def _extreme(x, dim, keepdim, whole_op, dim_op, arg, result_type, name):
    """max or min: complex numbers have no order, and PyTorch says so after its checks of
    the shape, in one way for the whole tensor and another along a dim."""
    try:
        complex_ = x._data.dtype.kind == "c"
    except AttributeError:
        _argparse.check_tensor(name, x)
        raise
    if dim is None:
        _check_nonempty(x, name, None)
        if complex_:
            raise _dtype.not_implemented(f"{name}_all", x._data.dtype)
        return unary(whole_op, x)
    dim = int_dim(dim, x._data.ndim, name)
    _check_nonempty(x, name, (dim,))
    if complex_:
        raise RuntimeError(f"{name}(): does not support complex input")
    if x._data.ndim == 0:
        return pick(dim_op, x, np.zeros((), dtype=np.int64), dim, keepdim, result_type)
    return pick(dim_op, x, np.expand_dims(arg(x._data, axis=dim), dim), dim, keepdim, result_type)


def _extreme_batched(fn):
    """``max(dim)``/``min(dim)`` of each sample: one of the batch (``max()`` is an op with a rule)."""
    def rule(x, dim, keepdim):
        if not isinstance(dim, int):
            return NotImplemented
        if x._data.ndim == 0:
            wrap_dim(dim, 0)
            return on_batch(lambda b: fn()(b.unsqueeze(1), 1), x)
        return on_batch(lambda b: fn()(b, past_batch(x, dim), keepdim), x)
    return rule


@batched_by(_extreme_batched(lambda: max), when=("x",))
def max(x, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return maximum(x, dim)
    return _extreme(x, dim, keepdim, MAX, MAX_DIM, np.argmax, return_types.max, "max")


@batched_by(_extreme_batched(lambda: min), when=("x",))
def min(x, dim=None, keepdim=False):
    if isinstance(dim, Tensor):
        return minimum(x, dim)
    return _extreme(x, dim, keepdim, MIN, MIN_DIM, np.argmin, return_types.min, "min")


def _tie_share(x, ans, dims, keepdim):
    """1/k for each of the k elements of a slice equal to its extreme, 0 elsewhere: ties
    share the gradient evenly (a NaN extreme equals nothing, so its slope is NaN)."""
    winners = x._data == _kept(ans._data, dims, keepdim)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = winners / np.sum(winners, axis=dims, keepdims=True)
    return _wrap(share.astype(x._data.dtype))


_SHARED_RULES = dict(
    save=lambda ans, x, dims, keepdim: (x, ans, dims, keepdim),
    vjp=lambda g, x, ans, dims, keepdim: _unreduce(g, x.shape, dims, keepdim) * _tie_share(x, ans, dims, keepdim),
    jvp=lambda t, x, ans, dims, keepdim: _sum_over(t * _tie_share(x, ans, dims, keepdim), dims, keepdim))

def _first_zero_sign(x, out, dims, keepdim):
    """``out`` (an amax or amin) with each zero given the sign of the first zero of its
    slice, as PyTorch's amax/amin keep the first of equal elements: amax([-0., 0.]) is -0.
    (NumPy's max keeps the last, as PyTorch's max() does.)"""
    if x.dtype.kind != "f" or not dims or not np.any(out == 0):
        return out
    rows = np.moveaxis(x, dims, range(x.ndim - len(dims), x.ndim))
    rows = rows.reshape(rows.shape[:x.ndim - len(dims)] + (-1,))
    first = np.take_along_axis(rows, np.argmax(rows == 0, axis=-1)[..., None], -1)[..., 0]
    if keepdim:
        first = np.expand_dims(first, dims)
    return np.where(out == 0, np.copysign(0, first).astype(x.dtype), out)


def _amax(x, dims, keepdim):
    return _first_zero_sign(x, np.max(x, axis=dims, keepdims=keepdim), dims, keepdim)


def _amin(x, dims, keepdim):
    return _first_zero_sign(x, np.min(x, axis=dims, keepdims=keepdim), dims, keepdim)


AMAX = defop("amax", _amax, node="AmaxBackward0", batch=dim_params(0), **_SHARED_RULES)
AMIN = defop("amin", _amin, node="AminBackward0", batch=dim_params(0), **_SHARED_RULES)
AMINMAX_MIN = defop("aminmax_min", AMIN.forward, node="AminmaxBackward0", batch=dim_params(0), **_SHARED_RULES)
AMINMAX_MAX = defop("aminmax_max", AMAX.forward, node="AminmaxBackward0", batch=dim_params(0), **_SHARED_RULES)


def _amax_dims(x, dim, name):
    """amax's dims: ``()`` (the default) or None means every dim. Complex numbers have no
    order: PyTorch's kernel refuses them, after the checks of the dims."""
    every = dim is None or isinstance(dim, (tuple, list)) and not len(dim)
    if not every and not isinstance(dim, (int, np.integer, tuple, list)):
        _reduce_args(x, dim)  # refused there: PyTorch's argument parser comes first
    _check_nonempty(x, name, None if every else dim)
    dims = _all_dims(x) if every else _reduce_args(x, dim)
    if x._data.dtype.kind == "c" and x._data.size:  # no kernel runs on an empty input
        raise _dtype.not_implemented(f"{name[1:]}_values_cpu", x._data.dtype)
    return dims


def amax(x, dim=(), keepdim=False):
    return unary(AMAX, x, (_amax_dims(x, dim, "amax"), keepdim))


def amin(x, dim=(), keepdim=False):
    return unary(AMIN, x, (_amax_dims(x, dim, "amin"), keepdim))


def aminmax(x, *, dim=None, keepdim=False):
    complex_ = x._data.dtype.kind == "c"
    if dim is None:
        if x._data.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation "
                               "has no identity.")
        if complex_:
            raise _dtype.not_implemented("aminmax_cpu", x._data.dtype)
        dims = _all_dims(x)
    else:
        d = int_dim(dim, x._data.ndim, "aminmax")  # a 0-d tensor takes 0 or -1 and reduces nothing
        dims = (d,) if x._data.ndim else ()
        for d in dims:
            if x._data.shape[d] == 0:
                raise IndexError(f"aminmax: Expected reduction dim {d} to have non-zero size.")
        if complex_:  # the 0-d case has its own check, in its own words
            raise (_dtype.not_implemented("aminmax_cpu", x._data.dtype) if dims else
                   RuntimeError(f"aminmax not implemented for {_dtype.type_word(x._data.dtype)}"))
    return return_types.aminmax((unary(AMINMAX_MIN, x, (dims, keepdim)), unary(AMINMAX_MAX, x, (dims, keepdim))))


def _arg_checks(data, dim, name):
    """argmax's and argmin's checks of one sample's shape and dtype; its dim, wrapped."""
    if data.dtype.kind == "c":
        raise RuntimeError(f"{name}(): does not support complex input")
    if data.dtype.kind == "b":
        raise RuntimeError(f"{name}(): does not support bool input")
    if dim is None:
        if data.size == 0:
            raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
        return None
    dim = int_dim(dim, data.ndim, name)
    if data.ndim and data.shape[dim] == 0:
        raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")
    return dim


def _arg_extreme(x, dim, keepdim, arg, name):
    data = x._data
    dim = _arg_checks(data, dim, name)
    if dim is None:
        return _wrap(np.asarray(arg(data), dtype=np.int64).reshape((1,) * data.ndim if keepdim else ()))
    if data.ndim == 0:
        return _wrap(np.zeros((), dtype=np.int64))
    return _wrap(arg(data, axis=dim, keepdims=keepdim).astype(np.int64))


def _arg_extreme_batched(fn):
    """``fn()`` (argmax, argmin) of each sample: one of the batch, over each flattened
    sample for dim=None, as ``fn`` of one sample does."""
    def rule(x, dim, keepdim):
        def of_batch(b):
            ndim = x._data.ndim
            _arg_checks(x._data, dim, fn().__name__)
            if dim is None or ndim == 0:
                flat = fn()(b.reshape((b.shape[0], -1)), 1)
                return flat.reshape((b.shape[0],) + (1,) * ndim if keepdim else (b.shape[0],))
            return fn()(b, past_batch(x, dim), keepdim)
        return on_batch(of_batch, x)
    return rule


@batched_by(_arg_extreme_batched(lambda: argmax))
def argmax(x, dim=None, keepdim=False):
    return _arg_extreme(x, dim, keepdim, np.argmax, "argmax")


@batched_by(_arg_extreme_batched(lambda: argmin))
def argmin(x, dim=None, keepdim=False):
    return _arg_extreme(x, dim, keepdim, np.argmin, "argmin")


# --- logsumexp: its own rule, where exp would overflow ---------------------------------------

def _logsumexp(x, dims, keepdim):
    # complex: shift by the largest real part, as PyTorch (NumPy's max would order by both parts)
    peak = np.max(x.real, axis=dims, keepdims=True, initial=-np.inf).astype(x.dtype, copy=False)
    peak = np.where(np.isinf(peak), 0, peak)  # all -inf (or an inf): shift by nothing
    with np.errstate(divide="ignore"):
        out = np.log(accurate_sum(np.exp(x - peak), dims, True)) + peak
    return out if keepdim else np.squeeze(out, axis=dims)


def _logsumexp_tangent(t, x, ans, dims, keepdim):
    """PyTorch's logsumexp_jvp: the softmax of x (shifted by its largest element) times the
    tangent, over the dims. (Not exp(x - logsumexp): that rounds to 1 for two tied 1e30s;
    over no element, 0 / 0 = nan.)"""
    peak = (x.real if x.is_complex() else x).detach()
    numerators = exp(x - peak.amax(dims, keepdim=True)) if x.numel() else exp(x)
    return _sum_over(numerators * t, dims, keepdim) / _sum_over(numerators, dims, keepdim)


# the slope of logsumexp is softmax: exp(x - logsumexp), which never overflows
LOGSUMEXP = defop("logsumexp", _logsumexp, node="LogsumexpBackward0", batch=dim_params(0),
                  save=lambda ans, x, dims, keepdim: (x, ans, dims, keepdim),
                  vjp=lambda g, x, ans, dims, keepdim: (_unreduce(g, x.shape, dims, keepdim)
                                                        * exp(x - _unreduce(ans, x.shape, dims, keepdim))),
                  jvp=_logsumexp_tangent)


def logsumexp(x, dim, keepdim=False):
    if dim is None:
        raise TypeError("logsumexp(): argument 'dim' must be tuple of ints, not NoneType")
    if x._data.dtype.kind not in "fc":
        x = x.to(_dtype.get_default_dtype())
    return unary(LOGSUMEXP, x, (_reduce_args(x, dim), keepdim))


# --- logical and counting reductions: plain results, no gradient -------------------------------

def _logical(x, dim, keepdim, fn):
    data = x._data
    if dim is None:
        out = fn(data, axis=None, keepdims=keepdim)
    else:  # an empty tuple of dims reduces nothing here, unlike sum's
        out = fn(data, axis=reduced_dims(dim, data.ndim), keepdims=keepdim)
    out = np.asarray(out)
    return _wrap(out.astype(np.uint8) if data.dtype == np.uint8 else out)


@batched_by(lambda x, dim, keepdim: on_batch(lambda b: all(b, past_batch(x, dim) if x._data.ndim else (), keepdim), x))
def all(x, dim=None, keepdim=False):
    return _logical(x, dim, keepdim, np.all)


@batched_by(lambda x, dim, keepdim: on_batch(lambda b: any(b, past_batch(x, dim) if x._data.ndim else (), keepdim), x))
def any(x, dim=None, keepdim=False):
    return _logical(x, dim, keepdim, np.any)


@batched_by(lambda x, dim: on_batch(lambda b: count_nonzero(b, past_batch(x, dim) if x._data.ndim else ()), x))
def count_nonzero(x, dim=None):
    data = x._data
    dims = None if dim is None or not isinstance(dim, int) and not dim else reduced_dims(dim, data.ndim)
    return _wrap(np.asarray(np.sum(data != 0, axis=dims), dtype=np.int64))  # () counts over every dim


# --- sum_to_size: the engine's broadcast reduction ---------------------------------------

def _sum_to(x, shape):
    lead = x.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
    if not dims:
        return x.reshape(shape)
    # integers and bool sum to int64, as sum() does (NumPy's uint8 sum is uint64)
    return np.sum(x, axis=dims, keepdims=True, dtype=np.int64 if x.dtype.kind in "biu" else None).reshape(shape)


def _sum_to_batched(op, args, batched, params, dtype):
    """Each sample summed to ``shape``: the batch dim stays, the sample's extra leading
    dims are summed (kept as 1s, then dropped)."""
    x, shape = args[0], tuple(params[0])
    size, lead = x._data.shape[0], x._data.ndim - 1 - len(shape)
    out = apply(op, (x,), ((size,) + (1,) * lead + shape,), dtype)
    return out.reshape((size,) + shape) if lead else out


SUM_TO_SIZE = defop("sum_to_size", _sum_to, node="SumBackward1", batch=_sum_to_batched,
                    save=lambda ans, x, shape: (x._data.shape, shape),
                    vjp=lambda g, in_shape, shape: g.expand(in_shape),
                    jvp=lambda t, in_shape, shape: sum_to_size(t, shape))


def sum_to_size(x, shape):
    """Sums ``x`` down to ``shape`` (the shape it was broadcast from)."""
    shape = tuple(shape)
    if x._data.shape == shape:
        return x
    return unary(SUM_TO_SIZE, x, (shape,))


engine.use_ops(sum_to_size, cast)

# --- Tensor methods --------------------------------------------------------------------------


class _TensorMethods:
    def sum(self, dim=None, keepdim=False, *, dtype=None):
        return sum(self, dim, keepdim, dtype=dtype)

    def mean(self, dim=None, keepdim=False, *, dtype=None):
        return mean(self, dim, keepdim, dtype=dtype)

    def max(self, dim=None, keepdim=False):
        return max(self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return min(self, dim, keepdim)

    def argmax(self, dim=None, keepdim=False):
        return argmax(self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return argmin(self, dim, keepdim)

    def sum_to_size(self, *size):
        size, have = tuple(size_arg(size)), self._data.shape
        if len(size) > len(have) or builtins.any(s != 1 and s != h for s, h in zip(size[::-1], have[::-1])):
            raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(have)}}}.")
        return sum_to_size(self, size)

    def all(self, dim=None, keepdim=False):
        return all(self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        return any(self, dim, keepdim)


tensor_methods(_TensorMethods)
Tensor.nansum = nansum
Tensor.nanmean = nanmean
Tensor.amax = amax
Tensor.amin = amin
Tensor.aminmax = aminmax
Tensor.logsumexp = logsumexp
Tensor.count_nonzero = count_nonzero
