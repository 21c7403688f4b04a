"""``chainrule.autograd``: backward, grad, grad modes, anomaly detection, gradcheck and ``Variable``."""
from . import anomaly_mode  # noqa: F401  (a submodule, as in torch)
from . import forward_ad  # noqa: F401  (a submodule, as in torch)
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .engine import AccumulateGrad, Node
from . import function, graph  # noqa: F401  (submodules, as in torch)
from .function import Function, once_differentiable
from .gradients import backward, grad
from .gradcheck import GradcheckError, gradcheck, gradgradcheck
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                        no_grad, set_grad_enabled)
from .variable import Variable

__all__ = ["AccumulateGrad", "Function", "GradcheckError", "Node", "Variable", "backward", "detect_anomaly", "enable_grad",
           "grad", "gradcheck", "gradgradcheck", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled", "no_grad", "once_differentiable", "set_detect_anomaly", "set_grad_enabled"]
