"""gradcheck and gradgradcheck: compare autograd with finite differences, as PyTorch does.

Both Jacobians are laid out as PyTorch's, one (input elements × output elements) matrix
per (differentiable input, differentiable output) pair:

* **numerical**: row by row, input element k moved by ±eps in place (central
  differences), every output recomputed;
* **analytical**: one backward per output element with a one-hot gradient (run twice:
  a backward that differs between runs is reported as not reentrant).

They agree when ``|analytical - numerical| <= atol + rtol·|numerical|`` everywhere.
``fast_mode`` compares one number per pair instead, ``v·J·u`` for random unit vectors
u and v: one jvp by finite differences and one vjp by backward per input.

Only outputs that require grad are checked (PyTorch's ``_differentiable_outputs``): a
float output that autograd does not differentiate (``lstsq``'s ``singular_values``)
is skipped. The failure message is PyTorch's; chainrule adds the element where the two
disagree most:

>>> gradcheck(f, (x,))
GradcheckError: Jacobian mismatch for output 0 with respect to input 0,
numerical:tensor(...)
analytical:tensor(...)
Largest difference at output 0 element (1,), input 0 element (1,): numerical 0.76..., analytical 1.53...

Use float64 inputs: float32 finite differences are too coarse for the default tolerances.
"""
import warnings

import numpy as np

from .._autograd.gradients import grad as autograd_grad
from .._functorch.vmap import vmap
from .._ops.shape.joining import stack
from .._core.tensor import _wrap as wrap, is_tensor
from . import forward_ad


class GradcheckError(RuntimeError):
    """Raised by gradcheck and gradgradcheck when a check fails."""


FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""

FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


# --- public entry points --------------------------------------------------------------------


