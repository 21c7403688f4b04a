"""Op database entries for random sampling and creation ops (_ops/creation.py, _ops/random.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

The op database calls each op once on each side without seeding in between, so the
random ops are checked where their result is deterministic: degenerate parameters (``uniform_(a, a)``, ``normal_(m, 0)``,
``bernoulli_(1.0)``...), or the draw times 0 plus the input (``y * 0 + x``), which keeps
their nodes and zero gradients in the graph. Their streams, bit for bit against
PyTorch's after the same seed, are tested in test_random.py and test_random_streams.py. The creation ops (``logspace``, ``tril_indices``...) take no tensors:
their samples compare values and dtypes.
"""
import math

import numpy as np

from op_db import Domain, Entry, ErrorCase, Sample

PROBABILITY = Domain(0.1, 0.9)
POSITIVE = Domain(0.5, 3.0)


def zeroed(draw, x):
    """``draw * 0 + x``: x's values, with the draw's node in the graph."""
    return draw * 0 + x


# --- in-place fills -----------------------------------------------------------------------------

FILLS = [("uniform_", (-2.0, 3.0)), ("normal_", (1.0, 2.0)), ("exponential_", (2.0,)), ("cauchy_", ()),
         ("log_normal_", (0.5, 0.25)), ("geometric_", (0.3,)), ("random_", ()), ("random_", (5,)),
         ("random_", (2, 9)), ("bernoulli_", (0.3,))]

# parameters that make the draw a constant
CONSTANT_FILLS = [("uniform_", (0.5, 0.5)), ("normal_", (2.0, 0.0)), ("exponential_", (math.inf,)),
                  ("random_", (2, 3)), ("random_", (1,)), ("bernoulli_", (1.0,)), ("bernoulli_", (0.0,))]


def fill_samples(g):
    for method, args in FILLS:
        name = method + "_".join(str(a) for a in args)
        yield Sample(f"{name}_matrix", (g(3, 4), method, args))
        yield Sample(f"{name}_scalar", (g(), method, args))
    yield Sample("uniform_empty", (g(0, 3), "uniform_", (0.0, 1.0)))
    yield Sample("normal_noncontig", (g.noncontig(3, 4), "normal_", (0.0, 1.0)))


def constant_fill_samples(g):
    for method, args in CONSTANT_FILLS:
        name = method + "_".join(str(a) for a in args)
        yield Sample(f"{name}_matrix", (g(3, 4), method, args))
        yield Sample(f"{name}_scalar", (g(), method, args))


def bernoulli_tensor_samples(g):
    """(x, p): p broadcasts to x."""
    yield Sample("same", (g(3, 4), g(3, 4, domain=PROBABILITY)))
    yield Sample("broadcast", (g(3, 4), g(4, domain=PROBABILITY)))
    yield Sample("scalar", (g(), g(domain=PROBABILITY)))


def hard_probabilities(g):
    yield Sample("zeros_ones", (g(2, 3), np.array([[0, 1, 1], [1, 0, 0]], g.dtype)), grad=(0,), eps=None)
    yield Sample("broadcast", (g(2, 3), np.array([1, 0, 1], g.dtype)), grad=(0,), eps=None)


def probabilities(g):
    yield Sample("matrix", (g(3, 4, domain=PROBABILITY),))
    yield Sample("scalar", (g(domain=PROBABILITY),))
    yield Sample("empty", (g(0, 2, domain=PROBABILITY),))


def rates(g):
    yield Sample("small", (g(3, 4, domain=POSITIVE),))
    yield Sample("large", (g(5, domain=Domain(10.0, 40.0)),))
    yield Sample("scalar", (g(domain=POSITIVE),))


def zero_rates(g):
    yield Sample("zeros", (np.zeros((2, 3), g.dtype),), eps=None)


def hard_bernoulli(g):
    yield Sample("zeros_ones", (np.array([[0, 1, 1], [1, 0, 0]], g.dtype),), eps=None)


def normal_samples(g):
    """(mean, std): a tensor on either side or both, broadcasting."""
    yield Sample("mean_tensor", (g(3, 4), 1.5))
    yield Sample("std_tensor", (0.5, g(3, 4, domain=POSITIVE)))
    yield Sample("both", (g(3, 4), g(3, 4, domain=POSITIVE)))
    yield Sample("both_broadcast", (g(3, 1), g(4, domain=POSITIVE)))
    yield Sample("mean_scalar", (g(), 2.0))


def constant_normal_samples(g):
    yield Sample("mean_tensor", (g(3, 4), 0.0), eps=None)
    yield Sample("both", (g(2, 3), np.zeros((2, 3), g.dtype)), grad=(0,), eps=None)


