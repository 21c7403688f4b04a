"""Joining and splitting: ``cat``, ``stack`` and their variants, ``block_diag``,
``meshgrid``, ``cartesian_prod``, ``combinations``; copies of one tensor joined
(``repeat``, ``tile``, ``repeat_interleave``); ``split``, ``chunk``, ``unbind``,
``tensor_split`` and ``narrow`` (``select`` is in ``indexing``).

Splitting gives views of the input, one node per output: each output's gradient is
placed into zeros of the input's shape, and the engine adds up what reaches the input.

Joining copies. A registered op has one rule per input, so a fixed number of inputs:
``cat`` of n tensors is a balanced tree of n - 1 two-input nodes (the last one is
``CatBackward0``, as in PyTorch; each element is copied once per level, log2(n) times).
Without a graph to record, the join is one ``np.concatenate``.

>>> a, b = chainrule.ones(2), chainrule.zeros(2)
>>> chainrule.stack((a, b), dim=1)
tensor([[1., 0.],
        [1., 0.]])
"""
import warnings

import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import Tensor, _legacy_type_name, _wrap
from ..._core.modes import FORWARD_AD, VMAP
from ..._core.modes import GRAD_MODE
from ..index.gather_scatter import gather
from ..index.indexing import select
from ..batching import aligned, any_batched, batched_by, dim_params, has_values, indexed, on_batch, pad, per_sample
from ..registry import LINEAR, apply, check_out, defop, unary, write_out
from ..operands import clone
from .views import atleast_2d, atleast_3d, expand, flatten, reshape, unsqueeze, view
from ..._core.dims import wrap_dim, wrap_dim_of_tensor, wrap_dim_then_size
from ..._core.arguments import size_arg

# --- joining --------------------------------------------------------------------------------


def _concatenate(arrays, dim, dtype, stacked):
    """The arrays joined along ``dim``; one flagged in ``stacked`` is one item of a stack
    (it gets ``dim`` first). As in PyTorch's cat, a 1-d empty array joins anything."""
    parts = [np.expand_dims(a, dim) if s else a for a, s in zip(arrays, stacked) if s or a.shape != (0,)]
    if not parts:
        return np.empty((0,), dtype)
    return np.concatenate(parts, axis=dim, dtype=dtype, casting="unsafe")


def _join(a, b, dim, dtype, stacked):
    return _concatenate((a, b), dim, dtype, stacked)


def _extent(shape, dim, stacked):
    """How far along ``dim`` an input reaches in the joined result."""
    return 1 if stacked else 0 if shape == (0,) else shape[dim]


def _part(g, shape, dim, start, stacked):
    """An input's gradient: its part of the result's (a select or a slice, as in PyTorch)."""
    if stacked:
        return select(g, dim, start)
    if shape == (0,):  # a skipped empty input
        return g.new_zeros((0,))
    return unary(NARROW, g, ((slice(None),) * dim + (slice(start, start + shape[dim]), Ellipsis),))


def _join_tangent(position):
    """The jvp for one input: the join of its tangent with zeros for the other input."""
    def rule(t, shapes, dim, dtype, stacked):
        zeros = _wrap(np.zeros(shapes[1 - position], t._data.dtype))
        return apply(CAT, (t, zeros) if position == 0 else (zeros, t), (dim, dtype, stacked))
    return rule


def _join_rules(node):
    return dict(
        node=node, save=lambda ans, a, b, dim, dtype, stacked: ((a._data.shape, b._data.shape), dim, dtype, stacked),
        vjp=(lambda g, shapes, dim, dtype, stacked: _part(g, shapes[0], dim, 0, stacked[0]),
             lambda g, shapes, dim, dtype, stacked: _part(g, shapes[1], dim, _extent(shapes[0], dim, stacked[0]),
                                                          stacked[1])),
        jvp=(_join_tangent(0), _join_tangent(1)))


# one forward, two PyTorch names: cat(a, b) and stack(a, b) (a cat of unsqueezed items)
CAT = defop("cat", _join, batch=dim_params(0, same_rank=False), **_join_rules("CatBackward0"))
STACK = defop("stack", _join, batch=dim_params(0, same_rank=False), **_join_rules("StackBackward0"))


