"""Matrix products, norms and matrix functions: dot ... matmul, bmm, einsum, the fused
``add*`` products, cross, cdist, vector norms and ``matrix_exp``.

Rules use the conjugate transpose (``mH``) so that complex inputs follow PyTorch's
conjugate Wirtinger convention. Batch broadcasting needs no code of its own: the engine
sums each gradient back to its input's shape.

Several PyTorch functions are compositions whose last op names the output's node
(``tensordot`` ends with a view, ``kron`` with an unsafe view, ``outer`` with a multiply);
they are written here the same way, so ``grad_fn`` shows what PyTorch shows.

The small helpers below (``mH``, ``diagonal``, ``diag_embed``, ``tril``...) are the
building blocks of the gradient rules here and in ``decompositions``: they are chainrule
ops, so the rules can be differentiated again.
"""
import numpy as np

from .. import _dtype
from .._tensor import Tensor, _wrap
from .elementwise import _conj, where
from ..autograd.grad_mode import STATE
from .methods import inplace_method
from .batching import aligned, dim_params, leading, pad
from .registry import apply, binary, broadcast_error, defop, unary
from . import reductions as _reductions
from .shape import unsafe_view, wrap_dim

# --- helpers for the rules: matrices as chainrule ops ---------------------------------------


def mH(x):
    """The conjugate transpose of the last two dims."""
    return x.mT.conj()


def _constant(array, like):
    """A NumPy array as a constant tensor of ``like``'s dtype (so float32 stays float32)."""
    return _wrap(np.asarray(array, dtype=like._data.dtype))


def eye_like(x, n=None):
    """The identity of size ``n`` (default: ``x``'s last dim), in ``x``'s dtype."""
    return _constant(np.eye(x._data.shape[-1] if n is None else n), x)


def diagonal(x):
    """The main diagonal of each square matrix: shape (..., n)."""
    return (x * eye_like(x)).sum(-1)


def diag_embed(v):
    """Square matrices with ``v`` (..., n) on the diagonal."""
    return v.unsqueeze(-1) * eye_like(v)


def tril(x, k=0):
    return x * _constant(np.tri(*x._data.shape[-2:], k), x)


def triu(x, k=0):
    return x * _constant(1 - np.tri(*x._data.shape[-2:], k - 1), x)


def type_name(x):
    """PyTorch's name for a tensor's dtype in messages ("Float", "Long"...)."""
    return _dtype._LEGACY_NAMES[x._data.dtype.name]


def check_floating(x, fn):
    if x._data.dtype.kind not in "fc":
        raise RuntimeError(f"{fn}: Expected a floating point or complex tensor as input. Got {type_name(x)}")


def check_matrix(x, fn, name="A", square=True):
    """PyTorch's checks of a (batch of) matrices argument."""
    if x._data.ndim < 2:
        raise RuntimeError(f"{fn}: The input tensor {name} must have at least 2 dimensions.")
    m, n = x._data.shape[-2:]
    if square and m != n:
        raise RuntimeError(f"{fn}: {name} must be batches of square matrices, but they are {m} by {n} matrices")


_C_NAMES = {"float32": "float", "float64": "double", "complex64": "c10::complex<float>",
            "complex128": "c10::complex<double>", "int64": "long int", "int32": "int"}


def _same_dtype(a, b):
    if a._data.dtype != b._data.dtype:
        names = [_C_NAMES.get(t._data.dtype.name, t._data.dtype.name) for t in (a, b)]
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {names[0]} != {names[1]}")


def _scalar_type_check(a, b):
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected scalar type {type_name(a)} but found {type_name(b)}")


def _scaled(t, number):
    """``t * number``, skipped for 1 (PyTorch's maybe_multiply)."""
    return t if number == 1 else t * number


# --- vector and matrix products ----------------------------------------------------------------

def _dot_batched(op, args, batched, params, dtype):
    """A batch of dot products: the products summed along the last dim."""
    a, b = args
    return ((a.conj() if op is VDOT else a) * b).sum(-1)


def _mv_batched(op, args, batched, params, dtype):
    """A batch of matrix-vector products as one matmul (a batched vector as a column)."""
    m, v = args
    return matmul(m, v.unsqueeze(-1)).squeeze(-1) if batched[1] else matmul(m, v)


