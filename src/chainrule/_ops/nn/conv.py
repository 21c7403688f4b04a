"""Convolutions: conv1d/2d/3d, their transposes, and unfold / fold (im2col / col2im).

Every convolution is one primitive, PyTorch's ``convolution`` (node ConvolutionBackward0):

* ``transposed=False``: im2col, a strided *view* of the padded input with one row per
  kernel offset (copied once, by the reshape), then ONE matmul with the weight;
* ``transposed=True``: ONE matmul of the weight with the input, then col2im, which adds
  each kernel offset's slab back into place (a loop over the few kernel offsets, each
  step vectorised over batch, channels and positions).

Its rules are convolutions again, so every order of derivative works:

* the input gradient of a convolution is a transposed convolution of the output gradient
  with the same weight, and the input gradient of a transposed one a convolution;
* the weight gradient ``dw[o, i, k] = sum_{n, p} g[n, o, p] * x[n, i, p*stride + k*dilation]``
  is a convolution too: of x with batch and channels swapped (its batch is i, its
  channels n), by the output gradient as the kernel, stride and dilation exchanged.

Example: conv2d of a (16, 1, 28, 28) batch with an (8, 1, 3, 3) weight is one
(8, 9) @ (16, 1, 9, 676) matmul; its weight gradient one (9, 16*676) @ (16*676, 8).
"""
import math
import warnings

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..._core import dtype as _dtype
from ..._core.tensor import _C_TYPE_NAMES, _LEGACY_NAMES, _type_string, _wrap
from ..._core.threads import get_num_threads
from ..batching import batch_size, elementwise
from ..pointwise.elementwise import zeros_like
from ..registry import apply, defop, unary
from .resampling import constant_pad_nd
from ..._core.modes import GRAD_MODE

# --- im2col and col2im on arrays --------------------------------------------------------------


def _out_size(size, kernel, stride, padding, dilation):
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _zero_pad(x, padding):
    """Pads the spatial dims (all but the first two) by ``padding`` on both sides."""
    if not any(padding):
        return x
    return np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])


def _windows(x, kernel, stride, dilation, out_size):
    """``x`` (N, C, *S) as a read-only view (N, C, *K, *O), no copy:
    ``view[n, c, k, o] = x[n, c, o*stride + k*dilation]``."""
    spatial = x.strides[2:]
    shape = x.shape[:2] + tuple(kernel) + tuple(out_size)
    strides = (x.strides[:2] + tuple(st * d for st, d in zip(spatial, dilation))
               + tuple(st * s for st, s in zip(spatial, stride)))
    return as_strided(x, shape, strides, writeable=False)


def _add_windows(buf, cols, stride, dilation):
    """The transpose of ``_windows``: ``buf[n, c, o*stride + k*dilation] += cols[n, c, k, o]``,
    one kernel offset at a time (overlapping windows add up)."""
    nd = len(stride)
    kernel, out = cols.shape[2:2 + nd], cols.shape[2 + nd:]
    if 0 in out:
        return buf
    lead = (slice(None), slice(None))
    for k in np.ndindex(*kernel):
        region = tuple(slice(i * d, i * d + (o - 1) * s + 1, s) for i, d, o, s in zip(k, dilation, out, stride))
        buf[lead + region] += cols[lead + k]
    return buf


def _im2col(x, kernel, dilation, padding, stride):
    """(N, C, *S) -> (N, C, *K, *O), a copy: the input under each window position."""
    padded = _zero_pad(x, padding)
    out = tuple(_out_size(s, k, st, 0, d) for s, k, st, d in zip(padded.shape[2:], kernel, stride, dilation))
    return np.array(_windows(padded, kernel, stride, dilation, out))


def _col2im(cols, size, dilation, padding, stride):
    """The transpose of ``_im2col``: (N, C, *K, *O) summed back into (N, C, *size)."""
    full = tuple(s + 2 * p for s, p in zip(size, padding))
    buf = _add_windows(np.zeros(cols.shape[:2] + full, cols.dtype), cols, stride, dilation)
    crop = tuple(slice(p, p + s) for p, s in zip(padding, size))
    return np.ascontiguousarray(buf[(slice(None), slice(None)) + crop])


# --- the convolution primitive -------------------------------------------------------------------


