"""``torch.optim.Adagrad``: divide by the root of the summed squared gradients.

::

    s += g * g;  p -= lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)

The state (``step``, ``sum``) exists from construction on, as in PyTorch.

>>> opt = Adagrad(model.parameters(), lr=1e-2, initial_accumulator_value=0.1)
"""
import numpy as np

from . import _kernels as K
from .optimizer import (Optimizer, _bump, _check_fused, _check_fused_flags, _check_lr, _check_non_negative,
                        _full_like, _grad_array, _increment, _run_closure, _scalar_tensor,
                        _use_grad_for_differentiable, _value)


class Adagrad(Optimizer):
    _LEGACY_DEFAULTS = {"foreach": None, "maximize": False, "differentiable": False, "fused": None}

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_lr(lr)
        _check_non_negative(lr_decay=lr_decay, weight_decay=weight_decay,
                            initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        if fused:
            _check_fused_flags(defaults)
            self._need_device_dtype_check_for_fused = True
            self._step_supports_amp_scaling = True
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(self.state[p], p, group["fused"], initial_accumulator_value)

    @staticmethod
    def _init_state(state, p, fused, initial_value):
        state["step"] = _scalar_tensor(0.0, np.float32 if fused else None)
        if p.is_complex():
            initial_value = complex(initial_value, initial_value)
        state["sum"] = _full_like(p, initial_value)

    def share_memory(self):
        """A no-op: chainrule has one process's memory (``torch`` shares it with workers)."""

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adagrad update of every parameter that has a gradient; returns ``closure()``'s loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                    _check_fused(p)
                    self._need_device_dtype_check_for_fused = False
                state = self.state[p]
                if len(state) == 0:  # after load_state_dict of a shorter state, as in PyTorch
                    if group["fused"]:
                        _check_fused(p)
                    self._init_state(state, p, group["fused"], self.defaults["initial_accumulator_value"])
                _adagrad_update(p, state, group)
        return loss


def _adagrad_update(p, state, group):
    lr, weight_decay, eps, lr_decay = _value(group["lr"]), group["weight_decay"], group["eps"], group["lr_decay"]
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    step = _increment(state["step"])
    if weight_decay != 0:
        grad = K.add(grad, param, weight_decay)
    clr = lr / (1 + (step - 1) * lr_decay)
    state_sum = K.real(state["sum"]._data)
    K.addcmul_(state_sum, grad, grad, 1)
    _bump(state["sum"])
    std = np.sqrt(state_sum)
    std += K.scalar(eps, std.dtype)
    K.addcdiv_(param, grad, std, -clr)
    _bump(p)