def _as_matmul(op, args, batched, params, dtype):
    """A batch of matrix products (mm, bmm) as one broadcasting matmul."""
    args, _ = aligned(args, batched)
    return apply(MATMUL, args, (), dtype)


DOT = defop("dot", np.dot, batch=_dot_batched, node="DotBackward0",
            save=lambda ans, a, b: (a, b),
            vjp=(lambda g, a, b: g * b.conj(), lambda g, a, b: g * a.conj()),
            jvp=(lambda t, a, b: dot(t, b), lambda t, a, b: dot(a, t)))


def _check_vectors(a, b):
    if a._data.ndim != 1 or b._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a._data.ndim}D and {b._data.ndim}D tensors")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {type_name(a)} and "
                           f"{type_name(b)}")
    if a._data.shape != b._data.shape:
        n, m = a._data.shape[0], b._data.shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the "
                           f"same number of elements, but got {n} and {m} elements respectively")


def dot(input, other):
    _check_vectors(input, other)
    return binary(DOT, input, other)


VDOT = defop("vdot", np.vdot, batch=_dot_batched, node="VdotBackward0",
             save=lambda ans, a, b: (a, b),
             vjp=(lambda g, a, b: g.conj() * b, lambda g, a, b: g * a),
             jvp=(lambda t, a, b: vdot(t, b), lambda t, a, b: vdot(a, t)))


def vdot(input, other):
    """``sum(conj(input) * other)`` of two vectors."""
    _check_vectors(input, other)
    return binary(VDOT, input, other)


MV = defop("mv", np.matmul, batch=_mv_batched, node="MvBackward0",
           save=lambda ans, m, v: (m, v),
           vjp=(lambda g, m, v: g.unsqueeze(1) * v.conj(), lambda g, m, v: mv(m.conj().t(), g)),
           jvp=(lambda t, m, v: mv(t, v), lambda t, m, v: mv(m, t)))


def mv(input, vec):
    if input._data.ndim != 2 or vec._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input._data.ndim}, {vec._data.ndim}")
    if input._data.shape[1] != vec._data.shape[0]:
        _mv_size_mismatch(input._data.shape, vec._data.shape)
    _same_dtype(input, vec)
    return binary(MV, input, vec)


def _mv_size_mismatch(mat_shape, vec_shape, rows=None):
    rows = mat_shape[0] if rows is None else rows
    raise RuntimeError(f"size mismatch, got input ({rows}), mat ({mat_shape[0]}x{mat_shape[1]}), "
                       f"vec ({vec_shape[0]})")


MM = defop("mm", np.matmul, batch=_as_matmul, node="MmBackward0",
           save=lambda ans, a, b: (a, b),
           vjp=(lambda g, a, b: mm(g, b.conj().t()), lambda g, a, b: mm(a.conj().t(), g)),
           jvp=(lambda t, a, b: mm(t, b), lambda t, a, b: mm(a, t)))


def _mm_shape_error(sa, sb):
    return RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({sa[0]}x{sa[1]} and {sb[0]}x{sb[1]})")


def mm(input, mat2):
    if input._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if input._data.shape[1] != mat2._data.shape[0]:
        raise _mm_shape_error(input._data.shape, mat2._data.shape)
    _same_dtype(input, mat2)
    return binary(MM, input, mat2)


BMM = defop("bmm", np.matmul, batch=_as_matmul, node="BmmBackward0",
            save=lambda ans, a, b: (a, b),
            vjp=(lambda g, a, b: bmm(g, mH(b)), lambda g, a, b: bmm(mH(a), g)),
            jvp=(lambda t, a, b: bmm(t, b), lambda t, a, b: bmm(a, t)))


def _check_batches(a, b):
    if a._data.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b._data.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    (batch, _, k), (batch2, k2, _) = a._data.shape, b._data.shape
    if (batch2, k2) != (batch, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, {k}] "
                           f"but got: [{batch2}, {k2}].")


def bmm(input, mat2):
    """A batch of matrix products: (b, n, k) @ (b, k, m), without broadcasting."""
    _check_batches(input, mat2)
    _scalar_type_check(input, mat2)
    return binary(BMM, input, mat2)


