"""Products of many operands: ``einsum`` and chains of matrix products (``multi_dot``,
``chain_matmul``), each contracted in the order PyTorch picks.

They are apart from ``linalg`` (products of two operands) because the order of
contraction, not the product, is their concern; the two-operand products they end in
come from there.

>>> a, b = chainrule.ones(2, 3), chainrule.ones(3, 4)
>>> einsum("ij,jk->ik", a, b).shape
torch.Size([2, 4])
"""
import warnings

import numpy as np

from ..._core import dtype as _dtype
from ..registry import apply, defop
from ..._core.tensor import _C_TYPE_NAMES
from .products import _scalar_type_check, mm

# --- einsum --------------------------------------------------------------------------------
# One np.einsum per op, on one or two operands (more are contracted left to right, as
# PyTorch does). The equation may carry constant NumPy operands: the gradient for an
# operand is the einsum of the output gradient with the other operands, and where that
# operand has a label nothing else has (summed away) or has one twice (a diagonal), ones
# or an identity stand in for it. PyTorch's output node depends on how its einsum ends
# (a view after contracting, a product when nothing is summed, for one operand a sum or
# a permute): the same op under those four names.

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _parse_equation(equation):
    """"ij,jk->ik" -> ([["i", "j"], ["j", "k"]], ["i", "k"]) (the ops' equations have no ellipsis)."""
    lhs, rhs = equation.split("->")
    return [list(s) for s in lhs.split(",")], list(rhs)


def np_einsum(equation, *arrays, **options):
    """np.einsum, but an empty operand gives zeros: CI's NumPy left float32 garbage in a sum
    over an empty dim (an empty operand's dim is either summed, a zero, or in the output)."""
    out = np.einsum(equation, *arrays, **options)
    if any(np.size(a) == 0 for a in arrays):
        out = np.zeros_like(out)
    return out


def _einsum_forward(*args):
    *arrays, (equation, constants) = args
    return np_einsum(equation, *arrays, *constants)


def _einsum_tangent(t, k, operands, spec):
    """The op is linear in each operand: its tangent is the op with operand k replaced."""
    args = list(operands)
    args[k] = t
    return einsum_op(args, spec)


def _einsum_grad(g, k, operands, spec):
    """The gradient for operand k: the output gradient contracted with the other operands
    (and the spec's constants)."""
    equation, constants = spec
    inputs, output = _parse_equation(equation)
    target, shape = inputs[k], operands[k]._data.shape
    others = [s for j, s in enumerate(inputs) if j != k]  # the other operands', then the constants' labels
    tensors = [g] + [t.conj() for j, t in enumerate(operands) if j != k]
    available = {label for s in [output] + others for label in s}
    fresh = iter(c for c in _LETTERS if c not in available and c not in target)
    out, extra_subs, extra = [], [], []
    for label, size in zip(target, shape):
        if label in out:  # a repeated label: the gradient lies on the diagonal
            new = next(fresh)
            extra_subs.append(label + new)
            extra.append(np.eye(size, dtype=g._data.dtype))
            out.append(new)
            continue
        if label not in available:  # summed away in the forward: the gradient is constant along it
            extra_subs.append(label)
            extra.append(np.ones(size, g._data.dtype))
        out.append(label)
    subscripts = ["".join(s) for s in [output] + others] + extra_subs
    return einsum_op(tensors, (",".join(subscripts) + "->" + "".join(out), tuple(constants) + tuple(extra)))


def _einsum_batched(op, args, batched, params, dtype):
    """A batch of einsums is one einsum: the batch dim gets a label of its own, on the
    batched operands and in front of the output ("ij,jk->ik" as "Aij,jk->Aik")."""
    equation, constants = params[0]
    inputs, output = _parse_equation(equation)
    label = next(c for c in _LETTERS if c not in equation)
    flags = list(batched) + [False] * len(constants)  # the constants are never batched
    lhs = ",".join(label * b + "".join(s) for s, b in zip(inputs, flags))
    return apply(op, args, ((lhs + "->" + label + "".join(output), constants),), dtype)


def _einsum_rules(node, n):
    def operands_and_spec(rest):
        return rest[:-1], rest[-1]
    return dict(node=node, batch=_einsum_batched, save=lambda ans, *args: args,
                vjp=tuple((lambda g, *rest, k=k: _einsum_grad(g, k, *operands_and_spec(rest)))
                          for k in range(n)),
                jvp=tuple((lambda t, *rest, k=k: _einsum_tangent(t, k, *operands_and_spec(rest)))
                          for k in range(n)))


