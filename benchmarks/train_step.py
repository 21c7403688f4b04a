"""One training step (zero_grad, forward, cross-entropy, backward, optimizer step) of two
nn.Module models, in milliseconds per step, for chainrule, PyTorch and the same step written
out by hand in NumPy (forward, backward and optimizer; the floor for a NumPy library):

* MLP 784-512-512-10 with ReLU, batch 128, Adam (lr 1e-3);
* the digits CNN of examples/train_digits.py (1x8x8 input, conv 16 and 32 with 3x3 kernels,
  ReLU, 2x2 max-pooling, linear 128-10), batch 64, SGD with momentum 0.9 (lr 0.01).

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/train_step.py

All three run in this one process, one thread each, from the same float32 weights, timed
in turns; before timing, two steps of each are checked against the others (the updated
weights). PyTorch is optional: without it its column says so.
"""
import argparse
import os
import statistics

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

import chainrule
from timing import median_seconds

MLP_BATCH, CNN_BATCH = 128, 64


def model_classes(nn):
    """The two models as a user writes them, on library ``nn`` (chainrule.nn or torch.nn)."""

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(784, 512)
            self.fc2 = nn.Linear(512, 512)
            self.fc3 = nn.Linear(512, 10)

        def forward(self, x):
            return self.fc3(self.fc2(self.fc1(x).relu()).relu())

    class CNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
            self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
            self.pool = nn.MaxPool2d(2)
            self.fc = nn.Linear(32 * 2 * 2, 10)

        def forward(self, x):
            x = self.pool(self.conv1(x).relu())
            x = self.pool(self.conv2(x).relu())
            return self.fc(x.flatten(1))

    return {"mlp": MLP, "cnn": CNN}


def batch(name, seed=0):
    rng = np.random.default_rng(seed)
    shape = (MLP_BATCH, 784) if name == "mlp" else (CNN_BATCH, 1, 8, 8)
    return rng.standard_normal(shape).astype(np.float32), rng.integers(0, 10, shape[0])


def optimizer(lib, name, params):
    if name == "mlp":
        return lib.optim.Adam(params, lr=1e-3)
    return lib.optim.SGD(params, lr=0.01, momentum=0.9)


def library_case(lib, name, weights, x, y):
    """A step function of ``lib`` and the model it trains, from ``weights`` (name -> array)."""
    model = model_classes(lib.nn)[name]()
    model.load_state_dict({k: lib.from_numpy(v.copy()) for k, v in weights.items()})
    opt = optimizer(lib, name, model.parameters())
    x, y = lib.from_numpy(x), lib.from_numpy(y)

    def step():
        opt.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    return step, model


# --- the step by hand --------------------------------------------------------------------

