"""Where things are: ``nonzero``, ``argwhere``, ``searchsorted``, ``bucketize``.

Their results are integer positions: plain results, no entry and no gradient. Under vmap
``nonzero`` refuses (its shape depends on the values) and ``argwhere`` needs as many
results in every sample (else PyTorch's stacking error).

>>> searchsorted(tensor([1, 3, 5]), tensor([4]))   # tensor([2])
"""
import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import Tensor, _wrap
from ..batching import any_batched, batched_by, dynamic_shape, on_batch
from .indexing import _vector

# --- integer results: where things are ------------------------------------------------------------


@batched_by(dynamic_shape("nonzero"))
def nonzero(input, *, as_tuple=False):
    """The positions of the nonzero elements: one row each (``as_tuple``: one tensor per dim)."""
    data = input._data
    if as_tuple:
        return tuple(_wrap(i) for i in np.nonzero(_vector(data)))
    return _wrap(np.argwhere(data).astype(np.int64))


@batched_by(lambda input: _argwhere_rows(input, 0))
def argwhere(input):
    return nonzero(input)


def _unequal_samples(shapes):
    """PyTorch's vmap runs ``argwhere`` (and ``bincount``, ``histc``) once per sample and
    stacks the results: its error when their shapes differ."""
    k = next(i for i, shape in enumerate(shapes) if shape != shapes[0])
    return RuntimeError(f"stack expects each tensor to be equal size, but got {list(shapes[0])} at entry 0 and "
                        f"{list(shapes[k])} at entry {k}")


@batched_by(lambda x, batch_dims: on_batch(lambda b: _argwhere_rows(b, batch_dims + 1), x))
def _argwhere_rows(x, batch_dims):
    """``argwhere`` of each sample of ``x`` (its first ``batch_dims`` dims are batch dims,
    one per vmap level) in one ``np.argwhere``: fine when every sample has as many nonzero
    elements (their rows come out grouped by sample), else PyTorch's stacking error.

    >>> vmap(argwhere)(tensor([[0, 1, 1], [1, 0, 1]]))  # [[[1], [2]], [[0], [2]]]
    """
    a = x._data
    lead, ndim = a.shape[:batch_dims], a.ndim - batch_dims
    counts = np.count_nonzero(a.reshape((int(np.prod(lead)), -1)), axis=1)
    if counts.size and np.any(counts != counts[0]):
        raise _unequal_samples([(int(c), ndim) for c in counts])
    positions = np.argwhere(a)[:, batch_dims:].astype(np.int64)
    return _wrap(positions.reshape(lead + (int(counts[0]) if counts.size else 0, ndim)))


def _search_rows(rows, values, right):
    """Where each row of ``values`` goes in the matching row of ``rows`` (both 2-d): PyTorch's
    binary search, run on every value at once (``log2(n)`` steps, no loop over rows), with
    its comparisons, so a NaN or an unsorted sequence gives PyTorch's answer, not NumPy's.

    >>> _search_rows(np.array([[1., np.nan]]), np.array([[0.5]]), False)  # NumPy would say 0
    array([[2]])
    """
    n = rows.shape[1]
    lo, hi = np.zeros(values.shape, np.int64), np.full(values.shape, n, np.int64)
    for _ in range(n.bit_length()):
        active = lo < hi
        mid = (lo + hi) // 2
        at_mid = np.take_along_axis(rows, np.minimum(mid, n - 1), 1)
        after = ~(at_mid > values) if right else ~(at_mid >= values)
        lo, hi = np.where(active & after, mid + 1, lo), np.where(active & ~after, mid, hi)
    return lo


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """Where ``input``'s values would go in ``sorted_sequence`` (each row of it, for the
    matching row of input) to keep it sorted; ``right``: after equal values."""
    seq = sorted_sequence._data
    values = input._data if isinstance(input, Tensor) else np.asarray(input)
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    if values.ndim == 0 and seq.ndim != 1:
        raise RuntimeError(f"torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension "
                           f"is 1, but we got boundaries tensor dim({seq.ndim}) and input value's dim(0) numel(1)")
    if seq.ndim == 0:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 "
                           "dimension")
    if seq.ndim > 1 and (values.ndim != seq.ndim or values.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError(f"torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           f"dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(seq.shape)} and input value tensor {list(values.shape)}")
    common = _dtype.result_dtype((sorted_sequence, input)).np
    if common.kind in "bc" and values.size:  # the kernel runs in the promoted dtype, if at all
        raise _dtype.not_implemented("searchsorted_out_cpu", common)
    return _search(sorted_sequence, input, sorter, out_int32, right, common)


@batched_by(lambda sorted_sequence, input, sorter, out_int32, right, common:
            _batch_searchsorted(sorted_sequence, input, sorter, out_int32, right))
def _search(sorted_sequence, input, sorter, out_int32, right, common):
    # both in the promoted dtype, as PyTorch casts them (a 0-d int64 value meets int16
    # boundaries as int16: it wraps)
    seq = sorted_sequence._data.astype(common, copy=False)
    values = (input._data if isinstance(input, Tensor) else np.asarray(input)).astype(common, copy=False)
    if sorter is not None:
        seq = np.take_along_axis(seq, sorter._data, -1)
    # sorted, no NaN (a lone NaN has no neighbour to fail the test): NumPy's search gives PyTorch's answer
    if seq.ndim == 1 and np.all(seq[1:] >= seq[:-1]) and np.all(seq[:1] == seq[:1]):
        out = np.searchsorted(seq, values, "right" if right else "left")
    else:
        rows = seq.reshape(int(np.prod(seq.shape[:-1])), seq.shape[-1])
        out = _search_rows(rows, values.reshape(rows.shape[0], -1 if values.size else 0), right)
    return _wrap(np.asarray(out).reshape(values.shape).astype(np.int32 if out_int32 else np.int64))


def _batch_searchsorted(boundaries, input, sorter, out_int32, right):
    """``searchsorted`` of each sample as one search of the batch: a batch of 1-d sequences
    is a 2-d sequence, each row searched for its sample's values (flattened to one row)."""
    def search(seq, values, order):
        return searchsorted(seq, values, out_int32=out_int32, right=right, sorter=order)

    if boundaries._data.ndim > 1:  # already one search per row: the batch is one more leading dim
        return on_batch(search, boundaries, input, sorter)
    if not any_batched(boundaries, sorter):  # one sequence for every value of the batch
        return on_batch(lambda values: search(boundaries, values, sorter), input)
    shape = np.shape(input._data if isinstance(input, Tensor) else input)

    def rows(seq, values, order):
        size = seq.shape[0]
        if not isinstance(values, Tensor):
            values = _wrap(np.full((size, 1), np.asarray(values)))
        out = search(seq, values.reshape((size, int(np.prod(shape)))), order)
        return out.reshape((size,) + shape)

    return on_batch(rows, boundaries, input, sorter)


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each value of ``input`` between sorted ``boundaries``: i such that
    ``boundaries[i - 1] < x <= boundaries[i]`` (``right``: ``<= x <``)."""
    if boundaries._data.ndim != 1:
        where = "bucketize: " if any_batched(input, boundaries) else ""  # vmap's own check
        raise RuntimeError(f"{where}boundaries tensor must be 1 dimension, but got dim({boundaries._data.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


# --- Tensor methods ---------------------------------------------------------------------------------

Tensor.nonzero = nonzero
Tensor.argwhere = argwhere
