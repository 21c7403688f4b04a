"""``torch.random``: the default generator's seed and state, and ``fork_rng``.

>>> with chainrule.random.fork_rng():
...     chainrule.rand(2)            # draws inside leave the outer stream where it was
"""
import contextlib

from ._ops.creation import get_rng_state, initial_seed, manual_seed, seed, set_rng_state
from ._core.generator import default_generator

__all__ = ["fork_rng", "get_rng_state", "initial_seed", "manual_seed", "seed", "set_rng_state",
           "default_generator"]


@contextlib.contextmanager
def fork_rng(devices=None, enabled=True, _caller="fork_rng", _devices_kw="devices", device_type="cuda"):
    """Restores the default generator's state on exit. PyTorch also forks the states of the
    accelerator's generators (``device_type``); chainrule has none, as a CPU-only build."""
    if not enabled:
        yield
        return
    state = get_rng_state()
    try:
        yield
    finally:
        set_rng_state(state)
