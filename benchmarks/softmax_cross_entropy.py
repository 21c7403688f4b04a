"""Cross-entropy on logits: ``F.cross_entropy(logits, targets)`` forward + backward on
float32 logits (128, 10) with int64 class targets, in microseconds per call, for
chainrule, PyTorch and a hand-written NumPy forward+backward (the floor for a
NumPy-based library).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/softmax_cross_entropy.py

All three run in this one process, one thread each, interleaved call by call (so that a
busy machine slows each the same way); the figures are medians. PyTorch is optional:
without it its column says so.
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import chainrule

BATCH, CLASSES = 128, 10


def run_library(lib, logits, targets):
    x = lib.from_numpy(logits.copy()).requires_grad_()
    lib.nn.functional.cross_entropy(x, lib.from_numpy(targets)).backward()
    return x.grad


def run_numpy(logits, targets):
    """log_softmax + nll and their gradient, written out: softmax - one_hot, over N."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    total = exp.sum(axis=1, keepdims=True)
    log_p = shifted - np.log(total)
    rows = np.arange(len(targets))
    loss = -log_p[rows, targets].mean()
    grad = exp / total
    grad[rows, targets] -= 1
    grad /= len(targets)
    return loss, grad


def medians_us(fns, repeats):
    """The median time of each function, calling them in turn ``repeats`` times."""
    for fn in fns * 20:  # warm up
        fn()
    times = [[] for _ in fns]
    for _ in range(repeats):
        for fn, record in zip(fns, times):
            start = time.perf_counter()
            fn()
            record.append(time.perf_counter() - start)
    return [statistics.median(t) * 1e6 for t in times]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=2000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((BATCH, CLASSES)).astype(np.float32)
    targets = rng.integers(0, CLASSES, BATCH)
    ours = run_library(chainrule, logits, targets).numpy()
    np.testing.assert_allclose(run_numpy(logits, targets)[1], ours, atol=1e-7)
    names = ["chainrule", "hand-written NumPy"]
    fns = [lambda: run_library(chainrule, logits, targets), lambda: run_numpy(logits, targets)]
    try:
        import torch
        torch.set_num_threads(1)
        np.testing.assert_allclose(ours, run_library(torch, logits, targets).numpy(), rtol=1e-5, atol=1e-7)
        names.insert(1, f"PyTorch {torch.__version__}")
        fns.insert(1, lambda: run_library(torch, logits, targets))
    except ImportError:
        torch = None
    rows = dict(zip(names, medians_us(fns, args.repeats)))
    if torch is None:
        rows = {"chainrule": rows["chainrule"], "PyTorch (not installed)": float("nan"),
                "hand-written NumPy": rows["hand-written NumPy"]}
    print(f"F.cross_entropy forward+backward, float32 logits ({BATCH}, {CLASSES}), int64 targets, "
          f"median of {args.repeats} interleaved runs")
    for name, us in rows.items():
        print(f"  {name:<24} {us:8.1f} us/call")
    torch_us = list(rows.values())[1]
    if torch_us == torch_us:
        print(f"  chainrule / PyTorch      {rows['chainrule'] / torch_us:8.2f}x")


if __name__ == "__main__":
    main()
