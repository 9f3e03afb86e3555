"""The project's identity: the name that prefixes its stack config keys and labels its resources."""

PROJECT = "eks-gpu-inference"
"""The Pulumi project name (Pulumi.yaml), the stack config namespace, and the prefix of the project's own labels."""
