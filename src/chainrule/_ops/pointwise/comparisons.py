"""Comparisons (``eq`` ... ``ge`` and their aliases), logic (``logical_not``) and bitwise ops
(``bitwise_and`` ...): plain results, bool or integer tensors that never require grad,
with PyTorch's promotion of their operands and its refusals (no complex order, no float
bitwise op). The in-place comparisons, which PyTorch records, are in ``binary``.
"""

import numpy as np

from ..._core import arguments as _argparse, dtype as _dtype
from ..._core.arguments import NotAnOperand, operand
from ..._core.tensor import Tensor, _wrap, is_tensor, tensor_methods
from ..operands import (as_tensor_like, common_operands, invalid_arguments, _is_complex, not_implemented_for, plain,
                        promoted, _scalar_operand, TENSOR_OR_NUMBER)
from ..inplace import promoting
from ..methods import inplace_method
from .elementwise import _operator


def _compare(fn, name, kernel, x, other):
    """``fn(x, other)`` as a bool tensor. A number may only come second; complex
    operands can't be ordered (``kernel`` names PyTorch's refusing kernel, or None)."""
    if not is_tensor(x):
        raise invalid_arguments(name, (x, other), *TENSOR_OR_NUMBER)
    try:
        other = operand(other)
    except NotAnOperand:  # still one to the operators (``x < [1]``: Python's TypeError)
        if _argparse.called_as_method():
            raise NotAnOperand(str(invalid_arguments(name, (other,), "Tensor other", "Number other"))) from None
        raise NotAnOperand(str(invalid_arguments(name, (x, other), *TENSOR_OR_NUMBER))) from None
    if kernel is not None and (_is_complex(x) or _is_complex(other)):
        raise not_implemented_for(kernel, promoted((x, other)))
    if (_is_complex(x) or _is_complex(other)) and promoted((x, other)) is _dtype.COMPLEX_HALF:
        x, other = _as_complex32(x), _as_complex32(other)
    if is_tensor(other):
        if x._data.dtype != other._data.dtype:  # compared in the promoted dtype (uint8 == int8 -1 at 255)
            dtype = _dtype.result_dtype((x, other)).np
            return plain(lambda a, b: fn(a.astype(dtype, copy=False), b.astype(dtype, copy=False)), (x, other))
        return plain(fn, (x, other))
    return plain(fn, (x,), _scalar_operand(x, other)[0])


def _as_complex32(value):
    """``value`` as PyTorch's complex32 holds it (each part rounded to float16), in a
    complex64 tensor: comparisons (which PyTorch has for complex32) are then exact."""
    data = np.asarray(value._data if is_tensor(value) else value)
    parts = data.real.astype(np.float16), data.imag.astype(np.float16)
    return _wrap((parts[0] + 1j * parts[1].astype(np.float32)).astype(np.complex64))


def eq(x, other):
    return _compare(np.equal, "eq", None, x, other)


def ne(x, other):
    return _compare(np.not_equal, "ne", None, x, other)


def not_equal(x, other):
    return _compare(np.not_equal, "not_equal", None, x, other)


def lt(x, other):
    return _compare(np.less, "lt", "lt_cpu", x, other)


def less(x, other):
    return _compare(np.less, "less", "lt_cpu", x, other)


def le(x, other):
    return _compare(np.less_equal, "le", "le_cpu", x, other)


def less_equal(x, other):
    return _compare(np.less_equal, "less_equal", "le_cpu", x, other)


def gt(x, other):
    return _compare(np.greater, "gt", "gt_cpu", x, other)


def greater(x, other):
    return _compare(np.greater, "greater", "gt_cpu", x, other)


def ge(x, other):
    return _compare(np.greater_equal, "ge", "ge_cpu", x, other)


def greater_equal(x, other):
    return _compare(np.greater_equal, "greater_equal", "ge_cpu", x, other)


# --- logic: any dtype in, bool out ------------------------------------------------------------


def logical_not(x):
    return plain(np.logical_not, (x,))


# --- bitwise ops: bool and integer tensors ------------------------------------------------------


def _bitwise(fn, kernel, x, other):
    x, other, dtype = common_operands(x, other, kernel=kernel)
    if dtype.kind not in "biu":
        raise not_implemented_for(kernel, dtype)
    return plain(fn, (x, other), dtype=dtype)


def bitwise_and(x, other):
    return _bitwise(np.bitwise_and, "bitwise_and_cpu", x, other)


def bitwise_or(x, other):
    return _bitwise(np.bitwise_or, "bitwise_or_cpu", x, other)


def bitwise_xor(x, other):
    return _bitwise(np.bitwise_xor, "bitwise_xor_cpu", x, other)


def bitwise_not(x):
    if x._data.dtype.kind not in "biu":
        raise not_implemented_for("bitwise_not_cpu", x._data.dtype)
    return plain(np.invert, (x,))




for _fn in (bitwise_and, bitwise_or, bitwise_xor):
    promoting(_fn)


# --- Tensor methods --------------------------------------------------------------------------


class _TensorMethods:
    # comparisons: their messages count arguments after self
    def eq(self, other):
        return eq(self, other)

    def ne(self, other):
        return ne(self, other)

    def lt(self, other):
        return lt(self, other)

    def le(self, other):
        return le(self, other)

    def gt(self, other):
        return gt(self, other)

    def ge(self, other):
        return ge(self, other)

    def __eq__(self, other):
        try:  # a list, None...: Python's identity comparison, as PyTorch's
            return eq(self, other)
        except NotAnOperand:  # PyTorch compares with an array (its other comparisons refuse one)
            return eq(self, as_tensor_like(other, self)) if isinstance(other, np.ndarray) else NotImplemented

    def __invert__(self):
        kind = self._data.dtype.kind
        if kind == "b":
            return logical_not(self)
        if kind not in "iu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return bitwise_not(self)


tensor_methods(_TensorMethods)
Tensor.__ne__ = _operator(ne)
Tensor.__lt__ = _operator(lt)
Tensor.__le__ = _operator(le)
Tensor.__gt__ = _operator(gt)
Tensor.__ge__ = _operator(ge)
Tensor.__and__ = Tensor.__rand__ = _operator(bitwise_and)
Tensor.__or__ = Tensor.__ror__ = _operator(bitwise_or)
Tensor.__xor__ = Tensor.__rxor__ = _operator(bitwise_xor)
Tensor.not_equal = not_equal
Tensor.less = less
Tensor.less_equal = less_equal
Tensor.greater = greater
Tensor.greater_equal = greater_equal
Tensor.logical_not = logical_not
Tensor.logical_not_ = inplace_method(logical_not, "logical_not_")
Tensor.bitwise_and = bitwise_and
Tensor.bitwise_and_ = Tensor.__iand__ = inplace_method(bitwise_and, "bitwise_and_")
Tensor.bitwise_or = bitwise_or
Tensor.bitwise_or_ = Tensor.__ior__ = inplace_method(bitwise_or, "bitwise_or_")
Tensor.bitwise_xor = bitwise_xor
Tensor.bitwise_xor_ = Tensor.__ixor__ = inplace_method(bitwise_xor, "bitwise_xor_")
Tensor.bitwise_not = bitwise_not
Tensor.bitwise_not_ = inplace_method(bitwise_not, "bitwise_not_")
