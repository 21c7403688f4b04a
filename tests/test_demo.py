"""The demo (``python -m chainrule``) and the README's example: both must really run and
print what PyTorch prints."""
import contextlib
import io
import os
import pathlib
import re
import subprocess
import sys

import pytest

import chainrule
from chainrule import _demo
from helpers import require_torch

ROOT = pathlib.Path(__file__).resolve().parent.parent

# What PyTorch 2.13 prints for the two seed programs (shared/acceptance/expected).
SEED_000_OUTPUT = """\
x.grad:tensor([[1.5000, 1.5000],
        [1.5000, 1.5000]])

tensor(5.)
tensor(18.)
tensor(34.)
"""

SEED_004_OUTPUT = """\
grad of x:  tensor([[4.5000, 4.5000],
        [4.5000, 4.5000]])
tensor([[4.5000, 4.5000],
        [4.5000, 4.5000]])
tensor([ 0.2000,  2.0000, 20.0000])
"""


@pytest.fixture(scope="module")
def demo_output():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    run = subprocess.run([sys.executable, "-m", "chainrule"], capture_output=True, text=True,
                         encoding="utf-8", env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    return run.stdout


def test_demo_prints_each_program_and_its_output(demo_output):
    for code in (_demo.SEED_000, _demo.SEED_004):
        assert code in demo_output
    assert "--- output ---\n" + SEED_000_OUTPUT in demo_output
    assert "--- output ---\n" + SEED_004_OUTPUT in demo_output
    assert demo_output.count("--- what autograd did ---") == 2


def test_demo_shows_the_vector_jacobian_product(demo_output):
    assert ("J =\ntensor([[2., 0., 0.],\n        [0., 2., 0.],\n        [0., 0., 2.]])\n"
            "v = tensor([ 0.1000,  1.0000, 10.0000])\n"
            "J^T·v = tensor([ 0.2000,  2.0000, 20.0000])\n") in demo_output
    assert "x.grad after y.backward(v) = tensor([ 0.2000,  2.0000, 20.0000])" in demo_output


def test_demo_shows_seed_000_jacobian(demo_output):
    assert ("J =\ntensor([[ 2.,  2.,  1.],\n        [ 1., 12.,  6.],\n        [ 2.,  4., 27.]])\n"
            "v = tensor([1., 1., 1.])\nJ^T·v = tensor([ 5., 18., 34.])\n") in demo_output
    assert "J^T·v = tensor([10., 34., 42.])" in demo_output  # the tutorial's weights (3, 2, 1)


@pytest.mark.parametrize("code, expected", [(_demo.SEED_000, SEED_000_OUTPUT), (_demo.SEED_004, SEED_004_OUTPUT)],
                         ids=["seed_000", "seed_004"])
def test_run_program_prints_what_torch_prints(code, expected):
    assert _demo.run_program(code) == expected


@pytest.mark.parametrize("code", [_demo.SEED_000, _demo.SEED_004], ids=["seed_000", "seed_004"])
def test_seed_programs_print_the_same_under_real_torch(code):
    torch = require_torch()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<seed>", "exec"), {"__name__": "__seed__"})
    assert _demo.run_program(code) == out.getvalue()
    assert sys.modules["torch"] is torch


def test_run_program_leaves_the_torch_module_alone():
    before = sys.modules.get("torch")
    _demo.run_program(_demo.SEED_004)
    assert sys.modules.get("torch") is before


def test_jacobian_rows_are_vector_jacobian_products():
    J = _demo.jacobian(_demo._seed_000_vector, chainrule.tensor([1.0, 2.0, 3.0]))
    assert J.tolist() == [[2.0, 2.0, 1.0], [1.0, 12.0, 6.0], [2.0, 4.0, 27.0]]
    v = chainrule.tensor([3.0, 2.0, 1.0])
    assert (J.T @ v).tolist() == [10.0, 34.0, 42.0]


def _shared_acceptance():
    for base in (ROOT.parent / "shared", pathlib.Path("/work/shared")):
        if (base / "acceptance" / "programs").is_dir():
            return base / "acceptance"
    return None


def test_embedded_seeds_match_the_acceptance_programs():
    """The demo carries its own copy of the programs; when the shared acceptance folder is
    at hand, the copies and the expected outputs must be the same."""
    acceptance = _shared_acceptance()
    if acceptance is None:
        pytest.skip("shared/acceptance is not beside this checkout")
    for stem, code, expected in [("seed_000_backward_and_gradient", _demo.SEED_000, SEED_000_OUTPUT),
                                 ("seed_004_jacobian_vector_product", _demo.SEED_004, SEED_004_OUTPUT)]:
        assert (acceptance / "programs" / f"{stem}.py").read_text(encoding="utf-8") == code
        assert (acceptance / "expected" / f"{stem}.txt").read_text(encoding="utf-8") == expected


# --- the README ------------------------------------------------------------------------

def _readme():
    return (ROOT / "README.md").read_text(encoding="utf-8")


def _readme_example():
    """The README's python block and the text block that says what it prints."""
    text = _readme()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    printed = re.search(r"```text\n(.*?)```", text, re.S).group(1)
    return code, printed


def _run(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<README>", "exec"), {"__name__": "__readme__"})
    return out.getvalue()


def test_readme_example_runs_and_prints_what_it_says():
    code, printed = _readme_example()
    assert code.startswith("import chainrule as torch\n")
    assert 5 <= len(code.strip().splitlines()) <= 15
    assert _run(code) == printed


def test_readme_example_prints_the_same_under_torch():
    require_torch()
    code, printed = _readme_example()
    assert _run(code.replace("import chainrule as torch", "import torch")) == printed


def test_readme_gives_the_set_up_and_benchmark_commands():
    text = _readme()
    assert "pip install -e . && python -m chainrule" in text
    assert "pip install -e '.[test]' && pytest" in text
    assert "pip install torch==2.13.0" in text
    assert "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/op_overhead.py" in text
    for path in re.findall(r"`((?:src/chainrule|benchmarks)/[\w/.]*)`", text):
        assert (ROOT / path).exists(), path
