"""Issue 10's classes in the losses and nn functionals, found by the long fuzz run (tests/fuzz):
each program runs on chainrule and on PyTorch and gives the same result or the same error
(type name and first line)."""
import numpy as np
import pytest

import chainrule
from helpers import outcome, require_torch, leaf as _x, grads as _grads

pytestmark = pytest.mark.torch

nan, inf = float("nan"), float("inf")


def F(lib):
    return lib.nn.functional





def _jvp(lib, fn, x, t):
    fwd = lib.autograd.forward_ad
    with fwd.dual_level():
        return fwd.unpack_dual(fn(lib, fwd.make_dual(x, t))).tangent


def _soft_margin(lib, x, t, **kw):
    return F(lib).soft_margin_loss(x, t, **kw)


def _multi_margin_grad(lib, x, target, p):
    x = lib.tensor(x, requires_grad=True)
    return lib.autograd.grad(F(lib).multi_margin_loss(x, lib.tensor(target), p=p, reduction="sum"), x)[0]


def _renormalised(lib, indices):
    weight = lib.tensor([[3.0, 4.0], [0.1, 0.2], [6.0, 8.0]])
    try:
        F(lib).embedding(lib.tensor(indices), weight, max_norm=1.0)
    except IndexError as e:
        raise IndexError(f"{e} (weight after: {weight.tolist()})") from None  # renormalised rows stay so
    raise AssertionError("no IndexError")


def _norm_tangent(lib, x, t):
    fwd = lib.autograd.forward_ad
    with fwd.dual_level():
        dual = fwd.make_dual(lib.tensor(x, dtype=lib.float64), lib.tensor(t, dtype=lib.float64))
        return fwd.unpack_dual(lib.linalg.vector_norm(dual)).tangent


def _class_loss_grad(lib, name, x=(0.7, -3.0, 1.5)):
    x = lib.tensor(x, dtype=lib.float64, requires_grad=True)
    loss = getattr(F(lib), name)(x, lib.tensor([0 if len(x) == 1 else 1], dtype=lib.uint8))
    return loss, lib.autograd.grad(loss, x)


def _group_norms(lib):
    x = lib.tensor([0.0, -0.0, -0.0, 0.0, -0.0, 0.0, 5.0, 5.0], dtype=lib.float64).reshape(2, 2, 2)
    w, b = lib.tensor([-1.0, 0.5], dtype=lib.float64), lib.tensor([-0.0, 0.0], dtype=lib.float64)
    return tuple(lib.nn.functional.group_norm(x, 1, *args) for args in ((None, None), (w, None), (None, b), (w, b)))


