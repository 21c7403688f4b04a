"""Every op of tests/op_db.py, checked the same way.

For each entry, over all its samples:

* values, shapes, result dtypes and ``requires_grad`` equal PyTorch's (live) and the
  golden file's (recorded from PyTorch by scripts/regen_ops_golden.py; that test runs
  without PyTorch), and so does the ``grad_fn`` name that ``repr`` shows;
* gradients for the same random upstream gradient equal PyTorch's and the golden file's;
  for entries with second derivatives, so do the gradients of those gradients;
* float64 samples pass ``gradcheck`` and, where ``second_order``, ``gradgradcheck``;
* the jvp rule of every primitive a sample runs (in its forward, backward and double
  backward) matches central finite differences and is the transpose of the vjp;
* every op in ``registry.OPS`` is exercised by the entries that claim it;
* bad shapes, dims and indices raise PyTorch's exception type with PyTorch's message.

One test runs all samples of one entry (pytest's per-test cost would otherwise dominate).
Bugs outside the files this suite owns are listed in ``KNOWN_BUGS``: each sample they hit
gets a test of its own marked strict xfail, which fails as soon as the bug is fixed.
"""
import contextlib
import pathlib

import numpy as np
import pytest

import chainrule
from chainrule._ops import registry
from chainrule.autograd import gradcheck, gradgradcheck

from helpers import op_tangent, require_torch
from op_db import (ERRORS, FAMILY_KNOWN_BUGS, OPS, Sample, as_list, build_args, numpy_dtype, run_with_grads,
                   to_array, upstream_grad)

GOLDEN_DIR = pathlib.Path(__file__).resolve().parent / "golden"

pytestmark = [
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),  # NumPy at 0 ** -1, the mean of nothing...
    pytest.mark.filterwarnings("ignore:The use of `x.T`:UserWarning"),  # PyTorch on x.T of 3-d
    pytest.mark.filterwarnings("ignore:Tensor.T is deprecated:UserWarning"),  # ... and of 0-d tensors
]

# The bugs, each once; KNOWN_BUGS below says which checks of which samples they break.
BOOL_IN_FLOAT16 = (
    "unary.py exp/sin/cos/tanh of a bool tensor: NumPy computes np.exp(bool_array) in float16, and "
    "_float_result only casts that float16 result to float32: exp(True) = 2.71875, expected 2.7182817 "
    "(sin(True) 0.84130859 vs 0.84147096). Cast bool inputs to the default dtype before the NumPy call.")
CLAMP_TENSOR_INT = (
    "unary.py clamp(int64 tensor, min=tensor) with the other bound None: the missing bound becomes a "
    "float ±inf tensor, so the result is float32; PyTorch keeps int64.")
REAL_IMAG_NODE = (
    "elementwise.py real/imag of a complex tensor: PyTorch records them as SelectBackward0 (a select on "
    "view_as_real); chainrule names the node RealBackward0 / ImagBackward0.")
SGN_REAL_NODE = "unary.py sgn of a real tensor returns sign(x): grad_fn SignBackward0, PyTorch SgnBackward0."
SINC_AT_ZERO = (
    "unary.py sinc: _sinc_grad is where(x == 0, 0, ...), whose own derivative at x == 0 is 0, so the "
    "second derivative at 0 is 0; PyTorch (and calculus) give sinc''(0) = -pi^2/3 = -3.29.")
COMPLEX_TO_REAL_JVP = (
    "unary.py jvp rules of abs and angle for a complex input: `t * sign(x)` and `_angle_grad(t, x)` "
    "(t * x * 1j / |x|^2) are complex, but the outputs are real: the tangent of |z| must be "
    "real(conj(sgn(z)) * t), of angle(z) imag(conj(z) * t) / |z|^2 (float64, like the output).")
SUM_TO_SIZE_NODE = (
    "reductions.py (this suite's own file, left as is for speed): PyTorch's sum_to_size that drops "
    "leading dims ends with a view (ViewBackward0); chainrule's one op is SumBackward1. The engine "
    "reduces every broadcast gradient with this op, so it stays one op.")

