"""Regenerate tests/golden/printing.json: PyTorch's own repr of every corpus case.

Run with the pinned PyTorch installed (see pyproject's ``torch`` extra):

    python scripts/regen_printing_golden.py

The corpus itself lives in tests/printing_corpus.py, shared with tests/test_printing.py.
"""
import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from printing_corpus import CASES, GRAD_OPS  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "printing.json"


def torch_tensor(case):
    """The PyTorch tensor a case describes, with its autograd history if any."""
    t = torch.from_numpy(case.array())
    if case.requires_grad or case.grad_fn:
        t.requires_grad_()
    if case.grad_fn:
        t = GRAD_OPS[case.grad_fn](t)
        assert type(t.grad_fn).__name__ == case.grad_fn, case.name
    return t


def torch_repr(case):
    """``repr`` under the case's print options and default dtype, restoring both after."""
    saved_options = torch._tensor_str.get_printoptions()
    saved_default = torch.get_default_dtype()
    try:
        if case.default_dtype:
            torch.set_default_dtype(getattr(torch, case.default_dtype))
        torch.set_printoptions(**case.options)
        return repr(torch_tensor(case))
    finally:
        torch.set_printoptions(**saved_options)
        torch.set_default_dtype(saved_default)


def main():
    golden = {
        "torch_version": torch.__version__,
        "cases": {case.name: torch_repr(case) for case in CASES},
    }
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(golden['cases'])} cases to {GOLDEN.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
