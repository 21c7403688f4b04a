"""``backends.cudnn``: settable flags, no cuDNN (``is_available()`` is False, ``version()`` None)."""
import contextlib

enabled = True
benchmark = False
benchmark_limit = None
deterministic = False
allow_tf32 = True


def is_available():
    return False


def version():
    return None


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    """Sets the flags for a ``with`` block and restores them after, as ``torch.backends.cudnn.flags``."""
    names = ("enabled", "benchmark", "benchmark_limit", "deterministic", "allow_tf32")
    saved = {name: globals()[name] for name in names}
    globals().update(zip(names, (enabled, benchmark, benchmark_limit, deterministic, allow_tf32)))
    try:
        yield
    finally:
        globals().update(saved)
