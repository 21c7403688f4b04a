"""Running one op on chainrule and on PyTorch, and naming every difference.

A fuzz program is a chain of steps; each ``Step`` is ONE op applied to explicit arrays
(``ArraySpec``: dtype, shape, values, layout). The chain feeds PyTorch's output of one step
to the next, so the values a step sees (nan from a log, -0. from a neg, ties from a relu)
are realistic, but each op is compared on the same inputs on both sides: a difference is
never an amplified rounding error of an earlier op, and it is always blamed on one op.

``check_step`` runs the step in four stages on each library and compares them:

* ``forward``: dtypes, shapes, values (bit patterns for integer and bool results, the signs
  of zeros and the places of nan/inf for floats, a tolerance for the rest), or the
  exception (type and first line);
* ``grad``: ``autograd.grad(outputs, leaves, upstream, create_graph=True)``;
* ``grad2``: the gradient of ``sum(grad * w)`` w.r.t. the leaves (second derivatives);
* ``jvp``: forward-mode tangents (``forward_ad``), for float64 inputs.

Each difference is a ``Mismatch`` whose ``key`` names its class:
``"<op>|<stage>:<kind>|<dtype>-<category>"``, e.g. ``"relu|grad2:extra-error|float64-regular"``.

>>> step = Step("relu", (ArraySpec("float64", (1,), (-0.0,)),))
>>> [m.key for m in check_step(step)[0]]   # doctest: +SKIP
['relu|forward:signed-zero|float64-negzero']
"""
import dataclasses
import math
import warnings

import numpy as np

import chainrule
from helpers import require_torch
from op_db import copy_array
from fuzz.strategies import OPS, ArraySpec, spec_of  # noqa: F401  (ArraySpec, spec_of: for callers)

STAGES = ("forward", "grad", "grad2", "jvp")
TOL = {"float16": (2e-3, 1e-3), "float32": (2e-5, 1e-5), "float64": (1e-7, 1e-9),
       "complex64": (2e-5, 1e-5), "complex128": (1e-7, 1e-9)}


@dataclasses.dataclass(frozen=True)
class Step:
    """One op (a key of ``strategies.OPS``) on arrays (one for unary ops, two for binary)."""
    op: str
    arrays: tuple

    def code(self):
        lines = [f"x{i} = {a.code()}" for i, a in enumerate(self.arrays)]
        names = ", ".join(f"x{i}" for i in range(len(self.arrays)))
        lines.append(f"OPS[{self.op!r}].call(torch, {names})  # floating x* require grad")
        return "\n".join(lines)

    def size(self):
        return sum(len(a.values) for a in self.arrays)


@dataclasses.dataclass(frozen=True)
class Mismatch:
    key: str
    detail: str
    step: Step


def category(arrays):
    """The kind of input that a class is filed under: dtype and its most special value."""
    a = arrays[0]
    values = [v for s in arrays for v in s.values]
    if any(len(s.values) == 0 for s in arrays):
        tag = "empty"
    elif a.dtype.startswith(("float", "complex")):
        flat = np.array(values, dtype=complex)
        parts = np.concatenate([flat.real, flat.imag])
        if np.isnan(parts).any():
            tag = "nan"
        elif np.isinf(parts).any():
            tag = "inf"
        elif any(v == 0 and math.copysign(1, v) < 0 for v in parts.tolist()):
            tag = "negzero"
        elif (np.abs(parts) > 1e15).any():
            tag = "huge"
        else:
            tag = "regular"
    elif a.dtype != "bool":
        info = np.iinfo(a.dtype)
        tag = "extreme" if any(v in (info.min, info.max) for v in values) else "regular"
    else:
        tag = "regular"
    return f"{a.dtype}-{tag}"


# --- running one library ---------------------------------------------------------------------


def _error(e):
    lines = str(e).strip().splitlines()
    return ("error", type(e).__name__, lines[0] if lines else "")


def _tensors(lib, result):
    """The tensors of an op's result (a tensor, a tuple or list of them, a namedtuple)."""
    if isinstance(result, (tuple, list)):
        return [t for r in result for t in _tensors(lib, r)]
    return [result] if isinstance(result, lib.Tensor) else []


def _plain(t):
    """A tensor of either library as a NumPy array (PyTorch's lazy conj/neg resolved)."""
    t = t.detach()
    if hasattr(t, "resolve_conj"):
        t = t.resolve_conj().resolve_neg()
    if getattr(t, "_is_zerotensor", None) is not None and t._is_zerotensor():
        return np.zeros(tuple(t.shape), str(t.dtype).replace("torch.", ""))
    return np.array(t.numpy())


