"""vmap of the functions that read values (reductions that pick, sorting, selection,
gather/scatter, indexing) against ``torch.vmap``: values, dtypes and gradients agree, and
the forms below run once on the whole batch (no op loops: ``batched.FALLBACKS`` stays
empty). test_ops_vmap.py sweeps one sample per op-database entry; these are the other
forms (dim=None, keepdim, 0-d samples, batched indices, index arrays apart, masks)."""
import warnings

import numpy as np
import pytest

import chainrule
from chainrule._functorch import batched
from helpers import assert_close, both, require_torch

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4, 5))   # a batch of three (4, 5) samples
S = RNG.standard_normal(3)           # a batch of three 0-d samples
NAN = X.copy()
NAN[0, 1, 2] = NAN[2, 0, 0] = NAN[2, 3, 1] = np.nan
IDX = RNG.integers(0, 4, (3, 2, 5))  # gather indices along dim 0 of each sample
ROWS = np.array([[0, 3], [2, 2], [1, -1]])  # one index vector per sample
# torch.vmap's index_fill reads -1 of one sample as the previous sample's last position
FILL_ROWS = np.array([[0, 3], [2, 2], [1, 0]])
MASK = RNG.random((3, 5)) > 0.5      # one mask per sample, broadcast over the rows


def _vmapped(fn, *arrays, in_dims=0, grad=True):
    """``vmap(fn)`` over float64 arrays (the first one a leaf when ``grad``) and integer or
    bool arrays as they are; the result, and the first input's gradient of a weighted sum."""
    def program(lib):
        args = [lib.tensor(a, requires_grad=grad and k == 0 and a.dtype == np.float64)
                for k, a in enumerate(arrays)]
        out = lib.vmap(fn(lib), in_dims=in_dims)(*args)
        outs = out if isinstance(out, tuple) else (out,)
        if not grad or not args[0].requires_grad:
            return outs
        floats = [o for o in outs if o.dtype == lib.float64]
        if not floats:  # indices, counts, flags: no gradient
            return outs
        total = sum((o * lib.arange(o.numel(), dtype=o.dtype).reshape(o.shape)).sum() for o in floats)
        return outs, lib.autograd.grad(total, args[0])
    return program


