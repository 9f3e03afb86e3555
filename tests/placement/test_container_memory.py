"""The memory verdict (`container-memory-fits`): the Run:ai streamer's CPU buffers as runai-model-streamer 0.15.7
sizes them, the vLLM server's peak while it loads against its container's limit, the bound the server passes for
weights from S3, and the pods of a node against its allocatable.

The expected values are worked in each case's comment from the sources facts/runai_streamer.py and
facts/serving_memory.py cite: the streamer's default bound `DEFAULT_MEMORY_LIMIT_STRING = "40000000000"`, unlimited
when distributed (each of N processes reading 1/N of the files); vLLM's API server and engine core, and a worker
per GPU beyond one, at 2 GiB each; `/dev/shm` at its size limit. The limits are the server's sizing (80% of the
instance memory): 13107Mi on a 16 GiB g5.xlarge or g6.xlarge, 26214Mi on a 32 GiB g6e.xlarge.
"""

from __future__ import annotations

import json

import pytest
import yaml

from components.facts import runai_streamer, serving_memory
from components.facts.runai_streamer import StreamerLoad, extra_config_document, loader_settings
from components.facts.serving_memory import ServerMemory, streamer_bound
from components.placement.memory_fit import container_memory_verdict
from components.placement.pools import NodeGroupSpec, pools_for_node_groups
from tests.conftest import dev_stack_file, plan_stack_file, verdict

GIB = 2**30
MIB = 2**20
QWEN_7B = 7.61e9 * 2  # the catalog's parameters x bf16: 15.22 GB
LLAMA_8B = 8.03e9 * 2  # 16.06 GB
QWEN_14B = 14.7e9 * 2  # 29.4 GB
LLAMA_70B = 70.56e9 * 2  # 141.12 GB

STREAMER = [
    # Not distributed, no bound: min(40 GB, 15.22 GB) on the one rank.
    pytest.param(StreamerLoad(QWEN_7B, 1), QWEN_7B, QWEN_7B, id="7b-default-bound-is-the-weights"),
    # Eight ranks each stream every file: min(40 GB, 141.12 GB) = 40 GB each, 320 GB in all.
    pytest.param(StreamerLoad(LLAMA_70B, 8), 40e9, 320e9, id="70b-tp8-default-40gb-per-rank"),
    # Distributed and no bound: unlimited, each rank its eighth, 17.64 GB; the weights in all.
    pytest.param(StreamerLoad(LLAMA_70B, 8, None, True), LLAMA_70B / 8, LLAMA_70B, id="70b-distributed-unlimited"),
    # Distributed with memory_limit 5 GB: min(5 GB, 17.64 GB) each, 40 GB in all.
    pytest.param(StreamerLoad(LLAMA_70B, 8, 5_000_000_000, True), 5e9, 40e9, id="70b-distributed-bounded"),
    # -1 is unlimited: the whole 15.22 GB.
    pytest.param(StreamerLoad(QWEN_7B, 1, -1), QWEN_7B, QWEN_7B, id="minus-one-unlimited"),
    # 0 is the largest tensor, which the plan does not know: counted as the files read, on the safe side.
    pytest.param(StreamerLoad(QWEN_7B, 1, 0), QWEN_7B, QWEN_7B, id="zero-counted-as-the-files"),
    # One rank cannot distribute: the 40 GB default applies to 141.12 GB.
    pytest.param(StreamerLoad(LLAMA_70B, 1, None, True), 40e9, 40e9, id="one-rank-does-not-distribute"),
    # A bound above the files is the files: min(100 GB, 15.22 GB).
    pytest.param(StreamerLoad(QWEN_7B, 1, 100_000_000_000), QWEN_7B, QWEN_7B, id="bound-above-the-files"),
]


@pytest.mark.parametrize(("load", "per_rank", "total"), STREAMER)
def test_the_streamers_buffers_as_the_streamer_sizes_them(load, per_rank, total):
    assert load.bytes_per_rank == pytest.approx(per_rank)
    assert load.total_bytes == pytest.approx(total)


