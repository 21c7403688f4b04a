"""gradcheck and gradgradcheck: compare autograd with finite differences.

The numerical Jacobian perturbs one input element at a time by ±eps (central
differences); the analytical one runs backward once per output element with a one-hot
gradient. Both are (outputs × inputs) matrices compared with ``atol + rtol·|numerical|``.
Use float64 inputs: float32 finite differences are too coarse for the default tolerances.
"""
import warnings

import numpy as np

from .functions import grad as autograd_grad


class GradcheckError(RuntimeError):
    """Raised by gradcheck when the two Jacobians disagree."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _diff_inputs(inputs):
    return [i for i, t in enumerate(inputs) if _is_tensor(t) and t.requires_grad]


def _is_tensor(x):
    return hasattr(x, "_data") and hasattr(x, "grad_fn")


def _outputs(func, inputs):
    return [o for o in _as_tuple(func(*inputs)) if _is_tensor(o)]


def _numerical_jacobians(func, inputs, eps):
    """For each differentiable input: a list over outputs of (out.numel, in.numel) arrays.

    Grad mode stays on: for gradgradcheck, ``func`` itself runs autograd."""
    base = _outputs(func, inputs)
    result = []
    for i in _diff_inputs(inputs):
        data = inputs[i]._data
        flat = data.reshape(-1) if data.flags.c_contiguous else None
        if flat is None:
            raise ValueError("gradcheck needs contiguous inputs")
        jac = [np.zeros((o._data.size, data.size), dtype=np.result_type(o._data.dtype, data.dtype))
               for o in base]
        for k in range(data.size):
            orig = flat[k].copy()
            flat[k] = orig + eps
            plus = [o._data.copy() for o in _outputs(func, inputs)]
            flat[k] = orig - eps
            minus = [o._data.copy() for o in _outputs(func, inputs)]
            flat[k] = orig
            for j, (p, m) in enumerate(zip(plus, minus)):
                jac[j][:, k] = ((p - m) / (2 * eps)).reshape(-1)
        result.append(jac)
    return result


def _analytical_jacobians(func, inputs):
    """Same layout as the numerical one, row by row from backward with one-hot gradients."""
    diff = [inputs[i] for i in _diff_inputs(inputs)]
    outputs = _outputs(func, inputs)
    jacs = [[np.zeros((o._data.size, t._data.size), dtype=np.result_type(o._data.dtype, t._data.dtype))
             for o in outputs] for t in diff]
    for j, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for r in range(out._data.size):
            onehot = np.zeros(out._data.size, dtype=out._data.dtype)
            onehot[r] = 1
            grads = autograd_grad(out, diff, grad_outputs=_wrap(onehot.reshape(out._data.shape)),
                                  retain_graph=True, allow_unused=True)
            for k, g in enumerate(grads):
                if g is not None:
                    jacs[k][j][r, :] = g._data.reshape(-1)
    return jacs


def _compare(numerical, analytical, inputs, atol, rtol, raise_exception):
    for k, i in enumerate(_diff_inputs(inputs)):
        for j, (num, ana) in enumerate(zip(numerical[k], analytical[k])):
            bad = ~np.isclose(ana, num, rtol=rtol, atol=atol, equal_nan=True)
            if bad.any():
                where = tuple(int(v) for v in np.argwhere(bad)[0])
                message = (f"Jacobian mismatch for output {j} with respect to input {i},\n"
                           f"numerical:{_wrap(num)!r}\nanalytical:{_wrap(ana)!r}\n"
                           f"The first mismatch is at output element {where[0]}, input element "
                           f"{where[1]}: numerical {num[where]!r}, analytical {ana[where]!r}.\n")
                if raise_exception:
                    raise GradcheckError(message)
                return False
    return True


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """True when autograd's gradients of ``func`` at ``inputs`` match finite differences.

    >>> x = chainrule.randn(3, dtype=chainrule.float64, requires_grad=True)
    >>> gradcheck(chainrule.sin, (x,))
    True

    ``fast_mode`` is accepted and runs the full check.
    """
    inputs = _as_tuple(inputs)
    for i in _diff_inputs(inputs):
        if inputs[i]._data.dtype not in (np.float64, np.complex128):
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point or "
                          "complex. This check will likely fail if all the inputs are not of double "
                          "precision floating point or complex. ", UserWarning, stacklevel=2)
    if not _diff_inputs(inputs):
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of "
                         "them have requires_grad=True.")
    numerical = _numerical_jacobians(func, inputs, eps)
    if check_backward_ad:
        analytical = _analytical_jacobians(func, inputs)
        if not _compare(numerical, analytical, inputs, atol, rtol, raise_exception):
            return False
    if check_forward_ad:
        from . import forward_ad
        forward = forward_ad.jacobians(func, inputs)
        if not _compare(numerical, forward, inputs, atol, rtol, raise_exception):
            return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """gradcheck of the gradients: the second derivatives of ``func`` against finite
    differences of its (``create_graph=True``) first derivatives."""
    inputs = _as_tuple(inputs)
    diff = _diff_inputs(inputs)
    if grad_outputs is None:
        # one random grad_output per differentiable output (integer outputs get none)
        rng = np.random.default_rng(0)
        outs = [o for o in _outputs(func, inputs) if o.requires_grad]
        grad_outputs = tuple(_wrap(rng.standard_normal(o._data.shape).astype(o._data.dtype)).requires_grad_()
                             for o in outs)
    grad_outputs = _as_tuple(grad_outputs)
    n = len(inputs)

    def first_derivatives(*args):
        ins, gos = args[:n], args[n:]
        outs = [o for o in _outputs(func, ins) if o.requires_grad]
        return autograd_grad(outs, [ins[i] for i in diff], gos[:len(outs)], create_graph=True,
                             allow_unused=True, materialize_grads=True)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


def _wrap(array):
    from .._tensor import _wrap as wrap
    return wrap(np.asarray(array))
