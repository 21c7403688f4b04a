"""Matrix products, vector norms and the matrix exponential: dot ... matmul, bmm, the
fused ``add*`` products, ``vector_norm`` and ``matrix_exp``.

Rules use the conjugate transpose (``mH``) so that complex inputs follow PyTorch's
conjugate Wirtinger convention. Batch broadcasting needs no code of its own: the engine
sums each gradient back to its input's shape.

Several PyTorch functions are compositions whose last op names the output's node
(``tensordot`` ends with a view, ``kron`` with an unsafe view, ``outer`` with a multiply);
they are written here the same way, so ``grad_fn`` shows what PyTorch shows.

The small helpers below (``mH``, ``diagonal``, ``diag_embed``, ``tril``...) are the
building blocks of the gradient rules here, in ``contractions``, ``geometry`` and the
decomposition modules (``solvers``, ``factorizations``...): they are chainrule ops, so the
rules can be differentiated again.
"""
import numpy as np

from ..._core import dtype as _dtype
from ..._core.tensor import _C_TYPE_NAMES, Tensor, _wrap, tensor_methods
from ..operands import _conj, common_operands
from ..methods import inplace_method
from ..batching import aligned, dim_params, leading, pad
from ..registry import LINEAR, apply, binary, defop, into, unary
from ..reduce import reductions as _reductions
from ..reduce.norms import _vector_norm_checked
from ..shape.views import unsafe_view
from ..._core.dims import wrap_dim, wrap_dim_of_tensor
# the rules' triangles and diagonals select, as PyTorch's at::tril: a mask multiplied in turns inf into nan
from ..shape.strided import diag_embed, diagonal as _strided_diagonal, tril, triu  # noqa: F401  (the decomposition modules import them from here)

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
    """The main diagonal of each square matrix: shape (..., n) (a view, as PyTorch's)."""
    return _strided_diagonal(x, 0, -2, -1)




def type_name(x):
    """PyTorch's name for a tensor's dtype in messages ("Float", "Long"...)."""
    return _dtype._LEGACY_NAMES[x._data.dtype.name]


def check_floating(x, fn, half=None):
    """PyTorch's dtype check of a linalg input. ``half``: how the op refuses float16 (LAPACK has
    none), "low" for its "Low precision" error, else the name of the kernel that refuses it."""
    if x._data.dtype.kind not in "fc":
        raise RuntimeError(f"{fn}: Expected a floating point or complex tensor as input. Got {type_name(x)}")
    if half is not None and x._data.dtype == np.float16:
        if half == "low":
            raise RuntimeError(f"{fn}: Low precision dtypes not supported. Got Half")
        raise _dtype.not_implemented(half, x._data.dtype)


def refuse_non_lapack(x, kernel):
    """The dispatch error of a LAPACK kernel (float32/64 and complex only) that PyTorch runs
    even on an empty input."""
    if x._data.dtype.kind not in "fc" or x._data.dtype == np.float16:
        raise _dtype.not_implemented(kernel, x._data.dtype)


def lacks_kernel(x, kernel, compute):
    """PyTorch's LAPACK kernels exist for float32/64 and complex only: another dtype raises
    the kernel's dispatch error, unless the input is empty (no kernel runs), when the result
    is ``compute`` of the input in float64 cast back to its dtype (integer outputs, like
    pivots and infos, kept). None when the kernel exists."""
    dtype = x._data.dtype
    if dtype.kind in "fc" and dtype != np.float16:
        return None
    if x._data.size:
        raise _dtype.not_implemented(kernel, dtype)
    out = compute(x.to(_dtype.float64))
    if isinstance(out, Tensor):
        return out.to(x.dtype)
    return type(out)(tuple(t.to(x.dtype) if t._data.dtype.kind == "f" else t for t in out))


def check_matrix(x, fn, name="A", square=True):
    """PyTorch's checks of a (batch of) matrices argument."""
    if x._data.ndim < 2:
        raise RuntimeError(f"{fn}: The input tensor {name} must have at least 2 dimensions.")
    m, n = x._data.shape[-2:]
    if square and m != n:
        raise RuntimeError(f"{fn}: {name} must be batches of square matrices, but they are {m} by {n} matrices")


def _same_dtype(a, b):
    if a._data.dtype != b._data.dtype:
        names = [_C_TYPE_NAMES[t._data.dtype.name] for t in (a, b)]
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {names[0]} != {names[1]}")


def _scalar_type_check(a, b):
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected scalar type {type_name(a)} but found {type_name(b)}")