def gradcheck(func, inputs, *, eps=1e-06, atol=1e-05, rtol=0.001, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True,
              fast_mode=False, masked=None):
    """True when autograd's gradients of ``func`` at ``inputs`` match finite differences;
    otherwise raises ``GradcheckError`` (or returns False with ``raise_exception=False``).

    >>> x = chainrule.randn(3, dtype=chainrule.float64, requires_grad=True)
    >>> gradcheck(chainrule.sin, (x,))
    True

    ``check_undefined_grad``: chainrule passes zeros where PyTorch passes an undefined
    gradient, so that check is the one every call makes ("backward not multiplied by
    grad_output"). ``masked`` only matters for sparse inputs, which chainrule lacks.
    """
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    try:
        _gradcheck(func, _as_tuple(inputs), eps, atol, rtol, nondet_tol, check_grad_dtypes, check_batched_grad,
                   check_batched_forward_grad, check_forward_ad, check_backward_ad, fast_mode, masked)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-06, atol=1e-05, rtol=0.001,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """gradcheck of the first derivatives: ``autograd.grad(func(*inputs), inputs,
    grad_outputs, create_graph=True)`` as a function of the inputs and ``grad_outputs``.

    Without ``grad_outputs``, one uniform [-1, 1) tensor per differentiable output (a
    fixed seed, so a run is reproducible; PyTorch draws from its global generator).
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        rng = np.random.default_rng(0)
        grad_outputs = tuple(_random_like(o, rng, gen_non_contig_grad_outputs)
                             for o in _differentiable_outputs(func(*inputs)))
    grad_outputs = _as_tuple(grad_outputs)
    n = len(grad_outputs)
    diff_inputs = {i for i, x in enumerate(inputs) if is_tensor(x) and x.requires_grad}
    diff_grad_outputs = {i for i, x in enumerate(grad_outputs) if x.requires_grad}

    def first_derivatives(*args):
        # forward AD hands detached inputs: make them require grad again, as PyTorch does
        ins = tuple(x.requires_grad_() if i in diff_inputs else x for i, x in enumerate(args[:len(args) - n]))
        gos = tuple(x.requires_grad_() if i in diff_grad_outputs else x for i, x in enumerate(args[len(args) - n:]))
        grads = autograd_grad(_differentiable_outputs(func(*ins)), [ins[i] for i in sorted(diff_inputs)], gos,
                              create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)


def _random_like(t, rng, non_contiguous):
    """Uniform [-1, 1) values shaped like ``t`` (float64 for a non-float ``t``), requiring grad."""
    dtype = t._data.dtype if t._data.dtype.kind in "fc" else np.dtype(np.float64)
    shape = t._data.shape
    if non_contiguous and t._data.size > 1:  # every other element of a twice-as-wide array
        values = _uniform(rng, shape[:-1] + (2 * shape[-1],), dtype)[..., ::2]
    else:
        values = _uniform(rng, shape, dtype)
    return _wrap(values).requires_grad_()


def _uniform(rng, shape, dtype):
    values = rng.uniform(-1, 1, shape)
    if dtype.kind == "c":
        values = values + 1j * rng.uniform(-1, 1, shape)
    return values.astype(dtype)


# --- the checks, in PyTorch's order ---------------------------------------------------------


def _gradcheck(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, check_batched_grad,
               check_batched_forward_grad, check_forward_ad, check_backward_ad, fast_mode, masked):
    _check_inputs(inputs)
    func_out = _as_tuple(func(*inputs))
    outputs = _differentiable_outputs(func_out)
    check = _fast_check if fast_mode else _slow_check
    if check_backward_ad:
        complex_outputs = [i for i, o in enumerate(outputs) if o.is_complex()]
        if complex_outputs:  # as PyTorch: the imaginary parts, then the real parts, as real functions
            for part in ("imaginary", "real"):
                check(_part_of_outputs(func, part), inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes,
                      part=part, complex_outputs=complex_outputs)
        else:
            check(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes)
    if check_forward_ad:
        complex_inputs = [i for i, t in enumerate(inputs) if is_tensor(t) and t.requires_grad and t.is_complex()]
        if complex_inputs:  # as PyTorch: the imaginary parts, then the real parts, as real inputs
            for part in ("imaginary", "real"):
                part_fn, part_inputs = _part_of_inputs(func, inputs, complex_inputs, part)
                check(part_fn, part_inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, part=part,
                      complex_inputs=complex_inputs, forward_ad=True)
        else:
            check(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, forward_ad=True)
    if check_batched_forward_grad:
        _test_batched_forward_grad(func, inputs)
    if not check_backward_ad:
        return
    if check_batched_grad:
        for i, o in enumerate(outputs):
            _test_batched_grad(inputs, o, i)
    _test_backward_mul_by_grad_output(outputs, inputs, masked)


def _check_inputs(inputs):
    """PyTorch's input validation: a float32 input warns, a stride-0 input raises."""
    any_requires_grad = False
    for idx, t in enumerate(inputs):
        if is_tensor(t) and t.requires_grad:
            if t._data.dtype not in (np.float64, np.complex128):
                warnings.warn(f"Input #{idx} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ", UserWarning, stacklevel=4)
            shape, strides = t._data.shape, t._data.strides
            if t._data.size and not all(st > 0 or sz <= 1 for st, sz in zip(strides, shape)):  # NumPy may give
                # an empty array zero strides; it has nothing to overlap
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                                   "inputs that are non-overlapping to be able to compute the numerical "
                                   "gradients correctly. You should call .contiguous on the input before "
                                   "passing it to gradcheck.")
            any_requires_grad = True
    if not any_requires_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them "
                         "have requires_grad=True.")


