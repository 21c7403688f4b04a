"""Op database entries for reductions, scans and sorting (_ops/reduce/: reductions.py, scans.py, sorting.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

Samples with ties, NaNs or exact zeros at a kink have ``eps=None``: compared with PyTorch
only. Samples of ops without a gradient (indices, counts) have ``grad=()``.
"""
import numpy as np

from op_db import ALL, NUMBERS, Entry, ErrorCase, Sample

# --- array helpers ----------------------------------------------------------------------


def _ties(g):
    return np.array([[1, 3, 3], [0, 3, -1]]).astype(g.dtype)


def _distinct(g, *shape):
    """Values without ties in every dtype (ints: a shuffled range), so that picks agree."""
    if g.is_float:
        return g(*shape)
    n = int(np.prod(shape))
    return (g.rng.permutation(n) - n // 2).astype(g.dtype).reshape(shape)


def _with_nans(a, *flat_positions):
    a = a.copy()
    if a.dtype.kind == "f":
        a.reshape(-1)[list(flat_positions)] = np.nan
    return a


def _zeros_at(a, *flat_positions):
    a = a.copy()
    a.reshape(-1)[list(flat_positions)] = 0
    return a


def _dtype_arg(lib, name):
    return None if name is None else getattr(lib, name)


def _only(samples, *names):
    """A twin entry's samples: the few of its sibling's that exercise what differs."""
    def chosen(g):
        return (s for s in samples(g) if s.name in names)
    return chosen


# --- samples ------------------------------------------------------------------------------


def sum_dtype_samples(g):
    targets = {"float32": ("float64",), "float64": ("float32",), "int64": ("float64", "int32"),
               "bool": ("int32", "float32")}[g.dtype.name]
    for target in targets:
        eps = 1e-3 if target == "float32" else 1e-6
        yield Sample(f"whole_{target}", (g(3, 4), None, target), eps=eps)
        yield Sample(f"dim_{target}", (g(2, 3), 1, target), eps=eps)
    yield Sample("tuple_int64", (g(2, 3, 2), (0, 2), "int64" if not g.is_float else "float64"))


def mean_dtype_samples(g):
    target = "float32" if g.dtype.name == "float64" else "float64"
    eps = 1e-3 if target == "float32" else 1e-6
    yield Sample("whole", (g(3, 4), None, target), eps=eps)
    yield Sample("dim", (g(2, 3), -1, target), eps=eps)
    yield Sample("empty", (g(0, 3), 0, target), eps=eps)


def nan_reduce_samples(g):
    yield Sample("whole", (_with_nans(g(3, 4), 1, 6), None, False))
    yield Sample("dim", (_with_nans(g(3, 4), 0, 5), 1, False))
    yield Sample("tuple_keepdim", (_with_nans(g(2, 3, 2), 2), (0, -1), True))
    yield Sample("all_nan_row", (_with_nans(g(2, 3), 0, 1, 2), 1, False), eps=None)  # nanmean: nan
    yield Sample("scalar", (g(), None, False))
    yield Sample("scalar_dim", (g(), 0, True))
    yield Sample("empty", (g(0, 3), 0, False), eps=None)  # nanmean: nan
    yield Sample("noncontig", (g.noncontig(3, 4), 0, True))


def prod_samples(g):
    yield Sample("matrix", (g(3, 4), None))
    yield Sample("scalar", (g(), None))
    yield Sample("empty", (g(0, 3), None))
    yield Sample("noncontig", (g.noncontig(3, 4), None))
    yield Sample("one_zero", (_zeros_at(g(2, 3), 4), None))
    yield Sample("two_zeros", (_zeros_at(g(2, 3), 1, 4), None))
    yield Sample("zero_scalar", (np.zeros((), g.dtype), None))
    if g.dtype == np.float32:
        yield Sample("dtype_float64", (g(2, 3), "float64"))
    if g.dtype == np.int64:
        yield Sample("dtype_float32", (g(2, 3), "float32"))


def prod_dim_samples(g):
    yield Sample("dim0", (g(3, 4), 0, False))
    yield Sample("dim1_keepdim", (g(3, 4), 1, True))
    yield Sample("negative_dim", (g(2, 3, 2), -2, False))
    yield Sample("scalar", (g(), 0, False))
    yield Sample("empty", (g(0, 3), 0, False))
    yield Sample("empty_other_dim", (g(0, 3), 1, True))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, False))
    # zeros: one in a row (its slot gets the product of the rest), two (all zero), at the ends
    yield Sample("one_zero_per_row", (_zeros_at(g(3, 4), 1, 4, 11), 1, False))
    yield Sample("two_zeros", (_zeros_at(g(2, 4), 0, 2, 7), 1, False))
    yield Sample("zeros_along_dim0", (_zeros_at(g(3, 2), 0, 2, 4), 0, True))


def amax_samples(g):
    yield Sample("all_default", (g(3, 4), (), False))
    yield Sample("dim", (g(3, 4), 1, False))
    yield Sample("negative_keepdim", (g(2, 3, 2), -1, True))
    yield Sample("tuple", (g(2, 3, 2), (0, 2), False))
    yield Sample("list_keepdim", (g(2, 3, 2), [2, 1], True))
    yield Sample("scalar", (g(), (), False))
    yield Sample("scalar_dim", (g(), 0, True))
    yield Sample("empty_other_dim", (g(0, 3), 1, False))
    yield Sample("noncontig", (g.noncontig(3, 4), 0, False))
    yield Sample("ties_all", (_ties(g), (), False), eps=None)
    yield Sample("ties_dim", (_ties(g), 1, True), eps=None)
    yield Sample("ties_tuple", (_ties(g), (0, 1), False), eps=None)


