"""Issue 10's classes of the elementwise family found by the long fuzz run (tests/fuzz):
clamp's ties and forward-mode formulas, angle and acos at signed zeros, hardsigmoid's
missing second derivative, ... Each program runs on chainrule and on PyTorch and gives the
same result or the same error (type name and first line). Inputs stay under 8 elements, where
PyTorch's CPU kernels run element by element (docs/differences.md: the vectorised loop)."""
import warnings

import numpy as np
import pytest

import chainrule
from helpers import outcome, require_torch, leaf as _x

pytestmark = pytest.mark.torch

nan, inf = float("nan"), float("inf")


def F(lib):
    return lib.nn.functional



def _grads(lib, fn, *xs, create_graph=True):
    """fn's gradients at xs and, through them, the second derivatives."""
    y = fn(lib, *xs)
    gs = lib.autograd.grad(y.sum(), xs, create_graph=create_graph, allow_unused=True)
    live = [g for g in gs if g is not None and g.requires_grad]
    if not live:
        return gs
    total = sum((g * lib.arange(1, g.numel() + 1, dtype=g.dtype).reshape(g.shape)).sum() for g in live)
    return gs + lib.autograd.grad(total, xs, allow_unused=True)


def _tangent(lib, fn, *pairs):
    """fn's forward-mode tangent at the (primal, tangent) pairs."""
    fwd = lib.autograd.forward_ad
    with fwd.dual_level():
        duals = [fwd.make_dual(lib.tensor(p, dtype=lib.float64), lib.tensor(t, dtype=lib.float64)) for p, t in pairs]
        return fwd.unpack_dual(fn(lib, *duals)).tangent


def _view_of_reshaped_base(lib, reshape, take):
    x = lib.arange(1.0, 7.0, dtype=lib.float64).reshape(3, 2).requires_grad_()
    y = x * 2
    view = take(y)
    reshape(y)
    view.mul_(3)
    g, = lib.autograd.grad((y * lib.arange(6.0, dtype=lib.float64).reshape(y.shape)).sum(), x)
    return y, view, g, lib.tensor(type(y.grad_fn).__name__ == "CopySlices")


_ZEROS = [-0.0, 0.0, -0.0, 0.0, nan, 1.0, -1.0]
_BOUNDS = [0.0, -0.0, nan, -0.0, 0.0, 1.0, -2.0]


