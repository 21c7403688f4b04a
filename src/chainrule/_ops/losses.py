"""Loss functions (``torch.nn.functional.*_loss``), built as PyTorch builds them.

Losses that have a kernel of their own in PyTorch (``mse_loss``, ``nll_loss``,
``binary_cross_entropy``...) are one entry here, under PyTorch's node name; the losses
PyTorch composes from other ops (``l1_loss``, ``kl_div``, ``cosine_embedding_loss``...)
are composed here from the same ops, so ``loss.grad_fn`` names the same node.

The rules of the fused losses are written with chainrule ops, so ``create_graph=True``
differentiates them again. Most are pointwise: the loss is ``reduce(f(x, t))`` and
``_pointwise_rules`` builds both rules from the partial derivatives of ``f``:

>>> x = chainrule.tensor([0.5, 2.0], requires_grad=True)
>>> mse_loss(x, chainrule.tensor([0.0, 0.0]))      # ((0.25 + 4) / 2)
tensor(2.1250, grad_fn=<MseLossBackward0>)

``reduction`` is ``'none'`` (one loss per element or sample), ``'mean'`` or ``'sum'``;
the legacy ``size_average``/``reduce`` flags still override it, with PyTorch's warning.
"""
import math
import warnings

import numpy as np

from .. import _dtype
from .._tensor import Tensor, _wrap
from ..autograd.forward_ad import FORWARD, make_dual, tangent_of
from ..autograd.grad_mode import STATE, no_grad
from . import reductions as _red
from .activations import LOG_SOFTMAX, log_sigmoid, log_softmax, softmax, softmax_backward
from .reductions import on_batch
from .elementwise import where, zeros_like
from .normalization import pairwise_distance
from .batching import any_batched, elementwise, has_values, pad, per_sample
from . import registry
from .registry import apply, broadcast_error, defop, unary
from .shape import broadcast_shapes
from .unary import abs, clamp_min, exp, log, logit, sigmoid, sign, sqrt

# --- reductions and argument checks ---------------------------------------------------


def _reduction(reduction, size_average=None, reduce=None):
    """PyTorch's ``_Reduction``: the legacy flags win over ``reduction``, with a warning."""
    if size_average is not None or reduce is not None:
        size_average = True if size_average is None else size_average
        reduce = True if reduce is None else reduce
        reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
        warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                      "instead.", UserWarning, stacklevel=3)
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
                      UserWarning, stacklevel=3)
        return "mean"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _reduce(loss, reduction):
    """PyTorch's ``apply_loss_reduction``, on tensors."""
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def _np_reduce(loss, reduction):
    if reduction == "mean":
        with np.errstate(invalid="ignore", divide="ignore"):
            return loss.mean() if loss.size else np.asarray(np.nan, loss.dtype)
    if reduction == "sum":
        return loss.sum()
    return loss


def _spread(g, reduction, n):
    """The upstream gradient of a reduced loss, per element of the unreduced one (of
    which there are ``n``: none, and nothing is spread)."""
    return g / n if reduction == "mean" and n else g


def _type_name(t):
    return _dtype._LEGACY_NAMES[t.dtype.name]


def _check_floating(t, kernel):
    if not t._data.dtype.kind == "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(t)}'")


def _check_no_grad(t, argument, function):
    """PyTorch refuses a tensor that requires grad where its kernel has no rule for it."""
    if t is not None and t._requires_grad and STATE.enabled:
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to argument "
                           f"'{argument}'. This input cannot have requires_grad True.")


def _broadcast_pair(input, target):
    """``torch.broadcast_tensors(input, target)`` after the size warning that the pointwise
    losses give."""
    if target.shape != input.shape:
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                      f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
                      "Please ensure they have the same size.", UserWarning, stacklevel=3)
        try:
            shape = np.broadcast_shapes(input._data.shape, target._data.shape)
        except ValueError as e:
            raise broadcast_error(e, input._data.shape, target._data.shape) from None
        return input.expand(shape), target.expand(shape)
    return input, target


def _pointwise_batched(op, args, batched, params, dtype):
    """``reduce(f(x, t))`` for each sample: ``f`` on the whole batch, then each sample's
    mean or sum."""
    return _reduce_samples(elementwise(op, args, batched, ("none",) + tuple(params[1:]), dtype), params[0])


def _reduce_samples(loss, reduction):
    """An unreduced loss of a vmap batch (batch at dim 0) reduced per sample."""
    dims = tuple(range(1, loss._data.ndim))
    if reduction == "none" or not dims:
        return loss
    return loss.sum(dims) if reduction == "sum" else loss.mean(dims)


def _pointwise_rules(d_input, d_target):
    """``save``, ``vjp`` and ``jvp`` of ``reduce(f(x, t, *params))`` from the partial
    derivatives ``d_input(x, t, *params)`` and ``d_target`` of ``f`` (chainrule
    expressions). The op's parameters are ``reduction`` and then ``params``."""
    def vjp(d):
        def rule(g, x, t, reduction, *params):
            slope = d(x, t, *params)
            return _spread(g, reduction, slope.numel()) * slope
        return rule

    def jvp(d):
        return lambda tangent, x, t, reduction, *params: _reduce(d(x, t, *params) * tangent, reduction)

    return dict(batch=_pointwise_batched, save=lambda ans, x, t, reduction, *params: (x, t, reduction, *params),
                vjp=(vjp(d_input), vjp(d_target)), jvp=(jvp(d_input), jvp(d_target)))


def _weighted(loss, weight, reduction, mean):
    """The ``weight=`` form of mse/l1/huber (composed in PyTorch's Python)."""
    if weight.shape != loss.shape:
        raise ValueError("Weights and input must have the same size.")
    loss = loss * weight
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        return mean(loss)
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


