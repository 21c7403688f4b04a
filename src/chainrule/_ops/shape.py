"""Shape and indexing ops: views that share memory with their input, and ``[]``.

View ops (``view=True``) return NumPy views, so an in-place op on the result changes the
input; ``registry`` gives such outputs the input's version counter.
"""
import numpy as np

from .._tensor import Tensor
from .registry import unary, defop

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


def size_arg(args):
    """``f(2, 3)``, ``f((2, 3))`` and ``f(torch.Size([2, 3]))`` all mean (2, 3)."""
    if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
        return tuple(int(s) for s in args[0])
    return tuple(int(s) for s in args)


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

VIEW = defop("view", lambda x, shape: np.reshape(x, shape, copy=False), node="ViewBackward0",
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


UNSAFE_VIEW = defop("unsafe_view", np.reshape, node="UnsafeViewBackward0",
                    save=lambda ans, x, shape: (x._data.shape, ans._data.shape),
                    vjp=lambda g, in_shape, out_shape: g.reshape(in_shape),
                    jvp=lambda t, in_shape, out_shape: t.reshape(out_shape))


def unsafe_view(x, shape):
    """A reshape into a new tensor (not a view of ``x``): what ``matmul`` ends with."""
    return unary(UNSAFE_VIEW, x, (tuple(shape),))


# ``reshape`` of a non-contiguous tensor that a view can still express: PyTorch names the
# node after ``_reshape_alias``
RESHAPE_ALIAS = defop("reshape_alias", lambda x, shape: np.reshape(x, shape, copy=False),
                      node="ReshapeAliasBackward0",
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


def _squeeze_rules(node):
    return dict(node=node, view=True,
                save=lambda ans, x, dims: (x._data.shape, ans._data.shape),
                vjp=lambda g, in_shape, out_shape: g.reshape(in_shape),
                jvp=lambda t, in_shape, out_shape: t.reshape(out_shape))


# one forward, three PyTorch overloads: squeeze(), squeeze(dim), squeeze(dims)
SQUEEZE = defop("squeeze", np.squeeze, **_squeeze_rules("SqueezeBackward0"))
SQUEEZE_DIM = defop("squeeze_dim", np.squeeze, **_squeeze_rules("SqueezeBackward1"))
SQUEEZE_DIMS = defop("squeeze_dims", np.squeeze, **_squeeze_rules("SqueezeBackward2"))


def squeeze(x, dim=None):
    shape = x._data.shape
    if dim is None:
        return unary(SQUEEZE, x, (tuple(i for i, s in enumerate(shape) if s == 1),))
    dims = tuple(d for d in wrap_dims(dim, x._data.ndim) if x._data.ndim and shape[d] == 1)
    op = SQUEEZE_DIM if isinstance(dim, (int, np.integer)) else SQUEEZE_DIMS
    return unary(op, x, (dims,))


UNSQUEEZE = defop("unsqueeze", np.expand_dims, node="UnsqueezeBackward0",
                  save=lambda ans, x, dim: (dim,),
                  vjp=lambda g, dim: g.squeeze(dim), jvp=lambda t, dim: t.unsqueeze(dim), view=True)


def unsqueeze(x, dim):
    return unary(UNSQUEEZE, x, (wrap_dim(dim, x._data.ndim + 1),))


# --- transposes and broadcasting ---------------------------------------------------------------

PERMUTE = defop("permute", np.transpose, node="PermuteBackward0",
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


def _swapaxes(x, d0, d1):
    return np.swapaxes(x, d0, d1) if x.ndim else x.view()  # a 0-d tensor swaps dims 0 and -1


TRANSPOSE = defop("transpose", _swapaxes, node="TransposeBackward0",
                  save=lambda ans, x, d0, d1: (d0, d1),
                  vjp=lambda g, d0, d1: g.transpose(d0, d1),
                  jvp=lambda t, d0, d1: t.transpose(d0, d1), view=True)


def transpose(x, dim0, dim1):
    ndim = x._data.ndim
    return unary(TRANSPOSE, x, (wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)))


T_OP = defop("t", np.transpose, node="TBackward0",
             vjp=lambda g: g.t(), jvp=lambda t: t.t(), view=True)


def t(x):
    if x._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x._data.ndim}D")
    return unary(T_OP, x)


EXPAND = defop("expand", np.broadcast_to, node="ExpandBackward0",
               save=lambda ans, x, shape: (x._data.shape,),
               vjp=lambda g, in_shape: g.sum_to_size(in_shape),
               jvp=lambda t, in_shape: t, view=True)


def expand(x, sizes):
    sizes = tuple(sizes)
    shape = x._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(f"expand(torch.FloatTensor{{{list(shape)}}}, size={list(sizes)}): the number "
                           f"of sizes provided ({len(sizes)}) must be greater or equal to the number of "
                           f"dimensions in the tensor ({len(shape)})")
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


# --- indexing ---------------------------------------------------------------------------


def _normalize_index(index):
    """Turns tensors inside an index into arrays, and checks what PyTorch rejects."""
    if not isinstance(index, tuple):
        index = (index,)
    out = []
    for i in index:
        if isinstance(i, Tensor):
            if i._data.dtype.kind not in "biu":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            i = i._data
        elif isinstance(i, list):
            i = np.asarray(i)
            if i.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        elif isinstance(i, bool):  # x[True]: a 0-d mask, which adds a dim
            i = np.asarray(i)
        out.append(i)
    return tuple(out)


def _is_basic(index):
    return all(i is None or i is Ellipsis or isinstance(i, (int, np.integer, slice))
               and not isinstance(i, bool) for i in index)


def _basic_node_name(index):
    """PyTorch names the node after the last view op that ``[]`` applied."""
    name = "AliasBackward0"
    for i in index:
        if i is None:
            name = "UnsqueezeBackward0"
        elif isinstance(i, slice):
            name = "SliceBackward0"
        elif i is not Ellipsis:
            name = "SelectBackward0"
    if name == "SliceBackward0" and index[-1] is None:
        name = "UnsqueezeBackward0"
    return name


def _check_bounds(x, index):
    dim = 0
    n_real = sum(1 for i in index if i is not None and i is not Ellipsis)
    for i in index:
        if i is Ellipsis:
            dim += x.ndim - n_real
            continue
        if i is None:
            continue
        if isinstance(i, (int, np.integer)):
            if dim >= x.ndim:
                raise IndexError(f"too many indices for tensor of dimension {x.ndim}")
            size = x.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
        elif isinstance(i, slice):
            if x.ndim == 0:
                raise IndexError("slice() cannot be applied to a 0-dim tensor.")
            if i.step is not None and i.step <= 0:
                raise ValueError("step must be greater than zero")
        dim += 1
    if dim > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")


def _scatter_index(g, index, shape, accumulate):
    out = np.zeros(shape, dtype=g.dtype)
    if accumulate:  # repeated indices each add their share
        np.add.at(out, index, g)
    else:
        out[index] = g
    return out


def _basic_rules(node):
    return dict(node=node, view=True,
                save=lambda ans, x, index: (x._data.shape, index),
                vjp=lambda g, shape, index: unary(INDEX_BACKWARD, g, (index, shape, False)),
                jvp=lambda t, shape, index: unary(SELECT_BASIC, t, (index,)))


def _getitem(x, index):
    return x[index]


def _view_item(x, index):
    # NumPy returns a copied scalar for x[0] on a vector, but a 0-d view for x[0, ...]
    return x[index] if Ellipsis in index else x[index + (Ellipsis,)]


SELECT_BASIC = defop("select", _view_item, **_basic_rules("SelectBackward0"))
SLICE_BASIC = defop("slice", _view_item, **_basic_rules("SliceBackward0"))
UNSQUEEZE_INDEX = defop("index_unsqueeze", _view_item, **_basic_rules("UnsqueezeBackward0"))
ALIAS_INDEX = defop("alias", _view_item, **_basic_rules("AliasBackward0"))
_BASIC_OPS = {op.node_name: op for op in (SELECT_BASIC, SLICE_BASIC, UNSQUEEZE_INDEX, ALIAS_INDEX)}

# advanced indexing copies; repeated indices accumulate their gradients
INDEX = defop("index", _getitem, node="IndexBackward0",
              save=lambda ans, x, index: (x._data.shape, index),
              vjp=lambda g, shape, index: unary(INDEX_BACKWARD, g, (index, shape, True)),
              jvp=lambda t, shape, index: unary(INDEX, t, (index,)))

INDEX_BACKWARD = defop(
    "index_backward", _scatter_index, node="IndexPutBackward0",
    save=lambda ans, g, index, shape, accumulate: (index, shape, accumulate),
    vjp=lambda gg, index, shape, accumulate: unary(INDEX, gg, (index,)),
    jvp=lambda t, index, shape, accumulate: unary(INDEX_BACKWARD, t, (index, shape, accumulate)))


def getitem(x, index):
    if x._data.ndim == 0 and isinstance(index, (int, np.integer)) and not isinstance(index, bool):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    index = _normalize_index(index)
    if _is_basic(index):
        _check_bounds(x._data, index)
        return unary(_BASIC_OPS[_basic_node_name(index)], x, (index,))
    _check_advanced(x._data, index)
    try:
        return unary(INDEX, x, (index,))
    except IndexError as e:  # what _check_advanced doesn't foresee, in PyTorch's words
        raise IndexError(str(e).replace("for axis", "for dimension")) from None


def _is_mask(i):
    return isinstance(i, np.ndarray) and i.dtype.kind == "b"


def _check_advanced(x, index):
    """PyTorch's errors for an index with tensors in it. PyTorch applies the basic part
    first, then the index tensors (a k-d mask counts as k of them), so an out-of-range
    index names its tensor's position among them, and a mask is compared with the tensor
    left after the basic part: ``x[:, [0, 9]]`` reports "for dimension 0"."""
    def consumed(i):
        return i.ndim if _is_mask(i) else 1
    basic = tuple(j for i in index for j in ((slice(None),) * consumed(i) if isinstance(i, np.ndarray) else (i,)))
    _check_bounds(x, basic)
    n_real = sum(consumed(i) for i in index if i is not None and i is not Ellipsis)
    dim = position = k = 0  # dim of x, dim of the basic result, index tensors so far
    for i in index:
        if i is None:
            position += 1
        elif i is Ellipsis:
            dim += x.ndim - n_real
            position += x.ndim - n_real
        elif _is_mask(i):
            sliced = _view_item(np.broadcast_to(np.zeros((), x.dtype), x.shape), basic).shape
            for j, size in enumerate(i.shape):
                if size != sliced[position + j]:
                    raise IndexError(f"The shape of the mask {list(i.shape)} at index {j} does not match the "
                                     f"shape of the indexed tensor {list(sliced)} at index {position + j}")
            dim, position, k = dim + i.ndim, position + i.ndim, k + i.ndim
        elif isinstance(i, np.ndarray):
            size = x.shape[dim]
            bad = (i >= size) | (i < -size)
            if bad.any():
                raise IndexError(f"index {i[bad][0]} is out of bounds for dimension {k} with size {size}")
            dim, position, k = dim + 1, position + 1, k + 1
        else:
            dim, position = dim + 1, position + isinstance(i, slice)


def select(x, dim, index):
    dim = wrap_dim(dim, x._data.ndim)
    return getitem(x, (slice(None),) * dim + (index,))