def _refuse_bool(kernel, a, b):
    """PyTorch's products have no bool kernel; one that has nothing to compute never runs it."""
    if a._data.dtype.kind == "b" and a._data.size and b._data.size:
        raise _dtype.not_implemented(kernel, a._data.dtype)


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
    if input._data.dtype.kind == "b":  # no bool kernel, even for empty vectors
        raise _dtype.not_implemented("dot", input._data.dtype)
    return binary(DOT, input, other)


VDOT = defop("vdot", np.vdot, batch=_dot_batched, node="VdotBackward0",
             save=lambda ans, a, b: (a, b),
             vjp=(lambda g, a, b: g.conj() * b, lambda g, a, b: g * a),
             jvp=(lambda t, a, b: vdot(t, b), lambda t, a, b: vdot(a, t)))


def vdot(input, other):
    """``sum(conj(input) * other)`` of two vectors."""
    _check_vectors(input, other)
    if input._data.dtype.kind == "b":  # PyTorch's vdot is dot for real dtypes, even empty
        raise _dtype.not_implemented("dot", input._data.dtype)
    return binary(VDOT, input, other)


MV = defop("mv", np.matmul, batch=_mv_batched, node="MvBackward0",
           save=lambda ans, m, v: (m, v),
           vjp=(lambda g, m, v: g.unsqueeze(1) * v.conj(), lambda g, m, v: mv(m.conj().t(), g)),
           jvp=(lambda t, m, v: mv(t, v), lambda t, m, v: mv(m, t)))


def _out_dtype_error(result, out):
    """The out= error of the matrix products: out must have the result's dtype."""
    return RuntimeError(f"Expected out tensor to have dtype {_C_TYPE_NAMES[result.name]}, but got "
                        f"{_C_TYPE_NAMES[out.name]} instead")


def mv(input, vec, *, out=None):
    if out is not None:
        return into(out, mv, input, vec, exact=_out_dtype_error)
    if input._data.ndim == 0:  # PyTorch reads input.size(0) first
        wrap_dim_of_tensor(0, 0)
    if input._data.ndim != 2 or vec._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input._data.ndim}, {vec._data.ndim}")
    if input._data.shape[1] != vec._data.shape[0]:
        _mv_size_mismatch(input._data.shape, vec._data.shape)
    _mv_dtype_check(input, vec)
    _refuse_bool("addmv_impl_cpu", input, vec)
    return binary(MV, input, vec)


def _mv_dtype_check(mat, vec):
    if mat._data.dtype != vec._data.dtype:  # addmv's check, its result taking vec's dtype
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {type_name(vec)}, "
                           f"{type_name(mat)}, and {type_name(vec)}")


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


def mm(input, mat2, *, out=None):
    if out is not None:
        return into(out, mm, input, mat2, exact=_out_dtype_error)
    if input._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if input._data.shape[1] != mat2._data.shape[0]:
        raise _mm_shape_error(input._data.shape, mat2._data.shape)
    _same_dtype(input, mat2)
    _refuse_bool("addmm_impl_cpu_", input, mat2)
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


def _empty_product_dtype(input, mat2):
    """An empty bmm's result has mat2's dtype: an integer one refuses an input needing grad."""
    for t in (input, mat2):
        _reductions._check_autograd_dtype(t, mat2._data.dtype)


def bmm(input, mat2, *, out=None):
    """A batch of matrix products: (b, n, k) @ (b, k, m), without broadcasting."""
    if out is not None:
        return into(out, bmm, input, mat2, exact=_out_dtype_error)
    _check_batches(input, mat2)
    if not input._data.size or not mat2._data.size:  # PyTorch zeros a result of mat2's dtype, unchecked
        _empty_product_dtype(input, mat2)
        return binary(BMM, input.to(mat2.dtype), mat2)
    _refuse_bool("bmm", input, mat2)  # the kernel's dispatch on input's dtype, then its typed read of mat2
    _scalar_type_check(input, mat2)
    return binary(BMM, input, mat2)


# batched, broadcasting product of two tensors of at least 2 dims
MATMUL = defop("matmul", np.matmul, batch=leading, node="UnsafeViewBackward0",
               save=lambda ans, a, b: (a, b),
               vjp=(lambda g, a, b: matmul(g, mH(b)), lambda g, a, b: matmul(mH(a), g)),
               jvp=(lambda t, a, b: matmul(t, b), lambda t, a, b: matmul(a, t)))


