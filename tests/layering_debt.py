"""The layering violations that exist today (tests/test_layers.py; issue 11 pays them off).

Strict both ways: a violation not listed fails the test, and so does a listed one that is
gone. Regenerate with ``python tests/test_layers.py`` after paying some off, and check that
the diff only removes lines. Module names are relative to ``chainrule``.
"""

# (importer, imported): a module-level import of a higher layer
UPWARD = {
    ('_demo', 'chainrule'),
    ('_ops.classification_losses', 'autograd.forward_ad'),
    ('_ops.elementwise', 'autograd.forward_ad'),
    ('_ops.inplace', 'autograd.forward_ad'),
    ('_ops.joining', 'autograd.forward_ad'),
    ('_ops.registry', 'autograd.forward_ad'),
    ('_ops.scans', 'autograd.forward_ad'),
    ('autograd.gradients', '_ops.batching'),
    ('autograd.gradients', '_ops.registry'),
}

# (importer, imported): an import inside a function
DEFERRED = {
    ('_creation', '_functorch.batched'),
    ('_creation', '_ops.registry'),
    ('_ops.batching', '_functorch.batched'),
    ('_ops.elementwise', '_functorch.batched'),
    ('_ops.inplace', '_functorch.batched'),
    ('_ops.inplace', '_ops.gather_scatter'),
    ('_ops.random', '_functorch.batched'),
    ('_ops.registry', '_ops.batching'),
    ('_ops.registry', '_ops.inplace'),
    ('_ops.resampling', '_ops.pooling'),
    ('_ops.strided', '_functorch.batched'),
    ('autograd.forward_ad', '_functorch.batched'),
    ('autograd.function', '_functorch.batched'),
    ('autograd.function', '_ops.indexing'),
    ('autograd.function', '_ops.joining'),
    ('autograd.functional', 'func'),
    ('autograd.gradcheck', '_ops.joining'),
    ('autograd.gradcheck', '_tensor'),
    ('autograd.gradcheck', 'autograd.forward_ad'),
    ('autograd.gradcheck', 'func'),
    ('autograd.gradients', '_functorch.batched'),
    ('autograd.gradients', 'func'),
    ('func._autodiff', 'autograd.forward_ad'),
    ('func._autodiff', 'func'),
}

# modules that import each other round a loop (each one strongly connected component)
CYCLES = [
    ['_ops.elementwise', '_ops.inplace', '_ops.methods', '_ops.unary'],
    ['_ops.registry', 'autograd.forward_ad'],
]
