"""Grad modes: whether ops record the graph. Thread-local, as in PyTorch.

Each manager works as ``with no_grad():`` and as a decorator ``@no_grad()``.
Under ``no_grad`` outputs never require grad, but in-place ops still bump versions.
"""
import functools
import threading


class _GradState(threading.local):
    enabled = True
    inference = False


STATE = _GradState()


def is_grad_enabled():
    return STATE.enabled


def is_inference_mode_enabled():
    return STATE.inference


class _GradModeManager:
    """Base for the managers: subclasses set ``_enter_mode`` (grad enabled or not)."""

    _enter_mode = True

    def __enter__(self):
        self._prev = STATE.enabled
        STATE.enabled = self._enter_mode

    def __exit__(self, *exc):
        STATE.enabled = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._ctor_args()):
                return fn(*args, **kwargs)
        return wrapper

    def _ctor_args(self):
        return ()

    def clone(self):
        return self.__class__(*self._ctor_args())


class no_grad(_GradModeManager):
    """Disable recording: ``with no_grad(): y = x * 2`` gives ``y.requires_grad == False``."""

    _enter_mode = False


class enable_grad(_GradModeManager):
    """Re-enable recording inside a ``no_grad`` block."""

    _enter_mode = True


class set_grad_enabled(_GradModeManager):
    """Sets grad mode to ``mode`` at once (as a function call) and restores it on exit."""

    def __init__(self, mode):
        self._prev = STATE.enabled
        self._enter_mode = bool(mode)
        STATE.enabled = self._enter_mode

    def __enter__(self):
        STATE.enabled = self._enter_mode

    def __call__(self, fn):
        STATE.enabled = self._prev  # the constructor switched modes; a decorator must not
        return super().__call__(fn)

    def _ctor_args(self):
        return (self._enter_mode,)


class inference_mode(_GradModeManager):
    """Like ``no_grad``; chainrule keeps no extra inference-only tensor state."""

    def __init__(self, mode=True):
        self._mode = bool(mode)

    def __enter__(self):
        self._prev = STATE.enabled
        self._prev_inference = STATE.inference
        if self._mode:
            STATE.enabled = False
        STATE.inference = self._mode

    def __exit__(self, *exc):
        STATE.enabled = self._prev
        STATE.inference = self._prev_inference
        return False

    def _ctor_args(self):
        return (self._mode,)
