"""PyTorch's CPU random kernels on NumPy arrays, bit for bit.

Each function takes a ``Generator`` and returns a NumPy array drawn exactly as PyTorch 2.13's
CPU kernels draw it on x86-64 (AVX2 and AVX-512 builds), consuming the same words of the
Mersenne Twister in the same order, so mixed sequences of calls stay in step with PyTorch.
What each kernel does is the note above it; ``docs/random.md`` lists what is reproduced.

Three details decide the last bit and are easy to miss:

- PyTorch's distribution kernels are compiled with FMA contraction, so ``u * (b - a) + a``
  and ``x * std + mean`` round once (``_exact``), and the float32 normal kernel
  is a vectorised polynomial log/sin/cos (``_avx_log``/``_avx_sincos``), not libm's.
- Kernels in double call glibc's ``log``, ``log1p``, ``tan`` and ``exp``. NumPy's own versions
  differ in the last bit now and then, so ``_glibc`` computes in extended precision and asks
  glibc itself (through ``math``) only where the extended result is too close to a tie to
  decide, and ``_log1p`` follows glibc's (fdlibm's) log1p operation by operation.
- A tensor of fewer than 16 elements (or a non-contiguous one) is drawn by a scalar Box-Muller
  in double whose second value is cached in the generator and used by the next scalar draw.

>>> g = Generator().manual_seed(0)
>>> normal(g, 3, np.dtype(np.float32), 0.0, 1.0)     # torch.randn(3) after manual_seed(0)
array([ 1.5409961 , -0.2934289 , -2.1787894 ], dtype=float32)
"""
import math

import numpy as np

from .._core.exact import Fma32, fma32, fma64
from .._core.generator import draw_uint32, draw_uint64

_F32 = np.float32
_MASK53 = np.uint64(2 ** 53 - 1)

# --- glibc's libm on arrays -------------------------------------------------------------------


def _glibc(x, extended, scalar, tie_band):
    """``scalar`` (a ``math`` function: glibc's) over the array ``x``, fast: computed by
    ``extended`` in long double and rounded, which is glibc's answer unless the exact value
    lies within ``tie_band`` ulps of a tie (glibc's functions are within 0.52 ulp; the band
    covers that with room); those few, and the non-finite ones, are asked of glibc itself."""
    with np.errstate(all="ignore"):
        wide = extended(x.astype(np.longdouble))
        result = wide.astype(np.float64)
        ulp = np.spacing(np.abs(result)).astype(np.longdouble)
        off_centre = np.abs(((wide - result) / ulp).astype(np.float64))
    mantissa = result.view(np.uint64) & np.uint64(2 ** 52 - 1)
    doubtful = ~(0.5 - off_centre > tie_band) | (mantissa == 0) | ~np.isfinite(result)
    if doubtful.any():
        result[doubtful] = [_scalar_or_limit(scalar, v) for v in x[doubtful].tolist()]
    return result


def _scalar_or_limit(scalar, value):
    try:
        return scalar(value)
    except ValueError:  # math raises where C returns -inf (log(0)) or nan
        return -math.inf if value == 0 else math.nan
    except OverflowError:
        return math.inf


def _log(x):
    return _glibc(x, np.log, math.log, 0.03)


def _tan(x):
    return _glibc(x, np.tan, math.tan, 0.1)


def _exp(x):
    return _glibc(x, np.exp, math.exp, 0.03)


_LN2_HI, _LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
_LP = (6.666666666666735130e-01, 3.999999999940941908e-01, 2.857142874366239149e-01, 2.222219843214978396e-01,
       1.818357216161805012e-01, 1.531383769920937332e-01, 1.479819860511658591e-01)


