"""PyTorch's argument-parser errors, built only once a call has already failed.

PyTorch checks every argument of a ``torch.*`` function or ``Tensor`` method against its
signatures before it runs (``python_arg_parser.cpp``), and its TypeErrors name the
function, the argument and the type it got. chainrule does not parse arguments on the way
in (speed: DESIGN.md, no kwargs parsing on the hot path). Instead an op runs on what it is
given; where that fails (an AttributeError from ``None._data``, an int check that an
isinstance already makes), the op calls a helper here to raise PyTorch's error.

>>> chainrule.relu(3)
Traceback (most recent call last):
TypeError: relu(): argument 'input' (position 1) must be Tensor, not int

A method counts positions after ``self`` (``x.mul(None)``: ``'other' (position 1)``); the
helpers find out whether a Tensor method was called by looking up the stack, which is
cheap enough on the failure path only.
"""
import operator
import os
import sys

import numpy as np

from . import dtype as _dtype
from .dims import wrap_dim
from .tensor import METHOD_CODES, Tensor, _wrap

_PACKAGE = os.path.dirname(os.path.dirname(__file__)) + os.sep  # .../chainrule/


class _Named(str):
    """An argument known by its type only, for ``invalid_combination``'s ``got (...)``."""


TENSOR = _Named("Tensor")


def type_name(value):
    """The type as PyTorch's messages name it (its ``tp_name``): ``Tensor``, ``int``,
    ``NoneType``, ``numpy.ndarray``, ``numpy.float64``."""
    if isinstance(value, Tensor):
        return "Tensor"
    if isinstance(value, _Named):
        return str(value)
    cls = type(value)
    if cls.__module__ == "numpy":
        return f"numpy.{cls.__name__}"
    return cls.__name__


# the ops' helpers that have public-looking names: never the function a user called
_HELPERS = {"unary", "binary", "apply", "not_a_tensor", "common_operands", "as_tensor_like", "cast", "wrap_dim",
            "wrap_dims", "reduced_dims", "wrap_dim_of_tensor", "wrap_dim_then_size", "int_dim", "size_arg", "int_tuple"}


def _public_frame():
    """The frame of the public function (``clamp``, ``sum``) whose helpers failed: the first
    one up the stack whose name is public, else the outermost of chainrule's (a method
    with a private name, ``_repeat_method``)."""
    frame = sys._getframe(2)
    last = frame
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        code = frame.f_code
        if code.co_name[0] not in "_<" and code.co_name not in _HELPERS and code.co_filename != __file__:
            return frame
        last = frame
        frame = frame.f_back
    return last


def entry():
    """``(name, is_method)``: the public function that failed, and whether it was called
    as a ``Tensor`` method (``x.mul(None)``: its first argument is ``self``, or a thin
    method of a family's ``_TensorMethods`` called it) rather than as a function (``torch.mul(x, None)``)."""
    frame = _public_frame()
    code = frame.f_code
    if code.co_argcount and code.co_varnames[0] == "self":
        return code.co_name, True
    caller = frame.f_back
    if caller is not None and caller.f_code in METHOD_CODES and caller.f_code.co_name[0] != "_":
        return caller.f_code.co_name, True
    return code.co_name, False


def public_name():
    """The name of the public function that failed, for its message."""
    return entry()[0]


def called_as_method():
    """Whether the public function that failed was called as a ``Tensor`` method."""
    return entry()[1]


def must_be(fn, arg, position, expected, value):
    """``fn(): argument 'arg' (position p) must be expected, not X``; ``position`` counts
    from 1 in the function's form, one less when a method was called."""
    if called_as_method():
        position -= 1
    return TypeError(f"{fn}(): argument '{arg}' (position {position}) must be {expected}, not {type_name(value)}")


def not_tensor(fn, value, arg="input", position=1):
    """``relu(): argument 'input' (position 1) must be Tensor, not int``."""
    return must_be(fn, arg, position, "Tensor", value)


def check_tensor(fn, value, arg="input", position=1):
    """For an ``except AttributeError:`` block: PyTorch's TypeError if ``value`` is no
    tensor, else nothing (the caller re-raises the real error)."""
    if not isinstance(value, Tensor):
        raise not_tensor(fn, value, arg, position) from None


def describe(value):
    """A value's type with its elements', as PyTorch's "didn't match" lines show it:
    ``list of [float, int]``, ``tuple of (float, float)``, ``tuple of (int,)``."""
    if isinstance(value, list):
        return f"list of [{', '.join(map(type_name, value))}]"
    if isinstance(value, tuple):
        return f"tuple of ({', '.join(map(type_name, value))}{',' if len(value) == 1 else ''})"
    return type_name(value)


def _parameters(signature):
    """``[(type, name)]`` of a signature as PyTorch's message code reads it: each ``, ``
    separated piece split at its last space (so ``*`` counts, and ``Tensor min = None`` is
    a parameter named ``None``)."""
    pieces = []
    for piece in signature.split(", ") if signature else ():
        cut = piece.rfind(" ")
        pieces.append((piece[:cut] if cut >= 0 else "", piece[cut + 1:]))
    return pieces


