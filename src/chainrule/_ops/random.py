"""Random sampling: in-place fills (``uniform_``, ``normal_``, ``bernoulli_``...),
``bernoulli``, ``multinomial``, ``normal`` with tensor arguments and ``randperm``.

Every draw comes from a ``Generator`` (``default_generator`` unless ``generator=`` names
another), so ``manual_seed`` makes a program repeatable; the values differ from PyTorch's.

A random result does not depend on the values it replaces or is parametrised by, so every
gradient here is zero. PyTorch still records a node when the tensor is part of a graph
(``y.uniform_()`` gives ``UniformBackward0``), and so do these ops. Each op takes the draw
as a parameter, so the op itself is deterministic (``x, sample -> sample``) and its rules
can be checked like any other:

>>> y = x * 2          # x requires grad
>>> y.normal_()        # y.grad_fn is NormalBackward0; x.grad will be zeros
"""
import operator

import numpy as np

from .. import _dtype
from .._creation import _finish, _rng, _size
from .._tensor import Tensor, _wrap
from .elementwise import zeros_like
from .inplace import apply_inplace
from .batching import any_batched, has_values, on_batch, random_per_sample
from . import registry
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


_CPP_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
              "uint8": "unsigned char", "bool": "bool", "float16": "c10::Half", "float32": "float",
              "float64": "double"}


def _continuous_only(self, distribution, cpp_name):
    if self._data.dtype.kind != "f":
        name = _CPP_NAMES[self.dtype.name] if cpp_name else _type_name(self)
        raise RuntimeError(f"{distribution} distribution is a continuous probability distribution. dtype must be "
                           f"a floating point but you specified {name}")


def _uniform_draw(rng, shape, dtype, low, high):
    """Uniform on [low, high) in ``dtype``; a value that rounds up to ``high`` is moved below it."""
    np_dtype = dtype if dtype in (np.float32, np.float64) else np.float64
    u = rng.random(shape, dtype=np_dtype)
    x = (low + (high - low) * u).astype(dtype, copy=False)
    return np.minimum(x, np.nextafter(dtype.type(high), dtype.type(low))) if high > low else x


# --- in-place fills (Tensor methods) ------------------------------------------------------------


def uniform_(self, from_=0, to=1, *, generator=None, **kwargs):
    """Fills ``self`` with draws from U[from, to) (``from`` is a keyword too)."""
    from_ = kwargs.pop("from", from_)
    _no_other_keywords("uniform_", kwargs)
    _floating_only(self, "check_uniform_bounds")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={_number(from_)} > "
                           f"to={_number(to)}")
    return _fill(self, UNIFORM, _uniform_draw(_rng(generator), self._data.shape, self._data.dtype, from_, to))


def normal_(self, mean=0, std=1, *, generator=None):
    """Fills ``self`` with draws from N(mean, std²)."""
    _floating_only(self, "normal_kernel_cpu")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
    return _fill(self, NORMAL_FILL, _rng(generator).normal(mean, std, self._data.shape))


def exponential_(self, lambd=1, *, generator=None):
    """Fills ``self`` with draws from the exponential distribution of rate ``lambd``."""
    _continuous_only(self, "Exponential", cpp_name=False)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_number(lambd)}")
    return _fill(self, EXPONENTIAL, _rng(generator).exponential(1.0, self._data.shape) / lambd)


def cauchy_(self, median=0, sigma=1, *, generator=None):
    """Fills ``self`` with draws from the Cauchy distribution."""
    _continuous_only(self, "Cauchy", cpp_name=True)
    if not sigma > 0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_number(sigma)}")
    return _fill(self, CAUCHY, median + sigma * _rng(generator).standard_cauchy(self._data.shape))


def log_normal_(self, mean=1, std=2, *, generator=None):
    """Fills ``self`` with exp(N(mean, std²)) draws."""
    _floating_only(self, "log_normal_cpu")
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_number(std)}")
    return _fill(self, LOG_NORMAL, _rng(generator).lognormal(mean, std, self._data.shape))


