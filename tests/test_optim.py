"""Optimizers against PyTorch: trajectories, param groups, state_dict, hooks, errors.

The gradients are computed in NumPy from PyTorch's parameter values and set on ``.grad``
in both libraries, so both see bit-identical gradients; any difference comes from the
optimizer. Checked over 30 steps, for every option combination in ``CASES``:

* float64: the trajectory (parameters and every state tensor) equals PyTorch's to 1e-12;
* float32, step by step (each step starting from PyTorch's parameters and state): bit for
  bit for the optimizers without a square root; the others within 2 ulp of each tensor's
  largest element (4 for Adadelta: two roots per element), and the state that no root
  reaches bit for bit. PyTorch's float32 ``sqrt``
  (MKL's) is up to 0.75 ulp off the correctly rounded one NumPy gives, so those cannot
  be bit-identical, and an ulp of a step is many ulps of an element near zero;
* float32, free running: bit for bit without a square root, else within 16 ulp of each
  tensor's largest element (the one-ulp square roots compound through the state).
"""
import copy
import functools
import importlib
import itertools
import warnings

import numpy as np
import pytest

import chainrule
import chainrule.optim as optim
from helpers import error_of, require_torch

STEPS = 30
SHAPES = [(3, 4), (5,)]


def _inits(dtype):
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s).astype(dtype) for s in SHAPES]


def _noise(step, dtype):
    rng = np.random.default_rng(100 + step)
    return [rng.standard_normal(s).astype(dtype) for s in SHAPES]


def _grad(w, noise):
    """A bounded gradient field (so ``maximize`` cannot run away) with sign changes."""
    return (np.sin(3 * w) + 0.5 * noise).astype(w.dtype)


def _library(lib):
    return (chainrule, optim) if lib == "chainrule" else (require_torch(), require_torch().optim)


def _base(O):
    """``<lib>.optim.optimizer`` (torch.optim deletes the attribute; the module is imported)."""
    return importlib.import_module(O.__name__ + ".optimizer")


def _make_params(L, dtype):
    return [L.from_numpy(a.copy()).requires_grad_() for a in _inits(dtype)]


def _set_grads(L, params, step, dtype, recorded=None):
    """Sets ``.grad`` from NumPy: replayed from ``recorded`` (PyTorch's run) when given,
    else computed from the current parameters (and appended to ``recorded``)."""
    if recorded is not None and len(recorded) > step:
        grads = recorded[step]
    else:
        grads = [_grad(p.detach().numpy().copy(), n) for p, n in zip(params, _noise(step, dtype))]
        if recorded is not None:
            recorded.append(grads)
    for p, g in zip(params, grads):
        p.grad = L.from_numpy(g.copy())


def _snapshot(params, opt):
    """Everything the trajectory fixes after one step: parameters and every state value."""
    out = [p.detach().numpy().copy() for p in params]
    for p in params:
        for key, value in opt.state[p].items():
            out.append((key, _plain(value)))
    return out


def _plain(value):
    if hasattr(value, "detach"):
        return value.detach().numpy().copy()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _ulps(ours, theirs, scaled):
    """Largest distance in ulps, of each element or (``scaled``) of the largest element."""
    if not ours.size:
        return 0
    diff = np.abs(ours.astype(np.float64) - theirs)
    if scaled:
        return float(diff.max() / np.spacing(np.max(np.abs(theirs))))
    size = np.spacing(np.maximum(np.abs(ours), np.abs(theirs)).astype(ours.dtype))
    return float(np.where(diff == 0, 0, diff / size).max())


def _assert_same(ours, theirs, ulps=0, scaled=False):
    """float64 to 1e-12; float32 within ``ulps`` (per element, or ``scaled``: of the largest)."""
    if isinstance(ours, tuple):
        assert ours[0] == theirs[0]
        return _assert_same(ours[1], theirs[1], ulps, scaled)
    if isinstance(ours, list):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _assert_same(a, b, ulps, scaled)
        return None
    if not isinstance(ours, np.ndarray):
        assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-300)
        return None
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    if ours.dtype == np.float32:
        assert _ulps(ours, theirs, scaled) <= ulps, (ours, theirs)
    else:
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-14)
    return None


