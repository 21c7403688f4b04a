"""BatchedTensor: what a function under ``vmap`` sees of a batched input.

A BatchedTensor is a Tensor whose shape and dtype are ONE sample's (the *logical*
tensor); ``_inner`` holds the whole batch, batch dim first. Ops reach the registry,
which hands any op with a batched input to ``dispatch`` (one flag, ``VMAP.active``,
is checked on the hot path). The op's batching rule (``defop(batch=...)``, shared makers
in ``chainrule._ops.batching``) runs the op ONCE on the inner tensors, and the result is
wrapped again. Autograd records on the inner, real tensors: ``grad(vmap(f))`` needs
nothing special, nor does ``vmap`` over cotangents of a graph recorded outside it (a
Jacobian in one backward pass: the engine's rules run on batched gradients).
Differentiating inside ``vmap`` what was computed inside it goes through
``autograd_grad`` (and ``batched_leaf`` for per-sample gradients). An op without a rule
runs once per sample (``fallback``) and warns once.

Levels: each running vmap has a level, 1 for the outermost. A BatchedTensor of level 2
may hold an inner tensor batched at level 1; dispatch unwraps the highest level, and the
rule's call of the op dispatches again for the next one.

>>> x = chainrule.arange(6.).reshape(2, 3)
>>> chainrule.vmap(lambda row: row.sum())(x)
tensor([ 3., 12.])
"""
import warnings

import numpy as np

from .._core.modes import VMAP
from .._ops import batching
from .._ops.index.indexing import select
from .._ops.inplace import apply_inplace, view_inplace as inplace_view
from .._ops.shape.joining import stack
from .._ops.registry import apply
from .._core.tensor import Tensor
from .._autograd.gradients import grad as _grad
from ..return_types import _ReturnType

_new = object.__new__

# --- the logical array: shape and dtype without values ------------------------------------

_LEAK = ("vmap: a chainrule function computed on the values of a batched tensor outside the op "
         "registry, so vmap cannot batch it yet. Please file an issue.")


class _Logical(np.ndarray):
    """A BatchedTensor's ``_data``: one sample's shape and dtype (zero strides, one
    element of memory), so the op wrappers' shape and dtype checks run unchanged. Any
    computation with its values raises instead of silently using something that is not
    the batch: that is how a function that bypasses the registry is found."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        raise RuntimeError(_LEAK)

    def __array_function__(self, func, types, args, kwargs):
        if func in _METADATA_ONLY:
            return super().__array_function__(func, types, args, kwargs)
        raise RuntimeError(_LEAK)

    def _refuse(self, *args, **kwargs):
        raise RuntimeError(_LEAK)

    astype = copy = item = tolist = __getitem__ = __setitem__ = reshape = view = _refuse
    __float__ = __int__ = __bool__ = __index__ = __complex__ = _refuse


_METADATA_ONLY = {np.shape, np.ndim, np.size, np.result_type, np.can_cast}
_ONE_ELEMENT = {}


def _poison(dtype):
    """The one element behind every ``_Logical``: NaN, or the most negative integer, so
    that a read NumPy can't report (a LAPACK call, an index) is loud in the results."""
    if dtype.kind in "fc":
        return np.full(1, np.nan, dtype)
    if dtype.kind in "iu":
        return np.full(1, np.iinfo(dtype).min if dtype.kind == "i" else np.iinfo(dtype).max, dtype)
    return np.ones(1, dtype)


def logical_array(shape, dtype):
    """A ``_Logical`` of ``shape`` and ``dtype``."""
    buffer = _ONE_ELEMENT.get(dtype)
    if buffer is None:
        buffer = _ONE_ELEMENT[dtype] = _poison(dtype)
    out = np.ndarray.__new__(_Logical, shape, dtype, buffer, 0, (0,) * len(shape))
    out.flags.writeable = False
    return out


# --- BatchedTensor ------------------------------------------------------------------------------

ITEM = ("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling "
        ".item() on a Tensor, please try to rewrite what you're doing with other operations. If error is "
        "occurring somewhere inside PyTorch internals, please file a bug report.")