def _folds(a, b):
    """PyTorch's should_fold: a batch of matrices times a matrix or vector (either order)
    becomes one mm or mv when the batch folds into rows without a copy, or when the small
    operand requires grad (so that its gradient is one product too)."""
    larger = a._data if a._data.ndim >= b._data.ndim else np.swapaxes(b._data, -1, -2)
    small = b if a._data.ndim >= b._data.ndim else a
    if not (larger.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small._requires_grad:
        return True
    if a._data.ndim == 2:
        return False
    if larger.size == 0:
        return True
    strides = [s // larger.itemsize for s in larger.strides]
    return all(strides[i] == strides[i + 1] * larger.shape[i + 1] for i in range(larger.ndim - 2))


def _check_folded(mat, small, mat_shape):
    """The checks of the one mm or mv a folded product is: ``mat`` of ``mat_shape``
    (the batch folded into its rows) times ``small``."""
    rows, k = int(np.prod(mat_shape[:-1])), mat_shape[-1]
    if small._data.ndim == 1:
        if k != small._data.shape[0]:
            _mv_size_mismatch((rows, k), small._data.shape)
        _mv_dtype_check(mat, small)
        _refuse_bool("addmv_impl_cpu", mat, small)
    else:
        if k != small._data.shape[0]:
            raise _mm_shape_error((rows, k), small._data.shape)
        _same_dtype(mat, small)
        _refuse_bool("addmm_impl_cpu_", mat, small)


def _check_batched(a, b):
    """The checks of a broadcast batched product (PyTorch's bmm after expanding the batch
    dims, reporting the last mismatching one); True when it has nothing to compute, where
    bmm checks no dtypes."""
    sa, sb = a._data.shape, b._data.shape
    batch_a, batch_b = tuple(sa[:-2]), tuple(sb[:-2])  # a 1-d operand has no batch dims
    n = max(len(batch_a), len(batch_b))
    batch_a, batch_b = (1,) * (n - len(batch_a)) + batch_a, (1,) * (n - len(batch_b)) + batch_b
    for i in reversed(range(n)):
        x, y = batch_a[i], batch_b[i]
        if x != y and 1 not in (x, y):
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                               f"non-singleton dimension {i}")
    size = int(np.prod([y if x == 1 else x for x, y in zip(batch_a, batch_b)]))
    k_a, k_b = sa[-1], (sb[0] if len(sb) == 1 else sb[-2])
    if k_a != k_b:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{size}, {k_a}] "
                           f"but got: [{size}, {k_b}].")
    rows, cols = (sa[-2] if len(sa) >= 2 else 1), (sb[-1] if len(sb) >= 2 else 1)
    if size * rows * cols == 0 or k_a == 0:
        return True
    _refuse_bool("bmm", a, b)
    _scalar_type_check(a, b)
    return False


def matmul(input, other, *, out=None):
    """``input @ other`` with NumPy's (and PyTorch's) rules for 1-d and batched operands."""
    if out is not None:
        return into(out, matmul, input, other, exact=_out_dtype_error)
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
    if da == db == 3 and input._data.shape[0] != other._data.shape[0]:  # a batch of one that requires
        if input._data.shape[0] == 1 and input._requires_grad:     # grad is one matrix (one mm for its grad)
            return matmul(input.squeeze(0), other)
        if other._data.shape[0] == 1 and other._requires_grad:
            return matmul(input, other.squeeze(0))
    if _folds(input, other):
        if da >= db:
            _check_folded(input, other, input._data.shape)
        else:
            shape = other._data.shape
            _check_folded(other, input.t() if da == 2 else input, shape[:-2] + shape[:-3:-1])
        if da == 2:
            # the transposed problem as one mm, then a contiguous copy of the transposed result
            k, m = other._data.shape[-2:]
            rows = int(np.prod(other._data.shape[:-2])) * m
            product = mm(other.mT.reshape(rows, k), input.t())  # (no -1: an empty k leaves it ambiguous)
            return unsafe_view(product, other._data.shape[:-2] + (m, input._data.shape[0])).mT.contiguous()
    elif _check_batched(input, other) and input._data.dtype != other._data.dtype:
        _empty_product_dtype(input, other)
        input = input.to(other.dtype)  # an empty bmm takes its result's dtype from mat2 and checks none
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
                        vjp=lambda g, dim: g.unsqueeze(dim), jvp=LINEAR)


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
    contracted, (a0, b0) = 1, (a, b)
    for da, db in zip(dims_a, dims_b):
        sa = a._data.shape[wrap_dim_of_tensor(da, a._data.ndim)]
        sb = b._data.shape[wrap_dim_of_tensor(db, b._data.ndim)]
        if sb == 1:  # a broadcast dim is summed right away, in the operand's dtype
            a = a.sum(da, keepdim=True, dtype=a.dtype)
        elif sa == 1:
            b = b.sum(db, keepdim=True, dtype=b.dtype)
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
    left, right = a.permute(free_a + dims_a), b.permute(dims_b + free_b)
    if rows == 1 and cols == 1 and a._data.dtype.kind == "b":
        # PyTorch takes one row times one column by dot, which has no bool kernel, when both
        # operands flatten to views; when one is copied, by a kernel that does: or of ands
        # (a sum above is a fresh contiguous tensor in PyTorch)
        if all((t if t is t0 else t.contiguous()).permute(order)._data.flags.c_contiguous
               for t, t0, order in ((a, a0, free_a + dims_a), (b, b0, dims_b + free_b))):
            raise _dtype.not_implemented("dot", a._data.dtype)
        return (left.reshape(-1) & right.reshape(-1)).any().reshape(shape)
    return mm(left.reshape(rows, contracted), right.reshape(contracted, cols)).view(shape)


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