_ACCEPTS = {"float": ("float", "int", "long"), "int": ("int", "long")}


def _mismatch(signature, args, kwargs):
    """The "didn't match" line PyTorch adds under a signature with as many parameters as
    arguments were given (by count alone), else ''. The types are compared by name."""
    params = _parameters(signature)
    if len(params) != len(args) + len(kwargs):
        return ""
    names = [name for _, name in params[len(params) - len(kwargs):]] if kwargs else []
    unknown = [k for k in kwargs if k not in names]
    if unknown:
        return f"      didn't match because some of the keywords were incorrect: {', '.join(unknown)}\n"
    marked = []
    for i, (kind, name) in enumerate(params):
        value = args[i] if i < len(args) else kwargs[name]
        label = ("" if i < len(args) else f"{name}=") + describe(value)
        marked.append(label if type_name(value) in _ACCEPTS.get(kind, (kind,)) else f"!{label}!")
    text = ", ".join(marked) if args else "".join(f"{m}, " for m in marked)
    return f"      didn't match because some of the arguments have invalid types: ({text})\n"


def invalid_combination(fn, args, kwargs, *signatures):
    """PyTorch's TypeError for arguments that match none of ``fn``'s signatures:
    ``clamp() received an invalid combination of arguments - got (min=str, ), but
    expected one of:``, a line per signature, and under those with as many parameters as
    were given, why they "didn't match". ``args``: the positional arguments (after
    ``self`` for a method), ``kwargs``: the keyword ones, as the caller passed them."""
    got = ", ".join(type_name(a) for a in args)
    named = ", ".join(f"{k}={type_name(v)}" for k, v in kwargs.items())
    if named:
        got = f"{got}, {named}" if got else f"{named}, "
    expected = "".join(f" * ({s})\n{_mismatch(s, args, kwargs)}" for s in signatures)
    return TypeError(f"{fn}() received an invalid combination of arguments - got ({got}), but expected one "
                     f"of:\n{expected}")


def is_int(value):
    """What an ``int`` parameter accepts: an int (not a bool), a NumPy integer, or a 0-d
    integer tensor."""
    if value.__class__ is int or isinstance(value, np.integer):
        return True
    if isinstance(value, Tensor):
        return value._data.ndim == 0 and value._data.dtype.kind in "iu"
    return isinstance(value, int) and not isinstance(value, bool)


def int_arg(fn, arg, position, value):
    """``value`` as an int, or PyTorch's ``unsqueeze(): argument 'dim' (position 1) must be
    int, not float``."""
    if value.__class__ is int:
        return value
    if not is_int(value):
        raise must_be(fn, arg, position, "int", value)
    return int(value)


def _index(value):
    """``operator.index(value)``, or None for what an int list refuses (bools, floats,
    tensors of many elements)."""
    if value.__class__ is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def int_list(fn, arg, args, position=1, signatures=None):
    """The ints of a size or shape argument, given as varargs (``zeros(2, 3)``) or as one
    sequence (``zeros((2, 3))``), with PyTorch's errors: ``zeros(): argument 'size'
    (position 1) must be tuple of ints, not float`` and the others. ``signatures``: the
    function has others (``view(dtype)``), so a wrong type is an invalid combination."""
    if len(args) == 1 and _index(args[0]) is None:
        value = args[0]
        if not isinstance(value, (tuple, list)):
            if signatures:
                raise invalid_combination(fn, args, {}, *signatures)
            raise must_be(fn, arg, position, "tuple of ints", value)
        if value and _index(value[0]) is None:
            if signatures:
                raise invalid_combination(fn, args, {}, *signatures)
            if called_as_method():
                position -= 1
            raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be tuple of ints, but found "
                            f"element of type {type_name(value[0])} at pos 0")
        args = value
    out = []
    for pos, s in enumerate(args):
        i = _index(s)
        if i is None:
            raise TypeError(f"{fn}(): argument '{arg}' failed to unpack the object at pos {pos + 1} with error "
                            f"\"type must be tuple of ints,but got {type_name(s)}\"")
        out.append(i)
    return tuple(out)


def dims_arg(value):
    """Whether ``value`` can be an ``int[1]? dim`` argument (an int, or a tuple or list of
    ints), for the reductions' check of ``dim``."""
    if isinstance(value, (tuple, list)):
        return all(_index(v) is not None for v in value)
    return is_int(value)


# reductions whose ``dim`` has several overloads: (function's, method's) signatures
_DIM_OVERLOADS = {
    "sum": (("Tensor input, *, torch.dtype dtype = None",
             "Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None"),
            ("*, torch.dtype dtype = None", "tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None")),
    "mean": (("Tensor input, *, torch.dtype dtype = None, Tensor out = None",
              "Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None"),
             ("*, torch.dtype dtype = None", "tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None")),
}