# --- regression losses ----------------------------------------------------------------------

MSE_LOSS = defop("mse_loss", lambda x, t, reduction: _np_reduce((x - t) ** 2, reduction),
                 node="MseLossBackward0",
                 **_pointwise_rules(lambda x, t: 2 * (x - t), lambda x, t: 2 * (t - x)))


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    input, target = _broadcast_pair(input, target)
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    if weight is not None:
        return _weighted((input - target) ** 2, weight, reduction, lambda loss: loss.sum() / weight.sum())
    reduction = _reduction(reduction)
    out_dtype = _dtype.result_dtype((input, target))
    if not out_dtype.is_floating_point:
        raise NotImplementedError(f"\"mse_cpu\" not implemented for '{_dtype._LEGACY_NAMES[out_dtype.name]}'")
    return apply(MSE_LOSS, (input, target), (reduction,), out_dtype.np)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """``|input - target|`` reduced: composed, as in PyTorch (AbsBackward0, MeanBackward0)."""
    input, target = _broadcast_pair(input, target)
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    if weight is not None:
        return _weighted(abs(input - target), weight, reduction, lambda loss: loss.sum() / weight.sum())
    return _reduce(abs(input - target), _reduction(reduction))


def _smooth_l1(x, t, reduction, beta):
    d = np.abs(x - t)
    return _np_reduce(np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta), reduction)


def _smooth_l1_slope(x, t, beta):
    d = x - t
    return where(abs(d) < beta, d / beta, sign(d))


SMOOTH_L1_LOSS = defop("smooth_l1_loss", _smooth_l1, node="SmoothL1LossBackward0",
                       **_pointwise_rules(_smooth_l1_slope, lambda x, t, beta: -_smooth_l1_slope(x, t, beta)))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Quadratic below ``beta``, linear above; ``beta=0`` is ``l1_loss``."""
    input, target = _broadcast_pair(input, target)
    reduction = _reduction(reduction, size_average, reduce)
    if beta == 0.0:
        return _reduce(abs(input - target), reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    out_dtype = _dtype.result_dtype((input, target))
    if not out_dtype.is_floating_point:
        raise NotImplementedError(f"\"smooth_l1_cpu\" not implemented for "
                                  f"'{_dtype._LEGACY_NAMES[out_dtype.name]}'")
    return apply(SMOOTH_L1_LOSS, (input, target), (reduction, beta), out_dtype.np)


def _huber(x, t, reduction, delta):
    d = np.abs(x - t)
    return _np_reduce(np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta)), reduction)


def _huber_slope(x, t, delta):
    d = x - t
    return where(abs(d) < delta, d, delta * sign(d))


HUBER_LOSS = defop("huber_loss", _huber, node="HuberLossBackward0",
                   **_pointwise_rules(_huber_slope, lambda x, t, delta: -_huber_slope(x, t, delta)))


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """smooth_l1_loss times ``delta`` (quadratic below ``delta``); the result has input's dtype."""
    input, target = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted(huber_loss(input, target, "none", delta), weight, reduction, lambda loss: loss.mean())
    reduction = _reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _check_floating(input, "huber_cpu")
    return apply(HUBER_LOSS, (input, target), (reduction, delta), input._data.dtype)


# --- nll_loss ----------------------------------------------------------------------------
# The target picks one log-probability per sample: the op keeps the picks (``picks``, flat
# indices of x[n, target[n], ...] in target's shape, ignored targets sent to class 0), their
# weights ``w`` (0 where ignored; None when all are 1) and the mean's divisor ``total``, the
# total weight. Both rules are linear in their input.

def _nll(x, picks, w, total, reduction):
    picked = x.reshape(-1)[picks] if w is None else w * x.reshape(-1)[picks]
    if reduction == "none":
        return -picked
    if reduction == "sum":
        return -picked.sum()
    return -picked.sum() / total if total else np.asarray(np.nan, x.dtype)  # a mean over nothing


def _nll_backward(g, picks, w, total, reduction, shape):
    out = np.zeros(shape, dtype=g.dtype)
    if reduction == "mean":
        if not total:
            return out
        g = g / total
    out.reshape(-1)[picks] = -g if w is None else np.where(w == 0, 0, -(w * g))  # 0 where ignored, even for g = inf
    return out


def _picks_of_batch(picks, w, t, shape):
    """nll's flat ``picks`` and weights ``w`` of one sample (of ``shape``) for the batch in
    ``t`` (batch at dim 0), read as one array: sample b's picks move b * size(shape) on."""
    size = t._data.shape[0]
    tagged = picks + (np.arange(size) * math.prod(shape)).reshape((size,) + (1,) * picks.ndim)
    return tagged, None if w is None else np.broadcast_to(w, tagged.shape)


def _nll_batch(op, args, batched, params, dtype):
    """nll_loss of a batch of inputs under one sample's targets: the losses of all
    samples unreduced in one call, then reduced per sample (a mean over nothing loops)."""
    x, (picks, w, total, reduction) = args[0], params
    if reduction == "mean" and not total:
        return None
    tagged, w = _picks_of_batch(picks, w, x, x._data.shape[1:])
    losses = apply(op, (x,), (tagged, w, total, "none"), dtype)
    if reduction == "none":
        return losses
    summed = losses.reshape(x._data.shape[0], -1).sum(1)
    return summed if reduction == "sum" else summed / float(total)


