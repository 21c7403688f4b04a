"""``chainrule.autograd``: backward, grad, grad modes, anomaly detection, gradcheck and ``Variable``."""
from .._autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
from .._autograd.engine import AccumulateGrad, Node
from .._autograd.gradients import backward, grad
from .._autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                                   no_grad, set_grad_enabled)
from . import anomaly_mode, forward_ad, function, grad_mode, graph  # noqa: F401  (submodules, as in torch)
from .function import Function, once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .variable import Variable

__all__ = ["AccumulateGrad", "Function", "GradcheckError", "Node", "Variable", "backward", "detect_anomaly", "enable_grad",
           "grad", "gradcheck", "gradgradcheck", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled", "no_grad", "once_differentiable", "set_detect_anomaly", "set_grad_enabled"]
