"""Factorizations: QR, the Hermitian eigendecomposition (eigh), SVD and LU, with LU's solves.

Each returns several outputs packed in one node (see ``decomposition_base``), so one
gradient rule sees all their gradients; the rules are PyTorch's (FunctionsManual.cpp), in
chainrule ops so that they can be differentiated again.

>>> Q, R = torch.linalg.qr(torch.tensor([[3.0, 1.0], [4.0, 2.0]]))
"""
import warnings

import numpy as np

from ..._core.tensor import Tensor, _wrap
from .products import (check_floating, check_matrix, diag_embed, diagonal, eye_like, lacks_kernel, mH, matmul, tril,
                       triu, type_name)
from ..batching import batched_by, leading, ON_BATCH, on_batch, pad
from ..registry import apply, defop, unary
from .decomposition_base import (_batch_error, _not_converged, _hermitian_input, _layout, _nonzero, _np_hermitian_part,
                                 _np_lu, _np_lu_substitute, _np_pack, _np_part, _np_permutation, _outputs, _packed,
                                 _part_rules, _parts, _real_dtype, named, np_svd)
from .triangular import solve_triangular


# --- QR ---------------------------------------------------------------------------------------


def _qr_layout(shape, mode):
    m, n = shape[-2:]
    k = min(m, n)
    q_shape = None if mode == "r" else (m, m if mode == "complete" else k)
    return _layout([(q_shape, False), ((m if mode == "complete" else k, n), False)])


def _np_qr(a, mode):
    layout = _qr_layout(a.shape, mode)
    a = a + 0.0  # -0 as +0: a reflector's sign follows its pivot's, and MKL (PyTorch) reads -0 as +0
    if mode == "r":
        return _np_pack([np.zeros(a.shape[:-2] + (0,), a.dtype), np.linalg.qr(a, mode="r")], a.shape[:-2], layout)
    q, r = np.linalg.qr(a, mode=mode)
    return _np_pack([q, r], a.shape[:-2], layout)


def _qr_check(mode, m, n):
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
                           "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")


def _qr_grad(g, a, packed, mode):
    """PyTorch's linalg_qr_backward."""
    m, n = a.shape[-2:]
    _qr_check(mode, m, n)
    layout = _qr_layout(a.shape, mode)
    q, r = _parts(packed, layout)
    gq, gr = _parts(g, layout)
    ga = matmul(gr, mH(r)) - matmul(mH(q), gq)
    if m >= n:
        sym = triu(ga) + mH(triu(ga))
        sym = sym - 0.5 * diag_embed(diagonal(sym).real)  # the real part of the diagonal halved
        return solve_triangular(mH(r), matmul(q, sym) + gq, upper=False, left=False)
    skew = tril(mH(ga) - ga)
    if a.is_complex():
        skew = skew - 0.5j * diag_embed(diagonal(skew).imag)
    ga = solve_triangular(mH(r[..., :m]), matmul(q, skew), upper=False, left=False)
    return matmul(ga, eye_like(ga, n)[:m]) + matmul(q, gr)


def _qr_tangent(t, a, packed, mode):
    """PyTorch's linalg_qr_jvp."""
    m, n = a.shape[-2:]
    _qr_check(mode, m, n)
    layout = _qr_layout(a.shape, mode)
    q, r = _parts(packed, layout)
    if m >= n:
        da_rinv = solve_triangular(r, t, upper=True, left=False)
        x = matmul(mH(q), da_rinv)
        sym = x + mH(x)
        dr = triu(sym) - 0.5 * diag_embed(diagonal(sym))
        return _packed([da_rinv - matmul(q, dr), matmul(dr, r)], packed, layout)
    qh_da = matmul(mH(q), t)
    x = solve_triangular(r[..., :m], qh_da[..., :m], upper=True, left=False)
    if a.is_complex():
        lower = tril(x) - diag_embed(diagonal(x).real)
        dq = lower - mH(lower)
        dq = dq - 0.5 * diag_embed(diagonal(dq))
    else:
        lower = tril(x, -1)
        dq = lower - lower.mT
    return _packed([matmul(q, dq), qh_da - matmul(dq, r)], packed, layout)


QR = defop("linalg_qr", _np_qr, batch=leading, node="LinalgQrBackward0", save=lambda ans, a, mode: (a, ans, mode),
           vjp=_qr_grad, jvp=_qr_tangent)
