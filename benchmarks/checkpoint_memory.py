"""Activation checkpointing: peak memory and time of forward+backward through a deep MLP,
plain and with ``checkpoint_sequential``, for chainrule and PyTorch.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/checkpoint_memory.py

The MLP: ``depth`` layers ``x = tanh(x @ W_i)`` with plain float32 tensors as weights
(the input requires grad too, so that the reentrant form reaches the weights).
chainrule's memory is measured with ``tracemalloc`` (NumPy reports its allocations to
it): "graph MiB" is what the graph holds after the forward, "peak MiB" the peak of the
whole step, both above what was allocated before it (the weights' ``.grad`` exist
already, from a warm-up step). PyTorch's CPU allocator is invisible to ``tracemalloc``
and its RSS growth mixes in allocator caching, so for PyTorch only the time is shown.
"""
import argparse
import os
import time
import tracemalloc

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

MIB = 1024 * 1024


def make_model(lib, width, depth, batch):
    rng = np.random.default_rng(0)
    weights = [lib.from_numpy((rng.standard_normal((width, width)) / np.sqrt(width)).astype(np.float32))
               .requires_grad_() for _ in range(depth)]
    layers = [lambda x, w=w: lib.tanh(x @ w) for w in weights]
    x = lib.from_numpy(rng.standard_normal((batch, width)).astype(np.float32)).requires_grad_()
    return layers, x


def forward(lib, layers, x, mode, segments):
    """``mode``: plain, or checkpointed (non-)reentrant."""
    if mode == "plain":
        for f in layers:
            x = f(x)
        return x
    return lib.utils.checkpoint.checkpoint_sequential(layers, segments, x, use_reentrant=mode == "reentrant")


def best_time(lib, layers, x, mode, args):
    forward(lib, layers, x, mode, args.segments).sum().backward()  # warm-up: allocates .grad
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        forward(lib, layers, x, mode, args.segments).sum().backward()
        times.append(time.perf_counter() - start)
    return min(times)


def measure_chainrule(mode, args):
    """(graph MiB, peak MiB, seconds) for one forward+backward."""
    import chainrule
    layers, x = make_model(chainrule, args.width, args.depth, args.batch)
    seconds = best_time(chainrule, layers, x, mode, args)
    tracemalloc.start()
    out = forward(chainrule, layers, x, mode, args.segments)
    graph = tracemalloc.get_traced_memory()[0]
    out.sum().backward()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return graph / MIB, peak / MIB, seconds


def measure_torch(mode, args):
    """(None, None, seconds): see the module docstring for why no memory."""
    import torch
    import torch.utils.checkpoint
    torch.set_num_threads(1)
    layers, x = make_model(torch, args.width, args.depth, args.batch)
    return None, None, best_time(torch, layers, x, mode, args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=512)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--segments", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    activation = args.batch * args.width * 4 / MIB
    print(f"{args.depth}-layer tanh MLP, width {args.width}, batch {args.batch}, float32 "
          f"(one activation = {activation:.2f} MiB), checkpoint_sequential with {args.segments} segments, "
          f"time: best of {args.repeat}")
    print(f"{'library':<11} {'mode':<26} {'graph MiB':>10} {'peak MiB':>9} {'time ms':>9} {'time x plain':>13}")
    for name, measure in (("chainrule", measure_chainrule), ("PyTorch", measure_torch)):
        plain_time = None
        for mode in ("plain", "non-reentrant", "reentrant"):
            try:
                graph, peak, seconds = measure(mode, args)
            except ImportError:
                print(f"{name:<11} not installed")
                break
            plain_time = seconds if mode == "plain" else plain_time
            label = "plain" if mode == "plain" else f"checkpoint {mode}"
            memory = f"{graph:>10.1f} {peak:>9.1f}" if graph is not None else f"{'-':>10} {'-':>9}"
            print(f"{name:<11} {label:<26} {memory} {seconds * 1e3:>9.1f} {seconds / plain_time:>12.2f}x")


if __name__ == "__main__":
    main()
