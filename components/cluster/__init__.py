"""The cluster and what every node stands on: the network, the EKS control plane with its system node group and access entries, the managed add-ons and the node monitoring agent."""
