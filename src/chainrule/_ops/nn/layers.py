"""Layers of ``nn.functional``: linear maps, embeddings, dropout and attention.

``linear`` is PyTorch's: a 2-d input (or a contiguous one with a 1-d bias, flattened to
2-d) takes one ``addmm`` op, anything else a ``matmul`` plus the bias, so the graph shows
the same nodes.
Dropout multiplies by a random mask drawn from the global generator (``manual_seed``
makes it repeatable); the mask is a constant of the graph, so the gradient is masked the
same way. Attention is composed from matmul and a softmax that gives zeros, not NaN, to a
row masked out entirely; 4-d inputs that PyTorch hands to its fused CPU kernel get one op
(its node name, and one saved input set instead of the scores).
"""
import math

import numpy as np

from ..._core import arguments as _argparse, dtype as _dtype
from .. import random_kernels as kernels
from ..creation import _generator
from ..._core.tensor import _type_string, _wrap
from ..._core.modes import GRAD_MODE, VMAP
from .softmax import softmax_backward
from ..index.along_dim import index_select
from ..._core.dtype import type_word as _type_word
from ..linalg.products import addmm, matmul, mm
from ..random import draw_in_memory_order
from ..linalg.contractions import np_einsum
from ..batching import aligned, any_batched, batch_size, batched_by, dim_params, on_batch, top_level
from ..registry import FROM_VJP, LINEAR, apply, defop, unary
from ..shape.views import expand

# --- linear maps -------------------------------------------------------------------------------

def _addmm(bias, x, weight):
    """``addmm(bias, x, weight.t())``, with the checks (and messages) PyTorch makes first."""
    if weight._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix, got 1-D tensor")
    for name, other in (("self", bias), ("mat1", x)):
        if other._data.dtype != weight._data.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got {_type_word(other._data.dtype)} "
                               f"and {_type_word(weight._data.dtype)}")
    (n, k), (m, k2) = x._data.shape, weight._data.shape
    if k != k2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
    expand(bias.detach(), (n, m))  # PyTorch's message for a bias that doesn't broadcast
    return addmm(bias, x, weight.t())


def linear(input, weight, bias=None):
    """``input @ weight.T + bias``."""
    try:
        dims = input._data.ndim, weight._data.ndim
    except AttributeError:
        _argparse.check_tensor("linear", input)
        _argparse.check_tensor("linear", weight, "weight", 2)
        raise
    if 0 in dims:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {input._data.ndim}D "
                           f"and {weight._data.ndim}D")
    ndim = input._data.ndim
    if bias is not None and ndim == 2:
        return _addmm(bias, input, weight)
    if bias is not None and input._data.flags.c_contiguous and bias._data.ndim == 1:
        lead = input._data.shape[:-1]
        out = _addmm(bias, input.reshape(int(np.prod(lead)), input._data.shape[-1]), weight)
        return out.view(lead + out._data.shape[1:])
    out = matmul(input, weight.t())
    return out if bias is None else out + bias


def _trilinear(x1, w, x2):
    return np_einsum("ni,oij,nj->no", x1, w, x2, optimize=True)


def _trilinear_w(g, x1, w, x2):
    n, i, j = x1.shape[0], x1.shape[1], x2.shape[1]
    outer = (x1.unsqueeze(2) * x2.unsqueeze(1)).reshape(n, i * j)
    return mm(g.t(), outer).reshape(g.shape[1], i, j)


def _trilinear_batch(op, args, batched, params, dtype):
    """vmap's rule: a shared weight takes the batch as more rows n; a batched one is a
    matmul of stacks, (B, 1, n, i) @ (B, o, i, j), then the sum over j with x2."""
    x1, w, x2 = args
    if not batched[1]:
        size = batch_size(args, batched)
        x1, x2 = (x if b else x.expand((size,) + x._data.shape) for x, b in ((x1, batched[0]), (x2, batched[2])))
        n = x1._data.shape[1]
        out = apply(op, (x1.reshape(-1, x1._data.shape[-1]), w, x2.reshape(-1, x2._data.shape[-1])), params, dtype)
        return out.reshape((size, n, -1))
    (x1, w, x2), _ = aligned(args, batched, same_rank=False)
    return (matmul(x1.unsqueeze(1), w) * x2.unsqueeze(1)).sum(-1).transpose(1, 2)