# the bool samples holding a True (sin, cos and tanh of a 0-d False are exact)
_TRUE_SOMEWHERE = ("vector-bool", "matrix-bool", "noncontig-bool", "strided-bool")
_BOOL_HITS = {"exp": _TRUE_SOMEWHERE + ("scalar-bool",), "sin": _TRUE_SOMEWHERE, "cos": _TRUE_SOMEWHERE,
              "tanh": _TRUE_SOMEWHERE}

# (check, entry or error case, samples) -> the bug. ``samples``: None for every sample, else
# a name, a dtype suffix ("-bool"), a name without its dtype ("complex_number"), or a tuple.
KNOWN_BUGS = {
    ("grad_fn", "sum_to_size", ("lead", "scalar")): SUM_TO_SIZE_NODE,
}


KNOWN_BUGS.update(FAMILY_KNOWN_BUGS)


def _matches(spec, sample_name):
    if spec is None:
        return True
    if isinstance(spec, tuple):
        return any(_matches(s, sample_name) for s in spec)
    return sample_name == spec or sample_name.endswith(spec) or sample_name.startswith(spec + "-")


# op name -> the bug in its jvp rule: test_jvp_rules passes over the op, and
# test_known_jvp_bug fails (strict xfail) until the rule is fixed
KNOWN_JVP_BUGS = {
}

# ops with no derivative of their own, as in PyTorch (their rules raise its error)
NO_DERIVATIVE = {"cdist_backward"}
# ops whose rules are PyTorch's formula where it is not the derivative of the forward (compared
# with PyTorch only): cholesky_ex's partial factor of a matrix that is not positive definite;
# the Hermitian matrix LAPACK reads from one triangle (PyTorch's gradient is Hermitian)
NOT_THE_DERIVATIVE = {"linalg_cholesky_partial", "read_hermitian"}


def _known_bug(check, entry_name, sample_name):
    for (c, e, spec), reason in KNOWN_BUGS.items():
        if c == check and e == entry_name and _matches(spec, sample_name):
            return reason
    return None


def _grouped(check, pairs):
    """pytest params: one per entry with its samples, and one strict xfail per sample
    that a known bug breaks."""
    entries, samples = {}, {}
    for entry, sample in pairs:
        entries[entry.name] = entry
        samples.setdefault(entry.name, []).append(sample)
    params = []
    for name, entry in entries.items():
        good = [s for s in samples[name] if not _known_bug(check, name, s.name)]
        if good:
            params.append(pytest.param(entry, good, id=name))
        for s in samples[name]:
            reason = _known_bug(check, name, s.name)
            if reason:
                params.append(pytest.param(entry, [s], id=f"{name}-{s.name}",
                                           marks=pytest.mark.xfail(strict=True, reason=reason)))
    return params


def for_each(samples, check):
    """Runs ``check(sample)`` on every sample; fails naming each sample that failed."""
    failures = []
    for sample in samples:
        try:
            check(sample)
        except Exception as e:  # noqa: BLE001  (collected, then reported together)
            failures.append(f"{sample.name}: {type(e).__name__}: {str(e).strip()[:800]}")
    assert not failures, f"{len(failures)} of {len(samples)} samples failed:\n" + "\n".join(failures)


ALL_SAMPLES = [(e, s) for e in OPS for s in e.sample_list()]
WITH_GRAD = [(e, s) for e, s in ALL_SAMPLES if s.grad_positions()]
F64 = [(e, s) for e, s in WITH_GRAD if s.name.endswith("-float64")]
FD = [(e, s) for e, s in F64 if s.eps is not None]
SECOND = [(e, s) for e, s in FD if e.second_order]


# --- comparing results ------------------------------------------------------------------


def assert_close(ours, expected, tol, what):
    """``ours`` (chainrule tensor) against ``expected`` (NumPy array): shape, dtype, values."""
    got = to_array(ours)
    assert got.shape == expected.shape, f"{what}: shape {got.shape}, expected {expected.shape}"
    assert got.dtype == expected.dtype, f"{what}: dtype {got.dtype}, expected {expected.dtype}"
    if expected.dtype.kind in "fc":
        rtol, atol = tol[expected.dtype.name]
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=what)


