"""daemonset_pod replaces an own toleration only when key, operator, value and effect all match a
default one (upstream: Toleration.MatchToleration); any difference keeps both."""

from __future__ import annotations

import pytest

from components.placement import daemonset_pod
from tests.support.placement_explain import daemonset

NOT_READY = {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"}


@pytest.mark.parametrize(
    "mine",
    [
        pytest.param({**NOT_READY, "key": "node.kubernetes.io/not-ready-soon"}, id="a different key keeps both"),
        pytest.param({**NOT_READY, "operator": "Equal", "value": ""}, id="a different operator keeps both"),
        pytest.param({**NOT_READY, "value": "x"}, id="a different value keeps both"),
        pytest.param({**NOT_READY, "effect": "NoSchedule"}, id="a different effect keeps both"),
    ],
)
def test_an_own_toleration_that_differs_from_a_default_is_kept_beside_it(mine):
    mine = {**mine, "tolerationSeconds": 30}
    tolerations = daemonset_pod(daemonset([mine]))["spec"]["tolerations"]
    assert tolerations[0] == mine
    assert NOT_READY in tolerations[1:]
    assert len(tolerations) == 7
