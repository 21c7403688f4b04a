"""vmap of nn ops in the cases the op database's first samples don't reach: batched
weights and biases (convolutions folded into groups, group_norm, bilinear), every
in_dims combination, gradients through vmap, and the random ops' ``randomness`` modes.
Each is compared with ``torch.vmap`` of the same program."""
import numpy as np
import pytest

from helpers import assert_close, both, full_error_of, require_torch

pytestmark = pytest.mark.filterwarnings("ignore:There is a performance drop:UserWarning")  # torch's own

RNG = np.random.default_rng(0)
B = 3


def _vmapped(fn, arrays, in_dims, grad=False, **kwargs):
    """``vmap(fn)`` over ``arrays`` for both libraries: results, and with ``grad`` the
    gradients of the first array (backward of the outputs' sum)."""
    def program(L):
        args = [L.from_numpy(a.copy()) for a in arrays]
        if grad:
            args[0].requires_grad_()
        out = L.vmap(lambda *a: fn(L, *a), in_dims=in_dims, **kwargs)(*args)
        if not grad:
            return out
        out.sum().backward()
        return out, args[0].grad
    return both(program)


def _pick(arrays, in_dims):
    return [a if d == 0 else a[0] for a, d in zip(arrays, in_dims)]


IN_DIMS_3 = [(0, 0, 0), (None, 0, None), (0, None, 0), (None, None, 0), (0, 0, None), (None, 0, 0)]


