"""``explain(out)``: the chain rule, node by node, in words and numbers.

Backward starts with v = d out/d out (1 for a scalar, the ``gradient`` argument
otherwise) and runs each node once, in the engine's order; a node multiplies the
gradient g it received by its local derivative and passes the product on; a tensor
used twice receives two products, and their sum is its gradient. ``explain`` prints
exactly that, as the engine computes it, for tutorial 004::

    >>> x = chainrule.ones(2, 2, requires_grad=True)
    >>> out = (3 * (x + 2) ** 2).mean()
    >>> chainrule.explain(out, {"x": x})
    ...
    x.grad = 4.5 in every entry of (2, 2)

It runs its own backward (through hooks on the nodes, with ``retain_graph=True``), so
``.grad`` is left alone and the user's ``out.backward()`` still works; the graph must
still hold its saved values (call it before ``backward()``, or after
``backward(retain_graph=True)``). For a non-scalar output it first shows the Jacobian J
(built one backward per row, for small sizes), v and J^T·v, which is what
``out.backward(v)`` puts into the leaves' ``.grad``.
"""
import sys

import numpy as np

from .._core.tensor import Tensor, _wrap
from .._autograd import gradients as autograd_gradients
from .._autograd.anomaly_mode import with_line
from .._autograd.engine import SECOND_BACKWARD, AccumulateGrad
from .graph import LEAF, node_name, size_text, walk
from .rules import rule_words

MAX_JACOBIAN = 64  # entries of J shown; bigger Jacobians are left out
MAX_LISTED = 12    # entries of a tensor written out; bigger ones are summarised


def number(value):
    """A float as people write it: ``4.5``, ``0.2`` (float32's 0.2000000030 rounds back)."""
    value = float(value)
    if value == 0:
        return "0"
    text = f"{value:.6g}"
    return text[:-2] if text.endswith(".0") else text


def tensor_text(t, every=True):
    """``4.5``, ``4.5 in every entry of (2, 2)``, ``[0.2, 2, 20]``, or a summary;
    ``every=False`` leaves out the "in every entry" of a uniform tensor."""
    data = np.asarray(t._data if isinstance(t, Tensor) else t, dtype=np.float64)
    if data.size == 1:
        return number(data.reshape(()))
    flat = data.reshape(-1)
    if np.all(flat == flat[0]):
        return f"{number(flat[0])} in every entry of {size_text(data.shape)}" if every else number(flat[0])
    if data.size <= MAX_LISTED:
        return _nested(data)
    return (f"{size_text(data.shape)} tensor, min {number(flat.min())}, mean {number(flat.mean())}, "
            f"max {number(flat.max())}")


def _uniform(data):
    flat = np.asarray(data, dtype=np.float64).reshape(-1)
    return bool(np.all(flat == flat[0]))


def _nested(data):
    if data.ndim == 0:
        return number(data)
    return "[" + ", ".join(_nested(row) for row in data) + "]"


def _leaf_names(out, inputs):
    """The leaves to explain, each with a name: (tensors, names)."""
    if inputs is None:
        graph = walk(out)
        leaves = [v.obj for v in graph.vertices.values() if v.kind == LEAF]
        return leaves, [f"leaf {i}" for i in range(len(leaves))] if len(leaves) > 1 else ["the leaf"]
    if isinstance(inputs, Tensor):
        return [inputs], ["the input"]
    items = list(inputs.items() if hasattr(inputs, "items") else inputs)
    if items and isinstance(items[0], tuple):
        return [t for _, t in items], [name for name, _ in items]
    return items, [f"input {i}" for i in range(len(items))]


