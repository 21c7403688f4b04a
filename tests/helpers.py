"""What many test files need: PyTorch as the reference, loaded so that CI can't skip it.

``require_torch()`` is called inside a test body (not a fixture), so that a missing
PyTorch in CI (``CI`` set) is reported as a test failure, never as a skip.
"""
import importlib
import os

import numpy as np
import pytest


def require_torch():
    try:
        torch = importlib.import_module("torch")
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("PyTorch is required in CI for the comparison tests")
        pytest.skip("PyTorch is not installed")
    torch.set_num_threads(1)
    return torch


def to_numpy(t):
    """A chainrule or torch tensor (or None) as a NumPy array."""
    if t is None:
        return None
    return np.asarray(t.detach().numpy())
