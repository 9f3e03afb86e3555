"""Each component that takes a placement contract, given one that is not of its shape: the one problem, named by
the component and the argument, before anything registers. A component that dropped the shape problems `coerce`
keeps with its args would build the default contract instead, and guard GPU nodes with a contract nobody gave."""

from __future__ import annotations

import pytest

from components.args.validate import ArgumentError
from components.stackcheck.runtime import ProgramRun
from tests.support.component_args import run_components


@pytest.mark.parametrize(
    ("module", "component", "args"),
    [
        pytest.param("dcgm_exporter", "DcgmExporter", "{}", id="DcgmExporter"),
        pytest.param("device_plugin", "NvidiaDevicePlugin", "{}", id="NvidiaDevicePlugin"),
        pytest.param("vllm_server", "VllmServer", "{}", id="VllmServer"),
    ],
)
def test_a_placement_of_another_shape_is_the_one_problem_named(tmp_path, module, component, args):
    source = f"""
    from components import {component}

    {component}("x", {{**{args}, "placement": "GPU"}})
    """
    run = ProgramRun()
    with pytest.raises(ArgumentError) as raised:
        run_components(tmp_path, source, run)
    assert [str(problem) for problem in raised.value.problems] == [
        f"{component}(x).args.placement: a str 'GPU'; allowed: PlacementArgs or a mapping of its fields"
    ]
    assert run.resources == []
