"""Random sampling: in-place fills (``uniform_``, ``normal_``, ``bernoulli_``...),
``bernoulli``, ``multinomial``, ``normal`` with tensor arguments and ``randperm``.

Every draw comes from a ``Generator`` (``default_generator`` unless ``generator=`` names
another) through PyTorch's own CPU kernels (``_distributions.py``), so after ``manual_seed``
each function gives exactly PyTorch's numbers and leaves the generator in PyTorch's state.

A random result does not depend on the values it replaces or is parametrised by, so every
gradient here is zero. PyTorch still records a node when the tensor is part of a graph
(``y.uniform_()`` gives ``UniformBackward0``), and so do these ops. Each op takes the draw
as a parameter, so the op itself is deterministic (``x, sample -> sample``) and its rules
can be checked like any other:

>>> y = x * 2          # x requires grad
>>> y.normal_()        # y.grad_fn is NormalBackward0; x.grad will be zeros
"""
import math
import operator

import numpy as np

from .._core import dtype as _dtype
from . import random_kernels as kernels
from .creation import _finish, _generator, _size
from .._core.modes import VMAP
from .._core.tensor import Tensor, _wrap
from .pointwise.elementwise import zeros_like
from .inplace import apply_inplace
from .batching import any_batched, batched_by, has_values, on_batch, random_per_sample
from . import batching
from .registry import apply, defop, unary

# --- the ops: the draw replaces the input, with a zero gradient -------------------------------


def _drawn(*arrays_and_sample):
    return arrays_and_sample[-1]


def _fill_rules(node):
    """A fill of one tensor: the output has its shape, every gradient is zero."""
    return dict(node=node, vjp=lambda g: zeros_like(g), jvp=lambda t: zeros_like(t), elementwise=True)


def _two_input_rules(node):
    """A draw parametrised by two tensors (both get a zero gradient; the engine reduces
    broadcast ones to their shapes)."""
    return dict(node=node, vjp=(lambda g: zeros_like(g), lambda g: zeros_like(g)),
                jvp=(lambda t: zeros_like(t), lambda t: zeros_like(t)))


UNIFORM = defop("uniform", _drawn, **_fill_rules("UniformBackward0"))
NORMAL_FILL = defop("normal_fill", _drawn, **_fill_rules("NormalBackward0"))
EXPONENTIAL = defop("exponential", _drawn, **_fill_rules("ExponentialBackward0"))
CAUCHY = defop("cauchy", _drawn, **_fill_rules("CauchyBackward0"))
LOG_NORMAL = defop("log_normal", _drawn, **_fill_rules("LogNormalBackward0"))
GEOMETRIC = defop("geometric", _drawn, **_fill_rules("GeometricBackward0"))
RANDOM_FROM_TO = defop("random_from_to", _drawn, **_fill_rules("RandomBackward0"))
RANDOM_TO = defop("random_to", _drawn, **_fill_rules("RandomBackward1"))
RANDOM = defop("random", _drawn, **_fill_rules("RandomBackward2"))
BERNOULLI_FILL = defop("bernoulli_fill", _drawn, **_fill_rules("BernoulliBackward2"))
BERNOULLI_FILL_TENSOR = defop("bernoulli_fill_tensor", _drawn, **_two_input_rules("BernoulliBackward1"))
BERNOULLI = defop("bernoulli", _drawn, **_fill_rules("BernoulliBackward0"))
NORMAL_MEAN = defop("normal_mean", _drawn, **_fill_rules("NormalBackward1"))
NORMAL_STD = defop("normal_std", _drawn, **_fill_rules("NormalBackward2"))
NORMAL_MEAN_STD = defop("normal_mean_std", _drawn, **_two_input_rules("NormalBackward3"))
POISSON = defop("poisson", _drawn, **_fill_rules("PoissonBackward0"))


def _fill(self, op, sample, *others):
    """``self`` overwritten in place by ``sample`` (cast to its dtype), recorded as ``op``."""
    sample = np.asarray(sample).astype(self._data.dtype, copy=False)
    return apply_inplace(self, lambda old, *rest: apply(op, (old, *rest), (sample,)), *others)


# --- argument checks, with PyTorch's messages -------------------------------------------------


