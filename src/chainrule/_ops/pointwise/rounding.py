"""Rounding (floor, ceil, trunc, round with decimals, frac) and nan_to_num: piecewise
constant or the identity where finite, so their gradients are zero or the incoming one.
"""
import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import Tensor, _wrap
from .elementwise import zeros_like
from ..methods import inplace_method
from ..registry import FROM_VJP, defop, found_dtype, into, unary


def _zero_rules(node):
    return dict(node=node, vjp=lambda g, *_: zeros_like(g), jvp=lambda t, *_: zeros_like(t),
                elementwise=True)


FLOOR = defop("floor", np.floor, **_zero_rules("FloorBackward0"))
CEIL = defop("ceil", np.ceil, **_zero_rules("CeilBackward0"))
TRUNC = defop("trunc", np.trunc, **_zero_rules("TruncBackward0"))
ROUND = defop("round", np.round, **_zero_rules("RoundBackward0"))
def _round_decimals(x, decimals):
    """PyTorch's nearbyint(x * 10^d) / 10^d in the op math type: float16 in float32, so
    6688 to one decimal is 6688, not 66880 overflowing to inf."""
    with np.errstate(over="ignore"):
        return np.round(x.astype(np.float32) if x.dtype == np.float16 else x, decimals).astype(x.dtype, copy=False)


ROUND_DECIMALS = defop("round_decimals", _round_decimals, **_zero_rules("RoundBackward1"))


def _integer_copy(x):
    """Rounding an integer tensor changes nothing (PyTorch returns a copy)."""
    return x.clone()


def _integral(x, name):
    """Whether floor/ceil/trunc of ``x`` is ``x`` itself (integers); PyTorch has no kernel
    for bool, and refuses complex."""
    kind = x._data.dtype.kind
    if kind == "c":
        raise NotImplementedError(f"{name} is not supported for complex inputs")
    if kind == "b":
        raise _dtype.not_implemented(f"{name}_vml_cpu", x._data.dtype)
    return kind in "iu"


def floor(x, *, out=None):
    if out is not None:
        return into(out, floor, x, exact=found_dtype)
    return _integer_copy(x) if _integral(x, "floor") else unary(FLOOR, x)


def ceil(x, *, out=None):
    if out is not None:
        return into(out, ceil, x, exact=found_dtype)
    return _integer_copy(x) if _integral(x, "ceil") else unary(CEIL, x)


def trunc(x, *, out=None):
    if out is not None:
        return into(out, trunc, x, exact=found_dtype)
    return _integer_copy(x) if _integral(x, "trunc") else unary(TRUNC, x)


fix = trunc


def round(x, *, decimals=None, out=None):
    """Half to even; integers are their own rounding, but only where no ``decimals`` is given
    (PyTorch's round.decimals kernels are floating only, and bool and complex have none)."""
    if out is not None:
        return into(out, round, x, decimals=decimals, exact=found_dtype)
    kind = x._data.dtype.kind
    if kind in "iu" and decimals is None:
        return _integer_copy(x)
    if kind not in "f":
        raise _dtype.not_implemented("round_cpu" if decimals else "round_vml_cpu", x._data.dtype)
    if decimals:
        return unary(ROUND_DECIMALS, x, (decimals,))
    return unary(ROUND, x)


FRAC = defop("frac", lambda x: x - np.trunc(x), node="FracBackward0",
             vjp=lambda g: g, jvp=FROM_VJP, elementwise=True)


def frac(x, *, out=None):
    if out is not None:
        return into(out, frac, x, exact=found_dtype)
    if x._data.dtype.kind != "f":
        raise _dtype.not_implemented("frac_cpu", x._data.dtype)
    return unary(FRAC, x)




def _nan_to_num(x, nan, posinf, neginf):
    return np.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)


NAN_TO_NUM = defop("nan_to_num", _nan_to_num, node="NanToNumBackward0",
                   save=lambda ans, x, nan, posinf, neginf: (_wrap(np.isfinite(x._data)),),
                   # a product, as PyTorch's grad * isfinite(x): an inf gradient gives nan there
                   vjp=lambda g, finite: g * finite, jvp=FROM_VJP, elementwise=True)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    return unary(NAN_TO_NUM, x, (nan, posinf, neginf))


def positive(x):
    if x._data.dtype.kind == "b":
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return x


# --- Tensor methods --------------------------------------------------------------------------

Tensor.floor = floor
Tensor.floor_ = inplace_method(floor, "floor_")
Tensor.ceil = ceil
Tensor.ceil_ = inplace_method(ceil, "ceil_")
Tensor.trunc = Tensor.fix = trunc
Tensor.trunc_ = Tensor.fix_ = inplace_method(trunc, "trunc_")
Tensor.round = round
Tensor.round_ = inplace_method(round, "round_")
Tensor.frac = frac
Tensor.frac_ = inplace_method(frac, "frac_")
Tensor.nan_to_num = nan_to_num
Tensor.nan_to_num_ = inplace_method(nan_to_num, "nan_to_num_")
Tensor.positive = positive
