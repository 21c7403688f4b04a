"""Writes tests/golden/random_streams.json: the digest of every case of
tests/random_cases.py as real PyTorch 2.13 draws it (run after changing the grid)."""
import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import random_cases  # noqa: E402

torch.set_num_threads(1)
groups = sorted({(name, dtype) for name, _, _, dtype in random_cases.cases()})
golden = {random_cases.group_key(name, dtype): [random_cases.digest(*random_cases.run(torch, *case))
                                                for case in random_cases.group_cases(name, dtype)]
          for name, dtype in groups}
text = "{\n" + ",\n".join(f'"{key}": {json.dumps(digests)}' for key, digests in golden.items()) + "\n}\n"
(ROOT / "tests" / "golden" / "random_streams.json").write_text(text)
print(sum(map(len, golden.values())), "cases")
