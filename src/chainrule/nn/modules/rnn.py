"""Recurrent layers: RNN, LSTM and GRU over whole sequences, and their one-step cells.

Each layer and direction owns ``weight_ih_l{k}``, ``weight_hh_l{k}``, ``bias_ih_l{k}``,
``bias_hh_l{k}`` (and ``weight_hr_l{k}`` for a projected LSTM), ``_reverse`` for the backward
direction, registered in PyTorch's order, so ``reset_parameters`` (every parameter from
U(-1/sqrt(hidden), 1/sqrt(hidden)), in that order) draws PyTorch's weights after the same
``manual_seed``. Gates are stacked in PyTorch's order: LSTM (input, forget, cell, output),
GRU (reset, update, new).

How a layer runs, as ATen's CPU loop does: the input projection ``x W_ih^T + b_ih`` is made for
all time steps at once, then one cell step per time step adds ``h W_hh^T + b_hh``. Padded
and packed inputs take one path: a padded (T, B, F) input is the packed batch whose
``batch_sizes`` are all B. At step t only the first ``batch_sizes[t]`` rows are live; the
others keep the state they ended with, which is how a packed sequence's ``h_n`` holds each
sequence's own last step. The backward direction walks the steps in reverse with the same
rule. Between layers, in training, ``F.dropout`` is applied to the whole layer output, as
in ATen, so its draws are PyTorch's.

>>> lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True)
>>> out, (h_n, c_n) = lstm(chainrule.randn(2, 5, 3))     # out (2, 5, 4); h_n, c_n (2, 2, 4)
"""
import math
import numbers
import warnings

from ..._ops import creation as _creation
from ..._ops.shape.joining import cat, stack
from ..._ops.pointwise.unary import sigmoid, tanh
from .. import functional as F, init
from ..parameter import Parameter
from .._packed_sequence import PackedSequence
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


# --- one time step of each cell ------------------------------------------------------------------
# ``x_w`` is the input already projected (``x W_ih^T + b_ih``); ``state`` is a tuple: (h,) or (h, c).

def _simple_step(activation):
    def step(x_w, state, w_hh, b_hh, w_hr=None):
        return (activation(F.linear(state[0], w_hh, b_hh) + x_w),)
    return step


def _lstm_step(x_w, state, w_hh, b_hh, w_hr=None):
    h, c = state
    ingate, forgetgate, cellgate, outgate = (F.linear(h, w_hh, b_hh) + x_w).chunk(4, 1)
    c = sigmoid(forgetgate) * c + sigmoid(ingate) * tanh(cellgate)
    h = sigmoid(outgate) * tanh(c)
    return (h if w_hr is None else F.linear(h, w_hr), c)


def _gru_step(x_w, state, w_hh, b_hh, w_hr=None):
    h = state[0]
    i_reset, i_update, i_new = x_w.chunk(3, 1)
    h_reset, h_update, h_new = F.linear(h, w_hh, b_hh).chunk(3, 1)
    reset = sigmoid(h_reset + i_reset)
    update = sigmoid(h_update + i_update)
    new = tanh(i_new + h_new * reset)
    return ((h - new) * update + new,)


_STEPS = {"RNN_TANH": _simple_step(tanh), "RNN_RELU": _simple_step(F.relu), "LSTM": _lstm_step, "GRU": _gru_step}


