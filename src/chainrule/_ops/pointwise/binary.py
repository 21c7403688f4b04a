"""Pointwise maths of two and three tensors: fmod, atan2, hypot, maximum, copysign, xlogy,
logaddexp..., then the closeness tests, logic and shifts (plain results) and
the in-place comparisons. (``+ - * / % //`` and the comparisons are in ``elementwise``; lerp,
addcmul and addcdiv in ``ternary``.)

Each op is a ``defop`` entry followed by its public function, as in ``unary``. The
function first brings its operands to PyTorch's result dtype (``common_operands``): bool
and integer tensors and Python numbers are converted to it (ops that PyTorch computes in
floating point take the default float dtype), so that NumPy computes in that dtype.

Where PyTorch records a Python-number operand under a node of its own (``fmod(x, 2.0)`` is
``FmodBackward0``, ``fmod(x, y)`` is ``FmodBackward1``), the number is a parameter of an
entry of its own, and backward computes nothing for it:

>>> x = chainrule.tensor([5.0, -5.0], requires_grad=True)
>>> chainrule.fmod(x, 3.0)
tensor([ 2., -2.], grad_fn=<FmodBackward0>)

Ops whose other operand must be a tensor in PyTorch (``atan2``, ``maximum``...) refuse
numbers with PyTorch's TypeError.
"""

import numpy as np

from ..._core import dtype as _dtype
from ..._core.arguments import NotAnOperand, operand
from ..._core.tensor import Tensor, is_tensor
from .elementwise import _no_bool_subtraction, div, where, zeros_like
from .comparisons import _as_complex32
from .power import pow
from ..operands import (TENSOR_OR_NUMBER, _is_complex, _no_derivative, _scalar_operand, common_operands,
                        invalid_arguments, must_be_tensor, not_implemented_for, plain, promoted, tensor_method,
                        type_name, without_derivative)
from ..inplace import BROADCASTING, apply_inplace, promoting
from ..methods import inplace_method
from ..batching import elementwise
from ..registry import FROM_VJP, apply, defop, into, unary
from .unary import exp


def _tensors(name, *args):
    """PyTorch's TypeError where an op takes tensors only: ``atan2(x, 2.0)``."""
    for position, (arg_name, value) in enumerate(args, 1):
        if not is_tensor(value):
            raise must_be_tensor(name, value, arg_name, position)


def _real_kernel(kernel, dtype, kinds="biuf"):
    """PyTorch's NotImplementedError for a result dtype its kernel lacks."""
    if dtype.kind not in kinds:
        raise not_implemented_for(kernel, dtype)


def _number_operand(other):
    """Whether ``other`` is a Python number (after NumPy scalars became numbers)."""
    return not is_tensor(operand(other))


# --- fmod: the remainder of truncated division (``%`` rounds down: elementwise.remainder) ------


def _fmod(a, b):
    if a.dtype.kind in "iu" and a.size and not np.all(b):  # an empty result divides nothing (b is not empty)
        raise RuntimeError("ZeroDivisionError")
    return np.fmod(a, b)


# x - trunc(x / y) * y: slope 1 in x, -trunc(x / y) in y
FMOD = defop("fmod", _fmod, batch=elementwise, node="FmodBackward1", save=lambda ans, x, y: (x, y),
             vjp=(lambda g, x, y: g, lambda g, x, y: -g * div(x, y, rounding_mode="trunc")),
             jvp=FROM_VJP)

FMOD_SCALAR = defop("fmod_scalar", _fmod, node="FmodBackward0", vjp=lambda g: g, jvp=FROM_VJP,
                    elementwise=True, number_operand=True)


def fmod(x, other, *, out=None):
    """``x - trunc(x / other) * other``: the sign of ``x`` (C's fmod)."""
    if out is not None:
        return into(out, fmod, x, other)
    if not is_tensor(x):
        raise invalid_arguments("fmod", (x, other), *TENSOR_OR_NUMBER)
    try:
        number = _number_operand(other)
        x, other, dtype = common_operands(x, other, kernel="fmod_cpu")
    except NotAnOperand:
        raise invalid_arguments("fmod", (x, other), *TENSOR_OR_NUMBER) from None
    _real_kernel("fmod_cpu", dtype, "iuf")
    if number:
        return unary(FMOD_SCALAR, x, (other._data.item(),), dtype)
    return apply(FMOD, (x, other), (), dtype)


