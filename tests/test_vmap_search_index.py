"""vmap of the ops that index or search by values: ``x[i]`` and ``index_put`` with batched
index tensors, ``searchsorted``, ``bucketize``, ``argwhere``, ``bincount``, ``histc``, in the
cases the op database's first samples don't reach: batched index tensors among slices,
ints, ``...`` and masks, bounds errors, samples of unequal result sizes, nested vmaps, and
gradients through a batched index. Each is compared with ``torch.vmap``: the same values,
dtype and shape, or the same error type and message. None may take the loop fallback."""
import numpy as np
import pytest

import chainrule
from chainrule._functorch import batched

from helpers import assert_close, both, full_error_of, require_torch

pytestmark = [pytest.mark.filterwarnings("ignore:There is a performance drop:UserWarning"),  # torch's own loops
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]

RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def no_fallback():
    """Every test here must run its ops batched, no loop over the samples."""
    batched.FALLBACKS.clear()
    yield
    used = sorted(batched.FALLBACKS)
    batched.FALLBACKS.clear()
    assert not used, f"ran once per sample: {used}"


def _t(L, a):
    return L.from_numpy(np.array(a, copy=True))


def _vmap_both(fn, *arrays, in_dims=0):
    """``vmap(lambda *a: fn(L, *a))`` on ``arrays`` in both libraries: the results, or the
    errors (type and message), which must match."""
    def run(L):
        return L.vmap(lambda *a: fn(L, *a), in_dims=in_dims)(*[_t(L, a) for a in arrays])

    torch = require_torch()
    try:
        theirs = run(torch)
    except Exception:  # noqa: BLE001  (then ours must raise the same)
        assert full_error_of(lambda: run(chainrule)) == full_error_of(lambda: run(torch))
        return
    ours = run(chainrule)
    assert tuple(ours.shape) == tuple(theirs.shape) and str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


X = RNG.standard_normal((3, 3, 4))
X4 = RNG.standard_normal((3, 2, 3, 4))
I0 = np.array([1, 0, 2])                                  # a batch of 0-d indices
I1 = np.array([[2, 0], [1, 1], [0, 2]])                   # a batch of 1-d indices into a dim of 3
I2 = np.array([[3, 0], [1, 2], [0, 3]])                   # ... into a dim of 4

GETITEM = {
    "0d": (lambda L, x, i: x[i], X, I0),
    "0d_negative": (lambda L, x, i: x[:, i], X, -I0),
    "0d_unbatched_x": (lambda L, i: _t(L, X[0])[i], I0),
    "0d_two": (lambda L, x, i, j: x[i, :, j], X4, I0 % 2, I0),
    "0d_ellipsis": (lambda L, x, i: x[..., i], X4, I0),
    "0d_apart_from_list": (lambda L, x, i: x[i, :, [1, 2]], X4, I0 % 2),  # an index tensor, not a select
    "0d_none": (lambda L, x, i: x[None, i], X, I0),
    "1d": (lambda L, x, i: x[i], X, I1),
    "1d_after_slice": (lambda L, x, i: x[:, i], X4, I1),
    "1d_after_int": (lambda L, x, i: x[0, :, i], X4, I2),
    "1d_apart": (lambda L, x, i, j: x[i, :, j], X4, I1 % 2, I2),
    "1d_apart_from_list": (lambda L, x, i: x[[1, 0], :, i], X4, I2),
    "broadcast": (lambda L, x, i: x[i[:, None], L.tensor([0, 3, 1])], X, I1),
    "sliced_view": (lambda L, x, i: x[1:, i], X, I2),
    "2d": (lambda L, x, i: x[:, i], X, np.stack([I2, I2[::-1]], 1)),
    "int32": (lambda L, x, i: x[:, i], X, I2.astype(np.int32)),
    "unbatched_mask_and_index": (lambda L, x, i: x[L.tensor([True, False, True]), i], X, I1),
    "true_and_index": (lambda L, x, i: x[True, i], X, I2),
    "out_of_bounds": (lambda L, x, i: x[:, i], X, I1 + 2),
    "out_of_bounds_0d": (lambda L, x, i: x[i], X, I0 + 1),
    "out_of_bounds_after_true": (lambda L, x, i: x[True, i], X, I2 + 1),
    "batched_mask": (lambda L, x, m: x[m], X, X > 0),
    "nested": (lambda L, x, i: L.vmap(lambda a, b: a[:, b])(x, i), RNG.standard_normal((2, 3, 3, 4)),
               RNG.integers(0, 4, (2, 3, 5))),
    "nested_index_only": (lambda L, i: L.vmap(lambda b: _t(L, X[0])[:, b])(i), RNG.integers(0, 4, (2, 3, 5))),
}

