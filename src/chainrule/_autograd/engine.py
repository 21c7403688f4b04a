"""The autograd engine: graph nodes, and backward as one iterative pass over them.

Nothing here knows any particular op. An op's forward records a ``Node`` (see
``chainrule._ops.registry.apply``); backward walks the nodes from the outputs to the
leaves and calls each op's vjp rules.

Notes on the invariants:

* **Dependency counting.** Before running anything, backward counts how many edges
  lead into each node. A node runs once, when its count reaches zero, so the gradient
  it receives is complete (the sum over all its consumers). The walk uses explicit
  stacks, never recursion, so a chain of 100,000 ops is fine.
* **Determinism.** Ready nodes run last-in first-out from a list, so the same program
  runs its nodes in the same order and sums gradients in the same order every time.
* **Broadcast reduction** happens in exactly one place, ``_reduce``: every gradient a
  vjp rule returns is summed back to its input's shape (and cast to its dtype) there.
* **Freeing.** Unless ``retain_graph``, a node drops what it saved right after its
  vjp ran (its saved tensors and arrays, and the tensors its version checks hold), so a
  loop that keeps ``loss`` keeps no activations; touching them again raises PyTorch's
  "backward through the graph a second time" error. A node that saved only sizes,
  numbers or a view's layout keeps them, as PyTorch keeps such attributes, and a second
  backward through it works. The structure (``next_functions``) stays, as in PyTorch.
* **No cycles.** A node never holds its own output tensor: when a vjp needs the
  output (``exp``, ``tanh``...), the node keeps the output's array and rebuilds a
  tensor from it during backward. Leaves hold their ``AccumulateGrad`` node, which
  holds the leaf only weakly. So ``del out`` frees the whole graph at once.
* **Gradient accumulation.** A leaf's first gradient is stored as a fresh tensor;
  later ones are added in place (or out of place under ``create_graph``, so the sum
  stays differentiable), exactly like PyTorch's ``AccumulateGrad``.
* **Several outputs.** A node has one output, so an edge is just the node. The one
  exception, a custom ``Function`` returning several tensors, gives each output an
  ``OutputPort``: a node of its own (its tensor's ``grad_fn``: tensor hooks and
  ``retain_grad`` see that output's gradient alone) whose single edge leads to the
  shared node. A port puts its gradient in slot ``index`` of the shared node's buffer,
  a list; the shared node runs once every port has, with None in the slots no
  gradient reached. Single-output nodes never see a list.
* **Saved-tensor hooks.** While ``autograd.graph.saved_tensors_hooks`` is active, a
  node keeps what the pack hook returned instead of its tensors; ``ans`` then holds
  a ``graph.PackedSaved`` (not an array) that unpacks them, and versions are not
  checked (as in PyTorch: the hooks may return any tensor).
"""
import weakref

import numpy as np

from .._core.modes import GRAD_MODE
from .._core.tensor import _type_string, _wrap, extras as _extras, tensor_methods
from .anomaly_mode import checked_vjp, inplace_lines, with_line
from .._core.modes import ANOMALY

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward.")

ANS = object()  # stands for the op's own output among the values a node saved
# node -> the forward-mode tangent of the output it saved as ``ans`` (filled by forward_ad
# while a dual level is active, so that backward inside jvp sees the output as a dual tensor)
ANS_TANGENTS = weakref.WeakKeyDictionary()