# --- float_power: pow in double precision ----------------------------------------------------


def _double(value, dtype):
    if is_tensor(value):
        return value if value.dtype is dtype else value.to(dtype)
    return complex(value) if dtype is _dtype.complex128 else float(value)


def _double_dtype(x, exponent):
    return _dtype.complex128 if _is_complex(x) or _is_complex(exponent) else _dtype.float64


_FLOAT_POWER_SIGNATURES = ("Tensor input, Tensor exponent, *, Tensor out = None",
                           "Number self, Tensor exponent, *, Tensor out = None",
                           "Tensor input, Number exponent, *, Tensor out = None")


def float_power(x, exponent):
    """``pow`` computed in float64 (complex128 for complex operands), whatever the
    inputs' dtypes: recorded as PyTorch does, casts then ``pow``."""
    try:
        x, exponent = operand(x), operand(exponent)
    except NotAnOperand:
        raise invalid_arguments("float_power", (x, exponent), *_FLOAT_POWER_SIGNATURES) from None
    if not is_tensor(x) and not is_tensor(exponent):
        raise invalid_arguments("float_power", (x, exponent), *_FLOAT_POWER_SIGNATURES)
    dtype = _double_dtype(x, exponent)
    return pow(_double(x, dtype), _double(exponent, dtype))


def _float_power_inplace(x, exponent):
    dtype = _double_dtype(x, operand(exponent))
    if x.dtype is not dtype:
        raise RuntimeError(f"the base given to float_power_ has dtype {type_name(x._data.dtype)} but the "
                           f"operation's result requires dtype {type_name(dtype.np)}")
    return apply_inplace(x, float_power, exponent)


# --- atan2 and hypot: the angle and the length of (other, x) -------------------------------------


def _inverse_square_norm(x, y):
    # 1 / (x^2 + y^2), 0 at the origin as PyTorch's atan2_backward fills it (the gradient there
    # is 0, not nan; its derivative, through the 1/0 underneath, nan as PyTorch's)
    square = x * x + y * y
    with np.errstate(divide="ignore"):
        return where(square == 0, 0.0, 1 / square)


ATAN2 = defop("atan2", np.arctan2, batch=elementwise, node="Atan2Backward0", save=lambda ans, x, y: (x, y),
              vjp=(lambda g, x, y: g * (y * _inverse_square_norm(x, y)),
                   lambda g, x, y: g * (-x * _inverse_square_norm(x, y))),
              # forward AD divides by x^2 + y^2 as is: NaN at the origin, as PyTorch's; with both
              # tangents PyTorch's one quotient (-x t_y + y t_x) / (x^2 + y^2): inf where x^2 + y^2
              # underflows, not 0/0 + inf
              jvp=(lambda t, x, y: t * y / (x * x + y * y),
                   lambda t, x, y: -t * x / (x * x + y * y)),
              joint_jvp=lambda tangents, x, y: (-x * tangents[1] + y * tangents[0]) / (x.pow(2) + y.pow(2)))


def atan2(x, other, *, out=None):
    """The angle of the point (other, x), in (-pi, pi]: ``atan(x / other)`` in the
    right quadrant."""
    if out is not None:
        return into(out, atan2, x, other)
    _tensors("atan2", ("input", x), ("other", other))
    x, other, dtype = common_operands(x, other, floating=True, kernel="atan2_cpu")
    _real_kernel("atan2_cpu", dtype)
    return apply(ATAN2, (x, other), (), dtype)


arctan2 = atan2

# hypot' = x / hypot (nan at the origin, as in PyTorch); g * x / hypot in PyTorch's order, whose
# second derivatives cancel exactly where a tiny hypot scales them
HYPOT = defop("hypot", np.hypot, batch=elementwise, node="HypotBackward0", save=lambda ans, x, y: (x, y, ans),
              vjp=(lambda g, x, y, ans: g * x / ans, lambda g, x, y, ans: g * y / ans),
              jvp=(lambda t, x, y, ans: t * (x / ans), lambda t, x, y, ans: t * (y / ans)),
              # both tangents: PyTorch's one quotient (x t_x + y t_y) / hypot (its sum overflows at 1.8e308)
              joint_jvp=lambda tangents, x, y, ans: (x * tangents[0] + y * tangents[1]) / ans)


