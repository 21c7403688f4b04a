"""dtypes and PyTorch's type promotion.

NumPy decides result dtypes differently from PyTorch (``int32 array * 2.5`` is float64
in NumPy, float32 in PyTorch), so every op asks ``result_type`` here and casts before
calling NumPy. The rules, from ``c10/core/ScalarType.h`` and ``ResultTypeState``:

* categories rank bool < integer < floating < complex;
* within a category, a dimensioned tensor outranks a 0-d tensor, which outranks a
  Python scalar: ``float32 tensor + float64 0-d tensor`` is float32;
* a Python float is the default dtype, a Python complex the matching complex dtype.
"""
import threading

import numpy as np


class dtype:
    """A PyTorch dtype: prints as ``torch.float32`` and knows its NumPy twin."""

    __slots__ = ("name", "np", "is_floating_point", "is_complex", "is_signed", "itemsize",
                 "_category", "__weakref__")

    def __init__(self, name, np_dtype, category):
        self.name = name
        self.np = np.dtype(np_dtype)
        self._category = category  # 0 bool, 1 integer, 2 floating, 3 complex
        self.is_floating_point = category == 2
        self.is_complex = category == 3
        self.is_signed = category != 0 and name != "uint8"
        self.itemsize = self.np.itemsize

    def __repr__(self):
        return "torch." + self.name

    def __reduce__(self):
        return self.name

    def to_real(self):
        return {"complex64": float32, "complex128": float64}.get(self.name, self)

    def to_complex(self):
        """The complex dtype with this float's precision. PyTorch's for float16 is
        complex32, which NumPy (so chainrule) lacks: an error, not a silent complex64."""
        if self._category == 3:
            return self
        if self._category != 2:
            raise RuntimeError(f"Unknown Complex ScalarType for {_LEGACY_NAMES[self.name]}")
        if self.name == "float16":
            raise no_complex32()
        return complex128 if self.name == "float64" else complex64


# PyTorch's names of each dtype in its messages: the scalar type ("Float", and the legacy
# "torch.FloatTensor" from it), the C++ type as its typeid prints it ("long int"), and the C
# type of "value cannot be converted to type int64_t without overflow"
_NAMES = {
    "float32": ("Float", "float", "float"),
    "float64": ("Double", "double", "double"),
    "float16": ("Half", "c10::Half", "c10::Half"),
    "int64": ("Long", "long int", "int64_t"),
    "int32": ("Int", "int", "int"),
    "int16": ("Short", "short int", "int16_t"),
    "int8": ("Char", "signed char", "int8_t"),
    "uint8": ("Byte", "unsigned char", "uint8_t"),
    "bool": ("Bool", "bool", "bool"),
    "complex64": ("ComplexFloat", "c10::complex<float>", "c10::complex<float>"),
    "complex128": ("ComplexDouble", "c10::complex<double>", "c10::complex<double>"),
}
_LEGACY_NAMES = {name: names[0] for name, names in _NAMES.items()}
_C_TYPE_NAMES = {name: names[1] for name, names in _NAMES.items()}
_C_SCALAR_NAMES = {name: names[2] for name, names in _NAMES.items()}

# PyTorch's name for complex32, the dtype of float16 with a complex number (chainrule lacks it)
COMPLEX_HALF = "ComplexHalf"


def type_word(np_dtype):
    """PyTorch's name for a dtype in its kernel messages: Float, Long, ComplexDouble...
    (``COMPLEX_HALF`` passes through)."""
    if np_dtype is COMPLEX_HALF:
        return np_dtype
    return _LEGACY_NAMES[np_dtype.name if isinstance(np_dtype, dtype) else np.dtype(np_dtype).name]


def not_implemented(kernel, np_dtype):
    """PyTorch's error for a kernel without this dtype: ``"round_cpu" not implemented for 'Long'``."""
    return NotImplementedError(f"\"{kernel}\" not implemented for '{type_word(np_dtype)}'")


