"""AWS facts read from the API models that botocore bundles: EKS enums and string limits, and the
retention periods CloudWatch Logs accepts.

The model file is read directly (not through botocore's loader, which imports the whole SDK and
takes about twenty times longer), so the facts cost a few milliseconds at start-up.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import re
from functools import lru_cache

# Per the EKS user guide (not in the API model): a node group carries at most 50 taints.
MAX_TAINTS_PER_NODE_GROUP = 50
# gp3 volumes hold 1-65,536 GiB (botocore EC2 model, documentation of
# `LaunchTemplateEbsBlockDeviceRequest.VolumeSize`; the limit rose from 16,384 GiB in September 2025).
MAX_GP3_VOLUME_GIB = 65536
# The models' `integer` shapes are 32-bit signed integers (Smithy IDL specification, simple types).
INT32_MAX = 2**31 - 1


@lru_cache(maxsize=2)
def _shapes(service: str = "eks") -> dict:
    spec = importlib.util.find_spec("botocore")
    if spec is None or spec.origin is None:
        raise RuntimeError(f"botocore is not installed; it provides the {service} API model (see requirements.txt)")
    service_dir = os.path.join(os.path.dirname(spec.origin), "data", service)
    api_version = sorted(os.listdir(service_dir))[-1]
    model_dir = os.path.join(service_dir, api_version)
    for file_name, opener in (("service-2.json.gz", gzip.open), ("service-2.json", open)):
        path = os.path.join(model_dir, file_name)
        if os.path.exists(path):
            with opener(path, "rt", encoding="utf-8") as model_file:
                return json.load(model_file)["shapes"]
    raise RuntimeError(f"no {service} service model in {model_dir}")


def enum(shape: str) -> tuple[str, ...]:
    """The allowed values of an enum shape, for example `AMITypes` or `TaintEffect`."""
    return tuple(_shapes()[shape]["enum"])


def length_limits(shape: str) -> tuple[int, int]:
    """The (min, max) length of a string shape such as `labelKey` or `taintValue`."""
    shape_def = _shapes()[shape]
    return shape_def.get("min", 0), shape_def["max"]


def ami_types() -> tuple[str, ...]:
    return enum("AMITypes")


def taint_effects() -> tuple[str, ...]:
    return enum("TaintEffect")


def capacity_types() -> tuple[str, ...]:
    return enum("CapacityTypes")


def log_types() -> tuple[str, ...]:
    return enum("LogType")


@lru_cache(maxsize=1)
def log_retention_days() -> tuple[int, ...]:
    """The retention periods (days) CloudWatch Logs accepts, for `PutRetentionPolicy` `retentionInDays`.

    The logs model types its `Days` shape as a plain integer and lists the accepted values only in the
    shape's documentation ("Possible values are: 1, 3, 5, ... and 3653."), so they are read from there.
    """
    documentation = _shapes("logs")["Days"]["documentation"]
    found = re.search(r"Possible values are:([\d,\s]+(?:and\s+\d+)?)", documentation)
    if found is None:
        raise RuntimeError(f"the CloudWatch Logs model no longer lists its retention periods: {documentation!r}")
    return tuple(int(days) for days in re.findall(r"\d+", found.group(1)))
