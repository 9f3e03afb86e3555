"""EKS Pod Identity as the stack's components use it: the role trust its IAM roles carry and the agent a pod
fetches credentials from. Standard library only.

An IAM role for EKS Pod Identity trusts the service principal `pods.eks.amazonaws.com` for `sts:AssumeRole` and
`sts:TagSession` (EKS user guide, "Create an IAM role for EKS Pod Identity"). The agent serves the credentials on
the link-local address 169.254.170.23, port 80 (EKS user guide, "Understand how EKS Pod Identity works"), which a
pod's NetworkPolicy must let it reach.

A pod whose ServiceAccount has `automountServiceAccountToken: false` still gets its Pod Identity token: the
mutating webhook that EKS runs (aws/amazon-eks-pod-identity-webhook at 3bf80a34, 2026-08-11, read 2026-12-02:
pkg/handler/handler.go) adds its own projected `eks-pod-identity-token` volume (audience `pods.eks.amazonaws.com`,
mounted at /var/run/secrets/pods.eks.amazonaws.com/serviceaccount) and `AWS_CONTAINER_CREDENTIALS_FULL_URI` to every
pod of an associated ServiceAccount, and never reads that field; the field only leaves out the Kubernetes API token.
The association must exist before the pod is created (the webhook mutates only new pods).
"""

from __future__ import annotations

SERVICE_PRINCIPAL = "pods.eks.amazonaws.com"
AGENT_ADDRESS = "169.254.170.23/32"
AGENT_PORT = 80


def trust_policy() -> dict:
    """The assume-role policy of a role that pods take through EKS Pod Identity."""
    return {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Effect": "Allow",
                "Principal": {"Service": SERVICE_PRINCIPAL},
                "Action": ["sts:AssumeRole", "sts:TagSession"],
            }
        ],
    }


def agent_egress() -> dict:
    """The NetworkPolicy egress rule (Kubernetes spelling) to the Pod Identity agent on the pod's node."""
    return {"to": [{"ipBlock": {"cidr": AGENT_ADDRESS}}], "ports": [{"protocol": "TCP", "port": AGENT_PORT}]}
