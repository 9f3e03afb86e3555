"""The preview-time read of a model outside the catalog, through huggingface_hub's own client against a stand-in
for the Hub on 127.0.0.1 (tests/support/hub_stand_in.py): config.json and the safetensors headers at the
revision, a gated model with and without the token, a Hub that cannot be reached, and offline mode.

The stand-in's model is gpt-oss-120b as its files describe it. Its config.json
(https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json, the fields facts/model_catalog.py quotes):
hidden_size 2880, intermediate_size 2880, 36 layers, 64 heads, 8 KV heads, head_dim 64, 128 local experts, 4
per token, sliding_window 128 on alternate layers (`layer_types`), max_position_embeddings 131072, vocab_size
201088, quant_method mxfp4, torch_dtype bfloat16. Its tensors per layer, as the checkpoint stores them: the
experts' MXFP4 blocks in uint8 (gate_up 128 x 5760 x 90 x 16, down 128 x 2880 x 90 x 16: two 4-bit weights a
byte, 32 to a block of 16 bytes) and their uint8 scales (one per block of 32: 128 x 5760 x 90 and 128 x 2880 x 90);
in bf16 the attention (q 4096 x 2880 and its bias, k and v 512 x 2880 and biases, o 2880 x 4096 and its bias, 64
sinks), two norms of 2880, the router (128 x 2880 and a bias of 128) and the experts' biases (128 x 5760 and
128 x 2880); the embeddings and the unembedding (201088 x 2880 each) and the final norm.

Worked by hand:
- uint8: 36 x 128 x (5760 + 2880) x (1440 + 90) = 57,330,892,800 + 3,583,180,800 = 60,914,073,600 bytes;
- bf16 per layer: 11,796,480 + 4,096 + 2 x (1,474,560 + 512) + 11,796,480 + 2,880 + 64 + 5,760 + 368,640 + 128
  + 1,105,920 = 28,030,592; x 36 + 2 x 579,133,440 + 2,880 = 2,167,371,072 elements = 4,334,742,144 bytes;
- weights 65,248,815,744 bytes = 60.77 GiB, the 65.2 GB the Hub lists for the checkpoint. On one L40S (46068 MiB
  reported x 0.9 = 40.49 GiB usable, facts/gpu_catalog.py) they cannot fit: 60.8 + 2.0 reserve > 40.5.
"""

from __future__ import annotations

import json
import socket
import time

import pytest

from components.facts import gpu_catalog
from components.facts.model_memory import GIB, ServedModel, model_fit
from components.vllm import hub_facts
from components.vllm.hub_facts import INDEX_FILE, read_model_facts
from tests.support.hub_stand_in import COMMIT, Repo, safetensors_header, stand_in_hub

