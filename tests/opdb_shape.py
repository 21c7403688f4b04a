"""Op database entries for shape, joining and splitting ops (_ops/shape/: views.py, strided.py, joining.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

Ops taking a list of tensors get them as separate arrays after their other arguments
(``lambda lib, dim, *ts: lib.cat(ts, dim)``): arrays inside a tuple would not require grad.
"""
import itertools

import numpy as np

from op_db import ALL, Entry, ErrorCase, Sample, squeeze_samples, t_samples, transpose_samples, unsqueeze_samples

COMPLEX = ("complex64", "complex128")


def _first(g):
    """Only the first array requires grad (the others give shapes), where it can."""
    return (0,) if g.is_float else ()


def _few(samples, n=2):
    """The first ``n`` samples: enough for an alias or a method form of an op tested in full."""
    return lambda g: itertools.islice(samples(g), n)


def _m(*shape, dtype="float32"):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


# --- reshaping ---------------------------------------------------------------------------------


def view_as_samples(g):
    yield Sample("matrix", (g(2, 3), np.zeros((3, 2))), grad=_first(g))
    yield Sample("scalar", (g(), np.zeros((1, 1))), grad=_first(g))
    yield Sample("to_scalar", (g(1), np.zeros(())), grad=_first(g))
    yield Sample("empty", (g(0, 3), np.zeros((3, 0, 1))), grad=_first(g))


def reshape_as_samples(g):
    yield from view_as_samples(g)
    yield Sample("noncontig_copy", (g.noncontig(3, 4), np.zeros(12)), grad=_first(g))


def unflatten_samples(g):
    yield Sample("middle", (g(2, 6), 1, (2, 3)))
    yield Sample("infer", (g(6, 2), 0, (-1, 2)))
    yield Sample("negative_dim", (g(2, 6), -1, [3, 1, 2]))
    yield Sample("one", (g(4), 0, (4,)))
    yield Sample("empty", (g(0, 4), 1, (2, 2)))
    yield Sample("noncontig", (g.noncontig(4, 3), 0, (2, 2)))


def ravel_samples(g):
    yield Sample("matrix", (g(2, 3),))
    yield Sample("scalar", (g(),))
    yield Sample("empty", (g(0, 3),))
    yield Sample("noncontig", (g.noncontig(3, 4),))


def atleast_samples(g):
    for n in (1, 2, 3):
        yield Sample(f"scalar_{n}d", (g(), n))
        yield Sample(f"vector_{n}d", (g(3), n))
        yield Sample(f"matrix_{n}d", (g(2, 3), n))
    yield Sample("3d_3d", (g(2, 1, 2), 3))
    yield Sample("empty_3d", (g(0), 3))
    yield Sample("noncontig_3d", (g.noncontig(3, 2), 3))


def atleast_many_samples(g):
    yield Sample("two", (g(), g(3)))
    yield Sample("matrix", (g(2, 2), g(2, 1, 2)))


# --- transposes and broadcasting -------------------------------------------------------------


def movedim_samples(g):
    yield Sample("int", (g(2, 3, 4), 0, 2))
    yield Sample("tuple", (g(2, 3, 4), (0, 1), (2, 0)))
    yield Sample("negative", (g(2, 3, 4), -1, -3))
    yield Sample("same", (g(2, 3), 1, 1))
    yield Sample("none", (g(2, 3), (), ()))
    yield Sample("scalar", (g(), 0, -1))
    yield Sample("empty", (g(0, 3), 0, 1))
    yield Sample("noncontig", (g.noncontig(3, 4), [1, 0], [0, 1]))


def swap_samples(g):
    yield Sample("matrix", (g(2, 3), 0, 1))
    yield Sample("negative", (g(2, 3, 2), -1, 0))
    yield Sample("scalar", (g(), 0, -1))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, 0))


def matrix_samples(g):
    yield Sample("matrix", (g(2, 3),))
    yield Sample("batch", (g(2, 3, 2),))
    yield Sample("empty", (g(0, 3),))
    yield Sample("noncontig", (g.noncontig(3, 4),))


def expand_as_samples(g):
    yield Sample("column", (g(3, 1), np.zeros((3, 4))), grad=_first(g))
    yield Sample("new_dims", (g(3), np.zeros((2, 4, 3))), grad=_first(g))
    yield Sample("scalar", (g(), np.zeros((2, 3))), grad=_first(g))
    yield Sample("empty", (g(1, 3), np.zeros((0, 3))), grad=_first(g))
    yield Sample("noncontig", (g.noncontig(3, 1), np.zeros((2, 3, 4))), grad=_first(g))


def broadcast_to_samples(g):
    yield Sample("column", (g(3, 1), (3, 4)))
    yield Sample("minus_one", (g(3, 1), (2, -1, 4)))
    yield Sample("scalar", (g(), (2,)))
    yield Sample("same", (g(2, 3), (2, 3)))
    yield Sample("empty", (g(1, 3), (0, 3)))


def broadcast_tensors_samples(g):
    yield Sample("pair", (g(3, 1), g(4)))
    yield Sample("same", (g(2, 3), g(2, 3)))
    yield Sample("scalar", (g(), g(2, 2)))
    yield Sample("three", (g(2, 1, 1), g(3, 1), g(2)))
    yield Sample("one", (g(3),))
    yield Sample("empty", (g(0, 1), g(3)))


def broadcast_shapes_samples(g):
    yield Sample("pair", (g(1, 3), ((2, 1), (3,))))
    yield Sample("ints", (g(1), (2, [1])))
    yield Sample("none", (g(), ()))
    yield Sample("three", (g(1, 1), ((2, 1, 1), [1, 3], 1)))


# --- reordering copies ----------------------------------------------------------------------


def flip_samples(g):
    yield Sample("dim0", (g(3, 4), (0,)))
    yield Sample("both", (g(3, 4), (0, 1)))
    yield Sample("negative", (g(2, 3, 2), [-1, 0]))
    yield Sample("none", (g(2, 3), ()))
    yield Sample("scalar", (g(), (0,)))
    yield Sample("empty", (g(0, 3), (1,)))
    yield Sample("noncontig", (g.noncontig(3, 4), (1,)))


def flip_matrix_samples(g):
    yield Sample("matrix", (g(3, 4),))
    yield Sample("3d", (g(2, 3, 2),))
    yield Sample("empty", (g(0, 3),))
    yield Sample("noncontig", (g.noncontig(3, 4),))


