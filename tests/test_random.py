"""Random sampling (_ops/random.py, _ops/creation.py) and the dtype limits finfo/iinfo.

Draws differ from PyTorch's, so these tests check what the two libraries share: shapes,
dtypes, ranges, moments (to several standard errors, with fixed seeds, so they never
flake), reproducibility under ``manual_seed`` and ``generator=``, the graph nodes of
in-place draws. Deterministic behaviour (degenerate draws, errors) is in opdb_random.py.
"""
import math

import numpy as np
import pytest

import chainrule

from helpers import both, require_torch, to_numpy

N = 20000  # draws per moment test: the standard error of a mean is std / 141


def draw(make, seed=0):
    chainrule.manual_seed(seed)
    return to_numpy(make(chainrule)).astype(np.float64)


# --- shapes and dtypes, as PyTorch's ------------------------------------------------------------

DRAWS = {
    "uniform_": lambda lib: lib.zeros(2, 3).uniform_(),
    "uniform_ float64": lambda lib: lib.zeros(4, dtype=lib.float64).uniform_(-1, 1),
    "uniform_ float16": lambda lib: lib.zeros(4, dtype=lib.float16).uniform_(),
    "normal_": lambda lib: lib.zeros(3).normal_(2, 3),
    "exponential_": lambda lib: lib.zeros(2, 2).exponential_(),
    "cauchy_": lambda lib: lib.zeros(5, dtype=lib.float64).cauchy_(),
    "log_normal_": lambda lib: lib.zeros(3).log_normal_(),
    "geometric_": lambda lib: lib.zeros(3).geometric_(0.2),
    "geometric_ int": lambda lib: lib.zeros(3, dtype=lib.int64).geometric_(0.2),
    "random_": lambda lib: lib.zeros(3).random_(),
    "random_ int32": lambda lib: lib.zeros(3, dtype=lib.int32).random_(),
    "random_ bool": lambda lib: lib.zeros(3, dtype=lib.bool).random_(),
    "random_ to": lambda lib: lib.zeros(3, dtype=lib.int64).random_(10),
    "random_ from to": lambda lib: lib.zeros(3, dtype=lib.uint8).random_(3, 7),
    "random_ to keyword": lambda lib: lib.zeros(3).random_(to=5),
    "random_ from keyword": lambda lib: lib.zeros(3).random_(**{"from": 2, "to": 5}),
    "bernoulli_": lambda lib: lib.zeros(2, 3).bernoulli_(),
    "bernoulli_ int": lambda lib: lib.zeros(3, dtype=lib.int64).bernoulli_(0.3),
    "bernoulli_ tensor": lambda lib: lib.zeros(2, 3, dtype=lib.bool).bernoulli_(lib.full((3,), 0.5)),
    "bernoulli": lambda lib: lib.bernoulli(lib.full((2, 3), 0.5)),
    "bernoulli float64": lambda lib: lib.bernoulli(lib.full((2,), 0.5, dtype=lib.float64)),
    "bernoulli p": lambda lib: lib.bernoulli(lib.zeros(3), p=0.5),
    "bernoulli method": lambda lib: lib.full((2,), 0.5).bernoulli(),
    "multinomial": lambda lib: lib.multinomial(lib.tensor([0.2, 0.8]), 5, True),
    "multinomial rows": lambda lib: lib.multinomial(lib.ones(3, 4), 2),
    "multinomial empty rows": lambda lib: lib.multinomial(lib.zeros(0, 3), 2),
    "multinomial method": lambda lib: lib.ones(4, dtype=lib.float64).multinomial(4),
    "normal mean tensor": lambda lib: lib.normal(lib.zeros(2, 3), 1.0),
    "normal std tensor": lambda lib: lib.normal(1.0, lib.ones(4, dtype=lib.float64)),
    "normal both": lambda lib: lib.normal(lib.zeros(3, 1), lib.ones(4)),
    "normal size": lambda lib: lib.normal(0.0, 1.0, (2, 5)),
    "normal size dtype": lambda lib: lib.normal(0.0, 1.0, size=(3,), dtype=lib.float64),
    "randperm": lambda lib: lib.randperm(6),
    "randperm empty": lambda lib: lib.randperm(0),
    "randperm float": lambda lib: lib.randperm(5, dtype=lib.float32),
    "randperm int8": lambda lib: lib.randperm(128, dtype=lib.int8),
    "randperm requires grad": lambda lib: lib.randperm(3, dtype=lib.float64, requires_grad=True),
}


