"""Op database entries for the nn.functional losses (_ops/nn/: losses.py, classification_losses.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

Targets that are class indices are int64 arrays; floating targets require grad like the
input (PyTorch differentiates most losses in the target too) unless ``grad=`` says
otherwise: weights never require grad (PyTorch refuses that, see ERRORS).
"""
import numpy as np

from op_db import Domain, Entry, ErrorCase, Sample

REDUCTIONS = ("none", "mean", "sum")
PROBABILITY = Domain(0.1, 0.9)
POSITIVE = Domain(0.5, 3.0)
SIGNS = Domain(1.0, 1.0, both_signs=True)  # ±1 targets


def F(lib):
    """``lib.nn.functional``: the entries read as ``F(lib).mse_loss(...)``."""
    return lib.nn.functional


def classes(g, *shape, n_classes):
    return g(*shape, dtype="int64", domain=Domain(0, n_classes - 1))


def simplex(g, *shape, dim=-1):
    """Class probabilities along ``dim`` (positive, summing to 1)."""
    p = g(*shape, domain=PROBABILITY)
    return (p / p.sum(axis=dim, keepdims=True)).astype(g.dtype)


# --- regression ------------------------------------------------------------------------------


def pointwise_samples(g):
    """(input, target, reduction): every reduction, 0-d, empty, strided and a constant target."""
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4), r))
    yield Sample("scalar", (g(), g(), "mean"))
    yield Sample("empty_mean", (g(0, 3), g(0, 3), "mean"))
    yield Sample("empty_none", (g(0, 3), g(0, 3), "none"))
    yield Sample("noncontig", (g.noncontig(3, 4), g(3, 4), "sum"))
    yield Sample("constant_target", (g(2, 3), g(2, 3), "mean"), grad=(0,))
    yield Sample("broadcast", (g(3, 1), g(4), "mean"))
    if g.dtype == np.float32:
        yield Sample("mixed_f64", (g(2, 3), g(2, 3, dtype="float64"), "sum"))


def weighted_samples(g):
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4), g(3, 4, domain=POSITIVE), r), grad=(0, 1))
    yield Sample("weight_grad", (g(2, 3), g(2, 3), g(2, 3, domain=POSITIVE), "mean"))


def smooth_samples(g):
    """pointwise samples with a threshold (beta or delta) each side of the errors' sizes."""
    for s in pointwise_samples(g):
        if s.name not in ("broadcast", "mixed_f64"):  # huber's backward refuses mixed dtypes
            yield Sample(s.name, s.args + (0.5,), s.grad)
    yield Sample("threshold_2", (g(3, 4), g(3, 4), "mean", 2.0))
    yield Sample("threshold_small", (g(3, 4), g(3, 4), "sum", 0.1))


# --- classification ---------------------------------------------------------------------------


def nll_samples(g):
    """(input, target, weight, reduction, ignore_index): 2-d, 1-d, K-d, weights, ignored targets."""
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), classes(g, 3, n_classes=4), None, r, -100))
        yield Sample(f"weight_{r}", (g(3, 4), classes(g, 3, n_classes=4), g(4, domain=POSITIVE), r, -100),
                     grad=(0,))
        yield Sample(f"ignored_{r}", (g(4, 3), np.array([0, -100, 2, 2]), None, r, -100))
        yield Sample(f"spatial_{r}", (g(2, 3, 2, 2), classes(g, 2, 2, 2, n_classes=3), None, r, -100))
        yield Sample(f"sequence_{r}", (g(2, 3, 3), classes(g, 2, 3, n_classes=3), None, r, -100))
    yield Sample("ignored_weight", (g(4, 3), np.array([1, 2, 0, 2]), g(3, domain=POSITIVE), "mean", 2), grad=(0,))
    yield Sample("vector", (g(4), np.array(2), None, "mean", -100))
    yield Sample("vector_none", (g(4), np.array(1), None, "none", -100))
    yield Sample("volume", (g(2, 2, 1, 2, 2), classes(g, 2, 1, 2, 2, n_classes=2), None, "none", -100))
    yield Sample("spatial_weight_ignored", (g(2, 3, 2, 2), np.array([[[0, 1], [2, 5]], [[5, 2], [1, 1]]]),
                                            g(3, domain=POSITIVE), "mean", 5), grad=(0,))
    yield Sample("noncontig", (g.noncontig(3, 4), classes(g, 3, n_classes=4), None, "mean", -100))
    yield Sample("byte_target", (g(3, 4), np.array([0, 3, 1], dtype=np.uint8), None, "sum", -100))
    # a mean over nothing is nan, and so is its second derivative: compared with PyTorch only
    yield Sample("empty_mean", (g(0, 3), np.zeros(0, np.int64), None, "mean", -100), eps=None)
    yield Sample("empty_none", (g(0, 3), np.zeros(0, np.int64), None, "none", -100))
    yield Sample("all_ignored", (g(2, 3), np.array([-100, -100]), None, "mean", -100), eps=None)


