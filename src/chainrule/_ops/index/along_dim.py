"""Ops that pick or place whole slices along one dim: ``index_select``, ``index_add``,
``index_copy``, ``index_fill``.

Each is one entry whose gradient is another op of this file (``index_select``'s is
``index_add`` into zeros); under vmap with a batched index they run as ``gather`` or
``scatter`` of the batch, which is why this file imports ``gather_scatter``.

>>> index_select(x, 1, tensor([2, 0]))   # columns 2 and 0 of x
"""
import numpy as np

from ..._core.tensor import Tensor, _wrap
from ..pointwise import elementwise as ew
from ..methods import inplace_method
from ..batching import batched_by, index_params, on_batch, per_sample_where, scalar_input
from ..registry import FROM_VJP, apply, defop, unary
from ..._core.dims import wrap_dim
from .indexing import _at_dim, _copy, _first_bad, _name, _scalar, _tensor_arg, _values, _vector, _zeros
from .gather_scatter import gather, scatter, scatter_add

# --- along a dim: index_select, index_add, index_copy, index_fill ------------------------------------


def _with_size(shape, dim, n):
    return tuple(shape[:dim]) + (n,) + tuple(shape[dim + 1:])


def _spread(i, dim, shape):
    """A batch of index vectors ``i`` (one per sample, for ``dim``) as a gather or scatter
    index into the batch: each vector laid along ``dim + 1`` and expanded over the other
    dims of ``shape`` (one sample's result shape). ``index_select(x, 1, i)`` of each
    sample is ``gather(batch, 2, _spread(i, 1, shape))``."""
    size, n = i.shape[0], shape[dim]
    lengthwise = (size,) + (1,) * dim + (n,) + (1,) * (len(shape) - dim - 1)
    return i.reshape(lengthwise).expand((size,) + tuple(shape))


def _index_select(x, dim, index):
    if x.ndim == 0:
        return x.copy()
    return np.take(x, index, axis=dim)


INDEX_SELECT = defop("index_select", _index_select, batch=index_params(0), node="IndexSelectBackward0",
                     save=lambda ans, x, dim, index: (x._data.shape, dim, index),
                     vjp=lambda g, shape, dim, index: index_add(_zeros(shape, g), dim, _wrap(index), g),
                     jvp=lambda t, shape, dim, index: unary(INDEX_SELECT, t, (dim, index)))


@batched_by(per_sample_where(scalar_input), when=("index",))
def index_select(input, dim, index):
    """The slices ``index`` of ``input`` along ``dim``, in that order (repeats allowed)."""
    data = _tensor_arg(index, "index_select", "index", 3)
    dim = wrap_dim(dim, input._data.ndim)
    if data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if data.dtype not in (np.int64, np.int32):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if input._data.ndim == 0:
        if data.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {data.size} value(s)")
        if _first_bad(data, 1) is not None:
            raise IndexError("index out of range in self")
    else:
        size = input._data.shape[dim]
        if size == 0 and data.size:
            raise RuntimeError("index_select(): self indexing axis dim should be positive")
        bad = _first_bad(_values(index), size)
        # PyTorch's kernels word it two ways: its dim-1 kernel (and an empty input's) one way,
        # the others as IndexError
        if bad is not None and (dim == 1 or not input._data.size):
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
        if bad is not None:
            raise IndexError("index out of range in self")
    return _index_select_checked(input, dim, index, data)


def _index_select_batched(input, dim, index, data):
    """A batched index (a 0-d sample loops, above): a gather of the batch."""
    shape = _with_size(input._data.shape, dim, data.size)
    return on_batch(lambda b, i: gather(b, dim + 1, _spread(i, dim, shape)), input, index)


@batched_by(_index_select_batched, when=("index",))
def _index_select_checked(input, dim, index, data):
    return unary(INDEX_SELECT, input, (dim, _vector(data)))


def _index_add(x, source, dim, index, alpha):
    out = _copy(x)
    scaled = source if alpha == 1 else source * np.asarray(alpha).astype(x.dtype)
    np.add.at(_vector(out), _at_dim(dim, index), _vector(scaled))
    return out


INDEX_ADD = defop(
    "index_add", _index_add, batch=index_params(0), node="IndexAddBackward0",
    save=lambda ans, x, source, dim, index, alpha: (ans._data.shape, dim, index, alpha),
    vjp=(lambda g, shape, dim, index, alpha: g,
         lambda g, shape, dim, index, alpha: _times(unary(INDEX_SELECT, g, (dim, index)), alpha)),
    jvp=(lambda t, shape, dim, index, alpha: t,
         lambda t, shape, dim, index, alpha: apply(INDEX_ADD, (_zeros(shape, t), t), (dim, index, alpha))))


