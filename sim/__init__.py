"""boardsim: fast, exact Monte Carlo engines for tabletop games.

Public API::

    import sim
    game = sim.get_game("go-town")
    state = game.new_state(4, seed=7, options={"target_floors": 4})
    while not game.is_terminal(state):
        actions = game.legal_actions(state)          # int32 array, ascending
        state = game.apply_action(state, int(actions[0]))
    game.scores(state)

See README.md ("The game interface") and docs/games/<game>.md for each game's action encoding
and state dict layout.
"""

import os
from pathlib import Path

from sim.kernel_cache import _imported, kernel_key, kernel_keys, kernel_sources  # noqa: F401


def quick_link_wanted() -> bool:
    """``BOARDSIM_QUICK_LINK=1`` (``make test`` sets it): see ``_quick_link``."""
    return os.environ.get("BOARDSIM_QUICK_LINK", "").strip() == "1"


def opt_suffix() -> str:
    """``""`` at numba's default optimisation level (3), else ``-O<NUMBA_OPT>``, and ``-q``
    under the quick link: the suffix of the cache folder, as compiled versions of different
    builds must not share an index."""
    opt = os.environ.get("NUMBA_OPT", "").strip()
    return ("" if opt in ("", "3") else f"-O{opt}") + ("-q" if quick_link_wanted() else "")


def _quick_link() -> None:
    """The test build's link step (``BOARDSIM_QUICK_LINK=1``, set by ``make test``).

    numba compiles each ``@njit`` function into its own LLVM module, optimises its functions
    one by one (at ``NUMBA_OPT``), links in the modules of everything it calls, and then runs
    the whole optimisation pipeline again over the linked module: every rule and bot that a
    batch loop, a soak loop, a playout or a search calls is optimised once more inside each of
    them (most of a first compile: BENCHMARKS.md, "where the compile goes"). Here the linked
    module gets only numba's cheap pass (inlining at level 0 and the reference-count pruning);
    its functions stay as optimised one by one. The same machine semantics (the games are the
    same: the suite's exact-value tests), about half of Little Town's compile, and within a
    few per cent of the games per second (BENCHMARKS.md, session 12). Its versions live in
    their own cache folder (``opt_suffix``). numba internals: if they are not as expected,
    nothing is changed."""
    from numba.core import codegen, config

    lib = getattr(codegen, "CPUCodeLibrary", None)
    if lib is None or getattr(lib, "_boardsim_quick_link", False) or not hasattr(
            lib, "_optimize_final_module") or not hasattr(
            codegen, "remove_redundant_nrt_refct"):
        return

    def _optimize_final_module(self):
        cg = self._codegen
        mpm, mpb = cg._module_pass_manager(loop_vectorize=cg._loopvect, slp_vectorize=False,
                                           opt=cg._opt_level, cost="cheap")
        mpm.run(self._final_module, mpb)
        if not config.LLVM_REFPRUNE_PASS:
            self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)

    lib._optimize_final_module = _optimize_final_module
    lib._boardsim_quick_link = True


def _set_numba_cache_dir() -> None:
    """Point numba's on-disk cache at ``.numba_cache/<core key>`` and key each compiled version
    on the games it depends on (sim/kernel_cache.py): an edit to one game's kernels or bots
    recompiles only that game, an edit to the shared core every game, and an edit to the CLI
    or the reports nothing. An explicit NUMBA_CACHE_DIR is respected (still keyed per game).

    numba's cache index does not record LLVM's optimisation level, so a level other than the
    default 3 (``NUMBA_OPT``; ``make test`` compiles at 1, tests/README) gets its own folder
    ``<core key>-O<level>``: the suite's cheaper machine code is never loaded by a run or the
    benchmark, nor theirs by the suite."""
    root = Path(__file__).resolve().parents[1]
    from sim import kernel_cache

    core, games = kernel_keys(root)
    base = None
    if not os.environ.get("NUMBA_CACHE_DIR"):  # set before numba is imported: read on import
        base = root / ".numba_cache" if os.access(root, os.W_OK) else (
            Path.home() / ".cache" / "boardsim" / "numba")
        os.environ["NUMBA_CACHE_DIR"] = str(base / (core + opt_suffix()))
    if not kernel_cache.install(games) and base is not None:
        os.environ["NUMBA_CACHE_DIR"] = str(base / (kernel_key(root) + opt_suffix()))
        from numba.core import config

        config.reload_config()

def _test_build_trims() -> None:
    """Two more cuts of the test build's compile (``BOARDSIM_QUICK_LINK=1``, BENCHMARKS.md,
    session 15), neither of which changes what a compiled function computes:

    - **One version per call, not per constant.** numba types a constant argument of a call
      between compiled functions as a literal (``Literal[int](0)``) and compiles the callee
      once more for each such constant (Little Town: 27 of its 130 cached versions, e.g. a
      helper called with the seat constants 0-3). Here a call is typed with the arguments'
      ordinary types first, and only a callee that does not compile so (one that needs a
      literal) is compiled for the literal.
    - **No C-callable wrapper per function** (``no_cfunc_wrapper``): numba makes one for
      every compiled function so it can be passed as a first-class function value; nothing
      here does (sim/core/fnptr.py calls the functions themselves), and the wrappers were
      about 200 of Little Town's functions.
    - **Machine code emitted at LLVM's code generation level 0** (the target machine's
      ``opt``; the IR is still optimised at ``NUMBA_OPT``): instruction selection and
      register allocation are LLVM's fast ones. Little Town's emission fell from 34 to 5 CPU
      seconds; its compiled games run about 2.9x slower, which the suite's game-playing tests
      pay back only in part (a fresh clone's ``make test``: 534 -> 503 s, BENCHMARKS.md).

    numba internals: if they are not as expected, nothing is changed."""
    from numba.core import codegen, cpu, dispatcher, types

    disp = dispatcher.Dispatcher
    opts = getattr(cpu, "CPUTargetOptions", None)
    jit = getattr(codegen, "JITCPUCodegen", None)
    if getattr(disp, "_boardsim_trims", False) or opts is None or jit is None or not hasattr(
            disp, "get_call_template") or not hasattr(opts, "finalize") or not hasattr(
            jit, "_customize_tm_options"):
        return
    get_call_template, finalize = disp.get_call_template, opts.finalize
    tm_options = jit._customize_tm_options

    def _get_call_template(self, args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return get_call_template(self, plain, plain_kws)
            except Exception:  # noqa: BLE001 - a callee that needs the literal: as numba does
                pass
        return get_call_template(self, args, kws)

    def _finalize(self, flags, options):
        finalize(self, flags, options)
        if not flags.is_set("no_cfunc_wrapper"):
            flags.no_cfunc_wrapper = True

    def _customize_tm_options(self, options):
        tm_options(self, options)
        options["opt"] = 0

    disp.get_call_template = _get_call_template
    opts.finalize = _finalize
    jit._customize_tm_options = _customize_tm_options
    disp._boardsim_trims = True


_set_numba_cache_dir()
if quick_link_wanted():
    _quick_link()
    _test_build_trims()

from sim.core.errors import UserError  # noqa: E402
from sim.registry import get_game, list_games  # noqa: E402

__all__ = ["UserError", "get_game", "list_games"]
__version__ = "0.1.0"
