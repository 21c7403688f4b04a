"""Special functions: the error function, the gamma family and modified Bessel functions.

Same layout as ``unary``: NumPy kernels first, then one ``defop`` entry per op with its
public function, then the Tensor methods. Every gradient is another special function
(``lgamma' = digamma``, ``digamma' = polygamma(1, .)``, ``i0' = i1``...), so the rules
are one line each and differentiable again.

Values agree with PyTorch's CPU results to about float64 rounding. There erf, erfc and
erfinv (MKL) and lgamma (the C library) are exact to rounding, and so are ours, up to
1e-14 relative (lgamma: 1e-15 absolute next to its zeros at negative x). digamma,
polygamma and the Bessel functions follow the algorithms of ATen/native/Math.h (mostly
Cephes'), vectorised, including where those are less exact (trigamma: about 1e-10).
Kernels compute in float64; float16/float32 inputs are rounded back at the end. Integer
and bool inputs give the default dtype, as in PyTorch:

>>> chainrule.lgamma(chainrule.tensor([0.5, 1, 3]))
tensor([0.5724, 0.0000, 0.6931])

Cephes: Copyright (c) 2018, Steven Moshier, 3-clause BSD licence (see PyTorch's
Note [3-Clause BSD License for the Cephes Math Library]).
"""
import math

import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import Tensor
from .elementwise import where
from ..operands import _float_input, _float_result
from ..methods import inplace_method
from ..registry import FROM_VJP, defop, into, unary
from .trigonometry import even_series, near_zero_split

def _real_only(x, kernel):
    """PyTorch has no complex kernels for these functions; say so as it does."""
    if x._data.dtype.kind == "c":
        raise _dtype.not_implemented(kernel, x._data.dtype)


def _in_float64(kernel):
    """The forward of an op whose ``kernel`` works on flat float64 arrays: floating
    inputs keep their dtype, others give float64 (the registry casts to the default)."""
    def forward(x, *params):
        dtype = x.dtype if x.dtype.kind == "f" else np.float64
        with np.errstate(all="ignore"):  # poles and overflow give inf/nan, silently
            out = kernel(np.asarray(x, dtype=np.float64).ravel(), *params)
            return np.asarray(out, dtype=dtype).reshape(x.shape)
    forward.__name__ = kernel.__name__
    return forward


def _polevl(z, coefficients):
    # Horner's rule, highest power first (Cephes' polevl)
    result = np.zeros_like(z)
    for c in coefficients:
        result = result * z + c
    return result


# --- kernels: error function ------------------------------------------------------------

_ERF = np.frompyfunc(math.erf, 1, 1)  # the C library's erf, as PyTorch's
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _erf(x):
    return _ERF(x).astype(np.float64)


def _erfc(x):
    return _ERFC(x).astype(np.float64)


_TWO_OVER_SQRT_PI = 2 * 0.5641895835477563  # 2/sqrt(pi), rounded as PyTorch rounds it