def bad_dims(value):
    """PyTorch's TypeError for a ``dim`` that is no int nor tuple of ints (given by keyword,
    as reductions usually are): an invalid combination where the op has overloads
    (``sum() received an invalid combination of arguments - got (dim=str, ), ...``), else
    ``amax(): argument 'dim' must be tuple of ints, not str``."""
    fn, method = entry()
    if isinstance(value, (tuple, list)) and value and _index(value[0]) is not None:
        int_list(fn, "dim", (value,))  # raises PyTorch's error for the element that is no int
    overloads = _DIM_OVERLOADS.get(fn)
    if overloads is None:
        return TypeError(f"{fn}(): argument 'dim' must be tuple of ints, not {type_name(value)}")
    return invalid_combination(fn, () if method else (TENSOR,), {"dim": value}, *overloads[method])


def number_input(value, arg="input", position=1):
    """A Python number where a function takes a tensor (``torch.add(2, 3)``): the 0-d
    tensor PyTorch's parser makes of it (int64, bool, the default float or complex
    dtype); PyTorch's TypeError for anything else."""
    if isinstance(value, np.generic):
        value = value.item()
    cls = value.__class__
    if cls is float:
        return _wrap(np.asarray(value, _dtype.get_default_dtype().np))
    if cls is int:
        return _wrap(np.asarray(value, np.int64))
    if cls is bool:
        return _wrap(np.asarray(value))
    if cls is complex:
        return _wrap(np.asarray(value, _dtype.default_complex_dtype().np))
    raise not_tensor(public_name(), value, arg, position)


# --- the other operand of a binary op -----------------------------------------------------------

NUMBERS = (float, int, bool, complex)  # checked first on the hot path: ``x * 0.5`` is common


def operand(value):
    """The other operand of a binary op as a tensor or a Python number (NumPy scalars
    become numbers); anything else is PyTorch's TypeError. Arrays too: ``x + array`` is
    NumPy's business in PyTorch (the operators return NotImplemented on a TypeError)."""
    if isinstance(value, Tensor) or value.__class__ in NUMBERS:
        if value.__class__ is int:  # PyTorch's OverflowError for what a Scalar can't hold, first
            _dtype.scalar_int(value)
        return value
    if isinstance(value, np.generic):
        return value.item()
    raise NotAnOperand(str(not_tensor(public_name(), value, "other", 2)))


class NotAnOperand(TypeError):
    """A list, None, an array... as the other operand of a binary op. The operators catch
    it and return NotImplemented, so Python raises its own TypeError or NumPy computes
    (``x + array``), as with PyTorch; a call shows PyTorch's message: ``add(): argument
    'other' (position 2) must be Tensor, not list``. Named and printed as the TypeError
    it is (the operators must not catch other TypeErrors: complex32's is chainrule's own)."""


NotAnOperand.__name__ = NotAnOperand.__qualname__ = "TypeError"
NotAnOperand.__module__ = "builtins"


# --- dims and sizes: the argument parsing every op family uses (the arithmetic: _dims) ---------


def wrap_dims(dims, ndim):
    """An int or a sequence of dims as a sorted tuple of non-negative dims."""
    if dims.__class__ is int or isinstance(dims, np.integer):
        return (wrap_dim(dims, ndim),)
    if not isinstance(dims, (tuple, list)) or not dims_arg(dims):
        if not is_int(dims):  # a bool, a float, a tensor of many values...
            raise bad_dims(dims)
        return (wrap_dim(int(dims), ndim),)
    out = tuple(sorted(wrap_dim(d, ndim) for d in dims))
    if len(set(out)) != len(out):
        raise RuntimeError(f"dim {out[0]} appears multiple times in the list of dims")
    return out


def reduced_dims(dims, ndim):
    """The dims a reduction over ``dims`` (an int or a sequence) reduces, sorted. A 0-d
    tensor takes dim 0 or -1, checked as for a 1-d one (PyTorch's IndexError for
    ``x.all(1)``, its RuntimeError for ``(0, -1)``), but has no dim to reduce: ()."""
    out = wrap_dims(dims, ndim)
    return out if ndim else ()


def size_arg(args, name=None, arg="size"):
    """``f(2, 3)``, ``f((2, 3))`` and ``f(torch.Size([2, 3]))`` all mean (2, 3).

    ``name`` (a method's, with its argument ``arg``): PyTorch's TypeErrors for what is no
    tuple of ints, ``x.reshape('3')``, ``x.permute()``, ``x.reshape(2, 3.0)``."""
    if name is None:
        if len(args) == 1 and not isinstance(args[0], (int, np.integer)):
            return tuple(int(s) for s in args[0])
        return tuple(int(s) for s in args)
    if not args:
        raise TypeError(f'{name}() missing 1 required positional arguments: "{arg}"')
    if len(args) > 1 and not hasattr(args[0], "__index__"):
        raise TypeError(f"{name}() takes 1 positional argument but {len(args)} were given")
    # position 2 in the function's form, 1 in the method's
    return int_list(name, arg, args, 2, _VIEW_SIGNATURES if name == "view" else None)


_VIEW_SIGNATURES = ("torch.dtype dtype", "tuple of ints size")


def int_tuple(value):
    """An int or a sequence of ints as a tuple."""
    return (int(value),) if isinstance(value, (int, np.integer)) else tuple(int(v) for v in value)
