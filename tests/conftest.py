"""Shared test helpers."""

import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator


def _assert_sklearn_compatible(estimator, expected_failed_checks=None):
    """Run every scikit-learn estimator check on ``estimator`` in one go.

    Every check must pass, except those in ``expected_failed_checks`` (name -> reason), which
    must really fail (a listed reason that no longer holds is reported too). One test per
    estimator rather than one per check: pytest's per-test cost, mostly for reporting
    expected failures, was ten times the checks' own run time.
    """
    expected = dict(expected_failed_checks or {})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(estimator, expected_failed_checks=expected, on_fail=None,
                                  on_skip=None)
    failed = [f"{r['check_name']}: {type(r['exception']).__name__}: {r['exception']}"
              for r in results if r["status"] == "failed"]
    assert not failed, f"{estimator!r} fails:\n" + "\n".join(failed)
    ran = {r["check_name"] for r in results}
    unknown = set(expected) - ran
    assert not unknown, f"expected failures name no check of {estimator!r}: {sorted(unknown)}"
    stale = sorted({r["check_name"] for r in results
                    if r["check_name"] in expected and r["status"] == "passed"})
    assert not stale, f"{estimator!r} passes checks listed as expected failures: {stale}"


@pytest.fixture
def assert_sklearn_compatible():
    return _assert_sklearn_compatible