@pytest.mark.parametrize(
    ("extra_config", "read"),
    [
        pytest.param({"memory_limit": 5, "distributed": True}, (5, True), id="both"),
        pytest.param({"memory_limit": True}, (None, False), id="a boolean is no bound"),
        pytest.param({"memory_limit": "5000"}, (None, False), id="a string is ignored as vLLM ignores it"),
        pytest.param({"distributed": "true"}, (None, False), id="distributed only as a JSON boolean"),
        pytest.param("not-json", (None, False), id="a plain string"),
        pytest.param(None, (None, False), id="unset"),
    ],
)
def test_the_loader_keys_are_read_as_vllm_reads_them(extra_config, read):
    assert loader_settings(extra_config) == read


def test_every_setting_adds_to_one_extra_config_document():
    document = extra_config_document({"concurrency": 8}, {"memory_limit": 3}, {"concurrency": 16})
    assert document == '{"concurrency":16,"memory_limit":3}'


SERVERS = [
    # The case: Qwen2.5-7B (15.22 GB) on g5.xlarge, unbounded: 2 x 2 GiB + 1 GiB + 15.22e9 B = 20.59e9 B
    # > 13107Mi = 13.74e9 B: killed while loading.
    pytest.param(13107 * MIB, 1, StreamerLoad(QWEN_7B, 1), 5 * GIB + QWEN_7B, False, id="7b-g5-unbounded"),
    # Llama-3.1-8B (16.06 GB) on g6.xlarge (13107Mi): 5 GiB + 16.06e9 B > 13.74e9 B.
    pytest.param(13107 * MIB, 1, StreamerLoad(LLAMA_8B, 1), 5 * GIB + LLAMA_8B, False, id="8b-g6-unbounded"),
    # Qwen2.5-14B (29.4 GB) on g6e.xlarge (26214Mi = 27.49e9 B): 5 GiB + 29.4e9 B > 27.49e9 B.
    pytest.param(26214 * MIB, 1, StreamerLoad(QWEN_14B, 1), 5 * GIB + QWEN_14B, False, id="14b-g6e-unbounded"),
    # The same 7B with the bound the server passes, 7000607948 B (below): 5 GiB + 7000607948 B = 12369317068 B,
    # 90% of 13107Mi.
    pytest.param(
        13107 * MIB, 1, StreamerLoad(QWEN_7B, 1, 7_000_607_948), 5 * GIB + 7_000_607_948, True, id="7b-g5-bounded"
    ),
    # The Hub's default loader holds no streamer buffer: 2 x 2 GiB + 1 GiB.
    pytest.param(13107 * MIB, 1, None, 5 * GIB, True, id="7b-g5-default-loader"),
    # Eight GPUs: the API server, the engine core and 8 workers, 10 x 2 GiB, and 8 GiB of /dev/shm.
    pytest.param(1677721 * MIB, 8, None, 28 * GIB, True, id="70b-p5-processes"),
]


@pytest.mark.parametrize(("limit", "gpus", "streamer", "peak", "fits"), SERVERS)
def test_the_servers_peak_while_it_loads_against_its_limit(limit, gpus, streamer, peak, fits):
    memory = ServerMemory(limit, gpus, gpus * GIB, streamer)
    assert memory.peak_bytes == pytest.approx(peak)
    assert memory.fits is fits
    assert ("<= its limit" if fits else "> its limit") in memory.arithmetic()