def _number(value):
    """A number as C++ streams it (6 significant digits: 1, 0.5, 1e-07)."""
    return f"{value:g}"


def _type_name(t):
    return _dtype._LEGACY_NAMES[t.dtype.name]


def _floating_only(self, kernel):
    if self._data.dtype.kind != "f":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(self)}'")


def _continuous_only(self, distribution, cpp_name):
    if self._data.dtype.kind != "f":
        name = _dtype._C_TYPE_NAMES[self.dtype.name] if cpp_name else _type_name(self)
        raise RuntimeError(f"{distribution} distribution is a continuous probability distribution. dtype must be "
                           f"a floating point but you specified {name}")


def draw_in_memory_order(data, draw, like=None):
    """``draw(n)`` (a 1-d array) shaped as the array ``data``, its values laid in ``data``'s
    memory order: PyTorch's iterator walks a transposed tensor along its memory, and a
    tensor made ``empty_like`` another keeps its strides. ``like``: an array of ``data``'s
    shape to hand to ``draw`` in that same order, instead of a count."""
    if data.flags.c_contiguous or data.ndim < 2:
        return draw(data.size if like is None else like).reshape(data.shape)
    order = sorted(range(data.ndim), key=lambda d: -data.strides[d])  # outermost first
    argument = data.size if like is None else like.transpose(order)
    return draw(argument).reshape([data.shape[d] for d in order]).transpose(np.argsort(order))


def _draw_like(self, draw, *, like=None):
    return draw_in_memory_order(self._data, draw, like)


def _contiguous(self):
    return self._data.flags.c_contiguous


# --- in-place fills (Tensor methods) ------------------------------------------------------------


def uniform_(self, from_=0, to=1, *, generator=None, **kwargs):
    """Fills ``self`` with draws from U[from, to) (``from`` is a keyword too)."""
    from_ = kwargs.pop("from", from_)
    _no_other_keywords("uniform_", kwargs)
    _floating_only(self, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={_number(from_)} > "
                           f"to={_number(to)}")
    gen, dtype = _generator(generator), self._data.dtype
    return _fill(self, UNIFORM, _draw_like(self, lambda n: kernels.uniform(gen, n, dtype, from_, to)))


def normal_(self, mean=0, std=1, *, generator=None):
    """Fills ``self`` with draws from N(mean, std²)."""
    _floating_only(self, "normal_kernel_cpu")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
    gen, dtype = _generator(generator), self._data.dtype
    contiguous = _contiguous(self)
    return _fill(self, NORMAL_FILL, _draw_like(self, lambda n: kernels.normal(gen, n, dtype, mean, std, contiguous)))


def exponential_(self, lambd=1, *, generator=None):
    """Fills ``self`` with draws from the exponential distribution of rate ``lambd``."""
    _continuous_only(self, "Exponential", cpp_name=False)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_number(lambd)}")
    gen = _generator(generator)
    return _fill(self, EXPONENTIAL, _draw_like(self, lambda n: kernels.exponential(gen, n, lambd)))


def cauchy_(self, median=0, sigma=1, *, generator=None):
    """Fills ``self`` with draws from the Cauchy distribution."""
    _continuous_only(self, "Cauchy", cpp_name=True)
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_number(sigma)}")
    gen = _generator(generator)
    return _fill(self, CAUCHY, _draw_like(self, lambda n: kernels.cauchy(gen, n, median, sigma)))


def log_normal_(self, mean=1, std=2, *, generator=None):
    """Fills ``self`` with exp(N(mean, std²)) draws."""
    _floating_only(self, "log_normal_cpu")
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_number(std)}")
    gen = _generator(generator)
    return _fill(self, LOG_NORMAL, _draw_like(self, lambda n: kernels.log_normal(gen, n, mean, std)))


def geometric_(self, p, *, generator=None):
    """Fills ``self`` with the number of Bernoulli(p) trials up to the first success."""
    if self._data.dtype.kind == "b":
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_number(p)}")
    gen = _generator(generator)
    return _fill(self, GEOMETRIC, _draw_like(self, lambda n: kernels.geometric(gen, n, p)))


