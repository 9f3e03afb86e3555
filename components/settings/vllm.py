"""Settings of the vLLM OpenAI-compatible server (`vllm`), components/vllm/server.py."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator

from ..facts import model_catalog, node_disk, versions
from ..facts.kubernetes import INITIAL_NAMESPACES, INT32_MAX
from ..facts.model_catalog import MODEL_FACTS_KEY, ModelFacts
from ..facts.vllm_cli import OPTIONS
from . import vllm_flags
from .autoscaling import SCALE_TO_ZERO_ALLOWED, SCALE_TO_ZERO_REASON, AutoscalingSettings
from .compile_cache import CompileCacheSettings
from .errors import ConfigProblem, _bad
from .fields import Labels, NamespaceName, Quantity, is_release_tag, rule
from .model_facts import ModelFactsSettings as ModelFactsSettings
from .model_facts import Quantization as Quantization
from .model_source import GIT_REF_ALLOWED, ModelSourceSettings, is_commit_id, is_git_ref, is_prefix
from .queue import QueueSettings
from .section import SectionModel

# Flags the vLLM component sets itself from settings; `extraArgs` may not set them again.
VLLM_MANAGED_FLAGS = tuple(
    next(flag for flag in option.flags if flag.startswith("--"))
    for option in OPTIONS
    if option.dest in vllm_flags.MANAGED and option.flags
)
# Namespaces the cluster owns: the vLLM server would relabel them restricted, and delete them on destroy.
SYSTEM_NAMESPACES = INITIAL_NAMESPACES


def _release(tag: str) -> tuple[int, ...]:
    """(major, minor, patch) of a `vX.Y.Z` tag."""
    return tuple(int(part) for part in tag[1:].split("."))


def _image(value: str) -> str:
    allowed = f"a pinned image such as {versions.VLLM_IMAGE} (tag vX.Y.Z, or a @sha256 digest)"
    if "@sha256:" in value:
        return value
    repository, _, tag = value.rpartition(":")
    if not repository or "/" in tag:
        raise _bad(value, allowed, "untagged image")
    if tag == "latest":
        raise _bad(value, allowed, "unpinned image")
    if not is_release_tag(tag):
        raise _bad(value, allowed, "tag is not a release version in")
    floor = "v" + ".".join(map(str, versions.VLLM_MIN_VERSION))
    if _release(tag) < versions.VLLM_MIN_VERSION:
        raise _bad(
            value,
            f"{floor} or newer, the first image with the non-root vllm user (UID "
            f"{versions.VLLM_USER_ID}) the server runs as",
            "image too old:",
        )
    return value


def check_repo_id(value: str) -> str:
    """A Hugging Face repo id as `huggingface_hub` itself validates one (`utils.validate_repo_id`): `name` or
    `namespace/name`, letters, digits, `-`, `_` and `.`, no `--` or `..`, not ending `.git`, each part at most
    96 characters. vLLM hands the id to `huggingface_hub` to download the weights, so an id it refuses never
    loads."""
    from huggingface_hub.errors import HFValidationError  # loads only when a model id is given
    from huggingface_hub.utils import validate_repo_id

    try:
        validate_repo_id(value)
    except HFValidationError as error:
        # Its messages end by quoting the id, which the problem already shows.
        reason = str(error).replace(f": '{value}'", "").replace(f" '{value}'", "")
        raise _bad(
            value, f"a Hugging Face model id such as Qwen/Qwen2.5-7B-Instruct ({reason})", "invalid model id"
        ) from None
    return value


# The server's Namespace object is owned by the stack: taking over a system namespace would relabel it for
# Pod Security and delete it on `pulumi destroy`.
OwnNamespace = Annotated[
    NamespaceName,
    rule(
        lambda value: value not in SYSTEM_NAMESPACES,
        f"a namespace of its own, not {', '.join(SYSTEM_NAMESPACES)}",
        "system namespace",
    ),
]


def _shape_allowed(key: str, facts: ModelFacts) -> str:
    """What a setting the model's shape refuses may be instead."""
    if key == "maxModelLen":
        return f"at most {facts.max_context}, or rope scaling through --hf-overrides in extraArgs"
    sizes = [
        n
        for n in range(1, facts.attention_heads + 1)
        if facts.attention_heads % n == 0 and not model_catalog.group_problems(facts, n)
    ]
    whole = " that leaves whole quantization groups per GPU" if facts.quantization_group else ""
    return f"a divisor of the attention heads{whole}: " + ", ".join(map(str, sizes))


