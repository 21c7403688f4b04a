"""Math typed at the shell, for ``python -m chainrule explain "3*(x+2)**2" --at x=1``.

The text is parsed with ``ast`` and only a whitelist is accepted: numbers, the
variables given with ``--at``, ``+ - * / ** %`` and unary minus, and calls of a fixed
set of math functions with positional arguments. Anything else (``__import__('os')``,
attribute access, other calls, subscripts, strings, lambdas, comprehensions, huge
exponents) is refused with an ``ExpressionError`` before anything is evaluated; the
tree is then evaluated by this module's own walk, never by ``eval``.

    >>> out, leaves = evaluate("3*(x+2)**2", {"x": "1"})
    >>> out
    tensor(27., grad_fn=<MulBackward0>)
"""
import ast
import math

from .._ops import creation as _creation
from .._core import tensor as _tensor
from ..nn import functional as F

MAX_LENGTH = 500     # characters of an expression
MAX_EXPONENT = 100   # |n| in a ** n with a number n
MAX_NODES = 200      # nodes of the syntax tree
MAX_VALUES = 10000   # entries of one --at value


class ExpressionError(ValueError):
    """The expression (or an --at value) is not in the accepted subset of Python."""


Tensor = _tensor.Tensor


def _power(base, exponent):
    if not isinstance(exponent, Tensor) and abs(exponent) > MAX_EXPONENT:
        raise ExpressionError(f"the exponent {exponent!r} is too large: at most {MAX_EXPONENT} in size")
    return base ** exponent


FUNCTIONS = {"sin": Tensor.sin, "cos": Tensor.cos, "tan": Tensor.tan, "asin": Tensor.asin, "acos": Tensor.acos,
             "atan": Tensor.atan, "sinh": Tensor.sinh, "cosh": Tensor.cosh, "tanh": Tensor.tanh,
             "exp": Tensor.exp, "expm1": Tensor.expm1, "log": Tensor.log, "log1p": Tensor.log1p,
             "sqrt": Tensor.sqrt, "abs": Tensor.abs, "sigmoid": Tensor.sigmoid, "relu": F.relu,
             "sum": Tensor.sum, "mean": Tensor.mean}
CONSTANTS = {"pi": math.pi, "e": math.e}
BINARY = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
          ast.Div: lambda a, b: a / b, ast.Pow: _power, ast.Mod: lambda a, b: a % b}
UNARY = {ast.USub: lambda a: -a, ast.UAdd: lambda a: +a}
_WORDS = {ast.Attribute: "attribute access", ast.Subscript: "subscripts", ast.Lambda: "lambdas",
          ast.ListComp: "comprehensions", ast.SetComp: "comprehensions", ast.DictComp: "comprehensions",
          ast.GeneratorExp: "comprehensions", ast.JoinedStr: "strings", ast.Compare: "comparisons",
          ast.BoolOp: "'and'/'or'", ast.IfExp: "conditional expressions", ast.NamedExpr: "assignments",
          ast.Starred: "'*' unpacking", ast.Dict: "dicts", ast.Set: "sets", ast.Tuple: "tuples",
          ast.List: "lists", ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield",
          ast.Slice: "slices"}


def _parse(text, what):
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"{what} is {len(text)} characters long; at most {MAX_LENGTH} are accepted")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError) as e:
        raise ExpressionError(f"{what} is not valid Python syntax: {e.msg if hasattr(e, 'msg') else e}") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ExpressionError(f"{what} is too long: at most {MAX_NODES} syntax nodes are accepted")
    return tree.body


def _refuse(node):
    kind = _WORDS.get(type(node), type(node).__name__)
    raise ExpressionError(f"{kind}: not allowed; an expression has only numbers, variables, "
                          f"+ - * / ** %, and the functions {', '.join(sorted(FUNCTIONS))}")


