"""Pooling: max, average, adaptive and power-average pooling over the last two dims.

The 1-d poolings are the 2-d ones on a height of one (``unsqueeze(-2)``, pool,
``squeeze(-2)``), exactly as PyTorch records them.

* Max pooling finds each window's winner once (NumPy argmax over a strided window view)
  and then *gathers*: its gradient scatters back to the winners (overlapping windows add),
  and the scatter's gradient gathers again. Each max pool is such a pair of ops.
* Average pooling sums each window (a strided view) and divides by PyTorch's divisor; its
  transpose spreads each output gradient over its window (col2im, as in ``conv``).
* Adaptive average pooling is a resampling (see ``resampling``): the taps of output ``o``
  are the inputs ``floor(o*I/O) .. ceil((o+1)*I/O) - 1``, each weighing ``1 / width``.
* lp_pool is composed as PyTorch composes it: ``avg_pool(x ** p)`` then sign, relu, pow.

Example: max_pool2d of a (1, 1, 4, 4) input with kernel 2 reads four windows; the
gradient of each output goes to the one input element that was its window's maximum.
"""
import math

import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import _LEGACY_NAMES, _wrap
from .conv import _add_windows, _windows
from ..batching import aligned, batched_by, leading, on_batch
from ..pointwise.elementwise import where, zeros_like
from ..reduce.reductions import mean
from ..registry import apply, defop, unary
from .resampling import _resample_pair, resample
from ..pointwise.unary import abs as _abs, relu, sign

# --- output sizes and arguments ---------------------------------------------------------------


def _pool_out(size, kernel, padding, stride, dilation, ceil_mode):
    """PyTorch's pooling_output_shape: with ceil_mode, a last window that would start in the
    right padding is dropped."""
    out = (size + 2 * padding - dilation * (kernel - 1) - 1 + (stride - 1 if ceil_mode else 0)) // stride + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _checked_out(size, kernel, padding, stride, dilation, ceil_mode):
    if stride == 0:
        raise RuntimeError("stride should not be zero")
    if padding < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {padding}")
    if padding > ((kernel - 1) * dilation + 1) // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={padding}, "
                           f"kernel_size={kernel} and dilation={dilation}")
    return _pool_out(size, kernel, padding, stride, dilation, ceil_mode)


def _ints(value):
    return (int(value),) if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)


def _pair_arg(value, name, what, default=None):
    """A 2-d pooling argument as two ints, with PyTorch's error for a wrong length."""
    values = _ints(value) if value is not None else ()
    if not values and default is not None:
        return default
    if len(values) not in (1, 2):
        raise RuntimeError(f"{name}: {what}")
    return values * 2 if len(values) == 1 else values


def _pool2d_shape_check(x, kernel, stride, padding, dilation, out):
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    if kw <= 0 or kh <= 0:
        raise RuntimeError(f"kernel size should be greater than zero, but got kH: {kh} kW: {kw}")
    if sw <= 0 or sh <= 0:
        raise RuntimeError(f"stride should be greater than zero, but got dH: {sh} dW: {sw}")
    if dh <= 0 or dw <= 0:
        raise RuntimeError(f"dilation should be greater than zero, but got dilationH: {dh} dilationW: {dw}")
    shape = x._data.shape
    if not (len(shape) == 3 and all(shape) or len(shape) == 4 and all(shape[1:])):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:"
                           f"{list(shape)}")
    if kw // 2 < pw or kh // 2 < ph:
        raise RuntimeError("pad should be smaller than or equal to half of kernel size, but got "
                           f"padW = {pw}, padH = {ph}, kW = {kw}, kH = {kh}")
    if min(out) < 1:
        planes, h, w = shape[-3:]
        raise RuntimeError(f"Given input size: ({planes}x{h}x{w}). Calculated output size: "
                           f"({planes}x{out[0]}x{out[1]}). Output size is too small")


def _check_1d(x, name, **arguments):
    """checkDimRange and check1d of PyTorch's 1-d poolings."""
    ndim = x._data.ndim
    if ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {ndim}-dimensional tensor for argument #1 'self' "
                           f"(while checking arguments for {name})")
    for arg, value in arguments.items():
        if len(value) != 1:
            raise RuntimeError(f"{name}() argument '{arg}' should contain one int (got {len(value)})")


