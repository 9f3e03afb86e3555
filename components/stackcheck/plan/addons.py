"""The EKS add-ons a planned stack installs: each one's version and where it came from.

At preview the program asks EKS which version of each add-on it offers for the cluster's Kubernetes version
(components/cluster/addons.py); offline nobody answers, so the program installs the version pinned in facts/versions.py,
or none (EKS's default) where nothing is pinned. This reads the answers the mocks gave to those questions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...facts import versions
from ...facts.resource_types import ADDON, GET_ADDON_VERSION

RESOLVED = "resolved"
PINNED = "pinned"
EKS_DEFAULT = "eks-default"


@dataclass(frozen=True)
class AddonRow:
    """One registered add-on: its name, version (None: EKS's default) and where the version came from."""

    resource: str
    addon: str
    version: str | None
    origin: str
    """`resolved` (EKS answered), `pinned` (not resolved: the pin of facts/versions.py) or `eks-default`."""
    detail: str

    def to_dict(self) -> dict[str, Any]:
        """The row as the JSON report writes it."""
        return {
            "resource": self.resource,
            "addon": self.addon,
            "version": self.version,
            "origin": self.origin,
            "detail": self.detail,
        }


def addon_rows(
    resources: list[Any], calls: list[tuple[str, dict]], results: list[dict], kubernetes_version: str | None
) -> list[AddonRow]:
    """A row per registered `aws:eks/addon:Addon`, in registration order."""
    answers: dict[str, str] = {}
    for (token, arguments), result in zip(calls, results, strict=False):
        if token == GET_ADDON_VERSION and result.get("version"):
            answers[str(arguments.get("addonName"))] = str(result["version"])
    rows = []
    for resource in resources:
        if resource.type != ADDON:
            continue
        addon = str(resource.inputs.get("addonName") or resource.name)
        version = resource.inputs.get("addonVersion") or None
        if addon in answers:
            origin, detail = RESOLVED, f"EKS offers it for Kubernetes {kubernetes_version}"
        elif version:
            pin = versions.ADDON_PINS.get(addon)
            origin, detail = PINNED, f"not resolved offline; pinned ({pin.source}, {pin.as_of})" if pin else ""
        else:
            origin, detail = EKS_DEFAULT, f"not resolved offline; no pin for Kubernetes {kubernetes_version}"
        rows.append(AddonRow(resource.name, addon, version, origin, detail))
    return rows