def _correlate(x, w, stride, padding, dilation, groups):
    """conv(x, w): im2col, then one (batched) matmul.

    The im2col copy is fastest with the longer of the kernel's and the output's rows
    innermost: output positions for an ordinary convolution, kernel offsets for a weight
    gradient (whose "kernel" is the output gradient, larger than its 3x3 result)."""
    n = x.shape[0]
    cout, cig, *kernel = w.shape
    nd = len(kernel)
    padded = _zero_pad(x, padding)
    out = tuple(_out_size(s, k, st, 0, d) for s, k, st, d in zip(padded.shape[2:], kernel, stride, dilation))
    windows = _windows(padded, kernel, stride, dilation, out).reshape((n, groups, cig) + tuple(kernel) + out)
    weight = w.reshape(groups, cout // groups, cig * math.prod(kernel))
    if kernel[-1] <= out[-1]:
        cols = windows.reshape(n, groups, cig * math.prod(kernel), math.prod(out))  # (N, G, Cig*K, O): the copy
        y = np.matmul(weight, cols)  # (N, G, Cout/G, O)
    else:
        order = (0, 1) + tuple(range(3 + nd, 3 + 2 * nd)) + (2,) + tuple(range(3, 3 + nd))
        cols = windows.transpose(order).reshape(n, groups, math.prod(out), cig * math.prod(kernel))
        y = np.matmul(cols, weight.transpose(0, 2, 1)).transpose(0, 1, 3, 2)  # (N, G, Cout/G, O)
    return np.ascontiguousarray(y).reshape((n, cout) + out)


def _correlate_transposed(x, w, stride, padding, dilation, output_padding, groups):
    """The transpose of conv(., w): one matmul (input to columns), then col2im."""
    n, cin, *spatial = x.shape
    _, cog, *kernel = w.shape
    cig = cin // groups
    taps = math.prod(kernel)
    weight = w.reshape(groups, cig, cog * taps).transpose(0, 2, 1)  # (G, Cout/G*K, Cin/G)
    cols = np.matmul(weight, x.reshape(n, groups, cig, math.prod(spatial)))
    cols = cols.reshape((n, groups * cog) + tuple(kernel) + tuple(spatial))
    size = tuple((s - 1) * st - 2 * p + d * (k - 1) + 1 + op
                 for s, st, p, d, k, op in zip(spatial, stride, padding, dilation, kernel, output_padding))
    return _col2im(cols, size, dilation, padding, stride)


def _convolve(x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    if transposed:
        out = _correlate_transposed(x, w, stride, padding, dilation, output_padding, groups)
    else:
        out = _correlate(x, w, stride, padding, dilation, groups)
    if b is not None:
        out += b.reshape((-1,) + (1,) * (out.ndim - 2))
    return out


def _crop_to(t, sizes):
    """``t`` with its spatial dims cut to ``sizes`` at the end (a negative constant pad)."""
    extra = [have - want for have, want in zip(t.shape[2:], sizes)]
    if not any(extra):
        return t
    return constant_pad_nd(t, tuple(v for e in reversed(extra) for v in (0, -e)))


def _weight_grad(x, g, kernel, stride, padding, dilation, groups):
    """d conv(x, w) / dw for the output gradient ``g``: a convolution of ``x`` (batch and
    channels swapped, groups kept apart) by ``g``, with stride and dilation exchanged."""
    n, cin, *spatial = x.shape
    cout, out = g.shape[1], tuple(g.shape[2:])
    cig, cog = cin // groups, cout // groups
    tail = tuple(range(3, 3 + len(kernel)))
    xs = x.reshape((n, groups, cig) + tuple(spatial)).permute((2, 1, 0) + tail)
    xs = xs.reshape((cig, groups * n) + tuple(spatial))
    gs = g.reshape((n, groups, cog) + out).permute((1, 2, 0) + tail).reshape((cout, n) + out)
    dw = _convolution(xs, gs, None, (dilation, padding, stride, False, (0,) * len(kernel), groups))
    # positions past the kernel: the forward's stride skipped the input's last rows
    return _crop_to(dw, kernel).transpose(0, 1)


# PyTorch's convolution_backward takes the input and the weight: under create_graph the
# input's gradient is connected to the input (with no derivative: unused) even where the weight
# needs no gradient, and the weight's to the weight. Each gradient is computed by convolutions
# of g and the other operand, then passed through this op with its own operand.
CONNECTED_GRAD = defop("convolution_grad_connected", lambda grad, x: grad, batch=elementwise,
                   node="ConvolutionBackwardBackward0", save=lambda ans, grad, x: (),
                   vjp=(lambda gg: gg, lambda gg: None), jvp=(lambda t: t, lambda t: zeros_like(t)))


def _input_rule(g, x, w, params):
    stride, padding, dilation, transposed, _, groups = params
    if transposed:
        plain = (stride, padding, dilation, False, (0,) * len(stride), groups)
        grad = _crop_to(_convolution(g, w, None, plain), x.shape[2:])
    else:
        # the rows that the stride skipped at the end come back as output padding
        skipped = tuple(size + 2 * p - d * (k - 1) - 1 - (o - 1) * s for size, p, d, k, o, s in
                        zip(x.shape[2:], padding, dilation, w.shape[2:], g.shape[2:], stride))
        grad = _convolution(g, w, None, (stride, padding, dilation, True, skipped, groups))
    return apply(CONNECTED_GRAD, (grad, x)) if GRAD_MODE.enabled else grad


def _weight_rule(g, x, w, params):
    stride, padding, dilation, transposed, _, groups = params
    if transposed:  # the transpose of conv(., w): input and output gradient swap roles
        grad = _weight_grad(g, x, w.shape[2:], stride, padding, dilation, groups)
    else:
        grad = _weight_grad(x, g, w.shape[2:], stride, padding, dilation, groups)
    return apply(CONNECTED_GRAD, (grad, w)) if GRAD_MODE.enabled else grad


def _bias_rule(g, x, w, params):
    return g.sum((0,) + tuple(range(2, g.ndim)))


_INPUT_JVP = lambda t, x, w, params: _convolution(t, w, None, params)
_WEIGHT_JVP = lambda t, x, w, params: _convolution(x, t, None, params)

def _fold_batch(op, args, batched, params, dtype):
    """vmap's rule, as functorch's: a batched input alone joins the convolution's own
    batch N; a batched weight (or bias) makes the batch B more groups, the samples'
    channels side by side: (B, N, C, ...) -> (N, B*C, ...), weights (B*Cout, ...).

    >>> # conv of x (3, 2, 4, 5) [B, N, C, L] by w (3, 6, 4, 2): one conv, groups=3
    """
    x, w = args[0], args[1]
    size = batch_size(args, batched)
    if not batched[1]:
        if len(args) == 3 and batched[2]:  # a batched bias alone: added after, per sample
            bias = args[2]
            if batched[0]:
                out = _fold_batch(CONVOLUTION_NO_BIAS, args[:2], batched[:2], params, dtype)
            else:
                out = apply(CONVOLUTION_NO_BIAS, args[:2], params, dtype)
                out = out.expand((size,) + out._data.shape)
            return out + bias.reshape(bias._data.shape[:1] + (1, -1) + (1,) * (out._data.ndim - 3))
        n = x._data.shape[1]
        out = apply(op, (x.reshape((size * n,) + x._data.shape[2:]),) + tuple(args[1:]), params, dtype)
        return out.reshape((size, n) + out._data.shape[1:])
    if not batched[0]:
        x = x.expand((size,) + x._data.shape)
    n, channels = x._data.shape[1:3]
    x = x.movedim(0, 1).reshape((n, size * channels) + x._data.shape[3:])
    w = w.reshape((-1,) + w._data.shape[2:])
    rest = ()
    if len(args) == 3:
        b = args[2] if batched[2] else args[2].expand((size,) + args[2]._data.shape)
        rest = (b.reshape(-1),)
    out = apply(op, (x, w) + rest, params[:-1] + (params[-1] * size,), dtype)
    return out.reshape((n, size, -1) + out._data.shape[2:]).movedim(1, 0)


CONVOLUTION = defop("convolution", _convolve, batch=_fold_batch, node="ConvolutionBackward0",
                    save=lambda ans, x, w, b, *params: (x, w, params),
                    vjp=(_input_rule, _weight_rule, _bias_rule),
                    jvp=(_INPUT_JVP, _WEIGHT_JVP,
                         lambda t, x, w, params: t.reshape((1, t.shape[0]) + (1,) * len(params[0]))))

CONVOLUTION_NO_BIAS = defop("convolution_no_bias", lambda x, w, *params: _convolve(x, w, None, *params),
                            batch=_fold_batch, node="ConvolutionBackward0",
                            save=lambda ans, x, w, *params: (x, w, params),
                            vjp=(_input_rule, _weight_rule), jvp=(_INPUT_JVP, _WEIGHT_JVP))


def _convolution(x, w, b, params):
    """The primitive, unchecked: ``params`` = (stride, padding, dilation, transposed,
    output_padding, groups), the first three and output_padding as tuples."""
    if b is None:
        return apply(CONVOLUTION_NO_BIAS, (x, w), params)
    return apply(CONVOLUTION, (x, w, b), params)


# --- argument checks, as PyTorch makes them ---------------------------------------------------


def _ints(value):
    """An int or a sequence of ints as a tuple."""
    return (int(value),) if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)


def _expand(value, name, dim):
    values = _ints(value)
    if len(values) == 1:
        return values * dim
    if len(values) != dim:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dim} values to match the "
                           f"convolution dimensions, but got {name}={list(values)}")
    return values


