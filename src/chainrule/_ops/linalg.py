"""Matrix products: dot, mv, mm and the broadcasting ``matmul`` that picks among them.

Rules use the conjugate transpose so that complex inputs follow PyTorch's convention.
Batch broadcasting in ``matmul`` needs no code of its own: the engine sums each
gradient back to its input's shape.
"""
import numpy as np

from .registry import binary, defop

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
    if m._data.ndim != 2 or v._data.ndim != 1 or m._data.shape[1] != v._data.shape[0]:
        shape = "x".join(map(str, m._data.shape))
        raise RuntimeError(f"size mismatch, got input ({m._data.shape[0] if m._data.ndim else 0}), "
                           f"mat ({shape}), vec ({v._data.shape[0] if v._data.ndim else 0})")
    _same_dtype(m, v)
    return binary(MV, m, v)


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
    _same_dtype(a, b)
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    if a2._data.shape[-1] != b2._data.shape[-2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a2._data.shape[0]}, {a2._data.shape[-1]}] but got: "
                           f"[{b2._data.shape[0]}, {b2._data.shape[-2]}].")
    out = binary(MATMUL, a2, b2)
    if db == 1:
        out = out.squeeze(-1)
    if da == 1:
        out = out.squeeze(-2)
    return out
