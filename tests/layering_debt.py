"""The layering violations that exist today (tests/test_layers.py; issue 11 pays them off).

Strict both ways: a violation not listed fails the test, and so does a listed one that is
gone. Regenerate with ``python tests/test_layers.py`` after paying some off, and check that
the diff only removes lines. Module names are relative to ``chainrule``.
"""

# (importer, imported): a module-level import of a higher layer (importing a.b runs a/__init__ too)
UPWARD = {
    ('_autograd.gradients', '_ops'),
    ('_autograd.gradients', '_ops.batching'),
    ('_autograd.gradients', '_ops.registry'),
    ('_demo', 'chainrule'),
}

# (importer, imported): an import inside a function
DEFERRED = {
    ('_autograd.gradients', '_functorch.batched'),
    ('_autograd.gradients', 'func'),
    ('_creation', '_functorch.batched'),
    ('_creation', '_ops.registry'),
    ('_ops.batching', '_functorch.batched'),
    ('_ops.inplace', '_functorch.batched'),
    ('_ops.inplace', '_ops.gather_scatter'),
    ('_ops.operands', '_functorch.batched'),
    ('_ops.random', '_functorch.batched'),
    ('_ops.registry', '_ops.batching'),
    ('_ops.registry', '_ops.inplace'),
    ('_ops.resampling', '_ops.pooling'),
    ('_ops.strided', '_functorch.batched'),
    ('autograd.function', '_functorch.batched'),
    ('autograd.function', '_ops.indexing'),
    ('autograd.function', '_ops.joining'),
    ('autograd.functional', 'func'),
    ('autograd.gradcheck', '_ops.joining'),
    ('autograd.gradcheck', '_tensor'),
    ('autograd.gradcheck', 'autograd.forward_ad'),
    ('autograd.gradcheck', 'func'),
    ('func._autodiff', 'autograd.forward_ad'),
    ('func._autodiff', 'func'),
}

# modules that import each other round a loop (each one strongly connected component)
CYCLES = [
    ['nn.modules', 'nn.modules.rnn', 'nn.utils', 'nn.utils.convert_parameters', 'nn.utils.parametrizations', 'nn.utils.parametrize'],
]
