"""Shape ops that reshape: views that share memory with their input.

View ops (``view=True``) return NumPy views, so an in-place op on the result changes the
input; ``registry`` gives such outputs the input's version counter. Here: reshaping
(``view``, ``reshape``, ``squeeze``...), transposes and broadcasting (``permute``,
``transpose``, ``expand``). The dim and size helpers every family uses are in ``_dims`` and
``_argparse``.

>>> x = chainrule.arange(6.0).reshape(2, 3)
>>> x.t().shape
torch.Size([3, 2])

Ops that pick elements by position (``flip``, ``diagonal``, ``unfold``, ``as_strided``)
live in ``strided``; joining and splitting (``cat``, ``split``...) in ``joining``,
``x[index]`` in ``indexing``.
"""
import warnings

import numpy as np

from ..._core import arguments as _argparse, dtype as _dtype
from ..._core.dims import wrap_dim
from ..._core.arguments import int_tuple, size_arg, wrap_dims
from ..._core.tensor import Size, Tensor, _type_string, _warn_once, tensor_methods
from ..inplace import view_inplace
from ..batching import dim_params, shaped
from ..registry import FROM_VJP, apply, broadcast_error, defop, unary

def _infer_shape(shape, numel):
    """Fills in one -1 in ``shape``; PyTorch's errors for impossible shapes."""
    known = 1
    inferred = False
    for i, s in enumerate(shape):
        if s >= 0:
            known *= s
        elif s == -1:
            if inferred:
                raise RuntimeError("only one dimension can be inferred")
            inferred = True
        else:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {list(shape)}")
    if inferred:
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
    if not isinstance(shape, (tuple, list)):
        raise TypeError(f"reshape(): argument 'shape' (position 2) must be tuple of ints, not {type(shape).__name__}")
    shape = _infer_shape(tuple(shape), x._data.size)
    if x._data.flags.c_contiguous:
        return unary(VIEW, x, (shape,))
    try:
        return unary(RESHAPE_ALIAS, x, (shape,))
    except ValueError:
        return unary(UNSAFE_VIEW, x.clone(), (shape,))


def flatten(x, start_dim=0, end_dim=-1):
    if x._data.ndim == 0:
        wrap_dim(start_dim, 0), wrap_dim(end_dim, 0)  # PyTorch's IndexError for flatten(0, 2)
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
    sizes = int_tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    dim = wrap_dim(dim, len(shape))  # a 0-d tensor: first the range check of a 1-d one
    if not shape:
        raise RuntimeError("unflatten got an unexpected error:\nDimension specified as 0 but tensor has no "
                           "dimensions")
    if sizes.count(-1) > 1:
        raise RuntimeError("unflatten got an unexpected error:\nonly one dimension can be inferred")
    known = int(np.prod([s for s in sizes if s != -1]))
    if -1 in sizes and known == 0 and shape[dim] == 0:
        raise RuntimeError(f"unflatten got an unexpected error:\ncannot reshape tensor of 0 elements into shape "
                           f"{list(sizes)} because the unspecified dimension size -1 can be any value and is ambiguous")
    if (known != shape[dim]) if -1 not in sizes else (known == 0 or shape[dim] % known):
        raise RuntimeError(f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
                           f"({shape[dim]}) in the input tensor")
    # the -1 stands for this dim's part, even in an empty tensor (whose other dims may be 0)
    sizes = tuple(shape[dim] // known if s == -1 else s for s in sizes)
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
    if dim.__class__ is not int:
        dim = _argparse.int_arg("unsqueeze", "dim", 2, dim)
    return unary(UNSQUEEZE, x, (wrap_dim(dim, x._data.ndim + 1),))


def unsqueeze_(self, dim):  # a method only: ``self`` tells its messages so
    if dim.__class__ is not int:
        dim = _argparse.int_arg("unsqueeze_", "dim", 2, dim)
    return view_inplace(self, UNSQUEEZE_, (wrap_dim(dim, self._data.ndim + 1),), UNSQUEEZE)


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
    if not isinstance(dims, (tuple, list)):
        raise TypeError(f"permute(): argument 'dims' (position 2) must be tuple of ints, not {type(dims).__name__}")
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


def _int_dims(name, dim0, dim1):
    return _argparse.int_arg(name, "dim0", 2, dim0), _argparse.int_arg(name, "dim1", 3, dim1)


def transpose(x, dim0, dim1):
    if dim0.__class__ is not int or dim1.__class__ is not int:
        dim0, dim1 = _int_dims("transpose", dim0, dim1)
    ndim = x._data.ndim
    return unary(TRANSPOSE, x, (wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)))


