"""Issue 10's classes in linear algebra, distances, pooling and im2col (found by tests/fuzz):
each program runs on chainrule and on PyTorch and gives the same result or the same error
(type name and first line: PyTorch's LinAlgError is ``torch._C._LinAlgError``, ours a class
of the same name)."""
import numpy as np
import pytest

import chainrule
from helpers import grads, outcome, require_torch

pytestmark = pytest.mark.torch

nan, inf = float("nan"), float("inf")


def _m(lib, *shape, dtype="float64"):
    return lib.arange(1, int(np.prod(shape)) + 1, dtype=getattr(lib, dtype)).reshape(shape) / 7


def _with_grad(lib, x):
    return x.detach().requires_grad_()


def _empty_fold_grads(lib):
    a, b = lib.ones(0, 0, requires_grad=True), lib.ones(2, 0, 0, requires_grad=True)
    return lib.autograd.grad((a @ b).sum(), (a, b))


_WIDE_RANGE_UPPER = ((2066.6400955173885 - 772.658018383896j, 882.1418770316959 - 9792.366964979243j),
                     (0, -2.1702480003237726e+31 + 7.336789703369141e+31j))


def _wide_range_solves(lib):
    """Triangular systems whose entries span 1e3 to 1e31: substitution, as LAPACK's trsm,
    potrs and getrs (a general solve of the triangle, or of P L U formed, pivots through the
    far entries: 8.7e5 for 1.2e-6)."""
    u = lib.tensor(_WIDE_RANGE_UPPER, dtype=lib.complex128)
    b = lib.tensor([[6 - 3.361328125j], [2 - 1e30j]], dtype=lib.complex128)
    lu, pivots = u, lib.tensor([1, 2], dtype=lib.int32)  # P L U with P and L the identity
    solutions = (lib.cholesky_solve(b, u, True), lib.linalg.solve_triangular(u.mH, b, upper=False),
                 *(lib.linalg.lu_solve(lu, pivots, b if left else b.mT, left=left, adjoint=adjoint).resolve_conj()
                   for left in (True, False) for adjoint in (False, True)))
    return tuple(x.flatten()[0] * 1e6 for x in solutions)  # the first unknown, the one pivoting spoils


_FUSED_SHAPES = {"addmm": ((2, 2), (2, 3), (3, 2)), "addbmm": ((2, 2), (2, 2, 3), (2, 3, 2)),
                 "baddbmm": ((2, 2, 2), (2, 2, 3), (2, 3, 2)), "addmv": ((2,), (2, 3), (3,)), "addr": ((2, 3), (2,), (3,)),
                 "matmul": ((2, 1, 2), (2, 2, 1)), "bmm": ((1, 1, 1), (1, 1, 1))}


def _fused(lib, name, dtypes):
    """A product's operands of these dtypes (b: bool, u: uint8, f: float32): PyTorch checks the
    dtypes in its own order (self against mat2 first for addmm, input against batch1 for
    baddbmm) and dispatches on the first matrix's dtype; addr, a composition, promotes."""
    dtype = {"b": lib.bool, "u": lib.uint8, "f": lib.float32}
    return getattr(lib, name)(*[lib.ones(*shape, dtype=dtype[d]) for shape, d in zip(_FUSED_SHAPES[name], dtypes)])


