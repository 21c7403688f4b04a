"""``torch.linalg``: linear algebra under PyTorch's names for it.

>>> chainrule.linalg.det(chainrule.tensor([[2.0, 1.0], [1.0, 3.0]]))
tensor(5.)

Everything here is defined in ``_ops.linalg`` (products, vector norms, ``matrix_exp``) and
``_ops.decompositions`` (factorisations, solvers, inverses, matrix norms); this module only
gives the ``torch.linalg`` spellings (``svd`` is ``linalg_svd``, as ``torch.svd`` differs).
"""
from ._ops.decompositions import (_LinAlgError as LinAlgError, cholesky_ex, cond, det, eigh, eigvalsh, inv, inv_ex,
                                  linalg_cholesky as cholesky, linalg_lu as lu, linalg_qr as qr,
                                  linalg_slogdet as slogdet, linalg_svd as svd, lstsq, lu_factor, lu_factor_ex,
                                  lu_solve, matrix_norm, matrix_power, matrix_rank, norm, pinv, solve,
                                  solve_ex, solve_triangular, svdvals)
from ._ops.linalg import linalg_cross as cross, matmul, matrix_exp, multi_dot, vecdot, vector_norm

__all__ = ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "eigh", "eigvalsh", "inv", "inv_ex",
           "lstsq", "lu", "lu_factor", "lu_factor_ex", "lu_solve", "matmul", "matrix_exp", "matrix_norm",
           "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve", "solve_ex",
           "solve_triangular", "svd", "svdvals", "vecdot", "vector_norm"]
