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

from .. import random_kernels as kernels
from ..._core import dtype as _dtype
from ..creation import _generator
from ..._core.tensor import Tensor
from ..pointwise.elementwise import _opmath, where, zeros_like
from ..operands import _no_derivative, plain, without_derivative
from ..._core.dtype import type_word as _type_word
from ..methods import inplace_method
from ..batching import dim_params, elementwise
from ..registry import FROM_VJP, apply, binary, defop, unary
from ..._core.dims import wrap_dim
from ..pointwise.unary import _clip, _sigmoid, exp, relu, sigmoid, sigmoid_backward, tanh, threshold_backward
from ..pointwise.trigonometry import cosh


def _floating_only(x, kernel, complex_ok=False):
    """PyTorch's kernels of these ops exist for real floating dtypes only (silu's for
    complex ones too)."""
    if x._data.dtype.kind not in ("fc" if complex_ok else "f"):
        raise _dtype.not_implemented(kernel, x._data.dtype)


# --- rectifiers: piecewise linear ---------------------------------------------------------
# Each gradient is an op of its own, PyTorch's ``*_backward``: under create_graph it is
# recorded (HardtanhBackwardBackward0...) with the saved input as an input, so the
# gradient requires grad and a second derivative gives PyTorch's zeros instead of an error.
# Their forwards select with np.where: an inf or nan in g never leaks through a mask.

def _zero_second(name, node, forward, backward):
    """A backward op linear in g and flat in x: its rules are itself again and zeros."""
    return defop(name, forward, batch=elementwise,
                 node=node, save=lambda ans, g, x, *params: (x,) + params,
                 vjp=(lambda gg, x, *params: backward(gg, x, *params), lambda gg, x, *params: zeros_like(x)),
                 jvp=(lambda t, x, *params: backward(t, x, *params), lambda t, x, *params: zeros_like(t)))


def _outside(x, lo, hi):
    return (x <= lo) | (x >= hi)  # nan is neither: its gradient passes, as in PyTorch


HARDTANH_BACKWARD = _zero_second("hardtanh_backward", "HardtanhBackwardBackward0", lambda g, x, lo, hi: np.where(_outside(x, lo, hi), 0, g),
                                 lambda g, x, lo, hi: hardtanh_backward(g, x, lo, hi))


def hardtanh_backward(g, x, min_val, max_val):
    return apply(HARDTANH_BACKWARD, (g, x), (min_val, max_val), g._data.dtype)


HARDTANH = defop("hardtanh", _clip, node="HardtanhBackward0",
                 save=lambda ans, x, lo, hi: (x, lo, hi),
                 vjp=lambda g, x, lo, hi: hardtanh_backward(g, x, lo, hi),
                 jvp=FROM_VJP, elementwise=True)


def hardtanh(input, min_val=-1.0, max_val=1.0):
    kind = input._data.dtype.kind
    if kind == "b":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if kind == "u" and (int(min_val) < 0 or int(max_val) < 0):  # PyTorch's toLong: -0.5 is 0
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    if kind == "c":  # PyTorch's hardtanh is a clamp
        raise NotImplementedError("clamp is not supported for complex types")
    return unary(HARDTANH, input, (min_val, max_val), input._data.dtype)


def relu6(input):
    return hardtanh(input, 0.0, 6.0)


LEAKY_RELU_BACKWARD = _zero_second("leaky_relu_backward", "LeakyReluBackwardBackward0",
                                   lambda g, x, slope: np.where(x > 0, g, g * slope),
                                   lambda g, x, slope: leaky_relu_backward(g, x, slope))


def leaky_relu_backward(g, x, negative_slope):
    return apply(LEAKY_RELU_BACKWARD, (g, x), (negative_slope,), g._data.dtype)


LEAKY_RELU = defop("leaky_relu", lambda x, slope: np.where(x > 0, x, x * slope), node="LeakyReluBackward0",
                   save=lambda ans, x, slope: (x, slope),
                   vjp=leaky_relu_backward, jvp=leaky_relu_backward, elementwise=True)

