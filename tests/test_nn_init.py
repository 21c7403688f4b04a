"""nn.init and the layers' default weights against PyTorch.

After the same ``manual_seed`` every init function, and every layer's ``reset_parameters``,
must give PyTorch's values bit for bit: they make the same draws in the same order. The
deterministic parts (gains, fans, eye, dirac, errors) are compared as they are.
"""
import math
import warnings

import numpy as np
import pytest

import chainrule

from helpers import both, full_error_of, require_torch, to_numpy


def _values(module_or_tensor):
    if isinstance(module_or_tensor, (chainrule.Tensor, require_torch().Tensor)):
        return [to_numpy(module_or_tensor).copy()]
    return [to_numpy(v).copy() for v in module_or_tensor.state_dict().values()]


def _same_bits(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b, equal_nan=True), (a, b)


LAYERS = [
    lambda nn: nn.Linear(5, 3),
    lambda nn: nn.Linear(4, 2, bias=False),
    lambda nn: nn.Bilinear(3, 2, 4),
    lambda nn: nn.Conv1d(4, 6, 3, groups=2),
    lambda nn: nn.Conv2d(3, 4, (3, 2)),
    lambda nn: nn.Conv3d(2, 2, 2, bias=False),
    lambda nn: nn.ConvTranspose1d(4, 2, 3, groups=2),
    lambda nn: nn.ConvTranspose2d(3, 5, 2),
    lambda nn: nn.Embedding(7, 3, padding_idx=2),
    lambda nn: nn.EmbeddingBag(6, 4),
    lambda nn: nn.PReLU(3),
    lambda nn: nn.BatchNorm2d(3),
    lambda nn: nn.LayerNorm(4),
    lambda nn: nn.GroupNorm(2, 4),
    lambda nn: nn.RMSNorm(3),
    lambda nn: nn.Sequential(nn.Conv2d(1, 4, 3), nn.ReLU(), nn.Flatten(), nn.Linear(16, 10), nn.Linear(10, 2)),
]


@pytest.mark.parametrize("make", LAYERS, ids=[f"layer{i}" for i in range(len(LAYERS))])
def test_default_weights_equal_torch_after_manual_seed(make):
    def program(lib):
        lib.manual_seed(1234)
        return _values(make(lib.nn)) + _values(lib.rand(3))  # and the stream continues where torch's does
    ours, theirs = both(program)
    _same_bits(ours, theirs)


INITS = [
    ("uniform_", lambda init, t, g: init.uniform_(t, -0.3, 0.7, generator=g)),
    ("normal_", lambda init, t, g: init.normal_(t, 0.5, 2.0, generator=g)),
    ("xavier_uniform_", lambda init, t, g: init.xavier_uniform_(t, gain=init.calculate_gain("tanh"), generator=g)),
    ("xavier_normal_", lambda init, t, g: init.xavier_normal_(t, generator=g)),
    ("kaiming_uniform_", lambda init, t, g: init.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu",
                                                                  generator=g)),
    ("kaiming_normal_", lambda init, t, g: init.kaiming_normal_(t, a=0.2, generator=g)),
    ("trunc_normal_", lambda init, t, g: init.trunc_normal_(t, 0.1, 1.0, -1.5, 2.0, generator=g)),
    ("trunc_normal_-narrow", lambda init, t, g: init.trunc_normal_(t, 0.0, 1.0, 1.0, 1.5, generator=g)),
    ("sparse_", lambda init, t, g: init.sparse_(t, 0.5, generator=g)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("use_generator", [False, True])
@pytest.mark.parametrize("name,fn", INITS, ids=[n for n, _ in INITS])
def test_random_inits_equal_torch(name, fn, use_generator, dtype):
    def program(lib):
        lib.manual_seed(7)
        g = lib.Generator().manual_seed(99) if use_generator else None
        t = lib.empty(6, 4, dtype=getattr(lib, dtype))
        out = fn(lib.nn.init, t, g)
        assert out is t
        return [to_numpy(t).copy(), to_numpy(lib.rand(2)).copy()]
    ours, theirs = both(program)
    _same_bits(ours, theirs)


def test_orthogonal_of_tall_wide_and_conv_shapes():
    """The draws are PyTorch's; the QR in between rounds as LAPACK's does, so close, not equal."""
    def program(lib):
        lib.manual_seed(3)
        wide, tall, conv = lib.empty(3, 5), lib.empty(6, 4, dtype=lib.float64), lib.empty(4, 2, 3)
        lib.nn.init.orthogonal_(wide)
        lib.nn.init.orthogonal_(tall, gain=2.0, generator=lib.Generator().manual_seed(5))
        lib.nn.init.orthogonal_(conv)
        return [to_numpy(wide).copy(), to_numpy(tall).copy(), to_numpy(conv).copy(), to_numpy(lib.rand(2)).copy()]
    ours, theirs = both(program)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[0] @ ours[0].T, np.eye(3), atol=1e-5)


