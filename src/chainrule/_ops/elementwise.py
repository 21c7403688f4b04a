"""Elementwise ops: arithmetic, unary maths, casts and comparisons.

Each entry is ``defop(name, forward, node=..., save=..., vjp=..., jvp=...)``; see
``registry``. A binary op has one rule per input. Broadcasting is undone by the engine,
so ``add``'s rules are just ``g``.

Ops with a Python-number operand (``x * 2.0``) have entries of their own that keep the
number as a parameter: backward then computes no gradient for it at all.
"""
import numpy as np

from .. import _dtype
from .._tensor import Tensor, _wrap
from .registry import apply, binary, broadcast_error, defop, unary

# --- dtype promotion at the boundary with NumPy ---------------------------------------


def _tensor_result(a, b):
    """NumPy dtype of ``a op b`` for two tensors, or None when NumPy already agrees."""
    if a._data.dtype == b._data.dtype:
        return None
    return _dtype.result_dtype((a, b)).np


def _scalar_result(x, s):
    """NumPy dtype of ``x op s`` for a Python number s, or None when NumPy agrees.

    NumPy treats Python numbers as weakly typed, like PyTorch, except across categories:
    an integer tensor times a float is float64 in NumPy, the default dtype in PyTorch.
    """
    kind = x._data.dtype.kind
    if kind in "fc" or isinstance(s, (bool, int)):
        return None
    if isinstance(s, float):
        return _dtype.get_default_dtype().np
    return _dtype.default_complex_dtype().np


def _float_result(x):
    """True division and transcendental ops turn integer inputs into the default dtype."""
    return None if x._data.dtype.kind in "fc" else _dtype.get_default_dtype().np


def _is_tensor(x):
    return isinstance(x, Tensor)


_NUMBER = (float, int, bool, complex)  # checked first on the hot path: ``x * 0.5`` is common


def _operand(value):
    """The other operand of a binary op as a tensor or a Python number: NumPy scalars
    become numbers, arrays and lists become tensors."""
    if isinstance(value, Tensor) or value.__class__ in _NUMBER:
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (np.ndarray, list, tuple)):
        return as_tensor_like(value, None)
    raise TypeError(f"unsupported operand type: {type(value).__name__}")


def _conj(number):
    return number.conjugate() if number.__class__ is complex else number


def as_tensor_like(value, like):
    """A Python number or array as a tensor, for ops that need both sides as tensors."""
    if _is_tensor(value):
        return value
    data = np.asarray(value)
    if data.dtype.kind == "f" and not isinstance(value, np.ndarray):
        data = data.astype(_dtype.get_default_dtype().np)
    return _wrap(data)


def zeros_like(t):
    return _wrap(np.zeros_like(t._data))


# --- arithmetic ---------------------------------------------------------------------

ADD = defop("add", np.add, node="AddBackward0",
            vjp=(lambda g: g, lambda g: g),
            jvp=(lambda t: t, lambda t: t))

ADD_SCALAR = defop("add_scalar", np.add, node="AddBackward0",
                   vjp=lambda g: g, jvp=lambda t: t, elementwise=True, number_operand=True)


def add(x, other, *, alpha=1):
    if alpha != 1:
        other = other * alpha
    if other.__class__ in _NUMBER:
        return unary(ADD_SCALAR, x, (other,), _scalar_result(x, other))
    if not isinstance(x, Tensor):  # number + tensor
        x, other = other, _operand(x)
    other = _operand(other)
    if not isinstance(other, Tensor):
        return unary(ADD_SCALAR, x, (other,), _scalar_result(x, other))
    return binary(ADD, x, other, _tensor_result(x, other))


SUB = defop("sub", np.subtract, node="SubBackward0",
            vjp=(lambda g: g, lambda g: -g),
            jvp=(lambda t: t, lambda t: -t))

SUB_SCALAR = defop("sub_scalar", np.subtract, node="SubBackward0",
                   vjp=lambda g: g, jvp=lambda t: t, elementwise=True, number_operand=True)