# in place: the sign of the output is the sign of the input (for a positive slope)
LEAKY_RELU_RESULT = defop("leaky_relu_", LEAKY_RELU.forward, node="LeakyReluBackward1",
                          save=lambda ans, x, slope: (ans, slope),
                          vjp=leaky_relu_backward, jvp=leaky_relu_backward, elementwise=True)


def leaky_relu(input, negative_slope=0.01):
    _floating_only(input, "leaky_relu_cpu")
    return unary(LEAKY_RELU, input, (negative_slope,))


def _leaky_relu_result(x, negative_slope=0.01):
    _floating_only(x, "leaky_relu_cpu")
    return unary(LEAKY_RELU_RESULT, x, (negative_slope,))


def _threshold_rules(node):
    # in place too, PyTorch tests the input (saved before it is overwritten), not the output:
    # they differ where value > threshold
    return dict(node=node, save=lambda ans, x, th, value: (x, th), elementwise=True,
                vjp=threshold_backward, jvp=threshold_backward)


THRESHOLD = defop("threshold", lambda x, th, value: np.where(x <= th, value, x),
                  **_threshold_rules("ThresholdBackward0"))
THRESHOLD_RESULT = defop("threshold_", THRESHOLD.forward, **_threshold_rules("ThresholdBackward1"))


def _threshold_params(x, threshold, value):
    """Both numbers converted to x's dtype with PyTorch's overflow check (an integer tensor
    compares with the threshold cast to its dtype, as in PyTorch)."""
    kind = x._data.dtype.kind
    if kind == "b":
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    if kind == "c":
        raise _dtype.not_implemented("threshold_cpu", x._data.dtype)
    threshold, value = (_dtype.checked_scalar(v, x._data.dtype) for v in (threshold, value))
    return (int(threshold), int(value)) if kind in "iu" else (threshold, value)


def threshold(input, threshold, value):
    return unary(THRESHOLD, input, _threshold_params(input, threshold, value), input._data.dtype)


def _threshold_result(x, threshold, value):
    return unary(THRESHOLD_RESULT, x, _threshold_params(x, threshold, value), x._data.dtype)


# rrelu: a leaky relu whose slope is drawn per element in training (``noise``, an array
# saved for backward), and is the middle of [lower, upper] (a number) in evaluation
def _rrelu_grad(g, x, noise):
    if isinstance(noise, np.ndarray):  # training: 1 where x > 0, the drawn slope elsewhere
        return g * noise
    return np.where(x > 0, g, g * noise)


RRELU_BACKWARD = _zero_second("rrelu_backward", "RreluWithNoiseBackwardBackward0", _rrelu_grad,
                              lambda g, x, noise: rrelu_backward(g, x, noise))


def rrelu_backward(g, x, noise):
    return apply(RRELU_BACKWARD, (g, x), (noise,), g._data.dtype)


RRELU = defop("rrelu", lambda x, noise: np.where(x >= 0, x, x * noise), node="RreluWithNoiseBackward0",
              save=lambda ans, x, noise: (x, noise), vjp=rrelu_backward, jvp=rrelu_backward, elementwise=True)

RRELU_RESULT = defop("rrelu_", RRELU.forward, node="RreluWithNoiseBackward1",
                     save=lambda ans, x, noise: (ans, noise), vjp=rrelu_backward, jvp=rrelu_backward,
                     elementwise=True)


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


def _below(x, value):
    # PyTorch's formulas past the first-order kernel (derivatives.yaml) test x >= 0 where the
    # kernels test x > 0: at x = 0 a tangent or second derivative takes the positive side
    return where(x >= 0, 0.0, value)


def _prelu_slope(t, x, w):
    return where(x >= 0, t, w * t)