def vecdot(x, y, *, dim=-1, out=None):
    """``sum(conj(x) * y)`` over ``dim``; the other dims broadcast."""
    if x._data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vecdot: Expected a floating point or complex tensor as input. Got {type_name(x)}")
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
    _FUSED_DTYPE_CHECKS[op](s, m1, m2)
    return apply(op, (s, m1, m2), (beta, alpha), m1._data.dtype)


def _addmm_dtypes(s, m1, m2):
    """addmm's and addbmm's (both PyTorch's addmm_impl_cpu_): self against mat2, then the
    two matrices, then the kernel's dtypes."""
    for (a, name), b in (((s, "self"), m2), ((m1, "mat1"), m2)):
        if a._data.dtype != b._data.dtype:
            raise RuntimeError(f"{name} and mat2 must have the same dtype, but got {type_name(a)} and {type_name(b)}")
    _refuse_bool("addmm_impl_cpu_", m1, m2)


def _addmv_dtypes(s, m, v):
    if not s._data.dtype == m._data.dtype == v._data.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {type_name(s)}, {type_name(m)}, "
                           f"and {type_name(v)}")
    _refuse_bool("addmv_impl_cpu", m, v)


def _baddbmm_dtypes(s, b1, b2):
    """PyTorch's check compares input with batch1 (its message names all three), then the
    kernel's dispatch on batch1's dtype reads batch2 as that type."""
    if s._data.dtype != b1._data.dtype:
        names = [_C_TYPE_NAMES[t._data.dtype.name] for t in (s, b1, b2)]
        raise RuntimeError(f"Input dtypes must be the same, got: input {names[0]}, batch1: {names[1]}, "
                           f"batch2: {names[2]}")
    _refuse_bool("baddbmm", b1, b2)
    _scalar_type_check(b1, b2)


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
    """``beta * input + alpha * outer(vec1, vec2)``, in the three's promoted dtype (PyTorch's
    addr is that composition on CPU: it takes mixed dtypes)."""
    for t, name in ((vec1, "vec1"), (vec2, "vec2")):
        if t._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {t._data.ndim}-D")
    _check_expands(input._data.shape, (vec1._data.shape[0], vec2._data.shape[0]))
    input, vec1, vec2, dtype = common_operands(input, vec1, vec2)
    return apply(ADDR, (input, vec1, vec2), (beta, alpha), dtype)


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


_FUSED_DTYPE_CHECKS = {ADDMM: _addmm_dtypes, ADDMV: _addmv_dtypes, BADDBMM: _baddbmm_dtypes, ADDBMM: _addmm_dtypes}


def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    n, m = _check_bmm_args(batch1, batch2)
    return _fused(ADDBMM, input, batch1, batch2, beta, alpha, (n, m))


# --- vector norms ----------------------------------------------------------------------------


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
    return _vector_norm_checked(x, float(ord), dim, keepdim)


# --- the matrix exponential ------------------------------------------------------------------

# Pade approximant of degree 13 with scaling and squaring (Higham 2005): exp(A) =
# (r13(A / 2^s))^(2^s), with s chosen so that |A / 2^s|_1 <= theta_13
_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
           10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


def _np_matrix_exp(a):
    if a.size == 0:
        return a.copy()
    if a.shape[-1] == 1:  # as PyTorch: the exponential itself (exp(1e30 + 3j) is -inf + inf j)
        return np.exp(a)
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


class _TensorMethods:
    def matmul(self, other):
        return matmul(self, other)

    def mm(self, other):
        return mm(self, other)

    def mv(self, vec):
        return mv(self, vec)

    def dot(self, other):
        return dot(self, other)

    def __matmul__(self, other):
        try:
            return matmul(self, other)
        except (AttributeError, TypeError):
            if isinstance(other, Tensor):
                raise
            return NotImplemented

    def __rmatmul__(self, other):  # only for what is no tensor: PyTorch's matmul refuses it
        return NotImplemented


tensor_methods(_TensorMethods)
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
Tensor.matrix_exp = matrix_exp

