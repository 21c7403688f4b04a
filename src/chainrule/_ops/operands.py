"""How an op's operands become tensors of its result dtype: PyTorch's promotion at the
boundary with NumPy (Python numbers, mixed dtypes, complex32's refusal), the casts and copies
that bring them there, results without history (comparisons, logic), and PyTorch's messages
for the operands it refuses. Every pointwise family builds on this module.
"""
import math

import numpy as np

from .._core import arguments as _argparse, dtype as _dtype
from .._core.arguments import operand
from .._core.modes import FORWARD_AD, GRAD_MODE, VMAP
from .._core.tensor import Tensor, _wrap, is_tensor
from .batching import has_values
from .registry import FROM_VJP, Op, broadcast_error, defop, not_a_tensor, record, unary
from .tangents import not_differentiable, refuse_tangents


# --- dtype promotion at the boundary with NumPy ---------------------------------------


def _complex32_refused(kernel, a, b):
    """PyTorch's error where its kernel for two tensors lacks complex32 (a float16 and a
    complex 0-d tensor); None otherwise (chainrule's own error stands for the rest)."""
    if a._data.dtype.kind != b._data.dtype.kind and (a._data.dtype.char == "e" or b._data.dtype.char == "e") \
            and promoted((a, b)) is _dtype.COMPLEX_HALF:
        raise not_implemented_for(kernel, _dtype.COMPLEX_HALF)


def _tensor_result(a, b):
    """NumPy dtype of ``a op b`` for two tensors, or None when NumPy already agrees."""
    if a._data.dtype == b._data.dtype:
        return None
    return _dtype.result_dtype((a, b)).np


def _scalar_operand(x, s):
    """``(s, dtype)`` for ``x op s`` with a Python number s: the number as PyTorch
    computes with it, and the result's NumPy dtype (None when NumPy already agrees).

    NumPy treats Python numbers as weakly typed, like PyTorch, except across categories:
    an integer tensor times a float is float64 in NumPy, the default dtype in PyTorch.
    And an int out of an integer dtype's range wraps in PyTorch (``uint8 + (-3)`` adds
    253), where NumPy raises OverflowError.
    """
    np_dtype = x._data.dtype
    kind = np_dtype.kind
    cls = s.__class__
    if kind in "fc":
        if cls is int:
            _dtype.scalar_int(s)
        elif cls is complex and np_dtype.itemsize == 2:  # float16 with a complex: complex32
            raise _dtype.no_complex32()
        return s, None
    if cls is int:
        if kind == "b":  # PyTorch's int64 result, or its error for a uint64 number
            if _dtype.scalar_int(s) >= 1 << 63:
                raise _dtype.no_bool_with_uint64()
            return s, None
        return (s if _INT_RANGES[np_dtype.char][0] <= s <= _INT_RANGES[np_dtype.char][1]
                else _dtype.wrapped_int(s, np_dtype)), None
    if cls is bool:
        return s, None
    if cls is float:  # beyond the default dtype's range, PyTorch's conversion makes it inf
        dtype = _dtype.get_default_dtype().np
        return (s if abs(s) <= _FLOAT_MAX[dtype.char] or s != s else math.copysign(math.inf, s)), dtype
    return s, _dtype.default_complex_dtype().np


_FLOAT_MAX = {np.dtype(t).char: float(np.finfo(t).max) for t in (np.float16, np.float32, np.float64)}
_INT_RANGES = {np.dtype(t).char: (int(np.iinfo(t).min), int(np.iinfo(t).max))
               for t in (np.uint8, np.int8, np.int16, np.int32, np.int64)}


def _scalar_result(x, s):
    """NumPy dtype of ``x op s`` for a Python number s, or None when NumPy agrees."""
    return _scalar_operand(x, s)[1]


def _float_result(x):
    """True division and transcendental ops turn integer inputs into the default dtype."""
    return None if x._data.dtype.kind in "fc" else _dtype.get_default_dtype().np


def _float_input(x):
    """``x``, or for a bool or integer ``x`` a copy in the default dtype: what PyTorch
    computes ``exp``, ``sin``... in. NumPy would pick float16 for bool (exp(True) =
    2.719) and float64 for int64 (rounded once more to float32 after)."""
    try:
        if x._data.dtype.kind in "fc":
            return x
    except AttributeError:
        raise not_a_tensor(x) from None
    if not has_values(x._data):  # a batched x under vmap: the cast is an op
        return cast(x, _dtype.get_default_dtype().np)
    return _wrap(x._data.astype(_dtype.get_default_dtype().np))


def common_operands(*operands, floating=False, kernel=None):
    """``(*tensors, dtype)``: the operands as tensors and the result's NumPy dtype by
    PyTorch's promotion (``floating``: the default float dtype where that is integral).
    Operands that cannot require grad (numbers, bool and integer tensors) are converted
    to that dtype here, so that NumPy computes in it. ``kernel``: PyTorch's kernel, which
    refuses complex32 (float16 with a complex number) with its own error."""
    operands = [operand(v) for v in operands]
    try:
        dtype = _dtype.result_dtype(operands).np
    except TypeError as e:
        if kernel is None or not _dtype.is_complex32(e):
            raise
        raise not_implemented_for(kernel, _dtype.COMPLEX_HALF) from None
    if floating and dtype.kind not in "fc":
        dtype = _dtype.get_default_dtype().np
    return (*[_constant_as(v, dtype) for v in operands], dtype)