def _planes(x):
    """(..., H, W) as (B, 1, H, W), the layout of the window helpers."""
    return x.reshape((math.prod(x.shape[:-2]), 1) + x.shape[-2:])


def _padded_planes(x, padding, out, kernel, stride, dilation, value):
    """The planes padded by ``padding`` before and as much after as the last window needs."""
    after = [max(0, (o - 1) * s + d * (k - 1) + 1 - size - p)
             for o, s, d, k, size, p in zip(out, stride, dilation, kernel, x.shape[-2:], padding)]
    widths = [(0, 0), (0, 0)] + [(p, a) for p, a in zip(padding, after)]
    return np.pad(_planes(x), widths, constant_values=value)


# --- gather and scatter by flat index: the ops of max pooling --------------------------------


def _gather(x, index, shape):
    """``out[..., o] = x[..., index[..., o]]``, ``index`` counting over the last two dims."""
    size = x.shape[-2] * x.shape[-1]
    flat = x.reshape(x.shape[:-2] + (size,))
    flat_index = index.reshape(index.shape[:-2] + (index.shape[-2] * index.shape[-1],))
    if flat_index.size and flat_index.max() >= size:
        # a window wholly in the padding (see _max_pool_index): its value is the lowest
        valid = flat_index < size
        picked = np.where(valid, np.take_along_axis(flat, np.where(valid, flat_index, 0), -1), _lowest(x.dtype))
    else:
        picked = np.take_along_axis(flat, flat_index, -1)
    return picked.reshape(index.shape)


def _scatter(g, index, shape):
    """The transpose of ``_gather``: ``out[..., index[..., o]] += g[..., o]`` (one bincount)."""
    planes, size = math.prod(shape[:-2]), shape[-2] * shape[-1]
    flat = index + (np.arange(planes) * size).reshape(index.shape[:-2] + (1, 1))  # counting over all planes
    if index.size and index.max() >= size:  # windows wholly in the padding (see _gather) take nothing
        flat, g = flat[index < size], g[index < size]
    summed = np.bincount(flat.ravel(), weights=g.ravel(), minlength=planes * size)
    return summed.astype(g.dtype).reshape(shape)


def _by_index_batch(op, args, batched, params, dtype):
    """A gather or scatter of a batch (values, or a batch of cotangents, under one sample's
    index): the helpers take any leading dims, so the index gets the batch dim too."""
    args, _ = aligned(args, batched)
    index, shape = params
    size = args[0]._data.shape[0]
    return apply(op, args, (np.broadcast_to(index, (size,) + index.shape), (size,) + tuple(shape)), dtype)


def _gather_pair(name, node):
    """Registers a pooling by index and its transpose; returns (op, transpose). As PyTorch's
    max-pooling backward, the transpose takes the forward's input too, an input whose values
    it ignores and whose derivative is zero (see ``resampling._resample_pair``)."""
    def gather(t, index, shape):
        return unary(pair[0], t, (index, shape))

    def scatter(t, x, index, shape):
        return apply(pair[1], (t, x), (index, shape))

    def tangent(t, x, index, shape):
        out = gather(t, index, shape)
        if index.size and index.max() >= shape[-2] * shape[-1]:  # a constant (see _gather): no tangent
            out = where(_wrap(index < shape[-2] * shape[-1]), out, 0.0)
        return out

    pair = (defop(name, _gather, node=node, batch=_by_index_batch, save=lambda ans, x, index, shape: (x, index, shape),
                  vjp=scatter, jvp=tangent),
            defop(name + "_backward", lambda g, x, index, shape: _scatter(g, index, shape), batch=_by_index_batch,
                  node=node.replace("Backward0", "BackwardBackward0"), save=lambda ans, g, x, index, shape: (x, index, shape),
                  vjp=(lambda gg, x, index, shape: gather(gg, index, shape), lambda gg, x, index, shape: zeros_like(x)),
                  jvp=(scatter, lambda t, x, index, shape: zeros_like(x))))
    return pair


