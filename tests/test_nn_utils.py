"""nn.utils against PyTorch: gradient clipping, parameters as a vector, parametrize and the
weight_norm / spectral_norm / orthogonal parametrizations, the old weight_norm hook."""
import warnings

import numpy as np
import pytest

import chainrule

from helpers import both, full_error_of, require_torch, to_numpy


def _grads(lib, dtype="float64"):
    """Three parameters with gradients of known values (one without a gradient)."""
    rng = np.random.default_rng(0)
    params = []
    for shape in [(3, 2), (4,), (2, 2, 2)]:
        p = lib.nn.Parameter(lib.from_numpy(rng.standard_normal(shape).astype(dtype)))
        p.grad = lib.from_numpy(rng.standard_normal(shape).astype(dtype) * 3)
        params.append(p)
    params.append(lib.nn.Parameter(lib.zeros(2, dtype=getattr(lib, dtype))))
    return params


def _arrays(tensors):
    return [to_numpy(t).copy() for t in tensors]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("norm_type", [2.0, 1, float("inf"), "inf", 0.5, 3])
def test_clip_grad_norm(norm_type, dtype):
    def program(lib):
        params = _grads(lib, dtype)
        total = lib.nn.utils.clip_grad_norm_(params, max_norm=1.5, norm_type=norm_type, foreach=True)
        return [to_numpy(total).copy()] + _arrays(p.grad for p in params[:3]) + [str(total.dtype)]
    ours, theirs = both(program)
    assert ours[-1] == theirs[-1]
    for a, b in zip(ours[:-1], theirs[:-1]):
        np.testing.assert_allclose(a, b, rtol=1e-12 if dtype == "float64" else 2e-6)


