"""``torch.get_num_threads`` and ``torch.set_num_threads``: the intra-op thread count.

chainrule computes on NumPy and uses no threads of its own; the count is kept because
PyTorch's choices depend on it and a user sets it: its CPU convolution picks the MKLDNN
backend for small problems only with more than one thread, and MKLDNN words its errors
its own way. The default is PyTorch's: OMP_NUM_THREADS, else one thread per core.
"""
import os

_THREADS = [int(os.environ.get("OMP_NUM_THREADS") or 0) or os.cpu_count() or 1]


def get_num_threads():
    return _THREADS[0]


def set_num_threads(nthreads):
    if not isinstance(nthreads, int) or isinstance(nthreads, bool):
        raise RuntimeError(f"set_num_threads expects an int, but got {type(nthreads).__name__}")
    if nthreads <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    _THREADS[0] = nthreads
