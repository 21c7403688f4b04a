"""chainrule: PyTorch's autograd, rebuilt as a small, fast, readable library on NumPy.

``import chainrule as torch`` runs PyTorch autograd code unchanged:

>>> x = chainrule.ones(2, 2, requires_grad=True)
>>> ((x + 2) * (x + 2) * 3).mean().backward()
>>> x.grad
tensor([[4.5000, 4.5000],
        [4.5000, 4.5000]])
"""
from ._core.dtype import (bool_ as bool, complex64, complex128, dtype, float16, float32, float64, int8, int16, int32,
                          int64, uint8, can_cast, get_default_dtype, promote_types, set_default_dtype)
from ._core.tensor import Size, Tensor, device, is_tensor
from ._ops.legacy import (BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor,
                          LongTensor, ShortTensor)
from ._core.printing import get_printoptions, set_printoptions
from ._core.threads import get_num_threads, set_num_threads
from ._ops.creation import (arange, as_tensor, default_generator, empty, empty_like, eye, finfo, from_numpy, full,
                            full_like, Generator, get_rng_state, iinfo, initial_seed, linspace, logspace, manual_seed,
                            ones, ones_like, rand, rand_like, randint, randint_like, randn, randn_like, seed,
                            set_rng_state, tensor, tril_indices, triu_indices, zeros, zeros_like)
from ._ops.random import bernoulli, multinomial, normal, poisson, randperm
from ._ops.pointwise.elementwise import conj, is_conj, is_neg, resolve_conj, resolve_neg
from ._ops.pointwise.elementwise import add, div, floor_divide, mul, neg, remainder, rsub, sub, where
from ._ops.pointwise.comparisons import (bitwise_and, bitwise_not, bitwise_or, bitwise_xor, eq, ge, greater,
                                         greater_equal, gt, le, less, less_equal, logical_not, lt, ne, not_equal)
from ._ops.pointwise.power import pow
from ._ops.pointwise.unary import (abs, angle, clamp, clamp_max, clamp_min, clip, cos, exp, exp2, expm1, isfinite,
                                   isinf, isnan, isneginf, isposinf, isreal, log, log1p, log2, log10, reciprocal,
                                   relu, rsqrt, sgn, sigmoid, sign, signbit, sin, sqrt, square, tan, tanh)
from ._ops.pointwise.rounding import ceil, fix, floor, frac, nan_to_num, positive, round, trunc
from ._ops.pointwise.trigonometry import arccos, arccosh, arcsin, arcsinh, arctan, arctanh
from ._ops.pointwise.trigonometry import (acos, acosh, asin, asinh, atan, atanh, cosh, deg2rad, logit, rad2deg, sinc,
                                          sinh)
from ._ops.pointwise.binary import (allclose, arctan2, atan2, bitwise_left_shift, bitwise_right_shift, copysign,
                                    equal, float_power, fmax, fmin, fmod, heaviside, hypot, isclose, logaddexp,
                                    logaddexp2, logical_and, logical_or, logical_xor, xlogy)
from ._ops.pointwise.ternary import addcdiv, addcmul, lerp
from ._ops.pointwise.special import digamma, erf, erfc, erfinv, i0, lgamma, mvlgamma, polygamma
from ._ops.reduce.reductions import (all, amax, amin, aminmax, any, argmax, argmin, count_nonzero, logsumexp, max,
                                     maximum, mean, min, minimum, nanmean, nansum, sum)
from ._ops.reduce.norms import norm
from ._ops.reduce.variance import std, std_mean, var, var_mean
from ._ops.reduce.scans import cummax, cummin, cumprod, cumsum, logcumsumexp, prod
from ._ops.reduce.sorting import (argsort, bincount, histc, kthvalue, median, mode, msort, nanmedian, sort, topk,
                                  unique, unique_consecutive)
from ._ops.reduce.quantiles import nanquantile, quantile
from ._ops.shape.views import (adjoint, atleast_1d, atleast_2d, atleast_3d, broadcast_shapes, broadcast_tensors,
                               broadcast_to, flatten, movedim, movedim as moveaxis, permute, ravel, reshape, squeeze, t,
                               transpose, unflatten, unsqueeze)
from ._ops.shape.strided import (as_strided, diag, diag_embed, diagflat, diagonal, flip, fliplr, flipud, roll, rot90,
                                 trace, tril, triu)
from ._ops.shape.joining import diff
from ._ops.shape.joining import (block_diag, cartesian_prod, cat, chunk, column_stack, combinations, concat,
                                 concatenate, dstack, hstack, meshgrid, narrow, repeat_interleave, row_stack, split,
                                 stack, tensor_split, tile, unbind, vstack)