MAX_POOL2D = _gather_pair("max_pool2d", "MaxPool2DWithIndicesBackward0")
ADAPTIVE_MAX_POOL2D = _gather_pair("adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0")


def _winners(windows):
    """The position of each row's maximum in ``windows`` (..., taps): the first maximum,
    or, as PyTorch's ``val > max || isnan(val)`` scan picks, the last nan."""
    winner = np.argmax(windows, axis=-1)
    if windows.dtype.kind == "f":
        nan = np.isnan(windows)
        if nan.any():
            last_nan = windows.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
            winner = np.where(nan.any(axis=-1), last_nan, winner)
    return winner


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _first_inside(out, stride, padding, dilation):
    """Where PyTorch's scan of each window starts: its first element inside the input."""
    start = np.arange(out) * stride - padding
    return start + -(-np.maximum(-start, 0) // dilation) * dilation


def _max_pool_index(x, kernel, stride, padding, dilation, out):
    """The flat index (over H*W) of each window's winner, shaped like the output."""
    (kh, kw), (sh, sw), (ph, pw), (dh, dw), (oh, ow) = kernel, stride, padding, dilation, out
    h, w = x.shape[-2:]
    padded = _padded_planes(x, padding, out, kernel, stride, dilation, _lowest(x.dtype))
    windows = _windows(padded, kernel, stride, dilation, out)  # (B, 1, kH, kW, oH, oW)
    winner = _winners(np.moveaxis(windows.reshape(windows.shape[0], kh * kw, oh, ow), 1, -1))  # (B, oH, oW)
    at_h, at_w = np.divmod(winner, kw)
    rows = (np.arange(oh) * sh - ph)[:, None] + at_h * dh
    cols = (np.arange(ow) * sw - pw)[None, :] + at_w * dw
    # a window of nothing but -inf: PyTorch keeps the first element it scanned
    outside = (rows < 0) | (rows >= h) | (cols < 0) | (cols >= w)
    if not outside.any():
        return (rows * w + cols).reshape(x.shape[:-2] + tuple(out))
    rows = np.where(outside, _first_inside(oh, sh, ph, dh)[:, None], rows)
    cols = np.where(outside, _first_inside(ow, sw, pw, dw)[None, :], cols)
    index = (rows * w + cols).reshape(x.shape[:-2] + tuple(out))
    # a window wholly in the padding scans nothing: its first element lies past its row or
    # plane; gathered from index h * w, past every plane, it takes the lowest value (see _gather)
    empty = ((rows >= h) | (cols >= w)).reshape(x.shape[:-2] + tuple(out))
    return index, np.where(empty, h * w, index)


def _max_pool2d(x, kernel, stride, padding, dilation, ceil_mode, return_indices):
    """max_pool2d_with_indices on a checked (C, H, W) or (N, C, H, W) input."""
    out = _pool_shape(x, kernel, stride, padding, dilation, ceil_mode)
    if x._data.dtype.kind in "bc":
        raise _dtype.not_implemented("max_pool2d", x._data.dtype)
    return _pool_by_index(MAX_POOL2D[0], lambda data: _max_pool_index(data, kernel, stride, padding, dilation, out),
                          x, return_indices)


@batched_by(lambda gather, winners, x, return_indices:
            on_batch(lambda batch: _pool_by_index(gather, winners, batch, return_indices), x))
def _pool_by_index(gather, winners, x, return_indices):
    """``gather`` of ``x`` at ``winners(x's array)``; under vmap once for the whole batch
    (the index helpers take any leading dims), a batch's values read one level down."""
    index = winners(x._data)
    index, gathered = index if isinstance(index, tuple) else (index, index)  # (PyTorch's, the one gathered)
    out = unary(gather, x, (gathered, x._data.shape))
    return (out, _wrap(index.copy())) if return_indices else out


def _pool_shape(x, kernel, stride, padding, dilation, ceil_mode):
    sizes = x._data.shape[-2:]
    out = tuple(_checked_out(size, k, p, s, d, ceil_mode)
                for size, k, p, s, d in zip(sizes, kernel, padding, stride, dilation))
    _pool2d_shape_check(x, kernel, stride, padding, dilation, out)
    return out


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """The maximum of each (kH, kW) window, moved by ``stride`` (default: the kernel) over
    ``-inf``-padded (C, H, W) or (N, C, H, W) input. ``return_indices``: also the flat
    index of each maximum in its H*W plane."""
    kernel = _pair_arg(kernel_size, "max_pool2d", "kernel_size must either be a single int, or a tuple of two ints")
    stride = _pair_arg(stride, "max_pool2d", "stride must either be omitted, a single int, or a tuple of two ints",
                       default=kernel)
    padding = _pair_arg(padding, "max_pool2d", "padding must either be a single int, or a tuple of two ints")
    dilation = _pair_arg(dilation, "max_pool2d", "dilation must be either a single int, or a tuple of two ints")
    if input._data.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    return _max_pool2d(input, kernel, stride, padding, dilation, ceil_mode, return_indices)


def _check_max_pool1d(x, kernel, stride, padding, dilation, ceil_mode):
    """PyTorch's check_max_pool1d (the path without indices checks first)."""
    shape = x._data.shape
    if not (len(shape) == 2 and all(shape) or len(shape) == 3 and all(shape[1:])):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{list(shape)}")
    for arg, value, what in (("kernel_size", kernel, "an int, list of ints or tuple of ints"),
                             ("stride", stride, "None, an int, list of ints, or tuple of ints"),
                             ("padding", padding, "an int, list of ints, or tuple of ints"),
                             ("dilation", dilation, "an int, list of ints or tuple of ints")):
        if len(value) != 1 and not (arg == "stride" and not value):
            raise RuntimeError(f"max_pool1d() {arg} must be {what} of size 1 but got size {len(value)}")
    stride = stride or kernel
    (k,), (s,), (p,), (d,) = kernel, stride, padding, dilation
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if p < 0:
        raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
    if p > k // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} and "
                           f"kernel_size={k}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    out = _checked_out(shape[-1], k, p, s, d, ceil_mode)
    if out <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {out}")


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """max_pool2d over a height of one: (C, L) or (N, C, L) inputs."""
    kernel, padding, dilation = _ints(kernel_size), _ints(padding), _ints(dilation)
    stride = _ints(stride) if stride is not None else ()
    if return_indices:
        _check_1d(input, "max_pool1d", kernel_size=kernel, stride=stride or kernel, padding=padding,
                  dilation=dilation)
    else:
        _check_max_pool1d(input, kernel, stride, padding, dilation, ceil_mode)
        if input._data.dtype.kind != "f":  # no gradient possible: PyTorch's kernel without indices
            raise NotImplementedError(f"\"max_pool1d_impl\" not implemented for "
                                      f"'{_LEGACY_NAMES[input._data.dtype.name]}'")
    stride = stride or kernel
    result = _max_pool2d(input.unsqueeze(-2), (1, kernel[0]), (1, stride[0]), (0, padding[0]), (1, dilation[0]),
                         ceil_mode, return_indices)
    if return_indices:
        return result[0].squeeze(-2), result[1].squeeze(-2)
    return result.squeeze(-2)


# --- average pooling --------------------------------------------------------------------------


def _divisors(sizes, out, kernel, stride, padding, count_include_pad, divisor_override):
    """Each window's divisor, (oH, oW): the override, else the window's size within the
    padded input (count_include_pad) or within the input itself."""
    if divisor_override is not None:
        return np.full(out, divisor_override)
    per_axis = []
    for size, o, k, s, p in zip(sizes, out, kernel, stride, padding):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, size + p)
        inside = np.minimum(end, size) - np.maximum(start, 0)
        per_axis.append(end - start if count_include_pad else inside)
    return per_axis[0][:, None] * per_axis[1][None, :]


