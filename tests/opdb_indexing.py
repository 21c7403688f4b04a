"""Op database entries for ``x[index]``, ``x[index] = v`` and the index ops: gather, scatter,
index_*, masked_*, take, put, nonzero, searchsorted (_ops/index/: indexing.py, index_put.py, along_dim.py,
gather_scatter.py, masked.py, take_put.py, searching.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

Index arrays are written out (never drawn at random) so that each sample says which
positions repeat. Ops that overwrite (scatter, index_copy, index_put, put) get no
repeated targets: which write wins is unspecified in PyTorch, and the vjp of such a
write is no transpose of its jvp there.
"""
import numpy as np

from op_db import ALL, NUMBERS, Entry, ErrorCase, Sample, setitem

I = np.int64


def _i(*values, dtype=I):
    return np.array(values, dtype=dtype)


def _only(g, position):
    """Only the array at ``position`` requires grad, where it can."""
    return (position,) if g.is_float else ()


# --- x[index] ----------------------------------------------------------------------------------


def getitem_view_samples(g):
    """Ints, slices, None, ``...`` and bools: a view, named after PyTorch's last view op."""
    yield Sample("int_tensor", (g(3, 4), np.array(1)))
    yield Sample("int_tensor_negative", (g(3, 4), (slice(None), np.array(-1))))
    yield Sample("int_tensors", (g(2, 3, 4), (np.array(1), np.array(2, dtype=np.int32))))
    yield Sample("numpy_int", (g(3, 4), np.int64(2)))
    yield Sample("negative_ints", (g(2, 3, 4), (-1, -3, -4)))
    yield Sample("bare_full_slice", (g(3, 2), slice(None)))
    yield Sample("full_slices", (g(3, 2), (slice(None), slice(0, 2))))
    yield Sample("big_stop", (g(3, 2), (slice(None), slice(0, 100))))
    yield Sample("negative_start", (g(3, 2), (slice(-100, None), 0)))
    yield Sample("steps", (g(7, 3), (slice(1, None, 3), slice(None, None, 2))))
    yield Sample("slice_then_none", (g(3, 2), (slice(0, 1), None)))
    yield Sample("none_then_slice", (g(3, 2), (None, slice(0, 1))))
    yield Sample("int_then_none", (g(3, 2), (1, None)))
    yield Sample("two_ellipses", (g(2, 3, 4), (Ellipsis, 1, Ellipsis)))
    yield Sample("empty_tuple", (g(3, 2), ()))
    yield Sample("scalar_none_ellipsis", (g(), (None, Ellipsis)))
    yield Sample("empty_slice", (g(0, 3), (slice(None), slice(1, 3))))
    yield Sample("noncontig", (g.noncontig(3, 4), (1, slice(1, None))))


def getitem_advanced_samples(g):
    """Index tensors, lists and masks, alone and mixed with ints, slices, None and ``...``."""
    yield Sample("int_slice_list", (g(2, 3, 4), (0, slice(None), [1, 2])))
    yield Sample("list_slice_list", (g(2, 3, 4), ([0, 1], slice(None), [1, 2])))
    yield Sample("slice_list_list", (g(2, 3, 4), (slice(None), [0, 2], [3, 1])))
    yield Sample("list_int", (g(2, 3, 4), ([1, 0], 1)))
    yield Sample("slice_list_int", (g(2, 3, 4), (slice(None), [2, 0], 1)))
    yield Sample("list_none_list", (g(2, 3, 4), ([1, 0], None, [1, 2])))
    yield Sample("list_ellipsis_list", (g(2, 3, 4), ([1, 0], Ellipsis, [1, 3])))
    yield Sample("int_tensor_and_list", (g(2, 3, 4), (np.array(1), [0, 2])))
    yield Sample("sliced_then_picked", (g(4, 3), (slice(1, None), [0, 2])))
    yield Sample("nested_list", (g(3, 4), [[0, 1], [2, 2]]))
    yield Sample("list_of_int_tensors", (g(3, 4), [np.array(2), np.array(1)]))
    yield Sample("float_list", (g(3, 4), [2.0, 0.7]))
    yield Sample("bool_list", (g(3, 2), [True, False, True]))
    yield Sample("byte_mask", (g(3, 2), np.array([1, 0, 1], np.uint8)))  # deprecated, with PyTorch's warning
    yield Sample("int32_tensor", (g(3, 2), _i(2, 0, 2, dtype=np.int32)))
    yield Sample("tensor_2d", (g(4, 2), _i(3, 0, 3, 1).reshape(2, 2)))
    yield Sample("broadcast_tensors", (g(3, 4), (_i(0, 2).reshape(2, 1), _i(1, 3, 0))))
    yield Sample("repeated", (g(3, 2), ([1, 1, 0, 1],)))
    yield Sample("repeated_pairs", (g(3, 4), ([1, 1, 2], [3, 3, 0])))
    yield Sample("mask_full", (g(2, 3), np.array([[True, False, True], [False, False, True]])))
    yield Sample("mask_partial", (g(2, 3, 2), (slice(None), np.array([[True, False], [False, False], [True, True]]))))
    yield Sample("mask_then_slice", (g(2, 3, 4), (np.array([[True, False, True], [False, True, True]]), slice(1, 3))))
    yield Sample("mask_then_list", (g(2, 3, 2), (np.array([True, True]), slice(None), [1, 0])))
    yield Sample("mask_none", (g(3,), np.array([False, False, False])))
    yield Sample("mask_0d", (g(3), np.array(True)))
    yield Sample("true", (g(2, 3), True))
    yield Sample("false", (g(2, 3), False))
    yield Sample("true_with_list", (g(2, 3), (True, [1, 0])))
    yield Sample("scalar_true", (g(), (True, None)))
    yield Sample("scalar_mask", (g(), np.array(False)))
    yield Sample("empty_list", (g(3, 2), []))
    yield Sample("empty_input", (g(0, 3), (slice(None), [2, 0])))
    yield Sample("empty_result_skips_bounds", (g(2, 0), [[0, 3]]))
    yield Sample("long_list", (g(3, 2), [1] * 33))
    yield Sample("noncontig", (g.noncontig(3, 4), (slice(None), [2, 0, 2])))


# --- x[index] = value ----------------------------------------------------------------------------