CONTROL_FLOW = ("vmap: It looks like you're attempting to use a Tensor in some data-dependent control "
                "flow. We don't support that yet, please file an issue at "
                "https://github.com/pytorch/pytorch/issues .")
NO_STORAGE = "Cannot access data pointer of Tensor that doesn't have storage"
BACKWARD = ("backward() called inside a functorch transform. This is not supported, please use "
            "functorch.grad or functorch.vjp instead or call backward() outside of functorch transforms.")


class BatchedTensor(Tensor):
    """One sample's view of a batch: see the module docstring. ``requires_grad`` and the
    version counter are the inner tensor's, so in-place ops and autograd see one state."""

    __slots__ = ("_inner", "_level")

    @property
    def _requires_grad(self):
        return self._inner._requires_grad

    @_requires_grad.setter
    def _requires_grad(self, flag):
        self._inner._requires_grad = flag

    @property
    def _counter(self):
        return self._inner._counter

    @_counter.setter
    def _counter(self, counter):
        self._inner._counter = counter

    def __repr__(self):
        value = repr(self._inner).replace("\n", "\n    ")
        return f"BatchedTensor(lvl={self._level}, bdim=0, value=\n    {value}\n)"

    __str__ = __repr__

    def item(self):
        raise RuntimeError(ITEM)

    def __bool__(self):
        raise RuntimeError(CONTROL_FLOW)

    def _python_number(self):
        if self._data.size == 1:  # float(x) of one sample's number is x.item()
            raise RuntimeError(ITEM)
        raise ValueError("only one element tensors can be converted to Python scalars")

    def tolist(self):
        raise RuntimeError(NO_STORAGE)

    def numpy(self, *, force=False):
        raise RuntimeError(NO_STORAGE)

    def __array__(self, dtype=None, copy=None):
        raise RuntimeError(NO_STORAGE)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        raise RuntimeError(BACKWARD)

    def detach(self):
        return wrap(self._inner.detach(), self._level)

    @property
    def data(self):
        return self.detach()

    def to(self, *args, **kwargs):
        inner = self._inner.to(*args, **kwargs)
        return self if inner is self._inner else wrap(inner, self._level)

    def stride(self, dim=None):
        strides = self._inner.stride()[1:]
        return strides if dim is None else strides[dim]


def wrap(inner, level):
    """The BatchedTensor of ``level`` whose batch (dim 0 of ``inner``) is ``inner``."""
    t = _new(BatchedTensor)
    t._inner = inner
    t._level = level
    data = inner._data
    t._data = logical_array(data.shape[1:], data.dtype)
    t.grad_fn = t._grad = t._extra = None
    return t


def wrap_under(t, level):
    """``wrap(t, level)`` for a ``t`` that a more inner vmap may batch too (a gradient or
    tangent computed from that vmap's cotangents): the level-``level`` batch, ``t``'s dim 0,
    goes under the higher levels, so that every BatchedTensor holds only lower levels."""
    if t.__class__ is BatchedTensor and t._level > level:
        return wrap(wrap_under(t._inner.movedim(1, 0), level), t._level)
    return wrap(t, level)


def unwrap_under(t, level):
    """The inverse of ``wrap_under``: ``t`` with its level-``level`` batch as dim 0 (higher
    levels stay wrapped around it), or None when no vmap level ``level`` batches ``t``."""
    if t.__class__ is not BatchedTensor or t._level < level:
        return None
    if t._level == level:
        return t._inner
    inner = unwrap_under(t._inner, level)
    return None if inner is None else wrap(inner.movedim(0, 1), t._level)


def is_batched_at(t, level):
    return t.__class__ is BatchedTensor and t._level == level


# --- the running vmaps -----------------------------------------------------------------------

LEVELS = []  # (batch size, randomness) of each running vmap, outermost first: level = index + 1


def enter(batch_size, randomness):
    """Starts a vmap level and returns it; ``leave`` ends it."""
    LEVELS.append((batch_size, randomness))
    VMAP.active = True
    return len(LEVELS)


def leave():
    LEVELS.pop()
    VMAP.active = bool(LEVELS)


RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either use the "
                "'same' or 'different' randomness flags on vmap or perform the randomness operation out "
                "of vmap")


