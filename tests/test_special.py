"""Special functions (erf ... mvlgamma, torch.special.i1 ...) checked against PyTorch.

One table, ``SPECS``, drives every check: each spec names the call (one lambda for both
libraries), a float64 grid compared with PyTorch (negative and large arguments, poles,
infinities, nan) and a few smooth points for the derivative checks:

* values, to 1e-12 relative in float64 and float32 rounding in float32, with the same
  inf/nan pattern;
* gradients on the whole grid (inf/nan where PyTorch has them), node names, and second
  derivatives at the smooth points;
* gradcheck and gradgradcheck, and the op's jvp rule against central differences;
* result dtypes, in-place methods, error messages and the ``torch.special`` names.
"""
import dataclasses
import math
from typing import Callable

import numpy as np
import pytest

import chainrule
from chainrule._ops import registry
from chainrule.autograd import gradcheck, gradgradcheck

from helpers import op_tangent, require_torch, to_numpy

INF, NAN = math.inf, math.nan
NONFINITE = [INF, -INF, NAN]


def _grid(lo, hi, n=241, extra=()):
    return np.concatenate([np.linspace(lo, hi, n), np.asarray(extra, dtype=np.float64)])


# the gamma family: negative non-integers, the poles, tiny, huge and near the zeros at 1 and 2
GAMMA_GRID = _grid(-20.3, 30.1, extra=[-100.5, -7.999, -2.457, -1e-300, -0.0, 0.0, 1e-300, 1e-20, 1 - 1e-10,
                                       1 + 1e-9, 2 - 1e-8, 2 + 1e-12, 1.4616321449683623, 10.0, 1e5, 1e10,
                                       1e17, 1e20, 1e300, 1.7e308, -1.0, -2.0, -50.0, -1e20] + NONFINITE)
GAMMA_SMOOTH = np.array([-2.7, -0.4, 0.3, 1.6, 4.2])
BESSEL_GRID = _grid(-720.0, 720.0, extra=[-8.0, -1e-20, -0.0, 0.0, 1e-20, 7.999, 8.0, 8.001, 709.0, 713.0]
                    + NONFINITE)
BESSEL_SMOOTH = np.array([-9.5, -1.3, 0.0, 0.4, 2.2, 12.0])
I0E_SMOOTH = BESSEL_SMOOTH[BESSEL_SMOOTH != 0]  # i0e = exp(-|x|) i0 has a kink at 0
ERFINV_GRID = np.concatenate([_grid(-1.0, 1.0), 1 - 10.0 ** -np.arange(1, 17), -1 + 10.0 ** -np.arange(1, 17),
                              [1e-300, -0.0, 1.5, -2.0] + NONFINITE])


@dataclasses.dataclass(frozen=True)
class Spec:
    """``fn(lib, x)`` calls the op; ``op``/``params`` name its registry entry (jvp check).
    ``atol``: absolute slack next to the function's zeros, where relative error means
    little (lgamma's negative zeros: our C-library-free lgamma is good to ~1e-15 there)."""
    name: str
    fn: Callable
    op: str
    grid: np.ndarray
    smooth: np.ndarray
    params: tuple = ()
    atol: float = 0.0


