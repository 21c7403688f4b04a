"""Classification losses: ``nll_loss``, ``cross_entropy`` and the binary cross-entropies.

``nll_loss`` and ``cross_entropy`` share one picking scheme (the target picks one
log-probability per sample, see ``_nll_picks``); with class indices ``cross_entropy`` is
log_softmax and nll_loss fused into one op, named after PyTorch's last node. They are apart
from ``losses`` for their size; the reductions, argument checks and ``_pointwise_rules``
come from there.

>>> x = chainrule.tensor([[0.0, 0.0]], requires_grad=True)
>>> cross_entropy(x, chainrule.tensor([0]))        # log(2)
tensor(0.6931, grad_fn=<NllLossBackward0>)
"""
import math

import numpy as np

from ..._core import arguments as _argparse, dtype as _dtype
from ..._core.tensor import _wrap
from ..._core.modes import FORWARD_AD
from ..tangents import dual_view, tangent_of
from ..._core.modes import GRAD_MODE
from .activations import log_sigmoid
from .softmax import LOG_SOFTMAX, log_softmax, softmax, softmax_backward
from ..batching import aligned, any_batched, batched_by, elementwise, on_batch, per_sample
from ..pointwise.elementwise import where, zeros_like
from ..registry import FROM_VJP, apply, broadcast_error, defop, unary
from ..shape.views import broadcast_shapes
from ..pointwise.unary import clamp_min, sigmoid
from ..pointwise.trigonometry import logit
from .losses import (_check_floating, _check_no_grad, _np_reduce, _pointwise_batched, _pointwise_rules, _reduce,
                     _reduction, _type_name)

# --- nll_loss ----------------------------------------------------------------------------
# The target picks one log-probability per sample: the op keeps the picks (``picks``, flat
# indices of x[n, target[n], ...] in target's shape, ignored targets sent to class 0), their
# weights ``w`` (0 where ignored; None when all are 1) and the mean's divisor ``total``, the
# total weight. Both rules are linear in their input.

def _nll(x, picks, w, total, reduction):
    picked = x.reshape(-1)[picks]
    if w is not None:  # an ignored target adds 0, even where its row's log-probability is nan
        picked = np.where(w == 0, 0, w * picked)
    if reduction == "none":
        # (a 1-d input, its target of shape (1,) too: PyTorch's unbatched path subtracts from +0, as a sum)
        return 0 - picked.reshape(()) if x.ndim == 1 else -picked
    # PyTorch's sum starts at +0 and subtracts: a sum over nothing (or of zeros) is +0, not -0
    if reduction == "sum":
        return 0 - picked.sum()
    return (0 - picked.sum()) / total if total else np.asarray(np.nan, x.dtype)  # a mean over nothing


def _nll_backward(g, x, picks, w, total, reduction):
    if x.ndim == 1 and picks.ndim == 1 and x.shape[0] != 1:
        # the forward read a target of shape (1,) as one class; PyTorch's backward wants N == C
        raise RuntimeError(f"size mismatch (got input: {list(x.shape)}, target: [1])")
    out = np.zeros(x.shape, dtype=g.dtype)
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
    if x._data.ndim == 2 and picks.ndim == 1:  # one sample's (C,) input with a target of shape (1,)
        picks, w = picks.reshape(()), None if w is None else w.reshape(())
    tagged, w = _picks_of_batch(picks, w, x, x._data.shape[1:])
    losses = apply(op, (x,), (tagged, w, total, "none"), dtype)
    if reduction == "none":
        return losses
    summed = losses.reshape(x._data.shape[0], -1).sum(1)
    return summed if reduction == "sum" else summed / float(total)


def _nll_backward_batch(op, args, batched, params, dtype):
    """nll_loss_backward of a batch of cotangents ``g`` (or inputs x): a reduced loss's g
    (one number per sample) spread over the sample's picks, then one unreduced call."""
    (g, x), _ = aligned(args, batched, same_rank=False)
    picks, w, total, reduction = params
    if reduction == "mean" and not total:
        return None  # the backward of a mean over nothing: zeros, but nan for its own vjp
    tagged, w = _picks_of_batch(picks, w, g, x._data.shape[1:])
    if reduction != "none":
        g = (g if reduction == "sum" else g / float(total)).reshape(tagged.shape[:1] + (1,) * picks.ndim)
        g = g.expand(tagged.shape)
    return apply(op, (g, x), (tagged, w, total, "none"), dtype)