def setitem_samples(g):
    yield Sample("int_tensor", (g(3, 4), np.array(1), g(4)))
    yield Sample("value_leading_ones", (g(3, 4), 0, g(1, 1, 4)))
    yield Sample("none", (g(3, 2), None, g(2)))
    yield Sample("true", (g(3, 2), True, g(3, 2)))
    yield Sample("false", (g(3, 2), False, g(2)))
    yield Sample("ellipsis_scalar", (g(3, 2), Ellipsis, g()))
    yield Sample("big_stop", (g(3, 2), slice(0, 10), g(2)))
    yield Sample("steps", (g(5, 4), (slice(None, None, 2), slice(1, None, 2)), g(3, 1)))
    yield Sample("int_and_list", (g(2, 3, 4), (0, [1, 2]), g(4)))
    yield Sample("list_and_slice", (g(2, 3, 4), ([1, 0], slice(1, None)), g(2, 4)))
    yield Sample("slice_list_int", (g(2, 3, 4), (slice(1, None), [0, 2], 0), g()))
    yield Sample("pairs", (g(3, 4), ([0, 2, 1], [3, 0, 1]), g(3)))
    yield Sample("mask_number", (g(3, 4), np.array([True, False, True]), g.number()))
    yield Sample("mask_tensor", (g(2, 3), np.array([[True, False, True], [False, True, True]]), g(4)))
    yield Sample("mask_0d_value", (g(2, 3), np.array([[True, False, True], [False, True, True]]), g()))
    # every copy of a repeated index gets the gradient (PyTorch's rule): no finite differences
    yield Sample("repeated_broadcast", (g(3, 4), [0, 2, 0], g(4)), eps=None)
    yield Sample("advanced_leading_ones", (g(3, 4), [2, 0], g(1, 1, 4)))
    yield Sample("int32_index", (g(3, 2), _i(2, 0, dtype=np.int32), g(2)))
    yield Sample("empty", (g(0, 3), (slice(None), 1), g(0)))
    yield Sample("noncontig_value", (g(3, 4), (slice(None), [3, 1]), g.noncontig(3, 2)))
    yield Sample("only_value_grad", (g(3, 4), (0, [1, 2]), g(2)), grad=_only(g, 2))
    yield Sample("only_value_grad_view", (g(3, 4), (slice(1, None), 0), g(2)), grad=_only(g, 2))
    yield Sample("only_target_grad", (g(3, 4), [2, 0], g(4)), grad=_only(g, 0))


# --- along a dim --------------------------------------------------------------------------------


def index_select_samples(g):
    yield Sample("rows", (g(3, 4), 0, _i(2, 0)))
    yield Sample("columns_repeated", (g(3, 4), -1, _i(1, 3, 1, 1)))
    yield Sample("int32", (g(3, 4), 1, _i(0, 2, dtype=np.int32)))
    yield Sample("index_0d", (g(3, 4), 0, np.array(2)))
    yield Sample("empty_index", (g(3, 4), 1, _i()))
    yield Sample("scalar", (g(), 0, _i(0)))
    yield Sample("scalar_index_0d", (g(), -1, np.array(0)))
    yield Sample("empty_input", (g(0, 4), 1, _i(3, 0)))
    yield Sample("noncontig", (g.noncontig(3, 4), 0, _i(2, 2, 0)))


def index_add_samples(g):
    yield Sample("rows", (g(3, 4), 0, _i(2, 0), g(2, 4)))
    yield Sample("repeated", (g(3, 4), 1, _i(1, 3, 1), g(3, 3)))
    yield Sample("int32", (g(2, 3), -1, _i(0, 2, dtype=np.int32), g(2, 2)))
    yield Sample("index_0d", (g(3, 2), 0, np.array(1), g(1, 2)))
    yield Sample("scalar", (g(), 0, _i(0), g()))
    yield Sample("empty", (g(3, 2), 0, _i(), g(0, 2)))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, _i(3, 0), g.noncontig(3, 2)))


def index_copy_samples(g):
    yield Sample("rows", (g(3, 4), 0, _i(2, 0), g(2, 4)))
    yield Sample("columns", (g(3, 4), -1, _i(3, 1, 0), g(3, 3)))
    yield Sample("index_0d", (g(3, 2), 0, np.array(1), g(1, 2)))
    yield Sample("scalar", (g(), 0, _i(0), g()))
    yield Sample("empty", (g(3, 2), 1, _i(), g(3, 0)))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, _i(3, 0), g.noncontig(3, 2)))


def index_fill_samples(g):
    yield Sample("rows", (g(3, 4), 0, _i(2, 0), g.number()))
    yield Sample("negative_repeated", (g(3, 4), 1, _i(-1, 3, 0), g.number()))
    yield Sample("index_0d", (g(3, 2), -1, np.array(1), g.number()))
    yield Sample("scalar", (g(), 0, _i(0), g.number()))
    yield Sample("empty", (g(3, 2), 0, _i(), g.number()))
    yield Sample("tensor_value", (g(3, 4), 1, _i(1, 2), g()))
    yield Sample("tensor_value_repeated", (g(3, 4), 1, _i(2, 2, 0), g()))  # the value's gradient counts once
    yield Sample("noncontig", (g.noncontig(3, 4), 1, _i(3, 0), g()))


# --- gather and scatter --------------------------------------------------------------------------


def gather_samples(g):
    yield Sample("rows", (g(3, 4), 0, _i(0, 2, 1, 0, 2, 2, 0, 1).reshape(2, 4)))
    yield Sample("columns_smaller", (g(3, 4), 1, _i(3, 0, 1, 1).reshape(2, 2)))
    yield Sample("negative_dim_3d", (g(2, 3, 2), -1, _i(1, 0, 0, 1, 1, 1).reshape(1, 3, 2)))
    yield Sample("int32", (g(3, 2), 0, _i(2, 0, dtype=np.int32).reshape(1, 2)))
    yield Sample("scalar", (g(), 0, np.array(0)))
    yield Sample("scalar_vector_index", (g(), 0, _i(0, 0)))
    yield Sample("vector_index_0d", (g(3), 0, np.array(2)))
    yield Sample("empty_index", (g(3, 2), 1, np.zeros((3, 0), I)))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, _i(3, 0, 0, 1, 2, 2).reshape(3, 2)))


# each target of a column is written once: the order of writes can't matter
_ONCE_ROWS = _i(0, 2, 1, 0, 2, 1, 0, 1).reshape(2, 4)


