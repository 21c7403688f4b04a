"""Elementwise ops: arithmetic, complex parts, whole-tensor writes, selection, comparisons, logic.

Their operands are brought to the result dtype by ``operands`` (promotion, casts, numbers).

Each entry is ``defop(name, forward, node=..., save=..., vjp=..., jvp=...)``; see
``registry``. A binary op has one rule per input. Broadcasting is undone by the engine,
so ``add``'s rules are just ``g``.

Ops with a Python-number operand (``x * 2.0``) have entries of their own that keep the
number as a parameter: backward then computes no gradient for it at all.

Comparisons, logic and bitwise ops give plain results (bool or integer tensors that
never require grad). The few ops that PyTorch records without a derivative
(``floor_divide``, ``x % y`` with a number ``x``) get a node whose backward raises, as
PyTorch's ``torch::autograd::NotImplemented`` does.
"""
import warnings

import numpy as np

from ... import _argparse, _dtype, _exact
from ..._argparse import NUMBERS, NotAnOperand, operand
from ..._tensor import Tensor, _wrap, device as _device, is_tensor, tensor_methods, to_arguments
from ..operands import (as_tensor_like, cast, clone, common_operands, _complex32_refused, _conj, _float_result,
                       invalid_arguments, _is_complex, _no_derivative, not_implemented_for, plain, promoted,
                       _scalar_operand, _scalar_result, TENSOR_OR_NUMBER, _tensor_result, type_name,
                       without_derivative)
from ..batching import dynamic_shape_error, elementwise, has_values
from ..inplace import BROADCASTING, INTEGER_VALUES_ONLY, apply_inplace, promoting
from ..methods import inplace_method
from ..registry import FROM_VJP, apply, binary, defop, found_dtype, into, not_a_tensor, unary


def zeros_like(t):
    if not has_values(t._data):  # a batched t under vmap: zeros of its batch
        return unary(ZERO, t.detach())
    return _wrap(np.zeros_like(t._data))


# --- arithmetic ---------------------------------------------------------------------

def _plus(a, b, alpha):
    """``a + alpha * b`` for a complex result, as PyTorch adds: alpha * b is a complex
    product, so an inf or nan part of b spreads to both parts (``1 + complex(inf, 0)`` is
    ``inf + nanj``). Real results are ``a + b`` or ``a - b`` exactly, so the forwards
    below only come here for complex operands."""
    dtype = np.result_type(a, b)
    with np.errstate(invalid="ignore"):
        return a + np.asarray(b, dtype) * dtype.type(alpha)


def _add(a, b):
    return _plus(a, b, 1) if a.dtype.kind == "c" or b.dtype.kind == "c" else a + b


def _add_number(a, s):
    return _plus(a, s, 1) if a.dtype.kind == "c" or s.__class__ is complex else a + s


def _subtract(a, b):
    return _plus(a, b, -1) if a.dtype.kind == "c" or b.dtype.kind == "c" else a - b


def _subtract_number(a, s):
    return _plus(a, s, -1) if a.dtype.kind == "c" or s.__class__ is complex else a - s


ADD = defop("add", _add, batch=elementwise, node="AddBackward0",
            vjp=(lambda g: g, lambda g: g),
            jvp=FROM_VJP)

ADD_SCALAR = defop("add_scalar", _add_number, node="AddBackward0",
                   vjp=lambda g: g, jvp=FROM_VJP, elementwise=True, number_operand=True)


def add(x, other, *, alpha=1, out=None):
    if out is not None:
        return into(out, add, x, other, alpha=alpha)
    if alpha != 1 or alpha.__class__ is not int:
        return _add_scaled(x, other, alpha)
    if other.__class__ in NUMBERS:
        try:
            other, dtype = _scalar_operand(x, other)
        except AttributeError:  # torch.add(2, 3): a number as input is a 0-d tensor
            return add(_argparse.number_input(x), other)
        return unary(ADD_SCALAR, x, (other,), dtype)
    if not isinstance(x, Tensor):  # number + tensor
        if not isinstance(other, Tensor) or not (x.__class__ in NUMBERS or isinstance(x, np.generic)):
            return add(_argparse.number_input(x), other)
        x, other = other, operand(x)
    other = operand(other)
    if not isinstance(other, Tensor):
        other, dtype = _scalar_operand(x, other)
        return unary(ADD_SCALAR, x, (other,), dtype)
    return binary(ADD, x, other, _tensor_result(x, other))


def _times_alpha(a, b, alpha):
    if a.dtype.kind == "c" or b.dtype.kind == "c":
        return _plus(a, b, alpha)
    if b.dtype != a.dtype and b.dtype.kind in "iu":  # alpha * b in the result's type: uint8 2 * 255 is 510
        b = b.astype(np.result_type(a, b))
    return a + b * alpha


# add with alpha: PyTorch's one node for x + alpha * other
ADD_ALPHA = defop("add_alpha", _times_alpha, batch=elementwise, node="AddBackward0", save=lambda ans, x, y, alpha: (alpha,),
                  vjp=(lambda g, alpha: g, lambda g, alpha: g * _conj(alpha)),
                  jvp=(lambda t, alpha: t, lambda t, alpha: t * alpha))


def _add_scaled(x, other, alpha):
    """``x + alpha * other``, after PyTorch's checks of alpha against the result dtype
    (bool only for bool, no float for integers, no complex for reals) and its conversion
    to that dtype (with an overflow check; any nonzero alpha is True for bool)."""
    other = operand(other)
    if alpha.__class__ is int:  # what a Scalar can't hold: OverflowError, first
        _dtype.scalar_int(alpha)
    if not is_tensor(x):  # number + alpha * tensor
        return add(x, _scaled(x, other, alpha))
    dtype = _dtype.result_dtype((x, other)).np
    alpha = _checked_alpha(alpha, dtype)
    if not is_tensor(other):  # the numbers' product
        return add(x, (other and alpha) if dtype.kind == "b" else other * alpha)
    return apply(ADD_ALPHA, (x, other), (alpha,), dtype)


