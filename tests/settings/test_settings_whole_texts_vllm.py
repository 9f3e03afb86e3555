"""Each refusal of the `vllm` settings (and of its `source`, `modelCache` and `modelFacts`) pinned whole: every
problem's key and full message and no other, with the passing side of each limit. A test that reads a fragment of
a message lets the rest of it change unread."""

from __future__ import annotations

import pytest

from components.facts import versions
from components.settings import parse_settings
from tests.support.finding_values import problems_of

_FLOOR = "v" + ".".join(map(str, versions.VLLM_MIN_VERSION))
_IMAGE = f"allowed: a pinned image such as {versions.VLLM_IMAGE} (tag vX.Y.Z, or a @sha256 digest)"
_OLD = (
    f"allowed: {_FLOOR} or newer, the first image with the non-root vllm user (UID {versions.VLLM_USER_ID}) the "
    "server runs as"
)
_MODEL_ID = "allowed: a Hugging Face model id such as Qwen/Qwen2.5-7B-Instruct"
_NAMESPACE = "allowed: a DNS label: 1-63 lowercase letters, digits or '-'"
_OWN = "allowed: a namespace of its own, not default, kube-system, kube-public, kube-node-lease"
_BUCKET = (
    "allowed: an S3 bucket name: 3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter "
    "or digit, no '..', not an IP address"
)
_PREFIX = (
    "allowed: a key prefix such as models/qwen2.5-7b: no leading or trailing '/', no empty, '.' or '..' segment, no "
    "'*', '?' or '$', at most 900 bytes"
)
_SEED = (
    ", and source.seed copies one pinned revision of the model to S3, named by its completion marker; allowed: the "
    "commit id (40 hex digits) of the revision to serve, or source.seed false to seed the bucket yourself"
)
_LOADER = (
    "sets the weights' loader, which source.type 's3' sets (--load-format runai_streamer, "
    "--model-loader-extra-config); allowed: other flags, or source.type 'huggingface'"
)
_RWO = "a ReadWriteOnce claim attaches to one node only; allowed: 'emptyDir', or"
_QWEN = "of Qwen/Qwen2.5-7B-Instruct (the model catalog): vLLM refuses to start; allowed:"
_COMMIT = "0123456789abcdef0123456789abcdef01234567"
_FACTS = {"parameters": 1000, "layers": 2, "attentionHeads": 8, "kvHeads": 4, "headDim": 64, "maxContext": 4096}


def _vllm(**keys) -> dict:
    return {"vllm": keys}


def _source(**keys) -> dict:
    return _vllm(source=keys)


def _facts(model_len: int = 4096, **keys) -> dict:
    return _vllm(model="org/custom", maxModelLen=model_len, modelFacts={**_FACTS, **keys})


