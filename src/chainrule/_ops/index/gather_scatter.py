"""``gather`` and the ``scatter`` ops: reading and writing element by element along a dim.

Each is one entry whose gradient is another op of this file: ``gather``'s is
``scatter_add`` into zeros, ``scatter_add``'s is ``gather``. The other index ops
(``along_dim``, ``masked``, ``take_put``) run as a gather or scatter of the batch under
vmap, so they import from here.

>>> gather(x, 0, tensor([[1, 0]]))   # out[0][j] = x[index[0][j]][j]
"""
import numpy as np

from ..._core.tensor import Tensor, _wrap
from ..pointwise import elementwise as ew
from ..methods import inplace_method
from ..batching import batched_by, index_params, on_batch, per_sample_where, scalar_input
from ..registry import FROM_VJP, Op, apply, broadcast_error, defop, unary
from ..._core.dims import wrap_dim, wrap_dim_then_size
from .indexing import _copy, _first_bad, _full, _name, _scalar, _tensor_arg, _values, _vector, _zeros

# --- gather and scatter -----------------------------------------------------------------------------


def _along(index, dim):
    """Where gather reads and scatter writes: ``index`` along ``dim``, and each other dim
    its own position (for dim 0, element ``(i, j)`` goes with ``(index[i, j], j)``)."""
    coords = list(np.indices(index.shape, sparse=True))
    coords[dim] = index
    return tuple(coords)


def _part(src, index):
    """The leading part of ``src`` that scatter uses: ``index``'s shape."""
    return src[tuple(slice(0, s) for s in index.shape)]


def _gather(x, dim, index):
    return _vector(x)[_along(_vector(index), dim)].reshape(index.shape)


GATHER = defop("gather", _gather, batch=index_params(0, 1), node="GatherBackward0",
               save=lambda ans, x, dim, index: (x._data.shape, dim, index),
               vjp=lambda g, shape, dim, index: apply(SCATTER_ADD, (_zeros(shape, g), g), (dim, index)),
               jvp=lambda t, shape, dim, index: unary(GATHER, t, (dim, index)))


def _gather_args(fn, input, dim, index, src=None):
    """PyTorch's checks of gather's and scatter's arguments, in its order: dim, dtypes,
    then index's shape against input's (and src's), then the index values."""
    data = _tensor_arg(index, fn, "index", 3)
    x = input._data
    dim = wrap_dim(dim, x.ndim)
    if data.dtype not in (np.int64, np.int32):
        if data.size:  # an empty index selects nothing, whatever its dtype
            raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")
        data = data.astype(np.int64)
    if src is not None and src._data.dtype != x.dtype:
        raise RuntimeError(f"{fn}(): Expected self.dtype to be equal to src.dtype")
    if max(data.ndim, 1) != max(x.ndim, 1):
        raise RuntimeError(f"Index tensor must have the same number of dimensions as {'input' if fn == 'gather' else 'self'} "
                           f"tensor")
    shape, index_shape = _vector(x).shape, _vector(data).shape
    if fn == "gather":
        for d, size in enumerate(index_shape):
            if d != dim and size > shape[d]:
                raise RuntimeError(f"Size does not match at dimension {d} expected index {list(data.shape)} to be no "
                                   f"larger than self {list(x.shape)} apart from dimension {dim}")
    else:
        wrong = any(d != dim and size > shape[d] for d, size in enumerate(index_shape))
        if not wrong and src is not None:
            src_shape = _vector(src._data).shape
            wrong = any(size > src_shape[wrap_dim(d, len(src_shape))] for d, size in enumerate(index_shape))
        if wrong:
            message = f"Expected index {list(data.shape)} to be no larger than self {list(x.shape)} apart from dimension {dim}"
            if src is not None:
                message += f" and to be no larger size than src {list(src._data.shape)}"
            raise RuntimeError(message)
    bad = _first_bad(_values(index), shape[dim])
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {shape[dim]}")
    return dim, data


