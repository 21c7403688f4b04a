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
from functools import wraps
from inspect import signature

from numpy import broadcast_to

from .._core.modes import VMAP, any_batched, has_values  # noqa: F401  (the ops' names for them)
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


def _on_whole_batch(fn, arguments):
    """``fn(**arguments)`` once on the batch behind its batched tensors (see ``on_batch``)."""
    names = [name for name, value in arguments.items() if hasattr(value, "_data")]

    def call(*inner):
        return fn(**dict(arguments, **dict(zip(names, inner))))
    return VMAP.on_batch(call, *[arguments[name] for name in names])


# --- functions that read values outside the registry ----------------------------------------------

class per_sample_where:
    """A rule for ``batched_by``: the function once per sample where ``condition(**arguments)``
    holds, as it is elsewhere."""

    def __init__(self, condition):
        self.condition = condition


PER_SAMPLE = per_sample_where(lambda **arguments: True)  # batched_by(PER_SAMPLE): see batched_by
ON_BATCH = "once on the whole batch"  # batched_by(ON_BATCH)


def scalar_input(input, **others):
    """A condition for ``per_sample_where``: the function's ``input`` is 0-d (an index op whose
    dim cannot move past the batch dim)."""
    return input._data.ndim == 0


def batched_by(rule, *, when=None):
    """Decorates a function that reads tensor values outside the registry (``argmax``,
    ``sort``, a gather by a batched index): while a vmap runs and one of its arguments (one
    of those named in ``when``) is batched, ``rule`` runs instead, given every parameter by
    name, defaults filled in. ``rule`` returns the batched result, usually by calling the
    function again on the whole batch (``on_batch``), or NotImplemented for a case the
    function handles as it is (its ops batch by their own rules). ``PER_SAMPLE``: the
    function once per sample, results stacked (slow, warned once; ``per_sample_where`` for
    some cases only). ``ON_BATCH``: the
    function once on the whole batch, its tensors the inner ones (for a function that maps
    over leading dims, called after its checks: a LAPACK call that reports each matrix).

    >>> @batched_by(lambda x, dim: on_batch(lambda b: argmax(b, dim + 1), x))
    ... def argmax(x, dim): ...
    """
    def decorate(fn):
        parameters = signature(fn)

        @wraps(fn)
        def _batched_or_plain(*args, **kwargs):  # (a private name: error messages name fn)
            if VMAP.active and any_batched(args, tuple(kwargs.values())):
                bound = parameters.bind(*args, **kwargs)
                bound.apply_defaults()
                if when is None or any_batched(*(bound.arguments[name] for name in when)):
                    if rule.__class__ is per_sample_where:
                        if rule.condition(**bound.arguments):
                            return VMAP.per_sample(_batched_or_plain, args, kwargs)
                    elif rule is ON_BATCH:
                        return _on_whole_batch(_batched_or_plain, bound.arguments)
                    else:
                        out = rule(**bound.arguments)
                        if out is not NotImplemented:
                            return out
            return fn(*args, **kwargs)
        return _batched_or_plain
    return decorate


def on_batch(fn, *tensors):
    """``fn`` run ONCE on the batch behind the batched tensors among ``tensors``: each as its
    inner tensor, batch at dim 0 (see ``_functorch.batched.on_batch``). For functions that
    compute on values in NumPy: ``fn`` calls them again on the plain batch, their dims moved
    past the batch dim.

    >>> @batched_by(lambda x, dim: on_batch(lambda b: argmax(b, dim + 1), x))
    ... def argmax(x, dim): ...
    """
    return VMAP.on_batch(fn, *tensors)


def top_level(*tensors):
    """The innermost vmap level batching one of ``tensors`` (0: none)."""
    return max(getattr(t, "_level", 0) for t in tensors)



def per_sample(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` under vmap for a function that reads tensor values itself:
    run on one sample at a time and stacked (slow, warned once)."""
    return VMAP.per_sample(fn, args, kwargs)


def random_per_sample(fn, *args, **kwargs):
    """``per_sample`` for a random function (see ``batched.random_per_sample``)."""
    return VMAP.random_per_sample(fn, args, kwargs)


def dynamic_shape(name):
    """The rule of a function whose result's shape depends on the values (``nonzero``):
    PyTorch's vmap refuses it."""
    def rule(**arguments):
        raise dynamic_shape_error(name)
    return rule


def dynamic_shape_error(name):
    return RuntimeError(f"vmap: We do not support batching operators that can output dynamic shape. Attempted to "
                        f"vmap over aten::{name}. Please file an issue at https://github.com/pytorch/pytorch/issues "
                        "if you need this feature.")
