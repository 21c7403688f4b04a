"""The op database: one spec per op; every check in test_ops.py runs over all of them.

An entry names the op, the code that calls it and where its inputs may lie:

* ``fn`` is ONE lambda taking the library first: ``lambda lib, x, y: lib.mul(x, y)``. The
  tests call it with ``lib=chainrule`` and with ``lib=torch``, so the two sides can't drift.
* ``samples(g)`` yields ``Sample`` s for the dtype ``g.dtype``. NumPy arrays in a sample's
  args become tensors of each library (floating ones require grad); everything else
  (Python numbers, dims, shapes, lists of indices) is passed unchanged.
* ``covers`` lists the ``registry.OPS`` names the entry exercises, in its forward, its
  backward or its double backward. test_ops checks both that the union is every
  registered op and that each entry really runs the ops it claims.

Example: the entry ``Entry("exp", lambda lib, x: lib.exp(x), unary_samples, covers=("exp",),
dtypes=ALL)`` runs ``exp`` on vectors, matrices, 0-d, empty and transposed inputs of each
dtype in ``ALL``, compares values, result dtypes and gradients with PyTorch and the golden
file, gradchecks the float64 samples to second order and checks its jvp rule.
"""
import dataclasses
from typing import Callable

import numpy as np

FLOATS = ("float32", "float64")
NUMBERS = FLOATS + ("int64",)
ALL = NUMBERS + ("bool",)

