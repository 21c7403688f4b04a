"""Indexing: ``x[index]``, ``x[index] = v``, and the ops that pick or place elements by index.

``x[index]`` follows PyTorch's two steps (``applySlicing``, then ``index``): ints, slices
and None make a view of x (``SelectBackward0``, ``SliceBackward0``...); index tensors
then pick from that view in one copy (``IndexBackward0``), where repeated indices
accumulate their gradients. So ``x[0, :, [1, 2]]`` selects row 0 first and has shape
(size of dim 1, 2), where NumPy would give (2, size of dim 1).

The ops along a dim (``index_select``, ``gather``, ``scatter``...) and the mask ops
(``masked_fill``...) are each one entry whose gradient is another op of this file:
``gather``'s is ``scatter_add`` into zeros, ``scatter_add``'s is ``gather``.
"""
import math
import warnings

import numpy as np

from .. import _dtype
from .._dtype import _LEGACY_NAMES
from .._tensor import Tensor, _legacy_type_name, _wrap
from . import batching
from . import elementwise as ew
from .inplace import apply_inplace
from .methods import inplace_method
from .batching import any_batched, dynamic_shape, index_params, indexed, per_sample
from .reductions import on_batch
from . import registry
from .registry import Op, apply, broadcast_error, defop, unary
from .shape import wrap_dim

# --- small helpers ---------------------------------------------------------------------------------


def _copy(x):
    return np.array(x)  # an array even for a NumPy scalar (finite differences pass those)


def _name(a):
    """PyTorch's name of an array's dtype in messages: Float, Long..."""
    return _LEGACY_NAMES[a.dtype.name]


def _vector(a):
    """A 0-d array as a 1-d one: PyTorch reads a 0-d tensor as one of size 1 along a dim."""
    return a.reshape(1) if a.ndim == 0 else a


def _at_dim(dim, index):
    """The NumPy index that puts ``index`` along ``dim``: ``(:, :, index)`` for dim 2."""
    return (slice(None),) * dim + (index,)


def _zeros(shape, like):
    return _wrap(np.zeros(shape, like._data.dtype))


def _full(like, value):
    return _wrap(np.full(like._data.shape, value, like._data.dtype))


def _sum_to(g, shape):
    """The engine reduces a gradient to its input's shape only where the output's shape
    differs from it; a rule whose gradient can differ anyway reduces it itself."""
    return g if g._data.shape == shape else g.sum_to_size(shape)


# --- reading an index, as PyTorch does --------------------------------------------------------

_BAD_ITEM = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
             "indices (got {})")
_BAD_INDEX_DTYPE = "tensors used as indices must be long, int, byte or bool tensors"


def _type_name(obj):
    cls = type(obj)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


_SEQUENCE_AS_TUPLE = ("Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in "
                      "pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as "
                      "tensor index, x[torch.tensor(seq)], which will result either in an error or a different result")


def _items(index):
    """The index as a tuple. As in PyTorch, a short list holding a sequence, a tensor, a
    slice, None or ``...`` is read as a tuple: ``x[[0, [1, 2]]]`` is ``x[0, [1, 2]]``,
    while ``x[[0, 1]]`` picks two rows."""
    if isinstance(index, tuple):
        return index
    if isinstance(index, list) and len(index) < 32 and any(
            i is None or i is Ellipsis or isinstance(i, (slice, Tensor, list, tuple, range, np.ndarray)) for i in index):
        warnings.warn(_SEQUENCE_AS_TUPLE, UserWarning, stacklevel=4)
        return tuple(index)
    return (index,)


def _from_data(seq):
    """A list (or array) inside an index: a bool mask, else int64 indices (floats truncated,
    as PyTorch's ``indexing_tensor_from_data``)."""
    if isinstance(seq, str):
        raise TypeError("new(): invalid data type 'str'")
    data = np.asarray(seq)
    if data.dtype.kind == "b" or (data.dtype == np.uint8 and isinstance(seq, np.ndarray)):
        return data  # a mask
    if data.dtype.kind == "c":
        raise TypeError("'complex' object cannot be interpreted as an integer")
    if data.dtype.kind not in "iuf":
        raise TypeError(f"new(): invalid data type '{_type_name(data.flat[0]) if data.size else data.dtype}'")
    return data.astype(np.int64)




def _item(i):
    """One item of an index: an int, a slice, None, ``...``, a bool (a 0-d mask), or an
    array (indices, or a bool or uint8 mask; another dtype stays, for the error later)."""
    if i is None or i is Ellipsis or isinstance(i, bool):
        return i
    if isinstance(i, (int, np.integer)):
        return int(i)
    if isinstance(i, slice):
        if all(s is None or s.__class__ is int for s in (i.start, i.stop, i.step)):
            return i
        return slice(*(None if s is None else s.__index__() for s in (i.start, i.stop, i.step)))
    if isinstance(i, Tensor):
        data = i._data
        if data.ndim == 0 and data.dtype.kind in "biu":  # a 0-d integer tensor is an int
            return bool(data) if data.dtype.kind == "b" or data.dtype == np.uint8 else int(data)
        return data
    if isinstance(i, np.ndarray) and i.ndim == 0 and i.dtype.kind in "biu":
        return bool(i) if i.dtype.kind == "b" else int(i)
    if isinstance(i, (list, tuple, range, str, np.ndarray)):
        return _from_data(i)
    raise IndexError(_BAD_ITEM.format(_type_name(i)))


def _is_mask(a):
    return isinstance(a, np.ndarray) and (a.dtype.kind == "b" or a.dtype == np.uint8)


def _dims_taken(item):
    if item is None or item is Ellipsis or isinstance(item, bool):
        return 0
    return item.ndim if _is_mask(item) else 1


def _full_slice(s, size):
    """PyTorch skips a slice that keeps the whole dim (``:``, ``0:n``, ``0:big``)."""
    return s.start in (None, 0) and s.step in (None, 1) and (s.stop is None or s.stop >= size)


