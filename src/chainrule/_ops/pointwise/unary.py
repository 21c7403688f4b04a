"""Pointwise unary maths: exp, log, trigonometry, rounding and friends.

Each op is a ``defop`` entry (see ``registry``) followed by its public function. The
rules are one-liners from calculus; ``elementwise=True`` tells the registry that the
output has the input's shape, so nothing needs reducing in backward.

Ops that PyTorch computes in floating point (``sin``, ``exp``...) take
``_float_input(x)``: bool and integer tensors are cast to the default dtype first, so the
result has that dtype and NumPy computes in it.

Predicates (``isnan``, ``signbit``...) give plain bool tensors, at the end.
"""
import numpy as np

from ..._core import arguments as _argparse, dtype as _dtype
from ..._core.arguments import NUMBERS
from ..._core.tensor import Tensor, _wrap, is_tensor, tensor_methods
from .elementwise import imag, real, where, zeros_like
from ..operands import _float_input, _scalar_result, _tensor_result, not_implemented_for, plain, promoted
from ..methods import inplace_method
from ..batching import elementwise
from ..registry import FROM_VJP, apply, binary, broadcast_error, defop, found_dtype, into, unary

# --- unary maths ----------------------------------------------------------------------

def _abs_slope(x):
    # sgn(z) = z / |z| for complex z (itself differentiable), sign(x) for real x
    return sgn(x) if x._data.dtype.kind == "c" else sign(x)


def _abs_tangent(t, x):
    # |z| moves by the part of t along z: Re(conj(sgn z) t), a real tangent
    if x._data.dtype.kind == "c":
        return real(t * sgn(x).conj())
    return t * sign(x)


ABS = defop("abs", np.abs, node="AbsBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: g * _abs_slope(x), jvp=_abs_tangent, elementwise=True)


def abs(x, *, out=None):
    if out is not None:  # complex x: a real result, which may be cast
        return into(out, abs, x, exact=None if x._data.dtype.kind == "c" else found_dtype)
    if x._data.dtype.kind == "b":
        raise not_implemented_for("abs_cpu", x._data.dtype)
    return unary(ABS, x)


def _sign(x):
    """PyTorch's sign: (0 < x) - (x < 0), so nan has sign 0; sgn of complex z is z / |z|
    (0 at 0), divided as complex numbers: inf parts give nan + nanj."""
    if x.dtype.kind == "c":
        size = np.abs(x)
        with np.errstate(invalid="ignore", over="ignore"):
            return np.where(size == 0, 0, x / size).astype(x.dtype, copy=False)
    if x.dtype.kind == "f":
        return np.where(x == x, np.sign(x), 0).astype(x.dtype, copy=False)
    return np.sign(x)


SIGN = defop("sign", _sign, node="SignBackward0",
             vjp=lambda g: zeros_like(g), jvp=FROM_VJP, elementwise=True)


def sign(x, *, out=None):
    if out is not None:
        return into(out, sign, x, exact=found_dtype)
    kind = x._data.dtype.kind
    if kind == "b":
        return x.clone()
    if kind == "c":
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                                  "torch.sgn instead.")
    return unary(SIGN, x)


EXP = defop("exp", np.exp, node="ExpBackward0", save=lambda ans, x: (ans,),
            vjp=lambda g, ans: g * ans.conj(), jvp=FROM_VJP, elementwise=True)


def exp(x, *, out=None):
    if out is not None:
        return into(out, exp, x)
    return unary(EXP, _float_input(x))


