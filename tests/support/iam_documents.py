"""Reading the upstream IAM documents of tests/data/upstream/ and comparing policies as IAM reads them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from components.facts import versions

UPSTREAM = Path(__file__).resolve().parents[1] / "data" / "upstream"
KARPENTER_TEMPLATE = UPSTREAM / f"karpenter-v{versions.KARPENTER_VERSION}-cloudformation.yaml"
AUTOSCALER_README = UPSTREAM / "cluster-autoscaler-aws-readme.md"
USER_GUIDE = UPSTREAM / "eks-user-guide-iam.yaml"


class _Intrinsic:
    """A CloudFormation intrinsic function (`!Sub`, `!GetAtt`, `!Ref`) as the template wrote it."""

    def __init__(self, function: str, argument: Any):
        self.function, self.argument = function, argument


class _TemplateLoader(yaml.SafeLoader):
    pass


for _tag in ("Sub", "GetAtt", "Ref"):
    _TemplateLoader.add_constructor(
        f"!{_tag}", lambda loader, node, tag=_tag: _Intrinsic(tag, loader.construct_scalar(node))
    )


def template_resources() -> dict[str, Any]:
    return yaml.load(KARPENTER_TEMPLATE.read_text(), Loader=_TemplateLoader)["Resources"]


def resolved(value: Any, names: dict[str, str]) -> Any:
    """`value` with every intrinsic replaced as CloudFormation would for the stack named by `names`."""
    if isinstance(value, _Intrinsic):
        if value.function == "Sub":
            return re.sub(r"\$\{([^}]+)\}", lambda match: names[match.group(1)], value.argument)
        return names[value.argument if value.function == "Ref" else f"{value.argument}"]
    if isinstance(value, dict):
        return {key: resolved(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [resolved(item, names) for item in value]
    return value


def semantic(document: dict) -> dict:
    """What IAM reads of a policy: a one-element list as its element's value, the order of actions, resources and
    statements left out, condition values as the strings IAM compares (CloudFormation writes `false` for "false")."""

    def values(item: Any) -> list[str]:
        return sorted(str(value).lower() if isinstance(value, bool) else str(value) for value in listed(item))

    def statement(entry: dict) -> str:
        canon: dict[str, Any] = {"Effect": entry["Effect"]}
        for key in ("Action", "NotAction", "Resource", "NotResource"):
            if key in entry:
                canon[key] = values(entry[key])
        if "Principal" in entry:
            principal = entry["Principal"]
            canon["Principal"] = principal if principal == "*" else {k: values(v) for k, v in principal.items()}
        if "Condition" in entry:
            canon["Condition"] = {
                operator: {key: values(value) for key, value in tests.items()}
                for operator, tests in entry["Condition"].items()
            }
        return json.dumps(canon, sort_keys=True)

    return {
        "Version": document.get("Version"),
        "Statement": sorted(statement(entry) for entry in document["Statement"]),
    }


def listed(item: Any) -> list[Any]:
    return item if isinstance(item, list) else [item]


def json_block(text: str) -> dict:
    """The first JSON object in an excerpt."""
    return json.JSONDecoder().raw_decode(text[text.index("{") :])[0]


def user_guide(section: str) -> str:
    return "\n".join(entry["text"] for entry in yaml.safe_load(USER_GUIDE.read_text())[section])


def named_policies(text: str) -> set[str]:
    """The AWS-managed policy names an excerpt attaches or requires."""
    return set(re.findall(r"iam::aws:policy/(\w+)", text)) | set(re.findall(r'\["?(Amazon\w+)', text))
