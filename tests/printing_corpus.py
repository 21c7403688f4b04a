"""The tensor-printing corpus, shared by tests/test_printing.py and
scripts/regen_printing_golden.py so that both always agree on what each case is.

Each case is a deterministic NumPy array (its RNG is seeded from the case name, so
adding or reordering cases never changes another case) plus the print options,
autograd flags and default dtype under which PyTorch printed it.
"""
import dataclasses
import math
import zlib
from typing import Callable

import numpy as np

nan, inf = math.nan, math.inf

ALL_DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64",
              "float16", "float32", "float64", "complex64", "complex128")
FLOAT_DTYPES = ("float16", "float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")

# grad_fn names a case may ask for, and the value-preserving op that creates each one
GRAD_OPS = {
    "MulBackward0": lambda t: t * 1,
    "DivBackward0": lambda t: t / 1,
}


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    build: Callable  # rng -> array-like
    dtype: str
    options: dict = dataclasses.field(default_factory=dict)  # for set_printoptions
    requires_grad: bool = False
    grad_fn: str | None = None  # a key of GRAD_OPS; implies requires_grad
    default_dtype: str | None = None  # e.g. "float64" for set_default_dtype

    def array(self):
        rng = np.random.default_rng(zlib.crc32(self.name.encode()))
        return np.array(self.build(rng), dtype=self.dtype, order="C")


CASES = []


def add(name, build, dtype="float32", **kwargs):
    if any(c.name == name for c in CASES):
        raise ValueError(f"duplicate case name {name}")
    CASES.append(Case(name, build, dtype, **kwargs))


def random_values(dtype, shape, rng):
    """Typical values of a dtype: its full integer range, or normals for floats."""
    if dtype == "bool":
        return rng.random(shape) > 0.5
    if dtype in ("uint8", "int8", "int16", "int32"):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
    if dtype == "int64":
        return rng.integers(-10**12, 10**12, size=shape)
    if dtype in COMPLEX_DTYPES:
        return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return rng.standard_normal(shape) * {"float16": 10, "float32": 1, "float64": 100}[dtype]


def randn(*shape, scale=1.0):
    return lambda rng: rng.standard_normal(shape) * scale


def const(values):
    return lambda rng: values


# --- every dtype at every rank -----------------------------------------------------

SHAPES = {"0d": (), "1d": (5,), "2d": (3, 4), "3d": (2, 3, 4), "4d": (2, 2, 2, 3)}
for _dt in ALL_DTYPES:
    for _rank, _shape in SHAPES.items():
        add(f"{_dt}_{_rank}", lambda rng, d=_dt, s=_shape: random_values(d, s, rng), _dt)

# small integers and bool patterns: narrow columns
add("int64_small", const([[0, 1, -2], [3, 40, 5]]), "int64")
add("int64_extremes", const([np.iinfo(np.int64).min, 0, np.iinfo(np.int64).max]), "int64")
add("uint8_extremes", const([0, 255, 7]), "uint8")
add("int8_extremes", const([-128, 127, 0]), "int8")
add("bool_all_true", const([True, True]), "bool")
add("bool_0d_false", const(False), "bool")
add("int32_0d_negative", const(-7), "int32")

# --- floats: notation choice -------------------------------------------------------

for _dt in FLOAT_DTYPES:
    add(f"{_dt}_integer_valued", const([1.0, 2.0, -3.0, 40.0]), _dt)
    add(f"{_dt}_integer_valued_0d", const(5.0), _dt)
    add(f"{_dt}_fractions", const([0.5, 1.25, -2.125, 3.1415926]), _dt)
    add(f"{_dt}_tiny", randn(6, scale=1e-5), _dt)
    add(f"{_dt}_mixed_range", const([1e-3, 1.0, 5e2]), _dt)
    add(f"{_dt}_nan_inf", const([nan, inf, -inf, 1.5]), _dt)
    add(f"{_dt}_nan_inf_ints", const([nan, 1.0, -inf, 2.0]), _dt)
    add(f"{_dt}_only_nonfinite", const([nan, inf, -inf]), _dt)
    add(f"{_dt}_zeros", const([[0.0, 0.0], [0.0, 0.0]]), _dt)
    add(f"{_dt}_negative_zero", const([-0.0, 0.0, -0.0]), _dt)
    add(f"{_dt}_negative_zero_0d", const(-0.0), _dt)
    add(f"{_dt}_negative_zero_fraction", const([-0.0, 1.5, 2.25]), _dt)
    add(f"{_dt}_uniform_2d", const(np.full((2, 2), 4.5)), _dt)

