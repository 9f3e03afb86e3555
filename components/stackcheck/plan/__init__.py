"""`python -m components.stackcheck plan`: what `pulumi preview` would register, rendered, validated and placed.

Modules in the order a plan runs them: run (`run_plan`, one plan end to end, and its `PlanResult`), render
(Kubernetes objects as YAML files), schema and crd_schema (the objects against the cluster version's OpenAPI
schema and the committed CRD schemas in `crds/`), crd_rules (those CRDs' CEL rules, as the API server evaluates
them on create), network_check (nodes in private subnets, the control plane in two zones), pools (node groups as
the placement model's pools, and the node-template tags the autoscaler reads at zero), node_agents (the pods EKS
runs on every node), then report (the result as sections) and its renderers. The AWS request check the plan runs
is `stackcheck.aws`.
"""

from .run import PlanOptions, PlanResult, run_plan

__all__ = ["PlanOptions", "PlanResult", "run_plan"]