def check_randomness():
    """Called by every random draw while a vmap runs: ``randomness='error'`` refuses it.
    ``'same'`` needs nothing: a draw of one sample's shape is shared by the whole batch.
    ``'different'`` neither: vmap then runs one sample at a time (see ``vmap``)."""
    for _, randomness in LEVELS:
        if randomness == "error":
            raise RuntimeError(RANDOM_ERROR)


def randomness(tensors):
    """The ``randomness`` of the innermost vmap batching one of ``tensors`` (an ``'error'``
    anywhere refuses the draw)."""
    check_randomness()
    return LEVELS[_highest_level(tensors) - 1][1]


def random_per_sample(fn, args, kwargs):
    """A random function of batched tensors (``bernoulli(p)``, ``normal(mean)``): one
    sample at a time, which is right for a batch of one (``randomness='different'``)."""
    size, randomness = LEVELS[_highest_level((*args, *kwargs.values())) - 1]
    if randomness == "error":
        raise RuntimeError(RANDOM_ERROR)
    if size != 1:
        raise NotImplementedError(f"vmap: {fn.__name__} of a batched tensor with randomness='same' is not "
                                  "supported by chainrule yet")
    return per_sample(fn, args, kwargs)


# --- dispatch ----------------------------------------------------------------------------------

FALLBACKS = set()  # what ran once per sample: registry ops by name, functions as "name()"


def dispatch(op, inputs, params, dtype):
    """``op`` on ``inputs`` when one of them is batched (else None): the op's batching rule
    runs it on the inner tensors of the highest level, and the result is wrapped again."""
    for p in params:
        if p.__class__ is _Logical or (p.__class__ is tuple and _Logical in map(type, p)):
            raise RuntimeError(f"vmap: {op.name} takes the values of a batched tensor as a parameter, which "
                               "chainrule cannot batch yet. Please file an issue.")
    level = 0
    for t in inputs:
        if t.__class__ is BatchedTensor and t._level > level:
            level = t._level
    if not level:
        return None
    args, batched = [], []
    for t in inputs:
        if t.__class__ is BatchedTensor and t._level == level:
            args.append(t._inner)
            batched.append(True)
        else:
            args.append(t)
            batched.append(False)
    rule = _rule_of(op)
    out = None if rule is None else rule(op, args, batched, params, dtype)
    if out is None:  # no rule, or one for other cases (see batching)
        out = fallback(op, args, batched, params, dtype)
    return wrap(out, level)


def _rule_of(op):
    """The op's batching rule: its own (``defop(batch=...)``), else ``batching.elementwise``
    for a one-input elementwise op, else None (the loop)."""
    if op.batch is not None:
        return op.batch
    return batching.elementwise if op.elementwise else None


def fallback(op, args, batched, params, dtype):
    """An op without a batching rule: run it on each sample and stack the results."""
    if op.name not in FALLBACKS:
        FALLBACKS.add(op.name)
        warnings.warn(f"There is a performance drop because we have not yet implemented the batching rule for "
                      f"{op.name}. Please file us an issue on GitHub so that we can prioritize its "
                      "implementation.", UserWarning, stacklevel=4)
    size = next(a for a, b in zip(args, batched) if b)._data.shape[0]
    results = []
    for i in range(size):
        sample = [select(a, 0, i) if b else a for a, b in zip(args, batched)]
        results.append(apply(op, sample, params, dtype))
    return stack(results)


def _highest_level(values):
    level = 0
    for v in values:
        if v.__class__ is BatchedTensor:
            level = max(level, v._level)
        elif isinstance(v, (tuple, list)):
            level = max(level, _highest_level(v))
    return level


def _sample(value, level, i):
    if is_batched_at(value, level):
        return select(value._inner, 0, i)
    if isinstance(value, (tuple, list)):
        return type(value)(_sample(v, level, i) for v in value)
    return value


def _stacked(results, level):
    first = results[0]
    if isinstance(first, tuple):
        parts = tuple(_stacked([r[k] for r in results], level) for k in range(len(first)))
        return type(first)(parts) if isinstance(first, _ReturnType) else parts
    return wrap(stack(results), level)


