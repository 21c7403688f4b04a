"""Every mismatch class the fuzzer knows, each with one reproducer.

``KNOWN``: differences from PyTorch that exist today and are to be fixed. CI fails on any
class not listed here, and test_known_classes_still_reproduce fails on a listed class that
no longer reproduces (strict, like ``xfail(strict=True)``): remove a class once it is fixed.

``DELIBERATE``: differences kept on purpose, each documented in docs/differences.md; the
fuzzer allows them only where ``applies(step)`` holds, and a test asserts each still differs.

A class key is ``"<op>|<stage>:<kind>|<dtype>-<input category>"`` (see compare.py).
"""
import dataclasses
from math import inf, nan  # noqa: F401  (reproducers below write nan and inf)
from typing import Callable

from fuzz.compare import ArraySpec, Step  # noqa: F401


@dataclasses.dataclass(frozen=True)
class Deliberate:
    description: str
    step: Step
    applies: Callable


def _has_zero(step):
    return 0.0 in step.arrays[0].values


DELIBERATE = {
    "sinc|grad2:nan|float64-regular": Deliberate(
        "sinc''(0): chainrule gives -pi^2/3 (calculus, gradgradcheck); PyTorch nan (docs/differences.md)",
        Step("sinc", (ArraySpec("float64", (1,), (0.0,)),)), _has_zero),
}

KNOWN = {
    'adaptive_max_pool2d[keep_height]|forward:error-type|float32-regular': ('RuntimeError: adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [1] / PyTorch ValueError: Input dimension should be at least 3',
        Step(op='adaptive_max_pool2d[keep_height]', arrays=(ArraySpec(dtype='float32', shape=(1,), values=(-0.5,), layout='transposed'),))),
    'clamp[max_only]|forward:missing-error|complex128-regular': ('PyTorch raises NotImplementedError: clamp is not supported for complex types',
        Step(op='clamp[max_only]', arrays=(ArraySpec(dtype='complex128', shape=(), values=((-3+3.388671875j),), layout='transposed'),))),
    'copysign[int_right]|grad2:grad-graph|float32-nan': ("no graph / PyTorch [('float32', (1,), array([nan], dtype=float32))]",
        Step(op='copysign[int_right]', arrays=(ArraySpec(dtype='float32', shape=(1,), values=(nan,), layout='contig'),))),
    'copysign[int_right]|grad2:grad-graph|float32-regular': ("no graph / PyTorch [('float32', (1,), array([nan], dtype=float32))]",
        Step(op='copysign[int_right]', arrays=(ArraySpec(dtype='float32', shape=(1,), values=(0.0,), layout='contig'),))),
    'cummax[ties]|forward:error-text|uint8-regular': ("'Dimension out of range (expected to be in range of [-1, 0], but got 1)' / PyTorch 'cummax(): Expected reduction dim -1 or 0 for scalar but got 1'",
        Step(op='cummax[ties]', arrays=(ArraySpec(dtype='uint8', shape=(), values=(69,), layout='contig'),))),
    'getitem_indexed[int_slice_list]|forward:error-text|float32-empty': ("'index 0 is out of bounds for axis 1 with size 0' / PyTorch 'index is out of bounds for dimension with size 0'",
        Step(op='getitem_indexed[int_slice_list]', arrays=(ArraySpec(dtype='float32', shape=(1, 0, 0), values=(), layout='contig'),))),
    'lu_solve[left]|forward:error-type|complex128-empty': ('ValueError: not enough values to unpack (expected 2, got 1) / PyTorch RuntimeError: linalg.lu_solve: The input tensor B must have at least 2 dimension',
        Step(op='lu_solve[left]', arrays=(ArraySpec(dtype='complex128', shape=(0,), values=(), layout='transposed'), ArraySpec(dtype='complex128', shape=(0,), values=(), layout='contig')))),
    'matrix_norm[dims_inf]|forward:extra-error|float16-empty': ('IndexError: amax(): Expected reduction dim 1 to have non-zero size.',
        Step(op='matrix_norm[dims_inf]', arrays=(ArraySpec(dtype='float16', shape=(1, 3, 0), values=(), layout='contig'),))),
    'multi_margin_loss[p2_none]|forward:error-type|complex64-regular': ('RuntimeError: expected scalar type Long but found ComplexFloat / PyTorch NotImplementedError: "multi_margin_loss_cpu_kernel" not implemented for \'Comp',
        Step(op='multi_margin_loss[p2_none]', arrays=(ArraySpec(dtype='complex64', shape=(), values=((6+1j),), layout='contig'), ArraySpec(dtype='complex64', shape=(), values=((-3.466796875+3.5703125j),), layout='contig')))),
    'remainder[number_0d]|forward:signed-zero|float32-nan': ('result 0: [0.                nan 0.5               nan 0.14160156 0.        ] / PyTorch [ 0.                 nan  0.5                nan  0.14160156 -',
        Step(op='remainder[number_0d]', arrays=(ArraySpec(dtype='float32', shape=(4, 2, 1), values=(1e-200, nan, 0.5, nan, 1.6416015625, -0.0, 1e-30, 0.94580078125), layout='strided'),))),
    'topk[smallest]|forward:error-type|bool-regular': ('RuntimeError: topk does not support bool dtypes on CPU / PyTorch IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)',
        Step(op='topk[smallest]', arrays=(ArraySpec(dtype='bool', shape=(), values=(False,), layout='contig'),))),
}
