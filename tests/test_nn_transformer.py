"""MultiheadAttention and the Transformer layers against PyTorch, driven by one table.

Each ``Case`` builds the same module on both libraries, copies torch's weights into
chainrule's with ``load_state_dict``, runs both on the same inputs and masks, and compares
the printed module, the outputs (attention weights included), the gradients of the inputs
and of every parameter; in float64 (rtol 1e-10) and float32, train (dropout 0) and eval.
Further tests: default weights after ``manual_seed`` bit for bit, dropout after the same seed,
inference without gradients (where PyTorch takes its fused paths), and PyTorch's errors.

Inputs are shapes (random leaves), or an int ``i``: the same tensor as input ``i`` (so
``[(5, 2, 4), 0, 0]`` is self-attention). Masks in ``kwargs`` are built per library:
``Mask`` an exact array (bool, or float in the case's dtype), ``Causal(n)`` the
``generate_square_subsequent_mask(n)``.
"""
import warnings
from dataclasses import dataclass, field

import numpy as np
import pytest

import chainrule
import chainrule.nn as nn

from helpers import full_error_of, require_torch, to_numpy


@dataclass
class Mask:
    values: object
    kind: str = "bool"  # or "float": the case's float dtype


@dataclass
class Causal:
    size: int


@dataclass
class Case:
    name: str
    make: object  # nn -> module
    inputs: list
    kwargs: dict = field(default_factory=dict)


NEG = float("-inf")
PAD_2x5 = Mask([[False, False, False, True, True], [False, False, False, False, False]])
SCORES_4x3x5 = Mask(np.random.default_rng(0).uniform(-1, 1, (4, 3, 5)), "float")

