"""``chainrule.nn.functional``: activations, normalization, layers and losses.

As in PyTorch, this is the Python layer over the ops: it takes the ``inplace`` flags, checks
arguments the way ``torch/nn/functional.py`` does (``ValueError`` for a dropout probability
out of range) and then calls the op. Where PyTorch composes a function here (``softsign``,
``normalize``, ``local_response_norm``), so does chainrule, from the same steps, so the graph
shows the same nodes.
"""
import math
import warnings

import numpy as np

from .._core import dtype as _dtype
from .._core.tensor import Tensor, _wrap
from .._ops.pointwise.unary import relu as _relu, sigmoid, tanh
from .._ops.nn.activations import (celu_, elu_, gelu, glu, hardshrink, hardtanh_, leaky_relu_,
                                   log_sigmoid as logsigmoid, prelu, rrelu_, selu_, softplus, softshrink, threshold_)
from .._ops.nn import activations as _act
from .._ops.nn.layers import (bilinear, embedding_renorm_ as _embedding_renorm_, linear, one_hot,
                              scaled_dot_product_attention)
from .._ops.nn import layers as _layers
from .._ops.nn.normalization import cosine_similarity, pairwise_distance
from .._ops.nn import normalization as _norm
from .._ops.nn.losses import (cosine_embedding_loss, gaussian_nll_loss, hinge_embedding_loss, huber_loss, kl_div,
                              l1_loss, margin_ranking_loss, mse_loss, multi_margin_loss, multilabel_soft_margin_loss,
                              poisson_nll_loss, smooth_l1_loss, soft_margin_loss, triplet_margin_loss)
from .._ops.nn.classification_losses import (binary_cross_entropy, binary_cross_entropy_with_logits, cross_entropy,
                                             nll_loss)
from .._ops.nn.sequence_losses import ctc_loss
from .._ops.nn.conv import conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, fold, unfold
from .._ops.nn.pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d,
                               adaptive_max_pool1d_with_indices, adaptive_max_pool2d, adaptive_max_pool2d_with_indices,
                               avg_pool1d, avg_pool2d, lp_pool1d, lp_pool2d, max_pool1d, max_pool1d_with_indices,
                               max_pool2d, max_pool2d_with_indices)
from .._ops.nn.interpolation import interpolate, upsample, upsample_bilinear, upsample_nearest
from .._ops.nn.resampling import pad, pixel_shuffle, pixel_unshuffle
from .._ops.creation import finfo, zeros, zeros_like
from .._ops.pointwise.binary import minimum
from .._ops.shape.joining import cat
from .._ops.linalg.products import baddbmm, bmm
from .._ops.nn.losses import _reduce, _reduction

__all__ = ["relu", "sigmoid", "tanh"]
__all__ += ["alpha_dropout", "batch_norm", "bilinear", "celu", "celu_", "cosine_similarity", "dropout",
            "dropout1d", "dropout2d", "dropout3d", "elu", "elu_", "embedding", "feature_alpha_dropout", "gelu",
            "glu", "group_norm", "hardshrink", "hardsigmoid", "hardswish", "hardtanh", "hardtanh_",
            "instance_norm", "layer_norm", "leaky_relu", "leaky_relu_", "linear", "local_response_norm",
            "log_softmax", "logsigmoid", "mish", "normalize", "one_hot", "pairwise_distance", "prelu", "relu6",
            "relu_", "rrelu", "rrelu_", "scaled_dot_product_attention", "selu", "selu_", "silu", "softmax",
            "softmin", "softplus", "softshrink", "softsign", "tanhshrink", "threshold", "threshold_"]
__all__ += ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cosine_embedding_loss",
            "cross_entropy", "gaussian_nll_loss", "hinge_embedding_loss", "huber_loss", "kl_div", "l1_loss",
            "margin_ranking_loss", "mse_loss", "multi_margin_loss", "multilabel_soft_margin_loss", "nll_loss",
            "poisson_nll_loss", "smooth_l1_loss", "soft_margin_loss", "triplet_margin_loss", "ctc_loss"]  # the losses
