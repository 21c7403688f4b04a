"""Powers: ``x ** p`` with tensors and numbers on either side (``pow``, ``rpow``), computed
as PyTorch's kernels compute them: glibc's ``cpow`` for complex values, the truncated
quotient for an integer to a negative integer power, PyTorch's shortcuts for a number
exponent (``_number_power``); and PyTorch's checks of an integer exponent before promoting.
"""
import numpy as np

from ..._core import dtype as _dtype
from ..._core.arguments import NUMBERS, operand
from ..._core.tensor import Tensor, is_tensor, tensor_methods
from ..operands import _complex32_refused, not_implemented_for, _scalar_operand, _scalar_result, _tensor_result
from ..batching import elementwise
from ..inplace import apply_inplace, promoting
from ..registry import FROM_VJP, binary, defop, into, unary
from .elementwise import _operator, complex_product, fused_complex_product, imag, real, where, zeros_like


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


# --- Tensor methods --------------------------------------------------------------------------


class _TensorMethods:
    def pow(self, exponent):
        return pow(self, exponent)

    def pow_(self, exponent):
        return apply_inplace(self, pow, exponent)

    def __ipow__(self, other):
        return self.pow_(other)


tensor_methods(_TensorMethods)
Tensor.__pow__ = _operator(pow)
Tensor.__rpow__ = _operator(rpow)
promoting(pow, _check_integer_power)
