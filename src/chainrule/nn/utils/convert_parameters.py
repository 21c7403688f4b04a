"""``parameters_to_vector`` and back: all parameters as one flat vector (for second-order methods)."""
from ..._ops.shape.joining import cat
from ..._core.tensor import Tensor
from ..modules.utils import _typename

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters):
    """The parameters flattened and concatenated, in order (differentiable)."""
    return cat([param.view(-1) for param in parameters])


def vector_to_parameters(vec, parameters):
    """Points each parameter's data at its slice of ``vec`` (the slices share ``vec``'s memory)."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {_typename(vec)}")
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
