"""``backends.cuda``: ``matmul.allow_tf32`` and friends as settable flags; CUDA is not built."""


class cuBLASModule:
    """``torch.backends.cuda.matmul``: precision flags for GPU matmuls (no effect on the CPU)."""

    _DEFAULTS = {"allow_tf32": False, "allow_fp16_reduced_precision_reduction": True,
                 "allow_bf16_reduced_precision_reduction": True, "allow_fp16_accumulation": False}

    def __init__(self):
        self.__dict__.update(self._DEFAULTS)

    def __setattr__(self, name, value):
        if name not in self._DEFAULTS:
            raise AttributeError("Unknown attribute " + name)
        self.__dict__[name] = value

    def __getattr__(self, name):  # only reached for names that are not flags
        raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()


def is_built():
    return False
