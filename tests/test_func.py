"""``chainrule.func`` against ``torch.func``: the same programs on both sides give the same
structure and values, and composed transforms agree too."""
import numpy as np
import pytest

from helpers import assert_close, both, error_of, require_torch

RNG = np.random.default_rng(1)
X = RNG.standard_normal(3)
Y = RNG.standard_normal((2, 3))


def t(lib, a, grad=False):
    return lib.tensor(a, dtype=lib.float64, requires_grad=grad)


def loss(lib):
    return lambda x, y: ((y @ x).tanh() ** 2).sum() + x.sin().sum()


PROGRAMS = {
    "grad": lambda lib: lib.func.grad(loss(lib))(t(lib, X), t(lib, Y)),
    "grad_argnums_tuple": lambda lib: lib.func.grad(loss(lib), argnums=(0, 1))(t(lib, X), t(lib, Y)),
    "grad_argnums_negative": lambda lib: lib.func.grad(loss(lib), argnums=-1)(t(lib, X), t(lib, Y)),
    "grad_has_aux": lambda lib: lib.func.grad(lambda x: ((x ** 2).sum(), x.cos()), has_aux=True)(t(lib, X)),
    "grad_and_value": lambda lib: lib.func.grad_and_value(loss(lib))(t(lib, X), t(lib, Y)),
    "grad_and_value_aux": lambda lib: lib.func.grad_and_value(lambda x: ((x ** 2).sum(), {"a": x * 2}),
                                                              has_aux=True)(t(lib, X)),
    "grad_dict": lambda lib: lib.func.grad(lambda p, x: (p["w"] @ x + p["b"]).exp().sum())(
        {"w": t(lib, Y), "b": t(lib, X[:2])}, t(lib, X)),
    "grad_nested_tuple": lambda lib: lib.func.grad(lambda p: (p[0] * p[1][0] * p[1][1]).sum())(
        (t(lib, X), (t(lib, X * 2), t(lib, X + 1)))),
    "grad_grad": lambda lib: lib.func.grad(lib.func.grad(lambda x: x.sin() * x ** 3))(t(lib, 0.7)),
    "grad_grad_grad": lambda lib: lib.func.grad(lib.func.grad(lib.func.grad(lambda x: x.exp() * x ** 4)))(
        t(lib, 0.3)),
    "grad_closure": lambda lib: lib.func.grad(lambda w: lib.func.grad(lambda x: (w * x ** 2).sum())(t(lib, X)).sum())(
        t(lib, X * 3)),
    "grad_unused": lambda lib: lib.func.grad(lambda x, y: (x * 2).sum(), argnums=(0, 1))(t(lib, X), t(lib, Y)),
    "grad_of_requires_grad_input": lambda lib: lib.autograd.grad(
        lib.func.grad(lambda x: (x ** 3).sum())(_leaf(lib)).sum(), _LEAVES[-1])[0],
    "vjp": lambda lib: _call_vjp(lib, lambda x, y: (y @ x).sin(), t(lib, X), t(lib, Y)),
    "vjp_tuple_out": lambda lib: _call_vjp(lib, lambda x: (x.exp(), x.sum()), t(lib, X)),
    "vjp_twice": lambda lib: _vjp_twice(lib),
    "vjp_aux": lambda lib: _vjp_aux(lib),
    "jvp": lambda lib: lib.func.jvp(lambda x, y: (y @ x).sin(), (t(lib, X), t(lib, Y)),
                                    (t(lib, X * 0 + 1), t(lib, Y * 2))),
    "jvp_aux": lambda lib: lib.func.jvp(lambda x: (x.exp(), x * 3), (t(lib, X),), (t(lib, X),), has_aux=True),
    "jvp_dict": lambda lib: lib.func.jvp(lambda p: p["a"] * p["b"], ({"a": t(lib, X), "b": t(lib, X + 1)},),
                                         ({"a": t(lib, X * 0 + 1), "b": t(lib, X * 0)},)),
    "linearize": lambda lib: _linearize(lib),
    "jacrev": lambda lib: lib.func.jacrev(lambda x: x.sin() * x.sum())(t(lib, X)),
    "jacrev_argnums": lambda lib: lib.func.jacrev(lambda x, y: y @ x, argnums=(0, 1))(t(lib, X), t(lib, Y)),
    "jacrev_tuple_out": lambda lib: lib.func.jacrev(lambda x: (x.exp(), x.sum()))(t(lib, X)),
    "jacrev_dict_in": lambda lib: lib.func.jacrev(lambda p: p["w"] @ p["x"])({"w": t(lib, Y), "x": t(lib, X)}),
    "jacrev_chunked": lambda lib: lib.func.jacrev(lambda x: lib.outer(x, x).tanh(), chunk_size=2)(t(lib, X)),
    "jacrev_aux": lambda lib: lib.func.jacrev(lambda x: (x.sin(), x.cos()), has_aux=True)(t(lib, X)),
    "jacfwd": lambda lib: lib.func.jacfwd(lambda x: x.sin() * x.sum())(t(lib, X)),
    "jacfwd_argnums": lambda lib: lib.func.jacfwd(lambda x, y: y @ x, argnums=(0, 1))(t(lib, X), t(lib, Y)),
    "jacfwd_tuple_out": lambda lib: lib.func.jacfwd(lambda x: (x.exp(), x.sum()))(t(lib, X)),
    "jacfwd_aux": lambda lib: lib.func.jacfwd(lambda x: (x.sin(), x.cos()), has_aux=True)(t(lib, X)),
    "hessian": lambda lib: lib.func.hessian(lambda x: (x.sin() * x ** 2).sum())(t(lib, X)),
    "hessian_argnums": lambda lib: lib.func.hessian(loss(lib), argnums=1)(t(lib, X), t(lib, Y)),
    "jacfwd_jacrev": lambda lib: lib.func.jacfwd(lib.func.jacrev(lambda x: (x.exp() * x).sum()))(t(lib, X)),
    "jacrev_jacrev": lambda lib: lib.func.jacrev(lib.func.jacrev(lambda x: (x.exp() * x).sum()))(t(lib, X)),
    "jacrev_jacfwd": lambda lib: lib.func.jacrev(lib.func.jacfwd(lambda x: (x.exp() * x).sum()))(t(lib, X)),
    "vmap_grad": lambda lib: lib.func.vmap(lib.func.grad(lambda x: (x.sin() * x).sum()))(t(lib, Y)),
    "vmap_jvp": lambda lib: lib.func.vmap(lambda x, v: lib.func.jvp(lambda z: z.exp() * z, (x,), (v,)))(
        t(lib, Y), t(lib, Y * 0 + 1)),
    "vmap_jacrev": lambda lib: lib.func.vmap(lib.func.jacrev(lambda a: a.sin() * a[0]))(t(lib, Y)),
    "vmap_jacrev_closure": lambda lib: lib.func.vmap(lambda a: lib.func.jacrev(lambda v: (v * a).exp())(t(lib, X)))(
        t(lib, Y)),
    "vmap_jacfwd_closure": lambda lib: lib.func.vmap(lambda a: lib.func.jacfwd(lambda v: (v * a).exp())(t(lib, X)))(
        t(lib, Y)),
    "vmap_hessian": lambda lib: lib.func.vmap(lib.func.hessian(lambda a: (a.sin() * a ** 2).sum()))(t(lib, Y)),
    "vmap_vjp": lambda lib: lib.func.vmap(lambda x: lib.func.vjp(lambda z: z.exp(), x)[1](lib.ones_like(x)))(
        t(lib, Y)),
}

