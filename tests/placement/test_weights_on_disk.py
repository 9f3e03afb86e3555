"""The disk verdict (`weights-fit-on-disk`): each model cache against the weights downloaded into it, and each node's
volume against the OS, the image and what its pods write, above the kubelet's `nodefs.available<10%`.

The expected values are worked in each case's comment from the figures facts/node_disk.py cites: the vLLM image
at 28.6 GB unpacked (vllm-project/vllm#22377) and 12 GB compressed (vllm-project/vllm#27154); AL2023's OS within
its AMI's 20 GiB build volume, its containerd discarding compressed layers once unpacked (amazon-eks-ami nodeadm
config.template.toml, `discard_unpacked_layers = true`); Bottlerocket's OS on a volume of its own. Weights are the
catalog's parameters x 2 bytes: Qwen2.5-7B 15.22 GB, Llama-3.3-70B 141.12 GB. The server's `/tmp` is 10Gi, the copy
Job's scratch 30Gi and its `/tmp` 1Gi.
"""

from __future__ import annotations

import pytest
import yaml

from components.facts import versions
from components.facts.node_disk import ModelCache, NodeDisk, Write, default_model_cache
from components.placement.disk_fit import NodeLoad, disk_verdict
from tests.conftest import ROOT, dev_stack_file, plan_stack_file, verdict

GIB = 2**30
QWEN_7B = 7.61e9 * 2
LLAMA_70B = 70.56e9 * 2
IMAGE = versions.VLLM_IMAGE

NODES = [
    # The dev GPU node from the Hub: 20 GiB + 28.6e9 + 15.22e9 + 10 GiB = 76032254720 B = 70.81 GiB <= 90% of
    # 100 GiB; 70.81 / 0.9 = 78.68, so 79.
    pytest.param(
        NodeDisk(100, "AL2023", [IMAGE], [Write("weights", QWEN_7B), Write("/tmp", 10 * GIB)]),
        30 * GIB + 28.6e9 + QWEN_7B,
        True,
        79,
        id="dev-gpu-node",
    ),
    # The seeding node of 20 GiB: 20 GiB + 28.6e9 + 15.22e9 (one file, at most the weights) + 1 GiB = 66368578304 B
    # > 18 GiB; 66368578304 / 2^30 / 0.9 = 68.68, so 69.
    pytest.param(
        NodeDisk(20, "AL2023", [IMAGE], [Write("copy", QWEN_7B + GIB)]),
        21 * GIB + 28.6e9 + QWEN_7B,
        False,
        69,
        id="seeding-on-20-gib",
    ),
    # Nothing written: the pull peaks, 20 GiB + 12e9 compressed + 28.6e9 unpacked = 57.81 GiB > 90% of 64 GiB;
    # 57.81 / 0.9 = 64.24, so 65.
    pytest.param(NodeDisk(64, "AL2023", [IMAGE]), 20 * GIB + 40.6e9, False, 65, id="the-pull-peaks"),
    # Bottlerocket keeps the compressed layers (not known to be dropped) and no OS on the data volume:
    # 12e9 + 28.6e9 + 15.22e9 = 55.82e9 B; 55.82e9 / 2^30 / 0.9 = 57.76, so 58.
    pytest.param(
        NodeDisk(58, "Bottlerocket", [IMAGE], [Write("weights", QWEN_7B)]),
        40.6e9 + QWEN_7B,
        True,
        58,
        id="bottlerocket",
    ),
    # The same image twice is pulled once.
    pytest.param(NodeDisk(100, "autoMode", [IMAGE, IMAGE]), 40.6e9, True, 43, id="one-image-once"),
]


@pytest.mark.parametrize(("disk", "used", "fits", "least"), NODES)
def test_a_nodes_volume_against_what_lands_on_it(disk, used, fits, least):
    assert disk.used_bytes == pytest.approx(used)
    assert disk.fits is fits
    assert disk.least_disk_gib == least


def test_a_node_of_unknown_weights_or_image_is_not_checked():
    unknown_weights = NodeDisk(100, "AL2023", [IMAGE], [Write("1 x vllm weights", None)])
    assert (unknown_weights.used_bytes, unknown_weights.fits) == (None, None)
    assert unknown_weights.arithmetic() == (
        "the size of 1 x vllm weights is unknown; give the model's facts in vllm.modelFacts"
    )
    unknown_image = NodeDisk(100, "AL2023", ["vllm/vllm-openai:v0.99.0"])
    assert unknown_image.fits is None


CACHES = [
    # 141.12e9 B = 131.4 GiB > 100 GiB.
    pytest.param(
        ModelCache("llama-70b", "models.3.modelCache.size", "emptyDir", 100 * GIB, LLAMA_70B), False, id="70b-in-100gi"
    ),
    # The default, ceil(141.12e9 x 1.1 / 2^30) = ceil(144.57) = 145 GiB.
    pytest.param(
        ModelCache("llama-70b", "models.3.modelCache.size", "emptyDir", 145 * GIB, LLAMA_70B), True, id="70b-default"
    ),
    # Unknown weights are not checked.
    pytest.param(ModelCache("acme/tiny", "vllm.modelCache.size", "pvc", 100 * GIB, None), None, id="unknown-weights"),
]


