"""``torch.optim.Optimizer``: parameter groups, per-parameter state, step hooks, state_dict.

An optimizer holds ``param_groups`` (dicts: ``'params'`` plus the options, each group
filled from ``defaults``) and ``state``, a dict keyed by the parameter tensor itself.
``state_dict()`` swaps the tensors for their position, counted over all groups in
order, which is PyTorch's own structure and so what ``torch.save`` writes::

    {'state': {0: {'step': tensor(3.), 'exp_avg': tensor(...), ...}, 1: {...}},
     'param_groups': [{'lr': 0.001, ..., 'params': [0, 1]}]}

The subclasses update parameters in place under no graph, on their NumPy arrays
(see ``_kernels``), and bump each tensor's version counter once per in-place op that
PyTorch's single-tensor code path does, so autograd still refuses a graph that saved a
parameter before the step.

>>> opt = SGD([w], lr=0.1); loss(w).backward(); opt.step(); opt.zero_grad()
"""
import functools
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from copy import deepcopy
from itertools import chain

import numpy as np

from .._core import dtype as _dtype
from .._core.tensor import Tensor, _wrap
from .._autograd.anomaly_mode import note_modified
from .._core.modes import LINES
from .._autograd.grad_mode import enable_grad, set_grad_enabled
from . import _kernels as K

_global_optimizer_pre_hooks = OrderedDict()
_global_optimizer_post_hooks = OrderedDict()


class _RequiredParameter:
    """The default of an option that each parameter group must give (LBFGS-style ``lr``)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


class _RemovableHandle:
    """What the ``register_*_hook`` methods return, as ``torch.utils.hooks.RemovableHandle``:
    ``remove()`` takes the hook out of its ordered dict again."""

    _next_id = 0

    def __init__(self, hooks):
        self._hooks = hooks
        self.id = _RemovableHandle._next_id
        _RemovableHandle._next_id += 1

    def remove(self):
        self._hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _add_hook(hooks, hook, prepend=False):
    handle = _RemovableHandle(hooks)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def register_optimizer_step_pre_hook(hook):
    """``hook(optimizer, args, kwargs)`` runs before every optimizer's ``step``."""
    return _add_hook(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook):
    """``hook(optimizer, args, kwargs)`` runs after every optimizer's ``step``."""
    return _add_hook(_global_optimizer_post_hooks, hook)


