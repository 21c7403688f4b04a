"""The backward graph of a tensor as vertices and edges, walked the way torchviz walks it.

Every picture (DOT, SVG, the HTML page) and the summary start from ``walk``: one
vertex per ``grad_fn`` node (named as PyTorch names it), one per leaf tensor (named
from ``params``), the output tensor itself, and on request the tensors each node saved.
Edges point the way gradients *don't* flow, as in torchviz: from a node's input towards
its output, so the leaves come first and the output last.

    >>> x = chainrule.ones(2, requires_grad=True)
    >>> g = walk((x * 2).sum(), {"x": x})
    >>> [v.label for v in g.vertices.values()]
    ['\\n ()', 'SumBackward0', 'MulBackward0', 'x\\n (2)', 'AccumulateGrad']

``statements`` keeps torchviz's order (a node may be defined after an edge that names
it), so ``dot.to_dot`` prints the same text as ``torchviz.make_dot`` but for the ids.
The walk uses a stack, not recursion: a chain of 100,000 ops is fine.
"""
import numpy as np

from .._core.tensor import Tensor, _wrap
from .._autograd.engine import ANS

OUTPUT, BASE, FN, LEAF, SAVED = "output", "base", "fn", "leaf", "saved"
FILL = {OUTPUT: "darkolivegreen1", BASE: "darkolivegreen3", LEAF: "lightblue", SAVED: "orange", FN: None}
MAX_ATTR_CHARS = 50


class Vertex:
    """One box of the picture. ``obj``: the tensor or node it stands for; ``kind``: one of
    OUTPUT, BASE, FN, LEAF, SAVED; ``name``: a leaf's or saved tensor's name (or '')."""

    __slots__ = ("id", "label", "kind", "obj", "name")

    def __init__(self, vid, label, kind, obj, name=""):
        self.id, self.label, self.kind, self.obj, self.name = vid, label, kind, obj, name

    @property
    def fill(self):
        return FILL[self.kind]


class Edge:
    """``tail -> head``; ``attrs``: torchviz's ``dir=none`` (a saved tensor) or
    ``style=dotted`` (a view's base)."""

    __slots__ = ("tail", "head", "attrs")

    def __init__(self, tail, head, attrs=()):
        self.tail, self.head, self.attrs = tail, head, tuple(attrs)

    @property
    def directed(self):
        return ("dir", "none") not in self.attrs


class Graph:
    """``vertices``: id -> Vertex, in the order first defined; ``edges``: every Edge;
    ``statements``: ('node', Vertex) and ('edge', Edge) in torchviz's order."""

    def __init__(self):
        self.vertices, self.edges, self.statements = {}, [], []
        self._ids = {}
        self._keep = []  # the objects whose id() names a vertex stay alive meanwhile

    def id_of(self, obj):
        key = id(obj)
        if key not in self._ids:
            self._ids[key] = str(len(self._ids))
            self._keep.append(obj)
        return self._ids[key]

    def node(self, obj, label, kind, name=""):
        vertex = Vertex(self.id_of(obj), label, kind, obj, name)
        # a tensor defined twice (saved twice, or a leaf that is also saved) shows the
        # last definition, as in Graphviz; it keeps its first place in the order
        self.vertices[vertex.id] = vertex
        self.statements.append(("node", vertex))

    def edge(self, tail, head, attrs=()):
        edge = Edge(self.id_of(tail), self.id_of(head), attrs)
        self.edges.append(edge)
        self.statements.append(("edge", edge))


def node_name(fn):
    """PyTorch's class name for a grad_fn: ``MulBackward0``, ``AccumulateGrad``."""
    return fn.name().rsplit("::", 1)[-1]


def size_text(shape):
    """torchviz's shape text: ``(2, 2)``, ``(3)``, ``()``."""
    return "(" + ", ".join(str(int(n)) for n in shape) + ")"


def _param_names(params):
    if params is None:
        return {}
    items = params.items() if hasattr(params, "items") else params
    names = {}
    for name, tensor in items:
        if not isinstance(tensor, Tensor):
            raise TypeError(f"params must map names to tensors, got {type(tensor).__name__} for {name!r}")
        names[id(tensor)] = name
    return names


def saved_items(fn):
    """``(name, value)`` for what a node saved: its vjp's values in order (``saved_0``...),
    the op's output as ``result``; a custom Function's ``saved_tensors``. Empty once
    backward freed them. chainrule's nodes keep values by position, not by PyTorch's
    attribute names (``self``, ``other``), so the names are positions."""
    saved = getattr(fn, "saved", None)
    if not saved:
        return []
    if getattr(fn, "op", None) is None:  # a custom Function's ctx
        try:
            tensors = fn.saved_tensors
        except RuntimeError:
            return []
        return [(f"saved_tensors[{i}]", t) for i, t in enumerate(tensors)]
    items = []
    for i, value in enumerate(saved):
        if value is ANS:
            items.append(("result", _ans_tensor(fn)))
        else:
            items.append((f"saved_{i}", value))
    return items