# out[n, o] = sum_ij x1[n, i] w[o, i, j] x2[n, j]: linear in each input, so each rule is
# the op again with the inputs rearranged
TRILINEAR = defop(
    "trilinear", _trilinear, batch=_trilinear_batch, node="TrilinearBackward0", save=lambda ans, x1, w, x2: (x1, w, x2),
    vjp=(lambda g, x1, w, x2: trilinear(g, w.permute(1, 0, 2), x2), _trilinear_w,
         lambda g, x1, w, x2: trilinear(g, w.permute(2, 0, 1), x1)),
    jvp=(lambda t, x1, w, x2: trilinear(t, w, x2), lambda t, x1, w, x2: trilinear(x1, t, x2),
         lambda t, x1, w, x2: trilinear(x1, w, t)))


def trilinear(x1, w, x2):
    return apply(TRILINEAR, (x1, w, x2))


def bilinear(input1, input2, weight, bias=None):
    """``x1^T W_o x2 + b_o`` for each output feature o."""
    if input1._data.ndim == 0 or input2._data.ndim == 0:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    s1, s2, sw = input1._data.shape, input2._data.shape, weight._data.shape
    if len(s1) != len(s2):
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {len(s1)} and {len(s2)}")
    for i in range(len(s1) - 1):
        if s1[i] != s2[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {s1[i]} and "
                               f"{s2[i]}")
    if s1[-1] != sw[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {s1[-1]} but expected {sw[1]}")
    if s2[-1] != sw[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {s2[-1]} but expected {sw[2]}")
    if bias is not None and bias._data.shape[0] != sw[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias._data.shape[0]} but "
                           f"expected {sw[0]}")
    out = trilinear(input1.reshape(-1, s1[-1]), weight, input2.reshape(-1, s2[-1]))
    out = out.reshape(s1[:-1] + (sw[0],))
    return out if bias is None else out + bias


# --- embeddings --------------------------------------------------------------------------------

def _scatter_rows(g, indices, num_rows):
    out = np.zeros((num_rows,) + g.shape[indices.ndim:], dtype=g.dtype)
    np.add.at(out, indices.reshape(-1), g.reshape((indices.size,) + g.shape[indices.ndim:]))
    return out


def _per_sample_rows(indices, size, num_rows):
    """``indices`` of one sample's table as rows of the batch's tables stacked into one
    (B * num_rows rows): sample b's row i is row ``b * num_rows + i``."""
    return indices + (np.arange(size) * num_rows).reshape((size,) + (1,) * indices.ndim)


def _stacked_tables_batch(op, args, batched, params, dtype):
    """embedding and embedding_backward of a batch (the rows' values, or a batch of
    cotangents, under the indices one sample uses): one call on the B tables stacked."""
    t = args[0]
    indices, rest = params[0], params[1:]
    size = t._data.shape[0]
    if op is EMBEDDING:  # t: (B, V, D) tables
        num_rows = t._data.shape[1]
        return apply(op, (t.reshape((size * num_rows,) + t._data.shape[2:]),),
                     (_per_sample_rows(indices, size, num_rows),) + rest, dtype)
    num_rows = rest[0]  # t: (B, *indices.shape, D) cotangents
    out = apply(op, (t,), (_per_sample_rows(indices, size, num_rows), size * num_rows), dtype)
    return out.reshape((size, num_rows) + out._data.shape[1:])


# the gradient of picking rows is adding them back into place (repeated rows accumulate);
# the two are each other's transpose
EMBEDDING_BACKWARD = defop(
    "embedding_backward", _scatter_rows, node="EmbeddingDenseBackwardBackward0", batch=_stacked_tables_batch,
    save=lambda ans, g, indices, num_rows: (indices, num_rows),
    vjp=lambda gg, indices, num_rows: unary(EMBEDDING, gg, (indices, None)),
    jvp=LINEAR)


def _embedding_grad(g, num_rows, indices, factor):
    return unary(EMBEDDING_BACKWARD, g if factor is None else g * _wrap(factor), (indices, num_rows))


# ``factor``: None, or what each looked-up row's gradient is scaled by (see _row_factor).
# Then, as in PyTorch, the vjp is not the transpose of the forward's derivative (the jvp).
EMBEDDING = defop(
    "embedding", lambda w, indices, factor: w[indices], node="EmbeddingBackward0", batch=_stacked_tables_batch,
    save=lambda ans, w, indices, factor: (w._data.shape[0], indices, factor),
    vjp=_embedding_grad, jvp=lambda t, num_rows, indices, factor: unary(EMBEDDING, t, (indices, None)))


def _row_factor(indices, padding_idx, scale_grad_by_freq):
    """Per looked-up row, what its gradient is scaled by: 0 for the padding row, and
    1 / (how often the row was looked up) when scaling by frequency."""
    factor = np.ones(indices.shape, dtype=np.float64)
    if scale_grad_by_freq:
        _, inverse, counts = np.unique(indices, return_inverse=True, return_counts=True)
        factor = factor / counts[inverse.reshape(indices.shape)]
    if padding_idx >= 0:
        factor[indices == padding_idx] = 0.0
    return factor[..., None]


def _embedding_batch(weight, indices, padding_idx, scale_grad_by_freq):
    """``embedding`` of a vmap batch of indices (B, ...) in one lookup: sample b's rows are
    rows ``b * V ...`` of one table, which a batched weight (B, V, D) is once flattened;
    the gradient's frequencies are counted per sample, as each sample's own call would."""
    idx = indices._data
    size, rows = idx.shape[0], weight._data.shape[-2]
    if idx.size and (idx.min() < 0 or idx.max() >= rows):
        raise IndexError("index out of range in self")
    tagged = idx + (np.arange(size) * rows).reshape((size,) + (1,) * (idx.ndim - 1))
    factor = None
    if padding_idx >= 0 or scale_grad_by_freq:
        factor = _row_factor(tagged, -1, scale_grad_by_freq)
        factor[idx == padding_idx] = 0.0
        factor = factor.astype(weight._data.dtype)
    if weight._data.ndim == 3:
        return unary(EMBEDDING, weight.reshape(-1, weight._data.shape[-1]), (tagged, factor))
    return unary(EMBEDDING, weight, (idx.copy(), factor))


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """``torch.embedding``: the rows of ``weight`` at ``indices``; the padding row gets no gradient."""
    if weight._data.ndim != 2:
        if not weight._data.ndim and weight._requires_grad and GRAD_MODE.enabled:  # its node saves size(0) first
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(indices, "#1", "embedding")
    return _embedding(weight, indices, padding_idx, scale_grad_by_freq)


def _embedding_batched(weight, indices, padding_idx, scale_grad_by_freq):
    lookup = lambda w, i: _embedding_batch(w, i, padding_idx, scale_grad_by_freq)
    if any_batched(weight):
        return on_batch(lookup, weight, indices)
    return on_batch(lambda i: lookup(weight, i), indices)


@batched_by(_embedding_batched)
def _embedding(weight, indices, padding_idx, scale_grad_by_freq):
    idx = indices._data
    if idx.size and (idx.min() < 0 or idx.max() >= weight._data.shape[0]):
        if not weight._data.size:  # PyTorch's index_select of an empty table refuses in its own words
            index_select(weight, 0, indices.reshape(-1))
        raise IndexError("index out of range in self")
    factor = None
    if padding_idx >= 0 or scale_grad_by_freq:
        factor = _row_factor(idx, padding_idx, scale_grad_by_freq).astype(weight._data.dtype)
    return unary(EMBEDDING, weight, (idx.copy(), factor))


def _check_indices(indices, position, fn):
    if indices._data.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"Expected tensor for argument {position} 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got {_type_string(indices._data.dtype)} instead (while checking "
                           f"arguments for {fn})")


