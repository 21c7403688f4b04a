"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode, is_grad_enabled.

Each as a context manager and as a decorator (with and without parentheses, on plain
and generator functions), nested, restored after exceptions, thread-local; and what
they change: ``requires_grad`` of results, never the version counter of in-place ops.
Compared live with PyTorch 2.13.
"""
import threading

import numpy as np
import pytest

import chainrule
from helpers import both, to_numpy



def version(t):
    v = t._version
    return v[0] if isinstance(v, list) else v


@pytest.fixture(autouse=True)
def grad_mode_restored():
    """A failing test must not leave grad mode off for the next one."""
    yield
    chainrule.set_grad_enabled(True)


def leaf(L):
    return L.from_numpy(np.array([1.0, 2.0])).requires_grad_()


# --- context managers -------------------------------------------------------------------

def test_no_grad_context():
    def program(L):
        x = leaf(L)
        with L.no_grad():
            inside = (L.is_grad_enabled(), (x * 2).requires_grad, (x * 2).grad_fn is None, x.exp().is_leaf)
        return inside, L.is_grad_enabled(), (x * 2).requires_grad
    ours, theirs = both(program)
    assert ours == theirs == ((False, False, True, True), True, True)


def test_enable_grad_inside_no_grad():
    def program(L):
        x = leaf(L)
        with L.no_grad():
            with L.enable_grad():
                y = x * 2
                inner = L.is_grad_enabled()
            after = L.is_grad_enabled()
        y.sum().backward()
        return inner, after, y.requires_grad, to_numpy(x.grad).tolist()
    ours, theirs = both(program)
    assert ours == theirs == (True, False, True, [2.0, 2.0])


def test_set_grad_enabled_as_function():
    def program(L):
        x = leaf(L)
        states = []
        L.set_grad_enabled(False)
        states.append((L.is_grad_enabled(), (x * 2).requires_grad))
        L.set_grad_enabled(True)
        states.append((L.is_grad_enabled(), (x * 2).requires_grad))
        return states
    ours, theirs = both(program)
    assert ours == theirs == [(False, False), (True, True)]


@pytest.mark.parametrize("mode", [False, True])
def test_set_grad_enabled_as_context(mode):
    def program(L):
        x = leaf(L)
        with L.no_grad():
            with L.set_grad_enabled(mode):
                inside = (L.is_grad_enabled(), (x * 2).requires_grad)
            after = L.is_grad_enabled()
        return inside, after, L.is_grad_enabled()
    ours, theirs = both(program)
    assert ours == theirs == ((mode, mode), False, True)


@pytest.mark.parametrize("bad", [1, 0, None, 1.0, "yes"])
def test_set_grad_enabled_needs_a_bool(bad):
    def program(L):
        try:
            L.set_grad_enabled(bad)
        except TypeError as e:
            return str(e), L.is_grad_enabled()
        return "no error", L.is_grad_enabled()
    ours, theirs = both(program)
    assert ours == theirs


def test_set_grad_enabled_repr():
    ours, theirs = both(lambda L: repr(L.set_grad_enabled(True)))
    assert ours.split(".")[-1] == theirs.split(".")[-1] == "set_grad_enabled(mode=True)"


def test_inference_mode_context():
    def program(L):
        x = leaf(L)
        with L.inference_mode():
            inside = (L.is_grad_enabled(), L.is_inference_mode_enabled(), (x * 2).requires_grad)
            with L.inference_mode(False):
                off = (L.is_grad_enabled(), L.is_inference_mode_enabled(), (x * 2).requires_grad)
            back = (L.is_grad_enabled(), L.is_inference_mode_enabled())
        return inside, off, back, (L.is_grad_enabled(), L.is_inference_mode_enabled())
    ours, theirs = both(program)
    assert ours == theirs


def test_inference_mode_false_under_no_grad_enables_grad():
    def program(L):
        with L.no_grad():
            with L.inference_mode(False):
                inner = L.is_grad_enabled()
            return inner, L.is_grad_enabled()
    ours, theirs = both(program)
    assert ours == theirs == (True, False)


def test_modes_restored_after_exception():
    def program(L):
        states = []
        for make in (L.no_grad, L.enable_grad, lambda: L.set_grad_enabled(False), L.inference_mode):
            with L.no_grad():
                try:
                    with make():
                        raise ValueError("boom")
                except ValueError:
                    pass
                states.append(L.is_grad_enabled())
            states.append((L.is_grad_enabled(), L.is_inference_mode_enabled()))
        return states
    ours, theirs = both(program)
    assert ours == theirs


def test_manager_object_reusable_and_nested():
    def program(L):
        ng = L.no_grad()
        with ng:
            with L.enable_grad():
                with ng:
                    deepest = L.is_grad_enabled()
                middle = L.is_grad_enabled()
            outer = L.is_grad_enabled()
        return deepest, middle, outer, L.is_grad_enabled()
    ours, theirs = both(program)
    assert ours == theirs == (False, True, False, True)


# --- decorators ----------------------------------------------------------------------------

def _decorated(L, kind):
    """A function decorated with one of the managers, returning the grad state seen."""
    decorators = {
        "no_grad()": L.no_grad(), "no_grad": L.no_grad,
        "enable_grad()": L.enable_grad(), "enable_grad": L.enable_grad,
        "set_grad_enabled(False)": None, "set_grad_enabled(True)": None,
        "inference_mode()": L.inference_mode(), "inference_mode": L.inference_mode,
        "inference_mode(False)": L.inference_mode(False),
    }
    if kind.startswith("set_grad_enabled"):
        decorators[kind] = L.set_grad_enabled(kind.endswith("(True)"))

    def f(x):
        return L.is_grad_enabled(), L.is_inference_mode_enabled(), (x * 2).requires_grad
    return decorators[kind](f)


DECORATORS = ["no_grad()", "no_grad", "enable_grad()", "enable_grad", "set_grad_enabled(False)",
              "set_grad_enabled(True)", "inference_mode()", "inference_mode", "inference_mode(False)"]


@pytest.mark.parametrize("kind", DECORATORS)
def test_decorator(kind):
    def program(L):
        states = [L.is_grad_enabled()]
        f = _decorated(L, kind)
        states.append(L.is_grad_enabled())  # decorating changes nothing (set_grad_enabled too)
        x = leaf(L)
        states.append(f(x))
        with L.no_grad():
            states.append(f(x))
        states.append(L.is_grad_enabled())
        return states, f.__name__
    ours, theirs = both(program)
    assert ours == theirs


def test_decorator_keeps_function_metadata():
    def program(L):
        @L.no_grad()
        def documented(a, b=2):
            """The docstring."""
            return a + b
        return documented.__name__, documented.__doc__, documented(1)
    ours, theirs = both(program)
    assert ours == theirs == ("documented", "The docstring.", 3)


@pytest.mark.parametrize("kind", ["no_grad()", "no_grad", "enable_grad", "inference_mode()"])
def test_decorated_generator_runs_each_step_in_mode(kind):
    def program(L):
        make = {"no_grad()": L.no_grad(), "no_grad": L.no_grad, "enable_grad": L.enable_grad,
                "inference_mode()": L.inference_mode()}[kind]

        @make
        def steps(n):
            got = None
            for _ in range(n):
                got = yield (L.is_grad_enabled(), got)
            return "done"

        seen = []
        gen = steps(3)
        with L.no_grad() if kind == "enable_grad" else L.enable_grad():
            outside = L.is_grad_enabled()
            seen.append((next(gen), L.is_grad_enabled()))
            seen.append((gen.send("a"), L.is_grad_enabled()))
            seen.append((gen.send("b"), L.is_grad_enabled()))
            try:
                gen.send("c")
            except StopIteration as stop:
                seen.append(stop.value)
        return outside, seen
    ours, theirs = both(program)
    assert ours == theirs


def test_decorated_method():
    def program(L):
        class Model:
            def __init__(self):
                self.w = leaf(L)

            @L.no_grad()
            def predict(self, x):
                return (self.w * x).requires_grad

            def train(self, x):
                return (self.w * x).requires_grad
        m = Model()
        return m.predict(2.0), m.train(2.0)
    ours, theirs = both(program)
    assert ours == theirs == (False, True)


# --- what the modes change -------------------------------------------------------------------

def test_inplace_under_no_grad_bumps_versions():
    def program(L):
        x = leaf(L)
        y = x * 2
        v = y[1:]
        before = [version(t) for t in (x, y, v)]
        with L.no_grad():
            x.add_(1)
            x.mul_(2)
            v.zero_()
            y[0] = 5.0
            y.copy_(L.ones(2, dtype=L.float64))
        after = [version(t) for t in (x, y, v)]
        return before, after, x.requires_grad, x.is_leaf, y.grad_fn.name()
    ours, theirs = both(program)
    assert ours == theirs


def test_inplace_under_no_grad_then_backward_detects_change():
    def program(L):
        x = leaf(L)
        y = x * 2
        z = y * y
        with L.no_grad():
            y.add_(1)
        try:
            z.sum().backward()
        except RuntimeError as e:
            return str(e)
        return "no error"
    ours, theirs = both(program)
    assert ours == theirs


def test_inplace_on_leaf_under_no_grad_then_train_step():
    # the optimizer pattern: update a parameter in place without recording it
    def program(L):
        w = leaf(L)
        for _ in range(3):
            loss = ((w * w).sum() - 1.0) ** 2
            loss.backward()
            with L.no_grad():
                w.sub_(0.05 * w.grad)
            w.grad.zero_()
        return w.detach(), w.is_leaf, w.requires_grad, version(w)
    ours, theirs = both(program)
    np.testing.assert_allclose(to_numpy(ours[0]), to_numpy(theirs[0]), rtol=1e-12)
    assert ours[1:] == theirs[1:]


def test_backward_works_under_no_grad():
    def program(L):
        x = leaf(L)
        s = (x * x).sum()
        with L.no_grad():
            s.backward()
            inside = L.is_grad_enabled()
        return to_numpy(x.grad).tolist(), inside, x.grad.requires_grad
    ours, theirs = both(program)
    assert ours == theirs


def test_factory_requires_grad_ignores_no_grad():
    def program(L):
        with L.no_grad():
            t = L.ones(2, requires_grad=True)
            u = L.zeros(2).requires_grad_()
        return t.requires_grad, u.requires_grad, t.is_leaf
    ours, theirs = both(program)
    assert ours == theirs == (True, True, True)


def test_grad_mode_seen_by_hooks_during_backward():
    def program(L):
        x = leaf(L)
        seen = []
        h = x * 2
        h.register_hook(lambda g: seen.append(L.is_grad_enabled()))
        s = h.sum()
        with L.no_grad():
            s.backward()
        h2 = x * 2
        h2.register_hook(lambda g: seen.append(L.is_grad_enabled()))
        h2.sum().backward()
        return seen
    ours, theirs = both(program)
    assert ours == theirs


def test_view_under_no_grad_requires_grad():
    def program(L):
        x = leaf(L)
        with L.no_grad():
            v = x[0]
        return v.requires_grad, v.grad_fn is None
    ours, theirs = both(program)
    assert ours == theirs


# --- threads ------------------------------------------------------------------------------------

def _in_thread(fn):
    result = []
    t = threading.Thread(target=lambda: result.append(fn()))
    t.start()
    t.join()
    return result[0]


def test_thread_sees_grad_enabled_while_main_in_no_grad():
    def program(L):
        x = leaf(L)
        with L.no_grad():
            other = _in_thread(lambda: (L.is_grad_enabled(), (x * 2).requires_grad))
            main = (L.is_grad_enabled(), (x * 2).requires_grad)
        return other, main
    ours, theirs = both(program)
    assert ours == theirs == ((True, True), (False, False))


def test_no_grad_in_thread_does_not_leak_to_main():
    def program(L):
        started, release = threading.Event(), threading.Event()
        seen = []

        def worker():
            with L.no_grad():
                seen.append(L.is_grad_enabled())
                started.set()
                release.wait(5)
            seen.append(L.is_grad_enabled())

        t = threading.Thread(target=worker)
        t.start()
        started.wait(5)
        main = L.is_grad_enabled()
        release.set()
        t.join()
        return main, seen
    ours, theirs = both(program)
    assert ours == theirs == (True, [False, True])


def test_set_grad_enabled_false_in_thread_is_local():
    def program(L):
        _in_thread(lambda: L.set_grad_enabled(False))
        return L.is_grad_enabled(), _in_thread(L.is_grad_enabled)
    ours, theirs = both(program)
    assert ours == theirs == (True, True)
