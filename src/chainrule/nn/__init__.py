"""``chainrule.nn``: for now the functional ops; modules arrive with a later issue."""
from . import functional  # noqa: F401