def embedding_renorm_(weight, indices, max_norm, norm_type):
    """Scales, in place and outside autograd, each looked-up row whose ``norm_type``-norm
    exceeds ``max_norm`` down to ``max_norm`` (PyTorch's 1e-7 guard included)."""
    ndim = weight._data.ndim
    if ndim != 2 and not VMAP.active:  # (a batched table holds the batch dim too)
        raise RuntimeError(f"Expected 2-dimensional tensor, but got {ndim}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for embedding_renorm_)")
    _check_indices(indices, "#2", "embedding_renorm_")
    # PyTorch selects each distinct index in ascending order, then takes its row's norm: the
    # rows before the first index out of range are renormalised before select() refuses it,
    # and a table that norm() refuses is refused at the first row selected
    ordered = refused = None
    if ndim == 2 and not any_batched(weight, indices) and indices._data.size:
        ordered, rows = np.unique(indices._data), weight._data.shape[0]
        bad = ordered[(ordered < -rows) | (ordered >= rows)]
        if bad.size:
            refused = IndexError(f"select(): index {bad[0]} out of range for tensor of size "
                                 f"{list(weight._data.shape)} at dimension 0")
    if weight._data.dtype.kind not in "fc" and indices._data.size:  # (no index selects no row: nothing refuses)
        if refused is not None and bad[0] == ordered[0]:  # the first row selected is out of range
            raise refused
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {_type_word(weight._data.dtype)} instead.")
    if refused is not None:
        _renorm_tables(weight, _wrap(ordered[ordered < bad[0]]), max_norm, norm_type)
        raise refused
    _renorm_tables(weight, indices, max_norm, norm_type)
    return weight  # itself, not the batch's stand-in _renorm_tables gives under vmap