def _nll_backward_batch(op, args, batched, params, dtype):
    """nll_loss_backward of a batch of cotangents ``g``: a reduced loss's g (one number
    per sample) spread over the sample's picks, then one unreduced call."""
    g, (picks, w, total, reduction, shape) = args[0], params
    if reduction == "mean" and not total:
        return None  # the backward of a mean over nothing: zeros, but nan for its own vjp
    tagged, w = _picks_of_batch(picks, w, g, shape)
    if reduction != "none":
        g = (g if reduction == "sum" else g / float(total)).reshape(tagged.shape[:1] + (1,) * picks.ndim)
        g = g.expand(tagged.shape)
    return apply(op, (g,), (tagged, w, total, "none", tagged.shape[:1] + tuple(shape)), dtype)


def _nll_rules(node, backward_node):
    """One rule set, two of PyTorch's names: nll_loss and nll_loss2d (4-d inputs)."""
    def forward_op(t, picks, w, total, reduction):
        return unary(ops[0], t, (picks, w, total, reduction))

    def backward_op(g, picks, w, total, reduction, shape):
        return unary(ops[1], g, (picks, w, total, reduction, shape))

    ops = (
        defop(node[0], _nll, node=node[1], batch=_nll_batch,
              save=lambda ans, x, picks, w, total, reduction: (picks, w, total, reduction, x._data.shape),
              vjp=backward_op,
              jvp=lambda t, picks, w, total, reduction, shape: forward_op(t, picks, w, total, reduction)),
        # the transpose of the backward is the forward (nan, as in PyTorch, for a mean over
        # nothing, where the backward itself is 0)
        defop(backward_node[0], _nll_backward, node=backward_node[1], batch=_nll_backward_batch,
              save=lambda ans, g, picks, w, total, reduction, shape: (picks, w, total, reduction, shape),
              vjp=lambda gg, picks, w, total, reduction, shape: forward_op(gg, picks, w, total, reduction),
              jvp=backward_op))
    return ops


NLL_LOSS, NLL_LOSS_BACKWARD = _nll_rules(("nll_loss", "NllLossBackward0"),
                                         ("nll_loss_backward", "NllLossBackwardBackward0"))
NLL_LOSS2D, NLL_LOSS2D_BACKWARD = _nll_rules(("nll_loss2d", "NllLoss2DBackward0"),
                                             ("nll_loss2d_backward", "NllLoss2DBackwardBackward0"))


def _nll_picks(input, target, weight, ignore_index, name):
    """The op's parameters for ``target``, after PyTorch's dtype, weight and bounds checks."""
    x, t = input._data, target._data
    if t.dtype != np.int64 and t.dtype != np.uint8:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_type_name(target)}")
    if x.dtype.kind != "f":
        raise NotImplementedError(f"\"{name}_out_frame\" not implemented for '{_type_name(input)}'")
    n_classes = x.shape[0 if x.ndim == 1 else 1]
    index, ignored = t, None
    # one pass finds targets out of [0, C) (negative ones too, seen as unsigned): none is the
    # common case; else some are ignored, or out of bounds
    if (0 <= ignore_index < n_classes or
            np.count_nonzero((t.view(np.uint64) if t.dtype == np.int64 else t) >= n_classes)):
        ignored = t == ignore_index
        index = np.where(ignored, 0, t)
        bad = (index < 0) | (index >= n_classes)
        if bad.any():
            raise IndexError(f"Target {index[bad].flat[0]} is out of bounds.")
    if weight is not None:
        if weight._data.dtype != x.dtype:
            raise RuntimeError(f"expected scalar type {_type_name(input)} but found {_type_name(weight)}")
        w = weight._data[index]
        if ignored is not None:
            w = np.where(ignored, 0, w).astype(x.dtype)
        total = w.sum()
    elif ignored is not None:
        w = (~ignored).astype(x.dtype)
        total = w.sum()
    else:
        w, total = None, index.size
    return _flat_picks(x.shape, index), w, total


def _flat_picks(shape, index):
    """Flat indices into an array of ``shape`` (C,) or (N, C, ...) of its elements
    [n, index[n, ...], ...]."""
    if len(shape) == 1:
        return index
    n, c, inner = shape[0], shape[1], math.prod(shape[2:])
    rows = np.arange(0, n * c * inner, c * inner)  # where each sample starts
    if index.ndim == 1:
        return rows + index
    return rows.reshape((n,) + (1,) * (index.ndim - 1)) + np.arange(inner).reshape(index.shape[1:]) + index * inner


def _check_weight(weight, n_classes, prefix=""):
    if weight is not None and (weight._data.ndim != 1 or weight._data.size != n_classes):
        raise RuntimeError(f"{prefix}weight tensor should be defined either for all {n_classes} classes or no "
                           f"classes but got weight tensor of shape: {list(weight._data.shape)}")


def _nll_loss(input, target, weight, reduction, ignore_index):
    """PyTorch's nll_loss, for 1-d and 2-d inputs."""
    return unary(NLL_LOSS, input, _nll_params(input, target, weight, ignore_index) + (reduction,))


def _nll_params(input, target, weight, ignore_index):
    """nll_loss's checks, and its op's parameters (see _nll_picks)."""
    x_shape, t_shape = input._data.shape, target._data.shape
    if len(t_shape) > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if len(x_shape) == 1 and len(t_shape) == 1 and t_shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {t_shape[0]}")
    _check_no_grad(weight, "weight", "nll_loss_forward")
    _check_weight(weight, x_shape[-1])
    if len(x_shape) == 1 and len(t_shape) == 1:
        target = target.reshape(())
    return _nll_picks(input, target, weight, ignore_index, "nll_loss")


