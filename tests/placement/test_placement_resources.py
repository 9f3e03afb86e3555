"""Effective requests and the NodeResourcesFit filter: pod_requests, fits_resources, insufficient_resources."""

from __future__ import annotations

from fractions import Fraction

import pytest

from components.placement import fits_resources, insufficient_resources, node_allocatable, pod_requests

Mi = 2**20
Gi = 2**30


def container(requests=None, limits=None, **extra):
    resources = {}
    if requests is not None:
        resources["requests"] = requests
    if limits is not None:
        resources["limits"] = limits
    return {"name": "c", "image": "x", "resources": resources, **extra}


def pod(*containers, init=(), overhead=None, pod_resources=None):
    spec = {"containers": list(containers)}
    if init:
        spec["initContainers"] = list(init)
    if overhead is not None:
        spec["overhead"] = overhead
    if pod_resources is not None:
        spec["resources"] = pod_resources
    return {"spec": spec}


def sidecar(requests):
    return container(requests, restartPolicy="Always")


@pytest.mark.parametrize(
    ("the_pod", "expected"),
    [
        pytest.param(pod(), {}, id="pod without containers requests nothing"),
        pytest.param(pod(container()), {}, id="container without resources requests nothing"),
        pytest.param(
            pod(container({"cpu": "500m", "memory": "1Gi"})),
            {"cpu": Fraction(1, 2), "memory": Gi},
            id="container requests cpu and memory",
        ),
        # A request defaults to the limit: extended resources, cpu and memory alike.
        pytest.param(
            pod(container(limits={"nvidia.com/gpu": 1})),
            {"nvidia.com/gpu": 1},
            id="a GPU limit alone is the GPU request",
        ),
        pytest.param(
            pod(container(limits={"cpu": "2", "memory": "4Gi"})),
            {"cpu": 2, "memory": 4 * Gi},
            id="cpu and memory limits alone are the requests",
        ),
        pytest.param(
            pod(container({"cpu": "1"}, {"cpu": "2", "memory": "1Gi"})),
            {"cpu": 1, "memory": Gi},
            id="a request wins over its limit",
        ),  # the request wins
        pytest.param(
            pod(container({"nvidia.com/gpu": "2"}, {"nvidia.com/gpu": "2"})),
            {"nvidia.com/gpu": 2},
            id="equal GPU request and limit count once",
        ),
        # Containers add up.
        pytest.param(
            pod(container({"cpu": "250m"}), container({"cpu": "250m", "memory": "64Mi"})),
            {"cpu": Fraction(1, 2), "memory": 64 * Mi},
            id="containers add up",
        ),
        # An init container runs alone: the larger of it and the sum counts.
        pytest.param(
            pod(container({"cpu": "1"}), init=[container({"cpu": "3", "memory": "1Gi"})]),
            {"cpu": 3, "memory": Gi},
            id="a larger init container counts instead of the containers",
        ),
        pytest.param(
            pod(container({"cpu": "1"}), container({"cpu": "1"}), init=[container({"cpu": "1500m"})]),
            {"cpu": 2},
            id="the containers' sum counts when larger than an init container",
        ),
        pytest.param(
            pod(container({"cpu": "1"}), init=[container({"cpu": "2"}), container({"cpu": "4"})]),
            {"cpu": 4},
            id="the largest init container counts",
        ),
        # Sidecars (restartPolicy Always) run beside the app and the later init containers.
        pytest.param(
            pod(container({"cpu": "100m"}), init=[sidecar({"cpu": "50m"})]),
            {"cpu": Fraction(150, 1000)},
            id="a sidecar adds to the app containers",
        ),
        pytest.param(
            pod(
                container({"cpu": "100m"}),
                init=[sidecar({"cpu": "50m"}), container({"cpu": "200m"}), sidecar({"cpu": "30m"})],
            ),
            {"cpu": Fraction(250, 1000)},
            id="a sidecar runs beside the later init containers",
        ),
        pytest.param(
            pod(container({"cpu": "1"}), init=[container({"cpu": "200m"}), sidecar({"cpu": "500m"})]),
            {"cpu": Fraction(3, 2)},
            id="a sidecar after an init container adds to the app containers",
        ),
        # Overhead adds on top.
        pytest.param(
            pod(container({"cpu": "1", "memory": "1Gi"}), overhead={"cpu": "250m", "memory": "120Mi"}),
            {"cpu": Fraction(5, 4), "memory": Gi + 120 * Mi},
            id="overhead adds to the containers",
        ),
        pytest.param(
            pod(container({"cpu": "1"}), init=[container({"cpu": "2"})], overhead={"cpu": "100m"}),
            {"cpu": Fraction(21, 10)},
            id="overhead adds to the largest init container",
        ),
        # Pod-level resources replace the containers' cpu and memory, not other resources.
        pytest.param(
            pod(container({"cpu": "1", "nvidia.com/gpu": "1"}), pod_resources={"requests": {"cpu": "3"}}),
            {"cpu": 3, "nvidia.com/gpu": 1},
            id="pod-level requests replace cpu but keep GPUs",
        ),
        pytest.param(
            pod(container({"memory": "1Gi"}), pod_resources={"limits": {"memory": "2Gi"}}),
            {"memory": 2 * Gi},
            id="pod-level memory limit replaces the containers' memory",
        ),
        # Rounded up like the scheduler: cpu to millicores, the rest to whole units.
        pytest.param(
            pod(container({"cpu": "0.1m", "memory": "0.5"})),
            {"cpu": Fraction(1, 1000), "memory": 1},
            id="requests round up like the scheduler",
        ),
    ],
)
def test_pod_requests(the_pod, expected):
    assert pod_requests(the_pod) == expected


