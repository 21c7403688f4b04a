"""Ops that address elements by position: flips and rolls, triangles, diagonals,
sliding windows and ``as_strided``.

The copies (``flip``, ``roll``, ``rot90``) have rules that run the same op backwards:
flip again, roll back, turn back. Diagonals come in pairs of mutual transposes: taking
a diagonal (``diagonal``, a view) and placing one into zeros (``diag_embed``). Windows
(``unfold``) and ``as_strided`` are views through NumPy's stride tricks, their gradients
scatters back into place. They are apart from ``shape`` (reshaping and transposes),
whose helpers they import.

>>> x = chainrule.arange(6.0).reshape(2, 3)
>>> x.diagonal()
tensor([0., 4.])
"""
import numpy as np
from numpy.lib.array_utils import byte_bounds
from numpy.lib.stride_tricks import as_strided as _np_as_strided

from ..._core.modes import VMAP
from ..._core.tensor import Tensor
from ..batching import any_batched, dim_params, has_values, shift
from ..registry import LINEAR, apply, defop, unary
from .views import expand, ravel
from ..._core.dims import wrap_dim, wrap_dim_of_tensor
from ..._core.arguments import int_tuple, size_arg, wrap_dims

# --- copies that reorder: flip, roll, rot90 -----------------------------------------------------

FLIP = defop("flip", lambda x, dims: np.flip(x, dims).copy(), batch=dim_params(0), node="FlipBackward0",
             save=lambda ans, x, dims: (dims,),
             vjp=lambda g, dims: unary(FLIP, g, (dims,)), jvp=LINEAR,
             elementwise=True)


def flip(input, dims):
    if isinstance(dims, (int, np.integer)):
        raise TypeError(f"flip(): argument 'dims' (position 2) must be tuple of ints, not {type(dims).__name__}")
    dims = wrap_dims(dims, input._data.ndim)
    return unary(FLIP, input, (dims if input._data.ndim else (),))


def fliplr(input):
    if input._data.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return unary(FLIP, input, ((1,),))


def flipud(input):
    if input._data.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return unary(FLIP, input, ((0,),))


def _negated(shifts):
    return -shifts if isinstance(shifts, int) else tuple(-s for s in shifts)


# dims None: roll the flattened elements, as NumPy's axis=None does
def _roll_batched(op, args, batched, params, dtype):
    """Rolls along the sample's dims; with no dims, along the flattened sample."""
    x, (shifts, dims) = args[0], params
    if dims:
        return apply(op, args, (shifts, shift(dims, 0)), dtype)
    size, shape = x._data.shape[0], x._data.shape
    return apply(op, (x.reshape((size, -1)),), (shifts, (1,)), dtype).reshape(shape)


ROLL = defop("roll", np.roll, batch=_roll_batched, node="RollBackward0",
             save=lambda ans, x, shifts, dims: (shifts, dims),
             vjp=lambda g, shifts, dims: unary(ROLL, g, (_negated(shifts), dims)),
             jvp=LINEAR, elementwise=True)


def roll(input, shifts, dims=None):
    shifts = int_tuple(shifts)
    dims = () if dims is None else int_tuple(dims)
    if len(shifts) != len(dims) and (dims or len(shifts) != 1):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    if not dims or not input._data.size:  # PyTorch rolls nothing of an empty tensor (its dims unchecked)
        return unary(ROLL, input, (shifts[0] if input._data.size else 0, None))
    ndim = input._data.ndim
    return unary(ROLL, input, (shifts, tuple(wrap_dim_of_tensor(d, ndim) for d in dims)))


ROT90 = defop("rot90", lambda x, k, dims: np.rot90(x, k, dims).copy(), batch=dim_params(1), node="Rot90Backward0",
              save=lambda ans, x, k, dims: (k, dims),
              vjp=lambda g, k, dims: unary(ROT90, g, (-k, dims)),
              jvp=LINEAR)


def rot90(input, k=1, dims=(0, 1)):
    """Rotates by ``k`` quarter turns, from dim ``dims[0]`` towards ``dims[1]``."""
    dims = int_tuple(dims)
    ndim = input._data.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    d0, d1 = wrap_dim(dims[0], ndim), wrap_dim(dims[1], ndim)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
    return unary(ROT90, input, (int(k), (d0, d1)))


