"""Regenerate tests/golden/ops.npz: PyTorch's results and gradients for every op_db sample.

Run with the pinned PyTorch installed (see pyproject's ``torch`` extra):

    python scripts/regen_ops_golden.py                 # every family
    python scripts/regen_ops_golden.py --family linalg # one: tests/golden/ops_linalg.npz

The core entries (op_db.py) go to ops.npz, each family's (opdb_<family>.py) to
ops_<family>.npz, so families can be regenerated independently.

For each sample ``<entry>::<sample>`` the file holds:

* ``::out<k>``: output k of the op (values, shape and dtype);
* ``::grad_present``: one flag per leaf, 1 where PyTorch returned a gradient, 0 for None
  (absent when no output required grad);
* ``::grad<i>``: the gradient of leaf i for op_db's seeded upstream gradients.

A sample where PyTorch raises is a bug in op_db, so this script stops on it.
"""
import argparse
import pathlib
import sys

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from op_db import OPS, as_list, run_with_grads, to_array  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "golden"


def golden_path(family):
    return GOLDEN_DIR / ("ops.npz" if family == "core" else f"ops_{family}.npz")


def record(entry, sample, arrays):
    key = f"{entry.name}::{sample.name}"
    try:
        result, grads = run_with_grads(torch, entry, sample)
    except Exception:
        print(f"PyTorch fails on {key}", file=sys.stderr)
        raise
    for k, out in enumerate(as_list(result)):
        arrays[f"{key}::out{k}"] = to_array(out).copy()
    if grads is not None:
        arrays[f"{key}::grad_present"] = np.array([g is not None for g in grads], dtype=np.int8)
        for i, g in enumerate(grads):
            if g is not None:
                arrays[f"{key}::grad{i}"] = to_array(g).copy()


def main():
    parser = argparse.ArgumentParser(description="Regenerate the op golden files from PyTorch.")
    parser.add_argument("--family", help="only this family (core, or a name in op_db.FAMILIES)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    families = sorted({e.family for e in OPS}) if args.family is None else [args.family]
    for family in families:
        arrays = {"torch_version": np.array(torch.__version__)}
        n = 0
        for entry in OPS:
            if entry.family == family:
                for sample in entry.sample_list():
                    record(entry, sample, arrays)
                    n += 1
        path = golden_path(family)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)
        print(f"wrote {n} samples ({len(arrays)} arrays) to {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