def _avg_pool_out(sizes, kernel, stride, padding, ceil_mode):
    return tuple(_pool_out(size, k, p, s, 1, ceil_mode) for size, k, p, s in zip(sizes, kernel, padding, stride))


def _divide(total, divisor):
    if total.dtype.kind == "f":
        return total / divisor.astype(total.dtype)
    # C++ integer division truncates toward zero (an abs would overflow at the dtype's minimum)
    quotient = total // divisor
    return quotient + ((total - quotient * divisor != 0) & ((total < 0) != (divisor < 0)))


def _avg_pool(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    out = _avg_pool_out(x.shape[-2:], kernel, stride, padding, ceil_mode)
    padded = _padded_planes(x, padding, out, kernel, stride, (1, 1), 0)
    windows = _windows(padded, kernel, stride, (1, 1), out)
    # PyTorch's kernel adds a window's elements in order from 0, in the op math type (float16 in
    # float32): with 1e18s that cancel, the order decides what is left
    total = np.zeros(windows.shape[:2] + windows.shape[4:], np.float32 if x.dtype == np.float16 else x.dtype)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            total += windows[:, :, i, j]
    divisor = _divisors(x.shape[-2:], out, kernel, stride, padding, count_include_pad, divisor_override)
    return _divide(total, divisor).reshape(x.shape[:-2] + out).astype(x.dtype, copy=False)


def _avg_pool_transpose(g, shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """Each output's gradient, divided by its divisor, spread over its window."""
    out = g.shape[-2:]
    divisor = _divisors(shape[-2:], out, kernel, stride, padding, count_include_pad, divisor_override)
    share = _planes(g / divisor.astype(g.dtype))
    size = tuple(max(s + 2 * p, (o - 1) * st + k) for s, p, o, st, k in zip(shape[-2:], padding, out, stride, kernel))
    buf = np.zeros(share.shape[:2] + size, g.dtype)
    cols = np.broadcast_to(share[:, :, None, None], share.shape[:2] + tuple(kernel) + tuple(out))
    _add_windows(buf, cols, stride, (1, 1))
    crop = tuple(slice(p, p + s) for p, s in zip(padding, shape[-2:]))
    return np.ascontiguousarray(buf[(slice(None), 0) + crop]).reshape(shape)


# avg_pool2d_backward takes the input too, as PyTorch's (see resampling._resample_pair's reads_input)
AVG_POOL2D = defop("avg_pool2d", _avg_pool, batch=leading, node="AvgPool2DBackward0",
                   save=lambda ans, x, *params: (x, params),
                   vjp=lambda g, x, params: apply(AVG_POOL2D_BACKWARD, (g, x), params),
                   jvp=lambda t, x, params: unary(AVG_POOL2D, t, params))
AVG_POOL2D_BACKWARD = defop("avg_pool2d_backward", lambda g, x, *params: _avg_pool_transpose(g, x.shape, *params),
                            batch=leading, node="AvgPool2DBackwardBackward0",
                            save=lambda ans, g, x, *params: (x, params),
                            vjp=(lambda gg, x, params: unary(AVG_POOL2D, gg, params), lambda gg, x, params: zeros_like(x)),
                            jvp=(lambda t, x, params: apply(AVG_POOL2D_BACKWARD, (t, x), params),
                                 lambda t, x, params: zeros_like(x)))


def _avg_pool2d(x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    out = tuple(_checked_out(size, k, p, s, 1, ceil_mode)
                for size, k, p, s in zip(x._data.shape[-2:], kernel, padding, stride))
    _pool2d_shape_check(x, kernel, stride, padding, (1, 1), out)
    if x._data.dtype.kind != "f" and x._data.dtype != np.int64:  # PyTorch's CPU kernel: floats and Long
        raise _dtype.not_implemented("avg_pool2d", x._data.dtype)
    params = (kernel, stride, padding, bool(ceil_mode), bool(count_include_pad), divisor_override)
    return unary(AVG_POOL2D, x, params)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """The mean of each (kH, kW) window of zero-padded input. The divisor is the window's
    size including padding (``count_include_pad``), without, or ``divisor_override``."""
    kernel = _pair_arg(kernel_size, "avg_pool2d", "kernel_size must either be a single int, or a tuple of two ints")
    stride = _pair_arg(stride, "avg_pool2d", "stride must either be omitted, a single int, or a tuple of two ints",
                       default=kernel)
    padding = _pair_arg(padding, "avg_pool2d", "padding must either be a single int, or a tuple of two ints")
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    for dim in (-3, -2, -1):
        input.size(dim)  # PyTorch reads these sizes first: an IndexError for fewer dims
    return _avg_pool2d(input, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """avg_pool2d over a height of one: (C, L) or (N, C, L) inputs."""
    kernel, padding = _ints(kernel_size), _ints(padding)
    stride = _ints(stride) if stride is not None and _ints(stride) else kernel
    _check_1d(input, "avg_pool1d", kernel_size=kernel, stride=stride, padding=padding)
    out = _avg_pool2d(input.unsqueeze(-2), (1, kernel[0]), (1, stride[0]), (0, padding[0]), ceil_mode,
                      count_include_pad, None)
    return out.squeeze(-2)


# --- adaptive pooling ----------------------------------------------------------------------------


def _adaptive_windows(size, out):
    """Window ``o`` covers ``floor(o*size/out) .. ceil((o+1)*size/out) - 1``: (start, width)."""
    o = np.arange(out)
    start = o * size // out
    return start, (o + 1) * size // out + ((o + 1) * size % out > 0) - start


def _adaptive_taps(size, out, dtype):
    """Resampling taps that average each adaptive window (padded to the widest window
    with -1: no tap)."""
    start, width = _adaptive_windows(size, out)
    t = np.arange(width.max() if out else 0)
    inside = t < width[:, None]
    index = np.where(inside, start[:, None] + t, -1)
    weight = np.where(inside, 1 / np.maximum(width[:, None], 1), 0).astype(dtype)
    return index, weight, size


def _check_adaptive_grad(g):
    for dim in range(1, g.ndim):
        if g.shape[dim] == 0:
            raise RuntimeError("adaptive_avg_pool2d_backward(): Expected grad_output to have non-zero size for "
                               f"non-batch dimensions, but grad_output has sizes {list(g.shape)} with dimension {dim} "
                               "being empty")


ADAPTIVE_AVG_POOL2D = _resample_pair("adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", reads_input=True,
                                     check_grad=_check_adaptive_grad, initial=0.0)  # PyTorch's sum starts at 0


def _output_size(output_size, shape):
    """An int, or a pair where None keeps the input's size (PyTorch's _list_with_default,
    its ValueError included)."""
    if isinstance(output_size, (int, np.integer)):
        return (int(output_size),) * 2
    sizes = tuple(output_size)
    if len(shape) <= len(sizes):
        raise ValueError(f"Input dimension should be at least {len(sizes) + 1}")
    return tuple(shape[i - len(sizes)] if s is None else int(s) for i, s in enumerate(sizes))


def adaptive_avg_pool2d(input, output_size):
    """Average pooling to a given output size: output (i, j) averages input rows
    floor(i*H/oH) .. ceil((i+1)*H/oH) - 1 and the matching columns."""
    sizes = _output_size(output_size, input._data.shape)
    if len(sizes) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    if min(sizes) < 0:
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{sizes[0]}, {sizes[1]}}}")
    if sizes == (1, 1):  # as PyTorch: a mean over the plane
        return mean(input, (-1, -2), keepdim=True)
    shape = input._data.shape
    if len(shape) not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {list(shape)}")
    for dim in (-2, -1):
        if shape[dim] == 0:
            raise RuntimeError("adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(shape)} with dimension {dim + len(shape)} "
                               "being empty")
    if input._data.dtype.kind != "f":
        if not input._data.size or 0 in sizes:  # no kernel runs for an empty batch or output
            return input.new_zeros(shape[:-2] + sizes)
        raise NotImplementedError(f"\"adaptive_avg_pool2d\" not implemented for "
                                  f"'{_LEGACY_NAMES[input._data.dtype.name]}'")
    taps = [_adaptive_taps(size, out, input._data.dtype) for size, out in zip(shape[-2:], sizes)]
    return resample(ADAPTIVE_AVG_POOL2D[0], input, taps)


def adaptive_avg_pool1d(input, output_size):
    sizes = _ints(output_size)
    _check_1d(input, "adaptive_avg_pool1d", output_size=sizes)
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, sizes[0])).squeeze(-2)