for _dt in ("float32", "float64"):
    add(f"{_dt}_huge", randn(4, scale=1e10), _dt)
    add(f"{_dt}_huge_integer_valued", const([1e9, 2e9, 3e9]), _dt)
    add(f"{_dt}_sci_2d", lambda rng: rng.standard_normal((3, 3)) * 10.0 ** rng.integers(-6, 6, (3, 3)), _dt)
    add(f"{_dt}_sci_nan_inf", const([1e-8, nan, -inf, 1e8]), _dt)
    add(f"{_dt}_ratio_exactly_1000", const([1.0, 1000.0]), _dt)
    add(f"{_dt}_ratio_just_over_1000", const([1.0, 1000.5]), _dt)
    add(f"{_dt}_integer_ratio_over_1000", const([1.0, 10000.0]), _dt)
    add(f"{_dt}_max_exactly_1e8", const([1e8, 5e7]), _dt)
    add(f"{_dt}_min_exactly_1e-4", const([1e-4, 0.5]), _dt)
    add(f"{_dt}_rounds_up_wider", const([9.99996, 1.0]), _dt)
    add(f"{_dt}_half_way_rounding", const([0.00005, 0.00015, 0.125]), _dt)

add("float64_1e300_range", const([1e-300, 1e300]), "float64")
add("float64_subnormal", const([5e-324, 1.0]), "float64")
add("float64_max", const([np.finfo(np.float64).max, -1.0]), "float64")
add("float16_max", const([65504.0, -65504.0, 1.0]), "float16")
add("float16_subnormal_range", const([6e-8, 1e-3]), "float16")
add("float32_large_integers", const([123456789.0, 1.0]), "float32")
add("float32_big_integer_mode", const([100000.0, 200000.0, -300000.0]), "float32")

# --- complex -----------------------------------------------------------------------

for _dt in COMPLEX_DTYPES:
    add(f"{_dt}_integer_valued", const([1 + 2j, -3 - 4j, 5j]), _dt)
    add(f"{_dt}_negative_zero_imag", const([complex(1.0, -0.0), complex(-0.0, 0.0)]), _dt)
    add(f"{_dt}_nan_inf", const([complex(nan, 1.0), complex(1.5, inf), complex(-inf, -nan)]), _dt)
    add(f"{_dt}_sci", randn(4, scale=1e-6), _dt)
    add(f"{_dt}_mixed_parts", lambda rng: rng.standard_normal(4) * 1e6 + 1j * rng.standard_normal(4), _dt)
    add(f"{_dt}_0d_fraction", const(complex(-1.5, 0.25)), _dt)
    add(f"{_dt}_wide_row", lambda rng: rng.standard_normal(12) + 1j * rng.standard_normal(12), _dt)
add("complex64_zeros", const([0j, 0j]), "complex64")

# --- empty tensors -----------------------------------------------------------------

for _dt in ("float32", "float64", "int64", "bool", "complex64", "float16", "uint8"):
    add(f"{_dt}_empty_1d", const(np.empty((0,))), _dt)
    add(f"{_dt}_empty_2d", const(np.empty((2, 0))), _dt)
add("float32_empty_0x3", const(np.empty((0, 3))), "float32")
add("float32_empty_3d", const(np.empty((3, 0, 2))), "float32")
add("int32_empty_4d", const(np.empty((0, 0, 0, 0))), "int32")
add("complex128_empty_2d", const(np.empty((1, 0))), "complex128")
add("float32_empty_requires_grad", const(np.empty((0,))), "float32", requires_grad=True)
add("float64_empty_requires_grad", const(np.empty((2, 0))), "float64", requires_grad=True)

# --- summarisation (more than `threshold` elements) --------------------------------

