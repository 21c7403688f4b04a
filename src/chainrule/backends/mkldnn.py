"""``backends.mkldnn``: oneDNN, which PyTorch's CPU build has; chainrule's kernels are NumPy's."""

enabled = True
deterministic = False


def is_available():
    return True
