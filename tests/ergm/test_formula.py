"""ERGM formulas as statnet writes them: parsing, ergm's statistic definitions, attributes."""

import itertools
import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from tdadp.ergm import (
    ERGMChain,
    ERGMStatisticsRelease,
    PrivateERGM,
    enumerate_graphs,
    ergm_statistics,
    parse_terms,
    sample_ergm,
)
from tdadp.ergm._kernels import change_statistics

MESA = "edges + nodematch('Sex', diff=TRUE) + nodematch('Race') + gwesp(0.5, fixed=TRUE)"


def _graph(rng, n, p):
    A = np.triu((rng.random((n, n)) < p).astype(np.uint8), 1)
    return A + A.T


def _attributes(rng, n):
    sex = rng.choice(["F", "M"], n)
    race = rng.choice(["Black", "Hisp", "NatAm", "White"], n)
    grade = rng.integers(7, 10, n)
    sex[:2], race[:4], grade[:3] = ["F", "M"], ["Black", "Hisp", "NatAm", "White"], [7, 8, 9]
    return {"Sex": sex, "Race": race, "Grade": grade}


def _edges(A):
    return [(i, j) for i, j in zip(*np.nonzero(np.triu(A, 1)))]


def test_the_mesa_formula_names_its_statistics_as_ergm_does_and_prints_back():
    attrs = _attributes(np.random.default_rng(0), 12)
    terms = parse_terms(MESA, attrs)
    assert terms.statistic_names == ("edges", "nodematch.Sex.F", "nodematch.Sex.M",
                                     "nodematch.Race", "gwesp.fixed.0.5")
    assert terms.formula == MESA and str(terms) == MESA and MESA in repr(terms)
    again = parse_terms(terms.formula, attrs)
    assert again.statistic_names == terms.statistic_names
    # a left-hand side is allowed and dropped; R's T and F are TRUE and FALSE
    short = parse_terms("mesa ~ edges + nodematch('Sex', diff=T) + nodematch('Race') + "
                        "gwesp(0.5, fixed=T)", attrs)
    assert short.formula == MESA


def test_list_terms_print_as_a_formula():
    terms = parse_terms(["edges", ("altktriangles", 1.5), "nodematch"], labels=[0, 1, 1, 0])
    assert terms.formula == "edges + altktriangles(1.5) + nodematch"
    assert parse_terms(terms.formula, labels=[0, 1, 1, 0]).statistic_names == \
        terms.statistic_names


@pytest.mark.parametrize("alpha", [0.0, 0.25, 0.5, 1.0, 2.3])
def test_gwesp_and_gwdsp_are_the_alternating_terms_at_lambda_e_to_the_decay(alpha):
    rng = np.random.default_rng(1)
    A = _graph(rng, 25, 0.25)
    lam = math.exp(alpha)
    got = ergm_statistics(A, f"gwesp({alpha}, fixed=TRUE) + gwdsp({alpha}, fixed=TRUE)")
    alias = ergm_statistics(A, [("altktriangles", lam), ("altktwopaths", lam)])
    np.testing.assert_allclose(got, alias, rtol=1e-13)
    # ergm's definition: e^a sum_k (1 - (1 - e^-a)^k) EP_k, and the same over dyads (DSP_k)
    L = A.astype(np.int64) @ A
    q = 1.0 - math.exp(-alpha)
    esp = sum(lam * (1 - q ** L[i, j]) for i, j in _edges(A))
    dsp = sum(lam * (1 - q ** L[i, j]) for i, j in itertools.combinations(range(25), 2))
    np.testing.assert_allclose(got, [esp, dsp], rtol=1e-12)


@pytest.mark.parametrize("alpha", [0.0, 0.3, 1.0])
def test_gwdegree_is_ergms_geometrically_weighted_degree(alpha):
    rng = np.random.default_rng(2)
    A = _graph(rng, 30, 0.15)
    deg = A.sum(axis=1)
    lam, q = math.exp(alpha), 1.0 - math.exp(-alpha)
    D = np.bincount(deg, minlength=30)
    expected = lam * sum((1 - q ** k) * D[k] for k in range(1, 30))
    got = ergm_statistics(A, f"edges + gwdegree({alpha}, fixed=TRUE)")
    np.testing.assert_allclose(got[1], expected, rtol=1e-12)
    # a different statistic from altkstars, linearly tied to it and edges
    kstars = ergm_statistics(A, [("altkstars", lam)])[0]
    np.testing.assert_allclose(got[1], 2 * got[0] - kstars / lam, rtol=1e-10)


