"""The project's identity: the Pulumi project name, which is also the config namespace of its settings and
the value of the `part-of` labels and tags. No imports, so any module may use it for free."""

PROJECT = "eks-gpu-inference"
