"""Issue 10 regressions of the random-program fuzzer in reductions, sorting and scans, each
compared with live PyTorch: which check comes first (dims, sizes, dtype), the 0-d dims,
the refusals of complex (and bool) input in PyTorch's words, and values."""
import numpy as np
import pytest

import chainrule
from helpers import assert_close, require_torch


def _outcome(fn, lib):
    """The result of ``fn(lib)`` as comparable values, or (exception type name, first line)."""
    try:
        out = fn(lib)
    except Exception as e:  # noqa: BLE001  (the exception is what we compare)
        return type(e).__name__, str(e).splitlines()[0] if str(e) else ""
    return out


def _c(L, values, dtype="float32", shape=None):
    a = np.array(values, dtype=dtype)
    return L.from_numpy(a.reshape(shape) if shape is not None else a)


# (name, fn of the library): each raises the same exception (type, first line) on both
ERRORS = [
    # 0-d tensors take dim 0 or -1 only, even where nothing is reduced
    ("all 0-d dim 1", lambda L: _c(L, 3, "int64").all(1)),
    ("all 0-d dims (0, 1)", lambda L: _c(L, 3, "int64").all((0, 1))),
    ("all 0-d dims (0, 0)", lambda L: _c(L, 3, "int64").all((0, 0))),
    ("any 0-d dims (0, 2)", lambda L: _c(L, True, "bool").any((0, 2))),
    ("count_nonzero 0-d dim 1", lambda L: _c(L, 3.0).count_nonzero(1)),
    ("count_nonzero 0-d dims (0, 0)", lambda L: _c(L, 3.0).count_nonzero((0, 0))),
    ("aminmax 0-d dim -3", lambda L: _c(L, 3.0).aminmax(dim=-3)),
    ("unflatten 0-d dim 1", lambda L: _c(L, 3.0).unflatten(1, (1, 1))),
    ("unflatten 0-d no sizes", lambda L: _c(L, 3.0).unflatten(-2, ())),
    ("unflatten an empty dim into 0 and -1", lambda L: L.zeros(0, 3).unflatten(0, (0, -1))),
    # the dims are checked before the dtype
    ("sum to int with grad, bad dim", lambda L: _c(L, 3.0).requires_grad_().sum(1, dtype=L.int32)),
    ("prod to int with grad, bad dim", lambda L: _c(L, 3.0).requires_grad_().prod(1, dtype=L.int32)),
    ("cumsum to int with grad, bad dim", lambda L: _c(L, 3.0).requires_grad_().cumsum(1, dtype=L.int32)),
    ("cumprod to int with grad, bad dim", lambda L: _c(L, 3.0).requires_grad_().cumprod(1, dtype=L.int32)),
    ("logcumsumexp int, bad dim", lambda L: _c(L, 3, "int64").logcumsumexp(1)),
    ("topk bool, bad dim", lambda L: _c(L, True, "bool").topk(1, 1)),
    ("topk bool, k too big", lambda L: _c(L, [True], "bool").topk(2)),
    ("kthvalue bool, k too big", lambda L: _c(L, [True], "bool").kthvalue(2)),
    ("kthvalue bool, empty", lambda L: _c(L, [], "bool").kthvalue(1)),
    ("median bool, bad dim", lambda L: _c(L, [True], "bool").median(1)),
    ("median bool, empty dim", lambda L: _c(L, [], "bool").median(0)),
    ("median bool along a dim", lambda L: _c(L, [True], "bool").median(0)),
    ("nanmedian bool", lambda L: _c(L, [True], "bool").nanmedian()),
    # an empty dim is named as the caller wrote it, in the caller's order
    ("amax of an empty dim -1", lambda L: L.zeros(2, 0).amax(-1)),
    ("amin before the range check", lambda L: L.zeros(2, 0).amin((-1, 5))),
    ("amin before the repeat check", lambda L: L.zeros(2, 0).amin((-1, -1))),
    ("inf norm of an empty dim -1", lambda L: L.linalg.vector_norm(L.zeros(2, 0), ord=float("inf"), dim=(0, -1))),
    # complex numbers have no order
    ("amin complex", lambda L: _c(L, [1 + 1j], "complex64").amin(0)),
    ("amax complex", lambda L: _c(L, 1 + 1j, "complex64").amax()),
    ("aminmax complex", lambda L: _c(L, [1 + 1j], "complex64").aminmax()),
    ("aminmax complex 0-d dim", lambda L: _c(L, 1 + 1j, "complex64").aminmax(dim=0)),
    ("aminmax complex empty", lambda L: L.zeros(0, dtype=L.complex64).aminmax()),
    ("argmax complex empty", lambda L: L.zeros(2, 0, dtype=L.complex64).argmax(1)),
    ("argmin complex", lambda L: _c(L, [1 + 1j], "complex64").argmin()),
    ("max complex", lambda L: _c(L, [1 + 1j], "complex64").max()),
    ("max complex along a dim", lambda L: _c(L, [1 + 1j], "complex64").max(0)),
    ("min complex 0-d dim", lambda L: _c(L, 1 + 1j, "complex64").min(0)),
    ("median complex", lambda L: _c(L, [1 + 1j], "complex64").median()),
    ("nanmedian complex along a dim", lambda L: _c(L, 1 + 1j, "complex64").nanmedian(0)),
    ("mode complex", lambda L: _c(L, [1 + 1j], "complex64").mode(0)),
    ("sort complex", lambda L: _c(L, [1 + 1j], "complex64").sort()),
    ("sort complex empty", lambda L: L.zeros(0, dtype=L.complex64).sort()),
    ("argsort complex", lambda L: _c(L, [1 + 1j], "complex64").argsort()),
    ("msort complex", lambda L: _c(L, [1 + 1j], "complex64").msort()),
    ("topk complex", lambda L: _c(L, [1 + 1j], "complex64").topk(1)),
    ("kthvalue complex", lambda L: _c(L, [1 + 1j], "complex64").kthvalue(1)),
    ("cummax complex", lambda L: _c(L, [1 + 1j], "complex64").cummax(0)),
    ("cummin complex", lambda L: _c(L, [1 + 1j], "complex64").cummin(0)),
    ("unique complex", lambda L: _c(L, [1 + 1j], "complex64").unique()),
    ("unique complex 0-d, dim", lambda L: _c(L, 1 + 1j, "complex64").unique(dim=0)),
    ("unique_consecutive complex, dim 1", lambda L: _c(L, [1 + 1j], "complex64").unique_consecutive(dim=1)),
    ("unique_consecutive complex 1-d, dim 0", lambda L: _c(L, [1 + 1j], "complex64").unique_consecutive(dim=0)),
    ("nansum complex", lambda L: _c(L, [1 + 1j], "complex64").nansum()),
    ("nansum complex before autograd", lambda L: _c(L, [1 + 1j], "complex64").requires_grad_().nansum(
        0, dtype=L.int32)),
    ("nanmean complex empty", lambda L: L.zeros(0, dtype=L.complex64).nanmean()),
    # unique along a dim of an empty tensor
    ("unique of two empty dims", lambda L: L.zeros(0, 0, dtype=L.int32).unique(dim=0)),
    ("unique_consecutive along a non-empty dim", lambda L: L.zeros(0, 2).unique_consecutive(dim=1)),
    ("unique_consecutive of two empty dims", lambda L: L.zeros(0, 0).unique_consecutive(dim=1)),
    # var_mean and std_mean name themselves
    ("var_mean of ints", lambda L: L.var_mean(_c(L, [3], "int64"), 0, correction=2)),
    ("std_mean of bools", lambda L: L.std_mean(_c(L, [True], "bool"))),
]