CASES = {
    "max_dim": (lambda lib: lambda x: lib.max(x, 1), X),
    "min_dim_keepdim": (lambda lib: lambda x: x.min(-1, keepdim=True), X),
    "max_dim_0d": (lambda lib: lambda x: lib.max(x, 0), S),
    "argmax_all": (lambda lib: lambda x: lib.argmax(x), X),
    "argmin_dim": (lambda lib: lambda x: lib.argmin(x, 0, keepdim=True), X),
    "argmax_0d": (lambda lib: lambda x: lib.argmax(x, 0), S),
    "all_dims": (lambda lib: lambda x: lib.all(x > 0, (0, 1), keepdim=True), X),
    "any_all": (lambda lib: lambda x: lib.any(x > 1), X),
    "count_nonzero": (lambda lib: lambda x: lib.count_nonzero(x > 0, -1), X),
    "nanmean_keepdim": (lambda lib: lambda x: lib.nanmean(x, 1, keepdim=True), NAN),
    "nanmean_all": (lambda lib: lambda x: lib.nanmean(x), NAN),
    "cummax_0d": (lambda lib: lambda x: lib.cummax(x, 0), S),
    "cummin": (lambda lib: lambda x: lib.cummin(x, 0), X),
    "sort_descending": (lambda lib: lambda x: lib.sort(x, 0, descending=True), X),
    "argsort": (lambda lib: lambda x: lib.argsort(x, -1), X),
    "topk_smallest": (lambda lib: lambda x: lib.topk(x, 2, 0, largest=False), X),
    "kthvalue_keepdim": (lambda lib: lambda x: lib.kthvalue(x, 3, 1, keepdim=True), X),
    "median_all": (lambda lib: lambda x: lib.median(x), X),
    "nanmedian_all": (lambda lib: lambda x: lib.nanmedian(x), NAN),
    "median_dim": (lambda lib: lambda x: lib.median(x, 0), NAN),
    "mode": (lambda lib: lambda x: lib.mode(lib.round(x), 1), X),
    "quantile_vector_keepdim": (lambda lib: lambda x: lib.quantile(x, lib.tensor([0.25, 0.5], dtype=lib.float64),
                                                                  keepdim=True), X),
    "quantile_dim": (lambda lib: lambda x: lib.quantile(x, 0.3, 1, interpolation="midpoint"), X),
    "nanquantile_vector_dim": (lambda lib: lambda x: lib.nanquantile(x, lib.tensor([0.1, 0.9], dtype=lib.float64),
                                                                    0), NAN),
    "gather_batched_index": (lambda lib: lambda x, i: lib.gather(x, 0, i), X, IDX),
    "scatter_add_batched_index": (lambda lib: lambda x, i: lib.zeros(4, 5, dtype=x.dtype).scatter_add(0, i, x[:2]),
                                  X, IDX),
    "index_select_batched_index": (lambda lib: lambda x, i: lib.index_select(x, 0, i[:1]), X, ROWS),
    "index_add_batched_index": (lambda lib: lambda x, i: x.index_add(1, i[:1], x[:, :1], alpha=2.0), X, ROWS),
    "index_fill": (lambda lib: lambda x, i: x.index_fill(1, i, -1.0), X, FILL_ROWS),
    "index_fill_tensor_value": (lambda lib: lambda x, i: x.index_fill(0, i, x[0, 0]), X, FILL_ROWS),
    "masked_fill_batched_mask": (lambda lib: lambda x, m: x.masked_fill(m, 0.5), X, MASK),
    "masked_fill_batched_value": (lambda lib: lambda x, m: x.masked_fill(m, x[1, 1]), X, MASK),
    "take_negative": (lambda lib: lambda x, i: lib.take(x, i), X, ROWS),
    "put_accumulate": (lambda lib: lambda x, i: x.put(i, x[0, :2], accumulate=True), X, ROWS),
    "getitem_arrays_apart": (lambda lib: lambda x: x.reshape(2, 2, 5)[[0, 1], :, [1, 2]], X),
    "getitem_mask": (lambda lib: lambda x: x[:, lib.tensor([True, False, True, True, False])], X),
    "setitem_arrays": (lambda lib: lambda x: _set(x * 1, (slice(None), [1, 3], [0, 1]), x[0, :2, 0]),
                             X.reshape(3, 4, 5, 1).repeat(2, -1)),
}


def _set(t, index, value):
    t[index] = value
    return t


@pytest.mark.parametrize("name", CASES)
def test_vmap_matches_torch(name):
    fn, *arrays = CASES[name]
    batched.FALLBACKS.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours, theirs = both(_vmapped(fn, *arrays))
    assert not batched.FALLBACKS, f"ran once per sample: {sorted(batched.FALLBACKS)}"
    assert_close(ours, theirs, rtol=1e-10, atol=1e-12)


def test_setitem_arrays_apart_matches_loop():
    """x[i, :, j] = v: torch.vmap refuses it (a bug: it puts the batch dim of the indexed
    part second), so the reference is the same write on each sample."""
    xs = chainrule.tensor(X.reshape(3, 4, 5, 1).repeat(2, -1), requires_grad=True)

    def write(x):
        return _set(x * 1, ([1, 2], slice(None), [0, 1]), x[0, :, 0] * 2)

    batched.FALLBACKS.clear()
    got = chainrule.vmap(write)(xs)
    assert not batched.FALLBACKS
    expected = chainrule.stack([write(x) for x in xs])
    assert_close(got, expected)
    assert_close(chainrule.autograd.grad(got.sum(), xs), chainrule.autograd.grad(expected.sum(), xs))


def test_index_values_checked_in_every_sample():
    """An index out of range in the last sample only raises the loop's error."""
    bad = IDX.copy()
    bad[2, 0, 0] = 4
    torch = require_torch()
    with pytest.raises(RuntimeError, match="index 4 is out of bounds for dimension 0 with size 4"):
        chainrule.vmap(lambda x, i: x.gather(0, i))(chainrule.tensor(X), chainrule.tensor(bad))
    with pytest.raises(RuntimeError):
        torch.vmap(lambda x, i: x.gather(0, i))(torch.tensor(X), torch.tensor(bad))


def test_dynamic_shapes_refused_as_torch():
    torch = require_torch()
    for lib in (chainrule, torch):
        with pytest.raises(RuntimeError, match="dynamic shape"):
            lib.vmap(lambda x: lib.nonzero(x))(lib.tensor(X))