LAYERS, EXPERTS, HIDDEN, VOCAB = 36, 128, 2880, 201088
GPT_OSS_CONFIG = {
    "architectures": ["GptOssForCausalLM"],
    "model_type": "gpt_oss",
    "hidden_size": HIDDEN,
    "intermediate_size": HIDDEN,
    "num_hidden_layers": LAYERS,
    "num_local_experts": EXPERTS,
    "num_experts_per_tok": 4,
    "num_attention_heads": 64,
    "num_key_value_heads": 8,
    "head_dim": 64,
    "sliding_window": 128,
    "layer_types": ["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(LAYERS)],
    "max_position_embeddings": 131072,
    "vocab_size": VOCAB,
    "quantization_config": {"quant_method": "mxfp4"},
    "torch_dtype": "bfloat16",
}
GPT_OSS_BYTES = 65_248_815_744


def _layer(i: int) -> dict[str, tuple[str, list[int]]]:
    p = f"model.layers.{i}"
    return {
        f"{p}.self_attn.q_proj.weight": ("BF16", [4096, HIDDEN]),
        f"{p}.self_attn.q_proj.bias": ("BF16", [4096]),
        f"{p}.self_attn.k_proj.weight": ("BF16", [512, HIDDEN]),
        f"{p}.self_attn.k_proj.bias": ("BF16", [512]),
        f"{p}.self_attn.v_proj.weight": ("BF16", [512, HIDDEN]),
        f"{p}.self_attn.v_proj.bias": ("BF16", [512]),
        f"{p}.self_attn.o_proj.weight": ("BF16", [HIDDEN, 4096]),
        f"{p}.self_attn.o_proj.bias": ("BF16", [HIDDEN]),
        f"{p}.self_attn.sinks": ("BF16", [64]),
        f"{p}.input_layernorm.weight": ("BF16", [HIDDEN]),
        f"{p}.post_attention_layernorm.weight": ("BF16", [HIDDEN]),
        f"{p}.mlp.router.weight": ("BF16", [EXPERTS, HIDDEN]),
        f"{p}.mlp.router.bias": ("BF16", [EXPERTS]),
        f"{p}.mlp.experts.gate_up_proj_blocks": ("U8", [EXPERTS, 5760, 90, 16]),
        f"{p}.mlp.experts.gate_up_proj_scales": ("U8", [EXPERTS, 5760, 90]),
        f"{p}.mlp.experts.gate_up_proj_bias": ("BF16", [EXPERTS, 5760]),
        f"{p}.mlp.experts.down_proj_blocks": ("U8", [EXPERTS, HIDDEN, 90, 16]),
        f"{p}.mlp.experts.down_proj_scales": ("U8", [EXPERTS, HIDDEN, 90]),
        f"{p}.mlp.experts.down_proj_bias": ("BF16", [EXPERTS, HIDDEN]),
    }


def gpt_oss_files() -> dict[str, bytes]:
    """config.json, the index and two shards, as the checkpoint is laid out."""
    first = {"model.embed_tokens.weight": ("BF16", [VOCAB, HIDDEN])}
    second = {"lm_head.weight": ("BF16", [VOCAB, HIDDEN]), "model.norm.weight": ("BF16", [HIDDEN])}
    for i in range(LAYERS):
        (first if i < LAYERS // 2 else second).update(_layer(i))
    shards = {"model-00000-of-00001.safetensors": first, "model-00001-of-00001.safetensors": second}
    weight_map = {name: shard for shard, tensors in shards.items() for name in tensors}
    index = {"metadata": {"total_size": GPT_OSS_BYTES}, "weight_map": weight_map}
    return {
        "config.json": json.dumps(GPT_OSS_CONFIG).encode(),
        INDEX_FILE: json.dumps(index).encode(),
        **{shard: safetensors_header(tensors) for shard, tensors in shards.items()},
    }


@pytest.fixture
def hub(monkeypatch):
    repos = {"example/moe-120b": Repo(gpt_oss_files()), "example/gated-120b": Repo(gpt_oss_files(), token="hf_x")}
    with stand_in_hub(repos) as running:
        monkeypatch.setenv("HF_ENDPOINT", running.url)
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        yield running


def test_reads_a_moe_models_shape_and_stored_bytes_from_its_files(hub):
    read = read_model_facts("example/moe-120b", COMMIT, None)

    facts = read.facts
    assert read.problem == "" and facts is not None
    assert facts.weight_bytes == GPT_OSS_BYTES
    # The tensors named `.experts.`: the uint8 blocks and scales and the bf16 biases, 36 x 128 x (5760 + 2880) x 2.
    assert facts.stored_expert_bytes == 60_914_073_600 + 36 * 128 * 8640 * 2 == 60_993_699_840
    assert (facts.layers, facts.attention_heads, facts.kv_heads, facts.head_dim) == (36, 64, 8, 64)
    assert (facts.experts, facts.active_experts, facts.quantization) == (128, 4, "mxfp4")
    assert (facts.sliding_window, facts.sliding_layers, facts.max_context) == (128, 18, 131072)
    assert facts.source.startswith(f"{hub.url}/example/moe-120b at revision {COMMIT}")


def test_the_read_facts_fail_one_l40s_with_the_numbers_and_fit_one_h100(hub):
    facts = read_model_facts("example/moe-120b", COMMIT, None).facts
    served = ServedModel("example/moe-120b", "gpu", 1, 131072, 0.9, facts)

    l40s = model_fit(served, gpu_catalog.lookup("g6e.xlarge"), "g6e.xlarge")
    h100 = model_fit(served, gpu_catalog.lookup("p5.4xlarge"), "p5.4xlarge")

    assert l40s.fits is False
    assert "weights 60.8 GiB + reserve 2.0 GiB per GPU > 40.5 GiB usable per L40S" in l40s.reason
    assert h100.fits is True
    assert h100.weights_gib_per_gpu == pytest.approx(GPT_OSS_BYTES / GIB)


def test_asks_what_huggingface_hub_asks_at_the_pinned_revision(hub):
    read_model_facts("example/moe-120b", COMMIT, None)

    paths = [request.path for request in hub.requests]
    assert paths[:2] == [
        f"/example/moe-120b/resolve/{COMMIT}/config.json",
        f"/example/moe-120b/resolve/{COMMIT}/{INDEX_FILE}",
    ]
    shard_reads = [request for request in hub.requests if request.path.endswith(".safetensors")]
    assert {request.headers["range"] for request in shard_reads} == {"bytes=0-100000"}
    assert len(shard_reads) == 2
    assert all(request.headers["user-agent"].startswith("unknown/None; hf_hub/") for request in hub.requests)
    assert all("authorization" not in request.headers for request in hub.requests)


@pytest.mark.parametrize("stalled", ["config.json", "model-00001-of-00001.safetensors"])
def test_a_hub_that_stops_answering_is_given_up_on_within_the_reads_time_limit(monkeypatch, stalled):
    """A Hub that accepts the connection and never answers must not hold the preview: every request the read
    makes carries the read's own time limit (hub_facts.TIMEOUT_SECONDS; huggingface_hub's default would be its
    HF_HUB_DOWNLOAD_TIMEOUT, 10 s unless the machine sets another), here shortened to half a second, so the read
    gives up in about that and names the model, never a crash."""
    monkeypatch.setattr("components.vllm.hub_facts.TIMEOUT_SECONDS", 0.5)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    files = gpt_oss_files()
    assert stalled in files
    with stand_in_hub({"example/moe-120b": Repo(files, stalled=frozenset({stalled}))}) as running:
        monkeypatch.setenv("HF_ENDPOINT", running.url)
        started = time.monotonic()
        read = read_model_facts("example/moe-120b", COMMIT, None)
        waited = time.monotonic() - started

    assert read.facts is None
    assert read.problem.startswith(f"example/moe-120b at revision {COMMIT} not read from {running.url}: ")
    assert waited < 3


def test_a_trailing_slash_of_the_endpoint_is_dropped(monkeypatch, hub):
    """`HF_ENDPOINT` may end in a slash; huggingface_hub joins paths after it, so the slash goes."""
    monkeypatch.setenv("HF_ENDPOINT", hub.url + "/")

    read = read_model_facts("example/moe-120b", COMMIT, None)

    assert read.facts is not None
    assert read.facts.source.startswith(f"{hub.url}/example/moe-120b at revision {COMMIT}")


def test_an_endpoint_under_a_path_is_named_whole_when_it_cannot_be_read(monkeypatch, hub):
    """A mirror under a path (here `/X`, which the stand-in does not serve) keeps all of it, its last letter too."""
    monkeypatch.setenv("HF_ENDPOINT", hub.url + "/X")

    read = read_model_facts("example/moe-120b", COMMIT, None)

    assert read.facts is None
    # The stand-in answers an unknown repo as the Hub does, 401 (hence the hint), naming the endpoint as given.
    assert read.problem.startswith(f"example/moe-120b at revision {COMMIT} not read from {hub.url}/X (")


def test_a_gated_model_without_the_token_is_named_with_the_key_that_opens_it(hub):
    read = read_model_facts("example/gated-120b", COMMIT, None)

    assert read.facts is None
    assert read.problem.startswith(
        f"example/gated-120b at revision {COMMIT} not read from {hub.url} (a gated model needs hfToken): "
    )


def test_a_gated_model_with_the_token_is_read_sending_it_as_a_bearer(hub):
    read = read_model_facts("example/gated-120b", COMMIT, "hf_x")

    assert read.facts is not None and read.facts.weight_bytes == GPT_OSS_BYTES
    assert {request.headers.get("authorization") for request in hub.requests} == {"Bearer hf_x"}


def test_a_token_without_access_is_refused_and_named(hub):
    read = read_model_facts("example/gated-120b", COMMIT, "hf_other")

    assert read.facts is None
    assert "403" in read.problem and "hfToken" not in read.problem


def test_an_unknown_revision_is_a_problem_naming_it(hub):
    read = read_model_facts("example/moe-120b", "v9", None)

    assert read.facts is None
    assert read.problem.startswith(f"example/moe-120b at revision v9 not read from {hub.url}")


def test_an_unreachable_hub_is_a_problem_naming_it_not_a_crash(monkeypatch):
    with socket.socket() as probe:  # a port nothing listens on once the probe closes
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)

    read = read_model_facts("example/moe-120b", None, None)

    assert read.facts is None and not read.offline
    assert read.problem.startswith(f"example/moe-120b at revision main not read from http://127.0.0.1:{port}")


def test_offline_mode_requests_nothing(hub, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    read = read_model_facts("example/moe-120b", COMMIT, None)

    assert read.offline and read.facts is None and read.problem == ""
    assert hub.requests == []


def test_a_single_file_checkpoint_with_a_long_header_is_read_whole(hub):
    """A float32 checkpoint in one `model.safetensors` whose header passes the first 100,000 bytes read: the client
    asks for the rest (`bytes=8-...`). 2 layers of 4 heads x 64 (hidden 256), 1,500 norms of 256 in float32 and
    a 1000 x 256 embedding: (1,500 x 256 + 256,000) x 2 bytes (float32 is served in 16 bits) = 1,280,000 bytes."""
    config = {
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "hidden_size": 256,
        "max_position_embeddings": 2048,
        "torch_dtype": "float32",
    }
    tensors = {f"model.norms.{i}.weight_with_a_long_name_to_lengthen_the_header": ("F32", [256]) for i in range(1500)}
    tensors["model.embed_tokens.weight"] = ("F32", [1000, 256])
    hub.repos["example/small"] = Repo(
        {"config.json": json.dumps(config).encode(), "model.safetensors": safetensors_header(tensors)}
    )

    facts = read_model_facts("example/small", None, None).facts

    assert facts is not None and facts.weight_bytes == 1_280_000
    assert (facts.kv_heads, facts.head_dim, facts.dtype) == (4, 64, "bfloat16")
    ranges = [request.headers.get("range") for request in hub.requests if request.path.endswith("model.safetensors")]
    assert ranges[0] == "bytes=0-100000" and ranges[1].startswith("bytes=8-")


def test_only_a_refused_repo_is_hinted_at_the_token(hub):
    """The hint names hfToken where the Hub refused the repo (401: gated, or not shown without a token), not for a
    missing revision."""
    unknown = read_model_facts("example/not-there", None, None)
    revision = read_model_facts("example/moe-120b", "v9", None)

    assert "(a gated model needs hfToken)" in unknown.problem
    assert "hfToken" not in revision.problem


def test_without_hf_endpoint_the_hub_is_huggingface_co_and_an_error_without_text_is_named_by_its_type(monkeypatch):
    """huggingface_hub 2.4.0 default endpoint (constants.py `_HF_DEFAULT_ENDPOINT`); the reader stands in for the network
    this test does not reach, failing as a socket does."""

    def unreachable(*_):
        raise OSError()

    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(hub_facts, "_Reader", unreachable)

    read = read_model_facts("example/moe-120b", "v1", None)

    assert (read.facts, read.offline) == (None, False)
    assert read.problem == "example/moe-120b at revision v1 not read from https://huggingface.co: OSError"


@pytest.mark.parametrize(
    ("value", "offline"),
    [("1", True), ("ON", True), ("yes", True), ("True", True), ("0", False), ("", False), ("false", False)],
)
def test_hf_hub_offline_is_read_as_huggingface_hub_spells_true(monkeypatch, value, offline):
    """huggingface_hub 2.4.0 constants.py `_is_true`: "1", "ON", "YES", "TRUE" (`ENV_VARS_TRUE_VALUES`) in any case."""
    monkeypatch.setenv("HF_HUB_OFFLINE", value)

    assert hub_facts.hub_offline() is offline


def test_hf_hub_offline_unset_is_online(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)

    assert hub_facts.hub_offline() is False
