"""Order statistics: sorting, selection (kthvalue, median, mode) and counting (unique,
bincount, histc).

Ops that pick elements (``sort``, ``topk``, ``median(dim)``) compute where they pick from,
then record the values with ``reductions.PICK_RULES``: each gradient goes back to the element
it came from. Counting ops give results without a gradient.

>>> chainrule.tensor([3.0, 1.0, 2.0]).sort().indices
tensor([1, 2, 0])
"""
import builtins
import math

import numpy as np

from ..._core import arguments as _argparse, dtype as _dtype
from ... import return_types
from ..._core.dims import wrap_dim
from ..._core.modes import FORWARD_AD, GRAD_MODE
from ..._core.tensor import Tensor, _wrap
from . import stl_order
from ..batching import batched_by, dynamic_shape, on_batch, per_sample
from .reductions import PICK_RULES, TAKE_ALONG, TIE_SHARING_RULES, _check_nonempty, _type_name, int_dim, pick
from ..registry import Op, defop, record, unary
from .scans import _along_batch, _unordered
from ..index.searching import _unequal_samples
from ..tangents import not_differentiable, not_implemented, refuse_tangents


def _no_complex_sort(x, name):
    if x._data.dtype.kind == "c":
        raise RuntimeError(f" {name} does not support complex dtypes on CPU")


# --- sorting ----------------------------------------------------------------------------------

def _sort_index(a, dim, descending=False):
    """A stable argsort along ``dim``; NaN sorts above everything, as in PyTorch. For
    descending order the reversed input is sorted ascending and the order reversed, which
    keeps ties in their original order and puts NaNs first."""
    if a.ndim == 0:
        return np.zeros((), dtype=np.int64)
    if not descending:
        return np.argsort(a, axis=dim, kind="stable")
    backwards = np.argsort(np.flip(a, dim), axis=dim, kind="stable")
    return a.shape[dim] - 1 - np.flip(backwards, dim)


def _cpu_sort_index(a, dim, descending, stable):
    """sort's order: PyTorch's CPU sort is std::sort unless ``stable``, which (an insertion
    sort up to 16 elements) keeps equal elements in order only in short rows."""
    index = _sort_index(a, dim, descending)
    if stable or a.ndim == 0 or a.shape[dim] <= 16:
        return index
    compare = stl_order.greater_nan_first if descending else stl_order.less_nan_last
    return stl_order.replayed(a, dim, index, lambda row: stl_order.sort(row, compare))


def _leading(index, dim, k):
    """The first ``k`` entries of ``index`` along ``dim``."""
    return index if index.ndim == 0 else np.take(index, np.arange(k), axis=dim)


SORT = defop("sort", TAKE_ALONG.forward, node="SortBackward0", **PICK_RULES)
SORT_STABLE = defop("sort_stable", TAKE_ALONG.forward, node="SortBackward1", **PICK_RULES)  # stable= given
TOPK = defop("topk", TAKE_ALONG.forward, node="TopkBackward0", **PICK_RULES)


def _sortable(x, name):
    """PyTorch's argument parser: ``input`` must be a tensor (complex is refused after the dims)."""
    if not isinstance(x, Tensor):
        _argparse.check_tensor(name, x)


@batched_by(lambda x, dim, descending, stable: _along_batch(x, dim, lambda b, d: sort(b, d, descending,
                                                                                   stable=stable)))
def sort(x, dim=-1, descending=False, *, stable=None):
    """Sorted values and their indices, equal elements in the order PyTorch's CPU sort
    leaves them (``_cpu_sort_index``); passing ``stable`` also names the node differently."""
    _sortable(x, "sort")
    dim = int_dim(dim, x._data.ndim, "sort")
    _no_complex_sort(x, "Sort")
    op = SORT if stable is None else SORT_STABLE
    return pick(op, x, _cpu_sort_index(x._data, dim, descending, stable), dim, True, return_types.sort)


@batched_by(lambda x, dim, descending, stable: _along_batch(x, dim, lambda b, d: argsort(b, d, descending,
                                                                                      stable=stable)))
