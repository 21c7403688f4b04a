"""Every mismatch class the fuzzer knows, each with one reproducer.

The CI programs are drawn by index from the op list, so a change to the op database draws
other programs: refresh ``KNOWN`` then with ``CI=true python scripts/refresh_fuzz_known.py``.

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

import numpy as np

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



@dataclasses.dataclass(frozen=True)
class DeliberateRule:
    """A deliberate difference that spans classes: every key ``matches`` accepts, on the
    inputs ``applies`` accepts; ``step`` still shows it."""
    description: str
    matches: Callable
    applies: Callable
    step: Step


# the factors LAPACK computes: unique only for finite, full-rank input
_DECOMPOSITIONS = ("qr", "svd", "eig", "cholesky", "lu", "matrix_norm", "cond", "matrix_rank", "pinv", "lstsq",
                   "slogdet", "det", "inv", "solve", "matrix_exp")
# the products BLAS computes: complex multiply-adds with inf or nan order their terms as the build does
_PRODUCTS = ("matrix_power", "vdot", "vecdot", "dot", "inner", "matmul", "mm", "bmm", "mv", "tensordot", "einsum",
             "linear", "addmm", "addmv", "addbmm", "baddbmm", "chain_matmul", "multi_dot", "solve", "lstsq")


def _op_family(key):
    return key.split("|")[0].split("[")[0]


def _arrays(step):
    return [np.array(a.values, complex if a.dtype.startswith("complex") else float).reshape(a.shape)
            for a in step.arrays if a.dtype.startswith(("float", "complex"))]


def _lapack_ambiguous(step):
    """Input holding inf or nan, or a first input of matrices that are not of full rank."""
    arrays = _arrays(step)
    if any(not np.isfinite(a).all() for a in arrays):
        return True
    a = arrays[0] if arrays else None
    return a is not None and a.ndim >= 2 and a.size > 0 and bool(
        (np.linalg.matrix_rank(a) < min(a.shape[-2:])).any())


def _complex_non_finite(step):
    arrays = _arrays(step)
    return any(a.dtype.kind == "c" for a in arrays) and any(not np.isfinite(a).all() for a in arrays)


DELIBERATE_RULES = [
    DeliberateRule(
        "LAPACK on non-finite or rank-deficient input: the factors (and nan placement) follow the build, "
        "PyTorch's MKL or NumPy's OpenBLAS (docs/differences.md)",
        lambda key: _op_family(key).startswith(_DECOMPOSITIONS) and ":error-" not in key, _lapack_ambiguous,
        Step(op='qr[wide_complete]', arrays=(ArraySpec(dtype='complex128', shape=(2, 6, 5), values=(1.5 + 3j,) * 60),))),
    DeliberateRule(
        "BLAS complex products of inf or nan: where nan and inf land follows the build (docs/differences.md)",
        lambda key: _op_family(key) in _PRODUCTS and ":error-" not in key, _complex_non_finite,
        Step(op='vdot', arrays=(ArraySpec(dtype='complex64', shape=(3,), values=((0.5 + 0j), (3.51953125 - 1.9033203125j),
                                                                          (0.88232421875 + 0j))),
                                ArraySpec(dtype='complex64', shape=(3,), values=((1e-200 + 0j), complex(-inf, 6),
                                                                          (-2.296875 - 0.6005859375j)),
                                          layout='strided')))),
]


def deliberate_for(key):
    """The deliberate difference that may explain class ``key`` (its ``applies(step)`` says
    whether it does on a given step), or None."""
    return DELIBERATE.get(key) or next((r for r in DELIBERATE_RULES if r.matches(key)), None)


KNOWN = {
}

# classes the CI programs find whose one-step reproducer does not show them on its own (the
# step's inputs came from PyTorch's previous step; replayed from their printed values they
# do not): listed in KNOWN, exempt from the still-reproduces check
IN_CONTEXT_ONLY = set()

# promotion classes (test_fuzz_promotion.py): key -> one case of the class, as check(*case) takes it
KNOWN_PROMOTION = {
    'add|binary:error-text|complexxfloat16': ('add', '0d-tensor', 'complex128', 'float16'),  # "add 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('TypeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comple"
    'add|binary:error-text|float16xcomplex': ('add', 'tensor-0d', 'float16', 'complex128'),  # "add tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('TypeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comple"
    'add|binary:nan|boolxcomplex': ('add', 'tensor-tensor', 'bool', 'complex128'),  # "add tensor-tensor bool 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|complexxbool': ('add', 'scalar-tensor', 'complex128', 'bool'),  # "add scalar-tensor complex128 'bool': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|complexxcomplex': ('add', 'tensor-tensor', 'complex128', 'complex128'),  # "add tensor-tensor complex128 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|complexxfloat': ('add', 'tensor-tensor', 'complex128', 'float32'),  # "add tensor-tensor complex128 'float32': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|complexxfloat16': ('add', 'tensor-tensor', 'complex128', 'float16'),  # "add tensor-tensor complex128 'float16': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|complexxint': ('add', 'scalar-tensor', 'complex128', 'int64'),  # "add scalar-tensor complex128 'int64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|complexxuint8': ('add', 'scalar-tensor', 'complex128', 'uint8'),  # "add scalar-tensor complex128 'uint8': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|float16xcomplex': ('add', 'tensor-tensor', 'float16', 'complex128'),  # "add tensor-tensor float16 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|floatxcomplex': ('add', 'tensor-tensor', 'float64', 'complex128'),  # "add tensor-tensor float64 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|intxcomplex': ('add', 'tensor-tensor', 'int64', 'complex128'),  # "add tensor-tensor int64 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|binary:nan|uint8xcomplex': ('add', 'tensor-tensor', 'uint8', 'complex128'),  # "add tensor-tensor uint8 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|inplace:error-type|float16xcomplex': ('add', 'inplace-scalar', 'float16', (1+2j)),  # "add inplace-scalar float16 (1+2j): chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comp"
    'add|inplace:nan|complexxcomplex': ('add', 'inplace-tensor', 'complex128', 'complex128'),  # "add inplace-tensor complex128 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|inplace:nan|complexxfloat': ('add', 'inplace-tensor', 'complex128', 'float32'),  # "add inplace-tensor complex128 'float32': chainrule ('complex128',) / PyTorch ('complex128',)"
    'add|inplace:nan|complexxfloat16': ('add', 'inplace-tensor', 'complex128', 'float16'),  # "add inplace-tensor complex128 'float16': chainrule ('complex128',) / PyTorch ('complex128',)"
    'and|binary:error-type|complexxfloat16': ('and', '0d-tensor', 'complex128', 'float16'),  # "and 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wit"
    'and|binary:error-type|float16xcomplex': ('and', 'tensor-0d', 'float16', 'complex128'),  # "and tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wit"
    'and|binary:missing-error|boolxbigint': ('and', 'tensor-scalar', 'bool', 9223372036854775808),  # "and tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([0, 0, 0, 0]) / 'Promotion for uint16, uint32, uint"
    'and|inplace:error-text|boolxbigint': ('and', 'inplace-scalar', 'bool', 9223372036854775808),  # 'and inplace-scalar bool 9223372036854775808: chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) "result type Long can\'t be cast to the desired ou'
    'and|inplace:error-type|boolxcomplex': ('and', 'inplace-tensor', 'bool', 'complex128'),  # 'and inplace-tensor bool \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'ComplexD'
    'and|inplace:error-type|boolxfloat': ('and', 'inplace-tensor', 'bool', 'float64'),  # 'and inplace-tensor bool \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Double\\\'\' /'
    'and|inplace:error-type|boolxfloat16': ('and', 'inplace-tensor', 'bool', 'float16'),  # 'and inplace-tensor bool \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Half\\\'\' / "'
    'and|inplace:error-type|float16xcomplex': ('and', 'inplace-tensor', 'float16', 'complex128'),  # 'and inplace-tensor float16 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Compl'
    'and|inplace:error-type|floatxcomplex': ('and', 'inplace-tensor', 'float64', 'complex128'),  # 'and inplace-tensor float64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Compl'
    'and|inplace:error-type|intxcomplex': ('and', 'inplace-tensor', 'int64', 'complex128'),  # 'and inplace-tensor int64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Complex'
    'and|inplace:error-type|intxfloat': ('and', 'inplace-tensor', 'int64', 'float64'),  # 'and inplace-tensor int64 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Double\\\'\' '
    'and|inplace:error-type|intxfloat16': ('and', 'inplace-tensor', 'int64', 'float16'),  # 'and inplace-tensor int64 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Half\\\'\' / '
    'and|inplace:error-type|uint8xcomplex': ('and', 'inplace-tensor', 'uint8', 'complex128'),  # 'and inplace-tensor uint8 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Complex'
    'and|inplace:error-type|uint8xfloat': ('and', 'inplace-tensor', 'uint8', 'float64'),  # 'and inplace-tensor uint8 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Double\\\'\' '
    'and|inplace:error-type|uint8xfloat16': ('and', 'inplace-tensor', 'uint8', 'float16'),  # 'and inplace-tensor uint8 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_and_cpu" not implemented for \\\'Half\\\'\' / '
    'atan2|binary:error-type|complexxfloat16': ('atan2', '0d-tensor', 'complex128', 'float16'),  # "atan2 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 w"
    'atan2|binary:error-type|float16xcomplex': ('atan2', 'tensor-0d', 'float16', 'complex128'),  # "atan2 tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 w"
    'bitwise_and|binary:error-type|complexxfloat16': ('bitwise_and', '0d-tensor', 'complex128', 'float16'),  # "bitwise_and 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): flo"
    'bitwise_and|binary:error-type|float16xcomplex': ('bitwise_and', 'tensor-0d', 'float16', 'complex128'),  # "bitwise_and tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): flo"
    'bitwise_and|binary:missing-error|boolxbigint': ('bitwise_and', 'tensor-scalar', 'bool', 9223372036854775808),  # "bitwise_and tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([0, 0, 0, 0]) / 'Promotion for uint16, uint"
    'copysign|binary:error-type|complexxfloat16': ('copysign', '0d-tensor', 'complex128', 'float16'),  # "copysign 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float1"
    'copysign|binary:error-type|float16xcomplex': ('copysign', 'tensor-0d', 'float16', 'complex128'),  # "copysign tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float1"
    'copysign|binary:missing-error|boolxbigint': ('copysign', 'tensor-scalar', 'bool', 9223372036854775808),  # "copysign tensor-scalar bool 9223372036854775808: chainrule ('float32',) / PyTorch ('RuntimeError',) array([1., 0., 1., 0.], dtype=float32) / 'Promotio"
    'eq|binary:extra-error|float16xcomplex': ('eq', 'tensor-scalar', 'float16', (1+2j)),  # "eq tensor-scalar float16 (1+2j): chainrule ('TypeError',) / PyTorch ('bool',) 'chainrule has no complex32 (ComplexHalf): float16 with a complex operan"
    'eq|binary:value|intxuint8': ('eq', '0d-tensor', 'int8', 'uint8'),  # "eq 0d-tensor int8 'uint8': chainrule ('bool',) / PyTorch ('bool',) [False, False, False, False] / [False, False, False, True]"
    'eq|binary:value|uint8xint': ('eq', 'tensor-0d', 'uint8', 'int8'),  # "eq tensor-0d uint8 'int8': chainrule ('bool',) / PyTorch ('bool',) [False, False, False, False] / [False, False, False, True]"
    'float_power|binary:missing-error|boolxbigint': ('float_power', 'tensor-scalar', 'bool', -9223372036854775809),  # 'float_power tensor-scalar bool -9223372036854775809: chainrule (\'float64\',) / PyTorch (\'OverflowError\',) array([ 1., inf,  1., inf]) / "can\'t convert '
    'float_power|binary:missing-error|complexxbigint': ('float_power', 'tensor-scalar', 'complex128', -9223372036854775809),  # "float_power tensor-scalar complex128 -9223372036854775809: chainrule ('complex128',) / PyTorch ('OverflowError',) array([ 0. -0.j, inf -0.j, nan+nanj,"
    'float_power|binary:missing-error|float16xbigint': ('float_power', 'tensor-scalar', 'float16', -9223372036854775809),  # 'float_power tensor-scalar float16 -9223372036854775809: chainrule (\'float64\',) / PyTorch (\'OverflowError\',) array([inf,  0.,  0., nan]) / "can\'t conve'
    'float_power|binary:missing-error|floatxbigint': ('float_power', 'tensor-scalar', 'float64', -9223372036854775809),  # 'float_power tensor-scalar float64 -9223372036854775809: chainrule (\'float64\',) / PyTorch (\'OverflowError\',) array([inf,  0.,  0.,  0.]) / "can\'t conve'
    'float_power|binary:missing-error|intxbigint': ('float_power', 'tensor-scalar', 'int64', -9223372036854775809),  # 'float_power tensor-scalar int64 -9223372036854775809: chainrule (\'float64\',) / PyTorch (\'OverflowError\',) array([ 0.,  0., inf,  0.]) / "can\'t convert'
    'float_power|binary:missing-error|uint8xbigint': ('float_power', 'tensor-scalar', 'uint8', -9223372036854775809),  # 'float_power tensor-scalar uint8 -9223372036854775809: chainrule (\'float64\',) / PyTorch (\'OverflowError\',) array([inf,  1.,  0.,  0.]) / "can\'t convert'
    'float_power|binary:nan|boolxcomplex': ('float_power', 'tensor-tensor', 'bool', 'complex128'),  # "float_power tensor-tensor bool 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|complexxbigint': ('float_power', 'tensor-scalar', 'complex64', -129),  # "float_power tensor-scalar complex64 -129: chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|complexxbool': ('float_power', 'tensor-tensor', 'complex128', 'bool'),  # "float_power tensor-tensor complex128 'bool': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|complexxcomplex': ('float_power', 'tensor-tensor', 'complex64', 'complex64'),  # "float_power tensor-tensor complex64 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|complexxfloat': ('float_power', 'tensor-tensor', 'complex64', 'float64'),  # "float_power tensor-tensor complex64 'float64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|complexxfloat16': ('float_power', '0d-tensor', 'complex64', 'float16'),  # "float_power 0d-tensor complex64 'float16': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|complexxint': ('float_power', 'tensor-tensor', 'complex128', 'int64'),  # "float_power tensor-tensor complex128 'int64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|complexxuint8': ('float_power', 'tensor-0d', 'complex128', 'uint8'),  # "float_power tensor-0d complex128 'uint8': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|float16xcomplex': ('float_power', 'tensor-0d', 'float16', 'complex64'),  # "float_power tensor-0d float16 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|floatxcomplex': ('float_power', 'tensor-0d', 'float64', 'complex64'),  # "float_power tensor-0d float64 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|intxcomplex': ('float_power', 'tensor-0d', 'int64', 'complex64'),  # "float_power tensor-0d int64 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:nan|uint8xcomplex': ('float_power', 'tensor-0d', 'uint8', 'complex64'),  # "float_power tensor-0d uint8 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|boolxcomplex': ('float_power', 'tensor-0d', 'bool', 'complex128'),  # "float_power tensor-0d bool 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|complexxbigint': ('float_power', 'tensor-scalar', 'complex64', 300),  # "float_power tensor-scalar complex64 300: chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|complexxbool': ('float_power', 'tensor-scalar', 'complex64', True),  # "float_power tensor-scalar complex64 True: chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|complexxcomplex': ('float_power', 'tensor-tensor', 'complex128', 'complex64'),  # "float_power tensor-tensor complex128 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|complexxfloat': ('float_power', '0d-tensor', 'complex128', 'float32'),  # "float_power 0d-tensor complex128 'float32': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|complexxfloat16': ('float_power', 'tensor-tensor', 'complex64', 'float16'),  # "float_power tensor-tensor complex64 'float16': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|complexxint': ('float_power', 'tensor-0d', 'complex128', 'int64'),  # "float_power tensor-0d complex128 'int64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|complexxuint8': ('float_power', 'tensor-tensor', 'complex64', 'uint8'),  # "float_power tensor-tensor complex64 'uint8': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|float16xcomplex': ('float_power', 'tensor-tensor', 'float16', 'complex64'),  # "float_power tensor-tensor float16 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|floatxcomplex': ('float_power', 'tensor-tensor', 'float64', 'complex64'),  # "float_power tensor-tensor float64 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|intxcomplex': ('float_power', 'tensor-tensor', 'int64', 'complex64'),  # "float_power tensor-tensor int64 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'float_power|binary:signed-zero|uint8xcomplex': ('float_power', 'tensor-tensor', 'uint8', 'complex64'),  # "float_power tensor-tensor uint8 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'floordiv|binary:error-type|complexxfloat16': ('floordiv', '0d-tensor', 'complex128', 'float16'),  # "floordiv 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float1"
    'floordiv|binary:error-type|float16xcomplex': ('floordiv', 'tensor-0d', 'float16', 'complex128'),  # "floordiv tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float1"
    'floordiv|binary:missing-error|boolxbigint': ('floordiv', 'tensor-scalar', 'bool', 9223372036854775808),  # "floordiv tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([-1,  0, -1,  0]) / 'Promotion for uint16, uin"
    'floordiv|inplace:error-text|boolxbigint': ('floordiv', 'inplace-scalar', 'bool', 9223372036854775808),  # 'floordiv inplace-scalar bool 9223372036854775808: chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) "result type Long can\'t be cast to the desir'
    'floordiv|inplace:error-text|boolxint': ('floordiv', 'inplace-tensor', 'bool', 'int64'),  # 'floordiv inplace-tensor bool \'int64\': chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) \'ZeroDivisionError\' / "result type Long can\'t be cast to'
    'floordiv|inplace:error-text|boolxuint8': ('floordiv', 'inplace-tensor', 'bool', 'uint8'),  # 'floordiv inplace-tensor bool \'uint8\': chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) \'ZeroDivisionError\' / "result type Byte can\'t be cast to'
    'floordiv|inplace:error-type|boolxcomplex': ('floordiv', 'inplace-tensor', 'bool', 'complex128'),  # 'floordiv inplace-tensor bool \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"div_floor_cpu" not implemented for \\\'Compl'
    'floordiv|inplace:error-type|float16xcomplex': ('floordiv', 'inplace-tensor', 'float16', 'complex128'),  # 'floordiv inplace-tensor float16 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"div_floor_cpu" not implemented for \\\'Co'
    'floordiv|inplace:error-type|floatxcomplex': ('floordiv', 'inplace-tensor', 'float64', 'complex128'),  # 'floordiv inplace-tensor float64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"div_floor_cpu" not implemented for \\\'Co'
    'floordiv|inplace:error-type|intxcomplex': ('floordiv', 'inplace-tensor', 'int64', 'complex128'),  # 'floordiv inplace-tensor int64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"div_floor_cpu" not implemented for \\\'Comp'
    'floordiv|inplace:error-type|uint8xcomplex': ('floordiv', 'inplace-tensor', 'uint8', 'complex128'),  # 'floordiv inplace-tensor uint8 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"div_floor_cpu" not implemented for \\\'Comp'
    'fmax|binary:error-type|complexxfloat16': ('fmax', '0d-tensor', 'complex128', 'float16'),  # "fmax 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a co"
    'fmax|binary:error-type|float16xcomplex': ('fmax', 'tensor-0d', 'float16', 'complex128'),  # "fmax tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a co"
    'fmax|binary:signed-zero|boolxfloat': ('fmax', '0d-tensor', 'bool', 'float32'),  # "fmax 0d-tensor bool 'float32': chainrule ('float32',) / PyTorch ('float32',)"
    'fmax|binary:signed-zero|floatxbool': ('fmax', 'tensor-0d', 'float32', 'bool'),  # "fmax tensor-0d float32 'bool': chainrule ('float32',) / PyTorch ('float32',)"
    'fmin|binary:error-type|complexxfloat16': ('fmin', '0d-tensor', 'complex128', 'float16'),  # "fmin 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a co"
    'fmin|binary:error-type|float16xcomplex': ('fmin', 'tensor-0d', 'float16', 'complex128'),  # "fmin tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a co"
    'fmin|binary:signed-zero|boolxfloat': ('fmin', '0d-tensor', 'bool', 'float32'),  # "fmin 0d-tensor bool 'float32': chainrule ('float32',) / PyTorch ('float32',)"
    'fmin|binary:signed-zero|floatxbool': ('fmin', 'tensor-0d', 'float32', 'bool'),  # "fmin tensor-0d float32 'bool': chainrule ('float32',) / PyTorch ('float32',)"
    'fmod|binary:error-type|complexxfloat16': ('fmod', '0d-tensor', 'complex128', 'float16'),  # "fmod 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wi"
    'fmod|binary:error-type|float16xcomplex': ('fmod', 'tensor-0d', 'float16', 'complex128'),  # "fmod tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wi"
    'fmod|binary:missing-error|boolxbigint': ('fmod', 'tensor-scalar', 'bool', 9223372036854775808),  # "fmod tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([1, 0, 1, 0]) / 'Promotion for uint16, uint32, uin"
    'ge|binary:error-type|complexxbigint': ('ge', 'tensor-scalar', 'complex128', -9223372036854775809),  # 'ge tensor-scalar complex128 -9223372036854775809: chainrule (\'NotImplementedError\',) / PyTorch (\'OverflowError\',) \'"ge_cpu" not implemented for \\\'Comp'
    'ge|binary:error-type|complexxfloat16': ('ge', '0d-tensor', 'complex128', 'float16'),  # "ge 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'ge|binary:error-type|float16xcomplex': ('ge', 'tensor-0d', 'float16', 'complex128'),  # "ge tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'ge|binary:value|intxuint8': ('ge', '0d-tensor', 'int64', 'uint8'),  # "ge 0d-tensor int64 'uint8': chainrule ('bool',) / PyTorch ('bool',) [False, False, False, False] / [True, True, True, False]"
    'ge|binary:value|uint8xint': ('ge', 'tensor-0d', 'uint8', 'int64'),  # "ge tensor-0d uint8 'int64': chainrule ('bool',) / PyTorch ('bool',) [True, True, True, True] / [False, False, False, True]"
    'gt|binary:error-type|complexxbigint': ('gt', 'tensor-scalar', 'complex128', -9223372036854775809),  # 'gt tensor-scalar complex128 -9223372036854775809: chainrule (\'NotImplementedError\',) / PyTorch (\'OverflowError\',) \'"gt_cpu" not implemented for \\\'Comp'
    'gt|binary:error-type|complexxfloat16': ('gt', '0d-tensor', 'complex128', 'float16'),  # "gt 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'gt|binary:error-type|float16xcomplex': ('gt', 'tensor-0d', 'float16', 'complex128'),  # "gt tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'gt|binary:value|intxuint8': ('gt', '0d-tensor', 'int64', 'uint8'),  # "gt 0d-tensor int64 'uint8': chainrule ('bool',) / PyTorch ('bool',) [False, False, False, False] / [True, True, True, False]"
    'gt|binary:value|uint8xint': ('gt', 'tensor-0d', 'uint8', 'int64'),  # "gt tensor-0d uint8 'int64': chainrule ('bool',) / PyTorch ('bool',) [True, True, True, True] / [False, False, False, True]"
    'hypot|binary:error-type|complexxfloat16': ('hypot', '0d-tensor', 'complex128', 'float16'),  # "hypot 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 w"
    'hypot|binary:error-type|float16xcomplex': ('hypot', 'tensor-0d', 'float16', 'complex128'),  # "hypot tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 w"
    'le|binary:error-type|complexxbigint': ('le', 'tensor-scalar', 'complex128', -9223372036854775809),  # 'le tensor-scalar complex128 -9223372036854775809: chainrule (\'NotImplementedError\',) / PyTorch (\'OverflowError\',) \'"le_cpu" not implemented for \\\'Comp'
    'le|binary:error-type|complexxfloat16': ('le', '0d-tensor', 'complex128', 'float16'),  # "le 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'le|binary:error-type|float16xcomplex': ('le', 'tensor-0d', 'float16', 'complex128'),  # "le tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'le|binary:value|intxuint8': ('le', '0d-tensor', 'int64', 'uint8'),  # "le 0d-tensor int64 'uint8': chainrule ('bool',) / PyTorch ('bool',) [True, True, True, True] / [False, False, False, True]"
    'le|binary:value|uint8xint': ('le', 'tensor-0d', 'uint8', 'int64'),  # "le tensor-0d uint8 'int64': chainrule ('bool',) / PyTorch ('bool',) [False, False, False, False] / [True, True, True, False]"
    'logical_and|binary:missing-error|complexxfloat16': ('logical_and', '0d-tensor', 'complex128', 'float16'),  # 'logical_and 0d-tensor complex128 \'float16\': chainrule (\'bool\',) / PyTorch (\'NotImplementedError\',) array([False,  True,  True,  True]) / \'"logical_and'
    'logical_and|binary:missing-error|float16xcomplex': ('logical_and', 'tensor-0d', 'float16', 'complex128'),  # 'logical_and tensor-0d float16 \'complex128\': chainrule (\'bool\',) / PyTorch (\'NotImplementedError\',) array([False,  True,  True,  True]) / \'"logical_and'
    'lshift|binary:error-type|complexxfloat16': ('lshift', '0d-tensor', 'complex128', 'float16'),  # "lshift 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 "
    'lshift|binary:error-type|float16xcomplex': ('lshift', 'tensor-0d', 'float16', 'complex128'),  # "lshift tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 "
    'lshift|binary:missing-error|boolxbigint': ('lshift', 'tensor-scalar', 'bool', 9223372036854775808),  # "lshift tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([0, 0, 0, 0]) / 'Promotion for uint16, uint32, u"
    'lshift|inplace:error-text|boolxbigint': ('lshift', 'inplace-scalar', 'bool', 9223372036854775808),  # 'lshift inplace-scalar bool 9223372036854775808: chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) "result type Long can\'t be cast to the desired'
    'lshift|inplace:error-type|boolxcomplex': ('lshift', 'inplace-tensor', 'bool', 'complex128'),  # 'lshift inplace-tensor bool \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'ComplexDou'
    'lshift|inplace:error-type|boolxfloat': ('lshift', 'inplace-tensor', 'bool', 'float64'),  # 'lshift inplace-tensor bool \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'Double\\\'\' / "'
    'lshift|inplace:error-type|boolxfloat16': ('lshift', 'inplace-tensor', 'bool', 'float16'),  # 'lshift inplace-tensor bool \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'Half\\\'\' / "re'
    'lshift|inplace:error-type|float16xcomplex': ('lshift', 'inplace-tensor', 'float16', 'complex128'),  # 'lshift inplace-tensor float16 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'Complex'
    'lshift|inplace:error-type|floatxcomplex': ('lshift', 'inplace-tensor', 'float64', 'complex128'),  # 'lshift inplace-tensor float64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'Complex'
    'lshift|inplace:error-type|intxcomplex': ('lshift', 'inplace-tensor', 'int64', 'complex128'),  # 'lshift inplace-tensor int64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'ComplexDo'
    'lshift|inplace:error-type|intxfloat': ('lshift', 'inplace-tensor', 'int64', 'float64'),  # 'lshift inplace-tensor int64 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'Double\\\'\' / '
    'lshift|inplace:error-type|intxfloat16': ('lshift', 'inplace-tensor', 'int64', 'float16'),  # 'lshift inplace-tensor int64 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'Half\\\'\' / "r'
    'lshift|inplace:error-type|uint8xcomplex': ('lshift', 'inplace-tensor', 'uint8', 'complex128'),  # 'lshift inplace-tensor uint8 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'ComplexDo'
    'lshift|inplace:error-type|uint8xfloat': ('lshift', 'inplace-tensor', 'uint8', 'float64'),  # 'lshift inplace-tensor uint8 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'Double\\\'\' / '
    'lshift|inplace:error-type|uint8xfloat16': ('lshift', 'inplace-tensor', 'uint8', 'float16'),  # 'lshift inplace-tensor uint8 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"lshift_cpu" not implemented for \\\'Half\\\'\' / "r'
    'lt|binary:error-type|complexxbigint': ('lt', 'tensor-scalar', 'complex128', -9223372036854775809),  # 'lt tensor-scalar complex128 -9223372036854775809: chainrule (\'NotImplementedError\',) / PyTorch (\'OverflowError\',) \'"lt_cpu" not implemented for \\\'Comp'
    'lt|binary:error-type|complexxfloat16': ('lt', '0d-tensor', 'complex128', 'float16'),  # "lt 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'lt|binary:error-type|float16xcomplex': ('lt', 'tensor-0d', 'float16', 'complex128'),  # "lt tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'lt|binary:value|intxuint8': ('lt', '0d-tensor', 'int64', 'uint8'),  # "lt 0d-tensor int64 'uint8': chainrule ('bool',) / PyTorch ('bool',) [True, True, True, True] / [False, False, False, True]"
    'lt|binary:value|uint8xint': ('lt', 'tensor-0d', 'uint8', 'int64'),  # "lt tensor-0d uint8 'int64': chainrule ('bool',) / PyTorch ('bool',) [False, False, False, False] / [True, True, True, False]"
    'maximum|binary:error-type|complexxfloat16': ('maximum', '0d-tensor', 'complex128', 'float16'),  # "maximum 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a"
    'maximum|binary:error-type|float16xcomplex': ('maximum', 'tensor-0d', 'float16', 'complex128'),  # "maximum tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a"
    'maximum|binary:signed-zero|boolxfloat': ('maximum', '0d-tensor', 'bool', 'float32'),  # "maximum 0d-tensor bool 'float32': chainrule ('float32',) / PyTorch ('float32',)"
    'maximum|binary:signed-zero|float16xfloat': ('maximum', 'tensor-tensor', 'float16', 'float64'),  # "maximum tensor-tensor float16 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'maximum|binary:signed-zero|floatxbool': ('maximum', 'tensor-0d', 'float32', 'bool'),  # "maximum tensor-0d float32 'bool': chainrule ('float32',) / PyTorch ('float32',)"
    'maximum|binary:signed-zero|floatxfloat': ('maximum', 'tensor-tensor', 'float64', 'float32'),  # "maximum tensor-tensor float64 'float32': chainrule ('float64',) / PyTorch ('float64',)"
    'maximum|binary:signed-zero|floatxfloat16': ('maximum', 'tensor-tensor', 'float64', 'float16'),  # "maximum tensor-tensor float64 'float16': chainrule ('float64',) / PyTorch ('float64',)"
    'maximum|binary:signed-zero|floatxuint8': ('maximum', 'tensor-tensor', 'float32', 'uint8'),  # "maximum tensor-tensor float32 'uint8': chainrule ('float32',) / PyTorch ('float32',)"
    'maximum|binary:signed-zero|uint8xfloat': ('maximum', 'tensor-tensor', 'uint8', 'float32'),  # "maximum tensor-tensor uint8 'float32': chainrule ('float32',) / PyTorch ('float32',)"
    'minimum|binary:error-type|complexxfloat16': ('minimum', '0d-tensor', 'complex128', 'float16'),  # "minimum 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a"
    'minimum|binary:error-type|float16xcomplex': ('minimum', 'tensor-0d', 'float16', 'complex128'),  # "minimum tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a"
    'minimum|binary:signed-zero|boolxfloat': ('minimum', '0d-tensor', 'bool', 'float32'),  # "minimum 0d-tensor bool 'float32': chainrule ('float32',) / PyTorch ('float32',)"
    'minimum|binary:signed-zero|float16xfloat': ('minimum', 'tensor-tensor', 'float16', 'float64'),  # "minimum tensor-tensor float16 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'minimum|binary:signed-zero|floatxbool': ('minimum', 'tensor-0d', 'float32', 'bool'),  # "minimum tensor-0d float32 'bool': chainrule ('float32',) / PyTorch ('float32',)"
    'minimum|binary:signed-zero|floatxfloat': ('minimum', 'tensor-tensor', 'float64', 'float32'),  # "minimum tensor-tensor float64 'float32': chainrule ('float64',) / PyTorch ('float64',)"
    'minimum|binary:signed-zero|floatxfloat16': ('minimum', 'tensor-tensor', 'float64', 'float16'),  # "minimum tensor-tensor float64 'float16': chainrule ('float64',) / PyTorch ('float64',)"
    'minimum|binary:signed-zero|floatxuint8': ('minimum', 'tensor-tensor', 'float32', 'uint8'),  # "minimum tensor-tensor float32 'uint8': chainrule ('float32',) / PyTorch ('float32',)"
    'minimum|binary:signed-zero|uint8xfloat': ('minimum', 'tensor-tensor', 'uint8', 'float32'),  # "minimum tensor-tensor uint8 'float32': chainrule ('float32',) / PyTorch ('float32',)"
    'mod|binary:error-type|complexxfloat16': ('mod', '0d-tensor', 'complex128', 'float16'),  # "mod 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wit"
    'mod|binary:error-type|float16xcomplex': ('mod', 'tensor-0d', 'float16', 'complex128'),  # "mod tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wit"
    'mod|binary:missing-error|boolxbigint': ('mod', 'tensor-scalar', 'bool', 9223372036854775808),  # "mod tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([-9223372036854775807,                    0, -92233"
    'mod|binary:signed-zero|boolxfloat': ('mod', 'tensor-tensor', 'bool', 'float64'),  # "mod tensor-tensor bool 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'mod|binary:signed-zero|boolxfloat16': ('mod', 'scalar-tensor', 'bool', 'float16'),  # "mod scalar-tensor bool 'float16': chainrule ('float16',) / PyTorch ('float16',)"
    'mod|binary:signed-zero|float16xbigint': ('mod', 'tensor-scalar', 'float16', 300),  # "mod tensor-scalar float16 300: chainrule ('float16',) / PyTorch ('float16',)"
    'mod|binary:signed-zero|float16xbool': ('mod', 'tensor-tensor', 'float16', 'bool'),  # "mod tensor-tensor float16 'bool': chainrule ('float16',) / PyTorch ('float16',)"
    'mod|binary:signed-zero|float16xfloat': ('mod', 'tensor-scalar', 'float16', 2.5),  # "mod tensor-scalar float16 2.5: chainrule ('float16',) / PyTorch ('float16',)"
    'mod|binary:signed-zero|float16xfloat16': ('mod', 'tensor-0d', 'float16', 'float16'),  # "mod tensor-0d float16 'float16': chainrule ('float16',) / PyTorch ('float16',)"
    'mod|binary:signed-zero|float16xint': ('mod', 'tensor-scalar', 'float16', 3),  # "mod tensor-scalar float16 3: chainrule ('float16',) / PyTorch ('float16',)"
    'mod|binary:signed-zero|float16xuint8': ('mod', 'tensor-0d', 'float16', 'uint8'),  # "mod tensor-0d float16 'uint8': chainrule ('float16',) / PyTorch ('float16',)"
    'mod|binary:signed-zero|floatxbigint': ('mod', 'tensor-scalar', 'float64', -129),  # "mod tensor-scalar float64 -129: chainrule ('float64',) / PyTorch ('float64',)"
    'mod|binary:signed-zero|floatxbool': ('mod', 'tensor-tensor', 'float32', 'bool'),  # "mod tensor-tensor float32 'bool': chainrule ('float32',) / PyTorch ('float32',)"
    'mod|binary:signed-zero|floatxfloat': ('mod', 'tensor-0d', 'float64', 'float64'),  # "mod tensor-0d float64 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'mod|binary:signed-zero|floatxfloat16': ('mod', 'tensor-0d', 'float32', 'float16'),  # "mod tensor-0d float32 'float16': chainrule ('float32',) / PyTorch ('float32',)"
    'mod|binary:signed-zero|floatxint': ('mod', 'tensor-tensor', 'float64', 'int64'),  # "mod tensor-tensor float64 'int64': chainrule ('float64',) / PyTorch ('float64',)"
    'mod|binary:signed-zero|floatxuint8': ('mod', 'tensor-0d', 'float32', 'uint8'),  # "mod tensor-0d float32 'uint8': chainrule ('float32',) / PyTorch ('float32',)"
    'mod|binary:signed-zero|intxfloat': ('mod', 'tensor-tensor', 'int64', 'float64'),  # "mod tensor-tensor int64 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'mod|binary:signed-zero|intxfloat16': ('mod', 'tensor-tensor', 'int64', 'float16'),  # "mod tensor-tensor int64 'float16': chainrule ('float16',) / PyTorch ('float16',)"
    'mod|binary:signed-zero|uint8xfloat': ('mod', 'tensor-0d', 'uint8', 'float64'),  # "mod tensor-0d uint8 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'mod|inplace:error-text|boolxbigint': ('mod', 'inplace-scalar', 'bool', 9223372036854775808),  # 'mod inplace-scalar bool 9223372036854775808: chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) "result type Long can\'t be cast to the desired ou'
    'mod|inplace:error-text|boolxint': ('mod', 'inplace-tensor', 'bool', 'int64'),  # 'mod inplace-tensor bool \'int64\': chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) \'ZeroDivisionError\' / "result type Long can\'t be cast to the '
    'mod|inplace:error-text|boolxuint8': ('mod', 'inplace-tensor', 'bool', 'uint8'),  # 'mod inplace-tensor bool \'uint8\': chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) \'ZeroDivisionError\' / "result type Byte can\'t be cast to the '
    'mod|inplace:error-type|boolxcomplex': ('mod', 'inplace-tensor', 'bool', 'complex128'),  # 'mod inplace-tensor bool \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"remainder_cpu" not implemented for \\\'ComplexDou'
    'mod|inplace:error-type|float16xcomplex': ('mod', 'inplace-tensor', 'float16', 'complex128'),  # 'mod inplace-tensor float16 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"remainder_cpu" not implemented for \\\'Complex'
    'mod|inplace:error-type|floatxcomplex': ('mod', 'inplace-tensor', 'float64', 'complex128'),  # 'mod inplace-tensor float64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"remainder_cpu" not implemented for \\\'Complex'
    'mod|inplace:error-type|intxcomplex': ('mod', 'inplace-tensor', 'int64', 'complex128'),  # 'mod inplace-tensor int64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"remainder_cpu" not implemented for \\\'ComplexDo'
    'mod|inplace:error-type|uint8xcomplex': ('mod', 'inplace-tensor', 'uint8', 'complex128'),  # 'mod inplace-tensor uint8 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"remainder_cpu" not implemented for \\\'ComplexDo'
    'mod|inplace:signed-zero|float16xbigint': ('mod', 'inplace-scalar', 'float16', 300),  # "mod inplace-scalar float16 300: chainrule ('float16',) / PyTorch ('float16',)"
    'mod|inplace:signed-zero|float16xbool': ('mod', 'inplace-tensor', 'float16', 'bool'),  # "mod inplace-tensor float16 'bool': chainrule ('float16',) / PyTorch ('float16',)"
    'mod|inplace:signed-zero|float16xfloat': ('mod', 'inplace-scalar', 'float16', 2.5),  # "mod inplace-scalar float16 2.5: chainrule ('float16',) / PyTorch ('float16',)"
    'mod|inplace:signed-zero|float16xint': ('mod', 'inplace-scalar', 'float16', 3),  # "mod inplace-scalar float16 3: chainrule ('float16',) / PyTorch ('float16',)"
    'mod|inplace:signed-zero|floatxbigint': ('mod', 'inplace-scalar', 'float64', -129),  # "mod inplace-scalar float64 -129: chainrule ('float64',) / PyTorch ('float64',)"
    'mod|inplace:signed-zero|floatxbool': ('mod', 'inplace-tensor', 'float32', 'bool'),  # "mod inplace-tensor float32 'bool': chainrule ('float32',) / PyTorch ('float32',)"
    'mod|inplace:signed-zero|floatxfloat': ('mod', 'inplace-scalar', 'float64', 2.5),  # "mod inplace-scalar float64 2.5: chainrule ('float64',) / PyTorch ('float64',)"
    'mod|inplace:signed-zero|floatxint': ('mod', 'inplace-tensor', 'float64', 'int64'),  # "mod inplace-tensor float64 'int64': chainrule ('float64',) / PyTorch ('float64',)"
    'mul|binary:error-text|complexxfloat16': ('mul', '0d-tensor', 'complex128', 'float16'),  # "mul 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('TypeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comple"
    'mul|binary:error-text|float16xcomplex': ('mul', 'tensor-0d', 'float16', 'complex128'),  # "mul tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('TypeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comple"
    'mul|binary:nan|boolxfloat': ('mul', 'tensor-scalar', 'bool', 1e+300),  # "mul tensor-scalar bool 1e+300: chainrule ('float32',) / PyTorch ('float32',)"
    'mul|binary:nan|float16xbigint': ('mul', 'tensor-scalar', 'float16', 2147483648),  # "mul tensor-scalar float16 2147483648: chainrule ('float16',) / PyTorch ('float16',)"
    'mul|binary:nan|intxfloat': ('mul', 'tensor-scalar', 'int64', 1e+300),  # "mul tensor-scalar int64 1e+300: chainrule ('float32',) / PyTorch ('float32',)"
    'mul|binary:nan|uint8xfloat': ('mul', 'tensor-scalar', 'uint8', 1e+300),  # "mul tensor-scalar uint8 1e+300: chainrule ('float32',) / PyTorch ('float32',)"
    'mul|inplace:error-type|float16xcomplex': ('mul', 'inplace-scalar', 'float16', (1+2j)),  # "mul inplace-scalar float16 (1+2j): chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comp"
    'mul|inplace:nan|float16xbigint': ('mul', 'inplace-scalar', 'float16', 2147483648),  # "mul inplace-scalar float16 2147483648: chainrule ('float16',) / PyTorch ('float16',)"
    'ne|binary:extra-error|float16xcomplex': ('ne', 'tensor-scalar', 'float16', (1+2j)),  # "ne tensor-scalar float16 (1+2j): chainrule ('TypeError',) / PyTorch ('bool',) 'chainrule has no complex32 (ComplexHalf): float16 with a complex operan"
    'ne|binary:value|intxuint8': ('ne', '0d-tensor', 'int8', 'uint8'),  # "ne 0d-tensor int8 'uint8': chainrule ('bool',) / PyTorch ('bool',) [True, True, True, True] / [True, True, True, False]"
    'ne|binary:value|uint8xint': ('ne', 'tensor-0d', 'uint8', 'int8'),  # "ne tensor-0d uint8 'int8': chainrule ('bool',) / PyTorch ('bool',) [True, True, True, True] / [True, True, True, False]"
    'or|binary:error-type|complexxfloat16': ('or', '0d-tensor', 'complex128', 'float16'),  # "or 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'or|binary:error-type|float16xcomplex': ('or', 'tensor-0d', 'float16', 'complex128'),  # "or tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 with"
    'or|binary:missing-error|boolxbigint': ('or', 'tensor-scalar', 'bool', 9223372036854775808),  # "or tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([-9223372036854775807, -9223372036854775808, -922337"
    'or|inplace:error-text|boolxbigint': ('or', 'inplace-scalar', 'bool', 9223372036854775808),  # 'or inplace-scalar bool 9223372036854775808: chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) "result type Long can\'t be cast to the desired out'
    'or|inplace:error-type|boolxcomplex': ('or', 'inplace-tensor', 'bool', 'complex128'),  # 'or inplace-tensor bool \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'ComplexDou'
    'or|inplace:error-type|boolxfloat': ('or', 'inplace-tensor', 'bool', 'float64'),  # 'or inplace-tensor bool \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'Double\\\'\' / "'
    'or|inplace:error-type|boolxfloat16': ('or', 'inplace-tensor', 'bool', 'float16'),  # 'or inplace-tensor bool \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'Half\\\'\' / "re'
    'or|inplace:error-type|float16xcomplex': ('or', 'inplace-tensor', 'float16', 'complex128'),  # 'or inplace-tensor float16 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'Complex'
    'or|inplace:error-type|floatxcomplex': ('or', 'inplace-tensor', 'float64', 'complex128'),  # 'or inplace-tensor float64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'Complex'
    'or|inplace:error-type|intxcomplex': ('or', 'inplace-tensor', 'int64', 'complex128'),  # 'or inplace-tensor int64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'ComplexDo'
    'or|inplace:error-type|intxfloat': ('or', 'inplace-tensor', 'int64', 'float64'),  # 'or inplace-tensor int64 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'Double\\\'\' / '
    'or|inplace:error-type|intxfloat16': ('or', 'inplace-tensor', 'int64', 'float16'),  # 'or inplace-tensor int64 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'Half\\\'\' / "r'
    'or|inplace:error-type|uint8xcomplex': ('or', 'inplace-tensor', 'uint8', 'complex128'),  # 'or inplace-tensor uint8 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'ComplexDo'
    'or|inplace:error-type|uint8xfloat': ('or', 'inplace-tensor', 'uint8', 'float64'),  # 'or inplace-tensor uint8 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'Double\\\'\' / '
    'or|inplace:error-type|uint8xfloat16': ('or', 'inplace-tensor', 'uint8', 'float16'),  # 'or inplace-tensor uint8 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_or_cpu" not implemented for \\\'Half\\\'\' / "r'
    'pow|binary:error-text|float16xcomplex': ('pow', 'tensor-scalar', 'float16', -0j),  # "pow tensor-scalar float16 -0j: chainrule ('TypeError',) / PyTorch ('TypeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a complex ope"
    'pow|binary:error-text|intxbigint': ('pow', 'tensor-scalar', 'int32', 9223372036854775808),  # "pow tensor-scalar int32 9223372036854775808: chainrule ('RuntimeError',) / PyTorch ('RuntimeError',) 'value cannot be converted to type int without ov"
    'pow|binary:error-text|uint8xbigint': ('pow', 'tensor-scalar', 'uint8', 9223372036854775808),  # "pow tensor-scalar uint8 9223372036854775808: chainrule ('RuntimeError',) / PyTorch ('RuntimeError',) 'value cannot be converted to type uint8_t withou"
    'pow|binary:error-type|boolxbigint': ('pow', 'tensor-scalar', 'bool', 9223372036854775808),  # "pow tensor-scalar bool 9223372036854775808: chainrule ('OverflowError',) / PyTorch ('RuntimeError',) 'Python int too large to convert to C long' / 'va"
    'pow|binary:error-type|complexxfloat16': ('pow', '0d-tensor', 'complex128', 'float16'),  # "pow 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wit"
    'pow|binary:error-type|float16xcomplex': ('pow', 'tensor-0d', 'float16', 'complex128'),  # "pow tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wit"
    'pow|binary:error-type|intxbigint': ('pow', 'tensor-scalar', 'int64', -9223372036854775809),  # "pow tensor-scalar int64 -9223372036854775809: chainrule ('RuntimeError',) / PyTorch ('OverflowError',) 'Integers to negative integer powers are not al"
    'pow|binary:error-type|uint8xbigint': ('pow', 'tensor-scalar', 'uint8', -9223372036854775809),  # "pow tensor-scalar uint8 -9223372036854775809: chainrule ('RuntimeError',) / PyTorch ('OverflowError',) 'Integers to negative integer powers are not al"
    'pow|binary:missing-error|float16xbigint': ('pow', 'tensor-scalar', 'float16', 2147483648),  # "pow tensor-scalar float16 2147483648: chainrule ('float16',) / PyTorch ('RuntimeError',) array([ 0., inf, inf, nan], dtype=float16) / 'value cannot be"
    'pow|binary:missing-error|float16xfloat': ('pow', 'tensor-scalar', 'float16', 1e+300),  # "pow tensor-scalar float16 1e+300: chainrule ('float16',) / PyTorch ('RuntimeError',) array([ 0., inf, inf, nan], dtype=float16) / 'value cannot be con"
    'pow|binary:nan|boolxcomplex': ('pow', 'tensor-tensor', 'bool', 'complex128'),  # "pow tensor-tensor bool 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:nan|complexxbigint': ('pow', 'tensor-scalar', 'complex64', -129),  # "pow tensor-scalar complex64 -129: chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:nan|complexxbool': ('pow', 'tensor-tensor', 'complex128', 'bool'),  # "pow tensor-tensor complex128 'bool': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:nan|complexxcomplex': ('pow', 'tensor-tensor', 'complex64', 'complex64'),  # "pow tensor-tensor complex64 'complex64': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:nan|complexxfloat': ('pow', 'tensor-tensor', 'complex64', 'float64'),  # "pow tensor-tensor complex64 'float64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:nan|complexxint': ('pow', 'tensor-tensor', 'complex128', 'int64'),  # "pow tensor-tensor complex128 'int64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:nan|complexxuint8': ('pow', 'tensor-0d', 'complex128', 'uint8'),  # "pow tensor-0d complex128 'uint8': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:nan|floatxcomplex': ('pow', 'tensor-0d', 'float64', 'complex64'),  # "pow tensor-0d float64 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:nan|intxcomplex': ('pow', 'tensor-0d', 'int64', 'complex64'),  # "pow tensor-0d int64 'complex64': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:nan|uint8xcomplex': ('pow', 'tensor-0d', 'uint8', 'complex64'),  # "pow tensor-0d uint8 'complex64': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:signed-zero|boolxcomplex': ('pow', 'tensor-0d', 'bool', 'complex128'),  # "pow tensor-0d bool 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:signed-zero|complexxbigint': ('pow', 'tensor-scalar', 'complex64', 300),  # "pow tensor-scalar complex64 300: chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:signed-zero|complexxbool': ('pow', 'tensor-scalar', 'complex64', True),  # "pow tensor-scalar complex64 True: chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:signed-zero|complexxcomplex': ('pow', 'tensor-tensor', 'complex128', 'complex64'),  # "pow tensor-tensor complex128 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:signed-zero|complexxfloat': ('pow', '0d-tensor', 'complex128', 'float32'),  # "pow 0d-tensor complex128 'float32': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:signed-zero|complexxfloat16': ('pow', 'tensor-tensor', 'complex64', 'float16'),  # "pow tensor-tensor complex64 'float16': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:signed-zero|complexxint': ('pow', 'tensor-0d', 'complex128', 'int64'),  # "pow tensor-0d complex128 'int64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:signed-zero|complexxuint8': ('pow', 'tensor-tensor', 'complex64', 'uint8'),  # "pow tensor-tensor complex64 'uint8': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:signed-zero|float16xcomplex': ('pow', 'tensor-tensor', 'float16', 'complex64'),  # "pow tensor-tensor float16 'complex64': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:signed-zero|floatxcomplex': ('pow', 'tensor-tensor', 'float64', 'complex64'),  # "pow tensor-tensor float64 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|binary:signed-zero|intxcomplex': ('pow', 'tensor-tensor', 'int64', 'complex64'),  # "pow tensor-tensor int64 'complex64': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:signed-zero|uint8xcomplex': ('pow', 'tensor-tensor', 'uint8', 'complex64'),  # "pow tensor-tensor uint8 'complex64': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|binary:value|uint8xint': ('pow', 'tensor-0d', 'uint8', 'int64'),  # "pow tensor-0d uint8 'int64': chainrule ('uint8',) / PyTorch ('uint8',) [0, 1, 0, 0] / [0, 1, 0, 255]"
    'pow|inplace:error-text|intxbigint': ('pow', 'inplace-scalar', 'int32', 9223372036854775808),  # "pow inplace-scalar int32 9223372036854775808: chainrule ('RuntimeError',) / PyTorch ('RuntimeError',) 'value cannot be converted to type int without o"
    'pow|inplace:error-text|uint8xbigint': ('pow', 'inplace-scalar', 'uint8', 9223372036854775808),  # "pow inplace-scalar uint8 9223372036854775808: chainrule ('RuntimeError',) / PyTorch ('RuntimeError',) 'value cannot be converted to type uint8_t witho"
    'pow|inplace:error-type|boolxbigint': ('pow', 'inplace-scalar', 'bool', 9223372036854775808),  # "pow inplace-scalar bool 9223372036854775808: chainrule ('OverflowError',) / PyTorch ('RuntimeError',) 'Python int too large to convert to C long' / 'v"
    'pow|inplace:error-type|float16xcomplex': ('pow', 'inplace-scalar', 'float16', (1+2j)),  # "pow inplace-scalar float16 (1+2j): chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comp"
    'pow|inplace:error-type|intxbigint': ('pow', 'inplace-scalar', 'int64', -9223372036854775809),  # "pow inplace-scalar int64 -9223372036854775809: chainrule ('RuntimeError',) / PyTorch ('OverflowError',) 'Integers to negative integer powers are not a"
    'pow|inplace:error-type|uint8xbigint': ('pow', 'inplace-scalar', 'uint8', -9223372036854775809),  # "pow inplace-scalar uint8 -9223372036854775809: chainrule ('RuntimeError',) / PyTorch ('OverflowError',) 'Integers to negative integer powers are not a"
    'pow|inplace:missing-error|float16xbigint': ('pow', 'inplace-scalar', 'float16', 2147483648),  # "pow inplace-scalar float16 2147483648: chainrule ('float16',) / PyTorch ('RuntimeError',) array([ 0., inf, inf, nan], dtype=float16) / 'value cannot b"
    'pow|inplace:missing-error|float16xfloat': ('pow', 'inplace-scalar', 'float16', 1e+300),  # "pow inplace-scalar float16 1e+300: chainrule ('float16',) / PyTorch ('RuntimeError',) array([ 0., inf, inf, nan], dtype=float16) / 'value cannot be co"
    'pow|inplace:nan|complexxbigint': ('pow', 'inplace-scalar', 'complex64', -129),  # "pow inplace-scalar complex64 -129: chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|inplace:nan|complexxbool': ('pow', 'inplace-tensor', 'complex128', 'bool'),  # "pow inplace-tensor complex128 'bool': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|inplace:nan|complexxcomplex': ('pow', 'inplace-tensor', 'complex64', 'complex64'),  # "pow inplace-tensor complex64 'complex64': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|inplace:nan|complexxfloat': ('pow', 'inplace-tensor', 'complex64', 'float64'),  # "pow inplace-tensor complex64 'float64': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|inplace:nan|complexxint': ('pow', 'inplace-tensor', 'complex128', 'int64'),  # "pow inplace-tensor complex128 'int64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|inplace:signed-zero|complexxbigint': ('pow', 'inplace-scalar', 'complex64', 300),  # "pow inplace-scalar complex64 300: chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|inplace:signed-zero|complexxbool': ('pow', 'inplace-scalar', 'complex64', True),  # "pow inplace-scalar complex64 True: chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|inplace:signed-zero|complexxcomplex': ('pow', 'inplace-tensor', 'complex128', 'complex64'),  # "pow inplace-tensor complex128 'complex64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|inplace:signed-zero|complexxfloat': ('pow', 'inplace-scalar', 'complex64', 2.5),  # "pow inplace-scalar complex64 2.5: chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|inplace:signed-zero|complexxfloat16': ('pow', 'inplace-tensor', 'complex64', 'float16'),  # "pow inplace-tensor complex64 'float16': chainrule ('complex64',) / PyTorch ('complex64',)"
    'pow|inplace:signed-zero|complexxint': ('pow', 'inplace-scalar', 'complex128', -3),  # "pow inplace-scalar complex128 -3: chainrule ('complex128',) / PyTorch ('complex128',)"
    'pow|inplace:signed-zero|complexxuint8': ('pow', 'inplace-tensor', 'complex64', 'uint8'),  # "pow inplace-tensor complex64 'uint8': chainrule ('complex64',) / PyTorch ('complex64',)"
    'remainder|binary:error-type|complexxfloat16': ('remainder', '0d-tensor', 'complex128', 'float16'),  # "remainder 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float"
    'remainder|binary:error-type|float16xcomplex': ('remainder', 'tensor-0d', 'float16', 'complex128'),  # "remainder tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float"
    'remainder|binary:missing-error|boolxbigint': ('remainder', 'tensor-scalar', 'bool', 9223372036854775808),  # "remainder tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([-9223372036854775807,                    0, "
    'remainder|binary:signed-zero|boolxfloat': ('remainder', 'tensor-tensor', 'bool', 'float64'),  # "remainder tensor-tensor bool 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'remainder|binary:signed-zero|boolxfloat16': ('remainder', 'scalar-tensor', 'bool', 'float16'),  # "remainder scalar-tensor bool 'float16': chainrule ('float16',) / PyTorch ('float16',)"
    'remainder|binary:signed-zero|float16xbigint': ('remainder', 'tensor-scalar', 'float16', 300),  # "remainder tensor-scalar float16 300: chainrule ('float16',) / PyTorch ('float16',)"
    'remainder|binary:signed-zero|float16xbool': ('remainder', 'tensor-tensor', 'float16', 'bool'),  # "remainder tensor-tensor float16 'bool': chainrule ('float16',) / PyTorch ('float16',)"
    'remainder|binary:signed-zero|float16xfloat': ('remainder', 'tensor-scalar', 'float16', 2.5),  # "remainder tensor-scalar float16 2.5: chainrule ('float16',) / PyTorch ('float16',)"
    'remainder|binary:signed-zero|float16xfloat16': ('remainder', 'tensor-0d', 'float16', 'float16'),  # "remainder tensor-0d float16 'float16': chainrule ('float16',) / PyTorch ('float16',)"
    'remainder|binary:signed-zero|float16xint': ('remainder', 'tensor-scalar', 'float16', 3),  # "remainder tensor-scalar float16 3: chainrule ('float16',) / PyTorch ('float16',)"
    'remainder|binary:signed-zero|float16xuint8': ('remainder', 'tensor-0d', 'float16', 'uint8'),  # "remainder tensor-0d float16 'uint8': chainrule ('float16',) / PyTorch ('float16',)"
    'remainder|binary:signed-zero|floatxbigint': ('remainder', 'tensor-scalar', 'float64', -129),  # "remainder tensor-scalar float64 -129: chainrule ('float64',) / PyTorch ('float64',)"
    'remainder|binary:signed-zero|floatxbool': ('remainder', 'tensor-tensor', 'float32', 'bool'),  # "remainder tensor-tensor float32 'bool': chainrule ('float32',) / PyTorch ('float32',)"
    'remainder|binary:signed-zero|floatxfloat': ('remainder', 'tensor-0d', 'float64', 'float64'),  # "remainder tensor-0d float64 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'remainder|binary:signed-zero|floatxfloat16': ('remainder', 'tensor-0d', 'float32', 'float16'),  # "remainder tensor-0d float32 'float16': chainrule ('float32',) / PyTorch ('float32',)"
    'remainder|binary:signed-zero|floatxint': ('remainder', 'tensor-tensor', 'float64', 'int64'),  # "remainder tensor-tensor float64 'int64': chainrule ('float64',) / PyTorch ('float64',)"
    'remainder|binary:signed-zero|floatxuint8': ('remainder', 'tensor-0d', 'float32', 'uint8'),  # "remainder tensor-0d float32 'uint8': chainrule ('float32',) / PyTorch ('float32',)"
    'remainder|binary:signed-zero|intxfloat': ('remainder', 'tensor-tensor', 'int64', 'float64'),  # "remainder tensor-tensor int64 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'remainder|binary:signed-zero|intxfloat16': ('remainder', 'tensor-tensor', 'int64', 'float16'),  # "remainder tensor-tensor int64 'float16': chainrule ('float16',) / PyTorch ('float16',)"
    'remainder|binary:signed-zero|uint8xfloat': ('remainder', 'tensor-0d', 'uint8', 'float64'),  # "remainder tensor-0d uint8 'float64': chainrule ('float64',) / PyTorch ('float64',)"
    'rshift|binary:error-type|complexxfloat16': ('rshift', '0d-tensor', 'complex128', 'float16'),  # "rshift 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 "
    'rshift|binary:error-type|float16xcomplex': ('rshift', 'tensor-0d', 'float16', 'complex128'),  # "rshift tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 "
    'rshift|binary:missing-error|boolxbigint': ('rshift', 'tensor-scalar', 'bool', 9223372036854775808),  # "rshift tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([0, 0, 0, 0]) / 'Promotion for uint16, uint32, u"
    'rshift|binary:value|intxuint8': ('rshift', '0d-tensor', 'int64', 'uint8'),  # "rshift 0d-tensor int64 'uint8': chainrule ('uint8',) / PyTorch ('uint8',) [253, 126, 1, 1] / [253, 126, 0, 0]"
    'rshift|binary:value|uint8xbigint': ('rshift', 'tensor-scalar', 'uint8', 300),  # "rshift tensor-scalar uint8 300: chainrule ('uint8',) / PyTorch ('uint8',) [0, 0, 1, 1] / [0, 0, 0, 0]"
    'rshift|binary:value|uint8xint': ('rshift', 'tensor-0d', 'uint8', 'int64'),  # "rshift tensor-0d uint8 'int64': chainrule ('uint8',) / PyTorch ('uint8',) [0, 0, 1, 1] / [0, 0, 0, 0]"
    'rshift|binary:value|uint8xuint8': ('rshift', 'tensor-tensor', 'uint8', 'uint8'),  # "rshift tensor-tensor uint8 'uint8': chainrule ('uint8',) / PyTorch ('uint8',) [0, 0, 1, 1] / [0, 0, 0, 0]"
    'rshift|inplace:error-text|boolxbigint': ('rshift', 'inplace-scalar', 'bool', 9223372036854775808),  # 'rshift inplace-scalar bool 9223372036854775808: chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) "result type Long can\'t be cast to the desired'
    'rshift|inplace:error-type|boolxcomplex': ('rshift', 'inplace-tensor', 'bool', 'complex128'),  # 'rshift inplace-tensor bool \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'ComplexDou'
    'rshift|inplace:error-type|boolxfloat': ('rshift', 'inplace-tensor', 'bool', 'float64'),  # 'rshift inplace-tensor bool \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'Double\\\'\' / "'
    'rshift|inplace:error-type|boolxfloat16': ('rshift', 'inplace-tensor', 'bool', 'float16'),  # 'rshift inplace-tensor bool \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'Half\\\'\' / "re'
    'rshift|inplace:error-type|float16xcomplex': ('rshift', 'inplace-tensor', 'float16', 'complex128'),  # 'rshift inplace-tensor float16 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'Complex'
    'rshift|inplace:error-type|floatxcomplex': ('rshift', 'inplace-tensor', 'float64', 'complex128'),  # 'rshift inplace-tensor float64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'Complex'
    'rshift|inplace:error-type|intxcomplex': ('rshift', 'inplace-tensor', 'int64', 'complex128'),  # 'rshift inplace-tensor int64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'ComplexDo'
    'rshift|inplace:error-type|intxfloat': ('rshift', 'inplace-tensor', 'int64', 'float64'),  # 'rshift inplace-tensor int64 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'Double\\\'\' / '
    'rshift|inplace:error-type|intxfloat16': ('rshift', 'inplace-tensor', 'int64', 'float16'),  # 'rshift inplace-tensor int64 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'Half\\\'\' / "r'
    'rshift|inplace:error-type|uint8xcomplex': ('rshift', 'inplace-tensor', 'uint8', 'complex128'),  # 'rshift inplace-tensor uint8 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'ComplexDo'
    'rshift|inplace:error-type|uint8xfloat': ('rshift', 'inplace-tensor', 'uint8', 'float64'),  # 'rshift inplace-tensor uint8 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'Double\\\'\' / '
    'rshift|inplace:error-type|uint8xfloat16': ('rshift', 'inplace-tensor', 'uint8', 'float16'),  # 'rshift inplace-tensor uint8 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"rshift_cpu" not implemented for \\\'Half\\\'\' / "r'
    'rshift|inplace:value|uint8xbigint': ('rshift', 'inplace-scalar', 'uint8', 300),  # "rshift inplace-scalar uint8 300: chainrule ('uint8',) / PyTorch ('uint8',) [0, 0, 1, 1] / [0, 0, 0, 0]"
    'rshift|inplace:value|uint8xint': ('rshift', 'inplace-scalar', 'uint8', -3),  # "rshift inplace-scalar uint8 -3: chainrule ('uint8',) / PyTorch ('uint8',) [0, 0, 1, 1] / [0, 0, 0, 0]"
    'rshift|inplace:value|uint8xuint8': ('rshift', 'inplace-tensor', 'uint8', 'uint8'),  # "rshift inplace-tensor uint8 'uint8': chainrule ('uint8',) / PyTorch ('uint8',) [0, 0, 1, 1] / [0, 0, 0, 0]"
    'sub|binary:error-text|complexxfloat16': ('sub', '0d-tensor', 'complex128', 'float16'),  # "sub 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('TypeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comple"
    'sub|binary:error-text|float16xcomplex': ('sub', 'tensor-0d', 'float16', 'complex128'),  # "sub tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('TypeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comple"
    'sub|binary:error-type|boolxbigint': ('sub', 'tensor-scalar', 'bool', -9223372036854775809),  # "sub tensor-scalar bool -9223372036854775809: chainrule ('RuntimeError',) / PyTorch ('OverflowError',) 'Subtraction, the `-` operator, with a bool tens"
    'sub|binary:missing-error|complexxbool': ('sub', 'tensor-scalar', 'complex128', True),  # "sub tensor-scalar complex128 True: chainrule ('complex128',) / PyTorch ('RuntimeError',) array([ 0.  -2.j, -0.5 +0.j, -1. +nanj, -4.  +0.j]) / 'Subtra"
    'sub|binary:missing-error|float16xbool': ('sub', 'tensor-scalar', 'float16', True),  # "sub tensor-scalar float16 True: chainrule ('float16',) / PyTorch ('RuntimeError',) array([-1. ,  0.5,  inf,  nan], dtype=float16) / 'Subtraction, the "
    'sub|binary:missing-error|floatxbool': ('sub', 'tensor-scalar', 'float64', True),  # "sub tensor-scalar float64 True: chainrule ('float64',) / PyTorch ('RuntimeError',) array([-1. , -3.5, -inf,  2. ]) / 'Subtraction, the `-` operator, w"
    'sub|binary:missing-error|intxbool': ('sub', 'tensor-scalar', 'int64', True),  # "sub tensor-scalar int64 True: chainrule ('int64',) / PyTorch ('RuntimeError',) array([9223372036854775807,                  -4,                  -1,\n "
    'sub|binary:missing-error|uint8xbool': ('sub', 'tensor-scalar', 'uint8', True),  # "sub tensor-scalar uint8 True: chainrule ('uint8',) / PyTorch ('RuntimeError',) array([255,   0, 199, 254], dtype=uint8) / 'Subtraction, the `-` operat"
    'sub|binary:nan|complexxcomplex': ('sub', 'tensor-tensor', 'complex128', 'complex128'),  # "sub tensor-tensor complex128 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:nan|complexxfloat': ('sub', 'tensor-tensor', 'complex128', 'float32'),  # "sub tensor-tensor complex128 'float32': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:nan|complexxfloat16': ('sub', 'tensor-tensor', 'complex128', 'float16'),  # "sub tensor-tensor complex128 'float16': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:nan|complexxint': ('sub', 'scalar-tensor', 'complex128', 'int64'),  # "sub scalar-tensor complex128 'int64': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:nan|complexxuint8': ('sub', 'scalar-tensor', 'complex128', 'uint8'),  # "sub scalar-tensor complex128 'uint8': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:nan|float16xcomplex': ('sub', 'tensor-tensor', 'float16', 'complex128'),  # "sub tensor-tensor float16 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:nan|floatxcomplex': ('sub', 'tensor-tensor', 'float64', 'complex128'),  # "sub tensor-tensor float64 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:nan|intxcomplex': ('sub', 'tensor-tensor', 'int64', 'complex128'),  # "sub tensor-tensor int64 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:nan|uint8xcomplex': ('sub', 'tensor-tensor', 'uint8', 'complex128'),  # "sub tensor-tensor uint8 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|binary:signed-zero|complexxcomplex': ('sub', 'tensor-scalar', 'complex64', -0j),  # "sub tensor-scalar complex64 -0j: chainrule ('complex64',) / PyTorch ('complex64',)"
    'sub|binary:signed-zero|floatxcomplex': ('sub', 'tensor-scalar', 'float32', -0j),  # "sub tensor-scalar float32 -0j: chainrule ('complex64',) / PyTorch ('complex64',)"
    'sub|inplace:error-type|boolxbigint': ('sub', 'inplace-scalar', 'bool', -9223372036854775809),  # "sub inplace-scalar bool -9223372036854775809: chainrule ('RuntimeError',) / PyTorch ('OverflowError',) 'Subtraction, the `-` operator, with a bool ten"
    'sub|inplace:error-type|float16xcomplex': ('sub', 'inplace-scalar', 'float16', (1+2j)),  # "sub inplace-scalar float16 (1+2j): chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a comp"
    'sub|inplace:missing-error|complexxbool': ('sub', 'inplace-scalar', 'complex128', True),  # "sub inplace-scalar complex128 True: chainrule ('complex128',) / PyTorch ('RuntimeError',) array([ 0.  -2.j, -0.5 +0.j, -1. +nanj, -4.  +0.j]) / 'Subtr"
    'sub|inplace:missing-error|float16xbool': ('sub', 'inplace-scalar', 'float16', True),  # "sub inplace-scalar float16 True: chainrule ('float16',) / PyTorch ('RuntimeError',) array([-1. ,  0.5,  inf,  nan], dtype=float16) / 'Subtraction, the"
    'sub|inplace:missing-error|floatxbool': ('sub', 'inplace-scalar', 'float64', True),  # "sub inplace-scalar float64 True: chainrule ('float64',) / PyTorch ('RuntimeError',) array([-1. , -3.5, -inf,  2. ]) / 'Subtraction, the `-` operator, "
    'sub|inplace:missing-error|intxbool': ('sub', 'inplace-scalar', 'int64', True),  # "sub inplace-scalar int64 True: chainrule ('int64',) / PyTorch ('RuntimeError',) array([9223372036854775807,                  -4,                  -1,\n"
    'sub|inplace:missing-error|uint8xbool': ('sub', 'inplace-scalar', 'uint8', True),  # "sub inplace-scalar uint8 True: chainrule ('uint8',) / PyTorch ('RuntimeError',) array([255,   0, 199, 254], dtype=uint8) / 'Subtraction, the `-` opera"
    'sub|inplace:nan|complexxcomplex': ('sub', 'inplace-tensor', 'complex128', 'complex128'),  # "sub inplace-tensor complex128 'complex128': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|inplace:nan|complexxfloat': ('sub', 'inplace-tensor', 'complex128', 'float32'),  # "sub inplace-tensor complex128 'float32': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|inplace:nan|complexxfloat16': ('sub', 'inplace-tensor', 'complex128', 'float16'),  # "sub inplace-tensor complex128 'float16': chainrule ('complex128',) / PyTorch ('complex128',)"
    'sub|inplace:signed-zero|complexxcomplex': ('sub', 'inplace-scalar', 'complex64', -0j),  # "sub inplace-scalar complex64 -0j: chainrule ('complex64',) / PyTorch ('complex64',)"
    'true_divide|binary:error-type|complexxfloat16': ('true_divide', '0d-tensor', 'complex128', 'float16'),  # "true_divide 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): flo"
    'true_divide|binary:error-type|float16xcomplex': ('true_divide', 'tensor-0d', 'float16', 'complex128'),  # "true_divide tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): flo"
    'true_divide|binary:missing-error|boolxbigint': ('true_divide', 'tensor-scalar', 'bool', 9223372036854775808),  # "true_divide tensor-scalar bool 9223372036854775808: chainrule ('float32',) / PyTorch ('RuntimeError',) array([1.0842022e-19, 0.0000000e+00, 1.0842022e"
    'true_divide|binary:nan|float16xbigint': ('true_divide', 'tensor-scalar', 'float16', 2147483648),  # "true_divide tensor-scalar float16 2147483648: chainrule ('float16',) / PyTorch ('float16',)"
    'truediv|binary:error-type|complexxfloat16': ('truediv', '0d-tensor', 'complex128', 'float16'),  # "truediv 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16"
    'truediv|binary:error-type|float16xcomplex': ('truediv', 'tensor-0d', 'float16', 'complex128'),  # "truediv tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16"
    'truediv|binary:missing-error|boolxbigint': ('truediv', 'tensor-scalar', 'bool', 9223372036854775808),  # "truediv tensor-scalar bool 9223372036854775808: chainrule ('float32',) / PyTorch ('RuntimeError',) array([1.0842022e-19, 0.0000000e+00, 1.0842022e-19,"
    'truediv|binary:nan|float16xbigint': ('truediv', 'tensor-scalar', 'float16', 2147483648),  # "truediv tensor-scalar float16 2147483648: chainrule ('float16',) / PyTorch ('float16',)"
    'truediv|inplace:error-text|boolxbigint': ('truediv', 'inplace-scalar', 'bool', 9223372036854775808),  # 'truediv inplace-scalar bool 9223372036854775808: chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) "result type Float can\'t be cast to the desir'
    'truediv|inplace:error-type|float16xcomplex': ('truediv', 'inplace-scalar', 'float16', (1+2j)),  # "truediv inplace-scalar float16 (1+2j): chainrule ('TypeError',) / PyTorch ('RuntimeError',) 'chainrule has no complex32 (ComplexHalf): float16 with a "
    'truediv|inplace:nan|float16xbigint': ('truediv', 'inplace-scalar', 'float16', 2147483648),  # "truediv inplace-scalar float16 2147483648: chainrule ('float16',) / PyTorch ('float16',)"
    'xlogy|binary:error-type|complexxfloat16': ('xlogy', '0d-tensor', 'complex128', 'float16'),  # "xlogy 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 w"
    'xlogy|binary:error-type|float16xcomplex': ('xlogy', 'tensor-0d', 'float16', 'complex128'),  # "xlogy tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 w"
    'xlogy|binary:missing-error|boolxbigint': ('xlogy', 'tensor-scalar', 'bool', 9223372036854775808),  # "xlogy tensor-scalar bool 9223372036854775808: chainrule ('float32',) / PyTorch ('RuntimeError',) array([43.668274,  0.      , 43.668274,  0.      ], d"
    'xlogy|binary:value|float16xfloat': ('xlogy', 'scalar-tensor', 'float16', 'float64'),  # "xlogy scalar-tensor float16 'float64': chainrule ('float64',) / PyTorch ('float64',) [0.0, -1.0137939453125, -inf, nan] / [0.0, -1.013662770270411, -i"
    'xlogy|binary:value|floatxfloat16': ('xlogy', 'tensor-tensor', 'float64', 'float16'),  # "xlogy tensor-tensor float64 'float16': chainrule ('float64',) / PyTorch ('float64',) [0.0, -1.0137939453125, -inf, nan] / [0.0, -1.013662770270411, -i"
    'xor|binary:error-type|complexxfloat16': ('xor', '0d-tensor', 'complex128', 'float16'),  # "xor 0d-tensor complex128 'float16': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wit"
    'xor|binary:error-type|float16xcomplex': ('xor', 'tensor-0d', 'float16', 'complex128'),  # "xor tensor-0d float16 'complex128': chainrule ('TypeError',) / PyTorch ('NotImplementedError',) 'chainrule has no complex32 (ComplexHalf): float16 wit"
    'xor|binary:missing-error|boolxbigint': ('xor', 'tensor-scalar', 'bool', 9223372036854775808),  # "xor tensor-scalar bool 9223372036854775808: chainrule ('int64',) / PyTorch ('RuntimeError',) array([-9223372036854775807, -9223372036854775808, -92233"
    'xor|inplace:error-text|boolxbigint': ('xor', 'inplace-scalar', 'bool', 9223372036854775808),  # 'xor inplace-scalar bool 9223372036854775808: chainrule (\'RuntimeError\',) / PyTorch (\'RuntimeError\',) "result type Long can\'t be cast to the desired ou'
    'xor|inplace:error-type|boolxcomplex': ('xor', 'inplace-tensor', 'bool', 'complex128'),  # 'xor inplace-tensor bool \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'ComplexD'
    'xor|inplace:error-type|boolxfloat': ('xor', 'inplace-tensor', 'bool', 'float64'),  # 'xor inplace-tensor bool \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Double\\\'\' /'
    'xor|inplace:error-type|boolxfloat16': ('xor', 'inplace-tensor', 'bool', 'float16'),  # 'xor inplace-tensor bool \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Half\\\'\' / "'
    'xor|inplace:error-type|float16xcomplex': ('xor', 'inplace-tensor', 'float16', 'complex128'),  # 'xor inplace-tensor float16 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Compl'
    'xor|inplace:error-type|floatxcomplex': ('xor', 'inplace-tensor', 'float64', 'complex128'),  # 'xor inplace-tensor float64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Compl'
    'xor|inplace:error-type|intxcomplex': ('xor', 'inplace-tensor', 'int64', 'complex128'),  # 'xor inplace-tensor int64 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Complex'
    'xor|inplace:error-type|intxfloat': ('xor', 'inplace-tensor', 'int64', 'float64'),  # 'xor inplace-tensor int64 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Double\\\'\' '
    'xor|inplace:error-type|intxfloat16': ('xor', 'inplace-tensor', 'int64', 'float16'),  # 'xor inplace-tensor int64 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Half\\\'\' / '
    'xor|inplace:error-type|uint8xcomplex': ('xor', 'inplace-tensor', 'uint8', 'complex128'),  # 'xor inplace-tensor uint8 \'complex128\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Complex'
    'xor|inplace:error-type|uint8xfloat': ('xor', 'inplace-tensor', 'uint8', 'float64'),  # 'xor inplace-tensor uint8 \'float64\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Double\\\'\' '
    'xor|inplace:error-type|uint8xfloat16': ('xor', 'inplace-tensor', 'uint8', 'float16'),  # 'xor inplace-tensor uint8 \'float16\': chainrule (\'NotImplementedError\',) / PyTorch (\'RuntimeError\',) \'"bitwise_xor_cpu" not implemented for \\\'Half\\\'\' / '
}

# bad-input classes (test_fuzz_bad_input.py): key -> (call, bad value) as check(*case) takes it
KNOWN_BAD_INPUT = {
    'add|bad:missing-error|ndarray': ('add', 'ndarray'),  # '(\'ok\', \'torch.float64\', (2, 3)) / PyTorch (\'error\', \'RuntimeError\', "Can\'t call numpy() on Tensor that requires grad. Use tensor.detach().numpy() inst'
    'clamp|bad:error-type|list': ('clamp', 'list'),  # "('error', 'ValueError', 'operands could not be broadcast together with shapes (2,3) (2,)') / PyTorch ('error', 'TypeError', 'clamp() received an inval"
    'clamp|bad:error-type|str': ('clamp', 'str'),  # '(\'error\', \'UFuncTypeError\', "ufunc \'maximum\' did not contain a loop with signature matching types (dtype(\'float32\'), dtype(\'<U1\')) -> None") / PyTorch'
    'clamp|bad:error-type|tuple': ('clamp', 'tuple'),  # "('error', 'ValueError', 'operands could not be broadcast together with shapes (2,3) (2,)') / PyTorch ('error', 'TypeError', 'clamp() received an inval"
    'clamp|bad:missing-error|ndarray': ('clamp', 'ndarray'),  # "('ok', 'torch.float64', (2, 3)) / PyTorch ('error', 'TypeError', 'clamp() received an invalid combination of arguments - got (min=numpy.ndarray, ), bu"
    'cross_entropy_target|bad:error-type|None': ('cross_entropy_target', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'target\' (p'
    'cross_entropy_target|bad:error-type|big_dim': ('cross_entropy_target', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'target\' (positi'
    'cross_entropy_target|bad:error-type|float': ('cross_entropy_target', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'target\' (posi'
    'cross_entropy_target|bad:error-type|int': ('cross_entropy_target', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'target\' (positi'
    'cross_entropy_target|bad:error-type|list': ('cross_entropy_target', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'target\' (posit'
    'cross_entropy_target|bad:error-type|ndarray': ('cross_entropy_target', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'targe'
    'cross_entropy_target|bad:error-type|neg_dim': ('cross_entropy_target', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'target\' (positi'
    'cross_entropy_target|bad:error-type|str': ('cross_entropy_target', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'target\' (positi'
    'cross_entropy_target|bad:error-type|tuple': ('cross_entropy_target', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "cross_entropy_loss(): argument \'target\' (posi'
    'full|bad:error-text|ndarray': ('full', 'ndarray'),  # '(\'error\', \'TypeError\', "full(): argument \'fill_value\' (position 2) must be Number, not ndarray") / PyTorch (\'error\', \'TypeError\', "full(): argument \'f'
    'full|bad:error-type|bool_t': ('full', 'bool_t'),  # '(\'error\', \'RuntimeError\', \'a Tensor with 2 elements cannot be converted to Scalar\') / PyTorch (\'error\', \'TypeError\', "full(): argument \'fill_value\' (p'
    'full|bad:error-type|complex_t': ('full', 'complex_t'),  # '(\'error\', \'RuntimeError\', \'a Tensor with 2 elements cannot be converted to Scalar\') / PyTorch (\'error\', \'TypeError\', "full(): argument \'fill_value\' (p'
    'full|bad:error-type|empty_t': ('full', 'empty_t'),  # '(\'error\', \'RuntimeError\', \'a Tensor with 0 elements cannot be converted to Scalar\') / PyTorch (\'error\', \'TypeError\', "full(): argument \'fill_value\' (p'
    'full|bad:error-type|f64_t': ('full', 'f64_t'),  # '(\'error\', \'RuntimeError\', \'a Tensor with 6 elements cannot be converted to Scalar\') / PyTorch (\'error\', \'TypeError\', "full(): argument \'fill_value\' (p'
    'full|bad:error-type|int_t': ('full', 'int_t'),  # '(\'error\', \'RuntimeError\', \'a Tensor with 2 elements cannot be converted to Scalar\') / PyTorch (\'error\', \'TypeError\', "full(): argument \'fill_value\' (p'
    'full|bad:error-type|wrong_shape_t': ('full', 'wrong_shape_t'),  # '(\'error\', \'RuntimeError\', \'a Tensor with 20 elements cannot be converted to Scalar\') / PyTorch (\'error\', \'TypeError\', "full(): argument \'fill_value\' ('
    'grad_inputs|bad:error-type|None': ('grad_inputs', 'None'),  # '(\'error\', \'RuntimeError\', \'`inputs` argument to `grad()` cannot be empty.\') / PyTorch (\'error\', \'TypeError\', "\'NoneType\' object is not iterable")'
    'grad_inputs|bad:error-type|big_dim': ('grad_inputs', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_requires_grad\'") / PyTorch (\'error\', \'TypeError\', "\'int\' object is not iterable")'
    'grad_inputs|bad:error-type|float': ('grad_inputs', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_requires_grad\'") / PyTorch (\'error\', \'TypeError\', "\'float\' object is not iterable")'
    'grad_inputs|bad:error-type|int': ('grad_inputs', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_requires_grad\'") / PyTorch (\'error\', \'TypeError\', "\'int\' object is not iterable")'
    'grad_inputs|bad:error-type|list': ('grad_inputs', 'list'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_requires_grad\'") / PyTorch (\'error\', \'RuntimeError\', \'all inputs have to be Tensors or '
    'grad_inputs|bad:error-type|ndarray': ('grad_inputs', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_requires_grad\'") / PyTorch (\'error\', \'RuntimeError\', \'all inputs have to be Ten'
    'grad_inputs|bad:error-type|neg_dim': ('grad_inputs', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_requires_grad\'") / PyTorch (\'error\', \'TypeError\', "\'int\' object is not iterable")'
    'grad_inputs|bad:error-type|str': ('grad_inputs', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_requires_grad\'") / PyTorch (\'error\', \'RuntimeError\', \'all inputs have to be Tensors or Gr'
    'grad_inputs|bad:error-type|tuple': ('grad_inputs', 'tuple'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_requires_grad\'") / PyTorch (\'error\', \'RuntimeError\', \'all inputs have to be Tensors or Gr'
    'linear_weight|bad:error-type|None': ('linear_weight', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position 2) m'
    'linear_weight|bad:error-type|big_dim': ('linear_weight', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position 2) must b'
    'linear_weight|bad:error-type|float': ('linear_weight', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position 2) must'
    'linear_weight|bad:error-type|int': ('linear_weight', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position 2) must b'
    'linear_weight|bad:error-type|list': ('linear_weight', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position 2) must '
    'linear_weight|bad:error-type|ndarray': ('linear_weight', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position'
    'linear_weight|bad:error-type|neg_dim': ('linear_weight', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position 2) must b'
    'linear_weight|bad:error-type|str': ('linear_weight', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position 2) must b'
    'linear_weight|bad:error-type|tuple': ('linear_weight', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "linear(): argument \'weight\' (position 2) must'
    'matmul|bad:error-type|None': ('matmul', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "unsupported operand type(s) for @: \'Tensor'
    'matmul|bad:error-type|big_dim': ('matmul', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "unsupported operand type(s) for @: \'Tensor\' and'
    'matmul|bad:error-type|float': ('matmul', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "unsupported operand type(s) for @: \'Tensor\' a'
    'matmul|bad:error-type|int': ('matmul', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "unsupported operand type(s) for @: \'Tensor\' and'
    'matmul|bad:error-type|list': ('matmul', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "unsupported operand type(s) for @: \'Tensor\' an'
    'matmul|bad:error-type|ndarray': ('matmul', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_data\'") / PyTorch (\'error\', \'RuntimeError\', "Can\'t call numpy() on Tensor that '
    'matmul|bad:error-type|neg_dim': ('matmul', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "unsupported operand type(s) for @: \'Tensor\' and'
    'matmul|bad:error-type|str': ('matmul', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "unsupported operand type(s) for @: \'Tensor\' and'
    'matmul|bad:error-type|tuple': ('matmul', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "unsupported operand type(s) for @: \'Tensor\' a'
    'max|bad:error-type|None': ('max', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) must '
    'max|bad:error-type|big_dim': ('max', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) must be Te'
    'max|bad:error-type|float': ('max', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) must be '
    'max|bad:error-type|int': ('max', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) must be Te'
    'max|bad:error-type|list': ('max', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) must be T'
    'max|bad:error-type|ndarray': ('max', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) '
    'max|bad:error-type|neg_dim': ('max', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) must be Te'
    'max|bad:error-type|str': ('max', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) must be Te'
    'max|bad:error-type|tuple': ('max', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "max(): argument \'input\' (position 1) must be '
    'mse_target|bad:error-text|None': ('mse_target', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'shape\'") / PyTorch (\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'s'
    'mse_target|bad:error-text|big_dim': ('mse_target', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'shape\'") / PyTorch (\'error\', \'AttributeError\', "\'int\' object has no attribute \'size\'")'
    'mse_target|bad:error-text|float': ('mse_target', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'shape\'") / PyTorch (\'error\', \'AttributeError\', "\'float\' object has no attribute \'size\'")'
    'mse_target|bad:error-text|int': ('mse_target', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'shape\'") / PyTorch (\'error\', \'AttributeError\', "\'int\' object has no attribute \'size\'")'
    'mse_target|bad:error-text|list': ('mse_target', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'shape\'") / PyTorch (\'error\', \'AttributeError\', "\'list\' object has no attribute \'size\'")'
    'mse_target|bad:error-text|neg_dim': ('mse_target', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'shape\'") / PyTorch (\'error\', \'AttributeError\', "\'int\' object has no attribute \'size\'")'
    'mse_target|bad:error-text|str': ('mse_target', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'shape\'") / PyTorch (\'error\', \'AttributeError\', "\'str\' object has no attribute \'size\'")'
    'mse_target|bad:error-text|tuple': ('mse_target', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'shape\'") / PyTorch (\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'size\'")'
    'mul_method|bad:error-type|None': ('mul_method', 'None'),  # '(\'error\', \'NotAnOperand\', "mul(): argument \'other\' (position 2) must be Tensor, not NoneType") / PyTorch (\'error\', \'TypeError\', "mul(): argument \'othe'
    'mul_method|bad:error-type|list': ('mul_method', 'list'),  # '(\'error\', \'NotAnOperand\', "mul(): argument \'other\' (position 2) must be Tensor, not list") / PyTorch (\'error\', \'TypeError\', "mul(): argument \'other\' ('
    'mul_method|bad:error-type|str': ('mul_method', 'str'),  # '(\'error\', \'NotAnOperand\', "mul(): argument \'other\' (position 2) must be Tensor, not str") / PyTorch (\'error\', \'TypeError\', "mul(): argument \'other\' (p'
    'mul_method|bad:error-type|tuple': ('mul_method', 'tuple'),  # '(\'error\', \'NotAnOperand\', "mul(): argument \'other\' (position 2) must be Tensor, not tuple") / PyTorch (\'error\', \'TypeError\', "mul(): argument \'other\' '
    'mul_method|bad:missing-error|ndarray': ('mul_method', 'ndarray'),  # '(\'ok\', \'torch.float64\', (2, 3)) / PyTorch (\'error\', \'TypeError\', "mul(): argument \'other\' (position 1) must be Tensor, not numpy.ndarray")'
    'radd|bad:missing-error|ndarray': ('radd', 'ndarray'),  # "('ok', 'torch.float64', (2, 3)) / PyTorch ('error', 'TypeError', 'Concatenation operation is not implemented for NumPy arrays, use np.concatenate() in"
    'relu|bad:error-type|None': ('relu', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1) must'
    'relu|bad:error-type|big_dim': ('relu', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1) must be T'
    'relu|bad:error-type|float': ('relu', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1) must be'
    'relu|bad:error-type|int': ('relu', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1) must be T'
    'relu|bad:error-type|list': ('relu', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1) must be '
    'relu|bad:error-type|ndarray': ('relu', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1)'
    'relu|bad:error-type|neg_dim': ('relu', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1) must be T'
    'relu|bad:error-type|str': ('relu', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1) must be T'
    'relu|bad:error-type|tuple': ('relu', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "relu(): argument \'input\' (position 1) must be'
    'relu|bad:missing-error|complex_t': ('relu', 'complex_t'),  # "('ok', 'torch.complex64', (2,)) / PyTorch ('error', 'NotImplementedError', 'clamp is not supported for complex types')"
    'reshape|bad:error-text|0d_t': ('reshape', '0d_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "reshape(): argument '
    'reshape|bad:error-text|bool_t': ('reshape', 'bool_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "reshape(): argument '
    'reshape|bad:error-text|complex_t': ('reshape', 'complex_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "reshape(): argument '
    'reshape|bad:error-text|empty_t': ('reshape', 'empty_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "reshape(): argument '
    'reshape|bad:error-text|f64_t': ('reshape', 'f64_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "reshape(): argument '
    'reshape|bad:error-text|int_t': ('reshape', 'int_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "reshape(): argument '
    'reshape|bad:error-text|list': ('reshape', 'list'),  # '(\'error\', \'TypeError\', \'reshape(): argument \\\'shape\\\' failed to unpack the object at pos 1 with error "type must be tuple of ints,but got float"\') / P'
    'reshape|bad:error-text|ndarray': ('reshape', 'ndarray'),  # '(\'error\', \'TypeError\', \'only integer scalar arrays can be converted to a scalar index\') / PyTorch (\'error\', \'TypeError\', "reshape(): argument \'shape\' '
    'reshape|bad:error-text|neg_dim': ('reshape', 'neg_dim'),  # '(\'error\', \'RuntimeError\', "shape \'[-4]\' is invalid for input of size 6") / PyTorch (\'error\', \'RuntimeError\', \'invalid shape dimension -4 at index 0 of'
    'reshape|bad:error-text|wrong_shape_t': ('reshape', 'wrong_shape_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "reshape(): argument '
    'softmax|bad:error-type|None': ('softmax', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position 1) m'
    'softmax|bad:error-type|big_dim': ('softmax', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position 1) must b'
    'softmax|bad:error-type|float': ('softmax', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position 1) must'
    'softmax|bad:error-type|int': ('softmax', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position 1) must b'
    'softmax|bad:error-type|list': ('softmax', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position 1) must '
    'softmax|bad:error-type|ndarray': ('softmax', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position'
    'softmax|bad:error-type|neg_dim': ('softmax', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position 1) must b'
    'softmax|bad:error-type|str': ('softmax', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position 1) must b'
    'softmax|bad:error-type|tuple': ('softmax', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "softmax(): argument \'input\' (position 1) must'
    'softmax|bad:missing-error|complex_t': ('softmax', 'complex_t'),  # '(\'ok\', \'torch.complex64\', (2,)) / PyTorch (\'error\', \'NotImplementedError\', \'"softmax_lastdim_kernel_impl" not implemented for \\\'ComplexFloat\\\'\')'
    'sort|bad:error-type|None': ('sort', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1) must'
    'sort|bad:error-type|big_dim': ('sort', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1) must be T'
    'sort|bad:error-type|float': ('sort', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1) must be'
    'sort|bad:error-type|int': ('sort', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1) must be T'
    'sort|bad:error-type|list': ('sort', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1) must be '
    'sort|bad:error-type|ndarray': ('sort', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1)'
    'sort|bad:error-type|neg_dim': ('sort', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1) must be T'
    'sort|bad:error-type|str': ('sort', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1) must be T'
    'sort|bad:error-type|tuple': ('sort', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', "sort(): argument \'input\' (position 1) must be'
    'sum_dim|bad:error-text|0d_t': ('sum_dim', '0d_t'),  # "('error', 'TypeError', 'iteration over a 0-d tensor') / PyTorch ('error', 'TypeError', 'sum() received an invalid combination of arguments - got (dim="
    'sum_dim|bad:error-text|float': ('sum_dim', 'float'),  # '(\'error\', \'TypeError\', "\'float\' object is not iterable") / PyTorch (\'error\', \'TypeError\', \'sum() received an invalid combination of arguments - got (d'
    'sum_dim|bad:error-text|str': ('sum_dim', 'str'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'str\'") / PyTorch (\'error\', \'TypeError\', \'sum() received an invalid combinat'
    'sum_dim|bad:error-type|complex_t': ('sum_dim', 'complex_t'),  # '(\'error\', \'NotImplementedError\', \'"ge_cpu" not implemented for \\\'ComplexFloat\\\'\') / PyTorch (\'error\', \'TypeError\', \'sum() received an invalid combinat'
    'sum_dim|bad:error-type|f64_t': ('sum_dim', 'f64_t'),  # "('error', 'RuntimeError', 'Boolean value of Tensor with more than one value is ambiguous') / PyTorch ('error', 'TypeError', 'sum() received an invalid"
    'sum_dim|bad:error-type|int_t': ('sum_dim', 'int_t'),  # "('error', 'IndexError', 'Dimension out of range (expected to be in range of [-2, 1], but got 2)') / PyTorch ('error', 'TypeError', 'sum() received an "
    'sum_dim|bad:error-type|list': ('sum_dim', 'list'),  # "('error', 'IndexError', 'Dimension out of range (expected to be in range of [-2, 1], but got 2.0)') / PyTorch ('error', 'TypeError', 'sum() received a"
    'sum_dim|bad:error-type|ndarray': ('sum_dim', 'ndarray'),  # "('error', 'RuntimeError', 'dim 1.0 appears multiple times in the list of dims') / PyTorch ('error', 'TypeError', 'sum() received an invalid combinatio"
    'sum_dim|bad:error-type|wrong_shape_t': ('sum_dim', 'wrong_shape_t'),  # "('error', 'RuntimeError', 'Boolean value of Tensor with more than one value is ambiguous') / PyTorch ('error', 'TypeError', 'sum() received an invalid"
    'sum_dim|bad:missing-error|bool_t': ('sum_dim', 'bool_t'),  # "('ok', 'torch.float32', ()) / PyTorch ('error', 'TypeError', 'sum() received an invalid combination of arguments - got (dim=Tensor, ), but expected on"
    'sum_dim|bad:missing-error|empty_t': ('sum_dim', 'empty_t'),  # "('ok', 'torch.float32', ()) / PyTorch ('error', 'TypeError', 'sum() received an invalid combination of arguments - got (dim=Tensor, ), but expected on"
    'transpose|bad:error-text|0d_t': ('transpose', '0d_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "transpose(): argumen'
    'transpose|bad:error-text|None': ('transpose', 'None'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'NoneType\'") / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'dim1\' '
    'transpose|bad:error-text|list': ('transpose', 'list'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'list\'") / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'dim1\' (pos'
    'transpose|bad:error-text|str': ('transpose', 'str'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'str\'") / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'dim1\' (posi'
    'transpose|bad:error-text|tuple': ('transpose', 'tuple'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'tuple\'") / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'dim1\' (po'
    'transpose|bad:error-type|bool_t': ('transpose', 'bool_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with more than one value is ambiguous\') / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'di'
    'transpose|bad:error-type|complex_t': ('transpose', 'complex_t'),  # '(\'error\', \'NotImplementedError\', \'"ge_cpu" not implemented for \\\'ComplexFloat\\\'\') / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'dim1\' (posi'
    'transpose|bad:error-type|empty_t': ('transpose', 'empty_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with no values is ambiguous\') / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'dim1\' (posit'
    'transpose|bad:error-type|f64_t': ('transpose', 'f64_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with more than one value is ambiguous\') / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'di'
    'transpose|bad:error-type|float': ('transpose', 'float'),  # '(\'error\', \'IndexError\', \'Dimension out of range (expected to be in range of [-2, 1], but got 2.0)\') / PyTorch (\'error\', \'TypeError\', "transpose(): arg'
    'transpose|bad:error-type|int_t': ('transpose', 'int_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with more than one value is ambiguous\') / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'di'
    'transpose|bad:error-type|ndarray': ('transpose', 'ndarray'),  # "('error', 'ValueError', 'The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()') / PyTorch ('error', 'TypeError'"
    'transpose|bad:error-type|wrong_shape_t': ('transpose', 'wrong_shape_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with more than one value is ambiguous\') / PyTorch (\'error\', \'TypeError\', "transpose(): argument \'di'
    'unsqueeze|bad:error-text|0d_t': ('unsqueeze', '0d_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argumen'
    'unsqueeze|bad:error-text|None': ('unsqueeze', 'None'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'NoneType\'") / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'dim\' ('
    'unsqueeze|bad:error-text|float': ('unsqueeze', 'float'),  # '(\'error\', \'TypeError\', \'integer argument expected, got float\') / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'dim\' (position 1) must be int,'
    'unsqueeze|bad:error-text|list': ('unsqueeze', 'list'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'list\'") / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'dim\' (posi'
    'unsqueeze|bad:error-text|str': ('unsqueeze', 'str'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'str\'") / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'dim\' (posit'
    'unsqueeze|bad:error-text|tuple': ('unsqueeze', 'tuple'),  # '(\'error\', \'TypeError\', "\'<=\' not supported between instances of \'int\' and \'tuple\'") / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'dim\' (pos'
    'unsqueeze|bad:error-type|bool_t': ('unsqueeze', 'bool_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with more than one value is ambiguous\') / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'di'
    'unsqueeze|bad:error-type|complex_t': ('unsqueeze', 'complex_t'),  # '(\'error\', \'NotImplementedError\', \'"ge_cpu" not implemented for \\\'ComplexFloat\\\'\') / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'dim\' (posit'
    'unsqueeze|bad:error-type|empty_t': ('unsqueeze', 'empty_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with no values is ambiguous\') / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'dim\' (positi'
    'unsqueeze|bad:error-type|f64_t': ('unsqueeze', 'f64_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with more than one value is ambiguous\') / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'di'
    'unsqueeze|bad:error-type|int_t': ('unsqueeze', 'int_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with more than one value is ambiguous\') / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'di'
    'unsqueeze|bad:error-type|ndarray': ('unsqueeze', 'ndarray'),  # "('error', 'ValueError', 'The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()') / PyTorch ('error', 'TypeError'"
    'unsqueeze|bad:error-type|wrong_shape_t': ('unsqueeze', 'wrong_shape_t'),  # '(\'error\', \'RuntimeError\', \'Boolean value of Tensor with more than one value is ambiguous\') / PyTorch (\'error\', \'TypeError\', "unsqueeze(): argument \'di'
    'view|bad:error-text|0d_t': ('view', '0d_t'),  # "('error', 'TypeError', 'only integer tensors of a single element can be converted to an index') / PyTorch ('error', 'TypeError', 'view() received an i"
    'view|bad:error-text|bool_t': ('view', 'bool_t'),  # "('error', 'TypeError', 'only integer tensors of a single element can be converted to an index') / PyTorch ('error', 'TypeError', 'view() received an i"
    'view|bad:error-text|complex_t': ('view', 'complex_t'),  # "('error', 'TypeError', 'only integer tensors of a single element can be converted to an index') / PyTorch ('error', 'TypeError', 'view() received an i"
    'view|bad:error-text|empty_t': ('view', 'empty_t'),  # "('error', 'TypeError', 'only integer tensors of a single element can be converted to an index') / PyTorch ('error', 'TypeError', 'view() received an i"
    'view|bad:error-text|f64_t': ('view', 'f64_t'),  # "('error', 'TypeError', 'only integer tensors of a single element can be converted to an index') / PyTorch ('error', 'TypeError', 'view() received an i"
    'view|bad:error-text|int_t': ('view', 'int_t'),  # "('error', 'TypeError', 'only integer tensors of a single element can be converted to an index') / PyTorch ('error', 'TypeError', 'view() received an i"
    'view|bad:error-text|list': ('view', 'list'),  # '(\'error\', \'TypeError\', \'view(): argument \\\'size\\\' failed to unpack the object at pos 1 with error "type must be tuple of ints,but got float"\') / PyTor'
    'view|bad:error-text|ndarray': ('view', 'ndarray'),  # "('error', 'TypeError', 'only integer scalar arrays can be converted to a scalar index') / PyTorch ('error', 'TypeError', 'view() received an invalid c"
    'view|bad:error-text|neg_dim': ('view', 'neg_dim'),  # '(\'error\', \'RuntimeError\', "shape \'[-4]\' is invalid for input of size 6") / PyTorch (\'error\', \'RuntimeError\', \'invalid shape dimension -4 at index 0 of'
    'view|bad:error-text|wrong_shape_t': ('view', 'wrong_shape_t'),  # "('error', 'TypeError', 'only integer tensors of a single element can be converted to an index') / PyTorch ('error', 'TypeError', 'view() received an i"
    'where|bad:error-type|None': ('where', 'None'),  # '(\'error\', \'AttributeError\', "\'NoneType\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combination of'
    'where|bad:error-type|big_dim': ('where', 'big_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combination of argu'
    'where|bad:error-type|float': ('where', 'float'),  # '(\'error\', \'AttributeError\', "\'float\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combination of ar'
    'where|bad:error-type|int': ('where', 'int'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combination of argu'
    'where|bad:error-type|list': ('where', 'list'),  # '(\'error\', \'AttributeError\', "\'list\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combination of arg'
    'where|bad:error-type|ndarray': ('where', 'ndarray'),  # '(\'error\', \'AttributeError\', "\'numpy.ndarray\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combinati'
    'where|bad:error-type|neg_dim': ('where', 'neg_dim'),  # '(\'error\', \'AttributeError\', "\'int\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combination of argu'
    'where|bad:error-type|str': ('where', 'str'),  # '(\'error\', \'AttributeError\', "\'str\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combination of argu'
    'where|bad:error-type|tuple': ('where', 'tuple'),  # '(\'error\', \'AttributeError\', "\'tuple\' object has no attribute \'_data\'") / PyTorch (\'error\', \'TypeError\', \'where() received an invalid combination of ar'
    'zeros|bad:error-text|0d_t': ('zeros', '0d_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "zeros(): argument \'s'
    'zeros|bad:error-text|bool_t': ('zeros', 'bool_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "zeros(): argument \'s'
    'zeros|bad:error-text|complex_t': ('zeros', 'complex_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "zeros(): argument \'s'
    'zeros|bad:error-text|empty_t': ('zeros', 'empty_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "zeros(): argument \'s'
    'zeros|bad:error-text|f64_t': ('zeros', 'f64_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "zeros(): argument \'s'
    'zeros|bad:error-text|int_t': ('zeros', 'int_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "zeros(): argument \'s'
    'zeros|bad:error-text|list': ('zeros', 'list'),  # '(\'error\', \'TypeError\', \'zeros(): argument \\\'size\\\' failed to unpack the object at pos 1 with error "type must be tuple of ints,but got float"\') / PyTo'
    'zeros|bad:error-text|ndarray': ('zeros', 'ndarray'),  # '(\'error\', \'TypeError\', \'only integer scalar arrays can be converted to a scalar index\') / PyTorch (\'error\', \'TypeError\', "zeros(): argument \'size\' (po'
    'zeros|bad:error-text|wrong_shape_t': ('zeros', 'wrong_shape_t'),  # '(\'error\', \'TypeError\', \'only integer tensors of a single element can be converted to an index\') / PyTorch (\'error\', \'TypeError\', "zeros(): argument \'s'
}
