"""``utils.checkpoint``: the same programs on chainrule and PyTorch (``both``) give the
same outputs, gradients, warnings, recomputation counts and errors, and within each
library the gradients equal those computed without checkpointing.
"""
import tracemalloc
import warnings

import numpy as np
import pytest

import chainrule
from helpers import assert_close, both, data, full_error_of, require_torch

MODES = [True, False]


def _weights(L, n=3):
    rng = np.random.default_rng(0)
    return [data(L, rng.standard_normal((3, 3)) * 0.5) for _ in range(n)]


def _block(L, weights, calls=None):
    def block(x):
        if calls is not None:
            calls.append(1)
        for w in weights:
            x = L.tanh(x @ w)
        return x
    return block


def _input(L):
    return data(L, [[1.0, 2.0, -1.0], [0.5, -0.3, 0.2]])


def _checkpoint_module(L):
    if L is not chainrule:
        import torch.utils.checkpoint  # noqa: F401  (torch loads it lazily)
    return L.utils.checkpoint


@pytest.mark.parametrize("reentrant", MODES)
def test_same_gradients_as_without_checkpoint(reentrant):
    def program(L):
        cp = _checkpoint_module(L)
        weights, x = _weights(L), _input(L)
        calls = []
        y = cp.checkpoint(_block(L, weights, calls), x, use_reentrant=reentrant)
        (y * y).sum().backward()
        checkpointed = [x.grad] + [w.grad for w in weights]
        for t in [x] + weights:
            t.grad = None
        y_plain = _block(L, weights)(x)
        (y_plain * y_plain).sum().backward()
        plain = [x.grad] + [w.grad for w in weights]
        return y, checkpointed, plain, len(calls), y.grad_fn.name()
    ours, theirs = both(program)
    assert_close(ours[1], ours[2])
    assert ours[3:] == theirs[3:]
    assert_close(ours[:3], theirs[:3])


def test_use_reentrant_not_passed_warns_and_is_reentrant():
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = cp.checkpoint(_block(L, _weights(L)), x)
            cp.checkpoint_sequential([L.tanh, L.sin], 2, x)
        return [(w.category, str(w.message)) for w in caught], y.grad_fn.name()
    ours, theirs = both(program)
    assert ours == theirs


def test_argument_errors():
    def program(L):
        cp = _checkpoint_module(L)
        block, x = _block(L, _weights(L)), _input(L)
        return (full_error_of(lambda: cp.checkpoint(block, x, use_reentrant=True, foo=1)),
                full_error_of(lambda: cp.checkpoint(block, x, use_reentrant=True, context_fn=lambda: None)),
                full_error_of(lambda: cp.checkpoint(block, x, use_reentrant=False, determinism_check="x")),
                full_error_of(lambda: cp.checkpoint_sequential([block], 1, x, use_reentrant=False, foo=1)))
    ours, theirs = both(program)
    assert ours == theirs


def test_reentrant_refuses_grad_and_inputs():
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L)
        y = cp.checkpoint(_block(L, _weights(L)), x, use_reentrant=True)
        error_grad = full_error_of(lambda: L.autograd.grad(y.sum(), x, retain_graph=True))
        error_inputs = full_error_of(lambda: y.sum().backward(inputs=[x]))
        return error_grad, error_inputs
    ours, theirs = both(program)
    assert ours == theirs


def test_reentrant_warns_when_no_input_requires_grad():
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L).detach()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = cp.checkpoint(_block(L, _weights(L)), x, use_reentrant=True)
        return [str(w.message) for w in caught], y.requires_grad
    ours, theirs = both(program)
    assert ours == theirs


def test_non_reentrant_grad_kwargs_and_retain_graph():
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L)
        calls = []

        def scaled(t, scale=1.0):
            calls.append(1)
            return (t * scale).sin().exp()
        y = cp.checkpoint(scaled, x, use_reentrant=False, scale=3.0)
        g, = L.autograd.grad(y.sum(), x, retain_graph=True)
        y.sum().backward(retain_graph=True)
        y.sum().backward()
        return g, x.grad, len(calls)
    ours, theirs = both(program)
    assert ours[2] == theirs[2]
    assert_close(ours[:2], theirs[:2])


@pytest.mark.parametrize("reentrant", MODES)
@pytest.mark.parametrize("preserve", [True, False])
def test_preserve_rng_state(reentrant, preserve):
    """The rerun of a block with dropout-like noise uses the same random numbers only
    with ``preserve_rng_state``; gradients then equal the plain ones."""
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L)

        def noisy(t):
            return (t * (L.rand(t.shape, dtype=L.float64) > 0.5)).exp()
        L.manual_seed(3)
        y = cp.checkpoint(noisy, x, use_reentrant=reentrant, preserve_rng_state=preserve)
        y.sum().backward()
        checkpointed = x.grad
        x.grad = None
        L.manual_seed(3)
        noisy(x).sum().backward()
        return bool(np.allclose(checkpointed.numpy(), x.grad.numpy()))
    ours, theirs = both(program)
    if preserve:
        assert ours and theirs
    else:  # without it the rerun draws new numbers: PyTorch's gradients differ too
        assert ours == theirs


def test_context_fn_runs_forward_and_recompute_contexts():
    def program(L):
        cp = _checkpoint_module(L)
        log = []

        class Tag:
            def __init__(self, name):
                self.name = name

            def __enter__(self):
                log.append(("enter", self.name))

            def __exit__(self, *exc):
                log.append(("exit", self.name))
        x = _input(L)
        y = cp.checkpoint(lambda t: t.exp().sin(), x, use_reentrant=False,
                          context_fn=lambda: (Tag("forward"), Tag("recompute")))
        log.append("backward")
        y.sum().backward()
        return log, x.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1], theirs[1])


