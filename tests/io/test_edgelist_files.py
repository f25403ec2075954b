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
    # SNAP's undirected files list every edge in both directions (Edges counts both).
    text = ("# Undirected graph: ca-GrQc.txt\n# Nodes: 3 Edges: 6\n# FromNodeId\tToNodeId\n"
            "3466\t937\n3466\t5233\n937\t3466\n937\t5233\n5233\t3466\n5233\t937\n")
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


# --- long lines: at most 80 characters quoted, never a whole line read into memory ---------

def test_a_huge_line_is_refused_without_being_read_whole(tmp_path):
    import tracemalloc

    path = tmp_path / "one_line.txt"
    with open(path, "w") as fh:
        fh.write("1 2 ")
        for _ in range(40):
            fh.write("x" * (1 << 20))
        fh.write("\n2 3\n")
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"line 1 of the edge list is longer than "
                                             r"1,048,576 characters") as info:
            read_edgelist(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(str(info.value)) < 400 and peak < 16 * 2**20
    # the same line as a comment is skipped a step at a time
    with open(path, "w") as fh:
        fh.write("1 2 # ")
        for _ in range(5):
            fh.write("x" * (1 << 20))
        fh.write("\n2 3\n")
    assert read_edgelist(path).shape == (3, 3)


@pytest.mark.parametrize("text, match", [
    ("x" * 100_000 + "\n1 2\n", r"line 1 .*malformed.*1 field\(s\) in 'x{80}'\.\.\. "
                                r"\(100,000 characters\)"),
    ("1 2 " + "y" * 100_000 + "\n2 3 1\n", r"line 1 .*'y{80}'\.\.\. \(100,000 characters\) "
                                           r"in its weight column"),
    ("1,2\n3\t" + "z" * 5000 + "\n", r"line 2 .*malformed"),
])
def test_bad_lines_are_quoted_in_at_most_80_characters(text, match):
    with pytest.raises(ValueError, match=match) as info:
        read_edgelist(io.StringIO(text))
    assert len(str(info.value)) < 400


def test_non_utf8_bytes_name_the_line():
    with pytest.raises(ValueError, match="line 2 of the edge list is not UTF-8"):
        read_edgelist(io.BytesIO(b"1 2\n2 \xe9\n"))


# --- a first line is a header only when it cannot be an edge --------------------------------

@pytest.mark.parametrize("text, line", [
    ("1 2 abc\n2 3 1\n", 1),    # node 2 is named again: an edge with a bad weight
    ("2 3 1\n1 2 abc\n", 2),    # the same line second: the same error
    ("a b x\nb c 1\n", 1),
])
def test_a_line_naming_known_nodes_is_an_edge_not_a_header(text, line):
    with pytest.raises(ValueError, match=f"line {line} of the edge list has '(abc|x)' in its "
                                         "weight column"):
        read_edgelist(io.StringIO(text))


def test_a_line_that_cannot_be_an_edge_is_still_a_header():
    W, nodes = read_edgelist(io.StringIO("p q w\n1 2 0.5\n2 3 1\n"), weights="keep",
                             return_nodes=True)
    assert nodes == [1, 2, 3] and W.nnz == 4
    # integer labels are never column names
    with pytest.raises(ValueError, match="line 1 .*'w'"):
        read_edgelist(io.StringIO("7 8 w\n1 2 0.5\n2 3 1\n"))
    # unless the caller says so
    assert read_edgelist(io.StringIO("1 2 abc\n2 3 1\n"), header=True).shape == (2, 2)


def test_old_mac_line_ends_and_bad_bytes_in_files(tmp_path):
    path = _write(tmp_path, "1 2\r2 3\r3 1\r")
    np.testing.assert_array_equal(read_edgelist(path, sparse=False), TRIANGLE)
    path.write_bytes(b"1 2\n2 3\n3 \xff\n")
    with pytest.raises(ValueError, match="line 3 of the edge list is not UTF-8"):
        read_edgelist(path)


def test_a_long_label_is_clipped_in_the_duplicate_edge_message():
    label = "q" * 10_000
    with pytest.raises(ValueError, match=r"\('q{39}\.\.\., 'r'\) more than once") as info:
        read_edgelist(io.StringIO(f"{label} r 0.5\nr {label} 0.7\n"), weights="keep")
    assert len(str(info.value)) < 300
