"""Function transforms (``chainrule.func``): vmap's BatchedTensor, its dispatch and the
``vmap`` entry point. The per-op batching rules live with each op (``defop(batch=...)``);
the shared rule makers are in ``chainrule._ops.batching``."""
