"""The Tensor: a NumPy array plus what autograd needs to know about it.

A Tensor holds its array (``_data``); it does not subclass ``ndarray``. Creating one is
on every op's hot path, hence ``__slots__`` and the bare ``_wrap`` constructor.

Autograd state, as in PyTorch:

* ``grad_fn``: the node that made this tensor (None for leaves).
* ``_requires_grad``: whether gradients flow to it.
* ``_counter``: the version counter, a one-element list shared with every view of the
  same memory (``_version`` reads it, as in PyTorch). In-place
  ops bump it; nodes remember the version of each tensor they saved, and backward
  refuses to use a tensor changed since (see ``Node.unpack_saved``).
* ``_extra``: state few tensors need (see ``_Extras``), kept out of the constructor.
"""
import warnings
import weakref

import numpy as np

from . import _dtype
from . import _printing

_LEGACY_NAMES, _C_TYPE_NAMES = _dtype._LEGACY_NAMES, _dtype._C_TYPE_NAMES


def _legacy_type_name(np_dtype):
    """``torch.FloatTensor``-style names, used in some of PyTorch's messages."""
    return f"torch.{_LEGACY_NAMES[np.dtype(np_dtype).name]}Tensor"


def _type_string(np_dtype):
    """PyTorch's ``toString()`` of a tensor type in messages: the legacy class name, but
    ``CPUBoolType``, ``CPUComplexFloatType`` for the dtypes that had no legacy class."""
    d = np.dtype(np_dtype)
    return f"CPU{_LEGACY_NAMES[d.name]}Type" if d.kind in "bc" else _legacy_type_name(d)


class Size(tuple):
    """``torch.Size``: a tuple that prints as ``torch.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        item = tuple.__getitem__(self, key)
        return Size(item) if isinstance(key, slice) else item


_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                 "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class device:
    """Only the CPU exists. As in PyTorch's CPU-only build, naming CUDA raises
    ``AssertionError: Torch not compiled with CUDA enabled``; chainrule raises it when the
    device is named (PyTorch when a tensor is put there)."""

    __slots__ = ("type", "index")

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        if isinstance(type, int):
            raise RuntimeError("Cannot access accelerator device when none is available.")
        name, _, number = type.partition(":")
        if name not in _DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_DEVICE_TYPES)} device type at start of device string: "
                               f"{type}")
        if name == "cuda":
            raise AssertionError("Torch not compiled with CUDA enabled")
        if name != "cpu":
            raise RuntimeError(f"chainrule runs on the CPU only; got device {type!r}")
        self.type = "cpu"
        self.index = int(number) if number else index

    def __repr__(self):
        return "device(type='cpu')" if self.index is None else f"device(type='cpu', index={self.index})"

    def __str__(self):
        return "cpu" if self.index is None else f"cpu:{self.index}"

    def __eq__(self, other):
        return str(other) == "cpu"

    def __hash__(self):
        return hash("cpu")


CPU = device()
_Device = device  # the class, for methods whose ``device`` keyword shadows its name

_new = object.__new__


def _wrap(data, requires_grad=False, grad_fn=None):
    """A Tensor around the ndarray ``data`` (no copy, no checks): the hot-path constructor."""
    t = _new(Tensor)
    t._data = data
    t._requires_grad = requires_grad
    t.grad_fn = grad_fn
    t._grad = None
    t._counter = [0]
    t._extra = None
    return t


class InferenceCounter(list):
    """The version counter of an inference tensor (made under ``inference_mode``; its views
    share it). PyTorch's inference tensors have no version counter: outside inference mode
    they cannot be saved for backward, changed in place or made to require grad. A list
    like any counter, so the ops treat it alike; only those checks look at its class."""

    __slots__ = ()


class _Extras:
    """Tensor state that most tensors never need.

    ``base`` / ``view_steps``: for a view, the tensor owning the memory and the view ops
    that lead from it, so an in-place op on the view can update the base's graph.
    ``view_version``: the version at which the view's ``grad_fn`` was derived; once an
    in-place op moved the shared version on, the view's history is rebuilt from the base.
    ``accumulator``: a leaf's AccumulateGrad node. ``hooks``, ``post_accumulate_hooks``:
    a leaf's gradient hooks. ``tangent``: the forward-mode tangent of a dual tensor.
    ``layout_undo``: for a base reshaped in place (``unsqueeze_``, ``t_``...), the view steps
    undoing each change, oldest first; ``base_layout``: for a view, how many of its base's
    changes had happened when it was taken, so its steps start from the layout it saw.
    """

    __slots__ = ("base", "view_steps", "view_version", "accumulator", "hooks", "post_accumulate_hooks",
                 "tangent", "layout_undo", "base_layout")

    def __init__(self):
        self.base = self.view_steps = self.view_version = self.accumulator = None
        self.hooks = self.post_accumulate_hooks = self.tangent = self.layout_undo = None
        self.base_layout = 0


def extras(t):
    """``t``'s rarely used state, created on first use."""
    e = t._extra
    if e is None:
        e = t._extra = _Extras()
    return e