# --- triangles and diagonals ----------------------------------------------------------------

TRIL = defop("tril", np.tril, node="TrilBackward0", save=lambda ans, x, k: (k,),
             vjp=lambda g, k: unary(TRIL, g, (k,)), jvp=LINEAR, elementwise=True)
TRIU = defop("triu", np.triu, node="TriuBackward0", save=lambda ans, x, k: (k,),
             vjp=lambda g, k: unary(TRIU, g, (k,)), jvp=LINEAR, elementwise=True)


def _triangle(op, name, input, diagonal):
    if input._data.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return unary(op, input, (int(diagonal),))


def tril(input, diagonal=0):
    return _triangle(TRIL, "tril", input, diagonal)


def triu(input, diagonal=0):
    return _triangle(TRIU, "triu", input, diagonal)


def _diagonal(x, offset, d1, d2):
    """A writable view of the diagonal of dims d1, d2 (NumPy's own is read-only), as the
    last dim: PyTorch's layout."""
    n1, n2 = x.shape[d1], x.shape[d2]
    length = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    start = [slice(None)] * x.ndim
    if length:  # where the diagonal starts: a column (offset > 0) or row (offset < 0) in
        start[d2 if offset >= 0 else d1] = slice(abs(offset), None)
    first = x[tuple(start)]
    rest = [i for i in range(x.ndim) if i not in (d1, d2)]
    shape = tuple(x.shape[i] for i in rest) + (length,)
    strides = tuple(x.strides[i] for i in rest) + (x.strides[d1] + x.strides[d2],)
    return _np_as_strided(first, shape, strides)


def _diagonal_backward(g, shape, offset, d1, d2):
    out = np.zeros(shape, g.dtype)
    _diagonal(out, offset, d1, d2)[...] = g
    return out


def _diag_embed(x, offset, d1, d2):
    n = x.shape[-1] + abs(offset)
    shape = list(x.shape[:-1])
    for d in sorted((d1, d2)):
        shape.insert(d, n)
    return _diagonal_backward(x, tuple(shape), offset, d1, d2)


# a diagonal (a view) and its transpose, placing a diagonal into zeros of a given shape
DIAGONAL = defop("diagonal", _diagonal, batch=dim_params(1, 2), node="DiagonalBackward0", view=True,
                 save=lambda ans, x, offset, d1, d2: (x._data.shape, offset, d1, d2),
                 vjp=lambda g, shape, *dims: unary(DIAGONAL_BACKWARD, g, (shape, *dims)),
                 jvp=lambda t, shape, *dims: unary(DIAGONAL, t, dims))

def _diagonal_backward_batch(op, args, batched, params, dtype):
    """``diagonal_backward`` of a batch: zeros of the batch's shape (the sample's, batch
    size first), the dims past the batch dim; ``g`` has the batch dim first, as the
    diagonal of such a batch would."""
    (shape, offset, d1, d2), g = params, args[0]
    return apply(op, (g,), ((g._data.shape[0],) + tuple(shape), offset, shift(d1, 0), shift(d2, 0)), dtype)


DIAGONAL_BACKWARD = defop(
    "diagonal_backward", _diagonal_backward, node="DiagonalBackwardBackward0", batch=_diagonal_backward_batch,
    save=lambda ans, g, shape, offset, d1, d2: (shape, offset, d1, d2),
    vjp=lambda gg, shape, *dims: unary(DIAGONAL, gg, dims),
    jvp=lambda t, shape, *dims: unary(DIAGONAL_BACKWARD, t, (shape, *dims)))

def _diag_batch(op, args, batched, params, dtype):
    """``diag`` of each matrix of a batch: a copy of the diagonal of dims 1 and 2."""
    return unary(DIAGONAL, args[0], (params[0], 1, 2)).clone()


# diag of a matrix: a copy of its diagonal (PyTorch calls diagonal_copy)
DIAG = defop("diag", lambda x, offset: _diagonal(x, offset, 0, 1).copy(), node="DiagonalBackward0_copy",
             batch=_diag_batch,
             save=lambda ans, x, offset: (x._data.shape, offset),
             vjp=lambda g, shape, offset: unary(DIAGONAL_BACKWARD, g, (shape, offset, 0, 1)),
             jvp=lambda t, shape, offset: unary(DIAG, t, (offset,)))