CASES = {
    # clamp's number bounds through c10's checked conversion: uint8 takes -1 as 255 and refuses
    # 256, float16 refuses 1e5; no bool kernel; a complex bound is refused by clamp_min/max too
    "clamp_uint8_negative_min": lambda lib: lib.clamp(lib.tensor([255, 2, 0], dtype=lib.uint8), -3, 2),
    "clamp_uint8_negative_max": lambda lib: lib.tensor([255, 2, 0], dtype=lib.uint8).clamp(max=-1),
    "clamp_uint8_overflow": lambda lib: lib.clamp(lib.tensor([2], dtype=lib.uint8), 0, 256),
    "clamp_min_int8_overflow": lambda lib: lib.clamp_min(lib.tensor([2], dtype=lib.int8), -129),
    "clamp_half_overflow": lambda lib: lib.clamp(lib.tensor([2.0], dtype=lib.float16), 1e5),
    "clamp_bool_bool": lambda lib: lib.clamp(lib.tensor([True, False]), True),
    "clamp_bool_int": lambda lib: lib.clamp(lib.tensor([True, False]), -1),
    "clamp_bool_tensors": lambda lib: lib.clamp(lib.tensor([True, False]), lib.tensor(True), lib.tensor(True)),
    "clamp_max_complex_bound": lambda lib: lib.clamp_max(lib.tensor([1.0]), 2 + 0j),
    # clamp as PyTorch's element-by-element kernel: std::min(std::max(x, lo), hi) keeps the
    # first operand's zero on a tie; lo > hi gives hi; nan anywhere is nan
    "clamp_min_tensor_ties": lambda lib: lib.clamp_min(lib.tensor(_ZEROS), lib.tensor(_BOUNDS)),
    "clamp_max_tensor_ties": lambda lib: lib.clamp_max(lib.tensor(_ZEROS), lib.tensor(_BOUNDS)),
    "clamp_tensor_ties": lambda lib: lib.clamp(lib.tensor(_ZEROS), lib.tensor(_BOUNDS), lib.tensor(_BOUNDS[::-1])),
    "clamp_min_only_tensor_ties": lambda lib: lib.clamp(lib.tensor(_ZEROS), min=lib.tensor(_BOUNDS)),
    "clamp_number_lo_above_hi": lambda lib: lib.clamp(lib.tensor([-0.0, 0.0, 2.0, -inf]), 1.0, 0.0),
    "clamp_number_zero_ties": lambda lib: lib.clamp(lib.tensor([-0.0, 0.0, -inf, inf]), -0.0, 0.0),
    "clamp_int_x_float_min": lambda lib: lib.clamp(lib.tensor([-0.0, 3.0]), lib.tensor([0.0, 1.0], dtype=lib.float32)),
    # clamp's forward-mode formulas (clamp_jvp): with one tensor bound a tie or nan x takes
    # the bound's tangent; clamp_min/clamp_max's: a nan x takes the bound's tangent
    "clamp_min_only_tangent": lambda lib: _tangent(lib, lambda L, x, lo: L.clamp(x, min=lo),
                                                   ([1.0, nan, 0.0, 2.0], [1.0, 2.0, 3.0, 4.0]),
                                                   ([1.0, 0.0, nan, 1.0], [10.0, 20.0, 30.0, 40.0])),
    "clamp_max_only_tangent": lambda lib: _tangent(lib, lambda L, x, hi: L.clamp(x, max=hi),
                                                   ([1.0, nan, 0.0, 2.0], [1.0, 2.0, 3.0, 4.0]),
                                                   ([1.0, 0.0, nan, 1.0], [10.0, 20.0, 30.0, 40.0])),
    "clamp_both_tangent": lambda lib: _tangent(lib, lambda L, x, lo, hi: L.clamp(x, lo, hi),
                                               ([1.0, nan, 0.0, 2.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0]),
                                               ([1.0, 0.0, nan, 3.0, 0.0], [10.0, 20.0, 30.0, 40.0, 50.0]),
                                               ([1.0, 1.0, 1.0, 1.0, nan], [100.0, 200.0, 300.0, 400.0, 500.0])),
    "clamp_min_nan_tangent": lambda lib: _tangent(lib, lambda L, x, lo: L.clamp_min(x, lo),
                                                  ([nan, 1.0, 0.0], [1.0, 2.0, 3.0]), ([0.0, 1.0, 1.0], [10.0, 20.0, 30.0])),
    "clamp_max_nan_tangent": lambda lib: _tangent(lib, lambda L, x, hi: L.clamp_max(x, hi),
                                                  ([nan, 1.0, 0.0], [1.0, 2.0, 3.0]), ([0.0, 1.0, -1.0], [10.0, 20.0, 30.0])),
    "clamp_lo_above_hi_grads": lambda lib: _grads(lib, lambda L, x, lo, hi: L.clamp(x, lo, hi),
                                                  _x(lib, 0.5, 3.0, -1.0), _x(lib, 2.0, 2.0, 2.0), _x(lib, 1.0, 1.0, 1.0)),
    # angle of a real -0. is 0 (x < 0 ? pi : 0); complex acos is pi/2 - asin(z): +0 imaginary parts
    "angle_negzero": lambda lib: lib.angle(lib.tensor([-0.0, 0.0, -1.0, nan, -inf])),
    "angle_negzero_float32": lambda lib: lib.angle(lib.tensor([-0.0, 0.0, -1.0, nan], dtype=lib.float32)),
    "acos_complex128_real_axis": lambda lib: lib.acos(lib.tensor([1 + 0j, -1 + 0j, 0.5 + 0j, complex(0.5, -0.0), -0j,
                                                                  2 + 0j, complex(-3, -1)], dtype=lib.complex128)),
    "acos_complex64_real_axis": lambda lib: lib.acos(lib.tensor([1 + 0j, -1 + 0j, 0.5 + 0j, complex(0.5, -0.0), -0j,
                                                                 2 + 0j, complex(-3, -1)], dtype=lib.complex64)),
    # hardsigmoid: PyTorch has no derivative of hardsigmoid_backward
    "hardsigmoid_grad2": lambda lib: _grads(lib, lambda L, x: F(L).hardsigmoid(x), _x(lib, -4.0, 0.5, 2.0)),
    "hardsigmoid_grad": lambda lib: _grads(lib, lambda L, x: F(L).hardsigmoid(x), _x(lib, -4.0, 0.5, 2.0, nan),
                                           create_graph=False),
    # softshrink inside [-lambd, lambd] is x * 0: a zero with x's sign
    "softshrink_signed_zeros": lambda lib: F(lib).softshrink(lib.tensor([-0.0, 0.0, -0.25, 0.25, 0.5, -0.5, nan])),
    # prelu checks as PyTorch orders them: dtypes, then (more than one weight) a 0-d input and the
    # channels, then the weight's dims, then the kernel's dtype
    "prelu_dtypes_before_dims": lambda lib: F(lib).prelu(lib.ones(4, 1), lib.ones(4, 1, dtype=lib.int8)),
    "prelu_0d_input": lambda lib: F(lib).prelu(lib.tensor(1.0), lib.ones(0, 0)),
    "prelu_channels_before_dims": lambda lib: F(lib).prelu(lib.ones(1, 2, 3), lib.ones(1, 2, 3)),
    "prelu_channels_before_kernel": lambda lib: F(lib).prelu(lib.ones(0, dtype=lib.complex64),
                                                             lib.ones(0, dtype=lib.complex64)),
    "prelu_bool_and_complex": lambda lib: F(lib).prelu(lib.ones(1, dtype=lib.bool), lib.tensor(1j)),
    "prelu_int_kernel": lambda lib: F(lib).prelu(lib.ones(2, dtype=lib.long), lib.ones(1, dtype=lib.long)),
    # past the first-order kernel (x > 0), PyTorch's formulas test x >= 0: 0 and -0 take the positive side
    "prelu_grad2_at_zero": lambda lib: _grads(lib, lambda L, x, w: F(L).prelu(x, w), _x(lib, 0.0, -0.0, 1.0, -2.0),
                                              _x(lib, -2.5)),
    "prelu_tangent_at_zero": lambda lib: _tangent(lib, lambda L, x, w: F(L).prelu(x, w),
                                                  ([0.0, -0.0, 1.0, -2.0], [1.0, 2.0, 3.0, 4.0]), ([118.5], [0.5])),
    # float16 pow with a number exponent calls pow (NumPy's ** would take sqrt: -0. and nan)
    "pow_half_sqrt": lambda lib: lib.tensor([-0.0, -inf, inf, -1e-30, 40.0, 2.0], dtype=lib.float16) ** 0.5,
    "pow_half_square": lambda lib: lib.tensor([-0.0, -inf, 3.0, 300.0], dtype=lib.float16) ** 2,
    # float16 softplus runs in float32, as PyTorch's: log1p(exp(20)) is 20, not inf
    "softplus_half": lambda lib: F(lib).softplus(lib.tensor([inf, 40.0, 20.0, 3.79, -0.31, -4.0, 10.5, 19.99],
                                                            dtype=lib.float16)),
    "softplus_half_beta": lambda lib: F(lib).softplus(lib.tensor([20.0, 1.4, 1.6, -3.0], dtype=lib.float16), 2.0, 3.0),
    # a view taken before its base was reshaped in place (unsqueeze_, t_, squeeze_) still
    # addresses the memory it saw: mul_ through it reaches the base and its gradient
    "view_of_base_unsqueezed": lambda lib: _view_of_reshaped_base(lib, lambda y: y.unsqueeze_(0), lambda y: y[1]),
    "view_of_base_transposed": lambda lib: _view_of_reshaped_base(lib, lambda y: y.t_(), lambda y: y[:, 1]),
    "view_of_base_twice": lambda lib: _view_of_reshaped_base(lib, lambda y: y.unsqueeze_(1).transpose_(0, 1),
                                                             lambda y: y[1:]),
    # in-place binary ops, comparisons and copy_ check shapes before dtypes and kernels
    # (PyTorch's TensorIterator: shapes, then types, then the kernel)
    "atan2_inplace_shape_first": lambda lib: lib.ones(1, dtype=lib.long).atan2_(lib.ones(2, dtype=lib.long)),
    "copysign_inplace_complex_shape_first": lambda lib: lib.tensor(1j).copysign_(lib.ones(3, dtype=lib.complex128)),
    "hypot_inplace_bool_shape_first": lambda lib: lib.ones(0, dtype=lib.long).hypot_(lib.ones(2, 0)),
    "true_divide_inplace_shape_first": lambda lib: lib.ones(0, dtype=lib.int32).true_divide_(lib.ones(3, 1, 0)),
    "ge_inplace_complex_shape_first": lambda lib: lib.tensor(1j).ge_(lib.ones(1, dtype=lib.complex128)),
    "gt_inplace_no_broadcast": lambda lib: lib.ones(2).gt_(lib.ones(3)),
    "copy_broadcast_shape": lambda lib: lib.tensor(True).copy_(lib.ones(1, 1, 1, dtype=lib.float64)),
    "copy_longer": lambda lib: lib.zeros(2, dtype=lib.complex128).copy_(lib.ones(3, 2, dtype=lib.uint8)),
    "copy_not_broadcastable": lambda lib: lib.zeros(2).copy_(lib.ones(3)),
    # an empty result divides nothing: no ZeroDivisionError
    "fmod_inplace_empty_int": lambda lib: lib.zeros(0, dtype=lib.long).fmod_(lib.zeros(1, dtype=lib.bool)),
    "floor_divide_empty_int": lambda lib: lib.zeros(0, 1, dtype=lib.long) // lib.zeros(3, dtype=lib.long),
    "remainder_empty_int": lambda lib: lib.remainder(lib.zeros(0, dtype=lib.int8), lib.zeros(1, dtype=lib.int8)),
    # c10's overflow check: no negative float for an unsigned type, no nan or inf for an integer one
    "fill_uint8_negative_float": lambda lib: lib.zeros(2, 1, 0, dtype=lib.uint8).fill_(-1.0),
    "fill_uint8_negative_int": lambda lib: lib.zeros(2, dtype=lib.uint8).fill_(-1),
    "fill_uint8_above_max_float": lambda lib: lib.zeros(2, dtype=lib.uint8).fill_(255.5),
    "full_int_nan": lambda lib: lib.full((2,), nan, dtype=lib.int32),
    "fill_int_inf": lambda lib: lib.zeros(2, dtype=lib.long).fill_(inf),
    "threshold_uint8_negative_value": lambda lib: F(lib).threshold(lib.zeros(1, dtype=lib.uint8), 0.1, -2.0,
                                                                   inplace=True),
    "threshold_float32_overflow": lambda lib: F(lib).threshold(lib.zeros(1), 1e300, 2.0),
    "threshold_half_overflow": lambda lib: F(lib).threshold(lib.zeros(1, dtype=lib.float16), 1.0, 1e5),
    "threshold_inplace_complex": lambda lib: F(lib).threshold(lib.ones(1, dtype=lib.complex64), 0.1, -2.0, inplace=True),
    # hardtanh on uint8 checks the limits as integers (toLong): -0.5 is 0
    "hardtanh_uint8_truncated_limit": lambda lib: F(lib).hardtanh(lib.tensor([14, 175, 0], dtype=lib.uint8), -0.5, 1.5),
    "hardtanh_uint8_negative_limit": lambda lib: F(lib).hardtanh(lib.tensor([14], dtype=lib.uint8), -1.0, 1.5),
    # clamp_min/clamp_max with a tensor bound: their kernel (maximum, minimum) names the promoted dtype
    "clamp_min_complex_tensor_bound": lambda lib: lib.clamp_min(lib.ones(2, dtype=lib.complex64), lib.ones(2).double()),
    "clamp_max_complex_tensor_bound": lambda lib: lib.clamp_max(lib.ones(2, dtype=lib.complex64), lib.ones(2)),
    "clamp_min_complex_empty": lambda lib: lib.clamp_min(lib.ones(0, dtype=lib.complex128), lib.ones(1, 0)),
    "clamp_complex_tensor_bound": lambda lib: lib.clamp(lib.ones(2, dtype=lib.complex64), min=lib.ones(2)),
    # alpha * other in the result's dtype (uint8 2 * 255 is 510 in an int32 or float result)
    "add_alpha_uint8_0d": lambda lib: lib.add(lib.tensor([6, 15767641], dtype=lib.int32), lib.tensor(255, dtype=lib.uint8),
                                              alpha=2),
    "sub_alpha_uint8_0d": lambda lib: lib.sub(lib.tensor([6, 156], dtype=lib.int32), lib.tensor(255, dtype=lib.uint8),
                                              alpha=2),
    "sub_alpha_int8_result": lambda lib: lib.sub(lib.tensor([6], dtype=lib.int8), lib.tensor(255, dtype=lib.uint8),
                                                 alpha=2),
    "sub_alpha_float_result": lambda lib: lib.sub(lib.tensor([6.0]), lib.tensor(255, dtype=lib.uint8), alpha=2),
    "add_alpha_float_result": lambda lib: lib.add(lib.tensor([6.0]), lib.tensor([255], dtype=lib.uint8), alpha=2),
    # clamp with one tensor bound: the missing one is the result dtype's extreme; integer
    # operands are read in the result dtype (an int8 0-d max of -3 for uint8 x is 253)
    "clamp_int8_x_int64_min": lambda lib: lib.clamp(lib.tensor([127, 116], dtype=lib.int8), min=lib.tensor([2 ** 62, 3])),
    "clamp_uint8_x_int8_0d_max": lambda lib: lib.clamp(lib.tensor([1, 2], dtype=lib.uint8), max=lib.tensor(-3, dtype=lib.int8)),
    "clamp_max_uint8_x_int8_0d": lambda lib: lib.clamp_max(lib.tensor([1, 2], dtype=lib.uint8), lib.tensor(-3, dtype=lib.int8)),
    "clamp_min_uint8_x_int8_0d": lambda lib: lib.clamp_min(lib.tensor([1, 2], dtype=lib.uint8), lib.tensor(-3, dtype=lib.int8)),
    # copysign's gradient for other is zeros of other's dtype (in place on float32 too)
    "copysign_inplace_other_grad_dtype": lambda lib: _grads(
        lib, lambda L, x, y: (x * 1).copysign_(y), _x(lib, 0.0, 1.0, dtype="float32"), _x(lib, -0.5, 2.0)),
    # hypot's gradient g * x / hypot in PyTorch's order: its second derivative cancels exactly
    "hypot_grad2_tiny": lambda lib: _grads(lib, lambda L, x, y: L.hypot(x, y), _x(lib, -0.0, 0.5), _x(lib, 1e-30, -2.9)),
    # torch.rsub: other - alpha * input
    "rsub_number": lambda lib: lib.rsub(lib.tensor([1.0, 2.0]), 3),
    "rsub_tensor_alpha": lambda lib: _grads(lib, lambda L, x, y: L.rsub(x, y, alpha=2), _x(lib, 1.0, 2.0), _x(lib, 3.0, 1.0)),
    "rsub_number_alpha": lambda lib: _grads(lib, lambda L, x: L.rsub(x, 3, alpha=2), _x(lib, 1.0, 2.0)),
    "rsub_int_float_alpha": lambda lib: lib.rsub(lib.tensor([1]), 2.5, alpha=2.5),
    "rsub_int_alpha_float_refused": lambda lib: lib.rsub(lib.tensor([1]), 2, alpha=2.5),
    "rsub_bools": lambda lib: lib.rsub(lib.tensor([True]), True),
    "rsub_number_first": lambda lib: lib.rsub(3, lib.tensor([1.0])),
    "rsub_uint8_alpha": lambda lib: lib.rsub(lib.tensor([1], dtype=lib.uint8), lib.tensor([3]), alpha=2),
    # clamp's missing bound in a float result is inf, whatever x's dtype
    "clamp_int8_x_float_min": lambda lib: lib.clamp(lib.tensor([127, 3], dtype=lib.int8), min=lib.tensor([1e30, inf])),
    "clamp_bool_x_int_min": lambda lib: lib.clamp(lib.tensor([True, False]), min=lib.tensor([5, 0])),
    "clamp_half_x_0d_min": lambda lib: lib.clamp(lib.tensor([1.0, 2.0], dtype=lib.float16), min=lib.tensor(1e30)),
    # pow of two tensors is C's pow: pow(-0., 0.5) is 0., pow(-inf, 0.5) is inf (NumPy's sqrt: -0., nan)
    "pow_tensor_half_exponent_0d": lambda lib: lib.tensor([-0.0, -inf, 4.0]) ** lib.tensor(0.5),
    "pow_tensor_half_exponent": lambda lib: lib.pow(lib.tensor([-0.0, -inf, 4.0], dtype=lib.float64),
                                                    lib.tensor([0.5, 0.5, 2.0], dtype=lib.float64)),
    "pow_0d_0d": lambda lib: lib.tensor(-inf) ** lib.tensor(0.5),
    # in place, TensorIterator's output shape check comes before the kernel's dtype check
    "lerp_inplace_shape_first": lambda lib: lib.tensor(-62).lerp_(lib.zeros(0, 2, dtype=lib.int64), 0.5),
    "lerp_inplace_end_dtype_first": lambda lib: lib.tensor(-3.875 + 1e-30j).lerp_(lib.zeros(0, 0), 0.5),
    "addcmul_inplace_shape_first": lambda lib: lib.tensor([True]).addcmul_(lib.zeros(2, 2), lib.zeros(2, 2)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome(name):
    torch = require_torch()
    assert outcome(CASES[name], chainrule) == outcome(CASES[name], torch)


def test_vectorised_loop_differs():
    """PyTorch's vectorised CPU loop (contiguous, 16 elements) answers a nan's gradient and a
    zero tie otherwise than its element-by-element kernel, which chainrule follows at every size
    (docs/differences.md): the deliberate rule in tests/fuzz/known_classes.py."""
    torch = require_torch()
    for lib in (chainrule, torch):
        x = lib.full((16,), nan, dtype=lib.float64, requires_grad=True)
        g, = lib.autograd.grad(F(lib).hardtanh(x).sum(), x)
        small = lib.full((2,), nan, dtype=lib.float64, requires_grad=True)
        g_small, = lib.autograd.grad(F(lib).hardtanh(small).sum(), small)
        if lib is chainrule:
            assert g.tolist() == [1.0] * 16 and g_small.tolist() == [1.0] * 2
        else:
            assert g.tolist() == [0.0] * 16 and g_small.tolist() == [1.0] * 2
    assert np.signbit(chainrule.clamp_min(chainrule.zeros(40), -chainrule.zeros(40)).numpy()).sum() == 0


def test_sinc_second_derivative_near_zero():
    """sinc's gradient near 0 is its series (PyTorch's formula cancels there: float32
    sinc'' of 1e-8 is 0 in PyTorch); chainrule's matches the calculus, -pi^2/3 at 0."""
    xs = [0.0, 1e-30, 1e-8, 1e-4, 0.01, 0.1, 0.16, 0.5, -0.3]
    for dtype in (chainrule.float64, chainrule.float32):
        x = chainrule.tensor(xs, dtype=dtype, requires_grad=True)
        g, = chainrule.autograd.grad(chainrule.sinc(x).sum(), x, create_graph=True)
        h, = chainrule.autograd.grad(g.sum(), x)
        t = np.pi * np.array(xs, dtype=str(dtype).split(".")[-1]).astype(float)
        with np.errstate(all="ignore"):
            exact = np.where(t == 0, -np.pi ** 2 / 3, np.pi ** 2 * ((2 - t * t) * np.sin(t) - 2 * t * np.cos(t)) / t ** 3)
        near = np.abs(t) < 0.05
        exact[near] = np.pi ** 2 * (-1 / 3 + t[near] ** 2 / 10 - t[near] ** 4 / 168)  # its series where it cancels
        np.testing.assert_allclose(h.numpy(), exact, rtol=1e-5 if dtype == chainrule.float32 else 1e-10)


def test_mish_second_derivative_where_exp_overflows():
    """PyTorch's double backward of mish differentiates log1p(exp(x)): nan where exp(x) is inf;
    the derivative is 0 there (docs/differences.md)."""
    torch = require_torch()
    seconds = []
    for lib in (chainrule, torch):
        x = lib.tensor([100.0, 2.0], requires_grad=True)
        g, = lib.autograd.grad(F(lib).mish(x).sum(), x, create_graph=True)
        seconds.append(lib.autograd.grad(g.sum(), x)[0].tolist())
    assert seconds[0][0] == 0.0 and np.isnan(seconds[1][0])
    assert abs(seconds[0][1] - seconds[1][1]) < 1e-6


def _atan2_second_order(lib):
    """atan2's backward fills 1 / (x^2 + y^2) with 0 at the origin: the gradient is 0 there,
    the second derivative nan (through the 1/0 underneath), the cross term 0."""
    x = lib.tensor([-0.0, 0.0, 1.5, 0.0], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([0.0, 0.0, -2.0, 3.0], dtype=lib.float64, requires_grad=True)
    gx, gy = lib.autograd.grad(lib.atan2(x, y).sum(), (x, y), create_graph=True)
    second = lib.autograd.grad((gx * lib.arange(1.0, 5.0, dtype=lib.float64)).sum() + gy.sum(), (x, y))
    return [str(round(v, 12)) for t in (gx, gy, *second) for v in t.tolist()]  # (round keeps -0 and nan)


def test_atan2_second_derivative_at_the_origin():
    torch = require_torch()
    assert _atan2_second_order(chainrule) == _atan2_second_order(torch)


def _div_tangent(lib, x, y):
    """PyTorch's tangent of x / y when both have one: (tx - ty * x / y) / y."""
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        a = fw.make_dual(lib.tensor(x, dtype=lib.float64), lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64))
        b = fw.make_dual(lib.tensor(y, dtype=lib.float64), lib.tensor([0.25, 1.0, -3.0], dtype=lib.float64))
        return [str(v) for v in fw.unpack_dual(a / b).tangent.tolist()]


@pytest.mark.parametrize("x, y", [([0.5, 0.5, inf], [0.0, -0.0, 0.0]), ([1.0, -2.0, 3.0], [2.0, 4.0, -0.5])])
def test_div_tangent_with_both_tangents(x, y):
    torch = require_torch()
    assert _div_tangent(chainrule, x, y) == _div_tangent(torch, x, y)


LOG1P_COMPLEX = [complex(a, b) for a in (0.0, -0.0, 1e-30, -1e-30, 1e-10, -0.5, -1.0, 2.0, inf, nan)
                 for b in (0.0, -0.0, 1e-30, -3e-8, 1.0, -inf)]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_log1p_keeps_small_parts_and_zero_signs(dtype):
    """PyTorch's complex log1p is Kahan's log(u) * z / (u - 1): log1p(1e-30 + 0j) is 1e-30
    (NumPy's is 0), and a zero part keeps its sign."""
    torch = require_torch()
    ours, theirs = (lib.tensor(LOG1P_COMPLEX, dtype=getattr(lib, dtype)).log1p().numpy() for lib in (chainrule, torch))
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=0)
    finite = np.isfinite(theirs)
    assert (np.signbit(ours.real) == np.signbit(theirs.real))[finite].all()
    assert (np.signbit(ours.imag) == np.signbit(theirs.imag))[finite].all()


@pytest.mark.parametrize("dtype, values, decimals", [
    ("float16", [6688.0, 0.35, 1.25, 65000.0, inf, nan], 1), ("float16", [6688.0, 6650.0, 15.0], -1),
    ("float32", [3e37, 0.125, 2.675, 1e-40], 2)])
def test_round_decimals_in_the_op_math_type(dtype, values, decimals):
    """float16 is rounded in float32: 6688 to one decimal is 6688, not inf (x * 10 overflowing)."""
    torch = require_torch()
    ours, theirs = (lib.tensor(values, dtype=getattr(lib, dtype)).round(decimals=decimals).numpy()
                    for lib in (chainrule, torch))
    assert ours.tobytes() == theirs.tobytes(), (ours, theirs)


def test_deliberate_atan2_gradient_with_a_bool_operand():
    """PyTorch's backward negates the bool operand and raises; chainrule gives the derivative,
    the same as with the bool promoted to float64 first (docs/differences.md)."""
    torch = require_torch()

    def grad(lib, promote):
        b, x = lib.tensor([True, False]), lib.tensor([0.5, 2.0], dtype=lib.float64, requires_grad=True)
        return lib.autograd.grad(lib.atan2(b.double() if promote else b, x).sum(), x)[0]
    assert outcome(lambda L: grad(L, False), torch)[0] == "error"
    assert outcome(lambda L: grad(L, False), chainrule) == outcome(lambda L: grad(L, True), torch)


def test_sinc_second_derivative_far_from_zero_in_float32():
    """The near-zero series is evaluated only near zero: at -2^31 its float32 overflow must not
    leak a nan (0 * inf) into the second derivative."""
    torch = require_torch()

    def second(lib):
        x = lib.tensor([-2147483648.0, 1.25, 3e9], requires_grad=True)
        g, = lib.autograd.grad(lib.sinc(x).sum(), x, create_graph=True)
        return lib.autograd.grad(g.sum(), x)[0].numpy()
    np.testing.assert_allclose(second(chainrule), second(torch), rtol=1e-5)


def test_vectorised_complex_sgn_of_an_infinite_part_differs():
    """PyTorch's vectorised sgn divides part by part (3 - inf j: 0 + nan j), its element-by-element
    kernel as complex numbers (nan + nan j), which chainrule gives at every size."""
    torch = require_torch()
    z = complex(3.0, -inf)
    big, small = (torch.full((16,), z, dtype=torch.complex128).sgn()[0].item(),
                  torch.full((1,), z, dtype=torch.complex128).sgn()[0].item())
    ours = chainrule.full((16,), z, dtype=chainrule.complex128).sgn()[0].item()
    assert big.real == 0 and np.isnan(small.real) and np.isnan(ours.real) and np.isnan(ours.imag)


@pytest.mark.parametrize("call", ["div_floor", "floor_divide", "operator"])
def test_integer_minimum_divided_by_minus_one_wraps_silently(call):
    """PyTorch's floor division of int64's minimum by -1 wraps to the minimum and warns of
    nothing (its trunc division traps: the fuzzer skips it)."""
    torch = require_torch()
    results = []
    for lib in (chainrule, torch):
        a, b = lib.tensor([-9223372036854775808, 7]), lib.tensor([-1, -1])
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = {"div_floor": lambda: lib.div(a, b, rounding_mode="floor"), "floor_divide": lambda: lib.floor_divide(a, b),
                   "operator": lambda: a // -1}[call]()
        results.append(out.tolist())
    assert results[0] == results[1]