def scatter_samples(g):
    yield Sample("rows", (g(3, 4), 0, _ONCE_ROWS, g(2, 4)))
    yield Sample("src_larger", (g(3, 4), 1, _i(3, 0, 1, 2).reshape(2, 2), g(2, 2)))
    yield Sample("index_smaller", (g(3, 4), 0, _ONCE_ROWS[:, :2], g(2, 2)))
    yield Sample("int32", (g(3, 2), -2, _i(2, 0, dtype=np.int32).reshape(1, 2), g(1, 2)))
    yield Sample("scalar", (g(), 0, np.array(0), g()))
    yield Sample("empty_index", (g(3, 2), 1, np.zeros((3, 0), I), g(3, 0)))
    yield Sample("noncontig", (g.noncontig(3, 4), 0, _ONCE_ROWS, g.noncontig(2, 4)))


def scatter_value_samples(g):
    yield Sample("rows", (g(3, 4), 0, _i(0, 2, 1, 0, 0, 2, 1, 1).reshape(2, 4), g.number()))
    yield Sample("int_value", (g(3, 2), 1, _i(1, 0).reshape(2, 1), 2))
    yield Sample("scalar", (g(), 0, np.array(0), g.number()))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, _i(3, 3, 0).reshape(3, 1), g.number()))


def scatter_add_samples(g):
    yield Sample("rows_repeated", (g(3, 4), 0, _i(0, 2, 2, 0, 2, 2, 0, 1).reshape(2, 4), g(2, 4)))
    yield Sample("index_smaller", (g(3, 4), 1, _i(3, 3, 1).reshape(3, 1), g(3, 1)))
    yield Sample("scalar", (g(), 0, np.array(0), g()))
    yield Sample("empty_index", (g(3, 2), 1, np.zeros((3, 0), I), g(3, 0)))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, _i(0, 0, 3, 2, 1, 1).reshape(3, 2), g.noncontig(3, 2)))


def scatter_reduce_samples(g):
    # repeated targets, untouched positions; src as large as index (PyTorch's backward needs it)
    index = _i(0, 2, 2, 0, 2, 2, 0, 1).reshape(2, 4)
    for include_self in (True, False):
        word = "self" if include_self else "no_self"
        yield Sample(f"rows_{word}", (g(3, 4), 0, index, g(2, 4), include_self))
        yield Sample(f"columns_{word}", (g(2, 3), 1, _i(1, 1, 0, 2, 2, 2).reshape(2, 3), g(2, 3), include_self))
        yield Sample(f"scalar_{word}", (g(), 0, np.array(0), g(), include_self))
    yield Sample("empty_index", (g(3, 2), 1, np.zeros((3, 0), I), g(3, 0), True))


def scatter_prod_zero_samples(g):
    """prod's gradient with zeros: one zero among the values reduced into a position."""
    x = np.array([[1.5, 0.0], [2.0, -1.0], [0.5, 3.0]], g.dtype)
    src = np.array([[0.0, 2.0], [1.5, 0.0]], g.dtype)
    index = _i(1, 2, 2, 1).reshape(2, 2)
    yield Sample("zeros_self", (x, 0, index, src, True))
    yield Sample("zeros_no_self", (x, 0, index, src, False))


def scatter_legacy_samples(g):
    yield Sample("add", (g(3, 4), 0, _i(0, 2, 2, 0, 2, 2, 0, 1).reshape(2, 4), g(2, 4), "add"), grad=())
    yield Sample("multiply", (g(3, 2), 1, _i(1, 1, 0, 1).reshape(2, 2), g(2, 2), "multiply"), grad=())


def take_along_dim_samples(g):
    yield Sample("rows", (g(3, 4), _i(0, 2, 1, 0, 2, 2, 0, 1).reshape(2, 4), 0))
    yield Sample("broadcast_index", (g(3, 4), _i(0, 3).reshape(1, 2), 1))
    yield Sample("broadcast_input", (g(3, 1), _i(0, 2, 1, 1).reshape(1, 4), 0))
    yield Sample("negative_dim", (g(2, 3), _i(2, 0, 1, 1).reshape(2, 2), -1))
    yield Sample("flat", (g(3, 4), _i(11, 0, 5, 5).reshape(2, 2), None))
    yield Sample("flat_scalar", (g(), np.array(0), None))


# --- masks ------------------------------------------------------------------------------------------

_M23 = np.array([[True, False, True], [False, False, True]])


def masked_fill_samples(g):
    yield Sample("matrix", (g(2, 3), _M23, g.number()))
    yield Sample("broadcast_mask", (g(2, 3), np.array([True, False, True]), g.number()))
    yield Sample("broadcast_input", (g(3), _M23, g.number()))
    yield Sample("tensor_value", (g(2, 3), _M23, g()))
    yield Sample("tensor_value_broadcast", (g(2, 1), _M23, g()))
    yield Sample("int_value", (g(2, 3), _M23, 3))
    yield Sample("scalar", (g(), np.array(True), g.number()))
    yield Sample("empty", (g(0, 3), np.zeros((0, 3), bool), g.number()))
    yield Sample("noncontig", (g.noncontig(3, 2), np.array([[True, False], [False, False], [True, True]]), g()))


def masked_scatter_samples(g):
    yield Sample("matrix", (g(2, 3), _M23, g(2, 3)))
    yield Sample("source_larger", (g(2, 3), _M23, g(7)))
    yield Sample("broadcast_mask", (g(2, 3), np.array([True, False, True]), g(5)))
    yield Sample("broadcast_input", (g(3), _M23, g(3, 2)))
    yield Sample("no_trues", (g(2, 3), np.zeros((2, 3), bool), g(2)))
    yield Sample("scalar", (g(), np.array(True), g()))
    yield Sample("noncontig", (g.noncontig(3, 2), np.array([[True, False], [False, False], [True, True]]),
                               g.noncontig(2, 2)))


def masked_select_samples(g):
    yield Sample("matrix", (g(2, 3), _M23))
    yield Sample("broadcast_mask", (g(2, 3), np.array([True, False, True])))
    yield Sample("broadcast_input", (g(3), _M23))
    yield Sample("no_trues", (g(2, 3), np.zeros(3, bool)))
    yield Sample("scalar", (g(), np.array(True)))
    yield Sample("empty", (g(0, 3), np.zeros((0, 3), bool)))
    yield Sample("noncontig", (g.noncontig(3, 2), np.array([[True, False], [False, False], [True, True]])))


# --- flat indices --------------------------------------------------------------------------------


