"""Learning-rate schedulers against PyTorch: the lr (and momentum) sequences over 40 steps,
state_dict round trips, ReduceLROnPlateau on a scripted metric, warnings and errors.

The schedulers are pure Python arithmetic on floats done in PyTorch's order, so the
sequences must be equal exactly, not merely close.
"""
import warnings

import numpy as np
import pytest

import chainrule
import chainrule.optim as optim
from helpers import error_of, require_torch

STEPS = 40


def _library(lib):
    return (chainrule, optim) if lib == "chainrule" else (require_torch(), require_torch().optim)


def _optimizer(L, O, kind="SGD", lrs=(0.1, 0.02)):
    params = [L.zeros(3, requires_grad=True), L.zeros(2, requires_grad=True)]
    groups = [{"params": [p], "lr": lr} for p, lr in zip(params, lrs)]
    if kind == "SGD":
        return O.SGD(groups, lr=0.1, momentum=0.9)
    if kind == "Adam":
        return O.Adam(groups, lr=0.1)
    return O.Adagrad(groups, lr=0.1)


def _values(opt):
    return [(g["lr"], g.get("momentum"), g.get("betas")) for g in opt.param_groups]


def _run(lib, build, steps=STEPS, kind="SGD"):
    L, O = _library(lib)
    opt = _optimizer(L, O, kind)
    sched = build(O.lr_scheduler, opt)
    seen = [(sched.get_last_lr(), _values(opt))]
    for _ in range(steps):
        opt.step()
        sched.step()
        seen.append((sched.get_last_lr(), _values(opt)))
    return seen


S = "SGD"
SCHEDULERS = [
    ("LambdaLR", S, lambda M, o: M.LambdaLR(o, lambda e: 0.95 ** e)),
    ("LambdaLR-list", S, lambda M, o: M.LambdaLR(o, [lambda e: 0.95 ** e, lambda e: 1 / (e + 1)])),
    ("MultiplicativeLR", S, lambda M, o: M.MultiplicativeLR(o, lambda e: 0.9 if e % 3 else 1.05)),
    ("StepLR", S, lambda M, o: M.StepLR(o, step_size=7, gamma=0.5)),
    ("MultiStepLR", S, lambda M, o: M.MultiStepLR(o, milestones=[5, 12, 12, 30], gamma=0.3)),
    ("ConstantLR", S, lambda M, o: M.ConstantLR(o, factor=0.5, total_iters=8)),
    ("LinearLR", S, lambda M, o: M.LinearLR(o, start_factor=0.2, end_factor=0.9, total_iters=15)),
    ("ExponentialLR", S, lambda M, o: M.ExponentialLR(o, gamma=0.93)),
    ("PolynomialLR", S, lambda M, o: M.PolynomialLR(o, total_iters=25, power=2.0)),
    ("CosineAnnealingLR", S, lambda M, o: M.CosineAnnealingLR(o, T_max=10, eta_min=0.001)),
    ("CosineAnnealingWarmRestarts", S, lambda M, o: M.CosineAnnealingWarmRestarts(o, T_0=7, T_mult=2, eta_min=1e-3)),
    ("CosineAnnealingWarmRestarts-1", S, lambda M, o: M.CosineAnnealingWarmRestarts(o, T_0=6)),
    ("CyclicLR-triangular", S, lambda M, o: M.CyclicLR(o, 0.01, 0.1, step_size_up=5, step_size_down=3)),
    ("CyclicLR-triangular2", S, lambda M, o: M.CyclicLR(o, [0.01, 0.001], [0.1, 0.05], step_size_up=4,
                                                         mode="triangular2", cycle_momentum=False)),
    ("CyclicLR-exp_range", "Adam", lambda M, o: M.CyclicLR(o, 0.01, 0.1, step_size_up=6, mode="exp_range",
                                                            gamma=0.97)),
    ("CyclicLR-scale_fn", S, lambda M, o: M.CyclicLR(o, 0.01, 0.1, step_size_up=3, scale_fn=lambda x: 0.9 ** x,
                                                      scale_mode="iterations")),
    ("OneCycleLR-cos", S, lambda M, o: M.OneCycleLR(o, max_lr=[0.5, 0.1], total_steps=41)),
    ("OneCycleLR-linear", "Adam", lambda M, o: M.OneCycleLR(o, max_lr=0.5, epochs=4, steps_per_epoch=11,
                                                             anneal_strategy="linear", pct_start=0.25)),
    ("OneCycleLR-three_phase", S, lambda M, o: M.OneCycleLR(o, max_lr=0.5, total_steps=45, three_phase=True,
                                                             div_factor=10.0, final_div_factor=100.0)),
    ("SequentialLR", S, lambda M, o: M.SequentialLR(o, [M.LinearLR(o, 0.1, total_iters=10),
                                                        M.ExponentialLR(o, gamma=0.9)], milestones=[10])),
    ("SequentialLR-3", S, lambda M, o: M.SequentialLR(o, [M.ConstantLR(o, 0.5, total_iters=4),
                                                          M.CosineAnnealingLR(o, T_max=12),
                                                          M.StepLR(o, 5, 0.5)], milestones=[6, 20])),
    ("ChainedScheduler", S, lambda M, o: M.ChainedScheduler([M.ConstantLR(o, factor=0.5, total_iters=6),
                                                             M.ExponentialLR(o, gamma=0.95)])),
    ("ChainedScheduler-cosine", S, lambda M, o: M.ChainedScheduler([M.LinearLR(o, 0.3, total_iters=5),
                                                                    M.CosineAnnealingLR(o, T_max=15)], optimizer=o)),
]


