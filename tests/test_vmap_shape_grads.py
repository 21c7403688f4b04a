"""vmap of the shape and indexing ops whose rules embed, pick or join (diag, block_diag,
masked_scatter, repeat_interleave, take/put, as_strided, in-place on a view) against
``torch.vmap`` and ``torch.func.jacrev``: values and gradients agree, and nothing runs once
per sample (``batched.FALLBACKS`` stays empty). test_ops_vmap.py sweeps one sample per
op-database entry with the same values in every sample; these are the forms it misses:
0-d samples, a different mask or repeats per sample, and errors in one sample only."""
import warnings

import numpy as np
import pytest

import chainrule
from chainrule._functorch import batched
from helpers import assert_close, both, full_error_of

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 2, 3))         # a batch of three (2, 3) samples
V = RNG.standard_normal((3, 4))            # a batch of three vectors
W = RNG.standard_normal((3, 6))            # a source for any (2, 3) mask
S = RNG.standard_normal(3)                 # a batch of three 0-d samples
MASKS = np.array([[[True, False, True], [False, True, False]],
                  [[False, False, False], [True, True, True]],
                  [[True, True, True], [True, False, False]]])  # 3, 3 and 4 ones
REPEATS = np.array([[1, 0, 2, 1], [0, 0, 4, 0], [1, 1, 1, 1]])  # each sums to 4


def _no_loops(run):
    """``run()`` with PyTorch's loop warnings silenced; fails if chainrule looped."""
    batched.FALLBACKS.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        result = run()
    assert not batched.FALLBACKS, f"ran once per sample: {sorted(batched.FALLBACKS)}"
    return result


# --- forward under vmap, with the gradient of the batch ----------------------------------------

def _vmapped(fn, *arrays):
    """``vmap(fn)`` over the arrays (float64 ones are leaves), the result and the leaves'
    gradients of a weighted sum of it."""
    def program(lib):
        args = [lib.tensor(a, requires_grad=a.dtype == np.float64) for a in arrays]
        out = lib.vmap(fn(lib))(*args)
        outs = out if isinstance(out, tuple) else (out,)
        leaves = [a for a in args if a.requires_grad]
        if not leaves:
            return outs
        total = sum((o * lib.arange(o.numel(), dtype=o.dtype).reshape(o.shape)).sum() for o in outs)
        return outs, lib.autograd.grad(total, leaves)
    return program


FORWARD = {
    "masked_scatter_own_masks": (lambda lib: lambda x, m, s: x.masked_scatter(m, s), X, MASKS, V),
    "masked_scatter_broadcast_mask": (lambda lib: lambda x, m, s: x.masked_scatter(m, s), X, MASKS[:, 0], W),
    "masked_scatter_mask_only": (lambda lib: lambda m: lib.zeros(2, 3, dtype=lib.float64).masked_scatter(
        m, lib.ones(6, dtype=lib.float64)), MASKS),
    "masked_scatter_source_only": (lambda lib: lambda s: lib.zeros(2, 3, dtype=lib.float64).masked_scatter(
        lib.tensor(MASKS[0]), s), V),
    "repeat_interleave_own_repeats": (lambda lib: lambda v, r: v.repeat_interleave(r), V, REPEATS),
    "repeat_interleave_dim": (lambda lib: lambda x, r: x.repeat_interleave(r, dim=1), X, REPEATS[:, :3] * 0 + 2),
    "repeat_interleave_0d_repeats": (lambda lib: lambda x, r: x.repeat_interleave(r, dim=0), X,
                                     np.array([2, 2, 2])),
    "block_diag_mixed": (lambda lib: lambda x, s: lib.block_diag(x, lib.ones(2, dtype=lib.float64), s), X, S),
    "diag_offset": (lambda lib: lambda x: lib.diag(x, 1), X),
    "diag_of_vector": (lambda lib: lambda v: lib.diag(v, -1), V),
    "tensor_split_list": (lambda lib: lambda x: lib.tensor_split(x, [1, 2], 1), X),
}


@pytest.mark.parametrize("name", FORWARD)
def test_vmap_matches_torch(name):
    fn, *arrays = FORWARD[name]
    ours, theirs = _no_loops(lambda: both(_vmapped(fn, *arrays)))
    assert_close(ours, theirs, rtol=1e-10, atol=1e-12)


# --- jacrev: every gradient rule on a batch of cotangents --------------------------------------

def _scaled_view(lib, x):
    y = x * 1
    y[1:, ::2] *= 3  # the base's node becomes CopySlices, the view's an embed
    return y


