"""Building blocks for the "Tensor methods" section that ends each op family module.

Each family attaches its ops to ``Tensor`` explicitly, one line per method
(``Tensor.exp2 = exp2``), so ``grep 'Tensor.exp2'`` finds it. In-place variants
(``x.exp2_()``) are the out-of-place op run through ``apply_inplace``.
"""
from .inplace import apply_inplace


def inplace_method(fn, name):
    """``Tensor.<name>``: ``fn`` applied in place (see ``inplace.apply_inplace``)."""
    def method(self, *args, **kwargs):
        return apply_inplace(self, fn, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"In-place version of :func:`{fn.__name__}`."
    return method