from ._ops.index.indexing import select
from ._ops.index.index_put import index_put, index_put_
from ._ops.index.along_dim import index_add, index_copy, index_fill, index_select
from ._ops.index.gather_scatter import gather, scatter, scatter_add, scatter_reduce, take_along_dim
from ._ops.index.masked import masked_fill, masked_scatter, masked_select
from ._ops.index.take_put import put, take
from ._ops.index.searching import argwhere, bucketize, nonzero, searchsorted
from ._ops.linalg.products import (addbmm, addmm, addmv, addr, baddbmm, bmm, dot, ger, inner, kron, matmul, matrix_exp,
                                   mm, mv, outer, tensordot, vdot)
from ._ops.linalg.contractions import chain_matmul, einsum
from ._ops.linalg.geometry import cdist, cross
from ._ops.linalg.triangular import triangular_solve
from ._ops.linalg.factorizations import lu, lu_solve_legacy as lu_solve, lu_unpack, qr, svd
from ._ops.linalg.solvers import cholesky, cholesky_inverse, cholesky_solve, det, inverse, logdet, pinverse, slogdet
from ._ops.linalg.matrix_functions import matrix_power
from ._ops.nn.activations import (celu, celu_, hardshrink, prelu, relu_, rrelu, rrelu_, selu, selu_, threshold,
                                  threshold_)
from ._ops.nn.softmax import log_softmax, softmax
from ._ops.nn.layers import (alpha_dropout, alpha_dropout_, bilinear, dropout, dropout_, embedding, embedding_renorm_,
                             feature_alpha_dropout, feature_alpha_dropout_, feature_dropout, feature_dropout_)
from ._ops.nn.normalization import (batch_norm, cosine_similarity, group_norm, instance_norm, layer_norm,
                                    pairwise_distance)
from ._ops.nn.conv import conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, convolution
from ._ops.nn.pooling import (adaptive_avg_pool1d, adaptive_max_pool1d_with_indices as adaptive_max_pool1d, avg_pool1d,
                              max_pool1d, max_pool1d_with_indices, max_pool2d)
from ._ops.nn.resampling import constant_pad_nd, pixel_shuffle, pixel_unshuffle
from ._ops.nn.sequence_losses import ctc_loss_aten as ctc_loss
from ._autograd.grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled,
                                  no_grad, set_grad_enabled)