def take_samples(g):
    yield Sample("vector_index", (g(3, 4), _i(0, 11, 5, 5)))
    yield Sample("negative", (g(3, 4), _i(-1, -12, 3)))
    yield Sample("index_2d", (g(2, 3), _i(5, 0, 1, 5).reshape(2, 2)))
    yield Sample("index_0d", (g(2, 3), np.array(4)))
    yield Sample("scalar", (g(), _i(0, -1)))
    yield Sample("empty", (g(0, 2), _i()))
    yield Sample("noncontig", (g.noncontig(3, 4), _i(1, 2, 7)))


def put_samples(g):
    yield Sample("vector", (g(3, 4), _i(0, 11, 5), g(3), False))
    yield Sample("negative", (g(3, 4), _i(-1, 2), g(2), False))
    yield Sample("accumulate", (g(2, 3), _i(5, 0, 5, 5), g(2, 2), True))
    yield Sample("scalar", (g(), np.array(0), g(), False))
    yield Sample("noncontig", (g.noncontig(3, 4), _i(1, 7), g.noncontig(2), True))


# --- index_put ---------------------------------------------------------------------------------------


def index_put_samples(g):
    yield Sample("rows", (g(3, 4), (_i(2, 0),), g(2, 4), False))
    yield Sample("pairs", (g(3, 4), (_i(0, 2, 1), _i(3, 0, 3)), g(3), False))
    yield Sample("broadcast_values", (g(3, 4), (_i(2, 0),), g(4), False))
    yield Sample("mask", (g(2, 3), (_M23,), g(3), False))
    yield Sample("mask_0d_value", (g(2, 3), (_M23,), g(), False))
    yield Sample("int32", (g(3, 2), (_i(1, dtype=np.int32),), g(2), False))
    yield Sample("accumulate_repeated", (g(3, 4), (_i(2, 0, 2),), g(3, 4), True))
    yield Sample("accumulate_pairs", (g(3, 4), (_i(1, 1), _i(2, 2)), g(), True))
    yield Sample("accumulate_mask", (g(2, 3), (_M23,), g(3), True))
    yield Sample("byte_mask", (g(2, 3), (_M23.astype(np.uint8),), g(3), False))
    yield Sample("empty", (g(3, 2), (_i(),), g(0, 2), True))
    yield Sample("noncontig", (g.noncontig(3, 4), (_i(2, 0),), g.noncontig(2, 4), False))


# --- integer results -------------------------------------------------------------------------------


def nonzero_samples(g):
    x = g(3, 4)
    x[0, 1] = x[2, 2] = 0
    yield Sample("matrix", (x,), grad=())
    yield Sample("scalar", (g(),), grad=())
    yield Sample("scalar_zero", (np.zeros((), g.dtype),), grad=())
    yield Sample("empty", (g(0, 3),), grad=())
    yield Sample("noncontig", (g.noncontig(3, 4),), grad=())
    yield Sample("bool", (_M23,), grad=())


def searchsorted_samples(g):
    seq = np.sort(g(6))
    values = g(2, 3)
    yield Sample("left", (seq, values, False, None), grad=())
    yield Sample("right_ties", (seq, np.concatenate([seq[1:3], values[0]]), True, None), grad=())
    yield Sample("side_right", (seq, seq[2:5].copy(), False, "right"), grad=())
    yield Sample("side_left", (seq, seq[2:5].copy(), False, "left"), grad=())
    yield Sample("batched", (np.sort(g(2, 4), axis=-1), g(2, 3), False, None), grad=())
    yield Sample("empty_values", (seq, g(0), False, None), grad=())
    yield Sample("noncontig", (seq, g.noncontig(3, 2), True, None), grad=())


def searchsorted_scalar_samples(g):
    seq = np.sort(g(5))
    yield Sample("float", (seq, 0.25), grad=())
    yield Sample("int", (seq, 1), grad=())


def bucketize_samples(g):
    boundaries = np.sort(g(5))
    yield Sample("matrix", (g(2, 3), boundaries, False), grad=())
    yield Sample("right", (np.concatenate([boundaries[1:3], g(2)]), boundaries, True), grad=())
    yield Sample("scalar", (g(), boundaries, False), grad=())


def searchsorted_sorter_samples(g):
    seq = g(5)
    yield Sample("sorter", (seq, g(4), np.argsort(seq, kind="stable").astype(I)), grad=())


# --- the entries ---------------------------------------------------------------------------------------

_SCATTER_REDUCE_COVERS = ("scatter_reduce", "gather", "scatter_add", "scatter_value")

