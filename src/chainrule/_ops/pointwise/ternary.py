"""Pointwise maths of three tensors: lerp (start + weight (end - start), PyTorch's two-sided
formula), addcmul and addcdiv (x + value * t1 * t2, x + value * t1 / t2).
"""
import math

import numpy as np

from ..._core.arguments import NotAnOperand, operand
from ..._core.tensor import _C_TYPE_NAMES, Tensor, is_tensor
from .elementwise import _opmath
from ..operands import _conj, common_operands, invalid_arguments, not_implemented_for
from ..methods import inplace_method
from ..batching import elementwise
from ..registry import FROM_VJP, apply, defop, into
from ..inplace import BROADCASTING, KERNEL_AFTER_SHAPE
from ..operands import tensor_method
from .binary import _real_kernel, _tensors


def _lerp(start, end, weight):
    # PyTorch's two-sided formula: exactly start at weight 0 and exactly end at weight 1
    diff = end - start
    return np.where(np.abs(weight) < 0.5, start + weight * diff, end - diff * (1 - weight))


LERP_SCALAR = defop("lerp_scalar", _opmath(_lerp), batch=elementwise, node="LerpBackward0", save=lambda ans, start, end, w: (w,),
                    vjp=(lambda g, w: g * _conj(1 - w), lambda g, w: g * _conj(w)),
                    jvp=(lambda t, w: t * (1 - w), lambda t, w: t * w))

LERP = defop("lerp", _opmath(_lerp), batch=elementwise, node="LerpBackward1", save=lambda ans, start, end, w: (start, end, w),
             vjp=(lambda g, start, end, w: g * (1 - w).conj(), lambda g, start, end, w: g * w.conj(),
                  lambda g, start, end, w: g * (end - start).conj()),
             jvp=FROM_VJP)


def _same_dtype(x, name, other):
    if other.dtype is not x.dtype:
        raise RuntimeError(f"expected dtype {_C_TYPE_NAMES[x._data.dtype.name]} for `{name}` but got dtype "
                           f"{_C_TYPE_NAMES[other._data.dtype.name]}")


def _number_fits(value, dtype):
    """``value`` as PyTorch converts it to the type its kernel computes in (float32 for
    float16), with its overflow check: a complex number fits a real type only without an
    imaginary part, a finite float only within the type's range."""
    computed = np.dtype(np.float32) if dtype.char == "e" else dtype
    error = RuntimeError(f"value cannot be converted to type {_C_TYPE_NAMES[computed.name]} without overflow")
    if value.__class__ is complex and dtype.kind != "c":
        if value.imag != 0:
            raise error
        value = value.real
    if dtype.kind in "fc" and value.__class__ in (float, complex) and abs(value) != math.inf \
            and abs(value) > np.finfo(computed).max:
        raise error
    return value


def lerp(x, end, weight, *, out=None):
    """``x + weight * (end - x)``; weight a number or a tensor (of x's dtype, unless 0-d)."""
    if out is not None:
        return into(out, lerp, x, end, weight)
    try:
        weight, known = operand(weight), True
    except NotAnOperand:
        known = False
    if not known or not is_tensor(x) or not is_tensor(end):
        raise invalid_arguments("lerp", (x, end, weight), "Tensor input, Tensor end, Tensor weight, *, "
                                "Tensor out = None", "Tensor input, Tensor end, Number weight, *, Tensor out = None")
    _same_dtype(x, "end", end)
    if is_tensor(weight):
        if weight._data.ndim:  # a 0-d weight is promoted with the others instead
            _same_dtype(x, "weight", weight)
        x, end, weight, dtype = common_operands(x, end, weight, kernel="lerp_kernel_tensor")
        _real_kernel("lerp_kernel_tensor", dtype, "fc")
        return apply(LERP, (x, end, weight), (), dtype)
    _real_kernel("lerp_kernel_scalar", x._data.dtype, "fc")
    weight = _number_fits(weight, x._data.dtype)
    return apply(LERP_SCALAR, (x, end), (weight,), x._data.dtype)


def _pointwise_value(name, x, tensor1, tensor2, value):
    """addcmul's and addcdiv's operands in the result dtype, and ``value`` as PyTorch
    fits it into that dtype (truncated for integers)."""
    _tensors(name, ("input", x), ("tensor1", tensor1), ("tensor2", tensor2))
    x, tensor1, tensor2, dtype = common_operands(x, tensor1, tensor2)
    value = _number_fits(value, dtype)
    if dtype.kind in "iu":
        value = int(value)
    return x, tensor1, tensor2, dtype, value


ADDCMUL = defop("addcmul", _opmath(lambda x, t1, t2, value: x + value * t1 * t2), batch=elementwise, node="AddcmulBackward0",
                save=lambda ans, x, t1, t2, value: (t1, t2, value),
                vjp=(lambda g, t1, t2, value: g, lambda g, t1, t2, value: g * (t2 * value).conj(),
                     lambda g, t1, t2, value: g * (t1 * value).conj()),
                jvp=FROM_VJP)


def addcmul(x, tensor1, tensor2, *, value=1, out=None):
    """``x + value * tensor1 * tensor2``."""
    if out is not None:
        return into(out, addcmul, x, tensor1, tensor2, value=value)
    x, tensor1, tensor2, dtype, value = _pointwise_value("addcmul", x, tensor1, tensor2, value)
    if dtype.kind == "b":
        raise not_implemented_for("addcmul_cpu_out", dtype)
    return apply(ADDCMUL, (x, tensor1, tensor2), (value,), dtype)


ADDCDIV = defop("addcdiv", _opmath(lambda x, t1, t2, value: x + value * t1 / t2), batch=elementwise, node="AddcdivBackward0",
                save=lambda ans, x, t1, t2, value: (t1, t2, value),
                vjp=(lambda g, t1, t2, value: g, lambda g, t1, t2, value: g * (value / t2).conj(),
                     lambda g, t1, t2, value: -g * (value * t1 / (t2 * t2)).conj()),
                jvp=FROM_VJP)

_INTEGER_ADDCDIV = (
    "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
    "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
    "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
    "for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
    "tensor2), for all dtypes.")


def addcdiv(x, tensor1, tensor2, *, value=1, out=None):
    """``x + value * tensor1 / tensor2``: a true division, so not for two integer tensors."""
    if out is not None:
        return into(out, addcdiv, x, tensor1, tensor2, value=value)
    _tensors("addcdiv", ("input", x), ("tensor1", tensor1), ("tensor2", tensor2))
    if tensor1._data.dtype.kind in "biu" and tensor2._data.dtype.kind in "biu":
        raise RuntimeError(_INTEGER_ADDCDIV)
    x, tensor1, tensor2, dtype, value = _pointwise_value("addcdiv", x, tensor1, tensor2, value)
    return apply(ADDCDIV, (x, tensor1, tensor2), (value,), dtype)


# --- Tensor methods --------------------------------------------------------------------------

BROADCASTING.add(addcmul)  # a TensorIterator op: the shape first
KERNEL_AFTER_SHAPE.add(lerp)  # its dtype checks of end and weight, then the shape, then the kernel

Tensor.lerp = lerp
Tensor.lerp_ = inplace_method(lerp, "lerp_")
Tensor.addcmul_ = inplace_method(addcmul, "addcmul_")
Tensor.addcdiv_ = inplace_method(addcdiv, "addcdiv_")
Tensor.addcmul = tensor_method(addcmul, "addcmul", "tensor1", "tensor2")
Tensor.addcdiv = tensor_method(addcdiv, "addcdiv", "tensor1", "tensor2")