from ._autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled
from . import autograd, linalg, nn, random, return_types, special, utils  # submodules, as in torch
from .autograd import functional as _functional  # noqa: F401  (autograd.functional: needs the ops)
from . import func
from .func import vmap
from . import backends, cuda, optim, serialization  # submodules, as in torch
from .serialization import load, save
from . import viz  # a submodule
from .viz.explain import explain
from ._core.dtype import result_dtype as _result_dtype

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
    "abs", "absolute", "acos", "acosh", "adaptive_avg_pool1d", "adaptive_max_pool1d", "add",
    "addbmm", "addcdiv", "addcmul", "addmm", "addmv", "addr", "adjoint", "all", "allclose",
    "alpha_dropout", "alpha_dropout_", "amax", "amin", "aminmax", "angle", "any", "arange",
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "argmin",
    "argsort", "argwhere", "as_strided", "as_tensor", "asin", "asinh", "atan", "atan2", "atanh",
    "atleast_1d", "atleast_2d", "atleast_3d", "autograd", "avg_pool1d", "backends", "baddbmm",
    "batch_norm", "bernoulli", "bilinear", "bincount", "bitwise_and", "bitwise_left_shift",
    "bitwise_not", "bitwise_or", "bitwise_right_shift", "bitwise_xor", "block_diag", "bmm", "bool",
    "BoolTensor", "broadcast_shapes", "broadcast_tensors", "broadcast_to", "bucketize",
    "ByteTensor", "can_cast", "cartesian_prod", "cat", "cdist", "cdouble", "ceil", "celu", "celu_",
    "cfloat", "chain_matmul", "CharTensor", "cholesky", "cholesky_inverse", "cholesky_solve",
    "chunk", "clamp", "clamp_max", "clamp_min", "clip", "clone", "column_stack", "combinations",
    "complex128", "complex64", "concat", "concatenate", "conj", "constant_pad_nd", "conv1d",
    "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "convolution",
    "copysign", "cos", "cosh", "cosine_similarity", "count_nonzero", "cross", "ctc_loss", "cuda",
    "cummax", "cummin", "cumprod", "cumsum", "default_generator", "deg2rad", "det", "detach",
    "device", "diag", "diag_embed", "diagflat", "diagonal", "diff", "digamma", "div", "divide",
    "dot", "double", "DoubleTensor", "dropout", "dropout_", "dstack", "dtype", "einsum",
    "embedding", "embedding_renorm_", "empty", "empty_like", "enable_grad", "eq", "equal", "erf",
    "erfc", "erfinv", "exp", "exp2", "explain", "expm1", "eye", "feature_alpha_dropout",
    "feature_alpha_dropout_", "feature_dropout", "feature_dropout_", "finfo", "fix", "flatten",
    "flip", "fliplr", "flipud", "float", "float16", "float32", "float64", "float_power",
    "FloatTensor", "floor", "floor_divide", "fmax", "fmin", "fmod", "frac", "from_numpy", "full",
    "full_like", "func", "gather", "ge", "Generator", "ger", "get_default_dtype", "get_num_threads",
    "get_printoptions", "get_rng_state", "greater", "greater_equal", "group_norm", "gt", "half",
    "HalfTensor", "hardshrink", "heaviside", "histc", "hstack", "hypot", "i0", "iinfo", "index_add",
    "index_copy", "index_fill", "index_put", "index_put_", "index_select", "inference_mode",
    "initial_seed", "inner", "instance_norm", "int", "int16", "int32", "int64", "int8", "IntTensor",
    "inverse", "is_anomaly_check_nan_enabled", "is_anomaly_enabled", "is_complex", "is_conj",
    "is_floating_point", "is_grad_enabled", "is_inference_mode_enabled", "is_neg", "is_tensor",
    "isclose", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "kron", "kthvalue",
    "layer_norm", "le", "lerp", "less", "less_equal", "lgamma", "linalg", "linspace", "load", "log",
    "log10", "log1p", "log2", "log_softmax", "logaddexp", "logaddexp2", "logcumsumexp", "logdet",
    "logical_and", "logical_not", "logical_or", "logical_xor", "logit", "logspace", "logsumexp",
    "long", "LongTensor", "lt", "lu", "lu_solve", "lu_unpack", "manual_seed", "masked_fill",
    "masked_scatter", "masked_select", "matmul", "matrix_exp", "matrix_power", "max", "max_pool1d",
    "max_pool1d_with_indices", "max_pool2d", "maximum", "mean", "median", "meshgrid", "min",
    "minimum", "mm", "mode", "moveaxis", "movedim", "msort", "mul", "multinomial", "multiply", "mv",
    "mvlgamma", "nan_to_num", "nanmean", "nanmedian", "nanquantile", "nansum", "narrow", "ne",
    "neg", "negative", "nn", "no_grad", "nonzero", "norm", "normal", "not_equal", "numel", "ones",
    "ones_like", "optim", "outer", "pairwise_distance", "permute", "pinverse", "pixel_shuffle",
    "pixel_unshuffle", "poisson", "polygamma", "positive", "pow", "prelu", "prod", "promote_types",
    "put", "qr", "quantile", "rad2deg", "rand", "rand_like", "randint", "randint_like", "randn",
    "randn_like", "random", "randperm", "ravel", "reciprocal", "relu", "relu_", "remainder",
    "repeat_interleave", "reshape", "resolve_conj", "resolve_neg", "result_type", "return_types",
    "roll", "rot90", "round", "row_stack", "rrelu", "rrelu_", "rsqrt", "rsub", "save", "scatter",
    "scatter_add", "scatter_reduce", "searchsorted", "seed", "select", "selu", "selu_",
    "serialization", "set_anomaly_enabled", "set_default_dtype", "set_grad_enabled",
    "set_num_threads", "set_printoptions", "set_rng_state", "sgn", "short", "ShortTensor",
    "sigmoid", "sign", "signbit", "sin", "sinc", "sinh", "Size", "slogdet", "softmax", "sort",
    "special", "split", "sqrt", "square", "squeeze", "stack", "std", "std_mean", "sub", "subtract",
    "sum", "svd", "swapaxes", "swapdims", "t", "take", "take_along_dim", "tan", "tanh", "tensor",
    "Tensor", "tensor_split", "tensordot", "threshold", "threshold_", "tile", "topk", "trace",
    "transpose", "triangular_solve", "tril", "tril_indices", "triu", "triu_indices", "true_divide",
    "trunc", "uint8", "unbind", "unflatten", "unique", "unique_consecutive", "unsqueeze", "utils",
    "var", "var_mean", "vdot", "viz", "vmap", "vstack", "where", "xlogy", "zeros", "zeros_like",
]
