"""What the fuzzer draws: ops from the op database, arrays full of special values.

``OPS`` turns every op-database entry into chainable ops: a sample whose only array is its
first argument gives a unary op (``clamp[both]`` is clamp with that sample's bounds: a
sample's other arguments are kept, so dims and sizes that don't fit the array raise, and
the errors are compared too); a sample of two arrays gives a binary op, whose second array
is drawn to broadcast with the first. Random ops (dropout, bernoulli, ...) are left out:
the two libraries draw different numbers.

>>> OPS["relu"].call(chainrule, x)          # doctest: +SKIP
>>> OPS["sum_dim[dim0]"].call(torch, x)      # x.sum(0, False), the sample's dim and keepdim
"""
import dataclasses
import math
import os
import re
from typing import Callable

import numpy as np
from hypothesis import strategies as st

from op_db import OPS as ENTRIES
from op_db import Gen

DTYPES = ("float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool",
          "complex128", "complex64")
RANDOM_WORDS = ("dropout", "random", "bernoulli", "multinomial", "normal", "rrelu", "rand", "poisson",
                "exponential", "cauchy", "geometric", "uniform")
SPECIAL_FLOATS = (0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, -2.0, 1e-30,
                  -1e-30, 1e30, -1e30, 20.0, -20.0, 40.0, -40.0, 100.0, 1e-200, 6.0, -3.0)


@dataclasses.dataclass(frozen=True)
class ChainOp:
    """An entry's ``fn`` with the non-array arguments of one of its samples."""
    key: str
    entry: str
    fn: Callable
    arity: int
    rest: tuple
    dtypes: tuple

    def call(self, lib, *tensors):
        return self.fn(lib, *tensors, *self.rest)


def _is_random(entry):
    return entry.family == "random" or any(w in entry.name.lower() for w in RANDOM_WORDS)


def _holds_array(value):
    if isinstance(value, np.ndarray):
        return True
    if isinstance(value, (tuple, list)):
        return any(_holds_array(v) for v in value)
    return False


def _chain_ops():
    ops = {}
    for entry in ENTRIES:
        if _is_random(entry):
            continue
        for dtype in entry.dtypes[:2] + tuple(d for d in ("int64",) if d in entry.dtypes):
            rng = np.random.default_rng(0)
            for sample in entry.samples(Gen(dtype, entry.domain, rng)):
                args = sample.args
                arity = 2 if len(args) >= 2 and all(isinstance(a, np.ndarray) for a in args[:2]) else 1
                if not isinstance(args[0], np.ndarray) or any(_holds_array(a) for a in args[arity:]):
                    continue
                rest = args[arity:]
                key = entry.name if not rest else f"{entry.name}[{sample.name}]"
                ops.setdefault(key, ChainOp(key, entry.name, entry.fn, arity, rest, entry.dtypes))
    return ops


OPS = _chain_ops()
if os.environ.get("CHAINRULE_FUZZ_OPS"):  # a regex: fuzz only the ops whose key it finds (one family, by hand)
    OPS = {k: op for k, op in OPS.items() if re.search(os.environ["CHAINRULE_FUZZ_OPS"], k)}
UNARY = tuple(k for k, op in OPS.items() if op.arity == 1)
BINARY = tuple(k for k, op in OPS.items() if op.arity == 2)


# --- arrays -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ArraySpec:
    """An input array: values in C order; layout "contig", "transposed" (Fortran order) or
    "strided" (every other element of a buffer twice as long in the last dim)."""
    dtype: str
    shape: tuple
    values: tuple
    layout: str = "contig"

    def array(self):
        a = np.array(self.values, dtype=self.dtype).reshape(self.shape)
        if self.layout == "transposed" and a.ndim >= 2:
            return np.asfortranarray(a)
        if self.layout == "strided" and a.ndim >= 1:
            base = np.zeros(self.shape[:-1] + (2 * self.shape[-1],), self.dtype)
            base[..., ::2] = a
            return base[..., ::2]
        return a

    def code(self):
        """Python source building this array (``nan``/``inf`` from math)."""
        text = f"np.array({list(self.values)!r}, {self.dtype!r}).reshape({self.shape!r})"
        return text if self.layout == "contig" else f"{text}  # {self.layout}"


def spec_of(array):
    """The ArraySpec of a NumPy array (its layout approximated by one of the three)."""
    layout = "contig" if array.flags.c_contiguous else "transposed" if array.flags.f_contiguous else "strided"
    return ArraySpec(array.dtype.name, tuple(array.shape), tuple(array.ravel().tolist()), layout)


def shapes(max_size=24):
    """0-d to 3-d shapes with empty and size-1 dims, at most ``max_size`` elements."""
    return st.lists(st.sampled_from((0, 1, 1, 2, 3, 4)), min_size=0, max_size=3).map(tuple).filter(
        lambda s: math.prod(s) <= max_size)


def values(dtype):
    """Elements of ``dtype``: special values (±0, ±inf, nan, kinks, ties, range ends) mostly."""
    if dtype == "bool":
        return st.booleans()
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return st.one_of(st.sampled_from((0, 1, -1, 2, 3, info.min, info.max) if info.min < 0
                                         else (0, 1, 2, 3, info.max)),
                         st.integers(int(info.min), int(info.max)))
    real = st.one_of(st.sampled_from(SPECIAL_FLOATS), st.floats(-4, 4, width=16).map(float))
    if dtype.startswith("complex"):
        return st.builds(complex, real, real)
    return real


@st.composite
def arrays(draw, dtype=None, shape=None):
    """An ``ArraySpec``: a drawn dtype, shape, values and layout (contiguous, transposed, strided)."""
    dtype = dtype or draw(st.sampled_from(DTYPES[:2] * 3 + DTYPES))
    shape = draw(shapes()) if shape is None else shape
    n = math.prod(shape)
    flat = draw(st.lists(values(dtype), min_size=n, max_size=n))
    if dtype.startswith("float"):
        info = np.finfo(dtype)
        flat = [v if not math.isfinite(v) or abs(v) <= info.max else math.copysign(math.inf, v) for v in flat]
    layout = draw(st.sampled_from(("contig", "contig", "transposed", "strided")))
    return ArraySpec(dtype, tuple(shape), tuple(flat), layout)


@st.composite
def broadcast_partner(draw, shape):
    """A shape that broadcasts with ``shape``: the same, a suffix, with 1s, 0-d."""
    kind = draw(st.sampled_from(("same", "same", "suffix", "ones", "scalar")))
    if kind == "same":
        return tuple(shape)
    if kind == "scalar":
        return ()
    if kind == "suffix":
        return tuple(shape[draw(st.integers(0, len(shape))):])
    return tuple(1 if draw(st.booleans()) else d for d in shape)


def partner_dtype(dtype):
    """The second array's dtype: mostly the first one's, sometimes any other."""
    return st.one_of(st.just(dtype), st.just(dtype), st.sampled_from(DTYPES))