def _message_before_tip(error):
    kind, message = error
    return kind.__name__, message.split("\nTip:")[0]


@pytest.mark.parametrize("case", ["fewer", "more", "more_no_early_stop", "more_no_early_stop_context",
                                  "different_shape"])
def test_determinism_check(case):
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L)
        runs = [0]

        def changing(t):
            runs[0] += 1
            if runs[0] == 1:
                return t.exp().sin()
            if case == "fewer":
                return t.exp() * 1
            if case == "different_shape":
                return t[:1].exp().sin()
            return t.exp().sin().exp()
        if case == "more_no_early_stop_context":
            with cp.set_checkpoint_early_stop(False):
                y = cp.checkpoint(changing, x, use_reentrant=False)
        else:
            y = cp.checkpoint(changing, x, use_reentrant=False, early_stop=case != "more_no_early_stop")
        try:
            y.sum().backward()
        except Exception as e:  # noqa: BLE001
            return _message_before_tip((type(e), str(e)))
        return None
    ours, theirs = both(program)
    assert ours == theirs


def test_determinism_check_none():
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L)
        runs = [0]

        def changing(t):
            runs[0] += 1
            return t.exp() if runs[0] == 1 else t.exp() * 2
        y = cp.checkpoint(changing, x, use_reentrant=False, determinism_check="none")
        y.sum().backward()
        return x.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


@pytest.mark.parametrize("reentrant", MODES)
@pytest.mark.parametrize("segments", [1, 2, 3])
def test_checkpoint_sequential(reentrant, segments):
    def program(L):
        cp = _checkpoint_module(L)
        weights, x = _weights(L, 4), _input(L)
        layers = [lambda t, w=w: L.tanh(t @ w) for w in weights]
        y = cp.checkpoint_sequential(layers, segments, x, use_reentrant=reentrant)
        y.sum().backward()
        return y, x.grad, [w.grad for w in weights]
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_checkpoint_drops_activations():
    """Memory the graph holds after the forward of a deep tanh stack (traced by
    ``tracemalloc``): checkpointing keeps one activation per segment instead of one per
    layer (plus the last, plain segment's)."""
    width, depth = 256, 16
    rng = np.random.default_rng(0)
    weights = [chainrule.from_numpy(rng.standard_normal((width, width)) / 16).requires_grad_() for _ in range(depth)]
    layers = [lambda t, w=w: chainrule.tanh(t @ w) for w in weights]
    x = chainrule.from_numpy(rng.standard_normal((128, width)))

    def plain(t):
        for f in layers:
            t = f(t)
        return t

    def checkpointed(t):
        return chainrule.utils.checkpoint.checkpoint_sequential(layers, 4, t, use_reentrant=False)

    def held_after_forward(forward):
        tracemalloc.start()
        out = forward(x)
        held = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        out.sum().backward()
        return held
    activation = 128 * width * 8
    without, with_checkpoint = held_after_forward(plain), held_after_forward(checkpointed)
    assert without >= depth * activation
    assert with_checkpoint < 0.5 * without


# --- random state -------------------------------------------------------------------------------

def test_rng_state_round_trip():
    state = chainrule.get_rng_state()
    first = chainrule.rand(4)
    chainrule.set_rng_state(state)
    assert chainrule.equal(chainrule.rand(4), first)
    assert state.dtype == chainrule.uint8


def test_set_rng_state_errors():
    torch = require_torch()
    for lib in (chainrule, torch):
        assert full_error_of(lambda: lib.set_rng_state(lib.zeros(3))) == (
            TypeError, "RNG state must be a torch.ByteTensor")
        kind, message = full_error_of(lambda: lib.set_rng_state(lib.zeros(3, dtype=lib.uint8)))
        assert kind is RuntimeError and message.startswith("Expected a CPUGeneratorImplState of size ")


@pytest.mark.parametrize("reentrant", MODES)
def test_custom_function_inside_checkpoint(reentrant):
    def program(L):
        cp = _checkpoint_module(L)

        class Cube(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x ** 3

            @staticmethod
            def backward(ctx, g):
                x, = ctx.saved_tensors
                return 3 * x ** 2 * g
        x = _input(L)
        y = cp.checkpoint(lambda t: Cube.apply(t.sin()).exp(), x, use_reentrant=reentrant)
        y.sum().backward()
        return x.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


@pytest.mark.parametrize("outer_reentrant", MODES)
def test_nested_checkpoints(outer_reentrant):
    def program(L):
        cp = _checkpoint_module(L)
        calls = []

        def inner(t):
            calls.append("inner")
            return t.sin().exp()

        def outer(t):
            calls.append("outer")
            return cp.checkpoint(inner, t.cos(), use_reentrant=False).tanh()
        x = _input(L)
        cp.checkpoint(outer, x, use_reentrant=outer_reentrant).sum().backward()
        return calls, x.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1], theirs[1])


def test_second_order_through_non_reentrant_checkpoint_and_freeing():
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L)
        y = cp.checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)
        g, = L.autograd.grad(y.sum(), x, create_graph=True)
        g2, = L.autograd.grad(g.sum(), x)
        z = cp.checkpoint(lambda t: t.sin().exp(), x, use_reentrant=False)
        z.sum().backward()
        return g, g2, full_error_of(lambda: z.sum().backward())
    ours, theirs = both(program)
    assert ours[2] == theirs[2]
    assert_close(ours[:2], theirs[:2])


def test_under_no_grad():
    def program(L):
        cp = _checkpoint_module(L)
        x = _input(L)
        with L.no_grad():
            return [cp.checkpoint(lambda t: t.sin(), x, use_reentrant=mode).requires_grad for mode in MODES]
    ours, theirs = both(program)
    assert ours == theirs
