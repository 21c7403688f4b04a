"""Op database entries for matrix products and chainrule.linalg (_ops/linalg/: products.py and the
decomposition modules triangular.py, factorizations.py, solvers.py, matrix_functions.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

Inputs that must be square, invertible, symmetric positive definite or triangular are made
inside the entry's ``fn`` from a free matrix (``spd(lib, x)``, ``well_conditioned(lib, x)``),
so gradcheck perturbs every element freely. Decompositions whose factors are defined up to
signs (phases) are compared through what doesn't depend on them: reconstructions, singular
values, ``|U|``, projectors.
"""
import numpy as np

from op_db import Entry, ErrorCase, Sample

FLOATS = ("float32", "float64")
WITH_COMPLEX = FLOATS + ("complex128",)
WITH_INT = WITH_COMPLEX + ("int64",)
# (rtol, atol): sums of products; factorisations in float32 go through different LAPACK code
TOL = {"float32": (1e-4, 1e-4), "float64": (1e-7, 1e-7), "complex64": (1e-4, 1e-4),
       "complex128": (1e-7, 1e-7), "int64": (0, 0)}


def _m(*shape, dtype="float32"):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


SINGULAR = np.array([[1.0, 2.0], [2.0, 4.0]], dtype="float32")
SINGULAR_BATCH = np.stack([np.eye(2, dtype="float32"), SINGULAR])
NOT_PD = np.array([[1.0, 2.0], [2.0, 1.0]], dtype="float32")
HERMITIAN = np.array([[2.0, 1 - 1j], [1 + 1j, 3.0]])
COMPLEX = np.array([[1 + 2j, 0.5], [-1j, 2 - 1j]])


# --- making structured matrices from free ones, the same way in both libraries -------------------


def well_conditioned(lib, x):
    """x plus a multiple of the identity: far from singular for the small x the samples hold."""
    n = x.shape[-1]
    return x + 3 * lib.eye(n, dtype=x.dtype)


def spd(lib, x):
    """A Hermitian positive definite matrix: x x^H + n I."""
    n = x.shape[-1]
    return x @ x.mT.conj() + n * lib.eye(n, dtype=x.dtype)


def hermitian(lib, x):
    """x + x^H, with distinct eigenvalues for the samples' random x."""
    return x + x.mT.conj()


def upper(lib, x):
    """An upper triangular, well-conditioned matrix (a mask, so both libraries build it alike)."""
    mask = lib.from_numpy(np.triu(np.ones(tuple(x.shape[-2:]), dtype=bool)))
    return well_conditioned(lib, x) * mask


def lower(lib, x):
    return upper(lib, x.mT).mT


# --- products --------------------------------------------------------------------------------


def matmul_fold_samples(g):
    """Where PyTorch's matmul takes an mm: vector @ matrix, matrix @ batch (when the matrix
    requires grad; else a batched product)."""
    yield Sample("vector_matrix", (g(3), g(3, 2)))
    yield Sample("matrix_batch", (g(2, 3), g(2, 3, 2)))
    yield Sample("matrix_batch_constant", (g(2, 3), g(2, 3, 2)), grad=(1,))
    yield Sample("matrix_big_batch", (g(2, 3), g(2, 1, 3, 2)))
    yield Sample("transposed", (g.noncontig(2, 3), g.noncontig(2, 3, 2)))


def bmm_samples(g):
    yield Sample("batch", (g(2, 2, 3), g(2, 3, 2)))
    yield Sample("square", (g(3, 2, 2), g(3, 2, 2)))
    yield Sample("noncontig", (g.noncontig(2, 2, 3), g.noncontig(2, 3, 2)))
    yield Sample("empty", (g(0, 2, 3), g(0, 3, 2)))


def vector_pair_samples(g):
    yield Sample("vector", (g(4), g(4)))
    yield Sample("strided", (g.noncontig(3), g(3)))
    yield Sample("one", (g(1), g(1)))


def matrix_pair_samples(g):
    yield Sample("mm", (g(2, 3), g(3, 2)))
    yield Sample("noncontig", (g.noncontig(2, 3), g(3, 2)))


def inner_samples(g):
    yield Sample("vectors", (g(3), g(3)))
    yield Sample("matrices", (g(2, 3), g(4, 3)))
    yield Sample("batch", (g(2, 2, 3), g(3)))
    yield Sample("scalar", (g(), g(2, 3)))
    yield Sample("noncontig", (g.noncontig(2, 3), g(2, 3)))


def outer_samples(g):
    yield Sample("vectors", (g(3), g(2)))
    yield Sample("strided", (g.noncontig(3), g(4)))
    yield Sample("empty", (g(0), g(2)))
    if g.dtype == np.float32:
        yield Sample("mixed", (g(3), g(2, dtype="float64")))


def tensordot_samples(g):
    yield Sample("default", (g(2, 3, 2), g(3, 2, 2), 2))
    yield Sample("one", (g(2, 3), g(3, 4), 1))
    yield Sample("zero", (g(2), g(3), 0))
    yield Sample("lists", (g(2, 3, 4), g(4, 2, 3), ([1, 0], [2, 1])))
    yield Sample("negative_dims", (g(2, 3), g(3, 2), ([-1], [0])))
    yield Sample("broadcast_dim", (g(2, 1), g(3, 2), ([1], [0])))
    yield Sample("noncontig", (g.noncontig(3, 4), g(4, 2), 1))


def kron_samples(g):
    yield Sample("matrices", (g(2, 2), g(2, 3)))
    yield Sample("vectors", (g(3), g(2)))
    yield Sample("mixed_ndim", (g(2), g(2, 2)))
    yield Sample("scalar", (g(), g(2, 2)))
    yield Sample("strided", (g.noncontig(3), g(2, 1)))
    if g.dtype == np.float32:
        yield Sample("mixed_dtype", (g(2, 2), g(2, dtype="float64")))


def einsum_samples(g):
    yield Sample("matmul", ("ij,jk->ik", g(2, 3), g(3, 2)))
    yield Sample("implicit", ("ij,jk", g(2, 3), g(3, 2)))
    yield Sample("column_sum", ("ij->j", g(3, 2)))
    yield Sample("trace", ("ii", g(3, 3)))
    yield Sample("diagonal", ("ii->i", g(3, 3)))
    yield Sample("transpose", ("ij->ji", g(2, 3)))
    yield Sample("outer", ("i,j->ij", g(3), g(2)))
    yield Sample("hadamard", ("ij,ij->ij", g(2, 3), g(2, 3)))
    yield Sample("dot", ("i,i->", g(3), g(3)))
    yield Sample("batched", ("bij,bjk->bik", g(2, 2, 3), g(2, 3, 2)))
    yield Sample("ellipsis", ("...ij,...jk->...ik", g(2, 2, 3), g(3, 2)))
    yield Sample("ellipsis_sum", ("...i->i", g(2, 2, 3)))
    yield Sample("three", ("ij,jk,kl->il", g(2, 3), g(3, 2), g(2, 2)))
    yield Sample("diag_two", ("ii,i->i", g(3, 3), g(3)))
    yield Sample("summed_alone", ("ij,k->ik", g(2, 3), g(2)))
    yield Sample("broadcast_label", ("ij,ij->i", g(2, 1), g(2, 3)))
    yield Sample("spaces", ("i j , j k -> i k", g(2, 3), g(3, 2)))
    yield Sample("noncontig", ("ij,jk->ik", g.noncontig(2, 3), g(3, 2)))