QR_OUT = defop("linalg_qr_output", _np_part, **_part_rules("LinalgQrBackward0"))


def linalg_qr(A, mode="reduced", *, out=None):
    """``(Q, R)``: Q with orthonormal columns, R upper triangular, A = Q R. ``mode``:
    "reduced" (Q m x k), "complete" (Q m x m) or "r" (R only; Q empty)."""
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    check_matrix(A, "linalg.qr", square=False)
    check_floating(A, "linalg.qr", "geqrf_cpu")
    return named.linalg_qr(_outputs(QR_OUT, unary(QR, A, (mode,)), _qr_layout(A._data.shape, mode)))


def qr(input, some=True, *, out=None):
    warnings.warn("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                  "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = "
                  "torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else "
                  "'complete')", UserWarning, stacklevel=2)
    return named.qr(linalg_qr(input, "reduced" if some else "complete"))


# --- eigh -------------------------------------------------------------------------------------


def _eigh_layout(shape):
    n = shape[-1]
    return _layout([((n,), True), ((n, n), False)])


def _np_eigh(a, uplo):
    a = _np_hermitian_part(a)
    try:
        values, vectors = np.linalg.eigh(a)
    except np.linalg.LinAlgError:  # (PyTorch's message adds LAPACK's error code, which NumPy does not give)
        raise _not_converged("linalg.eigh", a, np.linalg.eigh, "eigenvalues") from None
    return _np_pack([values, vectors], a.shape[:-2], _eigh_layout(a.shape))


def _eigh_grad(g, a, packed):
    """PyTorch's linalg_eig_backward (Hermitian): V (diag(gL) + sym(V^H gV) / E) V^H with
    E_ij = L_j - L_i. Complex: the loss must not depend on the eigenvectors' phases."""
    layout = _eigh_layout(a.shape)
    values, vectors = _parts(packed, layout)
    g_values, g_vectors = _parts(g, layout)
    if not _nonzero(g_vectors):
        return matmul(vectors * g_values.unsqueeze(-2), mH(vectors))
    vh_gv = matmul(mH(vectors), g_vectors)
    if vectors.is_complex() and np.any(np.abs(np.diagonal(vh_gv._data, axis1=-2, axis2=-1).imag) > 1e-2):
        raise RuntimeError("linalg_eigh_backward: The eigenvectors in the complex case are specified up to "
                           "multiplication by e^{i phi}. The specified loss function depends on this quantity, so "
                           "it is ill-defined.")
    gaps = _gaps(values)
    inner = 0.5 * (vh_gv - mH(vh_gv)) / gaps
    if _nonzero(g_values):  # the diagonal is gL's
        inner = inner * _off_diagonal(inner) + diag_embed(g_values)
    return matmul(vectors, matmul(inner, mH(vectors)))


def _gaps(values):
    """E_jk = values_k - values_j, its diagonal 1 (filled after the subtraction, as PyTorch:
    a value may be inf, and inf - inf is nan)."""
    return (values.unsqueeze(-2) - values.unsqueeze(-1)).masked_fill(_wrap(np.eye(values.shape[-1], dtype=bool)), 1)


def _off_diagonal(x):
    n = x._data.shape[-1]
    return _wrap((1 - np.eye(n)).astype(_real_dtype(x._data.dtype)))


def _eigh_tangent(t, a, packed):
    """PyTorch's linalg_eig_jvp (Hermitian), for the Hermitian part of the tangent."""
    layout = _eigh_layout(a.shape)
    values, vectors = _parts(packed, layout)
    dp = matmul(mH(vectors), matmul(0.5 * (t + mH(t)), vectors))
    gaps = _gaps(values)
    dx = dp / gaps * _off_diagonal(dp)
    return _packed([diagonal(dp).real, matmul(vectors, dx)], packed, layout)


EIGH = defop("linalg_eigh", _np_eigh, batch=leading, node="LinalgEighBackward0", save=lambda ans, a, uplo: (a, ans),
             vjp=_eigh_grad, jvp=_eigh_tangent)
EIGH_OUT = defop("linalg_eigh_output", _np_part, **_part_rules("LinalgEighBackward0"))


def _eigh_checks(A, UPLO, fn):
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    check_matrix(A, fn)


