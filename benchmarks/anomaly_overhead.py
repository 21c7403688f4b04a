"""What anomaly detection costs: one MLP training step (784-256-256-10, batch 64, relu,
cross_entropy, SGD update under no_grad) in milliseconds, with anomaly detection off,
in chainrule's cheap mode, and in full ``detect_anomaly``; PyTorch off and with
``detect_anomaly`` beside it. The figures are medians over many steps.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/anomaly_overhead.py

The modes run interleaved step by step (so that a busy machine slows each the same way),
in this one process, one thread each. PyTorch is optional: without it its rows say so.
The target for cheap mode: less than 10% over "off".
"""
import argparse
import os
import statistics
import time
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

import chainrule

SIZES = (784, 256, 256, 10)
BATCH = 64
LR = 0.01


def make_model(lib, seed=0):
    """Plain leaf tensors as weights (no nn.Module), and one fixed batch."""
    rng = np.random.default_rng(seed)
    params = []
    for fan_in, fan_out in zip(SIZES[:-1], SIZES[1:]):
        w = (rng.standard_normal((fan_in, fan_out)) / np.sqrt(fan_in)).astype(np.float32)
        params += [lib.from_numpy(w).requires_grad_(), lib.zeros(fan_out, requires_grad=True)]
    x = lib.from_numpy(rng.standard_normal((BATCH, SIZES[0])).astype(np.float32))
    y = lib.from_numpy(rng.integers(0, SIZES[-1], BATCH))
    return params, x, y


def train_step(lib, params, x, y):
    h = x
    for i in range(0, len(params), 2):
        h = h @ params[i] + params[i + 1]
        if i + 2 < len(params):
            h = lib.nn.functional.relu(h)
    loss = lib.nn.functional.cross_entropy(h, y)
    loss.backward()
    with lib.no_grad():
        for p in params:
            p -= LR * p.grad
            p.grad = None
    return loss


def modes(torch):
    """(name, library, context factory) for each timed mode."""
    rows = [("chainrule off", chainrule, lambda: chainrule.autograd.set_detect_anomaly(False)),
            ("chainrule cheap", chainrule, lambda: chainrule.autograd.set_detect_anomaly(True, cheap=True)),
            ("chainrule detect_anomaly", chainrule, chainrule.autograd.detect_anomaly)]
    if torch is not None:
        rows += [("PyTorch off", torch, lambda: torch.autograd.set_detect_anomaly(False)),
                 ("PyTorch detect_anomaly", torch, torch.autograd.detect_anomaly)]
    return rows


def medians_ms(rows, steps):
    models = [make_model(lib) for _, lib, _ in rows]
    times = [[] for _ in rows]
    for step in range(steps + 5):  # the first 5 are warm-up
        for (_, lib, context), model, record in zip(rows, models, times):
            with context():
                start = time.perf_counter()
                train_step(lib, *model)
                elapsed = time.perf_counter() - start
            if step >= 5:
                record.append(elapsed)
    return [statistics.median(t) * 1e3 for t in times]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    warnings.simplefilter("ignore", UserWarning)  # detect_anomaly warns each time it is made
    rows = modes(torch)
    results = dict(zip([name for name, _, _ in rows], medians_ms(rows, args.steps)))
    print(f"MLP {'-'.join(map(str, SIZES))}, batch {BATCH}, one training step, median of {args.steps}")
    for name, ms in results.items():
        base = results[name.split()[0] + " off"]
        print(f"  {name:26s} {ms:8.3f} ms   {ms / base:5.2f}x off")
    if torch is None:
        print("  PyTorch                    not installed")


if __name__ == "__main__":
    main()