def flipud_samples(g):
    yield from flip_matrix_samples(g)
    yield Sample("vector", (g(4),))


def roll_samples(g):
    yield Sample("flat", (g(3, 4), 5, None))
    yield Sample("dim", (g(3, 4), 1, 0))
    yield Sample("negative", (g(3, 4), -1, -1))
    yield Sample("two_dims", (g(3, 4), (1, -2), (0, 1)))
    yield Sample("big_shift", (g(3), 7, 0))
    yield Sample("scalar", (g(), 2, None))
    yield Sample("empty", (g(0, 3), 1, 0))
    yield Sample("noncontig", (g.noncontig(3, 4), 2, 1))


def rot90_samples(g):
    yield Sample("default", (g(3, 4), 1, (0, 1)))
    yield Sample("twice", (g(3, 4), 2, (0, 1)))
    yield Sample("back", (g(3, 4), -1, (0, 1)))
    yield Sample("zero", (g(3, 4), 0, (0, 1)))
    yield Sample("five", (g(2, 3, 2), 5, [2, 0]))
    yield Sample("reversed", (g(3, 4), 1, (1, 0)))
    yield Sample("empty", (g(0, 3), 1, (0, 1)))
    yield Sample("noncontig", (g.noncontig(3, 4), 3, (-1, -2)))


def repeat_samples(g):
    yield Sample("rows", (g(2, 3), (2, 1)))
    yield Sample("both", (g(2, 3), (2, 3)))
    yield Sample("new_dims", (g(3), (2, 1, 2)))
    yield Sample("ones", (g(2, 3), (1, 1)))
    yield Sample("zero", (g(2, 3), (0, 2)))
    yield Sample("scalar", (g(), (3,)))
    yield Sample("scalar_none", (g(), ()))
    yield Sample("empty", (g(0, 3), (2, 2)))
    yield Sample("noncontig", (g.noncontig(3, 2), (1, 2)))


def tile_samples(g):
    yield Sample("short", (g(2, 3), (2,)))
    yield Sample("long", (g(3), (2, 2)))
    yield Sample("none", (g(2, 3), ()))
    yield Sample("scalar", (g(), (2,)))
    yield Sample("noncontig", (g.noncontig(3, 2), (2, 1)))


def repeat_interleave_samples(g):
    yield Sample("flat", (g(2, 3), 2, None))
    yield Sample("dim0", (g(2, 3), 2, 0))
    yield Sample("dim_negative", (g(2, 3), 3, -1))
    yield Sample("zero", (g(2, 3), 0, 1))
    yield Sample("scalar", (g(), 3, None))
    yield Sample("empty", (g(0, 3), 2, 0))
    yield Sample("noncontig", (g.noncontig(3, 2), 2, 1))


def repeat_interleave_tensor_samples(g):
    yield Sample("dim0", (g(3, 2), np.array([1, 0, 2]), 0))
    yield Sample("dim1", (g(3, 2), np.array([2, 1]), -1))
    yield Sample("flat", (g(2, 2), np.array([1, 2, 0, 1]), None))
    yield Sample("broadcast_0d", (g(2, 3), np.array(2), 1))
    yield Sample("broadcast_1", (g(3), np.array([2]), None))
    yield Sample("scalar_flat", (g(), np.array(3), None))
    yield Sample("noncontig", (g.noncontig(3, 2), np.array([1, 3]), 1))


# --- triangles and diagonals -------------------------------------------------------------------


def triangle_samples(g):
    yield Sample("square", (g(3, 3), 0))
    yield Sample("wide", (g(3, 4), 1))
    yield Sample("tall", (g(4, 3), -1))
    yield Sample("far", (g(3, 4), 5))
    yield Sample("batch", (g(2, 3, 3), 0))
    yield Sample("empty", (g(0, 3), 0))
    yield Sample("noncontig", (g.noncontig(3, 4), -2))


def diagonal_samples(g):
    yield Sample("main", (g(3, 4), 0, 0, 1))
    yield Sample("above", (g(3, 4), 1, 0, 1))
    yield Sample("below", (g(4, 3), -2, 0, 1))
    yield Sample("swapped_dims", (g(3, 4), 1, 1, 0))
    yield Sample("batch", (g(2, 3, 3), 0, -1, 1))
    yield Sample("past_end", (g(3, 4), 5, 0, 1))
    yield Sample("empty", (g(0, 3), 0, 0, 1))
    yield Sample("noncontig", (g.noncontig(3, 4), -1, 0, 1))


def diag_samples(g):
    yield Sample("matrix", (g(3, 4), 0))
    yield Sample("matrix_above", (g(3, 4), 2))
    yield Sample("matrix_below", (g(3, 4), -1))
    yield Sample("vector", (g(3), 0))
    yield Sample("vector_above", (g(2), 1))
    yield Sample("vector_below", (g(2), -2))
    yield Sample("empty", (g(0), 0))
    yield Sample("noncontig", (g.noncontig(3, 3), 0))


def diag_embed_samples(g):
    yield Sample("vector", (g(3), 0, -2, -1))
    yield Sample("batch", (g(2, 3), 1, -2, -1))
    yield Sample("dims", (g(2, 2), -1, 0, 2))
    yield Sample("swapped_dims", (g(2, 3), 0, 2, 0))
    yield Sample("empty", (g(0, 2), 0, -2, -1))
    yield Sample("noncontig", (g.noncontig(2, 3), 1, 1, 0))


def diagflat_samples(g):
    yield Sample("vector", (g(3), 0))
    yield Sample("matrix", (g(2, 2), 1))
    yield Sample("scalar", (g(), -1))
    yield Sample("empty", (g(0), 0))
    yield Sample("noncontig", (g.noncontig(2, 2), 0))


def trace_samples(g):
    yield Sample("square", (g(3, 3),))
    yield Sample("wide", (g(2, 4),))
    yield Sample("tall", (g(4, 2),))
    yield Sample("empty", (g(0, 3),))
    yield Sample("noncontig", (g.noncontig(3, 3),))


# --- windows and strides --------------------------------------------------------------------------


