"""nn.Module and nn.Parameter against PyTorch: registration, iteration, printing, state_dict
and load_state_dict (keys, metadata, error text), hooks, modes and conversions, containers,
and func.functional_call on real modules.

Every test runs the same program on chainrule and on torch (``both``) and compares what the
program returns: texts, key lists, error messages, hook call records, gradients.
"""
import copy
from collections import OrderedDict

import numpy as np
import pytest

import chainrule

from helpers import both, full_error_of, require_torch, to_numpy


def _net_class(lib):
    nn = lib.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(2, 3)
            self.seq = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Identity())
            self.register_buffer("steps", lib.zeros(2))
            self.register_buffer("scratch", lib.zeros(2), persistent=False)
            self.blocks = nn.ModuleList([nn.Linear(1, 1) for _ in range(3)] + [nn.ReLU()])
            self.pl = nn.ParameterList([nn.Parameter(lib.ones(2)), lib.zeros(3, 2)])
            self.pd = nn.ParameterDict({"b": nn.Parameter(lib.ones(2)), "a": lib.zeros(3)})
            self.md = nn.ModuleDict({"act": nn.Sigmoid(), "lin": nn.Linear(3, 1, bias=False)})

        def forward(self, x):
            return self.md["lin"](self.seq(self.fc(x)))

    return Net