@pytest.mark.parametrize("groups", [1, 2])
@pytest.mark.parametrize("in_dims", IN_DIMS_3)
def test_conv1d_batched_weight_and_bias(groups, in_dims):
    x, w, b = RNG.standard_normal((B, 2, 4, 7)), RNG.standard_normal((B, 6, 4 // groups, 3)), RNG.standard_normal((B, 6))
    ours, theirs = _vmapped(lambda L, *a: L.nn.functional.conv1d(*a, stride=2, padding=1, groups=groups),
                            _pick((x, w, b), in_dims), in_dims, grad=True)
    assert_close(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("groups", [1, 2])
@pytest.mark.parametrize("in_dims", IN_DIMS_3)
def test_conv_transpose1d_batched_weight_and_bias(groups, in_dims):
    x, w, b = RNG.standard_normal((B, 2, 4, 5)), RNG.standard_normal((B, 4, 6 // groups, 3)), RNG.standard_normal((B, 6))
    ours, theirs = _vmapped(lambda L, *a: L.nn.functional.conv_transpose1d(*a, stride=2, padding=1, output_padding=1,
                                                                           groups=groups),
                            _pick((x, w, b), in_dims), in_dims, grad=True)
    assert_close(ours, theirs, rtol=1e-10, atol=1e-12)


def test_conv2d_unbatched_samples():
    x, w = RNG.standard_normal((B, 3, 5, 5)), RNG.standard_normal((B, 4, 3, 2, 2))
    assert_close(*_vmapped(lambda L, x, w: L.nn.functional.conv2d(x, w), (x, w), (0, 0), grad=True), rtol=1e-10)


@pytest.mark.parametrize("in_dims", IN_DIMS_3)
def test_group_norm_batched_affine(in_dims):
    x, w, b = RNG.standard_normal((B, 2, 4, 5)), RNG.standard_normal((B, 4)), RNG.standard_normal((B, 4))
    ours, theirs = _vmapped(lambda L, *a: L.nn.functional.group_norm(a[0], 2, a[1], a[2]),
                            _pick((x, w, b), in_dims), in_dims, grad=True)
    assert_close(ours, theirs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("in_dims", IN_DIMS_3)
def test_batch_norm_eval_and_training(in_dims):
    x, w, b = RNG.standard_normal((B, 2, 4, 5)), RNG.standard_normal((B, 4)), RNG.standard_normal((B, 4))
    mean, var = RNG.standard_normal(4), RNG.random(4) + 0.5
    for training in (True, False):
        def fn(L, x, w, b):
            stats = (None, None) if training else (L.from_numpy(mean), L.from_numpy(var))
            return L.nn.functional.batch_norm(x, *stats, w, b, training=training)
        assert_close(*_vmapped(fn, _pick((x, w, b), in_dims), in_dims, grad=True), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("in_dims", [(0, 0, 0), (0, None, 0), (None, 0, None)])
def test_bilinear_batched_weight(in_dims):
    x1, w, x2 = RNG.standard_normal((B, 2, 3)), RNG.standard_normal((B, 5, 3, 4)), RNG.standard_normal((B, 2, 4))
    fn = lambda L, a, w, c: L.nn.functional.bilinear(a, c, w)
    assert_close(*_vmapped(fn, _pick((x1, w, x2), in_dims), in_dims, grad=True), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("in_dims", [(0, 0), (None, 0), (0, None)])
def test_embedding_values_and_weight_gradient(in_dims):
    weight, index = RNG.standard_normal((B, 5, 2)), RNG.integers(0, 5, (B, 4, 2))
    fn = lambda L, w, i: L.nn.functional.embedding(i, w)
    assert_close(*_vmapped(fn, _pick((weight, index), in_dims), in_dims, grad=True))


def test_embedding_frequency_scaling_counts_each_sample():
    """scale_grad_by_freq: each sample's own lookups, as a loop of calls would count them
    (PyTorch's vmap counts over the whole batch for a shared weight)."""
    torch = require_torch()
    import chainrule
    weight, index = RNG.standard_normal((5, 2)), RNG.integers(0, 5, (B, 4))
    ours = chainrule.from_numpy(weight.copy()).requires_grad_()
    chainrule.vmap(lambda i: chainrule.nn.functional.embedding(i, ours, scale_grad_by_freq=True))(
        chainrule.from_numpy(index)).sum().backward()
    theirs = torch.from_numpy(weight.copy()).requires_grad_()
    for i in index:
        torch.nn.functional.embedding(torch.from_numpy(i), theirs, scale_grad_by_freq=True).sum().backward()
    assert_close(ours.grad, theirs.grad)


def test_one_hot_needs_num_classes_and_checks_no_values():
    index = np.array([[0, 2], [1, 5]])
    assert_close(*_vmapped(lambda L, t: L.nn.functional.one_hot(t, 3), (index,), (0,)))
    ours, theirs = both(lambda L: full_error_of(lambda: L.vmap(L.nn.functional.one_hot)(L.from_numpy(index))))
    assert ours == theirs


def test_max_pool_nested_vmap_with_indices():
    x = RNG.standard_normal((2, B, 2, 5, 6))
    assert_close(*both(lambda L: L.vmap(L.vmap(lambda t: L.nn.functional.max_pool2d(t, 2, return_indices=True)))(
        L.from_numpy(x))))


def test_gaussian_nll_loss_checks_every_sample():
    x, var = RNG.standard_normal((B, 4)), RNG.random((B, 4))
    var[1, 2] = -1.0
    from helpers import error_of
    import chainrule
    assert error_of(lambda: chainrule.vmap(chainrule.nn.functional.gaussian_nll_loss)(
        *[chainrule.from_numpy(a) for a in (x, x, var)])) == (ValueError, "var has negative entry/entries")


@pytest.mark.parametrize("name, program", [
    ("bernoulli", lambda L, p: L.bernoulli(p)),
    ("bernoulli_p", lambda L, p: L.bernoulli(p, 0.3)),
    ("normal_mean", lambda L, p: L.normal(p, 1.0)),
    ("normal_std", lambda L, p: L.normal(0.0, p)),
    ("bernoulli_inplace_tensor_p", lambda L, p: L.zeros(8, dtype=L.float64).bernoulli_(p)),
])
@pytest.mark.parametrize("randomness", ["error", "same"])
def test_random_of_batched_tensor_refused_as_pytorch(name, program, randomness):
    p = np.full((B, 8), 0.5)
    ours, theirs = both(lambda L: full_error_of(lambda: L.vmap(lambda q: program(L, q), randomness=randomness)(
        L.from_numpy(p))))
    assert ours == theirs


@pytest.mark.parametrize("program", [
    lambda L, p: L.bernoulli(p), lambda L, p: L.normal(p, 1.0), lambda L, p: L.normal(p.unsqueeze(0), p),
    lambda L, p: (p * 0).bernoulli_(p), lambda L, p: (p * 0).bernoulli_(0.5)])
def test_random_different_draws_the_batch_shape(program):
    p = np.full((B, 8), 0.5)
    ours, theirs = both(lambda L: L.vmap(lambda q: program(L, q), randomness="different")(L.from_numpy(p)))
    assert ours.shape == theirs.shape and str(ours.dtype) == str(theirs.dtype)


def test_bernoulli_inplace_same_shares_the_draw():
    import chainrule
    out = chainrule.vmap(lambda q: q.bernoulli_(0.5), randomness="same")(chainrule.zeros(B, 64))
    assert (out == out[0]).all()
