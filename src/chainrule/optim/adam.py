"""``torch.optim.Adam``: moving averages of the gradient and its square, bias-corrected.

::

    m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
    p -= lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

``amsgrad`` divides by the running maximum of ``v`` instead; ``decoupled_weight_decay``
(AdamW) shrinks ``p`` by ``1 - lr * weight_decay`` instead of adding to the gradient.

>>> opt = Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999))
"""
import numpy as np

from .._core.tensor import Tensor
from . import _kernels as K
from .optimizer import (_weight_decay, Optimizer, _bump, _check_betas, _check_capturable, _check_fused,
                        _check_fused_flags, _check_non_negative, _check_lr, _grad_array, _increment, _run_closure,
                        _scalar_np_dtype, _scalar_tensor, _to_scalar, _use_grad_for_differentiable, _value, _zeros_like)


class Adam(Optimizer):
    _LEGACY_DEFAULTS = {"amsgrad": False, "maximize": False, "foreach": None, "capturable": False,
                        "differentiable": False, "decoupled_weight_decay": False, "fused": None}

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
        _check_lr(lr)
        _check_non_negative(eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, beta in enumerate(betas):
            if isinstance(beta, Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for capturable=False and foreach=True")
                if beta.numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
        defaults = {"lr": lr, "betas": tuple(map(_to_scalar, betas)), "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        if fused:
            _check_fused_flags(defaults)
            self._step_supports_amp_scaling = True

    def _init_state(self, p, group):
        state = self.state[p]
        if len(state) == 0:
            if group["fused"]:
                _check_fused(p)
            special = group["capturable"] or group["fused"]
            state["step"] = _scalar_tensor(0.0, np.float32 if group["fused"] else _scalar_np_dtype()) if special \
                else _scalar_tensor(0.0)
            state["exp_avg"] = _zeros_like(p)
            state["exp_avg_sq"] = _zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = _zeros_like(p)
        if group["foreach"] and isinstance(group["lr"], Tensor) and not group["capturable"]:
            raise RuntimeError("lr as a Tensor is not supported for capturable=False and foreach=True")
        return state

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Adam update of every parameter that has a gradient; returns ``closure()``'s loss."""
        loss = _run_closure(closure)
        for group in self.param_groups:
            with_grad = [p for p in group["params"] if p.grad is not None]
            states = [self._init_state(p, group) for p in with_grad]
            for p, state in zip(with_grad, states):
                _check_capturable(group)
                _adam_update(p, state, group)
        return loss


def _adam_update(p, state, group):
    lr, weight_decay, eps = _value(group["lr"]), _value(group["weight_decay"]), group["eps"]
    beta1, beta2 = (_value(b) for b in group["betas"])
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    dtype = param.dtype
    step = _increment(state["step"])
    grad = _weight_decay(p, param, grad, lr, weight_decay, group["decoupled_weight_decay"])
    exp_avg, exp_avg_sq = K.real(state["exp_avg"]._data), K.real(state["exp_avg_sq"]._data)
    # a tensor beta1 is first cast to the parameter's dtype, then ``1 - beta1`` taken there
    weight = 1 - (K.scalar(beta1, dtype) if isinstance(beta1, np.generic) else beta1)
    K.lerp_(exp_avg, grad, weight)
    np.multiply(exp_avg_sq, K.scalar(beta2, dtype), out=exp_avg_sq)
    K.addcmul_(exp_avg_sq, grad, grad, 1 - beta2)
    _bump(state["exp_avg"])
    _bump(state["exp_avg_sq"], 2)
    bias_correction1 = 1 - beta1 ** step
    bias_correction2 = 1 - beta2 ** step
    step_size = lr / bias_correction1
    bias_correction2_sqrt = bias_correction2 ** 0.5
    if group["amsgrad"]:
        max_exp_avg_sq = K.real(state["max_exp_avg_sq"]._data)
        np.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
        _bump(state["max_exp_avg_sq"])
        denom = np.sqrt(max_exp_avg_sq) / K.scalar(bias_correction2_sqrt, dtype)
    else:
        denom = np.sqrt(exp_avg_sq) / K.scalar(bias_correction2_sqrt, dtype)
    denom += K.scalar(eps, dtype)
    K.addcdiv_(param, exp_avg, denom, -step_size)
    _bump(p)
