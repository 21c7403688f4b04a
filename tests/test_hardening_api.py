"""Issue 10's bad-input and missing-API cases: each program runs on chainrule and on
PyTorch, and gives the same values, dtypes and graph names, or the same error."""
import warnings

import numpy as np
import pytest

import chainrule
from helpers import error_of, require_torch


def _assert_same(ours, theirs):
    """Tensors agree on dtype, shape, nan positions, the sign of each zero, and values to
    float32 rounding; other results exactly; sequences item by item."""
    if isinstance(ours, (tuple, list)):
        assert isinstance(theirs, (tuple, list)) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _assert_same(a, b)
    elif isinstance(ours, chainrule.Tensor):
        a, b = np.asarray(ours.detach().numpy()), np.asarray(theirs.detach().numpy())
        assert (str(ours.dtype), a.shape) == (str(theirs.dtype), b.shape)
        assert (np.isnan(a) == np.isnan(b)).all() if a.dtype.kind in "fc" else True
        assert (np.signbit(a[a == 0]) == np.signbit(b[b == 0])).all() if a.dtype.kind == "f" else True
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=0)
    elif isinstance(ours, chainrule.dtype):
        assert str(ours) == str(theirs)
    else:
        assert ours == theirs


def _backward_inputs_nonleaf(lib):
    x = lib.ones(3, requires_grad=True)
    h = x * 2
    y = (h * h).sum()
    y.backward(inputs=[h], retain_graph=True)
    first = h.grad.clone()
    y.backward(inputs=[h, x])
    return first, h.grad, x.grad


def _grad_other_dtype(lib, dtype):
    x = lib.ones(3, requires_grad=True)
    seen = []
    y = x * 2
    y.register_hook(lambda g: seen.append(str(g.dtype)))
    y.backward(lib.ones(3, dtype=getattr(lib, dtype)))
    return x.grad, seen


def _loss(lib, name, x_shape, t_shape, **kwargs):
    """A loss of zero-filled logits (+0 or -0 matters), and its gradient."""
    x = lib.zeros(x_shape, requires_grad=True)
    if kwargs.get("weight"):
        kwargs["weight"] = lib.ones(x_shape[1])
    loss = getattr(lib.nn.functional, name)(x, lib.zeros(t_shape, dtype=lib.long), **kwargs)
    if loss.dim() == 0:
        loss.backward()
    return loss, x.grad


LEGACY = ("FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor", "CharTensor",
          "ByteTensor", "BoolTensor")


def _legacy_types(lib):
    """Each legacy type: its dtype, what it builds from sizes (uninitialised: shape and
    dtype only) and from data, and which tensors are its instances."""
    x = lib.ones(2)
    rows = []
    for name in LEGACY:
        kind = getattr(lib, name)
        sized = [kind(2, 3), kind(lib.Size([2])), kind()]
        rows.append((str(kind.dtype), name, [(str(t.dtype), tuple(t.shape)) for t in sized],
                     kind([1, 0]), kind((1.5, 2.0)), kind(np.array([1, 2])), kind(kind([3, 1])),
                     [isinstance(t, kind) for t in (x, x.double(), x.long(), x.bool(), lib.nn.Parameter(x), 3)],
                     issubclass(kind, lib.Tensor), type(kind(2)) is lib.Tensor, repr(kind), x.type(f"torch.{name}").type(),
                     x.type(f"torch.{name}"), x.type(kind), x.type_as(kind([1])), x.type(kind.dtype)))
    return rows