def aminmax_samples(g):
    yield Sample("all", (g(3, 4), None, False))
    yield Sample("all_keepdim", (g(2, 3), None, True))
    yield Sample("dim", (g(3, 4), 1, False))
    yield Sample("negative_keepdim", (g(2, 3, 2), -3, True))
    yield Sample("scalar", (g(), None, False))
    yield Sample("scalar_dim", (g(), 0, False))
    yield Sample("empty_other_dim", (g(0, 3), 1, False))
    yield Sample("noncontig", (g.noncontig(3, 4), 0, False))
    yield Sample("ties", (_ties(g), None, False), eps=None)
    yield Sample("ties_dim", (_ties(g), 1, False), eps=None)


def max_nan_samples(g):
    yield Sample("one_nan", (np.array([1.0, np.nan, 2.0], g.dtype),), eps=None)
    yield Sample("two_nans", (np.array([[np.nan, 1.0], [3.0, np.nan]], g.dtype),), eps=None)


def arg_samples(g):
    yield Sample("whole", (_distinct(g, 3, 4), None, False), grad=())
    yield Sample("whole_keepdim", (_distinct(g, 3, 4), None, True), grad=())
    yield Sample("dim", (_distinct(g, 3, 4), 1, False), grad=())
    yield Sample("negative_keepdim", (_distinct(g, 2, 3, 2), -2, True), grad=())
    yield Sample("scalar", (g(), 0, False), grad=())
    yield Sample("empty_other_dim", (g(0, 3), 1, False), grad=())
    yield Sample("ties", (_ties(g), 1, False), grad=())
    yield Sample("nan", (_with_nans(g(2, 3), 1, 4, 5), 1, False), grad=())


def var_samples(g):
    """(x, dim, correction, keepdim)."""
    yield Sample("whole", (g(3, 4), None, None, False))
    yield Sample("whole_keepdim", (g(2, 3), None, 0, True))
    yield Sample("dim", (g(3, 4), 1, None, False))
    yield Sample("dim0_keepdim", (g(3, 4), 0, None, True))
    yield Sample("tuple", (g(2, 3, 2), (0, -1), 0, False))
    yield Sample("correction_2", (g(2, 4), 1, 2, False))
    yield Sample("correction_half", (g(5), None, 0.5, False))
    yield Sample("scalar_dim", (g(), 0, 0, False), eps=None)  # std 0: a kink
    yield Sample("noncontig", (g.noncontig(3, 4), 0, None, False))
    yield Sample("constant_rows", (np.array([[2.0, 2.0, 2.0], [1.0, 0.0, 3.0]], g.dtype), 1, None, False), eps=None)
    # no degrees of freedom left: nan and inf, in values and gradients (PyTorch warns)
    yield Sample("one_element", (g(1), None, None, False), eps=None)
    yield Sample("correction_n_dim", (np.array([[1.0, 2.0]], g.dtype), 1, 2, False), eps=None)
    yield Sample("correction_above_n", (np.array([1.0, 2.0], g.dtype), 0, 3, True), eps=None)
    yield Sample("empty", (g(0, 3), 0, None, False), eps=None)


def var_legacy_samples(g):
    """The old signatures: ``var(x, unbiased)`` and ``var(x, dim, unbiased, keepdim)``."""
    yield Sample("unbiased_false", (g(3, 4), False))
    yield Sample("unbiased_true", (g(3, 4), True))
    yield Sample("dim_unbiased", (g(3, 4), (1, False, True)))
    yield Sample("dim_only", (g(3, 4), (-1,)))


def norm_samples(g):
    """(x, p, dim, keepdim)."""
    yield Sample("fro", (g(3, 4), "fro", None, False))
    yield Sample("default_dim", (g(3, 4), 2, 1, False))
    yield Sample("p1_tuple", (g(2, 3, 2), 1, (0, 2), True))
    yield Sample("p3", (g(3, 4), 3, 0, False))
    yield Sample("p1_5", (g(3, 4), 1.5, -1, False))
    yield Sample("p0_5", (g(3, 4), 0.5, None, False))
    yield Sample("negative_p", (g(3, 4), -1, 1, False))
    yield Sample("inf", (g(3, 4), float("inf"), 1, False))
    yield Sample("minus_inf", (g(3, 4), float("-inf"), None, False))
    yield Sample("p0", (g(3, 4), 0, 1, False))
    yield Sample("scalar", (g(), 2, None, False))
    yield Sample("empty", (g(0, 3), 2, None, False))
    yield Sample("empty_dim", (g(0, 3), 1, 0, False))
    yield Sample("noncontig", (g.noncontig(3, 4), 2, 0, True))
    yield Sample("fro_two_dims", (g(2, 3, 2), "fro", (0, 1), False))
    zero_row = np.array([[0.0, 0.0, 0.0], [1.0, -2.0, 2.0]], g.dtype)
    yield Sample("zero_row_p2", (zero_row, 2, 1, False), eps=None)
    yield Sample("zero_row_p3", (zero_row, 3, 1, False), eps=None)
    yield Sample("zero_row_p1_5", (zero_row, 1.5, 1, False), eps=None)
    yield Sample("zeros_p0_5", (zero_row, 0.5, 1, False), eps=None)
    yield Sample("ties_inf", (_ties(g), float("inf"), None, False), eps=None)
    yield Sample("ties_inf_dim", (-_ties(g), float("inf"), 1, True), eps=None)


