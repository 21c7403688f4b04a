"""``autograd.functional`` against ``torch.autograd.functional``: the same calls on both sides
give the same structure (tensor or tuple, nesting) and values, and the same errors."""
import numpy as np
import pytest

from helpers import assert_close, both, error_of, require_torch

RNG = np.random.default_rng(0)
X = RNG.standard_normal(3)
Y = RNG.standard_normal((2, 3))
V3 = RNG.standard_normal(3)
V23 = RNG.standard_normal((2, 3))


def t(lib, a, grad=False):
    return lib.tensor(a, dtype=lib.float64, requires_grad=grad)


# functions of one tensor or of a tuple, with one output or a tuple of outputs
FUNCTIONS = {
    "square": (lambda lib: lambda x: x ** 2, lambda lib: t(lib, X)),
    "matrix_out": (lambda lib: lambda x: lib.outer(x, x.sin()), lambda lib: t(lib, X)),
    "two_inputs": (lambda lib: lambda x, y: (y * x).tanh(), lambda lib: (t(lib, X), t(lib, Y))),
    "two_outputs": (lambda lib: lambda x, y: (x.exp(), (y @ x).sum()), lambda lib: (t(lib, X), t(lib, Y))),
    "unused_input": (lambda lib: lambda x, y: x * 2, lambda lib: (t(lib, X), t(lib, Y))),
}
SCALAR_FUNCTIONS = {
    "cube_sum": (lambda lib: lambda x: (x ** 3).sum(), lambda lib: t(lib, X)),
    "coupled": (lambda lib: lambda x, y: (y.exp() * x).sum() + (x ** 2).prod(), lambda lib: (t(lib, X), t(lib, Y))),
    "linear": (lambda lib: lambda x: (x * 2).sum(), lambda lib: t(lib, X)),
}


def run(api, table, name, **kwargs):
    make_f, make_inputs = table[name]
    return both(lambda lib: getattr(lib.autograd.functional, api)(make_f(lib), make_inputs(lib), **kwargs))


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("vectorize", [False, True])
def test_jacobian(name, vectorize):
    ours, theirs = run("jacobian", FUNCTIONS, name, vectorize=vectorize)
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", ["square", "matrix_out", "two_inputs", "two_outputs"])
def test_jacobian_forward_mode(name):
    ours, theirs = run("jacobian", FUNCTIONS, name, vectorize=True, strategy="forward-mode")
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", SCALAR_FUNCTIONS)
@pytest.mark.parametrize("vectorize", [False, True])
def test_hessian(name, vectorize):
    ours, theirs = run("hessian", SCALAR_FUNCTIONS, name, vectorize=vectorize)
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


def _v_like(lib, inputs):
    if isinstance(inputs, tuple):
        return tuple(lib.ones_like(x) * 0.5 for x in inputs)
    return t(lib, V3)