def unfold_samples(g):
    yield Sample("overlap", (g(3, 5), 1, 2, 1))
    yield Sample("steps", (g(7), 0, 3, 2))
    yield Sample("whole", (g(2, 3), 0, 2, 1))
    yield Sample("gaps", (g(8), 0, 2, 3))
    yield Sample("negative_dim", (g(2, 4), -1, 4, 4))
    yield Sample("size_zero", (g(3), 0, 0, 1))
    yield Sample("scalar", (g(), 0, 1, 1))
    yield Sample("empty", (g(0, 4), 1, 2, 2))
    yield Sample("noncontig", (g.noncontig(4, 3), 0, 2, 1))


def as_strided_samples(g):
    yield Sample("transpose", (g(3, 4), (4, 3), (1, 4), None))
    yield Sample("windows", (g(6), (4, 3), (1, 1), None))
    yield Sample("offset", (g(3, 4), (2, 2), (4, 1), 5))
    yield Sample("broadcast", (g(4), (3, 2), (0, 2), 0))
    yield Sample("scalar_out", (g(2, 3), (), (), 4))
    yield Sample("empty", (g(2, 3), (0, 2), (1, 1), None))
    # as_strided reads memory: on a strided input, its result depends on the layout, which
    # finite differences (on new arrays) don't keep: compared with PyTorch only
    yield Sample("noncontig", (g.noncontig(3, 4), (2, 3), (3, 1), 1), eps=None)


# --- joining -----------------------------------------------------------------------------------


def cat_samples(g):
    yield Sample("two", (0, g(2, 3), g(1, 3)))
    yield Sample("dim1", (1, g(2, 3), g(2, 1)))
    yield Sample("three", (-1, g(2, 1), g(2, 3), g(2, 2)))
    yield Sample("five", (0, g(1), g(2), g(1), g(3), g(1)))
    yield Sample("one", (0, g(2, 3)))
    yield Sample("legacy_empty", (0, g(0), g(2, 3), g(0)))
    yield Sample("empty_part", (1, g(2, 0), g(2, 3)))
    yield Sample("all_empty", (0, g(0, 2), g(0, 2)))
    yield Sample("noncontig", (1, g.noncontig(3, 2), g(3, 1)))
    if g.dtype == np.float32:
        yield Sample("mixed_float", (0, g(2), g(3, dtype="float64")))
        yield Sample("mixed_int", (0, g(2, dtype="int64"), g(3), g(1, dtype="bool")))
    if g.dtype == np.int64:
        yield Sample("int_bool", (0, g(2), g(2, dtype="bool")))


def stack_samples(g):
    yield Sample("two", (0, g(2, 3), g(2, 3)))
    yield Sample("last", (-1, g(2, 3), g(2, 3), g(2, 3)))
    yield Sample("middle", (1, g(2, 2), g(2, 2)))
    yield Sample("one", (0, g(3)))
    yield Sample("scalars", (0, g(), g(), g()))
    yield Sample("empty", (1, g(0, 2), g(0, 2)))
    yield Sample("noncontig", (2, g.noncontig(3, 2), g(3, 2)))
    if g.dtype == np.float32:
        yield Sample("mixed", (0, g(2), g(2, dtype="float64"), g(2, dtype="int64")))


def stacking_samples(g):
    """For hstack, vstack, dstack, column_stack: vectors, matrices, 0-d tensors."""
    yield Sample("vectors", (g(2), g(2)))
    yield Sample("matrices", (g(2, 2), g(2, 2)))
    yield Sample("scalars", (g(), g()))
    yield Sample("one", (g(2, 3),))
    yield Sample("3d", (g(2, 2, 1), g(2, 2, 1)))
    yield Sample("noncontig", (g.noncontig(2, 2), g(2, 2)))


def hstack_samples(g):
    yield from stacking_samples(g)
    yield Sample("uneven_vectors", (g(2), g(3), g(1)))
    yield Sample("uneven_matrices", (g(2, 1), g(2, 3)))


def column_stack_samples(g):
    yield Sample("vectors", (g(2), g(2)))
    yield Sample("mixed", (g(3), g(3, 2), g.noncontig(3)))
    yield Sample("scalars", (g(), g()))
    yield Sample("noncontig", (g.noncontig(2, 2), g(2, 1)))


def block_diag_samples(g):
    yield Sample("two", (g(2, 2), g(1, 3)))
    yield Sample("mixed_ranks", (g(), g(3), g(2, 1)))
    yield Sample("one", (g(2, 3),))
    yield Sample("empty_block", (g(0, 2), g(2, 0), g(1, 1)))
    yield Sample("noncontig", (g.noncontig(2, 3), g(1, 1)))
    if g.dtype == np.float32:
        yield Sample("mixed_dtypes", (g(1, 2), g(2, dtype="float64"), g(1, 1, dtype="int64")))


def meshgrid_samples(g):
    yield Sample("ij", ("ij", g(3), g(2)))
    yield Sample("xy", ("xy", g(3), g(2)))
    yield Sample("three_xy", ("xy", g(2), g(3), g(2)))
    yield Sample("scalar", ("ij", g(), g(2)))
    yield Sample("one", ("xy", g(3)))
    yield Sample("empty", ("ij", g(0), g(2)))
    yield Sample("noncontig", ("ij", g.noncontig(3), g(2)))


def cartesian_prod_samples(g):
    yield Sample("two", (g(3), g(2)))
    yield Sample("three", (g(2), g(1), g(2)))
    yield Sample("one", (g(3),))
    yield Sample("empty", (g(0), g(2)))
    yield Sample("noncontig", (g.noncontig(3), g(2)))


def combinations_samples(g):
    yield Sample("pairs", (g(4), 2, False))
    yield Sample("triples", (g(4), 3, False))
    yield Sample("with_replacement", (g(3), 2, True))
    yield Sample("singles", (g(3), 1, False))
    yield Sample("too_many", (g(2), 3, False))
    yield Sample("none", (g(3), 0, False))
    yield Sample("empty", (g(0), 2, True))
    yield Sample("noncontig", (g.noncontig(3), 2, True))


# --- splitting -----------------------------------------------------------------------------------


def split_samples(g):
    yield Sample("even", (g(4, 2), 2, 0))
    yield Sample("uneven", (g(5, 2), 2, 0))
    yield Sample("dim1", (g(2, 5), 3, -1))
    yield Sample("whole", (g(3), 5, 0))
    yield Sample("empty", (g(0, 2), 2, 0))
    yield Sample("empty_zero", (g(0, 2), 0, 0))
    yield Sample("noncontig", (g.noncontig(4, 3), 2, 1))