def assert_grads(ours, expected, tol):
    """Gradients: None exactly where PyTorch gives None, else equal values."""
    assert len(ours) == len(expected)
    for i, (g, e) in enumerate(zip(ours, expected)):
        assert (g is None) == (e is None), f"grad {i}: {g!r}, expected {e!r}"
        if g is not None:
            assert_close(g, e if isinstance(e, np.ndarray) else to_array(e), tol, f"grad {i}")


# --- (a) values, shapes and dtypes; (b) gradients ------------------------------------------


def _grad_tol(entry, sample):
    """The gradients' tolerance: a float32 sample computes in float32 even where an input is
    float64 (a 0-d one), so a float64 gradient holds a float32 result there."""
    if sample.name.endswith("-float32") and "float32" in entry.tol:
        return {**entry.tol, "float64": entry.tol["float32"]}
    return entry.tol


def check_torch(entry, sample, torch):
    expected, expected_grads = run_with_grads(torch, entry, sample)
    result, grads = run_with_grads(chainrule, entry, sample)
    assert isinstance(result, tuple) == isinstance(expected, tuple)
    if isinstance(expected, tuple):
        assert type(result).__name__ == type(expected).__name__
    for k, (ours, theirs) in enumerate(zip(as_list(result), as_list(expected), strict=True)):
        assert_close(ours, to_array(theirs), entry.tol, f"output {k}")
        assert ours.requires_grad == theirs.requires_grad, f"output {k}: requires_grad"
    assert (grads is None) == (expected_grads is None), "some output requires grad"
    if grads is not None:
        assert_grads(grads, expected_grads, _grad_tol(entry, sample))


@pytest.mark.torch
@pytest.mark.parametrize("entry,samples", _grouped("torch", ALL_SAMPLES))
def test_matches_torch(entry, samples):
    torch = require_torch()
    for_each(samples, lambda sample: check_torch(entry, sample, torch))


def node_names(lib, entry, sample):
    args, _ = build_args(lib, sample)
    return [None if o.grad_fn is None else o.grad_fn.name() for o in as_list(entry.fn(lib, *args))]


def check_grad_fn(entry, sample, torch):
    ours, theirs = node_names(chainrule, entry, sample), node_names(torch, entry, sample)
    assert ours == theirs, f"{ours} != {theirs}"


@pytest.mark.torch
@pytest.mark.parametrize("entry,samples", _grouped("grad_fn", WITH_GRAD))
def test_grad_fn_matches_torch(entry, samples):
    """The backward node's name, as ``repr`` shows it: ``grad_fn=<MulBackward0>``."""
    torch = require_torch()
    for_each(samples, lambda sample: check_grad_fn(entry, sample, torch))


@pytest.fixture(scope="module")
def golden():
    """Every family's golden file (ops.npz for the core, ops_<family>.npz), merged."""
    merged = {}
    for path in sorted(GOLDEN_DIR.glob("ops*.npz")):
        with np.load(path) as data:
            merged.update({k: data[k] for k in data.files})
    return merged


def check_golden(entry, sample, golden):
    key = f"{entry.name}::{sample.name}"
    assert f"{key}::out0" in golden, "not in the golden file: run scripts/regen_ops_golden.py"
    result, grads = run_with_grads(chainrule, entry, sample)
    outs = as_list(result)
    n_expected = sum(1 for k in golden if k.startswith(key + "::out"))
    assert len(outs) == n_expected, f"{len(outs)} outputs, expected {n_expected}"
    for k, out in enumerate(outs):
        assert_close(out, golden[f"{key}::out{k}"], entry.tol, f"output {k}")
    present = golden.get(f"{key}::grad_present")
    assert (grads is None) == (present is None), "some output requires grad"
    if grads is not None:
        assert_grads(grads, [golden[f"{key}::grad{i}"] if flag else None for i, flag in enumerate(present)],
                     _grad_tol(entry, sample))


