"""The engine's invariants: iterative (deep graphs), dependency counting (each node runs
once, with its whole gradient), deterministic, frees what nodes saved, and holds no
reference cycles, plus broadcast reduction and dtype casting of gradients.
"""
import gc
import weakref

import numpy as np
import pytest

import chainrule
from chainrule._autograd import engine
from helpers import assert_close, both, data, require_torch





@pytest.fixture
def no_gc():
    """Reference counting alone must free the graph: no collector to break cycles."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# --- deep graphs --------------------------------------------------------------------------------

N_DEEP = 100_000


def test_chain_of_100k_ops_backward():
    x = chainrule.tensor(1.0, dtype=chainrule.float64, requires_grad=True)
    y = x
    for i in range(N_DEEP):
        y = y * 1.00001 if i % 2 else y + 1.0
    y.backward()
    np.testing.assert_allclose(x.grad.item(), 1.00001 ** (N_DEEP // 2), rtol=1e-9)


def test_chain_of_100k_ops_autograd_grad_and_free():
    x = chainrule.tensor([0.5], dtype=chainrule.float64, requires_grad=True)
    y = x
    for _ in range(N_DEEP):
        y = y.sin()  # saves its input: each node is freed right after it ran
    (g,) = chainrule.autograd.grad(y.sum(), x)
    expected, v = 1.0, 0.5
    for _ in range(N_DEEP):
        expected, v = expected * np.cos(v), np.sin(v)
    np.testing.assert_allclose(g.item(), expected, rtol=1e-9)
    probe = weakref.ref(y.grad_fn)
    del y  # deallocating 100k nodes must not overflow the C stack either
    assert probe() is None


def _any_calls_for_second_derivative(n, monkeypatch):
    """How often the engine calls ``any()`` while differentiating a gradient graph of a
    chain of ``n`` ops: a deterministic measure of its work (no timing)."""
    x = chainrule.tensor(0.3, dtype=chainrule.float64, requires_grad=True)
    y = x
    for _ in range(n):
        y = (y * 0.999).sin()
    (g,) = chainrule.autograd.grad(y, x, create_graph=True)
    calls = [0]

    def counting_any(iterable):
        calls[0] += 1
        return any(iterable)
    with monkeypatch.context() as m:
        m.setattr(engine, "any", counting_any, raising=False)
        chainrule.autograd.grad(g, x)
    return calls[0]


def test_deep_chain_second_order():
    def program(L):
        x = data(L, 0.3)
        y = x
        for _ in range(200):
            y = (y * 0.999).sin()
        (g,) = L.autograd.grad(y, x, create_graph=True)
        return g, L.autograd.grad(g, x)
    assert_close(*both(program), rtol=1e-9)


def test_autograd_grad_scales_linearly_on_gradient_graphs(monkeypatch):
    small = _any_calls_for_second_derivative(100, monkeypatch)
    large = _any_calls_for_second_derivative(400, monkeypatch)
    assert large <= 5 * max(small, 1)


# --- dependency counting --------------------------------------------------------------------------

def test_diamond_gradients_and_each_node_runs_once():
    def program(L):
        x = data(L, [0.5, -1.0, 2.0])
        a = x * 2
        b = a.exp()
        c = a.sin()
        d = b * c + a  # a reaches d three ways
        calls = {"a": [], "b": [], "c": []}
        for name, t in (("a", a), ("b", b), ("c", c)):
            t.register_hook(lambda g, name=name: calls[name].append(g.clone()))
        d.sum().backward()
        return x.grad, [len(calls[k]) for k in "abc"], [calls[k][0] for k in "abc"]
    ours, theirs = both(program)
    assert ours[1] == theirs[1] == [1, 1, 1]
    assert_close(ours, theirs)


def test_wide_fan_out_and_in():
    def program(L):
        x = data(L, [0.1, 0.2])
        h = x * 1.5
        calls = []
        h.register_hook(lambda g: calls.append(1))
        total = h * 0
        for k in range(1, 60):
            total = total + (h * k).sin()
        total.sum().backward()
        return x.grad, len(calls)
    assert_close(*both(program))


def test_several_roots_share_a_subgraph():
    def program(L):
        x = data(L, [0.3, 0.7])
        h = x.exp()
        calls = []
        h.register_hook(lambda g: calls.append(g.clone()))
        u, v, w = (h * 2).sum(), (h * h).sum(), h.sin().sum()
        L.autograd.backward([u, v, w])
        return x.grad, len(calls), calls[0]
    assert_close(*both(program))


def test_same_root_twice_in_autograd_backward():
    def program(L):
        x = data(L, [0.3, 0.7])
        s = (x * x).sum()
        L.autograd.backward([s, s], [L.tensor(1.0, dtype=L.float64), L.tensor(3.0, dtype=L.float64)])
        return x.grad
    assert_close(*both(program))


def test_branch_without_grad_is_skipped():
    def program(L):
        x = data(L, [0.3, 0.7])
        c = data(L, [2.0, 3.0], requires_grad=False)
        y = (x * c + c.exp() * c) * (c + 1)
        y.sum().backward()
        return x.grad, c.grad
    assert_close(*both(program))


def test_autograd_grad_with_input_in_the_middle():
    def program(L):
        x = data(L, [0.3, 0.7])
        h = x.sin()
        k = h * h
        out = (k.exp() + h).sum()
        return L.autograd.grad(out, [k, h, x])
    assert_close(*both(program))


def test_autograd_grad_does_not_run_unneeded_branches():
    ran = []
    x = chainrule.tensor([0.3, 0.7], requires_grad=True)
    w = chainrule.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = w.exp()
    b.register_hook(lambda g: ran.append("b"))
    a.register_hook(lambda g: ran.append("a"))
    chainrule.autograd.grad((a * b).sum(), [x])
    assert ran == ["a"]
    assert x.grad is None and w.grad is None


# --- broadcasting and dtypes ------------------------------------------------------------------------

def test_broadcast_gradients_reduced_to_input_shapes():
    def program(L):
        a = data(L, np.arange(3.0).reshape(3, 1))
        b = data(L, [1.0, 2.0, 3.0, 4.0])
        c = data(L, 2.0)
        d = data(L, np.ones((2, 1, 1)))
        y = (a * b + c) * d - b / (c + a)
        y.backward(L.from_numpy(np.arange(24.0).reshape(2, 3, 4)))
        return a.grad, b.grad, c.grad, d.grad, y.shape == (2, 3, 4)
    assert_close(*both(program))


def test_mixed_dtype_gradients_cast_to_input_dtype():
    def program(L):
        a = data(L, [1.0, 2.0], dtype="float32")
        b = data(L, [0.5, 0.25], dtype="float64")
        y = a * b + a.exp()
        y.sum().backward()
        return a.grad, b.grad, str(a.grad.dtype), str(b.grad.dtype), str(y.dtype)
    assert_close(*both(program))


# --- determinism ------------------------------------------------------------------------------------

def _messy_program():
    rng = np.random.default_rng(7)
    x = chainrule.from_numpy(rng.standard_normal((4, 5)).astype(np.float32)).requires_grad_()
    w = chainrule.from_numpy(rng.standard_normal((5, 3)).astype(np.float32)).requires_grad_()
    order = []
    h = (x @ w).tanh()
    terms = [h * k for k in range(1, 20)] + [h.exp(), h.sin() * h]
    for i, t in enumerate(terms):
        t.register_hook(lambda g, i=i: order.append(i))
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    (total * total).mean().backward()
    return x.grad._data.copy(), w.grad._data.copy(), order


def test_backward_is_deterministic():
    first = _messy_program()
    for _ in range(3):
        again = _messy_program()
        assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])
        assert first[2] == again[2]


# --- freeing saved values ---------------------------------------------------------------------------

def _graph():
    x = chainrule.tensor([0.5, 1.5], requires_grad=True)
    a = x * x          # saves both inputs
    b = a.exp()        # saves its output
    c = b.sin() + a    # sin saves its input; add saves nothing
    return x, a, b, c, c.sum()


def test_saved_values_freed_after_backward():
    x, a, b, c, s = _graph()
    nodes = [a.grad_fn, b.grad_fn, c.grad_fn.next_functions[0][0]]
    assert all(n.saved is not None for n in nodes)
    s.backward()
    assert all(n.saved is None for n in nodes)
    assert b.grad_fn.ans is None
    assert c.grad_fn.next_functions[0][0].name() == "SinBackward0"  # the structure stays


def test_saved_values_kept_with_retain_graph():
    x, a, b, c, s = _graph()
    s.backward(retain_graph=True)
    nodes = [a.grad_fn, b.grad_fn, c.grad_fn.next_functions[0][0]]
    assert all(n.saved is not None for n in nodes)
    first = x.grad.clone()
    s.backward()
    np.testing.assert_allclose(x.grad._data, 2 * first._data)
    assert all(n.saved is None for n in nodes)


def test_saved_values_freed_after_autograd_grad():
    x, a, b, c, s = _graph()
    chainrule.autograd.grad(s, x)
    assert a.grad_fn.saved is None and b.grad_fn.saved is None


def test_saved_tensor_access_after_free_matches_torch():
    def program(L):
        x = data(L, [0.5, 1.5])
        y = x * x
        y.sum().backward()
        try:
            y.sum().backward()
        except RuntimeError as e:
            return str(e)
    ours, theirs = both(program)
    assert ours == theirs


# --- no reference cycles ---------------------------------------------------------------------------

def test_del_output_frees_graph_without_gc(no_gc):
    x = chainrule.tensor([0.5, 1.5], requires_grad=True)
    h = x * 2
    k = h.exp() * x
    out = k.sum()
    probes = [weakref.ref(h), weakref.ref(k), weakref.ref(h.grad_fn), weakref.ref(k.grad_fn),
              weakref.ref(out.grad_fn)]
    del h, k
    assert probes[0]() is None and probes[1]() is None  # tensors: only the graph's arrays stay
    assert probes[2]() is not None  # still reachable from out
    del out
    assert all(p() is None for p in probes)


def test_graph_freed_after_backward_without_gc(no_gc):
    x = chainrule.tensor([0.5, 1.5], requires_grad=True)
    h = x.sin()
    h.retain_grad()
    out = (h * h).sum()
    probes = [weakref.ref(h), weakref.ref(h.grad_fn), weakref.ref(out.grad_fn)]
    out.backward()
    del h, out
    assert all(p() is None for p in probes)
    assert x.grad is not None


def test_create_graph_grad_does_not_keep_a_cycle(no_gc):
    x = chainrule.tensor([0.5, 1.5], requires_grad=True)
    h = x.exp()
    out = (h * x).sum()
    out.backward(create_graph=True)
    probes = [weakref.ref(h), weakref.ref(out.grad_fn), weakref.ref(x.grad.grad_fn)]
    del h, out
    assert probes[2]() is not None  # x.grad's own history (it saved h) is alive with it
    x.grad = None
    assert all(p() is None for p in probes)


def test_inplace_through_view_leaves_no_cycle(no_gc):
    x = chainrule.tensor([0.5, 1.5, 2.5], requires_grad=True)
    y = x * 1
    v = y[1:]
    v.exp_()       # saves its output, which is now the view
    y[0] = x[2] * 3
    probes = [weakref.ref(v), weakref.ref(v.grad_fn), weakref.ref(y.grad_fn)]
    del v, y
    assert all(p() is None for p in probes)


def test_leaf_frees_its_accumulator(no_gc):
    x = chainrule.tensor([0.5], requires_grad=True)
    y = x * 2
    acc = weakref.ref(y.grad_fn.next_functions[0][0])
    leaf = weakref.ref(x)
    del y
    assert acc() is not None  # the leaf keeps its one AccumulateGrad
    del x
    assert leaf() is None and acc() is None


def test_graph_does_not_keep_leaf_alive(no_gc):
    x = chainrule.tensor([0.5], requires_grad=True)
    y = (x * 2).sum()
    leaf = weakref.ref(x)
    acc = y.grad_fn.next_functions[0][0].next_functions[0][0]
    del x
    assert leaf() is None
    assert acc.variable is None
    y.backward()  # the leaf is gone: nothing to accumulate into, no error


def test_new_grad_is_laid_out_as_its_leaf():
    """PyTorch's layout contract: a Linear weight's gradient (computed transposed) is stored
    in the weight's own layout, so .grad.stride() equals PyTorch's."""
    torch = require_torch()
    strides = []
    for L in (chainrule, torch):
        m = L.nn.Linear(5, 3)
        m(L.ones(2, 5)).sum().backward()
        leaf = L.ones(4, 6).t().requires_grad_()  # a transposed leaf keeps its own layout
        (leaf * 2).sum().backward()
        strides.append((m.weight.grad.stride(), m.bias.grad.stride(), leaf.grad.stride()))
    assert strides[0] == strides[1]


def _training_step(L):
    """Conv, relu, pooling, dropout, linear and a loss: the nodes of a small CNN step."""
    F = L.nn.functional
    L.manual_seed(0)
    conv, lin = L.nn.Conv2d(3, 16, 3), L.nn.Linear(16 * 7 * 7, 10)
    x, y = L.randn(64, 3, 16, 16), L.randint(0, 10, (64,))
    h = F.dropout(F.max_pool2d(F.relu(conv(x)), 2).flatten(1), 0.3)
    return F.cross_entropy(F.log_softmax(lin(h), 1).exp().log(), y), [*conv.parameters(), *lin.parameters()]


def test_backward_frees_what_the_graph_saved_while_the_output_lives():
    """PyTorch frees each node's saved tensors as its backward runs: a loop that keeps
    ``loss`` (for printing) must not keep the whole step's activations alive."""
    import tracemalloc
    _training_step(chainrule)[0].backward()  # warm up: allocations made once
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        loss, parameters = _training_step(chainrule)
        held_by_graph = tracemalloc.get_traced_memory()[0] - base
        loss.backward()
        gc.collect()
        held_after_backward = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    gradients = sum(p.grad.numpy().nbytes for p in parameters)  # what backward rightly made
    assert held_by_graph > 2_000_000  # the forward really saved activations
    # what stays: the graph's structure (its nodes, as in PyTorch), a few kB
    assert held_after_backward - gradients < 0.03 * held_by_graph, (held_by_graph, held_after_backward, gradients)
    assert loss.item() == loss.item()  # loss itself is still alive and usable