# (rtol, atol) for comparing values and gradients with PyTorch and the golden file
DEFAULT_TOL = {"float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7),
               "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}
LOOSE_TOL = {"float32": (1e-5, 1e-5), "float64": (1e-7, 1e-7)}  # sums of products (matmul)


@dataclasses.dataclass(frozen=True)
class Domain:
    """Where an op's inputs may lie: [lo, hi], or ±[lo, hi] when ``both_signs``."""
    lo: float
    hi: float
    both_signs: bool = False

    def floats(self, rng, shape):
        x = rng.uniform(self.lo, self.hi, shape)
        if self.both_signs:
            x = x * rng.choice([-1.0, 1.0], shape)
        return x

    def ints(self, rng, shape):
        lo = int(np.ceil(self.lo))
        if self.both_signs or self.lo > 0:
            lo = max(lo, 1)  # the domain excludes 0 (a pole, a logarithm)
        x = rng.integers(lo, int(np.floor(self.hi)) + 1, shape)
        if self.both_signs:
            x = x * rng.choice([-1, 1], shape)
        return x

    def number(self, kind):
        """A Python number inside the domain, of kind "float", "int" or "bool"."""
        value = self.hi * 0.75 if self.lo > 0 or self.both_signs else -1.25
        if kind == "int":
            return int(np.ceil(value)) if value > 0 else int(np.floor(value))
        if kind == "bool":
            return True
        return value


REAL = Domain(-2.0, 2.0)
POSITIVE = Domain(0.5, 3.0)
NONZERO = Domain(0.5, 2.0, both_signs=True)
TAN = Domain(-1.2, 1.2)  # away from the poles at ±pi/2
UNIT = Domain(-0.9, 0.9)  # inside (-1, 1): asin, atanh, erfinv
PROBABILITY = Domain(0.1, 0.9)  # logit
ABOVE_ONE = Domain(1.2, 3.0)  # acosh; mvlgamma's x > (p - 1) / 2
LOG1P = Domain(-0.5, 2.0)


@dataclasses.dataclass(frozen=True)
class Sample:
    """One call of an entry's ``fn``: ``fn(lib, *args)``.

    ``grad``: positions in ``args`` of the arrays that require grad (None: every floating
    array). ``eps``: the finite-difference step for gradcheck and the jvp check; None where
    finite differences are meaningless (a kink or a tie: compared with PyTorch only), 1e-3
    where the result is float32 (a float64 step would drown in rounding).
    """
    name: str
    args: tuple
    grad: tuple = None
    eps: float = 1e-6

    def grad_positions(self):
        if self.grad is not None:
            return self.grad
        return tuple(i for i, a in enumerate(self.args)
                     if isinstance(a, np.ndarray) and a.dtype.kind in "fc")


class Gen:
    """Makes a sample's arrays: values from the entry's domain, in the dtype under test.

    ``g(2, 3)`` is a contiguous (2, 3) array; ``g.noncontig(2, 3)`` the same shape as a
    transposed view (strided where a transpose would still be contiguous); ``g.number()``
    a Python number of the dtype's kind.
    """

    def __init__(self, dtype, domain, rng):
        self.dtype = np.dtype(dtype)
        self.domain = domain
        self.rng = rng

    @property
    def is_float(self):
        return self.dtype.kind == "f"

    def __call__(self, *shape, dtype=None, domain=None):
        dtype = np.dtype(dtype or self.dtype)
        domain = domain or self.domain
        if dtype.kind == "b":
            return np.asarray(self.rng.random(shape) < 0.5)
        if dtype.kind in "iu":
            return np.asarray(domain.ints(self.rng, shape), dtype=dtype)
        if dtype.kind == "c":
            return np.asarray(domain.floats(self.rng, shape) + 1j * domain.floats(self.rng, shape), dtype=dtype)
        return np.asarray(domain.floats(self.rng, shape), dtype=dtype)

    def noncontig(self, *shape, dtype=None, domain=None):
        if len(shape) == 1:
            return self(2 * shape[0], dtype=dtype, domain=domain)[::2]
        full = self(*shape[::-1], dtype=dtype, domain=domain).T
        if full.flags.c_contiguous:  # size-1 dims: the transpose is contiguous too
            full = self(*shape[:-1], 2 * shape[-1], dtype=dtype, domain=domain)[..., ::2]
        assert not full.flags.c_contiguous
        return full

    def number(self, domain=None):
        kind = {"b": "bool", "i": "int"}.get(self.dtype.kind, "float")
        return (domain or self.domain).number(kind)


@dataclasses.dataclass(frozen=True)
class Entry:
    """One op's spec. ``second_order``: gradgradcheck it (true also for piecewise-linear
    ops such as relu: their second derivative is zero away from the kinks the samples avoid)."""
    name: str
    fn: Callable
    samples: Callable
    covers: tuple
    dtypes: tuple = FLOATS
    domain: Domain = REAL
    second_order: bool = True
    tol: dict = dataclasses.field(default_factory=lambda: DEFAULT_TOL)
    family: str = "core"  # which opdb_<family>.py holds it; its golden file is ops_<family>.npz

    def sample_list(self):
        """Every sample of every dtype, named ``<sample>-<dtype>``; the same on every call."""
        out = []
        for dtype in self.dtypes:
            rng = np.random.default_rng(_seed(self.name, dtype))
            for s in self.samples(Gen(dtype, self.domain, rng)):
                out.append(dataclasses.replace(s, name=f"{s.name}-{dtype}"))
        names = [s.name for s in out]
        assert len(names) == len(set(names)), f"{self.name}: duplicate sample names"
        return out


def _seed(*words):
    return sum((i + 1) * ord(c) for i, c in enumerate("/".join(words)))


def setitem(t, index, value):
    """``t[index] = value``, as an expression (lambdas can't assign)."""
    t[index] = value
    return t


def mul_through_view(x):
    """``y[1:].mul_(2)`` on a copy ``y`` of x: PyTorch gives the view an AsStridedBackward0
    node and its base a CopySlices node."""
    y = x * 1
    view = y[1:]
    view.mul_(2)
    return view


def jacobian_through_rebuilt_view(lib, x):
    """``func.jacrev`` of a view whose history an in-place change of its base rebuilt
    (AsStridedBackward0): the vmap over cotangents embeds a batch of gradients into the
    base's shape, one put at the region's positions (put_at_positions, take_at_positions)."""
    def f(x):
        y = x * 1
        view = y[..., 1:]
        y.mul_(2)
        return view * view
    return lib.func.jacrev(f)(x)


# --- samples shared by op families ----------------------------------------------------


def unary_samples(g):
    yield Sample("vector", (g(5),))
    yield Sample("matrix", (g(3, 4),))
    yield Sample("scalar", (g(),))
    yield Sample("empty", (g(0, 3),))
    yield Sample("noncontig", (g.noncontig(3, 4),))
    yield Sample("strided", (g.noncontig(4),))


def kink_samples(*points):
    """unary_samples plus one with values exactly at the kinks (compared with PyTorch only)."""
    def samples(g):
        yield from unary_samples(g)
        values = np.array(points + (1.0, -1.0))
        yield Sample("at_kinks", (values.astype(g.dtype),), eps=None)
    return samples


def binary_samples(g):
    """Tensor-tensor pairs with broadcasting, 0-d, empty and strided operands, Python
    numbers on either side, and (from the float32 pass) mixed dtypes."""
    yield Sample("same", (g(2, 3), g(2, 3)))
    yield Sample("broadcast", (g(3, 1), g(4)))
    yield Sample("broadcast_both", (g(2, 1, 3), g(4, 1)))
    yield Sample("scalar_tensor", (g(), g(2, 3)))
    yield Sample("tensor_scalar", (g(2, 3), g()))
    yield Sample("scalars", (g(), g()))
    yield Sample("empty", (g(0, 3), g(3)))
    yield Sample("noncontig", (g.noncontig(2, 3), g(2, 3)))
    yield Sample("number_right", (g(2, 3), g.number()))
    yield Sample("number_left", (g.number(), g(2, 3)))
    yield Sample("number_0d", (g(), g.number()))
    if g.dtype.kind in "fi":
        yield Sample("int_right", (g(2, 3), 2))
        yield Sample("float_left", (1.5, g(2, 3)))
    if g.is_float:  # complex results: compared with PyTorch, not finite differences
        yield Sample("complex_number", (g(2, 3), 0.5 + 1j), eps=None)
    if g.dtype == np.float32:
        yield Sample("mixed_0d_f64", (g(2, 3), g(dtype="float64")))
        yield Sample("mixed_f64", (g(2, 3), g(3, dtype="float64")))
        yield Sample("mixed_int", (g(2, 3, dtype="int64"), g(3)))
    if g.dtype == np.int64:
        yield Sample("int_bool", (g(2, 3), g(3, dtype="bool")))


def sub_samples(g):
    """binary_samples without bool operands, which ``-`` refuses (see ERRORS)."""
    return (s for s in binary_samples(g) if s.name != "int_bool")


# --- elementwise ------------------------------------------------------------------------


def div_samples(g):
    yield from binary_samples(g)
    if g.dtype.kind == "i":
        yield Sample("int_by_int", (g(4), g(4)))


def pow_samples(g):
    pos, real = POSITIVE, REAL if g.is_float else Domain(0.0, 3.0)  # ints: no negative powers
    yield Sample("tensor_tensor", (g(2, 3, domain=pos), g(2, 3, domain=real)))
    yield Sample("broadcast", (g(3, 1, domain=pos), g(4, domain=real)))
    yield Sample("scalar_tensor", (g(domain=pos), g(2, 3, domain=real)))
    yield Sample("empty", (g(0, 3, domain=pos), g(3, domain=real)))
    yield Sample("noncontig", (g.noncontig(2, 3, domain=pos), g(2, 3, domain=real)))
    yield Sample("square", (g(2, 3, domain=real), 2))
    yield Sample("cube_0d", (g(domain=real), 3))
    yield Sample("power_zero", (g(2, 3, domain=real), 0))
    yield Sample("base_number", (2, g(2, 3, domain=real)))
    yield Sample("base_float", (1.5, g(2, 3, domain=real)))
    if g.is_float:
        yield Sample("sqrt_power", (g(2, 3, domain=pos), 0.5))
        yield Sample("negative_power", (g(2, 3, domain=pos), -1.5))
        yield Sample("base_zero", (0.0, g(3, domain=pos)), eps=None)
        yield Sample("zero_to_zero", (np.array([0.0, 2.0], g.dtype), np.array([0.0, 0.0], g.dtype)), eps=None)
    if g.dtype == np.float32:
        yield Sample("mixed_int_base", (g(2, 3, dtype="int64", domain=pos), g(3, domain=real)))


def sinc_samples(g):
    yield from unary_samples(g)
    yield Sample("at_zero", (np.array([0.0, 0.5, -1.5]).astype(g.dtype),))


def logit_samples(g):
    yield Sample("matrix", (g(3, 4), None))
    yield Sample("eps", (g(3, 4), 0.2))
    yield Sample("scalar", (g(), None))
    yield Sample("empty", (g(0, 3), 0.1))


def round_decimals_samples(g):
    yield Sample("one", (g(3, 4), 1))
    yield Sample("two", (g(), 2))
    yield Sample("negative", (g(5) * 40, -1))


def nan_to_num_samples(g):
    yield Sample("finite", (g(3, 4), 0.0, None, None))
    yield Sample("scalar", (g(), 1.0, 2.0, -2.0))
    yield Sample("non_finite", (np.array([np.nan, np.inf, -np.inf, 1.5]).astype(g.dtype), 0.5, 9.0, -9.0), eps=None)
    yield Sample("defaults", (np.array([np.nan, np.inf, -np.inf, 1.5]).astype(g.dtype), 0.0, None, None), eps=None)


def order_samples(*orders):
    """unary_samples with an integer order argument (polygamma's n, mvlgamma's p)."""
    def samples(g):
        for n in orders:
            yield Sample(f"matrix_{n}", (g(3, 4), n))
            yield Sample(f"scalar_{n}", (g(), n))
        yield Sample("noncontig", (g.noncontig(3, 4), orders[0]))
        yield Sample("empty", (g(0, 3), orders[0]))
    return samples


def clamp_tensor_samples(g):
    yield Sample("both", (g(3, 4), g(3, 4, domain=Domain(-1.5, -0.5)), g(4, domain=Domain(0.5, 1.5))))
    yield Sample("min_only", (g(3, 4), g(3, 1), None))
    yield Sample("max_only", (g(3, 4), None, g()))
    yield Sample("broadcast_x", (g(4), g(3, 4, domain=Domain(-1.5, -0.5)), g(3, 1, domain=Domain(0.5, 1.5))))


def view_samples_2d(g):
    yield Sample("matrix", (g(3, 4),))
    yield Sample("vector", (g(4),))
    yield Sample("noncontig", (g.noncontig(3, 4),))


def clamp_samples(g):
    x = g(3, 4)
    yield Sample("both", (x, -0.5 if g.is_float else -1, 1.0 if g.is_float else 1))
    yield Sample("min_only", (g(3, 4), 0.25 if g.is_float else 0, None))
    yield Sample("max_only", (g(3, 4), None, 0.25 if g.is_float else 0))
    yield Sample("scalar", (g(), -0.5, 0.5))
    yield Sample("empty", (g(0, 3), -0.5, 0.5))
    yield Sample("noncontig", (g.noncontig(3, 4), -1, 1))
    if g.dtype.kind == "i":
        yield Sample("float_bound", (g(3, 4), 0.5, None))


def where_samples(g):
    yield Sample("same", (g(2, 3, dtype="bool"), g(2, 3), g(2, 3)))
    yield Sample("broadcast", (g(3, 1, dtype="bool"), g(4), g(3, 1)))
    yield Sample("scalar_cond", (g(dtype="bool"), g(2, 3), g(2, 3)))
    yield Sample("empty", (g(0, 3, dtype="bool"), g(3), g(0, 3)))
    yield Sample("noncontig", (g.noncontig(2, 3, dtype="bool"), g.noncontig(2, 3), g(2, 3)))
    yield Sample("number_other", (g(2, 3, dtype="bool"), g(2, 3), g.number()))
    yield Sample("number_self", (g(2, 3, dtype="bool"), g.number(), g(2, 3)))
    if g.dtype == np.float32:
        yield Sample("mixed", (g(2, 3, dtype="bool"), g(2, 3), g(3, dtype="float64")))


def cast_samples(g):
    targets = {"float32": ("float64", "int64", "bool"), "float64": ("float32", "float64", "int64"),
               "int64": ("float32", "float64", "bool"), "bool": ("float32", "int64")}[g.dtype.name]
    for target in targets:
        eps = 1e-3 if target == "float32" else 1e-6
        yield Sample(f"to_{target}", (g(3, 4), target), eps=eps)
        yield Sample(f"to_{target}_0d", (g(), target), eps=eps)
    yield Sample("noncontig", (g.noncontig(3, 4), "float64"))
    yield Sample("empty", (g(0, 2), "float64"))


def complex_pair_samples(g):
    """Real and imaginary parts as two real inputs, joined by a constant 0-d tensor ``i``
    (``z = x + y * i``), so that gradcheck stays real."""
    i = np.array(1j, dtype="complex64" if g.dtype == np.float32 else "complex128")
    yield Sample("matrix", (g(3, 4), g(3, 4), i), grad=(0, 1))
    yield Sample("scalar", (g(), g(), i), grad=(0, 1))
    yield Sample("empty", (g(0, 2), g(0, 2), i), grad=(0, 1))
    yield Sample("broadcast", (g(3, 1), g(4), i), grad=(0, 1))


def two_same_shape(g):
    yield Sample("matrix", (g(3, 4), g(3, 4)))
    yield Sample("broadcast_src", (g(3, 4), g(4)))
    yield Sample("scalar", (g(), g()))
    yield Sample("noncontig", (g.noncontig(3, 4), g.noncontig(3, 4)))


def fill_samples(g):
    yield Sample("matrix", (g(3, 4), g.number()))
    yield Sample("scalar", (g(), g.number()))
    yield Sample("tensor_value", (g(3, 4), g()))


# --- matrix products ------------------------------------------------------------------


def matmul_samples(g):
    yield Sample("dot", (g(3), g(3)))
    yield Sample("mv", (g(2, 3), g(3)))
    yield Sample("vm", (g(3), g(3, 2)))
    yield Sample("mm", (g(2, 3), g(3, 4)))
    yield Sample("bmm", (g(2, 2, 3), g(2, 3, 2)))
    yield Sample("broadcast_batch", (g(2, 1, 2, 3), g(3, 3, 2)))
    yield Sample("batch_matrix", (g(2, 2, 3), g(3, 2)))
    yield Sample("matrix_batch", (g(2, 3), g(2, 3, 2)))
    yield Sample("batch_vector", (g(2, 2, 3), g(3)))
    yield Sample("vector_batch", (g(3), g(2, 3, 2)))
    yield Sample("transposed", (g.noncontig(2, 3), g.noncontig(3, 2)))
    yield Sample("empty_inner", (g(2, 0), g(0, 3)))
    yield Sample("empty_batch", (g(0, 2, 3), g(3, 2)))


def mm_samples(g):
    yield Sample("square", (g(3, 3), g(3, 3)))
    yield Sample("rect", (g(2, 3), g(3, 4)))
    yield Sample("transposed", (g.noncontig(2, 3), g.noncontig(3, 2)))
    yield Sample("empty_inner", (g(2, 0), g(0, 3)))
    yield Sample("empty_outer", (g(0, 3), g(3, 2)))


def mv_samples(g):
    yield Sample("rect", (g(2, 3), g(3)))
    yield Sample("transposed", (g.noncontig(3, 2), g.noncontig(2)))
    yield Sample("empty_inner", (g(2, 0), g(0)))
    yield Sample("empty_outer", (g(0, 3), g(3)))


def dot_samples(g):
    yield Sample("vector", (g(4), g(4)))
    yield Sample("strided", (g.noncontig(3), g(3)))
    yield Sample("one", (g(1), g(1)))
    yield Sample("empty", (g(0), g(0)))


# --- reductions -----------------------------------------------------------------------


def reduce_all_samples(g):
    yield Sample("matrix", (g(3, 4),))
    yield Sample("scalar", (g(),))
    yield Sample("empty", (g(0, 3),))
    yield Sample("noncontig", (g.noncontig(3, 4),))
    yield Sample("3d", (g(2, 3, 2),))


def reduce_dim_samples(g):
    yield Sample("dim0", (g(3, 4), 0, False))
    yield Sample("dim1_keepdim", (g(3, 4), 1, True))
    yield Sample("negative_dim", (g(2, 3, 2), -1, False))
    yield Sample("tuple", (g(2, 3, 2), (0, 2), False))
    yield Sample("tuple_keepdim", (g(2, 3, 2), (-1, 0), True))
    yield Sample("list", (g(2, 3, 2), [1], False))
    yield Sample("all_dims", (g(2, 3), (0, 1), False))
    yield Sample("empty_dims", (g(2, 3), (), False))
    yield Sample("scalar", (g(), 0, False))
    yield Sample("scalar_keepdim", (g(), -1, True))
    yield Sample("empty", (g(0, 3), 0, False))
    yield Sample("empty_keep", (g(0, 3), 1, True))
    yield Sample("noncontig", (g.noncontig(3, 4), 0, True))


def extreme_samples(g):
    """reduce_all_samples but the empty one (an error, see ERRORS) and with ties."""
    yield from (s for s in reduce_all_samples(g) if s.name != "empty")
    ties = np.array([[1, 3, 3], [0, 3, -1]]).astype(g.dtype)
    yield Sample("ties", (ties,), eps=None)


def extreme_dim_samples(g):
    yield Sample("dim0", (g(3, 4), 0, False))
    yield Sample("dim1_keepdim", (g(3, 4), 1, True))
    yield Sample("negative_dim", (g(2, 3, 2), -1, False))
    yield Sample("middle_dim", (g(2, 3, 2), 1, True))
    yield Sample("scalar", (g(), 0, False))
    yield Sample("scalar_keepdim", (g(), 0, True))
    yield Sample("vector", (g(5), 0, False))
    yield Sample("empty_other_dim", (g(0, 3), 1, False))
    yield Sample("noncontig", (g.noncontig(3, 4), 0, False))
    ties = np.array([[1, 3, 3], [0, -1, 0]]).astype(g.dtype)
    yield Sample("ties", (ties, 1, False), eps=None)


def sum_to_size_samples(g):
    yield Sample("rows", (g(3, 4), (1, 4)))
    yield Sample("cols_keep", (g(3, 4), (3, 1)))
    yield Sample("lead", (g(2, 3, 4), (3, 4)))
    yield Sample("scalar", (g(2, 3), (1,)))
    yield Sample("same", (g(2, 3), (2, 3)))
    yield Sample("empty", (g(0, 3), (1, 3)))


# --- shapes ----------------------------------------------------------------------------


def reshape_samples(g):
    yield Sample("matrix", (g(2, 3), (3, 2)))
    yield Sample("infer", (g(2, 3, 2), (-1, 4)))
    yield Sample("to_vector", (g(2, 3), (6,)))
    yield Sample("scalar_to_1", (g(), (1,)))
    yield Sample("one_to_scalar", (g(1, 1), ()))
    yield Sample("empty", (g(0, 3), (3, -1, 2)))
    yield Sample("same_shape", (g(2, 3), (2, 3)))
    yield Sample("noncontig_copy", (g.noncontig(3, 4), (12,)))
    yield Sample("noncontig_view", (g.noncontig(3, 4), (3, 1, 4)))
    yield Sample("noncontig_same", (g.noncontig(3, 4), (3, 4)))


def view_samples(g):
    yield Sample("matrix", (g(2, 3), (3, 2)))
    yield Sample("infer", (g(2, 3, 2), (4, -1)))
    yield Sample("scalar", (g(), (1, 1)))
    yield Sample("to_scalar", (g(1,), ()))
    yield Sample("empty", (g(0, 3), (3, -1)))
    yield Sample("noncontig_compatible", (g.noncontig(3, 4), (3, 4, 1)))


def flatten_samples(g):
    yield Sample("all", (g(2, 3, 2), 0, -1))
    yield Sample("head", (g(2, 3, 2), 0, 1))
    yield Sample("tail", (g(2, 3, 2), -2, -1))
    yield Sample("one_dim", (g(2, 3), 1, 1))
    yield Sample("scalar", (g(), 0, -1))
    yield Sample("empty", (g(2, 0, 3), 0, 1))
    yield Sample("noncontig", (g.noncontig(3, 4), 0, 1))


def squeeze_samples(g):
    yield Sample("all", (g(1, 3, 1), None))
    yield Sample("dim", (g(1, 3, 1), 2))
    yield Sample("negative_dim", (g(1, 3, 1), -3))
    yield Sample("non_one_dim", (g(1, 3, 1), 1))
    yield Sample("tuple", (g(1, 3, 1), (0, 2)))
    yield Sample("scalar", (g(), None))
    yield Sample("scalar_dim", (g(), 0))
    yield Sample("empty", (g(0, 1), None))
    yield Sample("noncontig", (g.noncontig(3, 1), -1))


def unsqueeze_samples(g):
    yield Sample("front", (g(2, 3), 0))
    yield Sample("middle", (g(2, 3), 1))
    yield Sample("end", (g(2, 3), -1))
    yield Sample("scalar", (g(), 0))
    yield Sample("scalar_neg", (g(), -1))
    yield Sample("empty", (g(0, 3), 2))
    yield Sample("noncontig", (g.noncontig(3, 4), 1))


def transpose_samples(g):
    yield Sample("matrix", (g(2, 3), 0, 1))
    yield Sample("negative", (g(2, 3, 2), -1, 0))
    yield Sample("same_dim", (g(2, 3), 1, 1))
    yield Sample("scalar", (g(), 0, -1))
    yield Sample("empty", (g(0, 3), 0, 1))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, 0))