VALUES = RNG.standard_normal((3, 2, 4))
INDEX_PUT = {
    "rows": (lambda L, x, i, v: L.index_put(x, (i,), v), X, I1, VALUES),
    "accumulate_repeated": (lambda L, x, i, v: L.index_put(x, (i,), v, True), X, np.array([[1, 1], [0, 0], [2, 1]]),
                            VALUES),
    "index_only": (lambda L, i: L.index_put(_t(L, X[0]), (i,), _t(L, VALUES[0])), I1),
    "pairs": (lambda L, x, i, j, v: L.index_put(x, (i, j), v), X, I1, I2, RNG.standard_normal((3, 2))),
    "one_of_pair": (lambda L, x, j: L.index_put(x, (L.tensor([0, 2]), j), L.tensor(5.0, dtype=L.float64)), X, I2),
    "0d_index": (lambda L, x, i, v: L.index_put(x, (i,), v), X, I0, RNG.standard_normal((3, 4))),
    "broadcast_values": (lambda L, x, i, v: L.index_put(x, (i,), v), X, I1, RNG.standard_normal((3, 4))),
    "in_place": (lambda L, x, i, v: (x * 1).index_put_((i,), v, accumulate=True), X, I1, VALUES),
    "out_of_bounds": (lambda L, x, i, v: L.index_put(x, (i,), v), X, I1 + 1, VALUES),
    "batched_mask": (lambda L, x, m: L.index_put(x, (m,), L.tensor(1.0, dtype=L.float64)), X, X > 0),
    "nested": (lambda L, x, i: L.vmap(lambda a, b: L.index_put(a, (b,), L.tensor(7.0, dtype=L.float64)))(x, i),
               RNG.standard_normal((2, 3, 4)), RNG.integers(0, 4, (2, 3, 2))),
}

SEQ = np.sort(RNG.standard_normal((3, 6)), -1)
POINTS = RNG.standard_normal((3, 2, 3))
POINTS[0, 0, 0] = SEQ[0, 2]  # a tie: left and right differ
POINTS[1, 1, 1] = np.nan
ORDER = np.argsort(RNG.standard_normal((3, 6)), -1)
SHUFFLED = np.take_along_axis(SEQ, np.argsort(ORDER, -1), -1)  # SHUFFLED sorted by ORDER is SEQ
SEARCH = {
    "both": (lambda L, s, v, right: L.searchsorted(s, v, right=right), SEQ, POINTS),
    "sequence_only": (lambda L, s, right: L.searchsorted(s, _t(L, POINTS[0]), right=right), SEQ),
    "values_only": (lambda L, v, right: L.searchsorted(_t(L, SEQ[0]), v, right=right), POINTS),
    "scalar": (lambda L, s, right: L.searchsorted(s, 0.25, right=right), SEQ),
    "int_scalar": (lambda L, s, right: L.searchsorted(s, 1, right=right), np.arange(12).reshape(3, 4)),
    "int32": (lambda L, s, v, right: L.searchsorted(s, v, out_int32=True, right=right), SEQ, POINTS),
    "side": (lambda L, s, v, right: L.searchsorted(s, v, side="right" if right else "left"), SEQ, POINTS),
    "sorter": (lambda L, s, v, o, right: L.searchsorted(s, v, sorter=o, right=right), SHUFFLED, POINTS, ORDER),
    "rows": (lambda L, s, v, right: L.searchsorted(s, v, right=right), np.sort(RNG.standard_normal((3, 2, 5)), -1),
             POINTS),
    "float32": (lambda L, s, v, right: L.searchsorted(s, v, right=right), SEQ.astype(np.float32),
                POINTS.astype(np.float32)),
    "no_values": (lambda L, s, v, right: L.searchsorted(s, v, right=right), SEQ, np.zeros((3, 0))),
    "nested": (lambda L, s, v, right: L.vmap(lambda a, b: L.searchsorted(a, b, right=right))(s, v),
               np.sort(RNG.standard_normal((2, 3, 5)), -1), RNG.standard_normal((2, 3, 4))),
    "bucketize": (lambda L, v, b, right: L.bucketize(v, b, right=right), POINTS, SEQ),
    "bucketize_values_only": (lambda L, v, right: L.bucketize(v, _t(L, SEQ[0]), right=right), POINTS),
    "bucketize_boundaries_only": (lambda L, b, right: L.bucketize(_t(L, POINTS[0]), b, right=right), SEQ),
    "bucketize_0d": (lambda L, v, b, right: L.bucketize(v, b, right=right), POINTS[:, 0, 0], SEQ),
    "bad_side": (lambda L, s, v, right: L.searchsorted(s, v, side="middle"), SEQ, POINTS),
    "bucketize_2d_boundaries": (lambda L, v, b, right: L.bucketize(v, b), POINTS, np.stack([SEQ] * 3, 1)),
}