def _slow_check(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, part=None, complex_outputs=(),
                complex_inputs=(), forward_ad=False):
    """Full Jacobians, element by element."""
    func_out = _as_tuple(func(*inputs))
    outputs = _differentiable_outputs(func_out)
    if not outputs:
        _check_no_differentiable_outputs(func, inputs, _float_outputs(func_out), eps)
        return
    positions = [k for k, o in enumerate(func_out) if is_tensor(o) and o.requires_grad]
    numerical = _numerical_jacobians(func, inputs, positions, eps)
    if forward_ad:
        analytical = _forward_jacobians(func, inputs, positions)
    else:
        per_output = [_analytical_jacobians(inputs, o, nondet_tol, check_grad_dtypes) for o in outputs]
        analytical = [list(column) for column in zip(*per_output)]  # [input][output], as numerical
    for i in range(len(outputs)):
        for j, (a, n) in enumerate(zip(analytical, numerical)):
            if not _allclose(a[i], n[i], rtol, atol):
                raise GradcheckError(_mismatch_message(a[i], n[i], i, j, _part_named(part, i, j, complex_outputs,
                                                                                     complex_inputs), forward_ad)
                                     + _largest_difference(a[i], n[i], outputs[i], _diff_inputs(inputs)[j], i, j))


def _fast_check(func, inputs, eps, atol, rtol, nondet_tol, check_grad_dtypes, part=None, complex_outputs=(),
                complex_inputs=(), forward_ad=False):
    """PyTorch's fast mode: ``v·J·u`` by finite differences against autograd, per pair."""
    func_out = _as_tuple(func(*inputs))
    outputs = _differentiable_outputs(func_out)
    diff = _diff_inputs(inputs)
    rng = np.random.default_rng(0)
    all_u = [_unit_vector(rng, t._data.size, np.float64) for t in diff]
    all_v = [_unit_vector(rng, o._data.size, o._data.dtype) for o in outputs]
    if not outputs:
        for k, u in enumerate(all_u):
            for ju in _numerical_jvps(func, inputs, diff[k], _float_outputs(func_out), u, eps):
                if ju.size and np.abs(ju).max() > nondet_tol:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    positions = [k for k, o in enumerate(func_out) if is_tensor(o) and o.requires_grad]
    for j, (t, u) in enumerate(zip(diff, all_u)):
        numerical_ju = _numerical_jvps(func, inputs, t, positions, u, eps)
        analytical_ju = _forward_jvps(func, inputs, j, u, positions) if forward_ad else None
        for i, o in enumerate(outputs):
            if forward_ad:  # forward mode gives J·u itself: compare it whole
                a, n, v = analytical_ju[i], numerical_ju[i], None
            else:
                vj = _analytical_jacobians(inputs, o, nondet_tol, check_grad_dtypes, v=all_v[i])[j]
                a, n, v = vj.reshape(-1) @ u.astype(vj.dtype), all_v[i] @ numerical_ju[i], all_v[i]
            # v·J·u sums many elements: atol grows with them (PyTorch's _adjusted_atol)
            scale = 2 * float(u.sum()) if t.is_complex() else float(u.sum())
            tolerance = atol * scale * (1.0 if v is None else float(np.real(v.sum())))
            if not _allclose(a, n, rtol, tolerance):
                raise GradcheckError(_mismatch_message(a, n, i, j, _part_named(part, i, j, complex_outputs,
                                                                               complex_inputs), forward_ad)
                                     + _slow_mode_report(func, inputs, j, i, positions, rtol, atol, eps, forward_ad))


def _unit_vector(rng, size, dtype):
    values = rng.random(size)
    norm = np.linalg.norm(values)
    return (values / norm if norm else values).astype(dtype)


