"""What importing an engine costs: each game's engine in a fresh interpreter, standard library
only (no numpy, no gymnasium, no other engine).

    python -m bench.engine_import [--repeats 7]

A run times, in a fresh ``python -c`` for each, the import of ``byapar_env.engine`` and of
``byapar_env.businessman`` (measured inside the interpreter, so its own start-up is left out),
beside the import of ``json`` as a baseline of the same kind; prints the medians over the
repeats, which modules outside the standard library the import loaded (none), and whether the
other engine came with it (no).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

ENGINES = ("byapar_env.engine", "byapar_env.businessman")
BASELINE = "json"
_PROBE = ("import sys, time; before = set(sys.modules); t = time.perf_counter(); "
          "import {module}; s = time.perf_counter() - t; "
          "third = sorted({{m.split('.')[0] for m in set(sys.modules) - before}}"
          " - set(sys.stdlib_module_names) - {{'byapar_env'}}); "
          "print(__import__('json').dumps([s, third, [e for e in {engines!r} if e in sys.modules"
          " and e != {module!r}]]))")


def time_import(module: str) -> tuple[float, list[str], list[str]]:
    """Seconds to import ``module`` in a fresh interpreter, the third-party top-level modules
    that came with it, and the other engines that came with it."""
    out = subprocess.run([sys.executable, "-c", _PROBE.format(module=module, engines=ENGINES)],
                         capture_output=True, text=True, check=True).stdout
    seconds, third, engines = json.loads(out)
    return seconds, third, engines


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7, help="fresh interpreters per module")
    args = ap.parse_args(argv)
    result = {}
    for module in (*ENGINES, BASELINE):
        runs = [time_import(module) for _ in range(args.repeats)]
        result[module] = {"median_s": statistics.median(r[0] for r in runs),
                          "third_party": runs[0][1], "other_engines": runs[0][2]}
        r = result[module]
        print(f"{module:<24} import {r['median_s'] * 1000:7.1f} ms (median of {args.repeats})"
              f"  third-party: {', '.join(r['third_party']) or 'none'}"
              f"  other engines: {', '.join(r['other_engines']) or 'none'}")
    return result


if __name__ == "__main__":
    main()
