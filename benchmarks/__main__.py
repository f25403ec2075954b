"""Run every benchmark: ``python -m benchmarks [--quick]``."""

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if not info.name.startswith("bench_"):
            continue
        print(f"\n=== {info.name} ===", flush=True)
        importlib.import_module(f"benchmarks.{info.name}").main(argv)


if __name__ == "__main__":
    main()