def _checked_alpha(alpha, dtype):
    """PyTorch's checks of alpha against the result dtype, and alpha converted to it."""
    if alpha.__class__ is bool and dtype.kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if dtype.kind in "biu" and alpha.__class__ in (float, complex):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if dtype.kind != "c" and alpha.__class__ is complex:
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")
    return bool(alpha) if dtype.kind == "b" else _dtype.checked_scalar(alpha, dtype)


def _scaled(x, other, alpha):
    """``alpha * other`` for ``number + alpha * tensor``: alpha converted to the result
    dtype with an overflow check."""
    dtype = _dtype.result_dtype((x, other)).np
    if dtype.kind in "biu" and alpha.__class__ is float:
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    return other * _dtype.checked_scalar(alpha, dtype)


SUB = defop("sub", _subtract, batch=elementwise, node="SubBackward0",
            vjp=(lambda g: g, lambda g: -g),
            jvp=FROM_VJP)

SUB_SCALAR = defop("sub_scalar", _subtract_number, node="SubBackward0",
                   vjp=lambda g: g, jvp=FROM_VJP, elementwise=True, number_operand=True)

RSUB_SCALAR = defop("rsub_scalar", lambda x, s: _subtract(np.asarray(s, np.result_type(x, s)), x),
                    node="RsubBackward1",
                    vjp=lambda g: -g, jvp=FROM_VJP, elementwise=True)


def _no_bool_subtraction(x, other):
    # a Python bool counts as a bool tensor here (``True - mask``)
    if all(v.__class__ is bool or (is_tensor(v) and v._data.dtype.kind == "b") for v in (x, other)):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                       "If you are trying to invert a mask, use the `~` or `logical_not()` "
                       "operator instead.")


def _check_subtraction(x, other):
    # a Python bool counts as a bool tensor (``x - True`` is refused too)
    if other.__class__ is bool or x._data.dtype.kind == "b" or (is_tensor(other) and other._data.dtype.kind == "b"):
        _no_bool_subtraction(x, other)


def sub(x, other, *, alpha=1, out=None):
    if out is not None:
        return into(out, sub, x, other, alpha=alpha)
    if not isinstance(x, Tensor):  # torch.sub(2, y): a number as input is a 0-d tensor
        x = _argparse.number_input(x)
    other = operand(other)
    if alpha.__class__ is int:
        _dtype.scalar_int(alpha)
    _check_subtraction(x, other)
    if alpha != 1 or alpha.__class__ is not int:  # PyTorch's sub is add with -alpha: checked so
        dtype = _dtype.result_dtype((x, other)).np
        minus = _checked_alpha(-alpha if alpha.__class__ is not bool else alpha, dtype)
        if is_tensor(other) and other._data.dtype.kind in "iu" and other._data.dtype != dtype:
            # alpha * other in the result's type: uint8 2 * 255 is 510
            other = other.to(_dtype.from_numpy_dtype(dtype))
        other = other * -minus
    if is_tensor(other):
        return binary(SUB, x, other, _tensor_result(x, other))
    other, dtype = _scalar_operand(x, other)
    return unary(SUB_SCALAR, x, (other,), dtype)


def rsub(input, other, *, alpha=1):
    """``torch.rsub``: ``other - alpha * input`` (``number - tensor`` too)."""
    if not isinstance(input, Tensor):
        raise _argparse.invalid_combination("rsub", (input, other), {"alpha": alpha} if alpha != 1 else {},
                                            "Tensor input, Tensor other, *, Number alpha = 1",
                                            "Tensor input, Number other, Number alpha = 1")
    x = input
    if other.__class__ not in NUMBERS:
        other = operand(other)  # a NumPy scalar is a number
        if is_tensor(other):
            return sub(other, x, alpha=alpha)
    if alpha != 1 or alpha.__class__ is not int:
        x = mul(x, _checked_alpha(alpha, _scalar_operand(x, other)[1] or x._data.dtype))
    if x._data.dtype.kind == "b" or other.__class__ is bool:
        _no_bool_subtraction(other, x)
    other, dtype = _scalar_operand(x, other)
    return unary(RSUB_SCALAR, x, (other,), dtype)


def complex_product(z, w):
    """``z * w`` as PyTorch's complex multiply (c10::complex, and its vectorised loop): each
    part's two products rounded on their own, then added. NumPy's complex loops fuse one
    product into the other's sum (FMA): a * b - b * a was not 0, and an overflowing product
    gave -inf where PyTorch's inf - inf is nan."""
    z, w = np.broadcast_arrays(z, w)
    out = np.empty(z.shape, np.result_type(z, w))
    out.real, out.imag = z.real * w.real - z.imag * w.imag, z.real * w.imag + z.imag * w.real
    return out


def fused_complex_product(z, w):
    """``z * w`` as PyTorch's element-by-element kernels compile c10::complex's product, with
    floating-point contraction: real = fma(a, c, -(b d)), imag = fma(a, d, b c). At |z| = 9e29
    in complex64, z * z is -inf - inf j here, nan - inf j unfused."""
    z, w = np.broadcast_arrays(z, w)
    out = np.empty(z.shape, np.result_type(z, w))
    fma, part = (_exact.fma32, np.float32) if out.dtype == np.complex64 else (_exact.fma64, np.float64)
    with np.errstate(all="ignore"):
        out.real = fma(z.real, w.real, -(z.imag * w.imag).astype(part))
        out.imag = fma(z.real, w.imag, (z.imag * w.real).astype(part))
    return out