def hypot(x, other, *, out=None):
    """``sqrt(x^2 + other^2)`` without overflow. Floating tensors only, as in PyTorch."""
    if out is not None:
        return into(out, hypot, x, other)
    _tensors("hypot", ("input", x), ("other", other))
    x, other, dtype = common_operands(x, other, kernel="hypot_cpu")
    _real_kernel("hypot_cpu", dtype, "f")
    return apply(HYPOT, (x, other), (), dtype)


# --- maximum, minimum (nan wins) and fmax, fmin (nan loses) -----------------------------------------


def _shares(ans, x, y, x_share, y_share):
    """The fractions of the gradient that go to x and to y, as plain tensors in the
    output's dtype: piecewise constant, so their own derivative is zero."""
    dtype = ans._data.dtype
    return plain(x_share, (x, y), dtype=dtype), plain(y_share, (x, y), dtype=dtype)


def _larger_share(a, b):
    # PyTorch's maximum: all of g to the larger input (to both where one is nan), half at a tie
    return np.where(a < b, 0.0, np.where(a == b, 0.5, 1.0))


def _smaller_share(a, b):
    return np.where(a > b, 0.0, np.where(a == b, 0.5, 1.0))


def _fmax_share(a, b):
    # PyTorch's fmax: all of g to x where x >= y or y is nan (ties included), else to y
    return (a >= b) | np.isnan(b)


def _fmin_share(a, b):
    return (a <= b) | np.isnan(b)


def _defop_selection(name, forward, node, x_share, y_share):
    return defop(name, forward, batch=elementwise, node=node,
                 save=lambda ans, x, y: _shares(ans, x, y, x_share, y_share),
                 vjp=(lambda g, to_x, to_y: g * to_x, lambda g, to_x, to_y: g * to_y),
                 # forward, PyTorch gives y's tangent alone where one input is nan (both
                 # shares 1; the gradient goes to both)
                 jvp=(lambda t, to_x, to_y: t * (to_x * (to_y < 1)), lambda t, to_x, to_y: t * to_y))


# PyTorch's kernels, elementwise (std::max(a, b) and co.): between equal values (0. and -0.)
# they keep a, where NumPy's SIMD loops keep b. (PyTorch's own vectorized loops keep b too:
# its answer for +-0 depends on the tensor's length; see docs/differences.md.)
def _maximum(a, b):
    if a.dtype.kind != "f":
        return np.maximum(a, b)
    return np.where((a < b) | np.isnan(b), b, a)


def _minimum(a, b):
    if a.dtype.kind != "f":
        return np.minimum(a, b)
    return np.where((a > b) | np.isnan(b), b, a)


def _fmax(a, b):
    if a.dtype.kind != "f":
        return np.fmax(a, b)
    return np.where((a < b) | np.isnan(a), b, a)


def _fmin(a, b):
    if a.dtype.kind != "f":
        return np.fmin(a, b)
    return np.where((a > b) | np.isnan(a), b, a)


MAXIMUM = _defop_selection("maximum", _maximum, "MaximumBackward0", _larger_share,
                           lambda a, b: _larger_share(b, a))
MINIMUM = _defop_selection("minimum", _minimum, "MinimumBackward0", _smaller_share,
                           lambda a, b: _smaller_share(b, a))


def _fmax_tangent_share(a, b):
    # forward, PyTorch's fmax gives a tie to y (other_t + (x > y | isnan(y)) * (x_t - y_t)),
    # though backward gives it to x; fmin gives it to x both ways
    return (a > b) | np.isnan(b)


def _fmax_saved(ans, x, y):
    to_x, to_y = _shares(ans, x, y, _fmax_share, lambda a, b: ~_fmax_share(a, b))
    return to_x, to_y, plain(_fmax_tangent_share, (x, y), dtype=ans._data.dtype)


FMAX = defop("fmax", _fmax, batch=elementwise, node="FmaxBackward0", save=_fmax_saved,
             vjp=(lambda g, to_x, to_y, tangent_x: g * to_x, lambda g, to_x, to_y, tangent_x: g * to_y),
             jvp=(lambda t, to_x, to_y, tangent_x: t * tangent_x,
                  lambda t, to_x, to_y, tangent_x: t * (1 - tangent_x)))