def _eigh_packed(A, UPLO, fn):
    _eigh_checks(A, UPLO, fn)
    return unary(EIGH, _hermitian_input(A, UPLO == "U"), (UPLO,))


def eigh(A, UPLO="L", *, out=None):
    """``(eigenvalues, eigenvectors)`` of a Hermitian matrix (its ``UPLO`` triangle is read),
    eigenvalues ascending."""
    if A._data.dtype.kind not in "fc" or A._data.dtype == np.float16:
        _eigh_checks(A, UPLO, "linalg.eigh")
        return lacks_kernel(A, "linalg_eigh_cpu", lambda a: eigh(a, UPLO))
    packed = _eigh_packed(A, UPLO, "linalg.eigh")
    return named.linalg_eigh(_outputs(EIGH_OUT, packed, _eigh_layout(A._data.shape)))


def eigvalsh(A, UPLO="L", *, out=None):
    """The eigenvalues of a Hermitian matrix, ascending."""
    if A._data.dtype.kind not in "fc" or A._data.dtype == np.float16:
        return eigh(A, UPLO)[0]
    packed = _eigh_packed(A, UPLO, "linalg.eigh")
    return unary(EIGH_OUT, packed, (_eigh_layout(A._data.shape), 0))


# --- SVD --------------------------------------------------------------------------------------


def _svd_layout(shape, full_matrices):
    m, n = shape[-2:]
    k = min(m, n)
    u_cols, v_rows = (m, n) if full_matrices else (k, k)
    return _layout([((m, u_cols), False), ((k,), True), ((v_rows, n), False)])


def _np_svd(a, full_matrices):
    u, s, vh = np_svd(a, full_matrices)
    return _np_pack([u, s, vh], a.shape[:-2], _svd_layout(a.shape, full_matrices))


def _svd_factors(packed, shape, full_matrices):
    """U, S, Vh, reduced to the k = min(m, n) singular vectors (the rest has no gradient)."""
    u, s, vh = _parts(packed, _svd_layout(shape, full_matrices))
    k = min(shape[-2:])
    return (u[..., :k], s, vh[..., :k, :]) if full_matrices else (u, s, vh)


def _svd_grad(g, a, packed, full_matrices):
    """PyTorch's svd_backward: gA = U [(skew(U^H gU) / E) S + S (skew(V^H gV) / E) + diag(gS)]
    V^H (+ the terms of a rectangular A), E_jk = S_k^2 - S_j^2. Complex: the loss must not
    depend on the phases of the singular vectors: Im diag(U^H gU + V^H gV) = 0."""
    u, s, vh = _svd_factors(packed, a.shape, full_matrices)
    gu, gs, gvh = _svd_factors(g, a.shape, full_matrices)
    m, n = a.shape[-2:]
    has_u, has_v = _nonzero(gu), _nonzero(gvh)
    if not has_u and not has_v:
        return matmul(u, gs.unsqueeze(-1) * vh) if m >= n else matmul(u * gs.unsqueeze(-2), vh)
    uh_gu = matmul(mH(u), gu) if has_u else None
    vh_gv = matmul(vh, mH(gvh)) if has_v else None
    uh_gu = uh_gu - mH(uh_gu) if has_u else None
    vh_gv = vh_gv - mH(vh_gv) if has_v else None
    if a.is_complex():
        im_u = np.diagonal(uh_gu._data, axis1=-2, axis2=-1).imag if has_u else 0
        im_v = np.diagonal(vh_gv._data, axis1=-2, axis2=-1).imag if has_v else 0
        if not np.allclose(im_u, -im_v, rtol=1e-2, atol=1e-2):
            raise RuntimeError("svd_backward: The singular vectors in the complex case are specified up to "
                               "multiplication by e^{i phi}. The specified loss function depends on this phase "
                               "term, making it ill-defined.")
    s2 = s * s
    gaps = _gaps(s2)
    if has_u and has_v:
        inner = (uh_gu * s.unsqueeze(-2) + s.unsqueeze(-1) * vh_gv) / gaps
    elif has_u:
        inner = uh_gu / gaps * s.unsqueeze(-2)
    else:
        inner = s.unsqueeze(-1) * (vh_gv / gaps)
    inner = inner + diag_embed(gs)
    if a.is_complex() and has_u and has_v:
        inner = inner + diag_embed(diagonal(uh_gu) / (2 * s))
    if m > n and has_u:
        gu_sinv = gu / s.unsqueeze(-2)
        ga = matmul(u, inner) + gu_sinv - matmul(u, matmul(mH(u), gu_sinv))
        return matmul(ga, vh)
    if m < n and has_v:
        sinv_gvh = gvh / s.unsqueeze(-1)
        ga = matmul(inner, vh) + sinv_gvh - matmul(matmul(sinv_gvh, mH(vh)), vh)
        return matmul(u, ga)
    return matmul(u, matmul(inner, vh)) if m >= n else matmul(matmul(u, inner), vh)