def cross_entropy_samples(g):
    """nll_samples' class-index targets, with label smoothing, and class-probability targets:
    (input, target, weight, reduction, ignore_index, label_smoothing)."""
    for s in nll_samples(g):
        if s.name != "all_ignored":
            yield Sample(s.name, s.args + (0.0,), s.grad, s.eps)
    for r in REDUCTIONS:
        yield Sample(f"smoothing_{r}", (g(3, 4), classes(g, 3, n_classes=4), None, r, -100, 0.2))
        yield Sample(f"smoothing_weight_{r}", (g(4, 3), np.array([1, -100, 2, 0]), g(3, domain=POSITIVE), r,
                                               -100, 0.1), grad=(0,))
        yield Sample(f"probs_{r}", (g(3, 4), simplex(g, 3, 4), None, r, -100, 0.0))
        yield Sample(f"probs_weight_{r}", (g(3, 4), simplex(g, 3, 4), g(4, domain=POSITIVE), r, -100, 0.0),
                     grad=(0, 1))
    yield Sample("smoothing_spatial", (g(2, 3, 2, 2), classes(g, 2, 2, 2, n_classes=3), None, "none", -100, 0.3))
    yield Sample("smoothing_sequence", (g(2, 3, 3), classes(g, 2, 3, n_classes=3), None, "mean", -100, 0.3))
    yield Sample("probs_smoothing", (g(3, 4), simplex(g, 3, 4), None, "mean", -100, 0.25))
    yield Sample("probs_spatial", (g(2, 3, 2), simplex(g, 2, 3, 2, dim=1), None, "mean", -100, 0.0))
    yield Sample("probs_vector", (g(4), simplex(g, 4), None, "mean", -100, 0.0))
    yield Sample("probs_vector_weight", (g(4), simplex(g, 4), g(4, domain=POSITIVE), "sum", -100, 0.0),
                 grad=(0, 1))
    yield Sample("negative_smoothing", (g(3, 4), classes(g, 3, n_classes=4), None, "mean", -100, -0.5))


def bce_samples(g):
    """(input, target, weight, reduction): probabilities, weights that broadcast."""
    p = PROBABILITY
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4, domain=p), g(3, 4, domain=p), None, r))
        yield Sample(f"weight_{r}", (g(3, 4, domain=p), g(3, 4, domain=p), g(4, domain=POSITIVE), r), grad=(0, 1))
    yield Sample("scalar", (g(domain=p), g(domain=p), None, "mean"))
    yield Sample("empty", (g(0, 2, domain=p), g(0, 2, domain=p), None, "mean"))
    yield Sample("noncontig", (g.noncontig(3, 4, domain=p), g(3, 4, domain=p), None, "sum"))
    # the targets sit on the ends of [0, 1], which finite differences would leave (PyTorch refuses)
    yield Sample("hard_targets", (g(2, 3, domain=p), np.array([[0, 1, 1], [1, 0, 0]], g.dtype), None, "mean"),
                 eps=None)
    yield Sample("log_clamped", (np.array([0.0, 1.0, 0.5], g.dtype), np.array([0.0, 1.0, 1.0], g.dtype), None,
                                 "none"), grad=(0,), eps=None)


def bce_logits_samples(g):
    """(input, target, weight, pos_weight, reduction)."""
    p = PROBABILITY
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4, domain=p), None, None, r))
        yield Sample(f"pos_weight_{r}", (g(3, 4), g(3, 4, domain=p), None, g(4, domain=POSITIVE), r), grad=(0, 1))
    yield Sample("weight", (g(3, 4), g(3, 4, domain=p), g(3, 4, domain=POSITIVE), None, "mean"), grad=(0, 1))
    yield Sample("both_weights", (g(2, 3), g(2, 3, domain=p), g(3, domain=POSITIVE), g(3, domain=POSITIVE), "sum"),
                 grad=(0, 1))
    yield Sample("scalar", (g(), g(domain=p), None, None, "mean"))
    yield Sample("empty", (g(0, 2), g(0, 2, domain=p), None, None, "mean"))
    yield Sample("noncontig", (g.noncontig(3, 4), g(3, 4, domain=p), None, None, "sum"))
    yield Sample("large_logits", (np.array([-120.0, -30.0, 30.0, 120.0], g.dtype),
                                  np.array([1.0, 0.0, 1.0, 0.0], g.dtype), None, None, "none"))


# --- distributions --------------------------------------------------------------------------