FMIN = _defop_selection("fmin", _fmin, "FminBackward0", _fmin_share, lambda a, b: ~_fmin_share(a, b))


def _ordered_pair(name, x, other):
    _tensors(name, ("input", x), ("other", other))
    if promoted((x, other)) is _dtype.COMPLEX_HALF:
        raise RuntimeError(f"{name} not implemented for complex tensors.")
    x, other, dtype = common_operands(x, other)
    if dtype.kind == "c":
        raise RuntimeError(f"{name} not implemented for complex tensors.")
    return x, other, dtype


def maximum(x, other, *, out=None):
    """The larger of x and other, elementwise; nan if either is nan."""
    if out is not None:
        return into(out, maximum, x, other)
    x, other, dtype = _ordered_pair("maximum", x, other)
    return apply(MAXIMUM, (x, other), (), dtype)


def minimum(x, other, *, out=None):
    if out is not None:
        return into(out, minimum, x, other)
    x, other, dtype = _ordered_pair("minimum", x, other)
    return apply(MINIMUM, (x, other), (), dtype)


def fmax(x, other, *, out=None):
    """``maximum``, except that a nan loses to a number."""
    if out is not None:
        return into(out, fmax, x, other)
    x, other, dtype = _ordered_pair("fmax", x, other)
    return apply(FMAX, (x, other), (), dtype)


def fmin(x, other, *, out=None):
    if out is not None:
        return into(out, fmin, x, other)
    x, other, dtype = _ordered_pair("fmin", x, other)
    return apply(FMIN, (x, other), (), dtype)


# --- copysign ----------------------------------------------------------------------------------


def _sign_flip(g, ans, x):
    """d copysign(x, y)/dx as PyTorch writes it: result / x, zero where x is 0. Through the
    saved result, so that double backward gives PyTorch's (rounding-level) second derivative."""
    return g * where(x == 0, 0.0, ans / x)


COPYSIGN = defop("copysign", np.copysign, batch=elementwise, node="CopysignBackward0",
                 save=lambda ans, x, y: (ans, x, y),  # other's gradient: zeros of its own dtype, as PyTorch's
                 vjp=(lambda g, ans, x, y: _sign_flip(g, ans, x), lambda g, ans, x, y: zeros_like(y)),
                 jvp=(lambda t, ans, x, y: _sign_flip(t, ans, x), lambda t, ans, x, y: zeros_like(t)))

COPYSIGN_SCALAR = defop("copysign_scalar", np.copysign, node="CopysignBackward1",
                        save=lambda ans, x, s: (ans, x), vjp=_sign_flip, jvp=_sign_flip, elementwise=True)


def copysign(x, other, *, out=None):
    """``|x|`` with the sign of ``other`` (-0.0 counts as negative); floating result."""
    if out is not None:
        return into(out, copysign, x, other)
    number = _number_operand(other)
    x, other, dtype = common_operands(x, other, floating=True, kernel="copysign_cpu")
    _real_kernel("copysign_cpu", dtype)
    if number:
        return unary(COPYSIGN_SCALAR, x, (other._data.item(),), dtype)
    return apply(COPYSIGN, (x, other), (), dtype)


# --- xlogy and xlog1py: x log(y) and x log(1 + y), 0 where x is 0 ------------------------------------


def _x_times(log_fn):
    def forward(x, y):
        with np.errstate(divide="ignore", invalid="ignore"):
            out = x * log_fn(y)
        return np.where((x == 0) & ~np.isnan(y), np.zeros((), out.dtype), out)  # nan y stays nan
    forward.__name__ = f"x_{log_fn.__name__}"
    return forward


_xlogy = _x_times(np.log)
_xlog1py = _x_times(np.log1p)

def _x_slope(g, x, y, x_log, pole):
    """g * log(y) (as ``x_log(g, y)``, 0 where g is 0), and 0 where x is 0 and y is at or
    past the pole of the logarithm: PyTorch's choice there (the slope along x = 0)."""
    return where((x == 0) & (y <= pole), 0.0, x_log(g, y))


def _x_slope_number_y(g, x, y, x_log, pole):
    # the same with y a number: PyTorch masks wherever y is not past the pole (nan too)
    return x_log(g, y) if y > pole else where(x == 0, 0.0, x_log(g, y))


