"""The autograd surface, checked live against PyTorch 2.13.

Covers ``requires_grad`` / ``is_leaf``, ``grad_fn`` names and ``next_functions``,
``Tensor.backward`` / ``autograd.backward`` / ``autograd.grad`` and their options,
``.grad`` accumulation, ``retain_grad``, tensor hooks, and the errors users hit most.
Each comparison runs the same program once with chainrule and once with torch
(``require_torch()`` inside the test, so a CI run without torch fails).
"""
import warnings

import numpy as np
import pytest

from helpers import assert_close, both, data, error_of, full_error_of, to_numpy

# torch warns that backward(create_graph=True) makes a parameter/gradient cycle; the
# comparison means to do exactly that
pytestmark = pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")






def same_error(program):
    ours, theirs = both(lambda L: error_of(lambda: program(L)))
    assert ours == theirs



# --- requires_grad and is_leaf ---------------------------------------------------------

@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128"])
def test_float_and_complex_can_require_grad(dtype):
    def program(L):
        t = L.zeros(2, dtype=getattr(L, dtype), requires_grad=True)
        u = L.zeros(2, dtype=getattr(L, dtype)).requires_grad_()
        v = L.zeros(2, dtype=getattr(L, dtype))
        v.requires_grad = True
        return t.requires_grad, u.requires_grad, v.requires_grad, t.is_leaf
    ours, theirs = both(program)
    assert ours == theirs == (True, True, True, True)


INT_DTYPES = ["int64", "int32", "int16", "int8", "uint8", "bool"]


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_factory_requires_grad_error(dtype):
    same_error(lambda L: L.zeros(2, dtype=getattr(L, dtype), requires_grad=True))


def test_integer_tensor_literal_requires_grad_error():
    same_error(lambda L: L.tensor([1, 2], requires_grad=True))


@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_integer_requires_grad_method_error(dtype):
    same_error(lambda L: L.zeros(2, dtype=getattr(L, dtype)).requires_grad_())


@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_integer_requires_grad_setter_error(dtype):
    def program(L):
        t = L.zeros(2, dtype=getattr(L, dtype))
        t.requires_grad = True
    same_error(program)


def test_requires_grad_false_on_non_leaf_error():
    same_error(lambda L: (L.ones(2, requires_grad=True) * 2).requires_grad_(False))


def test_is_leaf_and_requires_grad_propagation():
    def program(L):
        a = L.ones(2, requires_grad=True)
        b = L.ones(2)
        out = []
        for t in (a, b, a * 2, b * 2, a + b, a.detach(), (a * 2).detach(), a[0], b[0]):
            out.append((t.is_leaf, t.requires_grad, t.grad_fn is None))
        with L.no_grad():
            c = a * 2
        out.append((c.is_leaf, c.requires_grad, c.grad_fn is None))
        return out
    ours, theirs = both(program)
    assert ours == theirs


# --- grad_fn names and next_functions ----------------------------------------------------

GRAD_FN_CASES = {
    "mul": lambda L, a, b: a * b,
    "mul_scalar": lambda L, a, b: a * 2,
    "add": lambda L, a, b: a + b,
    "add_scalar": lambda L, a, b: a + 2,
    "sub": lambda L, a, b: a - b,
    "rsub": lambda L, a, b: 2 - a,
    "div": lambda L, a, b: a / b,
    "pow": lambda L, a, b: a ** 2,
    "pow_tensor": lambda L, a, b: a ** b,
    "neg": lambda L, a, b: -a,
    "exp": lambda L, a, b: a.exp(),
    "log": lambda L, a, b: a.log(),
    "sin": lambda L, a, b: a.sin(),
    "tanh": lambda L, a, b: a.tanh(),
    "sigmoid": lambda L, a, b: a.sigmoid(),
    "sum": lambda L, a, b: a.sum(),
    "sum_dim": lambda L, a, b: a.sum(0),
    "mean": lambda L, a, b: a.mean(),
    "matmul": lambda L, a, b: a @ b.t(),
    "view": lambda L, a, b: a.view(6),
    "reshape": lambda L, a, b: a.reshape(3, 2),
    "transpose": lambda L, a, b: a.t(),
    "slice": lambda L, a, b: a[1:],
    "select": lambda L, a, b: a[0],
    "clone": lambda L, a, b: a.clone(),
    "to_double": lambda L, a, b: a.double(),
    "expand": lambda L, a, b: a[0:1].expand(4, 3),
}


