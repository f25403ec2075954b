"""Formulas from the fuzz round: long sums, deep nesting, lines, repeated arguments, echoes."""

import pytest

from tdadp.ergm import parse_terms
from tdadp.ergm._formula import MAX_FORMULA_LENGTH, MAX_FORMULA_NESTING, parse_formula

SEX = {"Sex": ["F", "M", "F"]}


def refusal(formula, match):
    with pytest.raises(ValueError, match=match) as info:
        parse_formula(formula)
    message = str(info.value)
    assert len(message) < 400, message[:400]  # the formula is never echoed whole
    return message


def test_a_long_flat_sum_parses():
    # Was a RecursionError: the '+' chain was walked recursively.
    terms = parse_formula(" + ".join(["edges"] * 2000))
    assert len(terms) == 2000 and {t.kind for t in terms} == {"edges"}


def test_an_overlong_formula_is_refused_with_its_size():
    # Was a bare MemoryError from Python's parser.
    message = refusal("-" * 100_000 + "1", "at most 100,000")
    assert "100,001 characters" in message and MAX_FORMULA_LENGTH == 100_000


@pytest.mark.parametrize("formula", [
    "-" * 5000 + "1",
    "(" * 300 + "edges" + ")" * 300,
    "nodematch('Sex', levels=" + "c(" * 60 + "1" + ")" * 60 + ")",
    "-(" * 40 + "edges" + ")" * 40,
])
def test_deep_nesting_is_refused_with_the_limit(formula):
    refusal(formula, f"more than {MAX_FORMULA_NESTING} deep")


@pytest.mark.parametrize("formula, match", [
    ("edges" + " - edges" * 12_000, "between values"),
    ("nodematch" + "(1)" * 10_000, "a call of a call"),
    ("not " * 20_000 + "edges", "two values"),
    ("edges" + " ** edges" * 10_000, "not a term"),
    ("edges" + ".x" * 20_000, "not a term"),
    ("edges) + (edges", "closes no"),
    ("nodematch('Sex'", "unclosed"),
    ("nodematch('Sex)", "no closing quote"),
])
def test_other_deep_or_broken_shapes_are_refused_cleanly(formula, match):
    refusal(formula, match)


def test_newlines_and_comments_are_whitespace_as_in_r():
    one_line = parse_formula("edges + nodematch('Sex', diff=TRUE) + gwesp(0.5, fixed=TRUE)")
    assert parse_formula("edges +\n  nodematch('Sex')") == parse_formula(
        "edges + nodematch('Sex')")
    assert parse_formula("net ~ edges +   # density\r\n  nodematch('Sex',\n"
                         "            diff=TRUE) +\n\tgwesp(0.5,\n fixed=TRUE)\n") == one_line


def test_a_repeated_argument_is_refused():
    with pytest.raises(ValueError, match="term 1 \\(nodematch\\): argument 'attr' given "
                                         "twice"):
        parse_formula("nodematch(attr='Sex', attr='Grade')")
    with pytest.raises(ValueError, match="argument 'diff' given twice"):
        parse_formula("edges + nodematch('Sex', diff=TRUE, diff=FALSE)")


@pytest.mark.parametrize("formula, match", [
    ("a" * 99_000 + "()", "unknown ERGM term"),
    ("edges + nodematch('Sex', " + "d" * 90_000 + "=TRUE)", "unknown argument"),
    ("nodematch('" + "S" * 90_000 + "')", "no node attribute"),
])
def test_messages_quote_at_most_about_80_characters_of_the_formula(formula, match):
    with pytest.raises(ValueError, match=match) as info:
        parse_terms(formula, SEX)
    assert len(str(info.value)) < 400
