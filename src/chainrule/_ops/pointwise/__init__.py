"""Pointwise ops: arithmetic (``elementwise``, with ``power``), comparisons, logic and
bitwise ops (``comparisons``), one-input functions (``unary``, ``trigonometry``,
``rounding``), two- and three-input ones (``binary``: atan2, maximum, xlogy...; ``ternary``:
lerp, addcmul, addcdiv) and the special functions (``special``). The first family: the
others build on it, it builds on none."""
