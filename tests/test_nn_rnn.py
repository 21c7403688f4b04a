"""RNN, LSTM, GRU, their cells and ``nn.utils.rnn`` against PyTorch, driven by one table.

Each ``Case`` builds the same layer on both libraries, copies torch's weights into
chainrule's with ``load_state_dict``, feeds both the same input (padded, or packed with
``lengths``) and initial state, and compares the printed module, every output (``h_n``,
``c_n``, packed data), and the gradients of the input, of the initial state and of every
parameter; in float64 (rtol 1e-10) and float32, train and eval. Further tests: default
weights after ``manual_seed`` bit for bit, dropout between layers after the same seed, and
PyTorch's error messages.
"""
import warnings
from dataclasses import dataclass

import numpy as np
import pytest

import chainrule
import chainrule.nn as nn
from chainrule.nn.utils import rnn as rnn_utils

from helpers import error_of, full_error_of, require_torch, to_numpy


@dataclass
class Case:
    name: str
    make: object  # nn -> module (nn is chainrule.nn or torch.nn)
    input: tuple  # the input's shape
    hx: tuple = None  # shapes of the initial states: (h,) or (h, c); None: the layer's zeros
    lengths: list = None  # pack the input with these lengths (unsorted: enforce_sorted=False)


CASES = [
    Case("RNN", lambda nn: nn.RNN(3, 4), (5, 2, 3)),
    Case("RNN-relu-2layer-bidirectional-hx", lambda nn: nn.RNN(3, 4, 2, "relu", bidirectional=True), (4, 3, 3),
         hx=((4, 3, 4),)),
    Case("RNN-unbatched-hx", lambda nn: nn.RNN(3, 4, nonlinearity="relu"), (5, 3), hx=((1, 4),)),
    Case("RNN-batch_first-nobias", lambda nn: nn.RNN(2, 3, bias=False, batch_first=True), (2, 4, 2)),
    Case("RNN-packed", lambda nn: nn.RNN(3, 4, num_layers=2), (5, 3, 3), lengths=[5, 3, 2]),
    Case("LSTM", lambda nn: nn.LSTM(3, 4), (5, 2, 3)),
    Case("LSTM-2layer-bidirectional-batch_first-hx", lambda nn: nn.LSTM(3, 4, 2, batch_first=True,
                                                                         bidirectional=True), (2, 4, 3),
         hx=((4, 2, 4), (4, 2, 4))),
    Case("LSTM-proj-bidirectional", lambda nn: nn.LSTM(3, 5, 2, bidirectional=True, proj_size=2), (4, 2, 3),
         hx=((4, 2, 2), (4, 2, 5))),
    Case("LSTM-unbatched-hx", lambda nn: nn.LSTM(2, 3, bias=False), (4, 2), hx=((1, 3), (1, 3))),
    Case("LSTM-unbatched-batch_first", lambda nn: nn.LSTM(2, 3, batch_first=True, proj_size=1), (4, 2)),
    Case("LSTM-packed-sorted", lambda nn: nn.LSTM(3, 4, bidirectional=True), (4, 3, 3), lengths=[4, 4, 2]),
    Case("LSTM-packed-unsorted-hx", lambda nn: nn.LSTM(3, 4, 2, proj_size=3), (5, 3, 3), lengths=[2, 5, 3],
         hx=((2, 3, 3), (2, 3, 4))),
    Case("GRU", lambda nn: nn.GRU(3, 4), (5, 2, 3)),
    Case("GRU-2layer-bidirectional-hx", lambda nn: nn.GRU(3, 4, 2, bidirectional=True), (3, 2, 3),
         hx=((4, 2, 4),)),
    Case("GRU-unbatched", lambda nn: nn.GRU(3, 2, bias=False), (4, 3)),
    Case("GRU-packed-batch_first-unsorted", lambda nn: nn.GRU(2, 3, 2, batch_first=True, bidirectional=True),
         (3, 4, 2), lengths=[3, 4, 1]),
    Case("RNNCell", lambda nn: nn.RNNCell(3, 4), (2, 3)),
    Case("RNNCell-relu-unbatched-hx", lambda nn: nn.RNNCell(3, 4, nonlinearity="relu"), (3,), hx=((4,),)),
    Case("LSTMCell-hx", lambda nn: nn.LSTMCell(3, 4), (2, 3), hx=((2, 4), (2, 4))),
    Case("LSTMCell-unbatched-nobias", lambda nn: nn.LSTMCell(3, 2, bias=False), (3,)),
    Case("GRUCell-hx", lambda nn: nn.GRUCell(3, 4), (2, 3), hx=((2, 4),)),
    Case("GRUCell-unbatched-nobias", lambda nn: nn.GRUCell(2, 3, False), (2,), hx=((3,),)),
]