@pytest.mark.parametrize(
    ("limit", "gpus", "bound"),
    [
        # 0.9 x 13107Mi = 12369317068.8 B, less 2 processes x 2 GiB and 1 GiB of /dev/shm: 7000607948 B.
        pytest.param(13107 * MIB, 1, 7_000_607_948, id="g5.xlarge"),
        # 0.9 x 1677721Mi = 1583296177766.4 B, less 10 x 2 GiB and 8 GiB: 1553231406694.4 B over 8 ranks.
        pytest.param(1677721 * MIB, 8, 194_153_925_836, id="p5.48xlarge-tp8"),
        # A limit below the processes leaves nothing: 0, the streamer's smallest buffer.
        pytest.param(4 * GIB, 1, 0, id="nothing-left"),
    ],
)
def test_the_bound_keeps_the_peak_within_nine_tenths_of_the_limit(limit, gpus, bound):
    assert streamer_bound(limit, gpus, gpus * GIB) == bound


def _server(args: list[str], limit: str = "13107Mi") -> dict:
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "vllm-server", "namespace": "vllm"},
        "spec": {
            "template": {
                "spec": {
                    "nodeSelector": {"gpu": "true"},
                    "containers": [
                        {
                            "name": "vllm",
                            "image": "vllm/vllm-openai:v0.32.0",
                            "args": args,
                            "resources": {
                                "requests": {"memory": limit},
                                "limits": {"memory": limit, "nvidia.com/gpu": "1"},
                            },
                            "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}],
                        }
                    ],
                    "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}}],
                }
            }
        },
    }


def _agent(memory: str) -> dict:
    """An agent's DaemonSet that tolerates every taint and asks `memory`."""
    container = {"name": "agent", "image": "agent", "resources": {"requests": {"memory": memory}}}
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "agent", "namespace": "kube-system"},
        "spec": {"template": {"spec": {"tolerations": [{"operator": "Exists"}], "containers": [container]}}},
    }


def _gpu_pool() -> list[dict]:
    spec = NodeGroupSpec("gpu", "g5.xlarge", 1, labels={"gpu": "true"}, gpu_advertised_by_host=True)
    return pools_for_node_groups([spec])


STREAMED = ["Qwen/Qwen2.5-7B-Instruct", "--load-format", "runai_streamer"]
WEIGHTS = {"vllm/vllm-server": QWEN_7B}

VERDICTS = [
    # The streamer without a bound: 20.59e9 B > 13.74e9 B.
    pytest.param(STREAMED, WEIGHTS, False, "peak 19.17 GiB while loading", id="unbounded-fails"),
    # The bound as one document: 12.37e9 B <= 13.74e9 B.
    pytest.param(
        [*STREAMED, "--model-loader-extra-config", '{"memory_limit": 7000607948}'],
        WEIGHTS,
        True,
        "peak 11.52 GiB while loading",
        id="bounded-passes",
    ),
    # The bound as a JSON key item, which vLLM folds into the same document.
    pytest.param(
        [*STREAMED, "--model-loader-extra-config.memory_limit", "7000607948"],
        WEIGHTS,
        True,
        "peak 11.52 GiB while loading",
        id="bounded-by-key-passes",
    ),
    # The last value counts: a later document without the bound undoes it.
    pytest.param(
        [*STREAMED, "--model-loader-extra-config", '{"memory_limit": 7000607948}', "--model-loader-extra-config", "{}"],
        WEIGHTS,
        False,
        "peak 19.17 GiB while loading",
        id="the-last-document-counts",
    ),
    # A model of unknown size through the streamer is said not checked, and passes.
    pytest.param(STREAMED, {}, True, "not checked: Deployment vllm/vllm-server container vllm", id="unknown-size"),
]


@pytest.mark.parametrize(("args", "weights", "passed", "line"), VERDICTS)
def test_the_server_container_against_its_limit(args, weights, passed, line):
    result = container_memory_verdict([_server(args)], _gpu_pool(), weights)
    assert (result.name, result.passed) == ("container-memory-fits", passed)
    assert any(line in detail for detail in result.details), result.details
    if not passed:
        assert "Bound the streamer with memory_limit in --model-loader-extra-config" in result.message