def _record(lib, ts):
    return [None if t is None else (str(t.dtype).replace("torch.", ""), tuple(t.shape), _plain(t)) for t in ts]


def _py(value):
    """A non-tensor result (a number, a shape, a tuple of them) as plain Python values."""
    if isinstance(value, (tuple, list)):
        return tuple(_py(v) for v in value)
    return value if isinstance(value, (bool, int, float, complex, str, type(None))) else repr(value)


def _rng(step, salt):
    return np.random.default_rng([sum(map(ord, step.op)), salt, step.size()])


def _floating(t):
    return t.dtype.is_floating_point or t.dtype.is_complex


def run(lib, step):
    """{stage: ("ok", records) or ("error", type, line) or None (not run)} for one library."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return _run(lib, step)


def _run(lib, step):
    op = OPS[step.op]
    out = {s: None for s in STAGES}
    arrays = [a.array() for a in step.arrays]
    leaves, args = [], []
    for a in arrays:
        t = lib.from_numpy(copy_array(a))
        if a.dtype.kind == "f" and a.dtype.name != "float16":
            t.requires_grad_()
            leaves.append(t)
        args.append(t)
    try:
        result = op.call(lib, *args)
        outs = _tensors(lib, result)
        out["forward"] = ("ok", _record(lib, outs) if outs or isinstance(result, lib.Tensor) else [("py", _py(result))])
    except Exception as e:  # noqa: BLE001  (the exception is what we compare)
        out["forward"] = _error(e)
        return out
    diff = [o for o in outs if o.requires_grad and o.dtype.is_floating_point]
    if diff and leaves:
        rng = _rng(step, 1)
        ups = [lib.from_numpy(rng.standard_normal(tuple(o.shape)).astype(str(o.dtype).replace("torch.", "")))
               for o in diff]
        try:
            grads = lib.autograd.grad(diff, leaves, ups, allow_unused=True, create_graph=True)
            out["grad"] = ("ok", _record(lib, grads))
        except Exception as e:  # noqa: BLE001
            out["grad"] = _error(e)
            grads = None
        if grads is not None:
            out["grad2"] = _second(lib, step, leaves, grads)
    if leaves and all(a.dtype.name == "float64" for a in arrays if a.dtype.kind == "f"):
        out["jvp"] = _jvp(lib, step, op, arrays)
    return out


def _second(lib, step, leaves, grads):
    live = [g for g in grads if g is not None and g.requires_grad]
    if not live:
        return ("ok", "no graph")
    rng = _rng(step, 2)
    total = sum((g * lib.from_numpy(rng.standard_normal(tuple(g.shape)).astype(str(g.dtype).replace("torch.", "")))).sum()
                for g in live)
    try:
        return ("ok", _record(lib, lib.autograd.grad(total, leaves, allow_unused=True)))
    except Exception as e:  # noqa: BLE001
        return _error(e)


def _jvp(lib, step, op, arrays):
    fwd = lib.autograd.forward_ad
    rng = _rng(step, 3)
    try:
        with fwd.dual_level():
            args = []
            for a in arrays:
                t = lib.from_numpy(copy_array(a))
                if a.dtype.kind == "f":
                    t = fwd.make_dual(t, lib.from_numpy(rng.standard_normal(a.shape)))
                args.append(t)
            outs = [o for o in _tensors(lib, op.call(lib, *args)) if o.dtype.is_floating_point]
            tangents = []
            for o in outs:
                tangent = fwd.unpack_dual(o).tangent
                tangents.append(lib.zeros_like(o) if tangent is None else tangent)
            return ("ok", _record(lib, tangents))
    except Exception as e:  # noqa: BLE001
        return _error(e)


# --- comparing ----------------------------------------------------------------------------------


def _compare_error(ours, theirs):
    """The kind of difference between two stage results, or None."""
    if ours[0] == "error" and theirs[0] == "error":
        if ours[1] != theirs[1]:
            return "error-type", f"{ours[1]}: {ours[2]} / PyTorch {theirs[1]}: {theirs[2]}"
        if ours[2] != theirs[2]:
            return "error-text", f"{ours[2]!r} / PyTorch {theirs[2]!r}"
        return None
    if ours[0] == "error":
        return "extra-error", f"{ours[1]}: {ours[2]}"
    return "missing-error", f"PyTorch raises {theirs[1]}: {theirs[2]}"


def _close_as_complex(a, b, rtol, atol):
    """Complex results whose finite elements are within the tolerance of their modulus, as
    torch.isclose judges them: a part 1e15 off in a number of modulus 1e30 is rounding."""
    if a.dtype.kind != "c":
        return False
    ok = np.isfinite(a) & np.isfinite(b)
    return bool(np.all(np.abs(a[ok] - b[ok]) <= atol + rtol * np.abs(b[ok])))


def _compare_arrays(a, b, dtype, signed_zeros):
    """The kind of difference between two result arrays of one dtype, or None."""
    if a.dtype.kind in "biu":
        return None if np.array_equal(a, b) else "value"
    ca, cb = (np.asarray(a, complex), np.asarray(b, complex)) if a.dtype.kind == "c" else (a, b)
    for part in ((ca.real, cb.real), (ca.imag, cb.imag)) if a.dtype.kind == "c" else ((ca, cb),):
        x, y = (np.asarray(p, np.float64) for p in part)
        if not np.array_equal(np.isnan(x), np.isnan(y)):
            return "nan"
        if not np.array_equal(np.where(np.isinf(y), y, 0), np.where(np.isinf(x), x, 0)):
            return "inf"
        rtol, atol = TOL.get(dtype, TOL["float64"])
        ok = np.isfinite(y)
        if not np.allclose(x[ok], y[ok], rtol=rtol, atol=atol) and not _close_as_complex(ca, cb, rtol, atol):
            return "value"
        zeros = (x == 0) & (y == 0)
        if signed_zeros and not np.array_equal(np.signbit(x[zeros]), np.signbit(y[zeros])):
            return "signed-zero"
    return None


def _looser(dtype, computed_in):
    """The dtype whose tolerance judges a result of ``dtype``: a derivative with respect to a
    float64 input of a step computed in float32 (a float64 0-d tensor and a float32 one: the
    result is float32) holds float32 rounding."""
    if computed_in is None:
        return dtype
    return max(dtype, computed_in, key=lambda d: TOL.get(d, TOL["float64"])[0])


def _compare_records(ours, theirs, stage, computed_in=None):
    if isinstance(ours, str) or isinstance(theirs, str):
        return None if ours == theirs else ("grad-graph", f"{ours} / PyTorch {theirs}")
    if len(ours) != len(theirs):
        return "count", f"{len(ours)} results / PyTorch {len(theirs)}"
    for i, (o, t) in enumerate(zip(ours, theirs)):
        if (o is not None and o[0] == "py") or (t is not None and t[0] == "py"):
            if repr(o) != repr(t):  # repr: nan equals nan
                return "value", f"result {i}: {o!r} / PyTorch {t!r}"
            continue
        if o is None or t is None:
            if o is None and t is None:
                continue
            present = t if o is None else o
            if stage in ("grad2", "jvp") and not np.any(present[2]):
                continue  # None and zeros: the same derivative
            return "none", f"result {i}: {'None' if o is None else 'tensor'} / PyTorch {'None' if t is None else 'tensor'}"
        if o[0] != t[0]:
            return "dtype", f"result {i}: {o[0]} / PyTorch {t[0]}"
        if o[1] != t[1]:
            return "shape", f"result {i}: {o[1]} / PyTorch {t[1]}"
        kind = _compare_arrays(o[2], t[2], o[0] if stage == "forward" else _looser(o[0], computed_in),
                               signed_zeros=stage == "forward")
        if kind:
            return kind, f"result {i}: {np.array2string(o[2].ravel()[:6])} / PyTorch {np.array2string(t[2].ravel()[:6])}"
    return None


def lstsq_without_columns(step, drivers):
    """linalg.lstsq by one of ``drivers`` of a non-empty A and a B of no columns: MKL's gelsd
    refuses the arguments (PyTorch fails an internal assert), its gelss segfaults."""
    if not step.op.startswith("lstsq[") or OPS[step.op].rest[-1] not in drivers:
        return False
    a, b = step.arrays[0].shape, step.arrays[1].shape
    return len(b) >= 2 and b[-1] == 0 and 0 not in a[-2:]


def _crashes_pytorch(step):
    """A float max pooling with a window wholly in the padding: PyTorch's backward writes
    through that window's index, past the plane, and the process dies (segfault);
    ``lstsq_without_columns`` by gelss; and an int32 or int64 minimum divided by -1 with
    ``rounding_mode='trunc'`` (the CPU's division traps: SIGFPE). Not run."""
    if lstsq_without_columns(step, ("gelss",)) or _traps_in_integer_division(step):
        return True
    if not step.op.startswith(("max_pool2d[", "max_pool1d[")) or not step.arrays[0].dtype.startswith("float"):
        return False
    pool = chainrule.nn.functional.max_pool2d if step.op.startswith("max_pool2d") else chainrule.nn.functional.max_pool1d
    kernel, stride, padding, dilation, ceil_mode = OPS[step.op].rest[:5]
    try:
        _, index = pool(chainrule.from_numpy(step.arrays[0].array()), kernel, stride, padding, dilation, ceil_mode, True)
    except Exception:  # noqa: BLE001  (an error: nothing for backward to run)
        return False
    plane = math.prod(step.arrays[0].shape[-2 if step.op.startswith("max_pool2d") else -1:])
    return bool(index.numel()) and int(index.max()) >= plane


def _traps_in_integer_division(step):
    rest = OPS[step.op].rest if step.op in OPS else ()
    if "trunc" not in rest:
        return False
    values = [v for a in step.arrays for v in a.values] + [v for v in rest if not isinstance(v, str)]
    return -1 in values and any(np.iinfo(a.dtype).min in a.values for a in step.arrays if a.dtype in ("int32", "int64"))


def _sums_for_ever(step):
    """polygamma(n >= 2) (so digamma's second derivative, polygamma's first) of x far below
    zero: Cephes' zeta, in both libraries, adds one term per unit from x up to 9 (-1e30:
    never done). Not run."""
    if not step.op.startswith(("digamma", "polygamma")):
        return False
    return any(v < -1e5 and v != math.floor(v) for a in step.arrays if a.dtype.startswith("float")
               for v in a.values if math.isfinite(v))


_HUGE = 2 ** 26  # elements: one such result on both sides, and its comparison, fill the machine's memory


def _too_big(step):
    """An op whose result's size comes from its values (one_hot's classes, bincount's bins,
    repeat_interleave's repeats): a value of 1e9 asks both libraries for gigabytes. Not run."""
    integers = [a.values for a in step.arrays if a.dtype.startswith(("int", "uint")) and a.values]
    if not integers:
        return False
    if step.op.startswith(("one_hot", "bincount")):
        values = integers[0]
        return 0 <= max(values) and (max(values) + 1) * max(len(values), 1) > _HUGE
    if step.op.startswith("repeat_interleave"):
        width = max(len(a.values) for a in step.arrays)
        return any(sum(max(v, 0) for v in values) * width > _HUGE for values in integers)
    return False


def _computed_in(*stages):
    """The loosest floating dtype among PyTorch's results of ``stages`` (None if none)."""
    dtypes = [r[0] for stage in stages if stage is not None and stage[0] == "ok" and not isinstance(stage[1], str)
              for r in stage[1] if isinstance(r, tuple) and r[0] in TOL]
    return max(dtypes, key=lambda d: TOL[d][0]) if dtypes else None


def check_step(step):
    """(mismatches, PyTorch's first output as an array or None): ``step`` on both libraries."""
    torch = require_torch()
    if _crashes_pytorch(step) or _too_big(step) or _sums_for_ever(step):
        return [], None
    ours, theirs = run(chainrule, step), run(torch, step)
    found, computed_in = [], _computed_in(theirs["forward"])
    for stage in STAGES:
        o, t = ours[stage], theirs[stage]
        if o is None and t is None:
            continue
        if stage == "jvp" and o and t and o[0] == "ok" and t[0] == "error" and "has not been implemented yet" in t[2]:
            continue  # chainrule has forward AD where PyTorch lacks it (docs/differences.md)
        if o is None or t is None:
            diff = ("stage", f"chainrule {'skipped' if o is None else o[0]} / PyTorch {'skipped' if t is None else t[0]}")
        elif o[0] == "error" or t[0] == "error":
            diff = _compare_error(o, t)
        else:
            # a second derivative goes through the first: a float32 gradient's rounding shows in it
            diff = _compare_records(o[1], t[1], stage, _computed_in(theirs["forward"], theirs["grad"])
                                    if stage == "grad2" else computed_in)
        if diff:
            found.append(Mismatch(f"{step.op}|{stage}:{diff[0]}|{category(step.arrays)}", diff[1], step))
        if diff and stage == "forward":
            break  # later stages run on different results
    nxt = None
    if theirs["forward"][0] == "ok":
        first = [r for r in theirs["forward"][1] if isinstance(r, tuple)]
        if first and len(first[0]) > 2 and first[0][2].dtype.kind in "biufc":
            nxt = first[0][2]
    return found, nxt