def _is_lstm(module):
    return type(module).__name__ in ("LSTM", "LSTMCell")


def _flat(out):
    """The tensors of a layer's result: (output, h) / (output, (h, c)) / packed data / a cell's h."""
    if isinstance(out, (tuple, list)) and not hasattr(out, "batch_sizes"):
        return [t for part in out for t in _flat(part)]
    if hasattr(out, "batch_sizes"):
        return [out.data]
    return [out]


def _run(lib, module, case, arrays, grad_seed):
    """Outputs, input/state gradients and parameter gradients of one forward and backward."""
    x = lib.from_numpy(arrays[0].copy()).requires_grad_()
    states = [lib.from_numpy(a.copy()).requires_grad_() for a in arrays[1:]]
    arg = x
    if case.lengths is not None:
        arg = lib.nn.utils.rnn.pack_padded_sequence(x, case.lengths, batch_first=module.batch_first,
                                                    enforce_sorted=case.lengths == sorted(case.lengths)[::-1])
    hx = None if not states else tuple(states) if _is_lstm(module) else states[0]
    out = module(arg) if hx is None else module(arg, hx)
    outs = _flat(out)
    if case.lengths is not None:  # back to padded form, in the caller's batch order
        padded, lengths = lib.nn.utils.rnn.pad_packed_sequence(out[0], batch_first=module.batch_first)
        outs += [padded, lengths]
    floating = [o for o in outs if o.is_floating_point()]
    rng = np.random.default_rng(grad_seed)
    grads = [lib.from_numpy(rng.standard_normal(tuple(o.shape)).astype(to_numpy(o).dtype)) for o in floating]
    lib.autograd.backward(floating, grads)
    return ([to_numpy(o) for o in outs], [to_numpy(t.grad) for t in [x] + states],
            {k: to_numpy(p.grad) for k, p in module.named_parameters()})


def _compare(ours, theirs, rtol, atol):
    for a, b in zip(ours[0] + ours[1], theirs[0] + theirs[1], strict=True):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    assert list(ours[2]) == list(theirs[2])
    for key in ours[2]:
        np.testing.assert_allclose(ours[2][key], theirs[2][key], rtol=rtol, atol=atol, err_msg=key)


def _copy_weights(ours, theirs):
    ours.load_state_dict({k: chainrule.from_numpy(v.detach().numpy().copy()) for k, v in theirs.state_dict().items()})


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_layer_matches_torch(case):
    torch = require_torch()
    rng = np.random.default_rng(len(case.name))
    shapes = [case.input] + list(case.hx or ())
    for dtype, rtol, atol in (("float64", 1e-10, 1e-12), ("float32", 2e-5, 2e-6)):
        arrays = [rng.uniform(-1, 1, s).astype(dtype) for s in shapes]
        for mode in ("train", "eval"):
            theirs = case.make(torch.nn).to(getattr(torch, dtype)).train(mode == "train")
            ours = case.make(nn)
            assert repr(ours) == repr(theirs)
            _copy_weights(ours, theirs)
            ours.to(getattr(chainrule, dtype)).train(mode == "train")
            _compare(_run(chainrule, ours, case, arrays, 1), _run(torch, theirs, case, arrays, 1), rtol, atol)


@pytest.mark.parametrize("seed", [0, 7])
def test_default_weights_are_torchs(seed):
    """After the same manual_seed, every parameter is PyTorch's, bit for bit."""
    torch = require_torch()
    for case in CASES:
        torch.manual_seed(seed)
        chainrule.manual_seed(seed)
        theirs, ours = case.make(torch.nn), case.make(nn)
        want = {k: v.detach().numpy() for k, v in theirs.state_dict().items()}
        got = {k: to_numpy(v) for k, v in ours.state_dict().items()}
        assert list(got) == list(want)
        assert all(np.array_equal(got[k], want[k]) and got[k].dtype == want[k].dtype for k in want), case.name


