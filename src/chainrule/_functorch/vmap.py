"""``vmap``: run a function written for one sample over a whole batch at once.

``vmap(f)(xs)`` is ``stack([f(x) for x in xs])``, computed as ONE call of ``f`` in which
each op runs once on the whole batch (see ``batched``). ``in_dims`` says which dim of each
argument is the batch (None: not batched, shared by every sample); ``out_dims`` where the
batch dim goes in each output. Both may be nested tuples, lists and dicts matching the
arguments and outputs.

>>> x = chainrule.randn(5, 3)
>>> w = chainrule.randn(3, 3)
>>> chainrule.vmap(lambda row: w @ row)(x).shape       # w is shared by every sample
torch.Size([5, 3])
>>> chainrule.vmap(chainrule.dot, in_dims=(0, None))(x, x[0]).shape
torch.Size([5])
"""
import functools

from .._ops.creation import get_rng_state, set_rng_state
from .._core.modes import VMAP
from .._ops.shape.joining import cat
from .._ops.shape.views import movedim
from .._core.pytree import tree_flatten as flatten, tree_unflatten as unflatten
from .._core.tensor import Tensor
from ..return_types import _ReturnType
from . import batched

_RANDOMNESS = ("error", "different", "same")


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """Vectorises ``func`` over a batch dim of its inputs (PyTorch's ``torch.func.vmap``).

    ``randomness``: what random ops inside ``func`` do: ``'error'`` refuses them,
    ``'same'`` draws one sample shared by the whole batch, ``'different'`` draws for each
    sample (chainrule then runs the samples one at a time). ``chunk_size``: run at most this
    many samples at once (less memory, same result)."""
    if randomness not in _RANDOMNESS:
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. "
                           f"Got {randomness}")
    if chunk_size is not None and chunk_size <= 0:
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    @functools.wraps(func)
    def vectorized(*args, **kwargs):
        return _vmap_call(func, in_dims, out_dims, randomness, chunk_size, args, kwargs)

    return vectorized


def _name(func):
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_name(func.func)}, ...)"
    return repr(func)


def _vmap_call(func, in_dims, out_dims, randomness, chunk_size, args, kwargs):
    _check_out_dims(func, out_dims)
    size, flat_dims, flat_args, spec = _batched_inputs(func, in_dims, args)
    if randomness == "different":
        # each sample its own draws: chainrule runs one sample at a time, where a draw of one
        # sample's shape is that sample's own (a loop: slower, the same results' distribution)
        chunk_size = 1
    if chunk_size is None or chunk_size >= size:
        return _run(func, size, flat_dims, flat_args, spec, out_dims, randomness, kwargs)
    state = get_rng_state() if randomness == "same" else None  # every chunk draws the same
    chunks = []
    for start in range(0, size, chunk_size):
        if state is not None:
            set_rng_state(state)
        n = min(chunk_size, size - start)
        chunk_args = [a if d is None else a.narrow(d, start, n) for a, d in zip(flat_args, flat_dims)]
        chunks.append(_run(func, n, flat_dims, chunk_args, spec, out_dims, randomness, kwargs))
    return _concatenate(chunks, out_dims)


def _batched_inputs(func, in_dims, args):
    """Checks ``in_dims`` against ``args`` as PyTorch does: ``(batch size, in_dim of each
    leaf, leaves, spec)``, with negative dims made positive."""
    head = f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(f"{head}: expected `in_dims` to be int or a (potentially nested) tuple matching the "
                         f"structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you "
                         "are trying to vmap over a function with no inputs. The latter is unsupported.")
    flat_args, spec = flatten(args)
    flat_dims = broadcast_prefix(in_dims, spec)
    if flat_dims is None:
        raise ValueError(f"{head}: in_dims is not compatible with the structure of `inputs`. in_dims has "
                         f"structure {spec_repr(flatten(in_dims)[1])} but inputs has structure {spec_repr(spec)}.")
    for i, (arg, dim) in enumerate(zip(flat_args, flat_dims)):
        if dim is None:
            continue
        if not isinstance(dim, int):
            raise ValueError(f"{head}: Got in_dim={dim} for an input but in_dim must be either an integer "
                             "dimension or None.")
        if not isinstance(arg, Tensor):
            raise ValueError(f"{head}: Got in_dim={dim} for an input but the input is of type {type(arg)}. We "
                             "cannot vmap over non-Tensor arguments, please use None as the respective in_dim")
        ndim = arg.dim()
        if not -ndim <= dim < ndim:
            raise ValueError(f"{head}: Got in_dim={dim} for some input, but that input is a Tensor of "
                             f"dimensionality {ndim} so expected in_dim to satisfy -{ndim} <= in_dim < {ndim}.")
        flat_dims[i] = dim % ndim
    sizes = [arg.size(dim) for arg, dim in zip(flat_args, flat_dims) if dim is not None]
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return sizes[0], flat_dims, flat_args, spec


