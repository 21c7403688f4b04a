"""Reductions (sum, mean, max, logsumexp, counts: ``reductions``; ``variance``; ``norms``),
running ops (``scans``), sorting, selection and counting (``sorting``, with PyTorch's CPU
orders in ``stl_order``) and quantiles. Builds on ``pointwise``, ``index`` and ``shape``."""
