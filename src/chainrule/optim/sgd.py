"""``torch.optim.SGD``: gradient descent with optional momentum, dampening and Nesterov.

PyTorch's momentum buffer starts as the first gradient itself (not zeros), so dampening
applies from the second step on::

    b_1 = g_1,  b_t = momentum * b_{t-1} + (1 - dampening) * g_t
    p  -= lr * (g_t + momentum * b_t  if nesterov else  b_t)

>>> opt = SGD(model.parameters(), lr=0.1, momentum=0.9)
"""
import numpy as np

from .._core.tensor import Tensor
from . import _kernels as K
from .optimizer import (Optimizer, _bump, _check_fused, _check_fused_flags, _grad_array, _run_closure, _state_copy,
                        _use_grad_for_differentiable, _value)


class SGD(Optimizer):
    _LEGACY_DEFAULTS = {"nesterov": False, "maximize": False, "foreach": None, "differentiable": False,
                        "fused": False}

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach,
                    "differentiable": differentiable, "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        if fused:
            self._step_supports_amp_scaling = True
            self._need_device_dtype_check_for_fused = True
            _check_fused_flags(defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            lr, weight_decay = _value(group["lr"]), _value(group["weight_decay"])
            momentum, dampening, nesterov = group["momentum"], group["dampening"], group["nesterov"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                    _check_fused(p)
                    self._need_device_dtype_check_for_fused = False
                param = K.real(p._data)
                grad = K.real(_grad_array(p, group["maximize"]))
                if weight_decay != 0:
                    grad = K.add(grad, param, weight_decay)
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = _state_copy(grad, p)
                        b = K.real(buf._data)
                    else:
                        b = K.real(buf._data)
                        np.multiply(b, K.scalar(momentum, b.dtype), out=b)
                        K.add_(b, grad, 1 - dampening)
                        _bump(buf, 2)
                    grad = K.add(grad, b, momentum) if nesterov else b
                K.add_(param, grad, -float(lr))
                _bump(p)
        return loss