def _trajectory(lib, name, kwargs, dtype, steps=STEPS, groups=None, recorded=None, forced=None):
    """``steps`` steps of optimizer ``name``. The gradients depend on the parameters; the
    second library replays the first one's (``recorded``), so that an ulp of difference
    cannot feed back through them. With ``forced`` (the first library's snapshots), each
    step starts from the first library's parameters and state."""
    L, O = _library(lib)
    params = _make_params(L, dtype)
    spec = params if groups is None else [dict(g, params=[params[i] for i in g["params"]]) for g in groups]
    opt = getattr(O, name)(spec, **kwargs)
    shots = []
    for step in range(steps):
        if forced is not None and step > 0:
            _load_snapshot(params, opt, forced[step - 1])
        _set_grads(L, params, step, dtype, recorded)
        opt.step()
        shots.append(_snapshot(params, opt))
    return shots, params, opt


def _load_snapshot(params, opt, shot):
    """Writes a snapshot's values into the parameters and state (``_snapshot``'s order)."""
    values = iter(shot)
    for p in params:
        np.copyto(p.detach().numpy(), next(values))
    for p in params:
        state = opt.state[p]
        for key in list(state):
            name, value = next(values)
            assert name == key
            if hasattr(state[key], "detach"):
                np.copyto(state[key].detach().numpy(), value)
            else:
                state[key] = value


SQRT_FREE = ("SGD", "ASGD", "Rprop", "Adamax")
STEP_ULPS = {"Adadelta": 4}
ROOTED_STATE = {"RMSprop": ("momentum_buffer",), "Adadelta": ("acc_delta",)}  # state that a root reaches


def _assert_step_same(name, ours, theirs):
    """One float32 step from the same start: parameters (and state a square root reaches)
    within ``STEP_ULPS`` of their largest element, the rest of the state bit for bit."""
    ulps = STEP_ULPS.get(name, 2)
    for a, b in zip(ours, theirs):
        if isinstance(a, tuple) and a[0] not in ROOTED_STATE.get(name, ()):
            _assert_same(a, b)
        else:
            _assert_same(a, b, ulps, scaled=True)


def _compare(name, kwargs, dtype, groups=None):
    recorded = []
    theirs = _trajectory("torch", name, kwargs, dtype, groups=groups, recorded=recorded)[0]
    exact = name in SQRT_FREE
    free = functools.partial(_assert_same, ulps=0 if exact else 16, scaled=True)
    runs = [("free running", {}, free)]
    if dtype == "float32" and not exact:
        runs.append(("step by step", {"forced": theirs}, functools.partial(_assert_step_same, name)))
    for how, extra, check in runs:
        ours = _trajectory("chainrule", name, kwargs, dtype, groups=groups, recorded=recorded, **extra)[0]
        assert len(ours) == len(theirs)
        for step, (a, b) in enumerate(zip(ours, theirs)):
            try:
                check(a, b)
            except AssertionError as e:
                raise AssertionError(f"{name}({kwargs}) {dtype} {how} differs at step {step}") from e


def _product(**options):
    keys = list(options)
    return [dict(zip(keys, values)) for values in itertools.product(*options.values())]


def _sgd_cases():
    cases = []
    for kw in _product(momentum=[0, 0.9], dampening=[0, 0.3], nesterov=[False, True], weight_decay=[0, 0.1],
                       maximize=[False, True]):
        if kw["nesterov"] and (kw["momentum"] == 0 or kw["dampening"] != 0):
            continue
        cases.append(dict(kw, lr=0.05))
    return cases


