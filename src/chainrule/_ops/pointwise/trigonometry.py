"""Inverse and hyperbolic trigonometry (asin ... atanh, sinh, cosh), and the functions near
them: logit, sinc (its slope by a series near 0), deg2rad and rad2deg.

Each op is a ``defop`` entry (see ``registry``) followed by its public function, as in
``unary``, whose functions these build on.
"""
import numpy as np

from ..._core import dtype as _dtype
from ..._core.modes import GRAD_MODE
from ..._core.tensor import Tensor, is_tensor
from .elementwise import where
from ..operands import _float_input
from ..methods import inplace_method
from ..registry import FROM_VJP, defop, into, unary
from .unary import abs, cos, rsqrt


ASIN = defop("asin", np.arcsin, node="AsinBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g * rsqrt(1 - x * x).conj(), jvp=FROM_VJP,
             elementwise=True)


def asin(x, *, out=None):
    if out is not None:
        return into(out, asin, x)
    return unary(ASIN, _float_input(x))


def _acos(x):
    # PyTorch's complex128 acos is pi/2 - asin(z), whose zero imaginary parts are +0 (C's
    # cacos, its complex64 acos, gives -0 on the real segment): adding 0 turns -0 into +0
    return np.arccos(x) + 0 if x.dtype == np.complex128 else np.arccos(x)


ACOS = defop("acos", _acos, node="AcosBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: -g * rsqrt(1 - x * x).conj(), jvp=FROM_VJP,
             elementwise=True)


def acos(x, *, out=None):
    if out is not None:
        return into(out, acos, x)
    return unary(ACOS, _float_input(x))


