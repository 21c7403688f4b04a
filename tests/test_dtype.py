"""dtypes and type promotion, checked against PyTorch itself.

Every test builds the same thing with chainrule and with torch and compares. The promotion
tests run over every pair of dtypes and every kind of operand (dimensioned tensor, 0-d
tensor, Python scalar), since PyTorch's priorities between those kinds are where a NumPy
based library most easily goes wrong (see ``chainrule/_core/dtype.py``).
"""
import itertools
import operator

import pytest

import chainrule
from chainrule._core import dtype as _dtype
from helpers import require_torch

NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
         "complex64", "complex128"]
ALIASES = {"float": "float32", "double": "float64", "half": "float16", "long": "int64", "int": "int32",
           "short": "int16", "cfloat": "complex64", "cdouble": "complex128"}
SCALARS = [True, 3, 2.5, 1 + 2j]


@pytest.fixture(autouse=True)
def restore_default_dtype():
    """The default dtype is global state: put it back after each test, in both libraries."""
    yield
    chainrule.set_default_dtype(chainrule.float32)
    try:
        import torch
    except ImportError:
        return
    torch.set_default_dtype(torch.float32)


def pairs():
    return list(itertools.product(NAMES, NAMES))


# --- the dtype objects ----------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_dtype_prints_and_describes_itself_like_torch(name):
    torch = require_torch()
    ours, theirs = getattr(chainrule, name), getattr(torch, name)
    assert repr(ours) == repr(theirs) == f"torch.{name}"
    assert str(ours) == str(theirs)
    assert f"{ours}" == f"{theirs}"
    assert str([ours]) == str([theirs])
    assert ours.is_floating_point == theirs.is_floating_point
    assert ours.is_complex == theirs.is_complex
    assert ours.is_signed == theirs.is_signed
    assert ours.itemsize == theirs.itemsize


@pytest.mark.parametrize("alias, name", sorted(ALIASES.items()))
def test_aliases_are_the_same_objects(alias, name):
    torch = require_torch()
    assert getattr(chainrule, alias) is getattr(chainrule, name)
    assert repr(getattr(chainrule, alias)) == repr(getattr(torch, alias))


@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128", "int64", "bool"])
def test_to_real_and_to_complex(name):
    torch = require_torch()
    ours, theirs = getattr(chainrule, name), getattr(torch, name)
    assert repr(ours.to_real()) == repr(theirs.to_real())
    try:
        expected = repr(theirs.to_complex())
    except RuntimeError as error:
        with pytest.raises(RuntimeError) as raised:
            ours.to_complex()
        assert str(raised.value) == str(error)
    else:
        assert repr(ours.to_complex()) == expected


def test_dtypes_are_hashable_and_compare_by_identity():
    table = {chainrule.float32: "f", chainrule.int64: "i"}
    assert table[chainrule.float] == "f"
    assert table[chainrule.long] == "i"
    assert chainrule.float32 != chainrule.float64
    assert isinstance(chainrule.float32, chainrule.dtype)


def test_tensor_dtype_is_the_module_dtype():
    assert chainrule.ones(2).dtype is chainrule.float32
    assert chainrule.tensor([1, 2]).dtype is chainrule.int64
    assert chainrule.tensor(True).dtype is chainrule.bool


# --- promotion ------------------------------------------------------------------------

def test_promote_types_over_all_pairs():
    torch = require_torch()
    wrong = []
    for a, b in pairs():
        ours = chainrule.promote_types(getattr(chainrule, a), getattr(chainrule, b))
        theirs = torch.promote_types(getattr(torch, a), getattr(torch, b))
        if repr(ours) != repr(theirs):
            wrong.append(f"{a} {b}: {ours} != {theirs}")
    assert wrong == []


def test_can_cast_over_all_pairs():
    torch = require_torch()
    wrong = []
    for a, b in pairs():
        ours = chainrule.can_cast(getattr(chainrule, a), getattr(chainrule, b))
        theirs = torch.can_cast(getattr(torch, a), getattr(torch, b))
        if ours != theirs:
            wrong.append(f"{a} -> {b}: {ours} != {theirs}")
    assert wrong == []


