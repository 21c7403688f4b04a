"""``chainrule.func``: composable function transforms, as ``torch.func``.

``grad``, ``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian``, ``linearize`` (derivatives,
``_autodiff.py``), ``vmap`` (vectorisation, ``chainrule._functorch``) and ``functional_call``.
"""
from ._autodiff import grad, grad_and_value, hessian, jacfwd, jacrev, jvp, linearize, vjp
from ._functional_call import functional_call
from .._functorch.vmap import vmap

__all__ = ["functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "linearize", "vjp", "vmap"]
