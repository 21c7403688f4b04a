"""Op database entries for pointwise binary and ternary ops (_ops/pointwise/binary.py) and the rest of the pointwise unary ones.

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

Ops without a derivative (comparisons, logic, bitwise ops, predicates, floor_divide,
heaviside) take samples with ``grad=()``: their values and dtypes are compared, and the
error cases check that backward through floor_divide and heaviside raises as in PyTorch.
"""
import numpy as np

from op_db import (ALL, FLOATS, NONZERO, NUMBERS, POSITIVE, REAL, Domain, Entry, ErrorCase, Sample,
                   unary_samples)

NONE = ()  # Sample.grad for samples whose inputs require no grad
INTS = ("int64",)
INTS_AND_BOOL = ("int64", "bool")
PLAIN = ("float32", "int64", "bool")  # ops with plain results: one float dtype is enough
ABOVE_MINUS_ONE = Domain(-0.5, 2.0)  # xlog1py's other operand
BOUND_LOW, BOUND_HIGH = Domain(-1.5, -0.5), Domain(0.5, 1.5)


# --- samples --------------------------------------------------------------------------------


def tensor_pairs(g, second=None):
    """Two tensors (the second from the domain ``second``): same shape, broadcasting,
    0-d, empty and strided operands, and (float32 pass) mixed dtypes."""
    yield Sample("same", (g(2, 3), g(2, 3, domain=second)))
    yield Sample("broadcast", (g(3, 1), g(4, domain=second)))
    yield Sample("scalar_tensor", (g(), g(2, 3, domain=second)))
    yield Sample("scalars", (g(), g(domain=second)))
    yield Sample("empty", (g(0, 3), g(3, domain=second)))
    yield Sample("noncontig", (g.noncontig(2, 3), g.noncontig(2, 3, domain=second)))
    if g.dtype == np.float32:
        yield Sample("mixed_0d_f64", (g(2, 3), g(dtype="float64", domain=second)))
        yield Sample("mixed_f64", (g(3), g(2, 3, dtype="float64", domain=second)))
        yield Sample("mixed_int", (g(2, 3, dtype="int64"), g(3, domain=second)))
    if g.dtype == np.int64:
        yield Sample("int_bool", (g(2, 3), g(3, dtype="bool", domain=second)))


def with_numbers(g, second=None, left=True):
    """tensor_pairs, plus a Python number on the right (and on the left)."""
    yield from tensor_pairs(g, second)
    yield Sample("number_right", (g(2, 3), g.number(second)))
    yield Sample("number_0d", (g(), g.number(second)))
    if g.dtype.kind in "fi":
        yield Sample("int_right", (g(2, 3), 2))
    if g.dtype.kind == "i":
        yield Sample("float_right", (g(2, 3), 1.5))
    if left:
        yield Sample("number_left", (g.number(), g(2, 3, domain=second)))


def no_grad(samples):
    """The same samples with inputs that require no grad (non-differentiable ops)."""
    def wrapped(g):
        for s in samples(g):
            yield Sample(s.name, s.args, grad=NONE, eps=s.eps)
    return wrapped


def special_values(dtype):
    """Values where floating ops branch: signed zeros, infinities, nan."""
    return np.array([0.0, -0.0, 1.5, -2.0, np.inf, -np.inf, np.nan]).astype(dtype)


def rounding_samples(g):
    for mode in ("trunc", "floor"):
        yield Sample(f"same_{mode}", (g(2, 3), g(2, 3), mode))
        yield Sample(f"broadcast_{mode}", (g(3, 1), g(4), mode))
        yield Sample(f"number_{mode}", (g(2, 3), g.number(), mode))
        yield Sample(f"number_left_{mode}", (3, g(4), mode))
    yield Sample("scalars", (g(), g(), "floor"))
    yield Sample("empty", (g(0, 3), g(3), "trunc"))
    yield Sample("noncontig", (g.noncontig(2, 3), g(2, 3), "floor"))
    if g.dtype.kind == "i":
        yield Sample("signs", (np.array([7, -7, 7, -7, 6]), np.array([2, 2, -2, -2, -3]), "trunc"))
        yield Sample("signs_floor", (np.array([7, -7, 7, -7, 6]), np.array([2, 2, -2, -2, -3]), "floor"))
        yield Sample("float_number", (g(2, 3), 2.5, "floor"))
    if g.is_float:
        yield Sample("by_zero", (np.array([1.5, -1.5, 0.0]).astype(g.dtype), np.zeros(3, g.dtype), "floor"),
                     eps=None)
    if g.dtype == np.float32:
        yield Sample("mixed_int", (g(2, 3, dtype="int64"), g(3), "trunc"))