def _parse(shape, index, bare_slice_is_view, arrays=()):
    """Reads ``index`` for a tensor of ``shape`` as PyTorch's ``applySlicing`` does.

    Returns ``(view, node, advanced)``. ``view`` is a NumPy basic index (ints, slices and
    None, no ``...``) giving the view part; ``node`` names the last view op PyTorch
    applies (None: no view op at all). ``advanced`` is None, or what ``_advanced``
    returns for the index tensors, on the view. ``bare_slice_is_view``: reading ``x[:]``
    makes a SliceBackward0 view, while writes skip whole-dim slices everywhere. ``arrays``:
    the ids of tensors read as index arrays even when 0-d (vmap's stand-ins for batched
    tensors: PyTorch's vmap indexes with a batched 0-d tensor, it doesn't select).
    """
    ndim = len(shape)
    if not isinstance(index, tuple) and ndim == 0:
        if isinstance(index, (int, np.integer)) and not isinstance(index, bool):
            if index == 0:
                raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                                 "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size 0")
        if isinstance(index, slice):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    items = [i._data if id(i) in arrays else _item(i) for i in _items(index)]
    specified = sum(_dims_taken(i) for i in items)
    if specified > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    bare_slice = bare_slice_is_view and isinstance(index, slice)
    view, node, found = [], None, {}
    dim = src = 0  # dim of the view, dim of x
    ellipsis = ndim - specified
    for real_dim, item in enumerate(items):
        if item is Ellipsis:
            view += [slice(None)] * ellipsis
            dim, src, ellipsis = dim + ellipsis, src + ellipsis, 0  # a second ``...`` adds nothing
        elif item is None or isinstance(item, bool):  # True and False add a dim of size 1 (a mask)
            view.append(None)
            node = "UnsqueezeBackward0"
            if item is not None:
                found[dim] = np.array([item])
            dim += 1
        elif isinstance(item, int):
            size = shape[src]
            if not -size <= item < size:
                raise IndexError(f"index {item} is out of bounds for dimension {real_dim} with size {size}")
            view.append(item)
            node, src = "SelectBackward0", src + 1
        elif isinstance(item, slice):
            if item.step is not None and item.step <= 0:
                raise ValueError("slice step cannot be zero" if item.step == 0 else "step must be greater than zero")
            view.append(item)
            if bare_slice or not _full_slice(item, shape[src]):
                node = "SliceBackward0"
            dim, src = dim + 1, src + 1
        else:
            k = _dims_taken(item)
            view += [slice(None)] * k
            found[dim] = item
            dim, src = dim + k, src + k
    view = tuple(view)
    if not found:
        return view, node, None
    sliced = shape if node is None else np.broadcast_to(np.empty((), np.int8), shape)[view + (Ellipsis,)].shape
    return view, node, _advanced(sliced, found)


def _advanced(shape, found):
    """PyTorch's checks of index tensors (``found``: dim -> array) on a tensor of ``shape``,
    in its order: dtypes, mask shapes, broadcasting, bounds. Returns the NumPy index, the
    shape of its result (the index tensors' broadcast shape replaces their dims, or comes
    first where other dims separate them: NumPy's rule, and PyTorch's), and whether the
    index is one uint8 mask (a write of one value through it fails in PyTorch)."""
    shapes, ints, index, kept = [], [], [], []  # kept: sizes of the dims no tensor indexes
    first = None  # how many kept dims come before the index tensors' dims
    k = dim = 0  # index tensors so far (a k-d mask counts k), dim of ``shape``
    adjacent = True
    while dim < len(shape):
        a = found.get(dim)
        if a is None:
            index.append(slice(None))
            kept.append(shape[dim])
            dim += 1
            continue
        if first is None:
            first = len(kept)
        adjacent = adjacent and first == len(kept)
        if _is_mask(a):
            if a.dtype == np.uint8:
                warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                              "instead.", UserWarning, stacklevel=5)
                a = a.astype(bool)
            for j, size in enumerate(a.shape):
                if size != shape[dim + j]:
                    raise IndexError(f"The shape of the mask {list(a.shape)} at index {j} does not match the shape "
                                     f"of the indexed tensor {list(shape)} at index {dim + j}")
            shapes += [(int(np.count_nonzero(a)),)] * a.ndim
        elif a.dtype == np.int64 or a.dtype == np.int32:
            shapes.append(a.shape)
            ints.append((a, shape[dim], k))
        else:
            raise IndexError(_BAD_INDEX_DTYPE)
        index.append(a)
        dim, k = dim + _dims_taken(a), k + _dims_taken(a)
    try:
        picked = shapes[0] if len(shapes) == 1 else np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(str(list(s)) for s in shapes)) from None
    out_shape = tuple(kept[:first]) + picked + tuple(kept[first:]) if adjacent else picked + tuple(kept)
    if ints:
        index = _check_bounds(index, ints, picked, out_shape)
    while isinstance(index[-1], slice):
        index.pop()
    return tuple(index), out_shape, len(found) == 1 and next(iter(found.values())).dtype == np.uint8


def _check_bounds(index, ints, picked, out_shape):
    """PyTorch checks bounds element by element in the result's order (then tensor by
    tensor), and not at all when the result is empty."""
    bad = [(a, size, k) for a, size, k in ints if a.size and (a.min() < -size or a.max() >= size)]
    if not bad:
        return index
    flags = [(a < -size) | (a >= size) for a, size, _ in bad]
    if 0 in out_shape:  # nothing is read: NumPy must not see the bad indices either
        fixed = {id(a): np.broadcast_to(a, picked) if 0 in picked else np.where(f, 0, a)
                 for (a, _, _), f in zip(bad, flags)}
        return [fixed.get(id(i), i) for i in index]
    if any(size == 0 for _, size, _ in bad):
        raise IndexError("index is out of bounds for dimension with size 0")
    flags = np.stack([np.broadcast_to(f, picked).reshape(-1) for f in flags])
    position = int(np.argmax(flags.any(0)))
    a, size, k = bad[int(np.argmax(flags[:, position]))]
    value = np.broadcast_to(a, picked).reshape(-1)[position]
    raise IndexError(f"index {value} is out of bounds for dimension {k} with size {size}")


# --- x[index] -----------------------------------------------------------------------------------