@pytest.mark.parametrize(("cache", "fits"), CACHES)
def test_a_model_cache_against_the_weights(cache, fits):
    assert cache.fits is fits


@pytest.mark.parametrize(
    ("weights", "size"),
    [
        pytest.param(QWEN_7B, "16Gi", id="7b: 15.22e9 x 1.1 / 2^30 = 15.59"),
        pytest.param(LLAMA_70B, "145Gi", id="70b: 141.12e9 x 1.1 / 2^30 = 144.57"),
        pytest.param(None, "100Gi", id="unknown"),
    ],
)
def test_the_default_model_cache_holds_the_weights_and_a_tenth(weights, size):
    assert default_model_cache(weights) == size


def test_the_verdict_fails_naming_the_key_to_raise():
    small = ModelCache(
        "llama-70b (meta-llama/Llama-3.3-70B-Instruct)", "models.3.modelCache.size", "emptyDir", 100 * GIB, LLAMA_70B
    )
    node = NodeLoad("systemNodeGroup", "systemNodeGroup.diskSize", "1 weights copy Job(s)", NODES[1].values[0])
    result = disk_verdict([small], [node])
    assert (result.name, result.passed) == ("weights-fit-on-disk", False)
    assert result.details[0] == (
        "llama-70b (meta-llama/Llama-3.3-70B-Instruct): weights 131.4 GiB > the model cache's sizeLimit 100.0 GiB "
        "(models.3.modelCache.size): the download fills it and the pod is evicted or fails; raise "
        "models.3.modelCache.size"
    )
    assert result.details[1].endswith(
        "> 90% of 20 GiB = 18.0 GiB; the kubelet evicts its pods for disk pressure: raise systemNodeGroup.diskSize to "
        "at least 69"
    )
    assert result.message.endswith("(and 1 more)")
    assert disk_verdict([], []).message == "no vLLM server is served from the stack config"


def test_a_passing_verdict_counts_what_it_checked_and_what_it_could_not():
    """Qwen2.5-7B's 15.22 GB (14.2 GiB) fit its 100 GiB cache; a model of unknown size is not checked: one held,
    one not checked, both said, and the rows in the order given."""
    known = ModelCache("qwen", "vllm.modelCache.size", "emptyDir", 100 * GIB, QWEN_7B)
    unknown = ModelCache("acme/tiny", "models.1.modelCache.size", "pvc", 100 * GIB, None)

    result = disk_verdict([known, unknown], [])

    assert (result.passed, result.message) == (
        True,
        "1 model cache(s) and node volume(s) hold what lands on them; 1 not checked, the sizes unknown",
    )
    assert result.details == [
        "qwen: weights 14.2 GiB <= the model cache's sizeLimit 100.0 GiB (vllm.modelCache.size)",
        "not checked: acme/tiny: the model's size is unknown; give its facts in vllm.modelFacts",
    ]


def test_a_passing_verdict_lists_each_nodes_volume_and_one_of_unknown_weights_not_checked():
    """The dev GPU node holds its 70.81 GiB within 90% of 100 GiB (NODES' first case); a node whose weights are of
    unknown size is not checked: one held, one not checked, in the order given."""
    held = NodeLoad("gpu", "gpuNodeGroup.diskSize", "1 vLLM server pod(s)", NODES[0].values[0])
    unknown = NodeLoad(
        "gpu-b", "gpuPools.b.diskSize", "1 vLLM server pod(s)", NodeDisk(100, "AL2023", [IMAGE], [Write("b", None)])
    )

    result = disk_verdict([], [held, unknown])

    assert (result.name, result.passed, result.message) == (
        "weights-fit-on-disk",
        True,
        "1 model cache(s) and node volume(s) hold what lands on them; 1 not checked, the sizes unknown",
    )
    assert result.details == [
        f"gpu node holding 1 vLLM server pod(s): {NODES[0].values[0].arithmetic()}",
        "not checked: gpu-b node holding 1 vLLM server pod(s): the size of b is unknown; give the model's facts in "
        "vllm.modelFacts",
    ]
    assert result.details[0].endswith("<= 90% of 100 GiB = 90.0 GiB")


def test_nothing_served_passes_saying_so():
    nothing = disk_verdict([], [])

    assert (nothing.name, nothing.passed, nothing.message, nothing.details) == (
        "weights-fit-on-disk",
        True,
        "no vLLM server is served from the stack config",
        [],
    )


def plan(tmp_path, overrides: dict | None = None, stack_file=None) -> tuple[int, dict]:
    stack_file = stack_file or dev_stack_file(tmp_path, overrides or {}, name="disk")
    return plan_stack_file(stack_file, tmp_path / "out")