@pytest.mark.parametrize("case", list(GRAD_FN_CASES))
def test_grad_fn_name(case):
    def program(L):
        a = data(L, [[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]], dtype="float32")
        b = data(L, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype="float32")
        return GRAD_FN_CASES[case](L, a, b).grad_fn.name()
    ours, theirs = both(program)
    assert ours == theirs


def _describe(node, depth=4):
    """The graph under ``node`` as nested (name, children) using type names (torch's
    ``name()`` adds a ``torch::autograd::`` prefix to some C++ nodes)."""
    if node is None:
        return None
    name = node.name().rsplit("::", 1)[-1]
    if depth == 0:
        return name
    return name, tuple((_describe(n, depth - 1), i) for n, i in node.next_functions)


def test_next_functions_structure():
    def program(L):
        a = data(L, [1.0, 2.0])
        b = data(L, [3.0, 4.0])
        c = L.ones(2)
        return _describe(((a * b + a.exp()) * c).sum().grad_fn)
    ours, theirs = both(program)
    assert ours == theirs


def test_same_accumulate_grad_from_two_consumers():
    def program(L):
        a = data(L, [1.0, 2.0])
        c, d = a * 2, a + 1
        n1, n2 = c.grad_fn.next_functions[0][0], d.grad_fn.next_functions[0][0]
        sq = (a * a).grad_fn.next_functions
        return (n1 is n2, n1.variable is a, sq[0][0] is sq[1][0] is n1,
                n1.name().rsplit("::", 1)[-1], n1.next_functions, a.grad_fn is None)
    ours, theirs = both(program)
    assert ours == theirs == (True, True, True, "AccumulateGrad", (), True)


def test_accumulate_grad_name_matches_torch():
    ours, theirs = both(lambda L: (data(L, [1.0]) * 2).grad_fn.next_functions[0][0].name())
    assert ours == theirs


def test_next_functions_of_op_with_python_number():
    ours, theirs = both(lambda L: len((data(L, [1.0]) * 2).grad_fn.next_functions))
    assert ours == theirs


def test_next_functions_none_for_input_without_grad():
    def program(L):
        a = data(L, [1.0, 2.0])
        b = data(L, [3.0, 4.0], requires_grad=False)
        nf = (a * b).grad_fn.next_functions
        return nf[0][0].name().rsplit("::", 1)[-1], nf[1][0], [i for _, i in nf]
    ours, theirs = both(program)
    assert ours == theirs


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_copy_slices_after_setitem(dtype):
    def program(L):
        x = data(L, [1.0, 2.0, 3.0])
        y = L.zeros(3, dtype=getattr(L, dtype))
        y[0] = x[1] * x[2]
        z = x.exp()
        z[1:] = 0.0
        return repr(y).split("grad_fn=")[1], _describe(y.grad_fn, 2), _describe(z.grad_fn, 2), y.is_leaf
    ours, theirs = both(program)
    assert ours[0] == theirs[0] == "<CopySlices>)"
    assert ours == theirs


def test_copy_slices_name_matches_torch():
    def program(L):
        y = L.zeros(3)
        y[0] = data(L, [1.0]).sum()
        return y.grad_fn.name()
    ours, theirs = both(program)
    assert ours == theirs


# --- backward and its options -------------------------------------------------------------

def _mlp_like(L):
    x = data(L, [[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]])
    w = data(L, [[0.7, -0.1], [0.2, 0.3], [-0.5, 0.9]])
    y = (x @ w).tanh() * x.sum(1, keepdim=True)
    return x, w, y


def test_backward_with_gradient_matches_torch():
    def program(L):
        x, w, y = _mlp_like(L)
        y.backward(L.from_numpy(np.array([[1.0, -2.0], [0.5, 3.0]])))
        return x.grad, w.grad
    assert_close(*both(program))