def _nll_loss2d(input, target, weight, reduction, ignore_index):
    """PyTorch's nll_loss2d: (N, C, H, W) inputs, (N, H, W) targets."""
    x_shape, t_shape = input._data.shape, target._data.shape
    if len(t_shape) != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of "
                           f"dimension: {len(t_shape)}")
    _check_no_grad(weight, "weight", "nll_loss2d_forward")
    if (x_shape[0], *x_shape[2:]) != t_shape:
        raise RuntimeError(f"size mismatch (got input: {list(x_shape)} , target: {list(t_shape)}")
    _check_weight(weight, x_shape[1])
    return unary(NLL_LOSS2D, input, _nll_picks(input, target, weight, ignore_index, "nll_loss2d_forward") +
                 (reduction,))


def _check_batch(input, target):
    ndim = input._data.ndim
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    x_shape, t_shape = input._data.shape, target._data.shape
    if ndim != 1 and (not t_shape or x_shape[0] != t_shape[0]):
        raise ValueError(f"Expected input batch_size ({x_shape[0]}) to match target batch_size "
                         f"({t_shape[0] if t_shape else 1}).")


def _nll_loss_nd(input, target, weight, reduction, ignore_index):
    """PyTorch's nll_loss_nd: 1-d and 2-d inputs go to nll_loss, 4-d to nll_loss2d, and
    the others (N, C, d1, ...) are viewed as (N, C, 1, d) for nll_loss2d."""
    _check_batch(input, target)
    ndim = input._data.ndim
    x_shape, t_shape = input._data.shape, target._data.shape
    if ndim <= 2:
        return _nll_loss(input, target, weight, reduction, ignore_index)
    if ndim == 4:
        return _nll_loss2d(input, target, weight, reduction, ignore_index)
    n, c = x_shape[0], x_shape[1]
    out_size = (n,) + x_shape[2:]
    if t_shape[1:] != x_shape[2:]:
        raise RuntimeError(f"Expected target size {list(out_size)}, got {list(t_shape)}")
    input, target = input.contiguous(), target.contiguous()
    input = input.view(n, c, 1, -1) if input._data.size else input.view(n, c, 0, 0)
    target = target.view(n, 1, -1) if target._data.size else target.view(n, 0, 0)
    out = _nll_loss2d(input, target, weight, reduction, ignore_index)
    return out.view(out_size) if reduction == "none" else out


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """The negative log-likelihood of class indices under log-probabilities ``input``
    (N, C) or (N, C, d1, ...): ``-input[n, target[n]] * weight[target[n]]``, reduced;
    the mean divides by the total weight of the targets not ignored."""
    reduction = _reduction(reduction, size_average, reduce)
    if registry.BATCHING and any_batched(input, target, weight):
        if any_batched(weight):  # each sample's classes weighted its own way
            return per_sample(nll_loss, input, target, weight, None, ignore_index, None, reduction)
        return _class_loss_batch(lambda x, t, r: _nll_loss_nd(x, t, weight, r, ignore_index), input, target,
                                 weight, reduction, ignore_index)
    return _nll_loss_nd(input, target, weight, reduction, ignore_index)


def _class_loss_batch(loss, input, target, weight, reduction, ignore_index):
    """``loss(x, t, reduction)`` (nll_loss, cross_entropy of class indices) of a vmap batch
    in one call: the batch joins each sample's N, the loss is taken unreduced, then reduced
    per sample, the mean over each sample's total weight of targets not ignored.

    >>> # 3 samples of (4, C) logits: one (12, C) loss, then (3, 4) summed and divided per row
    """
    def run(x, t):
        size, sample_ndim = x._data.shape[0], x._data.ndim - 1
        if sample_ndim == 1:  # one (C,) input per sample: the batch is the N
            losses = loss(x, t.reshape(size), "none")
        else:
            losses = loss(x.reshape((-1,) + x._data.shape[2:]), t.reshape((-1,) + t._data.shape[2:]), "none")
            losses = losses.reshape(t._data.shape)
        if reduction == "none":
            return losses
        total = losses.reshape(size, -1).sum(1)
        if reduction == "sum":
            return total
        index = t._data.reshape(size, -1)
        kept = index != ignore_index
        picked = 1.0 if weight is None else weight._data[np.where(kept, index, 0)]
        return total / _wrap((picked * kept).sum(1).astype(x._data.dtype))
    return on_batch(run, input, target)


# --- cross_entropy --------------------------------------------------------------------------

# PyTorch's C++ divides by a count given as a Scalar (div.Scalar): a node of its own,
# DivBackward1, that Python's ``/`` never records
DIV_BY_COUNT = defop("div_by_count", np.true_divide, node="DivBackward1",
                     save=lambda ans, x, count: (count,),
                     vjp=lambda g, count: g / count, jvp=lambda t, count: t / count, elementwise=True)


# Class indices: log_softmax then nll_loss, fused into one op. PyTorch's graph has the two
# nodes (NllLossBackward0 after LogSoftmaxBackward0); this op is named after the last.
# Composed, the two nodes cost about 1.3x PyTorch's time for forward and backward on
# (128, 10) logits (the engine's work per node dominates); fused, about 0.9x.

class _LogProbabilities:
    """log_softmax(x) of the op's input, computed once and shared by forward and backward.
    It is recomputed for any other array (finite-difference checks call the forward on
    perturbed copies), so the op stays a function of its input alone."""
    __slots__ = ("source", "value")

    def __init__(self):
        self.source = self.value = None

    def of(self, x, dim):
        if self.source is not x:
            self.source, self.value = x, LOG_SOFTMAX.forward(x, dim)
        return self.value


def _cross_entropy(x, log_p, picks, w, total, reduction, dim):
    return _nll(log_p.of(x, dim), picks, w, total, reduction)


def _cross_entropy_backward(g, x, log_p, picks, w, total, reduction, dim):
    # log_softmax's backward of nll's: G - softmax * sum(G)
    grad = _nll_backward(g, picks, w, total, reduction, x.shape)
    return grad - np.exp(log_p.of(x, dim)) * grad.sum(axis=dim, keepdims=True)