@pytest.mark.parametrize("entry,samples", _grouped("golden", ALL_SAMPLES))
def test_matches_golden(entry, samples, golden):
    for_each(samples, lambda sample: check_golden(entry, sample, golden))


def second_derivatives(lib, entry, sample):
    """Gradients of <first-order gradients, v> with respect to the inputs and the upstream
    gradients (both leaves), None replaced by zeros (which of the two a library returns
    for a linear function is not part of its contract)."""
    args, leaves = build_args(lib, sample)
    outs = [o for o in as_list(entry.fn(lib, *args)) if o.requires_grad]
    ups = [lib.from_numpy(upstream_grad(entry.name, sample.name, k, o.shape, numpy_dtype(o))).requires_grad_()
           for k, o in enumerate(outs)]
    grads = lib.autograd.grad(outs, leaves, ups, create_graph=True, allow_unused=True)
    wrt = leaves + ups
    total = None
    for i, g in enumerate(grads):
        if g is not None and g.requires_grad:
            v = lib.from_numpy(upstream_grad(entry.name, sample.name, 100 + i, g.shape, numpy_dtype(g)))
            term = (g * v).sum()
            total = term if total is None else total + term
    if total is None:
        return [np.zeros(w.shape, numpy_dtype(w)) for w in wrt]
    second = lib.autograd.grad(total, wrt, allow_unused=True)
    return [np.zeros(w.shape, numpy_dtype(w)) if s is None else to_array(s) for w, s in zip(wrt, second)]


def check_second_order(entry, sample, torch):
    expected = second_derivatives(torch, entry, sample)
    ours = second_derivatives(chainrule, entry, sample)
    assert len(ours) == len(expected)
    for i, (g, e) in enumerate(zip(ours, expected)):
        assert g.shape == e.shape and g.dtype == e.dtype, f"second derivative {i}: {g.shape} {g.dtype}"
        np.testing.assert_allclose(g, e, rtol=1e-7, atol=1e-7, err_msg=f"second derivative {i}")


@pytest.mark.torch
@pytest.mark.parametrize("entry,samples", _grouped("torch_second_order", SECOND))
def test_second_order_matches_torch(entry, samples):
    torch = require_torch()
    for_each(samples, lambda sample: check_second_order(entry, sample, torch))


# --- (c) gradcheck and gradgradcheck in float64 ------------------------------------------


def fd_function(entry, sample):
    """(func, leaves) for gradcheck: ``func(*leaves)`` runs the op on contiguous inputs."""
    args, leaves = build_args(chainrule, sample, contiguous=True)
    positions = sample.grad_positions()

    def func(*new_leaves):
        call = list(args)
        for p, leaf in zip(positions, new_leaves):
            call[p] = leaf
        return entry.fn(chainrule, *call)
    return func, tuple(leaves)


