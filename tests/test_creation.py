"""Creating tensors, checked against PyTorch: the same call in both libraries must give
the same dtype, shape, values, ``requires_grad`` and printed form.

Random creators can't match PyTorch's numbers (chainrule draws from NumPy's generator),
so for them the dtype, shape, range and repeatability under ``manual_seed`` are checked.
"""
import warnings

import numpy as np
import pytest

import chainrule
from helpers import require_torch, to_numpy


@pytest.fixture(autouse=True)
def restore_default_dtype():
    yield
    chainrule.set_default_dtype(chainrule.float32)
    try:
        import torch
    except ImportError:
        return
    torch.set_default_dtype(torch.float32)


def assert_same(ours, theirs):
    """Same dtype, shape, values, requires_grad and repr."""
    assert isinstance(ours, chainrule.Tensor)
    assert repr(ours.dtype) == repr(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert ours.requires_grad == theirs.requires_grad
    np.testing.assert_array_equal(to_numpy(ours), to_numpy(theirs))
    assert repr(ours) == repr(theirs)


def assert_same_error(make):
    """``make(lib)`` raises the same exception type with the same message in both."""
    torch = require_torch()
    with pytest.raises(Exception) as theirs:
        make(torch)
    with pytest.raises(type(theirs.value)) as ours:
        make(chainrule)
    assert str(ours.value) == str(theirs.value)


# --- torch.tensor and its dtype inference ------------------------------------------------

INFERENCE = {
    "int": lambda lib: lib.tensor(3),
    "float": lambda lib: lib.tensor(3.5),
    "bool": lambda lib: lib.tensor(True),
    "complex": lambda lib: lib.tensor(1 + 2j),
    "int list": lambda lib: lib.tensor([1, 2, 3]),
    "float list": lambda lib: lib.tensor([1.0, 2.0]),
    "mixed int float": lambda lib: lib.tensor([1, 2.5]),
    "mixed int bool": lambda lib: lib.tensor([1, True]),
    "mixed float complex": lambda lib: lib.tensor([1.5, 1j]),
    "bool list": lambda lib: lib.tensor([True, False]),
    "nested": lambda lib: lib.tensor([[1, 2], [3, 4]]),
    "nested 3d": lambda lib: lib.tensor([[[1.0], [2.0]], [[3.0], [4.0]]]),
    "tuple": lambda lib: lib.tensor((1, 2)),
    "empty": lambda lib: lib.tensor([]),
    "empty nested": lambda lib: lib.tensor([[]]),
    "big float": lambda lib: lib.tensor([1e10, 1e-10]),
    "negative ints": lambda lib: lib.tensor([-3, 0, 7]),
    "int64 array": lambda lib: lib.tensor(np.array([1, 2])),
    "int32 array": lambda lib: lib.tensor(np.array([1, 2], dtype=np.int32)),
    "uint8 array": lambda lib: lib.tensor(np.array([1, 2], dtype=np.uint8)),
    "float64 array": lambda lib: lib.tensor(np.array([1.5, 2.5])),
    "float16 array": lambda lib: lib.tensor(np.array([1.5, 2.5], dtype=np.float16)),
    "bool array": lambda lib: lib.tensor(np.array([True, False])),
    "complex128 array": lambda lib: lib.tensor(np.array([1 + 1j])),
    "0-d array": lambda lib: lib.tensor(np.array(2.5)),
    "numpy float64 scalar": lambda lib: lib.tensor(np.float64(1.5)),
    "numpy float32 scalar": lambda lib: lib.tensor(np.float32(1.5)),
    "numpy int32 scalar": lambda lib: lib.tensor(np.int32(3)),
    "list of numpy float32": lambda lib: lib.tensor([np.float32(1), np.float32(2)]),
    "list of numpy int32": lambda lib: lib.tensor([np.int32(3)]),
    "numpy float64 with int": lambda lib: lib.tensor([np.float64(1), 2]),
    "list of 0-d tensors": lambda lib: lib.tensor([lib.tensor(1.0), lib.tensor(2.0)]),
    "explicit dtype float64": lambda lib: lib.tensor([1, 2], dtype=lib.float64),
    "explicit dtype int32 from floats": lambda lib: lib.tensor([-1.7, 2.7], dtype=lib.int32),
    "explicit dtype int64 from float": lambda lib: lib.tensor(3.5, dtype=lib.int64),
    "explicit dtype bool": lambda lib: lib.tensor([0, 2], dtype=lib.bool),
    "explicit dtype complex": lambda lib: lib.tensor([1, 2], dtype=lib.cfloat),
    "explicit dtype half": lambda lib: lib.tensor([1.25], dtype=lib.half),
    "requires_grad": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True),
    "seed's scalar": lambda lib: lib.tensor(1, requires_grad=True, dtype=lib.float),
    "float64 keeps precision": lambda lib: lib.tensor([0.1, 1 / 3], dtype=lib.float64),
    "numpy float32 with python float": lambda lib: lib.tensor([np.float32(1.5), 2.5]),
    "numpy int32 with python int": lambda lib: lib.tensor([np.int32(1), 2]),
    "numpy float32 with python int": lambda lib: lib.tensor([np.float32(1), 2]),
    "list of numpy arrays": lambda lib: lib.tensor([np.array([1, 2], dtype=np.int16), np.array([3, 4], dtype=np.int16)]),
    "list of 0-d tensors of two dtypes": lambda lib: lib.tensor([lib.tensor(1), lib.tensor(2.0, dtype=lib.float64)]),
    "rows of floats": lambda lib: lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
}

