"""Dims as PyTorch wraps them: a negative dim counts from the end, with PyTorch's errors.

The arithmetic only; ``_argparse.wrap_dims`` and ``size_arg`` parse the arguments (an int or
a sequence, ``f(2, 3)`` or ``f((2, 3))``) that name dims and sizes.
"""


def wrap_dim(dim, ndim):
    """A possibly negative dim as an index into the shape, with PyTorch's error."""
    n = ndim if ndim > 0 else 1
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                         f"but got {dim})")
    return dim % n


def wrap_dim_of_tensor(dim, ndim):
    """``wrap_dim`` for ops that refuse 0-d tensors where others treat them as 1-d."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return wrap_dim(dim, ndim)


def wrap_dim_then_size(dim, ndim):
    """``wrap_dim`` (a 0-d tensor wrapped as 1-d), then the refusal of a 0-d tensor naming the
    wrapped dim: ops that wrap first and then read ``size(dim)`` (unbind, take_along_dim)."""
    dim = wrap_dim(dim, ndim)
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return dim
