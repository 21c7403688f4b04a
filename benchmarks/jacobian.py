"""Function transforms: a full Jacobian and a Hessian-vector product, each beside PyTorch and a
hand-written NumPy formula, in one run (median milliseconds per call).

1. Jacobian of f: R^200 -> R^200, f(x) = tanh(W3 tanh(W2 tanh(W1 x + b1) + b2) + b3):
   chainrule's autograd.functional.jacobian(vectorize=True) and func.jacrev (both one batched
   backward pass through vmap), PyTorch's autograd.functional.jacobian(vectorize=True) and
   torch.func.jacrev, and the chain rule by hand: J = D3 W3 D2 W2 D1 W1, D = diag(1 - y^2).
2. HVP of g(w) = sum(tanh(W X)^2) / n for 10,000 parameters (W is 100x100, X is 100x256):
   autograd.functional.hvp and func.jvp(func.grad(g)) (forward over reverse) on both
   libraries, and the formula by hand.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/jacobian.py

Targets (issue 4): the Jacobian in at most half of PyTorch's vectorized time, the HVP no slower
than PyTorch's. One thread for every library.
"""
import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

import chainrule
from timing import median_seconds

N, HIDDEN_ROWS, SAMPLES = 200, 100, 256


def median_ms(fn, repeats):
    return median_seconds(fn, repeats) * 1e3


def jacobian_arrays(seed=0):
    rng = np.random.default_rng(seed)
    layers = [(rng.standard_normal((N, N)) / np.sqrt(N), rng.standard_normal(N) * 0.1) for _ in range(3)]
    return rng.standard_normal(N), layers


def hvp_arrays(seed=1):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(HIDDEN_ROWS * HIDDEN_ROWS) / HIDDEN_ROWS
    x = rng.standard_normal((HIDDEN_ROWS, SAMPLES))
    v = rng.standard_normal(HIDDEN_ROWS * HIDDEN_ROWS)
    return w, x, v


# --- the functions, the same code for both libraries ------------------------------------------


def three_layers(layers):
    def f(x):
        for w, b in layers:
            x = (w @ x + b).tanh()
        return x
    return f


def squared_activations(x):
    def g(w):
        return ((w.reshape(HIDDEN_ROWS, HIDDEN_ROWS) @ x).tanh() ** 2).sum() / SAMPLES
    return g


def library_cases(lib, name):
    x, layers = jacobian_arrays()
    x = lib.tensor(x)
    layers = [(lib.tensor(w), lib.tensor(b)) for w, b in layers]
    f = three_layers(layers)
    w, data, v = (lib.tensor(a) for a in hvp_arrays())
    g = squared_activations(data)
    func = lib.func
    return {
        f"jacobian  {name} autograd.functional.jacobian(vectorize=True)":
            lambda: lib.autograd.functional.jacobian(f, x, vectorize=True),
        f"jacobian  {name} func.jacrev": lambda: func.jacrev(f)(x),
        f"hvp       {name} autograd.functional.hvp": lambda: lib.autograd.functional.hvp(g, w, v)[1],
        f"hvp       {name} func.jvp(func.grad(g))": lambda: func.jvp(func.grad(g), (w,), (v,))[1],
    }


# --- by hand ------------------------------------------------------------------------------------


def numpy_jacobian(x, layers):
    jac = np.eye(N)
    for w, b in layers:
        x = np.tanh(w @ x + b)
        jac = (1 - x ** 2)[:, None] * (w @ jac)
    return jac


def numpy_hvp(w, x, v):
    """g = sum(tanh(Z)^2)/n, Z = W X: with s = tanh(Z), dg/dZ = 2 s (1 - s^2) / n and
    d2g/dZ2 = 2 (1 - s^2)(1 - 3 s^2) / n elementwise, so H v = (d2g/dZ2 * (V X)) X^T."""
    big_w, big_v = w.reshape(HIDDEN_ROWS, HIDDEN_ROWS), v.reshape(HIDDEN_ROWS, HIDDEN_ROWS)
    s = np.tanh(big_w @ x)
    curvature = 2 * (1 - s ** 2) * (1 - 3 * s ** 2) / SAMPLES
    return ((curvature * (big_v @ x)) @ x.T).reshape(-1)


def check(cases, reference_jac, reference_hvp):
    for label, fn in cases.items():
        result = fn()
        expected = reference_jac if label.startswith("jacobian") else reference_hvp
        np.testing.assert_allclose(np.asarray(result.detach().numpy()), expected, rtol=1e-9, atol=1e-11,
                                   err_msg=label)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    x, layers = jacobian_arrays()
    w, data, v = hvp_arrays()
    reference_jac, reference_hvp = numpy_jacobian(x, layers), numpy_hvp(w, data, v)
    cases = library_cases(chainrule, "chainrule")
    try:
        import torch
        torch.set_num_threads(1)
        cases.update(library_cases(torch, f"PyTorch {torch.__version__}"))
    except ImportError:
        print("(PyTorch not installed: its rows are missing)")
    check(cases, reference_jac, reference_hvp)
    cases["jacobian  hand-written NumPy (J = D3 W3 D2 W2 D1 W1)"] = lambda: numpy_jacobian(x, layers)
    cases["hvp       hand-written NumPy"] = lambda: numpy_hvp(w, data, v)
    print(f"f: R^{N} -> R^{N}, three tanh layers; HVP of a scalar function of {HIDDEN_ROWS ** 2} parameters; "
          f"float64, median of {args.repeats} calls")
    times = {label: median_ms(fn, args.repeats) for label, fn in cases.items()}
    for label, ms in times.items():
        print(f"  {label:<70} {ms:8.3f} ms")
    for kind, ours, theirs in (("jacobian", "autograd.functional.jacobian(vectorize=True)",
                                "autograd.functional.jacobian(vectorize=True)"),
                               ("jacobian", "func.jacrev", "func.jacrev"),
                               ("hvp", "autograd.functional.hvp", "autograd.functional.hvp"),
                               ("hvp", "func.jvp(func.grad(g))", "func.jvp(func.grad(g))")):
        mine = [ms for label, ms in times.items() if label.startswith(kind) and "chainrule" in label
                and label.endswith(ours)]
        torch_ = [ms for label, ms in times.items() if label.startswith(kind) and "PyTorch" in label
                  and label.endswith(theirs)]
        if mine and torch_:
            print(f"  chainrule / PyTorch, {kind} {ours}: {mine[0] / torch_[0]:.2f}x")


if __name__ == "__main__":
    main()