def no_complex32():
    """PyTorch computes float16 with complex numbers in complex32 (ComplexHalf), a dtype
    chainrule does not have (see docs/differences.md). Callers whose PyTorch kernel refuses
    complex32 anyway catch it (``is_complex32``) and raise PyTorch's own error instead."""
    error = TypeError("chainrule has no complex32 (ComplexHalf): float16 with a complex operand would be "
                      "complex32 in PyTorch; convert the float16 tensor to float32 or complex64 first")
    error.complex32 = True
    return error


def is_complex32(error):
    """Whether ``error`` is ``no_complex32``'s: promotion reached complex32."""
    return getattr(error, "complex32", False)


bool_ = dtype("bool", np.bool_, 0)
uint8 = dtype("uint8", np.uint8, 1)
int8 = dtype("int8", np.int8, 1)
int16 = dtype("int16", np.int16, 1)
int32 = dtype("int32", np.int32, 1)
int64 = dtype("int64", np.int64, 1)
float16 = dtype("float16", np.float16, 2)
float32 = dtype("float32", np.float32, 2)
float64 = dtype("float64", np.float64, 2)
complex64 = dtype("complex64", np.complex64, 3)
complex128 = dtype("complex128", np.complex128, 3)

ALL_DTYPES = (bool_, uint8, int8, int16, int32, int64, float16, float32, float64,
              complex64, complex128)
FROM_NUMPY = {d.np: d for d in ALL_DTYPES}


def from_numpy_dtype(np_dtype):
    """The chainrule dtype of a NumPy dtype; TypeError for ones PyTorch lacks."""
    try:
        return FROM_NUMPY[np_dtype]
    except KeyError:
        raise TypeError(
            f"can't convert np.ndarray of type numpy.{np.dtype(np_dtype).name}. The only "
            "supported types are: float64, float32, float16, complex64, complex128, int64, "
            "int32, int16, int8, uint8, and bool.") from None


# --- default dtype -----------------------------------------------------------------

_state = threading.local()


def get_default_dtype():
    return getattr(_state, "default", float32)


def set_default_dtype(d):
    if not isinstance(d, dtype) or not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _state.default = d


def default_complex_dtype():
    return complex128 if get_default_dtype() is float64 else complex64


# --- promotion ---------------------------------------------------------------------

def _promote_ints(a, b):
    if a is uint8 or b is uint8:
        other = b if a is uint8 else a
        if other is uint8:
            return uint8
        # uint8 with a signed type needs one more bit than int8 gives
        return int16 if other is int8 else other
    return a if a.itemsize >= b.itemsize else b


def promote_types(a, b):
    """``torch.promote_types``: the smallest dtype both values fit in."""
    if a is b:
        return a
    ca, cb = a._category, b._category
    if ca != cb:
        hi, lo = (a, b) if ca > cb else (b, a)
        if hi.is_complex and lo.is_floating_point and lo is float64:
            return complex128
        return hi
    if ca == 1:
        return _promote_ints(a, b)
    return a if a.itemsize >= b.itemsize else b


def _combine(higher, lower):
    """How a higher-priority result absorbs a lower-priority one (ResultTypeState)."""
    if higher is None:
        return lower
    if lower is None or higher.is_complex:
        return higher
    if higher.is_floating_point:
        return higher.to_complex() if lower.is_complex else higher
    if higher is bool_ or lower._category >= 2:
        return promote_types(higher, lower)
    return higher


def scalar_dtype(value):
    """The dtype a Python number takes when it meets a tensor."""
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        return int64
    if isinstance(value, float):
        return get_default_dtype()
    if isinstance(value, complex):
        return default_complex_dtype()
    raise TypeError(f"unsupported scalar type {type(value).__name__}")