def split_sizes_samples(g):
    yield Sample("list", (g(5, 2), [2, 3], 0))
    yield Sample("tuple", (g(2, 4), (1, 0, 3), 1))
    yield Sample("one", (g(3), [3], -1))
    yield Sample("empty", (g(0, 2), [0, 0], 0))
    yield Sample("noncontig", (g.noncontig(4, 3), [1, 3], 0))


def chunk_samples(g):
    yield Sample("even", (g(4, 2), 2, 0))
    yield Sample("uneven", (g(5, 2), 3, 0))
    yield Sample("fewer", (g(6), 4, 0))
    yield Sample("more_than_size", (g(2, 3), 5, 1))
    yield Sample("one", (g(3), 1, -1))
    yield Sample("empty", (g(0, 2), 3, 0))
    yield Sample("noncontig", (g.noncontig(4, 3), 2, 1))


def tensor_split_samples(g):
    yield Sample("sections", (g(5, 2), 3, 0))
    yield Sample("sections_more", (g(2, 3), 4, 1))
    yield Sample("indices", (g(5, 2), [1, 3], 0))
    yield Sample("indices_unsorted", (g(2, 5), (3, 1), -1))
    yield Sample("indices_out_of_range", (g(4), [-1, 9], 0))
    yield Sample("no_indices", (g(3), [], 0))
    yield Sample("noncontig", (g.noncontig(4, 3), 2, 1))


def tensor_split_tensor_samples(g):
    yield Sample("sections", (g(5, 2), np.array(2), 0))
    yield Sample("indices", (g(2, 5), np.array([1, 4]), 1))


def unbind_samples(g):
    yield Sample("rows", (g(3, 2), 0))
    yield Sample("cols", (g(3, 2), -1))
    yield Sample("vector", (g(3), 0))
    yield Sample("empty_other", (g(2, 0), 0))  # (an empty dim 0 gives no outputs: nothing to compare)
    yield Sample("noncontig", (g.noncontig(3, 2), 1))


def iter_samples(g):
    yield Sample("matrix", (g(3, 2),))
    yield Sample("vector", (g(2),))
    yield Sample("noncontig", (g.noncontig(2, 3),))


def narrow_samples(g):
    yield Sample("middle", (g(3, 4), 1, 1, 2))
    yield Sample("negative_start", (g(3, 4), 1, -3, 2))
    yield Sample("negative_dim", (g(3, 4), -2, 0, 1))
    yield Sample("at_end", (g(3, 4), 1, 4, 0))
    yield Sample("whole", (g(3,), 0, 0, 3))
    yield Sample("empty", (g(0, 4), 1, 1, 2))
    yield Sample("noncontig", (g.noncontig(3, 4), 0, 1, 2))


def select_samples(g):
    yield Sample("row", (g(3, 4), 0, 1))
    yield Sample("col_negative", (g(3, 4), 1, -1))
    yield Sample("negative_dim", (g(2, 3, 2), -2, 2))
    yield Sample("vector", (g(3), 0, 2))
    yield Sample("empty_other", (g(2, 0), 0, 1))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, 3))


# --- in-place views: a history that moves on, in a view and in a base ---------------------------

def inplace_view_chain_samples(g):
    yield Sample("matrix", (g(2, 1, 3),))
    yield Sample("noncontig", (g.noncontig(2, 1, 3),))


def _inplace_view_chain(x):
    """squeeze_, t_, unsqueeze_, transpose_ one after another on one tensor."""
    y = x * 2
    y.squeeze_(1).t_()
    return y.unsqueeze_(-1).transpose_(0, 2)


def _inplace_view_of_view(x):
    """A view reshaped in place stays a view of its base: ``mul_`` through it reaches the base."""
    y = x * 2
    view = y[1:]
    view.unsqueeze_(0).transpose_(0, -1)
    view.mul_(3)
    return y


def _inplace_view_of_base(x):
    """A base reshaped in place after a view of it was taken: ``mul_`` through the view."""
    y = x * 2
    view = y[1]
    y.unsqueeze_(0)
    view.mul_(3)
    return y


def _squeeze_saved(x):
    """mul saved y; squeeze_ bumped its version, so backward refuses (naming y's new node)."""
    y = x.requires_grad_() * 1
    z = y * y
    y.squeeze_()
    z.sum().backward()