def t_samples(g):
    yield Sample("matrix", (g(2, 3),))
    yield Sample("vector", (g(3),))
    yield Sample("scalar", (g(),))
    yield Sample("empty", (g(0, 3),))
    yield Sample("noncontig", (g.noncontig(3, 4),))


def permute_samples(g):
    yield Sample("3d", (g(2, 3, 4), (2, 0, 1)))
    yield Sample("negative", (g(2, 3, 4), (-1, -3, 1)))
    yield Sample("identity", (g(2, 3), (0, 1)))
    yield Sample("scalar", (g(), ()))
    yield Sample("empty", (g(0, 3), (1, 0)))
    yield Sample("noncontig", (g.noncontig(3, 4), (1, 0)))


def expand_samples(g):
    yield Sample("column", (g(3, 1), (3, 4)))
    yield Sample("new_dims", (g(3), (2, 4, 3)))
    yield Sample("minus_one", (g(3, 1), (2, -1, 4)))
    yield Sample("scalar", (g(), (2, 3)))
    yield Sample("same", (g(2, 3), (2, 3)))
    yield Sample("to_empty", (g(1, 3), (0, 3)))
    yield Sample("empty", (g(0, 1), (0, 4)))
    yield Sample("noncontig", (g.noncontig(1, 3), (2, 2, 3)))