DROPOUT_CASES = [
    Case("LSTM", lambda nn: nn.LSTM(3, 4, 3, dropout=0.5, bidirectional=True), (4, 2, 3)),
    Case("GRU-batch_first", lambda nn: nn.GRU(3, 4, 2, dropout=0.3, batch_first=True), (2, 4, 3)),
    Case("RNN-packed", lambda nn: nn.RNN(3, 4, 3, dropout=0.4), (5, 3, 3), lengths=[5, 2, 4]),
]


@pytest.mark.parametrize("case", DROPOUT_CASES, ids=[c.name for c in DROPOUT_CASES])
def test_dropout_between_layers_draws_torchs_masks(case):
    """In training, F.dropout on each layer's output but the last: the same seed, the same masks."""
    torch = require_torch()
    arrays = [np.random.default_rng(5).uniform(-1, 1, case.input)]
    theirs = case.make(torch.nn).double()
    ours = case.make(nn).double()
    _copy_weights(ours, theirs)
    torch.manual_seed(11)
    want = _run(torch, theirs, case, arrays, 2)
    chainrule.manual_seed(11)
    got = _run(chainrule, ours, case, arrays, 2)
    _compare(got, want, 1e-10, 1e-12)
    theirs.eval()
    assert not np.allclose(_run(torch, theirs, case, arrays, 2)[0][0], want[0][0])  # dropout did act


def test_parameters_and_repr():
    torch = require_torch()
    pairs = [(nn.LSTM(2, 4, 2, bias=False, batch_first=True, dropout=0.5, bidirectional=True, proj_size=3),
              torch.nn.LSTM(2, 4, 2, bias=False, batch_first=True, dropout=0.5, bidirectional=True, proj_size=3)),
             (nn.RNN(3, 4, 2, "relu"), torch.nn.RNN(3, 4, 2, "relu")),
             (nn.RNNCell(3, 4, bias=False, nonlinearity="relu"), torch.nn.RNNCell(3, 4, bias=False,
                                                                                  nonlinearity="relu")),
             (nn.RNNBase("GRU", 2, 3), torch.nn.RNNBase("GRU", 2, 3))]
    for ours, theirs in pairs:
        assert repr(ours) == repr(theirs)
        assert [(k, tuple(p.shape)) for k, p in ours.named_parameters()] == \
               [(k, tuple(p.shape)) for k, p in theirs.named_parameters()]
        if hasattr(theirs, "_flat_weights_names"):
            assert ours._flat_weights_names == theirs._flat_weights_names
            assert ours._all_weights == theirs._all_weights
            assert [[tuple(w.shape) for w in ws] for ws in ours.all_weights] == \
                   [[tuple(w.shape) for w in ws] for ws in theirs.all_weights]
            assert [w is p for w, p in zip(ours._flat_weights, ours.parameters())] == \
                   [True] * len(ours._flat_weights_names)


def _lstm_state(lib, h, c):
    return (lib.zeros(h), lib.zeros(c))


