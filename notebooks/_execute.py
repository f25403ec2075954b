"""Execute every notebook and write the executed copy (with its outputs and plots) to
``figures/notebooks/``, where a reader sees the plots without running anything.

The notebooks themselves stay committed without outputs (their tests check it); ``make
figures`` runs this script so that the copies follow them. Usage:
``python notebooks/_execute.py [OUT_DIR]``.
"""

import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else HERE.parent / "figures" / "notebooks"
    out.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("MPLBACKEND", "Agg")
    for path in sorted(HERE.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, kernel_name="python3", timeout=600,
                       resources={"metadata": {"path": str(HERE)}}).execute()
        # No kernel-specific metadata: the copy changes only when an output does.
        nb.metadata.pop("widgets", None)
        target = out / path.name
        nbformat.write(nb, target)
        print(f"{path.name} -> {target} ({target.stat().st_size // 1024} KiB)", flush=True)


if __name__ == "__main__":
    main()
