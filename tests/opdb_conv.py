"""Op database entries for convolutions, pooling, padding and resampling (_ops/nn/: conv.py,
pooling.py, resampling.py, interpolation.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

Sizes are small on purpose (a 1x2x5x5 input, a 2x2x3x3 kernel): gradcheck runs one forward
per input element, and gradgradcheck only takes samples of at most 24 elements, so each
entry has a few tiny samples for the second-order checks.
"""
import numpy as np

from op_db import ALL, LOOSE_TOL, NUMBERS, Domain, Entry, ErrorCase, Sample

POSITIVE = Domain(0.5, 2.0)
CONV_DTYPES = NUMBERS  # PyTorch convolves int64 tensors too (no gradient)


def F(lib):
    return lib.nn.functional


# --- convolutions -----------------------------------------------------------------------------
# (input, weight, bias, stride, padding, dilation, groups)


def conv1d_samples(g):
    yield Sample("basic", (g(2, 2, 5), g(3, 2, 3), g(3), 1, 0, 1, 1))
    yield Sample("tiny", (g(1, 1, 4), g(2, 1, 2), g(2), 1, 0, 1, 1))
    yield Sample("no_bias", (g(2, 2, 5), g(3, 2, 3), None, 1, 0, 1, 1))
    yield Sample("unbatched", (g(2, 5), g(3, 2, 2), g(3), 1, 0, 1, 1))
    yield Sample("stride_padding", (g(1, 2, 6), g(2, 2, 3), g(2), 2, 1, 1, 1))
    yield Sample("stride_skips_end", (g(1, 1, 6), g(2, 1, 3), None, 2, 0, 1, 1))  # the last input column unused
    yield Sample("dilation", (g(1, 2, 7), g(2, 2, 3), None, 1, 1, 2, 1))
    yield Sample("groups", (g(1, 4, 5), g(4, 2, 2), g(4), 1, 0, 1, 2))
    yield Sample("depthwise", (g(1, 3, 4), g(3, 1, 2), None, 1, 1, 1, 3))
    yield Sample("same", (g(1, 2, 5), g(2, 2, 3), g(2), 1, "same", 1, 1))
    yield Sample("same_dilated", (g(1, 1, 5), g(2, 1, 2), None, 1, "same", 2, 1))
    yield Sample("valid", (g(1, 2, 5), g(2, 2, 3), None, 1, "valid", 1, 1))
    yield Sample("noncontig", (g.noncontig(2, 2, 5), g.noncontig(3, 2, 3), g(3), 1, 0, 1, 1))
    yield Sample("empty_batch", (g(0, 2, 5), g(3, 2, 3), g(3), 1, 0, 1, 1))
    # no input channels: PyTorch's empty path, no output channels either (with a bias, its
    # second derivative fails in PyTorch: the bias's gradient is not broadcast to no channels)
    yield Sample("no_channels", (g(2, 0, 5), g(3, 0, 3), None, 2, 0, 1, 1))
    if g.dtype == np.float64:
        yield Sample("input_only", (g(1, 2, 5), g(2, 2, 3), g(2), 1, 0, 1, 1), grad=(0,))
        yield Sample("weight_only", (g(1, 2, 5), g(2, 2, 3), g(2), 1, 0, 1, 1), grad=(1,))


def conv2d_samples(g):
    yield Sample("basic", (g(1, 2, 5, 5), g(2, 2, 3, 3), g(2), 1, 0, 1, 1))
    yield Sample("tiny", (g(1, 1, 3, 3), g(1, 1, 2, 2), g(1), 1, 0, 1, 1))
    yield Sample("batch_no_bias", (g(2, 1, 4, 4), g(2, 1, 2, 2), None, 1, 0, 1, 1))
    yield Sample("unbatched", (g(2, 4, 4), g(2, 2, 2, 2), g(2), 1, 0, 1, 1))
    yield Sample("stride_padding", (g(1, 2, 5, 5), g(2, 2, 3, 3), g(2), 2, 1, 1, 1))
    yield Sample("tuples", (g(1, 1, 5, 6), g(2, 1, 3, 2), None, (2, 1), (1, 0), (1, 2), 1))
    yield Sample("stride_skips_end", (g(1, 1, 6, 6), g(1, 1, 3, 3), None, 2, 0, 1, 1))
    yield Sample("groups", (g(1, 4, 4, 4), g(2, 2, 2, 2), g(2), 1, 0, 1, 2))
    yield Sample("same_even_kernel", (g(1, 1, 4, 4), g(1, 1, 2, 2), None, 1, "same", 1, 1))
    yield Sample("same", (g(1, 2, 4, 4), g(1, 2, 3, 3), g(1), 1, "same", 1, 1))
    yield Sample("noncontig", (g.noncontig(1, 2, 4, 5), g.noncontig(2, 2, 2, 2), g(2), 1, 0, 1, 1))


def conv3d_samples(g):
    yield Sample("basic", (g(1, 2, 3, 3, 3), g(2, 2, 2, 2, 2), g(2), 1, 0, 1, 1))
    yield Sample("tiny", (g(1, 1, 2, 2, 3), g(1, 1, 2, 1, 2), None, 1, 0, 1, 1))
    yield Sample("stride_padding_dilation", (g(1, 1, 4, 4, 4), g(2, 1, 2, 2, 2), g(2), 2, 1, (1, 2, 1), 1))
    yield Sample("unbatched_groups", (g(2, 3, 3, 3), g(2, 1, 2, 2, 2), None, 1, 0, 1, 2))


# (input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose1d_samples(g):
    yield Sample("basic", (g(2, 2, 4), g(2, 3, 3), g(3), 1, 0, 0, 1, 1))
    yield Sample("tiny", (g(1, 1, 3), g(1, 2, 2), g(2), 1, 0, 0, 1, 1))
    yield Sample("stride_output_padding", (g(1, 2, 4), g(2, 2, 3), None, 2, 1, 1, 1, 1))
    yield Sample("groups_dilation", (g(1, 4, 3), g(4, 1, 2), g(2), 1, 0, 0, 2, 2))
    yield Sample("output_padding_below_dilation", (g(1, 1, 3), g(1, 2, 2), None, 1, 0, 1, 1, 2))
    yield Sample("unbatched", (g(2, 4), g(2, 3, 2), g(3), 2, 0, 0, 1, 1))
    yield Sample("noncontig", (g.noncontig(2, 2, 4), g.noncontig(2, 3, 3), None, 1, 1, 0, 1, 1))


