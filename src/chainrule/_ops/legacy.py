"""PyTorch's legacy tensor types: ``torch.FloatTensor``, ``torch.LongTensor``...

Old tutorials build tensors with them and test tensors against them. Each is a class of
the metaclass ``tensortype`` (as in PyTorch): calling it makes a tensor of its dtype, and
``isinstance(x, torch.FloatTensor)`` asks whether ``x`` is a float32 tensor. They are not
subclasses of ``Tensor`` (as in PyTorch: ``type(torch.FloatTensor(2))`` is ``Tensor``).

>>> torch.FloatTensor(2, 3).shape, torch.LongTensor([1.5, 2])
(torch.Size([2, 3]), tensor([1, 2]))
>>> isinstance(torch.ones(2), torch.FloatTensor), torch.ones(2).type()
(True, 'torch.FloatTensor')
"""
import numpy as np

from . import creation as _creation
from .._core import dtype as _dtype
from .._core.tensor import _C_TYPE_NAMES, Size, Tensor, _legacy_type_name, tensor_methods


class tensortype(type):
    """The metaclass of the legacy types: their calls and ``isinstance`` checks."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj._data.dtype == cls.dtype.np

    def __call__(cls, *args, **kwargs):
        if kwargs.keys() - {"device"}:
            got = ", ".join([_type_name(a) for a in args] + [f"{k}={_type_name(v)}" for k, v in kwargs.items()])
            raise TypeError(f"new() received an invalid combination of arguments - got ({got}), but expected one of:")
        if len(args) == 1 and not isinstance(args[0], (int, np.integer, Size)):
            return _from_data(cls, args[0])
        if len(args) == 1 and isinstance(args[0], Size):
            args = tuple(args[0])
        return _creation.empty(*args, dtype=cls.dtype) if args else _creation.empty(0, dtype=cls.dtype)

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _type_name(value):
    return "torch.dtype" if isinstance(value, _dtype.dtype) else type(value).__name__


def _from_data(cls, data):
    """``torch.FloatTensor([1, 2])``: the data in the type's dtype; a tensor must have it."""
    if isinstance(data, Tensor):
        if data._data.dtype != cls.dtype.np:
            raise TypeError(f"expected {_options(cls.dtype)} (got {_options(data.dtype)})")
        return data.detach()
    if isinstance(data, str):
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(data, (list, tuple, np.ndarray)):
        raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
    return _creation.tensor(data, dtype=cls.dtype)


def _options(dtype):
    """PyTorch's printing of the TensorOptions a legacy constructor expected or got."""
    return (f"TensorOptions(dtype={_C_TYPE_NAMES[dtype.name]}, device=cpu, layout=Strided, requires_grad=false (default), "
            "pinned_memory=false (default), memory_format=(nullopt))")


class FloatTensor(metaclass=tensortype):
    dtype = _dtype.float32


class DoubleTensor(metaclass=tensortype):
    dtype = _dtype.float64


class HalfTensor(metaclass=tensortype):
    dtype = _dtype.float16


class LongTensor(metaclass=tensortype):
    dtype = _dtype.int64


class IntTensor(metaclass=tensortype):
    dtype = _dtype.int32


class ShortTensor(metaclass=tensortype):
    dtype = _dtype.int16


class CharTensor(metaclass=tensortype):
    dtype = _dtype.int8


class ByteTensor(metaclass=tensortype):
    dtype = _dtype.uint8


class BoolTensor(metaclass=tensortype):
    dtype = _dtype.bool_


LEGACY_TYPES = {_legacy_type_name(t.dtype.np): t for t in (
    FloatTensor, DoubleTensor, HalfTensor, LongTensor, IntTensor, ShortTensor, CharTensor, ByteTensor, BoolTensor)}


def dtype_of(kind):
    """The dtype that ``x.type(kind)`` names: a dtype, a legacy type or its name."""
    if isinstance(kind, _dtype.dtype):
        return kind
    if isinstance(kind, tensortype):
        return kind.dtype
    if isinstance(kind, str):
        if kind.startswith("torch.cuda."):
            raise AssertionError("Torch not compiled with CUDA enabled")
        if kind in LEGACY_TYPES:
            return LEGACY_TYPES[kind].dtype
        raise ValueError(f"invalid type: {kind!r}")
    raise TypeError("dtype must be a type, str, or dtype object")


# --- Tensor methods ---------------------------------------------------------------------------


class _TensorMethods:
    def type(self, dtype=None, non_blocking=False, **kwargs):
        """The legacy type's name (``'torch.FloatTensor'``), or a cast to the type named by a
        dtype, a legacy type or its name: ``x.type('torch.DoubleTensor')``."""
        if dtype is None:
            return _legacy_type_name(self._data.dtype)
        return self.to(dtype_of(dtype))

    def type_as(self, other):
        """This tensor in ``other``'s dtype (itself when it has it already)."""
        return self.to(other.dtype)


tensor_methods(_TensorMethods)
