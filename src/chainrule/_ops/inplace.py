"""In-place ops, with PyTorch's autograd rules for them.

An in-place op is its out-of-place op plus three steps:

1. compute ``op(old_self, ...)`` out of place, recording the usual node;
2. write the result into ``self``'s memory and bump the version counter that ``self``
   shares with its views, so nodes that saved the old values refuse to run;
3. move ``self``'s history on: ``self.grad_fn`` becomes the new node. When ``self`` is
   a view, the change lands in its base, so the base gets a ``CopySlices`` node: its
   gradient passes unchanged outside the view's region, and inside the region flows
   through the op's node. The view then takes its region of the updated base in one
   step (``AsStridedBackward0``, as in PyTorch).

``old_self`` is a fresh tensor object with ``self``'s history and memory but its own
version counter; if the op's node saved it, its values are copied first, so the
rewrite in step 2 cannot change what backward sees. If the node saved its output
(``exp_``), that output now is ``self``: the node checks ``self``'s version from then on.

``x[i] = v`` is an in-place write too: ``index_put.setitem``, built on this module.
"""
import math

import numpy as np

from .._core import dtype as _dtype
from .._core.arguments import operand
from .._core.tensor import Tensor, _wrap, extras
from .._autograd.anomaly_mode import note_modified
from .._core.modes import LINES
from .._core.modes import GRAD_MODE
from .._autograd.grad_mode import no_grad
from .._autograd import engine
from .._autograd.engine import Node, current_grad_fn
from .._core.modes import FORWARD_AD, VMAP
from .batching import leading
from .tangents import copy_tangent, update_inplace, update_view_inplace
from . import registry
from .registry import LINEAR, apply, defop, record, replay_view, unary


MULTI_OUTPUT_VIEWS = ("split", "split_with_sizes", "unbind")  # their last param: the output's position


def _check_allowed(self):
    if self._counter.__class__ is not list and not GRAD_MODE.inference:  # an inference tensor
        raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                           "clone to get a normal tensor before doing inplace update.See "
                           "https://github.com/pytorch/rfcs/pull/17 for more details.")
    if not GRAD_MODE.enabled:
        return
    if self.grad_fn is None and self._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = self._base
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
    if base is not None and self._requires_grad:
        op, params = self._view_steps[-1]
        if op.name in MULTI_OUTPUT_VIEWS:  # its node cannot be rebased on a CopySlices
            raise RuntimeError(
                f"Output {params[-1]} of {op.node_name[:-len('Backward0')]} is a view and is being modified inplace. This "
                "view is the output of a function that returns multiple views. Such functions do not allow the "
                "output views to be modified inplace. You should replace the inplace operation by an out-of-place "
                "one.")


def _alias(t):
    """A new tensor object with ``t``'s memory and history, and its own version counter."""
    return _wrap(t._data, t._requires_grad, current_grad_fn(t))


def _write(self, result):
    data = result._data
    if data.shape != self._data.shape and not _broadcasts_to(data.shape, self._data.shape):
        raise RuntimeError(f"output with shape {list(self._data.shape)} doesn't match the broadcast "
                           f"shape {list(data.shape)}")
    if data.dtype != self._data.dtype:
        if not _dtype.can_cast(result.dtype, self.dtype):
            raise RuntimeError(f"result type {_dtype.type_word(result.dtype)} can't be cast to the desired "
                               f"output type {_dtype.type_word(self.dtype)}")
    try:
        np.copyto(self._data, data, casting="unsafe")
    except ValueError:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers "
                           "to a single memory location. Please clone() the tensor before performing the "
                           "operation.") from None
    self._counter[0] += 1
    if LINES.enabled:  # where, for the in-place error's added line (anomaly_mode)
        note_modified(self._counter)


def _broadcasts_to(shape, target):
    # only ``x[i] = v`` hands over a result smaller than self (v itself, see ``_take_value``)
    try:
        return np.broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def _needs_graph(self, args):
    if not GRAD_MODE.enabled:
        return False
    if self._requires_grad:
        return True
    return any(isinstance(a, Tensor) and a._requires_grad for a in args)