def norm_method_samples(g):
    return (s for s in norm_samples(g) if s.name in ("fro", "p1_tuple", "inf", "scalar"))


def logsumexp_samples(g):
    yield Sample("dim", (g(3, 4), 1, False))
    yield Sample("dim0_keepdim", (g(3, 4), 0, True))
    yield Sample("tuple", (g(2, 3, 2), (0, 2), False))
    yield Sample("negative_list", (g(2, 3, 2), [-1], True))
    yield Sample("scalar", (g(), 0, False))
    yield Sample("empty", (g(0, 3), 0, False), eps=None)  # -inf
    yield Sample("noncontig", (g.noncontig(3, 4), 1, False))
    if g.is_float:
        yield Sample("large", (np.array([[1000.0, 1000.5], [-1000.0, -999.0]], g.dtype), 1, False))
        yield Sample("minus_inf", (np.array([[-np.inf, -np.inf], [-np.inf, 1.0]], g.dtype), 1, False), eps=None)
        yield Sample("plus_inf", (np.array([np.inf, 1.0], g.dtype), 0, False), eps=None)


def logical_samples(g):
    """(x, dim, keepdim) for all, any and count_nonzero: no gradients."""
    x = g(3, 4) * (g.rng.random((3, 4)) < 0.5) if g.dtype.kind != "b" else g(3, 4)
    yield Sample("whole", (x, None, False), grad=())
    yield Sample("dim", (x, 1, False), grad=())
    yield Sample("tuple", (g(2, 3, 2), (0, 2), False), grad=())
    yield Sample("negative_keepdim", (g(2, 3, 2), -1, True), grad=())
    yield Sample("scalar_dim", (g(), 0, False), grad=())
    yield Sample("empty", (g(0, 3), 0, False), grad=())
    yield Sample("noncontig", (g.noncontig(3, 4), 0, False), grad=())
    if g.dtype == np.int64:
        yield Sample("uint8", (np.array([[1, 0, 2], [3, 4, 5]], np.uint8), 1, False), grad=())


def count_nonzero_samples(g):
    return (s for s in logical_samples(g) if s.name != "negative_keepdim")


def cumulative_samples(g):
    """(x, dim) for the scans."""
    yield Sample("dim1", (g(3, 4), 1))
    yield Sample("dim0", (g(3, 4), 0))
    yield Sample("negative", (g(2, 3, 2), -2))
    yield Sample("vector", (g(5), 0))
    yield Sample("scalar", (g(), 0))
    yield Sample("scalar_neg", (g(), -1))
    yield Sample("empty", (g(0, 3), 0))
    yield Sample("empty_other_dim", (g(0, 3), 1))
    yield Sample("noncontig", (g.noncontig(3, 4), 1))


def cumsum_samples(g):
    yield from cumulative_samples(g)
    if g.dtype == np.float32:
        yield Sample("dtype_float64", (g(2, 3), 1, "float64"))
    if g.dtype.kind in "ib":
        yield Sample("dtype_float32", (g(2, 3), 1, "float32"))


def cumprod_samples(g):
    yield from cumulative_samples(g)
    yield Sample("one_zero", (_zeros_at(g(2, 4), 2, 5), 1))
    yield Sample("two_zeros", (_zeros_at(g(1, 5), 1, 3), 1))
    yield Sample("zero_first_last", (_zeros_at(g(2, 3), 0, 5), 1))
    yield Sample("zeros_dim0", (_zeros_at(g(3, 2), 0, 1, 5), 0))
    yield Sample("all_zero", (np.zeros((2, 3), g.dtype), 1))


def cummax_samples(g):
    yield from cumulative_samples(g)
    yield Sample("ties", (np.array([[1, 3, 3, 2, 3], [3, 1, 1, 2, 1]]).astype(g.dtype), 1), eps=None)
    if g.is_float:
        yield Sample("nan", (np.array([1.0, np.nan, 3.0, np.nan, 0.0], g.dtype), 0), eps=None)


def logcumsumexp_samples(g):
    yield from cumulative_samples(g)
    yield Sample("large", (np.array([[1000.0, 1000.5, -3.0], [-1000.0, 2.0, -999.0]], g.dtype), 1))
    yield Sample("minus_inf", (np.array([-np.inf, 1.0, -np.inf], g.dtype), 0), eps=None)


def sort_samples(g):
    """(x, dim, descending, stable)."""
    yield Sample("last", (_distinct(g, 3, 4), -1, False, False))
    yield Sample("dim0_descending", (_distinct(g, 3, 4), 0, True, False))
    yield Sample("middle", (_distinct(g, 2, 3, 2), 1, False, True))
    yield Sample("scalar", (g(), 0, False, False))
    yield Sample("empty", (g(0, 3), 0, True, False))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, True, False))
    yield Sample("ties", (np.array([[2, 1, 2, 1, 2], [0, 0, 1, 1, 0]]).astype(g.dtype), 1, False, True), eps=None)
    yield Sample("ties_descending", (np.array([[2, 1, 2, 1, 2], [0, 0, 1, 1, 0]]).astype(g.dtype), 1, True, True),
                 eps=None)
    if g.is_float:
        nans = np.array([2.0, np.nan, 1.0, np.nan], g.dtype)
        yield Sample("nan", (nans, 0, False, False), eps=None)
        yield Sample("nan_descending", (nans, 0, True, False), eps=None)


