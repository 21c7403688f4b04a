"""vmap of the nn ops that pick by index (embedding, nll_loss, cross_entropy, max pooling)
and of ctc_loss, in the cases the op database's first samples don't reach: Jacobians and
Hessians (their gradient rules run on a batch of cotangents, and again on a batch of
second-order ones), every reduction, and ctc_loss's target layouts and length forms.
Each is compared with torch: ``torch.func`` for the Jacobians, a loop of torch calls for
ctc_loss. None may take the loop fallback."""
import numpy as np
import pytest

import chainrule
from chainrule._functorch import batched

from helpers import assert_close, both, full_error_of, require_torch

pytestmark = pytest.mark.filterwarnings("ignore:There is a performance drop:UserWarning")  # torch's own

RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def no_fallback():
    """Every test here must run its ops batched, no loop over the samples."""
    batched.FALLBACKS.clear()
    yield
    used = sorted(batched.FALLBACKS)
    batched.FALLBACKS.clear()
    assert not used, f"ran once per sample: {used}"


def _derivatives(fn, x, transform="jacrev"):
    """``transform(lambda x: fn(L, x))(x)`` for both libraries."""
    return both(lambda L: getattr(L.func, transform)(lambda t: fn(L, t))(L.from_numpy(x.copy())))


TARGET = np.array([2, 0, 4, 2])
WEIGHT = np.array([0.5, 1.0, 2.0, 0.0, 1.5])
TARGET_2D = RNG.integers(0, 3, (2, 2, 3))


def _nll(reduction, weight=None, ignore_index=-100):
    def fn(L, x):
        w = None if weight is None else L.from_numpy(weight)
        return L.nn.functional.nll_loss(x.log_softmax(1), L.from_numpy(TARGET), w, ignore_index=ignore_index,
                                        reduction=reduction)
    return fn


def _cross_entropy(reduction, weight=None, ignore_index=-100):
    def fn(L, x):
        w = None if weight is None else L.from_numpy(weight)
        return L.nn.functional.cross_entropy(x, L.from_numpy(TARGET), w, ignore_index=ignore_index,
                                             reduction=reduction)
    return fn


LOSSES = {
    **{f"nll_{r}": _nll(r) for r in ("none", "sum", "mean")},
    "nll_weighted_ignored": _nll("mean", WEIGHT, ignore_index=0),
    "nll_weighted_none": _nll("none", WEIGHT, ignore_index=2),
    **{f"cross_entropy_{r}": _cross_entropy(r) for r in ("none", "sum", "mean")},
    "cross_entropy_weighted_ignored": _cross_entropy("mean", WEIGHT, ignore_index=2),
    "cross_entropy_1d": lambda L, x: L.nn.functional.cross_entropy(x[0], L.from_numpy(TARGET[:1].reshape(()))),
}


