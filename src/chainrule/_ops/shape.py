"""Shape ops: views that share memory with their input, and copies that reorder it.

View ops (``view=True``) return NumPy views, so an in-place op on the result changes the
input; ``registry`` gives such outputs the input's version counter. The copies
(``flip``, ``roll``, ``rot90``) have rules that run the same op backwards: flip again,
roll back, turn back. Diagonals come in pairs of mutual transposes: taking
a diagonal (``diagonal``) and placing one into zeros (``diag_embed``).

>>> x = chainrule.arange(6.0).reshape(2, 3)
>>> x.diagonal()
tensor([0., 4.])

Joining and splitting (``cat``, ``split``...) live in ``joining``, ``x[index]`` in
``indexing``.
"""
import warnings

import numpy as np
from numpy.lib.array_utils import byte_bounds
from numpy.lib.stride_tricks import as_strided as _np_as_strided

from .._tensor import Size, Tensor, _legacy_type_name
from .inplace import view_inplace
from .batching import any_batched, dim_params, has_values, shaped, shift
from .registry import apply, broadcast_error, defop, unary

# --- argument helpers -------------------------------------------------------------------


def wrap_dim(dim, ndim):
    """A possibly negative dim as an index into the shape, with PyTorch's error."""
    n = ndim if ndim > 0 else 1
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


def wrap_dims(dims, ndim):
    """An int or a sequence of dims as a sorted tuple of non-negative dims."""
    if isinstance(dims, (int, np.integer)):
        return (wrap_dim(dims, ndim),)
    out = tuple(sorted(wrap_dim(d, ndim) for d in dims))
    if len(set(out)) != len(out):
        raise RuntimeError(f"dim {out[0]} appears multiple times in the list of dims")
    return out


def wrap_dim_of_tensor(dim, ndim):
    """``wrap_dim`` for ops that refuse 0-d tensors where others treat them as 1-d."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, ndim)


def size_arg(args):
    """``f(2, 3)``, ``f((2, 3))`` and ``f(torch.Size([2, 3]))`` all mean (2, 3)."""
    if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
        return tuple(int(s) for s in args[0])
    return tuple(int(s) for s in args)


def int_tuple(value):
    """An int or a sequence of ints as a tuple."""
    return (int(value),) if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)


def _infer_shape(shape, numel):
    """Fills in one -1 in ``shape``; PyTorch's errors for impossible shapes."""
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    if -1 in shape:
        if known == 0 and numel == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                               "unspecified dimension size -1 can be any value and is ambiguous")
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return tuple(numel // known if s == -1 else s for s in shape)
    if known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


# --- reshaping ------------------------------------------------------------------------------

VIEW = defop("view", lambda x, shape: np.reshape(x, shape, copy=False), batch=shaped, node="ViewBackward0",
             save=lambda ans, x, shape: (x._data.shape, ans._data.shape),
             vjp=lambda g, in_shape, out_shape: g.reshape(in_shape),
             jvp=lambda t, in_shape, out_shape: t.reshape(out_shape), view=True)


def view(x, shape):
    shape = _infer_shape(tuple(shape), x._data.size)
    try:
        return unary(VIEW, x, (shape,))
    except ValueError:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                           "least one dimension spans across two contiguous subspaces). Use "
                           ".reshape(...) instead.") from None


UNSAFE_VIEW = defop("unsafe_view", np.reshape, batch=shaped, node="UnsafeViewBackward0",
                    save=lambda ans, x, shape: (x._data.shape, ans._data.shape),
                    vjp=lambda g, in_shape, out_shape: g.reshape(in_shape),
                    jvp=lambda t, in_shape, out_shape: t.reshape(out_shape))


def unsafe_view(x, shape):
    """A reshape into a new tensor (not a view of ``x``): what ``matmul`` ends with."""
    return unary(UNSAFE_VIEW, x, (tuple(shape),))


# ``reshape`` of a non-contiguous tensor that a view can still express: PyTorch names the
# node after ``_reshape_alias``
RESHAPE_ALIAS = defop("reshape_alias", lambda x, shape: np.reshape(x, shape, copy=False),
                      batch=shaped, node="ReshapeAliasBackward0",
                      save=lambda ans, x, shape: (x._data.shape, ans._data.shape),
                      vjp=lambda g, in_shape, out_shape: g.reshape(in_shape),
                      jvp=lambda t, in_shape, out_shape: t.reshape(out_shape), view=True)


