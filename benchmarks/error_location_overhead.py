"""What recording the error lines costs (_autograd/anomaly_mode.py, "Error lines": the user's
line for each node that saves tensors and for each in-place write, named by the in-place
error): one MLP training step of benchmarks/train_step.py (784-512-512-10, ReLU, batch
128, cross-entropy, Adam) with the recording on (the default) and off, beside PyTorch and
the step written out in NumPy; and the same for one small op (``x * y`` on 3 floats,
where a frame walk weighs most).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/error_location_overhead.py

On and off run interleaved step by step, in alternating order (a busy machine slows both
the same way), in this one process, one thread each. The target: less than 10% over "off" on the training step.
PyTorch is optional: without it its row says so.
"""
import argparse
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import chainrule
from chainrule._autograd.anomaly_mode import set_error_lines
from timing import median_seconds
from train_step import batch, library_case, model_classes, numpy_case


def interleaved_ms(steps, modes, repeats, warmup=5):
    """Median ms of each step function, each run once per round under its mode."""
    times = [[] for _ in steps]
    cases = list(zip(steps, modes, times))
    for round_ in range(repeats + warmup):
        # the order flips each round: running second (warm caches) must not favour one mode
        for step, lines_on, record in cases if round_ % 2 else cases[::-1]:
            set_error_lines(lines_on)
            start = time.perf_counter()
            step()
            elapsed = time.perf_counter() - start
            if round_ >= warmup:
                record.append(elapsed)
    set_error_lines(True)
    return [statistics.median(t) * 1e3 for t in times]


def small_op_us(repeats):
    x = chainrule.ones(3, requires_grad=True)
    y = chainrule.ones(3, requires_grad=True)

    def hundred_products():
        for _ in range(100):
            x * y
    result = []
    for on in (True, False):
        set_error_lines(on)
        result.append(median_seconds(hundred_products, repeats) * 1e4)  # per op, in µs
    set_error_lines(True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=60)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    chainrule.manual_seed(0)
    weights = {k: v.detach().numpy().copy() for k, v in model_classes(chainrule.nn)["mlp"]().state_dict().items()}
    x, y = batch("mlp")
    on_step, _ = library_case(chainrule, "mlp", weights, x, y)
    off_step, _ = library_case(chainrule, "mlp", weights, x, y)
    on, off = interleaved_ms([on_step, off_step], [True, False], args.repeats)
    print(f"MLP 784-512-512-10, batch 128, Adam: one training step, median of {args.repeats}, 1 thread")
    print(f"  chainrule, error lines on (default) {on:8.3f} ms   {100 * (on / off - 1):+5.1f}% over off")
    print(f"  chainrule, error lines off          {off:8.3f} ms")
    if torch is not None:
        ms = median_seconds(library_case(torch, "mlp", weights, x, y)[0], args.repeats, warmup=5) * 1e3
        print(f"  PyTorch {torch.__version__:<27} {ms:8.3f} ms")
    else:
        print("  PyTorch                             not installed")
    ms = median_seconds(numpy_case("mlp", weights, x, y)[0], args.repeats, warmup=5) * 1e3
    print(f"  hand-written NumPy                  {ms:8.3f} ms")
    op_on, op_off = small_op_us(max(args.repeats, 50))
    print(f"x * y on 3 floats (saves both inputs): on {op_on:.2f} µs, off {op_off:.2f} µs, "
          f"{100 * (op_on / op_off - 1):+.1f}%")


if __name__ == "__main__":
    main()