def cross_entropy(logits, y):
    """The mean loss and its gradient with respect to the logits: (softmax - onehot) / N."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    total = exp.sum(axis=1, keepdims=True)
    n = len(y)
    loss = np.log(total[:, 0]).mean() - shifted[np.arange(n), y].mean()
    g = exp / total
    g[np.arange(n), y] -= 1
    g /= n
    return loss, g


class NumpyAdam:
    """torch.optim.Adam's single-tensor step on arrays, in place."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.lr, self.betas, self.eps, self.t = params, lr, betas, eps, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads):
        self.t += 1
        b1, b2 = self.betas
        step_size = self.lr / (1 - b1 ** self.t)
        root_correction = np.sqrt(1 - b2 ** self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            denom = np.sqrt(v)
            denom /= root_correction
            denom += self.eps
            p -= step_size * (m / denom)


class NumpySGD:
    """torch.optim.SGD's momentum step (dampening 0) on arrays, in place."""

    def __init__(self, params, lr=0.01, momentum=0.9):
        self.params, self.lr, self.momentum = params, lr, momentum
        self.buffers = None

    def step(self, grads):
        if self.buffers is None:  # the first step's buffer is the gradient itself
            self.buffers = [g.copy() for g in grads]
        else:
            for b, g in zip(self.buffers, grads):
                b *= self.momentum
                b += g
        for p, b in zip(self.params, self.buffers):
            p -= self.lr * b


def mlp_grads(w, x, y):
    h1 = x @ w["fc1.weight"].T + w["fc1.bias"]
    np.maximum(h1, 0, out=h1)
    h2 = h1 @ w["fc2.weight"].T + w["fc2.bias"]
    np.maximum(h2, 0, out=h2)
    loss, g3 = cross_entropy(h2 @ w["fc3.weight"].T + w["fc3.bias"], y)
    g2 = g3 @ w["fc3.weight"]
    g2 *= h2 > 0
    g1 = g2 @ w["fc2.weight"]
    g1 *= h1 > 0
    grads = [g1.T @ x, g1.sum(0), g2.T @ h1, g2.sum(0), g3.T @ h2, g3.sum(0)]
    return loss, grads


# The convolutions work channels-last (N, H, W, C): the im2col columns are then a plain
# reshape of the window view, and pooling and its gradient need no transposes.

def conv3x3(x, weight, bias):
    """A 3x3 convolution with padding 1 by im2col on (N, H, W, C) input; returns the output
    (N*H*W, C_out) and the columns (N*H*W, C*9), ordered as the weight's (C_out, C, 3, 3)."""
    n, h, w_, c = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = sliding_window_view(padded, (3, 3), axis=(1, 2)).reshape(n * h * w_, c * 9)  # the copy
    return cols @ weight.reshape(len(weight), -1).T + bias, cols


def conv3x3_input_grad(g_cols, shape):
    """col2im: the columns' gradient (N*H*W, C*9) summed back onto the (N, H, W, C) input."""
    n, h, w_, c = shape
    g_cols = g_cols.reshape(n, h, w_, c, 3, 3)
    padded = np.zeros((n, h + 2, w_ + 2, c), dtype=g_cols.dtype)
    for i in range(3):
        for j in range(3):
            padded[:, i:i + h, j:j + w_] += g_cols[..., i, j]
    return padded[:, 1:-1, 1:-1]


def pool2x2(x):
    """2x2 max-pooling of (N, H, W, C); the mask marks each window's maximum (ties, rare in
    floats, would pass the gradient to all of them)."""
    n, h, w_, c = x.shape
    windows = x.reshape(n, h // 2, 2, w_ // 2, 2, c)
    out = windows.max(axis=(2, 4))
    return out, windows == out[:, :, None, :, None]


def unpool2x2(g, mask):
    return (mask * g[:, :, None, :, None]).reshape(mask.shape[0], mask.shape[1] * 2, mask.shape[3] * 2, -1)


def cnn_grads(w, x, y):
    n = len(x)
    x = x.reshape(n, 8, 8, 1)  # one channel: NCHW and NHWC hold the same numbers
    c1, cols1 = conv3x3(x, w["conv1.weight"], w["conv1.bias"])
    r1 = np.maximum(c1, 0).reshape(n, 8, 8, -1)
    p1, mask1 = pool2x2(r1)
    c2, cols2 = conv3x3(p1, w["conv2.weight"], w["conv2.bias"])
    r2 = np.maximum(c2, 0).reshape(n, 4, 4, -1)
    p2, mask2 = pool2x2(r2)
    flat = p2.transpose(0, 3, 1, 2).reshape(n, -1)  # flatten(1) in PyTorch's (C, H, W) order
    loss, g_logits = cross_entropy(flat @ w["fc.weight"].T + w["fc.bias"], y)
    g_p2 = (g_logits @ w["fc.weight"]).reshape(n, -1, 2, 2).transpose(0, 2, 3, 1)
    g_c2 = unpool2x2(g_p2, mask2).reshape(c2.shape) * (c2 > 0)
    w2 = w["conv2.weight"]
    g_p1 = conv3x3_input_grad(g_c2 @ w2.reshape(len(w2), -1), p1.shape)
    g_c1 = unpool2x2(g_p1, mask1).reshape(c1.shape) * (c1 > 0)
    grads = [(g_c1.T @ cols1).reshape(w["conv1.weight"].shape), g_c1.sum(0),
             (g_c2.T @ cols2).reshape(w["conv2.weight"].shape), g_c2.sum(0),
             g_logits.T @ flat, g_logits.sum(0)]
    return loss, grads


def numpy_case(name, weights, x, y):
    w = {k: v.copy() for k, v in weights.items()}
    params = list(w.values())  # state_dict order: the gradients' order
    opt = NumpyAdam(params, lr=1e-3) if name == "mlp" else NumpySGD(params, lr=0.01, momentum=0.9)
    grads_of = mlp_grads if name == "mlp" else cnn_grads

    def step():
        loss, grads = grads_of(w, x, y)
        opt.step(grads)
        return loss

    return step, w


# --- the run -------------------------------------------------------------------------------

def check(name, weights, x, y, libs):
    """Two steps of each from the same weights: the updated weights agree (float32). Adam moves
    a weight by about lr whatever its gradient's size, so where that gradient is near zero
    float32 rounding can move it by a fraction of lr = 1e-3: atol 1e-4 there."""
    atol = 1e-4 if name == "mlp" else 1e-5
    numpy_step, numpy_weights = numpy_case(name, weights, x, y)
    numpy_step(), numpy_step()
    for lib in libs:
        step, model = library_case(lib, name, weights, x, y)
        step(), step()
        for key, value in model.state_dict().items():
            assert np.allclose(value.numpy(), numpy_weights[key], rtol=1e-4, atol=atol), \
                f"{name}: {lib.__name__} and NumPy disagree on {key}"


def ms_per_step(fns, repeats, rounds=10):
    """Each step function's median in ms, timed in turns (``rounds`` rounds, each of
    ``repeats / rounds`` steps per function), so that a busy spell of the machine slows
    all of them alike; the figure is the median of the rounds' medians."""
    per_round = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            per_round[name].append(median_seconds(fn, max(1, repeats // rounds), warmup=2))
    return {name: statistics.median(times) * 1e3 for name, times in per_round.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=100)
    args = parser.parse_args()
    try:
        import torch
        torch.set_num_threads(1)
        libs = [chainrule, torch]
    except ImportError:
        torch, libs = None, [chainrule]
    print(f"one training step (zero_grad, forward, cross-entropy, backward, optimizer step), float32, "
          f"1 thread, median of {args.repeats} steps in 10 interleaved rounds")
    for name, title in (("mlp", f"MLP 784-512-512-10, batch {MLP_BATCH}, Adam"),
                        ("cnn", f"digits CNN 1x8x8, batch {CNN_BATCH}, SGD momentum")):
        chainrule.manual_seed(0)
        weights = {k: v.detach().numpy().copy() for k, v in model_classes(chainrule.nn)[name]().state_dict().items()}
        x, y = batch(name)
        check(name, weights, x, y, libs)
        fns = {"chainrule": library_case(chainrule, name, weights, x, y)[0]}
        if torch is not None:
            fns[f"PyTorch {torch.__version__}"] = library_case(torch, name, weights, x, y)[0]
        fns["hand-written NumPy"] = numpy_case(name, weights, x, y)[0]
        ms = ms_per_step(fns, args.repeats)
        rows = list(ms.items())
        if torch is None:
            rows.insert(1, ("PyTorch (not installed)", float("nan")))
        print(title)
        for label, step_ms in rows:
            print(f"  {label:<24} {step_ms:8.3f} ms/step")
        ours, theirs, floor = (step_ms for _, step_ms in rows)
        if theirs == theirs:
            print(f"  chainrule / PyTorch      {ours / theirs:8.2f}x")
        print(f"  chainrule / NumPy        {ours / floor:8.2f}x")


if __name__ == "__main__":
    main()