def _cummax_tangent_of_empty(L):
    with L.autograd.forward_ad.dual_level():
        x = L.autograd.forward_ad.make_dual(L.zeros(0, dtype=L.float64), L.zeros(0, dtype=L.float64))
        return x.cummax(1)


ERRORS.append(("cummax's tangent along a dim an empty input lacks", _cummax_tangent_of_empty))


@pytest.mark.parametrize("name,fn", ERRORS, ids=[e[0] for e in ERRORS])
def test_error_matches_torch(name, fn):
    torch = require_torch()
    ours, theirs = _outcome(fn, chainrule), _outcome(fn, torch)
    assert isinstance(theirs, tuple) and ours == theirs


# (name, fn of the library): the same results on both
VALUES = [
    ("cummax of an empty tensor, any dim", lambda L: L.zeros(2, 0, dtype=L.int64).cummax(-3)),
    ("cummin of an empty complex tensor", lambda L: L.zeros(0, dtype=L.complex64).cummin(3)),
    ("cummax of a complex 0-d tensor", lambda L: _c(L, 1 + 1j, "complex64").cummax(0)),
    ("kthvalue of a bool 0-d tensor", lambda L: _c(L, True, "bool").kthvalue(1)),
    ("mode of a complex 0-d tensor", lambda L: _c(L, 1 + 1j, "complex64").mode(0)),
    ("median of an empty bool tensor", lambda L: _c(L, [], "bool").median()),
    ("nanmedian of an empty bool tensor", lambda L: _c(L, [], "bool").nanmedian()),
    ("unique_consecutive along an empty dim", lambda L: L.zeros(0, 2).unique_consecutive(
        dim=0, return_inverse=True, return_counts=True)),
    # sign is (0 < x) - (x < 0): 0 at nan
    ("sign and sgn of nan", lambda L: (_c(L, [np.nan, -0.0, 2.0]).sign(), _c(L, [np.nan, -3.0]).sgn())),
    # a reduction of one element is its abs, whatever the p
    ("float32 2-norm of one huge element", lambda L: L.linalg.vector_norm(_c(L, [1e30, 1.0])[::2])),
    ("complex64 norm of one huge element per slice", lambda L: L.linalg.vector_norm(
        _c(L, [0j, -1e30 + 1j], "complex64", (1, 2, 1)), dim=(0, 2), keepdim=True)),
    # the std is rounded once, after its square root
    ("float32 std of huge values", lambda L: _c(L, [1e30, -1e30, 3.0]).std()),
    # var_mean's and std_mean's mean: Welford's, in float64
    ("var_mean's mean of big float32 values", lambda L: L.var_mean(
        _c(L, [42598.0, -974735.0, -656.0, 1.0, -70.0, -2147483648.0, 2.0, 2147483648.0]))),
    ("std_mean's mean of inf, then more", lambda L: L.std_mean(_c(L, [[np.inf, 1.0], [1.0, np.inf]]), 1)),
    ("var_mean's mean of a transposed inf", lambda L: L.var_mean(L.from_numpy(np.asfortranarray(
        [[1.0, np.inf], [2.0, 3.0]])), 0)),
    ("a 0-d tensor's norm along its dim: no one-element shortcut", lambda L: tuple(
        L.linalg.vector_norm(_c(L, -1e30 + 1e-30j, "complex64"), p, dim=-1) for p in (2, 1.5))),
    ("quantile between infs is lerp's nan", lambda L: L.quantile(_c(L, [np.inf, 1.6, -0.0, np.inf], "float64"),
                                                                 L.tensor([0.0, 0.5, 1.0], dtype=L.float64))),
    ("nanquantile from -inf", lambda L: L.nanquantile(_c(L, [-1e30, 100.0, -np.inf, 0.78]), 0.25)),
    ("quantile midpoint keeps -0.", lambda L: L.quantile(_c(L, [-0.0, 1.0]), 0.0, interpolation="midpoint")),
    ("unflatten an empty dim, -1 inferred", lambda L: (L.zeros(0, 0).unflatten(0, (-1, 2)),
                                                       L.zeros(0).unflatten(0, (2, -1)))),
    ("amax of an empty complex tensor along a non-empty dim", lambda L: (
        L.zeros(1, 1, 0, dtype=L.complex64).amax(0), L.zeros(1, 1, 0, dtype=L.complex64).amin((0, 1)))),
    ("mode of an empty complex tensor", lambda L: L.zeros(1, 1, 0, dtype=L.complex64).mode(0)),
    ("logcumsumexp of an empty complex tensor", lambda L: L.zeros(1, 1, 0, dtype=L.complex64).logcumsumexp(0)),
    ("cumsum starts from +0", lambda L: (_c(L, [-0.0, -0.0, 1.0]).cumsum(0), _c(L, [[2.0, -0.0]]).cumsum(1))),
    ("var_mean's mean of complex inf", lambda L: L.var_mean(_c(L, [complex(np.inf, 1), 2, 1j], "complex64"))),
]


