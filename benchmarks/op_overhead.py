"""Per-op overhead: forward + backward through a chain of 200 elementwise ops on a
4-element float32 tensor, in microseconds per op, for chainrule, PyTorch and a
hand-written NumPy forward+backward (the floor for a NumPy-based library).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/op_overhead.py

All three run in this one process, one thread each. PyTorch is optional: without it
its column says so.
"""
import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import chainrule
from timing import median_seconds

N_OPS = 200
STEPS = ("add", "mul", "sin", "exp", "tanh", "pow")  # cycled: values stay in (0, 3)


def chain(lib, x):
    for i in range(N_OPS):
        step = STEPS[i % len(STEPS)]
        if step == "add":
            x = x + 0.1
        elif step == "mul":
            x = x * 0.5
        elif step == "sin":
            x = lib.sin(x)
        elif step == "exp":
            x = lib.exp(x)
        elif step == "tanh":
            x = lib.tanh(x)
        else:
            x = x ** 2
    return x


def run_library(lib):
    x = lib.ones(4, requires_grad=True)
    chain(lib, x).sum().backward()
    return x.grad


def run_numpy(x0):
    """The same chain with its backward written out by hand."""
    saved = []
    x = x0
    for i in range(N_OPS):
        step = STEPS[i % len(STEPS)]
        if step == "add":
            y = x + np.float32(0.1)
            saved.append(None)
        elif step == "mul":
            y = x * np.float32(0.5)
            saved.append(None)
        elif step == "sin":
            y = np.sin(x)
            saved.append(x)
        elif step == "exp":
            y = np.exp(x)
            saved.append(y)
        elif step == "tanh":
            y = np.tanh(x)
            saved.append(y)
        else:
            y = x ** 2
            saved.append(x)
        x = y
    g = np.ones_like(x)
    for i in reversed(range(N_OPS)):
        step, s = STEPS[i % len(STEPS)], saved[i]
        if step == "mul":
            g = g * np.float32(0.5)
        elif step == "sin":
            g = g * np.cos(s)
        elif step == "exp":
            g = g * s
        elif step == "tanh":
            g = g * (1 - s * s)
        elif step == "pow":
            g = g * (2 * s)
    return g


def per_op_us(fn, repeats):
    return median_seconds(fn, repeats, warmup=1) / N_OPS * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=200)
    args = parser.parse_args()
    rows = [("chainrule", per_op_us(lambda: run_library(chainrule), args.repeats))]
    try:
        import torch
        torch.set_num_threads(1)
        got, want = run_library(chainrule), run_library(torch)
        assert np.allclose(got.numpy(), want.numpy(), rtol=1e-4), "chainrule and PyTorch disagree"
        rows.append((f"PyTorch {torch.__version__}", per_op_us(lambda: run_library(torch), args.repeats)))
    except ImportError:
        rows.append(("PyTorch (not installed)", float("nan")))
    x0 = np.ones(4, dtype=np.float32)
    rows.append(("hand-written NumPy", per_op_us(lambda: run_numpy(x0), args.repeats)))
    print(f"forward+backward, chain of {N_OPS} elementwise ops on float32[4], median of {args.repeats} runs")
    for name, us in rows:
        print(f"  {name:<24} {us:7.2f} us/op")
    torch_us = rows[1][1]
    if torch_us == torch_us:
        print(f"  chainrule / PyTorch      {rows[0][1] / torch_us:7.2f}x")


if __name__ == "__main__":
    main()
