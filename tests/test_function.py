"""Custom ``autograd.Function``: each program runs on chainrule and on PyTorch (``both``),
and values, gradients, node names, hook calls and errors must agree.

The Function classes are made inside the programs, from ``L.autograd.Function``, so
one class body serves both libraries.
"""
import re
import warnings

import pytest

from helpers import assert_close, both, data, full_error_of


def _addr(text):
    return re.sub(r"0x[0-9a-f]+", "0x", text)


def _names(node):
    """``next_functions`` as (name, output index) pairs."""
    return [(n.name() if n is not None else None, i) for n, i in node.next_functions]


def cube_class(L):
    class Cube(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            ctx.save_for_backward(x)
            ctx.k = k
            return x ** 3 * k

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 3 * x ** 2 * g * ctx.k, None
    return Cube


def two_class(L, materialize=True):
    class Two(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.set_materialize_grads(materialize)
            ctx.save_for_backward(x, y)
            return x * y, x + y

        @staticmethod
        def backward(ctx, g_mul, g_add):
            x, y = ctx.saved_tensors
            ctx.seen = (g_mul, g_add)
            gx = gy = 0
            if g_mul is not None:
                gx, gy = g_mul * y, g_mul * x
            if g_add is not None:
                gx, gy = gx + g_add, gy + g_add
            return gx, gy
    return Two


# --- the basics ---------------------------------------------------------------------------

def test_forward_backward_ctx_and_names():
    def program(L):
        x = data(L, [1.0, 2.0, -1.5])
        y = cube_class(L).apply(x, 2.0)
        node = y.grad_fn
        facts = (node.name(), _addr(repr(node)), _names(node), node.needs_input_grad, node.k, repr(y))
        y.sum().backward()
        return facts, y, x.grad
    (ours, *rest), (theirs, *rest_t) = both(program)
    assert ours == theirs
    assert_close(rest, rest_t)


def test_setup_context_style_binds_defaults():
    def program(L):
        class Scale(L.autograd.Function):
            @staticmethod
            def forward(x, factor=3.0):
                return x * factor

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.seen = (len(inputs), inputs[1], output.requires_grad)
                ctx.factor = inputs[1]

            @staticmethod
            def backward(ctx, g):
                return g * ctx.factor, None
        x = data(L, [1.0, 2.0])
        y = Scale.apply(x)
        seen = y.grad_fn.seen
        y.sum().backward()
        return seen, y.grad_fn.name(), x.grad
    ours, theirs = both(program)
    assert ours[:2] == theirs[:2]
    assert_close(ours[2], theirs[2])


def test_keyword_arguments_become_inputs():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x, k=1.0, s=2.0):
                ctx.needs = ctx.needs_input_grad
                return x * k * s

            @staticmethod
            def backward(ctx, g):
                return g, None, None
        x = data(L, [1.0, 2.0])
        y = F.apply(k=3.0, x=x)
        return y, y.grad_fn.needs, full_error_of(lambda: F.apply(x, s=1.0)), \
            full_error_of(lambda: F.apply(x, z=1.0))
    ours, theirs = both(program)
    assert ours[1:] == theirs[1:]
    assert_close(ours[0], theirs[0])


def test_no_grad_and_inputs_without_grad():
    def program(L):
        Cube = cube_class(L)
        x = data(L, [1.0, 2.0])
        with L.no_grad():
            a = Cube.apply(x, 1.0)
        b = Cube.apply(data(L, [1.0], requires_grad=False), 1.0)
        return a.requires_grad, a.grad_fn, b.requires_grad, b.grad_fn
    ours, theirs = both(program)
    assert ours == theirs


def test_forward_runs_without_grad_mode():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mode = L.is_grad_enabled()
                inner = x * 2
                ctx.inner = inner.requires_grad
                return inner

            @staticmethod
            def backward(ctx, g):
                ctx.backward_mode = L.is_grad_enabled()
                return g * 2
        x = data(L, [1.0])
        y = F.apply(x)
        y.backward(L.ones_like(y))
        return y.grad_fn.mode, y.grad_fn.inner, y.grad_fn.backward_mode
    ours, theirs = both(program)
    assert ours == theirs


# --- several outputs ------------------------------------------------------------------------

@pytest.mark.parametrize("materialize", [True, False])
@pytest.mark.parametrize("use", ["both", "mul", "add"])
def test_two_outputs(use, materialize):
    def program(L):
        x, y = data(L, [1.0, 2.0]), data(L, [3.0, -1.0])
        m, a = two_class(L, materialize).apply(x, y)
        loss = {"both": (m * a).sum(), "mul": m.sum(), "add": (a * a).sum()}[use]
        loss.backward()
        seen = m.grad_fn.seen
        return [None if g is None else g for g in seen], x.grad, y.grad, m.grad_fn.name(), a.grad_fn.name()
    ours, theirs = both(program)
    assert ours[3:] == theirs[3:]
    assert_close(ours[:3], theirs[:3])


def test_two_outputs_graph_structure_and_grad():
    def program(L):
        x, y = data(L, [1.0, 2.0]), data(L, [3.0, -1.0])
        m, a = two_class(L).apply(x, y)
        z = m * 2 + a
        first = z.grad_fn.next_functions[0][0]
        facts = (_names(z.grad_fn), _names(first), _names(m.grad_fn))
        grads = L.autograd.grad(z.sum(), [a, m, x])
        return facts, grads
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1], theirs[1])