def _same_weights(ours, theirs):
    """Copies torch module ``theirs``' state into ``ours`` (exact values, via NumPy)."""
    state = {k: chainrule.from_numpy(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()}
    ours.load_state_dict(state)


def _pair(make):
    """``make(lib)`` on both sides, chainrule's weights set to torch's."""
    torch = require_torch()
    ours, theirs = make(chainrule), make(torch)
    _same_weights(ours, theirs)
    return ours, theirs


def test_repr_names_state_dict_keys_and_metadata():
    def program(lib):
        net = _net_class(lib)()
        sd = net.state_dict()
        return (repr(net), list(sd), dict(sd._metadata), [k for k, _ in net.named_parameters()],
                [k for k, _ in net.named_buffers()], [k for k, _ in net.named_modules()],
                [k for k, _ in net.named_children()], [k for k, _ in net.named_parameters(prefix="p", recurse=False)],
                [k for k, _ in net.seq.named_parameters(prefix="seq")], type(sd["fc.weight"]).__name__,
                sd["fc.weight"].requires_grad, type(net.state_dict(keep_vars=True)["fc.weight"]).__name__,
                list(net.state_dict(prefix="model.")))
    ours, theirs = both(program)
    assert ours == theirs


def test_parameter_printing_and_type():
    def program(lib):
        p = lib.nn.Parameter(lib.tensor([[1.0, 2.0], [3.0, 4.5]]))
        q = lib.nn.Parameter(lib.tensor([1.0, 2.0]), requires_grad=False)
        e = lib.nn.Parameter()
        return (repr(p), str(p), repr(q), repr(e), isinstance(p, lib.Tensor), type(p * 2).__name__,
                type(p.data).__name__, type(p.detach()).__name__, p.is_leaf, q.requires_grad,
                repr(copy.deepcopy(p)), type(copy.deepcopy(p)).__name__)
    ours, theirs = both(program)
    assert ours == theirs


def test_parameter_shares_memory_and_gets_gradients():
    def program(lib):
        t = lib.tensor([1.0, 2.0])
        p = lib.nn.Parameter(t)
        with lib.no_grad():
            p.mul_(3)
        (p * p).sum().backward()
        return t.tolist(), p.grad.tolist()
    ours, theirs = both(program)
    assert ours == theirs


def test_load_state_dict_errors_and_results():
    def program(lib):
        net = _net_class(lib)()
        out = []
        bad = {"fc.weight": lib.zeros(3, 3), "zz": lib.zeros(1), "seq.9.weight": lib.zeros(1)}
        out.append(full_error_of(lambda: net.load_state_dict(bad)))
        out.append(full_error_of(lambda: net.load_state_dict({"fc.weight": 3}, strict=False)))
        out.append(full_error_of(lambda: net.load_state_dict([1, 2])))
        out.append(repr(net.load_state_dict(net.state_dict())))
        result = net.load_state_dict({"fc.weight": lib.ones(3, 2), "x.y": lib.ones(1)}, strict=False)
        out.append((repr(result), result.missing_keys[:3], result.unexpected_keys))
        out.append(net.fc.weight.tolist())
        lin = lib.nn.Linear(2, 2)
        out.append(full_error_of(lambda: lin.load_state_dict({"weight": lib.zeros(2, 2)})))
        return out
    ours, theirs = both(program)
    assert ours == theirs


def test_load_state_dict_copies_in_place_or_assigns():
    def program(lib):
        lin = lib.nn.Linear(2, 2).double()
        weight = lin.weight
        lin.load_state_dict({"weight": lib.ones(2, 2), "bias": lib.zeros(2)})  # float32 into float64: a copy
        copied = (lin.weight is weight, str(lin.weight.dtype), lin.weight.tolist())
        new = lib.full((2, 2), 2.0)
        lin.load_state_dict({"weight": new, "bias": lib.zeros(2)}, assign=True)
        assigned = (lin.weight is weight, type(lin.weight).__name__, lin.weight.requires_grad, str(lin.weight.dtype))
        bn = lib.nn.BatchNorm1d(2)
        sd = bn.state_dict()
        sd["num_batches_tracked"] = lib.tensor([5])  # a 1-element tensor fits a 0-d buffer
        bn.load_state_dict(sd)
        return copied, assigned, bn.num_batches_tracked.item()
    ours, theirs = both(program)
    assert ours == theirs


def test_registration_errors():
    def program(lib):
        nn = lib.nn
        m = nn.Linear(2, 2)
        attempts = [lambda: m.register_buffer("a.b", None), lambda: m.register_buffer("", None),
                    lambda: m.register_buffer(3, None), lambda: m.register_buffer("x", 3),
                    lambda: m.register_buffer("weight", lib.zeros(1)), lambda: m.register_parameter("a.b", None),
                    lambda: m.register_parameter("", None), lambda: m.register_parameter("x", lib.zeros(1)),
                    lambda: setattr(m, "weight", lib.zeros(2, 2)), lambda: m.add_module("x", 3),
                    lambda: m.add_module("a.b", nn.ReLU()), lambda: m.add_module("", nn.ReLU()),
                    lambda: m.add_module("weight", nn.ReLU()), lambda: m.get_submodule("nope"),
                    lambda: m.get_parameter("in_features"), lambda: m.get_buffer("weight"),
                    lambda: m.get_parameter("x.y"), lambda: nn.Module()(1), lambda: m.nope,
                    lambda: m.train(1), lambda: nn.Module(3), lambda: nn.Module(x=3), lambda: m.to(lib.int64),
                    lambda: nn.Sequential(nn.ReLU())[3], lambda: nn.ModuleList().extend(3),
                    lambda: nn.ParameterList()(1), lambda: nn.ParameterDict()[3],
                    lambda: nn.Sequential() + 3, lambda: nn.Sequential() * 0]
        return [full_error_of(a) for a in attempts]
    ours, theirs = both(program)
    ours = [(kind, text.replace("chainrule.", "torch.")) for kind, text in ours]  # class paths in messages
    assert ours == theirs


def test_assignment_moves_between_tables_and_delete_removes():
    def program(lib):
        nn = lib.nn
        m = nn.Module()
        m.a = nn.Parameter(lib.ones(1))
        m.register_buffer("b", lib.ones(1))
        m.c = nn.Linear(1, 1)
        m.d = 5
        seen = [sorted(m._parameters), sorted(m._buffers), sorted(m._modules)]
        m.b = lib.zeros(1)  # stays a buffer
        m.a = None  # stays a registered (empty) parameter
        m.c = None
        seen.append((sorted(m._parameters), list(m.state_dict()), sorted(m._modules), m.b.tolist()))
        seen.append(full_error_of(lambda: setattr(m, "a", nn.ReLU()))[1].replace("chainrule.", "torch."))
        del m.a
        m.a = nn.Linear(1, 1)
        m.e = nn.Buffer(lib.ones(2), persistent=False)
        seen.append((sorted(m._parameters), sorted(m._modules), list(m.state_dict()), sorted(m._buffers)))
        del m.a, m.b, m.d
        seen.append((sorted(m._modules), sorted(m._buffers), hasattr(m, "d")))
        seen.append([k for k in dir(m) if k in ("a", "b", "c", "d", "e", "training", "_parameters")])
        return seen
    ours, theirs = both(program)
    assert ours == theirs


def test_lookup_by_dotted_name():
    def program(lib):
        net = _net_class(lib)()
        return (repr(net.get_submodule("seq.0")), net.get_parameter("seq.0.bias").shape == (3,),
                net.get_buffer("steps").tolist(), net.get_submodule("") is net,
                full_error_of(lambda: net.get_submodule("seq.7")),
                full_error_of(lambda: net.get_submodule("fc.weight")))
    ours, theirs = both(program)
    assert ours == theirs


def test_duplicates_modes_and_gradients():
    def program(lib):
        nn = lib.nn
        shared = nn.Linear(2, 2)
        net = nn.Sequential(shared, nn.Dropout(), shared)
        counts = (len(list(net.parameters())), len(list(net.named_parameters(remove_duplicate=False))),
                  len(list(net.modules())), len(list(net.modules(remove_duplicate=False))),
                  [k for k, _ in net.named_modules(remove_duplicate=False)])
        net.eval()
        modes = [m.training for m in net.modules()]
        net.train()
        modes += [m.training for m in net.modules()]
        net(lib.ones(1, 2)).sum().backward()
        had_grad = [p.grad is not None for p in net.parameters()]
        net.zero_grad(set_to_none=False)
        zeros = [p.grad.abs().sum().item() for p in net.parameters()]
        net.zero_grad()
        nones = [p.grad is None for p in net.parameters()]
        net.requires_grad_(False)
        frozen = [p.requires_grad for p in net.parameters()]
        names = []
        net.apply(lambda m: names.append(type(m).__name__))
        return counts, modes, had_grad, zeros, nones, frozen, names
    ours, theirs = both(program)
    assert ours == theirs


def test_dtype_conversions_keep_parameter_objects():
    def program(lib):
        bn = lib.nn.BatchNorm1d(2)
        weight = bn.weight
        bn(lib.ones(3, 2)).sum().backward()
        bn.double()
        state = [(k, str(v.dtype)) for k, v in bn.state_dict().items()]
        same = bn.weight is weight and bn.weight.grad.dtype == lib.float64
        bn.to(lib.float32)
        state.append(str(bn.weight.dtype))
        bn.to("cpu")
        bn.to(lib.zeros(1, dtype=lib.float64))
        state.append(str(bn.running_mean.dtype))
        bn.half().float().cpu()
        state.append((str(bn.weight.dtype), str(bn.num_batches_tracked.dtype)))
        return state, same, repr(bn.to(dtype=lib.float64))
    ours, theirs = both(program)
    assert ours == theirs


def test_forward_hooks_and_pre_hooks():
    def program(lib):
        nn = lib.nn
        calls = []
        lin = nn.Linear(2, 2)
        lin.register_forward_pre_hook(lambda m, args: calls.append(("pre", len(args))))
        lin.register_forward_pre_hook(lambda m, args: calls.append(("pre-first",)), prepend=True)
        lin.register_forward_pre_hook(lambda m, args, kw: ((args[0] * 2,), kw), with_kwargs=True)
        h = lin.register_forward_hook(lambda m, args, out: out + 1)
        lin.register_forward_hook(lambda m, args, kw, out: calls.append(("post", kw)), with_kwargs=True)
        x = lib.ones(1, 2)
        first = lin(x)
        h.remove()
        second = lin(x)
        with lin.register_forward_pre_hook(lambda m, a: calls.append("ctx")):
            lin(x)
        lin(x)
        bad = nn.Linear(2, 2)
        bad.register_forward_pre_hook(lambda m, a, k: 3, with_kwargs=True)
        err = full_error_of(lambda: bad(x))
        failing = nn.Module()
        failing.register_forward_hook(lambda m, a, o: calls.append(("always", o)), always_call=True)
        failing.register_forward_hook(lambda m, a, o: calls.append("never"))
        err2 = full_error_of(lambda: failing(x))
        return calls, np.round(to_numpy(first - second), 5).tolist(), err, err2
    ours, theirs = both(program)
    assert ours == theirs


def test_full_backward_hooks_see_and_replace_gradients():
    def program(lib):
        nn = lib.nn
        record = []
        lin = nn.Linear(3, 2).double()
        with lib.no_grad():
            lin.weight.copy_(lib.arange(6, dtype=lib.float64).reshape(2, 3) / 10)
            lin.bias.fill_(0.5)

        def hook(m, gin, gout):
            record.append(("hook", [None if g is None else g.tolist() for g in gin], [g.tolist() for g in gout]))
            return None if gin[0] is None else (gin[0] * 10,)

        def pre(m, gout):
            record.append(("pre", [g.tolist() for g in gout]))
            return (gout[0] * 2,)

        lin.register_full_backward_hook(hook)
        lin.register_full_backward_pre_hook(pre)
        x = lib.tensor([[1.0, 2.0, 3.0]], dtype=lib.float64, requires_grad=True)
        (lin(x) * lib.tensor([[1.0, -1.0]], dtype=lib.float64)).sum().backward()
        record.append((x.grad.tolist(), lin.weight.grad.tolist()))
        lin(lib.ones(1, 3, dtype=lib.float64)).sum().backward()  # no input needs a gradient
        return record
    with pytest.warns(UserWarning, match="Full backward hook is firing"):
        ours = program(chainrule)
    with pytest.warns(UserWarning, match="Full backward hook is firing"):
        theirs = program(require_torch())
    assert ours == theirs


def test_backward_hooks_on_containers_fire_in_graph_order():
    def program(lib):
        nn = lib.nn
        order = []
        net = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
        for name, m in net.named_modules():
            m.register_full_backward_hook(lambda m, gi, go, name=name: order.append(("bw", name, len(gi))))
            m.register_full_backward_pre_hook(lambda m, go, name=name: order.append(("pre", name)))
        net(lib.ones(4, 2, requires_grad=True)).sum().backward()
        mixed = nn.Linear(2, 2)
        mixed.register_full_backward_hook(lambda m, gi, go: order.append(("mixed", gi[0] is None)))
        mixed(lib.ones(1, 2, requires_grad=True)).sum().backward()
        err = full_error_of(lambda: nn.Linear(1, 1).register_backward_hook(None) and
                            net[0].register_backward_hook(None))
        return order, err
    ours, theirs = both(program)
    assert ours == theirs


def test_state_dict_hooks():
    def program(lib):
        calls = []
        lin = lib.nn.Linear(1, 1)
        lin.register_state_dict_pre_hook(lambda m, prefix, keep_vars: calls.append(("pre", prefix, keep_vars)))
        lin.register_state_dict_post_hook(lambda m, sd, prefix, meta: calls.append(("post", list(sd), meta)))
        lin.register_load_state_dict_pre_hook(lambda m, sd, prefix, *rest: calls.append(("load-pre", list(sd))))
        lin.register_load_state_dict_post_hook(lambda m, keys: keys.missing_keys.clear())
        seq = lib.nn.Sequential(lin)
        sd = seq.state_dict()
        del sd["0.bias"]
        result = seq.load_state_dict(sd)
        bad = lib.nn.Linear(1, 1)
        bad.register_state_dict_post_hook(lambda *a: {})
        return calls, repr(result), full_error_of(bad.state_dict)
    ours, theirs = both(program)
    assert ours == theirs


def test_sequential_operations():
    def program(lib):
        nn = lib.nn
        a, b, c = nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 1)
        s = nn.Sequential(a, b)
        out = [repr(s[0:1]), type(s[1:]).__name__, s[-1] is b, len(s)]
        s.append(c)
        s.insert(1, nn.Tanh())
        s.insert(-1, nn.Sigmoid())
        out.append(repr(s))
        del s[1]
        out.append([type(m).__name__ for m in s])
        out.append(type(s.pop(0)).__name__)
        s.extend([nn.Identity()])
        s[0] = nn.ELU()
        out.append(repr(s))
        out.append(repr(s + nn.Sequential(nn.ReLU())))
        out.append(repr(nn.Sequential(nn.ReLU()) * 2))
        s2 = nn.Sequential(nn.ReLU())
        s2 *= 3
        s2 += nn.Sequential(nn.Tanh())
        out.append(repr(s2))
        del s2[1:3]
        out.append(repr(s2))
        named = nn.Sequential(OrderedDict([("first", nn.Linear(2, 2)), ("act", nn.ReLU())]))
        out.append((repr(named), repr(named[1:]), list(named.state_dict())))
        out.append([k for k in dir(s) if k.isdigit()])
        return out
    ours, theirs = both(program)
    assert ours == theirs


