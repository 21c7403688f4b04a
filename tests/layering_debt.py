"""The layering violations that exist today (tests/test_layers.py; issue 11 pays them off).

Strict both ways: a violation not listed fails the test, and so does a listed one that is
gone. Regenerate with ``python tests/test_layers.py`` after paying some off, and check that
the diff only removes lines. Module names are relative to ``chainrule``.
"""

# (importer, imported): a module-level import of a higher layer (importing a.b runs a/__init__ too)
UPWARD = {
    ('_demo', 'chainrule'),
}

# (importer, imported): an import inside a function
DEFERRED = set()

# modules that import each other round a loop (each one strongly connected component)
CYCLES = [
    ['nn.modules', 'nn.modules.rnn', 'nn.utils', 'nn.utils.convert_parameters', 'nn.utils.parametrizations', 'nn.utils.parametrize'],
]
