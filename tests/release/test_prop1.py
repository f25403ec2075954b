"""Prop. 1 of Vishwanath & Hehir: the edgeFlip release of a gRDPG is a gRDPG.

E[A_eps | X] = (1 - 2 pi) P + pi (11^T - I): the ASE of the flipped graph estimates the
shrunken private Gram matrix, and the privacy-adjusted ASE estimates P itself.
"""

import numpy as np
import pytest

import tdadp
from tdadp import adjacency_spectral_embedding as ase
from tdadp import gram_error, private_signature

EPS = 1.0
PI = tdadp.flip_probability(EPS)

# Rank caveat: the private Gram matrix (1 - 2 pi) X I X^T + pi 11^T has rank d + 1 only when
# the all-ones vector is outside X's column space. A block of isolated nodes (a zero row of B)
# puts it outside, strongly enough to be seen at n = 1600; a plain SBM keeps it inside.
_B_RDPG = [[0.5, 0.1, 0.0], [0.1, 0.4, 0.0], [0.0, 0.0, 0.0]]
_B_GRDPG = [[0.2, 0.5, 0.0], [0.5, 0.2, 0.0], [0.0, 0.0, 0.0]]
MODELS = {
    "rdpg_sbm_isolated": lambda n, rs: tdadp.sbm(n, _B_RDPG, proportions=[0.25, 0.25, 0.5],
                                                 random_state=rs),
    "grdpg_sbm_isolated": lambda n, rs: tdadp.sbm(n, _B_GRDPG, proportions=[0.25, 0.25, 0.5],
                                                  random_state=rs),
    "grdpg_sbm": lambda n, rs: tdadp.sbm(n, [[0.2, 0.5], [0.5, 0.2]], random_state=rs),
    # degree correction makes the ones vector leave the column space, but only slightly
    "grdpg_dcsbm": lambda n, rs: tdadp.degree_corrected_sbm(
        n, [[0.2, 0.5], [0.5, 0.2]], degree_range=(0.4, 1.0), random_state=rs),
    # a lifted circle: its constant coordinate keeps the ones vector inside
    "rdpg_circle": lambda n, rs: tdadp.circle(n, random_state=rs),
}
EXPECTED_SIGNATURE = {"rdpg_sbm_isolated": (3, 0), "grdpg_sbm_isolated": (2, 1),
                      "grdpg_sbm": (1, 1), "grdpg_dcsbm": (2, 1), "rdpg_circle": (3, 0)}


def _errors(model, n, seed):
    X = MODELS[model](n, seed)
    A = tdadp.sample_grdpg(X, random_state=seed + 1)
    B = tdadp.edge_flip(A, EPS, random_state=seed + 2)
    P = tdadp.probability_matrix(X)
    target = (1 - 2 * PI) * P + PI
    sig = private_signature(X, EPS)
    X_priv = ase(B, n_components=sum(sig))
    X_adj = ase(B, n_components=sum(X.signature), epsilon=EPS)
    return {
        "signature_expected": sig,
        "signature_estimated": X_priv.signature,
        "private": gram_error(X_priv, P=target, norm="mean"),
        "adjusted_vs_P": gram_error(X_adj, P=P, norm="mean"),
        "private_vs_P": gram_error(X_priv, P=P, norm="mean"),
        # the population gap between the private Gram matrix and P
        "bias": gram_error(np.zeros((n, 1)), P=np.abs(target - P), norm="mean"),
        "adjusted_signature": X_adj.signature,
        "true_signature": X.signature,
    }


@pytest.mark.parametrize("model", sorted(MODELS))
def test_private_signature_is_the_inertia(model):
    X = MODELS[model](300, 0)
    assert private_signature(X, EPS) == EXPECTED_SIGNATURE[model]
    # eps = inf is the model itself, eps = 0 collapses to Erdős–Rényi(1/2).
    assert private_signature(X, np.inf) == tdadp.inertia(X)
    assert private_signature(X, 0.0) == (1, 0)


# The degree-corrected SBM's third private direction has eigenvalue ~6 at n = 1600, far
# below the noise level (~2 sqrt(n / 4) = 40): no spectral estimate can see it at test sizes,
# so its private signature is checked at the population level only (above).
@pytest.mark.parametrize("model", ["rdpg_sbm_isolated", "grdpg_sbm_isolated", "grdpg_sbm",
                                   "rdpg_circle"])
def test_flipped_graph_is_the_private_grdpg(model):
    small = _errors(model, 400, 10)
    large = _errors(model, 1600, 10)
    # At n = 400 the weakest private direction is still inside the noise bulk.
    assert large["signature_estimated"] == large["signature_expected"]
    assert large["adjusted_signature"] == large["true_signature"]
    # Gram matrix of the ASE of the flipped graph -> (1 - 2 pi) P + pi, error falling with n
    # (it scales like 1/sqrt(n): a 4x larger graph should roughly halve it).
    assert large["private"] < 0.75 * small["private"]
    assert large["private"] < 0.05
    # The privacy-adjusted ASE recovers P itself, not the shrunken private matrix ...
    assert large["adjusted_vs_P"] < 0.75 * small["adjusted_vs_P"]
    assert large["adjusted_vs_P"] < 0.08
    # ... which the unadjusted embedding misses by a constant: the population gap
    # mean |pi (1 - 2P)|, which no amount of data removes (noise only adds to it).
    assert large["private_vs_P"] > 0.95 * large["bias"]
    assert large["adjusted_vs_P"] < large["private_vs_P"]


def test_private_latent_map_matches_prop1():
    X = tdadp.degree_corrected_sbm(50, [[0.2, 0.5], [0.5, 0.2]], random_state=0)
    for eps in (0.0, 0.5, 2.0, np.inf):
        pi = tdadp.flip_probability(eps)
        Y = tdadp.private_latent_map(X, eps)
        assert Y.signature == (X.signature[0] + 1, X.signature[1])
        P = tdadp.probability_matrix(X)
        Q = tdadp.probability_matrix(Y)
        off = ~np.eye(50, dtype=bool)
        np.testing.assert_allclose(Q[off], ((1 - 2 * pi) * P + pi)[off], atol=1e-12)


def test_manifold_shrinks_by_sqrt_one_minus_two_pi():
    X = tdadp.circle(200, random_state=0)
    Y = tdadp.private_latent_map(X, EPS)
    dX = np.ptp(np.asarray(X)[:, 0])
    dY = np.ptp(np.asarray(Y)[:, 0])
    assert dY == pytest.approx(np.sqrt(1 - 2 * PI) * dX)


def test_alignment_errors():
    rng = np.random.default_rng(0)
    X = tdadp.circle(100, random_state=0)
    W, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    Xr = np.asarray(X) @ W
    aligned, W_hat = tdadp.procrustes_align(Xr, X)
    np.testing.assert_allclose(aligned, X, atol=1e-12)
    assert tdadp.two_to_infinity_error(Xr, X) < 1e-12
    assert tdadp.gram_error(Xr, X) < 1e-12
    noisy = Xr + 0.01 * rng.standard_normal(Xr.shape)
    assert 0 < tdadp.two_to_infinity_error(noisy, X) < 0.1
    with pytest.raises(ValueError, match="same shape"):
        tdadp.procrustes_align(Xr[:, :2], X)
    with pytest.raises(ValueError, match="exactly one"):
        tdadp.gram_error(Xr)