def geometric_(self, p, *, generator=None):
    """Fills ``self`` with the number of Bernoulli(p) trials up to the first success."""
    if self._data.dtype.kind == "b":
        raise NotImplementedError("\"geometric_cpu\" not implemented for 'Bool'")
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_number(p)}")
    return _fill(self, GEOMETRIC, _rng(generator).geometric(p, self._data.shape))


def _random_bounds(self, low, high):
    """[low, high) for random_, checked against the dtype; ``high`` None: up to the dtype's
    maximum, which for floats is 2**digits (past it, not every integer is representable)."""
    dtype = self._data.dtype
    if dtype.kind == "f":
        return low, (2 ** (np.finfo(dtype).nmant + 1) + 1 if high is None else high)
    dtype_low, dtype_high = (0, 1) if dtype.kind == "b" else (int(np.iinfo(dtype).min), int(np.iinfo(dtype).max))
    if not dtype_low <= low <= dtype_high:
        raise RuntimeError(f"from is out of bounds for {_CPP_NAMES[self.dtype.name]}")
    if high is None:
        return low, dtype_high + 1
    if not dtype_low <= high - 1 <= dtype_high:
        raise RuntimeError(f"to - 1 is out of bounds for {_CPP_NAMES[self.dtype.name]}")
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
    low, high = _random_bounds(self, low, high)
    return _fill(self, op, _rng(generator).integers(low, high, self._data.shape))


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
    from .._functorch import batched  # noqa: PLC0415  (vmap builds on the ops)
    batched.check_randomness()
    level = max(t._level for t in tensors if t.__class__ is batched.BatchedTensor)
    return batched.LEVELS[level - 1][1]


def _draw_batch(fn, *tensors):
    """A draw parametrised by batched tensors, under vmap: ``randomness='different'`` draws
    for the whole batch at once (``fn`` of the batch, see ``on_batch``); ``'same'`` is
    refused, as PyTorch refuses it.

    >>> vmap(torch.bernoulli, randomness="different")(p)   # one draw of p's (B, ...) shape
    """
    if _randomness(tensors) == "same":
        raise RuntimeError(_SAME_BATCHED)
    return on_batch(fn, *tensors)


def bernoulli_(self, p=0.5, *, generator=None):
    """Fills ``self`` with 1 (probability ``p``, a number or a tensor that broadcasts) or 0."""
    if registry.BATCHING and any_batched(p):
        if _randomness((self, p)) == "same":
            raise RuntimeError(_SAME_BATCHED)
        if not any_batched(self):
            raise RuntimeError(_INPLACE_BATCHED_P)
        on_batch(lambda s, q: bernoulli_(s, batching.pad(q, s._data.ndim - 1), generator=generator), self, p)
        return self
    if registry.BATCHING and any_batched(self) and _randomness((self,)) == "different":
        on_batch(lambda s: bernoulli_(s, p, generator=generator), self)  # each sample its own draw
        return self
    rng = _rng(generator)
    if isinstance(p, Tensor):
        probabilities = p.detach().expand(self.shape)._data
        _check_probabilities(probabilities)
        return _fill(self, BERNOULLI_FILL_TENSOR, rng.random(self._data.shape) < probabilities, p)
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_number(p)}")
    return _fill(self, BERNOULLI_FILL, rng.random(self._data.shape) < p)


# --- sampling functions -------------------------------------------------------------------------


