"""The global switches, at the bottom of the package so that every layer can read them.

``GRAD_MODE``: whether ops record the graph (``no_grad``, ``enable_grad``,
``set_grad_enabled``) and whether inference mode is on. Thread-local, as in PyTorch: a
thread starts with grad enabled. The managers that set it are in ``autograd.grad_mode``.
"""
import threading


class _GradMode(threading.local):
    enabled = True
    inference = False


GRAD_MODE = _GradMode()
