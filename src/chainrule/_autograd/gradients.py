"""``autograd.backward`` and ``autograd.grad``: argument checks, then the engine.

The checks give PyTorch's errors. Where a user got the ``gradient`` argument wrong, one
line of help follows PyTorch's message: for a non-scalar output y, ``y.backward(v)``
computes the vector-Jacobian product J^T·v, so v must have y's shape.
"""
import re

import numpy as np

from .._core import arguments as _argparse, tensor as _tensor
from .._core.modes import VMAP, any_batched
from .._core.tensor import tensor_methods
from .anomaly_mode import called_from, place, with_line
from .engine import _accumulate as accumulate_grad, current_grad_fn, run_backward


def _as_tuple(x):
    if x is None:
        return None
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _grads_tuple(grads, n):
    """PyTorch's reading of ``grad_tensors``: None, one tensor, or a sequence of them. A
    bare number is no sequence (``backward(2.0)``: "'float' object is not iterable")."""
    if grads is None:
        return (None,) * n
    if isinstance(grads, _tensor.Tensor):
        return (grads,)
    grads = tuple(grads)
    for g in grads:
        if g is not None and not isinstance(g, _tensor.Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return grads


def _make_grads(outputs, grads, is_grads_batched=False):
    """The gradient for each output: given, or ones for a scalar (PyTorch's implicit grad).
    A given gradient of another dtype is cast to the output's, as PyTorch's engine does, so
    a leaf's ``.grad`` keeps the leaf's dtype."""
    result = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if out._requires_grad and out._data.size != 1:
                raise with_line(RuntimeError("grad can be implicitly created only for scalar outputs"),
                                _non_scalar_hint(tuple(out._data.shape)))
            if out._requires_grad and out._data.dtype.kind != "f":
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {out.dtype}")
            if out._requires_grad:
                g = _tensor._wrap(np.ones_like(out._data))
        else:
            if g._data.shape != out._data.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of torch.Size({list(g._data.shape)}) "
                    f"and output[{i}] has a shape of torch.Size({list(out._data.shape)}).\n"
                    f"Hint: the gradient v in J^T·v needs the output's shape {list(out._data.shape)}, "
                    f"not {list(g._data.shape)}.")
            if g._data.dtype.kind != out._data.dtype.kind and (g._data.dtype.kind == "c") != (out._data.dtype.kind == "c"):
                raise RuntimeError(f"For complex Tensors, both grad_output and output are required to "
                                   f"have the same dtype. Mismatch in dtype: grad_output[{i}] has a dtype "
                                   f"of {g.dtype} and output[{i}] has a dtype of {out.dtype}.")
            if g._data.dtype != out._data.dtype:
                g = g.to(out.dtype)
        result.append(g)
    return result


_BACKWARD_CALL = re.compile(r"([A-Za-z_][\w.]*(?:\[[^\]]*\])?)\s*\.backward\(\s*\)")


def _non_scalar_hint(shape):
    """chainrule's line after PyTorch's (an exception note: ``str(error)`` stays PyTorch's
    text): the output's shape, the user's line, and the call that would work there
    (``y.backward(torch.ones_like(y))``)."""
    where = called_from()
    at = "" if where is None else f" at {place(where)}"
    match = _BACKWARD_CALL.search(place(where)) if where is not None else None
    name = match.group(1) if match and not match.group(1).endswith("autograd") else "output"
    return (f"Hint: the output has shape torch.Size({list(shape)}){at}; {name}.backward(torch.ones_like({name})) "
            f"gives the gradient of {name}.sum(), and any gradient=v of that shape works: backward computes J^T·v.")


def _refresh_views(outputs, inputs):
    """Views changed in place since they were taken get their history rebuilt first."""
    for t in outputs + (inputs or ()):
        if t._extra is not None:
            current_grad_fn(t)


def _check_requires_grad(outputs):
    for i, out in enumerate(outputs):
        if not out._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """Accumulates into each leaf's ``.grad`` the gradient of ``tensors`` weighted by
    ``grad_tensors`` (the v of J^T·v)."""
    tensors = _as_tuple(tensors)
    grads = _grads_tuple(grad_tensors if grad_tensors is not None else grad_variables, len(tensors))
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    inputs = _as_tuple(inputs)
    if inputs is not None and len(inputs) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    _refresh_views(tensors, inputs)
    _check_requires_grad(tensors)
    grads = _make_grads(tensors, grads)
    if retain_graph is None:
        retain_graph = create_graph
    captured = run_backward(tensors, grads, retain_graph, create_graph, inputs=inputs)
    if inputs is not None:  # a non-leaf among ``inputs`` gets its gradient in .grad, as a leaf would
        done = set()
        for t, g in zip(inputs, captured):
            if t.grad_fn is not None and g is not None and id(t) not in done and not t.retains_grad:
                done.add(id(t))
                accumulate_grad(t, g, create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of ``outputs`` with respect to ``inputs``, returned (not accumulated).

    >>> x = chainrule.tensor(3.0, requires_grad=True)
    >>> chainrule.autograd.grad(x ** 2, x)
    (tensor(6.),)
    """
    outputs = _as_tuple(outputs)
    # PyTorch's reading: a tensor, or any iterable ("'int' object is not iterable")
    inputs = (inputs,) if isinstance(inputs, _tensor.Tensor) else tuple(inputs)
    if not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if VMAP.active and any_batched(outputs, inputs):
        # inside vmap: the graph was recorded on the batch's inner tensors; differentiate there
        return VMAP.autograd_grad(outputs, inputs, grad_outputs, retain_graph=retain_graph, create_graph=create_graph,
                             allow_unused=allow_unused, materialize_grads=materialize_grads)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    for t in inputs:
        if not isinstance(t, _tensor.Tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {_argparse.type_name(t)}")
        if not t._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads = _grads_tuple(grad_outputs, len(outputs))
    if len(grads) != len(outputs):
        raise RuntimeError(f"got {len(outputs)} tensors and {len(grads)} gradients")
    if is_grads_batched:  # one backward pass for the whole batch of grad_outputs: vmap over them
        unused = []

        def one_backward(*batch):
            result = grad(outputs, inputs, batch, retain_graph, create_graph, allow_unused=allow_unused,
                          materialize_grads=materialize_grads)
            unused.extend(i for i, g in enumerate(result) if g is None)
            # vmap returns tensors only: a stand-in where no gradient arrived, None again below
            return tuple(_tensor._wrap(np.zeros(())) if g is None else g for g in result)

        batched = VMAP.vmap(one_backward)(*grads)
        return tuple(None if i in unused else g for i, g in enumerate(batched))
    _refresh_views(outputs, inputs)
    _check_requires_grad(outputs)
    grads = _make_grads(outputs, grads)
    if retain_graph is None:
        retain_graph = create_graph
    captured = run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs, accumulate=False)
    result = []
    for i, (t, g) in enumerate(zip(inputs, captured)):
        if g is None:
            if materialize_grads:
                g = _tensor._wrap(np.zeros_like(t._data))
            elif not allow_unused:
                raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used "
                                   "in the graph. Set allow_unused=True if this is the desired behavior.")
        elif not create_graph and g._requires_grad:
            g = g.detach()
        result.append(g)
    return tuple(result)



class _TensorMethods:
    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Adds d(self)/d(leaf), weighted by ``gradient``, into each leaf's ``.grad``.

        For a non-scalar ``self``, ``gradient`` is the v of the vector-Jacobian product
        J^T·v: ``y.backward(v)`` gives each leaf x the gradient of ``(y * v).sum()``.
        """
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)


tensor_methods(_TensorMethods)