def test_deterministic_inits_and_helpers():
    def program(lib):
        init = lib.nn.init
        out = [init.calculate_gain(n) for n in ("linear", "conv2d", "sigmoid", "tanh", "relu", "selu")]
        out += [init.calculate_gain("leaky_relu"), init.calculate_gain("leaky_relu", 0.2),
                init.calculate_gain("leaky_relu", 3)]
        out += [init._calculate_fan_in_and_fan_out(lib.empty(s)) for s in [(3, 4), (5, 2, 3, 3), (2, 1, 4)]]
        out.append(to_numpy(init.eye_(lib.empty(3, 5))).tolist())
        out.append(to_numpy(init.dirac_(lib.empty(4, 2, 3), groups=2)).tolist())
        out.append(to_numpy(init.dirac_(lib.empty(2, 3, 3, 3))).tolist())
        out.append(to_numpy(init.constant_(lib.empty(2), 0.3)).tolist())
        out.append(to_numpy(init.ones_(lib.empty(2))).tolist() + to_numpy(init.zeros_(lib.empty(2))).tolist())
        p = lib.nn.Parameter(lib.empty(2, 2))
        init.ones_(p)
        out.append((p.requires_grad, p.grad_fn is None, type(p).__name__))
        return out
    ours, theirs = both(program)
    assert ours == theirs


def test_init_errors_and_warnings():
    def program(lib):
        init = lib.nn.init
        attempts = [lambda: init.calculate_gain("cosine"), lambda: init.calculate_gain("leaky_relu", True),
                    lambda: init.calculate_gain("leaky_relu", "x"),
                    lambda: init._calculate_fan_in_and_fan_out(lib.empty(3)),
                    lambda: init.kaiming_uniform_(lib.empty(2, 2), mode="fan_avg"), lambda: init.eye_(lib.empty(2)),
                    lambda: init.dirac_(lib.empty(2, 2)), lambda: init.dirac_(lib.empty(3, 2, 2), groups=2),
                    lambda: init.orthogonal_(lib.empty(3)), lambda: init.sparse_(lib.empty(2, 2, 2), 0.1)]
        out = [full_error_of(a) for a in attempts]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            init.kaiming_normal_(lib.empty(0, 3))
            init.uniform(lib.empty(2))
            init.trunc_normal_(lib.empty(2), mean=5.0, a=-1.0, b=1.0)
        out.append([(w.category.__name__, str(w.message)) for w in caught])
        return out
    ours, theirs = both(program)
    assert ours == theirs


def test_bounds_follow_torch_formulas():
    """The uniform bounds are PyTorch's Python-float formulas (checked without the stream)."""
    chainrule.manual_seed(0)
    w = chainrule.nn.init.kaiming_uniform_(chainrule.empty(200, 50), a=math.sqrt(5))
    bound = math.sqrt(3.0) * math.sqrt(2.0 / (1 + 5)) / math.sqrt(50)
    assert abs(to_numpy(w)).max() <= bound and abs(to_numpy(w)).max() > 0.95 * bound


RANDOM_LAYERS = [(lambda nn: nn.Dropout(0.3), (3, 5)), (lambda nn: nn.Dropout1d(0.4), (2, 3, 4)),
                 (lambda nn: nn.Dropout2d(), (2, 3, 2, 4)), (lambda nn: nn.Dropout3d(0.2), (2, 3, 2, 2, 2)),
                 (lambda nn: nn.AlphaDropout(0.25), (3, 5)), (lambda nn: nn.FeatureAlphaDropout(), (2, 3, 4)),
                 (lambda nn: nn.RReLU(), (3, 5)),
                 (lambda nn: nn.Sequential(nn.ConstantPad1d(1, 0.5), nn.Dropout(inplace=True)), (2, 3, 4))]


@pytest.mark.parametrize("make,shape", RANDOM_LAYERS, ids=[f"random{i}" for i in range(len(RANDOM_LAYERS))])
def test_random_layers_in_training_equal_torch_after_manual_seed(make, shape):
    x = np.random.default_rng(0).standard_normal(shape)

    def program(lib):
        lib.manual_seed(11)
        m = make(lib.nn).double().train()
        t = lib.from_numpy(x.copy()).requires_grad_()
        y = m(t)
        y.sum().backward()
        return [to_numpy(y.detach()).copy(), to_numpy(t.grad).copy()]
    ours, theirs = both(program)
    _same_bits(ours, theirs)