def kl_div_samples(g):
    """(input log-probabilities, target, reduction, log_target)."""
    for r in REDUCTIONS + ("batchmean",):
        yield Sample(f"probs_{r}", (g(3, 4), g(3, 4, domain=PROBABILITY), r, False))
        yield Sample(f"log_target_{r}", (g(3, 4), g(3, 4), r, True))
    yield Sample("scalar_batchmean", (g(), g(domain=PROBABILITY), "batchmean", False))
    yield Sample("zero_target", (g(2, 2), np.array([[0.0, 0.5], [0.25, 0.0]], g.dtype), "sum", False), grad=(0,))
    yield Sample("empty", (g(0, 3), g(0, 3, domain=PROBABILITY), "sum", False))


def poisson_samples(g):
    """(input, target, log_input, full, reduction)."""
    for r in REDUCTIONS:
        yield Sample(f"log_input_{r}", (g(3, 4), g(3, 4, domain=POSITIVE), True, False, r))
        yield Sample(f"rate_{r}", (g(3, 4, domain=POSITIVE), g(3, 4, domain=POSITIVE), False, False, r))
    yield Sample("full", (g(3, 4), g(3, 4, domain=POSITIVE), True, True, "mean"))
    yield Sample("full_rate", (g(3, 4, domain=POSITIVE), g(3, 4, domain=POSITIVE), False, True, "none"))
    yield Sample("scalar", (g(), g(domain=POSITIVE), True, False, "sum"))


def gaussian_samples(g):
    """(input, target, var, full, reduction): var of input's shape, one dim short, with a
    size-1 dim, a Python float, and below eps (clamped)."""
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4), g(3, 4, domain=POSITIVE), False, r))
    yield Sample("full", (g(3, 4), g(3, 4), g(3, 4, domain=POSITIVE), True, "mean"))
    yield Sample("var_one_dim_short", (g(3, 4), g(3, 4), g(3, domain=POSITIVE), False, "mean"))
    yield Sample("var_size_one", (g(3, 4), g(3, 4), g(3, 1, domain=POSITIVE), False, "sum"))
    yield Sample("var_float", (g(3, 4), g(3, 4), 0.5, False, "mean"))
    yield Sample("var_clamped", (g(2, 2), g(2, 2), np.array([[1e-9, 0.5], [0.0, 2.0]], g.dtype), False, "sum"),
                 eps=None)


# --- margins and embeddings -------------------------------------------------------------------


def ranking_samples(g):
    """(input1, input2, target ±1, margin, reduction)."""
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4), g(3, 4, domain=SIGNS), 0.0, r))
    yield Sample("margin", (g(5), g(5), g(5, domain=SIGNS), 0.5, "mean"))
    yield Sample("scalar", (g(), g(), g(domain=SIGNS), 0.3, "sum"))
    yield Sample("constant_target", (g(4), g(4), g(4, domain=SIGNS), 0.2, "none"), grad=(0, 1))


def hinge_samples(g):
    """(input, target ±1, margin, reduction)."""
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4, domain=SIGNS), 1.0, r))
    yield Sample("margin", (g(5), g(5, domain=SIGNS), 0.5, "mean"))
    yield Sample("broadcast", (g(3, 2), g(2, domain=SIGNS), 1.5, "sum"))


def soft_margin_samples(g):
    """(input, target ±1, reduction): the target never requires grad."""
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4, domain=SIGNS), r), grad=(0,))
    yield Sample("broadcast", (g(3, 2), g(2, domain=SIGNS), "mean"), grad=(0,))
    yield Sample("scalar", (g(), g(domain=SIGNS), "sum"), grad=(0,))
    yield Sample("empty", (g(0, 2), g(0, 2, domain=SIGNS), "mean"), grad=(0,))


def multilabel_samples(g):
    """(input, target in {0, 1} (or soft), weight, reduction)."""
    labels = (g(3, 4, domain=PROBABILITY) > 0.5).astype(g.dtype)
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), labels, None, r))
    yield Sample("weight", (g(3, 4), g(3, 4, domain=PROBABILITY), g(4, domain=POSITIVE), "mean"))
    yield Sample("vector", (g(4), g(4, domain=PROBABILITY), None, "sum"))


def cosine_samples(g):
    """(input1, input2, target ±1, margin, reduction)."""
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4), g(3, domain=SIGNS), 0.0, r))
    yield Sample("margin", (g(4, 3), g(4, 3), np.array([1.0, -1.0, -1.0, 1.0], g.dtype), -0.5, "mean"))
    yield Sample("vector", (g(4), g(4), np.array(-1.0, g.dtype), -0.9, "none"))