def test_tensor_hooks_and_retain_grad_on_one_output():
    def program(L):
        calls = []
        x, y = data(L, [1.0, 2.0]), data(L, [3.0, -1.0])
        m, a = two_class(L).apply(x, y)
        a.register_hook(lambda g: calls.append(("a", g.tolist())) or g * 10)
        m.retain_grad()
        m.grad_fn.register_prehook(lambda go: calls.append(("pre", [g.tolist() for g in go])))
        m.grad_fn.register_hook(lambda gi, go: calls.append(("post", [g.tolist() for g in gi],
                                                             [g.tolist() for g in go])))
        (m + 2 * a).sum().backward()
        return calls, m.grad, x.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1:], theirs[1:])


def test_prehook_may_replace_gradients():
    def program(L):
        x, y = data(L, [1.0, 2.0]), data(L, [3.0, -1.0])
        m, a = two_class(L).apply(x, y)
        m.grad_fn.register_prehook(lambda go: (go[0] * 0, go[1] * 3))
        (m + a).sum().backward()
        return x.grad, y.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_chained_multi_output_functions():
    def program(L):
        x, y = data(L, [1.0, 2.0]), data(L, [3.0, -1.0])
        Two = two_class(L)
        m, a = Two.apply(x, y)
        m2, a2 = Two.apply(m, a)
        (m2 * a + a2).sum().backward()
        return x.grad, y.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_non_tensor_outputs():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2, 5, "s"

            @staticmethod
            def backward(ctx, g, g_int, g_str):
                ctx.seen = (g_int, g_str)
                return g * 2
        x = data(L, [1.0, 2.0])
        out = F.apply(x)
        out[0].sum().backward()
        return out[1:], out[0].grad_fn.seen, x.grad

    ours, theirs = both(program)
    assert ours[:2] == theirs[:2]
    assert_close(ours[2], theirs[2])


def test_list_output_is_not_recorded():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return [x * 2, x * 3]

            @staticmethod
            def backward(ctx, g):
                return g
        out = F.apply(data(L, [1.0]))
        return type(out).__name__, [t.requires_grad for t in out]
    ours, theirs = both(program)
    assert ours == theirs


# --- ctx.mark_* --------------------------------------------------------------------------------