CASES = {
    # group_norm as PyTorch's kernel, x * scale + shift: without weight and bias the shift is
    # -scale * mean, not + 0, so a -0. over a zero mean stays -0.
    "group_norm_zero_signs": _group_norms,
    # a convolution's dtype check in the words of the backend PyTorch picks: MKLDNN's for float32
    # input unless the problem is small (one sample, one group, a kernel of 3 or less)
    **{f"conv_dtype_words_{name}": lambda lib, f=f: f(lib.nn.functional, lib) for name, f in {
        "batch": lambda F, L: F.conv1d(L.zeros(2, 3, 4), L.zeros(3, 3, 2, dtype=L.float64)),
        "one_sample": lambda F, L: F.conv1d(L.zeros(1, 3, 4), L.zeros(3, 3, 2, dtype=L.complex64)),
        "groups": lambda F, L: F.conv1d(L.zeros(1, 3, 4), L.zeros(3, 1, 2, dtype=L.int64), groups=3),
        "same_dilated": lambda F, L: F.conv1d(L.zeros(3, 3, 1), L.zeros(3, 3, 1, dtype=L.complex64), None, 1, "same", 2),
        "kernel_4x4": lambda F, L: F.conv2d(L.zeros(1, 2, 6, 6), L.zeros(2, 2, 4, 4, dtype=L.float64)),
        "kernel_3x3": lambda F, L: F.conv2d(L.zeros(1, 2, 6, 6), L.zeros(2, 2, 3, 3, dtype=L.float64)),
        "large_input": lambda F, L: F.conv2d(L.zeros(1, 2, 120, 120), L.zeros(2, 2, 3, 3, dtype=L.float64)),
        "transposed_batch": lambda F, L: F.conv_transpose2d(L.zeros(2, 2, 3, 3), L.zeros(2, 2, 3, 3, dtype=L.float64)),
        "double_input": lambda F, L: F.conv1d(L.zeros(2, 3, 4, dtype=L.float64), L.zeros(3, 3, 2)),
    }.items()},
    # local_response_norm pools a 4-d or larger input with avg_pool3d, whose dtypes are float32,
    # float64 and int64; batch_norm refuses complex input in its kernel's words at any layout
    **{f"local_response_norm_{dtype}_{dim}d": lambda lib, dtype=dtype, dim=dim: lib.nn.functional.local_response_norm(
        lib.ones((1, 2) + (1,) * (dim - 3) + (3,), dtype=getattr(lib, dtype)), 2)
       for dtype in ("float16", "int32", "uint8", "bool", "int64") for dim in (3, 4, 5)},
    "batch_norm_complex_transposed": lambda lib: lib.nn.functional.batch_norm(
        lib.zeros(4, 3, dtype=lib.complex64).t(), None, None, training=True),
    # multi_margin_loss as PyTorch's kernel: a hinge that is not > 0 (nan: inf - inf, or a nan
    # score) adds nothing, and x[y] is selected, not picked by multiplying a one-hot mask
    **{f"multi_margin_nan_hinges_p{p}": lambda lib, p=p: _grads(lib, lambda L, x: L.nn.functional.multi_margin_loss(
        x, L.tensor([0, 1, 2]), p=p), _x(lib, 0., nan, 2.0, inf, inf, 0., 1., -inf, 3.).reshape(3, 3), create_graph=False)
       for p in (1, 2)},
    # where PyTorch's transposed convolution runs on MKLDNN (float32, a batch of two), an output
    # size of 0 is an empty output and a negative one MKLDNN's error, not slow_conv_transpose's
    **{f"conv_transpose_mkldnn_sizes_{name}": lambda lib, f=f: f(lib.nn.functional, lib) for name, f in {
        "empty": lambda F, L: F.conv_transpose1d(L.ones(2, 2, 1), L.ones(2, 2, 1), None, 2, 1, 1),
        "negative": lambda F, L: F.conv_transpose1d(L.ones(2, 2, 1), L.ones(2, 2, 1), None, 1, 1, 0),
        "one_sample": lambda F, L: F.conv_transpose1d(L.ones(1, 2, 1), L.ones(2, 2, 1), None, 2, 1, 1),
        "complex": lambda F, L: F.conv_transpose1d(L.ones(2, 2, 1, dtype=L.complex64), L.ones(2, 2, 1, dtype=L.complex64),
                                                   None, 2, 1, 1),
        "2d": lambda F, L: F.conv_transpose2d(L.ones(2, 1, 1, 3), L.ones(1, 1, 1, 1), None, 2, 1, 1),
    }.items()},
    # binary_cross_entropy as PyTorch's kernel: log1p(-x), so x = 0 with a target of -0. is +0.
    "bce_log1p": lambda lib: lib.nn.functional.binary_cross_entropy(
        lib.tensor([0.0, 0.0, 1e-8, 1.0]), lib.tensor([-0.0, 0.0, 0.3, 1.0]), reduction="none"),
    # index_select out of range in PyTorch's two wordings (its dim-1 kernel's and an empty
    # input's RuntimeError, the others' IndexError), an empty dim refused first; embedding of an
    # empty table refuses in index_select's words
    **{f"index_select_out_of_range_{shape}_{dim}": lambda lib, shape=shape, dim=dim: lib.index_select(
        lib.zeros(shape), dim, lib.tensor([9])) for shape, dim in (((4,), 0), ((4, 3), 0), ((4, 3), 1), ((3, 4, 5), 1),
                                                                      ((3, 4, 5), 2), ((2, 0), 0), ((0, 3), 0))},
    "embedding_empty_table_out_of_range": lambda lib: lib.nn.functional.embedding(
        lib.tensor(-37793, dtype=lib.int32), lib.zeros(2, 0)),
    # embedding's max_norm with no index selects no row: an integer table is not refused
    "embedding_max_norm_no_index": lambda lib: (
        lib.nn.functional.embedding(lib.zeros(2, 2, 0, 1, dtype=lib.int32), lib.zeros(0, 1, dtype=lib.int32), max_norm=1.0),
        lib.nn.functional.embedding(lib.zeros(0, dtype=lib.int64), lib.zeros(3, 1, dtype=lib.int32), max_norm=1.0)),
    # clamp, clamp_min and clamp_max with a float16 bound of a complex input (complex32 in
    # PyTorch) refuse it in their kernels' words
    **{f"clamp_complex32_{name}": lambda lib, f=f: f(lib, lib.tensor(2j, dtype=lib.complex128),
                                                     lib.tensor([3.7], dtype=lib.float16)) for name, f in {
        "max": lambda L, x, b: L.clamp_max(x, b), "min": lambda L, x, b: L.clamp_min(x, b),
        "both": lambda L, x, b: L.clamp(x, b, b), "upper": lambda L, x, b: L.clamp(x, None, b),
        "real_input": lambda L, x, b: L.clamp(b, x, None)}.items()},
    # nll_loss of an unbatched input subtracts from +0, as a sum: +0. for a log-probability of 0.
    "nll_unbatched_zero": lambda lib: (lib.nn.functional.nll_loss(lib.tensor([-0.0, 1.0]), lib.tensor(0), reduction="none"),
                                       lib.nn.functional.cross_entropy(lib.tensor([-6239.0]), lib.tensor(0), reduction="none"),
                                       lib.nn.functional.nll_loss(lib.tensor([[0.0]]), lib.tensor([0]), reduction="none")),
    # a transposed convolution checks its kernel's size first
    "conv_transpose_empty_kernel": lambda lib: lib.nn.functional.conv_transpose1d(
        lib.zeros(1, 1, 1, dtype=lib.int8), lib.zeros(1, 3, 0, dtype=lib.int64), None, 1, 1, 0, 1, 1),
    "conv_transpose3d_empty_kernel": lambda lib: lib.nn.functional.conv_transpose3d(lib.zeros(1, 1, 2, 2, 2),
                                                                                    lib.zeros(1, 1, 1, 0, 1)),
    # a nan in the right class's score: its own hinge (x[y] - x[y]) is nan, and is not a term
    "multi_margin_nan_right_class_p2": lambda lib: _multi_margin_grad(lib, [[nan, 1.0, -0.5], [0.2, nan, 3.0]],
                                                                      [0, 2], 2),
    "multi_margin_nan_0d_p2": lambda lib: _multi_margin_grad(lib, nan, 0, 2),
    # linear interpolation's source positions fused, step (o + 0.5) - 0.5 rounded once: no
    # weight of exactly 0 against -inf
    "interpolate_linear_fused_source_positions": lambda lib: F(lib).interpolate(
        lib.tensor([[[-inf], [0.0]]]), size=7, mode="linear"),
    "interpolate_linear_fraction_digits": lambda lib: F(lib).interpolate(
        lib.arange(3, dtype=lib.float32).reshape(1, 1, 3), size=13, mode="linear"),
    # an integer table: select() refuses a first index out of range before norm() the dtype
    "embedding_max_norm_int_table_index_first": lambda lib: F(lib).embedding(
        lib.tensor([[-2147483648, 1]], dtype=lib.int32), lib.ones(3, 4, dtype=lib.int32), max_norm=1.0),
    "embedding_max_norm_int_table_dtype_first": lambda lib: F(lib).embedding(
        lib.tensor([[0, 7]], dtype=lib.int32), lib.ones(3, 4, dtype=lib.int32), max_norm=1.0),
    # mse_loss in its result's dtype: an int64 target is converted to float32 first, and the
    # float32 mean of squares past 3.4e38 in all is inf
    "mse_loss_int64_target_in_float32": lambda lib: [F(lib).mse_loss(
        lib.tensor([1.5, -2.25, 3.0] * 8), lib.tensor([1, 2, 9223372036854775807] * 8), reduction=r)
        for r in ("mean", "sum", "none")],
    # a convolution of no input channels: zeros in the dtype input and weight promote to
    "conv_empty_channels_promotes": lambda lib: F(lib).conv1d(lib.zeros(3, 0, 1), lib.zeros(3, 0, 1, dtype=lib.float64),
                                                              groups=3),
    # local_response_norm pools a 4-d input with avg_pool3d: its kernel's words
    "local_response_norm_complex_4d": lambda lib: F(lib).local_response_norm(
        lib.ones(2, 2, 1, 1, dtype=lib.complex128), 2),
    # batch norm statistics of a non-contiguous integer input come from mean(), in its words
    "batch_norm_bool_strided": lambda lib: F(lib).batch_norm(lib.zeros(2, 4, 6, dtype=lib.bool)[:, :, ::2], None, None,
                                                            training=True),
    "batch_norm_long_transposed": lambda lib: F(lib).batch_norm(lib.zeros(4, 2, dtype=lib.int64).t(), None, None,
                                                               training=True),
    # an empty output runs no kernel: no dtype check
    "adaptive_avg_pool1d_int8_to_nothing": lambda lib: F(lib).adaptive_avg_pool1d(lib.ones(2, 4, 1, dtype=lib.int8), 0),
    # max_norm renormalises the distinct indices in ascending order until select() refuses one
    "embedding_max_norm_index_past_the_table": lambda lib: _renormalised(lib, [[0, 1, 5, -1]]),
    "embedding_max_norm_int64_min": lambda lib: _renormalised(lib, [[-9223372036854775808, 2, 4302999, -1]]),
    # complex cross products, each product's parts rounded alike: cross(a, a) is 0
    "cross_complex_of_itself": lambda lib: lib.linalg.cross(*[lib.tensor(
        [-20 + 1.7421875j, -2 - 2.609375j, -0.69482421875 + 1e30j], dtype=lib.complex64)] * 2),
    # the 2-norm's tangent is sum(x t) / norm once: inf / inf at x = 1.8e308, |t| > 1
    "vector_norm_tangent_overflow": lambda lib: _norm_tangent(lib, 1.7976931348623157e308, 2.0),
    # a 1-d input with a target of shape (1,): the forward reads one class, the backward refuses
    "nll_vector_target_backward": lambda lib: _class_loss_grad(lib, "nll_loss"),
    "cross_entropy_vector_target_backward": lambda lib: _class_loss_grad(lib, "cross_entropy"),
    # ... unless there is one class: its backward checks the input's size against the target's
    "nll_one_class_vector_target_backward": lambda lib: _class_loss_grad(lib, "nll_loss", (0.5,)),
    # the kernels' dtype checks come where PyTorch makes them: multi_margin_loss has no float16
    # kernel (before the target's dtype); ctc_loss's unbatched 0-d input fails unsqueeze first
    "multi_margin_half": lambda lib: F(lib).multi_margin_loss(lib.ones(3, dtype=lib.float16),
                                                              lib.tensor([0.5], dtype=lib.float64)),
    "ctc_half_0d": lambda lib: F(lib).ctc_loss(lib.tensor(0.0, dtype=lib.float16), lib.tensor(-0.0, dtype=lib.float16),
                                               lib.tensor([1]), lib.tensor([1])),
    "ctc_half_empty": lambda lib: F(lib).ctc_loss(lib.zeros(0, 1, 4, dtype=lib.float16),
                                                  lib.ones(1, 2, dtype=lib.int64), [3], [2]),
    # soft_margin_loss: PyTorch's neg(input).mul_(target).exp_().log1p_() in the input's shape and
    # dtype, each in-place step's checks in order; complex works; a bool target fails in backward
    "soft_margin_int8_target": lambda lib: _soft_margin(lib, lib.tensor([0.5, 2.0, 0.5], dtype=lib.float64),
                                                        lib.tensor(-128, dtype=lib.int8)),
    "soft_margin_uint8_target": lambda lib: _soft_margin(lib, lib.tensor([-40.0, -1.96], dtype=lib.float64),
                                                         lib.tensor([3, 216], dtype=lib.uint8), reduction="none"),
    "soft_margin_half_int16": lambda lib: _soft_margin(lib, lib.tensor(0.5, dtype=lib.float16),
                                                       lib.tensor(-13, dtype=lib.int16), reduction="none"),
    "soft_margin_target_wider": lambda lib: _soft_margin(lib, lib.tensor(3.0), lib.zeros(3, 0, 4)),
    "soft_margin_not_broadcast": lambda lib: _soft_margin(lib, lib.ones(2), lib.zeros(3)),
    "soft_margin_int_input_int_target": lambda lib: _soft_margin(lib, lib.tensor([1, 2]), lib.tensor([1, -1])),
    "soft_margin_int_input_complex_target": lambda lib: _soft_margin(lib, lib.tensor(0, dtype=lib.uint8),
                                                                     lib.tensor(1j)),
    "soft_margin_float_complex_target": lambda lib: _soft_margin(lib, lib.tensor(1.0), lib.tensor(1j)),
    "soft_margin_float32_float64_target": lambda lib: _soft_margin(lib, lib.tensor([0.5, -1.0]),
                                                                   lib.tensor([1.0, -1.0], dtype=lib.float64)),
    "soft_margin_complex": lambda lib: _soft_margin(lib, lib.tensor([0.25 + 2.7j, -1j]), lib.tensor([1, -1])),
    "soft_margin_complex_empty_mean": lambda lib: _soft_margin(lib, lib.zeros(0, 1, dtype=lib.complex128),
                                                               lib.zeros(0, 1)),
    "soft_margin_bool_target_grad": lambda lib: _grads(lib, lambda L, x: _soft_margin(L, x, L.tensor([True, False])),
                                                       _x(lib, 0.5, nan)),
    "soft_margin_bool_target_jvp": lambda lib: _jvp(lib, lambda L, x: _soft_margin(L, x, L.tensor([True, False])),
                                                    lib.tensor([0.5, 1.0], dtype=lib.float64),
                                                    lib.tensor([1.0, 1.0], dtype=lib.float64)),
    "soft_margin_grads": lambda lib: _grads(lib, lambda L, x: _soft_margin(L, x, L.tensor([1.0, -1.0, 1.0])),
                                            _x(lib, 0.5, -2.0, 3.0)),
    # mse_loss: PyTorch's backward kernel takes a bool operand as 0 and 1, create_graph too; the
    # tangents (mse, smooth_l1) are loss_backward(x_t, x, t) + loss_backward(t_t, t, x), each
    # written into its first operand's dtype; huber's backward wants both in one dtype
    "mse_bool_target_grads": lambda lib: _grads(lib, lambda L, x: F(L).mse_loss(x, L.tensor([True, False, False])),
                                                _x(lib, -1e-30, 0.0, nan)),
    "mse_bool_input_grads": lambda lib: _grads(lib, lambda L, t: F(L).mse_loss(L.tensor(False), t), _x(lib, 2.0)),
    **{f"{name}_tangent_{xd}_{td}": (lambda name, xd, td: lambda lib: _tangents(lib, name, xd, td))(name, xd, td)
       for name in ("mse_loss", "smooth_l1_loss", "huber_loss")
       for xd, td in (("float64", "uint8"), ("int32", "float64"), ("float64", "bool"), ("bool", "float64"),
                      ("float64", "float32"), ("float32", "float64"))},
    "huber_target_grad_half": lambda lib: _grads(
        lib, lambda L, t: F(L).huber_loss(L.tensor(0.5, dtype=L.float16), t, reduction="sum"),
        _x(lib, 139.23, dtype="float32")),
    # pixel_unshuffle: an empty input comes back in its own shape (PyTorch's kernel); its
    # backward shuffles the gradient, which then has another shape (the engine's error)
    **{f"pixel_unshuffle_empty_{'x'.join(map(str, s))}": (lambda s: lambda lib: _grads(
        lib, lambda L, x: F(L).pixel_unshuffle(x, 2), lib.zeros(s, dtype=lib.float64, requires_grad=True)))(s)
       for s in ((1, 0, 0), (0, 8, 0), (3, 0, 4), (0, 4, 2, 2))},
    "pixel_unshuffle_empty_tangent": lambda lib: _jvp(lib, lambda L, x: F(L).pixel_unshuffle(x, 2),
                                                      lib.zeros(0, 8, 0, dtype=lib.float64),
                                                      lib.zeros(0, 8, 0, dtype=lib.float64)),
    "pixel_unshuffle_empty_int": lambda lib: F(lib).pixel_unshuffle(lib.zeros(3, 0, 4, dtype=lib.uint8), 2),
    # glu: a * sigmoid(b), the sigmoid's far tail kept
    "glu_far_tail": lambda lib: F(lib).glu(lib.tensor([-0.5, 1e30, -2.607421875, -40.0], dtype=lib.float64)) / 1e12,
    "glu_far_tail_float32": lambda lib: F(lib).glu(lib.tensor([1e20, 1.0, -30.0, 2.0])),
    "glu_half": lambda lib: F(lib).glu(lib.tensor([3.0, -1.5, -9.0, 0.25], dtype=lib.float16)),
    # pairwise_distance: ATen's norm along dim -1, of a 0-d difference too (its 2-norm squares);
    # a complex difference's tangent is real; p < 1's gradient in PyTorch's order
    "pairwise_0d_overflows": lambda lib: F(lib).pairwise_distance(lib.tensor(-0.0), lib.tensor(5e29)),
    "pairwise_0d_p3_overflows": lambda lib: F(lib).pairwise_distance(lib.tensor(0.0), lib.tensor(-1e30), p=3),
    "pairwise_0d_complex": lambda lib: F(lib).pairwise_distance(lib.tensor(-1.65 - 1e30j, dtype=lib.complex64),
                                                                lib.tensor(20j, dtype=lib.complex64)),
    "pairwise_complex_tangent": lambda lib: _jvp(lib, lambda L, x: F(L).pairwise_distance(
        x, L.tensor([[0j], [1e-200j], [-1 - 2j]]), p=1), lib.tensor([[1.0, -1.0], [0.5, 0.25], [3.0, 1e30]],
                                                                    dtype=lib.float64),
        lib.tensor([[1.0, 2.0], [-1.0, 0.5], [0.25, 1.0]], dtype=lib.float64)),
    "vector_norm_complex_tangents": lambda lib: [_jvp(lib, lambda L, x: L.linalg.vector_norm(x, p),
                                                      lib.tensor([1 + 2j, -0.5j, 3.0], dtype=lib.complex128),
                                                      lib.tensor([0.5 - 1j, 2 + 1j, -1j], dtype=lib.complex128))
                                                 for p in (2.0, 1.0, 0.5, 3.0, 1.5)],
    "pairwise_p_half_grad2": lambda lib: _grads(lib, lambda L, x: F(L).pairwise_distance(x, L.tensor(1), p=0.5),
                                                _x(lib, 1.0, dtype="float32").reshape(())),
    # binary_cross_entropy: input then target checked in [0, 1], element by element; the
    # second derivatives are PyTorch's double-backward formulas; the kernel's eps is a C++ float
    "bce_target_above": lambda lib: F(lib).binary_cross_entropy(lib.tensor(0.0), lib.tensor(2.17)),
    "bce_target_nan": lambda lib: F(lib).binary_cross_entropy(lib.tensor(1.0), lib.tensor(nan)),
    "bce_target_first": lambda lib: F(lib).binary_cross_entropy(lib.tensor([0.5, 2.0]), lib.tensor([5.0, 0.5])),
    "bce_input_first": lambda lib: F(lib).binary_cross_entropy(lib.tensor([2.0, 0.5]), lib.tensor([0.5, 5.0])),
    **{f"bce_grads_{xv}_{tv}_{r}": (lambda xv, tv, r: lambda lib: _bce_grads(lib, xv, tv, r))(xv, tv, r)
       for xv, tv in ((-0.0, -0.0), (0.3, 0.6), (1.0, 0.2), (0.0, 1.0)) for r in ("mean", "none", "sum")},
    "bce_tangents": lambda lib: _jvp(lib, lambda L, x: F(L).binary_cross_entropy(x, L.tensor([0.0, 0.25, 1.0],
                                                                                           dtype=L.float64)),
                                     lib.tensor([0.0, 0.5, 1.0], dtype=lib.float64),
                                     lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64)),
    "logit_grad_at_zeros": lambda lib: _grads(lib, lambda L, x: L.logit(x), _x(lib, -0.0, 0.0, 1.0, 0.5)),
    "logit_grad_at_zeros_no_graph": lambda lib: _grads(lib, lambda L, x: L.logit(x), _x(lib, -0.0, 0.0, 1.0, 0.5),
                                                       create_graph=False),
    # cross_entropy: the mean of an empty input of probabilities is PyTorch's filled sum (tangent 0);
    # log_softmax runs no kernel on an empty input, so nll_loss's checks come first
    "cross_entropy_probs_empty_tangent": lambda lib: _jvp(lib, lambda L, x: F(L).cross_entropy(
        x, L.zeros(2, 2, 0, dtype=L.float64)), lib.zeros(2, 2, 0, dtype=lib.float64),
        lib.zeros(2, 2, 0, dtype=lib.float64)),
    "cross_entropy_probs_empty_grad": lambda lib: _grads(lib, lambda L, x: F(L).cross_entropy(
        x, L.zeros(0, dtype=L.float64)), lib.zeros(0, dtype=lib.float64, requires_grad=True)),
    "cross_entropy_empty_int_input": lambda lib: F(lib).cross_entropy(lib.zeros(0, 3, dtype=lib.int16),
                                                                      lib.tensor(149, dtype=lib.int16)),
    "cross_entropy_empty_byte_input": lambda lib: F(lib).cross_entropy(lib.zeros(0, 1, dtype=lib.uint8),
                                                                       lib.tensor(0, dtype=lib.uint8)),
    "cross_entropy_empty_complex_input": lambda lib: F(lib).cross_entropy(lib.zeros(1, 0, dtype=lib.complex64),
                                                                          lib.zeros(1, 1, 0, dtype=lib.complex64)),
    "cross_entropy_int_input": lambda lib: F(lib).cross_entropy(lib.zeros(2, 3, dtype=lib.int16), lib.tensor([0, 1])),
    # nll_loss: the target's dtype before a 1-d input's target size; a 0-d target of a 3-d input
    "nll_1d_float_target": lambda lib: F(lib).nll_loss(lib.zeros(4), lib.zeros(4)),
    "nll_1d_short_target": lambda lib: F(lib).nll_loss(lib.zeros(3, dtype=lib.int16), lib.zeros(3, dtype=lib.int16)),
    "nll_1d_long_target": lambda lib: F(lib).nll_loss(lib.zeros(3), lib.zeros(3, dtype=lib.long)),
    "nll_3d_0d_target": lambda lib: F(lib).nll_loss(lib.zeros(0, 2, 1), lib.tensor(1)),
    # nll_loss2d's kernel (3-d and 4-d inputs) reads int64 targets only: Byte fails before the bounds check
    "nll_3d_byte_target": lambda lib: F(lib).nll_loss(lib.zeros(1, 2, 4), lib.tensor([[0, 1, 0, 73]], dtype=lib.uint8)),
    "nll_4d_byte_target": lambda lib: F(lib).nll_loss(lib.zeros(1, 2, 3, 1), lib.zeros(1, 3, 1, dtype=lib.uint8)),
    # pooling: avg_pool2d's CPU kernel takes floats and Long only, Long divided as C++ truncates;
    # a max-pool window wholly in the padding; adaptive pooling of an empty batch and its backward
    **{f"avg_pool2d_{dt}": (lambda dt: lambda lib: F(lib).avg_pool2d(lib.ones(1, 2, 2, dtype=getattr(lib, dt)), 2))(dt)
       for dt in ("int16", "uint8", "int32", "int8", "complex64", "bool")},
    # a window's elements added in order from 0: cancelling 9.2e18s leave PyTorch's remainder; -0s sum to 0
    "avg_pool2d_cancelling_order": lambda lib: F(lib).avg_pool2d(lib.tensor(
        [-9.223372036854776e18, 3773240438685696.0, -9.223372036854776e18, 7993082511360.0, 9.223372036854776e18, 248.75,
         137560816.0, -326.25, -9.223372036854776e18]).reshape(1, 3, 3), 3, 2, 1),
    # complex soft_margin_loss: log1p(exp(z)) with PyTorch's complex log1p (Kahan's), inf parts too
    "soft_margin_complex_inf": lambda lib: F(lib).soft_margin_loss(lib.tensor(complex(-20, -inf)),
                                                                   lib.tensor(complex(-0.0, -3.7265625)), reduction="sum"),
    "soft_margin_complex_small": lambda lib: F(lib).soft_margin_loss(lib.tensor([1e-30j, 2 + 1e-8j]),
                                                                     lib.tensor([1 + 0j, -1 + 0j])),
    # float16 input, int64 target past float16's range: a 0-d target is read as a float32 scalar,
    # a tensor target is cast to float16 (inf) first
    "soft_margin_half_0d_big_target": lambda lib: _grads(lib, lambda L, x: F(L).soft_margin_loss(x, L.tensor(-9052124)),
                                                         lib.tensor(0.0, dtype=lib.float16, requires_grad=True),
                                                         create_graph=False),
    "soft_margin_half_big_targets": lambda lib: F(lib).soft_margin_loss(lib.tensor([0.0, 3e-3], dtype=lib.float16),
                                                                        lib.tensor([70000, 1])),
    "avg_pool2d_negative_zeros": lambda lib: F(lib).avg_pool2d(lib.full((1, 2, 2), -0.0), 2),
    "avg_pool1d_int16_empty": lambda lib: F(lib).avg_pool1d(lib.zeros(0, 10, 2, dtype=lib.int16), 2),
    "avg_pool2d_long_minimum": lambda lib: F(lib).avg_pool2d(lib.full((1, 1, 4), -9223372036854775808,
                                                                      dtype=lib.long), 3, 1, 1),
    "avg_pool2d_long_negative": lambda lib: F(lib).avg_pool2d(lib.tensor([[[-7, 2, -5, 3]]]), (1, 3), 1, (0, 1)),
    "max_pool2d_window_in_padding": lambda lib: F(lib).max_pool2d(lib.arange(4.0).reshape(1, 1, 4), 2, 1, 1, 2,
                                                                   return_indices=True),
    "max_pool2d_window_in_padding_int": lambda lib: F(lib).max_pool2d(lib.tensor([[[255, 91]]], dtype=lib.uint8),
                                                                       2, 1, 1, 2),
    "adaptive_avg_pool2d_empty_byte": lambda lib: F(lib).adaptive_avg_pool2d(lib.zeros(0, 1, 7, dtype=lib.uint8),
                                                                             (2, None)),
    "adaptive_avg_pool1d_empty_grad": lambda lib: _grads(lib, lambda L, x: F(L).adaptive_avg_pool1d(x, 2),
                                                         lib.zeros(1, 0, 1, dtype=lib.float64, requires_grad=True)),
    # PyTorch's words: constant_pad_nd's message (spaces missing), multilabel's size(-1) of a 0-d
    # input, one_hot's allocator
    "constant_pad_nd_too_long": lambda lib: lib.constant_pad_nd(lib.ones(3), (1, 1, 1, 1)),
    "constant_pad_nd_too_long_0d": lambda lib: lib.constant_pad_nd(lib.tensor(True), (1, 1, 1, 1)),
    "multilabel_0d": lambda lib: F(lib).multilabel_soft_margin_loss(lib.tensor(1.0), lib.tensor(2.75)),
    "multilabel_0d_complex_target": lambda lib: F(lib).multilabel_soft_margin_loss(lib.tensor(80.0), lib.tensor(1j)),
    "one_hot_unallocatable": lambda lib: F(lib).one_hot(lib.tensor([2 ** 40])),
    "one_hot_rows": lambda lib: F(lib).one_hot(lib.tensor([[0, 3], [2, 2]])),
    # interpolate: an empty dim other than the batch refused before the dtype; sums from -0.
    # a 4-d input of a dtype without a kernel: the 2-d kernels' error names their channels-last kernel
    **{f"interpolate_{mode}_{dt}_2d": (lambda mode, dt: lambda lib: F(lib).interpolate(
        lib.ones(2, 2, 3, 2, dtype=getattr(lib, dt)), scale_factor=2, mode=mode))(mode, dt)
       for mode in ("bilinear", "nearest", "nearest-exact", "bicubic") for dt in ("bool", "int32")},
    "interpolate_trilinear_bool": lambda lib: F(lib).interpolate(lib.ones(1, 1, 2, 2, 2, dtype=lib.bool), size=3,
                                                                 mode="trilinear"),
    "interpolate_empty_channels": lambda lib: F(lib).interpolate(lib.zeros(0, 0, 3, dtype=lib.float64), size=2),
    "interpolate_empty_channels_int": lambda lib: F(lib).interpolate(lib.zeros(1, 0, 4, dtype=lib.int8), size=2,
                                                                     mode="nearest-exact"),
    "interpolate_empty_channels_bilinear": lambda lib: F(lib).interpolate(lib.zeros(3, 0, 2, 4, dtype=lib.long),
                                                                          size=(2, 4), mode="bilinear"),
    "interpolate_linear_negative_zeros": lambda lib: F(lib).interpolate(lib.tensor([[[-0.0, -0.0]], [[-1e-30, 4.0]]]),
                                                                        size=3, mode="linear"),
    "interpolate_area_empty_complex": lambda lib: F(lib).interpolate(lib.zeros(0, 1, 1, dtype=lib.complex128),
                                                                     size=2, mode="area"),
    # cdist: no half kernel; PyTorch's _cdist_backward has no derivative of its own
    "cdist_half": lambda lib: lib.cdist(lib.ones(1, 2, dtype=lib.float16), lib.ones(1, 2, dtype=lib.float16)),
    "cdist_grad2": lambda lib: _grads(lib, lambda L, x: L.cdist(x.reshape(2, 2), L.ones(3, 2, dtype=L.float64)),
                                      _x(lib, 0.5, -1.0, 2.0, 3.0)),
    "cdist_grad": lambda lib: _grads(lib, lambda L, x: L.cdist(x.reshape(2, 2), L.ones(3, 2, dtype=L.float64), p=3),
                                     _x(lib, 0.5, -1.0, 2.0, 3.0), create_graph=False),
    # convolution: PyTorch's empty path (no kernel, no dtype check; zero input channels give zero
    # output channels), the kernels' own checks (kernel size, dilated and transposed dtypes)
    "conv1d_empty_channels": lambda lib: F(lib).conv1d(lib.ones(1, 0, 4, dtype=lib.int16),
                                                       lib.ones(1, 0, 4, dtype=lib.int16)),
    "conv1d_empty_mixed_dtypes": lambda lib: F(lib).conv1d(lib.ones(0, 0, 0, dtype=lib.long),
                                                           lib.ones(1, 0, 0, dtype=lib.bool)),
    "conv1d_empty_length": lambda lib: F(lib).conv1d(lib.ones(3, 3, 0), lib.ones(3, 3, 0)),
    "conv1d_zero_kernel": lambda lib: F(lib).conv1d(lib.ones(1, 2, 1), lib.ones(2, 2, 0)),
    "conv1d_zero_kernel_dilated": lambda lib: F(lib).conv1d(lib.ones(1, 2, 1, dtype=lib.bool),
                                                            lib.ones(2, 2, 0, dtype=lib.float64), dilation=2),
    "conv1d_dilated_short": lambda lib: F(lib).conv1d(lib.ones(3, 1, 2, dtype=lib.int16),
                                                      lib.ones(3, 1, 1, dtype=lib.bool), dilation=2),
    "conv1d_dilated_long": lambda lib: F(lib).conv1d(lib.ones(1, 1, 4, dtype=lib.long),
                                                     lib.ones(1, 1, 2, dtype=lib.long), dilation=2),
    # an empty input meets no kernel: "only zero batch or channel" before slow_conv_transpose's own checks
    "conv_transpose1d_empty_width": lambda lib: F(lib).conv_transpose1d(lib.zeros(4, 4, 0), lib.zeros(4, 4, 0)),
    "conv_transpose2d_empty_output_padding": lambda lib: F(lib).conv_transpose2d(lib.zeros(1, 4, 0, 2),
                                                                                 lib.zeros(4, 4, 1, 1), output_padding=1),
    "conv_transpose1d_empty_batch": lambda lib: F(lib).conv_transpose1d(lib.zeros(0, 4, 3), lib.zeros(4, 4, 2),
                                                                        output_padding=3, stride=2),
    "conv_transpose1d_int": lambda lib: F(lib).conv_transpose1d(lib.ones(1, 1, 1, dtype=lib.int32),
                                                                lib.ones(1, 1, 3, dtype=lib.int32)),
    "conv1d_empty_channels_grads": lambda lib: _grads(lib, lambda L, w: F(L).conv1d(L.ones(1, 0, 4), w.reshape(2, 0, 2)),
                                                      lib.ones(0, requires_grad=True), create_graph=False),
    # binary_cross_entropy_with_logits: PyTorch's composition, log_sigmoid in the input's dtype,
    # the rest written into the target's (its dtype is the result's); a bool or complex target
    **{f"bce_logits_{xd}_{td}": (lambda xd, td: lambda lib: F(lib).binary_cross_entropy_with_logits(
        lib.tensor([-2.275390625, 0.0]).to(getattr(lib, xd)), lib.tensor([0.0, 0.5]).to(getattr(lib, td)),
        reduction="none"))(xd, td)
       for xd, td in (("float32", "float64"), ("float64", "float16"), ("float16", "float32"), ("float32", "float16"),
                      ("float64", "complex128"), ("float32", "bool"), ("int64", "float32"), ("float32", "int64"))},
    "bce_logits_complex_target_grad": lambda lib: F(lib).binary_cross_entropy_with_logits(
        _x(lib, 0.5), lib.tensor([3 - 1j])),
    # gaussian_nll_loss: var * ones_like(input), of the default dtype for an integer input; label
    # smoothing over no classes is an infinite share; max pooling refuses complex; adaptive pooling
    # sums from +0.
    "gaussian_nll_int_input": lambda lib: F(lib).gaussian_nll_loss(lib.tensor([[3], [114]], dtype=lib.int8),
                                                                   lib.tensor([[118], [28]], dtype=lib.int8), 1.5),
    "cross_entropy_smoothing_no_classes": lambda lib: F(lib).cross_entropy(lib.zeros(1, 0, 4, dtype=lib.float64),
                                                                           lib.zeros(1, 0, 4, dtype=lib.float64),
                                                                           reduction="sum", label_smoothing=0.2),
    "max_pool1d_complex": lambda lib: F(lib).max_pool1d(lib.ones(1, 4, dtype=lib.complex64), 2),
    "max_pool1d_complex_indices": lambda lib: F(lib).max_pool1d(lib.ones(1, 4, dtype=lib.complex64), 2,
                                                                return_indices=True),
    "max_pool2d_complex": lambda lib: F(lib).max_pool2d(lib.ones(1, 2, 2, dtype=lib.complex128), 2),
    "adaptive_avg_pool1d_negative_zeros": lambda lib: F(lib).adaptive_avg_pool1d(lib.tensor([[-0.0, -0.0, 1.0]]), 2),
    # ctc_loss: the composite's empty check first, then ctc_loss_allocate_outputs' in its order
    # (log_probs' dims, the targets' dims, blank, lengths, the targets' sizes, the input lengths)
    "ctc_empty_1d": lambda lib: F(lib).ctc_loss(lib.zeros(0), lib.zeros(0, dtype=lib.long), (1,), (1,)),
    "ctc_3d_targets": lambda lib: F(lib).ctc_loss(lib.zeros(3, 3, 1), lib.zeros(3, 1, 1, dtype=lib.long),
                                                  (3, 3, 3), (1, 1, 1), blank=4),
    "ctc_targets_batch": lambda lib: F(lib).ctc_loss(lib.zeros(3, 2, 4), lib.ones(3, 2, dtype=lib.long),
                                                     (3, 3), (1, 1)),
    "ctc_unbatched_target_size": lambda lib: F(lib).ctc_loss(lib.zeros(3, 4), lib.ones(3, dtype=lib.long),
                                                             (6,), (1,)),
    # pixel_shuffle of an empty input: its gradient unshuffles to another shape (the engine's error);
    # constant padding converts its value as fill_ does (F.pad's is a double), only when it pads
    "pixel_shuffle_empty_grad": lambda lib: _grads(lib, lambda L, x: F(L).pixel_shuffle(x, 2),
                                                   lib.zeros(4, 4, 0, requires_grad=True)),
    **{f"constant_pad_uint8_{name}_{v}": (lambda fn, v: lambda lib: fn(lib, lib.tensor([[1, 2, 3]], dtype=lib.uint8), v))(
        fn, v) for v in (-1.5, -1, -255, -256, 255.5, 300, nan, inf, 2.7)
       for name, fn in (("pad", lambda L, x, v: L.constant_pad_nd(x, (1, 0), v)),
                        ("crop", lambda L, x, v: L.constant_pad_nd(x, (-1, 0), v)),
                        ("F_pad", lambda L, x, v: F(L).pad(x, (1, 0), value=v)))},
    # smooth_l1_loss: its backward kernel takes a bool operand as 0 and 1; its double backward refuses it
    "smooth_l1_bool_target_grads": lambda lib: _grads(
        lib, lambda L, x: F(L).smooth_l1_loss(x, L.tensor([False, True, False])), _x(lib, 3.17, 2.0, 0.0)),
    "smooth_l1_bool_input_grads": lambda lib: _grads(
        lib, lambda L, t: F(L).smooth_l1_loss(L.tensor([False, True, False]), t), _x(lib, 3.17, 2.0, 0.0)),
    "smooth_l1_bool_target_grad": lambda lib: _grads(
        lib, lambda L, x: F(L).smooth_l1_loss(x, L.tensor([False, True, False])), _x(lib, 3.17, 2.0, 0.0),
        create_graph=False),
    # unfold and fold take bool; reflect and replicate pads check shapes before the dtype
    "unfold_bool": lambda lib: F(lib).unfold(lib.tensor([[[True, False, True], [True, False, False],
                                                          [True, True, True]]]), 2, padding=1, stride=2),
    "fold_bool": lambda lib: F(lib).fold(lib.ones(1, 4, 4, dtype=lib.bool), 3, 2),
    **{f"unfold_empty_{'x'.join(map(str, shape))}": (lambda shape: lambda lib: F(lib).unfold(lib.zeros(shape), (2, 1)))(shape)
       for shape in ((1, 1, 3, 0), (1, 0, 3, 3), (0, 1, 3, 3), (1, 3, 0))},
    "unfold_int": lambda lib: F(lib).unfold(lib.ones(1, 3, 3, dtype=lib.int8), 2),
    **{f"pad_{mode}_bool_{i}": (lambda mode, shape, p: lambda lib: F(lib).pad(lib.ones(shape, dtype=lib.bool), p,
                                                                           mode=mode))(mode, shape, p)
       for mode in ("reflect", "replicate")
       for i, (shape, p) in enumerate((((3, 1), (2, 1)), ((2, 0, 4), (1, 1)), ((2, 2), (1, 1)), ((1, 2), (-3, -3))))},
    # cdist of nothing runs no kernel (no dtype checks); the kernel dispatches on x1's dtype first
    **{f"cdist_{'x'.join(map(str, a))}_{'x'.join(map(str, b))}_{da}_{db}": (lambda a, b, da, db: lambda lib: lib.cdist(
        lib.zeros(a, dtype=getattr(lib, da)), lib.zeros(b, dtype=getattr(lib, db))))(a, b, da, db)
       for a, b in (((1, 0, 3), (1, 0, 3)), ((1, 2, 3), (1, 0, 3)), ((2, 0), (3, 0)), ((1, 2, 3), (1, 4, 3)),
                    ((0, 2, 3), (1, 4, 3)))
       for da, db in (("float16", "float64"), ("float16", "float16"), ("float32", "float64"))},
    # a max-pool window wholly in the padding whose PyTorch index lies inside the plane; an
    # empty pixel_shuffle whose input shape expands to its gradient's (summed back)
    "max_pool2d_window_in_padding_short": lambda lib: F(lib).max_pool2d(
        lib.tensor([[[32767], [-32768], [2]]], dtype=lib.int16), 2, 1, 1, 2, return_indices=True),
    "pixel_shuffle_empty_expandable_grad": lambda lib: _grads(lib, lambda L, x: F(L).pixel_shuffle(x, 2),
                                                              lib.zeros(0, 1, 1, requires_grad=True)),
    # a pointwise loss's gradient has its input's dtype (PyTorch's engine casts it)
    "bce_logits_target_grad_dtype": lambda lib: _grads(
        lib, lambda L, t: F(L).binary_cross_entropy_with_logits(L.tensor(0.3, dtype=L.float64), t),
        _x(lib, 0.57, dtype="float32").reshape(())),
    "mse_mixed_grads_dtype": lambda lib: _grads(
        lib, lambda L, t: F(L).mse_loss(L.tensor([0.1, 0.2], dtype=L.float64), t), _x(lib, 0.3, 0.7, dtype="float32")),
    # batch_norm's training statistics in PyTorch's accumulation type (a float32 variance past float's range)
    "batch_norm_train_huge_float32_channels_last": lambda lib: F(lib).batch_norm(
        lib.tensor([[[-1e30, -3.845703125], [-3.845703125, -0.5], [6.0, 0.5]]]).transpose(1, 2).contiguous()
        .transpose(1, 2), None, None, training=True),
    "batch_norm_train_half": lambda lib: F(lib).batch_norm(
        lib.tensor([[[300.0, -3.8], [-3.8, -0.5]]], dtype=lib.float16), None, None, training=True),
}


