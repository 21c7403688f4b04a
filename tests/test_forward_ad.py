"""``autograd.forward_ad``, checked live against PyTorch 2.13's ``torch.autograd.forward_ad``.

Each program runs with both libraries (``helpers.both``): the level API and its errors,
tangents through ops, views and in-place ops, non-differentiable outputs, and the two
mixed modes: backward through a tangent (reverse over forward: Hessian-vector products)
and a tangent through backward (forward over reverse). Every op's tangent is compared in
test_ops_forward_ad.py.
"""
import numpy as np
import pytest

import chainrule
from chainrule._core import modes as _modes
from chainrule._ops import registry
from chainrule.autograd import forward_ad

from helpers import assert_close, both, data, full_error_of, require_torch


def fw(L):
    return L.autograd.forward_ad


def dual(L, values, tangent, dtype="float64", requires_grad=False):
    return fw(L).make_dual(data(L, values, requires_grad, dtype), data(L, tangent, False, dtype))


def run(program):
    """``program(L)`` inside a dual level, for both libraries; returns both results."""
    def inside(L):
        with fw(L).dual_level():
            return program(L)
    return both(inside)


def same(program, rtol=1e-7, atol=1e-10):
    ours, theirs = run(program)
    assert_close(ours, theirs, rtol, atol)


def unpacked(L, t):
    return tuple(fw(L).unpack_dual(t))


def same_error(program):
    ours, theirs = both(lambda L: full_error_of(lambda: program(L)))
    assert ours == theirs


@pytest.fixture(autouse=True)
def no_level_left():
    """A failed test must not leave a level open for the next one."""
    yield
    if _modes.FORWARD_AD.level >= 0:
        forward_ad.exit_dual_level()
    torch = require_torch()
    if torch.autograd.forward_ad._current_level >= 0:
        torch.autograd.forward_ad.exit_dual_level()


# --- the level API ---------------------------------------------------------------------------


def test_sin_tangent_is_cos():
    same(lambda L: unpacked(L, dual(L, [0.0, 1.0, 2.0], [1.0, 1.0, 0.5]).sin()))


def test_composite_function():
    def program(L):
        x = dual(L, [[0.5, -1.0], [2.0, 0.25]], [[1.0, 0.0], [0.5, -2.0]])
        y = L.tanh(x @ x.T).softmax(-1) * x.exp() + x.sum()
        return unpacked(L, y.mean(0))
    same(program)


def test_levels_are_numbered_from_zero():
    def program(L):
        with fw(L).dual_level() as first:
            pass
        second = fw(L).enter_dual_level()
        fw(L).exit_dual_level(level=second)
        return first, second
    ours, theirs = both(program)
    assert ours == theirs == (0, 0)


def test_dual_level_decorates():
    def program(L):
        @fw(L).dual_level()
        def f(x, v):
            return fw(L).unpack_dual(fw(L).make_dual(x, v) ** 2).tangent
        return f(data(L, [1.0, 3.0]), data(L, [1.0, 1.0], False))
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_exit_drops_tangents():
    def program(L):
        with fw(L).dual_level():
            y = dual(L, [1.0, 2.0], [1.0, 1.0]) * 3
            inside = fw(L).unpack_dual(y).tangent
        after = fw(L).unpack_dual(y)
        with fw(L).dual_level():
            again = fw(L).unpack_dual(y).tangent
        return inside, after.primal, after.tangent, again
    ours, theirs = both(program)
    assert_close(ours, theirs)
    assert ours[2] is None and ours[3] is None
    assert not _modes.FORWARD_AD.active and not _modes.FORWARD_AD.duals


def test_unpack_outside_a_level_returns_the_tensor():
    def program(L):
        x = data(L, [1.0, 2.0])
        primal, tangent = fw(L).unpack_dual(x)
        return primal is x, tangent
    ours, theirs = both(program)
    assert ours == theirs == (True, None)


def test_unpacked_dual_tensor_is_a_named_tuple():
    def program(L):
        result = fw(L).unpack_dual(dual(L, [1.0], [2.0]))
        return type(result).__name__, result._fields, result.primal.tolist(), result.tangent.tolist()
    ours, theirs = run(program)
    assert ours == theirs


def test_make_dual_is_a_view_that_keeps_its_tangent():
    def program(L):
        x, v = data(L, [1.0, 2.0]), data(L, [0.5, 0.5], False)
        d = fw(L).make_dual(x, v)
        primal, tangent = fw(L).unpack_dual(d)
        return (d is x, d._base is x, tangent is v, primal._base is x, d.grad_fn.name(), primal.grad_fn.name(),
                d.requires_grad)
    ours, theirs = run(program)
    assert ours == theirs


