"""``autograd.Function``: an op whose forward and backward the user writes.

>>> class Cube(chainrule.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         ctx.save_for_backward(x)
...         return x ** 3
...     @staticmethod
...     def backward(ctx, g):
...         x, = ctx.saved_tensors
...         return 3 * x ** 2 * g
>>> y = Cube.apply(chainrule.tensor(2.0, requires_grad=True))   # grad_fn=<CubeBackward>

``apply`` runs ``forward`` with grad mode off, then records one graph node,
``BackwardCFunction``, which is also the ``ctx`` that forward saw: what forward stored
on it is there in backward, as in PyTorch. The node's backward takes the gradients of
all outputs at once; a forward returning a tuple gives each output an ``OutputPort``
(see the engine's notes on several outputs).

Notes:

* **Arguments.** Only tensors among the positional arguments get edges
  (``next_functions``); ``backward`` returns one gradient per positional argument, None
  for the others. Extra trailing Nones are allowed, as in PyTorch.
* **Gradient checks.** Each returned gradient is summed to its input's shape when it
  broadcasts to it (and cast to its dtype), else PyTorch's "invalid gradient" error.
* **Saving.** ``save_for_backward`` records the tensors; ``apply`` saves them once the
  outputs are known, so a saved output is kept as its array (no cycle) and rebuilt
  with this node as ``grad_fn``. Versions are checked on access, and backward frees
  them unless ``retain_graph``. Nothing is saved when no backward can run.
* **Several outputs.** Each output of a tuple has its own ``grad_fn``, a port of the
  one node (so, unlike PyTorch, ``a.grad_fn is b.grad_fn`` is False; names, edges and
  ``ctx`` attributes are the node's).
* **Forward mode** calls ``jvp(ctx, *input_tangents)`` after forward (zeros for inputs
  without tangent, None for non-tensors). **vmap** calls the ``vmap`` staticmethod on
  the inner tensors, batch dim first (``in_dims`` is 0 or None), or with
  ``generate_vmap_rule=True`` runs the Function once per sample (``_Vmapped``).
"""
import functools
import inspect
import warnings
import weakref
from typing import NamedTuple

import numpy as np

from .._core import tensor as _tensor
from .._functorch import batched
from .._ops.index.indexing import select
from .._ops.shape.joining import stack
from .._ops.tangents import set_tangent, tangent_of
from .._autograd import graph
from .._autograd.anomaly_mode import inplace_lines, with_line
from .._autograd.engine import (SECOND_BACKWARD, Node, OutputPort, _Handle, _modified_message, _reduce,
                                current_grad_fn, edge_of, grad_accumulator)
from .._core.modes import FORWARD_AD, GRAD_MODE, SAVED_HOOKS, VMAP

_LEGACY = ("Legacy autograd function with non-static forward method is deprecated. Please use new-style "
           "autograd function with static forward method. (Example: "
           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")


class FunctionCtx:
    """What ``forward`` (or ``setup_context``) may call on ``ctx``."""

    def save_for_backward(self, *tensors):
        """Keeps ``tensors`` (or None) for ``ctx.saved_tensors`` in backward."""
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, _tensor.Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        """Keeps ``tensors`` (or None) for ``ctx.saved_tensors`` in ``jvp`` (forward mode)."""
        for t in tensors:
            if t is not None and not isinstance(t, _tensor.Tensor):
                raise AssertionError("save_for_forward expects all arguments to be tensors; you should save "
                                     "non-tensors as attributes on ctx.")
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors):
        """``tensors`` were changed in place by forward and are returned: they become
        outputs of this node (their history is rewritten, as for any in-place op)."""
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        """These outputs never require grad (indices, masks); backward still gets a
        gradient slot for each (zeros, or None without materialized grads)."""
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        """False: backward gets None, not zeros, for outputs no gradient reached."""
        self.materialize_grads = value


