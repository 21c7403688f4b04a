"""vmap of ``as_strided`` and of ``x[index] = v`` with batched index tensors, against
``torch.vmap``: values, gradients of the batch, and errors (type and whole message).

as_strided under vmap is not a loop over samples: the layout addresses the batch's
storage, each sample's view one batch stride further (with the batch dim not outermost in
memory, samples read each other's elements). x[i] = v with a batched i is one index_put of
the batch, checked on the batch's shapes: where index tensors lie apart, PyTorch's vmap
refuses a value in one sample's order. test_ops_vmap.py covers one sample of each entry."""
import warnings

import numpy as np
import pytest

from chainrule._functorch import batched
from helpers import assert_close, both, full_error_of

RNG = np.random.default_rng(0)


def _no_loops(run):
    """``run()`` with PyTorch's loop warnings silenced; fails if chainrule looped."""
    batched.FALLBACKS.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        result = run()
    assert not batched.FALLBACKS, f"ran once per sample: {sorted(batched.FALLBACKS)}"
    return result


def _program(fn, arrays, in_dims, nested=False):
    """``vmap(fn)`` (twice over, with ``nested``) on the arrays; the result and the gradient
    of ``(result ** 2).sum()`` for each float64 array."""
    def program(lib):
        args = [lib.tensor(a, requires_grad=a.dtype == np.float64) for a in arrays]
        f = lib.vmap(fn(lib), in_dims=in_dims)
        out = lib.vmap(f)(*args) if nested else f(*args)
        leaves = [a for a in args if a.requires_grad]
        return out, lib.autograd.grad((out * out).sum(), leaves)
    return program


def _i(*values):
    return np.array(values, dtype=np.int64)


# --- as_strided ----------------------------------------------------------------------------------

AS_STRIDED = {
    "transpose": (lambda lib: lambda x: x.as_strided((4, 3), (1, 4)), [RNG.standard_normal((3, 3, 4))], 0),
    "batch_not_outermost": (lambda lib: lambda x: x.as_strided((4, 3), (1, 4)), [RNG.standard_normal((3, 3, 4))], 1),
    "offset": (lambda lib: lambda x: lib.as_strided(x, (2, 2), (4, 1), 5), [RNG.standard_normal((2, 3, 4))], 0),
    "broadcast": (lambda lib: lambda x: x.as_strided((3, 2), (0, 2), 0), [RNG.standard_normal((3, 4))], 0),
    "of_a_view": (lambda lib: lambda x: x[1:].as_strided((2, 2), (1, 1)), [RNG.standard_normal((2, 5))], 0),
    "twice": (lambda lib: lambda x: x.as_strided((2,), (1,), 1).as_strided((1,), (1,), 2),
              [RNG.standard_normal((3, 6))], 0),
    "empty": (lambda lib: lambda x: x.as_strided((0, 2), (1, 1), 100), [RNG.standard_normal((2, 3))], 0),
}


@pytest.mark.parametrize("name", AS_STRIDED)
def test_as_strided_matches_torch(name):
    fn, arrays, in_dims = AS_STRIDED[name]
    ours, theirs = _no_loops(lambda: both(_program(fn, arrays, in_dims)))
    assert ours[0].shape == theirs[0].shape
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


def test_as_strided_nested_matches_torch():
    fn = lambda lib: lambda x: x.as_strided((2, 2), (2, 1), 1)
    ours, theirs = _no_loops(lambda: both(_program(fn, [RNG.standard_normal((2, 3, 8))], 0, nested=True)))
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


AS_STRIDED_ERRORS = {
    "past_the_end": lambda lib, x: x.as_strided((3, 5), (4, 1)),
    "before_the_view": lambda lib, x: x[1:].as_strided((2, 4), (4, 1), 0),
    "negative_offset": lambda lib, x: lib.as_strided(x, (2,), (1,), -1),
    "length": lambda lib, x: lib.as_strided(x, (3, 5), (4,)),
    "negative_stride": lambda lib, x: lib.as_strided(x, (3,), (-1,)),
    "negative_size": lambda lib, x: x.as_strided((-1,), (1,)),
    "no_storage": lambda lib, x: x[:, :0].as_strided((2,), (1,)),
}


@pytest.mark.parametrize("name", AS_STRIDED_ERRORS)
def test_as_strided_errors_match_torch(name):
    fn = AS_STRIDED_ERRORS[name]
    x = RNG.standard_normal((2, 3, 4))
    ours, theirs = both(lambda lib: full_error_of(lambda: lib.vmap(lambda s: fn(lib, s))(lib.tensor(x))))
    assert ours == theirs