def triplet_samples(g):
    """(anchor, positive, negative, margin, p, swap, reduction)."""
    for r in REDUCTIONS:
        yield Sample(f"matrix_{r}", (g(3, 4), g(3, 4), g(3, 4), 1.0, 2, False, r))
    yield Sample("p1", (g(3, 4), g(3, 4), g(3, 4), 2.0, 1, False, "mean"))
    yield Sample("p3", (g(3, 4), g(3, 4), g(3, 4), 2.0, 3, False, "sum"))
    yield Sample("swap", (g(4, 3), g(4, 3), g(4, 3), 1.0, 2, True, "none"))
    yield Sample("vector", (g(4), g(4), g(4), 3.0, 2, False, "mean"))
    yield Sample("batch_3d", (g(2, 2, 3), g(2, 2, 3), g(2, 2, 3), 3.0, 2, False, "sum"))


def multi_margin_samples(g):
    """(input, target, p, margin, weight, reduction)."""
    for r in REDUCTIONS:
        yield Sample(f"p1_{r}", (g(3, 4), classes(g, 3, n_classes=4), 1, 1.0, None, r))
        yield Sample(f"p2_{r}", (g(3, 4), classes(g, 3, n_classes=4), 2, 0.5, None, r))
    yield Sample("weight", (g(3, 4), classes(g, 3, n_classes=4), 1, 1.0, g(4, domain=POSITIVE), "mean"), grad=(0,))
    yield Sample("vector", (g(4), np.array(2), 1, 1.0, None, "none"))
    yield Sample("vector_target_1d", (g(4), np.array([1]), 2, 1.0, None, "none"))


# --- sequence losses -------------------------------------------------------------------------

_CTC_PADDED = np.array([[1, 2, 2, 3], [1, 1, 0, 0], [4, 0, 0, 0]])  # 2, 2 and 1, 1: a blank between


def ctc_samples(g):
    x = g(6, 3, 5)
    for reduction in ("none", "sum", "mean"):
        yield Sample(f"padded_{reduction}", (x, _CTC_PADDED, (6, 5, 3), (4, 2, 1), reduction, False, 0))
    yield Sample("concatenated", (x, np.array([1, 2, 2, 3, 1, 1, 4]), [6, 5, 3], [4, 2, 1], "none", False, 0))
    yield Sample("tensor_lengths", (x, _CTC_PADDED, np.array([6, 4, 5]), np.array([4, 2, 1]), "mean", False, 0))
    yield Sample("unbatched", (g(6, 5), np.array([3, 3, 1]), (6,), (3,), "none", False, 0))
    yield Sample("unbatched_sum", (g(5, 4), np.array([2, 1]), np.array(5), np.array(2), "sum", False, 0))
    yield Sample("blank_last", (x, np.array([[1, 2, 2, 3], [1, 1, 0, 0], [0, 3, 0, 0]]), (6, 5, 3), (4, 2, 2),
                                "none", False, 4))
    yield Sample("empty_target", (x, _CTC_PADDED, (6, 5, 3), (4, 0, 1), "none", False, 0))
    # 1, 1 needs three steps: two frames cannot hold it, the loss is infinite (zeroed)
    yield Sample("impossible_zeroed", (x, _CTC_PADDED, (6, 2, 3), (4, 2, 1), "none", True, 0))
    yield Sample("impossible_mean", (x, _CTC_PADDED, (6, 2, 3), (4, 2, 1), "mean", True, 0))