class BackwardCFunction(Node, FunctionCtx):
    """The graph node of one ``Function.apply`` call, and the ``ctx`` of its forward.

    Beyond ``Node``'s fields: ``_forward_cls`` (the Function), ``n_outputs``,
    ``out_meta`` (per output, (shape, dtype) or None for a non-tensor), ``ports``
    (weak references to the outputs' ``OutputPort`` s when forward returned a tuple), ``arg_slots`` (the
    positional index of each tensor input) and ``n_args``.
    """

    def __init__(self, cls):
        self._forward_cls = cls
        self.op = None
        self.next = ()
        self.meta = None
        self.saved = self.checks = ()
        self.ans = self.hooks = None
        self.ports = None
        self.to_save = ()
        self.dirty_tensors = self.non_differentiable = ()
        self.materialize_grads = True
        self.needs_input_grad = ()
        self._name = None
        self.in_jvp = False

    def name(self):
        return self._name or self._forward_cls._node_name or f"{self._forward_cls.__name__}Backward"

    def __repr__(self):
        if self._forward_cls._node_name:  # one of PyTorch's C++ nodes
            return f"<{self.display_name()} object at {hex(id(self))}>"
        return f"<torch.autograd.function.{self.name()} object at {hex(id(self))}>"

    def register_prehook(self, fn):
        """``fn(grad_outputs)``, a tuple with one gradient per output, may replace them."""
        def hook(g):
            several = g.__class__ is list
            result = fn(tuple(g) if several else (g,))
            if result is None:
                return None
            return list(result) if several else result[0]
        return _Handle(self.node_hooks().pre, hook)

    @property
    def next_functions(self):
        return tuple(edge_of(n) for n in self.next)

    def output_grad_fn(self, index):
        """The ``grad_fn`` that output ``index`` has: this node, or its port. The node
        holds its ports weakly (each port holds the node: no cycle); a port whose
        tensor is gone is made again."""
        if self.ports is None:
            return self
        port = self.ports[index]()
        if port is None:
            port = OutputPort(self, index)
            self.ports[index] = weakref.ref(port)
        return port

    @property
    def saved_tensors(self):
        """The saved tensors, checked against in-place changes since they were saved.
        While ``jvp`` runs: what ``save_for_forward`` kept."""
        if self.in_jvp:
            return tuple(getattr(self, "saved_for_forward", ()))
        saved = self.saved
        if saved is None:
            raise RuntimeError(SECOND_BACKWARD)
        if self.ans is not None:  # packed by saved-tensor hooks
            return self.ans.unpack(saved, self)
        for counter, version, tensor in self.checks:
            if counter[0] != version:
                if tensor.__class__ is _SavedOutput:
                    tensor = tensor.rebuild(self)
                raise with_line(RuntimeError(_modified_message(self, counter[0], version, tensor)),
                                inplace_lines(self, counter))
        return tuple([s.rebuild(self) if s.__class__ is _SavedOutput else s for s in saved])

    def call_backward(self, g, wanted):
        """Runs the user's backward on every output's gradient; the engine gets one
        gradient per tensor input (``self.next``), checked and reduced to its input."""
        cls = self._forward_cls
        grads = list(g) if g.__class__ is list else [g]
        if self.materialize_grads:
            for i, meta in enumerate(self.out_meta):
                if grads[i] is None and meta is not None:
                    grads[i] = _tensor._wrap(np.zeros(*meta))
        result = _user_backward(cls)(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        name = self.name()
        if len(result) != self.n_args:
            if len(result) < self.n_args or any(r is not None for r in result[self.n_args:]):
                raise RuntimeError(f"function {name} returned an incorrect number of gradients (expected "
                                   f"{self.n_args}, got {len(result)})")
        for i, r in enumerate(result[:self.n_args]):
            if r is not None and not isinstance(r, _tensor.Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(r).__name__})")
            if r is not None and i not in self.arg_slots:
                raise RuntimeError(f"function {name} returned a gradient different than None at position "
                                   f"{i + 1}, but the corresponding forward input was not a Variable")
        out = []
        for k, (slot, child) in enumerate(zip(self.arg_slots, self.next)):
            r = result[slot]
            if r is None or child is None or (wanted is not None and child not in wanted):
                out.append(None)
                continue
            shape, dtype = self.meta[k]
            if r._data.shape != shape and not _broadcasts_to(shape, r._data.shape):
                raise RuntimeError(f"Function {name} returned an invalid gradient at index {k} - got "
                                   f"{list(r._data.shape)} but expected shape compatible with {list(shape)}")
            out.append(_reduce(r, shape, dtype))
        return out