FORWARD_ERRORS = [
    ("RNN-hidden-size", lambda nn, lib: nn.RNN(3, 4)(lib.zeros(5, 2, 3), lib.zeros(1, 3, 4))),
    ("RNN-batched-hx-dim", lambda nn, lib: nn.RNN(3, 4)(lib.zeros(5, 2, 3), lib.zeros(3, 4))),
    ("RNN-unbatched-hx-dim", lambda nn, lib: nn.RNN(3, 4)(lib.zeros(5, 3), lib.zeros(1, 1, 4))),
    ("RNN-input-size", lambda nn, lib: nn.RNN(3, 4)(lib.zeros(5, 2, 4))),
    ("RNN-input-dim", lambda nn, lib: nn.RNN(3, 4)(lib.zeros(5, 2, 3, 1))),
    ("RNN-dtype", lambda nn, lib: nn.RNN(3, 4)(lib.zeros(5, 2, 3, dtype=lib.float64))),
    ("GRU-input-dim", lambda nn, lib: nn.GRU(3, 4)(lib.zeros(5))),
    ("GRU-hidden-size", lambda nn, lib: nn.GRU(3, 4, 2)(lib.zeros(5, 2, 3), lib.zeros(1, 2, 4))),
    ("LSTM-cell-size", lambda nn, lib: nn.LSTM(3, 4)(lib.zeros(5, 2, 3), _lstm_state(lib, (1, 2, 4), (1, 3, 4)))),
    ("LSTM-hidden-size", lambda nn, lib: nn.LSTM(3, 4, proj_size=2)(lib.zeros(5, 2, 3),
                                                                    _lstm_state(lib, (1, 2, 4), (1, 2, 4)))),
    ("LSTM-batched-hx-dim", lambda nn, lib: nn.LSTM(3, 4)(lib.zeros(5, 2, 3), _lstm_state(lib, (2, 4), (1, 2, 4)))),
    ("LSTM-unbatched-hx-dim", lambda nn, lib: nn.LSTM(3, 4)(lib.zeros(5, 3), _lstm_state(lib, (1, 2, 4),
                                                                                          (1, 2, 4)))),
    ("LSTM-input-dim", lambda nn, lib: nn.LSTM(3, 4)(lib.zeros(5, 2, 3, 1))),
    ("LSTM-no-steps", lambda nn, lib: nn.LSTM(3, 4, batch_first=True)(lib.zeros(2, 0, 3))),
    ("GRU-unbatched-no-steps", lambda nn, lib: nn.GRU(3, 4)(lib.zeros(0, 3))),
    ("RNNCell-input-size", lambda nn, lib: nn.RNNCell(3, 4)(lib.zeros(2, 5))),
    ("RNNCell-batch", lambda nn, lib: nn.RNNCell(3, 4)(lib.zeros(2, 3), lib.zeros(3, 4))),
    ("RNNCell-hidden-size", lambda nn, lib: nn.RNNCell(3, 4)(lib.zeros(2, 3), lib.zeros(2, 5))),
    ("RNNCell-unbatched-hidden", lambda nn, lib: nn.RNNCell(3, 4)(lib.zeros(3), lib.zeros(2, 4))),
    ("RNNCell-input-dim", lambda nn, lib: nn.RNNCell(3, 4)(lib.zeros(3, 3, 3))),
    ("RNNCell-hidden-dim", lambda nn, lib: nn.RNNCell(3, 4)(lib.zeros(3, 3), lib.zeros(1, 3, 4))),
    ("RNNCell-nonlinearity", lambda nn, lib: nn.RNNCell(3, 4, nonlinearity="foo")(lib.zeros(2, 3))),
    ("LSTMCell-hidden1-batch", lambda nn, lib: nn.LSTMCell(3, 4)(lib.zeros(2, 3), _lstm_state(lib, (2, 4), (3, 4)))),
    ("LSTMCell-hidden1-size", lambda nn, lib: nn.LSTMCell(3, 4)(lib.zeros(2, 3), _lstm_state(lib, (2, 4), (2, 5)))),
    ("LSTMCell-hidden0-size", lambda nn, lib: nn.LSTMCell(3, 4)(lib.zeros(2, 3), _lstm_state(lib, (2, 5), (2, 4)))),
    ("LSTMCell-hx-dim", lambda nn, lib: nn.LSTMCell(3, 4)(lib.zeros(2, 3), _lstm_state(lib, (2, 4), (1, 2, 4)))),
    ("GRUCell-batch", lambda nn, lib: nn.GRUCell(3, 4)(lib.zeros(2, 3), lib.zeros(3, 4))),
    ("GRUCell-input-dim", lambda nn, lib: nn.GRUCell(3, 4)(lib.zeros(2, 3, 1))),
]

