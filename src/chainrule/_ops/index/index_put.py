"""``x[index] = value`` and ``index_put``: writing through an index.

The index is read as ``x[index]`` reads it (``indexing._parse``); the view part is a view
of x written in place (``CopySlices``), index tensors make the write an ``index_put_``,
whose ``IndexPutBackward0`` zeroes the overwritten positions of the gradient.

>>> x[0, [1, 2]] = 5.   # select row 0 (a view), then index_put_ on it
"""
import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import Tensor, _legacy_type_name, _wrap
from .. import batching
from ..pointwise import elementwise as ew
from ..inplace import apply_inplace
from ..batching import any_batched, batched_by, on_batch, per_sample
from ..registry import apply, defop, unary
from .indexing import (INDEX, _advanced, _batch_entries, _batch_index, _copy, _dims_taken, _for_add_at, _name,
                       _parse, _picked_ndim, _sample_index, _scalar, _stand_in, _sum_to, _type_name, _view, _zeros)

# --- x[index] = value, index_put ----------------------------------------------------------------


def _index_put(x, values, index, accumulate):
    out = _copy(x)
    if accumulate:
        np.add.at(out, _for_add_at(index), values)
    else:
        out[index] = values
    return out


def _zero_at(g, index):
    """``g`` with the indexed positions zeroed: they were overwritten."""
    return apply(INDEX_PUT, (g, _wrap(np.zeros((), g._data.dtype))), (index, False))


def _index_put_batched(op, args, batched, params, dtype):
    """``index_put`` of each sample (the index not batched): an unbatched input expanded,
    batched values padded to the rank of one sample's indexed part, as broadcasting would."""
    (x, values), size = args, batching.batch_size(args, batched)
    if not batched[0]:
        x = x.expand((size,) + x._data.shape)
    index = _batch_index(params[0], size)
    if batched[1]:
        values = batching.pad(values, np.broadcast_to(np.empty((), np.int8), x._data.shape)[index].ndim - 1)
    return apply(op, (x, values), (index,) + params[1:], dtype)


INDEX_PUT = defop(
    "index_put", _index_put, node="IndexPutBackward0", batch=_index_put_batched,
    save=lambda ans, x, values, index, accumulate: (index, accumulate, x._data.shape, values._data.shape),
    vjp=(lambda g, index, accumulate, shape, values_shape: g if accumulate else _zero_at(g, index),
         lambda g, index, accumulate, shape, values_shape: _sum_to(unary(INDEX, g, (index,)), values_shape)),
    jvp=(lambda t, index, accumulate, shape, values_shape: t if accumulate else _zero_at(t, index),
         lambda t, index, accumulate, shape, values_shape: apply(INDEX_PUT, (_zeros(shape, t), t),
                                                                 (index, accumulate))))


def _check_values(x, values, advanced, accumulate=False):
    """PyTorch's checks of the values that index_put writes; ``advanced``: ``_advanced``'s
    answer for the index."""
    _, out_shape, byte_mask = advanced
    if byte_mask and not accumulate and values._data.size == 1:  # PyTorch's masked_fill_ fast path
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
    if values._data.dtype != x._data.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got {_name(x._data)} for "
                           f"the destination and {_name(values._data)} for the source.")
    shape = values._data.shape
    try:
        fits = np.broadcast_shapes(shape, out_shape) == out_shape
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(shape)} cannot be broadcast to indexing "
                           f"result of shape {list(out_shape)}")


def index_put(input, indices, values, accumulate=False):
    """``input`` with ``values`` written at ``input[indices]`` (added, if ``accumulate``)."""
    if not isinstance(values, Tensor):
        raise TypeError(f"index_put(): argument 'values' (position 3) must be Tensor, not {_type_name(values)}")
    for n, i in enumerate(indices):
        if not isinstance(i, Tensor):
            raise TypeError(f"expected Tensor as element {n} in argument 1, but got {_type_name(i)}")
    return _index_put_checked(input, indices, values, accumulate)