def _slow_mode_report(func, inputs, j, i, positions, rtol, atol, eps, forward_ad):
    """PyTorch's explanation after a fast-mode failure: the full Jacobians of the pair."""
    n = _numerical_jacobians(func, inputs, positions, eps)[j][i]
    if forward_ad:
        a = _forward_jacobians(func, inputs, positions)[j][i]
    else:
        a = _analytical_jacobians(inputs, _differentiable_outputs(_as_tuple(func(*inputs)))[i], float("inf"),
                                  False)[j]
    common = np.result_type(a, n)
    max_diff = np.abs(n.astype(common) - a.astype(common)).max() if n.size else np.zeros((), common)
    text = ("\nThe above quantities relating the numerical and analytical jacobians are computed \n"
            "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
            "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
            f"Numerical:\n {_wrap(n)}\nAnalytical:\n{_wrap(a)}\n\n"
            f"The max per-element difference (slow mode) is: {_wrap(max_diff)}.\n")
    if _allclose(a, n, rtol, atol):
        text += FAST_FAIL_SLOW_OK_MSG
    outputs = _differentiable_outputs(_as_tuple(func(*inputs)))
    return text + _largest_difference(a, n, outputs[i], _diff_inputs(inputs)[j], i, j)


# --- numerical derivatives: central differences, the input moved in place ----------------------


def _central_difference(func, inputs, data, where, delta, positions, eps):
    """(f(x + delta) - f(x - delta)) / 2eps for the outputs at ``positions``, with
    ``data[where]`` (an input's array) moved by ``delta``; flattened."""
    orig = data[where].copy()
    data[where] = orig - delta
    before = _output_arrays(func, inputs, positions)
    data[where] = orig + delta
    after = _output_arrays(func, inputs, positions)
    data[where] = orig
    result = []
    for a, b in zip(before, after):
        for name, x, y in (("shape", a.shape, b.shape), ("dtype", a.dtype, b.dtype)):
            if x != y:
                raise AssertionError(f"Expected `func` to return outputs with the same {name} when inputs are "
                                     f"perturbed by {eps}, but got: {name}s {x} and {y}.")
        result.append(((b - a) / (2 * eps)).reshape(-1))
    return result


def _output_arrays(func, inputs, positions):
    out = _as_tuple(func(*inputs))
    return [np.array(out[k]._data) for k in positions]


def _numerical_jacobians(func, inputs, positions, eps):
    """[input][output] Jacobians (input elements × output elements) of the outputs at
    ``positions``. A complex input gets PyTorch's conjugate Wirtinger derivative,
    d/dx + i·d/dy."""
    result = []
    for t in _diff_inputs(inputs):
        data = t._data
        columns = []
        for where in np.ndindex(data.shape):
            column = _central_difference(func, inputs, data, where, eps, positions, eps)
            if data.dtype.kind == "c":
                imag = _central_difference(func, inputs, data, where, eps * 1j, positions, eps)
                column = [dx + 1j * dy for dx, dy in zip(column, imag)]
            columns.append(column)
        outs = _as_tuple(func(*inputs))
        jacobians = []
        for k, position in enumerate(positions):
            out = outs[position]._data
            dtype = data.dtype if data.dtype.kind == "c" else out.dtype
            jacobian = np.zeros((data.size, out.size), dtype=dtype)
            for row, column in enumerate(columns):
                jacobian[row] = column[k]
            jacobians.append(jacobian)
        result.append(jacobians)
    return result


def _numerical_jvps(func, inputs, t, positions, u, eps):
    """J·u for one input by one central difference (fast mode); a complex input, as above."""
    data = t._data
    delta = (u * eps).reshape(data.shape)
    jvps = _central_difference(func, inputs, data, Ellipsis, delta, positions, eps)
    if data.dtype.kind == "c":
        imag = _central_difference(func, inputs, data, Ellipsis, delta * 1j, positions, eps)
        jvps = [dx + 1j * dy for dx, dy in zip(jvps, imag)]
    return jvps


def _check_no_differentiable_outputs(func, inputs, positions, eps):
    """Without differentiable outputs, finite differences must see no change either."""
    for jacobians in _numerical_jacobians(func, inputs, positions, eps):
        for jacobian in jacobians:
            if np.count_nonzero(jacobian):
                raise GradcheckError("Numerical gradient for function expected to be zero")