JACREV = {
    "max_0d": (lambda lib: lambda x: lib.max(x, 0).values, S[0]),
    "sort": (lambda lib: lambda x: lib.sort(x, -1).values, X[0]),
    "cummax_0d": (lambda lib: lambda x: lib.cummax(x, 0).values, S[0]),
    "unfold_0d": (lambda lib: lambda x: x.unfold(0, 1, 1), S[0]),
    "unfold": (lambda lib: lambda x: x.unfold(1, 2, 1), X[0]),
    "diagonal_negative_dims": (lambda lib: lambda x: lib.diagonal(x, -1, -1, -2), X[0]),
    "diag": (lambda lib: lambda x: lib.diag(x, 1), X[0]),
    "trace": (lambda lib: lambda x: lib.trace(x), X[0]),
    "inplace_on_view": (lambda lib: lambda x: _scaled_view(lib, x), X[0]),
    "as_strided": (lambda lib: lambda x: lib.as_strided(x, (2, 2), (1, 2), 1), X[0]),
    "take_negative": (lambda lib: lambda x: lib.take(x, lib.tensor([[-1, 0], [2, 2]])), X[0]),
    "put_accumulate": (lambda lib: lambda x: x.put(lib.tensor([1, -1, 1]), x[0] * 2, accumulate=True), X[0]),
    "masked_select_broadcast": (lambda lib: lambda x: lib.masked_select(x, lib.tensor(MASKS[0, 0])), X[0]),
    "masked_scatter_broadcast": (lambda lib: lambda x: x.masked_scatter(lib.tensor(MASKS[0, 0]),
                                                                                    x.flip(0) * 2), X[0]),
}


@pytest.mark.parametrize("name", JACREV)
def test_jacrev_matches_torch(name):
    fn, array = JACREV[name]

    def program(lib):
        return lib.func.jacrev(fn(lib))(lib.tensor(array))
    ours, theirs = _no_loops(lambda: both(program))
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


# --- errors: a value check fails in one sample only --------------------------------------------

def _errors(fn, *arrays):
    """The (type, message) of ``vmap(fn)`` in chainrule and in PyTorch."""
    def program(lib):
        return full_error_of(lambda: lib.vmap(fn(lib))(*[lib.tensor(a) for a in arrays]))
    return both(program)


def test_masked_scatter_short_source_in_one_sample():
    masks = MASKS.copy()
    masks[2] = True  # 6 ones for a source of 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours, theirs = _errors(lambda lib: lambda x, m, s: x.masked_scatter(m, s), X, masks, V)
    assert ours == (RuntimeError, "Number of elements of source < number of ones in mask")
    assert ours[0] is theirs[0]


@pytest.mark.parametrize("repeats", [[[1, 1, 1, 1], [0, 2, 1, 1], [4, 0, 0, -1]],   # negative
                                     [[1, 1, 1, 1], [0, 2, 1, 1], [4, 1, 0, 1]]])   # a longer sample
def test_repeat_interleave_repeats_in_one_sample(repeats):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours, theirs = _errors(lambda lib: lambda v, r: v.repeat_interleave(r), V, np.array(repeats))
    assert ours == theirs


def test_repeat_interleave_output_size_checked_in_every_sample():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours, theirs = _errors(lambda lib: lambda v, r: v.repeat_interleave(r, output_size=4), V,
                               np.array([[1, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 5]]))
    assert ours == theirs


def test_tensor_split_batched_indices_refused_as_torch():
    ours, theirs = _errors(lambda lib: lambda x, i: lib.tensor_split(x, i, 1), X, np.array([[1], [2], [1]]))
    assert ours == theirs


NESTED = {
    "masked_scatter": (lambda x, m, s: x.masked_scatter(m, s), X, MASKS, W),
    "repeat_interleave": (lambda x, r: x.repeat_interleave(r, dim=1), X, np.array([[2, 1, 1], [0, 0, 4], [1, 2, 1]])),
}


@pytest.mark.parametrize("name", NESTED)
def test_nested_vmap_batched_values_loop_correctly(name):
    """Masks or repeats batched by both vmaps: the inner level can't read the outer
    batch's values, so it runs once per sample of the outer one (correct, warned)."""
    fn, *arrays = NESTED[name]
    outer = [chainrule.tensor(np.stack([a, a[::-1]])) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        got = chainrule.vmap(chainrule.vmap(fn))(*outer)
    expected = chainrule.stack([chainrule.stack([fn(*[a[i, j] for a in outer]) for j in range(3)])
                                for i in range(2)])
    assert_close(got, expected)