# batched, broadcasting product of two tensors of at least 2 dims
MATMUL = defop("matmul", np.matmul, batch=leading, node="UnsafeViewBackward0",
               save=lambda ans, a, b: (a, b),
               vjp=(lambda g, a, b: matmul(g, mH(b)), lambda g, a, b: matmul(mH(a), g)),
               jvp=(lambda t, a, b: matmul(t, b), lambda t, a, b: matmul(a, t)))


def _check_batched_shapes(sa, sb):
    """PyTorch's errors for a batched product. It folds a batch of matrices times
    a matrix or vector into one ``mm`` or ``mv`` (so reports their errors), and otherwise
    broadcasts the batch dims (from the right) before a ``bmm``."""
    if len(sa) >= 3 and len(sb) <= 2:
        rows, k = int(np.prod(sa[:-1])), sa[-1]
        if len(sb) == 1 and k != sb[0]:
            _mv_size_mismatch((rows, k), sb)
        if len(sb) == 2 and k != sb[0]:
            raise _mm_shape_error((rows, k), sb)
        return
    batch_a, batch_b = tuple(sa[:-2]), tuple(sb[:-2])  # a 1-d operand has no batch dims
    n = max(len(batch_a), len(batch_b))
    batch_a, batch_b = (1,) * (n - len(batch_a)) + batch_a, (1,) * (n - len(batch_b)) + batch_b
    for i in reversed(range(n)):  # PyTorch reports the last mismatching dim
        x, y = batch_a[i], batch_b[i]
        if x != y and 1 not in (x, y):
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                               f"non-singleton dimension {i}")
    batch = [max(x, y) for x, y in zip(batch_a, batch_b)]
    k_a, k_b = sa[-1], (sb[0] if len(sb) == 1 else sb[-2])
    if k_a != k_b:
        size = int(np.prod(batch))
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{size}, {k_a}] "
                           f"but got: [{size}, {k_b}].")


def matmul(input, other):
    """``input @ other`` with NumPy's (and PyTorch's) rules for 1-d and batched operands."""
    da, db = input._data.ndim, other._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return dot(input, other)
    if da == 2 and db == 1:
        return mv(input, other)
    if da == 2 and db == 2:
        return mm(input, other)
    if da == 1 and db == 2:  # PyTorch: (v[None] @ M).squeeze_(0)
        return unary(SQUEEZE_PRODUCT, mm(input.unsqueeze(0), other), (0,))
    if da == 2 and db >= 3 and input._requires_grad and STATE.enabled:
        # PyTorch folds the batch into one mm here (so that the matrix's gradient is one mm too),
        # on the transposed problem, and ends with a contiguous copy of the transposed result
        k, m = other._data.shape[-2:]
        product = mm(other.mT.reshape(-1, k), input.t())
        return unsafe_view(product, other._data.shape[:-2] + (m, input._data.shape[0])).mT.contiguous()
    _check_batched_shapes(input._data.shape, other._data.shape)
    _same_dtype(input, other)
    a2 = input.unsqueeze(0) if da == 1 else input
    b2 = other.unsqueeze(-1) if db == 1 else other
    out = binary(MATMUL, a2, b2)
    if da == 1 or db == 1:  # drop the added dims as PyTorch does: one reshape (UnsafeViewBackward0)
        shape = out._data.shape
        rows = () if da == 1 else shape[-2:-1]
        cols = () if db == 1 else shape[-1:]
        out = unsafe_view(out, shape[:-2] + rows + cols)
    return out


# the product's own squeeze_ in PyTorch (SqueezeBackward4): out of place here, as nothing else sees it
SQUEEZE_PRODUCT = defop("matmul_squeeze", np.squeeze, batch=dim_params(0), node="SqueezeBackward4", save=lambda ans, x, dim: (dim,),
                        vjp=lambda g, dim: g.unsqueeze(dim), jvp=lambda t, dim: unary(SQUEEZE_PRODUCT, t, (dim,)))


def outer(input, vec2):
    """``input[:, None] * vec2``, as PyTorch computes it (MulBackward0)."""
    for t, name in ((input, "self"), (vec2, "vec2")):
        if t._data.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D")
    return input.reshape(-1, 1) * vec2


ger = outer