def _dead_port():
    return None


def _broadcasts_to(shape, target):
    """Whether ``shape`` expands to ``target``, so a ``target`` gradient sums back to it."""
    if len(shape) > len(target):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(target)))


def _user_backward(cls):
    """``backward`` or ``vjp``, whichever the Function defines (PyTorch's two names)."""
    has_backward = cls.backward is not Function.backward
    has_vjp = cls.vjp is not Function.vjp
    if has_backward and has_vjp:
        raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
                           "You should only implement one of them.")
    return cls.vjp if has_vjp else cls.backward


class _SavedOutput:
    """A saved output of the node itself: its array only, so the node holds no cycle."""

    __slots__ = ("index", "data", "counter")

    def __init__(self, index, tensor):
        self.index, self.data, self.counter = index, tensor._data, tensor._counter

    def rebuild(self, node):
        t = _tensor._wrap(self.data, True, node.output_grad_fn(self.index))
        t._counter = self.counter
        return t


class Function:
    """Base class of user-defined ops: subclass it, write ``forward`` and ``backward`` as
    staticmethods, call ``YourFunction.apply(*args)``. See the module docstring."""

    generate_vmap_rule = False
    _node_name = None  # the node's name when not ``<Class>Backward``

    def __init_subclass__(cls, **kwargs):
        """Each Function gets its node class, named as PyTorch names it (``type(y.grad_fn)``
        is ``CubeBackward``, a ``BackwardCFunction``)."""
        super().__init_subclass__(**kwargs)
        name = cls._node_name.rsplit("::", 1)[-1] if cls._node_name else f"{cls.__name__}Backward"
        cls._backward_cls = type(name, (BackwardCFunction,), {"__module__": BackwardCFunction.__module__})

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
                      "static, so you should invoke them on the class itself. Instantiating an autograd "
                      "function will raise an error in a future version of PyTorch.", DeprecationWarning,
                      stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(_LEGACY)

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use "
                                  "it with forward mode AD.")

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError("To use autograd.Function with vmap, you must either override the vmap "
                                  "staticmethod or set generate_vmap_rule=True.")

    @classmethod
    def apply(cls, *args, **kwargs):
        return _apply(cls, args, kwargs)


def _apply(cls, args, kwargs):
    if VMAP.active and any(a.__class__ is batched.BatchedTensor for a in args):
        return _apply_batched(cls, args, kwargs)
    ctx = cls._backward_cls(cls)
    Tensor = _tensor.Tensor
    with_setup = cls.setup_context is not Function.setup_context
    if with_setup:
        args = _bind_defaults(cls.forward, args, kwargs)
    elif kwargs:
        args = _bind_keywords(cls.forward, args, kwargs)
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in args)
    tangents = _tangents(args) if FORWARD_AD.active else None
    previous, previous_forward = GRAD_MODE.enabled, FORWARD_AD.active
    GRAD_MODE.enabled = FORWARD_AD.active = False  # forward is the op itself: never recorded
    try:
        if with_setup:
            output = cls.forward(*args)
            cls.setup_context(ctx, args, output)
        else:
            output = cls.forward(ctx, *args)
    finally:
        GRAD_MODE.enabled, FORWARD_AD.active = previous, previous_forward
    outputs = output if isinstance(output, tuple) else (output,)
    _check_dirty(ctx, outputs)
    is_recorded = previous and any(ctx.needs_input_grad)
    if is_recorded:
        ctx.arg_slots = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.n_args = len(args)
        _connect_inputs(ctx, [args[i] for i in ctx.arg_slots])
        if isinstance(output, tuple):
            ctx.ports = [_dead_port] * len(outputs)
        outputs = _connect_outputs(ctx, args, outputs)
    if tangents is not None:
        _forward_tangents(ctx, args, outputs, tangents)
    if is_recorded:  # as PyTorch: nothing is saved (nor packed) when no backward can run
        _save(ctx, outputs)
    return outputs if isinstance(output, tuple) else outputs[0]


