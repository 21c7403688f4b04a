"""vmap of the factorisations that read values (info outputs, LU pivots) against
``torch.vmap`` and against chainrule one sample at a time: values, dtypes, gradients, and
errors (the batch fails as a whole: "(Batch element i)", as PyTorch's vmap says). They run
once on the whole batch: ``batched.FALLBACKS`` stays empty. test_ops_vmap.py sweeps one
sample per op-database entry; these are the other forms (a singular sample among good
ones, samples with batch dims of their own that broadcast, outputs left out)."""
import warnings

import numpy as np
import pytest

import chainrule
from chainrule._functorch import batched
from helpers import assert_close, both, full_error_of, require_torch

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 3, 3)) + 3 * np.eye(3)      # a batch of three 3x3 samples
SINGULAR = A.copy()
SINGULAR[1] = [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]]  # the middle sample: zero pivot U[3,3]
SPD = A @ np.swapaxes(A, -1, -2) + np.eye(3)
NOT_PD = SPD.copy()
NOT_PD[2, 1, 1] = -1.0
B = RNG.standard_normal((3, 3, 2))
STACKS = RNG.standard_normal((3, 2, 3, 3)) + 3 * np.eye(3)  # samples with a batch dim of their own
VECTORS = RNG.standard_normal((3, 3))


@pytest.fixture(autouse=True)
def _no_loops():
    batched.FALLBACKS.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # torch.lu / torch.lu_solve are deprecated
        yield
    used = sorted(batched.FALLBACKS)
    batched.FALLBACKS.clear()
    assert not used, f"ran once per sample: {used}"


def _program(fn, *arrays, loop=False):
    """``vmap(fn)`` over float64 leaves (``loop``: ``fn`` on each sample, stacked); its
    outputs and the leaves' gradients (zeros where none) of a weighted sum of its float
    outputs that need one."""
    def program(lib):
        leaves = [lib.tensor(a, requires_grad=True) for a in arrays]
        if loop:
            samples = [fn(lib)(*[x[i] for x in leaves]) for i in range(len(arrays[0]))]
            outs = tuple(lib.stack([s[k] for s in samples]) for k in range(len(samples[0])))
        else:
            outs = tuple(lib.vmap(fn(lib))(*leaves))
        floats = [o for o in outs if o.dtype == lib.float64 and o.requires_grad]
        if not floats:  # pivots, a permutation: no gradient
            return outs, ()
        total = sum((o * lib.arange(o.numel(), dtype=o.dtype).reshape(o.shape)).sum() for o in floats)
        grads = lib.autograd.grad(total, leaves, allow_unused=True)
        return outs, tuple(lib.zeros_like(x) if g is None else g for g, x in zip(grads, leaves))
    return program


CASES = {
    "inv_ex": (lambda lib: lambda a: lib.linalg.inv_ex(a), A),
    "solve_ex": (lambda lib: lambda a, b: lib.linalg.solve_ex(a, b), A, B),
    "solve_ex_right": (lambda lib: lambda a, b: lib.linalg.solve_ex(a, b.mT, left=False), A, B),
    "solve_ex_stack_vector": (lambda lib: lambda a, b: lib.linalg.solve_ex(a, b), STACKS, VECTORS),
    "solve_ex_matrix_stack": (lambda lib: lambda a, b: lib.linalg.solve_ex(a[0], b.expand(2, 3, 2)), STACKS, B),
    "cholesky_ex_upper": (lambda lib: lambda a: lib.linalg.cholesky_ex(a, upper=True), SPD),
    "lu_factor_stack": (lambda lib: lambda a: lib.linalg.lu_factor(a), STACKS),
    "lu_factor_ex": (lambda lib: lambda a: lib.linalg.lu_factor_ex(a), A),
    "linalg_lu_wide": (lambda lib: lambda a: lib.linalg.lu(a[:2]), A),
    "lu_unpack": (lambda lib: lambda a: lib.lu_unpack(*lib.linalg.lu_factor(a)), A),
    "lu_unpack_no_data": (lambda lib: lambda a: tuple(o.detach() for o in lib.lu_unpack(  # torch can't
        *lib.linalg.lu_factor(a), unpack_data=False)), A),                               # differentiate this
    "lu_unpack_no_pivots": (lambda lib: lambda a: lib.lu_unpack(*lib.linalg.lu_factor(a), unpack_pivots=False), A),
    "lu_solve_broadcast_b": (lambda lib: lambda a, b: (lib.linalg.lu_solve(
        *lib.linalg.lu_factor(a), b.expand(4, 3, 2), adjoint=True),), A, B),
    "lu_solve_broadcast_lu": (lambda lib: lambda a, b: (lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b),),
                              STACKS, B),
    "lu_solve_legacy": (lambda lib: lambda a, b: (lib.lu_solve(b, *lib.lu(a)),), A, B),
}