def tensordot(a, b, dims=2, out=None):
    """Sums the products of ``a``'s and ``b``'s elements over the given dims: ``dims`` is
    a count (the last of ``a`` with the first of ``b``) or two lists of dims. As in
    PyTorch, one ``mm`` between permuted, flattened operands, then a view."""
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a._data.ndim, b._data.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        dims_a, dims_b = ([d] if isinstance(d, int) else list(d) for d in dims)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    contracted = 1
    for da, db in zip(dims_a, dims_b):
        sa, sb = a._data.shape[da], b._data.shape[db]
        if sb == 1:  # a broadcast dim is summed right away
            a = a.sum(da, keepdim=True)
        elif sa == 1:
            b = b.sum(db, keepdim=True)
        elif sa != sb:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {sa} in dim {da} and "
                               f"second has size {sb} in dim {db}")
        else:
            contracted *= sa
    dims_a = [wrap_dim(d, a._data.ndim) for d in dims_a]
    dims_b = [wrap_dim(d, b._data.ndim) for d in dims_b]
    free_a = [d for d in range(a._data.ndim) if d not in dims_a]
    free_b = [d for d in range(b._data.ndim) if d not in dims_b]
    shape = [a._data.shape[d] for d in free_a] + [b._data.shape[d] for d in free_b]
    rows = int(np.prod([a._data.shape[d] for d in free_a]))
    cols = int(np.prod([b._data.shape[d] for d in free_b]))
    left = a.permute(free_a + dims_a).reshape(rows, contracted)
    right = b.permute(dims_b + free_b).reshape(contracted, cols)
    return mm(left, right).view(shape)


def inner(input, other):
    """Sums over the last dims of both (``tensordot`` over them; a product for 0-d)."""
    if input._data.ndim == 0 or other._data.ndim == 0:
        return input * other
    if input._data.shape[-1] != other._data.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input._data.shape)} and {list(other._data.shape)}")
    return tensordot(input, other, ([-1], [-1]))


def kron(input, other):
    """The Kronecker product: each element of ``input`` times all of ``other``.
    As PyTorch: interleave singleton dims, multiply, one unsafe view."""
    ndim = max(input._data.ndim, other._data.ndim)
    sa = (1,) * (ndim - input._data.ndim) + input._data.shape
    sb = (1,) * (ndim - other._data.ndim) + other._data.shape
    a = input.reshape([s for d in sa for s in (d, 1)])
    b = other.reshape([s for d in sb for s in (1, d)])
    return unsafe_view(a * b, [x * y for x, y in zip(sa, sb)])


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


def _einsum_forward(*args):
    *arrays, (equation, constants) = args
    return np.einsum(equation, *arrays, *constants)


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
    for op in operands[1:]:
        _scalar_type_check(operands[0], op)
    inputs, output, ellipsis = _spell_out_ellipsis(inputs, output, operands)
    operands = _einsum_broadcast(inputs, operands, ellipsis)
    contracts = bool({label for labels in inputs for label in labels} - set(output))
    if len(operands) == 1:
        return einsum_op(operands, ("".join(inputs[0]) + "->" + "".join(output), ()), contracts)
    result, labels = operands[0], inputs[0]
    for k in range(1, len(operands)):  # left to right, as PyTorch without a path
        later = set(output).union(*inputs[k + 1:])
        kept = output if k == len(operands) - 1 else list(dict.fromkeys(c for c in labels + inputs[k] if c in later))
        equation_k = "".join(labels) + "," + "".join(inputs[k]) + "->" + "".join(kept)
        result, labels = einsum_op([result, operands[k]], (equation_k, ()), contracts), kept
    return result


def vecdot(x, y, *, dim=-1, out=None):
    """``sum(conj(x) * y)`` over ``dim``; the other dims broadcast."""
    if x._data.dtype != y._data.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{type_name(x)} and y of type {type_name(y)} instead")
    if x._data.ndim == 1 and y._data.ndim == 1:
        return vdot(x, y)
    return (x.conj() * y).sum(dim)


# --- products fused with an addition: beta * input + alpha * (product) --------------------------


def _added(product, s, beta, alpha):
    out = product if alpha == 1 else product * alpha
    return out if beta == 0 else out + (s if beta == 1 else s * beta)  # beta == 0: input ignored, nan too