@pytest.mark.filterwarnings("ignore:Creating a tensor from a list of numpy.ndarrays")
@pytest.mark.parametrize("name", list(INFERENCE))
def test_tensor_dtype_inference(name):
    torch = require_torch()
    make = INFERENCE[name]
    assert_same(make(chainrule), make(torch))


@pytest.mark.parametrize("default", ["float32", "float64"])
@pytest.mark.parametrize("name", ["float", "float list", "mixed int float", "complex", "mixed float complex",
                                  "float64 array", "numpy float32 scalar", "list of numpy float32",
                                  "numpy float64 with int", "numpy float32 with python float"])
def test_tensor_dtype_inference_under_default_dtype(name, default):
    torch = require_torch()
    chainrule.set_default_dtype(getattr(chainrule, default))
    torch.set_default_dtype(getattr(torch, default))
    make = INFERENCE[name]
    assert_same(make(chainrule), make(torch))


def test_tensor_copies_its_data():
    data = np.array([1.0, 2.0])
    t = chainrule.tensor(data)
    data[0] = 9.0
    assert t.tolist() == [1.0, 2.0]
    assert t.is_leaf and t.grad_fn is None


def test_tensor_of_tensor_warns_and_copies():
    torch = require_torch()
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        torch.tensor(torch.ones(2))
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        source = chainrule.ones(2)
        copy = chainrule.tensor(source)
    assert [str(w.message) for w in ours] == [str(w.message) for w in theirs]
    assert [w.category for w in ours] == [w.category for w in theirs]
    copy[0] = 5.0
    assert source.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("make", [
    lambda lib: lib.tensor([[1, 2], [3]]),
    lambda lib: lib.tensor("a"),
    lambda lib: lib.tensor([1, 2], requires_grad=True),
    lambda lib: lib.tensor(None),
    lambda lib: lib.tensor([1, None]),
    lambda lib: lib.tensor([[1, 2], [3, 4], [5]]),
    lambda lib: lib.tensor([[[1], [2]], [[3], [4, 5]]]),
    lambda lib: lib.tensor(["a"]),
    lambda lib: lib.tensor([lib.ones(2), lib.ones(2)]),
], ids=["ragged", "str", "int requires grad", "None", "None in list", "ragged last", "ragged deep", "str in list",
        "list of vectors"])
def test_tensor_errors(make):
    assert_same_error(make)


# --- as_tensor and from_numpy -------------------------------------------------------------

def test_as_tensor_shares_memory_with_arrays_of_its_dtype():
    data = np.array([1.0, 2.0])
    t = chainrule.as_tensor(data)
    data[0] = 7.0
    assert t.tolist() == [7.0, 2.0]
    assert t.dtype is chainrule.float64


def test_as_tensor_copies_when_dtype_changes():
    torch = require_torch()
    data = np.array([1.0, 2.0])
    ours, theirs = chainrule.as_tensor(data, dtype=chainrule.float32), torch.as_tensor(data, dtype=torch.float32)
    data[0] = 7.0
    assert_same(ours, theirs)


