"""Op database entries for nn.functional activations, normalization and layers
(_ops/nn/: activations.py, normalization.py, layers.py).

See op_db.py for what an entry, a sample and an error case hold; test_ops.py runs every
check on every entry. ``KNOWN_BUGS`` has test_ops.KNOWN_BUGS's format.

Samples avoid the kinks of piecewise ops (random values almost never hit them); the
``at_kinks`` samples sit on them and are compared with PyTorch only (``eps=None``). Random
ops (dropout in training) can't match PyTorch's values: their entries here are the
deterministic cases (evaluation, p = 0 and p = 1); tests/test_nn_functional.py checks the
random ones by their statistics.
"""
import numpy as np

from op_db import LOOSE_TOL, NUMBERS, POSITIVE, Domain, Entry, ErrorCase, Sample, kink_samples, unary_samples

WIDE = Domain(-4.0, 4.0)  # both sides of hardswish's, hardsigmoid's and softplus' bends


def F(lib):
    return lib.nn.functional


def at(g, *values):
    """A sample array holding exactly ``values`` (points where a rule switches branch)."""
    return np.array(values, dtype=g.dtype)


# --- activations: samples --------------------------------------------------------------------


def param_samples(*params, kinks=None):
    """unary_samples with the op's parameters appended, then each set of ``params`` on a
    matrix; ``kinks``: values where the op bends (compared with PyTorch only)."""
    def samples(g):
        first = params[0] if params else ()
        for s in unary_samples(g):
            yield Sample(s.name, s.args + first, eps=s.eps)
        for i, p in enumerate(params[1:]):
            yield Sample(f"params{i}", (g(3, 4),) + p)
        if kinks is not None and g.dtype.kind == "f":
            yield Sample("at_kinks", (at(g, *kinks, 1.0, -1.0),) + first, eps=None)
    return samples


def inplace_samples(g):
    """The in-place forms write into ``x * 1`` (a leaf can't be written in place)."""
    yield Sample("matrix", (g(3, 4),))
    yield Sample("scalar", (g(),))
    yield Sample("noncontig", (g.noncontig(3, 4),))
    yield Sample("empty", (g(0, 3),))


def prelu_samples(g):
    yield Sample("per_channel", (g(2, 3, 4), g(3, domain=POSITIVE)))
    yield Sample("shared", (g(2, 3, 4), g(1, domain=POSITIVE)))
    yield Sample("shared_0d", (g(2, 3), g(domain=POSITIVE)))
    yield Sample("matrix", (g(4, 3), g(3, domain=POSITIVE)))
    yield Sample("vector", (g(5), g(1, domain=POSITIVE)))
    yield Sample("scalar", (g(), g(1, domain=POSITIVE)))
    yield Sample("noncontig", (g.noncontig(3, 4), g(4, domain=POSITIVE)))
    yield Sample("empty", (g(0, 3), g(3, domain=POSITIVE)))
    yield Sample("negative_weight", (g(2, 3), g(3)))


def glu_samples(g):
    yield Sample("last", (g(3, 4), -1))
    yield Sample("first", (g(4, 3), 0))
    yield Sample("middle", (g(2, 6, 3), 1))
    yield Sample("vector", (g(6), 0))
    yield Sample("noncontig", (g.noncontig(3, 4), 1))
    yield Sample("empty", (g(0, 4), 1))


def softmax_samples(g):
    yield Sample("last", (g(3, 4), -1, None))
    yield Sample("first", (g(3, 4), 0, None))
    yield Sample("middle", (g(2, 3, 4), 1, None))
    yield Sample("vector", (g(5), 0, None))
    yield Sample("scalar", (g(), 0, None))
    yield Sample("noncontig", (g.noncontig(3, 4), 1, None))
    yield Sample("empty", (g(0, 3), 1, None))
    yield Sample("empty_dim", (g(0, 3), 0, None))
    yield Sample("large", (g(2, 3) * 400, 1, None))
    yield Sample("to_float64", (g(2, 3), 1, "float64"))
    if g.dtype == np.float64:
        yield Sample("to_float32", (g(2, 3), 1, "float32"), eps=None)
        yield Sample("minus_inf", (np.array([[-np.inf, 0.5, 1.0], [0.2, -np.inf, -1.0]]), 1, None), eps=None)


# --- layers: samples ----------------------------------------------------------------------------


def linear_samples(g):
    yield Sample("matrix", (g(3, 4), g(5, 4), g(5)))
    yield Sample("batched", (g(2, 3, 4), g(5, 4), g(5)))
    yield Sample("batched_4d", (g(2, 1, 3, 4), g(5, 4), g(5)))
    yield Sample("vector", (g(4), g(5, 4), g(5)))
    yield Sample("noncontig_batched", (g.noncontig(2, 3, 4), g(5, 4), g(5)))
    yield Sample("noncontig_weight", (g(3, 4), g.noncontig(5, 4), g(5)))
    yield Sample("bias_0d", (g(3, 4), g(5, 4), g()))
    yield Sample("bias_0d_batched", (g(2, 3, 4), g(5, 4), g()))
    yield Sample("no_bias", (g(3, 4), g(5, 4), None))
    yield Sample("no_bias_batched", (g(2, 3, 4), g(5, 4), None))
    yield Sample("no_bias_vector", (g(4), g(5, 4), None))
    yield Sample("empty_batch", (g(0, 4), g(5, 4), g(5)))
    yield Sample("empty_batched", (g(2, 0, 4), g(5, 4), g(5)))
    yield Sample("one_out", (g(3, 4), g(1, 4), g(1)))


def bilinear_samples(g):
    yield Sample("matrix", (g(3, 4), g(3, 2), g(5, 4, 2), g(5)))
    yield Sample("no_bias", (g(3, 4), g(3, 2), g(5, 4, 2), None))
    yield Sample("batched", (g(2, 3, 4), g(2, 3, 2), g(5, 4, 2), g(5)))
    yield Sample("vector", (g(4), g(2), g(5, 4, 2), g(5)))
    yield Sample("noncontig", (g.noncontig(3, 4), g(3, 2), g(5, 4, 2), g(5)))
    yield Sample("empty", (g(0, 4), g(0, 2), g(5, 4, 2), g(5)))


