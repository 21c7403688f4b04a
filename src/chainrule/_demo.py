"""``python -m chainrule``: the two tutorials this project comes from, run with ``torch``
meaning chainrule.

For each program the demo prints its code, runs it (``import torch`` inside resolves to
chainrule) and prints what it printed, which is exactly what PyTorch 2.13 prints; then it
says in one sentence what autograd did. For the vector-valued cases it builds the
Jacobian J one row at a time, one backward per row, printing each row, and shows that
``y.backward(v)`` is the vector-Jacobian product J^T·v; every number it prints comes
after the code that makes it. It ends with the graph of tutorial 2's ``out``, drawn by
``viz.draw``, and ``explain``'s account of the chain rule through it.
"""
import contextlib
import io
import os
import sys
import tempfile
import textwrap

import chainrule
from .viz.explain import jacobian_rows, number

TUTORIAL_1 = '''\
import torch
from torch.autograd import Variable
import torch.nn as nn
import torch.nn.functional as F
#反向传播
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y
out = z.mean()
# 如果没有下面这一行，x.grad=none
out.backward()
print("x.grad:{}\\n".format(x.grad))
import torch
x1=torch.tensor(1, requires_grad=True, dtype = torch.float)
x2=torch.tensor(2, requires_grad=True, dtype = torch.float)
x3=torch.tensor(3, requires_grad=True, dtype = torch.float)
y=torch.randn(3) # produce a random vector for vector function define
y[0]=x1**2+2*x2+x3 # define each vector function
y[1]=x1+x2**3+x3**2
y[2]=2*x1+x2**2+x3**3
y.backward(torch.ones(3))
print(x1.grad)
print(x2.grad)
print(x3.grad)
'''

TUTORIAL_2 = '''\
import torch
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
out.backward()
print("grad of x: ", x.grad)
print(x.grad)
x = torch.ones(3, requires_grad=True)
y = x * 2
v = torch.tensor([0.1, 1.0, 10], dtype=torch.float)
y.backward(v)
print(x.grad)
'''

STORY_1 = (
    "out = mean((x + 2)^2) over four entries, so backward() applied the chain rule "
    "d out/dx = 2(x + 2)/4 = 1.5 at x = 1; for the vector y, backward(ones(3)) summed "
    "each input's column of the Jacobian: x.grad = J^T·(1, 1, 1).")

STORY_2 = (
    "out = mean(3(x + 2)^2), so d out/dx = 6(x + 2)/4 = 4.5 at x = 1; for the vector "
    "y = 2x, y.backward(v) never formed J but passed v back through the graph, giving "
    "the vector-Jacobian product J^T·v.")


def _torch_is_chainrule():
    """Make ``import torch`` (and its submodules the tutorials use) mean chainrule, for a while."""
    names = {"torch": chainrule, "torch.autograd": chainrule.autograd, "torch.nn": chainrule.nn,
             "torch.nn.functional": chainrule.nn.functional}
    saved = {name: sys.modules.get(name) for name in names}

    @contextlib.contextmanager
    def aliased():
        sys.modules.update(names)
        try:
            yield
        finally:
            for name, module in saved.items():
                if module is None:
                    sys.modules.pop(name, None)
                else:
                    sys.modules[name] = module
    return aliased()


def run_program(code):
    """What ``code`` prints when ``torch`` is chainrule."""
    out = io.StringIO()
    with _torch_is_chainrule(), contextlib.redirect_stdout(out):
        exec(compile(code, "<tutorial>", "exec"), {"__name__": "__tutorial__"})
    return out.getvalue()


JACOBIAN_1 = """\
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)   # (x1, x2, x3) in one tensor
y = torch.zeros(3)
y[0] = x[0] ** 2 + 2 * x[1] + x[2]
y[1] = x[0] + x[1] ** 3 + x[2] ** 2
y[2] = 2 * x[0] + x[1] ** 2 + x[2] ** 3
"""