@batched_by(per_sample_where(scalar_input), when=("index",))
def gather(input, dim, index, *, sparse_grad=False):
    """``out[i][j] = input[index[i][j]][j]`` for dim 0 (and alike for other dims)."""
    dim, data = _gather_args("gather", input, dim, index)
    return _gather_checked(input, dim, index, data)


# a batched index (a 0-d sample loops, above): the op once on the batch, its dim past the batch dim
@batched_by(lambda input, dim, index, data: on_batch(lambda b, i: gather(b, dim + 1, i), input, index),
            when=("index",))
def _gather_checked(input, dim, index, data):
    return unary(GATHER, input, (dim, data))


def _scatter(x, src, dim, index):
    out = _copy(x)
    index = _vector(index)
    _vector(out)[_along(index, dim)] = _part(_vector(src), index)
    return out


def _scatter_value(x, dim, index, value):
    out = _copy(x)
    _vector(out)[_along(_vector(index), dim)] = value
    return out


def _scatter_add(x, src, dim, index):
    out = _copy(x)
    index = _vector(index)
    np.add.at(_vector(out), _along(index, dim), _part(_vector(src), index))
    return out


def _zeroed_at(g, dim, index):
    return unary(SCATTER_VALUE, g, (dim, index, np.zeros((), g._data.dtype)))


SCATTER = defop(
    "scatter", _scatter, batch=index_params(0, 1), node="ScatterBackward0",
    save=lambda ans, x, src, dim, index: (ans._data.shape, dim, index),
    vjp=(lambda g, shape, dim, index: _zeroed_at(g, dim, index),
         lambda g, shape, dim, index: unary(GATHER, g, (dim, index))),
    jvp=(lambda t, shape, dim, index: _zeroed_at(t, dim, index),
         lambda t, shape, dim, index: apply(SCATTER, (_zeros(shape, t), t), (dim, index))))

SCATTER_VALUE = defop("scatter_value", _scatter_value, batch=index_params(0, 1), node="ScatterBackward1",
                      save=lambda ans, x, dim, index, value: (dim, index),
                      vjp=lambda g, dim, index: _zeroed_at(g, dim, index),
                      jvp=FROM_VJP)

SCATTER_ADD = defop(
    "scatter_add", _scatter_add, batch=index_params(0, 1), node="ScatterAddBackward0",
    save=lambda ans, x, src, dim, index: (ans._data.shape, dim, index),
    vjp=(lambda g, shape, dim, index: g,
         lambda g, shape, dim, index: unary(GATHER, g, (dim, index))),
    jvp=(lambda t, shape, dim, index: t,
         lambda t, shape, dim, index: apply(SCATTER_ADD, (_zeros(shape, t), t), (dim, index))))


def _not_differentiable(g, *saved):
    raise RuntimeError("derivative for aten::scatter is not implemented")


def _scatter_legacy_reduce(x, src, dim, index, reduce):
    out = _copy(x)
    index = _vector(index)
    ufunc = np.add if reduce == "add" else np.multiply
    ufunc.at(_vector(out), _along(index, dim), src if src.ndim == 0 else _part(_vector(src), index))
    return out


# scatter(..., reduce="add" | "multiply") has no derivative in PyTorch: its node says so
# when backward (or a forward-mode tangent) reaches it. An Op outside the registry: the
# registry holds ops with rules, each checked by test_ops; this one has none to check.
SCATTER_LEGACY_REDUCE = Op("scatter_legacy_reduce", _scatter_legacy_reduce, "torch::autograd::NotImplemented",
                           vjp=(_not_differentiable, _not_differentiable), jvp=(_not_differentiable, _not_differentiable),
                           save=None, is_view=False, elementwise=False, number_operand=False)


@batched_by(per_sample_where(scalar_input), when=("index",))
def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """``input`` with ``src[i][j]`` (or ``value``) written at ``[index[i][j]][j]`` for dim 0
    (and alike for other dims). Repeated indices: one of the writes wins."""
    if src is not None and not isinstance(src, Tensor):
        src, value = None, src
    dim, data = _gather_args("scatter", input, dim, index, src)
    return _scatter_checked(input, dim, index, src, value, reduce, data)


