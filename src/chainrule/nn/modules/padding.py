"""Padding layers: constant (and zero), reflection, replication and circular, 1-d to 3-d.

The padding is given per side, last dim first, as ``F.pad`` takes it:
``ZeroPad2d((left, right, top, bottom))``; one int pads every side.
"""
from .. import functional as F
from .module import Module
from .utils import _ntuple, _pair, _quadruple

__all__ = ["CircularPad1d", "CircularPad2d", "CircularPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d",
           "ReplicationPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d"]

_sextuple = _ntuple(6, "_sextuple")


class _PadNd(Module):
    """Pads with ``F.pad(input, padding, mode)``; ``_spatial`` dims, plus channel and batch."""

    __constants__ = ["padding"]
    mode = None
    _spatial = None

    def __init__(self, padding):
        super().__init__()
        self.padding = (_pair, _quadruple, _sextuple)[self._spatial - 1](padding)

    def forward(self, input):
        return F.pad(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


class _CircularPadNd(_PadNd):
    mode = "circular"

    def forward(self, input):
        if input.dim() not in (self._spatial + 1, self._spatial + 2):
            raise ValueError(f"expected {self._spatial + 1}D or {self._spatial + 2}D input (got {input.dim()}D "
                             "input)")
        return F.pad(input, self.padding, "circular")


class CircularPad1d(_CircularPadNd):
    _spatial = 1


class CircularPad2d(_CircularPadNd):
    _spatial = 2


class CircularPad3d(_CircularPadNd):
    _spatial = 3


class ReflectionPad1d(_PadNd):
    mode, _spatial = "reflect", 1


class ReflectionPad2d(_PadNd):
    mode, _spatial = "reflect", 2


class ReflectionPad3d(_PadNd):
    mode, _spatial = "reflect", 3


class ReplicationPad1d(_PadNd):
    mode, _spatial = "replicate", 1


class ReplicationPad2d(_PadNd):
    mode, _spatial = "replicate", 2


class ReplicationPad3d(_PadNd):
    mode, _spatial = "replicate", 3


class _ConstantPadNd(_PadNd):
    __constants__ = ["padding", "value"]
    mode = "constant"

    def __init__(self, padding, value):
        super().__init__(padding)
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class ConstantPad1d(_ConstantPadNd):
    _spatial = 1


class ConstantPad2d(_ConstantPadNd):
    _spatial = 2


class ConstantPad3d(_ConstantPadNd):
    _spatial = 3


class ZeroPad1d(ConstantPad1d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad2d(ConstantPad2d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class ZeroPad3d(ConstantPad3d):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"