def normal_anchor(mean, std):
    """The tensor among normal's arguments with the result's shape (for ``zeroed``)."""
    if hasattr(mean, "shape") and hasattr(std, "shape"):
        return mean + std * 0
    return mean if hasattr(mean, "shape") else std


# --- creation ---------------------------------------------------------------------------------


def logspace_samples(g):
    """(start, end, steps, base, dtype)."""
    dtype = g.dtype.name
    yield Sample("decades", (-2, 2, 5, 10.0, dtype))
    yield Sample("base_2", (0, 10, 11, 2.0, dtype))
    yield Sample("one_step", (3, 5, 1, 10.0, dtype))
    yield Sample("no_steps", (3, 5, 0, 10.0, dtype))
    yield Sample("descending", (4, 1, 4, 3.0, dtype))
    if g.dtype.kind == "f":
        yield Sample("fractional", (0.5, 1.75, 6, 10.0, dtype))
        yield Sample("base_e", (0, 1, 7, math.e, dtype))
        yield Sample("many", (-3.0, 3.0, 37, 10.0, dtype))
        yield Sample("negative_base", (0, 4, 5, -2.0, dtype))


def triangle_samples(g):
    """(row, col, offset, dtype)."""
    dtype = g.dtype.name
    yield Sample("square", (3, 3, 0, dtype))
    yield Sample("wide", (3, 5, 1, dtype))
    yield Sample("tall", (5, 2, -1, dtype))
    yield Sample("big_offset", (3, 4, 10, dtype))
    yield Sample("negative_offset", (3, 4, -10, dtype))
    yield Sample("empty", (0, 0, 0, dtype))


def arange_samples(g):
    dtype = g.dtype.name
    yield Sample("ints", (-3, 7, 2, dtype))
    yield Sample("descending", (5, -5, -1.5, dtype))
    if g.dtype.kind == "f":
        yield Sample("floats", (0.0, 1.0, 0.1, dtype))
        yield Sample("long", (0.0, 10.0, 0.01, dtype))


def linspace_samples(g):
    dtype = g.dtype.name
    yield Sample("unit", (0.0, 1.0, 11, dtype))
    yield Sample("descending", (3.0, -3.0, 7, dtype))
    yield Sample("one", (2.0, 5.0, 1, dtype))
    yield Sample("long", (-1.0, 1.0, 101, dtype))


def eye_samples(g):
    dtype = g.dtype.name
    yield Sample("square", (3, None, dtype))
    yield Sample("wide", (2, 4, dtype))
    yield Sample("empty", (0, 3, dtype))


def full_samples(g):
    dtype = g.dtype.name
    yield Sample("matrix", ((2, 3), 1.5, dtype))
    yield Sample("scalar_shape", ((), -2, dtype))
    yield Sample("empty", ((0, 4), 7, dtype))


def _dtype(lib, name):
    return getattr(lib, name)