def _view_item(x, index):
    # NumPy returns a copied scalar for x[0] on a vector, but a 0-d view for x[0, ...]
    return x[index + (Ellipsis,)]


def _for_add_at(index):
    """``np.add.at`` takes no masks: a k-d mask becomes its k arrays of positions."""
    out = []
    for i in index:
        out.extend(np.nonzero(i) if _is_mask(i) else (i,))
    return tuple(out)


def _scatter_index(g, index, shape, accumulate):
    out = np.zeros(shape, dtype=g.dtype)
    if accumulate and any(isinstance(i, np.ndarray) and not _is_mask(i) for i in index):
        np.add.at(out, _for_add_at(index), g)  # repeated indices each add their share
    else:
        out[index] = g
    return out


def _basic_rules(node):
    return dict(node=node, view=True,
                save=lambda ans, x, index: (x._data.shape, index),
                vjp=lambda g, shape, index: unary(INDEX_BACKWARD, g, (index, shape, False)),
                jvp=lambda t, shape, index: unary(SELECT_BASIC, t, (index,)))


SELECT_BASIC = defop("select", _view_item, batch=indexed(0), **_basic_rules("SelectBackward0"))
SLICE_BASIC = defop("slice", _view_item, batch=indexed(0), **_basic_rules("SliceBackward0"))
UNSQUEEZE_INDEX = defop("index_unsqueeze", _view_item, batch=indexed(0), **_basic_rules("UnsqueezeBackward0"))
ALIAS_INDEX = defop("alias", _view_item, batch=indexed(0), **_basic_rules("AliasBackward0"))
_BASIC_OPS = {op.node_name: op for op in (SELECT_BASIC, SLICE_BASIC, UNSQUEEZE_INDEX, ALIAS_INDEX)}


def _take_index(x, index):
    out = x[index]
    # a basic index (from INDEX_BACKWARD's vjp) gives a view: this op's result is its own
    return out if any(isinstance(i, np.ndarray) for i in index) else out.copy()


def _batch_index(index, size):
    """One sample's NumPy index (slices, index arrays and masks, or a basic index) as the
    batch's: the batch dim taken whole in front. Where NumPy puts the picked dims first
    (index arrays apart), an arange over the batch joins them so the batch stays first."""
    arrays = [k for k, i in enumerate(index) if isinstance(i, np.ndarray)]
    if not arrays or arrays[-1] - arrays[0] == len(arrays) - 1:  # adjacent: picked dims stay in place
        return (slice(None),) + index
    picked = np.broadcast_shapes(*[(np.count_nonzero(index[k]),) if _is_mask(index[k]) else index[k].shape
                                   for k in arrays])
    return (np.arange(size).reshape((size,) + (1,) * len(picked)),) + index


def _index_batched_x(op, args, batched, params, dtype):
    """``index`` (and its backward, which scatters into zeros of one sample's shape) of
    each sample of a batch, the index not batched."""
    size = args[0]._data.shape[0]
    params = (_batch_index(params[0], size),) + params[1:]
    if op is INDEX_BACKWARD:
        params = (params[0], (size,) + tuple(params[1]), params[2])
    return apply(op, args, params, dtype)


# advanced indexing copies; repeated indices accumulate their gradients
INDEX = defop("index", _take_index, node="IndexBackward0", batch=_index_batched_x,
              save=lambda ans, x, index: (x._data.shape, index),
              vjp=lambda g, shape, index: unary(INDEX_BACKWARD, g, (index, shape, True)),
              jvp=lambda t, shape, index: unary(INDEX, t, (index,)))

INDEX_BACKWARD = defop(
    "index_backward", _scatter_index, node="IndexPutBackward0", batch=_index_batched_x,
    save=lambda ans, g, index, shape, accumulate: (index, shape, accumulate),
    vjp=lambda gg, index, shape, accumulate: unary(INDEX, gg, (index,)),
    jvp=lambda t, index, shape, accumulate: unary(INDEX_BACKWARD, t, (index, shape, accumulate)))


def _view(x, view, node):
    return x if node is None else unary(_BASIC_OPS[node], x, (view,))


# --- index tensors batched by vmap: one index of the batch ----------------------------------------

_BATCHED_MASK = ("vmap: We do not support batching operators that can support dynamic shape. Attempting to batch "
                 "over indexing with a boolean mask.")


def _stand_in(i):
    """A batched index tensor as one sample's array of zeros (its shape and dtype): the index
    is read and checked as for one sample, the values later, on the batch. A batched mask
    picks a different number of elements in each sample: PyTorch refuses it."""
    data = i._data
    if data.dtype.kind == "b" or data.dtype == np.uint8:
        raise RuntimeError(_BATCHED_MASK)
    return np.zeros(data.shape, data.dtype)


def _picked_ndim(entries):
    """The rank of what the index arrays and masks among ``entries`` pick (their broadcast)."""
    return len(np.broadcast_shapes(*[(np.count_nonzero(e),) if _is_mask(e) else e.shape
                                     for e in entries if not isinstance(e, slice)]))


def _batch_entries(entries, batched, size, picked_ndim):
    """One sample's NumPy index (``entries``; ``batched``: position -> the batch of index
    tensors there, batch dim first) as index tensors for the batch: an arange picks each
    sample, and the batched tensors are padded to the picked rank so their batch dims meet.

    >>> # a sample's x[:, i] with i of shape (2,): the batch's x[arange(B)[:, None], :, i]
    """
    out = [_wrap(np.arange(size).reshape((size,) + (1,) * picked_ndim))]
    for p, e in enumerate(entries):
        if p in batched:
            shape = batched[p]._data.shape
            out.append(batched[p].reshape((size,) + (1,) * (picked_ndim + 1 - len(shape)) + shape[1:]))
        else:
            out.append(e if isinstance(e, slice) else _wrap(e))
    return tuple(out)