def _window_taps(size, out):
    """Each adaptive window's inputs, padded to the widest window: (index, inside)."""
    start, width = _adaptive_windows(size, out)
    t = np.arange(width.max() if out else 0)
    return np.minimum(start[:, None] + t, size - 1), t < width[:, None]


def _adaptive_max_index(x, out):
    """The flat index of each adaptive window's winner (places past a narrower window's
    end hold -inf, which never wins)."""
    if 0 in out:
        return np.zeros(x.shape[:-2] + tuple(out), np.int64)
    h, w = x.shape[-2:]
    (rows, row_inside), (cols, col_inside) = _window_taps(h, out[0]), _window_taps(w, out[1])
    picked = x[..., rows[:, :, None, None], cols[None, None, :, :]]  # (..., oH, tH, oW, tW)
    picked = np.where(row_inside[:, :, None, None] & col_inside[None, None], picked, _lowest(x.dtype))
    picked = np.moveaxis(picked, -3, -2)  # (..., oH, oW, tH, tW)
    winner = _winners(picked.reshape(picked.shape[:-2] + (rows.shape[1] * cols.shape[1],)))
    at_row, at_col = np.divmod(winner, cols.shape[1])
    row = rows[np.arange(out[0])[:, None], at_row]
    col = cols[np.arange(out[1])[None, :], at_col]
    return row * w + col