SPECS = [
    Spec("erf", lambda lib, x: lib.erf(x), "erf", _grid(-7, 7, extra=[-0.0, 1e-300, 30.0]), np.array([-1.5, -0.3, 0.2, 1.1])),
    Spec("erfc", lambda lib, x: x.erfc(), "erfc", _grid(-7, 27, extra=[-0.0, 1e-300, 40.0]), np.array([-1.5, 0.2, 2.5])),
    Spec("erfinv", lambda lib, x: lib.erfinv(x), "erfinv", ERFINV_GRID, np.array([-0.9, -0.2, 0.3, 0.7])),
    Spec("lgamma", lambda lib, x: lib.lgamma(x), "lgamma", GAMMA_GRID, GAMMA_SMOOTH, atol=1e-14),
    Spec("digamma", lambda lib, x: x.digamma(), "digamma", GAMMA_GRID, GAMMA_SMOOTH, atol=1e-14),
    Spec("psi", lambda lib, x: lib.special.psi(x), "digamma", GAMMA_GRID, GAMMA_SMOOTH, atol=1e-14),
] + [
    Spec(f"polygamma{n}", lambda lib, x, n=n: lib.polygamma(n, x), "polygamma", GAMMA_GRID, GAMMA_SMOOTH, (n,),
         atol=1e-14)
    for n in (0, 1, 2, 3, 6)
] + [
    Spec("polygamma_method", lambda lib, x: x.polygamma(2), "polygamma", GAMMA_GRID, GAMMA_SMOOTH, (2,)),
    Spec("i0", lambda lib, x: lib.i0(x), "i0", BESSEL_GRID, BESSEL_SMOOTH),
    Spec("i1", lambda lib, x: lib.special.i1(x), "i1", BESSEL_GRID, BESSEL_SMOOTH),
    Spec("i0e", lambda lib, x: lib.special.i0e(x), "i0e", BESSEL_GRID, I0E_SMOOTH),
    Spec("i1e", lambda lib, x: lib.special.i1e(x), "i1e", BESSEL_GRID, BESSEL_SMOOTH),
    # mvlgamma: PyTorch no longer refuses x <= (p - 1)/2, so the grid goes there too
    Spec("mvlgamma1", lambda lib, x: lib.mvlgamma(x, 1), "mvlgamma", GAMMA_GRID, GAMMA_SMOOTH, (1,), atol=1e-14),
    Spec("mvlgamma3", lambda lib, x: lib.mvlgamma(x, p=3), "mvlgamma", _grid(-4.3, 40.1, extra=[0.5, 1.0, 1.5]),
         np.array([1.3, 2.7, 5.1]), (3,)),
    Spec("multigammaln", lambda lib, x: lib.special.multigammaln(x, 2), "mvlgamma", _grid(0.6, 40.1),
         np.array([0.8, 3.3]), (2,)),
]
SPEC_IDS = [s.name for s in SPECS]


def _run(lib, spec, data, requires_grad=False):
    x = lib.from_numpy(data.copy())
    if requires_grad:
        x.requires_grad_()
    return x, spec.fn(lib, x)


# --- values ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_values_float64(spec):
    torch = require_torch()
    ours = to_numpy(_run(chainrule, spec, spec.grid)[1])
    theirs = to_numpy(_run(torch, spec, spec.grid)[1])
    assert ours.dtype == theirs.dtype == np.float64
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=spec.atol, equal_nan=True)


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_values_float32(spec):
    """PyTorch computes in float32, we in float64 rounded once: a few float32 ulps apart,
    more next to the poles of the gamma family, where float32 pi*x has lost the digits."""
    torch = require_torch()
    with np.errstate(over="ignore", invalid="ignore"):
        data = spec.grid.astype(np.float32)
        data = data[~((data < 0) & (np.abs(data - np.round(data)) < 0.05))]
    ours = to_numpy(_run(chainrule, spec, data)[1])
    theirs = to_numpy(_run(torch, spec, data)[1])
    assert ours.dtype == theirs.dtype == np.float32
    np.testing.assert_allclose(ours, theirs, rtol=2e-5, atol=1e-5, equal_nan=True)


@pytest.mark.parametrize("dtype", ["int64", "bool", "float32", "float64"])
@pytest.mark.parametrize("spec", [s for s in SPECS if not s.name.startswith(("mvlgamma", "multi"))],
                         ids=lambda s: s.name)
def test_result_dtype(spec, dtype):
    torch = require_torch()
    data = np.array([0, 1, 1, 0]).astype(dtype)
    ours = spec.fn(chainrule, chainrule.from_numpy(data.copy()))
    theirs = spec.fn(torch, torch.from_numpy(data.copy()))
    assert str(ours.dtype) == str(theirs.dtype)
    np.testing.assert_allclose(to_numpy(ours), to_numpy(theirs), rtol=2e-6, equal_nan=True)


