"""The op registry: every op is one ``defop`` entry, its forward and rules side by side.

An entry says:

* ``forward(*arrays, *params)``: the NumPy computation.
* ``save(ans, *inputs, *params)``: what the rules need, chosen at forward time so the
  graph keeps only that (``mul`` keeps both inputs, ``add`` keeps nothing, ``exp``
  keeps its output). Omitted: the rules get nothing but the incoming gradient.
* ``vjp``: one rule per tensor input, ``rule(g, *saved) -> gradient for that input``.
  Backward calls only the rules of inputs that need a gradient.
* ``jvp``: one rule per tensor input, ``rule(tangent, *saved) -> output tangent``;
  forward mode sums them over the inputs that carry a tangent.
* ``node``: PyTorch's name for the backward node (``MulBackward0``).

Rules are written with chainrule's own ops. Backward runs them with grad mode off (plain
first-order backward: no graph is built) or on (``create_graph=True``: the gradient
is itself recorded and can be differentiated again). One formula, both uses.
"""
from numpy import asarray, ndarray

from ..autograd.engine import ANS, Node, grad_accumulator
from ..autograd.grad_mode import STATE
from .._tensor import Tensor, _wrap

OPS = {}


class Op:
    """A registered op. See the module docstring for the fields."""

    __slots__ = ("name", "forward", "save", "vjp", "jvp", "node_name", "is_view")

    def __init__(self, name, forward, node, vjp, jvp, save, is_view):
        self.name = name
        self.forward = forward
        self.node_name = node
        self.vjp = vjp if isinstance(vjp, tuple) else (vjp,)
        self.jvp = jvp if isinstance(jvp, tuple) else (jvp,)
        self.save = save
        self.is_view = is_view

    def __repr__(self):
        return f"<op {self.name}>"


def defop(name, forward, *, node, vjp, jvp, save=None, view=False):
    """Registers an op; ``view=True`` marks outputs that share memory with input 0."""
    if name in OPS:
        raise ValueError(f"op {name!r} registered twice")
    op = OPS[name] = Op(name, forward, node, vjp, jvp, save, view)
    return op


def apply(op, inputs, params=(), dtype=None):
    """Runs ``op`` on the tensors ``inputs`` and records a graph node when needed.

    ``dtype``: the result's NumPy dtype when PyTorch's promotion differs from NumPy's
    (the callers decide; see ``_dtype``).
    """
    if len(inputs) == 1:
        data = op.forward(inputs[0]._data, *params)
    else:
        data = op.forward(*[t._data for t in inputs], *params)
    if data.__class__ is not ndarray:  # NumPy returns scalars from 0-d computations
        data = asarray(data)
    if dtype is not None and data.dtype != dtype:
        data = data.astype(dtype)
    out = _wrap(data)
    if op.is_view:
        _mark_view(out, inputs[0], op, params)
    if STATE.enabled:
        for t in inputs:
            if t._requires_grad:
                record(op, out, inputs, params)
                break
    return out


def record(op, out, inputs, params):
    """Attaches to ``out`` the node that backward will run for ``op``."""
    node = Node.__new__(Node)
    node.op = op
    node.next = tuple([_edge(t) for t in inputs])
    node.meta = tuple([(t._data.shape, t._data.dtype) if t._requires_grad else None
                       for t in inputs])
    node.ans = node.pre_hooks = node.hooks = node.retained = None
    if op.save is None:
        node.saved = node.checks = ()
    else:
        saved = op.save(out, *inputs, *params)
        checks = []
        for s in saved:
            if isinstance(s, Tensor):
                if s is out:
                    node.ans = out._data
                    checks.append((out._version, out._version[0], None))
                else:
                    checks.append((s._version, s._version[0], s))
        node.saved = tuple([ANS if s is out else s for s in saved]) if node.ans is not None else saved
        node.checks = checks
    out._requires_grad = True
    out.grad_fn = node
    return node


def _edge(t):
    if t.grad_fn is not None:
        return t.grad_fn
    if t._requires_grad:
        return t._accumulator or grad_accumulator(t)
    return None


def _mark_view(out, x, op, params):
    """``out`` shares ``x``'s memory: same version counter, and a recipe to rebuild it
    from the base (used when an in-place op on the view must update the base's graph)."""
    out._version = x._version
    if x._base is None:
        out._base, out._view_steps = x, ((op, params),)
    else:
        out._base, out._view_steps = x._base, x._view_steps + ((op, params),)


def replay_view(base, steps):
    """Applies recorded view steps to ``base`` (a tensor), giving the same view again."""
    for op, params in steps:
        base = apply(op, (base,), params)
    return base


def jvp(op, inputs, tangents, params=()):
    """The output tangent of ``op`` at ``inputs`` for input tangents (None: zero)."""
    out = apply(op, inputs, params)
    saved = op.save(out, *inputs, *params) if op.save is not None else ()
    total = None
    for rule, t in zip(op.jvp, tangents):
        if t is not None:
            term = rule(t, *saved)
            total = term if total is None else total + term
    if total is not None and total.shape != out.shape:
        total = total.expand(out.shape)
    return out, total