def transpose_(self, dim0, dim1):  # a method only: ``self`` tells its messages so
    """``x.transpose_(0, 1)``, also ``x.swapdims_(dim0, dim1)``."""
    if dim0.__class__ is not int or dim1.__class__ is not int:
        dim0, dim1 = _int_dims("transpose_", dim0, dim1)
    ndim = self._data.ndim
    return view_inplace(self, TRANSPOSE_, (wrap_dim(dim0, ndim), wrap_dim(dim1, ndim)), TRANSPOSE)


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
             vjp=lambda g: g.t(), jvp=FROM_VJP, view=True)
T_OP_ = defop("t_", np.transpose, node="TBackward1",
              vjp=lambda g: g.t(), jvp=FROM_VJP, view=True)


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
        raise RuntimeError(f"expand({_type_string(x._data.dtype)}{{{list(shape)}}}, size={list(sizes)}): "
                           f"the number of sizes provided ({len(sizes)}) must be greater or equal to the number "
                           f"of dimensions in the tensor ({len(shape)})")
    target = list(sizes)
    lead = len(sizes) - len(shape)
    for i in range(len(sizes) - 1, -1, -1) if shape else ():  # PyTorch checks from the last dim
        own = shape[i - lead] if i >= lead else None
        if sizes[i] == -1:
            if own is None:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            target[i] = own
        elif own is not None and own != sizes[i] and own != 1:
            raise RuntimeError(f"The expanded size of the tensor ({sizes[i]}) must match the existing size "
                               f"({own}) at non-singleton dimension {i}.  Target sizes: {list(sizes)}.  "
                               f"Tensor sizes: {list(shape)}")
    if any(s < 0 for s in target):  # a 0-d tensor takes its sizes as they are
        raise RuntimeError("numel: integer multiplication overflow")
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


# --- Tensor methods --------------------------------------------------------------------------


class _TensorMethods:
    def reshape(self, *shape):
        return reshape(self, size_arg(shape, "reshape", "shape"))

    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
            raise NotImplementedError("view(dtype) is not supported")
        if not shape:
            raise TypeError("view() received an invalid combination of arguments - got (), but expected one "
                            "of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n")
        return view(self, size_arg(shape, "view"))

    def view_as(self, other):
        return view(self, other._data.shape)

    def reshape_as(self, other):
        return reshape(self, other._data.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        return flatten(self, start_dim, end_dim)

    def squeeze(self, dim=None):
        return squeeze(self, dim)

    def unsqueeze(self, dim):
        return unsqueeze(self, dim)

    def transpose(self, dim0, dim1):
        return transpose(self, dim0, dim1)

    def t(self):
        return t(self)

    @property
    def T(self):
        if self._data.ndim == 0:
            _warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.")
        elif self._data.ndim != 2:
            _warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                       "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                       "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
                       "reverse the dimensions of a tensor.")
        return permute(self, tuple(range(self._data.ndim - 1, -1, -1)))

    def permute(self, *dims):
        return permute(self, size_arg(dims, "permute", "dims"))

    def expand(self, *sizes):
        return expand(self, size_arg(sizes, "expand"))

    def expand_as(self, other):
        return expand(self, other._data.shape)


tensor_methods(_TensorMethods)
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
