"""Activations of ``nn.functional``: the rectifier family, smooth activations, shrinkage,
and softmax over a dim.

Each op is a ``defop`` entry and its public function, as in ``unary``. Where PyTorch
records an in-place form under a node of its own (``LeakyReluBackward1``), that form is an
entry of its own whose rule reads the output, since the input is gone:

>>> y = F.elu(x * 1, inplace=True)   # EluBackward1: elu'(x) from y = elu(x)

Rules are written with chainrule ops, so ``create_graph=True`` differentiates them again.
A few ops get a fused backward op of their own (gelu, softmax, log_softmax): the
composed gradient would be several times the work on every backward, and softmax's
composed form loses precision; each backward op has rules in turn, so higher
derivatives still work.
"""
import math

import numpy as np

from .. import _distributions as kernels
from .._creation import _generator
from .._tensor import Tensor, _wrap
from .elementwise import where, zeros_like
from .inplace import _type_word
from .methods import inplace_method
from .reductions import sum as _sum
from .batching import dim_params, elementwise
from .registry import apply, binary, defop, unary
from .shape import wrap_dim
from .unary import clamp, exp, relu, sigmoid, sigmoid_backward, tanh


def _floating_only(x, kernel):
    """PyTorch's kernels of these ops exist for floating dtypes only."""
    if x._data.dtype.kind not in "fc":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_word(x._data.dtype)}\'')


# --- rectifiers: piecewise linear ---------------------------------------------------------

def _inside(x, lo, hi):
    return (x > lo) & (x < hi)


HARDTANH = defop("hardtanh", lambda x, lo, hi: np.clip(x, lo, hi), node="HardtanhBackward0",
                 save=lambda ans, x, lo, hi: (x, lo, hi),
                 vjp=lambda g, x, lo, hi: where(_inside(x, lo, hi), g, 0.0),
                 jvp=lambda t, x, lo, hi: where(_inside(x, lo, hi), t, 0.0), elementwise=True)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    if input._data.dtype.kind == "b":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    return unary(HARDTANH, input, (min_val, max_val), input._data.dtype)


def relu6(input):
    return hardtanh(input, 0.0, 6.0)


LEAKY_RELU = defop("leaky_relu", lambda x, slope: np.where(x > 0, x, x * slope), node="LeakyReluBackward0",
                   save=lambda ans, x, slope: (x, slope),
                   vjp=lambda g, x, slope: where(x > 0, g, g * slope),
                   jvp=lambda t, x, slope: where(x > 0, t, t * slope), elementwise=True)

# in place: the sign of the output is the sign of the input (for a positive slope)
LEAKY_RELU_RESULT = defop("leaky_relu_", LEAKY_RELU.forward, node="LeakyReluBackward1",
                          save=lambda ans, x, slope: (ans, slope),
                          vjp=lambda g, ans, slope: where(ans > 0, g, g * slope),
                          jvp=lambda t, ans, slope: where(ans > 0, t, t * slope), elementwise=True)


def leaky_relu(input, negative_slope=0.01):
    _floating_only(input, "leaky_relu_cpu")
    return unary(LEAKY_RELU, input, (negative_slope,))


def _leaky_relu_result(x, negative_slope=0.01):
    _floating_only(x, "leaky_relu_cpu")
    return unary(LEAKY_RELU_RESULT, x, (negative_slope,))


THRESHOLD = defop("threshold", lambda x, th, value: np.where(x <= th, value, x), node="ThresholdBackward0",
                  save=lambda ans, x, th, value: (x, th),
                  vjp=lambda g, x, th: where(x <= th, 0.0, g),
                  jvp=lambda t, x, th: where(x <= th, 0.0, t), elementwise=True)

# in place, PyTorch tests the output against the threshold (the same unless value > threshold)
THRESHOLD_RESULT = defop("threshold_", THRESHOLD.forward, node="ThresholdBackward1",
                         save=lambda ans, x, th, value: (ans, th),
                         vjp=lambda g, ans, th: where(ans <= th, 0.0, g),
                         jvp=lambda t, ans, th: where(ans <= th, 0.0, t), elementwise=True)