def modulo_samples(g):
    """Pairs for remainder and fmod: signs of both operands, numbers on the right (no
    divisor is 0, which is an error for integers)."""
    yield from (s for s in with_numbers(g, left=False) if s.name != "int_bool")
    if g.dtype.kind == "i":
        yield Sample("signs", (np.array([7, -7, 7, -7]), np.array([3, 3, -3, -3])))
        yield Sample("int_bool", (g(2, 3), np.ones(3, bool)))
    if g.is_float:
        yield Sample("by_zero", (np.array([1.5, -1.5]).astype(g.dtype), np.zeros(2, g.dtype)), eps=None)


def number_left_samples(g):
    """``2.5 % x``: a number on the left (no derivative in PyTorch: no grad)."""
    yield Sample("number_left", (2.5, g(2, 3)), grad=NONE)
    yield Sample("int_left", (5, g(4)), grad=NONE)


def float_power_samples(g):
    yield from tensor_pairs(g)
    yield Sample("square", (g(2, 3, domain=REAL), 2))
    yield Sample("negative_float", (g(2, 3), -1.5))
    yield Sample("base_number", (1.5, g(2, 3, domain=REAL)))
    if g.dtype.kind == "i":
        yield Sample("negative_int", (g(2, 3), -1))


def selection_samples(g):
    """maximum and co: pairs, ties and nan (ties and nan: compared with PyTorch only)."""
    yield from tensor_pairs(g)
    ties = np.array([[1, 2, 0], [-1, 2, 2]]).astype(g.dtype)
    yield Sample("ties", (ties, np.array([[1, 0, 0], [2, 2, -3]]).astype(g.dtype)), eps=None)
    if g.is_float:
        yield Sample("nan", (np.array([np.nan, 1.0, np.nan]).astype(g.dtype),
                             np.array([2.0, np.nan, np.nan]).astype(g.dtype)), eps=None)


def copysign_samples(g):
    yield from with_numbers(g, NONZERO, left=False)
    if g.is_float:
        values = np.array([0.0, -0.0, 1.5, -2.0]).astype(g.dtype)
        yield Sample("signed_zeros", (values, values[::-1].copy()), eps=None)
        yield Sample("negative_zero_number", (values, -0.0), eps=None)


def xlog_samples(domain):
    def samples(g):
        yield from tensor_pairs(g, domain)
        yield Sample("number_x", (g.number(), g(2, 3, domain=domain)))
        yield Sample("number_y", (g(2, 3), g.number(POSITIVE)))
        if g.is_float:
            x = np.array([0.0, 0.0, 0.0, 1.5]).astype(g.dtype)
            y = np.array([0.0, 2.0, np.nan, 0.0]).astype(g.dtype)
            yield Sample("zeros", (x, y), eps=None)
            yield Sample("zero_x_number_y", (x, 2.0), eps=None)
            yield Sample("negative_number_y", (x, -1.0), eps=None)
    return samples


def logaddexp_samples(g):
    yield from tensor_pairs(g)
    far = np.array([100.0, -100.0]).astype(g.dtype)  # exp overflows: compared with PyTorch only
    yield Sample("far_apart", (far, -far), eps=None)
    infinite = np.array([-np.inf, np.inf, -np.inf]).astype(g.dtype)
    yield Sample("infinite", (infinite, np.array([1.0, 1.0, -np.inf]).astype(g.dtype)), grad=NONE)


def lerp_samples(g):
    yield Sample("number", (g(2, 3), g(2, 3), 0.3))
    yield Sample("number_high", (g(2, 3), g(3), 0.8))
    yield Sample("number_int", (g(), g(2, 3), 1))
    yield Sample("tensor", (g(2, 3), g(2, 3), g(2, 3, domain=Domain(0.0, 1.0))))
    yield Sample("tensor_broadcast", (g(3), g(2, 1), g(2, 3, domain=Domain(0.0, 1.0))))
    yield Sample("tensor_scalars", (g(), g(), g(domain=Domain(0.0, 1.0))))
    yield Sample("empty", (g(0, 3), g(3), 0.5))
    yield Sample("noncontig", (g.noncontig(2, 3), g(2, 3), g.noncontig(2, 3)))


def pointwise_value_samples(g, divide=False):
    """addcmul and addcdiv: three tensors and a ``value``."""
    second = NONZERO if divide else None
    yield Sample("default", (g(2, 3), g(2, 3), g(2, 3, domain=second), 1))
    yield Sample("value", (g(2, 3), g(3), g(2, 1, domain=second), 2))
    yield Sample("value_float", (g(3), g(2, 3), g(3, domain=second), -0.5 if g.is_float else 2))
    yield Sample("scalars", (g(), g(), g(domain=second), 2))
    yield Sample("empty", (g(0, 3), g(3), g(3, domain=second), 1))
    yield Sample("noncontig", (g.noncontig(2, 3), g.noncontig(2, 3), g(2, 3, domain=second), 1))
    if g.dtype.kind == "i":
        yield Sample("truncated_value", (g(2, 3), g(2, 3), g(2, 3, domain=second), 0.5))
    if g.dtype == np.float32:
        yield Sample("mixed", (g(2, 3, dtype="int64"), g(2, 3), g(3, dtype="float64", domain=second), 2))