def _log1p(x):
    """glibc's ``log1p`` (fdlibm's algorithm, operation by operation) for ``x`` in (-1, 0],
    the only arguments the kernels pass (``log1p(-u)``); NumPy's differs in 7% of cases."""
    x = np.asarray(x, np.float64)
    high = (x.view(np.uint64) >> np.uint64(32)).astype(np.uint32)
    magnitude = high & np.uint32(0x7FFFFFFF)
    reduced = magnitude > np.uint32(0x3FD2BEC3)  # x < -0.2929: log1p(x) = k ln2 + log1p(f)
    # 1 + x = 2**k (1 + f) with sqrt(2)/2 < 1 + f < sqrt(2), and c the rounding error of 1 + x
    u = 1.0 + x
    u_bits = u.view(np.uint64)
    u_high = (u_bits >> np.uint64(32)).astype(np.int64)
    k = (u_high >> 20) - 1023
    with np.errstate(all="ignore"):
        c = np.where(k > 0, 1.0 - (u - x), x - (u - 1.0)) / u
    mantissa_high = u_high & 0xFFFFF
    small = mantissa_high < 0x6A09E
    k = np.where(small, k, k + 1)
    new_high = np.where(small, mantissa_high | 0x3FF00000, mantissa_high | 0x3FE00000).astype(np.uint64)
    u_normal = ((new_high << np.uint64(32)) | (u_bits & np.uint64(0xFFFFFFFF))).view(np.float64)
    hu = np.where(small, mantissa_high, (0x00100000 - mantissa_high) >> 2)
    f = np.where(reduced, u_normal - 1.0, x)
    k = np.where(reduced, k, 0)
    hu = np.where(reduced, hu, 1)
    c = np.where(reduced, c, 0.0)
    kd = k.astype(np.float64)
    hfsq = 0.5 * f * f
    with np.errstate(all="ignore"):
        # |f| < 2**-20
        tiny_r = hfsq * (1.0 - 0.66666666666666666 * f)
        tiny = np.where(k == 0, f - tiny_r, kd * _LN2_HI - ((tiny_r - (kd * _LN2_LO + c)) - f))
        tiny = np.where(f == 0, np.where(k == 0, 0.0, kd * _LN2_HI + (c + kd * _LN2_LO)), tiny)
        s = f / (2.0 + f)
        z = s * s
        z2 = z * z
        z4 = z2 * z2
        z6 = z4 * z2
        # glibc's build fuses exactly one multiply-add here (found by experiment)
        r = fma64(z, _LP[0], z2 * (_LP[1] + z * _LP[2])) + z4 * (_LP[3] + z * _LP[4]) + z6 * (_LP[5] + z * _LP[6])
        general = np.where(k == 0, f - (hfsq - s * (hfsq + r)),
                           kd * _LN2_HI - ((hfsq - (s * (hfsq + r) + (kd * _LN2_LO + c))) - f))
    result = np.where(hu == 0, tiny, general)
    # |x| < 2**-29: x - x*x/2, and x itself below 2**-54
    result = np.where(magnitude < np.uint32(0x3E200000), x - x * x * 0.5, result)
    return np.where(magnitude < np.uint32(0x3C900000), x, result)


# --- uniform numbers in [0, 1) ----------------------------------------------------------------


def unit_doubles(generator, n):
    """The low 53 bits of a 64-bit draw times 2**-53, per element: the first word's low 21
    bits above the second word (exact: the sum has 53 bits)."""
    words = draw_uint32(generator, 2 * n)
    high = words[0::2]
    high &= np.uint32(0x1FFFFF)
    unit = np.multiply(high, 2.0 ** -21, dtype=np.float64)
    unit += np.multiply(words[1::2], 2.0 ** -53, dtype=np.float64)
    return unit


def unit_floats(generator, n):
    """The low 24 bits of a 32-bit draw times 2**-24 (float32 and float16 both use these)."""
    words = draw_uint32(generator, n)
    words &= np.uint32(0xFFFFFF)
    return np.multiply(words, _F32(2.0 ** -24), dtype=np.float32)


def _to_dtype(values, dtype):
    """A double result stored as ``dtype``: float16 goes through float, as c10::Half does."""
    if dtype == np.float16:
        return values.astype(np.float32).astype(np.float16)
    return values.astype(dtype, copy=False)


def uniform(generator, n, dtype, low, high):
    """``uniform_(low, high)``: ``fma(u, high - low, low)`` in the dtype (in float, from 24-bit
    uniforms, for float16); a result that rounds to ``high`` in the dtype becomes ``low``."""
    if dtype == np.float64:
        if low == 0 and high == 1:  # u * 1 + 0 is u, below 1
            return unit_doubles(generator, n)
        span, scale = high - low, 1.0
        if abs(span) > 2.0 ** 900:  # keep the exact product's split from overflowing
            span, scale = span * 2.0 ** -600, 2.0 ** 600
        result = fma64(unit_doubles(generator, n), span, low / scale) * scale
        return np.where(result == high, low, result)
    low, high = dtype.type(low), dtype.type(high)
    if low == 0 and high == 1:  # u * 1 + 0 is u
        result = unit_floats(generator, n).astype(dtype, copy=False)
    else:
        low32, high32 = _F32(low), _F32(high)
        result = fma32(unit_floats(generator, n), high32 - low32, low32).astype(dtype, copy=False)
    if dtype == np.float32 and low == 0 and high == 1:
        return result  # a float32 unit is below 1
    return np.where(result == high, low, result)


