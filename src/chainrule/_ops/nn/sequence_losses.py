"""Sequence losses: CTC, the loss of a labelling summed over every alignment to the input.

The target ``[a, b]`` is read through its extended labelling ``[_, a, _, b, _]`` (``_`` the
blank): an alignment walks it left to right, one position per time step, staying, stepping
one on, or skipping a blank between two different labels. ``alpha[t, s]`` is the log
probability of all walks of t + 1 steps ending at position s; the loss is minus the log of
the walks that end on the last label or the blank after it. ``beta`` is the same walked
backwards; ``alpha + beta`` gives, per time step, how much of the probability passes
through each class.

>>> lp = chainrule.randn(4, 1, 3).log_softmax(2)
>>> chainrule.nn.functional.ctc_loss(lp, chainrule.tensor([[1, 2]]), (4,), (2,))
tensor(..., grad_fn=<MeanBackward0>)
"""
import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import Tensor, _wrap
from ..pointwise.elementwise import where
from .losses import _reduction
from ..batching import any_batched, batched_by, on_batch, per_sample
from ..registry import defop, unary

_NEG_INF = -np.inf


def _extended(targets, target_lengths, blank):
    """``(labels, skips)``: the extended labelling of each target (N, 2S + 1), blanks
    between and around the labels, and where a walk may skip the blank before a label."""
    n, s = targets.shape
    labels = np.full((n, 2 * s + 1), blank, dtype=np.int64)
    labels[:, 1::2] = targets
    skips = np.zeros(labels.shape, dtype=bool)
    skips[:, 3::2] = targets[:, 1:] != targets[:, :-1]
    past_end = np.arange(2 * s + 1) >= 2 * target_lengths[:, None] + 1
    return labels, skips, past_end


def _shift(a, k):
    """``a`` moved k positions right along its last axis, -inf coming in."""
    out = np.full_like(a, _NEG_INF)
    out[..., k:] = a[..., :-k]
    return out


def _logsumexp3(a, b, c):
    top = np.maximum(np.maximum(a, b), c)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.exp(a - safe) + np.exp(b - safe) + np.exp(c - safe))


def _alpha(lp, labels, skips, past_end, input_lengths):
    """The forward variables (T, N, 2S + 1), -inf outside the walks; time steps past an
    input's length copy the last one, so its loss can be read at T - 1."""
    emit = np.take_along_axis(lp, labels[None], axis=2)  # (T, N, 2S + 1): lp of each position's label
    alpha = np.full(emit.shape, _NEG_INF)
    alpha[0, :, :2] = emit[0, :, :2]
    alpha[0][past_end] = _NEG_INF
    for t in range(1, lp.shape[0]):
        prev = alpha[t - 1]
        step = _logsumexp3(prev, _shift(prev, 1), np.where(skips, _shift(prev, 2), _NEG_INF)) + emit[t]
        step[past_end] = _NEG_INF
        alpha[t] = np.where((t < input_lengths)[:, None], step, prev)
    return alpha, emit


def _beta(emit, skips, past_end, input_lengths, target_lengths):
    """The backward variables: walks from (t, s) to the end of each input."""
    total, n, width = emit.shape
    rows = np.arange(n)
    last = np.full((n, width), _NEG_INF)
    last[rows, 2 * target_lengths] = 0.0
    last[rows, np.maximum(2 * target_lengths - 1, 0)] = np.where(target_lengths > 0, 0.0, last[rows, 0])
    beta = np.full(emit.shape, _NEG_INF)
    after = np.full((n, width), _NEG_INF)  # beta at t + 1
    skip_next = np.zeros_like(skips)
    skip_next[:, :-2] = skips[:, 2:]
    for t in range(total - 1, -1, -1):
        onward = _logsumexp3(after, _shift(after[..., ::-1], 1)[..., ::-1],
                             np.where(skip_next, _shift(after[..., ::-1], 2)[..., ::-1], _NEG_INF))
        here = np.where((t == input_lengths - 1)[:, None], last, onward) + emit[t]
        here[past_end] = _NEG_INF
        beta[t] = np.where((t < input_lengths)[:, None], here, _NEG_INF)
        after = beta[t]
    return beta


