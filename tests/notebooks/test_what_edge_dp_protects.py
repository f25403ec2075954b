from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "what_edge_dp_protects.ipynb"


def test_notebook_runs_top_to_bottom():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    # Committed with outputs stripped.
    assert all(not cell.get("outputs") for cell in nb.cells if cell.cell_type == "code")
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    text = "\n".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                     for out in cell.get("outputs", []))
    assert "1-edge-local differential privacy" in text
    assert "violated" in text
    assert "W = 2.0" in text
