"""The op table: every op one ``defop`` entry (``registry``), its forward, vjp and jvp side
by side, with its public function and its Tensor methods.

Here, below the families: the registry and its dispatch (``registry``), the shared batching
rules and ``batched_by`` (``batching``), forward AD's propagation (``tangents``), operands
and promotion at the boundary with NumPy (``operands``), in-place ops (``inplace``,
``methods``) and random sampling (``random``, beside the families it draws with). The
families, each a subpackage, lowest first: ``pointwise``, ``index``, ``shape``, ``reduce``,
``linalg``, ``nn``; each imports only those before it.
"""
