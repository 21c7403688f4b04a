"""``autograd.functional``: Jacobians, Hessians and their products, for a function of tensors.

Every function here is the engine's vector-Jacobian product used in a particular way:

* ``vjp(f, x, v)`` is one backward pass: v^T·J.
* ``jvp(f, x, v)`` is J·v from two backward passes (the "double backward trick"): the
  gradient g(u) = J^T·u is linear in u, so differentiating u -> g(u)·v gives J·v.
* ``jacobian(f, x)`` stacks one vjp per output element; with ``vectorize=True`` all of them
  run as ONE batched backward pass (``vmap`` over the rows of the identity matrix).
* ``hessian``, ``vhp`` and ``hvp`` do the same to the gradient of a scalar function.

>>> x = chainrule.tensor([1.0, 2.0])
>>> chainrule.autograd.functional.jacobian(lambda x: x ** 2, x)
tensor([[2., 0.],
        [0., 4.]])

Inputs and outputs keep their form: a tensor gives a tensor, a tuple gives a tuple
(``jacobian`` of a tuple-valued function of a tuple is a tuple of tuples, outputs first).
"""
import numpy as np

from .._ops import creation as _creation
from .._core import tensor as _tensor
from .._functorch.vmap import vmap as _vmap
from .._ops.shape.joining import stack
from . import forward_ad
from .._core.modes import FORWARD_AD
from .._autograd.gradients import grad as _autograd_grad
from .._autograd.grad_mode import enable_grad, is_grad_enabled, set_grad_enabled


def _tensors(value, what, fn_name):
    """``(was_a_tuple, tuple_of_tensors)``, with PyTorch's error for anything else."""
    was_tuple = isinstance(value, tuple)
    values = value if was_tuple else (value,)
    for i, v in enumerate(values):
        if not isinstance(v, _tensor.Tensor):
            where = f"the value at index {i}" if was_tuple else f"the given {what}"
            raise TypeError(f"The {what} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"{where} has type {type(v)}.")
    return was_tuple, values


def _restore(values, was_tuple):
    return values if was_tuple else values[0]


def _restore2(values, outputs_were_tuple, inputs_were_tuple):
    """A nested result (per output, per input) back in the form the user gave."""
    if not inputs_were_tuple:
        values = tuple(per_output[0] for per_output in values)
    return values if outputs_were_tuple else values[0]


def _fresh(inputs, create_graph, requires_grad=True):
    """New tensor objects for the inputs: the function's graph then starts at them, even when
    ``func`` also captured the original tensors. Under ``create_graph`` the new ones stay
    connected to the originals (a view), so the result can be differentiated again."""
    return tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(requires_grad)
                 for x in inputs)


def _finish(values, create_graph):
    """Results carry no history unless ``create_graph`` asked for it."""
    if create_graph:
        return values
    return tuple(v.detach() if isinstance(v, _tensor.Tensor) else _finish(v, False) for v in values)


def _check_v(v, like, like_was_tuple):
    if len(v) != len(like):
        if like_was_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(like)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for i, (vi, ref) in enumerate(zip(v, like)):
        if vi.shape != ref.shape:
            entry = f"Entry {i} in " if like_was_tuple else ""
            raise RuntimeError(f"{entry}v has invalid size: should be {ref.shape} but got {vi.shape}.")


def _v_or_error(v, like, like_was_tuple, fn_name, create_graph, of):
    """The given ``v`` as a tuple, checked; or None where ``like`` is one single-element tensor."""
    if v is not None:
        _, v = _tensors(v, "v", fn_name)
        v = _fresh(v, create_graph, requires_grad=False)
        _check_v(v, like, like_was_tuple)
        return v
    if len(like) != 1 or like[0].numel() != 1:
        raise RuntimeError(f"The vector v can only be None if {of} a single Tensor with a single element.")
    return None


_STRICT_MESSAGES = {
    "outputs": ("Output {i} of the user-provided function does not require gradients. The outputs must be "
                "computed in a differentiable manner from the input when running in strict mode."),
    "grad_inputs": ("The gradient with respect to input {i} is independent of the inputs of the user-provided "
                    "function. This is not allowed in strict mode."),
    "jacobian": ("While computing the hessian, found that the jacobian of the user-provided function with "
                 "respect to input {i} is independent of the input. This is not allowed in strict mode. You "
                 "should ensure that your function is twice differentiable and that the jacobian depends on the "
                 "inputs (this would be violated by a linear function for example)."),
    "hessian": ("The hessian of the user-provided function with respect to input {i} is independent of the "
                "input. This is not allowed in strict mode. You should ensure that your function is thrice "
                "differentiable and that the hessian depends on the inputs."),
}


