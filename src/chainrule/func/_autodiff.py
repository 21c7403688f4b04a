"""``chainrule.func``'s derivative transforms: grad, vjp, jvp, jacrev, jacfwd, hessian, linearize.

Each one turns a function into a function, so they compose: ``grad(grad(f))`` is the
second derivative, ``jacfwd(jacrev(f))`` the Hessian, ``vmap(grad(loss))`` per-sample
gradients. Arguments and results may be nests of tuples, lists and dicts (``_pytree``).

How nesting works here. A reverse-mode transform differentiates from fresh tensors that
stand for its arguments: detached leaves at the outermost level, or views of the
arguments when something outside is differentiating too (an enclosing transform is
running, or an argument requires grad). In the second case the gradient is computed with
``create_graph=True``, so the outer transform can differentiate the inner one's result;
in the first, results come back without history. Forward mode uses one dual level for
all nested ``jvp`` calls, as PyTorch's ``torch.func`` does.

>>> chainrule.func.grad(lambda x: (x ** 3).sum())(chainrule.tensor([1.0, 2.0]))
tensor([ 3., 12.])
"""
from functools import wraps

import numpy as np

from .._core import tensor as _tensor
from .._core.tensor import is_tensor
from .._functorch.batched import batched_leaf
from .._functorch.vmap import vmap
from .._core.modes import FORWARD_AD, VMAP
from .._ops.shape.joining import cat
from .._core.pytree import tree_flatten, tree_unflatten, treespec_pprint
from ..autograd import forward_ad
from ..autograd.functional import unit_rows
from .._autograd.gradients import grad as _autograd_grad
from .._autograd.grad_mode import enable_grad, is_grad_enabled

_NESTING = {"reverse": 0, "forward": 0}  # transforms running now, by mode


class _Nested:
    def __init__(self, mode):
        self.mode = mode

    def __enter__(self):
        _NESTING[self.mode] += 1

    def __exit__(self, *exc):
        _NESTING[self.mode] -= 1


# --- argnums ----------------------------------------------------------------------------------


def _check_argnums(argnums, nargs):
    """``argnums`` with negative positions wrapped; PyTorch's errors otherwise."""
    if isinstance(argnums, tuple):
        if not argnums:
            raise RuntimeError("argnums must be non-empty")
        wrapped = tuple(_check_argnum(a, nargs) for a in argnums)
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"argnums elements must be unique, got {argnums}")
        return wrapped
    if isinstance(argnums, int):
        return _check_argnum(argnums, nargs)
    raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")


def _check_argnum(argnum, nargs):
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if -nargs <= argnum < nargs:
        return argnum % nargs
    raise RuntimeError(f"Got argnum={argnum}, but only {nargs} positional inputs")


def _pick(args, argnums):
    return tuple(args[i] for i in argnums) if isinstance(argnums, tuple) else args[argnums]


def _replace(args, argnums, new):
    args = list(args)
    if isinstance(argnums, tuple):
        for i, value in zip(argnums, new):
            args[i] = value
    else:
        args[argnums] = new
    return tuple(args)


# --- reverse mode -----------------------------------------------------------------------------


def _stand_in(x, keep_graph):
    """A fresh tensor for argument ``x`` to differentiate from (see the module docstring).
    Inside ``jvp``/``jacfwd``, or a dual level of ``autograd.forward_ad``, it keeps ``x``'s
    tangent: forward over reverse (``hessian``)."""
    if not is_tensor(x):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
    tangent = None
    if _NESTING["forward"] or FORWARD_AD.active:
        tangent = forward_ad.unpack_dual(x).tangent
    if VMAP.active and tangent is None:
        return batched_leaf(x)  # inside vmap: a leaf per sample, so gradients come out per sample
    if keep_graph and x.requires_grad:
        return x.view_as(x)
    leaf = x.detach().requires_grad_()
    return leaf if tangent is None else forward_ad.make_dual(leaf, tangent)


