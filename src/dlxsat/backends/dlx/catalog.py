"""The catalog of the compiled tier: which functions of ``kernel.py`` are kernels and which
are their helpers, the kernels written elsewhere, and each kernel's numba signature.

It imports nothing, so that the loader (:mod:`.compiled`), numba's JIT tier (:mod:`.jit`) and
the ahead-of-time build (:mod:`.aot`) all read one list without importing one another.
"""

#: The functions the kernels call (compiled into them) and the kernels themselves.
HELPERS = (
    "_shortest",
    "_deactivate",
    "_reactivate",
    "_draw_child",
    "_choice_key",
    "_set_bound",
    "_branch_m",
    "_cover",
    "_uncover",
    "_purify",
    "_unpurify",
    "_tweak",
    "_untweak",
    "_add_edge",
    "_delete_edge",
    "_accept",
    "_mark",
    "_present_change",
    "_present",
    "_open",
    "_unmark",
    "_connected",
    "_rooted",
    "_acyclic",
    "_sized",
    "_rules_hold",
    "_choose",
    "_record",
    "_cover_option",
    "_uncover_option",
    "_kill_sets",
    "search_sets",
    "_next_option",
    "_hide_bits",
    "search_bits",
)
KERNELS = ("search_c", "search_m", "precover", "search_given", "search_many")
#: Kernels written outside ``kernel.py`` (with its helpers and globals): name -> (module of
#: this package, function).
ELSEWHERE = {"probe": ("estimate", "_probe_kernel"), "probe_m": ("estimate", "_probe_m_kernel")}

#: The kernels compiled ahead of time, with their numba signatures; ``{t}`` is the integer type
#: of ``nd`` and ``cl`` (each kernel is compiled for every type of :data:`DTYPES`). The arrays
#: are C-contiguous (``[::1]``), as the callers make them. A kernel missing here is compiled by
#: numba's JIT at its first call.
SIGNATURES = {
    "search_c": "int64({t}[::1], int32[::1], {t}[::1], int32[::1], int32[::1], int64[::1],"
    " int64[::1], int32[:, ::1], int32[::1])",
    "search_m": "int64({t}[::1], int32[::1], {t}[::1], int32[::1], int32[:, ::1], int64[::1],"
    " int64[::1], int32[:, ::1], int32[::1])",
    "search_given": "int64(int32[::1], {t}[::1], int32[::1], {t}[::1], int32[::1], int64,"
    " int32[::1], int32[::1], int64[::1], int64[::1], int32[:, ::1], int32[::1])",
    "search_many": "int64({t}[::1], int32[::1], {t}[::1], {t}[::1], int32[::1], {t}[::1],"
    " int32[:, ::1], int64[::1], int32[::1], int32[::1], int64[::1], int64[::1],"
    " int32[:, :, ::1], int32[:, ::1], int64[:, ::1])",
    "probe": "void({t}[::1], int32[::1], {t}[::1], int64[::1], int64[::1], float64[::1],"
    " int64[::1], float64[::1], int64)",
    "probe_m": "void({t}[::1], int32[::1], {t}[::1], int64[::1], int64[::1], float64[::1],"
    " int64[::1], float64[::1], int64)",
}
#: The integer types of ``nd`` and ``cl`` (``arrays.kernel_dtype``).
DTYPES = ("int16", "int32")
