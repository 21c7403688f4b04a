"""Forward-mode AD, as ``torch.autograd.forward_ad``: dual tensors inside a ``dual_level``.

A dual tensor is a tensor with a tangent attached. While a level holds one, every
registered op gives its output the tangent ``sum_i jvp_i(t_i)`` over the inputs that carry
a tangent. This module is the public API; the propagation and its invariants are in
``_ops.tangents``, the level's state in ``_modes.FORWARD_AD``.

>>> import chainrule as torch
>>> import chainrule.autograd.forward_ad as fwAD
>>> with fwAD.dual_level():
...     x = fwAD.make_dual(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]))
...     fwAD.unpack_dual(x.sin()).tangent   # cos(x) * 1
tensor([1.0000, 0.5403])
"""
from typing import NamedTuple

from .._functorch.batched import unwrap_under, wrap, wrap_under
from .._core.modes import FORWARD_AD
from .._ops.registry import apply
from .._ops.tangents import dual_view, is_batched, primal_op, tangent_of
from .._core.tensor import Tensor
from .._autograd.engine import ANS_TANGENTS
from .._autograd.grad_mode import _GradModeManager

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual"]


# --- levels -------------------------------------------------------------------------------------


def enter_dual_level():
    """Starts the (only) level; returns its number, 0."""
    if FORWARD_AD.level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    FORWARD_AD.level = 0
    return 0


def exit_dual_level(*, level=None):
    """Ends the level: every tangent made in it is dropped."""
    if level is None:
        level = FORWARD_AD.level
    if level != FORWARD_AD.level:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    for ref in list(FORWARD_AD.duals.values()):
        t = ref()
        if t is not None:
            t._extra.tangent = None
    FORWARD_AD.duals.clear()
    ANS_TANGENTS.clear()
    FORWARD_AD.active = False
    FORWARD_AD.level = -1


class dual_level(_GradModeManager):
    """``with dual_level():`` (or ``@dual_level()``): forward AD happens inside; the
    tangents are gone afterwards."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()


# --- dual tensors -------------------------------------------------------------------------------


class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: ``primal`` and ``tangent`` (None if there is none)."""
    primal: Tensor
    tangent: Tensor | None


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` carrying ``tangent`` (kept as is when laid out like ``tensor``,
    else copied): the direction v of the Jacobian-vector product J·v that the ops after
    it compute: inside a level, ``make_dual(x, v) ** 2`` has the tangent ``2 * x * v``.
    """
    if level is None:
        level = FORWARD_AD.level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if tensor._data.dtype.kind not in "fc":
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if tangent._data.dtype.kind not in "fc":
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if level != FORWARD_AD.level:
        raise RuntimeError("Invalid level given to _make_dual")
    if tangent_of(tensor) is not None:
        raise RuntimeError(f"Making a dual Tensor based on a Tensor that already has a forward gradient at "
                           f"the same level {level} is not supported.")
    if tangent_of(tangent) is not None:
        raise RuntimeError(f"Setting a forward grad that itself has a forward gradient at the same level{level} "
                           "is not supported.")
    if tangent._data.shape != tensor._data.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor._data.shape)} while the "
                           f"given forward gradient is of size {list(tangent._data.shape)}.")
    if is_batched(tensor):
        return _make_batched_dual(tensor, tangent, level)
    return dual_view(tensor, tangent)


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of ``tensor``: the primal is a view without tangent (its node,
    when it requires grad, is PyTorch's ``Identity``); the tangent is the tensor's own."""
    if level is None:
        level = FORWARD_AD.level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    if is_batched(tensor):
        return _unpack_batched_dual(tensor, level)
    tangent = tangent_of(tensor)
    if level != FORWARD_AD.level and tangent is not None:
        raise RuntimeError("Invalid level given to _fw_primal")
    active, FORWARD_AD.active = FORWARD_AD.active, False
    try:
        primal = apply(primal_op(), (tensor,))
    finally:
        FORWARD_AD.active = active
    return UnpackedDualTensor(primal, tangent)


def _make_batched_dual(tensor, tangent, level):
    """``make_dual`` of a tensor batched by vmap: ops run on the batch's inner tensor, so the
    tangent goes there (the tangent's batch, or the same tangent for every sample)."""
    inner = tensor._inner
    inner_tangent = unwrap_under(tangent, tensor._level)  # the tangent's batch at this level, if any
    if inner_tangent is None:
        inner_tangent = tangent.expand(inner.shape)
    return wrap(make_dual(inner, inner_tangent, level=level), tensor._level)


def _unpack_batched_dual(tensor, level):
    primal, tangent = unpack_dual(tensor._inner, level=level)
    # the tangent may also be batched by an inner vmap (vmap(jacfwd(f))): wrap_under keeps levels nested
    return UnpackedDualTensor(wrap(primal, tensor._level),
                              None if tangent is None else wrap_under(tangent, tensor._level))
