"""Random draws at 10^3 and 10^6 elements: chainrule (PyTorch's stream, bit for bit),
PyTorch, and NumPy's own generator drawing the same kind of numbers (the floor for a
NumPy-based library: its draws are not PyTorch's). Milliseconds per call, medians.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/random_streams.py

One process, one thread each, the three columns measured call by call side by side. The
issue's targets at 10^6: rand, randint, bernoulli_ and dropout within 1.5x PyTorch's time,
randn float32 within 3x, the rest within 5x. PyTorch is optional: without it its column
says so.
"""
import os
import sys

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import chainrule
from timing import median_seconds

try:
    import torch
    torch.set_num_threads(1)
except ImportError:
    torch = None

NUMPY = np.random.Generator(np.random.MT19937(0))


def cases(n):
    """(name, call(library), NumPy's counterpart)."""
    return [
        ("rand float32", lambda L: L.rand(n), lambda: NUMPY.random(n, dtype=np.float32)),
        ("rand float64", lambda L: L.rand(n, dtype=L.float64), lambda: NUMPY.random(n)),
        ("randn float32", lambda L: L.randn(n), lambda: NUMPY.standard_normal(n, dtype=np.float32)),
        ("randn float64", lambda L: L.randn(n, dtype=L.float64), lambda: NUMPY.standard_normal(n)),
        ("randint [0, 10)", lambda L: L.randint(0, 10, (n,)), lambda: NUMPY.integers(0, 10, n)),
        ("randperm", lambda L: L.randperm(n), lambda: NUMPY.permutation(n)),
        ("bernoulli_(0.5) float32", lambda L: L.empty(n).bernoulli_(0.5), lambda: NUMPY.random(n) < 0.5),
        ("dropout(p=0.5) float32", lambda L: L.nn.functional.dropout(L.ones(n), 0.5),
         lambda: np.ones(n, np.float32) * ((NUMPY.random(n) < 0.5) * np.float32(2))),
        ("normal_(1, 2) float32", lambda L: L.empty(n).normal_(1.0, 2.0), lambda: NUMPY.normal(1.0, 2.0, n)),
        ("normal_(1, 2) float64", lambda L: L.empty(n, dtype=L.float64).normal_(1.0, 2.0),
         lambda: NUMPY.normal(1.0, 2.0, n)),
    ]


def main():
    print(f"{'draw':26s} {'n':>8s} {'chainrule':>10s} {'PyTorch':>10s} {'NumPy':>10s} {'ratio':>7s}")
    for n in (10 ** 3, 10 ** 6):
        repeats = 200 if n == 10 ** 3 else 15
        for name, call, numpy_call in cases(n):
            ours = median_seconds(lambda: call(chainrule), repeats)
            theirs = median_seconds(lambda: call(torch), repeats) if torch is not None else None
            floor = median_seconds(numpy_call, repeats)
            ratio = f"{ours / theirs:6.2f}x" if theirs else "    n/a"
            theirs_text = f"{theirs * 1e3:10.3f}" if theirs else "   no torch"
            print(f"{name:26s} {n:8d} {ours * 1e3:10.3f} {theirs_text} {floor * 1e3:10.3f} {ratio}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