def test_make_dual_copies_a_tangent_laid_out_otherwise():
    def program(L):
        v = data(L, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], False).t()
        tangent = fw(L).unpack_dual(fw(L).make_dual(data(L, [[1.0] * 3] * 2, False), v)).tangent
        return tangent is v, tangent
    ours, theirs = run(program)
    assert_close(ours, theirs)


def test_tangent_keeps_its_own_dtype():
    def program(L):
        x = fw(L).make_dual(L.ones(2), L.ones(2, dtype=L.float64))
        return [str(t.dtype) for t in (fw(L).unpack_dual(x).tangent, fw(L).unpack_dual(x * 2).tangent,
                                       fw(L).unpack_dual(x.exp()).tangent)]
    ours, theirs = run(program)
    assert ours == theirs


# --- errors ------------------------------------------------------------------------------------


def test_make_dual_outside_a_level():
    same_error(lambda L: fw(L).make_dual(data(L, [1.0]), data(L, [1.0])))


def in_level(program):
    def inside(L):
        with fw(L).dual_level():
            return program(L)
    return inside


@pytest.mark.parametrize("case", ["int_primal", "int_tangent", "shape", "0d_tangent", "level", "dual_of_dual",
                                  "dual_tangent", "nested"])
def test_make_dual_errors(case):
    def program(L):
        x, v = data(L, [1.0, 2.0]), data(L, [1.0, 1.0])
        if case == "int_primal":
            return fw(L).make_dual(data(L, [1, 2], dtype="int64"), v)
        if case == "int_tangent":
            return fw(L).make_dual(x, data(L, [1, 2], dtype="int64"))
        if case == "shape":
            return fw(L).make_dual(x, data(L, [1.0, 2.0, 3.0]))
        if case == "0d_tangent":
            return fw(L).make_dual(x, data(L, 1.0))
        if case == "level":
            return fw(L).make_dual(x, v, level=3)
        if case == "dual_of_dual":
            return fw(L).make_dual(fw(L).make_dual(x, v), v)
        if case == "dual_tangent":
            return fw(L).make_dual(x, fw(L).make_dual(data(L, [0.0, 0.0]), v))
        return fw(L).enter_dual_level()
    same_error(in_level(program))


def test_exit_errors():
    same_error(lambda L: fw(L).exit_dual_level())
    same_error(in_level(lambda L: fw(L).exit_dual_level(level=1)))


def test_unpack_at_another_level():
    """A plain tensor unpacks at any level; a dual one only at its own."""
    def program(L):
        return fw(L).unpack_dual(data(L, [1.0]), level=2).tangent, fw(L).unpack_dual(data(L, [1.0]), level=-1).tangent
    ours, theirs = run(program)
    assert ours == theirs == (None, None)
    same_error(in_level(lambda L: fw(L).unpack_dual(dual(L, [1.0], [1.0]), level=1)))


@pytest.mark.parametrize("op", ["floor_divide", "heaviside", "rremainder", "bincount", "unique",
                                "unique_consecutive"])
def test_ops_without_forward_ad_refuse(op):
    def program(L):
        x = dual(L, [1.0, 2.0, 2.0], [1.0, 1.0, 1.0])
        return {"floor_divide": lambda: x // 3.0, "heaviside": lambda: L.heaviside(x, data(L, [0.5], False)),
                "rremainder": lambda: 3.0 % x, "bincount": lambda: L.bincount(L.tensor([0, 1, 1]), weights=x),
                "unique": lambda: L.unique(x), "unique_consecutive": lambda: L.unique_consecutive(x)}[op]()
    same_error(in_level(program))


def test_a_missing_jvp_rule_is_named():
    """A registered op without a rule for an input that has a tangent says so as PyTorch does
    for ops without a forward-AD formula (here ``_cdist_forward``, which PyTorch lacks)."""
    op = registry.Op("_cdist_forward", np.add, "CdistBackward0", (None, None), (None, None), None, False, False,
                     False)
    torch = require_torch()
    with forward_ad.dual_level():
        x = dual(chainrule, [1.0], [1.0])
        ours = full_error_of(lambda: registry.apply(op, (x, x)))
    with torch.autograd.forward_ad.dual_level():
        y = dual(torch, [[1.0]], [[1.0]])
        theirs = full_error_of(lambda: torch.cdist(y, y))
    assert ours == theirs


def test_every_op_has_jvp_rules():
    """One rule per tensor input; None only for inputs that never carry a tangent."""
    never_differentiable = {("where", 0)}  # the condition: a bool tensor
    missing = [(name, i) for name, op in registry.OPS.items() for i, rule in enumerate(op.jvp)
               if rule is None and (name, i) not in never_differentiable]
    short = [name for name, op in registry.OPS.items() if len(op.jvp) != len(op.vjp)]
    assert not missing and not short, (missing, short)


# --- which outputs get a tangent ----------------------------------------------------------------------


