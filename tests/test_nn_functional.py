"""The random parts of nn.functional, which the op database can't compare with PyTorch
value for value: dropout and its variants, rrelu in training, attention with dropout.

Each is checked by what must hold for any draw: the share of dropped elements, the
scaling of the kept ones, a gradient masked exactly like the output, whole channels for
the feature forms, repeatability under ``manual_seed``, and the input itself back when
nothing is dropped. Warnings that PyTorch gives (implicit softmax dims, dropout2d of 3-d
inputs) are compared with PyTorch's.
"""
import warnings

import numpy as np
import pytest

import chainrule
import chainrule.nn.functional as F

from helpers import require_torch, to_numpy


def _input(*shape, seed=0):
    data = np.random.default_rng(seed).uniform(0.5, 2.0, shape)  # never 0: x / y shows the mask
    return chainrule.tensor(data, requires_grad=True)


# --- dropout ------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [0.2, 0.5, 0.8])
def test_dropout_drops_a_share_p_and_scales_the_rest(p):
    chainrule.manual_seed(0)
    x = _input(200, 100)
    y = F.dropout(x, p)
    kept = to_numpy(y) != 0
    assert abs(1 - kept.mean() - p) < 0.02
    np.testing.assert_allclose(to_numpy(y)[kept], to_numpy(x)[kept] / (1 - p), rtol=1e-12)
    assert y.grad_fn.name() == "MulBackward0"


def test_dropout_gradient_is_masked_like_the_output():
    chainrule.manual_seed(1)
    x = _input(30, 20)
    y = F.dropout(x, 0.4)
    g = chainrule.tensor(np.random.default_rng(2).standard_normal((30, 20)))
    y.backward(g)
    scale = to_numpy(y) / to_numpy(x)  # 0 where dropped, 1 / (1 - p) where kept
    np.testing.assert_allclose(to_numpy(x.grad), to_numpy(g) * scale, rtol=1e-12)


def test_dropout_double_backward_keeps_the_mask():
    chainrule.manual_seed(3)
    x = _input(10, 10)
    y = F.dropout(x, 0.5)
    (g,) = chainrule.autograd.grad((y * y).sum(), x, create_graph=True)
    (gg,) = chainrule.autograd.grad(g.sum(), x)
    scale = to_numpy(y) / to_numpy(x)
    np.testing.assert_allclose(to_numpy(gg), 2 * scale * scale, rtol=1e-12)


@pytest.mark.parametrize("fn,shape", [(F.dropout, (2, 3)), (F.alpha_dropout, (2, 3)), (F.feature_alpha_dropout, (2, 3)),
                                      (F.dropout1d, (2, 3, 4)), (F.dropout2d, (2, 3, 4, 5)),
                                      (F.dropout3d, (2, 3, 4, 5, 1))])
def test_nothing_dropped_returns_the_input_itself(fn, shape):
    x = _input(*shape)
    assert fn(x, 0.5, training=False) is x
    assert fn(x, 0.0, training=True) is x


def test_dropout_is_repeatable_under_manual_seed():
    x = _input(50)
    chainrule.manual_seed(7)
    first = to_numpy(F.dropout(x, 0.5))
    chainrule.manual_seed(7)
    second = to_numpy(F.dropout(x, 0.5))
    chainrule.manual_seed(8)
    third = to_numpy(F.dropout(x, 0.5))
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first, third)


def test_dropout_inplace_writes_into_the_input():
    chainrule.manual_seed(4)
    base = _input(20, 20)
    x = base * 1
    before = to_numpy(x).copy()
    version = x._version
    y = F.dropout(x, 0.5, inplace=True)
    assert y is x and x._version > version
    kept = to_numpy(x) != 0
    np.testing.assert_allclose(to_numpy(x)[kept], before[kept] * 2, rtol=1e-12)
    assert 0.4 < kept.mean() < 0.6
    x.sum().backward()
    np.testing.assert_allclose(to_numpy(base.grad), kept * 2.0, rtol=1e-12)


def test_dropout_p1_zeros_everything_but_keeps_the_graph():
    x = _input(3, 4)
    y = F.dropout(x, 1.0)
    assert not to_numpy(y).any() and y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert not to_numpy(x.grad).any()


def test_alpha_dropout_keeps_zero_mean_and_unit_variance():
    chainrule.manual_seed(5)
    x = chainrule.tensor(np.random.default_rng(6).standard_normal(100_000), requires_grad=True)
    y = F.alpha_dropout(x, 0.3, training=True)
    out = to_numpy(y)
    assert abs(out.mean()) < 0.02 and abs(out.std() - 1) < 0.02
    assert y.grad_fn.name() == "AddBackward0"
    y.sum().backward()
    # the gradient is a where kept, 0 where dropped: the dropped outputs all equal one value
    grad = to_numpy(x.grad)
    assert len(np.unique(np.round(grad, 12))) == 2 and 0.0 in np.round(grad, 12)


@pytest.mark.parametrize("fn,shape", [(F.dropout1d, (4, 6, 5)), (F.dropout2d, (4, 6, 3, 3)),
                                      (F.dropout3d, (4, 6, 2, 2, 2)), (F.feature_alpha_dropout, (4, 6, 5))])