class Node:
    """One recorded op: what backward needs to pass a gradient on to the op's inputs.

    ``op``:     the registered op whose vjp rules run (None: the node runs its own
                ``call_backward``, as a custom Function's node does)
    ``next``:   per tensor input, the Node its gradient goes to (None: no gradient needed)
    ``meta``:   per input, the (shape, NumPy dtype) its gradient must have, or None
    ``saved``:  what the op's ``save`` kept for its rules; None once backward freed it
    ``checks``: (version counter, version when saved, tensor) for each saved tensor
    ``ans``:    the output's array when the rules need the output, else None
    ``hooks``:  None, or the node's ``NodeHooks``
    ``where``:  (code, line) of the user's call that made a node which saved tensors
                (unset unless recorded: see anomaly_mode's "Error lines")

    ``meta`` is None as a whole when no input needs reducing: the common case of an
    elementwise op on same-shaped inputs costs nothing here.
    """

    __slots__ = ("op", "next", "meta", "saved", "checks", "ans", "hooks", "where", "_metadata", "__weakref__")

    def name(self):
        return self.op.node_name

    @property
    def next_functions(self):
        """PyTorch's view of the edges: ``((node, 0), ...)``, with ``(None, 0)`` for an
        operand that is a Python number where PyTorch wraps it as a tensor (``x * 2``)."""
        edges = tuple(edge_of(n) for n in self.next)
        return edges + ((None, 0),) if self.op.number_operand else edges

    def display_name(self):
        """The name without PyTorch's C++ namespace: ``CopySlices``, ``AccumulateGrad``."""
        return self.name().rsplit("::", 1)[-1]

    @property
    def metadata(self):
        """A dict that stays with the node; anomaly detection stores where the op was
        called in it (``'traceback_'``, or cheap mode's ``'origin_'``)."""
        try:
            return self._metadata
        except AttributeError:  # nodes are made without __init__ (see registry.record)
            self._metadata = {}
            return self._metadata

    def output_grad_fn(self, index):
        """The ``grad_fn`` of this node's output ``index``: the node (see ``OutputPort``)."""
        return self

    def node_hooks(self):
        if self.hooks is None:
            self.hooks = NodeHooks()
        return self.hooks

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node's vjp."""
        return _Handle(self.node_hooks().post, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node's vjp and may replace them."""
        return _Handle(self.node_hooks().pre, lambda g: _first(fn((g,))))

    def __repr__(self):
        return f"<{self.display_name()} object at {hex(id(self))}>"

    def unpack_saved(self):
        """The saved values, checked against in-place changes, with ``ANS`` rebuilt."""
        saved = self.saved
        if saved is None:
            raise RuntimeError(SECOND_BACKWARD)
        for counter, version, tensor in self.checks:
            if counter[0] != version:
                raise with_line(RuntimeError(_modified_message(self, counter[0], version, tensor)),
                                inplace_lines(self, counter))
        if self.ans is not None:
            if self.ans.__class__ is not np.ndarray:  # packed by saved-tensor hooks
                return self.ans.unpack(saved, self)
            ans = _wrap(self.ans, GRAD_MODE.enabled, self if GRAD_MODE.enabled else None)
            if ANS_TANGENTS and self in ANS_TANGENTS:  # forward over reverse: ans is a dual tensor
                _extras(ans).tangent = ANS_TANGENTS[self]
            saved = (ans,) if len(saved) == 1 else tuple([ans if s is ANS else s for s in saved])
        return saved


_NODE_CLASSES = {}


def node_class(name):
    """The Node subclass a node of ``name`` is made as, so that ``type(y.grad_fn).__name__``
    is PyTorch's ``MulBackward0``, one class per name as in PyTorch. Made on first request and
    cached; ops ask once, when registered, so recording a node costs nothing more.

    >>> type((chainrule.ones(1, requires_grad=True) * 2).grad_fn).__name__
    'MulBackward0'
    """
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        cls = _NODE_CLASSES[name] = type(name.rsplit("::", 1)[-1], (Node,), {"__slots__": ()})
    return cls


class OutputPort(Node):
    """Output ``index`` of ``node``, a node with several outputs (see the module notes).

    To the user it is the shared node: ``name()``, ``next_functions``, its hooks and a
    custom Function's ``ctx`` attributes are the node's. Only tensor hooks and
    ``retain_grad`` stay on the port, because they concern this one output.
    """

    __slots__ = ("node", "index")

    def __init__(self, node, index):
        self.node, self.index = node, index
        self.op = None
        self.next = (node,)
        self.meta = None
        self.saved = self.checks = ()
        self.ans = self.hooks = None

    def name(self):
        return self.node.name()

    @property
    def next_functions(self):
        return self.node.next_functions

    def register_hook(self, fn):
        return self.node.register_hook(fn)

    def register_prehook(self, fn):
        return self.node.register_prehook(fn)

    def __getattr__(self, name):  # ctx attributes of a custom Function
        if name == "node":  # not set yet: never recurse
            raise AttributeError(name)
        return getattr(self.node, name)

    def __repr__(self):
        return repr(self.node)


def edge_of(node):
    """PyTorch's ``(node, output index)`` for an edge: ports show the shared node."""
    return (node.node, node.index) if node.__class__ is OutputPort else (node, 0)


class NodeHooks:
    """A node's hooks: ``pre`` (tensor hooks, may replace the gradient), ``post``
    (see the output gradients) and ``retained`` (weakref to a ``retain_grad`` tensor)."""

    __slots__ = ("pre", "post", "retained")

    def __init__(self):
        self.pre, self.post, self.retained = [], [], None

    def retains(self, tensor):
        return self.retained is not None and self.retained() is tensor


def _first(result):
    return result[0] if isinstance(result, tuple) else result


def _modified_message(node, now, expected, tensor):
    """PyTorch's text; the raiser adds chainrule's line naming where the tensor was
    changed and where the node that saved it was made (``anomaly_mode.inplace_lines``)."""
    if tensor is None:
        data, origin = node.ans, f", which is output 0 of {_short_name(node)},"
    else:
        data = tensor._data
        origin = "" if tensor.grad_fn is None else f", which is output 0 of {_short_name(tensor.grad_fn)},"
    kind = _type_string(data.dtype)
    if ANOMALY.enabled:  # the warning just before this error shows where the node was made
        hint = ("Hint: the backtrace further above shows the operation that failed to compute its "
                "gradient. The variable in question was changed in there or anywhere later. Good luck!")
    else:
        hint = ("Hint: enable anomaly detection to find the operation that failed to compute its "
                "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [{kind} [{', '.join(map(str, data.shape))}]]{origin} is at "
            f"version {now}; expected version {expected} instead. {hint}")


def _short_name(node):
    """PyTorch's name for the forward op in this message: ``MulBackward0`` -> ``Mul``,
    ``SqueezeBackward3`` -> ``Squeeze3`` (an overload keeps its number)."""
    name = node.name()
    if "Backward" not in name:
        return name
    op, overload = name.rsplit("Backward", 1)
    return op if overload == "0" else op + overload


class AccumulateGrad(Node):
    """The node at a leaf: adds the incoming gradient into ``leaf.grad``."""

    __slots__ = ("_variable",)

    def __init__(self, leaf):
        self._variable = weakref.ref(leaf)
        self.next = ()
        self.meta = ()
        self.saved = ()
        self.checks = ()
        self.ans = self.hooks = None

    def name(self):
        return "torch::autograd::AccumulateGrad"

    @property
    def next_functions(self):
        return ()

    @property
    def variable(self):
        return self._variable()


class _Handle:
    """What ``register_hook`` returns: ``remove()`` takes the hook out again."""

    def __init__(self, hooks, fn):
        self._hooks = hooks
        self._fn = fn
        hooks.append(fn)

    def remove(self):
        if self._fn in self._hooks:
            self._hooks.remove(self._fn)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class _TensorMethods:
    def register_hook(self, hook):
        """``hook(grad)`` runs when this tensor's gradient is computed; it may return a
        replacement. Returns a handle whose ``remove()`` unregisters it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            e = _extras(self)
            if e.hooks is None:
                e.hooks = []
            return _Handle(e.hooks, hook)
        return _Handle(self.grad_fn.node_hooks().pre, hook)

    def register_post_accumulate_grad_hook(self, hook):
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        e = _extras(self)
        if e.post_accumulate_hooks is None:
            e.post_accumulate_hooks = []
        return _Handle(e.post_accumulate_hooks, hook)


tensor_methods(_TensorMethods)


def grad_accumulator(leaf):
    """The leaf's one AccumulateGrad node, made on first use."""
    e = _extras(leaf)
    if e.accumulator is None:
        e.accumulator = AccumulateGrad(leaf)
    return e.accumulator


def _reduce(g, shape, dtype):
    """Sums a gradient back to its input's shape and casts it to the input's dtype.

    The one place broadcasting is undone: ``x + y`` with x of shape (3, 1) and y of
    shape (4,) gives a (3, 4) gradient, summed here to (3, 1) and to (4,).
    """
    if g._data.shape != shape:
        g = _sum_to_size(g, shape)
    if g._data.dtype != dtype:
        g = _cast(g.real if g.is_complex() and dtype.kind != "c" else g, dtype)
    return g


def _call_vjp(node, g, wanted):
    """The gradients for each input of ``node`` given the gradient ``g`` of its output."""
    if node.op is None:  # a custom Function: its backward takes all output gradients at once
        return node.call_backward(g, wanted)
    saved = node.saved if node.ans is None and not node.checks and node.saved is not None else node.unpack_saved()
    metas = node.meta
    if len(node.next) == 1:  # most nodes: skip the loop
        if wanted is not None and node.next[0] not in wanted:
            return (None,)
        gi = node.op.vjp[0](g, *saved)
        if metas is not None and metas[0] is not None and gi is not None:
            gi = _reduce(gi, *metas[0])
        return (gi,)
    grads = []
    for i, child in enumerate(node.next):
        if child is None or (wanted is not None and child not in wanted):
            grads.append(None)
            continue
        gi = node.op.vjp[i](g, *saved)
        if metas is not None and metas[i] is not None and gi is not None:
            gi = _reduce(gi, *metas[i])
        grads.append(gi)
    return grads


def _run_hooks(hooks, g):
    for hook in hooks:
        result = hook(g)
        if result is not None:
            if g.__class__ is not list and (result.__class__ is not g.__class__ or result._data.shape !=
                                            g._data.shape or result._data.dtype != g._data.dtype):
                _check_hook_result(hook, g, result)
            g = result
    return g


def _check_hook_result(hook, g, result):
    """PyTorch's errors for a tensor hook whose replacement gradient is not like the one it got."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if not hasattr(result, "_data"):
        raise TypeError(f"expected Variable or None (got {type(result).__name__})")
    if result._data.shape != g._data.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")
    if result._data.dtype != g._data.dtype:
        raise RuntimeError(f"hook '{name}' has changed the type of value (was {_type_string(g._data.dtype)} "
                           f"got {_type_string(result._data.dtype)})")


def _accumulate(leaf, g, create_graph):
    """``AccumulateGrad``: store or add ``g`` into ``leaf.grad`` (see the module notes)."""
    e = leaf._extra
    old = leaf._grad
    if old is None:
        # PyTorch's layout contract: a new .grad is laid out as its leaf (a weight's gradient
        # often arrives transposed, and later element-wise work on the two is slow)
        leaf._grad = g if create_graph else _wrap(_copy_in_layout_of(leaf._data, g._data))
    elif create_graph or GRAD_MODE.enabled:
        leaf._grad = old + g
    else:
        old._data += g._data
    if e is not None and e.post_accumulate_hooks:
        for hook in e.post_accumulate_hooks:
            hook(leaf)


def _holds_arrays(node):
    """Whether a node saved arrays of data (PyTorch's saved variables: backward frees them)
    rather than only sizes, numbers and a view's layout (which PyTorch keeps as attributes,
    so a second backward through them still works)."""
    saved = node.saved
    if saved is None or node.op is None or node.op.is_view:
        return False
    return any(s.__class__ is np.ndarray and s.ndim for s in saved)


def _copy_in_layout_of(like, values):
    out = np.empty_like(like, dtype=values.dtype)
    out[...] = values
    return out


def _count_dependencies(roots):
    """For each node reachable from ``roots``: how many edges lead into it."""
    deps = {}
    stack = list(roots)
    while stack:
        node = stack.pop()
        for child in node.next:
            if child is None:
                continue
            if child in deps:
                deps[child] += 1
            else:
                deps[child] = 1
                if child not in roots:  # first visit: count its own edges once, from here
                    stack.append(child)
    return deps


def _nodes_leading_to(roots, targets):
    """Every node from which some target node can be reached (targets included).

    One pass over the nodes in post-order (children before parents), found by an
    iterative depth-first walk: a node leads to a target if it is one or a child does.
    """
    wanted = set()
    done = set()
    stack = [(node, False) for node in roots]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            if node in targets or any(c in wanted for c in node.next if c is not None):
                wanted.add(node)
            continue
        if node in done:
            continue
        done.add(node)
        stack.append((node, True))
        stack.extend((c, False) for c in node.next if c is not None and c not in done)
    return wanted


def run_backward(roots, root_grads, retain_graph, create_graph, inputs=None, accumulate=True):
    """Backpropagates ``root_grads`` from the tensors ``roots``.

    With ``inputs`` (tensors), only gradients flowing to them are computed; with
    ``accumulate=False`` (``autograd.grad``) they are returned instead of added to
    ``.grad``. Returns the captured gradients, one per input (None when unreached).
    The loop below is the whole algorithm; each concern is a named step.
    """
    root_nodes, buffers = _seed(roots, root_grads)
    targets, wanted = _capture_plan(root_nodes, inputs)
    captured = [None] * (len(inputs) if inputs is not None else 0)
    deps = _count_dependencies(set(root_nodes))
    ready = [n for n in dict.fromkeys(root_nodes) if n not in deps]

    previous_mode = GRAD_MODE.enabled
    GRAD_MODE.enabled = create_graph
    TASKS.append(GraphTask(deps, root_nodes, wanted, targets is not None))
    # the rules' inf * 0 and 0 / 0 give PyTorch's nan without NumPy's RuntimeWarnings (PyTorch
    # prints none): one switch per backward, not one per rule
    numpy_errors = np.seterr(all="ignore")
    try:
        while ready:
            node = ready.pop()
            g = buffers.pop(node, None)
            grads = None
            if g is not None:
                if node.hooks is not None or node.__class__ is AccumulateGrad:
                    g = _hooked(node, g, create_graph)
                if targets is not None and node in targets:
                    for i in targets[node]:
                        captured[i] = g
                if node.__class__ is AccumulateGrad:
                    if accumulate and (targets is None or node in targets):
                        _accumulate_into_leaf(node, g, create_graph)
                    continue
                if node.__class__ is OutputPort:
                    _fill_port(buffers, node, g)
                elif wanted is None or node in wanted:
                    grads = _run_node(node, g, wanted, retain_graph)
            # pass the gradients on; a node is ready once all its consumers have run
            for i, child in enumerate(node.next):
                if child is None:
                    continue
                if grads is not None and grads[i] is not None:
                    gi = grads[i]
                    buffers[child] = buffers[child] + gi if child in buffers else gi
                left = deps[child] - 1
                deps[child] = left
                if left == 0:
                    ready.append(child)
    finally:
        np.seterr(**numpy_errors)
        GRAD_MODE.enabled = previous_mode
        TASKS.pop()
    return captured


def _seed(roots, root_grads):
    """The roots' nodes (a leaf's AccumulateGrad) and their gradients, summed per node."""
    root_nodes = [r.grad_fn if r.grad_fn is not None else grad_accumulator(r) for r in roots]
    buffers = {}
    for node, g in zip(root_nodes, root_grads):
        buffers[node] = buffers[node] + g if node in buffers else g
    return root_nodes, buffers


def _capture_plan(root_nodes, inputs):
    """For ``grad(inputs=...)``: {node: positions in ``inputs`` whose gradient it gives}, and
    the nodes on some path to them (the only ones whose rules run); (None, None) for all."""
    if inputs is None:
        return None, None
    targets = {}
    for i, t in enumerate(inputs):
        node = t.grad_fn if t.grad_fn is not None else grad_accumulator(t)
        targets.setdefault(node, []).append(i)
    return targets, _nodes_leading_to(set(root_nodes), targets)


def _hooked(node, g, create_graph):
    """``g`` through the node's tensor hooks (``register_hook``), given to ``retain_grad``, and
    through a leaf's own hooks."""
    hooks = node.hooks
    if hooks is not None:
        g = _run_hooks(hooks.pre, g)
        if hooks.retained is not None:
            _retain(hooks.retained(), g, create_graph)
    if node.__class__ is AccumulateGrad:
        leaf = node.variable
        if leaf is not None and leaf._extra is not None and leaf._extra.hooks:
            g = _run_hooks(leaf._extra.hooks, g)  # a leaf's hooks see its gradient first
    return g