def _typename(obj):
    """``torch.typename``: ``torch.FloatTensor`` for a tensor, else the qualified type name."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
    if qualname is None:
        module, qualname = obj.__class__.__module__ or "", obj.__class__.__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _to_scalar(x):
    """A one-element hyperparameter tensor as a 0-d tensor (PyTorch's ``_to_scalar``)."""
    if isinstance(x, Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def _value(x):
    """A hyperparameter for the step's scalar arithmetic: a Python number stays one; a
    tensor becomes a NumPy scalar of its dtype, so ``lr / bias_correction`` rounds as
    PyTorch's 0-d tensor arithmetic does (in float32 for a float32 ``lr``)."""
    if isinstance(x, Tensor):
        return x._data.reshape(())[()]
    return x


def _scalar_np_dtype():
    """The dtype of ``state['step']``: float64 under a float64 default dtype, else float32."""
    return np.float64 if _dtype.get_default_dtype() is _dtype.float64 else np.float32


def _scalar_tensor(value, dtype=None):
    """A 0-d state tensor such as ``state['step']`` (``torch.tensor(0.0)``)."""
    return _wrap(np.array(value, dtype=dtype or _scalar_np_dtype()))


def _zeros_like(p):
    return _wrap(np.zeros_like(p._data))


def _full_like(p, value):
    return _wrap(np.full_like(p._data, value))


def _state_copy(array, p):
    """A new state tensor holding a copy of ``array`` (maybe ``p``'s real view) in ``p``'s dtype."""
    return _wrap(array.copy().view(p._data.dtype))


def _bump(t, times=1):
    """Count ``times`` in-place ops on ``t``, as PyTorch's version counter does (and keep
    the user's line, for the error a stale saved tensor raises later)."""
    t._counter[0] += times
    if LINES.enabled:
        note_modified(t._counter)


def _increment(step_t):
    """``step_t += 1`` on a 0-d state tensor; returns the new step as a Python number."""
    step_t._data += 1
    step_t._counter[0] += 1
    return step_t._data.item()


def _weight_decay(p, param, grad, lr, weight_decay, decoupled):
    """The gradient after weight decay: the parameter shrunk in place by ``1 - lr * wd``
    (AdamW-style, ``decoupled``), or ``wd * param`` added to the gradient (L2)."""
    if weight_decay == 0:
        return grad
    if decoupled:
        np.multiply(param, K.scalar(1 - lr * weight_decay, param.dtype), out=param)
        _bump(p)
        return grad
    return K.add(grad, param, weight_decay)


def _grad_array(p, maximize):
    g = p._grad._data
    return -g if maximize else g


def _check_capturable(group, names="params and state_steps",
                      devices="['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']"):
    """``capturable=True`` needs an accelerator; on the CPU PyTorch's step asserts."""
    if group.get("capturable"):
        raise AssertionError(f"If capturable=True, {names} must be on supported devices: {devices}.")


def _check_fused(p):
    if p._data.dtype.kind != "f":
        raise RuntimeError("`fused=True` requires all the params to be floating point Tensors of supported "
                           "devices: ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone'] but "
                           f"{p.dtype} and cpu")


def _check_fused_flags(defaults):
    if defaults.get("fused"):
        if defaults.get("differentiable"):
            raise RuntimeError("`fused` does not support `differentiable`")
        if defaults.get("foreach"):
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _check_lr(lr):
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def _check_betas(betas):
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")


def _check_non_negative(**values):
    """PyTorch's ``Invalid <name> value: <v>`` for each option below zero, in order."""
    for name, value in values.items():
        if not 0.0 <= value:
            word = "epsilon" if name == "eps" else name
            raise ValueError(f"Invalid {word} value: {value}")


def _run_closure(closure):
    if closure is None:
        return None
    with enable_grad():
        return closure()


def _use_grad_for_differentiable(step):
    """Runs ``step`` with grad mode set to the ``differentiable`` option, as PyTorch does."""
    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        with set_grad_enabled(bool(self.defaults["differentiable"])):
            return step(self, *args, **kwargs)
    return wrapper


def _hooked(step):
    """``step`` with the global and per-optimizer step hooks around it (PyTorch's
    ``profile_hook_step``). Hooks get ``args`` with the optimizer itself first."""
    @functools.wraps(step)
    def wrapper(*args, **kwargs):
        self = args[0]
        for pre_hook in chain(_global_optimizer_pre_hooks.values(), self._optimizer_step_pre_hooks.values()):
            result = pre_hook(self, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(f"{step} must return None or a tuple of (new_args, new_kwargs), but "
                                       f"got {result}.")
                args, kwargs = result
        out = step(*args, **kwargs)
        for post_hook in chain(self._optimizer_step_post_hooks.values(), _global_optimizer_post_hooks.values()):
            post_hook(self, args, kwargs)
        return out
    wrapper.hooked = True
    return wrapper


class Optimizer:
    """Base class of all optimizers: ``Optimizer(params, defaults)``.

    ``params`` is an iterable of tensors, of ``(name, tensor)`` pairs (as
    ``named_parameters()`` yields), or of dicts (parameter groups with their own options).
    A subclass implements ``step``; the hooks are wrapped around it on first use.
    """

    # Options an old state_dict may lack; ``__setstate__`` fills them in (per subclass).
    _LEGACY_DEFAULTS = {}
    # The 0-d state tensors a very old state_dict stored as numbers.
    _SCALAR_STATE = ("step",)

    def __init__(self, params, defaults):
        self.defaults = defaults
        self._optimizer_step_pre_hooks = OrderedDict()
        self._optimizer_step_post_hooks = OrderedDict()
        self._optimizer_state_dict_pre_hooks = OrderedDict()
        self._optimizer_state_dict_post_hooks = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks = OrderedDict()
        self._optimizer_load_state_dict_post_hooks = OrderedDict()
        self._patch_step_function()
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got " + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def _patch_step_function(self):
        cls = type(self)
        if not getattr(cls.step, "hooked", None):
            cls.step = _hooked(cls.step)

    def __getstate__(self):
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks", "_optimizer_state_dict_pre_hooks",
                     "_optimizer_state_dict_post_hooks", "_optimizer_load_state_dict_pre_hooks",
                     "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:
            for key, value in self._LEGACY_DEFAULTS.items():
                group.setdefault(key, value)
            for p in group["params"]:
                p_state = self.state.get(p, {})
                for key in self._SCALAR_STATE:
                    if key in p_state and not isinstance(p_state[key], Tensor):
                        p_state[key] = _scalar_tensor(float(p_state[key]))

    def __repr__(self):
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    # --- hooks -----------------------------------------------------------------------

    def register_step_pre_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` before ``step``; may return new ``(args, kwargs)``."""
        return _add_hook(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook):
        """``hook(optimizer, args, kwargs)`` after ``step``."""
        return _add_hook(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook, prepend=False):
        return _add_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook, prepend=False):
        return _add_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook, prepend=False):
        return _add_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook, prepend=False):
        return _add_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # --- state_dict ------------------------------------------------------------------

    def state_dict(self):
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}``.

        The state's dicts and tensors are the optimizer's own (not copies), as in PyTorch.
        """
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)
        index_of = {}
        start = 0

        def pack_group(group):
            nonlocal start
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                index_of.setdefault(id(p), i)
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            start += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(index_of[id(k)] if isinstance(k, Tensor) else k): v for k, v in self.state.items()}
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            result = post_hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        """A loaded state tensor in the parameter's dtype; ``step`` keeps its own dtype
        (float32 for fused or capturable groups)."""
        fused = capturable = False
        for pg in param_groups:
            if param_id in pg["params"]:
                fused = pg.get("fused", False)
                capturable = pg.get("capturable", False)
                break
        if key == "step":
            return value.to(dtype=_dtype.float32) if capturable or fused else value
        if param.is_floating_point():
            return value.to(dtype=param.dtype)
        return value

    def load_state_dict(self, state_dict):
        """Loads ``state_dict()``'s structure: state tensors are cast to each parameter's
        dtype, options come from the saved groups, parameters stay this optimizer's."""
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = pre_hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def cast(param, value, param_id=None, param_groups=None, key=None):
            if isinstance(value, Tensor):
                return Optimizer._process_value_according_to_param_policy(param, value, param_id, param_groups, key)
            if isinstance(value, dict):
                return {k: cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                        for k, v in value.items()}
            if isinstance(value, Iterable):
                return type(value)(cast(param, v, param_id=param_id, param_groups=param_groups) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = cast(param, v, param_id=k, param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    # --- gradients and groups ----------------------------------------------------------

    def _update_each(self, closure, fresh_state, update, **capturable):
        """The step of the single-tensor optimizers: in each group, a parameter with a gradient
        gets its state on its first step (``fresh_state(p, group)``: the entries in PyTorch's
        order), then every such parameter is updated (``update(p, state, group)``) in turn.
        Returns ``closure()``'s loss; ``capturable``: ``_check_capturable``'s wording."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            with_grad = [p for p in group["params"] if p.grad is not None]
            for p in with_grad:
                if len(self.state[p]) == 0:
                    self.state[p].update(fresh_state(p, group))
            for p in with_grad:
                _check_capturable(group, **capturable)
                update(p, self.state[p], group)
        return loss

    def zero_grad(self, set_to_none=True):
        """Sets each parameter's ``.grad`` to None (or, with ``set_to_none=False``, to zeros)."""
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if p.grad.grad_fn is not None:
                            p.grad.detach_()
                        else:
                            p.grad.requires_grad_(False)
                        p.grad.zero_()

    def step(self, closure=None):
        raise NotImplementedError

    def add_param_group(self, param_group):
        """Adds a group (a dict with ``'params'`` and any options); missing options come
        from ``defaults``."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        tensors, names = [], []
        for param in param_group["params"]:
            if isinstance(param, tuple):
                names.append(param[0])
                tensors.append(param[1])
            else:
                tensors.append(param)
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for param in tensors:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        if len(tensors) != len(set(tensors)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                          "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        param_set = set()
        for group in self.param_groups:
            param_set.update(set(group["params"]))
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {which} to the optimizer")
        if not param_set.isdisjoint(set(tensors)):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)