def _threshold_params(x, threshold, value):
    """An integer tensor compares with the threshold cast to its dtype, as in PyTorch."""
    kind = x._data.dtype.kind
    if kind == "b":
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    return (int(threshold), int(value)) if kind in "iu" else (threshold, value)


def threshold(input, threshold, value):
    return unary(THRESHOLD, input, _threshold_params(input, threshold, value), input._data.dtype)


def _threshold_result(x, threshold, value):
    return unary(THRESHOLD_RESULT, x, _threshold_params(x, threshold, value), x._data.dtype)


# rrelu: a leaky relu whose slope is drawn per element in training (``noise``, saved for
# backward), and is the middle of [lower, upper] in evaluation
RRELU = defop("rrelu", lambda x, noise: np.where(x >= 0, x, x * noise), node="RreluWithNoiseBackward0",
              save=lambda ans, x, noise: (x, noise),
              vjp=lambda g, x, noise: g * _rrelu_slope(x, noise),
              jvp=lambda t, x, noise: t * _rrelu_slope(x, noise), elementwise=True)

RRELU_RESULT = defop("rrelu_", RRELU.forward, node="RreluWithNoiseBackward1",
                     save=lambda ans, x, noise: (ans, noise),
                     vjp=lambda g, ans, noise: g * _rrelu_slope(ans, noise),
                     jvp=lambda t, ans, noise: t * _rrelu_slope(ans, noise), elementwise=True)


def _rrelu_slope(x, noise):
    if isinstance(noise, np.ndarray):  # training: 1 where x > 0, the drawn slope elsewhere
        return _wrap(noise)
    return where(x > 0, 1.0, noise)


def _rrelu_noise(x, lower, upper, training, generator):
    _floating_only(x, "leaky_relu_cpu")
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    if not training:
        return (lower + upper) / 2
    # PyTorch draws one double uniform(lower, upper) per element <= 0, in order, the bounds
    # first rounded to the dtype's arithmetic type (float for float32 and float16)
    data = x._data
    arithmetic = np.float64 if data.dtype == np.float64 else np.float32
    lower, upper = float(arithmetic(lower)), float(arithmetic(upper))
    flat = np.ascontiguousarray(data).reshape(-1)
    drawing = flat <= 0
    noise = np.ones(flat.shape, data.dtype)
    noise[drawing] = kernels.uniform_unfused(_generator(generator), int(drawing.sum()), lower, upper)
    return noise.reshape(data.shape)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return unary(RRELU, input, (_rrelu_noise(input, lower, upper, training, generator),))


def _rrelu_result(x, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return unary(RRELU_RESULT, x, (_rrelu_noise(x, lower, upper, training, generator),))


def _prelu(x, w):
    return np.where(x > 0, x, w * x)


# prelu (below) shapes the weight to broadcast against the input: a batch broadcasts too
PRELU = defop("prelu", _prelu, batch=elementwise, node="PreluKernelBackward0",
              save=lambda ans, x, w: (x, w),
              vjp=(lambda g, x, w: where(x > 0, g, g * w), lambda g, x, w: where(x > 0, 0.0, g * x)),
              jvp=(lambda t, x, w: where(x > 0, t, t * w), lambda t, x, w: where(x > 0, 0.0, t * x)))


def prelu(input, weight):
    """``max(0, x) + weight * min(0, x)``, one weight for all or one per channel (dim 1)."""
    _floating_only(input, "prelu_cpu")
    if weight._data.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = "
                           f"{weight._data.ndim}")
    channels = input._data.shape[1] if input._data.ndim >= 2 else 1
    if weight._data.size != 1 and weight._data.size != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                           f"{weight._data.size} and channel size = {channels}.")
    if weight._data.dtype != input._data.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_type_word(input._data.dtype)} and "
                           f"{_type_word(weight._data.dtype)}")
    ndim = input._data.ndim
    if weight._data.size == 1:
        w = weight.reshape((1,) * ndim) if weight._data.ndim else weight
    else:
        w = weight.view((channels,) + (1,) * (ndim - 2))
    return binary(PRELU, input, w)