def argsort(x, dim=-1, descending=False, *, stable=False):
    _sortable(x, "argsort")
    dim = int_dim(dim, x._data.ndim, "argsort")
    _no_complex_sort(x, "Sort")
    return _wrap(_cpu_sort_index(x._data, dim, descending, stable).astype(np.int64))


def msort(x):
    return sort(x, 0).values


def topk(x, k, dim=-1, largest=True, sorted=True):
    """The k largest (smallest) elements along ``dim``, in order; among equal elements, and
    in the order of sorted=False, the ones PyTorch's partial sort picks (stl_order)."""
    dim = int_dim(dim, x._data.ndim, "topk")
    size = x._data.shape[dim] if x._data.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if x._data.dtype.kind == "b":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    _no_complex_sort(x, "topk")
    return _topk(x, k, dim, largest, sorted)


@batched_by(lambda x, k, dim, largest, sorted: _along_batch(x, dim, lambda b, d: _topk(b, k, d, largest, sorted)))
def _topk(x, k, dim, largest, sorted):
    index = _leading(_sort_index(x._data, dim, descending=largest), dim, k)
    index = stl_order.replayed(x._data, dim, index, lambda row: stl_order.topk_row(row, k, largest, sorted),
                               every_row=not sorted)
    return pick(TOPK, x, index, dim, True, return_types.topk)


# --- selection: kthvalue, median, mode --------------------------------------------------------

KTHVALUE = defop("kthvalue", TAKE_ALONG.forward, node="KthvalueBackward0", **PICK_RULES)
MEDIAN_DIM = defop("median_dim", TAKE_ALONG.forward, node="MedianBackward1", **PICK_RULES)
NANMEDIAN_DIM = defop("nanmedian_dim", TAKE_ALONG.forward, node="NanmedianBackward1", **PICK_RULES)
MODE = defop("mode", TAKE_ALONG.forward, node="ModeBackward0", **PICK_RULES)


def kthvalue(x, k, dim=-1, keepdim=False):
    """The k-th smallest element along ``dim``; among equal elements, the one PyTorch's
    quickselect leaves at k (stl_order)."""
    dim = int_dim(dim, x._data.ndim, "kthvalue")
    size = x._data.shape[dim] if x._data.ndim else 1
    if size == 0:
        _check_nonempty(x, "kthvalue", (dim,))
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    if x._data.ndim:  # a 0-d tensor is its own k-th value, of any dtype
        _unordered(x, "kthvalue_cpu")
    return _kthvalue(x, k, dim, keepdim)


@batched_by(lambda x, k, dim, keepdim: _along_batch(x, dim, lambda b, d: _kthvalue(b, k, d, keepdim)))
def _kthvalue(x, k, dim, keepdim):
    index = _sort_index(x._data, dim)
    if index.ndim:
        index = stl_order.replayed(x._data, dim, np.take(index, [k - 1], axis=dim),
                                   lambda row: stl_order.kthvalue_row(row, k))
    return pick(KTHVALUE, x, index, dim, keepdim, return_types.kthvalue)