add("float32_summarized_1d", randn(2000), "float32")
add("int64_summarized_1d", lambda rng: np.arange(1001), "int64")
add("float32_summarized_arange", lambda rng: np.arange(1001), "float32")
add("float32_summarized_2d", randn(100, 100), "float32")
add("float64_summarized_3d", randn(10, 10, 11, scale=1e3), "float64")
add("int32_summarized_4d", lambda rng: rng.integers(-99, 99, (5, 5, 5, 10)), "int32")
add("bool_summarized_2d", lambda rng: rng.random((40, 40)) > 0.5, "bool")
add("complex64_summarized", lambda rng: rng.standard_normal((30, 40)) + 1j * rng.standard_normal((30, 40)), "complex64")
add("float32_summarized_narrow_rows", randn(500, 3), "float32")
add("float32_summarized_wide_rows", randn(3, 500), "float32")
add("float32_summarized_hidden_extremes", lambda rng: np.concatenate([np.ones(3), [1e-9, 1e9] * 500, np.ones(3)]), "float32")
add("float16_summarized", randn(1200), "float16")
add("uint8_summarized", lambda rng: rng.integers(0, 255, (2, 600)), "uint8")
add("float32_summarized_requires_grad", randn(1500), "float32", requires_grad=True)
add("float32_threshold_exact", randn(1000), "float32")

# --- wide rows that wrap at linewidth ----------------------------------------------

add("float32_wrap_1d", randn(30), "float32")
add("float64_wrap_1d", randn(25, scale=1e4), "float64")
add("float32_wrap_sci", randn(20, scale=1e-7), "float32")
add("int64_wrap_1d", lambda rng: rng.integers(-10**15, 10**15, 40), "int64")
add("int8_wrap_1d", lambda rng: rng.integers(-128, 127, 60), "int8")
add("bool_wrap_1d", lambda rng: rng.random(30) > 0.5, "bool")
add("float32_wrap_2d", randn(3, 25), "float32")
add("float32_wrap_3d", randn(2, 2, 20), "float32")
add("float32_wrap_4d", randn(2, 1, 2, 16), "float32")
add("complex128_wrap_2d", lambda rng: rng.standard_normal((2, 8)) + 1j * rng.standard_normal((2, 8)), "complex128")
add("float32_wrap_nan_ints", const([nan, -inf] + list(range(30))), "float32")

# --- suffixes: dtype, requires_grad, grad_fn and their wrapping --------------------

add("float32_requires_grad_0d", const(2.5), "float32", requires_grad=True)
add("float32_requires_grad_1d", randn(4), "float32", requires_grad=True)
add("float32_requires_grad_2d", randn(2, 3), "float32", requires_grad=True)
add("float64_requires_grad", randn(3), "float64", requires_grad=True)
add("float16_requires_grad", randn(3), "float16", requires_grad=True)
add("complex64_requires_grad", const([1 + 1j, 2 - 0.5j]), "complex64", requires_grad=True)
add("float32_grad_fn_0d", const(3.0), "float32", grad_fn="MulBackward0")
add("float32_grad_fn_2d", randn(3, 3), "float32", grad_fn="MulBackward0")
add("float64_grad_fn", randn(4), "float64", grad_fn="MulBackward0")
add("float32_div_grad_fn", randn(5), "float32", grad_fn="DivBackward0")
add("complex128_grad_fn", const([1j, -2 + 0.5j]), "complex128", grad_fn="MulBackward0")
add("float16_grad_fn_3d", randn(2, 2, 2), "float16", grad_fn="MulBackward0")
add("float64_grad_fn_wrapped_row", randn(30), "float64", grad_fn="MulBackward0")
# rows of growing length move the last line across the point where suffixes wrap
for _n in range(4, 10):
    add(f"float64_suffix_wrap_{_n}", lambda rng, n=_n: rng.standard_normal(n) * 100,
        "float64", requires_grad=True)
for _n in (7, 8, 9):
    add(f"int16_suffix_wrap_{_n}", lambda rng, n=_n: rng.integers(-30000, 30000, n), "int16")
add("float64_suffix_wrap_linewidth_40", randn(3), "float64", grad_fn="MulBackward0",
    options=dict(linewidth=40))
add("float64_suffix_wrap_2d", randn(2, 6), "float64", requires_grad=True)

# --- print options -----------------------------------------------------------------

for _p in (0, 1, 2, 6, 10):
    add(f"float32_precision_{_p}", randn(2, 3), "float32", options=dict(precision=_p))
    add(f"float64_precision_{_p}_sci", randn(3, scale=1e-6), "float64", options=dict(precision=_p))
