"""``torch.special``: the special functions under PyTorch's names for them.

>>> chainrule.special.gammaln(chainrule.tensor([4.0]))
tensor([1.7918])

Everything here is defined elsewhere (``_ops.special``, ``_ops.unary``); this module
only gives the ``torch.special`` spellings (``gammaln`` for ``lgamma``, ``psi`` for
``digamma``, ``expit`` for ``sigmoid``...).
"""
from ._ops.special import (digamma, erf, erfc, erfinv, i0, i0e, i1, i1e, lgamma as gammaln,
                           mvlgamma as multigammaln, polygamma)
from ._ops.unary import exp2, expm1, log1p, logit, round, sigmoid as expit, sinc

psi = digamma

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0", "i0e", "i1", "i1e",
           "log1p", "logit", "multigammaln", "polygamma", "psi", "round", "sinc"]
