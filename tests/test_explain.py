"""chainrule.explain: the chain rule spelled out with the numbers the tutorials derive,
and ``python -m chainrule explain`` refusing anything but math.

Golden texts live in tests/golden/viz/*.explain.txt (rewrite them with
``CHAINRULE_REGEN_GOLDEN=1`` after an intended change, and read the diff).
"""
import io
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import chainrule
from chainrule import __main__ as cli
from chainrule.viz import explain, explain_text
from chainrule.viz.expression import ExpressionError, evaluate, parse_value
from helpers import require_torch
from test_viz import check_golden
from viz_programs import (PROGRAMS, mlp, seed_000_scalar, seed_000_vector, seed_000_weighted, seed_004_scalar,
                          seed_004_vector)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_explain_matches_golden(program):
    out, leaves, v = program(chainrule)
    check_golden(f"{program.__name__}.explain.txt", explain_text(out, leaves, v) + "\n")


@pytest.mark.parametrize("program, numbers", [
    (seed_004_scalar, ["x.grad = 4.5 in every entry of (2, 2)"]),
    (seed_000_scalar, ["x.grad = 1.5 in every entry of (2, 2)"]),
    (seed_000_vector, ["J^T·v = [5, 18, 34]", "= 5\n", "= 18\n", "= 34"]),
    (seed_000_weighted, ["v = [3, 2, 1]", "J^T·v = [10, 34, 42]", "= 10\n", "= 34\n", "= 42"]),
    (seed_004_vector, ["v = [0.1, 1, 10]", "J^T·v = [0.2, 2, 20]", "x.grad = [0.2, 2, 20]"]),
], ids=lambda p: getattr(p, "__name__", ""))
def test_explain_shows_the_tutorials_numbers(program, numbers):
    out, leaves, v = program(chainrule)
    text = explain_text(out, leaves, v)
    for n in numbers:
        assert n in text


def test_seed_004_steps_are_the_tutorials_derivation():
    """d out/dz_i = 1/4, dz_i/dx_i = 6x + 12 = 18 at x = 1 (3 times 3 through each factor of y·y)."""
    out, leaves, _ = seed_004_scalar(chainrule)
    text = explain_text(out, leaves)
    assert "passes 1 × 0.25 = 0.25 in every entry of (2, 2) to [2] MulBackward0" in text
    assert "2.25 (from [3] MulBackward0) + 2.25 (from [3] MulBackward0) = 4.5 in every entry of (2, 2)" in text


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_leaf_gradients_are_torchs(program):
    torch = require_torch()
    out, leaves, v = program(chainrule)
    t_out, t_leaves, t_v = program(torch)
    t_out.backward(t_v)
    text = explain_text(out, leaves, v)
    for name, t in t_leaves.items():
        line = next(line for line in text.splitlines() if line.startswith(f"{name}.grad = "))
        shown = line.rsplit(" = ", 1)[1]
        grad = t.grad.numpy()
        if grad.size > 1 and np.all(grad == grad.flat[0]):
            assert shown == f"{grad.flat[0]:g} in every entry of {tuple(grad.shape)}".replace(",)", ")")
        else:
            values = [float(s) for s in re.findall(r"-?[\d.]+(?:e-?\d+)?", shown)]
            np.testing.assert_allclose(values, grad.ravel(), rtol=1e-5, atol=1e-7)


def test_explain_leaves_grad_alone_and_backward_still_works():
    out, leaves, _ = seed_004_scalar(chainrule)
    x = leaves["x"]
    buf = io.StringIO()
    explain(out, leaves, file=buf)
    assert x.grad is None and "x.grad = 4.5" in buf.getvalue()
    out.backward()
    assert x.grad.tolist() == [[4.5, 4.5], [4.5, 4.5]]


def test_explain_after_backward_needs_the_graph():
    out, leaves, _ = seed_004_scalar(chainrule)
    out.backward(retain_graph=True)
    assert "= 4.5" in explain_text(out, leaves)
    out2, leaves2, _ = seed_004_scalar(chainrule)
    out2.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time") as info:
        explain_text(out2, leaves2)
    assert "call them before out.backward(), or call out.backward(retain_graph=True)" in info.value.__notes__[0]


def test_non_scalar_without_gradient_is_refused_as_backward_refuses_it():
    out, leaves, _ = seed_004_vector(chainrule)
    with pytest.raises(RuntimeError) as info:
        explain_text(out, leaves)
    assert str(info.value) == "grad can be implicitly created only for scalar outputs"
    assert info.value.__notes__[0].startswith("Hint: explain a non-scalar output of shape (3) with gradient=v")


def test_inputs_default_to_every_leaf_and_may_be_a_list():
    out, leaves, _ = mlp(chainrule)
    text = explain_text(out)
    assert text.count(".grad = ") == 4 and "leaf 0.grad" in text
    assert "input 0.grad = " in explain_text(out, [leaves["0.bias"]])