# --- analytical derivatives ---------------------------------------------------------------------


def _analytical_jacobians(inputs, output, nondet_tol, check_grad_dtypes, v=None):
    """Per differentiable input, its (input elements × output elements) Jacobian from
    backward with one-hot gradients; with ``v``, the single column of ``v``·J. Computed
    twice: a backward that changes between runs is not reentrant."""
    diff = _diff_inputs(inputs)
    grad_outputs = [v.reshape(output._data.shape)] if v is not None else None
    first, sizes_ok, types_ok = _jacobian_columns(output, diff, grad_outputs)
    second, _, _ = _jacobian_columns(output, diff, grad_outputs)
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    for a, b in zip(first, second):
        if a.size and np.abs(a - b).max() > nondet_tol:
            raise GradcheckError("Backward is not reentrant, i.e., running backward with same input and grad_output "
                                 "multiple times gives different values, although analytical gradient matches "
                                 f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}."
                                 + FAILED_NONDET_MSG)
    return first


def _jacobian_columns(output, diff, grad_outputs):
    data = output._data
    if grad_outputs is None:  # one-hot gradients, one per output element
        grad_outputs = []
        for k in range(data.size):
            onehot = np.zeros(data.size, dtype=data.dtype)
            onehot[k] = 1
            grad_outputs.append(onehot.reshape(data.shape))
    jacobians = [np.zeros((t._data.size, len(grad_outputs)), dtype=t._data.dtype) for t in diff]
    sizes_ok = types_ok = True
    for k, go in enumerate(grad_outputs):
        grads = autograd_grad(output, diff, _wrap(go), retain_graph=True, allow_unused=True)
        for jacobian, g, t in zip(jacobians, grads, diff):
            if g is None:
                continue
            if g._data.shape != t._data.shape:
                sizes_ok = False
            elif g._data.dtype != t._data.dtype:
                types_ok = False
            jacobian[:, k] = g._data.reshape(-1)
    return jacobians, sizes_ok, types_ok


def _forward_jacobians(func, inputs, positions):
    """[input][output] Jacobians from forward AD, one one-hot tangent per input element."""
    result = []
    for j, t in enumerate(_diff_inputs(inputs)):
        columns = []
        for k in range(t._data.size):
            onehot = np.zeros(t._data.size)
            onehot[k] = 1
            columns.append(_forward_jvps(func, inputs, j, onehot, positions))
        outs = _as_tuple(func(*inputs))
        result.append([np.array([column[i] for column in columns]).reshape(t._data.size, outs[p]._data.size)
                       for i, p in enumerate(positions)])
    return result


def _forward_jvps(func, inputs, j, u, positions):
    """J·u for differentiable input ``j`` (the others' tangents zero), by forward AD."""
    with forward_ad.dual_level():
        duals, k = [], 0
        for x in inputs:
            if is_tensor(x) and x.requires_grad:
                tangent = u.reshape(x._data.shape) if k == j else np.zeros(x._data.shape)
                x = forward_ad.make_dual(x.detach(), _wrap(tangent.astype(x._data.dtype)))
                k += 1
            duals.append(x)
        outs = _as_tuple(func(*duals))
        jvps = []
        for p in positions:
            tangent = forward_ad.unpack_dual(outs[p]).tangent
            size = outs[p]._data.size
            jvps.append(np.zeros(size, outs[p]._data.dtype) if tangent is None else
                        np.array(tangent._data).reshape(-1))
    return jvps