def test_backward_scalar_default_gradient():
    def program(L):
        x, w, y = _mlp_like(L)
        (y ** 2).mean().backward()
        return x.grad, w.grad
    assert_close(*both(program))


def test_backward_retain_graph_accumulates():
    def program(L):
        x, w, y = _mlp_like(L)
        s = (y * y).sum()
        s.backward(retain_graph=True)
        first = x.grad.clone()
        s.backward()
        return first, x.grad, w.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)
    np.testing.assert_allclose(to_numpy(ours[1]), 2 * to_numpy(ours[0]))


def test_backward_create_graph_grad_has_history():
    def program(L):
        x = data(L, [1.0, 2.0])
        (x ** 3).sum().backward(create_graph=True)
        g = x.grad
        flags = (g.requires_grad, g.grad_fn is not None)
        (gx,) = L.autograd.grad(g.sum(), x)
        return flags, g, gx
    ours, theirs = both(program)
    assert ours[0] == theirs[0] == (True, True)
    assert_close(ours[1:], theirs[1:])


def test_backward_inputs_restricts_accumulation():
    def program(L):
        a, b = data(L, [1.0, 2.0]), data(L, [3.0, 4.0])
        s = (a * b).sum()
        s.backward(inputs=[a])
        return a.grad, b.grad
    assert_close(*both(program))


def test_backward_inputs_non_leaf():
    def program(L):
        a = data(L, [1.0, 2.0])
        h = a * 3
        h.retain_grad()
        (h * h).sum().backward(inputs=[h])
        return h.grad, a.grad
    assert_close(*both(program))


def test_backward_empty_inputs_error():
    same_error(lambda L: (data(L, [1.0]) * 2).sum().backward(inputs=[]))


def test_autograd_backward_several_tensors():
    def program(L):
        a, b = data(L, [1.0, 2.0]), data(L, [3.0, -1.0])
        u, v = a * b, (a + b).exp()
        L.autograd.backward([u, v], [L.from_numpy(np.array([1.0, 2.0])), L.from_numpy(np.array([0.5, 0.25]))])
        return a.grad, b.grad
    assert_close(*both(program))


def test_autograd_backward_scalar_list_no_grads():
    def program(L):
        a = data(L, [1.0, 2.0])
        L.autograd.backward([(a * a).sum(), a.sin().sum()])
        return a.grad
    assert_close(*both(program))


def test_grad_with_grad_outputs_and_leaves_grad_untouched():
    def program(L):
        a, b = data(L, [1.0, 2.0, 3.0]), data(L, [0.5, -1.0, 2.0])
        y = a * b.sin() + a ** 2
        ga, gb = L.autograd.grad(y, (a, b), grad_outputs=L.from_numpy(np.array([1.0, -1.0, 2.0])))
        return ga, gb, a.grad, b.grad, ga.requires_grad, ga.grad_fn is None
    assert_close(*both(program))


def test_grad_several_outputs():
    def program(L):
        a = data(L, [1.0, 2.0])
        return L.autograd.grad([(a * a).sum(), (a * 3).sum()], [a])
    assert_close(*both(program))


def test_grad_allow_unused_and_materialize():
    def program(L):
        a, b = data(L, [1.0, 2.0]), data(L, [3.0, 4.0])
        s = (a * a).sum()
        unused = L.autograd.grad(s, [a, b], retain_graph=True, allow_unused=True)
        materialized = L.autograd.grad(s, [a, b], materialize_grads=True)
        return unused, materialized
    assert_close(*both(program))


def test_grad_unused_input_error():
    same_error(lambda L: L.autograd.grad((data(L, [1.0]) * 2).sum(), [data(L, [1.0]), data(L, [2.0])]))


def test_grad_unused_input_error_index():
    def program(L):
        a, b = data(L, [1.0]), data(L, [2.0])
        L.autograd.grad((b * 2).sum(), [b, a])
    ours, theirs = both(lambda L: full_error_of(lambda: program(L)))
    assert ours == theirs


def test_grad_materialize_with_allow_unused_false_error():
    def program(L):
        a = data(L, [1.0])
        L.autograd.grad((a * 2).sum(), [a], allow_unused=False, materialize_grads=True)
    ours, theirs = both(lambda L: full_error_of(lambda: program(L)))
    assert ours == theirs