# ops where a second backward without retain_graph differs today (listed so that a fix,
# or a new difference, shows): chainrule keeps what these saved, PyTorch frees it
SECOND_BACKWARD_DIFFERS = {"getitem_advanced", "getitem_indexed", "index_put", "div_rounding",
                           "div_rounding_method", "pad_circular"}


def _second_backward(L, entry, sample):
    from op_db import as_list, build_args
    args, leaves = build_args(L, sample)
    try:
        out = entry.fn(L, *args)
    except Exception:  # noqa: BLE001  (compared by kind)
        return "forward error"
    outs = [o for o in as_list(out) if getattr(o, "requires_grad", False) and o.dtype.is_floating_point]
    if not outs or not leaves:
        return "no graph"
    loss = sum(o.sum() for o in outs)
    loss.backward()
    try:
        loss.backward()
    except RuntimeError as e:
        return "raises" if "second time" in str(e) else f"other error: {e}"
    return "runs"


def test_a_second_backward_raises_where_pytorchs_does():
    """Backward frees saved tensors, so a second one raises PyTorch's error, exactly for the
    ops whose PyTorch node saved tensors (and runs where it saved only sizes and numbers)."""
    from op_db import OPS
    torch = require_torch()
    differs = set()
    for entry in OPS:
        sample = next((s for s in entry.sample_list() if s.name.endswith("float64")), None)
        if sample is not None and _second_backward(chainrule, entry, sample) != _second_backward(torch, entry, sample):
            differs.add(entry.name)
    assert differs == SECOND_BACKWARD_DIFFERS