def test_as_tensor_of_a_tensor_is_that_tensor():
    t = chainrule.ones(2)
    assert chainrule.as_tensor(t) is t
    assert chainrule.as_tensor(t, dtype=chainrule.float64).dtype is chainrule.float64


@pytest.mark.parametrize("make", [
    lambda lib: lib.as_tensor([1, 2]),
    lambda lib: lib.as_tensor([1.5, 2]),
    lambda lib: lib.as_tensor([1, 2], dtype=lib.float64),
    lambda lib: lib.as_tensor(3),
    lambda lib: lib.as_tensor(np.array([1, 2], dtype=np.int16)),
])
def test_as_tensor_matches_torch(make):
    torch = require_torch()
    assert_same(make(chainrule), make(torch))


@pytest.mark.parametrize("np_dtype", [np.float32, np.float64, np.int64, np.int32, np.uint8, np.bool_,
                                      np.complex64, np.float16])
def test_from_numpy_keeps_dtype_and_shares_memory(np_dtype):
    torch = require_torch()
    data = np.arange(6).reshape(2, 3).astype(np_dtype)
    ours, theirs = chainrule.from_numpy(data), torch.from_numpy(data.copy())
    assert_same(ours, theirs)
    data[0, 0] = 1
    assert ours[0, 0].item() == 1  # the array's write shows in the tensor
    ours[1, 2] = 0
    assert data[1, 2] == 0  # and the tensor's write shows in the array
    assert ours.numpy() is data or np.shares_memory(ours.numpy(), data)


def test_from_numpy_of_a_list_is_a_type_error():
    assert_same_error(lambda lib: lib.from_numpy([1, 2]))


# --- filled tensors -------------------------------------------------------------------

FILLED = {
    "zeros": lambda lib: lib.zeros(2, 3),
    "zeros tuple": lambda lib: lib.zeros((2, 3)),
    "zeros list": lambda lib: lib.zeros([2, 3]),
    "zeros Size": lambda lib: lib.zeros(lib.Size([2, 1])),
    "zeros empty dim": lambda lib: lib.zeros(0, 3),
    "zeros 0-d": lambda lib: lib.zeros(()),
    "zeros 0-d list": lambda lib: lib.zeros([]),
    "zeros int": lambda lib: lib.zeros(2, dtype=lib.int64),
    "zeros bool": lambda lib: lib.zeros(2, dtype=lib.bool),
    "zeros requires grad": lambda lib: lib.zeros(2, requires_grad=True),
    "ones": lambda lib: lib.ones(2, 2),
    "ones float64": lambda lib: lib.ones(3, dtype=lib.float64),
    "ones int32": lambda lib: lib.ones(3, dtype=lib.int32),
    "ones complex": lambda lib: lib.ones(2, dtype=lib.cfloat),
    "ones seed": lambda lib: lib.ones(2, 2, requires_grad=True),
    "ones device": lambda lib: lib.ones(2, device="cpu"),
    "full float": lambda lib: lib.full((2, 2), 1.5),
    "full int": lambda lib: lib.full((2,), 7),
    "full bool": lambda lib: lib.full((2,), True),
    "full complex": lambda lib: lib.full((2,), 1j),
    "full dtype": lambda lib: lib.full((2,), 2, dtype=lib.float64),
    "full list size": lambda lib: lib.full([1, 3], -0.5),
    "full requires grad": lambda lib: lib.full((2,), 3.0, requires_grad=True),
    "eye": lambda lib: lib.eye(3),
    "eye rectangular": lambda lib: lib.eye(2, 3),
    "eye int": lambda lib: lib.eye(2, dtype=lib.int64),
    "eye empty": lambda lib: lib.eye(0),
    "eye requires grad": lambda lib: lib.eye(2, requires_grad=True),
}


@pytest.mark.parametrize("name", list(FILLED))
def test_filled(name):
    torch = require_torch()
    make = FILLED[name]
    assert_same(make(chainrule), make(torch))


