"""Issue 10's classes in special functions, reductions, scans, sorting and quantiles, found
by the long fuzz run (tests/fuzz): each program runs on chainrule and on PyTorch and gives
the same result or the same error (type name and first line)."""
import math

import pytest

import chainrule
from helpers import outcome, require_torch, leaf as _x, grads as _grads

pytestmark = pytest.mark.torch

nan, inf = float("nan"), float("inf")





def _weighted_grads(lib, fn, x, create_graph=True):
    """fn's vector-Jacobian product at x (fixed upstream weights) and, with create_graph, the
    second derivative of sum(gradient * other weights)."""
    y = fn(lib, x)
    w = lib.linspace(-1.5, 2.0, y.numel(), dtype=y.dtype).reshape(y.shape)
    g, = lib.autograd.grad(y, x, w, create_graph=create_graph)
    if not create_graph:
        return g
    h, = lib.autograd.grad((g * lib.linspace(0.5, -2.0, g.numel(), dtype=g.dtype).reshape(g.shape)).sum(), x,
                           allow_unused=True)
    return g, h


_PROD_VALUES = (1e-30, -2.455078125, 1e-200, 2.91796875, 0.0, 0.0, -inf, 1.896484375, -0.0, 0.5, 1e-200, 6.0, -40.0,
                1.7041015625, 2.88671875, inf, 2.01953125, 3.0, -3.708984375, 0.0, -0.99951171875, 6.0, -0.0, 2.826171875)


def _tangent(lib, fn, x, t):
    fwd = lib.autograd.forward_ad
    with fwd.dual_level():
        return fwd.unpack_dual(fn(lib, fwd.make_dual(x, t))).tangent


def _joint_tangent(lib, fn, x, y):
    fwd = lib.autograd.forward_ad
    with fwd.dual_level():
        x = fwd.make_dual(lib.tensor(x, dtype=lib.float64), lib.ones(len(x), dtype=lib.float64))
        y = fwd.make_dual(lib.tensor(y, dtype=lib.float64), lib.full((len(y),), 2.0, dtype=lib.float64))
        return fwd.unpack_dual(fn(lib, x, y)).tangent


def _commuted_complex_products(lib):
    a = lib.tensor([-2 - 2.609375j, 1.2e18 - 8.5e18j, 3 + 1e30j] * 6, dtype=lib.complex64)
    b = lib.tensor([-0.69 + 1e30j, 1.2e18 - 8.5e18j, -7 + 0.5j] * 6, dtype=lib.complex64)
    # (b ** 3 is x * x * x in PyTorch's vectorised loop, -inf + nan j here, but not in its last
    # elements of 18: the loop's own inconsistency)
    return a * b - b * a, a * b, b ** 2, b[:1] ** 3


