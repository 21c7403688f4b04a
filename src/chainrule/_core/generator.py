"""PyTorch's CPU random generator, bit for bit: a 32-bit Mersenne Twister and its state.

PyTorch's ``CPUGeneratorImpl`` is the standard MT19937 seeded with ``init_genrand(seed &
0xffffffff)``; a 64-bit draw is two 32-bit draws, the first in the high word. NumPy's
``MT19937`` bit generator computes the same stream once its state is set directly (its own
seeding differs), so this module keeps PyTorch's bookkeeping (the seed, the cached normal
values, ``left``/``next``) and lets NumPy run the twister:

>>> g = Generator().manual_seed(0)
>>> int(draw_uint32(g, 1)[0])            # the first word of MT19937 seeded with 0
2357136044

The distributions built on these words live in ``_distributions.py``.
"""
import os
import struct

import numpy as np

from .tensor import Tensor, _wrap, device

DEFAULT_SEED = 67280421310721  # what a new torch.Generator() starts from
_STATE_N = 624
# CPUGeneratorImplState as PyTorch lays it out in memory (x86-64, little-endian):
# seed u64, left i32, seeded i32, next u64, state u64[624], normal_x/y/rho f64, normal_is_valid i32
# (+4 padding), next_float_normal_sample f32, is_next_float_normal_sample_valid bool (+3 padding).
_STATE_LAYOUT = struct.Struct(f"<QiiQ{_STATE_N}Qdddi4xf?3x")
STATE_SIZE = _STATE_LAYOUT.size  # 5056


def _init_genrand(seed):
    """MT19937's standard seeding of its 624 words from a 32-bit seed."""
    key = [seed & 0xFFFFFFFF]
    for j in range(1, _STATE_N):
        previous = key[-1]
        key.append((1812433253 * (previous ^ (previous >> 30)) + j) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


def _uint64_seed(seed):
    """A seed as PyTorch's ``manual_seed`` takes it: any int in [-2**63, 2**64), negative
    numbers wrapping to their two's complement."""
    seed = int(seed)
    if not -2 ** 63 <= seed < 2 ** 64:
        raise ValueError("Overflow when unpacking long long")
    return seed & 0xFFFFFFFFFFFFFFFF


class Generator:
    """``torch.Generator``: PyTorch's CPU generator and its byte-exact state.

    >>> g = Generator().manual_seed(0)
    >>> chainrule.rand(2, generator=g)       # what torch.rand(2, generator=g) gives
    tensor([0.4963, 0.7682])
    """

    __slots__ = ("_twister", "_words", "_waiting_state", "_seed", "_next_double_normal", "_next_float_normal",
                 "_pristine_next")

    def __init__(self, device="cpu"):
        if str(device) != "cpu":
            raise RuntimeError(f"Device type {str(device).split(':')[0].upper()} is not supported for torch.Generator() "
                               "api.")
        self._twister = self._words = None
        self.manual_seed(DEFAULT_SEED)

    @property
    def device(self):
        return device("cpu")

    def manual_seed(self, seed):
        self._seed = _uint64_seed(seed)
        self._set_words(_init_genrand(self._seed), left=1, next_=0)
        self._next_double_normal = self._next_float_normal = None
        return self

    def seed(self):
        """Seeds from the operating system's entropy, as PyTorch does, and returns the seed."""
        self.manual_seed(int.from_bytes(os.urandom(8), "little"))
        return self._seed

    def initial_seed(self):
        return self._seed

    def get_state(self):
        """The state as PyTorch's 5056-byte ``ByteTensor``, byte for byte."""
        return _wrap(np.frombuffer(self._state_bytes(), dtype=np.uint8).copy())

    def set_state(self, new_state):
        if not isinstance(new_state, Tensor) or new_state._data.dtype != np.uint8:
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state._data.size != STATE_SIZE:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the input RNG state "
                               f"size to be {new_state._data.size}")
        self._load_state_bytes(np.ascontiguousarray(new_state._data).tobytes())
        return self

    def get_offset(self):
        raise RuntimeError("CPU Generator does not use offset")

    def set_offset(self, offset):
        raise RuntimeError("CPU Generator does not use offset")

    def clone_state(self):
        clone = Generator()
        clone._load_state_bytes(self._state_bytes())
        return clone

    # --- PyTorch's bookkeeping around NumPy's twister ------------------------------------

    def _set_words(self, key, left, next_):
        """Installs 624 words with PyTorch's ``left``/``next`` counters. PyTorch twists when
        ``left`` reaches 0 after a decrement (so ``left == 1`` means: twist before the next
        word); NumPy twists when ``pos == 624``."""
        pos = _STATE_N if left == 1 else next_
        self._waiting_state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        if self._twister is not None:
            self._twister.state = self._waiting_state
        # a state just set with left == 1 keeps its own `next` until a word is drawn
        self._pristine_next = next_ if left == 1 else None

    def _engine(self):
        """NumPy's generator over the twister, made on the first draw: numpy.random costs
        7 MB of memory, which a program that never draws need not pay."""
        if self._words is None:
            import numpy.random  # noqa: PLC0415  (on first use, see above)
            self._twister = numpy.random.MT19937()
            self._twister.state = self._waiting_state
            self._words = numpy.random.Generator(self._twister)
        return self._words

    def _twister_state(self):
        return self._waiting_state["state"] if self._twister is None else self._twister.state["state"]

    def _counters(self):
        pos = self._twister_state()["pos"]
        if pos == _STATE_N:
            return 1, (_STATE_N if self._pristine_next is None else self._pristine_next)
        return _STATE_N + 1 - pos, pos

    def _state_bytes(self):
        key = self._twister_state()["key"]
        left, next_ = self._counters()
        double_valid = self._next_double_normal is not None
        float_valid = self._next_float_normal is not None
        return _STATE_LAYOUT.pack(self._seed, left, 1, next_, *key.tolist(), 0.0,
                                  self._next_double_normal if double_valid else 0.0, 0.0, int(double_valid),
                                  self._next_float_normal if float_valid else 0.0, float_valid)

    def _load_state_bytes(self, raw):
        fields = _STATE_LAYOUT.unpack(raw)
        seed, left, seeded, next_ = fields[:4]
        words = fields[4:4 + _STATE_N]
        normal_y, normal_is_valid, float_sample, float_valid = fields[-5], fields[-3], fields[-2], fields[-1]
        if not (seeded and 0 < left <= _STATE_N and next_ <= _STATE_N):
            raise RuntimeError("Invalid mt19937 state")
        self._seed = seed
        self._set_words(np.array(words, dtype=np.uint64).astype(np.uint32), left, next_)
        self._next_double_normal = normal_y if normal_is_valid else None
        self._next_float_normal = float_sample if float_valid else None

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"


def draw_uint32(generator, n):
    """``n`` 32-bit words, as ``generator->random()`` gives them one by one (uint32 array).
    NumPy's full-range uint32 integers take exactly one word each, in order."""
    if n:
        generator._pristine_next = None
    return generator._engine().integers(0, 2 ** 32, n, dtype=np.uint32)


def draw_uint64(generator, n):
    """``n`` 64-bit words, as ``generator->random64()``: two words, the first the high half."""
    pairs = draw_uint32(generator, 2 * n).view(np.uint64)  # (first, second) words in memory order
    if not np.little_endian:
        return pairs
    return (pairs << np.uint64(32)) | (pairs >> np.uint64(32))


default_generator = Generator()
default_generator.seed()  # PyTorch seeds its default generator from the OS at start-up
