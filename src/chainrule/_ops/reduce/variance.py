"""Variance and standard deviation over some dims (``var``, ``std``, ``var_mean``,
``std_mean``), with PyTorch's corrections and its accumulation: the result of one pass in
double, corrected by the deviations' own sum, so that equal values have variance 0.
"""
import builtins
import warnings
import math

import numpy as np

from ..._core.tensor import Tensor, _wrap
from ..pointwise.elementwise import where
from ..batching import dim_params
from ..registry import defop, unary
from .reductions import (_count, _mean, _mean_over, _reduce_args, _sum_over, _unreduce)


def _var(x, dims, correction, keepdim):
    with np.errstate(over="ignore"):  # a float32 variance past 3e38 is inf, as PyTorch's
        return _wide_var(x, dims, correction, keepdim).astype(np.finfo(x.dtype).dtype)


def _wide_var(x, dims, correction, keepdim):
    """Sum of squared deviations over n - correction, in float64 (float32 is summed in
    float64, as PyTorch's Welford does): its square root, the std, is rounded once, so a
    float32 std of 1e30 stays finite where the variance overflows."""
    if x.dtype.kind == "c":  # PyTorch's: the two parts' variances added (inf + nan is nan)
        return _wide_var(x.real, dims, correction, keepdim) + _wide_var(x.imag, dims, correction, keepdim)
    wide = x.astype(np.float64)
    n = _count(x.shape, dims)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # no elements, or no degrees of freedom
        if x.size and x.size == n and x.dtype != np.float16:
            # one result: PyTorch's std_var_all_cpu, x.mean() in x's dtype, then the squared
            # deviations from it added in double; the mean corrected by the deviations' own
            # mean, so equal values have variance 0 (PyTorch's mean of them is exact or an ulp
            # off by its sum's lane order: three 1e30s, 2e28; docs/differences.md)
            mean = np.asarray(_mean(x, dims, True, x.dtype), np.float64)
            drift = np.sum(wide - mean) / n
            centred = wide - (mean + drift if np.isfinite(drift) else mean)  # (inf - inf: none)
            return np.asarray(np.sum(centred * centred, axis=dims, keepdims=keepdim) / builtins.max(n - correction, 0))
        centred = wide - np.sum(wide, axis=dims, keepdims=True) / n
        # PyTorch's Welford, as the corrected two-pass sum: less the square of the deviations'
        # own sum (the rounding of the mean), so a row of equal 1e30s has variance 0
        squares = np.sum(centred * centred, axis=dims, keepdims=keepdim)
        drift = np.sum(centred, axis=dims, keepdims=keepdim)
        var = np.maximum(squares - drift * drift / n, 0) / builtins.max(n - correction, 0)
    return np.asarray(var)


def _std(x, dims, correction, keepdim):
    real = np.finfo(x.dtype).dtype
    if x.dtype.kind == "c":  # PyTorch: the variances of the two parts, each rounded, added, then the root
        with np.errstate(over="ignore"):
            return np.sqrt(_wide_var(x.real, dims, correction, keepdim).astype(real)
                           + _wide_var(x.imag, dims, correction, keepdim).astype(real))
    return np.sqrt(_wide_var(x, dims, correction, keepdim)).astype(real)


def _var_slope(x, dims, correction):
    """d var / d x_i = 2 (x_i - mean) / (n - correction). With no degrees of freedom left
    PyTorch gives nan where x_i is the mean and +inf elsewhere (whole-tensor var), or
    divides by zero (var along dims)."""
    n = _count(x.shape, dims)
    dof = n - correction
    if not dims and dof <= 0:
        return _wrap(np.where(x._data == np.mean(x._data), np.nan, np.inf).astype(x._data.dtype))
    mean = x.mean() if not dims else _mean_over(x, dims, True)
    # corrected as the forward's: x - mean is 0. on equal values, not an ulp (not where an
    # infinite element makes the correction inf - inf)
    drift = (x - mean).mean() if not dims else _mean_over(x - mean, dims, True)
    mean = mean + where(drift.isfinite(), drift, 0.0)
    return (2.0 / dof if dof != 0 else math.inf) * (x - mean)


def _std_slope(g, ans):
    """d std = d var / (2 std), 0 where std is 0 (as PyTorch's masked_fill)."""
    return where(ans == 0, 0.0, g / (ans * 2))


_VAR_RULES = dict(
    save=lambda ans, x, dims, correction, keepdim: (x, dims, correction, keepdim),
    vjp=lambda g, x, dims, correction, keepdim: _unreduce(g, x.shape, dims, keepdim) * _var_slope(x, dims, correction),
    jvp=lambda t, x, dims, correction, keepdim: _sum_over(t * _var_slope(x, dims, correction), dims, keepdim))