def addmm_samples(g):
    yield Sample("plain", (g(2, 4), g(2, 3), g(3, 4), 1, 1))
    yield Sample("scaled", (g(2, 4), g(2, 3), g(3, 4), 0.5, 2))
    yield Sample("broadcast_input", (g(4), g(2, 3), g(3, 4), 1, -1))
    yield Sample("beta_zero", (np.full((2, 2), np.nan, g.dtype), g(2, 3), g(3, 2), 0, 1), grad=(1, 2), eps=None)
    yield Sample("noncontig", (g(3, 2), g.noncontig(3, 3), g.noncontig(3, 2), 2, 1))


def addmv_samples(g):
    yield Sample("plain", (g(2), g(2, 3), g(3), 1, 1))
    yield Sample("scaled", (g(2), g(2, 3), g(3), 0.5, 2))
    yield Sample("broadcast_input", (g(1), g(2, 3), g(3), 1, 1))
    yield Sample("noncontig", (g(3), g.noncontig(3, 2), g.noncontig(2), 1, 3))


def addr_samples(g):
    yield Sample("plain", (g(2, 3), g(2), g(3), 1, 1))
    yield Sample("scaled", (g(2, 3), g(2), g(3), 2, 0.5))
    yield Sample("broadcast_input", (g(3), g(2), g(3), 1, 1))
    yield Sample("strided", (g(2, 3), g.noncontig(2), g.noncontig(3), 1, 1))


def baddbmm_samples(g):
    yield Sample("plain", (g(2, 2, 2), g(2, 2, 3), g(2, 3, 2), 1, 1))
    yield Sample("scaled", (g(2, 2, 2), g(2, 2, 3), g(2, 3, 2), 0.5, 2))
    yield Sample("broadcast_input", (g(2, 1), g(3, 2, 3), g(3, 3, 1), 1, 1))


def addbmm_samples(g):
    yield Sample("plain", (g(2, 2), g(2, 2, 3), g(2, 3, 2), 1, 1))
    yield Sample("scaled", (g(2, 2), g(2, 2, 3), g(2, 3, 2), 0.5, 2))
    yield Sample("broadcast_input", (g(1, 2), g(3, 2, 3), g(3, 3, 2), 1, 1))


def multi_dot_samples(g):
    yield Sample("two", (g(2, 3), g(3, 2)))
    yield Sample("three_left", (g(4, 2), g(2, 3), g(3, 1)))
    yield Sample("three_right", (g(1, 3), g(3, 2), g(2, 4)))
    yield Sample("four", (g(2, 3), g(3, 4), g(4, 1), g(1, 2)))
    yield Sample("vectors", (g(3), g(3, 2), g(2)))
    yield Sample("noncontig", (g.noncontig(2, 3), g(3, 2)))


def cross_samples(g):
    yield Sample("vectors", (g(3), g(3), -1))
    yield Sample("rows", (g(2, 3), g(2, 3), 1))
    yield Sample("columns", (g(3, 2), g(3, 2), 0))
    yield Sample("broadcast", (g(1, 3), g(4, 3), -1))
    yield Sample("noncontig", (g.noncontig(2, 3), g(2, 3), -1))


def cdist_samples(g):
    for p in (2.0, 1.0, 0.5, 3.0):
        yield Sample(f"p{p}", (g(3, 2), g(4, 2), p))
    yield Sample("inf", (g(3, 2), g(2, 2), float("inf")), eps=1e-6)
    yield Sample("zero", (g(3, 2), g(2, 2), 0.0))
    yield Sample("batch", (g(2, 3, 2), g(1, 2, 2), 2.0))
    yield Sample("noncontig", (g.noncontig(3, 2), g(2, 2), 2.0))


def vecdot_samples(g):
    yield Sample("vectors", (g(3), g(3), -1))
    if g.dtype.kind == "c":  # PyTorch's gradients have their conjugate bit set: numpy() refuses them
        return
    yield Sample("broadcast", (g(2, 3), g(3), -1))
    yield Sample("dim", (g(3, 2), g(3, 2), 0))
    yield Sample("noncontig", (g.noncontig(2, 3), g(2, 3), 1))


def vector_norm_samples(g):
    for p in (2, 1, 3, 0.5, -1):
        yield Sample(f"ord{p}", (g(2, 3), p, None, False))
    yield Sample("inf", (g(2, 3), float("inf"), None, False))
    yield Sample("neg_inf", (g(2, 3), -float("inf"), 1, False))
    yield Sample("zero", (g(2, 3), 0, None, False))
    yield Sample("dim", (g(2, 3), 2, 1, False))
    yield Sample("dims_keepdim", (g(2, 3, 2), 2, (0, 2), True))
    yield Sample("inf_dim_keepdim", (g(2, 3), float("inf"), 0, True))
    yield Sample("scalar", (g(), 2, None, False))
    yield Sample("noncontig", (g.noncontig(3, 2), 1.5, -1, False))
    yield Sample("empty", (g(0, 3), 2, None, False))
    yield Sample("ties_inf", (np.array([1.0, -2.0, 2.0], g.dtype), float("inf"), None, False), eps=None)


def matrix_exp_samples(g):
    yield Sample("matrix", (g(3, 3),))
    yield Sample("batch", (g(2, 2, 2),))
    yield Sample("large_norm", (g(2, 2) * 4,))
    yield Sample("one", (g(1, 1),))
    yield Sample("noncontig", (g.noncontig(2, 2),))


# --- decompositions and solvers --------------------------------------------------------------


def _strict_upper(lib, y):
    return y * lib.from_numpy(np.triu(np.ones(tuple(y.shape[-2:]), dtype=bool), 1))


def square_samples(g):
    yield Sample("matrix", (g(3, 3),))
    yield Sample("batch", (g(2, 2, 2),))
    yield Sample("one", (g(1, 1),))
    yield Sample("noncontig", (g.noncontig(3, 3),))


def singular_samples(g):
    """Singular matrices: PyTorch's gradient of det there is 0 in a first backward, the
    adjugate in a second (compared with PyTorch only: finite differences see the kink)."""
    yield Sample("rank_one", (np.array([[1.0, 2.0], [2.0, 4.0]], g.dtype),), eps=None)
    # a rank-two matrix whose LU has an exact zero pivot in every LAPACK build (else det is rounding noise)
    yield Sample("rank_two", (np.array([[2.0, 1.0, 0.0], [4.0, 2.0, 0.0], [1.0, 3.0, 5.0]], g.dtype),), eps=None)
    yield Sample("batch", (np.array([[[2.0, 1.0], [1.0, 3.0]], [[1.0, 2.0], [2.0, 4.0]]], g.dtype),), eps=None)


def _not_positive_definite(g):
    """A batch with one matrix that is not positive definite (its second pivot is -4)."""
    batch = np.array([[[4.0, 2.0], [2.0, -3.0]], [[4.0, 2.0], [2.0, 3.0]]], g.dtype)
    yield Sample("lower", (batch, False), eps=None)
    yield Sample("upper", (batch, True), eps=None)