def test_grad_input_not_requiring_grad_error():
    same_error(lambda L: L.autograd.grad((data(L, [1.0]) * 2).sum(), [data(L, [1.0], requires_grad=False)]))


def test_grad_with_respect_to_non_leaf():
    def program(L):
        a = data(L, [1.0, 2.0])
        h = a.exp()
        return L.autograd.grad((h * h * a).sum(), [h, a])
    assert_close(*both(program))


# --- .grad: accumulation, reset, warning ---------------------------------------------------

def test_grad_accumulates_across_backward_calls_in_place():
    def program(L):
        a = data(L, [1.0, 2.0])
        (a * a).sum().backward()
        g = a.grad
        (a * 3).sum().backward()
        return a.grad, g is a.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)
    assert ours[1] is True


def test_grad_is_plain_tensor_without_create_graph():
    def program(L):
        a = data(L, [1.0, 2.0])
        (a * a).sum().backward()
        return a.grad.requires_grad, a.grad.grad_fn is None, a.grad.is_leaf
    ours, theirs = both(program)
    assert ours == theirs


def test_grad_set_none_then_backward_starts_fresh():
    def program(L):
        a = data(L, [1.0, 2.0])
        (a * a).sum().backward()
        a.grad = None
        (a * 5).sum().backward()
        return a.grad
    assert_close(*both(program))


def test_grad_zero_then_backward():
    def program(L):
        a = data(L, [1.0, 2.0])
        (a * a).sum().backward()
        g = a.grad
        a.grad.zero_()
        (a * 5).sum().backward()
        return a.grad, g is a.grad
    assert_close(*both(program))


def test_grad_setter_type_error():
    same_error(lambda L: setattr(data(L, [1.0, 2.0]), "grad", 3))


def test_grad_setter_size_error():
    same_error(lambda L: setattr(data(L, [1.0, 2.0]), "grad", L.zeros(3, dtype=L.float64)))


def test_grad_setter_dtype_error():
    same_error(lambda L: setattr(data(L, [1.0, 2.0]), "grad", L.zeros(2, dtype=L.float32)))


def _warnings_when_reading_grad(L, make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = make(L)
        t.grad  # noqa: B018  (reading it is what warns)
    return [(w.category, str(w.message).split(" (Triggered internally")[0]) for w in caught]


def test_non_leaf_grad_warning_text():
    ours, theirs = both(lambda L: _warnings_when_reading_grad(L, lambda L: data(L, [1.0]) * 2))
    assert len(ours) == 1 and ours == theirs
    assert ours[0][0] is UserWarning


def test_no_warning_for_leaf_or_retained_grad():
    def retained(L):
        t = data(L, [1.0]) * 2
        t.retain_grad()
        return t
    for make in (lambda L: data(L, [1.0]), retained, lambda L: L.ones(2) * 2):
        ours, theirs = both(lambda L: _warnings_when_reading_grad(L, make))
        assert ours == theirs


# --- retain_grad -----------------------------------------------------------------------------

def test_retain_grad_values():
    def program(L):
        a = data(L, [1.0, 2.0, 3.0])
        h = a.sin()
        h.retain_grad()
        k = h * h
        k.retain_grad()
        (k * a).sum().backward()
        return h.grad, k.grad, a.grad, h.retains_grad, a.retains_grad, (a * 2).retains_grad
    assert_close(*both(program))


def test_retain_grad_accumulates_over_calls():
    def program(L):
        a = data(L, [1.0, 2.0])
        h = a * 2
        h.retain_grad()
        s = (h * h).sum()
        s.backward(retain_graph=True)
        s.backward()
        return h.grad
    assert_close(*both(program))


def test_retain_grad_on_leaf_is_noop():
    def program(L):
        a = data(L, [1.0, 2.0])
        a.retain_grad()
        (a * a).sum().backward()
        return a.grad, a.retains_grad
    assert_close(*both(program))


def test_retain_grad_without_requires_grad_error():
    same_error(lambda L: L.ones(2).retain_grad())


# --- hooks --------------------------------------------------------------------------------------

def test_leaf_hook_observes_gradient():
    def program(L):
        a = data(L, [1.0, 2.0])
        seen = []
        a.register_hook(lambda g: seen.append(g.clone()))
        (a * a).sum().backward()
        return seen, a.grad
    assert_close(*both(program))


def test_leaf_hook_replaces_gradient():
    def program(L):
        a = data(L, [1.0, 2.0])
        a.register_hook(lambda g: g * 10)
        (a * a).sum().backward()
        return a.grad
    assert_close(*both(program))


def test_non_leaf_hook_replaces_gradient_downstream():
    def program(L):
        a = data(L, [1.0, 2.0])
        h = a * 3
        seen = []
        h.register_hook(lambda g: seen.append(g.clone()))
        h.register_hook(lambda g: g + 1)
        (h * h).sum().backward()
        return seen, a.grad
    assert_close(*both(program))


def test_hooks_run_in_registration_order_and_chain():
    def program(L):
        order = []
        a = data(L, [1.0, 2.0])
        h = a * 1
        for name, fn in (("double", lambda g: g * 2), ("observe", lambda g: None), ("add", lambda g: g + 1)):
            def hook(g, name=name, fn=fn):
                order.append((name, g.detach().clone()))
                return fn(g)
            h.register_hook(hook)
            a.register_hook(hook)
        h.sum().backward()
        return [n for n, _ in order], [g for _, g in order], a.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1:], theirs[1:])