@pytest.mark.parametrize("make", [
    lambda lib: lib.empty(2, 3),
    lambda lib: lib.empty((4,), dtype=lib.int64),
    lambda lib: lib.empty(0),
    lambda lib: lib.empty(2, requires_grad=True),
], ids=["floats", "ints", "no elements", "requires grad"])
def test_empty_has_shape_and_dtype(make):
    torch = require_torch()
    ours, theirs = make(chainrule), make(torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert repr(ours.dtype) == repr(theirs.dtype)
    assert ours.requires_grad == theirs.requires_grad


@pytest.mark.parametrize("make", [
    lambda lib: lib.zeros(-1),
    lambda lib: lib.ones(2, -1),
    lambda lib: lib.eye(-1),
    lambda lib: lib.full(2, 1.0),
    lambda lib: lib.zeros(2.0),
], ids=["negative zeros", "negative ones", "negative eye", "full int size", "float size"])
def test_filled_errors(make):
    assert_same_error(make)


# --- ranges ---------------------------------------------------------------------------

RANGES = {
    "arange end": lambda lib: lib.arange(5),
    "arange start end": lambda lib: lib.arange(1, 4),
    "arange step": lambda lib: lib.arange(0, 5, 2),
    "arange negative step": lambda lib: lib.arange(10, 0, -3),
    "arange float end": lambda lib: lib.arange(5.0),
    "arange float step": lambda lib: lib.arange(0, 1, 0.25),
    "arange tenths": lambda lib: lib.arange(0, 1, 0.1),
    "arange halves": lambda lib: lib.arange(1, 2.5, 0.5),
    "arange negative floats": lambda lib: lib.arange(-1.0, 1.0, 0.5),
    "arange dtype": lambda lib: lib.arange(0, 10, 3, dtype=lib.float32),
    "arange float64": lambda lib: lib.arange(3, dtype=lib.float64),
    "arange empty": lambda lib: lib.arange(0),
    "arange tensor end": lambda lib: lib.arange(lib.tensor(3)),
    "arange requires grad": lambda lib: lib.arange(3.0, requires_grad=True),
    "linspace": lambda lib: lib.linspace(0, 1, 5),
    "linspace one": lambda lib: lib.linspace(-1, 1, 1),
    "linspace none": lambda lib: lib.linspace(0, 1, 0),
    "linspace eleven": lambda lib: lib.linspace(0, 10, steps=11),
    "linspace backwards": lambda lib: lib.linspace(3, -3, 7),
    "linspace float64": lambda lib: lib.linspace(0, 1, 4, dtype=lib.float64),
    "linspace int": lambda lib: lib.linspace(0, 10, 5, dtype=lib.int64),
    "linspace requires grad": lambda lib: lib.linspace(0, 1, 3, requires_grad=True),
}


@pytest.mark.parametrize("name", list(RANGES))
def test_ranges(name):
    torch = require_torch()
    make = RANGES[name]
    assert_same(make(chainrule), make(torch))


@pytest.mark.parametrize("default", ["float32", "float64"])
@pytest.mark.parametrize("steps", [2, 3, 7, 10, 100, 1001])
@pytest.mark.parametrize("start, end", [(0, 1), (-2.5, 7.25), (1, 1e3), (0.1, 0.7), (3, -3)])
def test_linspace_values_match_to_the_last_bit(start, end, steps, default):
    torch = require_torch()
    chainrule.set_default_dtype(getattr(chainrule, default))
    torch.set_default_dtype(getattr(torch, default))
    ours, theirs = chainrule.linspace(start, end, steps), torch.linspace(start, end, steps)
    assert repr(ours.dtype) == repr(theirs.dtype)
    np.testing.assert_array_equal(to_numpy(ours), to_numpy(theirs))


def range_cases():
    """(start, end, step) for arange: short ones (filled element by element) and long ones
    (filled in vector runs), with awkward steps."""
    rng = np.random.default_rng(0)
    cases = [(0, 1, 0.1), (0.1, 5, 0.2), (-3, 3, 0.37), (1, 100, 0.7), (0, 10, 1 / 3), (5, -5, -0.3),
             (0, 40, 1.1), (-1e3, 1e3, 13.7)]
    for start, step in rng.normal(0, 10, (12, 2)):
        count = int(rng.integers(1, 200))
        cases.append((float(start), float(start + abs(step) * count), float(abs(step))))
    return cases


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("start, end, step", range_cases())
def test_arange_values_match_to_the_last_bit(start, end, step, dtype):
    torch = require_torch()
    ours = chainrule.arange(start, end, step, dtype=getattr(chainrule, dtype))
    theirs = torch.arange(start, end, step, dtype=getattr(torch, dtype))
    assert tuple(ours.shape) == tuple(theirs.shape)
    np.testing.assert_array_equal(to_numpy(ours), to_numpy(theirs))


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
@pytest.mark.parametrize("start, end, steps", [(0, 10, 5), (0.5, 10.7, 5), (-0.5, 10.7, 5), (0, 100, 7),
                                               (3, 250, 33), (0, 1, 4), (10, 0, 6)])
def test_integer_linspace_matches(start, end, steps, dtype):
    torch = require_torch()
    if dtype == "uint8" and min(start, end) < 0:
        return
    make = lambda lib: lib.linspace(start, end, steps, dtype=getattr(lib, dtype))
    assert_same(make(chainrule), make(torch))


@pytest.mark.parametrize("make", [
    lambda lib: lib.arange(0, 5, 0),
    lambda lib: lib.arange(5, 0),
    lambda lib: lib.linspace(0, 1, -1),
], ids=["zero step", "wrong sign", "negative steps"])
def test_range_errors(make):
    assert_same_error(make)


# --- the *_like forms -------------------------------------------------------------------

LIKE = {
    "zeros_like": lambda lib: lib.zeros_like(lib.tensor([[1.5, 2.0]])),
    "zeros_like int": lambda lib: lib.zeros_like(lib.tensor([1, 2])),
    "zeros_like dtype": lambda lib: lib.zeros_like(lib.tensor([1, 2]), dtype=lib.float64),
    "zeros_like requires grad": lambda lib: lib.zeros_like(lib.ones(2), requires_grad=True),
    "zeros_like of leaf with grad": lambda lib: lib.zeros_like(lib.ones(2, requires_grad=True)),
    "ones_like": lambda lib: lib.ones_like(lib.tensor([1, 2, 3], dtype=lib.int32)),
    "ones_like bool": lambda lib: lib.ones_like(lib.tensor([True])),
    "ones_like 0-d": lambda lib: lib.ones_like(lib.tensor(2.0)),
    "full_like": lambda lib: lib.full_like(lib.ones(2, 2), 7.5),
    "full_like int truncates": lambda lib: lib.full_like(lib.tensor([1, 2]), 2.5),
    "full_like dtype": lambda lib: lib.full_like(lib.tensor([1, 2]), 2.5, dtype=lib.float64),
}


@pytest.mark.parametrize("name", list(LIKE))
def test_like(name):
    torch = require_torch()
    make = LIKE[name]
    assert_same(make(chainrule), make(torch))


@pytest.mark.parametrize("make", [
    lambda lib: lib.empty_like(lib.ones(2, 3)),
    lambda lib: lib.empty_like(lib.ones(2, dtype=lib.int64)),
    lambda lib: lib.rand_like(lib.ones(2, 3)),
    lambda lib: lib.rand_like(lib.ones(2, dtype=lib.float64)),
    lambda lib: lib.randn_like(lib.ones(4)),
    lambda lib: lib.randn_like(lib.ones(4), requires_grad=True),
    lambda lib: lib.randint_like(lib.ones(3), 10),
    lambda lib: lib.randint_like(lib.ones(3, dtype=lib.int32), 2, 10),
], ids=["empty_like", "empty_like int", "rand_like", "rand_like float64", "randn_like",
        "randn_like requires grad", "randint_like", "randint_like low high"])
def test_like_random_shape_and_dtype(make):
    torch = require_torch()
    ours, theirs = make(chainrule), make(torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert repr(ours.dtype) == repr(theirs.dtype)
    assert ours.requires_grad == theirs.requires_grad


# --- random -----------------------------------------------------------------------------

RANDOM = {
    "rand": lambda lib: lib.rand(2, 3),
    "rand tuple": lambda lib: lib.rand((4,)),
    "rand float64": lambda lib: lib.rand(2, dtype=lib.float64),
    "rand requires grad": lambda lib: lib.rand(2, requires_grad=True),
    "randn": lambda lib: lib.randn(3),
    "randn seed": lambda lib: lib.randn(3),
    "randn 0-d": lambda lib: lib.randn(()),
    "randn float64": lambda lib: lib.randn(2, 2, dtype=lib.float64),
    "randint high": lambda lib: lib.randint(10, (3,)),
    "randint low high": lambda lib: lib.randint(3, 10, (2, 2)),
    "randint dtype": lambda lib: lib.randint(10, (3,), dtype=lib.float32),
    "randint int32": lambda lib: lib.randint(0, 5, (6,), dtype=lib.int32),
    "normal size": lambda lib: lib.normal(2.0, 3.0, (2,)),
    "normal size kw": lambda lib: lib.normal(0.0, 1.0, size=(3, 1)),
    "normal tensor mean": lambda lib: lib.normal(lib.zeros(2), 1.0),
    "normal tensor std": lambda lib: lib.normal(0.0, lib.ones(2, 2)),
    "normal both tensors": lambda lib: lib.normal(lib.zeros(2, dtype=lib.float64), lib.ones(2, dtype=lib.float64)),
}


@pytest.mark.parametrize("name", list(RANDOM))
def test_random_shape_dtype_and_range(name):
    torch = require_torch()
    make = RANDOM[name]
    ours, theirs = make(chainrule), make(torch)
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert repr(ours.dtype) == repr(theirs.dtype)
    assert ours.requires_grad == theirs.requires_grad
    values = to_numpy(ours)
    if name.startswith("rand") and not name.startswith("randn") and not name.startswith("randint"):
        assert ((values >= 0) & (values < 1)).all()
    if name == "randint low high":
        assert ((values >= 3) & (values < 10)).all()


def test_randint_covers_its_range():
    values = set(chainrule.randint(0, 4, (400,)).tolist())
    assert values == {0, 1, 2, 3}


def test_randn_looks_standard_normal():
    sample = chainrule.randn(20000).numpy().astype(np.float64)
    assert abs(sample.mean()) < 0.05
    assert abs(sample.std() - 1) < 0.05


def test_normal_scales_by_mean_and_std():
    sample = chainrule.normal(5.0, 0.5, (20000,)).numpy().astype(np.float64)
    assert abs(sample.mean() - 5.0) < 0.05
    assert abs(sample.std() - 0.5) < 0.05


@pytest.mark.parametrize("make", [
    lambda lib: lib.randint(5, 2, (3,)),
    lambda lib: lib.randint(10, (3,), requires_grad=True),
], ids=["empty range", "int requires grad"])
def test_random_errors(make):
    assert_same_error(make)


@pytest.mark.parametrize("draw", [
    lambda: chainrule.rand(5),
    lambda: chainrule.randn(2, 3),
    lambda: chainrule.randint(0, 100, (5,)),
    lambda: chainrule.normal(0.0, 1.0, (4,)),
    lambda: chainrule.randn_like(chainrule.ones(3)),
], ids=["rand", "randn", "randint", "normal", "randn_like"])
def test_manual_seed_makes_draws_repeatable(draw):
    chainrule.manual_seed(1234)
    first = draw().tolist()
    second = draw().tolist()
    chainrule.manual_seed(1234)
    assert draw().tolist() == first
    assert draw().tolist() == second
    assert first != second
    chainrule.manual_seed(4321)
    assert draw().tolist() != first


def test_manual_seed_returns_a_generator_and_sets_initial_seed():
    gen = chainrule.manual_seed(7)
    assert isinstance(gen, chainrule.Generator)
    assert chainrule.initial_seed() == 7


def test_generator_argument_is_independent_of_the_global_seed():
    a = chainrule.Generator().manual_seed(3)
    b = chainrule.Generator().manual_seed(3)
    chainrule.manual_seed(0)
    x = chainrule.rand(4, generator=a)
    chainrule.rand(10)
    y = chainrule.rand(4, generator=b)
    assert x.tolist() == y.tolist()


def test_generator_state_round_trips():
    gen = chainrule.Generator().manual_seed(11)
    state = gen.get_state()
    first = chainrule.randn(3, generator=gen).tolist()
    gen.set_state(state)
    assert chainrule.randn(3, generator=gen).tolist() == first


def test_seed_program_random_vector_is_overwritten():
    """Seed 000 fills a random vector with functions of x1..x3; only the formula counts."""
    x1 = chainrule.tensor(1, requires_grad=True, dtype=chainrule.float)
    y = chainrule.randn(3)
    y[0] = x1 ** 2
    y[1] = 2 * x1
    y[2] = x1
    y.backward(chainrule.ones(3))
    assert x1.grad.item() == 5.0
