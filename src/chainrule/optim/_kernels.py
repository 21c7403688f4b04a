"""Array kernels that round as PyTorch's CPU kernels do, so optimizer steps match bit for bit.

The optimizers update NumPy arrays in place (no graph, no per-op dispatch). Getting
PyTorch's float32 trajectory exactly needs its rounding, op by op:

* ``a.add(b, alpha=s)``, ``lerp`` and ``addcmul`` are a fused multiply-add in PyTorch's
  vectorised CPU kernels: one rounding, not two. NumPy has no FMA, but a product of two
  float32 numbers is exact in float64, so ``x*y + z`` done in float64 and rounded once to
  float32 is the fused result (up to ties of a double rounding, about one in 2**29).
  For float64 there is no wider type: plain NumPy rounds twice, at most an ulp apart.
* A Python number enters a kernel cast to the tensor's dtype first, as PyTorch's
  ``Scalar`` does (``0.9`` is ``float32(0.9)`` for a float32 tensor).
* ``addcdiv``, ``mul``, division, ``maximum`` round as plain NumPy does. ``sqrt`` does
  too; PyTorch's MKL square root is within one ulp of it.

Example: ``add_(p, g, -lr)`` is ``p.add_(g, alpha=-lr)``.
"""
import numpy as np


def real(a):
    """A complex array as its real view (..., 2) flattened into the last axis, as
    ``torch.view_as_real`` lays it out; real arrays unchanged."""
    return a.view(a.real.dtype) if a.dtype.kind == "c" else a


def scalar(x, dtype):
    """``x`` as PyTorch's kernel sees it: cast to the tensor's dtype."""
    return dtype.type(x)


def fma(out, x, y, z):
    """``x*y + z`` with one rounding in float32 (see the module docstring), written into
    ``out`` (which may be ``x`` or ``z``) or, for ``out=None``, into a new array. ``y`` may
    be a scalar of the arrays' dtype."""
    if np.result_type(x, z) != np.float32:
        if out is None:
            return x * y + z
        return np.add(x * y, z, out=out)
    t = np.multiply(x, y, dtype=np.float64)
    t += z
    if out is None:
        return t.astype(np.float32)
    np.copyto(out, t, casting="same_kind")
    return out


def add(a, b, alpha):
    """``a.add(b, alpha=alpha)``, a new array."""
    if alpha == 1:
        return a + b
    return fma(None, b, scalar(alpha, a.dtype), a)


def add_(a, b, alpha):
    """``a.add_(b, alpha=alpha)``."""
    if alpha == 1:
        return np.add(a, b, out=a)
    return fma(a, b, scalar(alpha, a.dtype), a)


def lerp_(a, end, weight):
    """``a.lerp_(end, weight)`` for a number ``weight``: PyTorch's two-sided form, exact
    at both ends (``a + w*(end - a)`` for small w, ``end + (w - 1)*(end - a)`` else)."""
    w = scalar(weight, a.dtype)
    diff = end - a
    if abs(w) < 0.5:
        return fma(a, diff, w, a)
    return fma(a, diff, w - a.dtype.type(1), end)


def addcmul(a, t1, t2, value):
    """``a.addcmul(t1, t2, value=value)``: ``a + (value*t1)*t2``, the last step fused."""
    v = scalar(value, a.dtype)
    return fma(None, t1 if v == 1 else t1 * v, t2, a)


def addcmul_(a, t1, t2, value):
    """``a.addcmul_(t1, t2, value=value)``."""
    v = scalar(value, a.dtype)
    return fma(a, t1 if v == 1 else t1 * v, t2, a)


def addcdiv_(a, t1, t2, value):
    """``a.addcdiv_(t1, t2, value=value)``: ``a + (value*t1)/t2``."""
    v = scalar(value, a.dtype)
    q = t1 / t2 if v == 1 else (t1 * v) / t2
    return np.add(a, q, out=a)