def _svd_tangent(t, a, packed, full_matrices):
    """PyTorch's linalg_svd_jvp (the extra columns of full U, V get zeros)."""
    u, s, vh = _svd_factors(packed, a.shape, full_matrices)
    m, n = a.shape[-2:]
    k = min(m, n)
    v = mH(vh)
    dp = matmul(mH(u), matmul(t, v)) if m < n else matmul(matmul(mH(u), t), v)
    ds = diagonal(dp).real
    dp = dp - diag_embed(ds)
    s2 = s * s
    gaps = _gaps(s2)
    du_inner = (dp * s.unsqueeze(-2) + mH(dp * s.unsqueeze(-2))) / gaps
    dvh_inner = (dp * (-s).unsqueeze(-1) + mH(dp * (-s).unsqueeze(-1))) / gaps
    if a.is_complex():
        imaginary = diag_embed(diagonal(dp) / (2 * s))
        du_inner, dvh_inner = du_inner + imaginary, dvh_inner + imaginary
    du, dvh = matmul(u, du_inner), matmul(dvh_inner, vh)
    if m > n:
        da_v_sinv = matmul(t, v / s.unsqueeze(-2))
        du = du + da_v_sinv - matmul(u, matmul(mH(u), da_v_sinv))
    if m < n:
        uh_da_sinv = matmul(mH(u) / s.unsqueeze(-1), t)
        dvh = dvh + uh_da_sinv - matmul(matmul(uh_da_sinv, v), vh)
    if full_matrices:
        du, dvh = matmul(du, eye_like(du, m)[:k]), matmul(eye_like(dvh, n)[:, :k], dvh)
    return _packed([du, ds, dvh], packed, _svd_layout(a.shape, full_matrices))


SVD = defop("linalg_svd", _np_svd, batch=leading, node="LinalgSvdBackward0", save=lambda ans, a, full: (a, ans, full),
            vjp=_svd_grad, jvp=_svd_tangent)
SVD_OUT = defop("linalg_svd_output", _np_part, **_part_rules("LinalgSvdBackward0"))


def _svd_checks(A):
    check_matrix(A, "linalg.svd", square=False)
    check_floating(A, "linalg.svd")


def linalg_svd(A, full_matrices=True, *, driver=None, out=None):
    """``(U, S, Vh)`` with A = U diag(S) Vh, S descending. U's and V's columns are defined up to
    a sign (a phase); losses should not depend on it."""
    _svd_checks(A)
    empty = lacks_kernel(A, "linalg_svd_cpu", lambda a: linalg_svd(a, full_matrices))
    if empty is not None:
        return empty
    packed = unary(SVD, A, (full_matrices,))
    return named.linalg_svd(_outputs(SVD_OUT, packed, _svd_layout(A._data.shape, full_matrices)))


def svdvals(A, *, driver=None, out=None):
    """The singular values, descending."""
    _svd_checks(A)
    empty = lacks_kernel(A, "linalg_svd_cpu", svdvals)
    if empty is not None:
        return empty
    return unary(SVD_OUT, unary(SVD, A, (False,)), (_svd_layout(A._data.shape, False), 1))


def svd(input, some=True, compute_uv=True, *, out=None):
    """``(U, S, V)`` (V, not Vh); without ``compute_uv``, U and V are zeros."""
    if input._data.ndim < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {input._data.ndim} "
                           "dimensions instead")
    if not compute_uv:
        m, n = input._data.shape[-2:]
        batch = input._data.shape[:-2]
        zeros_u, zeros_v = (_wrap(np.zeros(batch + (k, k), input._data.dtype)) for k in (m, n))
        return named.svd((zeros_u, svdvals(input), zeros_v))
    u, s, vh = linalg_svd(input, full_matrices=not some)
    return named.svd((u, s, mH(vh)))


# --- LU ---------------------------------------------------------------------------------------