def _fused_batched(op, args, batched, params, dtype):
    """``beta * s + alpha * product(m1, m2)`` for each sample: the product by its own batching
    rule, then the sum (a batched ``s`` of fewer dims padded as broadcasting would)."""
    s, m1, m2 = args
    beta, alpha = params
    pair, flags = [m1, m2], batched[1:]
    if op is ADDMV:
        product = _mv_batched(MV, pair, flags, (), None)
    elif op is ADDR:
        product = m1.unsqueeze(-1) * m2.unsqueeze(-2)
    else:
        product = _as_matmul(MM, pair, flags, (), None) if any(flags) else matmul(m1, m2)
        if op is ADDBMM:
            product = product.sum(1 if any(flags) else 0)
    if batched[0]:
        s = pad(s, product._data.ndim - (1 if any(flags) else 0))
    return _added(product, s, beta, alpha)


def _fused_rules(node, grad1, grad2, product):
    """The rules of ``beta * s + alpha * product(m1, m2)``: the product is bilinear."""
    return dict(
        batch=_fused_batched, node=node, save=lambda ans, s, m1, m2, beta, alpha: (m1, m2, beta, alpha),
        vjp=(lambda g, m1, m2, beta, alpha: g * _conj(beta),
             lambda g, m1, m2, beta, alpha: _scaled(grad1(g, m1, m2), _conj(alpha)),
             lambda g, m1, m2, beta, alpha: _scaled(grad2(g, m1, m2), _conj(alpha))),
        jvp=(lambda t, m1, m2, beta, alpha: t * beta,
             lambda t, m1, m2, beta, alpha: _scaled(product(t, m2), alpha),
             lambda t, m1, m2, beta, alpha: _scaled(product(m1, t), alpha)))


def _check_expands(shape, target):
    """PyTorch's errors when ``input`` doesn't broadcast to the product's shape."""
    if len(shape) > len(target):
        raise RuntimeError(f"expand: the number of sizes provided ({len(target)}) must be greater or equal to the "
                           f"number of dimensions in the tensor ({len(shape)})")
    for i in range(1, len(shape) + 1):
        if shape[-i] not in (1, target[-i]):
            raise RuntimeError(f"The expanded size of the tensor ({target[-i]}) must match the existing size "
                               f"({shape[-i]}) at non-singleton dimension {len(target) - i}.  Target sizes: "
                               f"{list(target)}.  Tensor sizes: {list(shape)}")


def _fused(op, s, m1, m2, beta, alpha, out_shape):
    _check_expands(s._data.shape, out_shape)
    _scalar_type_check(s, m1)
    _scalar_type_check(m1, m2)
    return apply(op, (s, m1, m2), (beta, alpha), m1._data.dtype)


ADDMM = defop("addmm", lambda s, a, b, beta, alpha: _added(a @ b, s, beta, alpha),
              **_fused_rules("AddmmBackward0", lambda g, a, b: mm(g, mH(b)),
                             lambda g, a, b: mm(mH(a), g), lambda a, b: mm(a, b)))


def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat1 @ mat2)``; ``input`` broadcasts."""
    for t, name in ((mat1, "mat1"), (mat2, "mat2")):
        if t._data.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {t._data.ndim}-D tensor")
    if mat1._data.shape[1] != mat2._data.shape[0]:
        raise _mm_shape_error(mat1._data.shape, mat2._data.shape)
    return _fused(ADDMM, input, mat1, mat2, beta, alpha, (mat1._data.shape[0], mat2._data.shape[1]))


ADDMV = defop("addmv", lambda s, m, v, beta, alpha: _added(m @ v, s, beta, alpha),
              **_fused_rules("AddmvBackward0", lambda g, m, v: g.unsqueeze(1) * v.conj(),
                             lambda g, m, v: mv(mH(m), g), lambda m, v: mv(m, v)))


def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``beta * input + alpha * (mat @ vec)``."""
    if mat._data.ndim != 2 or vec._data.ndim != 1 or input._data.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input._data.ndim}, {mat._data.ndim}, "
                           f"{vec._data.ndim}")
    rows = input._data.shape[0] if input._data.ndim else 1
    if mat._data.shape[1] != vec._data.shape[0] or rows not in (1, mat._data.shape[0]):
        _mv_size_mismatch(mat._data.shape, vec._data.shape, rows)
    return _fused(ADDMV, input, mat, vec, beta, alpha, (mat._data.shape[0],))