def _outer_differentiates(flat):
    """Whether results must keep their graph: an enclosing transform (or the caller's own
    autograd, or forward mode) will differentiate them."""
    return (_NESTING["forward"] > 0 or FORWARD_AD.active or is_grad_enabled() and
            (_NESTING["reverse"] > 0 or any(is_tensor(x) and x.requires_grad for x in flat)))


def _plain(tree, keep_graph):
    """Results leave a transform without history unless an outer one needs it."""
    if keep_graph:
        return tree
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([x.detach() if is_tensor(x) else x for x in leaves], spec)


def _split_aux(output, has_aux, api):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return output


def grad_and_value(func, argnums=0, has_aux=False):
    """``(gradient, value)`` of a scalar function; with ``has_aux``: ``(gradient, (value, aux))``."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        argnums_ = _check_argnums(argnums, len(args))
        flat, spec = tree_flatten(_pick(args, argnums_))
        keep_graph = _outer_differentiates(flat)
        with _Nested("reverse"), enable_grad():
            stand_ins = [_stand_in(x, keep_graph) for x in flat]
            output = func(*_replace(args, argnums_, tree_unflatten(stand_ins, spec)), **kwargs)
            output, aux = _split_aux(output, has_aux, "grad_and_value(f)(*args)")
            if not is_tensor(output):
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                                   f"{type(output)}")
            if output.dim() != 0:
                raise RuntimeError(f"grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                                   f"tensor with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                                   "APIs instead?")
            if output.requires_grad:
                grads = _autograd_grad(output, stand_ins, create_graph=keep_graph, allow_unused=True,
                                       materialize_grads=True)
            else:  # f doesn't depend on its arguments: every gradient is zero
                grads = [_tensor._wrap(np.zeros_like(x._data)) for x in stand_ins]
        gradient = _plain(tree_unflatten(list(grads), spec), keep_graph)
        value = _plain(output, keep_graph)
        return (gradient, (value, _plain(aux, keep_graph))) if has_aux else (gradient, value)

    return wrapper


def grad(func, argnums=0, has_aux=False):
    """The gradient of a scalar function, as a function of the same arguments.

    >>> f = chainrule.func.grad(lambda x, y: (x * y).sum(), argnums=(0, 1))
    >>> f(x, y)          # (y, x)
    """
    with_value = grad_and_value(func, argnums, has_aux)

    @wraps(func)
    def wrapper(*args, **kwargs):
        gradient, value = with_value(*args, **kwargs)
        return (gradient, value[1]) if has_aux else gradient

    return wrapper


def vjp(func, *primals, has_aux=False):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` gives v^T·J for each primal, and
    can be called again with other cotangents (the graph is kept)."""
    return _vjp(func, primals, None, has_aux)


def _vjp(func, primals, argnums, has_aux):
    flat, spec = tree_flatten(primals if argnums is None else _pick(primals, argnums))
    keep_graph = _outer_differentiates(flat)
    with _Nested("reverse"), enable_grad():
        stand_ins = [_stand_in(x, keep_graph) for x in flat]
        chosen = tree_unflatten(stand_ins, spec)
        output = func(*(chosen if argnums is None else _replace(primals, argnums, chosen)))
        output, aux = _split_aux(output, has_aux, "vjp(f, *primals)")
        flat_out, out_spec = tree_flatten(output)
        _check_outputs(flat_out, "vjp(f, *primals)")
        for out in flat_out:
            if not (out.is_floating_point() or out.is_complex()):
                raise RuntimeError(f"vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got "
                                   f"Tensor with dtype {out.dtype}")

    def vjp_fn(cotangents, retain_graph=True, create_graph=None):
        flat_cot, cot_spec = tree_flatten(cotangents)
        if cot_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {treespec_pprint(cot_spec)}, primal output: "
                               f"{treespec_pprint(out_spec)}")
        create_graph = is_grad_enabled() if create_graph is None else create_graph
        pairs = [(o, c) for o, c in zip(flat_out, flat_cot) if o.requires_grad]
        if pairs:
            outs, cots = zip(*pairs)
            grads = _autograd_grad(outs, stand_ins, cots, retain_graph=retain_graph,
                                   create_graph=create_graph and keep_graph, allow_unused=True,
                                   materialize_grads=True)
        else:
            grads = [_tensor._wrap(np.zeros_like(x._data)) for x in stand_ins]
        return tree_unflatten(list(grads), spec)

    result = (_plain(output, keep_graph), vjp_fn)
    return result + (_plain(aux, keep_graph),) if has_aux else result


