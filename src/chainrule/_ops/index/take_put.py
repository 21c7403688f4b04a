"""``take`` and ``put``: indices into the tensor read as one flat vector.

``take``'s gradient is ``put`` (accumulating) into zeros, ``put``'s is ``take``; under
vmap each sample's indices move to its own part of the flat batch, or run as a
``gather`` / ``scatter`` of the batch's rows when the index is batched.

>>> take(tensor([[1, 2], [3, 4]]), tensor([0, 3]))   # tensor([1, 4])
"""
import math

import numpy as np

from ..._core.tensor import Tensor
from .. import batching
from ..pointwise import elementwise as ew
from ..methods import inplace_method
from ..batching import batched_by, on_batch
from ..registry import apply, defop, unary
from .indexing import _first_bad, _name, _tensor_arg, _values, _zeros
from .gather_scatter import gather, scatter, scatter_add

# --- flat indices: take, put ----------------------------------------------------------------------


def _take(x, index):
    return x.reshape(-1)[index]


def _flat_batch_index(index, size, numel):
    """A sample's flat ``index`` (negatives count from the end) into each of ``size``
    samples of ``numel`` elements laid end to end: the batch read as one flat vector."""
    index = np.where(index < 0, index + numel, index)
    return index + (np.arange(size) * numel).reshape((-1,) + (1,) * index.ndim)


def _take_batch(op, args, batched, params, dtype):
    """``take`` of a batch: each sample's index moved to its own part of the flat batch."""
    x = args[0]
    shape = x._data.shape
    return apply(op, (x,), (_flat_batch_index(params[0], shape[0], math.prod(shape[1:])),), dtype)


TAKE = defop("take", _take, node="TakeBackward0", batch=_take_batch,
             save=lambda ans, x, index: (x._data.shape, index),
             vjp=lambda g, shape, index: apply(PUT, (_zeros(shape, g), g), (index, True)),
             jvp=lambda t, shape, index: unary(TAKE, t, (index,)))


def _flat_index_args(fn, input, index):
    data = _tensor_arg(index, fn, "index", 2)
    if data.dtype != np.int64:
        raise RuntimeError(f"{fn}(): Expected a long tensor for index, but got {_name(data)}")
    numel = input._data.size
    if numel == 0 and data.size:
        raise IndexError(f"{fn}(): tried to take from an empty tensor")
    bad = _first_bad(_values(index), numel, negative=True)
    if bad is not None:
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {numel} elements.")
    return data


def _rows(i, numel):
    """A batch of flat indices into samples of ``numel`` elements, one row per sample, with
    the negative ones counted from the end: for ``gather`` and ``scatter`` of the batch."""
    return ew.where(i < 0, i + numel, i).reshape((i.shape[0], -1))


def take(input, index):
    """The elements of ``input`` read as a flat vector, at ``index`` (in index's shape)."""
    return _take_checked(input, index, _flat_index_args("take", input, index))


def _take_batched(input, index, data):
    """Each sample's rows: a gather of the batch."""
    n = input._data.size
    return on_batch(lambda b, i: gather(b.reshape((b.shape[0], n)), 1, _rows(i, n)).reshape(i.shape), input, index)


@batched_by(_take_batched)
def _take_checked(input, index, data):
    return unary(TAKE, input, (data,))


def _put(x, source, index, accumulate):
    out = np.array(x, order="C")  # so that reshape(-1) is a view of it
    if accumulate:
        np.add.at(out.reshape(-1), index.reshape(-1), source.reshape(-1))
    else:
        out.reshape(-1)[index.reshape(-1)] = source.reshape(-1)
    return out


def _put_zero(g, index):
    return apply(PUT, (g, _zeros(index.shape, g)), (index, False))


def _put_batch(op, args, batched, params, dtype):
    """``put`` of a batch: each sample's index moved to its own part of the flat batch."""
    (x, source), _ = batching.aligned(args, batched, same_rank=False)
    (index, accumulate), shape = params, x._data.shape
    return apply(op, (x, source), (_flat_batch_index(index, shape[0], math.prod(shape[1:])), accumulate), dtype)


PUT = defop(
    "put", _put, node="PutBackward0", batch=_put_batch,
    save=lambda ans, x, source, index, accumulate: (ans._data.shape, source._data.shape, index, accumulate),
    vjp=(lambda g, shape, source_shape, index, accumulate: g if accumulate else _put_zero(g, index),
         lambda g, shape, source_shape, index, accumulate: unary(TAKE, g, (index,)).reshape(source_shape)),
    jvp=(lambda t, shape, source_shape, index, accumulate: t if accumulate else _put_zero(t, index),
         lambda t, shape, source_shape, index, accumulate: apply(PUT, (_zeros(shape, t), t), (index, accumulate))))


def put(input, index, source, accumulate=False):
    """``input`` read as a flat vector, with ``source`` written (or added) at ``index``."""
    data = _flat_index_args("put", input, index)
    if source._data.size != data.size:
        raise RuntimeError(f"put_(): Expected source and index to have the same number of elements, but got "
                           f"source.numel() = {source._data.size}, index.numel() = {data.size}")
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{_name(input._data)} and source.dtype = {_name(source._data)}")
    return _put_checked(input, index, source, accumulate, data)


@batched_by(lambda input, index, source, accumulate, data:  # a scatter of the batch's rows
            on_batch(lambda b, i, s: _batch_put(b, _rows(i, input._data.size), s, accumulate), input, index, source))
def _put_checked(input, index, source, accumulate, data):
    return apply(PUT, (input, source), (data, accumulate))


def _batch_put(b, rows, source, accumulate):
    flat, values = b.reshape((b.shape[0], -1)), source.reshape(rows.shape)
    out = scatter_add(flat, 1, rows, values) if accumulate else scatter(flat, 1, rows, values)
    return out.reshape(b.shape)


# --- Tensor methods ---------------------------------------------------------------------------------

Tensor.take = take
Tensor.put = put
Tensor.put_ = inplace_method(put, "put_")