def _join_all(op, tensors, dim, dtype, stacked):
    """Joins ``tensors`` (each an item of a stack if ``stacked``) with two-input nodes,
    pairing neighbours level by level."""
    if not (GRAD_MODE.enabled and any(t._requires_grad for t in tensors)) and not FORWARD_AD.active \
            and not VMAP.active:
        return _wrap(_concatenate([t._data for t in tensors], dim, dtype, [stacked] * len(tensors)))
    items = [(t, stacked) for t in tensors]
    if len(items) == 1:  # the lone input joins an empty one: a copy, with a node
        shape = list(tensors[0]._data.shape)
        if stacked:
            shape.insert(dim, 0)
        elif shape != [0]:
            shape[dim] = 0
        items.append((_wrap(np.empty(shape, dtype)), False))

    def join(left, right):
        (a, a_stacked), (b, b_stacked) = left, right
        return apply(op, (a, b), (dim, dtype, (a_stacked, b_stacked))), False
    return _pairwise(join, items)[0]


def _pairwise(join, items):
    """Joins neighbours level by level until one is left: n - 1 joins in log2(n) levels."""
    while len(items) > 1:
        joined = [join(a, b) for a, b in zip(items[0::2], items[1::2])]
        items = joined + items[2 * len(joined):]  # an odd one out joins on the next level
    return items[0]


def _common_dtype(tensors):
    dtype = tensors[0].dtype
    for t in tensors[1:]:
        dtype = _dtype.promote_types(dtype, t.dtype)
    return dtype.np


def cat(tensors, dim=0, *, axis=None, out=None):
    """Joins tensors along an existing dim, in their promoted dtype. A 1-d empty tensor
    joins tensors of any shape (PyTorch keeps this for old code). ``out``: written there
    (see ``registry.write_out``)."""
    tensors = tensor_list(tensors, "cat")
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    if out is not None:
        check_out("cat", out, tensors)
    dim = dim if axis is None else axis
    for i, t in enumerate(tensors):
        if t._data.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    shaped = [(i, t._data.shape) for i, t in enumerate(tensors) if t._data.shape != (0,)]
    if shaped:
        first = shaped[0][1]
        dim = wrap_dim(dim, len(first))
        for i, shape in shaped:
            if len(shape) != len(first):
                raise RuntimeError(f"Tensors must have same number of dimensions: got {len(first)} and {len(shape)}")
            for d, (want, got) in enumerate(zip(first, shape)):
                if d != dim and want != got:
                    raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. Expected size "
                                       f"{want} but got size {got} for tensor number {i} in the list.")
    else:
        dim = 0
    result = _join_all(CAT, tensors, dim, _common_dtype(tensors), False)
    return result if out is None else write_out(out, result, _cat_cast_error(out))


def _cat_cast_error(out):
    return TypeError(f"torch.cat(): input types can't be cast to the desired output type "
                     f"{_legacy_type_name(out._data.dtype)[6:-6]}")


concat = concatenate = cat


def stack(tensors, dim=0, *, axis=None, out=None):
    """Joins tensors of one shape along a new dim ``dim``."""
    tensors = tensor_list(tensors, "stack")
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    if out is not None:
        check_out("stack", out, tensors)
    first = tensors[0]._data.shape
    dim = wrap_dim(dim if axis is None else axis, len(first) + 1)
    for i, t in enumerate(tensors):
        if t._data.shape != first:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(first)} at entry 0 and "
                               f"{list(t._data.shape)} at entry {i}")
    result = _join_all(STACK, tensors, dim, _common_dtype(tensors), True)
    return result if out is None else write_out(out, result, _cat_cast_error(out))