XLOGY = defop("xlogy", _xlogy, batch=elementwise, node="XlogyBackward0", save=lambda ans, x, y: (x, y),
              vjp=(lambda g, x, y: _x_slope(g, x, y, xlogy, 0), lambda g, x, y: g * x / y),
              jvp=FROM_VJP)

XLOGY_NUMBER_X = defop("xlogy_number_x", lambda y, x: _xlogy(x, y), node="XlogyBackward1",
                       save=lambda ans, y, x: (y, x),
                       vjp=lambda g, y, x: g * x / y, jvp=FROM_VJP, elementwise=True)

XLOGY_NUMBER_Y = defop("xlogy_number_y", _xlogy, node="XlogyBackward2", save=lambda ans, x, y: (x, y),
                       vjp=lambda g, x, y: _x_slope_number_y(g, x, y, xlogy, 0),
                       jvp=FROM_VJP, elementwise=True)

XLOG1PY = defop("xlog1py", _xlog1py, batch=elementwise, node="SpecialXlog1PyBackward0", save=lambda ans, x, y: (x, y),
                vjp=(lambda g, x, y: _x_slope(g, x, y, xlog1py, -1), lambda g, x, y: g * x / (y + 1)),
                jvp=FROM_VJP)

XLOG1PY_NUMBER_X = defop("xlog1py_number_x", lambda y, x: _xlog1py(x, y), node="SpecialXlog1PyBackward1",
                         save=lambda ans, y, x: (y, x),
                         vjp=lambda g, y, x: g * x / (y + 1), jvp=FROM_VJP, elementwise=True)

XLOG1PY_NUMBER_Y = defop("xlog1py_number_y", _xlog1py, node="SpecialXlog1PyBackward2",
                         save=lambda ans, x, y: (x, y),
                         vjp=lambda g, x, y: _x_slope_number_y(g, x, y, xlog1py, -1),
                         jvp=FROM_VJP, elementwise=True)

_XLOGY_SIGNATURES = ("Tensor input, Tensor other, *, Tensor out = None",
                     "Number self, Tensor other, *, Tensor out = None",
                     "Tensor input, Number other, *, Tensor out = None")


def _x_log(name, ops, x, y):
    """``x * log(y)``-like ops: (tensor, tensor), (number, tensor) or (tensor, number)."""
    both, number_x, number_y = ops
    try:
        x, y = operand(x), operand(y)
    except NotAnOperand:
        raise invalid_arguments(name, (x, y), *_XLOGY_SIGNATURES) from None
    if not is_tensor(x) and not is_tensor(y):
        raise invalid_arguments(name, (x, y), *_XLOGY_SIGNATURES)
    x_t, y_t, dtype = common_operands(x, y, floating=True, kernel=f"{name}_cpu")
    _real_kernel(f"{name}_cpu", dtype)
    if not is_tensor(x):
        return unary(number_x, y_t, (x_t._data.item(),), dtype)
    if not is_tensor(y):
        return unary(number_y, x_t, (y_t._data.item(),), dtype)
    return apply(both, (x_t, y_t), (), dtype)


def xlogy(x, other, *, out=None):
    """``x * log(other)``, and 0 where x is 0 (unless other is nan)."""
    if out is not None:
        return into(out, xlogy, x, other)
    return _x_log("xlogy", (XLOGY, XLOGY_NUMBER_X, XLOGY_NUMBER_Y), x, other)


def xlog1py(x, other):
    """``x * log1p(other)``, and 0 where x is 0 (unless other is nan): torch.special."""
    return _x_log("xlog1py", (XLOG1PY, XLOG1PY_NUMBER_X, XLOG1PY_NUMBER_Y), x, other)


# --- logaddexp: log(exp(x) + exp(y)) without overflow ---------------------------------------------


def _logaddexp(a, b):
    if a.dtype.kind != "c" and b.dtype.kind != "c":
        return np.logaddexp(a, b)
    larger = np.where(a.real >= b.real, a, b)  # complex: factor out the larger modulus
    return larger + np.log(np.exp(a - larger) + np.exp(b - larger))


def _difference(x, y, bool_operand):
    """y - x, the argument of logaddexp's slopes; PyTorch computes it from the operands as
    given, so with a bool one its derivatives raise the error of bool subtraction."""
    if bool_operand:
        _no_bool_subtraction(True, 1.0)
    return y - x