_LEAVES = []


def _leaf(lib):
    _LEAVES.append(t(lib, X, grad=True))
    return _LEAVES[-1]


def _call_vjp(lib, f, *primals):
    out, vjp_fn = lib.func.vjp(f, *primals)
    cot = lib.func_cotangents = tuple(lib.ones_like(o) * 0.5 for o in out) if isinstance(out, tuple) \
        else lib.ones_like(out) * 0.5
    return out, vjp_fn(cot)


def _vjp_twice(lib):
    out, vjp_fn = lib.func.vjp(lambda x: x.exp() * x, t(lib, X))
    return vjp_fn(lib.ones_like(out)), vjp_fn(lib.ones_like(out) * 2)


def _vjp_aux(lib):
    out, vjp_fn, aux = lib.func.vjp(lambda x: (x.exp(), x * 2), t(lib, X), has_aux=True)
    return out, vjp_fn(lib.ones_like(out)), aux


def _linearize(lib):
    out, jvp_fn = lib.func.linearize(lambda x: x.sin() * x, t(lib, X))
    return out, jvp_fn(t(lib, X * 0 + 1)), jvp_fn(t(lib, X))


@pytest.mark.parametrize("name", PROGRAMS)
def test_matches_torch(name):
    ours, theirs = both(PROGRAMS[name])
    assert_close(ours, theirs, rtol=1e-10, atol=1e-12)


def test_results_have_no_history_at_the_outermost_level():
    import chainrule as cr
    g = cr.func.grad(lambda x: (x ** 3).sum())(t(cr, X))
    assert not g.requires_grad and g.grad_fn is None


def test_per_sample_gradients_equal_one_at_a_time():
    """vmap(grad(loss)) over a batch equals grad(loss) of each sample: a small MLP."""
    import chainrule as cr
    require_torch()
    rng = np.random.default_rng(3)
    params = {"w1": t(cr, rng.standard_normal((5, 4))), "b1": t(cr, rng.standard_normal(5)),
              "w2": t(cr, rng.standard_normal((2, 5))), "b2": t(cr, rng.standard_normal(2))}
    xs, ys = t(cr, rng.standard_normal((6, 4))), cr.tensor([0, 1, 1, 0, 1, 0])

    def sample_loss(p, x, y):
        h = (p["w1"] @ x + p["b1"]).tanh()
        logits = p["w2"] @ h + p["b2"]
        return cr.nn.functional.cross_entropy(logits.unsqueeze(0), y.unsqueeze(0))

    batched = cr.func.vmap(cr.func.grad(sample_loss), in_dims=(None, 0, 0))(params, xs, ys)
    for i in range(6):
        single = cr.func.grad(sample_loss)(params, xs[i], ys[i])
        for key in params:
            np.testing.assert_allclose(batched[key][i].numpy(), single[key].numpy(), rtol=1e-12, atol=1e-14)