def _renorm_tables_batched(weight, indices, max_norm, norm_type):
    level = top_level(weight, indices)
    if getattr(weight, "_level", 0) != level:  # one table can't hold the batch's renormalisations
        raise RuntimeError(
            f"vmap: aten::embedding_renorm_(self, *extra_args) is not possible because there exists a Tensor "
            f"`other` in extra_args that has more elements than `self`. This happened due to `other` being "
            f"vmapped over but `self` not being vmapped over at level {level}. Please try to use out-of-place "
            f"operators instead of aten::embedding_renorm_. If said operator is being called inside the "
            f"PyTorch framework, please file a bug report instead.")
    return on_batch(lambda w, i: _renorm_tables(w, i, max_norm, norm_type), weight, indices)


@batched_by(_renorm_tables_batched)
def _renorm_tables(weight, indices, max_norm, norm_type):
    """``embedding_renorm_`` of a stack of tables (*lead, V, D), each at its own indices
    (*lead, ...): under vmap the batch's tables are renormalised in one pass, as PyTorch's
    per-sample loop would (written through the caller's tensor, whatever its batch dim).

    >>> # vmap over (weight (B, V, D), indices (B, n)): table b renormalised at indices[b]
    """
    data = weight._data
    lead, rows = data.shape[:-2], data.shape[-2]
    tables = int(np.prod(lead))
    # one row number per (table, row) across the stack, so repeats within a table count once
    tagged = indices._data.reshape(tables, -1) + (np.arange(tables) * rows)[:, None]
    table, row = np.divmod(np.unique(tagged), rows)
    where = np.unravel_index(table, lead) + (row,) if lead else (row,)
    norms = np.linalg.norm(data[where].astype(np.float64), ord=norm_type, axis=-1)
    over = norms > max_norm
    data[tuple(w[over] for w in where)] *= (max_norm / (norms[over] + 1e-7))[:, None].astype(data.dtype)
    weight._counter[0] += 1
    return weight


def one_hot(tensor, num_classes=-1):
    """``tensor``'s class indices as one-hot int64 vectors along a new last dim."""
    data = tensor._data
    if data.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    return _one_hot(tensor, num_classes)


def _one_hot_batched(tensor, num_classes):
    """PyTorch's vmap checks no values: a class out of range is all 0."""
    if num_classes == -1:
        raise RuntimeError("When vmap-ing torch.nn.functional.one_hot, please provide an explicit positive "
                           "num_classes argument.")
    return (tensor.unsqueeze(-1) == _wrap(np.arange(num_classes))).long()


@batched_by(_one_hot_batched)
def _one_hot(tensor, num_classes):
    data = tensor._data
    if data.size == 0:
        if num_classes == -1:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    elif data.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    elif num_classes == -1:
        num_classes = int(data.max()) + 1
    elif data.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    shape = data.shape + (num_classes,)
    try:  # zeros, then one 1 a row: memory is touched only where the ones go
        out = np.zeros(shape, np.int64)
    except MemoryError:
        raise RuntimeError(f"[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate "
                           f"memory: you tried to allocate {8 * math.prod(shape)} bytes. Error code 12 (Cannot "
                           "allocate memory)") from None
    np.put_along_axis(out, data[..., None], 1, -1)
    return _wrap(out)


# --- dropout -----------------------------------------------------------------------------------

_SELU_ALPHA_PRIME = 1.7580993408473766  # -selu's negative saturation value, as PyTorch's alpha dropout