def _unpacked(lu_matrix):
    """L (unit lower, m x k) and U (upper, k x n) from a packed LU, as chainrule ops."""
    m, n = lu_matrix.shape[-2:]
    k = min(m, n)
    lower = tril(lu_matrix[..., :, :k], -1) + eye_like(lu_matrix, max(m, n))[:m, :k]
    return lower, triu(lu_matrix[..., :k, :])


def _lu_grad(g_lower, g_upper, p, lower, upper):
    """PyTorch's linalg_lu_backward: the gradient for A = P L U."""
    m, n = lower.shape[-2], upper.shape[-1]
    k = min(m, n)
    if m == n:
        ga = tril(matmul(mH(lower), g_lower), -1) + triu(matmul(g_upper, mH(upper)))
        ga = solve_triangular(mH(upper), ga, upper=False, left=False)
        ga = solve_triangular(mH(lower), ga, upper=True, left=True, unitriangular=True)
    elif m < n:  # wide: U = [U1 | U2]
        ga = matmul(mH(lower), g_lower) - matmul(triu(g_upper), mH(upper))
        ga = solve_triangular(mH(upper[..., :k]), tril(ga, -1), upper=False, left=False)
        ga = _pad_columns(ga + triu(g_upper[..., :k]), 0, n) + _pad_columns(g_upper[..., k:], k, n)
        ga = solve_triangular(mH(lower), ga, upper=True, left=True, unitriangular=True)
    else:  # tall: L = [L1; L2]
        ga = matmul(g_upper, mH(upper)) - matmul(mH(lower), tril(g_lower, -1))
        ga = solve_triangular(mH(lower[..., :k, :]), triu(ga), upper=True, left=True, unitriangular=True)
        ga = _pad_rows(ga + tril(g_lower[..., :k, :], -1), 0, m) + _pad_rows(g_lower[..., k:, :], k, m)
        ga = solve_triangular(mH(upper), ga, upper=False, left=False)
    return matmul(p, ga)


def _pad_columns(x, start, n):
    """x (..., r, c) placed from column ``start`` in an (..., r, n) zero matrix."""
    return matmul(x, eye_like(x, n)[start:start + x.shape[-1]])


def _pad_rows(x, start, m):
    """x (..., r, c) placed from row ``start`` in an (..., m, c) zero matrix."""
    return matmul(eye_like(x, m)[:, start:start + x.shape[-2]], x)


def _lu_tangents(t, p, lower, upper):
    """PyTorch's linalg_lu_jvp: (dL, dU)."""
    m, n = t.shape[-2:]
    k = min(m, n)
    pt = matmul(p.mT, t)
    l1, u1 = lower[..., :k, :], upper[..., :k]
    dk = solve_triangular(l1, pt[..., :k, :k], upper=False, left=True, unitriangular=True)
    dk = solve_triangular(u1, dk, upper=True, left=False)
    dl1, du1 = matmul(l1, tril(dk, -1)), matmul(triu(dk), u1)
    if m == n:
        return dl1, du1
    if m < n:
        du2 = solve_triangular(l1, pt[..., k:], upper=False, left=True, unitriangular=True) - \
            matmul(tril(dk, -1), upper[..., k:])
        return dl1, matmul(du1, eye_like(du1, n)[:k]) + _pad_columns(du2, k, n)
    dl2 = solve_triangular(u1, pt[..., k:, :], upper=True, left=False) - matmul(lower[..., k:, :], triu(dk))
    return matmul(eye_like(dl1, m)[:, :k], dl1) + _pad_rows(dl2, k, m), du1


def _lu_factor_forward(a, pivots):
    return _np_lu(a, pivots)[0]


def _lu_factor_grad(g, lu_matrix, pivots):
    m, n = lu_matrix.shape[-2:]
    k = min(m, n)
    lower, upper = _unpacked(lu_matrix)
    p = _wrap(_np_permutation(pivots, m, lu_matrix._data.dtype))
    return _lu_grad(g[..., :, :k], g[..., :k, :], p, lower, upper)


def _lu_factor_tangent(t, lu_matrix, pivots):
    m, n = lu_matrix.shape[-2:]
    lower, upper = _unpacked(lu_matrix)
    dl, du = _lu_tangents(t, _wrap(_np_permutation(pivots, m, lu_matrix._data.dtype)), lower, upper)
    if m >= n:
        return dl + _pad_rows(du, 0, m)
    return du + _pad_columns(dl, 0, n)