def _check_out_dims(func, out_dims):
    leaves = [out_dims] if isinstance(out_dims, int) else flatten(out_dims)[0]
    for dim in leaves:
        if dim is not None and not isinstance(dim, int):
            raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a "
                             "python collection of ints representing where in the outputs the vmapped dimension "
                             "should appear.")


def _run(func, size, flat_dims, flat_args, spec, out_dims, randomness, kwargs):
    """One vmap level: wrap the batched leaves, call ``func``, unwrap its outputs."""
    level = batched.enter(size, randomness)
    try:
        leaves = [a if d is None else batched.wrap(a if d == 0 else movedim(a, d, 0), level)
                  for a, d in zip(flat_args, flat_dims)]
        outputs = func(*unflatten(leaves, spec), **kwargs)
    finally:
        batched.leave()
    return _unwrap(func, outputs, out_dims, level, size)


def _unwrap(func, outputs, out_dims, level, size):
    if isinstance(outputs, _ReturnType):
        # a return_types result (max(dim) -> values, indices): unwrapped as a tuple, rebuilt after
        return type(outputs)(_unwrap(func, tuple(outputs), out_dims, level, size))
    flat, spec = flatten(outputs)
    if isinstance(outputs, Tensor):
        if isinstance(out_dims, tuple) and len(out_dims) == 1:
            out_dims = out_dims[0]
        flat_dims = [out_dims] if out_dims is None or isinstance(out_dims, int) else None
    else:
        flat_dims = broadcast_prefix(out_dims, spec)
    if flat_dims is None:
        raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
                         f"with the structure of `outputs`. out_dims has structure "
                         f"{spec_repr(flatten(out_dims)[1])} but outputs has structure {spec_repr(spec)}.")
    return unflatten([_unwrap_one(func, out, dim, level, size) for out, dim in zip(flat, flat_dims)], spec)


def _unwrap_one(func, out, dim, level, size):
    name = _name(func)
    if dim is None:
        if batched.is_batched_at(out, level):
            raise ValueError(f"vmap({name}, ...): `{name}` can not return a BatchedTensor when out_dim is None")
        return out
    if not isinstance(out, Tensor):
        raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(out)}. Did you "
                         "mean to set out_dims= to None for output?")
    if batched.is_batched_at(out, level):
        inner = out._inner
        return inner if dim == 0 else movedim(inner, 0, dim)
    # the same for every sample: PyTorch returns it expanded along the new dim
    ndim = out.dim() + 1
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    dim %= ndim
    shape = list(out.shape)
    shape.insert(dim, size)
    return out.unsqueeze(dim).expand(shape)


def _concatenate(chunks, out_dims):
    """The chunks' outputs joined along each output's batch dim."""
    if isinstance(chunks[0], _ReturnType):
        return type(chunks[0])(_concatenate([tuple(c) for c in chunks], out_dims))
    flat0, spec = flatten(chunks[0])
    flat_dims = [out_dims] * len(flat0) if out_dims is None or isinstance(out_dims, int) else \
        broadcast_prefix(out_dims, spec)
    if isinstance(chunks[0], Tensor) and isinstance(out_dims, tuple):
        flat_dims = [out_dims[0]]
    flats = [flatten(c)[0] for c in chunks]
    joined = []
    for i, dim in enumerate(flat_dims):
        parts = [f[i] for f in flats]
        joined.append(parts[0] if dim is None else cat(parts, dim))
    return unflatten(joined, spec)


# --- in_dims and out_dims against the arguments' and outputs' structure ------------------------


def broadcast_prefix(prefix, spec):
    """The leaves of ``prefix`` repeated over the subtrees of ``spec`` they stand for, in
    leaf order (``(0, None)`` against ``(x, [y, z])`` gives ``[0, None, None]``); None when
    ``prefix`` is not a prefix of that structure."""
    out = []
    return out if _broadcast_into(prefix, spec, out) else None


def _broadcast_into(prefix, spec, out):
    prefix_spec = flatten(prefix)[1]
    if prefix_spec.kind is None:
        out.extend([prefix] * spec.num_leaves)
        return True
    if (prefix_spec.kind, prefix_spec.keys, len(prefix_spec.children)) != (spec.kind, spec.keys, len(spec.children)):
        return False
    children = [prefix[k] for k in spec.keys] if spec.kind is dict else prefix
    return all(_broadcast_into(p, c, out) for p, c in zip(children, spec.children))


def spec_repr(spec, indent=0):
    """A structure as PyTorch's ``TreeSpec`` prints it, for PyTorch's messages:
    ``TreeSpec(tuple, None, [*,\n  *])``."""
    if spec.kind is None:
        return "*"
    indent += 2
    children = (",\n" + " " * indent).join(spec_repr(c, indent) for c in spec.children)
    kind = spec.kind.__name__ if spec.kind in (tuple, list, dict) else "namedtuple"
    context = list(spec.keys) if spec.kind is dict else None
    return f"TreeSpec({kind}, {context}, [{children}])"


VMAP.vmap = vmap  # for autograd.grad(is_grads_batched=True), below this layer