def embedding_samples(g):
    def idx(*values):
        return np.array(values, dtype=np.int64)
    yield Sample("vector", (idx(1, 3, 0), g(5, 3), None, None, False))
    yield Sample("matrix", (idx(1, 3, 0, 4, 2, 1).reshape(2, 3), g(5, 3), None, None, False))
    yield Sample("repeated", (idx(1, 1, 4, 1), g(5, 3), None, None, False))
    yield Sample("scalar", (np.array(2), g(5, 3), None, None, False))
    yield Sample("empty", (idx(), g(5, 3), None, None, False), eps=None)  # PyTorch's double backward fails
    yield Sample("int32", (idx(4, 0, 2).astype(np.int32), g(5, 3), None, None, False))
    yield Sample("noncontig_weight", (idx(1, 3), g.noncontig(5, 3), None, None, False))
    yield Sample("padding_unused", (idx(1, 3, 0), g(5, 3), 4, None, False))
    yield Sample("padding", (idx(1, 4, 0, 4), g(5, 3), 4, None, False), eps=None)
    yield Sample("padding_negative", (idx(1, 4, 0, 4), g(5, 3), -1, None, False), eps=None)
    yield Sample("scale_unique", (idx(1, 3, 0), g(5, 3), None, None, True))
    yield Sample("scale_by_freq", (idx(1, 1, 4, 1, 2), g(5, 3), None, None, True), eps=None)
    yield Sample("scale_and_padding", (idx(1, 1, 4, 0), g(5, 3), 0, None, True), eps=None)


def embedding_renorm_samples(g):
    def idx(*values):
        return np.array(values, dtype=np.int64)
    # max_norm rewrites the looked-up rows of the weight in place: compared with PyTorch only
    yield Sample("max_norm", (idx(1, 3, 1), g(5, 3, domain=POSITIVE), 1.0, 2.0), eps=None)
    yield Sample("max_norm_p1", (idx(0, 2), g(5, 3, domain=POSITIVE), 1.5, 1.0), eps=None)
    yield Sample("max_norm_inf", (idx(4, 2), g(5, 3, domain=POSITIVE), 1.0, float("inf")), eps=None)
    yield Sample("max_norm_large", (idx(4, 2), g(5, 3), 100.0, 2.0), eps=None)


def one_hot_samples(g):
    classes = Domain(0, 3)
    yield Sample("vector", (g(5, domain=classes), -1))
    yield Sample("matrix", (g(2, 3, domain=classes), 5))
    yield Sample("scalar", (g(domain=classes), 4))
    yield Sample("empty", (g(0, domain=classes), 3))


def dropout_samples(g):
    """The deterministic cases: evaluation and p = 0 return the input itself, p = 1 zeros."""
    yield Sample("eval", (g(3, 4), 0.5, False))
    yield Sample("p0", (g(3, 4), 0.0, True))
    yield Sample("p1", (g(3, 4), 1.0, True))
    yield Sample("p1_scalar", (g(), 1.0, True))
    yield Sample("empty", (g(0, 3), 0.5, True))


def feature_dropout_samples(g):
    yield Sample("eval", (g(2, 3, 4), 0.5, False))
    yield Sample("p0", (g(2, 3, 4), 0.0, True))
    yield Sample("p1", (g(2, 3, 4), 1.0, True))


BOOL_MASK = np.array([[True, False, True], [True, True, False], [False, True, True]])
MASKED_ROW = np.array([[True, False, True], [False, False, False], [False, True, True]])


def fused_attention_samples(g):
    """(query, key, value, mask, is_causal, scale), 4-d inputs that PyTorch hands to its fused
    CPU kernel. Masks put -inf in the scores: finite differences there give NaN."""
    yield Sample("plain", (g(1, 2, 3, 4), g(1, 2, 3, 4), g(1, 2, 3, 4), None, False, None))
    yield Sample("more_keys", (g(2, 1, 2, 3), g(2, 1, 4, 3), g(2, 1, 4, 3), None, False, None))
    yield Sample("scale", (g(1, 1, 3, 2), g(1, 1, 3, 2), g(1, 1, 3, 2), None, False, 0.3))
    yield Sample("float_mask", (g(1, 1, 3, 2), g(1, 1, 3, 2), g(1, 1, 3, 2), g(1, 1, 3, 3), False, None),
                 grad=(0, 1, 2))
    yield Sample("bool_mask", (g(1, 2, 3, 2), g(1, 2, 3, 2), g(1, 2, 3, 2), BOOL_MASK, False, None),
                 grad=(0, 1, 2), eps=None)
    yield Sample("causal", (g(1, 2, 3, 2), g(1, 2, 3, 2), g(1, 2, 3, 2), None, True, None), eps=None)
    yield Sample("masked_row", (g(1, 1, 3, 2), g(1, 1, 3, 2), g(1, 1, 3, 2), MASKED_ROW, False, None),
                 grad=(0, 1, 2), eps=None)


def attention_samples(g):
    """Inputs that PyTorch's CPU dispatcher composes from matmul and softmax: not 4-d, strided,
    value and key sizes that differ, a mask that needs a gradient."""
    yield Sample("batched", (g(2, 3, 4), g(2, 5, 4), g(2, 5, 3), None, False, None))
    yield Sample("matrix", (g(3, 2), g(4, 2), g(4, 3), None, False, None))
    yield Sample("value_dim", (g(1, 2, 3, 2), g(1, 2, 4, 2), g(1, 2, 4, 3), None, False, None))
    yield Sample("noncontig", (g.noncontig(1, 1, 3, 2), g(1, 1, 3, 2), g(1, 1, 3, 2), None, False, None))
    yield Sample("mask_grad", (g(1, 1, 3, 2), g(1, 1, 3, 2), g(1, 1, 3, 2), g(3, 3), False, None))
    yield Sample("negative_scale", (g(2, 3, 2), g(2, 3, 2), g(2, 3, 2), None, False, -0.5))
    yield Sample("bool_mask", (g(2, 3, 2), g(2, 3, 2), g(2, 3, 2), BOOL_MASK, False, None), grad=(0, 1, 2),
                 eps=None)
    yield Sample("masked_row", (g(2, 3, 2), g(2, 3, 2), g(2, 3, 2), MASKED_ROW, False, None), grad=(0, 1, 2),
                 eps=None)
    yield Sample("causal", (g(2, 3, 2), g(2, 4, 2), g(2, 4, 2), None, True, None), eps=None)


# --- normalization: samples ------------------------------------------------------------------------


