"""Interpolation: ``F.interpolate`` and the ``upsample`` functions, resizing the trailing
1, 2 or 3 dims of an (N, C, ...) tensor.

Nearest, linear and cubic modes are resamplings (``resampling``'s taps: one, two or four
per output element along each axis); "area" is adaptive average pooling (``pooling``), so
this module sits above both.
"""
import warnings

import numpy as np

from ..._core import dtype as _dtype
from ..._core.exact import fma32, fma64
from .pooling import adaptive_avg_pool1d, adaptive_avg_pool2d
from .resampling import _AXIS_LETTERS, _resample_pair, resample

# --- interpolation ----------------------------------------------------------------------------
# Source positions are computed as PyTorch's CPU kernels compute them (UpSample.h), in the
# same precision (float32 for nearest, the input's dtype for linear and cubic), so that an
# output position falls on the same input element.

def _step(in_size, out_size, scale, dtype):
    """PyTorch's compute_scales_value in ``dtype``: 1 / scale_factor when one was given,
    else in / out."""
    if scale is not None and scale > 0:
        return dtype.type(1.0 / scale)
    return dtype.type(in_size) / dtype.type(out_size)


def _nearest_taps(in_size, out_size, scale, exact):
    o = np.arange(out_size)
    if not exact and out_size == in_size:
        index = o
    elif not exact and out_size == 2 * in_size:
        index = o >> 1
    else:
        step = _step(in_size, out_size, scale, np.dtype(np.float32))
        source = (o + 0.5) * np.float64(step) if exact else o.astype(np.float32) * step
        index = np.minimum(np.floor(source.astype(np.float32)).astype(np.int64), in_size - 1)
    return index[:, None], None, in_size


def _source_positions(in_size, out_size, scale, align_corners, dtype, cubic):
    """area_pixel_compute_source_index for every output position, in ``dtype``."""
    o = np.arange(out_size).astype(dtype)
    if align_corners:
        step = dtype.type(in_size - 1) / dtype.type(out_size - 1) if out_size > 1 else dtype.type(0)
        return step * o
    step = _step(in_size, out_size, scale, dtype)
    # fused, as PyTorch's kernels compile it on x86-64 (AVX2): one rounding of step (o + 0.5) - 0.5
    if dtype == np.float32:
        source = np.asarray(fma32(step, o + dtype.type(0.5), dtype.type(-0.5))).astype(dtype)
    elif dtype == np.float64:
        source = np.asarray(fma64(step, o + 0.5, -0.5))
    else:
        source = step * (o + dtype.type(0.5)) - dtype.type(0.5)
    return source if cubic else np.maximum(source, dtype.type(0))


def _floor_and_fraction(source, in_size, dtype):
    """guard_index_and_lambda: the input element at or left of ``source`` and the distance."""
    index = np.minimum(np.floor(source.astype(np.float32)).astype(np.int64), in_size - 1)
    fraction = np.clip(source - index.astype(dtype), 0, 1).astype(dtype)
    return index, fraction


def _linear_taps(in_size, out_size, scale, align_corners, dtype):
    if out_size == in_size:
        index = np.arange(out_size)
        return np.stack([index, index], 1), np.array([[1, 0]] * out_size, dtype).reshape(out_size, 2), in_size
    source = _source_positions(in_size, out_size, scale, align_corners, dtype, cubic=False)
    left, right_weight = _floor_and_fraction(source, in_size, dtype)
    right = left + (left < in_size - 1)
    return np.stack([left, right], 1), np.stack([dtype.type(1) - right_weight, right_weight], 1), in_size


def _cubic_taps(in_size, out_size, scale, align_corners, dtype):
    source = _source_positions(in_size, out_size, scale, align_corners, dtype, cubic=True)
    index, t = _floor_and_fraction(source, in_size, dtype)
    a = dtype.type(-0.75)

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    one = dtype.type(1)
    weight = np.stack([far(t + one), near(t), near(one - t), far(one - t + one)], 1).astype(dtype)
    taps = np.clip(index[:, None] + np.arange(-1, 3), 0, in_size - 1)
    return taps, weight, in_size


UPSAMPLE_NEAREST = {n: _resample_pair(f"upsample_nearest{n}d", f"UpsampleNearest{n}DBackward0") for n in (1, 2, 3)}
UPSAMPLE_NEAREST_EXACT = {n: _resample_pair(f"upsample_nearest_exact{n}d", f"UpsampleNearestExact{n}DBackward0")
                          for n in (1, 2, 3)}
UPSAMPLE_LINEAR = {1: _resample_pair("upsample_linear1d", "UpsampleLinear1DBackward0"),
                   2: _resample_pair("upsample_bilinear2d", "UpsampleBilinear2DBackward0"),
                   3: _resample_pair("upsample_trilinear3d", "UpsampleTrilinear3DBackward0")}
