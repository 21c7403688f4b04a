"""Indexing: ``x[index]`` and ``x[index] = v`` (``indexing``, ``index_put``), the index ops
along a dim (``gather_scatter``, ``along_dim``), on the flattened tensor (``take_put``), by a
mask (``masked``), and where things are (``searching``). Builds on ``pointwise``."""