def _getitem_batched(x, index):
    """``x[index]`` for index tensors batched by vmap, as one index of the batch: the index
    is read for one sample (the batched tensors as stand-ins), then run on the batch with
    an arange for its dim, as PyTorch's vmap does (so its bounds errors count that dim too).
    """
    by_array, stand_ins, parsed = {}, set(), []
    for item in _items(index):
        if not isinstance(item, Tensor) and any_batched(item):  # a list of batched tensors: values in NumPy
            return per_sample(getitem, x, index)
        if any_batched(item):
            stand_in = _wrap(_stand_in(item))
            by_array[id(stand_in._data)] = item
            stand_ins.add(id(stand_in))
            item = stand_in
        parsed.append(item)
    view, node, advanced = _parse(x._data.shape, tuple(parsed), True, arrays=stand_ins)
    entries = advanced[0]
    batched = {p: by_array[id(e)] for p, e in enumerate(entries) if id(e) in by_array}
    if len(batched) != len(by_array):  # a stand-in replaced (a dim of size 0, nothing read)
        return per_sample(getitem, x, index)
    view_x, order, picked = _view(x, view, node), list(batched), _picked_ndim(entries)
    arrays = [p for p, e in enumerate(entries) if not isinstance(e, slice)]
    before = arrays[0] if arrays[-1] - arrays[0] == len(arrays) - 1 else 0  # where one sample's picked dims go

    def pick(b, *indices):
        out = getitem(b, _batch_entries(entries, dict(zip(order, indices)), b._data.shape[0], picked))
        if before:  # NumPy put the picked dims first (the arange is apart from them): move them back
            return out.movedim(tuple(range(1, 1 + picked)), tuple(range(1 + before, 1 + before + picked)))
        return out
    return on_batch(pick, view_x, *(batched[p] for p in order))


def getitem(x, index):
    """``x[index]``: the view part first, then index tensors (see the module docstring)."""
    if registry.BATCHING and any_batched(index):  # a batched x alone batches by the ops' rules
        return _getitem_batched(x, index)
    if index.__class__ is int and x._data.ndim and -x._data.shape[0] <= index < x._data.shape[0]:
        return unary(SELECT_BASIC, x, ((index,),))  # the most common index, without the general reading
    view, node, advanced = _parse(x._data.shape, index, True)
    if advanced is not None:
        return unary(INDEX, _view(x, view, node), (advanced[0],))
    return unary(ALIAS_INDEX, x, ((),)) if node is None else _view(x, view, node)


def select(input, dim, index):
    """The slice at ``index`` along ``dim``: a view without that dim."""
    ndim = input._data.ndim
    if ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = wrap_dim(dim, ndim)
    index = index.__index__()
    size = input._data.shape[dim]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input._data.shape)} at "
                         f"dimension {dim}")
    return unary(SELECT_BASIC, input, (_at_dim(dim, index),))


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
    if registry.BATCHING and any_batched(indices):  # a batched input or values alone: the op's rule
        return _index_put_batched_index(input, indices, values, accumulate)
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
    if registry.BATCHING and any_batched(index):  # a batched self alone writes through the ops' rules
        return _setitem_batched(self, index, value)
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
    by_array, stand_ins, parsed = {}, set(), []
    for item in _items(index):
        if not isinstance(item, Tensor) and any_batched(item):
            raise NotImplementedError("vmap: x[index] = v with a list of batched tensors in the index is not "
                                      "supported by chainrule yet")
        if any_batched(item):
            stand_in = _wrap(_stand_in(item))
            by_array[id(stand_in._data)] = item
            stand_ins.add(id(stand_in))
            item = stand_in
        parsed.append(item)
    if batching.has_values(self._data):
        raise RuntimeError(_UNBATCHED_SELF)
    view, node, advanced = _parse(self._data.shape, tuple(parsed), False, arrays=stand_ins)
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


_C_TYPES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "int64_t", "int32": "int",
            "int16": "int16_t", "int8": "int8_t", "uint8": "uint8_t", "bool": "bool"}


def _scalar(value, dtype):
    """A Python number written into a tensor of ``dtype`` (a 0-d array), or PyTorch's
    error for a number that the dtype can't hold; inf and nan fit floats only."""
    kind = dtype.kind
    if kind != "c" and isinstance(value, (complex, np.complexfloating)):
        if value.imag != 0:
            raise _overflow(dtype)
        value = value.real
    if kind in "iu" and not isinstance(value, (bool, np.bool_)):
        if isinstance(value, (int, np.integer)) and not -2 ** 63 <= value < 2 ** 64:
            raise OverflowError("int too big to convert")
        info = np.iinfo(dtype)
        low = -info.max - 1 if kind == "u" else info.min  # PyTorch lets -1 wrap to 255
        if not (math.isfinite(value) and low <= value <= info.max):
            raise _overflow(dtype)
    elif kind == "f" and math.isfinite(value) and abs(value) > float(np.finfo(dtype).max):
        raise _overflow(dtype)
    return np.asarray(value).astype(dtype)


def _overflow(dtype):
    return RuntimeError(f"value cannot be converted to type {_C_TYPES[dtype.name]} without overflow")


# --- checking index arguments ----------------------------------------------------------------


def _tensor_arg(value, fn, name, position):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Tensor, not {_type_name(value)}")
    return value._data


def _values(t):
    """Every sample's values of ``t`` (through nested vmaps; ``t._data`` outside vmap), for
    value checks that must fail when any sample fails, as the loop over samples would."""
    data = t._data
    while not batching.has_values(data):
        t = t._inner
        data = t._data
    return data


def _first_bad(index, size, negative=False):
    """The first entry of ``index`` (in C order) outside ``[0, size)``, or ``[-size, size)``
    where negative indices count from the end; None when all are in range. Under vmap the
    values of a batched index are not here to check: the op's batched call checks them."""
    if not batching.has_values(index):
        return None
    bad = (index < (-size if negative else 0)) | (index >= size)
    return int(index[bad][0]) if bad.any() else None


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


def index_select(input, dim, index):
    """The slices ``index`` of ``input`` along ``dim``, in that order (repeats allowed)."""
    if registry.BATCHING and any_batched(index) and not input._data.ndim:
        return per_sample(index_select, input, dim, index)
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
        bad = _first_bad(_values(index), size)
        if bad is not None:
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
    if _index_batched(input, index):
        shape = _with_size(input._data.shape, dim, data.size)
        return on_batch(lambda b, i: gather(b, dim + 1, _spread(i, dim, shape)), input, index)
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