def cross_entropy_backward(g, x, *params):
    return apply(CROSS_ENTROPY_BACKWARD, (g, x), params)


def _picked_total(g, x, log_p, picks, w, total, reduction, dim):
    """sum(G) over the classes, G the nll part of the gradient (it depends on g only)."""
    grad = unary(NLL_LOSS_BACKWARD, g, (picks, w, total, reduction, x._data.shape))
    return grad.sum(dim, keepdim=True)


def _ce_x_slope(t, g, x, log_p, picks, w, total, reduction, dim):
    """d/dx of G - softmax(x) * sum(G), applied to t (softmax's Jacobian is symmetric)."""
    return -softmax_backward(t * _picked_total(g, x, log_p, picks, w, total, reduction, dim), softmax(x, dim), dim)


def _ce_g_transpose(gg, x, log_p, picks, w, total, reduction, dim):
    """The transpose of the backward's map g -> G - softmax * sum(G): nll of J^T gg."""
    s = softmax(x, dim)
    return unary(NLL_LOSS, gg - (s * gg).sum(dim, keepdim=True), (picks, w, total, reduction))


def _cross_entropy_backward_batch(op, args, batched, params, dtype):
    """cross_entropy_backward with g or x batched, composed: G - softmax(x) * sum(G) of
    nll_loss_backward's G (for a batched g, that op's batching rule)."""
    (g, x), (_, picks, w, total, reduction, dim) = args, params
    nll = (picks, w, total, reduction, x._data.shape[1:] if batched[1] else x._data.shape)
    if batched[0]:
        grad = _nll_backward_batch(NLL_LOSS_BACKWARD, [g], [True], nll, dtype)
        if grad is None:
            return None
    else:
        grad = unary(NLL_LOSS_BACKWARD, g, nll)
    probs = softmax(x, dim + 1 if batched[1] else dim)
    return grad - probs * grad.sum(dim + 1 if batched[0] else dim, keepdim=True)


def _cross_entropy_batch(op, args, batched, params, dtype):
    """cross_entropy of a batch of logits: nll_loss's batching rule on their log_softmax."""
    _, picks, w, total, reduction, dim = params
    return _nll_batch(NLL_LOSS, [log_softmax(args[0], dim + 1)], [True], (picks, w, total, reduction), dtype)


CROSS_ENTROPY_BACKWARD = defop(
    "cross_entropy_backward", _cross_entropy_backward, node="LogSoftmaxBackwardDataBackward0",
    batch=_cross_entropy_backward_batch,
    save=lambda ans, g, x, *params: (g, x, *params),
    vjp=(lambda gg, g, x, *params: _ce_g_transpose(gg, x, *params),
         lambda gg, g, x, *params: _ce_x_slope(gg, g, x, *params)),
    jvp=(lambda t, g, x, *params: cross_entropy_backward(t, x, *params),
         lambda t, g, x, *params: _ce_x_slope(t, g, x, *params)))

CROSS_ENTROPY = defop(
    "cross_entropy", _cross_entropy, node="NllLossBackward0", batch=_cross_entropy_batch,
    save=lambda ans, x, *params: (x, *params),
    vjp=lambda g, x, *params: cross_entropy_backward(g, x, *params),
    jvp=lambda t, x, *params: _ce_g_transpose(t, x, *params))


def _class_shaped(weight, ndim, class_dim):
    """``weight`` (C,) viewed to broadcast along the class dim of an ``ndim`` input."""
    shape = [1] * ndim
    shape[class_dim] = weight._data.shape[0]
    return weight.view(shape)


def _cross_entropy_probs(input, target, weight, reduction, label_smoothing, class_dim):
    n_classes = input._data.shape[class_dim]
    _check_weight(weight, n_classes, "cross_entropy: ")
    log_p = log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    terms = log_p * target
    if weight is not None:
        terms = terms * (_class_shaped(weight, input._data.ndim, class_dim) if input._data.ndim > 1 else weight)
    if reduction == "none":
        return -terms.sum(class_dim)
    if reduction == "sum":
        return -terms.sum()
    if input._data.size == 0:
        return -terms.sum() * float("nan")
    return unary(DIV_BY_COUNT, -terms.sum(), (input._data.size // n_classes,))


def _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing, class_dim):
    if label_smoothing > 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    log_p = log_softmax(input, class_dim)
    nll = _nll_loss_nd(log_p, target, weight, reduction, ignore_index)
    n_classes = input._data.shape[class_dim]
    if weight is not None:
        smooth = -(log_p * _class_shaped(weight, input._data.ndim, class_dim)).sum(class_dim)
    else:
        smooth = -log_p.sum(class_dim)
    ignored = target._data == ignore_index
    smooth = where(_wrap(ignored), 0.0, smooth)
    if reduction == "mean":
        if weight is not None:
            kept = target._data[~ignored]
            smooth = smooth.sum() / _wrap(np.asarray(weight._data[kept].sum()))
        else:
            smooth = smooth.sum() / _wrap(np.asarray((~ignored).sum()))
    elif reduction == "sum":
        smooth = smooth.sum()
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / n_classes)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """``nll_loss(log_softmax(input, 1), target)`` for class indices (one fused op for
    (N, C) and (C,) inputs, see CROSS_ENTROPY); for class probabilities (``target`` of
    input's shape), ``-sum(target * log_softmax(input))``.

    >>> cross_entropy(chainrule.tensor([[2.0, 0.0]]), chainrule.tensor([0]))
    tensor(0.1269)
    """
    reduction = _reduction(reduction, size_average, reduce)
    class_dim = 0 if input._data.ndim == 1 else 1
    indices = input._data.shape != target._data.shape
    if registry.BATCHING and indices and any_batched(input, target, weight):  # probabilities need no values
        if any_batched(weight):
            return per_sample(cross_entropy, input, target, weight, None, ignore_index, None, reduction,
                              label_smoothing)
        # with label smoothing too: the smoothing term's mean has the same divisor
        return _class_loss_batch(lambda x, t, r: cross_entropy(x, t, weight, ignore_index=ignore_index, reduction=r,
                                                               label_smoothing=label_smoothing),
                                 input, target, weight, reduction, ignore_index)
    if not indices:
        if target._data.dtype.kind != "f":
            raise RuntimeError(f"Expected floating point type for target with class probabilities, "
                               f"got {_type_name(target)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probs(input, target, weight, reduction, label_smoothing, class_dim)
    if label_smoothing > 0.0:
        return _cross_entropy_smoothed(input, target, weight, reduction, ignore_index, label_smoothing, class_dim)
    if input._data.ndim not in (1, 2):  # (N, C, d1, ...): nll_loss2d's graph, composed (0-d: its error)
        return _nll_loss_nd(log_softmax(input, class_dim), target, weight, reduction, ignore_index)
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"log_softmax_lastdim_kernel_impl\" not implemented for '{_type_name(input)}'")
    _check_batch(input, target)
    params = _nll_params(input, target, weight, ignore_index)
    return unary(CROSS_ENTROPY, input, (_LogProbabilities(),) + params + (reduction, class_dim))