def test_labelled_terms_count_what_ergm_counts():
    rng = np.random.default_rng(3)
    n = 20
    A = _graph(rng, n, 0.3)
    attrs = _attributes(rng, n)
    sex, race, grade = attrs["Sex"], attrs["Race"], attrs["Grade"]
    edges = _edges(A)
    f = ("nodematch('Sex', diff=TRUE) + nodematch('Race') + nodefactor('Race') + "
         "nodemix('Grade') + nodematch('Grade', keep=c(1, 3)) + "
         "nodematch('Race', diff=TRUE, levels=c('White', 'Hisp'))")
    terms = parse_terms(f, attrs)
    got = dict(zip(terms.statistic_names, ergm_statistics(A, terms)))
    for s in ("F", "M"):
        assert got[f"nodematch.Sex.{s}"] == sum(sex[i] == sex[j] == s for i, j in edges)
    assert got["nodematch.Race"] == sum(race[i] == race[j] for i, j in edges)
    for r in ("Hisp", "NatAm", "White"):  # Black, the first level, is the base
        assert got[f"nodefactor.Race.{r}"] == sum((race[i] == r) + (race[j] == r)
                                                  for i, j in edges)
    assert "nodefactor.Race.Black" not in got
    # ergm orders the level pairs column by column and leaves out the first (7, 7)
    mix = [k for k in terms.statistic_names if k.startswith("mix.")]
    assert mix == ["mix.Grade.7.8", "mix.Grade.8.8", "mix.Grade.7.9", "mix.Grade.8.9",
                   "mix.Grade.9.9"]
    for a, b in itertools.combinations_with_replacement((7, 8, 9), 2):
        if (a, b) != (7, 7):
            assert got[f"mix.Grade.{a}.{b}"] == sum(
                {grade[i], grade[j]} == {a, b} and sorted((grade[i], grade[j])) == [a, b]
                for i, j in edges)
    # keep= and levels= select levels (indices into the sorted levels, or values), in order
    assert got["nodematch.Grade"] == sum(grade[i] == grade[j] and grade[i] in (7, 9)
                                         for i, j in edges)
    assert terms.statistic_names[-2:] == ("nodematch.Race.White", "nodematch.Race.Hisp")
    assert got["nodematch.Race.White"] == sum(race[i] == race[j] == "White" for i, j in edges)


def test_attributes_by_name_from_networkx_dataframe_or_dict_agree():
    rng = np.random.default_rng(4)
    n = 15
    A = _graph(rng, n, 0.3)
    attrs = _attributes(rng, n)
    G = nx.from_numpy_array(A)
    for key, values in attrs.items():
        nx.set_node_attributes(G, dict(enumerate(values.tolist())), key)
    from_graph = ergm_statistics(G, MESA)
    np.testing.assert_array_equal(from_graph, ergm_statistics(A, MESA, labels=attrs))
    np.testing.assert_array_equal(from_graph,
                                  ergm_statistics(A, MESA, labels=pd.DataFrame(attrs)))


def test_change_statistics_of_formula_terms_are_differences():
    rng = np.random.default_rng(5)
    n = 11
    attrs = _attributes(rng, n)
    f = MESA + " + nodefactor('Grade') + nodemix('Race') + gwdegree(0.4, fixed=TRUE) + " \
               "gwdsp(0.7, fixed=TRUE)"
    terms = parse_terms(f, attrs)
    A = _graph(rng, n, 0.35)
    chain = ERGMChain(A, terms)
    codes, decays, offsets = terms.codes()
    out = np.empty(terms.n_statistics)
    for i, j in itertools.combinations(range(n), 2):
        change_statistics(i, j, chain.adj, chain.deg, chain.L, chain.nbr, chain._labels,
                          chain._lcol, chain._ptab, chain._etab, codes, offsets,
                          chain._powers, chain._omr, decays, out)
        with_ij, without = A.copy(), A.copy()
        with_ij[i, j] = with_ij[j, i] = 1
        without[i, j] = without[j, i] = 0
        expected = ergm_statistics(with_ij, terms) - ergm_statistics(without, terms)
        np.testing.assert_allclose(out, expected, atol=1e-9, err_msg=f"dyad {(i, j)}")


def test_the_chain_keeps_formula_statistics_up_to_date():
    rng = np.random.default_rng(6)
    attrs = _attributes(rng, 18)
    f = MESA + " + gwdegree(0.4, fixed=TRUE) + nodemix('Grade')"
    chain = ERGMChain(np.zeros((18, 18), dtype=np.uint8), f, labels=attrs)
    theta = np.zeros(chain.terms.n_statistics)
    theta[0] = -1.0
    chain.run(theta, 5000, np.random.default_rng(7))
    np.testing.assert_allclose(chain.statistics, ergm_statistics(chain.A, f, labels=attrs),
                               atol=1e-8)
    assert chain.n_edges > 0