def _bce_grads(lib, x_value, t_value, reduction):
    x = lib.tensor([x_value, 0.5], dtype=lib.float64, requires_grad=True)
    t = lib.tensor([t_value, 0.25], dtype=lib.float64, requires_grad=True)
    y = F(lib).binary_cross_entropy(x, t, weight=lib.tensor([2.0, 3.0], dtype=lib.float64), reduction=reduction)
    gx, gt = lib.autograd.grad(y, (x, t), lib.ones_like(y) * 0.7, create_graph=True)
    w = lib.tensor([1.0, 2.0], dtype=lib.float64)
    return (gx / 1e10, gt, *[v / 1e10 for v in lib.autograd.grad((gx * w).sum(), (x, t))],
            lib.autograd.grad((gt * w).sum(), x)[0])


def _tangents(lib, name, x_dtype, t_dtype):
    fwd = lib.autograd.forward_ad
    with fwd.dual_level():
        x, t = lib.tensor([0.5, 3.0]).to(getattr(lib, x_dtype)), lib.tensor([0.0, 1.0]).to(getattr(lib, t_dtype))
        if x.dtype.is_floating_point:
            x = fwd.make_dual(x, lib.ones(2, dtype=x.dtype))
        if t.dtype.is_floating_point:
            t = fwd.make_dual(t, lib.ones(2, dtype=t.dtype))
        return fwd.unpack_dual(getattr(F(lib), name)(x, t)).tangent


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome(name):
    torch = require_torch()
    assert outcome(CASES[name], chainrule) == outcome(CASES[name], torch)


