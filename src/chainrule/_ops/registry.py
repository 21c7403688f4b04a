"""The op registry: every op is one ``defop`` entry, its forward and rules side by side.

An entry says:

* ``forward(*arrays, *params)``: the NumPy computation.
* ``save(ans, *inputs, *params)``: what the rules need, chosen at forward time so the
  graph keeps only that (``mul`` keeps both inputs, ``add`` keeps nothing, ``exp``
  keeps its output). Omitted: the rules get nothing but the incoming gradient.
* ``vjp``: one rule per tensor input, ``rule(g, *saved) -> gradient for that input``.
  Backward calls only the rules of inputs that need a gradient.
* ``jvp``: one rule per tensor input, ``rule(tangent, *saved) -> output tangent``;
  forward mode sums them over the inputs that carry a tangent. Two shorthands, as
  PyTorch's ``derivatives.yaml`` has ``auto_linear`` and ``auto_element_wise``:
  ``jvp=LINEAR`` for an op linear in its one input whose ``save`` keeps exactly its
  params: the tangent is the op itself applied to the tangent; ``jvp=FROM_VJP`` where each
  vjp rule is its tangent rule with each coefficient conjugated (``g * cos(x).conj()``:
  PyTorch's formulas are written so), whose tangent rule is then the vjp's adjoint
  ``conj(vjp(conj(t)))`` (``t * cos(x)``, the same arithmetic).
* ``node``: PyTorch's name for the backward node (``MulBackward0``).

Rules are written with chainrule's own ops. Backward runs them with grad mode off (plain
first-order backward: no graph is built) or on (``create_graph=True``: the gradient
is itself recorded and can be differentiated again). One formula, both uses.
"""
import sys
import warnings

import numpy as np
from numpy import asarray, empty, ndarray

from .._core import dtype as _dtype

from .._autograd.anomaly_mode import called_from, remember
from .._core.modes import ANOMALY, LINES
from .._autograd.engine import ANS, current_grad_fn, grad_accumulator, node_class
from .._autograd.graph import pack_saved
from .._core.modes import SAVED_HOOKS
from .._core.modes import FORWARD_AD, GRAD_MODE, VMAP
from .._core.tensor import InferenceCounter, Tensor, _legacy_type_name, _wrap, extras

_new = object.__new__

OPS = {}

# True while an in-place op records: PyTorch lets ``int_tensor.fill_(value_needing_grad)``
# give an integer tensor a history, but refuses any other integer result of it
IN_PLACE = False


class Op:
    """A registered op. See the module docstring for the fields."""

    __slots__ = ("name", "forward", "save", "vjp", "jvp", "joint_jvp", "node_name", "node_class", "is_view",
                 "elementwise", "number_operand", "batch")

    def __init__(self, name, forward, node, vjp, jvp, save, is_view, elementwise, number_operand, batch=None):
        self.name = name
        self.forward = forward
        self.node_name = node
        self.node_class = node_class(node)  # type(grad_fn): PyTorch's MulBackward0
        self.vjp = vjp if isinstance(vjp, tuple) else (vjp,)
        self.jvp = jvp if isinstance(jvp, tuple) else (jvp,)
        self.joint_jvp = None  # (tangents, *saved) -> tangent, where more than one input has one
        self.save = save
        self.is_view = is_view
        self.elementwise = elementwise
        self.number_operand = number_operand
        self.batch = batch

    def __repr__(self):
        return f"<op {self.name}>"


LINEAR = "the op itself"  # jvp=LINEAR: see the module docstring
FROM_VJP = "the vjp's adjoint"  # jvp=FROM_VJP


def _adjoint(vjp):
    """The tangent rule whose vjp rule is ``vjp``, where that conjugates each coefficient:
    ``conj(vjp(conj(t)))``, which computes ``t * derivative`` exactly (conjugation commutes
    with IEEE complex products, quotients and sums; a real tensor's ``conj()`` is itself)."""
    def jvp(t, *saved):
        return vjp(t.conj(), *saved).conj()
    return jvp