def promoted(operands):
    """The operands' result dtype (NumPy's), or ``_dtype.COMPLEX_HALF`` for the complex32
    that chainrule lacks: for PyTorch's messages, which name it."""
    try:
        return _dtype.result_dtype(operands).np
    except TypeError as e:
        if not _dtype.is_complex32(e):
            raise
        return _dtype.COMPLEX_HALF


def _constant_as(value, dtype):
    if not isinstance(value, Tensor):
        if value.__class__ is int:  # wraps into an integer dtype, as in PyTorch
            value = _dtype.wrapped_int(value, dtype) if dtype.kind in "iu" else _dtype.scalar_int(value)
        return _wrap(np.asarray(value, dtype=dtype))
    if value._data.dtype.kind in "fc" or value._data.dtype == dtype:
        return value  # may require grad: NumPy promotes floats, the registry casts the result
    if not has_values(value._data):  # a batched value under vmap: the cast is an op
        return cast(value, dtype)
    return _wrap(value._data.astype(dtype))


def plain(fn, inputs, *params, dtype=None):
    """``fn`` on the inputs' arrays, as a result without history (comparisons, logic)."""
    if VMAP.active:  # under vmap: fn is elementwise, so it batches as one
        out = VMAP.elementwise_call(lambda args: plain(fn, args, *params, dtype=dtype), inputs)
        if out is not None:
            return out
    try:
        data = fn(*[t._data for t in inputs], *params)
    except ValueError as e:
        raise broadcast_error(e, *[t._data.shape for t in inputs]) from None
    if data.__class__ is not np.ndarray:
        data = np.asarray(data)
    return _wrap(data if dtype is None or data.dtype == dtype else data.astype(dtype))


def _no_derivative(name):
    """What PyTorch records for an op it cannot differentiate: a node whose backward
    raises. Not registered: it has no rules to check."""
    def fail(*_):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return Op(name, None, "torch::autograd::NotImplemented", (fail, fail, fail), (fail, fail, fail), None,
              False, False, False)


def without_derivative(op, out, inputs):
    """``out`` with ``op``'s node (see ``_no_derivative``) when an input requires grad."""
    if GRAD_MODE.enabled and any(t._requires_grad for t in inputs):
        record(op, out, inputs, ())
    if FORWARD_AD.active:  # nor can forward AD differentiate it
        refuse_tangents(inputs, not_differentiable(op.name))
    return out


# --- PyTorch's messages for dtypes and arguments it refuses -------------------------------


type_name = _dtype.type_word  # PyTorch's name for a dtype in its messages: Float, Long...


def not_implemented_for(kernel, np_dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{type_name(np_dtype)}\'')


def _argument_type(value):
    return _argparse.type_name(value)


def must_be_tensor(fn, value, name="other", position=2):
    """``atan2(): argument 'other' (position 2) must be Tensor, not float``."""
    return TypeError(f"{fn}(): argument '{name}' (position {position}) must be Tensor, "
                     f"not {_argument_type(value)}")


def invalid_arguments(fn, args, *signatures):
    """PyTorch's message for arguments that match none of an op's signatures."""
    return _argparse.invalid_combination(fn, args, {}, *signatures)


def tensor_method(fn, name, *arg_names):
    """``x.name(...)`` for an op whose operands must be tensors: in a method's messages
    PyTorch counts argument positions after ``self`` (``'other' (position 1)``)."""
    def method(self, *args, **kwargs):
        for position, (arg_name, value) in enumerate(zip(arg_names, args), 1):
            if not isinstance(value, Tensor):
                raise must_be_tensor(name, value, arg_name, position)
        return fn(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = fn.__doc__
    return method


TENSOR_OR_NUMBER = ("Tensor input, Tensor other, *, Tensor out = None",
                    "Tensor input, Number other, *, Tensor out = None")


def _is_complex(x):
    """Whether a tensor or a Python number is complex."""
    return x.__class__ is complex or (isinstance(x, Tensor) and x._data.dtype.kind == "c")


def _conj(number):
    return number.conjugate() if number.__class__ is complex else number


def as_tensor_like(value, like):
    """A Python number or array as a tensor, for ops that need both sides as tensors."""
    if is_tensor(value):
        return value
    data = np.asarray(value)
    if data.dtype.kind == "f" and not isinstance(value, np.ndarray):
        data = data.astype(_dtype.get_default_dtype().np)
    return _wrap(data)


# --- casts and copies: the ops the operands are brought to their dtype by ----------------

# backward casts back to the input's dtype: the engine's _reduce does that for every rule
CAST = defop("cast", lambda x, dt: x.astype(dt), node="ToCopyBackward0",
             save=lambda ans, x, dt: (dt,),
             vjp=lambda g, dt: g, jvp=lambda t, dt: cast(t, dt), elementwise=True)


def cast(x, np_dtype):
    return unary(CAST, x, (np.dtype(np_dtype),))


# "K" keeps the input's memory layout, as PyTorch's clone does; contiguous() asks for "C"
CLONE = defop("clone", lambda x, order: np.array(x, order=order), node="CloneBackward0",
              vjp=lambda g: g, jvp=FROM_VJP, elementwise=True)


def clone(x, order="K"):
    return unary(CLONE, x, (order,))
