"""torch.cuda, torch.backends and device='cuda' as PyTorch's CPU-only build has them."""
import pytest

import chainrule
import chainrule.backends as backends
import chainrule.cuda as cuda
from helpers import full_error_of, require_torch

QUERIES = ["is_available", "device_count", "is_initialized", "is_bf16_supported", "get_arch_list",
           "get_rng_state_all", "memory_allocated", "max_memory_allocated", "memory_reserved", "empty_cache",
           "seed", "seed_all"]
NEEDS_A_GPU = ["initial_seed", "synchronize", "current_device", "get_device_name", "get_device_capability",
               "get_device_properties", "init", "get_rng_state", "mem_get_info", "current_stream", "ipc_collect"]


@pytest.mark.parametrize("name", QUERIES)
def test_cuda_queries_answer_as_the_cpu_build(name):
    torch = require_torch()
    assert getattr(cuda, name)() == getattr(torch.cuda, name)()


@pytest.mark.parametrize("name", NEEDS_A_GPU)
def test_cuda_calls_that_need_a_gpu_raise_as_the_cpu_build(name):
    torch = require_torch()
    assert full_error_of(getattr(cuda, name)) == full_error_of(getattr(torch.cuda, name))


def test_cuda_seeding_is_a_no_op():
    torch = require_torch()
    chainrule.manual_seed(0)
    before = chainrule.rand(3).tolist()
    chainrule.manual_seed(0)
    for lib in (cuda, torch.cuda):
        assert lib.manual_seed(1) is None and lib.manual_seed_all(1) is None
    assert chainrule.rand(3).tolist() == before


CUDA_USES = {
    "tensor(device='cuda')": lambda lib: lib.tensor([1.0], device="cuda"),
    "zeros(device='cuda:0')": lambda lib: lib.zeros(2, device="cuda:0"),
    ".cuda()": lambda lib: lib.ones(2).cuda(),
    ".to('cuda')": lambda lib: lib.ones(2).to("cuda"),
    ".to(device='cuda')": lambda lib: lib.ones(2).to(device="cuda"),
    "device('foo')": lambda lib: lib.device("foo"),
    "device(0)": lambda lib: lib.device(0),
}


@pytest.mark.parametrize("name", CUDA_USES)
def test_putting_tensors_on_cuda_raises_the_cpu_builds_error(name):
    torch = require_torch()
    assert full_error_of(lambda: CUDA_USES[name](chainrule)) == full_error_of(lambda: CUDA_USES[name](torch))


def test_cpu_devices_print_as_torch():
    torch = require_torch()
    for args in [("cpu",), ("cpu:0",), ("cpu", 0)]:
        ours, theirs = chainrule.device(*args), torch.device(*args)
        assert (repr(ours), str(ours)) == (repr(theirs), str(theirs))
    assert str(chainrule.ones(1).to("cpu", chainrule.float64).dtype) == "torch.float64"


def test_backend_flags_read_and_set_as_torch():
    torch = require_torch()
    for ours, theirs in [(backends.cudnn, torch.backends.cudnn), (backends.cuda.matmul, torch.backends.cuda.matmul)]:
        for flag in ("enabled", "benchmark", "deterministic", "allow_tf32", "allow_fp16_reduced_precision_reduction"):
            if hasattr(theirs, flag):
                assert getattr(ours, flag) == getattr(theirs, flag), flag
    for ours, theirs in [(backends.cudnn, torch.backends.cudnn), (backends.mps, torch.backends.mps),
                         (backends.mkldnn, torch.backends.mkldnn), (backends.openmp, torch.backends.openmp)]:
        assert ours.is_available() == theirs.is_available()
    assert backends.cudnn.version() == torch.backends.cudnn.version() and not backends.mps.is_built()
    backends.cudnn.deterministic, backends.cudnn.benchmark = True, False
    assert backends.cudnn.deterministic is True
    backends.cudnn.deterministic = False
    backends.cuda.matmul.allow_tf32 = True
    assert backends.cuda.matmul.allow_tf32 is True
    backends.cuda.matmul.allow_tf32 = False
    assert full_error_of(lambda: backends.cuda.matmul.nope) == full_error_of(lambda: torch.backends.cuda.matmul.nope)
    with backends.cudnn.flags(enabled=False, deterministic=True):
        assert backends.cudnn.deterministic and not backends.cudnn.enabled
    assert backends.cudnn.enabled and not backends.cudnn.deterministic