def on_batch(fn, *tensors):
    """``fn`` run ONCE on the batch behind the batched tensors among ``tensors`` (those of
    the highest vmap level): each tensor as its inner tensor, batch at dim 0 (an unbatched
    one expanded; a non-tensor passed as is), and the tensors ``fn`` returns wrapped as that
    level's results. For functions that compute on values in NumPy (``argmax``, ``sort``):
    ``fn`` calls them again on the plain batch, their dims moved past the batch dim."""
    level = _highest_level(tensors)
    size = next(t._inner._data.shape[0] for t in tensors if is_batched_at(t, level))
    inner = [t._inner if is_batched_at(t, level) else t.expand((size,) + t._data.shape) if isinstance(t, Tensor)
             else t for t in tensors]
    out = fn(*inner)
    if isinstance(out, tuple):
        return type(out)(tuple(wrap(o, level) if isinstance(o, Tensor) else o for o in out))
    return wrap(out, level)


def per_sample(fn, args, kwargs):
    """``fn(*args, **kwargs)`` one sample at a time, results stacked: the loop fallback for a
    function that reads tensor values outside the registry (``argmax``, ``sort``, ``gather``
    with a batched index). Warns once and lands in ``FALLBACKS`` like an op without a rule."""
    level = _highest_level((*args, *kwargs.values()))
    name = fn.__name__
    if f"{name}()" not in FALLBACKS:  # "argmax()": the function, apart from a registry op "argmax"
        FALLBACKS.add(f"{name}()")
        warnings.warn(f"There is a performance drop because we have not yet implemented the batching rule for "
                      f"{name}. Please file us an issue on GitHub so that we can prioritize its implementation.",
                      UserWarning, stacklevel=4)
    size = LEVELS[level - 1][0]
    results = [fn(*_sample(args, level, i), **{k: _sample(v, level, i) for k, v in kwargs.items()})
               for i in range(size)]
    return _stacked(results, level)


def inplace(self, compute, args, kwargs):
    """``self.op_(*args)`` under vmap (see ``_ops.inplace.apply_inplace``), or None when
    nothing involved is batched. A batched ``self`` is written through its inner tensor,
    so autograd and the caller's tensor see the change; an unbatched ``self`` cannot hold
    a batched result (PyTorch's error)."""
    level = 0
    for t in (self, *args, *kwargs.values()):
        if t.__class__ is BatchedTensor and t._level > level:
            level = t._level
    if not level:
        return None
    if not is_batched_at(self, level):  # the batch can't be written into one sample's memory
        shape = list(self._data.shape)
        raise RuntimeError(f"output with shape {shape} doesn't match the broadcast shape "
                           f"{[LEVELS[level - 1][0]] + shape}")

    def on_inner(old_inner, *_):
        result = compute(wrap(old_inner, level), *args, **kwargs)
        return result._inner if is_batched_at(result, level) else result

    # the inner call sees the operands one level down (they decide whether to record)
    apply_inplace(self._inner, on_inner, *[a._inner if is_batched_at(a, level) else a for a in args])
    return self


def view_inplace(self, view_op, params):
    """``self.squeeze_()``, ``t_()``... on a batched ``self`` (else None): the inner tensor
    takes the batched view's shape. The view op's batching rule gives the inner call's
    params (read back from the view it makes)."""
    if self.__class__ is not BatchedTensor:
        return None
    inner = self._inner
    probe = _rule_of(view_op)(view_op, [inner], [True], params, None)
    if probe._view_steps is None:
        raise NotImplementedError(f"vmap: in-place {view_op.name}_ on a tensor batched by nested vmaps")
    step_op, step_params = probe._view_steps[-1]
    inplace_view(inner, step_op, step_params, step_op)
    self._data = logical_array(inner._data.shape[1:], inner._data.dtype)
    return self