def _check_outputs(flat_out, api):
    if not flat_out:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = [])")
    for out in flat_out:
        if not is_tensor(out):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type "
                               f"{type(out)}")


# --- forward mode -----------------------------------------------------------------------------


def jvp(func, primals, tangents, *, strict=False, has_aux=False):
    """``(func(*primals), J·tangents)`` in one forward pass with dual tensors."""
    return _jvp(func, primals, tangents, None, strict, has_aux)


def _jvp(func, primals, tangents, argnums, strict, has_aux):
    api = "jvp(f, primals, tangents)"
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{api}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    flat, spec = tree_flatten(primals if argnums is None else _pick(primals, argnums))
    flat_t, t_spec = tree_flatten(tangents)
    if spec != t_spec:
        raise RuntimeError(f"{api}: Expected primals and tangents to have the same python structure. For example, "
                           "if primals is a tuple of 3 tensors, tangents also must be. Got primals with structure "
                           f"{spec} and tangents with structure {t_spec}")
    for name, values in (("primals", flat), ("tangents", flat_t)):
        if not values:
            raise RuntimeError(f"{api}: Expected {name} to contain at least one Tensor.")
        for v in values:
            if not is_tensor(v):
                raise RuntimeError(f"{api}: Expected {name} to only contain Tensors, got {type(v)}")
    outermost = _NESTING["forward"] == 0
    keep_graph = is_grad_enabled() and (_NESTING["reverse"] > 0 or any(x.requires_grad for x in flat + flat_t))
    with _Nested("forward"):
        level = forward_ad.dual_level() if outermost else _NoLevel()
        with level:
            duals = tree_unflatten([forward_ad.make_dual(p, t) for p, t in zip(flat, flat_t)], spec)
            output = func(*(duals if argnums is None else _replace(primals, argnums, duals)))
            output, aux = _split_aux(output, has_aux, api)
            flat_out, out_spec = tree_flatten(output)
            _check_outputs(flat_out, api)
            primals_out, tangents_out = [], []
            for out in flat_out:
                primal, tangent = forward_ad.unpack_dual(out)
                if tangent is None:
                    if strict:
                        raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent "
                                           "of the inputs. This is not allowed with strict=True.")
                    tangent = _tensor._wrap(np.zeros_like(primal._data))
                primals_out.append(primal)
                tangents_out.append(tangent)
    result = (_plain(tree_unflatten(primals_out, out_spec), keep_graph),
              _plain(tree_unflatten(tangents_out, out_spec), keep_graph))
    return result + (aux,) if has_aux else result