@pytest.mark.parametrize("transform", ["jacrev", "hessian"])
@pytest.mark.parametrize("name", list(LOSSES))
def test_class_losses_jacobian_and_hessian(name, transform):
    x = RNG.standard_normal((4, 5))
    assert_close(*_derivatives(LOSSES[name], x, transform), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_spatial_nll_loss_jacobian(reduction):
    """4-d inputs take nll_loss2d, 3-d ones are viewed as 4-d."""
    x = RNG.standard_normal((2, 3, 2, 3))
    fn = lambda L, t: L.nn.functional.nll_loss(t, L.from_numpy(TARGET_2D), reduction=reduction)
    assert_close(*_derivatives(fn, x), rtol=1e-10, atol=1e-12)
    fn3 = lambda L, t: L.nn.functional.cross_entropy(t[:, :, 0], L.from_numpy(TARGET_2D[:, 0]),
                                                     reduction=reduction)
    assert_close(*_derivatives(fn3, x, "hessian"), rtol=1e-10, atol=1e-12)


def test_mean_over_nothing_loops_for_its_nan_and_zeros():
    """Every target ignored: the loss is nan, its gradient 0, as in PyTorch (the one case
    nll_loss_backward's rule leaves to the loop)."""
    x, target = RNG.standard_normal((4, 5)), np.full(4, 2)
    assert_close(*_derivatives(lambda L, t: L.nn.functional.nll_loss(t, L.from_numpy(target), ignore_index=2), x))
    assert batched.FALLBACKS == {"nll_loss_backward"}
    batched.FALLBACKS.clear()


@pytest.mark.parametrize("padding_idx", [None, 1])
def test_embedding_jacobian_and_hessian(padding_idx):
    index = np.array([[1, 3, 1], [0, 4, 3]])

    def fn(L, w):
        return (L.nn.functional.embedding(L.from_numpy(index), w, padding_idx=padding_idx) ** 3).sum((0, 1))
    w = RNG.standard_normal((5, 2))
    assert_close(*_derivatives(fn, w), rtol=1e-10, atol=1e-12)
    assert_close(*_derivatives(lambda L, t: fn(L, t).sum(), w, "hessian"), rtol=1e-10, atol=1e-12)


def test_embedding_of_batched_tables_forward_mode():
    """embedding_backward's jvp, batched: the forward-mode Jacobian of a weight gradient."""
    index = np.array([1, 3, 1])
    g = RNG.standard_normal((3, 2))

    def weight_grad(L, w):
        return L.func.vjp(lambda t: L.nn.functional.embedding(L.from_numpy(index), t) ** 2, w)[1](L.from_numpy(g))[0]
    w = RNG.standard_normal((5, 2))
    assert_close(*_derivatives(weight_grad, w, "jacfwd"), rtol=1e-10, atol=1e-12)


POOLS = {
    "max_pool2d": lambda L, x: L.nn.functional.max_pool2d(x, 2, stride=1, padding=1),
    "max_pool1d": lambda L, x: L.nn.functional.max_pool1d(x[0], 3, stride=2),
    "adaptive_max_pool2d": lambda L, x: L.nn.functional.adaptive_max_pool2d(x, (2, 3)),
    "adaptive_max_pool1d": lambda L, x: L.nn.functional.adaptive_max_pool1d(x[0], 2),
}


@pytest.mark.parametrize("name", list(POOLS))
def test_max_pool_jacobian_and_hessian(name):
    x = RNG.standard_normal((2, 4, 5))
    assert_close(*_derivatives(POOLS[name], x), rtol=1e-10, atol=1e-12)
    assert_close(*_derivatives(lambda L, t: (POOLS[name](L, t) ** 3).sum(), x, "hessian"), rtol=1e-10, atol=1e-12)


# --- ctc_loss ----------------------------------------------------------------------------------

PADDED = RNG.integers(1, 5, (3, 3, 4))  # no blank (0) among the labels
TARGET_LENGTHS = np.array([[4, 2, 1], [3, 1, 2], [2, 4, 0]])
INPUT_LENGTHS = np.array([[6, 5, 3], [6, 6, 4], [5, 6, 2]])
SAME_TOTALS = np.array([[4, 2, 1], [3, 2, 2], [1, 4, 2]])  # concatenated targets: one length per batch


def _concatenated(padded, lengths):
    """Each sample's targets concatenated (their totals must agree to make one batch)."""
    return np.stack([np.concatenate([p[:n] for p, n in zip(sample, ls)]) for sample, ls in zip(padded, lengths)])


CTC_CASES = {  # name: (targets, input_lengths, target_lengths, in_dims): lengths are tuples where not batched
    "padded": (PADDED, (6, 5, 3), (4, 2, 1), (0, 0, None, None)),
    "padded_shared": (PADDED[0], (6, 5, 3), (4, 2, 1), (0, None, None, None)),
    "tensor_lengths": (PADDED, INPUT_LENGTHS, TARGET_LENGTHS, (0, 0, 0, 0)),
    "shared_tensor_lengths": (PADDED, INPUT_LENGTHS[0], TARGET_LENGTHS[0], (0, 0, None, None)),
    "concatenated": (_concatenated(PADDED, SAME_TOTALS), INPUT_LENGTHS, SAME_TOTALS, (0, 0, 0, 0)),
    "concatenated_shared_lengths": (_concatenated(PADDED, [(4, 2, 1)] * 3), (6, 5, 3), (4, 2, 1), (0, 0, None, None)),
    "unbatched": (PADDED[:, :1], INPUT_LENGTHS[:, 0], TARGET_LENGTHS[:, 0], (0, 0, 0, 0)),
    "unbatched_concatenated": (PADDED[:, 0, :3], INPUT_LENGTHS[:, 0], np.array(3), (0, 0, 0, None)),
    "impossible": (PADDED, (6, 1, 3), (4, 2, 1), (0, 0, None, None)),  # 2 labels in 1 frame: infinite
}


def _ctc_vmap_and_loop(case, reduction, zero_infinity):
    """chainrule's vmap of ctc_loss and torch's loop over the samples: losses, and the
    gradient of their sum for the logits."""
    targets, input_lengths, target_lengths, in_dims = CTC_CASES[case]
    logits = RNG.standard_normal((3, 6) + ((5,) if case.startswith("unbatched") else (3, 5)))

    def loss(L, x, t, il, tl):
        return L.nn.functional.ctc_loss(x.log_softmax(-1), t, il, tl, reduction=reduction,
                                        zero_infinity=zero_infinity)

    def args(L):
        return [L.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a
                for a in (logits, targets, input_lengths, target_lengths)]

    x, *rest = args(chainrule)
    x.requires_grad_()
    ours = chainrule.vmap(lambda *a: loss(chainrule, *a), in_dims=in_dims)(x, *rest)
    ours.sum().backward()
    torch = require_torch()
    tx, *trest = args(torch)
    tx.requires_grad_()
    theirs = torch.stack([loss(torch, tx[b], *[a[b] if d == 0 else a for a, d in zip(trest, in_dims[1:])])
                          for b in range(3)])
    theirs.sum().backward()
    return (ours, x.grad), (theirs, tx.grad)


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("case", [c for c in CTC_CASES if c != "impossible"])
def test_ctc_loss_batch_folded_into_sequences(case, reduction):
    assert_close(*_ctc_vmap_and_loop(case, reduction, False), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["none", "mean"])
def test_ctc_loss_zero_infinity(reduction):
    assert_close(*_ctc_vmap_and_loop("impossible", reduction, True), rtol=1e-10, atol=1e-12)


CTC_ERRORS = {  # one sample (or two) bad: the first bad one's error, as torch's loop raises it
    "target_too_long": (PADDED, INPUT_LENGTHS, np.array([[4, 2, 1], [3, 1, 5], [2, 4, 0]])),
    "negative_target_length": (PADDED, INPUT_LENGTHS, np.array([[4, 2, 1], [3, 1, 2], [2, -1, 0]])),
    "input_too_long": (PADDED, np.array([[6, 5, 3], [6, 7, 4], [5, 6, 2]]), TARGET_LENGTHS),
    "input_then_target": (PADDED, np.array([[6, 5, 3], [6, 7, 4], [5, 6, 2]]),
                          np.array([[4, 2, 7], [3, 1, 2], [2, 4, 0]])),
    "concatenated_total": (_concatenated(PADDED, SAME_TOTALS), INPUT_LENGTHS,
                           np.array([[4, 2, 1], [3, 2, 2], [2, 4, 2]])),
    "wrong_length_count": (PADDED, INPUT_LENGTHS[:, :2], TARGET_LENGTHS),
}


@pytest.mark.parametrize("case", list(CTC_ERRORS))
def test_ctc_loss_errors_of_any_sample(case):
    logits = RNG.standard_normal((3, 6, 3, 5))
    arrays = (logits,) + CTC_ERRORS[case]
    ours = full_error_of(lambda: chainrule.vmap(lambda x, *a: chainrule.nn.functional.ctc_loss(x.log_softmax(-1), *a))(
        *[chainrule.from_numpy(a) for a in arrays]))
    torch = require_torch()
    theirs = full_error_of(lambda: [torch.nn.functional.ctc_loss(torch.from_numpy(arrays[0][b]).log_softmax(-1),
                                                                 *[torch.from_numpy(a[b]) for a in arrays[1:]])
                                    for b in range(3)])
    assert ours == theirs


@pytest.mark.parametrize("targets", [[[1, 2, 3, 4]], [1, 2, 3], [[1, 2, 3]], [1, 2, 3, 4]])
def test_ctc_loss_unbatched_targets_as_given(targets):
    """An unbatched (T, C) input keeps its targets' layout: 1-d ones are concatenated
    (their size must be the target length), 2-d ones padded."""
    x = RNG.standard_normal((6, 5))

    def loss(L):
        return L.nn.functional.ctc_loss(L.from_numpy(x).log_softmax(-1), L.tensor(targets), (6,), (3,))
    if np.shape(targets) == (4,):
        ours, theirs = both(lambda L: full_error_of(lambda: loss(L)))
        assert ours == theirs
    else:
        assert_close(*both(loss), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("in_dims", [(0, 0), (None, 0), (0, None)])
def test_cross_entropy_ops_batched_logits(in_dims, reduction):
    """The fused cross_entropy ops with the logits batched (cross_entropy itself folds a
    batch of logits into N first, so only a direct call reaches these rules): vmap equals
    the ops run per sample."""
    from chainrule._ops.nn import classification_losses as losses
    from chainrule._ops.registry import unary
    xs = chainrule.from_numpy(RNG.standard_normal((3, 4, 5)))
    gs = chainrule.from_numpy(RNG.standard_normal((3, 4) if reduction == "none" else (3,)))
    params = (losses._LogProbabilities(),) + losses._nll_params(xs[0], chainrule.from_numpy(TARGET), None, -100) + \
        (reduction, 1)

    def backward(g, x):
        return losses.cross_entropy_backward(g, x, *params)
    g, x = (gs if in_dims[0] == 0 else gs[0]), (xs if in_dims[1] == 0 else xs[0])
    got = chainrule.vmap(backward, in_dims=in_dims)(g, x)
    loop = [backward(g[b] if in_dims[0] == 0 else g, x[b] if in_dims[1] == 0 else x) for b in range(3)]
    assert_close(got, chainrule.stack(loop), rtol=1e-12, atol=1e-14)
    forward = chainrule.vmap(lambda x: unary(losses.CROSS_ENTROPY, x, params))(xs)
    assert_close(forward, chainrule.stack([unary(losses.CROSS_ENTROPY, x, params) for x in xs]), rtol=1e-12)
