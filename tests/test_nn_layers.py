"""Every nn layer against PyTorch, driven by one table.

Each ``Case`` builds the same layer on both libraries (``make(nn)``), copies torch's
parameters and buffers into chainrule's through ``load_state_dict``, feeds both the same
inputs and output gradient, and compares: the printed module, the outputs, the gradients of
the inputs and of every parameter, and the buffers afterwards (running statistics). Each case
runs in float64 (rtol 1e-10) and float32, in train and eval mode.

Inputs are given by kind: a shape is a random float input that requires grad; ``Const``
(no grad) floats, ``Prob`` values in (0, 1), ``Pos`` positive values, ``Int`` random class
indices, ``Fixed`` an exact array.
"""
from dataclasses import dataclass, field

import numpy as np
import pytest

import chainrule

from helpers import require_torch, to_numpy


@dataclass
class Const:
    shape: tuple
    low: float = -2.0
    high: float = 2.0
    grad: bool = False


def Prob(*shape, grad=False):
    return Const(shape, 0.05, 0.95, grad)


def Pos(*shape, grad=False):
    return Const(shape, 0.2, 2.0, grad)


@dataclass
class Int:
    high: int
    shape: tuple


@dataclass
class Fixed:
    values: object
    dtype: str = "int64"  # "float": the case's float dtype
    grad: bool = False


@dataclass
class Case:
    name: str
    make: object  # nn -> module (nn is chainrule.nn or torch.nn)
    inputs: list
    modes: tuple = ("train", "eval")
    kwargs: dict = field(default_factory=dict)  # extra forward keyword arguments, same on both sides


def _log_probs(t, n, c, seed=3):
    x = np.random.default_rng(seed).standard_normal((t, n, c))
    return Fixed(x - np.log(np.exp(x).sum(-1, keepdims=True)), "float", grad=True)