def _nll(alpha, input_lengths, target_lengths):
    rows = np.arange(alpha.shape[1])
    final = alpha[-1]
    end = final[rows, 2 * target_lengths]
    before = np.where(target_lengths > 0, final[rows, np.maximum(2 * target_lengths - 1, 0)], _NEG_INF)
    nll = -np.logaddexp(end, before)
    return np.where(input_lengths > 0, nll, np.where(target_lengths > 0, np.inf, 0.0))


def _ctc_forward(lp, targets, input_lengths, target_lengths, blank, zero_infinity):
    labels, skips, past_end = _extended(targets, target_lengths, blank)
    alpha, _ = _alpha(lp.astype(np.float64), labels, skips, past_end, input_lengths)
    return _nll(alpha, input_lengths, target_lengths).astype(lp.dtype)


def _ctc_gradient(lp, nll, targets, input_lengths, target_lengths, blank, zero_infinity):
    """PyTorch's d loss / d log_probs (T, N, C): ``exp(lp) - posterior``, where the posterior
    of class c at t is the share of the walks through a position labelled c. It is the
    gradient for the logits under a log_softmax (PyTorch folds log_softmax's part in);
    zero past each input's length."""
    lp64 = lp.astype(np.float64)
    labels, skips, past_end = _extended(targets, target_lengths, blank)
    alpha, emit = _alpha(lp64, labels, skips, past_end, input_lengths)
    beta = _beta(emit, skips, past_end, input_lengths, target_lengths)
    both = alpha + beta  # log prob of the walks through (t, s), counting lp[t, s] twice
    top = both.max(axis=2, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    one_hot = labels[..., None] == np.arange(lp.shape[2])  # (N, 2S + 1, C)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        per_class = np.log(np.einsum("tns,nsc->tnc", np.exp(both - top), one_hot)) + top
        grad = np.exp(lp64) - np.exp(per_class + nll.astype(np.float64)[None, :, None] - lp64)
    live = np.arange(lp.shape[0])[:, None] < input_lengths[None, :]
    grad = np.where(live[..., None], grad, 0.0)
    if zero_infinity:
        grad = np.where(np.isinf(nll)[None, :, None], 0.0, grad)
    return grad.astype(lp.dtype)


def _ctc_vjp(g, log_probs, nll, *params):
    return _wrap(_ctc_gradient(log_probs._data, nll, *params)) * g.reshape(1, -1, 1)


def _ctc_jvp(t, log_probs, nll, *params):
    return (_wrap(_ctc_gradient(log_probs._data, nll, *params)) * t).sum((0, 2))


# The gradient is PyTorch's, not the derivative of the forward: it has the extra exp(log_probs)
# of a log_softmax in front (the two agree on what reaches the logits). The jvp contracts it.
CTC_LOSS = defop("ctc_loss", _ctc_forward, node="CtcLossBackward0",
                 save=lambda ans, lp, *params: (lp, ans._data) + params,
                 vjp=_ctc_vjp, jvp=_ctc_jvp)


def _lengths(lengths, name, batch):
    if isinstance(lengths, Tensor):
        lengths = lengths._data
    out = np.asarray(lengths, dtype=np.int64).reshape(-1)
    if out.shape[0] != batch:
        raise RuntimeError(f"{name} must be of size batch_size")
    return out


def _padded_targets(targets, target_lengths, batch):
    """Targets as (N, S), whether given padded or concatenated, with PyTorch's checks."""
    data = targets._data.astype(np.int64)
    if (target_lengths < 0).any():
        raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value "
                           f"{int(target_lengths[target_lengths < 0][0])} (while checking arguments for "
                           "ctc_loss_allocate_outputs)")
    longest = int(target_lengths.max(initial=0))
    if data.ndim == 1:
        total = int(target_lengths.sum())
        if data.shape[0] != total:
            raise RuntimeError(f"Expected tensor to have size {total} at dimension 0, but got size {data.shape[0]} "
                               "for argument #2 'targets' (while checking arguments for ctc_loss_allocate_outputs)")
        padded = np.zeros((batch, longest), dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(target_lengths)[:-1]]).astype(np.int64)
        position = np.arange(longest)
        inside = position < target_lengths[:, None]
        padded[inside] = data[(starts[:, None] + position)[inside]]
        return padded
    if data.shape[0] != batch:
        raise RuntimeError(f"Expected tensor to have size {batch} at dimension 0, but got size {data.shape[0]} for "
                           "argument #2 'targets' (while checking arguments for ctc_loss_allocate_outputs)")
    if data.shape[1] < longest:
        raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but got size "
                           f"{data.shape[1]} for argument #2 'targets' (while checking arguments for "
                           "ctc_loss_allocate_outputs)")
    return data[:, :longest]


