"""Calling a compiled function through its address, so the caller does not carry its code.

numba links every function a compiled function calls into the caller's own machine code: a
loop that calls the bots (the batch loop, the soak, a trace, a playout) emits the bots, the
search and the rules again, each time it is compiled. ``caller(resolve)`` makes a call through
a function pointer instead: the caller is compiled with a call to an address it receives as
an ``int64`` argument, and the callee is compiled once, by its own dispatcher (the version
Python calls, in numba's disk cache), and reached at run time by ``address``.

- ``resolve(argtypes)`` (at compile time) returns the callee's dispatcher for those numba
  types; the call's signature is the dispatcher's for exactly those types, so ``address``
  must be taken with the same types (``address(dispatcher, args)`` takes them from the values
  the caller will pass, by ``numba.typeof``).
- The call follows numba's own calling convention (the callee's status and exception are
  propagated as in a direct call); only the address is a run-time value, so the caller can
  be cached (the address is never part of its code).
"""

from __future__ import annotations

from numba import typeof
from numba.core import cgutils, types
from numba.core.errors import TypingError
from numba.extending import intrinsic


def address(dispatcher, args: tuple) -> int:
    """The native address of ``dispatcher``'s version for the types of ``args`` (compiled, or
    loaded from the disk cache, here)."""
    sig = tuple(typeof(a) for a in args)
    dispatcher.compile(sig)
    cres = dispatcher.overloads[sig]
    return int(cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name))


def caller(resolve):
    """An intrinsic ``call(fn, args)``: calls the function at address ``fn`` (int64) with the
    tuple ``args``, as the dispatcher ``resolve(args' numba types)`` compiled for them."""

    @intrinsic
    def call(typingctx, fn, args):
        if not isinstance(fn, types.Integer) or not isinstance(args, types.BaseTuple):
            raise TypingError("call(fn, args): fn an integer address, args a tuple")
        argtys = tuple(args.types)
        disp = resolve(argtys)
        if disp is None:
            raise TypingError(f"no function to call through an address for {argtys}")
        template = typingctx.resolve_function_type(types.Dispatcher(disp), argtys, {})
        if template is None:
            raise TypingError(f"{disp} has no version for {argtys}")
        restype = template.return_type
        sig = restype(fn, args)

        def codegen(context, builder, signature, llargs):
            ptr, tup = llargs
            vals = [builder.extract_value(tup, i) for i in range(len(argtys))]
            fnty = context.call_conv.get_function_type(restype, argtys)
            target = builder.inttoptr(context.cast(builder, ptr, fn, types.int64),
                                      fnty.as_pointer())
            status, res = context.call_conv.call_function(builder, target, restype, argtys,
                                                          vals)
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return res

        return sig, codegen

    return call