ERRORS = {
    "grad_not_scalar": lambda lib: lib.func.grad(lambda x: x * 2)(t(lib, X)),
    "grad_not_tensor": lambda lib: lib.func.grad(lambda x: 3.0)(t(lib, X)),
    "grad_aux_not_pair": lambda lib: lib.func.grad(lambda x: x.sum(), has_aux=True)(t(lib, X)),
    "grad_argnums_range": lambda lib: lib.func.grad(lambda x: x.sum(), argnums=2)(t(lib, X)),
    "grad_argnums_empty": lambda lib: lib.func.grad(lambda x: x.sum(), argnums=())(t(lib, X)),
    "grad_argnums_repeat": lambda lib: lib.func.grad(lambda x, y: x.sum(), argnums=(0, 0))(t(lib, X), t(lib, X)),
    "grad_argnums_type": lambda lib: lib.func.grad(lambda x: x.sum(), argnums=0.0)(t(lib, X)),
    "grad_non_tensor_arg": lambda lib: lib.func.grad(lambda x: x)(2.0),
    "vjp_int_output": lambda lib: lib.func.vjp(lambda x: (x > 0).long(), t(lib, X)),
    "vjp_cotangent_structure": lambda lib: lib.func.vjp(lambda x: (x, x), t(lib, X))[1](t(lib, X)),
    "jvp_primals_not_tuple": lambda lib: lib.func.jvp(lambda x: x, t(lib, X), (t(lib, X),)),
    "jvp_structure": lambda lib: lib.func.jvp(lambda x, y: x, (t(lib, X), t(lib, X)), (t(lib, X),)),
    "jvp_strict_independent": lambda lib: lib.func.jvp(lambda x: t(lib, X), (t(lib, X),), (t(lib, X),),
                                                       strict=True),
    "jacrev_chunk_size": lambda lib: lib.func.jacrev(lambda x: x, chunk_size=0)(t(lib, X)),
    "jacrev_complex": lambda lib: lib.func.jacrev(lambda x: x)(lib.ones(2, dtype=lib.complex128)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors(name):
    ours, theirs = both(lambda lib: error_of(lambda: ERRORS[name](lib)))
    assert ours == theirs


class _TwoLayer:
    """A model whose parameters are attributes (chainrule has no nn.Module yet): the same
    computation as the torch module below."""

    def __init__(self, lib, rng):
        self.hidden = type("Layer", (), {})()
        self.hidden.weight = t(lib, rng.standard_normal((4, 3)))
        self.hidden.bias = t(lib, rng.standard_normal(4))
        self.out_weight = t(lib, rng.standard_normal((2, 4)))

    def __call__(self, x, scale=1.0):
        return (self.out_weight @ (self.hidden.weight @ x + self.hidden.bias).tanh()) * scale


def _torch_two_layer(torch, rng):
    class TwoLayer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.hidden = torch.nn.Linear(3, 4)
            self.out_weight = torch.nn.Parameter(torch.zeros(2, 4, dtype=torch.float64))

        def forward(self, x, scale=1.0):
            return (self.out_weight @ self.hidden(x).tanh()) * scale

    model = TwoLayer().double()
    return model


def test_functional_call_matches_torch_and_restores_the_parameters():
    import chainrule as cr
    torch = require_torch()
    values = np.random.default_rng(5)
    new = {"hidden.weight": values.standard_normal((4, 3)), "hidden.bias": values.standard_normal(4),
           "out_weight": values.standard_normal((2, 4))}
    ours_model, theirs_model = _TwoLayer(cr, np.random.default_rng(6)), _torch_two_layer(torch, None)
    before = ours_model.hidden.weight
    x = X

    def run(lib, model):
        params = {k: t(lib, v) for k, v in new.items()}
        out = lib.func.functional_call(model, params, (t(lib, x),), {"scale": 2.0})
        grads = lib.func.grad(lambda p: lib.func.functional_call(model, p, t(lib, x)).sum())(params)
        per_sample = lib.func.vmap(lambda xi: lib.func.functional_call(model, params, (xi,)))(t(lib, Y))
        return out, grads, per_sample

    assert_close(run(cr, ours_model), run(torch, theirs_model), rtol=1e-12, atol=1e-12)
    assert ours_model.hidden.weight is before


def test_functional_call_errors():
    import chainrule as cr
    model = _TwoLayer(cr, np.random.default_rng(6))
    torch = require_torch()
    tmodel = _torch_two_layer(torch, None)
    for call in (lambda lib, m: lib.func.functional_call(m, [{"out_weight": 1}, {"out_weight": 2}], ()),
                 lambda lib, m: lib.func.functional_call(m, ({"a": 1}, 3), ()),
                 lambda lib, m: lib.func.functional_call(m, 3, ())):
        assert error_of(lambda: call(cr, model)) == error_of(lambda: call(torch, tmodel))