def _check_convolution(x, w, b, params):
    """check_shape_forward and the kernels' own checks of PyTorch's convolution."""
    stride, padding, dilation, transposed, output_padding, groups = params
    xs, ws = list(x._data.shape), list(w._data.shape)
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(p < 0 for p in output_padding):
        raise RuntimeError("negative output_padding is not supported")
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got {list(dilation)}"
                           if all(d >= 0 for d in dilation) else "dilation should be greater than zero")
    if len(ws) != len(xs):
        raise RuntimeError(f"Expected {len(ws)}-dimensional input for {len(ws)}-dimensional weight {ws}, but got "
                           f"{len(xs)}-dimensional input of size {xs} instead")
    if ws[0] < groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be at least {groups} at dimension 0, but got "
                           f"weight of size {ws} instead")
    if ws[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, but "
                           f"got weight of size [{ws}] instead")
    bs = None if b is None else list(b._data.shape)
    if not transposed:
        if xs[1] != ws[1] * groups:
            raise RuntimeError(f"Given groups={groups}, weight of size {ws}, expected input{xs} to have "
                               f"{ws[1] * groups} channels, but got {xs[1]} channels instead")
        if bs is not None and bs != [ws[0]]:
            raise RuntimeError(f"Given weight of size {ws}, expected bias to be 1-dimensional with {ws[0]} elements, "
                               f"but got bias of size {bs} instead")
        padded = [s + 2 * p for s, p in zip(xs[2:], padding)]
        spans = [d * (k - 1) + 1 for d, k in zip(dilation, ws[2:])]
        if any(p < k for p, k in zip(padded, spans)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                               f"size: ({' x '.join(map(str, spans))}). Kernel size can't be greater than actual "
                               "input size")
    else:
        if xs[1] != ws[0]:
            raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected input{xs} to have {ws[0]} "
                               f"channels, but got {xs[1]} channels instead")
        if bs is not None and bs != [ws[1] * groups]:
            raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected bias to be 1-dimensional with "
                               f"{ws[1] * groups} elements, but got bias of size {bs} instead")
    if not x._data.size:  # PyTorch sends no empty input to a kernel: no kernel's checks
        if xs[0] and xs[1]:
            viewed = xs[:2] + [1] + xs[2:] if len(xs) == 3 else xs
            raise RuntimeError(f"Only zero batch or zero channel inputs are supported, but got input shape: {viewed}")
        return
    if transposed:
        _check_transposed_kernel(xs, ws, params, x._data.dtype)  # slow_conv_transpose's own, or MKLDNN's
    if not transposed and len(ws) in (3, 4) and 0 in ws[2:]:  # slow_conv2d's (a 1-d one has a height of 1)
        kh, kw = ([1] + ws[2:])[-2:]
        if any(d > 1 for d in dilation):  # slow_conv_dilated's words
            raise RuntimeError(f"kernel size should be greater than zero, but got {[kh, kw]}")
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kh} kernel_width: {kw}")
    if x._data.dtype.kind != "f" and x._data.dtype != np.int64:  # these kernels: floats and Long
        if transposed:
            raise _dtype.not_implemented(f"slow_conv_transpose{3 if len(xs) == 5 else 2}d_out_cpu", x._data.dtype)
        if any(d > 1 for d in dilation):
            raise _dtype.not_implemented("slow_conv_dilated<>", x._data.dtype)
    if x._data.dtype != w._data.dtype:
        if _uses_mkldnn(xs, ws, params, x._data.dtype):
            raise RuntimeError(f"Input type ({_type_string(x._data.dtype)}) and weight type "
                               f"({_type_string(w._data.dtype)}) should be the same or input should be a MKLDNN "
                               "tensor and weight is a dense tensor")
        raise RuntimeError(f"expected scalar type {_LEGACY_NAMES[x._data.dtype.name]} but found "
                           f"{_LEGACY_NAMES[w._data.dtype.name]}")
    if x._data.dtype.kind not in "fiu":
        kernel = f"slow_conv_transpose{3 if len(xs) == 5 else 2}d_out_cpu" if transposed else \
            f"slow_conv{3 if len(xs) == 5 else 2}d_cpu"
        raise _dtype.not_implemented(kernel, x._data.dtype)