# The ops whose result takes the operands' promoted dtype (add, remainder, bitwise_and...),
# each with the check PyTorch makes before promoting (or None) and whether the result is
# floating (true division). Their in-place forms refuse a promoted dtype that self can't
# hold before the kernel runs, so before its own dtype and zero-division errors:
# ``bool_tensor //= int_tensor`` is "result type Long can't be cast...".
PROMOTING = {}
_NUMBERS = (int, float, bool)
# The binary ops whose in-place form checks, before any dtype, that the operands broadcast to
# self's shape (PyTorch's TensorIterator: its shapes come before its types and kernels):
# the promoting ones and the comparisons
BROADCASTING = set()
# in-place ops whose own argument checks come first (lerp_'s dtype of `end`), whose kernel's
# dispatch error (NotImplementedError) comes after TensorIterator's shape check
KERNEL_AFTER_SHAPE = set()
# copy_: written into an integer self, the values only, never a history (PyTorch's copy_ of a
# tensor that requires grad into an integer tensor)
INTEGER_VALUES_ONLY = set()


def promoting(fn, first=None, floating=False):
    """Registers ``fn`` in ``PROMOTING`` (``first``: its check that comes before promotion)."""
    PROMOTING[fn] = (first, floating)
    BROADCASTING.add(fn)


def _check_output_shape(self, args):
    """PyTorch's shape errors of an in-place binary op: operands that don't broadcast, then
    a broadcast shape that is not self's ("output with shape [1] doesn't match...")."""
    shape = self._data.shape
    others = [a._data.shape for a in args if isinstance(a, Tensor) and a._data.shape != shape]
    if not others:
        return
    try:
        full = np.broadcast_shapes(shape, *others)
    except ValueError as e:
        raise registry.broadcast_error(e, shape, *others) from None
    if full != shape:
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape {list(full)}")


def _check_promotion(self, args, rule):
    first, floating = rule
    kind = self._data.dtype.kind
    other = args[0]
    if first is None and other.__class__ is float and kind in "fc" and len(args) == 1:  # the commonest case
        return
    operands = [operand(a) for a in args]
    other = operands[0]
    if first is not None:
        first(self, other)
    if len(operands) == 1 and (not floating or kind in "fc"):  # common cases: self's dtype is the result's
        if other.__class__ in _NUMBERS and (kind in "fc" or (kind in "iu" and other.__class__ is not float)):
            return
        if isinstance(other, Tensor) and other._data.dtype == self._data.dtype:
            return
    try:
        result = _dtype.result_dtype((self, *operands))
        if floating and not result.is_floating_point and not result.is_complex:
            result = _dtype.get_default_dtype()
    except TypeError as e:
        if not _dtype.is_complex32(e):
            raise
        result = None
    if result is None or not _dtype.can_cast(result, self.dtype):
        _check_broadcast_first(self, operands)
        name = _dtype.COMPLEX_HALF if result is None else _dtype.type_word(result)
        raise RuntimeError(f"result type {name} can't be cast to the desired output type {_dtype.type_word(self.dtype)}")


def _check_broadcast_first(self, operands):
    """PyTorch's TensorIterator computes the shape before the dtypes: a result that does
    not fit in ``self`` (or shapes that do not broadcast) is the error it raises first."""
    shapes = [self._data.shape] + [a._data.shape for a in operands if isinstance(a, Tensor)]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError as e:
        raise registry.broadcast_error(e, *shapes) from None
    if shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
                           f"{list(shape)}")


def apply_inplace(self, compute, *args, **kwargs):
    """``self.<op>_(*args)``: see the module docstring for the three steps."""
    if VMAP.active and VMAP.inplace(self, compute, args, kwargs) is not None:  # a batched self: its inner tensor
            return self
    _check_allowed(self)
    if compute in BROADCASTING and args:
        _check_output_shape(self, args)
    rule = PROMOTING.get(compute)
    if rule is not None and args:
        _check_promotion(self, args, rule)
    if compute in INTEGER_VALUES_ONLY and self._data.dtype.kind in "biu" and GRAD_MODE.enabled:
        with no_grad():  # PyTorch's copy_ gives an integer tensor the values only, never a history
            return apply_inplace(self, compute, *args, **kwargs)
    if not _needs_graph(self, args):
        result = _computed(compute, self, self, args, kwargs)
        _write(self, result)
        if FORWARD_AD.active:  # forward AD: self's tangent follows its values
            update_inplace(self, result)
        return self
    old = _alias(self)
    if FORWARD_AD.active:
        copy_tangent(self, old)
    registry.IN_PLACE = True
    try:
        result = _computed(compute, old, self, args, kwargs)
        node = result.grad_fn
        if node is not None and any(tensor is old for _, _, tensor in node.checks):
            old._data = old._data.copy()
        _write(self, result)
        if FORWARD_AD.active:
            update_inplace(self, result)
        if node is not None and node.ans is not None and not any(result is a for a in args):
            _saved_output_is_self(node, result, self)
        if node is not None or self._base is not None:
            # a view always moves its base's history on: even a value without history
            # overwrites part of the base, so the base needs its CopySlices node
            _move_history(self, result)
    finally:
        registry.IN_PLACE = False
    return self


