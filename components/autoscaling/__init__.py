"""Scaling: the Cluster Autoscaler for node groups, and KEDA for a vLLM server's replicas."""