class ModelCacheSettings(SectionModel):
    """Where vLLM caches model weights (`vllm.modelCache`)."""

    type: Literal["emptyDir", "pvc"] = "emptyDir"
    """`emptyDir` (node disk, lost with the pod) or `pvc` (a PersistentVolumeClaim, one replica only)."""
    size: Quantity | None = None
    """Size limit of the emptyDir or size of the claim, a Kubernetes quantity; the plan fails (verdict
    `weights-fit-on-disk`) when it is smaller than the weights downloaded into it. Default: the model's weights and a
    tenth more, in whole GiB (`100Gi` for a model the catalog and `modelFacts` do not size)."""
    storage_class: str | None = None
    """Storage class of the claim, backed by a CSI driver (such as the EBS CSI add-on, which the stack does not
    install). Default: the cluster's default class."""


class VllmSettings(SectionModel):
    """The vLLM OpenAI-compatible server (`vllm`)."""

    enabled: bool = True
    """Deploy the server."""
    model: Annotated[str, AfterValidator(check_repo_id)] = "Qwen/Qwen2.5-7B-Instruct"
    """Hugging Face model id (`name` or `namespace/name`, as `huggingface_hub` validates it); the default is
    ungated and fits one 24 GB GPU."""
    revision: Annotated[str, rule(is_git_ref, GIT_REF_ALLOWED, "not a git ref:")] | None = None
    """The model's revision on the Hugging Face Hub, passed as `--revision`: a commit id (40 hex digits) or a
    release tag; a branch such as `main` is accepted with a warning, since the weights it names can change. With
    weights from S3 it names the revision the prefix holds (the default prefix is `<model>/<revision>`, so it may
    hold no `$`, which IAM reads as a policy variable) and is not passed. A name git accepts as a ref
    (`git check-ref-format`). Default: the Hub's default branch."""
    served_model_name: str | None = None
    """Model name clients send in requests. Default: the model id."""
    image: Annotated[str, AfterValidator(_image)] = versions.VLLM_IMAGE
    """Pinned vLLM image `vllm/vllm-openai:vX.Y.Z`, at least `versions.VLLM_MIN_VERSION` (the first image with the
    non-root `vllm` user the server runs as), or a digest of such an image; `latest` and untagged images are
    rejected."""
    require_gpu_product: str | None = None
    """Also require this `nvidia.com/gpu.product` (for example `NVIDIA-A10G`), which the GPU node group must
    provide: picks one pool among several. Default: not required."""
    tensor_parallel_size: Annotated[int, rule(lambda n: n >= 1, "an integer >= 1, at most the GPUs per instance")] = 1
    """GPUs per replica, 1 to the GPUs per instance; the model's attention heads must divide by it."""
    max_model_len: Annotated[int, rule(lambda n: n >= 16, "an integer >= 16")] = 8192
    """Context length in tokens, at least 16."""
    gpu_memory_utilization: Annotated[float, rule(lambda x: 0 < x <= 1, "a number with 0 < x <= 1")] = 0.9
    """Share of GPU memory vLLM may use, 0 < x <= 1."""
    replicas: Annotated[
        int, rule(lambda n: 0 <= n <= INT32_MAX, f"an integer from 0 to {INT32_MAX:,} (a Deployment's int32)")
    ] = 1
    """Server replicas, 0 or more."""
    autoscaling: AutoscalingSettings = AutoscalingSettings()
    """Replicas that follow vLLM's queue (KEDA); when enabled, `replicas` is the initial count."""
    queue: QueueSettings = QueueSettings()
    """Requests that wait in an SQS queue, answered by a consumer beside the server, results in S3; KEDA scales the
    server on the queue, to zero when `autoscaling.minReplicas` is 0."""
    extra_args: list[str] = []
    """More `vllm serve` flags, appended after the ones built from the other fields and read as vLLM's parser reads
    them: each flag and each value its own item. Not the flags those fields set, in any spelling vLLM accepts
    (`--max_model_len=...`, `-tp 2`, a prefix such as `--tensor-parallel`), no `--api-key`, and none that break
    the pod (`--host` other than 0.0.0.0 or ::, `--download-dir`, `--config`, multi-node flags);
    `--pipeline-parallel-size` and `--data-parallel-size` multiply the GPUs each replica requests."""
    source: ModelSourceSettings = ModelSourceSettings()
    """Where the server reads the weights: the Hugging Face Hub, or an S3 prefix through the Run:ai model
    streamer."""
    model_cache: ModelCacheSettings = ModelCacheSettings()
    """Where the server caches model weights."""
    compile_cache: CompileCacheSettings = CompileCacheSettings()
    """vLLM's torch.compile cache kept in S3, restored before vLLM starts and saved after its first start, so a
    later cold start loads the compiled graphs instead of compiling them."""
    model_facts: ModelFactsSettings | None = None
    """The shape of `model` when the catalog (`facts/model_catalog.py`) does not know it, for the plan's fits
    gate. Default: the catalog's row; a model in neither is reported "not checked"."""
    startup_timeout_seconds: Annotated[
        int, rule(lambda n: n >= 60, "at least 60 seconds (weights take time to download and load)")
    ] = 1800
    """Seconds allowed to download and load the weights before the pod restarts, at least 60."""
    probe_period_seconds: Annotated[int, rule(lambda n: 1 <= n <= 10, "1-10 seconds")] = 10
    """Period of the startup and readiness probes on `/health`, 1-10 seconds: a server that answers waits up to one
    of each before the Service routes to it, so a short period starts it sooner, for a probe request that often."""
    shutdown_timeout_seconds: Annotated[int, rule(lambda n: 0 <= n <= 3600, "0-3600 seconds")] = 30
    """Seconds vLLM gives in-flight requests on shutdown, 0-3600."""
    namespace: OwnNamespace = "vllm"
    """Namespace of the server, a DNS label other than the cluster's own (`default`, `kube-system`,
    `kube-public`, `kube-node-lease`)."""
    allowed_client_namespaces: list[NamespaceName] = []
    """Namespaces whose pods may call the server; the scraper's namespace is admitted as well. Default: only the
    server's namespace."""
    allowed_client_pod_labels: Labels = {}
    """Labels of pods (in the allowed namespaces) that may call the server. Default: any pod there."""

    def problems(self) -> list[ConfigProblem]:
        extra_args = vllm_flags.check(self.extra_args)
        problems = [
            # Pulumi's own path syntax for one item (`pulumi config set --path 'vllm.extraArgs[0]'`).
            ConfigProblem("extraArgs" if problem.index < 0 else f"extraArgs[{problem.index}]", problem.message)
            for problem in extra_args.problems
        ]
        facts = self.model_facts.facts() if self.model_facts else model_catalog.lookup(self.model)
        if facts is not None:
            source = MODEL_FACTS_KEY if self.model_facts else "the model catalog"
            problems += [
                ConfigProblem(key, f"{message} of {self.model} ({source}): vLLM refuses to start; allowed: " + allowed)
                for key, message in model_catalog.shape_problems(
                    facts,
                    self.tensor_parallel_size,
                    self.max_model_len,
                    context_overridden=extra_args.overrides_hf_config,
                )
                for allowed in [_shape_allowed(key, facts)]
            ]
        problems += self._source_problems(extra_args.loader_indexes)
        scaled = self.autoscaling
        if scaled.min_replicas == 0 and not self.queue.enabled:
            problems.append(
                ConfigProblem(
                    "autoscaling.minReplicas", f"0 is refused: {SCALE_TO_ZERO_REASON}; allowed: {SCALE_TO_ZERO_ALLOWED}"
                )
            )
        if self.model_cache.type == "pvc" and self.scales and scaled.max_replicas > 1:
            problems.append(
                ConfigProblem(
                    "modelCache.type",
                    f"'pvc' with autoscaling.maxReplicas {scaled.max_replicas}: a ReadWriteOnce claim attaches to "
                    "one node only; allowed: 'emptyDir', or autoscaling.maxReplicas 1",
                )
            )
        elif self.model_cache.type == "pvc" and self.replicas > 1:
            problems.append(
                ConfigProblem(
                    "modelCache.type",
                    f"'pvc' with replicas {self.replicas}: a ReadWriteOnce "
                    "claim attaches to one node only; allowed: 'emptyDir', or replicas 1",
                )
            )
        return problems

    def _source_problems(self, loader_indexes: tuple[int, ...]) -> list[ConfigProblem]:
        """With weights from S3 the server sets the loader itself, and the Hub's revision names nothing."""
        if self.source.type != "s3":
            return []
        problems = [
            ConfigProblem(
                f"extraArgs[{index}]",
                f"{self.extra_args[index]!r} sets the weights' loader, which source.type 's3' sets (--load-format "
                "runai_streamer, --model-loader-extra-config); allowed: other flags, or source.type 'huggingface'",
            )
            for index in loader_indexes
        ]
        # The default prefix stands for `source.prefix` and meets its rule: the server's IAM grant is scoped to it,
        # where `*` and `?` are wildcards and `${...}` a policy variable (IAM User Guide, "IAM JSON policy
        # elements: Resource", reference_policies_elements_resource.html, and "IAM policy elements: Variables and
        # tags", reference_policies_variables.html). A model id never holds them
        # (huggingface_hub's validate_repo_id), so a bad default prefix is the revision's doing.
        if self.source.prefix is None and self.revision is not None and not is_prefix(self.weights_prefix):
            problems.append(
                ConfigProblem(
                    "revision",
                    f"{self.revision!r} makes the default source.prefix {self.weights_prefix!r}, which the server's "
                    "IAM read grant cannot be scoped to ('*' and '?' are wildcards there, '$' opens a policy "
                    "variable, and '.' or '..' parts name other keys); allowed: a revision without '$' (a commit "
                    "id is always safe), or source.prefix set to the prefix that holds the weights",
                )
            )
        # The Job copies one revision and its marker names it: a branch would let a changed model pass for the
        # copied one, so only a commit id is copied.
        if self.seeds and not is_commit_id(self.revision):
            problems.append(
                ConfigProblem(
                    "revision",
                    ("is not set" if self.revision is None else f"{self.revision!r} is not a commit id")
                    + ", and source.seed copies one pinned revision of the model to S3, named by its completion "
                    "marker; allowed: the commit id (40 hex digits) of the revision to serve, or source.seed false "
                    "to seed the bucket yourself",
                )
            )
        return problems

    @property
    def scales(self) -> bool:
        """Whether KEDA scales the server: on vLLM's own queue (`autoscaling.enabled`), on its SQS queue
        (`queue.enabled`), or both."""
        return self.autoscaling.enabled or self.queue.enabled

    @property
    def weights_uri(self) -> str | None:
        """`s3://<bucket>/<prefix>` of weights from S3 with a bucket given, else None (the Hub, or a bucket the
        stack creates, whose name is known only once it exists)."""
        if self.source.type != "s3" or self.source.bucket is None:
            return None
        return f"s3://{self.source.bucket}/{self.weights_prefix}"

    @property
    def seeds(self) -> bool:
        """Whether the stack copies the weights to the S3 prefix: `source.seed`, else when the stack creates the
        bucket and `revision` is a commit id (a stack that named no revision keeps seeding the bucket itself)."""
        if self.source.type != "s3":
            return False
        if self.source.seed is not None:
            return self.source.seed
        return self.source.bucket is None and is_commit_id(self.revision)

    @property
    def weights_prefix(self) -> str:
        """The key prefix of weights from S3: `source.prefix`, else the model id and, when `revision` is set, the
        revision, so that a new revision sits beside the old one rather than over it, whoever seeds the bucket."""
        if self.source.prefix:
            return self.source.prefix
        return f"{self.model}/{self.revision}" if self.revision else self.model

    @property
    def gpus_per_replica(self) -> int:
        """GPUs one server pod requests: the tensor parallel size times the pipeline, prefill context and data
        parallel sizes `extraArgs` set (1 each by default)."""
        return self.tensor_parallel_size * vllm_flags.check(self.extra_args).gpu_factor

    @property
    def model_name(self) -> str:
        return self.served_model_name or self.model

    @property
    def weights_bytes(self) -> float | None:
        """Bytes of the model's weights (quantized ones at their method's bytes), from `modelFacts` or the catalog;
        None for a model neither sizes."""
        facts = self.model_facts.facts() if self.model_facts else model_catalog.lookup(self.model)
        return None if facts is None else facts.weight_bytes

    @property
    def model_cache_size(self) -> str:
        """`modelCache.size`, else sized from the weights (facts/node_disk.py)."""
        if self.model_cache.size is not None:
            return self.model_cache.size
        return node_disk.default_model_cache(self.weights_bytes)