DIAG_EMBED = defop("diag_embed", _diag_embed, batch=dim_params(1, 2), node="DiagEmbedBackward0",
                   save=lambda ans, x, offset, d1, d2: (offset, d1, d2),
                   vjp=lambda g, *dims: unary(DIAGONAL, g, dims),
                   jvp=LINEAR)


def _diagonal_dims(dim1, dim2, ndim):
    d1, d2 = wrap_dim(dim1, ndim), wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


def diagonal(input, offset=0, dim1=0, dim2=1):
    """The diagonal of dims ``dim1`` and ``dim2`` as the last dim, ``offset`` above the main one."""
    return unary(DIAGONAL, input, (int(offset), *_diagonal_dims(dim1, dim2, input._data.ndim)))


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Zeros with the last dim of ``input`` on the diagonal of the new dims ``dim1``, ``dim2``."""
    return unary(DIAG_EMBED, input, (int(offset), *_diagonal_dims(dim1, dim2, input._data.ndim + 1)))


def diag(input, diagonal=0):
    """A matrix's diagonal, or the square matrix with a vector on its diagonal."""
    ndim = input._data.ndim
    if ndim == 1:
        return unary(DIAG_EMBED, input, (int(diagonal), 0, 1))
    if ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {ndim}D")
    return unary(DIAG, input, (int(diagonal),))


def diagflat(input, offset=0):
    return unary(DIAG_EMBED, ravel(input), (int(offset), 0, 1))


def _trace_batched(op, args, batched, params, dtype):
    """Each sample's trace: its diagonal, summed."""
    return args[0].diagonal(0, 1, 2).sum(-1)


TRACE = defop("trace", lambda x, dtype: np.trace(x, dtype=dtype), batch=_trace_batched, node="TraceBackward0",
              save=lambda ans, x, dtype: (x._data.shape,),
              vjp=lambda g, shape: unary(DIAGONAL_BACKWARD, expand(g, (min(shape),)), (shape, 0, 0, 1)),
              jvp=lambda t, shape: unary(TRACE, t, (None,)))


def trace(input):
    data = input._data
    if data.dtype.kind == "b":  # the dispatch comes before the kernel's check of the dims
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    if data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {data.ndim}")
    return unary(TRACE, input, (np.int64 if data.dtype.kind in "iu" else None,))


# --- windows and strides ------------------------------------------------------------------


def _unfold(x, dim, size, step):
    if x.ndim == 0:  # a 0-d tensor is one window of size 1 (or 0)
        return _np_as_strided(x, (size,), (0,))
    count = (x.shape[dim] - size) // step + 1
    shape = x.shape[:dim] + (count,) + x.shape[dim + 1:] + (size,)
    strides = x.strides[:dim] + (x.strides[dim] * step,) + x.strides[dim + 1:] + (x.strides[dim],)
    return _np_as_strided(x, shape, strides)


def _unfold_backward(g, shape, dim, size, step):
    if not shape:
        return np.asarray(g.sum(), g.dtype)
    out = np.zeros(shape, g.dtype)
    windows = (np.arange(g.shape[dim]) * step)[:, None] + np.arange(size)
    np.add.at(np.moveaxis(out, dim, -1), (Ellipsis, windows), np.moveaxis(g, dim, -2))  # overlaps add up
    return out


# sliding windows (a view) and its transpose, summing windows back into place
UNFOLD = defop("unfold", _unfold, batch=dim_params(0), node="UnfoldBackward0", view=True,
               save=lambda ans, x, dim, size, step: (x._data.shape, dim, size, step),
               vjp=lambda g, shape, *window: unary(UNFOLD_BACKWARD, g, (shape, *window)),
               jvp=lambda t, shape, *window: unary(UNFOLD, t, window))

def _unfold_backward_batch(op, args, batched, params, dtype):
    """``unfold_backward`` of a batch: windows summed back into zeros of the batch's shape,
    the dim past the batch dim; a 0-d sample was one window, summed."""
    (shape, dim, size, step), g = params, args[0]
    if not shape:
        return g.sum(1, dtype=g.dtype)
    return apply(op, (g,), ((g._data.shape[0],) + tuple(shape), shift(dim, 0), size, step), dtype)