ENTRIES = [
    # reshaping: views of the input
    Entry("view_as", lambda lib, x, other: x.view_as(other), view_as_samples, covers=("view",), dtypes=ALL),
    Entry("reshape_as", lambda lib, x, other: x.reshape_as(other), reshape_as_samples,
          covers=("view", "unsafe_view", "clone"), dtypes=ALL),
    Entry("unflatten", lambda lib, x, dim, sizes: lib.unflatten(x, dim, sizes), unflatten_samples,
          covers=("view",), dtypes=ALL),
    Entry("unflatten_method", lambda lib, x, dim, sizes: x.unflatten(dim=dim, sizes=sizes), _few(unflatten_samples),
          covers=("view",)),
    Entry("ravel", lambda lib, x: lib.ravel(x), ravel_samples, covers=("view", "clone"), dtypes=ALL),
    Entry("ravel_method", lambda lib, x: x.ravel(), _few(ravel_samples, 4), covers=("view",)),
    Entry("atleast_nd", lambda lib, x, n: getattr(lib, f"atleast_{n}d")(x), atleast_samples,
          covers=("view", "unsqueeze"), dtypes=ALL),
    Entry("atleast_many", lambda lib, a, b: (lib.atleast_1d(a, b), lib.atleast_2d([a, b]),
                                              lib.atleast_3d(a, b))[2], atleast_many_samples,
          covers=("view", "unsqueeze")),
    # transposes and broadcasting
    Entry("movedim", lambda lib, x, src, dst: lib.movedim(x, src, dst), movedim_samples,
          covers=("permute", "alias"), dtypes=ALL),
    Entry("moveaxis", lambda lib, x, src, dst: x.moveaxis(src, dst), _few(movedim_samples), covers=("permute",)),
    Entry("swapaxes", lambda lib, x, a, b: lib.swapaxes(x, a, b), swap_samples, covers=("transpose",),
          dtypes=ALL),
    Entry("swapdims", lambda lib, x, a, b: x.swapdims(a, b), _few(swap_samples), covers=("transpose",)),
    Entry("mT", lambda lib, x: x.mT, matrix_samples, covers=("transpose",), dtypes=ALL),
    Entry("mH", lambda lib, x: x.mH, matrix_samples, covers=("transpose",), dtypes=ALL),
    Entry("adjoint", lambda lib, x: lib.adjoint(x), _few(matrix_samples), covers=("transpose",)),
    # PyTorch's conjugate is lazy (a flag that numpy() refuses): "* 1" on both sides
    # makes the result and the gradient plain data. Complex samples are compared with
    # PyTorch only (the coverage check runs float64 samples): they claim no ops
    Entry("mH_complex", lambda lib, x: (x * 1).mH * 1, matrix_samples, covers=(), dtypes=COMPLEX),
    Entry("adjoint_complex", lambda lib, x: (x * 1).adjoint() * 1, matrix_samples, covers=(), dtypes=COMPLEX),
    Entry("expand_as", lambda lib, x, other: x.expand_as(other), expand_as_samples,
          covers=("expand", "sum_to_size"), dtypes=ALL),
    Entry("broadcast_to", lambda lib, x, shape: lib.broadcast_to(x, shape), broadcast_to_samples,
          covers=("expand", "sum_to_size"), dtypes=ALL),
    Entry("broadcast_tensors", lambda lib, *ts: lib.broadcast_tensors(*ts), broadcast_tensors_samples,
          covers=("expand", "sum_to_size"), dtypes=ALL),
    Entry("broadcast_shapes", lambda lib, x, shapes: x.expand(lib.broadcast_shapes(*shapes)),
          broadcast_shapes_samples, covers=("expand",)),
    # copies that reorder
    Entry("flip", lambda lib, x, dims: lib.flip(x, dims), flip_samples, covers=("flip",), dtypes=ALL),
    Entry("flip_method", lambda lib, x, dims: x.flip(*dims) if len(dims) > 1 else x.flip(dims=dims), _few(flip_samples, 3), covers=("flip",)),
    Entry("fliplr", lambda lib, x: lib.fliplr(x), flip_matrix_samples, covers=("flip",), dtypes=ALL),
    Entry("flipud", lambda lib, x: x.flipud(), flipud_samples, covers=("flip",), dtypes=ALL),
    Entry("roll", lambda lib, x, shifts, dims: lib.roll(x, shifts, dims), roll_samples, covers=("roll",),
          dtypes=ALL),
    Entry("rot90", lambda lib, x, k, dims: lib.rot90(x, k, dims), rot90_samples, covers=("rot90",), dtypes=ALL),
    Entry("repeat", lambda lib, x, repeats: x.repeat(*repeats) if len(repeats) > 1 else x.repeat(repeats), repeat_samples, covers=("repeat", "sum_dim"),
          dtypes=ALL),
    Entry("tile", lambda lib, x, dims: lib.tile(x, dims), tile_samples, covers=("repeat",), dtypes=ALL),
    Entry("repeat_interleave", lambda lib, x, r, dim: lib.repeat_interleave(x, r, dim), repeat_interleave_samples,
          covers=("unsqueeze", "expand", "clone", "view"), dtypes=ALL),
    Entry("repeat_interleave_tensor", lambda lib, x, r, dim: x.repeat_interleave(r, dim=dim),
          repeat_interleave_tensor_samples, covers=("index_select",), dtypes=ALL),
    # triangles and diagonals
    Entry("tril", lambda lib, x, k: lib.tril(x, k), triangle_samples, covers=("tril",), dtypes=ALL),
    Entry("triu", lambda lib, x, k: x.triu(diagonal=k), triangle_samples, covers=("triu",), dtypes=ALL),
    Entry("diagonal", lambda lib, x, offset, d1, d2: lib.diagonal(x, offset, d1, d2), diagonal_samples,
          covers=("diagonal", "diagonal_backward"), dtypes=ALL),
    Entry("diag", lambda lib, x, k: lib.diag(x, k), diag_samples,
          covers=("diag", "diag_embed", "diagonal", "diagonal_backward"), dtypes=ALL),
    Entry("diag_embed", lambda lib, x, offset, d1, d2: x.diag_embed(offset, d1, d2), diag_embed_samples,
          covers=("diag_embed", "diagonal"), dtypes=ALL),
    Entry("diagflat", lambda lib, x, offset: lib.diagflat(x, offset), diagflat_samples,
          covers=("diag_embed", "view"), dtypes=ALL),
    Entry("trace", lambda lib, x: x.trace(), trace_samples, covers=("trace", "diagonal_backward", "expand"),
          dtypes=("float32", "float64", "int64")),
    # windows and strides
    Entry("unfold", lambda lib, x, dim, size, step: x.unfold(dim, size, step), unfold_samples,
          covers=("unfold", "unfold_backward"), dtypes=ALL),
    Entry("as_strided", lambda lib, x, size, stride, offset: lib.as_strided(x, size, stride, offset),
          as_strided_samples, covers=("as_strided", "as_strided_backward"), dtypes=ALL),
    # joining
    Entry("cat", lambda lib, dim, *ts: lib.cat(ts, dim), cat_samples, covers=("cat", "narrow"), dtypes=ALL),
    Entry("concat", lambda lib, dim, *ts: lib.concat(list(ts), dim=dim), _few(cat_samples), covers=("cat",)),
    Entry("concatenate", lambda lib, dim, *ts: lib.concatenate(ts, axis=dim), _few(cat_samples), covers=("cat",)),
    Entry("stack", lambda lib, dim, *ts: lib.stack(ts, dim), stack_samples, covers=("stack", "select"),
          dtypes=ALL),
    Entry("hstack", lambda lib, *ts: lib.hstack(ts), hstack_samples, covers=("cat", "view"), dtypes=ALL),
    Entry("vstack", lambda lib, *ts: lib.vstack(ts), stacking_samples, covers=("cat", "view", "unsqueeze"),
          dtypes=ALL),
    Entry("row_stack", lambda lib, *ts: lib.row_stack(list(ts)), _few(stacking_samples), covers=("cat",)),
    Entry("dstack", lambda lib, *ts: lib.dstack(ts), stacking_samples, covers=("cat", "view", "unsqueeze"),
          dtypes=ALL),
    Entry("column_stack", lambda lib, *ts: lib.column_stack(ts), column_stack_samples,
          covers=("cat", "view", "reshape_alias"), dtypes=ALL),
    Entry("block_diag", lambda lib, *ts: lib.block_diag(*ts), block_diag_samples,
          covers=("block_diag", "view", "narrow"), dtypes=ALL),
    Entry("meshgrid", lambda lib, indexing, *ts: lib.meshgrid(*ts, indexing=indexing), meshgrid_samples,
          covers=("view", "expand", "sum_to_size"), dtypes=ALL),
    Entry("cartesian_prod", lambda lib, *ts: lib.cartesian_prod(*ts), cartesian_prod_samples,
          covers=("stack", "expand"), dtypes=ALL),
    Entry("combinations", lambda lib, x, r, with_replacement: lib.combinations(x, r, with_replacement),
          combinations_samples, covers=("index_select", "stack"), dtypes=ALL),
    # splitting: views, one node per output
    Entry("split", lambda lib, x, size, dim: lib.split(x, size, dim), split_samples,
          covers=("split", "slice_backward"), dtypes=ALL),
    Entry("split_method", lambda lib, x, size, dim: x.split(size, dim=dim), _few(split_samples), covers=("split",)),
    Entry("split_sizes", lambda lib, x, sizes, dim: x.split(sizes, dim), split_sizes_samples,
          covers=("split_with_sizes", "slice_backward"), dtypes=ALL),
    Entry("chunk", lambda lib, x, chunks, dim: lib.chunk(x, chunks, dim), chunk_samples,
          covers=("split", "split_with_sizes"), dtypes=ALL),
    Entry("tensor_split", lambda lib, x, how, dim: lib.tensor_split(x, how, dim), tensor_split_samples,
          covers=("narrow",), dtypes=ALL),
    Entry("tensor_split_tensor", lambda lib, x, how, dim: x.tensor_split(how, dim), tensor_split_tensor_samples,
          covers=("narrow",)),
    Entry("unbind", lambda lib, x, dim: lib.unbind(x, dim), unbind_samples, covers=("unbind", "select_backward"),
          dtypes=ALL),
    Entry("iter", lambda lib, x: tuple(x), iter_samples, covers=("unbind",), dtypes=ALL),
    Entry("narrow", lambda lib, x, dim, start, length: lib.narrow(x, dim, start, length), narrow_samples,
          covers=("narrow",), dtypes=ALL),
    Entry("select_method", lambda lib, x, dim, index: x.select(dim, index), select_samples, covers=("select",),
          dtypes=ALL),
    # in-place views: the out-of-place op's samples, on a copy (a leaf requiring grad is refused)
    Entry("squeeze_", lambda lib, x, dim: x.clone().squeeze_() if dim is None else x.clone().squeeze_(dim),
          squeeze_samples, covers=("squeeze_", "squeeze_dim_", "squeeze_dims_"), dtypes=ALL),
    Entry("unsqueeze_", lambda lib, x, dim: x.clone().unsqueeze_(dim), unsqueeze_samples, covers=("unsqueeze_",),
          dtypes=ALL),
    Entry("transpose_", lambda lib, x, d0, d1: x.clone().transpose_(d0, d1), transpose_samples,
          covers=("transpose_",), dtypes=ALL),
    Entry("swapdims_", lambda lib, x, d0, d1: x.clone().swapdims_(dim0=d0, dim1=d1), _few(transpose_samples),
          covers=("transpose_",)),
    Entry("swapaxes_", lambda lib, x, d0, d1: x.clone().swapaxes_(axis0=d0, axis1=d1), _few(transpose_samples),
          covers=("transpose_",)),
    Entry("t_", lambda lib, x: x.clone().t_(), t_samples, covers=("t_",), dtypes=ALL),
    Entry("inplace_view_chain", lambda lib, x: _inplace_view_chain(x), inplace_view_chain_samples,
          covers=("squeeze_dim_", "t_", "unsqueeze_", "transpose_")),
    Entry("inplace_view_of_view", lambda lib, x: _inplace_view_of_view(x), inplace_view_chain_samples,
          covers=("unsqueeze_", "transpose_", "copy_slices", "as_strided_view")),
    Entry("inplace_view_of_base", lambda lib, x: _inplace_view_of_base(x), inplace_view_chain_samples,
          covers=("unsqueeze_", "copy_slices")),
]