def reshape(x, shape):
    """A view when the memory layout allows one, else a copy (as PyTorch decides)."""
    shape = _infer_shape(tuple(shape), x._data.size)
    if x._data.flags.c_contiguous:
        return unary(VIEW, x, (shape,))
    try:
        return unary(RESHAPE_ALIAS, x, (shape,))
    except ValueError:
        return unary(UNSAFE_VIEW, x.clone(), (shape,))


def flatten(x, start_dim=0, end_dim=-1):
    if x._data.ndim == 0:
        return reshape(x, (1,))
    start, end = wrap_dim(start_dim, x._data.ndim), wrap_dim(end_dim, x._data.ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return x
    shape = x._data.shape
    return reshape(x, shape[:start] + (-1,) + shape[end + 1:]) if x._data.size else \
        reshape(x, shape[:start] + (int(np.prod(shape[start:end + 1])),) + shape[end + 1:])


def unflatten(input, dim, sizes):
    """Splits dim ``dim`` into ``sizes`` (one may be -1): always a view."""
    shape = input._data.shape
    if not shape:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but tensor has no "
                           "dimensions")
    dim = wrap_dim(dim, len(shape))
    sizes = int_tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    known = int(np.prod([s for s in sizes if s != -1]))
    if (known != shape[dim]) if -1 not in sizes else (known == 0 or shape[dim] % known):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                           f"({shape[dim]}) in the input tensor")
    return view(input, shape[:dim] + sizes + shape[dim + 1:])


def ravel(input):
    """The elements as one dim: a view of ``input``, or of a contiguous copy of it."""
    return view(input.contiguous(), (-1,))


def _squeeze_rules(node):
    return dict(batch=dim_params(0), node=node, view=True,
                save=lambda ans, x, dims: (x._data.shape, ans._data.shape),
                vjp=lambda g, in_shape, out_shape: g.reshape(in_shape),
                jvp=lambda t, in_shape, out_shape: t.reshape(out_shape))


# one forward, three PyTorch overloads: squeeze(), squeeze(dim), squeeze(dims); their in-place
# variants (squeeze_) have the same rules under nodes of their own
SQUEEZES = (defop("squeeze", np.squeeze, **_squeeze_rules("SqueezeBackward0")),
            defop("squeeze_dim", np.squeeze, **_squeeze_rules("SqueezeBackward1")),
            defop("squeeze_dims", np.squeeze, **_squeeze_rules("SqueezeBackward2")))
SQUEEZES_ = (defop("squeeze_", np.squeeze, **_squeeze_rules("SqueezeBackward3")),
             defop("squeeze_dim_", np.squeeze, **_squeeze_rules("SqueezeBackward4")),
             defop("squeeze_dims_", np.squeeze, **_squeeze_rules("SqueezeBackward5")))


def _squeeze_overload(x, dim):
    """(which overload: 0 for no dim, 1 for an int, 2 for a tuple, the dims of size 1 it drops)."""
    shape = x._data.shape
    if dim is None:
        return 0, tuple(i for i, s in enumerate(shape) if s == 1)
    dims = tuple(d for d in wrap_dims(dim, x._data.ndim) if x._data.ndim and shape[d] == 1)
    return (1 if isinstance(dim, (int, np.integer)) else 2), dims


def squeeze(x, dim=None):
    overload, dims = _squeeze_overload(x, dim)
    return unary(SQUEEZES[overload], x, (dims,))


def squeeze_(x, dim=None):
    overload, dims = _squeeze_overload(x, dim)
    return view_inplace(x, SQUEEZES_[overload], (dims,), SQUEEZES[overload])


def _unsqueeze_rules(node):
    return dict(batch=dim_params(0), node=node, view=True, save=lambda ans, x, dim: (dim,),
                vjp=lambda g, dim: g.squeeze(dim), jvp=lambda t, dim: t.unsqueeze(dim))