FIELDS = [
    pytest.param(
        _vllm(image="vllm/vllm-openai"),
        [("vllm.image", f"untagged image 'vllm/vllm-openai'; {_IMAGE}")],
        id="an untagged image",
    ),
    pytest.param(
        _vllm(image="registry:5000/vllm"),
        [("vllm.image", f"untagged image 'registry:5000/vllm'; {_IMAGE}")],
        id="a registry port is no tag",
    ),
    pytest.param(
        _vllm(image="vllm/vllm-openai:latest"),
        [("vllm.image", f"unpinned image 'vllm/vllm-openai:latest'; {_IMAGE}")],
        id="the latest tag",
    ),
    pytest.param(
        _vllm(image="vllm/vllm-openai:v1.2"),
        [("vllm.image", f"tag is not a release version in 'vllm/vllm-openai:v1.2'; {_IMAGE}")],
        id="a tag of two numbers",
    ),
    pytest.param(
        _vllm(image="vllm/vllm-openai:v0.21.9"),
        [("vllm.image", f"image too old: 'vllm/vllm-openai:v0.21.9'; {_OLD}")],
        id="the release before the floor",
    ),
    pytest.param(
        _vllm(model="org--x/model"),
        [("vllm.model", f"invalid model id 'org--x/model'; {_MODEL_ID} (Cannot have -- or .. in repo_id.)")],
        id="a model id with a double hyphen",
    ),
    pytest.param(
        _vllm(namespace="default"),
        [("vllm.namespace", f"system namespace 'default'; {_OWN}")],
        id="the default namespace",
    ),
    pytest.param(
        _vllm(namespace="kube-node-lease"),
        [("vllm.namespace", f"system namespace 'kube-node-lease'; {_OWN}")],
        id="the node lease namespace",
    ),
    pytest.param(_vllm(namespace="Vllm"), [("vllm.namespace", f"invalid value 'Vllm'; {_NAMESPACE}")], id="caps ns"),
    pytest.param(
        _vllm(tensorParallelSize=0),
        [("vllm.tensorParallelSize", "invalid value 0; allowed: an integer >= 1, at most the GPUs per instance")],
        id="tensor parallel size 0",
    ),
    pytest.param(
        _vllm(maxModelLen=15), [("vllm.maxModelLen", "invalid value 15; allowed: an integer >= 16")], id="len 15"
    ),
    pytest.param(
        _vllm(gpuMemoryUtilization=0.0),
        [("vllm.gpuMemoryUtilization", "invalid value 0.0; allowed: a number with 0 < x <= 1")],
        id="no GPU memory",
    ),
    pytest.param(
        _vllm(gpuMemoryUtilization=1.01),
        [("vllm.gpuMemoryUtilization", "invalid value 1.01; allowed: a number with 0 < x <= 1")],
        id="more than all GPU memory",
    ),
    pytest.param(
        _vllm(replicas=-1),
        [("vllm.replicas", "invalid value -1; allowed: an integer from 0 to 2,147,483,647 (a Deployment's int32)")],
        id="-1 pods",
    ),
    pytest.param(
        _vllm(startupTimeoutSeconds=59),
        [
            (
                "vllm.startupTimeoutSeconds",
                "invalid value 59; allowed: at least 60 seconds (weights take time to download and load)",
            )
        ],
        id="a startup timeout of 59",
    ),
    pytest.param(
        _vllm(shutdownTimeoutSeconds=-1),
        [("vllm.shutdownTimeoutSeconds", "invalid value -1; allowed: 0-3600 seconds")],
        id="a negative shutdown timeout",
    ),
    pytest.param(
        _vllm(shutdownTimeoutSeconds=3601),
        [("vllm.shutdownTimeoutSeconds", "invalid value 3601; allowed: 0-3600 seconds")],
        id="a shutdown timeout of 3601",
    ),
    pytest.param(
        _vllm(allowedClientNamespaces=["apps", "Apps"]),
        [("vllm.allowedClientNamespaces", f"invalid value 'Apps'; {_NAMESPACE}")],
        id="a client namespace with capitals",
    ),
    pytest.param(
        _vllm(modelCache={"type": "hostPath"}),
        [("vllm.modelCache.type", "Input should be 'emptyDir' or 'pvc'; got 'hostPath'")],
        id="an unknown cache type",
    ),
    pytest.param(
        _vllm(modelCache={"size": "100GB"}),
        [("vllm.modelCache.size", "invalid value '100GB'; allowed: a Kubernetes quantity such as 100Gi")],
        id="a cache size in GB",
    ),
    pytest.param(
        _source(type="gcs"),
        [("vllm.source.type", "Input should be 'huggingface' or 's3'; got 'gcs'")],
        id="an unknown source",
    ),
    pytest.param(
        _source(type="s3", concurrency=0),
        [("vllm.source.concurrency", "invalid value 0; allowed: an integer from 1 to 256")],
        id="no streamer clients",
    ),
    pytest.param(
        _source(type="s3", concurrency=257),
        [("vllm.source.concurrency", "invalid value 257; allowed: an integer from 1 to 256")],
        id="257 streamer clients",
    ),
    pytest.param(
        _source(type="s3", bucket="ab"), [("vllm.source.bucket", f"invalid bucket name 'ab'; {_BUCKET}")], id="ab"
    ),
    pytest.param(
        _source(type="s3", bucket="a..b"), [("vllm.source.bucket", f"invalid bucket name 'a..b'; {_BUCKET}")], id="a..b"
    ),
    pytest.param(
        _source(type="s3", bucket="10.0.0.1"),
        [("vllm.source.bucket", f"invalid bucket name '10.0.0.1'; {_BUCKET}")],
        id="a bucket named like an IP address",
    ),
    pytest.param(
        _source(type="s3", bucket="xn--weights"),
        [("vllm.source.bucket", f"invalid bucket name 'xn--weights'; {_BUCKET}")],
        id="a reserved bucket prefix",
    ),
    pytest.param(
        _source(type="s3", bucket="weights-s3alias"),
        [("vllm.source.bucket", f"invalid bucket name 'weights-s3alias'; {_BUCKET}")],
        id="a reserved bucket suffix",
    ),
    pytest.param(
        _source(type="s3", bucket="sthree-weights"),
        [("vllm.source.bucket", f"invalid bucket name 'sthree-weights'; {_BUCKET}")],
        id="sthree-weights",
    ),
    pytest.param(
        _source(type="s3", bucket="amzn-s3-demo-weights"),
        [("vllm.source.bucket", f"invalid bucket name 'amzn-s3-demo-weights'; {_BUCKET}")],
        id="amzn-s3-demo-weights",
    ),
    pytest.param(
        _source(type="s3", bucket="weights--ol-s3"),
        [("vllm.source.bucket", f"invalid bucket name 'weights--ol-s3'; {_BUCKET}")],
        id="weights--ol-s3",
    ),
    pytest.param(
        _source(type="s3", bucket="weights.mrap"),
        [("vllm.source.bucket", f"invalid bucket name 'weights.mrap'; {_BUCKET}")],
        id="weights.mrap",
    ),
    pytest.param(
        _source(type="s3", bucket="weights--x-s3"),
        [("vllm.source.bucket", f"invalid bucket name 'weights--x-s3'; {_BUCKET}")],
        id="weights--x-s3",
    ),
    pytest.param(
        _source(type="s3", bucket="weights--table-s3"),
        [("vllm.source.bucket", f"invalid bucket name 'weights--table-s3'; {_BUCKET}")],
        id="weights--table-s3",
    ),
    pytest.param(
        _source(type="s3", prefix="m/../q"),
        [("vllm.source.prefix", f"invalid prefix 'm/../q'; {_PREFIX}")],
        id="m/../q",
    ),
    pytest.param(
        _source(type="s3", prefix="m//q"), [("vllm.source.prefix", f"invalid prefix 'm//q'; {_PREFIX}")], id="m//q"
    ),
    pytest.param(_source(type="s3", prefix="m?"), [("vllm.source.prefix", f"invalid prefix 'm?'; {_PREFIX}")], id="m?"),
    pytest.param(_source(type="s3", prefix="m$"), [("vllm.source.prefix", f"invalid prefix 'm$'; {_PREFIX}")], id="m$"),
    pytest.param(_source(type="s3", prefix="m/"), [("vllm.source.prefix", f"invalid prefix 'm/'; {_PREFIX}")], id="m/"),
    pytest.param(_source(type="s3", prefix="/m"), [("vllm.source.prefix", f"invalid prefix '/m'; {_PREFIX}")], id="/"),
    pytest.param(
        _source(type="s3", prefix="m/./q"), [("vllm.source.prefix", f"invalid prefix 'm/./q'; {_PREFIX}")], id="dot"
    ),
    pytest.param(_source(type="s3", prefix="m*"), [("vllm.source.prefix", f"invalid prefix 'm*'; {_PREFIX}")], id="*"),
    pytest.param(
        _source(type="s3", prefix="m" * 901),
        [("vllm.source.prefix", f"invalid prefix '{'m' * 901}'; {_PREFIX}")],
        id="a prefix of 901 bytes",
    ),
    pytest.param(
        _facts(parameters=0, layers=0, attentionHeads=0, kvHeads=0, headDim=0, maxContext=15, bytesPerParameter=0.0),
        [
            (
                "vllm.modelFacts.parameters",
                "invalid value 0; allowed: an integer >= 1 (total parameters, every expert)",
            ),
            ("vllm.modelFacts.layers", "invalid value 0; allowed: an integer >= 1"),
            ("vllm.modelFacts.attentionHeads", "invalid value 0; allowed: an integer >= 1"),
            ("vllm.modelFacts.kvHeads", "invalid value 0; allowed: an integer >= 1"),
            ("vllm.modelFacts.headDim", "invalid value 0; allowed: an integer >= 1"),
            ("vllm.modelFacts.maxContext", "invalid value 15; allowed: an integer >= 16"),
            ("vllm.modelFacts.bytesPerParameter", "invalid value 0.0; allowed: a number with 0 < x <= 4"),
        ],
        id="every model fact below its floor",
    ),
    pytest.param(
        _facts(bytesPerParameter=4.5),
        [("vllm.modelFacts.bytesPerParameter", "invalid value 4.5; allowed: a number with 0 < x <= 4")],
        id="more than 4 bytes a parameter",
    ),
    pytest.param(
        _facts(dtype="int4"),
        [("vllm.modelFacts.dtype", "Input should be 'bfloat16', 'float16', 'float32' or 'fp8'; got 'int4'")],
        id="an unknown dtype",
    ),
]