def _multiply(x, y):
    if x.dtype.kind == "c" or y.dtype.kind == "c":
        with np.errstate(all="ignore"):  # (inf - inf is nan here, as in PyTorch)
            return complex_product(x, y)
    return np.multiply(x, y)


MUL = defop("mul", _multiply, batch=elementwise, node="MulBackward0",
            save=lambda ans, x, y: (x, y),
            vjp=(lambda g, x, y: g * y.conj(), lambda g, x, y: g * x.conj()),
            jvp=(lambda t, x, y: t * y, lambda t, x, y: x * t))

def _opmath(fn):
    """``fn`` as PyTorch computes float16 in mul and div by a number, addcmul, addcdiv and
    lerp: in float32 (a Python number as a float32 too: ``x * 1e5`` is 100. for x = 1e-3,
    not inf), rounded to float16 once."""
    def forward(x, *args):
        if x.dtype.char == "e":
            args = [a.astype(np.float32) if a.__class__ is np.ndarray and a.dtype.char == "e" else a for a in args]
            return fn(x.astype(np.float32), *args).astype(np.float16)
        return fn(x, *args)
    forward.__name__ = getattr(fn, "__name__", "forward")
    return forward


MUL_SCALAR = defop("mul_scalar", _opmath(np.multiply), node="MulBackward0",
                   save=lambda ans, x, s: (s,),
                   vjp=lambda g, s: g * _conj(s), jvp=lambda t, s: t * s, elementwise=True,
                   number_operand=True)


def mul(x, other, *, out=None):
    if out is not None:
        return into(out, mul, x, other)
    if other.__class__ in NUMBERS:
        try:
            other, dtype = _scalar_operand(x, other)
        except AttributeError:  # torch.mul(2, 3): a number as input is a 0-d tensor
            return mul(_argparse.number_input(x), other)
        return unary(MUL_SCALAR, x, (other,), dtype)
    if not isinstance(x, Tensor):  # number * tensor
        if not isinstance(other, Tensor) or not (x.__class__ in NUMBERS or isinstance(x, np.generic)):
            return mul(_argparse.number_input(x), other)
        x, other = other, operand(x)
    other = operand(other)
    if not isinstance(other, Tensor):
        other, dtype = _scalar_operand(x, other)
        return unary(MUL_SCALAR, x, (other,), dtype)
    return binary(MUL, x, other, _tensor_result(x, other))


DIV = defop("div", np.true_divide, batch=elementwise, node="DivBackward0",
            save=lambda ans, x, y: (x, y),
            vjp=(lambda g, x, y: g / y.conj(), lambda g, x, y: -g * ((x / y) / y).conj()),  # PyTorch's order
            jvp=(lambda t, x, y: t / y, lambda t, x, y: -t * x / (y * y)),
            # PyTorch's (tx - ty x / y) / y: at y = 0 one infinity, not inf - inf
            joint_jvp=lambda tangents, x, y: (tangents[0] - tangents[1] * (x / y)) / y)

DIV_SCALAR = defop("div_scalar", _opmath(np.true_divide), node="DivBackward0",
                   save=lambda ans, x, s: (s,),
                   vjp=lambda g, s: g / _conj(s), jvp=lambda t, s: t / s, elementwise=True,
                   number_operand=True)


def div(x, other, *, rounding_mode=None, out=None):
    if out is not None:
        return into(out, div, x, other, rounding_mode=rounding_mode)
    if rounding_mode is not None:
        return _rounded_div(x, other, rounding_mode)
    if not is_tensor(x):
        if not is_tensor(other):  # torch.div(2, 3): a number as input is a 0-d tensor
            return div(_argparse.number_input(x), other)
        return rdiv(other, x)
    other = operand(other)
    if is_tensor(other):
        out_dtype = _complex32_refused("div_cpu", x, other) or _tensor_result(x, other)
        if (out_dtype or x._data.dtype).kind not in "fc":
            out_dtype = _dtype.get_default_dtype().np
        return binary(DIV, x, other, out_dtype)
    if x._data.dtype.kind in "fc":
        if other.__class__ is complex and x._data.dtype.char == "e":  # no complex32 kernel
            raise not_implemented_for("div_cpu", _dtype.COMPLEX_HALF)
        other, out_dtype = _scalar_operand(x, other)
        return unary(DIV_SCALAR, x, (other,), out_dtype)
    # an integer x is divided in floating point: the number does not wrap
    if other.__class__ is int:
        _scalar_operand(x, other)  # PyTorch's refusals of it: a uint64 with bool
        other = float(other)
    return unary(DIV_SCALAR, x, (other,), _scalar_result(x, other) or _float_result(x))


def rdiv(x, other):
    """``other / x`` for a Python number: ``reciprocal(x) * other``, as PyTorch records it."""
    if other.__class__ not in NUMBERS and is_tensor(operand(other)):
        return div(operand(other), x)
    return mul(x.reciprocal(), other)


def _rounded_quotient(a, b, mode):
    """x / y rounded down (``floor``) or towards zero (``trunc``), as PyTorch rounds:
    exact for integers, Python's ``//`` for floats."""
    if a.dtype.kind in "iu":  # both integers: the callers cast to the result dtype
        if a.size and not np.all(b):  # an empty result divides nothing (b is not empty)
            raise RuntimeError("ZeroDivisionError")
        with np.errstate(over="ignore"):  # the minimum // -1 wraps to itself, as PyTorch's floor, silently
            quotient = np.floor_divide(a, b)
        return quotient if mode == "floor" else quotient + ((quotient < 0) & (quotient * b != a))
    if mode == "floor":
        return np.floor_divide(a, b)
    return np.trunc(np.true_divide(a, b))


