import io

import numpy as np
import pytest
import scipy.sparse as sp

from tdadp.io import read_edgelist


def _read(text, **kw):
    return read_edgelist(io.StringIO(text), **kw)


def test_numeric_labels_sorted_numerically_duplicates_merged():
    # (9, 10) listed both ways, the others once: a directed list, symmetrised on request
    A, nodes = _read("# header\n10 9\n9 10\n2 10  # inline comment\n\n2 9 1\n",
                     return_nodes=True, directed="symmetrize")
    assert nodes == [2, 9, 10]
    assert sp.issparse(A) and A.dtype == np.uint8 and A.format == "csr"
    np.testing.assert_array_equal(A.toarray(), [[0, 1, 1], [1, 0, 1], [1, 1, 0]])


def test_string_labels_orders_and_dense():
    text = "b,a\nc,b\n"
    A, nodes = _read(text, delimiter=",", sparse=False, return_nodes=True)
    assert nodes == ["a", "b", "c"] and isinstance(A, np.ndarray)
    np.testing.assert_array_equal(A, [[0, 1, 0], [1, 0, 1], [0, 1, 0]])
    B, first = _read(text, delimiter=",", return_nodes=True, node_order="first_seen")
    assert first == ["b", "a", "c"]
    np.testing.assert_array_equal(B.toarray(), [[0, 1, 1], [1, 0, 0], [1, 0, 0]])


def test_self_loops_refused_unless_dropped_node_kept():
    with pytest.raises(ValueError, match=r"1 self-loop .*self_loops='drop'"):
        _read("1 2\n3 3\n")
    with pytest.warns(UserWarning, match="dropped 1 self-loop"):
        A, nodes = _read("1 2\n3 3\n", return_nodes=True, self_loops="drop")
    assert nodes == [1, 2, 3]
    assert A.diagonal().sum() == 0 and A.nnz == 2


def test_file_path(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("0 1\n1 2\n")
    A = read_edgelist(path)
    assert A.shape == (3, 3) and A.nnz == 4
    assert read_edgelist(str(path)).nnz == 4


def test_mixed_integer_spellings_kept_apart():
    _, nodes = _read("01 1\n", return_nodes=True)
    assert nodes == ["01", "1"]


@pytest.mark.parametrize(
    "text,match",
    [("1 2\n3\n", "line 2"), ("", "no edge"), ("# only a comment\n", "no edge"),
     ("1 1\n", "only one node")],
)
def test_malformed(text, match):
    with pytest.raises(ValueError, match=match):
        _read(text)


def test_bad_arguments():
    with pytest.raises(ValueError, match="node_order"):
        _read("1 2\n", node_order="random")
    with pytest.raises(ValueError, match="path must be"):
        read_edgelist(42)
    for kw, word in [({"header": "yes"}, "header"), ({"weight_column": 1}, "weight_column"),
                     ({"self_loops": "ignore"}, "self_loops"), ({"weights": True}, "weights"),
                     ({"delimiter": ""}, "delimiter"), ({"comments": ""}, "comments")]:
        with pytest.raises(ValueError, match=word):
            _read("1 2\n", **kw)