def _computed(compute, x, self, args, kwargs):
    """``compute(x, *args)``; where it fails (a kernel refusing a dtype, say), PyTorch's
    TensorIterator would first have refused a result larger than ``self``."""
    try:
        return compute(x, *args, **kwargs)
    except (RuntimeError, NotImplementedError) as e:
        operands = [a for a in args if isinstance(a, Tensor)]
        kernel = compute in KERNEL_AFTER_SHAPE and isinstance(e, NotImplementedError)
        if operands and (compute in BROADCASTING or kernel):  # TensorIterator's ops only (not index_put's)
            _check_broadcast_first(self, operands)
        raise


def _saved_output_is_self(node, result, self):
    """A node that saved its output (``exp_``, ``sigmoid_``...) saved ``self`` as it is
    now: a later in-place op on ``self`` must make backward refuse, as in PyTorch
    ("output 0 of Exp, is at version 2; expected version 1")."""
    counter = result._counter
    node.ans = self._data
    node.checks = [(self._counter, self._counter[0], _output_stand_in(self)) if c is counter else (c, v, t)
                   for c, v, t in node.checks]


def _output_stand_in(self):
    """For a view, what the error names: PyTorch's view is then "output 0 of AsStrided".
    A fresh tensor on the same memory with a node of its own, never ``self`` itself:
    self's history leads back to this node, so holding it would make a cycle."""
    if self._base is None:
        return None
    stub = object.__new__(Node)
    stub.op, stub.next, stub.meta, stub.saved, stub.checks, stub.ans, stub.hooks = (
        AS_STRIDED, (), None, (), (), None, None)
    return _wrap(self._data, True, stub)


def _move_history(self, new_value):
    """Step 3: ``self`` (or its base) now has ``new_value``'s history."""
    if self._base is None:
        self.grad_fn = new_value.grad_fn
        self._requires_grad = True
        return
    base = self._base
    record(COPY_SLICES, base, (_alias(base), new_value), (self._view_steps,))
    self.grad_fn = apply(AS_STRIDED, (base,), (self._view_steps,)).grad_fn
    self._extra.view_version = self._counter[0]
    self._requires_grad = True


def view_inplace(self, op, params, view_op):
    """``self.squeeze_()``, ``t_()``...: ``self`` takes the shape of the view ``op(self)``.

    No value changes, so nothing is written and no base gets a CopySlices node: ``self``
    just moves on to ``op``'s node (PyTorch names it apart from the out-of-place op's:
    ``y.unsqueeze_(0)`` gives UnsqueezeBackward1, ``y.unsqueeze(0)`` UnsqueezeBackward0).
    The version still goes up, as in PyTorch, so nodes that saved ``self`` refuse to run.
    A view stays a view of its base, one step (``view_op``, the out-of-place op) longer.
    """
    if VMAP.active and VMAP.view_inplace(self, view_op, params) is not None:  # a batched self: its inner tensor
            return self
    _check_allowed(self)
    out = unary(op, self, params)
    if self._base is None:  # views taken before see the old layout: remember how to get back to it
        undo = (view_op, params) if view_op.name in ("transpose", "t") else (registry.OPS["view"], (self._data.shape,))
        e = extras(self)
        e.layout_undo = (e.layout_undo or ()) + (undo,)
    self._data = out._data
    self._counter[0] += 1
    if LINES.enabled:
        note_modified(self._counter)
    if FORWARD_AD.active:  # forward AD: the tangent takes the new shape too
        update_view_inplace(self, out)
    if out.grad_fn is not None:
        self.grad_fn = out.grad_fn
    if self._base is not None:
        e = self._extra
        e.view_steps += ((view_op, params),)
        e.view_version = self._counter[0]
    return self