def test_deliberate_soft_margin_differences():
    """Where PyTorch's exp overflows or its integer negation wraps, chainrule keeps the loss
    and gradient of the maths (docs/differences.md)."""
    x = chainrule.tensor([-138.9], dtype=chainrule.float64, requires_grad=True)
    loss = F(chainrule).soft_margin_loss(x, chainrule.tensor(34, dtype=chainrule.int16), reduction="sum")
    assert abs(loss.item() - 138.9 * 34) < 1e-6
    loss.backward()
    assert x.grad.item() == pytest.approx(-34.0)
    x = chainrule.tensor([0.5], dtype=chainrule.float64, requires_grad=True)
    F(chainrule).soft_margin_loss(x, chainrule.tensor([216], dtype=chainrule.uint8), reduction="sum").backward()
    assert x.grad.item() == pytest.approx(-216 / (1 + 2.718281828459045 ** 108))


def test_deliberate_max_pool_window_in_padding():
    """The -inf of a window that covers only padding is a constant: no gradient, no tangent
    (PyTorch sends both to the element its scan would have started at, docs/differences.md)."""
    x = chainrule.tensor([[[1.0], [2.0], [3.0]]], dtype=chainrule.float64, requires_grad=True)
    y = F(chainrule).max_pool2d(x, 2, 1, 1, 2)
    assert y.tolist() == [[[-inf], [-inf], [-inf]]]
    y.sum().backward()
    assert x.grad.tolist() == [[[0.0], [0.0], [0.0]]]