def layer_norm_samples(g):
    yield Sample("last", (g(2, 3, 4), (4,), None, None, 1e-5))
    yield Sample("last_two", (g(2, 3, 4), (3, 4), None, None, 1e-5))
    yield Sample("affine", (g(2, 3, 4), (4,), g(4), g(4), 1e-5))
    yield Sample("affine_two", (g(2, 3, 4), (3, 4), g(3, 4), g(3, 4), 1e-5))
    yield Sample("weight_only", (g(3, 4), [4], g(4), None, 1e-5))
    yield Sample("vector", (g(5), (5,), g(5), g(5), 1e-5))
    yield Sample("all_dims", (g(2, 3), (2, 3), None, None, 0.1))
    yield Sample("noncontig", (g.noncontig(3, 4), (4,), g(4), g(4), 1e-5))
    yield Sample("empty", (g(0, 4), (4,), g(4), g(4), 1e-5))


def batch_norm_samples(g):
    """(input, running_mean, running_var, weight, bias, training, momentum, eps)."""
    def stats(c):
        return g(c), g(c, domain=POSITIVE)
    yield Sample("train", (g(4, 3), None, None, None, None, True, 0.1, 1e-5))
    yield Sample("train_3d", (g(2, 3, 4), *stats(3), g(3), g(3), True, 0.1, 1e-5), grad=(0, 3, 4))
    yield Sample("train_4d", (g(2, 2, 2, 3), None, None, g(2), g(2), True, 0.3, 1e-3))
    yield Sample("train_noncontig", (g.noncontig(4, 3), *stats(3), g(3), None, True, 0.1, 1e-5), grad=(0, 3))
    yield Sample("eval", (g(4, 3), *stats(3), None, None, False, 0.1, 1e-5), grad=(0,))
    yield Sample("eval_3d", (g(2, 3, 4), *stats(3), g(3), g(3), False, 0.1, 1e-5), grad=(0, 3, 4))
    # PyTorch's double backward fails without a weight in evaluation: compared at first order only
    yield Sample("eval_bias_only", (g(2, 3), *stats(3), None, g(3), False, 0.1, 1e-5), grad=(0, 4), eps=None)


def running_stats_samples(g):
    for s in batch_norm_samples(g):
        if s.args[1] is not None:
            yield Sample(s.name, s.args, grad=s.grad, eps=None)
    yield Sample("momentum", (g(5, 2), g(2), g(2, domain=POSITIVE), None, None, True, 0.5, 1e-5), grad=(0,),
                 eps=None)


def group_norm_samples(g):
    yield Sample("groups", (g(2, 6, 3), 3, None, None, 1e-5))
    yield Sample("one_group", (g(2, 4, 3), 1, g(4), g(4), 1e-5))
    yield Sample("per_channel", (g(2, 4, 3), 4, g(4), g(4), 1e-5))
    yield Sample("matrix", (g(3, 4), 2, g(4), g(4), 1e-5))
    yield Sample("image", (g(2, 4, 2, 2), 2, g(4), None, 0.01))
    yield Sample("noncontig", (g.noncontig(2, 4, 3), 2, g(4), g(4), 1e-5))
    yield Sample("empty_batch", (g(0, 4, 3), 2, g(4), g(4), 1e-5))


def instance_norm_samples(g):
    yield Sample("plain", (g(2, 3, 4), None, None, None, None, True, 0.1, 1e-5))
    yield Sample("affine", (g(2, 3, 4), None, None, g(3), g(3), True, 0.1, 1e-5))
    yield Sample("image", (g(2, 2, 2, 3), None, None, g(2), None, True, 0.1, 1e-5))
    yield Sample("noncontig", (g.noncontig(2, 3, 4), None, None, g(3), g(3), True, 0.1, 1e-5))
    yield Sample("running_stats", (g(2, 3, 4), g(3), g(3, domain=POSITIVE), g(3), g(3), True, 0.2, 1e-5),
                 grad=(0, 3, 4), eps=None)
    yield Sample("eval_stats", (g(2, 3, 4), g(3), g(3, domain=POSITIVE), g(3), g(3), False, 0.1, 1e-5),
                 grad=(0, 3, 4))


def lrn_samples(g):
    yield Sample("3d", (g(2, 5, 3), 2, 1e-4, 0.75, 1.0))
    yield Sample("4d", (g(2, 4, 2, 2), 3, 0.5, 0.75, 1.0))
    yield Sample("5d", (g(1, 3, 2, 2, 2), 2, 0.1, 0.5, 2.0))
    yield Sample("window_wider", (g(1, 3, 4), 5, 0.3, 1.5, 1.0))
    yield Sample("noncontig", (g.noncontig(2, 3, 4), 3, 0.2, 0.75, 1.0))
    yield Sample("empty", (g(0, 3, 2), 2, 1e-4, 0.75, 1.0))


def normalize_samples(g):
    yield Sample("rows", (g(3, 4), 2.0, 1, 1e-12))
    yield Sample("columns", (g(3, 4), 2.0, 0, 1e-12))
    yield Sample("p1", (g(3, 4), 1.0, 1, 1e-12))
    yield Sample("p3", (g(2, 3, 4), 3.0, -1, 1e-12))
    yield Sample("p_half", (g(3, 4, domain=POSITIVE), 0.5, 1, 1e-12))
    yield Sample("vector", (g(5), 2.0, 0, 1e-12))
    yield Sample("noncontig", (g.noncontig(3, 4), 2.0, 1, 1e-12))
    yield Sample("eps_wins", (g(3, 4) * 1e-3, 2.0, 1, 0.5))
    yield Sample("zero_row", (np.concatenate([g(1, 3), np.zeros((1, 3), g.dtype)]), 2.0, 1, 1e-12), eps=None)


def cosine_samples(g):
    yield Sample("rows", (g(3, 4), g(3, 4), 1, 1e-8))
    yield Sample("columns", (g(3, 4), g(3, 4), 0, 1e-8))
    yield Sample("broadcast", (g(3, 4), g(4), 1, 1e-8))
    yield Sample("broadcast_both", (g(2, 1, 3), g(4, 3), -1, 1e-8))
    yield Sample("vector", (g(5), g(5), 0, 1e-8))
    yield Sample("scalar", (g(), g(), 0, 1e-8), eps=None)
    yield Sample("noncontig", (g.noncontig(3, 4), g(3, 4), 1, 1e-8))
    # the clamp to eps is invisible to autograd (as in PyTorch): no finite differences there
    yield Sample("eps_wins", (g(3, 4) * 1e-3, g(3, 4), 1, 0.5), eps=None)
    yield Sample("zero_row", (np.concatenate([g(1, 3), np.zeros((1, 3), g.dtype)]), g(2, 3), 1, 1e-8), eps=None)
    if g.dtype == np.float32:
        yield Sample("mixed_f64", (g(3, 4), g(3, 4, dtype="float64"), 1, 1e-8))
        yield Sample("int_other", (g(3, 4), g(3, 4, dtype="int64"), 1, 1e-8))