def test_result_dtype_follows_the_default():
    torch = require_torch()
    x = np.array([2, 3, 4])
    assert str(chainrule.mvlgamma(chainrule.from_numpy(x), 2).dtype) == str(torch.mvlgamma(torch.from_numpy(x), 2).dtype)
    chainrule.set_default_dtype(chainrule.float64)
    try:
        for fn in (chainrule.erf, chainrule.lgamma, chainrule.digamma, chainrule.i0, chainrule.special.i1):
            assert fn(chainrule.from_numpy(x)).dtype == chainrule.float64
        assert chainrule.polygamma(2, chainrule.from_numpy(x)).dtype == chainrule.float64
    finally:
        chainrule.set_default_dtype(chainrule.float32)


def test_float16_keeps_its_dtype():
    x = chainrule.tensor([0.25, 1.5], dtype=chainrule.float16)
    for fn in (chainrule.erf, chainrule.erfinv, chainrule.lgamma, chainrule.i0):
        assert fn(x).dtype == chainrule.float16


# --- gradients -----------------------------------------------------------------------------


def _grads(lib, spec, data, seed=0):
    """First derivatives for a random upstream gradient, the node name, and (at smooth
    points) the second derivatives of <grad, v> with respect to x."""
    rng = np.random.default_rng(seed)
    up, v = rng.standard_normal(data.shape), rng.standard_normal(data.shape)
    x, y = _run(lib, spec, data, requires_grad=True)
    (g,) = lib.autograd.grad(y, x, lib.from_numpy(up), create_graph=True)
    (gg,) = lib.autograd.grad((g * lib.from_numpy(v)).sum(), x)
    return type(y.grad_fn).__name__ if lib is not chainrule else y.grad_fn.name(), to_numpy(g), to_numpy(gg)


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_gradients_match_torch(spec):
    torch = require_torch()
    node, g, gg = _grads(chainrule, spec, spec.smooth)
    t_node, t_g, t_gg = _grads(torch, spec, spec.smooth)
    assert node == t_node
    np.testing.assert_allclose(g, t_g, rtol=1e-11, atol=1e-14)
    np.testing.assert_allclose(gg, t_gg, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_gradients_on_grid_match_torch(spec):
    """Including the poles and infinities: the same inf and nan as PyTorch."""
    torch = require_torch()
    data = spec.grid[np.abs(spec.grid) < 1e300]  # beyond, the upstream products overflow differently
    ours = _run(chainrule, spec, data, requires_grad=True)
    theirs = _run(torch, spec, data, requires_grad=True)
    up = np.linspace(-1.0, 1.0, data.size)
    with np.errstate(invalid="ignore"):  # inf - inf in i1's rule at the infinities, as in PyTorch: nan
        ours[1].backward(chainrule.from_numpy(up))
    theirs[1].backward(torch.from_numpy(up))
    np.testing.assert_allclose(to_numpy(ours[0].grad), to_numpy(theirs[0].grad), rtol=1e-10, atol=1e-14,
                               equal_nan=True)


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_gradcheck_and_gradgradcheck(spec):
    x = chainrule.from_numpy(spec.smooth.copy()).requires_grad_()
    func = lambda t: spec.fn(chainrule, t)
    assert gradcheck(func, (x,), eps=1e-6, atol=1e-5, rtol=1e-3)
    assert gradgradcheck(func, (x,), eps=1e-6, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_jvp_rule_matches_finite_differences(spec):
    op = registry.OPS[spec.op]
    rng = np.random.default_rng(1)
    x, t = spec.smooth.copy(), rng.standard_normal(spec.smooth.shape)
    with chainrule.no_grad():
        out, tangent = op_tangent(op, (chainrule.from_numpy(x),), (chainrule.from_numpy(t),), spec.params)
    np.testing.assert_allclose(to_numpy(out), op.forward(x, *spec.params), rtol=1e-15)
    eps = 1e-6
    fd = (op.forward(x + eps * t, *spec.params) - op.forward(x - eps * t, *spec.params)) / (2 * eps)
    np.testing.assert_allclose(to_numpy(tangent), fd, rtol=1e-6, atol=1e-8)


def test_i1_slope_at_zero_is_one_half():
    """i1'(x) = i0(x) - i1(x)/x is 0/0 at 0; the limit is used there, as in PyTorch."""
    for fn in (chainrule.special.i1, chainrule.special.i1e):
        x = chainrule.zeros(3, dtype=chainrule.float64, requires_grad=True)
        fn(x).sum().backward()
        assert x.grad.tolist() == [0.5, 0.5, 0.5]


# --- in place, errors, names ------------------------------------------------------------------


@pytest.mark.parametrize("name,args", [("erf", ()), ("erfc", ()), ("erfinv", ()), ("lgamma", ()), ("digamma", ()),
                                       ("polygamma", (3,)), ("mvlgamma", (2,)), ("i0", ())])
def test_in_place_methods(name, args):
    torch = require_torch()
    data = np.array([0.55, 0.8, 0.95])
    results = []
    for lib in (chainrule, torch):
        leaf = lib.from_numpy(data.copy()).requires_grad_()
        x = leaf * 1.0
        y = getattr(x, name + "_")(*args)
        assert y is x
        x.sum().backward()
        results.append((to_numpy(x), to_numpy(leaf.grad), type(x.grad_fn).__name__ if lib is torch else x.grad_fn.name()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-12)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-10)
    assert results[0][2] == results[1][2]
    with pytest.raises(RuntimeError, match="can't be cast"):
        getattr(chainrule.tensor([1, 2]), name + "_")(*args)


def _raises_like_torch(call):
    torch = require_torch()
    with pytest.raises(Exception) as theirs:
        call(torch)
    with pytest.raises(type(theirs.value)) as ours:
        call(chainrule)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("call", [
    lambda lib: lib.polygamma(-1, lib.ones(2)),
    lambda lib: lib.polygamma(1.5, lib.ones(2)),
    lambda lib: lib.mvlgamma(lib.ones(2), 0),
    lambda lib: lib.mvlgamma(lib.ones(2, dtype=lib.bool), 1),
    lambda lib: lib.erf(lib.ones(2, dtype=lib.complex64)),
    lambda lib: lib.lgamma(lib.ones(2, dtype=lib.complex128)),
    lambda lib: lib.digamma(lib.ones(2, dtype=lib.complex64)),
    lambda lib: lib.special.i1(lib.ones(2, dtype=lib.complex64)),
], ids=["polygamma_negative_n", "polygamma_float_n", "mvlgamma_p0", "mvlgamma_bool", "erf_complex",
        "lgamma_complex", "digamma_complex", "i1_complex"])
def test_errors_match_torch(call):
    _raises_like_torch(call)


def test_special_namespace_matches_torch():
    torch = require_torch()
    assert chainrule.special.gammaln is chainrule.lgamma
    assert chainrule.special.psi is chainrule.special.digamma is chainrule.digamma
    assert chainrule.special.expit is chainrule.sigmoid
    assert chainrule.special.multigammaln is chainrule.mvlgamma
    data = np.array([0.3, 0.45, 0.7])  # inside logit's domain
    for name in chainrule.special.__all__:
        ours, theirs = getattr(chainrule.special, name), getattr(torch.special, name)
        args = (2,) if name == "multigammaln" else ()
        if name == "polygamma":
            np.testing.assert_allclose(to_numpy(ours(2, chainrule.from_numpy(data))),
                                       to_numpy(theirs(2, torch.from_numpy(data))), rtol=1e-12)
        else:
            np.testing.assert_allclose(to_numpy(ours(chainrule.from_numpy(data), *args)),
                                       to_numpy(theirs(torch.from_numpy(data), *args)), rtol=1e-12)


def test_tensor_methods_are_torchs():
    torch = require_torch()
    for name in ("erf", "erfc", "erfinv", "lgamma", "digamma", "polygamma", "mvlgamma", "i0"):
        for method in (name, name + "_"):
            assert hasattr(torch.Tensor, method) and hasattr(chainrule.Tensor, method), method
