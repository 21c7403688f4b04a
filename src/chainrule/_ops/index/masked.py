"""The mask ops: ``masked_fill``, ``masked_scatter``, ``masked_select``.

The mask is a parameter (a bool array), never differentiated; each op's gradient is
another of this file (``masked_select``'s is ``masked_scatter`` into zeros). A mask
batched by vmap runs as ``where``, ``gather`` or ``scatter`` of the batch.

>>> masked_fill(x, x < 0, 0.)   # x with its negative elements zeroed
"""
import math

import numpy as np

from ..._core.tensor import _C_TYPE_NAMES, Tensor, _wrap
from .. import batching
from ..pointwise import elementwise as ew
from ..methods import inplace_method
from ..batching import any_batched, batched_by, on_batch, per_sample
from ..registry import FROM_VJP, apply, broadcast_error, defop, unary
from .indexing import _name, _scalar, _sum_to, _tensor_arg, _zeros
from .gather_scatter import gather, scatter

# --- masks ------------------------------------------------------------------------------------------

def _mask_arg(fn, input, mask):
    data = _tensor_arg(mask, fn, "mask", 2)
    if data.dtype.kind != "b":
        if fn == "masked_fill":
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                               f"{_C_TYPE_NAMES[data.dtype.name]}")
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
                    jvp=FROM_VJP)

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
    return _masked_fill_checked(input, mask, value, data)


def _masked_fill_batched(input, mask, value, data):
    ndim = max(input._data.ndim, data.ndim)
    return on_batch(lambda b, m, v: _batch_masked_fill(batching.pad(b, ndim), batching.pad(m, ndim), v),
                    input, mask, value)


@batched_by(_masked_fill_batched, when=("mask",))  # (a batched input or value alone: the ops' rules)
def _masked_fill_checked(input, mask, value, data):
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
    return _masked_scatter_checked(input, mask, source, data, shape)


@batched_by(lambda input, mask, source, data, shape: on_batch(
    lambda b, m, s: _batch_masked_scatter(b, m, s, shape, source._data.size), input, mask, source),
    when=("mask",))  # (a batched input or source alone: the op's rule)
def _masked_scatter_checked(input, mask, source, data, shape):
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


def _masked_select_batched(input, mask):
    if not any_batched(mask):  # the same number of elements from each sample
        return per_sample(masked_select, input, mask)
    raise RuntimeError("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot support "
                       "this because for each batch this would return a differently shaped Tensor. Please file "
                       "an issue at https://github.com/pytorch/pytorch/issues if you need this feature.")


@batched_by(_masked_select_batched)
def masked_select(input, mask):
    """The elements of ``input`` where ``mask`` holds (both broadcast), as a 1-d tensor."""
    data, _ = _mask_arg("masked_select", input, mask)
    return unary(MASKED_SELECT, input, (data,))


# --- Tensor methods ---------------------------------------------------------------------------------

Tensor.masked_fill = masked_fill
Tensor.masked_fill_ = inplace_method(masked_fill, "masked_fill_")
Tensor.masked_scatter = masked_scatter
Tensor.masked_scatter_ = inplace_method(masked_scatter, "masked_scatter_")
Tensor.masked_select = masked_select
