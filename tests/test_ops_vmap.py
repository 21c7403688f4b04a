"""vmap over every entry of the op database: a batch of 3 samples in one call equals the
entry's ``fn`` run on each sample and stacked, and no op takes the loop fallback.

For each entry, one sample (float64 where the entry has it) is drawn three times with
different values; its arrays are stacked into one batch. Three checks:

* ``test_vmap_matches_loop``: every array batched along dim 0;
* ``test_vmap_other_dims``: arrays batched along dim 1 (dim 0 for 0-d samples) and, for
  entries with several arrays, only the first batched (the others shared, in_dims None);
* ``test_vmap_uses_batching_rules``: fails when one of the entry's ops ran once per sample
  (``batched.FALLBACKS``); entries still on the loop are listed in ``KNOWN_FALLBACKS``,
  entries vmap can't run yet in ``UNSUPPORTED`` (both strict xfails).

The reference is chainrule itself on each sample: test_ops.py already compares that with
PyTorch, so a difference here is vmap's. Where vmap raises, PyTorch's vmap must raise the
same exception type (a view of a batch that isn't contiguous, ``nonzero``).
"""
import numpy as np
import pytest

import chainrule
from chainrule._functorch import batched

from helpers import require_torch
from op_db import OPS, Gen, as_list, build_args, numpy_dtype

pytestmark = [
    pytest.mark.filterwarnings("ignore::RuntimeWarning"),
    pytest.mark.filterwarnings("ignore:There is a performance drop:UserWarning"),
    pytest.mark.filterwarnings("ignore:The use of `x.T`:UserWarning"),
    pytest.mark.filterwarnings("ignore:Tensor.T is deprecated:UserWarning"),
]

SIZE = 3

# Entries whose ops still run once per sample under vmap (correct, slow): entry -> reason.
# "no batching rule": registry ops without ``batch=`` (the registry's loop); "reads values":
# functions that compute indices or checks from values in NumPy (``batching.per_sample``).
# ``PYTHONPATH=src python tests/test_ops_vmap.py`` prints this table as it is today.
KNOWN_FALLBACKS = {
}

# Entries whose vmap PyTorch defines apart from a loop over samples: compared with PyTorch's vmap.
NOT_A_LOOP = {
    "as_strided": "the layout addresses the batch's storage: with the batch dim not outermost in memory "
                  "(in_dims=1), a sample's view reads other samples' elements",
    "batch_norm_running_stats": "running stats batched along dim 1 are flattened (B, C) -> (B*C,) into a copy by "
                                "PyTorch's rule, so their update is lost",
}

# Entries vmap can't run yet (they raise where PyTorch's vmap doesn't): entry -> reason.
UNSUPPORTED = {
}


def _first_sample(entry, seed):
    dtype = "float64" if "float64" in entry.dtypes else entry.dtypes[0]
    rng = np.random.default_rng(seed)
    for s in entry.samples(Gen(dtype, entry.domain, rng)):
        arrays = [a for a in _arrays(s.args)]
        if arrays and all(a.size for a in arrays):
            return s
    return None


def _arrays(args):
    for a in args:
        if isinstance(a, np.ndarray):
            yield a
        elif isinstance(a, tuple):
            yield from _arrays(a)


def _same_structure(a, b):
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same_structure, a, b))
    return type(a) is type(b) and (a == b or (a != a and b != b))  # NaN parameters match


def batch_of(entry):
    """Three samples of the same structure (the same sample repeated where the values
    can't vary: a sample whose numbers or shapes are drawn at random)."""
    first = _first_sample(entry, 0)
    if first is None:
        return None
    samples = [first]
    for seed in (1, 2):
        other = _first_sample(entry, seed)
        ok = other is not None and other.name == first.name and len(other.args) == len(first.args) and \
            all(_same_structure(a, b) for a, b in zip(first.args, other.args))
        samples.append(other if ok else first)
    return samples


def _tensor(a):
    return chainrule.from_numpy(np.array(a, copy=True))


def _convert(arg):
    if isinstance(arg, np.ndarray):
        return _tensor(arg)
    if isinstance(arg, tuple):
        return tuple(_convert(a) for a in arg)
    return arg


