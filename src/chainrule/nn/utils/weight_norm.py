"""Weight normalisation, ``w = g * v / ||v||``: the norm shared by both APIs, and the old hook one.

``parametrizations.weight_norm`` is the current API; ``nn.utils.weight_norm`` (this file)
is PyTorch's deprecated one, which splits ``weight`` into parameters ``weight_g`` and
``weight_v`` and recomputes ``weight`` in a forward pre-hook.
"""
import warnings

from ..._ops.linalg.products import vector_norm
from ..parameter import Parameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]


def norm_except_dim(v, pow=2, dim=0):
    """The ``pow``-norm over every dim but ``dim``, kept broadcastable to ``v``; ``dim=-1``: the whole norm."""
    if dim == -1:
        return vector_norm(v, pow)
    dims = tuple(d for d in range(v.dim()) if d != dim)
    return vector_norm(v, pow, dims, keepdim=True)


def _weight_norm(v, g, dim=0):
    """``v * (g / ||v||)``, the norm taken as ``norm_except_dim`` does (PyTorch's ``_weight_norm``)."""
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook of the old API: recomputes ``module.<name>`` from ``_g`` and ``_v``."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module):
        return _weight_norm(getattr(module, self.name + "_v"), getattr(module, self.name + "_g"), self.dim)

    @staticmethod
    def apply(module, name, dim):
        warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=3)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name="weight", dim=0):
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name="weight"):
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