CASES = [
    # --- MultiheadAttention ---
    Case("MHA-self", lambda nn: nn.MultiheadAttention(4, 2), [(5, 2, 4), 0, 0]),
    Case("MHA-cross", lambda nn: nn.MultiheadAttention(4, 2), [(3, 2, 4), (5, 2, 4), (5, 2, 4)]),
    Case("MHA-key-is-value", lambda nn: nn.MultiheadAttention(4, 1), [(3, 2, 4), (5, 2, 4), 1]),
    Case("MHA-batch_first-key_padding", lambda nn: nn.MultiheadAttention(4, 2, batch_first=True),
         [(2, 5, 4), 0, 0], {"key_padding_mask": PAD_2x5}),
    Case("MHA-kdim-vdim", lambda nn: nn.MultiheadAttention(4, 2, kdim=3, vdim=5),
         [(3, 2, 4), (5, 2, 3), (5, 2, 5)], {"average_attn_weights": False}),
    Case("MHA-bias_kv-zero_attn-masks", lambda nn: nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True),
         [(3, 2, 4), (5, 2, 4), 1], {"key_padding_mask": PAD_2x5, "attn_mask": Mask(np.triu(np.ones((3, 5),
                                                                                                  bool), 2))}),
    Case("MHA-nobias-3d-float-mask", lambda nn: nn.MultiheadAttention(4, 2, bias=False), [(3, 2, 4), (5, 2, 4), 1],
         {"attn_mask": SCORES_4x3x5, "average_attn_weights": False}),
    Case("MHA-unbatched", lambda nn: nn.MultiheadAttention(4, 2), [(5, 4), 0, 0],
         {"key_padding_mask": Mask([False, True, False, False, True]),
          "attn_mask": Mask(np.random.default_rng(1).uniform(-1, 1, (2, 5, 5)), "float")}),
    Case("MHA-no-weights-float-key_padding", lambda nn: nn.MultiheadAttention(4, 2, batch_first=True),
         [(2, 3, 4), (2, 5, 4), 1], {"need_weights": False, "attn_mask": Mask(np.eye(3, 5, dtype=bool)),
                                     "key_padding_mask": Mask([[0, 0, -1.5, NEG, 0], [0, 0, 0, 0, 0]], "float")}),
    Case("MHA-causal-no-weights", lambda nn: nn.MultiheadAttention(4, 2), [(5, 2, 4), 0, 0],
         {"attn_mask": Causal(5), "is_causal": True, "need_weights": False}),
    Case("MHA-causal-weights", lambda nn: nn.MultiheadAttention(4, 2), [(5, 2, 4), 0, 0],
         {"attn_mask": Causal(5), "is_causal": True}),
    Case("MHA-masked-row-no-weights", lambda nn: nn.MultiheadAttention(4, 2), [(2, 1, 4), (3, 1, 4), 1],
         {"attn_mask": Mask([[True, True, True], [False, True, False]]), "need_weights": False}),
    # --- Transformer layers ---
    Case("TransformerEncoderLayer", lambda nn: nn.TransformerEncoderLayer(8, 2, 16, 0.0), [(5, 2, 8)]),
    Case("TransformerEncoderLayer-norm_first-gelu-masks", lambda nn: nn.TransformerEncoderLayer(
        8, 2, 16, 0.0, "gelu", batch_first=True, norm_first=True), [(2, 5, 8)],
        {"src_mask": Causal(5), "src_key_padding_mask": PAD_2x5}),
    Case("TransformerEncoderLayer-module-activation-nobias", lambda nn: nn.TransformerEncoderLayer(
        8, 4, 12, 0.0, nn.GELU(approximate="tanh"), layer_norm_eps=1e-3, bias=False), [(3, 2, 8)],
        {"is_causal": True, "src_mask": Causal(3)}),
    Case("TransformerEncoderLayer-unbatched", lambda nn: nn.TransformerEncoderLayer(8, 2, 16, 0.0), [(5, 8)]),
    Case("TransformerDecoderLayer", lambda nn: nn.TransformerDecoderLayer(8, 2, 16, 0.0), [(4, 2, 8), (5, 2, 8)],
         {"tgt_mask": Causal(4), "memory_key_padding_mask": PAD_2x5}),
    Case("TransformerDecoderLayer-norm_first-batch_first", lambda nn: nn.TransformerDecoderLayer(
        8, 2, 16, 0.0, activation=nn.functional.gelu, batch_first=True, norm_first=True), [(2, 4, 8), (2, 5, 8)],
        {"tgt_mask": Causal(4), "tgt_is_causal": True, "memory_mask": Mask(np.eye(4, 5, dtype=bool))}),
    Case("TransformerEncoder", lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0), 2,
                                                                nn.LayerNorm(8), enable_nested_tensor=False),
         [(5, 2, 8)], {"mask": Causal(5), "src_key_padding_mask": PAD_2x5}),
    Case("TransformerDecoder", lambda nn: nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16, 0.0), 2),
         [(4, 2, 8), (5, 2, 8)], {"tgt_mask": Causal(4)}),
    Case("Transformer", lambda nn: nn.Transformer(8, 2, 1, 1, 16, 0.0), [(5, 2, 8), (4, 2, 8)],
         {"tgt_mask": Causal(4), "src_key_padding_mask": PAD_2x5, "memory_key_padding_mask": PAD_2x5}),
    Case("Transformer-batch_first-norm_first", lambda nn: nn.Transformer(8, 2, 2, 1, 16, 0.0, batch_first=True,
                                                                         norm_first=True), [(2, 5, 8), (2, 3, 8)],
         {"src_mask": Causal(5), "tgt_is_causal": True, "tgt_mask": Causal(3)}),
    Case("Transformer-custom", lambda nn: nn.Transformer(
        8, 2, custom_encoder=nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0), 1),
        custom_decoder=nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 12, 0.0, "gelu"), 2)),
        [(3, 2, 8), (4, 2, 8)], {"memory_mask": Mask(np.eye(4, 3, dtype=bool))}),
]


def _library(nn_):
    return chainrule if nn_ is nn else require_torch()


def _kwargs(lib, kwargs, dtype):
    built = {}
    for key, value in kwargs.items():
        if isinstance(value, Mask):
            built[key] = lib.from_numpy(np.array(value.values, dtype=bool if value.kind == "bool" else dtype))
        elif isinstance(value, Causal):
            built[key] = lib.nn.Transformer.generate_square_subsequent_mask(value.size, dtype=getattr(lib, dtype))
        else:
            built[key] = value
    return built


