"""Settings of a vLLM server's persisted compile cache (`vllm.compileCache`, and each `models` entry's):
vLLM's torch.compile cache kept in S3, restored into the pod before vLLM starts and saved after its first start
(components/vllm/compile_cache*.py)."""

from __future__ import annotations

from .model_source import BucketName, KeyPrefix
from .section import SectionModel

DEFAULT_PREFIX_ROOT = "compile-cache"


class CompileCacheSettings(SectionModel):
    """vLLM's compile cache in S3 (`vllm.compileCache`): an init container unpacks it into `VLLM_CACHE_ROOT`
    before vLLM starts and a container beside vLLM saves what the first start compiled, with a role that may
    read and write that prefix alone (EKS Pod Identity; the server needs `cluster_name`). vLLM keys the cache by
    a hash of the model, its revision, the vLLM version, the GPU and the parallel configuration, so a change of
    any of them misses (compiles again) rather than misreads; an unreachable or empty cache is a slower start,
    never a failed one."""

    enabled: bool = False
    """Keep the compile cache in S3: the plan's cold start then counts the cached compile (facts/cold_start.py)."""
    bucket: BucketName | None = None
    """The bucket that holds the cache. Default: the server's weights bucket with `source.type` `s3`, else a
    bucket the stack creates (private, encrypted, versioned)."""
    prefix: KeyPrefix | None = None
    """The key prefix of the cache, `<prefix>/<vLLM version>/<hash>.tar`. Default: `compile-cache/<model>`, one
    per model."""

    def prefix_for(self, model: str) -> str:
        """`prefix`, else `compile-cache/<model>`."""
        return self.prefix or f"{DEFAULT_PREFIX_ROOT}/{model}"
