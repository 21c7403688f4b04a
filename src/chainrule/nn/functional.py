"""``chainrule.nn.functional``: activations (more layers and losses arrive later)."""
from .._ops.unary import relu as _relu, sigmoid, tanh
from ..autograd.grad_mode import no_grad as _no_grad

__all__ = ["relu", "sigmoid", "tanh"]


def relu(input, inplace=False):
    if inplace:
        with _no_grad():
            return input.clamp_(min=0)
    return _relu(input)