# piecewise constant: PyTorch's gradient is zero for both inputs (materialised zeros)
DIV_ROUNDED = defop("div_rounded", _rounded_quotient, batch=elementwise, node="DivBackward2",
                    vjp=(lambda g: zeros_like(g), lambda g: zeros_like(g)),
                    jvp=FROM_VJP)


def _rounded_operands(x, other, mode):
    if mode not in ("trunc", "floor"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{mode}'")
    x, other, dtype = common_operands(x, other, kernel=f"div_{mode}_cpu")
    if dtype.kind in "bc":
        raise not_implemented_for(f"div_{mode}_cpu", dtype)
    return x, other, dtype


def _rounded_div(x, other, mode):
    """``div(x, other, rounding_mode=mode)``."""
    x, other, dtype = _rounded_operands(x, other, mode)
    return apply(DIV_ROUNDED, (x, other), (mode,), dtype)


FLOOR_DIVIDE = _no_derivative("floor_divide")


def floor_divide(x, other):
    """``x // other``: ``div(x, other, rounding_mode='floor')``, except that PyTorch has no
    derivative for it: backward through it raises."""
    x, other, dtype = _rounded_operands(x, other, "floor")
    out = plain(_rounded_quotient, (x, other), "floor", dtype=dtype)
    return without_derivative(FLOOR_DIVIDE, out, (x, other))


def _remainder(a, b):
    """Python's ``%``: the sign of the divisor (PyTorch's remainder). For floats PyTorch's
    formula: fmod, plus b where its sign differs from b's; a zero keeps fmod's sign, the
    sign of a (``-0. % 2.5`` is -0., ``0. % -2.`` is 0., where NumPy takes b's sign)."""
    if a.dtype.kind in "iu":
        if a.size and not np.all(b):  # an empty result divides nothing (b is not empty)
            raise RuntimeError("ZeroDivisionError")
        return np.remainder(a, b)
    with np.errstate(invalid="ignore"):
        mod = np.fmod(a, b)
        return np.where((mod != 0) & ((b < 0) != (mod < 0)), mod + b, mod)


# x - floor(x / y) * y: slope 1 in x, -floor(x / y) in y
REMAINDER = defop("remainder", _remainder, batch=elementwise, node="RemainderBackward1",
                  save=lambda ans, x, y: (x, y),
                  vjp=(lambda g, x, y: g, lambda g, x, y: -g * div(x, y, rounding_mode="floor")),
                  jvp=FROM_VJP)

REMAINDER_SCALAR = defop("remainder_scalar", _remainder, node="RemainderBackward0",
                         vjp=lambda g: g, jvp=FROM_VJP, elementwise=True, number_operand=True)

RREMAINDER = _no_derivative("remainder")  # a number % a tensor


_REMAINDER_SIGNATURES = ("Tensor input, Tensor other, *, Tensor out = None", "Number self, Tensor other",
                         "Tensor input, Number other, *, Tensor out = None")


def remainder(x, other, *, out=None):
    """``x % other`` with the sign of ``other``, as Python's ``%``."""
    if out is not None:
        return into(out, remainder, x, other)
    try:
        number = other if is_tensor(x) and not is_tensor(operand(other)) else None
        x_t, other_t, dtype = common_operands(x, other, kernel="remainder_cpu")
    except NotAnOperand:  # still an operand error: ``x % None`` is Python's TypeError
        raise NotAnOperand(str(invalid_arguments("remainder", (x, other), *_REMAINDER_SIGNATURES))) from None
    if dtype.kind in "bc":
        raise not_implemented_for("remainder_cpu", dtype)
    if number is not None:
        return unary(REMAINDER_SCALAR, x_t, (other_t._data.item(),), dtype)
    if is_tensor(x):
        return apply(REMAINDER, (x_t, other_t), (), dtype)
    out = plain(_remainder, (x_t, other_t), dtype=dtype)
    return without_derivative(RREMAINDER, out, (other_t,))


def _pow_derivative(x, p):
    """d(x^p)/dx for a number p (the p == 0 case is zero, handled by the rule)."""
    return p * x ** (p - 1)


def _power(a, b):
    """``a ** b`` as PyTorch computes it: complex powers by ``_complex_power``, integers by
    ``_integer_power``, a number exponent with PyTorch's shortcuts (``_number_power``)."""
    if b.__class__ is np.ndarray:
        if a.dtype.kind == "c" or b.dtype.kind == "c":
            return _complex_power(a, b)
        return _float_power(a, b) if a.dtype.kind == "f" or b.dtype.kind == "f" else _integer_power(a, b)
    if a.dtype.kind in "fc" or b.__class__ in (float, complex):
        return _number_power(a, b)
    return _integer_power(a, b)


def _float_power(a, b):
    """C's pow: NumPy takes sqrt for an exponent of 0.5 that broadcasts (a 0-d exponent),
    where pow(-0., 0.5) is 0. and pow(-inf, 0.5) is inf."""
    out = np.asarray(a ** b)
    half = b == 0.5
    if half.any():
        out = np.where(half & (a == 0), 0, np.where(half & (a == -np.inf), np.inf, out)).astype(out.dtype)
    return out


def _complex_power(a, b):
    """glibc's cpow, which PyTorch's complex pow calls: ``exp(b * log(a))``, with no
    shortcut for integral or zero exponents (``0 ** 0j`` is nan, ``(-3+0j) ** 3`` has a
    tiny imaginary part), where NumPy multiplies and answers 1."""
    dtype = np.result_type(a, b)
    with np.errstate(all="ignore"):
        return np.exp(_c_multiply(b.astype(dtype, copy=False), np.log(a.astype(dtype, copy=False))))


def _c_multiply(z, w):
    """C's complex ``z * w`` (C99 Annex G, as gcc's __muldc3): where the plain product is
    nan in both parts but a factor or a partial product is infinite, the answer is an
    infinity, so ``(-3.4+0j) * (inf+nanj)`` is -inf+nanj (NumPy: nan+nanj). The parts are
    multiplied and added one by one, as there: NumPy's complex multiply fuses them (FMA)."""
    z, w = np.broadcast_arrays(z, w)
    out = complex_product(z, w)
    lost = np.isnan(out.real) & np.isnan(out.imag)
    if not lost.any():
        return out
    a, b, c, d = (part[lost] for part in (z.real, z.imag, w.real, w.imag))
    products_overflow = np.isinf(a * c) | np.isinf(b * d) | np.isinf(a * d) | np.isinf(b * c)

    def box(x, y, other_x, other_y, where):
        # an infinite factor becomes a unit of its signs, nan in the other factor a signed 0
        return (np.where(where, np.copysign(np.isinf(x), x), x), np.where(where, np.copysign(np.isinf(y), y), y),
                np.where(where & np.isnan(other_x), np.copysign(0, other_x), other_x),
                np.where(where & np.isnan(other_y), np.copysign(0, other_y), other_y))

    z_infinite = np.isinf(a) | np.isinf(b)
    a, b, c, d = box(a, b, c, d, z_infinite)
    w_infinite = np.isinf(c) | np.isinf(d)
    c, d, a, b = box(c, d, a, b, w_infinite)
    overflow_only = products_overflow & ~z_infinite & ~w_infinite
    a, b, c, d = (np.where(overflow_only & np.isnan(v), np.copysign(0, v), v) for v in (a, b, c, d))
    recalc = z_infinite | w_infinite | overflow_only
    recalculated = np.empty(a.shape, out.dtype)
    recalculated.real, recalculated.imag = np.inf * (a * c - b * d), np.inf * (a * d + b * c)
    out[lost] = np.where(recalc, recalculated, out[lost])
    return out


def _number_power(a, p):
    """``a ** p`` for a Python number p, as PyTorch's pow_tensor_scalar: 0 and 1 fill and
    copy; 0.5, -0.5, -1, 2, 3, -2 are sqrt, rsqrt, reciprocal and products (not for
    float16: its kernel calls pow); the rest is pow (cpow for complex)."""
    if a.dtype.kind not in "fc":  # an integral base with a float exponent is computed in float
        a = a.astype(_dtype.default_complex_dtype().np if p.__class__ is complex else _dtype.get_default_dtype().np)
    elif p.__class__ is complex and a.dtype.kind == "f":
        a = a.astype(np.result_type(a, p))
    if p == 0:
        return np.ones_like(a)
    if p == 1:
        return a.copy()
    if a.dtype.char != "e":
        # complex: PyTorch's element-by-element kernel (chainrule's at every size; its
        # vectorised loop's products are unfused) squares with FMA, and multiplies the
        # square by x with FMA in complex128 but not in complex64
        square = (lambda x: fused_complex_product(x, x)) if a.dtype.kind == "c" else (lambda x: x * x)
        if p == 2:
            return square(a)
        if p == 0.5:
            return np.sqrt(a)
        if p == -0.5:
            return 1 / np.sqrt(a)
        if p == -1:
            return 1 / a
        if p == 3:
            if a.dtype.kind == "c":
                return (complex_product if a.dtype == np.complex64 else fused_complex_product)(square(a), a)
            return a * a * a
        if p == -2:
            return 1 / square(a)
    if a.dtype.kind == "c":
        return _complex_power(a, np.asarray(p, a.dtype))
    return np.power(a, p)  # not a ** p: NumPy's ** takes sqrt for 0.5, and sqrt(-0.) is -0., not pow's 0.


def _integer_power(a, b):
    """An integer to a negative integer power is the truncated quotient 1 / a**n in
    PyTorch (1 for 1, +-1 for -1, else 0, 0 included), where NumPy raises."""
    negative = np.less(b, 0)
    if not negative.any():
        return np.power(a, b)
    out = np.power(a, np.where(negative, 0, b))
    odd = np.remainder(b, 2) == 1
    inverse = np.where(np.equal(a, 1), 1, np.where(np.equal(a, -1), np.where(odd, -1, 1), 0))
    return np.where(negative, inverse, out).astype(out.dtype)


POW_SCALAR = defop(
    "pow_scalar", _power, node="PowBackward0",
    save=lambda ans, x, p: (x, p),
    vjp=lambda g, x, p: zeros_like(g) if p == 0 else g * _pow_derivative(x, p).conj(),
    jvp=FROM_VJP, elementwise=True)


def _nonnegative_real(y):
    if y._data.dtype.kind == "c":
        return (imag(y) == 0) & (real(y) >= 0)
    return y >= 0


def _pow_exponent_grad(g, x, y, ans):
    # d(x^y)/dy = x^y log x; PyTorch defines it as 0 where x == 0 and y >= 0 (at y < 0:
    # inf * log 0 = -inf), multiplying g last; log of x in the result's dtype (a float16 base
    # under a float32 exponent: log in float32)
    return g * where((x == 0) & _nonnegative_real(y), 0.0, (ans * x.to(ans.dtype).log()).conj())


POW = defop(
    "pow", _power, batch=elementwise, node="PowBackward1",
    save=lambda ans, x, y: (x, y, ans),
    vjp=(lambda g, x, y, ans: where(y == 0, 0.0, g * (y * x ** (y - 1)).conj()),
         lambda g, x, y, ans: _pow_exponent_grad(g, x, y, ans)),
    jvp=(lambda t, x, y, ans: where(y == 0, 0.0, t * y * x ** (y - 1)),
         lambda t, x, y, ans: _pow_exponent_grad(t, x, y, ans)))


def _rpow_slope(ans, base, x):
    """d(base^x)/dx = base^x log(base); for base 0, PyTorch's 0 where x >= 0, else
    inf * log 0 = -inf."""
    if base == 0:
        return where(_nonnegative_real(x), 0.0, ans * float("-inf"))
    return ans * (complex(np.log(base)) if base.__class__ is complex else float(np.log(base)))


def _number_to_power(x, base):
    """``base ** x`` as PyTorch's pow(Scalar, Tensor): ones for base 1, else the pow of the
    base as a tensor: cpow for complex (``_complex_power``), integer powers for integers."""
    if base == 1 and base.__class__ is not bool:  # PyTorch: a bool equals no number
        return np.ones(x.shape, np.result_type(x, base))
    if base.__class__ is complex or x.dtype.kind == "c":
        if x.dtype.kind in "fc":
            dtype = np.result_type(x, base)
        else:
            dtype = (_dtype.default_complex_dtype() if base.__class__ is complex else _dtype.get_default_dtype()).np
        return _complex_power(np.asarray(base, dtype), x.astype(dtype, copy=False))
    if base.__class__ in (int, bool) and x.dtype.kind in "iu":
        return _integer_power(np.asarray(base, x.dtype), x)
    return np.power(base, x)


RPOW_SCALAR = defop(
    "rpow_scalar", _number_to_power,
    node="PowBackward2",
    save=lambda ans, x, base: (ans, base, x if base == 0 else None),
    vjp=lambda g, ans, base, x: g * _rpow_slope(ans, base, x).conj(),
    jvp=FROM_VJP,
    elementwise=True)


def _no_bool_pow(dtype):
    if dtype is not None and dtype.kind == "b":
        raise not_implemented_for("pow", dtype)


def _check_integer_power(x, exponent):
    """PyTorch's checks of an int exponent for a bool or integer base, before promoting:
    it must be >= 0 and fit an int64."""
    if exponent.__class__ is int and x._data.dtype.kind in "biu":
        if exponent < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        if exponent >= 1 << 63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")


def pow(x, exponent, *, out=None):
    if out is not None:
        return into(out, pow, x, exponent)
    if not is_tensor(x):
        return rpow(exponent, x)
    exponent = operand(exponent)
    if is_tensor(exponent):
        dtype = _complex32_refused("pow", x, exponent) or _tensor_result(x, exponent)
        _no_bool_pow(dtype or x._data.dtype)
        return binary(POW, x, exponent, dtype)
    kind = x._data.dtype.kind
    if kind in "biu" and exponent.__class__ is int:
        _check_integer_power(x, exponent)
        if kind == "b":  # bool ** int is int64; NumPy's square would give int8
            return unary(POW_SCALAR, x, (exponent,), np.dtype(np.int64))
        exponent = _dtype.checked_scalar(exponent, x._data.dtype)
    elif x._data.dtype.char == "e" and exponent.__class__ in (int, float):  # converted to float16, checked
        exponent = _dtype.checked_scalar(exponent, x._data.dtype)
    elif x._data.dtype.char == "e" and exponent.__class__ is complex and exponent not in (0, 1):
        raise not_implemented_for("pow", _dtype.COMPLEX_HALF)  # PyTorch's kernel has no complex32
    if kind == "b" and exponent.__class__ is bool:
        return unary(POW_SCALAR, x, (exponent,), x._data.dtype)
    return unary(POW_SCALAR, x, (exponent,), _scalar_result(x, exponent))


def rpow(x, base):
    """``base ** x`` for a Python number ``base``."""
    if base.__class__ not in NUMBERS and is_tensor(operand(base)):
        return pow(operand(base), x)
    base = operand(base)
    if base.__class__ is complex and x._data.dtype.char == "e":  # no complex32 kernel
        raise not_implemented_for("pow", _dtype.COMPLEX_HALF)
    base, out_dtype = _scalar_operand(x, base)
    if x._data.dtype.kind == "b":
        if base.__class__ is bool:
            raise not_implemented_for("pow", x._data.dtype)
        if base.__class__ is int:
            out_dtype = np.dtype(np.int64)
    return unary(RPOW_SCALAR, x, (base,), out_dtype)


NEG = defop("neg", np.negative, node="NegBackward0", vjp=lambda g: -g, jvp=FROM_VJP,
elementwise=True)


def neg(x, *, out=None):
    if getattr(x, "_data", None) is None:
        raise not_a_tensor(x)
    if x._data.dtype.kind == "b":
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                           "are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    if out is not None:
        return into(out, neg, x, exact=found_dtype)
    return unary(NEG, x)


# --- complex parts ----------------------------------------------------------------------------

# PyTorch takes the parts of a complex tensor as views of view_as_real: SelectBackward0
REAL = defop("real", np.real, batch=elementwise, node="SelectBackward0",
             vjp=lambda g: g, jvp=lambda t: real(t), view=True)


def real(x):
    return unary(REAL, x) if x._data.dtype.kind == "c" else x


IMAG = defop("imag", np.imag, batch=elementwise, node="SelectBackward0",
             vjp=lambda g: g * 1j, jvp=lambda t: imag(t), view=True)


def imag(x):
    if x._data.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return unary(IMAG, x)


CONJ = defop("conj", np.conj, node="ConjBackward0",
             vjp=lambda g: g.conj(), jvp=lambda t: t.conj(), elementwise=True)


def conj(x):
    return unary(CONJ, x) if x._data.dtype.kind == "c" else x


# chainrule has no conjugate or negative bit: conj() and neg() compute, so there is nothing to
# resolve, and a tensor is never a lazy conjugate
def resolve_conj(input):
    return input


def resolve_neg(input):
    return input


def is_conj(input):
    return False


def is_neg(input):
    return False


# --- whole-tensor writes, used by the in-place forms zero_, fill_, copy_ ---------------------

ZERO = defop("zero", np.zeros_like, node="ZeroBackward0",
             vjp=lambda g: zeros_like(g), jvp=FROM_VJP, elementwise=True)


def zero(x):
    return unary(ZERO, x)


FILL = defop("fill", lambda x, value: np.full_like(x, value), node="FillBackward2",
             vjp=lambda g: zeros_like(g), jvp=FROM_VJP, elementwise=True)


# filling from a 0-d tensor: its gradient is the sum of the incoming one
FILL_TENSOR = defop("fill_tensor", lambda x, value: np.full_like(x, value), node="FillBackward3",
                    vjp=(lambda g: zeros_like(g), lambda g: g.sum()),
                    jvp=(lambda t: zeros_like(t), lambda t: t))


def fill(x, value):
    if is_tensor(value):
        if value._data.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._data.ndim} dimensions.")
        return binary(FILL_TENSOR, x, value, None)
    return unary(FILL, x, (_dtype.checked_scalar(value, x._data.dtype, check_half=False),))