CASES = {
    # complex products as PyTorch's: each part's products rounded on their own (NumPy fuses
    # one into the other's sum), so a * b - b * a is 0 and inf - inf stays nan
    "complex_products_commute": _commuted_complex_products,
    # complex x ** 2 and x ** 3 element by element as PyTorch compiles c10::complex's product:
    # fused multiply-adds (the square overflows to -inf - inf j, not nan - inf j; an
    # underflowing cube keeps its signs), the cube's last product unfused in complex64
    "complex_square_fused": lambda lib: (lib.tensor([4.000000060189865e+29 - 8.00000012037973e+29j], dtype=lib.complex64) ** 2,
                                         lib.tensor([1e200 + 3e200j, -2e160 + 1e-3j], dtype=lib.complex128) ** 2),
    # an integer input to i0 and i1 is computed in the default dtype: float32's exp overflows past 88.72
    "bessel_of_integers_in_float32": lambda lib: (lib.special.i1(lib.tensor([0, 89, 90], dtype=lib.uint8)),
                                                  lib.i0(lib.tensor([-90, 100], dtype=lib.int64))),
    # asinh's, atanh's, erf's and erfc's derivatives square by pow, as PyTorch's: the double
    # backward's 2 x overflows at the largest float (nan); acosh's squares by x * x (no nan)
    **{f"{op}_grad2_at_largest": lambda lib, op=op: _grads(
        lib, lambda L, x: getattr(L, op)(x), _x(lib, 1.7976931348623157e+308, -1.7976931348623157e+308, 0.5, 2.0))
       for op in ("asinh", "atanh", "acosh", "erf", "erfc")},
    # the std of equal float64 values is 0 (its mean corrected by the deviations' mean, as
    # PyTorch's exact sum of them): no gradient from rounding
    "std_of_equal_values": lambda lib: (
        _grads(lib, lambda L, x: x.std(), _x(lib, *[1.1547005383792517] * 12).reshape(3, 4)),
        _grads(lib, lambda L, x: x.var(1), _x(lib, *[1.1547005383792517] * 12).reshape(3, 4)),
        _tangent(lib, lambda L, x: x.std(), _x(lib, *[1.1547005383792517] * 12), lib.ones(12, dtype=lib.float64))),
    # ... but not where an infinite element makes the correction inf - inf: x - inf is -inf
    "var_grad_with_inf": lambda lib: (
        _grads(lib, lambda L, x: x.var(), _x(lib, 1.0, inf, 2.0, 2.0), create_graph=False),
        _grads(lib, lambda L, x: x.var(1), _x(lib, 1.0, inf, 2.0, 2.0).reshape(2, 2), create_graph=False)),
    # pow's exponent gradient takes log of the base in the result's dtype: a float16 base under a
    # float32 exponent is logged in float32
    "pow_exponent_grad_float16_base": lambda lib: _grads(
        lib, lambda L, y: L.tensor(1.30859375, dtype=L.float16) ** y, _x(lib, 2.984375, dtype="float32").reshape(())),
    # atan2's tangent from both operands as PyTorch's one quotient (-x t_y + y t_x) / (x^2 + y^2):
    # -inf where x^2 + y^2 underflows, not 0/0 + inf
    "atan2_joint_tangent": lambda lib: _joint_tangent(lib, lambda L, x, y: L.atan2(x, y), (1e-200, 2.0), (0.0, 1.0)),
    # hypot's likewise, (x t_x + y t_y) / hypot: its sum overflows at the largest float
    "hypot_joint_tangent": lambda lib: _joint_tangent(lib, lambda L, x, y: L.hypot(x, y), (0.5, 3.0),
                                                      (1.7976931348623157e+308, 4.0)),
    # logcumsumexp's gradient as PyTorch's: the absent part of the signed split filled in before
    # the shift, so lowest - 1.8e308 is -inf (at the largest float the gradient is 1, not 0)
    "logcumsumexp_grad_at_largest": lambda lib: _grads(lib, lambda L, x: x.logcumsumexp(1), _x(
        lib, 0.0, -0.4755859375, -40.0, -20.0, -1e-30, -0.5, -0.1552734375, 1.7976931348623157e+308).reshape(2, 2, 2),
        create_graph=False),
    # float16 logsigmoid in float32: at 100, -3.7e-44 rounds to -0.
    "logsigmoid_float16": lambda lib: lib.nn.functional.logsigmoid(
        lib.tensor([100.0, 10.0, -3.0, 0.0, 20.0, -100.0, 65504.0], dtype=lib.float16)),
    # float16 sinc in float32, PyTorch's opmath: pi x of -65504 overflows float16 (nan)
    "sinc_float16": lambda lib: lib.sinc(lib.tensor([0.0, -65504.0, 0.5, 3000.0], dtype=lib.float16)),
    "complex_cube_fused": lambda lib: (lib.tensor([5.4959002e+14 - 7.3654965e+14j], dtype=lib.complex64) ** 3,
                                       lib.tensor([8.54828171e-161 - 8.77117816e-161j], dtype=lib.complex128) ** 3,
                                       lib.tensor([0.3 - 1.7j, 2e100 + 1e-3j], dtype=lib.complex128) ** -2),
    # quantile checks the interpolation and a number q first, q's values after wrapping the dim
    "quantile_q_values_after_dim": lambda lib: lib.quantile(lib.tensor(0.0), lib.tensor(-20.0), 1),
    "nanquantile_q_values_after_dim": lambda lib: lib.nanquantile(lib.tensor(1.0), lib.tensor(inf), 1),
    "quantile_interpolation_before_empty": lambda lib: lib.quantile(lib.zeros(0), 0.5, interpolation="x"),
    "quantile_interpolation_before_dtype": lambda lib: lib.quantile(lib.zeros(3, dtype=lib.int64), 0.5,
                                                                    interpolation="x"),
    "quantile_q_number_as_cpp_prints": lambda lib: lib.quantile(lib.tensor(0.0), 2.0, 1),
    # a sequence of one NaN: PyTorch's binary search (NaN compares false), not NumPy's order
    "searchsorted_lone_nan": lambda lib: lib.searchsorted(lib.tensor([nan]), lib.tensor(0.0)),
    "searchsorted_lone_nan_right": lambda lib: lib.searchsorted(lib.tensor([nan]), lib.tensor([3.25]), right=True),
    "bucketize_lone_nan": lambda lib: lib.bucketize(lib.tensor([0.0, nan]), lib.tensor([nan])),
    # mvlgamma adds x - j/2 in x's dtype before lgamma: near a pole that rounding shows
    "mvlgamma_shift_rounds_float32": lambda lib: lib.mvlgamma(lib.tensor([-4.818861043531797e-07, -2.5519916562188882e-06,
                                                                          -0.0040933201, 1.2, 3.5]), 3),
    "mvlgamma_int": lambda lib: lib.mvlgamma(lib.tensor([1, 2, 3, -4]), 2),
    # prod's and cumprod's gradients as PyTorch writes them: shifted cumprods that hold only
    # the elements they keep, masks before products (an inf left out gives no nan), zeros
    # for a whole product with two zeros, the conjugate slope for complex input
    "prod_grad2_inf_dtype": lambda lib: _weighted_grads(lib, lambda L, x: x.prod(dtype=L.float32),
                                                        _x(lib, inf, 0.0, 1e-200, 130.46875).reshape(4, 1, 1)),
    "prod_dim_grad2_nan": lambda lib: _weighted_grads(lib, lambda L, x: x.prod(-1), _x(
        lib, -0.01263427734375, -inf, nan, 0.0, dtype="float32").reshape(2, 2)),
    **{f"prod_cumprod_grad2_dim{d}": lambda lib, d=d: (
        _weighted_grads(lib, lambda L, x: x.prod(d), _x(lib, *_PROD_VALUES).reshape(4, 2, 3)),
        _weighted_grads(lib, lambda L, x: x.cumprod(d), _x(lib, *_PROD_VALUES).reshape(4, 2, 3)))
       for d in range(3)},
    "cumprod_grad2_inf_float32": lambda lib: _weighted_grads(lib, lambda L, x: x.cumprod(0), _x(
        lib, 0.93115234375, 40.0, -1.0, -inf, -40.0, 0.5, -3.0, 0.0, dtype="float32").reshape(4, 2)),
    "prod_two_zeros_no_graph": lambda lib: _weighted_grads(lib, lambda L, x: x.prod(), _x(
        lib, inf, 0.0, 0.0, 3.0, 1e-200, -0.05).reshape(2, 3), create_graph=False),
    "prod_complex_grad": lambda lib: _weighted_grads(lib, lambda L, x: x.prod(), _x(
        lib, 1 + 2j, 0.5 - 1j, 3j, 2 + 0j, dtype="complex128").reshape(2, 2)),
    "prod_dim_complex_grad_zero": lambda lib: _weighted_grads(lib, lambda L, x: x.prod(1), _x(
        lib, 1 + 2j, 0.5 - 1j, 0j, 2 + 0j, dtype="complex128").reshape(2, 2)),
    "cumprod_complex_grad": lambda lib: _weighted_grads(lib, lambda L, x: x.cumprod(1), _x(
        lib, 1 + 2j, 0.5 - 1j, 0j, 2 + 0j, 1j, -1 + 0j, dtype="complex128").reshape(2, 3), create_graph=False),
    # complex cumprod runs from 1 + 0j: 1 * (3 + inf j) is nan + inf j, 1 * (3 - 0j) is 3 + 0j
    "cumprod_complex_from_one": lambda lib: lib.tensor([[3 + inf * 1j, -0.0 + 1.896484375j]],
                                                        dtype=lib.complex64).cumprod(1),
    "cumprod_complex_negzero": lambda lib: lib.tensor([[3 - 0j]], dtype=lib.complex64).cumprod(1),
    # an in-place op checks the broadcast shape before the result's dtype (TensorIterator's order)
    "xlogy_inplace_shape_before_cast": lambda lib: lib.tensor(3, dtype=lib.int32).xlogy_(
        lib.tensor([[-0.6, -1.3]], dtype=lib.float16)),
    "add_inplace_shape_before_cast": lambda lib: lib.tensor([3], dtype=lib.int32).add_(
        lib.tensor([[-0.6, -1.3]], dtype=lib.float16)),
    "mul_inplace_no_broadcast_before_cast": lambda lib: lib.tensor([3, 4], dtype=lib.int32).mul_(
        lib.tensor([1.5, 2, 3], dtype=lib.float16)),
    # logcumsumexp: its gradient leaves elements out with the dtype's lowest number (PyTorch's;
    # -1e4 vanished next to a shift of 1e30); its tangent takes a max along the dim (an empty
    # dim raises); complex input runs PyTorch's complex log-add-exp from -inf + 0j
    "logcumsumexp_grad_huge_shift": lambda lib: _weighted_grads(lib, lambda L, x: x.logcumsumexp(1), _x(
        lib, -1e30, -0.0, -0.0, dtype="float32").reshape(1, 3, 1)),
    "logcumsumexp_tangent_empty_dim": lambda lib: _tangent(lib, lambda L, x: x.logcumsumexp(1), _x(lib).reshape(1, 0),
                                                           lib.zeros(1, 0, dtype=lib.float64)),
    "logcumsumexp_tangent_empty_other_dim": lambda lib: _tangent(
        lib, lambda L, x: x.logcumsumexp(1), _x(lib).reshape(0, 3), lib.zeros(0, 3, dtype=lib.float64)),
    "logcumsumexp_complex": lambda lib: lib.tensor([[2 + 20j, complex(-0.0, inf), -2 + 0.5j, -1.86 + 3j]],
                                                   dtype=lib.complex128).logcumsumexp(1),
    "logcumsumexp_complex64_huge": lambda lib: lib.tensor([20 + 4j, 6 - 0.17j, -1e30 + 1e-30j, complex(-0.0, -3.72)],
                                                          dtype=lib.complex64).reshape(4, 1, 1).logcumsumexp(0),
    "logcumsumexp_complex_signed_zeros": lambda lib: lib.tensor([complex(-0.0, -1e30), 40 - 2j, complex(inf, -0.0)],
                                                                dtype=lib.complex128).logcumsumexp(0),
    "logcumsumexp_complex_infinities": lambda lib: lib.tensor([inf + 1j, complex(inf, -inf), -0.66 - 0.33j],
                                                              dtype=lib.complex64).logcumsumexp(0),
    "logcumsumexp_complex_grad": lambda lib: _weighted_grads(lib, lambda L, x: x.logcumsumexp(0), _x(
        lib, 1 + 2j, -0.5 + 1j, 3 - 1j, dtype="complex128"), create_graph=False) * 1,
    # complex logsumexp shifts by the largest real part
    "logsumexp_complex_shift_by_real_part": lambda lib: lib.logsumexp(lib.tensor(-1e30j, dtype=lib.complex64), 0, True),
    "logsumexp_complex_rows": lambda lib: lib.logsumexp(lib.tensor([[1 + 2j, inf - 1j], [-2 + 5j, complex(-inf, 0)]]), 1),
    # the median of the whole tensor with +0 and -0 tied: the zero std::nth_element leaves at
    # k, over the elements in memory order
    "nanmedian_signed_zero_tie": lambda lib: lib.tensor([2.947265625, -0.0, 0.0, -0.5]).reshape(2, 1, 2).nanmedian(),
    "median_signed_zero_tie": lambda lib: lib.tensor([0.0, -0.0, 1.0, -0.0, 0.0, -1.0, 0.0]).median(),
    "median_signed_zero_tie_transposed": lambda lib: lib.tensor([[0.0, -0.0, 1.0], [-0.0, 0.0, -1.0]]).T.median(),
    "nanmedian_signed_zero_tie_nan": lambda lib: lib.tensor([-0.0, -0.0, 2.0, 1.0, -0.0, nan, -0.0, 1.0, -1.0, -1.0,
                                                             0.0]).nanmedian(),
    # complex std: the variances of the real and imaginary parts rounded, added, then the root
    "std_complex64_overflows_as_pytorch": lambda lib: lib.tensor([-1.4 + 20j, 1e30 - 2.3j, complex(-0.0, 1e30), 1 + 3.9j],
                                                                 dtype=lib.complex64).std(correction=2),
    # histc in PyTorch's order: bins, the range (aminmax: none for complex), its checks, the
    # edges as a linspace in the input's dtype (none for bool, checked for integers), the kernel
    "histc_inf_range_steps_to_max": lambda lib: lib.tensor(inf).histc(),
    "histc_minus_inf_range": lambda lib: lib.tensor([-inf], dtype=lib.float64).histc(),
    "histc_nan_range_of_two": lambda lib: lib.tensor([1.0, nan]).histc(),
    "histc_nan_range_of_one": lambda lib: lib.tensor([nan]).histc(),
    "histc_negative_nan": lambda lib: (-lib.tensor(nan)).histc(),
    "histc_uint8_edges_overflow": lambda lib: lib.tensor([1, 16], dtype=lib.uint8).histc(3, -1, 1),
    "histc_uint8_empty_edges_overflow": lambda lib: lib.zeros(0, dtype=lib.uint8).histc(4),
    "histc_int_range_checked_first": lambda lib: lib.tensor([1, 2]).histc(4, nan, 1),
    "histc_bool_after_range": lambda lib: lib.tensor([True, False]).histc(4, 2, 1),
    "histc_bool_linspace": lambda lib: lib.tensor([True, False]).histc(4, 1, 2),
    "histc_complex_aminmax": lambda lib: lib.tensor([1j, 2]).histc(4),
    "histc_complex_empty": lambda lib: lib.zeros(0, dtype=lib.complex64).histc(4),
    "histc_int_inf_edges": lambda lib: lib.zeros(0, dtype=lib.uint8).histc(4, inf, inf),
    # unique(dim): PyTorch's std::sort of the slices (a NaN compares false), each kept unless
    # == the last kept (NaNs stay apart, -0. and 0. merge into the first)
    "unique_dim_nans": lambda lib: lib.unique(lib.tensor([nan, nan, nan, nan]), return_inverse=True,
                                              return_counts=True, dim=0),
    "unique_dim_nan_and_zeros": lambda lib: lib.unique(lib.tensor([nan, 0.0, -0.0, nan, 2.0]), return_inverse=True,
                                                       return_counts=True, dim=0),
    "unique_dim_rows_with_nan": lambda lib: lib.unique(lib.tensor([[nan, 1.0], [nan, 1.0], [0.0, 1.0]]),
                                                       return_inverse=True, return_counts=True, dim=0),
    "unique_dim_columns_with_nan": lambda lib: lib.unique(lib.tensor([[nan, 1.0], [nan, 1.0], [0.0, 1.0]]),
                                                          return_inverse=True, return_counts=True, dim=1),
    # logaddexp's slopes take other - self of the operands as given: with a bool one, the
    # error of bool subtraction (gradient and tangent); the forward is fine
    **{f"{op}_bool_operand_{stage}": lambda lib, op=op, stage=stage: (
        _weighted_grads(lib, lambda L, x: getattr(L, op)(x, L.tensor([True, False])), _x(lib, 0.0, 1.5),
                        create_graph=False)
        if stage == "grad" else _tangent(lib, lambda L, x: getattr(L, op)(L.tensor([True, False]), x),
                                         lib.tensor([0.0, 1.5], dtype=lib.float64), lib.ones(2, dtype=lib.float64)))
       for op in ("logaddexp", "logaddexp2") for stage in ("grad", "jvp")},
    "logaddexp_bool_operand_forward": lambda lib: lib.logaddexp(lib.tensor([0.0, 1.5]), lib.tensor([True, False])),
    "xlogy_inplace_shape_before_kernel": lambda lib: lib.tensor(complex(-0.0, -0.5), dtype=lib.complex64).xlogy_(
        lib.tensor([[-0.2], [0.1]], dtype=lib.float64)),
    # histc's equal edges: one apart in the input's dtype, and at least to the neighbouring numbers
    "histc_huge_single_value": lambda lib: lib.tensor(1e30).histc(),
    "histc_edge_rounds_in_float32": lambda lib: lib.tensor([2.0 ** 24]).histc(4),
    # searchsorted and bucketize compare in the promoted dtype (a 0-d int64 meets int16 as int16)
    "bucketize_0d_value_wraps_to_boundaries_dtype": lambda lib: lib.bucketize(
        lib.tensor(-9223372036854775808), lib.tensor([-15200], dtype=lib.int16)),
    "searchsorted_promoted": lambda lib: lib.searchsorted(lib.tensor([1, 3], dtype=lib.int8), 2.5),
    # sum_to_size of integers and bool gives int64, as sum()
    "sum_to_size_uint8": lambda lib: lib.arange(16, dtype=lib.uint8).reshape(4, 4, 1)[:, :, :].sum_to_size(1),
    "sum_to_size_bool": lambda lib: lib.ones(4, 1, dtype=lib.bool).sum_to_size(1, 1),
    # vector_norm's gradient multiplies in PyTorch's order: its second derivative rounds alike
    "vector_norm_half_grad2_tiny": lambda lib: _weighted_grads(lib, lambda L, x: L.linalg.vector_norm(x, 0.5), _x(
        lib, -2.5e-08, dtype="float32")),
    "vector_norm_1_5_grad2_tiny": lambda lib: _weighted_grads(lib, lambda L, x: L.linalg.vector_norm(x, 1.5), _x(
        lib, 1e-30, -2.5e-08, dtype="float32")),
    "norm_0_5_grad2_tiny": lambda lib: _weighted_grads(lib, lambda L, x: x.norm(0.5), _x(
        lib, 1.7881393432617188e-07, dtype="float32").reshape(())),
    # i1' and i1e' take their limit 1/2 where |x| > eps fails: at 0 and at NaN (so i0'' too); at
    # other tiny x i1'' and i1e'' are the series' (test_i1_second_derivative_near_zero)
    **{f"{op}_grad2_{dtype}": lambda lib, op=op, dtype=dtype: _grads(
        lib, lambda L, t: getattr(L.special, op)(t),
        _x(lib, nan, 0.0, -0.0, *(() if op.startswith("i1") else (1e-30, -1.192092895507821e-07)), 2.0, -3.0, inf,
           -inf, dtype=dtype))
       for op in ("i0", "i1", "i1e", "i0e") for dtype in ("float32", "float64")},
    **{f"{op}_tangent_at_nan": lambda lib, op=op: _tangent(
        lib, lambda L, t: getattr(L.special, op)(t), _x(lib, nan, 0.0, 2.0), lib.ones(3, dtype=lib.float64))
       for op in ("i0", "i1", "i1e")},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome(name):
    torch = require_torch()
    assert outcome(CASES[name], chainrule) == outcome(CASES[name], torch)


def test_trigamma_float32_is_accurate():
    """Deliberate (docs/differences.md): below 1/2 PyTorch's float32 trigamma reflects with a
    float32 sin(pi x) and loses digits; chainrule's float32 value is the float64 one, rounded."""
    torch = require_torch()
    x = [-16.961933135986328, -2.033203125, -0.4, 0.3, -3.4028234663852886e+38]
    x32 = chainrule.tensor(x, dtype=chainrule.float32)
    ours, exact = chainrule.polygamma(1, x32), chainrule.polygamma(1, x32.double()).float()
    assert chainrule.equal(ours, exact)
    theirs = torch.polygamma(1, torch.tensor(x, dtype=torch.float32)).numpy()
    assert abs(theirs[0] - exact[0].item()) > 1e-2  # PyTorch's: 693.36 for 693.33
    assert math.isnan(theirs[-1]) and math.isfinite(exact[-1].item())  # its float32 pi * x overflows


def test_sinc_second_derivative_near_zero():
    """Deliberate (docs/differences.md): sinc''(x) near 0 is -pi^2/3 (1 - pi^2 x^2 / 10 ...)
    and sinc'(x) is -pi^2 x / 3 (...); the difference quotient (cos(pi x) - sinc(x)) / x
    cancels there, PyTorch's nan at 0."""
    import math
    torch = require_torch()
    x = [0.0, -0.0, 1e-30, 1e-8, 1e-3, 0.04, 0.3]
    truth = [sum((-1) ** k * math.pi ** (2 * k) * 2 * k * (2 * k - 1) * v ** (2 * k - 2) / math.factorial(2 * k + 1)
                 for k in range(1, 10)) for v in x[:-1]]  # the series of sinc
    for dtype, tol in (("float64", 1e-13), ("float32", 1e-6)):
        g, h = _grads(chainrule, lambda L, t: L.sinc(t), _x(chainrule, *x, dtype=dtype))
        weights = range(1, len(x) + 1)
        assert all(abs(hi / w - t) < tol * 4 for hi, w, t in zip(h.tolist(), weights, truth)), (dtype, h)
        theirs = _grads(torch, lambda L, t: L.sinc(t), _x(torch, *x, dtype=dtype))[1]
        assert math.isnan(theirs[0]) and abs(theirs[3] / 4 - truth[3]) > 1  # PyTorch's 0/0, its cancellation
        assert abs(theirs[-1] - h[-1].item()) < 1e-5  # away from 0 the two agree
    x = chainrule.tensor([1.8720616168366178e-08, 1e-3], dtype=chainrule.float64, requires_grad=True)
    slope, = chainrule.autograd.grad(chainrule.sinc(x).sum(), x)
    exact = [sum((-1) ** k * math.pi ** (2 * k) * 2 * k * v ** (2 * k - 1) / math.factorial(2 * k + 1)
                 for k in range(1, 8)) for v in x.tolist()]  # the series of sinc'
    assert all(abs(s - e) <= 1e-15 * abs(e) for s, e in zip(slope.tolist(), exact))
    t = torch.tensor(x.tolist(), dtype=torch.float64, requires_grad=True)
    assert abs(torch.autograd.grad(torch.sinc(t).sum(), t)[0][0].item() - exact[0]) > 1e-9  # PyTorch's cancels
    gradgradcheck = chainrule.autograd.gradgradcheck
    assert gradgradcheck(chainrule.sinc, (_x(chainrule, 0.0, 1e-3, 0.049, 0.051, 0.5),))


def _logsumexp_tangent(lib, values):
    """PyTorch's tangent of logsumexp: the shifted softmax times the tangent (two tied 1e30s
    weigh a half each)."""
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        x = fw.make_dual(lib.tensor(values, dtype=lib.float64), lib.arange(1.0, len(values) + 1, dtype=lib.float64))
        return [round(v, 12) for v in fw.unpack_dual(lib.logsumexp(x, 0, keepdim=True)).tangent.tolist()]


@pytest.mark.parametrize("values", [[1e30, 1e30, 0.1, -2.0], [1e30, 1e30, -0.0], [0.5, -1.0, 2.0]])
def test_logsumexp_tangent_at_ties(values):
    torch = require_torch()
    assert _logsumexp_tangent(chainrule, values) == _logsumexp_tangent(torch, values)


@pytest.mark.parametrize("name", ["i1", "i1e"])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_i1_second_derivative_near_zero(name, dtype):
    """Against i1'' = i1 - i0/x + 2 i1/x^2 in 50-digit arithmetic (mpmath, which PyTorch
    brings); PyTorch's double backward cancels at the smallest of these x."""
    require_torch()
    import mpmath
    import numpy as np
    xs = np.array([6e-8, -3e-6, 1e-3, 0.05, -0.09, 0.5, 3.0] if dtype == "float64" else [1e-3, -0.04, 0.09, 0.5, 3.0],
                  dtype=dtype)

    def exact(v):
        with mpmath.workdps(50):
            x = mpmath.mpf(float(v))
            i0, i1 = mpmath.besseli(0, x), mpmath.besseli(1, x)
            second = i1 - i0 / x + 2 * i1 / x ** 2
            if name == "i1e":  # (e^-|x| f)'' = e^-|x| (f'' - 2 sign(x) f' + f)
                second = mpmath.exp(-abs(x)) * (second - 2 * mpmath.sign(x) * (i0 - i1 / x) + i1)
            return float(second)
    x = chainrule.from_numpy(xs).requires_grad_()
    g, = chainrule.autograd.grad(getattr(chainrule.special, name)(x).sum(), x, create_graph=True)
    ours = chainrule.autograd.grad(g.sum(), x)[0].numpy().astype(np.float64)
    np.testing.assert_allclose(ours, [exact(v) for v in xs], rtol=2e-6 if dtype == "float32" else 1e-12,
                               atol=1e-7 if dtype == "float32" else 0)
