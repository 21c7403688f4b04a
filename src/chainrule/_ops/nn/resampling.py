"""Padding and pixel shuffling, and the resampling that padding and interpolation share:
ops that move values to new positions.

Every op here except ``constant_pad_nd`` and the pixel shuffles is one *resampling*: each
output element along an axis is a weighted sum of a few input elements of that axis (its
taps). The trailing axes are resampled one after the other, so a 2-d op is two 1-d ones:

* reflect, replicate and circular padding: one tap of weight 1 (an index map);
* nearest interpolation (in ``interpolation``): one tap; linear (bilinear, trilinear): two taps with weights
  ``1 - lambda`` and ``lambda``; bicubic: four taps;
* adaptive average pooling (in ``pooling``): the taps of a window, each ``1 / width``.

An axis's taps are ``(index, weight, size)``: ``index`` and ``weight`` are (out, taps)
arrays (weight None: one tap of weight 1; index -1: no tap), ``size`` the input's length. The forward
gathers, the transpose scatters back with one matrix product per axis (taps that share an
input element sum there). Each op is a pair registered together, the op and its transpose
(PyTorch's ``...BackwardBackward0``), each the other's vjp, both their own jvp: so every
order of derivative is one of the two.

Example: ``F.pad(x, (1, 2), mode="reflect")`` on a length-4 axis reads the input at
``[1, 0, 1, 2, 3, 2, 1]``; its gradient adds each output gradient back at that index.
"""

import numpy as np

from ..._core import dtype as _dtype

from ..batching import leading
from ..pointwise.elementwise import zeros_like
from ..registry import apply, defop, unary

# --- resampling: the forward gather and its transpose ------------------------------------


def _resample(x, taps, initial=-0.0):
    """``out[..., o] = sum_t weight[o, t] * x[..., index[o, t]]`` along each trailing axis
    (the innermost first, as PyTorch's kernels sum). An index of -1 is no tap at all (a
    window narrower than the widest): it adds nothing, not even an infinity times 0."""
    first = x.ndim - len(taps)
    for axis in reversed(range(first, x.ndim)):
        index, weight, _ = taps[axis - first]
        if weight is None:
            x = np.take(x, index[:, 0], axis=axis)
            continue
        trailing = (1,) * (x.ndim - 1 - axis)
        picked = np.take(x, np.maximum(index, 0), axis=axis)  # the taps get an axis of their own, after `axis`
        terms = picked * weight.reshape(weight.shape + trailing)
        if (index < 0).any():
            terms = np.where((index >= 0).reshape(index.shape + trailing), terms, 0)
        # from -0., the additive identity, as PyTorch's w0 x0 + w1 x1 (NumPy's sum starts from +0.:
        # -0. + -0. would be +0.); or from ``initial``, the accumulator of a kernel that has one
        x = terms.sum(axis=axis + 1, initial=initial) if terms.dtype.kind == "f" else terms.sum(axis=axis + 1)
    return x


def _tap_matrix(index, weight, size, dtype):
    """The (out, size) matrix of one axis's taps; duplicates (two taps on one input) add."""
    matrix = np.zeros((index.shape[0], size), dtype)
    rows = np.arange(index.shape[0])[:, None]
    np.add.at(matrix, (rows, np.maximum(index, 0)), 1 if weight is None else weight)  # no tap: weight 0
    return matrix


def _resample_transpose(g, taps):
    """The transpose of ``_resample``: each output's gradient goes back to its taps."""
    first = g.ndim - len(taps)
    for axis in range(first, g.ndim):
        index, weight, size = taps[axis - first]
        moved = np.moveaxis(g, axis, -1)
        g = np.moveaxis(moved @ _tap_matrix(index, weight, size, g.dtype), -1, axis)
    return np.ascontiguousarray(g)


