"""Creating tensors: from data, filled, ranges and random; ``finfo`` and ``iinfo``.

Every creator takes PyTorch's keywords (``dtype``, ``device``, ``requires_grad``);
``device`` accepts only the CPU. Random numbers are PyTorch's own streams, bit for bit
(``_generator.py``, ``_distributions.py``): after ``manual_seed(s)`` every draw gives what
PyTorch gives. The other samplers (``randperm``, ``bernoulli``, ``multinomial``, ``normal``, ``Tensor.uniform_``...)
are in ``_ops/random.py``.

Two things here are done PyTorch's way rather than NumPy's:

* **dtype inference** (``torch.tensor([np.float32(1), 2.5])`` is float32, NumPy says
  float64): each element has a dtype of its own (a Python float the default dtype, a NumPy
  scalar its dtype, a tensor its dtype), and the result is their ``promote_types``.
* **range values**: ``arange`` and ``linspace`` reproduce PyTorch's CPU kernels bit for
  bit, fused multiply-adds and vector lanes included (see ``_exact.fma64``), so that
  ``torch.arange(0, 1, 0.1)`` holds the same floats in both libraries.
"""
import math
import warnings

import numpy as np

from .._core import arguments as _argparse, dtype as _dtype
from . import random_kernels as _distributions
from .._core.exact import fma64
from .._core.generator import Generator, default_generator
from .._core.tensor import InferenceCounter, Tensor, _wrap, device as _device, tensor_methods
from .._core.modes import GRAD_MODE, VMAP


def _finish(data, dtype, requires_grad, device=None):
    """A leaf tensor around ``data`` cast to ``dtype``, checked as PyTorch checks it."""
    if device is not None:
        _device(device)
    if dtype is not None and data.dtype != dtype.np:
        data = data.astype(dtype.np)
    _dtype.from_numpy_dtype(data.dtype)
    if requires_grad and data.dtype.kind not in "fc":
        # the factories' wording; Tensor.requires_grad_ words it differently, as PyTorch does
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    out = _wrap(data, bool(requires_grad))
    if GRAD_MODE.inference:  # made in inference mode: an inference tensor
        out._counter = InferenceCounter(out._counter)
    return out


# --- dtype inference for torch.tensor ----------------------------------------------------

_PYTHON_SCALARS = (bool, int, float, complex)


def _element_dtype(item):
    """The dtype one element of ``torch.tensor``'s data brings in."""
    if isinstance(item, Tensor):
        return item.dtype
    if isinstance(item, (np.ndarray, np.generic)):
        return _dtype.from_numpy_dtype(item.dtype)
    if isinstance(item, bool):  # before int: bool is an int subclass
        return _dtype.bool_
    if isinstance(item, int):
        return _dtype.int64
    if isinstance(item, float):
        return _dtype.get_default_dtype()
    if isinstance(item, complex):
        return _dtype.default_complex_dtype()
    if isinstance(item, str):
        raise ValueError(f"too many dimensions '{type(item).__name__}'")
    raise RuntimeError(f"Could not infer dtype of {type(item).__name__}")


def _infer_dtype(data):
    """PyTorch's dtype for nested lists of numbers, NumPy values and tensors, and whether
    tensors are among the elements.

    Walks the lists once, checking that every list at one depth has the length of the first
    (PyTorch's "expected sequence of length" error). Plain Python elements are typed by
    their class, so a list of a million floats costs one ``set(map(type, ...))``.

    >>> _infer_dtype([1, 2.5]), _infer_dtype([np.float64(1), 2])
    ((torch.float32, False), (torch.float64, False))
    """
    if not isinstance(data, (list, tuple)):
        if isinstance(data, str):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        return _element_dtype(data), False
    lengths = []  # the length of the first list at each depth
    item = data
    while isinstance(item, (list, tuple)):
        lengths.append(len(item))
        item = item[0] if item else None
    result = None
    has_tensors = False
    stack = [(data, 0)]
    while stack:
        seq, depth = stack.pop()
        if depth < len(lengths) and len(seq) != lengths[depth]:
            raise ValueError(f"expected sequence of length {lengths[depth]} at dim {depth} (got {len(seq)})")
        kinds = set(map(type, seq))
        if list in kinds or tuple in kinds:
            stack.extend((x, depth + 1) for x in reversed(seq) if isinstance(x, (list, tuple)))
            seq = [x for x in seq if not isinstance(x, (list, tuple))]
            kinds = set(map(type, seq))
        if kinds.issubset(_PYTHON_SCALARS):  # type one sample of each class: False, 0, 0.0, 0j
            dtypes = [_element_dtype(k()) for k in kinds]
        else:
            dtypes = [_element_dtype(x) for x in seq]
            has_tensors = has_tensors or any(issubclass(k, Tensor) for k in kinds)
        for d in dtypes:
            result = d if result is None else _dtype.promote_types(result, d)
    return (result if result is not None else _dtype.get_default_dtype()), has_tensors


