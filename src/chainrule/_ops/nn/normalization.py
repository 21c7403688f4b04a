"""Normalization: layer, batch, group and instance norm; cosine similarity and pairwise
distance, which divide by and take vector norms.

layer_norm and batch_norm (group_norm too) are one op each, as in PyTorch
(``NativeLayerNormBackward0``): composed, each would be eight nodes and keep five
intermediate tensors alive per call. Their rules are written with chainrule ops, and
recompute the statistics from the saved input, so they can be differentiated again:
with x̂ = (x - mean) * rstd over the normalized dims, the gradient for x is

    rstd * (g' - mean(g') - x̂ * mean(g' * x̂)),   g' = g * weight

(the same projection gives the forward-mode tangent, the Jacobian being symmetric).
"""
import math

import numpy as np

from ..._core.dtype import result_dtype
from ..._core.tensor import _wrap
from ..._autograd.grad_mode import no_grad
from ..._core.dtype import type_word as _type_word
from ..batching import any_batched, batch_size, batched_by, dim_params, on_batch, pad, top_level
from ..reduce.reductions import sum as _sum
from ..reduce import norms as _norms
from ..reduce.norms import norm
from ..registry import apply, broadcast_error, defop, unary
from ..._core.dims import wrap_dim
from ..._core.arguments import wrap_dims
from ..pointwise.unary import rsqrt

# --- normalizing over some dims ---------------------------------------------------------------


def _moments(x, dims):
    """NumPy mean and (biased) variance over ``dims``, kept as size-1 dims."""
    mean = x.mean(axis=dims, keepdims=True)
    centered = x - mean
    return mean, (centered * centered).mean(axis=dims, keepdims=True)


def _standardized(x, dims, eps):
    """x̂ and rstd over ``dims``, with chainrule ops (so differentiable)."""
    centered = x - x.mean(dims, True)
    rstd = rsqrt((centered * centered).mean(dims, True) + eps)
    return centered * rstd, rstd


def _project(g, xhat, rstd, dims):
    """The Jacobian of x -> x̂ applied to g (it is symmetric: vjp and jvp alike)."""
    return rstd * (g - g.mean(dims, True) - xhat * (g * xhat).mean(dims, True))


# --- layer norm ---------------------------------------------------------------------------------

def _layer_norm(x, w, b, dims, eps):
    mean, var = _moments(x, dims)
    return ((x - mean) / np.sqrt(var + eps) * w + b).astype(x.dtype, copy=False)


def _layer_norm_x(g, x, w, dims, eps):
    xhat, rstd = _standardized(x, dims, eps)
    return _project(g * w, xhat, rstd, dims)


def _layer_norm_x_tangent(t, x, w, dims, eps):
    xhat, rstd = _standardized(x, dims, eps)
    return _project(t, xhat, rstd, dims) * w


def _layer_norm_w(g, x, w, dims, eps):
    return g * _standardized(x, dims, eps)[0]


NATIVE_LAYER_NORM = defop(
    "native_layer_norm", _layer_norm, batch=dim_params(0, first_only=True), node="NativeLayerNormBackward0",
    save=lambda ans, x, w, b, dims, eps: (x, w, dims, eps),
    vjp=(_layer_norm_x, _layer_norm_w, lambda g, x, w, dims, eps: g),
    jvp=(_layer_norm_x_tangent, _layer_norm_w, lambda t, x, w, dims, eps: t))


def _or_constant(t, value, like):
    """An absent weight (bias) as a 0-d one (zero) that broadcasts and needs no gradient."""
    return t if t is not None else _wrap(np.array(value, dtype=like._data.dtype))


