"""Bad input: wrong types, shapes, dims, dtypes, backward misuse; the same exception as PyTorch.

A case is a call (``CALLS``, each ``lambda lib, bad: ...``) with one argument replaced by a
bad value (``BAD``, each ``lambda lib: value``); each is run on chainrule and on PyTorch and
the exception type and first line compared (or, where neither raises, the result's dtype and
shape). ``MISUSE`` adds backward misuse programs. Class key: ``"<call>|bad:<kind>|<bad value>"``.
"""
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import chainrule
from fuzz.compare import _error
from fuzz.conftest import RECORD, STRICT, fuzz_settings
from fuzz.known_classes import KNOWN_BAD_INPUT
from helpers import require_torch


def _x(lib):
    return lib.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]], requires_grad=True)


BAD = {
    "None": lambda lib: None, "str": lambda lib: "3", "list": lambda lib: [1.0, 2.0], "float": lambda lib: 2.0,
    "int": lambda lib: 3, "ndarray": lambda lib: np.ones(3), "tuple": lambda lib: (1, 2),
    "complex_t": lambda lib: lib.tensor([1 + 1j, 2j]), "int_t": lambda lib: lib.tensor([1, 2]),
    "bool_t": lambda lib: lib.tensor([True, False]), "empty_t": lambda lib: lib.zeros(0),
    "0d_t": lambda lib: lib.tensor(1.5), "big_dim": lambda lib: 5, "neg_dim": lambda lib: -4,
    "f64_t": lambda lib: lib.ones(2, 3, dtype=lib.float64), "wrong_shape_t": lambda lib: lib.ones(4, 5),
}
CALLS = {
    "exp": lambda lib, b: lib.exp(b), "add": lambda lib, b: _x(lib) + b, "radd": lambda lib, b: b + _x(lib),
    "mul_method": lambda lib, b: _x(lib).mul(b), "matmul": lambda lib, b: _x(lib) @ b,
    "reshape": lambda lib, b: _x(lib).reshape(b), "view": lambda lib, b: _x(lib).view(b),
    "sum_dim": lambda lib, b: _x(lib).sum(dim=b), "softmax": lambda lib, b: lib.softmax(b, dim=-1),
    "relu": lambda lib, b: lib.relu(b), "max": lambda lib, b: lib.max(b), "sort": lambda lib, b: lib.sort(b),
    "cat": lambda lib, b: lib.cat([_x(lib), b]), "stack": lambda lib, b: lib.stack([_x(lib), b]),
    "where": lambda lib, b: lib.where(b, _x(lib), 0.0), "index": lambda lib, b: _x(lib)[b],
    "transpose": lambda lib, b: _x(lib).transpose(0, b), "unsqueeze": lambda lib, b: _x(lib).unsqueeze(b),
    "tensor": lambda lib, b: lib.tensor(b), "zeros": lambda lib, b: lib.zeros(b),
    "full": lambda lib, b: lib.full((2,), b), "clamp": lambda lib, b: _x(lib).clamp(min=b),
    "backward_gradient": lambda lib, b: (_x(lib) * 2).backward(b),
    "grad_outputs": lambda lib, b: lib.autograd.grad((_x(lib) * 2).sum(), [_x(lib)], b),
    "grad_inputs": lambda lib, b: lib.autograd.grad((_x(lib) * 2).sum(), b),
    "mse_target": lambda lib, b: lib.nn.functional.mse_loss(_x(lib), b),
    "cross_entropy_target": lambda lib, b: lib.nn.functional.cross_entropy(_x(lib), b),
    "linear_weight": lambda lib, b: lib.nn.functional.linear(_x(lib), b),
}


def _twice(lib):
    y = (_x(lib) * _x(lib)).sum()
    y.backward()
    y.backward()


def _nonleaf_inputs(lib):
    x = _x(lib)
    h = x * 2
    h.sum().backward(inputs=[h])
    return h.grad


def _grad_dtype(lib):
    x = _x(lib)
    (x * 2).backward(lib.ones(2, 3, dtype=lib.float64))
    return x.grad