def _resample_pair(name, node, transpose_node=None, reads_input=False, check_grad=None, initial=-0.0):
    """Registers a resampling op and its transpose; returns (op, transpose).

    ``reads_input``: PyTorch's backward takes the forward's input too (reflection and
    replication padding, adaptive average pooling), so the transpose is an op of (g, x) that
    ignores x's values, with derivative zero there: under create_graph a gradient stays
    connected to x, and its second derivative is zeros (PyTorch's ``zeros_like(self)``).
    ``check_grad(g)``: the checks PyTorch's backward kernel makes of the gradient array;
    ``initial``: where the forward's sums start (see ``_resample``)."""
    def resampled(x, taps):
        return _resample(x, taps, initial)

    def forward(t, taps):
        return unary(pair[0], t, (taps,))

    if not reads_input:
        def transpose(t, taps):
            return unary(pair[1], t, (taps,))
        keep_taps = dict(save=lambda ans, x, taps: (taps,))
        # both act on the trailing dims only: a batch is one more leading dim
        pair = (defop(name, resampled, batch=leading, node=node, vjp=transpose, jvp=forward, **keep_taps),
                defop(name + "_backward", _resample_transpose, batch=leading,
                      node=transpose_node or node.replace("Backward0", "BackwardBackward0"),
                      vjp=forward, jvp=transpose, **keep_taps))
        return pair

    def transpose(t, x, taps):
        return apply(pair[1], (t, x), (taps,))

    def backward(g, x, taps):
        if check_grad is not None:
            check_grad(g)
        return _resample_transpose(g, taps)

    pair = (defop(name, resampled, batch=leading, node=node, save=lambda ans, x, taps: (x, taps),
                  vjp=transpose, jvp=lambda t, x, taps: forward(t, taps)),
            defop(name + "_backward", backward, batch=leading,
                  node=transpose_node or node.replace("Backward0", "BackwardBackward0"),
                  save=lambda ans, g, x, taps: (x, taps),
                  vjp=(lambda gg, x, taps: forward(gg, taps), lambda gg, x, taps: zeros_like(x)),
                  jvp=(transpose, lambda t, x, taps: zeros_like(t))))
    return pair


def resample(op, x, taps):
    """Runs the resampling ``op`` (an op of a ``_resample_pair``) on ``x``, the result in x's
    dtype (float16 is weighted and added in float32, as PyTorch's opmath)."""
    return unary(op, x, (tuple(taps),), x._data.dtype)


# --- padding --------------------------------------------------------------------------------