ENTRIES = [
    # x[index]: the view part, then index tensors
    Entry("getitem_view", lambda lib, x, index: x[index], getitem_view_samples,
          covers=("select", "slice", "index_unsqueeze", "alias", "index_backward"), dtypes=ALL),
    Entry("getitem_indexed", lambda lib, x, index: x[index], getitem_advanced_samples,
          covers=("index", "index_backward", "select", "slice", "index_unsqueeze"), dtypes=ALL),
    Entry("setitem_forms", lambda lib, x, index, value: setitem(x * 1, index, value), setitem_samples,
          covers=("copy_slices", "index_put", "index", "select", "slice", "mul_scalar", "fill_tensor", "copy",
                  "index_unsqueeze", "view", "expand"), dtypes=NUMBERS),
    Entry("index_put", lambda lib, x, indices, values, acc: lib.index_put(x, indices, values, acc), index_put_samples,
          covers=("index_put", "index"), dtypes=ALL),
    Entry("index_put_", lambda lib, x, indices, values, acc: (x * 1).index_put_(indices, values, accumulate=acc),
          index_put_samples, covers=("index_put", "index", "mul_scalar"), dtypes=NUMBERS),
    # along a dim
    Entry("index_select", lambda lib, x, dim, index: lib.index_select(x, dim, index), index_select_samples,
          covers=("index_select", "index_add"), dtypes=ALL),
    Entry("index_add", lambda lib, x, dim, index, src: lib.index_add(x, dim, index, src), index_add_samples,
          covers=("index_add", "index_select"), dtypes=ALL),
    Entry("index_add_alpha", lambda lib, x, dim, index, src: x.index_add(dim, index, src, alpha=-2),
          index_add_samples, covers=("index_add", "index_select", "mul_scalar"), dtypes=NUMBERS),
    Entry("index_add_", lambda lib, x, dim, index, src: (x * 1).index_add_(dim, index, src, alpha=3),
          index_add_samples, covers=("index_add", "index_select", "mul_scalar")),
    Entry("index_copy", lambda lib, x, dim, index, src: lib.index_copy(x, dim, index, src), index_copy_samples,
          covers=("index_copy", "index_fill", "index_select"), dtypes=ALL),
    Entry("index_copy_", lambda lib, x, dim, index, src: (x * 1).index_copy_(dim, index, src), index_copy_samples,
          covers=("index_copy", "index_fill", "index_select", "mul_scalar")),
    Entry("index_fill", lambda lib, x, dim, index, value: lib.index_fill(x, dim, index, value), index_fill_samples,
          covers=("index_fill", "index_fill_tensor", "index_select", "sum"), dtypes=ALL),
    Entry("index_fill_", lambda lib, x, dim, index, value: (x * 1).index_fill_(dim, index, value),
          index_fill_samples, covers=("index_fill", "index_fill_tensor", "mul_scalar")),
    # gather and scatter
    Entry("gather", lambda lib, x, dim, index: lib.gather(x, dim, index), gather_samples,
          covers=("gather", "scatter_add"), dtypes=ALL),
    Entry("scatter", lambda lib, x, dim, index, src: lib.scatter(x, dim, index, src), scatter_samples,
          covers=("scatter", "scatter_value", "gather"), dtypes=ALL),
    Entry("scatter_", lambda lib, x, dim, index, src: (x * 1).scatter_(dim, index, src), scatter_samples,
          covers=("scatter", "scatter_value", "gather", "mul_scalar")),
    Entry("scatter_value", lambda lib, x, dim, index, value: x.scatter(dim, index, value), scatter_value_samples,
          covers=("scatter_value",), dtypes=ALL),
    Entry("scatter_value_kwarg", lambda lib, x, dim, index, value: lib.scatter(x, dim, index, value=value),
          scatter_value_samples, covers=("scatter_value",)),
    Entry("scatter_legacy_reduce", lambda lib, x, dim, index, src, reduce: x.scatter(dim, index, src, reduce=reduce),
          scatter_legacy_samples, covers=(), dtypes=NUMBERS),
    Entry("scatter_add", lambda lib, x, dim, index, src: lib.scatter_add(x, dim, index, src), scatter_add_samples,
          covers=("scatter_add", "gather"), dtypes=ALL),
    Entry("scatter_add_", lambda lib, x, dim, index, src: (x * 1).scatter_add_(dim, index, src), scatter_add_samples,
          covers=("scatter_add", "gather", "mul_scalar")),
    *[Entry(f"scatter_reduce_{reduce}",
            lambda lib, x, dim, index, src, inc, reduce=reduce: lib.scatter_reduce(x, dim, index, src, reduce,
                                                                                 include_self=inc),
            scatter_reduce_samples, covers=_SCATTER_REDUCE_COVERS + extra, dtypes=NUMBERS)
      for reduce, extra in (("sum", ()), ("prod", ("masked_fill",)), ("mean", ("masked_fill",)), ("amax", ()),
                            ("amin", ()))],
    Entry("scatter_reduce_prod_zeros",
          lambda lib, x, dim, index, src, inc: x.scatter_reduce(dim, index, src, "prod", include_self=inc),
          scatter_prod_zero_samples, covers=_SCATTER_REDUCE_COVERS + ("masked_fill",)),
    # mean, whose rules don't read x's values: test_ops traces the array that the in-place
    # write then overwrites, so its jvp check would see x's new values
    Entry("scatter_reduce_", lambda lib, x, dim, index, src, inc: (x * 1).scatter_reduce_(dim, index, src, "mean",
                                                                                        include_self=inc),
          scatter_reduce_samples, covers=_SCATTER_REDUCE_COVERS + ("masked_fill", "mul_scalar")),
    Entry("take_along_dim", lambda lib, x, index, dim: lib.take_along_dim(x, index, dim), take_along_dim_samples,
          covers=("gather", "scatter_add", "expand", "view"), dtypes=ALL),
    # masks
    Entry("masked_fill", lambda lib, x, mask, value: lib.masked_fill(x, mask, value), masked_fill_samples,
          covers=("masked_fill", "masked_fill_tensor", "masked_select", "sum"), dtypes=ALL),
    Entry("masked_fill_", lambda lib, x, mask, value: (x * 1).masked_fill_(mask, value),
          lambda g: (s for s in masked_fill_samples(g) if "broadcast_input" not in s.name
                     and s.name != "tensor_value_broadcast"),
          covers=("masked_fill", "masked_fill_tensor", "mul_scalar")),
    Entry("masked_scatter", lambda lib, x, mask, source: lib.masked_scatter(x, mask, source), masked_scatter_samples,
          covers=("masked_scatter", "masked_scatter_backward", "masked_fill"), dtypes=ALL),
    Entry("masked_select", lambda lib, x, mask: lib.masked_select(x, mask), masked_select_samples,
          covers=("masked_select", "masked_scatter"), dtypes=ALL),
    # flat indices
    Entry("take", lambda lib, x, index: lib.take(x, index), take_samples, covers=("take", "put"), dtypes=ALL),
    Entry("put", lambda lib, x, index, source, acc: lib.put(x, index, source, acc), put_samples,
          covers=("put", "take"), dtypes=ALL),
    Entry("put_", lambda lib, x, index, source, acc: (x * 1).put_(index, source, acc), put_samples,
          covers=("put", "take", "mul_scalar")),
    # integer results
    Entry("nonzero", lambda lib, x: lib.nonzero(x), nonzero_samples, covers=(), dtypes=ALL),
    Entry("nonzero_tuple", lambda lib, x: x.nonzero(as_tuple=True), nonzero_samples, covers=(), dtypes=ALL),
    Entry("argwhere", lambda lib, x: x.argwhere(), nonzero_samples, covers=(), dtypes=ALL),
    Entry("where_condition", lambda lib, x: lib.where(x), nonzero_samples, covers=(), dtypes=ALL),
    Entry("searchsorted", lambda lib, seq, x, right, side: lib.searchsorted(seq, x, right=right, side=side),
          searchsorted_samples, covers=(), dtypes=NUMBERS),
    Entry("searchsorted_int32", lambda lib, seq, x, right, side: lib.searchsorted(seq, x, out_int32=True, right=right),
          searchsorted_samples, covers=(), dtypes=NUMBERS),
    Entry("searchsorted_scalar", lambda lib, seq, x: lib.searchsorted(seq, x), searchsorted_scalar_samples,
          covers=(), dtypes=NUMBERS),
    Entry("searchsorted_sorter", lambda lib, seq, x, sorter: lib.searchsorted(seq, x, sorter=sorter),
          searchsorted_sorter_samples, covers=(), dtypes=NUMBERS),
    Entry("bucketize", lambda lib, x, boundaries, right: lib.bucketize(x, boundaries, right=right),
          bucketize_samples, covers=(), dtypes=NUMBERS),
    Entry("select_function", lambda lib, x, dim, index: lib.select(x, dim, index),
          lambda g: iter([Sample("row", (g(3, 4), 0, 2)), Sample("negative", (g(3, 4), -1, -4)),
                          Sample("vector", (g(3), 0, 1)), Sample("noncontig", (g.noncontig(3, 4), 1, 0))]),
          covers=("select", "index_backward"), dtypes=ALL),
]