COPY = defop("copy", lambda x, src: np.broadcast_to(src, x.shape).astype(x.dtype), batch=elementwise, node="torch::autograd::CopyBackwards",
             vjp=(lambda g: zeros_like(g), lambda g: g),
             jvp=FROM_VJP)


def copy(x, src):
    if not is_tensor(src):
        src = as_tensor_like(src, x)
    return binary(COPY, x, src)


# --- selection ---------------------------------------------------------------------------

WHERE = defop("where", np.where, batch=elementwise, node="WhereBackward0",
              save=lambda ans, cond, x, y: (cond,),
              vjp=(None, lambda g, cond: where(cond, g, 0.0), lambda g, cond: where(cond, 0.0, g)),
              jvp=(None, lambda t, cond: where(cond, t, 0.0), lambda t, cond: where(cond, 0.0, t)))


def where(condition, x=None, y=None):
    """``where(cond, x, y)``: x where cond holds, else y. Numbers stay weakly typed."""
    try:
        condition_kind = condition._data.dtype.kind
    except AttributeError:
        if isinstance(condition, Tensor):
            raise
        if x is None and y is None:
            raise _argparse.not_tensor("where", condition, "condition") from None
        raise _where_arguments(condition, x, y) from None
    if x is None and y is None:
        if not has_values(condition._data):
            raise dynamic_shape_error("nonzero")
        return tuple(_wrap(i) for i in np.nonzero(np.atleast_1d(condition._data)))  # 0-d: one element
    try:
        out_dtype = _dtype.result_dtype((x, y)).np
    except (AttributeError, TypeError):  # a NumPy scalar is a number; else neither a tensor nor a number
        if isinstance(x, np.generic) or isinstance(y, np.generic):
            return where(condition, x.item() if isinstance(x, np.generic) else x,
                         y.item() if isinstance(y, np.generic) else y)
        raise _where_arguments(condition, x, y) from None
    if x.__class__ in NUMBERS:  # fitted into the result dtype with PyTorch's overflow check
        x = _dtype.checked_scalar(x, out_dtype, check_half=False)
    if y.__class__ in NUMBERS:
        y = _dtype.checked_scalar(y, out_dtype, check_half=False)
    # a number becomes a 0-d array of the result's dtype itself (through the default dtype,
    # a float number would be rounded to float32 on its way into a float64 result)
    x_t = x if is_tensor(x) else _wrap(np.asarray(x, out_dtype))
    y_t = y if is_tensor(y) else _wrap(np.asarray(y, out_dtype))
    if condition_kind != "b":
        condition = _bool_condition(condition)
    return apply(WHERE, (condition, x_t, y_t), (), out_dtype)