def conv_transpose2d_samples(g):
    yield Sample("basic", (g(1, 2, 3, 3), g(2, 2, 3, 3), g(2), 1, 0, 0, 1, 1))
    yield Sample("tiny", (g(1, 1, 2, 2), g(1, 1, 2, 2), g(1), 1, 0, 0, 1, 1))
    yield Sample("stride_padding_output_padding", (g(1, 2, 3, 3), g(2, 1, 3, 3), None, 2, 1, 1, 1, 1))
    yield Sample("tuples", (g(1, 1, 3, 2), g(1, 2, 2, 3), g(2), (2, 1), (0, 1), (1, 0), 1, (1, 2)))
    yield Sample("groups", (g(1, 4, 2, 2), g(4, 1, 2, 2), g(2), 1, 0, 0, 2, 1))
    yield Sample("unbatched", (g(2, 3, 3), g(2, 1, 2, 2), None, 1, 0, 0, 1, 1))
    yield Sample("3d", (g(1, 1, 2, 2, 2), g(1, 2, 2, 2, 2), g(2), 2, 0, 1, 1, 1))


def torch_namespace_samples(g):
    yield Sample("conv2d", ("conv2d", g(1, 2, 4, 4), g(2, 2, 2, 2), g(2)))
    yield Sample("conv1d", ("conv1d", g(1, 2, 4), g(2, 2, 2), None))
    yield Sample("conv_transpose1d", ("conv_transpose1d", g(1, 2, 3), g(2, 1, 2), None))
    yield Sample("convolution", ("convolution", g(1, 2, 4), g(2, 2, 2), g(2)))


def _torch_namespace(lib, name, x, w, b):
    if name == "convolution":
        return lib.convolution(x, w, b, [2], [1], [1], False, [0], 1)
    return getattr(lib, name)(x, w, b)


# --- unfold / fold ----------------------------------------------------------------------------


def unfold_samples(g):
    yield Sample("basic", (g(1, 2, 4, 4), 2, 1, 0, 1))
    yield Sample("tiny", (g(1, 1, 3, 3), 2, 1, 0, 1))
    yield Sample("all_options", (g(2, 1, 5, 4), (2, 3), (2, 1), (1, 0), (2, 1)))
    yield Sample("unbatched", (g(2, 3, 3), 2, 1, 1, 2))
    yield Sample("noncontig", (g.noncontig(1, 2, 3, 4), (2, 1), 1, 0, 1))


def fold_samples(g):
    yield Sample("basic", (g(1, 8, 9), (4, 4), 2, 1, 0, 1))
    yield Sample("tiny", (g(1, 4, 4), (3, 3), 2, 1, 0, 1))
    yield Sample("all_options", (g(2, 6, 6), (5, 4), (2, 3), (2, 1), (1, 0), (2, 1)))
    yield Sample("unbatched", (g(4, 4), (3, 3), 2, 1, 1, 2))
    yield Sample("noncontig", (g.noncontig(1, 4, 6), (3, 4), (2, 2), 1, 0, 1))


# --- pooling --------------------------------------------------------------------------------------
# max pools: (input, kernel, stride, padding, dilation, ceil_mode, return_indices)


def max_pool2d_samples(g):
    yield Sample("basic", (g(1, 2, 4, 4), 2, None, 0, 1, False, False))
    yield Sample("tiny", (g(1, 1, 3, 3), 2, 1, 0, 1, False, False))  # overlapping windows
    yield Sample("indices", (g(2, 1, 4, 4), 2, None, 0, 1, False, True))
    yield Sample("padding_dilation", (g(1, 1, 5, 5), 2, 1, 1, 2, False, False))
    yield Sample("ceil_mode", (g(1, 2, 5, 5), 2, 2, 0, 1, True, False))
    yield Sample("tuples", (g(1, 1, 5, 4), (3, 2), (2, 1), (1, 0), 1, True, True))
    yield Sample("unbatched", (g(2, 4, 4), 3, 1, 1, 1, False, False))
    yield Sample("noncontig", (g.noncontig(1, 2, 4, 4), 2, None, 0, 1, False, False))
    yield Sample("empty_batch", (g(0, 2, 4, 4), 2, None, 0, 1, False, False))
    ties = np.array([[[[1, 1, 2], [1, 2, 0], [2, 0, 2]]]]).astype(g.dtype)
    yield Sample("ties", (ties, 2, 1, 0, 1, False, True), eps=None)
    if g.is_float:
        special = np.array([[[[np.nan, 1, -np.inf], [np.nan, 2, -np.inf], [0, 1, -np.inf]]]]).astype(g.dtype)
        yield Sample("nan_and_inf", (special, 2, 1, 1, 1, True, True), eps=None)


def max_pool1d_samples(g):
    yield Sample("basic", (g(2, 2, 6), 2, None, 0, 1, False, False))
    yield Sample("tiny", (g(1, 1, 5), 3, 1, 1, 1, False, False))
    yield Sample("indices", (g(1, 2, 6), 3, 2, 1, 1, True, True))
    yield Sample("dilation", (g(1, 1, 7), 2, 1, 0, 3, False, True))
    yield Sample("unbatched", (g(2, 5), 2, 1, 0, 1, False, False))


def avg_pool2d_samples(g):
    """(input, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)"""
    yield Sample("basic", (g(1, 2, 4, 4), 2, None, 0, False, True, None))
    yield Sample("tiny", (g(1, 1, 3, 3), 2, 1, 0, False, True, None))
    yield Sample("padding", (g(1, 1, 5, 5), 3, 2, 1, False, True, None))
    yield Sample("padding_excluded", (g(1, 1, 5, 5), 3, 2, 1, False, False, None))
    yield Sample("ceil_mode", (g(1, 2, 5, 5), 2, 2, 1, True, True, None))
    yield Sample("ceil_mode_excluded", (g(1, 1, 5, 4), (3, 2), (2, 3), (1, 1), True, False, None))
    yield Sample("divisor_override", (g(1, 1, 4, 4), 2, 1, 1, False, True, 3))
    yield Sample("unbatched", (g(2, 4, 4), 3, 1, 1, False, True, None))
    yield Sample("noncontig", (g.noncontig(2, 1, 4, 4), 2, None, 0, False, True, None))
    yield Sample("empty_batch", (g(0, 1, 4, 4), 2, None, 0, False, True, None))


def avg_pool1d_samples(g):
    """(input, kernel, stride, padding, ceil_mode, count_include_pad)"""
    yield Sample("basic", (g(2, 2, 6), 2, None, 0, False, True))
    yield Sample("tiny", (g(1, 1, 5), 3, 2, 1, True, False))
    yield Sample("padding", (g(1, 2, 5), 3, 1, 1, False, True))
    yield Sample("unbatched", (g(2, 5), 2, 1, 0, True, True))