# --- x[index] = value with batched index tensors ------------------------------------------------

def _write(index):
    """``fn(lib)``: a copy of x with ``x[index(lib, *rest)] = v`` (v the last of rest)."""
    def fn(lib):
        def write(x, *rest):
            y = x * 1
            y[index(lib, *rest[:-1])] = rest[-1]
            return y
        return write
    return fn


SETITEM = {
    "0d": (_write(lambda lib, i: i), [RNG.standard_normal((3, 4, 5)), _i(1, 0, 3), RNG.standard_normal((3, 5))], 0),
    "0d_unbatched_value": (_write(lambda lib, i: i), [RNG.standard_normal((3, 4, 5)), _i(1, 0, 3),
                                                      RNG.standard_normal(5)], (0, 0, None)),
    "after_a_slice": (_write(lambda lib, i: (slice(None), i)),
                      [RNG.standard_normal((3, 4, 5)), _i(1, 0, 3), RNG.standard_normal((3, 4))], 0),
    "negative_after_a_slice": (_write(lambda lib, i: (slice(1, None), i)),
                               [RNG.standard_normal((3, 4, 5)), _i(-1, 0, -2), RNG.standard_normal(3)], 0),
    "with_a_mask": (_write(lambda lib, i: (i, lib.tensor([True, False, True, True, False]))),
                    [RNG.standard_normal((3, 4, 5)), _i(1, 0, 3), RNG.standard_normal((3, 3))], 0),
    "in_dims": (_write(lambda lib, i: (0, i)),
                [RNG.standard_normal((3, 4, 5)), _i(1, 0, 3, 2), RNG.standard_normal((4,))], (1, 0, 0)),
}


@pytest.mark.parametrize("name", SETITEM)
def test_setitem_batched_index_matches_torch(name):
    fn, arrays, in_dims = SETITEM[name]
    ours, theirs = _no_loops(lambda: both(_program(fn, arrays, in_dims)))
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


def test_setitem_nested_matches_torch():
    arrays = [RNG.standard_normal((2, 3, 4, 5)), np.array([[1, 0, 3], [2, 2, 0]]), RNG.standard_normal((2, 3, 5))]
    ours, theirs = _no_loops(lambda: both(_program(_write(lambda lib, i: i), arrays, 0, nested=True)))
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


SETITEM_ERRORS = {
    # the batch's indexed shape is (3, 2, 4): the picked dims first, the arange being apart
    "value_in_sample_order": (_write(lambda lib, i: (slice(None), i)),
                              [np.zeros((3, 4, 5)), np.array([[1, 0], [2, 2], [0, 4]]), np.zeros((3, 4, 2))], 0),
    "out_of_bounds": (_write(lambda lib, i: i), [np.zeros((3, 4, 5)), _i(1, 0, 7), np.zeros((3, 5))], 0),
    "value_shape": (_write(lambda lib, i: (0, i)), [np.zeros((3, 4, 5)), _i(1, 0, 3, 2), np.zeros((3, 4))],
                    (1, 0, 1)),
    "value_dtype": (_write(lambda lib, i: i), [np.zeros((3, 4, 5)), _i(1, 0, 3), np.zeros((3, 5), np.float32)], 0),
    "unbatched_self": (_write(lambda lib, i: i), [np.zeros((4, 5)), _i(1, 0, 2), np.zeros(5)], (None, 0, None)),
}


@pytest.mark.parametrize("name", SETITEM_ERRORS)
def test_setitem_batched_index_errors_match_torch(name):
    fn, arrays, in_dims = SETITEM_ERRORS[name]
    ours, theirs = both(lambda lib: full_error_of(
        lambda: lib.vmap(fn(lib), in_dims=in_dims)(*[lib.tensor(a) for a in arrays])))
    assert ours == theirs


# --- a view's history rebuilt after an in-place change, differentiated by a batch of cotangents ----

def test_jacobian_through_a_view_changed_in_place_matches_torch():
    """The view's rebuilt node (AsStridedBackward0) embeds a batch of gradients into the base's
    shape: one put at the region's positions, not a loop."""
    x0 = RNG.standard_normal((2, 3))

    def program(lib):
        def f(x):
            y = x * 1
            v = y[:, 1:]
            y.mul_(2)
            return v * v
        return lib.autograd.functional.jacobian(f, lib.tensor(x0, requires_grad=True), vectorize=True)
    ours, theirs = _no_loops(lambda: both(program))
    assert_close(ours, theirs)
