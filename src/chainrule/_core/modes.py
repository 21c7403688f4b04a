"""The global switches, at the bottom of the package so that every layer can read them, and
the slots through which an upper layer plugs into a lower one.

``GRAD_MODE``: whether ops record the graph (``no_grad``, ``enable_grad``,
``set_grad_enabled``) and whether inference mode is on. Thread-local, as in PyTorch: a
thread starts with grad enabled. The managers that set it are in ``_autograd.grad_mode``.
``FORWARD_AD``: forward AD's level and the registry's slot for tangent propagation.
``VMAP``: whether a vmap runs, and the slots through which the layers below vmap hand it
what only it can do (a batched op, a per-sample loop, a batched gradient).
``ANOMALY``: anomaly detection (``detect_anomaly``, in ``_autograd.anomaly_mode``);
``LINES``: whether errors name the lines that made the tensors they are about;
``SAVED_HOOKS``: the active ``saved_tensors_hooks`` (``_autograd.graph``).
"""
import threading

from numpy import ndarray


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


class _Vmap:
    """vmap as the layers below it see it. ``active``: a vmap runs (the registry's one check
    per op; set by ``_functorch.batched.enter``/``leave``). The other fields are slots that
    ``_functorch.batched`` fills when it is imported, called only while ``active``:

    - ``dispatch(op, inputs, params, dtype)``: a registry op with a batched input, batched
      (None when no input is batched).
    - ``on_batch(fn, *tensors)``, ``per_sample(fn, args, kwargs)``,
      ``random_per_sample(fn, args, kwargs)``: a function that reads values, run once on the
      whole batch, or once per sample (see ``_ops.batching.batched_by``).
    - ``elementwise_call(fn, inputs)``: an elementwise function of plain arrays on the batch.
    - ``inplace(self, compute, args, kwargs)``, ``view_inplace(self, view_op, params)``: an
      in-place op on a batched ``self`` (None when ``self`` is not batched).
    - ``randomness(tensors)``: the ``randomness=`` of the vmap batching ``tensors``
      (``'error'`` refuses); ``check_randomness()``: whether any draw is allowed now.
    - ``wrap(tensor, level)``: a tensor whose dim 0 is the batch, as that level sees it.
    - ``autograd_grad(outputs, inputs, grad_outputs, **options)``: ``autograd.grad`` of what
      was computed inside the vmap; ``vmap(fn, ...)``: the transform itself (for
      ``is_grads_batched``).
    """

    __slots__ = ("active", "dispatch", "on_batch", "per_sample", "random_per_sample", "elementwise_call",
                 "inplace", "view_inplace", "randomness", "check_randomness", "wrap", "autograd_grad", "vmap")

    def __init__(self):
        self.active = False
        for name in self.__slots__[1:]:
            setattr(self, name, None)


VMAP = _Vmap()


def has_values(array):
    """False for the ``_data`` of a batched tensor under vmap: one sample's shape and dtype
    without values (code that checks values skips them; the batched op sees them)."""
    return array.__class__ is ndarray


def any_batched(*values):
    """Whether a tensor among ``values`` (or in a tuple or list there) is batched by vmap."""
    for v in values:
        if isinstance(v, (tuple, list)):
            if any_batched(*v):
                return True
        elif hasattr(v, "_data") and not has_values(v._data):
            return True
    return False


class _AnomalyState:
    """``enabled``: nodes record where they were made and backward checks them.
    ``running``: the node whose vjp runs now (nodes made meanwhile, under
    ``create_graph``, name it as their ``parent_``, as in PyTorch)."""

    __slots__ = ("enabled", "check_nan", "cheap", "running")

    def __init__(self):
        self.enabled, self.check_nan, self.cheap, self.running = False, True, False, None


ANOMALY = _AnomalyState()


class _ErrorLines:
    """``enabled``: record the lines the in-place error names (see ``_autograd.anomaly_mode``)."""

    __slots__ = ("enabled",)

    def __init__(self):
        self.enabled = True


LINES = _ErrorLines()

SAVED_HOOKS = []  # (pack, unpack) pairs, innermost last; empty: nodes keep tensors as they are