def _casts_keep_graph(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.type(lib.float64) * x.type_as(lib.ones(1, dtype=lib.float64))
    y.sum().backward()
    same = (x.type("torch.FloatTensor") is x, x.type(lib.float32) is x, x.type_as(lib.ones(1)) is x)
    return y.grad_fn.next_functions[0][0].name(), x.grad, same, x.type(dtype=lib.int32), x.type()


def _diff(lib, n, dim, with_ends, dtype="float64"):
    """diff's values, its graph's node names and the gradients of input, prepend, append."""
    x = lib.from_numpy(np.arange(12.0).reshape(3, 4) ** 2).to(getattr(lib, dtype))
    ends = {}
    if with_ends:
        shape = [3, 4]
        shape[dim] = 2
        ends = {"prepend": lib.ones(shape, dtype=x.dtype), "append": lib.full(shape, 5, dtype=x.dtype)}
    grads = x.is_floating_point()
    for t in [x, *ends.values()]:
        t.requires_grad_(grads)
    y = lib.diff(x, n, dim, **ends)
    if not grads:
        return y
    y.backward(lib.from_numpy(np.linspace(-1, 2, y.numel()).reshape(y.shape)).to(y.dtype))
    names = y.grad_fn and [y.grad_fn.name()] + [f.name() for f, _ in y.grad_fn.next_functions if f is not None]
    return y, names, x.grad, [t.grad for t in ends.values()]


def _data_inplace_unseen(lib):
    """An in-place change through .data is not seen by backward (it is through detach())."""
    x = lib.ones(3, requires_grad=True)
    y = (x * x).sum()
    d = x.data
    d.mul_(2)
    d[0] = 5
    y.backward()
    return x.grad, x._version, d._version, d.requires_grad, d.is_leaf, d.grad_fn is None


def _data_assigned(lib):
    x = lib.ones(3, requires_grad=True)
    y = (x * x).sum()
    new = lib.zeros(5)
    x.data = new
    new.add_(1)  # x holds new's memory now
    shown = x.detach().clone()
    x.data = lib.zeros(3)
    y.backward()  # the saved x is x itself: its new zeros
    h = lib.ones(2, requires_grad=True) * 2
    h.data = lib.ones(2, dtype=lib.float64)
    return shown, x.requires_grad, x._version, x.grad, h.grad_fn.name(), h.dtype


def _node_types(lib):
    """type(grad_fn).__name__ is the node's name, one class per name, for ops, in-place
    ops, leaves and custom Functions."""
    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            return g

    x = lib.ones(2, requires_grad=True)
    y = (x * 2).exp().sum()
    a = x.clone()
    a[0] = 1
    nodes = (y.grad_fn, y.grad_fn.next_functions[0][0], y.grad_fn.next_functions[0][0].next_functions[0][0],
             a.grad_fn, x.expand(2, 2).grad_fn, x.t().grad_fn, Cube.apply(x).grad_fn,
             (x * 2).grad_fn.next_functions[0][0])
    return ([type(n).__name__ for n in nodes], type(y.grad_fn) is type((x * 3).sum().grad_fn),
            type(nodes[2]) is type(nodes[1]), isinstance(nodes[6], lib.autograd.function.BackwardCFunction),
            all(isinstance(n, lib.autograd.graph.Node) for n in nodes))


def _save_for_forward(lib):
    """PyTorch's documented example: jvp reads what save_for_forward kept."""
    class Func(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, y, z):
            ctx.save_for_backward(x, y)
            ctx.save_for_forward(x, y)
            ctx.z = z
            return x * y * z

        @staticmethod
        def jvp(ctx, x_t, y_t, _):
            x, y = ctx.saved_tensors
            return ctx.z * (y * x_t + x * y_t)

        @staticmethod
        def vjp(ctx, grad_out):
            x, y = ctx.saved_tensors
            return ctx.z * grad_out * y, ctx.z * grad_out * x, None

    a = lib.tensor(1.0, requires_grad=True, dtype=lib.double)
    b = lib.tensor(2.0, requires_grad=True, dtype=lib.double)
    with lib.autograd.forward_ad.dual_level():
        d = Func.apply(lib.autograd.forward_ad.make_dual(a, lib.tensor(3.0, dtype=lib.double)), b, 4)
        tangent = lib.autograd.forward_ad.unpack_dual(d).tangent
    d.backward()
    return tangent, a.grad, b.grad


def _into_out(lib, call, out_shape=(0,), out_dtype="float32", requires_grad=False, no_grad=False):
    """``call`` writes into ``out``: the result is out, and what out holds, its version and
    the resize warning are PyTorch's."""
    x = lib.tensor([[1.0, 4.0, 9.0], [2.0, 3.0, 5.0]], requires_grad=requires_grad)
    out = lib.full(out_shape, 7, dtype=getattr(lib, out_dtype))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if no_grad:
            with lib.no_grad():
                result = eval(call, {"lib": lib, "x": x, "out": out})
        else:
            result = eval(call, {"lib": lib, "x": x, "out": out})
    return result is out, out, out._version, [str(w.message).split(" (Triggered")[0] for w in caught]


OUT_CALLS = ("lib.cat([x, x], out=out)", "lib.cat([x, x.long()], 1, out=out)", "lib.stack([x, x], out=out)",
             "lib.hstack([x, x], out=out)", "lib.vstack([x, x], out=out)", "lib.dstack([x, x], out=out)",
             "lib.column_stack([x[0], x[1]], out=out)")


def _where_method(lib):
    x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    out = x.where(x > 0, 0.5)
    return out, type(out.grad_fn).__name__, lib.autograd.grad(out.sum(), x)


VALUES = {
    **{f"{call} into {shape} {dtype}": (lambda *a: lambda lib: _into_out(lib, *a))(call, shape, dtype)
       for call in OUT_CALLS for shape, dtype in (((0,), "float32"), ((4, 3), "float32"), ((3,), "float64"))},
    **{f"{call} under no_grad": (lambda c: lambda lib: _into_out(lib, c, requires_grad=True, no_grad=True))(call)
       for call in OUT_CALLS},
    "type(grad_fn).__name__": _node_types,
    "ctx.save_for_forward": _save_for_forward,
    ".data: in place through it is not seen by backward": _data_inplace_unseen,
    ".data = tensor": _data_assigned,
    "x.where(condition, y): where(condition, x, y), with its graph": lambda lib: _where_method(lib),
    **{f"diff n={n} dim={dim} ends={ends} {dtype}": (lambda *a: lambda lib: _diff(lib, *a))(n, dim, ends, dtype)
       for n in (0, 1, 2, 7) for dim in (0, -1) for ends in (False, True)
       for dtype in ("float64", "int64", "bool", "uint8")},
    "x.diff(1, 0)": lambda lib: lib.tensor([1.0, 4.0, 9.0]).diff(1, 0),
    "legacy types": _legacy_types,
    "type()/type_as() casts keep the graph": _casts_keep_graph,
    **{f"{name} {x_shape} {kwargs}": (lambda *a, **k: lambda lib: _loss(lib, *a, **k))(name, x_shape, t_shape, **kwargs)
       for name in ("cross_entropy", "nll_loss")
       for x_shape, t_shape in (((0, 3), (0,)), ((2, 3, 0, 2), (2, 0, 2)), ((0, 3, 2, 2), (0, 2, 2)), ((2, 3), (2,)))
       for kwargs in ({}, {"reduction": "sum"}, {"reduction": "none"}, {"weight": True},
                      {"ignore_index": 0}, {"ignore_index": 0, "reduction": "sum"})},
    "x.reshape(0-d tensor)": lambda lib: lib.ones(2, 3).reshape(lib.tensor(6)),
    "x.reshape([6])": lambda lib: lib.ones(2, 3).reshape([6]),
    "0-d x.flatten(0, 0), flatten(-1, -1)": lambda lib: (lib.tensor(1.0).flatten(0, 0), lib.tensor(2.0).flatten(-1)),
    "x.permute([1, 0]), x.repeat([2, 1])": lambda lib: (lib.ones(2, 3).permute([1, 0]), lib.ones(2, 1).repeat([2, 1])),
    "gradient of another dtype is cast": lambda lib: _grad_other_dtype(lib, "float64"),
    "integer gradient is cast": lambda lib: _grad_other_dtype(lib, "int64"),
    "backward(inputs=[non-leaf]) fills its .grad": _backward_inputs_nonleaf,
    # an integer tensor gets a history only from an in-place op, and copy_ gives it none
    **{f"integer {name}": (lambda f: lambda lib: _integer_history(lib, f))(f) for name, f in {
        "fill_": lambda lib, x, v: x.fill_(v), "masked_fill_": lambda lib, x, v: x.masked_fill_(x == 0, v),
        "fill_ of a view": lambda lib, x, v: x[:1].fill_(v), "fill_ then add_": lambda lib, x, v: x.fill_(v).add_(1),
        "copy_": lambda lib, x, v: x.copy_(v.expand(2)), "copy_ of a view": lambda lib, x, v: x[:1].copy_(v.reshape(1)),
        "bool copy_": lambda lib, x, v: x.bool().copy_(v.expand(2)),
    }.items()},
}


def _integer_history(lib, program):
    x, v = lib.zeros(2, dtype=lib.int64) * 1, lib.tensor(1.5, requires_grad=True)
    out = program(lib, x, v)
    return out, out.requires_grad, type(out.grad_fn).__name__


def _leaf_times(lib):
    return lib.tensor(1.0, requires_grad=True)


@pytest.mark.parametrize("name", list(VALUES))
def test_same_values(name):
    torch = require_torch()
    _assert_same(VALUES[name](chainrule), VALUES[name](torch))


def _hook_program(lib, replacement, on_leaf=False, node_prehook=False):
    x = lib.ones(3, requires_grad=True)
    y = x * 2

    def hook(g):
        return replacement(lib, g)
    if node_prehook:
        y.grad_fn.register_prehook(lambda gs: (replacement(lib, gs[0]),))
    elif on_leaf:
        x.register_hook(hook)
    else:
        y.register_hook(hook)
    y.sum().backward()


def _detach_inplace(lib):
    x = lib.ones(3, requires_grad=True)
    y = (x * x).sum()
    x.detach().mul_(2)
    y.backward()


def _save_for_forward_number(lib):
    class F(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(3)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g
    F.apply(lib.ones(1, requires_grad=True))


def _complex_implicit(lib):
    x = lib.tensor(1 + 2j, requires_grad=True)
    (x * 2).backward()


def _backward_with(lib, gradient):
    x = lib.ones(3, requires_grad=True)
    (x * 2).backward(gradient(lib))


ERRORS = {
    "hook changes the size": lambda lib: _hook_program(lib, lambda L, g: L.ones(4)),
    "leaf hook changes the size": lambda lib: _hook_program(lib, lambda L, g: L.ones(4), on_leaf=True),
    "node prehook changes the size": lambda lib: _hook_program(lib, lambda L, g: L.ones(4), node_prehook=True),
    "hook changes the dtype": lambda lib: _hook_program(lib, lambda L, g: g.double()),
    "implicit gradient of a complex scalar": _complex_implicit,
    "backward(2.0)": lambda lib: (lib.tensor(1.0, requires_grad=True) * 2).backward(2.0),
    "backward([2.0])": lambda lib: (lib.tensor(1.0, requires_grad=True) * 2).backward([2.0]),
    "backward(ndarray)": lambda lib: _backward_with(lib, lambda L: np.ones(3)),
    "grad(..., 2.0)": lambda lib: lib.autograd.grad(_leaf_times(lib) * 2, _leaf_times(lib), 2.0),
    # ... and then any out-of-place op on it refuses to record an integer result
    **{f"integer history then {name}": (lambda f: lambda lib: f(lib, (lib.zeros(2, dtype=lib.int64) * 1).fill_(
        lib.tensor(1.5, requires_grad=True))))(f) for name, f in {
        "mul": lambda lib, r: r * 2, "neg": lambda lib, r: -r, "view": lambda lib, r: r.view(2),
        "index": lambda lib, r: r[0], "cat": lambda lib, r: lib.cat([r, r]), "mul bool": lambda lib, r: r * r.bool(),
        "clone": lambda lib, r: r.clone(), "sum": lambda lib, r: r.sum()}.items()},
    "grad(..., grad_outputs=[])": lambda lib: lib.autograd.grad(_leaf_times(lib) * 2, _leaf_times(lib), []),
    "backward([])": lambda lib: (_leaf_times(lib) * 2).backward([]),
    "two outputs, one gradient": lambda lib: lib.autograd.backward([_leaf_times(lib) * 2, _leaf_times(lib) * 3],
                                                                   [lib.tensor(1.0)]),
    "grad: two outputs, one gradient": lambda lib: lib.autograd.grad([_leaf_times(lib) * 2] * 2, _leaf_times(lib),
                                                                     [lib.tensor(1.0)]),
    "grad(inputs=[])": lambda lib: lib.autograd.grad((_leaf_times(lib) * 2), inputs=[]),
    "real output, complex gradient":
        lambda lib: _backward_with(lib, lambda L: L.ones(3, dtype=L.complex64)),
    # shape arguments: what is not a tuple of ints, missing arguments, dims of a 0-d tensor
    **{f"x.{call}": (lambda call: lambda lib: eval(f"lib.ones(2, 3).{call}", {"lib": lib}))(call) for call in (
        "reshape()", "reshape('3')", "reshape(2, '3')", "reshape((2, '3'))", "reshape(2.0, 3)", "reshape(None)",
        "view('3')", "view()", "view(2, '3')", "permute()", "permute('3')", "permute(0, '1')", "expand()",
        "expand('3')", "expand(2.0, 3)", "repeat()", "repeat('3')", "repeat(1.0, 2)")},
    **{f"0-d x.{call}": (lambda call: lambda lib: eval(f"lib.tensor(1.0).{call}", {"lib": lib}))(call) for call in (
        "permute()", "expand()", "repeat()", "flatten(0, 2)", "flatten(1)", "flatten(-2)")},
    **{call: (lambda call: lambda lib: eval(call, {"lib": lib, "x": lib.ones(2, 3)}))(call) for call in (
        "lib.reshape(x, '6')", "lib.reshape(x, 6)", "lib.reshape(x, None)", "lib.permute(x, '0')", "lib.permute(x, 1)")},
    # joins: what is not a sequence of tensors
    **{call: (lambda call: lambda lib: eval(call, {"lib": lib, "np": np}))(call) for call in (
        "lib.cat(lib.ones(2, 2))", "lib.stack(lib.ones(2))", "lib.cat(5)", "lib.cat([lib.ones(2), [1.0, 2.0]])",
        "lib.stack([lib.ones(2), [1.0, 2.0]])", "lib.cat([lib.ones(1), None])", "lib.cat((lib.ones(1), np.ones(1)))",
        "lib.hstack([lib.ones(2), [1.0]])", "lib.vstack([lib.ones(2), 1.0])", "lib.stack([[1.0], lib.ones(1)])")},
    **{call: (lambda call: lambda lib: eval(call, {"lib": lib, "x": lib.ones(4)}))(call) for call in (
        "lib.diff(lib.tensor(1.0))", "lib.diff(x, n=-1)", "lib.diff(x, prepend=lib.tensor(1.0))", "lib.diff(x, dim=3)",
        "lib.diff(x, prepend=1.0)", "lib.diff(lib.ones(2, 3), prepend=lib.ones(3, 1))")},
    ".data = int tensor on a tensor that requires grad": lambda lib: setattr(lib.ones(3, requires_grad=True), "data",
                                                                             lib.zeros(2, dtype=lib.int64)),
    ".data = 3": lambda lib: setattr(lib.ones(3), "data", 3),
    "detach() shares the version counter": lambda lib: _detach_inplace(lib),
    "save_for_forward(3)": lambda lib: _save_for_forward_number(lib),
    **{f"{call} into int64": (lambda c: lambda lib: _into_out(lib, c, out_dtype="int64"))(call) for call in OUT_CALLS},
    **{f"{call} into bool": (lambda c: lambda lib: _into_out(lib, c, out_dtype="bool"))(call) for call in OUT_CALLS},
    **{f"{call} requiring grad": (lambda c: lambda lib: _into_out(lib, c, requires_grad=True))(call)
       for call in OUT_CALLS},
    "out=[1]": lambda lib: lib.cat([lib.ones(2)], out=[1]),
    "out requires grad": lambda lib: lib.cat([lib.ones(2)], out=lib.ones(1, requires_grad=True)),
    # legacy constructors and type()
    **{call: (lambda call: lambda lib: eval(call, {"lib": lib, "x": lib.ones(2)}))(call) for call in (
        "lib.FloatTensor(lib.ones(2, dtype=lib.float64))", "lib.LongTensor(lib.ones(2))", "lib.HalfTensor(lib.ones(2))",
        "lib.FloatTensor(2, dtype=lib.float64)", "lib.FloatTensor('a')", "lib.FloatTensor(2.5)",
        "lib.FloatTensor([1, 2], requires_grad=True)", "lib.FloatTensor(-1)", "x.type('float64')", "x.type(3)")},
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_same_error(name):
    torch = require_torch()
    assert error_of(lambda: ERRORS[name](chainrule)) == error_of(lambda: ERRORS[name](torch))
