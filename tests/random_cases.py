"""The grid of random draws that must equal PyTorch's bit for bit (test_random_streams.py,
scripts/regen_random_golden.py).

Each function is written once against a library ``L`` (chainrule or torch) and a generator
``g`` of that library: ``draw(L, g, n, dtype)`` returns a tensor of about ``n`` elements.
A case is (function, seed, size, dtype); its result is compared on its raw bytes, and so is
the generator's state after it.
"""
import hashlib

import numpy as np

SEEDS = tuple(range(50))
SIZES = (0, 1, 5, 15, 16, 17, 31, 32, 33, 100, 1000, 4097)
LARGE_SIZE, LARGE_SEEDS = 100_000, (0, 1, 2, 3, 4)
FLOATS = ("float32", "float64")


def _empty(L, n, dtype):
    return L.empty(n, dtype=getattr(L, dtype))


def _rows(n):
    """A probability table of about n entries: rows of 10 categories."""
    return max(n // 10, 1), 10


def _probabilities(L, g, n, dtype):
    rows, cats = _rows(n)
    return L.rand(rows, cats, generator=g, dtype=getattr(L, dtype)) + 0.01


# name -> (draw(L, g, n, dtype), dtypes, largest size (None: the large size too))
FUNCTIONS = {
    "rand": (lambda L, g, n, d: L.rand(n, generator=g, dtype=getattr(L, d)), FLOATS + ("float16",), None),
    "rand_like": (lambda L, g, n, d: L.rand_like(_empty(L, n, d)), FLOATS, None),
    "randn": (lambda L, g, n, d: L.randn(n, generator=g, dtype=getattr(L, d)), FLOATS, None),
    "randn_2d": (lambda L, g, n, d: L.randn(2, n, generator=g, dtype=getattr(L, d)), FLOATS, None),
    "randn_like": (lambda L, g, n, d: L.randn_like(_empty(L, n, d)), FLOATS, None),
    "randn_complex": (lambda L, g, n, d: L.randn(n, generator=g, dtype=L.complex64), ("float32",), 4097),
    "randint_small": (lambda L, g, n, d: L.randint(-3, 17, (n,), generator=g, dtype=getattr(L, d)),
                      ("int64", "int32", "float32", "float64"), None),
    "randint_2pow28": (lambda L, g, n, d: L.randint(0, 2 ** 28, (n,), generator=g), ("int64",), None),
    "randint_huge": (lambda L, g, n, d: L.randint(-2 ** 40, 2 ** 50, (n,), generator=g), ("int64",), None),
    "randint_like": (lambda L, g, n, d: L.randint_like(_empty(L, n, d), 5, 60), ("int64", "float32"), None),
    "randperm": (lambda L, g, n, d: L.randperm(n, generator=g, dtype=getattr(L, d)), ("int64", "float64"), None),
    "normal_numbers": (lambda L, g, n, d: L.normal(1.5, 0.25, (n,), generator=g, dtype=getattr(L, d)), FLOATS, None),
    "normal_mean_tensor": (lambda L, g, n, d: L.normal(L.arange(n, dtype=getattr(L, d)), 2.0, generator=g),
                           FLOATS, None),
    "normal_std_tensor": (lambda L, g, n, d: L.normal(0.5, L.arange(n, dtype=getattr(L, d)) / 7, generator=g),
                          FLOATS, None),
    "normal_both_tensors": (lambda L, g, n, d: L.normal(L.arange(n, dtype=getattr(L, d)),
                                                        L.arange(n, dtype=getattr(L, d)) / 3, generator=g),
                            FLOATS, None),
    "uniform_": (lambda L, g, n, d: _empty(L, n, d).uniform_(-2.5, 0.75, generator=g), FLOATS + ("float16",), None),
    "normal_": (lambda L, g, n, d: _empty(L, n, d).normal_(-1.0, 3.5, generator=g), FLOATS, None),
    "normal_noncontiguous": (lambda L, g, n, d: L.empty(n, 2, dtype=getattr(L, d)).t().normal_(generator=g),
                             FLOATS, 4097),
    "random_": (lambda L, g, n, d: _empty(L, n, d).random_(generator=g),
                ("int64", "int32", "int16", "int8", "uint8", "bool", "float32", "float64"), None),
    "random_to": (lambda L, g, n, d: _empty(L, n, d).random_(100, generator=g), ("int64", "float32"), None),
    "random_from_to": (lambda L, g, n, d: _empty(L, n, d).random_(-7, 2 ** 30, generator=g),
                       ("int64", "int32", "float64"), None),
    "random_full_int64": (lambda L, g, n, d: _empty(L, n, d).random_(-2 ** 63, None, generator=g), ("int64",), None),
    "exponential_": (lambda L, g, n, d: _empty(L, n, d).exponential_(1.7, generator=g), FLOATS, None),
    "geometric_": (lambda L, g, n, d: _empty(L, n, d).geometric_(0.23, generator=g), FLOATS + ("int64",), None),
    "log_normal_": (lambda L, g, n, d: _empty(L, n, d).log_normal_(0.3, 0.8, generator=g), FLOATS, None),
    "cauchy_": (lambda L, g, n, d: _empty(L, n, d).cauchy_(0.5, 1.3, generator=g), FLOATS, None),
    "bernoulli_scalar": (lambda L, g, n, d: _empty(L, n, d).bernoulli_(0.37, generator=g), FLOATS + ("int64",), None),
    "bernoulli_tensor_p": (lambda L, g, n, d: _empty(L, n, d).bernoulli_(L.linspace(0, 1, n, dtype=getattr(L, d)),
                                                                        generator=g), FLOATS, None),
    "bernoulli": (lambda L, g, n, d: L.bernoulli(L.linspace(0, 1, n, dtype=getattr(L, d)), generator=g),
                  FLOATS, None),
    "bernoulli_p": (lambda L, g, n, d: L.bernoulli(_empty(L, n, d), 0.8, generator=g), FLOATS, None),
    "multinomial_one": (lambda L, g, n, d: L.multinomial(_probabilities(L, g, n, d), 1, generator=g), FLOATS, None),
    "multinomial": (lambda L, g, n, d: L.multinomial(_probabilities(L, g, n, d), 4, generator=g), FLOATS, None),
    "multinomial_replacement": (lambda L, g, n, d: L.multinomial(_probabilities(L, g, n, d), 7, True, generator=g),
                                FLOATS, 4097),
    "poisson": (lambda L, g, n, d: L.poisson(L.linspace(0, 30, n, dtype=getattr(L, d)), generator=g),
                FLOATS, 1000),
    "dropout": (lambda L, g, n, d: L.nn.functional.dropout(L.ones(n, dtype=getattr(L, d)), 0.3), FLOATS, None),
    "dropout_inplace": (lambda L, g, n, d: L.nn.functional.dropout(L.ones(n, dtype=getattr(L, d)), 0.6, True,
                                                                   True), FLOATS, None),
    "dropout2d": (lambda L, g, n, d: L.nn.functional.dropout2d(L.ones(2, n, 3, 3, dtype=getattr(L, d)), 0.4),
                  FLOATS, 4097),
    "alpha_dropout": (lambda L, g, n, d: L.nn.functional.alpha_dropout(L.ones(n, dtype=getattr(L, d)), 0.2, True),
                      FLOATS, None),
    "feature_alpha_dropout": (lambda L, g, n, d: L.nn.functional.feature_alpha_dropout(
        L.ones(n, 2, dtype=getattr(L, d)), 0.5, True), FLOATS, None),
    "rrelu": (lambda L, g, n, d: L.nn.functional.rrelu(L.linspace(-1, 1, n, dtype=getattr(L, d)), training=True),
              FLOATS, None),
}


def cases():
    """(function, seed, size, dtype) for the whole grid."""
    for name, (_, dtypes, largest) in FUNCTIONS.items():
        sizes = [s for s in SIZES if largest is None or s <= largest]
        for dtype in dtypes:
            for size in sizes:
                for seed in SEEDS:
                    yield name, seed, size, dtype
            if largest is None:
                for seed in LARGE_SEEDS:
                    yield name, seed, LARGE_SIZE, dtype


def run(L, name, seed, size, dtype):
    """The raw bytes of the draw and of the generator state after it (the default
    generator's, for the functions that draw from it)."""
    draw = FUNCTIONS[name][0]
    L.manual_seed(seed)
    g = L.Generator().manual_seed(seed)
    result = draw(L, g, size, dtype)
    uses_default = name in ("rand_like", "randn_like", "randint_like") or name.startswith(("dropout", "alpha",
                                                                                           "feature", "rrelu"))
    state = (L.get_rng_state() if uses_default else g.get_state()).numpy()
    return np.ascontiguousarray(result.detach().numpy()).tobytes(), state.tobytes()


def digest(raw_result, raw_state):
    return hashlib.sha256(raw_result + b"|" + raw_state).hexdigest()[:16]


def group_key(name, dtype):
    return f"{name}/{dtype}"


def group_cases(name, dtype):
    """The cases of one function and dtype, in the golden file's order."""
    return [case for case in cases() if case[0] == name and case[3] == dtype]