def _nll_rules(node, backward_node):
    """One rule set, two of PyTorch's names: nll_loss and nll_loss2d (4-d inputs). As
    PyTorch's, the backward takes the forward's input x too, ignoring its values: under
    create_graph a gradient is connected to x, with derivative zero there."""
    def forward_op(t, picks, w, total, reduction):
        return unary(ops[0], t, (picks, w, total, reduction))

    def backward_op(g, x, *params):
        return apply(ops[1], (g, x), params)

    ops = (
        defop(node[0], _nll, node=node[1], batch=_nll_batch,
              save=lambda ans, x, *params: (x, *params),
              vjp=backward_op, jvp=lambda t, x, *params: forward_op(t, *params)),
        # the transpose of the backward is the forward (nan, as in PyTorch, for a mean over
        # nothing, where the backward itself is 0)
        defop(backward_node[0], _nll_backward, node=backward_node[1], batch=_nll_backward_batch,
              save=lambda ans, g, x, *params: (x, *params),
              vjp=(lambda gg, x, *params: forward_op(gg, *params), lambda gg, x, *params: zeros_like(x)),
              jvp=(backward_op, lambda t, x, *params: zeros_like(t))))
    return ops


NLL_LOSS, NLL_LOSS_BACKWARD = _nll_rules(("nll_loss", "NllLossBackward0"),
                                         ("nll_loss_backward", "NllLossBackwardBackward0"))
NLL_LOSS2D, NLL_LOSS2D_BACKWARD = _nll_rules(("nll_loss2d", "NllLoss2DBackward0"),
                                             ("nll_loss2d_backward", "NllLoss2DBackwardBackward0"))


def _nll_picks(input, target, weight, ignore_index, name):
    """The op's parameters for ``target``, after PyTorch's dtype, weight and bounds checks."""
    x, t = input._data, target._data
    _check_target_dtype(target)
    if x.ndim == 2 and t.ndim == 0:  # PyTorch's kernel reads the target's size(0)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
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


def _check_target_dtype(target):
    if target._data.dtype != np.int64 and target._data.dtype != np.uint8:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_type_name(target)}")


def _flat_picks(shape, index):
    """Flat indices into an array of ``shape`` (C,) or (N, C, ...) of its elements
    [n, index[n, ...], ...]."""
    if len(shape) == 1:
        return index
    n, c, inner = shape[0], shape[1], math.prod(shape[2:])
    rows = np.arange(n) * (c * inner)  # where each sample starts (an empty inner dim too)
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
    _check_target_dtype(target)
    if len(x_shape) == 1 and len(t_shape) == 1 and t_shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {t_shape[0]}")
    _check_no_grad(weight, "weight", "nll_loss_forward")
    _check_weight(weight, x_shape[-1])
    if len(x_shape) == 1 and len(t_shape) == 1:  # one class, picked as a 0-d target's; kept (1,) for the backward
        picks, w, total = _nll_picks(input, target.reshape(()), weight, ignore_index, "nll_loss")
        return picks.reshape(1), None if w is None else w.reshape(1), total
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
    _check_target_dtype(target)
    if target._data.dtype == np.uint8:  # the 2-d kernel reads int64 targets only
        raise RuntimeError("expected scalar type Long but found Byte")
    return unary(NLL_LOSS2D, input, _nll_picks(input, target, weight, ignore_index, "nll_loss2d_forward") +
                 (reduction,))


def _check_batch(input, target):
    ndim = input._data.ndim
    if ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {ndim})")
    x_shape, t_shape = input._data.shape, target._data.shape
    target_batch = t_shape[0] if t_shape else 0  # PyTorch reads a 0-d target's batch size as 0
    if ndim != 1 and x_shape[0] != target_batch:
        raise ValueError(f"Expected input batch_size ({x_shape[0]}) to match target batch_size ({target_batch}).")