ADDR = defop("addr", lambda s, v1, v2, beta, alpha: _added(np.multiply.outer(v1, v2), s, beta, alpha),
             **_fused_rules("AddrBackward0", lambda g, v1, v2: mv(g, v2.conj()),
                            lambda g, v1, v2: mv(g.mT, v1.conj()), lambda v1, v2: outer(v1, v2)))


def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """``beta * input + alpha * outer(vec1, vec2)``."""
    for t, name in ((vec1, "vec1"), (vec2, "vec2")):
        if t._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t._data.ndim}-D")
    return _fused(ADDR, input, vec1, vec2, beta, alpha, (vec1._data.shape[0], vec2._data.shape[0]))


def _check_bmm_args(b1, b2):
    for t, name in ((b1, "batch1"), (b2, "batch2")):
        if t._data.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if b1._data.shape[0] != b2._data.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {b1._data.shape[0]} and "
                           f"{b2._data.shape[0]}")
    (_, n, k), (_, k2, m) = b1._data.shape, b2._data.shape
    if k != k2:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{m})")
    return n, m


BADDBMM = defop("baddbmm", lambda s, b1, b2, beta, alpha: _added(b1 @ b2, s, beta, alpha),
                **_fused_rules("BaddbmmBackward0", lambda g, b1, b2: bmm(g, mH(b2)),
                               lambda g, b1, b2: bmm(mH(b1), g), lambda b1, b2: bmm(b1, b2)))


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * bmm(batch1, batch2)``."""
    n, m = _check_bmm_args(batch1, batch2)
    return _fused(BADDBMM, input, batch1, batch2, beta, alpha, (batch1._data.shape[0], n, m))


def _batches_of(g, b1, b2):
    return g.unsqueeze(0).expand(b1._data.shape[0], *g._data.shape)


ADDBMM = defop("addbmm", lambda s, b1, b2, beta, alpha: _added((b1 @ b2).sum(0), s, beta, alpha),
               **_fused_rules("AddbmmBackward0", lambda g, b1, b2: bmm(_batches_of(g, b1, b2), mH(b2)),
                              lambda g, b1, b2: bmm(mH(b1), _batches_of(g, b1, b2)),
                              lambda b1, b2: bmm(b1, b2).sum(0)))


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    n, m = _check_bmm_args(batch1, batch2)
    return _fused(ADDBMM, input, batch1, batch2, beta, alpha, (n, m))


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
                               f"{_C_NAMES.get(mats[0]._data.dtype.name)} and tensor {i} "
                               f"{_C_NAMES.get(mats[i]._data.dtype.name)}")
        if mats[i - 1]._data.shape[-1] != mats[i]._data.shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(tensors[i - 1]._data.shape)}"
                               f" and {list(tensors[i]._data.shape)} cannot be multiplied")
    return _chain_product(mats).view(shape)


def chain_matmul(*matrices, out=None):
    """Deprecated form of ``linalg.multi_dot`` for matrices given as arguments."""
    import warnings  # noqa: PLC0415  (only this deprecated function warns)
    warnings.warn("torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
                  "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
                  "multiple parameters.", UserWarning, stacklevel=2)
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for t in matrices:
        if t._data.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {t._data.ndim}, expected 2 instead.")
    return matrices[0].clone() if len(matrices) == 1 else multi_dot(list(matrices))


# --- cross products and distances ------------------------------------------------------------

CROSS = defop("cross", lambda a, b, dim: np.cross(a, b, axisa=dim, axisb=dim, axisc=dim),
              batch=dim_params(0), node="LinalgCrossBackward0", save=lambda ans, a, b, dim: (a, b, dim),
              vjp=(lambda g, a, b, dim: _cross(b.conj(), g, dim), lambda g, a, b, dim: _cross(g, a.conj(), dim)),
              jvp=(lambda t, a, b, dim: _cross(t, b, dim), lambda t, a, b, dim: _cross(a, t, dim)))


def _cross(a, b, dim):
    return apply(CROSS, (a, b), (dim,))


def linalg_cross(input, other, *, dim=-1):
    """The cross product of 3-vectors along ``dim``; the other dims broadcast."""
    if input._data.ndim != other._data.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = wrap_dim(dim, input._data.ndim)
    if input._data.shape[d] != 3 or other._data.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {input._data.shape[d]} "
                           f"and {other._data.shape[d]}")
    _scalar_type_check(input, other)
    mismatch = broadcast_error(None, input._data.shape, other._data.shape)
    if mismatch is not None:
        raise mismatch
    return _cross(input, other, d - input._data.ndim)


def cross(input, other, dim=None):
    """``linalg.cross``, with the legacy default: the first dim of size 3."""
    if dim is None:
        import warnings  # noqa: PLC0415
        warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the "
                      "dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
                      "agree with that of linalg.cross in a future release.", UserWarning, stacklevel=2)
        sizes = input._data.shape
        if 3 not in sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes.index(3)
    return linalg_cross(input, other, dim=dim)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The ``ord``-norm of ``x`` seen as a vector, over ``dim`` (default: all dims):
    ``sum(|x|^ord)^(1/ord)``; inf, -inf and 0 as the max, min and count of nonzeros.
    The op (LinalgVectorNormBackward0) is the one ``torch.norm`` uses, in ``reductions``."""
    if dtype is not None:
        check_floating(x, "linalg.vector_norm")
        if not (dtype.is_floating_point or dtype.is_complex):
            raise RuntimeError(f"linalg.vector_norm: dtype should be floating point or complex, but got "
                               f"{_dtype._LEGACY_NAMES[dtype.name]}")
        if dtype.is_complex and not x.is_complex():
            raise RuntimeError(f"linalg.vector_norm: dtype should be real for real inputs, but got "
                               f"{_dtype._LEGACY_NAMES[dtype.name]}")
        x = x.to(dtype)
    return _reductions._vector_norm_checked(x, float(ord), dim, keepdim)


