"""``torch.linalg``: linear algebra under PyTorch's names for it.

>>> chainrule.linalg.det(chainrule.tensor([[2.0, 1.0], [1.0, 3.0]]))
tensor(5.)

Everything here is defined in ``_ops.linalg.products`` (products, vector norms, ``matrix_exp``),
``_ops.linalg.contractions`` (``multi_dot``), ``_ops.linalg.geometry`` (``cross``),
``_ops.linalg.triangular``, ``_ops.linalg.factorizations``, ``_ops.linalg.solvers`` and ``_ops.linalg.matrix_functions``
(triangular solves, factorisations, solvers and inverses, matrix norms); this module only
gives the ``torch.linalg`` spellings (``svd`` is ``linalg_svd``, as ``torch.svd`` differs).
"""
from ._ops.linalg.decomposition_base import _LinAlgError as LinAlgError
from ._ops.linalg.triangular import solve_triangular
from ._ops.linalg.factorizations import (eigh, eigvalsh, linalg_lu as lu, linalg_qr as qr, linalg_svd as svd, lu_factor,
                                         lu_factor_ex, lu_solve, svdvals)
from ._ops.linalg.solvers import (cholesky_ex, det, inv, inv_ex, linalg_cholesky as cholesky, linalg_slogdet as slogdet,
                                  lstsq, pinv, solve, solve_ex)
from ._ops.linalg.matrix_functions import cond, matrix_norm, matrix_power, matrix_rank, norm
from ._ops.linalg.contractions import multi_dot
from ._ops.linalg.geometry import linalg_cross as cross
from ._ops.linalg.products import matmul, matrix_exp, vecdot, vector_norm

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "eigh", "eigvalsh", "inv", "inv_ex",
           "lstsq", "lu", "lu_factor", "lu_factor_ex", "lu_solve", "matmul", "matrix_exp", "matrix_norm",
           "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "solve_ex",
           "solve_triangular", "svd", "svdvals", "vecdot", "vector_norm"]