def _mixed_dtype(x, *params):
    for p in params:
        if p is not None and p._data.dtype != x._data.dtype:
            raise RuntimeError(f"mixed dtype (CPU): expect parameter to have scalar type of "
                               f"{_type_word(x._data.dtype)}")


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    """Normalizes over the last ``len(normalized_shape)`` dims, then ``* weight + bias``."""
    if isinstance(normalized_shape, int):
        raise TypeError("layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not int")
    shape = list(normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
                           "one element, but got normalized_shape = []")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and list(p._data.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(p._data.shape)} and normalized_shape = {shape}")
    in_shape = list(input._data.shape)
    if len(in_shape) < len(shape) or in_shape[len(in_shape) - len(shape):] != shape:
        raise RuntimeError(f"Given normalized_shape={shape}, expected input with shape [*, "
                           f"{', '.join(map(str, shape))}], but got input of size{in_shape}")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"LayerNormKernelImpl" not implemented for \'{_type_word(input._data.dtype)}\'')
    _mixed_dtype(input, weight, bias)
    dims = tuple(range(len(in_shape) - len(shape), len(in_shape)))
    return apply(NATIVE_LAYER_NORM, (input, _or_constant(weight, 1.0, input), _or_constant(bias, 0.0, input)),
                 (dims, eps))


# --- batch norm ----------------------------------------------------------------------------------
# ``stats``: None in training (the batch's own mean and variance), else the running
# (mean, var) as arrays of the channel shape, which backward treats as constants.

def _batch_norm(x, w, b, dims, stats, eps):
    if stats is not None:
        mean, var = stats
        return ((x - mean) / np.sqrt(var + eps) * w + b).astype(x.dtype, copy=False)
    # PyTorch's CPU kernel takes a batch's statistics in its accumulation type (double for
    # float: a variance past float's range stays finite) and normalizes in the input's dtype
    wide = x.astype(np.float64 if x.dtype == np.float32 else np.float32) if x.dtype.itemsize < 8 else x
    mean, var = _moments(wide, dims)
    with np.errstate(over="ignore"):
        invstd = (1 / np.sqrt(var + eps)).astype(x.dtype)
    return ((x - mean.astype(x.dtype)) * invstd * w + b).astype(x.dtype, copy=False)


def _batch_norm_x(g, x, w, dims, stats, eps):
    if stats is not None:
        return g * w * _wrap(1 / np.sqrt(stats[1] + eps))
    xhat, rstd = _standardized(x, dims, eps)
    return _project(g * w, xhat, rstd, dims)


def _batch_norm_w(g, x, w, dims, stats, eps):
    if stats is not None:
        return g * ((x - _wrap(stats[0])) * _wrap(1 / np.sqrt(stats[1] + eps)))
    return g * _standardized(x, dims, eps)[0]


# under vmap the stats dims move past the batch dim; the running stats (1, C, 1, ...)
# broadcast from the right as they are
NATIVE_BATCH_NORM = defop(
    "native_batch_norm", _batch_norm, batch=dim_params(0), node="NativeBatchNormBackward0",
    save=lambda ans, x, w, b, dims, stats, eps: (x, w, dims, stats, eps),
    vjp=(_batch_norm_x, _batch_norm_w, lambda g, x, w, dims, stats, eps: g),
    jvp=(_batch_norm_x, _batch_norm_w, lambda t, x, w, dims, stats, eps: t))