LOG = defop("log", np.log, node="LogBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: g / x.conj(), jvp=FROM_VJP, elementwise=True)


def log(x, *, out=None):
    if out is not None:
        return into(out, log, x)
    return unary(LOG, _float_input(x))


SQRT = defop("sqrt", np.sqrt, node="SqrtBackward0", save=lambda ans, x: (ans,),
             vjp=lambda g, ans: g / (2 * ans.conj()), jvp=FROM_VJP,
             elementwise=True)


def sqrt(x, *, out=None):
    if out is not None:
        return into(out, sqrt, x)
    return unary(SQRT, _float_input(x))


SIN = defop("sin", np.sin, node="SinBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: g * cos(x).conj(), jvp=FROM_VJP, elementwise=True)


def sin(x, *, out=None):
    if out is not None:
        return into(out, sin, x)
    return unary(SIN, _float_input(x))


COS = defop("cos", np.cos, node="CosBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: -g * sin(x).conj(), jvp=FROM_VJP, elementwise=True)


def cos(x, *, out=None):
    if out is not None:
        return into(out, cos, x)
    return unary(COS, _float_input(x))


TAN = defop("tan", np.tan, node="TanBackward0", save=lambda ans, x: (ans,),
            vjp=lambda g, ans: g * (1 + ans * ans).conj(), jvp=FROM_VJP,
            elementwise=True)


def tan(x, *, out=None):
    if out is not None:
        return into(out, tan, x)
    return unary(TAN, _float_input(x))


# tanh' = 1 - tanh^2 as one op, as PyTorch's tanh_backward: a third of the Python work
# of composing it from three ops, on every backward through tanh
TANH_BACKWARD = defop(
    "tanh_backward", lambda g, y: g * (1 - y * y), node="TanhBackwardBackward0",
    save=lambda ans, g, y: (g, y),
    vjp=(lambda gg, g, y: tanh_backward(gg, y), lambda gg, g, y: -2 * gg * g * y.conj()),
    jvp=(lambda t, g, y: tanh_backward(t, y), lambda t, g, y: -2 * t * g * y), batch=elementwise)


def tanh_backward(g, y):
    return binary(TANH_BACKWARD, g, y.conj(), _tensor_result(g, y))


TANH = defop("tanh", np.tanh, node="TanhBackward0", save=lambda ans, x: (ans,),
             vjp=lambda g, ans: tanh_backward(g, ans), jvp=FROM_VJP,
             elementwise=True)


def tanh(x, *, out=None):
    if out is not None:
        return into(out, tanh, x)
    return unary(TANH, _float_input(x))


def _sigmoid(x):
    # 1 / (1 + e^-x), as PyTorch: e^-x overflowing to inf gives the right 0, and the far
    # tail keeps its digits ((1 + tanh(x / 2)) / 2 is 0 from x = -17 in float32).
    # Half precision computes in float32, as PyTorch's kernel does.
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-wide))).astype(x.dtype, copy=False)


# sigmoid' = sigmoid (1 - sigmoid): exact where the composed gradient would overflow, and
# one op (PyTorch's sigmoid_backward) instead of three
SIGMOID_BACKWARD = defop(
    "sigmoid_backward", lambda g, y: g * (y * (1 - y)), node="SigmoidBackwardBackward0",
    save=lambda ans, g, y: (g, y),
    vjp=(lambda gg, g, y: sigmoid_backward(gg, y), lambda gg, g, y: gg * g * (1 - 2 * y).conj()),
    jvp=(lambda t, g, y: sigmoid_backward(t, y), lambda t, g, y: t * g * (1 - 2 * y)), batch=elementwise)


def sigmoid_backward(g, y):
    return binary(SIGMOID_BACKWARD, g, y.conj(), _tensor_result(g, y))


SIGMOID = defop("sigmoid", _sigmoid, node="SigmoidBackward0", save=lambda ans, x: (ans,),
                vjp=lambda g, ans: sigmoid_backward(g, ans),
                jvp=FROM_VJP, elementwise=True)


def sigmoid(x, *, out=None):
    if out is not None:
        return into(out, sigmoid, x)
    return unary(SIGMOID, _float_input(x))


