"""``chainrule.nn.functional``: activations, normalization, layers and losses.

As in PyTorch, this is the Python layer over the ops: it takes the ``inplace`` flags, checks
arguments the way ``torch/nn/functional.py`` does (``ValueError`` for a dropout probability
out of range) and then calls the op. Where PyTorch composes a function here (``softsign``,
``normalize``, ``local_response_norm``), so does chainrule, from the same steps, so the graph
shows the same nodes.
"""
import warnings

import numpy as np

from .._tensor import _wrap
from .._ops.unary import relu as _relu, sigmoid, tanh
from .._ops.activations import (celu_, elu_, gelu, glu, hardshrink, hardtanh_, leaky_relu_, log_sigmoid as logsigmoid,
                                prelu, rrelu_, selu_, softplus, softshrink, threshold_)
from .._ops import activations as _act
from .._ops.layers import (bilinear, embedding_renorm_ as _embedding_renorm_, linear, one_hot,
                           scaled_dot_product_attention)
from .._ops import layers as _layers
from .._ops.normalization import cosine_similarity, pairwise_distance
from .._ops import normalization as _norm
from .._ops.losses import (cosine_embedding_loss, gaussian_nll_loss, hinge_embedding_loss, huber_loss, kl_div,
                           l1_loss, margin_ranking_loss, mse_loss, multi_margin_loss, multilabel_soft_margin_loss,
                           poisson_nll_loss, smooth_l1_loss, soft_margin_loss, triplet_margin_loss)
from .._ops.classification_losses import (binary_cross_entropy, binary_cross_entropy_with_logits, cross_entropy,
                                          nll_loss)
from .._ops.sequence_losses import ctc_loss
from .._ops.conv import conv1d, conv2d, conv3d, conv_transpose1d, conv_transpose2d, conv_transpose3d, fold, unfold
from .._ops.pooling import (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_max_pool1d,
                            adaptive_max_pool1d_with_indices, adaptive_max_pool2d, adaptive_max_pool2d_with_indices,
                            avg_pool1d, avg_pool2d, lp_pool1d, lp_pool2d, max_pool1d, max_pool1d_with_indices,
                            max_pool2d, max_pool2d_with_indices)
from .._ops.resampling import (interpolate, pad, pixel_shuffle, pixel_unshuffle, upsample, upsample_bilinear,
                               upsample_nearest)

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
    rows = weight.size(0)
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx >= rows or padding_idx < -rows:
        raise AssertionError("Padding_idx must be within num_embeddings")
    elif padding_idx < 0:
        padding_idx = rows + padding_idx
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
    the window zero-padded at the ends (PyTorch pads, then average-pools)."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} "
                         "dimensions)")
    if input.numel() == 0:
        return input
    channels = input.shape[1]
    offset = np.arange(channels)[:, None] - np.arange(channels)[None, :]  # source minus target channel
    window = (offset >= -(size // 2)) & (offset <= (size - 1) // 2)
    window = _wrap((window / size).astype(input.dtype.np))
    div = (input.mul(input).transpose(1, -1) @ window).transpose(1, -1)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """``input / max(norm_p(input, dim), eps)``."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return out.copy_(input / denom)