def test_mark_non_differentiable():
    def program(L):
        class Sort(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                values, indices = x.sort()
                ctx.mark_non_differentiable(indices)
                ctx.save_for_backward(indices)
                return values, indices

            @staticmethod
            def backward(ctx, g_values, g_indices):
                ctx.seen = (g_indices.tolist(), str(g_indices.dtype))
                indices, = ctx.saved_tensors
                result = L.zeros_like(g_values)
                result[indices] = g_values
                return result
        x = data(L, [3.0, 1.0, 2.0])
        values, indices = Sort.apply(x)
        (values * data(L, [1.0, 2.0, 3.0], requires_grad=False)).sum().backward()
        return (indices.requires_grad, indices.grad_fn, values.grad_fn.seen), values, x.grad
    ours, theirs = both(program)
    assert ours[0][:2] == theirs[0][:2]
    assert ours[0][2][0] == theirs[0][2][0]
    assert_close(ours[1:], theirs[1:])


def add_one_class(L, returned=True):
    class AddOne(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x if returned else x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 3
    return AddOne


def test_mark_dirty_in_place():
    def program(L):
        leaf = data(L, [1.0, 2.0])
        d = leaf * 1
        before = d._version
        e = add_one_class(L).apply(d)
        facts = (e is d, before, d._version, d.grad_fn.name())
        e.sum().backward()
        return facts, e, leaf.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1:], theirs[1:])


@pytest.mark.parametrize("case", ["leaf", "not_returned", "not_returned_no_grad"])
def test_mark_dirty_errors(case):
    def program(L):
        leaf = data(L, [1.0, 2.0], requires_grad=case != "not_returned_no_grad")
        AddOne = add_one_class(L, returned=case == "leaf")
        return full_error_of(lambda: AddOne.apply(leaf if case != "not_returned" else leaf * 1))
    ours, theirs = both(program)
    assert ours == theirs


def test_input_returned_unchanged_is_a_new_tensor():
    def program(L):
        class Ident(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, g):
                return g * 5
        x = data(L, [1.0, 2.0])
        y = Ident.apply(x)
        facts = (y is x, y.grad_fn.name(), x.grad_fn)
        y.sum().backward()
        return facts, x.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1], theirs[1])


# --- saved tensors ---------------------------------------------------------------------------

def exp_class(L):
    class Exp(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            y, = ctx.saved_tensors
            ctx.saved_info = (y.requires_grad, y.grad_fn.name())
            return g * y
    return Exp


def test_saved_output_is_rebuilt_with_the_node():
    def program(L):
        x = data(L, [0.5, 1.0])
        y = exp_class(L).apply(x)
        y.sum().backward(retain_graph=True)
        info = y.grad_fn.saved_info
        y.sum().backward()
        return info, x.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1], theirs[1])


def test_backward_twice_and_freed_saved_tensors():
    def program(L):
        x = data(L, [1.0, 2.0])
        y = cube_class(L).apply(x, 1.0)
        y.sum().backward()
        return full_error_of(lambda: y.sum().backward()), full_error_of(lambda: y.grad_fn.saved_tensors)
    ours, theirs = both(program)
    assert ours == theirs