def _leaves(lib, case, dtype, seed):
    """The input leaves, and the call's arguments (repeating a leaf where the case says so)."""
    rng = np.random.default_rng(seed)
    leaves, args = [], []
    for spec in case.inputs:
        if isinstance(spec, int):
            args.append(args[spec])
        else:
            leaves.append(lib.from_numpy(rng.uniform(-1, 1, spec).astype(dtype)).requires_grad_())
            args.append(leaves[-1])
    return leaves, args


def _run(lib, module, case, dtype, seed=0, grad_seed=1):
    leaves, args = _leaves(lib, case, dtype, seed)
    out = module(*args, **_kwargs(lib, case.kwargs, dtype))
    outs = [o for o in (out if isinstance(out, tuple) else (out,)) if o is not None]
    rng = np.random.default_rng(grad_seed)
    grads = [lib.from_numpy(rng.standard_normal(tuple(o.shape)).astype(dtype)) for o in outs]
    lib.autograd.backward(outs, grads)
    return ([to_numpy(o) for o in outs] + [to_numpy(t.grad) for t in leaves],
            {k: to_numpy(p.grad) for k, p in module.named_parameters()})


def _compare(ours, theirs, rtol, atol):
    assert len(ours[0]) == len(theirs[0])
    for a, b in zip(ours[0], theirs[0]):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    assert list(ours[1]) == list(theirs[1])
    for key in ours[1]:
        np.testing.assert_allclose(ours[1][key], theirs[1][key], rtol=rtol, atol=atol, err_msg=key)


def _copy_weights(ours, theirs):
    ours.load_state_dict({k: chainrule.from_numpy(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})


def _quietly(make, nn_):
    """``make(nn_)`` without the nested-tensor warning (tested on its own below)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make(nn_)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_module_matches_torch(case):
    torch = require_torch()
    for dtype, rtol, atol in (("float64", 1e-10, 1e-12), ("float32", 1e-4, 1e-5)):
        for mode in ("train", "eval"):
            theirs = _quietly(case.make, torch.nn).to(getattr(torch, dtype)).train(mode == "train")
            ours = _quietly(case.make, nn)
            assert repr(ours) == repr(theirs)
            _copy_weights(ours, theirs)
            ours.to(getattr(chainrule, dtype)).train(mode == "train")
            _compare(_run(chainrule, ours, case, dtype), _run(torch, theirs, case, dtype), rtol, atol)


INIT_MAKERS = [
    lambda nn: nn.MultiheadAttention(6, 3),
    lambda nn: nn.MultiheadAttention(4, 2, bias=False, add_bias_kv=True, kdim=3, vdim=5),
    lambda nn: nn.TransformerEncoderLayer(8, 2, 16),
    lambda nn: nn.TransformerDecoderLayer(8, 2, 16, bias=False),
    lambda nn: nn.Transformer(8, 2, 2, 1, 16),
    lambda nn: nn.Transformer(8, 2, custom_encoder=nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 1),
                              custom_decoder=nn.Linear(8, 8)),
]


@pytest.mark.parametrize("seed", [0, 3])
def test_default_weights_are_torchs(seed):
    """After the same manual_seed, every parameter is PyTorch's, bit for bit."""
    torch = require_torch()
    for make in INIT_MAKERS:
        torch.manual_seed(seed)
        chainrule.manual_seed(seed)
        theirs, ours = _quietly(make, torch.nn), _quietly(make, nn)
        want = {k: v.detach().numpy() for k, v in theirs.state_dict().items()}
        got = {k: to_numpy(v) for k, v in ours.state_dict().items()}
        assert list(got) == list(want)
        assert all(np.array_equal(got[k], want[k]) and got[k].dtype == want[k].dtype for k in want)


DROPOUT_CASES = [
    Case("MHA-weights", lambda nn: nn.MultiheadAttention(4, 2, dropout=0.3), [(3, 2, 4), (5, 2, 4), 1]),
    Case("MHA-no-weights", lambda nn: nn.MultiheadAttention(4, 2, dropout=0.3, batch_first=True), [(2, 5, 4), 0, 0],
         {"need_weights": False, "key_padding_mask": PAD_2x5}),
    Case("TransformerEncoderLayer", lambda nn: nn.TransformerEncoderLayer(8, 2, 16, 0.2), [(5, 2, 8)],
         {"src_mask": Causal(5)}),
    Case("Transformer", lambda nn: nn.Transformer(8, 2, 1, 2, 16, 0.1), [(5, 2, 8), (4, 2, 8)],
         {"tgt_mask": Causal(4), "tgt_is_causal": True}),
    Case("Transformer-batch_first", lambda nn: nn.Transformer(8, 2, 1, 1, 16, 0.1, batch_first=True),
         [(2, 5, 8), (2, 4, 8)]),
]

# Differences in code this file does not own, reported; strict, so a fix shows.
KNOWN_BUGS = {}


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(reason=KNOWN_BUGS[c.name], strict=True))
                                  if c.name in KNOWN_BUGS else c for c in DROPOUT_CASES],
                         ids=[c.name for c in DROPOUT_CASES])