def bernoulli(input, p=None, *, generator=None, out=None):
    """0 or 1 per element, 1 with probability ``input`` (or ``p`` for every element)."""
    if registry.BATCHING and any_batched(input):
        return _draw_batch(lambda x: bernoulli(x, p, generator=generator, out=out), input)
    rng = _rng(generator)
    if p is not None:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_number(p)}")
        # PyTorch records no rule here (NotImplemented): the result is a plain tensor
        return _wrap((rng.random(input._data.shape) < p).astype(input._data.dtype))
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_type_name(input)}'")
    _check_probabilities(input._data)
    sample = (rng.random(input._data.shape) < input._data).astype(input._data.dtype)
    return unary(BERNOULLI, input, (sample,))


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """``num_samples`` category indices per row of (unnormalised) probabilities ``input``;
    without replacement, each category at most once (the exponential-race method:
    the smallest of E_i / p_i, E_i ~ Exp(1), as PyTorch does)."""
    if registry.BATCHING and any_batched(input):
        return random_per_sample(multinomial, input, num_samples, replacement, generator=generator, out=out)
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
    rows = p.reshape(-1, n_categories).astype(np.float64)
    if rows.shape[0] == 0:
        return _wrap(np.zeros(p.shape[:-1] + (num_samples,), np.int64))
    if not np.isfinite(rows).all() or (rows < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if (rows.sum(axis=1) <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    rng = _rng(generator)
    if replacement:
        # one searchsorted for all rows: row r's cumulative probabilities, shifted by r
        offsets = np.arange(rows.shape[0])[:, None]
        cdf = np.cumsum(rows, axis=1)
        cdf = cdf / cdf[:, -1:] + offsets
        cdf[:, -1] = offsets[:, 0] + 1  # exactly 1 past each row's start
        u = rng.random((rows.shape[0], num_samples)) + offsets
        picks = np.searchsorted(cdf.ravel(), u.ravel(), side="right").reshape(u.shape) - offsets * n_categories
    else:
        with np.errstate(divide="ignore"):
            keys = rng.exponential(1.0, rows.shape) / rows
        picks = np.argsort(keys, axis=1, kind="stable")[:, :num_samples]
    return _wrap(picks.reshape(p.shape[:-1] + (num_samples,)).astype(np.int64))


def normal(mean=0.0, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           pin_memory=False, requires_grad=False):
    """Draws from N(mean, std²): of ``size`` for numbers, else of the tensors' broadcast
    shape, recorded (zero gradient) when a tensor argument requires grad."""
    if registry.BATCHING and any_batched(mean, std):
        tensors = [t for t in (mean, std) if isinstance(t, Tensor)]

        def draw(*batch):  # the batch of each tensor argument, ranks aligned as broadcasting would
            ndim = max(b._data.ndim for b in batch) - 1
            batch = iter(batch)
            m, s = [batching.pad(next(batch), ndim) if isinstance(a, Tensor) else a for a in (mean, std)]
            return normal(m, s, size, generator=generator, out=out, dtype=dtype, layout=layout, device=device,
                          pin_memory=pin_memory, requires_grad=requires_grad)
        return _draw_batch(draw, *tensors)
    rng = _rng(generator)
    mean_is_tensor, std_is_tensor = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not (mean_is_tensor or std_is_tensor):
        if std < 0:
            raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
        if size is None:
            raise TypeError("normal() received an invalid combination of arguments - got (float, float), but "
                            "expected (float mean, float std, tuple of ints size)")
        shape = _size("normal", (size,))
        dtype = dtype if dtype is not None else _dtype.get_default_dtype()
        return _finish(rng.normal(mean, std, shape), dtype, requires_grad, device)
    if std_is_tensor:
        if (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
    elif std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {_number(std)}")
    if mean_is_tensor and std_is_tensor:
        result = _dtype.result_dtype((mean, std)).np
        sample = rng.normal(mean._data, std._data).astype(result)
        return apply(NORMAL_MEAN_STD, (mean, std), (sample,))
    like = mean if mean_is_tensor else std
    if like._data.dtype.kind != "f":
        raise NotImplementedError(f"\"normal_kernel_cpu\" not implemented for '{_type_name(like)}'")
    sample = np.asarray(rng.normal(mean._data if mean_is_tensor else mean, std._data if std_is_tensor else std))
    return unary(NORMAL_MEAN if mean_is_tensor else NORMAL_STD, like, (sample.astype(like._data.dtype),))


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
    return _finish(_rng(generator).permutation(n), dtype, requires_grad, device)


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
