"""PyTorch's argument parsing, compared with real PyTorch: the TypeErrors of arguments of
the wrong type (``_argparse``), numbers as tensor arguments, ``x + array`` left to NumPy,
and the ``out=`` variants of the pointwise ops and matrix products (``registry.into``)."""
import warnings

import numpy as np
import pytest

import chainrule
from helpers import full_error_of, require_torch


def _run(lib, call):
    x = lib.tensor([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]], requires_grad=True)
    y = lib.ones(2, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return eval(call, {"torch": lib, "np": np, "x": x, "y": y})


# the whole message, signatures and "didn't match" lines included
ERRORS = (
    # a tensor argument that is something else
    "torch.relu(3)", "torch.nn.functional.relu(None)", "torch.softmax('3', dim=-1)", "torch.log_softmax(None, 0)",
    "torch.max(None)", "torch.min(np.ones(3))", "torch.sort(3)", "torch.argsort([1])", "torch.exp(np.ones(3))",
    "torch.nn.functional.linear(y, 3)", "torch.nn.functional.linear(3, y)",
    "torch.nn.functional.cross_entropy(y, (1, 2))", "torch.nn.functional.cross_entropy(3, y)",
    "torch.nn.functional.mse_loss(y, 3)", "torch.nn.functional.l1_loss(3, y)",
    "y.mul(None)", "y.add([1.0])", "torch.mul(y, np.ones(3))", "torch.add(y, None)", "torch.add(None, y)",
    "torch.sub(None, 2)", "torch.where(None)", "torch.where(np.ones(3) > 0, y, 0.0)", "torch.where([1.0], y, 0.0)",
    "torch.where(y > 0, [1.0], 0.0)", "y.sum(dim=True)", "torch.sum(y, dim=torch.ones(2))",
    "torch.fmod(y, None)", "torch.fmod(y, [1.0])", "torch.float_power(y, None)", "torch.xlogy(y, None)",
    "torch.xlogy(None, y)", "torch.lerp(y, y, None)", "torch.lerp(y, y, [0.5])", "torch.remainder(y, None)",
    "y % None", "None % y", "torch.maximum(y, np.ones(3))", "y < np.ones(3)", "torch.eq(y, np.ones(3))", "y.lt(None)", "torch.gt(y, [1])",
    "y.ge('a')",
    # operators: NotImplemented, so Python's TypeError, or NumPy's conversion of a tensor that requires grad
    "y @ None", "y @ 2", "[1.0, 2.0] @ y", "np.ones(3) @ y.T", "x + np.ones(3)", "x @ np.ones(3)",
    "np.ones(3) + y", "np.ones(3) - y",
    # bounds, numbers, sizes, dims
    "y.clamp(min='3')", "y.clamp(min=np.ones(3))", "y.clip(min=[1])", "torch.clamp(y, [1.0, 2.0])",
    "torch.clamp(y, 1, [1.0, 2.0])",
    "torch.full((2,), torch.ones(2))", "torch.full((2,), torch.ones(1))", "torch.full((2,), np.ones(2))",
    "torch.full((2,), None)", "torch.zeros([1.0, 2.0])", "torch.zeros(1, 2.0)", "torch.zeros(2.0)",
    "torch.zeros(np.array([2, 3]))", "torch.zeros(torch.tensor([2, 3]))", "torch.zeros(True)", "torch.zeros([True, 2])",
    "torch.ones(2, -1)", "y.view([1.0, 2.0])", "y.view((1.0, 2.0))", "y.view(1.0)", "y.view(1, 2.0)", "y.view(np.ones(2))",
    "y.view(torch.tensor([1, 2]))", "y.view(-4)", "y.view(2, -4)", "y.view(-1, -1)", "y.view(-4, -1, -1)", "y.view()",
    "y.reshape([1.0])", "y.reshape(1.0)", "y.reshape(torch.tensor([1, 2]))", "y.permute(0, 1.0)", "y.expand(2.0)",
    "y.sum(dim='3')", "torch.sum(y, dim='3')", "y.sum(dim=torch.ones(2))", "y.sum(dim=(1, 1.0))", "y.sum(dim=True)",
    "y.mean(dim=[1.0])", "torch.mean(y, dim=2.0)", "y.amax(dim='3')",
    "y.transpose(0, 2.0)", "torch.transpose(y, 0, None)", "torch.transpose(y, 2.0, 0)", "y.transpose(True, 0)",
    "y.unsqueeze(2.0)", "torch.unsqueeze(y, torch.ones(1))", "y.unsqueeze(torch.tensor(True))", "y.unsqueeze_(1.0)",
    "y.transpose_(0, 1.0)",
    # autograd.grad's inputs: any iterable of tensors
    "torch.autograd.grad(x.sum(), None)", "torch.autograd.grad(x.sum(), 3)", "torch.autograd.grad(x.sum(), '3')",
    "torch.autograd.grad(x.sum(), np.ones(2))", "torch.autograd.grad(x.sum(), (x, 1))",
    # dtypes the kernels refuse
    "torch.relu(torch.tensor([1j]))", "torch.max(torch.tensor([1j]))", "torch.max(torch.tensor([1j]), 0)",
    "torch.min(torch.tensor([1j]))", "torch.sort(torch.tensor([1j]))", "torch.argsort(torch.tensor([1j]))",
    "torch.softmax(torch.tensor([1j]), 0)", "torch.softmax(torch.tensor([[1j]]), 0)",
    "torch.nn.functional.cross_entropy(y, torch.tensor(1))", "torch.nn.functional.nll_loss(y, torch.tensor(1))",
    # out=
    "torch.exp(y, out=torch.empty(0, dtype=torch.int64))", "torch.exp(x, out=torch.empty(0))", "torch.exp(y, out=3)",
    "torch.neg(y, out=torch.empty(0, dtype=torch.float64))", "torch.floor(y.long(), out=torch.empty(0))",
    "torch.abs(y.long(), out=torch.empty(0))", "torch.neg(y.bool(), out=torch.empty(0))",
    "torch.add(y, 1, out=torch.empty(0, dtype=torch.int64))", "torch.div(y.long(), 2, out=torch.empty(0).long())",
    "torch.add(y, y, out=y[0])", "torch.mm(y, y.T, out=torch.empty(0, dtype=torch.float64))",
    "torch.matmul(y, y.T, out=torch.empty(0, dtype=torch.int64))", "torch.bmm(y[None], y.T[None], out=torch.empty(0).double())",
    "torch.mv(y.long(), torch.ones(3).long(), out=torch.empty(0))",
    # the kernel refuses, but PyTorch has checked out first
    "torch.fmod(y.long(), torch.zeros(3).long(), out=torch.empty(0, dtype=torch.bool))",
    "torch.erf(y.to(torch.complex64), out=torch.empty(0))", "torch.hypot(y.long(), y.long(), out=torch.empty(5))",
)


@pytest.mark.parametrize("call", ERRORS)
def test_same_error(call):
    torch = require_torch()
    theirs = full_error_of(lambda: _run(torch, call))
    ours = full_error_of(lambda: _run(chainrule, call))
    assert (ours[0].__name__, ours[1]) == (theirs[0].__name__, theirs[1])


RESULTS = (
    "torch.add(2, 3)", "torch.add(2.5, 3)", "torch.add(True, 3)", "torch.add(2, 3, alpha=2)", "torch.add(1j, 3)",
    "torch.mul(2, 3)", "torch.mul(2, y.half())", "torch.sub(2, 3)", "torch.sub(2, y.half())", "torch.sub(2.0, y.long())",
    "torch.div(2, 3)", "torch.div(2, y)", "torch.div(7, 2, rounding_mode='floor')", "torch.add(np.float64(2), 3)",
    "y + np.ones(3)", "y * np.ones(3)", "y @ np.ones(3)", "np.exp(y)", "np.exp(y) > 1", "y.clamp(min=np.float64(2))",
    "np.ones(3) / y", "y == np.ones(3)", "x == np.ones(3)", "np.int64(2) - y", "np.float64(2) / y",
    "np.float32(2) + y", "y ** np.float64(2)", "np.isnan(y)", "torch.where(y > 0, np.float64(1), 0.0)",
    "torch.full((2,), torch.tensor(2.0))", "torch.full((2,), np.float64(2))", "torch.zeros(torch.tensor(2))",
    "torch.zeros(np.int64(2))", "y.view(torch.tensor(6))", "y.sum(dim=torch.tensor(1))", "y.sum(dim=[torch.tensor(1)])",
    "y.sum(dim=np.int64(1))", "y.transpose(0, torch.tensor(1))", "y.unsqueeze(np.int64(1))",
    "torch.autograd.grad(x.sum(), iter([x]))",
    "torch.exp(y, out=torch.empty(0))", "torch.exp(y, out=torch.empty(2, 3))", "torch.sin(y, out=torch.empty(5))",
    "torch.exp(y, out=torch.empty(0, dtype=torch.float64))", "torch.sqrt(y.long(), out=torch.empty(0))",
    "torch.abs(y.to(torch.complex64), out=torch.empty(0, dtype=torch.float64))", "torch.round(y, decimals=1, out=torch.empty(0))",
    "torch.logit(y * 0.5, eps=0.1, out=torch.empty(0))", "torch.erf(y, out=torch.empty(0))",
    "torch.add(y, y, out=torch.empty(0))", "torch.add(y.long(), 1, out=torch.empty(0))", "torch.add(y, y, out=y)",
    "torch.sub(y, y, alpha=2, out=torch.empty(1))", "torch.mul(y, 2, out=torch.empty(2, 3))",
    "torch.div(y, 2, rounding_mode='floor', out=torch.empty(0))", "torch.neg(y, out=torch.empty(0))",
    "torch.matmul(y, y.T, out=torch.empty(0))", "torch.mm(y, y.T, out=torch.empty(7))",
    "torch.bmm(y[None], y.T[None], out=torch.empty(0))", "torch.mv(y, torch.ones(3), out=torch.empty(0))",
    "torch.maximum(y, y * 2, out=torch.empty(0))", "torch.pow(y, 2, out=torch.empty(0, dtype=torch.float64))",
    "torch.remainder(y, 0.3, out=torch.empty(0))", "torch.atan2(y, y, out=torch.empty(2, 3))",
    "torch.addcmul(y, y, y, value=2, out=torch.empty(0))", "torch.logical_and(y, y, out=torch.empty(0))",
    "torch.lerp(y, y * 2, 0.5, out=torch.empty(0))",
)


def _summary(result):
    if isinstance(result, tuple):
        return tuple(map(_summary, result))
    data = np.asarray(result.detach().numpy())
    return type(result).__name__, str(result.dtype), tuple(result.shape), repr(data.astype(complex).round(5).tolist())


@pytest.mark.parametrize("call", RESULTS)
def test_same_result(call):
    """The same type (a tensor, also from NumPy's ufuncs), dtype, shape and values."""
    torch = require_torch()
    assert _summary(_run(chainrule, call)) == _summary(_run(torch, call))


def test_out_is_returned_and_resized_with_a_warning():
    torch = require_torch()
    seen = []
    for lib in (chainrule, torch):
        out = lib.zeros(5)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = lib.exp(lib.zeros(2, 3), out=out)
        seen.append((result is out, tuple(out.shape), out._version, any("was resized" in str(w.message) for w in caught)))
    assert seen[0] == seen[1] and seen[0][0]


def _inference_program(lib, case):
    x = lib.ones(2, 3, requires_grad=True)
    normal = lib.ones(2, 3)
    with lib.inference_mode():
        made = lib.ones(2, 3)
        computed = normal * 2
        view = normal[0]
    programs = {
        "saved by mul": lambda: (made * x).sum(),
        "a computed one, saved by exp": lambda: lib.exp(computed * x),
        "its view, saved by mm": lambda: x.matmul(made.T),
        "not saved by add": lambda: (x + made).sum().backward(),
        "a clone is normal": lambda: (made.clone() * x).sum().backward(),
        "in place outside": lambda: made.add_(1),
        "in place under no_grad": lambda: lib.no_grad()(lambda: made.add_(1))(),
        "requires_grad_": lambda: made.requires_grad_(),
        "_version": lambda: made._version,
        "a view of a normal tensor is normal": lambda: (view * x).sum().backward(),
        "is_inference": lambda: (made.is_inference(), computed.is_inference(), view.is_inference(),
                                 made.detach().is_inference(), (made + 1).is_inference()),
    }
    return programs[case]()


@pytest.mark.parametrize("case", ["saved by mul", "a computed one, saved by exp", "its view, saved by mm",
                                  "not saved by add", "a clone is normal", "in place outside", "in place under no_grad",
                                  "requires_grad_", "_version", "a view of a normal tensor is normal", "is_inference"])
def test_inference_tensors(case):
    """Tensors made under inference_mode: PyTorch's errors where autograd would need them."""
    torch = require_torch()
    outcomes = []
    for lib in (chainrule, torch):
        try:
            result = _inference_program(lib, case)
            outcomes.append(("ok", result if isinstance(result, (tuple, int)) else type(result).__name__))
        except RuntimeError as e:
            outcomes.append(("RuntimeError", str(e)))
    assert outcomes[0] == outcomes[1]
