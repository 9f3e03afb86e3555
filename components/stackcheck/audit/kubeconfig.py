"""A kubeconfig checked before the `kubernetes` client reads it, so that each way it can be broken is one line.

The client's own errors are Python's (a `KeyError` for a context that names no cluster, a `TypeError` for a
document that is not a mapping, a YAML parser's multi-line mark), and they do not say what to change. The
fields read here are the ones `kubernetes.config.kube_config.KubeConfigLoader` reads (`current-context`,
`contexts[].name`, `contexts[].context.cluster` and `.user`, `clusters[].name`, `users[].name`; kubernetes
python client 36.0, `config/kube_config.py`, `set_active_context` and `_load_cluster_info`), and the rules
kubectl applies on top (client-go `tools/clientcmd/validation.go`, `validateContext`: "cluster %q was not
found for context %q", "user %q was not found for context %q"; `validateClusterInfo`: "no server found for
cluster %q"), where the Python client would fall back to an anonymous user or to http://localhost.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .snapshot import SnapshotError


def check_kubeconfig(path: Path, context: str | None) -> str:
    """The context the client will use from the kubeconfig at `path`; SnapshotError in one line if it cannot.

    `context` is the one asked for (`--context`), else the file's `current-context`.
    """
    import yaml

    if not path.exists():
        raise SnapshotError(f"{path}: kubeconfig does not exist")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else "not UTF-8 text"
        raise SnapshotError(f"{path}: cannot read the kubeconfig: {reason}") from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "unreadable"
        raise SnapshotError(f"{path}: the kubeconfig is not valid YAML{where}: {problem}") from None
    if not isinstance(document, dict):
        what = "empty" if document is None else f"a YAML {type(document).__name__}, not a mapping"
        raise SnapshotError(f"{path}: not a kubeconfig: the document is {what}")
    contexts = _named(document, "contexts", path)
    clusters = _named(document, "clusters", path)
    users = _named(document, "users", path)
    available = ", ".join(contexts) or "none"
    name = context or document.get("current-context")
    if not name:
        raise SnapshotError(
            f"{path}: the kubeconfig has no current-context; pass --context (contexts: {available}), or set one "
            "with: kubectl config use-context NAME"
        )
    if name not in contexts:
        origin = "--context" if context else "current-context"
        raise SnapshotError(f"{path}: {origin} {name!r} is not a context of the kubeconfig; contexts: {available}")
    entry = contexts[name] if isinstance(contexts[name], dict) else {}
    for field, defined in (("cluster", clusters), ("user", users)):
        value = entry.get(field)
        if field == "cluster" and not value:
            raise SnapshotError(f"{path}: context {name!r} names no cluster")
        if value and (not isinstance(value, str) or value not in defined):
            raise SnapshotError(
                f"{path}: context {name!r} names {field} {value!r}, which the kubeconfig does not define; "
                f"{field}s: {', '.join(defined) or 'none'}"
            )
    cluster = clusters[entry["cluster"]]
    if not isinstance(cluster, dict) or not cluster.get("server"):
        raise SnapshotError(f"{path}: cluster {entry['cluster']!r} of context {name!r} has no server")
    return name


def _named(document: dict, field: str, path: Path) -> dict[str, Any]:
    """`field`'s entries by name: `[{name, <singular>: {...}}]` as kubeconfigs list them."""
    entries = document.get(field) or []
    if not isinstance(entries, list):
        raise SnapshotError(f"{path}: `{field}` is a YAML {type(entries).__name__}, not a list")
    singular = field[:-1]
    found: dict[str, Any] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise SnapshotError(f"{path}: an entry of `{field}` has no name")
        found[entry["name"]] = entry.get(singular)
    return found


def connection_reason(error: BaseException) -> str:
    """What went wrong connecting, without urllib3's object reprs: the OS error, else the last part of the text."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.strerror:
            return current.strerror
        reason = getattr(current, "reason", None)
        current = reason if isinstance(reason, BaseException) else (current.__cause__ or current.__context__)
    text = str(error)
    if "[Errno" in text:
        text = text[text.index("[Errno") :].split("]", 1)[1].strip(" ')\"")
    return text.rsplit(">: ", 1)[-1].strip(" ')\"").splitlines()[0] if text else type(error).__name__