def addcmul_samples(g):
    return pointwise_value_samples(g)


def addcdiv_samples(g):
    return pointwise_value_samples(g, divide=True)


def heaviside_samples(g):
    values = special_values(g.dtype) if g.is_float else np.array([0, -1, 2, 0]).astype(g.dtype)
    yield Sample("at_zero", (values, g(values.size)), grad=NONE)
    yield Sample("broadcast", (g(3, 1), g(4)), grad=NONE)
    yield Sample("scalar_values", (g(2, 3), g()), grad=NONE)


def comparison_samples(g):
    yield from no_grad(lambda g: with_numbers(g, left=False))(g)
    if g.is_float:
        values = special_values(g.dtype)
        yield Sample("special", (values, values[::-1].copy()), grad=NONE)
        yield Sample("nan_number", (values, np.nan), grad=NONE)


def named_op_samples(names, samples):
    """``samples`` once per op name, the name last in the args (entries with an ``op`` argument)."""
    def each(g):
        for name in names:
            for s in samples(g):
                yield Sample(f"{name}_{s.name}", s.args + (name,), grad=s.grad, eps=s.eps)
    return each


def isclose_samples(g):
    a = g(2, 3)
    near = (a + 1e-6).astype(g.dtype) if g.is_float else a.copy()
    yield Sample("near", (a, near, 1e-5, 1e-8, False), grad=NONE)
    yield Sample("far", (g(2, 3), g(2, 3), 1e-5, 1e-8, False), grad=NONE)
    yield Sample("loose", (g(3, 1), g(4), 0.5, 1.0, False), grad=NONE)
    yield Sample("exact_only", (a, a.copy(), 0.0, 0.0, False), grad=NONE)
    if g.is_float:
        values = special_values(g.dtype)
        yield Sample("special", (values, values.copy(), 1e-5, 1e-8, False), grad=NONE)
        yield Sample("equal_nan", (values, values.copy(), 1e-5, 1e-8, True), grad=NONE)


def equal_samples(g):
    a = g(2, 3)
    yield Sample("same", (a, a.copy()), grad=NONE)
    yield Sample("different", (g(2, 3), g(2, 3)), grad=NONE)
    yield Sample("shapes", (a, a[:1].copy()), grad=NONE)
    if g.is_float:
        yield Sample("nan", (special_values(g.dtype), special_values(g.dtype)), grad=NONE)


def logical_samples(g):
    yield from no_grad(tensor_pairs)(g)
    if g.is_float:
        values = special_values(g.dtype)
        yield Sample("special", (values, values[::-1].copy()), grad=NONE)


def bitwise_samples(g):
    yield from no_grad(tensor_pairs)(g)
    yield Sample("number_right", (g(2, 3), g.number()), grad=NONE)
    yield Sample("number_left", (g.number(), g(2, 3)), grad=NONE)


def shift_samples(g):
    shifts = Domain(0.0, 5.0)
    yield Sample("same", (g(2, 3), g(2, 3, domain=shifts)), grad=NONE)
    yield Sample("broadcast", (g(3, 1), g(4, domain=shifts)), grad=NONE)
    yield Sample("number", (g(2, 3), 3), grad=NONE)
    yield Sample("number_left", (3, g(4, domain=shifts)), grad=NONE)
    yield Sample("out_of_range", (np.array([5, -5, 5, -5]), np.array([-1, -1, 64, 70])), grad=NONE)
    yield Sample("bool_shifted", (np.array([True, False]), 2), grad=NONE)


def unary_no_grad(g):
    yield from (s for s in no_grad(unary_samples)(g) if s.name in ("vector", "scalar", "empty", "noncontig"))
    if g.is_float:
        yield Sample("special", (special_values(g.dtype),), grad=NONE)


def clamp_bound_samples(g):
    yield Sample("number", (g(3, 4), 0.25 if g.is_float else 0))
    yield Sample("scalar", (g(), -0.5))
    yield Sample("empty", (g(0, 3), 0.5))
    yield Sample("noncontig", (g.noncontig(3, 4), 1))
    yield Sample("tensor", (g(3, 4), g(3, 4, domain=BOUND_LOW)))
    yield Sample("tensor_broadcast", (g(4), g(3, 1, domain=BOUND_HIGH)))
    if g.dtype.kind == "i":
        yield Sample("float_number", (g(3, 4), 0.5))


def clamp_one_bound_samples(g):
    """clamp with a tensor bound and the other None: an integer x stays integral."""
    yield Sample("min_tensor", (g(3, 4), g(4, domain=BOUND_LOW), None))
    yield Sample("max_tensor", (g(3, 4), None, g(3, 1, domain=BOUND_HIGH)))
    if g.dtype == np.float32:
        yield Sample("int_x_float_min", (g(3, 4, dtype="int64"), g(4, domain=BOUND_LOW), None))