# relu's gradient is PyTorch's threshold_backward, an op of its own: under create_graph it
# is recorded (ThresholdBackwardBackward0), so a second derivative is zeros, not an error.
# It selects rather than multiplies by a 0/1 mask: an inf or nan in g never turns into
# nan where the mask is 0 (log(relu(x)) at x < 0 has gradient 0, as in PyTorch).
THRESHOLD_BACKWARD = defop(
    "threshold_backward", lambda g, x, th: np.where(x <= th, 0, g), batch=elementwise,
    node="ThresholdBackwardBackward0", save=lambda ans, g, x, th: (x, th),
    vjp=(lambda gg, x, th: threshold_backward(gg, x, th), lambda gg, x, th: zeros_like(x)),
    jvp=(lambda t, x, th: threshold_backward(t, x, th), lambda t, x, th: zeros_like(t)))


def threshold_backward(g, x, threshold):
    """``g`` where ``x > threshold``, else 0 (PyTorch's ``threshold_backward``)."""
    return apply(THRESHOLD_BACKWARD, (g, x), (threshold,), g._data.dtype)


def _clip(x, lo, hi):
    """``x`` limited to [lo, hi] (numbers or arrays) as PyTorch's clamp computes it element
    by element, ``std::min(std::max(x, lo), hi)``: each step keeps its first operand unless
    the other is strictly beyond it, so clamp(-0., min=0) keeps -0. (np.clip may give either
    zero); ``hi`` where ``lo > hi``; nan in ``x`` or a bound gives nan."""
    out = x
    for bound, ufunc in ((lo, np.maximum), (hi, np.minimum)):
        if bound is not None:
            first, out = out, np.asarray(ufunc(out, bound))  # a 0-d input gives a NumPy scalar
            np.copyto(out, first, where=(out == first))
    return out


# relu(-0.) is -0., as PyTorch's (x < 0 ? 0 : x). Its rule tests the output, as PyTorch's
# does: the output is what ReluBackward0 saves (so changing it in place is what is caught)
RELU = defop("relu", lambda x: np.where(x < 0, 0, x), node="ReluBackward0", save=lambda ans, x: (ans,),
             vjp=lambda g, ans: threshold_backward(g, ans, 0), jvp=FROM_VJP,
             elementwise=True)


def relu(x):
    try:
        kind = x._data.dtype.kind
    except AttributeError:
        _argparse.check_tensor("relu", x)
        raise
    if kind in "bc":  # one test on the hot path
        if kind == "b":
            raise RuntimeError("Boolean inputs not supported for relu")
        _no_complex_clamp(x)  # PyTorch's relu is a clamp
    return unary(RELU, x)


RECIPROCAL = defop("reciprocal", lambda x: np.divide(1, x), node="ReciprocalBackward0",
                   save=lambda ans, x: (ans,),
                   vjp=lambda g, ans: -g * (ans * ans).conj(), jvp=lambda t, ans: -t * ans * ans,
                   elementwise=True)


def reciprocal(x, *, out=None):
    if out is not None:
        return into(out, reciprocal, x)
    return unary(RECIPROCAL, _float_input(x))


def _clamp_mask(x, lo, hi):
    inside = np.ones(x.shape, dtype=bool)
    if lo is not None:
        inside &= x._data >= lo
    if hi is not None:
        inside &= x._data <= hi
    return _wrap(inside)


def _pass_inside(g, inside):
    # a selection, never g * inside: 0 * inf would be nan (1 / x.clamp(min=0) at x < 0)
    return where(inside, g, 0.0)


CLAMP = defop("clamp", _clip, node="ClampBackward1", save=lambda ans, x, lo, hi: (_clamp_mask(x, lo, hi),),
              vjp=_pass_inside, jvp=_pass_inside, elementwise=True)


# PyTorch's ClampBackward0 formulas (clamp_backward, clamp_backward_min_max, clamp_jvp): with
# both bounds, lo > hi gives hi; with one (``given`` "min" or "max"), the other is a no-op bound
# and ties go as PyTorch's one-bound formulas send them
def _clamp_x_tangent(t, x, lo, hi, given):
    if given == "min":
        return where(x > lo, t, 0.0)
    if given == "max":
        return where(x < hi, t, 0.0)
    return where(~(lo > hi) & ~(x < lo) & ~(x > hi), t, 0.0)


