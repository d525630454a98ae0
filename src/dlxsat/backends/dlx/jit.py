"""The compiled tier by numba's JIT: ``kernel.py``'s functions compiled when first called, kept
in numba's on-disk cache -- the fallback of :mod:`.compiled` where no ahead-of-time module can
be built (and the code generation that :mod:`.aot` hands to ``numba.pycc``).

``kernel.py`` is plain Python. Here each of its functions is copied with a namespace of its own
in which ``get``/``put`` are unchecked array accesses (numba intrinsics), ``wide`` is
``np.int64`` and the helpers are their compiled versions; the kernels are compiled with
``cache=True``, so numba keeps them on disk next to ``kernel.py`` (its cache is keyed on that
file, which holds all the code) and later processes only load them.

Loading is done for one kernel and one integer size at a time (:func:`kernel`): a problem
needs Algorithm X/C *or* M, on ``int16`` *or* ``int32`` arrays, and numba loads a cached
function per signature. Importing numba and loading one kernel from its cache costs some
tenths of a second (``benchmarks/startup.py --kernels``): the reason for :mod:`.aot`.
"""

from __future__ import annotations

import types as pytypes
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]  # (numba depends on it)
from numba import njit, types
from numba.extending import intrinsic

from . import kernel as source
from .catalog import ELSEWHERE, HELPERS, KERNELS

#: An intrinsic's code generator: (context, builder, signature, LLVM arguments) -> LLVM value.
Codegen: TypeAlias = Callable[[Any, Any, Any, Any], Any]


@intrinsic
def get(typingctx: Any, array: Any, index: Any) -> tuple[Any, Codegen]:
    """``array[index]`` for an index known to be in range (no wraparound, no check)."""
    sig = array.dtype(array, index)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        return builder.load(builder.gep(data, [args[1]], inbounds=True))

    return sig, codegen


@intrinsic
def put(typingctx: Any, array: Any, index: Any, value: Any) -> tuple[Any, Codegen]:
    """``array[index] = value`` for an index known to be in range."""
    sig = types.void(array, index, value)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> None:
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        item = context.cast(builder, args[2], sig.args[2], sig.args[0].dtype)
        builder.store(item, builder.gep(data, [args[1]], inbounds=True))

    return sig, codegen


@intrinsic
def popcount(typingctx: Any, x: Any) -> tuple[Any, Codegen]:
    """The number of bits set in ``x`` (an integer), as an ``int64``."""
    sig = types.int64(x)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        value = context.cast(builder, args[0], sig.args[0], types.int64)
        return builder.ctpop(value)

    return sig, codegen


@intrinsic
def ctz(typingctx: Any, x: Any) -> tuple[Any, Codegen]:
    """The index of the lowest bit set in ``x`` (not 0), as an ``int64``."""
    sig = types.int64(x)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        value = context.cast(builder, args[0], sig.args[0], types.int64)
        return builder.cttz(value, ir.Constant(ir.IntType(1), 1))

    return sig, codegen


def rebind(fn: pytypes.FunctionType, env: dict[str, Any]) -> pytypes.FunctionType:
    """``fn`` with the global namespace ``env`` (same code, name, file and line)."""
    copy = pytypes.FunctionType(fn.__code__, env, fn.__name__, fn.__defaults__, fn.__closure__)
    copy.__qualname__ = fn.__qualname__
    copy.__doc__ = fn.__doc__
    return copy


def python_function(name: str) -> pytypes.FunctionType:
    """The plain Python function of kernel ``name`` (``kernel.py``'s, or one of
    ``catalog.ELSEWHERE``)."""
    if name in ELSEWHERE:
        import importlib

        module, function = ELSEWHERE[name]
        found: pytypes.FunctionType = getattr(
            importlib.import_module(f"{__package__}.{module}"), function
        )
        return found
    kernel_function: pytypes.FunctionType = getattr(source, name)
    return kernel_function


def namespace(cache: bool = True) -> dict[str, Any]:
    """``kernel.py``'s globals with the compiled ``get``/``put``/``wide``/``popcount``/``ctz``
    (and the compiled tier's ``FLAT_SCAN_ITEMS``) and every helper and kernel as a numba
    dispatcher calling the others (kernels cached on disk with ``cache``)."""
    env = dict(vars(source))
    env.update(get=get, put=put, wide=np.int64, popcount=popcount, ctz=ctz)
    env.update(FLAT_SCAN_ITEMS=source.FLAT_SCAN_ITEMS_COMPILED)
    for name in HELPERS:
        env[name] = njit(rebind(getattr(source, name), env))
    for name in (*KERNELS, *ELSEWHERE):
        # ``nogil``: a kernel touches no Python object, so another thread (SAT's, a race's,
        # the watchdog) runs while it searches; the ahead-of-time module does the same.
        env[name] = njit(cache=cache, nogil=True)(rebind(python_function(name), env))
    return env


def _dispatchers() -> dict[str, Any]:
    env = namespace()
    return {name: env[name] for name in (*KERNELS, *ELSEWHERE)}


_DISPATCHERS = _dispatchers()
#: (kernel name, dtype name) already compiled or loaded in this process.
_ready: set[tuple[str, str]] = set()


def kernel(name: str, dtype: type) -> Any:
    """Kernel ``name`` (``search_c``, ``search_m``; the batch path's ``search_given``;
    ``estimate``'s ``probe``) compiled for ``nd``/``cl`` arrays of ``dtype`` (``int16`` or
    ``int32``), loaded from numba's cache when it is there."""
    dispatcher = _DISPATCHERS[name]
    key = (name, np.dtype(dtype).name)
    if key not in _ready:
        if name in ("search_c", "search_m"):
            _warm_up(dispatcher, name, dtype)
        # (the batch path's kernels compile or load at their first call)
        _ready.add(key)
    return dispatcher


def is_ready(name: str, dtype: Any) -> bool:
    """Whether :func:`kernel` has compiled or loaded ``name`` for ``dtype`` in this process."""
    return (name, np.dtype(dtype).name) in _ready


def _warm_up(dispatcher: Any, name: str, dtype: type) -> None:
    """Compile or load ``dispatcher`` for ``dtype`` by running it on a tiny problem (the
    arguments then have exactly the types the backend passes)."""
    from ...xcc.model import Item, Problem
    from .arrays import build

    k = source
    hi = 2 if name == "search_m" else 1  # Algorithm M's kernel: a multiplicity
    items = [Item("a", True, 1, hi), Item("b", False)]
    a = build(Problem(items, [((0, None), (1, "1")), ((0, None),)]))
    params = np.zeros(k.N_PARAMS, dtype=np.int64)
    params[k.P_SECOND] = a.second
    params[k.P_LAST_ITM] = a.last_itm
    params[k.P_LOOP] = 1
    params[k.P_MAX_COUNT] = 1 << 62
    params[k.P_BUDGET] = 1 << 20
    sols = np.zeros((1, a.max_level), dtype=np.int32)
    sol_len = np.zeros(1, dtype=np.int32)
    depth = (2, a.max_level) if name == "search_m" else a.max_level
    dispatcher(
        np.array(a.nd, dtype=dtype),
        np.array(a.ln, dtype=np.int32),
        np.array(a.cl, dtype=dtype),
        np.array(a.opt_of, dtype=np.int32),
        np.zeros(depth, dtype=np.int32),
        np.zeros(k.N_STATE, dtype=np.int64),
        params,
        sols,
        sol_len,
    )