def argsort_samples(g):
    return (Sample(s.name, s.args, grad=()) for s in sort_samples(g))


def msort_samples(g):
    yield Sample("matrix", (_distinct(g, 3, 4),))
    yield Sample("vector", (_distinct(g, 5),))
    yield Sample("scalar", (g(),))
    yield Sample("empty", (g(0, 3),))


def topk_samples(g):
    """(x, k, dim, largest)."""
    yield Sample("largest", (_distinct(g, 3, 5), 2, -1, True))
    yield Sample("smallest", (_distinct(g, 3, 5), 3, 1, False))
    yield Sample("dim0", (_distinct(g, 4, 3), 2, 0, True))
    yield Sample("all", (_distinct(g, 4), 4, 0, False))
    yield Sample("k0", (_distinct(g, 2, 3), 0, 1, True))
    yield Sample("scalar", (g(), 1, 0, True))
    yield Sample("empty", (g(0, 3), 0, 0, True))
    yield Sample("noncontig", (_distinct(g, 4, 3).T, 2, 1, True))


def kthvalue_samples(g):
    """(x, k, dim, keepdim)."""
    yield Sample("last", (_distinct(g, 3, 4), 2, -1, False))
    yield Sample("first_keepdim", (_distinct(g, 3, 4), 1, 0, True))
    yield Sample("largest", (_distinct(g, 2, 5), 5, 1, False))
    yield Sample("middle_dim", (_distinct(g, 2, 3, 2), 2, 1, False))
    yield Sample("scalar", (g(), 1, 0, False))
    yield Sample("noncontig", (_distinct(g, 4, 3).T, 3, 1, True))


def median_dim_samples(g):
    """(x, dim, keepdim)."""
    yield Sample("odd", (_distinct(g, 3, 5), 1, False))
    yield Sample("even", (_distinct(g, 4, 3), 0, True))
    yield Sample("negative", (_distinct(g, 2, 3, 2), -2, False))
    yield Sample("scalar", (g(), 0, False))
    yield Sample("empty_other_dim", (g(0, 3), 1, False))
    yield Sample("noncontig", (_distinct(g, 4, 3).T, 1, False))
    if g.is_float:
        yield Sample("nans", (np.array([[4.0, np.nan, 3.0, 2.0], [np.nan, np.nan, np.nan, 1.0],
                                        [1.0, 3.0, 2.0, 0.5]], g.dtype), 1, False), eps=None)


def median_samples(g):
    yield Sample("odd", (_distinct(g, 3, 5),))
    yield Sample("even", (_distinct(g, 4, 3),))
    yield Sample("scalar", (g(),))
    yield Sample("noncontig", (g.noncontig(3, 4),))
    yield Sample("ties", (np.array([[1, 2, 2], [3, 2, 0]]).astype(g.dtype),), eps=None)
    if g.is_float:
        yield Sample("empty", (g(0, 3),), eps=None)  # nan
        yield Sample("nan", (np.array([[4.0, np.nan, 3.0], [2.0, 2.0, 1.0]], g.dtype),), eps=None)
        yield Sample("all_nan", (np.array([np.nan, np.nan], g.dtype),), eps=None)


def mode_samples(g):
    """(x, dim, keepdim): repeated values, so compared with PyTorch only."""
    x = np.array([[2, 1, 2, 1, 3], [3, 3, 1, 0, 0], [4, 1, 2, 0, 3]]).astype(g.dtype)
    yield Sample("rows", (x, 1, False), eps=None)
    yield Sample("columns_keepdim", (x, 0, True), eps=None)
    yield Sample("scalar", (g(), 0, False), eps=None)
    yield Sample("empty_other_dim", (g(0, 3), 1, False), eps=None)
    yield Sample("noncontig", (np.ascontiguousarray(x.T).T, -1, False), eps=None)
    yield Sample("distinct", (_distinct(g, 2, 4), 1, False))  # every run has length 1: the smallest


def quantile_samples(g):
    """(x, q, dim, keepdim, interpolation)."""
    yield Sample("whole", (g(3, 4), 0.3, None, False, "linear"))
    yield Sample("whole_keepdim", (g(2, 3), 0.75, None, True, "linear"))
    yield Sample("dim", (g(3, 4), 0.4, 1, False, "linear"))
    yield Sample("dim0_keepdim", (g(3, 4), 0.5, 0, True, "linear"))
    yield Sample("q_tensor", (g(3, 4), np.array([0.0, 0.25, 1.0], g.dtype), 1, False, "linear"), grad=(0,))
    yield Sample("q_0d_tensor", (g(4), np.array(0.6, g.dtype), 0, False, "linear"), grad=(0,))
    yield Sample("q_tensor_keepdim", (g(2, 3), np.array([0.2, 0.9], g.dtype), 0, True, "linear"), grad=(0,))
    for mode in ("lower", "higher", "nearest", "midpoint"):  # ranks 0.6, 1.2, 2.1: away from the kinks
        yield Sample(mode, (g(3, 4), np.array([0.2, 0.4, 0.7], g.dtype), 1, False, mode), grad=(0,))
    yield Sample("exact_ranks", (g(3, 4), np.array([0.0, 1 / 3, 1.0], g.dtype), 1, False, "midpoint"), grad=(0,),
                 eps=None)
    yield Sample("scalar", (g(), 0.2, None, False, "linear"))
    yield Sample("scalar_dim", (g(), 0.2, 0, False, "linear"))
    yield Sample("noncontig", (g.noncontig(3, 4), 0.3, 0, False, "linear"))
    nans = np.array([[1.0, np.nan, 3.0, 2.0], [np.nan, np.nan, np.nan, 1.0], [0.5, 4.0, 2.0, 1.0]], g.dtype)
    yield Sample("nans", (nans, 0.5, 1, False, "linear"), eps=None)
    yield Sample("nans_whole", (nans, 0.5, None, False, "linear"), eps=None)


