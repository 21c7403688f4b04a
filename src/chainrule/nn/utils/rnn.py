"""Variable-length batches for the recurrent layers: ``PackedSequence`` and its converters.

A packed batch stores only the real time steps, time-major: the rows of step 0 for every
sequence, then step 1 for those still running, and so on. ``batch_sizes[t]`` counts the
sequences alive at step ``t`` (sorted longest first), so a layer can run each step on the first
``batch_sizes[t]`` rows and never touch padding:

>>> x = pad_sequence([tensor([1, 2, 3]), tensor([4, 5])])   # (T=3, B=2), 0-padded
>>> p = pack_padded_sequence(x, [3, 2])
>>> p.data, p.batch_sizes
(tensor([1, 4, 2, 5, 3]), tensor([2, 2, 1]))
>>> pad_packed_sequence(p)[0].equal(x)
True

``enforce_sorted=False`` sorts the batch first and keeps the permutation
(``sorted_indices``) and its inverse (``unsorted_indices``), which the layers use to hand
results back in the caller's order. Everything is made of differentiable slices and
``cat``, so gradients flow from packed data back to the padded input.
"""
from collections.abc import Iterable
from typing import NamedTuple  # noqa: F401  (torch.nn.utils.rnn's namespace has it)

from ..._ops import creation as _creation
from ..._core import dtype as _dtype
from ..._ops.shape.joining import cat
from ..._ops.reduce.sorting import sort
from ..._core.tensor import Tensor
from .._packed_sequence import PackedSequence, PackedSequence_, invert_permutation  # noqa: F401  (PackedSequence_: torch's name here)

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]


def _lengths_tensor(lengths):
    if isinstance(lengths, Tensor):
        return lengths.to(dtype=_dtype.int64)
    return _creation.as_tensor(lengths, dtype=_dtype.int64, device="cpu")


def _pack(input, lengths, batch_first):
    """ATen's ``_pack_padded_sequence``: for each run of steps with the same number of live
    sequences, the (steps, live) block of the time-major input, flattened and joined."""
    if batch_first:
        input = input.transpose(0, 1)
    if lengths.dim() != 1 or lengths.dtype != _dtype.int64:
        raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got {lengths.dim()}D cpu "
                           "Long tensor")
    batch_size = input.size(1)
    if input.numel() <= 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if lengths.size(0) != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lengths.size(0)} "
                           f"(batch_size={batch_size})")
    values = lengths.tolist()
    if values[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    if any(later > earlier for earlier, later in zip(values, values[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You "
                           "can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                           "sidestep this requirement if you do not need ONNX exportability.")
    blocks, batch_sizes, done = [], [], 0
    for live in range(batch_size, 0, -1):
        length = values[live - 1]
        if length > done:
            block = input[done:length, :live]  # clamps at the input's end, as ATen's slice does
            blocks.append(block.reshape((-1,) + tuple(input.shape[2:])))
            batch_sizes += [live] * (length - done)
            done = length
    return cat(blocks), _creation.tensor(batch_sizes, dtype=_dtype.int64)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded (T, B, *) batch (``batch_first``: (B, T, *)) of sequences of ``lengths``."""
    lengths = _lengths_tensor(lengths)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack(input, lengths, batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of ``pack_padded_sequence``: ``(padded, lengths)``, padded to the longest
    sequence or to ``total_length``, in the caller's original batch order."""
    batch_sizes = sequence.batch_sizes.tolist()
    max_seq_length = len(batch_sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {max_seq_length}")
        max_seq_length = total_length
    data = sequence.data
    batch = batch_sizes[0]
    padded = _creation.full((max_seq_length, batch) + tuple(data.shape[1:]), padding_value, dtype=data.dtype)
    start = 0
    for step, live in enumerate(batch_sizes):
        padded[step, :live].copy_(data[start:start + live])
        start += live
    lengths = _creation.tensor([sum(live > b for live in batch_sizes) for b in range(batch)], dtype=_dtype.int64)
    if batch_first:
        padded = padded.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        return (padded.index_select(0 if batch_first else 1, sequence.unsorted_indices),
                lengths[sequence.unsorted_indices])
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stacks sequences of shapes (L_i, *) into (max L, B, *) (``batch_first``: (B, max L, *)),
    filling with ``padding_value`` after each (``padding_side='left'``: before)."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    first = sequences[0]
    max_len = max(s.size(0) for s in sequences)
    shape = (len(sequences), max_len) if batch_first else (max_len, len(sequences))
    out = _creation.full(shape + tuple(first.shape[1:]), padding_value, dtype=first.dtype)
    for i, seq in enumerate(sequences):
        length = seq.size(0)
        start = max_len - length if padding_side == "left" else 0
        out.select(0 if batch_first else 1, i).narrow(0, start, length).copy_(seq)
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The list of sequences in a padded batch, each cut to its length. As in PyTorch,
    a time-major ``padded_sequences`` is transposed in place."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = _creation.arange(padded_sequences.shape[1])
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=True)]


def pack_sequence(sequences, enforce_sorted=True):
    """``pack_padded_sequence(pad_sequence(sequences), lengths)`` for a list of (L_i, *) tensors."""
    lengths = _creation.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences in a ``PackedSequence``, in their original order."""
    padded_sequences, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded_sequences, lengths, batch_first=True)