def test_clip_grad_value_total_norm_and_clip_with_norm():
    def program(lib):
        utils = lib.nn.utils
        params = _grads(lib)
        utils.clip_grad_value_(params, 1.2)
        clipped = _arrays(p.grad for p in params[:3])
        total = utils.get_total_norm([p.grad for p in params[:3]], norm_type=3.0)
        utils.clip_grads_with_norm_(params, 0.5, total)
        small = lib.nn.Parameter(lib.ones(2, dtype=lib.float64))
        small.grad = lib.full((2,), 0.1, dtype=lib.float64)
        kept = to_numpy(utils.clip_grad_norm_(small, 10.0)).copy()  # below max_norm: unchanged
        return clipped + [to_numpy(total).copy()] + _arrays(p.grad for p in params[:3]) + [kept,
                                                                                              to_numpy(small.grad)]
    ours, theirs = both(program)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_clip_grad_errors_and_warnings():
    def program(lib):
        utils = lib.nn.utils
        p = lib.nn.Parameter(lib.ones(2))
        p.grad = lib.tensor([float("nan"), 1.0])
        err = full_error_of(lambda: utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            empty = utils.clip_grad_norm_((q for q in []), 1.0)
            utils.clip_grad_norm([lib.nn.Parameter(lib.ones(1))], 1.0)
        return err, to_numpy(empty).tolist(), [(w.category.__name__, str(w.message)) for w in caught]
    ours, theirs = both(program)
    assert ours == theirs


def test_parameters_to_vector_and_back():
    def program(lib):
        lin = lib.nn.Linear(3, 2).double()
        with lib.no_grad():
            lin.weight.copy_(lib.arange(6, dtype=lib.float64).reshape(2, 3))
            lin.bias.fill_(-1.0)
        vec = lib.nn.utils.parameters_to_vector(lin.parameters())
        new = lib.arange(8, dtype=lib.float64) * 0.5
        lib.nn.utils.vector_to_parameters(new, lin.parameters())
        with lib.no_grad():
            new[0] = 100.0  # the parameters now share the vector's memory
        return (to_numpy(vec.detach()).tolist(), vec.requires_grad, to_numpy(lin.weight.detach()).tolist(),
                to_numpy(lin.bias.detach()).tolist(), full_error_of(lambda: lib.nn.utils.vector_to_parameters(
                    [1.0], lin.parameters())))
    ours, theirs = both(program)
    assert ours == theirs


def _symmetric(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).mT

        def right_inverse(self, A):
            return A.triu()

    return Symmetric


def test_parametrize_register_access_assign_and_remove():
    def program(lib):
        nn, P = lib.nn, lib.nn.utils.parametrize
        lin = nn.Linear(3, 3).double()
        with lib.no_grad():
            lin.weight.copy_(lib.arange(9, dtype=lib.float64).reshape(3, 3))
        P.register_parametrization(lin, "weight", _symmetric(lib)())
        out = [repr(lin), type(lin).__name__, list(lin.state_dict()), P.is_parametrized(lin),
               P.is_parametrized(lin, "bias"), P.type_before_parametrizations(lin).__name__,
               to_numpy(lin.weight.detach()).tolist()]
        x = lib.ones(1, 3, dtype=lib.float64)
        lin(x).sum().backward()
        out.append(to_numpy(lin.parametrizations.weight.original.grad).tolist())
        with P.cached():
            out.append(lin.weight is lin.weight)
        out.append(lin.weight is lin.weight)
        lin.weight = lib.ones(3, 3, dtype=lib.float64) * 2  # stored through right_inverse
        out.append(to_numpy(lin.parametrizations.weight.original.detach()).tolist())
        P.remove_parametrizations(lin, "weight", leave_parametrized=True)
        out += [repr(lin), type(lin).__name__, list(lin.state_dict()), to_numpy(lin.weight.detach()).tolist()]
        out.append(full_error_of(lambda: P.remove_parametrizations(lin, "weight"))[0])
        out.append(full_error_of(lambda: P.register_parametrization(lin, "nope", _symmetric(lib)()))[0])
        return out
    ours, theirs = both(program)
    assert ours == theirs


def test_parametrize_shape_and_dtype_checks():
    def program(lib):
        nn, P = lib.nn, lib.nn.utils.parametrize

        class Halve(nn.Module):
            def forward(self, X):
                return X[:1]

        class ToDouble(nn.Module):
            def forward(self, X):
                return X.double()

        return [full_error_of(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", Halve())),
                full_error_of(lambda: P.register_parametrization(nn.Linear(2, 2), "weight", ToDouble())),
                list(P.register_parametrization(nn.Linear(2, 2), "weight", Halve(), unsafe=True).weight.shape)]
    ours, theirs = both(program)
    assert ours == theirs


def _layer_pair(lib, make, seed=0):
    lib.manual_seed(seed)
    return make(lib.nn).double()


@pytest.mark.parametrize("make,apply", [
    (lambda nn: nn.Linear(3, 4), lambda u, m: u.parametrizations.weight_norm(m)),
    (lambda nn: nn.Conv2d(2, 3, 2), lambda u, m: u.parametrizations.weight_norm(m, dim=None)),
    (lambda nn: nn.Linear(3, 4), lambda u, m: u.parametrizations.spectral_norm(m)),
    (lambda nn: nn.Conv2d(2, 3, 2), lambda u, m: u.parametrizations.spectral_norm(m, n_power_iterations=3)),
    (lambda nn: nn.ConvTranspose2d(2, 3, 2), lambda u, m: u.parametrizations.spectral_norm(m)),
    (lambda nn: nn.Linear(3, 3), lambda u, m: u.parametrizations.orthogonal(m)),
    (lambda nn: nn.Linear(3, 3), lambda u, m: u.parametrizations.orthogonal(m, orthogonal_map="cayley")),
    (lambda nn: nn.Linear(3, 4), lambda u, m: u.weight_norm(m)),
], ids=["weight_norm", "weight_norm-dimNone", "spectral_norm", "spectral_norm-conv", "spectral_norm-transposed",
        "orthogonal", "orthogonal-cayley", "old-weight_norm"])
def test_parametrizations_match_torch(make, apply):
    torch = require_torch()

    def build(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            return apply(lib.nn.utils, _layer_pair(lib, make))

    ours, theirs = build(chainrule), build(torch)
    assert repr(ours) == repr(theirs) and list(ours.state_dict()) == list(theirs.state_dict())
    # the same originals and power-iteration vectors, whatever the random streams drew
    ours.load_state_dict({k: chainrule.from_numpy(v.numpy().copy()) for k, v in theirs.state_dict().items()})

    def program(lib, m):
        shape = (2, 3) if isinstance(m, lib.nn.Linear) else (1, 2, 4, 4)
        x = lib.from_numpy(np.random.default_rng(1).standard_normal(shape))
        outs = []
        for mode in ("train", "eval", "train"):
            m.train(mode == "train")
            m.zero_grad()
            y = m(x)
            y.pow(2).sum().backward()
            outs.append([to_numpy(y.detach()).copy()] + [to_numpy(p.grad).copy() for p in m.parameters()] +
                        [to_numpy(b).copy() for b in m.buffers()])
        return outs

    for a, b in zip(program(chainrule, ours), program(torch, theirs)):
        assert len(a) == len(b)
        for u, v in zip(a, b):
            np.testing.assert_allclose(u, v, rtol=1e-9, atol=1e-12)


def test_weight_norm_loads_old_state_dicts_and_old_api_removes():
    def program(lib):
        u = lib.nn.utils
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            old = u.weight_norm(_layer_pair(lib, lambda nn: nn.Linear(2, 3)))
        keys = list(old.state_dict())
        new = u.parametrizations.weight_norm(_layer_pair(lib, lambda nn: nn.Linear(2, 3), seed=1))
        new.load_state_dict(old.state_dict())
        same = np.array_equal(to_numpy(new.weight.detach()), to_numpy(old.weight.detach()))
        u.remove_weight_norm(old)
        return keys, same, list(old.state_dict()), type(old.weight).__name__, full_error_of(
            lambda: u.remove_weight_norm(old))[0]
    ours, theirs = both(program)
    assert ours == theirs