# prelu's two gradients, each an op (PyTorch's one PreluKernelBackwardBackward0 node gives
# both): grad_x = g or w g, grad_w = 0 or x g, so each is linear in g and in w or x
PRELU_BACKWARD_INPUT = defop(
    "prelu_backward_input", lambda g, x, w: np.where(x > 0, g, w * g), batch=elementwise,
    node="PreluKernelBackwardBackward0", save=lambda ans, g, x, w: (g, x, w),
    vjp=(lambda gg, g, x, w: _prelu_slope(gg, x, w), lambda gg, g, x, w: zeros_like(x),
         lambda gg, g, x, w: _below(x, gg * g)),
    jvp=(lambda t, g, x, w: _prelu_slope(t, x, w), lambda t, g, x, w: zeros_like(t),
         lambda t, g, x, w: _below(x, t * g)))

PRELU_BACKWARD_WEIGHT = defop(
    "prelu_backward_weight", lambda g, x: np.where(x > 0, 0, x * g), batch=elementwise,
    node="PreluKernelBackwardBackward0", save=lambda ans, g, x: (g, x),
    vjp=(lambda gg, g, x: _below(x, gg * x), lambda gg, g, x: _below(x, gg * g)),
    jvp=(lambda t, g, x: _below(x, t * x), lambda t, g, x: _below(x, t * g)))


def prelu_backward_input(g, x, w):
    return apply(PRELU_BACKWARD_INPUT, (g, x, w), (), g._data.dtype)


def prelu_backward_weight(g, x):
    return apply(PRELU_BACKWARD_WEIGHT, (g, x), (), g._data.dtype)


# prelu (below) shapes the weight to broadcast against the input: a batch broadcasts too
PRELU = defop("prelu", _prelu, batch=elementwise, node="PreluKernelBackward0",
              save=lambda ans, x, w: (x, w),
              vjp=(prelu_backward_input, lambda g, x, w: prelu_backward_weight(g, x)),
              jvp=(_prelu_slope, lambda t, x, w: _below(x, t * x)))


def prelu(input, weight):
    """``max(0, x) + weight * min(0, x)``, one weight for all or one per channel (dim 1)."""
    # PyTorch's order: the dtypes, the channels (for more than one weight), the weight's dims, the kernel
    if weight._data.dtype != input._data.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_type_word(input._data.dtype)} and "
                           f"{_type_word(weight._data.dtype)}")
    channels = input._data.shape[1] if input._data.ndim >= 2 else 1
    if weight._data.size != 1:
        if not input._data.ndim:
            raise RuntimeError("Not allow zero-dim input tensor.")
        if weight._data.size != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight._data.size} and channel size = {channels}.")
    if weight._data.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = "
                           f"{weight._data.ndim}")
    _floating_only(input, "prelu_cpu")
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
    negative = np.where(x > 0, 0, x)  # keeps -0. and nan, where np.minimum(x, 0) may not
    return np.where(x > 0, x * scale, np.expm1(negative * input_scale) * (alpha * scale))


def _elu_grad(g, x, alpha, scale, input_scale, is_result):
    """PyTorch's elu_backward in NumPy, from the input or (``is_result``) the output. The
    constants multiply in float64 arithmetic: selu's scale keeps all its digits."""
    if is_result:  # below 0: d/dx alpha s (e^(c x) - 1) = c (ans + alpha s)
        negative = g * (input_scale * (x + alpha * scale))
    else:  # exp of the negative part only: e^x of a large x would overflow
        negative = g * (np.exp(np.where(x > 0, 0, x) * input_scale) * (alpha * scale * input_scale))
    return np.where(x <= 0, negative, g * scale)


def _elu_curvature(gg, g, x, alpha, scale, input_scale, is_result):
    # as PyTorch's: 0 at x = 0 (where the first derivative jumps from scale to alpha s c)
    if is_result:
        return where(x < 0, gg * g * input_scale, 0.0)
    return where(x < 0, elu_backward(gg * g * input_scale, x, alpha, scale, input_scale, False), 0.0)