@pytest.mark.torch
@pytest.mark.parametrize("name", DRAWS)
def test_shape_dtype_and_requires_grad_match_torch(name):
    ours, theirs = both(DRAWS[name])
    assert tuple(ours.shape) == tuple(theirs.shape)
    assert str(ours.dtype) == str(theirs.dtype)
    assert ours.requires_grad == theirs.requires_grad


# --- ranges --------------------------------------------------------------------------------------


def test_uniform_stays_in_its_half_open_range():
    x = draw(lambda lib: lib.empty(N, dtype=lib.float32).uniform_(-2, 3))
    assert x.min() >= -2 and x.max() < 3


def test_uniform_never_rounds_up_to_its_upper_bound():
    x = draw(lambda lib: lib.empty(N, dtype=lib.float16).uniform_(0, 1))
    assert x.max() < 1


@pytest.mark.parametrize("dtype,low,high", [("float32", 0, 2 ** 24), ("float64", 0, 2 ** 53),
                                            ("int32", 0, 2 ** 31 - 1), ("uint8", 0, 255), ("int8", 0, 127),
                                            ("bool", 0, 1)])
def test_random_covers_the_dtype_range(dtype, low, high):
    x = draw(lambda lib: lib.zeros(N, dtype=getattr(lib, dtype)).random_())
    assert x.min() >= low and x.max() <= high
    assert x.max() > high / 2  # it reaches the top of the range


def test_random_to_and_from_to_are_half_open():
    assert set(draw(lambda lib: lib.zeros(500, dtype=lib.int64).random_(4)).tolist()) == {0, 1, 2, 3}
    assert set(draw(lambda lib: lib.zeros(500).random_(-2, 1)).tolist()) == {-2, -1, 0}
    big = draw(lambda lib: lib.zeros(200, dtype=lib.int64).random_(0, 2 ** 40))
    assert big.max() > 2 ** 38


def test_geometric_counts_trials_from_one():
    x = draw(lambda lib: lib.zeros(N).geometric_(0.5))
    assert x.min() == 1 and np.all(x == np.round(x))


def test_bernoulli_is_zero_or_one():
    assert set(draw(lambda lib: lib.bernoulli(lib.full((500,), 0.5))).tolist()) == {0.0, 1.0}
    assert set(draw(lambda lib: lib.zeros(500, dtype=lib.int64).bernoulli_(0.5)).tolist()) == {0, 1}


def test_bernoulli_follows_each_probability():
    p = chainrule.tensor([0.0, 1.0, 0.0, 1.0])
    assert chainrule.bernoulli(p).tolist() == [0.0, 1.0, 0.0, 1.0]
    assert chainrule.zeros(2, 4).bernoulli_(p).tolist() == [[0.0, 1.0, 0.0, 1.0]] * 2


def test_randperm_is_a_permutation():
    chainrule.manual_seed(3)
    for n in (1, 7, 300):
        values = chainrule.randperm(n).tolist()
        assert sorted(values) == list(range(n))
    assert chainrule.randperm(300).tolist() != list(range(300))


def test_multinomial_without_replacement_never_repeats_within_a_row():
    chainrule.manual_seed(4)
    picks = chainrule.multinomial(chainrule.rand(50, 6) + 0.01, 6).numpy()
    assert all(sorted(row) == list(range(6)) for row in picks.tolist())


def test_multinomial_never_picks_a_zero_category_while_others_remain():
    chainrule.manual_seed(5)
    p = chainrule.tensor([[0.0, 1.0, 0.0, 3.0], [2.0, 0.0, 0.0, 0.0]])
    with_replacement = chainrule.multinomial(p, 200, True).numpy()
    assert set(with_replacement[0].tolist()) == {1, 3} and set(with_replacement[1].tolist()) == {0}
    first_two = chainrule.multinomial(p[:1], 2).numpy()
    assert sorted(first_two[0].tolist()) == [1, 3]


# --- moments ---------------------------------------------------------------------------------------


def assert_close_to(value, expected, standard_error, sigmas=5):
    assert abs(value - expected) < sigmas * standard_error, f"{value} vs {expected} ± {standard_error}"


def test_uniform_moments():
    x = draw(lambda lib: lib.empty(N, dtype=lib.float64).uniform_(1, 3))
    assert_close_to(x.mean(), 2.0, (2 / math.sqrt(12)) / math.sqrt(N))
    assert_close_to(x.var(), 4 / 12, 0.005)


