"""Tensor basics against PyTorch: metadata, conversions, copies, casts, Python protocols
and comparisons.

Each case is one lambda run on both libraries. ``outcome`` reduces what it returned (or
raised, or warned) to plain data: for a tensor its repr, dtype, shape, requires_grad and
leaf-ness; for an error its type and message. The two outcomes must be equal, so an error
message is checked as strictly as a value.
"""
import re
import warnings

import numpy as np
import pytest

import chainrule
from helpers import require_torch


def describe(value, lib):
    """Plain data standing for ``value``, comparable across the two libraries."""
    if isinstance(value, lib.Tensor):
        return ("tensor", repr(value), repr(value.dtype), tuple(value.shape), value.requires_grad,
                value.is_leaf)
    if isinstance(value, lib.Size):
        return ("Size", repr(value), tuple(value))
    if isinstance(value, lib.dtype):
        return ("dtype", repr(value))
    if isinstance(value, lib.device):
        return ("device", repr(value), str(value), value.type)
    if isinstance(value, np.ndarray):
        return ("ndarray", str(value.dtype), value.shape, value.tolist())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [describe(v, lib) for v in value])
    if isinstance(value, (bool, int, float, complex, str, type(None))):
        return (type(value).__name__, value)
    return ("other", type(value).__name__)


# Warnings PyTorch gives only once per process (TORCH_WARN_ONCE), so whether torch shows
# them depends on test order; chainrule's are checked on their own, below.
WARN_ONCE = ("The use of `x.T` on tensors of dimension other than 2", "Tensor.T is deprecated on 0-D tensors",
             "Converting a tensor with requires_grad=True to a scalar")
# NumPy 2 warns about torch's own __array__, which lacks the ``copy`` keyword.
TORCH_ONLY = ("__array__ implementation doesn't accept a copy keyword",)


def _warning_text(warning):
    """A warning's message without PyTorch's "(Triggered internally at <C++ file>)" tail."""
    return re.sub(r" \(Triggered internally at [^)]*\)$", "", str(warning.message))


