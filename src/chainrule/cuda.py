"""``chainrule.cuda``: ``torch.cuda`` as PyTorch's CPU-only build has it.

Scripts written for GPUs ask before using one (``"cuda" if torch.cuda.is_available() else
"cpu"``) and seed it (``torch.cuda.manual_seed_all(0)``); those calls work and say there is
no GPU. Calls that need a GPU raise the CPU build's ``AssertionError``:

>>> chainrule.cuda.is_available(), chainrule.cuda.device_count()
(False, 0)
>>> chainrule.cuda.current_device()
Traceback (most recent call last):
AssertionError: Torch not compiled with CUDA enabled
"""

__all__ = ["is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all", "seed", "seed_all",
           "initial_seed", "synchronize", "current_device", "get_device_name", "get_device_capability",
           "get_device_properties", "init", "empty_cache", "memory_allocated", "max_memory_allocated",
           "memory_reserved", "is_bf16_supported", "get_arch_list", "get_rng_state", "get_rng_state_all",
           "set_rng_state", "set_rng_state_all", "mem_get_info", "current_stream", "ipc_collect"]


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with CUDA enabled")


def is_available():
    return False


def device_count():
    return 0


def is_initialized():
    return False


def is_bf16_supported(including_emulation=True):
    return False


def manual_seed(seed):
    """A no-op without a GPU, as in PyTorch (it would seed each GPU's generator)."""


def manual_seed_all(seed):
    """A no-op without a GPU, as in PyTorch."""


def seed():
    """A no-op without a GPU, as in PyTorch."""


def seed_all():
    """A no-op without a GPU, as in PyTorch."""


def set_rng_state(new_state, device="cuda"):
    """A no-op without a GPU, as in PyTorch."""


def set_rng_state_all(new_states):
    """A no-op without a GPU, as in PyTorch."""


def get_rng_state_all():
    return []


def get_arch_list():
    return []


def empty_cache():
    """Nothing is cached without a GPU."""


def memory_allocated(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0


def memory_reserved(device=None):
    return 0


initial_seed = synchronize = current_device = get_device_name = get_device_capability = _not_compiled
get_device_properties = init = get_rng_state = mem_get_info = current_stream = ipc_collect = _not_compiled