def _clamp_lo_tangent(t, x, lo, hi, given):
    return where(~(x > lo) if given == "min" else ~(lo > hi) & (x < lo), t, 0.0)


def _clamp_hi_tangent(t, x, lo, hi, given):
    return where(~(x < hi) if given == "max" else (lo > hi) | (~(x < lo) & (x > hi)), t, 0.0)


CLAMP_TENSOR = defop(
    "clamp_tensor", lambda x, lo, hi, given: _clip(x, lo, hi), batch=elementwise, node="ClampBackward0",
    save=lambda ans, x, lo, hi, given: (x, lo, hi, given),
    vjp=(lambda g, x, lo, hi, given: where((x >= lo) & (x <= hi), g, 0.0),
         lambda g, x, lo, hi, given: where((x < lo) & (lo < hi) if given == "both" else x < lo, g, 0.0),
         lambda g, x, lo, hi, given: where((x > hi) | (hi < lo) if given == "both" else x > hi, g, 0.0)),
    jvp=(_clamp_x_tangent, _clamp_lo_tangent, _clamp_hi_tangent))


def _no_bound(sign, dtype):
    """A bound that clamps nothing in the result ``dtype``: ±inf, an integer type's extreme
    (int8 x, int64 min: int64's max), or True/False."""
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return _wrap(np.asarray(info.max if sign > 0 else info.min, dtype=dtype))
    if dtype.kind == "b":
        return _wrap(np.asarray(sign > 0))
    return _wrap(np.asarray(sign * np.inf, dtype=dtype))


def clamp(x, min=None, max=None):
    """Limits ``x`` to [min, max]; bounds are numbers or tensors (which broadcast)."""
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if is_tensor(min) or is_tensor(max):
        if not (min is None or is_tensor(min)) or not (max is None or is_tensor(max)):
            raise _clamp_arguments(x, min, max)
        dtype = promoted((x, *(b for b in (min, max) if b is not None)))  # a missing bound has none
        _no_complex_clamp(x, dtype, "maximum_cpu" if max is None else "minimum_cpu" if min is None else "clamp_cpu",
                          *(b for b in (min, max) if b is not None))
        lo = _no_bound(-1, dtype) if min is None else min
        hi = _no_bound(1, dtype) if max is None else max
        if min is not None and max is not None and dtype.kind == "b":
            raise _dtype.not_implemented("clamp_cpu", dtype)
        return apply(CLAMP_TENSOR, _in_integer_result(dtype, x, lo, hi),
                     ("max" if min is None else "min" if max is None else "both",), dtype)
    if isinstance(min, np.generic):  # NumPy scalars are Python numbers to PyTorch
        min = min.item()
    if isinstance(max, np.generic):
        max = max.item()
    out_dtype = None
    for bound in (min, max):
        if bound is not None:
            if bound.__class__ not in NUMBERS:
                raise _clamp_arguments(x, min, max)
            if bound.__class__ is not complex:  # a complex number bound keeps x's dtype
                out_dtype = out_dtype or _scalar_result(x, bound)
    _no_complex_clamp(x)
    if min.__class__ is complex or max.__class__ is complex:  # to x's real dtype, if its imaginary part is 0
        if x._data.dtype.kind != "f":  # an integer x would promote to complex
            raise NotImplementedError("clamp is not supported for complex types")
        min, max = (_real_bound(b, out_dtype or x._data.dtype) for b in (min, max))
    kernel = "clamp_max_scalar_cpu" if min is None else "clamp_min_scalar_cpu" if max is None else "clamp_scalar_cpu"
    min, max = _scalar_bounds(x, kernel, min, max)
    return unary(CLAMP, x, (min, max), out_dtype)