LU_FACTOR = defop("linalg_lu_factor", _lu_factor_forward, node="LinalgLuFactorExBackward0",
                  save=lambda ans, a, pivots: (ans, pivots), vjp=_lu_factor_grad, jvp=_lu_factor_tangent)


def _check_lu_args(A, pivot, fn):
    if A._data.ndim < 2:  # linalg.lu names itself, the lu_factor family torch.lu_factor
        raise RuntimeError(f"{'linalg.lu' if fn == 'linalg.lu' else 'torch.lu_factor'}: Expected tensor with 2 or "
                           f"more dimensions. Got size: {list(A._data.shape)} instead")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """``(LU, pivots, info)``: A = P L U packed in one matrix, LAPACK's pivots (int32) and
    info, the first zero pivot (1-based; 0: none)."""
    _check_lu_args(A, pivot, "linalg.lu_factor")
    empty = lacks_kernel(A, "lu_cpu", lambda a: lu_factor_ex(a, pivot=pivot, check_errors=check_errors))
    if empty is not None:
        return empty
    return _lu_factor_ex(A, check_errors)


@batched_by(ON_BATCH)  # the batch's pivots at once, a parameter of one op call
def _lu_factor_ex(A, check_errors):
    _, pivots, info = _np_lu(A._data)
    if check_errors:
        _check_lu_info(info, "torch.linalg.lu_factor_ex")
    return named.linalg_lu_factor_ex((unary(LU_FACTOR, A, (pivots,)), _wrap(pivots), _wrap(info)))


def _check_lu_info(info, fn):
    """PyTorch's error for a zero pivot (lu_solve would divide by it)."""
    if info.any():
        k = int(info[info > 0].flat[0])
        raise _batch_error(RuntimeError, fn, f"U[{k},{k}] is zero and using it on lu_solve would result in a "
                           "division by zero. If you still want to perform the factorization, consider calling "
                           "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)", info, info.ndim)


def lu_factor(A, *, pivot=True, out=None):
    """``(LU, pivots)``; a zero pivot raises (lu_solve would divide by it)."""
    _check_lu_args(A, pivot, "linalg.lu_factor")
    empty = lacks_kernel(A, "lu_cpu", lambda a: lu_factor(a, pivot=pivot))
    if empty is not None:
        return empty
    return _lu_factor(A)


@batched_by(ON_BATCH)
def _lu_factor(A):
    _, pivots, info = _np_lu(A._data)
    _check_lu_info(info, "torch.linalg.lu_factor")
    return named.linalg_lu_factor((unary(LU_FACTOR, A, (pivots,)), _wrap(pivots)))


def lu(A, pivot=True, get_infos=False, out=None):
    """``torch.lu``: ``(LU, pivots)`` (and the infos), a plain tuple. A zero pivot doesn't
    raise, whatever ``get_infos`` (PyTorch's ``_lu_with_info`` ignores its check_errors)."""
    warnings.warn("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will "
                  "be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be "
                  "replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = "
                  "torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
                  "torch.linalg.lu_factor_ex(A, compute_pivots)", UserWarning, stacklevel=2)
    factored = lu_factor_ex(A, pivot=pivot)
    return named._lu_with_info(factored) if get_infos else tuple(factored[:2])


def _lu_layout(shape):
    m, n = shape[-2:]
    k = min(m, n)
    return _layout([((m, k), False), ((k, n), False)])


def _np_lu_factors(lu_matrix, pivots):
    """L and U packed from a packed LU (A given: factored first, with its pivots)."""
    m, n = lu_matrix.shape[-2:]
    k = min(m, n)
    lower = np.tril(lu_matrix[..., :, :k], -1) + np.eye(m, k, dtype=lu_matrix.dtype)
    return _np_pack([lower, np.triu(lu_matrix[..., :k, :])], lu_matrix.shape[:-2], _lu_layout(lu_matrix.shape))


def _linalg_lu_grad(g, packed, pivots, shape):
    layout = _lu_layout(shape)
    lower, upper = _parts(packed, layout)
    g_lower, g_upper = _parts(g, layout)
    p = _wrap(_np_permutation(pivots, shape[-2], lower._data.dtype))
    return _lu_grad(g_lower, g_upper, p, lower, upper)


