"""Batching rules: how each op runs on a whole batch at once, for ``vmap``.

A rule is ``rule(op, args, batched, params, dtype) -> result``. ``args`` are the op's
tensor inputs with the batch, where there is one, as dim 0 (``batched[i]`` says which
are batched); ``params`` and ``dtype`` are what the op's wrapper passed for ONE sample.
The rule calls ops on these real tensors (so autograd records as usual) and returns the
result with the batch as dim 0, or None for a case it does not handle (vmap then runs
the op once per sample). Most ops take one of the rules below, named in their
``defop(..., batch=...)``; one-input ``elementwise=True`` ops default to ``elementwise``.

>>> # sum over dim 1 of one (3, 4) sample is sum over dim 2 of the (B, 3, 4) batch
>>> SUM_DIM = defop("sum_dim", ..., batch=dim_params(0))
"""
from numpy import broadcast_to, ndarray

from .._tensor import Tensor
from .registry import apply


def batch_size(args, batched):
    for a, b in zip(args, batched):
        if b:
            return a._data.shape[0]


def logical_ndim(a, b):
    """The rank of one sample of ``a``."""
    return a._data.ndim - 1 if b else a._data.ndim


def pad(a, ndim):
    """Batched ``a`` with size-1 dims after the batch dim, up to ``ndim`` sample dims: what
    broadcasting would do to one sample."""
    missing = ndim - (a._data.ndim - 1)
    if missing <= 0:
        return a
    shape = a._data.shape
    return a.reshape(shape[:1] + (1,) * missing + shape[1:])


def has_values(array):
    """False for the ``_data`` of a batched tensor under vmap: one sample's shape and dtype
    without values (code that checks values skips them; the batched op sees them)."""
    return array.__class__ is ndarray


def aligned(args, batched, same_rank=True):
    """Every input batched (an unbatched one expanded, no copy), and with ``same_rank``
    padded to the same rank, as broadcasting would."""
    ndim = max(logical_ndim(a, b) for a, b in zip(args, batched))
    size = batch_size(args, batched)
    out = []
    for a, b in zip(args, batched):
        if not b:
            a = a.expand((size,) + a._data.shape)
        out.append(pad(a, ndim) if same_rank else a)
    return out, ndim


def shift(dims, ndim):
    """Sample dims as batch dims: non-negative dims move up by one; None (every dim)
    becomes every sample dim."""
    if dims is None:
        return tuple(range(1, ndim + 1))
    if isinstance(dims, (tuple, list)):
        return type(dims)(d + 1 if d >= 0 else d for d in dims)
    return dims + 1 if dims >= 0 else dims


# --- the rules -----------------------------------------------------------------------------------

def elementwise(op, args, batched, params, dtype):
    """Ops that broadcast their inputs elementwise: a sample's shorter inputs get their
    size-1 dims after the batch dim, unbatched inputs broadcast as they are."""
    if len(args) > 1:
        ndim = max(logical_ndim(a, b) for a, b in zip(args, batched))
        args = [pad(a, ndim) if b else a for a, b in zip(args, batched)]
    return apply(op, args, params, dtype)


def leading(op, args, batched, params, dtype):
    """Ops that already map over leading dims (``inv``, ``det``, ``matmul`` of stacks,
    ``pixel_shuffle``): every input batched, so the batch is one more leading dim."""
    args, _ = aligned(args, batched)
    return apply(op, args, params, dtype)


def dim_params(*positions, same_rank=True, first_only=False):
    """Ops with dim parameters (at ``positions`` in ``params``): the inputs aligned (see
    ``aligned``), the dims moved past the batch dim. ``first_only``: for ops whose other
    inputs broadcast from the right (``layer_norm``'s weight), when only input 0 is batched."""
    def rule(op, args, batched, params, dtype):
        if first_only:
            if any(batched[1:]):
                return None
            ndim = args[0]._data.ndim - 1
        else:
            args, ndim = aligned(args, batched, same_rank)
        params = list(params)
        for p in positions:
            params[p] = shift(params[p], ndim)
        return apply(op, args, tuple(params), dtype)
    return rule


def shaped(op, args, batched, params, dtype):
    """Ops whose first parameter is the result's shape (``view``, ``reshape``,
    ``expand``): the batch size goes in front of it."""
    x = pad(args[0], len(params[0]))
    return apply(op, (x,), ((x._data.shape[0],) + tuple(params[0]),) + tuple(params[1:]), dtype)