def unique_samples(g):
    """(x, sorted, return_inverse, return_counts, dim): no gradients."""
    x = np.array([3, 1, 2, 3, 1, 0]).astype(g.dtype)
    rows = np.array([[1, 2], [0, 1], [1, 2], [0, 1]]).astype(g.dtype)
    yield Sample("plain", (x, True, False, False, None), grad=())
    yield Sample("inverse_counts", (x.reshape(2, 3), True, True, True, None), grad=())
    yield Sample("unsorted", (x, False, True, False, None), grad=())
    yield Sample("dim0", (rows, True, True, True, 0), grad=())
    yield Sample("dim1", (rows.T.copy(), True, True, False, -1), grad=())
    yield Sample("scalar", (g(), True, True, True, None), grad=())
    yield Sample("empty", (g(0, 2), True, True, True, None), grad=())
    yield Sample("empty_dim", (g(0, 2), True, True, True, 0), grad=())
    yield Sample("noncontig", (g.noncontig(3, 4), True, True, True, None), grad=())


def unique_consecutive_samples(g):
    """(x, return_inverse, return_counts, dim): no gradients."""
    x = np.array([1, 1, 2, 2, 3, 1, 1, 2]).astype(g.dtype)
    yield Sample("plain", (x, False, False, None), grad=())
    yield Sample("inverse_counts", (x.reshape(2, 4), True, True, None), grad=())
    yield Sample("dim0", (np.array([[1, 2], [1, 2], [0, 1]]).astype(g.dtype), True, True, 0), grad=())
    yield Sample("dim1", (np.array([[1, 1, 2], [2, 2, 1]]).astype(g.dtype), True, True, 1), grad=())
    yield Sample("scalar", (g(), True, True, None), grad=())
    yield Sample("empty", (g(0), True, True, None), grad=())


def bincount_samples(g):
    """(x, weights, minlength) with int64 x: no gradients."""
    x = np.array([0, 3, 3, 1, 5])
    yield Sample("plain", (x, None, 0), grad=())
    yield Sample("minlength", (x, None, 8), grad=())
    yield Sample("weights_float32", (x, g(5, dtype="float32"), 0), grad=())
    yield Sample("weights_float64", (x, g(5, dtype="float64"), 7), grad=())
    yield Sample("weights_int", (x, np.arange(5), 0), grad=())
    yield Sample("empty", (np.zeros(0, np.int64), None, 3), grad=())
    yield Sample("int32", (x.astype(np.int32), None, 0), grad=())


def histc_samples(g):
    """(x, bins, min, max): no gradients."""
    yield Sample("range", (np.array([1.0, 2.0, 1.0, 3.0, -1.0, 2.5], g.dtype), 4, 0, 3), grad=())
    yield Sample("data_range", (g(3, 4), 5, 0, 0), grad=())
    yield Sample("edges", (np.array([0.0, 0.1, 0.2, 0.3, 1.0], g.dtype), 10, 0, 1), grad=())
    yield Sample("constant", (np.array([1.0, 1.0], g.dtype), 4, 0, 0), grad=())
    yield Sample("empty", (g(0), 3, 0, 0), grad=())
    yield Sample("scalar", (g(), 3, -1, 1), grad=())


# --- the entries ----------------------------------------------------------------------------