UNSQUEEZE = defop("unsqueeze", np.expand_dims, **_unsqueeze_rules("UnsqueezeBackward0"))
UNSQUEEZE_ = defop("unsqueeze_", np.expand_dims, **_unsqueeze_rules("UnsqueezeBackward1"))


def unsqueeze(x, dim):
    return unary(UNSQUEEZE, x, (wrap_dim(dim, x._data.ndim + 1),))


def unsqueeze_(x, dim):
    return view_inplace(x, UNSQUEEZE_, (wrap_dim(dim, x._data.ndim + 1),), UNSQUEEZE)


def _at_least(x, ndim):
    """``x`` with dims of size 1 added (0-d: a view; 1-d as a row; 2-d: a last dim)."""
    have = x._data.ndim
    if have >= ndim:
        return x
    if have == 0:
        return view(x, (1,) * ndim)
    if have == 1:
        x = unsqueeze(x, 0)
    return x if ndim == 2 else unsqueeze(x, -1)


def _each_at_least(tensors, ndim):
    """``atleast_nd(x)`` gives a tensor; several tensors, or one list of them, a tuple."""
    if len(tensors) == 1:
        if isinstance(tensors[0], Tensor):
            return _at_least(tensors[0], ndim)
        tensors = tensors[0]
    return tuple(_at_least(t, ndim) for t in tensors)


def atleast_1d(*tensors):
    return _each_at_least(tensors, 1)


def atleast_2d(*tensors):
    return _each_at_least(tensors, 2)


def atleast_3d(*tensors):
    return _each_at_least(tensors, 3)


# --- transposes and broadcasting ---------------------------------------------------------------

def _permute_batched(op, args, batched, params, dtype):
    """The batch dim stays first; the sample's dims follow in the asked order."""
    return apply(op, args, ((0,) + tuple(d + 1 for d in params[0]),) + tuple(params[1:]), dtype)


PERMUTE = defop("permute", np.transpose, batch=_permute_batched, node="PermuteBackward0",
                save=lambda ans, x, dims: (dims,),
                vjp=lambda g, dims: g.permute(tuple(np.argsort(dims).tolist())),
                jvp=lambda t, dims: t.permute(dims), view=True)


def permute(x, dims):
    ndim = x._data.ndim
    if len(dims) != ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not "
                           f"match the length of the desired ordering of dimensions i.e. input.dim() = "
                           f"{ndim} is not equal to len(dims) = {len(dims)}")
    dims = tuple(wrap_dim(d, ndim) for d in dims)
    if len(set(dims)) != ndim:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return unary(PERMUTE, x, (dims,))


def movedim(input, source, destination):
    """``permute`` that moves the dims ``source`` to the places ``destination``."""
    src, dst = int_tuple(source), int_tuple(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(src)} dims) should "
                           f"contain the same number of dims as destination ({list(dst)} dims)")
    ndim = input._data.ndim
    src_dims, dst_dims = [wrap_dim(d, ndim) for d in src], [wrap_dim(d, ndim) for d in dst]
    if len(set(src_dims)) != len(src_dims):
        raise RuntimeError(f"movedim: repeated dim in `source` ({list(src)})")
    if len(set(dst_dims)) != len(dst_dims):
        raise RuntimeError(f"movedim: repeated dim in `destination` ({list(dst)})")
    if ndim == 0:
        return input[...]  # PyTorch: an alias
    order = [None] * ndim
    for s, d in zip(src_dims, dst_dims):
        order[d] = s
    rest = iter(d for d in range(ndim) if d not in src_dims)
    return permute(input, tuple(d if d is not None else next(rest) for d in order))


def _swapaxes(x, d0, d1):
    return np.swapaxes(x, d0, d1) if x.ndim else x.view()  # a 0-d tensor swaps dims 0 and -1


def _transpose_rules(node):
    return dict(batch=dim_params(0, 1), node=node, view=True, save=lambda ans, x, d0, d1: (d0, d1),
                vjp=lambda g, d0, d1: g.transpose(d0, d1), jvp=lambda t, d0, d1: t.transpose(d0, d1))


