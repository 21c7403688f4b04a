"""``chainrule.autograd``: backward, grad, grad modes, gradcheck and ``Variable``."""
from .engine import AccumulateGrad, Node
from .functions import backward, grad
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                        no_grad, set_grad_enabled)
from .variable import Variable

__all__ = ["AccumulateGrad", "GradcheckError", "Node", "Variable", "backward", "enable_grad", "grad",
           "gradcheck", "gradgradcheck", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled", "no_grad", "set_grad_enabled"]