def operands(lib):
    """(label, value) for every kind of operand: each dtype as a dimensioned tensor and as
    a 0-d tensor, and each kind of Python scalar."""
    out = []
    for name in NAMES:
        d = getattr(lib, name)
        out.append((f"{name}[2]", lib.ones(2, dtype=d)))
        out.append((f"{name}[]", lib.ones((), dtype=d)))
    out.extend((repr(s), s) for s in SCALARS)
    return out


def _agree(ours, theirs):
    """Equal dtypes (``ours``: a function giving chainrule's), where torch's complex32
    (float16 meets complex: NumPy has no such dtype) is refused by chainrule with a
    TypeError naming it (docs/differences.md)."""
    if repr(theirs) == "torch.complex32":
        with pytest.raises(TypeError, match="complex32"):
            ours()
        return True
    return repr(ours()) == repr(theirs)


def test_result_type_matrix_matches_torch():
    torch = require_torch()
    ours_ops, theirs_ops = operands(chainrule), operands(torch)
    wrong = []
    for (label_a, a), (_, ta) in zip(ours_ops, theirs_ops):
        for (label_b, b), (_, tb) in zip(ours_ops, theirs_ops):
            ours = lambda: chainrule.result_type(a, b)
            theirs = torch.result_type(ta, tb)
            if not _agree(ours, theirs):
                wrong.append(f"{label_a} , {label_b}: {ours} != {theirs}")
    assert wrong == [], f"{len(wrong)} wrong, e.g. {wrong[:10]}"


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_result_type_with_python_scalars_follows_default_dtype(default):
    torch = require_torch()
    chainrule.set_default_dtype(getattr(chainrule, default))
    torch.set_default_dtype(getattr(torch, default))
    for name in NAMES:
        for s in SCALARS:
            a, ta = chainrule.ones(2, dtype=getattr(chainrule, name)), torch.ones(2, dtype=getattr(torch, name))
            assert _agree(lambda: chainrule.result_type(a, s), torch.result_type(ta, s)), (name, s)


@pytest.mark.filterwarnings("ignore:ComplexHalf support")
def test_tensor_times_tensor_dtype_follows_result_type():
    """An op's result dtype is the promoted one: ``a * b`` over every pair of tensor kinds."""
    torch = require_torch()
    ours_ops, theirs_ops = operands(chainrule), operands(torch)
    wrong = []
    for (label_a, a), (_, ta) in zip(ours_ops, theirs_ops):
        for (label_b, b), (_, tb) in zip(ours_ops, theirs_ops):
            if not (isinstance(a, chainrule.Tensor) and isinstance(b, chainrule.Tensor)):
                continue
            ours, theirs = (lambda: (a * b).dtype), (ta * tb).dtype
            if not _agree(ours, theirs):
                wrong.append(f"{label_a} * {label_b}: {ours} != {theirs}")
    assert wrong == [], f"{len(wrong)} wrong, e.g. {wrong[:10]}"


def scalar_op_cases():
    for op in ["add", "mul", "sub", "truediv", "radd", "rmul", "rsub", "rtruediv"]:
        for scalar in [3, 2.5, True, 1 + 2j]:
            yield pytest.param(op, scalar, id=f"{op}-{scalar!r}")


@pytest.mark.filterwarnings("ignore:ComplexHalf support")
@pytest.mark.parametrize("op, scalar", list(scalar_op_cases()))
def test_tensor_op_python_scalar_dtype(op, scalar):
    torch = require_torch()
    wrong = []
    for name in NAMES:
        for shape in [(2,), ()]:
            a, ta = chainrule.ones(shape, dtype=getattr(chainrule, name)), torch.ones(shape, dtype=getattr(torch, name))
            fn = getattr(operator, op[1:]) if op.startswith("r") else getattr(operator, op)
            call = (lambda x: fn(scalar, x)) if op.startswith("r") else (lambda x: fn(x, scalar))
            try:
                theirs = call(ta).dtype
            except RuntimeError:  # bool subtraction: both refuse (checked elsewhere)
                continue
            ours = lambda: call(a).dtype
            if not _agree(ours, theirs):
                wrong.append(f"{name}{list(shape)} {op} {scalar!r}: {ours} != {theirs}")
    assert wrong == []