BETAS = [(0.9, 0.999), (0.5, 0.9)]
CASES = ([("SGD", kw) for kw in _sgd_cases()]
         + [("Adam", dict(kw, lr=0.01)) for kw in _product(amsgrad=[False, True], weight_decay=[0, 0.1],
                                                           maximize=[False, True], betas=BETAS,
                                                           decoupled_weight_decay=[False, True])]
         + [("AdamW", dict(kw, lr=0.01)) for kw in _product(amsgrad=[False, True], weight_decay=[0.01, 0],
                                                            maximize=[False, True])]
         + [("RMSprop", dict(kw, lr=0.01)) for kw in _product(centered=[False, True], momentum=[0, 0.5],
                                                              weight_decay=[0, 0.1], maximize=[False, True],
                                                              alpha=[0.99, 0.5])]
         + [("Adagrad", dict(kw, lr=0.1)) for kw in _product(lr_decay=[0, 0.1], weight_decay=[0, 0.1],
                                                             initial_accumulator_value=[0, 0.5],
                                                             maximize=[False, True])]
         + [("Adadelta", kw) for kw in _product(rho=[0.9, 0.5], weight_decay=[0, 0.1], maximize=[False, True],
                                                lr=[1.0, 0.5])]
         + [("Adamax", dict(kw, lr=0.01)) for kw in _product(weight_decay=[0, 0.1], maximize=[False, True],
                                                             betas=BETAS)]
         + [("NAdam", dict(kw, lr=0.01)) for kw in _product(weight_decay=[0, 0.1], decoupled_weight_decay=[False, True],
                                                            momentum_decay=[4e-3, 0.1], maximize=[False, True])]
         + [("RAdam", dict(kw, lr=0.01)) for kw in _product(weight_decay=[0, 0.1], decoupled_weight_decay=[False, True],
                                                            maximize=[False, True], betas=[(0.9, 0.999), (0.8, 0.99)])]
         + [("ASGD", dict(kw, lr=0.05)) for kw in _product(t0=[1e6, 5], lambd=[1e-4, 0.1], weight_decay=[0, 0.1],
                                                           maximize=[False, True])]
         + [("Rprop", dict(kw, lr=0.01)) for kw in _product(etas=[(0.5, 1.2), (0.3, 1.5)],
                                                            step_sizes=[(1e-6, 50), (1e-3, 0.05)],
                                                            maximize=[False, True])])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name,kwargs", CASES, ids=[f"{n}-{k}" for n, k in CASES])
def test_trajectory_matches_pytorch(name, kwargs, dtype):
    _compare(name, kwargs, dtype)


def test_sgd_tensor_lr():
    torch = require_torch()
    recorded = []
    theirs = _trajectory("torch", "SGD", {"lr": torch.tensor(0.05), "momentum": 0.5}, "float32", recorded=recorded)[0]
    ours = _trajectory("chainrule", "SGD", {"lr": chainrule.tensor(0.05), "momentum": 0.5}, "float32",
                       recorded=recorded)[0]
    _assert_same(ours, theirs)


# --- param groups, state_dict, versions --------------------------------------------------------

GROUP_CASES = [
    ("SGD", {"lr": 0.1}, [{"params": [0], "momentum": 0.9}, {"params": [1], "lr": 0.01, "nesterov": False}]),
    ("Adam", {"lr": 0.01}, [{"params": [0], "amsgrad": True}, {"params": [1], "betas": (0.5, 0.9), "weight_decay": 0.1}]),
    ("RMSprop", {"lr": 0.01}, [{"params": [0], "centered": True}, {"params": [1], "momentum": 0.5}]),
    ("Adagrad", {"lr": 0.1}, [{"params": [0]}, {"params": [1], "lr_decay": 0.1}]),
    ("ASGD", {"lr": 0.05}, [{"params": [0], "t0": 3}, {"params": [1]}]),
    ("Rprop", {"lr": 0.01}, [{"params": [0], "etas": (0.3, 1.5)}, {"params": [1], "lr": 0.1}]),
]


@pytest.mark.parametrize("name,kwargs,groups", GROUP_CASES, ids=[c[0] for c in GROUP_CASES])
def test_param_groups_with_their_own_options(name, kwargs, groups):
    _compare(name, kwargs, "float64", groups=groups)
    _compare(name, kwargs, "float32", groups=groups)


def _structure(value, floats=True):
    """The shape of a state_dict: keys in order, value types, tensor dtypes and shapes,
    other values (floats only by type unless ``floats``)."""
    if isinstance(value, dict):
        return {k: _structure(v, floats) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_structure(v, floats) for v in value]
    if hasattr(value, "dtype") and hasattr(value, "shape"):
        return "tensor", str(value.dtype).replace("chainrule", "torch"), tuple(value.shape)
    return type(value).__name__, value if floats or not isinstance(value, float) else None


