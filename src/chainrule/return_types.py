"""Named result tuples such as ``torch.return_types.max(values=..., indices=...)``."""


class _ReturnType(tuple):
    """A tuple whose fields also have names, printed the way PyTorch prints them."""

    __slots__ = ()
    _fields = ()

    def __new__(cls, values):
        return tuple.__new__(cls, values)

    def __getattr__(self, name):
        try:
            return self[self._fields.index(name)]
        except ValueError:
            raise AttributeError(name) from None

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"torch.return_types.{type(self).__name__}(\n{body})"


class max(_ReturnType):
    __slots__ = ()
    _fields = ("values", "indices")


class min(_ReturnType):
    __slots__ = ()
    _fields = ("values", "indices")


class aminmax(_ReturnType):
    __slots__ = ()
    _fields = ("min", "max")


class _ValuesIndices(_ReturnType):
    """The common pair: the picked values and where they came from."""
    __slots__ = ()
    _fields = ("values", "indices")


class sort(_ValuesIndices):
    __slots__ = ()


class topk(_ValuesIndices):
    __slots__ = ()


class kthvalue(_ValuesIndices):
    __slots__ = ()


class median(_ValuesIndices):
    __slots__ = ()


class nanmedian(_ValuesIndices):
    __slots__ = ()


class mode(_ValuesIndices):
    __slots__ = ()


class cummax(_ValuesIndices):
    __slots__ = ()


class cummin(_ValuesIndices):
    __slots__ = ()
