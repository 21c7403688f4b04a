"""Forward-mode AD, as ``torch.autograd.forward_ad``: dual tensors inside a ``dual_level``.

A dual tensor is a tensor with a tangent attached. While a level holds one, every
registered op gives its output the tangent ``sum_i jvp_i(t_i)`` over the inputs that carry
a tangent (``Op.jvp``, one rule per input, the same rules ``registry.jvp`` uses), broadcast
to the output's shape. Ops composed from other ops need nothing: their parts propagate.

>>> import chainrule as torch
>>> import chainrule.autograd.forward_ad as fwAD
>>> with fwAD.dual_level():
...     x = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]))
...     fwAD.unpack_dual(x.sin()).tangent   # cos(x) * 1
tensor([1.0000, 0.5403])

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
from typing import NamedTuple

from numpy import complex64, empty, empty_like, may_share_memory, result_type, zeros_like

from .._dtype import from_numpy_dtype
from .._tensor import Tensor, _wrap, extras
from .engine import ANS_TANGENTS
from .grad_mode import _GradModeManager

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual"]


class _ForwardState:
    """``active``: a level exists and holds a dual tensor (the registry's one flag check).
    ``level``: the current level, -1 for none. ``duals``: id -> weakref of each tensor
    that got a tangent in this level, so that exiting can drop them."""

    __slots__ = ("active", "level", "duals")

    def __init__(self):
        self.active = False
        self.level = -1
        self.duals = {}


FORWARD = _ForwardState()


# --- levels -------------------------------------------------------------------------------------


def enter_dual_level():
    """Starts the (only) level; returns its number, 0."""
    if FORWARD.level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    FORWARD.level = 0
    return 0


def exit_dual_level(*, level=None):
    """Ends the level: every tangent made in it is dropped."""
    if level is None:
        level = FORWARD.level
    if level != FORWARD.level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    for ref in list(FORWARD.duals.values()):
        t = ref()
        if t is not None:
            t._extra.tangent = None
    FORWARD.duals.clear()
    ANS_TANGENTS.clear()
    FORWARD.active = False
    FORWARD.level = -1


class dual_level(_GradModeManager):
    """``with dual_level():`` (or ``@dual_level()``): forward AD happens inside; the
    tangents are gone afterwards."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


# --- dual tensors -------------------------------------------------------------------------------


class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: ``primal`` and ``tangent`` (None if there is none)."""
    primal: Tensor
    tangent: Tensor | None


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` carrying ``tangent`` (kept as is when laid out like ``tensor``,
    else copied): the direction v of the Jacobian-vector product J·v that the ops after
    it compute: inside a level, ``make_dual(x, v) ** 2`` has the tangent ``2 * x * v``.
    """
    if level is None:
        level = FORWARD.level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if tensor._data.dtype.kind not in "fc":
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if tangent._data.dtype.kind not in "fc":
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if level != FORWARD.level:
        raise RuntimeError("Invalid level given to _make_dual")
    if tangent_of(tensor) is not None:
        raise RuntimeError(f"Making a dual Tensor based on a Tensor that already has a forward gradient at "
                           f"the same level {level} is not supported.")
    if tangent_of(tangent) is not None:
        raise RuntimeError(f"Setting a forward grad that itself has a forward gradient at the same level{level} "
                           "is not supported.")
    if tangent._data.shape != tensor._data.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor._data.shape)} while the "
                           f"given forward gradient is of size {list(tangent._data.shape)}.")
    if _batched(tensor):
        return _make_batched_dual(tensor, tangent, level)
    active, FORWARD.active = FORWARD.active, False  # the view itself must not look for a tangent
    try:
        dual = tensor.view_as(tensor)
        # as PyTorch: as is if laid out alike, else copied (a tangent batched by vmap has no
        # layout of its own to compare: its ``_data`` only stands for one sample)
        if tangent._data.strides != tensor._data.strides and not _batched(tangent):
            tangent = _relayout(tangent, tensor)
    finally:
        FORWARD.active = active
    _set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of ``tensor``: the primal is a view without tangent (its node,
    when it requires grad, is PyTorch's ``Identity``); the tangent is the tensor's own."""
    if level is None:
        level = FORWARD.level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if _batched(tensor):
        return _unpack_batched_dual(tensor, level)
    tangent = tangent_of(tensor)
    if level != FORWARD.level and tangent is not None:
        raise RuntimeError("Invalid level given to _fw_primal")
    active, FORWARD.active = FORWARD.active, False
    try:
        primal = _registry.apply(_primal_op(), (tensor,))
    finally:
        FORWARD.active = active
    return UnpackedDualTensor(primal, tangent)


def _batched(t):
    """Whether vmap batches ``t`` (a BatchedTensor: ops run on its ``_inner`` tensor)."""
    return getattr(t, "_inner", None) is not None


def _make_batched_dual(tensor, tangent, level):
    """``make_dual`` of a tensor batched by vmap: ops run on the batch's inner tensor, so the
    tangent goes there (the tangent's batch, or the same tangent for every sample)."""
    from .._functorch.batched import unwrap_under, wrap  # noqa: PLC0415  (vmap builds on autograd)
    inner = tensor._inner
    inner_tangent = unwrap_under(tangent, tensor._level)  # the tangent's batch at this level, if any
    if inner_tangent is None:
        inner_tangent = tangent.expand(inner.shape)
    return wrap(make_dual(inner, inner_tangent, level=level), tensor._level)


def _unpack_batched_dual(tensor, level):
    from .._functorch.batched import wrap, wrap_under  # noqa: PLC0415
    primal, tangent = unpack_dual(tensor._inner, level=level)
    # the tangent may also be batched by an inner vmap (vmap(jacfwd(f))): wrap_under keeps levels nested
    return UnpackedDualTensor(wrap(primal, tensor._level),
                              None if tangent is None else wrap_under(tangent, tensor._level))


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
    active, FORWARD.active = FORWARD.active, False  # a view made before its base got a tangent
    try:
        return _registry.replay_view(base._extra.tangent, e.view_steps)
    finally:
        FORWARD.active = active


def _shares_tangent(e):
    """Whether a view's tangent is its region of the base's: not for unpack_dual's primal
    and the views made from it."""
    primal = _primal_op()
    return not any(op is primal for op, _ in e.view_steps)


def _set_tangent(t, tangent):
    extras(t).tangent = tangent
    key = id(t)
    duals = FORWARD.duals
    duals[key] = weakref.ref(t, lambda _, key=key: duals.pop(key, None))
    FORWARD.active = True


def propagate(op, out, inputs, params):
    """Gives ``out`` (just computed by ``op`` from ``inputs``) its tangent, if any input
    has one. The registry calls this only while ``FORWARD.active``."""
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
    FORWARD.active = False
    try:
        if op.is_view and tangents[0] is not None and tangents[0]._data.strides == inputs[0]._data.strides:
            # the same view of the tangent, sharing its memory (the layouts match, so
            # whatever view the op took of its input exists of the tangent too)
            total = _registry.apply(op, (tangents[0],), params)
        else:
            total = _own(_jvp(op, out, inputs, params, tangents), out, tangents)
    finally:
        FORWARD.active = True
    _set_tangent(out, total)
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
    if _batched(total):  # batched by vmap: no strides or memory to compare
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
    if _batched(tangent):  # batched by vmap: no memory to lay out, ops batch it
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
        _set_tangent(alias, tangent)


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
            _set_tangent(base, base_tangent)
        FORWARD.active = False
        try:
            _write(_registry.replay_view(base_tangent, e.view_steps), new)
        finally:
            FORWARD.active = True
        return
    if own is None:
        if new is not None:
            active, FORWARD.active = FORWARD.active, False
            try:
                new = _relayout(new, self)  # never share the value's own tangent
            finally:
                FORWARD.active = active
            _set_tangent(self, new)
        return
    FORWARD.active = False
    try:
        _write(own, new)
    finally:
        FORWARD.active = True


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


from .._ops import registry as _registry  # noqa: E402  (circular: the registry calls propagate)


@functools.cache
def _primal_op():
    """unpack_dual's primal, under PyTorch's node name. Not registered: it is not an op
    users call, and its rules (identity) need no op-database entry. Made on first use:
    the registry is still loading when this module is."""
    return _registry.Op("unpack_dual", _identity_view, "torch::autograd::Identity", (lambda g: g,),
                        (lambda t: t,), None, True, True, False)
