"""``chainrule.nn.functional``: activations (more layers and losses arrive later)."""
from .._ops.unary import relu as _relu, sigmoid, tanh

__all__ = ["relu", "sigmoid", "tanh"]


def relu(input, inplace=False):
    return input.relu_() if inplace else _relu(input)