def test_hook_handle_remove():
    def program(L):
        a = data(L, [1.0, 2.0])
        h = a * 2
        ha = a.register_hook(lambda g: g * 100)
        hh = h.register_hook(lambda g: g * 7)
        ha.remove()
        hh.remove()
        ha.remove()  # a second remove is harmless
        (h * h).sum().backward()
        return a.grad
    assert_close(*both(program))


def test_hook_on_tensor_without_grad_error():
    same_error(lambda L: L.ones(2).register_hook(lambda g: g))


def test_hook_sees_gradient_once_per_backward_summed():
    def program(L):
        a = data(L, [1.0, 2.0])
        h = a * 2
        seen = []
        h.register_hook(lambda g: seen.append(g.clone()))
        (h * 3 + h.exp()).sum().backward()
        return seen
    ours, theirs = both(program)
    assert len(ours) == len(theirs) == 1
    assert_close(ours, theirs)


def test_non_leaf_hook_runs_with_autograd_grad():
    def program(L):
        a = data(L, [1.0, 2.0])
        h = a * 2
        h.register_hook(lambda g: g * 5)
        s = (h * h).sum()
        return L.autograd.grad(s, [a], retain_graph=True), L.autograd.grad(s, [h])
    assert_close(*both(program))


def test_leaf_hook_runs_with_autograd_grad():
    def program(L):
        a = data(L, [1.0, 2.0])
        h = a * 2
        h.register_hook(lambda g: g * 5)
        a.register_hook(lambda g: g + 1)
        return L.autograd.grad((h * h).sum(), [a])
    assert_close(*both(program))


# --- errors ---------------------------------------------------------------------------------------

def test_implicit_grad_non_scalar_error():
    same_error(lambda L: (data(L, [1.0, 2.0]) * 2).backward())


def test_implicit_grad_non_scalar_error_autograd_grad():
    def program(L):
        a = data(L, [1.0, 2.0])
        L.autograd.grad(a * 2, [a])
    same_error(program)


def test_gradient_shape_mismatch_error():
    same_error(lambda L: (data(L, [1.0, 2.0]) * 2).backward(L.ones(3, dtype=L.float64)))


def test_gradient_shape_mismatch_error_2d():
    same_error(lambda L: (data(L, [[1.0, 2.0]]) * 2).backward(L.ones(2, 1, dtype=L.float64)))


def test_second_backward_after_free_error():
    def program(L):
        s = (data(L, [1.0, 2.0]).exp()).sum()
        s.backward()
        s.backward()
    ours, theirs = both(lambda L: full_error_of(lambda: program(L)))
    assert ours == theirs