UPSAMPLE_BICUBIC = _resample_pair("upsample_bicubic2d", "UpsampleBicubic2DBackward0")

_MODE_DIMS = {"linear": 1, "bilinear": 2, "trilinear": 3, "bicubic": 2}
_ALL_MODES = "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact"


def _output_size(x, n, size, scale_factor, recompute_scale_factor):
    """(output sizes, scale factors for the kernel or None), as F.interpolate decides."""
    spatial = list(x._data.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != n:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {spatial} and output size of {size}. Please provide input tensor in (N, C, d1, "
                    "d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            if not all(isinstance(s, (int, np.integer)) for s in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(s) for s in size]}")
            sizes = [int(s) for s in size]
        else:
            sizes = [int(size)] * n
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        return sizes, None
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != n:
            raise ValueError(
                "Input and scale_factor must have the same number of spatial dimensions, but got input with spatial "
                f"dimensions of {spatial} and scale_factor of shape {scale_factor}. Please provide input tensor in "
                "(N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) format.")
        scales = [float(s) for s in scale_factor]
    else:
        scales = [float(scale_factor)] * n
    sizes = [int(s * f) for s, f in zip(spatial, scales)]  # C++ truncates the double product
    return sizes, (None if recompute_scale_factor else scales)


def _check_sizes(x, sizes):
    spatial = x._data.shape[2:]
    if min(spatial) > 0 and min(sizes) > 0:
        return
    letters = _AXIS_LETTERS[len(sizes)]
    given = ", ".join(f"{a}: {s}" for a, s in zip(letters, spatial))
    wanted = ", ".join(f"{a}: {s}" for a, s in zip(letters, sizes))
    joint = " and output" if len(sizes) == 1 else " output"
    raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({given}){joint} ({wanted})")


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """``F.interpolate``: resizes the trailing 1, 2 or 3 dims of an (N, C, ...) tensor.

    Modes: "nearest", "nearest-exact", "linear" (3-d input), "bilinear" and "bicubic"
    (4-d), "trilinear" (5-d) and "area" (adaptive average pooling).
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    ndim = input._data.ndim
    n = ndim - 2
    sizes, scales = _output_size(input, n, size, scale_factor, recompute_scale_factor)
    if mode == "area" and scales is not None:  # area always recomputes its scale
        scales = None
    if antialias:
        raise NotImplementedError("chainrule's interpolate has no anti-aliasing (antialias=True)")
    if mode == "area" and n in (1, 2):
        return (adaptive_avg_pool1d if n == 1 else adaptive_avg_pool2d)(input, sizes)
    if mode in ("nearest", "nearest-exact") and n in (1, 2, 3) or mode in _MODE_DIMS and n == _MODE_DIMS[mode]:
        _check_sizes(input, sizes)
        if 0 in input._data.shape[1:]:  # an empty batch is allowed, no other empty dim
            raise RuntimeError(f"Non-empty {ndim}D data tensor expected but got a tensor with sizes "
                               f"{list(input._data.shape)}")
        if input._data.dtype.kind not in "f" and not (mode.startswith("nearest") and input._data.dtype == np.uint8):
            kernel = "nearest" if mode.startswith("nearest") else "linear" if mode != "bicubic" else "cubic"
            if n == 2 and kernel != "cubic":  # PyTorch's 2-d kernels dispatch on the channels-last one first
                kernel = f"upsample_{'bilinear' if kernel == 'linear' else 'nearest'}2d_channels_last"
                raise _dtype.not_implemented(kernel, input._data.dtype)
            raise _dtype.not_implemented(f"compute_indices_weights_{kernel}", input._data.dtype)
        dtype = np.result_type(input._data.dtype, np.float32)  # float16's positions and weights in float, its opmath
        spatial = input._data.shape[2:]
        per_axis = scales or [None] * n
        if mode == "nearest" or mode == "nearest-exact":
            exact = mode == "nearest-exact"
            taps = [_nearest_taps(i, o, s, exact) for i, o, s in zip(spatial, sizes, per_axis)]
            return resample((UPSAMPLE_NEAREST_EXACT if exact else UPSAMPLE_NEAREST)[n][0], input, taps)
        make = _cubic_taps if mode == "bicubic" else _linear_taps
        taps = [make(i, o, s, align_corners, dtype) for i, o, s in zip(spatial, sizes, per_axis)]
        return resample(UPSAMPLE_BICUBIC[0] if mode == "bicubic" else UPSAMPLE_LINEAR[n][0], input, taps)
    if mode in _MODE_DIMS and n in (1, 2, 3):
        wanted = _MODE_DIMS[mode] + 2
        raise NotImplementedError(f"Got {ndim}D input, but {mode} mode needs {wanted}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {ndim}D) for the modes: "
                              f"{_ALL_MODES} (got {mode})")


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