def test_int_and_bool_results_have_no_tangent():
    def program(L):
        x = dual(L, [3.0, 1.0, 2.0], [1.0, 2.0, 3.0])
        return [fw(L).unpack_dual(t).tangent for t in (x.argmax(), x > 1, x.long(), x.sort().indices)]
    ours, theirs = run(program)
    assert ours == theirs == [None] * 4


def test_multi_output_ops():
    def program(L):
        x = dual(L, [[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        outs = (*x.sort(1), *x.max(1), *x.split([1, 2], 1), *x.unbind(0), *L.linalg.qr(x.T))
        return [unpacked(L, o) for o in outs]
    same(program)


def test_inputs_without_tangent_contribute_nothing():
    def program(L):
        x, y = dual(L, [1.0, 2.0], [1.0, -1.0]), data(L, [3.0, 4.0])
        return unpacked(L, x * y + y.exp()), fw(L).unpack_dual(y * 2).tangent
    same(program)


def test_broadcast_tangent_takes_the_output_shape():
    def program(L):
        x = dual(L, [[1.0], [2.0]], [[1.0], [-1.0]])
        out = x + data(L, [[0.0, 1.0, 2.0]] * 2)
        primal, tangent = fw(L).unpack_dual(out)
        return tangent, tuple(tangent.shape), tangent.stride()
    same(program)


def test_forward_ad_runs_under_no_grad():
    def program(L):
        x = dual(L, [1.0, 2.0], [1.0, 1.0], requires_grad=True)
        with L.no_grad():
            y = x * x
        return unpacked(L, y), y.requires_grad
    same(program)


def test_detach_and_data_drop_the_tangent():
    def program(L):
        x = dual(L, [1.0, 2.0], [1.0, 1.0])
        return fw(L).unpack_dual(x.detach()).tangent, fw(L).unpack_dual(x.data).tangent
    ours, theirs = run(program)
    assert ours == theirs == (None, None)


def test_op_tangent_never_aliases_an_input_tangent():
    def program(L):
        x = dual(L, [1.0, 2.0], [1.0, 1.0])
        y = x + 0
        y.mul_(2)
        return unpacked(L, x), unpacked(L, y)
    same(program)


# --- views and in-place ops --------------------------------------------------------------------------------


def test_view_tangent_is_the_view_of_the_tangent():
    def program(L):
        v = data(L, [1.0, 2.0, 3.0, 4.0], False)
        view = fw(L).make_dual(data(L, [0.0] * 4), v)[1:].view(3, 1)
        tangent = fw(L).unpack_dual(view).tangent
        v.mul_(10)  # the tangent shares memory with v
        return tangent
    same(program)


def test_inplace_updates_the_tangent_given_to_make_dual():
    def program(L):
        v = data(L, [1.0, 1.0, 1.0], False)
        d = fw(L).make_dual(data(L, [1.0, 2.0, 3.0], False), v)
        d.mul_(2).sin_()
        return unpacked(L, d), v, fw(L).unpack_dual(d).tangent is v
    same(program)


def test_inplace_through_a_view_updates_the_base():
    def program(L):
        b = dual(L, [1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0])
        early = b[2:]
        view = b[1:3]
        view.mul_(5)
        return unpacked(L, b), unpacked(L, view), unpacked(L, early)
    same(program)


def test_inplace_on_base_shows_in_views():
    def program(L):
        e = dual(L, [1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0])
        view = e[:2]
        e.mul_(2)
        return unpacked(L, view)
    same(program)


def test_plain_tensor_becomes_dual_in_place():
    def program(L):
        f = data(L, [1.0, 2.0, 3.0, 4.0], False)
        early = f[:2]
        f.mul_(dual(L, 2.0, 1.0))
        return unpacked(L, f), unpacked(L, early)
    same(program)


def test_write_into_a_view_of_a_plain_tensor():
    def program(L):
        h = L.zeros(4, dtype=L.float64)
        h[1:].mul_(dual(L, [1.0, 2.0, 3.0], [0.1, 0.2, 0.3]))
        c = L.zeros(4, dtype=L.float64)
        c[1:3] = dual(L, [1.0, 2.0], [7.0, 8.0])
        g = L.zeros(4, dtype=L.float64)
        g[1:].copy_(dual(L, [1.0, 2.0, 3.0], [0.1, 0.2, 0.3]))
        return unpacked(L, h), unpacked(L, c), unpacked(L, g)
    same(program)


def test_writes_without_tangent_zero_it():
    def program(L):
        a = dual(L, [1.0, 2.0], [1.0, 1.0])
        a.copy_(data(L, [3.0, 4.0]))
        b = dual(L, [1.0, 2.0], [1.0, 1.0])
        b.zero_()
        c = dual(L, [1.0, 2.0], [1.0, 1.0])
        c[0] = 5.0
        return unpacked(L, a), unpacked(L, b), unpacked(L, c)
    same(program)


def test_inplace_view_ops_reshape_the_tangent():
    def program(L):
        x = dual(L, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]) * 1
        x.t_().unsqueeze_(0)
        return unpacked(L, x)
    same(program)


def test_inplace_on_a_dual_whose_tangent_is_a_leaf_that_requires_grad():
    def program(L):
        d = fw(L).make_dual(data(L, [1.0, 2.0], False), data(L, [1.0, 1.0]))
        return d.mul_(2)
    same_error(in_level(program))


# --- mixing forward and reverse mode ----------------------------------------------------------------------


def test_backward_through_a_tangent_gives_hessian_vector_products():
    def program(L):
        x = data(L, [0.5, 1.0, 2.0])
        y = (fw(L).make_dual(x, data(L, [1.0, 0.0, -1.0], False)).sin() * x.exp()).sum()
        tangent = fw(L).unpack_dual(y).tangent
        tangent.backward()
        return tangent, tangent.grad_fn.name(), x.grad
    same(program)


def test_gradient_with_respect_to_the_tangent():
    def program(L):
        x, v = data(L, [1.0, 2.0]), data(L, [1.0, 1.0])
        y = fw(L).make_dual(x, v) ** 3
        tangent = fw(L).unpack_dual(y).tangent
        return L.autograd.grad(tangent.sum(), (x, v))
    same(program)


def test_tangent_of_a_tangent():
    """The tangent's own graph differentiated twice: d/dx of (d/dx f)·v, then again."""
    def program(L):
        x = data(L, [0.5, 1.5])
        tangent = fw(L).unpack_dual(fw(L).make_dual(x, L.ones_like(x)).exp().sin()).tangent
        first, = L.autograd.grad(tangent.sum(), x, create_graph=True)
        second, = L.autograd.grad(first.sum(), x)
        return tangent, first, second
    same(program)


def test_tangent_through_backward():
    """Forward over reverse: the gradient computed inside a level carries H v."""
    def program(L):
        x0 = data(L, [0.5, 1.0, 2.0])
        x = fw(L).make_dual(x0, data(L, [1.0, 0.0, -1.0], False))
        y = (x.exp() * x.sin()).sum()
        g0, = L.autograd.grad(y, x0, create_graph=True)
        g, = L.autograd.grad(y, x, create_graph=True)
        return unpacked(L, g0), unpacked(L, g)
    same(program)


def test_complex_input_real_output():
    def program(L):
        z = fw(L).make_dual(L.tensor([1.0 + 1.0j, -2.0j]), L.tensor([1.0j, 1.0 + 0.5j]))
        return unpacked(L, z.abs()), unpacked(L, z * z.conj())
    same(program, rtol=1e-6, atol=1e-7)


@pytest.mark.torch
@pytest.mark.parametrize("name", ["tanh", "sigmoid", "sin", "exp", "log", "sqrt", "reciprocal"])
def test_complex_tangent_is_the_derivative_not_its_conjugate(name):
    """A holomorphic op's tangent is t * f'(z) (its vjp multiplies by conj(f'(z))): tanh's and
    sigmoid's were conjugated once, written through their backward kernels."""
    torch = require_torch()
    z, t = np.array([0.3 + 0.8j, -1.2 + 0.4j]), np.array([0.5 - 0.2j, 1.0 + 1.0j])
    tangents = []
    for lib in (chainrule, torch):
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            x = fwd.make_dual(lib.tensor(z), lib.tensor(t))
            tangents.append(fwd.unpack_dual(getattr(lib, name)(x)).tangent.numpy())
    np.testing.assert_allclose(tangents[0], tangents[1], rtol=1e-12)


@pytest.mark.parametrize("transform", ["grad", "vjp", "jacrev"])
def test_a_dual_level_differentiates_through_func_transforms(transform):
    """A dual tensor made by make_dual (not inside func.jvp) keeps its tangent through the reverse
    transforms, as in PyTorch: forward over reverse by hand."""
    def program(lib):
        fw = lib.autograd.forward_ad
        f = lambda z: (z * z * z).sum() if transform == "grad" else z * z * z
        with fw.dual_level():
            primal = lib.tensor([1.0, 2.0, -0.5], dtype=lib.float64)
            x = fw.make_dual(primal, lib.tensor([1.0, -1.0, 2.0], dtype=lib.float64))
            if transform == "grad":
                out = lib.func.grad(f)(x)
            elif transform == "vjp":
                out = lib.func.vjp(f, x)[1](lib.ones(3, dtype=lib.float64))[0]
            else:
                out = lib.func.jacrev(f)(x)
            primal, tangent = fw.unpack_dual(out)
            return primal.detach(), None if tangent is None else tangent.detach()
    ours, theirs = both(program)
    assert ours[1] is not None
    assert_close(ours, theirs)