RESUME_CASES = [("SGD", {"lr": 0.05, "momentum": 0.9, "weight_decay": 0.1}),
                ("Adam", {"lr": 0.01, "amsgrad": True}), ("AdamW", {"lr": 0.01}),
                ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5}), ("Adagrad", {"lr": 0.1}),
                ("Adadelta", {}), ("Adamax", {"lr": 0.01}), ("NAdam", {"lr": 0.01}), ("RAdam", {"lr": 0.01}),
                ("ASGD", {"lr": 0.05, "t0": 5}), ("Rprop", {"lr": 0.01})]


def _resume(lib, name, kwargs, dtype, recorded, split=10):
    """Runs ``split`` steps, moves the state into a fresh optimizer (on copies of the
    parameters) by ``state_dict``/``load_state_dict``, and continues there."""
    L, O = _library(lib)
    _, params, opt = _trajectory(lib, name, kwargs, dtype, steps=split, recorded=recorded)
    saved = copy.deepcopy(opt.state_dict())
    structure = _structure(opt.state_dict())
    fresh = [L.from_numpy(p.detach().numpy().copy()).requires_grad_() for p in params]
    other = getattr(O, name)(fresh, **dict(kwargs, lr=123.0))
    other.load_state_dict(saved)
    shots = []
    for step in range(split, STEPS):
        _set_grads(L, fresh, step, dtype, recorded)
        other.step()
        shots.append(_snapshot(fresh, other))
    return structure, _structure(other.state_dict()), shots


@pytest.mark.parametrize("name,kwargs", RESUME_CASES, ids=[c[0] for c in RESUME_CASES])
def test_state_dict_round_trip_continues_as_pytorch(name, kwargs):
    for dtype in ("float64", "float32"):
        recorded = []
        theirs = _resume("torch", name, kwargs, dtype, recorded)
        ours = _resume("chainrule", name, kwargs, dtype, recorded)
        assert ours[0] == theirs[0]
        assert ours[1] == theirs[1]
        _assert_same(ours[2], theirs[2], 0 if name in SQRT_FREE else 16, scaled=True)


def test_state_dict_text_equals_pytorch():
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float32")
        opt = O.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.5}], lr=0.1, momentum=0.9)
        _set_grads(L, params, 0, "float32")
        opt.step()
        return repr(opt.state_dict()), repr(opt)
    assert run("chainrule") == run("torch")


VERSION_CASES = [("SGD", {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1}), ("SGD", {"lr": 0.1}),
                 ("Adam", {"amsgrad": True, "weight_decay": 0.1}), ("AdamW", {}),
                 ("RMSprop", {"centered": True, "momentum": 0.5}), ("Adagrad", {}), ("Adadelta", {}), ("Adamax", {}),
                 ("NAdam", {"weight_decay": 0.1, "decoupled_weight_decay": True}), ("RAdam", {}),
                 ("ASGD", {"t0": 1}), ("Rprop", {})]


@pytest.mark.parametrize("name,kwargs", VERSION_CASES, ids=[f"{n}-{k}" for n, k in VERSION_CASES])
def test_versions_bump_as_pytorch(name, kwargs):
    """Each in-place op PyTorch's step does on a parameter or state tensor counts once."""
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float64")
        opt = getattr(O, name)(params, **kwargs)
        versions = []
        for step in range(3):
            _set_grads(L, params, step, "float64")
            opt.step()
            versions.append([p._version for p in params])
            versions.append([(k, v._version) for p in params for k, v in opt.state[p].items() if hasattr(v, "_version")])
        return versions
    assert run("chainrule") == run("torch")


def test_step_invalidates_saved_parameter():
    w = chainrule.ones(3, requires_grad=True)
    y = (w * w).sum()
    opt = optim.SGD([w], lr=0.1)
    w.grad = chainrule.ones(3)
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_skips_parameters_without_grad_and_zero_grad():
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float64")
        opt = O.SGD(params, lr=0.1, momentum=0.9)
        params[0].grad = L.ones_like(params[0])
        opt.step()
        out = [p.detach().numpy().copy() for p in params], list(opt.state_dict()["state"])
        opt.zero_grad(set_to_none=False)
        zeroed = params[0].grad.numpy().copy(), params[1].grad
        opt.zero_grad()
        return out, zeroed, params[0].grad
    ours, theirs = run("chainrule"), run("torch")
    np.testing.assert_array_equal(ours[0][0][0], theirs[0][0][0])
    assert ours[0][1] == theirs[0][1]
    np.testing.assert_array_equal(ours[1][0], theirs[1][0])
    assert ours[1][1] is None and theirs[1][1] is None and ours[2] is None and theirs[2] is None