CASES = {
    # a singular float16 system: the kernel's dtype refusal comes before any factoring
    "solve_ex_singular_half": lambda lib: lib.linalg.solve_ex(lib.zeros(1, 1, dtype=lib.float16),
                                                               lib.ones(1, 1, dtype=lib.float16)),
    **{f"{name}_{dtypes}": lambda lib, name=name, dtypes=dtypes: _fused(lib, name, dtypes)
       for name in ("addmm", "addbmm", "baddbmm", "addmv", "addr")
       for dtypes in ("bbb", "bbu", "bub", "ubu", "ufu", "fbf", "buf", "ffu")},
    **{f"{name}_{dtypes}": lambda lib, name=name, dtypes=dtypes: _fused(lib, name, dtypes)
       for name in ("matmul", "bmm") for dtypes in ("bu", "bf", "ub", "bb")},
    # an empty broadcast batch: LAPACK never runs, so no residuals (PyTorch's ranks, of A's
    # batch, are memory it never wrote: only their shape is compared)
    **{f"lstsq_empty_broadcast_{driver}": lambda lib, driver=driver: (lambda r: (r.solution, r.residuals, lib.tensor(
        r.rank.shape)))(lib.linalg.lstsq(lib.ones(1, 3, 1, dtype=lib.float64), lib.ones(0, 3, 1, dtype=lib.float64),
                                         driver=driver))
       for driver in ("gelsd", "gels", "gelsy")},
    "wide_range_triangular_solves": _wide_range_solves,
    # a matrix times a batch folds into one mm of the transposed problem: with k = 0 too
    "matmul_fold_of_empty_matrices": _empty_fold_grads,
    # the dims a function needs, checked before any work (PyTorch's messages)
    "lstsq_0d_other": lambda lib: lib.linalg.lstsq(_m(lib, 3, 2), lib.tensor(1.0, dtype=lib.float64)),
    "lu_solve_1d_B": lambda lib: lib.linalg.lu_solve(*lib.linalg.lu_factor(_m(lib, 2, 2) + lib.eye(2)), _m(lib, 2)),
    "lu_solve_1d_LU": lambda lib: lib.linalg.lu_solve(_m(lib, 2), lib.linalg.lu_factor(_m(lib, 2, 2))[1],
                                                      _m(lib, 2, 2)),
    "lu_solve_not_square_0d_B": lambda lib: lib.linalg.lu_solve(lib.ones(2, 1), lib.ones(1, dtype=lib.int32),
                                                                lib.tensor(1.0)),
    # cholesky_inverse as LAPACK's potri: no product of the factor (it overflows), PyTorch's singular error
    "cholesky_inverse_huge_entry": lambda lib: lib.cholesky_inverse(lib.tensor([[1.75, 3.5], [1e30, 20.0]])),
    "cholesky_inverse_singular": lambda lib: lib.cholesky_inverse(lib.tensor([[1.0, 2.0], [0.0, 0.0]]), upper=True),
    "cholesky_inverse_singular_batch": lambda lib: lib.cholesky_inverse(lib.stack([lib.eye(2), lib.zeros(2, 2)])),
    "lstsq_int_rows": lambda lib: lib.linalg.lstsq(lib.zeros(2, 2, dtype=lib.int64), lib.zeros(3, 1, dtype=lib.int64)),
    "lstsq_half_rows": lambda lib: lib.linalg.lstsq(lib.zeros(2, 2, dtype=lib.float16), lib.zeros(3, dtype=lib.float16)),
    "lu_solve_half_empty": lambda lib: lib.linalg.lu_solve(lib.zeros(0, 0, dtype=lib.float16), lib.zeros(0, dtype=lib.int32),
                                                           lib.zeros(0, 0, dtype=lib.float16), adjoint=True),
    "lu_solve_half": lambda lib: lib.linalg.lu_solve(lib.ones(1, 1, dtype=lib.float16), lib.ones(1, dtype=lib.int32),
                                                     lib.zeros(1, 1, dtype=lib.float16)),
    "repeat_interleave_sizes_negative_dim": lambda lib: lib.repeat_interleave(lib.tensor([0.5]), lib.tensor([0, 0]),
                                                                              dim=-1),
    # the singular-value gaps' diagonal is 1 even where s^2 overflows (float32 1e20)
    "nuclear_norm_grad2_huge": lambda lib: grads(lib, lambda lib, x: lib.linalg.matrix_norm(x, "nuc"),
                                                 lib.tensor([[1e20, 0.0], [0.0, 3.0]], requires_grad=True))[1],
    "svd_grad_huge": lambda lib: grads(lib, lambda lib, x: lib.linalg.svd(x)[0].abs() + lib.linalg.svdvals(x),
                                       lib.tensor([[1e20, 0.0], [0.0, 3.0]], requires_grad=True))[0],
    # a reflector's sign at a -0 pivot: MKL reads it as +0
    "qr_negative_zero_pivot": lambda lib: lib.linalg.qr(lib.tensor([[-0.0], [4.0]]))[0],
    "qr_negative_zero_pivot_batch": lambda lib: lib.linalg.qr(lib.tensor([[[-0.0], [4.0]], [[6.0], [20.0]]]))[0],
    # a 1 x 1 matrix exponential is the exponential itself, as PyTorch (no scaling of inf)
    "matrix_exp_1x1_huge_complex": lambda lib: lib.linalg.matrix_exp(lib.tensor([[1e30 + 3j]])),
    "matrix_exp_1x1_huge_angle": lambda lib: lib.linalg.matrix_exp(lib.tensor([[-2.25 + 1e30j]],
                                                                               dtype=lib.complex128)),
    "svd_legacy_0d": lambda lib: lib.svd(lib.tensor(1.0)),
    "svd_legacy_1d_no_uv": lambda lib: lib.svd(lib.ones(3), compute_uv=False),
    "triangular_solve_1d_b": lambda lib: lib.triangular_solve(lib.ones(2), _m(lib, 2, 2)),
    "triangular_solve_1d_A": lambda lib: lib.triangular_solve(_m(lib, 2, 2), lib.ones(2)),
    "triangular_solve_not_square": lambda lib: lib.triangular_solve(_m(lib, 2, 1), _m(lib, 2, 1)),
    "triangular_solve_sizes": lambda lib: lib.triangular_solve(_m(lib, 3, 1), _m(lib, 2, 2)),
    # a bool contraction of everything: dot (no bool kernel) on views, a value on a copied operand
    "tensordot_bool_all_views": lambda lib: lib.tensordot(lib.ones(2, 3, dtype=lib.bool), lib.ones(2, 3, dtype=lib.bool)),
    "tensordot_bool_all_copied": lambda lib: lib.tensordot(lib.tensor([[True, False, True], [False, False, False]]),
                                                           lib.tensor([[True, False], [False, False], [True, False]]),
                                                           ([1, 0], [0, 1])),
    "tensordot_bool_summed_dim": lambda lib: lib.tensordot(lib.ones(1, 3, 2, dtype=lib.bool).transpose(1, 2),
                                                           lib.ones(1, 2, 3, dtype=lib.bool), 3),
    # einsum's dtypes as PyTorch's steps make them: a label only one operand has (size over 1) is
    # summed first, in int64 for integers; a label both have goes to bmm (one dtype, no bool)
    "einsum_int16_summed_alone": lambda lib: lib.einsum("ij,jk->ik", lib.ones(1, 1, dtype=lib.int16),
                                                        lib.ones(2, 2, dtype=lib.int16)),
    "einsum_mixed_ints_summed_alone": lambda lib: lib.einsum("ij,jk->", lib.ones(1, 1, dtype=lib.int32),
                                                             lib.ones(2, 2, dtype=lib.int16)),
    "einsum_one_operand_sum_int8": lambda lib: lib.einsum("ij->", lib.ones(2, 2, dtype=lib.int8)),
    "einsum_bool_bmm": lambda lib: lib.einsum("ij,jk->ik", lib.ones(2, 2, dtype=lib.bool), lib.ones(2, 2,
                                                                                                     dtype=lib.bool)),
    "einsum_int_bool_bmm": lambda lib: lib.einsum("ij,jk->ik", lib.ones(1, 2, dtype=lib.int8),
                                                  lib.ones(2, 1, dtype=lib.bool)),
    "einsum_empty_bmm_dtype": lambda lib: lib.einsum("ij,jk->ik", lib.ones(1, 0, dtype=lib.int8),
                                                     lib.ones(0, 2, dtype=lib.int16)),
    "einsum_summed_empty_then_bmm": lambda lib: lib.einsum("ij,ij->", lib.ones(2, 1, dtype=lib.float64),
                                                           lib.ones(2, 0, dtype=lib.int32)),
    "tensordot_bool_row_by_column": lambda lib: lib.tensordot(lib.ones(1, 4, 1, dtype=lib.bool),
                                                              lib.ones(1, 4, 1, dtype=lib.bool), 2),
    "tensordot_0d": lambda lib: lib.tensordot(lib.tensor(1.0), lib.ones(2, 2), dims=([1], [0])),
    "tensordot_0d_right": lambda lib: lib.tensordot(lib.ones(2, 2), lib.tensor(1.0), dims=([-1], [0])),
    "tensordot_sizes": lambda lib: lib.tensordot(lib.ones(2, 3), lib.ones(4, 2), dims=([-1], [0])),
    "cross_0d": lambda lib: lib.linalg.cross(lib.tensor(1.0), lib.tensor(2.0)),
    "mv_0d_matrix": lambda lib: lib.mv(lib.tensor(1.0), lib.ones(3)),
    "mv_0d_vector": lambda lib: lib.mv(lib.ones(3), lib.tensor(1.0)),
    "cond_fro_1d": lambda lib: lib.linalg.cond(lib.ones(3), "fro"),
    "cond_2_1d": lambda lib: lib.linalg.cond(lib.ones(3), 2),
    "cond_empty_batch_uint8": lambda lib: lib.linalg.cond(lib.zeros(0, 2, 4, dtype=lib.uint8)),
    "cond_empty_batch_no_graph": lambda lib: lib.tensor(lib.linalg.cond(lib.zeros(0, 3, 1, requires_grad=True))
                                                        .requires_grad),
    "cond_empty": lambda lib: lib.linalg.cond(lib.zeros(4, 3, 0, dtype=lib.complex64)),
    "matrix_norm_2_empty": lambda lib: lib.linalg.matrix_norm(lib.zeros(4, 0, 3, dtype=lib.complex64), 2),
    "matrix_norm_2_empty_keepdim": lambda lib: lib.linalg.matrix_norm(lib.zeros(4, 0, 3), 2, keepdim=True),
    # an empty batch has rank 0 whatever its dtype, once no default rtol needs the dtype's eps
    "matrix_rank_bool_empty_rtol": lambda lib: lib.linalg.matrix_rank(lib.zeros(0, 1, 1, dtype=lib.bool), rtol=0.1),
    "matrix_rank_half_empty_tol": lambda lib: lib.linalg.matrix_rank(lib.zeros(0, 2, 1, dtype=lib.float16), tol=0.1),
    "matrix_rank_bool_rtol": lambda lib: lib.linalg.matrix_rank(lib.zeros(2, 1, 1, dtype=lib.bool), rtol=0.1),
    # a singular (here not even square) A still gets solve's dtype and shape checks
    "solve_ex_dtypes_not_square": lambda lib: lib.linalg.solve_ex(lib.full((2, 1), -3.0, dtype=lib.float64),
                                                                  lib.ones(2, 1, dtype=lib.complex64)),
    "solve_ex_not_square": lambda lib: lib.linalg.solve_ex(lib.full((2, 1), -3.0), lib.ones(2, 1)),
    "matrix_rank_hermitian_empty": lambda lib: lib.linalg.matrix_rank(lib.zeros(0, 4, 0), hermitian=True),
    "matrix_rank_hermitian_not_square_empty": lambda lib: lib.linalg.matrix_rank(lib.zeros(2, 4, 0), hermitian=True),
    "svdvals_empty_batch": lambda lib: lib.linalg.svdvals(lib.zeros(4, 3, 0)),
    "eigvalsh_empty_batch": lambda lib: lib.linalg.eigvalsh(lib.zeros(4, 0, 0)),
    "pinv_int_atol": lambda lib: lib.linalg.pinv(lib.zeros(2, 2, dtype=lib.int64), atol=0.1),
    "pinv_int_rtol": lambda lib: lib.linalg.pinv(lib.zeros(2, 2, dtype=lib.int64), rtol=0.1),
    "pinv_1d_atol": lambda lib: lib.linalg.pinv(lib.ones(2), atol=0.1),
    "lstsq_int8_complex": lambda lib: lib.linalg.lstsq(lib.zeros(3, 2, dtype=lib.int8),
                                                      lib.zeros(3, dtype=lib.complex128)),
    "lstsq_dims": lambda lib: lib.linalg.lstsq(lib.zeros(3, 2), lib.zeros(2, 3, 2, 3, dtype=lib.int8)),
    "lstsq_vector_rows": lambda lib: lib.linalg.lstsq(lib.zeros(3, 2), lib.zeros(4)),
    "lu_solve_int": lambda lib: lib.linalg.lu_solve(lib.eye(2, dtype=lib.int64), lib.ones(2, dtype=lib.int32),
                                                    lib.zeros(2, 2)),
    "lu_solve_dtypes": lambda lib: lib.linalg.lu_solve(lib.eye(2, dtype=lib.complex64), lib.ones(2, dtype=lib.int32),
                                                       lib.zeros(2)),
    "solve_0d_B": lambda lib: lib.linalg.solve(lib.eye(2), lib.tensor(1.0)),
    "solve_vector_right": lambda lib: lib.linalg.solve(lib.eye(2), lib.ones(2), left=False),
    "solve_triangular_shapes_first": lambda lib: lib.linalg.solve_triangular(
        lib.eye(4, dtype=lib.bool), lib.zeros(1, 4, dtype=lib.bool), upper=False),
    "triangular_solve_dtypes": lambda lib: lib.triangular_solve(lib.zeros(2, 1, dtype=lib.bool),
                                                                lib.zeros(2, 1, dtype=lib.int64)),
    "triangular_solve_int": lambda lib: lib.triangular_solve(lib.zeros(2, 1, dtype=lib.int64),
                                                             lib.zeros(2, 2, dtype=lib.int64)),
    # bmm of an empty operand: zeros of mat2's dtype, no dtype check (bool too)
    **{f"bmm_empty_{a}_{b}": (lambda a, b: lambda lib: lib.bmm(lib.zeros(2, 2, 0, dtype=getattr(lib, a)),
                                                                lib.zeros(2, 0, 2, dtype=getattr(lib, b))))(a, b)
       for a, b in (("float64", "float32"), ("bool", "bool"), ("int64", "complex64"))},
    # two solves, as potrs: L L^H of a float32 factor holding 1e30 would overflow
    "cholesky_solve_huge_factor": lambda lib: lib.cholesky_solve(
        lib.tensor([[-1.62890625], [-1e30], [0.5]]), lib.tensor([[3.0, 0, 0], [-1e30, -1e30, 0], [0, 0, 3.0]])),
    "matmul_empty_long_needing_grad": lambda lib: lib.matmul(lib.zeros(2, 0, 0, requires_grad=True),
                                                             lib.zeros(2, 0, 0, dtype=lib.int64)),
    "bmm_empty_batch": lambda lib: lib.bmm(lib.zeros(0, 2, 2, dtype=lib.complex128), lib.zeros(0, 2, 2, dtype=lib.complex64)),
    # B is a batch of vectors only when its shape is A's without the last dim (else a matrix)
    "lstsq_matrix_rhs_one_dim_less": lambda lib: lib.linalg.lstsq(lib.ones(3, 1, 0, dtype=lib.float64),
                                                                  lib.ones(1, 0, dtype=lib.float64)).solution,
    # ... and then the outputs' batch is A's broadcast against B's leading dims, rows included
    "lstsq_matrix_rhs_one_dim_less_empty": lambda lib: lib.linalg.lstsq(lib.ones(1, 0, 1, dtype=lib.float64),
                                                                        lib.ones(0, 1, dtype=lib.float64)).solution,
    "lstsq_matrix_rhs_one_dim_less_copies": lambda lib: _lstsq_copies(lib, (1, 1, 3, 2), (3, 3, 4), "gelsd"),
    "lstsq_matrix_rhs_one_dim_less_wide": lambda lib: _lstsq_copies(lib, (1, 2, 3), (2, 4), "gelsy"),
    "lstsq_matrix_rhs_one_dim_less_mismatch": lambda lib: lib.linalg.lstsq(lib.ones(2, 3, 2), lib.ones(3, 4)),
    "lstsq_vector_rhs_batch": lambda lib: lib.linalg.lstsq(lib.ones(2, 3, 2, dtype=lib.float64),
                                                           lib.ones(2, 3, dtype=lib.float64)).solution,
    "triangular_solve_half": lambda lib: lib.triangular_solve(lib.zeros(1, 1, 1, dtype=lib.float16),
                                                              lib.zeros(1, 1, 1, dtype=lib.float16)),
    "triangular_solve_half_empty": lambda lib: lib.triangular_solve(lib.zeros(0, 1, dtype=lib.float16),
                                                                    lib.zeros(0, 0, dtype=lib.float16)),
    "cholesky_solve_not_square": lambda lib: lib.cholesky_solve(lib.zeros(1, 4), lib.zeros(1, 4)),
    "vecdot_int": lambda lib: lib.linalg.vecdot(lib.zeros(4, dtype=lib.int8), lib.zeros(4, dtype=lib.complex64)),
    # LAPACK that does not converge: PyTorch's LinAlgError, naming the matrix of the batch
    "svd_nan": lambda lib: lib.linalg.svd(lib.tensor([[nan, 1.0], [1.0, 1.0]])),
    "svdvals_nan_batch": lambda lib: lib.linalg.svdvals(lib.tensor([[[1.0, 2], [3, 4]], [[nan, 1.0], [1, 1]]])),
    "matrix_norm_nuc_nan": lambda lib: lib.linalg.matrix_norm(lib.tensor([[nan, 1.0], [1.0, 1.0]]), "nuc"),
    # cholesky: nan fails LAPACK's pivot test; a failed cholesky_ex factor has a gradient as PyTorch's
    "cholesky_nan": lambda lib: lib.linalg.cholesky(lib.tensor([[inf, 1.0], [1.0, nan]])),
    "cholesky_legacy_nan_batch": lambda lib: lib.cholesky(lib.tensor([[[4.0, 1], [1, 3]], [[1.0, 2], [2, nan]]])),
    "triangle_of_inf": lambda lib: lib.linalg.eigvalsh(lib.tensor([[[1.0, inf], [0.5, 2.0]], [[1.0, 0.5], [nan, 2.0]]])),
    # distances
    "cdist_p0_nan": lambda lib: lib.cdist(lib.zeros(2, 2, dtype=lib.float64),
                                          lib.tensor([[nan, 1.0], [inf, 0.0]], dtype=lib.float64), p=0),
    "pairwise_distance_complex_other": lambda lib: lib.nn.functional.pairwise_distance(
        lib.ones(4, 1, 4), lib.tensor(40 + 2j, dtype=lib.complex128)),
    # pooling sizes (PyTorch's _list_with_default) and the sizes read first
    "adaptive_avg_pool2d_1d": lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(4), (3, 5)),
    "adaptive_avg_pool2d_2d_pair": lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(2, 3), (3, 5)),
    "adaptive_avg_pool2d_one_size": lambda lib: lib.nn.functional.adaptive_avg_pool2d(lib.ones(1, 2, 3), (3,)),
    "adaptive_max_pool2d_1d": lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(4), (3, 5)),
    "adaptive_max_pool2d_one_size": lambda lib: lib.nn.functional.adaptive_max_pool2d(lib.ones(1, 2, 3), (3,)),
    "avg_pool2d_0d": lambda lib: lib.nn.functional.avg_pool2d(lib.tensor(1.0), 2),
    "lp_pool2d_0d": lambda lib: lib.nn.functional.lp_pool2d(lib.tensor(1.0), 2, 2),
    "size_of_0d": lambda lib: lib.tensor(1.0).size(0),
    "stride_of_0d": lambda lib: lib.tensor(1.0).stride(-1),
    "unfold_0d": lambda lib: lib.nn.functional.unfold(lib.tensor(1.0), 2),
    "unfold_1d": lambda lib: lib.nn.functional.unfold(lib.ones(3), 2),
    # ctc_loss: its dtypes first, then 3 dims after the unbatched unsqueeze
    "ctc_loss_0d": lambda lib: lib.nn.functional.ctc_loss(lib.tensor(-3.0), lib.tensor([1, 2]), [4], [2]),
    "ctc_loss_1d": lambda lib: lib.nn.functional.ctc_loss(lib.zeros(4), lib.tensor([1, 2]), [4], [2]),
    "ctc_loss_4d": lambda lib: lib.nn.functional.ctc_loss(lib.zeros(2, 3, 4, 5), lib.tensor([1, 2]), [4], [2]),
    "ctc_loss_uint8": lambda lib: lib.nn.functional.ctc_loss(lib.zeros(4, dtype=lib.uint8), lib.tensor([[1, 2]]),
                                                             [4], [2]),
    "ctc_loss_half": lambda lib: lib.nn.functional.ctc_loss(lib.zeros(4, 1, 3, dtype=lib.float16),
                                                            lib.tensor([[1, 2]]), [4], [2]),
    # interpolate: the sizes before the dtype, PyTorch's dtype names, uint8 nearest
    "interpolate_int32_linear": lambda lib: lib.nn.functional.interpolate(lib.zeros(1, 1, 2, dtype=lib.int32), size=3,
                                                                          mode="linear"),
    "interpolate_empty_int64": lambda lib: lib.nn.functional.interpolate(lib.zeros(1, 2, 0, dtype=lib.int64), size=3),
    "interpolate_uint8_nearest": lambda lib: lib.nn.functional.interpolate(
        lib.arange(60, dtype=lib.uint8).reshape(1, 3, 4, 5), size=(7, 3), mode="nearest-exact"),
    # complex convolution: the weight's type is checked first
    "conv1d_complex_real_weight": lambda lib: lib.nn.functional.conv1d(lib.zeros(1, 2, 4, dtype=lib.complex64),
                                                                       lib.zeros(2, 2, 2, dtype=lib.float64)),
    "conv_transpose1d_complex_2d_weight": lambda lib: lib.nn.functional.conv_transpose1d(
        lib.zeros(1, 4, dtype=lib.complex128), lib.zeros(4, 4, dtype=lib.float64)),
    # local_response_norm pools a window of channels: a nan stays in its windows
    "local_response_norm_nan": lambda lib: lib.nn.functional.local_response_norm(
        lib.tensor([[[1.0], [nan], [2.0], [3.0], [-1.0]]]), 2),
    "local_response_norm_4d": lambda lib: lib.nn.functional.local_response_norm(_m(lib, 2, 5, 2, 3), 3),
    "local_response_norm_bool": lambda lib: lib.nn.functional.local_response_norm(lib.zeros(2, 1, 1, dtype=lib.bool),
                                                                                  2),
    # reflection padding checks the last dim first
    "pad_reflect_last_dim_first": lambda lib: lib.nn.functional.pad(lib.zeros(4, 1, 1), (0, 1, 1, 1), mode="reflect"),
    "pad_reflect_3d_order": lambda lib: lib.nn.functional.pad(lib.zeros(1, 1, 2, 2, 3), (2,) * 6, mode="reflect"),
    # batch_norm of an empty input: a copy (weight[0], bias[0] applied), whatever the dtype
    "batch_norm_empty_int8": lambda lib: lib.nn.functional.batch_norm(lib.zeros(0, 0, dtype=lib.int8), None, None,
                                                                      training=True),
    "batch_norm_empty_affine": lambda lib: lib.nn.functional.batch_norm(lib.zeros(0, 3), None, None,
                                                                        lib.full((3,), 2.0), lib.ones(3),
                                                                        training=True),
    # with requires_grad PyTorch's im2col reads other sizes first
    "unfold_0d_requires_grad": lambda lib: lib.nn.functional.unfold(_with_grad(lib, lib.tensor(1.0)), 2),
    "unfold_1d_requires_grad": lambda lib: lib.nn.functional.unfold(_with_grad(lib, lib.ones(3)), 2),
    # matmul folds a batch into one mm or mv (PyTorch's should_fold: strides, requires_grad), else bmm;
    # each reports its own errors, and none has a bool kernel
    "matmul_bool_batched": lambda lib: lib.ones(1, 2, 2, dtype=lib.bool) @ lib.ones(1, 2, 2, dtype=lib.bool),
    "matmul_bool_folded_mv": lambda lib: lib.ones(1, 2, 2, dtype=lib.bool) @ lib.ones(2, dtype=lib.bool),
    "matmul_bool_empty_batch": lambda lib: lib.ones(0, 2, 2, dtype=lib.bool) @ lib.ones(0, 2, 2, dtype=lib.bool),
    "dot_bool_empty": lambda lib: lib.ones(0, dtype=lib.bool) @ lib.ones(0, dtype=lib.bool),
    "mv_dtypes": lambda lib: lib.ones(2, 4, dtype=lib.complex64) @ lib.ones(4),
    "matmul_folded_mv_dtypes": lambda lib: lib.ones(1, 2, 4, dtype=lib.complex64) @ lib.ones(4, dtype=lib.float16),
    "matmul_batched_dtypes": lambda lib: lib.ones(1, 2, 4, dtype=lib.complex64) @ lib.ones(1, 4, 3),
    "matmul_empty_batched_dtypes": lambda lib: lib.ones(1, 3, 0) @ lib.ones(1, 0, 3, dtype=lib.complex64),
    "matmul_unfoldable_strides": lambda lib: lib.from_numpy(np.ones((2, 3, 2)).swapaxes(0, 1)) @ lib.ones(
        2, dtype=lib.float32),
    "matmul_vector_batch_folds": lambda lib: lib.ones(3) @ lib.ones(1, 0, 3),
    "matmul_batch_broadcast_zero": lambda lib: lib.ones(1, 3, 0) @ lib.ones(0, 2, 3),
    "matmul_batch_of_one_requires_grad": lambda lib: _with_grad(lib, lib.ones(1, 3, 0)) @ lib.ones(2, 2, 3),
    "tensordot_bool_size_one_dims": lambda lib: lib.tensordot(lib.ones(4, 1, 1, dtype=lib.bool),
                                                              lib.ones(1, 1, 1, dtype=lib.bool)),
    "tensordot_bool_empty_dot": lambda lib: lib.tensordot(lib.ones(0, dtype=lib.bool), lib.ones(0, dtype=lib.bool), 1),
    # LAPACK kernels: none for integers, bool or float16; an empty input runs none (its result keeps
    # the dtype), except where PyTorch checks the dtype itself
    "eigh_empty_int": lambda lib: lib.linalg.eigh(lib.ones(2, 0, 0, dtype=lib.int64)),
    "eigvalsh_empty_bool": lambda lib: lib.linalg.eigvalsh(lib.ones(0, 0, dtype=lib.bool)),
    "lu_factor_empty_int8": lambda lib: lib.linalg.lu_factor(lib.ones(0, 0, dtype=lib.int8)),
    "lu_empty_half": lambda lib: lib.linalg.lu(lib.ones(2, 0, 0, dtype=lib.float16)),
    "cholesky_legacy_int": lambda lib: lib.cholesky(lib.ones(1, 1, dtype=lib.int8)),
    "cholesky_legacy_empty_int": lambda lib: lib.cholesky(lib.ones(0, 0, dtype=lib.int8)),
    "cholesky_empty_half": lambda lib: lib.linalg.cholesky(lib.ones(0, 0, dtype=lib.float16)),
    "cholesky_ex_empty_batch": lambda lib: lib.linalg.cholesky_ex(lib.ones(2, 0, 0, dtype=lib.float16)),
    "det_empty_half": lambda lib: lib.linalg.det(lib.ones(2, 0, 0, dtype=lib.float16)),
    "svd_empty_half": lambda lib: lib.linalg.svd(lib.ones(0, 0, dtype=lib.float16)),
    "solve_empty_half": lambda lib: lib.linalg.solve(lib.ones(0, 0, dtype=lib.float16), lib.ones(0, 0, dtype=lib.float16)),
    "cholesky_solve_int": lambda lib: lib.cholesky_solve(lib.ones(1, 1, dtype=lib.int64), lib.ones(1, 1, dtype=lib.int64)),
    "cholesky_inverse_empty_int": lambda lib: lib.cholesky_inverse(lib.ones(0, 0, dtype=lib.int8)),
    "solve_triangular_half": lambda lib: lib.linalg.solve_triangular(lib.ones(0, 0, dtype=lib.float16),
                                                                     lib.ones(0, 0, dtype=lib.float16), upper=True),
    "logdet_half": lambda lib: lib.logdet(lib.ones(1, 1, dtype=lib.float16)),
    "inv_ex_int_names_inv": lambda lib: lib.linalg.inv_ex(lib.ones(2, 2, dtype=lib.int64)),
    # checked in PyTorch's order: dims wrapped first; the largest sum of none is 0; a vector B with left=False
    "matrix_norm_dim_out_of_range": lambda lib: lib.linalg.matrix_norm(lib.ones(0, 3), 2, (0, 2)),
    "matrix_norm_inf_empty": lambda lib: lib.linalg.matrix_norm(lib.ones(0, 2), float("inf")),
    "matrix_norm_one_empty": lambda lib: lib.linalg.matrix_norm(lib.ones(2, 0, 3), 1, (0, 1)),
    "solve_vector_right_after_shapes": lambda lib: lib.linalg.solve(lib.ones(1, 1), lib.ones(1), left=False),
    # PyTorch differentiates cholesky_ex's partial factor of a matrix that is not positive definite
    "cholesky_ex_failed_gradient": lambda lib: _cholesky_ex_failed_gradient(lib),
    "pinv_nan": lambda lib: lib.linalg.pinv(lib.full((1, 3), nan, dtype=lib.float64)),
    "cond_nuc_gradient": lambda lib: _grad_of(lib, lambda a: lib.linalg.cond(a, "nuc"), [[1.0, 2.0], [3.0, 4.0]]),
    "matrix_norm_empty_max_outside_graph": lambda lib: lib.tensor(
        [lib.linalg.matrix_norm(_with_grad(lib, lib.ones(2, 0)), o).requires_grad for o in (1, 2, float("inf"))]),
    "det_empty_gradient_outside_graph": lambda lib: lib.tensor([_det_empty_grad_requires_grad(lib)]),
    "repeat_interleave_uint8": lambda lib: lib.repeat_interleave(lib.tensor([2, 1], dtype=lib.uint8)),
    "repeat_interleave_int32_dtype": lambda lib: lib.repeat_interleave(lib.tensor([2, 1], dtype=lib.int32)),
    "gather_empty_float_index": lambda lib: lib.gather(lib.ones(3), 0, lib.ones(0)),
    "take_along_dim_empty_bool_index": lambda lib: lib.take_along_dim(lib.ones(0, 2), lib.ones(0, 2, dtype=lib.bool)),
    "vdot_bool_empty": lambda lib: lib.vdot(lib.ones(0, dtype=lib.bool), lib.ones(0, dtype=lib.bool)),
    "matrix_rank_rtol_int_empty": lambda lib: lib.linalg.matrix_rank(lib.ones(4, 2, 1, 0, dtype=lib.int64), rtol=0.1),
    "matrix_rank_rtol_int": lambda lib: lib.linalg.matrix_rank(lib.ones(3, 2, dtype=lib.int64), rtol=0.1),
    "matrix_rank_tol_half": lambda lib: lib.linalg.matrix_rank(lib.ones(2, 2, dtype=lib.float16), tol=0.1),
    "matrix_rank_hermitian_not_square": lambda lib: lib.linalg.matrix_rank(lib.ones(2, 3), hermitian=True),
    "block_diag_0d_ranks_below": lambda lib: lib.block_diag(lib.tensor(239, dtype=lib.int32),
                                                            lib.ones(3, dtype=lib.int8)),
    "einsum_sizes_before_dtypes": lambda lib: lib.einsum("ij,jk->ik", lib.ones(3, 2), lib.ones(3, 2, dtype=lib.complex64)),
    "einsum_product_promotes": lambda lib: lib.einsum("ij,jk->ik", lib.ones(2, 1, dtype=lib.int64), lib.ones(1, 2)),
    "einsum_empty_promotes": lambda lib: lib.einsum("ij,jk->ik", lib.ones(0, 3, dtype=lib.int64),
                                                    lib.ones(3, 2, dtype=lib.float64)),
    "einsum_contraction_one_dtype": lambda lib: lib.einsum("i,i->", lib.ones(3, dtype=lib.int32), lib.ones(3)),
    "logdet_tangent_singular": lambda lib: _logdet_tangent(lib),
    # the SVD of non-finite input as PyTorch's (MKL): nan raises, inf gives nan; OpenBLAS's gesdd is never
    # called on it (it may not return: this matrix made it loop)
    "svd_inf_is_nan": lambda lib: lib.linalg.svdvals(lib.tensor([[-inf, -1.0, -1e-30, -inf], [1e30, 6.0, -40.0, 6.0],
                                                                [0.5, -1e-30, -1e-30, 1e-200]], dtype=lib.float64)),
    "svd_batch_nan_names_element": lambda lib: lib.linalg.svd(lib.tensor([[[1.0, 2.0], [3.0, 4.0]], [[nan, 1.0], [2.0, 3.0]]])),
    "matrix_rank_inf": lambda lib: lib.linalg.matrix_rank(lib.tensor([[inf, 1.0], [1.0, 1.0]])),
    "cross_bool_kernel_first": lambda lib: lib.linalg.cross(lib.ones(3, dtype=lib.bool), lib.ones(3, dtype=lib.float16)),
    "lstsq_inf_is_nan": lambda lib: lib.linalg.lstsq(lib.tensor([[inf], [1.0]], dtype=lib.complex128),
                                                     lib.ones(2, 1, dtype=lib.complex128)).solution,
}