@batched_by(lambda input, dim, index, src, value, reduce, data: on_batch(
    lambda b, i, s: scatter(b, dim + 1, i, s, value, reduce=reduce), input, index, src), when=("index",))
def _scatter_checked(input, dim, index, src, value, reduce, data):
    if reduce is not None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
        if src is None:
            src = _wrap(_scalar(value, input._data.dtype))
        return apply(SCATTER_LEGACY_REDUCE, (input, src), (dim, data, reduce))
    if src is None:
        return unary(SCATTER_VALUE, input, (dim, data, _scalar(value, input._data.dtype)))
    return apply(SCATTER, (input, src), (dim, data))


@batched_by(per_sample_where(scalar_input), when=("index",))
def scatter_add(input, dim, index, src):
    """``input`` with each ``src[i][j]`` added at ``[index[i][j]][j]`` for dim 0; repeated
    indices add up."""
    _tensor_arg(src, "scatter_add", "src", 4)
    dim, data = _gather_args("scatter", input, dim, index, src)
    return _scatter_add_checked(input, dim, index, src, data)


@batched_by(lambda input, dim, index, src, data: on_batch(lambda b, i, s: scatter_add(b, dim + 1, i, s),
                                                          input, index, src), when=("index",))
def _scatter_add_checked(input, dim, index, src, data):
    return apply(SCATTER_ADD, (input, src), (dim, data))