def check(node, variables):
    """Raises ExpressionError unless every node of the tree is on the whitelist."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Constant):
            if isinstance(n.value, bool) or not isinstance(n.value, (int, float)):
                raise ExpressionError(f"only numbers are allowed as constants, not {type(n.value).__name__} "
                                      f"{n.value!r}")
        elif isinstance(n, ast.Name):
            if n.id not in variables and n.id not in CONSTANTS:
                given = ", ".join(sorted(variables)) or "none"
                raise ExpressionError(f"unknown name {n.id!r}: give its value with --at {n.id}=VALUE "
                                      f"(variables given: {given}; constants: pi, e)")
        elif isinstance(n, ast.BinOp) and type(n.op) in BINARY:
            if isinstance(n.op, ast.Pow):
                _check_exponent(n.right)
            stack += [n.left, n.right]
        elif isinstance(n, ast.UnaryOp) and type(n.op) in UNARY:
            stack.append(n.operand)
        elif isinstance(n, ast.Call):
            if not isinstance(n.func, ast.Name) or n.func.id not in FUNCTIONS:
                called = n.func.id if isinstance(n.func, ast.Name) else ast.unparse(n.func)
                raise ExpressionError(f"calling {called!r} is not allowed: the functions are "
                                      f"{', '.join(sorted(FUNCTIONS))}")
            if n.keywords or len(n.args) != 1:
                raise ExpressionError(f"{n.func.id}() takes exactly one positional argument")
            stack += n.args
        elif isinstance(n, (ast.BinOp, ast.UnaryOp)):
            raise ExpressionError(f"the operator {type(n.op).__name__} is not allowed: only + - * / ** %")
        else:
            _refuse(n)


def _check_exponent(node):
    """A number written as the exponent must be small (computed ones are checked when
    evaluated, see ``_power``)."""
    value = _constant_value(node)
    if value is not None and abs(value) > MAX_EXPONENT:
        raise ExpressionError(f"the exponent {value!r} is too large: at most {MAX_EXPONENT} in size")


def _constant_value(node):
    sign = 1
    while isinstance(node, ast.UnaryOp) and type(node.op) in UNARY:
        sign = -sign if isinstance(node.op, ast.USub) else sign
        node = node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return sign * node.value
    return None


def _run(node, env):
    """Evaluates a checked tree; numbers stay Python floats (as in ``3 * x``)."""
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.Name):
        return env[node.id] if node.id in env else CONSTANTS[node.id]
    if isinstance(node, ast.BinOp):
        left, right = _run(node.left, env), _run(node.right, env)
        try:
            return BINARY[type(node.op)](left, right)
        except (OverflowError, ZeroDivisionError) as e:
            raise ExpressionError(f"{ast.unparse(node)}: {e}") from None
    if isinstance(node, ast.UnaryOp):
        return UNARY[type(node.op)](_run(node.operand, env))
    value = _run(node.args[0], env)
    if not isinstance(value, Tensor):
        value = _creation.tensor(value)
    return FUNCTIONS[node.func.id](value)


def parse_value(text):
    """An --at value: a number or a (nested) list of numbers, as a float tensor."""
    node = _parse(text, "the value")

    def literal(n):
        if isinstance(n, ast.List):
            return [literal(e) for e in n.elts]
        value = _constant_value(n)
        if value is None:
            raise ExpressionError(f"a value must be a number or a list of numbers, not {ast.unparse(n)!r}")
        return float(value)
    value = literal(node)
    try:
        t = _creation.tensor(value, requires_grad=True)
    except (ValueError, TypeError, RuntimeError) as e:
        raise ExpressionError(f"the value {text!r} is not a rectangular list of numbers: {e}") from None
    if t.numel() > MAX_VALUES:
        raise ExpressionError(f"a value may have at most {MAX_VALUES} entries")
    return t


def parse_assignment(text):
    """``x=1`` or ``x=[1,2]`` -> ("x", tensor)."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier() or name in FUNCTIONS or name in CONSTANTS:
        raise ExpressionError(f"--at takes NAME=VALUE with a new variable name, not {text!r}")
    return name, parse_value(value)


def evaluate(text, values):
    """``text`` evaluated at ``values`` (name -> value text): (output, {name: leaf})."""
    leaves = dict(parse_assignment(f"{name}={value}") for name, value in values.items())
    tree = _parse(text, "the expression")
    check(tree, leaves)
    out = _run(tree, leaves)
    if not isinstance(out, Tensor) or not out.requires_grad:
        raise ExpressionError("the expression uses none of the variables, so there is nothing to differentiate")
    return out, leaves