# --- exponential linear units -----------------------------------------------------------------

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _elu(x, alpha, scale, input_scale):
    return np.where(x > 0, x * scale, np.expm1(np.minimum(x, 0) * input_scale) * (alpha * scale))


def _elu_slope(x, alpha, scale, input_scale):
    # exp of the negative part only: exp(x) of a large x would overflow, and its inf times
    # the zero that where() sends to the unused branch is NaN in the second derivative
    return where(x > 0, scale, exp(clamp(x, max=0) * input_scale) * (alpha * scale * input_scale))


def _elu_slope_from_result(ans, alpha, scale, input_scale):
    # below 0: d/dx alpha s (e^(c x) - 1) = c (ans + alpha s)
    return where(ans > 0, scale, (ans + alpha * scale) * input_scale)


def _elu_rules(node, from_result):
    slope = _elu_slope_from_result if from_result else _elu_slope
    return dict(node=node, elementwise=True,
                save=lambda ans, x, *params: ((ans if from_result else x),) + params,
                vjp=lambda g, x, *params: g * slope(x, *params),
                jvp=lambda t, x, *params: t * slope(x, *params))


ELU = defop("elu", _elu, **_elu_rules("EluBackward0", False))
ELU_RESULT = defop("elu_", _elu, **_elu_rules("EluBackward1", True))
CELU = defop("celu", _elu, **_elu_rules("CeluBackward0", False))
CELU_RESULT = defop("celu_", _elu, **_elu_rules("CeluBackward1", True))


def elu(input, alpha=1.0, scale=1.0, input_scale=1.0):
    _floating_only(input, "elu_cpu")
    return unary(ELU, input, (alpha, scale, input_scale))


def _elu_result(x, alpha=1.0, scale=1.0, input_scale=1.0):
    _floating_only(x, "elu_cpu")
    return unary(ELU_RESULT, x, (alpha, scale, input_scale))


def selu(input):
    _floating_only(input, "elu_cpu")
    return unary(ELU, input, (_SELU_ALPHA, _SELU_SCALE, 1.0))


def _selu_result(x):
    _floating_only(x, "elu_cpu")
    return unary(ELU_RESULT, x, (_SELU_ALPHA, _SELU_SCALE, 1.0))


def _celu_params(x, alpha):
    _floating_only(x, "elu_cpu")
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return (alpha, 1.0, 1.0 / alpha)


def celu(input, alpha=1.0):
    return unary(CELU, input, _celu_params(input, alpha))


def _celu_result(x, alpha=1.0):
    return unary(CELU_RESULT, x, _celu_params(x, alpha))


# --- smooth activations ------------------------------------------------------------------

# erf as Cephes computes it (ndtr.c), vectorized: exact to 1e-15, without calling the C
# library's erf once per element. A rational fit in x^2 for |x| <= 1, erfc's for 1 < |x| < 6;
# beyond, erf is ±1 to the last bit.
_ERF_T = (9.60497373987051638749e0, 9.00260197203842689217e1, 2.23200534594684319226e3,
          7.00332514112805075473e3, 5.55923013010394962768e4)
_ERF_U = (3.35617141647503099647e1, 5.21357949780152679795e2, 4.59432382970980127987e3,
          2.26290000613890934246e4, 4.92673942608635921086e4)
_ERFC_P = (2.46196981473530512524e-10, 5.64189564831068821977e-1, 7.46321056442269912687e0,
           4.86371970985681366614e1, 1.96520832956077098242e2, 5.26445194995477358631e2,
           9.34528527171957607540e2, 1.02755188689515710272e3, 5.57535335369399327526e2)
_ERFC_Q = (1.32281951154744992508e1, 8.67072140885989742329e1, 3.54937778887819891062e2,
           9.75708501743205489753e2, 1.82390916687909736289e3, 2.24633760818710981792e3,
           1.65666309194161350182e3, 5.57535340817727675546e2)