CASES = [
    # --- linear and shape ---
    Case("Identity", lambda nn: nn.Identity(3, unused=True), [(2, 3)]),
    Case("Linear", lambda nn: nn.Linear(3, 4), [(5, 3)]),
    Case("Linear-unbatched-nobias", lambda nn: nn.Linear(3, 2, bias=False), [(3,)]),
    Case("Linear-3d", lambda nn: nn.Linear(3, 2), [(2, 4, 3)]),
    Case("Bilinear", lambda nn: nn.Bilinear(3, 2, 4), [(5, 3), (5, 2)]),
    Case("Flatten", lambda nn: nn.Flatten(), [(2, 3, 4)]),
    Case("Unflatten", lambda nn: nn.Unflatten(1, (2, 3)), [(4, 6)]),
    # --- convolutions ---
    Case("Conv1d", lambda nn: nn.Conv1d(4, 6, 3, stride=2, padding=1, groups=2), [(2, 4, 9)]),
    Case("Conv1d-unbatched-same", lambda nn: nn.Conv1d(2, 3, 4, padding="same", dilation=2), [(2, 10)]),
    Case("Conv1d-circular", lambda nn: nn.Conv1d(2, 2, 3, padding=2, padding_mode="circular"), [(1, 2, 7)]),
    Case("Conv2d", lambda nn: nn.Conv2d(3, 4, (3, 2), stride=(2, 1), padding=(1, 0), bias=False), [(2, 3, 7, 6)]),
    Case("Conv2d-reflect", lambda nn: nn.Conv2d(2, 3, 3, padding=1, padding_mode="reflect"), [(1, 2, 5, 5)]),
    Case("Conv2d-replicate-same", lambda nn: nn.Conv2d(2, 2, (3, 4), padding="same", padding_mode="replicate"),
         [(2, 6, 6)]),
    Case("Conv2d-valid-dilated", lambda nn: nn.Conv2d(2, 4, 2, padding="valid", dilation=2, groups=2), [(1, 2, 6, 5)]),
    Case("Conv3d", lambda nn: nn.Conv3d(2, 3, 2, stride=(1, 2, 1)), [(1, 2, 4, 5, 3)]),
    Case("ConvTranspose1d", lambda nn: nn.ConvTranspose1d(4, 2, 3, stride=2, padding=1, output_padding=1, groups=2),
         [(2, 4, 5)]),
    Case("ConvTranspose2d", lambda nn: nn.ConvTranspose2d(3, 2, (3, 2), stride=2, dilation=(1, 2)), [(1, 3, 4, 3)]),
    Case("ConvTranspose2d-output_size", lambda nn: nn.ConvTranspose2d(2, 2, 3, stride=2, padding=1), [(1, 2, 3, 3)],
         kwargs={"output_size": [6, 6]}),
    Case("ConvTranspose2d-unbatched", lambda nn: nn.ConvTranspose2d(2, 3, 2), [(2, 3, 3)]),
    Case("ConvTranspose3d", lambda nn: nn.ConvTranspose3d(2, 2, (2, 1, 2), stride=(1, 2, 1)), [(1, 2, 2, 2, 3)]),
    # --- pooling ---
    Case("MaxPool1d", lambda nn: nn.MaxPool1d(3, stride=2, padding=1, ceil_mode=True), [(2, 3, 8)]),
    Case("MaxPool1d-indices", lambda nn: nn.MaxPool1d(2, return_indices=True), [(2, 7)]),
    Case("MaxPool2d", lambda nn: nn.MaxPool2d(2), [(2, 3, 6, 5)]),
    Case("MaxPool2d-dilated-indices", lambda nn: nn.MaxPool2d((3, 2), stride=1, dilation=(1, 2), return_indices=True),
         [(1, 2, 5, 6)]),
    Case("AvgPool1d", lambda nn: nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False), [(2, 3, 8)]),
    Case("AvgPool2d", lambda nn: nn.AvgPool2d((2, 3), ceil_mode=True), [(2, 2, 5, 7)]),
    Case("AvgPool2d-divisor", lambda nn: nn.AvgPool2d(2, padding=1, divisor_override=3), [(1, 4, 4)]),
    Case("LPPool2d", lambda nn: nn.LPPool2d(2, 2), [(1, 2, 4, 4)]),
    Case("LPPool1d", lambda nn: nn.LPPool1d(3, 2, stride=1), [Pos(2, 3, 5, grad=True)]),
    Case("AdaptiveAvgPool1d", lambda nn: nn.AdaptiveAvgPool1d(3), [(2, 3, 7)]),
    Case("AdaptiveAvgPool2d", lambda nn: nn.AdaptiveAvgPool2d((2, None)), [(2, 3, 5, 4)]),
    Case("AdaptiveMaxPool1d", lambda nn: nn.AdaptiveMaxPool1d(4, return_indices=True), [(2, 9)]),
    Case("AdaptiveMaxPool2d", lambda nn: nn.AdaptiveMaxPool2d(2), [(1, 2, 5, 5)]),
    # --- padding, resampling, folding ---
    Case("ZeroPad2d", lambda nn: nn.ZeroPad2d((1, 0, 2, 1)), [(1, 2, 3, 3)]),
    Case("ZeroPad1d", lambda nn: nn.ZeroPad1d(2), [(2, 3)]),
    Case("ConstantPad1d", lambda nn: nn.ConstantPad1d((2, 1), 3.5), [(2, 2, 4)]),
    Case("ConstantPad3d", lambda nn: nn.ConstantPad3d(1, -1.0), [(1, 2, 2, 2)]),
    Case("ReflectionPad1d", lambda nn: nn.ReflectionPad1d((2, 1)), [(2, 3, 5)]),
    Case("ReflectionPad2d", lambda nn: nn.ReflectionPad2d(1), [(1, 2, 4, 4)]),
    Case("ReplicationPad1d", lambda nn: nn.ReplicationPad1d(2), [(2, 3, 4)]),
    Case("ReplicationPad2d", lambda nn: nn.ReplicationPad2d((1, 2, 0, 1)), [(2, 3, 3)]),
    Case("CircularPad1d", lambda nn: nn.CircularPad1d(2), [(2, 3, 4)]),
    Case("CircularPad2d", lambda nn: nn.CircularPad2d((1, 1, 2, 0)), [(1, 2, 3, 4)]),
    Case("CircularPad3d", lambda nn: nn.CircularPad3d(1), [(1, 2, 2, 3)]),
    Case("ReflectionPad3d", lambda nn: nn.ReflectionPad3d((1, 0, 1, 1, 0, 1)), [(1, 1, 3, 3, 2)]),
    Case("ReplicationPad3d", lambda nn: nn.ReplicationPad3d(1), [(1, 2, 2, 2)]),
    Case("ZeroPad3d", lambda nn: nn.ZeroPad3d((0, 1, 1, 0, 2, 1)), [(1, 1, 2, 2, 2)]),
    Case("ConstantPad2d", lambda nn: nn.ConstantPad2d((0, 1, 1, 0), 2.0), [(2, 2, 3)]),
    Case("Upsample-nearest", lambda nn: nn.Upsample(scale_factor=2), [(1, 2, 3, 3)]),
    Case("Upsample-bilinear", lambda nn: nn.Upsample(size=(5, 4), mode="bilinear", align_corners=False),
         [(2, 1, 3, 3)]),
    Case("Upsample-linear", lambda nn: nn.Upsample(scale_factor=1.5, mode="linear", align_corners=True), [(1, 2, 4)]),
    Case("UpsamplingBilinear2d", lambda nn: nn.UpsamplingBilinear2d(scale_factor=2), [(1, 1, 2, 3)]),
    Case("UpsamplingNearest2d", lambda nn: nn.UpsamplingNearest2d(size=5), [(1, 1, 2, 3)]),
    Case("PixelShuffle", lambda nn: nn.PixelShuffle(2), [(2, 8, 2, 3)]),
    Case("PixelUnshuffle", lambda nn: nn.PixelUnshuffle(2), [(1, 2, 4, 6)]),
    Case("Fold", lambda nn: nn.Fold((4, 5), (2, 3)), [(2, 12, 9)]),
    Case("Unfold", lambda nn: nn.Unfold((2, 2), padding=1, stride=2), [(2, 3, 4, 4)]),
    Case("CosineSimilarity", lambda nn: nn.CosineSimilarity(dim=1), [(4, 5), (4, 5)]),
    Case("PairwiseDistance", lambda nn: nn.PairwiseDistance(p=1.5, keepdim=True), [(4, 5), (4, 5)]),
    # --- normalization ---
    Case("BatchNorm1d", lambda nn: nn.BatchNorm1d(3), [(6, 3)]),
    Case("BatchNorm1d-3d-cumulative", lambda nn: nn.BatchNorm1d(3, momentum=None), [(4, 3, 5)]),
    Case("BatchNorm1d-no-stats", lambda nn: nn.BatchNorm1d(2, track_running_stats=False, affine=False), [(5, 2)]),
    Case("BatchNorm2d", lambda nn: nn.BatchNorm2d(3, eps=1e-3, momentum=0.3), [(2, 3, 4, 4)]),
    Case("BatchNorm2d-nobias", lambda nn: nn.BatchNorm2d(2, bias=False), [(3, 2, 2, 3)]),
    Case("BatchNorm3d", lambda nn: nn.BatchNorm3d(2), [(2, 2, 2, 3, 2)]),
    Case("InstanceNorm1d", lambda nn: nn.InstanceNorm1d(3), [(2, 3, 6)]),
    Case("InstanceNorm1d-unbatched-affine-stats", lambda nn: nn.InstanceNorm1d(3, affine=True,
                                                                               track_running_stats=True), [(3, 5)]),
    Case("InstanceNorm2d", lambda nn: nn.InstanceNorm2d(2, affine=True), [(2, 2, 3, 4)]),
    Case("InstanceNorm3d", lambda nn: nn.InstanceNorm3d(2, track_running_stats=True), [(2, 2, 2, 3, 2)]),
    Case("LayerNorm", lambda nn: nn.LayerNorm(4), [(3, 4)]),
    Case("LayerNorm-2d-nobias", lambda nn: nn.LayerNorm((3, 4), eps=1e-3, bias=False), [(2, 3, 4)]),
    Case("LayerNorm-noaffine", lambda nn: nn.LayerNorm([4], elementwise_affine=False), [(2, 4)]),
    Case("GroupNorm", lambda nn: nn.GroupNorm(2, 4), [(3, 4, 5)]),
    Case("GroupNorm-noaffine", lambda nn: nn.GroupNorm(1, 3, affine=False), [(2, 3, 2, 2)]),
    Case("RMSNorm", lambda nn: nn.RMSNorm(4), [(3, 4)]),
    Case("RMSNorm-eps-2d", lambda nn: nn.RMSNorm([2, 3], eps=1e-4), [(2, 2, 3)]),
    Case("LocalResponseNorm", lambda nn: nn.LocalResponseNorm(3, alpha=0.1), [(2, 5, 4)]),
    # --- dropout (random in training: compared in eval here, by their statistics elsewhere) ---
    Case("Dropout", lambda nn: nn.Dropout(0.3), [(4, 5)], modes=("eval",)),
    Case("Dropout1d", lambda nn: nn.Dropout1d(), [(2, 3, 4)], modes=("eval",)),
    Case("Dropout2d", lambda nn: nn.Dropout2d(0.2, inplace=False), [(2, 3, 4, 4)], modes=("eval",)),
    Case("Dropout3d", lambda nn: nn.Dropout3d(), [(2, 3, 2, 2, 2)], modes=("eval",)),
    Case("AlphaDropout", lambda nn: nn.AlphaDropout(0.2), [(4, 5)], modes=("eval",)),
    Case("FeatureAlphaDropout", lambda nn: nn.FeatureAlphaDropout(0.2), [(2, 3, 4)], modes=("eval",)),
    Case("Dropout-p0", lambda nn: nn.Dropout(0.0), [(4, 5)]),
    # --- embeddings ---
    Case("Embedding", lambda nn: nn.Embedding(10, 3), [Int(10, (2, 4))]),
    Case("Embedding-padding", lambda nn: nn.Embedding(6, 3, padding_idx=-2), [Fixed([[1, 4, 4], [0, 2, 5]])]),
    Case("Embedding-max_norm", lambda nn: nn.Embedding(6, 4, max_norm=1.0), [Fixed([1, 3, 3, 5])]),
    Case("EmbeddingBag-mean", lambda nn: nn.EmbeddingBag(10, 3), [Fixed([1, 2, 4, 5, 4, 3, 2, 9]), Fixed([0, 4])]),
    Case("EmbeddingBag-sum-2d", lambda nn: nn.EmbeddingBag(10, 3, mode="sum"), [Int(10, (3, 4))]),
    Case("EmbeddingBag-max-padding", lambda nn: nn.EmbeddingBag(10, 2, mode="max", padding_idx=2),
         [Fixed([1, 2, 4, 5, 2, 3, 2, 9]), Fixed([0, 3, 3, 6])]),
    Case("EmbeddingBag-weights", lambda nn: nn.EmbeddingBag(6, 2, mode="sum", include_last_offset=True),
         [Fixed([1, 2, 4, 5, 0]), Fixed([0, 2, 5]), Const((5,))]),
    # --- activations ---
    Case("ReLU", lambda nn: nn.ReLU(), [(3, 4)]),
    Case("ReLU-inplace", lambda nn: nn.Sequential(nn.Linear(4, 4), nn.ReLU(inplace=True)), [(3, 4)]),
    Case("LeakyReLU-inplace", lambda nn: nn.Sequential(nn.Linear(4, 4), nn.LeakyReLU(inplace=True)), [(3, 4)]),
    Case("LeakyReLU", lambda nn: nn.LeakyReLU(0.2), [(3, 4)]),
    Case("PReLU", lambda nn: nn.PReLU(), [(3, 4)]),
    Case("PReLU-channels", lambda nn: nn.PReLU(3, init=0.1), [(2, 3, 4)]),
    Case("ELU", lambda nn: nn.ELU(alpha=0.5), [(3, 4)]),
    Case("SELU", lambda nn: nn.SELU(), [(3, 4)]),
    Case("CELU", lambda nn: nn.CELU(1.5), [(3, 4)]),
    Case("GELU", lambda nn: nn.GELU(), [(3, 4)]),
    Case("GELU-tanh", lambda nn: nn.GELU(approximate="tanh"), [(3, 4)]),
    Case("SiLU", lambda nn: nn.SiLU(), [(3, 4)]),
    Case("Mish", lambda nn: nn.Mish(), [(3, 4)]),
    Case("Softplus", lambda nn: nn.Softplus(beta=2, threshold=1), [(3, 4)]),
    Case("Softsign", lambda nn: nn.Softsign(), [(3, 4)]),
    Case("Tanh", lambda nn: nn.Tanh(), [(3, 4)]),
    Case("Sigmoid", lambda nn: nn.Sigmoid(), [(3, 4)]),
    Case("Hardtanh", lambda nn: nn.Hardtanh(-0.5, 1.5), [(3, 4)]),
    Case("ReLU6", lambda nn: nn.ReLU6(), [(3, 4)]),
    Case("Hardsigmoid", lambda nn: nn.Hardsigmoid(), [(3, 4)]),
    Case("Hardswish", lambda nn: nn.Hardswish(), [(3, 4)]),
    Case("LogSigmoid", lambda nn: nn.LogSigmoid(), [(3, 4)]),
    Case("Softmax", lambda nn: nn.Softmax(dim=1), [(3, 4)]),
    Case("LogSoftmax", lambda nn: nn.LogSoftmax(dim=0), [(3, 4)]),
    Case("Softmin", lambda nn: nn.Softmin(-1), [(3, 4)]),
    Case("Softmax2d", lambda nn: nn.Softmax2d(), [(2, 3, 2, 2)]),
    Case("Threshold", lambda nn: nn.Threshold(0.1, 20), [(3, 4)]),
    Case("Hardshrink", lambda nn: nn.Hardshrink(0.3), [(3, 4)]),
    Case("Softshrink", lambda nn: nn.Softshrink(), [(3, 4)]),
    Case("Tanhshrink", lambda nn: nn.Tanhshrink(), [(3, 4)]),
    Case("GLU", lambda nn: nn.GLU(dim=0), [(4, 3)]),
    Case("RReLU", lambda nn: nn.RReLU(0.1, 0.3), [(3, 4)], modes=("eval",)),
    # --- losses ---
    Case("L1Loss", lambda nn: nn.L1Loss(), [(3, 4), Const((3, 4))]),
    Case("MSELoss", lambda nn: nn.MSELoss(reduction="sum"), [(3, 4), (3, 4)]),
    Case("CrossEntropyLoss", lambda nn: nn.CrossEntropyLoss(), [(4, 5), Int(5, (4,))]),
    Case("CrossEntropyLoss-options", lambda nn: nn.CrossEntropyLoss(weight=nn.Parameter(chainrule_or_torch(nn).tensor(
        [1.0, 2.0, 0.5, 1.0, 3.0]), requires_grad=False), ignore_index=1, label_smoothing=0.1),
        [(4, 5), Fixed([0, 1, 4, 2])]),
    Case("CrossEntropyLoss-probs-2d", lambda nn: nn.CrossEntropyLoss(reduction="none"), [(2, 3, 2, 2),
                                                                                        Prob(2, 3, 2, 2)]),
    Case("CrossEntropyLoss-unbatched", lambda nn: nn.CrossEntropyLoss(), [(5,), Fixed(3)]),
    Case("NLLLoss", lambda nn: nn.NLLLoss(reduction="sum"), [(4, 3), Int(3, (4,))]),
    Case("BCELoss", lambda nn: nn.BCELoss(), [Prob(3, 2, grad=True), Prob(3, 2)]),
    Case("BCEWithLogitsLoss", lambda nn: nn.BCEWithLogitsLoss(pos_weight=chainrule_or_torch(nn).tensor([2.0, 0.5])),
         [(3, 2), Prob(3, 2)]),
    Case("HuberLoss", lambda nn: nn.HuberLoss(delta=0.5), [(3, 4), (3, 4)]),
    Case("SmoothL1Loss", lambda nn: nn.SmoothL1Loss(beta=0.5, reduction="none"), [(3, 4), (3, 4)]),
    Case("KLDivLoss", lambda nn: nn.KLDivLoss(reduction="batchmean"), [(3, 4), Prob(3, 4)]),
    Case("KLDivLoss-log", lambda nn: nn.KLDivLoss(reduction="sum", log_target=True), [(3, 4), (3, 4)]),
    Case("PoissonNLLLoss", lambda nn: nn.PoissonNLLLoss(), [(3, 4), Pos(3, 4)]),
    Case("PoissonNLLLoss-full", lambda nn: nn.PoissonNLLLoss(log_input=False, full=True),
         [Pos(3, 4, grad=True), Pos(3, 4)]),
    Case("GaussianNLLLoss", lambda nn: nn.GaussianNLLLoss(full=True), [(3, 4), (3, 4), Pos(3, 4)]),
    Case("MarginRankingLoss", lambda nn: nn.MarginRankingLoss(margin=0.3), [(5,), (5,), Fixed([1., -1, 1, 1, -1],
                                                                                             "float")]),
    Case("HingeEmbeddingLoss", lambda nn: nn.HingeEmbeddingLoss(margin=0.5), [(2, 3), Fixed([[1., -1, 1], [-1, -1, 1]],
                                                                                         "float")]),
    Case("SoftMarginLoss", lambda nn: nn.SoftMarginLoss(), [(2, 3), Fixed([[1., -1, 1], [-1, -1, 1]], "float")]),
    Case("MultiLabelMarginLoss", lambda nn: nn.MultiLabelMarginLoss(), [(2, 4), Fixed([[3, 0, -1, 1],
                                                                                       [0, 1, 2, 3]])]),
    Case("MultiLabelSoftMarginLoss", lambda nn: nn.MultiLabelSoftMarginLoss(), [(3, 4), Fixed(
        [[1., 0, 1, 0], [0, 0, 1, 1], [1, 1, 1, 0]], "float")]),
    Case("MultiMarginLoss", lambda nn: nn.MultiMarginLoss(p=2, margin=0.7), [(4, 3), Int(3, (4,))]),
    Case("CosineEmbeddingLoss", lambda nn: nn.CosineEmbeddingLoss(margin=0.1), [(3, 4), (3, 4), Fixed([1, -1, 1])]),
    Case("TripletMarginLoss", lambda nn: nn.TripletMarginLoss(margin=0.5, p=1, swap=True), [(3, 4), (3, 4), (3, 4)]),
    Case("TripletMarginWithDistanceLoss", lambda nn: nn.TripletMarginWithDistanceLoss(swap=True),
         [(3, 4), (3, 4), (3, 4)]),
    Case("CTCLoss", lambda nn: nn.CTCLoss(), [_log_probs(6, 2, 4), Fixed([[1, 2, 2], [3, 1, 0]]), Fixed([6, 5]),
                                             Fixed([3, 2])]),
    # --- containers as layers ---
    Case("Sequential-mlp", lambda nn: nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Dropout(0.0),
                                                    nn.Linear(4, 2), nn.LogSoftmax(dim=1)), [(5, 3)]),
    Case("Sequential-cnn", lambda nn: nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.BatchNorm2d(2), nn.ReLU(),
                                                    nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8, 3)), [(2, 1, 4, 4)]),
]