ATAN = defop("atan", np.arctan, node="AtanBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g / (1 + x * x).conj(), jvp=FROM_VJP, elementwise=True)


def atan(x, *, out=None):
    if out is not None:
        return into(out, atan, x)
    return unary(ATAN, _float_input(x))


SINH = defop("sinh", np.sinh, node="SinhBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g * cosh(x).conj(), jvp=FROM_VJP, elementwise=True)


def sinh(x, *, out=None):
    if out is not None:
        return into(out, sinh, x)
    return unary(SINH, _float_input(x))


COSH = defop("cosh", np.cosh, node="CoshBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g * sinh(x).conj(), jvp=FROM_VJP, elementwise=True)


def cosh(x, *, out=None):
    if out is not None:
        return into(out, cosh, x)
    return unary(COSH, _float_input(x))


# asinh's and atanh's rules square by pow, as PyTorch's: its double backward 2 x overflows
# (0 * inf: nan) where x * x's g * x + g * x does not
ASINH = defop("asinh", np.arcsinh, node="AsinhBackward0", save=lambda ans, x: (x,),
              vjp=lambda g, x: g * rsqrt(x.pow(2) + 1).conj(), jvp=FROM_VJP,
              elementwise=True)


def asinh(x, *, out=None):
    if out is not None:
        return into(out, asinh, x)
    return unary(ASINH, _float_input(x))


ACOSH = defop("acosh", np.arccosh, node="AcoshBackward0", save=lambda ans, x: (x,),  # PyTorch's (x^2 - 1)^-1/2
              vjp=lambda g, x: g * rsqrt(x * x - 1).conj(),
              jvp=FROM_VJP, elementwise=True)


def acosh(x, *, out=None):
    if out is not None:
        return into(out, acosh, x)
    return unary(ACOSH, _float_input(x))


ATANH = defop("atanh", np.arctanh, node="AtanhBackward0", save=lambda ans, x: (x,),
              vjp=lambda g, x: g / (1 - x.pow(2)).conj(), jvp=FROM_VJP, elementwise=True)


def atanh(x, *, out=None):
    if out is not None:
        return into(out, atanh, x)
    return unary(ATANH, _float_input(x))


arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh


def _logit(x, eps):
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    return np.log(x / (1 - x))


def _logit_grad(g, x, eps):
    # PyTorch's where: outside [0, 1] (or the clamp's [eps, 1 - eps]) the slope is nan (or 0),
    # nan inputs included, and the masked branch gets no gradient in double backward
    lo = 0.0 if eps is None else eps
    inside = (x >= lo) & (x <= 1.0 - lo)
    denominator = x * (1 - x)
    if not GRAD_MODE.enabled:
        # PyTorch's kernel (a backward without create_graph): g * inf at 0 and 1 element by
        # element, so +inf at -0. (+ 0.0 turns -0. to +0.); its vectorised loop divides
        # (docs/differences.md). With create_graph its formula divides, as here.
        denominator = denominator + 0.0
    return where(inside, g / denominator, np.nan if eps is None else 0.0)


LOGIT = defop("logit", _logit, node="LogitBackward0", save=lambda ans, x, eps: (x, eps),
              vjp=_logit_grad, jvp=_logit_grad, elementwise=True)


def logit(x, eps=None, *, out=None):
    if out is not None:
        return into(out, logit, x, eps=eps)
    x = _float_input(x)
    if x._data.dtype.kind == "c":
        raise _dtype.not_implemented("logit_cpu", x._data.dtype)
    return unary(LOGIT, x, (eps,))


# sinc'(x) about 0, the odd series sum_k (-1)^k 2k pi^2k x^(2k-1) / (2k+1)!, from x^1 to x^9
_SINC_SLOPE_SERIES = (-np.pi ** 2 / 3, np.pi ** 4 / 30, -np.pi ** 6 / 840, np.pi ** 8 / 45360, -np.pi ** 10 / 3991680)


def near_zero_split(x, below):
    """(|x| < below, x there and 0 elsewhere, x elsewhere and 1 there): for a derivative
    taken by a Taylor series near 0 and a closed form away from it, each evaluated only where
    it is taken, so neither leaks an overflow (0 * inf = nan) into the other's derivative."""
    near = abs(x) < below
    return near, where(near, x, 0.0), where(near, 1.0, x)


def even_series(coefficients, squared):
    """sum_k coefficients[k] squared^k, by Horner's rule (a series in x^2)."""
    out = coefficients[-1]
    for c in coefficients[-2::-1]:
        out = c + squared * out
    return out


def _sinc_grad(g, x):
    # d/dx sin(pi x)/(pi x) = (cos(pi x) - sinc(x)) / x: 0/0 at x = 0, and below |x| = 0.05 the
    # difference cancels (its derivative, double backward, is off by up to pi^2 near 0). There
    # the series instead, exact to rounding there, and differentiable to any order.
    near, small, safe = near_zero_split(x, 0.05)
    series = small * even_series(_SINC_SLOPE_SERIES, small * small)
    return g * where(near, series, (cos(safe * np.pi) - sinc(safe)) / safe).conj()


def _np_sinc(x):
    """sin(pi x) / (pi x); float16 in float32, PyTorch's opmath (pi x of 65504 overflows float16: nan)."""
    return np.sinc(x.astype(np.float32)).astype(np.float16) if x.dtype == np.float16 else np.sinc(x)


SINC = defop("sinc", _np_sinc, node="SincBackward0", save=lambda ans, x: (x,),
             vjp=_sinc_grad, jvp=_sinc_grad, elementwise=True)


def sinc(x, *, out=None):
    if out is not None:
        return into(out, sinc, x)
    return unary(SINC, _float_input(x))


DEG2RAD = defop("deg2rad", np.deg2rad, node="Deg2RadBackward0",
                vjp=lambda g: g * (np.pi / 180), jvp=FROM_VJP, elementwise=True)


def deg2rad(x, *, out=None):
    if out is not None:
        return into(out, deg2rad, x)
    _no_complex_angle(x, "deg2rad")
    return unary(DEG2RAD, _float_input(x))


def _no_complex_angle(x, name):
    if is_tensor(x) and x._data.dtype.kind == "c":
        raise RuntimeError(f"{name} is not supported for complex tensors.")


RAD2DEG = defop("rad2deg", np.rad2deg, node="Rad2DegBackward0",
                vjp=lambda g: g * (180 / np.pi), jvp=FROM_VJP, elementwise=True)


def rad2deg(x, *, out=None):
    if out is not None:
        return into(out, rad2deg, x)
    _no_complex_angle(x, "rad2deg")
    return unary(RAD2DEG, _float_input(x))


# --- Tensor methods --------------------------------------------------------------------------

Tensor.asin = Tensor.arcsin = asin
Tensor.asin_ = Tensor.arcsin_ = inplace_method(asin, "asin_")
Tensor.acos = Tensor.arccos = acos
Tensor.acos_ = Tensor.arccos_ = inplace_method(acos, "acos_")
Tensor.atan = Tensor.arctan = atan
Tensor.atan_ = Tensor.arctan_ = inplace_method(atan, "atan_")
Tensor.sinh = sinh
Tensor.sinh_ = inplace_method(sinh, "sinh_")
Tensor.cosh = cosh
Tensor.cosh_ = inplace_method(cosh, "cosh_")
Tensor.asinh = Tensor.arcsinh = asinh
Tensor.asinh_ = Tensor.arcsinh_ = inplace_method(asinh, "asinh_")
Tensor.acosh = Tensor.arccosh = acosh
Tensor.acosh_ = Tensor.arccosh_ = inplace_method(acosh, "acosh_")
Tensor.atanh = Tensor.arctanh = atanh
Tensor.atanh_ = Tensor.arctanh_ = inplace_method(atanh, "atanh_")
Tensor.logit = logit
Tensor.logit_ = inplace_method(logit, "logit_")
Tensor.sinc = sinc
Tensor.sinc_ = inplace_method(sinc, "sinc_")
Tensor.deg2rad = deg2rad
Tensor.deg2rad_ = inplace_method(deg2rad, "deg2rad_")
Tensor.rad2deg = rad2deg
Tensor.rad2deg_ = inplace_method(rad2deg, "rad2deg_")