def test_deliberate_batch_norm_variance_past_float32():
    """A float32 batch whose variance passes float32's range: normalized as PyTorch's
    channels-last kernel does (its contiguous one overflows to 0, docs/differences.md)."""
    x = chainrule.tensor([[[-1e30, -3.845703125], [-3.845703125, -0.5]]])
    y = F(chainrule).batch_norm(x, None, None, training=True)
    assert [round(v, 4) for v in y[0, 0].tolist()] == [-1.0, 1.0]


def test_deliberate_circular_pad_wrapping_a_cropped_core():
    """Two elements of circular padding around the one a crop keeps: each output is that
    element, and its gradient sums all three (PyTorch's loses one, docs/differences.md)."""
    x = chainrule.tensor([[1.0, 2.0]], dtype=chainrule.float64, requires_grad=True)
    y = F(chainrule).pad(x, (-1, 2), mode="circular")
    assert y.tolist() == [[2.0, 2.0, 2.0]]
    y.backward(chainrule.tensor([[1.0, 10.0, 100.0]], dtype=chainrule.float64))
    assert x.grad.tolist() == [[0.0, 111.0]]


def _multi_margin_second_order(lib, p):
    """PyTorch's multi_margin_loss backward has no derivative: the gradient's node raises."""
    x = lib.tensor([[0.1, 0.5, 0.2]], dtype=lib.float64, requires_grad=True)
    g, = lib.autograd.grad(F(lib).multi_margin_loss(x, lib.tensor([1]), p=p), x, create_graph=True)
    try:
        lib.autograd.grad(g.sum(), x)
    except RuntimeError as e:
        return g.tolist(), type(g.grad_fn).__name__, str(e)
    return g.tolist(), type(g.grad_fn).__name__, None