def index_add(input, dim, index, source, *, alpha=1):
    """``input`` with ``alpha * source`` added to the slices ``index`` along ``dim``;
    repeated indices add up."""
    if registry.BATCHING and any_batched(index) and not input._data.ndim:
        return per_sample(index_add, input, dim, index, source, alpha=alpha)
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
    if _index_batched(input, index):  # index_add of each sample is a scatter_add of the batch
        shape = _with_size(shape, dim, data.size)
        return on_batch(lambda b, i, s: scatter_add(b, dim + 1, _spread(i, dim, shape),
                                                    _times(s, alpha).reshape((-1,) + shape)), input, index, source)
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


def index_copy(input, dim, index, source):
    """``input`` with the slices ``index`` along ``dim`` replaced by ``source``'s."""
    if registry.BATCHING and any_batched(index) and not input._data.ndim:
        return per_sample(index_copy, input, dim, index, source)
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
    if _index_batched(input, index):  # index_copy of each sample is a scatter of the batch
        shape = _with_size(shape, dim, data.size)
        return on_batch(lambda b, i, s: scatter(b, dim + 1, _spread(i, dim, shape), s.reshape((-1,) + shape)),
                        input, index, source)
    return apply(INDEX_COPY, (input, source), (dim, _vector(data)))


def _index_fill(x, dim, index, value):
    out = _copy(x)
    _vector(out)[_at_dim(dim, index)] = value
    return out


INDEX_FILL = defop("index_fill", _index_fill, batch=index_params(0), node="IndexFillBackward0",
                   save=lambda ans, x, dim, index, value: (dim, index),
                   vjp=lambda g, dim, index: unary(INDEX_FILL, g, (dim, index, 0)),
                   jvp=lambda t, dim, index: unary(INDEX_FILL, t, (dim, index, 0)))

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


def index_fill(input, dim, index, value):
    """``input`` with the slices ``index`` along ``dim`` set to ``value`` (a number or a
    0-d tensor); negative indices count from the end."""
    if registry.BATCHING and any_batched(index, value) and not input._data.ndim:
        return per_sample(index_fill, input, dim, index, value)
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
    if registry.BATCHING and any_batched(index, value):
        shape = _with_size(input._data.shape, dim, data.size)
        return on_batch(lambda b, i, v: _batch_index_fill(b, dim, i, v, size, shape), input, index, value)
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
        raise RuntimeError(f"{fn}(): Expected dtype int32/int64 for index")
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


def _index_batched(input, index):
    """Whether ``index`` is batched by vmap with ``input`` a sample of some dims: then the
    op runs once on the batch, its dim moved past the batch dim (a 0-d sample loops)."""
    return registry.BATCHING and any_batched(index) and input._data.ndim > 0


def gather(input, dim, index, *, sparse_grad=False):
    """``out[i][j] = input[index[i][j]][j]`` for dim 0 (and alike for other dims)."""
    if registry.BATCHING and any_batched(index) and not input._data.ndim:
        return per_sample(gather, input, dim, index, sparse_grad=sparse_grad)
    dim, data = _gather_args("gather", input, dim, index)
    if _index_batched(input, index):
        return on_batch(lambda b, i: gather(b, dim + 1, i), input, index)
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
                      jvp=lambda t, dim, index: _zeroed_at(t, dim, index))

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


def scatter(input, dim, index, src=None, value=None, *, reduce=None):
    """``input`` with ``src[i][j]`` (or ``value``) written at ``[index[i][j]][j]`` for dim 0
    (and alike for other dims). Repeated indices: one of the writes wins."""
    if registry.BATCHING and any_batched(index) and not input._data.ndim:
        return per_sample(scatter, input, dim, index, src, value, reduce=reduce)
    if src is not None and not isinstance(src, Tensor):
        src, value = None, src
    dim, data = _gather_args("scatter", input, dim, index, src)
    if _index_batched(input, index):
        return on_batch(lambda b, i, s: scatter(b, dim + 1, i, s, value, reduce=reduce), input, index, src)
    if reduce is not None:
        if reduce not in ("add", "multiply"):
            raise RuntimeError("reduce argument must be either add or multiply.")
        if src is None:
            src = _wrap(_scalar(value, input._data.dtype))
        return apply(SCATTER_LEGACY_REDUCE, (input, src), (dim, data, reduce))
    if src is None:
        return unary(SCATTER_VALUE, input, (dim, data, _scalar(value, input._data.dtype)))
    return apply(SCATTER, (input, src), (dim, data))


def scatter_add(input, dim, index, src):
    """``input`` with each ``src[i][j]`` added at ``[index[i][j]][j]`` for dim 0; repeated
    indices add up."""
    if registry.BATCHING and any_batched(index) and not input._data.ndim:
        return per_sample(scatter_add, input, dim, index, src)
    _tensor_arg(src, "scatter_add", "src", 4)
    dim, data = _gather_args("scatter", input, dim, index, src)
    if _index_batched(input, index):
        return on_batch(lambda b, i, s: scatter_add(b, dim + 1, i, s), input, index, src)
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


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """``input`` with each ``src[i][j]`` reduced (sum, prod, mean, amax, amin) into
    ``[index[i][j]][j]`` for dim 0; ``include_self=False`` leaves input's values out of
    the positions that receive something."""
    if registry.BATCHING and any_batched(index) and not input._data.ndim:
        return per_sample(scatter_reduce, input, dim, index, src, reduce, include_self=include_self)
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if reduce not in _REDUCTIONS:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    dim, data = _gather_args("scatter", input, dim, index, src)
    if _index_batched(input, index):
        return on_batch(lambda b, i, s: scatter_reduce(b, dim + 1, i, s, reduce, include_self=include_self),
                        input, index, src)
    return apply(SCATTER_REDUCE, (input, src), (dim, data, reduce, include_self))


