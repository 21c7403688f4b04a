"""Loss functions (``torch.nn.functional.*_loss``), built as PyTorch builds them: the
shared reduction and argument helpers, and the regression, distribution and margin losses.

Losses that have a kernel of their own in PyTorch (``mse_loss``, ``huber_loss``,
``multi_margin_loss``...) are one entry here, under PyTorch's node name; the losses
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
The classification losses (``nll_loss``, ``cross_entropy``, ``binary_cross_entropy``)
live in ``classification_losses``, ``ctc_loss`` in ``sequence_losses``: both import the
helpers from here.
"""
import math
import warnings

import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import Tensor, _wrap
from ..._core.modes import GRAD_MODE
from ..._autograd.grad_mode import no_grad
from ..reduce import reductions as _red
from .activations import log_sigmoid
from ..pointwise.binary import xlogy
from ..batching import batched_by, elementwise, has_values, on_batch, pad, PER_SAMPLE
from ..pointwise.elementwise import where
from ..operands import _no_derivative, without_derivative
from .normalization import pairwise_distance
from ..registry import apply, broadcast_error, defop, unary
from ..pointwise.unary import _log1p, abs, clamp_min, exp, log, sigmoid, sqrt

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
            if loss.size:
                return loss.mean()
            return np.asarray(complex(np.nan, np.nan) if loss.dtype.kind == "c" else np.nan, loss.dtype)
    if reduction == "sum":
        return loss.sum()
    return loss


def _spread(g, reduction, n):
    """The upstream gradient of a reduced loss, per element of the unreduced one (of
    which there are ``n``: none, and nothing is spread)."""
    return g / n if reduction == "mean" and n else g


def _type_name(t):
    return _dtype._LEGACY_NAMES[t.dtype.name]


def _check_floating(t, kernel, half=True):
    """The kernel's dispatch: floating dtypes (but float16 where ``half`` is False)."""
    if t._data.dtype.kind != "f" or (not half and t._data.dtype == np.float16):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(t)}'")


def _check_no_grad(t, argument, function):
    """PyTorch refuses a tensor that requires grad where its kernel has no rule for it."""
    if t is not None and t._requires_grad and GRAD_MODE.enabled:
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to argument "
                           f"'{argument}'. This input cannot have requires_grad True.")


def _broadcast_pair(input, target):
    """``torch.broadcast_tensors(input, target)`` after the size warning that the pointwise
    losses give."""
    try:
        different = target.shape != input.shape
    except AttributeError:  # PyTorch compares ``target.size()`` and ``input.size()``: its error
        different = target.size() != input.size()
    if different:
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
    def vjp(d, of_target):
        def rule(g, x, t, reduction, *params):
            slope = d(x, _as_number(t, x), *params)
            grad = _spread(g, reduction, slope.numel()) * slope
            wanted = (t if of_target else x).dtype  # PyTorch's engine casts a gradient to its input's dtype
            return grad if grad.dtype == wanted else grad.to(wanted)
        return rule

    def jvp(d):
        return lambda tangent, x, t, reduction, *params: _reduce(d(x, _as_number(t, x), *params) * tangent, reduction)

    return dict(batch=_pointwise_batched, save=lambda ans, x, t, reduction, *params: (x, t, reduction, *params),
                vjp=(vjp(d_input, False), vjp(d_target, True)), jvp=(jvp(d_input), jvp(d_target)))


def _as_number(t, x):
    """A bool target takes part in PyTorch's backward kernels as 0 and 1; its double-backward
    formulas (create_graph: grad mode on) subtract it, and refuse it as chainrule's ``-`` does."""
    return t.to(x.dtype) if t._data.dtype == np.bool_ and not GRAD_MODE.enabled else t


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

def _mse_difference(x, t):
    """x - t as PyTorch's mse_loss_backward kernel takes it: a bool operand as 0 and 1, in its
    double backward too (which never subtracts the operands again)."""
    if t._data.dtype == np.bool_:
        t = t.to(x.dtype)
    if x._data.dtype == np.bool_:
        x = x.to(t.dtype)
    return x - t


def _checked_tangent(rule):
    """``rule``, a tangent of mse or smooth_l1, after PyTorch's check: its tangent is
    loss_backward(x_t, x, t) + loss_backward(t_t, t, x), a missing tangent as zeros, each
    written into its first operand's dtype."""
    def checked(tangent, x, t, *params):
        common = _dtype.result_dtype((x, t))
        for operand in (x, t):
            if not _dtype.can_cast(common, operand.dtype):
                raise RuntimeError(f"result type {_dtype.type_word(common.np)} can't be cast to the desired output "
                                   f"type {_type_name(operand)}")
        return rule(tangent, x, t, *params)
    return checked