def _where_arguments(condition, x, y):
    return _argparse.invalid_combination("where", (condition, x, y), {}, *_WHERE_SIGNATURES)


_WHERE_SIGNATURES = ("Tensor condition", "Tensor condition, Tensor input, Tensor other, *, Tensor out = None",
                     "Tensor condition, Number self, Tensor other", "Tensor condition, Tensor input, Number other",
                     "Tensor condition, Number self, Number other")


def _bool_condition(condition):
    if condition._data.dtype != np.uint8:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {type_name(condition._data.dtype)}")
    warnings.warn("where received a uint8 condition tensor. This behavior is deprecated and will be removed "
                  "in a future version of PyTorch. Use a boolean condition instead.", UserWarning, stacklevel=3)
    return _wrap(condition._data.astype(bool))


# --- comparisons: bool results, never differentiable --------------------------------------


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


def true_divide(x, other):
    """``div`` without rounding: ``x / other``."""
    return div(x, other)


promoting(sub, _check_subtraction)
BROADCASTING.add(copy)  # copy_ is a TensorIterator too: src broadcasts to self's shape first
INTEGER_VALUES_ONLY.add(copy)
promoting(true_divide, floating=True)
promoting(pow, _check_integer_power)
for _fn in (add, mul, div, floor_divide, remainder, bitwise_and, bitwise_or, bitwise_xor):
    promoting(_fn)