def tensor_list(tensors, name):
    """``tensors`` as a list, with PyTorch's TypeErrors for what is not a sequence of
    tensors: ``cat(x)``, ``cat([x, [1.0]])``."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, "
                        f"not {_type_name(tensors)}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {_type_name(t)}")
    return list(tensors)


def _type_name(value):
    return "numpy.ndarray" if isinstance(value, np.ndarray) else type(value).__name__


def _nonempty(tensors, name):
    tensors = tensor_list(tensors, name)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors, *, out=None):
    """Along dim 1, or dim 0 for vectors (0-d tensors count as vectors)."""
    tensors = [t if t._data.ndim else view(t, (1,)) for t in _nonempty(tensors, "hstack")]
    return cat(tensors, 0 if tensors[0]._data.ndim == 1 else 1, out=out)


def vstack(tensors, *, out=None):
    """Along dim 0, vectors and 0-d tensors taken as rows."""
    return cat(atleast_2d(_nonempty(tensors, "vstack")), 0, out=out)


row_stack = vstack


def dstack(tensors, *, out=None):
    """Along dim 2 (depth), each tensor made at least 3-d first."""
    return cat(atleast_3d(_nonempty(tensors, "dstack")), 2, out=out)


def column_stack(tensors, *, out=None):
    """Vectors and 0-d tensors as columns, matrices as they are, joined along dim 1."""
    tensors = _nonempty(tensors, "column_stack")
    return cat([reshape(t, (t._data.size, 1)) if t._data.ndim <= 1 else t for t in tensors], 1, out=out)


def _block_diag(a, b, dtype):
    out = np.zeros((a.shape[0] + b.shape[0], a.shape[1] + b.shape[1]), dtype)
    out[:a.shape[0], :a.shape[1]] = a
    out[a.shape[0]:, a.shape[1]:] = b
    return out


def _block_diag_tangent(position):
    def rule(t, shapes, dtype):
        zeros = _wrap(np.zeros(shapes[1 - position], t._data.dtype))
        return apply(BLOCK_DIAG, (t, zeros) if position == 0 else (zeros, t), (dtype,))
    return rule


def _block_diag_batch(op, args, batched, params, dtype):
    """Two blocks of each sample of a batch: each with zeros on its far side, the halves
    joined along the rows."""
    (a, b), _ = aligned(args, batched)
    np_dtype = params[0]
    a, b = a.to(_dtype.from_numpy_dtype(np_dtype)), b.to(_dtype.from_numpy_dtype(np_dtype))
    (size, ra, ca), (rb, cb) = a._data.shape, b._data.shape[1:]
    top = cat([a, _wrap(np.zeros((size, ra, cb), np_dtype))], 2)
    return cat([top, cat([_wrap(np.zeros((size, rb, ca), np_dtype)), b], 2)], 1)


BLOCK_DIAG = defop("block_diag", _block_diag, node="BlockDiagBackward0", batch=_block_diag_batch,
                   save=lambda ans, a, b, dtype: ((a._data.shape, b._data.shape), dtype),
                   vjp=(lambda g, shapes, dtype: _region(g, (slice(0, shapes[0][0]), slice(0, shapes[0][1]), ...)),
                        lambda g, shapes, dtype: _region(g, (slice(shapes[0][0], None), slice(shapes[0][1], None),
                                                             ...))),
                   jvp=(_block_diag_tangent(0), _block_diag_tangent(1)))


def block_diag(*tensors):
    """The tensors (0-d, vectors as rows, matrices) as blocks along the diagonal."""
    if not tensors:
        return _wrap(np.zeros((1, 0), _dtype.get_default_dtype().np))
    for i, t in enumerate(tensors):
        if t._data.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t._data.ndim} dimensions")
    dtype = _dtype.result_dtype(tensors).np  # PyTorch's result_type: a 0-d block ranks below the others
    blocks = [t if t._data.ndim == 2 else view(t, (1, -1)) for t in tensors]
    if not (GRAD_MODE.enabled and any(t._requires_grad for t in blocks)) and not FORWARD_AD.active and \
            not any_batched(blocks):  # (a batch: the op's rule)
        return _wrap(_pairwise(lambda a, b: _block_diag(a, b, dtype), [t._data for t in blocks]).astype(dtype))
    if len(blocks) == 1:
        blocks.append(_wrap(np.zeros((0, 0), dtype)))
    return _pairwise(lambda a, b: apply(BLOCK_DIAG, (a, b), (dtype,)), blocks)


# --- repeating ------------------------------------------------------------------------------


def _sum_repeats(g, in_shape, repeats):
    """The gradient of ``repeat``: each dim split as (repeat, size), the repeats summed."""
    padded = (1,) * (len(repeats) - len(in_shape)) + in_shape
    pairs = [d for r, s in zip(repeats, padded) for d in (r, s)]
    g = g.reshape(pairs).sum(tuple(range(0, len(pairs), 2))) if repeats else g
    return g if padded == in_shape else g.reshape(in_shape)


def _repeat_batched(op, args, batched, params, dtype):
    """Each sample tiled: the batch dim is repeated once."""
    repeats = tuple(params[0])
    return apply(op, (pad(args[0], len(repeats)),), ((1,) + repeats,), dtype)


REPEAT = defop("repeat", np.tile, batch=_repeat_batched, node="RepeatBackward0",
               save=lambda ans, x, repeats: (x._data.shape, repeats),
               vjp=lambda g, in_shape, repeats: _sum_repeats(g, in_shape, repeats),
               jvp=lambda t, in_shape, repeats: unary(REPEAT, t, (repeats,)))


def repeat(input, repeats):
    """``x.repeat(*repeats)``: the tensor tiled ``repeats[i]`` times along dim i (more
    repeats than dims add leading dims)."""
    repeats = tuple(repeats)
    shape = input._data.shape
    if len(repeats) < len(shape):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                           "of tensor")
    padded = (1,) * (len(repeats) - len(shape)) + shape
    target = [r * s for r, s in zip(repeats, padded)]
    negative = [s for s in target if s < 0]
    if negative:
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: {target}")
    return unary(REPEAT, input, (repeats,))


def tile(input, dims):
    if isinstance(dims, (int, np.integer)):
        raise TypeError(f"tile(): argument 'dims' (position 2) must be tuple of ints, not {type(dims).__name__}")
    dims = tuple(dims)
    return repeat(input, (1,) * (input._data.ndim - len(dims)) + dims)


def _repeat_indices(repeats, output_size=None):
    """``[0] * repeats[0] + [1] * repeats[1] + ...``: PyTorch's repeat_interleave(repeats)."""
    r = repeats._data if isinstance(repeats, Tensor) else np.asarray(repeats)
    if r.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if r.dtype.name not in ("int32", "int64"):  # PyTorch's kernel takes only these
        raise _dtype.not_implemented("repeat_interleave_cpu", r.dtype)
    if (r < 0).any():
        raise RuntimeError("repeats can not be negative")
    index = np.repeat(np.arange(r.shape[0], dtype=r.dtype), r)  # in the repeats' dtype, as PyTorch
    if output_size is not None and output_size != index.shape[0]:
        raise RuntimeError("allocated size does not match required size")
    return index