@pytest.mark.parametrize("p", [1, 2])
def test_multi_margin_second_order_raises(p):
    torch = require_torch()
    assert _multi_margin_second_order(chainrule, p) == _multi_margin_second_order(torch, p)


@pytest.mark.parametrize("p", [2.0, 3.0, 0.5])
@pytest.mark.parametrize("x, y", [([-1.0, 1.125, 0.65], [0.92, -4.0, 1e30]), ([-0.0, 0.385, 3.0], [1.86, 0.5, 5e-31])])
def test_cdist_of_one_column_adds_powers_in_float32(p, x, y):
    """cdist's kernel adds |d|^p and takes the 1/p power even of one column: in float32,
    1e30 cubed overflows (distance inf) and 5e-31 cubed is 0 (distance 0, gradient 0)."""
    torch = require_torch()

    def fn(lib):
        a, b = (lib.tensor(v, dtype=lib.float32).reshape(3, 1).requires_grad_() for v in (x, y))
        out = lib.cdist(a, b, p)
        return (out,) + lib.autograd.grad(out.sum(), (a, b))
    assert repr(outcome(fn, chainrule)) == repr(outcome(fn, torch))


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.0, inf])
def test_cdist_without_columns_is_zero(p):
    torch = require_torch()
    fn = lambda lib: lib.cdist(lib.zeros(1, 0, requires_grad=True), lib.zeros(2, 0), p)
    assert repr(outcome(fn, chainrule)) == repr(outcome(fn, torch))


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, inf])
def test_cdist_gradient_at_nan_as_pytorch(p):
    """The backward kernel's sign is nan at nan (p = 1, inf); p = 0's gradient is 0 everywhere."""
    torch = require_torch()

    def fn(lib):
        a = lib.tensor([[nan, 1.0], [2.0, 3.0]], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([[1.0, 1.0]], dtype=lib.float64, requires_grad=True)
        return lib.autograd.grad(lib.cdist(a, b, p).sum(), (a, b))
    assert repr(outcome(fn, chainrule)) == repr(outcome(fn, torch))


@pytest.mark.parametrize("row", [[1.0, nan], [nan, 1.0], [nan, nan], [1.0, nan, 3.0, nan, 2.0] + [1.0] * 13])
def test_cdist_inf_norm_passes_over_nan(row):
    """The inf-norm kernel's running max from 0 keeps its value against a nan: [1, nan] is 1, [nan, nan] 0."""
    torch = require_torch()
    fn = lambda lib: lib.cdist(lib.tensor([row], dtype=lib.float64), lib.zeros(1, len(row), dtype=lib.float64), inf)
    assert repr(outcome(fn, chainrule)) == repr(outcome(fn, torch))


def test_cdist_inf_norm_gradient_at_an_infinite_tie():
    """The inf-norm backward's 1 - min(1, ceil(| |d| - dist |)): nan where |d| = dist = inf."""
    torch = require_torch()

    def fn(lib):
        a = lib.tensor([[1e30, -0.0, -3.0, 1.0], [1.0, 2.0, 3.0, 4.0]], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([[0.0, -inf, -0.0, -inf]], dtype=lib.float64, requires_grad=True)
        return lib.autograd.grad(lib.cdist(a, b, inf).sum(), (a, b))
    assert repr(outcome(fn, chainrule)) == repr(outcome(fn, torch))


_COMPLEX_CONVS = [("conv1d", (2, 4, 7), (3, 4, 3), (3,), dict(padding=1, dilation=2)),
                  ("conv1d", (4, 7), (3, 4, 3), None, dict(padding="same")),
                  ("conv2d", (1, 2, 5, 5), (2, 2, 3, 3), (2,), dict(stride=2, padding=1)),
                  ("conv2d", (1, 2, 5, 5), (2, 1, 2, 2), None, dict(groups=2, padding="valid")),
                  ("conv3d", (1, 1, 3, 3, 3), (1, 1, 2, 2, 2), None, {}),
                  ("conv_transpose1d", (1, 2, 5), (2, 3, 3), (3,), dict(stride=2, output_padding=1)),
                  ("conv_transpose2d", (1, 2, 3, 3), (2, 2, 2, 2), None, dict(stride=2))]


def _complex_array(rng, shape, dtype):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("case", _COMPLEX_CONVS, ids=lambda c: f"{c[0]}-{len(c[1])}d-{sorted(c[4])}")
def test_complex_convolution_as_pytorch(case, dtype):
    """conv1d/2d/3d and conv_transpose of complex inputs: PyTorch's three real convolutions
    (Gauss's trick), the same values, gradients and node."""
    torch = require_torch()
    name, x_shape, w_shape, b_shape, options = case
    rng = np.random.default_rng(len(x_shape) + len(name))
    arrays = [_complex_array(rng, s, dtype) for s in (x_shape, w_shape, b_shape) if s is not None]

    def run(lib):
        inputs = [lib.tensor(a, requires_grad=True) for a in arrays]
        y = getattr(F(lib), name)(*inputs[:2], inputs[2] if len(inputs) > 2 else None, **options)
        grads = lib.autograd.grad((y.abs() ** 2).sum(), inputs)
        return y.detach().numpy(), [g.numpy() for g in grads], type(y.grad_fn).__name__

    (y, grads, node), (y_t, grads_t, node_t) = run(chainrule), run(torch)
    rtol = 1e-4 if dtype == "complex64" else 1e-10
    np.testing.assert_allclose(y, y_t, rtol=rtol, atol=rtol)
    for g, g_t in zip(grads, grads_t):
        np.testing.assert_allclose(g, g_t, rtol=rtol, atol=rtol)
    assert node == node_t


def test_complex_convolution_gradcheck():
    rng = np.random.default_rng(3)
    x, w, b = (chainrule.tensor(_complex_array(rng, s, "complex128"), requires_grad=True)
               for s in ((1, 2, 5), (3, 2, 2), (3,)))
    assert chainrule.autograd.gradcheck(lambda x, w, b: F(chainrule).conv1d(x, w, b, padding=1, dilation=2), (x, w, b))
    w_t = w.detach().transpose(0, 1).contiguous().requires_grad_()
    assert chainrule.autograd.gradgradcheck(lambda x, w: F(chainrule).conv_transpose1d(x, w, stride=2), (x[:, :, :3], w_t))


@pytest.mark.parametrize("name", ["conv1d", "conv_transpose1d"])
@pytest.mark.parametrize("empty", [False, True])
def test_convolution_weight_gradient_is_connected_to_the_weight(name, empty):
    """... and, with an input that needs no gradient (an integer one of no channels too), the
    weight's gradient has a graph in which the weight is unused."""
    torch = require_torch()
    nodes, outcomes = [], []
    for lib in (chainrule, torch):
        x = lib.zeros(4, 0, 1, dtype=lib.int64) if empty else lib.linspace(-1, 1, 10, dtype=lib.float64).reshape(1, 2, 5)
        shape = (4, 0, 1) if empty else ((3, 2, 2) if name == "conv1d" else (2, 3, 2))
        w = lib.ones(*shape, dtype=lib.float32 if empty else lib.float64, requires_grad=True)
        if empty and name != "conv1d":
            return
        out = getattr(F(lib), name)(x, w, stride=2)
        g, = lib.autograd.grad(out, w, lib.ones_like(out), create_graph=True)
        nodes.append(type(g.grad_fn).__name__)
        outcomes.append(repr(outcome(lambda lib: (g, lib.autograd.grad(g.sum(), w, allow_unused=True)), lib)))
    assert nodes[0] == nodes[1] == "ConvolutionBackwardBackward0"
    assert outcomes[0] == outcomes[1]


def test_convolution_without_channels_has_an_empty_tangent():
    torch = require_torch()
    shapes = []
    for lib in (chainrule, torch):
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            x = fwd.make_dual(lib.zeros(2, 0, 5, dtype=lib.float64), lib.zeros(2, 0, 5, dtype=lib.float64))
            w = fwd.make_dual(lib.zeros(3, 0, 3, dtype=lib.float64), lib.zeros(3, 0, 3, dtype=lib.float64))
            out = F(lib).conv1d(x, w, stride=2)
            tangent = fwd.unpack_dual(out).tangent
            shapes.append((tuple(out.shape), tuple(tangent.shape), str(tangent.dtype)))
    assert shapes[0] == shapes[1]


@pytest.mark.parametrize("name", ["conv1d", "conv_transpose1d"])
def test_convolution_input_gradient_is_connected_to_the_input(name):
    """PyTorch's convolution_backward takes the input: with a frozen weight, the input's
    gradient under create_graph still has a graph (ConvolutionBackwardBackward0), in which
    the input is unused."""
    torch = require_torch()

    def fn(lib):
        x = lib.linspace(-1, 1, 10, dtype=lib.float64).reshape(1, 2, 5).requires_grad_()
        w = lib.linspace(0.5, 2, 12, dtype=lib.float64).reshape(2, 3, 2)
        if name == "conv1d":
            w = w.transpose(0, 1)
        g, = lib.autograd.grad(getattr(F(lib), name)(x, w).sum(), x, create_graph=True)
        return g, lib.autograd.grad(g.sum(), x, allow_unused=True)
    assert repr(outcome(fn, chainrule)) == repr(outcome(fn, torch))
    nodes = []
    for lib in (chainrule, torch):
        x = lib.ones(1, 2, 5, dtype=lib.float64, requires_grad=True)
        w = lib.ones(3, 2, 2, dtype=lib.float64) if name == "conv1d" else lib.ones(2, 3, 2, dtype=lib.float64)
        g, = lib.autograd.grad(getattr(F(lib), name)(x, w).sum(), x, create_graph=True)
        nodes.append(type(g.grad_fn).__name__)
    assert nodes[0] == nodes[1] == "ConvolutionBackwardBackward0"


@pytest.mark.parametrize("mode", ["linear", "bicubic"])
def test_float16_interpolation_in_float32(mode):
    """float16 positions, weights and sums in float32 (PyTorch's opmath), rounded once: no
    further from the float64 result than PyTorch's (which rounds some steps to float16), and
    within 2 ulps of it (weighted in float16, chainrule's was 20 ulps off)."""
    torch = require_torch()
    x = np.array([-3.0, 0.7451171875, -1.0224609375, 2.0, 5.5, -0.25, 1.75, 3.0] * 2, np.float16)
    x = x.reshape((1, 1, 16) if mode == "linear" else (1, 1, 4, 4))
    size = (7,) if mode == "linear" else (3, 7)
    ours = chainrule.nn.functional.interpolate(chainrule.from_numpy(x), size=size, mode=mode)
    wide = chainrule.nn.functional.interpolate(chainrule.from_numpy(x.astype(np.float64)), size=size, mode=mode)
    theirs = torch.nn.functional.interpolate(torch.from_numpy(x), size=size, mode=mode).numpy()
    assert ours.dtype == chainrule.float16
    ours, theirs, wide = ours.numpy().astype(np.float64), theirs.astype(np.float64), wide.numpy()
    assert np.abs(ours - wide).max() <= np.abs(theirs - wide).max()
    ulp = np.spacing(np.maximum(np.abs(theirs), 1).astype(np.float16)).astype(np.float64)
    assert (np.abs(ours - theirs) <= 2 * ulp).all()
