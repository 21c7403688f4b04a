"""Grad modes: whether ops record the graph. Thread-local, as in PyTorch (the switch itself,
``GRAD_MODE``, is in ``_modes``).

Each manager works as ``with no_grad():`` and as a decorator, ``@no_grad()``; ``no_grad``,
``enable_grad`` and ``inference_mode`` also decorate without parentheses (``@no_grad``).
A decorated generator runs each of its steps in the mode, never the caller's code
between them. Under ``no_grad`` outputs never require grad, but in-place ops still bump
versions.
"""
import functools
import inspect

from .._core.modes import GRAD_MODE


def is_grad_enabled():
    return GRAD_MODE.enabled


def is_inference_mode_enabled():
    return GRAD_MODE.inference


def _set_enabled(mode):
    """PyTorch's ``torch._C._set_grad_enabled``: a real bool only (``1`` is refused)."""
    if mode.__class__ is not bool:
        raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                        f"{type(mode).__name__}")
    GRAD_MODE.enabled = mode


class _GradModeManager:
    """Base for the managers: ``__enter__``/``__exit__``, and ``__call__`` to decorate.

    Each call of a decorated function enters a ``clone()``, so one decorator serves
    nested and concurrent calls alike.
    """

    def __call__(self, fn):
        make = self.clone
        if inspect.isgeneratorfunction(fn):
            return _wrap_generator(make, fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with make():
                return fn(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__()


def _wrap_generator(make, fn):
    """A generator function whose body runs in the mode, one step at a time: the
    caller's code between two ``yield`` runs in the caller's own mode."""
    @functools.wraps(fn)
    def generator(*args, **kwargs):
        gen = fn(*args, **kwargs)
        try:
            with make():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with make():
                        gen.close()
                    raise
                except BaseException as exc:  # noqa: BLE001  (thrown into the generator, as contextlib does)
                    with make():
                        response = gen.throw(exc)
                else:
                    with make():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value
    return generator


class _NoParamManager(_GradModeManager):
    """``@manager`` without parentheses: ``manager(fn)`` decorates fn at once."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamManager):
    """Disable recording: ``with no_grad(): y = x * 2`` gives ``y.requires_grad == False``."""

    def __init__(self):
        self.prev = False

    def __enter__(self):
        self.prev = GRAD_MODE.enabled
        GRAD_MODE.enabled = False

    def __exit__(self, *exc):
        GRAD_MODE.enabled = self.prev


class enable_grad(_NoParamManager):
    """Re-enable recording inside a ``no_grad`` block."""

    def __enter__(self):
        self.prev = GRAD_MODE.enabled
        GRAD_MODE.enabled = True

    def __exit__(self, *exc):
        GRAD_MODE.enabled = self.prev


class set_grad_enabled(_GradModeManager):
    """Sets grad mode to ``mode`` at once (as a function call) and restores it on exit."""

    def __init__(self, mode):
        self.prev = GRAD_MODE.enabled
        self.mode = mode
        _set_enabled(mode)

    def __call__(self, fn):
        GRAD_MODE.enabled = self.prev  # the constructor switched modes; a decorator must not
        return super().__call__(fn)

    def __enter__(self):
        GRAD_MODE.enabled = self.mode

    def __exit__(self, *exc):
        GRAD_MODE.enabled = self.prev

    def __repr__(self):
        return f"{type(self).__module__}.{type(self).__qualname__}(mode={self.mode})"

    __str__ = __repr__

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_GradModeManager):
    """``inference_mode(True)`` disables recording like ``no_grad``; ``inference_mode(False)``
    turns it off again and, as in PyTorch, enables grad mode. chainrule keeps no extra
    inference-only tensor state. ``@inference_mode`` decorates directly."""

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __init__(self, mode=True):
        self.mode = mode

    def __enter__(self):
        self._prev = (GRAD_MODE.enabled, GRAD_MODE.inference)
        GRAD_MODE.enabled = not self.mode
        GRAD_MODE.inference = self.mode

    def __exit__(self, *exc):
        GRAD_MODE.enabled, GRAD_MODE.inference = self._prev

    def clone(self):
        return self.__class__(self.mode)
