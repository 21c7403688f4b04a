"""Matrix products: dot, mv, mm and the broadcasting ``matmul`` that picks among them.

Rules use the conjugate transpose so that complex inputs follow PyTorch's convention.
Batch broadcasting in ``matmul`` needs no code of its own: the engine sums each
gradient back to its input's shape.
"""
import numpy as np

from .registry import binary, defop
from .shape import unsafe_view

_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
               "int32": "int", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def _same_dtype(a, b):
    if a._data.dtype != b._data.dtype:
        names = [_TYPE_NAMES.get(t._data.dtype.name, t._data.dtype.name) for t in (a, b)]
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {names[0]} != {names[1]}")


DOT = defop("dot", np.dot, node="DotBackward0",
            save=lambda ans, a, b: (a, b),
            vjp=(lambda g, a, b: g * b.conj(), lambda g, a, b: g * a.conj()),
            jvp=(lambda t, a, b: dot(t, b), lambda t, a, b: dot(a, t)))


def dot(a, b):
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a._data.ndim}D and {b._data.ndim}D tensors")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{a.dtype.name.capitalize() if a.dtype.name != 'float32' else 'Float'} and "
                           f"{'Double' if b.dtype.name == 'float64' else b.dtype.name.capitalize()}")
    if a._data.shape != b._data.shape:
        n, m = a._data.shape[0], b._data.shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the "
                           f"same number of elements, but got {n} and {m} elements respectively")
    return binary(DOT, a, b)


MV = defop("mv", np.matmul, node="MvBackward0",
           save=lambda ans, m, v: (m, v),
           vjp=(lambda g, m, v: g.unsqueeze(1) * v.conj(), lambda g, m, v: mv(m.conj().t(), g)),
           jvp=(lambda t, m, v: mv(t, v), lambda t, m, v: mv(m, t)))


def mv(m, v):
    if m._data.ndim != 2 or v._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {m._data.ndim}, {v._data.ndim}")
    if m._data.shape[1] != v._data.shape[0]:
        _mv_size_mismatch(m._data.shape, v._data.shape)
    _same_dtype(m, v)
    return binary(MV, m, v)


def _mv_size_mismatch(mat_shape, vec_shape):
    raise RuntimeError(f"size mismatch, got input ({mat_shape[0]}), mat ({mat_shape[0]}x{mat_shape[1]}), "
                       f"vec ({vec_shape[0]})")


MM = defop("mm", np.matmul, node="MmBackward0",
           save=lambda ans, a, b: (a, b),
           vjp=(lambda g, a, b: mm(g, b.conj().t()), lambda g, a, b: mm(a.conj().t(), g)),
           jvp=(lambda t, a, b: mm(t, b), lambda t, a, b: mm(a, t)))


def mm(a, b):
    if a._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a._data.shape[0]}x{a._data.shape[1]} "
                           f"and {b._data.shape[0]}x{b._data.shape[1]})")
    _same_dtype(a, b)
    return binary(MM, a, b)


# batched, broadcasting product of two tensors of at least 2 dims
MATMUL = defop("matmul", np.matmul, node="UnsafeViewBackward0",
               save=lambda ans, a, b: (a, b),
               vjp=(lambda g, a, b: matmul(g, b.conj().mT), lambda g, a, b: matmul(a.conj().mT, g)),
               jvp=(lambda t, a, b: matmul(t, b), lambda t, a, b: matmul(a, t)))


def _check_batched_shapes(sa, sb):
    """PyTorch's errors for a batched product. It folds a batch of matrices times
    a matrix or vector into one ``mm`` or ``mv`` (so reports their errors), and otherwise
    broadcasts the batch dims (from the right) before a ``bmm``."""
    if len(sa) >= 3 and len(sb) <= 2:
        rows, k = int(np.prod(sa[:-1])), sa[-1]
        if len(sb) == 1 and k != sb[0]:
            _mv_size_mismatch((rows, k), sb)
        if len(sb) == 2 and k != sb[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {sb[0]}x{sb[1]})")
        return
    batch_a, batch_b = tuple(sa[:-2]), tuple(sb[:-2])  # a 1-d operand has no batch dims
    n = max(len(batch_a), len(batch_b))
    batch_a, batch_b = (1,) * (n - len(batch_a)) + batch_a, (1,) * (n - len(batch_b)) + batch_b
    for i in reversed(range(n)):  # PyTorch reports the last mismatching dim
        x, y = batch_a[i], batch_b[i]
        if x != y and 1 not in (x, y):
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                               f"non-singleton dimension {i}")
    batch = [max(x, y) for x, y in zip(batch_a, batch_b)]
    k_a, k_b = sa[-1], (sb[0] if len(sb) == 1 else sb[-2])
    if k_a != k_b:
        size = int(np.prod(batch))
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{size}, {k_a}] "
                           f"but got: [{size}, {k_b}].")


def matmul(a, b):
    """``a @ b`` with NumPy's (and PyTorch's) rules for 1-d and batched operands."""
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return dot(a, b)
    if da == 2 and db == 1:
        return mv(a, b)
    if da == 2 and db == 2:
        return mm(a, b)
    if da == 1 and db == 2:
        return mm(a.unsqueeze(0), b).squeeze(0)
    _check_batched_shapes(a._data.shape, b._data.shape)
    _same_dtype(a, b)
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    out = binary(MATMUL, a2, b2)
    if da == 1 or db == 1:  # drop the added dims as PyTorch does: one reshape (UnsafeViewBackward0)
        shape = out._data.shape
        rows = () if da == 1 else shape[-2:-1]
        cols = () if db == 1 else shape[-1:]
        out = unsafe_view(out, shape[:-2] + rows + cols)
    return out
