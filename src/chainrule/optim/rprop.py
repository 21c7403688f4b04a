"""``torch.optim.Rprop``: resilient backpropagation, which uses only the gradient's sign.

Each element has its own step size, grown by ``etaplus`` while the gradient keeps its
sign and shrunk by ``etaminus`` when it flips (then that element skips one update)::

    step_size = clamp(step_size * eta, *step_sizes);  p -= sign(g) * step_size

>>> opt = Rprop(model.parameters(), lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50))
"""
import numpy as np

from . import _kernels as K
from .optimizer import (Optimizer, _bump, _check_lr, _full_like, _grad_array, _increment,
                        _scalar_tensor, _to_scalar, _use_grad_for_differentiable, _value,
                        _zeros_like)


class Rprop(Optimizer):
    _LEGACY_DEFAULTS = {"foreach": None, "maximize": False, "differentiable": False, "capturable": False}

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False,
                 foreach=None, maximize=False, differentiable=False):
        _check_lr(lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @_use_grad_for_differentiable
    def step(self, closure=None):
        """One Rprop update of every parameter that has a gradient; returns ``closure()``'s loss."""
        return self._update_each(closure, _fresh_rprop_state, _rprop_update)


def _fresh_rprop_state(p, group):
    lr = float(_value(_to_scalar(group["lr"])))
    return {"step": _scalar_tensor(0.0), "prev": _zeros_like(p),
            "step_size": _full_like(p, complex(lr, lr) if p.is_complex() else lr)}


def _rprop_update(p, state, group):
    etaminus, etaplus = group["etas"]
    step_size_min, step_size_max = group["step_sizes"]
    param = K.real(p._data)
    grad = K.real(_grad_array(p, group["maximize"]))
    dtype = param.dtype
    _increment(state["step"])
    prev, step_size = K.real(state["prev"]._data), K.real(state["step_size"]._data)
    sign = np.sign(grad * prev)
    # one pass instead of PyTorch's three masked writes: the masks are disjoint
    factor = np.where(sign > 0, K.scalar(etaplus, dtype), np.where(sign < 0, K.scalar(etaminus, dtype),
                                                                     dtype.type(1)))
    step_size *= factor
    np.clip(step_size, K.scalar(step_size_min, dtype), K.scalar(step_size_max, dtype), out=step_size)
    _bump(state["step_size"], 2)
    grad = np.where(factor == K.scalar(etaminus, dtype), dtype.type(0), grad)
    param -= np.sign(grad) * step_size
    _bump(p)
    np.copyto(prev, grad)
    _bump(state["prev"])