def adaptive_avg_pool2d_samples(g):
    yield Sample("basic", (g(1, 2, 5, 5), 3))
    yield Sample("tiny", (g(1, 1, 3, 4), (2, 3)))
    yield Sample("divides", (g(2, 1, 4, 4), 2))
    yield Sample("larger_output", (g(1, 1, 2, 3), (3, 5)))  # windows share inputs
    yield Sample("keep_width", (g(1, 1, 5, 3), (2, None)))
    yield Sample("to_one", (g(2, 2, 3, 3), 1))
    yield Sample("unbatched", (g(2, 4, 5), (3, 2)))
    yield Sample("noncontig", (g.noncontig(1, 2, 4, 5), 3))


def adaptive_avg_pool1d_samples(g):
    yield Sample("basic", (g(2, 2, 7), 3))
    yield Sample("tiny", (g(1, 1, 5), 2))
    yield Sample("larger_output", (g(1, 2, 3), 5))
    yield Sample("to_one", (g(2, 5), 1))


def adaptive_max_pool2d_samples(g):
    """(input, output_size, return_indices)"""
    yield Sample("basic", (g(1, 2, 5, 5), 3, False))
    yield Sample("tiny", (g(1, 1, 3, 4), (2, 3), False))
    yield Sample("indices", (g(2, 1, 5, 4), (2, 3), True))
    yield Sample("larger_output", (g(1, 1, 2, 3), (3, 4), True))
    yield Sample("keep_height", (g(1, 1, 3, 5), (None, 2), False))
    yield Sample("unbatched", (g(2, 4, 4), 1, True))
    if g.is_float:
        special = np.array([[[[np.nan, 1, 3], [np.nan, 2, 1], [-np.inf, -np.inf, 0]]]]).astype(g.dtype)
        yield Sample("nan_and_inf", (special, 2, True), eps=None)


def adaptive_max_pool1d_samples(g):
    yield Sample("basic", (g(2, 2, 7), 3, False))
    yield Sample("tiny", (g(1, 1, 5), 2, True))
    yield Sample("unbatched", (g(2, 4), 3, True))


def lp_pool2d_samples(g):
    """(input, norm_type, kernel, stride, ceil_mode)"""
    yield Sample("p2", (g(1, 2, 4, 4), 2, 2, None, False))
    yield Sample("tiny", (g(1, 1, 3, 3), 3, 2, 1, False))
    yield Sample("fractional_p", (g(1, 1, 5, 5), 1.5, (2, 3), 2, True))
    yield Sample("max", (g(1, 1, 4, 4), float("inf"), 2, None, False))


def lp_pool1d_samples(g):
    yield Sample("p2", (g(2, 2, 6), 2, 2, None, False))
    yield Sample("tiny", (g(1, 1, 5), 3, 2, 1, True))
    yield Sample("max", (g(1, 1, 6), float("inf"), 3, None, False))


# --- padding --------------------------------------------------------------------------------------


def pad_constant_samples(g):
    """(input, pad, value)"""
    yield Sample("last_dim", (g(2, 3), (1, 2), None))
    yield Sample("tiny", (g(2, 2), (1, 0, 0, 1), None))
    yield Sample("two_dims_value", (g(1, 2, 3), (1, 1, 2, 0), g.number()))
    yield Sample("crop", (g(2, 5), (-1, 2), None))
    yield Sample("crop_both", (g(2, 4, 3), (0, -1, -2, 1), None))
    yield Sample("all_dims", (g(2, 2), (1, 1, 1, 1), None))
    yield Sample("to_empty", (g(2, 4), (-2, -2), None))
    yield Sample("noncontig", (g.noncontig(3, 4), (2, 1), None))
    yield Sample("empty", (g(0, 3), (1, 1), None))
    if g.dtype == np.int64:
        yield Sample("float_value", (g(3), (1, 1), 2.7))


def pad_mode_samples(mode):
    def samples(g):
        yield Sample("1d", (g(2, 2, 4), (1, 2), mode))
        yield Sample("tiny", (g(1, 4), (2, 1), mode))
        yield Sample("2d", (g(1, 2, 3, 4), (1, 2, 2, 0), mode))
        yield Sample("2d_unbatched", (g(2, 3, 3), (0, 1, 1, 1), mode))
        yield Sample("3d", (g(1, 1, 2, 3, 3), (1, 1, 0, 2, 1, 0), mode))
        yield Sample("crop", (g(1, 2, 5), (-1, 2), mode))
        yield Sample("noncontig", (g.noncontig(1, 3, 4), (2, 1), mode))
        if mode == "circular":
            yield Sample("full_wrap", (g(1, 1, 3), (3, 3), mode))
    return samples


# --- interpolation --------------------------------------------------------------------------------
# (input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def interpolate_nearest_samples(g):
    for mode in ("nearest", "nearest-exact"):
        yield Sample(f"{mode}_1d_size", (g(1, 2, 4), 7, None, mode, None, None))
        yield Sample(f"{mode}_tiny", (g(1, 1, 3), 5, None, mode, None, None))
        yield Sample(f"{mode}_1d_down", (g(1, 1, 7), 3, None, mode, None, None))
        yield Sample(f"{mode}_2d_scale", (g(1, 1, 2, 3), None, 2, mode, None, None))
        yield Sample(f"{mode}_2d_fractional", (g(1, 2, 3, 3), None, (1.5, 0.7), mode, None, None))
        yield Sample(f"{mode}_2d_recompute", (g(1, 1, 3, 3), None, 1.7, mode, None, True))
        yield Sample(f"{mode}_3d", (g(1, 1, 2, 2, 3), (3, 2, 5), None, mode, None, None))
    yield Sample("noncontig", (g.noncontig(1, 2, 3, 4), (5, 3), None, "nearest", None, None))
    yield Sample("same_size", (g(1, 1, 3, 3), 3, None, "nearest", None, None))


def interpolate_linear_samples(g):
    for align in (False, True):
        yield Sample(f"linear_up_{align}", (g(1, 2, 4), 7, None, "linear", align, None))
        yield Sample(f"linear_tiny_{align}", (g(1, 1, 3), 5, None, "linear", align, None))
        yield Sample(f"linear_down_{align}", (g(2, 1, 7), 3, None, "linear", align, None))
        yield Sample(f"bilinear_{align}", (g(1, 1, 3, 3), (4, 5), None, "bilinear", align, None))
        yield Sample(f"bilinear_scale_{align}", (g(1, 2, 2, 3), None, (2, 1.5), "bilinear", align, None))
        yield Sample(f"trilinear_{align}", (g(1, 1, 2, 2, 3), (3, 2, 4), None, "trilinear", align, None))
        yield Sample(f"bicubic_{align}", (g(1, 1, 3, 4), (5, 3), None, "bicubic", align, None))
    yield Sample("linear_default_align", (g(1, 1, 4), None, 2.5, "linear", None, None))
    yield Sample("linear_to_one_aligned", (g(1, 1, 4), 1, None, "linear", True, None))
    yield Sample("bilinear_recompute", (g(1, 1, 3, 3), None, 1.5, "bilinear", False, True))
    yield Sample("bilinear_same_size", (g(1, 1, 3, 3), 3, None, "bilinear", False, None))
    yield Sample("area_1d", (g(1, 2, 7), 3, None, "area", None, None))
    yield Sample("area_2d", (g(1, 1, 5, 4), None, 0.5, "area", None, None))
    yield Sample("noncontig", (g.noncontig(1, 2, 3, 4), (4, 6), None, "bilinear", False, None))