def index_params(dim_at, index_at=None):
    """Ops with a dim and an index array among their parameters (``gather``, ``scatter``,
    ``index_select``) when the index is not batched: the inputs aligned, the dim moved past
    the batch dim; an index that addresses every dim (``gather``'s, at ``index_at``) gets
    the batch dim too."""
    def rule(op, args, batched, params, dtype):
        args, _ = aligned(args, batched, same_rank=False)
        params = list(params)
        params[dim_at] = shift(params[dim_at], 0)
        if index_at is not None:
            index = params[index_at]
            params[index_at] = broadcast_to(index, args[0]._data.shape[:1] + index.shape)
        return apply(op, args, tuple(params), dtype)
    return rule


def indexed(position, shape_at=None):
    """Ops whose parameter at ``position`` is a basic index into one sample (a tuple of
    ints, slices, None, ...; ``narrow``, ``select``, ``split``): the batch dim is taken
    whole. ``shape_at``: the position of a sample shape to prefix with the batch size
    (``select_backward`` embeds into zeros of that shape)."""
    def rule(op, args, batched, params, dtype):
        args, _ = aligned(args, batched)
        params = list(params)
        index = params[position]
        params[position] = (slice(None),) + (index if isinstance(index, tuple) else (index,))
        if shape_at is not None:
            params[shape_at] = (args[0]._data.shape[0],) + tuple(params[shape_at])
        return apply(op, args, tuple(params), dtype)
    return rule


# --- functions that read values outside the registry ----------------------------------------------

def on_batch(fn, *tensors):
    """``fn`` run ONCE on the batch behind the batched tensors among ``tensors`` (those of
    the highest vmap level): each tensor as its inner tensor, batch at dim 0 (an unbatched
    one expanded; a non-tensor passed as is), and the tensors ``fn`` returns wrapped as that
    level's results. For functions that compute on values in NumPy (``argmax``, ``sort``):
    ``fn`` calls them again on the plain batch, their dims moved past the batch dim.

    >>> def argmax(x, dim):  # dim >= 0
    ...     if registry.BATCHING and any_batched(x):
    ...         return on_batch(lambda b: argmax(b, dim + 1), x)
    """
    from .._functorch.batched import BatchedTensor, wrap  # noqa: PLC0415  (vmap builds on the ops)
    level = max(t._level for t in tensors if t.__class__ is BatchedTensor)
    size = next(t._inner._data.shape[0] for t in tensors if t.__class__ is BatchedTensor and t._level == level)
    inner = [t._inner if t.__class__ is BatchedTensor and t._level == level
             else t.expand((size,) + t._data.shape) if isinstance(t, Tensor) else t for t in tensors]
    out = fn(*inner)
    if isinstance(out, tuple):
        return type(out)(tuple(wrap(o, level) if isinstance(o, Tensor) else o for o in out))
    return wrap(out, level)


def top_level(*tensors):
    """The innermost vmap level batching one of ``tensors`` (0: none)."""
    return max(getattr(t, "_level", 0) for t in tensors)



def any_batched(*values):
    """Whether a tensor among ``values`` (or in a tuple or list there) is batched by vmap."""
    for v in values:
        if isinstance(v, (tuple, list)):
            if any_batched(*v):
                return True
        elif hasattr(v, "_data") and not has_values(v._data):
            return True
    return False


def per_sample(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` under vmap for a function that reads tensor values itself
    (``argmax``, ``sort``): run on one sample at a time and stacked (slow, warned once).

    >>> def argmax(x, dim=None, keepdim=False):
    ...     if registry.BATCHING and any_batched(x):
    ...         return per_sample(argmax, x, dim, keepdim)
    """
    from .._functorch.batched import per_sample as run  # noqa: PLC0415  (vmap builds on the ops)
    return run(fn, args, kwargs)


def random_per_sample(fn, *args, **kwargs):
    """``per_sample`` for a random function (see ``batched.random_per_sample``)."""
    from .._functorch.batched import random_per_sample as run  # noqa: PLC0415  (vmap builds on the ops)
    return run(fn, args, kwargs)


def dynamic_shape(name):
    """PyTorch's error for an op whose result's shape depends on the values (``nonzero``)."""
    return RuntimeError(f"vmap: We do not support batching operators that can output dynamic shape. Attempted to "
                        f"vmap over aten::{name}. Please file an issue at https://github.com/pytorch/pytorch/issues "
                        "if you need this feature.")