def _nll_loss_batched(input, target, weight, reduction, ignore_index):
    if any_batched(weight):  # each sample's classes weighted its own way
        return per_sample(nll_loss, input, target, weight, None, ignore_index, None, reduction)
    return _class_loss_batch(lambda x, t, r: _nll_loss_nd(x, t, weight, r, ignore_index), input, target,
                             weight, reduction, ignore_index)


@batched_by(_nll_loss_batched)
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
    if not t_shape:  # PyTorch slices the target's sizes from dim 1
        raise RuntimeError("ArrayRef: invalid slice, N = 1; size = 0")
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
                     vjp=lambda g, count: g / count, jvp=FROM_VJP, elementwise=True)


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
    grad = _nll_backward(g, x, picks, w, total, reduction)
    return grad - np.exp(log_p.of(x, dim)) * grad.sum(axis=dim, keepdims=True)


def cross_entropy_backward(g, x, *params):
    return apply(CROSS_ENTROPY_BACKWARD, (g, x), params)


def _picked_total(g, x, log_p, picks, w, total, reduction, dim):
    """sum(G) over the classes, G the nll part of the gradient (it depends on g only)."""
    return apply(NLL_LOSS_BACKWARD, (g, x), (picks, w, total, reduction)).sum(dim, keepdim=True)


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
    grad = _nll_backward_batch(NLL_LOSS_BACKWARD, [g, x], batched, (picks, w, total, reduction), dtype)
    if grad is None:
        return None
    probs = softmax(x, dim + 1 if batched[1] else dim)
    return grad - probs * grad.sum(dim + 1, keepdim=True)


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


def _per_class(label_smoothing, n_classes):
    """label_smoothing / n_classes as C++ divides doubles: no classes, an infinite share."""
    return label_smoothing / n_classes if n_classes else math.inf


