"""What lands on a node's disk, against the kubelet's eviction threshold: the arithmetic of the plan's disk verdict
(`weights-fit-on-disk`). Standard library only. Read on 2026-12-04 from the sources named beside each figure.

One volume holds what counts: on AL2023 the root volume keeps the OS, containerd's images
(`root = "/var/lib/containerd"`) and the kubelet's emptyDirs; on Bottlerocket and on EKS Auto Mode nodes a data
volume keeps the images and the kubelet's files apart from the OS (facts/image_cache.py, `ROOT_DEVICES`). The
kubelet evicts pods once less than 10% of it is free (`nodefs.available<10%`, facts/eks_node.py), so what lands
there must stay within 90% of the volume.

While a node pulls an image, containerd holds its compressed layers and unpacks them beside; on AL2023 it then
drops the compressed ones (`discard_unpacked_layers = true` in nodeadm's containerd config,
awslabs/amazon-eks-ami nodeadm/internal/containerd/config.template.toml at v20260714), so a running node keeps the
unpacked image. Elsewhere both are counted, on the safe side.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from . import eks_node
from .cold_start_figures import IMAGE_COMPRESSED_BYTES, IMAGE_UNPACKED_BYTES, Figure

GIB = 2**30
AS_OF = "2026-12-04"
AMI_OS_BYTES: Mapping[str, Figure] = MappingProxyType(
    {
        "AL2023": Figure(
            20 * GIB,
            "B",
            "awslabs/amazon-eks-ami templates/al2023/variables-default.json at v20260714: the AMI is built on a "
            "20 GiB root volume (`launch_block_device_mappings_volume_size`), so its files take at most that",
            AS_OF,
        ),
        "Bottlerocket": Figure(0, "B", "Bottlerocket keeps its OS on a volume of its own (facts/image_cache.py)"),
        "autoMode": Figure(0, "B", "EKS Auto Mode keeps the OS apart from the NodeClass's ephemeral storage volume"),
    }
)
"""What the OS takes of the volume that holds images and pods, by AMI family (`autoMode` for Auto Mode nodes)."""
DISCARDS_COMPRESSED_LAYERS = ("AL2023",)
UNSIZED_MODEL_CACHE = "100Gi"
"""The model cache of a model whose size neither the catalog nor `modelFacts` gives."""
MODEL_CACHE_SPARE = 0.1
"""What a default model cache holds beyond the weights: the catalog's parameter counts are rounded to three
figures, and the checkpoint keeps its config, tokenizer and index files beside the weights."""
"""AMI families whose containerd drops an image's compressed layers once unpacked."""


def default_model_cache(weights_bytes: float | None) -> str:
    """The model cache's size when the config names none: the weights and `MODEL_CACHE_SPARE` more, whole GiB."""
    if weights_bytes is None:
        return UNSIZED_MODEL_CACHE
    return f"{math.ceil(weights_bytes * (1 + MODEL_CACHE_SPARE) / GIB)}Gi"


@dataclass(frozen=True)
class Write:
    """Something a pod puts on the node's disk."""

    what: str
    bytes: float | None
    """None when unknown (weights of a model neither the catalog nor `modelFacts` sizes)."""


