"""``torch.optim.ASGD``: SGD with a decaying step ``eta`` and a running average ``ax`` of
the iterates (Polyak averaging), which starts averaging after ``t0`` steps::

    p *= 1 - lambd * eta;  p -= eta * g;  ax += mu * (p - ax)
    eta = lr / (1 + lambd * lr * t)**alpha;  mu = 1 / max(1, t - t0)

``eta`` and ``mu`` are 0-d state tensors, so they round to their dtype (float32 unless the
default dtype is float64) between steps, as in PyTorch.

>>> opt = ASGD(model.parameters(), lr=1e-2, t0=100)
"""
import numpy as np

from . import _kernels as K
from .optimizer import (Optimizer, _bump, _check_lr, _check_non_negative, _grad_array,
                        _increment, _scalar_np_dtype, _scalar_tensor, _to_scalar, _use_grad_for_differentiable,
                        _value, _zeros_like)


class ASGD(Optimizer):
    _LEGACY_DEFAULTS = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}
    _SCALAR_STATE = ("step", "eta", "mu")

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_lr(lr)
        _check_non_negative(weight_decay=weight_decay)
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One ASGD update of every parameter that has a gradient; returns ``closure()``'s loss."""
        return self._update_each(closure, _fresh_asgd_state, _asgd_update, names="params, mus, etas, and state_steps")


def _fresh_asgd_state(p, group):
    return {"step": _scalar_tensor(0.0), "eta": _scalar_tensor(float(_value(_to_scalar(group["lr"])))),
            "mu": _scalar_tensor(1.0), "ax": _zeros_like(p)}


def _asgd_update(p, state, group):
    lr, weight_decay = _value(group["lr"]), group["weight_decay"]
    lambd, alpha, t0 = group["lambd"], group["alpha"], group["t0"]
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    dtype = param.dtype
    step = _increment(state["step"])
    if weight_decay != 0:
        grad = K.add(grad, param, weight_decay)
    eta, mu = state["eta"], state["mu"]
    eta_value = eta._data.item()
    np.multiply(param, K.scalar(1 - lambd * eta_value, dtype), out=param)
    K.add_(param, grad, -eta_value)
    _bump(p, 2)
    ax = K.real(state["ax"]._data)
    mu_value = mu._data.item()
    if mu_value != 1:
        ax += (param - ax) * K.scalar(mu_value, dtype)
    else:
        np.copyto(ax, param)
    _bump(state["ax"])
    # PyTorch makes each new value a default-dtype tensor, then copies it into the state
    # (which load_state_dict may have cast to the parameter's dtype)
    eta._data[...] = _scalar_np_dtype()(lr / ((1 + lambd * lr * step) ** alpha))
    mu._data[...] = _scalar_np_dtype()(1 / max(1, step - t0))
    _bump(eta)
    _bump(mu)
