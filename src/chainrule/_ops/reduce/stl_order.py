"""The orders PyTorch's CPU kernels leave equal elements in: libstdc++'s ``std::sort``,
``std::nth_element`` and ``std::partial_sort``, and PyTorch's own quickselect, replayed.

Which of several equal elements ``kthvalue``, ``median``, ``mode`` or ``topk`` returns (its
index, and the sign of a zero) is whatever these unstable algorithms leave at the chosen
place; a stable NumPy sort gives other indices. Each function here runs on one row (a
Python list) and returns the permutation of positions the algorithm ends with. They are
Python loops, so callers use them only for rows where equal elements can matter.

>>> nth_element([4, 4, 4, 4], 1, lambda a, b: a < b)[1]   # the index nth_element leaves at 1
"""
import numpy as np


def _log2(n):
    return n.bit_length() - 1


# --- heaps (std::partial_sort, and the fallbacks of sort and nth_element) -------------------

def _adjust_heap(keys, perm, first, hole, length, value, less):
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(keys[perm[first + child]], keys[perm[first + child - 1]]):
            child -= 1
        perm[first + hole] = perm[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        perm[first + hole] = perm[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2  # __push_heap
    while hole > top and less(keys[perm[first + parent]], keys[value]):
        perm[first + hole] = perm[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    perm[first + hole] = value


def _make_heap(keys, perm, first, last, less):
    length = last - first
    if length < 2:
        return
    for parent in range((length - 2) // 2, -1, -1):
        _adjust_heap(keys, perm, first, parent, length, perm[first + parent], less)


def _pop_heap(keys, perm, first, last, result, less):
    value = perm[result]
    perm[result] = perm[first]
    _adjust_heap(keys, perm, first, 0, last - first, value, less)


def _heap_select(keys, perm, first, middle, last, less):
    _make_heap(keys, perm, first, middle, less)
    for i in range(middle, last):
        if less(keys[perm[i]], keys[perm[first]]):
            _pop_heap(keys, perm, first, middle, i, less)


def _sort_heap(keys, perm, first, last, less):
    while last - first > 1:
        last -= 1
        _pop_heap(keys, perm, first, last, last, less)


# --- introsort and introselect ----------------------------------------------------------------

def _move_median_to_first(keys, perm, result, a, b, c, less):
    ka, kb, kc = keys[perm[a]], keys[perm[b]], keys[perm[c]]
    if less(ka, kb):
        pick = b if less(kb, kc) else c if less(ka, kc) else a
    else:
        pick = a if less(ka, kc) else c if less(kb, kc) else b
    perm[result], perm[pick] = perm[pick], perm[result]


def _unguarded_partition(keys, perm, first, last, pivot, less):
    while True:
        while less(keys[perm[first]], keys[perm[pivot]]):
            first += 1
        last -= 1
        while less(keys[perm[pivot]], keys[perm[last]]):
            last -= 1
        if not first < last:
            return first
        perm[first], perm[last] = perm[last], perm[first]
        first += 1


def _partition_pivot(keys, perm, first, last, less):
    mid = first + (last - first) // 2
    _move_median_to_first(keys, perm, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(keys, perm, first + 1, last, first, less)


def _insertion_sort(keys, perm, first, last, less):
    for i in range(first + 1, last):
        value = perm[i]
        if less(keys[value], keys[perm[first]]):
            perm[first + 1:i + 1] = perm[first:i]
            perm[first] = value
        else:
            _linear_insert(keys, perm, i, less)


def _linear_insert(keys, perm, i, less):
    value = perm[i]
    while less(keys[value], keys[perm[i - 1]]):
        perm[i] = perm[i - 1]
        i -= 1
    perm[i] = value


def sort(keys, less):
    """``std::sort`` (introsort: quicksort over 16 elements, heapsort past its depth
    limit, then insertion sort) of ``keys``: the permutation of positions it leaves."""
    n = len(keys)
    perm = list(range(n))
    if n < 2:
        return perm
    stack = [(0, n, 2 * _log2(n))]
    while stack:  # __introsort_loop, its recursion on the right part as a stack
        first, last, depth = stack.pop()
        while last - first > 16:
            if depth == 0:
                _heap_select(keys, perm, first, last, last, less)
                _sort_heap(keys, perm, first, last, less)
                break
            depth -= 1
            cut = _partition_pivot(keys, perm, first, last, less)
            stack.append((cut, last, depth))
            last = cut
    if n > 16:  # __final_insertion_sort
        _insertion_sort(keys, perm, 0, 16, less)
        for i in range(16, n):
            _linear_insert(keys, perm, i, less)
    else:
        _insertion_sort(keys, perm, 0, n, less)
    return perm


def nth_element(keys, nth, less, perm=None):
    """``std::nth_element`` (introselect) of ``keys`` around position ``nth``."""
    perm = list(range(len(keys))) if perm is None else perm
    first, last = 0, len(perm)
    if first == last or nth == last:
        return perm
    depth = 2 * _log2(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(keys, perm, first, nth + 1, last, less)
            perm[first], perm[nth] = perm[nth], perm[first]
            return perm
        depth -= 1
        cut = _partition_pivot(keys, perm, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(keys, perm, first, last, less)
    return perm


def partial_sort(keys, middle, less):
    """``std::partial_sort``: the first ``middle`` positions sorted, through a heap."""
    perm = list(range(len(keys)))
    _heap_select(keys, perm, 0, middle, len(perm), less)
    _sort_heap(keys, perm, 0, middle, less)
    return perm


def sort_range(keys, perm, last, less):
    """``std::sort`` of ``perm[:last]`` (positions into ``keys``), in place."""
    order = sort([keys[p] for p in perm[:last]], less)
    perm[:last] = [perm[:last][i] for i in order]
    return perm


def quick_select(keys, k, greater):
    """PyTorch's quick_select_template (SortingUtils.h, kthvalue's): a median-of-three
    quickselect around position ``k`` with the comparison ``greater`` (NaN greatest)."""
    arr, perm = list(keys), list(range(len(keys)))

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        perm[i], perm[j] = perm[j], perm[i]
    lo, hi = 0, len(arr) - 1
    while True:
        if hi <= lo:
            return perm
        if hi == lo + 1:
            if greater(arr[lo], arr[hi]):
                swap(lo, hi)
            return perm
        swap(lo + (hi - lo) // 2, lo + 1)
        if greater(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if greater(arr[lo], arr[hi]):
            swap(lo, hi)
        if greater(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while greater(pivot, arr[i]):
                i += 1
            j -= 1
            while greater(arr[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


# --- PyTorch's comparisons (NaN above every number) --------------------------------------------

def _nan(v):
    return v != v


def less(a, b):
    return a < b


def less_nan_last(a, b):
    return (not _nan(a) and _nan(b)) or a < b


def greater_nan_first(a, b):
    return (_nan(a) and not _nan(b)) or a > b


# --- the kernels' choices, row by row ---------------------------------------------------------

def topk_row(keys, k, largest, sorted):
    """The positions topk returns (TopKImpl.h): a partial sort for k * 64 <= n, else
    nth_element and, when ``sorted``, a sort of the k - 1 before the k-th."""
    compare = greater_nan_first if largest else less_nan_last
    if k == 0:
        return []
    if k * 64 <= len(keys):
        return partial_sort(keys, k, compare)[:k]
    perm = nth_element(keys, k - 1, compare)
    return (sort_range(keys, perm, k - 1, compare) if sorted else perm)[:k]


def kthvalue_row(keys, k):
    return [quick_select(keys, k - 1, greater_nan_first)[k - 1]]


def mode_row(keys):
    """mode's kernel: std::sort of (value, position) by value, then the last position of
    the first longest run of equal values."""
    perm = sort(keys, less)
    best, most, run = 0, 0, 0
    for i, p in enumerate(perm):
        run += 1
        if i == len(perm) - 1 or keys[p] != keys[perm[i + 1]]:
            if run > most:
                best, most = p, run
            run = 0
    return [best]


def replayed(a, dim, index, row_choice, every_row=False, nan_rows=False):
    """``index`` (positions along ``dim``, from a stable NumPy sort) with each row of ``a``
    that holds equal elements (or every row) replaced by ``row_choice(row as a list)``:
    only among equal elements can the two orders differ, or (``nan_rows``: mode's sort
    by ``<``, for which a NaN is equal to everything) in a row with a NaN."""
    if a.ndim == 0 or a.shape[dim] == 0 or index.shape[dim] == 0:
        return index
    rows = np.moveaxis(a, dim, -1).reshape(-1, a.shape[dim])
    chosen = np.moveaxis(index, dim, -1).reshape(-1, index.shape[dim]).copy()
    if every_row:
        replay = np.ones(len(rows), dtype=bool)
    else:
        ordered = np.sort(rows, axis=-1)
        replay = np.any(ordered[:, 1:] == ordered[:, :-1], axis=-1)
        if rows.dtype.kind in "fc":
            replay |= np.sum(rows != rows, axis=-1) > (0 if nan_rows else 1)
    for r in np.flatnonzero(replay):
        chosen[r] = row_choice(rows[r].tolist())
    shape = np.moveaxis(index, dim, -1).shape
    return np.moveaxis(chosen.reshape(shape), -1, dim)