def _run_direction(step, x_w, batch_sizes, state, weights, reverse):
    """The outputs of every step (in time order) and the final state of one direction."""
    full = batch_sizes[0]
    outputs = [None] * len(batch_sizes)
    for t in (reversed(range(len(batch_sizes))) if reverse else range(len(batch_sizes))):
        live = batch_sizes[t]
        new = step(x_w[t], state if live == full else tuple(s[:live] for s in state), *weights)
        outputs[t] = new[0]
        state = new if live == full else tuple(cat([n, s[live:]]) for n, s in zip(new, state))
    return cat(outputs), state


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the parameters, their checks, initialisation and repr."""

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}", stacklevel=2)
        for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                                  ("input_size", input_size, int)):
            if not isinstance(value, kind):
                raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
            for direction in range(num_directions):
                suffix = "_reverse" if direction == 1 else ""
                shapes = {"weight_ih": (gate_size, layer_input_size), "weight_hh": (gate_size, real_hidden_size)}
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size > 0:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                names = [f"{kind}_l{layer}{suffix}" for kind in shapes]
                for name, shape in zip(names, shapes.values()):
                    setattr(self, name, Parameter(_creation.empty(shape, dtype=dtype)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    @property
    def all_weights(self):
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self):
        """Packs the weights for cuDNN in PyTorch; on the CPU it does nothing, as there."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    # --- PyTorch's argument checks, with its messages ---

    def check_input(self, input, batch_sizes):
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). "
                             f"Convert input: input.to({weight_dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def _mini_batch(self, input, batch_sizes):
        if batch_sizes is not None:
            return int(batch_sizes[0])
        return input.size(0) if self.batch_first else input.size(1)

    def get_expected_hidden_size(self, input, batch_sizes):
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, self._mini_batch(input, batch_sizes), size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if tuple(hx.size()) != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        return hx if permutation is None else hx.index_select(1, permutation)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    # --- the computation ---

    def _zeros(self, input, batch, size):
        return _creation.zeros((self.num_layers * (2 if self.bidirectional else 1), batch, size), dtype=input.dtype)

    def _layer_weights(self, layer, direction):
        suffix = f"_l{layer}_reverse" if direction else f"_l{layer}"
        w_ih = getattr(self, "weight_ih" + suffix)
        b_ih = getattr(self, "bias_ih" + suffix) if self.bias else None
        b_hh = getattr(self, "bias_hh" + suffix) if self.bias else None
        w_hr = getattr(self, "weight_hr" + suffix) if self.proj_size > 0 else None
        return w_ih, b_ih, (getattr(self, "weight_hh" + suffix), b_hh, w_hr)

    def _run(self, data, batch_sizes, hx):
        """All layers over packed ``data`` (N, F); ``hx`` is the tuple of (L*D, B, *) initial
        states. Returns the last layer's packed output and the tuple of stacked final states."""
        step = _STEPS[self.mode]
        num_directions = 2 if self.bidirectional else 1
        finals = []
        for layer in range(self.num_layers):
            if layer > 0 and self.dropout != 0 and self.training:
                data = F.dropout(data, self.dropout, True)
            outputs = []
            for direction in range(num_directions):
                w_ih, b_ih, step_weights = self._layer_weights(layer, direction)
                x_w = F.linear(data, w_ih, b_ih).split(batch_sizes)
                state = tuple(h[layer * num_directions + direction] for h in hx)
                out, state = _run_direction(step, x_w, batch_sizes, state, step_weights, direction == 1)
                outputs.append(out)
                finals.append(state)
            data = outputs[0] if num_directions == 1 else cat(outputs, 1)
        return data, tuple(stack(parts) for parts in zip(*finals))

    def _apply_layers(self, input, hx, batch_sizes):
        """``(output, final states)`` for a checked 3-d input (``batch_sizes`` None) or packed data."""
        if batch_sizes is not None:
            return self._run(input, batch_sizes.tolist(), hx)
        x = input.transpose(0, 1) if self.batch_first else input
        steps, batch = x.shape[0], x.shape[1]
        if steps == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        out, finals = self._run(x.reshape(steps * batch, x.shape[2]), [batch] * steps, hx)
        out = out.reshape(steps, batch, out.shape[-1])
        return (out.transpose(0, 1) if self.batch_first else out), finals

    def _forward_h(self, input, hx, dim_message):
        """RNN's and GRU's forward: one state tensor ``h``."""
        orig_input = input
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                hx = self._zeros(input, int(batch_sizes[0]), self.hidden_size)
            else:
                hx = self.permute_hidden(hx, sorted_indices)
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.dim() not in (2, 3):
                raise ValueError(dim_message.format(input.dim()))
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
                if hx is not None:
                    if hx.dim() != 2:
                        raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D "
                                           "tensor")
                    hx = hx.unsqueeze(1)
            elif hx is not None and hx.dim() != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
            if hx is None:
                hx = self._zeros(input, self._mini_batch(input, None), self.hidden_size)
        self.check_forward_args(input, hx, batch_sizes)
        output, (hidden,) = self._apply_layers(input, (hx,), batch_sizes)
        if isinstance(orig_input, PackedSequence):
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        if not is_batched:
            return output.squeeze(batch_dim), hidden.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """``RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True,
    batch_first=False, dropout=0.0, bidirectional=False)``: ``h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)``."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_h(input, hx, "RNN: Expected input to be 2D or 3D, got {}D tensor instead")


class GRU(RNNBase):
    """``GRU(input_size, hidden_size, ...)``: reset r, update z, new n = tanh(x_n + r * h_n);
    ``h' = (1 - z) * n + z * h``."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        return self._forward_h(input, hx, "GRU: Expected input to be 2D or 3D, got {}D instead")


