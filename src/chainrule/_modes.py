"""The global switches, at the bottom of the package so that every layer can read them, and
the slots through which an upper layer plugs into a lower one.

``GRAD_MODE``: whether ops record the graph (``no_grad``, ``enable_grad``,
``set_grad_enabled``) and whether inference mode is on. Thread-local, as in PyTorch: a
thread starts with grad enabled. The managers that set it are in ``_autograd.grad_mode``.
``FORWARD_AD``: forward AD's level and the registry's slot for tangent propagation.
"""
import threading


class _GradMode(threading.local):
    enabled = True
    inference = False


GRAD_MODE = _GradMode()


class _ForwardAD:
    """Forward AD's level. ``active``: a level exists and holds a dual tensor (the registry's
    one check per op). ``level``: the current level, -1 for none. ``duals``: id -> weakref of
    each tensor that got a tangent in this level, so that exiting can drop them.
    ``propagate(op, out, inputs, params)``: gives an op's output its tangent; plugged in by
    ``_ops.tangents`` (the registry, below it, calls it through this slot)."""

    __slots__ = ("active", "level", "duals", "propagate")

    def __init__(self):
        self.active = False
        self.level = -1
        self.duals = {}
        self.propagate = None


FORWARD_AD = _ForwardAD()
