"""Forward-mode AD's half of op dispatch: tangents stored on tensors, and their propagation.

The public API (``dual_level``, ``make_dual``, ``unpack_dual``) is ``autograd.forward_ad``, built
on this module; the level's state is ``_modes.FORWARD_AD``.

A dual tensor is a tensor with a tangent attached. While a level holds one, every
registered op gives its output the tangent ``sum_i jvp_i(t_i)`` over the inputs that carry
a tangent (``Op.jvp``, one rule per input, summed by ``registry.tangent_of``), broadcast
to the output's shape. Ops composed from other ops need nothing: their parts propagate
(an example: ``autograd.forward_ad``'s docstring).

Notes on the invariants:

* **One level.** PyTorch supports a single level at a time; entering a second one
  raises its "Nested forward mode AD is not supported" error. Exiting the level drops
  every tangent made in it (the level keeps weak references to the dual tensors).
* **Rules see primals.** The jvp rules run with forward mode paused, on the inputs'
  primal values, so a rule's intermediate results never get tangents of their own. A
  tangent is an ordinary Tensor: when grad mode is on the rules record a graph, so
  ``backward`` through a tangent works (Hessian-vector products, gradients w.r.t. the
  tangent given to ``make_dual``).
* **Views share tangent memory.** The tangent of a view is the same view of its input's
  tangent. A view made before its base got a tangent finds it on first use (the base's
  tangent, viewed with the view's recorded steps).
* **In-place ops update tangents in place**, as PyTorch does: ``x.mul_(2)`` writes the new
  tangent into x's tangent (the one given to ``make_dual``, if x came from there), so
  views see it; an in-place op through a view writes the view's region of the base's
  tangent (zeros first if the base had none). A result without tangent zeroes it.
* **Own storage, primal's layout.** An op's tangent never aliases an input's tangent
  (``x + 0``'s rule returns the input's tangent itself), and has its output's shape and
  strides (copied otherwise, as PyTorch does), so a later in-place write on the output
  cannot reach an input's tangent, and every view of the output exists of its tangent.
* **Forward over reverse.** A backward run inside a level calls the vjp rules on the
  saved dual tensors, so the gradients get tangents too (Hessian-vector products). A node
  that saved its output keeps only the array (see engine), so its tangent is kept beside
  it in ``engine.ANS_TANGENTS`` until the level ends.
"""
import functools
import weakref

from numpy import complex64, empty, empty_like, may_share_memory, result_type, zeros_like

from .._core.dtype import from_numpy_dtype
from .._core.modes import FORWARD_AD
from .._core.tensor import Tensor, _wrap, extras
from .._autograd.engine import ANS_TANGENTS
from . import registry as _registry


def is_batched(t):
    """Whether vmap batches ``t`` (a BatchedTensor: ops run on its ``_inner`` tensor)."""
    return getattr(t, "_inner", None) is not None


def _identity_view(array):
    return array.view()


def not_implemented(name):
    """PyTorch's message for an op whose forward-AD formula it lacks (here: a rule that is None)."""
    return (f"Trying to use forward AD with {name} that does not support it because it has not been implemented "
            "yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template="
            "feature-request.yml so that we can prioritize its implementation or submit a PR adding the "
            "implementation to derivatives.yaml")


def not_differentiable(name):
    """PyTorch's message for an op it marks as not differentiable at all (floor_divide)."""
    return f"Trying to use forward AD with aten::{name} that does not support it."


def refuse_tangents(inputs, message):
    """For results built without the registry from an op PyTorch can't differentiate
    forward: an input with a tangent is an error, never a silently missing tangent."""
    if any(isinstance(t, Tensor) and tangent_of(t) is not None for t in inputs):
        raise NotImplementedError(message)


# --- reading and writing tangents ------------------------------------------------------------


def tangent_of(t):
    """``t``'s tangent in the current level, or None."""
    e = t._extra
    if e is None:
        return None
    if e.tangent is not None:
        return e.tangent
    base = e.base
    if base is None or base._extra is None or base._extra.tangent is None or not _shares_tangent(e):
        return None
    active, FORWARD_AD.active = FORWARD_AD.active, False  # a view made before its base got a tangent
    try:
        return _registry.replay_view(base._extra.tangent, e.view_steps)
    finally:
        FORWARD_AD.active = active


def _shares_tangent(e):
    """Whether a view's tangent is its region of the base's: not for unpack_dual's primal
    and the views made from it."""
    primal = primal_op()
    return not any(op is primal for op, _ in e.view_steps)


def set_tangent(t, tangent):
    extras(t).tangent = tangent
    key = id(t)
    duals = FORWARD_AD.duals
    duals[key] = weakref.ref(t, lambda _, key=key: duals.pop(key, None))
    FORWARD_AD.active = True


def propagate(op, out, inputs, params):
    """Gives ``out`` (just computed by ``op`` from ``inputs``) its tangent, if any input
    has one. The registry calls this only while ``FORWARD_AD.active``."""
    tangents = None
    for i, x in enumerate(inputs):
        if x._extra is not None:
            t = tangent_of(x)
            if t is not None:
                if tangents is None:
                    tangents = [None] * len(inputs)
                tangents[i] = t
    if tangents is None or out._data.dtype.kind not in "fc":
        return
    FORWARD_AD.active = False
    try:
        if op.is_view and tangents[0] is not None and tangents[0]._data.strides == inputs[0]._data.strides:
            # the same view of the tangent, sharing its memory (the layouts match, so
            # whatever view the op took of its input exists of the tangent too)
            total = _registry.apply(op, (tangents[0],), params)
        else:
            total = _own(_jvp(op, out, inputs, params, tangents), out, tangents)
    finally:
        FORWARD_AD.active = True
    set_tangent(out, total)
    node = out.grad_fn
    if node is not None and node.ans is out._data:  # the node saved its output: keep its tangent too
        ANS_TANGENTS[node] = total


