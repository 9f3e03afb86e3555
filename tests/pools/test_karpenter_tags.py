"""The tags given to the Karpenter component reach every AWS resource it registers that takes tags: which ones take
them is read from the pulumi-aws SDK itself (a resource class whose arguments include `tags`), not from the
component."""

from __future__ import annotations

import importlib
import inspect

from components.stackcheck.runtime import ProgramRun
from tests.support.component_args import run_components

TAGS = {"team": "ml", "cost-centre": "inference"}


def takes_tags(type_token: str) -> bool:
    """Whether the pulumi-aws resource of `type_token` (`aws:sqs/queue:Queue`) has a `tags` argument."""
    module, class_name = type_token.split(":")[1].split("/")[0], type_token.rsplit(":", 1)[1]
    resource_class = getattr(importlib.import_module(f"pulumi_aws.{module}"), class_name)
    return "tags" in inspect.signature(resource_class._internal_init).parameters


def karpenter_run(tmp_path) -> ProgramRun:
    return run_components(
        tmp_path,
        f"""
        from components.pools.karpenter.controller import Karpenter, KarpenterArgs

        Karpenter("it", KarpenterArgs(cluster_name="ml", node_security_group_id="sg-0a1b2c3d4e5f60718", tags={TAGS!r}))
        """,
    )


def test_every_aws_resource_of_karpenter_that_takes_tags_carries_the_components_tags(tmp_path):
    resources = [item for item in karpenter_run(tmp_path).resources if item.type.startswith("aws:")]

    tagged = {item.name for item in resources if item.inputs.get("tags") == TAGS}
    assert tagged == {item.name for item in resources if takes_tags(item.type)}
    # The interruption queue, its five event rules, both roles, the Pod Identity association, the access entry.
    assert len(tagged) == 10
    assert {"it-controller-role", "it-node-role", "it-interruption", "it-pod-identity", "it-node-access"} <= tagged


def test_a_misspelt_argument_is_refused_naming_the_component_and_the_nearest_argument_before_anything_registers(
    tmp_path,
):
    """Arguments as a mapping (as a Pulumi package's host hands them over): the argument's path as the user wrote the
    call, the component's class, its name, then the key, and the nearest known argument."""
    from tests.support.component_args import assert_refused_before_registering

    source = """
        from components.pools.karpenter.controller import Karpenter

        Karpenter("k", {"cluster_name": "ml", "node_security_group_id": "sg-1", "tag": {"team": "ml"}})
        """
    assert_refused_before_registering(
        tmp_path, source, ["Karpenter(k).args.tag: unknown argument 'tag'; did you mean 'tags'?"]
    )