EINSUM_ONE_SUM = defop("einsum_one_sum", _einsum_forward, **_einsum_rules("SumBackward1", 1))
EINSUM_ONE_PERMUTE = defop("einsum_one_permute", _einsum_forward, **_einsum_rules("PermuteBackward0", 1))
EINSUM_TWO_VIEW = defop("einsum_two_view", _einsum_forward, **_einsum_rules("ViewBackward0", 2))
EINSUM_TWO_MUL = defop("einsum_two_mul", _einsum_forward, **_einsum_rules("MulBackward0", 2))


def einsum_op(operands, spec, contracts=True):
    """np.einsum(*spec) of one or two tensors, named as PyTorch's einsum would end:
    ``contracts``: some label (or the ellipsis) is summed away."""
    if len(operands) == 1:
        op = EINSUM_ONE_SUM if contracts else EINSUM_ONE_PERMUTE
    else:
        op = EINSUM_TWO_VIEW if contracts else EINSUM_TWO_MUL
    return apply(op, tuple(operands), (spec,))


def _einsum_error(message):
    return RuntimeError("einsum(): " + message)


def _sublist_equation(args):
    """einsum(op0, [0, 1], op1, [1, 2], [0, 2]) as "ab,bc->ac" and the operands."""
    output = args[-1] if len(args) % 2 else None
    args = args[:-1] if len(args) % 2 else args
    operands, subs = list(args[0::2]), list(args[1::2])

    def letters(sub):  # PyTorch's order: 0-25 are A-Z, 26-51 a-z
        return "".join("..." if s is Ellipsis else _LETTERS[s] for s in sub)
    equation = ",".join(letters(s) for s in subs)
    if output is not None:
        equation += "->" + letters(output)
    return equation, operands


def _einsum_labels(lhs, operands):
    """Each operand's labels ("..." one token), with PyTorch's errors."""
    inputs, i = [[]], 0
    while i < len(lhs):
        c = lhs[i]
        if c == ".":
            if "..." in inputs[-1]:
                raise _einsum_error(f"found '.' for operand {len(inputs) - 1} for which an ellipsis was already found")
            if lhs[i:i + 3] != "...":
                raise _einsum_error(f"found '.' for operand {len(inputs) - 1} that is not part of any ellipsis")
            inputs[-1].append("...")
            i += 2
        elif c == ",":
            if len(inputs) == len(operands):
                raise _einsum_error("fewer operands were provided than specified in the equation")
            inputs.append([])
        elif c in _LETTERS:
            inputs[-1].append(c)
        elif c != " ":
            raise _einsum_error(f"invalid subscript given at index {i} in the equation string, subscripts must be "
                                "in [a-zA-Z]")
        i += 1
    if len(inputs) != len(operands):
        raise _einsum_error("more operands were provided than specified in the equation")
    for k, (labels, op) in enumerate(zip(inputs, operands)):
        n_labels, ndim = len(labels) - labels.count("..."), op._data.ndim
        if "..." in labels and n_labels > ndim:
            raise _einsum_error(f"the number of subscripts in the equation ({n_labels}) is more than the number "
                                f"of dimensions ({ndim}) for operand {k}")
        if "..." not in labels and n_labels != ndim:
            raise _einsum_error(f"the number of subscripts in the equation ({n_labels}) does not match the number "
                                f"of dimensions ({ndim}) for operand {k} and no ellipsis was given")
    return inputs


def _einsum_output(equation, lhs_length, inputs):
    """The output's labels: as written after "->", else the ellipsis and the labels seen once."""
    counts = {}
    for labels in inputs:
        for label in labels:
            counts[label] = counts.get(label, 0) + 1
    if "->" not in equation:
        return ["..."] * ("..." in counts) + sorted(c for c, n in counts.items() if n == 1 and c != "...")
    rhs, output, i = equation.split("->", 1)[1], [], 0
    while i < len(rhs):
        c = rhs[i]
        if c == ".":
            if "..." in output:
                raise _einsum_error("found '.' for output but an ellipsis (...) was already found")
            if rhs[i:i + 3] != "...":
                raise _einsum_error("found '.' for output that is not part of any ellipsis (...)")
            output.append("...")
            i += 2
        elif c in _LETTERS:
            if c in output:
                raise _einsum_error(f"output subscript {c} appears more than once in the output")
            if c not in counts:
                raise _einsum_error(f"output subscript {c} does not appear in the equation for any input operand")
            output.append(c)
        elif c != " ":
            raise _einsum_error(f"invalid subscript given at index {lhs_length + 2 + i} in the equation string, "
                                "subscripts must be in [a-zA-Z]")
        i += 1
    return [c for c in output if c != "..." or "..." in counts]