def take_along_dim(input, indices, dim=None):
    """``gather`` with input and indices broadcast against each other (but along ``dim``);
    without a dim, both are flattened first."""
    data = _tensor_arg(indices, "take_along_dim", "indices", 2)
    if data.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_name(data)}")
    if dim is None:
        return gather(input.view(-1), 0, indices.view(-1))
    ndim = input._data.ndim
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = wrap_dim(dim, ndim)
    if data.ndim != ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {ndim} dimensions for input, and {data.ndim} dimensions for indices")
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


# --- masks ------------------------------------------------------------------------------------------

_MASK_TYPES = {"uint8": "unsigned char", "int64": "long int", "int32": "int", "int16": "short int",
               "int8": "signed char", "float32": "float", "float64": "double"}


def _mask_arg(fn, input, mask):
    data = _tensor_arg(mask, fn, "mask", 2)
    if data.dtype.kind != "b":
        if fn == "masked_fill":
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                               f"{_MASK_TYPES.get(data.dtype.name, data.dtype.name)}")
        if fn == "masked_scatter":
            raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                               f"{_name(data)}")
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    try:
        shape = np.broadcast_shapes(data.shape, input._data.shape)
    except ValueError as e:
        raise broadcast_error(e, data.shape, input._data.shape) from None
    return data, shape


def _masked_fill(x, mask, value):
    return np.where(mask, value, x).astype(x.dtype, copy=False)


def _under_mask(op, args, batched, params, dtype):
    """An op of one sample with a mask parameter (not batched), which broadcasts against
    it: the batched inputs padded to the mask's rank too, as broadcasting would pad them."""
    ndim = max(params[0].ndim, *(batching.logical_ndim(a, b) for a, b in zip(args, batched)))
    return apply(op, [batching.pad(a, ndim) if b else a for a, b in zip(args, batched)], params, dtype)


MASKED_FILL = defop("masked_fill", _masked_fill, node="MaskedFillBackward0", batch=_under_mask,
                    save=lambda ans, x, mask, value: (mask,),
                    vjp=lambda g, mask: unary(MASKED_FILL, g, (mask, 0)),
                    jvp=lambda t, mask: unary(MASKED_FILL, t, (mask, 0)))

# filling from a 0-d tensor: its gradient is the sum of the incoming one where the mask holds
MASKED_FILL_TENSOR = defop(
    "masked_fill_tensor", lambda x, value, mask: _masked_fill(x, mask, value), node="MaskedFillBackward1",
    batch=_under_mask,
    save=lambda ans, x, value, mask: (mask, ans._data.shape),
    vjp=(lambda g, mask, shape: unary(MASKED_FILL, g, (mask, 0)),
         lambda g, mask, shape: unary(MASKED_SELECT, g, (mask,)).sum()),
    jvp=(lambda t, mask, shape: unary(MASKED_FILL, t, (mask, 0)),
         lambda t, mask, shape: apply(MASKED_FILL_TENSOR, (_zeros(shape, t), t), (mask,))))


def masked_fill(input, mask, value):
    """``input`` with ``value`` (a number or a 0-d tensor) where ``mask`` holds; input and
    mask broadcast."""
    data, _ = _mask_arg("masked_fill", input, mask)
    if isinstance(value, Tensor):
        if value._data.ndim != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
    if registry.BATCHING and any_batched(mask):  # (a batched input or value alone: the ops' rules)
        ndim = max(input._data.ndim, data.ndim)
        return on_batch(lambda b, m, v: _batch_masked_fill(batching.pad(b, ndim), batching.pad(m, ndim), v),
                        input, mask, value)
    if isinstance(value, Tensor):
        return apply(MASKED_FILL_TENSOR, (input, value), (data,))
    return unary(MASKED_FILL, input, (data, _scalar(value, input._data.dtype)))


def _batch_masked_fill(b, mask, value):
    """``masked_fill`` of each sample of the batch ``b`` with its ``mask`` (both of the same
    rank): a 0-d value of each sample is a batch of values, which ``where`` broadcasts."""
    if not isinstance(value, Tensor):
        return masked_fill(b, mask, value)
    return ew.where(mask, batching.pad(value.to(b.dtype), b.ndim - 1), b)


def _masked_scatter(x, source, mask):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    out = np.array(np.broadcast_to(x, shape))
    where = np.broadcast_to(mask, shape)
    out[where] = source.reshape(-1)[:np.count_nonzero(where)]
    return out


def _masked_scatter_backward(g, mask, shape):
    """The gradient of masked_scatter's source: ``g`` where the mask holds, in order, then zeros."""
    picked = g[np.broadcast_to(mask, g.shape)]
    out = np.zeros(int(np.prod(shape)), g.dtype)
    out[:picked.size] = picked
    return out.reshape(shape)


def _masked_scatter_batch(op, args, batched, params, dtype):
    """``masked_scatter`` of a batch under one mask: each sample takes the first ``count``
    elements of its own source, so the batch's source is those rows, one after another."""
    mask = params[0]
    (x, source), _ = batching.aligned(args, batched, same_rank=False)
    size, shape = x._data.shape[0], np.broadcast_shapes(x._data.shape[1:], mask.shape)
    count = np.count_nonzero(np.broadcast_to(mask, shape))
    rows = source.reshape((size, -1)).narrow(1, 0, count)
    return apply(op, (batching.pad(x, len(shape)), rows), (np.broadcast_to(mask, (size,) + shape),), dtype)


MASKED_SCATTER = defop(
    "masked_scatter", _masked_scatter, node="MaskedScatterBackward0", batch=_masked_scatter_batch,
    save=lambda ans, x, source, mask: (mask, source._data.shape, ans._data.shape),
    vjp=(lambda g, mask, shape, out_shape: unary(MASKED_FILL, g, (mask, 0)),
         lambda g, mask, shape, out_shape: unary(MASKED_SCATTER_BACKWARD, g, (mask, shape))),
    jvp=(lambda t, mask, shape, out_shape: unary(MASKED_FILL, t, (mask, 0)),
         lambda t, mask, shape, out_shape: apply(MASKED_SCATTER, (_zeros(out_shape, t), t), (mask,))))