def _scalar_bounds(x, kernel, *bounds):
    """Number bounds as the kernel reads them: no bool kernel; a real result converts them
    with c10's overflow check (uint8 takes -1 as 255, refuses 256; float16 refuses 1e5)."""
    dtype = _dtype.result_dtype((x, *(b for b in bounds if b is not None and b.__class__ is not complex))).np
    if dtype.kind == "b":
        raise _dtype.not_implemented(kernel, dtype)
    if dtype.kind not in "iuf":
        return bounds
    return tuple(b if b is None or b.__class__ is complex else _dtype.checked_scalar(b, dtype) for b in bounds)


def _in_integer_result(dtype, *tensors):
    """The operands cast to an integral result dtype first, as PyTorch's kernel reads them
    (uint8 x, int8 0-d max -3: the bound is 253); nothing there has a gradient."""
    if dtype.kind in "fc":
        return tensors
    return tuple(t if t._data.dtype == dtype else _wrap(t._data.astype(dtype)) for t in tensors)


def _real_bound(bound, np_dtype):
    if bound.__class__ is not complex:
        return bound
    if bound.imag:
        raise RuntimeError(f"value cannot be converted to type {_dtype._C_SCALAR_NAMES[np_dtype.name]} without overflow")
    return bound.real


def _no_complex_clamp(x, dtype=None, kernel=None, *bounds):
    """PyTorch's refusals: a complex input, or real input and tensor bounds promoting to
    complex (then the kernel that would have run, maximum for a min alone), once the
    shapes broadcast."""
    if x._data.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    if dtype is not None:
        _no_complex_kernel(x, dtype, kernel, *bounds)


def _no_complex_kernel(x, dtype, kernel, *bounds):
    """clamp_min and clamp_max with a tensor bound check no input: their kernel (maximum,
    minimum) refuses the promoted complex dtype (complex32 too), once the shapes broadcast."""
    if dtype is _dtype.COMPLEX_HALF or dtype.kind == "c":
        shapes = [t._data.shape for t in (x, *bounds)]
        try:
            np.broadcast_shapes(*shapes)
        except ValueError as e:
            raise broadcast_error(e, *shapes) from None
        raise _dtype.not_implemented(kernel, dtype)


def _clamp_arguments(x, min, max):
    """PyTorch's TypeError for bounds that are neither both numbers nor both tensors (a
    method's form: the bounds as keywords; a function's: as positions)."""
    name, method = _argparse.entry()
    if method:
        given = {k: v for k, v in (("min", min), ("max", max)) if v is not None}
        return _argparse.invalid_combination(name, (), given, "Tensor min = None, Tensor max = None",
                                             "Number min = None, Number max = None")
    return _argparse.invalid_combination(
        "clamp", (x, min) if max is None else (x, min, max), {},
        "Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None",
        "Tensor input, Number min = None, Number max = None, *, Tensor out = None")


CLAMP_MIN = defop("clamp_min", lambda x, lo: _clip(x, lo, None), node="ClampMinBackward0",
                  save=lambda ans, x, lo: (_clamp_mask(x, lo, None),),
                  vjp=_pass_inside, jvp=_pass_inside, elementwise=True)

CLAMP_MAX = defop("clamp_max", lambda x, hi: _clip(x, None, hi), node="ClampMaxBackward0",
                  save=lambda ans, x, hi: (_clamp_mask(x, None, hi),),
                  vjp=_pass_inside, jvp=_pass_inside, elementwise=True)

# the gradient goes to x where it is inside the bound, else to the bound
CLAMP_MIN_TENSOR = defop("clamp_min_tensor", lambda x, lo: _clip(x, lo, None), batch=elementwise, node="ClampMinBackward1",
                         save=lambda ans, x, lo: (x, lo),
                         vjp=(lambda g, x, lo: where(x >= lo, g, 0.0), lambda g, x, lo: where(x < lo, g, 0.0)),
                         jvp=(lambda t, x, lo: where(x >= lo, t, 0.0), lambda t, x, lo: where(~(x >= lo), t, 0.0)))

