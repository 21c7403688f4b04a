"""Quantiles: composed of sort, gather and a lerp, as PyTorch records them (so their
gradient is sort's and lerp's, and ties and NaNs fall as PyTorch's do).

>>> chainrule.quantile(chainrule.tensor([1.0, 2.0, 4.0]), 0.75)
tensor(3.)
"""
import numpy as np

from ..._core.tensor import Tensor, _wrap
from ..batching import any_batched, batched_by, on_batch, per_sample
from ..pointwise.ternary import lerp
from ..pointwise.elementwise import where
from .reductions import TAKE_ALONG, past_batch
from ..registry import unary
from .sorting import sort
from ..shape.views import transpose
from ..._core.dims import wrap_dim
from ..pointwise.rounding import ceil, floor, round


_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_checks(x, q, interpolation):
    # a number q is checked before the call, the interpolation as its argument: both first
    if not isinstance(q, Tensor) and not 0 <= q <= 1:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {q:g}")  # C++'s ostream
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    if x._data.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, Tensor) and q._data.ndim > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if x._data.dtype not in (np.float32, np.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if isinstance(q, Tensor) and q._data.dtype != x._data.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")


def _q_values_check(q):
    """After the dim is wrapped: PyTorch checks q's values last, in quantile_compute."""
    if isinstance(q, Tensor) and not ((q._data >= 0) & (q._data <= 1)).all():
        raise RuntimeError("quantile() q values must be in the range [0, 1]")


def _quantile(x, q, dim, keepdim, interpolation, ignore_nan):
    _quantile_checks(x, q, interpolation)
    shape = x._data.shape
    if dim is not None:
        dim = wrap_dim(dim, len(shape))
    _q_values_check(q)
    if dim is None or not shape:  # over every element
        out_shape = (1,) * len(shape) if keepdim else ()
        values = x.reshape(out_shape + (-1,))
    else:  # the reduced dim moved last
        out_shape = shape[:dim] + ((1,) if keepdim else ()) + shape[dim + 1:]
        values = transpose(x.unsqueeze(-1), dim, -1).reshape(out_shape + (shape[dim],))
    values = sort(values, -1).values
    last = values._data.ndim - 1
    n = values._data.shape[-1]
    q_vector = q.reshape(-1) if isinstance(q, Tensor) else _wrap(np.asarray([q], dtype=x._data.dtype))
    nan = values._data != values._data
    if ignore_nan:  # the rank among the non-NaN elements; all NaN: rank 0, a NaN
        ranks = q_vector * _wrap(np.sum(~nan, axis=-1, keepdims=True) - 1)
        ranks = where(ranks < 0, 0.0, ranks)
    else:  # a NaN anywhere: the last rank, a NaN
        ranks = where(_wrap(np.any(nan, axis=-1, keepdims=True)), float(n - 1), q_vector * (n - 1))
    ranks = ranks.expand(out_shape + (q_vector.shape[0],))
    if interpolation in ("lower", "higher", "nearest"):
        ranks = {"lower": floor, "higher": ceil, "nearest": round}[interpolation](ranks)
    below = ranks._data.astype(np.int64)
    result = unary(TAKE_ALONG, values, (below, last, True))
    if interpolation in ("linear", "midpoint"):
        above = unary(TAKE_ALONG, values, (np.ceil(ranks._data).astype(np.int64), last, True))
        if interpolation == "linear":
            weights = ranks - _wrap(below.astype(ranks._data.dtype))
        else:  # halfway to the element above, or to itself: lerp(v, v, 0.5) keeps -0.
            weights = _wrap(np.full(ranks._data.shape, 0.5, x._data.dtype))
        # PyTorch's lerp_ (from inf to inf is nan), with its two-sided formula
        result = lerp(result, above, weights)
    if isinstance(q, Tensor) and q._data.ndim == 1:  # q's dim first, in place as PyTorch does
        result = result.unsqueeze_(0).transpose_(0, -1)
    return result.squeeze_(-1)


def _batch_quantile(x, q, dim, keepdim, interpolation, ignore_nan):
    """``_quantile`` of each sample of a batched ``x`` (``q`` not batched), in one call:
    over each flattened sample for dim=None, and with a vector ``q``, its dim (first in a
    sample's result) after the batch dim."""
    _quantile_checks(x, q, interpolation)
    ndim = x._data.ndim

    def run(b):
        if dim is None or not ndim:
            out = _quantile(b.reshape((b.shape[0], -1)), q, 1, False, interpolation, ignore_nan)
        else:
            out = _quantile(b, q, past_batch(x, dim), keepdim, interpolation, ignore_nan)
        if isinstance(q, Tensor) and q._data.ndim == 1:
            out = out.movedim(0, 1)
        return out.reshape(out.shape + (1,) * ndim) if keepdim and (dim is None or not ndim) else out
    return on_batch(run, x)


def _batched(public, ignore_nan):
    """quantile's and nanquantile's rule: per sample for a batched q, a batched x as one call."""
    def rule(x, q, dim, keepdim, interpolation):
        if any_batched(q):
            return per_sample(public(), x, q, dim, keepdim, interpolation=interpolation)
        return _batch_quantile(x, q, dim, keepdim, interpolation, ignore_nan=ignore_nan)
    return rule


@batched_by(_batched(lambda: quantile, ignore_nan=False))
def quantile(x, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(x, q, dim, keepdim, interpolation, ignore_nan=False)


@batched_by(_batched(lambda: nanquantile, ignore_nan=True))
def nanquantile(x, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(x, q, dim, keepdim, interpolation, ignore_nan=True)

Tensor.quantile = quantile
Tensor.nanquantile = nanquantile