def outcome(make, lib):
    """("returned", description, warnings) or ("raised", type, message, warnings)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = make(lib)
        except Exception as error:  # noqa: BLE001  (the error is the outcome)
            result = ("raised", type(error).__name__, str(error))
        else:
            result = ("returned", describe(value, lib))
    texts = [_warning_text(w) for w in caught]
    texts = [t for t in texts if not t.startswith(WARN_ONCE + TORCH_ONLY)]
    return result + (sorted(texts),)


def bug(reason):
    """A case chainrule gets wrong today, kept failing on purpose until it is fixed."""
    return pytest.mark.xfail(strict=True, reason=reason)


def cases(table, bugs):
    """pytest params for a table of cases, with the known bugs marked."""
    return [pytest.param(name, id=name, marks=[bug(bugs[name])] if name in bugs else []) for name in table]


def check(make):
    torch = require_torch()
    assert outcome(make, chainrule) == outcome(make, torch)


def x23(lib):
    return lib.tensor([[1.5, -2.0, 3.0], [0.0, 4.25, -6.5]])


def leaf(lib):
    return lib.tensor([1.0, 2.0, 3.0], requires_grad=True)


# --- metadata -------------------------------------------------------------------------

METADATA = {
    "shape": lambda lib: x23(lib).shape,
    "shape of 0-d": lambda lib: lib.tensor(1.0).shape,
    "shape of empty": lambda lib: lib.zeros(0, 3).shape,
    "size()": lambda lib: x23(lib).size(),
    "size(1)": lambda lib: x23(lib).size(1),
    "size(-1)": lambda lib: x23(lib).size(-1),
    "size(2) out of range": lambda lib: x23(lib).size(2),
    "size(-3) out of range": lambda lib: x23(lib).size(-3),
    "size of 0-d": lambda lib: lib.tensor(2.0).size(),
    "dim()": lambda lib: x23(lib).dim(),
    "dim() of 0-d": lambda lib: lib.tensor(2.0).dim(),
    "ndim": lambda lib: lib.ones(2, 3, 4).ndim,
    "ndimension()": lambda lib: lib.ones(2, 3, 4).ndimension(),
    "numel()": lambda lib: x23(lib).numel(),
    "numel() of 0-d": lambda lib: lib.tensor(2.0).numel(),
    "numel() of empty": lambda lib: lib.zeros(0, 3).numel(),
    "nelement()": lambda lib: x23(lib).nelement(),
    "torch.numel": lambda lib: lib.numel(x23(lib)),
    "dtype": lambda lib: x23(lib).dtype,
    "dtype int": lambda lib: lib.tensor([1, 2]).dtype,
    "device": lambda lib: x23(lib).device,
    "str(device)": lambda lib: str(x23(lib).device),
    "device == 'cpu'": lambda lib: x23(lib).device == lib.device("cpu"),
    "is_leaf": lambda lib: (leaf(lib).is_leaf, (leaf(lib) * 2).is_leaf, x23(lib).is_leaf),
    "requires_grad": lambda lib: (leaf(lib).requires_grad, (leaf(lib) * 2).requires_grad, x23(lib).requires_grad),
    "grad_fn of a leaf": lambda lib: leaf(lib).grad_fn,
    "grad of a fresh leaf": lambda lib: leaf(lib).grad,
    "is_floating_point()": lambda lib: (x23(lib).is_floating_point(), lib.tensor([1]).is_floating_point()),
    "is_complex()": lambda lib: (x23(lib).is_complex(), lib.tensor([1j]).is_complex()),
    "torch.is_tensor": lambda lib: (lib.is_tensor(x23(lib)), lib.is_tensor([1.0])),
    "element_size()": lambda lib: (x23(lib).element_size(), lib.tensor([1]).element_size()),
    "type()": lambda lib: (x23(lib).type(), lib.tensor([1]).type(), lib.tensor([True]).type()),
    "stride()": lambda lib: (x23(lib).stride(), x23(lib).t().stride(), lib.ones(2, 3, 4).stride(1)),
    "is_contiguous()": lambda lib: (x23(lib).is_contiguous(), x23(lib).t().is_contiguous()),
    "is_cuda": lambda lib: x23(lib).is_cuda,
}


@pytest.mark.parametrize("name", list(METADATA))
def test_metadata(name):
    check(METADATA[name])


# --- torch.Size ---------------------------------------------------------------------------

SIZE = {
    "repr": lambda lib: repr(lib.Size([2, 3])),
    "str": lambda lib: str(lib.Size([2, 3])),
    "empty": lambda lib: repr(lib.Size([])),
    "one": lambda lib: repr(lib.Size([4])),
    "from shape": lambda lib: repr(lib.ones(2, 1, 3).shape),
    "in format": lambda lib: "shape {}".format(lib.ones(2, 2).shape),
    "in f-string": lambda lib: f"{lib.ones(5).shape}",
    "in a list": lambda lib: str([lib.ones(2).shape, lib.ones(1, 1).shape]),
    "index": lambda lib: lib.ones(2, 3).shape[1],
    "negative index": lambda lib: lib.ones(2, 3).shape[-1],
    "slice is a Size": lambda lib: lib.ones(2, 3, 4).shape[1:],
    "numel": lambda lib: lib.Size([2, 3, 4]).numel(),
    "equals tuple": lambda lib: lib.ones(2, 3).shape == (2, 3),
    "equals list": lambda lib: lib.ones(2, 3).shape == [2, 3],
    "is a tuple": lambda lib: isinstance(lib.ones(2).shape, tuple),
    "unpacks": lambda lib: list(lib.ones(2, 3).shape),
    "len": lambda lib: len(lib.ones(2, 3, 1).shape),
    "hash like tuple": lambda lib: hash(lib.ones(2, 3).shape) == hash((2, 3)),
}


@pytest.mark.parametrize("name", list(SIZE))
def test_size(name):
    check(SIZE[name])


# --- Python numbers and lists out of tensors --------------------------------------------

CONVERSIONS = {
    "item float": lambda lib: lib.tensor(2.5).item(),
    "item float32 precision": lambda lib: lib.tensor(0.1).item(),
    "item float64": lambda lib: lib.tensor(0.1, dtype=lib.float64).item(),
    "item int": lambda lib: lib.tensor(7).item(),
    "item bool": lambda lib: lib.tensor(True).item(),
    "item complex": lambda lib: lib.tensor(1 + 2j).item(),
    "item of one element": lambda lib: lib.ones(1, 1).item(),
    "item requires grad": lambda lib: leaf(lib).sum().item(),
    "item of many": lambda lib: lib.ones(2).item(),
    "item of none": lambda lib: lib.ones(0).item(),
    "tolist": lambda lib: x23(lib).tolist(),
    "tolist 0-d": lambda lib: lib.tensor(1.5).tolist(),
    "tolist int": lambda lib: lib.tensor([[1, 2], [3, 4]]).tolist(),
    "tolist bool": lambda lib: lib.tensor([True, False]).tolist(),
    "tolist float32 values": lambda lib: lib.tensor([0.1, 0.2]).tolist(),
    "tolist requires grad": lambda lib: leaf(lib).tolist(),
    "tolist empty": lambda lib: lib.zeros(2, 0).tolist(),
    "float()": lambda lib: float(lib.tensor(2)),
    "float() of one element": lambda lib: float(lib.tensor([[2.5]])),
    "float() requires grad": lambda lib: float(leaf(lib)[0]),
    "float() of many": lambda lib: float(lib.ones(2)),
    "int()": lambda lib: int(lib.tensor(2.7)),
    "int() negative": lambda lib: int(lib.tensor(-2.7)),
    "int() of many": lambda lib: int(lib.ones(3)),
    "complex()": lambda lib: complex(lib.tensor(1.5)),
    "bool() true": lambda lib: bool(lib.tensor([3])),
    "bool() false": lambda lib: bool(lib.tensor(0.0)),
    "bool() of many": lambda lib: bool(lib.ones(2)),
    "bool() of none": lambda lib: bool(lib.ones(0)),
    "if tensor": lambda lib: "yes" if lib.tensor(1.0) > 0 else "no",
    "index list": lambda lib: [10, 20, 30][lib.tensor(1)],
    "index range": lambda lib: list(range(lib.tensor(3))),
    "index of one-element": lambda lib: [10, 20, 30][lib.tensor([2])],
    "index of float": lambda lib: [10, 20, 30][lib.tensor(1.0)],
    "index of many": lambda lib: [10, 20, 30][lib.tensor([1, 2])],
    "operator.index": lambda lib: lib.tensor(5).__index__(),
    "format 0-d": lambda lib: f"{lib.tensor(2.5):.2f}",
    "format 0-d int": lambda lib: "{:>4}".format(lib.tensor(7)),
    "format plain": lambda lib: "{}".format(lib.tensor([1.0, 2.0])),
    "format with spec of many": lambda lib: "{:.2f}".format(lib.ones(2)),
}


CONVERSION_BUGS = {
}


@pytest.mark.parametrize("name", cases(CONVERSIONS, CONVERSION_BUGS))
def test_conversions(name):
    check(CONVERSIONS[name])


# --- NumPy ------------------------------------------------------------------------------

NUMPY = {
    "numpy()": lambda lib: x23(lib).numpy(),
    "numpy() int": lambda lib: lib.tensor([1, 2]).numpy(),
    "numpy() 0-d": lambda lib: lib.tensor(1.5).numpy(),
    "numpy() requires grad": lambda lib: leaf(lib).numpy(),
    "numpy() non-leaf": lambda lib: (leaf(lib) * 2).numpy(),
    "numpy(force=True)": lambda lib: leaf(lib).numpy(force=True),
    "detach().numpy()": lambda lib: leaf(lib).detach().numpy(),
    "np.asarray": lambda lib: np.asarray(x23(lib)),
    "np.asarray dtype": lambda lib: np.asarray(lib.tensor([1, 2]), dtype=np.float64),
    "np.array": lambda lib: np.array(lib.tensor([[True, False]])),
    "np.asarray requires grad": lambda lib: np.asarray(leaf(lib)),
    "np.sum": lambda lib: float(np.sum(np.asarray(x23(lib)))),
}


@pytest.mark.parametrize("name", list(NUMPY))
def test_numpy(name):
    check(NUMPY[name])


def test_numpy_shares_memory_both_ways():
    t = chainrule.zeros(3)
    a = t.numpy()
    a[0] = 5.0
    assert t[0].item() == 5.0
    t[1] = 7.0
    assert a[1] == 7.0
    assert np.shares_memory(np.asarray(t), a)


# --- copies, detaching, requires_grad --------------------------------------------------

COPIES = {
    "clone": lambda lib: x23(lib).clone(),
    "clone of leaf": lambda lib: leaf(lib).clone(),
    "torch.clone": lambda lib: lib.clone(leaf(lib)),
    "detach": lambda lib: leaf(lib).detach(),
    "detach of non-leaf": lambda lib: (leaf(lib) * 2).detach(),
    "torch.detach": lambda lib: lib.detach(leaf(lib) * 2),
    "detach_ of non-leaf": lambda lib: (leaf(lib) * 2).detach_(),
    "data": lambda lib: (leaf(lib) * 2).data,
    "requires_grad_": lambda lib: x23(lib).requires_grad_(),
    "requires_grad_(False)": lambda lib: leaf(lib).requires_grad_(False),
    "requires_grad_ int": lambda lib: lib.tensor([1, 2]).requires_grad_(),
    "requires_grad_ bool": lambda lib: lib.tensor([True]).requires_grad_(),
    "requires_grad_(False) of non-leaf": lambda lib: (leaf(lib) * 2).requires_grad_(False),
    "requires_grad_(True) of non-leaf": lambda lib: (leaf(lib) * 2).requires_grad_(True),
    "requires_grad_ of complex": lambda lib: lib.tensor([1j]).requires_grad_(),
    "set requires_grad int": lambda lib: setattr(lib.tensor([1]), "requires_grad", True),
}


COPY_BUGS = {}


@pytest.mark.parametrize("name", cases(COPIES, COPY_BUGS))
def test_copies(name):
    check(COPIES[name])


def test_clone_owns_its_memory_and_detach_shares_it():
    t = chainrule.ones(3)
    c, d = t.clone(), t.detach()
    t[0] = 9.0
    assert c.tolist() == [1.0, 1.0, 1.0]
    assert d.tolist() == [9.0, 1.0, 1.0]


def test_clone_passes_gradient_and_detach_stops_it():
    torch = require_torch()
    for lib in (chainrule, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x.clone() * 3 + x.detach() * 5).sum().backward()
        assert x.grad.tolist() == [3.0, 3.0]


def test_detach_in_place_cuts_the_graph():
    x = chainrule.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert y.detach_() is y
    assert y.grad_fn is None and not y.requires_grad and y.is_leaf


def test_requires_grad_returns_self():
    t = chainrule.zeros(2)
    assert t.requires_grad_() is t
    assert t.requires_grad


# --- casts -------------------------------------------------------------------------------

CASTS = {
    "to(float64)": lambda lib: x23(lib).to(lib.float64),
    "to(int64) truncates": lambda lib: x23(lib).to(lib.int64),
    "to(dtype=)": lambda lib: x23(lib).to(dtype=lib.int32),
    "to(bool)": lambda lib: x23(lib).to(lib.bool),
    "to(complex64)": lambda lib: x23(lib).to(lib.complex64),
    "to('cpu')": lambda lib: x23(lib).to("cpu"),
    "to(device)": lambda lib: x23(lib).to(lib.device("cpu")),
    "to('cpu', dtype)": lambda lib: x23(lib).to("cpu", lib.float16),
    "to(tensor)": lambda lib: x23(lib).to(lib.tensor([1])),
    "to of leaf": lambda lib: leaf(lib).to(lib.float64),
    "to(int) of leaf": lambda lib: leaf(lib).to(lib.int64),
    "float()": lambda lib: lib.tensor([1, 2]).float(),
    "double()": lambda lib: lib.tensor([1, 2]).double(),
    "half()": lambda lib: lib.tensor([1, 2]).half(),
    "long()": lambda lib: x23(lib).long(),
    "int()": lambda lib: x23(lib).int(),
    "short()": lambda lib: x23(lib).short(),
    "bool()": lambda lib: x23(lib).bool(),
    "byte()": lambda lib: lib.tensor([1, 200]).byte(),
    "char()": lambda lib: lib.tensor([1, 100]).char(),
    "double() of leaf": lambda lib: leaf(lib).double(),
    "float() of float": lambda lib: leaf(lib).float(),
    "type(dtype)": lambda lib: x23(lib).type(lib.int64),
    "cpu()": lambda lib: leaf(lib).cpu(),
}


CAST_BUGS = {
}


@pytest.mark.parametrize("name", cases(CASTS, CAST_BUGS))
def test_casts(name):
    check(CASTS[name])


def test_cast_to_own_dtype_is_the_same_tensor():
    t = chainrule.ones(2)
    assert t.to(chainrule.float32) is t
    assert t.float() is t
    assert t.to("cpu") is t
    assert t.to(chainrule.float32, copy=True) is not t


def test_cast_gradient_flows_back_in_the_original_dtype():
    torch = require_torch()
    for lib in (chainrule, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        (x.double() * 3).sum().backward()
        assert repr(x.grad.dtype).endswith("float32")
        assert x.grad.tolist() == [3.0, 3.0]


# --- layout: contiguous, T, len, iteration ---------------------------------------------

LAYOUT = {
    "contiguous()": lambda lib: x23(lib).contiguous(),
    "T": lambda lib: x23(lib).T,
    "T of 1-d": lambda lib: lib.tensor([1.0, 2.0]).T,
    "T of 3-d": lambda lib: lib.arange(24.0).reshape(2, 3, 4).T.shape,
    "T of 0-d": lambda lib: lib.tensor(3.0).T,
    "T of leaf": lambda lib: leaf(lib).reshape(1, 3).T,
    "T then contiguous": lambda lib: x23(lib).T.contiguous().is_contiguous(),
    "mT": lambda lib: lib.arange(6.0).reshape(1, 2, 3).mT,
    "t()": lambda lib: x23(lib).t(),
    "len": lambda lib: len(x23(lib)),
    "len of 1-d": lambda lib: len(lib.ones(5)),
    "len of 0-d": lambda lib: len(lib.tensor(1.0)),
    "iteration": lambda lib: list(x23(lib)),
    "iteration of 1-d": lambda lib: [t.item() for t in lib.tensor([1, 2, 3])],
    "iteration of 0-d": lambda lib: list(lib.tensor(1.0)),
    "iteration of leaf": lambda lib: list(leaf(lib)),
    "unpacking": lambda lib: tuple(a + b for a, b in [lib.tensor([1.0, 2.0])]),
    "zip": lambda lib: [float(a * b) for a, b in zip(lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0]))],
    "in": lambda lib: 2.0 in lib.tensor([1.0, 2.0]),
    "not in": lambda lib: 5 in lib.tensor([1, 2]),
}


LAYOUT_BUGS = {
}


@pytest.mark.parametrize("name", cases(LAYOUT, LAYOUT_BUGS))
def test_layout(name):
    check(LAYOUT[name])


def test_contiguous_of_contiguous_is_itself():
    t = chainrule.ones(2, 3)
    assert t.contiguous() is t
    assert t.T.contiguous() is not t


# --- comparisons ------------------------------------------------------------------------

COMPARISONS = {
    "== tensor": lambda lib: x23(lib) == lib.tensor([1.5, 4.25, 3.0]),
    "!= scalar": lambda lib: x23(lib) != 0,
    "< scalar": lambda lib: x23(lib) < 1.5,
    "<= scalar": lambda lib: x23(lib) <= 1.5,
    "> tensor": lambda lib: x23(lib) > lib.zeros(2, 1),
    ">= tensor": lambda lib: x23(lib) >= lib.tensor(0.0),
    "reflected <": lambda lib: 1.5 < x23(lib),
    "reflected ==": lambda lib: 0 == x23(lib),
    "int vs float": lambda lib: lib.tensor([1, 2, 3]) > 1.5,
    "int vs float tensor": lambda lib: lib.tensor([1, 2, 3]) == lib.tensor([1.0, 2.5, 3.0]),
    "bool vs int": lambda lib: lib.tensor([True, False]) == 1,
    "requires grad gives no graph": lambda lib: leaf(lib) > 1.5,
    "eq method": lambda lib: x23(lib).eq(0.0),
    "torch.eq": lambda lib: lib.eq(x23(lib), 0.0),
    "torch.lt": lambda lib: lib.lt(x23(lib), x23(lib) + 1),
    "ge method": lambda lib: x23(lib).ge(x23(lib)),
    "equal()": lambda lib: (x23(lib).equal(x23(lib)), x23(lib).equal(x23(lib) + 1)),
    "nan != nan": lambda lib: lib.tensor([float("nan")]) == lib.tensor([float("nan")]),
    "broadcast mismatch": lambda lib: lib.ones(2) == lib.ones(3),
    "== None": lambda lib: lib.ones(2) == None,  # noqa: E711 (what the operator does is the point)
    "!= None": lambda lib: lib.ones(2) != None,  # noqa: E711
    "complex ==": lambda lib: lib.tensor([1j]) == 1j,
    "complex <": lambda lib: lib.tensor([1j]) < lib.tensor([2j]),
    "sum of mask": lambda lib: (x23(lib) > 0).sum(),
    "mask indexing": lambda lib: x23(lib)[x23(lib) > 0],
}


COMPARISON_BUGS = {
}


@pytest.mark.parametrize("name", cases(COMPARISONS, COMPARISON_BUGS))
def test_comparisons(name):
    check(COMPARISONS[name])


def test_tensors_hash_by_identity():
    a, b = chainrule.ones(2), chainrule.ones(2)
    assert len({a, b}) == 2
    assert {a: 1}[a] == 1


# --- warnings PyTorch gives once per process ----------------------------------------------

def _warnings_of(make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make()
    return [str(w.message) for w in caught]


def test_T_of_non_matrix_warns():
    texts = _warnings_of(lambda: chainrule.ones(2).T)
    assert any(t.startswith("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                            "deprecated") for t in texts)


def test_T_of_0d_warns():
    texts = _warnings_of(lambda: chainrule.tensor(1.0).T)
    assert any(t.startswith("Tensor.T is deprecated on 0-D tensors.") for t in texts)


def test_float_of_requires_grad_warns():
    texts = _warnings_of(lambda: float(chainrule.ones(1, requires_grad=True)))
    assert any(t.startswith("Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                            "behavior.\nConsider using tensor.detach() first.") for t in texts)
