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
from chainrule.viz.explain import jacobian_rows
from helpers import require_torch

ROOT = pathlib.Path(__file__).resolve().parent.parent

# What PyTorch 2.13 prints for the two tutorial programs (shared/acceptance/expected).
TUTORIAL_1_OUTPUT = """\
x.grad:tensor([[1.5000, 1.5000],
        [1.5000, 1.5000]])

tensor(5.)
tensor(18.)
tensor(34.)
"""

TUTORIAL_2_OUTPUT = """\
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
    for code in (_demo.TUTORIAL_1, _demo.TUTORIAL_2):
        assert code in demo_output
    assert "--- output ---\n" + TUTORIAL_1_OUTPUT in demo_output
    assert "--- output ---\n" + TUTORIAL_2_OUTPUT in demo_output
    assert demo_output.count("--- what autograd did ---") == 2


def test_demo_shows_the_vector_jacobian_product(demo_output):
    assert ("row 0 of J = d y[0]/dx = (2, 0, 0)\nrow 1 of J = d y[1]/dx = (0, 2, 0)\n"
            "row 2 of J = d y[2]/dx = (0, 0, 2)\n") in demo_output
    assert ("v = torch.tensor([0.1, 1.0, 10])   # the tutorial's v\n"
            "J^T·v = (0.2, 2, 20): the x.grad that y.backward(v) printed above") in demo_output


def test_demo_shows_tutorial_1_jacobian_row_by_row(demo_output):
    assert ("row 0 of J = d y[0]/dx = (2, 2, 1)\nrow 1 of J = d y[1]/dx = (1, 12, 6)\n"
            "row 2 of J = d y[2]/dx = (2, 4, 27)\n") in demo_output
    assert "J^T·v = (5, 18, 34): the x.grad that y.backward(v) printed above" in demo_output
    assert "J^T·v = (10, 34, 42): the tutorial's gradient for its weights" in demo_output


def test_every_number_comes_after_the_code_that_makes_it(demo_output):
    weights = demo_output.index("v = torch.tensor([3.0, 2.0, 1.0])")
    assert "(3, 2, 1)" not in demo_output and "3, 2, 1" not in demo_output[:weights]
    assert demo_output.index("J^T·v = (10, 34, 42)") > weights
    assert demo_output.index("row 0 of J") > demo_output.index("for i in range(3):   # one backward per row")


def test_demo_says_tutorials_not_seeds(demo_output):
    assert "seed" not in demo_output.lower()
    assert "=== 1. tutorial_1_backward_and_gradient.py ===" in demo_output
    assert "=== 2. tutorial_2_jacobian_vector_product.py ===" in demo_output
    assert "The two tutorials this project comes from" in demo_output


def test_demo_ends_with_the_graph_and_explain(demo_output):
    tail = demo_output[demo_output.index("=== 3. the graph of tutorial 2's out"):]
    path = re.search(r"the graph is drawn in (\S+\.svg)", tail).group(1)
    x = chainrule.ones(2, 2, requires_grad=True)
    out = ((x + 2) * (x + 2) * 3).mean()
    svg = pathlib.Path(path).read_text(encoding="utf-8")
    assert svg.count('class="node"') == 7 and "MeanBackward0" in svg
    assert "passes 0.75 × 3 = 2.25 in every entry of (2, 2) to [4] AddBackward0" in tail
    assert tail.rstrip().endswith("x.grad = 4.5 in every entry of (2, 2)")
    assert out.grad_fn is not None


def test_demo_piped_into_head_ends_quietly():
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    run = subprocess.run(f"'{sys.executable}' -m chainrule | head -3", shell=True, capture_output=True,
                         text=True, encoding="utf-8", env=env, timeout=120)
    assert run.stdout.count("\n") == 3 and run.stderr == ""


def test_jacobian_rows_are_vector_jacobian_products():
    names = _demo._run_jacobian(_demo.JACOBIAN_1)
    rows = [list(r) for r in jacobian_rows(names["y"], [names["x"]])]
    assert rows == [[2.0, 2.0, 1.0], [1.0, 12.0, 6.0], [2.0, 4.0, 27.0]]


@pytest.mark.parametrize("code, expected", [(_demo.TUTORIAL_1, TUTORIAL_1_OUTPUT), (_demo.TUTORIAL_2, TUTORIAL_2_OUTPUT)],
                         ids=["tutorial_1", "tutorial_2"])
def test_run_program_prints_what_torch_prints(code, expected):
    assert _demo.run_program(code) == expected


@pytest.mark.parametrize("code", [_demo.TUTORIAL_1, _demo.TUTORIAL_2], ids=["tutorial_1", "tutorial_2"])
def test_tutorial_programs_print_the_same_under_real_torch(code):
    torch = require_torch()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<seed>", "exec"), {"__name__": "__seed__"})
    assert _demo.run_program(code) == out.getvalue()
    assert sys.modules["torch"] is torch


def test_run_program_leaves_the_torch_module_alone():
    before = sys.modules.get("torch")
    _demo.run_program(_demo.TUTORIAL_2)
    assert sys.modules.get("torch") is before


def _shared_acceptance():
    for base in (ROOT.parent / "shared", pathlib.Path("/work/shared")):
        if (base / "acceptance" / "programs").is_dir():
            return base / "acceptance"
    return None


def test_embedded_tutorials_match_the_acceptance_programs():
    """The demo carries its own copy of the programs; when the shared acceptance folder is
    at hand, the copies and the expected outputs must be the same."""
    acceptance = _shared_acceptance()
    if acceptance is None:
        pytest.skip("shared/acceptance is not beside this checkout")
    for stem, code, expected in [("seed_000_backward_and_gradient", _demo.TUTORIAL_1, TUTORIAL_1_OUTPUT),
                                 ("seed_004_jacobian_vector_product", _demo.TUTORIAL_2, TUTORIAL_2_OUTPUT)]:
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