def test_a_server_without_the_streamer_over_its_limit_is_told_to_take_a_larger_instance():
    """Without the streamer the peak is vLLM's processes and /dev/shm (facts/serving_memory.py: the API server and
    the engine core at 2 GiB each on one GPU, an estimate on the safe side): 2 x 2 + 1 = 5 GiB > a 4 GiB limit. No
    streamer is there to bound, so the way out is a larger instance alone."""
    result = container_memory_verdict([_server(["Qwen/Qwen2.5-7B-Instruct"], "4Gi")], _gpu_pool(), WEIGHTS)

    assert result.passed is False
    [line] = [detail for detail in result.details if detail.startswith("Deployment vllm/vllm-server")]
    assert line.endswith(
        "peak 5.00 GiB while loading (2 processes x 2.0 GiB, /dev/shm 1.0 GiB) > its limit 4.00 GiB; the kernel "
        "OOM-kills it while it loads; use a larger instance"
    )


def test_a_server_of_four_gpus_counts_a_worker_per_gpu_from_its_limits():
    """The GPUs come from the container's `nvidia.com/gpu` limit: with four, vLLM runs the API server, the engine
    core and a worker per GPU (facts/serving_memory.py), 6 x 2 + 1 = 13 GiB, over a 12 GiB limit; one GPU's
    count (2 processes, 5 GiB) would pass."""
    server = _server(["Qwen/Qwen2.5-7B-Instruct"], "12Gi")
    [container] = server["spec"]["template"]["spec"]["containers"]
    container["resources"]["limits"]["nvidia.com/gpu"] = "4"

    result = container_memory_verdict([server], _gpu_pool(), WEIGHTS)

    [line] = [detail for detail in result.details if detail.startswith("Deployment vllm/vllm-server")]
    assert "peak 13.00 GiB while loading (6 processes x 2.0 GiB, /dev/shm 1.0 GiB) > its limit 12.00 GiB" in line


def test_a_node_whose_daemonsets_leave_too_little_for_the_server_fails_naming_both():
    # g5.xlarge allocatable: 16384Mi - (11 x 58 + 255)Mi - 100Mi = 15391Mi. The server asks 13107Mi; an agent
    # asking 3000Mi beside it makes 16107Mi.
    agent = _agent("3000Mi")
    server = _server(["Qwen/Qwen2.5-7B-Instruct"])
    result = container_memory_verdict([server], _gpu_pool(), WEIGHTS, [agent])
    assert result.passed is False
    assert result.message == (
        "pool gpu: 1 pod(s) of Deployment vllm/vllm-server request 13107Mi beside 1 DaemonSet pod(s) requesting "
        "3000Mi: 16107Mi > the node's allocatable 15391Mi"
    )
    assert (
        container_memory_verdict([server], _gpu_pool(), WEIGHTS, [_agent("2284Mi")]).passed is True
    )  # 15391Mi exactly


def test_a_pool_whose_instance_type_is_unknown_is_not_judged_by_its_nodes_memory():
    """A pool marked `unknown` (its instance type not in the catalog, placement/pools.py) has no allocatable the
    stack can trust, even where a node carries one: the pair that fails on a g5.xlarge above (16107Mi > 15391Mi)
    is not judged there, and the server's own container is still checked against its limit."""
    agent = _agent("3000Mi")
    [pool] = _gpu_pool()
    pool["unknown"] = True

    result = container_memory_verdict([_server(["Qwen/Qwen2.5-7B-Instruct"])], [pool], WEIGHTS, [agent])

    assert result.passed is True
    assert not any(line.startswith("pool gpu:") for line in result.details)


def test_a_daemonset_is_counted_beside_the_server_by_where_it_lands_not_by_whether_it_fits():
    """Which DaemonSets share the node is decided by taints, affinity and schedulability alone (the DaemonSet
    controller places one pod per eligible node, its requests aside): an agent asking 16000Mi, more than the
    g5.xlarge's 15391Mi allocatable by itself, still lands there, and with the server's 13107Mi makes 29107Mi."""
    agent = _agent("16000Mi")
    result = container_memory_verdict([_server(["Qwen/Qwen2.5-7B-Instruct"])], _gpu_pool(), WEIGHTS, [agent])

    assert result.passed is False
    assert (
        "pool gpu: 1 pod(s) of Deployment vllm/vllm-server request 13107Mi beside 1 DaemonSet pod(s) requesting "
        "16000Mi: 29107Mi > the node's allocatable 15391Mi"
    ) in result.details