def elementwise_call(run, inputs):
    """``run(inputs)`` for a function that is elementwise over its tensor inputs but
    bypasses the registry (``plain`` comparisons and logic), or None when no input is
    batched: ``run`` gets the inner tensors, ranks aligned as broadcasting would."""
    level = 0
    for t in inputs:
        if t.__class__ is BatchedTensor and t._level > level:
            level = t._level
    if not level:
        return None
    flags = [is_batched_at(t, level) for t in inputs]
    args = [t._inner if b else t for t, b in zip(inputs, flags)]
    ndim = max(batching.logical_ndim(a, b) for a, b in zip(args, flags))
    return wrap(run([batching.pad(a, ndim) if b else a for a, b in zip(args, flags)]), level)


# --- reverse mode inside vmap --------------------------------------------------------------------

def _physical(x, level):
    """``x`` as a plain tensor with one dim per vmap level ``1..level`` in front (outermost
    first; a level that doesn't batch ``x`` expanded), then ``x``'s sample dims."""
    if level == 0:
        return x
    if is_batched_at(x, level):
        return _physical(x._inner, level - 1)
    p = _physical(x, level - 1)
    shape = list(p._data.shape)
    shape.insert(level - 1, LEVELS[level - 1][0])
    return p.unsqueeze(level - 1).expand(shape)


def batched_leaf(x):
    """A new leaf standing for ``x`` inside the running vmaps, batched at every level (an
    unbatched ``x`` is copied per sample). Differentiating per-sample results with respect
    to it gives per-sample gradients: what ``func.grad`` inside ``vmap`` needs, since the
    recorded graph is the whole batch's.

    >>> def per_sample_grad(x):
    ...     w = batched_leaf(w0)
    ...     return autograd_grad([loss(w, x)], [w])[0]
    >>> vmap(per_sample_grad)(xs)          # one gradient of w per sample
    """
    leaf = _physical(x, len(LEVELS)).detach().clone().requires_grad_()
    for level in range(1, len(LEVELS) + 1):
        leaf = wrap(leaf, level)
    return leaf


def autograd_grad(outputs, inputs, grad_outputs=None, **kwargs):
    """``autograd.grad`` where outputs and inputs may be batched by the running vmaps: the
    graph was recorded on the inner tensors, so the call is made there, one level at a
    time, and the gradients wrapped back. A missing grad_output of a batched output is
    ones; an unbatched one is used for every sample."""
    outputs, inputs = tuple(outputs), tuple(inputs)
    grads = (None,) * len(outputs) if grad_outputs is None else tuple(grad_outputs)
    level = _highest_level(outputs + inputs)
    if not level:  # the graph is plain; batched grad_outputs run through the engine as they are
        return _grad(outputs, inputs, grads, **kwargs)
    inner_outputs, inner_grads = [], []
    for out, g in zip(outputs, grads):
        if is_batched_at(out, level):
            inner = out._inner
            g = inner.new_ones(inner.shape) if g is None else g._inner if is_batched_at(g, level) else \
                g.expand(inner.shape)
            out = inner
        elif is_batched_at(g, level):
            raise NotImplementedError("vmap: autograd.grad of an unbatched output with a batched grad_output, "
                                      "next to batched outputs")
        inner_outputs.append(out)
        inner_grads.append(g)
    inner_inputs = [x._inner if is_batched_at(x, level) else x for x in inputs]
    results = autograd_grad(inner_outputs, inner_inputs, inner_grads, **kwargs)
    out = []
    for x, r in zip(inputs, results):
        if r is not None and not is_batched_at(x, level):
            raise NotImplementedError("vmap: autograd.grad of batched outputs with respect to a tensor that vmap "
                                      "doesn't batch would sum over the batch; differentiate with respect to "
                                      "batched_leaf(x) for per-sample gradients")
        out.append(None if r is None else wrap_under(r, level))  # r may carry an inner vmap's batch
    return tuple(out)


# the slots through which the layers below reach vmap (see chainrule._core.modes)
VMAP.dispatch, VMAP.on_batch, VMAP.per_sample, VMAP.random_per_sample = dispatch, on_batch, per_sample, random_per_sample
VMAP.elementwise_call, VMAP.inplace, VMAP.view_inplace = elementwise_call, inplace, view_inplace
VMAP.randomness, VMAP.check_randomness, VMAP.wrap, VMAP.autograd_grad = randomness, check_randomness, wrap, autograd_grad
