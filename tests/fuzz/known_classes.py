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
    'all[uint8]|forward:missing-error|uint8-regular': ('PyTorch raises IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)',
        Step(op='all[uint8]', arrays=(ArraySpec(dtype='uint8', shape=(), values=(3,), layout='contig'),))),
    'any[uint8]|forward:missing-error|bool-regular': ('PyTorch raises IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)',
        Step(op='any[uint8]', arrays=(ArraySpec(dtype='bool', shape=(), values=(True,), layout='contig'),))),
    'any[uint8]|forward:missing-error|int64-regular': ('PyTorch raises IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)',
        Step(op='any[uint8]', arrays=(ArraySpec(dtype='int64', shape=(), values=(0,), layout='contig'),))),
    'argmin[nan]|forward:error-type|complex128-empty': ('IndexError: argmin(): Expected reduction dim 1 to have non-zero size. / PyTorch RuntimeError: argmin(): does not support complex input',
        Step(op='argmin[nan]', arrays=(ArraySpec(dtype='complex128', shape=(2, 0), values=(), layout='contig'),))),
    'copysign[number_0d]|grad2:grad-graph|float32-regular': ("no graph / PyTorch [('float32', (), array(0., dtype=float32))]",
        Step(op='copysign[number_0d]', arrays=(ArraySpec(dtype='float32', shape=(), values=(57.567466735839844,), layout='contig'),))),
    'cumprod[vector]|jvp:nan|float64-nan': ('result 0: [-0.62373983  0.72318963 -0.62682167  0.76638334 -0.62092064 -0.14799743] / PyTorch [-0.62373983  0.72318963 -0.62682167  0.76638334 -0.6209',
        Step(op='cumprod[vector]', arrays=(ArraySpec(dtype='float64', shape=(1, 4, 4), values=(0.0, -40.0, -0.0013885498046875, -0.0, 0.0, 0.0, nan, 1.578125, 1e-30, -1.0, 1e+30, 0.0, 1e-200, 100.0, 0.0, 20.0), layout='contig'),))),
    'expand[new_dims]|forward:error-text|bool-regular': ("'The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 1.  Target sizes: [2, 4, 3].  Tensor sizes: [2, 2]' /",
        Step(op='expand[new_dims]', arrays=(ArraySpec(dtype='bool', shape=(2, 2), values=(False, False, False, False), layout='contig'),))),
    'huber_loss[noncontig]|forward:missing-error|float16-empty': ("PyTorch raises RuntimeError: result type ComplexDouble can't be cast to the desired output type Half",
        Step(op='huber_loss[noncontig]', arrays=(ArraySpec(dtype='float16', shape=(2, 0), values=(), layout='transposed'), ArraySpec(dtype='complex128', shape=(2, 0), values=(), layout='contig')))),
    'std_mean[correction_2]|forward:error-text|int8-regular': ("'std and var only support floating point and complex dtypes' / PyTorch 'std_mean only support floating point and complex dtypes'",
        Step(op='std_mean[correction_2]', arrays=(ArraySpec(dtype='int8', shape=(), values=(-68,), layout='strided'),))),
    'var_mean[scalar_dim]|forward:error-text|bool-empty': ("'std and var only support floating point and complex dtypes' / PyTorch 'var_mean only support floating point and complex dtypes'",
        Step(op='var_mean[scalar_dim]', arrays=(ArraySpec(dtype='bool', shape=(0,), values=(), layout='contig'),))),
    'vector_norm[ord2]|forward:inf|complex64-huge': ('result 0: [inf] / PyTorch [6.0000004e+30]',
        Step(op='vector_norm[ord2]', arrays=(ArraySpec(dtype='complex64', shape=(), values=((-6.000000392516252e+30+18.80859375j),), layout='contig'),))),
}