_REDUCTIONS = {"sum": np.add, "prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}


def _identity(reduce, dtype):
    """What a position holds before scatter_reduce(include_self=False) reduces into it."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dtype) if dtype.kind in "iu" else None
    if reduce == "amax":
        return -np.inf if info is None else info.min
    return np.inf if info is None else info.max


def _scatter_reduce(x, src, dim, index, reduce, include_self):
    out = _copy(x)
    index = _vector(index)
    flat, where = _vector(out), _along(index, dim)
    if not include_self:
        flat[where] = _identity(reduce, x.dtype)
    _REDUCTIONS[reduce].at(flat, where, _part(_vector(src), index))
    if reduce == "mean":
        count = np.full(flat.shape, int(include_self))
        np.add.at(count, where, 1)
        count = np.maximum(count, 1)
        flat[...] = flat // count if x.dtype.kind in "iub" else flat / count
    return out


def _scatter_reduce_slopes(x, src, ans, dim, index, reduce, include_self):
    """d out / d x (x's shape) and d out[index] / d src (index's shape) of scatter_reduce,
    as PyTorch's ``scatter_reduce_backward`` computes them: ties of amax and amin share
    the gradient evenly; prod divides by the operand, with zeros counted apart. Written
    with chainrule's ops, so they stay differentiable."""
    index = _wrap(index)
    one = _wrap(np.ones((), x._data.dtype))
    if reduce == "sum":
        slope_x, slope_src = one, one
    elif reduce == "mean":
        count = _full(x, int(include_self)).scatter_add(dim, index, _full(src, 1))
        count = count.masked_fill(count == 0, 1)
        slope_x, slope_src = 1 / count, 1 / count.gather(dim, index)
    elif reduce == "prod":
        masked_x = x.masked_fill(x == 0, 1)
        slope_x = masked_x.scatter_reduce(dim, index, src, "prod", include_self=include_self) / masked_x
        src_zero = src == 0
        zeros = _full(x, 0).scatter_add(dim, index, src_zero.to(x.dtype)).gather(dim, index)
        single = src_zero & (zeros == 1)
        without = x.scatter_reduce(dim, index, src.masked_fill(single, 1), "prod", include_self=include_self)
        slope_src = ew.where(single, without.gather(dim, index), ans.gather(dim, index) / src.masked_fill(src_zero, 1))
    else:
        x_wins, src_wins = (x == ans).to(x.dtype), (src == ans.gather(dim, index)).to(x.dtype)
        ties = x_wins.scatter_add(dim, index, src_wins)
        slope_x, slope_src = x_wins / ties, src_wins / ties.gather(dim, index)
    if not include_self:
        slope_x = (slope_x * _full(x, 1)).scatter(dim, index, 0)
    return slope_x, slope_src


def _reduce_vjp_x(g, x, src, ans, dim, index, reduce, include_self):
    return g * _scatter_reduce_slopes(x, src, ans, dim, index, reduce, include_self)[0]


def _reduce_vjp_src(g, x, src, ans, dim, index, reduce, include_self):
    return unary(GATHER, g, (dim, index)) * _scatter_reduce_slopes(x, src, ans, dim, index, reduce, include_self)[1]


def _reduce_jvp_x(t, x, src, ans, dim, index, reduce, include_self):
    return t * _scatter_reduce_slopes(x, src, ans, dim, index, reduce, include_self)[0]


def _reduce_jvp_src(t, x, src, ans, dim, index, reduce, include_self):
    slope = _scatter_reduce_slopes(x, src, ans, dim, index, reduce, include_self)[1]
    return apply(SCATTER_ADD, (_zeros(ans._data.shape, t), t * slope), (dim, index))


SCATTER_REDUCE = defop(
    "scatter_reduce", _scatter_reduce, batch=index_params(0, 1), node="ScatterReduceBackward0",
    save=lambda ans, x, src, dim, index, reduce, include_self: (x, src, ans, dim, index, reduce, include_self),
    vjp=(_reduce_vjp_x, _reduce_vjp_src), jvp=(_reduce_jvp_x, _reduce_jvp_src))


@batched_by(per_sample_where(scalar_input), when=("index",))
def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """``input`` with each ``src[i][j]`` reduced (sum, prod, mean, amax, amin) into
    ``[index[i][j]][j]`` for dim 0; ``include_self=False`` leaves input's values out of
    the positions that receive something."""
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    dim, data = _gather_args("scatter", input, dim, index, src)
    return _scatter_reduce_checked(input, dim, index, src, reduce, include_self, data)


@batched_by(lambda input, dim, index, src, reduce, include_self, data: on_batch(
    lambda b, i, s: scatter_reduce(b, dim + 1, i, s, reduce, include_self=include_self), input, index, src),
    when=("index",))
def _scatter_reduce_checked(input, dim, index, src, reduce, include_self, data):
    return apply(SCATTER_REDUCE, (input, src), (dim, data, reduce, include_self))


def take_along_dim(input, indices, dim=None):
    """``gather`` with input and indices broadcast against each other (but along ``dim``);
    without a dim, both are flattened first."""
    data = _tensor_arg(indices, "take_along_dim", "indices", 2)
    if dim is None:  # PyTorch's flat gather, with its dtype check
        return gather(input.view(-1), 0, indices.view(-1))
    ndim = input._data.ndim
    if data.ndim != ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {ndim} dimensions for input, and {data.ndim} dimensions for indices")
    if data.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_name(data)}")
    dim = wrap_dim_then_size(dim, ndim)
    shape = list(input._data.shape)
    shape[dim] = data.shape[dim]
    try:
        shape = list(np.broadcast_shapes(tuple(shape), data.shape))
    except ValueError as e:
        raise broadcast_error(e, tuple(shape), data.shape) from None
    if tuple(shape) != data.shape:
        indices = indices.expand(shape)
    shape[dim] = input._data.shape[dim]
    if tuple(shape) != input._data.shape:
        input = input.expand(shape)
    return gather(input, dim, indices)


# --- Tensor methods ---------------------------------------------------------------------------------

Tensor.gather = gather
Tensor.scatter = scatter
Tensor.scatter_ = inplace_method(scatter, "scatter_")
Tensor.scatter_add = scatter_add
Tensor.scatter_add_ = inplace_method(scatter_add, "scatter_add_")
Tensor.scatter_reduce = scatter_reduce
Tensor.scatter_reduce_ = inplace_method(scatter_reduce, "scatter_reduce_")
Tensor.take_along_dim = take_along_dim
