"""``autograd.graph``: the graph's node type, saved-tensor hooks and multi-tensor hooks.

Saved-tensor hooks decide how a node keeps the tensors its backward needs:

>>> with saved_tensors_hooks(pack_hook, unpack_hook):
...     y = x.exp()          # exp saves its output: pack_hook(y) runs now
>>> y.sum().backward()       # unpack_hook(what pack_hook returned) runs now

The pack hook may return anything (a file name, a handle, a smaller copy): the node
keeps that instead of the tensor. This is how ``utils.checkpoint`` drops activations
and recomputes them in backward. As in PyTorch, only the innermost pair of hooks
applies, unpack runs on every access (once per backward that needs it), and versions
are not checked (the unpack hook may return any tensor).

Packed values live in a ``PackedSaved`` that the node keeps in its ``ans`` field (see
the engine's notes): a node's ``saved`` then holds None where a tensor was.
"""
from .._core import tensor as _tensor
from .._core.modes import SAVED_HOOKS
from .engine import TASKS, AccumulateGrad, Node, grad_accumulator

_DISABLED = []  # error messages of the active disable_saved_tensors_hooks, innermost last
FREEABLE = (([0], 0, None),)  # a "check" that never fails but lets backward free the node

__all__ = ["Node", "disable_saved_tensors_hooks", "register_multi_grad_hook", "save_on_cpu",
           "saved_tensors_hooks"]


class saved_tensors_hooks:
    """Context manager: ``pack_hook(tensor)`` runs whenever a node saves a tensor, and
    ``unpack_hook(packed)`` whenever backward reads it back (see the module docstring)."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _DISABLED:
            raise RuntimeError(_DISABLED[-1])
        SAVED_HOOKS.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        SAVED_HOOKS.pop()


class save_on_cpu(saved_tensors_hooks):
    """PyTorch moves saved tensors to (pinned) CPU memory; here every tensor already is
    on the CPU, so the hooks keep each tensor as it is."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        super().__init__(_keep, _keep)


def _keep(tensor):
    return tensor


class disable_saved_tensors_hooks:
    """Context manager: while active, entering ``saved_tensors_hooks`` raises
    ``RuntimeError(error_message)``, for features that cannot work with them."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        if SAVED_HOOKS:
            raise RuntimeError(self.error_message)
        _DISABLED.append(self.error_message)

    def __exit__(self, *exc):
        _DISABLED.pop()

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with disable_saved_tensors_hooks(self.error_message):
                return fn(*args, **kwargs)
        return wrapper


# --- packing ----------------------------------------------------------------------------

class _Packed:
    """One tensor as the pack hook left it, with what is needed to reconnect the
    unpacked tensor to the graph: this node's output ``index``, or the ``owner`` node
    (the tensor's ``grad_fn`` or leaf accumulator; None when it needs no gradient)."""

    __slots__ = ("value", "unpack_hook", "index", "owner")

    def __init__(self, tensor, index):
        pack_hook, self.unpack_hook = SAVED_HOOKS[-1]
        version = tensor._counter[0]
        self.value = pack_hook(tensor)
        if tensor._counter[0] != version:
            raise RuntimeError("A saved tensor pack hook is modifying its input in place. Tensors provided as "
                               "input to pack hook cannot be modified by in-place operations as this can lead "
                               "to unexpected side-effects. Please open an issue if you need to perform "
                               "in-place operations on the input to a pack hook.")
        self.index = index
        if index is not None:
            self.owner = None
        elif tensor.grad_fn is not None:
            self.owner = tensor.grad_fn
        else:
            self.owner = grad_accumulator(tensor) if tensor._requires_grad else None

    def unpack(self, node):
        t = self.unpack_hook(self.value)
        if not isinstance(t, _tensor.Tensor):
            raise TypeError(f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(t).__name__}")
        owner = node.output_grad_fn(self.index) if self.index is not None else self.owner
        if owner is None:
            return t if not t._requires_grad else t.detach()
        is_leaf = owner.__class__ is AccumulateGrad
        if (owner.variable is t) if is_leaf else (t.grad_fn is owner):
            return t
        result = _tensor._wrap(t._data, True, None if is_leaf else owner)
        result._counter = t._counter
        if is_leaf:
            _tensor.extras(result).accumulator = owner  # gradients still reach the leaf
        return result


class PackedSaved:
    """A node's packed tensors: ``(position in saved, _Packed)`` pairs."""

    __slots__ = ("entries",)

    def __init__(self, entries):
        self.entries = entries

    def unpack(self, saved, node):
        saved = list(saved)
        for position, packed in self.entries:
            saved[position] = packed.unpack(node)
        return tuple(saved)


def pack_all(values, output_indices):
    """``values`` (tensors, None or other) with each tensor packed: the placeholders
    tuple to keep as ``saved``, and the ``PackedSaved``. ``output_indices[i]``: the
    node's output that ``values[i]`` is, or None."""
    Tensor = _tensor.Tensor
    entries = []
    for position, (v, index) in enumerate(zip(values, output_indices)):
        if isinstance(v, Tensor):
            entries.append((position, _Packed(v, index)))
    placeholders = tuple(None if isinstance(v, Tensor) else v for v in values)
    return placeholders, PackedSaved(entries)


def pack_saved(node, saved, out):
    """``registry._save`` while hooks are active: the pack hook sees the output with
    its ``grad_fn`` already set, as in PyTorch."""
    out.grad_fn, out._requires_grad = node, True
    node.saved, node.ans = pack_all(saved, [0 if s is out else None for s in saved])
    node.checks = FREEABLE


# --- hooks on several tensors -----------------------------------------------------------

class _MultiHandle:
    """What ``register_multi_grad_hook`` returns: ``remove()`` removes every hook."""

    def __init__(self, handles):
        self.handles = handles

    def remove(self):
        for h in self.handles:
            h.remove()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def register_multi_grad_hook(tensors, fn, *, mode="all"):
    """``mode="all"``: ``fn(grads)`` runs once per backward, after the gradients of all
    ``tensors`` that this backward reaches are computed (None for the others).
    ``mode="any"``: ``fn(grad)`` runs once per backward, on the first gradient computed.

    >>> register_multi_grad_hook((a, b), lambda grads: print(grads))
    >>> (a * 2).sum().backward()          # prints [tensor([2., 2.]), None]
    """
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    tensors = tuple(tensors)
    if mode == "any":
        any_hook = _any_hook(fn)
        return _MultiHandle(tuple(t.register_hook(any_hook) for t in tensors if t.requires_grad))
    count, buffers = {}, {}
    nodes = [t.grad_fn if t.grad_fn is not None else grad_accumulator(t) for t in tensors]

    def inner(index):
        def hook(grad):
            task = TASKS[-1]
            if task.id not in count:
                expected = sum(task.will_execute(n) for n in nodes)
                count[task.id], buffers[task.id] = [0, expected], [None] * len(tensors)
            buffers[task.id][index] = grad
            counter = count[task.id]
            counter[0] += 1
            if counter[0] == counter[1]:
                grads = buffers.pop(task.id)
                del count[task.id]
                fn(grads)
        return hook

    return _MultiHandle(tuple(t.register_hook(inner(i)) for i, t in enumerate(tensors) if t.requires_grad))


def _any_hook(fn):
    seen = set()

    def hook(grad):
        task_id = TASKS[-1].id
        if task_id not in seen:
            seen.add(task_id)
            fn(grad)
    return hook


