"""Write components/facts/replace_rules.py: which input changes make a provider replace a resource.

    python scripts/replace_rules.py --kubernetes-git DIR [--kubernetes-ref v4.32.0]
    python scripts/replace_rules.py --kubernetes-git DIR --check   # exit 1 when the committed table differs

Kubernetes: pulumi-kubernetes decides replacement in its provider (`provider/pkg/provider/diff.go`,
`forceNewProperties`: `.metadata.name` and `.metadata.namespace` for every kind, and a table of immutable
fields per group, version and kind, which `Diff` in `provider.go` applies to every change of the inputs).
The script reads that Go file from a git directory of pulumi/pulumi-kubernetes at a tag and evaluates its
tables (a small reader of the Go subset the file is written in), for the kinds this program registers. The
default tag is v4.32.0, the newest the snapshot read held, below the pinned 4.34.2 (requirements.txt);
diff.go was the same at the snapshot's newest commit. A Helm release (`kubernetes:helm.sh/v3:Release`) replaces
for the fields its `Diff` in `helm_release.go` passes as `forceNewFields`, read from the same tag.

AWS: pulumi-aws is bridged from terraform-provider-aws, and a change replaces when the Terraform schema marks
the attribute `ForceNew`; Pulumi's schema.json and pulumi-aws's `bridge-metadata.json` (Pulumi names of the
Terraform types and fields) do not carry it. The attributes in scripts/replace_rules_aws.py were read from
terraform-provider-aws's resource schemas at the commits named beside them and are written out there, with their
Pulumi names (the bridge's camelCase of the Terraform names; a `MaxItems: 1` block is an object). Types not listed
are not known, nor are components (their children decide, and pulumi-eks's are hidden from the plan), but for
the inputs of `COMPONENT_RULES`, which a component passes to a child that replaces for them. `NOT_KNOWN` says
why for each type the stack registers whose rules are missing; `ROLLING_RULES` names the in-place updates that
replace every node of a node group.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.replace_rules_aws import AWS_RULES, COMPONENT_RULES, NOT_KNOWN, ROLLING_RULES  # noqa: E402 needs the checkout on the path

TABLE = ROOT / "components" / "facts" / "replace_rules.py"
DIFF_GO = "provider/pkg/provider/diff.go"
DEFAULT_REF = "v4.32.0"

# The kinds of pulumi-kubernetes this program registers (components/facts/resource_types.py and the RBAC
# objects of the Cluster Autoscaler), as group, version, kind.
KUBERNETES_KINDS = (
    ("core", "v1", "Namespace"),
    ("core", "v1", "ServiceAccount"),
    ("core", "v1", "Secret"),
    ("core", "v1", "ConfigMap"),
    ("core", "v1", "Service"),
    ("core", "v1", "PersistentVolumeClaim"),
    ("apps", "v1", "Deployment"),
    ("apps", "v1", "DaemonSet"),
    ("networking.k8s.io", "v1", "NetworkPolicy"),
    ("policy", "v1", "PodDisruptionBudget"),
    ("rbac.authorization.k8s.io", "v1", "ClusterRole"),
    ("rbac.authorization.k8s.io", "v1", "ClusterRoleBinding"),
    ("rbac.authorization.k8s.io", "v1", "Role"),
    ("rbac.authorization.k8s.io", "v1", "RoleBinding"),
    ("batch", "v1", "Job"),
    ("monitoring.coreos.com", "v1", "ServiceMonitor"),
    ("monitoring.coreos.com", "v1", "PrometheusRule"),
    # Custom resources: diff.go's table has none of them, so only their metadata's name and namespace replace.
    ("karpenter.sh", "v1", "NodePool"),
    ("karpenter.k8s.aws", "v1", "EC2NodeClass"),
    ("eks.amazonaws.com", "v1", "NodeClass"),
    ("keda.sh", "v1alpha1", "ScaledObject"),
    ("keda.sh", "v1alpha1", "TriggerAuthentication"),
)
HELM_RELEASE_GO = "provider/pkg/provider/helm_release.go"
HELM_RELEASE = "kubernetes:helm.sh/v3:Release"


def kubernetes_rules(source: str) -> dict[str, tuple[str, ...]]:
    """The force-new paths of each kind in `KUBERNETES_KINDS`, by Pulumi type token, from diff.go's `source`."""
    reader = GoReader(source)
    groups = reader.value("forceNew")
    metadata = reader.call("metadataForceNewProperties", [".metadata"])
    # Secrets and ConfigMaps are immutable unless the provider is configured otherwise (`enableSecretMutable`,
    # `enableConfigMapMutable`, both off by default): their data replaces, Secrets before the kind table.
    secret = reader.literal(r"IsSecret\(obj\)")
    config_map = reader.literal(r"IsConfigMap\(obj\)")
    rules = {}
    for group, version, kind in KUBERNETES_KINDS:
        kinds = groups.get(group, {}).get(version, {})
        if group == "core" and kind == "Secret":
            extra = secret
        elif group == "core" and kind == "ConfigMap" and kind not in kinds:
            extra = config_map
        else:
            extra = kinds.get(kind, [])
        token_group = "core" if group == "core" else group
        paths = sorted({_path(p) for p in [*metadata, *extra]})
        rules[f"kubernetes:{token_group}/{version}:{kind}"] = tuple(paths)
    return rules