def _stacked(args_list, dim, batched_positions):
    """The samples' args as one batch: arrays stacked along ``dim`` (dim 0 for 0-d
    arrays) at the batched positions, else taken from the first sample; and in_dims."""
    args, in_dims = [], []
    for position, parts in enumerate(zip(*args_list)):
        first = parts[0]
        if position not in batched_positions:
            args.append(_convert(first))
            in_dims.append(None)
        elif isinstance(first, np.ndarray):
            d = min(dim, first.ndim)
            args.append(_tensor(np.stack(parts, d)))
            in_dims.append(d)
        elif isinstance(first, tuple):
            dims = tuple(min(dim, a.ndim) if isinstance(a, np.ndarray) else None for a in first)
            args.append(tuple(_tensor(np.stack(items, d)) if d is not None else _convert(items[0])
                              for items, d in zip(zip(*parts), dims)))
            in_dims.append(dims)
        else:
            args.append(first)
            in_dims.append(None)
    return args, tuple(in_dims)


def _array_positions(args):
    return [i for i, a in enumerate(args) if isinstance(a, np.ndarray)
            or (isinstance(a, tuple) and any(isinstance(x, np.ndarray) for x in a))]


def _expected(entry, args_list, batched_positions):
    """``fn`` on each sample (unbatched args from the first one), stacked."""
    results = []
    for args in args_list:
        args = [a if i in batched_positions else args_list[0][i] for i, a in enumerate(args)]
        results.append(as_list(entry.fn(chainrule, *[_convert(a) for a in args])))
    return [np.stack([r[k].detach().numpy() for r in results]) for k in range(len(results[0]))]


def _run_vmap(entry, args, in_dims, lib=chainrule):
    randomness = "different" if entry.family == "random" else "error"
    result = lib.vmap(lambda *a: entry.fn(lib, *a), in_dims=in_dims, randomness=randomness)(*args)
    return [r.detach().numpy() for r in as_list(result)]


def _as_torch(torch, arg):
    if isinstance(arg, chainrule.Tensor):
        return torch.from_numpy(arg.numpy().copy())
    if isinstance(arg, tuple):
        return tuple(_as_torch(torch, a) for a in arg)
    return arg


def same_error_as_torch(entry, dim, only_first):
    """``check``, where an error passes if PyTorch's vmap raises the same type (a view of a
    batch that isn't contiguous raises in both)."""
    try:
        check(entry, dim, only_first)
    except AssertionError:
        raise
    except Exception as ours:  # noqa: BLE001  (compared with PyTorch's)
        torch = require_torch()
        samples = batch_of(entry)
        args_list = [s.args for s in samples]
        positions = _array_positions(args_list[0])[:1 if only_first else None]
        args, in_dims = _stacked(args_list, dim, positions)
        with pytest.raises(type(ours)):
            _run_vmap(entry, [_as_torch(torch, a) for a in args], in_dims, torch)


def check(entry, dim, only_first):
    samples = batch_of(entry)
    if samples is None:
        return
    args_list = [s.args for s in samples]
    positions = _array_positions(args_list[0])
    if only_first:
        positions = positions[:1]
    if not positions:
        return
    probe = as_list(entry.fn(chainrule, *[_convert(a) for a in args_list[0]]))
    if not all(isinstance(r, chainrule.Tensor) for r in probe):
        return  # a Python value (allclose, equal): nothing to batch
    expected = _expected(entry, args_list, positions)
    args, in_dims = _stacked(args_list, dim, positions)
    if entry.name in NOT_A_LOOP:
        torch = require_torch()
        expected = _run_vmap(entry, [_as_torch(torch, a) for a in args], in_dims, torch)
    got = _run_vmap(entry, args, in_dims)
    assert len(got) == len(expected)
    for k, (g, e) in enumerate(zip(got, expected)):
        assert g.shape == e.shape, f"output {k}: shape {g.shape}, expected {e.shape}"
        assert g.dtype == e.dtype, f"output {k}: dtype {g.dtype}, expected {e.dtype}"
        if entry.family != "random":
            np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-9, equal_nan=True, err_msg=f"output {k}")


def _params(table, extra=()):
    params = []
    for entry in OPS:
        reasons = [t[entry.name] for t in (table,) + extra if entry.name in t]
        marks = [pytest.mark.xfail(strict=True, reason=reasons[0])] if reasons else []
        params.append(pytest.param(entry, id=entry.name, marks=marks))
    return params


@pytest.mark.parametrize("entry", _params(UNSUPPORTED))
def test_vmap_matches_loop(entry):
    same_error_as_torch(entry, 0, only_first=False)


