"""chainrule's random streams are PyTorch's, bit for bit (issue: PyTorch's random numbers).

Every case of random_cases.py (functions x 50 seeds x sizes 0..100,000 x dtypes) is compared
on raw bytes, with the generator's state after the draw: live against PyTorch, and against
the golden digests in tests/golden/random_streams.json (scripts/regen_random_golden.py), so
the check holds where PyTorch is not installed too. Values equal within a tolerance do not
count. Then: interleaved programs of mixed calls, state round trips in both directions, the
Generator API, and what a fresh process starts from.
"""
import json
import pathlib
import struct

import numpy as np
import pytest

import chainrule
import random_cases
from helpers import require_torch

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "random_streams.json").read_text())
GROUPS = sorted({(name, dtype) for name, _, _, dtype in random_cases.cases()})


def _have_torch():
    try:
        return require_torch()
    except pytest.skip.Exception:
        return None


@pytest.mark.parametrize("name,dtype", GROUPS, ids=[f"{n}-{d}" for n, d in GROUPS])
def test_stream_matches_pytorch_bit_for_bit(name, dtype):
    torch = _have_torch()
    cases = random_cases.group_cases(name, dtype)
    golden = GOLDEN[random_cases.group_key(name, dtype)]
    assert len(golden) == len(cases)
    mismatched, off_golden = [], []
    for case, expected in zip(cases, golden):
        ours = random_cases.run(chainrule, *case)
        if torch is not None:
            theirs = random_cases.run(torch, *case)
            if ours != theirs:
                mismatched.append((case, "values" if ours[0] != theirs[0] else "state"))
        if random_cases.digest(*ours) != expected:
            off_golden.append(case)
    assert not off_golden, f"{len(off_golden)} cases differ from the golden digests, e.g. {off_golden[:3]}"
    assert not mismatched, f"{len(mismatched)} of {len(cases)} cases differ from PyTorch, e.g. {mismatched[:3]}"


def test_every_group_has_golden_digests():
    assert {random_cases.group_key(*group) for group in GROUPS} == set(GOLDEN)


# --- programs of mixed calls -------------------------------------------------------------------

CALLS = [
    lambda L, g: L.randn(3, generator=g),                       # leaves a cached normal
    lambda L, g: L.randn(1, dtype=L.float64, generator=g),      # takes it
    lambda L, g: L.rand(17, generator=g),
    lambda L, g: L.randn(33, generator=g),
    lambda L, g: L.empty(5).normal_(2.0, 0.5, generator=g),
    lambda L, g: L.empty(7, dtype=L.float64).log_normal_(generator=g),
    lambda L, g: L.randint(0, 10, (9,), generator=g),
    lambda L, g: L.randperm(20, generator=g),
    lambda L, g: L.empty(11).bernoulli_(0.5, generator=g),
    lambda L, g: L.multinomial(L.tensor([0.1, 0.5, 0.4]), 2, generator=g),
    lambda L, g: L.empty(6).exponential_(generator=g),
    lambda L, g: L.empty(2, 3).t().normal_(generator=g),
    lambda L, g: L.empty(4, dtype=L.int64).random_(generator=g),
    lambda L, g: L.rand_like(L.zeros(2, 3), generator=g),
    lambda L, g: L.randn_like(L.zeros(17, dtype=L.float64), generator=g),
    lambda L, g: L.randint_like(L.zeros(5), 3, 9, generator=g),
    lambda L, g: L.poisson(L.tensor([0.5, 12.0, 40.0]), generator=g),
]


@pytest.mark.parametrize("seed", range(50))
def test_interleaved_programs_stay_in_step(seed):
    torch = require_torch()
    program = np.random.default_rng(seed).integers(0, len(CALLS), 12)
    results = []
    for L in (chainrule, torch):
        g = L.Generator().manual_seed(seed)
        results.append([CALLS[i](L, g).numpy().tobytes() for i in program] + [g.get_state().numpy().tobytes()])
    assert results[0] == results[1]


# --- states -------------------------------------------------------------------------------------