CONSTRUCTOR_ERRORS = [
    ("GRU-proj", lambda nn: nn.GRU(3, 4, proj_size=2)),
    ("RNN-proj", lambda nn: nn.RNN(3, 4, proj_size=2)),
    ("LSTM-proj-too-big", lambda nn: nn.LSTM(3, 4, proj_size=4)),
    ("LSTM-proj-negative", lambda nn: nn.LSTM(3, 4, proj_size=-1)),
    ("LSTM-dropout-range", lambda nn: nn.LSTM(3, 4, dropout=1.5)),
    ("LSTM-dropout-bool", lambda nn: nn.LSTM(3, 4, dropout=True)),
    ("LSTM-bias-type", lambda nn: nn.LSTM(3, 4, bias=1)),
    ("LSTM-batch_first-type", lambda nn: nn.LSTM(3, 4, batch_first=None)),
    ("LSTM-hidden-zero", lambda nn: nn.LSTM(3, 0)),
    ("LSTM-hidden-type", lambda nn: nn.LSTM(3, 4.0)),
    ("LSTM-input-type", lambda nn: nn.LSTM(3.0, 4)),
    ("LSTM-input-zero", lambda nn: nn.LSTM(0, 4)),
    ("LSTM-layers-zero", lambda nn: nn.LSTM(3, 4, 0)),
    ("RNN-nonlinearity", lambda nn: nn.RNN(3, 4, nonlinearity="sigmoid")),
    ("RNNBase-mode", lambda nn: nn.RNNBase("CONV", 3, 4)),
]


@pytest.mark.parametrize("make", [m for _, m in FORWARD_ERRORS], ids=[n for n, _ in FORWARD_ERRORS])
def test_forward_errors_are_torchs(make):
    torch = require_torch()
    assert full_error_of(lambda: make(nn, chainrule)) == full_error_of(lambda: make(torch.nn, torch))


@pytest.mark.parametrize("make", [m for _, m in CONSTRUCTOR_ERRORS], ids=[n for n, _ in CONSTRUCTOR_ERRORS])
def test_constructor_errors_are_torchs(make):
    torch = require_torch()
    assert full_error_of(lambda: make(nn)) == full_error_of(lambda: make(torch.nn))


def test_dropout_with_one_layer_warns_as_torch():
    torch = require_torch()
    caught = []
    for make in (nn.GRU, torch.nn.GRU):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            make(3, 4, dropout=0.2)
        caught.append([(x.category, str(x.message)) for x in w])
    assert caught[0] == caught[1] and len(caught[0]) == 1


# --- nn.utils.rnn ------------------------------------------------------------------------------