def _batch_repeat_interleave(b, repeats, dim, size, output_size):
    """Each sample's slices along ``dim`` (of ``size``) repeated by its own ``repeats``:
    one gather of the batch. Every sample must come out as long as the first, as PyTorch's
    per-sample loop stacks its results."""
    if not has_values(repeats._data):  # its values are a batch of an outer vmap's
        return per_sample(_batch_repeat_interleave, b, repeats, dim, size, output_size)
    rows = np.broadcast_to(repeats._data.reshape((b.shape[0], -1)), (b.shape[0], size))
    _repeat_indices(rows[0], output_size)  # the first sample's checks, in their order
    if (rows < 0).any():
        raise RuntimeError("repeats can not be negative")
    totals = rows.sum(1, dtype=np.int64)
    if output_size is not None and (totals != output_size).any():
        raise RuntimeError("allocated size does not match required size")
    differ = np.flatnonzero(totals != totals[0])
    if differ.size:
        raise RuntimeError(f"stack expects each tensor to be equal size, but got [{totals[0]}] at entry 0 and "
                           f"[{totals[differ[0]]}] at entry {differ[0]}")
    picks = np.repeat(np.tile(np.arange(size), rows.shape[0]), rows.reshape(-1)).reshape((rows.shape[0], -1))
    shape = [1] * b.ndim
    shape[0], shape[dim + 1] = picks.shape
    index = np.broadcast_to(picks.reshape(shape), b.shape[:dim + 1] + picks.shape[1:] + b.shape[dim + 2:])
    return gather(b, dim + 1, _wrap(index))


@batched_by(lambda x, repeats, dim, size, output_size: on_batch(
    lambda b, rows: _batch_repeat_interleave(b, rows, dim, size, output_size), x, repeats), when=("repeats",))
def _repeat_by_tensor(x, repeats, dim, size, output_size):
    r = repeats._data
    return x.index_select(dim, _wrap(_repeat_indices(np.broadcast_to(r, (size,)), output_size)))


