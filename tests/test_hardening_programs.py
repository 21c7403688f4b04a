"""Issue 10's classes found by the long fuzz run (tests/fuzz) outside the grids: shape
checks in PyTorch's order, gradients written as PyTorch writes them, argument checks of
losses and embeddings. Each program runs on chainrule and on PyTorch and gives the same
result or the same error (type name and first line)."""
import pytest

import chainrule
from helpers import outcome, require_torch, leaf as _x, grads as _grads

pytestmark = pytest.mark.torch

nan, inf = float("nan"), float("inf")


def F(lib):
    return lib.nn.functional





CASES = {
    # expand checks from the last dim (PyTorch's inferExpandGeometry); bool and complex are
    # CPUBoolType / CPUComplexFloatType in messages; a 0-d tensor takes its sizes as given
    "expand_last_dim_first": lambda lib: lib.ones(3).expand(2, -1, 4),
    "expand_leading_minus_one": lambda lib: lib.ones(3).expand(-1, 3),
    "expand_too_few_complex": lambda lib: lib.ones(2, 3, 1, dtype=lib.complex128).expand(3, 4),
    "expand_too_few_bool": lambda lib: lib.ones(1, 0, 1, dtype=lib.bool).expand(2, 3),
    "expand_0d_minus_one": lambda lib: lib.tensor(1.0).expand(2, -1),
    "expand_negative_new_dim": lambda lib: lib.ones(2).expand(-3, -1),
    "broadcast_to_last_dim_first": lambda lib: lib.broadcast_to(lib.zeros(0), (2, -1, 4)),
    "sum_to_size_not_expandable": lambda lib: lib.ones(3, 4).sum_to_size(2, 1),
    "sum_to_size_of_0d": lambda lib: lib.tensor(2.0).sum_to_size(1),
    "sum_to_size_longer": lambda lib: lib.ones(3).sum_to_size(3, 1),
    "sum_to_size_ok": lambda lib: lib.arange(12.0).reshape(3, 4).sum_to_size(1, 4),
    # copysign's gradient is result / x (0 where x is 0), through the result: second derivatives
    "copysign_grad2_tensor": lambda lib: _grads(
        lib, lambda L, x: L.copysign(x, L.tensor([1.0, -2.0, -0.0, 3.0, 1.0])), _x(lib, 0.0, -0.0, 3.0, -1e-30, inf)),
    "copysign_grad2_number": lambda lib: _grads(
        lib, lambda L, x: L.copysign(x, -0.0), _x(lib, 0.0, -0.0, 3.0, -1e-30, inf, dtype="float32")),
    # logit's gradient is a where: nan (no eps) or 0 (eps) outside the range, nan input included
    "logit_grad2": lambda lib: _grads(lib, lambda L, x: L.logit(x), _x(lib, -0.5, 0.0, 0.05, 0.3, 1.0, 1.5, nan)),
    "logit_eps_grad2": lambda lib: _grads(lib, lambda L, x: L.logit(x, 0.1),
                                          _x(lib, -0.5, 0.0, 0.05, 0.3, 1.0, 1.5, nan)),
    "logit_complex": lambda lib: lib.logit(lib.tensor([0.5 + 0j]), 0.1),
    # cross_entropy: a 0-d input of class probabilities; a 0-d target's batch size
    "cross_entropy_0d_probs": lambda lib: F(lib).cross_entropy(lib.tensor(1.5), lib.tensor(1.0)),
    "cross_entropy_0d_target": lambda lib: F(lib).cross_entropy(lib.ones(2, 3), lib.tensor(1)),
    "nll_loss_0d_target": lambda lib: F(lib).nll_loss(lib.ones(2, 3, 2), lib.tensor(0)),
    # embedding: the weight's dims before the indices' dtype; renorm's own checks
    "embedding_0d_weight": lambda lib: F(lib).embedding(lib.zeros(2, dtype=lib.bool), lib.tensor(1.0)),
    "embedding_0d_weight_padding_0": lambda lib: F(lib).embedding(lib.zeros(2, dtype=lib.long), lib.tensor(1.0),
                                                                  padding_idx=0),
    "embedding_bool_indices": lambda lib: F(lib).embedding(lib.zeros(2, dtype=lib.bool), lib.ones(5, 3)),
    "embedding_complex_indices": lambda lib: F(lib).embedding(lib.zeros(2, dtype=lib.complex64), lib.ones(5, 3)),
    "embedding_renorm_0d_weight": lambda lib: F(lib).embedding(lib.zeros(2), lib.tensor(1.0), max_norm=1.0),
    "embedding_renorm_3d_weight": lambda lib: F(lib).embedding(lib.zeros(2, dtype=lib.long), lib.ones(2, 2, 2),
                                                               max_norm=1.0),
    "embedding_renorm_float_indices": lambda lib: F(lib).embedding(lib.zeros(2), lib.ones(5, 3), max_norm=1.0),
    "embedding_renorm_int_weight": lambda lib: F(lib).embedding(lib.zeros(2, dtype=lib.long),
                                                                lib.ones(5, 3, dtype=lib.long), max_norm=1.0),
    # sign is (0 < x) - (x < 0): nan has sign 0, and so abs's gradient at nan is 0
    "sign_nan": lambda lib: lib.sign(lib.tensor([nan, -0.0, 0.0, 1.0, -inf])),
    "sgn_nan": lambda lib: lib.sgn(lib.tensor([nan, -2.0], dtype=lib.float64)),
    "abs_grad_at_nan": lambda lib: _grads(lib, lambda L, x: L.abs(x), _x(lib, nan, -1.0, 0.0), create_graph=False),
    "l1_loss_grad_at_nan": lambda lib: _grads(lib, lambda L, x: F(L).l1_loss(x, L.tensor([2147483647, 0, 1])),
                                              _x(lib, nan, 1.0, nan), create_graph=False),
    "sgn_complex": lambda lib: lib.sgn(lib.tensor([0j, 3 + 4j, complex(nan, 0.0), 1e-200 + 1e-200j])),
    "sign_complex": lambda lib: lib.sign(lib.tensor([1 + 1j])),
    # losses: PyTorch's order of dtype checks, and the dtype huber's kernels run in
    "bce_int_input_double_target": lambda lib: F(lib).binary_cross_entropy(lib.zeros(3, dtype=lib.long),
                                                                           lib.zeros(3, dtype=lib.float64)),
    "huber_complex_promoted": lambda lib: F(lib).huber_loss(lib.zeros(3, dtype=lib.complex64),
                                                            lib.zeros(3, dtype=lib.complex128)),
    "huber_int_promoted": lambda lib: F(lib).huber_loss(lib.zeros(3, dtype=lib.int16), lib.zeros(3, dtype=lib.long)),
    "huber_cannot_cast": lambda lib: F(lib).huber_loss(lib.zeros(3, dtype=lib.int16), lib.zeros(3)),
    "huber_backward_target_dtype": lambda lib: _grads(lib, lambda L, x: F(L).huber_loss(x, L.ones(3, dtype=L.uint8)),
                                                      _x(lib, 0.0, 1.0, 2.0, dtype="float32"), create_graph=False),
    "smooth_l1_bool_target_grad": lambda lib: _grads(
        lib, lambda L, x: F(L).smooth_l1_loss(x, L.tensor([True, False, True])), _x(lib, 0.0, 1.0, 2.0),
        create_graph=False),
    "smooth_l1_bool_target_create_graph": lambda lib: _grads(
        lib, lambda L, x: F(L).smooth_l1_loss(x, L.tensor([True, False, True])), _x(lib, 0.0, 1.0, 2.0)),
    "mse_bool_target_grad": lambda lib: _grads(
        lib, lambda L, x: F(L).mse_loss(x, L.tensor([True, False, True])), _x(lib, 0.0, 1.0, 2.0), create_graph=False),
    "multi_margin_int_input_float_target": lambda lib: F(lib).multi_margin_loss(lib.zeros(2, 3, dtype=lib.bool),
                                                                                lib.zeros(2)),
    "multi_margin_float_target": lambda lib: F(lib).multi_margin_loss(lib.zeros(2, 3), lib.zeros(2)),
    # a 0-d tensor's dim wrapped as 1-d, then refused (naming the wrapped dim)
    "unbind_0d_dim_1": lambda lib: lib.unbind(lib.tensor(1.5), 1),
    "unbind_0d_dim_minus_1": lambda lib: lib.unbind(lib.tensor(1.5), -1),
    "take_along_dim_0d_dim_minus_1": lambda lib: lib.take_along_dim(lib.tensor(1.5), lib.tensor(0), -1),
    # take_along_dim: the dims before the dtype; without a dim, gather's own check
    "take_along_dim_float_index_flat": lambda lib: lib.take_along_dim(lib.ones(3), lib.tensor([0.5])),
    "take_along_dim_float_index_0d": lambda lib: lib.take_along_dim(lib.ones(3), lib.tensor(0.5), 0),
    "take_along_dim_int32_flat": lambda lib: lib.take_along_dim(lib.arange(3.0), lib.tensor([2], dtype=lib.int32)),
    # histc: the kernel PyTorch reaches first for bool and complex
    "histc_bool": lambda lib: lib.histc(lib.ones(3, dtype=lib.bool), bins=4, min=0, max=1),
    "histc_complex_range": lambda lib: lib.histc(lib.ones(3, dtype=lib.complex64), bins=4, min=0, max=1),
    "histc_complex_auto": lambda lib: lib.histc(lib.ones(3, dtype=lib.complex64), bins=4),
    "polygamma_1_complex": lambda lib: lib.polygamma(1, lib.ones(2, dtype=lib.complex64)),
    "polygamma_0_complex": lambda lib: lib.polygamma(0, lib.ones(2, dtype=lib.complex128)),
    # round: integers round to themselves only without decimals; bool and complex never
    "round_int_decimals_0": lambda lib: lib.round(lib.ones(2, dtype=lib.int64), decimals=0),
    "round_int_decimals_1": lambda lib: lib.round(lib.ones(2, dtype=lib.uint8), decimals=1),
    "round_int_plain": lambda lib: lib.round(lib.tensor([3, -2], dtype=lib.int8)),
    "round_bool": lambda lib: lib.round(lib.ones(2, dtype=lib.bool)),
    "round_complex_decimals": lambda lib: lib.round(lib.ones(2, dtype=lib.complex64), decimals=2),
    # searchsorted: the scalar check first, the kernel in the promoted dtype, none for empty values
    "searchsorted_0d_boundaries_scalar": lambda lib: lib.searchsorted(lib.tensor(1.5), 1.0),
    "searchsorted_0d_boundaries": lambda lib: lib.searchsorted(lib.tensor(1.5), lib.tensor([1.0, 2.0])),
    "searchsorted_complex": lambda lib: lib.searchsorted(lib.ones(3, dtype=lib.complex64), lib.ones(2, dtype=lib.complex64)),
    "searchsorted_complex_number": lambda lib: lib.searchsorted(lib.tensor([1 + 1j, 2j]), 1.0),
    "searchsorted_complex_empty_values": lambda lib: lib.searchsorted(lib.tensor([1 + 1j]), lib.zeros(1, 0)),
    "searchsorted_bool_int_number": lambda lib: lib.searchsorted(lib.tensor([False, True]), 1),
    "searchsorted_empty_rows": lambda lib: lib.searchsorted(lib.zeros(1, 1, 0, dtype=lib.long),
                                                            lib.zeros(1, 1, 0, dtype=lib.long), out_int32=True),
    # acosh's gradient is PyTorch's (x^2 - 1)^-1/2: finite below -1, where the value is nan
    "acosh_grad_below_minus_1": lambda lib: _grads(lib, lambda L, x: L.acosh(x), _x(lib, -1.451171875, 2.0, 0.5)),
    # an empty dim refuses an index even where the result would be empty
    "index_empty_dim": lambda lib: lib.zeros(0, 0)[[0, 0]],
    "index_empty_dim_columns": lambda lib: lib.zeros(3, 0)[:, [1]],
    "index_out_of_range_empty_result": lambda lib: lib.zeros(2, 0)[[5]],
    "split_sizes_names_dim_as_given": lambda lib: lib.zeros(1, 1).split([3], -1),
    # glu: the halving check first; no bool nor complex kernel
    "glu_bool_odd": lambda lib: F(lib).glu(lib.ones(3, dtype=lib.bool), 0),
    "glu_long_odd": lambda lib: F(lib).glu(lib.ones(1, dtype=lib.long), 0),
    "glu_complex": lambda lib: F(lib).glu(lib.ones(2, 3, dtype=lib.complex64), 0),
    # kl_div: PyTorch's xlogy(t, t), whose gradient t / t is nan at t = 0; complex checked first
    "kl_div_zero_target_grads": lambda lib: _grads(
        lib, lambda L, t: F(L).kl_div(L.tensor([0.3, 0.2]), t, reduction="sum"), _x(lib, 0.0, -0.0)),
    "kl_div_complex_before_integral": lambda lib: F(lib).kl_div(lib.ones(2, dtype=lib.long),
                                                               lib.ones(2, dtype=lib.complex64)),
    # hinge_embedding_loss: margin - input is computed in input's dtype (C++'s Scalar - Tensor)
    "hinge_bool": lambda lib: F(lib).hinge_embedding_loss(lib.tensor([[True]]), lib.tensor([[True]])),
    "hinge_int_sum": lambda lib: F(lib).hinge_embedding_loss(lib.tensor([[3, -685]], dtype=lib.int32),
                                                             lib.tensor([[-1.0, 1.0]]), reduction="sum"),
    "hinge_int_mean": lambda lib: F(lib).hinge_embedding_loss(lib.tensor([[3, -685]], dtype=lib.int32),
                                                              lib.tensor([[-1.0, 1.0]])),
    # PyTorch's refusals of complex (and bool) inputs, each with its kernel's words
    **{f"complex_{name}": (lambda name: lambda lib: getattr(F(lib), name)(lib.ones(2, dtype=lib.complex64)))(name)
       for name in ("hardtanh", "relu6", "softplus", "softshrink", "hardshrink", "mish", "hardsigmoid", "hardswish",
                    "elu", "selu", "celu", "gelu", "leaky_relu", "logsigmoid")},
    **{f"{kind}_{name}": (lambda name, kind: lambda lib: getattr(lib, name)(lib.ones(2, dtype=getattr(lib, kind))))(
        name, kind) for name in ("trunc", "ceil", "floor", "frac", "deg2rad", "rad2deg") for kind in ("complex64", "bool")},
    "complex_silu_allowed": lambda lib: F(lib).silu(lib.tensor([1 + 1j])),
    "complex_threshold": lambda lib: F(lib).threshold(lib.ones(2, dtype=lib.complex64), 0.5, 0.0),
    "complex_clamp": lambda lib: lib.ones(2, dtype=lib.complex64).clamp(0, 1),
    "complex_clamp_min_tensor": lambda lib: lib.zeros(2, dtype=lib.float64).clamp_min(lib.zeros(2, dtype=lib.complex64)),
    "complex_clamp_both_tensors": lambda lib: lib.clamp(lib.zeros(2), lib.zeros(2), lib.zeros(2, dtype=lib.complex64)),
    "complex_clamp_broadcast_first": lambda lib: lib.ones(2, 3).clamp(min=lib.tensor([1 + 1j, 2j])),
    "clamp_complex_number_real": lambda lib: lib.clamp(lib.zeros(2, dtype=lib.float64), 2.5 + 0j),
    "clamp_complex_number_imag": lambda lib: lib.clamp(lib.zeros(2, dtype=lib.float64), 1 + 1j),
    "clamp_int_complex_number": lambda lib: lib.clamp(lib.zeros(2, dtype=lib.long), 0j),
    "hardtanh_unsigned_negative": lambda lib: F(lib).hardtanh(lib.ones(2, dtype=lib.uint8)),
    "hardtanh_unsigned": lambda lib: F(lib).hardtanh(lib.tensor([0, 3], dtype=lib.uint8), 0, 1),
    # a missing clamp bound takes no part in the result dtype
    "clamp_tensor_min_only_dtype": lambda lib: lib.clamp(lib.tensor(1.4, dtype=lib.float16),
                                                         lib.tensor(0.05, dtype=lib.float16)),
    # a number written into a tensor: converted (c10's overflow check) before the index is read
    "setitem_float_below_unsigned": lambda lib: lib.tensor([22, 22], dtype=lib.uint8).__setitem__((1, 0), -1.5),
    "setitem_int_wraps_unsigned": lambda lib: _written(lib, lib.tensor([22, 22], dtype=lib.uint8), 0, -255),
    "setitem_int_below_minus_max": lambda lib: _written(lib, lib.tensor([22, 22], dtype=lib.uint8), 0, -256),
    "setitem_float_above_int8": lambda lib: _written(lib, lib.tensor([2, 2], dtype=lib.int8), 0, 127.5),
    # PyTorch's C type names in dtype messages
    "masked_fill_half_mask": lambda lib: lib.zeros(2).masked_fill_(lib.zeros(2, dtype=lib.float16), 1.0),
    "multi_dot_uint8": lambda lib: lib.linalg.multi_dot([lib.zeros(2, dtype=lib.complex64),
                                                         lib.zeros(2, 2, dtype=lib.uint8), lib.zeros(2)]),
    # kernels PyTorch never runs on an empty tensor; checks it makes before the dtype's
    "roll_empty_two_dims": lambda lib: lib.roll(lib.zeros(0, dtype=lib.bool), (1, 1), (0, 1)),
    "softmax_empty_int": lambda lib: F(lib).softmax(lib.zeros(0, 3, dtype=lib.long), 1),
    "log_softmax_empty_complex": lambda lib: F(lib).log_softmax(lib.zeros(0, 3, dtype=lib.complex64), 1),
    "cross_entropy_empty_int_spatial": lambda lib: F(lib).cross_entropy(lib.ones(0, 3, 2, dtype=lib.long),
                                                                        lib.zeros(0, 2, dtype=lib.long)),
    "ctc_loss_empty": lambda lib: F(lib).ctc_loss(lib.zeros(0, 2, 3), lib.ones(2, 1, dtype=lib.long), [0, 0], [1, 1]),
    "trace_bool_1d": lambda lib: lib.trace(lib.ones(3, dtype=lib.bool)),
    "mm_bool": lambda lib: lib.mm(lib.ones(2, 3, dtype=lib.bool), lib.ones(3, 1, dtype=lib.bool)),
    "mm_bool_empty": lambda lib: lib.mm(lib.ones(1, 0, dtype=lib.bool), lib.ones(0, 1, dtype=lib.bool)),
    "tensordot_bool_vectors": lambda lib: lib.tensordot(lib.ones(3, dtype=lib.bool), lib.ones(3, dtype=lib.bool),
                                                        dims=([0], [0])),
    "pairwise_distance_inf_empty_dim": lambda lib: F(lib).pairwise_distance(lib.zeros(2, 0), lib.zeros(2, 0),
                                                                            p=float("inf")),
    "soft_margin_bool_target": lambda lib: F(lib).soft_margin_loss(lib.ones(3), lib.ones(3, dtype=lib.bool)),
    "soft_margin_bool_input": lambda lib: F(lib).soft_margin_loss(lib.ones(3, dtype=lib.bool), lib.ones(3)),
    "batch_norm_bool_1d": lambda lib: F(lib).batch_norm(lib.ones(3, dtype=lib.bool), None, None, training=True),
    "batch_norm_long_eval": lambda lib: F(lib).batch_norm(lib.ones(2, 3, dtype=lib.long), lib.zeros(3), lib.ones(3)),
    "unfold_complex": lambda lib: F(lib).unfold((lib.arange(18.0).reshape(1, 2, 3, 3) * (1 + 2j)).to(lib.complex64), 2),
    "bce_logits_complex_input": lambda lib: F(lib).binary_cross_entropy_with_logits(lib.ones(3, dtype=lib.complex128),
                                                                                    lib.ones(3, dtype=lib.float64)),
    # linalg names and orders: linalg.lu's own name, cholesky_ex checks as cholesky, A before B
    "linalg_lu_0d": lambda lib: lib.linalg.lu(lib.tensor(1.0)),
    "lu_factor_0d": lambda lib: lib.linalg.lu_factor(lib.tensor(1.0)),
    "linalg_lu_no_pivot": lambda lib: lib.linalg.lu(lib.ones(2, 2), pivot=False),
    "cholesky_ex_int": lambda lib: lib.linalg.cholesky_ex(lib.ones(2, 2, dtype=lib.int8)),
    "solve_triangular_A_first": lambda lib: lib.linalg.solve_triangular(lib.ones(3, 1), lib.ones(3), upper=True),
    "solve_triangular_B_vector": lambda lib: lib.linalg.solve_triangular(lib.ones(3, 3), lib.ones(3), upper=True),
    # a 0-d target's batch size reads as 0; its size(0) is then refused
    "nll_loss_empty_batch_half_target": lambda lib: F(lib).nll_loss(lib.zeros(0, 3), lib.tensor(1.0, dtype=lib.float16)),
    "nll_loss_empty_batch_0d_target": lambda lib: F(lib).nll_loss(lib.zeros(0, 3), lib.tensor(1)),
    # empty matrices: cond is 0 (square ones only for fro/nuc), lu_unpack of a 0 by 0 factor
    "cond_inf_empty_wide": lambda lib: lib.linalg.cond(lib.zeros(3, 0, 2, dtype=lib.complex64), float("inf")),
    "cond_fro_empty_wide": lambda lib: lib.linalg.cond(lib.zeros(1, 0), "fro"),
    "cond_nuc_empty_square": lambda lib: lib.linalg.cond(lib.zeros(2, 0, 0), "nuc"),
    "lu_unpack_empty": lambda lib: lib.lu_unpack(*lib.linalg.lu_factor(lib.zeros(0, 0))),
    "repeat_interleave_2d_repeats_first": lambda lib: lib.tensor(True).repeat_interleave(lib.zeros(3, 2), dim=1),
    # float16: LAPACK has none; each op refuses it in PyTorch's words
    **{f"half_{name}": (lambda name: lambda lib: getattr(lib.linalg, name)(lib.ones(2, 2, dtype=lib.float16)))(name)
       for name in ("inv", "det", "slogdet", "svd", "qr", "cholesky", "eigh", "pinv", "lu_factor", "lu",
                    "matrix_rank", "cond")},
    "half_solve": lambda lib: lib.linalg.solve(lib.ones(2, 2, dtype=lib.float16), lib.ones(2, 2, dtype=lib.float16)),
    "half_matrix_norm_nuc": lambda lib: lib.linalg.matrix_norm(lib.ones(2, 2, dtype=lib.float16), "nuc"),
    "half_matrix_norm_fro": lambda lib: lib.linalg.matrix_norm(lib.ones(2, 2, dtype=lib.float16)),
    # smooth_l1 / huber: a nan difference keeps a nan slope; the kinks have no second derivative
    **{f"{name}_grads_{k}": (lambda fn, k: lambda lib: _grads(
        lib, lambda L, x: getattr(F(L), fn)(x, L.zeros(7, dtype=L.float64), reduction="sum", **k),
        _x(lib, nan, 0.5, -3.0, 3.0, 1.0, -1.0, 0.0)))(fn, k)
       for name, fn, k in (("smooth_l1", "smooth_l1_loss", {"beta": 0.5}), ("huber", "huber_loss", {"delta": 1.0}))},
    # embedding of a 0-d weight that requires grad: its node reads size(0) before the kernel's check
    "embedding_0d_weight_requires_grad": lambda lib: F(lib).embedding(lib.tensor(0.9), lib.tensor(0.0, requires_grad=True)),
    "multi_margin_target_size_1d_input": lambda lib: F(lib).multi_margin_loss(lib.ones(3), lib.zeros(2, dtype=lib.long)),
    # binary_cross_entropy: a nan input is out of [0, 1] too
    "bce_nan_input": lambda lib: F(lib).binary_cross_entropy(lib.tensor([0.5, nan]), lib.tensor([0.5, 0.5])),
    "bce_logits_int_input": lambda lib: F(lib).binary_cross_entropy_with_logits(lib.ones(2, dtype=lib.int8),
                                                                                lib.ones(2, dtype=lib.bool)),
    # an in-place change seen by backward, and a hook that changes the type: PyTorch's type names
    "inplace_complex_message": lambda lib: _modified_complex(lib),
}


def _written(lib, x, index, value):
    x[index] = value
    return x


def _modified_complex(lib):
    x = lib.tensor([1 + 1j, 2j], requires_grad=True)
    y = x * 1
    z = y * y
    y.add_(1)
    z.sum().abs().backward()


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome(name):
    torch = require_torch()
    assert outcome(CASES[name], chainrule) == outcome(CASES[name], torch)


def test_outcome_tells_values_apart():
    """The comparison above can fail: other values, another error text, another dtype."""
    assert outcome(lambda lib: lib.tensor([1.0]), chainrule) != outcome(lambda lib: lib.tensor([2.0]), chainrule)
    assert outcome(lambda lib: lib.ones(3).expand(4), chainrule) != outcome(lambda lib: lib.ones(3).expand(5),
                                                                           chainrule)
    assert outcome(lambda lib: lib.ones(1, dtype=lib.float64), chainrule) != outcome(lambda lib: lib.ones(1), chainrule)
