"""gradcheck and gradgradcheck against PyTorch's: the same function passes or fails on
both sides, with the same message.

Broken gradients come from ordinary code: ``x * x.detach()`` (autograd sees half the
derivative), a hook that scales a gradient, a hook that changes between calls (not
reentrant). chainrule's message is PyTorch's followed by one line naming where the two
Jacobians differ most; fast mode draws its random vectors from its own generator, so
there only the message's form and its slow-mode Jacobians are compared.
"""
import inspect
import warnings

import numpy as np
import pytest

import chainrule
from helpers import both, data, error_of, full_error_of

PASSING = {
    "sin": (lambda L, x, y: x.sin(), {}),
    "two_inputs_and_a_number": (lambda L, x, y: (x * y.exp()) ** 2, {}),
    "matmul_tanh": (lambda L, x, y: (x.view(2, 2) @ y.view(2, 2).t()).tanh(), {}),
    "several_outputs": (lambda L, x, y: (x * y, (x - y).sum()), {}),
    # a float output that does not require grad is skipped, as lstsq's singular_values
    "non_differentiable_float_output": (lambda L, x, y: (x * 2, x.detach() ** 2), {}),
    "integer_output": (lambda L, x, y: (x.sin(), x.argmax()), {}),
    "fast_mode": (lambda L, x, y: (x * y).cumsum(0), {"fast_mode": True}),
    "forward_ad": (lambda L, x, y: x.sin() * y, {"check_forward_ad": True}),
    "forward_ad_only": (lambda L, x, y: x.exp() / y, {"check_forward_ad": True, "check_backward_ad": False}),
    "forward_ad_fast": (lambda L, x, y: x.exp() / y, {"check_forward_ad": True, "fast_mode": True}),
    "batched_grad": (lambda L, x, y: x.sin() * y, {"check_batched_grad": True}),
    "batched_forward_grad": (lambda L, x, y: ((x.view(2, 2) @ y.view(2, 2)).tanh(), x.exp().sum()),
                             {"check_forward_ad": True, "check_batched_forward_grad": True}),
    "constant_output": (lambda L, x, y: (x > 0).double(), {}),
}


def _inputs(L):
    return data(L, [0.3, -0.7, 1.2, 0.05]), data(L, [1.1, 0.4, -0.6, 2.0])


@pytest.mark.parametrize("name", list(PASSING))
def test_gradcheck_passes_as_in_torch(name):
    fn, options = PASSING[name]
    ours, theirs = both(lambda L: L.autograd.gradcheck(lambda x, y: fn(L, x, y), _inputs(L), **options))
    assert ours is True and theirs is True


@pytest.mark.parametrize("name", ["sin", "two_inputs_and_a_number", "matmul_tanh", "several_outputs",
                                  "fast_mode", "forward_ad"])
def test_gradgradcheck_passes_as_in_torch(name):
    fn, options = PASSING[name]
    options = {"fast_mode": options.get("fast_mode", False),
               "check_fwd_over_rev": options.get("check_forward_ad", False)}
    ours, theirs = both(lambda L: L.autograd.gradgradcheck(lambda x, y: fn(L, x, y), _inputs(L), **options))
    assert ours is True and theirs is True


def test_gradgradcheck_with_given_and_non_contiguous_grad_outputs():
    def program(L):
        x = data(L, [[0.3, -0.7, 1.2], [0.05, 0.5, -1.0]])
        given = L.autograd.gradgradcheck(lambda t: t.tanh() * t, (x,), (data(L, np.ones((2, 3))),))
        strided = L.autograd.gradgradcheck(lambda t: t.tanh() * t, (x,), gen_non_contig_grad_outputs=True)
        return given, strided
    ours, theirs = both(program)
    assert ours == theirs == (True, True)


# --- failures: the same message ----------------------------------------------------------------


def _half_gradient(L):
    return lambda t: t * t.detach()