def _times(g, alpha):
    return g if alpha == 1 else g * alpha


def _along_dim_args(fn, input, dim, index, source):
    """The checks that index_add and index_copy share: dim, and the source's shape."""
    ndim = input._data.ndim
    dim = wrap_dim(dim, ndim)
    source_size = source._data.shape[dim] if source._data.ndim else 1
    if index._data.size != source_size:
        message = f"{fn}(): Number of indices ({index._data.size}) should be equal to source.size(dim)"
        if fn == "index_add_":
            raise RuntimeError(f"{message}: ({source_size}), for dim: {dim}")
        raise IndexError(f"{message} ({source_size})")
    return dim


@batched_by(per_sample_where(scalar_input), when=("index",))
def index_add(input, dim, index, source, *, alpha=1):
    """``input`` with ``alpha * source`` added to the slices ``index`` along ``dim``;
    repeated indices add up."""
    data = _tensor_arg(index, "index_add", "index", 3)
    if data.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: {_name(data)}")
    if data.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {data.ndim} with type: "
                         f"{_name(data)} and size: {list(data.shape)}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"index_add_(): self ({_name(input._data)}) and source ({_name(source._data)}) must have "
                           f"the same scalar type")
    dim = _along_dim_args("index_add_", input, dim, index, source)
    shape, source_shape = input._data.shape, source._data.shape
    if len(shape) != len(source_shape) or any(a != b for d, (a, b) in enumerate(zip(shape, source_shape))
                                              if d != dim):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(shape)} source.shape = {list(source_shape)}")
    size = _vector(input._data).shape[dim]
    bad = _first_bad(_values(index), size)
    if bad is not None:
        raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    return _index_add_checked(input, dim, index, source, alpha, data)


def _index_add_batched(input, dim, index, source, alpha, data):
    """index_add of each sample is a scatter_add of the batch."""
    shape = _with_size(input._data.shape, dim, data.size)
    return on_batch(lambda b, i, s: scatter_add(b, dim + 1, _spread(i, dim, shape),
                                                _times(s, alpha).reshape((-1,) + shape)), input, index, source)


@batched_by(_index_add_batched, when=("index",))
def _index_add_checked(input, dim, index, source, alpha, data):
    return apply(INDEX_ADD, (input, source), (dim, _vector(data), alpha))


def _index_copy(x, source, dim, index):
    out = _copy(x)
    _vector(out)[_at_dim(dim, index)] = _vector(source)
    return out


INDEX_COPY = defop(
    "index_copy", _index_copy, batch=index_params(0), node="IndexCopyBackward0",
    save=lambda ans, x, source, dim, index: (ans._data.shape, dim, index),
    vjp=(lambda g, shape, dim, index: unary(INDEX_FILL, g, (dim, index, 0)),
         lambda g, shape, dim, index: unary(INDEX_SELECT, g, (dim, index))),
    jvp=(lambda t, shape, dim, index: unary(INDEX_FILL, t, (dim, index, 0)),
         lambda t, shape, dim, index: apply(INDEX_COPY, (_zeros(shape, t), t), (dim, index))))


@batched_by(per_sample_where(scalar_input), when=("index",))
def index_copy(input, dim, index, source):
    """``input`` with the slices ``index`` along ``dim`` replaced by ``source``'s."""
    data = _tensor_arg(index, "index_copy", "index", 3)
    if data.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {data.ndim})")
    dim = _along_dim_args("index_copy_", input, dim, index, source)
    shape, source_shape = input._data.shape, source._data.shape
    kept, source_kept = shape[:dim] + shape[dim + 1:], source_shape[:dim] + source_shape[dim + 1:]
    if kept != source_kept:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice shapes. Destination "
                           f"slice shape: {' '.join(map(str, kept))} at dimension {dim} and source slice shape: "
                           f"{' '.join(map(str, source_kept))} at dimension 0.")
    if data.dtype != np.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_name(data)}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{_name(input._data)} and (source) {_name(source._data)}")
    size = _vector(input._data).shape[dim]
    bad = _first_bad(_values(index), size)
    if bad is not None:
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {dim} with size {size}")
    return _index_copy_checked(input, dim, index, source, data)


