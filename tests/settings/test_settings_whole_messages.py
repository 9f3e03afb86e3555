"""Each refusal of a GPU pool's, a server's, the autoscaler's and the weights source's settings, pinned whole: its
key and its full message, and no other problem. Tests that read a fragment of a message let the rest of it (the
reason, what is allowed) change unread, and a validator tested only on what it refuses may refuse everything."""

from __future__ import annotations

import pytest

from components.facts import gpu_catalog
from components.settings import parse_settings
from tests.support.finding_values import problems_of

_CHAIN = (
    "allowed: one of least-waste, priority, most-pods, least-nodes, random, or several joined by commas without "
    "spaces and each once, such as 'priority,least-waste', tried in order (random only last)"
)
_PREFIX = (
    "allowed: a key prefix such as models/qwen2.5-7b: no leading or trailing '/', no empty, '.' or '..' segment, "
    "no '*', '?' or '$', at most 900 bytes"
)
_BUCKET = (
    "allowed: an S3 bucket name: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a "
    "letter or digit, no '..', not an IP address"
)
_COMMIT = "a" * 40


def _pool(**keys) -> dict:
    return {"gpuNodeGroup": keys}


def _row(values: dict, key: str, message: str, case: str):
    return pytest.param(values, (key, message), id=case)


def _s3(**source) -> dict:
    return {"vllm": {"revision": _COMMIT, "source": {"type": "s3", "bucket": "my-bucket", **source}}}


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        _row(
            _pool(instanceTypes=["m6i.large", "g5.xlarge"]),
            "gpuNodeGroup.instanceTypes",
            f"['m6i.large'] have no NVIDIA GPU (CPU types); allowed: sizes of {', '.join(gpu_catalog.gpu_families())} "
            "(facts/gpu_catalog.py)",
            "a type that is no GPU type, named alone",
        ),
        _row(
            _pool(instanceTypes=["g5.xlarge", "g5g.xlarge"]),
            "gpuNodeGroup.instanceTypes",
            "['g5.xlarge', 'g5g.xlarge'] mix architectures ['arm64', 'x86_64']; allowed: one architecture per node "
            "group",
            "two architectures",
        ),
        _row(
            _pool(instanceTypes=["g5.xlarge", "g5.12xlarge"]),
            "gpuNodeGroup.instanceTypes",
            "['g5.xlarge', 'g5.12xlarge'] mix GPU counts [1, 4]; allowed: one GPU count per node group",
            "two GPU counts",
        ),
        _row(
            _pool(imageCache="soci", amiFamily="Bottlerocket"),
            "gpuNodeGroup.imageCache",
            "'soci' with amiFamily 'Bottlerocket'; allowed: 'none', or 'soci' with amiFamily 'AL2023'",
            "SOCI on Bottlerocket",
        ),
        _row(
            _pool(imageCache="snapshot", amiFamily="Bottlerocket"),
            "gpuNodeGroup.snapshotId",
            "missing with imageCache 'snapshot'; allowed: the EBS snapshot of a Bottlerocket data volume holding the "
            "vLLM image ('snap-' and 8 or 17 hexadecimal digits)",
            "a snapshot image cache without its snapshot",
        ),
        _row(
            _pool(snapshotId="snap-0123abcd"),
            "gpuNodeGroup.snapshotId",
            "'snap-0123abcd' with imageCache 'none'; allowed: no snapshotId, or imageCache 'snapshot'",
            "a snapshot without the snapshot image cache",
        ),
        _row(
            _pool(extraTaints=[{"key": "a"}, {"key": "a", "value": "x"}]),
            "gpuNodeGroup.extraTaints",
            "duplicate taint keys ['a']; allowed: each key once",
            "one taint key twice",
        ),
        _row(
            _pool(provisioner="autoMode", amiFamily="Bottlerocket"),
            "gpuNodeGroup.amiFamily",
            "'Bottlerocket' with provisioner 'autoMode'; allowed: 'AL2023' or unset (EKS Auto Mode chooses its nodes' "
            "AMI itself), or provisioner 'nodeGroup'",
            "Auto Mode with an AMI family",
        ),
        _row(
            _pool(provisioner="autoMode", diskSize=60000),
            "gpuNodeGroup.diskSize",
            "60000 with provisioner 'autoMode'; allowed: at most 59000 GiB (the NodeClass's ephemeral storage)",
            "Auto Mode with a disk past the NodeClass's storage",
        ),
        _row(
            _pool(provisioner="autoMode", nodeRepair=False),
            "gpuNodeGroup.nodeRepair",
            "false with provisioner 'autoMode', whose nodes EKS always monitors and repairs; allowed: true or unset, "
            "or provisioner 'nodeGroup'",
            "Auto Mode without node repair",
        ),
        _row(
            _pool(provisioner="autoMode", imageCache="soci"),
            "gpuNodeGroup.imageCache",
            "'soci' with provisioner 'autoMode', whose nodes' AMI and volumes EKS manages; allowed: 'none' or unset, "
            "or provisioner 'nodeGroup' or 'karpenter'",
            "Auto Mode with an image cache",
        ),
        _row(
            {"vllm": {"tensorParallelSize": 2}},
            "vllm.tensorParallelSize",
            "2 is more than the 1 GPU(s) per g5.xlarge; allowed: 1, or larger GPU instance types",
            "tensor parallel past the node's GPUs",
        ),
        _row(
            {
                "gpuNodeGroup": {"instanceTypes": ["g5.12xlarge"]},
                "vllm": {"tensorParallelSize": 2, "extraArgs": ["--pipeline-parallel-size", "4"]},
            },
            "vllm.extraArgs",
            "8 GPUs per server (tensorParallelSize 2 x 4 from --pipeline-parallel-size, "
            "--prefill-context-parallel-size and --data-parallel-size) is more than the 4 GPU(s) per g5.12xlarge; "
            "allowed: at most 4 in all, or larger GPU instance types",
            "pipeline parallel multiplying the GPUs past the node's",
        ),
        _row(
            {"vllm": {"requireGpuProduct": "NVIDIA-H100-80GB-HBM3"}},
            "vllm.requireGpuProduct",
            "'NVIDIA-H100-80GB-HBM3' is not what the GPU node group provides; allowed: 'NVIDIA-A10G'",
            "a GPU product the pool does not have",
        ),
        _row(
            {"autoscaler": {"expander": "xyzzy"}},
            "autoscaler.expander",
            f"unknown expander 'xyzzy'; {_CHAIN}",
            "an unknown expander with nothing near it",
        ),
        _row(
            {"autoscaler": {"expander": "least_waste"}},
            "autoscaler.expander",
            f"unknown expander 'least_waste' (did you mean 'least-waste'?); {_CHAIN}",
            "a misspelt expander",
        ),
        _row(
            {"autoscaler": {"expander": "priority, least-waste"}},
            "autoscaler.expander",
            f"unknown expander ' least-waste' (did you mean 'least-waste'?) in 'priority, least-waste'; {_CHAIN}",
            "a space after the comma",
        ),
        _row({"autoscaler": {"expander": ""}}, "autoscaler.expander", f"empty expander name; {_CHAIN}", "no name"),
        _row(
            {"autoscaler": {"expander": "priority,"}},
            "autoscaler.expander",
            f"empty expander name in 'priority,'; {_CHAIN}",
            "a trailing comma",
        ),
        _row(
            {"autoscaler": {"expander": "most-pods,most-pods"}},
            "autoscaler.expander",
            f"expander 'most-pods' given twice in 'most-pods,most-pods'; {_CHAIN}",
            "an expander twice",
        ),
        _row(
            {"autoscaler": {"expander": "random,least-waste"}},
            "autoscaler.expander",
            "expander 'random' always picks one node group, so the ones after it never run in 'random,least-waste'; "
            f"{_CHAIN}",
            "an expander after random",
        ),
        _row(
            {"autoscaler": {"expander": "price"}},
            "autoscaler.expander",
            "expander 'price' needs prices from the cloud provider, which the AWS provider does not give, so the "
            f"autoscaler exits at start; {_CHAIN}",
            "the price expander",
        ),
        _row(
            {"autoscaler": {"expander": "least-waste,grpc"}},
            "autoscaler.expander",
            "expander 'grpc' calls an external gRPC server, which the stack neither runs nor configures "
            f"(--grpc-expander-url) in 'least-waste,grpc'; {_CHAIN}",
            "the grpc expander in a chain",
        ),
        *(
            _row(_s3(prefix=prefix), "vllm.source.prefix", f"invalid prefix {prefix!r}; {_PREFIX}", f"prefix {case}")
            for prefix, case in [
                ("/a", "with a leading slash"),
                ("a/", "with a trailing slash"),
                ("a//b", "with an empty segment"),
                ("a/./b", "with a '.' segment"),
                ("a/../b", "with a '..' segment"),
                ("a*b", "with '*'"),
                ("a?", "with '?'"),
                ("$x", "with '$'"),
                ("a\nb", "with a line break"),
                ("é" * 451, "of 902 bytes in 451 characters"),
            ]
        ),
        *(
            _row(
                _s3(bucket=bucket), "vllm.source.bucket", f"invalid bucket name {bucket!r}; {_BUCKET}", f"bucket {case}"
            )
            for bucket, case in [
                ("ab", "of two characters"),
                ("a..b", "with two adjacent dots"),
                ("192.168.1.1", "formatted as an IP address"),
                ("xn--abc", "with a reserved prefix"),
                ("abc-s3alias", "with a reserved suffix"),
                ("Abc", "with a capital"),
            ]
        ),
        _row(
            {"vllm": {"model": "a/b/c"}},
            "vllm.model",
            "invalid model id 'a/b/c'; allowed: a Hugging Face model id such as Qwen/Qwen2.5-7B-Instruct (Repo id must "
            "be in the form 'repo_name' or 'namespace/repo_name'. Use `repo_type` argument if needed.)",
            "a model id of three parts, with huggingface_hub's reason",
        ),
        _row(
            {"vllm": {"source": {"bucket": "my-bucket"}}},
            "vllm.source.bucket",
            "'my-bucket' with type 'huggingface'; allowed: type 's3', or leave bucket out",
            "a bucket for weights from the Hub",
        ),
    ],
)
def test_each_refusal_names_its_key_and_whole_message(values, problem):
    assert problems_of(values) == [problem]


@pytest.mark.parametrize(
    ("prefix", "bucket"),
    [
        pytest.param("models/qwen2.5-7b", "my-bucket", id="the documented example"),
        pytest.param("Qwen/Qwen2.5-7B-Instruct", "weights.example.1", id="a model id, a bucket with dots"),
        pytest.param("a", "abc", id="one character, a bucket of three"),
        pytest.param("m" * 900, "b" * 63, id="900 bytes, a bucket of 63"),
    ],
)
def test_a_valid_prefix_and_bucket_reach_the_settings_unchanged(prefix, bucket):
    source = parse_settings(_s3(prefix=prefix, bucket=bucket)).vllm.source

    assert (source.type, source.bucket, source.prefix) == ("s3", bucket, prefix)