# --- indexing --------------------------------------------------------------------------


def basic_index_samples(g):
    x = g(3, 4)
    yield Sample("int", (x, 1))
    yield Sample("negative_int", (g(3, 4), -1))
    yield Sample("two_ints", (g(3, 4), (2, -3)))
    yield Sample("slice", (g(4, 3), slice(1, 3)))
    yield Sample("step", (g(5, 3), slice(None, None, 2)))
    yield Sample("steps_both", (g(5, 4), (slice(1, None, 2), slice(None, None, 3))))
    yield Sample("past_end", (g(3, 2), slice(1, 10)))
    yield Sample("empty_slice", (g(3, 2), slice(2, 2)))
    yield Sample("none", (g(3, 2), None))
    yield Sample("none_middle", (g(3, 2), (slice(None), None, 1)))
    yield Sample("ellipsis", (g(2, 3, 2), (Ellipsis, 1)))
    yield Sample("ellipsis_only", (g(2, 3), Ellipsis))
    yield Sample("ellipsis_none", (g(2, 3), (None, Ellipsis, None)))
    yield Sample("scalar_ellipsis", (g(), Ellipsis))
    yield Sample("scalar_none", (g(), None))
    yield Sample("noncontig", (g.noncontig(3, 4), (slice(None), 1)))
    yield Sample("empty_tensor", (g(0, 3), (slice(None), 1)))


def advanced_index_samples(g):
    yield Sample("list", (g(4, 3), [0, 2]))
    yield Sample("negative_list", (g(4, 3), [-1, 0]))
    yield Sample("repeated", (g(3, 2), [1, 1, 0, 1]))
    yield Sample("tensor", (g(4, 3), np.array([[0, 1], [3, 0]])))
    yield Sample("tensor_repeated", (g(4,), np.array([2, 2, 2])))
    yield Sample("second_dim", (g(2, 4), (slice(None), [3, 1, 3])))
    yield Sample("pairs", (g(3, 4), ([0, 2, 0], [1, 3, 1])))
    yield Sample("broadcast_pairs", (g(3, 4), (np.array([[0], [2]]), np.array([1, 3]))))
    yield Sample("mask", (g(3, 2), np.array([True, False, True])))
    yield Sample("mask_2d", (g(2, 3), np.array([[True, False, True], [False, False, True]])))
    yield Sample("mask_none", (g(3,), np.array([False, False, False])))
    yield Sample("mask_with_slice", (g(3, 4), (slice(1, None), np.array([True, False, False, True]))))
    yield Sample("index_and_none", (g(3, 4), (None, [2, 0])))
    yield Sample("index_and_ellipsis", (g(2, 3, 2), (Ellipsis, [1, 0, 1])))
    yield Sample("split_indices", (g(2, 3, 4), ([0, 1], slice(None), [3, 3])))
    yield Sample("empty_list", (g(3, 2), np.array([], dtype=np.int64)))
    yield Sample("scalar_true", (g(), True))
    yield Sample("noncontig", (g.noncontig(3, 4), [2, 0, 2]))


def setitem_basic_samples(g):
    yield Sample("row", (g(3, 4), 1, g(4)))
    yield Sample("broadcast_value", (g(3, 4), slice(0, 2), g(4)))
    yield Sample("strided", (g(4, 3), (slice(None, None, 2), 0), g(2)))
    yield Sample("number", (g(3, 4), (0, slice(1, 3)), g.number()))
    yield Sample("constant_tensor", (g(3, 4), 2, g(4)), grad=(0,))


