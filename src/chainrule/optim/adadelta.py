"""``torch.optim.Adadelta``: steps sized by the ratio of two running RMS values, of the
updates and of the gradients, so that ``lr`` (default 1) needs little tuning::

    v = rho * v + (1 - rho) * g * g;  delta = sqrt(u + eps) / sqrt(v + eps) * g
    u = rho * u + (1 - rho) * delta * delta;  p -= lr * delta

>>> opt = Adadelta(model.parameters(), rho=0.9)
"""
import numpy as np

from . import _kernels as K
from .optimizer import (Optimizer, _bump, _check_lr, _check_non_negative, _grad_array,
                        _increment, _scalar_tensor, _use_grad_for_differentiable, _value,
                        _zeros_like)


class Adadelta(Optimizer):
    _LEGACY_DEFAULTS = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        _check_non_negative(eps=eps, weight_decay=weight_decay)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adadelta update of every parameter that has a gradient; returns ``closure()``'s loss."""
        return self._update_each(closure, _fresh_adadelta_state, _adadelta_update, devices="['cuda', 'xpu', 'hpu', 'privateuseone']")


def _fresh_adadelta_state(p, group):
    return {"step": _scalar_tensor(0.0), "square_avg": _zeros_like(p), "acc_delta": _zeros_like(p)}


def _adadelta_update(p, state, group):
    lr, weight_decay, eps, rho = _value(group["lr"]), group["weight_decay"], group["eps"], group["rho"]
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    dtype = param.dtype
    _increment(state["step"])
    if weight_decay != 0:
        grad = K.add(grad, param, weight_decay)
    square_avg, acc_delta = K.real(state["square_avg"]._data), K.real(state["acc_delta"]._data)
    np.multiply(square_avg, K.scalar(rho, dtype), out=square_avg)
    K.addcmul_(square_avg, grad, grad, 1 - rho)
    std = np.sqrt(square_avg + K.scalar(eps, dtype))
    delta = np.sqrt(acc_delta + K.scalar(eps, dtype))
    delta /= std
    delta *= grad
    np.multiply(acc_delta, K.scalar(rho, dtype), out=acc_delta)
    K.addcmul_(acc_delta, delta, delta, 1 - rho)
    _bump(state["square_avg"], 2)
    _bump(state["acc_delta"], 2)
    K.add_(param, delta, -lr)
    _bump(p)