TRANSPOSE = defop("transpose", _swapaxes, **_transpose_rules("TransposeBackward0"))
TRANSPOSE_ = defop("transpose_", _swapaxes, **_transpose_rules("TransposeBackward1"))


def transpose(x, dim0, dim1):
    ndim = x._data.ndim
    return unary(TRANSPOSE, x, (wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)))


def transpose_(x, dim0, dim1):
    """``x.transpose_(0, 1)``, also ``x.swapdims_(dim0, dim1)``."""
    ndim = x._data.ndim
    return view_inplace(x, TRANSPOSE_, (wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)), TRANSPOSE)


def _swapaxes_(x, axis0, axis1):
    return transpose_(x, axis0, axis1)


def swapaxes(input, axis0, axis1):
    return transpose(input, axis0, axis1)


def swapdims(input, dim0, dim1):
    return transpose(input, dim0, dim1)


def _t_batched(op, args, batched, params, dtype):
    """``t()`` reverses a sample's (at most two) dims, after the batch dim."""
    return apply(PERMUTE, args, ((0,) + tuple(range(args[0]._data.ndim - 1, 0, -1)),), dtype)


T_OP = defop("t", np.transpose, batch=_t_batched, node="TBackward0",
             vjp=lambda g: g.t(), jvp=lambda t: t.t(), view=True)
T_OP_ = defop("t_", np.transpose, node="TBackward1",
              vjp=lambda g: g.t(), jvp=lambda t: t.t(), view=True)


def _check_t(x, name):
    if x._data.ndim > 2:
        raise RuntimeError(f"{name}() expects a tensor with <= 2 dimensions, but self is {x._data.ndim}D")


def t(x):
    _check_t(x, "t")
    return unary(T_OP, x)


def t_(x):
    _check_t(x, "t_")
    return view_inplace(x, T_OP_, (), T_OP)


def _matrix_transpose(x, name, scalar_message):
    """The last two dims swapped; 0-d tensors pass (with PyTorch's warning), 1-d fail."""
    ndim = x._data.ndim
    if ndim == 0:
        warnings.warn(scalar_message, UserWarning, stacklevel=4)  # the caller of x.mT, mH, adjoint()
        return None
    if ndim == 1:
        raise RuntimeError(f"tensor.{name} is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return transpose(x, -2, -1)


def matrix_transpose(x):
    """``x.mT``."""
    out = _matrix_transpose(x, "mT", "Tensor.mT is deprecated on 0-D tensors. This function is the identity "
                                     "in these cases.")
    return x if out is None else out


def matrix_adjoint(x):
    """``x.mH``: the conjugate transpose."""
    out = _matrix_transpose(x, "mH", "Tensor.mH is deprecated on 0-D tensors. Consider using x.conj().")
    return (x if out is None else out).conj()


def adjoint(input):
    out = _matrix_transpose(input, "adjoint()", "adjoint() is deprecated on 0-D tensors. Consider using x.conj().")
    return (input if out is None else out).conj()


EXPAND = defop("expand", np.broadcast_to, batch=shaped, node="ExpandBackward0",
               save=lambda ans, x, shape: (x._data.shape,),
               vjp=lambda g, in_shape: g.sum_to_size(in_shape),
               jvp=lambda t, in_shape: t, view=True)


def expand(x, sizes):
    sizes = tuple(sizes)
    shape = x._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(f"expand({_legacy_type_name(x._data.dtype)}{{{list(shape)}}}, size={list(sizes)}): "
                           f"the number of sizes provided ({len(sizes)}) must be greater or equal to the number "
                           f"of dimensions in the tensor ({len(shape)})")
    lead = len(sizes) - len(shape)
    target = []
    for i, s in enumerate(sizes):
        own = shape[i - lead] if i >= lead else None
        if s == -1:
            if own is None:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            s = own
        elif own is not None and own != s and own != 1:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size "
                               f"({own}) at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                               f"Tensor sizes: {list(shape)}")
        target.append(s)
    return unary(EXPAND, x, (tuple(target),))


def broadcast_to(input, size):
    return expand(input, size)


def broadcast_shapes(*shapes):
    """The shape that tensors of ``shapes`` broadcast to (PyTorch's checks, in its order)."""
    shapes = [(s,) if isinstance(s, (int, np.integer)) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, (tuple, list)):
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}")
    common = [1] * max((len(s) for s in shapes), default=0)
    for position, shape in enumerate(shapes):
        for i in range(-1, -1 - len(shape), -1):
            if shape[i] == common[i]:
                continue
            if common[i] == 1:
                if shape[i] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[i] = shape[i]
            if shape[i] != 1 and common[i] != shape[i]:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[i]} at {i}! Mismatching "
                                   f"argument at index {position} had {shape}; but expected shape should be "
                                   f"broadcastable to {common}")
    return Size(common)