def test_wrong_jacobian_message_is_torchs_plus_the_largest_difference():
    def program(L):
        x = data(L, [[0.3, -0.7], [-1.5, 0.2]])
        return full_error_of(lambda: L.autograd.gradcheck(_half_gradient(L), (x,)))
    (our_type, ours), (their_type, theirs) = both(program)
    assert our_type.__name__ == their_type.__name__ == "GradcheckError"
    assert issubclass(our_type, RuntimeError)
    assert ours.startswith(theirs)  # then chainrule's line: the element -1.5 moves the most
    where, values = ours[len(theirs):].split(": numerical ")
    assert where == "Largest difference at output 0 element (1, 0), input 0 element (1, 0)"
    numerical, analytical = (float(v) for v in values.split(", analytical "))
    assert numerical == pytest.approx(2 * -1.5, abs=1e-6) and analytical == -1.5  # d(x²)/dx vs half of it


def test_raise_exception_false_returns_false():
    ours, theirs = both(lambda L: L.autograd.gradcheck(_half_gradient(L), (data(L, [0.3, -0.7]),),
                                                       raise_exception=False))
    assert ours is False and theirs is False


def test_scaled_gradient_from_a_hook_fails_in_both():
    def f(t):
        y = t * 1
        y.register_hook(lambda g: g * 2)
        return y.sin()
    ours, theirs = both(lambda L: full_error_of(lambda: L.autograd.gradcheck(f, (data(L, [0.3, -0.7]),))))
    assert ours[1].startswith(theirs[1]) and theirs[1].startswith("Jacobian mismatch for output 0 with respect to")


def test_input_index_counts_only_inputs_requiring_grad():
    def program(L):
        a, b = data(L, [1.0, 2.0], requires_grad=False), data(L, [0.5, -0.5])
        return error_of(lambda: L.autograd.gradcheck(lambda u, v: u * v * v.detach(), (a, b)))
    ours, theirs = both(program)
    assert (ours[0].__name__, ours[1]) == (theirs[0].__name__, theirs[1])
    assert ours[1] == "Jacobian mismatch for output 0 with respect to input 0,"


def test_forward_ad_mismatch_message():
    def program(L):
        x = data(L, [0.3, -0.7])
        return full_error_of(lambda: L.autograd.gradcheck(_half_gradient(L), (x,), check_forward_ad=True,
                                                          check_backward_ad=False))
    ours, theirs = both(program)
    assert ours[1].startswith(theirs[1])
    assert theirs[1].startswith("Jacobian computed with forward mode mismatch for output 0 with respect to input 0")


def test_fast_mode_failure_explains_with_the_slow_jacobians():
    def program(L):
        x = data(L, [0.3, -0.7])
        _, message = full_error_of(lambda: L.autograd.gradcheck(_half_gradient(L), (x,), fast_mode=True))
        head = message.split("\n")[0]
        slow = message[message.index("Below, we recompute"):message.index("The max per-element")]
        return head, slow, "max per-element difference (slow mode) is: 0.7" in message
    ours, theirs = both(program)
    assert ours == theirs


def test_complex_output_names_the_part():
    def program(L):
        x = data(L, [0.3, -0.7])
        return full_error_of(lambda: L.autograd.gradcheck(lambda t: (t * (1 + 2j)) * (t.detach() * 1j + 1), (x,)))
    ours, theirs = both(program)
    assert ours[1].startswith(theirs[1])
    assert theirs[1].startswith("While considering the imaginary part of complex outputs only, Jacobian mismatch")


def test_complex_input_passes():
    def program(L):
        z = L.from_numpy(np.array([0.3 + 0.1j, 0.5 - 0.2j])).requires_grad_()
        return L.autograd.gradcheck(lambda t: (t * t.conj() + t * 2).real, (z,)), \
            L.autograd.gradcheck(lambda t: t * t, (z,))
    ours, theirs = both(program)
    assert ours == theirs == (True, True)


def test_complex_input_forward_ad():
    def program(L):
        z = L.from_numpy(np.array([0.3 + 0.1j, 0.5 - 0.2j])).requires_grad_()
        passing = L.autograd.gradcheck(lambda t: t * t, (z,), check_forward_ad=True)
        _, message = full_error_of(lambda: L.autograd.gradcheck(_half_gradient(L), (z,), check_forward_ad=True,
                                                                check_backward_ad=False))
        return passing, message.split("analytical:")[0]  # PyTorch's analytical Jacobian shows a stray grad_fn
    ours, theirs = both(program)
    assert ours[0] is theirs[0] is True
    assert ours[1] == theirs[1]
    assert theirs[1].startswith("While considering the imaginary part of complex inputs only, Jacobian computed "
                                "with forward mode mismatch")