@pytest.mark.parametrize("entry", _params(UNSUPPORTED))
def test_vmap_other_dims(entry):
    same_error_as_torch(entry, 1, only_first=False)
    same_error_as_torch(entry, 0, only_first=True)


@pytest.mark.parametrize("entry", _params(UNSUPPORTED, (KNOWN_FALLBACKS,)))
def test_vmap_uses_batching_rules(entry):
    batched.FALLBACKS.clear()
    try:
        same_error_as_torch(entry, 0, only_first=False)
    finally:
        used = sorted(batched.FALLBACKS)
        batched.FALLBACKS.clear()
    assert not used, f"ops without a batching rule: {used}"


def test_known_lists_name_entries():
    names = {e.name for e in OPS}
    assert set(KNOWN_FALLBACKS) <= names and set(UNSUPPORTED) <= names and set(NOT_A_LOOP) <= names
    assert not set(KNOWN_FALLBACKS) & set(UNSUPPORTED)



# --- vmap of a vjp: every gradient rule run on a batch of cotangents (jacrev's pass) ---------------

# Entries whose gradient rules can't run on batched cotangents yet: entry -> reason.
VJP_UNSUPPORTED = {}


def check_vmap_of_vjp(entry):
    """``vmap(lambda v: grad(out, leaves, v))`` over 3 cotangents equals one backward each."""
    samples = batch_of(entry)
    if samples is None or entry.family == "random":
        return
    args, leaves = build_args(chainrule, samples[0])
    outs = [o for o in as_list(entry.fn(chainrule, *args)) if isinstance(o, chainrule.Tensor) and o.requires_grad]
    if not outs or not leaves:
        return
    rng = np.random.default_rng(0)
    cotangents = [chainrule.from_numpy(rng.standard_normal((SIZE,) + tuple(o.shape)).astype(numpy_dtype(o)))
                  for o in outs]

    def vjp(*vs):
        grads = chainrule.autograd.grad(outs, leaves, vs, retain_graph=True, allow_unused=True)
        return tuple(chainrule.zeros_like(x) if g is None else g for g, x in zip(grads, leaves))

    got = chainrule.vmap(vjp)(*cotangents)
    for k, g in enumerate(got):
        expected = np.stack([vjp(*[c[i] for c in cotangents])[k].detach().numpy() for i in range(SIZE)])
        np.testing.assert_allclose(g.detach().numpy(), expected, rtol=1e-6, atol=1e-9, err_msg=f"grad {k}")


@pytest.mark.parametrize("entry", _params(VJP_UNSUPPORTED))
def test_vmap_of_vjp(entry):
    check_vmap_of_vjp(entry)


# Entries whose gradient rules still loop over a batch of cotangents: entry -> the looping ops.
VJP_KNOWN_FALLBACKS = {
}


@pytest.mark.parametrize("entry", _params({**VJP_UNSUPPORTED, **VJP_KNOWN_FALLBACKS}))
def test_vmap_of_vjp_uses_batching_rules(entry):
    """jacrev and vectorized jacobians run every gradient rule on a batch: none may loop."""
    batched.FALLBACKS.clear()
    try:
        check_vmap_of_vjp(entry)
    finally:
        used = sorted(batched.FALLBACKS)
        batched.FALLBACKS.clear()
    assert not used, f"gradient rules without a batching rule: {used}"


def _current_fallbacks():
    """``{entry: reason}`` for the entries that loop today (what KNOWN_FALLBACKS should say)."""
    table = {}
    for entry in OPS:
        if entry.name in UNSUPPORTED:
            continue
        batched.FALLBACKS.clear()
        same_error_as_torch(entry, 0, only_first=False)
        ops = sorted(n for n in batched.FALLBACKS if not n.endswith("()"))
        functions = sorted(n[:-2] for n in batched.FALLBACKS if n.endswith("()"))
        reasons = (["no batching rule: " + ", ".join(ops)] if ops else []) + \
            (["reads values outside the registry, loops: " + ", ".join(functions)] if functions else [])
        if reasons:
            table[entry.name] = "; ".join(reasons)
    batched.FALLBACKS.clear()
    return table


if __name__ == "__main__":  # PYTHONPATH=src python tests/test_ops_vmap.py: prints KNOWN_FALLBACKS afresh
    import warnings
    warnings.simplefilter("ignore")
    print("KNOWN_FALLBACKS = {")
    for name, reason in _current_fallbacks().items():
        print(f"    {name!r}: {reason!r},".replace("'", '"'))
    print("}")
