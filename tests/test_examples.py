"""Every script in examples/ prints exactly what the same script prints with PyTorch (the
chainrule imports swapped for torch's). The training example prints its timings, so it is
checked by test_train_digits.py instead (same losses as PyTorch, accuracy, checkpoints)."""
import os
import pathlib
import subprocess
import sys

import pytest

from helpers import require_torch

EXAMPLES = sorted(p for p in (pathlib.Path(__file__).parent.parent / "examples").glob("*.py")
                  if p.name != "train_digits.py")


def as_torch(source):
    return source.replace("import chainrule as torch", "import torch").replace("from chainrule.", "from torch.")


def run(source):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_prints_what_torch_prints(path):
    require_torch()
    source = path.read_text()
    assert "import chainrule as torch" in source
    assert run(source) == run(as_torch(source))


def test_there_are_examples():
    assert len(EXAMPLES) >= 2