def _channel_vector(t, channels, ndim, name):
    if t is None:
        return None
    if t._data.size != channels:
        raise RuntimeError(f"{name} should contain {channels} elements not {t._data.size}")
    return t.reshape((channels,) + (1,) * (ndim - 2))


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled=True):
    """``torch.batch_norm``: per channel (dim 1) over the batch and spatial dims. In
    training the running statistics are updated in place (the variance unbiased)."""
    x = input._data
    if x.size == 0:  # PyTorch's first case, any dtype: a copy, scaled and shifted by channel 0's weight and bias
        out = input.clone()
        out = out if weight is None else out * weight[0]
        return out if bias is None else out + bias[0]
    if not training and running_mean is None:
        raise RuntimeError("running_mean must be defined in evaluation mode")
    channels = x.shape[1] if x.ndim > 1 else 0
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                    ("running_var", running_var)):
        _channel_vector(t, channels, max(x.ndim, 2), name)
    if training and running_mean is None and x.ndim < 2:  # PyTorch reads the channel count, size(1), first
        wrap_dim(1, x.ndim)
    if x.dtype.kind != "f":
        # PyTorch's kernels take contiguous and channels-last inputs; others have their
        # training statistics from mean(), which refuses the dtype in its own words (a
        # complex one it takes: the kernel refuses it after)
        kernel_layout = x.flags.c_contiguous or (x.ndim in (4, 5) and np.moveaxis(x, 1, -1).flags.c_contiguous)
        if training and not kernel_layout and x.dtype.kind != "c":
            raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating point or "
                               f"complex dtype. Got: {_type_word(x.dtype)}")
        raise NotImplementedError(f'"batch_norm" not implemented for \'{_type_word(x.dtype)}\'')
    _mixed_dtype(input, weight, bias, running_mean, running_var)
    return _batch_norm_checked(input, weight, bias, running_mean, running_var, training, momentum, eps, channels)


def _batch_norm_batched(input, weight, bias, running_mean, running_var, training, momentum, eps, channels):
    """Running statistics under vmap: updated per sample, from the batch's statistics."""
    if running_mean is None and running_var is None:
        return NotImplemented  # the ops' rules
    ndim = input._data.ndim
    out = _batch_norm_stats_batched(input, running_mean, running_var, training, momentum, eps)
    w = _channel_vector(weight, channels, ndim, "weight")
    b = _channel_vector(bias, channels, ndim, "bias")
    out = out if w is None else out * w
    return out if b is None else out + b


@batched_by(_batch_norm_batched, when=("input", "running_mean", "running_var"))
def _batch_norm_checked(input, weight, bias, running_mean, running_var, training, momentum, eps, channels):
    x = input._data
    dims = (0,) + tuple(range(2, x.ndim))
    stats = None
    if not training:
        shape = (1, channels) + (1,) * (x.ndim - 2)
        stats = (running_mean._data.reshape(shape).copy(), running_var._data.reshape(shape).copy())
    elif running_mean is not None and x.size:
        mean, var = _moments(x, dims)
        n = x.size // channels
        running_mean._data *= 1 - momentum
        running_mean._data += momentum * mean.reshape(-1)
        running_var._data *= 1 - momentum
        running_var._data += momentum * var.reshape(-1) * (n / max(n - 1, 1))
        running_mean._counter[0] += 1
        running_var._counter[0] += 1
    w = _channel_vector(weight, channels, x.ndim, "weight")
    b = _channel_vector(bias, channels, x.ndim, "bias")
    return apply(NATIVE_BATCH_NORM, (input, _or_constant(w, 1.0, input), _or_constant(b, 0.0, input)),
                 (dims, stats, eps))


def _batch_norm_stats_batched(input, running_mean, running_var, training, momentum, eps):
    """Batch norm (no weight, bias) under vmap with running stats, as PyTorch's batching
    rule: the batch folded into the channels, (B, N, C, ...) -> (N, B*C, ...), the stats
    (B, C) -> (B*C,). The update reaches the caller's stats only where that flattening is
    a view (batch dim 0 of contiguous stats): PyTorch flattens a copy otherwise, and so here.

    >>> # vmap(F.batch_norm)(x (B, N, C), mean (B, C), var (B, C), training=True): mean[b] updated from x[b]
    """
    level = top_level(input, running_mean, running_var)
    if training and getattr(input, "_level", 0) == level and \
            any(s is not None and getattr(s, "_level", 0) != level for s in (running_mean, running_var)):
        raise RuntimeError(
            "Batch norm got a batched tensor as input while the running_mean or running_var, which will be updated "
            "in place, were not batched.\nIf you are using a module and do not need eval mode, please set "
            "`track_running_stats` to be False.If you are using a prebuilt module and do not need eval mode, please "
            "see the functorch website for resources on how to patch your module to work with vmap")

    def folded(x, mean, var):
        shape = x._data.shape
        size, n, c, rest = shape[0], shape[1], shape[2], shape[3:]
        flat = x.movedim(0, 1).reshape((n, size * c) + rest)
        mean, var = (None if s is None else _flat_stat(s) for s in (mean, var))
        out = batch_norm(flat, None, None, mean, var, training, momentum, eps)
        return out.reshape((n, size, c) + rest).movedim(1, 0)
    return on_batch(folded, input, running_mean, running_var)