CLAMP_MAX_TENSOR = defop("clamp_max_tensor", lambda x, hi: _clip(x, None, hi), batch=elementwise, node="ClampMaxBackward1",
                         save=lambda ans, x, hi: (x, hi),
                         vjp=(lambda g, x, hi: where(x <= hi, g, 0.0), lambda g, x, hi: where(x > hi, g, 0.0)),
                         jvp=(lambda t, x, hi: where(x <= hi, t, 0.0), lambda t, x, hi: where(~(x <= hi), t, 0.0)))


def clamp_min(x, min):
    """``max(x, min)`` (nan stays nan), recorded as PyTorch records it (ClampMinBackward)."""
    if is_tensor(min):
        dtype = promoted((x, min))
        _no_complex_kernel(x, dtype, "maximum_cpu", min)
        return apply(CLAMP_MIN_TENSOR, _in_integer_result(dtype, x, min), (), dtype)
    _no_complex_clamp(x)
    if min.__class__ is complex:
        raise NotImplementedError("clamp is not supported for complex types")
    return unary(CLAMP_MIN, x, _scalar_bounds(x, "clamp_min_scalar_cpu", min), _scalar_result(x, min))


def clamp_max(x, max):
    if is_tensor(max):
        dtype = promoted((x, max))
        _no_complex_kernel(x, dtype, "minimum_cpu", max)
        return apply(CLAMP_MAX_TENSOR, _in_integer_result(dtype, x, max), (), dtype)
    _no_complex_clamp(x)
    if max.__class__ is complex:
        raise NotImplementedError("clamp is not supported for complex types")
    return unary(CLAMP_MAX, x, _scalar_bounds(x, "clamp_max_scalar_cpu", max), _scalar_result(x, max))


clip = clamp

# --- more exponentials and logarithms ------------------------------------------------------

_LN2, _LN10 = float(np.log(2)), float(np.log(10))

EXP2 = defop("exp2", np.exp2, node="Exp2Backward0", save=lambda ans, x: (ans,),
             vjp=lambda g, ans: g * (ans * _LN2).conj(), jvp=lambda t, ans: t * ans * _LN2,
             elementwise=True)


def exp2(x, *, out=None):
    if out is not None:
        return into(out, exp2, x)
    return unary(EXP2, _float_input(x))


EXPM1 = defop("expm1", np.expm1, node="Expm1Backward0", save=lambda ans, x: (ans,),
              vjp=lambda g, ans: g * (ans + 1).conj(), jvp=FROM_VJP,
              elementwise=True)


def expm1(x, *, out=None):
    if out is not None:
        return into(out, expm1, x)
    return unary(EXPM1, _float_input(x))