@pytest.mark.parametrize("name", CASES)
def test_vmap_matches_torch_per_sample(name):
    """The reference is PyTorch on one sample at a time: torch.vmap itself is off where
    samples broadcast against each other's batch dims (wrong lu_solve values, a (1,) info
    for solve_ex, or an error) and for lu_unpack's outputs left out ((0,), not (3, 0))."""
    fn, *arrays = CASES[name]
    ours = _program(fn, *arrays)(chainrule)
    theirs = _program(fn, *arrays, loop=True)(require_torch())
    assert [str(o.dtype) for o in ours[0]] == [str(t.dtype) for t in theirs[0]]
    assert_close(ours, theirs, rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("name, fn, arrays", [
    ("inv_ex", lambda lib: lambda a: lib.linalg.inv_ex(a), (SINGULAR,)),
    ("solve_ex", lambda lib: lambda a, b: lib.linalg.solve_ex(a, b), (SINGULAR, B)),
    ("solve_ex_vector", lambda lib: lambda a, b: lib.linalg.solve_ex(a, b), (SINGULAR, VECTORS)),
    ("cholesky_ex", lambda lib: lambda a: lib.linalg.cholesky_ex(a), (NOT_PD,)),
], ids=lambda v: v if isinstance(v, str) else "")
def test_a_failing_sample_among_good_ones(name, fn, arrays):
    """The failing sample gets LAPACK's leftovers and no gradient, the others their values
    and gradients: as one sample at a time; info as PyTorch's vmap gives it."""
    got = _program(fn, *arrays)(chainrule)
    assert_close(got, _program(fn, *arrays, loop=True)(chainrule), rtol=1e-6, atol=1e-9)
    info = require_torch().vmap(fn(require_torch()))(*[require_torch().tensor(a) for a in arrays])[1]
    assert_close(got[0][1], info)


@pytest.mark.parametrize("fn", [
    lambda lib: lambda a: lib.linalg.inv_ex(a, check_errors=True),
    lambda lib: lambda a: lib.linalg.solve_ex(a, a[0], check_errors=True),
    lambda lib: lambda a: lib.linalg.lu_factor(a),
    lambda lib: lambda a: lib.linalg.lu_factor_ex(a, check_errors=True),
], ids=["inv_ex", "solve_ex", "lu_factor", "lu_factor_ex"])
def test_errors_name_the_failing_sample(fn):
    ours, theirs = both(lambda lib: full_error_of(lambda: lib.vmap(fn(lib))(lib.tensor(SINGULAR))))
    assert ours[0].__name__ == theirs[0].__name__ and ours[1] == theirs[1]


def test_cholesky_ex_error_names_the_failing_sample():
    def program(lib):
        return full_error_of(lambda: lib.vmap(lambda a: lib.linalg.cholesky_ex(a, check_errors=True))(
            lib.tensor(NOT_PD)))
    ours, theirs = both(program)
    assert ours[0].__name__ == theirs[0].__name__ and ours[1] == theirs[1]


def test_torch_lu_does_not_raise_for_a_zero_pivot():
    ours, theirs = both(lambda lib: lib.vmap(lambda a: lib.lu(a))(lib.tensor(SINGULAR)))
    assert_close(ours, theirs)


def test_nested_vmap():
    data = np.stack([A, A[::-1]])

    def program(lib):
        return lib.vmap(lib.vmap(lambda a: lib.linalg.lu_factor_ex(a)))(lib.tensor(data))
    assert_close(*both(program))


def test_jacrev_of_lu_solve():
    """jacrev runs lu_solve's gradient on a batch of cotangents: the pivots are shared."""
    def program(lib):
        lu_matrix, pivots = lib.linalg.lu_factor(lib.tensor(A[0]))
        return lib.func.jacrev(lambda a, b: lib.linalg.lu_solve(a, pivots, b), argnums=(0, 1))(
            lu_matrix, lib.tensor(B[0]))
    assert_close(*both(program))
