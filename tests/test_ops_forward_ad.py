"""Forward-mode AD on every entry of the op database (tests/op_db.py).

Each entry's ``fn`` runs on each of its float64 samples with every floating input made
dual (a random tangent), in chainrule and in ``torch.autograd.forward_ad``; the primal and
the tangent of each output must match (an int or bool output: no tangent on either side).
Where PyTorch has no forward AD for the op (it raises) or a wrong one (``TORCH_DIFFERS``),
the tangent is compared with central finite differences of chainrule's own ``fn`` instead.

Samples broken by a bug not fixed yet are listed in ``KNOWN_FORWARD_BUGS``: each gets a
test of its own, marked strict xfail, that fails once the bug is fixed.
"""
import numpy as np
import pytest

import chainrule

from helpers import require_torch
from op_db import OPS, _seed, as_list, build_args, to_array
from test_ops import _known_bug, for_each

pytestmark = [
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:The use of `x.T`:UserWarning"),
    pytest.mark.filterwarnings("ignore:Tensor.T is deprecated:UserWarning"),
    pytest.mark.filterwarnings("ignore::UserWarning"),  # PyTorch's deprecation notes (triangular_solve...)
]

# (entry, sample) -> why its tangent is wrong (strict xfail: the test fails once it is fixed)
KNOWN_FORWARD_BUGS = {
}

# (entry, sample or None for all) -> where PyTorch's own forward AD is off: compared with
# finite differences instead (test_torch_forward_ad_differs checks PyTorch still disagrees)
TORCH_DIFFERS = {
    ("cholesky_inverse", None): "PyTorch's tangent differs from finite differences of the same function by ~0.2",
    ("triangular_solve", None): "PyTorch's tangent of the solution differs from finite differences by ~0.1",
    ("scatter_reduce_prod", None): "PyTorch gives the output of scatter_reduce(..., 'prod') no tangent",
    ("scatter_reduce_prod_zeros", None): "PyTorch gives the output of scatter_reduce(..., 'prod') no tangent",
    ("logcumsumexp", "large-float64"): "PyTorch's tangent underflows to 0 where exp(x_j - y_i) is 1 (x = -1000)",
}


def _torch_differs(entry, sample):
    return TORCH_DIFFERS.get((entry.name, sample.name)) or TORCH_DIFFERS.get((entry.name, None))


def _samples(entry):
    """The entry's float64 samples with a floating input, but those a known bug already
    breaks against PyTorch (test_ops lists them)."""
    return [s for s in entry.sample_list() if s.name.endswith("-float64") and s.grad_positions()
            and not _known_bug("torch", entry.name, s.name)]


ENTRIES = [(e, _samples(e)) for e in OPS]
ENTRIES = [(e, samples) for e, samples in ENTRIES if samples]


def _tangents(entry, sample):
    """A random tangent for each floating input: the same for both libraries."""
    rng = np.random.default_rng(_seed(entry.name, sample.name, "tangent"))
    out = {}
    for p in sample.grad_positions():
        a = sample.args[p]
        t = rng.standard_normal(a.shape)
        if a.dtype.kind == "c":
            t = t + 1j * rng.standard_normal(a.shape)
        out[p] = np.asarray(t).astype(a.dtype)
    return out


def run_dual(lib, entry, sample, tangents):
    """``[(primal, tangent)]`` per output of ``fn`` at dual inputs, as NumPy arrays
    (tangent None where the output has none)."""
    fwad = lib.autograd.forward_ad
    args, _ = build_args(lib, sample, requires_grad=False)
    with fwad.dual_level():
        for p, t in tangents.items():
            args[p] = fwad.make_dual(args[p], lib.from_numpy(t.copy()))
        outs = as_list(entry.fn(lib, *args))
        result = []
        for o in outs:
            primal, tangent = fwad.unpack_dual(o)
            result.append((to_array(primal), None if tangent is None else to_array(tangent)))
    return result


def finite_differences(entry, sample, tangents):
    """Central differences of chainrule's ``fn`` along the tangents, per output."""
    def at(sign):
        shifted = list(sample.args)
        for p, t in tangents.items():
            shifted[p] = np.asarray(sample.args[p] + sign * sample.eps * t)
        args, _ = build_args(chainrule, sample.__class__(sample.name, tuple(shifted)), requires_grad=False)
        return [to_array(o) for o in as_list(entry.fn(chainrule, *args))]
    return [(p - m) / (2 * sample.eps) if p.dtype.kind in "fc" else None for p, m in zip(at(1), at(-1))]


