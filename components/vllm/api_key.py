"""The key vLLM requires from clients: a Kubernetes Secret read through `VLLM_API_KEY`, never a container arg.

vLLM takes the key from `--api-key` or, when that flag is absent, from the `VLLM_API_KEY` environment
variable (vllm-project/vllm v0.32.0, vllm/entrypoints/serve/middleware/register.py). A flag would put
the key in plain text in the pod spec and the Pulumi state; an environment variable filled by a
`secretKeyRef` keeps only the Secret's name there, and the Secret's data is a Pulumi secret.
"""

from __future__ import annotations

ENV_NAME = "VLLM_API_KEY"
SECRET_DATA_KEY = "api-key"


def secret_name(server_name: str) -> str:
    """Name of the Secret holding the API key of the server `server_name`."""
    return f"{server_name}-api-key"


def environment_variable(server_name: str) -> dict:
    """`VLLM_API_KEY` from the Secret; the pod fails to start if the Secret or its key is missing."""
    return {"name": ENV_NAME, "valueFrom": {"secretKeyRef": {"name": secret_name(server_name), "key": SECRET_DATA_KEY}}}
