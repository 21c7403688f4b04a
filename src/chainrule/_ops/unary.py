"""Pointwise unary maths: exp, log, trigonometry, rounding and friends.

Each op is a ``defop`` entry (see ``registry``) followed by its public function. The
rules are one-liners from calculus; ``elementwise=True`` tells the registry that the
output has the input's shape, so nothing needs reducing in backward.

Ops on integer tensors that PyTorch computes in floating point (``sin``, ``exp``...)
pass ``_float_result(x)`` so their result has the default dtype.
"""
import numpy as np

from .._tensor import _wrap
from .elementwise import _float_result, _scalar_result, _tensor_result, _is_tensor, as_tensor_like, where, zeros_like
from .registry import binary, defop, unary

# --- unary maths ----------------------------------------------------------------------

ABS = defop("abs", np.abs, node="AbsBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: g * sign(x), jvp=lambda t, x: t * sign(x), elementwise=True)


def abs(x):
    return unary(ABS, x)


SIGN = defop("sign", np.sign, node="SignBackward0",
             vjp=lambda g: zeros_like(g), jvp=lambda t: zeros_like(t), elementwise=True)


def sign(x):
    if x._data.dtype.kind == "b":
        return x.clone()
    return unary(SIGN, x)


EXP = defop("exp", np.exp, node="ExpBackward0", save=lambda ans, x: (ans,),
            vjp=lambda g, ans: g * ans.conj(), jvp=lambda t, ans: t * ans, elementwise=True)


def exp(x):
    return unary(EXP, x, (), _float_result(x))


LOG = defop("log", np.log, node="LogBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: g / x.conj(), jvp=lambda t, x: t / x, elementwise=True)


def log(x):
    return unary(LOG, x, (), _float_result(x))


SQRT = defop("sqrt", np.sqrt, node="SqrtBackward0", save=lambda ans, x: (ans,),
             vjp=lambda g, ans: g / (2 * ans.conj()), jvp=lambda t, ans: t / (2 * ans),
             elementwise=True)


def sqrt(x):
    return unary(SQRT, x, (), _float_result(x))


SIN = defop("sin", np.sin, node="SinBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: g * cos(x).conj(), jvp=lambda t, x: t * cos(x), elementwise=True)


def sin(x):
    return unary(SIN, x, (), _float_result(x))


COS = defop("cos", np.cos, node="CosBackward0", save=lambda ans, x: (x,),
            vjp=lambda g, x: -g * sin(x).conj(), jvp=lambda t, x: -t * sin(x), elementwise=True)


def cos(x):
    return unary(COS, x, (), _float_result(x))


TAN = defop("tan", np.tan, node="TanBackward0", save=lambda ans, x: (ans,),
            vjp=lambda g, ans: g * (1 + ans * ans).conj(), jvp=lambda t, ans: t * (1 + ans * ans),
            elementwise=True)


def tan(x):
    return unary(TAN, x, (), _float_result(x))


# tanh' = 1 - tanh^2 as one op, as PyTorch's tanh_backward: a third of the Python work
# of composing it from three ops, on every backward through tanh
TANH_BACKWARD = defop(
    "tanh_backward", lambda g, y: g * (1 - y * y), node="TanhBackwardBackward0",
    save=lambda ans, g, y: (g, y),
    vjp=(lambda gg, g, y: tanh_backward(gg, y), lambda gg, g, y: -2 * gg * g * y.conj()),
    jvp=(lambda t, g, y: tanh_backward(t, y), lambda t, g, y: -2 * t * g * y))


def tanh_backward(g, y):
    return binary(TANH_BACKWARD, g, y.conj(), _tensor_result(g, y))


TANH = defop("tanh", np.tanh, node="TanhBackward0", save=lambda ans, x: (ans,),
             vjp=lambda g, ans: tanh_backward(g, ans), jvp=lambda t, ans: tanh_backward(t, ans),
             elementwise=True)


def tanh(x):
    return unary(TANH, x, (), _float_result(x))


def _sigmoid(x):
    # 1 / (1 + e^-x) overflows for large negative x; the tanh form never does
    return 0.5 * (1 + np.tanh(0.5 * x))


# sigmoid' = sigmoid (1 - sigmoid): exact where the composed gradient would overflow, and
# one op (PyTorch's sigmoid_backward) instead of three
SIGMOID_BACKWARD = defop(
    "sigmoid_backward", lambda g, y: g * (y * (1 - y)), node="SigmoidBackwardBackward0",
    save=lambda ans, g, y: (g, y),
    vjp=(lambda gg, g, y: sigmoid_backward(gg, y), lambda gg, g, y: gg * g * (1 - 2 * y).conj()),
    jvp=(lambda t, g, y: sigmoid_backward(t, y), lambda t, g, y: t * g * (1 - 2 * y)))


def sigmoid_backward(g, y):
    return binary(SIGMOID_BACKWARD, g, y.conj(), _tensor_result(g, y))


SIGMOID = defop("sigmoid", _sigmoid, node="SigmoidBackward0", save=lambda ans, x: (ans,),
                vjp=lambda g, ans: sigmoid_backward(g, ans),
                jvp=lambda t, ans: sigmoid_backward(t, ans), elementwise=True)


def sigmoid(x):
    return unary(SIGMOID, x, (), _float_result(x))


RELU = defop("relu", lambda x: np.maximum(x, 0), node="ReluBackward0", save=lambda ans, x: (ans,),
             vjp=lambda g, ans: g * (ans > 0), jvp=lambda t, ans: t * (ans > 0), elementwise=True)


def relu(x):
    if x._data.dtype.kind == "b":
        raise RuntimeError('"clamp_min_scalar_cpu" not implemented for \'Bool\'')
    return unary(RELU, x)


RECIPROCAL = defop("reciprocal", lambda x: np.divide(1, x), node="ReciprocalBackward0",
                   save=lambda ans, x: (ans,),
                   vjp=lambda g, ans: -g * (ans * ans).conj(), jvp=lambda t, ans: -t * ans * ans,
                   elementwise=True)


def reciprocal(x):
    return unary(RECIPROCAL, x, (), _float_result(x))


def _clamp_mask(x, lo, hi):
    inside = np.ones(x.shape, dtype=bool)
    if lo is not None:
        inside &= x._data >= lo
    if hi is not None:
        inside &= x._data <= hi
    return _wrap(inside)


CLAMP = defop("clamp", lambda x, lo, hi: np.clip(x, lo, hi), node="ClampBackward1",
              save=lambda ans, x, lo, hi: (_clamp_mask(x, lo, hi),),
              vjp=lambda g, inside: g * inside, jvp=lambda t, inside: t * inside, elementwise=True)


def clamp(x, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if _is_tensor(min) or _is_tensor(max):
        out = x
        if min is not None:
            out = where(out < min, as_tensor_like(min, x), out)
        if max is not None:
            out = where(out > max, as_tensor_like(max, x), out)
        return out
    out_dtype = None
    for bound in (min, max):
        if bound is not None:
            out_dtype = out_dtype or _scalar_result(x, bound)
    return unary(CLAMP, x, (min, max), out_dtype)