def _linalg_lu_tangent(t, packed, pivots, shape):
    layout = _lu_layout(t.shape)
    lower, upper = _parts(packed, layout)
    p = _wrap(_np_permutation(pivots, lower.shape[-2], lower._data.dtype))
    return _packed(list(_lu_tangents(t, p, lower, upper)), packed, layout)


LU = defop("linalg_lu", lambda a, pivots: _np_lu_factors(_np_lu(a, pivots)[0], pivots), node="LinalgLuBackward0",
           save=lambda ans, a, pivots: (ans, pivots, a.shape), vjp=_linalg_lu_grad, jvp=_linalg_lu_tangent)
LU_OUT = defop("linalg_lu_output", _np_part, **_part_rules("LinalgLuBackward0"))


def linalg_lu(A, *, pivot=True, out=None):
    """``(P, L, U)`` with A = P L U: P a permutation, L unit lower, U upper triangular."""
    _check_lu_args(A, pivot, "linalg.lu")
    empty = lacks_kernel(A, "lu_cpu", lambda a: linalg_lu(a, pivot=pivot))
    if empty is not None:
        return empty
    return _linalg_lu(A)


@batched_by(ON_BATCH)  # the batch's pivots at once, a parameter of one op call
def _linalg_lu(A):
    _, pivots, _ = _np_lu(A._data)
    lower, upper = _outputs(LU_OUT, unary(LU, A, (pivots,)), _lu_layout(A._data.shape))
    return named.linalg_lu((_wrap(_np_permutation(pivots, A._data.shape[-2], A._data.dtype)), lower, upper))


def _lu_unpack_grad(g, shape):
    """The lower part of gL (not its unit diagonal) and the upper part of gU, back in one matrix."""
    g_lower, g_upper = _parts(g, _lu_layout(shape))
    return _pad_columns(tril(g_lower, -1), 0, shape[-1]) + _pad_rows(triu(g_upper), 0, shape[-2])


def _lu_unpack_tangent(t, shape):
    m, n = shape[-2:]
    k = min(m, n)
    like = _wrap(np.zeros(t.shape[:-2] + (m * k + k * n,), t._data.dtype))
    return _packed([tril(t[..., :, :k], -1), triu(t[..., :k, :])], like, _lu_layout(shape))


LU_UNPACK = defop("lu_unpack", lambda lu_matrix: _np_lu_factors(lu_matrix, None), node="LuUnpackBackward0",
                  save=lambda ans, lu_matrix: (lu_matrix.shape,), vjp=_lu_unpack_grad, jvp=_lu_unpack_tangent)
LU_UNPACK_OUT = defop("lu_unpack_output", _np_part, **_part_rules("LuUnpackBackward0"))


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None):
    """``(P, L, U)`` from a packed LU and its pivots."""
    empty = _wrap(np.zeros(0, LU_data._data.dtype))  # an output left out: (0,), under vmap too
    p, lower, upper = _lu_unpack(LU_data, LU_pivots)
    return named.lu_unpack((p if unpack_pivots else empty, lower if unpack_data else empty,
                            upper if unpack_data else empty))


@batched_by(ON_BATCH)  # the batch's permutations at once
def _lu_unpack(LU_data, LU_pivots):
    shape = LU_data._data.shape
    lower, upper = _outputs(LU_UNPACK_OUT, unary(LU_UNPACK, LU_data), _lu_layout(shape))
    return _wrap(_np_permutation(LU_pivots._data, shape[-2], LU_data._data.dtype)), lower, upper


def _np_lu_solve(lu_matrix, b, pivots, left, adjoint):
    """A X = b (A^H if ``adjoint``; X A = b if not ``left``) for A = P L U, all of the packed
    LU read (the gradient treats every element of it). X A = b is A^T X^T = b^T, and A^H's
    transpose is conj(A) = P conj(L) conj(U)."""
    lu_matrix = np.conj(lu_matrix) if adjoint else lu_matrix
    if left:
        return _np_lu_substitute(lu_matrix, pivots, b, transposed=adjoint)
    return np.swapaxes(_np_lu_substitute(lu_matrix, pivots, np.swapaxes(b, -1, -2), transposed=not adjoint), -1, -2)