# --- CopySlices: the base's node after an in-place change through a view ----------------------

def _region(array, steps):
    for op, params in steps:
        array = op.forward(array, *params)
    return array


def _outside_region(g, steps):
    """``g`` with the view's region zeroed: that part of the old base was overwritten."""
    inside = np.zeros(g._data.shape, dtype=bool)
    _region(inside, steps)[...] = True
    return g.where(_wrap(~inside), 0.0)


def _embed(array, steps, shape):
    """Zeros of the base's ``shape`` holding ``array`` in the view's region."""
    out = np.zeros(shape, dtype=array.dtype)
    _region(out, steps)[...] = array
    return out


# The view's own node after the change, as in PyTorch: the region of the base, taken
# in one step (its gradient is embedded into zeros of the base's shape).
AS_STRIDED = defop("as_strided_view", _region, node="AsStridedBackward0", view=True,
                   save=lambda ans, base, steps: (steps, base._data.shape),
                   vjp=lambda g, steps, shape: apply(EMBED, (g,), (steps, shape)),
                   jvp=lambda t, steps, shape: apply(AS_STRIDED, (t,), (steps,)))


def _rebuild_view(t):
    """``t.grad_fn``, rebuilt first if ``t`` is a view whose memory an in-place op changed
    since: as in PyTorch, the view is then the base's region (AsStrided)."""
    e = t._extra
    if e.base is not None and e.view_version != t._counter[0]:
        e.view_version = t._counter[0]
        if e.base._requires_grad and e.base.grad_fn is not None:
            t.grad_fn = unary(AS_STRIDED, e.base, (t._view_steps,)).grad_fn
            t._requires_grad = True
    return t.grad_fn


engine.rebuild_view = _rebuild_view  # for engine.current_grad_fn, which the registry and autograd.grad call

def _put_at(g, positions, size):
    out = np.zeros(g.shape[:-1] + (size,), g.dtype)
    out[..., positions] = g
    return out


# a batch of embed_view (below): each sample's values put at the region's flat positions, a
# scatter along the last dim whose transpose is a gather there (none repeated: a view's region)
PUT_AT = defop("put_at_positions", _put_at, node="ScatterBackward0", batch=leading,
               save=lambda ans, g, positions, size: (positions, size),
               vjp=lambda g, positions, size: unary(TAKE_AT, g, (positions,)), jvp=LINEAR)
TAKE_AT = defop("take_at_positions", lambda x, positions: x[..., positions], node="GatherBackward0", batch=leading,
                save=lambda ans, x, positions: (positions, x._data.shape[-1]),
                vjp=lambda g, positions, size: unary(PUT_AT, g, (positions, size)),
                jvp=lambda t, positions, size: unary(TAKE_AT, t, (positions,)))


def _embed_batch(op, args, batched, params, dtype):
    """``embed_view`` of a batch: the view steps run on the base's flat positions give
    where the region lies; each sample's values are put there in its own row. None
    (the loop) for steps that change the dtype (``view(dtype)``), which positions can't."""
    (steps, shape), g = params, args[0]
    size, sample = g._data.shape[0], g._data.shape[1:]
    positions = _region(np.arange(math.prod(shape)).reshape(shape), steps)
    if positions.shape != sample:
        return None
    rows = unary(PUT_AT, g.reshape((size, -1)), (positions.reshape(-1), math.prod(shape)))
    return rows.reshape((size,) + tuple(shape))


EMBED = defop("embed_view", _embed, node="AsStridedScatterBackward0", batch=_embed_batch,
              save=lambda ans, g, steps, shape: (steps, shape),
              vjp=lambda g, steps, shape: apply(AS_STRIDED, (g,), (steps,)),
              jvp=LINEAR)

COPY_SLICES = defop("copy_slices", None, node="torch::autograd::CopySlices",
                    save=lambda ans, base, new, steps: (steps, ans._data.shape),
                    vjp=(lambda g, steps, shape: _outside_region(g, steps),
                         lambda g, steps, shape: replay_view(g, steps)),
                    jvp=(lambda t, steps, shape: _outside_region(t, steps),
                         lambda t, steps, shape: apply(EMBED, (t,), (steps, shape))))

