"""``vmap`` against ``torch.func.vmap``: the same programs give the same values, shapes and
errors (type and message). Per-op batching rules are swept in test_ops_vmap.py."""
import warnings

import numpy as np
import pytest

import chainrule
from chainrule._functorch import batched
from chainrule._core.modes import VMAP
from chainrule._ops import registry
from helpers import assert_close, both, full_error_of, require_torch

RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4))
W = RNG.standard_normal((4, 5))
V = RNG.standard_normal(4)
X3 = RNG.standard_normal((2, 3, 4))
SIGNALS = RNG.standard_normal((2, 1, 3, 6))


def t(lib, a, grad=False):
    return lib.tensor(a, dtype=lib.float64, requires_grad=grad)


def same(program, rtol=1e-10, atol=1e-12):
    ours, theirs = both(program)
    assert_close(ours, theirs, rtol, atol)
    return ours, theirs


def same_error(program):
    """``program(lib)`` raises the same exception type and message on both sides."""
    torch = require_torch()
    ours = full_error_of(lambda: program(chainrule))
    theirs = full_error_of(lambda: program(torch))
    assert ours == theirs


# --- values ----------------------------------------------------------------------------------

def _zero_middle(r):
    r = r.clone()
    r[1:3] = 0.0
    r[0] += r[3]
    return r


PROGRAMS = {
    "elementwise": lambda lib: lib.vmap(lambda r: (r.sin() * 2 + r).exp())(t(lib, X)),
    "reduction": lambda lib: lib.vmap(lambda r: r.sum())(t(lib, X)),
    "keepdim": lambda lib: lib.vmap(lambda r: r.mean(0, keepdim=True))(t(lib, X3)),
    "closure": lambda lib: lib.vmap(lambda r: r @ t(lib, W))(t(lib, X)),
    "matrix_vector": lambda lib: lib.vmap(lambda m: m @ t(lib, V))(t(lib, X3)),
    "dot": lambda lib: lib.vmap(lib.dot)(t(lib, X), t(lib, X)),
    "unbatched_operand": lambda lib: lib.vmap(lib.dot, in_dims=(0, None))(t(lib, X), t(lib, V)),
    "in_dims_1": lambda lib: lib.vmap(lambda c: c.softmax(0), in_dims=1)(t(lib, X)),
    "negative_in_dim": lambda lib: lib.vmap(lambda c: c * 2, in_dims=-1)(t(lib, X)),
    "out_dims_1": lambda lib: lib.vmap(lambda r: r.cumsum(0), out_dims=1)(t(lib, X)),
    "out_dims_none": lambda lib: lib.vmap(lambda r: (r * 2, t(lib, V)), out_dims=(0, None))(t(lib, X)),
    "unbatched_output": lambda lib: lib.vmap(lambda r: t(lib, V))(t(lib, X)),
    "nested_in_dims": lambda lib: lib.vmap(lambda d: d["a"] * d["b"][0] + d["b"][1],
                                           in_dims=({"a": 0, "b": [None, 0]},))(
        {"a": t(lib, X), "b": [t(lib, V), t(lib, X)]}),
    "tuple_out_dims": lambda lib: lib.vmap(lambda r: [r, r.sum()], out_dims=[1, 0])(t(lib, X)),
    "one_tuple_out_dims": lambda lib: lib.vmap(lambda r: r * 3, out_dims=(1,))(t(lib, X)),
    "kwargs_unbatched": lambda lib: lib.vmap(lambda r, scale: r * scale)(t(lib, X), scale=t(lib, V)),
    "chunks": lambda lib: lib.vmap(lambda r: (r.sum(), r.exp()), chunk_size=2)(t(lib, X3)),
    "chunks_named_results": lambda lib: lib.vmap(lambda r: r.max(0), chunk_size=1)(t(lib, X3)),
    "chunks_out_dims": lambda lib: lib.vmap(lambda r: r.t(), chunk_size=1, out_dims=2)(t(lib, X3)),
    "nested_vmap": lambda lib: lib.vmap(lib.vmap(lambda a: a.sum() * a))(t(lib, X3)),
    "nested_inner_dims": lambda lib: lib.vmap(lib.vmap(lambda a, b: a * b, in_dims=(1, None)),
                                              in_dims=(0, 0))(t(lib, X3), t(lib, X3[:, :, 0])),
    "reshape_view": lambda lib: lib.vmap(lambda r: r.reshape(2, 2).t().flatten())(t(lib, X)),
    "expand_permute": lambda lib: lib.vmap(lambda m: m.unsqueeze(0).expand(2, 3, 4).permute(2, 0, 1))(t(lib, X3)),
    "indexing": lambda lib: lib.vmap(lambda r: r[1:3] + r[0])(t(lib, X)),
    "cat_stack": lambda lib: lib.vmap(lambda r: lib.stack([lib.cat([r, r * 2]), lib.cat([r, r])], 1))(t(lib, X)),
    "comparisons": lambda lib: lib.vmap(lambda r: lib.where(r > 0, r, -r) + (r <= 0).float())(t(lib, X)),
    "max_min": lambda lib: lib.vmap(lambda m: (m.max(), m.amin(1), m.max() - m.min()))(t(lib, X3)),
    "conv_input_only": lambda lib: lib.vmap(lambda x: lib.nn.functional.conv1d(x, t(lib, X3[:, :, :2])))(
        t(lib, SIGNALS)),
    "layer_norm": lambda lib: lib.vmap(lambda x: lib.nn.functional.layer_norm(x, (4,), t(lib, V)))(t(lib, X3)),
    "mse_loss": lambda lib: lib.vmap(lambda a, b: lib.nn.functional.mse_loss(a, b))(t(lib, X3), t(lib, X3 * 0.5 + 1)),
    "addmm_batched_bias": lambda lib: lib.vmap(lambda b, m: lib.addmm(b, m, t(lib, W)))(t(lib, X3[:, 0, :1]),
                                                                                          t(lib, X3)),
    "gather_shared_index": lambda lib: lib.vmap(lambda r: lib.gather(r, 1, lib.tensor([[3, 0], [1, 1], [2, 0]])))(
        t(lib, X3)),
    "index_select_shared_index": lambda lib: lib.vmap(lambda r: r.index_select(0, lib.tensor([2, 0, 2])))(t(lib, X)),
    "scatter_add_shared_index": lambda lib: lib.vmap(lambda r, s: r.scatter_add(0, lib.tensor([[1, 0, 2, 1]]), s))(
        t(lib, X3), t(lib, X3[:, :1])),
    "argmax_loops": lambda lib: lib.vmap(lambda r: (r.argmax(), r.sort(descending=True).values))(t(lib, X)),
    "setitem_basic": lambda lib: lib.vmap(_zero_middle)(t(lib, X)),
}