_MSE_RULES = _pointwise_rules(lambda x, t: 2 * _mse_difference(x, t), lambda x, t: -2 * _mse_difference(x, t))
def _mse(x, t, reduction):
    """In the result's dtype, as PyTorch: an integer operand is converted first (NumPy would
    compute a float32 input with an int64 target in float64)."""
    if x.dtype.kind != t.dtype.kind:
        x, t = (x, t.astype(x.dtype)) if x.dtype.kind in "fc" else (x.astype(t.dtype), t)
    return _np_reduce((x - t) ** 2, reduction)


MSE_LOSS = defop("mse_loss", _mse,
                 node="MseLossBackward0",
                 **dict(_MSE_RULES, jvp=tuple(map(_checked_tangent, _MSE_RULES["jvp"]))))


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
    # d / beta inside (-beta, beta), else clamped to ±1 with no slope of its own (PyTorch's double
    # backward); clamping keeps a nan difference nan, as PyTorch's kernel does
    d = _bool_difference(x, t)
    return where(abs(d) < beta, d / beta, (d / beta).detach().clamp(-1.0, 1.0))


def _refuse_bool_subtraction(grad):
    raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                       "invert a mask, use the `~` or `logical_not()` operator instead.")


def _bool_difference(x, t):
    """x - t as smooth_l1's backward kernel takes it, a bool operand as 0 and 1; its double
    backward subtracts the operands itself and refuses them: PyTorch's error, raised where
    a second derivative reaches the difference."""
    if x._data.dtype != np.bool_ and t._data.dtype != np.bool_:
        return x - t
    d = _mse_difference(x, t)
    if d.requires_grad:
        d.register_hook(_refuse_bool_subtraction)
    return d


_SMOOTH_L1_RULES = _pointwise_rules(_smooth_l1_slope, lambda x, t, beta: -_smooth_l1_slope(x, t, beta))
SMOOTH_L1_LOSS = defop("smooth_l1_loss", _smooth_l1, node="SmoothL1LossBackward0",
                       **dict(_SMOOTH_L1_RULES, jvp=tuple(map(_checked_tangent, _SMOOTH_L1_RULES["jvp"]))))


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
    d = x - t  # as smooth_l1's: d inside (-delta, delta), else clamped, nan kept
    return where(abs(d) < delta, d, d.detach().clamp(-delta, delta))


def _checked_huber(rule, wanted):
    """``rule`` after PyTorch's check: huber_loss_backward(g, a, b) wants b in a's dtype; the
    input's gradient is huber_loss_backward(g, x, t), the target's and every tangent's (its
    target term raises first) huber_loss_backward(g, t, x)."""
    def checked(g, x, t, *params):
        if t._data.dtype != x._data.dtype:
            found, expected = (t, x) if wanted == "input" else (x, t)
            raise RuntimeError(f"Found dtype {_type_name(found)} but expected {_type_name(expected)}")
        return rule(g, x, t, *params)
    return checked


_HUBER_RULES = _pointwise_rules(_huber_slope, lambda x, t, delta: -_huber_slope(x, t, delta))
HUBER_LOSS = defop("huber_loss", _huber, node="HuberLossBackward0",
                   **dict(_HUBER_RULES,
                          vjp=(_checked_huber(_HUBER_RULES["vjp"][0], "input"),
                               _checked_huber(_HUBER_RULES["vjp"][1], "target")),
                          jvp=tuple(_checked_huber(rule, "target") for rule in _HUBER_RULES["jvp"])))


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """smooth_l1_loss times ``delta`` (quadratic below ``delta``); the result has input's dtype."""
    input, target = _broadcast_pair(input, target)
    if weight is not None:
        return _weighted(huber_loss(input, target, "none", delta), weight, reduction, lambda loss: loss.mean())
    reduction = _reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    common = _dtype.result_dtype((input, target))  # PyTorch's kernel runs in it, writing input's dtype
    if not _dtype.can_cast(common, input.dtype):
        raise RuntimeError(f"result type {_dtype.type_word(common.np)} can't be cast to the desired output type "
                           f"{_dtype.type_word(input._data.dtype)}")
    if not common.is_floating_point:
        raise _dtype.not_implemented("huber_cpu", common.np)
    return apply(HUBER_LOSS, (input, target), (reduction, delta), input._data.dtype)


