"""``torch.optim.RAdam``: Adam whose adaptive step is switched on (and rectified) only once
the variance of the adaptive learning rate is tractable (``rho_t > 5``).

::

    rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t)
    p -= lr * m / (1 - beta1**t) * (r_t * sqrt(1 - beta2**t) / (sqrt(v) + eps)  if rho_t > 5  else 1)

>>> opt = RAdam(model.parameters(), lr=1e-3)
"""
import numpy as np

from . import _kernels as K
from .optimizer import (_weight_decay, Optimizer, _bump, _check_betas, _check_lr, _check_non_negative,
                        _grad_array, _increment, _scalar_tensor, _use_grad_for_differentiable,
                        _value, _zeros_like)


class RAdam(Optimizer):
    _LEGACY_DEFAULTS = {"foreach": None, "maximize": False, "differentiable": False,
                        "decoupled_weight_decay": False, "capturable": False}

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_lr(lr)
        _check_non_negative(eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One RAdam update of every parameter that has a gradient; returns ``closure()``'s loss."""
        return self._update_each(closure, _fresh_radam_state, _radam_update)


def _fresh_radam_state(p, group):
    return {"step": _scalar_tensor(0.0), "exp_avg": _zeros_like(p), "exp_avg_sq": _zeros_like(p)}


def _radam_update(p, state, group):
    lr, weight_decay, eps = _value(group["lr"]), group["weight_decay"], group["eps"]
    beta1, beta2 = group["betas"]
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    dtype = param.dtype
    step = _increment(state["step"])
    grad = _weight_decay(p, param, grad, lr, weight_decay, group["decoupled_weight_decay"])
    exp_avg, exp_avg_sq = K.real(state["exp_avg"]._data), K.real(state["exp_avg_sq"]._data)
    K.lerp_(exp_avg, grad, 1 - beta1)
    np.multiply(exp_avg_sq, K.scalar(beta2, dtype), out=exp_avg_sq)
    K.addcmul_(exp_avg_sq, grad, grad, 1 - beta2)
    _bump(state["exp_avg"])
    _bump(state["exp_avg_sq"], 2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    update = (exp_avg / K.scalar(bias_correction1, dtype)) * K.scalar(lr, dtype)
    rho_inf = 2 / (1 - beta2) - 1
    rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
    if rho_t > 5.0:
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
        # PyTorch's ``number / tensor`` is ``tensor.reciprocal() * number``: two roundings
        adaptive_lr = (1 / (np.sqrt(exp_avg_sq) + K.scalar(eps, dtype))) * K.scalar(bias_correction2 ** 0.5, dtype)
        update = (update * adaptive_lr) * K.scalar(rect, dtype)
    np.subtract(param, update, out=param)
    _bump(p)