def node(allocatable=None, **extra):
    result = {"metadata": {"name": "n"}, "status": {}}
    if allocatable is not None:
        result["status"]["allocatable"] = allocatable
    result.update(extra)
    return result


GPU_NODE = node({"cpu": "3920m", "memory": "15391Mi", "pods": "58", "nvidia.com/gpu": "1", "ephemeral-storage": "17Gi"})
CPU_NODE = node({"cpu": "1930m", "memory": "7518Mi", "pods": "29"})
SMALL = pod(container({"cpu": "100m", "memory": "64Mi"}))
ONE_GPU = pod(container({"cpu": "1", "memory": "4Gi"}, {"nvidia.com/gpu": "1"}))


@pytest.mark.parametrize(
    ("the_pod", "the_node", "existing", "problems"),
    [
        pytest.param(SMALL, CPU_NODE, [], [], id="small pod fits a CPU node"),
        pytest.param(ONE_GPU, GPU_NODE, [], [], id="one-GPU pod fits a GPU node"),
        pytest.param(
            pod(container({"cpu": "2"})),
            CPU_NODE,
            [],
            ["Insufficient cpu: requests 2000m, free 1930m"],
            id="2 cpus do not fit a CPU node",
        ),
        pytest.param(
            pod(container({"cpu": "4"})),
            GPU_NODE,
            [],
            ["Insufficient cpu: requests 4000m, free 3920m"],
            id="4 cpus do not fit a GPU node",
        ),
        pytest.param(
            pod(container({"memory": "8Gi"})),
            CPU_NODE,
            [],
            ["Insufficient memory: requests 8Gi, free 7518Mi"],
            id="8Gi of memory does not fit a CPU node",
        ),
        pytest.param(
            ONE_GPU,
            CPU_NODE,
            [],
            ["Insufficient nvidia.com/gpu: requests 1, free 0 (node does not advertise nvidia.com/gpu)"],
            id="GPU pod does not fit a node without GPUs",
        ),
        pytest.param(
            pod(container(limits={"nvidia.com/gpu": "2"})),
            GPU_NODE,
            [],
            ["Insufficient nvidia.com/gpu: requests 2, free 1"],
            id="two GPUs do not fit a one-GPU node",
        ),
        pytest.param(
            pod(container({"nvidia.com/gpu": "0"})), CPU_NODE, [], [], id="a zero request of an unlisted resource fits"
        ),  # a zero request of an unlisted resource fits
        pytest.param(
            pod(container({"ephemeral-storage": "10Gi"})),
            GPU_NODE,
            [],
            [],
            id="ephemeral storage fits a node that advertises it",
        ),
        pytest.param(
            pod(container({"ephemeral-storage": "10Gi"})),
            CPU_NODE,
            [],
            ["Insufficient ephemeral-storage: requests 10Gi, free 0 (node does not advertise ephemeral-storage)"],
            id="ephemeral storage does not fit a node that does not advertise it",
        ),
        pytest.param(
            pod(container({"hugepages-2Mi": "4Mi"})),
            node({"pods": "10", "hugepages-2Mi": "2Mi"}),
            [],
            ["Insufficient hugepages-2Mi: requests 4Mi, free 2Mi"],
            id="hugepages above the node's do not fit",
        ),
        # cpu and memory absent from allocatable count as 0.
        pytest.param(
            SMALL,
            node({"pods": "10"}),
            [],
            [
                "Insufficient cpu: requests 100m, free 0m (node does not advertise cpu)",
                "Insufficient memory: requests 64Mi, free 0 (node does not advertise memory)",
            ],
            id="cpu and memory absent from allocatable count as zero",
        ),
        # So does pods: no room for any pod.
        pytest.param(
            pod(container()),
            node({"cpu": "1"}),
            [],
            ["Too many pods: allocatable 0, already running 0"],
            id="a node without pods in allocatable fits no pod",
        ),
        pytest.param(
            pod(container()),
            node(),
            [],
            ["Too many pods: allocatable 0, already running 0"],
            id="a node without allocatable fits no pod",
        ),
        # Existing pods take their requests and a pod slot.
        pytest.param(
            ONE_GPU,
            GPU_NODE,
            [ONE_GPU],
            ["Insufficient nvidia.com/gpu: requests 1, free 0"],
            id="a GPU already taken leaves no room for another",
        ),
        pytest.param(pod(container({"cpu": "3"})), GPU_NODE, [SMALL, SMALL], [], id="existing pods leave enough cpu"),
        pytest.param(
            pod(container({"cpu": "3800m"})),
            GPU_NODE,
            [SMALL, SMALL],
            ["Insufficient cpu: requests 3800m, free 3720m"],
            id="existing pods leave too little cpu",
        ),
        pytest.param(
            pod(container({"memory": "15Gi"})),
            GPU_NODE,
            [SMALL],
            ["Insufficient memory: requests 15Gi, free 15327Mi"],
            id="an existing pod leaves too little memory",
        ),
        # The pod count: existing + 1 must fit.
        pytest.param(SMALL, node({"cpu": "4", "memory": "4Gi", "pods": "2"}), [SMALL], [], id="the last pod slot fits"),
        pytest.param(
            SMALL,
            node({"cpu": "4", "memory": "4Gi", "pods": "2"}),
            [SMALL, SMALL],
            ["Too many pods: allocatable 2, already running 2"],
            id="no pod slot left does not fit",
        ),
        pytest.param(
            pod(container()),
            node({"pods": "1"}),
            [SMALL],
            ["Too many pods: allocatable 1, already running 1"],
            id="a pod requesting nothing still needs a pod slot",
        ),
        # A pod requesting nothing fits an overcommitted node (with a pod slot).
        pytest.param(
            pod(container()),
            node({"cpu": "1", "pods": "5"}),
            [pod(container({"cpu": "2"}))],
            [],
            id="a pod requesting nothing fits an overcommitted node",
        ),
        # Overhead and init containers count for existing pods too.
        pytest.param(
            pod(container({"cpu": "1"})),
            node({"cpu": "2", "pods": "5"}),
            [pod(container({"cpu": "500m"}), overhead={"cpu": "600m"})],
            ["Insufficient cpu: requests 1000m, free 900m"],
            id="an existing pod's overhead counts",
        ),
        pytest.param(
            pod(container({"cpu": "1"})),
            node({"cpu": "2", "pods": "5"}),
            [pod(container({"cpu": "100m"}), init=[container({"cpu": "1500m"})])],
            ["Insufficient cpu: requests 1000m, free 500m"],
            id="an existing pod's init container counts",
        ),
    ],
)
def test_resource_fit(the_pod, the_node, existing, problems):
    assert insufficient_resources(the_pod, the_node, existing) == problems
    assert fits_resources(the_pod, the_node, existing) is (not problems)


def test_init_container_makes_the_pod_not_fit():
    the_pod = pod(container({"cpu": "1"}), init=[container({"cpu": "3"})])
    assert not fits_resources(the_pod, CPU_NODE)
    assert fits_resources(pod(container({"cpu": "1"})), CPU_NODE)


def test_overhead_makes_the_pod_not_fit():
    the_pod = pod(container({"cpu": "1800m"}), overhead={"cpu": "250m"})
    assert insufficient_resources(the_pod, CPU_NODE) == ["Insufficient cpu: requests 2050m, free 1930m"]


def test_existing_pods_may_be_any_iterable():
    assert not fits_resources(SMALL, node({"cpu": "4", "memory": "4Gi", "pods": "1"}), iter([SMALL]))


def test_node_allocatable_parses_and_rounds():
    assert node_allocatable(node({"cpu": "0.0005", "memory": "1.5Ki", "pods": 58})) == {
        "cpu": Fraction(1, 1000),
        "memory": 1536,
        "pods": 58,
    }


def test_malformed_quantity_raises():
    with pytest.raises(ValueError, match="malformed quantity '2 Gi'"):
        fits_resources(pod(container({"memory": "2 Gi"})), CPU_NODE)
