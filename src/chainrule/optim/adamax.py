"""``torch.optim.Adamax``: Adam with the infinity norm, ``u = max(beta2 * u, |g| + eps)``.

::

    m = lerp(m, g, 1 - beta1);  p -= lr / (1 - beta1**t) * m / u

>>> opt = Adamax(model.parameters(), lr=2e-3)
"""
import numpy as np

from . import _kernels as K
from .optimizer import (Optimizer, _bump, _check_betas, _check_lr, _check_non_negative,
                        _grad_array, _increment, _scalar_tensor, _use_grad_for_differentiable,
                        _value, _zeros_like)


class Adamax(Optimizer):
    _LEGACY_DEFAULTS = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check_non_negative(eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adamax update of every parameter that has a gradient; returns ``closure()``'s loss."""
        return self._update_each(closure, _fresh_adamax_state, _adamax_update)


def _fresh_adamax_state(p, group):
    return {"step": _scalar_tensor(0.0), "exp_avg": _zeros_like(p), "exp_inf": _zeros_like(p)}


def _adamax_update(p, state, group):
    lr, weight_decay, eps = _value(group["lr"]), group["weight_decay"], group["eps"]
    beta1, beta2 = group["betas"]
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    dtype = param.dtype
    step = _increment(state["step"])
    if weight_decay != 0:
        grad = K.add(grad, param, weight_decay)
    exp_avg, exp_inf = K.real(state["exp_avg"]._data), K.real(state["exp_inf"]._data)
    K.lerp_(exp_avg, grad, 1 - beta1)
    np.multiply(exp_inf, K.scalar(beta2, dtype), out=exp_inf)
    np.maximum(exp_inf, np.abs(grad) + K.scalar(eps, dtype), out=exp_inf)
    _bump(state["exp_avg"])
    _bump(state["exp_inf"], 2)
    clr = lr / (1 - beta1 ** step)
    K.addcdiv_(param, exp_avg, exp_inf, -clr)
    _bump(p)
