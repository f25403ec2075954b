"""read_edgelist on files as they come: CSV/TSV exports with headers, quotes, comments."""

import io

import numpy as np
import pytest

from tdadp.graphs import graph_nodes
from tdadp.io import read_edgelist

TRIANGLE = [[0, 1, 1], [1, 0, 1], [1, 1, 0]]


def _write(tmp_path, text, name="edges.txt", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


def test_csv_export_with_header_and_quoted_names(tmp_path):
    # As a spreadsheet or pandas.to_csv writes it: a BOM, a header, quoted names with commas.
    text = ('\ufeffsource,target\r\n"Smith, J.",Lee\r\nLee,"O\'Brien"\r\n'
            '"O\'Brien","Smith, J."\r\n')
    A, nodes = read_edgelist(_write(tmp_path, text, "edges.csv"), return_nodes=True,
                             sparse=False)
    assert nodes == ["Lee", "O'Brien", "Smith, J."]
    np.testing.assert_array_equal(A, TRIANGLE)
    assert graph_nodes(A) == nodes  # the matrix carries its node names


def test_csv_header_with_a_weight_column(tmp_path):
    text = "from,to,weight\n1,2,0.5\n2,3,2\n3,1,1\n"
    path = _write(tmp_path, text, "weighted.csv")
    with pytest.raises(ValueError, match=r"2 weighted edges .*weights="):
        read_edgelist(path)
    W, nodes = read_edgelist(path, weights="keep", sparse=False, return_nodes=True)
    assert nodes == [1, 2, 3] and W.dtype == np.float64
    np.testing.assert_array_equal(W, [[0, 0.5, 1], [0.5, 0, 2], [1, 2, 0]])
    with pytest.warns(UserWarning, match="binarized 2 weighted edges"):
        B = read_edgelist(path, weights="binarize", sparse=False)
    np.testing.assert_array_equal(B, TRIANGLE)
    # By name, or not at all.
    np.testing.assert_array_equal(
        read_edgelist(path, weights="keep", weight_column="Weight", sparse=False), W)
    np.testing.assert_array_equal(read_edgelist(path, weight_column=None, sparse=False),
                                  TRIANGLE)


def test_tsv_with_string_ids_and_a_header_named_otherwise(tmp_path):
    # String node ids: the header is recognised by its weight field, not a number.
    text = "person_a\tperson_b\tcalls\nann\tbob\t3\nbob\tcyd\t1\ncyd\tann\t2\n"
    W, nodes = read_edgelist(_write(tmp_path, text, "calls.tsv"), weights="keep",
                             sparse=False, return_nodes=True)
    assert nodes == ["ann", "bob", "cyd"]
    np.testing.assert_array_equal(W, [[0, 3, 2], [3, 0, 1], [2, 1, 0]])


def test_snap_style_comments_and_tabs(tmp_path):
    text = ("# Undirected graph: ca-GrQc.txt\n# Nodes: 3 Edges: 3\n# FromNodeId\tToNodeId\n"
            "3466\t937\n3466\t5233\n937\t5233\n5233\t937\n")
    A, nodes = read_edgelist(_write(tmp_path, text), return_nodes=True, sparse=False)
    assert nodes == [937, 3466, 5233]
    np.testing.assert_array_equal(A, TRIANGLE)


def test_integer_ids_under_a_header_of_names(tmp_path):
    text = "node_1 node_2\n10 20\n20 30\n30 10\n"
    A, nodes = read_edgelist(_write(tmp_path, text), return_nodes=True, sparse=False)
    assert nodes == [10, 20, 30]
    np.testing.assert_array_equal(A, TRIANGLE)


def test_semicolon_csv_and_inline_comments(tmp_path):
    text = "a;b # first\nb;c\n\nc;a  # last\n"
    A, nodes = read_edgelist(_write(tmp_path, text), return_nodes=True, sparse=False)
    assert nodes == ["a", "b", "c"]
    np.testing.assert_array_equal(A, TRIANGLE)


def test_whitespace_with_quoted_names_and_a_quoted_comment_marker(tmp_path):
    text = '"New York"   Boston\nBoston "C# lovers"  # a comment\n"C# lovers" "New York"\n'
    A, nodes = read_edgelist(_write(tmp_path, text), return_nodes=True, sparse=False)
    assert nodes == ["Boston", "C# lovers", "New York"]
    np.testing.assert_array_equal(A, TRIANGLE)


def test_header_inference_does_not_eat_an_edge():
    # "u" and "v" look like column names, but they are nodes here: an edge, not a header.
    A, nodes = read_edgelist(io.StringIO("u,v\nv,w\nw,u\n"), return_nodes=True,
                             sparse=False)
    assert nodes == ["u", "v", "w"]
    np.testing.assert_array_equal(A, TRIANGLE)
    # String ids throughout and no weights: nothing says the first line is a header ...
    A = read_edgelist(io.StringIO("alpha,beta\nbeta,gamma\n"))
    assert A.shape == (3, 3)
    # ... unless told.
    A, nodes = read_edgelist(io.StringIO("alpha,beta\nbeta,gamma\ngamma,delta\n"),
                             header=True, return_nodes=True)
    assert nodes == ["beta", "delta", "gamma"]
    B = read_edgelist(io.StringIO("source,target\n1,2\n"), header=False)
    assert B.shape == (4, 4)  # "source" and "target" became nodes, as asked


def test_explicit_delimiters_and_binary_file_objects():
    data = b"1::2\n2::3\n3::1\n"
    A = read_edgelist(io.BytesIO(data), delimiter="::", sparse=False)
    np.testing.assert_array_equal(A, TRIANGLE)
    A = read_edgelist(io.StringIO("1 2\n2 3\n3 1\n"), delimiter=None, sparse=False)
    np.testing.assert_array_equal(A, TRIANGLE)


@pytest.mark.parametrize(
    "text, kw, match",
    [
        ("a,b,x\nb,c,1\n", {"header": False}, r"line 1 .*'x'.*weight_column=None"),
        ("1 2 0.5\n2 1 0.7\n", {"weights": "keep"}, r"\(1, 2\) more than once with different"),
        ("1 2 nan\n", {"weights": "keep"}, "line 1 .*weight of nan"),
        ("source,target\n", {}, "no edge"),
        ("1,2\n", {"weight_column": "weight"}, "no header line"),
        ("u,v,w\n1,2,1\n", {"weight_column": "u", "header": True}, "holds node labels"),
        ('"a,b\n', {"delimiter": ","}, "line 1"),
        ("1,2\n3\n", {}, "line 2"),
    ],
)
def test_malformed_files_are_named_by_line(text, kw, match):
    with pytest.raises(ValueError, match=match):
        read_edgelist(io.StringIO(text), **kw)


def test_edge_of_weight_zero_is_no_edge_node_kept():
    A, nodes = read_edgelist(io.StringIO("1 2 1\n2 3 0\n"), return_nodes=True, sparse=False)
    assert nodes == [1, 2, 3]
    np.testing.assert_array_equal(A, [[0, 1, 0], [1, 0, 0], [0, 0, 0]])
