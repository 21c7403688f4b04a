"""``chainrule.optim``: PyTorch's optimizers and learning-rate schedulers.

>>> opt = chainrule.optim.Adam(model.parameters(), lr=1e-3)
>>> loss_fn(model(x), y).backward(); opt.step(); opt.zero_grad()
"""
from .optimizer import Optimizer
from . import lr_scheduler  # a submodule, as in torch
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .lbfgs import LBFGS
from .asgd import ASGD
from .nadam import NAdam
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD

__all__ = ["ASGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS", "lr_scheduler", "NAdam", "Optimizer", "RAdam", "RMSprop",
           "Rprop", "SGD"]