def _tangents(args):
    """Each argument's forward-mode tangent (None without); None when none has one."""
    Tensor = _tensor.Tensor
    tangents = [tangent_of(a) if isinstance(a, Tensor) else None for a in args]
    return tangents if any(t is not None for t in tangents) else None


def _forward_tangents(ctx, args, outputs, tangents):
    """Forward mode: the outputs' tangents from the user's ``jvp`` (PyTorch calls it
    before the tensors are saved for backward: there ``ctx.saved_tensors`` are the ones
    ``save_for_forward`` kept)."""
    cls = ctx._forward_cls
    if cls.jvp is Function.jvp:
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                  "with forward mode AD.")
    Tensor = _tensor.Tensor
    if ctx.materialize_grads:
        tangents = [_tensor._wrap(np.zeros_like(a._data)) if t is None and isinstance(a, Tensor) else t
                    for a, t in zip(args, tangents)]
    previous, FORWARD_AD.active = FORWARD_AD.active, False  # the rule's own ops: no tangents
    ctx.in_jvp = True
    try:
        result = cls.jvp(ctx, *tangents)
    finally:
        FORWARD_AD.active = previous
        ctx.in_jvp = False
    result = result if isinstance(result, tuple) else (result,)
    if len(result) != len(outputs):
        raise RuntimeError(f"Function's jvp returned an invalid number of forward gradients (expected "
                           f"{len(outputs)} but got {len(result)})")
    for out, tangent in zip(outputs, result):
        if isinstance(out, Tensor) and tangent is not None:
            if tangent._data.shape != out._data.shape:
                raise RuntimeError("Trying to set a forward gradient that has a different size than that of the "
                                   f"original Tensor, this is not supported. Tensor is of size "
                                   f"{list(out._data.shape)} while the given forward gradient is of size "
                                   f"{list(tangent._data.shape)}.")
            set_tangent(out, tangent)


def _bind_defaults(forward, args, kwargs):
    """``args`` and ``kwargs`` as positional arguments, defaults filled in: what
    ``setup_context`` receives as ``inputs`` (PyTorch binds them the same way)."""
    bound = inspect.signature(forward).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args


def _bind_keywords(forward, args, kwargs):
    """Keyword arguments of ``apply`` become positional inputs, in ``forward``'s order,
    up to the last one given (PyTorch's rule: defaults before it are not filled in)."""
    params = inspect.signature(forward).parameters.values()
    names = [p.name for p in params if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD][1:]  # not ctx
    for name in kwargs:
        if name not in names[len(args):]:
            raise TypeError(f"forward() got an unexpected keyword argument '{name}'")
    args, left = list(args), dict(kwargs)
    for position in range(len(args), len(names)):
        if not left:
            break
        if names[position] not in left:
            raise TypeError(f"forward() missing required argument: '{names[position]}' (position {position})")
        args.append(left.pop(names[position]))
    return tuple(args)


def _check_dirty(ctx, outputs):
    for t in ctx.dirty_tensors:
        if not any(t is o for o in outputs):
            raise RuntimeError("Some elements marked as dirty during the forward method were not returned as "
                               "output. The inputs that are modified inplace must all be outputs of the "
                               "Function.")
        if t._requires_grad and t.grad_fn is None and GRAD_MODE.enabled:
            raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
        t._counter[0] += 1  # PyTorch counts marking dirty as one more in-place change


def _connect_inputs(ctx, tensors):
    """The node's edges and the (shape, dtype) each input's gradient must have."""
    edges = []
    for t in tensors:
        if not t._requires_grad:
            edges.append(None)
            continue
        fn = t.grad_fn if t._extra is None else current_grad_fn(t)
        edges.append(fn if fn is not None else grad_accumulator(t))
    ctx.next = tuple(edges)
    ctx.meta = [(t._data.shape, t._data.dtype) for t in tensors]