def check_gradcheck(entry, sample):
    func, leaves = fd_function(entry, sample)
    assert gradcheck(func, leaves, eps=sample.eps, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("entry,samples", _grouped("gradcheck", FD))
def test_gradcheck(entry, samples):
    for_each(samples, lambda sample: check_gradcheck(entry, sample))


def _small(sample, limit=24):
    """gradgradcheck perturbs every input and upstream gradient element: small samples only."""
    return sum(sample.args[p].size for p in sample.grad_positions()) <= limit


def check_gradgradcheck(entry, sample):
    func, leaves = fd_function(entry, sample)
    assert gradgradcheck(func, leaves, eps=sample.eps, atol=1e-5, rtol=1e-3)


SMALL_SECOND = [(e, s) for e, s in SECOND if _small(s)]


@pytest.mark.parametrize("entry,samples", _grouped("gradgradcheck", SMALL_SECOND))
def test_gradgradcheck(entry, samples):
    for_each(samples, lambda sample: check_gradgradcheck(entry, sample))


# --- (d) jvp rules against finite differences, primitive by primitive ----------------------


@contextlib.contextmanager
def tracing():
    """Records every registered op's forward call as (op, arrays, params) while active."""
    calls = []
    originals = {}

    def recorder(op, forward):
        n_inputs = len(op.vjp)

        def traced(*args):
            out = forward(*args)  # record only calls that succeed (reshape tries a view first)
            calls.append((op, args[:n_inputs], args[n_inputs:]))
            return out
        return traced

    for op in registry.OPS.values():
        if op.forward is not None:
            originals[op] = op.forward
            op.forward = recorder(op, op.forward)
    try:
        yield calls
    finally:
        for op, forward in originals.items():
            op.forward = forward


def graph_ops(tensors):
    """Names of the ops recorded in the graphs behind ``tensors``."""
    names, seen = set(), set()
    stack = [t.grad_fn for t in tensors if t is not None and t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        op = getattr(node, "op", None)
        if op is not None:
            names.add(op.name)
        stack.extend(node.next)
    return names


def exercise(entry, sample):
    """Runs the sample's forward, backward and (for second-order entries) double backward
    in chainrule. Returns the traced primitive calls and the ops found in the graphs."""
    with tracing() as calls:
        args, leaves = build_args(chainrule, sample)
        outs = [o for o in as_list(entry.fn(chainrule, *args))]
        seen = graph_ops(outs)
        diff = [o for o in outs if o.requires_grad]
        if diff and leaves:
            ups = [chainrule.from_numpy(upstream_grad(entry.name, sample.name, k, o.shape, numpy_dtype(o)))
                   .requires_grad_() for k, o in enumerate(diff)]
            grads = chainrule.autograd.grad(diff, leaves, ups, create_graph=True, allow_unused=True)
            seen |= graph_ops(grads)
            grads = [g for g in grads if g is not None and g.requires_grad]
            if entry.second_order and grads:
                total = sum((g * g).sum() for g in grads)
                seen |= graph_ops(chainrule.autograd.grad(total, leaves + ups, create_graph=True,
                                                          allow_unused=True))
    return calls, seen


def _is_float(a):
    return isinstance(a, np.ndarray) and a.dtype.kind in "fc"


def checkable(call):
    """A traced call whose jvp can be checked: a float output and some float input, none of
    them at the edge of the float range (a filler such as the dtype's lowest number, which
    logcumsumexp's gradient uses as PyTorch's does: no perturbation or rounding survives there)."""
    op, arrays, params = call
    if not any(_is_float(a) for a in arrays):
        return False
    if any(_is_float(a) and a.dtype.kind == "f" and (np.abs(a[np.isfinite(a)]) > np.finfo(a.dtype).max / 2).any()
           for a in arrays):
        return False
    if all(a.size == 0 for a in arrays if _is_float(a)):  # nothing to perturb (and the tangent may raise, as PyTorch's)
        return False
    out = np.asarray(op.forward(*arrays, *params))
    return out.dtype.kind in "fc"


def _rand_like(rng, a):
    t = rng.standard_normal(a.shape)
    if a.dtype.kind == "c":
        t = t + 1j * rng.standard_normal(a.shape)
    return np.asarray(t).astype(a.dtype)


# inputs that only select (a mask's source) and lie on the kink by construction: relu's
# gradient tests relu's output, which is exactly 0 wherever relu clamped; finite differences
# across that kink measure nothing, so they are held still (their derivative is 0 elsewhere)
SELECTING_INPUTS = {"threshold_backward": (1,)}


def check_jvp(op, arrays, params, eps, rng):
    """The op's jvp at ``arrays`` against central differences along a random tangent, and
    against its vjp: <g, J t> == sum_i <J_i^T g, t_i>."""
    arrays = [np.array(a) for a in arrays]  # own copies, contiguous
    held = SELECTING_INPUTS.get(op.name, ())
    floats = [i for i, a in enumerate(arrays) if _is_float(a) and i not in held]
    tangents = [_rand_like(rng, a) if i in floats else None for i, a in enumerate(arrays)]
    inputs = [chainrule.from_numpy(a) for a in arrays]
    with chainrule.no_grad():
        out, tan = op_tangent(op, inputs, [None if t is None else chainrule.from_numpy(t) for t in tangents],
                              params)
    expected_out = np.asarray(op.forward(*arrays, *params))
    assert to_array(out).shape == expected_out.shape
    assert tan is not None, f"{op.name}: no tangent"
    tan = to_array(tan)
    assert tan.shape == expected_out.shape, f"{op.name}: tangent shape {tan.shape}, output {expected_out.shape}"
    assert tan.dtype == expected_out.dtype, f"{op.name}: tangent dtype {tan.dtype}, output {expected_out.dtype}"

    coarse = any(a.dtype in (np.float32, np.complex64) for a in arrays + [expected_out] if _is_float(a))
    step = 1e-3 if coarse else eps
    plus = [a + step * t if t is not None else a for a, t in zip(arrays, tangents)]
    minus = [a - step * t if t is not None else a for a, t in zip(arrays, tangents)]
    fd = (np.asarray(op.forward(*plus, *params)).astype(np.complex128 if tan.dtype.kind == "c" else np.float64)
          - np.asarray(op.forward(*minus, *params))) / (2 * step)
    tol = 1e-3 if coarse else 1e-5
    np.testing.assert_allclose(tan, fd, rtol=tol, atol=tol, err_msg=f"jvp of {op.name} vs finite differences")

    # the vjp through the engine (which also reduces broadcasting) is the jvp's transpose
    leaves = [chainrule.from_numpy(a.copy()).requires_grad_() if i in floats else chainrule.from_numpy(a)
              for i, a in enumerate(arrays)]
    out = registry.apply(op, leaves, params)
    if not out.requires_grad or not np.isfinite(tan).all():  # nan tangents (mean of nothing) pair with nothing
        return
    g = _rand_like(rng, expected_out)
    vjps = chainrule.autograd.grad(out, [leaves[i] for i in floats], chainrule.from_numpy(g), allow_unused=True)
    lhs = np.vdot(g, tan).real
    rhs = sum(np.vdot(to_array(v), tangents[i]).real for i, v in zip(floats, vjps) if v is not None)
    np.testing.assert_allclose(lhs, rhs, rtol=tol, atol=tol, err_msg=f"vjp of {op.name} is not the jvp's transpose")


def _distinct(calls):
    """One call per op, input signature and parameters: the same primitive runs many times."""
    out = {}
    for op, arrays, params in calls:
        key = (op.name, tuple((a.shape, a.dtype.str) if isinstance(a, np.ndarray) else None for a in arrays),
               repr(params)[:300])
        out.setdefault(key, (op, arrays, params))
    return list(out.values())


def check_jvp_rules(entry, sample):
    calls, _ = exercise(entry, sample)
    rng = np.random.default_rng(0)
    for op, arrays, params in _distinct(calls):
        if op.name in set(KNOWN_JVP_BUGS) | NO_DERIVATIVE | NOT_THE_DERIVATIVE or not checkable((op, arrays, params)):
            continue
        try:
            check_jvp(op, arrays, params, sample.eps, rng)
        except Exception as e:
            shapes = [a.shape if isinstance(a, np.ndarray) else a for a in arrays]
            raise AssertionError(f"jvp check of {op.name} at inputs of shapes {shapes}: {e}") from e


@pytest.mark.parametrize("entry,samples", _grouped("jvp", FD))
def test_jvp_rules(entry, samples):
    for_each(samples, lambda sample: check_jvp_rules(entry, sample))


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=r))
                                  for n, r in KNOWN_JVP_BUGS.items()])
