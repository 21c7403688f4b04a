"""``python -m chainrule``: the two tutorials this project comes from, run and explained
(see ``_demo.py``).

``python -m chainrule explain "3*(x+2)**2" --at x=1``: the chain rule for an expression
typed at the shell, node by node (see ``viz.explain``); the expression is parsed into a
whitelist of math (``viz.expression``), never evaluated as Python.
"""
import argparse
import os
import sys

from ._demo import main as demo
from .viz.explain import explain
from .viz.expression import ExpressionError, evaluate, parse_value


def explain_command(argv):
    parser = argparse.ArgumentParser(
        prog="python -m chainrule explain",
        description="Spell out the chain rule for an expression: each backward node's local derivative, "
                    "the gradient it passes on, and each variable's gradient.")
    parser.add_argument("expression", help='math in Python syntax, e.g. "3*(x+2)**2" or "sin(x)*y"')
    parser.add_argument("--at", action="append", default=[], metavar="NAME=VALUE",
                        help='a variable\'s value: a number or a list, e.g. --at x=1 or --at "x=[1,2]"; '
                             "once per variable")
    parser.add_argument("--gradient", metavar="VALUE",
                        help="v for a non-scalar result (backward(v) computes J^T·v); default: ones")
    args = parser.parse_args(argv)
    values = {}
    for item in args.at:
        name, _, value = item.partition("=")
        values[name.strip()] = value
    try:
        out, leaves = evaluate(args.expression, values)
        gradient = None
        if args.gradient is not None:
            gradient = parse_value(args.gradient).detach()
        elif out.numel() != 1:
            gradient = out.detach() * 0 + 1
    except ExpressionError as e:
        parser.error(str(e))
    explain(out, leaves, gradient)


def main(argv):
    try:
        if argv[:1] == ["explain"]:
            explain_command(argv[1:])
        elif not argv:
            demo()
        else:
            sys.exit(f"usage: python -m chainrule [explain EXPRESSION --at NAME=VALUE ...]; unknown {argv[0]!r}")
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly, as Python's docs advise, with
        # stdout pointed at devnull so that the flush at exit cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