UNFOLD_BACKWARD = defop("unfold_backward", _unfold_backward, node="UnfoldBackwardBackward0",
                        batch=_unfold_backward_batch,
                        save=lambda ans, g, shape, dim, size, step: (shape, dim, size, step),
                        vjp=lambda gg, shape, *window: unary(UNFOLD, gg, window),
                        jvp=lambda t, shape, *window: unary(UNFOLD_BACKWARD, t, (shape, *window)))


def unfold(input, dimension, size, step):
    """``x.unfold(dim, size, step)``: windows of ``size`` every ``step`` along ``dim``, as a new last dim."""
    ndim = input._data.ndim
    dim = wrap_dim(dimension, ndim)
    longest = input._data.shape[dim] if ndim else 1
    if size > longest:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {longest} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    return unary(UNFOLD, input, (dim, int(size), int(step)))


def _address(a):
    return a.__array_interface__["data"][0]


def _as_strided(x, size, stride, offset):
    """The elements at ``offset + sum(i * stride)`` from x's first element: a view of the
    memory x lies in. Checked against that memory, so a wrong offset raises, never reads."""
    owner, up = x, x.base
    while up is not None:  # the array owning the memory (through NumPy's stride tricks too)
        if isinstance(up, np.ndarray):
            owner = up
        up = getattr(up, "base", None)
    low, high = byte_bounds(owner)
    start = _address(x) + offset * x.itemsize
    end = start + (sum((n - 1) * s for n, s in zip(size, stride)) + 1) * x.itemsize
    if 0 not in size and (start < low or end > high):
        raise RuntimeError("as_strided: the view reaches outside the tensor's memory")
    steps = (offset * x.itemsize,) + tuple(s * x.itemsize for s in stride)
    return _np_as_strided(x, (2,) + tuple(size), steps)[1, ...]  # a leading dim steps to the offset


def _strided_index(shape, strides, offset):
    """The storage index of each element of a (shape, strides, offset) layout."""
    index = np.full(shape, offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(shape, strides)):
        index += (np.arange(n) * s).reshape((n,) + (1,) * (len(shape) - d - 1))
    return index


def _storage(x):
    """(storage size, x's offset in it), in elements: the memory of x's base tensor."""
    base = x._base if x._base is not None else x
    low, high = byte_bounds(base._data)
    itemsize = x._data.itemsize
    return (high - low) // itemsize, (_address(x._data) - low) // itemsize


def _as_strided_save(ans, x, size, stride, offset):
    """Where x's and the result's elements lie in the storage; elements of x that share
    memory (an expanded x) share the gradient evenly, as in PyTorch."""
    n, own = _storage(x)
    itemsize = x._data.itemsize
    source = _strided_index(x._data.shape, [s // itemsize for s in x._data.strides], own)
    target = _strided_index(size, stride, own + offset)
    counts = np.bincount(source.ravel(), minlength=n)
    share = None if counts.max(initial=0) <= 1 else 1.0 / counts[source]
    return source, target, n, share


def _remap(a, source, target, n, before, after):
    """Elements of ``a`` added into a zero storage of ``n`` at ``source``, then read at
    ``target`` (weights ``before`` and ``after`` on either side)."""
    storage = np.zeros(n, a.dtype)
    np.add.at(storage, source, a if before is None else (a * before).astype(a.dtype))
    out = storage[target]
    return out if after is None else (out * after).astype(a.dtype)


AS_STRIDED = defop("as_strided", _as_strided, node="AsStridedBackward0", view=True, save=_as_strided_save,
                   vjp=lambda g, source, target, n, share: unary(REMAP, g, (target, source, n, None, share)),
                   jvp=lambda t, source, target, n, share: unary(REMAP, t, (source, target, n, share, None)))

def _remap_batch(op, args, batched, params, dtype):
    """``as_strided_backward`` of a batch: one storage per sample, end to end, each
    sample's positions moved up by where its storage starts."""
    (source, target, n, before, after), a = params, args[0]
    starts = np.arange(a._data.shape[0]) * n

    def rows(index):
        return index + starts.reshape((-1,) + (1,) * index.ndim)
    return apply(op, (a,), (rows(source), rows(target), starts.size * n, before, after), dtype)


# as_strided's gradient is a scatter and a gather through the storage; its transpose swaps them
REMAP = defop("as_strided_backward", _remap, node="AsStridedBackward0", batch=_remap_batch,
              save=lambda ans, a, source, target, n, before, after: (source, target, n, before, after),
              vjp=lambda gg, source, target, n, before, after: unary(REMAP, gg, (target, source, n, after, before)),
              jvp=LINEAR)


def as_strided(input, size, stride, storage_offset=None):
    """A view of the storage (the memory of ``input``'s base) with the given layout."""
    size, stride = int_tuple(size), int_tuple(stride)
    if any_batched(input):
        return _as_strided_batched(input, size, stride, storage_offset)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: "
                           f"{list(stride)}")
    n, own = _storage(input)
    offset = own if storage_offset is None else int(storage_offset)
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(s < 0 for s in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}")
    needed = 0 if 0 in size else offset + 1 + sum((a - 1) * s for a, s in zip(size, stride))
    if needed > n:
        itemsize = input._data.itemsize
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {itemsize} requiring a storage size of {needed * itemsize} are out of "
                           f"bounds for storage of size {n * itemsize}")
    return unary(AS_STRIDED, input, (size, stride, offset - own))