@pytest.mark.parametrize(("values", "problems"), FIELDS)
def test_each_vllm_field_refusal_is_reported_whole(values, problems):
    assert problems_of(values) == problems


ACROSS = [
    pytest.param(
        _facts(attentionHeads=6, kvHeads=4),
        [("vllm.modelFacts.kvHeads", "4 does not divide attentionHeads 6; allowed: a divisor of attentionHeads")],
        id="kv heads that do not divide the attention heads",
    ),
    pytest.param(
        _facts(model_len=4097),
        [
            (
                "vllm.maxModelLen",
                "maxModelLen 4097 > the model's context 4096 of org/custom (vllm.modelFacts): vLLM refuses to start; "
                "allowed: at most 4096, or rope scaling through --hf-overrides in extraArgs",
            )
        ],
        id="a context one past the model's facts",
    ),
    pytest.param(
        _vllm(tensorParallelSize=3, maxModelLen=32769),
        [
            (
                "vllm.tensorParallelSize",
                f"tensorParallelSize 3 does not divide the 28 attention heads {_QWEN} a divisor of the attention "
                "heads: 1, 2, 4, 7, 14, 28",
            ),
            (
                "vllm.maxModelLen",
                f"maxModelLen 32769 > the model's context 32768 {_QWEN} at most 32768, or rope scaling through "
                "--hf-overrides in extraArgs",
            ),
        ],
        id="a catalog model's heads and context, both",
    ),
    pytest.param(
        _vllm(modelCache={"type": "pvc"}, replicas=2),
        [("vllm.modelCache.type", f"'pvc' with replicas 2: {_RWO} replicas 1")],
        id="a claim for two replicas",
    ),
    pytest.param(
        _vllm(modelCache={"type": "pvc"}, autoscaling={"enabled": True, "maxReplicas": 2}),
        [("vllm.modelCache.type", f"'pvc' with autoscaling.maxReplicas 2: {_RWO} autoscaling.maxReplicas 1")],
        id="a claim for up to two autoscaled replicas",
    ),
    pytest.param(
        _source(type="s3", bucket="weights", seed=True),
        [("vllm.revision", "is not set" + _SEED)],
        id="seeding without a revision",
    ),
    pytest.param(
        {"vllm": {"source": {"type": "s3", "bucket": "weights", "seed": True}, "revision": "main"}},
        [("vllm.revision", "'main' is not a commit id" + _SEED)],
        id="seeding a branch",
    ),
    pytest.param(
        {"vllm": {"source": {"type": "s3"}, "extraArgs": ["--load-format", "pt", "--model-loader-extra-config", "{}"]}},
        [
            ("vllm.extraArgs[0]", f"'--load-format' {_LOADER}"),
            ("vllm.extraArgs[2]", f"'--model-loader-extra-config' {_LOADER}"),
        ],
        id="the loader's flags with weights from S3, each at its position",
    ),
    pytest.param(
        _source(bucket="weights", prefix="m", concurrency=2, seed=False),
        [
            ("vllm.source.bucket", "'weights' with type 'huggingface'; allowed: type 's3', or leave bucket out"),
            ("vllm.source.prefix", "'m' with type 'huggingface'; allowed: type 's3', or leave prefix out"),
            ("vllm.source.concurrency", "2 with type 'huggingface'; allowed: type 's3', or leave concurrency out"),
            ("vllm.source.seed", "false with type 'huggingface'; allowed: type 's3', or leave seed out"),
        ],
        id="every S3 key with weights from the Hub",
    ),
    pytest.param(
        _source(seed=True),
        [("vllm.source.seed", "true with type 'huggingface'; allowed: type 's3', or leave seed out")],
        id="seeding with weights from the Hub",
    ),
    pytest.param(
        _vllm(extraArgs=["--max-model-len", "100"]),
        [
            (
                "vllm.extraArgs[0]",
                "flag set by settings: '--max-model-len'; allowed: other flags (--max-model-len comes from "
                "vllm.maxModelLen)",
            )
        ],
        id="a flag the settings set",
    ),
]