def upsample_samples(g):
    yield Sample("upsample", ("upsample", g(1, 1, 2, 3), None, 2))
    yield Sample("upsample_nearest", ("upsample_nearest", g(1, 2, 3), 5, None))
    yield Sample("upsample_bilinear", ("upsample_bilinear", g(1, 1, 2, 3), (3, 4), None))


def pixel_shuffle_samples(g):
    yield Sample("basic", (g(1, 8, 2, 2), 2))
    yield Sample("unbatched", (g(4, 1, 2), 2))
    yield Sample("extra_batch_dims", (g(2, 1, 9, 1, 2), 3))
    yield Sample("factor_one", (g(1, 2, 2, 2), 1))
    yield Sample("noncontig", (g.noncontig(1, 4, 2, 3), 2))


def pixel_unshuffle_samples(g):
    yield Sample("basic", (g(1, 2, 4, 4), 2))
    yield Sample("unbatched", (g(1, 2, 4), 2))
    yield Sample("extra_batch_dims", (g(2, 1, 1, 3, 6), 3))
    yield Sample("noncontig", (g.noncontig(1, 1, 4, 6), 2))


ENTRIES = [
    # convolutions: one primitive; its rules are convolutions again (transposed for the input)
    Entry("conv1d", lambda lib, x, w, b, s, p, d, gr: F(lib).conv1d(x, w, b, s, p, d, gr), conv1d_samples,
          covers=("convolution", "convolution_no_bias", "convolution_grad_connected", "convolution_zero_channels",
                  "unsqueeze", "squeeze_dim", "constant_pad_nd"),
          dtypes=CONV_DTYPES, tol=LOOSE_TOL),
    Entry("conv2d", lambda lib, x, w, b, s, p, d, gr: F(lib).conv2d(x, w, b, s, p, d, gr), conv2d_samples,
          covers=("convolution", "convolution_no_bias", "constant_pad_nd"), dtypes=CONV_DTYPES, tol=LOOSE_TOL),
    Entry("conv3d", lambda lib, x, w, b, s, p, d, gr: F(lib).conv3d(x, w, b, s, p, d, gr), conv3d_samples,
          covers=("convolution", "convolution_no_bias"), dtypes=CONV_DTYPES, tol=LOOSE_TOL),
    Entry("conv_transpose1d",
          lambda lib, x, w, b, s, p, op, gr, d: F(lib).conv_transpose1d(x, w, b, s, p, op, gr, d),
          conv_transpose1d_samples, covers=("convolution", "convolution_no_bias", "constant_pad_nd"),
          dtypes=CONV_DTYPES, tol=LOOSE_TOL),
    Entry("conv_transpose2d",
          lambda lib, x, w, b, s, p, op, gr, d: (F(lib).conv_transpose3d if x.dim() == 5 else
                                                 F(lib).conv_transpose2d)(x, w, b, s, p, op, gr, d),
          conv_transpose2d_samples, covers=("convolution", "convolution_no_bias"), dtypes=CONV_DTYPES,
          tol=LOOSE_TOL),
    Entry("conv_torch_namespace", lambda lib, name, x, w, b: _torch_namespace(lib, name, x, w, b),
          torch_namespace_samples, covers=("convolution", "convolution_no_bias"), tol=LOOSE_TOL),
    Entry("nn_unfold", lambda lib, x, k, d, p, s: F(lib).unfold(x, k, d, p, s), unfold_samples,
          covers=("im2col", "col2im")),
    Entry("nn_fold", lambda lib, x, size, k, d, p, s: F(lib).fold(x, size, k, d, p, s), fold_samples,
          covers=("im2col", "col2im")),
    # pooling
    Entry("max_pool2d", lambda lib, x, k, s, p, d, c, i: F(lib).max_pool2d(x, k, s, p, d, c, i), max_pool2d_samples,
          covers=("max_pool2d", "max_pool2d_backward"), dtypes=NUMBERS),
    Entry("max_pool1d", lambda lib, x, k, s, p, d, c, i: F(lib).max_pool1d(x, k, s, p, d, c, i), max_pool1d_samples,
          covers=("max_pool2d", "max_pool2d_backward", "unsqueeze", "squeeze_dim")),
    Entry("max_pool_torch_namespace",
          lambda lib, x, k: (lib.max_pool2d(x, k), lib.max_pool1d(x[0], k), *lib.max_pool1d_with_indices(x[0], k)),
          lambda g: [Sample("basic", (g(1, 2, 4, 4), 2))], covers=("max_pool2d", "max_pool2d_backward")),
    Entry("avg_pool2d", lambda lib, x, k, s, p, c, inc, div: F(lib).avg_pool2d(x, k, s, p, c, inc, div),
          avg_pool2d_samples, covers=("avg_pool2d", "avg_pool2d_backward"), dtypes=NUMBERS),
    Entry("avg_pool1d", lambda lib, x, k, s, p, c, inc: F(lib).avg_pool1d(x, k, s, p, c, inc), avg_pool1d_samples,
          covers=("avg_pool2d", "avg_pool2d_backward", "unsqueeze", "squeeze_dim"), dtypes=NUMBERS),
    Entry("adaptive_avg_pool2d", lambda lib, x, size: F(lib).adaptive_avg_pool2d(x, size),
          adaptive_avg_pool2d_samples, covers=("adaptive_avg_pool2d", "adaptive_avg_pool2d_backward", "mean_dim")),
    Entry("adaptive_avg_pool1d", lambda lib, x, size: F(lib).adaptive_avg_pool1d(x, size),
          adaptive_avg_pool1d_samples,
          covers=("adaptive_avg_pool2d", "adaptive_avg_pool2d_backward", "unsqueeze", "squeeze_dim", "mean_dim")),
    Entry("adaptive_max_pool2d", lambda lib, x, size, i: F(lib).adaptive_max_pool2d(x, size, i),
          adaptive_max_pool2d_samples, covers=("adaptive_max_pool2d", "adaptive_max_pool2d_backward")),
    Entry("adaptive_max_pool1d", lambda lib, x, size, i: F(lib).adaptive_max_pool1d(x, size, i),
          adaptive_max_pool1d_samples,
          covers=("adaptive_max_pool2d", "adaptive_max_pool2d_backward", "unsqueeze", "squeeze_dim")),
    Entry("pool_torch_namespace",
          lambda lib, x: (lib.avg_pool1d(x, 2), lib.adaptive_avg_pool1d(x, 3), *lib.adaptive_max_pool1d(x, 2)),
          lambda g: [Sample("basic", (g(2, 2, 5),))],
          covers=("avg_pool2d", "adaptive_avg_pool2d", "adaptive_max_pool2d")),
    Entry("lp_pool2d", lambda lib, x, p, k, s, c: F(lib).lp_pool2d(x, p, k, s, c), lp_pool2d_samples,
          covers=("avg_pool2d", "avg_pool2d_backward", "pow_scalar", "sign", "relu", "abs", "mul", "mul_scalar",
                  "max_pool2d"),
          domain=POSITIVE),
    Entry("lp_pool1d", lambda lib, x, p, k, s, c: F(lib).lp_pool1d(x, p, k, s, c), lp_pool1d_samples,
          covers=("avg_pool2d", "avg_pool2d_backward", "pow_scalar", "max_pool2d"), domain=POSITIVE),
    # padding
    Entry("pad_constant", lambda lib, x, pad, value: F(lib).pad(x, pad, value=value), pad_constant_samples,
          covers=("constant_pad_nd",), dtypes=ALL),
    Entry("constant_pad_nd", lambda lib, x: lib.constant_pad_nd(x, (1, -1, 0, 2), 1.5),
          lambda g: [Sample("basic", (g(2, 3),)), Sample("noncontig", (g.noncontig(3, 2),))],
          covers=("constant_pad_nd",)),
    Entry("pad_reflect", lambda lib, x, pad, mode: F(lib).pad(x, pad, mode), pad_mode_samples("reflect"),
          covers=tuple(f"reflection_pad{n}d{b}" for n in (1, 2, 3) for b in ("", "_backward")), dtypes=NUMBERS),
    Entry("pad_replicate", lambda lib, x, pad, mode: F(lib).pad(x, pad, mode), pad_mode_samples("replicate"),
          covers=tuple(f"replication_pad{n}d{b}" for n in (1, 2, 3) for b in ("", "_backward")), dtypes=NUMBERS),
    Entry("pad_circular", lambda lib, x, pad, mode: F(lib).pad(x, pad, mode), pad_mode_samples("circular"),
          covers=("pad_circular", "pad_circular_backward"), dtypes=ALL),
    # interpolation
    Entry("interpolate_nearest", lambda lib, x, size, scale, mode, align, recompute:
          F(lib).interpolate(x, size, scale, mode, align, recompute), interpolate_nearest_samples,
          covers=tuple(f"upsample_nearest{e}{n}d{b}" for e in ("", "_exact") for n in (1, 2, 3)
                       for b in ("", "_backward"))),
    Entry("interpolate_linear", lambda lib, x, size, scale, mode, align, recompute:
          F(lib).interpolate(x, size, scale, mode, align, recompute), interpolate_linear_samples,
          covers=("upsample_linear1d", "upsample_linear1d_backward", "upsample_bilinear2d",
                  "upsample_bilinear2d_backward", "upsample_trilinear3d", "upsample_trilinear3d_backward",
                  "upsample_bicubic2d", "upsample_bicubic2d_backward", "adaptive_avg_pool2d"),
          tol=LOOSE_TOL),
    Entry("upsample", lambda lib, name, x, size, scale: getattr(F(lib), name)(x, size, scale), upsample_samples,
          covers=("upsample_nearest2d", "upsample_nearest1d", "upsample_bilinear2d")),
    Entry("pixel_shuffle", lambda lib, x, r: F(lib).pixel_shuffle(x, r), pixel_shuffle_samples,
          covers=("pixel_shuffle", "pixel_unshuffle"), dtypes=ALL),
    Entry("pixel_unshuffle", lambda lib, x, r: lib.pixel_unshuffle(x, r), pixel_unshuffle_samples,
          covers=("pixel_shuffle", "pixel_unshuffle"), dtypes=ALL),
]


