"""The core: what a tensor is, without any op. Dtypes and PyTorch's promotion (``dtype``),
the ``Tensor`` with its state, metadata and conversions (``tensor``), printing, pytrees,
exact arithmetic helpers (``exact``), dim wrapping (``dims``), the argument errors PyTorch
gives (``arguments``), the random generator's state (``generator``), the thread count, and
every global switch with the slots the upper layers plug into (``modes``). Nothing here
imports the layers above."""