# --- binary cross-entropy ------------------------------------------------------------------

_EPSILON = 1e-12


def _bce(x, t, reduction, w):
    if ((x < 0) | (x > 1)).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore"):
        loss = (t - 1) * np.maximum(np.log(1 - x), -100) - t * np.maximum(np.log(x), -100)
    return _np_reduce(loss if w is None else loss * w, reduction)


def _bce_input_slope(x, t, w):
    # PyTorch's binary_cross_entropy_backward: (x - t) / max(x (1 - x), eps), times the weight
    slope = (x - t) / clamp_min((1 - x) * x, _EPSILON)
    return slope if w is None else slope * _wrap(w)


def _bce_target_slope(x, t, w):
    slope = -logit(x)
    return slope if w is None else slope * _wrap(w)


BINARY_CROSS_ENTROPY = defop("binary_cross_entropy", _bce, node="BinaryCrossEntropyBackward0",
                             **_pointwise_rules(_bce_input_slope, _bce_target_slope))


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """``-w (t log x + (1 - t) log(1 - x))`` for probabilities ``x``; each log is
    clamped to -100 (as in PyTorch), so x = 0 or 1 gives a finite loss."""
    reduction = _reduction(reduction, size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    w = None
    if weight is not None:
        shape = broadcast_shapes(target._data.shape, weight.size())
        weight = weight.expand(shape)
        _check_no_grad(weight, "weight", "binary_cross_entropy")
        w = weight._data
    _check_floating(input, "binary_cross_entropy")
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    if FORWARD.active and tangent_of(input) is not None and tangent_of(target) is None:
        # PyTorch's formula takes a missing target tangent as zeros, and its term -logit(x) * 0
        # is nan where x is 0 or 1: the tangent of the loss there is nan, as in PyTorch
        target = make_dual(target, zeros_like(target))
    return apply(BINARY_CROSS_ENTROPY, (input, target), (reduction, w))


def _bce_logits(x, t, reduction, w, pw):
    # -log sigmoid(x) = log(1 + e^-|x|) + max(-x, 0), exact for every x
    softplus = np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)
    loss = (1 - t) * x + (softplus if pw is None else (1 + (pw - 1) * t) * softplus)
    return _np_reduce(loss if w is None else loss * w, reduction)


def _bce_logits_input_slope(x, t, w, pw):
    if pw is None:
        slope = sigmoid(x) - t
    else:
        pw_t = _wrap(pw) * t
        slope = (pw_t + 1 - t) * sigmoid(x) - pw_t
    return slope if w is None else slope * _wrap(w)


def _bce_logits_target_slope(x, t, w, pw):
    slope = -x if pw is None else log_sigmoid(-x) - _wrap(pw) * log_sigmoid(x)
    return slope if w is None else slope * _wrap(w)


# Fused: the loss in terms of x is stable for every x (no log of a sigmoid that underflows),
# and its gradient is one sigmoid
BCE_WITH_LOGITS = defop("binary_cross_entropy_with_logits", _bce_logits,
                        node="BinaryCrossEntropyWithLogitsBackward0",
                        **_pointwise_rules(_bce_logits_input_slope, _bce_logits_target_slope))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """``binary_cross_entropy(sigmoid(input), target)``, computed stably from the logits;
    ``pos_weight`` scales the positive term (per class, broadcast along the last dim)."""
    reduction = _reduction(reduction, size_average, reduce)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    _check_no_grad(weight, "weight", "binary_cross_entropy_with_logits")
    _check_no_grad(pos_weight, "pos_weight", "binary_cross_entropy_with_logits")
    out_dtype = _dtype.result_dtype((input, target))
    if out_dtype != target.dtype:  # PyTorch computes (1 - target).mul_(input): in target's dtype
        raise RuntimeError(f"result type {_dtype._LEGACY_NAMES[out_dtype.name]} can't be cast to the desired "
                           f"output type {_type_name(target)}")
    if pos_weight is not None:
        try:
            np.broadcast_shapes(pos_weight._data.shape, target._data.shape)
        except ValueError as e:
            raise broadcast_error(e, pos_weight._data.shape, target._data.shape) from None
    w = None if weight is None else weight._data
    pw = None if pos_weight is None else pos_weight._data
    return apply(BCE_WITH_LOGITS, (input, target), (reduction, w, pw), out_dtype.np)