def setitem_advanced_samples(g):
    yield Sample("list", (g(4, 3), [0, 2], g(2, 3)))
    yield Sample("mask", (g(3, 2), np.array([True, False, True]), g(2)))
    yield Sample("broadcast_value", (g(4, 3), [3, 1], g(3)))
    yield Sample("number", (g(4, 3), [3, 1], g.number()))


# --- the database ------------------------------------------------------------------------

_ew_binary = dict(samples=binary_samples, dtypes=ALL)

OPS = [
    # arithmetic: a Python number on either side goes through the *_scalar ops
    Entry("add", lambda lib, a, b: a + b, covers=("add", "add_scalar", "sum_to_size"), **_ew_binary),
    Entry("add_alpha", lambda lib, a, b: lib.add(a, b, alpha=2), binary_samples,
          covers=("add_alpha", "mul_scalar"), dtypes=NUMBERS),
    Entry("sub", lambda lib, a, b: a - b, sub_samples,
          covers=("sub", "sub_scalar", "rsub_scalar"), dtypes=NUMBERS),
    Entry("mul", lambda lib, a, b: a * b, covers=("mul", "mul_scalar"), **_ew_binary),
    Entry("div", lambda lib, a, b: a / b, div_samples,
          covers=("div", "div_scalar", "reciprocal"), dtypes=NUMBERS, domain=NONZERO),
    Entry("pow", lambda lib, a, b: a ** b, pow_samples,
          covers=("pow", "pow_scalar", "rpow_scalar", "where", "log"), dtypes=NUMBERS, domain=POSITIVE),
    Entry("neg", lambda lib, x: -x, unary_samples, covers=("neg",), dtypes=NUMBERS),
    Entry("abs", lambda lib, x: lib.abs(x), kink_samples(0.0), covers=("abs", "sign"), dtypes=NUMBERS),
    Entry("sign", lambda lib, x: lib.sign(x), kink_samples(0.0), covers=("sign",), dtypes=ALL),
    # unary maths: integer and bool inputs give the default float dtype
    Entry("exp", lambda lib, x: lib.exp(x), unary_samples, covers=("exp",), dtypes=ALL),
    Entry("log", lambda lib, x: x.log(), unary_samples, covers=("log",), dtypes=ALL, domain=POSITIVE),
    Entry("sqrt", lambda lib, x: lib.sqrt(x), unary_samples, covers=("sqrt",), dtypes=ALL, domain=POSITIVE),
    Entry("sin", lambda lib, x: lib.sin(x), unary_samples, covers=("sin", "cos"), dtypes=ALL),
    Entry("cos", lambda lib, x: x.cos(), unary_samples, covers=("cos", "sin"), dtypes=ALL),
    Entry("tan", lambda lib, x: lib.tan(x), unary_samples, covers=("tan",), dtypes=NUMBERS, domain=TAN),
    Entry("tanh", lambda lib, x: lib.tanh(x), unary_samples, covers=("tanh", "tanh_backward"), dtypes=ALL),
    Entry("sigmoid", lambda lib, x: lib.sigmoid(x), unary_samples, covers=("sigmoid", "sigmoid_backward"),
          dtypes=ALL),
    Entry("relu", lambda lib, x: lib.relu(x), kink_samples(0.0), covers=("relu",), dtypes=NUMBERS),
    Entry("reciprocal", lambda lib, x: x.reciprocal(), unary_samples, covers=("reciprocal",),
          dtypes=ALL, domain=NONZERO),
    Entry("clamp", lambda lib, x, lo, hi: lib.clamp(x, lo, hi), clamp_samples, covers=("clamp",),
          dtypes=NUMBERS),
    Entry("clamp_tensor", lambda lib, x, lo, hi: lib.clamp(x, lo, hi), clamp_tensor_samples,
          covers=("clamp_tensor",), dtypes=NUMBERS),
    Entry("where", lambda lib, c, x, y: lib.where(c, x, y), where_samples, covers=("where",), dtypes=ALL),
    # more unary maths (unary.py): integers give the default float dtype
    Entry("exp2", lambda lib, x: lib.exp2(x), unary_samples, covers=("exp2",), dtypes=NUMBERS),
    Entry("expm1", lambda lib, x: x.expm1(), unary_samples, covers=("expm1",), dtypes=NUMBERS),
    Entry("log2", lambda lib, x: lib.log2(x), unary_samples, covers=("log2",), dtypes=NUMBERS, domain=POSITIVE),
    Entry("log10", lambda lib, x: x.log10(), unary_samples, covers=("log10",), dtypes=NUMBERS, domain=POSITIVE),
    Entry("log1p", lambda lib, x: lib.log1p(x), unary_samples, covers=("log1p",), dtypes=NUMBERS, domain=LOG1P),
    Entry("rsqrt", lambda lib, x: lib.rsqrt(x), unary_samples, covers=("rsqrt",), dtypes=NUMBERS, domain=POSITIVE),
    Entry("asin", lambda lib, x: lib.asin(x), unary_samples, covers=("asin", "rsqrt"), dtypes=NUMBERS, domain=UNIT),
    Entry("acos", lambda lib, x: x.acos(), unary_samples, covers=("acos", "rsqrt"), dtypes=NUMBERS, domain=UNIT),
    Entry("atan", lambda lib, x: lib.atan(x), unary_samples, covers=("atan",), dtypes=NUMBERS),
    Entry("sinh", lambda lib, x: lib.sinh(x), unary_samples, covers=("sinh", "cosh"), dtypes=NUMBERS),
    Entry("cosh", lambda lib, x: x.cosh(), unary_samples, covers=("cosh", "sinh"), dtypes=NUMBERS),
    Entry("asinh", lambda lib, x: lib.asinh(x), unary_samples, covers=("asinh", "rsqrt"), dtypes=NUMBERS),
    Entry("acosh", lambda lib, x: lib.acosh(x), unary_samples, covers=("acosh", "rsqrt"), dtypes=NUMBERS,
          domain=ABOVE_ONE),
    Entry("atanh", lambda lib, x: x.atanh(), unary_samples, covers=("atanh",), dtypes=NUMBERS, domain=UNIT),
    Entry("logit", lambda lib, x, eps: lib.logit(x, eps), logit_samples, covers=("logit",), domain=PROBABILITY),
    Entry("sinc", lambda lib, x: lib.sinc(x), sinc_samples, covers=("sinc",), dtypes=NUMBERS),
    Entry("deg2rad", lambda lib, x: lib.deg2rad(x), unary_samples, covers=("deg2rad",), dtypes=NUMBERS),
    Entry("rad2deg", lambda lib, x: x.rad2deg(), unary_samples, covers=("rad2deg",), dtypes=NUMBERS),
    # rounding: piecewise constant (integers come back unchanged)
    Entry("floor", lambda lib, x: lib.floor(x), unary_samples, covers=("floor",), dtypes=NUMBERS),
    Entry("ceil", lambda lib, x: x.ceil(), unary_samples, covers=("ceil",), dtypes=NUMBERS),
    Entry("trunc", lambda lib, x: lib.trunc(x), unary_samples, covers=("trunc",), dtypes=NUMBERS),
    Entry("round", lambda lib, x: lib.round(x), unary_samples, covers=("round",), dtypes=NUMBERS),
    Entry("round_decimals", lambda lib, x, decimals: lib.round(x, decimals=decimals), round_decimals_samples,
          covers=("round_decimals",)),
    Entry("frac", lambda lib, x: lib.frac(x), unary_samples, covers=("frac",)),
    Entry("nan_to_num", lambda lib, x, nan, posinf, neginf: x.nan_to_num(nan, posinf, neginf),
          nan_to_num_samples, covers=("nan_to_num",)),
    Entry("sgn", lambda lib, x: lib.sgn(x), kink_samples(0.0), covers=("sgn",), dtypes=ALL),
    Entry("sgn_complex", lambda lib, x, y, i: lib.sgn(x + y * i).imag, complex_pair_samples,
          covers=("sgn", "imag")),
    Entry("angle", lambda lib, x: lib.angle(x), kink_samples(0.0), covers=("angle",), dtypes=NUMBERS),
    Entry("angle_complex", lambda lib, x, y, i: lib.angle(x + y * i), complex_pair_samples, covers=("angle",)),
    # special functions (special.py)
    Entry("erf", lambda lib, x: lib.erf(x), unary_samples, covers=("erf",), dtypes=NUMBERS),
    Entry("erfc", lambda lib, x: x.erfc(), unary_samples, covers=("erfc",), dtypes=NUMBERS),
    Entry("erfinv", lambda lib, x: lib.erfinv(x), unary_samples, covers=("erfinv",), dtypes=NUMBERS, domain=UNIT),
    Entry("lgamma", lambda lib, x: lib.lgamma(x), unary_samples, covers=("lgamma", "digamma"), dtypes=NUMBERS,
          domain=POSITIVE),
    Entry("digamma", lambda lib, x: x.digamma(), unary_samples, covers=("digamma", "polygamma"), dtypes=NUMBERS,
          domain=POSITIVE),
    Entry("polygamma", lambda lib, x, n: lib.polygamma(n, x), order_samples(1, 2), covers=("polygamma",),
          domain=POSITIVE),
    Entry("polygamma_", lambda lib, x, n: (x * 1).polygamma_(n), order_samples(1), covers=("polygamma_inplace",),
          domain=POSITIVE),
    Entry("mvlgamma", lambda lib, x, p: lib.mvlgamma(x, p), order_samples(2, 3), covers=("mvlgamma",),
          domain=Domain(1.5, 3.0)),
    Entry("i0", lambda lib, x: lib.i0(x), unary_samples, covers=("i0",), dtypes=NUMBERS),
    Entry("i0e", lambda lib, x: lib.special.i0e(x), unary_samples, covers=("i0e",), dtypes=NUMBERS),
    Entry("i1", lambda lib, x: lib.special.i1(x), unary_samples, covers=("i1",), dtypes=NUMBERS),
    Entry("i1e", lambda lib, x: lib.special.i1e(x), unary_samples, covers=("i1e",), dtypes=NUMBERS),
    # casts, copies, complex parts, whole-tensor writes
    Entry("cast", lambda lib, x, dtype: x.to(getattr(lib, dtype)), cast_samples, covers=("cast",),
          dtypes=ALL),
    Entry("clone", lambda lib, x: x.clone(), unary_samples, covers=("clone",), dtypes=ALL),
    Entry("real", lambda lib, x, y, i: (x + y * i).real, complex_pair_samples,
          covers=("real", "add", "mul")),
    Entry("imag", lambda lib, x, y, i: (x + y * i).imag * x, complex_pair_samples,
          covers=("imag", "mul", "add")),
    Entry("conj", lambda lib, x, y, i: (x * (x + y * i).conj()).imag, complex_pair_samples,
          covers=("conj", "imag", "mul")),
    Entry("zero_", lambda lib, x: (x * 2).zero_() + x, unary_samples, covers=("zero", "mul_scalar")),
    Entry("fill_", lambda lib, x, value: (x * 2).fill_(value) * x, fill_samples, covers=("fill", "fill_tensor")),
    Entry("copy_", lambda lib, x, src: (x * 2).copy_(src) * x, two_same_shape, covers=("copy", "sum_to_size")),
    # matrix products
    Entry("matmul", lambda lib, a, b: a @ b, matmul_samples,
          covers=("matmul", "mm", "mv", "dot", "unsqueeze", "squeeze_dim", "unsafe_view", "sum_to_size",
                  "transpose"),
          dtypes=NUMBERS, tol=LOOSE_TOL),
    Entry("mm", lambda lib, a, b: lib.mm(a, b), mm_samples, covers=("mm", "t"), dtypes=NUMBERS, tol=LOOSE_TOL),
    Entry("mv", lambda lib, m, v: m.mv(v), mv_samples, covers=("mv", "t", "unsqueeze"), dtypes=NUMBERS,
          tol=LOOSE_TOL),
    Entry("dot", lambda lib, a, b: lib.dot(a, b), dot_samples, covers=("dot",), dtypes=NUMBERS,
          tol=LOOSE_TOL),
    # reductions
    Entry("sum", lambda lib, x: x.sum(), reduce_all_samples, covers=("sum", "expand"), dtypes=ALL),
    Entry("sum_dim", lambda lib, x, dim, keepdim: lib.sum(x, dim, keepdim=keepdim), reduce_dim_samples,
          covers=("sum_dim", "view", "expand"), dtypes=ALL),
    Entry("mean", lambda lib, x: x.mean(), reduce_all_samples, covers=("mean", "expand", "div_scalar")),
    Entry("mean_dim", lambda lib, x, dim, keepdim: x.mean(dim, keepdim), reduce_dim_samples,
          covers=("mean_dim", "view", "expand", "div_scalar")),
    Entry("max", lambda lib, x: x.max(), extreme_samples, covers=("max", "div", "mul"), dtypes=ALL),
    Entry("min", lambda lib, x: lib.min(x), extreme_samples, covers=("min", "div", "mul"), dtypes=ALL),
    Entry("max_dim", lambda lib, x, dim, keepdim: x.max(dim, keepdim), extreme_dim_samples,
          covers=("max_dim", "put_along", "take_along"), dtypes=NUMBERS),
    Entry("min_dim", lambda lib, x, dim, keepdim: lib.min(x, dim, keepdim=keepdim), extreme_dim_samples,
          covers=("min_dim", "put_along", "take_along"), dtypes=NUMBERS),
    Entry("sum_to_size", lambda lib, x, shape: x.sum_to_size(shape), sum_to_size_samples,
          covers=("sum_to_size", "expand")),
    # shapes: views of the input
    Entry("reshape", lambda lib, x, shape: x.reshape(shape), reshape_samples,
          covers=("view", "reshape_alias", "unsafe_view", "clone"), dtypes=ALL),
    Entry("view", lambda lib, x, shape: x.view(shape), view_samples, covers=("view",), dtypes=ALL),
    Entry("flatten", lambda lib, x, start, end: lib.flatten(x, start, end), flatten_samples,
          covers=("view",), dtypes=ALL),
    Entry("squeeze", lambda lib, x, dim: x.squeeze() if dim is None else x.squeeze(dim), squeeze_samples,
          covers=("squeeze", "squeeze_dim", "squeeze_dims"), dtypes=ALL),
    Entry("unsqueeze", lambda lib, x, dim: x.unsqueeze(dim), unsqueeze_samples,
          covers=("unsqueeze", "squeeze_dim"), dtypes=ALL),
    Entry("transpose", lambda lib, x, d0, d1: lib.transpose(x, d0, d1), transpose_samples,
          covers=("transpose",), dtypes=ALL),
    Entry("t", lambda lib, x: x.t(), t_samples, covers=("t",), dtypes=ALL),
    Entry("T", lambda lib, x: x.T, t_samples, covers=("permute",), dtypes=ALL),
    Entry("permute", lambda lib, x, dims: x.permute(dims), permute_samples, covers=("permute",), dtypes=ALL),
    Entry("expand", lambda lib, x, shape: x.expand(shape), expand_samples,
          covers=("expand", "sum_to_size"), dtypes=ALL),
    # indexing: basic indexing gives views, advanced indexing copies
    Entry("getitem_basic", lambda lib, x, index: x[index], basic_index_samples,
          covers=("select", "slice", "index_unsqueeze", "alias", "index_backward"), dtypes=ALL),
    Entry("getitem_advanced", lambda lib, x, index: x[index], advanced_index_samples,
          covers=("index", "index_backward"), dtypes=ALL),
    Entry("setitem_basic", lambda lib, x, index, value: setitem(x * 1, index, value), setitem_basic_samples,
          covers=("copy_slices", "mul_scalar", "select", "slice")),
    Entry("setitem_advanced", lambda lib, x, index, value: setitem(x * 1, index, value),
          setitem_advanced_samples, covers=("index_put", "index", "mul_scalar")),
    Entry("inplace_on_view", lambda lib, x: mul_through_view(x), view_samples_2d,
          covers=("as_strided_view", "embed_view", "copy_slices", "slice", "mul_scalar")),
    Entry("jacobian_through_rebuilt_view", jacobian_through_rebuilt_view, view_samples_2d,
          covers=("put_at_positions", "take_at_positions", "as_strided_view", "embed_view")),
]