@pytest.mark.parametrize("name,kind,build", SCHEDULERS, ids=[s[0] for s in SCHEDULERS])
def test_lr_sequence_equals_pytorch(name, kind, build):
    assert _run("chainrule", build, kind=kind) == _run("torch", build, kind=kind)


def _shape(state):
    """A scheduler state_dict's keys in order and its plain values (functions as their type)."""
    if isinstance(state, dict):
        return [(k, _shape(v)) for k, v in state.items()]
    if isinstance(state, (list, tuple)):
        return type(state).__name__, [_shape(v) for v in state]
    if callable(state):
        return "callable"
    return state


@pytest.mark.parametrize("name,kind,build", SCHEDULERS, ids=[s[0] for s in SCHEDULERS])
def test_state_dict_round_trip_equals_pytorch(name, kind, build):
    def run(lib, split=15):
        L, O = _library(lib)
        opt = _optimizer(L, O, kind)
        sched = build(O.lr_scheduler, opt)
        for _ in range(split):
            opt.step()
            sched.step()
        saved_sched, saved_opt = sched.state_dict(), opt.state_dict()
        fresh = _optimizer(L, O, kind, lrs=(7.0, 7.0))
        again = build(O.lr_scheduler, fresh)
        fresh.load_state_dict(saved_opt)
        again.load_state_dict(saved_sched)
        seen = []
        for _ in range(STEPS - split):
            fresh.step()
            again.step()
            seen.append((again.get_last_lr(), _values(fresh)))
        return _shape(saved_sched), seen
    assert run("chainrule") == run("torch")


# --- ReduceLROnPlateau -----------------------------------------------------------------------------

METRIC = [1.0, 0.9, 0.95, 0.96, 0.97, 0.899, 0.8999, 0.91, 0.92, 0.93, 0.94, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1,
          0.49, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 2.0, 3.0, 4.0, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]

PLATEAU = [dict(patience=2), dict(mode="max", patience=1, factor=0.5), dict(threshold_mode="abs", threshold=0.05),
           dict(mode="max", threshold_mode="abs", threshold=0.01, cooldown=2, patience=0),
           dict(patience=1, cooldown=3, min_lr=[0.01, 0.005]), dict(patience=0, factor=0.5, min_lr=0.02, eps=1e-3)]