def _batch_lengths(lengths, size):
    """A vmap batch's lengths as (B, N): a tensor's batch (an unbatched one is expanded by
    ``on_batch``), or one sample's sequence repeated."""
    if isinstance(lengths, Tensor):
        return np.asarray(lengths._data, dtype=np.int64).reshape(size, -1)
    return np.broadcast_to(np.asarray(lengths, dtype=np.int64).reshape(-1), (size, np.size(lengths)))


def _folded_targets(data, target_lengths):
    """The (B * N, S) padded targets of a batch of samples' targets, padded (B, N, S) or
    concatenated (B, L): sample b's k-th target starts after its own earlier ones."""
    size, n = target_lengths.shape
    if (target_lengths < 0).any():
        raise RuntimeError("a sample's target_lengths are negative")
    lengths = target_lengths.reshape(-1)
    longest = int(lengths.max(initial=0))
    if data.ndim == 3:
        if data.shape[2] < longest:
            raise RuntimeError("a sample's targets are shorter than its longest target")
        return data.reshape(size * n, -1)[:, :longest]
    if (target_lengths.sum(1) != data.shape[1]).any():
        raise RuntimeError("a sample's concatenated targets are not as long as its target lengths")
    starts = np.cumsum(target_lengths, axis=1) - target_lengths + (np.arange(size) * data.shape[1])[:, None]
    position = np.arange(longest)
    inside = position < lengths[:, None]
    padded = np.zeros((size * n, longest), dtype=np.int64)
    padded[inside] = data.reshape(-1)[(starts.reshape(-1, 1) + position)[inside]]
    return padded


