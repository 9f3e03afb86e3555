"""The inputs of a vLLM server's request queue (`ServingQueue`). How a declaration reads: components/args/declare.py."""

from __future__ import annotations

from ...args.declare import Args, Own, Take, _args
from ...settings.queue import QueueSettings
from ...settings.section import SectionModel

STACK_ONLY: dict[type[SectionModel], tuple[str, ...]] = {}
"""Settings fields of this concern no component takes: the stack config alone has them."""

ARGS: tuple[Args, ...] = (
    _args(
        "ServingQueueArgs",
        "vllm/queue/args",
        "Inputs of `ServingQueue`, the AWS side of a server's request queue (`VllmServer` makes one for its "
        "`queue`). Fields without `Input` must be plain values; they are checked when the component is "
        "constructed, with the rules of the stack config's `vllm.queue`.",
        Take(
            QueueSettings,
            only=(
                "visibility_timeout_seconds",
                "message_retention_seconds",
                "max_receive_count",
                "results_bucket",
                "results_prefix",
                "results_expiration_days",
            ),
            defaults={"results_prefix": "Default: `results/<component name>`."},
        ),
        Own(
            "default_results_bucket",
            "pulumi.Input[str] | None",
            "The bucket the results go to when `results_bucket` is not set, such as the server's weights bucket. "
            "Default: a bucket the queue creates (private, encrypted, versioned, public access blocked).",
        ),
        Own(
            "consumer_role",
            "pulumi.Input[str] | None",
            "The name of the IAM role the consumer runs as (the server pod's EKS Pod Identity role): it is given "
            "the consumer's policy, the queue's messages and the results prefix. Default none (no grant).",
        ),
        Own(
            "keda_operator_role",
            "pulumi.Input[str] | None",
            "The name of the IAM role KEDA's operator runs as (`Keda.operator_role_name`): it may read the queue's "
            "attributes. Default none (no grant).",
        ),
        Own("tags", "dict[str, str] | None", "Tags for the queues, the bucket and the policies. Default none."),
    ),
)
"""This concern's args classes, nested ones before the classes that use them (the generated module evaluates
annotations when a class is defined)."""