def defop(name, forward, *, node, vjp, jvp, save=None, view=False, elementwise=False,
          number_operand=False, batch=None, joint_jvp=None):
    """Registers an op. ``view=True``: outputs share memory with input 0.
    ``elementwise=True``: a one-input op whose output has its input's shape.
    ``number_operand=True``: the op's last parameter is a Python number that PyTorch
    would wrap as a tensor: it shows as ``(None, 0)`` in ``next_functions``, and once
    backward freed the graph, using the saved number again is an error, as in PyTorch.
    ``batch``: the op's batching rule for vmap, ``rule(op, args, batched, params, dtype)``
    (see ``batching``); an ``elementwise`` op's default (``batching.elementwise``, chosen by
    vmap's dispatch) applies it to the whole batch.
    Without one, vmap runs the op once per batch element.
    ``joint_jvp``: the tangent when several inputs have one, where PyTorch's formula is not
    the sum of the ``jvp`` terms (it differs at inf and nan)."""
    if name in OPS:
        raise ValueError(f"op {name!r} registered twice")
    if jvp is LINEAR:
        def jvp(t, *params):
            return unary(op, t, params)
    elif jvp is FROM_VJP:
        jvp = tuple(None if rule is None else _adjoint(rule) for rule in vjp) if isinstance(vjp, tuple) \
            else _adjoint(vjp)
    op = OPS[name] = Op(name, forward, node, vjp, jvp, save, view, elementwise, number_operand, batch)
    op.joint_jvp = joint_jvp
    return op


def apply(op, inputs, params=(), dtype=None):
    """Runs ``op`` on the tensors ``inputs`` and records a graph node when needed.

    ``dtype``: the result's NumPy dtype when PyTorch's promotion differs from NumPy's
    (the callers decide; see ``_dtype``). ``unary`` and ``binary`` are the same with
    fewer steps, for the hot path.
    """
    if VMAP.active:  # vmap: an op with a batched input runs batched (see _functorch.batched)
        out = VMAP.dispatch(op, inputs, params, dtype)
        if out is not None:
            return out
    arrays = [t._data for t in inputs]
    if dtype is not None and dtype.kind in "fc":  # floats computed in the result's dtype, as PyTorch
        arrays = [a.astype(dtype) if a.dtype.kind == dtype.kind and a.dtype != dtype else a for a in arrays]
    try:
        data = op.forward(*arrays, *params)
    except ValueError as e:
        raise broadcast_error(e, *[t._data.shape for t in inputs]) from None
    if data.__class__ is not ndarray:  # NumPy returns scalars from 0-d computations
        data = asarray(data)
    if dtype is not None and data.dtype != dtype:
        data = data.astype(dtype)
    out = _wrap(data)
    if op.is_view:
        _mark_view(out, inputs[0], op, params)
    if GRAD_MODE.enabled:
        for t in inputs:
            if t._requires_grad:
                record(op, out, inputs, params)
                break
    elif GRAD_MODE.inference and not op.is_view:  # an inference tensor (a view shares its input's kind)
        out._counter = InferenceCounter(out._counter)
    if FORWARD_AD.active:  # forward AD: a dual level holds a dual tensor
        FORWARD_AD.propagate(op, out, inputs, params)
    return out


def unary(op, x, params=(), dtype=None):
    """``apply`` for one input."""
    if VMAP.active:  # vmap: an op with a batched input runs batched (see _functorch.batched)
        out = VMAP.dispatch(op, (x,), params, dtype)
        if out is not None:
            return out
    try:
        data = op.forward(x._data, *params)
    except AttributeError:
        if not isinstance(x, Tensor):
            raise not_a_tensor(x) from None
        raise
    if data.__class__ is not ndarray:
        data = asarray(data)
    if dtype is not None and data.dtype != dtype:
        data = data.astype(dtype)
    out = _new(Tensor)  # _wrap, inlined: this is the hottest constructor call
    out._data = data
    out._requires_grad = False
    out.grad_fn = out._grad = out._extra = None
    out._counter = [0]
    if op.is_view:
        _mark_view(out, x, op, params)
    if GRAD_MODE.enabled:
        if x._requires_grad:
            _record_unary(op, out, x, params)
    elif GRAD_MODE.inference and not op.is_view:
        out._counter = InferenceCounter(out._counter)
    if FORWARD_AD.active:
        FORWARD_AD.propagate(op, out, (x,), params)
    return out