def _logdet_tangent(lib):
    fwd = lib.autograd.forward_ad
    with fwd.dual_level():
        a = fwd.make_dual(lib.diag(lib.tensor([6.0, 0.0, 2.0], dtype=lib.float64)), lib.eye(3, dtype=lib.float64))
        return fwd.unpack_dual(lib.logdet(a)).tangent.isfinite()


def _grad_of(lib, fn, value):
    a = lib.tensor(value, dtype=lib.float64, requires_grad=True)
    return lib.autograd.grad(fn(a), a)[0]


def _lstsq_copies(lib, a_shape, b_shape, driver):
    a = lib.arange(float(np.prod(a_shape)), dtype=lib.float64).reshape(a_shape).cos().requires_grad_()
    b = lib.arange(float(np.prod(b_shape)), dtype=lib.float64).reshape(b_shape).sin().requires_grad_()
    solution, residuals, _, _ = lib.linalg.lstsq(a, b, driver=driver)
    return (solution, residuals, *lib.autograd.grad((solution.sum() + residuals.sum()), (a, b)))


def _det_empty_grad_requires_grad(lib):
    a = lib.ones(2, 0, 0, requires_grad=True)
    return lib.autograd.grad(lib.linalg.det(a).sum(), a, create_graph=True)[0].requires_grad