# --- error cases: PyTorch's exception type and message ------------------------------------------------


def _m(*shape, dtype="float32"):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


def _backward(y):
    y.sum().backward()


ERRORS = [
    # x[index]
    ErrorCase("getitem_int_0d", lambda lib, x: x[1], (_m(),)),
    ErrorCase("getitem_position_in_message", lambda lib, x: x[None, ..., 4], (_m(2, 3, 4),)),
    ErrorCase("getitem_int_tensor_oob", lambda lib, x, i: x[i], (_m(2, 3), np.array(5))),
    ErrorCase("getitem_0d_tensor_too_many", lambda lib, x, i: x[i], (_m(), np.array(0))),
    ErrorCase("getitem_first_bad_element", lambda lib, x: x[[0, 5], [7, 0]], (_m(2, 3, 4),)),
    ErrorCase("getitem_bad_after_slice", lambda lib, x: x[:, [0, 1], [7, 0]], (_m(2, 3, 4),)),
    ErrorCase("getitem_bad_after_mask", lambda lib, x, m: x[m, [0, 5]], (_m(2, 3), np.array([True, True]))),
    ErrorCase("getitem_zero_size", lambda lib, x: x[:, [0, 1]], (_m(2, 0),)),
    ErrorCase("getitem_broadcast", lambda lib, x: x[[0, 1], [0, 1, 2]], (_m(3, 4),)),
    ErrorCase("getitem_broadcast_mask", lambda lib, x, m: x[m, [0, 1]], (_m(2, 3), np.array([False, False]))),
    ErrorCase("getitem_mask_then_slice", lambda lib, x, m: x[m, 0:2, 0], (_m(2, 3, 4), np.ones((2, 2), bool))),
    ErrorCase("getitem_too_many_mask", lambda lib, x, m: x[m, 0, 0], (_m(2, 3, 4), np.ones((2, 3), bool))),
    ErrorCase("getitem_int16", lambda lib, x, i: x[i], (_m(3), np.array([1], np.int16))),
    ErrorCase("getitem_float_number", lambda lib, x: x[0, 1.5], (_m(3, 4),)),
    ErrorCase("getitem_dict", lambda lib, x: x[{}], (_m(3, 4),)),
    ErrorCase("getitem_numpy_bool", lambda lib, x: x[np.True_], (_m(3, 4),)),
    ErrorCase("getitem_complex_list", lambda lib, x: x[[1j]], (_m(3, 4),)),
    ErrorCase("getitem_string", lambda lib, x: x[0, "a"], (_m(3, 4),)),
    ErrorCase("getitem_step_zero", lambda lib, x: x[::0], (_m(3, 4),)),
    ErrorCase("getitem_none_too_many", lambda lib, x: x[None, 0], (_m(),)),
    # x[index] = value
    ErrorCase("setitem_dtype", lambda lib, x, v: setitem(x, [0, 1], v), (_m(3, 4), _m(4, dtype="float64"))),
    ErrorCase("setitem_int_value_dtype", lambda lib, x, v: setitem(x, [0], v), (_m(3, 4), _m(4, dtype="int64"))),
    ErrorCase("setitem_value_shape", lambda lib, x, v: setitem(x, [0, 1], v), (_m(3, 4), _m(3))),
    ErrorCase("setitem_value_shape_view", lambda lib, x, v: setitem(x, 0, v), (_m(3, 4), _m(5))),
    ErrorCase("setitem_value_leading", lambda lib, x, v: setitem(x, [0], v), (_m(3, 4), _m(2, 1, 4))),
    ErrorCase("setitem_list_value", lambda lib, x: setitem(x, 0, [1.0, 2.0, 3.0, 4.0]), (_m(3, 4),)),
    ErrorCase("setitem_none_value", lambda lib, x: setitem(x, 0, None), (_m(3, 4),)),
    ErrorCase("setitem_complex_into_float", lambda lib, x: setitem(x, 0, 1j), (_m(3, 4),)),
    ErrorCase("setitem_oob", lambda lib, x: setitem(x, (0, 5), 1.0), (_m(3, 4),)),
    ErrorCase("setitem_oob_list", lambda lib, x: setitem(x, [0, 3], 1.0), (_m(3, 4),)),
    ErrorCase("delitem", lambda lib, x: x.__delitem__(0), (_m(3, 4),)),
    # index_put
    ErrorCase("index_put_dtype", lambda lib, x, i, v: lib.index_put(x, (i,), v), (_m(3, 4), _m(1, dtype="int64"),
                                                                                _m(1, dtype="float64"))),
    ErrorCase("index_put_values_shape", lambda lib, x, i, v: lib.index_put(x, (i,), v),
              (_m(3, 4), np.array([0, 1]), _m(3))),
    ErrorCase("index_put_oob", lambda lib, x, i, v: lib.index_put(x, (i,), v, accumulate=True),
              (_m(3, 4), np.array([0, 3]), _m())),
    ErrorCase("index_put_too_many", lambda lib, x, i, v: lib.index_put(x, (i, i, i), v),
              (_m(3, 4), np.array([0]), _m())),
    ErrorCase("index_put_float_index", lambda lib, x, i, v: lib.index_put(x, (i,), v), (_m(3, 4), _m(1), _m())),
    ErrorCase("index_put_none_index", lambda lib, x, i, v: lib.index_put(x, (None, i), v),
              (_m(3, 4), np.array([0]), _m())),
    ErrorCase("index_put_byte_mask_one_value", lambda lib, x, m, v: lib.index_put(x, (m,), v),
              (_m(2, 3), _M23.astype(np.uint8), _m(1))),
    ErrorCase("setitem_byte_mask_number", lambda lib, x, m: setitem(x, m, 1.0), (_m(2, 3), _M23.astype(np.uint8))),
    ErrorCase("index_put_number_values", lambda lib, x, i: lib.index_put(x, (i,), 1.0), (_m(3, 4), np.array([0]))),
    # along a dim
    ErrorCase("index_select_vector", lambda lib, x, i: lib.index_select(x, 0, i), (_m(3, 4), np.array([[0]]))),
    ErrorCase("index_select_dtype", lambda lib, x, i: lib.index_select(x, 0, i), (_m(3, 4), _m(1))),
    ErrorCase("index_select_oob", lambda lib, x, i: lib.index_select(x, 1, i), (_m(3, 4), np.array([0, 4]))),
    ErrorCase("index_select_negative", lambda lib, x, i: lib.index_select(x, 1, i), (_m(3, 4), np.array([-1]))),
    ErrorCase("index_select_scalar", lambda lib, x, i: lib.index_select(x, 0, i), (_m(), np.array([0, 0]))),
    ErrorCase("index_select_scalar_oob", lambda lib, x, i: lib.index_select(x, 0, i), (_m(), np.array([1]))),
    ErrorCase("index_select_dim", lambda lib, x, i: lib.index_select(x, 2, i), (_m(3, 4), np.array([0]))),
    ErrorCase("index_select_list", lambda lib, x: lib.index_select(x, 0, [0]), (_m(3, 4),)),
    ErrorCase("index_add_count", lambda lib, x, i, s: lib.index_add(x, 0, i, s), (_m(3, 4), np.array([0]), _m(2, 4))),
    ErrorCase("index_add_shape", lambda lib, x, i, s: lib.index_add(x, 0, i, s), (_m(3, 4), np.array([0]), _m(1, 3))),
    ErrorCase("index_add_dtype", lambda lib, x, i, s: lib.index_add(x, 0, i, s),
              (_m(3, 4), np.array([0]), _m(1, 4, dtype="float64"))),
    ErrorCase("index_add_index_dtype", lambda lib, x, i, s: lib.index_add(x, 0, i, s), (_m(3, 4), _m(1), _m(1, 4))),
    ErrorCase("index_add_oob", lambda lib, x, i, s: lib.index_add(x, 0, i, s), (_m(3, 4), np.array([-1]), _m(1, 4))),
    ErrorCase("index_add_index_2d", lambda lib, x, i, s: lib.index_add(x, 0, i, s),
              (_m(3, 4), np.array([[0]]), _m(1, 4))),
    ErrorCase("index_add_scalar", lambda lib, x, i, s: lib.index_add(x, 0, i, s), (_m(), np.array([0]), _m(1))),
    ErrorCase("index_copy_count", lambda lib, x, i, s: lib.index_copy(x, 0, i, s),
              (_m(3, 4), np.array([0]), _m(2, 4))),
    ErrorCase("index_copy_shape", lambda lib, x, i, s: lib.index_copy(x, 1, i, s),
              (_m(3, 4, 2), np.array([0]), _m(3, 1, 3))),
    ErrorCase("index_copy_dtype", lambda lib, x, i, s: lib.index_copy(x, 0, i, s),
              (_m(3, 4), np.array([0]), _m(1, 4, dtype="float64"))),
    ErrorCase("index_copy_int32", lambda lib, x, i, s: lib.index_copy(x, 0, i, s),
              (_m(3, 4), np.array([0], np.int32), _m(1, 4))),
    ErrorCase("index_copy_oob", lambda lib, x, i, s: lib.index_copy(x, 0, i, s), (_m(3, 4), np.array([3]), _m(1, 4))),
    ErrorCase("index_copy_index_2d", lambda lib, x, i, s: lib.index_copy(x, 0, i, s),
              (_m(3, 4), np.array([[0]]), _m(1, 4))),
    ErrorCase("index_fill_value_1d", lambda lib, x, i, v: lib.index_fill(x, 0, i, v), (_m(3, 4), np.array([0]), _m(1))),
    ErrorCase("index_fill_oob", lambda lib, x, i: lib.index_fill(x, 0, i, 1.0), (_m(3, 4), np.array([-4]))),
    ErrorCase("index_fill_int32", lambda lib, x, i: lib.index_fill(x, 0, i, 1.0), (_m(3, 4), np.array([0], np.int32))),
    ErrorCase("index_fill_index_2d", lambda lib, x, i: lib.index_fill(x, 0, i, 1.0), (_m(3, 4), np.array([[0]]))),
    ErrorCase("index_fill_overflow", lambda lib, x, i: lib.index_fill(x, 0, i, 1e20), (_m(3, 4, dtype="int32"),
                                                                                      np.array([0]))),
    # gather and scatter
    ErrorCase("gather_ndim", lambda lib, x, i: lib.gather(x, 0, i), (_m(3, 4), np.array([0, 1]))),
    ErrorCase("gather_size", lambda lib, x, i: lib.gather(x, 0, i), (_m(3, 4), np.zeros((1, 5), np.int64))),
    ErrorCase("gather_oob", lambda lib, x, i: lib.gather(x, 1, i), (_m(3, 4), np.array([[0, 4]]))),
    ErrorCase("gather_negative", lambda lib, x, i: lib.gather(x, 1, i), (_m(3, 4), np.array([[0, -1]]))),
    ErrorCase("gather_float_index", lambda lib, x, i: lib.gather(x, 1, i), (_m(3, 4), _m(1, 1))),
    ErrorCase("gather_dim", lambda lib, x, i: lib.gather(x, 2, i), (_m(3, 4), np.array([[0]]))),
    ErrorCase("scatter_ndim", lambda lib, x, i, s: lib.scatter(x, 0, i, s), (_m(3, 4), np.array([0, 1]), _m(2))),
    ErrorCase("scatter_src_ndim", lambda lib, x, i, s: lib.scatter(x, 0, i, s), (_m(3, 4), np.array([[0]]), _m(2))),
    ErrorCase("scatter_src_size", lambda lib, x, i, s: lib.scatter(x, 0, i, s),
              (_m(3, 4), np.array([[0, 1, 2]]), _m(1, 2))),
    ErrorCase("scatter_self_size", lambda lib, x, i, s: lib.scatter(x, 0, i, s),
              (_m(3, 4), np.zeros((1, 5), np.int64), _m(1, 5))),
    ErrorCase("scatter_dtype", lambda lib, x, i, s: lib.scatter(x, 0, i, s),
              (_m(3, 4), np.array([[0]]), _m(1, 1, dtype="float64"))),
    ErrorCase("scatter_oob", lambda lib, x, i, s: lib.scatter(x, 0, i, s), (_m(3, 4), np.array([[3]]), _m(1, 1))),
    ErrorCase("scatter_float_index", lambda lib, x, i, s: lib.scatter(x, 0, i, s), (_m(3, 4), _m(1, 1), _m(1, 1))),
    ErrorCase("scatter_bad_reduce", lambda lib, x, i, s: lib.scatter(x, 0, i, s, reduce="max"),
              (_m(3, 4), np.array([[1]]), _m(1, 1))),
    ErrorCase("scatter_legacy_backward", lambda lib, x, i, s: _backward(lib.scatter(x.requires_grad_(), 0, i, s,
                                                                                    reduce="add")),
              (_m(3, 4), np.array([[1]]), _m(1, 1))),
    ErrorCase("scatter_add_dtype", lambda lib, x, i, s: lib.scatter_add(x, 0, i, s),
              (_m(3, 4), np.array([[0]]), _m(1, 1, dtype="float64"))),
    ErrorCase("scatter_add_number", lambda lib, x, i: lib.scatter_add(x, 0, i, 1.0), (_m(3, 4), np.array([[0]]))),
    ErrorCase("scatter_reduce_name", lambda lib, x, i, s: lib.scatter_reduce(x, 0, i, s, "foo"),
              (_m(3, 4), np.array([[0]]), _m(1, 1))),
    ErrorCase("scatter_reduce_dtype", lambda lib, x, i, s: lib.scatter_reduce(x, 0, i, s, "sum"),
              (_m(3, 4), np.array([[0]]), _m(1, 1, dtype="float64"))),
    ErrorCase("take_along_dim_ndim", lambda lib, x, i: lib.take_along_dim(x, i, 0), (_m(3, 4), np.array([0, 1]))),
    ErrorCase("take_along_dim_int32", lambda lib, x, i: lib.take_along_dim(x, i, 0),
              (_m(3, 4), np.array([[0]], np.int32))),
    ErrorCase("take_along_dim_broadcast", lambda lib, x, i: lib.take_along_dim(x, i, 0),
              (_m(3, 4), np.array([[0, 1]]))),
    ErrorCase("take_along_dim_scalar", lambda lib, x, i: lib.take_along_dim(x, i, 0), (_m(), np.array(0))),
    ErrorCase("take_along_dim_noncontig", lambda lib, x, i: lib.take_along_dim(x.t(), i), (_m(2, 3), np.array([0]))),
    # masks
    ErrorCase("masked_fill_byte_mask", lambda lib, x, m: lib.masked_fill(x, m, 1.0), (_m(2, 3), np.ones((2, 3), np.uint8))),
    ErrorCase("masked_fill_long_mask", lambda lib, x, m: lib.masked_fill(x, m, 1.0), (_m(2, 3), _m(2, 3, dtype="int64"))),
    ErrorCase("masked_fill_value_1d", lambda lib, x, m, v: lib.masked_fill(x, m, v), (_m(2, 3), np.ones(3, bool), _m(1))),
    ErrorCase("masked_fill_broadcast", lambda lib, x, m: lib.masked_fill(x, m, 1.0), (_m(3, 4), np.ones(2, bool))),
    ErrorCase("masked_fill_inplace_shape", lambda lib, x, m: x.masked_fill_(m, 1.0), (_m(4), np.ones((3, 4), bool))),
    ErrorCase("masked_fill_overflow", lambda lib, x, m: lib.masked_fill(x, m, float("inf")),
              (_m(3, dtype="int64"), np.ones(3, bool))),
    ErrorCase("masked_scatter_byte_mask", lambda lib, x, m, s: lib.masked_scatter(x, m, s),
              (_m(2, 3), np.ones((2, 3), np.uint8), _m(6))),
    ErrorCase("masked_scatter_dtype", lambda lib, x, m, s: lib.masked_scatter(x, m, s),
              (_m(2, 3), np.ones((2, 3), bool), _m(6, dtype="float64"))),
    ErrorCase("masked_scatter_short", lambda lib, x, m, s: lib.masked_scatter(x, m, s),
              (_m(2, 3), np.ones((2, 3), bool), _m(5))),
    ErrorCase("masked_select_byte_mask", lambda lib, x, m: lib.masked_select(x, m), (_m(2, 3), np.ones(3, np.uint8))),
    ErrorCase("masked_select_broadcast", lambda lib, x, m: lib.masked_select(x, m), (_m(3, 4), np.ones(2, bool))),
    # flat indices
    ErrorCase("take_int32", lambda lib, x, i: lib.take(x, i), (_m(3, 4), np.array([0], np.int32))),
    ErrorCase("take_oob", lambda lib, x, i: lib.take(x, i), (_m(3, 4), np.array([0, 12]))),
    ErrorCase("take_negative_oob", lambda lib, x, i: lib.take(x, i), (_m(3, 4), np.array([-13]))),
    ErrorCase("take_empty_input", lambda lib, x, i: lib.take(x, i), (_m(0), np.array([0]))),
    # integer results
    ErrorCase("searchsorted_scalar_sequence", lambda lib, s, x: lib.searchsorted(s, x), (_m(), _m(2))),
    ErrorCase("searchsorted_side", lambda lib, s, x: lib.searchsorted(s, x, side="middle"), (_m(3), _m(2))),
    ErrorCase("searchsorted_opposites", lambda lib, s, x: lib.searchsorted(s, x, side="left", right=True),
              (_m(3), _m(2))),
    ErrorCase("searchsorted_batch", lambda lib, s, x: lib.searchsorted(s, x), (_m(2, 3), _m(3, 1))),
    ErrorCase("searchsorted_bool", lambda lib, s, x: lib.searchsorted(s, x),
              (np.array([False, True]), np.array([True]))),
    ErrorCase("bucketize_boundaries_2d", lambda lib, x, b: lib.bucketize(x, b), (_m(2), _m(1, 3))),
    ErrorCase("select_function_oob", lambda lib, x: lib.select(x, 1, 4), (_m(3, 4),)),
]

KNOWN_BUGS = {
}
