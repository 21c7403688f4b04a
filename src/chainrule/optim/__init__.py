"""``chainrule.optim``: PyTorch's optimizers and learning-rate schedulers.

>>> opt = chainrule.optim.Adam(model.parameters(), lr=1e-3)
>>> loss_fn(model(x), y).backward(); opt.step(); opt.zero_grad()
"""
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD"]