@batched_by(lambda input, repeats, dim, output_size:  # the indices: one length per sample
            per_sample(repeat_interleave, input, repeats, dim, output_size=output_size) if repeats is None
            else NotImplemented)
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each element (or slice along ``dim``) repeated ``repeats`` times in a row.

    ``repeat_interleave(repeats)`` alone gives the indices that the repeats pick.
    """
    if repeats is None:
        return _wrap(_repeat_indices(input, output_size))
    x = input if dim is not None else flatten(input)
    if isinstance(repeats, Tensor):
        r = repeats._data
        if r.ndim > 1:  # checked before the input's dim
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        given, dim = 0 if dim is None else dim, wrap_dim_of_tensor(0 if dim is None else dim, x._data.ndim)
        size = x._data.shape[dim]
        if r.ndim == 1 and r.shape[0] not in (1, size):  # (the message names the dim as given)
            raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                               f"{r.shape[0]} and input.size({given}) = {size}")
        return _repeat_by_tensor(x, repeats, dim, size, output_size)
    dim = wrap_dim(0 if dim is None else dim, input._data.ndim)
    repeats = int(repeats)
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    y = unsqueeze(x, dim + 1)
    shape = x._data.shape
    if output_size is not None and output_size != shape[dim] * repeats:
        raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {shape[dim] * repeats} but got "
                           f"{output_size}")
    y = expand(y, shape[:dim + 1] + (repeats,) + shape[dim + 1:])
    return flatten(clone(y, "C"), dim, dim + 1)  # always a copy, as PyTorch's


# --- grids ------------------------------------------------------------------------------------


def meshgrid(*tensors, indexing=None):
    """Each 0-d or 1-d tensor expanded along its own dim of the grid (``"xy"``: the first
    two dims swapped, as in NumPy)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                      UserWarning, stacklevel=2)
        indexing = "ij"
    tensors = _nonempty(tensors, "meshgrid")
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("xy", "ij"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors[0], tensors[1] = tensors[1], tensors[0]
    for t in tensors:
        if t._data.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {t}")
    shape = tuple(t._data.size for t in tensors)
    grids = []
    for i, t in enumerate(tensors):
        along = [1] * len(tensors)
        along[i] = -1
        grids.append(view(t, along).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def _check_vector(t):
    if t._data.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(t._data.shape)}")


def cartesian_prod(*tensors):
    """All tuples of one element from each vector, as the rows of a matrix."""
    for t in tensors:
        _check_vector(t)
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.flatten() for g in meshgrid(*tensors, indexing="ij")], 1)


def combinations(input, r=2, with_replacement=False):
    """The ``r``-element combinations of a vector's elements, as rows, in lexicographic order."""
    _check_vector(input)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _wrap(np.empty((0,), input._data.dtype))
    grid = np.indices((input._data.shape[0],) * r).reshape(r, -1)
    ordered = grid[:-1] <= grid[1:] if with_replacement else grid[:-1] < grid[1:]
    columns = grid[:, ordered.all(axis=0)]
    return stack([input.index_select(0, _wrap(c)) for c in columns], 1)


# --- splitting --------------------------------------------------------------------------------


def _embed(g, shape, index):
    out = np.zeros(shape, g.dtype)
    out[index] = g
    return out


def _embedded(g, shape, index):
    """A region's gradient placed into zeros of the input's shape."""
    op = SELECT_BACKWARD if any(isinstance(i, int) for i in index) else SLICE_BACKWARD
    return unary(op, g, (shape, index))


def _region_rules(node):
    return dict(node=node, view=True, save=lambda ans, x, index: (x._data.shape, index),
                vjp=lambda g, shape, index: _embedded(g, shape, index),
                jvp=lambda t, shape, index: _region(t, index))


def _view_region(x, index):
    return x[index]  # index ends with ...: a 0-d result is a view too, not a copy


def _output_region_rules(node):
    """``_region_rules`` for one output of a multi-output view op: the params also carry
    the output's position, which in-place ops need for PyTorch's error (see inplace.py)."""
    return dict(node=node, view=True, save=lambda ans, x, index, position: (x._data.shape, index),
                vjp=lambda g, shape, index: _embedded(g, shape, index),
                jvp=lambda t, shape, index: _region(t, index))


def _output_region(x, index, position):
    return x[index]