def _uses_mkldnn(xs, ws, params, dtype):
    """Whether PyTorch's CPU convolution picks its MKLDNN backend (ConvParams::use_mkldnn),
    whose checks word their errors otherwise: float32 input, on the 4-d view of a 1-d
    convolution, unless the problem is small (or a 1x1 kernel on one thread)."""
    stride, _, dilation, transposed, output_padding, groups = params
    if dtype != np.float32 or (transposed and any(op >= s for op, s in zip(output_padding, stride))):
        return False
    if len(xs) == 3:
        xs, ws = xs[:2] + [1] + xs[2:], ws[:2] + [1] + ws[2:]
    if not (any(s != 1 for s in stride) or any(d != 1 for d in dilation) or xs[0] >= 16 or ws[-1] != 1
            or ws[-2] != 1 or get_num_threads() > 1):
        return False
    return groups > 1 or (ws[-1] > 3 and ws[-2] > 3) or xs[0] > 1 or xs[0] * xs[1] * xs[2] * xs[3] > 20480


def _check_transposed_kernel(xs, ws, params, dtype):
    """slow_conv_transpose's checks; a 1-d one runs as 2-d with a height of 1. Where PyTorch
    picks MKLDNN instead, an output size of 0 gives an empty output, a negative one its error."""
    stride, padding, dilation, _, output_padding, _ = params
    sizes, kernel = list(xs[2:]), list(ws[2:])
    if len(sizes) == 1:
        sizes, kernel = [1] + sizes, [1] + kernel
        stride, padding, dilation, output_padding = ((1,) + stride, (0,) + padding, (1,) + dilation,
                                                     (0,) + output_padding)
    if 0 in kernel:  # its first check
        if len(kernel) == 3:
            raise RuntimeError("non-empty 5D (n_output_plane x n_input_plane x kernel_depth x kernel_height x "
                               f"kernel_width) tensor expected for weight, but got: {ws}")
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kernel[0]} "
                           f"kernel_width: {kernel[1]}")
    out = [(s - 1) * st - 2 * p + d * (k - 1) + 1 + op
           for s, st, p, d, k, op in zip(sizes, stride, padding, dilation, kernel, output_padding)]
    if _uses_mkldnn(xs, ws, params, dtype):
        if min(out) < 0:
            raise RuntimeError("could not construct a memory descriptor using a format tag")
        return
    axes = ("depth", "height", "width")[-len(sizes):]
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        described = " ".join([f"output_padding_{a}: {v}" for a, v in zip(axes, output_padding)]
                             + [f"stride_{a}: {v}" for a, v in zip(axes, stride)]
                             + [f"dilation_{a}: {v}" for a, v in zip(axes, dilation)])
        raise RuntimeError(f"output padding must be smaller than either stride or dilation, but got {described}")
    if min(out) < 1:
        raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, sizes))}). Calculated output size "
                           f"per channel: ({' x '.join(map(str, out))}). Output size is too small")


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """``torch.convolution``: every convolution, batched (N, C, *spatial) inputs only."""
    if input._data.dtype.kind == "c" and weight._data.dtype != input._data.dtype:  # PyTorch's complex path checks first
        raise RuntimeError(f"Input type ({_type_string(input._data.dtype)}) and weight type "
                           f"({_type_string(weight._data.dtype)}) should be the same")
    dim = weight._data.ndim - 2
    if dim <= 0:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    params = (_expand(stride, "stride", dim), _expand(padding, "padding", dim), _expand(dilation, "dilation", dim),
              bool(transposed), _expand(output_padding, "output_padding", dim), int(groups))
    _check_convolution(input, weight, bias, params)
    if not input._data.size and not input._data.shape[1] and not transposed:
        # PyTorch's empty path: zero input channels give zero output channels, in the dtype
        # input and weight promote to (PyTorch's empty backend multiplies them)
        dtype = _dtype.promote_types(input.dtype, weight.dtype).np
        inputs = (input, weight) if bias is None else (input, weight, bias)
        return apply(ZERO_CHANNELS, inputs, params, dtype)
    return _convolution(input, weight, bias, params)