def test_exact_enumeration_reads_formula_terms():
    attrs = {"Sex": ["F", "M", "F", "M", "F"], "Race": ["a", "a", "b", "b", "b"]}
    f = "edges + nodematch('Sex', diff=TRUE) + nodemix('Race') + gwdegree(0.5, fixed=TRUE)"
    rows = enumerate_graphs(5, f, labels=attrs, unique=False)
    stats = rows[0] if isinstance(rows, tuple) else rows
    # every graph on 5 nodes, in the enumeration's order, against ergm_statistics
    pairs = list(itertools.combinations(range(5), 2))
    for g in range(0, 2 ** 10, 97):
        A = np.zeros((5, 5), dtype=np.uint8)
        for d, (i, j) in enumerate(pairs):
            if g >> d & 1:
                A[i, j] = A[j, i] = 1
        row = ergm_statistics(A, f, labels=attrs)
        assert any(np.allclose(row, s) for s in stats)


def test_sampling_and_fitting_take_a_formula_with_graph_attributes():
    rng = np.random.default_rng(8)
    n = 24
    attrs = _attributes(rng, n)
    A = sample_ergm("edges + nodematch('Sex')", [-2.0, 1.0], n_nodes=n, labels=attrs,
                    random_state=0)
    G = nx.from_numpy_array(A)
    for key, values in attrs.items():
        nx.set_node_attributes(G, dict(enumerate(values.tolist())), key)
    fit = PrivateERGM("edges + nodematch('Sex', diff=TRUE)", n_iter=60, burn_in=30,
                      aux_steps=200, random_state=1).fit(G)
    assert fit.statistic_names_ == ("edges", "nodematch.Sex.F", "nodematch.Sex.M")
    assert np.isfinite(fit.coef_).all()
    private = PrivateERGM("edges + nodematch('Sex', diff=TRUE)", epsilon=2.0, max_degree=10,
                          labels=pd.DataFrame(attrs), n_iter=40, burn_in=20, aux_steps=200,
                          latent_steps=200, random_state=2).fit(A)
    assert private.release_.meta["statistic_names"] == fit.statistic_names_


@pytest.mark.parametrize("formula, match", [
    ("edges + triangle", "unknown ERGM term 'triangle'"),
    ("edges + + gwesp(0.5, fixed=TRUE)", "term 2"),
    ("edges +", "not valid syntax"),
    ("edges + nodematch(Sex)", "argument must be"),
    ("edges * nodematch('Sex')", "not a term"),
    ("gwesp(0.5)", "fixed=TRUE"),
    ("gwesp(-0.5, fixed=TRUE)", ">= 0"),
    ("altktriangles(0.5)", ">= 1"),
    ("nodematch('Sex', dif=TRUE)", "unknown argument 'dif'"),
    ("nodematch('Height')", "no node attribute 'Height'"),
    ("nodematch('Sex', levels=c(3))", "beyond the 2 levels"),
    ("nodematch('Sex', levels=c('X'))", "1 of the levels named"),
    ("nodematch('Sex', levels=c(1, -2))", "all positive or all negative"),
    ("nodematch('Sex') + nodematch('Sex')", "given twice"),
    ("gwesp(0, fixed=TRUE) + altktriangles(1)", "given twice"),
    ("nodematch", "needs an attribute name"),
    ("a ~ b ~ edges", "at most one '~'"),
])
def test_bad_formulas_are_refused_clearly(formula, match):
    with pytest.raises(ValueError, match=match):
        parse_terms(formula, {"Sex": ["F", "M", "F"]})


def test_missing_attributes_are_counted_not_quoted():
    G = nx.path_graph(4)
    nx.set_node_attributes(G, {0: "secret-a", 1: "secret-b", 2: "secret-a"}, "Sex")
    with pytest.raises(ValueError, match="missing on 1 node") as info:
        ergm_statistics(G, "edges + nodematch('Sex')")
    assert "secret" not in str(info.value)
    with pytest.raises(ValueError, match="give the attributes by name"):
        parse_terms("nodematch('Sex')", labels=[0, 1, 0, 1])


def test_gwdegree_is_not_released_without_a_sensitivity_bound():
    with pytest.raises(ValueError, match="gwdegree has no sensitivity bound"):
        ERGMStatisticsRelease("edges + gwdegree(0.5, fixed=TRUE)", epsilon=1.0,
                              max_degree=5).fit()


def test_the_releases_exact_statistics_read_each_terms_attribute():
    from tdadp.ergm._sensitivity import exact_statistics

    rng = np.random.default_rng(9)
    n = 16
    attrs = _attributes(rng, n)
    A = _graph(rng, n, 0.3)
    terms = parse_terms(MESA + " + nodemix('Grade') + nodefactor('Race')", attrs)
    exact = np.array([float(v) for v in exact_statistics(A, terms)])
    np.testing.assert_allclose(exact, ergm_statistics(A, terms), rtol=1e-12)