def test_no_saved_tensors_backward_twice_is_fine():
    def program(L):
        class Double(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        x = data(L, [1.0])
        y = Double.apply(x)
        y.backward()
        y.backward()
        return x.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


@pytest.mark.parametrize("which", ["output", "non_leaf_input", "leaf_input"])
def test_saved_tensor_modified_in_place(which):
    def program(L):
        class SaveIn(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                ctx.saved_tensors  # noqa: B018  (reading them is what is checked)
                return g
        leaf = data(L, [1.0, 2.0, 3.0], dtype="float32")
        if which == "output":
            out = exp_class(L).apply(leaf)
            target = out
        else:
            target = leaf * 1 if which == "non_leaf_input" else leaf
            out = SaveIn.apply(target)
        with L.no_grad():
            target.mul_(2)
        return full_error_of(lambda: out.sum().backward())
    ours, theirs = both(program)
    assert ours == theirs


def test_save_for_backward_none_intermediate_and_bad_type():
    def program(L):
        class Save(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, None, x * 5)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                x, nothing, five = ctx.saved_tensors
                ctx.seen = (nothing, x.requires_grad, five.tolist())
                return g * 2

        class Bad(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x, 3)
                return x
        x = data(L, [1.0, 2.0])
        y = Save.apply(x)
        y.sum().backward()
        return y.grad_fn.seen, full_error_of(lambda: Bad.apply(x))
    ours, theirs = both(program)
    assert ours == theirs


# --- misuse ---------------------------------------------------------------------------------

def _function_with_backward(L, backward, n_inputs=1):
    class F(L.autograd.Function):
        @staticmethod
        def forward(ctx, *args):
            return args[0] * 2

    F.backward = staticmethod(backward)
    F.__name__ = "F"
    return F


BAD_BACKWARDS = {
    "too_few": (lambda L: lambda ctx, g: g, 2),
    "too_many": (lambda L: lambda ctx, g: (g, g), 1),
    "extra_nones": (lambda L: lambda ctx, g: (g, None, None), 1),
    "grad_for_number": (lambda L: lambda ctx, g: (g, g), "number"),
    "wrong_shape": (lambda L: lambda ctx, g: L.ones(3), 1),
    "broadcast_shape": (lambda L: lambda ctx, g: L.ones(3, 2), 1),
    "not_expandable": (lambda L: lambda ctx, g: L.ones(1), 1),
    "not_a_tensor": (lambda L: lambda ctx, g: 3, 1),
    "float64_for_float32": (lambda L: lambda ctx, g: g.double(), 1),
}


@pytest.mark.parametrize("case", sorted(BAD_BACKWARDS))
def test_backward_results_checked(case):
    make, n = BAD_BACKWARDS[case]

    def program(L):
        F = _function_with_backward(L, make(L))
        a = data(L, [1.0, 2.0], dtype="float32")
        args = (a, 2.0) if n == "number" else (a,) * n
        try:
            F.apply(*args).sum().backward()
        except Exception as e:  # noqa: BLE001
            return type(e), str(e), None
        return None, None, (a.grad, str(a.grad.dtype))
    ours, theirs = both(program)
    assert ours[:2] == theirs[:2]
    if ours[2] is not None:
        assert ours[2][1] == theirs[2][1]
        assert_close(ours[2][0], theirs[2][0])


def test_missing_forward_and_backward():
    def program(L):
        class NoForward(L.autograd.Function):
            pass

        class NoBackward(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

        class Both(NoBackward):
            @staticmethod
            def backward(ctx, g):
                return g

            @staticmethod
            def vjp(ctx, g):
                return g
        x = data(L, [1.0])
        return (full_error_of(lambda: NoForward.apply(x)), full_error_of(lambda: NoBackward.apply(x).backward()),
                full_error_of(lambda: Both.apply(x).backward()))
    ours, theirs = both(program)
    assert ours == theirs


def test_vjp_name_works_as_backward():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def vjp(ctx, g):
                return g * 2
        x = data(L, [1.0, 3.0])
        F.apply(x).sum().backward()
        return x.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_instantiating_warns_and_calling_is_legacy():
    def program(L):
        Cube = cube_class(L)

        class Legacy(L.autograd.Function):
            def forward(self, x):
                return x
        x = data(L, [1.0])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            instance = Cube()
        warning = (caught[0].category, re.sub(r"<class '[^']*'>", "<class>", str(caught[0].message)))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            legacy = full_error_of(lambda: Legacy()(x))
        return warning, full_error_of(lambda: instance(x, 1.0)), legacy, Legacy.apply(x).grad_fn.name()
    ours, theirs = both(program)
    assert ours == theirs


# --- higher order -----------------------------------------------------------------------------

def test_create_graph_through_a_function():
    def program(L):
        x = data(L, [1.0, 2.0, -0.5])
        y = cube_class(L).apply(x, 2.0)
        g, = L.autograd.grad(y.sum(), x, create_graph=True)
        g2, = L.autograd.grad(g.sum(), x, create_graph=True)
        g3, = L.autograd.grad(g2.sum(), x)
        return g, g2, g3, g.grad_fn.name()
    ours, theirs = both(program)
    assert ours[3] == theirs[3]
    assert_close(ours[:3], theirs[:3])


def once_class(L):
    class CubeOnce(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        @L.autograd.function.once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            ctx.mode = L.is_grad_enabled()
            return 3 * x ** 2 * g
    return CubeOnce


def test_once_differentiable():
    def program(L):
        x = data(L, [1.0, 2.0])
        y = once_class(L).apply(x)
        plain, = L.autograd.grad(y.sum(), x, create_graph=True)  # grad output needs no grad
        y = once_class(L).apply(x)
        v = data(L, [1.0, 1.0])
        marked, = L.autograd.grad(y, x, v, create_graph=True)
        facts = (plain.requires_grad, y.grad_fn.mode, marked.requires_grad, marked.grad_fn.name(),
                 _addr(repr(marked.grad_fn)), repr(marked))
        return facts, full_error_of(lambda: marked.sum().backward()), plain, marked
    ours, theirs = both(program)
    assert ours[:2] == theirs[:2]
    assert_close(ours[2:], theirs[2:])


# --- forward mode: the jvp staticmethod -----------------------------------------------------

def mul_add_class(L):
    class MulAdd(L.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, k):
            ctx.x, ctx.y, ctx.k = x, y, k
            ctx.save_for_backward(x, y)
            return x * y * k, x + y

        @staticmethod
        def backward(ctx, g_mul, g_add):
            x, y = ctx.saved_tensors
            return g_mul * y * ctx.k + g_add, g_mul * x * ctx.k + g_add, None

        @staticmethod
        def jvp(ctx, tx, ty, tk):
            ctx.jvp_saw = (ty.tolist(), tk, L.is_grad_enabled(), len(ctx.saved_tensors))
            return (tx * ctx.y + ctx.x * ty) * ctx.k, tx + ty
    return MulAdd


def test_jvp_staticmethod():
    def program(L):
        fwAD = L.autograd.forward_ad
        x, y = data(L, [1.0, 2.0], requires_grad=False), data(L, [3.0, 4.0], requires_grad=False)
        with fwAD.dual_level():
            dual = fwAD.make_dual(x, data(L, [1.0, 0.5], requires_grad=False))
            a, b = mul_add_class(L).apply(dual, y, 2.0)
            tangents = (fwAD.unpack_dual(a).tangent, fwAD.unpack_dual(b).tangent)
            plain = fwAD.unpack_dual(mul_add_class(L).apply(x, y, 2.0)[0]).tangent
            return a.grad_fn, plain, tangents
    ours, theirs = both(program)
    assert ours[:2] == theirs[:2]
    assert_close(ours[2], theirs[2])


def test_jvp_seen_by_the_rule():
    def program(L):
        fwAD = L.autograd.forward_ad
        x, y = data(L, [1.0, 2.0]), data(L, [3.0, 4.0])
        with fwAD.dual_level():
            a, _ = mul_add_class(L).apply(fwAD.make_dual(x, data(L, [1.0, 0.5])), y, 2.0)
            return a.grad_fn.jvp_saw
    ours, theirs = both(program)
    assert ours == theirs


def test_jvp_errors():
    def program(L):
        fwAD = L.autograd.forward_ad

        class NoJvp(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

        class WrongShape(NoJvp):
            @staticmethod
            def jvp(ctx, t):
                return t[:1]

        class WrongCount(NoJvp):
            @staticmethod
            def jvp(ctx, t):
                return t, t
        with fwAD.dual_level():
            dual = fwAD.make_dual(data(L, [1.0, 2.0], requires_grad=False), data(L, [1.0, 1.0], requires_grad=False))
            return [full_error_of(lambda cls=cls: cls.apply(dual)) for cls in (NoJvp, WrongShape, WrongCount)]
    ours, theirs = both(program)
    assert ours == theirs


# --- vmap ---------------------------------------------------------------------------------------

def _setup_style(L, **extra):
    class Cube(L.autograd.Function):
        @staticmethod
        def forward(x, k):
            return x ** 3 * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return 30 * x ** 2 * g * ctx.k, None  # 10 times the true gradient: must be the one used
    for name, value in extra.items():
        setattr(Cube, name, value)
    return Cube


def test_vmap_generated_rule_runs_the_function_per_sample():
    def program(L):
        x = data(L, [[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
        y = L.func.vmap(_setup_style(L, generate_vmap_rule=True).apply, in_dims=(0, None))(x, 2.0)
        name = y.grad_fn.name()
        y.sum().backward()
        return name, y, x.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1:], theirs[1:])


def test_vmap_generated_rule_two_outputs_and_shared_input():
    def program(L):
        class MulSum(L.autograd.Function):
            generate_vmap_rule = True

            @staticmethod
            def forward(x, w):
                return x * w, x.sum()

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(*inputs)

            @staticmethod
            def backward(ctx, g, g_sum):
                x, w = ctx.saved_tensors
                return g * w + g_sum, g * x
        x, w = data(L, [[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]]), data(L, [2.0, 3.0])
        a, b = L.func.vmap(MulSum.apply, in_dims=(0, None))(x, w)
        (a.sum() + (b * b).sum()).backward()
        return a, b, x.grad, w.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_vmap_staticmethod_rule():
    def program(L):
        def rule(info, in_dims, x, k):
            rule.seen = (info.batch_size, info.randomness, in_dims, k)
            return (x * k).sum(1), 0  # the batch dim is in_dims[0] == 0
        Cube = _setup_style(L, vmap=staticmethod(rule))
        out = L.func.vmap(Cube.apply, in_dims=(0, None))(data(L, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), 2.0)
        return out, rule.seen
    ours, theirs = both(program)
    assert ours[1] == theirs[1]
    assert_close(ours[0], theirs[0])


def test_vmap_rule_out_dims():
    def program(L):
        def transposed(info, in_dims, x, k):
            return x.t() * k, 1

        def unbatched(info, in_dims, x, k):
            return x[0] * k, None
        x = data(L, [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], requires_grad=False)
        return [L.func.vmap(_setup_style(L, vmap=staticmethod(rule)).apply, in_dims=(0, None))(x, 2.0)
                for rule in (transposed, unbatched)]
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_vmap_errors():
    def program(L):
        x = data(L, [[1.0, 2.0]], requires_grad=False)
        old_style = cube_class(L)

        def one_return(info, in_dims, x, k):
            return x * k
        both_ways = _setup_style(L, generate_vmap_rule=True, vmap=staticmethod(lambda info, in_dims, x, k: (x, 0)))
        classes = (old_style, _setup_style(L), both_ways, _setup_style(L, vmap=staticmethod(one_return)))
        return [full_error_of(lambda cls=cls: L.func.vmap(cls.apply, in_dims=(0, None))(x, 2.0)) for cls in classes]
    ours, theirs = both(program)
    assert [kind for kind, _ in ours] == [kind for kind, _ in theirs]
    assert [message.replace("chainrule._core.tensor", "torch") for _, message in ours] == [m for _, m in theirs]


# --- memory and checks -----------------------------------------------------------------------

def test_graph_of_a_multi_output_function_has_no_cycle():
    """Reference counting alone frees it (as the engine's other nodes): each port holds
    the shared node, which holds its ports only weakly."""
    import gc
    import weakref

    import chainrule
    gc.collect()
    gc.disable()
    try:
        x, y = data(chainrule, [1.0, 2.0]), data(chainrule, [3.0, 4.0])
        m, a = two_class(chainrule).apply(x, y)
        node = weakref.ref(m.grad_fn.node)
        port = weakref.ref(a.grad_fn)
        del m, a
        assert node() is None and port() is None
    finally:
        gc.enable()


def test_gradcheck_and_gradgradcheck_of_a_function():
    def program(L):
        x = data(L, [0.5, 1.5, -0.7])
        Cube = cube_class(L)
        return (L.autograd.gradcheck(lambda t: Cube.apply(t, 2.0), (x,)),
                L.autograd.gradgradcheck(lambda t: Cube.apply(t, 2.0), (x,)))
    ours, theirs = both(program)
    assert ours == theirs == (True, True)
