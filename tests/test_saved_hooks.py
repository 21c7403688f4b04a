"""Saved-tensor hooks, multi-tensor gradient hooks and post-accumulate hooks, each program
run on chainrule and on PyTorch (``both``): hook calls (order, count, what they see),
gradients and errors must agree.

Order is compared on chains of one-input ops; for ops with two saved tensors the order
in which they are saved is the registry's, not always PyTorch's (mul saves ``self``
first, PyTorch ``other``), so there only counts are compared.
"""
import pytest

from helpers import assert_close, both, data, full_error_of


def _described(t):
    return (tuple(t.shape), t.grad_fn.name() if t.grad_fn is not None else None, t.requires_grad)


def _chain(L, x):
    return x.exp().sin().tanh().sum()


def test_pack_and_unpack_calls_in_order():
    def program(L):
        log = []

        def pack(t):
            log.append(("pack",) + _described(t))
            return t

        def unpack(t):
            log.append(("unpack",) + _described(t))
            return t
        x = data(L, [0.1, 0.2, 0.3])
        with L.autograd.graph.saved_tensors_hooks(pack, unpack):
            loss = _chain(L, x)
        log.append("backward")
        loss.backward()
        return log, x.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1], theirs[1])


def test_counts_with_two_input_ops():
    def program(L):
        counts = {"pack": 0, "unpack": 0}

        def count(kind):
            def hook(t):
                counts[kind] += 1
                return t
            return hook
        x, w = data(L, [[1.0, 2.0], [0.5, -1.0]]), data(L, [[0.3], [0.7]])
        with L.autograd.graph.saved_tensors_hooks(count("pack"), count("unpack")):
            loss = ((x @ w).exp() * x.sum()).sum()
        packed = dict(counts)
        loss.backward()
        return packed, counts, x.grad, w.grad
    ours, theirs = both(program)
    assert ours[:2] == theirs[:2]
    assert_close(ours[2:], theirs[2:])


def test_pack_may_return_anything():
    def program(L):
        store = {}

        def pack(t):
            store[len(store)] = t.detach().clone()
            return len(store) - 1
        x = data(L, [0.5, 1.5])
        with L.autograd.graph.saved_tensors_hooks(pack, lambda key: store[key]):
            loss = _chain(L, x)
        loss.backward()
        return x.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_unpack_result_is_used():
    def program(L):
        x = data(L, [1.0, 2.0])
        with L.autograd.graph.saved_tensors_hooks(lambda t: 5, lambda _: L.full((2,), 3.0, dtype=L.float64)):
            y = x * x
        y.sum().backward()
        return x.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_unpack_must_return_a_tensor():
    def program(L):
        x = data(L, [1.0, 2.0])
        with L.autograd.graph.saved_tensors_hooks(lambda t: 5, lambda t: 5):
            y = x * x
        return full_error_of(lambda: y.sum().backward())
    ours, theirs = both(program)
    assert ours == theirs


def test_versions_not_checked_under_hooks():
    def program(L):
        x = data(L, [1.0, 2.0])
        with L.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            b = x * 1
            y = b.sin()
        with L.no_grad():
            b.mul_(2)
        y.sum().backward()
        return x.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_pack_hook_must_not_modify_its_input():
    def program(L):
        def bad(t):
            t.mul_(2)
            return t
        x = data(L, [1.0, 2.0])
        with L.autograd.graph.saved_tensors_hooks(bad, lambda t: t):
            return full_error_of(lambda: (x * 1).sin())
    ours, theirs = both(program)
    assert ours == theirs


def test_disable_saved_tensors_hooks():
    def program(L):
        graph = L.autograd.graph
        errors = []
        with graph.disable_saved_tensors_hooks("outer"):
            with graph.disable_saved_tensors_hooks("inner"):
                errors.append(full_error_of(lambda: graph.saved_tensors_hooks(abs, abs).__enter__()))
            errors.append(full_error_of(lambda: graph.saved_tensors_hooks(abs, abs).__enter__()))
        with graph.saved_tensors_hooks(abs, abs):
            errors.append(full_error_of(lambda: graph.disable_saved_tensors_hooks("active").__enter__()))
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):  # allowed again
            pass
        return errors
    ours, theirs = both(program)
    assert ours == theirs


def test_only_the_innermost_hooks_apply():
    def program(L):
        log = []

        def tagged(tag):
            return lambda t: log.append(tag) or t
        x = data(L, [1.0])
        with L.autograd.graph.saved_tensors_hooks(tagged("outer"), lambda t: t):
            with L.autograd.graph.saved_tensors_hooks(tagged("inner"), lambda t: t):
                x.exp()
            x.sin()
        return log
    ours, theirs = both(program)
    assert ours == theirs


def test_unpack_runs_on_every_access_until_freed():
    def program(L):
        calls = [0]

        def unpack(t):
            calls[0] += 1
            return t
        x = data(L, [0.5, 1.0])
        with L.autograd.graph.saved_tensors_hooks(lambda t: t, unpack):
            y = x.exp() * x
        y.sum().backward(retain_graph=True)
        first = calls[0]
        y.sum().backward()
        return first, calls[0], full_error_of(lambda: y.sum().backward()), x.grad
    ours, theirs = both(program)
    assert ours[:3] == theirs[:3]
    assert_close(ours[3], theirs[3])


