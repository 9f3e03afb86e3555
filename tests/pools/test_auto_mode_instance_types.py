"""An Auto Mode GPU pool of instance types Auto Mode does not launch is refused, whole. Every type of today's GPU
catalog is in one of Auto Mode's accelerated families (facts/auto_mode.py GPU_FAMILIES), so the rule is reached
here by a family list without one of them, as it will be when the catalog gains a family Auto Mode lacks."""

from __future__ import annotations

from components.facts import auto_mode, gpu_catalog
from tests.support.finding_values import problems_of


def test_every_catalog_type_but_g7_is_launched_by_auto_mode_today():
    # automode-learn-instances (facts/auto_mode.py) lists g7e, not g7; the settings refuse g7 with autoMode.
    unlaunched = {name.split(".", 1)[0] for name in gpu_catalog.GPU_INSTANCE_TYPES if not auto_mode.supports(name)}
    assert unlaunched == {"g7"}
    assert problems_of({"gpuNodeGroup": {"provisioner": "autoMode", "instanceTypes": ["g7.2xlarge"]}})


def test_a_type_auto_mode_does_not_launch_is_refused_naming_the_families_it_does(monkeypatch):
    monkeypatch.setattr(auto_mode, "GPU_FAMILIES", frozenset({"g6", "p5"}))

    problems = problems_of({"gpuNodeGroup": {"provisioner": "autoMode", "instanceTypes": ["g5.xlarge", "g6.xlarge"]}})

    assert problems == [
        (
            "gpuNodeGroup.instanceTypes",
            "['g5.xlarge'] with provisioner 'autoMode', which does not launch them; allowed: sizes of g6, p5 (EKS "
            "Auto Mode's accelerated families), or provisioner 'nodeGroup'",
        )
    ]