def test_state_layout_matches_pytorch_after_each_kind_of_call():
    torch = require_torch()
    for L in (chainrule, torch):
        L.manual_seed(7)
    for call in CALLS:
        a, b = call(chainrule, None), call(torch, None)
        assert a.numpy().tobytes() == b.numpy().tobytes()
        assert chainrule.get_rng_state().numpy().tobytes() == torch.get_rng_state().numpy().tobytes()
    assert chainrule.get_rng_state().shape == torch.get_rng_state().shape == (5056,)
    assert chainrule.get_rng_state().dtype is chainrule.uint8


@pytest.mark.parametrize("warmup", [0, 3, 624, 700])
def test_pytorch_state_continues_here_and_back(warmup):
    torch = require_torch()
    torch.manual_seed(123)
    torch.randn(warmup)  # 3: a cached normal is part of the state
    chainrule.set_rng_state(chainrule.from_numpy(torch.get_rng_state().numpy().copy()))
    assert chainrule.randn(5).numpy().tobytes() == torch.randn(5).numpy().tobytes()
    chainrule.rand(1000)
    torch.set_rng_state(torch.from_numpy(chainrule.get_rng_state().numpy().copy()))
    assert chainrule.randn(100).numpy().tobytes() == torch.randn(100).numpy().tobytes()
    g, h = chainrule.Generator(), torch.Generator()
    g.set_state(chainrule.from_numpy(h.get_state().numpy().copy()))
    assert chainrule.rand(4, generator=g).numpy().tobytes() == torch.rand(4, generator=h).numpy().tobytes()


def test_state_round_trip_repeats_the_stream():
    chainrule.manual_seed(0)
    chainrule.randn(3)
    state = chainrule.get_rng_state()
    first = chainrule.randn(20)
    chainrule.set_rng_state(state)
    assert chainrule.equal(chainrule.randn(20), first)


def test_generator_api_as_pytorch():
    torch = require_torch()
    for L in (chainrule, torch):
        g = L.Generator()
        assert g.initial_seed() == 67280421310721
        assert g.manual_seed(2 ** 64 - 1) is g and g.initial_seed() == 2 ** 64 - 1
        assert g.manual_seed(-1).initial_seed() == 2 ** 64 - 1
        assert str(g.device) == "cpu"
    for call in (lambda L: L.Generator().manual_seed(2 ** 64), lambda L: L.manual_seed(-2 ** 63 - 1),
                 lambda L: L.Generator().get_offset(), lambda L: L.set_rng_state(L.zeros(5, dtype=L.uint8)),
                 lambda L: L.Generator().set_state(L.zeros(5056, dtype=L.uint8))):
        errors = []
        for L in (chainrule, torch):
            try:
                call(L)
            except Exception as e:  # noqa: BLE001  (the type and text are compared)
                errors.append((type(e), str(e)))
        assert len(errors) == 2 and errors[0] == errors[1]


def test_a_fresh_process_seeds_the_default_generator_from_the_os():
    """PyTorch 2.13 seeds its default generator nondeterministically at start-up (a new
    ``Generator()`` starts from 67280421310721)."""
    import subprocess
    import sys
    code = "import chainrule; print(chainrule.initial_seed())"
    seeds = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
             for _ in range(2)}
    assert len(seeds) == 2


def test_seed_returns_the_new_seed():
    s = chainrule.seed()
    assert chainrule.initial_seed() == s
    state = chainrule.get_rng_state().numpy().tobytes()
    assert struct.unpack("<Q", state[:8])[0] == s


def test_fork_rng_restores_the_state():
    torch = require_torch()
    for L in (chainrule, torch):
        L.manual_seed(3)
        with L.random.fork_rng():
            L.randn(10)
    assert chainrule.rand(3).numpy().tobytes() == torch.rand(3).numpy().tobytes()


def test_ten_million_normals():
    torch = require_torch()
    for dtype in ("float32", "float64"):
        chainrule.manual_seed(11)
        torch.manual_seed(11)
        a = chainrule.randn(10 ** 7 + 5, dtype=getattr(chainrule, dtype)).numpy()
        b = torch.randn(10 ** 7 + 5, dtype=getattr(torch, dtype)).numpy()
        assert np.array_equal(a.view(np.uint8), b.view(np.uint8))
