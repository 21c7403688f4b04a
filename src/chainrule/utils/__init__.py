"""``chainrule.utils``: helpers around autograd, as ``torch.utils`` (``utils.checkpoint``)."""
from . import checkpoint  # noqa: F401  (a submodule, as in torch)