# a region of the input (a view), under PyTorch's name for each op that makes one; the
# index is a tuple of slices with at most one int, ending in ...
NARROW = defop("narrow", _view_region, batch=indexed(0), **_region_rules("SliceBackward0"))
SPLIT = defop("split", _output_region, batch=indexed(0), **_output_region_rules("SplitBackward0"))
SPLIT_WITH_SIZES = defop("split_with_sizes", _output_region, batch=indexed(0), **_output_region_rules("SplitWithSizesBackward0"))
UNBIND = defop("unbind", _output_region, batch=indexed(0), **_output_region_rules("UnbindBackward0"))


def _region(x, index):
    """``x[index]`` as the view op PyTorch would record: select or slice (narrow)."""
    for dim, i in enumerate(index):
        if isinstance(i, int):
            return select(x, dim, i)
    return unary(NARROW, x, (index,))


# and their transposes, the region's gradient placed into zeros
SLICE_BACKWARD = defop("slice_backward", _embed, batch=indexed(1, shape_at=0), node="SliceBackwardBackward0",
                       save=lambda ans, g, shape, index: (shape, index),
                       vjp=lambda gg, shape, index: _region(gg, index),
                       jvp=LINEAR)
SELECT_BACKWARD = defop("select_backward", _embed, batch=indexed(1, shape_at=0), node="SelectBackwardBackward0",
                        save=lambda ans, g, shape, index: (shape, index),
                        vjp=lambda gg, shape, index: _region(gg, index),
                        jvp=LINEAR)


def _slices(op, x, dim, pieces):
    """Views of ``x`` from ``start`` to ``stop`` along ``dim``, for each (start, stop) of ``pieces``."""
    lead = (slice(None),) * dim
    if op is NARROW:
        return tuple(unary(op, x, (lead + (slice(a, max(a, b)), Ellipsis),)) for a, b in pieces)
    return tuple(unary(op, x, (lead + (slice(a, max(a, b)), Ellipsis), i)) for i, (a, b) in enumerate(pieces))


def _between(bounds):
    return zip(bounds[:-1], bounds[1:])


def _split_size(x, size, dim):
    ndim = x._data.ndim
    if ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    dim = wrap_dim(dim, ndim)
    n = x._data.shape[dim]
    if size == 0 and n:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
    starts = list(range(0, n, size)) if n else [0]
    return _slices(SPLIT, x, dim, _between(starts + [n]))


def _split_sizes(x, sizes, dim):
    ndim = x._data.ndim
    if ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    given, dim = dim, wrap_dim(dim, ndim)
    n = x._data.shape[dim]
    sizes = [int(s) for s in sizes]
    if any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got "
                           f"split_sizes={sizes}")
    if sum(sizes) != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                           f"dimension {given}), but got split_sizes={sizes}")
    return _slices(SPLIT_WITH_SIZES, x, dim, _between([0] + np.cumsum(sizes).tolist()))


def split(tensor, split_size_or_sections, dim=0):
    """Pieces of ``split_size`` along ``dim`` (the last may be shorter), or of the given sizes."""
    sizes = split_size_or_sections
    if isinstance(sizes, Tensor):
        sizes = sizes.tolist()
    if isinstance(sizes, (int, np.integer)):
        return _split_size(tensor, int(sizes), dim)
    return _split_sizes(tensor, sizes, dim)


def split_with_sizes(input, split_sizes, dim=0):
    return _split_sizes(input, split_sizes, dim)