@batched_by(lambda input, indices, values, accumulate: _index_put_batched_index(input, indices, values, accumulate),
            when=("indices",))  # (a batched input or values alone: the op's rule)
def _index_put_checked(input, indices, values, accumulate):
    found, dim = {}, 0
    for i in indices:
        found[dim] = i._data
        dim += _dims_taken(i._data)
    ndim = input._data.ndim
    if dim > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim} (got {dim})")
    advanced = _advanced(input._data.shape, found)
    _check_values(input, values, advanced, accumulate)
    return apply(INDEX_PUT, (input, values), (advanced[0], accumulate))


def _index_put_batched_index(input, indices, values, accumulate):
    """``index_put`` with index tensors batched by vmap: checked for one sample (the batched
    ones as stand-ins), then one ``index_put`` of the batch, an arange picking each sample."""
    found, stand_ins, dim = {}, {}, 0
    for i in indices:
        data = _stand_in(i) if any_batched(i) else i._data
        if data is not i._data:
            stand_ins[id(data)] = i
        found[dim] = data
        dim += _dims_taken(data)
    ndim = input._data.ndim
    if dim > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim} (got {dim})")
    advanced = _advanced(input._data.shape, found)
    _check_values(input, values, advanced, accumulate)
    entries = advanced[0]
    batched = {p: stand_ins[id(e)] for p, e in enumerate(entries) if id(e) in stand_ins}
    if len(batched) != len(stand_ins):  # a stand-in replaced (a dim of size 0, nothing written)
        return per_sample(index_put, input, indices, values, accumulate)
    order, picked, rank = list(batched), _picked_ndim(entries), len(advanced[1])

    def put(b, v, *indices):
        index = _batch_entries(entries, dict(zip(order, indices)), b._data.shape[0], picked)
        return index_put(b, index, batching.pad(v, rank), accumulate)
    return on_batch(put, input, values, *(batched[p] for p in order))


def index_put_(input, indices, values, accumulate=False):
    return apply_inplace(input, index_put, indices, values, accumulate)


def _setitem_value(self, value):
    """PyTorch takes a tensor as it is, and makes a Python number a 0-d tensor of self's dtype."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (bool, int, float, complex, np.number, np.bool_)):
        return _wrap(_scalar(value, self._data.dtype))
    raise TypeError(f"can't assign a {_type_name(value)} to a {_legacy_type_name(self._data.dtype)}")


def _strip_leading_ones(value):
    """As PyTorch's ``slicePrefix1sSize``: a value of shape (1, 1, 4) is written as (4,)."""
    shape = value._data.shape
    n = 0
    while n < len(shape) and shape[n] == 1:
        n += 1
    return value.view(shape[n:]) if n else value


def setitem(self, index, value):
    """``self[index] = value``, with PyTorch's graph. An index that only keeps whole dims
    writes into self itself (``CopyBackwards``, or ``FillBackward3`` for a 0-d value); one
    with ints, slices or None writes into that view of self, so self gets ``CopySlices``;
    index tensors make it ``index_put_`` (on the view, if there is one)."""
    value = _setitem_value(self, value)
    if index is False:  # selects nothing: PyTorch writes nothing
        return
    _setitem(self, index, value)


@batched_by(lambda self, index, value: _setitem_batched(self, index, value), when=("index",))  # (a batched self alone writes through the ops' rules)
def _setitem(self, index, value):
    view, node, advanced = _parse(self._data.shape, None if index is True else index, False)
    target = _view(self, view, node)
    if advanced is not None:
        value = _strip_leading_ones(value)
        _check_values(target, value, advanced)
        apply_inplace(target, lambda old, v: apply(INDEX_PUT, (old, v), (advanced[0], False)), value)
        return
    if value._data.dtype != target._data.dtype and not _cast_on_write(value, target):
        value = value.to(self.dtype)
    if value._data.ndim != 0 and value._data.shape != target._data.shape:
        value = _strip_leading_ones(value).expand(target._data.shape)  # as PyTorch's copy_to: ExpandBackward0
    if node is None:
        fill = value._data.ndim == 0 and self._data.ndim != 0
        apply_inplace(self, ew.fill if fill else ew.copy, value)
    else:
        apply_inplace(target, _take_value, value)


