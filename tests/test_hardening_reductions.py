"""Issue 10 regressions in reductions and scans, each compared with live PyTorch:
accumulation precision, signed zeros and ties, and the dim forms (None, (), []) of
every reduction."""
import numpy as np
from math import inf, nan
import pytest

import chainrule
from helpers import error_of, outcome, require_torch


def _pair(torch, array):
    return chainrule.from_numpy(array.copy()), torch.from_numpy(array.copy())


def _numpy(t):
    return np.asarray(t.detach().numpy())


# --- accumulation precision ---------------------------------------------------------------------

RNG = np.random.default_rng(10)
UNIFORM = RNG.random((10**5, 10), dtype=np.float32) + 0.5

ACCURACY = [  # (name, input, fn, rtol): the relative error allowed against PyTorch
    ("cumsum of 1e6 x 0.1", np.full(10**6, 0.1, np.float32), lambda L, x: x.cumsum(0)[-1], 1e-6),
    ("cumsum along dim 0", UNIFORM, lambda L, x: x.cumsum(0)[-1], 1e-6),
    ("sum(0) of 1e5 rows", UNIFORM, lambda L, x: x.sum(0), 1e-6),
    ("sum(0) keepdim", UNIFORM, lambda L, x: x.sum(0, keepdim=True), 1e-6),
    ("sum of a transpose", UNIFORM, lambda L, x: x.t().sum(1), 1e-6),
    ("sum over (0, 1)", UNIFORM.reshape(1000, 100, 10), lambda L, x: x.sum((0, 1)), 1e-6),
    ("mean(0)", UNIFORM, lambda L, x: x.mean(0), 1e-6),
    ("nansum(0)", UNIFORM, lambda L, x: x.nansum(0), 1e-6),
    ("nanmean(0)", UNIFORM, lambda L, x: x.nanmean(0), 1e-6),
    ("var(0)", UNIFORM, lambda L, x: x.var(0), 1e-5),
    ("std(0)", UNIFORM, lambda L, x: x.std(0), 1e-5),
    ("norm(dim=0)", UNIFORM, lambda L, x: x.norm(dim=0), 2e-5),  # PyTorch's own error here is 7e-6
    ("logsumexp(0)", UNIFORM, lambda L, x: x.logsumexp(0), 1e-6),
    ("cumprod near 1", (1 + (UNIFORM[:, 0] - 1) * 1e-3), lambda L, x: x.cumprod(0)[-1], 1e-6),
    ("logcumsumexp", UNIFORM[:, 0].copy(), lambda L, x: x.logcumsumexp(0)[-1], 1e-6),
    ("float16 mean of big sums", np.full((100, 6000), 2.0, np.float16), lambda L, x: x.mean(), 0),
    ("float16 sum(0)", np.full((4000, 3), 0.1, np.float16), lambda L, x: x.sum(0), 1e-3),
    ("float16 cumsum", np.full(4000, 0.1, np.float16), lambda L, x: x.cumsum(0)[-1], 1e-3),
    ("float16 norm past 256", np.full(3, 300.0, np.float16), lambda L, x: x.norm(), 1e-3),
    ("float32 norm past 1e19", np.full(3, 1e20, np.float32), lambda L, x: x.norm(), 1e-6),  # inf, as PyTorch
    ("float16 softmax", (RNG.standard_normal((4, 3000)) * 3).astype(np.float16),
     lambda L, x: L.softmax(x, 1), 1e-3),  # float32 inside, rounded once: at most an ulp apart
    ("float16 log_softmax", (RNG.standard_normal((4, 3000)) * 3).astype(np.float16),  # PyTorch's is 1 ulp off
     lambda L, x: L.log_softmax(x, 1), 2e-3),
]


@pytest.mark.parametrize("name, array, fn, rtol", ACCURACY, ids=[case[0] for case in ACCURACY])
def test_accumulates_as_accurately_as_pytorch(name, array, fn, rtol):
    torch = require_torch()
    ours, theirs = (fn(lib, x) for lib, x in zip((chainrule, torch), _pair(torch, array)))
    assert ours.dtype == chainrule.float16 if array.dtype == np.float16 else ours.dtype == chainrule.float32
    np.testing.assert_allclose(_numpy(ours).astype(np.float64), _numpy(theirs).astype(np.float64), rtol=rtol)