def _lu_solve_grad_lu(g, lu_matrix, x, pivots, left, adjoint):
    """The gradient for A (A X = B and its variants), taken to L and U:
    tril(P^T gA U^H, -1) + triu(L^H P^T gA)."""
    gb = lu_solve(lu_matrix, _wrap(pivots), g, left=left, adjoint=not adjoint)
    if left:
        ga = -matmul(x, mH(gb)) if adjoint else -matmul(gb, mH(x))
    else:
        ga = -matmul(mH(gb), x) if adjoint else -matmul(mH(x), gb)
    lower, upper = _unpacked(lu_matrix)
    pt_ga = matmul(_wrap(_np_permutation(pivots, lu_matrix.shape[-1], lu_matrix._data.dtype)).mT, ga)
    return tril(matmul(pt_ga, mH(upper)), -1) + triu(matmul(mH(lower), pt_ga))


def _lu_solve_tangent_lu(t, lu_matrix, x, pivots, left, adjoint):
    lower, upper = _unpacked(lu_matrix)
    p = _wrap(_np_permutation(pivots, lu_matrix.shape[-1], lu_matrix._data.dtype))
    da = matmul(p, matmul(tril(t, -1), upper) + matmul(lower, triu(t)))
    da = mH(da) if adjoint else da
    return lu_solve(lu_matrix, _wrap(pivots), -(matmul(da, x) if left else matmul(x, da)), left=left,
                    adjoint=adjoint)


LU_SOLVE = defop(
    "linalg_lu_solve", _np_lu_solve, node="LinalgLuSolveBackward0",
    save=lambda ans, lu_matrix, b, pivots, left, adjoint: (lu_matrix, ans, pivots, left, adjoint),
    vjp=(_lu_solve_grad_lu, lambda g, lu_matrix, x, pivots, left, adjoint: lu_solve(
        lu_matrix, _wrap(pivots), g, left=left, adjoint=not adjoint)),
    jvp=(_lu_solve_tangent_lu, lambda t, lu_matrix, x, pivots, left, adjoint: lu_solve(
        lu_matrix, _wrap(pivots), t, left=left, adjoint=adjoint)))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """X with ``A X = B`` (``A^H`` if ``adjoint``; ``X A = B`` if not ``left``) from A's LU."""
    if LU._data.dtype.kind not in "fc":
        raise RuntimeError(f"torch.linalg.lu_solve: Expected a floating point or complex tensor as input. Got "
                           f"{type_name(LU)}")
    if LU._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
                           f"{type_name(LU)} and B of type {type_name(B)} instead")
    if pivots._data.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    check_matrix(LU, "torch.linalg.lu_solve")
    check_matrix(B, "linalg.lu_solve", "B", square=False)
    n, (rows, cols) = LU._data.shape[-1], B._data.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    empty = lacks_kernel(LU, "linalg.lu_solve_cpu",
                         lambda lu: lu_solve(lu, pivots, B.to(lu.dtype), left=left, adjoint=adjoint))
    if empty is not None:
        return empty
    return _lu_solve(LU, pivots, B, left, adjoint)


@batched_by(lambda LU, pivots, B, left, adjoint: on_batch(
    lambda lu_matrix, p, b: _lu_solve_batch(lu_matrix, p, b, left, adjoint), LU, pivots, B))
def _lu_solve(LU, pivots, B, left, adjoint):  # (batched: the batch's pivots, a parameter of one op call)
    return apply(LU_SOLVE, (LU, B), (pivots._data, left, adjoint))


def _lu_solve_batch(lu_matrix, pivots, b, left, adjoint):
    """``lu_solve`` of a vmap batch (dim 0 of each): the three with as many batch dims as
    broadcasting gives one sample."""
    ndim = max(lu_matrix._data.ndim, b._data.ndim) - 1
    return lu_solve(pad(lu_matrix, ndim), pad(pivots, ndim - 1), pad(b, ndim), left=left, adjoint=adjoint)


def lu_solve_legacy(b, LU_data, LU_pivots, *, out=None):
    """``torch.lu_solve(b, LU, pivots)``: ``linalg.lu_solve`` with its arguments reversed."""
    warnings.warn("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future "
                  "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
                  "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)",
                  UserWarning, stacklevel=2)
    return lu_solve(LU_data, LU_pivots, b)


# --- Tensor methods --------------------------------------------------------------------------

Tensor.qr = qr
Tensor.svd = svd
Tensor.lu = lu
Tensor.lu_solve = lu_solve_legacy