# Differences in ops this file does not own (chainrule/_ops), reported; strict, so a fix shows.
KNOWN_BUGS = {
    "Hardsigmoid": "PyTorch's hardsigmoid gradient is float32 1/6 even in float64; chainrule's is exact",
}


def chainrule_or_torch(nn):
    """The library whose ``nn`` this is, for the tensors a case's constructor needs."""
    return chainrule if nn is chainrule.nn else require_torch()


def _arrays(case, dtype, seed):
    rng = np.random.default_rng(seed)
    out = []
    for spec in case.inputs:
        if isinstance(spec, tuple):
            out.append((rng.uniform(-2, 2, spec).astype(dtype), True))
        elif isinstance(spec, Const):
            out.append((rng.uniform(spec.low, spec.high, spec.shape).astype(dtype), spec.grad))
        elif isinstance(spec, Int):
            out.append((rng.integers(0, spec.high, spec.shape), False))
        else:
            out.append((np.array(spec.values, dtype=dtype if spec.dtype == "float" else spec.dtype), spec.grad))
    return out


def _run(lib, module, arrays, grad_seed, kwargs):
    inputs = []
    for values, grad in arrays:
        t = lib.from_numpy(values.copy())
        inputs.append(t.requires_grad_() if grad else t)
    out = module(*inputs, **kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    floating = [o for o in outs if o.is_floating_point()]
    rng = np.random.default_rng(grad_seed)
    grads = [lib.from_numpy(rng.standard_normal(tuple(o.shape)).astype(to_numpy(o).dtype)) for o in floating]
    lib.autograd.backward(floating, grads)
    return ([to_numpy(o) for o in outs], [to_numpy(t.grad) if t.requires_grad else None for t in inputs],
            {k: to_numpy(p.grad) for k, p in module.named_parameters()},
            {k: to_numpy(b) for k, b in module.named_buffers()})


def _compare(ours, theirs, rtol, atol):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        if isinstance(a, dict):
            assert list(a) == list(b)
            _compare(list(a.values()), list(b.values()), rtol, atol)
        elif isinstance(a, list):
            _compare(a, b, rtol, atol)
        elif a is None or b is None:
            assert a is None and b is None
        else:
            assert a.shape == b.shape and a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(reason=KNOWN_BUGS[c.name], strict=True))
                                  if c.name in KNOWN_BUGS else c for c in CASES], ids=[c.name for c in CASES])