@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_torch(name):
    same(PROGRAMS[name])


def test_shape_and_dtype_inside_are_one_samples():
    def program(lib):
        seen = []
        lib.vmap(lambda r: seen.append((tuple(r.shape), r.dim(), str(r.dtype), len(r))) or r)(t(lib, X3))
        return seen
    ours, theirs = both(program)
    assert ours == theirs


def test_in_place_on_batched_input_writes_the_callers_tensor():
    def program(lib):
        x = t(lib, X)
        out = lib.vmap(lambda r: r.mul_(2).add_(1))(x)
        return out, x
    same(program)


def test_in_place_through_in_dims_1():
    def program(lib):
        x = t(lib, X)
        lib.vmap(lambda c: c.sub_(c.sum()), in_dims=1)(x)
        return x
    same(program)


def test_in_place_in_nested_vmaps():
    def program(lib):
        x = t(lib, X3)
        lib.vmap(lib.vmap(lambda a, b: a.mul_(b).add_(1), in_dims=(1, None)), in_dims=(0, 0))(x, t(lib, X3[:, :, 0]))
        return x
    same(program)


def test_in_place_view_ops():
    same(lambda lib: lib.vmap(lambda m: m.clone().unsqueeze_(0).transpose_(0, 2).squeeze_(2))(t(lib, X3)))


def test_in_place_into_unbatched_refuses():
    same_error(lambda lib: lib.vmap(lambda z, r: z.add_(r), in_dims=(None, 0))(lib.zeros(4, dtype=lib.float64),
                                                                                  t(lib, X)))


# --- autograd through and inside vmap --------------------------------------------------------------

def test_gradient_through_vmap():
    def program(lib):
        x, w = t(lib, X, grad=True), t(lib, W, grad=True)
        y = lib.vmap(lambda r: (r @ w).tanh().sum())(x)
        (y * t(lib, np.arange(3.0))).sum().backward()
        return x.grad, w.grad
    same(program)


def test_jacobian_in_one_batched_backward():
    """``vmap(vjp)(eye)``: every row of the Jacobian from one backward pass."""
    def program(lib):
        x = t(lib, X[0], grad=True)
        y = (x.sin() * x.sum()).exp()
        eye = lib.eye(4, dtype=lib.float64)
        return lib.vmap(lambda v: lib.autograd.grad(y, x, v, retain_graph=True)[0])(eye)
    ours, theirs = same(program, rtol=1e-9)
    jacobian = require_torch().autograd.functional.jacobian(
        lambda x: (x.sin() * x.sum()).exp(), require_torch().tensor(X[0]))
    np.testing.assert_allclose(ours.numpy(), jacobian.numpy(), rtol=1e-9)


