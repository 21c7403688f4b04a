"""Shape ops: views that reshape, transpose and broadcast (``views``), strided views and
diagonals (``strided``), and joining, splitting and repeating (``joining``). Builds on
``pointwise`` and ``index``."""