def _connect_outputs(ctx, args, outputs):
    """Makes each differentiable tensor output an output of ``ctx``. An input returned
    unchanged comes back as a new tensor sharing its memory, as PyTorch's ``view_as``."""
    Tensor = _tensor.Tensor
    result = []
    ctx.n_outputs = len(outputs)
    ctx.out_meta = [(o._data.shape, o._data.dtype) if isinstance(o, Tensor) else None for o in outputs]
    for i, o in enumerate(outputs):
        if not isinstance(o, Tensor):
            result.append(o)
            continue
        if any(o is t for t in ctx.non_differentiable) or o._data.dtype.kind not in "fc":
            o._requires_grad = False
            result.append(o)
            continue
        is_dirty = any(o is t for t in ctx.dirty_tensors)
        if not is_dirty and any(o is a for a in args):
            alias = _tensor._wrap(o._data)
            alias._counter = o._counter
            o = alias
        o.grad_fn = ctx.output_grad_fn(i)
        o._requires_grad = True
        result.append(o)
    return tuple(result)


def _save(ctx, outputs):
    """Saves what forward passed to ``save_for_backward`` (see the module notes)."""
    to_save = ctx.to_save
    ctx.to_save = ()
    if not to_save:
        return
    indices = [next((i for i, o in enumerate(outputs) if o is t), None) for t in to_save]
    if SAVED_HOOKS:
        ctx.saved, ctx.ans = graph.pack_all(to_save, indices)
        ctx.checks = graph.FREEABLE
        return
    saved, checks = [], []
    for t, index in zip(to_save, indices):
        if t is None:
            saved.append(None)
            continue
        item = t if index is None else _SavedOutput(index, t)
        saved.append(item)
        checks.append((t._counter, t._counter[0], item))
    ctx.saved = tuple(saved)
    ctx.checks = checks or graph.FREEABLE


# --- under vmap -------------------------------------------------------------------------

_FUNC_NOTES = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


class VmapInfo(NamedTuple):
    """What a ``vmap`` staticmethod learns about the running vmap."""
    batch_size: int
    randomness: str


def _apply_batched(cls, args, kwargs):
    """``apply`` with a batched argument: the Function's ``vmap`` staticmethod, or with
    ``generate_vmap_rule=True`` the Function itself once per sample (``_Vmapped``)."""
    if cls.setup_context is Function.setup_context:
        raise RuntimeError("In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, "
                           "jacrev, ...), it must override the setup_context staticmethod. " + _FUNC_NOTES)
    has_rule = cls.vmap is not Function.vmap
    if cls.generate_vmap_rule and has_rule:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it has both generate_vmap_rule=True and "
                           "an overridden vmap staticmethod. Please set generate_vmap_rule=False or delete the "
                           "overridden vmap staticmethod to avoid ambiguity. " + _FUNC_NOTES)
    if not cls.generate_vmap_rule and not has_rule:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please "
                           "override and implement the vmap staticmethod or set generate_vmap_rule=True. "
                           + _FUNC_NOTES)
    args = _bind_defaults(cls.forward, args, kwargs)
    level = max(a._level for a in args if a.__class__ is batched.BatchedTensor)
    flags = tuple(batched.is_batched_at(a, level) for a in args)
    inner = [a._inner if b else a for a, b in zip(args, flags)]
    if cls.generate_vmap_rule:
        outputs = _Vmapped.apply(cls, flags, *inner)
        return _wrap_outputs(outputs[:-1] if outputs[-1] else outputs[0], 0, level)
    size, randomness = batched.LEVELS[level - 1]
    result = cls.vmap(VmapInfo(size, randomness), tuple(0 if b else None for b in flags), *inner)
    if not isinstance(result, tuple) or len(result) != 2:
        kind = "<class 'torch.Tensor'>" if isinstance(result, _tensor.Tensor) else type(result)
        raise RuntimeError("Expected the vmap staticmethod to have two returns, an output and out_dims with pytree "
                           f"structure compatible with the output. Got a {kind} instead")
    return _wrap_outputs(*result, level)