def solve_samples(g):
    yield Sample("matrix", (g(3, 3), g(3, 2), True))
    yield Sample("vector", (g(3, 3), g(3), True))
    yield Sample("broadcast", (g(2, 3, 3), g(3, 2), True))
    yield Sample("batch_vectors", (g(2, 3, 3), g(2, 3), True))
    if g.dtype.kind == "f":  # PyTorch's complex result has its conjugate bit set: numpy() refuses it
        yield Sample("right", (g(3, 3), g(2, 3), False))
    yield Sample("noncontig", (g.noncontig(3, 3), g.noncontig(3, 2), True))


def singular_solve_samples(g):
    """Singular systems: the solver's infinities, and info."""
    yield Sample("matrix", (np.array([[1.0, 2.0], [2.0, 4.0]], g.dtype), np.eye(2, dtype=g.dtype)), grad=())
    yield Sample("vector", (np.array([[1.0, 2.0], [2.0, 4.0]], g.dtype), np.ones(2, g.dtype)), grad=())


def lstsq_samples(g):
    yield Sample("tall", (g(4, 3), g(4, 2), None))
    yield Sample("tall_gelsd", (g(4, 3), g(4, 2), "gelsd"))
    yield Sample("tall_gels", (g(4, 2), g(4, 1), "gels"))
    yield Sample("square_gelss", (g(3, 3) + 3 * np.eye(3, dtype=g.dtype), g(3, 2), "gelss"))
    yield Sample("wide", (g(2, 3), g(2, 2), None))
    yield Sample("vector", (g(4, 3), g(4), "gelsd"))
    yield Sample("batch", (g(2, 4, 2), g(2, 4, 1), "gelsd"))


def cholesky_samples(g):
    yield Sample("lower", (g(3, 3), False))
    yield Sample("upper", (g(3, 3), True))
    yield Sample("batch", (g(2, 2, 2), False))
    yield Sample("noncontig", (g.noncontig(3, 3), True))


def triangle_read_samples(g):
    """A matrix with values in the triangle that is not read (they don't require grad)."""
    yield Sample("lower_read", (g(3, 3), g(3, 3), False), grad=(0,))
    yield Sample("upper_read", (g(3, 3), g(3, 3).swapaxes(-1, -2).copy(), True), grad=(0,))


def cholesky_solve_samples(g):
    yield Sample("lower", (g(3, 2), g(3, 3), False))
    yield Sample("upper", (g(3, 2), g(3, 3), True))
    yield Sample("broadcast", (g(2, 3, 1), g(3, 3), False))
    yield Sample("noncontig", (g.noncontig(3, 2), g.noncontig(3, 3), True))


def solve_triangular_samples(g):
    yield Sample("upper", (g(3, 3), g(3, 2), True, True, False))
    yield Sample("lower", (g(3, 3), g(3, 2), False, True, False))
    yield Sample("right", (g(3, 3), g(2, 3), True, False, False))
    yield Sample("unit", (g(3, 3), g(3, 2), False, True, True))
    yield Sample("right_unit", (g(3, 3), g(2, 3), False, False, True))
    yield Sample("broadcast", (g(2, 3, 3), g(3, 1), True, True, False))
    yield Sample("noncontig", (g.noncontig(3, 3), g.noncontig(3, 2), False, True, False))


def triangular_solve_samples(g):
    yield Sample("upper", (g(3, 2), g(3, 3), True, False, False))
    yield Sample("lower", (g(3, 2), g(3, 3), False, False, False))
    yield Sample("transpose", (g(3, 2), g(3, 3), True, True, False))
    yield Sample("unit", (g(3, 2), g(3, 3), False, True, True))
    yield Sample("batch", (g(2, 3, 1), g(2, 3, 3), True, False, False))


def qr_samples(g):
    yield Sample("square", (g(3, 3), "reduced"))
    yield Sample("tall", (g(4, 2), "reduced"))
    yield Sample("wide", (g(2, 4), "reduced"))
    yield Sample("wide_complete", (g(2, 3), "complete"))
    yield Sample("tall_complete", (g(3, 2), "complete"), grad=())
    yield Sample("r", (g(3, 2), "r"), grad=())
    yield Sample("batch", (g(2, 3, 2), "reduced"))
    yield Sample("noncontig", (g.noncontig(3, 3), "reduced"))


def hermitian_samples(g):
    yield Sample("lower", (g(3, 3), "L"))
    yield Sample("upper", (g(3, 3), "U"))
    yield Sample("batch", (g(2, 2, 2), "L"))
    yield Sample("one", (g(1, 1), "L"))
    yield Sample("noncontig", (g.noncontig(3, 3), "L"))


def svd_samples(g):
    yield Sample("square", (g(3, 3), True))
    yield Sample("tall", (g(4, 2), False))
    yield Sample("wide", (g(2, 4), False))
    yield Sample("tall_full", (g(3, 2), True), eps=None)  # the extra columns of U: no derivative
    yield Sample("wide_full", (g(2, 3), True), eps=None)
    yield Sample("batch", (g(2, 3, 2), False))
    yield Sample("noncontig", (g.noncontig(3, 3), False))


def rectangular_samples(g):
    yield Sample("square", (g(3, 3),))
    yield Sample("tall", (g(4, 2),))
    yield Sample("wide", (g(2, 3),))
    yield Sample("batch", (g(2, 3, 2),))
    yield Sample("noncontig", (g.noncontig(3, 2),))


def pinv_samples(g):
    yield from rectangular_samples(g)
    yield Sample("rank_deficient", (np.array([[1.0, 2.0], [2.0, 4.0], [0.5, 1.0]], g.dtype),), eps=None)


def matrix_norm_samples(g):
    for order in ("fro", "nuc", 1, -1, 2, -2, float("inf"), -float("inf")):
        yield Sample(f"ord_{order}", (g(3, 2), order, (-2, -1), False))
    yield Sample("keepdim_nuc", (g(2, 3, 2), "nuc", (-2, -1), True))
    yield Sample("keepdim_2", (g(2, 2, 3), 2, (0, 2), True))
    yield Sample("keepdim_1", (g(2, 3, 2), 1, (0, 1), True))
    yield Sample("dims_inf", (g(2, 3, 2), float("inf"), (2, 0), False))
    yield Sample("batch_fro", (g(2, 2, 3), "fro", (-2, -1), False))


def norm_samples(g):
    yield Sample("default", (g(2, 3), None, None, False))
    yield Sample("matrix_ord", (g(3, 3), 2, None, False))
    yield Sample("vector_ord", (g(4), 3, None, False))
    yield Sample("string", (g(3, 2), "nuc", None, False))
    yield Sample("dim", (g(2, 3), None, 1, True))
    yield Sample("two_dims", (g(2, 3, 2), -1, (0, 2), False))
    yield Sample("one_dim_ord", (g(2, 3), float("inf"), (1,), False))


def matrix_power_samples(g):
    for n in (0, 1, 2, 3, 5, -1, -2, -3):  # near the identity: the powers (and inverses) stay moderate
        yield Sample(f"n{n}", (g(3, 3) / 4 + np.eye(3, dtype=g.dtype), n))
    yield Sample("batch", (g(2, 2, 2) / 4 + np.eye(2, dtype=g.dtype), 4))