def _ans_tensor(fn):
    if fn.ans is None or fn.ans.__class__ is not np.ndarray:
        return None
    return _wrap(fn.ans)


def fn_label(fn, show_attrs):
    """torchviz's ``get_fn_name``: the name, and with ``show_attrs`` a table of what it saved."""
    name = node_name(fn)
    if not show_attrs:
        return name
    attrs = {}
    for key, value in saved_items(fn):
        if isinstance(value, Tensor):
            attrs[key] = "[saved tensor]"
        elif isinstance(value, (tuple, list)) and any(isinstance(t, Tensor) for t in value):
            attrs[key] = "[saved tensors]"
        else:
            attrs[key] = str(value)
    if not attrs:
        return name
    col1 = max(len(k) for k in attrs)
    col2 = min(max(len(v) for v in attrs.values()), MAX_ATTR_CHARS)
    rows = []
    for key, value in attrs.items():
        value = value[:col2 - 3] + "..." if len(value) > col2 else value
        rows.append(f"{key:<{col1}}: {value:>{col2}}")
    return name + "\n" + "-" * max(col1 + col2 + 2, len(name)) + "\n" + "\n".join(rows)


def walk(roots, params=None, show_attrs=False, show_saved=False):
    """The Graph of ``roots`` (a tensor or a tuple of tensors); see the module docstring."""
    names = _param_names(params)
    graph = Graph()
    seen = set()

    def var_label(tensor, name=None):
        if not name:
            name = names.get(id(tensor), "")
        return f"{name}\n {size_text(tensor.shape)}"

    def visit_fn(fn):
        """Adds ``fn``'s own statements; returns the children still to walk, in order."""
        if show_saved:
            for key, value in saved_items(fn):
                tensors = [(key, value)] if isinstance(value, Tensor) else (
                    [(f"{key}[{i}]", t) for i, t in enumerate(value) if isinstance(t, Tensor)]
                    if isinstance(value, tuple) else [])
                for label, tensor in tensors:
                    seen.add(id(tensor))
                    graph.edge(fn, tensor, (("dir", "none"),))
                    graph.node(tensor, var_label(tensor, label), SAVED, label)
        variable = getattr(fn, "variable", None)
        if variable is not None:
            seen.add(id(variable))
            graph.node(variable, var_label(variable), LEAF, names.get(id(variable), ""))
            graph.edge(variable, fn)
        graph.node(fn, fn_label(fn, show_attrs), FN)
        return [child for child, _ in fn.next_functions if child is not None]

    def add_nodes(start):
        # torchviz's recursive add_nodes, with an explicit stack of child iterators
        if id(start) in seen:
            return
        seen.add(id(start))
        stack = [(start, iter(visit_fn(start)))]
        while stack:
            fn, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                continue
            graph.edge(child, fn)
            if id(child) not in seen:
                seen.add(id(child))
                stack.append((child, iter(visit_fn(child))))

    def add_base_tensor(tensor, kind=OUTPUT):
        while tensor is not None and id(tensor) not in seen:
            seen.add(id(tensor))
            graph.node(tensor, var_label(tensor), kind, names.get(id(tensor), ""))
            if tensor.grad_fn is not None:
                add_nodes(tensor.grad_fn)
                graph.edge(tensor.grad_fn, tensor)
            base = tensor._base
            if base is None:
                return
            if id(base) not in seen:
                # torchviz draws the base, then the dotted edge; the base has no base itself
                seen.add(id(base))
                graph.node(base, var_label(base), BASE, names.get(id(base), ""))
                if base.grad_fn is not None:
                    add_nodes(base.grad_fn)
                    graph.edge(base.grad_fn, base)
            graph.edge(base, tensor, (("style", "dotted"),))
            return

    for root in roots if isinstance(roots, tuple) else (roots,):
        add_base_tensor(root)
    return graph


def output_meta(out):
    """node -> (shape, NumPy dtype) of its output, for every node behind ``out`` (a
    tensor or tuple of tensors); a node with several outputs maps to None."""
    roots = out if isinstance(out, tuple) else (out,)
    meta, stack = {}, []
    for t in roots:
        if t.grad_fn is not None:
            meta[t.grad_fn] = (t._data.shape, t._data.dtype)
            stack.append(t.grad_fn)
    while stack:
        node = stack.pop()
        own = meta[node]
        metas = getattr(node, "meta", None)
        for i, child in enumerate(getattr(node, "next", ())):
            if child is None or child in meta:
                continue
            if getattr(child, "n_outputs", 1) > 1:  # a custom Function with several outputs
                meta[child] = None
            elif metas is not None and len(metas) > i and metas[i] is not None:
                meta[child] = tuple(metas[i])
            else:
                meta[child] = own
            stack.append(child)
    return meta
