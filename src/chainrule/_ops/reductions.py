"""Reductions: sum, mean, max, min and their index forms.

A reduced gradient is broadcast back over the reduced dims (``_unreduce``); ``max`` and
``min`` send it to the winning elements only.
"""
import numpy as np

from .. import _dtype, return_types
from .._tensor import _wrap
from .registry import unary, defop
from .shape import wrap_dims


def _unreduce(g, shape, dims, keepdim):
    """Broadcasts the gradient of a reduction over ``dims`` back to the input ``shape``."""
    if not keepdim and dims:
        kept = list(g.shape)
        for d in sorted(dims):
            kept.insert(d, 1)
        g = g.reshape(kept)
    return g.expand(shape)


def _reduce_args(x, dim):
    """The reduced dims as a sorted tuple. As in PyTorch, an empty list of dims means every
    dim, and a 0-d tensor accepts dim 0 or -1 but has no axis to reduce."""
    ndim = x._data.ndim
    dims = wrap_dims(dim, ndim)
    if ndim == 0:
        return ()
    return dims if dims else tuple(range(ndim))


SUM = defop("sum", lambda x, dims, keepdim: np.sum(x, axis=dims, keepdims=keepdim),
            node="SumBackward0",
            save=lambda ans, x, dims, keepdim: (x._data.shape,),
            vjp=lambda g, shape: g.expand(shape), jvp=lambda t, shape: t.sum())

SUM_DIM = defop("sum_dim", lambda x, dims, keepdim: np.sum(x, axis=dims, keepdims=keepdim),
                node="SumBackward1",
                save=lambda ans, x, dims, keepdim: (x._data.shape, dims, keepdim),
                vjp=lambda g, shape, dims, keepdim: _unreduce(g, shape, dims, keepdim),
                jvp=lambda t, shape, dims, keepdim: sum(t, dims, keepdim))


def _int_sum_dtype(x, dtype):
    if dtype is not None:
        return dtype.np
    return np.dtype(np.int64) if x._data.dtype.kind in "biu" else None


def sum(x, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None and dtype.np != x._data.dtype:
        x = x.to(dtype)
    if dim is None:
        return unary(SUM, x, (None, False), _int_sum_dtype(x, dtype))
    return unary(SUM_DIM, x, (_reduce_args(x, dim), keepdim), _int_sum_dtype(x, dtype))


def _count(shape, dims):
    n = 1
    for d in (range(len(shape)) if dims is None else dims):
        n *= shape[d]
    return n


MEAN = defop("mean", lambda x, dims, keepdim: np.mean(x, axis=dims, keepdims=keepdim),
             node="MeanBackward0",
             save=lambda ans, x, dims, keepdim: (x._data.shape,),
             vjp=lambda g, shape: g.expand(shape) / _count(shape, None),
             jvp=lambda t, shape: t.mean())

MEAN_DIM = defop("mean_dim", lambda x, dims, keepdim: np.mean(x, axis=dims, keepdims=keepdim),
                 node="MeanBackward1",
                 save=lambda ans, x, dims, keepdim: (x._data.shape, dims, keepdim),
                 vjp=lambda g, shape, dims, keepdim: _unreduce(g, shape, dims, keepdim) / _count(shape, dims),
                 jvp=lambda t, shape, dims, keepdim: mean(t, dims, keepdim))


def mean(x, dim=None, keepdim=False, *, dtype=None):
    if dtype is not None:
        x = x.to(dtype)
    if x._data.dtype.kind not in "fc":
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a "
                           f"floating point or complex dtype. Got: {x.dtype.name.capitalize() if x.dtype.name != 'int64' else 'Long'}")
    if dim is None:
        return unary(MEAN, x, (None, False))
    return unary(MEAN_DIM, x, (_reduce_args(x, dim), keepdim))


# --- max / min -------------------------------------------------------------------------

def _evenly_distribute(g, x, ans):
    # ties share the gradient equally, as in PyTorch's max()/min() without a dim
    winners = x == ans
    return winners * (g / winners.sum())


MAX = defop("max", np.max, node="MaxBackward1", save=lambda ans, x: (x, ans),
            vjp=lambda g, x, ans: _evenly_distribute(g, x, ans),
            jvp=lambda t, x, ans: _evenly_distribute(t, x, ans).sum())

MIN = defop("min", np.min, node="MinBackward1", save=lambda ans, x: (x, ans),
            vjp=lambda g, x, ans: _evenly_distribute(g, x, ans),
            jvp=lambda t, x, ans: _evenly_distribute(t, x, ans).sum())


def _take_along(x, index, dim, keepdim):
    if x.ndim == 0:  # max(dim=0) of a 0-d tensor is the tensor itself
        return x.copy()
    out = np.take_along_axis(x, index, dim)
    return out if keepdim else out.squeeze(dim)


def _put_along(g, index, dim, keepdim, shape):
    if not shape:
        return g.copy()
    out = np.zeros(shape, dtype=g.dtype)
    np.put_along_axis(out, index, g if keepdim else np.expand_dims(g, dim), dim)
    return out


