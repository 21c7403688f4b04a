"""``torch.optim.RMSprop``: divide the gradient by a running root mean square of it.

::

    v = alpha * v + (1 - alpha) * g * g;  d = sqrt(v - gbar**2 if centered else v) + eps
    p -= lr * g / d,  or with momentum:  b = momentum * b + g / d;  p -= lr * b

>>> opt = RMSprop(model.parameters(), lr=1e-2, alpha=0.99, centered=True)
"""
import numpy as np

from . import _kernels as K
from .optimizer import (Optimizer, _bump, _check_lr, _check_non_negative, _grad_array,
                        _increment, _scalar_tensor, _use_grad_for_differentiable, _value,
                        _zeros_like)


class RMSprop(Optimizer):
    _LEGACY_DEFAULTS = {"momentum": 0, "centered": False, "foreach": None, "maximize": False,
                        "differentiable": False, "capturable": False}

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        _check_non_negative(eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One RMSprop update of every parameter that has a gradient; returns ``closure()``'s loss."""
        return self._update_each(closure, _fresh_rmsprop_state, _rmsprop_update)


def _fresh_rmsprop_state(p, group):
    state = {"step": _scalar_tensor(0.0), "square_avg": _zeros_like(p)}
    if group["momentum"] > 0:
        state["momentum_buffer"] = _zeros_like(p)
    if group["centered"]:
        state["grad_avg"] = _zeros_like(p)
    return state


def _rmsprop_update(p, state, group):
    lr, weight_decay, eps = _value(group["lr"]), group["weight_decay"], group["eps"]
    alpha, momentum = group["alpha"], group["momentum"]
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    dtype = param.dtype
    _increment(state["step"])
    if weight_decay != 0:
        grad = K.add(grad, param, weight_decay)
    square_avg = K.real(state["square_avg"]._data)
    np.multiply(square_avg, K.scalar(alpha, dtype), out=square_avg)
    K.addcmul_(square_avg, grad, grad, 1 - alpha)
    _bump(state["square_avg"], 2)
    if group["centered"]:
        grad_avg = K.real(state["grad_avg"]._data)
        K.lerp_(grad_avg, grad, 1 - alpha)
        _bump(state["grad_avg"])
        avg = np.sqrt(K.addcmul(square_avg, grad_avg, grad_avg, -1))
    else:
        avg = np.sqrt(square_avg)
    avg += K.scalar(eps, dtype)
    if momentum > 0:
        buf = K.real(state["momentum_buffer"]._data)
        np.multiply(buf, K.scalar(momentum, dtype), out=buf)
        K.addcdiv_(buf, grad, avg, 1)
        _bump(state["momentum_buffer"], 2)
        K.add_(param, buf, -lr)
    else:
        K.addcdiv_(param, grad, avg, -lr)
    _bump(p)