def test_the_fleet_as_shipped_sizes_the_70b_cache_to_hold_its_weights(tmp_path):
    code, document = plan(tmp_path, stack_file=ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml")
    assert code == 0, document["failures"]
    disk = verdict(document, "weights-fit-on-disk")
    assert (
        "llama-70b (meta-llama/Llama-3.3-70B-Instruct): weights 131.4 GiB <= the model cache's sizeLimit 145.0 GiB "
        "(models.3.modelCache.size)" in disk["details"]
    )
    deployment = yaml.safe_load((tmp_path / "out" / "llama-70b.deployment.llama-70b.yaml").read_text())
    volumes = {volume["name"]: volume for volume in deployment["spec"]["template"]["spec"]["volumes"]}
    assert volumes["model-cache"] == {"name": "model-cache", "emptyDir": {"sizeLimit": "145Gi"}}


def test_the_fleet_with_a_100gi_cache_on_its_70b_server_fails_naming_the_key(tmp_path):
    document = yaml.safe_load((ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml").read_text())
    document["config"]["eks-gpu-inference:models"][3]["modelCache"] = {"size": "100Gi"}
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    code, planned = plan(tmp_path, stack_file=stack_file)
    assert code == 1
    disk = verdict(planned, "weights-fit-on-disk")
    assert disk["passed"] is False
    assert disk["message"].endswith("raise models.3.modelCache.size")
    assert [failure for failure in planned["failures"] if "weights-fit-on-disk" in failure] == [
        f"verdict 20 weights-fit-on-disk: {disk['message']}"
    ]


def test_the_dev_stack_seeding_from_s3_plans_ok_and_states_its_disk_need(tmp_path):
    code, document = plan(tmp_path, {"vllm": {"source": {"type": "s3"}}})
    assert code == 0, document["failures"]
    disk = verdict(document, "weights-fit-on-disk")
    # 20 GiB + 28.6e9 B + 15.22e9 B (one file, at most the weights) + 1 GiB = 61.8 GiB of the 100 GiB default's 90.
    assert (
        "systemNodeGroup node holding 1 weights copy Job(s): OS 20.0 + image 26.6 unpacked + vllm copy's file and "
        "/tmp 15.2 = 61.8 GiB (pulling the image: 57.8) <= 90% of 100 GiB = 90.0 GiB"
    ) in disk["details"]


def test_the_dev_stack_seeding_on_a_20_gib_system_disk_fails_naming_the_key(tmp_path):
    code, document = plan(tmp_path, {"vllm": {"source": {"type": "s3"}}, "systemNodeGroup": {"diskSize": 20}})
    assert code == 1
    disk = verdict(document, "weights-fit-on-disk")
    assert disk["message"] == (
        "systemNodeGroup node holding 1 weights copy Job(s): OS 20.0 + image 26.6 unpacked + vllm copy's file and "
        "/tmp 15.2 = 61.8 GiB (pulling the image: 57.8) > 90% of 20 GiB = 18.0 GiB; the kubelet evicts its pods for "
        "disk pressure: raise systemNodeGroup.diskSize to at least 69"
    )


def test_a_node_holds_as_many_server_pods_as_its_gpus(tmp_path):
    # Four 7B replicas of one GPU each on a 4-GPU g5.12xlarge: 20 GiB + 28.6e9 + 4 x (15.22e9 + 10 GiB) = 60 GiB +
    # 89.48e9 B = 143.3 GiB > 90 GiB; ceil(143.3 / 0.9) = 160.
    overrides = {"gpuNodeGroup": {"instanceTypes": ["g5.12xlarge"]}, "vllm": {"replicas": 4}}
    code, document = plan(tmp_path, overrides)
    assert code == 1
    disk = verdict(document, "weights-fit-on-disk")
    assert disk["message"].startswith(
        "gpuNodeGroup (g5.12xlarge) node holding 4 pod(s) of Qwen/Qwen2.5-7B-Instruct: OS 20.0 + image 26.6 unpacked"
        " + 4 x vllm weights 56.7 + 4 x vllm /tmp 40.0 = 143.3 GiB"
    )
    assert disk["message"].endswith("raise gpuNodeGroup.diskSize to at least 160")


def test_the_server_and_the_copy_keep_no_xet_chunk_cache(tmp_path):
    code, document = plan(tmp_path, {"vllm": {"source": {"type": "s3"}}})
    assert code == 0, document["failures"]
    out = tmp_path / "out"
    deployment = yaml.safe_load((out / "vllm.deployment.vllm-server.yaml").read_text())
    [job_file] = out.glob("vllm.job.vllm-server-weights-*.yaml")
    job = yaml.safe_load(job_file.read_text())
    for pod in (deployment["spec"]["template"]["spec"], job["spec"]["template"]["spec"]):
        container = pod["containers"][0]
        assert {"name": "HF_XET_CHUNK_CACHE_SIZE_BYTES", "value": "0"} in container["env"]