# --- distribution losses -------------------------------------------------------------------


def _xlogx(t):
    """``xlogy(t, t)``: t log t, 0 at t = 0 (where log never sees the 0)."""
    return t * log(where(t == 0, 1.0, t))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """KL(target || exp(input)) pointwise, for log-probabilities ``input``; ``'batchmean'``
    divides the sum by the batch size (the mathematical KL divergence)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    elif reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                      "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                      "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                      UserWarning, stacklevel=2)
    base = "sum" if reduction == "batchmean" else _reduction(reduction)
    for t in (input, target):
        if t._data.dtype.kind in "biu":
            raise RuntimeError("kl_div: Integral inputs not supported.")
        if t._data.dtype.kind == "c":
            raise RuntimeError("kl_div: Complex inputs not supported.")
    if log_target:
        loss = exp(target) * (target - input)
    else:
        loss = _xlogx(target) - target * input
    reduced = _reduce(loss, base)
    if reduction == "batchmean" and input._data.ndim != 0:
        reduced = reduced / input._data.shape[0]
    return reduced


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """The negative log-likelihood of ``target`` under Poisson(rate), with ``input`` the
    log-rate (``log_input``) or the rate; ``full`` adds Stirling's term for log(target!)."""
    reduction = _reduction(reduction, size_average, reduce)
    if log_input:
        loss = exp(input) - target * input
    else:
        loss = input - target * log(input + eps)
    if full:
        stirling = target * log(target) - target + 0.5 * log(2 * math.pi * target)
        loss = loss + where(target <= 1, 0.0, stirling)
    return _reduce(loss, reduction)