def binary(op, x, y, dtype=None):
    """``apply`` for two inputs and no parameters."""
    if VMAP.active:  # vmap: an op with a batched input runs batched (see _functorch.batched)
        out = VMAP.dispatch(op, (x, y), (), dtype)
        if out is not None:
            return out
    xd, yd = x._data, y._data
    if dtype is not None:  # computed in the result's dtype, as PyTorch does (NumPy would compute
        if xd.dtype != dtype:  # a float32 tensor with a float64 0-d one in float64, and a uint8
            xd = xd.astype(dtype)  # tensor ** an int64 0-d -3 without wrapping the -3 to 253)
        if yd.dtype != dtype:
            yd = yd.astype(dtype)
    try:
        data = op.forward(xd, yd)
    except ValueError as e:
        raise broadcast_error(e, x._data.shape, y._data.shape) from None
    if data.__class__ is not ndarray:
        data = asarray(data)
    if dtype is not None and data.dtype != dtype:
        data = data.astype(dtype)
    out = _new(Tensor)
    out._data = data
    out._requires_grad = False
    out.grad_fn = out._grad = out._extra = None
    out._counter = [0]
    if GRAD_MODE.enabled:
        if x._requires_grad or y._requires_grad:
            record(op, out, (x, y), ())
    elif GRAD_MODE.inference:
        out._counter = InferenceCounter(out._counter)
    if FORWARD_AD.active:
        FORWARD_AD.propagate(op, out, (x, y), ())
    return out


def check_out(name, out, inputs):
    """PyTorch's refusals of an ``out=`` argument, before the op runs: ``out`` must be a
    tensor, and out= variants record no graph, so none of ``inputs`` (nor ``out``) may
    require grad while grad mode is on."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {type(out).__name__}")
    if GRAD_MODE.enabled and (out._requires_grad or any(t._requires_grad for t in inputs)):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")


def write_out(out, result, cast_error=None, stacklevel=4):
    """Writes the tensor ``result`` into ``out`` as PyTorch's out= variants do, and returns
    ``out``: cast to out's dtype where ``torch.can_cast`` allows it (else ``cast_error``, or
    PyTorch's pointwise error), out resized when its shape differs (with PyTorch's
    deprecation warning unless out was empty), and out's version moved on.

    >>> out = chainrule.empty(0)
    >>> chainrule.cat([chainrule.ones(1), chainrule.zeros(1)], out=out) is out, out
    (True, tensor([1., 0.]))
    """
    if not _dtype.can_cast(result.dtype, out.dtype):
        raise cast_error or RuntimeError(f"result type {_legacy_type_name(result._data.dtype)[6:-6]} can't be cast "
                                         f"to the desired output type {_legacy_type_name(out._data.dtype)[6:-6]}")
    _resize_out(out, result._data.shape, stacklevel)
    out._data[...] = result._data
    out._counter[0] += 1
    return out


def _resize_out(out, shape, stacklevel=4):
    """out= of another shape is resized, with PyTorch's deprecation warning unless out was empty."""
    if out._data.shape != shape:
        if out._data.size:
            warnings.warn(f"An output with one or more elements was resized since it had shape {list(out._data.shape)}, "
                          f"which does not match the required output shape {list(shape)}. This behavior is "
                          "deprecated, and in a future PyTorch release outputs will not be resized unless they have "
                          "zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
                          "elements with t.resize_(0).", UserWarning, stacklevel=stacklevel)
        out._data = empty(shape, out._data.dtype)


def into(out, fn, *args, exact=None, **kwargs):
    """PyTorch's ``out=`` variant of the public function ``fn``: its checks (``check_out``,
    no partial overlap of ``out`` with an input), then ``fn(*args, **kwargs)`` written
    into ``out`` (``write_out``). ``exact``: the op keeps its input's dtype and out
    must have it too; ``exact(input_dtype, out_dtype)`` is the error otherwise (e.g.
    ``found_dtype``).

    >>> out = chainrule.empty(0)
    >>> chainrule.exp(chainrule.zeros(2), out=out) is out, out
    (True, tensor([1., 1.]))
    """
    name = fn.__name__
    tensors = [a for a in args if isinstance(a, Tensor)]
    check_out(name, out, tensors)
    for t in tensors:
        _check_overlap(out._data, t._data)
    if exact is not None and tensors and tensors[0]._data.dtype != out._data.dtype:  # before the op runs
        raise exact(tensors[0]._data.dtype, out._data.dtype)
    try:
        result = fn(*args, **kwargs)
    except NotImplementedError:
        _refused_out(out, args, tensors)
        raise
    except RuntimeError as e:
        if str(e) == "ZeroDivisionError":
            _refused_out(out, args, tensors)
        raise
    return write_out(out, result, stacklevel=5)  # the warning points at the user's call