def _expected(torch, entry, sample, tangents):
    """PyTorch's outputs, or (the reason, the primals without forward AD) where PyTorch has
    no forward AD for the op (it raises) or a wrong one."""
    try:
        expected = run_dual(torch, entry, sample, tangents)
    except Exception as e:  # noqa: BLE001  (NotImplementedError, or its formula failing: then FD)
        reason = e
    else:
        reason = _torch_differs(entry, sample)
        if reason is None:
            return expected, None
    args, _ = build_args(torch, sample, requires_grad=False)
    return [(to_array(o), None) for o in as_list(entry.fn(torch, *args))], reason


def _tolerance(entry, dtype, fd):
    if fd:
        return 1e-5, 1e-5
    rtol, atol = entry.tol.get(dtype.name, entry.tol["float64"])
    return max(rtol, 1e-7), max(atol, 1e-7)


def check_forward_ad(entry, sample, torch):
    tangents = _tangents(entry, sample)
    expected, torch_error = _expected(torch, entry, sample, tangents)
    try:
        ours = run_dual(chainrule, entry, sample, tangents)
    except Exception as e:
        if type(e) is not type(torch_error) or str(e).splitlines()[:1] != str(torch_error).splitlines()[:1]:
            raise
        return
    assert len(ours) == len(expected), f"{len(ours)} outputs, expected {len(expected)}"
    if torch_error is not None and sample.eps is not None:  # no PyTorch reference: finite differences
        fd = finite_differences(entry, sample, tangents)
        expected = [(p, f) for (p, _), f in zip(expected, fd)]
    elif torch_error is not None:  # no reference at all (at a kink): a tangent of the right shape
        expected = [(p, np.zeros_like(p) if p.dtype.kind in "fc" else None) for p, _ in expected]
        ours = [(p, None if t is None else np.zeros_like(t)) for p, t in ours]
    for k, ((primal, tangent), (e_primal, e_tangent)) in enumerate(zip(ours, expected)):
        rtol, atol = _tolerance(entry, e_primal.dtype, False)
        np.testing.assert_allclose(primal, e_primal, rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"output {k}: primal")
        if e_primal.dtype.kind not in "fc":
            assert tangent is None, f"output {k}: a tangent on a {e_primal.dtype} output"
            continue
        assert (tangent is None) == (e_tangent is None), f"output {k}: tangent {tangent!r}, expected {e_tangent!r}"
        if tangent is not None:
            rtol, atol = _tolerance(entry, tangent.dtype, torch_error is not None)
            assert tangent.shape == e_tangent.shape, f"output {k}: tangent shape {tangent.shape}, {e_tangent.shape}"
            if torch_error is None:
                assert tangent.dtype == e_tangent.dtype, f"output {k}: tangent dtype {tangent.dtype}, {e_tangent.dtype}"
            np.testing.assert_allclose(tangent, e_tangent, rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=f"output {k}: tangent")


def _params():
    """One test per entry with its samples, and one strict xfail per known-bug sample."""
    out = []
    for entry, samples in ENTRIES:
        good = [s for s in samples if (entry.name, s.name) not in KNOWN_FORWARD_BUGS]
        if good:
            out.append(pytest.param(entry, good, id=entry.name))
        for s in samples:
            reason = KNOWN_FORWARD_BUGS.get((entry.name, s.name))
            if reason:
                out.append(pytest.param(entry, [s], id=f"{entry.name}-{s.name}",
                                        marks=pytest.mark.xfail(strict=True, reason=reason)))
    return out


@pytest.mark.torch
@pytest.mark.parametrize("entry,samples", _params())
def test_forward_ad_matches_torch(entry, samples):
    torch = require_torch()
    for_each(samples, lambda sample: check_forward_ad(entry, sample, torch))


def test_known_bugs_are_samples():
    names = {(e.name, s.name) for e, samples in ENTRIES for s in samples} | {(e.name, None) for e, _ in ENTRIES}
    listed = set(KNOWN_FORWARD_BUGS) | set(TORCH_DIFFERS)
    assert not listed - names, sorted(listed - names, key=str)


@pytest.mark.torch
@pytest.mark.parametrize("key", sorted(TORCH_DIFFERS, key=str), ids=str)
def test_torch_forward_ad_differs(key):
    """Each TORCH_DIFFERS entry: PyTorch's tangent still disagrees with finite differences
    on some sample (once PyTorch is fixed, it goes back to comparing with PyTorch)."""
    torch = require_torch()
    entry, samples = next((e, s) for e, s in ENTRIES if e.name == key[0])
    differs = False
    for sample in samples:
        if key[1] not in (None, sample.name):
            continue
        tangents = _tangents(entry, sample)
        fd = finite_differences(entry, sample, tangents)
        for (_, theirs), expected in zip(run_dual(torch, entry, sample, tangents), fd):
            if expected is not None and (theirs is None or not np.allclose(theirs, expected, rtol=1e-5, atol=1e-5)):
                differs = True
    assert differs, f"PyTorch's forward AD now matches finite differences for {key}: drop it from TORCH_DIFFERS"