ENTRIES = [
    # random fills: each draw's node, with a zero gradient
    Entry("random_fill", lambda lib, x, method, args: zeroed(getattr(x * 1, method)(*args), x), fill_samples,
          covers=("uniform", "normal_fill", "exponential", "cauchy", "log_normal", "geometric", "random",
                  "random_to", "random_from_to", "bernoulli_fill")),
    Entry("random_fill_constant", lambda lib, x, method, args: getattr(x * 1, method)(*args), constant_fill_samples,
          covers=("uniform", "normal_fill", "exponential", "random_to", "random_from_to", "bernoulli_fill")),
    Entry("bernoulli_fill_tensor", lambda lib, x, p: zeroed((x * 1).bernoulli_(p), x) + p * 0,
          bernoulli_tensor_samples, covers=("bernoulli_fill_tensor",)),
    Entry("bernoulli_fill_tensor_constant", lambda lib, x, p: (x * 1).bernoulli_(p), hard_probabilities,
          covers=("bernoulli_fill_tensor",)),
    # sampling functions
    Entry("bernoulli", lambda lib, p: zeroed(lib.bernoulli(p), p), probabilities, covers=("bernoulli",)),
    Entry("bernoulli_method", lambda lib, p: zeroed(p.bernoulli(), p), probabilities, covers=("bernoulli",)),
    Entry("bernoulli_constant", lambda lib, p: lib.bernoulli(p), hard_bernoulli, covers=("bernoulli",)),
    Entry("poisson", lambda lib, rate: zeroed(lib.poisson(rate), rate), rates, covers=("poisson",)),
    Entry("poisson_zero_rate", lambda lib, rate: lib.poisson(rate), zero_rates, covers=("poisson",)),
    Entry("normal_tensor", lambda lib, mean, std: zeroed(lib.normal(mean, std), normal_anchor(mean, std)),
          normal_samples, covers=("normal_mean", "normal_std", "normal_mean_std")),
    Entry("normal_tensor_constant", lambda lib, mean, std: lib.normal(mean, std), constant_normal_samples,
          covers=("normal_mean", "normal_mean_std")),
    # creation: no tensor inputs, values and dtypes only
    Entry("logspace", lambda lib, start, end, steps, base, dtype: lib.logspace(start, end, steps, base,
                                                                             dtype=_dtype(lib, dtype)),
          logspace_samples, covers=(), dtypes=("float32", "float64", "int64", "int32")),
    Entry("tril_indices", lambda lib, row, col, offset, dtype: lib.tril_indices(row, col, offset,
                                                                               dtype=_dtype(lib, dtype)),
          triangle_samples, covers=(), dtypes=("int64", "int32")),
    Entry("triu_indices", lambda lib, row, col, offset, dtype: lib.triu_indices(row, col, offset,
                                                                               dtype=_dtype(lib, dtype)),
          triangle_samples, covers=(), dtypes=("int64", "int32")),
    Entry("arange", lambda lib, start, end, step, dtype: lib.arange(start, end, step, dtype=_dtype(lib, dtype)),
          arange_samples, covers=(), dtypes=("float32", "float64", "int64")),
    Entry("linspace", lambda lib, start, end, steps, dtype: lib.linspace(start, end, steps, dtype=_dtype(lib, dtype)),
          linspace_samples, covers=(), dtypes=("float32", "float64", "int64")),
    Entry("eye", lambda lib, n, m, dtype: lib.eye(n, dtype=_dtype(lib, dtype)) if m is None else
          lib.eye(n, m, dtype=_dtype(lib, dtype)), eye_samples, covers=(),
          dtypes=("float32", "int64", "bool")),
    Entry("full", lambda lib, size, value, dtype: lib.full(size, value, dtype=_dtype(lib, dtype)), full_samples,
          covers=(), dtypes=("float32", "float64", "int64")),
]


def _m(*shape, dtype="float32"):
    a = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return np.asarray(a / 10, dtype) if a.dtype.kind == "f" else a


def _typed(dtype):
    return np.zeros(3, dtype)