def rank_samples(g):
    yield Sample("full", (g(3, 3), None, None, False))
    yield Sample("deficient", (np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.0, 1.0, 1.0]], g.dtype), None, None,
                               False))
    yield Sample("atol", (g(2, 3, 3), 0.5, None, False))
    yield Sample("rtol", (g(3, 2), None, 0.4, False))
    yield Sample("hermitian", (np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 0.0], [0.0, 0.0, 0.0]], g.dtype), None, None,
                               True))


def cond_samples(g):
    for p in (None, 2, -2):
        yield Sample(f"p_{p}", (g(3, 3) + 3 * np.eye(3, dtype=g.dtype), p))
    for p in (1, -1, float("inf"), "fro", "nuc"):  # PyTorch's backward raises for these (see ERRORS)
        yield Sample(f"p_{p}", (g(3, 3), p), grad=())
    yield Sample("batch", (g(2, 2, 2) + 3 * np.eye(2, dtype=g.dtype), None))


def lu_samples(g):
    yield Sample("square", (g(3, 3),))
    yield Sample("batch", (g(2, 3, 3),))
    yield Sample("tall", (g(4, 2),))
    yield Sample("wide", (g(2, 4),))
    yield Sample("noncontig", (g.noncontig(3, 3),))


def lu_solve_samples(g):
    yield Sample("left", (g(3, 3), g(3, 2), True, False))
    yield Sample("adjoint", (g(3, 3), g(3, 2), True, True))
    if g.dtype.kind == "f":  # PyTorch's complex result has its conjugate bit set: numpy() refuses it
        yield Sample("right", (g(3, 3), g(2, 3), False, False))
        yield Sample("right_adjoint", (g(3, 3), g(2, 3), False, True))
    yield Sample("batch", (g(2, 3, 3), g(2, 3, 1), True, False))


def first_two(samples):
    """The first two of a generator's samples: enough for a wrapper around a tested op."""
    def two(g):
        return (s for i, s in zip(range(2), samples(g)))
    return two


def _svd_invariants(lib, u, s, vh):
    """What doesn't depend on the singular vectors' signs (phases): S, |U|, |Vh| and U S Vh,
    over the k = min(m, n) singular triplets."""
    k = s.shape[-1]
    u, vh = u[..., :k], vh[..., :k, :]
    return s, u.abs(), vh.abs(), (u * s.unsqueeze(-2).to(u.dtype)) @ vh


def _eigh_invariants(lib, values, vectors):
    return values, vectors.abs()


