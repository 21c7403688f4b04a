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

from ..._core import arguments as _argparse, dtype as _dtype, exact as _exact
from ..._core.arguments import NUMBERS, NotAnOperand, operand
from ..._core.tensor import Tensor, _wrap, device as _device, is_tensor, tensor_methods, to_arguments
from ..operands import (as_tensor_like, cast, clone, common_operands, _complex32_refused, _conj, _float_result,
                        invalid_arguments, _no_derivative, not_implemented_for, plain, _scalar_operand, _scalar_result,
                        _tensor_result, type_name, without_derivative)
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


def true_divide(x, other):
    """``div`` without rounding: ``x / other``."""
    return div(x, other)


promoting(sub, _check_subtraction)
BROADCASTING.add(copy)  # copy_ is a TensorIterator too: src broadcasts to self's shape first
INTEGER_VALUES_ONLY.add(copy)
promoting(true_divide, floating=True)
for _fn in (add, mul, div, floor_divide, remainder):
    promoting(_fn)

# --- Tensor methods --------------------------------------------------------------------------


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

    def __rtruediv__(self, other):
        try:
            return rdiv(self, other)
        except NotAnOperand:  # PyTorch's is reciprocal() * other, which leaves an array to NumPy
            return self.reciprocal() * other if isinstance(other, np.ndarray) else NotImplemented

    def __pos__(self):
        return self

    def where(self, condition, y):
        return where(condition, self, y)

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
Tensor.__neg__ = neg
Tensor.real = property(real)
Tensor.imag = property(imag)
Tensor.conj = conj
Tensor.resolve_conj = resolve_conj
Tensor.resolve_neg = resolve_neg
Tensor.is_conj = is_conj
Tensor.is_neg = is_neg

Tensor.floor_divide = floor_divide
Tensor.floor_divide_ = Tensor.__ifloordiv__ = inplace_method(floor_divide, "floor_divide_")
Tensor.__floordiv__ = _operator(floor_divide)
Tensor.__rfloordiv__ = _operator(floor_divide, reflected=True)  # 2 // uint8 stays uint8
Tensor.remainder = remainder
Tensor.remainder_ = Tensor.__imod__ = inplace_method(remainder, "remainder_")
Tensor.__mod__ = _operator(remainder)
Tensor.__rmod__ = _operator(remainder, reflected=True)
Tensor.true_divide = true_divide
Tensor.true_divide_ = inplace_method(true_divide, "true_divide_")