def _spell_out_ellipsis(inputs, output, operands):
    """The equation with the ellipsis written as letters of its own (right-aligned, as
    its dims broadcast): NumPy can then sum it away, and its dims broadcast like labels."""
    used = {label for labels in inputs + [output] for label in labels}
    counts = [op._data.ndim - len(labels) + 1 for labels, op in zip(inputs, operands) if "..." in labels]
    letters = [c for c in _LETTERS if c not in used][:max(counts, default=0)]

    def spell(labels, n):
        i = labels.index("...") if "..." in labels else None
        return labels if i is None else labels[:i] + letters[len(letters) - n:] + labels[i + 1:]
    inputs = [spell(labels, op._data.ndim - len(labels) + 1) for labels, op in zip(inputs, operands)]
    return inputs, spell(output, len(letters)), set(letters)


def _einsum_broadcast(inputs, operands, ellipsis):
    """Checks the sizes; expands size-1 dims of a label that is longer elsewhere (PyTorch
    broadcasts them, NumPy doesn't)."""
    sizes = {}
    for k, (labels, op) in enumerate(zip(inputs, operands)):
        shape, first = op._data.shape, {}
        for dim, label in enumerate(labels):
            if label in first:
                if shape[dim] != shape[first[label]]:
                    raise _einsum_error(f"subscript {label} is repeated for operand {k} but the sizes don't match, "
                                        f"{shape[dim]} != {shape[first[label]]}")
                continue
            first[label] = dim
            if shape[dim] != 1 and sizes.get(label, 1) not in (1, shape[dim]):
                if label in ellipsis:
                    raise _einsum_error(f"dimension {dim} covered by ellipsis in operand {k}has size {shape[dim]} "
                                        f"which does not broadcast with previously seen ellipsis with size "
                                        f"{sizes[label]} for the respective dimension")
                raise _einsum_error(f"subscript {label} has size {shape[dim]} for operand {k} which does not "
                                    f"broadcast with previously seen size {sizes[label]}")
            if shape[dim] != 1:
                sizes[label] = shape[dim]
    expanded = []
    for labels, op in zip(inputs, operands):
        shape = op._data.shape
        target = [sizes.get(label, 1) if size == 1 and labels.count(label) == 1 else size
                  for label, size in zip(labels, shape)]
        expanded.append(op if tuple(target) == shape else op.expand(target))
    return expanded


def _same_dtype_pair(a, b, by_bmm, by_empty_bmm):
    """PyTorch contracts a pair with bmm, which wants one dtype, when it sums a label both
    have (``by_bmm``); otherwise with a product, which promotes."""
    if by_empty_bmm:  # no kernel runs: the result has b's dtype
        return [a.to(b.dtype), b]
    if by_bmm and a._data.dtype.kind == "b":  # the kernel is chosen by a's dtype, then checks b's
        raise _dtype.not_implemented("bmm", a._data.dtype)
    if a._data.dtype == b._data.dtype:
        return [a, b]
    if by_bmm:
        _scalar_type_check(a, b)
    dtype = _dtype.result_dtype((a, b))
    return [a.to(dtype), b.to(dtype)]


def _summed_alone(inputs, operands, output):
    """For each pair PyTorch's einsum contracts (left to right): whether each side first sums
    a label that only it has (size over 1 nowhere else; that sum promotes an integer or bool
    operand to int64), and whether the pair then sums a label of both by bmm, with values
    on both sides or not. PyTorch's bookkeeping, on the sizes before broadcasting."""
    contraction = [c for c in dict.fromkeys(c for labels in inputs for c in labels) if c not in output]
    sizes = [{c: op._data.shape[i] for i, c in enumerate(labels)} for labels, op in zip(inputs, operands)]
    count = {c: sum(s.get(c, 1) != 1 for s in sizes) for c in contraction}
    running, flags = dict(sizes[0]), []
    for b in sizes[1:]:
        summed_a, summed_b, by_bmm, gone = False, False, False, set()
        for c in contraction:
            sa, sb = running.get(c, 1), b.get(c, 1)
            if sa != 1 and sb != 1:
                count[c] -= 1
                if count[c] == 1:
                    count[c], gone, by_bmm = 0, gone | {c}, True
            elif count[c] == 1 and (sa != 1 or sb != 1):
                summed_a, summed_b, count[c], gone = summed_a or sa != 1, summed_b or sa == 1, 0, gone | {c}
        alone = gone - {c for c in gone if running.get(c, 1) != 1 and b.get(c, 1) != 1}
        values = [all(size for c, size in side.items() if c not in alone) for side in (running, b)]
        flags.append((summed_a, summed_b, by_bmm and all(values), by_bmm and not all(values)))
        running = {c: 1 if c in gone else max(running.get(c, 1), b.get(c, 1)) for c in set(running) | set(b)}
    return flags