def _cholesky_ex_failed_gradient(lib):
    a = lib.tensor([[[4.0, 2.0], [2.0, 1.0]], [[4.0, 2.0], [2.0, 3.0]]], requires_grad=True)
    return lib.autograd.grad(lib.linalg.cholesky_ex(a)[0].sum(), a)[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_outcome(name):
    torch = require_torch()
    assert outcome(CASES[name], chainrule) == outcome(CASES[name], torch)


# PyTorch's backward of these takes the forward's input: under create_graph the gradient is
# connected to it (its derivative there is zero), so a second derivative is zeros, not an error
SECOND_ORDER = {
    "avg_pool2d": lambda F, x: F.avg_pool2d(x, 2),
    "avg_pool1d": lambda F, x: F.avg_pool1d(x.flatten(2), 2),
    "adaptive_avg_pool2d": lambda F, x: F.adaptive_avg_pool2d(x, (3, 2)),
    "adaptive_max_pool2d": lambda F, x: F.adaptive_max_pool2d(x, (3, 2)),
    "adaptive_max_pool1d": lambda F, x: F.adaptive_max_pool1d(x.flatten(2), 3),
    "max_pool2d": lambda F, x: F.max_pool2d(x, 2),
    "pad_reflect": lambda F, x: F.pad(x, (1, 1, 1, 1), mode="reflect"),
    "pad_replicate": lambda F, x: F.pad(x, (1, 1, 1, 1), mode="replicate"),
    "pad_circular": lambda F, x: F.pad(x, (1, 1, 1, 1), mode="circular"),
    "pad_constant": lambda F, x: F.pad(x, (1, 1, 1, 1)),
    "interpolate_bilinear": lambda F, x: F.interpolate(x, scale_factor=2, mode="bilinear"),
    "nll_loss": lambda F, x: F.nll_loss(x.flatten(1), (x.detach()[:, 0, 0, 0] > 2).long()),
    "nll_loss_all_ignored": lambda F, x: F.nll_loss(x.flatten(1), (x.detach()[:, 0, 0, 0] * 0).long(), ignore_index=0),
    "nll_loss2d": lambda F, x: F.nll_loss(x, (x.detach()[:, 0] > 10).long(), reduction="sum"),
}


def _second_order(lib, name):
    x = lib.arange(32, dtype=lib.float64).reshape(1, 2, 4, 4).requires_grad_()
    y = SECOND_ORDER[name](lib.nn.functional, x)
    g, = lib.autograd.grad(y, x, lib.ones_like(y), create_graph=True)
    if not g.requires_grad:
        return None
    g2, = lib.autograd.grad((g * g).sum(), x, allow_unused=True)
    return type(g.grad_fn).__name__, None if g2 is None else g2.tolist()


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_same_second_order_graph(name):
    torch = require_torch()
    assert _second_order(chainrule, name) == _second_order(torch, name)


def _det_1x1_gradient(lib, outer):
    """The gradient of a 1x1 determinant is the incoming gradient itself (PyTorch adds no node
    of its own): without a graph above the determinant it does not require grad."""
    x = lib.full((2, 1, 1), 2.0, dtype=lib.float64, requires_grad=True)
    g, = lib.autograd.grad(outer(lib.linalg.det(x + 3)).sum(), x, create_graph=True)
    values = np.round(g.detach().numpy(), 12).tolist()  # NumPy's det goes through logarithms: 5 is 5 - 1e-15
    if not g.requires_grad:
        return values, None
    return values, type(g.grad_fn).__name__, lib.autograd.grad(g.sum(), x)[0].tolist()


@pytest.mark.parametrize("outer", [lambda d: d, lambda d: d * d], ids=["linear", "square"])
def test_det_1x1_gradient_graph(outer):
    torch = require_torch()
    assert _det_1x1_gradient(chainrule, outer) == _det_1x1_gradient(torch, outer)


def _solve_triangular_mixed(lib, a_dtype, b_dtype, cast):
    """solve_triangular in A's dtype: B is cast to it (complex A, real B: PyTorch's own
    backward fails there, so its reference is the program with the cast written out)."""
    A = lib.tensor([[1.75 - 2j, 0.5], [0, 2]]).to(getattr(lib, a_dtype)).requires_grad_()
    B = lib.tensor([[-3.75], [1.25]]).to(getattr(lib, b_dtype)).requires_grad_()
    x = lib.linalg.solve_triangular(A, B.to(A.dtype) if cast else B, upper=True)
    grads = lib.autograd.grad(x.abs().sum(), (A, B))
    return [(str(t.dtype).split(".")[-1], np.round(t.detach().numpy().astype(complex), 4).tolist())
            for t in (x,) + grads]


@pytest.mark.parametrize("a_dtype, b_dtype", [("complex64", "float16"), ("complex128", "float32"),
                                              ("float32", "float64"), ("float64", "float16")])
def test_solve_triangular_solves_in_A_dtype(a_dtype, b_dtype):
    torch = require_torch()
    cast = a_dtype.startswith("complex")
    assert _solve_triangular_mixed(chainrule, a_dtype, b_dtype, False) == _solve_triangular_mixed(torch, a_dtype,
                                                                                                  b_dtype, cast)


def _triangular_solve_tangent(lib, b_shape, a_shape):
    """The cloned coefficient's tangent is A's, unbroadcast: PyTorch refuses one of A's
    shape for a coefficient of the broadcast batch. (1 x 1 and not unitriangular: the
    triangle read is the whole A, where PyTorch's tangent is the derivative.)"""
    fw = lib.autograd.forward_ad
    with fw.dual_level():
        A = fw.make_dual(lib.ones(a_shape, dtype=lib.float64) + 3, lib.ones(a_shape, dtype=lib.float64))
        x, _ = lib.triangular_solve(lib.ones(b_shape, dtype=lib.float64), A, True, False, False)
        return fw.unpack_dual(x).tangent


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("b_shape, a_shape", [((2, 1, 1), (1, 1)), ((2, 2, 1, 1), (1, 1)), ((1, 1), (2, 1, 1)),
                                              ((2, 1, 1), (2, 1, 1))])
def test_triangular_solve_tangent_of_broadcast_A(b_shape, a_shape):
    torch = require_torch()
    assert (outcome(lambda lib: _triangular_solve_tangent(lib, b_shape, a_shape), chainrule)
            == outcome(lambda lib: _triangular_solve_tangent(lib, b_shape, a_shape), torch))


_READ_ONE_TRIANGLE = {
    "cholesky": lambda lib, A: lib.linalg.cholesky(A),
    "cholesky_upper": lambda lib, A: lib.linalg.cholesky(A, upper=True),
    "cholesky_ex": lambda lib, A: lib.linalg.cholesky_ex(A).L,
    "eigh": lambda lib, A: lib.linalg.eigh(A)[1].abs() + lib.linalg.eigvalsh(A),
    "eigvalsh_upper": lambda lib, A: lib.linalg.eigvalsh(A, UPLO="U"),
}


def _one_triangle_derivatives(lib, name):
    """A matrix that is not Hermitian, of which LAPACK reads one triangle: PyTorch's gradient
    is Hermitian (also for the triangle not read), its tangent takes A's whole tangent."""
    x = lib.tensor([[0.0, -1.25], [0.625, 0.0]], dtype=lib.float64, requires_grad=True)
    y = lib.tensor([[0.5, 0.3], [-0.0, 2.0]], dtype=lib.float64, requires_grad=True)
    A = x @ x.mT + 2 * lib.eye(2, dtype=lib.float64) + y * lib.tensor([[False, True], [False, False]])
    gx, gy = lib.autograd.grad(_READ_ONE_TRIANGLE[name](lib, A).sum(), (x, y), create_graph=True)
    second = lib.autograd.grad((gx * gx).sum() + (gy * gy).sum(), (x, y))
    return [np.round(t.detach().numpy(), 6).tolist() for t in (gx, gy, *second)]


@pytest.mark.parametrize("name", sorted(_READ_ONE_TRIANGLE))
def test_one_triangle_read_derivatives(name):
    torch = require_torch()
    assert _one_triangle_derivatives(chainrule, name) == _one_triangle_derivatives(torch, name)


@pytest.mark.parametrize("name", sorted(_READ_ONE_TRIANGLE))
def test_one_triangle_read_tangent_is_the_derivative(name):
    """A tangent that is not Hermitian: chainrule's tangent reads the triangle the forward
    reads, as finite differences of PyTorch's forward do (PyTorch's own tangent takes the
    whole tangent: docs/differences.md)."""
    torch = require_torch()
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 3))
    A, t = x @ x.T + 3 * np.eye(3), rng.standard_normal((3, 3))
    A[0, 2] += 0.7
    fd = (_READ_ONE_TRIANGLE[name](torch, torch.tensor(A + 1e-6 * t))
          - _READ_ONE_TRIANGLE[name](torch, torch.tensor(A - 1e-6 * t))).numpy() / 2e-6
    fw = chainrule.autograd.forward_ad
    with fw.dual_level():
        dual = fw.make_dual(chainrule.tensor(A), chainrule.tensor(t))
        tangent = fw.unpack_dual(_READ_ONE_TRIANGLE[name](chainrule, dual)).tangent.numpy()
    np.testing.assert_allclose(tangent, fd, atol=1e-6)


def test_matrix_rank_hermitian_not_converging_raises_pytorchs_error_type():
    """eigvalsh that does not converge (inf in the matrix): PyTorch's LinAlgError, as eigh's own
    (the message's cause is the build's, docs/differences.md)."""
    torch = require_torch()
    x = np.full((5, 5), np.inf)
    x[np.arange(5), np.arange(5)] = [0.0046, 0.0167, 1.0, 0.0085, np.inf]
    kinds = []
    for lib in (chainrule, torch):
        with pytest.raises(Exception) as caught:
            lib.linalg.matrix_rank(lib.from_numpy(x.copy()), hermitian=True)
        kinds.append((type(caught.value).__name__, str(caught.value).split(":")[0]))
    assert kinds[0] == kinds[1]