def test_dropout_draws_torchs_masks(case):
    """Attention-weight and residual dropout, in PyTorch's order: the same seed, the same masks."""
    torch = require_torch()
    theirs = _quietly(case.make, torch.nn).double()
    ours = _quietly(case.make, nn).double()
    _copy_weights(ours, theirs)
    torch.manual_seed(5)
    want = _run(torch, theirs, case, "float64")
    chainrule.manual_seed(5)
    _compare(_run(chainrule, ours, case, "float64"), want, 1e-10, 1e-12)
    theirs.eval()
    assert not np.allclose(_run(torch, theirs, case, "float64")[0][0], want[0][0])  # dropout did act


INFERENCE_CASES = [  # eval under no_grad: PyTorch's fused kernels and nested tensors
    Case("MHA", lambda nn: nn.MultiheadAttention(8, 2, batch_first=True), [(2, 5, 8), 0, 0],
         {"key_padding_mask": PAD_2x5}),
    Case("TransformerEncoderLayer", lambda nn: nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), [(2, 5, 8)],
         {"src_key_padding_mask": PAD_2x5}),
    Case("TransformerEncoder-nested", lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(
        8, 2, 16, batch_first=True), 2, nn.LayerNorm(8)), [(2, 5, 8)], {"src_key_padding_mask": PAD_2x5}),
    Case("TransformerEncoder-not-left-aligned", lambda nn: nn.TransformerEncoder(nn.TransformerEncoderLayer(
        8, 2, 16, batch_first=True), 1), [(2, 5, 8)],
        {"src_key_padding_mask": Mask([[False, True, False, False, True], [False] * 5])}),
]


@pytest.mark.parametrize("case", INFERENCE_CASES, ids=[c.name for c in INFERENCE_CASES])
def test_inference_without_grad_matches_torch(case):
    torch = require_torch()
    theirs = _quietly(case.make, torch.nn).double().eval()
    ours = _quietly(case.make, nn).double().eval()
    _copy_weights(ours, theirs)
    results = []
    for lib, module in ((chainrule, ours), (torch, theirs)):
        with lib.no_grad():
            args = _leaves(lib, case, "float64", 0)[1]
            out = module(*args, **_kwargs(lib, case.kwargs, "float64"))
        results.append([to_numpy(o) for o in (out if isinstance(out, tuple) else (out,))])
    for a, b in zip(*results, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_generate_square_subsequent_mask():
    torch = require_torch()
    for lib in (chainrule, torch):
        assert lib.nn.Transformer.generate_square_subsequent_mask(4).dtype == lib.float32
    ours = nn.Transformer.generate_square_subsequent_mask(3, dtype=chainrule.float64)
    theirs = torch.nn.Transformer.generate_square_subsequent_mask(3, dtype=torch.float64)
    assert repr(ours) == repr(theirs)


WARNINGS = [
    ("nested-tensor", lambda nn, lib: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 1)),
    ("nested-tensor-norm_first", lambda nn, lib: nn.TransformerEncoder(nn.TransformerEncoderLayer(
        8, 2, 16, batch_first=True, norm_first=True), 1)),
    ("nested-tensor-odd-heads", lambda nn, lib: nn.TransformerEncoder(nn.TransformerEncoderLayer(
        9, 3, 16, batch_first=True), 1)),
    ("nested-tensor-none", lambda nn, lib: nn.TransformerEncoder(nn.TransformerEncoderLayer(
        8, 2, 16, batch_first=True), 1)),
    ("mismatched-masks", lambda nn, lib: nn.MultiheadAttention(4, 2)(
        *[lib.zeros(3, 1, 4)] * 3, key_padding_mask=lib.zeros(1, 3, dtype=lib.bool),
        attn_mask=lib.zeros(3, 3))),
]