# --- signed zeros and ties ------------------------------------------------------------------------

ZERO_PATTERNS = [[-0.0, 0.0], [0.0, -0.0], [0.0, -0.0, -0.0], [-0.0, 0.0, 0.0], [1.0, -0.0, 0.0], [-1.0, 0.0, -0.0]]
ZERO_OPS = {
    "amax": lambda L, x: x.amax(), "amin": lambda L, x: x.amin(),
    "amax(0)": lambda L, x: x.reshape(-1, 1).expand(-1, 3).amax(0),
    "amin(1, keepdim)": lambda L, x: x.reshape(1, -1).amin(1, keepdim=True),
    "max": lambda L, x: x.max(), "min": lambda L, x: x.min(),
    "max(0)": lambda L, x: x.max(0).values, "argmax": lambda L, x: x.argmax(), "argmin": lambda L, x: x.argmin(),
    "sort": lambda L, x: x.sort().indices, "cummax": lambda L, x: x.cummax(0).indices,
    "logcumsumexp": lambda L, x: x.logcumsumexp(0), "logcumsumexp 0-d": lambda L, x: x[0].logcumsumexp(0),
}


@pytest.mark.parametrize("op", list(ZERO_OPS))
@pytest.mark.parametrize("values", ZERO_PATTERNS, ids=str)
def test_signed_zeros_as_pytorch(op, values):
    torch = require_torch()
    ours, theirs = (ZERO_OPS[op](lib, lib.tensor(values)) for lib in (chainrule, torch))
    assert _numpy(ours).tobytes() == _numpy(theirs).tobytes(), (_numpy(ours), _numpy(theirs))


# --- dim forms: None, () and [] with keepdim ------------------------------------------------------

DIM_OPS = {
    "sum": lambda L, x, d, k: x.sum(dim=d, keepdim=k), "mean": lambda L, x, d, k: x.mean(dim=d, keepdim=k),
    "nansum": lambda L, x, d, k: x.nansum(dim=d, keepdim=k), "nanmean": lambda L, x, d, k: x.nanmean(dim=d, keepdim=k),
    "amax": lambda L, x, d, k: x.amax(dim=d, keepdim=k), "amin": lambda L, x, d, k: x.amin(dim=d, keepdim=k),
    "var": lambda L, x, d, k: x.var(dim=d, keepdim=k), "std": lambda L, x, d, k: x.std(dim=d, keepdim=k),
    "norm": lambda L, x, d, k: x.norm(dim=d, keepdim=k), "all": lambda L, x, d, k: x.all(dim=d, keepdim=k),
    "any": lambda L, x, d, k: x.any(dim=d, keepdim=k), "count_nonzero": lambda L, x, d, k: x.count_nonzero(dim=d),
    "argmax": lambda L, x, d, k: x.argmax(dim=d, keepdim=k), "argmin": lambda L, x, d, k: x.argmin(dim=d, keepdim=k),
    "logsumexp": lambda L, x, d, k: x.logsumexp(dim=d, keepdim=k),
    "median": lambda L, x, d, k: x.median(dim=d, keepdim=k), "kthvalue": lambda L, x, d, k: x.kthvalue(1, dim=d),
    "mode": lambda L, x, d, k: x.mode(dim=d), "cumsum": lambda L, x, d, k: x.cumsum(dim=d),
    "aminmax": lambda L, x, d, k: L.aminmax(x, dim=d, keepdim=k).min, "topk": lambda L, x, d, k: x.topk(1, dim=d),
}
# PyTorch's logsumexp over dim=() without keepdim raises an internal shape error; ours reduces every dim
DIM_SKIP = {("logsumexp", "()", False), ("logsumexp", "[]", False)}
# median(dim=None) raises in PyTorch, but our default dim is None: it is median() here
DIM_UNCHECKED = {("median", "None")}


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dim", [None, (), []], ids=["None", "()", "[]"])
@pytest.mark.parametrize("op", list(DIM_OPS))
def test_dim_forms_as_pytorch(op, dim, keepdim):
    torch = require_torch()
    if (op, str(dim), keepdim) in DIM_SKIP:
        ours = DIM_OPS[op](chainrule, chainrule.ones(2, 3), dim, keepdim)
        assert ours.shape == ()
        with pytest.raises(RuntimeError):
            DIM_OPS[op](torch, torch.ones(2, 3), dim, keepdim)
        return
    if (op, str(dim)) in DIM_UNCHECKED:
        assert DIM_OPS[op](chainrule, chainrule.ones(2, 3), dim, keepdim).shape == ()
        return
    results = []
    for lib in (chainrule, torch):
        x = lib.tensor([[1.0, 2.0, 0.0], [4.0, 2.0, 3.0]], requires_grad=op not in ("all", "any", "count_nonzero"))
        try:
            out = DIM_OPS[op](lib, x, dim, keepdim)
        except Exception:  # noqa: BLE001  (the type is compared below)
            results.append(error_of(lambda: DIM_OPS[op](lib, x, dim, keepdim))[0])
            continue
        out = out[0] if isinstance(out, tuple) else out
        results.append((tuple(out.shape), _numpy(out).tolist()))
    assert results[0] == results[1]


