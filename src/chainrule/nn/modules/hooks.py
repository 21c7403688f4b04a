"""What Module hooks are built from (and the hooks every module runs, ``register_module_*``): handles that remove a hook, and the backward-hook plumbing.

``RemovableHandle`` is what every ``register_*_hook`` returns (PyTorch's
``torch.utils.hooks.RemovableHandle``): hooks live in ordered dicts keyed by the handle's id,
so ``prepend=True`` is a ``move_to_end(id, last=False)`` and ``remove()`` is a ``del``.

``BackwardHook`` gives ``register_full_backward_hook`` / ``register_full_backward_pre_hook``
their moment in backward with no help from the engine: the module's tensor inputs and outputs
are passed through an identity ``autograd.Function`` (``BackwardHookFunction``, whose node is
``BackwardHookFunctionBackward`` as in PyTorch). The output identity's backward sees the
gradients of the outputs (pre-hooks run there and may replace them); the input identity's
backward sees the gradients of the inputs, once all of the module's graph has run, and runs
the full hooks, which may replace those.

>>> seen = []
>>> lin = nn.Linear(2, 1)
>>> _ = lin.register_full_backward_hook(lambda m, gin, gout: seen.append(gout[0].shape))
>>> lin(chainrule.ones(3, 2, requires_grad=True)).sum().backward()
>>> seen
[torch.Size([3, 1])]
"""
import warnings
import weakref
from collections import OrderedDict, namedtuple

from ..._core.tensor import Tensor
from ...autograd.function import Function
from ..._autograd.grad_mode import is_grad_enabled


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns; prints ``<All keys matched successfully>`` when both are empty."""

    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class RemovableHandle:
    """Removes the hook registered under ``self.id`` from ``hooks_dict`` (and the flag dicts
    in ``extra_dict``, e.g. ``with_kwargs``); usable as a context manager."""

    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        if isinstance(extra_dict, dict):
            extra_dict = [extra_dict]
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict or ())

    def remove(self):
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            table = ref()
            if table is not None and self.id in table:
                del table[self.id]

    def __getstate__(self):
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state):
        self.hooks_dict_ref = weakref.ref(state[0] if state[0] is not None else {})
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        self.extra_dict_ref = tuple(weakref.ref(d) for d in (state[2] if len(state) > 2 else ()) if d is not None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class _WrappedHook:
    """A hook called with its module first, holding the module weakly (state-dict pre-hooks)."""

    def __init__(self, hook, module=None):
        self.hook = hook
        self.with_module = module is not None
        if self.with_module:
            self.module = weakref.ref(module)

    def __call__(self, *args, **kwargs):
        if self.with_module:
            module = self.module()
            if module is None:
                raise RuntimeError("You are trying to call the hook of a dead Module!")
            return self.hook(module, *args, **kwargs)
        return self.hook(*args, **kwargs)


class BackwardHookFunction(Function):
    """The identity, so that its backward is a place in the graph where hooks can run.

    ``on_backward(grads)`` (set by ``BackwardHook``) sees the incoming gradients, None where
    none arrived, and returns the ones to pass on.
    """

    @staticmethod
    def forward(ctx, on_backward, *args):
        ctx.on_backward = on_backward
        ctx.set_materialize_grads(False)
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx, *grads):
        return (None, *ctx.on_backward(grads))


class BackwardHook:
    """One module call's full backward hooks and pre-hooks (see the module notes)."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        res = [None] * size
        for i, v in zip(indices, values):
            res[i] = v
        return tuple(res)

    def _apply_on_tensors(self, on_backward, args):
        index = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        tensors = [args[i] for i in index]
        if not (any(t.requires_grad for t in tensors) and is_grad_enabled()):
            return args, None
        new = BackwardHookFunction.apply(on_backward, *tensors)
        if not isinstance(new, tuple):
            new = (new,)
        out = list(args)
        for i, t in zip(index, new):
            out[i] = t
        return (tuple(out) if type(args) is tuple else type(args)(*out)), index

    def setup_input_hook(self, args):
        def on_input_grads(grad_input):
            if self.grad_outputs is None:
                return grad_input
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for hook in self.user_hooks:
                out = hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, got {len(out)}, "
                                       f"but expected {len(res)}")
                res = out
            self.grad_outputs = None
            return tuple(res[i] for i in self.input_tensors_index)

        res, index = self._apply_on_tensors(on_input_grads, args)
        self.n_inputs = len(args)
        self.input_tensors_index = index
        return res

    def setup_output_hook(self, outputs):
        def on_output_grads(grad_output):
            self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
            expected = len(self.grad_outputs)
            for hook in self.user_pre_hooks:
                replaced = hook(self.module, self.grad_outputs)
                if replaced is None:
                    continue
                if len(replaced) != expected:
                    raise RuntimeError(f"Backward pre hook returned an invalid number of grad_output, got "
                                       f"{len(replaced)}, but expected {expected}")
                self.grad_outputs = replaced
            local = self.grad_outputs
            if self.input_tensors_index is None:  # no input needs a gradient: the hooks fire here
                warnings.warn("Full backward hook is firing when gradients are computed with respect to module "
                              "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
                              "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more "
                              "details.", stacklevel=5)
                grad_inputs = (None,) * self.n_inputs
                for hook in self.user_hooks:
                    res = hook(self.module, grad_inputs, self.grad_outputs)
                    if res is not None and not (isinstance(res, tuple) and all(r is None for r in res)):
                        raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                           "always return None or None for all gradients.")
                self.grad_outputs = None
            return tuple(local[i] for i in self.output_tensors_index)

        is_tuple = isinstance(outputs, tuple)
        if not is_tuple:
            outputs = (outputs,)
        res, index = self._apply_on_tensors(on_output_grads, outputs)
        self.n_outputs = len(outputs)
        self.output_tensors_index = index
        return res if is_tuple else res[0]


# Hooks for every module (PyTorch's debugging/profiling globals).
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_with_kwargs = OrderedDict()
_global_forward_hooks_always_called = OrderedDict()
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_buffer_registration_hooks = OrderedDict()
_global_module_registration_hooks = OrderedDict()
_global_parameter_registration_hooks = OrderedDict()


def _register_global(table, hook, **flags):
    handle = RemovableHandle(table, extra_dict=[d for d in flags.values() if d is not None] or None)
    table[handle.id] = hook
    for flag_table in flags.values():
        if flag_table is not None:
            flag_table[handle.id] = True
    return handle


def register_module_forward_pre_hook(hook):
    return _register_global(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    return _register_global(_global_forward_hooks, hook,
                            kw=_global_forward_hooks_with_kwargs if with_kwargs else None,
                            always=_global_forward_hooks_always_called if always_call else None)


def register_module_full_backward_pre_hook(hook):
    return _register_global(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook):
    return _register_global(_global_backward_hooks, hook)


def register_module_buffer_registration_hook(hook):
    return _register_global(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook):
    return _register_global(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook):
    return _register_global(_global_parameter_registration_hooks, hook)


def _run_registration_hooks(table, module, name, value):
    for hook in table.values():
        output = hook(module, name, value)
        if output is not None:
            value = output
    return value
