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

The class holds that state, its metadata and conversions, and no op: each op family
attaches its ops as methods beside them (``Tensor.exp = exp``, or ``tensor_methods`` for
methods with signatures of their own), so this module imports nothing above it.
"""
import warnings
import weakref

import numpy as np

from . import dtype as _dtype
from . import printing as _printing
from .dims import wrap_dim_of_tensor
from .modes import GRAD_MODE

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
        if requires_grad and self._counter.__class__ is InferenceCounter and not GRAD_MODE.inference:
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
        return self._data.shape[wrap_dim_of_tensor(dim, self._data.ndim)]

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
        return strides if dim is None else strides[wrap_dim_of_tensor(dim, self._data.ndim)]

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

    # --- conversions that are no op -------------------------------------------------------

    def cpu(self):
        return self

    def cuda(self, *args, **kwargs):
        raise AssertionError("Torch not compiled with CUDA enabled")

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """NumPy's result for a tensor operand as a tensor, as PyTorch's (bool as uint8)."""
        return _wrap(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    def equal(self, other):
        return self._data.shape == other._data.shape and bool((self._data == other._data).all())

    # The methods that are ops (``x.add``, ``x + y``, ``x.sum``, ``x.view``, ``x.to``...) are
    # attached by each op family beside its op: ``grep 'Tensor.add '`` finds the line.


# the code of each method ``tensor_methods`` attached: ``_argparse.entry`` tells by it that a
# failing op was called as a method, whose messages count arguments after ``self``
METHOD_CODES = set()


def tensor_methods(namespace):
    """Makes the functions and properties of the class ``namespace`` methods of Tensor.

    Each op family attaches its ops as methods at its end: ``Tensor.exp = exp`` where the
    method is the function, and a class ``_TensorMethods`` for the methods with signatures
    of their own (no ``out=``; ``x.view(2, 3)`` takes sizes one by one; ``x + y``'s
    NotImplemented). Inside a class body a name means the module's, so ``def add(self,
    other)`` there calls the family's ``add``."""
    for name, value in vars(namespace).items():
        if callable(value) or isinstance(value, property):
            setattr(Tensor, name, value)
            for fn in (value.fget, value.fset) if isinstance(value, property) else (value,):
                if fn is not None:
                    METHOD_CODES.add(getattr(fn, "__func__", fn).__code__)  # __new__: a staticmethod


def to_arguments(args, dtype=None, where=None):
    """``(dtype, device)`` named by ``to(...)``'s positional forms, ``Tensor.to``'s and
    ``Module.to``'s: a dtype, a tensor (its dtype), a device or its name (``'cpu'``)."""
    for a in args:
        if isinstance(a, _dtype.dtype):
            dtype = a
        elif isinstance(a, Tensor):
            dtype = a.dtype
        elif isinstance(a, (str, device)):
            where = a
    return dtype, where


def is_tensor(obj):
    """``torch.is_tensor``: whether ``obj`` is a Tensor (a Parameter or a vmap batch too)."""
    return isinstance(obj, Tensor)


def _warn_once(message):
    """PyTorch shows these once per process; Python's default warning filter shows a
    warning once per place in the user's code, which is as quiet."""
    warnings.warn(message, UserWarning, stacklevel=3)


def _rebuild(data, requires_grad):
    return _wrap(data, requires_grad)


def _weakref(obj):
    return weakref.ref(obj)