def _constant_pad(x, pads, value):
    """``pads`` as PyTorch orders them (last dim first, (left, right) pairs); negative
    amounts crop."""
    widths = [(0, 0)] * x.ndim
    crop = [slice(None)] * x.ndim
    for i in range(len(pads) // 2):
        axis = x.ndim - 1 - i
        left, right = pads[2 * i], pads[2 * i + 1]
        widths[axis] = (max(left, 0), max(right, 0))
        crop[axis] = slice(max(-left, 0), x.shape[axis] - max(-right, 0))
    x = x[tuple(crop)]
    if not any(w != (0, 0) for w in widths):
        return x.copy()
    return np.pad(x, widths, constant_values=np.asarray(value).astype(x.dtype))


def _negated(pads):
    return tuple(-p for p in pads)


# the gradient of padding crops, the gradient of cropping pads with zeros: one op both ways
CONSTANT_PAD = defop("constant_pad_nd", _constant_pad, batch=leading, node="ConstantPadNdBackward0",
                     save=lambda ans, x, pads, value: (pads,),
                     vjp=lambda g, pads: unary(CONSTANT_PAD, g, (_negated(pads), 0)),
                     jvp=lambda t, pads: unary(CONSTANT_PAD, t, (pads, 0)))


def constant_pad_nd(input, pad, value=0):
    """``torch.constant_pad_nd``: pads the last ``len(pad) // 2`` dims with ``value``."""
    pad = tuple(int(p) for p in pad)
    shape = input._data.shape
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) > 2 * len(shape):
        raise RuntimeError("Length of pad should be no more than twice the number of dimensions of the input. "
                           f"Pad length is {len(pad)}while the input has {len(shape)}dimensions.")  # sic
    for i in range(len(pad) // 2):
        size = shape[len(shape) - 1 - i]
        if size + min(pad[2 * i], 0) + min(pad[2 * i + 1], 0) < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
    if any(p > 0 for p in pad):  # PyTorch fills the padded output: fill_'s conversion of the value
        value = _fill_value(value, input._data.dtype)
    return unary(CONSTANT_PAD, input, (pad, value))


def _fill_value(value, np_dtype):
    """c10's overflow check of ``fill_``; a float into an integer dtype must lie in its range
    (no negative into uint8, no nan or inf), where an int may wrap (``checked_scalar``)."""
    if value.__class__ is float and np_dtype.kind in "iu":
        info = np.iinfo(np_dtype)
        if not info.min <= value <= info.max:  # nan fails too
            raise RuntimeError(f"value cannot be converted to type {_dtype._C_SCALAR_NAMES[np_dtype.name]} without "
                               "overflow")
        return value
    return _dtype.checked_scalar(value, np_dtype, check_half=False)


def _reflect_index(length, left, right):
    position = np.abs(np.arange(-left, length + right))
    return np.where(position >= length, 2 * (length - 1) - position, position)


def _replicate_index(length, left, right):
    return np.clip(np.arange(-left, length + right), 0, length - 1)


def _circular_index(length, left, right):
    """A negative amount crops first; the padding then wraps around what is left (PyTorch
    copies the kept part into place, then each side from the other end of it)."""
    kept = np.arange(max(-left, 0), length - max(-right, 0))
    return kept[np.arange(-max(left, 0), len(kept) + max(right, 0)) % len(kept)]


REFLECTION_PAD = {n: _resample_pair(f"reflection_pad{n}d", f"ReflectionPad{n}DBackward0", reads_input=True)
                  for n in (1, 2, 3)}
REPLICATION_PAD = {n: _resample_pair(f"replication_pad{n}d", f"ReplicationPad{n}DBackward0", reads_input=True)
                   for n in (1, 2, 3)}
# PyTorch pads circularly by copying slices into a new tensor: its last node is CopySlices
CIRCULAR_PAD = _resample_pair("pad_circular", "torch::autograd::CopySlices", "SliceBackwardBackward0")

_PAD_SIZES = ("Supported combinations for non-constant padding:\n"
              "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
              "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
              "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
_AXIS_LETTERS = {1: "W", 2: "HW", 3: "DHW"}  # how PyTorch's messages name the padded dims
_INDEX_MAPS = {"reflect": _reflect_index, "replicate": _replicate_index, "circular": _circular_index}


def _check_reflect_or_replicate(x, pad, mode, n):
    shape = x._data.shape
    batched = len(shape) == n + 2
    nonempty = all(shape[1 if batched else 0:])
    if not nonempty:
        raise RuntimeError(f"Expected {n + 1}D or {n + 2}D (batch mode) tensor with possibly 0 batch size and other "
                           f"non-zero dimensions for input, but got: {list(shape)}")
    sizes = shape[-n:]
    pairs = [(pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1]) for i in range(n)]  # first spatial dim first
    if mode == "reflect":
        for i in reversed(range(n)):  # PyTorch checks the last dim first
            (left, right), size = pairs[i], sizes[i]
            if left >= size or right >= size:
                raise RuntimeError(f"Argument #{2 * (n - i) + 2}: Padding size should be less than the "
                                   "corresponding input dimension, but got: padding "
                                   f"({left}, {right}) at dimension {len(shape) - n + i} of input {list(shape)}")
    outs = [size + left + right for (left, right), size in zip(pairs, sizes)]
    if n == 1 and outs[0] < 1:
        raise RuntimeError(f"input (W: {sizes[0]}) is too small. Calculated output W: {outs[0]}")
    if min(outs) < 0:  # PyTorch checks only the 1-d case; the others fail making the output
        out_shape = list(shape[:-n]) + outs
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(outs)}: {out_shape}")


def _check_circular(x, pad, n):
    sizes = x._data.shape[-n:]
    for i, size in enumerate(sizes):
        left, right = pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1]
        if left > size or right > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if size + left + right < 0:
            raise RuntimeError("Negative padding value is resulting in an empty dimension")


