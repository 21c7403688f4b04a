"""Issue 10's classes in the activations and pointwise ops, each against live PyTorch:

* NaN or inf through a mask: a rule selects (``where``), never multiplies by a 0/1 mask,
  so ``log(relu(x))`` at x < 0 has gradient 0, not nan;
* second derivatives of piecewise-linear ops: the gradient is an op of its own
  (ThresholdBackwardBackward0...), so it requires grad and a second grad gives zeros;
* signed zeros: ``relu(-0.)`` is -0. as in PyTorch;
* tails: sigmoid(-20) in float32 is 2.06e-9, not 0, and so on for the ops built on it;
* float64 constants: selu's scale and rrelu's slope keep their float64 digits.
"""
import numpy as np
import pytest

from helpers import require_torch

import chainrule

# values at the kinks, the signed zeros, the infinities and nan
SPECIAL = [-3.0, -2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 2.0, 3.0, float("nan"), float("inf"), -float("inf")]
WIDE = [-100.0, -40.0, -20.0, -5.0, -0.5, 0.5, 5.0, 20.0, 40.0, 100.0]


def F(lib):
    return lib.nn.functional


# name -> (program, inputs): the program runs on chainrule and on torch alike
CASES = {
    "relu": lambda L, x: F(L).relu(x),
    "relu_inplace": lambda L, x: F(L).relu(x * 1, inplace=True),
    "relu6": lambda L, x: F(L).relu6(x),
    "hardtanh": lambda L, x: F(L).hardtanh(x, -1.0, 2.0),
    "hardtanh_inplace": lambda L, x: F(L).hardtanh(x * 1, inplace=True),
    "leaky_relu": lambda L, x: F(L).leaky_relu(x, 0.1),
    "leaky_relu_inplace": lambda L, x: F(L).leaky_relu(x * 1, 0.1, inplace=True),
    "threshold": lambda L, x: F(L).threshold(x, 0.1, 2.0),
    "threshold_inplace": lambda L, x: F(L).threshold(x * 1, 0.1, 2.0, inplace=True),
    "rrelu_eval": lambda L, x: F(L).rrelu(x, 0.1, 0.3),
    "rrelu_eval_inplace": lambda L, x: F(L).rrelu(x * 1, 0.1, 0.3, inplace=True),
    "prelu": lambda L, x: F(L).prelu(x, L.tensor([0.25], dtype=x.dtype)),
    "hardshrink": lambda L, x: F(L).hardshrink(x),
    "softshrink": lambda L, x: F(L).softshrink(x, 0.5),
    "hardswish": lambda L, x: F(L).hardswish(x),
    "elu": lambda L, x: F(L).elu(x),
    "elu_inplace": lambda L, x: F(L).elu(x * 1, 0.7, inplace=True),
    "selu": lambda L, x: F(L).selu(x),
    "celu": lambda L, x: F(L).celu(x, 2.0),
    # at beta x == threshold the first derivative is smooth, the second already zero
    "softplus_at_threshold": lambda L, x: F(L).softplus(x, beta=1.0, threshold=1.0),
    "softplus_beta_at_threshold": lambda L, x: F(L).softplus(x, beta=0.5, threshold=1.0),
    "clamp": lambda L, x: x.clamp(-1.0, 1.0),
    "clamp_min": lambda L, x: x.clamp_min(0.0),
    "clamp_max": lambda L, x: x.clamp_max(0.0),
    # an inf gradient meets the mask
    "log_relu": lambda L, x: L.log(F(L).relu(x)),
    "log_relu_inplace": lambda L, x: L.log(F(L).relu(x * 1, inplace=True)),
    "log_threshold": lambda L, x: L.log(F(L).threshold(x, 0.0, 0.0)),
    "log_hardtanh": lambda L, x: L.log(F(L).hardtanh(x, 0.0, 1.0)),
    "log_relu6": lambda L, x: L.log(F(L).relu6(x)),
    "log_leaky_relu": lambda L, x: L.log(F(L).leaky_relu(x, 0.0)),
    "log_prelu": lambda L, x: L.log(F(L).prelu(x, L.tensor([0.0], dtype=x.dtype))),
    "log_hardshrink": lambda L, x: L.log(F(L).hardshrink(x) ** 2),
    "reciprocal_clamp": lambda L, x: 1 / x.clamp(min=0),
    "reciprocal_clamp_min": lambda L, x: 1 / x.clamp_min(0),
    "reciprocal_clamp_max": lambda L, x: 1 / x.clamp_max(0),
    "nan_to_num": lambda L, x: L.log(L.nan_to_num(x, posinf=0.0)),
}

# the tails: first derivatives only (second derivatives at the tails: docs/differences.md)
TAILS = {
    "sigmoid": lambda L, x: L.sigmoid(x),
    "silu": lambda L, x: F(L).silu(x),
    "mish": lambda L, x: F(L).mish(x),
    "softplus": lambda L, x: F(L).softplus(x),
    "softplus_beta": lambda L, x: F(L).softplus(x, beta=2.0, threshold=10.0),
    "logsigmoid": lambda L, x: F(L).logsigmoid(x),
    "tanh": lambda L, x: L.tanh(x),
    "elu": lambda L, x: F(L).elu(x),
    "selu": lambda L, x: F(L).selu(x),
}