def test_sum_over_none_keepdim_records_sum_dim():
    torch = require_torch()
    names = [lib.ones(2, 3, requires_grad=True).sum(dim=None, keepdim=True).grad_fn.name() for lib in (chainrule, torch)]
    assert names[0] == names[1]


# --- sum(dtype=): cast, then add ------------------------------------------------------------------

CAST_FIRST = [  # PyTorch's sum and nansum cast to dtype first (an overflow is inf); its mean does not
    ("sum float32 -> float16", np.array([1e30, -1e30, 1], np.float32), lambda L, x: x.sum(dtype=L.float16)),
    ("sum(0) int32 -> float16", np.array([70000, 1, -70000], np.int32), lambda L, x: x.sum(0, dtype=L.float16)),
    ("nansum float32 -> float16", np.array([np.nan, 1e30, 1], np.float32), lambda L, x: x.nansum(dtype=L.float16)),
    ("nansum int32 -> float16", np.array([70000, 1, -70000], np.int32), lambda L, x: x.nansum(dtype=L.float16)),
    ("mean float32 -> float16", np.array([1e30, -1e30, 1], np.float32), lambda L, x: x.mean(dtype=L.float16)),
    ("sum float64 -> float32", np.array([1e300, -1e300, 1]), lambda L, x: x.sum(dtype=L.float32)),
]


@pytest.mark.parametrize("name, array, fn", CAST_FIRST, ids=[case[0] for case in CAST_FIRST])
def test_sum_with_dtype_casts_first_as_pytorch(name, array, fn):
    torch = require_torch()
    ours, theirs = (fn(lib, x) for lib, x in zip((chainrule, torch), _pair(torch, array)))
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_array_equal(_numpy(ours), _numpy(theirs))


@pytest.mark.parametrize("value", [complex(-0.0, 0.0), complex(1, -0.0), complex(-inf, 1), complex(-inf, inf),
                                   complex(nan, 1), complex(1, nan), complex(inf, -0.0)], ids=str)
def test_logcumsumexp_of_a_complex_0d_tensor_is_a_copy(value):
    torch = require_torch()
    ours, theirs = (_numpy(lib.tensor(value, dtype=lib.complex64).logcumsumexp(0)) for lib in (chainrule, torch))
    assert ours.tobytes() == theirs.tobytes(), (ours, theirs)


@pytest.mark.parametrize("values", [[1j, complex(-0.0, -0.0), -40 + 2.5j], [-40j, 2.5, complex(0, -0.0), 1 + 1j],
                                    [2.5 + 1e30j, -40j, -40 + 1e-30j, complex(0, -0.0), 1e-30j]], ids=str)
