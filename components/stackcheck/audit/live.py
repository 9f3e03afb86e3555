"""Reading the snapshot from a running cluster through the official `kubernetes` Python client.

Lists nodes, pods (all namespaces) and DaemonSets (all namespaces) page by page with `limit` and
`continue`, as kubectl does, and takes each page as raw JSON (`_preload_content=False`): the
client's per-object model classes are never built, and each page's items go to the same sink as
a file's.
"""

from __future__ import annotations

import io
from pathlib import Path

from .kubeconfig import check_kubeconfig, connection_reason
from .snapshot import Sink, SnapshotError, read_list

# kubectl's default --chunk-size (kubectl get --help: "--chunk-size=500: Return large lists in chunks").
PAGE_SIZE = 500


def read_cluster(kubeconfig: Path, context: str | None, sink: Sink, page_size: int | None = None) -> list[str]:
    """Feed every Node, Pod and DaemonSet of the cluster in `kubeconfig` (`context`, else the current one) to `sink`.

    `page_size` items a request (default PAGE_SIZE). Returns a one-element list naming the API server. Raises SnapshotError when the kubeconfig
    cannot be loaded or the server cannot be read.
    """
    from kubernetes import client, config
    from kubernetes.client.exceptions import ApiException
    from kubernetes.config.config_exception import ConfigException

    context = check_kubeconfig(kubeconfig, context)
    try:
        api_client = config.new_client_from_config(config_file=str(kubeconfig), context=context)
    except (ConfigException, ValueError, TypeError, KeyError, AttributeError, OSError) as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SnapshotError(f"{kubeconfig}: cannot load kubeconfig context {context}: {reason}") from None
    server = api_client.configuration.host
    core, apps = client.CoreV1Api(api_client), client.AppsV1Api(api_client)
    listings = (
        ("Node", core.list_node),
        ("Pod", core.list_pod_for_all_namespaces),
        ("DaemonSet", apps.list_daemon_set_for_all_namespaces),
    )
    try:
        for kind, list_call in listings:
            _read_pages(kind, list_call, server, sink, page_size or PAGE_SIZE)
    except ApiException as error:
        raise SnapshotError(f"{server}: listing failed: HTTP {error.status} {error.reason}") from None
    except OSError as error:  # urllib3's connection errors derive from it
        raise SnapshotError(f"{server}: cannot reach the API server: {connection_reason(error)}") from None
    except Exception as error:  # urllib3 wraps connection failures in its own classes
        if type(error).__module__.startswith("urllib3"):
            raise SnapshotError(f"{server}: cannot reach the API server: {connection_reason(error)}") from None
        raise
    finally:
        api_client.close()
    return [server]


def _read_pages(kind: str, list_call, server: str, sink: Sink, page_size: int) -> None:
    # `_preload_content=False` makes the client return the urllib3 response unread (its docstring:
    # "the urllib3.HTTPResponse object will be returned without reading/decoding response data").
    token = None
    while True:
        kwargs = {"limit": page_size, "_preload_content": False}
        if token:
            kwargs["_continue"] = token
        response = list_call(**kwargs)
        envelope = read_list(io.BytesIO(response.data), f"{server} ({kind} list)", _only(kind, sink))
        token = (envelope.get("metadata") or {}).get("continue")
        if not token:
            return


def _only(kind: str, sink: Sink) -> Sink:
    def take(item_kind: str, item: dict) -> None:
        if item_kind != kind:
            raise SnapshotError(f"the {kind} list returned a {item_kind}")
        sink(item_kind, item)

    return take