RSUB_SCALAR = defop("rsub_scalar", lambda x, s: np.subtract(s, x), node="RsubBackward1",
                    vjp=lambda g: -g, jvp=lambda t: -t, elementwise=True)


def sub(x, other, *, alpha=1):
    if x._data.dtype.kind == "b" or (_is_tensor(other) and other._data.dtype.kind == "b"):
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` "
                           "operator instead.")
    if alpha != 1:
        other = other * alpha
    other = _operand(other)
    if _is_tensor(other):
        return binary(SUB, x, other, _tensor_result(x, other))
    return unary(SUB_SCALAR, x, (other,), _scalar_result(x, other))


def rsub(x, other):
    """``other - x`` for a Python number ``other``."""
    return unary(RSUB_SCALAR, x, (other,), _scalar_result(x, other))


MUL = defop("mul", np.multiply, node="MulBackward0",
            save=lambda ans, x, y: (x, y),
            vjp=(lambda g, x, y: g * y.conj(), lambda g, x, y: g * x.conj()),
            jvp=(lambda t, x, y: t * y, lambda t, x, y: x * t))

MUL_SCALAR = defop("mul_scalar", np.multiply, node="MulBackward0",
                   save=lambda ans, x, s: (s,),
                   vjp=lambda g, s: g * _conj(s), jvp=lambda t, s: t * s, elementwise=True,
                   number_operand=True)


def mul(x, other):
    if other.__class__ in _NUMBER:
        return unary(MUL_SCALAR, x, (other,), _scalar_result(x, other))
    if not isinstance(x, Tensor):  # number * tensor
        x, other = other, _operand(x)
    other = _operand(other)
    if not isinstance(other, Tensor):
        return unary(MUL_SCALAR, x, (other,), _scalar_result(x, other))
    return binary(MUL, x, other, _tensor_result(x, other))


DIV = defop("div", np.true_divide, node="DivBackward0",
            save=lambda ans, x, y: (x, y),
            vjp=(lambda g, x, y: g / y.conj(), lambda g, x, y: -g * (x / (y * y)).conj()),
            jvp=(lambda t, x, y: t / y, lambda t, x, y: -t * x / (y * y)))

DIV_SCALAR = defop("div_scalar", np.true_divide, node="DivBackward0",
                   save=lambda ans, x, s: (s,),
                   vjp=lambda g, s: g / _conj(s), jvp=lambda t, s: t / s, elementwise=True,
                   number_operand=True)


def div(x, other, *, rounding_mode=None):
    if rounding_mode == "floor":
        return floor_divide(x, other)
    if rounding_mode == "trunc":
        return _nondiff(np.trunc, x, other)
    if not _is_tensor(x):
        return rdiv(other, x)
    other = _operand(other)
    if _is_tensor(other):
        out_dtype = _tensor_result(x, other)
        if (out_dtype or x._data.dtype).kind not in "fc":
            out_dtype = _dtype.get_default_dtype().np
        return binary(DIV, x, other, out_dtype)
    out_dtype = _scalar_result(x, other) or _float_result(x)
    return unary(DIV_SCALAR, x, (other,), out_dtype)


def rdiv(x, other):
    """``other / x`` for a Python number: ``reciprocal(x) * other``, as PyTorch records it."""
    return reciprocal(x) * other


def _pow_derivative(x, p):
    """d(x^p)/dx for a number p (the p == 0 case is zero, handled by the rule)."""
    return p * x ** (p - 1)


POW_SCALAR = defop(
    "pow_scalar", lambda x, p: x ** p, node="PowBackward0",
    save=lambda ans, x, p: (x, p),
    vjp=lambda g, x, p: zeros_like(g) if p == 0 else g * _pow_derivative(x, p).conj(),
    jvp=lambda t, x, p: zeros_like(t) if p == 0 else t * _pow_derivative(x, p), elementwise=True)


def _pow_exponent_grad(g, x, ans):
    # d(x^y)/dy = x^y log x; PyTorch defines it as 0 where x == 0 (and y >= 0)
    return where(x == 0, 0.0, g * (ans * log(x)).conj())


POW = defop(
    "pow", np.power, node="PowBackward1",
    save=lambda ans, x, y: (x, y, ans),
    vjp=(lambda g, x, y, ans: where(y == 0, 0.0, g * (y * x ** (y - 1)).conj()),
         lambda g, x, y, ans: _pow_exponent_grad(g, x, ans)),
    jvp=(lambda t, x, y, ans: where(y == 0, 0.0, t * y * x ** (y - 1)),
         lambda t, x, y, ans: _pow_exponent_grad(t, x, ans)))

RPOW_SCALAR = defop(
    "rpow_scalar", lambda x, base: np.power(base, x), node="PowBackward2",
    save=lambda ans, x, base: (ans, base),
    vjp=lambda g, ans, base: g * (ans * float(np.log(base))).conj() if base != 0 else zeros_like(g),
    jvp=lambda t, ans, base: t * ans * float(np.log(base)) if base != 0 else zeros_like(t),
    elementwise=True)


def pow(x, exponent):
    if not _is_tensor(x):
        return rpow(exponent, x)
    if _is_tensor(exponent):
        return binary(POW, x, exponent, _tensor_result(x, exponent))
    if x._data.dtype.kind in "iu" and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return unary(POW_SCALAR, x, (exponent,), _scalar_result(x, exponent))


def rpow(x, base):
    """``base ** x`` for a Python number ``base``."""
    out_dtype = _scalar_result(x, base)
    if out_dtype is None and x._data.dtype.kind == "b":
        out_dtype = np.dtype(np.int64) if isinstance(base, int) and not isinstance(base, bool) else None
    return unary(RPOW_SCALAR, x, (base,), out_dtype)


NEG = defop("neg", np.negative, node="NegBackward0", vjp=lambda g: -g, jvp=lambda t: -t,
elementwise=True)


def neg(x):
    if x._data.dtype.kind == "b":
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you "
                           "are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    return unary(NEG, x)


# --- casts, copies and complex parts ----------------------------------------------------

# backward casts back to the input's dtype: the engine's _reduce does that for every rule
CAST = defop("cast", lambda x, dt: x.astype(dt), node="ToCopyBackward0",
             save=lambda ans, x, dt: (dt,),
             vjp=lambda g, dt: g, jvp=lambda t, dt: cast(t, dt), elementwise=True)


def cast(x, np_dtype):
    return unary(CAST, x, (np.dtype(np_dtype),))


# "K" keeps the input's memory layout, as PyTorch's clone does; contiguous() asks for "C"
CLONE = defop("clone", lambda x, order: np.array(x, order=order), node="CloneBackward0",
              vjp=lambda g: g, jvp=lambda t: t,
elementwise=True)


def clone(x, order="K"):
    return unary(CLONE, x, (order,))


REAL = defop("real", np.real, node="RealBackward0",
             vjp=lambda g: g, jvp=lambda t: real(t), view=True)


def real(x):
    return unary(REAL, x) if x._data.dtype.kind == "c" else x


IMAG = defop("imag", np.imag, node="ImagBackward0",
             vjp=lambda g: g * 1j, jvp=lambda t: imag(t), view=True)


def imag(x):
    if x._data.dtype.kind != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return unary(IMAG, x)


CONJ = defop("conj", np.conj, node="ConjBackward0",
             vjp=lambda g: g.conj(), jvp=lambda t: t.conj(), elementwise=True)


def conj(x):
    return unary(CONJ, x) if x._data.dtype.kind == "c" else x


# --- whole-tensor writes, used by the in-place forms zero_, fill_, copy_ ---------------------

ZERO = defop("zero", np.zeros_like, node="ZeroBackward0",
             vjp=lambda g: zeros_like(g), jvp=lambda t: zeros_like(t), elementwise=True)


def zero(x):
    return unary(ZERO, x)


FILL = defop("fill", lambda x, value: np.full_like(x, value), node="FillBackward2",
             vjp=lambda g: zeros_like(g), jvp=lambda t: zeros_like(t), elementwise=True)


# filling from a 0-d tensor: its gradient is the sum of the incoming one
FILL_TENSOR = defop("fill_tensor", lambda x, value: np.full_like(x, value), node="FillBackward3",
                    vjp=(lambda g: zeros_like(g), lambda g: g.sum()),
                    jvp=(lambda t: zeros_like(t), lambda t: t))


def fill(x, value):
    if _is_tensor(value):
        if value._data.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._data.ndim} dimensions.")
        return binary(FILL_TENSOR, x, value, None)
    return unary(FILL, x, (value,))


COPY = defop("copy", lambda x, src: np.broadcast_to(src, x.shape).astype(x.dtype), node="CopyBackwards",
             vjp=(lambda g: zeros_like(g), lambda g: g),
             jvp=(lambda t: zeros_like(t), lambda t: t))


def copy(x, src):
    if not _is_tensor(src):
        src = as_tensor_like(src, x)
    return binary(COPY, x, src)


# --- selection ---------------------------------------------------------------------------

WHERE = defop("where", np.where, node="WhereBackward0",
              save=lambda ans, cond, x, y: (cond,),
              vjp=(None, lambda g, cond: where(cond, g, 0.0), lambda g, cond: where(cond, 0.0, g)),
              jvp=(None, lambda t, cond: where(cond, t, 0.0), lambda t, cond: where(cond, 0.0, t)))


def where(condition, x=None, y=None):
    """``where(cond, x, y)``: x where cond holds, else y. Numbers stay weakly typed."""
    if x is None and y is None:
        return tuple(_wrap(i) for i in np.nonzero(condition._data))
    like = x if _is_tensor(x) else y
    x_t = as_tensor_like(x, like) if _is_tensor(like) else as_tensor_like(x, condition)
    y_t = as_tensor_like(y, like) if _is_tensor(like) else as_tensor_like(y, condition)
    out_dtype = _dtype.result_dtype((x, y)).np
    if condition._data.dtype.kind != "b":
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor "
                           f"with dtype {condition.dtype.name.capitalize()}")
    return apply(WHERE, (condition, x_t, y_t), (), out_dtype)


# --- non-differentiable ops: comparisons, logic, integer division ------------------------------


def _nondiff(fn, x, other=None):
    """Ops with no gradient: compute on plain arrays; the result never requires grad."""
    if other is None:
        return _wrap(np.asarray(fn(x._data)))
    b = other._data if _is_tensor(other) else other
    if not _is_tensor(x):
        x, b = as_tensor_like(x, other), b
    try:
        return _wrap(np.asarray(fn(x._data, b)))
    except ValueError as e:
        raise broadcast_error(e, x._data.shape, np.shape(b)) from None


def eq(x, other):
    return _nondiff(np.equal, x, other)


def ne(x, other):
    return _nondiff(np.not_equal, x, other)


def _ordered(x, other, name):
    """Complex numbers have no order: PyTorch refuses to compare them."""
    for t in (x, other):
        if _is_tensor(t) and t._data.dtype.kind == "c":
            kind = "ComplexFloat" if t._data.dtype == np.complex64 else "ComplexDouble"
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{kind}\'')


def lt(x, other):
    _ordered(x, other, "lt")
    return _nondiff(np.less, x, other)


def le(x, other):
    _ordered(x, other, "le")
    return _nondiff(np.less_equal, x, other)


def gt(x, other):
    _ordered(x, other, "gt")
    return _nondiff(np.greater, x, other)


def ge(x, other):
    _ordered(x, other, "ge")
    return _nondiff(np.greater_equal, x, other)


def logical_not(x):
    return _nondiff(np.logical_not, x)


def bitwise_not(x):
    return _nondiff(np.invert, x)


def bitwise_and(x, other):
    return _nondiff(np.bitwise_and, x, other)


def bitwise_or(x, other):
    return _nondiff(np.bitwise_or, x, other)


def bitwise_xor(x, other):
    return _nondiff(np.bitwise_xor, x, other)


def floor_divide(x, other):
    return _nondiff(np.floor_divide, x, other)


def remainder(x, other):
    return _nondiff(np.remainder, x, other)


from .unary import log, reciprocal  # noqa: E402  (unary builds on this module's helpers)