def broadcast_tensors(*tensors):
    """Each tensor expanded to the common shape; those already of that shape unchanged."""
    shape = ()
    for t in tensors:
        try:
            shape = np.broadcast_shapes(shape, t._data.shape)
        except ValueError as e:
            raise broadcast_error(e, shape, t._data.shape) from None
    return tuple(t if t._data.shape == shape else expand(t, shape) for t in tensors)


# --- copies that reorder: flip, roll, rot90 -----------------------------------------------------

FLIP = defop("flip", lambda x, dims: np.flip(x, dims).copy(), batch=dim_params(0), node="FlipBackward0",
             save=lambda ans, x, dims: (dims,),
             vjp=lambda g, dims: unary(FLIP, g, (dims,)), jvp=lambda t, dims: unary(FLIP, t, (dims,)),
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
             jvp=lambda t, shifts, dims: unary(ROLL, t, (shifts, dims)), elementwise=True)


def roll(input, shifts, dims=None):
    shifts = int_tuple(shifts)
    dims = () if dims is None else int_tuple(dims)
    if len(shifts) != len(dims) and (dims or len(shifts) != 1):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    if not dims:
        return unary(ROLL, input, (shifts[0], None))
    ndim = input._data.ndim
    return unary(ROLL, input, (shifts, tuple(wrap_dim_of_tensor(d, ndim) for d in dims)))


ROT90 = defop("rot90", lambda x, k, dims: np.rot90(x, k, dims).copy(), batch=dim_params(1), node="Rot90Backward0",
              save=lambda ans, x, k, dims: (k, dims),
              vjp=lambda g, k, dims: unary(ROT90, g, (-k, dims)),
              jvp=lambda t, k, dims: unary(ROT90, t, (k, dims)))


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
             vjp=lambda g, k: unary(TRIL, g, (k,)), jvp=lambda t, k: unary(TRIL, t, (k,)), elementwise=True)
TRIU = defop("triu", np.triu, node="TriuBackward0", save=lambda ans, x, k: (k,),
             vjp=lambda g, k: unary(TRIU, g, (k,)), jvp=lambda t, k: unary(TRIU, t, (k,)), elementwise=True)


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
                   jvp=lambda t, *dims: unary(DIAG_EMBED, t, dims))


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
    if data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {data.ndim}")
    if data.dtype.kind == "b":
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
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
              jvp=lambda t, *layout: unary(REMAP, t, layout))


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
    from .._functorch.batched import wrap  # noqa: PLC0415  (vmap builds on the ops)
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
    return wrap(as_strided(inner, (batch,) + size, (inner.stride(0),) + stride, offset), input._level)


# --- Tensor methods --------------------------------------------------------------------------


def _flip_method(self, *dims, **kwargs):
    """``x.flip(0, 1)``, ``x.flip((0, 1))`` or ``x.flip(dims=(0, 1))``."""
    return flip(self, kwargs["dims"] if kwargs else size_arg(dims))


Tensor.unflatten = unflatten
Tensor.ravel = ravel
Tensor.movedim = Tensor.moveaxis = movedim
Tensor.swapaxes = swapaxes
Tensor.swapdims = swapdims
Tensor.squeeze_ = squeeze_
Tensor.unsqueeze_ = unsqueeze_
Tensor.t_ = t_
Tensor.transpose_ = Tensor.swapdims_ = transpose_
Tensor.swapaxes_ = _swapaxes_
Tensor.mT = property(matrix_transpose)
Tensor.mH = property(matrix_adjoint)
Tensor.adjoint = adjoint
Tensor.broadcast_to = broadcast_to
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