def _polynomial(x, coefficients, monic=False):
    """Horner's rule, highest power first; ``monic``: a leading coefficient 1 not listed."""
    out = np.ones_like(x) if monic else np.zeros_like(x)
    for c in coefficients:
        out = out * x + c
    return out


def _erf(x):
    shape = np.shape(x)
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    a = np.abs(x)
    out = np.sign(x)  # NaN stays NaN
    near = a <= 1
    xn = x[near]
    out[near] = xn * _polynomial(xn * xn, _ERF_T) / _polynomial(xn * xn, _ERF_U, monic=True)
    mid = (a > 1) & (a < 6)
    am = a[mid]
    out[mid] = out[mid] * (1 - np.exp(-am * am) * _polynomial(am, _ERFC_P) / _polynomial(am, _ERFC_Q, monic=True))
    return out.reshape(shape)


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)
_GELU_C = 0.044715


def _gelu(x, approximate):
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + _GELU_C * x ** 3)))
    return (0.5 * x * (1 + _erf(x / math.sqrt(2)))).astype(x.dtype)


def _gelu_slope(x, approximate):
    """gelu'(x) as NumPy (the forward of gelu_backward)."""
    if approximate == "tanh":
        inner = np.tanh(_SQRT_2_OVER_PI * (x + _GELU_C * x ** 3))
        return 0.5 * (1 + inner) + 0.5 * x * (1 - inner * inner) * _SQRT_2_OVER_PI * (1 + 3 * _GELU_C * x * x)
    cdf = 0.5 * (1 + _erf(x / math.sqrt(2)))
    return (cdf + x * _INV_SQRT_2PI * np.exp(-0.5 * x * x)).astype(x.dtype)


def _gelu_curvature(x, approximate):
    """gelu''(x) with chainrule ops (the rules of gelu_backward)."""
    if approximate == "tanh":
        inner = tanh((x + x ** 3 * _GELU_C) * _SQRT_2_OVER_PI)
        du = (1 + x * x * (3 * _GELU_C)) * _SQRT_2_OVER_PI
        d2u = x * (6 * _GELU_C * _SQRT_2_OVER_PI)
        return (1 - inner * inner) * (du + 0.5 * x * (d2u - 2 * inner * du * du))
    return exp(x * x * -0.5) * _INV_SQRT_2PI * (2 - x * x)


# gelu' needs erf: one op instead of six on every backward (PyTorch's gelu_backward)
GELU_BACKWARD = defop(
    "gelu_backward", lambda g, x, approximate: g * _gelu_slope(x, approximate), batch=elementwise,
    node="GeluBackwardBackward0",
    save=lambda ans, g, x, approximate: (g, x, approximate),
    vjp=(lambda gg, g, x, a: gelu_backward(gg, x, a), lambda gg, g, x, a: gg * g * _gelu_curvature(x, a)),
    jvp=(lambda t, g, x, a: gelu_backward(t, x, a), lambda t, g, x, a: t * g * _gelu_curvature(x, a)))


def gelu_backward(g, x, approximate="none"):
    return apply(GELU_BACKWARD, (g, x), (approximate,))


GELU = defop("gelu", _gelu, node="GeluBackward0", save=lambda ans, x, approximate: (x, approximate),
             vjp=lambda g, x, a: gelu_backward(g, x, a), jvp=lambda t, x, a: gelu_backward(t, x, a),
             elementwise=True)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _floating_only(input, "GeluKernelImpl")
    return unary(GELU, input, (approximate,))


def _silu_slope(x):
    s = sigmoid(x)
    return s * (1 + x * (1 - s))


