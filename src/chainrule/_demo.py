"""``python -m chainrule``: the two seed tutorials, run with ``torch`` meaning chainrule.

For each program the demo prints its code, runs it (``import torch`` inside resolves to
chainrule) and prints what it printed, which is exactly what PyTorch 2.13 prints; then it
says in one sentence what autograd did. For the vector-valued cases it also builds the
Jacobian J one row at a time with ``autograd.grad`` and shows that ``y.backward(v)`` is
the vector-Jacobian product J^T·v.
"""
import contextlib
import io
import sys
import textwrap

import chainrule

SEED_000 = '''\
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

SEED_004 = '''\
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

STORY_000 = (
    "out = mean((x + 2)^2) over four entries, so backward() applied the chain rule "
    "d out/dx = 2(x + 2)/4 = 1.5 at x = 1; for the vector y, backward(ones(3)) summed "
    "each input's column of the Jacobian: x.grad = J^T·(1, 1, 1).")

STORY_004 = (
    "out = mean(3(x + 2)^2), so d out/dx = 6(x + 2)/4 = 4.5 at x = 1; for the vector "
    "y = 2x, y.backward(v) never formed J but passed v back through the graph, giving "
    "the vector-Jacobian product J^T·v.")


def _torch_is_chainrule():
    """Make ``import torch`` (and its submodules the seeds use) mean chainrule, for a while."""
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
        exec(compile(code, "<seed>", "exec"), {"__name__": "__seed__"})
    return out.getvalue()


def jacobian(f, x):
    """J[i, j] = d f(x)[i] / d x[j], one backward pass per output.

    ``autograd.grad(y, x, e_i)`` is the vector-Jacobian product J^T·e_i, which is row i of
    J: the same operation as ``y.backward(v)``, with v a basis vector.

    >>> jacobian(lambda x: x * 2, chainrule.ones(2))
    tensor([[2., 0.],
            [0., 2.]])
    """
    x = x.detach().requires_grad_(True)
    y = f(x)
    rows = []
    for i in range(y.numel()):
        e_i = chainrule.zeros(y.numel())
        e_i[i] = 1.0
        (row,) = chainrule.autograd.grad(y, x, grad_outputs=e_i, retain_graph=True)
        rows.append(row.tolist())
    return chainrule.tensor(rows)


def _seed_000_vector(x):
    """Seed 000's vector function, with x = (x1, x2, x3) in one tensor."""
    y = chainrule.zeros(3)
    y[0] = x[0] ** 2 + 2 * x[1] + x[2]
    y[1] = x[0] + x[1] ** 3 + x[2] ** 2
    y[2] = 2 * x[0] + x[1] ** 2 + x[2] ** 3
    return y


def _jvp_report(title, f, x, v, other_v=None):
    """J, v and J^T·v as chainrule computes them, and the check against backward(v)."""
    J = jacobian(f, x)
    leaf = x.detach().requires_grad_(True)
    f(leaf).backward(v)
    lines = [title,
             f"J =\n{J}",
             f"v = {v}",
             f"J^T·v = {J.T @ v}",
             f"x.grad after y.backward(v) = {leaf.grad}  (the same: backward computes J^T·v)"]
    if other_v is not None:
        lines.append(f"the tutorial's weights v = {other_v}: J^T·v = {J.T @ other_v}")
    return "\n".join(lines)


def _section(title, body):
    return f"--- {title} ---\n{body.rstrip()}\n"


def main():
    print("chainrule: PyTorch's autograd on NumPy. Two seed tutorials, run with `torch` = chainrule.\n")
    programs = [
        ("seed_000_backward_and_gradient.py", SEED_000, STORY_000,
         _jvp_report("Jacobian of y = (x1²+2x2+x3, x1+x2³+x3², 2x1+x2²+x3³) at x = (1, 2, 3):",
                     _seed_000_vector, chainrule.tensor([1.0, 2.0, 3.0]), chainrule.ones(3),
                     other_v=chainrule.tensor([3.0, 2.0, 1.0]))),
        ("seed_004_jacobian_vector_product.py", SEED_004, STORY_004,
         _jvp_report("Jacobian of y = x * 2 at x = (1, 1, 1):",
                     lambda x: x * 2, chainrule.ones(3), chainrule.tensor([0.1, 1.0, 10]))),
    ]
    for n, (name, code, story, report) in enumerate(programs, 1):
        print(f"=== {n}. {name} ===")
        print(_section("code", code))
        print(_section("output", run_program(code)))
        print(_section("what autograd did", textwrap.fill(story, 88, break_on_hyphens=False)))
        print(_section("the Jacobian, row by row", report))


if __name__ == "__main__":
    main()