@pytest.mark.parametrize("kwargs", PLATEAU, ids=[str(k) for k in PLATEAU])
def test_reduce_lr_on_plateau_equals_pytorch(kwargs):
    def run(lib):
        L, O = _library(lib)
        opt = _optimizer(L, O)
        sched = O.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
        seen = [sched.get_last_lr()]
        for i, m in enumerate(METRIC):
            opt.step()
            sched.step(L.tensor(m) if i % 2 else m)
            seen.append((sched.get_last_lr(), sched.num_bad_epochs, sched.cooldown_counter, sched.best))
            if i == 20:  # a round trip halfway
                state = sched.state_dict()
                sched = O.lr_scheduler.ReduceLROnPlateau(opt)
                sched.load_state_dict(state)
        return seen, _shape(sched.state_dict())
    assert run("chainrule") == run("torch")


# --- tensor lr, deprecated epoch argument, warnings -----------------------------------------------

def test_tensor_lr_is_filled_in_place():
    def run(lib):
        L, O = _library(lib)
        lr = L.tensor(0.1)
        opt = O.SGD([L.zeros(2, requires_grad=True)], lr=lr)
        sched = O.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        seen = []
        for _ in range(6):
            opt.step()
            sched.step()
            seen.append((float(opt.param_groups[0]["lr"]), opt.param_groups[0]["lr"] is lr,
                         type(sched.get_last_lr()[0]).__name__))
        return seen
    assert run("chainrule") == run("torch")