def _check_differentiable(values, kind, strict):
    """``strict=True``: each value must depend on the inputs (PyTorch's messages)."""
    if not strict:
        return
    for i, v in enumerate(values):
        if v is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode.")
        if not v.requires_grad:
            raise RuntimeError(_STRICT_MESSAGES[kind].format(i=i))


def _grads(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None, batched=False):
    """``autograd.grad`` that skips outputs without history and returns None for inputs
    they don't reach (instead of raising)."""
    grad_outputs = grad_outputs if grad_outputs is not None else (None,) * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gs = zip(*pairs)
    return _autograd_grad(outs, inputs, gs, retain_graph=retain_graph, create_graph=create_graph,
                          allow_unused=True, is_grads_batched=batched)


_MISSING = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in "
            "strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
                  "using the double backward trick to compute forward mode gradients. This is not allowed in "
                  "strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed "
                   "in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def _zeros_where_missing(grads, refs, strict, create_graph, stage):
    """A gradient that never arrived is zero (or, with ``strict``, an error naming the stage)."""
    result = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(_MISSING[stage].format(i=i))
            g = _creation.zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is "
                               "not allowed in strict mode when create_graph=True.")
        result.append(g)
    return tuple(result)


def _call(func, inputs, fn_name):
    was_tuple, outputs = _tensors(func(*inputs), "outputs of the user-provided function", fn_name)
    return was_tuple, outputs