ELU_BACKWARD = defop(
    "elu_backward", _elu_grad, batch=elementwise, node="EluBackwardBackward0",
    save=lambda ans, g, x, *params: (g, x) + params,
    vjp=(lambda gg, g, x, *params: elu_backward(gg, x, *params), _elu_curvature),
    jvp=(lambda t, g, x, *params: elu_backward(t, x, *params), _elu_curvature))


def elu_backward(g, x, alpha, scale, input_scale, is_result):
    return apply(ELU_BACKWARD, (g, x), (alpha, scale, input_scale, is_result), g._data.dtype)


def _elu_rules(node, from_result):
    return dict(node=node, elementwise=True,
                save=lambda ans, x, *params: ((ans if from_result else x),) + params,
                vjp=lambda g, x, *params: elu_backward(g, x, *params, from_result),
                jvp=lambda t, x, *params: elu_backward(t, x, *params, from_result))


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
    """gelu''(x) with chainrule ops, as PyTorch's gelu_double_backward: for tanh, gelu' is
    f' g + f g' h... with f = x/2, g = sech^2(u), h = u', each term a product in which a zero
    sech^2 meets finite factors (at |x| = 1e9 an expanded form makes 0 * inf)."""
    if approximate == "tanh":
        inner = (x + x ** 3 * _GELU_C) * _SQRT_2_OVER_PI
        tanh_inner, sech_inner = tanh(inner), 1 / cosh(inner)
        f, g, h = x * 0.5, 1 - tanh_inner * tanh_inner, (1 + x * (3 * _GELU_C) * x) * _SQRT_2_OVER_PI
        g_prime = (sech_inner * 2) * (-sech_inner * tanh_inner) * h
        h_prime = x * (6 * _GELU_C) * _SQRT_2_OVER_PI
        return g * 0.5 * h * 2 + f * h * g_prime + f * g * h_prime
    square = x * x
    pdf = exp(square * -0.5) * _INV_SQRT_2PI
    return pdf * 2 - square * pdf


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
             vjp=lambda g, x, a: gelu_backward(g, x, a), jvp=FROM_VJP,
             elementwise=True)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _floating_only(input, "GeluKernelImpl")
    return unary(GELU, input, (approximate,))


def _silu_slope(x):
    s = sigmoid(x)
    return s * (1 + x * (1 - s))


def _silu(x):
    with np.errstate(over="ignore"):  # e^-x = inf gives the right -0.
        return x / (1 + np.exp(-x))