class _NoLevel:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def linearize(func, *primals):
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is J·tangents at these primals."""
    output = func(*primals)
    _, out_spec = tree_flatten(output)

    def jvp_fn(*tangents):
        _, t_spec = tree_flatten(tangents)
        _, p_spec = tree_flatten(primals)
        if t_spec != p_spec:
            raise RuntimeError(f"Expected the tangents {t_spec} to have the same argspec as the primals {p_spec}")
        return jvp(func, primals, tangents)[1]

    return output, jvp_fn


# --- Jacobians --------------------------------------------------------------------------------


def jacrev(func, argnums=0, *, has_aux=False, chunk_size=None, _preallocate_and_copy=False):
    """The Jacobian by reverse mode: one vjp per output element, all in one ``vmap``ed call
    (``chunk_size`` rows at a time). For an output of shape S and argument of shape A the
    block has shape S + A; nests of outputs and arguments give nests of blocks."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @wraps(func)
    def wrapper(*args):
        _no_complex("jacrev", args, True)
        argnums_ = _check_argnums(argnums, len(args))
        result = _vjp(func, args, argnums_, has_aux)
        output, vjp_fn = result[0], result[1]
        flat_out, out_spec = tree_flatten(output)
        _no_complex("jacrev", flat_out, False)
        chosen, in_spec = tree_flatten(_pick(args, argnums_))
        chunks = []
        for rows in unit_rows(flat_out, chunk_size):
            cotangents = tree_unflatten([r.view((r.shape[0],) + tuple(o.shape)) for r, o in zip(rows, flat_out)],
                                        out_spec)
            chunks.append(tree_flatten(vmap(vjp_fn)(cotangents))[0])
        per_input = [cat([c[i] for c in chunks]) if len(chunks) > 1 else chunks[0][i]
                     for i in range(len(chosen))]
        sizes = [o.numel() for o in flat_out]
        blocks_per_output = [[] for _ in flat_out]
        for g, x in zip(per_input, chosen):
            for k, (block, out) in enumerate(zip(g.split(sizes), flat_out)):
                blocks_per_output[k].append(block.view(tuple(out.shape) + tuple(x.shape)))
        jac = tree_unflatten([tree_unflatten(b, in_spec) for b in blocks_per_output], out_spec)
        return (jac, result[2]) if has_aux else jac

    return wrapper


def jacfwd(func, argnums=0, has_aux=False, *, randomness="error"):
    """The Jacobian by forward mode: one jvp per input element, all in one ``vmap``ed call.
    Cheaper than ``jacrev`` when the function has fewer inputs than outputs."""

    @wraps(func)
    def wrapper(*args):
        _no_complex("jacfwd", args, True)
        argnums_ = _check_argnums(argnums, len(args))
        chosen, in_spec = tree_flatten(_pick(args, argnums_))
        sizes = [x.numel() for x in chosen]
        basis = tree_unflatten(list(next(unit_rows(chosen))), in_spec)

        def push_forward(tangents):
            tangents = tree_unflatten([t.view(tuple(x.shape)) for t, x in zip(tree_flatten(tangents)[0], chosen)],
                                      in_spec)
            out = _jvp(func, args, tangents, argnums_, False, has_aux)
            _no_complex("jacfwd", out[0], False)
            return (out[1], out[2]) if has_aux else out[1]

        results = vmap(push_forward, randomness=randomness)(basis)
        aux = None
        if has_aux:
            results, aux = results
            aux = tree_unflatten([a[0] for a in tree_flatten(aux)[0]], tree_flatten(aux)[1])
        flat_jac, out_spec = tree_flatten(results)
        jac = []
        for j in flat_jac:
            # the batch (first) dim runs over input elements: move it last, split it per argument
            moved = j.movedim(0, -1)
            pieces = moved.split(sizes, dim=-1)
            jac.append(tree_unflatten([p.reshape(tuple(p.shape[:-1]) + tuple(x.shape)) for p, x in zip(pieces, chosen)],
                                      in_spec))
        jac = tree_unflatten(jac, out_spec)
        return (jac, aux) if has_aux else jac

    return wrapper


def hessian(func, argnums=0):
    """The Hessian of a scalar function: ``jacfwd(jacrev(func))``, forward over reverse."""
    return jacfwd(jacrev(func, argnums), argnums)


def _no_complex(api, tree, is_input):
    for i, x in enumerate(tree_flatten(tree)[0]):
        if is_tensor(x) and x.is_complex():
            kind = "inputs" if is_input else "outputs"
            raise RuntimeError(f"{api}: Expected all {kind} to be real but received complex tensor at flattened "
                               f"input idx: {i}")