def test_normal_fill_moments():
    x = draw(lambda lib: lib.empty(N).normal_(-1, 2))
    assert_close_to(x.mean(), -1.0, 2 / math.sqrt(N))
    assert_close_to(x.std(), 2.0, 2 / math.sqrt(2 * N))


def test_exponential_moments():
    x = draw(lambda lib: lib.empty(N).exponential_(4.0))
    assert x.min() >= 0
    assert_close_to(x.mean(), 0.25, 0.25 / math.sqrt(N))


def test_cauchy_median_and_quartiles():
    x = draw(lambda lib: lib.empty(N, dtype=lib.float64).cauchy_(1.0, 2.0))
    q1, median, q3 = np.percentile(x, [25, 50, 75])
    assert_close_to(median, 1.0, 0.03)  # quartiles of Cauchy(m, s): m -+ s
    assert_close_to(q1, -1.0, 0.05)
    assert_close_to(q3, 3.0, 0.05)


def test_log_normal_is_exp_of_normal():
    x = draw(lambda lib: lib.empty(N, dtype=lib.float64).log_normal_(0.5, 0.25))
    assert x.min() > 0
    assert_close_to(np.log(x).mean(), 0.5, 0.25 / math.sqrt(N))
    assert_close_to(np.log(x).std(), 0.25, 0.25 / math.sqrt(2 * N))


def test_geometric_mean():
    x = draw(lambda lib: lib.empty(N).geometric_(0.25))
    assert_close_to(x.mean(), 4.0, math.sqrt(0.75) / 0.25 / math.sqrt(N))


def test_bernoulli_frequency():
    x = draw(lambda lib: lib.bernoulli(lib.full((N,), 0.3)))
    assert_close_to(x.mean(), 0.3, math.sqrt(0.21 / N))
    x = draw(lambda lib: lib.zeros(N).bernoulli_(0.8))
    assert_close_to(x.mean(), 0.8, math.sqrt(0.16 / N))


def test_multinomial_with_replacement_frequencies():
    p = np.array([0.1, 0.2, 0.3, 0.4])
    x = draw(lambda lib: lib.multinomial(lib.tensor(p * 10), N, replacement=True))
    for k in range(4):
        assert_close_to((x == k).mean(), p[k], math.sqrt(p[k] * (1 - p[k]) / N))


def test_multinomial_without_replacement_first_pick_follows_p():
    p = np.array([0.1, 0.6, 0.3])
    x = draw(lambda lib: lib.multinomial(lib.tensor(p).expand(N, 3), 1))[:, 0]
    for k in range(3):
        assert_close_to((x == k).mean(), p[k], math.sqrt(p[k] * (1 - p[k]) / N))


def test_normal_with_tensor_arguments():
    x = draw(lambda lib: lib.normal(lib.tensor([[-5.0], [5.0]]).expand(2, N), lib.tensor([0.5, 2.0])[:, None]))
    assert_close_to(x[0].mean(), -5.0, 0.5 / math.sqrt(N))
    assert_close_to(x[1].std(), 2.0, 2 / math.sqrt(2 * N))


# --- reproducibility ---------------------------------------------------------------------------------

SAMPLERS = {name: make for name, make in DRAWS.items() if "empty" not in name}


@pytest.mark.parametrize("name", SAMPLERS)
def test_manual_seed_makes_every_sampler_repeatable(name):
    np.testing.assert_array_equal(draw(SAMPLERS[name], seed=11), draw(SAMPLERS[name], seed=11))


def test_different_seeds_give_different_draws():
    assert not np.array_equal(draw(DRAWS["normal_"], 1), draw(DRAWS["normal_"], 2))


@pytest.mark.parametrize("call", [
    lambda gen: chainrule.zeros(5).uniform_(generator=gen),
    lambda gen: chainrule.zeros(5).normal_(generator=gen),
    lambda gen: chainrule.zeros(5).exponential_(generator=gen),
    lambda gen: chainrule.zeros(5).cauchy_(generator=gen),
    lambda gen: chainrule.zeros(5).log_normal_(generator=gen),
    lambda gen: chainrule.zeros(5).geometric_(0.5, generator=gen),
    lambda gen: chainrule.zeros(5).random_(generator=gen),
    lambda gen: chainrule.zeros(5).bernoulli_(generator=gen),
    lambda gen: chainrule.bernoulli(chainrule.full((5,), 0.5), generator=gen),
    lambda gen: chainrule.multinomial(chainrule.ones(5), 3, generator=gen),
    lambda gen: chainrule.normal(chainrule.zeros(5), 1.0, generator=gen),
    lambda gen: chainrule.randperm(5, generator=gen),
], ids=["uniform_", "normal_", "exponential_", "cauchy_", "log_normal_", "geometric_", "random_", "bernoulli_",
        "bernoulli", "multinomial", "normal", "randperm"])