# --- Tensor methods (in-place comparisons, which PyTorch records, are in binary.py) ------------


def _operator(op, reflected=False):
    """``x + y`` and the other binary operators: the op (``op(y, x)`` when ``reflected``), or
    NotImplemented for what is no operand (a list, None, an array...), so that Python
    raises its own TypeError or NumPy computes (``x + array``), as with PyTorch."""
    if reflected:
        def _method(self, other):
            try:
                return op(other, self)
            except NotAnOperand:
                return NotImplemented
    else:
        def _method(self, other):
            try:
                return op(self, other)
            except NotAnOperand:
                return NotImplemented
    return _method


class _TensorMethods:
    def add(self, other, *, alpha=1):
        return add(self, other, alpha=alpha)

    def sub(self, other, *, alpha=1):
        return sub(self, other, alpha=alpha)

    def mul(self, other):
        return mul(self, other)

    def div(self, other, *, rounding_mode=None):
        return div(self, other, rounding_mode=rounding_mode)

    def pow(self, exponent):
        return pow(self, exponent)

    def neg(self):
        return neg(self)

    # in place (see inplace.py for the autograd rules); explicit, as they run in every optimizer step
    def add_(self, other, *, alpha=1):
        return apply_inplace(self, add, other, alpha=alpha)

    def sub_(self, other, *, alpha=1):
        return apply_inplace(self, sub, other, alpha=alpha)

    def mul_(self, other):
        return apply_inplace(self, mul, other)

    def div_(self, other, *, rounding_mode=None):
        if rounding_mode is None:  # true division: its result is floating (see inplace.PROMOTING)
            return apply_inplace(self, true_divide, other)
        return apply_inplace(self, div, other, rounding_mode=rounding_mode)

    def pow_(self, exponent):
        return apply_inplace(self, pow, exponent)

    def neg_(self):
        return apply_inplace(self, neg)

    def zero_(self):
        return apply_inplace(self, zero)

    def fill_(self, value):
        return apply_inplace(self, fill, value)

    def copy_(self, src, non_blocking=False):
        return apply_inplace(self, copy, src)

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

    def __rtruediv__(self, other):
        try:
            return rdiv(self, other)
        except NotAnOperand:  # PyTorch's is reciprocal() * other, which leaves an array to NumPy
            return self.reciprocal() * other if isinstance(other, np.ndarray) else NotImplemented

    def __pos__(self):
        return self

    def __invert__(self):
        kind = self._data.dtype.kind
        if kind == "b":
            return logical_not(self)
        if kind not in "iu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return bitwise_not(self)

    def where(self, condition, y):
        return where(condition, self, y)

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

    # casts and copies (a cast to an integer dtype carries no gradient)
    def to(self, *args, dtype=None, device=None, copy=False, non_blocking=False):
        """``to(dtype)``, ``to('cpu')``, ``to(other_tensor)``: a differentiable cast."""
        dtype, device = to_arguments(args, dtype, device)
        if device is not None:
            _device(device)  # PyTorch's error for CUDA
        if dtype is None or dtype.np == self._data.dtype:
            return clone(self) if copy else self
        if dtype.np.kind not in "fc":
            return _wrap(self._data.astype(dtype.np))
        return cast(self, dtype.np)

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

    def clone(self, memory_format=None):
        return clone(self)

    def contiguous(self, memory_format=None):
        return self if self._data.flags.c_contiguous else clone(self, "C")