def _random_bounds(self, low, high):
    """[low, high) for random_, checked against the dtype; ``high`` None: up to the dtype's
    maximum, which for floats is 2**digits (past it, not every integer is representable)."""
    dtype = self._data.dtype
    if dtype.kind == "f":
        return low, (2 ** (np.finfo(dtype).nmant + 1) + 1 if high is None else high)
    dtype_low, dtype_high = (0, 1) if dtype.kind == "b" else (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
    if not dtype_low <= low <= dtype_high:
        raise RuntimeError(f"from is out of bounds for {_dtype._C_TYPE_NAMES[self.dtype.name]}")
    if high is None:
        return low, dtype_high + 1
    if not dtype_low <= high - 1 <= dtype_high:
        raise RuntimeError(f"to - 1 is out of bounds for {_dtype._C_TYPE_NAMES[self.dtype.name]}")
    return low, high


def _no_other_keywords(name, kwargs):
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")


def random_(self, *args, generator=None, **kwargs):
    """``random_()``: integers over the dtype's range; ``random_(to)``: [0, to);
    ``random_(from, to)``: [from, to), up to the dtype's maximum where ``to`` is None."""
    if len(args) == 2 or (len(args) == 1 and "to" in kwargs):
        low, high, op = args[0], args[1] if len(args) == 2 else kwargs.pop("to"), RANDOM_FROM_TO
    elif "from" in kwargs:
        low, high, op = kwargs.pop("from"), kwargs.pop("to", None), RANDOM_FROM_TO
    elif args or "to" in kwargs:
        low, high, op = 0, args[0] if args else kwargs.pop("to"), RANDOM_TO
    else:
        low, high, op = 0, None, RANDOM
    _no_other_keywords("random_", kwargs)
    if high is not None and low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    gen, dtype = _generator(generator), self._data.dtype
    if op is RANDOM:
        return _fill(self, op, _draw_like(self, lambda n: kernels.random_default(gen, n, dtype)))
    low, high = _random_bounds(self, low, high)
    if low == -2 ** 63 and high == 2 ** 63:  # the whole int64 range: one 64-bit draw each
        return _fill(self, op, _draw_like(self, lambda n: kernels.random_full_range(gen, n, dtype)))
    return _fill(self, op, _draw_like(self, lambda n: kernels.random_from_to(gen, n, low, high - low, dtype)))


def _check_probabilities(p):
    if not has_values(p):  # under vmap the batched probabilities are checked by nobody (PyTorch too)
        return
    if ((p < 0) | (p > 1)).any() or np.isnan(p).any():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be "
                           "improved?  If so, please report an enhancement request to PyTorch.)")


_SAME_BATCHED = ("Vmap does not currently support same randomness with a batched tensor input. Please file an "
                 "issue with functorch")
_INPLACE_BATCHED_P = ("vmap: inplace bernoulli(self, *extra_args) is not possible because there exists a Tensor "
                      "`other` in extra_args that has more elements than `self`. This happened due to `other` being "
                      "vmapped over but `self` not being vmapped over in a vmap. Please try to use out-of-place "
                      "operators instead of inplace bernoulli. If said operator is being called inside the PyTorch "
                      "framework, please file a bug report instead.")


def _randomness(tensors):
    """The ``randomness`` of the innermost vmap batching one of ``tensors`` (an ``'error'``
    anywhere refuses the draw)."""
    return VMAP.randomness(tensors)


def _draw_batch(fn, *tensors):
    """A draw parametrised by batched tensors, under vmap: ``randomness='different'`` draws
    for the whole batch at once (``fn`` of the batch, see ``on_batch``); ``'same'`` is
    refused, as PyTorch refuses it.

    >>> vmap(torch.bernoulli, randomness="different")(p)   # one draw of p's (B, ...) shape
    """
    if _randomness(tensors) == "same":
        raise RuntimeError(_SAME_BATCHED)
    return on_batch(fn, *tensors)


def _bernoulli_batched(self, p, generator):
    if any_batched(p):
        if _randomness((self, p)) == "same":
            raise RuntimeError(_SAME_BATCHED)
        if not any_batched(self):
            raise RuntimeError(_INPLACE_BATCHED_P)
        on_batch(lambda s, q: bernoulli_(s, batching.pad(q, s._data.ndim - 1), generator=generator), self, p)
        return self
    if _randomness((self,)) == "different":
        on_batch(lambda s: bernoulli_(s, p, generator=generator), self)  # each sample its own draw
        return self
    return NotImplemented  # 'same': one draw of a sample's shape fills every sample