ENTRIES = [
    # sums and means with dtype=
    Entry("sum_dtype", lambda lib, x, dim, dtype: lib.sum(x, dtype=_dtype_arg(lib, dtype)) if dim is None
          else x.sum(dim, dtype=_dtype_arg(lib, dtype)), sum_dtype_samples, covers=("sum", "sum_dim"), dtypes=ALL),
    Entry("mean_dtype", lambda lib, x, dim, dtype: x.mean(dtype=_dtype_arg(lib, dtype)) if dim is None
          else lib.mean(x, dim, dtype=_dtype_arg(lib, dtype)), mean_dtype_samples, covers=("mean", "mean_dim"),
          dtypes=NUMBERS),
    Entry("nansum", lambda lib, x, dim, keepdim: lib.nansum(x) if dim is None else x.nansum(dim, keepdim),
          nan_reduce_samples, covers=("nansum",), dtypes=ALL),
    Entry("nanmean", lambda lib, x, dim, keepdim: x.nanmean() if dim is None else lib.nanmean(x, dim, keepdim),
          nan_reduce_samples, covers=("nansum", "div")),
    # products: zeros handled exactly
    Entry("prod", lambda lib, x, dtype: x.prod(dtype=_dtype_arg(lib, dtype)), prod_samples,
          covers=("prod", "prod_dim", "where"), dtypes=ALL),
    Entry("prod_dim", lambda lib, x, dim, keepdim: lib.prod(x, dim, keepdim), prod_dim_samples,
          covers=("prod_dim", "where"), dtypes=ALL),
    # extremes: ties share the gradient
    Entry("amax", lambda lib, x, dim, keepdim: x.amax(dim, keepdim), amax_samples, covers=("amax",), dtypes=ALL),
    Entry("amin", lambda lib, x, dim, keepdim: lib.amin(x, dim, keepdim=keepdim),
          _only(amax_samples, "all_default", "list_keepdim", "scalar_dim", "ties_all", "ties_dim"), covers=("amin",),
          dtypes=ALL),
    Entry("aminmax", lambda lib, x, dim, keepdim: lib.aminmax(x, dim=dim, keepdim=keepdim), aminmax_samples,
          covers=("aminmax_min", "aminmax_max"), dtypes=ALL),
    Entry("max_nan", lambda lib, x: x.max(), max_nan_samples, covers=("max",)),
    Entry("min_nan", lambda lib, x: lib.min(x), max_nan_samples, covers=("min",)),
    Entry("argmax", lambda lib, x, dim, keepdim: x.argmax(dim, keepdim), arg_samples, covers=(), dtypes=NUMBERS),
    Entry("argmin", lambda lib, x, dim, keepdim: lib.argmin(x, dim, keepdim),
          _only(arg_samples, "whole_keepdim", "negative_keepdim", "ties", "nan"), covers=(),
          dtypes=NUMBERS),
    # statistics
    Entry("var", lambda lib, x, dim, correction, keepdim: x.var(dim, correction=correction, keepdim=keepdim),
          var_samples, covers=("var", "mean", "mean_dim")),
    Entry("std", lambda lib, x, dim, correction, keepdim: lib.std(x, dim, correction=correction, keepdim=keepdim),
          var_samples, covers=("std", "mean", "mean_dim")),
    Entry("var_mean", lambda lib, x, dim, correction, keepdim: lib.var_mean(x, dim, correction=correction,
                                                                            keepdim=keepdim),
          _only(var_samples, "whole", "dim0_keepdim", "tuple", "scalar_dim", "one_element", "correction_n_dim"), covers=("var_mean_var", "var_mean_mean")),
    Entry("std_mean", lambda lib, x, dim, correction, keepdim: lib.std_mean(x, dim, correction=correction,
                                                                            keepdim=keepdim),
          _only(var_samples, "whole_keepdim", "dim", "correction_2", "constant_rows", "one_element"), covers=("std_mean_std", "std_mean_mean")),
    Entry("std_legacy", lambda lib, x, args: x.std(*args) if isinstance(args, tuple) else lib.std(x, args),
          var_legacy_samples, covers=("std",)),
    Entry("var_legacy", lambda lib, x, args: x.var(*args) if isinstance(args, tuple) else lib.var(x, args),
          var_legacy_samples, covers=("var",)),
    Entry("norm", lambda lib, x, p, dim, keepdim: lib.norm(x, p, dim, keepdim), norm_samples,
          covers=("linalg_vector_norm",)),
    Entry("norm_method", lambda lib, x, p, dim, keepdim: x.norm(p, dim, keepdim), norm_method_samples,
          covers=("linalg_vector_norm",)),
    Entry("logsumexp", lambda lib, x, dim, keepdim: lib.logsumexp(x, dim, keepdim), logsumexp_samples,
          covers=("logsumexp", "exp"), dtypes=ALL),
    # logical and counting reductions
    Entry("all", lambda lib, x, dim, keepdim: lib.all(x) if dim is None else x.all(dim, keepdim), logical_samples,
          covers=(), dtypes=ALL),
    Entry("any", lambda lib, x, dim, keepdim: x.any() if dim is None else lib.any(x, dim, keepdim),
          _only(logical_samples, "whole", "tuple", "scalar_dim", "empty", "uint8"), covers=(), dtypes=ALL),
    Entry("count_nonzero", lambda lib, x, dim, keepdim: lib.count_nonzero(x, dim), count_nonzero_samples,
          covers=(), dtypes=ALL),
    # scans
    Entry("cumsum", lambda lib, x, dim, *dtype: lib.cumsum(x, dim, dtype=_dtype_arg(lib, (dtype or (None,))[0])),
          cumsum_samples, covers=("cumsum",), dtypes=ALL),
    Entry("cumsum_", lambda lib, x, dim: (x * 1).cumsum_(dim), _only(cumulative_samples, "dim1", "scalar", "empty"),
          covers=("cumsum",),
          dtypes=NUMBERS),
    Entry("cumprod", lambda lib, x, dim: x.cumprod(dim), cumprod_samples, covers=("cumprod", "cumsum", "where"),
          dtypes=ALL),
    Entry("cumprod_", lambda lib, x, dim: (x * 1).cumprod_(dim), _only(cumulative_samples, "dim0", "scalar", "empty"),
          covers=("cumprod",),
          dtypes=NUMBERS),
    Entry("cummax", lambda lib, x, dim: x.cummax(dim), cummax_samples, covers=("cummax", "put_along"), dtypes=ALL),
    Entry("cummin", lambda lib, x, dim: lib.cummin(x, dim), _only(cummax_samples, "dim1", "scalar", "empty", "ties", "nan"),
          covers=("cummin", "put_along"),
          dtypes=ALL),
    Entry("logcumsumexp", lambda lib, x, dim: lib.logcumsumexp(x, dim), logcumsumexp_samples,
          covers=("logcumsumexp",)),
    # sorting and selection
    Entry("sort", lambda lib, x, dim, descending, stable: lib.sort(x, stable=stable, dim=dim, descending=descending)
          if stable else x.sort(dim, descending), sort_samples, covers=("sort", "sort_stable", "put_along"), dtypes=ALL),
    Entry("argsort", lambda lib, x, dim, descending, stable: x.argsort(stable=stable, dim=dim, descending=descending),
          argsort_samples, covers=(), dtypes=ALL),
    Entry("msort", lambda lib, x: lib.msort(x), msort_samples, covers=("sort",), dtypes=ALL),
    Entry("topk", lambda lib, x, k, dim, largest: x.topk(k, dim, largest), topk_samples, covers=("topk",),
          dtypes=NUMBERS),
    Entry("kthvalue", lambda lib, x, k, dim, keepdim: lib.kthvalue(x, k, dim, keepdim), kthvalue_samples,
          covers=("kthvalue",), dtypes=NUMBERS),
    Entry("median", lambda lib, x: x.median(), median_samples, covers=("median",), dtypes=NUMBERS),
    Entry("median_dim", lambda lib, x, dim, keepdim: lib.median(x, dim, keepdim), median_dim_samples,
          covers=("median_dim",), dtypes=NUMBERS),
    Entry("nanmedian", lambda lib, x: lib.nanmedian(x), _only(median_samples, "even", "ties", "empty", "nan", "all_nan"),
          covers=("nanmedian",), dtypes=NUMBERS),
    Entry("nanmedian_dim", lambda lib, x, dim, keepdim: x.nanmedian(dim, keepdim),
          _only(median_dim_samples, "odd", "even", "scalar", "nans"), covers=("nanmedian_dim",), dtypes=NUMBERS),
    Entry("mode", lambda lib, x, dim, keepdim: x.mode(dim, keepdim), mode_samples, covers=("mode",), dtypes=ALL),
    Entry("quantile", lambda lib, x, q, dim, keepdim, interpolation: lib.quantile(
          x, q, dim, keepdim, interpolation=interpolation), quantile_samples, covers=("sort", "take_along")),
    Entry("nanquantile", lambda lib, x, q, dim, keepdim, interpolation: x.nanquantile(
          q, dim, keepdim, interpolation=interpolation),
          _only(quantile_samples, "whole_keepdim", "dim", "q_tensor", "midpoint", "scalar", "nans", "nans_whole"),
          covers=("sort", "take_along")),
    # counting: plain results
    Entry("unique", lambda lib, x, srt, inverse, counts, dim: lib.unique(x, srt, inverse, counts, dim),
          unique_samples, covers=(), dtypes=ALL),
    Entry("unique_consecutive", lambda lib, x, inverse, counts, dim: x.unique_consecutive(inverse, counts, dim),
          unique_consecutive_samples, covers=(), dtypes=ALL),
    Entry("bincount", lambda lib, x, weights, minlength: lib.bincount(x, weights, minlength), bincount_samples,
          covers=(), dtypes=("float64",)),
    Entry("histc", lambda lib, x, bins, lo, hi: x.histc(bins, lo, hi), histc_samples, covers=()),
]