def test_second_autograd_grad_after_free_error():
    def program(L):
        a = data(L, [1.0, 2.0])
        s = (a * a).sum()
        L.autograd.grad(s, [a])
        L.autograd.grad(s, [a])
    same_error(program)


@pytest.mark.parametrize("make", ["add_scalar", "sub", "neg", "clone", "slice"])
def test_no_error_on_second_backward_when_nothing_saved(make):
    def program(L):
        a = data(L, [1.0, 2.0])
        y = {"add_scalar": lambda: a + 2, "sub": lambda: a - a, "neg": lambda: -a,
             "clone": lambda: a.clone(), "slice": lambda: a[1:]}[make]()
        s = y.sum()
        s.backward()
        s.backward()
        return a.grad
    assert_close(*both(program))


@pytest.mark.parametrize("op", ["mul", "div"])
def test_second_backward_through_scalar_mul_div_error(op):
    def program(L):
        a = data(L, [1.0, 2.0])
        s = (a * 2.0 if op == "mul" else a / 2.0).sum()
        s.backward()
        s.backward()
    same_error(program)


def test_backward_on_tensor_not_requiring_grad_error():
    same_error(lambda L: L.ones(2).sum().backward())


def test_autograd_grad_on_output_not_requiring_grad_error():
    same_error(lambda L: L.autograd.grad(L.ones(2).sum(), [data(L, [1.0])]))


def test_backward_second_element_not_requiring_grad_error():
    same_error(lambda L: L.autograd.backward([data(L, [1.0]).sum(), L.ones(1).sum()]))


# --- more hook and accumulation details ----------------------------------------------------------

def test_retain_grad_sees_gradient_after_hooks():
    def program(L):
        x = data(L, [1.0, 2.0])
        h = x * 3
        h.retain_grad()
        h.register_hook(lambda g: g * 2)  # registered later, still runs before the retain
        calls = []
        x.register_hook(lambda g: calls.append(g.clone()))
        (h * h + x * x).sum().backward()
        return h.grad, x.grad, calls
    assert_close(*both(program))


def test_leaf_hook_runs_once_with_summed_gradient():
    def program(L):
        x = data(L, [1.0, 2.0])
        calls = []
        x.register_hook(lambda g: calls.append(g.clone()))
        (x * x + x.exp() + x * 3).sum().backward()
        return calls, x.grad
    ours, theirs = both(program)
    assert len(ours[0]) == 1
    assert_close(ours, theirs)


def test_user_assigned_grad_is_accumulated_in_place():
    def program(L):
        x = data(L, [1.0, 2.0])
        t = L.ones(2, dtype=L.float64)
        x.grad = t
        (x * 5).sum().backward()
        return t is x.grad, t
    assert_close(*both(program))


def test_post_accumulate_grad_hook():
    def program(L):
        x = data(L, [1.0, 2.0])
        seen = []
        x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
        (x * 1).sum().backward()
        (x * 2).sum().backward()
        return seen
    assert_close(*both(program))


def test_hooks_before_and_after_inplace():
    # a hook registered before an in-place op sees the gradient of the old value
    def program(L):
        x = data(L, [1.0, 2.0])
        y = x * 2
        before, after = [], []
        y.register_hook(lambda g: before.append(g.clone()))
        y.mul_(3)
        y.register_hook(lambda g: after.append(g.clone()))
        (y * data(L, [1.0, 10.0], requires_grad=False)).sum().backward()
        return before, after, x.grad
    assert_close(*both(program))


def test_complex_backward():
    def program(L):
        z = L.from_numpy(np.array([1 + 2j, -0.5 + 1j])).requires_grad_()
        c = L.from_numpy(np.array([1 - 1j, 2 + 0.5j]))
        y = (z * z.conj()).real.sum() + (z * c).real.sum() + (z.exp() * c).real.sum()
        y.backward()
        return z.grad
    assert_close(*both(program))


def test_complex_python_scalar_backward():
    def program(L):
        z = L.from_numpy(np.array([1 + 2j, -0.5 + 1j])).requires_grad_()
        (z * (1 - 1j) + 2j).real.sum().backward()
        z.imag.sum().backward()
        return z.grad
    assert_close(*both(program))