def uniform_unfused(generator, n, low, high):
    """A double uniform(low, high) as kernels compiled without FMA draw it (rrelu's): the
    product and the sum rounded apart."""
    result = unit_doubles(generator, n) * (high - low) + low
    return np.where(result == high, low, result)


# --- normal -----------------------------------------------------------------------------------

# Cephes' float32 polynomials as AVX's vectorised log and sincos evaluate them (every
# multiply-add fused, as the compiler contracts them)
_LOG_P = tuple(_F32(v) for v in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                                  1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                                  3.3333331174E-1))
_LOG_Q1, _LOG_Q2, _SQRT_HALF = _F32(-2.12194440e-4), _F32(0.693359375), _F32(0.707106781186547524)
_MIN_NORMAL = np.array(0x00800000, np.int32).view(np.float32)
_DP = (_F32(-0.78515625), _F32(-2.4187564849853515625e-4), _F32(-3.77489497744594108e-8))
_SIN_P = (_F32(-1.9515295891E-4), _F32(8.3321608736E-3), _F32(-1.6666654611E-1))
_COS_P = (_F32(2.443315711809948E-005), _F32(-1.388731625493765E-003), _F32(4.166664568298827E-002))
_FOUR_OVER_PI = _F32(1.27323954473516)


def _avx_log(x, fused):
    """log of float32 values in (0, 1]: exponent and mantissa split, a degree-8 polynomial.
    (Where a product is exact in float32 the fused and the plain multiply-add agree, and the
    plain one is used.) ``fused``: an ``Fma32`` of x's shape."""
    x = np.maximum(x, _MIN_NORMAL)
    bits = x.view(np.int32)
    exponent = ((bits >> 23) - 0x7F).astype(np.float32) + _F32(1)
    x = ((bits & ~0x7F800000) | np.int32(0x3F000000)).view(np.float32)  # mantissa in [0.5, 1)
    below = x < _SQRT_HALF
    exponent -= below
    x = (x - _F32(1)) + np.where(below, x, _F32(0))
    z = x * x
    y = _horner32(x.astype(np.float64), _LOG_P, fused)
    y = fused(y * x, z, exponent * _LOG_Q1, out=y, may_be_tiny=False)
    y -= z * _F32(0.5)  # fused with -0.5 * z: the product is exact
    return (x + y) + exponent * _LOG_Q2  # fused: exponent * 0.693359375 is exact


def _horner32(x, coefficients, fused):
    """Horner's rule in float32 with every step fused: fma(fma(c0, x, c1), x, c2)..."""
    y = np.full(x.shape, coefficients[0], np.float32)
    for coefficient in coefficients[1:]:
        fused(y, x, coefficient, out=y, may_be_tiny=False)
    return y


def _avx_sincos(x, fused):
    """(sin, cos) of float32 values in [0, 2pi): octant reduction in three parts, two
    polynomials, each chosen per octant."""
    octant = (x * _FOUR_OVER_PI).astype(np.int32)
    octant = (octant + 1) & ~1
    y = octant.astype(np.float32)
    x = x + y * _DP[0]  # the octant (at most 8) times the first two parts is exact
    x = x + y * _DP[1]
    x = fused(y, _DP[2], x, may_be_tiny=False)  # |x| > 1e-10 for these angles
    sin_negative = (octant & 4) != 0
    cos_negative = (~(octant - 2) & 4) != 0
    first_polynomial = (octant & 2) == 0
    z = x * x
    z64 = z.astype(np.float64)
    cos_poly = _horner32(z64, _COS_P, fused)
    cos_poly *= z
    cos_poly = fused(cos_poly, z64, -(z * _F32(0.5)), out=cos_poly, may_be_tiny=False) + _F32(1)
    sin_poly = _horner32(z64, _SIN_P, fused)
    sin_poly *= z
    sin_poly = fused(sin_poly, x, x, out=sin_poly, may_be_tiny=False)
    sine = np.where(first_polynomial, sin_poly, cos_poly)
    cosine = np.where(first_polynomial, cos_poly, sin_poly)
    return np.where(sin_negative, -sine, sine), np.where(cos_negative, -cosine, cosine)


