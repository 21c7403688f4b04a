"""``backends.mps``: Apple's GPU backend, absent (``is_available()`` and ``is_built()`` are False)."""


def is_available():
    return False


def is_built():
    return False