def test_complex_cumprod_zero_signs_as_pytorch(values):
    """The running product starts from 1 + 0j, which multiplies the first element only."""
    torch = require_torch()
    ours, theirs = (_numpy(lib.tensor(values, dtype=lib.complex64).cumprod(0)) for lib in (chainrule, torch))
    assert ours.tobytes() == theirs.tobytes(), (ours, theirs)


@pytest.mark.parametrize("values", [[1e30], [1e30, 1.0], [1e300, 1e300], [-1e30, -1e30], [1.0, -inf]], ids=str)
def test_logcumsumexp_tangent_at_huge_values_as_pytorch(values):
    """The tangent is t's running average weighted by exp(x): no log|t| absorbed into x = 1e30."""
    torch = require_torch()

    def tangent(lib):
        fwd = lib.autograd.forward_ad
        with fwd.dual_level():
            x = fwd.make_dual(lib.tensor(values, dtype=lib.float64), lib.linspace(-0.07, 0.5, len(values), dtype=lib.float64))
            return _numpy(fwd.unpack_dual(x.logcumsumexp(0)).tangent)
    np.testing.assert_allclose(tangent(chainrule), tangent(torch), rtol=1e-12)


VARIANCES = [
    ("std of equal 1e30s", np.full((2, 3), -1e30), lambda L, x: x.std(1)),
    ("var of equal 1e30s", np.full(5, 1e30, np.float32), lambda L, x: x.var()),
    ("complex var without degrees of freedom", np.array([1.5 - 1j, -34.5 - 1j], np.complex64),
     lambda L, x: x.var(correction=3)),  # the real part's inf plus the imaginary part's 0 / 0
    ("complex std", np.array([1 + 2j, 3 - 1j, -2 + 0.5j]), lambda L, x: x.std()),
]


@pytest.mark.parametrize("name, array, fn", VARIANCES, ids=[case[0] for case in VARIANCES])
def test_variance_as_pytorch(name, array, fn):
    torch = require_torch()
    ours, theirs = (_numpy(fn(lib, x)) for lib, x in zip((chainrule, torch), _pair(torch, array)))
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=0)


EQUAL_VALUES = {"three float32 1e30s": np.full(3, 1e30, np.float32), "three float64 1e30s": np.full(3, 1e30),
                "three complex 1e30s": np.full(3, 1e30 + 2j, np.complex64)}


@pytest.mark.parametrize("array", list(EQUAL_VALUES.values()), ids=list(EQUAL_VALUES))
def test_deliberate_variance_of_equal_values(array):
    """Deliberate (docs/differences.md): the variance of equal values is 0. PyTorch's
    whole-tensor var takes deviations from its mean, which for these is an ulp off (5.6e45,
    inf in float32), though its var along a dim (Welford) gives 0; chainrule's is 0 both ways."""
    torch = require_torch()
    ours, theirs = _pair(torch, np.stack([array, array]))  # (along dim 1: two rows, two results)
    assert ours.var(unbiased=False).item() == 0 and not ours.var(1, unbiased=False).any()
    assert theirs.var(unbiased=False).item() != 0 and not theirs.var(1, unbiased=False).any()


def test_deliberate_aminmax_zero_tie():
    """PyTorch's aminmax and amin disagree on a ±0 tie; chainrule's aminmax is its amin."""
    torch = require_torch()
    values = [100.0, 0.0, -0.0]
    assert np.signbit(torch.tensor(values).aminmax().min.item()) != np.signbit(torch.tensor(values).amin().item())
    ours = chainrule.tensor(values)
    assert np.signbit(ours.aminmax().min.item()) == np.signbit(ours.amin().item()) == np.signbit(torch.tensor(values).amin().item())


HISTC_HALF = {f"{v}": v for v in ([inf, inf], [60000.0, 60000.0], [65504.0, 65504.0], [-65504.0, -65504.0], [0.0, 0.0])}