def _wrap_outputs(outputs, out_dims, level):
    """The vmap rule's outputs as seen inside the vmap: batched along ``out_dims``."""
    single = not isinstance(outputs, tuple)
    dims = (out_dims,) * (1 if single else len(outputs)) if not isinstance(out_dims, tuple) else out_dims
    if len(dims) != (1 if single else len(outputs)):
        raise RuntimeError(f"The autograd.Function's vmap staticmethod returned an incompatible (output, out_dims) "
                           f"tuple. Expected out_dims={out_dims} to be compatible with the structure of `output`. "
                           + _FUNC_NOTES)
    wrapped = []
    for out, dim in zip((outputs,) if single else outputs, dims):
        if dim is None or not isinstance(out, _tensor.Tensor):
            wrapped.append(out)
        else:
            wrapped.append(batched.wrap(out if dim == 0 else out.movedim(dim, 0), level))
    return wrapped[0] if single else tuple(wrapped)


class _Vmapped(Function):
    """``generate_vmap_rule=True``: the user's Function once per sample, forward,
    ``setup_context`` and backward alike (as the registry runs an op without batching
    rule), on the inner tensors, batch dim first. The node is PyTorch's
    ``Vmapped<Name>Backward``. The last output says whether forward returned one tensor."""

    @staticmethod
    def forward(ctx, cls, flags, *inner):
        ctx._name = f"Vmapped{cls.__name__}Backward"
        ctx.flags = flags
        ctx.samples = []
        size = next(a for a, b in zip(inner, flags) if b)._data.shape[0]
        results = []
        for i in range(size):
            sample = tuple(select(a, 0, i) if b else a for a, b in zip(inner, flags))
            sample_ctx = cls._backward_cls(cls)
            sample_ctx.needs_input_grad = ctx.needs_input_grad[2:]
            output = cls.forward(*sample)
            cls.setup_context(sample_ctx, sample, output)
            outputs = output if isinstance(output, tuple) else (output,)
            _save(sample_ctx, outputs)
            ctx.samples.append(sample_ctx)
            results.append(outputs)
        stacked = tuple(stack([r[k] for r in results]) if isinstance(results[0][k], _tensor.Tensor)
                        else results[0][k] for k in range(len(results[0])))
        return stacked + (isinstance(output, tuple),)

    @staticmethod
    def backward(ctx, *grads):
        per_input = None
        for i, sample_ctx in enumerate(ctx.samples):
            sample_grads = [None if g is None else select(g, 0, i) for g in grads[:-1]]
            result = _user_backward(sample_ctx._forward_cls)(sample_ctx, *sample_grads)
            result = result if isinstance(result, tuple) else (result,)
            per_input = [[] for _ in result] if per_input is None else per_input
            for collected, g in zip(per_input, result):
                collected.append(g)
        grads_in = []
        for collected, flag in zip(per_input, ctx.flags):
            if any(g is None for g in collected):
                grads_in.append(None)
            elif flag:
                grads_in.append(stack(collected))
            else:  # an input shared by every sample gets the sum of their gradients
                grads_in.append(functools.reduce(lambda a, b: a + b, collected))
        return (None, None) + tuple(grads_in)


def once_differentiable(fn):
    """Decorates a ``backward`` that is not itself differentiable: under
    ``create_graph`` its results are marked so that differentiating them again raises
    PyTorch's error, instead of silently giving a wrong (zero) second derivative."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        previous = GRAD_MODE.enabled
        GRAD_MODE.enabled = False
        try:
            outputs = fn(ctx, *args)
        finally:
            GRAD_MODE.enabled = previous
        if not previous or not any(isinstance(a, _tensor.Tensor) and a._requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        marked = []
        for v in outputs:
            if v is not None:
                v = v.detach()
                v._requires_grad = True
            marked.append(v)
        marked = DelayedError.apply(*marked)
        return marked[0] if single else marked
    return wrapper


class DelayedError(Function):
    """Passes its inputs through; differentiating the result raises the error."""

    _node_name = "torch::autograd::Error"

    @staticmethod
    def forward(ctx, *tensors):
        return tuple(t.detach() if t is not None else None for t in tensors)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")