ENTRIES = [
    # regression
    Entry("mse_loss", lambda lib, x, t, r: F(lib).mse_loss(x, t, reduction=r), pointwise_samples,
          covers=("mse_loss",)),
    Entry("mse_loss_weight", lambda lib, x, t, w, r: F(lib).mse_loss(x, t, reduction=r, weight=w), weighted_samples,
          covers=("pow_scalar", "mul", "div")),
    Entry("l1_loss", lambda lib, x, t, r: F(lib).l1_loss(x, t, reduction=r), pointwise_samples,
          covers=("abs", "sub")),
    Entry("l1_loss_weight", lambda lib, x, t, w, r: F(lib).l1_loss(x, t, reduction=r, weight=w), weighted_samples,
          covers=("abs", "mul")),
    Entry("smooth_l1_loss", lambda lib, x, t, r, beta: F(lib).smooth_l1_loss(x, t, reduction=r, beta=beta),
          smooth_samples, covers=("smooth_l1_loss", "where")),
    Entry("smooth_l1_loss_beta0", lambda lib, x, t, r: F(lib).smooth_l1_loss(x, t, reduction=r, beta=0.0),
          pointwise_samples, covers=("abs",)),
    Entry("huber_loss", lambda lib, x, t, r, delta: F(lib).huber_loss(x, t, reduction=r, delta=delta),
          smooth_samples, covers=("huber_loss", "where")),
    Entry("huber_loss_weight", lambda lib, x, t, w, r: F(lib).huber_loss(x, t, reduction=r, weight=w),
          weighted_samples, covers=("huber_loss", "mul")),
    # classification
    Entry("nll_loss", lambda lib, x, t, w, r, ignore: F(lib).nll_loss(x, t, w, reduction=r, ignore_index=ignore),
          nll_samples, covers=("nll_loss", "nll_loss_backward", "nll_loss2d", "nll_loss2d_backward")),
    Entry("cross_entropy",
          lambda lib, x, t, w, r, ignore, ls: F(lib).cross_entropy(x, t, w, reduction=r, ignore_index=ignore,
                                                                   label_smoothing=ls),
          cross_entropy_samples,
          covers=("cross_entropy", "cross_entropy_backward", "softmax", "softmax_backward", "log_softmax",
                  "log_softmax_backward", "nll_loss", "nll_loss_backward", "nll_loss2d", "nll_loss2d_backward",
                  "div_by_count")),
    Entry("binary_cross_entropy", lambda lib, x, t, w, r: F(lib).binary_cross_entropy(x, t, w, reduction=r),
          bce_samples, covers=("binary_cross_entropy", "binary_cross_entropy_backward", "logit")),
    Entry("binary_cross_entropy_with_logits",
          lambda lib, x, t, w, pw, r: F(lib).binary_cross_entropy_with_logits(x, t, w, reduction=r, pos_weight=pw),
          bce_logits_samples, covers=("binary_cross_entropy_with_logits", "sigmoid", "log_sigmoid")),
    # distributions
    Entry("kl_div", lambda lib, x, t, r, log_target: F(lib).kl_div(x, t, reduction=r, log_target=log_target),
          kl_div_samples, covers=("xlogy", "exp", "where")),
    Entry("poisson_nll_loss",
          lambda lib, x, t, log_input, full, r: F(lib).poisson_nll_loss(x, t, log_input, full, reduction=r),
          poisson_samples, covers=("exp", "log")),
    Entry("gaussian_nll_loss", lambda lib, x, t, var, full, r: F(lib).gaussian_nll_loss(x, t, var, full, reduction=r),
          gaussian_samples, covers=("log", "clone")),
    # margins and embeddings
    Entry("margin_ranking_loss",
          lambda lib, a, b, t, margin, r: F(lib).margin_ranking_loss(a, b, t, margin, reduction=r), ranking_samples,
          covers=("clamp_min",)),
    Entry("hinge_embedding_loss", lambda lib, x, t, margin, r: F(lib).hinge_embedding_loss(x, t, margin, reduction=r),
          hinge_samples, covers=("where", "clamp_min")),
    Entry("soft_margin_loss", lambda lib, x, t, r: F(lib).soft_margin_loss(x, t, reduction=r), soft_margin_samples,
          covers=("soft_margin_loss", "sigmoid")),
    Entry("multilabel_soft_margin_loss",
          lambda lib, x, t, w, r: F(lib).multilabel_soft_margin_loss(x, t, w, reduction=r), multilabel_samples,
          covers=("log_sigmoid",)),
    Entry("cosine_embedding_loss",
          lambda lib, a, b, t, margin, r: F(lib).cosine_embedding_loss(a, b, t, margin, reduction=r), cosine_samples,
          covers=("sqrt", "where", "clamp_min")),
    Entry("triplet_margin_loss",
          lambda lib, a, p, n, margin, norm, swap, r: F(lib).triplet_margin_loss(a, p, n, margin, norm, swap=swap,
                                                                                  reduction=r),
          triplet_samples, covers=("norm_scalaropt_dim", "clamp_min")),
    Entry("multi_margin_loss",
          lambda lib, x, t, p, margin, w, r: F(lib).multi_margin_loss(x, t, p, margin, w, reduction=r),
          multi_margin_samples, covers=("multi_margin_loss",), second_order=False),
    Entry("ctc_loss", lambda lib, x, targets, il, tl, reduction, zero_inf, blank: F(lib).ctc_loss(
          x.log_softmax(-1), targets, il, tl, blank=blank, reduction=reduction, zero_infinity=zero_inf),
          ctc_samples, covers=("ctc_loss",), second_order=False),
]


def _m(*shape, dtype="float32"):
    a = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return np.asarray(a / 10, dtype) if a.dtype.kind == "f" else a


def _long(*values):
    return np.array(values, dtype=np.int64)