def pairwise_samples(g):
    yield Sample("p2", (g(3, 4), g(3, 4), 2.0, 1e-6, False))
    yield Sample("p1", (g(3, 4), g(3, 4), 1.0, 1e-6, False))
    yield Sample("p3", (g(3, 4), g(3, 4), 3.0, 1e-6, False))
    yield Sample("p_half", (g(3, 4), g(3, 4), 0.5, 1e-6, False))
    yield Sample("p_inf", (g(3, 4), g(3, 4), float("inf"), 1e-6, False))
    yield Sample("p0", (g(3, 4), g(3, 4), 0.0, 1e-6, False))
    yield Sample("keepdim", (g(3, 4), g(3, 4), 2.0, 1e-6, True))
    yield Sample("broadcast", (g(3, 4), g(4), 2.0, 1e-6, False))
    yield Sample("batched", (g(2, 3, 4), g(2, 3, 4), 2.0, 0.1, False))
    yield Sample("vector", (g(5), g(5), 2.0, 1e-6, False))
    yield Sample("scalar", (g(), g(), 2.0, 1e-6, False))
    yield Sample("noncontig", (g.noncontig(3, 4), g(3, 4), 2.0, 1e-6, False))
    yield Sample("empty", (g(0, 4), g(0, 4), 2.0, 1e-6, False))


# --- entries ---------------------------------------------------------------------------------------