def _plain(data):
    """``data`` with each tensor element replaced by its number (PyTorch allows only
    one-element tensors inside lists)."""
    if isinstance(data, (list, tuple)):
        return [_plain(x) for x in data]
    if isinstance(data, Tensor):
        if data._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return data._data.reshape(())
    return data


def _array(data, dtype):
    """A new array of Python data (numbers, nested lists), in ``dtype`` or the inferred one."""
    inferred, has_tensors = _infer_dtype(data)
    if has_tensors:
        data = _plain(data)
    np_dtype = (dtype or inferred).np
    try:
        return np.array(data, dtype=np_dtype)
    except OverflowError:  # an int NumPy refuses for an integer dtype
        return np.array(_fitted_ints(data, np_dtype), dtype=np_dtype)


def _fitted_ints(data, np_dtype):
    """``data`` with each int as PyTorch's tensor() reads it into ``np_dtype``: 64-bit
    signed only, then an overflow check that wraps unsigned negatives (-1 is 255)."""
    if isinstance(data, (list, tuple)):
        return [_fitted_ints(x, np_dtype) for x in data]
    if data.__class__ is not int:
        return data
    if not -(1 << 63) <= data < 1 << 63:
        raise ValueError("Overflow when unpacking long long")
    try:
        return _dtype.checked_scalar(data, np_dtype)
    except RuntimeError:
        raise RuntimeError(f"value cannot be converted to type {np_dtype.name} without overflow") from None


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data`` (numbers, nested lists, arrays).

    >>> tensor([1, 2]).dtype, tensor([1, 2.5]).dtype, tensor(np.arange(2, dtype=np.int32)).dtype
    (torch.int64, torch.float32, torch.int32)
    """
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                      "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        return _finish(data._data.copy(), dtype, requires_grad, device)
    if isinstance(data, np.ndarray):
        return _finish(np.array(data), dtype, requires_grad, device)
    return _finish(_array(data, dtype), None, requires_grad, device)


def as_tensor(data, dtype=None, device=None):
    """Like ``tensor`` but shares memory with a NumPy array or tensor when it can."""
    if isinstance(data, Tensor):
        return data if dtype is None or dtype.np == data._data.dtype else data.to(dtype)
    if isinstance(data, np.ndarray):
        _dtype.from_numpy_dtype(data.dtype)
        return _finish(np.asarray(data, dtype=None if dtype is None else dtype.np), None, False, device)
    return _finish(_array(data, dtype), None, False, device)


def from_numpy(array):
    """A tensor sharing ``array``'s memory: writes to either show in both."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _dtype.from_numpy_dtype(array.dtype)
    return _wrap(array)


# --- filled tensors -----------------------------------------------------------------------

def _size(name, size):
    """The shape from ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros([2, 3])``, with PyTorch's
    errors for what is not a tuple of ints."""
    shape = _argparse.int_list(name, "size", size)
    for s in shape:
        if s < 0:
            if name == "zeros":
                raise RuntimeError("zeros: Dimension size must be non-negative.")
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(shape)}")
    return tuple(shape)


def _float_dtype(dtype):
    return dtype if dtype is not None else _dtype.get_default_dtype()


def zeros(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_allocate(np.zeros, _size("zeros", size), _float_dtype(dtype).np), None, requires_grad, device)


def ones(*size, dtype=None, device=None, requires_grad=False, out=None):
    return _finish(_allocate(np.ones, _size("ones", size), _float_dtype(dtype).np), None, requires_grad, device)