SILU = defop("silu", lambda x: x * (0.5 * (1 + np.tanh(0.5 * x))), node="SiluBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g * _silu_slope(x), jvp=lambda t, x: t * _silu_slope(x), elementwise=True)


def silu(input):
    _floating_only(input, "silu_cpu")
    return unary(SILU, input)


def _mish_slope(x):
    t = tanh(softplus(x))
    return t + x * sigmoid(x) * (1 - t * t)


MISH = defop("mish", lambda x: x * np.tanh(np.logaddexp(0, x)), node="MishBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g * _mish_slope(x), jvp=lambda t, x: t * _mish_slope(x), elementwise=True)


def mish(input):
    _floating_only(input, "mish_cpu")
    return unary(MISH, input)


def _softplus(x, beta, threshold):
    with np.errstate(over="ignore"):
        smooth = np.log1p(np.exp(x * beta)) / beta
    return np.where(x * beta > threshold, x, smooth)


def _softplus_slope(g, x, beta, threshold):
    return where(x * beta > threshold, g, g * sigmoid(x * beta))


# log(1 + e^x) composed overflows for large x; the slope is sigmoid(beta x), never e^x / (1 + e^x)
SOFTPLUS = defop("softplus", _softplus, node="SoftplusBackward0",
                 save=lambda ans, x, beta, threshold: (x, beta, threshold),
                 vjp=_softplus_slope, jvp=_softplus_slope, elementwise=True)


def softplus(input, beta=1.0, threshold=20.0):
    _floating_only(input, "softplus_cpu")
    return unary(SOFTPLUS, input, (beta, threshold))


# log(sigmoid(x)) composed gives log(0) = -inf for x below -100; -softplus(-x) never does
LOG_SIGMOID = defop("log_sigmoid", lambda x: -np.logaddexp(0, -x), node="LogSigmoidBackward0",
                    save=lambda ans, x: (x,),
                    vjp=lambda g, x: g * sigmoid(-x), jvp=lambda t, x: t * sigmoid(-x), elementwise=True)


def log_sigmoid(input):
    _floating_only(input, "log_sigmoid_cpu")
    return unary(LOG_SIGMOID, input)


HARDSIGMOID = defop("hardsigmoid", lambda x: np.clip(x + 3, 0, 6) / 6, node="HardsigmoidBackward0",
                    save=lambda ans, x: (x,),
                    vjp=lambda g, x: where(_inside(x, -3, 3), g / 6, 0.0),
                    jvp=lambda t, x: where(_inside(x, -3, 3), t / 6, 0.0), elementwise=True)


def hardsigmoid(input):
    _floating_only(input, "hardsigmoid_cpu")
    return unary(HARDSIGMOID, input)


def _hardswish_slope(g, x):
    return where(x <= -3, 0.0, where(x < 3, g * (x / 3 + 0.5), g))


HARDSWISH = defop("hardswish", lambda x: x * np.clip(x + 3, 0, 6) / 6, node="HardswishBackward0",
                  save=lambda ans, x: (x,), vjp=_hardswish_slope, jvp=_hardswish_slope, elementwise=True)


def hardswish(input):
    _floating_only(input, "hardswish_cpu")
    return unary(HARDSWISH, input)


# --- shrinkage --------------------------------------------------------------------------------

def _within(x, lambd):
    return (x >= -lambd) & (x <= lambd)


def _shrink_rules(node):
    return dict(node=node, elementwise=True, save=lambda ans, x, lambd: (x, lambd),
                vjp=lambda g, x, lambd: where(_within(x, lambd), 0.0, g),
                jvp=lambda t, x, lambd: where(_within(x, lambd), 0.0, t))


def _softshrink(x, lambd):
    return np.where((x >= -lambd) & (x <= lambd), 0, np.where(x > lambd, x - lambd, x + lambd))


SOFTSHRINK = defop("softshrink", _softshrink, **_shrink_rules("SoftshrinkBackward0"))
HARDSHRINK = defop("hardshrink", lambda x, lambd: np.where((x >= -lambd) & (x <= lambd), 0, x),
                   **_shrink_rules("HardshrinkBackward0"))


def softshrink(input, lambd=0.5):
    _floating_only(input, "softshrink_check")
    if lambd < 0:
        name = "Float" if input._data.dtype == np.float32 else _type_word(input._data.dtype)
        top = "3.40282e+38" if input._data.dtype == np.float32 else "1.79769e+308"
        raise RuntimeError(f"lambda must be in range [0, {top}] for input dtype {name}, but found "
                           f"{lambd:g}")
    return unary(SOFTSHRINK, input, (lambd,))


def hardshrink(input, lambd=0.5):
    _floating_only(input, "hardshrink_cpu")
    return unary(HARDSHRINK, input, (lambd,))


# --- gated linear unit --------------------------------------------------------------------------

def _half(t, dim, k):
    """The first (k=0) or second (k=1) half of ``t`` along ``dim``, as a view."""
    n = t.shape[dim] // 2
    return t[(slice(None),) * dim + (slice(k * n, (k + 1) * n),)]


CAT_HALVES = defop("cat_halves", lambda a, b, dim: np.concatenate((a, b), axis=dim), batch=dim_params(0), node="CatBackward0",
                   save=lambda ans, a, b, dim: (dim,),
                   vjp=(lambda g, dim: _half(g, dim, 0), lambda g, dim: _half(g, dim, 1)),
                   jvp=(lambda t, dim: cat_halves(t, zeros_like(t), dim),
                        lambda t, dim: cat_halves(zeros_like(t), t, dim)))


def cat_halves(a, b, dim):
    return apply(CAT_HALVES, (a, b), (dim,))


def _glu(x, dim):
    a, b = np.split(x, 2, axis=dim)
    return a * (0.5 * (1 + np.tanh(0.5 * b)))


def _glu_vjp(g, x, dim):
    a, sb = _half(x, dim, 0), sigmoid(_half(x, dim, 1))
    return cat_halves(g * sb, sigmoid_backward(g * a, sb), dim)


def _glu_jvp(t, x, dim):
    a, sb = _half(x, dim, 0), sigmoid(_half(x, dim, 1))
    return _half(t, dim, 0) * sb + sigmoid_backward(_half(t, dim, 1) * a, sb)


GLU = defop("glu", _glu, batch=dim_params(0), node="GluBackward0", save=lambda ans, x, dim: (x, dim), vjp=_glu_vjp, jvp=_glu_jvp)


def glu(input, dim=-1):
    """``a * sigmoid(b)`` for the two halves a, b of ``input`` along ``dim``."""
    if input._data.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    _floating_only(input, "glu_cpu")
    dim = wrap_dim(dim, input._data.ndim)
    size = input._data.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {size}")
    return unary(GLU, input, (dim,))


# --- softmax over a dim -----------------------------------------------------------------------

def _along(fn):
    """A NumPy kernel over ``dim``; a 0-d input is one element along dim 0."""
    def forward(*arrays_and_dim):
        *arrays, dim = arrays_and_dim
        if max(a.ndim for a in arrays) == 0:
            return fn(*[a.reshape(1) for a in arrays], 0).reshape(())
        if arrays[0].size == 0:
            return np.empty_like(arrays[0])
        return fn(*arrays, dim)
    return forward


def _softmax(x, dim):
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def _log_softmax(x, dim):
    shifted = x - x.max(axis=dim, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))


def _softmax_backward(g, y, dim):
    return y * (g - (g * y).sum(axis=dim, keepdims=True))


def _log_softmax_backward(g, y, dim):
    return g - np.exp(y) * g.sum(axis=dim, keepdims=True)


def _dot_along(a, b, dim):
    return _sum(a * b, dim, True)


# the gradient of softmax is y (g - <g, y>), one op (PyTorch's _softmax_backward_data); its
# rules: linear in g, and d/dy gives gg (g - <g, y>) - g <gg, y>
SOFTMAX_BACKWARD = defop(
    "softmax_backward", _along(_softmax_backward), batch=dim_params(0), node="SoftmaxBackwardDataBackward0",
    save=lambda ans, g, y, dim: (g, y, dim),
    vjp=(lambda gg, g, y, dim: softmax_backward(gg, y, dim),
         lambda gg, g, y, dim: gg * (g - _dot_along(g, y, dim)) - g * _dot_along(gg, y, dim)),
    jvp=(lambda t, g, y, dim: softmax_backward(t, y, dim),
         lambda t, g, y, dim: t * (g - _dot_along(g, y, dim)) - y * _dot_along(g, t, dim)))


def softmax_backward(g, y, dim):
    return apply(SOFTMAX_BACKWARD, (g, y), (dim,))


# exp(x - max) / sum, stable where the composed exp(x) overflows
SOFTMAX = defop("softmax", _along(_softmax), batch=dim_params(0), node="SoftmaxBackward0", save=lambda ans, x, dim: (ans, dim),
                vjp=lambda g, ans, dim: softmax_backward(g, ans, dim),
                jvp=lambda t, ans, dim: softmax_backward(t, ans, dim), elementwise=True)

# the gradient of log_softmax is g - exp(y) sum(g), one op (_log_softmax_backward_data)
LOG_SOFTMAX_BACKWARD = defop(
    "log_softmax_backward", _along(_log_softmax_backward), batch=dim_params(0), node="LogSoftmaxBackwardDataBackward0",
    save=lambda ans, g, y, dim: (g, y, dim),
    vjp=(lambda gg, g, y, dim: gg - _dot_along(gg, exp(y), dim),
         lambda gg, g, y, dim: -gg * exp(y) * _sum(g, dim, True)),
    jvp=(lambda t, g, y, dim: t - exp(y) * _sum(t, dim, True),
         lambda t, g, y, dim: -t * exp(y) * _sum(g, dim, True)))


def log_softmax_backward(g, y, dim):
    return apply(LOG_SOFTMAX_BACKWARD, (g, y), (dim,))


# x - max - log(sum(exp(x - max))): finite where the composed log(softmax) gives -inf
LOG_SOFTMAX = defop("log_softmax", _along(_log_softmax), batch=dim_params(0), node="LogSoftmaxBackward0",
                    save=lambda ans, x, dim: (ans, dim),
                    vjp=lambda g, ans, dim: log_softmax_backward(g, ans, dim),
                    jvp=lambda t, ans, dim: t - _dot_along(exp(ans), t, dim), elementwise=True)


def _softmax_input(x, dim, dtype, name):
    if dtype is not None:
        x = x.to(dtype)
    ndim = x._data.ndim
    dim = wrap_dim(dim, ndim)
    _floating_only(x, f"{name}_lastdim_kernel_impl" if dim >= ndim - 1 else f"{name}_kernel_impl")
    return x, dim


def softmax(input, dim, dtype=None):
    """``torch.softmax(input, dim, dtype=None)``: exp(x) / sum(exp(x)) along ``dim``."""
    x, dim = _softmax_input(input, dim, dtype, "softmax")
    return unary(SOFTMAX, x, (dim,))


def log_softmax(input, dim, dtype=None):
    x, dim = _softmax_input(input, dim, dtype, "log_softmax")
    return unary(LOG_SOFTMAX, x, (dim,))


# --- in-place forms: F.elu(x, inplace=True), torch.selu_(x)... ----------------------------------
# Those that PyTorch records under a node of their own read the output (see the *_RESULT ops).

relu_ = inplace_method(relu, "relu_")
hardtanh_ = inplace_method(hardtanh, "hardtanh_")
relu6_ = inplace_method(relu6, "relu6_")
leaky_relu_ = inplace_method(_leaky_relu_result, "leaky_relu_")
threshold_ = inplace_method(_threshold_result, "threshold_")
rrelu_ = inplace_method(_rrelu_result, "rrelu_")
elu_ = inplace_method(_elu_result, "elu_")
selu_ = inplace_method(_selu_result, "selu_")
celu_ = inplace_method(_celu_result, "celu_")
silu_ = inplace_method(silu, "silu_")
mish_ = inplace_method(mish, "mish_")
hardsigmoid_ = inplace_method(hardsigmoid, "hardsigmoid_")
hardswish_ = inplace_method(hardswish, "hardswish_")

# --- Tensor methods -----------------------------------------------------------------------------

Tensor.softmax = softmax
Tensor.log_softmax = log_softmax
Tensor.hardshrink = hardshrink
Tensor.prelu = prelu