def _zero_channels(x, w, *rest):
    """The empty path's output: no channels, the convolution's spatial size."""
    params = rest[-6:]
    return _convolve(x, w[:0], None, *params)


def _empty_grad(i):
    """The gradient of operand ``i`` of the empty path: zeros (it has none or no elements),
    connected to the operand under create_graph, as PyTorch's convolution_backward's are."""
    def rule(g, *saved):
        operand = saved[i]
        zeros = zeros_like(operand)
        return apply(CONNECTED_GRAD, (zeros, operand)) if GRAD_MODE.enabled else zeros
    return rule


def _empty_tangent(t, *saved):
    return _wrap(np.zeros(saved[-1], t._data.dtype))  # the output has no elements


ZERO_CHANNELS = defop("convolution_zero_channels", _zero_channels, node="ConvolutionBackward0",
                      save=lambda ans, *inputs_and_params: inputs_and_params[:-6] + (ans._data.shape,),
                      vjp=(_empty_grad(0), _empty_grad(1), _empty_grad(2)),
                      jvp=(_empty_tangent, _empty_tangent, _empty_tangent))


def _batchify(x, dim, name):
    """PyTorch's batchify: an unbatched input gets a batch of one (and loses it after)."""
    ndim = x._data.ndim
    if ndim not in (dim + 1, dim + 2):
        raise RuntimeError(f"Expected {dim + 1}D (unbatched) or {dim + 2}D (batched) input to {name}, but got input "
                           f"of size: {list(x._data.shape)}")
    return (x, True) if ndim == dim + 2 else (x.unsqueeze(0), False)