def test_module_list_dict_and_parameter_containers():
    def program(lib):
        nn = lib.nn
        ml = nn.ModuleList([nn.Linear(1, 1), nn.Linear(1, 1), nn.ReLU()])
        ml.append(nn.ReLU())
        ml.insert(0, nn.Tanh())
        out = [repr(ml), repr(ml[1:3]), len(ml), type(ml.pop(-1)).__name__, repr(ml + nn.ModuleList([nn.ReLU()]))]
        del ml[0]
        ml[0] = nn.Sigmoid()
        out.append(repr(ml))
        out.append(repr(nn.ModuleList()))
        md = nn.ModuleDict([("b", nn.ReLU()), ("a", nn.Tanh())])
        md["c"] = nn.Linear(1, 2)
        out += [repr(md), list(md.keys()), "a" in md, type(md.pop("a")).__name__, len(md)]
        md.update({"z": nn.ReLU()})
        out.append(list(md))
        pl = nn.ParameterList([lib.ones(2), nn.Parameter(lib.zeros(1, 3)), "text"])
        pl.append(lib.ones(4, dtype=lib.float64))
        out += [repr(pl), len(pl), type(pl[0]).__name__, repr(pl[1:]), list(pl.state_dict())]
        pd = nn.ParameterDict({"w": lib.ones(2), "a": nn.Parameter(lib.ones(1)), "n": 3})
        pd["x"] = lib.zeros(2, 2)
        out += [repr(pd), list(pd.keys()), pd.get("q", 7), "w" in pd, list(pd.state_dict()),
                type(pd.pop("w")).__name__, list(pd.setdefault("s", lib.ones(1)).shape), list(pd), len(pd)]
        out.append(list(pd | nn.ParameterDict({"k": lib.ones(1)})))
        return out
    ours, theirs = both(program)
    assert ours == theirs


