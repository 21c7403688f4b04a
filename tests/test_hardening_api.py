"""Issue 10's bad-input and missing-API cases: each program runs on chainrule and on
PyTorch, and gives the same values, dtypes and graph names, or the same error."""
import numpy as np
import pytest

import chainrule
from helpers import error_of, require_torch


def _summary(value):
    """What a result must agree on: values, dtype and shape of tensors, recursively."""
    if isinstance(value, (tuple, list)):
        return [_summary(v) for v in value]
    if hasattr(value, "detach") and hasattr(value, "dtype"):
        array = np.asarray(value.detach().numpy())
        return ("tensor", str(value.dtype).replace("torch.", ""), tuple(array.shape), array.tolist())
    if value.__class__.__module__.startswith(("torch", "chainrule")) and hasattr(value, "is_floating_point"):
        return str(value)  # a dtype
    return value


def _backward_inputs_nonleaf(lib):
    x = lib.ones(3, requires_grad=True)
    h = x * 2
    y = (h * h).sum()
    y.backward(inputs=[h], retain_graph=True)
    first = h.grad.clone()
    y.backward(inputs=[h, x])
    return first, h.grad, x.grad


def _grad_other_dtype(lib, dtype):
    x = lib.ones(3, requires_grad=True)
    seen = []
    y = x * 2
    y.register_hook(lambda g: seen.append(str(g.dtype)))
    y.backward(lib.ones(3, dtype=getattr(lib, dtype)))
    return x.grad, seen


VALUES = {
    "gradient of another dtype is cast": lambda lib: _grad_other_dtype(lib, "float64"),
    "integer gradient is cast": lambda lib: _grad_other_dtype(lib, "int64"),
    "backward(inputs=[non-leaf]) fills its .grad": _backward_inputs_nonleaf,
}


def _leaf_times(lib):
    return lib.tensor(1.0, requires_grad=True)


@pytest.mark.parametrize("name", list(VALUES))
def test_same_values(name):
    torch = require_torch()
    assert _summary(VALUES[name](chainrule)) == _summary(VALUES[name](torch))


def _hook_program(lib, replacement, on_leaf=False, node_prehook=False):
    x = lib.ones(3, requires_grad=True)
    y = x * 2

    def hook(g):
        return replacement(lib, g)
    if node_prehook:
        y.grad_fn.register_prehook(lambda gs: (replacement(lib, gs[0]),))
    elif on_leaf:
        x.register_hook(hook)
    else:
        y.register_hook(hook)
    y.sum().backward()


def _complex_implicit(lib):
    x = lib.tensor(1 + 2j, requires_grad=True)
    (x * 2).backward()


def _backward_with(lib, gradient):
    x = lib.ones(3, requires_grad=True)
    (x * 2).backward(gradient(lib))


ERRORS = {
    "hook changes the size": lambda lib: _hook_program(lib, lambda L, g: L.ones(4)),
    "leaf hook changes the size": lambda lib: _hook_program(lib, lambda L, g: L.ones(4), on_leaf=True),
    "node prehook changes the size": lambda lib: _hook_program(lib, lambda L, g: L.ones(4), node_prehook=True),
    "hook changes the dtype": lambda lib: _hook_program(lib, lambda L, g: g.double()),
    "implicit gradient of a complex scalar": _complex_implicit,
    "backward(2.0)": lambda lib: (lib.tensor(1.0, requires_grad=True) * 2).backward(2.0),
    "backward([2.0])": lambda lib: (lib.tensor(1.0, requires_grad=True) * 2).backward([2.0]),
    "backward(ndarray)": lambda lib: _backward_with(lib, lambda L: np.ones(3)),
    "grad(..., 2.0)": lambda lib: lib.autograd.grad(_leaf_times(lib) * 2, _leaf_times(lib), 2.0),
    "grad(inputs=[])": lambda lib: lib.autograd.grad((_leaf_times(lib) * 2), inputs=[]),
    "real output, complex gradient":
        lambda lib: _backward_with(lib, lambda L: L.ones(3, dtype=L.complex64)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_same_error(name):
    torch = require_torch()
    assert error_of(lambda: ERRORS[name](chainrule)) == error_of(lambda: ERRORS[name](torch))