def test_explain_of_a_big_tensor_summarises_it():
    chainrule.manual_seed(0)
    x = chainrule.randn(20, requires_grad=True)
    text = explain_text((x * x).sum(), {"x": x})
    assert re.search(r"x.grad = \(20\) tensor, min -?[\d.]+, mean -?[\d.]+, max [\d.]+", text)


# --- the expression CLI -------------------------------------------------------------------

def test_cli_explains_an_expression(capsys):
    cli.main(["explain", "3*(x+2)**2", "--at", "x=1"])
    text = capsys.readouterr().out
    assert text.startswith("out = 27; backward starts from d out/d out = 1.")
    assert "passes 3 × 6 = 18 to [3] AddBackward0" in text and text.endswith("x.grad = 18\n")


def test_cli_lists_and_gradients(capsys):
    cli.main(["explain", "x*2", "--at", "x=[1,1,1]", "--gradient", "[0.1, 1, 10]"])
    assert "J^T·v = [0.2, 2, 20]" in capsys.readouterr().out
    cli.main(["explain", "x**2*y", "--at", "x=[1,2]", "--at", "y=3"])
    text = capsys.readouterr().out
    assert "x.grad = [6, 12]" in text and "y.grad = 5" in text


def test_cli_as_a_program():
    run = subprocess.run([sys.executable, "-m", "chainrule", "explain", "open('/etc/passwd')", "--at", "x=1"],
                         capture_output=True, text=True, timeout=120, env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    assert run.returncode == 2 and run.stdout == ""
    assert "error: calling 'open' is not allowed" in run.stderr and "Traceback" not in run.stderr


ATTACKS = {
    "import": ("__import__('os')", "calling '__import__' is not allowed"),
    "import_and_call": ("__import__('os').system('true')", "calling \"__import__('os').system\" is not allowed"),
    "attribute": ("x.__class__", "attribute access: not allowed"),
    "dunder_chain": ("(1).__class__.__bases__", "attribute access: not allowed"),
    "call_outside_the_set": ("eval('1')", "calling 'eval' is not allowed"),
    "call_of_a_call": ("sin(x)(1)", "calling 'sin(x)' is not allowed"),
    "keyword_arguments": ("sum(x, dim=0)", "takes exactly one positional argument"),
    "huge_exponent": ("x ** 100000", "the exponent 100000 is too large"),
    "huge_computed_exponent": ("x ** (10 ** 9)", "the exponent 1000000000.0 is too large"),
    "tower_of_powers": ("9 ** 9 ** 9 * x", "the exponent 387420489.0 is too large"),
    "lambda": ("(lambda: 0)()", "calling 'lambda: 0' is not allowed"),
    "bare_lambda": ("lambda: x", "lambdas: not allowed"),
    "list_comprehension": ("[x for _ in range(9)]", "comprehensions: not allowed"),
    "generator": ("sum(x for _ in range(9))", "comprehensions: not allowed"),
    "subscript": ("x[0]", "subscripts: not allowed"),
    "string": ("'x' * 10", "only numbers are allowed as constants, not str"),
    "f_string": ("f'{x}'", "strings: not allowed"),
    "bytes": ("b'x'", "only numbers are allowed as constants, not bytes"),
    "bool": ("True * x", "only numbers are allowed as constants, not bool"),
    "comparison": ("x < 1", "comparisons: not allowed"),
    "walrus": ("(y := x)", "assignments: not allowed"),
    "unknown_name": ("x * os", "unknown name 'os'"),
    "matmul": ("x @ x", "the operator MatMult is not allowed"),
    "statement": ("import os", "not valid Python syntax"),
    "too_long": ("x" + "+x" * 300, "at most 500 are accepted"),
    "nothing_to_differentiate": ("2 + 3", "uses none of the variables"),
}


@pytest.mark.parametrize("attack", ATTACKS, ids=str)
def test_cli_refuses(attack, capsys):
    expression, message = ATTACKS[attack]
    with pytest.raises(ExpressionError, match=re.escape(message)):
        evaluate(expression, {"x": "1"})
    with pytest.raises(SystemExit) as info:
        cli.main(["explain", expression, "--at", "x=1"])
    assert info.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize("value, message", [
    ("__import__('os')", "a value must be a number or a list of numbers"),
    ("[1, 'a']", "a value must be a number or a list of numbers"),
    ("[[1, 2], [3]]", "not a rectangular list of numbers"),
    ("x", "a value must be a number or a list of numbers"),
])
def test_values_are_numbers_only(value, message):
    with pytest.raises(ExpressionError, match=re.escape(message)):
        parse_value(value)


def test_at_needs_a_name():
    with pytest.raises(ExpressionError, match="--at takes NAME=VALUE"):
        evaluate("x", {"sin": "1"})