def comparison_inplace_samples(g):
    """x.eq_(other) and co: other broadcasts to x (x keeps its shape)."""
    yield Sample("same", (g(2, 3), g(2, 3)))
    yield Sample("broadcast", (g(2, 3), g(3)))
    yield Sample("number", (g(2, 3), g.number()))
    if g.dtype.kind == "f":
        yield Sample("ties", (np.array([1.0, 2.0]).astype(g.dtype), np.array([1.0, 0.0]).astype(g.dtype)), eps=None)


def inplace_samples(g):
    yield Sample("same", (g(2, 3), g(2, 3)))
    yield Sample("broadcast", (g(2, 3), g(3)))


def complex_pair_binary(g):
    """Two complex tensors built from four real ones (gradcheck stays real)."""
    i = np.array(1j, dtype="complex64" if g.dtype == np.float32 else "complex128")
    yield Sample("matrix", (g(2, 3), g(2, 3), g(2, 3), g(2, 3), i), grad=(0, 1, 2, 3))
    yield Sample("broadcast", (g(3, 1), g(3, 1), g(4), g(4), i), grad=(0, 1, 2, 3))


# Ops that compute in floating point whatever their input: bool inputs must give the
# default dtype (NumPy would compute them in float16)
FLOAT_UNARY = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan",
               "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "atanh", "sigmoid", "reciprocal", "sinc",
               "deg2rad", "rad2deg", "angle", "erf", "lgamma")