def test_known_jvp_bug(name):
    calls = [c for calls in _exercised_calls() for c in calls if c[0].name == name and checkable(c)]
    assert calls, f"no sample runs {name}"
    rng = np.random.default_rng(0)
    for op, arrays, params in calls:
        check_jvp(op, arrays, params, 1e-6, rng)


def _replay(array, steps):
    for op, params in steps:
        array = op.forward(array, *params)
    return array


def test_copy_slices_jvp():
    """CopySlices has no forward of its own (in-place writes through a view record it), so
    its jvp rules are checked here against ``base`` with the view's region replaced."""
    rng = np.random.default_rng(1)
    base, new = rng.standard_normal((3, 4)), rng.standard_normal((2, 4))
    steps = chainrule.from_numpy(base.copy())[1:3]._view_steps
    op = registry.OPS["copy_slices"]

    def forward(b, n):
        out = b.copy()
        _replay(out, steps)[...] = n
        return out

    t_base, t_new = rng.standard_normal(base.shape), rng.standard_normal(new.shape)
    saved = (steps, base.shape)
    tangent = op.jvp[0](chainrule.from_numpy(t_base), *saved) + op.jvp[1](chainrule.from_numpy(t_new), *saved)
    eps = 1e-6
    fd = (forward(base + eps * t_base, new + eps * t_new) - forward(base - eps * t_base, new - eps * t_new)) / (2 * eps)
    np.testing.assert_allclose(to_array(tangent), fd, rtol=1e-6, atol=1e-6)