def test_backward_through_the_same_loss_code():
    """Gradients from each library's own autograd (the usual training loop)."""
    def run(lib):
        L, O = _library(lib)
        w = L.from_numpy(np.linspace(-1, 1, 6).reshape(2, 3)).requires_grad_()
        opt = O.SGD([w], lr=0.05, momentum=0.9)
        for _ in range(STEPS):
            opt.zero_grad()
            loss = ((w - 0.3) ** 2).sum() + (w ** 4).sum() * 0.1
            loss.backward()
            opt.step()
        return w.detach().numpy()
    np.testing.assert_allclose(run("chainrule"), run("torch"), rtol=1e-12)


# --- named parameters, hooks, repr ---------------------------------------------------------------

def test_named_parameters_give_param_names():
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float64")
        opt = O.SGD([("w", params[0]), ("b", params[1])], lr=0.1)
        return _structure(opt.state_dict())
    assert run("chainrule") == run("torch")


def test_step_hooks_order_args_and_removal():
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float64")
        opt = O.SGD(params, lr=0.1)
        calls = []
        h1 = opt.register_step_pre_hook(lambda o, a, k: calls.append(("pre", len(a), a[0] is o, dict(k))))
        opt.register_step_post_hook(lambda o, a, k: calls.append(("post", len(a), dict(k))))
        g = _base(O).register_optimizer_step_pre_hook(lambda o, a, k: calls.append(("global pre",)))
        opt.step(closure=None)
        h1.remove()
        g.remove()
        opt.step()
        return calls
    assert run("chainrule") == run("torch")


def test_pre_hook_may_replace_arguments_and_bad_returns_raise():
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float64")
        opt = O.SGD(params, lr=0.1)
        seen = []
        h = opt.register_step_pre_hook(lambda o, a, k: (a, {"closure": lambda: seen.append(1) or 7.0}))
        loss = opt.step()
        h.remove()
        opt.register_step_pre_hook(lambda o, a, k: 5)
        return loss, seen, error_of(opt.step)[0]
    ours, theirs = run("chainrule"), run("torch")
    assert ours == theirs


def test_state_dict_hooks():
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float64")
        opt = O.SGD(params, lr=0.1, momentum=0.9)
        calls = []
        opt.register_state_dict_pre_hook(lambda o: calls.append("pre"))
        opt.register_state_dict_post_hook(lambda o, sd: dict(sd, extra=1))
        opt.register_state_dict_post_hook(lambda o, sd: calls.append(sorted(sd)), prepend=True)
        opt.register_load_state_dict_pre_hook(lambda o, sd: calls.append("load pre"))
        opt.register_load_state_dict_post_hook(lambda o: calls.append("load post"))
        sd = opt.state_dict()
        opt.load_state_dict(sd)
        return calls, sorted(sd)
    assert run("chainrule") == run("torch")


def test_repr_equals_pytorch():
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float32")
        return repr(O.SGD([{"params": params[:1]}, {"params": params[1:], "lr": 0.5}], lr=0.1, momentum=0.9))
    assert run("chainrule") == run("torch")


def test_parameters_from_a_generator():
    def run(lib):
        L, O = _library(lib)
        params = _make_params(L, "float64")
        opt = O.SGD((p for p in params), lr=0.1)
        return len(opt.param_groups[0]["params"])
    assert run("chainrule") == run("torch") == 2


# --- errors and warnings ---------------------------------------------------------------------------

