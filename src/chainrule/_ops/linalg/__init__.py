"""Linear algebra: matrix products, norms and the matrix exponential (``products``),
contractions (einsum, tensordot), geometry (cross, cdist), triangular solves,
factorizations (LU, QR, eigen, SVD: on ``decomposition_base``), solvers and matrix
functions. Builds on the families below it."""