def chunk(input, chunks, dim=0):
    """``chunks`` pieces of equal size along ``dim`` (the last may be smaller; fewer pieces
    when the size doesn't divide so)."""
    ndim = input._data.ndim
    if ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = input._data.shape[wrap_dim(dim, ndim)]
    if n == 0:  # as many empty pieces as asked for
        return _split_sizes(input, [0] * chunks, dim)
    return _split_size(input, -(-n // chunks), dim)


def unbind(input, dim=0):
    """The slices along ``dim``, each a view without that dim."""
    dim = wrap_dim_then_size(dim, input._data.ndim)
    lead = (slice(None),) * dim
    return tuple(unary(UNBIND, input, (lead + (i, Ellipsis), i)) for i in range(input._data.shape[dim]))


def narrow(input, dim, start, length):
    """``length`` elements along ``dim`` from ``start`` (negative counts from the end): a view."""
    ndim = input._data.ndim
    if ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    dim = wrap_dim(dim, ndim)
    size, start = input._data.shape[dim], int(start)
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return unary(NARROW, input, ((slice(None),) * dim + (slice(start, start + length), Ellipsis),))


def _tensor_split_batched(input, indices_or_sections, dim, sections, indices):
    """Pieces that differ per sample: PyTorch refuses."""
    raise RuntimeError("Batching rule not implemented for aten::tensor_split.tensor_indices_or_sections. We "
                       "could not generate a fallback.")


@batched_by(_tensor_split_batched, when=("indices_or_sections",))
def tensor_split(input, indices_or_sections=None, dim=0, *, sections=None, indices=None):
    """``sections`` nearly equal pieces (the first ones one longer), or the pieces between
    ``indices`` (Python slicing: negative indices count from the end, out of range clips)."""
    ndim = input._data.ndim
    if ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    how = next(v for v in (indices_or_sections, sections, indices) if v is not None)
    if isinstance(how, Tensor):
        data = how._data
        if data.dtype != np.int64:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{_dtype._LEGACY_NAMES[data.dtype.name]}")
        if data.ndim > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {data.ndim} dims")
        how = data.item() if data.ndim == 0 else data.tolist()
    dim = wrap_dim(dim, ndim)
    n = input._data.shape[dim]
    if isinstance(how, (int, np.integer)):
        if how <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {how}")
        small, extra = divmod(n, int(how))
        bounds = np.cumsum([0] + [small + 1] * extra + [small] * (int(how) - extra)).tolist()
        pieces = _between(bounds)
    else:
        cuts = [0] + [int(i) for i in how] + [None]
        pieces = (slice(a, b).indices(n)[:2] for a, b in zip(cuts[:-1], cuts[1:]))
    return _slices(NARROW, input, dim, pieces)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim``, ``prepend`` and ``append`` joined to
    ``input`` first; made of slices and a subtraction, so its graph is PyTorch's
    (SubBackward0 of two SliceBackward0), and bool tensors differ by ``logical_xor``.

    >>> chainrule.diff(chainrule.tensor([1, 4, 9, 16]))
    tensor([3, 5, 7])
    """
    ndim = input._data.ndim
    if ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    dim = wrap_dim(dim, ndim)
    parts = [input]
    for name, other in (("prepend", prepend), ("append", append)):
        if other is None:
            continue
        if not isinstance(other, Tensor):
            raise TypeError(f"diff(): argument '{name}' must be Tensor, not {_type_name(other)}")
        if other._data.ndim != ndim:
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        for d in range(ndim):
            if d != dim and other._data.shape[d] != input._data.shape[d]:
                raise RuntimeError("diff expects the shape of tensor to prepend or append to match that of input "
                                   f"except along the differencing dimension; input.size({d}) = "
                                   f"{input._data.shape[d]}, but got tensor.size({d}) = {other._data.shape[d]}")
        parts.insert(0 if name == "prepend" else len(parts), other)
    if n == 0:  # PyTorch joins nothing then, and copies the input into a new tensor
        return _wrap(np.empty_like(input._data)).copy_(input)
    x = cat(parts, dim) if len(parts) > 1 else input
    for _ in range(min(n, x._data.shape[dim])):
        length = x._data.shape[dim] - 1
        later, earlier = narrow(x, dim, 1, length), narrow(x, dim, 0, length)
        x = later.logical_xor(earlier) if x._data.dtype == np.bool_ else later - earlier
    return x


# --- Tensor methods --------------------------------------------------------------------------


def _repeat_method(self, *repeats, **kwargs):
    """``x.repeat(2, 3)``, ``x.repeat((2, 3))`` or ``x.repeat(repeats=(2, 3))``."""
    return repeat(self, kwargs["repeats"] if kwargs else size_arg(repeats, "repeat", "repeats"))


def _tile_method(self, *dims, **kwargs):
    return tile(self, kwargs["dims"] if kwargs else size_arg(dims))


def _split_method(self, split_size, dim=0):
    return split(self, split_size, dim)


Tensor.repeat = _repeat_method
Tensor.diff = diff
Tensor.tile = _tile_method
Tensor.repeat_interleave = repeat_interleave
Tensor.split = _split_method
Tensor.split_with_sizes = split_with_sizes
Tensor.tensor_split = tensor_split
Tensor.chunk = chunk
Tensor.unbind = unbind
Tensor.narrow = narrow
Tensor.select = select  # indexing.select: torch.select and x.select are one function
