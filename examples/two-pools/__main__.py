"""Two GPU pools in one EKS cluster under one placement contract, and a vLLM server on each.

- an NVIDIA L4 pool (g6.xlarge) serving a small model, Qwen2.5-1.5B-Instruct;
- an NVIDIA L40S pool (g6e.xlarge, 48 GiB of GPU memory) serving a larger one, Qwen2.5-14B-Instruct.

Both pools carry the contract's label and taint, so the device plugin and the DCGM exporter (one each)
run on both. Each server selects its own pool by the GPU product label the node group sets
(`nvidia.com/gpu.product`, NVIDIA GPU feature discovery's spelling, from facts/gpu_catalog.py):
the contract's selector keeps it on GPU nodes, the product term keeps it on the right ones.

This program runs from the repository checkout and imports the checkout's packages. In a project of your
own, install the package instead (docs/library.md, "From Python") and import the same
names from `eks_gpu_inference` (and `gpu_instance_type` from `eks_gpu_inference.facts.gpu_catalog`).
"""

import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
if str(CHECKOUT) not in sys.path:
    sys.path.insert(0, str(CHECKOUT))

import pulumi  # noqa: E402 the checkout goes on the path first

from components.args.validate import PlacementArgs  # noqa: E402
from components.autoscaling.cluster_autoscaler import ClusterAutoscaler, ClusterAutoscalerArgs  # noqa: E402
from components.cluster.args import ClusterNetwork  # noqa: E402
from components.cluster.cluster import EksCluster, EksClusterArgs  # noqa: E402
from components.cluster.network import Network, NetworkArgs  # noqa: E402
from components.facts.gpu_catalog import gpu_instance_type  # noqa: E402
from components.gpu_agents.dcgm_exporter import DcgmExporter, DcgmExporterArgs  # noqa: E402
from components.gpu_agents.device_plugin import NvidiaDevicePlugin, NvidiaDevicePluginArgs  # noqa: E402
from components.pools.gpu_node_group import GpuNodeGroup, GpuNodeGroupArgs  # noqa: E402
from components.vllm.server import VllmServer, VllmServerArgs  # noqa: E402

# One pool per GPU model: (pool suffix, instance type, model).
POOLS = (
    ("l4", "g6.xlarge", "Qwen/Qwen2.5-1.5B-Instruct"),
    ("l40s", "g6e.xlarge", "Qwen/Qwen2.5-14B-Instruct"),
)

name = pulumi.Config().get("clusterName") or "two-pools"
tags = {"app.kubernetes.io/part-of": pulumi.get_project(), "pulumi:stack": pulumi.get_stack()}
# One contract for every GPU pool and every GPU workload: label GPU=true, taint GPU=true:NoSchedule (the
# defaults, written out).
placement = PlacementArgs(label_key="GPU", label_value="true", taint_key="GPU", taint_value="true")
gpu_types = [instance_type for _, instance_type, _ in POOLS]

# A VPC of its own, preferring zones that offer both GPU types; `gpu_subnet_ids` are the subnets in them.
network = Network(f"{name}-network", NetworkArgs(gpu_instance_types=gpu_types, name_tag=name, tags=tags))
cluster = EksCluster(
    name,
    EksClusterArgs(
        gpu_placement=placement,
        pod_identity_agent=True,
        network=ClusterNetwork(
            vpc_id=network.vpc_id,
            private_subnet_ids=network.private_subnet_ids,
            public_subnet_ids=network.public_subnet_ids,
        ),
        tags=tags,
    ),
)
on_cluster = pulumi.ResourceOptions(provider=cluster.provider)

# The Cluster Autoscaler scales each pool from zero for the pods that select it.
ClusterAutoscaler(
    f"{name}-autoscaler",
    ClusterAutoscalerArgs(
        cluster_name=name,
        eks_cluster_name=cluster.cluster_name,
        tags=tags,
        pod_identity_agent=cluster.pod_identity_agent,
    ),
    opts=pulumi.ResourceOptions(providers=[cluster.provider]),
)
NvidiaDevicePlugin(f"{name}-device-plugin", NvidiaDevicePluginArgs(placement=placement), opts=on_cluster)
# GPU metrics from every node of both pools, scraped only from the `monitoring` namespace.
DcgmExporter(
    f"{name}-dcgm-exporter",
    # The cluster installs the node monitoring agent (its default), whose dcgm-server is the GPU nodes' engine.
    DcgmExporterArgs(placement=placement, monitoring_namespace="monitoring", dcgm_host_engine=True),
    opts=on_cluster,
)

for suffix, instance_type, model in POOLS:
    pool = GpuNodeGroup(
        f"{name}-{suffix}",
        GpuNodeGroupArgs(
            cluster_name=cluster.cluster_name,
            node_role_arn=cluster.node_role_arn,
            subnet_ids=network.gpu_subnet_ids,
            instance_types=[instance_type],
            min_size=0,
            desired_size=1,
            max_size=2,
            placement=placement,
            tags=tags,
        ),
    )
    # The product label this pool's nodes carry (`nvidia.com/gpu.product`), and no other pool's.
    product = gpu_instance_type(instance_type).gpu_product
    server = VllmServer(
        f"{name}-vllm-{suffix}",
        VllmServerArgs(
            model=model,
            instance_types=[instance_type],
            placement=placement,
            require_gpu_product=product,
            namespace=f"vllm-{suffix}",
        ),
        opts=pulumi.ResourceOptions(provider=cluster.provider, depends_on=[pool]),
    )
    pulumi.export(f"{suffix}NodeGroup", pool.node_group_name)
    pulumi.export(f"{suffix}GpuProduct", product)
    pulumi.export(f"{suffix}Service", server.service_dns_name)

pulumi.export("clusterName", cluster.cluster_name)
pulumi.export("kubeconfig", cluster.kubeconfig)