# --- error cases: same exception type and message as PyTorch -----------------------------

@dataclasses.dataclass(frozen=True)
class ErrorCase:
    """``fn(lib, *args)`` must raise the same exception type with the same message."""
    name: str
    fn: Callable
    args: tuple


def _m(*shape, dtype="float32"):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


ERRORS = [
    # shapes that don't fit
    ErrorCase("add_broadcast", lambda lib, a, b: a + b, (_m(2, 3), _m(4))),
    ErrorCase("mul_broadcast", lambda lib, a, b: a * b, (_m(2, 3), _m(2, 2))),
    ErrorCase("matmul_inner", lambda lib, a, b: a @ b, (_m(2, 3), _m(4, 5))),
    ErrorCase("matmul_batched_inner", lambda lib, a, b: a @ b, (_m(2, 2, 3), _m(2, 4, 2))),
    ErrorCase("matmul_batch_broadcast", lambda lib, a, b: a @ b, (_m(2, 3, 4), _m(5, 4, 2))),
    ErrorCase("matmul_batch_broadcast_last", lambda lib, a, b: a @ b, (_m(2, 3, 2, 3), _m(4, 3, 2))),
    ErrorCase("matmul_batch_broadcast_inner", lambda lib, a, b: a @ b, (_m(2, 1, 2, 3), _m(3, 4, 2))),
    ErrorCase("matmul_folded_mm", lambda lib, a, b: a @ b, (_m(2, 2, 3), _m(4, 2))),
    ErrorCase("matmul_folded_mv", lambda lib, a, b: a @ b, (_m(2, 2, 3), _m(4))),
    ErrorCase("matmul_vector_batch", lambda lib, a, b: a @ b, (_m(3), _m(2, 4, 2))),
    ErrorCase("matmul_matrix_batch", lambda lib, a, b: a @ b, (_m(2, 3), _m(2, 4, 2))),
    ErrorCase("matmul_vectors", lambda lib, a, b: a @ b, (_m(3), _m(4))),
    ErrorCase("matmul_mv", lambda lib, a, b: a @ b, (_m(2, 3), _m(4))),
    ErrorCase("matmul_vm", lambda lib, a, b: a @ b, (_m(3), _m(4, 2))),
    ErrorCase("matmul_0d", lambda lib, a, b: lib.matmul(a, b), (_m(), _m(3))),
    ErrorCase("matmul_dtype", lambda lib, a, b: a @ b, (_m(2, 3), _m(3, 2, dtype="float64"))),
    ErrorCase("mm_inner", lambda lib, a, b: lib.mm(a, b), (_m(2, 3), _m(2, 3))),
    ErrorCase("mm_vector", lambda lib, a, b: lib.mm(a, b), (_m(3), _m(3, 2))),
    ErrorCase("mm_vector_right", lambda lib, a, b: lib.mm(a, b), (_m(2, 3), _m(3))),
    ErrorCase("mm_dtype", lambda lib, a, b: lib.mm(a, b), (_m(2, 3), _m(3, 2, dtype="float64"))),
    ErrorCase("mv_size", lambda lib, m, v: lib.mv(m, v), (_m(2, 3), _m(4))),
    ErrorCase("mv_vector", lambda lib, m, v: lib.mv(m, v), (_m(3), _m(3))),
    ErrorCase("mv_matrix_vec", lambda lib, m, v: lib.mv(m, v), (_m(2, 3), _m(3, 1))),
    ErrorCase("dot_size", lambda lib, a, b: lib.dot(a, b), (_m(3), _m(4))),
    ErrorCase("dot_2d", lambda lib, a, b: lib.dot(a, b), (_m(2, 2), _m(2))),
    ErrorCase("dot_dtype", lambda lib, a, b: lib.dot(a, b), (_m(3), _m(3, dtype="float64"))),
    ErrorCase("where_broadcast", lambda lib, c, x, y: lib.where(c, x, y),
              (np.array([True, False]), _m(3), _m(3))),
    # dims out of range
    ErrorCase("sum_dim", lambda lib, x: x.sum(2), (_m(2, 3),)),
    ErrorCase("sum_negative_dim", lambda lib, x: x.sum(-3), (_m(2, 3),)),
    ErrorCase("sum_repeated_dim", lambda lib, x: x.sum((1, -1)), (_m(2, 3),)),
    ErrorCase("mean_dim", lambda lib, x: x.mean((0, 5)), (_m(2, 3),)),
    ErrorCase("max_dim", lambda lib, x: x.max(3), (_m(2, 3),)),
    ErrorCase("min_dim_scalar", lambda lib, x: x.min(1), (_m(),)),
    ErrorCase("transpose_dim", lambda lib, x: x.transpose(0, 2), (_m(2, 3),)),
    ErrorCase("unsqueeze_dim", lambda lib, x: x.unsqueeze(3), (_m(2, 3),)),
    ErrorCase("squeeze_dims", lambda lib, x: x.squeeze((0, 2)), (_m(2, 3),)),
    ErrorCase("sum_scalar_dim", lambda lib, x: x.sum(1), (_m(),)),
    ErrorCase("squeeze_dim", lambda lib, x: x.squeeze(-3), (_m(2, 3),)),
    ErrorCase("permute_dim", lambda lib, x: x.permute(0, 2), (_m(2, 3),)),
    ErrorCase("permute_repeated", lambda lib, x: x.permute(0, 0), (_m(2, 3),)),
    ErrorCase("permute_length", lambda lib, x: x.permute(0,), (_m(2, 3),)),
    ErrorCase("flatten_dim", lambda lib, x: x.flatten(0, 4), (_m(2, 3),)),
    ErrorCase("flatten_order", lambda lib, x: x.flatten(1, 0), (_m(2, 3),)),
    ErrorCase("t_3d", lambda lib, x: x.t(), (_m(2, 3, 1),)),
    # indices out of range
    ErrorCase("index_int", lambda lib, x: x[3], (_m(3, 2),)),
    ErrorCase("index_negative", lambda lib, x: x[:, -3], (_m(3, 2),)),
    ErrorCase("index_too_many", lambda lib, x: x[0, 0, 0], (_m(3, 2),)),
    ErrorCase("index_scalar", lambda lib, x: x[0], (_m(),)),
    ErrorCase("index_list", lambda lib, x: x[[0, 5]], (_m(3, 2),)),
    ErrorCase("index_tensor", lambda lib, x, i: x[i], (_m(3, 2), np.array([1, -4]))),
    ErrorCase("index_list_dim1", lambda lib, x: x[:, [0, 2]], (_m(3, 2),)),
    ErrorCase("index_float", lambda lib, x, i: x[i], (_m(3, 2), np.array([0.0, 1.0]))),
    ErrorCase("index_mask_shape", lambda lib, x, m: x[m], (_m(3, 2), np.array([True, False]))),
    ErrorCase("index_mask_2d", lambda lib, x, m: x[m], (_m(3, 2), np.ones((3, 3), bool))),
    ErrorCase("index_mask_after_slice", lambda lib, x, m: x[1:, m], (_m(3, 2), np.array([True, False, True]))),
    ErrorCase("index_list_after_mask", lambda lib, x: x[[True, False, True], [0, 2]], (_m(3, 2),)),
    ErrorCase("index_slice_scalar", lambda lib, x: x[1:], (_m(),)),
    ErrorCase("index_negative_step", lambda lib, x: x[::-1], (_m(3, 2),)),
    # shapes that can't be formed
    ErrorCase("view_size", lambda lib, x: x.view(4), (_m(2, 3),)),
    ErrorCase("view_noncontig", lambda lib, x: x.t().view(6), (_m(2, 3),)),
    ErrorCase("view_infer_zero", lambda lib, x: x.view(-1, 0), (_m(6),)),
    ErrorCase("view_empty_ambiguous", lambda lib, x: x.view(-1, 3, 0), (_m(0, 3),)),
    ErrorCase("reshape_two_inferred", lambda lib, x: x.reshape(-1, -1), (_m(2, 3),)),
    ErrorCase("expand_size", lambda lib, x: x.expand(2, 4), (_m(2, 3),)),
    ErrorCase("expand_fewer", lambda lib, x: x.expand(3), (_m(2, 3),)),
    # empty inputs and dtypes that the op refuses
    ErrorCase("max_empty", lambda lib, x: x.max(), (_m(0, 3),)),
    ErrorCase("max_empty_dim", lambda lib, x: x.max(0), (_m(0, 3),)),
    ErrorCase("mean_int", lambda lib, x: x.mean(), (_m(2, 3, dtype="int64"),)),
    ErrorCase("sub_bool", lambda lib, a, b: a - b, (_m(2).astype(bool), _m(2).astype(bool))),
    ErrorCase("sub_bool_int", lambda lib, a, b: a - b, (_m(2).astype(bool), _m(2, dtype="int64"))),
    ErrorCase("neg_bool", lambda lib, x: -x, (_m(2).astype(bool),)),
    ErrorCase("abs_bool", lambda lib, x: lib.abs(x), (_m(2).astype(bool),)),
    ErrorCase("relu_bool", lambda lib, x: lib.relu(x), (_m(2).astype(bool),)),
    ErrorCase("pow_int_negative", lambda lib, x: x ** -1, (_m(2, dtype="int64"),)),
    ErrorCase("clamp_no_bounds", lambda lib, x: lib.clamp(x), (_m(2),)),
    ErrorCase("clamp_mixed_bounds", lambda lib, x, lo: lib.clamp(x, lo, 1.0), (_m(2), _m(2))),
    ErrorCase("where_int_cond", lambda lib, c, x: lib.where(c, x, x), (_m(2, dtype="int64"), _m(2))),
]