def test_the_copy_job_and_the_wait_container_against_their_estimates():
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "copy", "namespace": "vllm"},
        "spec": {
            "template": {
                "spec": {
                    "containers": [
                        {
                            "name": "copy",
                            "image": "vllm/vllm-openai:v0.32.0",
                            "command": ["python3", "/opt/weights-copy/weights_copy.py", "copy"],
                            "resources": {"limits": {"memory": "768Mi"}},
                        }
                    ]
                }
            }
        },
    }
    # The copy's estimate is 1 GiB: over a 768Mi limit, within 2Gi.
    failed = container_memory_verdict([job], [], {})
    assert failed.passed is False
    assert failed.message == "Job vllm/copy container copy: peak 1.00 GiB (estimate) > its limit 0.75 GiB"
    job["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"] = "2Gi"
    assert container_memory_verdict([job], [], {}).passed is True
    assert serving_memory.WAIT_PEAK_BYTES == 256 * MIB


def server_args(tmp_path, overrides: dict) -> tuple[int, dict, list[str]]:
    stack_file = dev_stack_file(tmp_path, overrides, name="memory")
    code, document = plan_stack_file(stack_file, tmp_path / "out")
    deployment = yaml.safe_load((tmp_path / "out" / "vllm.deployment.vllm-server.yaml").read_text())
    return code, document, deployment["spec"]["template"]["spec"]["containers"][0]["args"]


def test_the_dev_stack_from_s3_bounds_the_streamer_and_passes_with_margin(tmp_path):
    code, document, args = server_args(tmp_path, {"vllm": {"source": {"type": "s3"}}})
    assert code == 0, document["failures"]
    [document_flag] = [index for index, arg in enumerate(args) if arg == runai_streamer.EXTRA_CONFIG_FLAG]
    assert json.loads(args[document_flag + 1]) == {"memory_limit": 7_000_607_948}
    memory = verdict(document, "container-memory-fits")
    assert memory["passed"] is True
    # 2 x 2 GiB + 1 GiB + 7000607948 B = 11.52 GiB of 12.80: the tenth of the limit kept free.
    assert any("peak 11.52 GiB while loading" in line and "its limit 12.80 GiB" in line for line in memory["details"])


def test_the_hubs_weights_through_an_unbounded_streamer_fail_the_plan(tmp_path):
    code, document, _ = server_args(tmp_path, {"vllm": {"extraArgs": ["--load-format", "runai_streamer"]}})
    assert code == 1
    memory = verdict(document, "container-memory-fits")
    assert memory["passed"] is False
    assert memory["message"].startswith(
        "Deployment vllm/vllm-server container vllm: peak 19.17 GiB while loading (2 processes x 2.0 GiB, "
        "/dev/shm 1.0 GiB, streamer buffers 14.17 GiB (1 rank(s) x min(the 40 GB default, 15.22 GB of weights) "
        "= 15.22 GB)) > its limit 12.80 GiB"
    )


def _copy_job(memory: str, *command: str, init: bool = False) -> dict:
    container = {"name": "copy", "image": "vllm/vllm-openai:v0.32.0", "command": list(command)}
    container["resources"] = {"limits": {"memory": memory}}
    key = "initContainers" if init else "containers"
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "copy", "namespace": "vllm"},
        "spec": {"template": {"spec": {key: [container]}}},
    }


COPY = ("python3", "/opt/weights-copy/weights_copy.py", "copy")
WAIT = ("python3", "/opt/weights-copy/weights_copy.py", "wait")