def test_layer_matches_torch(case):
    torch = require_torch()
    for dtype, rtol, atol in (("float64", 1e-10, 1e-12), ("float32", 2e-5, 2e-6)):
        for mode in case.modes:
            theirs = case.make(torch.nn)
            ours = case.make(chainrule.nn)
            assert repr(ours) == repr(theirs)
            state = {k: chainrule.from_numpy(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()}
            ours.load_state_dict(state)
            big = getattr(torch, dtype)
            theirs.to(big)
            ours.to(getattr(chainrule, dtype))
            theirs.train(mode == "train")
            ours.train(mode == "train")
            arrays = _arrays(case, dtype, seed=len(case.name))
            got = _run(chainrule, ours, arrays, 1, case.kwargs)
            want = _run(torch, theirs, arrays, 1, case.kwargs)
            _compare(got, want, rtol, atol)


def test_every_layer_has_a_case():
    """A layer added to chainrule.nn without a row in the table fails here."""
    named = {c.name.split("-")[0] for c in CASES}
    not_layers = {"Module", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict", "Parameter", "Buffer"}
    layers = {n for n in chainrule.nn.__all__ if isinstance(getattr(chainrule.nn, n), type)} - not_layers
    # tested in test_nn_rnn.py and test_nn_transformer.py, with tables of their own
    elsewhere = {"RNN", "LSTM", "GRU", "RNNBase", "RNNCell", "RNNCellBase", "LSTMCell", "GRUCell",
                 "MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder",
                 "TransformerEncoderLayer", "TransformerDecoderLayer"}
    assert sorted(layers - named - elsewhere - {"Sequential"}) == []