MISUSE = {
    "backward_twice": _twice,
    "backward_nonscalar": lambda lib: (_x(lib) * 2).backward(),
    "backward_no_grad": lambda lib: lib.ones(2).sum().backward(),
    "grad_empty_inputs": lambda lib: lib.autograd.grad((_x(lib) * 2).sum(), []),
    "grad_unused": lambda lib: lib.autograd.grad((_x(lib) * 2).sum(), [_x(lib)]),
    "backward_inputs_nonleaf": _nonleaf_inputs,
    "gradient_other_dtype": _grad_dtype,
    "gradient_other_shape": lambda lib: (_x(lib) * 2).backward(lib.ones(3, 2)),
    "backward_complex_scalar": lambda lib: (_x(lib) * (1 + 1j)).sum().backward(),
    "leaf_inplace": lambda lib: _x(lib).add_(1),
    "requires_grad_int": lambda lib: lib.tensor([1, 2]).requires_grad_(),
    "numpy_requires_grad": lambda lib: _x(lib).numpy(),
    "item_many": lambda lib: _x(lib).item(),
    "hook_wrong_size": lambda lib: _hooked(lib),
}


def _hooked(lib):
    x = _x(lib)
    x.register_hook(lambda g: g[0])
    (x * 2).sum().backward()


def outcome(fn):
    """("error", type, first line), or ("ok", dtype, shape) of a tensor result, or ("ok", repr)."""
    try:
        result = fn()
    except Exception as e:  # noqa: BLE001  (the exception is what we compare)
        return _error(e)
    if hasattr(result, "dtype") and hasattr(result, "shape") and not isinstance(result, np.ndarray):
        return ("ok", str(result.dtype), tuple(result.shape))
    if isinstance(result, tuple):
        return ("ok", tuple(str(getattr(r, "dtype", type(r).__name__)) for r in result))
    return ("ok", type(result).__name__)


def kind_of(ours, theirs):
    if ours == theirs:
        return None
    if ours[0] == "error" and theirs[0] == "error":
        return "error-type" if ours[1] != theirs[1] else "error-text"
    if ours[0] == "error":
        return "extra-error"
    return "missing-error" if theirs[0] == "error" else "result"


def check(call, bad):
    """(class key or None, detail) for CALLS[call] with BAD[bad], or MISUSE[call] when bad is None."""
    torch = require_torch()
    if bad is None:
        ours, theirs = outcome(lambda: MISUSE[call](chainrule)), outcome(lambda: MISUSE[call](torch))
    else:
        ours = outcome(lambda: CALLS[call](chainrule, BAD[bad](chainrule)))
        theirs = outcome(lambda: CALLS[call](torch, BAD[bad](torch)))
    kind = kind_of(ours, theirs)
    return (None if kind is None else f"{call}|bad:{kind}|{bad or 'misuse'}"), f"{ours} / PyTorch {theirs}"


CASES = [(c, b) for c in CALLS for b in BAD] + [(m, None) for m in MISUSE]


def _record(case):
    key, detail = check(*case)
    RECORD.count("bad-input cases")
    if key is not None:
        RECORD.add(key, 0, detail, f"check{case!r}", case)
    return key


@fuzz_settings(ci_examples=60)
@given(st.sampled_from(CASES))
def test_bad_input_sampled(case):
    key = _record(case)
    assert key is None or key in KNOWN_BAD_INPUT or not STRICT, f"{key}: {check(*case)[1]}"


def test_bad_input_all():
    """Every case (about 500), deterministic; and the listed classes still reproduce (strict)."""
    found = {k for k in map(_record, CASES) if k}
    new, gone = found - set(KNOWN_BAD_INPUT), set(KNOWN_BAD_INPUT) - found
    assert not (new and STRICT), f"bad-input classes not in known_classes.KNOWN_BAD_INPUT: {sorted(new)}"
    assert not gone, f"fixed: remove from known_classes.KNOWN_BAD_INPUT: {sorted(gone)}"