def _cross_entropy_probs(input, target, weight, reduction, label_smoothing, class_dim):
    if not input._data.ndim:
        raise IndexError("Dimension specified as 1 but tensor has no dimensions")
    n_classes = input._data.shape[class_dim]
    _check_weight(weight, n_classes, "cross_entropy: ")
    log_p = log_softmax(input, class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
        target = target * (1 - label_smoothing) + _per_class(label_smoothing, n_classes)
    terms = log_p * target
    if weight is not None:
        terms = terms * (_class_shaped(weight, input._data.ndim, class_dim) if input._data.ndim > 1 else weight)
    if reduction == "none":
        return -terms.sum(class_dim)
    if reduction == "sum":
        return -terms.sum()
    if input._data.size == 0:
        return -(terms.sum().fill_(float("nan")))  # PyTorch fills the sum: a tangent of 0, a gradient of 0
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
    return nll * (1 - label_smoothing) + smooth * _per_class(label_smoothing, n_classes)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """``nll_loss(log_softmax(input, 1), target)`` for class indices (one fused op for
    (N, C) and (C,) inputs, see CROSS_ENTROPY); for class probabilities (``target`` of
    input's shape), ``-sum(target * log_softmax(input))``.

    >>> cross_entropy(chainrule.tensor([[2.0, 0.0]]), chainrule.tensor([0]))
    tensor(0.1269)
    """
    reduction = _reduction(reduction, size_average, reduce)
    try:
        indices = input._data.shape != target._data.shape
    except AttributeError:
        _argparse.check_tensor("cross_entropy_loss", input)
        _argparse.check_tensor("cross_entropy_loss", target, "target", 2)
        raise
    return _cross_entropy_checked(input, target, weight, ignore_index, reduction, label_smoothing, indices)


def _cross_entropy_batched(input, target, weight, ignore_index, reduction, label_smoothing, indices):
    if not indices:  # probabilities need no values: the ops' rules
        return NotImplemented
    if any_batched(weight):
        return per_sample(cross_entropy, input, target, weight, None, ignore_index, None, reduction, label_smoothing)
    # with label smoothing too: the smoothing term's mean has the same divisor
    return _class_loss_batch(lambda x, t, r: cross_entropy(x, t, weight, ignore_index=ignore_index, reduction=r,
                                                           label_smoothing=label_smoothing),
                             input, target, weight, reduction, ignore_index)


@batched_by(_cross_entropy_batched)
def _cross_entropy_checked(input, target, weight, ignore_index, reduction, label_smoothing, indices):
    class_dim = 0 if input._data.ndim == 1 else 1
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
    if input._data.dtype.kind != "f" and input._data.size:  # log_softmax runs no kernel on an empty input
        raise NotImplementedError(f"\"log_softmax_lastdim_kernel_impl\" not implemented for '{_type_name(input)}'")
    _check_batch(input, target)
    params = _nll_params(input, target, weight, ignore_index)
    return unary(CROSS_ENTROPY, input, (_LogProbabilities(),) + params + (reduction, class_dim))


# --- binary cross-entropy ------------------------------------------------------------------

_EPSILON = 1e-12  # the double backward's
_KERNEL_EPSILON = float(np.float32(1e-12))  # the backward kernel's, a C++ float


def _bce(x, t, reduction, w):
    bad_x, bad_t = ~((x >= 0) & (x <= 1)), ~((t >= 0) & (t <= 1))  # nan is out of range too
    if bad_x.any() or bad_t.any():  # PyTorch's kernel checks input then target, element by element
        first = np.flatnonzero(bad_x | bad_t)[0]
        raise RuntimeError(f"all elements of {'input' if bad_x.flat[first] else 'target'} should be between 0 and 1")
    with np.errstate(divide="ignore"):
        loss = (t - 1) * np.maximum(np.log1p(-x), -100) - t * np.maximum(np.log(x), -100)
    return _np_reduce(loss if w is None else loss * w, reduction)


def _np_bce_backward(g, x, t, reduction, w):
    # PyTorch's kernel: g (x - t) / max((1 - x) x, eps), times the weight, over the count
    with np.errstate(invalid="ignore"):
        grad = g * (x - t) / np.maximum((1 - x) * x, _KERNEL_EPSILON)
    if w is not None:
        grad = grad * w
    return grad / x.size if reduction == "mean" and x.size else grad


def _count(x, reduction):
    return x.numel() if reduction == "mean" and x.numel() else 1


def _bce_double_backward(g, gg, x, t, reduction, w):
    """PyTorch's binary_cross_entropy_double_backward: the second derivative in x,
    (x^2 - 2 x t + t) / ((x + eps)^2 (1 - x + eps)^2), not that of the clamped first."""
    out = (x * x - 2 * x * t + t) / ((x + _EPSILON) ** 2 * (1 - x + _EPSILON) ** 2) * (gg * g)
    if w is not None:
        out = out * _wrap(w)
    return out / _count(x, reduction)


def _bce_double_backward_target(gg, g, x, t, reduction, w):
    """PyTorch's binary_cross_entropy_double_backward_target: -gg g / max((1 - x) x, eps)."""
    out = -gg * g
    if w is not None:
        out = out * _wrap(w)
    return out / clamp_min((1 - x) * x, _EPSILON).detach() / _count(t, reduction)


def _bce_backward_batch(op, args, batched, params, dtype):
    """Elementwise, the mean's count that of one sample."""
    reduction, w = params
    grad = elementwise(op, args, batched, ("none", w), dtype)
    x = args[1]
    n = x._data.size // x._data.shape[0] if batched[1] else x._data.size
    return grad / n if reduction == "mean" and n else grad


BCE_BACKWARD = defop(
    "binary_cross_entropy_backward", _np_bce_backward, node="BinaryCrossEntropyBackwardBackward0",
    batch=_bce_backward_batch, save=lambda ans, g, x, t, reduction, w: (g, x, t, reduction, w),
    vjp=(lambda gg, g, x, t, reduction, w: bce_backward(gg, x, t, reduction, w),
         lambda gg, g, x, t, reduction, w: _bce_double_backward(g, gg, x, t, reduction, w),
         lambda gg, g, x, t, reduction, w: _bce_double_backward_target(gg, g, x, t, reduction, w)),
    jvp=(lambda tg, g, x, t, reduction, w: bce_backward(tg, x, t, reduction, w),
         lambda tx, g, x, t, reduction, w: _bce_double_backward(g, tx, x, t, reduction, w),
         lambda tt, g, x, t, reduction, w: _bce_double_backward_target(tt, g, x, t, reduction, w)))


def bce_backward(g, x, t, reduction, w):
    return apply(BCE_BACKWARD, (g, x, t), (reduction, w))


def _bce_target_backward(g, x, t, reduction, w):
    """PyTorch's binary_cross_entropy_target_backward: -logit(x) g, composed."""
    grad = -logit(x) * g
    if w is not None:
        grad = grad * _wrap(w)
    return grad / _count(t, reduction)


def _bce_tangent(backward):
    def rule(tangent, x, t, reduction, w):
        return _reduce(backward(tangent, x, t, "none", w), reduction)
    return rule


BINARY_CROSS_ENTROPY = defop(
    "binary_cross_entropy", _bce, node="BinaryCrossEntropyBackward0", batch=_pointwise_batched,
    save=lambda ans, x, t, reduction, w: (x, t, reduction, w),
    vjp=(lambda g, x, t, reduction, w: bce_backward(g, x, t, reduction, w), _bce_target_backward),
    jvp=(_bce_tangent(bce_backward), _bce_tangent(_bce_target_backward)))


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
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    _check_floating(input, "binary_cross_entropy")
    if FORWARD_AD.active and tangent_of(input) is not None and tangent_of(target) is None:
        # PyTorch's formula takes a missing target tangent as zeros, and its term -logit(x) * 0
        # is nan where x is 0 or 1: the tangent of the loss there is nan, as in PyTorch
        target = dual_view(target, zeros_like(target))
    return apply(BINARY_CROSS_ENTROPY, (input, target), (reduction, w))


def _bce_logits(x, t, reduction, w, pw):
    """PyTorch's composition: log_sigmoid(x) in x's dtype (half precision through float32),
    then (1 - t).mul_(x).sub_(log_sigmoid), written into t's dtype at each step."""
    wide = x.astype(np.float32) if x.dtype == np.float16 else x
    # -log sigmoid(x) = log(1 + e^-|x|) + max(-x, 0), exact for every x
    softplus = (np.log1p(np.exp(-np.abs(wide))) + np.maximum(-wide, 0)).astype(x.dtype, copy=False)
    if pw is not None:
        softplus = (softplus * (1 + (pw - 1) * t)).astype(x.dtype, copy=False)
    loss = ((1 - t) * x).astype(t.dtype, copy=False)
    loss = (loss + softplus).astype(t.dtype, copy=False)
    if w is not None:
        loss = (loss * w).astype(t.dtype, copy=False)
    return _np_reduce(loss, reduction)


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
    if input._data.dtype.kind != "f":  # PyTorch's formula takes log_sigmoid of the input
        raise _dtype.not_implemented("log_sigmoid_cpu", input._data.dtype)
    if target._data.dtype == np.bool_:  # then 1 - target
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    out_dtype = _dtype.result_dtype((input, target))
    if not _dtype.can_cast(out_dtype, target.dtype):  # (1 - target).mul_(input): in target's dtype
        raise RuntimeError(f"result type {_dtype._LEGACY_NAMES[out_dtype.name]} can't be cast to the desired "
                           f"output type {_type_name(target)}")
    if target._data.dtype.kind == "c" and input._requires_grad and GRAD_MODE.enabled:
        raise RuntimeError("binary_cross_entropy_with_logits does not support automatic differentiation for "
                           "outputs with complex dtype.")
    if pos_weight is not None:
        try:
            np.broadcast_shapes(pos_weight._data.shape, target._data.shape)
        except ValueError as e:
            raise broadcast_error(e, pos_weight._data.shape, target._data.shape) from None
    w = None if weight is None else weight._data
    pw = None if pos_weight is None else pos_weight._data
    return apply(BCE_WITH_LOGITS, (input, target), (reduction, w, pw))

