"""Reductions (sum, mean, max, var, norms: ``reductions``), running ops (``scans``), sorting,
selection and counting (``sorting``, with PyTorch's CPU orders in ``stl_order``) and
quantiles. Builds on ``pointwise``, ``index`` and ``shape``."""