ERRORS = [
    # reshaping
    ErrorCase("unflatten_sizes", lambda lib, x: x.unflatten(1, (3, 2)), (_m(2, 4),)),
    ErrorCase("unflatten_infer", lambda lib, x: x.unflatten(1, (3, -1)), (_m(2, 4),)),
    ErrorCase("unflatten_empty_sizes", lambda lib, x: x.unflatten(1, ()), (_m(2, 4),)),
    ErrorCase("unflatten_dim", lambda lib, x: x.unflatten(2, (2, 2)), (_m(2, 4),)),
    ErrorCase("movedim_length", lambda lib, x: lib.movedim(x, (0, 1), (0,)), (_m(2, 3),)),
    ErrorCase("movedim_repeated_source", lambda lib, x: lib.movedim(x, (0, -2), (0, 1)), (_m(2, 3),)),
    ErrorCase("movedim_repeated_destination", lambda lib, x: lib.movedim(x, (0, 1), (1, 1)), (_m(2, 3),)),
    ErrorCase("movedim_range", lambda lib, x: lib.movedim(x, 2, 0), (_m(2, 3),)),
    ErrorCase("mT_vector", lambda lib, x: x.mT, (_m(3),)),
    ErrorCase("mH_vector", lambda lib, x: x.mH, (_m(3),)),
    ErrorCase("adjoint_vector", lambda lib, x: lib.adjoint(x), (_m(3),)),
    ErrorCase("broadcast_to_size", lambda lib, x: lib.broadcast_to(x, (2, 3)), (_m(3, 3),)),
    ErrorCase("expand_fewer_long", lambda lib, x: x.expand(3), (_m(2, 3, dtype="int64"),)),
    ErrorCase("broadcast_tensors_shapes", lambda lib, a, b: lib.broadcast_tensors(a, b), (_m(3, 4), _m(3))),
    ErrorCase("broadcast_shapes_mismatch", lambda lib: lib.broadcast_shapes((3, 1), (2, 4)), ()),
    ErrorCase("broadcast_shapes_int", lambda lib: lib.broadcast_shapes((3, 4), 2), ()),
    ErrorCase("broadcast_shapes_negative", lambda lib: lib.broadcast_shapes((-1,), (2,)), ()),
    # reordering copies
    ErrorCase("flip_repeated", lambda lib, x: x.flip(0, -2), (_m(2, 3),)),
    ErrorCase("flip_dim", lambda lib, x: lib.flip(x, (2,)), (_m(2, 3),)),
    ErrorCase("flip_int_dims", lambda lib, x: lib.flip(x, 0), (_m(2, 3),)),
    ErrorCase("fliplr_vector", lambda lib, x: lib.fliplr(x), (_m(3),)),
    ErrorCase("flipud_scalar", lambda lib, x: lib.flipud(x), (_m(),)),
    ErrorCase("roll_mismatch", lambda lib, x: lib.roll(x, (1, 2), 0), (_m(2, 3),)),
    ErrorCase("roll_no_dims", lambda lib, x: lib.roll(x, (1, 2)), (_m(2, 3),)),
    ErrorCase("roll_scalar_dim", lambda lib, x: lib.roll(x, 1, 0), (_m(),)),
    ErrorCase("rot90_vector", lambda lib, x: lib.rot90(x), (_m(3),)),
    ErrorCase("rot90_same_dims", lambda lib, x: lib.rot90(x, 1, (0, -2)), (_m(2, 3),)),
    ErrorCase("rot90_one_dim", lambda lib, x: lib.rot90(x, 1, (0,)), (_m(2, 3),)),
    ErrorCase("rot90_range", lambda lib, x: lib.rot90(x, 1, (0, 2)), (_m(2, 3),)),
    ErrorCase("repeat_fewer", lambda lib, x: x.repeat(2), (_m(2, 3),)),
    ErrorCase("repeat_negative", lambda lib, x: x.repeat(-1, 2), (_m(3, 4),)),
    ErrorCase("tile_int", lambda lib, x: lib.tile(x, 2), (_m(2, 3),)),
    ErrorCase("repeat_interleave_negative", lambda lib, x: x.repeat_interleave(-1), (_m(2, 3),)),
    ErrorCase("repeat_interleave_scalar_dim", lambda lib, x: x.repeat_interleave(2, 0), (_m(),)),
    ErrorCase("repeat_interleave_size", lambda lib, x, r: x.repeat_interleave(r, 1),
              (_m(2, 3), np.array([1, 2]))),
    ErrorCase("repeat_interleave_float", lambda lib, x, r: x.repeat_interleave(r, 0),
              (_m(2, 3), np.array([1.0, 2.0]))),
    ErrorCase("repeat_interleave_negative_tensor", lambda lib, x, r: x.repeat_interleave(r, 0),
              (_m(2, 3), np.array([1, -1]))),
    ErrorCase("repeat_interleave_2d", lambda lib, x, r: x.repeat_interleave(r, 0), (_m(2, 3), np.ones((1, 2), int))),
    ErrorCase("repeat_interleave_output_size", lambda lib, x, r: x.repeat_interleave(r, 0, output_size=4),
              (_m(2, 3), np.array([1, 2]))),
    ErrorCase("repeat_interleave_output_size_int", lambda lib, x: x.repeat_interleave(2, 0, output_size=5),
              (_m(2, 3),)),
    # triangles and diagonals
    ErrorCase("tril_vector", lambda lib, x: lib.tril(x), (_m(3),)),
    ErrorCase("triu_scalar", lambda lib, x: x.triu(), (_m(),)),
    ErrorCase("diagonal_same_dims", lambda lib, x: x.diagonal(0, 1, -1), (_m(2, 3),)),
    ErrorCase("diagonal_vector", lambda lib, x: lib.diagonal(x), (_m(3),)),
    ErrorCase("diag_3d", lambda lib, x: lib.diag(x), (_m(2, 2, 2),)),
    ErrorCase("diag_scalar", lambda lib, x: x.diag(), (_m(),)),
    ErrorCase("diag_embed_same_dims", lambda lib, x: lib.diag_embed(x, 0, 1, -2), (_m(2, 3),)),
    ErrorCase("diag_embed_scalar", lambda lib, x: lib.diag_embed(x), (_m(),)),
    ErrorCase("trace_vector", lambda lib, x: lib.trace(x), (_m(3),)),
    ErrorCase("trace_bool", lambda lib, x: x.trace(), (_m(2, 2).astype(bool),)),
    # windows and strides
    ErrorCase("unfold_too_big", lambda lib, x: x.unfold(1, 5, 1), (_m(3, 4),)),
    ErrorCase("unfold_step", lambda lib, x: x.unfold(1, 2, 0), (_m(3, 4),)),
    ErrorCase("unfold_negative_size", lambda lib, x: x.unfold(1, -1, 1), (_m(3, 4),)),
    ErrorCase("unfold_dim", lambda lib, x: x.unfold(1, 1, 1), (_m(),)),
    ErrorCase("as_strided_bounds", lambda lib, x: x.as_strided((3, 5), (4, 1)), (_m(3, 4),)),
    ErrorCase("as_strided_bounds_view", lambda lib, x: x[1:].as_strided((3, 4), (4, 1)), (_m(3, 4),)),
    ErrorCase("as_strided_length", lambda lib, x: lib.as_strided(x, (3, 5), (4,)), (_m(3, 4),)),
    ErrorCase("as_strided_negative_stride", lambda lib, x: lib.as_strided(x, (3,), (-1,)), (_m(3, 4),)),
    ErrorCase("as_strided_negative_offset", lambda lib, x: lib.as_strided(x, (2,), (1,), -1), (_m(3, 4),)),
    # joining
    ErrorCase("cat_nothing", lambda lib: lib.cat([]), ()),
    ErrorCase("cat_scalar", lambda lib, a, b: lib.cat([a, b]), (_m(2), _m())),
    ErrorCase("cat_ranks", lambda lib, a, b: lib.cat([a, b]), (_m(2, 3), _m(3))),
    ErrorCase("cat_sizes", lambda lib, a, b: lib.cat([a, b]), (_m(2, 3), _m(2, 4))),
    ErrorCase("cat_sizes_dim1", lambda lib, a, b: lib.cat([a, b], -1), (_m(2, 3), _m(3, 3))),
    ErrorCase("cat_dim", lambda lib, a, b: lib.cat([a, b], 2), (_m(2, 3), _m(2, 3))),
    ErrorCase("stack_nothing", lambda lib: lib.stack([]), ()),
    ErrorCase("stack_sizes", lambda lib, a, b: lib.stack([a, b]), (_m(2, 3), _m(3, 2))),
    ErrorCase("stack_dim", lambda lib, a, b: lib.stack([a, b], 3), (_m(2, 3), _m(2, 3))),
    ErrorCase("hstack_nothing", lambda lib: lib.hstack([]), ()),
    ErrorCase("vstack_nothing", lambda lib: lib.vstack([]), ()),
    ErrorCase("dstack_nothing", lambda lib: lib.dstack([]), ()),
    ErrorCase("column_stack_nothing", lambda lib: lib.column_stack([]), ()),
    ErrorCase("block_diag_3d", lambda lib, x: lib.block_diag(x), (_m(2, 2, 2),)),
    ErrorCase("meshgrid_nothing", lambda lib: lib.meshgrid(indexing="ij"), ()),
    ErrorCase("meshgrid_dtypes", lambda lib, a, b: lib.meshgrid(a, b, indexing="ij"),
              (_m(2), _m(2, dtype="int64"))),
    ErrorCase("meshgrid_indexing", lambda lib, a, b: lib.meshgrid(a, b, indexing="yx"), (_m(2), _m(2))),
    ErrorCase("cartesian_prod_matrix", lambda lib, a, b: lib.cartesian_prod(a, b), (_m(2), _m(2, 2))),
    ErrorCase("cartesian_prod_scalar", lambda lib, a: lib.cartesian_prod(a), (_m(),)),
    ErrorCase("cartesian_prod_dtypes", lambda lib, a, b: lib.cartesian_prod(a, b), (_m(2), _m(2, dtype="int64"))),
    ErrorCase("combinations_matrix", lambda lib, x: lib.combinations(x), (_m(2, 2),)),
    ErrorCase("combinations_negative", lambda lib, x: lib.combinations(x, -1), (_m(3),)),
    # splitting
    ErrorCase("split_scalar", lambda lib, x: lib.split(x, 1), (_m(),)),
    ErrorCase("split_negative", lambda lib, x: x.split(-1), (_m(3),)),
    ErrorCase("split_zero", lambda lib, x: x.split(0), (_m(3),)),
    ErrorCase("split_sizes_sum", lambda lib, x: x.split([1, 1]), (_m(3, 2),)),
    ErrorCase("split_sizes_negative", lambda lib, x: lib.split(x, [4, -1]), (_m(3, 2),)),
    ErrorCase("split_dim", lambda lib, x: x.split(1, 2), (_m(3, 2),)),
    ErrorCase("chunk_zero", lambda lib, x: x.chunk(0), (_m(3),)),
    ErrorCase("chunk_scalar", lambda lib, x: lib.chunk(x, 1), (_m(),)),
    ErrorCase("tensor_split_zero", lambda lib, x: x.tensor_split(0), (_m(3),)),
    ErrorCase("tensor_split_scalar", lambda lib, x: lib.tensor_split(x, 2), (_m(),)),
    ErrorCase("tensor_split_float", lambda lib, x, i: lib.tensor_split(x, i), (_m(3), np.array([1.0]))),
    ErrorCase("tensor_split_2d", lambda lib, x, i: lib.tensor_split(x, i), (_m(3), np.ones((1, 1), "int64"))),
    ErrorCase("split_output_inplace", lambda lib, x: (x.requires_grad_() * 1).split(2)[1].mul_(2), (_m(4, 2),)),
    ErrorCase("unbind_output_inplace", lambda lib, x: list(x.requires_grad_() * 1)[0].mul_(2), (_m(4, 2),)),
    ErrorCase("unbind_scalar", lambda lib, x: x.unbind(), (_m(),)),
    ErrorCase("unbind_dim", lambda lib, x: lib.unbind(x, 2), (_m(2, 2),)),
    ErrorCase("iter_scalar", lambda lib, x: list(x), (_m(),)),
    ErrorCase("narrow_past_end", lambda lib, x: x.narrow(1, 3, 2), (_m(3, 4),)),
    ErrorCase("narrow_start", lambda lib, x: lib.narrow(x, 1, 5, 0), (_m(3, 4),)),
    ErrorCase("narrow_negative_start", lambda lib, x: lib.narrow(x, 1, -5, 0), (_m(3, 4),)),
    ErrorCase("narrow_length", lambda lib, x: x.narrow(0, 0, -1), (_m(3, 4),)),
    ErrorCase("narrow_scalar", lambda lib, x: x.narrow(0, 0, 1), (_m(),)),
    ErrorCase("select_index", lambda lib, x: x.select(0, 5), (_m(3, 4),)),
    ErrorCase("select_negative_index", lambda lib, x: x.select(-1, -5), (_m(3, 4),)),
    ErrorCase("select_scalar", lambda lib, x: x.select(0, 0), (_m(),)),
    # in-place views
    ErrorCase("squeeze__leaf", lambda lib, x: x.requires_grad_().squeeze_(), (_m(2, 1),)),
    ErrorCase("unsqueeze__view_of_leaf", lambda lib, x: x.requires_grad_()[0].unsqueeze_(0), (_m(2, 3),)),
    ErrorCase("t__split_output", lambda lib, x: (x.requires_grad_() * 1).split(2)[1].t_(), (_m(4, 2),)),
    ErrorCase("t__3d", lambda lib, x: x.t_(), (_m(2, 3, 4),)),
    ErrorCase("squeeze__dim", lambda lib, x: x.squeeze_(2), (_m(2, 1),)),
    ErrorCase("squeeze__dims_repeated", lambda lib, x: x.squeeze_((1, -1)), (_m(2, 1),)),
    ErrorCase("unsqueeze__dim", lambda lib, x: x.unsqueeze_(-4), (_m(2, 1),)),
    ErrorCase("transpose__dim", lambda lib, x: x.transpose_(0, 2), (_m(2, 1),)),
    ErrorCase("squeeze__saved", lambda lib, x: _squeeze_saved(x), (_m(2, 1),)),
]

KNOWN_BUGS = {}

