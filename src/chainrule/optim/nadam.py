"""``torch.optim.NAdam``: Adam with Nesterov momentum and a momentum schedule.

The momentum at step t is ``mu_t = beta1 * (1 - 0.5 * 0.96**(t * momentum_decay))``;
their running product ``mu_product`` is a 0-d state tensor (so it rounds in its dtype)::

    p -= lr * (1 - mu_t) / (1 - prod mu) * g / d  +  lr * mu_{t+1} / (1 - prod mu * mu_{t+1}) * m / d

with ``d = sqrt(v / (1 - beta2**t)) + eps``.

>>> opt = NAdam(model.parameters(), lr=2e-3, momentum_decay=4e-3)
"""
import numpy as np

from . import _kernels as K
from .optimizer import (_weight_decay, Optimizer, _bump, _check_betas, _check_lr, _check_non_negative,
                        _grad_array, _increment, _scalar_tensor, _use_grad_for_differentiable,
                        _value, _zeros_like)


class NAdam(Optimizer):
    _LEGACY_DEFAULTS = {"maximize": False, "foreach": None, "capturable": False, "differentiable": False,
                        "decoupled_weight_decay": False}
    _SCALAR_STATE = ("step", "mu_product")

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_lr(lr)
        _check_non_negative(eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay, momentum_decay=momentum_decay)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One NAdam update of every parameter that has a gradient; returns ``closure()``'s loss."""
        return self._update_each(closure, _fresh_nadam_state, _nadam_update, names="params, mu_products and state_steps")


def _fresh_nadam_state(p, group):
    return {"step": _scalar_tensor(0.0), "mu_product": _scalar_tensor(1.0), "exp_avg": _zeros_like(p),
            "exp_avg_sq": _zeros_like(p)}


def _nadam_update(p, state, group):
    lr, weight_decay, eps = _value(group["lr"]), group["weight_decay"], group["eps"]
    beta1, beta2 = group["betas"]
    momentum_decay = group["momentum_decay"]
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    dtype = param.dtype
    step = _increment(state["step"])
    bias_correction2 = 1 - beta2 ** step
    grad = _weight_decay(p, param, grad, lr, weight_decay, group["decoupled_weight_decay"])
    mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
    mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
    mu_product_t = state["mu_product"]
    np.multiply(mu_product_t._data, mu, out=mu_product_t._data)
    _bump(mu_product_t)
    exp_avg, exp_avg_sq = K.real(state["exp_avg"]._data), K.real(state["exp_avg_sq"]._data)
    K.lerp_(exp_avg, grad, 1 - beta1)
    np.multiply(exp_avg_sq, K.scalar(beta2, dtype), out=exp_avg_sq)
    K.addcmul_(exp_avg_sq, grad, grad, 1 - beta2)
    _bump(state["exp_avg"])
    _bump(state["exp_avg_sq"], 2)
    denom = np.sqrt(exp_avg_sq / K.scalar(bias_correction2, dtype))
    mu_product = mu_product_t._data.item()
    mu_product_next = mu_product * mu_next
    denom += K.scalar(eps, dtype)
    K.addcdiv_(param, grad, denom, -lr * (1.0 - mu) / (1.0 - mu_product))
    K.addcdiv_(param, exp_avg, denom, (-lr * mu_next) / (1.0 - mu_product_next))
    _bump(p, 2)