# --- op families added after the core: one module each (opdb_<family>.py) --------------------
# Each holds ENTRIES, ERRORS and KNOWN_BUGS (same format as test_ops.KNOWN_BUGS); they are
# imported here, at the end, because they build on the classes and samples above.

FAMILIES = ("pointwise", "reductions", "shape", "indexing", "linalg", "nn", "losses", "conv", "random")
FAMILY_KNOWN_BUGS = {}


def _add_family(name, module):
    OPS.extend(dataclasses.replace(e, family=name) for e in module.ENTRIES)
    ERRORS.extend(module.ERRORS)
    FAMILY_KNOWN_BUGS.update(module.KNOWN_BUGS)


import opdb_pointwise  # noqa: E402
import opdb_reductions  # noqa: E402
import opdb_shape  # noqa: E402
import opdb_indexing  # noqa: E402
import opdb_linalg  # noqa: E402
import opdb_nn  # noqa: E402
import opdb_losses  # noqa: E402
import opdb_conv  # noqa: E402
import opdb_random  # noqa: E402

for _name, _module in zip(FAMILIES, (opdb_pointwise, opdb_reductions, opdb_shape, opdb_indexing, opdb_linalg,
                                     opdb_nn, opdb_losses, opdb_conv, opdb_random)):
    _add_family(_name, _module)
