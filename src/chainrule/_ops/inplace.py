"""In-place ops and ``x[i] = v``, with PyTorch's autograd rules for them.

An in-place op is its out-of-place op plus three steps:

1. compute ``op(old_self, ...)`` out of place, recording the usual node;
2. write the result into ``self``'s memory and bump the version counter that ``self``
   shares with its views, so nodes that saved the old values refuse to run;
3. move ``self``'s history on: ``self.grad_fn`` becomes the new node. When ``self`` is
   a view, the change lands in its base, so the base gets a ``CopySlices`` node: its
   gradient passes unchanged outside the view's region, and inside the region flows
   through the op's node. The view is then re-derived from the updated base.

``old_self`` is a fresh tensor object with ``self``'s history and memory but its own
version counter; if the op's node saved it, its values are copied first, so the
rewrite in step 2 cannot change what backward sees.
"""
import numpy as np

from .. import _dtype
from .._tensor import Tensor, _wrap
from ..autograd.grad_mode import STATE
from . import elementwise as ew
from .registry import apply, unary, defop, record, replay_view
from .shape import INDEX, _is_basic, _normalize_index, getitem


def _check_allowed(self):
    if not STATE.enabled:
        return
    if self.grad_fn is None and self._requires_grad:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = self._base
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place "
                           "operation.")


def _alias(t):
    """A new tensor object with ``t``'s memory and history, and its own version counter."""
    return _wrap(t._data, t._requires_grad, t.grad_fn)


def _write(self, result):
    data = result._data
    if data.shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self._data.shape)} doesn't match the broadcast "
                           f"shape {list(data.shape)}")
    if data.dtype != self._data.dtype:
        if not _dtype.can_cast(result.dtype, self.dtype):
            raise RuntimeError(f"result type {_type_word(result.dtype)} can't be cast to the desired "
                               f"output type {_type_word(self.dtype)}")
    try:
        np.copyto(self._data, data, casting="unsafe")
    except ValueError:
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers "
                           "to a single memory location. Please clone() the tensor before performing the "
                           "operation.") from None
    self._version[0] += 1


def _type_word(d):
    return {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
            "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool", "complex64": "ComplexFloat",
            "complex128": "ComplexDouble"}[d.name]


def _needs_graph(self, args):
    if not STATE.enabled:
        return False
    if self._requires_grad:
        return True
    return any(isinstance(a, Tensor) and a._requires_grad for a in args)


def apply_inplace(self, compute, *args, **kwargs):
    """``self.<op>_(*args)``: see the module docstring for the three steps."""
    _check_allowed(self)
    if not _needs_graph(self, args):
        _write(self, compute(self, *args, **kwargs))
        return self
    old = _alias(self)
    result = compute(old, *args, **kwargs)
    node = result.grad_fn
    if node is not None and any(tensor is old for _, _, tensor in node.checks):
        old._data = old._data.copy()
    _write(self, result)
    if node is not None:
        _move_history(self, result)
    return self


def _move_history(self, new_value):
    """Step 3: ``self`` (or its base) now has ``new_value``'s history."""
    if self._base is None:
        self.grad_fn = new_value.grad_fn
        self._requires_grad = True
        return
    base = self._base
    record(COPY_SLICES, base, (_alias(base), new_value), (self._view_steps,))
    self.grad_fn = replay_view(base, self._view_steps).grad_fn
    self._requires_grad = True


# --- CopySlices: the base's node after an in-place change through a view ----------------------

def _region(array, steps):
    for op, params in steps:
        array = op.forward(array, *params)
    return array


def _outside_region(g, steps):
    """``g`` with the view's region zeroed: that part of the old base was overwritten."""
    inside = np.zeros(g._data.shape, dtype=bool)
    _region(inside, steps)[...] = True
    return ew.where(_wrap(inside), 0.0, g)


def _embed(t, steps, shape):
    """Zeros of the base's ``shape`` holding ``t`` in the view's region (forward mode)."""
    out = np.zeros(shape, dtype=t._data.dtype)
    _region(out, steps)[...] = t._data
    return _wrap(out)


COPY_SLICES = defop("copy_slices", None, node="CopySlices",
                    save=lambda ans, base, new, steps: (steps, ans._data.shape),
                    vjp=(lambda g, steps, shape: _outside_region(g, steps),
                         lambda g, steps, shape: replay_view(g, steps)),
                    jvp=(lambda t, steps, shape: _outside_region(t, steps),
                         lambda t, steps, shape: _embed(t, steps, shape)))


# --- x[index] = value ------------------------------------------------------------------

def _index_put(x, values, index):
    out = x.copy()
    out[index] = values
    return out


def _index_mask(g, index):
    mask = np.zeros(g._data.shape, dtype=bool)
    mask[index] = True
    return _wrap(mask)


INDEX_PUT = defop("index_put", _index_put, node="IndexPutBackward0",
                  save=lambda ans, x, values, index: (index,),
                  vjp=(lambda g, index: ew.where(_index_mask(g, index), 0.0, g),
                       lambda g, index: unary(INDEX, g, (index,))),
                  jvp=(lambda t, index: ew.where(_index_mask(t, index), 0.0, t),
                       lambda t, index: apply(INDEX_PUT, (ew.zeros_like(t), t), (index,))))


def setitem(self, index, value):
    index = _normalize_index(index)
    if not isinstance(value, Tensor):
        value = _wrap(np.asarray(value, dtype=self._data.dtype))
    elif value._data.dtype != self._data.dtype:
        value = value.to(self.dtype)
    if _is_basic(index):
        region = getitem(self, index)
        if value._data.shape != region._data.shape:
            value = value.expand(region._data.shape)
        apply_inplace(region, _take_value, value)
    else:
        apply_inplace(self, lambda old, v: apply(INDEX_PUT, (old, v), (index,)), value)


def _take_value(old, value):
    # ``x[i] = v`` through a view: the new content is v itself, so CopySlices links
    # straight to v's node, as in PyTorch
    return value if value._requires_grad or not old._requires_grad else ew.copy(old, value)
