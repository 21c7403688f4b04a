"""softmax and log_softmax over a dim, each its own node whose gradient is computed from
the output alone (as PyTorch's ``_softmax_backward_data``), and those backwards as ops of
their own, for the second derivative.
"""
import numpy as np

from ..._core import arguments as _argparse
from ..._core.tensor import Tensor
from ..reduce.reductions import sum as _sum
from ..batching import dim_params
from ..registry import FROM_VJP, apply, defop, unary
from ..._core.dims import wrap_dim
from ..pointwise.unary import exp
from .activations import _floating_only


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
    wide = x.astype(np.float32) if x.dtype == np.float16 else x  # float16 runs in float32, as PyTorch's
    e = np.exp(wide - wide.max(axis=dim, keepdims=True))
    return (e / e.sum(axis=dim, keepdims=True)).astype(x.dtype, copy=False)


def _log_softmax(x, dim):
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    shifted = wide - wide.max(axis=dim, keepdims=True)
    return (shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))).astype(x.dtype, copy=False)


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
                jvp=FROM_VJP, elementwise=True)

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
    try:
        ndim = x._data.ndim
    except AttributeError:
        _argparse.check_tensor(name, x)
        raise
    dim = wrap_dim(dim, ndim)
    kernel = f"{name}_lastdim_kernel_impl" if dim >= ndim - 1 else f"{name}_kernel_impl"
    if x._data.size:  # PyTorch runs no kernel on an empty tensor, so any dtype passes
        _floating_only(x, kernel)
    return x, dim


def softmax(input, dim, dtype=None):
    """``torch.softmax(input, dim, dtype=None)``: exp(x) / sum(exp(x)) along ``dim``."""
    x, dim = _softmax_input(input, dim, dtype, "softmax")
    return unary(SOFTMAX, x, (dim,), x._data.dtype)


def log_softmax(input, dim, dtype=None):
    x, dim = _softmax_input(input, dim, dtype, "log_softmax")
    return unary(LOG_SOFTMAX, x, (dim,), x._data.dtype)


# --- Tensor methods --------------------------------------------------------------------------

Tensor.softmax = softmax
Tensor.log_softmax = log_softmax
