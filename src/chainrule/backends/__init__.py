"""``chainrule.backends``: the flags PyTorch's scripts set, as its CPU-only build has them.

Tutorials write ``torch.backends.cudnn.deterministic = True`` and ``benchmark = False`` for
reproducibility, and ask ``torch.backends.mps.is_available()`` on Macs; here the flags are
plain attributes (chainrule's NumPy kernels are deterministic either way) and no GPU
backend is available:

>>> chainrule.backends.cudnn.is_available(), chainrule.backends.mps.is_available()
(False, False)
"""
from . import cuda, cudnn, mkldnn, mps, openmp  # noqa: F401  (submodules, as in torch)