@batched_by(_bernoulli_batched)
def bernoulli_(self, p=0.5, *, generator=None):
    """Fills ``self`` with 1 (probability ``p``, a number or a tensor that broadcasts) or 0."""
    gen = _generator(generator)
    if isinstance(p, Tensor):
        probabilities = p.detach().expand(self.shape)._data
        _check_probabilities(probabilities)
        sample = _draw_like(self, lambda q: kernels.bernoulli_tensor(gen, np.asarray(q, order="C")),
                            like=probabilities)
        return _fill(self, BERNOULLI_FILL_TENSOR, sample, p)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_number(p)}")
    return _fill(self, BERNOULLI_FILL, _draw_like(self, lambda n: kernels.bernoulli_scalar(gen, n, p)))


# --- sampling functions -------------------------------------------------------------------------


@batched_by(lambda input, p, generator, out: _draw_batch(lambda x: bernoulli(x, p, generator=generator, out=out),
                                                         input), when=("input",))
def bernoulli(input, p=None, *, generator=None, out=None):
    """0 or 1 per element, 1 with probability ``input`` (or ``p`` for every element)."""
    gen = _generator(generator)
    if p is not None:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_number(p)}")
        # PyTorch records no rule here (NotImplemented): the result is a plain tensor
        return _wrap(_draw_like(input, lambda n: kernels.bernoulli_scalar(gen, n, p)).astype(input._data.dtype))
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_type_name(input)}'")
    _check_probabilities(input._data)
    # PyTorch's result is a new contiguous tensor, drawn in its (logical) order
    sample = kernels.bernoulli_tensor(gen, np.asarray(input._data, order="C")).astype(input._data.dtype)
    return unary(BERNOULLI, input, (sample,))


@batched_by(lambda input, num_samples, replacement, generator, out: random_per_sample(
    multinomial, input, num_samples, replacement, generator=generator, out=out), when=("input",))
