"""The create requests of Karpenter's AWS side that are neither IAM nor EKS: its SQS interruption queue and the
queue's policy, the EventBridge rules and targets that feed it, and the EC2 tags that mark subnets and security
groups for discovery.

The queue as terraform-provider-aws internal/service/sqs/queue.go (read at 00a35305) creates it: one CreateQueue
with the name, the attributes as strings and the tags; its policy is a SetQueueAttributes of `Policy`. A rule is an
EventBridge PutRule, a target a PutTargets of one target, a tag an EC2 CreateTags of one resource; the members are
those of botocore's `sqs`, `events` and `ec2` models, which stackcheck.aws.check checks them against.
"""

from __future__ import annotations

import json
from typing import Any

from ...facts.resource_types import EC2_TAG, EVENT_RULE, EVENT_TARGET, SQS_QUEUE, SQS_QUEUE_POLICY
from .builders import Builder, Request, Stack, _drop_none, _name, _note_unmapped, _tag_list, _taken

# Queue inputs -> SQS attribute names (the SQS API's CreateQueue `Attributes`).
_QUEUE_ATTRIBUTES = {
    "delaySeconds": "DelaySeconds",
    "maxMessageSize": "MaximumMessageSize",
    "messageRetentionSeconds": "MessageRetentionPeriod",
    "receiveWaitTimeSeconds": "ReceiveMessageWaitTimeSeconds",
    "visibilityTimeoutSeconds": "VisibilityTimeout",
    "sqsManagedSseEnabled": "SqsManagedSseEnabled",
    "kmsMasterKeyId": "KmsMasterKeyId",
    "policy": "Policy",
}


def _attribute(value: Any) -> str:
    # SQS attributes are strings on the wire; the provider writes booleans as `true`/`false`.
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value) if isinstance(value, dict) else str(value)


def _queue(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """resourceQueueCreate: CreateQueue."""
    _note_unmapped(inputs, {*_QUEUE_ATTRIBUTES, "name", "namePrefix", "tags"}, notes)
    attributes = {member: _attribute(inputs[key]) for key, member in _QUEUE_ATTRIBUTES.items() if key in inputs}
    params: dict[str, Any] = {
        "QueueName": _name(inputs, resource.name, autonamed=True, notes=notes, member="QueueName")
    }
    if attributes:
        params["Attributes"] = attributes
    if inputs.get("tags"):
        params["tags"] = dict(inputs["tags"])
    return [Request("sqs", "CreateQueue", params)]


def _queue_policy(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """The queue's policy: SetQueueAttributes of `Policy`."""
    _note_unmapped(inputs, {"queueUrl", "policy"}, notes)
    return [
        Request(
            "sqs",
            "SetQueueAttributes",
            {"QueueUrl": inputs.get("queueUrl"), "Attributes": {"Policy": _attribute(inputs.get("policy"))}},
        )
    ]


def _event_rule(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """An EventBridge rule: PutRule."""
    params = _taken(
        inputs,
        {
            "eventPattern": "EventPattern",
            "scheduleExpression": "ScheduleExpression",
            "description": "Description",
            "roleArn": "RoleArn",
            "eventBusName": "EventBusName",
            "state": "State",
        },
        notes,
        ignored=("name", "namePrefix", "tags"),
    )
    params["Name"] = _name(inputs, resource.name, autonamed=True, notes=notes, member="Name")
    if _tag_list(inputs.get("tags")):
        params["Tags"] = _tag_list(inputs["tags"])
    return [Request("events", "PutRule", params)]


def _event_target(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """An EventBridge target: PutTargets of the one target."""
    _note_unmapped(inputs, {"rule", "targetId", "arn", "eventBusName", "roleArn", "input"}, notes)
    target = _drop_none(
        {
            "Id": inputs.get("targetId"),
            "Arn": inputs.get("arn"),
            "RoleArn": inputs.get("roleArn"),
            "Input": inputs.get("input"),
        }
    )
    params = _drop_none({"Rule": inputs.get("rule"), "EventBusName": inputs.get("eventBusName"), "Targets": [target]})
    return [Request("events", "PutTargets", params)]


def _ec2_tag(inputs: dict, resource: Any, stack: Stack, notes: list[str]) -> list[Request]:
    """One tag on one EC2 resource: CreateTags."""
    _note_unmapped(inputs, {"resourceId", "key", "value"}, notes)
    return [
        Request(
            "ec2",
            "CreateTags",
            {
                "Resources": [inputs.get("resourceId")],
                "Tags": [{"Key": inputs.get("key"), "Value": inputs.get("value")}],
            },
        )
    ]


MESSAGING_BUILDERS: dict[str, Builder] = {
    SQS_QUEUE: _queue,
    SQS_QUEUE_POLICY: _queue_policy,
    EVENT_RULE: _event_rule,
    EVENT_TARGET: _event_target,
    EC2_TAG: _ec2_tag,
}