ERROR_CASES = [
    ("Adam", {"lr": -0.1}), ("Adam", {"eps": -1.0}), ("Adam", {"betas": (1.0, 0.9)}), ("Adam", {"betas": (0.9, -0.1)}),
    ("Adam", {"weight_decay": -0.1}), ("Adam", {"betas": (0, 0.9)}), ("AdamW", {"lr": -1}),
    ("Adam", {"fused": True, "differentiable": True}), ("Adam", {"fused": True, "foreach": True}),
    ("RMSprop", {"eps": -1.0}), ("RMSprop", {"momentum": -1.0}), ("RMSprop", {"weight_decay": -1.0}),
    ("RMSprop", {"alpha": -1.0}), ("Adagrad", {"lr_decay": -1.0}), ("Adagrad", {"initial_accumulator_value": -1.0}),
    ("Adagrad", {"eps": -1.0}), ("Adagrad", {"weight_decay": -1.0}), ("Adadelta", {"rho": 1.5}),
    ("Adadelta", {"eps": -1.0}), ("Adamax", {"betas": (0.9, 1.0)}), ("NAdam", {"momentum_decay": -1.0}),
    ("RAdam", {"eps": -1.0}), ("ASGD", {"weight_decay": -1.0}), ("Rprop", {"etas": (1.1, 1.2)}),
    ("Rprop", {"etas": (0.5, 0.9)}), ("LBFGS", {"lr": -1.0}),
    ("SGD", {"lr": -0.1}),
    ("SGD", {"lr": 0.1, "momentum": -0.5}),
    ("SGD", {"lr": 0.1, "weight_decay": -1}),
    ("SGD", {"lr": 0.1, "nesterov": True}),
    ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "dampening": 0.1}),
    ("SGD", {"lr": 0.1, "fused": True, "differentiable": True}),
    ("SGD", {"lr": 0.1, "fused": True, "foreach": True}),
]


@pytest.mark.parametrize("name,kwargs", ERROR_CASES, ids=[f"{n}-{k}" for n, k in ERROR_CASES])
def test_constructor_errors_equal_pytorch(name, kwargs):
    def run(lib):
        L, O = _library(lib)
        return error_of(lambda: getattr(O, name)(_make_params(L, "float64"), **kwargs))
    assert run("chainrule") == run("torch")