def _jvp(op, out, inputs, params, tangents):
    saved = op.save(out, *inputs, *params) if op.save is not None else ()
    return _registry.tangent_of(op, saved, tangents, lambda op: NotImplementedError(not_implemented(op.name)))


def _own(total, out, tangents):
    """``total`` with the output's shape and strides, in memory of its own (see the
    module notes)."""
    data = total._data
    if out._data.dtype.kind == "c" and data.dtype.kind == "f":  # x + 1j: a complex tangent, as in PyTorch
        return _relayout(total, out, result_type(data.dtype, complex64))
    if is_batched(total):  # batched by vmap: no strides or memory to compare
        if data.shape != out._data.shape or any(t is total for t in tangents):
            return _relayout(total, out)
        return total
    if data.shape != out._data.shape or data.strides != out._data.strides or any(
            t is not None and may_share_memory(data, t._data) for t in tangents):
        return _relayout(total, out)
    return total


def _relayout(tangent, primal, dtype=None):
    """A copy of ``tangent`` (broadcast to ``primal``'s shape) laid out as ``primal``: as in
    PyTorch, a tangent has its primal's strides, so every view of the primal exists of the
    tangent too. A copy through ``copy_``, so a tangent that requires grad keeps its graph."""
    dtype = tangent._data.dtype if dtype is None else dtype
    if is_batched(tangent):  # batched by vmap: no memory to lay out, ops batch it
        if tangent._data.shape != primal._data.shape:
            tangent = tangent.expand(primal._data.shape)
        return tangent.to(from_numpy_dtype(dtype), copy=True)
    data = empty_like(primal._data, dtype=dtype)  # "K" order: the primal's strides
    if data.strides != primal._data.strides:  # a primal with gaps or overlaps: dense will do
        data = empty(primal._data.shape, dtype)
    return _wrap(data).copy_(tangent)


def copy_tangent(source, alias):
    """``alias`` (a new tensor object on ``source``'s memory, see ``inplace._alias``)
    carries ``source``'s tangent into the out-of-place computation of an in-place op."""
    tangent = tangent_of(source)
    if tangent is not None:
        set_tangent(alias, tangent)


def update_inplace(self, result):
    """After ``self`` took ``result``'s values in place: ``self``'s tangent takes
    ``result``'s (zeros if it has none), written in place, or through a view into the
    region of the base's tangent."""
    new = tangent_of(result)
    e = self._extra
    own = None if e is None else e.tangent
    if own is None and e is not None and e.base is not None and _shares_tangent(e):
        base = e.base
        base_tangent = tangent_of(base)
        if base_tangent is None:
            if new is None:
                return
            base_tangent = _wrap(zeros_like(base._data))
            set_tangent(base, base_tangent)
        FORWARD_AD.active = False
        try:
            _write(_registry.replay_view(base_tangent, e.view_steps), new)
        finally:
            FORWARD_AD.active = True
        return
    if own is None:
        if new is not None:
            active, FORWARD_AD.active = FORWARD_AD.active, False
            try:
                new = _relayout(new, self)  # never share the value's own tangent
            finally:
                FORWARD_AD.active = active
            set_tangent(self, new)
        return
    FORWARD_AD.active = False
    try:
        _write(own, new)
    finally:
        FORWARD_AD.active = True


def update_view_inplace(self, out):
    """After ``self.squeeze_()``, ``t_()``...: ``self`` has the shape of ``out``, the same
    view of it, and so does its tangent (still sharing memory with the old one)."""
    e = self._extra
    if e is not None and e.tangent is not None:
        e.tangent = tangent_of(out)


def _write(target, new):
    if new is None:
        target.zero_()
    else:
        target.copy_(new)


def dual_view(tensor, tangent):
    """A view of ``tensor`` carrying ``tangent`` (kept as is when laid out like ``tensor``, else
    copied): ``make_dual`` once its checks passed, and ops that give an input a tangent."""
    active, FORWARD_AD.active = FORWARD_AD.active, False  # the view itself must not look for a tangent
    try:
        dual = tensor.view_as(tensor)
        # as PyTorch: as is if laid out alike, else copied (a tangent batched by vmap has no
        # layout of its own to compare: its ``_data`` only stands for one sample)
        if tangent._data.strides != tensor._data.strides and not is_batched(tangent):
            tangent = _relayout(tangent, tensor)
    finally:
        FORWARD_AD.active = active
    set_tangent(dual, tangent)
    return dual


@functools.cache
def primal_op():
    """unpack_dual's primal, under PyTorch's node name. Not registered: it is not an op
    users call, and its rules (identity) need no op-database entry."""
    return _registry.Op("unpack_dual", _identity_view, "torch::autograd::Identity", (lambda g: g,),
                        (lambda t: t,), None, True, True, False)


FORWARD_AD.propagate = propagate
