"""examples/train_digits.py, run as a user runs it (``--quick``: 3 epochs of both models):
it learns, its checkpoint reloads to the same accuracy, and on PyTorch the same file gives
the same losses, batch by batch, from the same seed, with checkpoints either library reads.

The digits are bundled with scikit-learn (no network). Without scikit-learn the tests skip,
except in CI (``CI`` set), where the ``examples`` extra is installed and they must run.
"""
import importlib
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import chainrule
from helpers import require_torch

ROOT = pathlib.Path(__file__).parent.parent
SCRIPT = ROOT / "examples" / "train_digits.py"


def require_sklearn():
    try:
        importlib.import_module("sklearn")
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("scikit-learn (the examples extra) is required in CI for the training example")
        pytest.skip("scikit-learn is not installed")


def run_example(backend, out):
    """``train_digits.py --quick`` in a fresh process; its metrics_<backend>.json, parsed."""
    require_sklearn()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--backend", backend, "--out", str(out)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads((out / f"metrics_{backend}.json").read_text())


@pytest.fixture(scope="module")
def chainrule_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("train_digits")
    return out, run_example("chainrule", out)


def test_learns_and_reloads_its_checkpoint(chainrule_run):
    out, metrics = chainrule_run
    assert list(metrics) == ["mlp", "cnn"]
    for name, history in metrics.items():
        assert len(history["test_acc"]) == 3
        assert history["test_acc"][-1] > 85.0, (name, history["test_acc"])  # chance is 10 %
        assert history["train_loss"][-1] < history["train_loss"][0] / 3, (name, history["train_loss"])
        assert history["best_acc"] == max(history["test_acc"])
        assert history["reloaded_acc"] == history["best_acc"], name
        assert (out / f"{name}_chainrule.pt").is_file()


def test_losses_equal_pytorchs_from_the_same_seed(chainrule_run):
    """Same initial weights, same shuffled batches, same dropout masks, same Adam steps: the
    whole stack draws and computes as PyTorch does, so every first-epoch loss agrees to
    float32 rounding (observed: 6e-7 relative), and the accuracies stay equal."""
    require_torch()
    out, ours = chainrule_run
    theirs = run_example("torch", out)
    for name in ours:
        np.testing.assert_allclose(ours[name]["batch_losses"][0], theirs[name]["batch_losses"][0], rtol=1e-5,
                                   atol=1e-6, err_msg=name)
        assert len(ours[name]["batch_losses"][0]) == len(theirs[name]["batch_losses"][0]) == 45  # 1437 / 32
        np.testing.assert_allclose(ours[name]["train_loss"], theirs[name]["train_loss"], rtol=1e-4, err_msg=name)
        assert ours[name]["test_acc"] == theirs[name]["test_acc"], name


def test_checkpoints_are_read_by_either_library(chainrule_run):
    """The file chainrule wrote loads in PyTorch (weights_only) and PyTorch's loads in
    chainrule: the same keys, and weights equal up to the float32 drift of three epochs. (Adam's
    step is about lr = 3e-3 whatever the gradient's size, so where a weight's gradients are
    near zero their float32 rounding moves it by a small fraction of lr: atol 1e-4.)"""
    torch = require_torch()
    out, _ = chainrule_run
    if not (out / "mlp_torch.pt").is_file():
        run_example("torch", out)
    for name in ("mlp", "cnn"):
        ours_in_torch = torch.load(out / f"{name}_chainrule.pt", weights_only=True)
        theirs_in_torch = torch.load(out / f"{name}_torch.pt", weights_only=True)
        theirs_in_ours = chainrule.load(out / f"{name}_torch.pt")
        assert list(ours_in_torch) == list(theirs_in_torch) == list(theirs_in_ours)
        for key in ours_in_torch:
            assert ours_in_torch[key].dtype == torch.float32
            np.testing.assert_array_equal(theirs_in_ours[key].numpy(), theirs_in_torch[key].numpy())
            np.testing.assert_allclose(ours_in_torch[key].numpy(), theirs_in_torch[key].numpy(), rtol=1e-4,
                                       atol=1e-4, err_msg=f"{name} {key}")


def first_python_block(markdown):
    return markdown.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_short_training_example_prints_what_torch_prints(tmp_path):
    """The guide's example (the README's Training section shows the same code), run as
    written and with ``import torch``: the same printed line, the one the text shows, and
    PyTorch reads the checkpoint it saved."""
    torch = require_torch()
    guide = (ROOT / "docs" / "training.md").read_text()
    readme = (ROOT / "README.md").read_text().split("## Training", 1)[1]
    source = first_python_block(guide)
    assert source == first_python_block(readme) and source.startswith("import chainrule as torch\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    printed = []
    for lib_source in (source, source.replace("import chainrule as torch", "import torch")):
        done = subprocess.run([sys.executable, "-c", lib_source], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=120)
        assert done.returncode == 0, done.stderr
        printed.append(done.stdout)
        if len(printed) == 1:  # chainrule's checkpoint, read by PyTorch
            state = torch.load(tmp_path / "model.pt", weights_only=True)
            assert list(state) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert printed[0] == printed[1]
    for text in (guide, readme):
        assert f"prints `{printed[0].strip()}`" in text