add("complex64_precision_2", const([1.23456 + 6.54321j]), "complex64", options=dict(precision=2))
for _t in (0, 5, 10, 11):
    add(f"int64_threshold_{_t}", lambda rng: np.arange(11), "int64", options=dict(threshold=_t))
add("float32_threshold_5_2d", randn(4, 4), "float32", options=dict(threshold=5))
add("float32_threshold_inf", randn(1200), "float32", options=dict(threshold=inf))
for _e in (0, 1, 2, 5):
    add(f"float32_edgeitems_{_e}_1d", randn(20), "float32", options=dict(threshold=10, edgeitems=_e))
    add(f"int64_edgeitems_{_e}_3d", lambda rng: rng.integers(0, 9, (7, 8, 9)), "int64",
        options=dict(threshold=50, edgeitems=_e))
add("float32_edgeitems_0_unsummarized", randn(3), "float32", options=dict(edgeitems=0))
add("float64_edgeitems_0_requires_grad", randn(2, 2), "float64",
    options=dict(edgeitems=0), requires_grad=True)
add("complex64_edgeitems_0", lambda rng: rng.standard_normal(20) + 1j, "complex64",
    options=dict(threshold=5, edgeitems=0))
add("float32_edgeitems_0_empty", const(np.empty((0, 2))), "float32", options=dict(edgeitems=0))
for _w in (1, 20, 40, 120, 200):
    add(f"float32_linewidth_{_w}", randn(2, 12), "float32", options=dict(linewidth=_w))
add("complex64_linewidth_30", lambda rng: rng.standard_normal(6) + 1j * rng.standard_normal(6),
    "complex64", options=dict(linewidth=30))
add("int64_linewidth_30_3d", lambda rng: rng.integers(0, 1000, (2, 2, 10)), "int64",
    options=dict(linewidth=30))
for _dt in ("float32", "float64", "float16"):
    add(f"{_dt}_sci_mode_true", randn(4), _dt, options=dict(sci_mode=True))
    add(f"{_dt}_sci_mode_false_tiny", randn(4, scale=1e-6), _dt, options=dict(sci_mode=False))
add("float32_sci_mode_true_integer_valued", const([1.0, 2.0, 300.0]), "float32", options=dict(sci_mode=True))
add("float32_sci_mode_true_zeros", const([0.0, -0.0]), "float32", options=dict(sci_mode=True))
add("float32_sci_mode_true_nan", const([nan, 1.5, inf]), "float32", options=dict(sci_mode=True))
add("float64_sci_mode_false_huge", const([1e20, -3.5e15, 1.0]), "float64", options=dict(sci_mode=False))
add("float64_sci_mode_false_huge_integers", const([1e20, 2.0]), "float64", options=dict(sci_mode=False))
add("complex128_sci_mode_true", const([1 + 2j, 3.5 - 1j]), "complex128", options=dict(sci_mode=True))
add("int64_sci_mode_true", const([1, 2, 3]), "int64", options=dict(sci_mode=True))
add("float32_sci_mode_true_precision_2", randn(2, 2, scale=1e3), "float32",
    options=dict(sci_mode=True, precision=2))
for _profile in ("default", "short", "full"):
    add(f"float32_profile_{_profile}", randn(1100), "float32", options=dict(profile=_profile))
    add(f"float64_profile_{_profile}_2d", randn(3, 3), "float64", options=dict(profile=_profile))
add("float32_profile_short_override", randn(6), "float32", options=dict(profile="short", precision=5))
add("float32_profile_unknown", randn(3), "float32", options=dict(profile="nonsense"))

# --- a different default dtype -----------------------------------------------------

for _dt in ("float32", "float64", "complex64", "complex128", "int64", "float16"):
    add(f"{_dt}_default_float64", lambda rng, d=_dt: random_values(d, (3,), rng), _dt,
        default_dtype="float64")
add("float32_empty_default_float64", const(np.empty((0,))), "float32", default_dtype="float64")
add("float64_empty_default_float64", const(np.empty((2, 0))), "float64", default_dtype="float64")
add("complex128_empty_default_float64", const(np.empty((0,))), "complex128", default_dtype="float64")
add("float16_default_float16", randn(3), "float16", default_dtype="float16")
add("complex64_default_float16", const([1 + 1j]), "complex64", default_dtype="float16")
