"""Scratch arrays on the stack of a compiled kernel, for kernels compiled with ``_nrt=False``
(no reference-counted heap: numba refuses ``np.empty`` there)."""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array


def stack_array(dtype, n):
    """A compiled function returning a fresh C array ``dtype[n]`` (``n`` a Python int) on the
    stack of the kernel that calls it: uninitialised, gone when that kernel returns. Scratch
    without the reference-counted heap, so usable in kernels compiled with ``_nrt=False``."""
    arrty = types.Array(dtype, 1, "C")

    @intrinsic
    def alloc(typingctx):
        def codegen(context, builder, sig, args):
            lty = context.get_data_type(dtype)
            ptr = cgutils.alloca_once(builder, lty, size=n)
            ary = context.make_array(arrty)(context, builder)
            size = context.get_constant(types.intp, context.get_abi_sizeof(lty))
            populate_array(ary, data=ptr, shape=[context.get_constant(types.intp, n)],
                           strides=[size], itemsize=size, meminfo=None)
            return ary._getvalue()
        return arrty(), codegen
    return alloc