def _m(*shape, dtype="float32"):
    return (np.arange(int(np.prod(shape))) % 3).astype(dtype).reshape(shape)


def _conv_error(name, fn, *shapes, dtypes=None):
    dtypes = dtypes or ("float32",) * len(shapes)
    return ErrorCase(name, fn, tuple(_m(*s, dtype=d) for s, d in zip(shapes, dtypes)))


ERRORS = [
    # convolutions: PyTorch's checks, in PyTorch's order
    _conv_error("conv2d_input_dims", lambda lib, x, w: F(lib).conv2d(x, w), (2, 5), (3, 2, 3, 3)),
    _conv_error("conv1d_input_dims", lambda lib, x, w: F(lib).conv1d(x, w), (1, 2, 5, 5), (3, 2, 3)),
    _conv_error("conv3d_input_dims", lambda lib, x, w: F(lib).conv3d(x, w), (2, 5, 5), (3, 2, 3, 3, 3)),
    _conv_error("conv2d_channels", lambda lib, x, w: F(lib).conv2d(x, w), (2, 4, 5, 5), (3, 2, 3, 3)),
    _conv_error("conv2d_channels_unbatched", lambda lib, x, w: F(lib).conv2d(x, w), (4, 5, 5), (3, 2, 3, 3)),
    _conv_error("conv2d_kernel_too_big", lambda lib, x, w: F(lib).conv2d(x, w, padding=1), (1, 2, 5, 5),
                (3, 2, 8, 8)),
    _conv_error("conv2d_groups_weight", lambda lib, x, w: F(lib).conv2d(x, w, groups=2), (1, 4, 5, 5),
                (3, 2, 3, 3)),
    _conv_error("conv2d_groups_channels", lambda lib, x, w: F(lib).conv2d(x, w, groups=2), (1, 3, 5, 5),
                (4, 2, 3, 3)),
    _conv_error("conv2d_weight_below_groups", lambda lib, x, w: F(lib).conv2d(x, w, groups=2), (1, 4, 5, 5),
                (1, 2, 3, 3)),
    _conv_error("conv2d_groups_zero", lambda lib, x, w: F(lib).conv2d(x, w, groups=0), (1, 4, 5, 5),
                (4, 2, 3, 3)),
    _conv_error("conv2d_same_strided", lambda lib, x, w: F(lib).conv2d(x, w, stride=2, padding="same"),
                (1, 2, 5, 5), (3, 2, 3, 3)),
    _conv_error("conv2d_padding_string", lambda lib, x, w: F(lib).conv2d(x, w, padding="full"), (1, 2, 5, 5),
                (3, 2, 3, 3)),
    _conv_error("conv2d_same_dims", lambda lib, x, w: F(lib).conv2d(x, w, padding="same"), (2, 5, 5), (3, 2, 3)),
    _conv_error("conv2d_dtypes", lambda lib, x, w: F(lib).conv2d(x, w), (1, 2, 5, 5), (3, 2, 3, 3),
                dtypes=("float64", "float32")),
    _conv_error("conv1d_dtypes", lambda lib, x, w: F(lib).conv1d(x, w), (1, 2, 5), (3, 2, 3),
                dtypes=("float32", "float64")),
    _conv_error("conv2d_bias_dtype", lambda lib, x, w, b: F(lib).conv2d(x, w, b), (1, 2, 5, 5), (3, 2, 3, 3), (3,),
                dtypes=("float32", "float32", "float64")),
    _conv_error("conv2d_bias_size", lambda lib, x, w, b: F(lib).conv2d(x, w, b), (1, 2, 5, 5), (3, 2, 3, 3), (4,)),
    _conv_error("conv2d_negative_padding", lambda lib, x, w: F(lib).conv2d(x, w, padding=-1), (1, 2, 5, 5),
                (3, 2, 3, 3)),
    _conv_error("conv2d_zero_stride", lambda lib, x, w: F(lib).conv2d(x, w, stride=0), (1, 2, 5, 5), (3, 2, 3, 3)),
    _conv_error("conv2d_zero_dilation", lambda lib, x, w: F(lib).conv2d(x, w, dilation=0), (1, 2, 5, 5),
                (3, 2, 3, 3)),
    _conv_error("conv2d_stride_length", lambda lib, x, w: F(lib).conv2d(x, w, stride=(1, 1, 1)), (1, 2, 5, 5),
                (3, 2, 3, 3)),
    _conv_error("conv2d_weight_dims", lambda lib, x, w: F(lib).conv2d(x, w), (1, 2, 5, 5), (3, 2, 3)),
    _conv_error("conv2d_weight_1d", lambda lib, x, w: F(lib).conv2d(x, w), (1, 2, 5, 5), (3,)),
    _conv_error("conv2d_bool", lambda lib, x, w: F(lib).conv2d(x, w), (1, 2, 5, 5), (3, 2, 3, 3),
                dtypes=("bool", "bool")),
    _conv_error("conv_transpose2d_output_padding", lambda lib, x, w: F(lib).conv_transpose2d(x, w, output_padding=1),
                (1, 2, 5, 5), (2, 3, 3, 3)),
    _conv_error("conv_transpose1d_output_padding",
                lambda lib, x, w: F(lib).conv_transpose1d(x, w, stride=2, output_padding=2), (1, 2, 5), (2, 3, 3)),
    _conv_error("conv_transpose2d_channels", lambda lib, x, w: F(lib).conv_transpose2d(x, w), (1, 4, 5, 5),
                (2, 3, 3, 3)),
    _conv_error("conv_transpose2d_too_small", lambda lib, x, w: F(lib).conv_transpose2d(x, w, padding=3),
                (1, 2, 2, 2), (2, 3, 3, 3)),
    _conv_error("conv_transpose1d_too_small", lambda lib, x, w: F(lib).conv_transpose1d(x, w, padding=3),
                (1, 2, 2), (2, 3, 3)),
    _conv_error("conv_transpose2d_bias_size", lambda lib, x, w, b: F(lib).conv_transpose2d(x, w, b), (1, 2, 5, 5),
                (2, 3, 3, 3), (2,)),
    _conv_error("conv_transpose2d_input_dims", lambda lib, x, w: F(lib).conv_transpose2d(x, w), (2, 5),
                (2, 3, 3, 3)),
    _conv_error("conv_transpose2d_negative_output_padding",
                lambda lib, x, w: F(lib).conv_transpose2d(x, w, output_padding=-1), (1, 2, 5, 5), (2, 3, 3, 3)),
    # unfold / fold
    _conv_error("unfold_too_small", lambda lib, x: F(lib).unfold(x, (4, 2)), (1, 2, 3, 5)),
    _conv_error("unfold_zero_kernel", lambda lib, x: F(lib).unfold(x, 0), (1, 2, 3, 3)),
    _conv_error("unfold_negative_padding", lambda lib, x: F(lib).unfold(x, 2, padding=-1), (1, 2, 3, 3)),
    _conv_error("unfold_zero_stride", lambda lib, x: F(lib).unfold(x, 2, stride=0), (1, 2, 3, 3)),
    _conv_error("unfold_zero_dilation", lambda lib, x: F(lib).unfold(x, 2, dilation=0), (1, 2, 3, 3)),
    _conv_error("unfold_5d", lambda lib, x: F(lib).unfold(x, 2), (1, 1, 2, 3, 3)),
    _conv_error("unfold_2d", lambda lib, x: F(lib).unfold(x, 2), (5, 5)),
    _conv_error("unfold_no_channels", lambda lib, x: F(lib).unfold(x, 2), (1, 0, 3, 3)),
    _conv_error("unfold_int", lambda lib, x: F(lib).unfold(x, 2), (1, 2, 3, 3), dtypes=("int64",)),
    _conv_error("fold_blocks", lambda lib, x: F(lib).fold(x, (5, 5), 2), (1, 8, 15)),
    _conv_error("fold_channels", lambda lib, x: F(lib).fold(x, (5, 5), 2), (1, 7, 16)),
    _conv_error("fold_4d", lambda lib, x: F(lib).fold(x, (5, 5), 2), (1, 8, 16, 1)),
    _conv_error("fold_zero_kernel", lambda lib, x: F(lib).fold(x, (5, 5), 0), (1, 8, 16)),
    _conv_error("fold_zero_stride", lambda lib, x: F(lib).fold(x, (5, 5), 2, stride=0), (1, 8, 16)),
    _conv_error("fold_negative_padding", lambda lib, x: F(lib).fold(x, (5, 5), 2, padding=-1), (1, 8, 16)),
    _conv_error("fold_output_too_small", lambda lib, x: F(lib).fold(x, (1, 1), 2), (1, 8, 16)),
    _conv_error("fold_int", lambda lib, x: F(lib).fold(x, (5, 5), 2), (1, 8, 16), dtypes=("int64",)),
    # pooling
    _conv_error("max_pool2d_zero_kernel", lambda lib, x: F(lib).max_pool2d(x, 0), (1, 2, 5, 5)),
    _conv_error("max_pool2d_zero_stride", lambda lib, x: F(lib).max_pool2d(x, 2, 0), (1, 2, 5, 5)),
    _conv_error("max_pool2d_padding", lambda lib, x: F(lib).max_pool2d(x, 2, padding=2), (1, 2, 5, 5)),
    _conv_error("max_pool2d_negative_padding", lambda lib, x: F(lib).max_pool2d(x, 2, padding=-1), (1, 2, 6, 6)),
    _conv_error("max_pool2d_padding_dilation", lambda lib, x: F(lib).max_pool2d(x, 2, padding=2, dilation=3),
                (1, 2, 6, 6)),
    _conv_error("max_pool2d_zero_dilation", lambda lib, x: F(lib).max_pool2d(x, 2, dilation=0), (1, 2, 5, 5)),
    _conv_error("max_pool2d_too_small", lambda lib, x: F(lib).max_pool2d(x, 3), (1, 2, 2, 2)),
    _conv_error("max_pool2d_2d", lambda lib, x: F(lib).max_pool2d(x, 2), (5, 5)),
    _conv_error("max_pool2d_no_channels", lambda lib, x: F(lib).max_pool2d(x, 2), (1, 0, 4, 4)),
    _conv_error("max_pool2d_kernel_length", lambda lib, x: F(lib).max_pool2d(x, (2, 2, 2)), (1, 2, 5, 5)),
    _conv_error("max_pool2d_stride_length", lambda lib, x: F(lib).max_pool2d(x, 2, stride=(1, 1, 1)), (1, 2, 6, 6)),
    _conv_error("max_pool2d_bool", lambda lib, x: F(lib).max_pool2d(x, 2), (1, 1, 2, 2), dtypes=("bool",)),
    _conv_error("max_pool1d_too_small", lambda lib, x: F(lib).max_pool1d(x, 3), (1, 2, 2)),
    _conv_error("max_pool1d_4d", lambda lib, x: F(lib).max_pool1d(x, 3), (1, 2, 2, 5)),
    _conv_error("max_pool1d_padding", lambda lib, x: F(lib).max_pool1d(x, 2, padding=2), (1, 2, 5)),
    _conv_error("max_pool1d_zero_kernel", lambda lib, x: F(lib).max_pool1d(x, 0), (1, 2, 5)),
    _conv_error("max_pool1d_kernel_tuple", lambda lib, x: F(lib).max_pool1d(x, (2, 2)), (1, 2, 6)),
    _conv_error("max_pool1d_int", lambda lib, x: F(lib).max_pool1d(x, 2), (1, 2, 4), dtypes=("int64",)),
    _conv_error("max_pool1d_indices_4d", lambda lib, x: F(lib).max_pool1d(x, 2, return_indices=True), (1, 2, 2, 6)),
    _conv_error("max_pool1d_indices_too_small", lambda lib, x: F(lib).max_pool1d(x, 3, return_indices=True),
                (1, 2, 2)),
    _conv_error("avg_pool2d_padding", lambda lib, x: F(lib).avg_pool2d(x, 2, padding=2), (1, 2, 5, 5)),
    _conv_error("avg_pool2d_zero_kernel", lambda lib, x: F(lib).avg_pool2d(x, 0), (1, 2, 5, 5)),
    _conv_error("avg_pool2d_too_small", lambda lib, x: F(lib).avg_pool2d(x, 3), (1, 2, 2, 2)),
    _conv_error("avg_pool2d_zero_divisor", lambda lib, x: F(lib).avg_pool2d(x, 2, divisor_override=0), (1, 2, 4, 4)),
    _conv_error("avg_pool2d_2d", lambda lib, x: F(lib).avg_pool2d(x, 2), (5, 5)),
    _conv_error("avg_pool2d_5d", lambda lib, x: F(lib).avg_pool2d(x, 2), (1, 1, 2, 6, 6)),
    _conv_error("avg_pool2d_bool", lambda lib, x: F(lib).avg_pool2d(x, 2), (1, 1, 2, 2), dtypes=("bool",)),
    _conv_error("avg_pool1d_too_small", lambda lib, x: F(lib).avg_pool1d(x, 3), (1, 2, 2)),
    _conv_error("avg_pool1d_4d", lambda lib, x: F(lib).avg_pool1d(x, 3), (1, 2, 2, 5)),
    _conv_error("avg_pool1d_kernel_tuple", lambda lib, x: F(lib).avg_pool1d(x, (2, 2)), (1, 2, 6)),
    _conv_error("adaptive_avg_pool2d_2d", lambda lib, x: F(lib).adaptive_avg_pool2d(x, 2), (5, 5)),
    _conv_error("adaptive_avg_pool2d_negative", lambda lib, x: F(lib).adaptive_avg_pool2d(x, -1), (1, 2, 5, 5)),
    _conv_error("adaptive_avg_pool2d_empty_plane", lambda lib, x: F(lib).adaptive_avg_pool2d(x, 2), (1, 2, 0, 4)),
    _conv_error("adaptive_avg_pool2d_int", lambda lib, x: F(lib).adaptive_avg_pool2d(x, 2), (1, 2, 4, 4),
                dtypes=("int64",)),
    _conv_error("adaptive_avg_pool1d_size_tuple", lambda lib, x: F(lib).adaptive_avg_pool1d(x, (2, 2)), (1, 2, 5)),
    _conv_error("adaptive_avg_pool1d_4d", lambda lib, x: F(lib).adaptive_avg_pool1d(x, 2), (1, 2, 3, 4)),
    _conv_error("adaptive_max_pool2d_2d", lambda lib, x: F(lib).adaptive_max_pool2d(x, 2), (5, 5)),
    _conv_error("adaptive_max_pool2d_size_length", lambda lib, x: F(lib).adaptive_max_pool2d(x, (2, 2, 2)),
                (1, 2, 5, 5)),
    _conv_error("adaptive_max_pool2d_empty_plane", lambda lib, x: F(lib).adaptive_max_pool2d(x, 2), (1, 2, 0, 4)),
    _conv_error("adaptive_max_pool2d_negative", lambda lib, x: F(lib).adaptive_max_pool2d(x, -1), (1, 2, 3, 4)),
    _conv_error("adaptive_max_pool2d_int", lambda lib, x: F(lib).adaptive_max_pool2d(x, 2), (1, 2, 4, 4),
                dtypes=("int64",)),
    _conv_error("adaptive_max_pool1d_no_channels", lambda lib, x: F(lib).adaptive_max_pool1d(x, 2), (1, 0, 4)),
    _conv_error("adaptive_max_pool1d_4d", lambda lib, x: F(lib).adaptive_max_pool1d(x, 2), (1, 2, 3, 4)),
    _conv_error("lp_pool2d_too_small", lambda lib, x: F(lib).lp_pool2d(x, 2, 6), (1, 2, 5, 5)),
    # padding
    _conv_error("pad_odd_length", lambda lib, x: F(lib).pad(x, (1,)), (1, 2, 5)),
    _conv_error("pad_too_long", lambda lib, x: F(lib).pad(x, (1, 1, 1, 1)), (5,)),
    _conv_error("pad_negative_size", lambda lib, x: F(lib).pad(x, (-3, -2)), (1, 2, 4)),
    _conv_error("pad_reflect_too_big", lambda lib, x: F(lib).pad(x, (3, 3), mode="reflect"), (1, 2, 3)),
    _conv_error("pad_reflect_2d_too_big", lambda lib, x: F(lib).pad(x, (1, 1, 3, 0), mode="reflect"), (1, 2, 3, 4)),
    _conv_error("pad_reflect_3d_depth", lambda lib, x: F(lib).pad(x, (0, 0, 0, 0, 2, 0), mode="reflect"),
                (1, 1, 2, 3, 4)),
    _conv_error("pad_reflect_negative", lambda lib, x: F(lib).pad(x, (-2, -2), mode="reflect"), (1, 2, 3)),
    _conv_error("pad_reflect_size_mismatch", lambda lib, x: F(lib).pad(x, (1, 1), mode="reflect"), (1, 2, 3, 3)),
    _conv_error("pad_reflect_value", lambda lib, x: F(lib).pad(x, (1, 1), mode="reflect", value=1.0), (1, 2, 3)),
    _conv_error("pad_reflect_bool", lambda lib, x: F(lib).pad(x, (1, 1), mode="reflect"), (1, 2, 3),
                dtypes=("bool",)),
    _conv_error("pad_replicate_1d", lambda lib, x: F(lib).pad(x, (1, 1), mode="replicate"), (5,)),
    _conv_error("pad_replicate_empty", lambda lib, x: F(lib).pad(x, (1, 1), mode="replicate"), (1, 0, 3)),
    _conv_error("pad_replicate_2d_empty", lambda lib, x: F(lib).pad(x, (1, 1, 1, 1), mode="replicate"),
                (1, 2, 0, 3)),
    _conv_error("pad_replicate_negative", lambda lib, x: F(lib).pad(x, (-2, -2), mode="replicate"), (1, 2, 3)),
    _conv_error("pad_replicate_2d_negative", lambda lib, x: F(lib).pad(x, (-2, -2, 0, 0), mode="replicate"),
                (1, 2, 3, 3)),
    _conv_error("pad_replicate_3d_negative", lambda lib, x: F(lib).pad(x, (-2, -2, 0, 0, 0, 0), mode="replicate"),
                (1, 1, 3, 3, 3)),
    _conv_error("pad_circular_wraps", lambda lib, x: F(lib).pad(x, (4, 4), mode="circular"), (1, 2, 3)),
    _conv_error("pad_circular_negative", lambda lib, x: F(lib).pad(x, (-2, -2), mode="circular"), (1, 2, 3)),
    _conv_error("pad_circular_size", lambda lib, x: F(lib).pad(x, (1, 1, 1, 1), mode="circular"), (2, 3)),
    _conv_error("pad_mode", lambda lib, x: F(lib).pad(x, (1, 1), mode="foo"), (1, 2, 3)),
    # interpolation
    _conv_error("interpolate_no_size", lambda lib, x: F(lib).interpolate(x), (1, 2, 5)),
    _conv_error("interpolate_size_and_scale", lambda lib, x: F(lib).interpolate(x, 3, 2), (1, 2, 5)),
    _conv_error("interpolate_size_length", lambda lib, x: F(lib).interpolate(x, (3, 3, 3)), (1, 2, 5, 5)),
    _conv_error("interpolate_scale_length", lambda lib, x: F(lib).interpolate(x, scale_factor=(2, 2, 2)),
                (1, 2, 5, 5)),
    _conv_error("interpolate_align_nearest", lambda lib, x: F(lib).interpolate(x, 3, align_corners=True), (1, 2, 5)),
    _conv_error("interpolate_linear_4d", lambda lib, x: F(lib).interpolate(x, 3, mode="linear"), (1, 2, 5, 5)),
    _conv_error("interpolate_bilinear_3d", lambda lib, x: F(lib).interpolate(x, 3, mode="bilinear"), (1, 2, 5)),
    _conv_error("interpolate_2d", lambda lib, x: F(lib).interpolate(x, 3), (2, 5)),
    _conv_error("interpolate_mode", lambda lib, x: F(lib).interpolate(x, 3, mode="foo"), (1, 2, 5)),
    _conv_error("interpolate_float_size", lambda lib, x: F(lib).interpolate(x, (3.0,)), (1, 2, 5)),
    _conv_error("interpolate_zero_size", lambda lib, x: F(lib).interpolate(x, 0), (1, 2, 5)),
    _conv_error("interpolate_negative_size_2d", lambda lib, x: F(lib).interpolate(x, (-1, 3)), (1, 2, 5, 5)),
    _conv_error("interpolate_small_scale", lambda lib, x: F(lib).interpolate(x, scale_factor=0.1), (1, 2, 5)),
    _conv_error("interpolate_recompute_size", lambda lib, x: F(lib).interpolate(x, 3, recompute_scale_factor=True),
                (1, 2, 5)),
    _conv_error("interpolate_int", lambda lib, x: F(lib).interpolate(x, 3), (1, 2, 5), dtypes=("int64",)),
    _conv_error("interpolate_int_linear", lambda lib, x: F(lib).interpolate(x, 3, mode="linear"), (1, 2, 5),
                dtypes=("int64",)),
    # pixel shuffle
    _conv_error("pixel_shuffle_2d", lambda lib, x: F(lib).pixel_shuffle(x, 2), (4, 4)),
    _conv_error("pixel_shuffle_channels", lambda lib, x: F(lib).pixel_shuffle(x, 2), (1, 5, 2, 2)),
    _conv_error("pixel_shuffle_zero", lambda lib, x: F(lib).pixel_shuffle(x, 0), (1, 4, 2, 2)),
    _conv_error("pixel_unshuffle_height", lambda lib, x: F(lib).pixel_unshuffle(x, 2), (1, 1, 3, 4)),
    _conv_error("pixel_unshuffle_width", lambda lib, x: F(lib).pixel_unshuffle(x, 2), (1, 1, 4, 3)),
    _conv_error("pixel_unshuffle_2d", lambda lib, x: F(lib).pixel_unshuffle(x, 2), (4, 4)),
    _conv_error("pixel_unshuffle_negative", lambda lib, x: F(lib).pixel_unshuffle(x, -1), (1, 1, 4, 4)),
]

KNOWN_BUGS = {
}