SILU = defop("silu", _silu, node="SiluBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g * _silu_slope(x), jvp=FROM_VJP, elementwise=True)


def silu(input):
    _floating_only(input, "silu_cpu", complex_ok=True)
    return unary(SILU, input)


def _mish_slope(x):
    t = tanh(softplus(x))
    return t + x * sigmoid(x) * (1 - t * t)


MISH = defop("mish", lambda x: x * np.tanh(np.logaddexp(0, x)), node="MishBackward0", save=lambda ans, x: (x,),
             vjp=lambda g, x: g * _mish_slope(x), jvp=FROM_VJP, elementwise=True)


def mish(input):
    _floating_only(input, "mish_cpu")
    return unary(MISH, input)


@_opmath  # float16 in float32, as PyTorch: log1p(exp(20)) in float16 would overflow
def _softplus(x, beta, threshold):
    with np.errstate(over="ignore"):
        smooth = np.log1p(np.exp(x * beta)) / beta
    return np.where(x * beta > threshold, x, smooth)


@_opmath
def _softplus_grad(g, x, beta, threshold):
    # e^(beta x) / (e^(beta x) + 1), as PyTorch: exact far below 0, where 1 / (1 + e^-(beta x))
    # is already 0
    with np.errstate(over="ignore", invalid="ignore"):
        z = np.exp(x * beta)
        return np.where(x * beta > threshold, g, g * z / (z + 1))


def _logistic_slope(x):
    """sigmoid'(x) = e^-|x| / (1 + e^-|x|)^2, without 1 - sigmoid(x) losing its digits."""
    z = exp(-abs(x))
    return z / ((1 + z) * (1 + z))


def _softplus_curvature(gg, g, x, beta, threshold):
    # PyTorch's softplus_double_backward masks by a product, and by beta x < threshold: zero
    # at beta x == threshold too, where the first derivative is still the smooth one
    return gg * g * _logistic_slope(x * beta) * (x * beta < threshold) * beta


SOFTPLUS_BACKWARD = defop(
    "softplus_backward", _softplus_grad, batch=elementwise, node="SoftplusBackwardBackward0",
    save=lambda ans, g, x, beta, threshold: (g, x, beta, threshold),
    vjp=(lambda gg, g, x, beta, th: softplus_backward(gg, x, beta, th), _softplus_curvature),
    jvp=(lambda t, g, x, beta, th: softplus_backward(t, x, beta, th), _softplus_curvature))


def softplus_backward(g, x, beta, threshold):
    return apply(SOFTPLUS_BACKWARD, (g, x), (beta, threshold), g._data.dtype)


# log(1 + e^x) composed overflows for large x; the slope is e^(beta x) / (e^(beta x) + 1)
SOFTPLUS = defop("softplus", _softplus, node="SoftplusBackward0",
                 save=lambda ans, x, beta, threshold: (x, beta, threshold),
                 vjp=softplus_backward, jvp=softplus_backward, elementwise=True)


def softplus(input, beta=1.0, threshold=20.0):
    _floating_only(input, "softplus_cpu")
    return unary(SOFTPLUS, input, (beta, threshold))


def _log_sigmoid(x):
    # min(x, 0) - log(1 + e^-|x|), as PyTorch: log(sigmoid(x)) would be log(0) = -inf below
    # -100, and this gives +0. at +inf; float16 in float32, its opmath (at 100: -3.7e-44, so -0.)
    if x.dtype == np.float16:
        return _log_sigmoid(x.astype(np.float32)).astype(np.float16)
    return np.where(x < 0, x, 0) - np.log1p(np.exp(-np.abs(x)))


def _log_sigmoid_grad(g, x):
    # sigmoid(-x) from e^-|x|: 1 - sigmoid(x) would lose the digits of the far tail
    z = np.exp(-np.abs(x))
    return g * np.where(x < 0, 1 - z / (1 + z), z / (1 + z))


LOG_SIGMOID_BACKWARD = defop(
    "log_sigmoid_backward", _log_sigmoid_grad, batch=elementwise, node="LogSigmoidBackwardBackward0",
    save=lambda ans, g, x: (g, x),
    vjp=(lambda gg, g, x: log_sigmoid_backward(gg, x), lambda gg, g, x: -gg * g * _logistic_slope(x)),
    jvp=(lambda t, g, x: log_sigmoid_backward(t, x), lambda t, g, x: -t * g * _logistic_slope(x)))


def log_sigmoid_backward(g, x):
    return apply(LOG_SIGMOID_BACKWARD, (g, x), (), g._data.dtype)


LOG_SIGMOID = defop("log_sigmoid", _log_sigmoid, node="LogSigmoidBackward0", save=lambda ans, x: (x,),
                    vjp=log_sigmoid_backward, jvp=log_sigmoid_backward, elementwise=True)


def log_sigmoid(input):
    _floating_only(input, "log_sigmoid_cpu")
    return unary(LOG_SIGMOID, input)


def _inside(x, lo, hi):
    return (x > lo) & (x < hi)


# PyTorch has no derivative for hardsigmoid_backward: a second backward through it raises
HARDSIGMOID_BACKWARD = _no_derivative("hardsigmoid_backward")


def hardsigmoid_backward(g, x):
    out = plain(lambda g, x: np.where(_inside(x, -3, 3), g / 6, 0), (g, x), dtype=g._data.dtype)
    return without_derivative(HARDSIGMOID_BACKWARD, out, (g, x))


HARDSIGMOID = defop("hardsigmoid", lambda x: np.clip(x + 3, 0, 6) / 6, node="HardsigmoidBackward0",
                    save=lambda ans, x: (x,), vjp=hardsigmoid_backward,
                    jvp=lambda t, x: where(_inside(x, -3, 3), t / 6, 0.0), elementwise=True)


def hardsigmoid(input):
    _floating_only(input, "hardsigmoid_cpu")
    return unary(HARDSIGMOID, input)


def _hardswish_grad(g, x):
    return np.where(x <= -3, 0, np.where(x < 3, g * (x / 3 + 0.5), g))


# x (x + 3) / 6 between the kinks: its second derivative is 1/3 there
HARDSWISH_BACKWARD = defop(
    "hardswish_backward", _hardswish_grad, batch=elementwise, node="HardswishBackwardBackward0",
    save=lambda ans, g, x: (g, x),
    vjp=(lambda gg, g, x: hardswish_backward(gg, x), lambda gg, g, x: where(_inside(x, -3, 3), gg * g / 3, 0.0)),
    jvp=(lambda t, g, x: hardswish_backward(t, x), lambda t, g, x: where(_inside(x, -3, 3), t * g / 3, 0.0)))


def hardswish_backward(g, x):
    return apply(HARDSWISH_BACKWARD, (g, x), (), g._data.dtype)


HARDSWISH = defop("hardswish", lambda x: x * np.clip(x + 3, 0, 6) / 6, node="HardswishBackward0",
                  save=lambda ans, x: (x,), vjp=hardswish_backward, jvp=hardswish_backward, elementwise=True)


def hardswish(input):
    _floating_only(input, "hardswish_cpu")
    return unary(HARDSWISH, input)


# --- shrinkage --------------------------------------------------------------------------------

def _within(x, lambd):
    return (x >= -lambd) & (x <= lambd)


def _shrink_grad(g, x, lambd):
    return np.where(_within(x, lambd), 0, g)


SOFTSHRINK_BACKWARD = _zero_second("softshrink_backward", "SoftshrinkBackwardBackward0", _shrink_grad,
                                   lambda g, x, lambd: softshrink_backward(g, x, lambd))
HARDSHRINK_BACKWARD = _zero_second("hardshrink_backward", "HardshrinkBackwardBackward0", _shrink_grad,
                                   lambda g, x, lambd: hardshrink_backward(g, x, lambd))


def softshrink_backward(g, x, lambd):
    return apply(SOFTSHRINK_BACKWARD, (g, x), (lambd,), g._data.dtype)


def hardshrink_backward(g, x, lambd):
    return apply(HARDSHRINK_BACKWARD, (g, x), (lambd,), g._data.dtype)


def _softshrink(x, lambd):
    # as PyTorch's element-by-element kernel: x * 0 inside, a zero with x's sign
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, x * 0))


SOFTSHRINK = defop("softshrink", _softshrink, node="SoftshrinkBackward0", elementwise=True,
                   save=lambda ans, x, lambd: (x, lambd), vjp=softshrink_backward, jvp=softshrink_backward)
HARDSHRINK = defop("hardshrink", lambda x, lambd: np.where(_within(x, lambd), 0, x), node="HardshrinkBackward0",
                   elementwise=True, save=lambda ans, x, lambd: (x, lambd), vjp=hardshrink_backward,
                   jvp=hardshrink_backward)


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
    # a * sigmoid(b), the sigmoid's far tail kept (1e30 * sigmoid(-40) is 4e12, not 0); half
    # precision in float32, rounded once, as PyTorch's kernel
    a, b = np.split(x.astype(np.float32) if x.dtype == np.float16 else x, 2, axis=dim)
    return (a * _sigmoid(b)).astype(x.dtype, copy=False)


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
    dim = wrap_dim(dim, input._data.ndim)
    size = input._data.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim} is size {size}")
    if input._data.dtype.kind != "f":  # no complex kernel either
        raise _dtype.not_implemented("glu_cpu", input._data.dtype)
    return unary(GLU, input, (dim,))


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

Tensor.hardshrink = hardshrink
Tensor.prelu = prelu