def test_forward_matches_torch_with_copied_weights():
    ours, theirs = _pair(lambda lib: _net_class(lib)().double())
    torch = require_torch()
    x = np.random.default_rng(0).standard_normal((4, 2))
    xo, xt = chainrule.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    ours(xo).sum().backward()
    theirs(xt).sum().backward()
    np.testing.assert_allclose(to_numpy(xo.grad), to_numpy(xt.grad), rtol=1e-12)
    for (name, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert (p.grad is None) == (q.grad is None), name
        if p.grad is not None:
            np.testing.assert_allclose(to_numpy(p.grad), to_numpy(q.grad), rtol=1e-12, err_msg=name)


def test_functional_call_on_modules():
    def program(lib):
        from_func = lib.func.functional_call
        lin = lib.nn.Linear(2, 1, bias=False)
        with lib.no_grad():
            lin.weight.fill_(1.0)
        x = lib.ones(1, 2)
        out = [from_func(lin, {"weight": lib.full((1, 2), 3.0)}, (x,)).tolist(), lin.weight.tolist()]
        out.append(full_error_of(lambda: from_func(lin, {"weight": lib.ones(1, 2), "x": lib.ones(1)}, (x,),
                                                   strict=True)))
        out.append(full_error_of(lambda: from_func(lin, {}, (x,), strict=True)))
        m = lib.nn.Module()
        m.a = lib.nn.Linear(2, 2, bias=False)
        m.b = m.a
        m.forward = lambda x: m.b(x)
        with lib.no_grad():
            m.a.weight.fill_(1.0)
        out.append(from_func(m, {"a.weight": lib.full((2, 2), 2.0)}, x).tolist())
        out.append(from_func(m, {"a.weight": lib.full((2, 2), 2.0)}, x, tie_weights=False).tolist())
        out.append(full_error_of(lambda: from_func(m, {"a.weight": lib.ones(2, 2), "b.weight": lib.zeros(2, 2)}, x)))
        return out
    ours, theirs = both(program)
    assert ours == theirs
