"""Pointwise ops: arithmetic and comparisons (``elementwise``), one-input functions
(``unary``), two- and three-input ones (``binary``: atan2, lerp, addcmul...) and the special
functions (``special``). The first family: the others build on it, it builds on none."""