# (name, fn of the library, input): the gradient of fn's result's sum, and its forward-mode
# tangent, match PyTorch's
GRADIENTS = [
    ("inf-norm at nan", lambda L, x: L.linalg.vector_norm(x, float("inf")), [np.nan, 1.0, -2.0]),
    ("-inf-norm at nan", lambda L, x: L.linalg.vector_norm(x, -float("inf")), [np.nan]),
    ("1-norm at nan", lambda L, x: L.linalg.vector_norm(x, 1), [np.nan, -1.0]),
    ("0.5-norm with an inf", lambda L, x: L.linalg.vector_norm(x, 0.5), [-40.0, 1e-30, -np.inf, -0.0]),
    ("cumprod of nan", lambda L, x: x.reshape(()).cumprod(0), [np.nan]),
    ("cumprod of inf", lambda L, x: x.reshape(()).cumprod(0), [np.inf]),
    ("cumprod of a 0-d zero", lambda L, x: x.reshape(()).cumprod(0), [0.0]),
    ("cumprod of one nan along a dim", lambda L, x: x.cumprod(0), [np.nan]),
    ("logcumsumexp of a 0-d nan", lambda L, x: x.reshape(()).logcumsumexp(0), [np.nan]),
    ("logcumsumexp of a 0-d inf", lambda L, x: x.reshape(()).logcumsumexp(0), [-np.inf]),
]