def pad(input, pad, mode="constant", value=None):
    """``F.pad``: ``pad`` lists (left, right) amounts from the last dim backwards.

    ``mode``: "constant" (with ``value``, default 0; negative amounts crop), "reflect"
    (mirror without repeating the edge), "replicate" (repeat the edge) or "circular" (wrap).
    """
    pad = tuple(int(p) for p in pad)
    ndim = input._data.ndim
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) > 2 * ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but "
                           f"got padding length {len(pad)} and input of dimension {ndim}")
    if mode == "constant":
        return constant_pad_nd(input, pad, 0.0 if value is None else float(value))  # F.pad's value is a double
    if mode not in _INDEX_MAPS:
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    n = len(pad) // 2
    if n not in (1, 2, 3) or ndim not in (n + 1, n + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {ndim}D input tensor.\n{_PAD_SIZES}")
    if mode == "circular":
        _check_circular(input, pad, n)
        op = CIRCULAR_PAD[0]
    else:
        _check_reflect_or_replicate(input, pad, mode, n)  # the shape checks, then the kernel's dtypes
        if input._data.dtype.kind == "b":
            kind = "reflection" if mode == "reflect" else "replication"
            raise NotImplementedError(f"\"{kind}_pad{n}d\" not implemented for 'Bool'")
        op = (REFLECTION_PAD if mode == "reflect" else REPLICATION_PAD)[n][0]
    sizes = input._data.shape[-n:]
    taps = []
    for i, size in enumerate(sizes):
        left, right = pad[2 * (n - 1 - i)], pad[2 * (n - 1 - i) + 1]
        taps.append((_INDEX_MAPS[mode](size, left, right)[:, None], None, size))
    return resample(op, input, taps)


# --- pixel shuffle ------------------------------------------------------------------------------


def _pixel_shuffle(x, r):
    """(..., C*r*r, H, W) -> (..., C, H*r, W*r): channel c*r*r + i*r + j goes to (h*r + i, w*r + j)."""
    *lead, c, h, w = x.shape
    blocks = x.reshape(*lead, c // (r * r), r, r, h, w)
    n = len(lead)
    order = tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2)
    return blocks.transpose(order).reshape(*lead, c // (r * r), h * r, w * r)


def _pixel_unshuffle(x, r):
    """The inverse of ``_pixel_shuffle``: (..., C, H*r, W*r) -> (..., C*r*r, H, W). An
    empty input comes back as a copy of its own shape, as PyTorch's kernel returns it."""
    if not x.size:
        return x.copy()
    *lead, c, h, w = x.shape
    blocks = x.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    order = tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3)
    return blocks.transpose(order).reshape(*lead, c * r * r, h // r, w // r)


# shuffling and unshuffling are inverse permutations, so each is the other's transpose
def _of_shape(grad, shape, node):
    """An empty tensor (un)shuffles to its own shape (see _pixel_unshuffle): where that is
    not the input's, PyTorch's engine sums the gradient to it if the input's shape expands
    to the gradient's, and refuses it otherwise."""
    shape, got = tuple(shape), tuple(grad.shape)
    if got == shape:
        return grad
    try:
        expands = np.broadcast_shapes(shape, got) == got
    except ValueError:
        expands = False
    if not expands:
        raise RuntimeError(f"Function {node} returned an invalid gradient at index 0 - got {list(got)} but "
                           f"expected shape compatible with {list(shape)}")
    return grad.sum_to_size(shape)


PIXEL_SHUFFLE = defop("pixel_shuffle", _pixel_shuffle, batch=leading, node="PixelShuffleBackward0",
                      save=lambda ans, x, r: (r, x.shape),
                      vjp=lambda g, r, shape: _of_shape(unary(PIXEL_UNSHUFFLE, g, (r,)), shape,
                                                        "PixelShuffleBackward0"),
                      jvp=lambda t, r, shape: unary(PIXEL_SHUFFLE, t, (r,)))


def _unshuffle_vjp(g, r, shape):
    """pixel_shuffle(g), its checks first."""
    return _of_shape(pixel_shuffle(g, r), shape, "PixelUnshuffleBackward0")


PIXEL_UNSHUFFLE = defop("pixel_unshuffle", _pixel_unshuffle, batch=leading, node="PixelUnshuffleBackward0",
                        save=lambda ans, x, r: (r, x.shape),
                        vjp=_unshuffle_vjp,
                        jvp=lambda t, r, shape: unary(PIXEL_UNSHUFFLE, t, (r,)))


def _check_shuffle_input(x, name, factor_name, factor):
    if x._data.ndim < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with "
                           f"{x._data.ndim} dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {factor_name}, but got {factor}")


def pixel_shuffle(input, upscale_factor):
    """Moves blocks of r*r channels into r x r pixel squares (sub-pixel convolution)."""
    r = int(upscale_factor)
    _check_shuffle_input(input, "pixel_shuffle", "upscale_factor", r)
    c = input._data.shape[-3]
    if c % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    return unary(PIXEL_SHUFFLE, input, (r,))


def pixel_unshuffle(input, downscale_factor):
    """The inverse of ``pixel_shuffle``: r x r pixel squares become r*r channels."""
    r = int(downscale_factor)
    _check_shuffle_input(input, "pixel_unshuffle", "downscale_factor", r)
    h, w = input._data.shape[-2:]
    for dim, what, size in ((-2, "height", h), (-1, "width", w)):
        if size % r:
            raise RuntimeError(f"pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                               f"input.size({dim})={size} is not divisible by {r}")
    return unary(PIXEL_UNSHUFFLE, input, (r,))