# d/dx = exp(x) / (exp(x) + exp(y)) = 1 / (1 + exp(y - x)), finite for any x, y
LOGADDEXP = defop("logaddexp", lambda a, b, bool_operand: _logaddexp(a, b), batch=elementwise,
                  node="LogaddexpBackward0", save=lambda ans, x, y, bool_operand: (x, y, bool_operand),
                  vjp=(lambda g, x, y, b: g / (1 + exp(_difference(x, y, b))).conj(),
                       lambda g, x, y, b: g / (1 + exp(_difference(y, x, b))).conj()),
                  jvp=FROM_VJP)

LOGADDEXP2 = defop("logaddexp2", lambda a, b, bool_operand: np.logaddexp2(a, b), batch=elementwise,
                   node="Logaddexp2Backward0", save=lambda ans, x, y, bool_operand: (x, y, bool_operand),
                   vjp=(lambda g, x, y, b: g / (1 + 2 ** _difference(x, y, b)),
                        lambda g, x, y, b: g / (1 + 2 ** _difference(y, x, b))),
                   jvp=FROM_VJP)


def _has_bool(*operands):
    return any(isinstance(v, Tensor) and v._data.dtype.kind == "b" for v in operands)


def logaddexp(x, other, *, out=None):
    """``log(exp(x) + exp(other))``, exact where the exponentials would overflow."""
    if out is not None:
        return into(out, logaddexp, x, other)
    _tensors("logaddexp", ("input", x), ("other", other))
    bool_operand = _has_bool(x, other)
    x, other, dtype = common_operands(x, other, kernel="logaddexp_cpu")
    _real_kernel("logaddexp_cpu", dtype, "fc")
    return apply(LOGADDEXP, (x, other), (bool_operand,), dtype)


def logaddexp2(x, other, *, out=None):
    """``log2(2**x + 2**other)``."""
    if out is not None:
        return into(out, logaddexp2, x, other)
    _tensors("logaddexp2", ("input", x), ("other", other))
    bool_operand = _has_bool(x, other)
    x, other, dtype = common_operands(x, other, kernel="logaddexp2_cpu")
    _real_kernel("logaddexp2_cpu", dtype, "f")
    return apply(LOGADDEXP2, (x, other), (bool_operand,), dtype)



# --- heaviside: a step, without a derivative in PyTorch ----------------------------------------------


def _heaviside(x, values):
    return np.where(x == 0, values, x > 0).astype(np.result_type(x, values))


HEAVISIDE = _no_derivative("heaviside")


def heaviside(x, values):
    """0 where x < 0, 1 where x > 0, ``values`` where x == 0 (x and values of one dtype)."""
    _tensors("heaviside", ("input", x), ("values", values))
    if x._data.dtype.kind == "c" or values._data.dtype.kind == "c":
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if x.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    return without_derivative(HEAVISIDE, plain(_heaviside, (x, values)), (x, values))


# --- closeness: plain results -----------------------------------------------------------------