def _batched_equals_separate(fn, like, message, output_index=None):
    """``vmap(fn)`` over two random vectors shaped like ``like`` against ``fn`` on each: the
    one check behind check_batched_grad (fn a vjp) and check_batched_forward_grad (a jvp)."""
    rng = np.random.default_rng(0)
    vectors = [_wrap(rng.standard_normal(like._data.shape).astype(like._data.dtype)) for _ in range(2)]
    expected = [stack(shards) for shards in zip(*[fn(v) for v in vectors])]
    try:
        with warnings.catch_warnings():  # ops without a batching rule say so; expected here
            warnings.filterwarnings("ignore", message="There is a performance drop")
            result = vmap(fn)(stack(vectors))
    except RuntimeError as e:
        raise GradcheckError(f"While computing batched gradients, got: {e}\n\n{message}") from e
    for i, (res, exp) in enumerate(zip(result, expected)):
        if not np.allclose(res._data, exp._data, rtol=1e-05, atol=1e-08):
            raise GradcheckError(f"For output {i if output_index is None else output_index} and input {i}:\n\n"
                                 f"{message}\n\nGot:\n{res}\n\nExpected:\n{exp}")


def _test_batched_grad(inputs, output, output_index):
    """``vmap`` of the vjp against two separate vjps."""
    diff = _diff_inputs(inputs)

    def vjp(v):
        grads = autograd_grad(output, diff, v, retain_graph=True, allow_unused=True)
        return tuple(g if g is not None else _wrap(np.zeros(t._data.shape, t._data.dtype)) for g, t in zip(grads, diff))

    _batched_equals_separate(vjp, output, _FAILED_BATCHED_GRAD_MSG, output_index)


def _test_batched_forward_grad(func, inputs):
    """``vmap`` of the jvp along each input against two separate jvps."""
    for position, x in enumerate(inputs):
        if not (is_tensor(x) and x.requires_grad and x._data.dtype.kind in "fc"):
            continue

        def jvp(tangent, position=position, x=x):
            with forward_ad.dual_level():
                dual = forward_ad.make_dual(x.detach(), tangent)
                args = tuple(dual if i == position else (a.detach() if is_tensor(a) else a)
                             for i, a in enumerate(inputs))
                outs = []
                for out in _as_tuple(func(*args)):
                    if out is None:
                        continue
                    primal, t = forward_ad.unpack_dual(out)
                    outs.append(t if t is not None else _wrap(np.zeros(primal._data.shape, primal._data.dtype)))
                return tuple(outs)

        _batched_equals_separate(jvp, x, _FAILED_BATCHED_FORWARD_MSG)


_FAILED_BATCHED_FORWARD_MSG = """
gradcheck failed while testing batched gradient computation with forward-mode AD.
This test is enabled automatically when both `check_batched_grad=True`
and `check_forward_ad=True`, but can be disabled in the following ways
dependong on how the test was invoked (via a test that calls gradcheck
directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_forward_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_forward_grad=False`
"""


_FAILED_BATCHED_GRAD_MSG = """
gradcheck or gradgradcheck failed while testing batched gradient computation.
This could have been invoked in a number of ways (via a test that calls
gradcheck/gradgradcheck directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_grad=False` and/or `check_batched_gradgrad=False`.

If you're modifying an existing operator that supports batched grad computation,
or wish to make a new operator work with batched grad computation, please read
the following.

To compute batched grads (e.g., jacobians, hessians), we vmap over the backward
computation. The most common failure case is if there is a 'vmap-incompatible
operation' in the backward pass. Please see
NOTE: [How to write vmap-compatible backward formulas]
in the codebase for an explanation of how to fix this.
""".strip()


def _test_backward_mul_by_grad_output(outputs, inputs, masked):
    """Zero output gradients must give zero (or no) input gradients, of the input's dtype
    and shape."""
    diff = _diff_inputs(inputs)
    zeros = [_wrap(np.zeros(o._data.shape, o._data.dtype)) for o in outputs]
    grads = autograd_grad(outputs, diff, zeros, allow_unused=True) if outputs else [None] * len(diff)
    for g, t in zip(grads, diff):
        if g is None:
            continue
        if masked:
            if not np.allclose(g._data, 0):
                raise GradcheckError("backward not multiplied by grad_output")
        elif not (g._data == 0).all():
            raise GradcheckError("backward not multiplied by grad_output")
        if g._data.dtype != t._data.dtype:
            raise GradcheckError("grad is incorrect type")
        if g._data.shape != t._data.shape:
            raise GradcheckError("grad is incorrect size")