JACOBIAN_2 = """\
x = torch.ones(3, requires_grad=True)
y = x * 2
"""

ROW_CODE = """\
for i in range(3):   # one backward per row: grad(y, x, e_i) = J^T·e_i = row i of J
    e_i = torch.zeros(3); e_i[i] = 1
    row, = torch.autograd.grad(y, x, e_i, retain_graph=True)
"""

GRAPH_CODE = """\
x = torch.ones(2, 2, requires_grad=True)   # tutorial 2's out, again
y = x + 2
z = y * y * 3
out = z.mean()
torch.viz.draw(out, path, params={"x": x})
torch.explain(out, {"x": x})
"""


def _run_jacobian(code, **names):
    """Runs ``code`` with ``torch`` = chainrule (and ``names``); returns its variables."""
    names["torch"] = chainrule
    exec(compile(code, "<jacobian>", "exec"), names)
    return names


def _vector(values):
    return "(" + ", ".join(number(v) for v in values) + ")"


def _jacobian_section(code, v_code, v, other=None):
    """J row by row (each row printed as its backward returns it), then v and J^T·v."""
    names = _run_jacobian(code)
    x, y = names["x"], names["y"]
    lines = [code + ROW_CODE]
    rows = []
    for i, row in enumerate(jacobian_rows(y, [x])):
        rows.append(row)
        lines.append(f"row {i} of J = d y[{i}]/dx = {_vector(row)}")
    lines.append("")
    lines.append(v_code)
    product = [sum(rows[i][j] * float(v[i]) for i in range(len(rows))) for j in range(len(rows[0]))]
    lines.append(f"J^T·v = {_vector(product)}: the x.grad that y.backward(v) printed above")
    if other is not None:
        other_code, other_v = other
        lines.append("")
        lines.append(other_code)
        product = [sum(rows[i][j] * float(other_v[i]) for i in range(len(rows))) for j in range(len(rows[0]))]
        lines.append(f"J^T·v = {_vector(product)}: the tutorial's gradient for its weights")
    return "\n".join(lines)


def _graph_output():
    """What ``GRAPH_CODE`` prints: where the picture went, then ``explain``'s text."""
    path = os.path.join(tempfile.gettempdir(), "chainrule_tutorial_2_graph.svg")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        _run_jacobian(GRAPH_CODE, path=path)
    return f"the graph is drawn in {path} (open it in a browser)\n\n{printed.getvalue()}"


def _section(title, body):
    return f"--- {title} ---\n{body.rstrip()}\n"


def main():
    print("chainrule: PyTorch's autograd on NumPy. The two tutorials this project comes from, run with "
          "`torch` = chainrule.\n")
    programs = [
        ("tutorial_1_backward_and_gradient.py", TUTORIAL_1, STORY_1,
         _jacobian_section(JACOBIAN_1, "v = torch.ones(3)   # the gradient the tutorial's y.backward got",
                           chainrule.ones(3),
                           ("v = torch.tensor([3.0, 2.0, 1.0])   # the tutorial's weights for y1, y2, y3",
                            chainrule.tensor([3.0, 2.0, 1.0])))),
        ("tutorial_2_jacobian_vector_product.py", TUTORIAL_2, STORY_2,
         _jacobian_section(JACOBIAN_2, "v = torch.tensor([0.1, 1.0, 10])   # the tutorial's v",
                           chainrule.tensor([0.1, 1.0, 10]))),
    ]
    for n, (name, code, story, report) in enumerate(programs, 1):
        print(f"=== {n}. {name} ===")
        print(_section("code", code))
        print(_section("output", run_program(code)))
        print(_section("what autograd did", textwrap.fill(story, 88, break_on_hyphens=False)))
        print(_section("the Jacobian, row by row", report))
    print("=== 3. the graph of tutorial 2's out, and the chain rule through it ===")
    print(_section("code", GRAPH_CODE))
    print(_section("output", _graph_output()))


if __name__ == "__main__":
    main()