ENTRIES = [
    # rectifiers
    Entry("relu6", lambda lib, x: F(lib).relu6(x), kink_samples(0.0, 6.0), covers=("hardtanh", "hardtanh_backward"), dtypes=NUMBERS,
          domain=Domain(-8.0, 8.0)),
    Entry("hardtanh", lambda lib, x, lo, hi: F(lib).hardtanh(x, min_val=lo, max_val=hi),
          param_samples((-1.0, 1.0), (-0.5, 1.5), (0.0, 0.0), kinks=(-1.0, 1.0)), covers=("hardtanh", "hardtanh_backward"),
          dtypes=NUMBERS),
    # test_ops traces an in-place op's input by reference, so its jvp is checked at the output:
    # these domains keep the outputs off the clamp bounds
    Entry("hardtanh_inplace", lambda lib, x: F(lib).hardtanh(x * 1, -0.5, 0.5, inplace=True), inplace_samples,
          covers=("hardtanh", "hardtanh_backward"), domain=Domain(-0.45, 0.45)),
    Entry("relu6_inplace", lambda lib, x: F(lib).relu6(x * 1, inplace=True), inplace_samples, covers=("hardtanh", "hardtanh_backward"),
          domain=Domain(0.5, 5.5)),
    Entry("leaky_relu", lambda lib, x, slope: F(lib).leaky_relu(x, negative_slope=slope),
          param_samples((0.01,), (0.2,), (-0.5,), kinks=(0.0,)), covers=("leaky_relu", "leaky_relu_backward")),
    Entry("leaky_relu_inplace", lambda lib, x: F(lib).leaky_relu(x * 1, 0.2, inplace=True), inplace_samples,
          covers=("leaky_relu_", "leaky_relu_backward")),
    Entry("threshold", lambda lib, x, th, value: F(lib).threshold(x, th, value),
          param_samples((0.1, 2.0), (-0.5, -3.0), kinks=(0.1,)), covers=("threshold", "threshold_backward"), dtypes=NUMBERS),
    Entry("threshold_inplace", lambda lib, x: F(lib).threshold(x * 1, 0.1, -2.0, inplace=True), inplace_samples,
          covers=("threshold_", "threshold_backward")),
    Entry("rrelu_eval", lambda lib, x, lo, hi: F(lib).rrelu(x, lo, hi), param_samples((1 / 8, 1 / 3), (0.2, 0.7)),
          covers=("rrelu", "rrelu_backward")),
    Entry("rrelu_inplace", lambda lib, x: F(lib).rrelu(x * 1, 0.1, 0.3, inplace=True), inplace_samples,
          covers=("rrelu_", "rrelu_backward")),
    Entry("prelu", lambda lib, x, w: F(lib).prelu(x, w), prelu_samples, covers=("prelu", "prelu_backward_input", "prelu_backward_weight")),
    Entry("prelu_method", lambda lib, x, w: x.prelu(w), prelu_samples, covers=("prelu", "prelu_backward_input", "prelu_backward_weight")),
    # exponential linear units
    Entry("elu", lambda lib, x, alpha: F(lib).elu(x, alpha=alpha), param_samples((1.0,), (0.5,), (2.0,)),
          covers=("elu", "elu_backward")),
    Entry("elu_inplace", lambda lib, x: F(lib).elu(x * 1, 0.7, inplace=True), inplace_samples, covers=("elu_", "elu_backward")),
    Entry("selu", lambda lib, x: F(lib).selu(x), unary_samples, covers=("elu", "elu_backward")),
    Entry("selu_inplace", lambda lib, x: F(lib).selu(x * 1, inplace=True), inplace_samples, covers=("elu_", "elu_backward")),
    Entry("torch_selu", lambda lib, x: lib.selu(x), unary_samples, covers=("elu", "elu_backward")),
    Entry("celu", lambda lib, x, alpha: F(lib).celu(x, alpha=alpha), param_samples((1.0,), (0.5,), (-2.0,)),
          covers=("celu", "elu_backward")),
    Entry("celu_inplace", lambda lib, x: F(lib).celu(x * 1, 0.5, inplace=True), inplace_samples, covers=("celu_", "elu_backward")),
    # smooth activations
    Entry("gelu", lambda lib, x, approximate: F(lib).gelu(x, approximate=approximate),
          param_samples(("none",), ("tanh",)), covers=("gelu", "gelu_backward"), domain=WIDE),
    Entry("gelu_tanh", lambda lib, x: F(lib).gelu(x, approximate="tanh"), unary_samples,
          covers=("gelu", "gelu_backward"), domain=WIDE),
    Entry("silu", lambda lib, x: F(lib).silu(x), unary_samples, covers=("silu",), domain=WIDE),
    Entry("silu_inplace", lambda lib, x: F(lib).silu(x * 1, inplace=True), inplace_samples, covers=("silu",)),
    Entry("mish", lambda lib, x: F(lib).mish(x), unary_samples, covers=("mish", "softplus"), domain=WIDE),
    Entry("mish_inplace", lambda lib, x: F(lib).mish(x * 1, inplace=True), inplace_samples, covers=("mish",)),
    Entry("softplus", lambda lib, x, beta, threshold: F(lib).softplus(x, beta=beta, threshold=threshold),
          param_samples((1.0, 20.0), (2.0, 3.0), (0.5, 1.0)), covers=("softplus", "softplus_backward"), domain=WIDE),
    Entry("logsigmoid", lambda lib, x: F(lib).logsigmoid(x), unary_samples, covers=("log_sigmoid", "log_sigmoid_backward"),
          domain=Domain(-30.0, 30.0)),
    Entry("hardsigmoid", lambda lib, x: F(lib).hardsigmoid(x), kink_samples(-3.0, 3.0), covers=("hardsigmoid",),
          domain=WIDE, second_order=False),  # PyTorch has no double backward for hardsigmoid
    Entry("hardsigmoid_inplace", lambda lib, x: F(lib).hardsigmoid(x * 1, inplace=True), inplace_samples,
          covers=("hardsigmoid",), domain=WIDE, second_order=False),
    Entry("hardswish", lambda lib, x: F(lib).hardswish(x), kink_samples(-3.0, 3.0), covers=("hardswish", "hardswish_backward"),
          domain=WIDE),
    Entry("hardswish_inplace", lambda lib, x: F(lib).hardswish(x * 1, inplace=True), inplace_samples,
          covers=("hardswish", "hardswish_backward"), domain=WIDE),
    Entry("softsign", lambda lib, x: F(lib).softsign(x), unary_samples, covers=()),
    Entry("tanhshrink", lambda lib, x: F(lib).tanhshrink(x), unary_samples, covers=()),
    # shrinkage
    Entry("softshrink", lambda lib, x, lambd: F(lib).softshrink(x, lambd),
          param_samples((0.5,), (1.5,), (0.0,), kinks=(0.5, -0.5)), covers=("softshrink", "softshrink_backward")),
    Entry("hardshrink", lambda lib, x, lambd: F(lib).hardshrink(x, lambd=lambd),
          param_samples((0.5,), (1.5,), (-1.0,), kinks=(0.5, -0.5)), covers=("hardshrink", "hardshrink_backward")),
    Entry("hardshrink_method", lambda lib, x: x.hardshrink(), unary_samples, covers=("hardshrink", "hardshrink_backward")),
    # gated linear unit
    Entry("glu", lambda lib, x, dim: F(lib).glu(x, dim), glu_samples, covers=("glu", "cat_halves")),
    # softmax over a dim
    Entry("softmax", lambda lib, x, dim, dtype: F(lib).softmax(x, dim, dtype=None if dtype is None else
                                                               getattr(lib, dtype)),
          softmax_samples, covers=("softmax", "softmax_backward")),
    Entry("log_softmax", lambda lib, x, dim, dtype: F(lib).log_softmax(x, dim=dim, dtype=None if dtype is None
                                                                       else getattr(lib, dtype)),
          softmax_samples, covers=("log_softmax", "log_softmax_backward")),
    Entry("softmin", lambda lib, x, dim, dtype: F(lib).softmin(x, dim, dtype=None if dtype is None else
                                                               getattr(lib, dtype)),
          softmax_samples, covers=("softmax", "softmax_backward")),
    Entry("torch_softmax", lambda lib, x, dim, dtype: lib.softmax(x, dim), softmax_samples, covers=("softmax",)),
    Entry("softmax_method", lambda lib, x, dim, dtype: x.log_softmax(dim) + x.softmax(dim=dim), softmax_samples,
          covers=("softmax", "log_softmax")),
    # linear maps
    Entry("linear", lambda lib, x, w, b: F(lib).linear(x, w, b), linear_samples, covers=("addmm",),
          tol=LOOSE_TOL),
    Entry("bilinear", lambda lib, x1, x2, w, b: F(lib).bilinear(x1, x2, w, b), bilinear_samples,
          covers=("trilinear",), tol=LOOSE_TOL),
    # embeddings
    Entry("embedding", lambda lib, i, w, pad, max_norm, freq: F(lib).embedding(i, w, padding_idx=pad,
                                                                            scale_grad_by_freq=freq),
          embedding_samples, covers=("embedding", "embedding_backward")),
    Entry("embedding_max_norm", lambda lib, i, w, max_norm, p: (F(lib).embedding(i, w, max_norm=max_norm,
                                                                                 norm_type=p), w.detach() * 1),
          embedding_renorm_samples, covers=("embedding",)),
    Entry("one_hot", lambda lib, x, n: F(lib).one_hot(x, n), one_hot_samples, covers=(), dtypes=("int64",)),
    # dropout: the deterministic cases
    Entry("dropout", lambda lib, x, p, training: F(lib).dropout(x, p, training), dropout_samples, covers=()),
    Entry("dropout_inplace", lambda lib, x, p, training: F(lib).dropout(x * 1, p, training, inplace=True),
          dropout_samples, covers=()),
    Entry("torch_dropout", lambda lib, x, p, training: lib.dropout(x, p, training), dropout_samples, covers=()),
    Entry("alpha_dropout", lambda lib, x, p, training: F(lib).alpha_dropout(x, p, training), dropout_samples,
          covers=()),
    Entry("feature_alpha_dropout", lambda lib, x, p, training: F(lib).feature_alpha_dropout(x, p, training),
          feature_dropout_samples, covers=()),
    Entry("dropout1d", lambda lib, x, p, training: F(lib).dropout1d(x, p, training), feature_dropout_samples,
          covers=()),
    Entry("dropout3d", lambda lib, x, p, training: F(lib).dropout3d(x.unsqueeze(-1), p, training),
          feature_dropout_samples, covers=()),
    # attention
    Entry("scaled_dot_product_attention",
          lambda lib, q, k, v, mask, causal, scale: F(lib).scaled_dot_product_attention(
              q, k, v, attn_mask=mask, is_causal=causal, scale=scale),
          attention_samples, covers=("safe_softmax", "softmax_backward"), tol=LOOSE_TOL),
    # PyTorch's fused kernel has no double backward
    Entry("scaled_dot_product_attention_fused",
          lambda lib, q, k, v, mask, causal, scale: F(lib).scaled_dot_product_attention(
              q, k, v, attn_mask=mask, is_causal=causal, scale=scale),
          fused_attention_samples, covers=("sdpa_flash",), tol=LOOSE_TOL, second_order=False),
    # normalization
    Entry("layer_norm", lambda lib, x, shape, w, b, eps: F(lib).layer_norm(x, shape, w, b, eps=eps),
          layer_norm_samples, covers=("native_layer_norm",), tol=LOOSE_TOL),
    Entry("batch_norm", lambda lib, x, mean, var, w, b, training, momentum, eps: F(lib).batch_norm(
        x, mean, var, w, b, training=training, momentum=momentum, eps=eps),
        batch_norm_samples, covers=("native_batch_norm",), tol=LOOSE_TOL),
    Entry("batch_norm_running_stats", lambda lib, x, mean, var, w, b, training, momentum, eps: (
        F(lib).batch_norm(x, mean, var, w, b, training, momentum, eps), mean, var),
        running_stats_samples, covers=("native_batch_norm",), tol=LOOSE_TOL),
    Entry("group_norm", lambda lib, x, groups, w, b, eps: F(lib).group_norm(x, groups, w, b, eps),
          group_norm_samples, covers=("native_group_norm",), tol=LOOSE_TOL),
    Entry("instance_norm", lambda lib, x, mean, var, w, b, use_stats, momentum, eps: (
        F(lib).instance_norm(x, mean, var, w, b, use_input_stats=use_stats, momentum=momentum, eps=eps),
        mean, var) if mean is not None else F(lib).instance_norm(x, weight=w, bias=b, eps=eps),
        instance_norm_samples, covers=("native_batch_norm",), tol=LOOSE_TOL),
    Entry("local_response_norm", lambda lib, x, size, alpha, beta, k: F(lib).local_response_norm(
        x, size, alpha=alpha, beta=beta, k=k), lrn_samples, covers=(), tol=LOOSE_TOL),
    Entry("normalize", lambda lib, x, p, dim, eps: F(lib).normalize(x, p, dim, eps=eps), normalize_samples,
          covers=()),
    Entry("cosine_similarity", lambda lib, a, b, dim, eps: F(lib).cosine_similarity(a, b, dim=dim, eps=eps),
          cosine_samples, covers=()),
    Entry("pairwise_distance", lambda lib, a, b, p, eps, keepdim: F(lib).pairwise_distance(
        a, b, p=p, eps=eps, keepdim=keepdim), pairwise_samples, covers=("norm_scalaropt_dim",)),
]