def test_feature_dropout_drops_whole_channels(fn, shape):
    chainrule.manual_seed(9)
    x = _input(*shape)
    y = to_numpy(fn(x, 0.5, training=True))
    per_channel = y.reshape(shape[0] * shape[1], -1)
    if fn is F.feature_alpha_dropout:
        x_flat = to_numpy(x).reshape(per_channel.shape)
        dropped = np.all(np.isclose(per_channel, per_channel[:, :1]), axis=1)  # a constant channel
        assert 0 < dropped.sum() < len(dropped)
        assert not np.any(np.all(np.isclose(x_flat, x_flat[:, :1]), axis=1))
        return
    dropped = ~per_channel.any(axis=1)
    kept = np.all(per_channel != 0, axis=1)
    assert np.all(dropped | kept) and dropped.any() and kept.any()


def test_dropout1d_unbatched_input():
    chainrule.manual_seed(10)
    x = _input(6, 5)
    y = F.dropout1d(x, 0.5)
    assert tuple(y.shape) == (6, 5) and y.grad_fn.name() == "SqueezeBackward1"
    rows = to_numpy(y)
    assert np.all(~rows.any(axis=1) | np.all(rows != 0, axis=1))


def _warning_messages(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn(*args, **kwargs)
    return [(w.category, str(w.message)) for w in caught]


@pytest.mark.torch
@pytest.mark.parametrize("name,shape", [("dropout2d", (2, 3, 4)), ("dropout2d", (2, 3)), ("dropout3d", (2, 3, 4)),
                                        ("softmax", (2, 3)), ("log_softmax", (2, 3, 4)), ("softmin", (3,))])
def test_warnings_match_torch(name, shape):
    torch = require_torch()
    data = np.random.default_rng(0).standard_normal(shape)
    theirs = _warning_messages(getattr(torch.nn.functional, name), torch.tensor(data))
    ours = _warning_messages(getattr(F, name), chainrule.tensor(data))
    assert [(c.__name__, m) for c, m in ours] == [(c.__name__, m) for c, m in theirs]


@pytest.mark.torch
@pytest.mark.parametrize("name", ["softmax", "log_softmax", "softmin"])
@pytest.mark.parametrize("shape", [(), (4,), (2, 3), (2, 3, 4), (2, 2, 2, 2)])
def test_implicit_softmax_dim_matches_torch(name, shape):
    torch = require_torch()
    data = np.random.default_rng(1).standard_normal(shape)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = getattr(torch.nn.functional, name)(torch.tensor(data)).numpy()
        got = to_numpy(getattr(F, name)(chainrule.tensor(data)))
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


# --- rrelu in training ----------------------------------------------------------------------


def test_rrelu_training_draws_slopes_between_the_bounds():
    chainrule.manual_seed(11)
    x = chainrule.tensor(np.linspace(-2, 2, 400), requires_grad=True)
    y = F.rrelu(x, 0.1, 0.3, training=True)
    assert y.grad_fn.name() == "RreluWithNoiseBackward0"
    xs, ys = to_numpy(x), to_numpy(y)
    negative = xs < 0
    np.testing.assert_array_equal(ys[~negative], xs[~negative])
    slopes = ys[negative] / xs[negative]
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and slopes.std() > 0.03
    y.sum().backward()
    np.testing.assert_allclose(to_numpy(x.grad)[negative], slopes, rtol=1e-12)
    np.testing.assert_array_equal(to_numpy(x.grad)[~negative], 1.0)


def test_rrelu_inplace_training():
    chainrule.manual_seed(12)
    base = chainrule.tensor(np.linspace(-2, 2, 100), requires_grad=True)
    x = base * 1
    y = F.rrelu(x, 0.2, 0.4, training=True, inplace=True)
    assert y is x and y.grad_fn.name() == "RreluWithNoiseBackward1"
    y.sum().backward()
    xs = np.linspace(-2, 2, 100)
    np.testing.assert_allclose(to_numpy(base.grad)[xs < 0], to_numpy(y)[xs < 0] / xs[xs < 0], rtol=1e-12)


def test_rrelu_is_repeatable_under_manual_seed():
    x = chainrule.tensor(np.linspace(-2, -1, 20))
    chainrule.manual_seed(13)
    first = to_numpy(F.rrelu(x, training=True))
    chainrule.manual_seed(13)
    np.testing.assert_array_equal(first, to_numpy(F.rrelu(x, training=True)))


# --- attention with dropout -------------------------------------------------------------------


def test_attention_dropout_masks_the_weights():
    rng = np.random.default_rng(14)
    q, k = (chainrule.tensor(rng.standard_normal((2, 5, 3))) for _ in range(2))
    v = chainrule.tensor(np.eye(5)[None].repeat(2, axis=0), requires_grad=True)  # the output shows the weights
    chainrule.manual_seed(15)
    weights = to_numpy(F.scaled_dot_product_attention(q, k, v, dropout_p=0.5))
    full = to_numpy(F.scaled_dot_product_attention(q, k, v))
    kept = weights != 0
    assert 0.3 < kept.mean() < 0.7
    np.testing.assert_allclose(weights[kept], full[kept] * 2, rtol=1e-12)
    chainrule.manual_seed(15)
    np.testing.assert_array_equal(weights, to_numpy(F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)))