def _caught(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn()
    return result, [(w.category, str(w.message)) for w in caught]


def test_warnings_equal_pytorch():
    def run(lib):
        L, O = _library(lib)
        M = O.lr_scheduler
        out = []
        opt = _optimizer(L, O)
        sched = M.StepLR(opt, step_size=2)
        out.append(_caught(sched.step))  # before optimizer.step()
        opt = _optimizer(L, O)
        sched = M.ExponentialLR(opt, gamma=0.5)
        opt.step = lambda closure=None: None  # replaced after the scheduler wrapped it
        out.append(_caught(sched.step))
        opt = _optimizer(L, O)
        sched = M.MultiStepLR(opt, milestones=[2, 4])
        opt.step()
        out.append(_caught(lambda: sched.step(5)))  # the deprecated epoch: the closed form
        out.append(_caught(sched.get_last_lr))
        out.append(_caught(sched.get_lr))  # called by the user: a warning
        opt = _optimizer(L, O)
        plateau = M.ReduceLROnPlateau(opt)
        out.append(_caught(lambda: plateau.step(1.0, epoch=3)))
        opt = _optimizer(L, O)
        warm = M.CosineAnnealingWarmRestarts(opt, T_0=5, T_mult=2)
        out.append(_caught(lambda: [warm.step(e) or warm.get_last_lr() for e in (0.5, 3, 7.5, 21, 40)]))
        return out
    assert run("chainrule") == run("torch")


@pytest.mark.parametrize("name", ["StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR",
                                  "PolynomialLR", "CosineAnnealingLR"])
def test_closed_forms_equal_pytorch(name):
    builds = {"StepLR": lambda M, o: M.StepLR(o, 3, 0.5), "MultiStepLR": lambda M, o: M.MultiStepLR(o, [2, 5, 5]),
              "ConstantLR": lambda M, o: M.ConstantLR(o, 0.5, 4), "LinearLR": lambda M, o: M.LinearLR(o, 0.2, 0.8, 6),
              "ExponentialLR": lambda M, o: M.ExponentialLR(o, 0.9),
              "PolynomialLR": lambda M, o: M.PolynomialLR(o, 8, 1.5),
              "CosineAnnealingLR": lambda M, o: M.CosineAnnealingLR(o, 6, 0.01)}

    def run(lib):
        L, O = _library(lib)
        opt = _optimizer(L, O)
        sched = builds[name](O.lr_scheduler, opt)
        seen = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for epoch in (1, 4, 2, 9, 9, 12):
                opt.step()
                sched.step(epoch)
                seen.append(sched.get_last_lr())
        return seen
    assert run("chainrule") == run("torch")


def test_resuming_with_last_epoch():
    def run(lib):
        L, O = _library(lib)
        opt = _optimizer(L, O)
        out = [error_of(lambda: O.lr_scheduler.StepLR(opt, 3, last_epoch=4))]
        O.lr_scheduler.StepLR(opt, 3)
        for group in opt.param_groups:
            group["lr"] = 0.5
        sched = O.lr_scheduler.StepLR(opt, 3, gamma=0.5, last_epoch=4)
        for _ in range(6):
            opt.step()
            sched.step()
            out.append(sched.get_last_lr())
        return out
    assert run("chainrule") == run("torch")


def _errors(lib):
    L, O = _library(lib)
    M = O.lr_scheduler
    o = _optimizer(L, O)
    cases = [lambda: M.StepLR(3, 2), lambda: M.ConstantLR(o, factor=1.5), lambda: M.LinearLR(o, start_factor=0),
             lambda: M.LinearLR(o, end_factor=2.0), lambda: M.CosineAnnealingWarmRestarts(o, T_0=0),
             lambda: M.CosineAnnealingWarmRestarts(o, T_0=5, T_mult=0),
             lambda: M.CosineAnnealingWarmRestarts(o, T_0=5, eta_min="a"),
             lambda: M.CosineAnnealingWarmRestarts(o, T_0=5).step(-1),
             lambda: M.CyclicLR(o, 0.1, 1.0, mode="square"), lambda: M.CyclicLR(_optimizer(L, O, "Adagrad"), 0.1, 1.0),
             lambda: M.CyclicLR(o, [0.1], 1.0), lambda: M.OneCycleLR(o, 1.0),
             lambda: M.OneCycleLR(o, 1.0, total_steps=-3), lambda: M.OneCycleLR(o, 1.0, epochs=0, steps_per_epoch=3),
             lambda: M.OneCycleLR(o, 1.0, epochs=2, steps_per_epoch=1.5),
             lambda: M.OneCycleLR(o, 1.0, total_steps=10, pct_start=2),
             lambda: M.OneCycleLR(o, 1.0, total_steps=10, anneal_strategy="cubic"),
             lambda: M.ReduceLROnPlateau(o, factor=1.0), lambda: M.ReduceLROnPlateau(o, mode="low"),
             lambda: M.ReduceLROnPlateau(o, threshold_mode="pct"), lambda: M.ReduceLROnPlateau(o, min_lr=[0.1]),
             lambda: M.ReduceLROnPlateau("opt"),
             lambda: M.SequentialLR(o, [], []), lambda: M.SequentialLR(o, [M.StepLR(o, 2)], [3]),
             lambda: M.SequentialLR(o, [M.StepLR(o, 2), M.ReduceLROnPlateau(o)], [3]),
             lambda: M.SequentialLR(o, [M.StepLR(o, 2), M.StepLR(_optimizer(L, O), 2)], [3]),
             lambda: M.ChainedScheduler([]), lambda: M.ChainedScheduler([M.StepLR(o, 2), M.ReduceLROnPlateau(o)]),
             lambda: M.LambdaLR(o, [lambda e: 1.0]), lambda: M.MultiplicativeLR(o, 0.9),
             lambda: M.MultiplicativeLR(o, [lambda e: 1.0, 0.5])]
    out = [error_of(c) for c in cases]
    one = M.OneCycleLR(_optimizer(L, O), 1.0, total_steps=3)
    for _ in range(3):
        one.step()
    out.append(error_of(one.step))
    return out


def test_errors_equal_pytorch():
    ours, theirs = _errors("chainrule"), _errors("torch")
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a == b, i


def test_importable_as_in_torch():
    from chainrule.optim.lr_scheduler import LRScheduler, _LRScheduler
    assert issubclass(_LRScheduler, LRScheduler)
    assert np.isclose(optim.lr_scheduler.StepLR(_optimizer(chainrule, optim), 1).get_last_lr()[0], 0.1)