def _dropout(x, p, train, feature, alpha, inplace):
    """PyTorch's _dropout_impl: the input unchanged when there is nothing to drop."""
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p:g}")
    if p == 0 or not train or x._data.size == 0:
        return x
    if p == 1:
        zero = _wrap(np.zeros((), dtype=x._data.dtype))
        return x.mul_(zero) if inplace else x * zero
    shape = x._data.shape
    if feature:
        if len(shape) < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = shape[:2] + (1,) * (len(shape) - 2)
    # PyTorch's noise: bernoulli_(1 - p) in the input's dtype, then each step rounded in it
    dtype, gen = x._data.dtype.type, _generator(None)
    # the noise is a new (N, C, 1, ...) tensor, or made empty_like the input (its strides too)
    if feature:
        keep = kernels.bernoulli_scalar(gen, math.prod(shape), 1 - p).reshape(shape)
    else:
        keep = draw_in_memory_order(x._data, lambda n: kernels.bernoulli_scalar(gen, n, 1 - p))
    keep = keep.astype(dtype)
    if alpha:
        a = 1 / math.sqrt((_SELU_ALPHA_PRIME ** 2 * p + 1) * (1 - p))
        shift = _wrap((keep - dtype(1)) * dtype(_SELU_ALPHA_PRIME * a) + dtype(_SELU_ALPHA_PRIME * a * p))
        noise = _wrap(keep * dtype(a))
        return x.mul_(noise).add_(shift) if inplace else x * noise + shift
    noise = _wrap(keep / dtype(1 - p))
    return x.mul_(noise) if inplace else x * noise


def dropout(input, p, train):
    return _dropout(input, p, train, False, False, False)


def dropout_(input, p, train):
    return _dropout(input, p, train, False, False, True)


def feature_dropout(input, p, train):
    return _dropout(input, p, train, True, False, False)


def feature_dropout_(input, p, train):
    return _dropout(input, p, train, True, False, True)


def alpha_dropout(input, p, train):
    return _dropout(input, p, train, False, True, False)


def alpha_dropout_(input, p, train):
    return _dropout(input, p, train, False, True, True)


def feature_alpha_dropout(input, p, train):
    return _dropout(input, p, train, True, True, False)


def feature_alpha_dropout_(input, p, train):
    return _dropout(input, p, train, True, True, True)


# --- attention ---------------------------------------------------------------------------------

def _safe_softmax(x, dim):
    """Softmax whose rows of only -inf give 0 (not NaN): attention to nothing is nothing."""
    top = x.max(axis=dim, keepdims=True) if x.size else x
    e = np.exp(x - np.where(np.isfinite(top), top, 0))
    total = e.sum(axis=dim, keepdims=True)
    return e / np.where(total == 0, 1, total)


SAFE_SOFTMAX = defop("safe_softmax", _safe_softmax, batch=dim_params(0), node="SafeSoftmaxBackward0", save=lambda ans, x, dim: (ans, dim),
                     vjp=lambda g, ans, dim: softmax_backward(g, ans, dim),
                     jvp=FROM_VJP, elementwise=True)


def _scores(q, k, bias, scale):
    return matmul(q, k.transpose(-2, -1)) * scale + bias


def _probs(q, k, bias, scale):
    return unary(SAFE_SOFTMAX, _scores(q, k, bias, scale), (q.ndim - 1,))


def _attention(q, k, v, bias, scale):
    s = np.matmul(q, np.swapaxes(k, -2, -1)) * scale + bias
    return np.matmul(_safe_softmax(s, -1), v).astype(q.dtype, copy=False)


def _attention_ds(g, q, k, v, bias, scale):
    """The gradient reaching the scores."""
    probs = _probs(q, k, bias, scale)
    return softmax_backward(matmul(g, v.transpose(-2, -1)), probs, q.ndim - 1)


def _attention_tangent(ds, q, k, v, bias, scale):
    """The output tangent for a tangent ``ds`` of the scores."""
    probs = _probs(q, k, bias, scale)
    return matmul(softmax_backward(ds, probs, q.ndim - 1), v)


# PyTorch's fused CPU kernel, one op: its rules recompute the probabilities from the inputs
SDPA_FLASH = defop(
    "sdpa_flash", _attention, node="ScaledDotProductFlashAttentionForCpuBackward0",
    save=lambda ans, q, k, v, bias, scale: (q, k, v, bias, scale),
    vjp=(lambda g, q, k, v, bias, scale: matmul(_attention_ds(g, q, k, v, bias, scale), k) * scale,
         lambda g, q, k, v, bias, scale: matmul(_attention_ds(g, q, k, v, bias, scale).transpose(-2, -1), q) * scale,
         lambda g, q, k, v, bias, scale: matmul(_probs(q, k, bias, scale).transpose(-2, -1), g),
         _attention_ds),
    jvp=(lambda t, q, k, v, bias, scale: _attention_tangent(matmul(t, k.transpose(-2, -1)) * scale, q, k, v, bias,
                                                            scale),
         lambda t, q, k, v, bias, scale: _attention_tangent(matmul(q, t.transpose(-2, -1)) * scale, q, k, v, bias,
                                                            scale),
         lambda t, q, k, v, bias, scale: matmul(_probs(q, k, bias, scale), t),
         lambda t, q, k, v, bias, scale: _attention_tangent(t, q, k, v, bias, scale)))