def test_save_on_cpu():
    def program(L):
        x = data(L, [0.5, 1.0])
        hooks = L.autograd.graph.save_on_cpu(pin_memory=False)
        with hooks:
            loss = _chain(L, x)
        loss.backward()
        return isinstance(hooks, L.autograd.graph.saved_tensors_hooks), x.grad
    ours, theirs = both(program)
    assert ours[0] == theirs[0]
    assert_close(ours[1], theirs[1])


def test_higher_order_through_packed_tensors():
    def program(L):
        x = data(L, 2.0)
        with L.autograd.graph.saved_tensors_hooks(lambda t: t.detach().clone(), lambda t: t):
            y = x ** 3
            g, = L.autograd.grad(y, x, create_graph=True)
            g2, = L.autograd.grad(g, x, create_graph=True)
        g3, = L.autograd.grad(g2, x)
        return g, g2, g3
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_custom_function_saves_through_hooks():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                out = x * 2
                ctx.save_for_backward(x, out)
                return out

            @staticmethod
            def backward(ctx, g):
                x, out = ctx.saved_tensors
                ctx.seen = (_described(x), _described(out))
                return g * 2
        log = []
        x = data(L, [1.0, 2.0])
        with L.autograd.graph.saved_tensors_hooks(lambda t: log.append(_described(t)) or t,
                                                  lambda t: log.append("unpack") or t):
            y = F.apply(x)
        y.sum().backward()
        return log, y.grad_fn.seen, x.grad
    ours, theirs = both(program)
    assert ours[:2] == theirs[:2]
    assert_close(ours[2], theirs[2])


def test_custom_function_packs_only_when_recorded():
    def program(L):
        class F(L.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g
        log = []
        with L.autograd.graph.saved_tensors_hooks(lambda t: log.append("pack") or t, lambda t: t):
            F.apply(data(L, [1.0], requires_grad=False))
            with L.no_grad():
                F.apply(data(L, [1.0]))
            F.apply(data(L, [1.0]))
        return log
    ours, theirs = both(program)
    assert ours == theirs


def test_graph_node_is_the_node_type():
    def program(L):
        y = data(L, [1.0]).exp()
        return isinstance(y.grad_fn, L.autograd.graph.Node)
    ours, theirs = both(program)
    assert ours == theirs


# --- register_multi_grad_hook ----------------------------------------------------------------

def test_multi_grad_hook_all():
    def program(L):
        calls = []
        p, q = data(L, [1.0, 2.0]), data(L, [3.0])
        handle = L.autograd.graph.register_multi_grad_hook((p, q), lambda grads: calls.append(grads))
        (p * 2).sum().backward()
        (p * 2 + q * 3).sum().backward()
        handle.remove()
        (p * q).sum().backward()
        return calls
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_multi_grad_hook_any():
    def program(L):
        calls = []
        p, q = data(L, [1.0, 2.0]), data(L, [3.0])
        handle = L.autograd.graph.register_multi_grad_hook((p, q), lambda g: calls.append(g), mode="any")
        (p * 2 + q * 3).sum().backward()
        (q * 4).sum().backward()
        handle.remove()
        (p * q).sum().backward()
        return calls
    ours, theirs = both(program)
    assert_close(ours, theirs)


def test_multi_grad_hook_on_non_leaves_and_bad_mode():
    def program(L):
        calls = []
        x = data(L, [1.0, 2.0])
        a, b = x * 2, x.exp()
        L.autograd.graph.register_multi_grad_hook((a, b), lambda grads: calls.append(grads))
        (a * b).sum().backward()
        error = full_error_of(lambda: L.autograd.graph.register_multi_grad_hook((a,), print, mode="x"))
        return calls, error
    ours, theirs = both(program)
    assert ours[1] == theirs[1]
    assert_close(ours[0], theirs[0])


# --- post-accumulate-grad hooks --------------------------------------------------------------

def test_post_accumulate_grad_hook():
    def program(L):
        calls = []
        p = data(L, [1.0, 2.0])
        p.register_post_accumulate_grad_hook(lambda t: calls.append(("first", t.grad.clone())))
        handle = p.register_post_accumulate_grad_hook(lambda t: calls.append(("second", t.grad.clone())))
        (p * 3).sum().backward()
        handle.remove()
        (p * p).sum().backward()
        return calls, full_error_of(lambda: (p * 2).register_post_accumulate_grad_hook(print))
    ours, theirs = both(program)
    assert ours[1] == theirs[1]
    assert [c[0] for c in ours[0]] == [c[0] for c in theirs[0]]
    assert_close([c[1] for c in ours[0]], [c[1] for c in theirs[0]])


@pytest.mark.parametrize("retain", [False, True])
def test_post_accumulate_hook_sees_tensor_hooks_result(retain):
    def program(L):
        calls = []
        p = data(L, [1.0, 2.0])
        p.register_hook(lambda g: g * 10)
        p.register_post_accumulate_grad_hook(lambda t: calls.append(t.grad.clone()))
        loss = (p * 3).sum()
        loss.backward(retain_graph=retain)
        return calls, p.grad
    ours, theirs = both(program)
    assert_close(ours, theirs)
