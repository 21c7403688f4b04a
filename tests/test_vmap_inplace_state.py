"""vmap of the functions that update a tensor in place from values: batch_norm's running
statistics and embedding's ``max_norm`` renormalisation, compared with PyTorch's vmap.

Each test runs the same program on both libraries and compares the results AND the
caller's tensors afterwards (what the in-place update left there), for every way of
batching the arguments, nested vmaps included, and the errors where PyTorch refuses.
"""
import numpy as np
import pytest

from helpers import assert_close, both, full_error_of

pytestmark = pytest.mark.filterwarnings("ignore:There is a performance drop:UserWarning")

B = 3


def _arrays(seed):
    rng = np.random.default_rng(seed)
    return dict(x=rng.standard_normal((B, 4, 3, 2)), mean=rng.standard_normal((B, 3)),
                var=rng.random((B, 3)) + 0.5, w=rng.standard_normal((B, 3)), b=rng.standard_normal((B, 3)))


def _batch_norm_program(in_dims, training, momentum=0.1, affine=True):
    """vmap(batch_norm) with each argument batched (its dim) or shared (sample 0)."""
    arrays = _arrays(0)

    def program(L):
        args = []
        for name, d in zip(("x", "mean", "var", "w", "b"), in_dims):
            a = arrays[name] if d is not None else arrays[name][0]
            args.append(L.from_numpy(np.ascontiguousarray(np.moveaxis(a, 0, d) if d else a)))
        if not affine:
            args[3:] = [None, None]

        def fn(x, mean, var, w, b):
            return L.nn.functional.batch_norm(x, mean, var, w, b, training, momentum, 1e-5)
        out = L.vmap(fn, in_dims=tuple(in_dims))(*args)
        return out, args[1], args[2]  # the running stats as the update left them
    return program


@pytest.mark.parametrize("in_dims", [(0, 0, 0, 0, 0), (0, 0, 0, None, None), (None, 0, 0, None, None),
                                     (None, 0, 0, 0, 0), (0, 0, 0, None, 0), (1, 1, 1, 1, 1), (2, 0, 1, 0, None),
                                     (0, 1, 0, None, None)])
@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_running_stats(in_dims, training):
    """In training each sample's stats are updated from its own input, written back
    where the stats' batch dim is 0 (PyTorch updates a copy otherwise: lost)."""
    ours, theirs = both(_batch_norm_program(in_dims, training))
    assert_close(ours, theirs)


def test_batch_norm_running_stats_without_affine():
    ours, theirs = both(_batch_norm_program((0, 0, 0, None, None), True, momentum=0.5, affine=False))
    assert_close(ours, theirs)


def test_batch_norm_shared_input_batched_stats_in_eval():
    ours, theirs = both(_batch_norm_program((0, None, None, None, None), False))
    assert_close(ours, theirs)


@pytest.mark.parametrize("in_dims", [(0, None, None, None, None), (0, 0, None, None, None),
                                     (0, None, 0, 0, 0)])
def test_batch_norm_unbatched_stats_in_training_is_refused(in_dims):
    ours, theirs = both(lambda L: full_error_of(lambda: _batch_norm_program(in_dims, True)(L)))
    assert ours == theirs


def test_batch_norm_gradient_through_batched_stats():
    arrays = _arrays(1)

    def program(L):
        x = L.from_numpy(arrays["x"]).requires_grad_()
        w = L.from_numpy(arrays["w"]).requires_grad_()
        mean, var = L.from_numpy(arrays["mean"]), L.from_numpy(arrays["var"])
        out = L.vmap(lambda *a: L.nn.functional.batch_norm(*a, training=True))(x, mean, var, w)
        (out * out.detach().cos()).sum().backward()
        return out, x.grad, w.grad, mean, var
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_batch_norm_nested_vmap():
    rng = np.random.default_rng(2)
    x, mean, var = rng.standard_normal((2, 3, 4, 3)), rng.standard_normal((2, 3, 3)), rng.random((2, 3, 3)) + 0.5

    def program(L):
        m, v = L.from_numpy(mean.copy()), L.from_numpy(var.copy())
        fn = lambda x, m, v: L.nn.functional.batch_norm(x, m, v, None, None, True, 0.1, 1e-5)
        out = L.vmap(L.vmap(fn))(L.from_numpy(x), m, v)
        # the outer vmap batches the stats, the inner one the input: stats shared within
        m2, v2 = L.from_numpy(mean[:, 0].copy()), L.from_numpy(var[:, 0].copy())
        inner = L.vmap(fn, in_dims=(0, None, None))
        error = full_error_of(lambda: L.vmap(inner, in_dims=(0, 0, 0))(L.from_numpy(x), m2, v2))
        return out, m, v, m2, v2, error
    ours, theirs = both(program)
    assert ours[-1] == theirs[-1]
    assert_close(ours[:-1], theirs[:-1])


# --- embedding(max_norm=...) --------------------------------------------------------------------------

def _embedding_program(in_dims, norm_type=2.0, seed=0):
    rng = np.random.default_rng(seed)
    indices = rng.integers(0, 5, (B, 4))
    indices[:, 1] = indices[:, 0]  # a row looked up twice is renormalised once
    weight = rng.random((B, 5, 3)) + 0.4

    def program(L):
        i = indices if in_dims[0] is not None else indices[0]
        i = L.from_numpy(np.ascontiguousarray(np.moveaxis(i, 0, in_dims[0]) if in_dims[0] else i))
        w = weight if in_dims[1] is not None else weight[0]
        w = L.from_numpy(np.ascontiguousarray(np.moveaxis(w, 0, in_dims[1]) if in_dims[1] else w))
        fn = lambda i, w: L.nn.functional.embedding(i, w, max_norm=1.0, norm_type=norm_type)
        return L.vmap(fn, in_dims=in_dims)(i, w), w
    return program


@pytest.mark.parametrize("in_dims", [(0, 0), (None, 0), (1, 1), (0, 2)])
@pytest.mark.parametrize("norm_type", [2.0, 1.0, float("inf")])
def test_embedding_max_norm_renormalises_each_sample_table(in_dims, norm_type):
    """Each sample's table renormalised at its own indices, in the caller's tensor."""
    ours, theirs = both(_embedding_program(in_dims, norm_type))
    assert_close(ours, theirs)


def test_embedding_max_norm_shared_weight_is_refused():
    ours, theirs = both(lambda L: full_error_of(lambda: _embedding_program((0, None))(L)))
    assert ours == theirs


def test_embedding_max_norm_nested_vmap():
    rng = np.random.default_rng(3)
    indices, weight = rng.integers(0, 5, (2, 3, 4)), rng.random((2, 3, 5, 3)) + 0.4

    def program(L):
        w = L.from_numpy(weight.copy())
        fn = lambda i, w: L.embedding_renorm_(w, i, 1.0, 2.0)
        out = L.vmap(L.vmap(fn))(L.from_numpy(indices), w)
        # the inner vmap batches the indices only: one shared table per outer sample
        inner = L.vmap(fn, in_dims=(0, None))
        error = full_error_of(lambda: L.vmap(inner)(L.from_numpy(indices), L.from_numpy(weight[:, 0].copy())))
        return out, w, error
    ours, theirs = both(program)
    assert ours[-1] == theirs[-1]
    assert_close(ours[:-1], theirs[:-1])