# classes the CI programs find whose one-step reproducer does not show them on its own (the
# step's inputs came from PyTorch's previous step; replayed from their printed values they
# do not): listed in KNOWN, exempt from the still-reproduces check
IN_CONTEXT_ONLY = set()

# promotion classes (test_fuzz_promotion.py): key -> one case of the class, as check(*case) takes it
KNOWN_PROMOTION = {
}

# promotion classes kept on purpose (docs/differences.md): key -> (why, one case of the class)
_COMPLEX32 = ("chainrule has no complex32 (ComplexHalf): float16 with a complex operand raises chainrule's TypeError "
              "where PyTorch computes in complex32 (docs/differences.md)")
DELIBERATE_PROMOTION = {
    'add|binary:error-text|complexxfloat16': (_COMPLEX32, ('add', '0d-tensor', 'complex128', 'float16')),
    'add|binary:error-text|float16xcomplex': (_COMPLEX32, ('add', 'tensor-0d', 'float16', 'complex128')),
    'mul|binary:error-text|complexxfloat16': (_COMPLEX32, ('mul', '0d-tensor', 'complex128', 'float16')),
    'mul|binary:error-text|float16xcomplex': (_COMPLEX32, ('mul', 'tensor-0d', 'float16', 'complex128')),
    'pow|binary:error-text|float16xcomplex': (_COMPLEX32, ('pow', 'tensor-scalar', 'float16', complex(0, -0.0))),
    'sub|binary:error-text|complexxfloat16': (_COMPLEX32, ('sub', '0d-tensor', 'complex128', 'float16')),
    'sub|binary:error-text|float16xcomplex': (_COMPLEX32, ('sub', 'tensor-0d', 'float16', 'complex128')),
}

# bad-input classes (test_fuzz_bad_input.py): key -> (call, bad value) as check(*case) takes it
KNOWN_BAD_INPUT = {
    'add|bad:missing-error|ndarray': ('add', 'ndarray'),  # '(\'ok\', \'torch.float64\', (2, 3)) / PyTorch (\'error\', \'RuntimeError\', "Can\'t call numpy() on Tensor that requires grad. Use tensor.detach().numpy() inst'
    'clamp|bad:error-type|list': ('clamp', 'list'),  # "('error', 'ValueError', 'operands could not be broadcast together with shapes (2,3) (2,)') / PyTorch ('error', 'TypeError', 'clamp() received an inval"
    'clamp|bad:error-type|str': ('clamp', 'str'),  # '(\'error\', \'UFuncTypeError\', "ufunc \'maximum\' did not contain a loop with signature matching types (dtype(\'float32\'), dtype(\'<U1\')) -> None") / PyTorch'
    'clamp|bad:error-type|tuple': ('clamp', 'tuple'),  # "('error', 'ValueError', 'operands could not be broadcast together with shapes (2,3) (2,)') / PyTorch ('error', 'TypeError', 'clamp() received an inval"
    'clamp|bad:missing-error|ndarray': ('clamp', 'ndarray'),  # "('ok', 'torch.float64', (2, 3)) / PyTorch ('error', 'TypeError', 'clamp() received an invalid combination of arguments - got (min=numpy.ndarray, ), bu"
    'cross_entropy_target|bad:error-text|0d_t': ('cross_entropy_target', '0d_t'),  # "('error', 'ValueError', 'Expected input batch_size (2) to match target batch_size (1).') / PyTorch ('error', 'ValueError', 'Expected input batch_size "
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
    'max|bad:missing-error|complex_t': ('max', 'complex_t'),  # '(\'ok\', \'torch.complex64\', ()) / PyTorch (\'error\', \'NotImplementedError\', \'"max_all" not implemented for \\\'ComplexFloat\\\'\')'
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
    'sort|bad:missing-error|complex_t': ('sort', 'complex_t'),  # "('ok', ('torch.complex64', 'torch.int64')) / PyTorch ('error', 'RuntimeError', 'Sort does not support complex dtypes on CPU')"
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