@pytest.mark.parametrize(("values", "problems"), ACROSS)
def test_each_vllm_cross_field_problem_is_reported_whole(values, problems):
    assert problems_of(values) == problems


_PVC = {"type": "pvc", "size": None, "storage_class": None}

PASSING = [
    pytest.param(
        _vllm(image=f"{versions.VLLM_IMAGE_REPOSITORY}:{_FLOOR}"),
        "image",
        f"{versions.VLLM_IMAGE_REPOSITORY}:{_FLOOR}",
        id="the floor release",
    ),
    pytest.param(
        _vllm(image="vllm/vllm-openai@sha256:" + "a" * 64), "image", "vllm/vllm-openai@sha256:" + "a" * 64, id="digest"
    ),
    pytest.param(_vllm(maxModelLen=16), "max_model_len", 16, id="a context of 16"),
    pytest.param(_vllm(gpuMemoryUtilization=0.98), "gpu_memory_utilization", 0.98, id="the most a fresh A10G has free"),
    pytest.param(_vllm(gpuMemoryUtilization=1.0, replicas=0), "gpu_memory_utilization", 1.0, id="all of no GPU"),
    pytest.param(_vllm(replicas=0), "replicas", 0, id="no replicas"),
    pytest.param(_vllm(startupTimeoutSeconds=60), "startup_timeout_seconds", 60, id="a startup timeout of 60"),
    pytest.param(_vllm(shutdownTimeoutSeconds=0), "shutdown_timeout_seconds", 0, id="no shutdown grace"),
    pytest.param(_vllm(shutdownTimeoutSeconds=3600), "shutdown_timeout_seconds", 3600, id="a shutdown timeout of 3600"),
    pytest.param(_vllm(namespace="kube-apps"), "namespace", "kube-apps", id="a namespace of its own"),
    pytest.param(_vllm(revision=_COMMIT), "revision", _COMMIT, id="a commit revision"),
    pytest.param(_vllm(modelCache={"type": "pvc"}, replicas=1), "model_cache", _PVC, id="a claim for one replica"),
    pytest.param(
        _vllm(modelCache={"type": "pvc"}, replicas=1, autoscaling={"enabled": True, "maxReplicas": 1}),
        "model_cache",
        _PVC,
        id="a claim for one autoscaled replica",
    ),
    pytest.param(
        _vllm(modelCache={"type": "pvc"}, replicas=1, autoscaling={"enabled": False, "maxReplicas": 3}),
        "model_cache",
        _PVC,
        id="a claim beside autoscaling switched off",
    ),
    pytest.param(_source(type="s3", concurrency=1), "source.concurrency", 1, id="one streamer client"),
    pytest.param(_source(type="s3", concurrency=256), "source.concurrency", 256, id="256 streamer clients"),
    pytest.param(_source(type="s3", bucket="abc"), "source.bucket", "abc", id="a bucket of three"),
    pytest.param(_source(type="s3", prefix="m" * 900), "source.prefix", "m" * 900, id="a prefix of 900 bytes"),
    pytest.param(_facts(), "model_facts.max_context", 4096, id="a context equal to the model's facts"),
    pytest.param(_facts(bytesPerParameter=4.0), "model_facts.bytes_per_parameter", 4.0, id="4 bytes a parameter"),
    pytest.param(_facts(bytesPerParameter=0.5), "model_facts.bytes_per_parameter", 0.5, id="half a byte a parameter"),
    pytest.param(_facts(attentionChunk=1, chunkedLayers=1), "model_facts.attention_chunk", 1, id="a 1-token chunk"),
    pytest.param(
        _facts(16, parameters=1, layers=1, attentionHeads=1, kvHeads=1, headDim=1, maxContext=16),
        "model_facts",
        {
            **dict.fromkeys(("parameters", "layers", "attention_heads", "kv_heads", "head_dim"), 1),
            "max_context": 16,
            "dtype": "bfloat16",
            **dict.fromkeys(("bytes_per_parameter", "quantization", "sliding_window", "attention_chunk"), None),
            **dict.fromkeys(("quantized_parameters", "experts", "active_experts", "sliding_layers"), 0),
            "latent_attention": False,
            **dict.fromkeys(("intermediate_size", "quantization_group", "expert_parameters", "chunked_layers"), 0),
            **dict.fromkeys(("hidden_size", "vocab_size", "expert_intermediate_size"), None),
        },
        id="every model fact at its floor",
    ),
    pytest.param(_vllm(tensorParallelSize=1), "tensor_parallel_size", 1, id="one GPU a replica"),
    pytest.param(
        {"vllm": {"source": {"type": "huggingface"}, "extraArgs": ["--load-format", "safetensors"]}},
        "extra_args",
        ["--load-format", "safetensors"],
        id="the loader's flags with weights from the Hub",
    ),
]