def _masked_scatter_backward_batch(op, args, batched, params, dtype):
    """``masked_scatter_backward`` of a batch under one mask: each sample's ``count``
    picked elements, then zeros, in its own row of the source's shape."""
    (mask, shape), g = params, args[0]
    size, where = g._data.shape[0], np.broadcast_to(mask, g._data.shape)
    count, numel = np.count_nonzero(where[0]), math.prod(shape)
    picked = apply(op, (g,), (where, (size, count)), dtype)
    if count < numel:
        zeros = _wrap(np.zeros((size, numel), g._data.dtype))
        picked = scatter(zeros, 1, _wrap(np.broadcast_to(np.arange(count), (size, count))), picked)
    return picked.reshape((size,) + tuple(shape))


MASKED_SCATTER_BACKWARD = defop(
    "masked_scatter_backward", _masked_scatter_backward, node="MaskedScatterBackwardBackward0",
    batch=_masked_scatter_backward_batch,
    save=lambda ans, g, mask, shape: (mask, shape, g._data.shape),
    vjp=lambda gg, mask, shape, g_shape: apply(MASKED_SCATTER, (_zeros(g_shape, gg), gg), (mask,)),
    jvp=lambda t, mask, shape, g_shape: unary(MASKED_SCATTER_BACKWARD, t, (mask, shape)))


def masked_scatter(input, mask, source):
    """``input`` with ``source``'s first elements, in order, where ``mask`` holds."""
    data, shape = _mask_arg("masked_scatter", input, mask)
    if source._data.dtype != input._data.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{_name(input._data)} and {_name(source._data)}")
    if registry.BATCHING and any_batched(mask):  # (a batched input or source alone: the op's rule)
        numel = source._data.size
        return on_batch(lambda b, m, s: _batch_masked_scatter(b, m, s, shape, numel), input, mask, source)
    if source._data.size < np.count_nonzero(np.broadcast_to(data, np.broadcast_shapes(data.shape, input.shape))):
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return apply(MASKED_SCATTER, (input, source), (data,))


def _batch_masked_scatter(b, mask, source, shape, numel):
    """``masked_scatter`` of each sample with its own mask (``shape``: a sample's result,
    ``numel``: a sample's source size): a masked position takes the source element that
    the running count of the mask in its sample points at."""
    if not batching.has_values(mask._data):  # its values are a batch of an outer vmap's
        return per_sample(_batch_masked_scatter, b, mask, source, shape, numel)
    size = b.shape[0]
    full = (size,) + tuple(shape)
    mask = batching.pad(mask, len(shape)).expand(full).reshape((size, -1))
    ones = np.cumsum(mask._data, 1)
    if ones.size and ones[:, -1].max() > numel:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    b = batching.pad(b, len(shape)).expand(full).reshape((size, -1))
    if not numel:  # nothing to place: every mask is empty
        return b.clone().reshape(full)
    picked = gather(source.reshape((size, numel)), 1, _wrap(np.maximum(ones - 1, 0)))
    return ew.where(mask, picked, b).reshape(full)


def _masked_select(x, mask):
    shape = np.broadcast_shapes(x.shape, mask.shape)
    return np.broadcast_to(x, shape)[np.broadcast_to(mask, shape)]


MASKED_SELECT = defop(
    "masked_select", _masked_select, node="MaskedSelectBackward0",
    save=lambda ans, x, mask: (mask, x._data.shape),
    vjp=lambda g, mask, shape: _sum_to(apply(MASKED_SCATTER, (_zeros(shape, g), g), (mask,)), shape),
    jvp=lambda t, mask, shape: unary(MASKED_SELECT, t, (mask,)))


def masked_select(input, mask):
    """The elements of ``input`` where ``mask`` holds (both broadcast), as a 1-d tensor."""
    if registry.BATCHING and any_batched(input, mask):
        if not any_batched(mask):  # the same number of elements from each sample
            return per_sample(masked_select, input, mask)
        raise RuntimeError("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot support "
                           "this because for each batch this would return a differently shaped Tensor. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues if you need this feature.")
    data, _ = _mask_arg("masked_select", input, mask)
    return unary(MASKED_SELECT, input, (data,))


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
    data = _flat_index_args("take", input, index)
    if registry.BATCHING and any_batched(input, index):  # each sample's rows: a gather of the batch
        n = input._data.size
        return on_batch(lambda b, i: gather(b.reshape((b.shape[0], n)), 1, _rows(i, n)).reshape(i.shape), input,
                        index)
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
    if registry.BATCHING and any_batched(input, index, source):  # a scatter of the batch's rows
        return on_batch(lambda b, i, s: _batch_put(b, _rows(i, input._data.size), s, accumulate), input, index, source)
    return apply(PUT, (input, source), (data, accumulate))


def _batch_put(b, rows, source, accumulate):
    flat, values = b.reshape((b.shape[0], -1)), source.reshape(rows.shape)
    out = scatter_add(flat, 1, rows, values) if accumulate else scatter(flat, 1, rows, values)
    return out.reshape(b.shape)


# --- integer results: where things are ------------------------------------------------------------


def nonzero(input, *, as_tuple=False):
    """The positions of the nonzero elements: one row each (``as_tuple``: one tensor per dim)."""
    if registry.BATCHING and any_batched(input):
        raise dynamic_shape("nonzero")
    data = input._data
    if as_tuple:
        return tuple(_wrap(i) for i in np.nonzero(_vector(data)))
    return _wrap(np.argwhere(data).astype(np.int64))


def argwhere(input):
    if registry.BATCHING and any_batched(input):
        return _argwhere_rows(input, 0)
    return nonzero(input)


def _unequal_samples(shapes):
    """PyTorch's vmap runs ``argwhere`` (and ``bincount``, ``histc``) once per sample and
    stacks the results: its error when their shapes differ."""
    k = next(i for i, shape in enumerate(shapes) if shape != shapes[0])
    return RuntimeError(f"stack expects each tensor to be equal size, but got {list(shapes[0])} at entry 0 and "
                        f"{list(shapes[k])} at entry {k}")


