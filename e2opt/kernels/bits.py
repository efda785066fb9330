"""Bit counts of a uint64 inside numba loops, each one machine instruction (LLVM's cttz and ctlz)."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


def _zero_bits(op: str):
    """An intrinsic counting the zero bits of a non-zero uint64 from one end (``op``: cttz or ctlz)."""

    def count(typingctx, x):
        def codegen(context, builder, sig, args):
            return getattr(builder, op)(args[0], ir.Constant(ir.IntType(1), 0))

        return types.uint64(types.uint64), codegen

    return intrinsic(count)


ctz = _zero_bits("cttz")  # trailing zero bits: the lowest set bit's index
clz = _zero_bits("ctlz")  # leading zero bits: 63 minus the highest set bit's index
