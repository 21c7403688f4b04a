"""Train an MLP and a small CNN on scikit-learn's 8x8 digits, the way a PyTorch script does:
nn.Module subclasses, a shuffling DataLoader, Adam with a cosine schedule, cross-entropy,
a progress bar per epoch, test accuracy per epoch, the best checkpoint written with
torch.save and read back with torch.load to check it.

    pip install -e '.[examples]'                      # scikit-learn, tqdm, matplotlib
    python examples/train_digits.py                   # on chainrule
    python examples/train_digits.py --backend torch   # the same file on real PyTorch

Both runs start from the same weights and see the same batches (chainrule draws PyTorch's
random stream), so their losses agree to float32 rounding. Writes into --out: each model's
best checkpoint (``<model>_<backend>.pt``, loadable by either library), ``metrics_<backend>.json``
and ``train_digits.png`` (the curves of every backend run into that folder). tqdm and
matplotlib are optional: without them the script prints plain lines and skips the plot.
"""
import argparse
import importlib
import json
import pathlib
import statistics
import time

from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

try:
    from tqdm import tqdm
except ImportError:  # a plain loop: one printed line per epoch
    tqdm = None
try:
    import matplotlib
    matplotlib.use("Agg")  # files only, no window
    import matplotlib.pyplot as plt
except ImportError:  # no plot
    plt = None

parser = argparse.ArgumentParser(description="Train an MLP and a CNN on the 8x8 digits.")
parser.add_argument("--backend", default="chainrule", choices=["chainrule", "torch"],
                    help="the library to run on: chainrule (default) or torch")
parser.add_argument("--model", default="both", choices=["mlp", "cnn", "both"])
parser.add_argument("--epochs", type=int, default=30)
parser.add_argument("--quick", action="store_true", help="3 epochs, no plot: a smoke test")
parser.add_argument("--out", default="train_digits_out", help="folder for checkpoints, metrics and the plot")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()

torch = importlib.import_module(args.backend)  # `import chainrule as torch`, or PyTorch itself
nn = torch.nn
F = torch.nn.functional


class MLP(nn.Module):
    """64 pixels -> 128 -> 64 -> 10 classes, dropout after the first hidden layer."""

    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 128)
        self.drop = nn.Dropout(0.2)
        self.fc2 = nn.Linear(128, 64)
        self.fc3 = nn.Linear(64, 10)

    def forward(self, x):
        x = x.flatten(1)
        x = self.drop(F.relu(self.fc1(x)))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


class CNN(nn.Module):
    """Two 3x3 conv blocks on the 1x8x8 image (8x8 -> 4x4 -> 2x2), then a linear classifier."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Linear(32 * 2 * 2, 10)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


MODELS = {"mlp": MLP, "cnn": CNN}


def digits():
    """The 1797 bundled digits as (N, 1, 8, 8) float32 in [0, 1], split 80/20 once and for all."""
    images, labels = load_digits(return_X_y=True)
    x_train, x_test, y_train, y_test = train_test_split(images / 16.0, labels, test_size=0.2,
                                                        random_state=0, stratify=labels)
    as_images = lambda a: torch.tensor(a, dtype=torch.float32).reshape(-1, 1, 8, 8)
    return (torch.utils.data.TensorDataset(as_images(x_train), torch.tensor(y_train)),
            (as_images(x_test), torch.tensor(y_test)))


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        correct = (model(x).argmax(1) == y).sum().item()
    return 100.0 * correct / len(y)


def train_epoch(model, loader, optimizer, epoch):
    """One pass over the loader; returns every batch's loss (a float)."""
    model.train()
    losses = []
    batches = tqdm(loader, desc=f"epoch {epoch:2d}", leave=False) if tqdm else loader
    for x, y in batches:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if tqdm:
            batches.set_postfix(loss=f"{losses[-1]:.4f}")
    return losses


def fit(name, epochs, out):
    train_set, (x_test, y_test) = digits()
    torch.manual_seed(args.seed)  # the weights and the shuffling: PyTorch's stream on both backends
    model = MODELS[name]()
    loader = torch.utils.data.DataLoader(train_set, batch_size=32, shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=epochs)
    checkpoint = out / f"{name}_{args.backend}.pt"
    history = {"batch_losses": [], "train_loss": [], "test_acc": [], "seconds": []}
    best = -1.0
    for epoch in range(1, epochs + 1):
        start = time.perf_counter()
        losses = train_epoch(model, loader, optimizer, epoch)
        scheduler.step()
        acc = accuracy(model, x_test, y_test)
        history["seconds"].append(time.perf_counter() - start)
        history["batch_losses"].append(losses)
        history["train_loss"].append(sum(losses) / len(losses))
        history["test_acc"].append(acc)
        if acc > best:
            best = acc
            torch.save(model.state_dict(), checkpoint)
        print(f"{name} epoch {epoch:2d}  loss {history['train_loss'][-1]:.4f}  test accuracy {acc:6.2f} %  "
              f"({history['seconds'][-1]:.2f} s)")
    reloaded = MODELS[name]()
    reloaded.load_state_dict(torch.load(checkpoint))
    history["best_acc"] = best
    history["reloaded_acc"] = accuracy(reloaded, x_test, y_test)
    print(f"{name}: best test accuracy {best:.2f} %, reloaded from {checkpoint}: {history['reloaded_acc']:.2f} %, "
          f"{statistics.median(history['seconds']):.3f} s per epoch (median)")
    return history


def plot(out):
    """Train loss and test accuracy per epoch of every metrics_*.json in ``out``, one PNG."""
    if plt is None:
        print("matplotlib is not installed: no plot")
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    for path in sorted(out.glob("metrics_*.json")):
        backend = path.stem[len("metrics_"):]
        style = "-" if backend == "chainrule" else "--"
        for name, history in json.loads(path.read_text()).items():
            epochs = range(1, len(history["train_loss"]) + 1)
            color = f"C{list(MODELS).index(name)}"
            left.plot(epochs, history["train_loss"], style, color=color, label=f"{name} ({backend})")
            right.plot(epochs, history["test_acc"], style, color=color, label=f"{name} ({backend})")
    left.set(xlabel="epoch", ylabel="train loss", yscale="log", title="training loss")
    right.set(xlabel="epoch", ylabel="test accuracy (%)", ylim=(90, 100), title="test accuracy")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "train_digits.png", dpi=80)
    print(f"curves: {out / 'train_digits.png'}")


def main():
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    epochs = 3 if args.quick else args.epochs
    names = ["mlp", "cnn"] if args.model == "both" else [args.model]
    metrics = {name: fit(name, epochs, out) for name in names}
    (out / f"metrics_{args.backend}.json").write_text(json.dumps(metrics))
    if not args.quick:
        plot(out)


if __name__ == "__main__":
    main()
