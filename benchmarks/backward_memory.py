"""Memory of a training loop that keeps ``loss`` (to print it after the step), against the
same loop that deletes it: backward frees what the graph saved, as PyTorch does, so the
two should hold the same. An MLP 784-512-512-10 (batch 128) and a small CNN (conv 3->32,
max-pool, dropout, linear; batch 64, 32x32), SGD, float32, measured with tracemalloc.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/backward_memory.py

PyTorch allocates outside Python's allocator (tracemalloc cannot see it), so it has no
column here; NumPy by hand has no graph to hold.
"""
import gc
import tracemalloc

import chainrule as torch

MB = 2 ** 20


def models():
    nn = torch.nn
    torch.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    cnn = nn.Sequential(nn.Conv2d(3, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(0.3), nn.Flatten(),
                        nn.Linear(32 * 15 * 15, 10))
    return {"MLP": (mlp, torch.randn(128, 784), torch.randint(0, 10, (128,))),
            "CNN": (cnn, torch.randn(64, 3, 32, 32), torch.randint(0, 10, (64,)))}


def loop(model, x, y, keep_loss, steps=5):
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    held = []
    for _ in range(steps):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        if not keep_loss:
            del loss
        gc.collect()
        held.append(tracemalloc.get_traced_memory()[0] - base)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return max(held), peak


def main():
    for name, (model, x, y) in models().items():
        for keep in (True, False):
            held, peak = loop(model, x, y, keep)
            print(f"{name} {'keeps loss' if keep else 'del loss  '}: held between steps {held / MB:6.2f} MB "
                  f"(the parameters' .grad included), peak {peak / MB:6.2f} MB")


if __name__ == "__main__":
    main()