def _check_variance(var):
    """No negative variance; under vmap (where PyTorch refuses the data-dependent check)
    in every sample at once, a batch's values read one vmap level down."""
    if has_values(var._data):
        if (var._data < 0).any():
            raise ValueError("var has negative entry/entries")
    else:
        on_batch(_check_variance, var)
    return var


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log-likelihood of ``target`` under N(input, var); ``var`` is clamped
    to ``eps`` for stability, without stopping its gradient (as in PyTorch)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = _wrap(np.full(input._data.shape, var, input._data.dtype))
    elif not isinstance(var, Tensor):
        raise TypeError("any() received an invalid combination of arguments - got (bool), but expected one of:\n"
                        " * (Tensor input, *, Tensor out = None)\n"
                        " * (Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None)\n"
                        " * (Tensor input, int dim, bool keepdim = False, *, Tensor out = None)\n")
    else:
        _check_variance(var)
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (input._data.ndim == var._data.ndim and
                  sum(v for i, v in zip(input.shape, var.shape) if i != v) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


# --- margin and embedding losses -------------------------------------------------------------


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """``max(0, -target (input1 - input2) + margin)``: target 1 wants input1 ranked higher."""
    reduction = _reduction(reduction, size_average, reduce)
    if input1._data.ndim != input2._data.ndim or input1._data.ndim != target._data.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _reduce(clamp_min(-target * (input1 - input2) + margin, 0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """``input`` where target is 1, ``max(0, margin - input)`` where it is -1."""
    reduction = _reduction(reduction, size_average, reduce)
    margin_clamp = clamp_min(margin - input, 0)
    output_margin = where(target != 1, margin_clamp, 0.0)
    output_self = where(target != -1, input, 0.0)
    return _reduce(output_margin + output_self, reduction)


def _soft_margin(x, t, reduction):
    return _np_reduce(np.logaddexp(0, -t * x), reduction)


def _soft_margin_slope(x, t):
    return -t * sigmoid(-t * x)


def _soft_margin_vjp(g, x, t, reduction):
    slope = _soft_margin_slope(x, t)
    return _spread(g, reduction, slope.numel()) * slope


def _soft_margin_batch(op, args, batched, params, dtype):
    """vmap's rule, the input batched (the target, a parameter, broadcasts from the right)."""
    target, reduction = params
    return _reduce_samples(apply(op, (pad(args[0], target.ndim),), (target, "none"), dtype), reduction)


# the target is a parameter: PyTorch has no rule for it (and refuses one that requires grad)
SOFT_MARGIN_LOSS = defop(
    "soft_margin_loss", _soft_margin, batch=_soft_margin_batch, node="SoftMarginLossBackward0",
    save=lambda ans, x, t, reduction: (x, _wrap(t), reduction), vjp=_soft_margin_vjp,
    jvp=lambda tangent, x, t, reduction: _reduce(_soft_margin_slope(x, t) * tangent, reduction))


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * input))``, the logistic loss for targets ±1."""
    reduction = _reduction(reduction, size_average, reduce)
    _check_no_grad(target, "target", "soft_margin_loss")
    if input._data.dtype.kind != "f" or _dtype.result_dtype((input, target)) != input.dtype:
        result = _dtype.result_dtype((input, target))
        name = _dtype._LEGACY_NAMES[(result if result.is_floating_point else _dtype.float32).name]
        raise RuntimeError(f"result type {name} can't be cast to the desired output type {_type_name(input)}")
    if registry.BATCHING and any_batched(target):  # the batch of targets as the parameter
        def run(x, t):
            ndim = max(x._data.ndim, t._data.ndim) - 1
            return _reduce_samples(unary(SOFT_MARGIN_LOSS, pad(x, ndim), (pad(t, ndim)._data, "none")), reduction)
        return on_batch(run, input, target)
    return unary(SOFT_MARGIN_LOSS, input, (target._data, reduction))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """One logistic loss per class, averaged over the classes (the last dim)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    loss = -(target * log_sigmoid(input) + (1 - target) * log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input._data.ndim - 1
    loss = loss.sum(class_dim) / input._data.shape[class_dim]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


_COSINE_EPSILON = float(np.float32(1e-12))  # PyTorch's constexpr float EPSILON


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """``1 - cos(input1, input2)`` for target 1, ``max(0, cos - margin)`` for target -1."""
    reduction = _reduction(reduction, size_average, reduce)
    dim = target._data.ndim
    if dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    expected = 2 if dim == 1 else 1
    if input1._data.ndim != expected:
        raise RuntimeError(f"{dim}D target tensor expects {expected}D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = (input1 * input1).sum(dim) + _COSINE_EPSILON
    mag_square2 = (input2 * input2).sum(dim) + _COSINE_EPSILON
    cos = prod_sum / sqrt(mag_square1 * mag_square2)
    pos = 1 - cos
    neg = clamp_min(cos - margin, 0)
    output = where(target == 1, pos, 0.0) + where(target == -1, neg, 0.0)
    return _reduce(output, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """``max(0, d(anchor, positive) - d(anchor, negative) + margin)`` with the p-norm
    distance; ``swap`` uses d(positive, negative) where it is the smaller."""
    reduction = _reduction(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = anchor._data.ndim, positive._data.ndim, negative._data.ndim
    if len(set(dims)) != 1:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative "
                           f"{dims[2]}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = _red.minimum(dist_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce(clamp_min(margin + dist_pos - dist_neg, 0), reduction)


# --- multi_margin_loss ------------------------------------------------------------------------
# Per sample: sum over classes j != y of max(0, margin - x[y] + x[j]) ** p, times weight[y],
# over the number of classes. ``onehot`` marks y; ``scale`` is weight[y] / C per sample.

def _multi_margin(x, onehot, scale, p, margin, reduction, out_shape):
    x2 = x.reshape(onehot.shape)
    hinge = np.where(onehot, 0, np.maximum(margin - x2[onehot][:, None] + x2, 0))
    loss = ((hinge if p == 1 else hinge * hinge).sum(1) * scale).astype(x.dtype)
    return loss.reshape(out_shape) if reduction == "none" else _np_reduce(loss, reduction)


def _multi_margin_slopes(x, onehot, scale, p, margin):
    """d loss_i / d x_ij, as a chainrule expression of x (differentiable for p = 2)."""
    x2 = x.reshape(onehot.shape)
    hot = _wrap(onehot)
    hinge = margin - (x2 * hot).sum(1, keepdim=True) + x2
    active = _wrap((hinge._data > 0) & ~onehot)
    slope = active * (1.0 if p == 1 else 2 * hinge) * _wrap(scale[:, None])
    return slope - hot * slope.sum(1, keepdim=True)


def _multi_margin_vjp(g, x, onehot, scale, p, margin, reduction, out_shape):
    slopes = _multi_margin_slopes(x, onehot, scale, p, margin)
    g = g.reshape(-1, 1) if reduction == "none" else _spread(g, reduction, onehot.shape[0])
    return (g * slopes).reshape(x.shape)


def _multi_margin_jvp(t, x, onehot, scale, p, margin, reduction, out_shape):
    per_sample = (_multi_margin_slopes(x, onehot, scale, p, margin) * t.reshape(onehot.shape)).sum(1)
    return per_sample.reshape(out_shape) if reduction == "none" else _reduce(per_sample, reduction)


MULTI_MARGIN_LOSS = defop("multi_margin_loss", _multi_margin, node="MultiMarginLossBackward0",
                          save=lambda ans, x, *params: (x, *params),
                          vjp=_multi_margin_vjp, jvp=_multi_margin_jvp)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """The multi-class hinge loss: every wrong class within ``margin`` of the right one
    costs its distance to the margin (squared for p = 2)."""
    reduction = _reduction(reduction, size_average, reduce)
    if registry.BATCHING and any_batched(weight):  # each sample's classes weighted its own way
        return per_sample(multi_margin_loss, input, target, p, margin, weight, None, None, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight._data.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    _check_no_grad(weight, "weight", "multi_margin_loss")
    shape = input._data.shape
    if not ((len(shape) == 2 and shape[1] != 0) or (len(shape) == 1 and shape[0] != 0) or len(shape) == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(shape)}")
    n, n_classes = (1, shape[0] if shape else 1) if len(shape) <= 1 else shape
    t = target._data
    if len(shape) == 2 and (t.ndim > 1 or t.size != n):
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of "
                           f"input samples (batch size). Expected target size [{n}], but got {list(t.shape)}. "
                           f"Input has shape {list(shape)}.")
    if t.ndim > 1 or t.size != n:
        raise RuntimeError(f"inconsistent target size, expected {n} but got {list(t.shape)}")
    if weight is not None and weight._data.size != n_classes:
        raise RuntimeError(f"inconsistent weight size, expected {n_classes} but got {list(weight._data.shape)}")
    if t.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {_type_name(target)}")
    _check_floating(input, "multi_margin_loss_cpu_kernel")
    if registry.BATCHING and any_batched(input, target):  # the samples' rows as one batch of rows
        def run(x, t):
            loss = multi_margin_loss(x.reshape(-1, n_classes), t.reshape(-1), p, margin, weight, reduction="none")
            return _reduce_samples(loss.reshape(t._data.shape), reduction)
        return on_batch(run, input, target)
    t = t.reshape(-1)
    if ((t < 0) | (t >= n_classes)).any():
        raise RuntimeError("target out of range")
    onehot = np.arange(n_classes) == t[:, None]
    scale = (np.ones(n) if weight is None else weight._data[t]).astype(input._data.dtype) / n_classes
    return unary(MULTI_MARGIN_LOSS, input, (onehot, scale, p, margin, reduction, target._data.shape))