# --- products with a vector ----------------------------------------------------------------


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T·J)``: one backward pass.

    >>> vjp(lambda x: x ** 2, chainrule.tensor([1.0, 2.0]), chainrule.ones(2))[1]
    tensor([2., 4.])
    """
    with enable_grad():
        inputs_were_tuple, inputs = _tensors(inputs, "inputs", "vjp")
        inputs = _fresh(inputs, create_graph)
        outputs_were_tuple, outputs = _call(func, inputs, "vjp")
        _check_differentiable(outputs, "outputs", strict)
        v = _v_or_error(v, outputs, outputs_were_tuple, "vjp", create_graph,
                        "the user-provided function returns")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grads(outputs, inputs, v, create_graph=create_graph)
        grads = _zeros_where_missing(grads, inputs, strict, create_graph, "back")
    return _restore(_finish(outputs, create_graph), outputs_were_tuple), \
        _restore(_finish(grads, create_graph), inputs_were_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), J·v)`` by the double backward trick (see the module docstring)."""
    with enable_grad():
        inputs_were_tuple, inputs = _tensors(inputs, "inputs", "jvp")
        inputs = _fresh(inputs, create_graph)
        v = _v_or_error(v, inputs, inputs_were_tuple, "jvp", create_graph,
                        "the input to the user-provided function is")
        outputs_were_tuple, outputs = _call(func, inputs, "jvp")
        _check_differentiable(outputs, "outputs", strict)
        # u's value never matters (the gradient is linear in it); zeros can't make inf or nan
        u = tuple(_creation.zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _grads(outputs, inputs, u, create_graph=True)
        _check_differentiable(grad_inputs, "grad_inputs", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grads(grad_inputs, u, v, create_graph=create_graph)
        grads = _zeros_where_missing(grads, outputs, strict, create_graph, "back_trick")
    return _restore(_finish(outputs, create_graph), outputs_were_tuple), \
        _restore(_finish(grads, create_graph), outputs_were_tuple)


def _scalar_output(func, inputs, fn_name, strict):
    outputs_were_tuple, outputs = _call(func, inputs, fn_name)
    _check_differentiable(outputs, "outputs", strict)
    if outputs_were_tuple:
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {fn_name} should contain a single "
                           "element")
    return outputs


def _gradient_of_scalar(func, inputs, v, create_graph, strict, fn_name):
    """What ``vhp`` and ``hvp`` share: the checked inputs and ``v``, the scalar output, and
    its gradient with a graph (to be differentiated once more)."""
    inputs_were_tuple, inputs = _tensors(inputs, "inputs", fn_name)
    inputs = _fresh(inputs, create_graph)
    v = _v_or_error(v, inputs, inputs_were_tuple, fn_name, create_graph,
                    "the input to the user-provided function is")
    outputs = _scalar_output(func, inputs, fn_name, strict)
    jac = _grads(outputs, inputs, create_graph=True)
    _check_differentiable(jac, "jacobian", strict)
    return inputs_were_tuple, inputs, v, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), v^T·H)`` for a scalar ``func``: the gradient, then its vjp."""
    with enable_grad():
        inputs_were_tuple, inputs, v, outputs, jac = _gradient_of_scalar(func, inputs, v, create_graph, strict, "vhp")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grads(jac, inputs, v, create_graph=create_graph)
        grads = _zeros_where_missing(grads, inputs, strict, create_graph, "double_back")
    return _finish(outputs, create_graph)[0], _restore(_finish(grads, create_graph), inputs_were_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """``(func(inputs), H·v)`` for a scalar ``func``: the derivative of its gradient along v.

    Computed forward over reverse (one forward pass with dual inputs, one backward pass
    that carries their tangents) when every op involved has forward AD; otherwise, and for
    ``strict`` and ``create_graph``, by PyTorch's double backward trick. Both give exactly
    the Jacobian of the gradient times v; neither assumes H symmetric (``vhp`` would).
    """
    if not (strict or create_graph) and FORWARD_AD.level < 0:
        try:
            return _hvp_forward_over_reverse(func, inputs, v)
        except NotImplementedError:  # an op without forward AD: the trick needs only backward
            pass
    with enable_grad():
        inputs_were_tuple, inputs, v, outputs, jac = _gradient_of_scalar(func, inputs, v, create_graph, strict, "hvp")
        u = tuple(_creation.zeros_like(x, requires_grad=True) for x in inputs)
        double_back = _grads(jac, inputs, u, create_graph=True)
        _check_differentiable(jac, "hessian", strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _grads(double_back, u, v, create_graph=create_graph)
        grads = _zeros_where_missing(grads, inputs, strict, create_graph, "double_back_trick")
    return _finish(outputs, create_graph)[0], _restore(_finish(grads, create_graph), inputs_were_tuple)


def _hvp_forward_over_reverse(func, inputs, v):
    with enable_grad():
        inputs_were_tuple, inputs = _tensors(inputs, "inputs", "hvp")
        inputs = _fresh(inputs, False)
        v = _v_or_error(v, inputs, inputs_were_tuple, "hvp", False, "the input to the user-provided function is")
        if v is None:
            v = tuple(_creation.ones_like(x) for x in inputs)
        with forward_ad.dual_level():
            duals = tuple(forward_ad.make_dual(x, vi) for x, vi in zip(inputs, v))
            outputs = _scalar_output(func, duals, "hvp", False)
            gradient = _grads(outputs, duals)  # no create_graph: the tangents ride along regardless
            hv = tuple(None if g is None else forward_ad.unpack_dual(g).tangent for g in gradient)
            value = forward_ad.unpack_dual(outputs[0]).primal
    grads = _zeros_where_missing(hv, inputs, False, False, "double_back_trick")
    return _finish((value,), False)[0], _restore(_finish(grads, False), inputs_were_tuple)


# --- whole Jacobians and Hessians ------------------------------------------------------------


def unit_rows(tensors, chunk_size=None):
    """The identity over all elements of ``tensors``, cut into one block of columns per
    tensor and into chunks of at most ``chunk_size`` rows: yields, per chunk, a tuple of
    (rows, numel_i) tensors. Row k of a chunk's blocks together is one unit vector: the
    batch of cotangents (or tangents) that gives a whole Jacobian in one batched pass.
    (``func.jacrev`` and ``func.jacfwd`` use it too.)"""
    sizes = [t.numel() for t in tensors]
    total = sum(sizes)
    step = max(total if chunk_size is None else chunk_size, 1)
    starts = np.cumsum([0] + sizes[:-1])
    for first in range(0, max(total, 1), step):
        rows = min(step, total - first)
        yield tuple(_tensor._wrap(np.eye(rows, n, k=first - start, dtype=t._data.dtype))
                    for t, n, start in zip(tensors, sizes, starts))


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: for output i and input j, a tensor of shape
    ``output_i.shape + input_j.shape``.

    Reverse mode computes it one output element at a time (one backward pass each), or,
    with ``vectorize=True``, all rows in one batched backward pass. ``strategy='forward-mode'``
    (needs ``vectorize=True``) pushes all unit tangents through one batched forward pass:
    cheaper when there are fewer inputs than outputs.
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). Please either '
                                      'set `create_graph=False` or `strategy="reverse-mode"`.')
        return _jacobian_forward(func, inputs, strict, vectorize)
    with enable_grad():
        inputs_were_tuple, inputs = _tensors(inputs, "inputs", "jacobian")
        inputs = _fresh(inputs, create_graph)
        outputs_were_tuple, outputs = _call(func, inputs, "jacobian")
        _check_differentiable(outputs, "outputs", strict)
        if vectorize:
            if strict:
                raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                                   "not supported together. Please either set `strict=False` or "
                                   "`vectorize=False`.")
            jac = _jacobian_batched(outputs, inputs, create_graph)
        else:
            jac = tuple(_jacobian_rows(i, out, inputs, create_graph, strict) for i, out in enumerate(outputs))
        return _restore2(_finish(jac, create_graph), outputs_were_tuple, inputs_were_tuple)


def _jacobian_rows(i, out, inputs, create_graph, strict):
    """Output ``i``'s Jacobian blocks, one backward pass per element of ``out``."""
    rows = [[] for _ in inputs]
    flat = out.reshape(-1)
    for k in range(flat.numel()):
        grads = _grads((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
        for j, (g, x) in enumerate(zip(grads, inputs)):
            if g is None:
                if strict:
                    raise RuntimeError(f"Output {i} of the user-provided function is independent of input {j}. "
                                       "This is not allowed in strict mode.")
                g = _creation.zeros_like(x)
            elif strict and create_graph and not g.requires_grad:
                raise RuntimeError(f"The jacobian of the user-provided function is independent of input {i}. "
                                   "This is not allowed in strict mode when create_graph=True.")
            rows[j].append(g)
    return tuple(stack(r).view(out.shape + x.shape) if r else _creation.zeros(out.shape + x.shape,
                                                                                      dtype=x.dtype)
                 for r, x in zip(rows, inputs))


def _jacobian_batched(outputs, inputs, create_graph):
    """All vjps at once: the unit vectors over all output elements are the batch of
    ``grad_outputs`` of a single ``autograd.grad(..., is_grads_batched=True)``."""
    basis, sizes = next(unit_rows(outputs)), [out.numel() for out in outputs]
    flat = tuple(out.reshape(-1) for out in outputs)
    grads = _grads(flat, inputs, basis, create_graph=create_graph, batched=True)
    per_input = []
    for g, x in zip(grads, inputs):
        if g is None:
            g = _creation.zeros((sum(sizes),) + tuple(x.shape), dtype=x.dtype)
        per_input.append([block.view(out.shape + x.shape) for block, out in zip(g.split(sizes), outputs)])
    return tuple(zip(*per_input))


def _jacobian_forward(func, inputs, strict, vectorize):
    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are '
                           'not supported together (yet). Please either set `strict=False` or '
                           '`strategy="reverse-mode"`.')
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    inputs_were_tuple, inputs = _tensors(inputs, "inputs", "jacobian")
    basis, sizes = next(unit_rows(inputs)), [x.numel() for x in inputs]
    outputs_seen = []

    def push_forward(*tangents):
        with forward_ad.dual_level():
            duals = tuple(forward_ad.make_dual(x, t.view_as(x)) for x, t in zip(inputs, tangents))
            was_tuple, outs = _tensors(func(*duals), "outputs", "jacobian")
            unpacked = [forward_ad.unpack_dual(o) for o in outs]
            outputs_seen.append((was_tuple, [u.primal for u in unpacked]))
            return tuple(u.tangent if u.tangent is not None else _creation.zeros_like(u.primal)
                         for u in unpacked)

    tangents = _vmap(push_forward)(*basis)
    outputs_were_tuple, outputs = outputs_seen[0]
    jac = []
    for tangent, out in zip(tangents, outputs):
        # the batch (first) dim runs over input elements: move it last, then split per input
        moved = tangent.movedim(0, -1) if tangent.dim() else tangent
        blocks = moved.reshape(tuple(out.shape) + (sum(sizes),)).split(sizes, dim=-1)
        jac.append(tuple(b.reshape(tuple(out.shape) + tuple(x.shape)) for b, x in zip(blocks, inputs)))
    return _restore2(tuple(jac), outputs_were_tuple, inputs_were_tuple)


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar ``func``: the Jacobian of its gradient. For tuple inputs,
    a tuple of tuples: block (i, j) has shape ``inputs[i].shape + inputs[j].shape``."""
    inputs_were_tuple, inputs = _tensors(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar(*xs):
        outputs = _scalar_output(func, xs, "hessian", strict)
        return outputs[0].squeeze()

    def gradient(*xs):
        if outer_jacobian_strategy == "forward-mode":
            xs = tuple(x.requires_grad_(True) for x in xs)
        jac = jacobian(scalar, xs, create_graph=True)
        _check_differentiable(jac, "jacobian", strict)
        return jac

    result = jacobian(gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                      strategy=outer_jacobian_strategy)
    return _restore2(result, inputs_were_tuple, inputs_were_tuple)


__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]
