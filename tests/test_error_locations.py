"""Errors that name the user's line: after PyTorch's text (kept exactly: ``str(error)``),
one line more, as an exception note (see _autograd/anomaly_mode.py, "Error lines").

Each program is written to a file and run from there, so the file and line numbers the
notes name are known.
"""
import os
import runpy
import subprocess
import sys
import textwrap

import pytest

import chainrule
from chainrule._autograd import anomaly_mode
from helpers import require_torch

HEADER = "import chainrule as torch\n"


def run_program(tmp_path, body, lib="chainrule"):
    """Runs ``body`` (after ``import <lib> as torch``) from a file; returns (path, error)."""
    path = tmp_path / "prog.py"
    path.write_text(f"import {lib} as torch\n" + textwrap.dedent(body), encoding="utf-8")
    with pytest.raises(RuntimeError) as info:
        runpy.run_path(str(path))
    return str(path), info.value


def note(error):
    notes = getattr(error, "__notes__", [])
    assert len(notes) == 1, notes
    return notes[0]


IN_PLACE = {  # program, (changed line, its source), (saved line, its source), node
    "add_": ("""\
        x = torch.ones(2, 2, requires_grad=True)
        y = x + 2
        z = y * y
        y.add_(1)
        z.sum().backward()
        """, (5, "y.add_(1)"), (4, "z = y * y"), "MulBackward0"),
    "setitem": ("""\
        x = torch.ones(3, requires_grad=True)
        y = x * 1
        z = y.sin()
        y[0] = 5.0
        z.sum().backward()
        """, (5, "y[0] = 5.0"), (4, "z = y.sin()"), "SinBackward0"),
    "through_a_view": ("""\
        x = torch.ones(4, requires_grad=True)
        y = x * 1
        z = y.cos()
        view = y[1:]
        view.mul_(2)
        z.sum().backward()
        """, (6, "view.mul_(2)"), (4, "z = y.cos()"), "CosBackward0"),
    "under_no_grad": ("""\
        w = torch.ones(3, requires_grad=True)
        h = (w * 3).tanh()
        loss = (h * w).sum()
        with torch.no_grad():
            w.sub_(0.1)
        loss.backward()
        """, (6, "w.sub_(0.1)"), (4, "loss = (h * w).sum()"), "MulBackward0"),
    "saved_output": ("""\
        x = torch.ones(3, requires_grad=True)
        y = (x * 2).exp()
        y += 1
        y.sum().backward()
        """, (4, "y += 1"), (3, "y = (x * 2).exp()"), "ExpBackward0"),
}


@pytest.mark.parametrize("case", IN_PLACE, ids=str)
def test_inplace_error_names_where_the_tensor_was_changed_and_saved(tmp_path, case):
    body, (changed, changed_src), (saved, saved_src), node = IN_PLACE[case]
    body = textwrap.dedent(body)
    path, error = run_program(tmp_path, body)
    assert str(error).startswith("one of the variables needed for gradient computation has been modified by an "
                                 "inplace operation:")
    assert note(error) == (f"chainrule: it was changed in place at {path}:{changed} in <module>: `{changed_src}`, "
                           f"after {node} saved it at {path}:{saved} in <module>: `{saved_src}`.")


@pytest.mark.parametrize("case", IN_PLACE, ids=str)
def test_inplace_error_text_is_torchs(tmp_path, case):
    require_torch()
    body = IN_PLACE[case][0]
    _, ours = run_program(tmp_path, body)
    _, theirs = run_program(tmp_path, body, lib="torch")
    assert str(ours) == str(theirs)


def test_custom_function_saved_tensor(tmp_path):
    path, error = run_program(tmp_path, """\
        class Square(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return 2 * x * g

        a = torch.ones(2, requires_grad=True)
        b = a * 1
        out = Square.apply(b)
        b.mul_(3)
        out.sum().backward()
        """)
    assert note(error).startswith(f"chainrule: it was changed in place at {path}:16 in <module>: `b.mul_(3)`, "
                                  "after SquareBackward saved it")


def test_lines_can_be_switched_off_and_cheap_anomaly_mode_still_names_the_op(tmp_path):
    anomaly_mode.set_error_lines(False)
    try:
        body = textwrap.dedent(IN_PLACE["add_"][0])
        _, error = run_program(tmp_path, body)
        assert getattr(error, "__notes__", []) == []
        path, error = run_program(tmp_path, "torch.autograd.set_detect_anomaly(True, cheap=True)\n" + body)
        chainrule.autograd.set_detect_anomaly(False)
        assert note(error) == (f"chainrule: MulBackward0 saved it at {path}:5 in <module>: `z = y * y`; where it "
                               "was changed in place was not recorded.")
    finally:
        anomaly_mode.set_error_lines(True)
        chainrule.autograd.set_detect_anomaly(False)


def test_a_node_made_before_recording_was_on_says_so(tmp_path):
    path, error = run_program(tmp_path, """\
        from chainrule._autograd import anomaly_mode
        x = torch.ones(2, requires_grad=True)
        anomaly_mode.set_error_lines(False)
        y = x * 1
        z = y * y
        anomaly_mode.set_error_lines(True)
        y.add_(1)
        z.sum().backward()
        """)
    assert note(error) == (f"chainrule: it was changed in place at {path}:8 in <module>: `y.add_(1)`, after "
                           "MulBackward0 saved it (where is not recorded: "
                           "chainrule.autograd.set_detect_anomaly(True, cheap=True) records it).")


NON_SCALAR = """\
x = torch.ones(3, requires_grad=True)
y = x * 2
y.backward()
"""


def test_non_scalar_backward_names_the_shape_the_line_and_the_call(tmp_path):
    path, error = run_program(tmp_path, NON_SCALAR)
    assert str(error) == "grad can be implicitly created only for scalar outputs"
    assert note(error) == (f"Hint: the output has shape torch.Size([3]) at {path}:4 in <module>: `y.backward()`; "
                           "y.backward(torch.ones_like(y)) gives the gradient of y.sum(), and any gradient=v of "
                           "that shape works: backward computes J^T·v.")


def test_non_scalar_backward_text_is_torchs(tmp_path):
    require_torch()
    _, ours = run_program(tmp_path, NON_SCALAR)
    _, theirs = run_program(tmp_path, NON_SCALAR, lib="torch")
    assert str(ours) == str(theirs)


def test_non_scalar_through_autograd_backward(tmp_path):
    path, error = run_program(tmp_path, """\
        x = torch.ones(2, 2, requires_grad=True)
        torch.autograd.backward(x * 2)
        """)
    assert note(error).startswith(f"Hint: the output has shape torch.Size([2, 2]) at {path}:3 in <module>: "
                                  "`torch.autograd.backward(x * 2)`; output.backward(torch.ones_like(output))")


def test_the_traceback_prints_the_line_after_torchs_text(tmp_path):
    path = tmp_path / "prog.py"
    path.write_text(HEADER + textwrap.dedent(IN_PLACE["add_"][0]), encoding="utf-8")
    run = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    last = run.stderr.rstrip("\n").splitlines()[-2:]
    assert last[0].startswith("RuntimeError: one of the variables needed for gradient computation")
    assert last[1] == (f"chainrule: it was changed in place at {path}:5 in <module>: `y.add_(1)`, after "
                       f"MulBackward0 saved it at {path}:4 in <module>: `z = y * y`.")