def empty(*size, dtype=None, device=None, requires_grad=False, memory_format=None, out=None):
    # zeros rather than uninitialised memory: same cost in NumPy, and no surprises
    return _finish(_allocate(np.zeros, _size("empty", size), _float_dtype(dtype).np), None, requires_grad, device)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False):
    """A tensor of ``size`` filled with ``fill_value``, whose type gives the dtype:
    ``full((2,), 7)`` is int64, ``full((2,), 1.5)`` the default float dtype."""
    if not isinstance(size, (list, tuple)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {type(size).__name__}")
    if isinstance(fill_value, (Tensor, np.generic)) and fill_value.ndim == 0:  # a Number to PyTorch
        fill_value = fill_value.item()
    if not isinstance(fill_value, _PYTHON_SCALARS):
        raise _argparse.must_be("full", "fill_value", 2, "Number", fill_value)
    if dtype is None:
        dtype = _element_dtype(fill_value)
    fill_value = _dtype.checked_scalar(fill_value, dtype.np, check_half=False)
    return _finish(_allocate(np.full, _size("full", (size,)), dtype.np, fill_value), None, requires_grad, device)


def _allocate(np_fn, shape, np_dtype, *fill):
    """``np_fn(shape, np_dtype, *fill)`` with PyTorch's RuntimeErrors for a size whose
    bytes overflow 64 bits and for memory the system refuses."""
    nbytes = np_dtype.itemsize
    for n in shape:
        nbytes *= n
    if nbytes >= 1 << 63:
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)}")
    try:
        return np_fn(shape, *fill, dtype=np_dtype) if fill else np_fn(shape, dtype=np_dtype)
    except (MemoryError, ValueError):
        raise RuntimeError(f"[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate "
                           f"memory: you tried to allocate {nbytes} bytes. Error code 12 (Cannot allocate "
                           "memory)") from None


