"""Higher derivatives through ``create_graph=True``, checked live against PyTorch 2.13.

The vjp rules are chainrule code, so running them with recording on must give
gradients that can be differentiated again: 2nd and 3rd derivatives of elementary
functions, mixed partials, Hessian-vector products, and a gradient penalty on a small
two-layer MLP. Also gradcheck and gradgradcheck.
"""
import numpy as np
import pytest

import chainrule
from helpers import both, data, to_numpy
from helpers import assert_close as _assert_close

# torch warns that backward(create_graph=True) makes a parameter/gradient cycle; the
# comparison means to do exactly that
pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")






def assert_close(ours, theirs, rtol=1e-10, atol=1e-12):
    """Higher derivatives are compared more tightly than first ones."""
    _assert_close(ours, theirs, rtol, atol)


def derivatives(L, f, x, order):
    """[f'(x), f''(x), ...] elementwise, each by ``autograd.grad`` of the previous one."""
    out, y = [], f(x)
    for _ in range(order):
        (y,) = L.autograd.grad(y.sum(), x, create_graph=True)
        out.append(y)
    return out


FUNCTIONS = {
    "cube": lambda L, x: x ** 3,
    "sin": lambda L, x: x.sin(),
    "exp_tanh": lambda L, x: x.exp() * x.tanh(),
    "sigmoid_log": lambda L, x: x.sigmoid() * (x * x + 1).log(),
    "div_sqrt": lambda L, x: (x * x + 1).sqrt() / (x + 3),
    "pow_tensor": lambda L, x: (x * x + 0.5) ** (x * 0.3),
}

POINTS = [-1.3, -0.2, 0.4, 1.1, 2.5]


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_first_second_third_derivatives(name):
    def program(L):
        return derivatives(L, lambda x: FUNCTIONS[name](L, x), data(L, POINTS), 3)
    assert_close(*both(program))


def test_known_derivatives_of_cube_and_sin():
    x = data(chainrule, POINTS)
    p = np.array(POINTS)
    d1, d2, d3 = (to_numpy(d) for d in derivatives(chainrule, lambda t: t ** 3, x, 3))
    np.testing.assert_allclose(d1, 3 * p ** 2)
    np.testing.assert_allclose(d2, 6 * p)
    np.testing.assert_allclose(d3, np.full_like(p, 6.0))
    s1, s2, s3 = (to_numpy(d) for d in derivatives(chainrule, lambda t: t.sin(), x, 3))
    np.testing.assert_allclose(s1, np.cos(p))
    np.testing.assert_allclose(s2, -np.sin(p))
    np.testing.assert_allclose(s3, -np.cos(p))


def test_derivative_results_have_graph_only_with_create_graph():
    def program(L):
        x = data(L, POINTS)
        (g1,) = L.autograd.grad((x ** 3).sum(), x, create_graph=True)
        (g2,) = L.autograd.grad((x ** 3).sum(), x)
        return g1.requires_grad, g1.grad_fn is None, g2.requires_grad, g2.grad_fn is None
    ours, theirs = both(program)
    assert ours == theirs == (True, False, False, True)


def test_fourth_derivative_of_cube_is_zero():
    def program(L):
        x = data(L, POINTS)
        d3 = derivatives(L, lambda t: t ** 3, x, 3)[-1]
        (d4,) = L.autograd.grad(d3.sum(), x, allow_unused=True, materialize_grads=True)
        return d4
    assert_close(*both(program))


def test_mixed_partials_hessian():
    def program(L):
        xy = data(L, [0.7, -1.2])
        x, y = xy[0], xy[1]
        f = x ** 2 * y ** 3 + (x * y).sin() + (x - y).exp()
        (g,) = L.autograd.grad(f, xy, create_graph=True)
        rows = [L.autograd.grad(g[i], xy, retain_graph=True)[0] for i in range(2)]
        return g, rows
    ours, theirs = both(program)
    assert_close(ours, theirs)
    h = to_numpy(ours[1][0]), to_numpy(ours[1][1])
    np.testing.assert_allclose(h[0][1], h[1][0])  # symmetric


def test_hessian_vector_product():
    def program(L):
        x = data(L, [0.3, -0.8, 1.5])
        v = data(L, [1.0, 0.5, -2.0], requires_grad=False)
        f = (x.exp() * x.sin()).sum() + (x * x).sum() * x.sum()
        (g,) = L.autograd.grad(f, x, create_graph=True)
        (hv,) = L.autograd.grad(g, x, grad_outputs=v)
        return g, hv
    assert_close(*both(program))


def test_backward_create_graph_then_backward_of_grad():
    def program(L):
        x = data(L, [0.3, -0.8, 1.5])
        (x.tanh() ** 2).sum().backward(create_graph=True)
        g = x.grad
        x.grad = None
        (g * g).sum().backward()
        return g, x.grad
    assert_close(*both(program))


