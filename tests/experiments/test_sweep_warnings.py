"""A sweep records its tasks' warnings in the table and states each distinct one once."""

import warnings

from tdadp.experiments._sweep import make_tasks, run_sweep


def _task(params, config, seed):
    warnings.warn("the graph is not connected", UserWarning, stacklevel=2)
    if params["x"] == 1:
        warnings.warn("a rarer condition", RuntimeWarning, stacklevel=2)
    return {"y": params["x"]}


def test_each_warning_is_stated_once_and_counted_in_the_rows(capsys):
    tasks = make_tasks([{"x": 0}, {"x": 1}], 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing reaches the caller
        rows = run_sweep(_task, tasks, {}, 0, {"n_jobs": 1}, progress=False, label="t")
    assert [r["task_warnings"] for r in rows] == [1, 1, 1, 2, 2, 2]
    assert rows[3]["task_warning_messages"] == ("RuntimeWarning: a rarer condition | "
                                                "UserWarning: the graph is not connected")
    err = capsys.readouterr().err.splitlines()
    assert err == ["t: 3 of 6 tasks warned: RuntimeWarning: a rarer condition",
                   "t: 6 of 6 tasks warned: UserWarning: the graph is not connected"]