def zeros_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return zeros(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def ones_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return ones(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def empty_like(input, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return zeros(input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, memory_format=None):
    return full(input.shape, fill_value, dtype=dtype or input.dtype, requires_grad=requires_grad)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False):
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return _finish(np.eye(n, m, dtype=_float_dtype(dtype).np), None, requires_grad, device)


# --- ranges, as PyTorch's CPU kernels compute them --------------------------------------

# An AVX2 register (and PyTorch's default vector width): arange fills runs of 32 bytes from
# one base. Exact up to 32768 elements; past that PyTorch splits the range across threads
# and each thread's runs start from its own first element.
_VECTOR_BYTES = 32


def _number(value):
    return value.item() if isinstance(value, Tensor) else value


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False):
    """``[start, start + step, ...)`` up to ``end``, in PyTorch's exact floats.

    PyTorch's kernel works in double and fills the tensor in pairs of vector registers: each
    run of lanes starts from ``start + step * i`` rounded to the tensor's dtype, the lanes
    add ``lane * step`` to that, and elements after the last pair get ``start + step * i``.
    """
    if end is None:
        start, end = 0, start
    start, end, step = _number(start), _number(end), _number(step)
    if dtype is None:
        floaty = any(isinstance(v, float) for v in (start, end, step))
        dtype = _dtype.get_default_dtype() if floaty else _dtype.int64
    if not dtype.is_floating_point:
        start, end, step = int(start), int(end), int(step)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (step > 0 and end < start) or (step < 0 and end > start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if not dtype.is_floating_point:
        return _finish(np.arange(start, end, step, dtype=np.int64), dtype, requires_grad, device)
    size = math.ceil((float(end) - float(start)) / float(step))
    start, step = np.float64(start), np.float64(step)
    out = fma64(step, np.arange(size, dtype=np.float64), start).astype(dtype.np)
    lanes = _VECTOR_BYTES // dtype.itemsize
    vectorised = size // (2 * lanes) * (2 * lanes)
    if dtype is not _dtype.float16 and vectorised:
        i = np.arange(vectorised)
        lane = (i % lanes).astype(np.float64)
        base = fma64(step, (i - i % lanes).astype(np.float64), start).astype(dtype.np).astype(np.float64)
        out[:vectorised] = fma64(lane, step, base)
    return _finish(out, None, requires_grad, device)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from ``start`` to ``end``, in PyTorch's exact floats:
    the first half counts up from ``start``, the second half down from ``end``, each value
    one fused ``start + step * i`` (or ``end - step * (steps - 1 - i)``) in the dtype."""
    start, end = _number(start), _number(end)
    if not isinstance(steps, int):
        raise TypeError(f"linspace(): argument 'steps' (position 3) must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dtype is None:
        dtype = _dtype.default_complex_dtype() if complex in (type(start), type(end)) else _dtype.get_default_dtype()
    if steps == 1:
        return _finish(np.full(1, start), dtype, requires_grad, device)
    if dtype.is_complex or dtype is _dtype.float16:
        return _finish(np.linspace(start, end, steps), dtype, requires_grad, device)
    if dtype.is_floating_point:
        # the kernel works in the tensor's own dtype: start, end and step are rounded to it
        start, end = dtype.np.type(start), dtype.np.type(end)
        step = dtype.np.type((end - start) / dtype.np.type(steps - 1))
    else:
        # integer tensors: start and end truncated to integers, the step in double
        start, end = int(start), int(end)
        step = (float(end) - float(start)) / (steps - 1)
    i = np.arange(steps, dtype=np.float64)
    up = fma64(np.float64(step), i, np.float64(start))
    down = fma64(-np.float64(step), steps - 1 - i, np.float64(end))
    values = np.where(i < steps // 2, up, down)
    if not dtype.is_floating_point:
        values = np.trunc(values)
    return _finish(values.astype(dtype.np), None, requires_grad, device)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False, out=None,
             layout=None):
    """``base ** linspace(start, end, steps)``, as PyTorch's kernel computes it: the exponents
    are ``start + step * i`` (first half) and ``end - step * (steps - 1 - i)`` (second half)
    in double from start and end rounded to the dtype, and each power is taken in double.

    >>> logspace(0, 2, 3)
    tensor([  1.,  10., 100.])
    """
    start, end = _number(start), _number(end)
    if not isinstance(steps, int) or isinstance(steps, bool):
        raise TypeError(f"logspace(): argument 'steps' (position 3) must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dtype is None:
        dtype = _dtype.default_complex_dtype() if complex in (type(start), type(end)) else _dtype.get_default_dtype()
    if steps == 1:
        return _finish(np.full(1, np.power(float(base), start)), dtype, requires_grad, device)
    if dtype.is_complex:
        return _finish(np.power(base, np.linspace(start, end, steps)), dtype, requires_grad, device)
    i = np.arange(steps, dtype=np.float64)
    if dtype.is_floating_point:
        start, end = dtype.np.type(start), dtype.np.type(end)
        step = np.float64(end - start) / (steps - 1)
        base = np.float64(base)
    else:  # integer dtypes: integer start, end and step; a float base
        start, end = int(start), int(end)
        step = np.float64((end - start) // (steps - 1) if end >= start else -((start - end) // (steps - 1)))
        base = np.float64(np.float32(base))
    up = fma64(step, i, np.float64(start))
    down = fma64(-step, steps - 1 - i, np.float64(end))
    values = np.power(base, np.where(i < steps // 2, up, down))
    if not dtype.is_floating_point:
        values = np.trunc(values)
    return _finish(values.astype(dtype.np), None, requires_grad, device)


def _triangle_indices(name, numpy_indices, row, col, offset, dtype, device, requires_grad):
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    dtype = dtype if dtype is not None else _dtype.int64
    if dtype not in (_dtype.int64, _dtype.int32):
        raise NotImplementedError(f"\"{name}\" not implemented for '{_dtype._LEGACY_NAMES[dtype.name]}'")
    rows, cols = numpy_indices(row, offset, col)
    return _finish(np.stack([rows, cols]).reshape(2, -1), dtype, requires_grad, device)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, requires_grad=False):
    """The (row, column) indices of the lower triangle of a ``row`` x ``col`` matrix, row by
    row, as a (2, N) tensor; ``offset`` shifts the diagonal up (> 0) or down (< 0)."""
    return _triangle_indices("tril_indices", np.tril_indices, row, col, offset, dtype, device, requires_grad)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, requires_grad=False):
    """The (row, column) indices of the upper triangle, as ``tril_indices``."""
    return _triangle_indices("triu_indices", np.triu_indices, row, col, offset, dtype, device, requires_grad)


# --- finfo and iinfo: the numeric limits of a dtype -------------------------------------------

class finfo:
    """``torch.finfo(dtype)``: the limits of a floating dtype (a complex dtype gives its
    real part's), as Python floats.

    >>> finfo(float32).eps
    1.1920928955078125e-07
    """

    def __init__(self, type=None):
        type = _dtype.get_default_dtype() if type is None else type
        if not (type.is_floating_point or type.is_complex):
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = np.finfo(type.to_real().np)
        self.bits = info.bits
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.smallest_normal)
        self.resolution = 10.0 ** -info.precision  # in double, as PyTorch (NumPy rounds it to the dtype)
        self.dtype = type.to_real().name

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")

    __str__ = __repr__


class iinfo:
    """``torch.iinfo(dtype)``: the limits of an integer dtype, as Python ints.

    >>> iinfo(uint8).max
    255
    """

    def __init__(self, type):
        if type is _dtype.bool_:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type.is_floating_point or type.is_complex:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        info = np.iinfo(type.np)
        self.bits = info.bits
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = type.name

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"

    __str__ = __repr__


# --- random ---------------------------------------------------------------------------
# The generator and its kernels are PyTorch's, bit for bit (``_generator``, ``_distributions``).


def manual_seed(seed):
    return default_generator.manual_seed(seed)


def seed():
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    """The default generator's state: PyTorch's 5056-byte ``ByteTensor``, byte for byte, so a
    state saved by PyTorch continues the same stream here, and the other way round.

    >>> state = chainrule.get_rng_state(); a = chainrule.rand(2)
    >>> chainrule.set_rng_state(state); chainrule.equal(chainrule.rand(2), a)
    True
    """
    return default_generator.get_state()


def set_rng_state(new_state):
    if not isinstance(new_state, Tensor) or new_state._data.dtype != np.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    default_generator.set_state(new_state)


def _generator(generator):
    """The generator a draw uses (the default one unless ``generator=`` names another);
    under vmap, its ``randomness=`` decides whether drawing is allowed at all."""
    if VMAP.active:
        VMAP.check_randomness()
    if generator is not None and not isinstance(generator, Generator):
        raise TypeError(f"expected a torch.Generator, but got {type(generator).__name__}")
    return generator if generator is not None else default_generator


def _random_float_dtype(dtype, kernel):
    """The dtype of rand/randn: floating only, with PyTorch's message for the rest."""
    dtype = _float_dtype(dtype)
    if not (dtype.is_floating_point or dtype.is_complex):
        name = _dtype._LEGACY_NAMES[dtype.name]
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")
    return dtype


def _real_draw(draw, shape, dtype):
    """``draw(n, real_dtype)`` filling ``shape``; a complex tensor is drawn as its real view
    (real and imaginary parts interleaved), as PyTorch's ``view_as_real``."""
    n = math.prod(shape)
    if dtype.np.kind == "c":
        real = np.dtype(np.float32 if dtype.np == np.complex64 else np.float64)
        return draw(2 * n, real).view(dtype.np).reshape(shape)
    return draw(n, dtype.np).reshape(shape)


def rand(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None,
         pin_memory=False):
    dtype = _random_float_dtype(dtype, "check_uniform_bounds")
    shape, gen = _size("rand", size), _generator(generator)
    data = _real_draw(lambda n, real: _distributions.uniform(gen, n, real, 0.0, 1.0), shape, dtype)
    return _finish(data, dtype, requires_grad, device)


def randn(*size, generator=None, dtype=None, device=None, requires_grad=False, out=None, layout=None,
          pin_memory=False):
    dtype = _random_float_dtype(dtype, "normal_kernel_cpu")
    shape, gen = _size("randn", size), _generator(generator)
    std = math.sqrt(0.5) if dtype.is_complex else 1.0  # complex: each part has half the variance
    data = _real_draw(lambda n, real: _distributions.normal(gen, n, real, 0.0, std), shape, dtype)
    return _finish(data, dtype, requires_grad, device)


def randint(low=0, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False,
            out=None, layout=None, pin_memory=False):
    """Integers in ``[low, high)``: ``randint(high, size)`` or ``randint(low, high, size)``."""
    if size is None:
        low, high, size = 0, low, high
    if not isinstance(size, (list, tuple)):
        raise TypeError(f"randint(): argument 'size' (position 2) must be tuple of ints, not {type(size).__name__}")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    shape, gen = _size("randint", (size,)), _generator(generator)
    dtype = dtype or _dtype.int64
    data = _distributions.random_from_to(gen, math.prod(shape), low, high - low, dtype.np).reshape(shape)
    return _finish(data, dtype, requires_grad, device)


def rand_like(input, *, generator=None, dtype=None, device=None, requires_grad=False, memory_format=None,
              layout=None):
    return rand(input.shape, generator=generator, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input, *, generator=None, dtype=None, device=None, requires_grad=False, memory_format=None,
               layout=None):
    return randn(input.shape, generator=generator, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randint_like(input, low=0, high=None, *, generator=None, dtype=None, device=None, requires_grad=False,
                 memory_format=None, layout=None):
    if high is None:
        low, high = 0, low
    return randint(low, high, input.shape, generator=generator, dtype=dtype or input.dtype,
                   requires_grad=requires_grad)


# --- Tensor methods ---------------------------------------------------------------------------


class _TensorMethods:
    def __new__(cls, *args, **kwargs):
        """``torch.Tensor(2, 3)`` (uninitialised float tensor) or ``torch.Tensor([1, 2])``."""
        if len(args) == 1 and not isinstance(args[0], int):
            return tensor(args[0], dtype=_dtype.get_default_dtype())
        return empty(*args, **kwargs)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return zeros(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return ones(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        return full(size, fill_value, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return empty(*size, dtype=dtype or self.dtype, requires_grad=requires_grad)


tensor_methods(_TensorMethods)