def test_documented_promotion_examples():
    f32, f64 = chainrule.ones(3), chainrule.tensor(2.0, dtype=chainrule.float64)
    assert (f32 + f64).dtype is chainrule.float32  # a 0-d tensor ranks below a dimensioned one
    assert (chainrule.tensor([1, 2]) * 2.5).dtype is chainrule.float32  # not NumPy's float64
    assert (chainrule.tensor([1, 2], dtype=chainrule.int32) * 2).dtype is chainrule.int32
    assert (chainrule.tensor([1, 2]) / 2).dtype is chainrule.float32


# --- the default dtype ------------------------------------------------------------------

def test_default_dtype_starts_as_float32():
    assert chainrule.get_default_dtype() is chainrule.float32


@pytest.mark.parametrize("default", ["float16", "float32", "float64"])
def test_default_dtype_governs_creation(default):
    torch = require_torch()
    chainrule.set_default_dtype(getattr(chainrule, default))
    torch.set_default_dtype(getattr(torch, default))
    assert repr(chainrule.get_default_dtype()) == repr(torch.get_default_dtype())
    makers = [
        lambda lib: lib.tensor([1.5, 2.0]),
        lambda lib: lib.tensor(1.5),
        lambda lib: lib.tensor([[1, 2.5]]),
        lambda lib: lib.tensor([1, 2]),
        lambda lib: lib.zeros(2),
        lambda lib: lib.ones(2, 3),
        lambda lib: lib.empty(2),
        lambda lib: lib.full((2,), 1.5),
        lambda lib: lib.full((2,), 3),
        lambda lib: lib.arange(0.5, 3),
        lambda lib: lib.arange(3),
        lambda lib: lib.linspace(0, 1, 5),
        lambda lib: lib.eye(2),
        lambda lib: lib.rand(2),
        lambda lib: lib.randn(2),
        lambda lib: lib.tensor([1, 2]) * 2.5,
        lambda lib: lib.tensor([1, 2]) / 2,
        lambda lib: lib.tensor([True]) + 0.5,
        lambda lib: lib.tensor([1.0], dtype=lib.float32) * 2.5,
    ]
    for i, make in enumerate(makers):
        assert repr(make(chainrule).dtype) == repr(make(torch).dtype), f"maker {i}"


def test_default_dtype_float64_gives_complex128():
    torch = require_torch()
    chainrule.set_default_dtype(chainrule.float64)
    torch.set_default_dtype(torch.float64)
    assert repr(chainrule.tensor(1 + 2j).dtype) == repr(torch.tensor(1 + 2j).dtype) == "torch.complex128"
    ours, theirs = chainrule.ones(2) * chainrule.tensor(1j), torch.ones(2) * torch.tensor(1j)
    assert repr(ours.dtype) == repr(theirs.dtype) == "torch.complex128"


@pytest.mark.parametrize("name", ["int64", "int32", "bool", "complex64", "uint8"])
def test_set_default_dtype_rejects_non_floating(name):
    torch = require_torch()
    with pytest.raises(TypeError) as theirs:
        torch.set_default_dtype(getattr(torch, name))
    with pytest.raises(TypeError) as ours:
        chainrule.set_default_dtype(getattr(chainrule, name))
    assert str(ours.value) == str(theirs.value)
    assert chainrule.get_default_dtype() is chainrule.float32


def test_default_dtype_is_restored_by_fixture_between_tests():
    chainrule.set_default_dtype(chainrule.float64)
    assert chainrule.tensor(1.0).dtype is chainrule.float64


def test_from_numpy_dtype_rejects_unsupported():
    import numpy as np
    with pytest.raises(TypeError, match="can't convert np.ndarray of type numpy.uint16"):
        _dtype.from_numpy_dtype(np.dtype(np.uint16))