def test_jacobian_of_broadcasting_and_reductions():
    """The engine's broadcast reduction and gradient sums run on batched gradients."""
    def program(lib):
        x = t(lib, X, grad=True)
        b = t(lib, V, grad=True)
        y = ((x + b) * b).sum(0)
        return lib.vmap(lambda v: lib.autograd.grad(y, (x, b), v, retain_graph=True))(lib.eye(4, dtype=lib.float64))
    same(program)


def test_backward_inside_vmap_refuses():
    same_error(lambda lib: lib.vmap(lambda r: (r * r).sum().backward())(t(lib, X, grad=True)))


# --- errors ----------------------------------------------------------------------------------------

def _f(r):
    return r


ERRORS = {
    "in_dim_too_big": lambda lib: lib.vmap(_f, in_dims=2)(t(lib, X)),
    "in_dim_too_small": lambda lib: lib.vmap(_f, in_dims=-3)(t(lib, X)),
    "sizes_differ": lambda lib: lib.vmap(lambda a, b: a + b)(t(lib, X), t(lib, W.T)),
    "in_dims_structure": lambda lib: lib.vmap(lambda a, b: a, in_dims=(0,))(t(lib, X), t(lib, X)),
    "in_dims_dict_keys": lambda lib: lib.vmap(_f, in_dims=({"a": 0},))({"b": t(lib, X)}),
    "in_dims_type": lambda lib: lib.vmap(_f, in_dims=[0])(t(lib, X)),
    "in_dims_none": lambda lib: lib.vmap(_f, in_dims=None)(t(lib, X)),
    "in_dim_not_int": lambda lib: lib.vmap(_f, in_dims=(1.5,))(t(lib, X)),
    "non_tensor_input": lambda lib: lib.vmap(_f)(3.0),
    "nothing_batched": lambda lib: lib.vmap(_f, in_dims=(None,))(t(lib, X)),
    "zero_dim_input": lambda lib: lib.vmap(_f)(t(lib, 1.0)),
    "no_inputs": lambda lib: lib.vmap(lambda: 1)(),
    "out_dims_structure": lambda lib: lib.vmap(_f, out_dims=(0, 1))(t(lib, X)),
    "out_dims_lists": lambda lib: lib.vmap(lambda r: (r, r), out_dims=[0, 1])(t(lib, X)),
    "out_dims_type": lambda lib: lib.vmap(_f, out_dims="a")(t(lib, X)),
    "out_dim_range": lambda lib: lib.vmap(_f, out_dims=3)(t(lib, X)),
    "returns_number": lambda lib: lib.vmap(lambda r: 3.0)(t(lib, X)),
    "returns_none": lambda lib: lib.vmap(lambda r: (r, None))(t(lib, X)),
    "batched_with_out_dim_none": lambda lib: lib.vmap(_f, out_dims=None)(t(lib, X)),
    "bad_randomness": lambda lib: lib.vmap(_f, randomness="bad"),
    "bad_chunk_size": lambda lib: lib.vmap(_f, chunk_size=0),
    "item": lambda lib: lib.vmap(lambda r: r.sum().item())(t(lib, X)),
    "control_flow": lambda lib: lib.vmap(lambda r: r * 2 if r.sum() > 0 else r)(t(lib, X)),
    "float": lambda lib: lib.vmap(lambda r: float(r.sum()))(t(lib, X)),
    "tolist": lambda lib: lib.vmap(lambda r: r.tolist())(t(lib, X)),
    "random_in_error_mode": lambda lib: lib.vmap(lambda r: r + lib.rand(4))(t(lib, X)),
    "random_like_in_error_mode": lambda lib: lib.vmap(lambda r: lib.randn_like(r))(t(lib, X)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors(name):
    same_error(ERRORS[name])


def test_flag_is_off_after_vmap_even_after_an_error():
    with pytest.raises(RuntimeError):
        chainrule.vmap(lambda r: r.item())(t(chainrule, X))
    assert VMAP.active is False and batched.LEVELS == []
    chainrule.vmap(chainrule.vmap(lambda a: a))(t(chainrule, X3))
    assert VMAP.active is False


# --- randomness ---------------------------------------------------------------------------------

def test_randomness_same_shares_one_draw():
    chainrule.manual_seed(0)
    out = chainrule.vmap(lambda r: r * 0 + chainrule.rand(4), randomness="same")(t(chainrule, X))
    assert out.shape == (3, 4) and bool((out == out[0]).all())


def test_randomness_same_is_shared_across_chunks():
    out = chainrule.vmap(lambda r: r * 0 + chainrule.rand(4), randomness="same", chunk_size=2)(t(chainrule, X))
    assert bool((out == out[0]).all())


def test_randomness_same_in_place_fill_is_shared():
    x = t(chainrule, X).clone()
    chainrule.vmap(lambda r: r.normal_(), randomness="same")(x)
    assert bool((x == x[0]).all())


def test_randomness_different_draws_per_sample():
    out = chainrule.vmap(lambda r: r * 0 + chainrule.rand(4), randomness="different")(t(chainrule, X))
    assert out.shape == (3, 4) and not bool((out[1:] == out[0]).all(1).any())
    p = chainrule.full((3, 1000), 0.5, dtype=chainrule.float64)
    draws = chainrule.vmap(chainrule.bernoulli, randomness="different")(p)
    assert draws.shape == (3, 1000) and not bool((draws[1:] == draws[0]).all(1).any())


def test_randomness_same_with_a_batched_probability_refuses():
    same_error(lambda lib: lib.vmap(lib.bernoulli, randomness="same")(lib.full((3, 4), 0.5, dtype=lib.float64)))


# --- printing and the loop fallback -----------------------------------------------------------------

def test_batched_tensor_repr():
    def program(lib):
        seen = []
        lib.vmap(lib.vmap(lambda a: seen.append(repr(a)) or a))(lib.arange(6.0).reshape(1, 2, 3))
        return seen[0]
    ours, theirs = both(program)
    assert ours == theirs


def test_op_without_rule_loops_and_warns_once_naming_it():
    """An op registered without a batching rule runs once per sample, warns once."""
    op = registry.Op("test_only_scaled", lambda x, k: x * k, "TestBackward0", (lambda g, k: g * k,),
                     (lambda t, k: t * k,), lambda ans, x, k: (k,), False, False, False)

    def scaled(x):
        return registry.unary(op, x, (3.0,))

    batched.FALLBACKS.discard(op.name)
    x = t(chainrule, X, grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = chainrule.vmap(scaled)(x)
        chainrule.vmap(scaled)(x)
    messages = [str(w.message) for w in caught if "performance drop" in str(w.message)]
    assert messages == ["There is a performance drop because we have not yet implemented the batching rule for "
                        "test_only_scaled. Please file us an issue on GitHub so that we can prioritize its "
                        "implementation."]
    assert op.name in batched.FALLBACKS
    np.testing.assert_allclose(out.detach().numpy(), X * 3)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.full_like(X, 3.0))
    batched.FALLBACKS.discard(op.name)


def test_vmap_is_exported_as_in_torch():
    import inspect
    torch = require_torch()
    assert chainrule.vmap is chainrule.func.vmap
    ours = inspect.signature(chainrule.func.vmap)
    theirs = inspect.signature(torch.func.vmap)
    assert [(p.name, p.default, p.kind) for p in ours.parameters.values()] == \
        [(p.name, p.default, p.kind) for p in theirs.parameters.values()]


# --- reverse mode inside vmap (what func.grad builds on) -------------------------------------------

def _loss(lib, w, x, y):
    return ((x @ w).tanh() - y).pow(2).mean()


def test_per_sample_gradients_inside_vmap():
    """``batched_leaf`` + ``autograd_grad``: per-sample gradients, as torch.func's vmap(grad)."""
    torch = require_torch()
    w, xs, ys = RNG.standard_normal((4, 2)), RNG.standard_normal((5, 4)), RNG.standard_normal((5, 2))

    def per_sample(x, y):
        leaf = batched.batched_leaf(t(chainrule, w))
        return batched.autograd_grad([_loss(chainrule, leaf, x, y)], [leaf])[0]

    ours = chainrule.vmap(per_sample)(t(chainrule, xs), t(chainrule, ys))
    theirs = torch.func.vmap(torch.func.grad(lambda w, x, y: _loss(torch, w, x, y)), in_dims=(None, 0, 0))(
        t(torch, w), t(torch, xs), t(torch, ys))
    assert_close(ours, theirs, 1e-10, 1e-12)


def test_gradients_of_batched_inputs_inside_nested_vmaps():
    torch = require_torch()
    xs = RNG.standard_normal((2, 3, 4))

    def inner(x):
        leaf = batched.batched_leaf(x)
        return batched.autograd_grad([(leaf.sin() * leaf).sum()], [leaf])[0]

    ours = chainrule.vmap(chainrule.vmap(inner))(t(chainrule, xs))
    theirs = torch.func.vmap(torch.func.vmap(torch.func.grad(lambda x: (x.sin() * x).sum())))(t(torch, xs))
    assert_close(ours, theirs, 1e-10, 1e-12)


def test_gradient_with_respect_to_an_unbatched_tensor_refuses():
    w = t(chainrule, RNG.standard_normal(4), grad=True)
    with pytest.raises(NotImplementedError, match="would sum over the batch"):
        chainrule.vmap(lambda x: batched.autograd_grad([(x * w).sum()], [w]))(t(chainrule, X))
