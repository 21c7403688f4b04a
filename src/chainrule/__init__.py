"""chainrule: PyTorch's autograd, rebuilt as a small, fast, readable library on NumPy.

``import chainrule as torch`` runs PyTorch autograd code unchanged:

>>> x = chainrule.ones(2, 2, requires_grad=True)
>>> ((x + 2) * (x + 2) * 3).mean().backward()
>>> x.grad
tensor([[4.5000, 4.5000],
        [4.5000, 4.5000]])
"""
from ._dtype import (bool_ as bool, complex64, complex128, dtype, float16, float32, float64, int8, int16,
                     int32, int64, uint8, can_cast, get_default_dtype, promote_types, set_default_dtype)
from ._tensor import Size, Tensor, device
from ._printing import get_printoptions, set_printoptions
from ._creation import (Generator, arange, as_tensor, default_generator, empty, empty_like, eye, from_numpy,
                        full, full_like, initial_seed, linspace, manual_seed, normal, ones, ones_like, rand,
                        rand_like, randint, randint_like, randn, randn_like, seed, tensor, zeros, zeros_like)
from ._ops.elementwise import add, div, eq, ge, gt, le, lt, mul, ne, neg, pow, sub, where
from ._ops.unary import (abs, acos, acosh, angle, arccos, arccosh, arcsin, arcsinh, arctan, arctanh, asin,
                         asinh, atan, atanh, ceil, clamp, clamp_max, clamp_min, clip, cos, cosh, deg2rad, exp,
                         exp2, expm1, fix, floor, frac, log, log1p, log2, log10, logit, nan_to_num, positive,
                         rad2deg, reciprocal, relu, round, rsqrt, sgn, sigmoid, sign, sin, sinc, sinh, sqrt,
                         square, tan, tanh, trunc)
from ._ops.special import digamma, erf, erfc, erfinv, i0, lgamma, mvlgamma, polygamma
from ._ops.reductions import all, any, argmax, argmin, max, maximum, mean, min, minimum, sum
from ._ops.shape import flatten, permute, reshape, select, squeeze, t, transpose, unsqueeze
from ._ops.linalg import dot, matmul, mm, mv
from .autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                                 no_grad, set_grad_enabled)
from . import autograd, nn, return_types, special  # noqa: F401  (submodules, as in torch)
from ._dtype import result_dtype as _result_dtype

float = float32
double = float64
half = float16
long = int64
int = int32
short = int16
cfloat = complex64
cdouble = complex128
multiply = mul
subtract = sub
divide = div
true_divide = div
absolute = abs
negative = neg
swapaxes = swapdims = transpose

__version__ = "0.1.0"


def result_type(tensor1, tensor2):
    """The dtype of ``tensor1 op tensor2`` under PyTorch's promotion rules."""
    return _result_dtype((tensor1, tensor2))


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(input):
    return input.is_floating_point()


def is_complex(input):
    return input.is_complex()


def numel(input):
    return input.numel()


def clone(input, *, memory_format=None):
    return input.clone()


def detach(input):
    return input.detach()


__all__ = [
    "abs", "absolute", "acos", "acosh", "add", "all", "angle", "any", "arange", "arccos", "arccosh",
    "arcsin", "arcsinh", "arctan", "arctanh", "argmax", "argmin", "as_tensor", "asin", "asinh",
    "atan", "atanh", "autograd", "bool", "can_cast", "cdouble", "ceil", "cfloat", "clamp",
    "clamp_max", "clamp_min", "clip", "clone", "complex128", "complex64", "cos", "cosh",
    "default_generator", "deg2rad", "detach", "device", "digamma", "div", "divide", "dot", "double",
    "dtype", "empty", "empty_like", "enable_grad", "eq", "erf", "erfc", "erfinv", "exp", "exp2",
    "expm1", "eye", "fix", "flatten", "float", "float16", "float32", "float64", "floor", "frac",
    "from_numpy", "full", "full_like", "ge", "Generator", "get_default_dtype", "get_printoptions",
    "gt", "half", "i0", "inference_mode", "initial_seed", "int", "int16", "int32", "int64", "int8",
    "is_complex", "is_floating_point", "is_grad_enabled", "is_inference_mode_enabled", "is_tensor",
    "le", "lgamma", "linspace", "log", "log10", "log1p", "log2", "logit", "long", "lt",
    "manual_seed", "matmul", "max", "maximum", "mean", "min", "minimum", "mm", "mul", "multiply",
    "mv", "mvlgamma", "nan_to_num", "ne", "neg", "negative", "nn", "no_grad", "normal", "numel",
    "ones", "ones_like", "permute", "polygamma", "positive", "pow", "promote_types", "rad2deg",
    "rand", "rand_like", "randint", "randint_like", "randn", "randn_like", "reciprocal", "relu",
    "reshape", "result_type", "return_types", "round", "rsqrt", "seed", "select",
    "set_default_dtype", "set_grad_enabled", "set_printoptions", "sgn", "short", "sigmoid", "sign",
    "sin", "sinc", "sinh", "Size", "special", "sqrt", "square", "squeeze", "sub", "subtract", "sum",
    "swapaxes", "swapdims", "t", "tan", "tanh", "Tensor", "tensor", "transpose", "true_divide",
    "trunc", "uint8", "unsqueeze", "where", "zeros", "zeros_like",
]