def _int64_if(x, summed):
    return x.to(_dtype.int64) if summed and x._data.dtype.kind in "biu" else x


def einsum(*args):
    """Sums products of the operands' elements over the labels of an equation:
    ``einsum("ij,jk->ik", a, b)`` is ``a @ b``. Also ``einsum(eq, [a, b])`` and the
    sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    if isinstance(args[0], str):
        equation, operands = args[0], list(args[1:])
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = list(operands[0])
    else:
        equation, operands = _sublist_equation(args)
    lhs = equation.split("->")[0]
    inputs = _einsum_labels(lhs, operands)
    output = _einsum_output(equation, len(lhs), inputs)
    inputs, output, ellipsis = _spell_out_ellipsis(inputs, output, operands)
    summed_alone = _summed_alone(inputs, operands, output)
    operands = _einsum_broadcast(inputs, operands, ellipsis)
    contracts = bool({label for labels in inputs for label in labels} - set(output))
    if len(operands) == 1:  # a sum (of an integer: in int64) if some label goes
        return einsum_op([_int64_if(operands[0], contracts)], ("".join(inputs[0]) + "->" + "".join(output), ()),
                         contracts)
    result, labels = operands[0], inputs[0]
    for k in range(1, len(operands)):  # left to right, as PyTorch without a path
        later = set(output).union(*inputs[k + 1:])
        kept = output if k == len(operands) - 1 else list(dict.fromkeys(c for c in labels + inputs[k] if c in later))
        equation_k = "".join(labels) + "," + "".join(inputs[k]) + "->" + "".join(kept)
        summed_a, summed_b, *by_bmm = summed_alone[k - 1]
        pair = _same_dtype_pair(_int64_if(result, summed_a), _int64_if(operands[k], summed_b), *by_bmm)
        result, labels = einsum_op(pair, (equation_k, ()), contracts), kept
    return result


# --- chains of products ----------------------------------------------------------------------


def _chain_order(shapes):
    """PyTorch's matrix-chain order: split[i][j] is where to split the product of i..j."""
    n = len(shapes)
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain_product(mats):
    n = len(mats)
    if n == 2:
        return mm(mats[0], mats[1])
    if n == 3:
        a, b, c, d = mats[0]._data.shape[0], mats[1]._data.shape[0], mats[2]._data.shape[0], mats[2]._data.shape[1]
        if a * c * (b + d) > b * d * (a + c):
            return mm(mats[0], mm(mats[1], mats[2]))
        return mm(mm(mats[0], mats[1]), mats[2])
    split = _chain_order([m._data.shape for m in mats])
    pending = [(0, n - 1, None)]  # iterative post-order over the split tree
    done = {}
    while pending:
        i, j, _ = pending.pop()
        if i == j:
            done[i, j] = mats[i]
            continue
        k = split[i][j]
        if (i, k) in done and (k + 1, j) in done:
            done[i, j] = mm(done[i, k], done[k + 1, j])
        else:
            pending += [(i, j, None), (i, k, None), (k + 1, j, None)]
    return done[0, n - 1]


def multi_dot(tensors, *, out=None):
    """The product of a list of matrices in the cheapest order; the first and last may be vectors."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    mats = list(tensors)
    for t, which, pos in ((first, "first", 0), (last, "last", -1)):
        if t._data.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {which} tensor must be 1D or 2D but got {t._data.ndim}D")
    mats[0] = first.unsqueeze(0) if first._data.ndim == 1 else first
    mats[-1] = last.unsqueeze(-1) if last._data.ndim == 1 else last
    shape = first._data.shape[:-1] + last._data.shape[1:]  # the vectors' dims are dropped
    for i in range(1, n - 1):
        if tensors[i]._data.ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i]._data.ndim}D")
    for i in range(1, n):
        if mats[i]._data.dtype != mats[0]._data.dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{_C_TYPE_NAMES[mats[0]._data.dtype.name]} and tensor {i} "
                               f"{_C_TYPE_NAMES[mats[i]._data.dtype.name]}")
        if mats[i - 1]._data.shape[-1] != mats[i]._data.shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(tensors[i - 1]._data.shape)}"
                               f" and {list(tensors[i]._data.shape)} cannot be multiplied")
    return _chain_product(mats).view(shape)


def chain_matmul(*matrices, out=None):
    """Deprecated form of ``linalg.multi_dot`` for matrices given as arguments."""
    warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                  "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
                  "multiple parameters.", UserWarning, stacklevel=2)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for t in matrices:
        if t._data.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {t._data.ndim}, expected 2 instead.")
    return matrices[0].clone() if len(matrices) == 1 else multi_dot(list(matrices))