@pytest.mark.parametrize(
    ("job", "passed", "line"),
    [
        # The copy at 1 GiB within a 2 GiB limit; its estimate at the limit itself fits.
        pytest.param(_copy_job("2Gi", *COPY), True, "peak 1.00 GiB (estimate) <= its limit 2.00 GiB", id="copy-fits"),
        pytest.param(
            _copy_job("1Gi", *COPY), True, "peak 1.00 GiB (estimate) <= its limit 1.00 GiB", id="copy-at-limit"
        ),
        # The wait at 256 MiB = 0.25 GiB: within 512Mi, over 200Mi (0.195 GiB), read from an init container too.
        pytest.param(_copy_job("512Mi", *WAIT), True, "peak 0.25 GiB (estimate) <= its limit 0.50 GiB", id="wait-fits"),
        pytest.param(
            _copy_job("200Mi", *WAIT, init=True), False, "peak 0.25 GiB (estimate) > its limit 0.20 GiB", id="wait-over"
        ),
    ],
)
def test_the_weights_copy_containers_line_states_its_estimate_against_its_limit(job, passed, line):
    result = container_memory_verdict([job], [], {})

    assert result.passed is passed
    assert result.details == [f"Job vllm/copy container copy: {line}"]
    if passed:
        assert result.message == (
            "1 container peak(s) within their limits, and every node's pods within its allocatable"
        )


def test_a_container_without_a_memory_limit_or_of_another_command_is_not_judged_by_its_peak():
    job = _copy_job("1Gi", "python3", "/opt/other.py")
    unlimited = _copy_job("1Gi", *COPY)
    del unlimited["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"]

    assert container_memory_verdict([job, unlimited], [], {}).details == []


def test_a_server_of_unknown_size_is_counted_not_checked_in_the_message():
    result = container_memory_verdict([_server(STREAMED)], _gpu_pool(), {})

    assert result.message == (
        "0 container peak(s) within their limits, and every node's pods within its allocatable; 1 not checked, the "
        "sizes unknown"
    )


@pytest.mark.parametrize(
    ("volume", "mounted", "shm"),
    [
        pytest.param({"medium": "Memory", "sizeLimit": "1Gi"}, True, "1.0", id="memory-backed-mounted"),
        # On the node's disk, not in memory.
        pytest.param({"sizeLimit": "1Gi"}, True, "0.0", id="disk-backed"),
        pytest.param({"medium": "Memory", "sizeLimit": "1Gi"}, False, "0.0", id="not-mounted"),
        # No size limit: bounded by the container's limit itself, counted 0.
        pytest.param({"medium": "Memory"}, True, "0.0", id="no-size-limit"),
    ],
)
def test_dev_shm_counts_a_mounted_memory_backed_emptydir_at_its_size_limit(volume, mounted, shm):
    """Without the streamer the peak is 2 processes x 2 GiB and /dev/shm (facts/serving_memory.py)."""
    server = _server(["Qwen/Qwen2.5-7B-Instruct"], "6Gi")
    pod = server["spec"]["template"]["spec"]
    pod["volumes"] = [{"name": "dshm", "emptyDir": volume}]
    if not mounted:
        pod["containers"][0]["volumeMounts"] = [{"name": "other", "mountPath": "/dev/shm"}]

    [line] = container_memory_verdict([server], _gpu_pool(), WEIGHTS).details

    peak = 4 + float(shm)
    assert line == (
        f"Deployment vllm/vllm-server container vllm: peak {peak:.2f} GiB while loading (2 processes x 2.0 GiB, "
        f"/dev/shm {shm} GiB) <= its limit 6.00 GiB"
    )


def test_a_container_without_a_limit_does_not_hide_the_next_one():
    job = _copy_job("2Gi", *COPY)
    containers = job["spec"]["template"]["spec"]["containers"]
    containers.insert(0, {"name": "sidecar", "image": "busybox", "resources": {}})

    assert container_memory_verdict([job], [], {}).details == [
        "Job vllm/copy container copy: peak 1.00 GiB (estimate) <= its limit 2.00 GiB"
    ]