def _box_muller_16_float32(unit, mean, std):
    """Blocks of 16 uniforms: the first 8 give the radius, the last 8 the angle, of outputs
    j and j + 8 (AVX2's normal_fill_16)."""
    blocks = unit.reshape(-1, 16)
    fused = Fma32((blocks.shape[0], 8))
    radius = np.sqrt(_F32(-2) * _avx_log(_F32(1) - blocks[:, :8], fused))
    sine, cosine = _avx_sincos(_F32(2.0 * math.pi) * blocks[:, 8:], fused)
    out = np.empty_like(blocks)
    if std == 1 and mean == 0:  # fma(v, 1, 0) is v
        out[:, :8] = radius * cosine
        out[:, 8:] = radius * sine
    else:
        out[:, :8] = fused(radius * cosine, std, mean)
        out[:, 8:] = fused(radius * sine, std, mean)
    return out.reshape(-1)


def _box_muller_16_float64(unit, mean, std):
    """The same blocks in double with glibc's log, sin and cos."""
    blocks = unit.reshape(-1, 16)
    radius = np.sqrt(-2 * _log(1 - blocks[:, :8]))
    theta = 2.0 * math.pi * blocks[:, 8:]
    out = np.empty_like(blocks)
    np.multiply(radius, np.cos(theta), out=out[:, :8])
    np.multiply(radius, np.sin(theta), out=out[:, 8:])
    if std != 1 or mean != 0:  # fma(v, 1, 0) is v
        out = fma64(out, std, mean)
    return out.reshape(-1)