class Tensor:
    """A multi-dimensional array that can record the ops applied to it."""

    __slots__ = ("_data", "_requires_grad", "grad_fn", "_grad", "_counter", "_extra", "__weakref__")

    __array_priority__ = 1000  # ndarray op Tensor defers to the Tensor's reflected op

    def __new__(cls, *args, **kwargs):
        """``torch.Tensor(2, 3)`` (uninitialised float tensor) or ``torch.Tensor([1, 2])``."""
        if len(args) == 1 and not isinstance(args[0], int):
            return _creation.tensor(args[0], dtype=_dtype.get_default_dtype())
        return _creation.empty(*args, **kwargs)

    # --- autograd state ------------------------------------------------------------

    @property
    def _base(self):
        return None if self._extra is None else self._extra.base

    @property
    def _view_steps(self):
        """The view ops leading from the base as it is now to this view."""
        e = self._extra
        if e is None or e.base is None:
            return None if e is None else e.view_steps
        undo = None if e.base._extra is None else e.base._extra.layout_undo
        if undo and len(undo) > e.base_layout:  # the base changed its layout in place since
            return tuple(reversed(undo[e.base_layout:])) + e.view_steps
        return e.view_steps

    @property
    def requires_grad(self):
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        # PyTorch's three entry points word the same mistake three ways; we follow each
        self._set_requires_grad(flag, "only Tensors of floating point and complex dtype can require gradients")

    def requires_grad_(self, requires_grad=True):
        return self._set_requires_grad(requires_grad, "only Tensors of floating point dtype can require gradients")

    def _set_requires_grad(self, requires_grad, dtype_message):
        if self.grad_fn is not None and not requires_grad:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if requires_grad and self._data.dtype.kind not in "fc":
            raise RuntimeError(dtype_message)
        if requires_grad and self._counter.__class__ is InferenceCounter and not _grad_mode.STATE.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self):
        return self.grad_fn is None

    @property
    def grad(self):
        if self.grad_fn is not None and not self.retains_grad:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
                ".grad attribute won't be populated during autograd.backward(). If you indeed want "
                "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
                "non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
                "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
                "information.", UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {type(value).__name__}")
            if value._data.shape != self._data.shape:
                raise RuntimeError(f"attempting to assign a gradient of size '{list(value._data.shape)}' to a "
                                   f"tensor of size '{list(self._data.shape)}'. Please ensure that the gradient "
                                   "and the tensor are the same size")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_C_TYPE_NAMES[value._data.dtype.name]}' to a "
                    f"tensor with grad_dtype '{_LEGACY_NAMES[self._data.dtype.name]}'. The gradient must match "
                    "the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
                    "grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype "
                    "with caution. Diverging the dtypes of a tensor and its gradient may break downstream "
                    "systems that assume they match.")
        self._grad = value

    @property
    def retains_grad(self):
        node = self.grad_fn
        return node is not None and node.hooks is not None and node.hooks.retains(self)

    def retain_grad(self):
        """Keep ``.grad`` for this non-leaf too (leaves keep theirs anyway)."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is not None:
            self.grad_fn.node_hooks().retained = _weakref(self)

    def register_hook(self, hook):
        """``hook(grad)`` runs when this tensor's gradient is computed; it may return a
        replacement. Returns a handle whose ``remove()`` unregisters it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            e = extras(self)
            if e.hooks is None:
                e.hooks = []
            return _engine._Handle(e.hooks, hook)
        return _engine._Handle(self.grad_fn.node_hooks().pre, hook)

    def register_post_accumulate_grad_hook(self, hook):
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        e = extras(self)
        if e.post_accumulate_hooks is None:
            e.post_accumulate_hooks = []
        return _engine._Handle(e.post_accumulate_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Adds d(self)/d(leaf), weighted by ``gradient``, into each leaf's ``.grad``.

        For a non-scalar ``self``, ``gradient`` is the v of the vector-Jacobian product
        J^T·v: ``y.backward(v)`` gives each leaf x the gradient of ``(y * v).sum()``.
        """
        _autograd_gradients.backward(self, gradient, retain_graph, create_graph,
                                     inputs=inputs)

    def detach(self):
        """The same memory without history: a new leaf that does not require grad."""
        out = _wrap(self._data)
        out._counter = self._counter
        return out

    def detach_(self):
        if self._base is not None and self._base._requires_grad:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are using "
                               "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view "
                               "is set as True, gradients are views of DDP buckets, and hence detach_() "
                               "cannot be called on these gradients. To fix this error, please refer to "
                               "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                               "solution.")
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self):
        """PyTorch's ``.data``: the same memory without history, and (unlike ``detach()``)
        with a version counter of its own, so autograd does not see in-place changes made
        through it: ``x.data.mul_(2)`` after ``y = x * x`` silently changes y's gradient."""
        return _wrap(self._data)

    @data.setter
    def data(self, value):
        """``x.data = y``: x now holds y's memory (any shape), keeping its own history."""
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self._requires_grad and value._data.dtype.kind not in "fc":
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        self._data = value._data

    # --- metadata ------------------------------------------------------------------

    @property
    def dtype(self):
        return _dtype.FROM_NUMPY[self._data.dtype]

    @property
    def shape(self):
        return Size(self._data.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_shape.wrap_dim_of_tensor(dim, self._data.ndim)]

    def dim(self):
        return self._data.ndim

    @property
    def ndim(self):
        return self._data.ndim

    ndimension = dim

    def numel(self):
        return self._data.size

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    def stride(self, dim=None):
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        return strides if dim is None else strides[_shape.wrap_dim_of_tensor(dim, self._data.ndim)]

    def is_contiguous(self, memory_format=None):
        return self._data.flags.c_contiguous

    @property
    def device(self):
        return CPU

    @property
    def is_cuda(self):
        return False

    def is_floating_point(self):
        return self._data.dtype.kind == "f"

    def is_complex(self):
        return self._data.dtype.kind == "c"

    def is_inference(self):
        return self._counter.__class__ is InferenceCounter

    def type(self, dtype=None, non_blocking=False, **kwargs):
        """The legacy type's name (``'torch.FloatTensor'``), or a cast to the type named by a
        dtype, a legacy type or its name: ``x.type('torch.DoubleTensor')``."""
        if dtype is None:
            return _legacy_type_name(self._data.dtype)
        return self.to(_legacy.dtype_of(dtype))

    def type_as(self, other):
        """This tensor in ``other``'s dtype (itself when it has it already)."""
        return self.to(other.dtype)

    @property
    def _version(self):
        if self._counter.__class__ is InferenceCounter:
            raise RuntimeError("Inference tensors do not track version counter.")
        return self._counter[0]

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __hash__(self):
        return id(self)

    # --- conversions ---------------------------------------------------------------

    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.reshape(()).item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self, *, force=False):
        if self._requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        if self._requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._data if dtype is None else self._data.astype(dtype)

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous" if self._data.size == 0
                               else "Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()))

    def _python_number(self):
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if self._requires_grad:
            _warn_once("Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                       "behavior.\nConsider using tensor.detach() first.")
        return self._data.reshape(()).item()

    def __float__(self):
        return float(self._python_number())

    def __int__(self):
        return int(self._python_number())

    def __complex__(self):
        return complex(self._python_number())

    def __index__(self):
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def unbind(self, dim=0):
        return tuple(_indexing.select(self, dim, i) for i in range(self.size(dim)))

    def __repr__(self):
        name = self.grad_fn.display_name() if self.grad_fn is not None else None
        return _printing.tensor_repr(self._data, self.dtype, self._requires_grad, name)

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._data, self._requires_grad))

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support "
                               "the deepcopy protocol at the moment.  If you were attempting to "
                               "deepcopy a module, this may be because of a torch.nn.utils.weight_norm "
                               "usage, see https://github.com/pytorch/pytorch/pull/103001")
        out = _wrap(self._data.copy(), self._requires_grad)
        if self._grad is not None:
            out._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = out
        return out

    # --- dtype casts and copies -------------------------------------------------------

    def to(self, *args, dtype=None, device=None, copy=False, non_blocking=False):
        """``to(dtype)``, ``to('cpu')``, ``to(other_tensor)``: a differentiable cast."""
        for a in args:
            if isinstance(a, _dtype.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            elif isinstance(a, (str, _Device)):
                device = a
        if device is not None:
            _Device(device)  # PyTorch's error for CUDA
        if dtype is None or dtype.np == self._data.dtype:
            return self.clone() if copy else self
        if dtype.np.kind not in "fc":  # integer results carry no gradient
            return _wrap(self._data.astype(dtype.np))
        return _ew.cast(self, dtype.np)

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def half(self):
        return self.to(_dtype.float16)

    def long(self):
        return self.to(_dtype.int64)

    def int(self):
        return self.to(_dtype.int32)

    def short(self):
        return self.to(_dtype.int16)

    def char(self):
        return self.to(_dtype.int8)

    def byte(self):
        return self.to(_dtype.uint8)

    def bool(self):
        return self.to(_dtype.bool_)

    def cpu(self):
        return self

    def cuda(self, *args, **kwargs):
        raise AssertionError("Torch not compiled with CUDA enabled")

    def clone(self, memory_format=None):
        return _ew.clone(self)

    def contiguous(self, memory_format=None):
        return self if self._data.flags.c_contiguous else _ew.clone(self, "C")

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        return _creation.tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return _creation.zeros(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return _creation.ones(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        return _creation.full(size, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return _creation.empty(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    # --- arithmetic operators ---------------------------------------------------------

    def __add__(self, other):
        try:
            return _ew.add(self, other)
        except _ew.NotAnOperand:  # a list, None, an array...: Python's TypeError or NumPy's op, as PyTorch's
            return NotImplemented

    def __radd__(self, other):
        try:
            return _ew.add(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __sub__(self, other):
        try:
            return _ew.sub(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __rsub__(self, other):
        try:
            return _ew.rsub(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __mul__(self, other):
        try:
            return _ew.mul(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __rmul__(self, other):
        try:
            return _ew.mul(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __truediv__(self, other):
        try:
            return _ew.div(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __rtruediv__(self, other):
        try:
            return _ew.rdiv(self, other)
        except _ew.NotAnOperand:  # PyTorch's is reciprocal() * other, which leaves an array to NumPy
            return _unary.reciprocal(self) * other if isinstance(other, np.ndarray) else NotImplemented

    def __floordiv__(self, other):
        try:
            return _ew.floor_divide(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __rfloordiv__(self, other):
        try:  # the number stays a weakly typed number: 2 // uint8 is uint8
            return _ew.floor_divide(other, self)
        except _ew.NotAnOperand:
            return NotImplemented

    def __mod__(self, other):
        try:
            return _ew.remainder(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __pow__(self, exponent):
        try:
            return _ew.pow(self, exponent)
        except _ew.NotAnOperand:
            return NotImplemented

    def __rpow__(self, base):
        try:
            return _ew.rpow(self, base)
        except _ew.NotAnOperand:
            return NotImplemented

    def __matmul__(self, other):
        try:
            return _linalg.matmul(self, other)
        except (AttributeError, TypeError):
            if isinstance(other, Tensor):
                raise
            return NotImplemented

    def __rmatmul__(self, other):  # only for what is no tensor: PyTorch's matmul refuses it
        return NotImplemented

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """NumPy's result for a tensor operand as a tensor, as PyTorch's (bool as uint8)."""
        return _wrap(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    def __neg__(self):
        return _ew.neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _unary.abs(self)

    def __invert__(self):
        kind = self._data.dtype.kind
        if kind == "b":
            return _ew.logical_not(self)
        if kind not in "iu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return _ew.bitwise_not(self)

    def __and__(self, other):
        try:
            return _ew.bitwise_and(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    __rand__ = __and__

    def __or__(self, other):
        try:
            return _ew.bitwise_or(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    __ror__ = __or__

    def __xor__(self, other):
        try:
            return _ew.bitwise_xor(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    __rxor__ = __xor__

    def __iadd__(self, other):
        return self.add_(other)

    def __isub__(self, other):
        return self.sub_(other)

    def __imul__(self, other):
        return self.mul_(other)

    def __itruediv__(self, other):
        return self.div_(other)

    def __ipow__(self, other):
        return self.pow_(other)

    # --- comparisons: bool tensors, never differentiable ------------------------------

    def __eq__(self, other):
        try:  # a list, None...: Python's identity comparison, as PyTorch's
            return _ew.eq(self, other)
        except _ew.NotAnOperand:  # PyTorch compares with an array (its other comparisons refuse one)
            return _ew.eq(self, _ew.as_tensor_like(other, self)) if isinstance(other, np.ndarray) else NotImplemented

    def __ne__(self, other):
        try:
            return _ew.ne(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __lt__(self, other):
        try:
            return _ew.lt(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __le__(self, other):
        try:
            return _ew.le(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __gt__(self, other):
        try:
            return _ew.gt(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def __ge__(self, other):
        try:
            return _ew.ge(self, other)
        except _ew.NotAnOperand:
            return NotImplemented

    def eq(self, other):
        return _ew.eq(self, other)

    def ne(self, other):
        return _ew.ne(self, other)

    def lt(self, other):
        return _ew.lt(self, other)

    def le(self, other):
        return _ew.le(self, other)

    def gt(self, other):
        return _ew.gt(self, other)

    def ge(self, other):
        return _ew.ge(self, other)

    def equal(self, other):
        return self._data.shape == other._data.shape and bool((self._data == other._data).all())

    # --- ops, as methods ------------------------------------------------------------

    def add(self, other, *, alpha=1):
        return _ew.add(self, other, alpha=alpha)

    def sub(self, other, *, alpha=1):
        return _ew.sub(self, other, alpha=alpha)

    def mul(self, other):
        return _ew.mul(self, other)

    def div(self, other, *, rounding_mode=None):
        return _ew.div(self, other, rounding_mode=rounding_mode)

    def pow(self, exponent):
        return _ew.pow(self, exponent)

    def neg(self):
        return _ew.neg(self)

    @property
    def real(self):
        return _ew.real(self)

    @property
    def imag(self):
        return _ew.imag(self)

    def conj(self):
        return _ew.conj(self) if self._data.dtype.kind == "c" else self

    def resolve_conj(self):
        return _ew.resolve_conj(self)

    def resolve_neg(self):
        return _ew.resolve_neg(self)

    def is_conj(self):
        return _ew.is_conj(self)

    def is_neg(self):
        return _ew.is_neg(self)

    def matmul(self, other):
        return _linalg.matmul(self, other)

    def mm(self, other):
        return _linalg.mm(self, other)

    def mv(self, vec):
        return _linalg.mv(self, vec)

    def dot(self, other):
        return _linalg.dot(self, other)

    def clamp(self, min=None, max=None):  # methods of their own: PyTorch's messages differ
        return _unary.clamp(self, min, max)

    def clip(self, min=None, max=None):
        return _unary.clamp(self, min, max)

    def sum(self, dim=None, keepdim=False, *, dtype=None):
        return _red.sum(self, dim, keepdim, dtype=dtype)

    def mean(self, dim=None, keepdim=False, *, dtype=None):
        return _red.mean(self, dim, keepdim, dtype=dtype)

    def max(self, dim=None, keepdim=False):
        return _red.max(self, dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return _red.min(self, dim, keepdim)

    def argmax(self, dim=None, keepdim=False):
        return _red.argmax(self, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return _red.argmin(self, dim, keepdim)

    def sum_to_size(self, *size):
        size, have = tuple(_shape.size_arg(size)), self._data.shape
        if len(size) > len(have) or any(s != 1 and s != h for s, h in zip(size[::-1], have[::-1])):
            raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(have)}}}.")
        return _red.sum_to_size(self, size)

    def all(self, dim=None, keepdim=False):
        return _red.all(self, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        return _red.any(self, dim, keepdim)

    def reshape(self, *shape):
        return _shape.reshape(self, _shape.size_arg(shape, "reshape", "shape"))

    def view(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
            raise NotImplementedError("view(dtype) is not supported")
        if not shape:
            raise TypeError("view() received an invalid combination of arguments - got (), but expected one "
                            "of:\n * (torch.dtype dtype)\n * (tuple of ints size)\n")
        return _shape.view(self, _shape.size_arg(shape, "view"))

    def view_as(self, other):
        return _shape.view(self, other._data.shape)

    def reshape_as(self, other):
        return _shape.reshape(self, other._data.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        return _shape.flatten(self, start_dim, end_dim)

    def squeeze(self, dim=None):
        return _shape.squeeze(self, dim)

    def unsqueeze(self, dim):
        return _shape.unsqueeze(self, dim)

    def transpose(self, dim0, dim1):
        return _shape.transpose(self, dim0, dim1)

    swapaxes = swapdims = transpose

    def t(self):
        return _shape.t(self)

    @property
    def T(self):
        if self._data.ndim == 0:
            _warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.")
        elif self._data.ndim != 2:
            _warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                       "deprecated and it will throw an error in a future release. Consider `x.mT` to "
                       "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
                       "reverse the dimensions of a tensor.")
        return _shape.permute(self, tuple(range(self._data.ndim - 1, -1, -1)))

    @property
    def mT(self):
        return _shape.transpose(self, -2, -1)

    def permute(self, *dims):
        return _shape.permute(self, _shape.size_arg(dims, "permute", "dims"))

    def expand(self, *sizes):
        return _shape.expand(self, _shape.size_arg(sizes, "expand"))

    def expand_as(self, other):
        return _shape.expand(self, other._data.shape)

    def __getitem__(self, index):
        return _indexing.getitem(self, index)

    def __setitem__(self, index, value):
        _inplace.setitem(self, index, value)

    # --- in-place ops (see _ops/inplace.py for the autograd rules) ------------------

    def add_(self, other, *, alpha=1):
        return _inplace.apply_inplace(self, _ew.add, other, alpha=alpha)

    def sub_(self, other, *, alpha=1):
        return _inplace.apply_inplace(self, _ew.sub, other, alpha=alpha)

    def mul_(self, other):
        return _inplace.apply_inplace(self, _ew.mul, other)

    def div_(self, other, *, rounding_mode=None):
        if rounding_mode is None:  # true division: its result is floating (see inplace.PROMOTING)
            return _inplace.apply_inplace(self, _ew.true_divide, other)
        return _inplace.apply_inplace(self, _ew.div, other, rounding_mode=rounding_mode)

    def pow_(self, exponent):
        return _inplace.apply_inplace(self, _ew.pow, exponent)

    def neg_(self):
        return _inplace.apply_inplace(self, _ew.neg)

    def zero_(self):
        return _inplace.apply_inplace(self, _ew.zero)

    def fill_(self, value):
        return _inplace.apply_inplace(self, _ew.fill, value)

    def copy_(self, src, non_blocking=False):
        return _inplace.apply_inplace(self, _ew.copy, src)


def _warn_once(message):
    """PyTorch shows these once per process; Python's default warning filter shows a
    warning once per place in the user's code, which is as quiet."""
    warnings.warn(message, UserWarning, stacklevel=3)


def _rebuild(data, requires_grad):
    return _wrap(data, requires_grad)


def _weakref(obj):
    return weakref.ref(obj)


# The op modules import Tensor from here, so they are bound after the class exists.
from ._ops import elementwise as _ew  # noqa: E402
from ._ops import unary as _unary  # noqa: E402
from ._ops import reductions as _red  # noqa: E402
from ._ops import shape as _shape  # noqa: E402
from ._ops import indexing as _indexing  # noqa: E402
from ._ops import linalg as _linalg  # noqa: E402
from ._ops import inplace as _inplace  # noqa: E402
from . import _creation  # noqa: E402
from . import _legacy  # noqa: E402
from .autograd import engine as _engine  # noqa: E402
from .autograd import grad_mode as _grad_mode  # noqa: E402
from .autograd import gradients as _autograd_gradients  # noqa: E402

_engine.bind(_wrap, extras, _type_string, _red.sum_to_size, _ew.cast)