def _refused_out(out, args, tensors):
    """Where the op's kernel refuses (no kernel for the dtype, an integer division by zero),
    PyTorch has checked ``out`` first: the promoted dtype's cast, then out's resize."""
    try:
        dtype = _dtype.result_dtype(args)
        shape = np.broadcast_shapes(*[t._data.shape for t in tensors])
    except Exception:  # noqa: BLE001  (no better guess: the op's own error stands)
        return
    if not _dtype.can_cast(dtype, out.dtype):
        raise RuntimeError(f"result type {_dtype.type_word(dtype.np)} can't be cast to the desired output type "
                           f"{_dtype.type_word(out._data.dtype)}") from None
    _resize_out(out, shape, stacklevel=5)


def found_dtype(result, out):
    """The out= error of ops that keep their input's dtype (``neg``, ``floor``)."""
    return RuntimeError(f"Found dtype {_dtype.type_word(out)} but expected {_dtype.type_word(result)}")


def _check_overlap(out, data):
    """PyTorch refuses an out= that shares only part of an input's memory (the same
    elements in the same places are fine: ``torch.add(x, y, out=x)``)."""
    if out.size and data.size and np.may_share_memory(out, data) and not (
            out.__array_interface__["data"][0] == data.__array_interface__["data"][0]
            and out.shape == data.shape and out.strides == data.strides):
        raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor "
                           "refer to a single memory location. Please clone() the tensor before performing the "
                           "operation.")


def public_caller():
    """The name of the public function (``exp``, ``add``) whose helpers are running: the
    first caller up the stack whose name has no leading underscore, for messages."""
    frame = sys._getframe(2)
    while frame.f_code.co_name[0] in "_<" or frame.f_code.co_name in _HELPERS:
        frame = frame.f_back
    return frame.f_code.co_name


_HELPERS = {"unary", "binary", "apply", "not_a_tensor", "common_operands", "as_tensor_like", "cast"}


def not_a_tensor(value, name="input", position=1):
    """PyTorch's TypeError for a non-tensor where a tensor must be:
    ``exp(): argument 'input' (position 1) must be Tensor, not float``."""
    kind = "numpy.ndarray" if isinstance(value, ndarray) else type(value).__name__
    return TypeError(f"{public_caller()}(): argument '{name}' (position {position}) must be Tensor, not {kind}")


def broadcast_error(error, *shapes):
    """PyTorch's message for shapes that don't broadcast; other errors pass unchanged."""
    if len(shapes) >= 2:
        a, b = shapes[0], shapes[1]
        ndim = max(len(a), len(b))
        for dim in range(ndim - 1, -1, -1):
            i, j = dim - (ndim - len(a)), dim - (ndim - len(b))
            size_a = a[i] if i >= 0 else 1
            size_b = b[j] if j >= 0 else 1
            if size_a != size_b and size_a != 1 and size_b != 1:
                return RuntimeError(f"The size of tensor a ({size_a}) must match the size of tensor b "
                                    f"({size_b}) at non-singleton dimension {dim}")
    return error


def record(op, out, inputs, params):
    """Attaches to ``out`` the node that backward will run for ``op``."""
    shape, dtype = out._data.shape, out._data.dtype
    if dtype.kind in "biu" and not IN_PLACE:
        raise _not_differentiable(dtype)
    node = _new(op.node_class)
    node.op = op
    node.hooks = None
    edges = []
    metas = None
    for i, t in enumerate(inputs):
        fn = t.grad_fn if t._extra is None else current_grad_fn(t)
        if fn is not None:
            edges.append(fn)
        elif t._requires_grad:
            edges.append(grad_accumulator(t))
        else:
            edges.append(None)
            continue
        data = t._data
        if data.shape != shape or data.dtype != dtype:  # the engine must reduce or cast
            if metas is None:
                metas = [None] * len(inputs)
            metas[i] = (data.shape, data.dtype)
    node.next = tuple(edges)
    node.meta = metas
    if op.save is None:
        node.saved = node.checks = ()
        node.ans = None
    else:
        _save(node, op.save(out, *inputs, *params), out)
    if ANOMALY.enabled:  # anomaly detection: where the op was called (see anomaly_mode)
        remember(node)
    out._requires_grad = True
    out.grad_fn = node
    return node