def _adaptive_max_pool2d(x, sizes, return_indices):
    if x._data.dtype.kind != "f":
        raise NotImplementedError(f"\"adaptive_max_pool2d\" not implemented for '{_LEGACY_NAMES[x._data.dtype.name]}'")
    return _pool_by_index(ADAPTIVE_MAX_POOL2D[0], lambda data: _adaptive_max_index(data, sizes), x, return_indices)


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Max pooling to a given output size, over the windows of ``adaptive_avg_pool2d``."""
    shape = input._data.shape
    sizes = _output_size(output_size, shape)
    if len(shape) not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {list(shape)}")
    for dim in range(1, len(shape)):
        if shape[dim] == 0:
            raise RuntimeError("adaptive_max_pool2d(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(shape)} with dimension {dim} being empty")
    if len(sizes) != 2:
        raise RuntimeError("adaptive_max_pool2d(): internal error: output_size.size() must be 2")
    if min(sizes) < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(sizes)}: "
                           f"{list(shape[:-2]) + list(sizes)}")
    return _adaptive_max_pool2d(input, sizes, return_indices)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    sizes = _ints(output_size)
    _check_1d(input, "adaptive_max_pool1d", output_size=sizes)
    shape = input._data.shape
    for dim in range(1, len(shape)):
        if shape[dim] == 0:
            raise RuntimeError("adaptive_max_pool1d(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but input has sizes {list(shape)} with dimension {dim} being empty")
    out, index = _adaptive_max_pool2d(input.unsqueeze(-2), (1, sizes[0]), True)
    return (out.squeeze(-2), index.squeeze(-2)) if return_indices else out.squeeze(-2)


# --- power-average pooling -----------------------------------------------------------------------


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """``(sum of x**p over each window) ** (1/p)``, composed as PyTorch composes it (its
    graph shows these nodes): p = inf is max pooling of |x|."""
    kw, kh = _pair_arg(kernel_size, "avg_pool2d", "kernel_size must either be a single int, or a tuple of two ints")
    if norm_type == float("inf"):
        return max_pool2d(_abs(input), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool2d(-_abs(input), kernel_size, stride, 0, 1, ceil_mode)
    out = avg_pool2d(input ** norm_type, kernel_size, stride, 0, ceil_mode)
    return (sign(out) * relu(_abs(out))).mul(kw * kh) ** (1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    if norm_type == float("inf"):
        return max_pool1d(_abs(input), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -max_pool1d(-_abs(input), kernel_size, stride, 0, 1, ceil_mode)
    out = avg_pool1d(input ** norm_type, kernel_size, stride, 0, ceil_mode)
    return (sign(out) * relu(_abs(out))).mul(kernel_size) ** (1.0 / norm_type)


# --- the forms that always return indices (F.*_with_indices, torch.adaptive_max_pool1d) -----------


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=True):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices=True)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool1d(input, output_size, return_indices=True)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=True):
    return adaptive_max_pool2d(input, output_size, return_indices=True)
