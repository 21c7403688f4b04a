"""``chainrule.utils``: helpers around autograd and training, as ``torch.utils`` (checkpoint, data)."""
from . import checkpoint, data  # noqa: F401  (submodules, as in torch)