def _conv_same(x, weight, bias, stride, dilation, groups):
    """padding="same": the output keeps the input's size. An even kernel needs one more
    zero at the end than at the start: that one is a padding of the input itself."""
    k = weight._data.ndim
    dim = k - 2
    if k <= 2:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    if k != x._data.ndim:
        raise RuntimeError(f"Expected {k}-dimensional input for {k}-dimensional weight{list(weight._data.shape)}, "
                           f"but got {x._data.ndim}-dimensional input of size {list(x._data.shape)} instead")
    for name, values in (("stride", stride), ("dilation", dilation)):
        if len(values) not in (1, dim):
            raise RuntimeError(f"{name} cannot broadcast to {dim} dimensions")
    stride, dilation = stride * (dim // len(stride)), dilation * (dim // len(dilation))
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    total = [d * (kk - 1) for d, kk in zip(dilation, weight._data.shape[2:])]
    left = [t // 2 for t in total]
    if all(t % 2 == 0 for t in total):
        return convolution(x, weight, bias, stride, left, dilation, False, 0, groups)
    warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy of "
                  "the input be created", UserWarning, stacklevel=3)
    extra = []
    for t in reversed(total):  # F.pad order: last dim first
        extra += [0, t % 2]
    return convolution(constant_pad_nd(x, extra), weight, bias, stride, left, dilation, False, 0, groups)


def _complex_convolution(conv, x, weight, bias):
    """PyTorch's complex_convolution: with Gauss's trick, three real convolutions ``conv(x,
    w, b)``: a = (xr, wr, br), b = (xi, wi, 0), c = (xr + xi, wr + wi, br + bi), and the
    result a - b + i (c - a - b)."""
    for other, what in ((weight, "weight"), (bias, "bias")):
        if other is not None and other._data.dtype != x._data.dtype:
            raise RuntimeError(f"Input type ({_type_string(x._data.dtype)}) and {what} type "
                               f"({_type_string(other._data.dtype)}) should be the same")
    x_r, x_i, w_r, w_i = x.real, x.imag, weight.real, weight.imag
    b_r, b_i = (None, None) if bias is None else (bias.real, bias.imag)
    a = conv(x_r, w_r, b_r)
    b = conv(x_i, w_i, None)
    c = conv(x_r + x_i, w_r + w_i, None if bias is None else b_r + b_i)
    return a - b + 1j * (c - a - b)


def _conv_mode(x, weight, bias, stride, padding, dilation, groups):
    """PyTorch's _convolution_mode: a padding given as "same" or "valid"."""
    if padding == "same":
        return _conv_same(x, weight, bias, _ints(stride), _ints(dilation), groups)
    if padding == "valid":
        return convolution(x, weight, bias, stride, 0, dilation, False, 0, groups)
    raise RuntimeError(f"Invalid padding string: '{padding}'")


def _conv(dim, name, input, weight, bias, stride, padding, dilation, groups):
    if isinstance(padding, str):
        x, batched = _batchify(input, dim, name)
        if x._data.dtype.kind == "c":
            out = _complex_convolution(lambda x, w, b: _conv_mode(x, w, b, stride, padding, dilation, groups),
                                       x, weight, bias)
        else:
            out = _conv_mode(x, weight, bias, stride, padding, dilation, groups)
        return out if batched else out.squeeze(0)
    if bias is not None and bias._data.dtype != input._data.dtype:
        raise RuntimeError(f"Input type ({_C_TYPE_NAMES[input._data.dtype.name]}) and bias type "
                           f"({_C_TYPE_NAMES[bias._data.dtype.name]}) should be the same")
    x, batched = _batchify(input, dim, name)
    out = _convolve_as(x, weight, bias, _as_dims(stride, dim), _as_dims(padding, dim), _as_dims(dilation, dim),
                       False, 0, groups)
    return out if batched else out.squeeze(0)


def _convolve_as(x, weight, bias, *params):
    """torch.convolution, or for a complex input PyTorch's three real ones (conv1d... and
    conv_transpose1d... decide so; torch.convolution itself has no complex kernel)."""
    if x._data.dtype.kind == "c":
        return _complex_convolution(lambda x, w, b: convolution(x, w, b, *params), x, weight, bias)
    return convolution(x, weight, bias, *params)


def _as_dims(value, dim):
    """What PyTorch's argument parser makes of an ``int[dim]`` argument: an int repeats."""
    values = _ints(value)
    return values * dim if isinstance(value, (int, np.integer)) else values


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """1-d convolution (cross-correlation, as in PyTorch) of (N, C, L) or (C, L) inputs.
    ``padding``: ints, "valid" (none) or "same" (output length = input length)."""
    return _conv(1, "conv1d", input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """2-d convolution of (N, C, H, W) or (C, H, W) inputs by (out, C/groups, kH, kW) weights."""
    return _conv(2, "conv2d", input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(3, "conv3d", input, weight, bias, stride, padding, dilation, groups)


def _conv_transpose(dim, name, input, weight, bias, stride, padding, output_padding, groups, dilation):
    x, batched = _batchify(input, dim, name)
    out = _convolve_as(x, weight, bias, _as_dims(stride, dim), _as_dims(padding, dim), _as_dims(dilation, dim),
                       True, _as_dims(output_padding, dim), groups)
    return out if batched else out.squeeze(0)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    """The transpose of conv1d (the gradient of conv1d w.r.t. its input): weight is
    (C_in, C_out/groups, k); ``output_padding`` adds rows at the end that a stride > 1 skipped."""
    return _conv_transpose(1, "conv_transpose1d", input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(2, "conv_transpose2d", input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(3, "conv_transpose3d", input, weight, bias, stride, padding, output_padding, groups,
                           dilation)


# --- unfold / fold: im2col and col2im as ops of their own -------------------------------------


def _unfold(x, kernel, dilation, padding, stride):
    """(N, C, H, W) or (C, H, W) -> (N, C*kH*kW, L) or (C*kH*kW, L)."""
    batched = x.ndim == 4
    cols = _im2col(x if batched else x[None], kernel, dilation, padding, stride)
    cols = cols.reshape(cols.shape[0], cols.shape[1] * math.prod(kernel), math.prod(cols.shape[4:]))  # (N may be 0)
    return cols if batched else cols[0]


def _fold(cols, output_size, kernel, dilation, padding, stride):
    """(N, C*kH*kW, L) or (C*kH*kW, L) -> (N, C, *output_size) or (C, *output_size)."""
    batched = cols.ndim == 3
    c = cols if batched else cols[None]
    blocks = tuple(_out_size(s, k, st, p, d) for s, k, st, p, d in zip(output_size, kernel, stride, padding, dilation))
    c = c.reshape((c.shape[0], c.shape[1] // math.prod(kernel)) + tuple(kernel) + blocks)
    out = _col2im(c, tuple(output_size), dilation, padding, stride)
    return out if batched else out[0]


def _batch_as_n(ndim):
    """vmap's rule for im2col / col2im, which take an optional leading N: a sample without
    N takes the batch as its N, a sample with one has the batch folded into it. ``ndim``:
    the rank of a sample with N."""
    def rule(op, args, batched, params, dtype):
        x = args[0]
        shape = x._data.shape
        if len(shape) == ndim:
            return apply(op, (x,), params, dtype)
        out = apply(op, (x.reshape((shape[0] * shape[1],) + shape[2:]),), params, dtype)
        return out.reshape(shape[:2] + out._data.shape[1:])
    return rule


IM2COL = defop("im2col", _unfold, batch=_batch_as_n(4), node="Im2ColBackward0",
               save=lambda ans, x, kernel, dilation, padding, stride: (x._data.shape[-2:], (kernel, dilation, padding,
                                                                                         stride)),
               vjp=lambda g, size, params: unary(COL2IM, g, (size,) + params),
               jvp=lambda t, size, params: unary(IM2COL, t, params))
COL2IM = defop("col2im", _fold, batch=_batch_as_n(3), node="Col2ImBackward0",
               save=lambda ans, cols, size, kernel, dilation, padding, stride: (size, (kernel, dilation, padding,
                                                                                       stride)),
               vjp=lambda g, size, params: unary(IM2COL, g, params),
               jvp=lambda t, size, params: unary(COL2IM, t, (size,) + params))


def _pair(value):
    values = _ints(value)
    return values * 2 if len(values) == 1 else values


def _check_window_args(kernel, dilation, padding, stride, order):
    messages = {
        "kernel": (all(k > 0 for k in kernel), "kernel size should be greater than zero, but got kernel_height: "
                   f"{kernel[0]} kernel_width: {kernel[1]}"),
        "dilation": (all(d > 0 for d in dilation), "dilation should be greater than zero, but got dilation_height: "
                     f"{dilation[0]} dilation_width: {dilation[1]}"),
        "padding": (all(p >= 0 for p in padding), f"padding should be non-negative, but got pad_height: {padding[0]} "
                    f"pad_width: {padding[1]}"),
        "stride": (all(s > 0 for s in stride), f"stride should be greater than zero, but got stride_height: "
                   f"{stride[0]} stride_width: {stride[1]}"),
    }
    for name in order:
        ok, message = messages[name]
        if not ok:
            raise RuntimeError(message)


def _describe(kernel, dilation, padding):
    return f"kernel_size={tuple(kernel)}, dilation={tuple(dilation)}, padding={tuple(padding)}"


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """``F.unfold`` (im2col): the sliding blocks of a (N, C, H, W) or (C, H, W) input as
    columns, (N, C*kH*kW, L) with L the number of block positions."""
    kernel, dilation, padding, stride = _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride)
    _check_window_args(kernel, dilation, padding, stride, ("kernel", "dilation", "padding", "stride"))
    if input.requires_grad and GRAD_MODE.enabled:  # PyTorch's differentiable path reads these sizes first
        input.size(-1), input.size(-2)
    shape = input._data.shape
    ndim = len(shape)
    nonempty = input.size(1) != 0 and input.size(2) != 0 and (ndim != 3 or shape[0] != 0) and (ndim != 4 or shape[3] != 0)
    if ndim not in (3, 4) or not nonempty:
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(shape)}")
    size = shape[-2:]
    blocks = tuple(_out_size(s, k, st, p, d) for s, k, st, p, d in zip(size, kernel, stride, padding, dilation))
    if min(blocks) < 1:
        raise RuntimeError(f"Given input with spatial size {tuple(size)}, {_describe(kernel, dilation, padding)}, "
                           f"calculated shape of the array of sliding blocks as {blocks}, but its components must "
                           "be at least one.")
    if input._data.dtype.kind not in "fcb":  # PyTorch's kernel: floats, complex and bool
        raise _dtype.not_implemented("im2col_out_cpu", input._data.dtype)
    return unary(IM2COL, input, (kernel, dilation, padding, stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """``F.fold`` (col2im), the transpose of ``unfold``: columns (N, C*kH*kW, L) summed
    back into a (N, C, *output_size) image (overlapping blocks add up)."""
    size, kernel = _pair(output_size), _pair(kernel_size)
    dilation, padding, stride = _pair(dilation), _pair(padding), _pair(stride)
    _check_window_args(kernel, dilation, padding, stride, ("kernel", "stride", "dilation", "padding"))
    shape = input._data.shape
    ndim = len(shape)
    if not (ndim == 2 and shape[0] and shape[1] or ndim == 3 and shape[1] and shape[2]):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {list(shape)}")
    planes, length = shape[-2], shape[-1]
    if planes % math.prod(kernel):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={planes} and kernel_size={tuple(kernel)}.")
    blocks = tuple(_out_size(s, k, st, p, d) for s, k, st, p, d in zip(size, kernel, stride, padding, dilation))
    described = f"Given output_size={tuple(size)}, {_describe(kernel, dilation, padding)}, stride={tuple(stride)}"
    if length != math.prod(blocks):
        raise RuntimeError(f"{described}, expected size of input's dimension 2 to match the calculated number of "
                           f"sliding blocks {blocks[0]} * {blocks[1]} = {math.prod(blocks)}, but got "
                           f"input.size(2)={length}.")
    if min(blocks) < 1:
        raise RuntimeError(f"{described}, calculated shape of the array of sliding blocks as {blocks}, which is too "
                           "small (non-positive)")
    if input._data.dtype.kind not in "fcb":  # PyTorch's kernel: floats, complex and bool
        raise _dtype.not_implemented("col2im_out_cpu", input._data.dtype)
    return unary(COL2IM, input, (size, kernel, dilation, padding, stride))