class _Trace:
    """What one backward passed: ``order`` (nodes in the order they ran), ``got``
    (node -> gradient received), ``passed`` (node -> [(input node, gradient)], one per
    input that got one) and ``sent`` (node -> [(consumer, gradient)])."""

    def __init__(self):
        self.order, self.got, self.passed, self.sent, self.handles = [], {}, {}, {}, []

    def watch(self, node):
        def pre(grads):
            self.order.append(node)
            self.got[node] = grads[0]

        def post(grad_inputs, grad_outputs):
            for child, gi in zip(node.next, grad_inputs):
                if child is not None and gi is not None:
                    self.passed.setdefault(node, []).append((child, gi))
                    self.sent.setdefault(child, []).append((node, gi))
        self.handles.append(node.register_prehook(pre))
        if node.__class__ is not AccumulateGrad:
            self.handles.append(node.register_hook(post))

    def remove(self):
        for handle in self.handles:
            handle.remove()


def trace_backward(out, leaves, v):
    """Runs backward from ``out`` with ``v`` to ``leaves`` (``.grad`` untouched) and
    returns the ``_Trace`` and the gradient of each leaf."""
    trace = _Trace()
    stack, seen = [out.grad_fn], set()
    while stack:  # watch every node of the graph
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        trace.watch(node)
        stack.extend(node.next)
    try:
        grads = autograd_gradients.grad(out, leaves, v, retain_graph=True, allow_unused=True)
    except RuntimeError as e:
        if str(e) == SECOND_BACKWARD:
            raise with_line(RuntimeError(SECOND_BACKWARD), "Hint: explain() and to_html() run their own "
                            "backward on the graph: call them before out.backward(), or call "
                            "out.backward(retain_graph=True).") from None
        raise
    finally:
        trace.remove()
    return trace, grads


def jacobian_rows(out, leaves):
    """Row i of J = d out_i / d(leaves), one backward with the basis vector e_i each:
    ``autograd.grad(out, leaves, e_i)`` is J^T·e_i, which is that row."""
    n = out.numel()
    for i in range(n):
        e_i = np.zeros(n, dtype=out._data.dtype)
        e_i[i] = 1
        grads = autograd_gradients.grad(out, leaves, _wrap(e_i.reshape(out._data.shape)), retain_graph=True,
                                        allow_unused=True)
        yield np.concatenate([np.zeros(t._data.size) if g is None else np.asarray(g._data, np.float64).ravel()
                              for t, g in zip(leaves, grads)])


def _node_label(node, numbers, names):
    if node.__class__ is AccumulateGrad:
        return names.get(id(node.variable), "a leaf")
    return f"[{numbers[node]}] {node_name(node)}"


def _passes(g, gi):
    """``g × local = gi``, with the local derivative when it is one number per entry;
    uniform tensors are written as one number, with their shape said once at the end."""
    g_data, gi_data = np.asarray(g._data, np.float64), np.asarray(gi._data, np.float64)
    local = None
    if g_data.size == 1 and g_data.reshape(()) != 0:
        local = gi_data / g_data.reshape(())
    elif g_data.shape == gi_data.shape and np.all(g_data != 0):
        local = gi_data / g_data
    if local is None:
        return tensor_text(gi)
    if gi_data.size > 1 and _uniform(gi_data) and _uniform(local) and _uniform(g_data):
        return (f"{tensor_text(g, False)} × {tensor_text(local, False)} = {tensor_text(gi, False)} "
                f"in every entry of {size_text(gi_data.shape)}")
    return f"{tensor_text(g)} × {tensor_text(local)} = {tensor_text(gi)}"


def _received(node, trace, numbers, names):
    """The gradient ``node`` received; when several consumers sent it one, their sum."""
    parts = trace.sent.get(node, [])
    got = trace.got[node]
    if len(parts) < 2:
        return tensor_text(got)
    every = not (got.numel() > 1 and all(_uniform(gi._data) for _, gi in parts))
    terms = " + ".join(f"{tensor_text(gi, every)} (from {_node_label(p, numbers, names)})" for p, gi in parts)
    return f"{terms} = {tensor_text(got)}"


