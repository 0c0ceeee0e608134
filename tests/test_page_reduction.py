"""AppTest for the Reduction page (pages/reduction.py)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests import conftest

pytestmark = pytest.mark.usefixtures("clear_caches")


def open_page(sample: str | None = None) -> AppTest:
    return conftest.open_app_page('pages/reduction.py', sample)


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def run(at: AppTest, **values) -> AppTest:
    for key, value in values.items():
        widget = at.slider(key=key) if key.endswith("share") else at.number_input(key=key)
        widget.set_value(value)
    at.button(key="red_submit").click().run()
    assert not at.exception and not at.error
    return at


def test_step_through_on_iris():
    at = open_page()
    assert at.title[0].value == "Reduction"
    assert any("Run the reduction" in i.value for i in at.info)  # nothing runs before submit
    run(at, red_t=2.0, red_k=2, red_iters=40, red_fshare=0.75, red_oshare=0.8)
    red_params = at.session_state["red_params"]
    assert red_params["t"] == 2.0 and red_params["k"] == 2 and red_params["max_iter"] == 40
    last = int(at.slider(key="red_iter").max)
    assert 1 <= last <= 40
    assert at.session_state["red_iter"] == last  # a new run shows its last iteration
    assert metric(at, "Iteration") == f"{last} / {last}"

    at.slider(key="red_iter").set_value(0).run()
    assert metric(at, "Iteration") == f"0 / {last}"
    assert metric(at, "Kept features") == "3 / 4"  # start share 0.75 of 4 features
    at.button(key="red_step").click().run()
    assert at.session_state["red_iter"] == 1 and metric(at, "Iteration") == f"1 / {last}"
    at.button(key="red_end").click().run()
    assert at.session_state["red_iter"] == last
    at.button(key="red_best").click().run()
    best = at.session_state["red_iter"]
    assert 0 <= best <= last
    assert not at.exception
    dl = at.get("download_button")[0]
    assert f"iteration {best}" in dl.proto.label
    assert len(at.dataframe) == 1  # the trace table


def test_digits_runs_multiclass():
    at = open_page("digits")
    assert "10 raw classes" in at.caption[0].value
    assert "1,797 objects × 64" in at.caption[0].value
    run(at, red_t=0.23, red_k=5, red_iters=4, red_every=2, red_fshare=0.8, red_oshare=0.9)
    assert metric(at, "Kept objects").endswith("/ 1257")  # 70 % of 1,797 trains
    kept = int(metric(at, "Kept features").split(" / ")[0])
    assert 51 - 8 <= kept <= 51 + 8  # 4 steps of at most 2 flips from round(0.8 · 64)
    at.slider(key="red_iter").set_value(0).run()
    assert metric(at, "Kept features") == "51 / 64"
    acc = float(metric(at, "Held-out accuracy"))
    assert 0.5 < acc <= 1.0