def _median_index(a, dim, ignore_nan):
    """The lower median's index along ``dim`` (keepdims). With NaNs: the first NaN for
    median, the median of the other elements for nanmedian."""
    if a.ndim == 0:
        return np.zeros((), dtype=np.int64)
    order = np.argsort(a, axis=dim, kind="stable")  # NaNs last, in index order
    nan = a != a
    n = a.shape[dim]
    if ignore_nan:
        rank = np.maximum((n - np.sum(nan, axis=dim, keepdims=True) - 1) // 2, 0)
        index = np.take_along_axis(order, rank, dim)
        if not np.all(nan, axis=dim).any():
            return index
        # a row of NaNs only: the one PyTorch's std::nth_element leaves first
        first_nan = stl_order.nth_element([math.nan] * n, 0, stl_order.less_nan_last)[0]
        return np.where(np.all(nan, axis=dim, keepdims=True), first_nan, index)
    index = np.take(order, [(n - 1) // 2], axis=dim)
    return np.where(np.any(nan, axis=dim, keepdims=True), np.argmax(nan, axis=dim, keepdims=True), index)


def _median_all(x, ignore_nan):
    flat = np.sort(x.ravel(), kind="stable")  # (NumPy 2.4.6's default sort can turn a +0 into -0)
    nan = flat != flat
    if flat.size == 0 or (nan.any() and not ignore_nan):
        return np.asarray(np.nan).astype(x.dtype)
    count = flat.size - int(nan.sum()) if ignore_nan else flat.size
    median = flat[max((count - 1) // 2, 0)]
    zero_signs = np.signbit(flat[flat == 0]) if median == 0 and x.dtype.kind == "f" else np.zeros(1, bool)
    if zero_signs.any() and not zero_signs.all():
        # +0 and -0 tie: the zero PyTorch's std::nth_element leaves at k, over a copy of x
        # in memory order (its clone keeps a transposed layout)
        keys = x.ravel(order="K")
        median = keys[stl_order.nth_element(keys.tolist(), max((count - 1) // 2, 0), stl_order.less_nan_last)[
            max((count - 1) // 2, 0)]]
    return median


# the whole-tensor median shares its gradient among the elements equal to it, as max() does
MEDIAN = defop("median", lambda x: _median_all(x, False), node="MedianBackward0", **TIE_SHARING_RULES)
NANMEDIAN = defop("nanmedian", lambda x: _median_all(x, True), node="NanmedianBackward0", **TIE_SHARING_RULES)


def _median(x, dim, keepdim, ignore_nan):
    """median and nanmedian. PyTorch refuses bool and complex input in the words of its
    kernel, after the checks of the shape; an empty input's median is NaN in its dtype
    (True for bool) before any."""
    name = "nanmedian" if ignore_nan else "median"
    if dim is None:
        if x._data.size:
            _unordered(x, "median_cpu")
        return _median_whole(x, ignore_nan)
    dim = int_dim(dim, x._data.ndim, name)
    _check_nonempty(x, "median", (dim,))
    _unordered(x, "median_out")
    return _median_dim(x, dim, keepdim, ignore_nan)


def _median_whole_batched(x, ignore_nan):
    if not x._data.size:  # an empty sample's median is NaN
        return per_sample(median if not ignore_nan else nanmedian, x)
    # each flattened sample's median(dim) (ties: the gradient goes to the picked one, not shared)
    return on_batch(lambda b: _median_dim(b.reshape((b.shape[0], -1)), 1, False, ignore_nan).values, x)


@batched_by(_median_whole_batched)
def _median_whole(x, ignore_nan):
    return unary(NANMEDIAN if ignore_nan else MEDIAN, x)


@batched_by(lambda x, dim, keepdim, ignore_nan: _along_batch(x, dim, lambda b, d: _median_dim(b, d, keepdim,
                                                                                               ignore_nan)))
def _median_dim(x, dim, keepdim, ignore_nan):
    index = _median_index(x._data, dim, ignore_nan)
    op, result = (NANMEDIAN_DIM, return_types.nanmedian) if ignore_nan else (MEDIAN_DIM, return_types.median)
    return pick(op, x, index, dim, keepdim, result)


def median(x, dim=None, keepdim=False):
    """The lower of the two middle elements (no averaging); NaN if there is a NaN. Among
    equal elements the index is the middle one of a stable sort, which may differ from
    PyTorch's selection algorithm."""
    return _median(x, dim, keepdim, ignore_nan=False)


def nanmedian(x, dim=None, keepdim=False):
    return _median(x, dim, keepdim, ignore_nan=True)


def _mode_index(a, dim):
    """The most frequent value's index along ``dim`` (keepdims), as PyTorch's CPU kernel
    finds it: sort, take the longest run of equal values (the smallest value among equally
    long runs) and the last element of that run in sorted order."""
    if a.ndim == 0:
        return np.zeros((), dtype=np.int64)
    order = np.moveaxis(np.argsort(a, axis=dim, kind="stable"), dim, -1)
    values = np.take_along_axis(np.moveaxis(a, dim, -1), order, -1)
    ends = np.ones(values.shape, dtype=bool)
    ends[..., :-1] = values[..., 1:] != values[..., :-1]
    starts = np.ones(values.shape, dtype=bool)
    starts[..., 1:] = ends[..., :-1]
    position = np.arange(values.shape[-1])
    run_start = np.maximum.accumulate(np.where(starts, position, 0), axis=-1)
    run_length = np.where(ends, position - run_start + 1, 0)
    best = np.argmax(run_length, axis=-1, keepdims=True)
    return np.moveaxis(np.take_along_axis(order, best, -1), -1, dim)


def mode(x, dim=-1, keepdim=False):
    dim = int_dim(dim, x._data.ndim, "mode")
    _check_nonempty(x, "mode", (dim,))
    if x._data.size and x._data.ndim:  # a 0-d tensor is its own mode, of any dtype; nothing has none
        _unordered(x, "mode_cpu", bool_too=False)
    return _mode(x, dim, keepdim)


@batched_by(lambda x, dim, keepdim: _along_batch(x, dim, lambda b, d: _mode(b, d, keepdim)))
def _mode(x, dim, keepdim):
    index = stl_order.replayed(x._data, dim, _mode_index(x._data, dim), stl_order.mode_row, nan_rows=True)
    return pick(MODE, x, index, dim, keepdim, return_types.mode)


# --- unique, bincount, histc: counting, with no gradient -------------------------------------------

def _no_derivative(node, error, message):
    """A node for a result that PyTorch marks as requiring grad although the op has no
    derivative: backward through it raises ``error(message)``. Not a registered op: it
    has no rules to register."""
    def refuse(g):
        raise error(message)
    return Op(node, None, node, refuse, refuse, None, False, False, False)


_UNIQUE_NODES = {
    "unique": _no_derivative("Unique2Backward0", NotImplementedError,
                             "the derivative for '_unique2' is not implemented."),
    "unique_dim": _no_derivative("UniqueDimBackward0", NotImplementedError,
                                 "the derivative for 'unique_dim' is not implemented."),
    "unique_consecutive": _no_derivative("UniqueConsecutiveBackward0", NotImplementedError,
                                         "the derivative for 'unique_consecutive' is not implemented."),
}
_BINCOUNT_NODE = _no_derivative("torch::autograd::NotImplemented", RuntimeError,
                                "derivative for aten::bincount is not implemented")

# and what forward AD says for each, in PyTorch's words
_FORWARD_AD_ERRORS = {
    "Unique2Backward0": not_implemented("_unique2"),
    "UniqueDimBackward0": not_implemented("unique_dim"),
    "UniqueConsecutiveBackward0": not_implemented("unique_consecutive"),
    "torch::autograd::NotImplemented": not_differentiable("bincount"),
}


def _without_derivative(op, data, source):
    """``data`` as a tensor; it requires grad (through ``op``, which refuses backward)
    when ``source`` does, as PyTorch's result does."""
    out = _wrap(data)
    if source is not None and source._requires_grad and GRAD_MODE.enabled and data.dtype.kind in "fc":
        record(op, out, (source,), ())
    if FORWARD_AD.active and source is not None:
        refuse_tangents((source,), _FORWARD_AD_ERRORS[op.name])
    return out


def _unique_checks(x, dim):
    """unique's and unique_consecutive's checks, in PyTorch's order: the dtype (complex
    numbers have no order), then ``dim`` (wrapped), then the empty dims along it."""
    a = x._data
    if a.dtype.kind == "c":
        raise _dtype.not_implemented("unique" if dim is None else "unique_dim", a.dtype)
    if dim is None:
        return None
    if a.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    dim = wrap_dim(dim, a.ndim)
    if a.size == 0:
        if a.shape[dim] != 0:
            raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
        if a.shape.count(0) > 1:
            raise RuntimeError("Number of zero sized dimensions is more than one, so unique cannot be applied ")
    return dim


def _unique_dim(a, dim):
    """np.unique along ``dim``; an empty ``dim`` gives nothing. With a NaN or both zeros,
    PyTorch's own steps (see ``_unique_dim_replayed``)."""
    if a.shape[dim] == 0:
        return a, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if a.dtype.kind == "f":
        zero = a == 0
        if np.isnan(a).any() or ((zero & np.signbit(a)).any() and (zero & ~np.signbit(a)).any()):
            return _unique_dim_replayed(a, dim)
    return np.unique(a, return_inverse=True, return_counts=True, axis=dim)


def _rows_less(a, b):
    # PyTorch's unique_dim order: the first element that is < or > decides (a NaN never does)
    for left, right in zip(a, b):
        if left < right:
            return True
        if left > right:
            return False
    return False


def _unique_dim_replayed(a, dim):
    """PyTorch's CPU unique_dim: std::sort of the slices (lexicographic, NaN comparing false
    either way), then each slice kept unless it equals (==, so never with a NaN) the last
    one kept; -0. and 0. merge into the first in that order."""
    moved = np.moveaxis(a, dim, 0)
    rows = moved.reshape(moved.shape[0], -1)
    keys = [tuple(r) for r in rows.tolist()]
    order = stl_order.sort(keys, _rows_less)
    kept, counts, start = [order[0]], [], 0
    inverse = np.zeros(len(keys), dtype=np.int64)
    for position in range(1, len(order)):
        current = order[position]
        if not builtins.all(left == right for left, right in zip(keys[current], keys[kept[-1]])):
            kept.append(current)
            counts.append(position - start)
            start = position
        inverse[current] = len(kept) - 1
    counts.append(len(order) - start)
    values = np.moveaxis(moved[kept], 0, dim)
    return values, inverse, np.asarray(counts, dtype=np.int64)


def _unique_results(x, node, values, inverse, counts, return_inverse, return_counts):
    out = [_without_derivative(_UNIQUE_NODES[node], values, x)]
    if return_inverse:
        out.append(_wrap(np.asarray(inverse, dtype=np.int64)))
    if return_counts:
        out.append(_wrap(np.asarray(counts, dtype=np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


_REPLAY_AT_MOST = 10 ** 5  # elements: the replay is a Python loop; past it, the first zero in memory order


def _unique_zero_sign(flat, values):
    """PyTorch's unique std::sorts the elements and keeps the first of each run of equals: of
    -0. and 0. the one libstdc++'s introsort (NaN last) leaves first (the first in memory order below 17
    elements, where it is an insertion sort), replayed where both are present."""
    zeros = flat[flat == 0] if flat.dtype.kind == "f" else flat[:0]
    if not (np.signbit(zeros).any() and (~np.signbit(zeros)).any()):
        return values
    if flat.size <= _REPLAY_AT_MOST:
        keys = flat.tolist()
        first = next(keys[i] for i in stl_order.sort(keys, stl_order.less_nan_last) if keys[i] == 0)
    else:
        first = zeros[0]
    return np.where(values == 0, flat.dtype.type(first), values)


@batched_by(dynamic_shape("_unique2"))
def unique(x, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements (slices along ``dim``) in ascending order, as PyTorch's CPU
    kernel returns them whether or not ``sorted``. NaNs are all distinct."""
    a = x._data
    dim = _unique_checks(x, dim)
    if dim is None:
        values, inverse, counts = np.unique(a.ravel(), return_inverse=True, return_counts=True, equal_nan=False)
        inverse = inverse.reshape(a.shape)
        values = _unique_zero_sign(a.ravel(), values)
        return _unique_results(x, "unique", values, inverse, counts, return_inverse, return_counts)
    values, inverse, counts = _unique_dim(a, dim)
    return _unique_results(x, "unique_dim", values, inverse.reshape(-1), counts, return_inverse, return_counts)


def unique_consecutive(x, return_inverse=False, return_counts=False, dim=None):
    """Collapses each run of equal consecutive elements (slices along ``dim``) to one."""
    a = x._data
    if dim == 0 and a.ndim == 1:  # PyTorch's shortcut: the elements, as for dim=None
        dim = None
    dim = _unique_checks(x, dim)
    if dim is None:
        rows = a.reshape(-1, 1)
    elif a.shape[dim] == 0:
        return _unique_results(x, "unique_consecutive", a, np.zeros(0, np.int64), np.zeros(0, np.int64),
                               return_inverse, return_counts)
    else:
        rows = np.moveaxis(a, dim, 0).reshape(a.shape[dim], -1)
    new_run = np.ones(rows.shape[0], dtype=bool)
    new_run[1:] = np.any(rows[1:] != rows[:-1], axis=1)
    starts = np.flatnonzero(new_run)
    counts = np.diff(np.append(starts, rows.shape[0]))
    inverse = np.cumsum(new_run) - 1
    if dim is None:
        values, inverse = a.reshape(-1)[starts], inverse.reshape(a.shape)
    else:
        values = np.take(a, starts, axis=dim)
    return _unique_results(x, "unique_consecutive", values, inverse, counts, return_inverse, return_counts)


def bincount(input, weights=None, minlength=0):
    a = input._data
    if a.dtype.kind not in "iu":
        raise NotImplementedError(f'"bincount_cpu" not implemented for \'{_type_name(a.dtype)}\'')
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if a.ndim != 1:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    return _bincount(input, weights, minlength)


@batched_by(lambda input, weights, minlength: _bincount_rows(input, weights, minlength))
def _bincount(input, weights, minlength):
    a = input._data
    if a.size == 0:
        return _wrap(np.zeros(minlength, dtype=np.int64))
    if a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return _wrap(np.bincount(a, minlength=minlength).astype(np.int64))
    w = weights._data
    if w.ndim != 1 or w.shape[0] != a.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out_dtype = np.float32 if w.dtype == np.float32 else np.float64
    counts = np.bincount(a, weights=w.astype(np.float64), minlength=minlength).astype(out_dtype)
    return _without_derivative(_BINCOUNT_NODE, counts, weights)


@batched_by(lambda x, weights, minlength: on_batch(lambda b, w: _bincount_rows(b, w, minlength), x, weights))
def _bincount_rows(x, weights, minlength):
    """``bincount`` of each sample of a batch (1-d samples; batch dims first, one per vmap
    level) in one ``np.bincount``: row r counts into bins ``r * length...``. Every sample
    must give the same length, as PyTorch's vmap (a loop) stacks them.

    >>> vmap(lambda x: bincount(x, minlength=4))(tensor([[0, 1], [3, 3]]))  # [[1, 1, 0, 0], [0, 0, 0, 2]]
    """
    a = x._data
    lead, n = a.shape[:-1], a.shape[-1]
    rows = a.reshape((int(np.prod(lead)), n))
    if n and a.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and n and weights._data.shape != a.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    lengths = np.maximum(rows.max(axis=1) + 1, minlength) if n else np.full(rows.shape[0], minlength)
    if lengths.size and np.any(lengths != lengths[0]):
        raise _unequal_samples([(int(count),) for count in lengths])
    length = int(lengths[0]) if lengths.size else minlength
    flat = (rows + np.arange(rows.shape[0]).reshape(-1, 1) * length).reshape(-1)
    if weights is None or not n:
        counts = np.bincount(flat, minlength=rows.shape[0] * length).astype(np.int64)
        return _wrap(counts.reshape(lead + (length,)))
    w = weights._data
    out_dtype = np.float32 if w.dtype == np.float32 else np.float64
    counts = np.bincount(flat, weights=w.astype(np.float64).reshape(-1), minlength=rows.shape[0] * length)
    return _without_derivative(_BINCOUNT_NODE, counts.astype(out_dtype).reshape(lead + (length,)), weights)


def histc(input, bins=100, min=0, max=0):
    """Counts in ``bins`` equal bins between min and max (the data's range when both are
    equal); the bin of each element computed in the input's precision, as PyTorch does.
    PyTorch's order: bins, the range (from aminmax: none for complex), its checks, the bin
    edges (a linspace in the input's dtype: none for bool, an overflow check for integers),
    then the counting kernel (floats only)."""
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    return _histc_rows(input, bins, min, max, 0)


def _cpp_number(v):
    # C++'s ostream: %g, and the sign of a NaN
    return ("-nan" if np.signbit(v) else "nan") if v != v else f"{v:g}"


def _data_range(rows):
    """aminmax of each row, as PyTorch's (a NaN among two or more elements is its default
    NaN, -nan; a lone element is itself)."""
    lo, hi = rows.min(axis=1).astype(np.float64), rows.max(axis=1).astype(np.float64)
    if rows.shape[1] > 1:
        nan = np.isnan(lo)
        lo, hi = np.where(nan, -np.nan, lo), np.where(nan, -np.nan, hi)
    return lo, hi


@batched_by(lambda x, bins, min, max, batch_dims: on_batch(lambda b: _histc_rows(b, bins, min, max, batch_dims + 1), x))
def _histc_rows(x, bins, min, max, batch_dims):
    """``histc`` of each sample of ``x`` (its first ``batch_dims`` dims are batch dims, one
    per vmap level), in one ``np.bincount``: row r counts into bins ``r * bins...``; each
    sample gets its own range when ``min == max``."""
    a = x._data
    kind = a.dtype.kind
    lead = a.shape[:batch_dims]
    rows = a.reshape((int(np.prod(lead)), -1))
    lo, hi = np.full(rows.shape[0], float(min)), np.full(rows.shape[0], float(max))
    if min == max and rows.shape[1]:
        if kind == "c":
            raise _dtype.not_implemented("aminmax_cpu", a.dtype)
        lo, hi = _data_range(rows)
    same = lo == hi
    if kind == "f":  # one apart, in the input's dtype, and at least to the neighbouring numbers
        # (1e30 - 1 is 1e30, and inf - 1 is the largest float)
        # (float16 keeps them in double, checked when converted to Half below)
        below, above = (lo - 1), (hi + 1)
        if a.dtype != np.float16:
            below, above = below.astype(a.dtype), above.astype(a.dtype)
            below = np.minimum(below, np.nextafter(lo.astype(a.dtype), a.dtype.type(-np.inf)))
            above = np.maximum(above, np.nextafter(hi.astype(a.dtype), a.dtype.type(np.inf)))
        lo, hi = np.where(same, below, lo), np.where(same, above, hi)
    else:
        lo, hi = np.where(same, lo - 1, lo), np.where(same, hi + 1, hi)
    for low, high in zip(lo, hi):  # the checks, in sample order (numbers only: no loop over the values)
        if not (np.isfinite(low) and np.isfinite(high)):
            raise RuntimeError(f"torch.histc: range of [{_cpp_number(low)}, {_cpp_number(high)}] is not finite")
        if low >= high:
            raise RuntimeError("torch.histc: max must be larger than min")
    if kind == "b":
        raise _dtype.not_implemented("linspace_cpu", a.dtype)
    if kind in "iu" or a.dtype == np.float16:  # the edges converted to the input's dtype, checked (no wrapping)
        info = np.iinfo(a.dtype) if kind in "iu" else np.finfo(a.dtype)
        if ((lo < info.min) | (lo > info.max) | (hi < info.min) | (hi > info.max)).any():
            raise RuntimeError(f"value cannot be converted to type {_dtype._C_SCALAR_NAMES[a.dtype.name]} "
                               "without overflow")
    if kind != "f":
        raise _dtype.not_implemented("histogram_cpu", a.dtype)
    left, right = lo.astype(a.dtype).reshape(-1, 1), hi.astype(a.dtype).reshape(-1, 1)
    inside = (rows >= left) & (rows <= right)
    with np.errstate(over="ignore", invalid="ignore"):
        position = np.where(right > left, (rows - left) * bins / (right - left), 0).astype(np.int64)  # (float16 edges may meet)
    position = np.minimum(position, bins - 1) + np.arange(rows.shape[0]).reshape(-1, 1) * bins  # right edge: last bin
    counts = np.bincount(position[inside], minlength=rows.shape[0] * bins).astype(a.dtype)
    return _wrap(counts.reshape(lead + (bins,)))


# --- Tensor methods --------------------------------------------------------------------------

Tensor.sort = sort
Tensor.argsort = argsort
Tensor.msort = msort
Tensor.topk = topk
Tensor.kthvalue = kthvalue
Tensor.median = median
Tensor.nanmedian = nanmedian
Tensor.mode = mode
Tensor.unique = unique
Tensor.unique_consecutive = unique_consecutive
Tensor.bincount = bincount
Tensor.histc = histc
