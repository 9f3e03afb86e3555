"""KEDA, which scales each autoscaled vLLM server's Deployment on the server's queue, from its official chart.

Installed as one Helm release (kedacore/charts `keda`, pinned in facts/versions.py) into a namespace of its own
that enforces the restricted Pod Security Standard. The chart's pods carry no tolerations and no nodeSelector
(kedacore/charts v2.20.2 keda/values.yaml: `tolerations: []`, `nodeSelector: {}`), so the GPU taint keeps them
on the system node group. The chart installs KEDA's CRDs (values.yaml `crds.install: true`), so the servers'
ScaledObjects are created after the release.
"""

import pulumi
import pulumi_kubernetes as k8s

from .args.keda import KedaArgs
from .component_args import Validation, args_path, argument_problem, coerce
from .facts import versions
from .facts.identity import PROJECT
from .keda_manifests import NAMESPACE, keda_namespace
from .ordering import once_created
from .settings.fields import is_release_tag


def validated(name: str, args: KedaArgs) -> str:
    """The chart version `args` name; raises `ConfigError` naming a version that is not a release."""
    where = args_path("Keda", name)
    validation = Validation(where, args)
    args = validation.known(args)
    version = args.version or versions.KEDA_VERSION
    if not is_release_tag(f"v{version}"):
        validation.add(
            [
                argument_problem(
                    f"{where}.version",
                    f"{version!r} is not a chart release; allowed: X.Y.Z such as {versions.KEDA_VERSION}",
                )
            ]
        )
    validation.done()
    return version


class Keda(pulumi.ComponentResource):
    """KEDA's operator, metrics server and admission webhooks on the system nodes, from its official chart."""

    namespace: pulumi.Output[str]
    """Namespace of KEDA's pods, known once the chart's release is installed."""

    def __init__(self, name: str, args: KedaArgs, opts: pulumi.ResourceOptions | None = None):
        args = coerce(KedaArgs, args, args_path("Keda", name))
        # Checked before anything is registered.
        version = validated(name, args)
        super().__init__(f"{PROJECT}:index:Keda", name, None, opts)
        manifest = keda_namespace(name)
        ns = k8s.core.v1.Namespace(
            f"{name}-ns", metadata=manifest["metadata"], opts=pulumi.ResourceOptions(parent=self)
        )
        release = k8s.helm.v3.Release(
            f"{name}-release",
            name="keda",
            chart=versions.KEDA_CHART,
            version=version,
            repository_opts=k8s.helm.v3.RepositoryOptsArgs(repo=versions.KEDA_CHART_REPOSITORY),
            namespace=NAMESPACE,
            opts=pulumi.ResourceOptions(parent=self, depends_on=[ns]),
        )
        # Resolves once the release (with KEDA's CRDs) exists, so the ScaledObjects given it wait for it.
        self.namespace = once_created(NAMESPACE, [release])
        self.register_outputs({"namespace": self.namespace})