def _normal_float16(generator, n, mean, std):
    """float16 draws 16 fresh float uniforms per block of 16 outputs (the last block cut
    short) and computes each block in float. The values can differ from PyTorch's in the last
    bit (its float libm calls are not reproduced exactly); the words drawn are the same."""
    blocks = unit_floats(generator, -(-n // 16) * 16).reshape(-1, 16)
    radius = np.sqrt(_F32(-2) * np.log(_F32(1) - blocks[:, :8]).astype(np.float32))
    theta = (_F32(2.0 * math.pi) * blocks[:, 8:]).astype(np.float64)
    out = np.empty_like(blocks)
    out[:, :8] = fma32(radius * np.cos(theta).astype(np.float32), _F32(std), _F32(mean))
    out[:, 8:] = fma32(radius * np.sin(theta).astype(np.float32), _F32(std), _F32(mean))
    return out.reshape(-1)[:n].astype(np.float16)


def normal(generator, n, dtype, mean, std, contiguous=True):
    """``normal_(mean, std)`` of ``n`` elements: 16-wide Box-Muller blocks over ``n`` fresh
    uniforms (a tail that is not a multiple of 16 redone from 16 more uniforms over the last
    16 outputs) when ``n >= 16`` and contiguous, else the scalar path."""
    if n < 16 or not contiguous:
        values = scalar_normals(generator, n)
        return _to_dtype(values if std == 1 and mean == 0 else fma64(values, std, mean), dtype)
    if dtype == np.float16:
        return _normal_float16(generator, n, mean, std)
    if dtype == np.float32:
        unit, blocks, draw = unit_floats(generator, n), _box_muller_16_float32, lambda: unit_floats(generator, 16)
        mean, std = _F32(mean), _F32(std)
    else:
        unit, blocks, draw = unit_doubles(generator, n), _box_muller_16_float64, lambda: unit_doubles(generator, 16)
    whole = n - n % 16
    out = unit.copy()
    out[:whole] = blocks(unit[:whole], mean, std)
    if n % 16:
        out[n - 16:] = blocks(draw(), mean, std)
    return out.astype(dtype, copy=False)


def scalar_normals(generator, n):
    """``n`` standard normals in double from the scalar Box-Muller: each pair of uniforms
    (u1, u2) gives r cos(2pi u1) and then r sin(2pi u1), r = sqrt(-2 log1p(-u2)); a value
    left over is cached in the generator, and a cached value is used first."""
    out = np.empty(n)
    start = 0
    if n and generator._next_double_normal is not None:
        out[0], generator._next_double_normal = generator._next_double_normal, None
        start = 1
    pairs = (n - start + 1) // 2
    if pairs:
        unit = unit_doubles(generator, 2 * pairs).reshape(pairs, 2)
        radius = np.sqrt(-2.0 * _log1p(-unit[:, 1]))
        theta = 2.0 * math.pi * unit[:, 0]
        values = np.stack([radius * np.cos(theta), radius * np.sin(theta)], axis=1).reshape(-1)
        out[start:] = values[:n - start]
        if (n - start) % 2:
            generator._next_double_normal = float(values[-1])
    return out


# --- integers ---------------------------------------------------------------------------------


def random_from_to(generator, n, low, span, dtype):
    """``random_(low, low + span)``: ``draw % span + low`` with one 32-bit draw per value, or
    one 64-bit draw when ``span >= 2**28``."""
    if span < 2 ** 28:
        words = draw_uint32(generator, n)
        np.remainder(words, np.uint32(span), out=words)
        if low == 0:
            return words.astype(dtype)
        return np.add(words, np.int64(low), dtype=np.int64).astype(dtype, copy=False)
    # the sum wraps modulo 2**64 as PyTorch's unsigned arithmetic does
    values = (draw_uint64(generator, n) % np.uint64(span)) + np.uint64(low % 2 ** 64)
    return values.view(np.int64).astype(dtype)


def random_full_range(generator, n, dtype):
    """``random_(-2**63, None)`` on int64 (and floats): a 64-bit draw as int64."""
    return draw_uint64(generator, n).view(np.int64).astype(dtype)


def random_default(generator, n, dtype):
    """``random_()``: [0, max] of an integer dtype, [0, 2**digits] of a float one; 64-bit draws
    for int64 and float64, 32-bit otherwise; bool takes the lowest bit."""
    if dtype == np.bool_:
        return (draw_uint32(generator, n) & np.uint64(1)).astype(bool)
    if dtype.kind == "f":
        modulus = 2 ** {np.dtype(np.float16): 11, np.dtype(np.float32): 24, np.dtype(np.float64): 53}[dtype] + 1
    else:
        modulus = int(np.iinfo(dtype).max) + 1
    if dtype in (np.int64, np.float64):
        return (draw_uint64(generator, n) % np.uint64(modulus)).astype(dtype)
    return (draw_uint32(generator, n) % np.uint32(modulus)).astype(dtype)


def _stable_order(keys, bound):
    """The stable argsort of non-negative ints below ``bound``, by 16-bit radix passes
    (NumPy radix-sorts 16-bit keys, much faster than a comparison sort)."""
    order = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    shift = 16
    while bound > 1 << shift:
        digit = ((keys[order] >> shift) & 0xFFFF).astype(np.uint16)
        order = order[np.argsort(digit, kind="stable")]
        shift += 16
    return order


def randperm(generator, n):
    """PyTorch's Fisher-Yates from the front: step i swaps a[i] with a[i + draw % (n - i)]
    (32-bit draws while n < 2**32 / 20), computed without the sequential loop:

    step i writes its final value at position i and moves a[i] to its target t_i. What sits
    at position p at step i is the value moved there by the last earlier step targeting p,
    or p itself. So each step's value follows a chain of earlier steps, resolved by pointer
    jumping over all steps at once."""
    if n < 2:
        return np.arange(n)
    steps = n - 1
    index = np.int32 if n < 2 ** 31 else np.int64  # half the memory traffic of the gathers
    step = np.arange(steps, dtype=index)
    if n < (2 ** 32 - 1) // 20:
        target = (step + draw_uint32(generator, steps) % (n - step).astype(np.uint32)).astype(index)
    else:
        target = step + (draw_uint64(generator, steps) % (n - step).astype(np.uint64)).astype(np.int64)
    order = _stable_order(target, n).astype(index)
    sorted_target = target[order]
    same_as_before = sorted_target[1:] == sorted_target[:-1]
    previous = np.full(steps, -1, index)  # the last earlier step with the same target
    previous[order[1:][same_as_before]] = order[:-1][same_as_before]
    last = np.full(n, -1, index)  # the last step targeting each position
    group_ends = np.append(~same_as_before, True)
    last[sorted_target[group_ends]] = order[group_ends]
    # the step that last filled position j before step j (the step itself excluded)
    filler = last.copy()
    own = filler[:steps] == step
    filler[:steps][own] = previous[own]
    # origin[j]: whose original value sits at position j when step j starts
    origin = np.where(filler >= 0, filler, np.arange(n, dtype=index))
    while True:
        further = origin[origin]
        if np.array_equal(further, origin):
            break
        origin = further
    result = np.empty(n, dtype=np.int64)
    result[:steps] = np.where(previous >= 0, origin[np.maximum(previous, 0)], target)
    result[steps] = origin[last[steps]] if last[steps] >= 0 else steps
    return result


# --- other distributions ------------------------------------------------------------------------


def bernoulli_scalar(generator, n, p):
    """``bernoulli_(p)`` with a number: a double uniform per element, 1 where it is below p."""
    return unit_doubles(generator, n) < p


def bernoulli_tensor(generator, p):
    """``bernoulli_(p)`` with a tensor of probabilities (already of the output's shape): a
    double uniform for float64 p, a 24-bit float uniform for other p, compared ``< p``."""
    if p.dtype == np.float64:
        return unit_doubles(generator, p.size).reshape(p.shape) < p
    return unit_floats(generator, p.size).reshape(p.shape) < p.astype(np.float32)


def exponential(generator, n, lambd):
    """``-1/lambda * log1p(-u)`` in double."""
    return (-1.0 / lambd) * _log1p(-unit_doubles(generator, n))


def geometric(generator, n, p):
    """``ceil(log(u) / log(1 - p))`` in double."""
    return np.ceil(_log(unit_doubles(generator, n)) / math.log(1 - p))


def cauchy(generator, n, median, sigma):
    """``median + sigma * tan(pi * (u - 0.5))`` in double (one rounding for the last step)."""
    return fma64(_tan(math.pi * (unit_doubles(generator, n) - 0.5)), sigma, median)


def log_normal(generator, n, mean, std):
    """``exp`` of scalar-path normals: every element, whatever the size."""
    return _exp(fma64(scalar_normals(generator, n), std, mean))


def multinomial_with_replacement(generator, rows, num_samples):
    """Per row, its cumulative distribution (in the row's dtype, normalised by its sum, the
    last entry set to 1) and one double uniform per sample, found by binary search (the
    first entry >= u). Rows are drawn one after another."""
    cdf = np.cumsum(rows, axis=1, dtype=rows.dtype)
    cdf = cdf / cdf[:, -1:]
    cdf[:, -1] = 1
    unit = unit_doubles(generator, rows.shape[0] * num_samples).reshape(rows.shape[0], num_samples)
    return np.stack([np.searchsorted(cdf[r].astype(np.float64), unit[r], side="left")
                     for r in range(rows.shape[0])]).astype(np.int64)


def poisson(generator, rates):
    """``torch.poisson``: per element (in order), Knuth's product of uniforms below 10 and
    Hoermann's transformed rejection from 10 on, as PyTorch's sample_poisson."""
    flat = rates.astype(np.float64).reshape(-1)
    out = np.empty(flat.shape)
    for index, rate in enumerate(flat.tolist()):
        out[index] = _poisson_one(generator, rate)
    return out.reshape(rates.shape).astype(rates.dtype)


def _uniform_one(generator):
    return float(unit_doubles(generator, 1)[0])


def _poisson_one(generator, rate):
    if rate >= 10:
        slam, loglam = math.sqrt(rate), math.log(rate)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = _uniform_one(generator) - 0.5
            v = _uniform_one(generator)
            us = 0.5 - abs(u)
            k = (2 * a / us + b) * u + rate + 0.43
            k = math.floor(k) if math.isfinite(k) else -2 ** 63  # C's int64 conversion on x86
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if (_scalar_or_limit(math.log, v) + math.log(inv_alpha) - math.log(a / (us * us) + b)
                    <= -rate + k * loglam - math.lgamma(k + 1.0)):
                return k
    if rate == 0:
        return 0
    limit, count, product = math.exp(-rate), 0, 1.0
    while True:
        product *= _uniform_one(generator)
        if product > limit:
            count += 1
        else:
            return count