BY_NAME = {e.name: e for e in OPS}
assert len(BY_NAME) == len(OPS), "two entries share a name"


# --- running a sample: the same code for chainrule and for torch ----------------------------


def copy_array(a):
    """A copy of ``a`` with the same memory layout (transposed stays transposed, strided
    stays strided): a copy of its base, viewed with its strides."""
    base = a.base
    if a.flags.c_contiguous or base is None or not base.flags.c_contiguous:
        return np.array(a, order="K", copy=True)
    offset = a.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return np.ndarray(a.shape, a.dtype, buffer=base.copy(), offset=offset, strides=a.strides)


def build_args(lib, sample, requires_grad=True, contiguous=False):
    """The sample's args as ``lib`` tensors (arrays inside tuples too), and the leaves that
    require grad. Arrays are copied, so the two libraries never share memory."""
    grad_positions = sample.grad_positions() if requires_grad else ()
    leaves = []

    def convert(a, position):
        if isinstance(a, np.ndarray):
            a = a.copy(order="C") if contiguous else copy_array(a)
            t = lib.from_numpy(a)
            if position in grad_positions:
                t.requires_grad_()
                leaves.append(t)
            return t
        if isinstance(a, tuple):
            return tuple(convert(x, None) for x in a)
        return a

    return [convert(a, i) for i, a in enumerate(sample.args)], leaves


def as_list(result):
    """An op's result as a list of tensors (``max(dim)`` gives two)."""
    return list(result) if isinstance(result, tuple) else [result]


def numpy_dtype(t):
    return np.dtype(str(t.dtype).replace("torch.", ""))


def to_array(t):
    """A tensor of either library as a NumPy array; PyTorch's ZeroTensor (an all-zero
    gradient it never materialised) as zeros."""
    if getattr(t, "_is_zerotensor", None) is not None and t._is_zerotensor():
        return np.zeros(tuple(t.shape), numpy_dtype(t))
    return np.asarray(t.detach().numpy())


def upstream_grad(entry_name, sample_name, k, shape, dtype):
    """The random gradient fed to output ``k``: the same for chainrule, torch and the golden file."""
    rng = np.random.default_rng(_seed(entry_name, sample_name, str(k)))
    return np.asarray(rng.standard_normal(tuple(shape))).astype(dtype)


def run_with_grads(lib, entry, sample):
    """``(result, grads)``: the op's result and the gradients of its leaves for the sample's
    upstream gradients (grads is None when no output requires grad)."""
    args, leaves = build_args(lib, sample)
    result = entry.fn(lib, *args)
    outs = [o for o in as_list(result) if o.requires_grad]
    if not outs or not leaves:
        return result, None
    ups = [lib.from_numpy(upstream_grad(entry.name, sample.name, k, o.shape, numpy_dtype(o)))
           for k, o in enumerate(outs)]
    grads = lib.autograd.grad(outs, leaves, ups, allow_unused=True)
    return result, grads
