"""``PackedSequence``, the packed batch the recurrent layers (``nn.modules.rnn``) read and
``nn.utils.rnn``'s converters make (see there); its own module, below both, as the
layers must not import the utilities (whose package imports the modules back).
"""
from typing import NamedTuple

from .._ops import creation as _creation
from .._core import dtype as _dtype
from .._core.tensor import Tensor


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


def _bind(optional, fn):
    return None if optional is None else fn(optional)


class PackedSequence(PackedSequence_):
    """The named tuple ``(data, batch_sizes, sorted_indices, unsorted_indices)``; made by
    ``pack_padded_sequence``/``pack_sequence``, not by hand. ``unsorted_indices`` defaults
    to the inverse of ``sorted_indices``."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise AssertionError("Expected data to be a list or tuple of length 2")
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def pin_memory(self):
        return type(self)(self.data.pin_memory(), self.batch_sizes, _bind(self.sorted_indices, Tensor.pin_memory),
                          _bind(self.unsorted_indices, Tensor.pin_memory))

    def to(self, *args, **kwargs):
        """``data.to(...)``; the index tensors follow the data's device, ``batch_sizes`` stays."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        def call_to(t):
            return t.to(data.device)

        return type(self)(data, self.batch_sizes, _bind(self.sorted_indices, call_to),
                          _bind(self.unsorted_indices, call_to))

    def cuda(self, *args, **kwargs):
        kwargs["device"] = "cuda"
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs):
        kwargs["device"] = "cpu"
        return self.to(*args, **kwargs)

    def double(self):
        return self.to(dtype=_dtype.float64)

    def float(self):
        return self.to(dtype=_dtype.float32)

    def half(self):
        return self.to(dtype=_dtype.float16)

    def long(self):
        return self.to(dtype=_dtype.int64)

    def int(self):
        return self.to(dtype=_dtype.int32)

    def short(self):
        return self.to(dtype=_dtype.int16)

    def char(self):
        return self.to(dtype=_dtype.int8)

    def byte(self):
        return self.to(dtype=_dtype.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def invert_permutation(permutation):
    """The permutation ``q`` with ``q[permutation[i]] == i`` (None stays None)."""
    if permutation is None:
        return None
    output = _creation.empty_like(permutation)
    output.scatter_(0, permutation, _creation.arange(0, permutation.numel()))
    return output
