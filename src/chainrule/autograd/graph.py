"""``torch.autograd.graph``: the graph's node type, saved-tensor hooks and multi-tensor hooks
(made in ``_autograd.graph`` and ``_autograd.engine``)."""
from .._autograd.engine import Node
from .._autograd.graph import (disable_saved_tensors_hooks, register_multi_grad_hook, save_on_cpu,
                               saved_tensors_hooks)

__all__ = ["Node", "disable_saved_tensors_hooks", "register_multi_grad_hook", "save_on_cpu",
           "saved_tensors_hooks"]