def helm_release_rules(source: str) -> tuple[str, ...]:
    """The paths a Helm release replaces for, from helm_release.go's `source`: its `Diff` hands the patch of the
    inputs to `convertPatchToDiff` with `forceNewFields`."""
    match = re.search(r"forceNewFields := \[\]string\{([^}]*)\}", source)
    if match is None:
        raise ValueError(f"{HELM_RELEASE_GO}: no forceNewFields")
    return tuple(sorted(_path(field) for field in re.findall(r'"([^"]*)"', match.group(1))))


def _path(go_path: str) -> str:
    """`.spec.containers[*].image` as the table writes it: no leading dot."""
    return go_path.removeprefix(".")


_TOKEN = re.compile(r'\s+|//[^\n]*|"(?:[^"\\]|\\.)*"|\.\.\.|[A-Za-z_][A-Za-z0-9_]*|[{}(),:+\[\]*.&]')


class GoReader:
    """Evaluates the `var` tables and the property helpers of diff.go: string literals, `properties{...}`,
    `_groups`/`_versions`/`_kinds` maps, `append(a, b...)`, variables, and calls of the helpers, which add
    each prefix they are given to the string suffixes in their body."""

    def __init__(self, source: str):
        self.source = source
        self.vars: dict[str, list[str]] = {}
        for match in re.finditer(r"^var (\w+) = ", source, re.M):
            self.vars[match.group(1)] = self._tokens(match.end())

    def _tokens(self, start: int) -> Any:
        tokens = []
        depth = 0
        for match in _TOKEN.finditer(self.source, start):
            text = match.group(0)
            if text.isspace() or text.startswith("//"):
                if "\n" in text and depth == 0 and tokens:
                    break
                continue
            tokens.append(text)
            depth += text in "{(" and len(text) == 1
            depth -= text in "})" and len(text) == 1
        return tokens

    def value(self, name: str) -> Any:
        tokens = self.vars[name]
        result, rest = self._expr(tokens)
        if rest:
            raise ValueError(f"diff.go: cannot read `var {name}`: {' '.join(rest[:8])}")
        return result

    def literal(self, condition: str) -> list[str]:
        """The `properties{...}` that `forceNewProperties` adds when `condition` holds."""
        match = re.search(condition + r"[^\n]*\n\s*props = append\(props, properties\{([^}]*)\}", self.source)
        if match is None:
            raise ValueError(f"diff.go: no properties added under {condition}")
        return re.findall(r'"([^"]*)"', match.group(1))

    def call(self, function: str, prefixes: list[str]) -> list[str]:
        match = re.search(rf"^func {function}\(.*?\n}}", self.source, re.M | re.S)
        if match is None:
            raise ValueError(f"diff.go: no function {function}")
        suffixes = re.findall(r'prefix \+ "([^"]*)"', match.group(0))
        return [prefix + suffix for prefix in prefixes for suffix in suffixes]

    def _expr(self, tokens: list[str]) -> tuple[Any, list[str]]:
        head, rest = tokens[0], tokens[1:]
        if head.startswith('"'):
            return head[1:-1], rest
        if head == "append":
            first, rest = self._expr(rest[1:])
            second, rest = self._expr(rest[1:])
            rest = rest[1:] if rest[0] == "..." else rest
            rest = rest[1:] if rest[0] == "," else rest
            if rest[0] != ")":
                raise ValueError(f"diff.go: cannot read append(...): {' '.join(rest[:8])}")
            return [*first, *second], rest[1:]
        if head in ("properties", "_groups", "_versions", "_kinds") and rest[0] == "{":
            return self._composite(head, rest[1:])
        if rest and rest[0] == "(":
            args, rest = self._arguments(rest[1:])
            return self.call(head, args), rest
        return self.value(head), rest

    def _arguments(self, tokens: list[str]) -> tuple[list[str], list[str]]:
        args = []
        while tokens[0] != ")":
            arg, tokens = self._expr(tokens)
            args.append(arg)
            if tokens[0] == ",":
                tokens = tokens[1:]
        return args, tokens[1:]

    def _composite(self, kind: str, tokens: list[str]) -> tuple[Any, list[str]]:
        items: list[Any] = []
        entries: dict[str, Any] = {}
        while tokens[0] != "}":
            first, tokens = self._expr(tokens)
            if tokens[0] == ":":
                second, tokens = self._expr(tokens[1:])
                entries[first] = second
            else:
                items.append(first)
            if tokens[0] == ",":
                tokens = tokens[1:]
        return (items if kind == "properties" else entries), tokens[1:]