def _index_copy_batched(input, dim, index, source, data):
    """index_copy of each sample is a scatter of the batch."""
    shape = _with_size(input._data.shape, dim, data.size)
    return on_batch(lambda b, i, s: scatter(b, dim + 1, _spread(i, dim, shape), s.reshape((-1,) + shape)),
                    input, index, source)


@batched_by(_index_copy_batched, when=("index",))
def _index_copy_checked(input, dim, index, source, data):
    return apply(INDEX_COPY, (input, source), (dim, _vector(data)))


def _index_fill(x, dim, index, value):
    out = _copy(x)
    _vector(out)[_at_dim(dim, index)] = value
    return out


INDEX_FILL = defop("index_fill", _index_fill, batch=index_params(0), node="IndexFillBackward0",
                   save=lambda ans, x, dim, index, value: (dim, index),
                   vjp=lambda g, dim, index: unary(INDEX_FILL, g, (dim, index, 0)),
                   jvp=FROM_VJP)

def _filled_once(index, shape, dim):
    """The positions an index fills, each once (-1 and 3 are the same row of 4)."""
    return np.unique(np.asarray(index) % (shape[dim] if shape else 1))


# filling from a 0-d tensor: its gradient is the sum of the filled part of the incoming one
INDEX_FILL_TENSOR = defop(
    "index_fill_tensor", lambda x, value, dim, index: _index_fill(x, dim, index, value), node="IndexFillBackward1",
    save=lambda ans, x, value, dim, index: (ans._data.shape, dim, index),
    vjp=(lambda g, shape, dim, index: unary(INDEX_FILL, g, (dim, index, 0)),
         # each filled position once, however often the index names it
         lambda g, shape, dim, index: unary(INDEX_SELECT, g, (dim, _filled_once(index, shape, dim))).sum()),
    jvp=(lambda t, shape, dim, index: unary(INDEX_FILL, t, (dim, index, 0)),
         lambda t, shape, dim, index: apply(INDEX_FILL_TENSOR, (_zeros(shape, t), t), (dim, index))))


@batched_by(per_sample_where(scalar_input), when=("index", "value",))
def index_fill(input, dim, index, value):
    """``input`` with the slices ``index`` along ``dim`` set to ``value`` (a number or a
    0-d tensor); negative indices count from the end."""
    data = _tensor_arg(index, "index_fill", "index", 3)
    dim = wrap_dim(dim, input._data.ndim)
    if data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if data.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    if isinstance(value, Tensor) and value._data.ndim != 0:
        raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._data.ndim} dimension(s).")
    size = _vector(input._data).shape[dim]
    bad = _first_bad(_values(index), size, negative=True)
    if bad is not None:
        raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
    return _index_fill_checked(input, dim, index, value, data, size)


def _index_fill_batched(input, dim, index, value, data, size):
    shape = _with_size(input._data.shape, dim, data.size)
    return on_batch(lambda b, i, v: _batch_index_fill(b, dim, i, v, size, shape), input, index, value)


@batched_by(_index_fill_batched, when=("index", "value"))
def _index_fill_checked(input, dim, index, value, data, size):
    if isinstance(value, Tensor):
        return apply(INDEX_FILL_TENSOR, (input, value), (dim, _vector(data)))
    return unary(INDEX_FILL, input, (dim, _vector(data), _scalar(value, input._data.dtype)))


def _batch_index_fill(b, dim, i, value, size, shape):
    """``index_fill`` of each sample of the batch ``b`` (one sample's ``dim``, index vectors
    ``i``, some counting from the end of ``size``; ``shape``: a sample's with ``dim`` the
    vectors' length): a scatter."""
    index = _spread(ew.where(i < 0, i + size, i), dim, shape)
    if not isinstance(value, Tensor):
        return scatter(b, dim + 1, index, value=value)
    # where the value goes, then ``where``: a position named twice takes (and sends back) it once
    filled = scatter(_wrap(np.zeros(tuple(b.shape), bool)), dim + 1, index, value=True)
    return ew.where(filled, value.to(b.dtype).reshape((-1,) + (1,) * len(shape)), b)


# --- Tensor methods ---------------------------------------------------------------------------------

Tensor.index_select = index_select
Tensor.index_add = index_add
Tensor.index_add_ = inplace_method(index_add, "index_add_")
Tensor.index_copy = index_copy
Tensor.index_copy_ = inplace_method(index_copy, "index_copy_")
Tensor.index_fill = index_fill
Tensor.index_fill_ = inplace_method(index_fill, "index_fill_")