def _run(lib, program, values, dtype, order):
    x = lib.from_numpy(np.array(values, dtype=dtype)).requires_grad_()
    y = program(lib, x)
    g, = lib.autograd.grad(y.sum(), x, create_graph=order > 1)
    out = {"y": y.detach().numpy().copy(), "g": g.detach().numpy().copy(), "requires_grad": g.requires_grad}
    if order > 1 and g.requires_grad:
        gg, = lib.autograd.grad(g.sum(), x, allow_unused=True)
        out["gg"] = None if gg is None else gg.numpy().copy()
        out["node"] = g.grad_fn.name()
    return out


def _same(ours, theirs, dtype, signed, rtol32=1e-6):
    rtol = 1e-13 if dtype == "float64" else rtol32
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=1e-43)  # atol: float32's subnormals
    if signed:  # the sign of each zero too (nan's sign bit is not specified)
        known = ~np.isnan(theirs)
        np.testing.assert_array_equal(np.signbit(ours[known]), np.signbit(theirs[known]))


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(CASES))
def test_masks_second_derivatives_and_signed_zeros(name, dtype):
    torch = require_torch()
    ours = _run(chainrule, CASES[name], SPECIAL, dtype, 2)
    theirs = _run(torch, CASES[name], SPECIAL, dtype, 2)
    # softshrink(-0.): PyTorch's own kernels differ (-0. one element at a time, +0. vectorized)
    _same(ours["y"], theirs["y"], dtype, signed=name != "softshrink")
    _same(ours["g"], theirs["g"], dtype, signed=False)
    assert ours["requires_grad"] == theirs["requires_grad"]
    if theirs["requires_grad"]:
        assert ours["node"] == theirs["node"]
        assert (ours["gg"] is None) == (theirs["gg"] is None)
        if theirs["gg"] is not None:
            _same(ours["gg"], theirs["gg"], dtype, signed=False)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(TAILS))
def test_tails(name, dtype):
    torch = require_torch()
    ours = _run(chainrule, TAILS[name], WIDE, dtype, 1)
    theirs = _run(torch, TAILS[name], WIDE, dtype, 1)
    _same(ours["y"], theirs["y"], dtype, signed=True)
    # float32's 1 - y * y and the like round differently from PyTorch's kernels: what
    # matters here is that no tail flushes to 0
    _same(ours["g"], theirs["g"], dtype, signed=False, rtol32=1e-4)


def test_sigmoid_tail_examples_of_the_issue():
    torch = require_torch()
    for dtype, x in (("float32", -20.0), ("float64", -40.0)):
        ours = chainrule.sigmoid(chainrule.tensor(x, dtype=getattr(chainrule, dtype))).item()
        theirs = torch.sigmoid(torch.tensor(x, dtype=getattr(torch, dtype))).item()
        assert ours > 0
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)


def test_piecewise_second_grad_is_zeros_not_an_error():
    """The issue's example: relu's gradient under create_graph can be differentiated again."""
    torch = require_torch()
    results = []
    for lib in (chainrule, torch):
        x = lib.tensor([-1.0, 0.5, 2.0], requires_grad=True)
        g, = lib.autograd.grad(F(lib).relu(x).sum(), x, create_graph=True)
        gg, = lib.autograd.grad(g.sum(), x)
        results.append((g.grad_fn.name(), gg.tolist()))
    assert results[0] == results[1]


def test_cross_entropy_ignores_an_inf_row():
    """An ignored target adds 0 to the loss even where its row's log-probabilities are nan."""
    torch = require_torch()
    results = []
    for lib in (chainrule, torch):
        x = lib.tensor([[float("inf"), 0.0], [1.0, 2.0]], requires_grad=True)
        loss = F(lib).cross_entropy(x, lib.tensor([-100, 1]))
        loss.backward()
        results.append((loss.item(), x.grad.numpy().copy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-6)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-6)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_gelu_second_derivative_at_huge_inputs(approximate, dtype):
    """gelu'' as PyTorch's gelu_double_backward, a sum of products in which sech^2 = 0
    meets finite factors: at |x| = 1e9 it is 0, not 0 * inf = nan."""
    torch = require_torch()
    values = [-1105235968.0, -3e6, 3341451.75, 1e9, -3.0, 0.5]

    def second(lib):
        x = lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)
        g, = lib.autograd.grad(F(lib).gelu(x, approximate=approximate).sum(), x, create_graph=True)
        return lib.autograd.grad((g * lib.tensor([0.5, -1.0, 2.0, 1.0, 1.0, 1.0], dtype=x.dtype)).sum(), x)[0]

    ours, theirs = second(chainrule).numpy(), second(torch).numpy()
    assert not np.isnan(ours).any()
    np.testing.assert_allclose(ours, theirs, rtol=1e-4 if dtype == "float32" else 1e-13)