PREDICATES = ("isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "signbit")
COMPARISON_ALIASES = ("greater", "greater_equal", "less", "less_equal", "not_equal")
COMPARISON_INPLACE = ("eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_equal_", "not_equal_")
INPLACE = ("fmod_", "remainder_", "atan2_", "arctan2_", "hypot_", "copysign_", "xlogy_", "true_divide_",
           "float_power_")


def bool_samples(g):
    yield Sample("vector", (np.array([True, False, True]),), grad=NONE)


def inplace_fn(lib, x, y, op):
    base = (x * 1).double() if op == "float_power_" else x * 1
    return getattr(base, op)(y)


# --- entries ---------------------------------------------------------------------------------

ENTRIES = [
    # division and its rounded forms
    Entry("true_divide", lambda lib, a, b: lib.true_divide(a, b), lambda g: with_numbers(g, NONZERO, left=False),
          covers=("div", "div_scalar"), dtypes=("float64", "int64"), domain=NONZERO),
    Entry("div_rounding", lambda lib, a, b, mode: lib.div(a, b, rounding_mode=mode), rounding_samples,
          covers=("div_rounded",), dtypes=NUMBERS, domain=NONZERO),
    Entry("div_rounding_method", lambda lib, a, b, mode: a.div(b, rounding_mode=mode),
          lambda g: (s for s in rounding_samples(g) if not s.name.startswith("number_left")),
          covers=("div_rounded",), dtypes=("float64", "int64"), domain=NONZERO),
    Entry("floor_divide", lambda lib, a, b: lib.floor_divide(a, b), no_grad(modulo_samples), covers=(),
          dtypes=NUMBERS, domain=NONZERO),
    Entry("floordiv_operator", lambda lib, a, b: a // b, no_grad(modulo_samples), covers=(),
          dtypes=NUMBERS, domain=NONZERO),
    Entry("rfloordiv_operator", lambda lib, a, b: a // b, number_left_samples, covers=(), dtypes=NUMBERS,
          domain=NONZERO),
    Entry("remainder", lambda lib, a, b: lib.remainder(a, b), modulo_samples,
          covers=("remainder", "remainder_scalar", "div_rounded"), dtypes=NUMBERS, domain=NONZERO),
    Entry("remainder_number_left", lambda lib, a, b: lib.remainder(a, b), number_left_samples, covers=(),
          dtypes=NUMBERS, domain=NONZERO),
    Entry("mod_operator", lambda lib, a, b: a % b, modulo_samples,
          covers=("remainder", "remainder_scalar"), dtypes=("float64", "int64"), domain=NONZERO),
    Entry("rmod_operator", lambda lib, a, b: a % b, number_left_samples, covers=(), dtypes=NUMBERS, domain=NONZERO),
    Entry("fmod", lambda lib, a, b: a.fmod(b), modulo_samples, covers=("fmod", "fmod_scalar", "div_rounded"),
          dtypes=NUMBERS, domain=NONZERO),
    Entry("float_power", lambda lib, a, b: lib.float_power(a, b), float_power_samples,
          covers=("pow", "pow_scalar", "rpow_scalar"), dtypes=NUMBERS, domain=POSITIVE),
    # angles, lengths, signs
    Entry("atan2", lambda lib, a, b: lib.atan2(a, b), tensor_pairs, covers=("atan2", "where"), dtypes=ALL),
    Entry("atan2_origin", lambda lib, a, b: a.arctan2(b), lambda g: iter([Sample(
        "origin", (np.array([0.0, 0.0, 1.0]).astype(g.dtype), np.array([0.0, -1.0, 0.0]).astype(g.dtype)),
        eps=None)]), covers=("atan2",)),
    Entry("hypot", lambda lib, a, b: a.hypot(b), tensor_pairs, covers=("hypot",), dtypes=FLOATS),
    Entry("copysign", lambda lib, a, b: lib.copysign(a, b), copysign_samples,
          covers=("copysign", "copysign_scalar"), dtypes=ALL),
    # the larger or smaller of two
    Entry("maximum", lambda lib, a, b: a.maximum(b), selection_samples, covers=("maximum",), dtypes=ALL),
    Entry("maximum_fn", lambda lib, a, b: lib.maximum(a, b),
          lambda g: (s for s in selection_samples(g) if s.name in ("same", "ties")), covers=("maximum",)),
    Entry("minimum", lambda lib, a, b: a.minimum(b), selection_samples, covers=("minimum",), dtypes=ALL),
    Entry("fmax", lambda lib, a, b: lib.fmax(a, b), selection_samples, covers=("fmax",), dtypes=ALL),
    Entry("fmin", lambda lib, a, b: a.fmin(b), selection_samples, covers=("fmin",), dtypes=ALL),
    # x log y
    Entry("xlogy", lambda lib, a, b: lib.xlogy(a, b), xlog_samples(POSITIVE),
          covers=("xlogy", "xlogy_number_x", "xlogy_number_y", "where"), dtypes=ALL),
    Entry("special_xlogy", lambda lib, a, b: lib.special.xlogy(a, b),
          lambda g: (s for s in tensor_pairs(g, POSITIVE) if s.name in ("same", "broadcast")), covers=("xlogy",)),
    Entry("xlog1py", lambda lib, a, b: lib.special.xlog1py(a, b), xlog_samples(ABOVE_MINUS_ONE),
          covers=("xlog1py", "xlog1py_number_x", "xlog1py_number_y"), dtypes=NUMBERS),
    Entry("logaddexp", lambda lib, a, b: lib.logaddexp(a, b), logaddexp_samples, covers=("logaddexp", "exp")),
    # the float64 0-d operand's gradient is a float32 sum of 2 ** (x - y) terms, a last bit from PyTorch's
    Entry("logaddexp2", lambda lib, a, b: a.logaddexp2(b),
          lambda g: (s for s in logaddexp_samples(g) if s.name != "mixed_0d_f64"), covers=("logaddexp2", "rpow_scalar")),
    Entry("logaddexp_complex", lambda lib, a, b, c, d, i: lib.logaddexp(a + b * i, c + d * i).real,
          complex_pair_binary, covers=("logaddexp", "real")),
    # interpolation and fused multiply-adds
    Entry("lerp", lambda lib, a, b, w: lib.lerp(a, b, w), lerp_samples, covers=("lerp", "lerp_scalar")),
    Entry("lerp_complex", lambda lib, a, b, c, d, i: lib.lerp(a + b * i, c + d * i, 0.25 + 0.5j).imag,
          complex_pair_binary, covers=("lerp_scalar", "imag")),
    Entry("addcmul", lambda lib, x, a, b, value: lib.addcmul(x, a, b, value=value), addcmul_samples,
          covers=("addcmul",), dtypes=NUMBERS),
    Entry("addcdiv", lambda lib, x, a, b, value: x.addcdiv(a, b, value=value), addcdiv_samples,
          covers=("addcdiv",), domain=NONZERO),
    Entry("heaviside", lambda lib, a, b: lib.heaviside(a, b), heaviside_samples, covers=(), dtypes=ALL),
    # in-place forms: the node of the out-of-place op
    Entry("binary_inplace", inplace_fn, named_op_samples(INPLACE, inplace_samples),
          covers=("fmod", "remainder", "atan2", "hypot", "copysign", "xlogy", "div", "pow"),
          domain=POSITIVE),
    Entry("lerp_", lambda lib, a, b, w: (a * 1).lerp_(b, w), lambda g: (s for s in lerp_samples(g)
                                                                       if s.name in ("number", "tensor")),
          covers=("lerp", "lerp_scalar")),
    Entry("addcmul_", lambda lib, x, a, b, value: (x * 1).addcmul_(a, b, value=value),
          lambda g: (s for s in addcmul_samples(g) if s.name in ("default", "value")), covers=("addcmul",)),
    # comparisons, closeness, logic, bits: plain results
    Entry("eq", lambda lib, a, b: lib.eq(a, b), comparison_samples, covers=(), dtypes=PLAIN),
    Entry("ne", lambda lib, a, b: a.ne(b), comparison_samples, covers=(), dtypes=PLAIN),
    Entry("lt", lambda lib, a, b: lib.lt(a, b), comparison_samples, covers=(), dtypes=PLAIN),
    Entry("le", lambda lib, a, b: lib.le(a, b), comparison_samples, covers=(), dtypes=PLAIN),
    Entry("gt", lambda lib, a, b: lib.gt(a, b), comparison_samples, covers=(), dtypes=PLAIN),
    Entry("ge", lambda lib, a, b: a.ge(b), comparison_samples, covers=(), dtypes=PLAIN),
    Entry("comparison_aliases", lambda lib, a, b, op: getattr(lib, op)(a, b),
          named_op_samples(COMPARISON_ALIASES, no_grad(tensor_pairs)), covers=(), dtypes=("float32", "int64")),
    Entry("comparison_inplace", lambda lib, a, b, op: getattr(a * 1, op)(b),
          named_op_samples(COMPARISON_INPLACE, comparison_inplace_samples),
          covers=tuple(f"{n}{kind}_inplace" for n in ("eq", "ne", "lt", "le", "gt", "ge") for kind in ("", "_number")),
          dtypes=("float32", "float64", "int64")),
    Entry("isclose", lambda lib, a, b, rtol, atol, equal_nan: lib.isclose(a, b, rtol, atol, equal_nan),
          isclose_samples, covers=(), dtypes=ALL),
    Entry("allclose", lambda lib, a, b, rtol, atol, equal_nan: lib.tensor(a.allclose(b, rtol, atol, equal_nan)),
          isclose_samples, covers=(), dtypes=NUMBERS),
    Entry("equal", lambda lib, a, b: lib.tensor(lib.equal(a, b)), equal_samples, covers=(), dtypes=ALL),
    Entry("logical_and", lambda lib, a, b: lib.logical_and(a, b), logical_samples, covers=(), dtypes=PLAIN),
    Entry("logical_or", lambda lib, a, b: a.logical_or(b), logical_samples, covers=(), dtypes=PLAIN),
    Entry("logical_xor", lambda lib, a, b: lib.logical_xor(a, b), logical_samples, covers=(), dtypes=PLAIN),
    Entry("logical_not", lambda lib, x: lib.logical_not(x), unary_no_grad, covers=(), dtypes=ALL),
    Entry("bitwise_and", lambda lib, a, b: lib.bitwise_and(a, b), bitwise_samples, covers=(), dtypes=INTS_AND_BOOL),
    Entry("bitwise_or", lambda lib, a, b: a | b, bitwise_samples, covers=(), dtypes=INTS_AND_BOOL),
    Entry("bitwise_xor", lambda lib, a, b: a ^ b, bitwise_samples, covers=(), dtypes=INTS_AND_BOOL),
    Entry("bitwise_not", lambda lib, x: lib.bitwise_not(x), no_grad(unary_samples), covers=(), dtypes=INTS_AND_BOOL),
    Entry("bitwise_left_shift", lambda lib, a, b: lib.bitwise_left_shift(a, b), shift_samples, covers=(),
          dtypes=INTS),
    Entry("bitwise_right_shift", lambda lib, a, b: lib.bitwise_right_shift(a, b), shift_samples, covers=(),
          dtypes=INTS),
    Entry("left_shift_operator", lambda lib, a, b: a << b, shift_samples, covers=(), dtypes=INTS),
    Entry("right_shift_operator", lambda lib, a, b: a >> b, shift_samples, covers=(), dtypes=INTS),
    Entry("predicates", lambda lib, x, op: getattr(lib, op)(x), named_op_samples(PREDICATES, unary_no_grad),
          covers=(), dtypes=PLAIN),
    Entry("predicate_methods", lambda lib, x, op: getattr(x, op)(), named_op_samples(PREDICATES, lambda g: iter([
        Sample("special", (special_values(g.dtype),), grad=NONE)])), covers=(), dtypes=("float32",)),
    # unary fixes: bool inputs computed in floating point, clamp with one bound
    Entry("float_unary_bool", lambda lib, x, op: getattr(lib, op)(x), named_op_samples(FLOAT_UNARY, bool_samples),
          covers=(), dtypes=("bool",)),
    Entry("clamp_min", lambda lib, x, lo: lib.clamp_min(x, lo), clamp_bound_samples,
          covers=("clamp_min", "clamp_min_tensor"), dtypes=NUMBERS),
    Entry("clamp_max", lambda lib, x, hi: x.clamp_max(hi), clamp_bound_samples,
          covers=("clamp_max", "clamp_max_tensor"), dtypes=NUMBERS),
    Entry("clamp_one_tensor_bound", lambda lib, x, lo, hi: lib.clamp(x, lo, hi), clamp_one_bound_samples,
          covers=("clamp_tensor",), dtypes=NUMBERS),
]


# --- error cases: same exception type and message as PyTorch ----------------------------------


def _m(*shape, dtype="float32"):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape) + 1