ERRORS = [
    # nll_loss / cross_entropy: targets and shapes
    ErrorCase("nll_target_out_of_range", lambda lib, x, t: F(lib).nll_loss(x, t), (_m(3, 4), _long(0, 4, 1))),
    ErrorCase("nll_target_negative", lambda lib, x, t: F(lib).nll_loss(x, t), (_m(3, 4), _long(0, -1, 1))),
    ErrorCase("nll_target_float", lambda lib, x, t: F(lib).nll_loss(x, t), (_m(3, 4), _m(3))),
    ErrorCase("nll_target_int32", lambda lib, x, t: F(lib).nll_loss(x, t), (_m(3, 4), _long(0, 1, 2).astype(np.int32))),
    ErrorCase("nll_batch_mismatch", lambda lib, x, t: F(lib).nll_loss(x, t), (_m(3, 4), _long(0, 1))),
    ErrorCase("nll_0d_input", lambda lib, x, t: F(lib).nll_loss(x, t), (_m(), np.array(0))),
    ErrorCase("nll_weight_size", lambda lib, x, t, w: F(lib).nll_loss(x, t, w), (_m(3, 4), _long(0, 1, 2), _m(3))),
    ErrorCase("nll_weight_dtype", lambda lib, x, t, w: F(lib).nll_loss(x, t, w),
              (_m(3, 4), _long(0, 1, 2), _m(4, dtype="float64"))),
    ErrorCase("nll_weight_requires_grad", lambda lib, x, t, w: F(lib).nll_loss(x, t, w.requires_grad_()),
              (_m(3, 4), _long(0, 1, 2), _m(4))),
    ErrorCase("nll_int_input", lambda lib, x, t: F(lib).nll_loss(x, t), (_m(3, 4, dtype="int64"), _long(0, 1, 2))),
    ErrorCase("nll_bad_reduction", lambda lib, x, t: F(lib).nll_loss(x, t, reduction="avg"), (_m(3, 4), _long(0, 1, 2))),
    ErrorCase("nll_vector_target", lambda lib, x, t: F(lib).nll_loss(x, t), (_m(4), _long(0, 1))),
    ErrorCase("nll_sequence_mismatch", lambda lib, x, t: F(lib).nll_loss(x, t),
              (_m(2, 3, 5), np.zeros((2, 4), np.int64))),
    ErrorCase("nll_spatial_mismatch", lambda lib, x, t: F(lib).nll_loss(x, t),
              (_m(2, 3, 5, 4), np.zeros((2, 4, 4), np.int64))),
    ErrorCase("nll_spatial_target_dims", lambda lib, x, t: F(lib).nll_loss(x, t),
              (_m(2, 3, 5, 4), np.zeros((2, 20), np.int64))),
    ErrorCase("nll_spatial_out_of_range", lambda lib, x, t: F(lib).nll_loss(x, t),
              (_m(2, 3, 2, 2), np.full((2, 2, 2), 3))),
    ErrorCase("cross_entropy_probs_int", lambda lib, x, t: F(lib).cross_entropy(x, t),
              (_m(3, 4), np.ones((3, 4), np.int64))),
    ErrorCase("cross_entropy_probs_ignore_index", lambda lib, x, t: F(lib).cross_entropy(x, t, ignore_index=1),
              (_m(3, 4), _m(3, 4))),
    ErrorCase("cross_entropy_smoothing", lambda lib, x, t: F(lib).cross_entropy(x, t, label_smoothing=1.5),
              (_m(3, 4), _long(0, 1, 2))),
    ErrorCase("cross_entropy_probs_smoothing", lambda lib, x, t: F(lib).cross_entropy(x, t, label_smoothing=1.5),
              (_m(3, 4), _m(3, 4))),
    ErrorCase("cross_entropy_probs_weight", lambda lib, x, t, w: F(lib).cross_entropy(x, t, w),
              (_m(3, 4), _m(3, 4), _m(3))),
    ErrorCase("cross_entropy_float_classes", lambda lib, x, t: F(lib).cross_entropy(x, t), (_m(3, 4), _m(3))),
    ErrorCase("cross_entropy_int_input", lambda lib, x, t: F(lib).cross_entropy(x, t),
              (_m(3, 4, dtype="int64"), _long(0, 1, 2))),
    ErrorCase("cross_entropy_0d", lambda lib, x, t: F(lib).cross_entropy(x, t), (_m(), np.array(0))),
    # binary cross-entropy
    ErrorCase("bce_out_of_range", lambda lib, x, t: F(lib).binary_cross_entropy(x, t), (_m(3) + 1, _m(3))),
    ErrorCase("bce_size", lambda lib, x, t: F(lib).binary_cross_entropy(x, t), (_m(3), _m(3, 1))),
    ErrorCase("bce_dtype", lambda lib, x, t: F(lib).binary_cross_entropy(x, t), (_m(3), _m(3, dtype="float64"))),
    ErrorCase("bce_int", lambda lib, x, t: F(lib).binary_cross_entropy(x, t),
              (_m(3, dtype="int64"), _m(3, dtype="int64"))),
    ErrorCase("bce_weight_broadcast", lambda lib, x, t, w: F(lib).binary_cross_entropy(x, t, w),
              (_m(2, 3), _m(2, 3), _m(2))),
    ErrorCase("bce_weight_requires_grad", lambda lib, x, t, w: F(lib).binary_cross_entropy(x, t, w.requires_grad_()),
              (_m(3), _m(3), _m(3))),
    ErrorCase("bce_logits_size", lambda lib, x, t: F(lib).binary_cross_entropy_with_logits(x, t), (_m(3), _m(3, 1))),
    ErrorCase("bce_logits_int_target", lambda lib, x, t: F(lib).binary_cross_entropy_with_logits(x, t),
              (_m(3), _m(3, dtype="int64"))),
    ErrorCase("bce_logits_pos_weight", lambda lib, x, t, pw: F(lib).binary_cross_entropy_with_logits(x, t, pos_weight=pw),
              (_m(2, 3), _m(2, 3), _m(2))),
    ErrorCase("bce_logits_pos_weight_requires_grad",
              lambda lib, x, t, pw: F(lib).binary_cross_entropy_with_logits(x, t, pos_weight=pw.requires_grad_()),
              (_m(3), _m(3), _m(3))),
    # regression
    ErrorCase("mse_int", lambda lib, x, t: F(lib).mse_loss(x, t), (_m(3, dtype="int64"), _m(3, dtype="int64"))),
    ErrorCase("mse_broadcast", lambda lib, x, t: F(lib).mse_loss(x, t), (_m(3), _m(2))),
    ErrorCase("mse_bad_reduction", lambda lib, x, t: F(lib).mse_loss(x, t, reduction="avg"), (_m(3), _m(3))),
    ErrorCase("mse_weight_size", lambda lib, x, t, w: F(lib).mse_loss(x, t, weight=w), (_m(3), _m(3), _m(2))),
    ErrorCase("mse_weight_reduction", lambda lib, x, t, w: F(lib).mse_loss(x, t, reduction="avg", weight=w),
              (_m(3), _m(3), _m(3))),
    ErrorCase("l1_int_mean", lambda lib, x, t: F(lib).l1_loss(x, t), (_m(3, dtype="int64"), _m(3, dtype="int64"))),
    ErrorCase("smooth_l1_negative_beta", lambda lib, x, t: F(lib).smooth_l1_loss(x, t, beta=-1.0), (_m(3), _m(3))),
    ErrorCase("smooth_l1_int", lambda lib, x, t: F(lib).smooth_l1_loss(x, t),
              (_m(3, dtype="int64"), _m(3, dtype="int64"))),
    ErrorCase("huber_delta", lambda lib, x, t: F(lib).huber_loss(x, t, delta=0.0), (_m(3), _m(3))),
    ErrorCase("huber_int", lambda lib, x, t: F(lib).huber_loss(x, t), (_m(3, dtype="int64"), _m(3, dtype="int64"))),
    # distributions
    ErrorCase("kl_div_int", lambda lib, x, t: F(lib).kl_div(x, t, reduction="sum"),
              (_m(3, dtype="int64"), _m(3, dtype="int64"))),
    ErrorCase("kl_div_bad_reduction", lambda lib, x, t: F(lib).kl_div(x, t, reduction="avg"), (_m(3), _m(3))),
    ErrorCase("poisson_bad_reduction", lambda lib, x, t: F(lib).poisson_nll_loss(x, t, reduction="avg"),
              (_m(3), _m(3))),
    ErrorCase("gaussian_var_size", lambda lib, x, t, v: F(lib).gaussian_nll_loss(x, t, v), (_m(3, 2), _m(3, 2), _m(2))),
    ErrorCase("gaussian_var_negative", lambda lib, x, t, v: F(lib).gaussian_nll_loss(x, t, -v - 1),
              (_m(3, 2), _m(3, 2), _m(3, 2))),
    ErrorCase("gaussian_float_var_negative", lambda lib, x, t: F(lib).gaussian_nll_loss(x, t, -1.0),
              (_m(3, 2), _m(3, 2))),
    ErrorCase("gaussian_bad_reduction", lambda lib, x, t, v: F(lib).gaussian_nll_loss(x, t, v, reduction="avg"),
              (_m(3, 2), _m(3, 2), _m(3, 2))),
    # margins and embeddings
    ErrorCase("margin_ranking_dims", lambda lib, a, b, t: F(lib).margin_ranking_loss(a, b, t),
              (_m(3), _m(3), _m(1, 3))),
    ErrorCase("margin_ranking_size", lambda lib, a, b, t: F(lib).margin_ranking_loss(a, b, t), (_m(3), _m(3), _m(2))),
    ErrorCase("cosine_target_1d_input_1d", lambda lib, a, b, t: F(lib).cosine_embedding_loss(a, b, t),
              (_m(3), _m(3), _m(3))),
    ErrorCase("cosine_target_2d", lambda lib, a, b, t: F(lib).cosine_embedding_loss(a, b, t),
              (_m(3, 2), _m(3, 2), _m(3, 1))),
    ErrorCase("cosine_target_0d_input_2d", lambda lib, a, b, t: F(lib).cosine_embedding_loss(a, b, t),
              (_m(3, 2), _m(3, 2), _m())),
    ErrorCase("triplet_dims", lambda lib, a, p, n: F(lib).triplet_margin_loss(a, p, n), (_m(3, 2), _m(2), _m(3, 2))),
    ErrorCase("triplet_margin", lambda lib, a, p, n: F(lib).triplet_margin_loss(a, p, n, margin=0.0),
              (_m(3, 2), _m(3, 2), _m(3, 2))),
    ErrorCase("soft_margin_target_requires_grad",
              lambda lib, x, t: F(lib).soft_margin_loss(x, t.requires_grad_()), (_m(3), _m(3))),
    ErrorCase("soft_margin_int", lambda lib, x, t: F(lib).soft_margin_loss(x, t),
              (_m(3, dtype="int64"), _m(3, dtype="int64"))),
    ErrorCase("multi_margin_p", lambda lib, x, t: F(lib).multi_margin_loss(x, t, p=3), (_m(2, 2), _long(0, 1))),
    ErrorCase("multi_margin_target_range", lambda lib, x, t: F(lib).multi_margin_loss(x, t), (_m(2, 2), _long(0, 2))),
    ErrorCase("multi_margin_3d", lambda lib, x, t: F(lib).multi_margin_loss(x, t), (_m(2, 2, 2), _long(0, 1))),
    ErrorCase("multi_margin_target_size", lambda lib, x, t: F(lib).multi_margin_loss(x, t), (_m(3, 4), _long(0, 1))),
    ErrorCase("multi_margin_weight_size", lambda lib, x, t, w: F(lib).multi_margin_loss(x, t, weight=w),
              (_m(3, 4), _long(0, 1, 2), _m(3))),
    ErrorCase("multi_margin_target_float", lambda lib, x, t: F(lib).multi_margin_loss(x, t), (_m(3, 4), _m(3))),
    ErrorCase("multi_margin_weight_requires_grad",
              lambda lib, x, t, w: F(lib).multi_margin_loss(x, t, weight=w.requires_grad_()),
              (_m(3, 4), _long(0, 1, 2), _m(4))),
    ErrorCase("ctc_blank", lambda lib, x, t: F(lib).ctc_loss(x, t, (3,), (2,), blank=4), (_m(3, 1, 4), _long(1, 2))),
    ErrorCase("ctc_input_lengths_size", lambda lib, x, t: F(lib).ctc_loss(x, t, (3, 3), (2,)), (_m(3, 1, 4), _long(1, 2))),
    ErrorCase("ctc_target_lengths_size", lambda lib, x, t: F(lib).ctc_loss(x, t, (3,), ()), (_m(3, 1, 4), _long(1, 2))),
    ErrorCase("ctc_input_too_long", lambda lib, x, t: F(lib).ctc_loss(x, t, (4,), (2,)), (_m(3, 1, 4), _long(1, 2))),
    ErrorCase("ctc_negative_target_length", lambda lib, x, t: F(lib).ctc_loss(x, t, (3,), (-1,)),
              (_m(3, 1, 4), _long(1, 2))),
    ErrorCase("ctc_padded_too_short", lambda lib, x, t: F(lib).ctc_loss(x, t.reshape(1, 2), (3,), (3,)),
              (_m(3, 1, 4), _long(1, 2))),
    ErrorCase("ctc_concatenated_too_short", lambda lib, x, t: F(lib).ctc_loss(x, t, (3, 3), (2, 1)),
              (_m(3, 2, 4), _long(1, 2))),
    ErrorCase("ctc_reduction", lambda lib, x, t: F(lib).ctc_loss(x, t, (3,), (2,), reduction="avg"),
              (_m(3, 1, 4), _long(1, 2))),
]

CTC_GRADIENT_IS_PYTORCHS = (
    "sequence_losses.py: ctc_loss's vjp is PyTorch's, exp(log_probs) - posterior, the gradient that reaches "
    "the logits through a log_softmax, not the derivative of its forward (-posterior); its jvp contracts "
    "the same gradient (PyTorch has no forward AD for ctc_loss), so it differs from finite differences. "
    "Not a bug to fix: PyTorch's gradient is the contract.")

KNOWN_BUGS = {
    ("jvp", "ctc_loss", None): CTC_GRADIENT_IS_PYTORCHS,
}