def _leaves(lib, shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [lib.from_numpy(rng.uniform(-1, 1, shape)).requires_grad_() for shape in shapes]


UTILS = [  # (name, shapes of the sequences (leaves), function of (lib, nn.utils.rnn, sequences))
    ("pad_sequence", [(3, 2), (1, 2), (4, 2)], lambda lib, u, s: [u.pad_sequence(s)]),
    ("pad_sequence-batch_first-left", [(2, 2, 1), (4, 2, 1)], lambda lib, u, s: [u.pad_sequence(
        s, batch_first=True, padding_value=-1.5, padding_side="left")]),
    ("pad_sequence-broadcast", [(2, 3), (3, 3), (2, 1)], lambda lib, u, s: [u.pad_sequence(s)]),
    ("pack_sequence-unsorted", [(2, 2), (4, 2), (3, 2)], lambda lib, u, s: list(u.pack_sequence(
        s, enforce_sorted=False))),
    ("pack_padded-batch_first", [(4, 1), (2, 1), (2, 1)], lambda lib, u, s: list(u.pack_padded_sequence(
        u.pad_sequence(s, batch_first=True), lib.tensor([4, 2, 2]), batch_first=True))),
    ("pack_padded-float-lengths", [(3, 2), (1, 2)], lambda lib, u, s: list(u.pack_padded_sequence(
        u.pad_sequence(s), lib.tensor([3.0, 1.0])))),
    ("pad_packed-total_length", [(1, 2), (3, 2), (2, 2)], lambda lib, u, s: list(u.pad_packed_sequence(
        u.pack_sequence(s, enforce_sorted=False), batch_first=True, padding_value=9.0, total_length=5))),
    ("unpack_sequence", [(2, 2), (3, 2), (1, 2)], lambda lib, u, s: u.unpack_sequence(u.pack_sequence(
        s, enforce_sorted=False))),
    ("unpad_sequence", [(2, 2), (3, 2)], lambda lib, u, s: u.unpad_sequence(u.pad_sequence(s), lib.tensor([2, 3]))),
    ("unpad_sequence-batch_first", [(3,), (1,)], lambda lib, u, s: u.unpad_sequence(
        u.pad_sequence(s, batch_first=True), lib.tensor([3, 1]), batch_first=True)),
    ("invert_permutation", [], lambda lib, u, s: [u.invert_permutation(lib.tensor([2, 0, 3, 1]))]),
]


@pytest.mark.parametrize("shapes,run", [u[1:] for u in UTILS], ids=[u[0] for u in UTILS])
def test_rnn_utils_match_torch(shapes, run):
    """Values and dtypes, and (through random output gradients) the gradients of the sequences."""
    torch = require_torch()
    results = []
    for lib in (chainrule, torch):
        sequences = _leaves(lib, shapes)
        outs = [o for o in run(lib, lib.nn.utils.rnn, sequences) if o is not None]
        results.append([(to_numpy(o), repr(o.dtype)) for o in outs])
        floating = [o for o in outs if o.requires_grad]
        if floating:
            rng = np.random.default_rng(4)
            grads = [lib.from_numpy(rng.standard_normal(tuple(o.shape))) for o in floating]
            results[-1] += [(to_numpy(g), "grad") for g in lib.autograd.grad(floating, sequences, grads)]
    assert len(results[0]) == len(results[1])
    for (a, a_dtype), (b, b_dtype) in zip(*results):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype and a_dtype == b_dtype


def test_packed_sequence_repr_and_conversions():
    torch = require_torch()
    texts = []
    for lib in (chainrule, torch):
        p = lib.nn.utils.rnn.pack_sequence([lib.tensor([1, 2, 3]), lib.tensor([4, 5]), lib.tensor([6, 7, 8, 9])],
                                           enforce_sorted=False)
        made = lib.nn.utils.rnn.PackedSequence(lib.ones(3), lib.tensor([2, 1]))
        texts.append([repr(p), repr(p.double()), repr(p.to(lib.float32).data.dtype), repr(made),
                      repr(lib.nn.utils.rnn.PackedSequence((lib.zeros(2), lib.tensor([1, 1])))), p.is_cuda,
                      p.to(lib.int64) is p, p._fields])
    assert texts[0] == texts[1]


UTIL_ERRORS = [
    ("unsorted", lambda lib, u: u.pack_padded_sequence(lib.zeros(4, 3, 2), [4, 5, 1])),
    ("batch-size", lambda lib, u: u.pack_padded_sequence(lib.zeros(4, 3, 2), [4, 2])),
    ("zero-length", lambda lib, u: u.pack_padded_sequence(lib.zeros(4, 3, 2), [4, 2, 0])),
    ("lengths-2d", lambda lib, u: u.pack_padded_sequence(lib.zeros(4, 3, 2), lib.tensor([[4, 2, 1]]))),
    ("empty", lambda lib, u: u.pack_padded_sequence(lib.zeros(0, 3, 2), [4, 2, 1])),
    ("input-1d", lambda lib, u: u.pack_padded_sequence(lib.zeros(4), [4])),
    ("total_length", lambda lib, u: u.pad_packed_sequence(u.pack_padded_sequence(lib.zeros(4, 3), [4, 2, 1]),
                                                          total_length=3)),
    ("pad-empty", lambda lib, u: u.pad_sequence([])),
    ("pad-shapes", lambda lib, u: u.pad_sequence([lib.ones(2, 3), lib.ones(3, 4)])),
    ("pad-side", lambda lib, u: u.pad_sequence([lib.ones(2, 3)], padding_side="top")),
    ("pad-not-iterable", lambda lib, u: u.pad_sequence(3)),
    ("packed-by-hand", lambda lib, u: u.PackedSequence(lib.ones(3))),
]


@pytest.mark.parametrize("make", [m for _, m in UTIL_ERRORS], ids=[n for n, _ in UTIL_ERRORS])
def test_rnn_utils_errors_are_torchs(make):
    torch = require_torch()
    assert error_of(lambda: make(chainrule, rnn_utils)) == error_of(lambda: make(torch, torch.nn.utils.rnn))