ENTRIES = [
    # products
    Entry("matmul_folded", lambda lib, a, b: a @ b, matmul_fold_samples, covers=("matmul_squeeze", "mm", "clone"),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("bmm", lambda lib, a, b: lib.bmm(a, b), bmm_samples, covers=("bmm", "transpose"), dtypes=WITH_INT,
          tol=TOL),
    Entry("vdot", lambda lib, a, b: lib.vdot(a, b), vector_pair_samples, covers=("vdot", "mul"), dtypes=WITH_INT,
          tol=TOL),
    Entry("inner", lambda lib, a, b: lib.inner(a, b), inner_samples, covers=("mm", "view"), dtypes=WITH_INT, tol=TOL),
    Entry("outer", lambda lib, a, b: lib.outer(a, b), outer_samples, covers=("mul", "view"), dtypes=WITH_INT,
          tol=TOL),
    Entry("ger", lambda lib, a, b: a.ger(b), first_two(outer_samples), covers=("mul",), tol=TOL),
    Entry("tensordot", lambda lib, a, b, dims: lib.tensordot(a, b, dims), tensordot_samples,
          covers=("mm", "view", "permute", "sum_dim"), dtypes=WITH_INT, tol=TOL),
    Entry("kron", lambda lib, a, b: lib.kron(a, b), kron_samples, covers=("mul", "unsafe_view"), dtypes=WITH_INT,
          tol=TOL),
    Entry("einsum", lambda lib, eq, *ops: lib.einsum(eq, *ops), einsum_samples,
          covers=("einsum_one_sum", "einsum_one_permute", "einsum_two_view", "einsum_two_mul"), dtypes=WITH_INT,
          tol=TOL),
    Entry("einsum_sublist", lambda lib, a, b: lib.einsum(a, [0, 1], b, [1, 2], [0, 2]), matrix_pair_samples,
          covers=("einsum_two_view",), tol=TOL),
    Entry("addmm", lambda lib, s, a, b, beta, alpha: lib.addmm(s, a, b, beta=beta, alpha=alpha), addmm_samples,
          covers=("addmm", "mm"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("addmv", lambda lib, s, m, v, beta, alpha: lib.addmv(s, m, v, beta=beta, alpha=alpha), addmv_samples,
          covers=("addmv", "mv"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("addr", lambda lib, s, a, b, beta, alpha: s.addr(a, b, beta=beta, alpha=alpha), addr_samples,
          covers=("addr", "mv"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("baddbmm", lambda lib, s, a, b, beta, alpha: lib.baddbmm(s, a, b, beta=beta, alpha=alpha),
          baddbmm_samples, covers=("baddbmm", "bmm"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("addbmm", lambda lib, s, a, b, beta, alpha: lib.addbmm(s, a, b, beta=beta, alpha=alpha),
          addbmm_samples, covers=("addbmm", "bmm", "expand"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("multi_dot", lambda lib, *ts: lib.linalg.multi_dot(ts), multi_dot_samples, covers=("mm", "view"),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("cross", lambda lib, a, b, dim: lib.linalg.cross(a, b, dim=dim), cross_samples, covers=("cross",),
          dtypes=WITH_INT, tol=TOL),
    Entry("cross_legacy", lambda lib, a, b, dim: lib.cross(a, b, dim), first_two(cross_samples), covers=("cross",),
          tol=TOL),
    Entry("cdist", lambda lib, a, b, p: lib.cdist(a, b, p), cdist_samples, covers=("cdist", "cdist_backward"), tol=TOL,
          second_order=False),
    Entry("vecdot", lambda lib, x, y, dim: lib.linalg.vecdot(x, y, dim=dim), vecdot_samples,
          covers=("vdot", "sum_dim", "mul"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("vector_norm", lambda lib, x, p, dim, keepdim: lib.linalg.vector_norm(x, p, dim, keepdim),
          vector_norm_samples, covers=("linalg_vector_norm",), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("matrix_exp", lambda lib, x: lib.linalg.matrix_exp(x), matrix_exp_samples, covers=("matrix_exp",),
          dtypes=WITH_COMPLEX, tol=TOL),
    # inverses, determinants, solvers
    Entry("inv", lambda lib, x: lib.linalg.inv(well_conditioned(lib, x)), square_samples, covers=("linalg_inv",),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("inverse", lambda lib, x: well_conditioned(lib, x).inverse(), first_two(square_samples),
          covers=("linalg_inv",),
          tol=TOL),
    Entry("inv_ex", lambda lib, x: lib.linalg.inv_ex(well_conditioned(lib, x)), first_two(square_samples),
          covers=("linalg_inv",), tol=TOL),
    Entry("det", lambda lib, x: lib.linalg.det(well_conditioned(lib, x)), square_samples,
          covers=("linalg_det", "linalg_inv"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("det_random", lambda lib, x: lib.det(x), first_two(square_samples),
          covers=("linalg_det",), tol=TOL),
    Entry("det_singular", lambda lib, x: lib.linalg.det(x), singular_samples, covers=("linalg_det", "linalg_svd"),
          tol=TOL),
    Entry("slogdet", lambda lib, x: lib.linalg.slogdet(x), square_samples,
          covers=("linalg_slogdet", "linalg_slogdet_output", "linalg_part", "linalg_embed", "linalg_solve"),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("slogdet_legacy", lambda lib, x: lib.slogdet(x), first_two(square_samples), covers=("linalg_slogdet",),
          tol=TOL),
    Entry("logdet", lambda lib, x: lib.logdet(spd(lib, x)), square_samples, covers=("linalg_slogdet", "where"),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("logdet_negative", lambda lib, x: lib.logdet(x),
          lambda g: (Sample(s.name, s.args, eps=None) for s in square_samples(g)),  # NaN for det < 0
          covers=("where",), tol=TOL),
    Entry("solve", lambda lib, a, b, left: lib.linalg.solve(well_conditioned(lib, a), b, left=left), solve_samples,
          covers=("linalg_solve",), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("solve_ex", lambda lib, a, b, left: lib.linalg.solve_ex(well_conditioned(lib, a), b, left=left),
          first_two(solve_samples), covers=("linalg_solve",), tol=TOL),
    Entry("solve_ex_singular", lambda lib, a, b: lib.linalg.solve_ex(a, b), singular_solve_samples, covers=(),
          tol=TOL),
    Entry("lstsq", lambda lib, a, b, driver: lib.linalg.lstsq(a, b, driver=driver), lstsq_samples,
          covers=("linalg_lstsq", "linalg_lstsq_output", "linalg_pinv"), dtypes=WITH_COMPLEX, tol=TOL),
    # Cholesky
    Entry("cholesky", lambda lib, x, up: lib.linalg.cholesky(spd(lib, x), upper=up), cholesky_samples,
          covers=("linalg_cholesky", "linalg_solve_triangular"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("cholesky_legacy", lambda lib, x, up: lib.cholesky(spd(lib, x), up), first_two(cholesky_samples),
          covers=("cholesky",), tol=TOL),
    Entry("cholesky_ex", lambda lib, x, up: lib.linalg.cholesky_ex(spd(lib, x), upper=up), first_two(cholesky_samples),
          covers=("linalg_cholesky",), tol=TOL),
    # a matrix that is not positive definite: PyTorch differentiates LAPACK's partial factor
    Entry("cholesky_ex_failed", lambda lib, x, up: lib.linalg.cholesky_ex((x + x.mT) / 2, upper=up)[0],
          _not_positive_definite,
          covers=("linalg_cholesky_partial",), tol=TOL),
    Entry("cholesky_triangle", lambda lib, x, y, up: lib.linalg.cholesky(
          spd(lib, x) + (_strict_upper(lib, y) if not up else _strict_upper(lib, y.mT).mT), upper=up),
          triangle_read_samples, covers=("linalg_cholesky", "read_hermitian"), tol=TOL),
    Entry("cholesky_solve", lambda lib, b, x, up: lib.cholesky_solve(b, upper(lib, x) if up else lower(lib, x), up),
          cholesky_solve_samples, covers=("cholesky_solve",), dtypes=WITH_COMPLEX, tol=TOL),
    # (real only: LAPACK's complex potri takes a factor's diagonal as real, which random complex factors aren't)
    Entry("cholesky_inverse", lambda lib, x, up: lib.cholesky_inverse(upper(lib, x) if up else lower(lib, x), up),
          cholesky_samples, covers=("cholesky_inverse",), tol=TOL),
    Entry("solve_triangular", lambda lib, a, b, up, left, unit: lib.linalg.solve_triangular(
          well_conditioned(lib, a), b, upper=up, left=left, unitriangular=unit), solve_triangular_samples,
          covers=("linalg_solve_triangular",), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("triangular_solve", lambda lib, b, a, up, transpose, unit: lib.triangular_solve(
          b, well_conditioned(lib, a), up, transpose, unit), triangular_solve_samples,
          covers=("triangular_solve", "triangular_solve_output"), dtypes=WITH_COMPLEX, tol=TOL),
    # QR, eigh, SVD
    Entry("qr", lambda lib, x, mode: lib.linalg.qr(x, mode=mode), qr_samples,
          covers=("linalg_qr", "linalg_qr_output", "linalg_solve_triangular"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("qr_legacy", lambda lib, x, mode: lib.qr(x, mode != "complete"), first_two(qr_samples), covers=("linalg_qr",),
          tol=TOL),
    Entry("eigh", lambda lib, x, uplo: _eigh_invariants(lib, *lib.linalg.eigh(hermitian(lib, x), UPLO=uplo)),
          hermitian_samples, covers=("linalg_eigh", "linalg_eigh_output"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("eigh_triangle", lambda lib, x, y, up: _eigh_invariants(lib, *lib.linalg.eigh(
          hermitian(lib, x) + (_strict_upper(lib, y) if not up else _strict_upper(lib, y.mT).mT),
          UPLO="U" if up else "L")), triangle_read_samples, covers=("linalg_eigh",), tol=TOL),
    Entry("eigvalsh", lambda lib, x, uplo: lib.linalg.eigvalsh(hermitian(lib, x), UPLO=uplo), hermitian_samples,
          covers=("linalg_eigh", "linalg_eigh_output"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("svd", lambda lib, x, full: _svd_invariants(lib, *lib.linalg.svd(x, full_matrices=full)), svd_samples,
          covers=("linalg_svd", "linalg_svd_output"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("svd_legacy", lambda lib, x, full: _svd_invariants(lib, *(lambda u, s, v: (u, s, v.mT.conj()))(
          *lib.svd(x, some=not full))), first_two(svd_samples), covers=("linalg_svd",), tol=TOL),
    Entry("svd_no_uv", lambda lib, x: lib.svd(x, compute_uv=False), first_two(rectangular_samples),
          covers=("linalg_svd",), tol=TOL),
    Entry("svdvals", lambda lib, x: lib.linalg.svdvals(x), rectangular_samples, covers=("linalg_svd",),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("pinv", lambda lib, x: lib.linalg.pinv(x), pinv_samples, covers=("linalg_pinv",), dtypes=WITH_COMPLEX,
          tol=TOL),
    Entry("pinv_hermitian", lambda lib, x: lib.linalg.pinv(spd(lib, x), hermitian=True, atol=0.1),
          first_two(square_samples),
          covers=("linalg_pinv",), tol=TOL),
    Entry("pinverse", lambda lib, x: lib.pinverse(x), first_two(rectangular_samples), covers=("linalg_pinv",), tol=TOL),
    # norms, powers, ranks
    Entry("matrix_norm", lambda lib, x, order, dim, keepdim: lib.linalg.matrix_norm(x, order, dim, keepdim),
          matrix_norm_samples, covers=("linalg_vector_norm", "linalg_svd", "amax", "amin", "permute"),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("linalg_norm", lambda lib, x, order, dim, keepdim: lib.linalg.norm(x, order, dim, keepdim), norm_samples,
          covers=("linalg_vector_norm", "linalg_svd"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("matrix_power", lambda lib, x, n: lib.linalg.matrix_power(x, n), matrix_power_samples,
          covers=("mm", "linalg_inv", "clone", "copy"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("matrix_rank", lambda lib, x, atol, rtol, herm: lib.linalg.matrix_rank(x, atol=atol, rtol=rtol,
                                                                                 hermitian=herm),
          rank_samples, covers=(), tol=TOL),
    Entry("cond", lambda lib, x, p: lib.linalg.cond(x, p), cond_samples, covers=("linalg_svd",),
          dtypes=WITH_COMPLEX, tol=TOL),
    # LU
    Entry("lu_factor", lambda lib, x: lib.linalg.lu_factor(x), lu_samples, covers=("linalg_lu_factor",),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("lu_factor_ex", lambda lib, x: lib.linalg.lu_factor_ex(x), first_two(lu_samples),
          covers=("linalg_lu_factor",),
          tol=TOL),
    Entry("lu_legacy", lambda lib, x: lib.lu(x, get_infos=True), first_two(lu_samples), covers=("linalg_lu_factor",),
          tol=TOL),
    Entry("lu", lambda lib, x: lib.linalg.lu(x), lu_samples, covers=("linalg_lu", "linalg_lu_output"),
          dtypes=WITH_COMPLEX, tol=TOL),
    Entry("lu_unpack", lambda lib, x: lib.lu_unpack(*lib.linalg.lu_factor(x)), lu_samples,
          covers=("lu_unpack", "lu_unpack_output"), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("lu_solve", lambda lib, x, b, left, adjoint: lib.linalg.lu_solve(
          *lib.linalg.lu_factor(well_conditioned(lib, x)), b, left=left, adjoint=adjoint), lu_solve_samples,
          covers=("linalg_lu_solve",), dtypes=WITH_COMPLEX, tol=TOL),
    Entry("lu_solve_legacy", lambda lib, x, b: lib.lu_solve(b, *lib.linalg.lu_factor(well_conditioned(lib, x))),
          lambda g: (Sample(s.name, s.args[:2]) for s in lu_solve_samples(g) if s.args[2] and not s.args[3]),
          covers=("linalg_lu_solve",), tol=TOL),
]

ERRORS = [
    ErrorCase("bmm_2d", lambda lib, a, b: lib.bmm(a, b), (_m(2, 3), _m(3, 2))),
    ErrorCase("bmm_batch", lambda lib, a, b: lib.bmm(a, b), (_m(2, 2, 3), _m(3, 3, 2))),
    ErrorCase("bmm_dtype", lambda lib, a, b: lib.bmm(a, b), (_m(2, 2, 3), _m(2, 3, 2, dtype="float64"))),
    ErrorCase("vdot_2d", lambda lib, a, b: lib.vdot(a, b), (_m(2, 2), _m(2, 2))),
    ErrorCase("vdot_size", lambda lib, a, b: lib.vdot(a, b), (_m(3), _m(4))),
    ErrorCase("vdot_dtype", lambda lib, a, b: lib.vdot(a, b), (_m(3), _m(3, dtype="float64"))),
    ErrorCase("inner_size", lambda lib, a, b: lib.inner(a, b), (_m(2, 3), _m(4))),
    ErrorCase("inner_dtype", lambda lib, a, b: lib.inner(a, b), (_m(2, 3), _m(3, dtype="float64"))),
    ErrorCase("outer_2d", lambda lib, a, b: lib.outer(a, b), (_m(2, 3), _m(4))),
    ErrorCase("outer_2d_right", lambda lib, a, b: lib.outer(a, b), (_m(3), _m(2, 4))),
    ErrorCase("tensordot_size", lambda lib, a, b: lib.tensordot(a, b, dims=1), (_m(2, 3), _m(4, 2))),
    ErrorCase("tensordot_negative", lambda lib, a, b: lib.tensordot(a, b, dims=-1), (_m(2, 3), _m(3, 2))),
    ErrorCase("tensordot_lists", lambda lib, a, b: lib.tensordot(a, b, dims=([0], [0])), (_m(2, 3), _m(3, 2))),
    ErrorCase("tensordot_lengths", lambda lib, a, b: lib.tensordot(a, b, dims=([0, 1], [0])), (_m(2, 3), _m(3, 2))),
    ErrorCase("einsum_fewer", lambda lib, a: lib.einsum("ij,jk->ik", a), (_m(2, 3),)),
    ErrorCase("einsum_more", lambda lib, a: lib.einsum("ij->ij", a, a), (_m(2, 3),)),
    ErrorCase("einsum_ndim", lambda lib, a: lib.einsum("ij->i", a), (_m(2, 3, 4),)),
    ErrorCase("einsum_ndim_ellipsis", lambda lib, a: lib.einsum("ijk...->i", a), (_m(2, 3),)),
    ErrorCase("einsum_size", lambda lib, a, b: lib.einsum("ij,jk->ik", a, b), (_m(2, 3), _m(4, 2))),
    ErrorCase("einsum_output", lambda lib, a: lib.einsum("ij->k", a), (_m(2, 3),)),
    ErrorCase("einsum_repeated", lambda lib, a: lib.einsum("ii->i", a), (_m(2, 3),)),
    ErrorCase("einsum_subscript", lambda lib, a: lib.einsum("i1->i", a), (_m(2),)),
    ErrorCase("einsum_output_twice", lambda lib, a: lib.einsum("ij->ii", a), (_m(2, 2),)),
    ErrorCase("einsum_no_operands", lambda lib: lib.einsum("ij->i"), ()),
    ErrorCase("einsum_dtype", lambda lib, a, b: lib.einsum("ij,jk", a, b), (_m(2, 2), _m(2, 2, dtype="float64"))),
    ErrorCase("addmm_shapes", lambda lib, s, a, b: lib.addmm(s, a, b), (_m(2, 2), _m(2, 3), _m(4, 2))),
    ErrorCase("addmm_broadcast", lambda lib, s, a, b: lib.addmm(s, a, b), (_m(3, 3), _m(2, 3), _m(3, 2))),
    ErrorCase("addmm_vector", lambda lib, s, a, b: lib.addmm(s, a, b), (_m(2), _m(3), _m(3, 2))),
    ErrorCase("addmv_size", lambda lib, s, m, v: lib.addmv(s, m, v), (_m(2), _m(2, 3), _m(4))),
    ErrorCase("addmv_input", lambda lib, s, m, v: lib.addmv(s, m, v), (_m(3), _m(2, 3), _m(3))),
    ErrorCase("addr_2d", lambda lib, s, a, b: lib.addr(s, a, b), (_m(2, 2), _m(2, 2), _m(2))),
    ErrorCase("addr_broadcast", lambda lib, s, a, b: lib.addr(s, a, b), (_m(3, 3), _m(2), _m(2))),
    ErrorCase("addbmm_inner", lambda lib, s, a, b: lib.addbmm(s, a, b), (_m(2, 2), _m(2, 2, 3), _m(2, 4, 2))),
    ErrorCase("addbmm_batches", lambda lib, s, a, b: lib.addbmm(s, a, b), (_m(2, 2), _m(2, 2, 3), _m(3, 3, 2))),
    ErrorCase("baddbmm_broadcast", lambda lib, s, a, b: lib.baddbmm(s, a, b), (_m(3, 2, 2), _m(2, 2, 3), _m(2, 3, 2))),
    ErrorCase("multi_dot_one", lambda lib, a: lib.linalg.multi_dot([a]), (_m(2, 2),)),
    ErrorCase("multi_dot_3d", lambda lib, a, b: lib.linalg.multi_dot([a, b]), (_m(2, 2), _m(2, 2, 2))),
    ErrorCase("multi_dot_middle", lambda lib, a, b: lib.linalg.multi_dot([a, b, a]), (_m(2, 2), _m(2))),
    ErrorCase("multi_dot_shapes", lambda lib, a, b: lib.linalg.multi_dot([a, b]), (_m(2, 3), _m(2, 2))),
    ErrorCase("multi_dot_dtype", lambda lib, a, b: lib.linalg.multi_dot([a, b]), (_m(2, 2), _m(2, 2, dtype="float64"))),
    ErrorCase("cross_length", lambda lib, a, b: lib.linalg.cross(a, b), (_m(2, 4), _m(2, 4))),
    ErrorCase("cross_broadcast", lambda lib, a, b: lib.linalg.cross(a, b), (_m(2, 3), _m(4, 3))),
    ErrorCase("cross_ndim", lambda lib, a, b: lib.linalg.cross(a, b), (_m(3), _m(2, 3))),
    ErrorCase("cross_no_dim", lambda lib, a, b: lib.cross(a, b), (_m(2, 2), _m(2, 2))),
    ErrorCase("cross_dtype", lambda lib, a, b: lib.linalg.cross(a, b), (_m(3), _m(3, dtype="float64"))),
    ErrorCase("cdist_1d", lambda lib, a, b: lib.cdist(a, b), (_m(3), _m(3))),
    ErrorCase("cdist_columns", lambda lib, a, b: lib.cdist(a, b), (_m(2, 3), _m(2, 4))),
    ErrorCase("cdist_negative_p", lambda lib, a, b: lib.cdist(a, b, p=-1), (_m(2, 3), _m(2, 3))),
    ErrorCase("cdist_int", lambda lib, a, b: lib.cdist(a, b), (_m(2, 3, dtype="int64"), _m(2, 3, dtype="int64"))),
    ErrorCase("vecdot_dtype", lambda lib, a, b: lib.linalg.vecdot(a, b), (_m(3), _m(3, dtype="float64"))),
    ErrorCase("vector_norm_int", lambda lib, x: lib.linalg.vector_norm(x), (_m(3, dtype="int64"),)),
    ErrorCase("vector_norm_empty_inf", lambda lib, x: lib.linalg.vector_norm(x, float("inf")), (_m(0),)),
    ErrorCase("vector_norm_empty_dim", lambda lib, x: lib.linalg.vector_norm(x, -1, dim=0), (_m(0, 3),)),
    ErrorCase("vector_norm_dim", lambda lib, x: lib.linalg.vector_norm(x, dim=2), (_m(2, 2),)),
    ErrorCase("vector_norm_dtype", lambda lib, x: lib.linalg.vector_norm(x, dtype=lib.int64), (_m(3),)),
    ErrorCase("matrix_exp_rect", lambda lib, x: lib.linalg.matrix_exp(x), (_m(2, 3),)),
    ErrorCase("matrix_exp_int", lambda lib, x: lib.linalg.matrix_exp(x), (_m(2, 2, dtype="int64"),)),
    # decompositions and solvers
    ErrorCase("inv_singular", lambda lib, x: lib.linalg.inv(x), (SINGULAR,)),
    ErrorCase("inv_singular_batch", lambda lib, x: lib.linalg.inv(x), (SINGULAR_BATCH,)),
    ErrorCase("inverse_singular", lambda lib, x: lib.inverse(x), (SINGULAR,)),
    ErrorCase("inv_rect", lambda lib, x: lib.linalg.inv(x), (_m(2, 3),)),
    ErrorCase("inv_1d", lambda lib, x: lib.linalg.inv(x), (_m(3),)),
    ErrorCase("inv_int", lambda lib, x: lib.linalg.inv(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("det_rect", lambda lib, x: lib.linalg.det(x), (_m(2, 3),)),
    ErrorCase("det_int", lambda lib, x: lib.linalg.det(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("slogdet_rect", lambda lib, x: lib.linalg.slogdet(x), (_m(2, 3),)),
    ErrorCase("logdet_rect", lambda lib, x: lib.logdet(x), (_m(2, 3),)),
    ErrorCase("solve_singular", lambda lib, a, b: lib.linalg.solve(a, b), (SINGULAR, np.eye(2, dtype="float32"))),
    ErrorCase("solve_singular_batch", lambda lib, a, b: lib.linalg.solve(a, b), (SINGULAR_BATCH, SINGULAR_BATCH)),
    ErrorCase("solve_shapes", lambda lib, a, b: lib.linalg.solve(a, b), (np.eye(2, dtype="float32"), _m(3, 2))),
    ErrorCase("solve_dtype", lambda lib, a, b: lib.linalg.solve(a, b),
              (np.eye(2, dtype="float32"), _m(2, 2, dtype="float64"))),
    ErrorCase("solve_rect", lambda lib, a, b: lib.linalg.solve(a, b), (_m(2, 3), _m(2, 2))),
    ErrorCase("solve_int", lambda lib, a, b: lib.linalg.solve(a, b),
              (_m(2, 2, dtype="int64"), _m(2, 2, dtype="int64"))),
    ErrorCase("solve_broadcast", lambda lib, a, b: lib.linalg.solve(a, b),
              (np.broadcast_to(np.eye(2, dtype="float32"), (3, 2, 2)).copy(), _m(2, 2, 2))),
    ErrorCase("solve_ex_check", lambda lib, a, b: lib.linalg.solve_ex(a, b, check_errors=True),
              (SINGULAR, np.eye(2, dtype="float32"))),
    ErrorCase("lstsq_rows", lambda lib, a, b: lib.linalg.lstsq(a, b), (_m(3, 2), _m(2, 2))),
    ErrorCase("lstsq_1d", lambda lib, a, b: lib.linalg.lstsq(a, b), (_m(3), _m(3))),
    ErrorCase("lstsq_driver", lambda lib, a, b: lib.linalg.lstsq(a, b, driver="foo"), (_m(3, 2), _m(3, 2))),
    ErrorCase("lstsq_dtype", lambda lib, a, b: lib.linalg.lstsq(a, b), (_m(3, 2), _m(3, 2, dtype="float64"))),
    ErrorCase("cholesky_not_pd", lambda lib, x: lib.linalg.cholesky(x), (NOT_PD,)),
    ErrorCase("cholesky_not_pd_batch", lambda lib, x: lib.linalg.cholesky(x),
              (np.stack([np.eye(2, dtype="float32"), NOT_PD]),)),
    ErrorCase("cholesky_not_pd_upper", lambda lib, x: lib.linalg.cholesky(x, upper=True), (NOT_PD,)),
    ErrorCase("cholesky_legacy_not_pd", lambda lib, x: lib.cholesky(x), (NOT_PD,)),
    ErrorCase("cholesky_ex_check", lambda lib, x: lib.linalg.cholesky_ex(x, check_errors=True), (NOT_PD,)),
    ErrorCase("cholesky_rect", lambda lib, x: lib.linalg.cholesky(x), (_m(2, 3),)),
    ErrorCase("cholesky_int", lambda lib, x: lib.linalg.cholesky(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("cholesky_solve_shapes", lambda lib, b, u: lib.cholesky_solve(b, u),
              (_m(3, 2), np.eye(2, dtype="float32"))),
    ErrorCase("cholesky_solve_1d", lambda lib, b, u: lib.cholesky_solve(b, u), (_m(2), np.eye(2, dtype="float32"))),
    ErrorCase("cholesky_solve_dtype", lambda lib, b, u: lib.cholesky_solve(b, u),
              (_m(2, 2), _m(2, 2, dtype="float64"))),
    ErrorCase("solve_triangular_shapes", lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=True),
              (np.eye(2, dtype="float32"), _m(3, 2))),
    ErrorCase("solve_triangular_no_upper", lambda lib, a, b: lib.linalg.solve_triangular(a, b),
              (np.eye(2, dtype="float32"), _m(2, 2))),
    ErrorCase("solve_triangular_1d", lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=True),
              (np.eye(2, dtype="float32"), _m(2))),
    ErrorCase("solve_triangular_rect", lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=True),
              (_m(2, 3), _m(2, 2))),
    ErrorCase("solve_triangular_int", lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=True),
              (_m(2, 2, dtype="int64"), _m(2, 2, dtype="int64"))),
    ErrorCase("triangular_solve_shapes", lambda lib, b, a: lib.triangular_solve(b, a),
              (_m(3, 2), np.eye(2, dtype="float32"))),
    ErrorCase("qr_mode", lambda lib, x: lib.linalg.qr(x, mode="foo"), (_m(2, 2),)),
    ErrorCase("qr_1d", lambda lib, x: lib.linalg.qr(x), (_m(3),)),
    ErrorCase("qr_int", lambda lib, x: lib.linalg.qr(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("qr_r_backward", lambda lib, x: lib.linalg.qr(x.requires_grad_(), mode="r")[1].sum().backward(),
              (_m(3, 2, dtype="float64"),)),
    ErrorCase("qr_complete_backward", lambda lib, x: lib.linalg.qr(x.requires_grad_(), mode="complete")[0].sum()
              .backward(), (_m(3, 2, dtype="float64") + np.eye(3, 2),)),
    ErrorCase("eigh_uplo", lambda lib, x: lib.linalg.eigh(x, UPLO="X"), (np.eye(2, dtype="float32"),)),
    ErrorCase("eigh_rect", lambda lib, x: lib.linalg.eigh(x), (_m(2, 3),)),
    ErrorCase("eigh_int", lambda lib, x: lib.linalg.eigh(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("eigvalsh_rect", lambda lib, x: lib.linalg.eigvalsh(x), (_m(2, 3),)),
    ErrorCase("eigh_phase", lambda lib, x: lib.linalg.eigh(x.requires_grad_())[1].real.sum().backward(),
              (HERMITIAN,)),
    ErrorCase("svd_phase", lambda lib, x: lib.linalg.svd(x.requires_grad_())[0].real.sum().backward(), (COMPLEX,)),
    ErrorCase("svd_phase_vh", lambda lib, x: lib.linalg.svd(x.requires_grad_())[2].imag.sum().backward(), (COMPLEX,)),
    ErrorCase("svd_1d", lambda lib, x: lib.linalg.svd(x), (_m(3),)),
    ErrorCase("svd_int", lambda lib, x: lib.linalg.svd(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("svdvals_1d", lambda lib, x: lib.linalg.svdvals(x), (_m(3),)),
    ErrorCase("pinv_1d", lambda lib, x: lib.linalg.pinv(x), (_m(3),)),
    ErrorCase("pinv_int", lambda lib, x: lib.linalg.pinv(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("matrix_norm_ord", lambda lib, x: lib.linalg.matrix_norm(x, ord=3), (_m(2, 2),)),
    ErrorCase("matrix_norm_string", lambda lib, x: lib.linalg.matrix_norm(x, ord="foo"), (_m(2, 2),)),
    ErrorCase("matrix_norm_1d", lambda lib, x: lib.linalg.matrix_norm(x), (_m(3),)),
    ErrorCase("matrix_norm_same_dims", lambda lib, x: lib.linalg.matrix_norm(x, dim=(0, 0)), (_m(2, 2),)),
    ErrorCase("matrix_norm_one_dim", lambda lib, x: lib.linalg.matrix_norm(x, dim=(0,)), (_m(2, 2),)),
    ErrorCase("matrix_norm_int", lambda lib, x: lib.linalg.matrix_norm(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("norm_3d", lambda lib, x: lib.linalg.norm(x, ord=2), (_m(2, 2, 2),)),
    ErrorCase("norm_dims", lambda lib, x: lib.linalg.norm(x, dim=(0, 1, 2)), (_m(2, 2, 2),)),
    ErrorCase("norm_string_1d", lambda lib, x: lib.linalg.norm(x, ord="fro"), (_m(3),)),
    ErrorCase("matrix_power_rect", lambda lib, x: lib.linalg.matrix_power(x, 2), (_m(2, 3),)),
    ErrorCase("matrix_power_1d", lambda lib, x: lib.linalg.matrix_power(x, 2), (_m(3),)),
    ErrorCase("matrix_power_int_negative", lambda lib, x: lib.linalg.matrix_power(x, -1), (_m(2, 2, dtype="int64"),)),
    ErrorCase("matrix_power_singular", lambda lib, x: lib.linalg.matrix_power(x, -1), (SINGULAR,)),
    ErrorCase("matrix_power_float", lambda lib, x: lib.linalg.matrix_power(x, 0.5), (_m(2, 2),)),
    ErrorCase("matrix_rank_1d", lambda lib, x: lib.linalg.matrix_rank(x), (_m(3),)),
    ErrorCase("matrix_rank_int", lambda lib, x: lib.linalg.matrix_rank(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("cond_rect", lambda lib, x: lib.linalg.cond(x, p=1), (_m(2, 3),)),
    ErrorCase("cond_p", lambda lib, x: lib.linalg.cond(x, p=3), (_m(2, 2),)),
    ErrorCase("cond_1d", lambda lib, x: lib.linalg.cond(x), (_m(3),)),
    ErrorCase("cond_backward", lambda lib, x: lib.linalg.cond(x.requires_grad_(), p=1).backward(),
              (_m(2, 2, dtype="float64") + np.eye(2),)),
    ErrorCase("lu_factor_singular", lambda lib, x: lib.linalg.lu_factor(x), (SINGULAR,)),
    ErrorCase("lu_factor_singular_batch", lambda lib, x: lib.linalg.lu_factor(x), (SINGULAR_BATCH,)),
    ErrorCase("lu_factor_no_pivot", lambda lib, x: lib.linalg.lu_factor(x, pivot=False), (np.eye(2, dtype="float32"),)),
    ErrorCase("lu_no_pivot", lambda lib, x: lib.linalg.lu(x, pivot=False), (np.eye(2, dtype="float32"),)),
    ErrorCase("lu_factor_1d", lambda lib, x: lib.linalg.lu_factor(x), (_m(3),)),
    ErrorCase("lu_factor_int", lambda lib, x: lib.linalg.lu_factor(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("lu_solve_shapes", lambda lib, x, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(x), b),
              (np.eye(2, dtype="float32"), _m(3, 2))),
    ErrorCase("lu_solve_pivots", lambda lib, x, p, b: lib.linalg.lu_solve(x, p, b),
              (np.eye(2, dtype="float32"), np.array([1, 2]), _m(2, 2))),
]

KNOWN_BUGS = {}