# cdist(x1, x2)_ij = |x1_i - x2_j|_p: the rules work on the differences d (..., r1, r2, m)
def _differences(x1, x2):
    return x1.unsqueeze(-2) - x2.unsqueeze(-3)


def _cdist_grad(g, x1, x2, dist, p):
    """PyTorch's _cdist_backward, for the differences: the p-norm's gradient (0 where the
    distance is 0), except that every tie of the inf-norm gets the whole gradient."""
    d = _differences(x1, x2)
    g, dist = g.unsqueeze(-1), dist.unsqueeze(-1)
    magnitude = d.abs()
    if p == 0:
        return d * 0
    if p == 1:
        return d.sign() * g
    if p == np.inf:
        return d.sign() * g * (magnitude == dist)
    if p < 1:  # the elements with d = 0 have no slope
        return d.sign() * where(d == 0, 0.0, magnitude ** (p - 1)) * where(dist == 0, 0.0, g / dist ** (p - 1))
    if p < 2:
        return d.sign() * magnitude ** (p - 1) * where(dist == 0, 0.0, g / dist ** (p - 1))
    return d * magnitude ** (p - 2) * where(dist == 0, 0.0, g / dist ** (p - 1))


def _cdist_tangent(td, x1, x2, dist, p):
    """The tangent of the distances for a tangent ``td`` of the differences."""
    d = _differences(x1, x2)
    td = td.expand(d.shape)
    magnitude = d.abs()
    along = d.sign() * td
    if p == 0:
        return (along * 0).sum(-1)
    if p == 1:
        return along.sum(-1)
    if p == np.inf:
        winners = magnitude == dist.unsqueeze(-1)
        return (along * winners).sum(-1) / winners.sum(-1)
    slope = where(d == 0, 0.0, magnitude ** (p - 1)) if p < 1 else magnitude ** (p - 1)
    return where(dist == 0, 0.0, (slope * along).sum(-1) / dist ** (p - 1))