def _flat_stat(stat):
    """(B, C) stats as (B*C,), a copy where that isn't a contiguous view (PyTorch's
    ``reshape(-1).contiguous()``). Stats a nested vmap still batches stay as they are:
    that level's fold flattens their memory, and decides."""
    flat = stat.reshape(-1)
    return flat if any_batched(flat) else flat.contiguous()


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                  cudnn_enabled=True):
    """Batch norm of each (sample, channel) pair on its own: the batch folded into the
    channels, as PyTorch computes it."""
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    shape = input._data.shape
    n, c = shape[0], shape[1]

    def repeat(t):  # a copy, as PyTorch's repeat: batch norm writes the folded running stats
        return None if t is None else t.repeat(n)

    folded = input.contiguous().view((1, n * c) + shape[2:])
    mean_, var_ = repeat(running_mean), repeat(running_var)
    out = batch_norm(folded, repeat(weight), repeat(bias), mean_, var_, use_input_stats, momentum, eps)
    for stat, folded_stat in ((running_mean, mean_), (running_var, var_)):
        if stat is not None:
            stat._data[...] = folded_stat._data.reshape(n, c).mean(axis=0)
            stat._counter[0] += 1
    return out.view(shape)


# --- group norm ------------------------------------------------------------------------------------

def _grouped(x, groups):
    shape = x.shape
    return x.reshape(shape[0], groups, int(np.prod(shape[1:])) // groups)


def _group_norm(x, w, b, groups, eps):
    """As PyTorch's kernel: x * scale + shift by channel, scale = rstd * w and shift =
    -scale * mean + b, in float32 at least."""
    n, c = x.shape[:2]
    by_channel = x.reshape(n, groups, c // groups, int(np.prod(x.shape[2:])))
    mean, var = _moments(by_channel.astype(np.result_type(x.dtype, np.float32), copy=False), (2, 3))
    scale = 1 / np.sqrt(var + eps) * (w.reshape(groups, c // groups, 1) if w.ndim else w)
    shift = -scale * mean + (b.reshape(groups, c // groups, 1) if b.ndim else b)
    return (by_channel * scale + shift).reshape(x.shape).astype(x.dtype, copy=False)


def _group_xhat(x, groups, eps):
    return _standardized(_grouped(x, groups), (2,), eps)


def _group_norm_x(g, x, w, groups, eps):
    xhat, rstd = _group_xhat(x, groups, eps)
    return _project(_grouped(g * w, groups), xhat, rstd, (2,)).reshape(x.shape)


def _group_norm_x_tangent(t, x, w, groups, eps):
    xhat, rstd = _group_xhat(x, groups, eps)
    return _project(_grouped(t, groups), xhat, rstd, (2,)).reshape(x.shape) * w


def _group_norm_w(g, x, w, groups, eps):
    return g * _group_xhat(x, groups, eps)[0].reshape(x.shape)


def _group_norm_batch(op, args, batched, params, dtype):
    """vmap's rule: the batch joins the samples' N, (B, N, C, ...) -> (B*N, C, ...); a
    batched weight or bias is applied after, per sample."""
    x, w, b = args
    size = batch_size(args, batched)
    if not batched[0]:
        x = x.expand((size,) + x._data.shape)
    shape = x._data.shape
    flat = x.reshape((size * shape[1],) + shape[2:])
    if not (batched[1] or batched[2]):
        return apply(op, (flat, w, b), params, dtype).reshape(shape)
    out = apply(op, (flat, _or_constant(None, 1.0, x), _or_constant(None, 0.0, x)), params, dtype).reshape(shape)
    ndim = len(shape) - 1
    return out * (pad(w, ndim) if batched[1] else w) + (pad(b, ndim) if batched[2] else b)


NATIVE_GROUP_NORM = defop(
    "native_group_norm", _group_norm, batch=_group_norm_batch, node="NativeGroupNormBackward0",
    save=lambda ans, x, w, b, groups, eps: (x, w, groups, eps),
    vjp=(_group_norm_x, _group_norm_w, lambda g, x, w, groups, eps: g),
    jvp=(_group_norm_x_tangent, _group_norm_w, lambda t, x, w, groups, eps: t))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    """Normalizes each of ``num_groups`` groups of channels (dim 1) per sample."""
    shape = input._data.shape
    if len(shape) < 2 or shape[1] % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input "
                           f"of shape {list(shape)} and num_groups={num_groups}")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and (p._data.ndim != 1 or p._data.shape[0] != shape[1]):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(p._data.shape)} and input of shape {list(shape)}")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"GroupNormKernelImpl" not implemented for \'{_type_word(input._data.dtype)}\'')
    _mixed_dtype(input, weight, bias)
    w = _channel_vector(weight, shape[1], len(shape), "weight")
    b = _channel_vector(bias, shape[1], len(shape), "bias")
    # with neither weight nor bias PyTorch's shift is -scale * mean alone, where with either
    # it adds b or 0: an absent bias is -0. then, which adds nothing (a -0. over a zero mean
    # stays -0.), else 0.
    absent_bias = 0.0 if weight is not None else -0.0
    return apply(NATIVE_GROUP_NORM, (input, _or_constant(w, 1.0, input), _or_constant(b, absent_bias, input)),
                 (num_groups, eps))


# --- distances and similarities --------------------------------------------------------------------

# ATen's ``norm`` (pairwise_distance's last step) has a node of its own; ``x.norm(p, dim)``
# in Python is linalg.vector_norm (norms.norm)
NORM = defop("norm_scalaropt_dim", _norms.NORM.forward, batch=_norms.NORM.batch, node="NormBackward1",
             save=_norms.NORM.save, vjp=_norms.NORM.vjp, jvp=_norms.NORM.jvp)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """<x1, x2> / (max(|x1|, eps) max(|x2|, eps)) along ``dim``. As in PyTorch, each input
    is divided by its norm first, and the clamp to eps is invisible to autograd."""
    common = result_dtype((x1, x2))
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{_type_word(common.np)}")
    x1 = x1.to(common) if x1._data.dtype.kind in "biu" else x1
    x2 = x2.to(common) if x2._data.dtype.kind in "biu" else x2
    if x1._data.shape != x2._data.shape:
        shape = _broadcast_shape(x1, x2)
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = norm(x1, 2, dim, True).clone()
    n2 = norm(x2, 2, dim, True).clone()
    with no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return _sum((x1 / n1) * (x2 / n2), dim)


def _broadcast_shape(a, b):
    try:
        return np.broadcast_shapes(a._data.shape, b._data.shape)
    except ValueError as e:
        raise broadcast_error(e, a._data.shape, b._data.shape) from None


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """``norm(x1 - x2 + eps, p)`` along the last dim."""
    innermost = max(x1._data.ndim, x2._data.ndim) - 1
    diff = x1 - x2 + eps
    dims = wrap_dims(innermost, diff._data.ndim) if diff._data.ndim else ()
    if (p < 0 or p == math.inf) and diff._data.ndim and diff._data.shape[innermost] == 0:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on the dimension {innermost}because "
                           "this dimension is empty and the operation does not have an identity")
    # ATen's norm along dim -1: of a 0-d difference too, whose 2-norm then squares (and overflows)
    return unary(NORM, diff, (float(p), dims, keepdim, diff._data.ndim > 0))