@pytest.mark.parametrize(("values", "field", "value"), PASSING)
def test_the_passing_side_of_each_vllm_limit(values, field, value):
    read = parse_settings(values).vllm
    for name in field.split("."):
        read = getattr(read, name)
    assert (read.model_dump() if hasattr(read, "model_dump") else read) == value


def test_seeding_a_commit_passes_and_names_the_prefix_by_model_and_revision():
    vllm = parse_settings({"vllm": {"source": {"type": "s3", "bucket": "weights", "seed": True}, "revision": _COMMIT}})
    assert (vllm.vllm.seeds, vllm.vllm.weights_uri) == (True, f"s3://weights/Qwen/Qwen2.5-7B-Instruct/{_COMMIT}")


def test_the_vllm_defaults():
    vllm = parse_settings({}).vllm
    assert (
        vllm.enabled,
        vllm.model,
        vllm.revision,
        vllm.image,
        vllm.namespace,
        vllm.tensor_parallel_size,
        vllm.max_model_len,
        vllm.gpu_memory_utilization,
        vllm.replicas,
        vllm.startup_timeout_seconds,
        vllm.shutdown_timeout_seconds,
        vllm.model_cache.model_dump(),
        vllm.model_cache_size,
        vllm.source.model_dump(),
        vllm.model_name,
    ) == (
        True,
        "Qwen/Qwen2.5-7B-Instruct",
        None,
        versions.VLLM_IMAGE,
        "vllm",
        1,
        8192,
        0.9,
        1,
        1800,
        30,
        {"type": "emptyDir", "size": None, "storage_class": None},
        # Sized from the catalog's 7.61e9 parameters in bf16: 15.22e9 B x 1.1 = 15.59 GiB, rounded up.
        "16Gi",
        {"type": "huggingface", "bucket": None, "prefix": None, "concurrency": None, "seed": None},
        "Qwen/Qwen2.5-7B-Instruct",
    )


@pytest.mark.parametrize(
    ("source", "uri"),
    [
        pytest.param({"type": "s3"}, None, id="a bucket the stack creates is not known yet"),
        pytest.param({"type": "s3", "bucket": "weights"}, "s3://weights/Qwen/Qwen2.5-7B-Instruct", id="a bucket"),
        pytest.param({"type": "s3", "bucket": "weights", "prefix": "m/q"}, "s3://weights/m/q", id="a prefix"),
        pytest.param({}, None, id="the Hub"),
    ],
)
def test_the_weights_uri(source, uri):
    assert parse_settings(_vllm(source=source)).vllm.weights_uri == uri