def _dtype_name(t):
    return _dtype._C_TYPE_NAMES.get(t._data.dtype.name, t._data.dtype.name)


def _sdpa_checks(q, k, v, mask, is_causal):
    dq, dk, dv = q._data.dtype, k._data.dtype, v._data.dtype
    if not dq == dk == dv:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_dtype_name(q)} key.dtype: {_dtype_name(k)} and value.dtype: {_dtype_name(v)} instead.")
    if min(q._data.ndim, k._data.ndim, v._data.ndim) < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{q._data.ndim} key.dim: {k._data.ndim} and value.dim: {v._data.ndim} instead.")
    if mask is not None and mask._data.dtype not in (np.bool_, np.float32, dq):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {_dtype_name(mask)} and  query.dtype: {_dtype_name(q)} instead.")
    if mask is not None and is_causal:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")


def _flash_eligible(q, k, v, mask, dropout_p):
    """Whether PyTorch's CPU dispatcher picks its fused kernel (sdp_utils_cpp.cpp)."""
    tensors = (q._data, k._data, v._data)
    if dropout_p > 0 or any(t.ndim != 4 for t in tensors) or q._data.dtype.kind != "f":
        return False
    if not (q.shape[:2] == k.shape[:2] == v.shape[:2] and q.shape[-1] == k.shape[-1] == v.shape[-1]):
        return False
    if q.shape[-2] == 0 or k.shape[-2] == 0 or any(t.strides[-1] != t.itemsize for t in tensors):
        return False
    if mask is None:
        return True
    m = mask.shape
    if mask.requires_grad or m[-2] not in (q.shape[-2], 1) or m[-1] not in (k.shape[-2], 1):
        return False
    return len(m) == 2 or len(m) == 4 and m[0] in (1, q.shape[0]) and m[1] in (1, q.shape[1])


def _bias(mask, q, k, is_causal):
    """The mask as a float tensor added to the scores: -inf where a bool mask is False."""
    if is_causal:
        mask = _wrap(np.tril(np.ones((q.shape[-2], k.shape[-2]), dtype=bool)))
    if mask is None or mask._data.dtype != np.bool_:
        return mask
    return _wrap(np.where(mask._data, 0.0, -np.inf).astype(q._data.dtype))


def _repeat_heads(t, groups):
    """Each head ``groups`` times in a row along dim -3 (repeat_interleave)."""
    if groups == 1:
        return t
    shape = t.shape
    spread = t.unsqueeze(-3).expand(shape[:-2] + (groups,) + shape[-2:])
    return spread.reshape(shape[:-3] + (shape[-3] * groups,) + shape[-2:])


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None,
                                 enable_gqa=False):
    """``softmax(query @ key^T * scale + mask) @ value``, scale 1/sqrt(E) by default; a bool
    mask keeps the scores where it is True."""
    _sdpa_checks(query, key, value, attn_mask, is_causal)
    if scale is None:
        scale = 1 / math.sqrt(query.shape[-1])
    if _flash_eligible(query, key, value, attn_mask, dropout_p):
        bias = _bias(attn_mask, query, key, is_causal)
        if bias is None:
            bias = _wrap(np.zeros((), dtype=query._data.dtype))
        return apply(SDPA_FLASH, (query, key, value, bias), (scale,))
    if enable_gqa and query._data.ndim >= 3:
        key = _repeat_heads(key, query.shape[-3] // key.shape[-3])
        value = _repeat_heads(value, query.shape[-3] // value.shape[-3])
    root = math.sqrt(abs(scale))
    attn = matmul(query * (-root if scale < 0 else root), key.transpose(-2, -1) * root)
    bias = _bias(attn_mask, query, key, is_causal)
    if bias is not None:
        attn = attn + bias
    attn = unary(SAFE_SOFTMAX, attn, (attn._data.ndim - 1,))
    if dropout_p > 0:
        attn = dropout(attn, dropout_p, True)
    return matmul(attn, value)