# --- distribution losses -------------------------------------------------------------------


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
    kinds = input._data.dtype.kind + target._data.dtype.kind
    if "c" in kinds:
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if set(kinds) & set("biu"):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = exp(target) * (target - input)
    else:  # PyTorch's xlogy: its gradient t / t is nan at t = 0, as PyTorch's
        loss = xlogy(target, target) - target * input
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
        # PyTorch's var * ones_like(input): an integer input's ones make a tensor of the default dtype
        kind = input._data.dtype.kind
        var = _wrap(np.full(input._data.shape, var, input._data.dtype if kind in "fc" else
                            _dtype.get_default_dtype().np))
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
    # PyTorch's C++: margin - input is a tensor like input filled with margin, minus input, so
    # the loss keeps input's dtype (int or bool inputs fail where PyTorch's fail)
    margin_clamp = clamp_min(input.new_full(input.shape, margin) - input, 0)
    zero = input.new_zeros(())
    output_margin = where(target != 1, margin_clamp, zero)
    output_self = where(target != -1, input, zero)
    return _reduce(output_margin + output_self, reduction)


def _soft_margin(x, t, reduction):
    # PyTorch: neg(input).mul_(target), in the input's dtype; a 0-d target is a CPU scalar there,
    # read in the op math type (float32 for float16: an int64 target of 9e6 is not inf)
    math_type = np.float32 if x.dtype == np.float16 and t.ndim == 0 else x.dtype
    with np.errstate(over="ignore"):
        z = (-x.astype(math_type) * t.astype(math_type, copy=False)).astype(x.dtype)
    # log(1 + e^z), exact for large z where PyTorch's log1p(exp(z)) overflows (docs/differences.md)
    return _np_reduce(np.logaddexp(0, z) if x.dtype.kind == "f" else _log1p(np.exp(z)), reduction)


def _soft_margin_slope(x, t):
    if t._data.dtype == np.bool_:
        -t  # PyTorch's backward negates the target: its error for a bool one  # noqa: B018
    # in the input's dtype: an integer target's negation does not wrap (docs/differences.md)
    t = t.to(x.dtype)
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


def _check_soft_margin(input, target):
    """PyTorch's kernel writes neg(input).mul_(target).exp_() into a tensor of input's
    shape and dtype: each in-place step's checks, in its order."""
    if input._data.dtype.kind == "b":
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    shape, t_shape = input.shape, target.shape
    if t_shape != shape:
        try:
            common = np.broadcast_shapes(shape, t_shape)
        except ValueError as e:
            raise broadcast_error(e, shape, t_shape) from None
        if common != shape:
            raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape {list(common)}")
    result = _dtype.result_dtype((input, target))
    if not _dtype.can_cast(result, input.dtype):  # mul_'s
        raise RuntimeError(f"result type {_dtype.type_word(result.np)} can't be cast to the desired output type "
                           f"{_type_name(input)}")
    if input._data.dtype.kind not in "fc":  # exp_'s
        raise RuntimeError(f"result type {_dtype.type_word(_dtype.get_default_dtype().np)} can't be cast to the "
                           f"desired output type {_type_name(input)}")


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """``log(1 + exp(-target * input))``, the logistic loss for targets ±1."""
    reduction = _reduction(reduction, size_average, reduce)
    _check_no_grad(target, "target", "soft_margin_loss")
    _check_soft_margin(input, target)
    return _soft_margin_loss(input, target, reduction)


def _soft_margin_batched(input, target, reduction):
    """The batch of targets as the parameter of one op call."""
    def run(x, t):
        ndim = max(x._data.ndim, t._data.ndim) - 1
        return _reduce_samples(unary(SOFT_MARGIN_LOSS, pad(x, ndim), (pad(t, ndim)._data, "none")), reduction)
    return on_batch(run, input, target)