_STD_RULES = dict(
    save=lambda ans, x, dims, correction, keepdim: (x, ans, dims, correction, keepdim),
    vjp=lambda g, x, ans, dims, correction, keepdim: (_unreduce(_std_slope(g, ans), x.shape, dims, keepdim)
                                                      * _var_slope(x, dims, correction)),
    jvp=lambda t, x, ans, dims, correction, keepdim: _std_slope(
        _sum_over(t * _var_slope(x, dims, correction), dims, keepdim), ans))

_MEAN_PART_RULES = dict(
    save=lambda ans, x, dims, correction, keepdim: (x._data.shape, dims, keepdim),
    vjp=lambda g, shape, dims, keepdim: _unreduce(g, shape, dims, keepdim) / _count(shape, dims),
    jvp=lambda t, shape, dims, keepdim: _mean_over(t, dims, keepdim))


def _welford_mean(a, dims, keepdim):
    """The mean of a real array as PyTorch's var_mean computes it, Welford's m += (x - m) / k
    in float64 over the elements in memory order: the float64 sum over n, except that once
    m is infinite, the next element makes it nan (inf - inf or -inf / k + inf), so an
    infinite element gives nan unless it is the last one of its slice in memory."""
    axes = tuple(range(a.ndim)) if dims is None else dims
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.sum(a, axis=axes, keepdims=True, dtype=np.float64) / _count(a.shape, axes)
    infinite = np.isinf(a)
    if infinite.any():
        offset = np.broadcast_to(builtins.sum(np.arange(a.shape[d]).reshape((-1,) + (1,) * (a.ndim - d - 1))
                                              * a.strides[d] for d in axes), a.shape)
        last = offset == np.max(offset, axis=axes, keepdims=True)
        mean = np.where(np.any(infinite & ~last, axis=axes, keepdims=True), np.nan, mean)
    return mean if keepdim else np.squeeze(mean, axis=axes)


def _mean_part(x, dims, correction, keepdim):
    if x.dtype.kind == "c":  # PyTorch takes the real and imaginary parts' var_mean apart
        real = _welford_mean(x.real, dims, keepdim)
        mean = np.empty(real.shape, np.complex128)
        mean.real, mean.imag = real, _welford_mean(x.imag, dims, keepdim)  # no 1j * nan in the real part
    else:
        mean = _welford_mean(x, dims, keepdim)
    return np.asarray(mean).astype(x.dtype)


VAR = defop("var", _var, node="VarBackward0", batch=dim_params(0), **_VAR_RULES)
STD = defop("std", _std, node="StdBackward0", batch=dim_params(0), **_STD_RULES)
# var_mean and std_mean: one node name for both outputs, as PyTorch's one node
VAR_MEAN_VAR = defop("var_mean_var", _var, node="VarMeanBackward0", batch=dim_params(0), **_VAR_RULES)
VAR_MEAN_MEAN = defop("var_mean_mean", _mean_part, node="VarMeanBackward0", batch=dim_params(0), **_MEAN_PART_RULES)
STD_MEAN_STD = defop("std_mean_std", _std, node="StdMeanBackward0", batch=dim_params(0), **_STD_RULES)
STD_MEAN_MEAN = defop("std_mean_mean", _mean_part, node="StdMeanBackward0", batch=dim_params(0), **_MEAN_PART_RULES)


def _var_params(x, dim, unbiased, keepdim, correction, name):
    """(dims, correction, keepdim) from PyTorch's overloads: ``var(x, True)`` is the old
    ``unbiased`` flag, ``var(x, dim, unbiased, keepdim)`` or ``correction=`` the new form."""
    if x._data.dtype.kind not in "fc":
        raise RuntimeError(f"{name if name.endswith('_mean') else 'std and var'} only support floating point and "
                           "complex dtypes")
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError(f"{name}(): pass either unbiased or correction, not both")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    dims = None if dim is None else _reduce_args(x, dim)
    if _count(x._data.shape, dims) - correction <= 0:
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                      "reduction factor (input numel divided by output numel).", UserWarning, stacklevel=3)
    return dims, correction, keepdim


def var(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return unary(VAR, x, _var_params(x, dim, unbiased, keepdim, correction, "var"))


def std(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return unary(STD, x, _var_params(x, dim, unbiased, keepdim, correction, "std"))


def var_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    params = _var_params(x, dim, unbiased, keepdim, correction, "var_mean")
    return unary(VAR_MEAN_VAR, x, params), unary(VAR_MEAN_MEAN, x, params)


def std_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None):
    params = _var_params(x, dim, unbiased, keepdim, correction, "std_mean")
    return unary(STD_MEAN_STD, x, params), unary(STD_MEAN_MEAN, x, params)


Tensor.var = var
Tensor.std = std