def explain_text(out, inputs=None, gradient=None):
    """What ``explain`` prints, as a string."""
    if not out.requires_grad:
        raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
    leaves, leaf_names = _leaf_names(out, inputs)
    names = {id(t): name for t, name in zip(leaves, leaf_names)}
    if gradient is None:
        if out.numel() != 1:
            raise with_line(RuntimeError("grad can be implicitly created only for scalar outputs"),
                            f"Hint: explain a non-scalar output of shape {size_text(out.shape)} with "
                            "gradient=v of that shape (backward computes J^T·v).")
        v = _wrap(np.ones_like(out._data))
    else:
        v = gradient if isinstance(gradient, Tensor) else _wrap(np.asarray(gradient, dtype=out._data.dtype))
    lines = []
    if out.numel() == 1:
        lines.append(f"out = {tensor_text(out.detach())}; backward starts from d out/d out = {tensor_text(v)}.")
    else:
        lines += _jacobian_lines(out, leaves, leaf_names, v)
    if out.grad_fn is None:
        lines.append(f"out is a leaf: its gradient is v = {tensor_text(v)}.")
        return "\n".join(lines)
    trace, grads = trace_backward(out, leaves, v)
    ran = [n for n in trace.order if n.__class__ is not AccumulateGrad]
    numbers = {node: k for k, node in enumerate(ran, 1)}
    lines.append("")
    lines.append("Node by node, from the output to the leaves (g: the gradient a node receives):")
    for node in ran:
        name = node_name(node)
        lines.append(f"[{numbers[node]}] {name}: {rule_words(name)}")
        lines.append(f"    g = {_received(node, trace, numbers, names)}")
        for child, gi in trace.passed.get(node, ()):
            lines.append(f"    passes {_passes(trace.got[node], gi)} to {_node_label(child, numbers, names)}")
    lines.append("")
    lines.append("Each leaf's gradient (what backward adds into .grad):")
    for tensor, name, g in zip(leaves, leaf_names, grads):
        node = tensor.grad_fn
        accumulator = next((n for n in trace.order if n.__class__ is AccumulateGrad and n.variable is tensor),
                           None)
        if g is None:
            lines.append(f"{name}.grad: no gradient reaches it")
        elif accumulator is not None and len(trace.sent.get(accumulator, [])) > 1:
            lines.append(f"{name}.grad = {_received(accumulator, trace, numbers, names)}")
        else:
            suffix = "" if node is None else " (not a leaf: its gradient is shown, not stored)"
            lines.append(f"{name}.grad = {tensor_text(g)}{suffix}")
    return "\n".join(lines)


def _jacobian_lines(out, leaves, leaf_names, v):
    columns = sum(t.numel() for t in leaves)
    lines = [f"out has shape {size_text(out.shape)}: out.backward(v) computes J^T·v, the "
             "vector-Jacobian product, without ever forming J."]
    if out.numel() * columns > MAX_JACOBIAN:
        lines.append(f"(J is {out.numel()} × {columns}: too big to show.)")
        return lines
    rows = np.array(list(jacobian_rows(out, leaves)))
    lines.append(f"J, one backward per row (row i = d out_i / d({', '.join(leaf_names)})):")
    for i, row in enumerate(rows):
        lines.append(f"    row {i}: [{', '.join(number(x) for x in row)}]")
    v_flat = np.asarray(v._data, np.float64).ravel()
    lines.append(f"v = [{', '.join(number(x) for x in v_flat)}]")
    jtv = rows.T @ v_flat
    lines.append(f"J^T·v = [{', '.join(number(x) for x in jtv)}]")
    return lines


def explain(out, inputs=None, gradient=None, *, file=None):
    """Prints how backward from ``out`` reaches ``inputs`` (a tensor, a list, a dict of
    named tensors or ``model.named_parameters()``; None: every leaf), with ``gradient``
    the v of ``out.backward(v)`` for a non-scalar ``out``. See the module docstring."""
    print(explain_text(out, inputs, gradient), file=file if file is not None else sys.stdout)