# the gradient of picking one element per slice: put it back where it came from
PUT_ALONG = defop("put_along", _put_along, node="IndexBackward0",
                  save=lambda ans, g, index, dim, keepdim, shape: (index, dim, keepdim, shape),
                  vjp=lambda gg, index, dim, keepdim, shape: unary(TAKE_ALONG, gg, (index, dim, keepdim)),
                  jvp=lambda t, index, dim, keepdim, shape: unary(PUT_ALONG, t, (index, dim, keepdim, shape)))

_take_along_rules = dict(
    save=lambda ans, x, index, dim, keepdim: (x._data.shape, index, dim, keepdim),
    vjp=lambda g, shape, index, dim, keepdim: unary(PUT_ALONG, g, (index, dim, keepdim, shape)),
    jvp=lambda t, shape, index, dim, keepdim: unary(TAKE_ALONG, t, (index, dim, keepdim)))

TAKE_ALONG = defop("take_along", _take_along, node="GatherBackward0", **_take_along_rules)
MAX_DIM = defop("max_dim", _take_along, node="MaxBackward0", **_take_along_rules)
MIN_DIM = defop("min_dim", _take_along, node="MinBackward0", **_take_along_rules)


def _check_nonempty(x, name, dim):
    """Reducing nothing has no max; reducing a non-empty dim of an empty tensor is fine."""
    if x._data.size == 0:
        if dim is None:
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        if x._data.ndim == 0 or x._data.shape[dim] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {dim} to have non-zero size.")


def _extreme(x, dim, keepdim, whole_op, dim_op, arg, result_type, name):
    if dim is None:
        _check_nonempty(x, name, None)
        return unary(whole_op, x)
    dim = wrap_dims(dim, x._data.ndim)[0]
    _check_nonempty(x, name, dim)
    if x._data.ndim == 0:
        index = np.zeros((), dtype=np.int64)
        return result_type((unary(dim_op, x, (index, dim, keepdim)), _wrap(index.copy())))
    index = np.expand_dims(arg(x._data, axis=dim), dim)
    values = unary(dim_op, x, (index, dim, keepdim))
    indices = index if keepdim else index.squeeze(dim)
    return result_type((values, _wrap(indices.astype(np.int64))))


def max(x, dim=None, keepdim=False):
    if _is_tensor(dim):
        return maximum(x, dim)
    return _extreme(x, dim, keepdim, MAX, MAX_DIM, np.argmax, return_types.max, "max")


def min(x, dim=None, keepdim=False):
    if _is_tensor(dim):
        return minimum(x, dim)
    return _extreme(x, dim, keepdim, MIN, MIN_DIM, np.argmin, return_types.min, "min")


def _is_tensor(x):
    return hasattr(x, "_data")


def maximum(x, other):
    return _ew.where((x >= other) | (other != other), x, other)


def minimum(x, other):
    return _ew.where((x <= other) | (other != other), x, other)


def argmax(x, dim=None, keepdim=False):
    if dim is None:
        return _wrap(np.asarray(np.argmax(x._data), dtype=np.int64))
    dim = wrap_dims(dim, x._data.ndim)[0]
    return _wrap(np.argmax(x._data, axis=dim, keepdims=keepdim).astype(np.int64))


def argmin(x, dim=None, keepdim=False):
    if dim is None:
        return _wrap(np.asarray(np.argmin(x._data), dtype=np.int64))
    dim = wrap_dims(dim, x._data.ndim)[0]
    return _wrap(np.argmin(x._data, axis=dim, keepdims=keepdim).astype(np.int64))


def all(x, dim=None, keepdim=False):
    axis = None if dim is None else wrap_dims(dim, x._data.ndim)
    return _wrap(np.asarray(np.all(x._data, axis=axis, keepdims=keepdim)))


def any(x, dim=None, keepdim=False):
    axis = None if dim is None else wrap_dims(dim, x._data.ndim)
    return _wrap(np.asarray(np.any(x._data, axis=axis, keepdims=keepdim)))


# --- sum_to_size: the engine's broadcast reduction ---------------------------------------

def _sum_to(x, shape):
    lead = x.ndim - len(shape)
    dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
    return np.sum(x, axis=dims, keepdims=True).reshape(shape) if dims else x.reshape(shape)


SUM_TO_SIZE = defop("sum_to_size", _sum_to, node="SumBackward1",
                    save=lambda ans, x, shape: (x._data.shape, shape),
                    vjp=lambda g, in_shape, shape: g.expand(in_shape),
                    jvp=lambda t, in_shape, shape: sum_to_size(t, shape))


def sum_to_size(x, shape):
    """Sums ``x`` down to ``shape`` (the shape it was broadcast from)."""
    shape = tuple(shape)
    if x._data.shape == shape:
        return x
    return unary(SUM_TO_SIZE, x, (shape,))


from . import elementwise as _ew  # noqa: E402  (max/min with a tensor use where)

_ = _dtype  # dtype objects are part of the reduction signatures