@dataclass(frozen=True)
class NodeDisk:
    """One node's volume against what lands on it: the OS, the images its pods run, and what they write."""

    disk_gib: int
    family: str
    """`AL2023`, `Bottlerocket` or `autoMode`."""
    images: Sequence[str]
    writes: Sequence[Write] = field(default_factory=tuple)

    @property
    def image_bytes(self) -> tuple[float, float] | None:
        """(compressed, unpacked) bytes of the images, or None when the tables lack one."""
        images = dict.fromkeys(self.images)
        compressed = [IMAGE_COMPRESSED_BYTES.get(image) for image in images]
        unpacked = [IMAGE_UNPACKED_BYTES.get(image) for image in images]
        if any(figure is None for figure in [*compressed, *unpacked]):
            return None
        return sum(f.value for f in compressed if f), sum(f.value for f in unpacked if f)

    @property
    def os_bytes(self) -> float:
        return AMI_OS_BYTES[self.family].value

    @property
    def pulling_bytes(self) -> float | None:
        """What the volume holds while the images are pulled: the OS, their compressed and unpacked layers."""
        if self.image_bytes is None:
            return None
        return self.os_bytes + sum(self.image_bytes)

    @property
    def used_bytes(self) -> float | None:
        """The most the volume holds: while the images are pulled, or once the pods run (the unpacked images, the
        compressed ones too where containerd keeps them, and every write)."""
        if self.image_bytes is None or self.pulling_bytes is None or self.unknown:
            return None
        compressed, unpacked = self.image_bytes
        kept = 0 if self.family in DISCARDS_COMPRESSED_LAYERS else compressed
        running = self.os_bytes + unpacked + kept + sum(write.bytes or 0 for write in self.writes)
        return max(self.pulling_bytes, running)

    @property
    def unknown(self) -> list[str]:
        """The writes whose size is unknown."""
        return [write.what for write in self.writes if write.bytes is None]

    @property
    def usable_bytes(self) -> float:
        """What may be used before the kubelet evicts: the volume less its `nodefs.available` threshold."""
        return self.disk_gib * GIB * float(1 - eks_node.NODEFS_EVICTION)

    @property
    def fits(self) -> bool | None:
        used = self.used_bytes
        return None if used is None else used <= self.usable_bytes

    @property
    def least_disk_gib(self) -> int | None:
        """The smallest whole volume in GiB that holds it all above the eviction threshold."""
        used = self.used_bytes
        return None if used is None else math.ceil(used / GIB / float(1 - eks_node.NODEFS_EVICTION))

    def arithmetic(self) -> str:
        """The sum, in GiB, against the volume's 90%."""
        if self.image_bytes is None:
            return f"the size of {', '.join(self.images)} is not in facts/cold_start_figures.py"
        if self.unknown:
            return f"the size of {', '.join(self.unknown)} is unknown; give the model's facts in vllm.modelFacts"
        compressed, unpacked = self.image_bytes
        parts = [f"OS {self.os_bytes / GIB:.1f}", f"image {unpacked / GIB:.1f} unpacked"]
        if self.family not in DISCARDS_COMPRESSED_LAYERS:
            parts.append(f"image {compressed / GIB:.1f} compressed")
        parts += [f"{write.what} {(write.bytes or 0) / GIB:.1f}" for write in self.writes]
        relation = "<=" if self.fits else ">"
        return (
            f"{' + '.join(parts)} = {(self.used_bytes or 0) / GIB:.1f} GiB (pulling the image: "
            f"{(self.pulling_bytes or 0) / GIB:.1f}) {relation} 90% of {self.disk_gib} GiB = "
            f"{self.usable_bytes / GIB:.1f} GiB"
        )


@dataclass(frozen=True)
class ModelCache:
    """A server's model cache against the weights the Hub download puts there."""

    server: str
    key: str
    """The config key of its size (`vllm.modelCache.size`)."""
    kind: str
    """`emptyDir` (its `sizeLimit`: the kubelet evicts the pod past it) or `pvc` (the claim's size)."""
    size_bytes: float
    weights_bytes: float | None
    """None when the model's size is unknown."""

    @property
    def fits(self) -> bool | None:
        return None if self.weights_bytes is None else self.weights_bytes <= self.size_bytes

    def arithmetic(self) -> str:
        if self.weights_bytes is None:
            return f"{self.server}: the model's size is unknown; give its facts in vllm.modelFacts"
        relation = "<=" if self.fits else ">"
        limit = "sizeLimit" if self.kind == "emptyDir" else "claim"
        return (
            f"{self.server}: weights {self.weights_bytes / GIB:.1f} GiB {relation} the model cache's {limit} "
            f"{self.size_bytes / GIB:.1f} GiB ({self.key})"
        )