class LSTM(RNNBase):
    """``LSTM(input_size, hidden_size, ..., proj_size=0)``: state ``(h, c)``; with ``proj_size``,
    ``h`` is projected by ``weight_hr`` to ``proj_size`` features."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        return (self.num_layers * (2 if self.bidirectional else 1), self._mini_batch(input, batch_sizes),
                self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        orig_input = input
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        if isinstance(orig_input, PackedSequence):
            input, batch_sizes, sorted_indices, unsorted_indices = input
            batch = int(batch_sizes[0])
            if hx is None:
                hx = (self._zeros(input, batch, real_hidden_size), self._zeros(input, batch, self.hidden_size))
            else:
                hx = self.permute_hidden(hx, sorted_indices)
            self.check_forward_args(input, hx, batch_sizes)  # PyTorch leaves this check to its kernel
        else:
            batch_sizes = sorted_indices = unsorted_indices = None
            if input.dim() not in (2, 3):
                raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
            is_batched = input.dim() == 3
            batch_dim = 0 if self.batch_first else 1
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            if hx is None:
                batch = self._mini_batch(input, None)
                hx = (self._zeros(input, batch, real_hidden_size), self._zeros(input, batch, self.hidden_size))
            else:
                want = 3 if is_batched else 2
                if hx[0].dim() != want or hx[1].dim() != want:
                    kind = "batched 3-D input" if is_batched else "unbatched 2-D input"
                    raise RuntimeError(f"For {kind}, hx and cx should also be {want}-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                if not is_batched:
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
            self.check_forward_args(input, hx, batch_sizes)
        output, hidden = self._apply_layers(input, tuple(hx), batch_sizes)
        if isinstance(orig_input, PackedSequence):
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        if not is_batched:
            return output.squeeze(batch_dim), (hidden[0].squeeze(1), hidden[1].squeeze(1))
        return output, hidden


# --- cells: one time step -----------------------------------------------------------------------

class RNNCellBase(Module):
    """What the cells share: ``weight_ih`` (chunks*hidden, input), ``weight_hh``, the biases."""

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_creation.empty((num_chunks * hidden_size, input_size), dtype=dtype))
        self.weight_hh = Parameter(_creation.empty((num_chunks * hidden_size, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
            self.bias_hh = Parameter(_creation.empty(num_chunks * hidden_size, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _step(self, mode, input, state):
        """One checked step of ``mode`` on a batched input and state tuple (ATen's messages)."""
        if input.size(1) != self.weight_ih.size(1):
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected "
                               f"{self.weight_ih.size(1)}")
        for label, h in enumerate(state):
            if input.size(0) != h.size(0):
                raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size "
                                   f"{h.size(0)}")
            if h.size(1) != self.hidden_size:
                raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {h.size(1)}, expected "
                                   f"{self.hidden_size}")
        x_w = F.linear(input, self.weight_ih, self.bias_ih)
        return _STEPS[mode](x_w, state, self.weight_hh, self.bias_hh)

    def _unbatched_prepare(self, input, hx, name):
        """The batched input and state (zeros when ``hx`` is None), for RNNCell and GRUCell."""
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected hidden to be 1D or 2D, got {hx.dim()}D instead")
        if input.dim() == 1:
            input = input.unsqueeze(0)
            hx = None if hx is None else hx.unsqueeze(0)
        if hx is None:
            hx = _creation.zeros((input.size(0), self.hidden_size), dtype=input.dtype)
        return input, hx


class RNNCell(RNNCellBase):
    """``RNNCell(input_size, hidden_size, bias=True, nonlinearity='tanh')``: one step of RNN."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        is_batched = input.dim() == 2
        input, hx = self._unbatched_prepare(input, hx, "RNNCell")
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        (ret,) = self._step("RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU", input, (hx,))
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    """``LSTMCell(input_size, hidden_size, bias=True)``: one step of LSTM, ``(h, c) -> (h', c')``."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = _creation.zeros((input.size(0), self.hidden_size), dtype=input.dtype)
            hx = (zeros, zeros)
        elif not is_batched:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0))
        h, c = self._step("LSTM", input, tuple(hx))
        return (h, c) if is_batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """``GRUCell(input_size, hidden_size, bias=True)``: one step of GRU."""

    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, dtype=dtype)

    def forward(self, input, hx=None):
        is_batched = input.dim() == 2
        input, hx = self._unbatched_prepare(input, hx, "GRUCell")
        (ret,) = self._step("GRU", input, (hx,))
        return ret if is_batched else ret.squeeze(0)