def _accumulate_into_leaf(node, g, create_graph):
    leaf = node.variable
    if leaf is not None:  # (the leaf may be gone: AccumulateGrad holds it weakly)
        _accumulate(leaf, g, create_graph)


def _fill_port(buffers, port, g):
    """A custom Function's output: its gradient fills its slot of the shared node (module notes)."""
    slots = buffers.get(port.node)
    if slots is None:
        slots = buffers[port.node] = [None] * port.node.n_outputs
    slots[port.index] = g


def _run_node(node, g, wanted, retain_graph):
    """The node's vjp rules (checked under anomaly detection), its post hooks, then freeing
    what it saved unless ``retain_graph`` (see "Freeing" above)."""
    if ANOMALY.enabled:  # the one check anomaly detection costs per node when off
        grads = checked_vjp(_call_vjp, node, g, wanted)
    else:
        grads = _call_vjp(node, g, wanted)
    hooks = node.hooks
    if hooks is not None:
        for hook in hooks.post:
            hook(tuple(grads), tuple(g) if g.__class__ is list else (g,))
    if not retain_graph and (node.checks or node.ans is not None or _holds_arrays(node)):
        node.saved = node.ans = None
        node.checks = ()  # they hold the saved tensors too
    return grads


class GraphTask:
    """One running backward, for what asks about it from inside (hooks, checkpoint).

    ``id``: a number unique to this backward (PyTorch's graph task id).
    ``has_inputs``: it computes gradients for given ``inputs`` only (``grad()``).
    """

    _count = 0

    def __init__(self, deps, roots, wanted, has_inputs):
        GraphTask._count += 1
        self.id = GraphTask._count
        self.deps, self.roots, self.wanted, self.has_inputs = deps, roots, wanted, has_inputs

    def will_execute(self, node):
        """Whether this backward will reach ``node`` (and run it, if it gets a gradient)."""
        return (node in self.deps or node in self.roots) and (self.wanted is None or node in self.wanted)


TASKS = []  # the backward passes now running, innermost last (a Function's backward may nest one)


def _retain(tensor, g, create_graph):
    """``retain_grad()``: a non-leaf keeps the gradient that reached it."""
    if tensor is None:
        return
    g = g if create_graph else g.detach()
    tensor._grad = g.clone() if tensor._grad is None else tensor._grad + g


def use_ops(sum_to_size, cast):
    """Hands the engine the two ops ``_reduce`` applies (differentiable ones, for
    ``create_graph``). Called by ``_ops.reduce.reductions`` once they exist: the ops build on the
    engine, so it cannot import them."""
    global _sum_to_size, _cast
    _sum_to_size, _cast = sum_to_size, cast


def current_grad_fn(t):
    """``t.grad_fn``, rebuilt first if ``t`` is a view whose memory an in-place op changed
    since (``_ops.inplace``'s rule, plugged in as ``rebuild_view``: the rebuilt node is an op's)."""
    return t.grad_fn if t._extra is None else rebuild_view(t)


rebuild_view = None  # set by _ops.inplace: current_grad_fn of a tensor with view state