def _ctc_folded(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity):
    """ctc_loss of a vmap batch (B at dim 0 of each tensor) in one call: the samples' N
    sequences side by side as one batch of B * N, targets padded per sample, the losses
    reduced per sample. On a bad sample, the samples run one by one: the first bad one
    raises its own error, as the loop would."""
    if any_batched(targets, input_lengths, target_lengths):  # a nested vmap batches their values one level down
        return per_sample(ctc_loss, log_probs, targets, input_lengths, target_lengths, blank, reduction,
                          zero_infinity)
    unbatched = log_probs._data.ndim == 3
    lp = log_probs.unsqueeze(2) if unbatched else log_probs
    size, total, n, classes = lp._data.shape
    data = targets._data.astype(np.int64)
    try:
        lengths = _batch_lengths(input_lengths, size), _batch_lengths(target_lengths, size)
        if lengths[0].shape[1] != n or lengths[1].shape[1] != n:
            raise RuntimeError("a sample's lengths are not one per sequence")
        padded, bad = _folded_targets(data, lengths[1]), None
    except (RuntimeError, ValueError) as error:
        bad = error
    if bad is not None:
        for b in range(size):  # raises the first bad sample's error
            ctc_loss(log_probs[b], targets[b], input_lengths[b] if isinstance(input_lengths, Tensor) else input_lengths,
                     target_lengths[b] if isinstance(target_lengths, Tensor) else target_lengths, blank, reduction,
                     zero_infinity)
        raise bad
    lp = lp.permute(1, 0, 2, 3).reshape(total, size * n, classes)
    loss = ctc_loss(lp, _wrap(padded), lengths[0].reshape(-1), lengths[1].reshape(-1), blank, "none",
                    zero_infinity).reshape(size, n)
    if reduction == "mean":
        return (loss / _wrap(np.maximum(lengths[1], 1).astype(loss._data.dtype))).mean(1)
    if reduction == "sum":
        return loss.sum(1)
    return loss.reshape(size) if unbatched else loss


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean",
             zero_infinity=False):
    """Connectionist Temporal Classification loss (see the module docstring).

    ``log_probs`` (T, N, C) or unbatched (T, C); ``targets`` padded (N, S) or all targets
    concatenated; ``'mean'`` divides each loss by its target length, then averages."""
    if isinstance(reduction, int):  # torch.ctc_loss takes ATen's enum: 0 none, 1 mean, 2 sum
        reduction = ("none", "mean", "sum")[reduction]
    return _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, _reduction(reduction), zero_infinity)


@batched_by(lambda log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity: on_batch(
    lambda *args: _ctc_folded(*args, blank, reduction, zero_infinity), log_probs, targets, input_lengths,
    target_lengths))
def _ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity):
    unbatched = log_probs._data.ndim != 3
    if unbatched:  # the targets stay as given: 1-d ones are read as concatenated, as PyTorch does
        log_probs = log_probs.unsqueeze(1)  # (PyTorch's Python wrapper: before any kernel check)
    if log_probs._data.dtype not in (np.float32, np.float64):
        raise _dtype.not_implemented("ctc_loss_cpu", log_probs._data.dtype)
    if not log_probs._data.size:  # the composite's check, before ctc_loss_allocate_outputs'
        raise RuntimeError("log_probs tensor must not be empty")
    if log_probs._data.ndim != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs._data.ndim}-dimensional tensor for "
                           "argument #1 'log_probs' (while checking arguments for ctc_loss_allocate_outputs)")
    if not 1 <= targets._data.ndim <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets._data.ndim}-dimensional tensor for argument "
                           "#2 'targets' (while checking arguments for ctc_loss_allocate_outputs)")
    total, batch, classes = log_probs._data.shape
    if not 0 <= blank < classes:
        raise RuntimeError("blank must be in label range")
    input_lengths = _lengths(input_lengths, "input_lengths", batch)
    target_lengths = _lengths(target_lengths, "target_lengths", batch)
    padded = _padded_targets(targets, target_lengths, batch)  # the targets' checks, then the inputs'
    if (input_lengths > total).any():
        raise RuntimeError(f"Expected input_lengths to have value at most {total}, but got value "
                           f"{int(input_lengths[input_lengths > total][0])} (while checking arguments for "
                           "ctc_loss_allocate_outputs)")
    loss = unary(CTC_LOSS, log_probs, (padded, input_lengths, target_lengths, blank, zero_infinity))
    if zero_infinity:
        loss = where(loss == np.inf, _wrap(np.zeros((), loss._data.dtype)), loss)
    if reduction == "mean":
        divisor = _wrap(np.maximum(target_lengths, 1).astype(loss._data.dtype))
        return (loss / divisor).mean()
    if reduction == "sum":
        return loss.sum()
    return loss.squeeze(0) if unbatched else loss


def ctc_loss_aten(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False):
    """``torch.ctc_loss``: the same loss, its reduction ATen's enum; called without one, it
    reduces nothing (PyTorch 2.13's binding, whatever its signature says)."""
    return ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)