# --- error cases -------------------------------------------------------------------------------


def _m(*shape, dtype="float32"):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


ERRORS = [
    ErrorCase("mean_int_dtype", lambda lib, x: x.mean(dtype=lib.int64), (_m(2, 3),)),
    ErrorCase("nanmean_int", lambda lib, x: x.nanmean(), (_m(2, dtype="int64"),)),
    ErrorCase("nansum_dim", lambda lib, x: x.nansum(2), (_m(2, 3),)),
    ErrorCase("prod_dim", lambda lib, x: x.prod(-3), (_m(2, 3),)),
    ErrorCase("amax_empty", lambda lib, x: x.amax(), (_m(0, 3),)),
    ErrorCase("amax_empty_dim", lambda lib, x: x.amax((1, 0)), (_m(0, 3),)),
    ErrorCase("amin_empty_dim", lambda lib, x: x.amin(0), (_m(0, 3),)),
    ErrorCase("amax_repeated_dim", lambda lib, x: x.amax((1, -1)), (_m(2, 3),)),
    ErrorCase("aminmax_empty", lambda lib, x: lib.aminmax(x), (_m(0, 3),)),
    ErrorCase("aminmax_empty_dim", lambda lib, x: lib.aminmax(x, dim=0), (_m(0, 3),)),
    ErrorCase("argmax_empty", lambda lib, x: x.argmax(), (_m(0, 3),)),
    ErrorCase("argmin_empty_dim", lambda lib, x: x.argmin(0), (_m(0, 3),)),
    ErrorCase("argmax_bool", lambda lib, x: x.argmax(), (_m(3).astype(bool),)),
    ErrorCase("argmax_dim", lambda lib, x: x.argmax(2), (_m(2, 3),)),
    ErrorCase("var_int", lambda lib, x: x.var(), (_m(3, dtype="int64"),)),
    ErrorCase("std_dim", lambda lib, x: x.std(2), (_m(2, 3),)),
    ErrorCase("norm_int", lambda lib, x: lib.norm(x), (_m(3, dtype="int64"),)),
    ErrorCase("norm_inf_empty", lambda lib, x: lib.norm(x, float("inf")), (_m(0, 3),)),
    ErrorCase("norm_negative_p_empty", lambda lib, x: lib.norm(x, -1), (_m(0, 3),)),
    ErrorCase("norm_inf_empty_dim", lambda lib, x: lib.norm(x, float("-inf"), 0), (_m(0, 3),)),
    ErrorCase("norm_fro_three_dims", lambda lib, x: lib.norm(x, "fro", (0, 1, 2)), (_m(2, 2, 2),)),
    ErrorCase("logsumexp_dim", lambda lib, x: x.logsumexp(2), (_m(2, 3),)),
    ErrorCase("count_nonzero_repeated", lambda lib, x: lib.count_nonzero(x, (0, 0)), (_m(2, 3),)),
    ErrorCase("all_dim", lambda lib, x: x.all(3), (_m(2, 3),)),
    ErrorCase("cumsum_dim", lambda lib, x: x.cumsum(1), (_m(3),)),
    ErrorCase("cumprod_dim", lambda lib, x: lib.cumprod(x, -2), (_m(),)),
    ErrorCase("cummax_dim", lambda lib, x: x.cummax(1), (_m(3),)),
    ErrorCase("logcumsumexp_int", lambda lib, x: x.logcumsumexp(0), (_m(3, dtype="int64"),)),
    ErrorCase("logcumsumexp_bool", lambda lib, x: x.logcumsumexp(0), (_m(3).astype(bool),)),
    ErrorCase("sort_dim", lambda lib, x: x.sort(1), (_m(3),)),
    ErrorCase("topk_k", lambda lib, x: x.topk(4), (_m(3),)),
    ErrorCase("topk_negative_k", lambda lib, x: x.topk(-1), (_m(3),)),
    ErrorCase("topk_bool", lambda lib, x: x.topk(1), (_m(3).astype(bool),)),
    ErrorCase("topk_dim", lambda lib, x: x.topk(1, 2), (_m(2, 3),)),
    ErrorCase("kthvalue_k", lambda lib, x: x.kthvalue(4), (_m(3),)),
    ErrorCase("kthvalue_zero", lambda lib, x: x.kthvalue(0, 0), (_m(2, 3),)),
    ErrorCase("kthvalue_bool", lambda lib, x: x.kthvalue(1), (_m(3).astype(bool),)),
    ErrorCase("kthvalue_empty", lambda lib, x: x.kthvalue(1, 0), (_m(0, 3),)),
    ErrorCase("median_bool", lambda lib, x: x.median(), (_m(3).astype(bool),)),
    ErrorCase("median_empty_dim", lambda lib, x: x.median(0), (_m(0, 3),)),
    ErrorCase("nanmedian_empty_dim", lambda lib, x: x.nanmedian(0), (_m(0, 3),)),
    ErrorCase("mode_empty", lambda lib, x: x.mode(0), (_m(0, 3),)),
    ErrorCase("quantile_q", lambda lib, x: x.quantile(1.5), (_m(3),)),
    ErrorCase("quantile_q_tensor", lambda lib, x, q: x.quantile(q), (_m(3), np.array([0.5, -0.1], "float32"))),
    ErrorCase("quantile_q_2d", lambda lib, x, q: x.quantile(q), (_m(3), np.array([[0.5]], "float32"))),
    ErrorCase("quantile_q_dtype", lambda lib, x, q: x.quantile(q), (_m(3), np.array([0.5], "float64"))),
    ErrorCase("quantile_empty", lambda lib, x: x.quantile(0.5), (_m(0),)),
    ErrorCase("quantile_int", lambda lib, x: x.quantile(0.5), (_m(3, dtype="int64"),)),
    ErrorCase("quantile_interpolation", lambda lib, x: x.quantile(0.5, interpolation="cubic"), (_m(3),)),
    ErrorCase("quantile_dim", lambda lib, x: x.quantile(0.5, dim=2), (_m(2, 3),)),
    ErrorCase("nanquantile_q", lambda lib, x: x.nanquantile(-0.5), (_m(3),)),
    ErrorCase("unique_dim_scalar", lambda lib, x: lib.unique(x, dim=0), (_m(),)),
    ErrorCase("unique_empty_other_dim", lambda lib, x: lib.unique(x, dim=1), (_m(0, 2),)),
    ErrorCase("unique_dim", lambda lib, x: lib.unique(x, dim=2), (_m(2, 3),)),
    ErrorCase("bincount_float", lambda lib, x: lib.bincount(x), (_m(3),)),
    ErrorCase("bincount_bool", lambda lib, x: lib.bincount(x), (_m(3).astype(bool),)),
    ErrorCase("bincount_negative", lambda lib, x: lib.bincount(x), (np.array([1, -1]),)),
    ErrorCase("bincount_2d", lambda lib, x: lib.bincount(x), (_m(2, 2, dtype="int64"),)),
    ErrorCase("bincount_minlength", lambda lib, x: lib.bincount(x, minlength=-1), (_m(2, dtype="int64"),)),
    ErrorCase("bincount_weights", lambda lib, x, w: lib.bincount(x, w), (_m(2, dtype="int64"), _m(3))),
    ErrorCase("histc_int", lambda lib, x: x.histc(), (_m(3, dtype="int64"),)),
    ErrorCase("histc_bins", lambda lib, x: x.histc(0), (_m(3),)),
    ErrorCase("histc_range", lambda lib, x: x.histc(4, 2, 1), (_m(3),)),
    ErrorCase("histc_infinite", lambda lib, x: x.histc(), (np.array([1.0, np.inf], "float32"),)),
]

# (check, entry, samples) -> the bug, as in test_ops.KNOWN_BUGS
KNOWN_BUGS = {
}