# --- error cases: PyTorch's exception types and messages --------------------------------------------


def _m(*shape, dtype="float32"):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


def _i(*values):
    return np.array(values, dtype=np.int64)


ERRORS = [
    # activations
    ErrorCase("hardtanh_bounds", lambda lib, x: F(lib).hardtanh(x, 1.0, -1.0), (_m(3),)),
    ErrorCase("hardtanh_bool", lambda lib, x: F(lib).relu6(x), (_m(3).astype(bool),)),
    ErrorCase("leaky_relu_int", lambda lib, x: F(lib).leaky_relu(x), (_m(3, dtype="int64"),)),
    ErrorCase("elu_int", lambda lib, x: F(lib).elu(x), (_m(3, dtype="int64"),)),
    ErrorCase("selu_bool", lambda lib, x: F(lib).selu(x), (_m(3).astype(bool),)),
    ErrorCase("celu_alpha_zero", lambda lib, x: F(lib).celu(x, 0.0), (_m(3),)),
    ErrorCase("gelu_approximate", lambda lib, x: F(lib).gelu(x, approximate="fast"), (_m(3),)),
    ErrorCase("gelu_int", lambda lib, x: F(lib).gelu(x), (_m(3, dtype="int64"),)),
    ErrorCase("silu_int", lambda lib, x: F(lib).silu(x), (_m(3, dtype="int64"),)),
    ErrorCase("mish_int", lambda lib, x: F(lib).mish(x), (_m(3, dtype="int64"),)),
    ErrorCase("softplus_int", lambda lib, x: F(lib).softplus(x), (_m(3, dtype="int64"),)),
    ErrorCase("softshrink_negative", lambda lib, x: F(lib).softshrink(x, -1.0), (_m(3),)),
    ErrorCase("softshrink_negative_f64", lambda lib, x: F(lib).softshrink(x, -0.5), (_m(3, dtype="float64"),)),
    ErrorCase("hardshrink_int", lambda lib, x: F(lib).hardshrink(x), (_m(3, dtype="int64"),)),
    ErrorCase("hardsigmoid_int", lambda lib, x: F(lib).hardsigmoid(x), (_m(3, dtype="int64"),)),
    ErrorCase("hardswish_bool", lambda lib, x: F(lib).hardswish(x), (_m(3).astype(bool),)),
    ErrorCase("logsigmoid_int", lambda lib, x: F(lib).logsigmoid(x), (_m(3, dtype="int64"),)),
    ErrorCase("threshold_bool", lambda lib, x: F(lib).threshold(x, 0.5, 1.0), (_m(3).astype(bool),)),
    ErrorCase("rrelu_bounds", lambda lib, x: F(lib).rrelu(x, 0.5, 0.1), (_m(3),)),
    ErrorCase("rrelu_int", lambda lib, x: F(lib).rrelu(x), (_m(3, dtype="int64"),)),
    ErrorCase("inplace_leaf", lambda lib, x: F(lib).elu(x.requires_grad_(), inplace=True), (_m(3),)),
    ErrorCase("prelu_channels", lambda lib, x, w: F(lib).prelu(x, w), (_m(2, 3), _m(2))),
    ErrorCase("prelu_vector_channels", lambda lib, x, w: F(lib).prelu(x, w), (_m(3), _m(3))),
    ErrorCase("prelu_weight_2d", lambda lib, x, w: F(lib).prelu(x, w), (_m(2, 3), _m(1, 3))),
    ErrorCase("prelu_dtype", lambda lib, x, w: F(lib).prelu(x, w), (_m(2, 3), _m(3, dtype="float64"))),
    ErrorCase("prelu_int", lambda lib, x, w: F(lib).prelu(x, w), (_m(2, 3, dtype="int64"), _m(3, dtype="int64"))),
    ErrorCase("glu_odd", lambda lib, x: F(lib).glu(x, 1), (_m(2, 3),)),
    ErrorCase("glu_scalar", lambda lib, x: F(lib).glu(x), (_m(),)),
    ErrorCase("glu_dim", lambda lib, x: F(lib).glu(x, 2), (_m(2, 4),)),
    ErrorCase("glu_int", lambda lib, x: F(lib).glu(x), (_m(2, 4, dtype="int64"),)),
    ErrorCase("softmax_dim", lambda lib, x: F(lib).softmax(x, 2), (_m(2, 3),)),
    ErrorCase("softmax_int", lambda lib, x: F(lib).softmax(x, 0), (_m(3, dtype="int64"),)),
    ErrorCase("softmax_to_int", lambda lib, x: F(lib).softmax(x, 0, dtype=lib.int64), (_m(3),)),
    ErrorCase("log_softmax_bool", lambda lib, x: F(lib).log_softmax(x, 0), (_m(3).astype(bool),)),
    ErrorCase("softmin_bool", lambda lib, x: F(lib).softmin(x, 0), (_m(3).astype(bool),)),
    ErrorCase("torch_softmax_dim", lambda lib, x: lib.softmax(x, -3), (_m(2, 3),)),
    # linear maps
    ErrorCase("linear_shapes", lambda lib, x, w: F(lib).linear(x, w), (_m(3, 4), _m(5, 3))),
    ErrorCase("linear_bias_shape", lambda lib, x, w, b: F(lib).linear(x, w, b), (_m(3, 4), _m(5, 4), _m(4))),
    ErrorCase("linear_0d", lambda lib, x, w: F(lib).linear(x, w), (_m(), _m(5, 4))),
    ErrorCase("linear_batched_shapes", lambda lib, x, w, b: F(lib).linear(x, w, b), (_m(2, 2, 4), _m(5, 3), _m(5))),
    ErrorCase("linear_vector_shapes", lambda lib, x, w, b: F(lib).linear(x, w, b), (_m(4), _m(5, 3), _m(5))),
    ErrorCase("linear_weight_dtype", lambda lib, x, w, b: F(lib).linear(x, w, b),
              (_m(2, 4), _m(5, 4, dtype="float64"), _m(5))),
    ErrorCase("linear_bias_dtype", lambda lib, x, w, b: F(lib).linear(x, w, b),
              (_m(2, 4), _m(5, 4), _m(5, dtype="float64"))),
    ErrorCase("linear_input_dtype", lambda lib, x, w, b: F(lib).linear(x, w, b),
              (_m(2, 4, dtype="float64"), _m(5, 4), _m(5))),
    ErrorCase("bilinear_batch", lambda lib, a, b, w: F(lib).bilinear(a, b, w), (_m(2, 4), _m(3, 3), _m(5, 4, 3))),
    ErrorCase("bilinear_input2", lambda lib, a, b, w: F(lib).bilinear(a, b, w), (_m(2, 4), _m(2, 2), _m(5, 4, 3))),
    ErrorCase("bilinear_input1", lambda lib, a, b, w: F(lib).bilinear(a, b, w), (_m(2, 3), _m(2, 3), _m(5, 4, 3))),
    ErrorCase("bilinear_bias", lambda lib, a, b, w, c: F(lib).bilinear(a, b, w, c),
              (_m(2, 4), _m(2, 3), _m(5, 4, 3), _m(4))),
    ErrorCase("bilinear_dims", lambda lib, a, b, w: F(lib).bilinear(a, b, w), (_m(2, 4), _m(3), _m(5, 4, 3))),
    ErrorCase("bilinear_scalar", lambda lib, a, b, w: F(lib).bilinear(a, b, w), (_m(), _m(), _m(5, 1, 1))),
    # embeddings
    ErrorCase("embedding_float_indices", lambda lib, i, w: F(lib).embedding(i, w), (_m(2), _m(5, 3))),
    ErrorCase("embedding_out_of_range", lambda lib, i, w: F(lib).embedding(i, w), (_i(1, 5), _m(5, 3))),
    ErrorCase("embedding_negative", lambda lib, i, w: F(lib).embedding(i, w), (_i(1, -1), _m(5, 3))),
    ErrorCase("embedding_weight_1d", lambda lib, i, w: F(lib).embedding(i, w), (_i(1, 2), _m(5))),
    ErrorCase("embedding_padding", lambda lib, i, w: F(lib).embedding(i, w, padding_idx=5), (_i(1), _m(5, 3))),
    ErrorCase("embedding_padding_negative", lambda lib, i, w: F(lib).embedding(i, w, padding_idx=-6),
              (_i(1), _m(5, 3))),
    ErrorCase("one_hot_float", lambda lib, x: F(lib).one_hot(x), (_m(3),)),
    ErrorCase("one_hot_int32", lambda lib, x: F(lib).one_hot(x), (_m(3, dtype="int32"),)),
    ErrorCase("one_hot_negative", lambda lib, x: F(lib).one_hot(x), (_i(1, -2),)),
    ErrorCase("one_hot_too_large", lambda lib, x: F(lib).one_hot(x, 3), (_i(1, 5),)),
    ErrorCase("one_hot_empty", lambda lib, x: F(lib).one_hot(x), (_i(),)),
    # dropout
    ErrorCase("dropout_p", lambda lib, x: F(lib).dropout(x, 1.5), (_m(3),)),
    ErrorCase("dropout_p_negative", lambda lib, x: F(lib).alpha_dropout(x, -0.1), (_m(3),)),
    ErrorCase("torch_dropout_p", lambda lib, x: lib.dropout(x, 2.0, True), (_m(3),)),
    ErrorCase("torch_dropout_p_fraction", lambda lib, x: lib.dropout(x, 1.5, False), (_m(3),)),
    ErrorCase("dropout1d_dims", lambda lib, x: F(lib).dropout1d(x), (_m(3),)),
    ErrorCase("feature_dropout_1d", lambda lib, x: F(lib).feature_alpha_dropout(x, 0.5, True), (_m(3),)),
    # attention
    ErrorCase("sdpa_dtype", lambda lib, q, k, v: F(lib).scaled_dot_product_attention(q, k, v),
              (_m(2, 3, 4), _m(2, 3, 4, dtype="float64"), _m(2, 3, 4))),
    ErrorCase("sdpa_1d", lambda lib, q, k, v: F(lib).scaled_dot_product_attention(q, k, v), (_m(4), _m(4), _m(4))),
    ErrorCase("sdpa_mask_dtype", lambda lib, q, k, v, m: F(lib).scaled_dot_product_attention(q, k, v, m),
              (_m(2, 3, 4), _m(2, 3, 4), _m(2, 3, 4), _m(3, 3, dtype="int64"))),
    ErrorCase("sdpa_mask_double", lambda lib, q, k, v, m: F(lib).scaled_dot_product_attention(q, k, v, m),
              (_m(2, 3, 4), _m(2, 3, 4), _m(2, 3, 4), _m(3, 3, dtype="float64"))),
    ErrorCase("sdpa_causal_mask", lambda lib, q, k, v, m: F(lib).scaled_dot_product_attention(
        q, k, v, m, is_causal=True), (_m(2, 3, 4), _m(2, 3, 4), _m(2, 3, 4), _m(3, 3).astype(bool))),
    ErrorCase("sdpa_key_dim", lambda lib, q, k, v: F(lib).scaled_dot_product_attention(q, k, v),
              (_m(2, 3, 4), _m(2, 3, 3), _m(2, 3, 4))),
    ErrorCase("sdpa_mask_shape", lambda lib, q, k, v, m: F(lib).scaled_dot_product_attention(q, k, v, m),
              (_m(2, 3, 4), _m(2, 3, 4), _m(2, 3, 4), _m(4, 3))),
    # normalization
    ErrorCase("layer_norm_shape", lambda lib, x: F(lib).layer_norm(x, (5,)), (_m(2, 3, 4),)),
    ErrorCase("layer_norm_shape_two", lambda lib, x: F(lib).layer_norm(x, (2, 4)), (_m(2, 3, 4),)),
    ErrorCase("layer_norm_too_many", lambda lib, x: F(lib).layer_norm(x, (1, 2, 3, 4)), (_m(2, 3, 4),)),
    ErrorCase("layer_norm_weight", lambda lib, x, w: F(lib).layer_norm(x, (4,), w), (_m(2, 4), _m(3))),
    ErrorCase("layer_norm_bias", lambda lib, x, b: F(lib).layer_norm(x, (4,), None, b), (_m(2, 4), _m(3))),
    ErrorCase("layer_norm_empty_shape", lambda lib, x: F(lib).layer_norm(x, ()), (_m(2, 4),)),
    ErrorCase("layer_norm_int_shape", lambda lib, x: F(lib).layer_norm(x, 4), (_m(2, 4),)),
    ErrorCase("layer_norm_int", lambda lib, x: F(lib).layer_norm(x, (4,)), (_m(2, 4, dtype="int64"),)),
    ErrorCase("layer_norm_weight_dtype", lambda lib, x, w: F(lib).layer_norm(x, (4,), w),
              (_m(2, 4), _m(4, dtype="float64"))),
    ErrorCase("batch_norm_eval_no_stats", lambda lib, x: F(lib).batch_norm(x, None, None), (_m(2, 3),)),
    ErrorCase("batch_norm_one_value", lambda lib, x: F(lib).batch_norm(x, None, None, training=True), (_m(1, 3),)),
    ErrorCase("batch_norm_running_mean", lambda lib, x, m, v: F(lib).batch_norm(x, m, v, training=True),
              (_m(2, 3), _m(4), _m(3))),
    ErrorCase("batch_norm_running_var", lambda lib, x, m, v: F(lib).batch_norm(x, m, v), (_m(2, 3), _m(3), _m(4))),
    ErrorCase("batch_norm_weight", lambda lib, x, m, v, w: F(lib).batch_norm(x, m, v, w),
              (_m(2, 3), _m(3), _m(3), _m(4))),
    ErrorCase("batch_norm_eps", lambda lib, x: F(lib).batch_norm(x, None, None, training=True, eps=0.0), (_m(2, 3),)),
    ErrorCase("batch_norm_one_stat", lambda lib, x, v: F(lib).batch_norm(x, None, v, training=True),
              (_m(2, 3), _m(3))),
    ErrorCase("batch_norm_int", lambda lib, x: F(lib).batch_norm(x, None, None, training=True),
              (_m(2, 3, dtype="int64"),)),
    ErrorCase("batch_norm_stats_dtype", lambda lib, x, m, v: F(lib).batch_norm(x, m, v, training=True),
              (_m(2, 3), _m(3, dtype="float64"), _m(3, dtype="float64"))),
    ErrorCase("group_norm_groups", lambda lib, x: F(lib).group_norm(x, 2), (_m(2, 3, 4),)),
    ErrorCase("group_norm_1d", lambda lib, x: F(lib).group_norm(x, 1), (_m(3),)),
    ErrorCase("group_norm_weight", lambda lib, x, w: F(lib).group_norm(x, 3, w), (_m(2, 3, 4), _m(4))),
    ErrorCase("group_norm_one_value", lambda lib, x: F(lib).group_norm(x, 3), (_m(1, 3),)),
    ErrorCase("group_norm_int", lambda lib, x: F(lib).group_norm(x, 1), (_m(2, 3, dtype="int64"),)),
    ErrorCase("instance_norm_spatial", lambda lib, x: F(lib).instance_norm(x), (_m(2, 3, 1),)),
    ErrorCase("instance_norm_2d", lambda lib, x: F(lib).instance_norm(x), (_m(2, 3),)),
    ErrorCase("instance_norm_no_stats", lambda lib, x: F(lib).instance_norm(x, use_input_stats=False),
              (_m(2, 3, 4),)),
    ErrorCase("lrn_2d", lambda lib, x: F(lib).local_response_norm(x, 2), (_m(2, 3),)),
    ErrorCase("normalize_dim", lambda lib, x: F(lib).normalize(x, dim=3), (_m(2, 3),)),
    ErrorCase("normalize_int", lambda lib, x: F(lib).normalize(x), (_m(2, 3, dtype="int64"),)),
    ErrorCase("cosine_dim", lambda lib, a, b: F(lib).cosine_similarity(a, b, dim=2), (_m(2, 3), _m(2, 3))),
    ErrorCase("cosine_broadcast", lambda lib, a, b: F(lib).cosine_similarity(a, b), (_m(2, 3), _m(4))),
    ErrorCase("cosine_int", lambda lib, a, b: F(lib).cosine_similarity(a, b),
              (_m(2, 3, dtype="int64"), _m(2, 3, dtype="int64"))),
    ErrorCase("pairwise_broadcast", lambda lib, a, b: F(lib).pairwise_distance(a, b), (_m(2, 3), _m(4))),
]

# (check, entry or error case, samples) -> the bug; see test_ops.KNOWN_BUGS
KNOWN_BUGS = {
}