CDIST = defop(
    "cdist", lambda x1, x2, p: _reductions._vector_norm(x1[..., :, None, :] - x2[..., None, :, :], p, -1, False),
    batch=leading, node="CdistBackward0", save=lambda ans, x1, x2, p: (x1, x2, ans, p),
    vjp=(lambda g, x1, x2, dist, p: _cdist_grad(g, x1, x2, dist, p).sum(-2),
         lambda g, x1, x2, dist, p: -_cdist_grad(g, x1, x2, dist, p).sum(-3)),
    jvp=(lambda t, x1, x2, dist, p: _cdist_tangent(t.unsqueeze(-2), x1, x2, dist, p),
         lambda t, x1, x2, dist, p: _cdist_tangent(-t.unsqueeze(-3), x1, x2, dist, p)))


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distances between the rows of x1 and of x2 (batch dims broadcast)."""
    for t, name in ((x1, "X1"), (x2, "X2")):
        if t._data.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t._data.ndim}D")
    if x1._data.shape[-1] != x2._data.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1._data.shape[-1]} "
                           f"X2: {x2._data.shape[-1]}")
    for t, name in ((x1, "X1"), (x2, "X2")):
        if t._data.dtype.kind != "f":
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: "
                               f"{type_name(t)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    _scalar_type_check(x1, x2)
    return apply(CDIST, (x1, x2), (float(p),))


# --- the matrix exponential ------------------------------------------------------------------

# Pade approximant of degree 13 with scaling and squaring (Higham 2005): exp(A) =
# (r13(A / 2^s))^(2^s), with s chosen so that |A / 2^s|_1 <= theta_13
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
           10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


def _np_matrix_exp(a):
    if a.size == 0:
        return a.copy()
    x = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    norm = np.abs(x).sum(-2).max(-1)
    squarings = np.maximum(0, np.ceil(np.log2(np.maximum(norm, 1e-300) / _THETA13))).astype(int)
    x = x / (2.0 ** squarings)[..., None, None]
    b = _PADE13
    ident = np.broadcast_to(np.eye(x.shape[-1]), x.shape)
    x2 = x @ x
    x4 = x2 @ x2
    x6 = x4 @ x2
    u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2 + b[1] * ident)
    v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + b[0] * ident
    result = np.linalg.solve(v - u, v + u)
    for k in range(int(squarings.max(initial=0))):
        result = np.where((k < squarings)[..., None, None], result @ result, result)
    return result.astype(a.dtype)


def _block_upper(a, b):
    """[[a, b], [0, a]] as chainrule ops (products with constant selectors)."""
    n = a._data.shape[-1]
    top = _constant(np.eye(2 * n, n), a)
    bottom = _constant(np.eye(2 * n, n, -n), a)
    return matmul(matmul(top, a), top.mT) + matmul(matmul(top, b), bottom.mT) + matmul(matmul(bottom, a), bottom.mT)


def _exp_derivative(a, e):
    """The derivative of exp at ``a`` along ``e``: the top right block of exp([[a, e], [0, a]])
    (Mathias 1996), as PyTorch's linalg_matrix_exp_differential."""
    n = a._data.shape[-1]
    return matrix_exp(_block_upper(a, e))[..., :n, n:]


MATRIX_EXP = defop("matrix_exp", _np_matrix_exp, batch=leading, node="LinalgMatrixExpBackward0", save=lambda ans, a: (a,),
                   vjp=lambda g, a: _exp_derivative(mH(a), g), jvp=lambda t, a: _exp_derivative(a, t))


def matrix_exp(A):
    """``sum_k A^k / k!`` of each square matrix."""
    check_matrix(A, "linalg.matrix_exp")
    check_floating(A, "linalg.matrix_exp")
    return unary(MATRIX_EXP, A)


# --- Tensor methods --------------------------------------------------------------------------

Tensor.vdot = vdot
Tensor.bmm = bmm
Tensor.inner = inner
Tensor.outer = outer
Tensor.ger = ger
Tensor.kron = kron
Tensor.addmm = addmm
Tensor.addmm_ = inplace_method(addmm, "addmm_")
Tensor.addmv = addmv
Tensor.addmv_ = inplace_method(addmv, "addmv_")
Tensor.addr = addr
Tensor.addr_ = inplace_method(addr, "addr_")
Tensor.addbmm = addbmm
Tensor.addbmm_ = inplace_method(addbmm, "addbmm_")
Tensor.baddbmm = baddbmm
Tensor.baddbmm_ = inplace_method(baddbmm, "baddbmm_")
Tensor.cross = cross
Tensor.matrix_exp = matrix_exp
