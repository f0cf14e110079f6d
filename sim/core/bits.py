"""Bit operations and small array helpers shared by the engines' kernels.

LLVM intrinsics exposed to numba: ``popcount`` (ctpop), ``lowest_bit`` (cttz), ``nonneg``
(LLVM ``assume``: an index known to be >= 0 needs no code for Python's negative indices) and
``deposit_bits`` (x86 BMI2 ``pdep``); ``nth_bit`` (the k-th set bit of a mask: ``pdep`` where it is
fast, else a loop); ``zero`` (clear an array of 1-3 dimensions). They compile inside the kernels
that call them (``forceinline``), so they add no call; see the performance note in
sim/go_town/kernels.py.
"""

import llvmlite.binding as llvm_binding
from llvmlite import ir
from numba import njit, types
from numba.core import config as numba_config
from numba.extending import intrinsic


# ---------------------------------------------------------------------------------------------
# bit operations (LLVM intrinsics)
@intrinsic
def nonneg(typingctx, x):
    """``x`` (an integer >= 0) as an int64, telling the compiler that it is >= 0 (LLVM
    ``assume``): an array index known to be >= 0 needs no code for Python's negative indices."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        v = context.cast(builder, args[0], x, types.int64)
        ok = builder.icmp_signed(">=", v, ir.Constant(ir.IntType(64), 0))
        fn = builder.module.declare_intrinsic("llvm.assume", fnty=ir.FunctionType(
            ir.VoidType(), [ir.IntType(1)]))
        builder.call(fn, [ok])
        return v

    return types.int64(x), codegen


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of the int64 ``x`` (LLVM ``ctpop``)."""
    if x != types.int64:
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of the int64 ``x`` != 0 (LLVM ``cttz``)."""
    if x != types.int64:
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@intrinsic
def deposit_bits(typingctx, x, m):
    """x86 BMI2 ``pdep``: the low bits of ``x`` placed at the set bits of ``m`` (int64)."""
    if x != types.int64 or m != types.int64:
        return None

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(
            i64, [i64, i64]))
        return builder.call(fn, [args[0], args[1]])

    return types.int64(types.int64, types.int64), codegen


def _fast_pdep() -> bool:
    """True if the kernels may use ``pdep``: numba compiles for this machine (no
    NUMBA_CPU_NAME / NUMBA_CPU_FEATURES), whose CPU has BMI2 and is not an AMD one before Zen 3
    (there ``pdep`` is microcoded and slow). numba's cache is keyed on the CPU, so a cache
    built here is not loaded on a machine without it."""
    if numba_config.CPU_NAME or numba_config.CPU_FEATURES:
        return False
    try:
        name = llvm_binding.get_host_cpu_name()
        features = llvm_binding.get_host_cpu_features()
        bmi2 = bool(features.get("bmi2", False))
    except Exception:  # an llvmlite without these queries: take the portable code
        return False
    return bmi2 and not name.startswith(("znver1", "znver2", "bdver", "btver"))


FAST_PDEP = _fast_pdep()

if FAST_PDEP:
    @njit(cache=True, _nrt=False, forceinline=True)
    def nth_bit(m, k):
        """Index of the ``k``-th (from 0) set bit of ``m`` (which has more than ``k``)."""
        return lowest_bit(deposit_bits(1 << k, m))
else:
    @njit(cache=True, _nrt=False, forceinline=True)
    def nth_bit(m, k):
        """Index of the ``k``-th (from 0) set bit of ``m`` (which has more than ``k``)."""
        for _ in range(k):
            m &= m - 1
        return lowest_bit(m)


# ---------------------------------------------------------------------------------------------
# small helpers
@njit(cache=True, _nrt=False, forceinline=True)
def zero(a):
    """Set the array ``a`` (1-3 dimensions) to 0 (faster than ``a.fill(0)``)."""
    if a.ndim == 1:
        for i in range(a.shape[0]):
            a[i] = 0
    elif a.ndim == 2:
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                a[i, j] = 0
    else:
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                for k in range(a.shape[2]):
                    a[i, j, k] = 0