def _i(*values):
    return np.array(values, dtype="int64")


def _backward(out):
    out.sum().backward()


ERRORS = [
    # rounding division
    ErrorCase("div_rounding_mode", lambda lib, a, b: lib.div(a, b, rounding_mode="round"), (_m(2), _m(2))),
    ErrorCase("div_floor_int_by_zero", lambda lib, a, b: lib.div(a, b, rounding_mode="floor"), (_i(1, 2), _i(1, 0))),
    ErrorCase("div_trunc_int_by_zero", lambda lib, a: lib.div(a, 0, rounding_mode="trunc"), (_i(1, 2),)),
    ErrorCase("div_trunc_bool", lambda lib, a: lib.div(a, a, rounding_mode="trunc"), (_m(2).astype(bool),)),
    ErrorCase("div_floor_complex", lambda lib, a: lib.div(a, a, rounding_mode="floor"), (_m(2, dtype="complex64"),)),
    ErrorCase("floor_divide_int_by_zero", lambda lib, a: a // 0, (_i(1, 2),)),
    ErrorCase("floor_divide_backward", lambda lib, a, b: _backward(lib.floor_divide(a.requires_grad_(), b)),
              (_m(2), _m(2))),
    ErrorCase("rfloordiv_backward", lambda lib, a: _backward(3.0 // a.requires_grad_()), (_m(2),)),
    ErrorCase("remainder_int_by_zero", lambda lib, a: lib.remainder(a, 0), (_i(1, 2),)),
    ErrorCase("remainder_bool", lambda lib, a: lib.remainder(a, a), (_m(2).astype(bool),)),
    ErrorCase("remainder_complex", lambda lib, a: a % a, (_m(2, dtype="complex64"),)),
    ErrorCase("remainder_number_backward", lambda lib, a: _backward(lib.remainder(2.0, a.requires_grad_())),
              (_m(2),)),
    ErrorCase("fmod_int_by_zero", lambda lib, a, b: lib.fmod(a, b), (_i(1, 2), _i(0, 1))),
    ErrorCase("fmod_bool", lambda lib, a: lib.fmod(a, a), (_m(2).astype(bool),)),
    ErrorCase("fmod_number_left", lambda lib, a: lib.fmod(5, a), (_m(2),)),
    ErrorCase("true_divide_inplace_int", lambda lib, a, b: a.true_divide_(b), (_i(1, 2), _i(2, 2))),
    ErrorCase("float_power_numbers", lambda lib: lib.float_power(2.0, 3.0), ()),
    ErrorCase("float_power_inplace_float", lambda lib, a: a.float_power_(2), (_m(2),)),
    # tensor-only operands and kernels that refuse a dtype
    ErrorCase("atan2_number", lambda lib, a: lib.atan2(a, 2), (_m(2),)),
    ErrorCase("atan2_number_left", lambda lib, a: lib.atan2(2.0, a), (_m(2),)),
    ErrorCase("atan2_complex", lambda lib, a: lib.atan2(a, a), (_m(2, dtype="complex64"),)),
    ErrorCase("hypot_int", lambda lib, a: lib.hypot(a, a), (_i(1, 2),)),
    ErrorCase("hypot_number", lambda lib, a: lib.hypot(a, 1.0), (_m(2),)),
    ErrorCase("fmax_number", lambda lib, a: lib.fmax(a, 1.0), (_m(2),)),
    ErrorCase("maximum_method_number", lambda lib, a: a.maximum(1.0), (_m(2),)),
    ErrorCase("atan2_method_number", lambda lib, a: a.atan2(1), (_m(2),)),
    ErrorCase("addcmul_method_number", lambda lib, a: a.addcmul(a, 2.0), (_m(2),)),
    ErrorCase("heaviside_method_number", lambda lib, a: a.heaviside(0.5), (_m(2),)),
    ErrorCase("maximum_complex", lambda lib, a: a.maximum(a), (_m(2, dtype="complex64"),)),
    ErrorCase("fmin_complex", lambda lib, a: lib.fmin(a, a), (_m(2, dtype="complex128"),)),
    ErrorCase("copysign_complex", lambda lib, a: lib.copysign(a, a), (_m(2, dtype="complex64"),)),
    ErrorCase("xlogy_numbers", lambda lib: lib.xlogy(2.0, 3.0), ()),
    ErrorCase("xlogy_complex", lambda lib, a: lib.xlogy(a, a), (_m(2, dtype="complex64"),)),
    ErrorCase("logaddexp_int", lambda lib, a: lib.logaddexp(a, a), (_i(1, 2),)),
    ErrorCase("logaddexp_number", lambda lib, a: lib.logaddexp(a, 1.0), (_m(2),)),
    ErrorCase("logaddexp2_complex", lambda lib, a: lib.logaddexp2(a, a), (_m(2, dtype="complex64"),)),
    ErrorCase("lerp_end_dtype", lambda lib, a, b: lib.lerp(a, b, 0.5), (_m(2), _m(2, dtype="float64"))),
    ErrorCase("lerp_weight_dtype", lambda lib, a, w: lib.lerp(a, a, w), (_m(2), _m(2, dtype="float64"))),
    ErrorCase("lerp_int", lambda lib, a: lib.lerp(a, a, 0.5), (_i(1, 2),)),
    ErrorCase("lerp_int_tensor_weight", lambda lib, a: lib.lerp(a, a, a), (_i(1, 2),)),
    ErrorCase("lerp_complex_weight", lambda lib, a: lib.lerp(a, a, 0.5j), (_m(2),)),
    ErrorCase("lerp_number_end", lambda lib, a: lib.lerp(a, 1.0, 0.5), (_m(2),)),
    ErrorCase("addcmul_bool", lambda lib, a: lib.addcmul(a, a, a), (_m(2).astype(bool),)),
    ErrorCase("addcmul_number", lambda lib, a: lib.addcmul(a, a, 2.0), (_m(2),)),
    ErrorCase("addcmul_complex_value", lambda lib, a: lib.addcmul(a, a, a, value=1j), (_m(2),)),
    ErrorCase("addcdiv_int", lambda lib, a, b: lib.addcdiv(b, a, a), (_i(1, 2), _m(2))),
    ErrorCase("addcdiv_bool", lambda lib, a, b: lib.addcdiv(b, a, a), (_m(2).astype(bool), _m(2))),
    ErrorCase("heaviside_dtypes", lambda lib, a, b: lib.heaviside(a, b), (_m(2), _m(2, dtype="float64"))),
    ErrorCase("heaviside_complex", lambda lib, a: lib.heaviside(a, a), (_m(2, dtype="complex64"),)),
    ErrorCase("heaviside_number", lambda lib, a: lib.heaviside(a, 0.5), (_m(2),)),
    ErrorCase("heaviside_backward", lambda lib, a, b: _backward(lib.heaviside(a.requires_grad_(), b)),
              (_m(2), _m(2))),
    ErrorCase("broadcast_atan2", lambda lib, a, b: lib.atan2(a, b), (_m(2, 3), _m(4))),
    ErrorCase("broadcast_lerp", lambda lib, a, b: lib.lerp(a, b, 0.5), (_m(2, 3), _m(2))),
    # comparisons, closeness, logic and bits
    ErrorCase("eq_number_left", lambda lib, a: lib.eq(1.5, a), (_m(2),)),
    ErrorCase("greater_number_left", lambda lib, a: lib.greater(1, a), (_m(2),)),
    ErrorCase("lt_complex", lambda lib, a: lib.lt(a, a), (_m(2, dtype="complex64"),)),
    ErrorCase("ge_complex_number", lambda lib, a: lib.ge(a, 1j), (_m(2),)),
    ErrorCase("isclose_dtypes", lambda lib, a, b: lib.isclose(a, b), (_m(2), _m(2, dtype="float64"))),
    ErrorCase("isclose_rtol", lambda lib, a: lib.isclose(a, a, rtol=-1), (_m(2),)),
    ErrorCase("isclose_atol", lambda lib, a: lib.isclose(a, a, atol=-1), (_m(2),)),
    ErrorCase("isclose_number", lambda lib, a: lib.isclose(a, 1.0), (_m(2),)),
    ErrorCase("allclose_dtypes", lambda lib, a, b: lib.allclose(a, b), (_i(1, 2), _m(2))),
    ErrorCase("logical_and_number", lambda lib, a: lib.logical_and(a, 1), (_m(2),)),
    ErrorCase("logical_xor_number_left", lambda lib, a: lib.logical_xor(1, a), (_m(2),)),
    ErrorCase("bitwise_and_float", lambda lib, a: lib.bitwise_and(a, a), (_m(2),)),
    ErrorCase("bitwise_or_float_number", lambda lib, a: a | 1.5, (_i(1, 2),)),
    ErrorCase("bitwise_not_float", lambda lib, a: lib.bitwise_not(a), (_m(2),)),
    ErrorCase("invert_float", lambda lib, a: ~a, (_m(2),)),
    ErrorCase("left_shift_float", lambda lib, a: a << 1, (_m(2),)),
    ErrorCase("right_shift_bool", lambda lib, a: lib.bitwise_right_shift(a, a), (_m(2).astype(bool),)),
    ErrorCase("isposinf_complex", lambda lib, a: lib.isposinf(a), (_m(2, dtype="complex64"),)),
    ErrorCase("signbit_complex", lambda lib, a: lib.signbit(a), (_m(2, dtype="complex64"),)),
    # unary and clamp
    ErrorCase("clamp_number_min_tensor_max", lambda lib, x, hi: lib.clamp(x, 0.0, hi), (_m(2), _m(2))),
    ErrorCase("where_float_condition", lambda lib, c, x: lib.where(c, x, x), (_m(2), _m(2))),
]


# Bugs outside this family's files (or deliberate differences from PyTorch): strict xfails
# that fail as soon as the bug is fixed.
KNOWN_BUGS = {
    ("torch_second_order", "sinc", "at_zero"): (
        "unary.py sinc (a deliberate difference): chainrule's second derivative at 0 is sinc''(0) = -pi^2/3, "
        "which gradgradcheck confirms; PyTorch's is nan there (its sinc_backward divides 0 by 0 under a where)."),
}