@pytest.mark.parametrize("api", ["vhp", "hvp"])
@pytest.mark.parametrize("name", SCALAR_FUNCTIONS)
def test_hessian_products(api, name):
    make_f, make_inputs = SCALAR_FUNCTIONS[name]

    def program(lib):
        inputs = make_inputs(lib)
        return getattr(lib.autograd.functional, api)(make_f(lib), inputs, _v_like(lib, inputs))

    ours, theirs = both(program)
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("api", ["vjp", "jvp"])
@pytest.mark.parametrize("name", FUNCTIONS)
def test_products(api, name):
    make_f, make_inputs = FUNCTIONS[name]

    def program(lib):
        inputs = make_inputs(lib)
        f = make_f(lib)
        if api == "vjp":
            outs = f(*inputs) if isinstance(inputs, tuple) else f(inputs)
            v = tuple(lib.ones_like(o) * 0.5 for o in outs) if isinstance(outs, tuple) else lib.ones_like(outs) * 0.5
        else:
            v = _v_like(lib, inputs)
        return lib.autograd.functional.__dict__[api](f, inputs, v)

    ours, theirs = both(program)
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("api", ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"])
def test_create_graph_results_can_be_differentiated(api):
    def program(lib):
        x = t(lib, X, grad=True)
        f = lambda x: (x.sin() * x).sum()
        fn = getattr(lib.autograd.functional, api)
        if api in ("jacobian", "hessian"):
            result = fn(f, x, create_graph=True)
        else:
            result = fn(f, x, t(lib, V3) if api != "vjp" else lib.tensor(1.0, dtype=lib.float64), create_graph=True)
        last = result if api in ("jacobian", "hessian") else result[1]
        assert last.requires_grad
        return lib.autograd.grad(last.sum(), x)

    ours, theirs = both(program)
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


def test_results_carry_no_history_without_create_graph():
    import chainrule as cr
    x = t(cr, X, grad=True)
    out, g = cr.autograd.functional.vjp(lambda x: x.exp(), x, cr.ones(3, dtype=cr.float64))
    assert not out.requires_grad and not g.requires_grad
    assert not cr.autograd.functional.jacobian(lambda x: x.exp(), x).requires_grad


@pytest.mark.parametrize("api", ["vjp", "jacobian", "hessian", "hvp", "vhp", "jvp"])
def test_strict_refuses_independent_outputs(api):
    def program(lib):
        x = t(lib, X)
        fn = getattr(lib.autograd.functional, api)
        f = (lambda x: lib.ones(()) * 1.0) if api in ("hessian", "hvp", "vhp") else (lambda x: x.detach() * 2)
        args = () if api in ("jacobian", "hessian") else (t(lib, V3) if api != "vjp" else lib.ones(3),)
        return error_of(lambda: fn(f, x, *args, strict=True))

    ours, theirs = both(program)
    assert ours == theirs


ERRORS = {
    "input_not_tensor": lambda lib: lib.autograd.functional.jacobian(lambda x: x, [1.0]),
    "tuple_input_not_tensor": lambda lib: lib.autograd.functional.vjp(lambda x, y: x, (t(lib, X), 2.0)),
    "vjp_v_none_non_scalar": lambda lib: lib.autograd.functional.vjp(lambda x: x * 2, t(lib, X)),
    "jvp_v_none": lambda lib: lib.autograd.functional.jvp(lambda x: x * 2, t(lib, X)),
    "v_wrong_size": lambda lib: lib.autograd.functional.vjp(lambda x: x * 2, t(lib, X), lib.ones(2)),
    "v_tuple_wrong_length": lambda lib: lib.autograd.functional.vjp(
        lambda x: (x, x), t(lib, X), (lib.ones(3),)),
    "v_entry_wrong_size": lambda lib: lib.autograd.functional.jvp(
        lambda x, y: x, (t(lib, X), t(lib, X)), (lib.ones(3), lib.ones(2))),
    "hessian_not_scalar": lambda lib: lib.autograd.functional.hessian(lambda x: x * 2, t(lib, X)),
    "hessian_tuple_output": lambda lib: lib.autograd.functional.hessian(lambda x: (x.sum(), x.sum()), t(lib, X)),
    "hvp_not_scalar": lambda lib: lib.autograd.functional.hvp(lambda x: x, t(lib, X), t(lib, X)),
    "bad_strategy": lambda lib: lib.autograd.functional.jacobian(lambda x: x, t(lib, X), strategy="sideways"),
    "forward_not_vectorized": lambda lib: lib.autograd.functional.jacobian(lambda x: x, t(lib, X),
                                                                           strategy="forward-mode"),
    "forward_create_graph": lambda lib: lib.autograd.functional.jacobian(lambda x: x, t(lib, X), create_graph=True,
                                                                         strategy="forward-mode"),
    "strict_vectorize": lambda lib: lib.autograd.functional.jacobian(lambda x: x * 1, t(lib, X), strict=True,
                                                                     vectorize=True),
    "output_not_tensor": lambda lib: lib.autograd.functional.vjp(lambda x: 3.0, t(lib, X)),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors(name):
    ours, theirs = both(lambda lib: error_of(lambda: ERRORS[name](lib)))
    assert ours == theirs


def test_vectorized_jacobian_runs_one_backward_pass():
    """vectorize=True: each node's vjp rule runs once for all rows of the Jacobian."""
    import chainrule as cr
    require_torch()
    calls = []
    x = t(cr, X, grad=True)

    def f(x):
        y = x.tanh()
        y.grad_fn.register_prehook(lambda g: calls.append(1))
        return y

    cr.autograd.functional.jacobian(f, x, vectorize=True)
    assert len(calls) == 1


def test_autograd_grad_is_grads_batched():
    """autograd.grad(..., is_grads_batched=True): the first dim of each grad_output is a batch
    of vectors v, and the result is the batch of J^T·v, as in PyTorch."""
    def program(lib):
        x, y = t(lib, X, grad=True), t(lib, Y, grad=True)
        out = (y @ x).sin()
        v = t(lib, V_BATCH)
        return lib.autograd.grad(out, (x, y), v, is_grads_batched=True)

    ours, theirs = both(program)
    assert_close(ours, theirs, rtol=1e-12, atol=1e-12)


V_BATCH = np.random.default_rng(7).standard_normal((4, 2))