tensor_methods(_TensorMethods)
Tensor.__add__ = Tensor.__radd__ = _operator(add)
Tensor.__sub__ = _operator(sub)
Tensor.__rsub__ = _operator(rsub)
Tensor.__mul__ = Tensor.__rmul__ = _operator(mul)
Tensor.__truediv__ = _operator(div)
Tensor.true_divide = true_divide
Tensor.true_divide_ = inplace_method(true_divide, "true_divide_")
Tensor.__pow__ = _operator(pow)
Tensor.__rpow__ = _operator(rpow)
Tensor.__neg__ = neg
Tensor.real = property(real)
Tensor.imag = property(imag)
Tensor.conj = conj
Tensor.resolve_conj = resolve_conj
Tensor.resolve_neg = resolve_neg
Tensor.is_conj = is_conj
Tensor.is_neg = is_neg

Tensor.true_divide = true_divide
Tensor.true_divide_ = inplace_method(true_divide, "true_divide_")
Tensor.floor_divide = floor_divide
Tensor.floor_divide_ = Tensor.__ifloordiv__ = inplace_method(floor_divide, "floor_divide_")
Tensor.__floordiv__ = _operator(floor_divide)
Tensor.__rfloordiv__ = _operator(floor_divide, reflected=True)  # 2 // uint8 stays uint8
Tensor.remainder = remainder
Tensor.remainder_ = Tensor.__imod__ = inplace_method(remainder, "remainder_")
Tensor.__mod__ = _operator(remainder)
Tensor.__rmod__ = _operator(remainder, reflected=True)
Tensor.__ne__ = _operator(ne)
Tensor.not_equal = not_equal
Tensor.__lt__ = _operator(lt)
Tensor.__le__ = _operator(le)
Tensor.__gt__ = _operator(gt)
Tensor.__ge__ = _operator(ge)
Tensor.less = less
Tensor.less_equal = less_equal
Tensor.greater = greater
Tensor.greater_equal = greater_equal
Tensor.logical_not = logical_not
Tensor.logical_not_ = inplace_method(logical_not, "logical_not_")
Tensor.bitwise_and = bitwise_and
Tensor.bitwise_and_ = Tensor.__iand__ = inplace_method(bitwise_and, "bitwise_and_")
Tensor.__and__ = Tensor.__rand__ = _operator(bitwise_and)
Tensor.bitwise_or = bitwise_or
Tensor.bitwise_or_ = Tensor.__ior__ = inplace_method(bitwise_or, "bitwise_or_")
Tensor.__or__ = Tensor.__ror__ = _operator(bitwise_or)
Tensor.bitwise_xor = bitwise_xor
Tensor.bitwise_xor_ = Tensor.__ixor__ = inplace_method(bitwise_xor, "bitwise_xor_")
Tensor.__xor__ = Tensor.__rxor__ = _operator(bitwise_xor)
Tensor.bitwise_not = bitwise_not
Tensor.bitwise_not_ = inplace_method(bitwise_not, "bitwise_not_")