def test_generator_argument_draws_from_that_generator_only(call):
    chainrule.manual_seed(0)
    before = chainrule.default_generator.get_state()
    first = call(chainrule.Generator().manual_seed(9)).numpy()
    assert chainrule.equal(chainrule.default_generator.get_state(), before)  # the global stream is untouched
    np.testing.assert_array_equal(first, call(chainrule.Generator().manual_seed(9)).numpy())


# --- graphs: a draw replaces values, so its gradient is zero -----------------------------------------

FILL_NODES = {
    "uniform_": lambda y: y.uniform_(),
    "normal_": lambda y: y.normal_(),
    "exponential_": lambda y: y.exponential_(),
    "cauchy_": lambda y: y.cauchy_(),
    "log_normal_": lambda y: y.log_normal_(),
    "geometric_": lambda y: y.geometric_(0.5),
    "random_": lambda y: y.random_(),
    "random_ to": lambda y: y.random_(5),
    "random_ from to": lambda y: y.random_(1, 5),
    "bernoulli_": lambda y: y.bernoulli_(0.5),
}


@pytest.mark.torch
@pytest.mark.parametrize("name", FILL_NODES)
def test_fill_of_a_graph_tensor_records_torchs_node_and_zero_gradient(name):
    def program(lib):
        x = lib.ones(2, 3, requires_grad=True)
        y = FILL_NODES[name](x * 2)
        (y * 3 + x).sum().backward()
        return y.grad_fn.name(), to_numpy(x.grad)

    (ours, grad), (theirs, expected) = both(program)
    assert ours == theirs
    np.testing.assert_array_equal(grad, expected)


def test_fill_of_a_leaf_under_no_grad_works_like_nn_init():
    w = chainrule.zeros(3, 4, requires_grad=True)
    with chainrule.no_grad():
        w.uniform_(-0.1, 0.1)
    assert w.is_leaf and w.requires_grad and w.grad_fn is None
    assert w.abs().max().item() <= 0.1 and w._version == 1


def test_fill_returns_self_and_bumps_the_version():
    x = chainrule.zeros(3)
    assert x.normal_() is x and x._version == 1


@pytest.mark.torch
def test_bernoulli_with_a_number_p_is_not_differentiable_through_input():
    # PyTorch records torch::autograd::NotImplemented; chainrule records nothing
    x = chainrule.full((3,), 0.5, requires_grad=True)
    assert chainrule.bernoulli(x, 0.5).grad_fn is None


# --- finfo and iinfo -------------------------------------------------------------------------------


@pytest.mark.torch
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "complex128", None])
def test_finfo_matches_torch(dtype):
    torch = require_torch()
    ours = chainrule.finfo(getattr(chainrule, dtype)) if dtype else chainrule.finfo()
    theirs = torch.finfo(getattr(torch, dtype)) if dtype else torch.finfo()
    for name in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        assert getattr(ours, name) == getattr(theirs, name), name
        assert type(getattr(ours, name)) is type(getattr(theirs, name)), name
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)


@pytest.mark.torch
@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32", "int64"])
def test_iinfo_matches_torch(dtype):
    torch = require_torch()
    ours, theirs = chainrule.iinfo(getattr(chainrule, dtype)), torch.iinfo(getattr(torch, dtype))
    for name in ("bits", "max", "min", "dtype"):
        assert getattr(ours, name) == getattr(theirs, name), name
        assert type(getattr(ours, name)) is type(getattr(theirs, name)), name
    assert repr(ours) == repr(theirs)


def test_finfo_follows_the_default_dtype_and_compares_by_dtype():
    previous = chainrule.get_default_dtype()
    try:
        chainrule.set_default_dtype(chainrule.float64)
        assert chainrule.finfo().dtype == "float64"
    finally:
        chainrule.set_default_dtype(previous)
    assert chainrule.finfo(chainrule.float32) == chainrule.finfo(chainrule.complex64)
    assert chainrule.iinfo(chainrule.int8) != chainrule.iinfo(chainrule.uint8)
    assert chainrule.finfo(chainrule.float32).eps == float(np.finfo(np.float32).eps)
