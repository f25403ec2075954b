"""The notebooks in ``notebooks/`` run top to bottom and are committed without outputs."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS_DIR = Path(__file__).resolve().parents[2] / "notebooks"
ALL_NOTEBOOKS = sorted(NOTEBOOKS_DIR.glob("*.ipynb"))
# Executed by its own test (test_what_edge_dp_protects.py): running it here too would
# double the cost.
EXECUTED_ELSEWHERE = {"what_edge_dp_protects.ipynb"}
EXECUTED_HERE = [p for p in ALL_NOTEBOOKS if p.name not in EXECUTED_ELSEWHERE]
EXPECTED = {"quickstart.ipynb", "shape_of_edge_dp.ipynb", "clustering_private_network.ipynb"}


def _ids(paths):
    return [p.stem for p in paths]


def test_expected_notebooks_are_present():
    assert EXPECTED <= {p.name for p in ALL_NOTEBOOKS}


@pytest.mark.parametrize("path", EXECUTED_HERE, ids=_ids(EXECUTED_HERE))
def test_notebook_runs(path, monkeypatch):
    # The kernel inherits this environment: no display is needed for the figures.
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=300,
        resources={"metadata": {"path": str(NOTEBOOKS_DIR)}},
    )
    # Raises CellExecutionError, naming the cell and the traceback, if any cell fails.
    client.execute()
    errors = [
        output
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert not errors


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=_ids(ALL_NOTEBOOKS))
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert code_cells, f"{path.name} has no code cell"
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        assert cell.outputs == [], f"{path.name}: cell {index} has outputs"
        assert cell.execution_count is None, f"{path.name}: cell {index} has an execution count"


EXECUTED_COPIES = NOTEBOOKS_DIR.parent / "figures" / "notebooks"


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=_ids(ALL_NOTEBOOKS))
def test_executed_copy_follows_the_notebook(path):
    # figures/notebooks/ holds what a reader sees (outputs and plots), written by
    # `make figures`: its cells must be the notebook's, and every code cell must have run.
    copy = nbformat.read(EXECUTED_COPIES / path.name, as_version=4)
    nb = nbformat.read(path, as_version=4)
    assert [(c.cell_type, c.source) for c in copy.cells] == \
        [(c.cell_type, c.source) for c in nb.cells], (
        f"{path.name} changed since its executed copy: run `make figures`")
    for cell in copy.cells:
        if cell.cell_type == "code":
            assert cell.execution_count is not None
            assert not [o for o in cell.outputs if o.output_type == "error"]