@batched_by(_soft_margin_batched, when=("target",))
def _soft_margin_loss(input, target, reduction):
    return unary(SOFT_MARGIN_LOSS, input, (target._data, reduction))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """One logistic loss per class, averaged over the classes (the last dim)."""
    if size_average is not None or reduce is not None:
        reduction = _reduction(reduction, size_average, reduce)
    loss = -(target * log_sigmoid(input) + (1 - target) * log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    if not input._data.ndim:  # PyTorch reads input.size(input.dim() - 1)
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
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
    with np.errstate(invalid="ignore"):  # inf - inf
        z = margin - x2[onehot][:, None] + x2
    hinge = np.where(onehot | ~(z > 0), 0, z)  # as PyTorch's kernel: a z that is not > 0 (nan too) adds nothing
    loss = ((hinge if p == 1 else hinge * hinge).sum(1) * scale).astype(x.dtype)
    return loss.reshape(out_shape) if reduction == "none" else _np_reduce(loss, reduction)


def _multi_margin_slopes(x, onehot, scale, p, margin):
    """d loss_i / d x_ij, as a chainrule expression of x (differentiable for p = 2)."""
    x2 = x.reshape(onehot.shape)
    hot = _wrap(onehot)
    hinge = margin - where(hot, x2, 0.0).sum(1, keepdim=True) + x2  # x[y] selected: a nan elsewhere is not in it
    active = _wrap((hinge._data > 0) & ~onehot)
    # selected, not multiplied by the mask: the right class's own hinge is nan at a nan x[y]
    slope = (active * 1.0 if p == 1 else where(active, 2 * hinge, 0.0)) * _wrap(scale[:, None])
    return slope - hot * slope.sum(1, keepdim=True)


# PyTorch has no derivative for multi_margin_loss_backward: a second backward through it raises
MULTI_MARGIN_BACKWARD = _no_derivative("multi_margin_loss_backward")


def _multi_margin_vjp(g, x, onehot, scale, p, margin, reduction, out_shape):
    slopes = _multi_margin_slopes(x.detach(), onehot, scale, p, margin)
    spread = g.detach().reshape(-1, 1) if reduction == "none" else _spread(g.detach(), reduction, onehot.shape[0])
    return without_derivative(MULTI_MARGIN_BACKWARD, (spread * slopes).reshape(x.shape), (g, x))


def _multi_margin_jvp(t, x, onehot, scale, p, margin, reduction, out_shape):
    per_sample = (_multi_margin_slopes(x, onehot, scale, p, margin) * t.reshape(onehot.shape)).sum(1)
    return per_sample.reshape(out_shape) if reduction == "none" else _reduce(per_sample, reduction)


MULTI_MARGIN_LOSS = defop("multi_margin_loss", _multi_margin, node="MultiMarginLossBackward0",
                          save=lambda ans, x, *params: (x, *params),
                          vjp=_multi_margin_vjp, jvp=_multi_margin_jvp)


@batched_by(PER_SAMPLE, when=("weight",))  # each sample's classes weighted its own way
def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """The multi-class hinge loss: every wrong class within ``margin`` of the right one
    costs its distance to the margin (squared for p = 2)."""
    reduction = _reduction(reduction, size_average, reduce)
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
    if t.ndim > 1 or t.size != n:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of "
                           f"input samples (batch size). Expected target size [{n}], but got {list(t.shape)}. "
                           f"Input has shape {list(shape)}.")
    if weight is not None and weight._data.size != n_classes:
        raise RuntimeError(f"inconsistent weight size, expected {n_classes} but got {list(weight._data.shape)}")
    _check_floating(input, "multi_margin_loss_cpu_kernel", half=False)  # the kernel's dispatch comes first
    if t.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {_type_name(target)}")
    return _multi_margin_loss(input, target, p, margin, weight, reduction, n, n_classes)


def _multi_margin_batched(input, target, p, margin, weight, reduction, n, n_classes):
    """The samples' rows as one batch of rows."""
    def run(x, t):
        loss = multi_margin_loss(x.reshape(-1, n_classes), t.reshape(-1), p, margin, weight, reduction="none")
        return _reduce_samples(loss.reshape(t._data.shape), reduction)
    return on_batch(run, input, target)


@batched_by(_multi_margin_batched)
def _multi_margin_loss(input, target, p, margin, weight, reduction, n, n_classes):
    t = target._data.reshape(-1)
    if ((t < 0) | (t >= n_classes)).any():
        raise RuntimeError("target out of range")
    onehot = np.arange(n_classes) == t[:, None]
    scale = (np.ones(n) if weight is None else weight._data[t]).astype(input._data.dtype) / n_classes
    return unary(MULTI_MARGIN_LOSS, input, (onehot, scale, p, margin, reduction, target._data.shape))