def result_dtype(operands):
    """Result dtype for a mix of Tensors and Python scalars, by PyTorch's priorities."""
    dim_result = zero_result = wrapped_result = None
    unsigned = False
    for x in operands:
        d = getattr(x, "dtype", None)
        if d is None:
            s = scalar_dtype(x)
            if s is int64 and x >= 1 << 63:
                unsigned = True
            wrapped_result = s if wrapped_result is None else promote_types(wrapped_result, s)
        elif x.ndim == 0:
            zero_result = d if zero_result is None else promote_types(zero_result, d)
        else:
            dim_result = d if dim_result is None else promote_types(dim_result, d)
    if unsigned and (zero_result if zero_result is not None else dim_result) is bool_:
        raise no_bool_with_uint64()
    return _combine(dim_result, _combine(zero_result, wrapped_result))


def no_bool_with_uint64():
    """PyTorch holds a Python int from 2**63 up as a uint64, which it won't promote with bool
    (with an integer tensor the tensor's dtype wins, without promoting)."""
    return RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                        "Bool and UInt64")


# --- Python ints meeting integer dtypes ---------------------------------------------------

# PyTorch holds a Python int as a 64-bit signed or unsigned number (c10::Scalar)
_SCALAR_MIN, _SCALAR_END = -(1 << 63), 1 << 64



def scalar_int(value):
    """The Python int ``value`` if a PyTorch Scalar can hold it, else PyTorch's OverflowError."""
    if value >= _SCALAR_END:
        raise OverflowError("int too big to convert")
    if value < _SCALAR_MIN:
        raise OverflowError("can't convert negative int to unsigned")
    return value


def wrapped_int(value, np_dtype):
    """The Python int ``value`` as PyTorch's arithmetic and comparisons use it with an
    integer tensor: cast to the tensor's dtype, modulo 2**bits, as C casts.

    >>> wrapped_int(-3, np.dtype(np.uint8)), wrapped_int(300, np.dtype(np.int8))
    (253, 44)
    """
    bits = np_dtype.itemsize * 8
    value = scalar_int(value) & ((1 << bits) - 1)
    if np_dtype.kind == "i" and value >> (bits - 1):
        value -= 1 << bits
    return value


def checked_scalar(value, np_dtype, check_half=True):
    """``value`` for the parameters PyTorch converts with an overflow check (``fill_``,
    ``full``, ``alpha``, a ``pow`` exponent, ``where``'s numbers, ``threshold``'s): for an
    unsigned dtype it accepts integer negatives down to -max (and wraps them) but no negative
    float, as c10's ``overflows``; nan and inf fit any float, no integer. ``check_half=False``: ``fill_`` and ``full`` convert
    to float16 unchecked (overflow gives inf) in PyTorch.

    >>> checked_scalar(-3, np.dtype(np.uint8))
    253
    """
    cls = value.__class__
    if cls is not int and cls is not float:
        return value
    if cls is int:
        scalar_int(value)
    elif np_dtype.kind == "u" and value < 0:  # a float is checked from the type's lowest, 0
        raise RuntimeError(f"value cannot be converted to type {_C_SCALAR_NAMES[np_dtype.name]} without overflow")
    elif (value != value or abs(value) == float("inf")) and np_dtype.kind not in "iu":  # no nan, inf in integers
        return value
    low, high = _CHECKED_RANGES.get(np_dtype.char, (None, None))
    if low is None or (not check_half and np_dtype.char == "e"):
        return value
    if not low <= value <= high:
        raise RuntimeError(f"value cannot be converted to type {_C_SCALAR_NAMES[np_dtype.name]} without overflow")
    return wrapped_int(value, np_dtype) if cls is int and np_dtype.kind in "iu" else value


_CHECKED_RANGES = {np.dtype(t).char: ((-int(np.iinfo(t).max) if t is np.uint8 else int(np.iinfo(t).min)),
                                      int(np.iinfo(t).max))
                   for t in (np.uint8, np.int8, np.int16, np.int32, np.int64)}
_CHECKED_RANGES.update({np.dtype(t).char: (-float(np.finfo(t).max), float(np.finfo(t).max))
                        for t in (np.float16, np.float32, np.float64, np.complex64, np.complex128)})


def can_cast(from_, to):
    """``torch.can_cast``: no cast down a category (float to int, complex to float...)."""
    if from_._category > to._category:
        return False
    return not (from_._category >= 1 and to is bool_)