__all__ += ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool1d_with_indices",
            "adaptive_max_pool2d", "adaptive_max_pool2d_with_indices", "avg_pool1d", "avg_pool2d", "conv1d", "conv2d",
            "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "fold", "interpolate", "lp_pool1d",
            "lp_pool2d", "max_pool1d", "max_pool1d_with_indices", "max_pool2d", "max_pool2d_with_indices", "pad",
            "pixel_shuffle", "pixel_unshuffle", "unfold", "upsample", "upsample_bilinear", "upsample_nearest"]
__all__ += ["embedding_bag", "multilabel_margin_loss", "rms_norm", "triplet_margin_with_distance_loss"]  # for nn layers
__all__ += ["multi_head_attention_forward"]  # for nn.MultiheadAttention


# --- activations ----------------------------------------------------------------------------------

def relu(input, inplace=False):
    return input.relu_() if inplace else _relu(input)


def relu_(input):
    return input.relu_()


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return hardtanh_(input, min_val, max_val) if inplace else _act.hardtanh(input, min_val, max_val)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return leaky_relu_(input, negative_slope) if inplace else _act.leaky_relu(input, negative_slope)


def elu(input, alpha=1.0, inplace=False):
    return elu_(input, alpha) if inplace else _act.elu(input, alpha)


def selu(input, inplace=False):
    return selu_(input) if inplace else _act.selu(input)


def celu(input, alpha=1.0, inplace=False):
    return celu_(input, alpha) if inplace else _act.celu(input, alpha)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    return rrelu_(input, lower, upper, training) if inplace else _act.rrelu(input, lower, upper, training)


def threshold(input, threshold, value, inplace=False):
    return threshold_(input, threshold, value) if inplace else _act.threshold(input, threshold, value)


def silu(input, inplace=False):
    return _act.silu_(input) if inplace else _act.silu(input)


def mish(input, inplace=False):
    return _act.mish_(input) if inplace else _act.mish(input)


def hardsigmoid(input, inplace=False):
    return _act.hardsigmoid_(input) if inplace else _act.hardsigmoid(input)


def hardswish(input, inplace=False):
    return _act.hardswish_(input) if inplace else _act.hardswish(input)


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def _get_softmax_dim(name, ndim, stacklevel):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                  "as an argument.", stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim(), _stacklevel)
    return (-input).softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype)


# --- dropout ----------------------------------------------------------------------------------------

