"""Fused multiply-adds on NumPy arrays: ``a * b + c`` rounded once, as PyTorch's kernels
(compiled with floating-point contraction) compute it.

Plain NumPy rounds the product and then the sum, and lands one ulp away from PyTorch's
result now and then (a third of the time for ``start + step * i``). Error-free
transformations give the fused result exactly:

>>> fma64(np.array([0.1]), 3.0, 0.7) == np.float64(0.1) * 3.0 + 0.7
array([False])
"""
import numpy as np


def _two_product(a, b):
    """a * b as an unevaluated sum p + e, exactly (Dekker's algorithm; |a|, |b| < 2**996)."""
    p = a * b
    split = 134217729.0  # 2**27 + 1
    a_big = a * split
    a_hi = a_big - (a_big - a)
    a_lo = a - a_hi
    b_big = b * split
    b_hi = b_big - (b_big - b)
    b_lo = b - b_hi
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _two_sum(a, b):
    """a + b as an unevaluated sum s + e, exactly (Knuth's algorithm)."""
    s = a + b
    b_part = s - a
    return s, (a - (s - b_part)) + (b - b_part)


def fma64(a, b, c):
    """``a * b + c`` with one rounding, on float64 arrays (or numbers). Where an operand is
    at or past 2**996 (Dekker's split overflows), the product below 2**-969 (its error term
    underflows) or the result is not finite, the sum is taken in long double instead: it
    keeps fma's infinities (fma(a, a, -inf) is -inf where a * a overflows) and the sign of
    an underflowing result, at the cost of exactness on cancelling sums that far out."""
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    with np.errstate(all="ignore"):
        p, p_err = _two_product(a, b)
        s, s_err = _two_sum(p, c)
        out = s + (p_err + s_err)
        beyond = ~np.isfinite(out) | (np.abs(a) >= 2.0 ** 996) | (np.abs(b) >= 2.0 ** 996) | (np.abs(p) < 2.0 ** -969)
        if beyond.any():
            out = np.array(out, np.float64, ndmin=1)
            a, b, c = (np.broadcast_to(v, beyond.shape)[beyond] for v in (a, b, c))
            out[np.atleast_1d(beyond)] = (a.astype(np.longdouble) * b + c).astype(np.float64)
            out = out.reshape(beyond.shape)
    return out[()] if out.ndim == 0 else out


_LOW_29 = np.uint64(0x1FFFFFFF)
_TIE_29 = np.uint64(0x10000000)


def fma32(a, b, c, may_be_tiny=True):
    """``a * b + c`` with one rounding, on float32 values (float32 or float64 arrays holding
    them, or numbers). The product is exact in double, so the double sum rounded to float32
    is the fused result unless the double sum was itself rounded onto a float32 tie (or lies
    below float32's normal range, which ``may_be_tiny=False`` rules out): those rare
    elements are redone with the sum rounded to odd, so that the last rounding is the only one."""
    return Fma32(np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c)))(a, b, c, may_be_tiny=may_be_tiny)


class Fma32:
    """``fma32`` over arrays of one shape, reusing its buffers: a kernel that chains many
    fused operations on large arrays would otherwise spend most of its time faulting in
    fresh pages for the temporaries.

    >>> fused = Fma32(y.shape)
    >>> y = fused(y, x, c, out=y)     # y = fma(y, x, c) in place
    """

    def __init__(self, shape):
        self._total = np.empty(shape, np.float64)
        self._bits = np.empty(shape, np.uint64)
        self._doubtful = np.empty(shape, bool)

    def __call__(self, a, b, c, out=None, may_be_tiny=True):
        total = self._total
        np.multiply(a, b, out=total, dtype=np.float64)  # the float64 loop: the product exact
        total += c
        np.bitwise_and(total.view(np.uint64), _LOW_29, out=self._bits)
        doubtful = np.equal(self._bits, _TIE_29, out=self._doubtful)
        if may_be_tiny:
            doubtful |= np.abs(total) < 2.0 ** -125
        redone = None
        if doubtful.any():  # before `out` (which may be an operand) is written
            picked = [np.broadcast_to(np.asarray(v, np.float64), total.shape)[doubtful] for v in (a, b, c)]
            exact, error = _two_sum(picked[0] * picked[1], picked[2])
            odd = (exact.view(np.uint64) & np.uint64(1)) == 1
            redone = np.where((error != 0) & ~odd, np.nextafter(exact, np.copysign(np.inf, error)), exact)
        result = np.empty(total.shape, np.float32) if out is None else out
        np.copyto(result, total, casting="same_kind")
        if redone is not None:
            result[doubtful] = redone.astype(np.float32)
        return result[()] if result.ndim == 0 else result