def test_capturable_and_fused_on_the_cpu_as_pytorch():
    def run(lib):
        L, O = _library(lib)
        out = []
        for name in ("Adam", "AdamW", "RMSprop", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD", "Rprop"):
            params = _make_params(L, "float64")
            opt = getattr(O, name)(params, capturable=True)
            _set_grads(L, params, 0, "float64")
            out.append(error_of(opt.step))
            out.append(_structure(opt.state_dict()))
        for name in ("SGD", "Adam", "AdamW", "Adagrad"):
            params = _make_params(L, "float64")
            opt = getattr(O, name)(params, lr=0.1, fused=True)
            _set_grads(L, params, 0, "float64")
            opt.step()
            out.append(_structure(opt.state_dict()))
        return out
    ours, theirs = run("chainrule"), run("torch")
    assert ours == theirs


def test_adam_tensor_lr_and_complex_params():
    torch = require_torch()
    for dtype in ("float64", "float32"):
        recorded = []
        theirs = _trajectory("torch", "Adam", {"lr": torch.tensor(0.01)}, dtype, recorded=recorded)[0]
        ours = _trajectory("chainrule", "Adam", {"lr": chainrule.tensor(0.01)}, dtype, recorded=recorded)[0]
        _assert_same(ours, theirs, 16, scaled=True)

    def run(lib):
        L, O = _library(lib)
        w = L.from_numpy(np.array([1 + 2j, -0.5 + 0.25j, 3j])).requires_grad_()
        opt = O.Adam([w], lr=0.1, weight_decay=0.1)
        for step in range(10):
            w.grad = L.from_numpy(np.sin(w.detach().numpy() * (step + 1)))
            opt.step()
        return w.detach().numpy().copy(), opt.state[w]["exp_avg_sq"].numpy().copy()
    for a, b in zip(run("chainrule"), run("torch")):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def _group_errors(lib):
    L, O = _library(lib)
    a, b = _make_params(L, "float64")
    out = [error_of(lambda: O.SGD(a, lr=0.1)),
           error_of(lambda: O.SGD([], lr=0.1)),
           error_of(lambda: O.SGD([a, 3], lr=0.1)),
           error_of(lambda: O.SGD([a * 2], lr=0.1)),
           error_of(lambda: O.SGD([{"params": {a}}], lr=0.1)),
           error_of(lambda: O.SGD([{"params": [a]}, {"params": [a, b]}], lr=0.1)),
           error_of(lambda: O.SGD([("a", a), b], lr=0.1)),
           error_of(lambda: O.SGD([{"params": [("a", a)]}, {"params": [b]}], lr=0.1))]
    opt = O.SGD([a], lr=0.1)
    out.append(error_of(lambda: opt.add_param_group([b])))

    class Custom(O.Optimizer):
        def __init__(self, params, lr=_base(O).required):
            super().__init__(params, {"lr": lr})
    out.append(error_of(lambda: Custom([a])))
    out.append(repr(_base(O).required))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        O.SGD([a, a], lr=0.1)
    out.append([(w.category, str(w.message)) for w in caught])
    sd = O.SGD([a], lr=0.1).state_dict()
    out.append(error_of(lambda: O.SGD([{"params": [a]}, {"params": [b]}], lr=0.1).load_state_dict(sd)))
    out.append(error_of(lambda: O.SGD([a, b], lr=0.1).load_state_dict(sd)))
    return out


def test_param_group_errors_and_warnings_equal_pytorch():
    assert _group_errors("chainrule") == _group_errors("torch")


# --- LBFGS -------------------------------------------------------------------------------------------

LBFGS_A = np.linspace(1, 10, 6)


def _lbfgs_run(lib, kwargs, calls=4):
    """``calls`` LBFGS steps on a smooth, well-conditioned function whose loss and
    gradient come from NumPy (so both libraries evaluate bit-identical values)."""
    L, O = _library(lib)
    w = L.from_numpy(np.linspace(-2, 3, 6)).requires_grad_()
    opt = O.LBFGS([w], **kwargs)
    evaluations = []

    def closure():
        x = w.detach().numpy()
        evaluations.append(x.copy())
        w.grad = L.from_numpy(LBFGS_A * x + 0.4 * x ** 3 + np.cos(x))
        return L.tensor(float((0.5 * LBFGS_A * x ** 2).sum() + 0.1 * (x ** 4).sum() + np.sin(x).sum()),
                        dtype=L.float64)

    losses = [float(opt.step(closure)) for _ in range(calls)]
    state = {k: _plain(v) for k, v in opt.state[w].items()}
    return w.detach().numpy().copy(), losses, evaluations, state, _structure(opt.state_dict(), floats=False)


LBFGS_CASES = [{"line_search_fn": ls, **kw} for ls in (None, "strong_wolfe")
               for kw in ({"lr": 1, "max_iter": 4, "history_size": 3}, {"lr": 0.3, "max_iter": 20, "history_size": 10},
                          {"lr": 1, "max_iter": 50, "tolerance_change": 1e-5}, {"lr": 1, "tolerance_grad": 1e-2})]


@pytest.mark.parametrize("kwargs", LBFGS_CASES, ids=[str(k) for k in LBFGS_CASES])
def test_lbfgs_matches_pytorch(kwargs):
    ours, theirs = _lbfgs_run("chainrule", kwargs), _lbfgs_run("torch", kwargs)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-12, atol=1e-14)
    assert ours[1] == pytest.approx(theirs[1], rel=1e-12)
    assert len(ours[2]) == len(theirs[2])
    np.testing.assert_allclose(np.array(ours[2]), np.array(theirs[2]), rtol=1e-12, atol=1e-14)
    assert list(ours[3]) == list(theirs[3])
    for key in ours[3]:
        assert type(ours[3][key]) is type(theirs[3][key]), key
        if key != "al":  # ro = 1 / y.s holds cancellations near convergence: 1e-9
            np.testing.assert_allclose(np.array(ours[3][key], dtype=float), np.array(theirs[3][key], dtype=float),
                                       rtol=1e-9, atol=1e-14)
    # the 'al' scratch list keeps its length; its entries are tensors or None as in PyTorch
    if "al" in ours[3]:
        assert [type(a) for a in ours[3]["al"]] == [type(a) for a in theirs[3]["al"]]
    assert ours[4] == theirs[4]


def test_lbfgs_errors_equal_pytorch():
    def run(lib):
        L, O = _library(lib)
        a, b = _make_params(L, "float64")
        out = [error_of(lambda: O.LBFGS([{"params": [a]}, {"params": [b]}]))]
        opt = O.LBFGS([a], line_search_fn="backtracking")
        a.grad = L.ones_like(a)
        out.append(error_of(lambda: opt.step(lambda: L.tensor(1.0))))
        return out
    assert run("chainrule") == run("torch")