COUNTS = RNG.integers(0, 5, (3, 6))
WEIGHTS = RNG.standard_normal((3, 6))
ZEROS = np.ones((3, 3, 4))
ZEROS[0, 1, 1] = ZEROS[1, 2, 0] = ZEROS[2, 0, 3] = 0  # one zero in each sample
SPARSE = np.where(RNG.standard_normal((3, 3, 4)) < 0.3, 0, 1.0)
COUNTING = {
    "argwhere": (lambda L, x: x.argwhere(), ZEROS),
    "argwhere_bool": (lambda L, x: L.argwhere(x), ZEROS > 0),
    "argwhere_0d": (lambda L, x: L.argwhere(x), np.array([1.0, 2.0, 3.0])),
    "argwhere_unequal": (lambda L, x: x.argwhere(), SPARSE),
    "argwhere_dim_1": (lambda L, x: L.argwhere(x), ZEROS.transpose(1, 0, 2).copy()),
    "bincount": (lambda L, x: L.bincount(x), COUNTS),
    "bincount_equal": (lambda L, x: L.bincount(x), np.array([[0, 4], [4, 1], [2, 4]])),
    "bincount_minlength": (lambda L, x: L.bincount(x, minlength=7), COUNTS),
    "bincount_weights": (lambda L, x, w: L.bincount(x, w, 7), COUNTS, WEIGHTS),
    "bincount_float32_weights": (lambda L, x, w: L.bincount(x, w, 7), COUNTS, WEIGHTS.astype(np.float32)),
    "bincount_negative": (lambda L, x: L.bincount(x, minlength=7), COUNTS - 1),
    "bincount_empty": (lambda L, x: L.bincount(x, minlength=3), np.zeros((3, 0), np.int64)),
    "bincount_nested": (lambda L, x: L.vmap(lambda r: L.bincount(r, minlength=6))(x), RNG.integers(0, 5, (2, 3, 4))),
    "histc": (lambda L, x: x.histc(5, 0, 1), WEIGHTS),
    "histc_data_range": (lambda L, x: x.histc(5), WEIGHTS),
    "histc_float32": (lambda L, x: x.histc(7), WEIGHTS.astype(np.float32)),
    "histc_constant": (lambda L, x: x.histc(4), np.ones((3, 2))),
    "histc_infinite": (lambda L, x: x.histc(4), np.array([[1.0, 2.0], [np.inf, 1.0]])),
    "histc_nested": (lambda L, x: L.vmap(lambda r: r.histc(3))(x), RNG.standard_normal((2, 3, 4))),
}


@pytest.mark.parametrize("name", GETITEM)
def test_getitem_batched_index(name):
    _vmap_both(*GETITEM[name])


@pytest.mark.parametrize("name", INDEX_PUT)
def test_index_put_batched_index(name):
    _vmap_both(*INDEX_PUT[name])


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("name", SEARCH)
def test_search(name, right):
    fn, *arrays = SEARCH[name]
    _vmap_both(lambda L, *a: fn(L, *a, right), *arrays)


@pytest.mark.parametrize("name", COUNTING)
def test_counting(name):
    fn, *arrays = COUNTING[name]
    _vmap_both(fn, *arrays, in_dims=1 if name.endswith("dim_1") else 0)


def test_argwhere_unequal_nested():
    """PyTorch's loops stack the inner level first, so its error names another entry:
    chainrule checks every sample at once (the same error, another entry number)."""
    ours = full_error_of(lambda: chainrule.vmap(chainrule.vmap(chainrule.argwhere))(_t(chainrule, ZEROS)))
    assert ours[0] is RuntimeError and ours[1].startswith("stack expects each tensor to be equal size")


def test_search_nan_and_unsorted_like_torch():
    """PyTorch's binary search, not NumPy's: a NaN in the sequence, an unsorted one."""
    seq = np.array([[1.0, np.nan, 3.0, 0.5, 2.0], [0.0, 1.0, 2.0, 3.0, np.nan]])
    values = np.array([[0.5, 1.0, 2.0, np.nan], [-1.0, 1.5, 3.0, np.nan]])
    for right in (False, True):
        ours, theirs = both(lambda L: L.searchsorted(_t(L, seq), _t(L, values), right=right))
        assert_close(ours, theirs)
        ours, theirs = both(lambda L: L.searchsorted(_t(L, seq[0]), _t(L, values), right=right))
        assert_close(ours, theirs)


def test_gradients_through_batched_index():
    """Per-sample gradients through ``x[:, i]`` and ``index_put`` with a batched index: the
    index ops' gradient rules run on the batch (scatter-adds with repeated indices)."""
    x, i = X[0], np.array([[2, 0, 3], [1, 1, 3], [0, 2, 2]])

    def grads(L):
        def loss(y, v, idx):
            put = L.index_put(y, (idx[:2],), v, accumulate=True)
            return (put[:, idx] ** 2).sum()
        return L.vmap(L.func.grad(loss, argnums=(0, 1)), in_dims=(None, None, 0))(
            _t(L, x), _t(L, VALUES[0]), _t(L, i))

    ours, theirs = both(grads)
    assert_close(ours, theirs)


def test_jacobian_of_batched_index_ops():
    """``jacrev`` of a function that vmaps over the index: the index ops' gradient rules
    run on a batch of cotangents over the batch of indices (nested levels)."""
    def jac(L):
        def f(x, v):
            return L.vmap(lambda idx: L.index_put(x, (idx,), v)[:, idx] * 2)(_t(L, I1))
        return L.func.jacrev(f, argnums=(0, 1))(_t(L, X[0]), _t(L, VALUES[0]))

    ours, theirs = both(jac)
    assert_close(ours, theirs)