# --- (e) every registered op is covered ------------------------------------------------------


def test_every_registered_op_is_covered():
    claimed = {name for entry in OPS for name in entry.covers}
    assert not claimed - set(registry.OPS), f"entries claim ops that don't exist: {claimed - set(registry.OPS)}"
    missing = sorted(set(registry.OPS) - claimed)
    assert not missing, f"registered ops without an op_db entry: {missing}"


def _exercise_quietly(entry, sample):
    """``exercise``, or nothing for a sample that a known bug breaks (reported elsewhere)."""
    try:
        return exercise(entry, sample)
    except Exception:  # noqa: BLE001
        return [], set()


def _entry_params(check):
    return [pytest.param(e, id=e.name, marks=[pytest.mark.xfail(strict=True, reason=_known_bug(check, e.name, ""))]
                         if _known_bug(check, e.name, "") else []) for e in OPS]


@pytest.mark.parametrize("entry", _entry_params("covers"))
def test_entry_exercises_what_it_covers(entry):
    ran = set()
    for e, sample in F64:
        if e is entry:
            calls, seen = _exercise_quietly(entry, sample)
            ran |= seen | {op.name for op, _, _ in calls}
    assert not set(entry.covers) - ran, f"claimed but never run: {sorted(set(entry.covers) - ran)}"


def _exercised_calls():
    return [_exercise_quietly(e, s)[0] for e, s in FD]


def _jvp_checked_ops():
    # copy_slices: no forward of its own, test_copy_slices_jvp; convolution_zero_channels: no
    # element anywhere to perturb, its empty tangent is test_hardening_nn's
    checked = {"copy_slices", "convolution_zero_channels"} | NOT_THE_DERIVATIVE
    for calls in _exercised_calls():
        checked |= {c[0].name for c in _distinct(calls) if checkable(c)}
    return checked


def test_every_jvp_rule_is_checked():
    """test_jvp_rules checks the primitives the samples run: together they reach every op."""
    missing = sorted(set(registry.OPS) - _jvp_checked_ops())
    assert not missing, f"ops whose jvp no sample checks: {missing}"


# --- (f) errors: PyTorch's exception type and message ------------------------------------------


def _raised(lib, case):
    args, _ = build_args(lib, Sample(case.name, case.args), requires_grad=False)
    try:
        case.fn(lib, *args)
    except Exception as e:  # noqa: BLE001  (comparing whatever each library raises)
        return type(e).__name__, str(e)
    return None


def _error_params():
    out = []
    for case in ERRORS:
        reason = _known_bug("error", case.name, "")
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(case, id=case.name, marks=marks))
    return out


@pytest.mark.torch
@pytest.mark.parametrize("case", _error_params())
def test_error_matches_torch(case):
    torch = require_torch()
    expected = _raised(torch, case)
    assert expected is not None, "PyTorch raises nothing: not an error case"
    assert _raised(chainrule, case) == expected