def _isclose(a, b, rtol, atol, equal_nan):
    # PyTorch's formula: equal, or both nan (equal_nan), or finitely within atol + rtol |b|
    close = a == b
    if equal_nan:
        close |= np.isnan(a) & np.isnan(b)
    if rtol == 0 and atol == 0:
        return close
    if a.dtype.kind not in "fc":  # integers are compared in the default float dtype
        a = a.astype(_dtype.get_default_dtype().np)
        b = b.astype(a.dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        difference = np.abs(a - b)
        return close | (np.isfinite(difference) & (difference <= atol + np.abs(rtol * b)))


def isclose(x, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """Whether ``x`` and ``other`` (same dtype) are within ``atol + rtol * |other|``."""
    _tensors("isclose", ("input", x), ("other", other))
    if x._data.dtype != other._data.dtype:
        raise RuntimeError(f"{type_name(x._data.dtype)} did not match {type_name(other._data.dtype)}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    return plain(_isclose, (x, other), rtol, atol, equal_nan)


def allclose(x, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``isclose(...).all()`` as a Python bool."""
    return bool(isclose(x, other, rtol, atol, equal_nan)._data.all())


def equal(x, other):
    """Same shape and same values (in any dtypes); nan never equals nan."""
    return x._data.shape == other._data.shape and bool((x._data == other._data).all())


# --- logic and shifts: plain results ---------------------------------------------------------


def _logical(fn, name, x, other):
    _tensors(name, ("input", x), ("other", other))
    if promoted((x, other)) is _dtype.COMPLEX_HALF:  # its kernel has no complex32
        raise not_implemented_for(f"{name}_cpu", _dtype.COMPLEX_HALF)
    return plain(fn, (x, other))


def logical_and(x, other, *, out=None):
    if out is not None:
        return into(out, logical_and, x, other)
    return _logical(np.logical_and, "logical_and", x, other)


def logical_or(x, other, *, out=None):
    if out is not None:
        return into(out, logical_or, x, other)
    return _logical(np.logical_or, "logical_or", x, other)


def logical_xor(x, other, *, out=None):
    if out is not None:
        return into(out, logical_xor, x, other)
    return _logical(np.logical_xor, "logical_xor", x, other)


def _left_shift(a, shift):
    # PyTorch: shifting by a negative count or by the width or more gives 0
    bits = a.dtype.itemsize * 8
    out = np.left_shift(a, np.clip(shift, 0, bits - 1).astype(a.dtype))
    return np.where((shift < 0) | (shift >= bits), np.zeros((), a.dtype), out)


def _right_shift(a, shift):
    # PyTorch: a negative count (as a signed number: uint8 200 is -56), or the width or more,
    # leaves the sign: 0 or -1 for signed dtypes, 0 for unsigned ones
    bits = a.dtype.itemsize * 8
    negative = shift.astype(a.dtype.str.replace("u", "i"), copy=False) < 0
    if a.dtype.kind == "u":
        out = np.right_shift(a, np.clip(shift, 0, bits - 1).astype(a.dtype))
        return np.where(negative | (shift >= bits), np.zeros((), a.dtype), out)
    shift = np.where(negative | (shift >= bits), bits - 1, shift)
    return np.right_shift(a, shift.astype(a.dtype))


def _shift(fn, kernel, x, other):
    x, other, dtype = common_operands(x, other, kernel=kernel)
    if dtype.kind not in "iu":
        raise not_implemented_for(kernel, dtype)
    return plain(fn, (x, other), dtype=dtype)


def bitwise_left_shift(x, other):
    """``x << other``."""
    return _shift(_left_shift, "lshift_cpu", x, other)


def bitwise_right_shift(x, other):
    """``x >> other``, arithmetic (the sign bit fills in)."""
    return _shift(_right_shift, "rshift_cpu", x, other)


# --- in-place comparisons: recorded, with zero gradients -------------------------------------


def _zero(g, *_):
    return zeros_like(g)


def _comparison_inplace(name, fn, kernel, number_node, tensor_node):
    """``x.eq_(other)`` and co: x takes the comparison's values (0 and 1 in x's dtype).
    Unlike ``eq``, PyTorch records this (EqBackward0 for a number, EqBackward1 for a
    tensor), with zero gradients: the history of x before it no longer counts."""
    number_op = defop(f"{name}_number_inplace", lambda x, s: fn(x, s).astype(x.dtype), node=number_node,
                      vjp=_zero, jvp=_zero, elementwise=True, number_operand=True)
    tensor_op = defop(f"{name}_inplace", lambda x, y, common: fn(x.astype(common, copy=False), y.astype(common, copy=False))
                      .astype(x.dtype), batch=elementwise, node=tensor_node, vjp=(_zero, _zero), jvp=(_zero, _zero))

    def compute(x, other):
        other = operand(other)
        if kernel is not None and (_is_complex(x) or _is_complex(other)):
            raise not_implemented_for(kernel, promoted((x, other)))
        if (_is_complex(x) or _is_complex(other)) and promoted((x, other)) is _dtype.COMPLEX_HALF:
            return apply(tensor_op, (x, _as_complex32(other)), (np.dtype(np.complex64),))  # as ``eq``
        if is_tensor(other):  # compared in the promoted dtype, as ``eq``
            return apply(tensor_op, (x, other), (_dtype.result_dtype((x, other)).np,))
        return unary(number_op, x, (_scalar_operand(x, other)[0],))
    compute.__name__ = name
    return compute


_eq = _comparison_inplace("eq", np.equal, None, "EqBackward0", "EqBackward1")
_ne = _comparison_inplace("ne", np.not_equal, None, "NeBackward0", "NeBackward1")
_lt = _comparison_inplace("lt", np.less, "lt_cpu", "LtBackward0", "LtBackward1")
_le = _comparison_inplace("le", np.less_equal, "le_cpu", "LeBackward0", "LeBackward1")
_gt = _comparison_inplace("gt", np.greater, "gt_cpu", "GtBackward0", "GtBackward1")
_ge = _comparison_inplace("ge", np.greater_equal, "ge_cpu", "GeBackward0", "GeBackward1")
BROADCASTING.update((_eq, _ne, _lt, _le, _gt, _ge))  # TensorIterator ops: the shape first


# --- Tensor methods --------------------------------------------------------------------------------

for _fn in (fmod, hypot, bitwise_left_shift, bitwise_right_shift):
    promoting(_fn)
for _fn in (atan2, copysign, xlogy):  # floating results
    promoting(_fn, floating=True)

Tensor.fmod = fmod
Tensor.fmod_ = inplace_method(fmod, "fmod_")
Tensor.float_power = float_power
Tensor.float_power_ = _float_power_inplace
Tensor.atan2 = tensor_method(atan2, "atan2", "other")
Tensor.arctan2 = tensor_method(atan2, "arctan2", "other")
Tensor.atan2_ = Tensor.arctan2_ = tensor_method(inplace_method(atan2, "atan2_"), "atan2_", "other")
Tensor.hypot = tensor_method(hypot, "hypot", "other")
Tensor.hypot_ = tensor_method(inplace_method(hypot, "hypot_"), "hypot_", "other")
Tensor.maximum = tensor_method(maximum, "maximum", "other")
Tensor.minimum = tensor_method(minimum, "minimum", "other")
Tensor.fmax = tensor_method(fmax, "fmax", "other")
Tensor.fmin = tensor_method(fmin, "fmin", "other")
Tensor.copysign = copysign
Tensor.copysign_ = inplace_method(copysign, "copysign_")
Tensor.xlogy = xlogy
Tensor.xlogy_ = inplace_method(xlogy, "xlogy_")
Tensor.logaddexp = tensor_method(logaddexp, "logaddexp", "other")
Tensor.logaddexp2 = tensor_method(logaddexp2, "logaddexp2", "other")
Tensor.heaviside = tensor_method(heaviside, "heaviside", "values")
Tensor.heaviside_ = tensor_method(inplace_method(heaviside, "heaviside_"), "heaviside_", "values")
Tensor.eq_ = inplace_method(_eq, "eq_")
Tensor.ne_ = Tensor.not_equal_ = inplace_method(_ne, "ne_")
Tensor.lt_ = Tensor.less_ = inplace_method(_lt, "lt_")
Tensor.le_ = Tensor.less_equal_ = inplace_method(_le, "le_")
Tensor.gt_ = Tensor.greater_ = inplace_method(_gt, "gt_")
Tensor.ge_ = Tensor.greater_equal_ = inplace_method(_ge, "ge_")
Tensor.isclose = tensor_method(isclose, "isclose", "other")
Tensor.allclose = tensor_method(allclose, "allclose", "other")
Tensor.logical_and = tensor_method(logical_and, "logical_and", "other")
Tensor.logical_and_ = tensor_method(inplace_method(logical_and, "logical_and_"), "logical_and_", "other")
Tensor.logical_or = tensor_method(logical_or, "logical_or", "other")
Tensor.logical_or_ = tensor_method(inplace_method(logical_or, "logical_or_"), "logical_or_", "other")
Tensor.logical_xor = tensor_method(logical_xor, "logical_xor", "other")
Tensor.logical_xor_ = tensor_method(inplace_method(logical_xor, "logical_xor_"), "logical_xor_", "other")
Tensor.bitwise_left_shift = Tensor.__lshift__ = bitwise_left_shift
Tensor.bitwise_left_shift_ = Tensor.__ilshift__ = inplace_method(bitwise_left_shift, "bitwise_left_shift_")
Tensor.__rlshift__ = lambda self, other: bitwise_left_shift(other, self)
Tensor.bitwise_right_shift = Tensor.__rshift__ = bitwise_right_shift
Tensor.bitwise_right_shift_ = Tensor.__irshift__ = inplace_method(bitwise_right_shift, "bitwise_right_shift_")
Tensor.__rrshift__ = lambda self, other: bitwise_right_shift(other, self)
