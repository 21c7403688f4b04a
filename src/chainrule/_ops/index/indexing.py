"""Indexing: ``x[index]``, and the helpers that the other files of the indexing family share.

``x[index]`` follows PyTorch's two steps (``applySlicing``, then ``index``): ints, slices
and None make a view of x (``SelectBackward0``, ``SliceBackward0``...); index tensors
then pick from that view in one copy (``IndexBackward0``), where repeated indices
accumulate their gradients. So ``x[0, :, [1, 2]]`` selects row 0 first and has shape
(size of dim 1, 2), where NumPy would give (2, size of dim 1).

The family builds on this file: ``index_put`` (``x[index] = v``), ``along_dim``
(``index_select``...), ``gather_scatter``, ``masked``, ``take_put`` and ``searching``
import its helpers (index reading, argument checks, ``_scalar``) from here, so none of
them imports another's internals in a cycle.
"""
import math
import warnings

import numpy as np

from ..._core.dtype import _LEGACY_NAMES
from ..._core.tensor import Tensor, _wrap
from .. import batching
from ..batching import any_batched, batched_by, indexed, on_batch, per_sample
from ..registry import LINEAR, apply, defop, unary
from ..._core.dims import wrap_dim

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
    if any(size == 0 for _, size, _ in bad):  # even where nothing would be read
        raise IndexError("index is out of bounds for dimension with size 0")
    flags = [(a < -size) | (a >= size) for a, size, _ in bad]
    if 0 in out_shape:  # nothing is read: NumPy must not see the bad indices either
        fixed = {id(a): np.broadcast_to(a, picked) if 0 in picked else np.where(f, 0, a)
                 for (a, _, _), f in zip(bad, flags)}
        return [fixed.get(id(i), i) for i in index]
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
    jvp=LINEAR)


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


def _sample_index(index):
    """One sample's index: its batched tensors replaced by stand-ins of a sample's shape.
    Returns (items, {id(stand-in array): batched tensor}, {id(stand-in)}), or None when a
    list in the index holds batched tensors (its values would be read in NumPy)."""
    by_array, stand_ins, parsed = {}, set(), []
    for item in _items(index):
        if any_batched(item):
            if not isinstance(item, Tensor):
                return None
            stand_in = _wrap(_stand_in(item))
            by_array[id(stand_in._data)] = item
            stand_ins.add(id(stand_in))
            item = stand_in
        parsed.append(item)
    return tuple(parsed), by_array, stand_ins


def _getitem_batched(x, index):
    """``x[index]`` for index tensors batched by vmap, as one index of the batch: the index
    is read for one sample (the batched tensors as stand-ins), then run on the batch with
    an arange for its dim, as PyTorch's vmap does (so its bounds errors count that dim too).
    """
    read = _sample_index(index)
    if read is None:  # a list of batched tensors: values in NumPy
        return per_sample(getitem, x, index)
    parsed, by_array, stand_ins = read
    view, node, advanced = _parse(x._data.shape, parsed, True, arrays=stand_ins)
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


@batched_by(_getitem_batched, when=("index",))  # (a batched x alone batches by the ops' rules)
def getitem(x, index):
    """``x[index]``: the view part first, then index tensors (see the module docstring)."""
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


# --- a Python number written into a tensor ---------------------------------------------------------

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
        # c10's overflows: an int may wrap into an unsigned dtype from as low as -max (-1 is 255), a float may not
        low = -int(info.max) if kind == "u" and isinstance(value, (int, np.integer)) else info.min
        if not (math.isfinite(value) and low <= value <= info.max):
            raise _overflow(dtype)
    elif kind == "f" and math.isfinite(value) and abs(value) > float(np.finfo(dtype).max):
        raise _overflow(dtype)
    return np.asarray(value).astype(dtype)


def _overflow(dtype):
    return RuntimeError(f"value cannot be converted to type {_C_TYPES[dtype.name]} without overflow")


# --- Tensor methods ---------------------------------------------------------------------------------


def _delitem(self, index):
    raise TypeError("Tensor does not support deleting items")


Tensor.__getitem__ = getitem
Tensor.__delitem__ = _delitem
