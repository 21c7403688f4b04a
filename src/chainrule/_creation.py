"""Creating tensors: from data, filled, ranges and random.

Every creator takes PyTorch's keywords (``dtype``, ``device``, ``requires_grad``);
``device`` accepts only the CPU. Random numbers come from one seeded NumPy generator:
``manual_seed`` makes runs repeatable (the values differ from PyTorch's).
"""
import warnings

import numpy as np

from . import _dtype
from ._tensor import Tensor, _wrap, device as _device


def _finish(data, dtype, requires_grad, device=None):
    if device is not None:
        _device(device)
    if dtype is not None and data.dtype != dtype.np:
        data = data.astype(dtype.np)
    _dtype.from_numpy_dtype(data.dtype)
    t = _wrap(data)
    if requires_grad:
        t.requires_grad_(True)
    return t


def _infer(data):
    """NumPy array of Python data with PyTorch's dtype inference (floats: default dtype)."""
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, np.ndarray):
        return data
    if isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in _flat(data)):
        data = [_infer(x) for x in data]
    try:
        array = np.array(data)
    except ValueError:
        raise ValueError(f"expected sequence of length {len(data[0])} at dim 1 (got {len(data[-1])})") from None
    if array.dtype == object:
        raise TypeError(f"Could not infer dtype of {type(_flat(data)[0]).__name__}")
    if array.dtype.kind == "f" and not _has_numpy_floats(data):
        array = array.astype(_dtype.get_default_dtype().np)
    elif array.dtype.kind == "c":
        array = array.astype(_dtype.default_complex_dtype().np)
    elif array.dtype.kind == "U":
        raise TypeError("new(): invalid data type 'str'")
    return array


def _flat(data):
    out = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        else:
            out.append(item)
    return out or [0.0]


def _has_numpy_floats(data):
    return any(isinstance(x, (np.floating, np.ndarray)) for x in _flat(data))


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data`` (numbers, nested lists, arrays)."""
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                      "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
    return _finish(np.array(_infer(data)), dtype, requires_grad, device)


def as_tensor(data, dtype=None, device=None):
    """Like ``tensor`` but shares memory with a NumPy array or tensor when it can."""
    if isinstance(data, Tensor):
        return data if dtype is None or dtype.np == data._data.dtype else data.to(dtype)
    return _finish(np.asarray(_infer(data)), dtype, False, device)


def from_numpy(array):
    """A tensor sharing ``array``'s memory: writes to either show in both."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _dtype.from_numpy_dtype(array.dtype)
    return _wrap(array)


def _size(size):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        size = size[0]
    return tuple(int(s) for s in size)


def _float_dtype(dtype):
    return dtype if dtype is not None else _dtype.get_default_dtype()


def zeros(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(np.zeros(_size(size), _float_dtype(dtype).np), None, requires_grad, device)


def ones(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(np.ones(_size(size), _float_dtype(dtype).np), None, requires_grad, device)


def empty(*size, dtype=None, device=None, requires_grad=False, memory_format=None, out=None):
    # zeros rather than uninitialised memory: same cost in NumPy, and no surprises
    return zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    if dtype is None:
        dtype = _dtype.scalar_dtype(fill_value.item() if isinstance(fill_value, Tensor) else fill_value)
    return _finish(np.full(_size((size,)), fill_value, dtype.np), None, requires_grad, device)


def zeros_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return zeros(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return ones(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def empty_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return zeros(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return full(input.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if dtype is None:
        floaty = any(isinstance(v, float) for v in values)
        dtype = _dtype.get_default_dtype() if floaty else _dtype.int64
    return _finish(np.arange(*values, dtype=np.float64 if dtype.is_floating_point else None),
                   dtype, requires_grad, device)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    return _finish(np.linspace(start, end, steps), _float_dtype(dtype), requires_grad, device)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False):
    return _finish(np.eye(n, m), _float_dtype(dtype), requires_grad, device)


# --- random ---------------------------------------------------------------------------

class Generator:
    """A seeded source of random numbers (``torch.Generator``)."""

    def __init__(self, device="cpu"):
        self._seed = 67280421310721  # PyTorch's default seed: repeatable runs by default
        self._rng = np.random.default_rng(self._seed)

    def manual_seed(self, seed):
        self._seed = int(seed)
        self._rng = np.random.default_rng(self._seed)
        return self

    def initial_seed(self):
        return self._seed

    def seed(self):
        return self.manual_seed(np.random.SeedSequence().entropy % (2 ** 63))._seed

    def get_state(self):
        return self._rng.bit_generator.state

    def set_state(self, state):
        self._rng.bit_generator.state = state


default_generator = Generator()


def manual_seed(seed):
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def _rng(generator):
    return (generator or default_generator)._rng


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
    dtype = _float_dtype(dtype)
    return _finish(_rng(generator).random(_size(size)), dtype, requires_grad, device)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
    dtype = _float_dtype(dtype)
    return _finish(_rng(generator).standard_normal(_size(size)), dtype, requires_grad, device)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    if high is None:
        low, high = 0, low
    data = _rng(generator).integers(low, high, size=tuple(size))
    return _finish(data, dtype or _dtype.int64, requires_grad, device)


def normal(mean=0.0, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False):
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        m = mean._data if isinstance(mean, Tensor) else mean
        s = std._data if isinstance(std, Tensor) else std
        like = mean if isinstance(mean, Tensor) else std
        return _finish(_rng(generator).normal(m, s), like.dtype, False, device)
    return _finish(_rng(generator).normal(mean, std, size=tuple(size)), _float_dtype(dtype),
                   requires_grad, device)


def rand_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return rand(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return randn(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return randint(low, high, input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)