@pytest.mark.parametrize("name,fn,values", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_gradient_matches_torch(name, fn, values):
    torch = require_torch()
    grads, tangents = [], []
    for L in (chainrule, torch):
        x = L.tensor(values, dtype=L.float64, requires_grad=True)
        grads.append(L.autograd.grad(fn(L, x).sum(), x)[0])
        with L.autograd.forward_ad.dual_level():
            out = fn(L, L.autograd.forward_ad.make_dual(x.detach(), L.ones_like(x)))
            tangents.append(L.autograd.forward_ad.unpack_dual(out).tangent)
    assert_close(grads[0], grads[1])
    assert_close(tangents[0], tangents[1])


def test_norm_second_derivative_at_zero():
    """The 3-norm's second derivative at 0 is 0, not 0 / 0."""
    torch = require_torch()
    out = []
    for L in (chainrule, torch):
        x = L.tensor(0.0, dtype=L.float64, requires_grad=True)
        (g,) = L.autograd.grad(L.linalg.vector_norm(x, 3), x, create_graph=True)
        out.append(L.autograd.grad(g, x)[0])
    assert_close(out[0], out[1])


# (name, fn of the library, input): whether the first derivative (create_graph) has a graph
GRAPHS = [
    ("cummax of an empty input: the input itself", lambda L, x: x.cummax(0).values, np.zeros((2, 0))),
    ("cummin of an empty input", lambda L, x: x.cummin(-1).values, np.zeros((0,))),
    ("cumprod of an empty input: the gradient", lambda L, x: x.cumprod(0), np.zeros((3, 0))),
    ("prod of one zero", lambda L, x: x.prod(dtype=L.float32), np.zeros((1,))),
    ("prod along a dim of one, with a zero", lambda L, x: x.prod(1), np.array([[0.0], [2.0]])),
]


@pytest.mark.parametrize("name,fn,array", GRAPHS, ids=[g[0] for g in GRAPHS])
def test_gradient_graph_matches_torch(name, fn, array):
    torch = require_torch()
    found = []
    for L in (chainrule, torch):
        x = L.from_numpy(array.copy()).requires_grad_()
        out = fn(L, x)
        (g,) = L.autograd.grad(out, x, L.ones_like(out), create_graph=True)
        found.append((g.requires_grad, tuple(g.shape)))
    assert found[0] == found[1]


_TIES = np.random.default_rng(10).choice(np.array([0.0, -0.0, 1.0, np.nan, 2.0], np.float32), (3, 70))

# (name, fn of the library): which of equal elements the unstable CPU kernels pick
TIES = [
    ("kthvalue of equal values", lambda L: L.from_numpy(np.array([[4], [4], [4], [4]])).kthvalue(1, 0, True)),
    ("kthvalue of ties and signed zeros", lambda L: L.from_numpy(_TIES.copy()).kthvalue(20, 1)),
    ("topk smallest of ties", lambda L: L.from_numpy(np.array([[1.0, 1.0, 0.5, 1.0, 0.5, 1.0]] * 2, np.float32)).topk(
        3, largest=False)),
    ("topk of ties, unsorted", lambda L: L.from_numpy(_TIES.copy()).topk(9, sorted=False)),
    ("topk of ties, partial sort", lambda L: L.from_numpy(_TIES.copy()).topk(1)),
    ("mode with a nan", lambda L: L.from_numpy(np.array([np.nan, 3.0, 1.0], np.float32)).mode()),
    ("mode of ties", lambda L: L.from_numpy(_TIES.copy()).mode(1)),
    ("sort of a long row of ties", lambda L: L.from_numpy(_TIES.copy()).sort(1, descending=True)),
    ("argsort of a long row of ties", lambda L: (L.from_numpy(_TIES.copy()).argsort(0),
                                                 L.from_numpy(_TIES.copy()).argsort(1))),
    ("nanmedian of nans only", lambda L: L.from_numpy(np.full((2, 9), np.nan)).nanmedian(1)),
]


@pytest.mark.parametrize("name,fn", TIES, ids=[t[0] for t in TIES])
def test_ties_match_torch(name, fn):
    torch = require_torch()
    ours, theirs = fn(chainrule), fn(torch)
    for o, t in zip(ours, theirs):
        o, t = np.asarray(o.numpy()), np.asarray(t.numpy())
        assert np.array_equal(o, t, equal_nan=o.dtype.kind == "f")
        if o.dtype.kind == "f":
            assert np.array_equal(np.signbit(o), np.signbit(t))


@pytest.mark.parametrize("name,fn", VALUES, ids=[v[0] for v in VALUES])
def test_value_matches_torch(name, fn):
    torch = require_torch()
    ours, theirs = fn(chainrule), fn(torch)
    ours, theirs = (r if isinstance(r, tuple) else (r,) for r in (ours, theirs))
    assert_close(tuple(ours), tuple(theirs))  # nan where PyTorch's is (assert_allclose's equal_nan)
    assert [str(t.dtype) for t in ours] == [str(t.dtype) for t in theirs]
    assert [tuple(t.shape) for t in ours] == [tuple(t.shape) for t in theirs]
    for o, t in zip(ours, theirs):  # and the signs of zeros
        o, t = np.asarray(o.detach().numpy()), np.asarray(t.detach().numpy())
        if o.dtype.kind == "f":
            zeros = (o == 0) & (t == 0)
            assert np.array_equal(np.signbit(o[zeros]), np.signbit(t[zeros]))


def test_logcumsumexp_tangent_is_exact():
    """Deliberate (docs/differences.md): chainrule's tangent is the derivative, PyTorch's is
    off by its 1e-13 where an element lies far below the line's max."""
    torch = require_torch()
    values = np.array([1.4142074932138864, 16.653542494782574, 17.652885309961153])
    tangent = np.array([1.0, 0.0, 0.0])
    exact = np.exp(values[0] - np.logaddexp.accumulate(values))  # d y_i / d x_0
    found = []
    for L in (chainrule, torch):
        with L.autograd.forward_ad.dual_level():
            x = L.autograd.forward_ad.make_dual(L.from_numpy(values.copy()), L.from_numpy(tangent.copy()))
            found.append(L.autograd.forward_ad.unpack_dual(x.logcumsumexp(0)).tangent.numpy())
    np.testing.assert_allclose(found[0], exact, rtol=1e-12)
    assert not np.allclose(found[1], exact, rtol=1e-9, atol=0)