_UNBATCHED_SELF = ("vmap: index_put_(self, *extra_args) is not possible because there exists a Tensor `other` in "
                   "extra_args that has more elements than `self`. This happened due to `other` being vmapped over "
                   "but `self` not being vmapped over in a vmap. Please try to use out-of-place operators instead of "
                   "index_put_. If said operator is being called inside the PyTorch framework, please file a bug "
                   "report instead.")


def _setitem_batched(self, index, value):
    """``self[index] = value`` for index tensors batched by vmap, as ``_getitem_batched``
    reads: the index read for one sample (stand-ins), then one ``index_put`` of the batch
    into the view of self, an arange picking each sample. As in PyTorch's vmap, the value
    is checked against the batch's indexed shape (where index tensors lie apart, the
    picked dims come first there: ``x[:, i] = v`` needs v in that order).

    >>> vmap(lambda x, i: x.__setitem__(i, 0.) or x)(xs, is_)   # xs[b, is_[b]] = 0 for each b
    """
    read = _sample_index(index)
    if read is None:
        raise NotImplementedError("vmap: x[index] = v with a list of batched tensors in the index is not "
                                  "supported by chainrule yet")
    parsed, by_array, stand_ins = read
    if batching.has_values(self._data):
        raise RuntimeError(_UNBATCHED_SELF)
    view, node, advanced = _parse(self._data.shape, parsed, False, arrays=stand_ins)
    target, value = _view(self, view, node), _strip_leading_ones(value)
    entries = advanced[0]
    batched = {p: by_array[id(e)] for p, e in enumerate(entries) if id(e) in by_array}
    if len(batched) != len(by_array):  # a stand-in replaced (a dim of size 0): nothing is written
        return
    order, picked, rank = list(batched), _picked_ndim(entries), len(advanced[1])

    def put(b, v, *indices):
        index = _batch_entries(entries, dict(zip(order, indices)), b._data.shape[0], picked)
        v = batching.pad(v, rank)
        if any_batched(index):  # an outer vmap batches the index too: that level next, on a copy
            out = b.clone()
            setitem(out, index, v)
            return out
        found, dim = {}, 0
        for e in index:
            if not isinstance(e, slice):
                found[dim] = e._data
            dim += 1 if isinstance(e, slice) else _dims_taken(e._data)
        advanced = _advanced(b._data.shape, found)  # bounds checked on the batch, as PyTorch's vmap does
        _check_values(b, v, advanced)
        return apply(INDEX_PUT, (b, v), (advanced[0], False))

    apply_inplace(target, lambda old, v, *indices: on_batch(put, old, v, *indices), value,
                  *(batched[p] for p in order))


def _cast_on_write(value, region):
    """Whether ``value`` is cast while written, as PyTorch's ``copy_`` does, rather than
    first: then CopySlices links to value's own node with no ``ToCopyBackward0`` between
    (the engine casts the gradient back to value's dtype). A value without history is
    simply cast first: that records nothing."""
    return value._requires_grad and _dtype.can_cast(value.dtype, region.dtype)


def _take_value(old, value):
    # ``x[i] = v`` through a view: the new content is v itself (broadcast and cast when
    # written), so CopySlices links straight to v's node, or to None when v has no
    # history, as in PyTorch
    return value


# --- Tensor methods ---------------------------------------------------------------------------------

Tensor.__setitem__ = setitem
Tensor.index_put = index_put
Tensor.index_put_ = index_put_