def _erfinv(y):
    """Pavlis' rational first guess (erfinv.m, as in PyTorch's Math.h) and Newton steps.
    PyTorch (through MKL) is exact to rounding, so in the tails, where erf(x) - y would
    cancel, the steps solve erfc(x) = 1 - |y| instead: 1 - |y| is exact there."""
    a = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
    b = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
    c = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
    d = (3.543889200, 1.637067800)
    y_abs = np.abs(y)
    z = y * y
    central = y * (((a[3] * z + a[2]) * z + a[1]) * z + a[0]) / \
        ((((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0)
    z = np.sqrt(-np.log((1.0 - y_abs) / 2.0))
    tail = (((c[3] * z + c[2]) * z + c[1]) * z + c[0]) / ((d[1] * z + d[0]) * z + 1.0)
    x = np.where(y_abs <= 0.7, np.abs(central), tail)  # |erfinv(y)|; the sign comes last
    in_tail = y_abs > 0.5
    for _ in range(3):
        excess = np.empty_like(x)  # erf(x) - |y|, each entry computed the exact way
        excess[in_tail] = (1.0 - y_abs[in_tail]) - _erfc(x[in_tail])
        excess[~in_tail] = _erf(x[~in_tail]) - y_abs[~in_tail]
        x = x - excess / (_TWO_OVER_SQRT_PI * np.exp(-x * x))
    x = np.where(y_abs == 1, np.inf, x)
    return np.where(y_abs > 1, np.nan, np.copysign(x, y))

# --- kernels: gamma family ------------------------------------------------------------

_MACHEP = 1.11022302462515654042e-16
# Euler-Maclaurin coefficients (2k)!/B_2k of Cephes' zeta
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)


def _zeta(x, q):
    """Hurwitz zeta, sum over k >= 0 of (q + k)^-x, as Cephes computes it (and PyTorch's
    polygamma): the terms summed directly until q + k > 9, then Euler-Maclaurin."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    pole = (q <= 0) & (q == np.floor(q))
    out = np.where((x == 1) | ((x > 1) & pole), np.inf, np.nan)
    ok = (x > 1) & ~pole & ~((q <= 0) & (x != np.floor(x)))
    out[ok] = _zeta_sum(x[ok], q[ok])
    return out


def _zeta_sum(x, q):
    s = q ** -x
    a, b = q.copy(), np.zeros_like(q)
    done = np.zeros(q.shape, bool)
    live = np.arange(q.size)  # entries still summing terms; each stops on its own
    i = 0
    while live.size:
        i += 1
        a[live] += 1
        b[live] = a[live] ** -x[live]
        s[live] += b[live]
        done[live] = (-_MACHEP * s[live] < b[live]) & (b[live] < _MACHEP * s[live])
        live = live[~done[live] & ((i < 9) | (a[live] <= 9))]
    tail = ~done
    s[tail] = _zeta_tail(x[tail], a[tail], b[tail], s[tail])
    return s


def _zeta_tail(x, w, b, s):
    """The Euler-Maclaurin remainder after the last term ``b = w^-x``."""
    s = s + b * w / (x - 1)
    s = s - 0.5 * b
    a, k = np.ones_like(x), 0.0
    adding = np.ones(x.shape, bool)  # Cephes stops at the first negligible correction
    for coefficient in _ZETA_A:
        a = a * (x + k)
        b = b / w
        t = a * b / coefficient
        s = np.where(adding, s + t, s)
        adding &= ~(np.abs(t / s) < _MACHEP)
        k += 1
        a = a * (x + k)
        b = b / w
        k += 1
    return s


_EULER = 0.5772156649015329  # the Euler-Mascheroni constant, -digamma(1)
_K = np.arange(2, 31)
# Taylor coefficients of lgamma about 1, (-1)^k zeta(k)/k, and about 2, (-1)^k (zeta(k) - 1)/k
# (Hurwitz zeta(k, 2) is zeta(k) - 1 without the cancellation), for k >= 2
_LGAMMA_AT_1 = (-1.0) ** _K * _zeta(_K, 1.0) / _K
_LGAMMA_AT_2 = (-1.0) ** _K * _zeta(_K, 2.0) / _K
_LGAMMA = np.frompyfunc(math.lgamma, 1, 1)


def _lgamma(x):
    """math.lgamma, except: inf at the poles (it raises), Stirling's leading terms where it
    would overflow, and Taylor series about its zeros at 1 and 2, where its result is only
    good to about 1e-16 absolute and PyTorch's C library is good to 1e-16 relative."""
    pole = (x <= 0) & (x == np.floor(x))
    huge = x > 1e300
    out = np.where(pole, np.inf, x * (np.log(x) - 1))
    rest = ~pole & ~huge
    out[rest] = _LGAMMA(x[rest])
    for root, c1, coefficients in ((1.0, -_EULER, _LGAMMA_AT_1), (2.0, 1 - _EULER, _LGAMMA_AT_2)):
        near = np.abs(x - root) < 0.25
        z = x[near] - root
        out[near] = z * (c1 + z * _polevl(z, coefficients[::-1])) + 0.0  # +0, not -0, at 1
    return out


_PSI_10 = 2.25175258906672110764  # digamma(10)
_DIGAMMA_A = (8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
              -4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
              8.33333333333333333333e-2)


def _digamma(x):
    """Cephes' digamma: reflection for x < 0, the recurrence up to x >= 10, then the
    asymptotic series. Nan at the negative integers, -inf at +0 and +inf at -0."""
    negative = x < 0
    # pi/tan(pi r) with r the fractional part: more exact than tan(pi x) for large |x|
    reflection = np.where(negative, np.pi / np.tan(np.pi * np.fmod(x, 1.0)), 0.0)
    z = np.where(negative, 1 - x, x)
    result = np.zeros_like(z)
    for _ in range(10):
        small = z < 10
        result = np.where(small, result - 1 / z, result)
        z = np.where(small, z + 1, z)
    zz = 1 / (z * z)
    series = np.where(z < 1e17, zz * _polevl(zz, _DIGAMMA_A), 0.0)
    out = np.where(z == 10, result + _PSI_10, result + np.log(z) - 0.5 / z - series) - reflection
    out = np.where(x == 0, np.copysign(np.inf, -x), out)
    return np.where(negative & (x == np.trunc(x)), np.nan, out)


def _trigamma(x):
    """PyTorch's trigamma: reflection below 1/2, six recurrence steps, a short asymptotic
    series (so good to about 1e-10, not to float64 rounding)."""
    reflect = x < 0.5
    sin_pi_x = np.sin(np.pi * x)
    result = np.where(reflect, -(np.pi * np.pi) / (sin_pi_x * sin_pi_x), 0.0)
    x = np.where(reflect, 1 - x, x)
    for _ in range(6):
        result = result + 1 / (x * x)
        x = x + 1
    ixx = 1 / (x * x)
    result = result + (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x
    return np.where(reflect, -result, result)


def _polygamma(x, n):
    if n == 0:
        return _digamma(x)
    if n == 1:
        return _trigamma(x)
    # psi^(n)(x) = (-1)^(n+1) n! zeta(n+1, x)
    return (1.0 if n % 2 else -1.0) * np.exp(math.lgamma(n + 1)) * _zeta(n + 1, x)


def _mvlgamma_shifts(p):
    # -(p-1)/2, ..., -1/2, +0 (+0 as PyTorch: x + 0 turns -0 into +0, a pole's other side)
    return np.arange(-p * 0.5 + 0.5, 0.5, 0.5)


def _mvlgamma(x, p):
    # log of the multivariate gamma: sum of lgamma(x - j/2), j < p, plus p(p-1)/4 log(pi); the
    # arguments x - j/2 rounded to x's dtype, as PyTorch adds them (near a pole that rounding shows)
    with np.errstate(all="ignore"):
        shifted = (x[..., None] + _mvlgamma_shifts(p).astype(x.dtype)).astype(np.float64)
        out = _lgamma(shifted.ravel()).reshape(shifted.shape).sum(-1) + p * (p - 1) * math.log(math.pi) / 4
    return out.astype(x.dtype)


# --- kernels: modified Bessel functions --------------------------------------------------

# Cephes' Chebyshev coefficients: exp(-x) I0(x) on [0, 8] (A), exp(-x) sqrt(x) I0(x) on
# [8, inf) (B), and the same for I1 (exp(-x) I1(x) / x on [0, 8])
_I0_A = (-4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
         1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
         -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
         9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
         -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
         1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
         -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
         1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
         -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
         1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1)
_I0_B = (-7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
         3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
         1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
         -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
         7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
         -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
         3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
         2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
         8.04490411014108831608e-1)
_I1_A = (2.77791411276104639959e-18, -2.11142121435816608115e-17, 1.55363195773620046921e-16,
         -1.10559694773538630805e-15, 7.60068429473540693410e-15, -5.04218550472791168711e-14,
         3.22379336594557470981e-13, -1.98397439776494371520e-12, 1.17361862988909016308e-11,
         -6.66348972350202774223e-11, 3.62559028155211703701e-10, -1.88724975172282928790e-9,
         9.38153738649577178388e-9, -4.44505912879632808065e-8, 2.00329475355213526229e-7,
         -8.56872026469545474066e-7, 3.47025130813767847674e-6, -1.32731636560394358279e-5,
         4.78156510755005422638e-5, -1.61760815825896745588e-4, 5.12285956168575772895e-4,
         -1.51357245063125314899e-3, 4.15642294431288815669e-3, -1.05640848946261981558e-2,
         2.47264490306265168283e-2, -5.29459812080949914269e-2, 1.02643658689847095384e-1,
         -1.76416518357834055153e-1, 2.52587186443633654823e-1)
_I1_B = (7.51729631084210481353e-18, 4.41434832307170791151e-18, -4.65030536848935832153e-17,
         -3.20952592199342395980e-17, 2.96262899764595013876e-16, 3.30820231092092828324e-16,
         -1.88035477551078244854e-15, -3.81440307243700780478e-15, 1.04202769841288027642e-14,
         4.27244001671195135429e-14, -2.10154184277266431302e-14, -4.08355111109219731823e-13,
         -7.19855177624590851209e-13, 2.03562854414708950722e-12, 1.41258074366137813316e-11,
         3.25260358301548823856e-11, -1.89749581235054123450e-11, -5.58974346219658380687e-10,
         -3.83538038596423702205e-9, -2.63146884688951950684e-8, -2.51223623787020892529e-7,
         -3.88256480887769039346e-6, -1.10588938762623716291e-4, -9.76109749136146840777e-3,
         7.78576235018280120474e-1)


def _chbevl(x, coefficients):
    # Clenshaw's recurrence for a Chebyshev series (Cephes' chbevl)
    b0, b1, b2 = np.full_like(x, coefficients[0]), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def _chebyshev_fits(x, small, large):
    """|x|, where |x| <= 8, and Cephes' two Chebyshev fits at |x| (for [0, 8] and beyond)."""
    ax = np.abs(x)
    return ax, ax <= 8, _chbevl(ax / 2.0 - 2.0, small), _chbevl(32.0 / ax - 2.0, large)


def _i0(x):
    ax, inner, near, far = _chebyshev_fits(x, _I0_A, _I0_B)
    return np.where(inner, np.exp(ax) * near, np.exp(ax) * far / np.sqrt(ax))


def _i0e(x):
    ax, inner, near, far = _chebyshev_fits(x, _I0_A, _I0_B)
    return np.where(inner, near, far / np.sqrt(ax))


def _i1(x):
    ax, inner, near, far = _chebyshev_fits(x, _I1_A, _I1_B)
    out = np.where(inner, np.exp(ax) * ax * near, np.exp(ax) * far / np.sqrt(ax))
    return np.where(x < 0, -out, out)  # odd


_FLOAT32_EXP_LIMIT = float(np.log(np.finfo(np.float32).max))


def _float32_exp_overflow(forward):
    """PyTorch computes float32 i0 and i1 as exp(|x|) times a fit, in float32: inf once
    exp(|x|) overflows at |x| = 88.72, though I0 itself stays finite to |x| = 91.9. An
    integer input is computed in the default dtype, float32 too unless set otherwise."""
    def wrapped(x):
        out = forward(x)
        if (x.dtype.itemsize <= 4 if x.dtype.kind == "f" else _dtype.get_default_dtype().np == np.float32):
            overflow = (np.abs(x) > _FLOAT32_EXP_LIMIT) & np.isfinite(x)
            out = np.where(overflow, np.copysign(np.inf, out), out)
        return out
    wrapped.__name__ = forward.__name__
    return wrapped


def _i1e(x):
    ax, inner, near, far = _chebyshev_fits(x, _I1_A, _I1_B)
    out = np.where(inner, near * ax, far / np.sqrt(ax))
    return np.where(x < 0, -out, out)


# --- error function -------------------------------------------------------------------------


def _erf_slope(x):
    # erf'(x) = 2/sqrt(pi) exp(-x^2), squared by pow as PyTorch's (its double backward's 2 x
    # overflows at the largest float: nan)
    return _TWO_OVER_SQRT_PI * (-x.pow(2)).exp()


ERF = defop("erf", _in_float64(_erf), node="ErfBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: g * _erf_slope(x), jvp=FROM_VJP, elementwise=True)


def erf(x, *, out=None):
    if out is not None:
        return into(out, erf, x)
    _real_only(x, "erf_vml_cpu")
    return unary(ERF, x, (), _float_result(x))


ERFC = defop("erfc", _in_float64(_erfc), node="ErfcBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: -g * _erf_slope(x), jvp=FROM_VJP, elementwise=True)


def erfc(x, *, out=None):
    if out is not None:
        return into(out, erfc, x)
    _real_only(x, "erfc_vml_cpu")
    return unary(ERFC, x, (), _float_result(x))


_SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2

# erfinv'(y) = 1 / erf'(erfinv(y)) = sqrt(pi)/2 exp(erfinv(y)^2): the output is all it needs
ERFINV = defop("erfinv", _in_float64(_erfinv), node="ErfinvBackward0", save=lambda ans, x: (ans,),
               vjp=lambda g, ans: g * (_SQRT_PI_OVER_2 * (ans * ans).exp()),
               jvp=FROM_VJP, elementwise=True)


def erfinv(x, *, out=None):
    if out is not None:
        return into(out, erfinv, x)
    _real_only(x, "erfinv_vml_cpu")
    return unary(ERFINV, x, (), _float_result(x))


# --- gamma family ------------------------------------------------------------------------------

LGAMMA = defop("lgamma", _in_float64(_lgamma), node="LgammaBackward0", save=lambda ans, x: (x,),
               vjp=lambda g, x: g * digamma(x), jvp=FROM_VJP, elementwise=True)


def lgamma(x, *, out=None):
    if out is not None:
        return into(out, lgamma, x)
    _real_only(x, "lgamma_vml_cpu")
    return unary(LGAMMA, x, (), _float_result(x))


DIGAMMA = defop("digamma", _in_float64(_digamma), node="DigammaBackward0", save=lambda ans, x: (x,),
                vjp=lambda g, x: g * polygamma(1, x), jvp=FROM_VJP,
                elementwise=True)


def digamma(x, *, out=None):
    if out is not None:
        return into(out, digamma, x)
    _real_only(x, "digamma")
    return unary(DIGAMMA, x, (), _float_result(x))


POLYGAMMA = defop("polygamma", _in_float64(_polygamma), node="PolygammaBackward0",
                  save=lambda ans, x, n: (x, n),
                  vjp=lambda g, x, n: g * polygamma(n + 1, x), jvp=FROM_VJP,
                  elementwise=True)


# ``x.polygamma_(n)`` is a separate overload in PyTorch, with a node name of its own
POLYGAMMA_INPLACE = defop("polygamma_inplace", POLYGAMMA.forward, node="PolygammaBackward1",
                          save=POLYGAMMA.save, vjp=POLYGAMMA.vjp, jvp=POLYGAMMA.jvp, elementwise=True)


def _order(n, x):
    """PyTorch's checks: ``n`` a non-negative int, ``x`` real."""
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise TypeError(f"polygamma(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    _real_only(x, ("digamma", "trigamma")[n] if n < 2 else "polygamma")  # the kernel PyTorch picks
    return int(n)


def polygamma(n, x):
    """The n-th derivative of digamma: ``polygamma(0, x)`` is ``digamma(x)``."""
    return unary(POLYGAMMA, x, (_order(n, x),), _float_result(x))


def _polygamma_method(x, n):
    # ``x.polygamma(n)``: the tensor comes first as a method
    return polygamma(n, x)


def _polygamma_inplace(x, n):
    return unary(POLYGAMMA_INPLACE, x, (_order(n, x),), _float_result(x))


_polygamma_method.__name__ = _polygamma_inplace.__name__ = "polygamma"


def _mvdigamma(x, p):
    # d/dx mvlgamma(x, p) = sum of digamma(x - j/2) over j < p
    terms = [digamma(x + float(shift)) for shift in _mvlgamma_shifts(p)]
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


MVLGAMMA = defop("mvlgamma", _mvlgamma, node="MvlgammaBackward0",
                 save=lambda ans, x, p: (x, p),
                 vjp=lambda g, x, p: g * _mvdigamma(x, p), jvp=FROM_VJP,
                 elementwise=True)


def mvlgamma(x, p):
    """Log of the multivariate gamma function of dimension ``p``."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if x._data.dtype.kind == "b":
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    _real_only(x, "arange_cpu")
    return unary(MVLGAMMA, _float_input(x), (int(p),))


# --- modified Bessel functions of the first kind ---------------------------------------------

I0 = defop("i0", _float32_exp_overflow(_in_float64(_i0)), node="I0Backward0", save=lambda ans, x: (x,),
           vjp=lambda g, x: g * i1(x), jvp=FROM_VJP, elementwise=True)


def i0(x, *, out=None):
    if out is not None:
        return into(out, i0, x)
    _real_only(x, "i0_vml_cpu")
    return unary(I0, x, (), _float_result(x))


def _safe_at_zero(x):
    """(|x| > eps, x with the other entries set to eps): i1' and i1e' are 0/0 at x = 0,
    where PyTorch (and we) use the limit 1/2 instead; so does a NaN, which is not > eps."""
    eps = float(np.finfo(x._data.dtype).eps)
    not_tiny = x.abs() > eps
    return not_tiny, where(not_tiny, x, eps)


# i1(x) = sum_k x^(2k+1) / (2 4^k k! (k+1)!) and its derivative, from k = 0 to 4: exact to
# rounding below |x| = 0.1, where i0 - i1/x cancels (its double backward, off by eps / x^2)
_I1_SERIES = tuple(1 / (2 * 4 ** k * math.factorial(k) * math.factorial(k + 1)) for k in range(5))
_I1_SLOPE_SERIES = tuple((2 * k + 1) * c for k, c in enumerate(_I1_SERIES))
_SERIES_BELOW = 0.1


def _i1_slope(x, ans):
    # i1' = i0 - i1/x, as PyTorch writes it, away from 0; its series near 0 (and PyTorch's 1/2
    # at nan, which is not > eps)
    near, small, away = near_zero_split(x, _SERIES_BELOW)
    not_tiny, safe = _safe_at_zero(away)
    far = where(not_tiny, i0(safe) - ans * safe.reciprocal(), 0.5)
    return where(near, even_series(_I1_SLOPE_SERIES, small * small), far)


I1 = defop("i1", _float32_exp_overflow(_in_float64(_i1)), node="SpecialI1Backward0", save=lambda ans, x: (x, ans),
           vjp=lambda g, x, ans: g * _i1_slope(x, ans), jvp=FROM_VJP,
           elementwise=True)


def i1(x):
    """``torch.special.i1``: the modified Bessel function of the first kind of order 1."""
    _real_only(x, "i1_cpu")
    return unary(I1, x, (), _float_result(x))


# i0e = exp(-|x|) i0, so i0e' = i1e - sign(x) i0e
I0E = defop("i0e", _in_float64(_i0e), node="SpecialI0EBackward0", save=lambda ans, x: (x, ans),
            vjp=lambda g, x, ans: g * (i1e(x) - x.sign() * ans),
            jvp=FROM_VJP, elementwise=True)


def i0e(x):
    """``torch.special.i0e``: ``i0`` scaled by exp(-|x|), finite where i0 overflows."""
    _real_only(x, "i0e_cpu")
    return unary(I0E, x, (), _float_result(x))


def _i1e_slope(x, ans):
    # i1e' = i0e - i1e (sign(x) + 1/x) away from 0; exp(-|x|) (i1' - sign(x) i1) by the series near it
    near, small, away = near_zero_split(x, _SERIES_BELOW)
    not_tiny, safe = _safe_at_zero(away)
    far = where(not_tiny, i0e(safe) - ans * (safe.sign() + safe.reciprocal()), 0.5)
    squared = small * small
    series = (-small.abs()).exp() * (even_series(_I1_SLOPE_SERIES, squared)
                                     - small.sign() * small * even_series(_I1_SERIES, squared))
    return where(near, series, far)


I1E = defop("i1e", _in_float64(_i1e), node="SpecialI1EBackward0", save=lambda ans, x: (x, ans),
            vjp=lambda g, x, ans: g * _i1e_slope(x, ans), jvp=FROM_VJP,
            elementwise=True)


def i1e(x):
    """``torch.special.i1e``: ``i1`` scaled by exp(-|x|)."""
    _real_only(x, "i1e_cpu")
    return unary(I1E, x, (), _float_result(x))


# --- Tensor methods --------------------------------------------------------------------------

Tensor.erf = erf
Tensor.erf_ = inplace_method(erf, "erf_")
Tensor.erfc = erfc
Tensor.erfc_ = inplace_method(erfc, "erfc_")
Tensor.erfinv = erfinv
Tensor.erfinv_ = inplace_method(erfinv, "erfinv_")
Tensor.lgamma = lgamma
Tensor.lgamma_ = inplace_method(lgamma, "lgamma_")
Tensor.digamma = digamma
Tensor.digamma_ = inplace_method(digamma, "digamma_")
Tensor.polygamma = _polygamma_method
Tensor.polygamma_ = inplace_method(_polygamma_inplace, "polygamma_")
Tensor.mvlgamma = mvlgamma
Tensor.mvlgamma_ = inplace_method(mvlgamma, "mvlgamma_")
Tensor.i0 = i0
Tensor.i0_ = inplace_method(i0, "i0_")