def test_backward_create_graph_accumulates_into_grad_with_history():
    def program(L):
        x = data(L, [0.3, -0.8])
        (x ** 3).sum().backward(create_graph=True)
        (x ** 2).sum().backward(create_graph=True)
        g = x.grad
        (gg,) = L.autograd.grad(g.sum(), x)
        return g, gg, g.requires_grad
    assert_close(*both(program))


def test_third_derivative_via_backward():
    def program(L):
        x = data(L, [0.3, -0.8])
        y = (x * 2).sin() * x
        (g1,) = L.autograd.grad(y.sum(), x, create_graph=True)
        (g2,) = L.autograd.grad(g1.sum(), x, create_graph=True)
        g2.sum().backward()
        return g1, g2, x.grad
    assert_close(*both(program))


# --- a small two-layer MLP --------------------------------------------------------------------------

def _mlp(L):
    rng = np.random.default_rng(3)
    x = data(L, rng.standard_normal((5, 4)), requires_grad=False)
    target = data(L, rng.standard_normal((5, 2)), requires_grad=False)
    w1 = data(L, rng.standard_normal((4, 6)) * 0.5)
    b1 = data(L, rng.standard_normal(6) * 0.1)
    w2 = data(L, rng.standard_normal((6, 2)) * 0.5)
    b2 = data(L, rng.standard_normal(2) * 0.1)
    hidden = (x @ w1 + b1).tanh()
    out = hidden @ w2 + b2
    loss = ((out - target) ** 2).mean()
    return loss, (w1, b1, w2, b2)


def test_mlp_gradients():
    def program(L):
        loss, params = _mlp(L)
        return loss, L.autograd.grad(loss, params)
    assert_close(*both(program))


def test_mlp_gradient_penalty_second_order():
    def program(L):
        loss, params = _mlp(L)
        grads = L.autograd.grad(loss, params, create_graph=True)
        penalty = sum((g * g).sum() for g in grads)
        return grads, L.autograd.grad(penalty, params)
    assert_close(*both(program))


def test_mlp_third_order():
    def program(L):
        loss, (w1, b1, w2, b2) = _mlp(L)
        (g,) = L.autograd.grad(loss, w2, create_graph=True)
        (h,) = L.autograd.grad((g * g).sum(), w1, create_graph=True)
        return L.autograd.grad(h.sin().sum(), [w1, b1, w2, b2])
    assert_close(*both(program))


def test_mlp_hessian_vector_product_with_backward():
    def program(L):
        loss, params = _mlp(L)
        grads = L.autograd.grad(loss, params, create_graph=True)
        vs = [data(L, np.full(p.shape, 0.1 * (i + 1)), requires_grad=False) for i, p in enumerate(params)]
        dot = sum((g * v).sum() for g, v in zip(grads, vs))
        dot.backward()
        return [p.grad for p in params]
    assert_close(*both(program))


# --- gradcheck and gradgradcheck ----------------------------------------------------------------------

CHECKED = {
    "sin": lambda x: x.sin(),
    "exp_tanh": lambda x: x.exp() * x.tanh(),
    "cube_sum": lambda x: (x ** 3).sum(),
    "matmul_tanh": lambda x: (x.view(2, 2) @ x.view(2, 2).t()).tanh(),
}


@pytest.mark.parametrize("name", list(CHECKED))
def test_gradcheck_and_gradgradcheck_pass(name):
    x = data(chainrule, [0.3, -0.7, 1.2, 0.05])
    assert chainrule.autograd.gradcheck(CHECKED[name], (x,))
    assert chainrule.autograd.gradgradcheck(CHECKED[name], (x,))


def test_gradcheck_several_inputs_and_non_tensor_args():
    a, b = data(chainrule, [0.3, -0.7]), data(chainrule, [1.2, 0.5])
    assert chainrule.autograd.gradcheck(lambda u, v, k: (u * v.exp()) ** k, (a, b, 2))
    assert chainrule.autograd.gradgradcheck(lambda u, v, k: (u * v.exp()) ** k, (a, b, 2))


def _wrong_gradient(L):
    def f(x):
        y = x * 1
        y.register_hook(lambda g: g * 2)
        return y.sin()
    return f


def test_gradcheck_detects_wrong_gradient():
    def program(L):
        x = data(L, [0.3, -0.7])
        try:
            L.autograd.gradcheck(_wrong_gradient(L), (x,))
        except RuntimeError as e:
            return type(e).__name__, str(e).splitlines()[0], L.autograd.gradcheck(
                _wrong_gradient(L), (x,), raise_exception=False)
        return "no error"
    ours, theirs = both(program)
    assert ours == theirs


def test_gradcheck_needs_an_input_requiring_grad():
    def program(L):
        try:
            L.autograd.gradcheck(lambda t: t.sin(), (data(L, [0.3], requires_grad=False),))
        except ValueError as e:
            return str(e)
    ours, theirs = both(program)
    assert ours == theirs