def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """``num_samples`` category indices per row of (unnormalised) probabilities ``input``;
    without replacement, each category at most once (the exponential-race method:
    the smallest of E_i / p_i, E_i ~ Exp(1), as PyTorch does)."""
    if not isinstance(num_samples, int) or isinstance(num_samples, bool):
        raise TypeError(f"multinomial(): argument 'num_samples' (position 2) must be int, not "
                        f"{type(num_samples).__name__}")
    p = input._data
    if p.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if p.dtype.kind != "f":
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: {_type_name(input)}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    n_categories = p.shape[-1]
    if not replacement and num_samples > n_categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    rows = p.reshape(-1, n_categories)
    if rows.shape[0] == 0:
        return _wrap(np.zeros(p.shape[:-1] + (num_samples,), np.int64))
    if not np.isfinite(rows).all() or (rows < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    gen = _generator(generator)
    if replacement and num_samples > 1:
        picks = kernels.multinomial_with_replacement(gen, rows, num_samples)
    else:
        # the largest p / q, q ~ Exp(1): argmax for one sample, the top k for more
        noise = kernels.exponential(gen, rows.size, 1.0).astype(rows.dtype).reshape(rows.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            keys = rows / noise
        picks = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    return _wrap(picks.reshape(p.shape[:-1] + (num_samples,)).astype(np.int64))


def _normal_batched(mean, std, size, generator, out, dtype, layout, device, pin_memory, requires_grad):
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]

    def draw(*batch):  # the batch of each tensor argument, ranks aligned as broadcasting would
        ndim = max(b._data.ndim for b in batch) - 1
        batch = iter(batch)
        m, s = [batching.pad(next(batch), ndim) if isinstance(a, Tensor) else a for a in (mean, std)]
        return normal(m, s, size, generator=generator, out=out, dtype=dtype, layout=layout, device=device,
                      pin_memory=pin_memory, requires_grad=requires_grad)
    return _draw_batch(draw, *tensors)


@batched_by(_normal_batched, when=("mean", "std"))
def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           pin_memory=False, requires_grad=False):
    """Draws from N(mean, std²): of ``size`` for numbers, else of the tensors' broadcast
    shape, recorded (zero gradient) when a tensor argument requires grad."""
    gen = _generator(generator)
    mean_is_tensor, std_is_tensor = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not (mean_is_tensor or std_is_tensor):
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got (float, float), but "
                            "expected (float mean, float std, tuple of ints size)")
        shape = _size("normal", (size,))
        dtype = dtype if dtype is not None else _dtype.get_default_dtype()
        sample = kernels.normal(gen, math.prod(shape), dtype.np, mean, std).reshape(shape)
        return _finish(sample, dtype, requires_grad, device)
    if std_is_tensor:
        if (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
    # PyTorch draws normal_(0, 1) (normal_(0, std) for a number std) over the result, then
    # multiplies by a tensor std and adds the mean, each step rounded in the result's dtype
    if mean_is_tensor and std_is_tensor:
        result = _dtype.result_dtype((mean, std)).np
        shape = np.broadcast_shapes(mean._data.shape, std._data.shape)
        sample = kernels.normal(gen, math.prod(shape), result, 0.0, 1.0).reshape(shape)
        sample = (sample * std._data.astype(result)).astype(result) + mean._data.astype(result)
        return apply(NORMAL_MEAN_STD, (mean, std), (sample.astype(result),))
    like = mean if mean_is_tensor else std
    if like._data.dtype.kind != "f":
        raise NotImplementedError(f"\"normal_kernel_cpu\" not implemented for '{_type_name(like)}'")
    dtype, shape = like._data.dtype, like._data.shape
    if mean_is_tensor:
        sample = kernels.normal(gen, like._data.size, dtype, 0.0, std).reshape(shape) + mean._data
    else:
        sample = kernels.normal(gen, like._data.size, dtype, 0.0, 1.0).reshape(shape) * std._data + dtype.type(mean)
    return unary(NORMAL_MEAN if mean_is_tensor else NORMAL_STD, like, (sample.astype(dtype),))


@batched_by(lambda input, generator: _draw_batch(lambda x: poisson(x, generator), input), when=("input",))
def poisson(input, generator=None):
    """Poisson counts with the rates in ``input``, drawn element by element as PyTorch's
    sample_poisson (the result keeps the rates' dtype)."""
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{_type_name(input)}'")
    rates = np.asarray(input._data, order="C")  # PyTorch's result is a new contiguous tensor
    if has_values(rates) and not (rates >= 0).all():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return unary(POISSON, input, (kernels.poisson(_generator(generator), rates),))


def randperm(n, *, generator=None, out=None, dtype=None, layout=None, device=None, pin_memory=False,
             requires_grad=False):
    """A random permutation of 0 .. n - 1 (int64 unless ``dtype`` says otherwise)."""
    if not hasattr(n, "__index__"):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    n = operator.index(n)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    dtype = dtype if dtype is not None else _dtype.int64
    if dtype is _dtype.bool_:
        raise NotImplementedError("\"randperm\" not implemented for 'Bool'")
    if dtype is _dtype.float16 and n > 2049:
        raise RuntimeError("n cannot be greater than 2049 for Half type.")
    if dtype.np.kind in "iu" and n > 0 and n - 1 > np.iinfo(dtype.np).max:
        ctype = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t"}[dtype.name]
        raise RuntimeError(f"value cannot be converted to type {ctype} without overflow")
    return _finish(kernels.randperm(_generator(generator), n), dtype, requires_grad, device)


# --- Tensor methods ----------------------------------------------------------------------------


def _bernoulli_method(self, p=None, *, generator=None):
    return bernoulli(self, p, generator=generator)


def _multinomial_method(self, num_samples, replacement=False, *, generator=None):
    return multinomial(self, num_samples, replacement, generator=generator)


Tensor.uniform_ = uniform_
Tensor.normal_ = normal_
Tensor.exponential_ = exponential_
Tensor.cauchy_ = cauchy_
Tensor.log_normal_ = log_normal_
Tensor.geometric_ = geometric_
Tensor.random_ = random_
Tensor.bernoulli_ = bernoulli_
Tensor.bernoulli = _bernoulli_method
Tensor.multinomial = _multinomial_method