@pytest.mark.parametrize("values", list(HISTC_HALF.values()), ids=list(HISTC_HALF))
def test_histc_float16_edges_as_pytorch(values):
    """float16's widened edges (min - 1, max + 1) stay in double for the checks, then convert
    to Half checked: 65504 + 1 overflows, 60000 +- 1 rounds back to 60000 (one bin takes all)."""
    torch = require_torch()
    fn = lambda L: L.histc(L.tensor(values, dtype=L.float16), bins=4)
    assert outcome(fn, chainrule) == outcome(fn, torch)


def test_cumprod_of_an_empty_complex_dim():
    torch = require_torch()
    fn = lambda L: L.zeros(2, 0, dtype=L.complex64).cumprod(1)
    assert outcome(fn, chainrule) == outcome(fn, torch)


_FUZZ_ZEROS = np.array([-3.45703125, -1.1162109375, -0.259521484375, 0.25, 0.25, 0.25, 0.0, -3.2890625, 1e-30, 0.25,
                        -40.0, -1e-30, 0.0, 0.25, -20.0, -0.0, 0.25, 0.25]).reshape(3, 3, 2)
UNIQUE_ZEROS = {
    "18 elements": _FUZZ_ZEROS,  # the introsort leaves the last zero, -0., first
    "transposed": _FUZZ_ZEROS.transpose(2, 1, 0),  # its logical order leaves 0. first
    "with nans": np.array([-0.0, -0.0, 0.25, -1.0, -1.0, 1.0, 0.25, 1.0, -0.0, nan, -0.0, -0.0, 0.25, -1.0, 0.0, 0.0, 1.0,
                           0.25, 1.0, 0.25, -0.0, -0.0, 0.25, nan, 0.0, 0.0, 0.25, 1.0, -1.0, 0.0, nan, 1.0, nan, 0.25]),
    "short": np.array([1.0, -0.0, 0.0]),  # insertion sort: the first in memory order
}


@pytest.mark.parametrize("name", list(UNIQUE_ZEROS))
def test_unique_keeps_the_zero_pytorch_sorts_first(name):
    """PyTorch's unique std::sorts (NaN last) and keeps the first of each run: which of -0.
    and 0. that is depends on the introsort's partitions, replayed."""
    torch = require_torch()
    values = UNIQUE_ZEROS[name]
    ours, theirs = (_numpy(lib.unique(lib.from_numpy(values.copy()))) for lib in (chainrule, torch))
    assert ours.tobytes() == theirs.tobytes(), (values, ours, theirs)


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float16"])
def test_mean_overflows_as_pytorch(dtype):
    """float32 (complex64) sums overflow at 3.4e38 before the division, as PyTorch's; float16 is
    added in float32 and stays finite."""
    torch = require_torch()
    big = 3.4028234663852886e38 if dtype != "float16" else 65504.0
    fn = lambda L: (L.full((2, 2), big, dtype=getattr(L, dtype)).mean(), L.full((2, 2), big, dtype=getattr(L, dtype)).mean(0),
                    L.zeros(0, dtype=getattr(L, dtype)).mean())
    assert repr(outcome(fn, chainrule)) == repr(outcome(fn, torch))


@pytest.mark.parametrize("p", [-1.0, -2.5, 0.5])
def test_norm_of_p_below_one_second_derivative_rounds_as_pytorch(p):
    """p < 1, negative too, is PyTorch's sgn(x) |x|^(p-1) * g * ||x||^(1-p): at a norm that is
    all one element, the second derivative is rounding noise, the same noise in that order."""
    torch = require_torch()
    values = np.array([[100.0, 1e-30, -8.940696716308594e-07], [2.0, -0.5, 3.0]])

    def second(lib):
        x = lib.from_numpy(values.copy()).requires_grad_()
        g, = lib.autograd.grad(lib.norm(x, p, 1).sum(), x, create_graph=True)
        return lib.autograd.grad((g * lib.from_numpy(np.arange(1.0, 7.0).reshape(2, 3))).sum(), x)[0].numpy()
    np.testing.assert_allclose(second(chainrule), second(torch), rtol=1e-12)
