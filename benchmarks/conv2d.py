"""conv2d forward + backward: a batch of 16 1x28x28 images to 8 channels with a 3x3 kernel
(weight and bias require grad, loss = out.sum()), in milliseconds per step, for chainrule,
PyTorch and a hand-written NumPy im2col forward+backward (the floor for a NumPy library).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/conv2d.py

All three run in this one process, one thread each. PyTorch is optional: without it its
column says so.
"""
import argparse
import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import chainrule
from timing import median_seconds

BATCH, CHANNELS_IN, SIZE, CHANNELS_OUT, KERNEL = 16, 1, 28, 8, 3


def inputs(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((BATCH, CHANNELS_IN, SIZE, SIZE)).astype(np.float32)
    w = rng.standard_normal((CHANNELS_OUT, CHANNELS_IN, KERNEL, KERNEL)).astype(np.float32)
    b = rng.standard_normal(CHANNELS_OUT).astype(np.float32)
    return x, w, b


def library_step(lib, x, w, b):
    """One training step's autograd work: forward, loss, backward (grads reset first)."""
    w.grad = b.grad = None
    lib.nn.functional.conv2d(x, w, b).sum().backward()
    return w.grad, b.grad


def library_case(lib, arrays):
    x, w, b = (lib.from_numpy(a.copy()) for a in arrays)
    w.requires_grad_()
    b.requires_grad_()
    return lambda: library_step(lib, x, w, b)


def numpy_step(x, w, b):
    """The same step by hand: im2col (a window view, copied once with the output positions
    innermost), one matmul forward; backward of sum(): the output gradient is ones, the
    weight gradient one tensordot with the columns, the bias gradient a sum."""
    n, c = x.shape[:2]
    k = w.shape[-1]
    windows = sliding_window_view(x, (k, k), axis=(2, 3))  # (N, C, oH, oW, k, k), a view
    out_h, out_w = windows.shape[2:4]
    cols = windows.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * k * k, out_h * out_w)  # the copy
    out = w.reshape(w.shape[0], -1) @ cols + b[:, None]  # (N, C_out, oH*oW)
    loss = out.sum()
    g = np.ones_like(out)
    dw = np.tensordot(g, cols, axes=([0, 2], [0, 2])).reshape(w.shape)
    db = g.sum(axis=(0, 2))
    return loss, dw, db


def ms_per_step(fn, repeats):
    return median_seconds(fn, repeats, warmup=5) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=300)
    args = parser.parse_args()
    arrays = inputs()
    ours = library_case(chainrule, arrays)
    rows = [("chainrule", ms_per_step(ours, args.repeats))]
    _, want_dw, want_db = numpy_step(*arrays)
    got_dw, got_db = ours()
    assert np.allclose(got_dw.numpy(), want_dw, rtol=1e-4, atol=1e-3), "chainrule and NumPy disagree (weight)"
    assert np.allclose(got_db.numpy(), want_db, rtol=1e-4, atol=1e-3), "chainrule and NumPy disagree (bias)"
    try:
        import torch
        torch.set_num_threads(1)
        theirs = library_case(torch, arrays)
        torch_dw, _ = theirs()
        assert np.allclose(got_dw.numpy(), torch_dw.numpy(), rtol=1e-4, atol=1e-3), "chainrule and PyTorch disagree"
        rows.append((f"PyTorch {torch.__version__}", ms_per_step(theirs, args.repeats)))
    except ImportError:
        rows.append(("PyTorch (not installed)", float("nan")))
    rows.append(("hand-written NumPy", ms_per_step(lambda: numpy_step(*arrays), args.repeats)))
    print(f"conv2d forward+backward, x {BATCH}x{CHANNELS_IN}x{SIZE}x{SIZE} float32, weight "
          f"{CHANNELS_OUT}x{CHANNELS_IN}x{KERNEL}x{KERNEL} and bias requiring grad, median of {args.repeats} steps")
    for name, ms in rows:
        print(f"  {name:<24} {ms:7.3f} ms/step")
    torch_ms = rows[1][1]
    if torch_ms == torch_ms:
        print(f"  chainrule / PyTorch      {rows[0][1] / torch_ms:7.2f}x")


if __name__ == "__main__":
    main()