def _check_probability(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeros each element with probability ``p`` and scales the rest by 1 / (1 - p)."""
    _check_probability(p)
    return _layers.dropout_(input, p, training) if inplace else _layers.dropout(input, p, training)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_probability(p)
    return _layers.alpha_dropout_(input, p, training) if inplace else _layers.alpha_dropout(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_probability(p)
    if inplace:
        return _layers.feature_alpha_dropout_(input, p, training)
    return _layers.feature_alpha_dropout(input, p, training)


def _feature_dropout(input, p, training, inplace, batched):
    """Drops whole channels; an unbatched input is one sample of a batch."""
    if batched:
        return _layers.feature_dropout_(input, p, training) if inplace else _layers.feature_dropout(input, p, training)
    if inplace:
        _layers.feature_dropout_(input.unsqueeze(0), p, training)
        return input
    return _layers.feature_dropout(input.unsqueeze(0), p, training).squeeze(0)


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_probability(p)
    ndim = input.dim()
    if ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that dropout1d "
                           "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           "dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout(input, p, training, inplace, ndim == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_probability(p)
    ndim = input.dim()
    if ndim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {ndim}-D input to dropout2d, which is deprecated and will result in "
                      "an error in a future release. To retain the behavior and silence this warning, please use "
                      "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 "
                      "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
                      "inputs).", stacklevel=2)
    if ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a "
                      "batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, "
                      "please switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace, True)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_probability(p)
    ndim = input.dim()
    if ndim not in (4, 5):
        warnings.warn(f"dropout3d: Received a {ndim}-D input to dropout3d, which is deprecated and will result in "
                      "an error in a future release. To retain the behavior and silence this warning, please use "
                      "dropout instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 "
                      "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D "
                      "inputs).", stacklevel=2)
    return _feature_dropout(input, p, training, inplace, ndim == 5)


# --- embeddings ---------------------------------------------------------------------------------------

def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """The rows of ``weight`` at the indices ``input``. The padding row gets no gradient;
    with ``max_norm``, the rows looked up are first renormalized in place."""
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx > 0 and padding_idx >= weight.size(0) or padding_idx < 0 and padding_idx < -weight.size(0):
        raise AssertionError("Padding_idx must be within num_embeddings")
    elif padding_idx < 0:
        padding_idx = weight.size(0) + padding_idx
    if max_norm is not None:
        input = input.contiguous()
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return _layers.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


# --- normalization ----------------------------------------------------------------------------------

def _verify_batch_size(size):
    count = size[0]
    for s in size[2:]:
        count *= s
    if count == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def _verify_spatial_size(size):
    count = 1
    for s in size[2:]:
        count *= s
    if count == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """Normalizes each channel (dim 1) over the batch; in training, updates the running
    statistics in place: ``running = (1 - momentum) * running + momentum * batch``."""
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if (running_mean is None) != (running_var is None):
        raise ValueError("running_mean and running_var must either both be None or neither be None")
    return _norm.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    if use_input_stats:
        _verify_spatial_size(input.size())
    return _norm.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return _norm.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    size = input.size()
    _verify_batch_size([size[0] * size[1] // num_groups, num_groups] + list(size[2:]))
    return _norm.group_norm(input, num_groups, weight, bias, eps)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """``input / (k + alpha * mean of input^2 over a window of ``size`` channels)^beta``,
    the window zero-padded at the ends. As PyTorch: pad, then average-pool over channels
    (a window never reads beyond itself: a nan stays in its own windows)."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} "
                         "dimensions)")
    if input.numel() == 0:
        return input
    sizes = input.shape
    if dim > 3 and input._data.dtype not in (np.float32, np.float64, np.int64):  # PyTorch pools 4-d and higher
        raise _dtype.not_implemented("avg_pool3d_out_frame", input._data.dtype)  # inputs with avg_pool3d, its dtypes
    div = input.mul(input).reshape(sizes[0], 1, sizes[1], -1)  # PyTorch's 3-d path; higher dims pooled alike
    div = pad(div, (0, 0, size // 2, (size - 1) // 2))
    div = avg_pool2d(div, (size, 1), stride=1).squeeze(1).reshape(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``input / max(norm_p(input, dim), eps)``."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return out.copy_(input / denom)


# --- composed for the nn layers (EmbeddingBag, RMSNorm, two losses) --------------------------------

def rms_norm(input, normalized_shape, weight=None, eps=None):
    """``input / sqrt(mean(input²) + eps) * weight`` over the last ``len(normalized_shape)`` dims;
    ``eps=None`` is the dtype's machine epsilon, as in PyTorch."""
    normalized_shape = list(normalized_shape)
    n = len(normalized_shape)
    if list(input.shape[input.dim() - n:]) != normalized_shape:
        raise RuntimeError(f"Given normalized_shape={normalized_shape}, expected input with shape "
                           f"[*{str(normalized_shape)[1:]}, but got input of size{list(input.shape)}")
    if weight is not None and list(weight.shape) != normalized_shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{list(weight.shape)} and normalized_shape = {normalized_shape}")
    if eps is None:
        eps = finfo(input.dtype).eps
    dims = tuple(range(input.dim() - n, input.dim()))
    out = input * (input.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    return out if weight is None else out * weight


def _bags(offsets, n, include_last_offset):
    """The bag of each of the ``n`` looked-up rows, and the number of bags."""
    starts = np.asarray(offsets._data, dtype=np.int64)
    if include_last_offset:
        starts = starts[:-1]
    return np.searchsorted(starts, np.arange(n), side="right") - 1, len(starts)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Sums, means or maxima of bags of embedding rows, without building the (bags, rows) tensor:
    a 2-d ``input`` is one bag per row; a 1-d ``input`` is cut into bags at ``offsets``.
    Empty bags, and rows at ``padding_idx``, contribute nothing."""
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        offsets = _wrap(np.arange(0, input.numel(), max(input.size(1), 1), dtype=np.int64))
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    elif mode not in ("sum", "mean"):
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        _embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    ids = np.asarray(input._data, dtype=np.int64)
    bag, n_bags = _bags(offsets, ids.size, include_last_offset)
    keep = np.ones(ids.size, bool) if padding_idx is None else ids != (padding_idx % weight.size(0))
    rows = embedding(input, weight, scale_grad_by_freq=scale_grad_by_freq)
    dims = (n_bags, weight.size(1))
    if mode == "max":
        counts = np.bincount(bag[keep], minlength=n_bags)
        width = max(int(counts.max()) if n_bags else 0, 1)
        slot = np.zeros((n_bags, width), np.int64)  # row index of each bag member, padded
        filled = np.zeros((n_bags, width), bool)
        members = np.flatnonzero(keep)
        position = np.arange(members.size) - np.searchsorted(bag[members], bag[members])
        slot[bag[members], position] = members
        filled[bag[members], position] = True
        gathered = rows[_wrap(slot)].masked_fill(_wrap(~filled[..., None]), float("-inf"))
        best = gathered.max(1).values
        return best.masked_fill(_wrap((counts == 0)[:, None]), 0.0)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights.unsqueeze(1)
    if not keep.all():
        rows = rows * _wrap(keep[:, None].astype(rows.dtype.np))
    total = zeros(dims, dtype=weight.dtype).index_add(0, _wrap(bag), rows)
    if mode == "sum":
        return total
    counts = np.maximum(np.bincount(bag[keep], minlength=n_bags), 1)
    return total / _wrap(counts[:, None].astype(total.dtype.np))


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """For each sample, ``sum over targets j and non-targets i of max(0, 1 - (x_j - x_i)) / C``;
    a row of ``target`` lists the target classes up to its first -1."""
    reduction = _reduction(reduction, size_average, reduce)
    batched = input.dim() == 2
    x = input if batched else input.reshape(1, -1)
    t = np.asarray(target._data, dtype=np.int64).reshape(x.shape)
    n, c = x.shape
    listed = np.cumprod(t >= 0, axis=1).astype(bool)  # entries before each row's first -1
    counts = np.zeros((n, c))
    np.add.at(counts, (np.broadcast_to(np.arange(n)[:, None], t.shape)[listed], t[listed]), 1)
    pairs = counts[:, :, None] * (counts == 0)[:, None, :]  # (sample, target j, other class i)
    margins = (1 - x.unsqueeze(2) + x.unsqueeze(1)).clamp_min(0)
    loss = (margins * _wrap(pairs.astype(x.dtype.np))).sum((1, 2)) / c
    if not batched:
        loss = loss.reshape(())
    return _reduce(loss, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction="mean"):
    """``max(0, margin + d(a, p) - d(a, n))`` for any distance ``d`` (pairwise L2 by default)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    if distance_function is None:
        distance_function = pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = minimum(dist_neg, distance_function(positive, negative))
    loss = (margin + dist_pos - dist_neg).clamp_min(0)
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return loss.mean()
    return loss


# --- multi-head attention (nn.MultiheadAttention's computation) ------------------------------------

def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask as the additive float mask of ``target_type`` (-inf where True); a float
    mask as it is. Masks of two different dtypes are deprecated (a warning)."""
    if mask is None:
        return None
    if mask.dtype != _dtype.bool_ and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=2)
    if not mask.is_floating_point():
        mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input):
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the call is batched (3-d query), checking the other shapes as PyTorch does."""
    dims = query.dim()
    if dims not in (2, 3):
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {dims}-D query tensor")
    kind = "batched (3-D)" if dims == 3 else "unbatched (2-D)"
    if key.dim() != dims or value.dim() != dims:
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be {dims}-D but found {key.dim()}-D "
                             f"and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != dims - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or {dims - 1}-D but found "
                             f"{key_padding_mask.dim()}-D tensor instead")
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                                 f"{attn_mask.dim()}-D tensor instead")
        if dims == 2 and attn_mask.dim() == 3:
            expected_shape = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.shape != expected_shape:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected_shape} but got {attn_mask.shape}")
    return dims == 3


def _in_projection_packed(q, k, v, w, b=None):
    """q, k, v through the stacked (3E, E) weight: one matmul when they are one tensor (self-attention)."""
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b).unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k, v through their own weights (key and value of other widths than the query)."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for name, t, shape in (("query weights", w_q, (Eq, Eq)), ("key weights", w_k, (Eq, Ek)),
                           ("value weights", w_v, (Eq, Ev)), ("query bias", b_q, (Eq,)), ("key bias", b_k, (Eq,)),
                           ("value bias", b_v, (Eq,))):
        if t is not None and t.shape != shape:
            raise AssertionError(f"expecting {name} shape of {shape}, but got {t.shape}")
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _static(t, name, bsz, num_heads, head_dim):
    if t.size(0) != bsz * num_heads:
        raise AssertionError(f"expecting {name}.size(0) of {bsz * num_heads}, but got {t.size(0)}")
    if t.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {t.size(2)}")
    return t


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Attention of (L, N, E) queries over (S, N, E) keys and values with ``num_heads`` heads;
    unbatched (L, E) inputs too. Returns ``(output, weights)``: the weights (N, L, S), averaged
    over heads unless ``average_attn_weights=False``, when ``need_weights``; otherwise None,
    and the scores go through ``scaled_dot_product_attention`` as in PyTorch.

    Masks: ``key_padding_mask`` (N, S) hides keys; ``attn_mask`` (L, S) or (N*heads, L, S);
    bool masks hide where True, float masks are added to the scores. ``bias_k``/``bias_v``
    append one learnt key/value, ``add_zero_attn`` one zero key/value.
    """
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # scaled_dot_product_attention builds the causal mask itself
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
        for name, w in (("q_proj_weight", q_proj_weight), ("k_proj_weight", k_proj_weight),
                        ("v_proj_weight", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name} is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)
    else:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if attn_mask.shape != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.shape != (bsz * num_heads, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                               f"{(bsz * num_heads, tgt_len, src_len)}.")
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")
    # heads: (L, N, E) -> (N * heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        k = _static(static_k, "static_k", bsz, num_heads, head_dim)
    if static_v is None:
        v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        v = _static(static_v, "static_v", bsz, num_heads, head_dim)
    if add_zero_attn:
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = cat([k, zeros(zero_attn_shape, dtype=k.dtype)], dim=1)
        v = cat([v, zeros(zero_attn_shape, dtype=v.dtype)], dim=1)
        attn_mask = None if attn_mask is None else pad(attn_mask, (0, 1))
        key_padding_mask = None if key_padding_mask is None else pad(key_padding_mask, (0, 1))
    src_len = k.size(1)
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                                 f"{key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0
    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.shape[-1]))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            weights = baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        attn_output = bmm(weights, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            return attn_output.squeeze(1), weights.squeeze(0)
        return attn_output, weights
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    return (attn_output if is_batched else attn_output.squeeze(1)), None
