"""Dtype promotion: every dtype pair x every Python scalar kind x every binary operator, in place too.

Each case computes ``a <op> b`` (or ``a <op>= b``) where a is a 1-d tensor of one dtype and b
a 1-d or 0-d tensor of another dtype or a Python scalar (bool, int in and out of the
dtype's range, float incl. -0./inf/nan, complex), on chainrule and on PyTorch, and compares
the result's dtype and value (bit for bit for integer and bool results) or the exception
(type and first line). The class key groups dtypes into families:
``"<op>|<binary or inplace>:<kind>|<family of a>x<family or scalar kind of b>"``.
"""
import math
import operator
import warnings

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import chainrule
from fuzz.compare import _compare_arrays, _error
from fuzz.conftest import LONG, RECORD, STRICT, fuzz_settings
from fuzz.known_classes import DELIBERATE_PROMOTION, KNOWN_PROMOTION
from fuzz.strategies import DTYPES
from helpers import require_torch

VALUES = {"bool": [True, False, True, False], "uint8": [0, 1, 200, 255], "int8": [-128, -1, 0, 127],
          "int16": [-32768, -3, 0, 5], "int32": [-2**31, -3, 0, 7], "int64": [-2**63, -3, 0, 9],
          "float16": [-0.0, 1.5, math.inf, math.nan], "float32": [-0.0, -2.5, math.inf, math.nan],
          "float64": [0.0, -2.5, -math.inf, 3.0], "complex64": [1 + 2j, -0.0, complex(math.inf, 1), 2],
          "complex128": [1 - 2j, 0.5, complex(0, math.nan), -3]}
SCALARS = {"bool": (True, False), "int": (0, 3, -3), "bigint": (300, -129, 2**31, 2**63, -2**63 - 1),
           "float": (2.5, -0.0, math.inf, math.nan, 1e300), "complex": (1 + 2j, complex(0, -0.0))}
OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
       "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "eq": operator.eq,
       "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
       "and": operator.and_, "or": operator.or_, "xor": operator.xor, "lshift": operator.lshift,
       "rshift": operator.rshift}
INPLACE = {"add": operator.iadd, "sub": operator.isub, "mul": operator.imul, "truediv": operator.itruediv,
           "floordiv": operator.ifloordiv, "mod": operator.imod, "pow": operator.ipow, "and": operator.iand,
           "or": operator.ior, "xor": operator.ixor, "lshift": operator.ilshift, "rshift": operator.irshift}
FUNCTIONS = ("maximum", "minimum", "fmax", "fmin", "atan2", "remainder", "fmod", "copysign", "hypot",
             "bitwise_and", "logical_and", "float_power", "true_divide", "xlogy")
FORMS = ("tensor-tensor", "tensor-0d", "0d-tensor", "tensor-scalar", "scalar-tensor", "inplace-tensor",
         "inplace-scalar")


def family(dtype):
    return {"bool": "bool", "uint8": "uint8", "float16": "float16"}.get(dtype, dtype.rstrip("0123456789"))


def _operands(lib, form, a, b):
    x = lib.tensor(VALUES[a], dtype=getattr(lib, a))
    if form.endswith("scalar"):
        return x, b
    y = lib.tensor(VALUES[b], dtype=getattr(lib, b))
    if form == "tensor-0d":
        return x, y[1]
    if form == "0d-tensor":
        return x[1], y
    return x, y


def compute(lib, op, form, a, b):
    """("ok", dtype, array) or ("error", type, first line) for one case on ``lib``."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return _compute(lib, op, form, a, b)


def _compute(lib, op, form, a, b):
    try:
        x, y = _operands(lib, form, a, b)
        if form == "scalar-tensor":
            x, y = y, x
        if op in FUNCTIONS:
            result = getattr(lib, op)(x, y)
        elif form.startswith("inplace"):
            result = INPLACE[op](x, y)
        else:
            result = OPS[op](x, y)
        return ("ok", str(result.dtype).replace("torch.", ""), np.array(result.numpy()))
    except Exception as e:  # noqa: BLE001  (the exception is what we compare)
        return _error(e)


def difference(ours, theirs):
    if ours[0] == "error" or theirs[0] == "error":
        if ours[0] == theirs[0] == "error":
            return None if ours[1:] == theirs[1:] else ("error-type" if ours[1] != theirs[1] else "error-text")
        return "extra-error" if ours[0] == "error" else "missing-error"
    if ours[1] != theirs[1]:
        return "dtype"
    if ours[2].shape != theirs[2].shape:
        return "shape"
    return _compare_arrays(ours[2], theirs[2], ours[1], signed_zeros=True)


def check(op, form, a, b):
    """The class key of the case's difference from PyTorch, or None, and a reproducer line."""
    torch = require_torch()
    ours, theirs = compute(chainrule, op, form, a, b), compute(torch, op, form, a, b)
    kind = difference(ours, theirs)
    if kind is None:
        return None, ""
    other = family(b) if isinstance(b, str) else next(k for k, v in SCALARS.items() if b in v and type(b) is type(v[0]))
    key = f"{op}|{'inplace' if form.startswith('inplace') else 'binary'}:{kind}|{family(a)}x{other}"
    line = f"{op} {form} {a} {b!r}: chainrule {ours[1:2]} / PyTorch {theirs[1:2]}"
    if kind == "value":
        line += f" {ours[2].tolist()} / {theirs[2].tolist()}"
    elif ours[0] == "error" or theirs[0] == "error":
        line += f" {ours[-1]!r} / {theirs[-1]!r}"
    return key, line


def grid():
    """Every case: (op, form, dtype of a, dtype of b or a Python scalar)."""
    ops = list(OPS) + list(FUNCTIONS)
    for op in ops:
        for form in FORMS:
            if form.startswith("inplace") and op not in INPLACE:
                continue
            others = [s for v in SCALARS.values() for s in v] if form.endswith("scalar") else DTYPES
            for a in DTYPES:
                for b in others:
                    yield op, form, a, b


GRID = list(grid())


def _record(case):
    key, line = check(*case)
    RECORD.count("promotion cases")
    if key is not None:
        RECORD.add(key, 0, line, f"check{case!r}", case)
    return key


_FOUND = []


def grid_classes():
    """The class keys the whole grid finds (about 25,000 cases, 6 s: run once per session)."""
    if not _FOUND:
        _FOUND.append({k for k in (_record(case) for case in GRID) if k})
    return _FOUND[0]


def test_promotion_grid():
    """The whole grid, in CI too: it is deterministic and fast."""
    new = grid_classes() - set(KNOWN_PROMOTION) - set(DELIBERATE_PROMOTION)
    assert not new or not STRICT, f"promotion classes not in known_classes.KNOWN_PROMOTION: {sorted(new)}"


@fuzz_settings(ci_examples=50)
@given(st.sampled_from(GRID))
def test_promotion_sampled(case):
    """The grid through hypothesis too, so the long mode shrinks and reports cases one by one."""
    if LONG:
        _record(case)


def test_known_promotion_classes_still_reproduce():
    """Strict: a listed class the grid no longer finds must leave KNOWN_PROMOTION."""
    gone = sorted(set(KNOWN_PROMOTION) - grid_classes())
    assert not gone, f"fixed: remove from known_classes.KNOWN_PROMOTION: {gone}"


def test_deliberate_promotion_classes_still_differ():
    """Each deliberate promotion difference (docs/differences.md) still shows on its case."""
    gone = sorted(key for key, (_, case) in DELIBERATE_PROMOTION.items() if check(*case)[0] != key)
    assert not gone, f"no longer differ: remove from known_classes.DELIBERATE_PROMOTION: {gone}"