def test_non_reentrant_backward():
    def program(L):
        calls = [0]

        def f(t):
            y = t * 1

            def drift(g):
                calls[0] += 1
                return g * (1 + calls[0] * 1e-3)
            y.register_hook(drift)
            return y
        return full_error_of(lambda: L.autograd.gradcheck(f, (data(L, [0.3, -0.7]),), atol=1, rtol=1))
    ours, theirs = both(program)
    assert (ours[0].__name__, ours[1]) == (theirs[0].__name__, theirs[1])
    assert ours[1].startswith("Backward is not reentrant")


def test_gradgradcheck_failure_message_prefix():
    def program(L):
        x = data(L, [0.3, -0.7])
        return error_of(lambda: L.autograd.gradgradcheck(lambda t: t * t.detach() ** 2, (x,)))
    ours, theirs = both(program)
    assert (ours[0].__name__, ours[1]) == (theirs[0].__name__, theirs[1])


def test_no_differentiable_output_must_be_constant():
    ours, theirs = both(lambda L: full_error_of(lambda: L.autograd.gradcheck(lambda t: t.detach() * 2,
                                                                             (data(L, [0.3, -0.7]),))))
    assert (ours[0].__name__, ours[1]) == (theirs[0].__name__, theirs[1])
    assert ours[1] == "Numerical gradient for function expected to be zero"


# --- input validation ---------------------------------------------------------------------------


def test_float32_input_warns():
    def program(L):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = L.autograd.gradcheck(lambda t: t.sin(), (data(L, [0.3], dtype="float32"),), atol=1e-2,
                                          rtol=1e-2)
        return result, [(w.category, str(w.message)) for w in caught]
    ours, theirs = both(program)
    assert ours == theirs and len(ours[1]) == 1


@pytest.mark.parametrize("case", ["none_requires_grad", "stride_0", "forward_or_backward", "batched_without_backward",
                                  "batched_forward_without_forward", "gg_neither", "gg_undefined_without_rev",
                                  "gg_batched_without_rev"])
def test_validation_errors(case):
    def program(L):
        x = data(L, [0.3, -0.7])
        calls = {
            "none_requires_grad": lambda: L.autograd.gradcheck(lambda t: t.sin(), (x.detach(),)),
            "stride_0": lambda: L.autograd.gradcheck(lambda t: t.sin(), (x.detach()[:1].expand(3).requires_grad_(),)),
            "forward_or_backward": lambda: L.autograd.gradcheck(lambda t: t, (x,), check_backward_ad=False),
            "batched_without_backward": lambda: L.autograd.gradcheck(
                lambda t: t, (x,), check_batched_grad=True, check_forward_ad=True, check_backward_ad=False),
            "batched_forward_without_forward": lambda: L.autograd.gradcheck(lambda t: t, (x,),
                                                                            check_batched_forward_grad=True),
            "gg_neither": lambda: L.autograd.gradgradcheck(lambda t: t, (x,), check_rev_over_rev=False),
            "gg_undefined_without_rev": lambda: L.autograd.gradgradcheck(
                lambda t: t, (x,), check_rev_over_rev=False, check_fwd_over_rev=True),
            "gg_batched_without_rev": lambda: L.autograd.gradgradcheck(
                lambda t: t, (x,), check_rev_over_rev=False, check_fwd_over_rev=True, check_undefined_grad=False,
                check_batched_grad=True),
        }
        return full_error_of(calls[case])
    ours, theirs = both(program)
    assert (ours[0].__name__, ours[1]) == (theirs[0].__name__, theirs[1])


def test_signatures_match_torch():
    def program(L):
        return [[(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]
                for f in (L.autograd.gradcheck, L.autograd.gradgradcheck)]
    ours, theirs = both(program)
    assert ours == theirs
    assert issubclass(chainrule.autograd.GradcheckError, RuntimeError)