def table_source(kubernetes: dict[str, tuple[str, ...]], ref: str) -> str:
    """The text of components/facts/replace_rules.py; `kubernetes` holds the Helm release's rules too."""
    lines = [
        '"""Which input changes make a provider replace a resource rather than update it in place.',
        "",
        "Written by scripts/replace_rules.py; do not edit. Paths are the registered inputs' wire names, dotted, with",
        "`[*]` for any list item; a change at a path, or inside it, replaces the resource (one in",
        "`MAY_REPLACE_ON_CHANGE` may). A type not in `REPLACE_ON_CHANGE` may replace on any change: not known; of",
        "a component in `COMPONENT_REPLACE_ON_CHANGE`, only the inputs listed are known to replace. Standard library",
        "only.",
        "",
        f"Kubernetes: pulumi/pulumi-kubernetes {ref} {DIFF_GO} (`forceNewProperties`), and for a Helm release",
        f"{HELM_RELEASE_GO} (`forceNewFields`).",
        "AWS: terraform-provider-aws `ForceNew` attributes, which pulumi-aws's bridge turns into replacements; each",
        "type's source is in `SOURCES`. `ROLLING_UPDATE_ON_CHANGE`: in-place updates that replace every node of a",
        "node group; `NOT_KNOWN`: the types the stack registers whose rules are not known, with the reason.",
        '"""',
        "",
        f'KUBERNETES_SOURCE = "pulumi/pulumi-kubernetes {ref} {DIFF_GO}"',
        f'HELM_RELEASE_SOURCE = "pulumi/pulumi-kubernetes {ref} {HELM_RELEASE_GO} (`forceNewFields`)"',
        "",
        "REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {",
    ]
    sources = {}
    rules = {token: paths for token, (_, paths, _) in AWS_RULES.items()} | kubernetes
    for token, paths in sorted(rules.items()):
        lines += [f'    "{token}": (', *[f'        "{path}",' for path in paths], "    ),"]
        sources[token] = (
            AWS_RULES[token][0]
            if token in AWS_RULES
            else "HELM_RELEASE_SOURCE"
            if token == HELM_RELEASE
            else "KUBERNETES_SOURCE"
        )
    lines += [
        "}",
        '"""Force-new input paths, by type token."""',
        "",
        "MAY_REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {",
    ]
    for token, (_, _, conditional) in sorted(AWS_RULES.items()):
        if conditional:
            lines += [f'    "{token}": (', *[f'        "{path}",' for path in conditional], "    ),"]
    lines += [
        "}",
        '"""Input paths whose change replaces the resource only under a condition the plan does not judge."""',
        "",
        "COMPONENT_REPLACE_ON_CHANGE: dict[str, tuple[str, ...]] = {",
    ]
    for token, (source, paths) in sorted(COMPONENT_RULES.items()):
        lines += [f'    "{token}": (', *[f'        "{path}",' for path in paths], "    ),"]
        sources[token] = source
    lines += [
        "}",
        '"""Inputs a component passes to a child that a change of them replaces; a change of any other input of the',
        'component may replace: not known."""',
        "",
        "ROLLING_UPDATE_ON_CHANGE: dict[str, tuple[str, ...]] = {",
    ]
    for token, (_, paths) in sorted(ROLLING_RULES.items()):
        lines += [f'    "{token}": (', *[f'        "{path}",' for path in paths], "    ),"]
    lines += [
        "}",
        '"""Input paths whose in-place update replaces every node of the group, one after another."""',
        "",
        "ROLLING_SOURCES: dict[str, str] = {",
        *[f'    "{token}": "{source}",' for token, (source, _) in sorted(ROLLING_RULES.items())],
        "}",
        '"""Where each type\'s rolling-update paths come from."""',
        "",
        "NOT_KNOWN: dict[str, str] = {",
        *[f'    "{token}": "{reason}",' for token, reason in sorted(NOT_KNOWN.items())],
        "}",
        '"""Types the stack registers whose rules are not known, and why: a change of them may replace."""',
        "",
        "SOURCES: dict[str, str] = {",
    ]
    for token, source in sorted(sources.items()):
        value = source if source in ("KUBERNETES_SOURCE", "HELM_RELEASE_SOURCE") else f'"{source}"'
        lines.append(f'    "{token}": {value},')
    lines += ["}", '"""Where each type\'s rules come from."""', ""]
    return "\n".join(lines)


def _formatted(text: str) -> str:
    """`text` as ruff formats it (tests/project/test_lint.py holds the committed table to the formatter)."""
    ruff = Path(sys.executable).parent / "ruff"
    return subprocess.run(
        [str(ruff), "format", "--stdin-filename", str(TABLE), "-"],
        input=text,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kubernetes-git", type=Path, required=True, help="git directory of pulumi-kubernetes")
    parser.add_argument("--kubernetes-ref", default=DEFAULT_REF, help=f"tag to read (default {DEFAULT_REF})")
    parser.add_argument("--check", action="store_true", help="exit 1 when the committed table differs")
    args = parser.parse_args(argv)

    def show(path: str) -> str:
        return subprocess.run(
            ["git", f"--git-dir={args.kubernetes_git}", "show", f"{args.kubernetes_ref}:{path}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    kubernetes = kubernetes_rules(show(DIFF_GO)) | {HELM_RELEASE: helm_release_rules(show(HELM_RELEASE_GO))}
    text = _formatted(table_source(kubernetes, args.kubernetes_ref))
    if args.check:
        if TABLE.read_text() != text:
            print(f"{TABLE.relative_to(ROOT)} is out of date: run python scripts/replace_rules.py", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