def _not_differentiable(dtype):
    return RuntimeError(f"Autograd not support dtype: {_dtype._LEGACY_NAMES[dtype.name]}")


def _record_unary(op, out, x, params):
    """``record`` for one input, the most common node, without the loops."""
    data, result = x._data, out._data
    if result.dtype.kind in "biu" and not IN_PLACE:
        raise _not_differentiable(result.dtype)
    node = _new(op.node_class)
    node.op = op
    node.hooks = None
    fn = x.grad_fn if x._extra is None else current_grad_fn(x)
    node.next = (fn or grad_accumulator(x),)
    if data.dtype is result.dtype and (op.elementwise or data.shape == result.shape):
        node.meta = None
    else:
        node.meta = None if data.shape == result.shape and data.dtype == result.dtype else \
            ((data.shape, data.dtype),)
    if op.save is None:
        node.saved = node.checks = ()
        node.ans = None
    else:
        _save(node, op.save(out, x, *params), out)
    if ANOMALY.enabled:
        remember(node)
    out._requires_grad = True
    out.grad_fn = node


def _save(node, saved, out):
    """Keeps what the rules need, with the version of each saved tensor (see engine)."""
    if SAVED_HOOKS:  # saved-tensor hooks decide how tensors are kept (autograd.graph)
        pack_saved(node, saved, out)
        return
    checks = []
    node.ans = None
    for s in saved:
        if isinstance(s, Tensor):
            if s is out:  # never hold the output itself: that would be a cycle
                node.ans = out._data
                checks.append((out._counter, out._counter[0], None))
            else:
                if s._counter.__class__ is not list:
                    raise _inference_saved()
                checks.append((s._counter, s._counter[0], s))
    node.saved = tuple([ANS if s is out else s for s in saved]) if node.ans is not None else saved
    if node.op.number_operand and saved:
        checks.append(_WRAPPED_NUMBER)
    node.checks = checks
    if checks and LINES.enabled:  # where the user made it, for the in-place error (anomaly_mode)
        # 5 frames up: _save < record < binary/unary/apply < the Tensor method < the user's line
        node.where = called_from(5)


def _inference_saved():
    return RuntimeError("Inference tensors cannot be saved for backward. Please do not use Tensors created in "
                        "inference mode in computation tracked by autograd. To work around this, you can make a "
                        "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
                        "`torch.inference_mode()`.")


_WRAPPED_NUMBER = ([0], 0, None)  # a "saved tensor" that never changes, but is freed


def _mark_view(out, x, op, params):
    """``out`` shares ``x``'s memory: same version counter, and a recipe to rebuild it
    from the base (used when an in-place op on the view must update the base's graph)."""
    out._counter = x._counter
    if x._requires_grad and not GRAD_MODE.enabled:
        out._requires_grad = True  # PyTorch: a view of such a tensor still requires grad
    e = extras(out)
    if x._base is None:
        e.base, e.view_steps = x, ((op, params),)
    else:
        e.base, e.view_steps = x._base, x._view_steps + ((op, params),)
    e.view_version = x._counter[0]
    if e.base._extra is not None and e.base._extra.layout_undo:
        e.base_layout = len(e.base._extra.layout_undo)


def replay_view(base, steps):
    """Applies recorded view steps to ``base`` (a tensor), giving the same view again."""
    for op, params in steps:
        base = apply(op, (base,), params)
    return base


def tangent_of(op, saved, tangents, missing=NotImplementedError):
    """``op``'s output tangent from its input tangents (None: zero): its joint rule where
    several inputs have one, else the sum of each input's term; ``missing(op)`` is raised
    for an input without a rule."""
    if op.joint_jvp is not None and sum(t is not None for t in tangents) > 1:
        return op.joint_jvp(tangents, *saved)
    total = None
    for rule, t in zip(op.jvp, tangents):
        if t is None:
            continue
        if rule is None:
            raise missing(op)
        term = rule(t, *saved)
        total = term if total is None else total + term
    return total