LOG2 = defop("log2", np.log2, node="Log2Backward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g / (x * _LN2).conj(), jvp=FROM_VJP, elementwise=True)


def log2(x, *, out=None):
    if out is not None:
        return into(out, log2, x)
    return unary(LOG2, _float_input(x))


LOG10 = defop("log10", np.log10, node="Log10Backward0", save=lambda ans, x: (x,),
              vjp=lambda g, x: g / (x * _LN10).conj(), jvp=FROM_VJP,
              elementwise=True)


def log10(x, *, out=None):
    if out is not None:
        return into(out, log10, x)
    return unary(LOG10, _float_input(x))


def _log1p(x):
    """NumPy's complex log1p loses the small parts (its log1p(1e-30 + 0j) is 0); PyTorch's
    CPU kernel is Kahan's: with u = 1 + z, z where u rounds to 1, else log(u) * z / (u - 1).
    The 1 is added to the real part only, so a -0 imaginary part stays -0."""
    if x.dtype.kind != "c":
        return np.log1p(x)
    x = np.asarray(x)  # (a NumPy scalar's parts cannot be written)
    u, shifted_back = x.copy(), x.copy()
    u.real += 1
    shifted_back.real = u.real - 1
    with np.errstate(all="ignore"):
        log_u = np.log(u)
        return np.where(u == 1, x, np.where(shifted_back == x, log_u, log_u * (x / shifted_back)))


LOG1P = defop("log1p", _log1p, node="Log1PBackward0", save=lambda ans, x: (x,),
              vjp=lambda g, x: g / (x + 1).conj(), jvp=FROM_VJP, elementwise=True)


def log1p(x, *, out=None):
    if out is not None:
        return into(out, log1p, x)
    return unary(LOG1P, _float_input(x))


RSQRT = defop("rsqrt", lambda x: 1 / np.sqrt(x), node="RsqrtBackward0", save=lambda ans, x: (ans,),
              vjp=lambda g, ans: g * (-0.5 * ans ** 3).conj(), jvp=FROM_VJP,
              elementwise=True)


def rsqrt(x, *, out=None):
    if out is not None:
        return into(out, rsqrt, x)
    return unary(RSQRT, _float_input(x))


def square(x, *, out=None):
    """``x ** 2``, recorded as PyTorch records it (PowBackward0)."""
    if out is not None:
        return into(out, square, x)
    return x ** 2 if x._data.dtype.kind != "b" else x * x


# --- the complex sign and angle ------------------------------------------------------------

SGN = defop("sgn", _sign, node="SgnBackward0", save=lambda ans, x: (x, ans),
            vjp=lambda g, x, ans: _sgn_grad(g, x, ans), jvp=lambda t, x, ans: _sgn_grad(t, x, ans),  # not holomorphic
            elementwise=True)


def _sgn_grad(g, x, ans):
    if x._data.dtype.kind != "c":
        return zeros_like(g)  # piecewise constant
    # z/|z| moves only in the direction orthogonal to z: (g - Re(g conj(s)) s) / |z|
    magnitude = abs(x)
    tangential = g - (g * ans.conj()).real * ans
    return where(magnitude == 0, 0.0, tangential / where(magnitude == 0, 1.0, magnitude))


def sgn(x, *, out=None):
    """``x / |x|`` (0 at 0): ``sign`` for real x, but recorded as SgnBackward0."""
    if out is not None:
        return into(out, sgn, x, exact=found_dtype)
    if x._data.dtype.kind in "biu":
        return sign(x)  # no history: nothing to record
    return unary(SGN, x)


def _angle_grad(g, x):
    if x._data.dtype.kind != "c":
        return zeros_like(g)
    # angle = atan2(Im z, Re z); its gradient as a complex number is i z / |z|^2 scaled by g
    return g * (x * 1j) / (x * x.conj()).real


def _angle_tangent(t, x):
    # the angle moves by the part of t across z: Im(conj(z) t) / |z|^2, a real tangent
    if x._data.dtype.kind != "c":
        return zeros_like(t)
    return imag(t * x.conj()) / (x * x.conj()).real


def _angle(x):
    """arg(z); for real x PyTorch's (x < 0 ? pi : 0), nan kept: -0. has angle 0 (np.angle: pi)."""
    if x.dtype.kind == "c":
        return np.angle(x)
    return np.where(x < 0, np.pi, np.where(x == x, 0, x)).astype(x.dtype, copy=False)


ANGLE = defop("angle", _angle, node="AngleBackward0", save=lambda ans, x: (x,),
              vjp=_angle_grad, jvp=_angle_tangent, elementwise=True)


def angle(x, *, out=None):
    if out is not None:
        return into(out, angle, x)
    return unary(ANGLE, _float_input(x))


# --- predicates: plain bool results ----------------------------------------------------------


def isnan(x):
    return plain(np.isnan, (x,))


def isinf(x):
    return plain(np.isinf, (x,))


def isfinite(x):
    return plain(np.isfinite, (x,))


def _real_only_predicate(x, name):
    if x._data.dtype.kind == "c":
        raise RuntimeError(f"{name} does not support complex inputs.")


def isposinf(x):
    _real_only_predicate(x, "isposinf")
    return plain(np.isposinf, (x,)) if x._data.dtype.kind == "f" else plain(np.zeros_like, (x,), bool)


def isneginf(x):
    _real_only_predicate(x, "isneginf")
    return plain(np.isneginf, (x,)) if x._data.dtype.kind == "f" else plain(np.zeros_like, (x,), bool)


def isreal(x):
    """True where the imaginary part is 0: everywhere for a real tensor."""
    if x._data.dtype.kind == "c":
        return plain(lambda z: np.imag(z) == 0, (x,))
    return plain(np.ones_like, (x,), bool)


def signbit(x):
    """Whether the sign bit is set: true for -0.0 too, never for bool."""
    if x._data.dtype.kind == "c":
        raise NotImplementedError("signbit is not implemented for complex tensors.")
    return plain(np.signbit, (x,)) if x._data.dtype.kind != "b" else plain(np.zeros_like, (x,), bool)


# --- Tensor methods --------------------------------------------------------------------------


class _TensorMethods:
    def clamp(self, min=None, max=None):  # methods of their own: PyTorch's messages differ
        return clamp(self, min, max)

    def clip(self, min=None, max=None):
        return clamp(self, min, max)


tensor_methods(_TensorMethods)
Tensor.abs = Tensor.absolute = Tensor.__abs__ = abs
Tensor.abs_ = Tensor.absolute_ = inplace_method(abs, "abs_")
Tensor.sign = sign
Tensor.sign_ = inplace_method(sign, "sign_")
Tensor.sgn = sgn
Tensor.sgn_ = inplace_method(sgn, "sgn_")
Tensor.exp = exp
Tensor.exp_ = inplace_method(exp, "exp_")
Tensor.exp2 = exp2
Tensor.exp2_ = inplace_method(exp2, "exp2_")
Tensor.expm1 = expm1
Tensor.expm1_ = inplace_method(expm1, "expm1_")
Tensor.log = log
Tensor.log_ = inplace_method(log, "log_")
Tensor.log2 = log2
Tensor.log2_ = inplace_method(log2, "log2_")
Tensor.log10 = log10
Tensor.log10_ = inplace_method(log10, "log10_")
Tensor.log1p = log1p
Tensor.log1p_ = inplace_method(log1p, "log1p_")
Tensor.sqrt = sqrt
Tensor.sqrt_ = inplace_method(sqrt, "sqrt_")
Tensor.rsqrt = rsqrt
Tensor.rsqrt_ = inplace_method(rsqrt, "rsqrt_")
Tensor.square = square
Tensor.square_ = inplace_method(square, "square_")
Tensor.reciprocal = reciprocal
Tensor.reciprocal_ = inplace_method(reciprocal, "reciprocal_")
Tensor.sin = sin
Tensor.sin_ = inplace_method(sin, "sin_")
Tensor.cos = cos
Tensor.cos_ = inplace_method(cos, "cos_")
Tensor.tan = tan
Tensor.tan_ = inplace_method(tan, "tan_")
Tensor.tanh = tanh
Tensor.tanh_ = inplace_method(tanh, "tanh_")
Tensor.sigmoid = sigmoid
Tensor.sigmoid_ = inplace_method(sigmoid, "sigmoid_")
Tensor.relu = relu
Tensor.relu_ = inplace_method(relu, "relu_")
Tensor.angle = angle
Tensor.clamp_ = Tensor.clip_ = inplace_method(clamp, "clamp_")
Tensor.clamp_min = clamp_min
Tensor.clamp_min_ = inplace_method(clamp_min, "clamp_min_")
Tensor.clamp_max = clamp_max
Tensor.clamp_max_ = inplace_method(clamp_max, "clamp_max_")
Tensor.isnan = isnan
Tensor.isinf = isinf
Tensor.isfinite = isfinite
Tensor.isposinf = isposinf
Tensor.isneginf = isneginf
Tensor.isreal = isreal
Tensor.signbit = signbit