# --- comparing and reporting ----------------------------------------------------------------


def _allclose(a, b, rtol, atol):
    """``torch.allclose`` after type promotion: |a - b| <= atol + rtol·|b|, NaN never close."""
    common = np.result_type(a, b)
    return bool(np.isclose(np.asarray(a, common), np.asarray(b, common), rtol=rtol, atol=atol).all())


def _part_named(part, output_index, input_index, complex_outputs, complex_inputs):
    """The part of a complex output (backward) or input (forward AD) the message names,
    by PyTorch's rule: only when the failing output (input) is one of the complex ones."""
    if complex_inputs:
        return (part, "inputs") if input_index in complex_inputs else None
    return (part, "outputs") if output_index in complex_outputs else None


def _mismatch_message(a, n, output_index, input_index, part, forward_ad):
    """PyTorch's message; ``part``: (which part, "outputs" or "inputs") of a complex
    tensor was being checked, or None."""
    prefix = f"While considering the {part[0]} part of complex {part[1]} only, " if part else ""
    mode = "computed with forward mode " if forward_ad else ""
    return (prefix + f"Jacobian {mode}mismatch for output {output_index:d} with respect to input "
            f"{input_index:d},\nnumerical:{_wrap(n)}\nanalytical:{_wrap(a)}\n")


def _largest_difference(a, n, output, input, output_index, input_index):
    """chainrule's addition to the message: where the full Jacobians differ most."""
    common = np.result_type(a, n)
    difference = np.abs(np.asarray(a, common) - np.asarray(n, common))
    if not difference.size:
        return ""
    difference = np.where(np.isnan(difference), np.inf, difference)
    row, column = np.unravel_index(int(np.argmax(difference)), difference.shape)
    out_element = tuple(int(k) for k in np.unravel_index(column, output._data.shape))
    in_element = tuple(int(k) for k in np.unravel_index(row, input._data.shape))
    return (f"Largest difference at output {output_index} element {out_element}, input {input_index} element "
            f"{in_element}: numerical {n[row, column].item()!r}, analytical {a[row, column].item()!r}\n")


def _part_of_outputs(func, part):
    """``func`` with each complex output replaced by its real or imaginary part."""
    attribute = "imag" if part == "imaginary" else "real"

    def part_fn(*inputs):
        return tuple(getattr(o, attribute) if is_tensor(o) and o.is_complex() else o for o in _as_tuple(func(*inputs)))
    return part_fn


def _part_of_inputs(func, inputs, complex_inputs, part):
    """(``func`` of the real or imaginary parts of the complex inputs, the other part held
    fixed; those parts as its inputs)."""
    attribute = "imag" if part == "imaginary" else "real"

    def part_fn(*args):
        args = list(args)
        for i in complex_inputs:
            args[i] = inputs[i].real + args[i] * 1j if part == "imaginary" else args[i] + inputs[i].imag * 1j
        return _as_tuple(func(*args))
    return part_fn, tuple(getattr(t, attribute) if i in complex_inputs else t for i, t in enumerate(inputs))


# --- small helpers --------------------------------------------------------------------------


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _diff_inputs(inputs):
    return [t for t in inputs if is_tensor(t) and t.requires_grad]


def _differentiable_outputs(func_out):
    """PyTorch's ``_differentiable_outputs``: the outputs that require grad."""
    return tuple(o for o in _as_tuple(func_out) if is_tensor(o) and o.requires_grad)


def _float_outputs(func_out):
    return [k for k, o in enumerate(func_out) if is_tensor(o) and o._data.dtype.kind in "fc"]



def _wrap(array):
    return wrap(np.asarray(array))