def _argwhere_rows(x, batch_dims):
    """``argwhere`` of each sample of ``x`` (its first ``batch_dims`` dims are batch dims,
    one per vmap level) in one ``np.argwhere``: fine when every sample has as many nonzero
    elements (their rows come out grouped by sample), else PyTorch's stacking error.

    >>> vmap(argwhere)(tensor([[0, 1, 1], [1, 0, 1]]))  # [[[1], [2]], [[0], [2]]]
    """
    if registry.BATCHING and any_batched(x):
        return on_batch(lambda b: _argwhere_rows(b, batch_dims + 1), x)
    a = x._data
    lead, ndim = a.shape[:batch_dims], a.ndim - batch_dims
    counts = np.count_nonzero(a.reshape((int(np.prod(lead)), -1)), axis=1)
    if counts.size and np.any(counts != counts[0]):
        raise _unequal_samples([(int(c), ndim) for c in counts])
    positions = np.argwhere(a)[:, batch_dims:].astype(np.int64)
    return _wrap(positions.reshape(lead + (int(counts[0]) if counts.size else 0, ndim)))


def _search_rows(rows, values, right):
    """Where each row of ``values`` goes in the matching row of ``rows`` (both 2-d): PyTorch's
    binary search, run on every value at once (``log2(n)`` steps, no loop over rows), with
    its comparisons, so a NaN or an unsorted sequence gives PyTorch's answer, not NumPy's.

    >>> _search_rows(np.array([[1., np.nan]]), np.array([[0.5]]), False)  # NumPy would say 0
    array([[2]])
    """
    n = rows.shape[1]
    lo, hi = np.zeros(values.shape, np.int64), np.full(values.shape, n, np.int64)
    for _ in range(n.bit_length()):
        active = lo < hi
        mid = (lo + hi) // 2
        at_mid = np.take_along_axis(rows, np.minimum(mid, n - 1), 1)
        after = ~(at_mid > values) if right else ~(at_mid >= values)
        lo, hi = np.where(active & after, mid + 1, lo), np.where(active & ~after, mid, hi)
    return lo


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """Where ``input``'s values would go in ``sorted_sequence`` (each row of it, for the
    matching row of input) to keep it sorted; ``right``: after equal values."""
    seq = sorted_sequence._data
    values = input._data if isinstance(input, Tensor) else np.asarray(input)
    if seq.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension")
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    if seq.ndim > 1 and (values.ndim != seq.ndim or values.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           f"dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(seq.shape)} and input value tensor {list(values.shape)}")
    if seq.dtype.kind == "b":
        raise NotImplementedError("\"searchsorted_out_cpu\" not implemented for 'Bool'")
    if registry.BATCHING and any_batched(sorted_sequence, input, sorter):
        return _batch_searchsorted(sorted_sequence, input, sorter, out_int32, right)
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, -1)
    if seq.ndim == 1 and np.all(seq[1:] >= seq[:-1]):  # sorted, no NaN: NumPy's search gives PyTorch's answer
        out = np.searchsorted(seq, values, "right" if right else "left")
    else:
        rows = seq.reshape(-1, seq.shape[-1])
        out = _search_rows(rows, values.reshape(rows.shape[0], -1 if values.size else 0), right)
    return _wrap(np.asarray(out).reshape(values.shape).astype(np.int32 if out_int32 else np.int64))


def _batch_searchsorted(boundaries, input, sorter, out_int32, right):
    """``searchsorted`` of each sample as one search of the batch: a batch of 1-d sequences
    is a 2-d sequence, each row searched for its sample's values (flattened to one row)."""
    def search(seq, values, order):
        return searchsorted(seq, values, out_int32=out_int32, right=right, sorter=order)

    if boundaries._data.ndim > 1:  # already one search per row: the batch is one more leading dim
        return on_batch(search, boundaries, input, sorter)
    if not any_batched(boundaries, sorter):  # one sequence for every value of the batch
        return on_batch(lambda values: search(boundaries, values, sorter), input)
    shape = np.shape(input._data if isinstance(input, Tensor) else input)

    def rows(seq, values, order):
        size = seq.shape[0]
        if not isinstance(values, Tensor):
            values = _wrap(np.full((size, 1), np.asarray(values)))
        out = search(seq, values.reshape((size, int(np.prod(shape)))), order)
        return out.reshape((size,) + shape)

    return on_batch(rows, boundaries, input, sorter)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each value of ``input`` between sorted ``boundaries``: i such that
    ``boundaries[i - 1] < x <= boundaries[i]`` (``right``: ``<= x <``)."""
    if boundaries._data.ndim != 1:
        where = "bucketize: " if registry.BATCHING and any_batched(input, boundaries) else ""  # vmap's own check
        raise RuntimeError(f"{where}boundaries tensor must be 1 dimension, but got dim({boundaries._data.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


# --- Tensor methods ---------------------------------------------------------------------------------


def _delitem(self, index):
    raise TypeError("Tensor does not support deleting items")


Tensor.index_select = index_select
Tensor.index_add = index_add
Tensor.index_add_ = inplace_method(index_add, "index_add_")
Tensor.index_copy = index_copy
Tensor.index_copy_ = inplace_method(index_copy, "index_copy_")
Tensor.index_fill = index_fill
Tensor.index_fill_ = inplace_method(index_fill, "index_fill_")
Tensor.index_put = index_put
Tensor.index_put_ = index_put_
Tensor.gather = gather
Tensor.scatter = scatter
Tensor.scatter_ = inplace_method(scatter, "scatter_")
Tensor.scatter_add = scatter_add
Tensor.scatter_add_ = inplace_method(scatter_add, "scatter_add_")
Tensor.scatter_reduce = scatter_reduce
Tensor.scatter_reduce_ = inplace_method(scatter_reduce, "scatter_reduce_")
Tensor.take_along_dim = take_along_dim
Tensor.masked_fill = masked_fill
Tensor.masked_fill_ = inplace_method(masked_fill, "masked_fill_")
Tensor.masked_scatter = masked_scatter
Tensor.masked_scatter_ = inplace_method(masked_scatter, "masked_scatter_")
Tensor.masked_select = masked_select
Tensor.take = take
Tensor.put = put
Tensor.put_ = inplace_method(put, "put_")
Tensor.nonzero = nonzero
Tensor.argwhere = argwhere
Tensor.__delitem__ = _delitem