ERRORS = [
    # fills: parameters out of range
    ErrorCase("uniform_range", lambda lib, x: x.uniform_(1.5, 0.5), (_m(3),)),
    ErrorCase("normal_negative_std", lambda lib, x: x.normal_(0, -0.5), (_m(3),)),
    ErrorCase("exponential_lambda", lambda lib, x: x.exponential_(0.0), (_m(3),)),
    ErrorCase("exponential_negative_lambda", lambda lib, x: x.exponential_(-1), (_m(3),)),
    ErrorCase("cauchy_sigma", lambda lib, x: x.cauchy_(0, 0), (_m(3),)),
    ErrorCase("log_normal_std", lambda lib, x: x.log_normal_(1, 0), (_m(3),)),
    ErrorCase("geometric_one", lambda lib, x: x.geometric_(1), (_m(3),)),
    ErrorCase("geometric_zero", lambda lib, x: x.geometric_(0), (_m(3),)),
    ErrorCase("random_empty_range", lambda lib, x: x.random_(3, 2), (_m(3),)),
    ErrorCase("random_to_zero", lambda lib, x: x.random_(0), (_m(3),)),
    ErrorCase("random_bool_to", lambda lib, x: x.random_(10), (_typed(bool),)),
    ErrorCase("random_bool_from", lambda lib, x: x.random_(-5, 3), (_typed(bool),)),
    ErrorCase("random_uint8_from", lambda lib, x: x.random_(-5, 3), (_typed(np.uint8),)),
    ErrorCase("random_int32_to", lambda lib, x: x.random_(0, 2 ** 40), (_typed(np.int32),)),
    ErrorCase("bernoulli_p", lambda lib, x: x.bernoulli_(2.0), (_m(3),)),
    ErrorCase("bernoulli_p_tensor", lambda lib, x, p: x.bernoulli_(p), (_m(3), np.array([0.5, 2.0, 0.1], "float32"))),
    ErrorCase("bernoulli_p_tensor_shape", lambda lib, x, p: x.bernoulli_(p), (_m(2, 3), _m(2))),
    ErrorCase("leaf_requires_grad", lambda lib, x: x.requires_grad_().uniform_(), (_m(3),)),
    # fills: dtypes
    ErrorCase("uniform_int", lambda lib, x: x.uniform_(), (_typed(np.int64),)),
    ErrorCase("normal_int", lambda lib, x: x.normal_(), (_typed(np.int32),)),
    ErrorCase("exponential_int", lambda lib, x: x.exponential_(), (_typed(np.int64),)),
    ErrorCase("cauchy_int", lambda lib, x: x.cauchy_(), (_typed(np.int64),)),
    ErrorCase("cauchy_uint8", lambda lib, x: x.cauchy_(), (_typed(np.uint8),)),
    ErrorCase("log_normal_bool", lambda lib, x: x.log_normal_(), (_typed(bool),)),
    ErrorCase("geometric_bool", lambda lib, x: x.geometric_(0.5), (_typed(bool),)),
    # bernoulli, multinomial, normal
    ErrorCase("bernoulli_probabilities", lambda lib, p: lib.bernoulli(p), (_m(3) * 10,)),
    ErrorCase("bernoulli_int", lambda lib, p: lib.bernoulli(p), (_typed(np.int64),)),
    ErrorCase("bernoulli_bool", lambda lib, p: lib.bernoulli(p), (_typed(bool),)),
    ErrorCase("bernoulli_number_p", lambda lib, p: lib.bernoulli(p, p=-0.5), (_m(3),)),
    ErrorCase("multinomial_too_many", lambda lib, p: lib.multinomial(p, 3), (np.array([0.2, 0.8], "float32"),)),
    ErrorCase("multinomial_negative", lambda lib, p: lib.multinomial(p, 1), (np.array([-0.2, 0.8], "float32"),)),
    ErrorCase("multinomial_inf", lambda lib, p: lib.multinomial(p, 1), (np.array([np.inf, 0.8], "float32"),)),
    ErrorCase("multinomial_nan", lambda lib, p: lib.multinomial(p, 1, True), (np.array([np.nan, 0.8], "float32"),)),
    ErrorCase("multinomial_zero_sum", lambda lib, p: lib.multinomial(p, 1), (np.zeros((2, 2), "float32"),)),
    ErrorCase("multinomial_3d", lambda lib, p: lib.multinomial(p, 1), (np.ones((2, 2, 2), "float32"),)),
    ErrorCase("multinomial_0d", lambda lib, p: lib.multinomial(p, 1), (np.ones((), "float32"),)),
    ErrorCase("multinomial_int", lambda lib, p: lib.multinomial(p, 1), (np.ones(2, np.int64),)),
    ErrorCase("multinomial_no_samples", lambda lib, p: lib.multinomial(p, 0), (np.ones(2, "float32"),)),
    ErrorCase("multinomial_float_count", lambda lib, p: lib.multinomial(p, 1.0), (np.ones(2, "float32"),)),
    ErrorCase("normal_negative_std", lambda lib, mean: lib.normal(mean, -1.0), (_m(3),)),
    ErrorCase("normal_negative_std_tensor", lambda lib, mean, std: lib.normal(mean, std - 1), (_m(3), _m(3))),
    ErrorCase("normal_size_negative_std", lambda lib: lib.normal(0.0, -1.0, (2,)), ()),
    # creation
    ErrorCase("randperm_negative", lambda lib: lib.randperm(-1), ()),
    ErrorCase("randperm_bool", lambda lib: lib.randperm(2, dtype=lib.bool), ()),
    ErrorCase("randperm_uint8_overflow", lambda lib: lib.randperm(257, dtype=lib.uint8), ()),
    ErrorCase("randperm_int8_overflow", lambda lib: lib.randperm(129, dtype=lib.int8), ()),
    ErrorCase("randperm_half", lambda lib: lib.randperm(2050, dtype=lib.float16), ()),
    ErrorCase("randperm_float", lambda lib: lib.randperm(3.0), ()),
    ErrorCase("randperm_requires_grad_int", lambda lib: lib.randperm(3, requires_grad=True), ()),
    ErrorCase("logspace_negative_steps", lambda lib: lib.logspace(0, 2, -1), ()),
    ErrorCase("tril_indices_row", lambda lib: lib.tril_indices(-1, 3), ()),
    ErrorCase("triu_indices_col", lambda lib: lib.triu_indices(3, -4), ()),
    ErrorCase("tril_indices_float", lambda lib: lib.tril_indices(3, 3, dtype=lib.float32), ()),
    ErrorCase("triu_indices_uint8", lambda lib: lib.triu_indices(3, 3, dtype=lib.uint8), ()),
    ErrorCase("finfo_int", lambda lib: lib.finfo(lib.int64), ()),
    ErrorCase("iinfo_float", lambda lib: lib.iinfo(lib.float32), ()),
    ErrorCase("iinfo_bool", lambda lib: lib.iinfo(lib.bool), ()),
]

KNOWN_BUGS = {
}
