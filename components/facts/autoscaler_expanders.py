"""The Cluster Autoscaler's expanders, as the pinned releases (1.32-1.36, facts/versions.py) know them.

Source: kubernetes/autoscaler at tags cluster-autoscaler-1.32.7 to cluster-autoscaler-1.36.1 (the files below
are the same in all of them but for an import alias):
- `cluster-autoscaler/core/autoscaler.go` splits `--expander` on "," (`strings.Split`, no trimming) and
  `expander/factory/expander_factory.go` (`Build`) builds the chain: an unknown name ("Expander %s not
  supported"), a name given twice, or any name after one that always picks a single option is refused, and
  the autoscaler does not start;
- `RegisterDefaultExpanders` registers `random`, `most-pods`, `least-waste`, `least-nodes`, `price`,
  `priority` and `grpc` (`least-nodes` is registered although `expander.AvailableExpanders`, which the flag's
  help lists, leaves it out);
- `random` is the one that always picks a single option: `random.NewFilter` returns a type that is also an
  `expander.Strategy` (`expander/random/random.go`), so nothing may follow it.
"""

from __future__ import annotations

EXPANDERS = ("least-waste", "priority", "most-pods", "least-nodes", "random")
"""The expanders this stack can run on AWS, in the order its settings document them."""

PRIORITY = "priority"
"""The expander that reads the priority ConfigMap (`expander/priority/priority.go`)."""

SINGLE_CHOICE = ("random",)
"""Expanders that always return one option; in a chain they must come last."""

# `price` asks the cloud provider for prices, and the AWS provider's `Pricing` returns ErrNotImplemented
# (`cloudprovider/aws/aws_cloud_provider.go`), on which `RegisterDefaultExpanders` calls klog.Fatalf.
UNUSABLE = {
    "price": "needs prices from the cloud provider, which the AWS provider does not give, so the autoscaler "
    "exits at start",
    "grpc": "calls an external gRPC server, which the stack neither runs nor configures (--grpc-expander-url)",
}
"""Expanders the autoscaler knows that this stack cannot run, with the reason."""