@pytest.mark.parametrize("make", [m for _, m in WARNINGS], ids=[n for n, _ in WARNINGS])
def test_warnings_are_torchs(make):
    torch = require_torch()
    caught = []
    for nn_ in (nn, torch.nn):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            make(nn_, _library(nn_))
        caught.append([(x.category, str(x.message)) for x in w])
    assert caught[0] == caught[1]


def _mha_call(query, key, value, heads=2, embed=4, **kwargs):
    def call(nn_, lib):
        mha = nn_.MultiheadAttention(embed, heads)
        shaped = [lib.zeros(*s) for s in (query, key, value)]
        return mha(*shaped, **{k: (lib.zeros(*v[0], dtype=getattr(lib, v[1])) if isinstance(v, tuple) else v)
                               for k, v in kwargs.items()})
    return call


ERRORS = [
    ("embed-zero", lambda nn_, lib: nn_.MultiheadAttention(0, 2)),
    ("heads-divide", lambda nn_, lib: nn_.MultiheadAttention(5, 2)),
    ("query-4d", _mha_call((3, 2, 4, 1), (3, 2, 4, 1), (3, 2, 4, 1))),
    ("key-dims", _mha_call((3, 2, 4), (3, 4), (3, 2, 4))),
    ("unbatched-key-dims", _mha_call((3, 4), (3, 2, 4), (3, 4))),
    ("key_padding-dims", _mha_call((3, 2, 4), (3, 2, 4), (3, 2, 4), key_padding_mask=((2,), "bool"))),
    ("unbatched-key_padding-dims", _mha_call((3, 4), (3, 4), (3, 4), key_padding_mask=((1, 3), "bool"))),
    ("attn_mask-dims", _mha_call((3, 2, 4), (3, 2, 4), (3, 2, 4), attn_mask=((3,), "bool"))),
    ("unbatched-3d-attn_mask", _mha_call((3, 4), (3, 4), (3, 4), attn_mask=((3, 3, 3), "bool"))),
    ("attn_mask-2d-shape", _mha_call((3, 2, 4), (5, 2, 4), (5, 2, 4), attn_mask=((3, 4), "bool"))),
    ("attn_mask-3d-shape", _mha_call((3, 2, 4), (5, 2, 4), (5, 2, 4), attn_mask=((2, 3, 5), "float32"))),
    ("mask-dtype", _mha_call((3, 2, 4), (3, 2, 4), (3, 2, 4), attn_mask=((3, 3), "int64"))),
    ("key_padding-shape", _mha_call((3, 2, 4), (5, 2, 4), (5, 2, 4), key_padding_mask=((2, 4), "bool"))),
    ("key_padding-batch", _mha_call((3, 2, 4), (5, 2, 4), (5, 2, 4), key_padding_mask=((3, 5), "bool"))),
    ("is_causal-no-mask", _mha_call((3, 2, 4), (3, 2, 4), (3, 2, 4), is_causal=True)),
    ("embed-mismatch", _mha_call((3, 2, 5), (3, 2, 5), (3, 2, 5))),
    ("key-value-shapes", _mha_call((3, 2, 4), (5, 2, 4), (4, 2, 4))),
    ("activation", lambda nn_, lib: nn_.TransformerEncoderLayer(8, 2, activation="tanh")),
    ("transformer-batch", lambda nn_, lib: _quietly(lambda n: n.Transformer(8, 2, 1, 1, 16), nn_)(
        lib.zeros(3, 2, 8), lib.zeros(3, 3, 8))),
    ("transformer-features", lambda nn_, lib: _quietly(lambda n: n.Transformer(8, 2, 1, 1, 16, batch_first=True),
                                                       nn_)(lib.zeros(2, 3, 8), lib.zeros(2, 3, 6))),
]


@pytest.mark.parametrize("make", [m for _, m in ERRORS], ids=[n for n, _ in ERRORS])
def test_errors_are_torchs(make):
    torch = require_torch()
    assert full_error_of(lambda: make(nn, chainrule)) == full_error_of(lambda: make(torch.nn, torch))