def _storage_end(size, stride, offset):
    """One past the last storage element a layout reaches, None when it reaches none."""
    return None if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))


def _as_strided_batched(input, size, stride, storage_offset):
    """``as_strided`` under vmap, as functorch defines it: the layout addresses the batch's
    storage, each sample's view starting one batch stride after the previous one (not a
    loop: with the batch dim not outermost in memory, samples read each other's elements).

    >>> vmap(lambda s: s.as_strided((2,), (1,), 1))(arange(6.).reshape(2, 3))
    tensor([[1., 2.], [4., 5.]])
    """
    if len(size) != len(stride):
        raise RuntimeError(f"Tensor.as_strided(size, stride, ...): size and stride must have the same length! "
                           f"Got size {list(size)} and stride {list(stride)}")
    inner, real = input._inner, input._inner
    while not has_values(real._data):  # an outer vmap's batch: the storage is the innermost tensor's
        real = real._inner
    base = _storage(real)[1]
    offset = base if storage_offset is None else int(storage_offset)
    reach, sample = _storage_end(size, stride, offset), _storage_end(input._data.shape, input.stride(), base)
    head = f"result = tensor.as_strided({list(size)}, {list(stride)}, {offset}) can access memory outside of `tensor`."
    tail = "This is not supported inside of vmap, please try to rewrite the `as_strided` call as a sequence of " \
           "PyTorch view operations"
    if reach is not None and sample is None:
        raise RuntimeError(f"{head} `tensor` has no storage but the passed-in (size, stride, storage_offset) imply "
                           f"a result with some storage. {tail}")
    if reach is not None and (reach > sample or offset < base):
        raise RuntimeError(f"{head} `result` can access some memory in range [{offset}, {reach}], but `tensor` can "
                           f"only access some memory in range [{base}, {sample}]. {tail}")
    batch = inner._data.shape[0]
    return VMAP.wrap(as_strided(inner, (batch,) + size, (inner.stride(0),) + stride, offset), input._level)


# --- Tensor methods --------------------------------------------------------------------------


def _flip_method(self, *dims, **kwargs):
    """``x.flip(0, 1)``, ``x.flip((0, 1))`` or ``x.flip(dims=(0, 1))``."""
    return flip(self, kwargs["dims"] if kwargs else size_arg(dims))


Tensor.flip = _flip_method
Tensor.fliplr = fliplr
Tensor.flipud = flipud
Tensor.roll = roll
Tensor.rot90 = rot90
Tensor.tril = tril
Tensor.triu = triu
Tensor.diagonal = diagonal
Tensor.diag = diag
Tensor.diag_embed = diag_embed
Tensor.diagflat = diagflat
Tensor.trace = trace
Tensor.unfold = unfold
Tensor.as_strided = as_strided
