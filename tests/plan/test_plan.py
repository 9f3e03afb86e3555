"""The offline plan command: `python -m components.stackcheck plan`, called in-process through `main(argv)`."""

from __future__ import annotations

import gc
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from components.facts.resource_types import (
    DAEMONSET,
    DEPLOYMENT,
    KUBERNETES_PROVIDER,
    NETWORK_POLICY,
    NODE_GROUP,
    SECRET,
    SERVICE,
    STACK,
)
from components.stackcheck.__main__ import main
from components.stackcheck.plan.render import (
    HEADER,
    REDACTED,
    KubernetesObject,
    api_version_and_kind,
    kubernetes_objects,
)
from components.stackcheck.runtime import RegisteredResource, Secret

ROOT = Path(__file__).resolve().parents[2]
STACKS = Path(__file__).resolve().parents[1] / "stacks"


def plan(capsys, *args: str) -> tuple[int, str]:
    """Run `plan` with the repository as project; returns the exit code and stdout."""
    code = main(["plan", "--project-dir", str(ROOT), *args])
    return code, capsys.readouterr().out


def test_dev_stack_plan_exits_0_and_writes_device_plugin_and_vllm(capsys, tmp_path):
    code, out = plan(capsys, "--stack", "dev", "--out", str(tmp_path))

    assert code == 0, out
    files = {path.name for path in tmp_path.glob("*.yaml")}
    assert {
        "kube-system.daemonset.nvidia-device-plugin.yaml",
        "vllm.service.vllm-server.yaml",
        "vllm.deployment.vllm-server.yaml",
    } <= files
    daemonset = (tmp_path / "kube-system.daemonset.nvidia-device-plugin.yaml").read_text()
    assert daemonset.startswith(HEADER + "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n")
    assert "\x1b[" not in out  # stdout is not a terminal: no colour
    assert "OK: every check holds (exit 0)" in out
    assert gc.isenabled()  # the command pauses the collector only while it runs


def test_dev_stack_plan_prints_the_resource_tree_with_counts(capsys, tmp_path):
    code, out = plan(capsys, "--out", str(tmp_path))

    assert code == 0
    assert re.search(r"\+\s+pulumi:pulumi:Stack\s+eks-gpu-inference-dev\s+create", out)
    assert re.search(r"\+\s+│  ├─ aws:eks/nodeGroup:NodeGroup\s+gpu-inference-dev-gpu\s+create", out)
    assert re.search(r"Resources: \+ \d+ to create", out)
    assert re.search(r"by package: aws \d+, eks \d+", out)


@pytest.mark.fresh_runs  # two real runs: a shared one would make them identical by construction
def test_two_runs_write_identical_files(capsys, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    plan(capsys, "--out", str(first))
    plan(capsys, "--out", str(second))

    first_files = {path.name: path.read_bytes() for path in first.iterdir()}
    second_files = {path.name: path.read_bytes() for path in second.iterdir()}
    assert first_files and first_files == second_files


def test_rerun_removes_stale_files_it_wrote_and_keeps_others(capsys, tmp_path):
    (tmp_path / "vllm.deployment.renamed.yaml").write_text(HEADER + "kind: Deployment\n")
    (tmp_path / "hand-written.yaml").write_text("kind: ConfigMap\n")
    (tmp_path / "notes.txt").write_text("keep me\n")

    plan(capsys, "--out", str(tmp_path))

    assert not (tmp_path / "vllm.deployment.renamed.yaml").exists()
    assert (tmp_path / "hand-written.yaml").exists()
    assert (tmp_path / "notes.txt").exists()


def test_taint_effect_in_eks_spelling_exits_2_naming_the_key_and_renders_nothing(capsys, tmp_path):
    out_dir = tmp_path / "out"
    code, out = plan(capsys, "--stack-file", str(STACKS / "Pulumi.bad-effect.yaml"), "--out", str(out_dir))

    assert code == 2
    assert "eks-gpu-inference:gpuPlacement.taintEffect" in out
    assert "NoSchedule" in out
    assert not out_dir.exists()


def test_every_config_problem_is_listed_at_once_in_json(capsys, tmp_path):
    code, out = plan(
        capsys,
        "--stack-file",
        str(STACKS / "Pulumi.bad-several.yaml"),
        "--out",
        str(tmp_path / "o"),
        "--format",
        "json",
    )

    document = json.loads(out)
    assert code == 2 and document["exitCode"] == 2
    assert [problem["key"] for problem in document["configProblems"]] == [
        "cluster.version",
        "systemNodeGroup.minSize",
        "gpuPlacement.taintEffect",
    ]
    assert document["resources"] == [] and document["objects"] == []


def test_config_error_raised_by_the_program_exits_2_naming_the_key(capsys, tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: eks-gpu-inference\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config: {}\n")
    (tmp_path / "__main__.py").write_text(
        textwrap.dedent("""
        import pulumi
        from components.settings import ConfigError, ConfigProblem
        pulumi.ComponentResource("test:index:Early", "early")
        raise ConfigError([ConfigProblem("vllm.model", "checked only by the program")])
    """)
    )

    code = main(["plan", "--project-dir", str(tmp_path), "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out

    assert code == 2
    assert "eks-gpu-inference:vllm.model: checked only by the program" in out
    assert not (tmp_path / "out").exists()


def test_stack_without_device_plugin_on_al2023_fails_verdict_3_and_exits_1(capsys, tmp_path):
    code, out = plan(capsys, "--stack-file", str(STACKS / "Pulumi.no-device-plugin.yaml"), "--out", str(tmp_path))

    assert code == 1
    assert "FAIL  3 device-plugin-covers-gpu-pools" in out
    assert "verdict 3 device-plugin-covers-gpu-pools" in out.split("FAILED:", 1)[1]


def test_markdown_and_json_carry_the_same_verdicts_as_text(capsys, tmp_path):
    stack_file = str(STACKS / "Pulumi.no-device-plugin.yaml")
    outputs = {
        fmt: plan(capsys, "--stack-file", stack_file, "--out", str(tmp_path / fmt), "--format", fmt)
        for fmt in ("text", "markdown", "json")
    }

    assert {code for code, _ in outputs.values()} == {1}
    text = re.findall(r"^  (PASS|FAIL)  (\d+) ([a-z0-9-]+):", outputs["text"][1], re.MULTILINE)
    markdown = re.findall(r"^\| (✅|❌) \| (\d+) \| ([a-z0-9-]+) \|", outputs["markdown"][1], re.MULTILINE)
    document = json.loads(outputs["json"][1])
    as_json = [(verdict["passed"], str(verdict["id"]), verdict["name"]) for verdict in document["verdicts"]]
    assert [n for _, n, _ in text] == [str(n) for n in range(1, 26)]  # verdicts 1 to 25
    assert [(status == "PASS", n, name) for status, n, name in text] == as_json
    assert [(mark == "✅", n, name) for mark, n, name in markdown] == as_json
    assert re.search(r"^\| `vllm/vllm-server` \| Deployment \|", outputs["markdown"][1], re.MULTILINE)


def test_json_document_lists_resources_objects_pools_and_matrix(capsys, tmp_path):
    code, out = plan(capsys, "--out", str(tmp_path), "--format", "json")

    document = json.loads(out)
    assert code == document["exitCode"] == 0
    assert document["counts"]["total"] == len(document["resources"])
    assert {key: document["resources"][0][key] for key in ("type", "name", "parent")} == {
        "type": STACK,
        "name": "eks-gpu-inference-dev",
        "parent": None,
    }
    deployment = next(obj for obj in document["objects"] if obj["kind"] == "Deployment" and obj["namespace"] == "vllm")
    assert deployment == {
        "path": "vllm.deployment.vllm-server.yaml",
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "vllm-server",
        "namespace": "vllm",
    }
    assert len(document["schema"]) == len(document["objects"]) > 0
    assert all(result["passed"] for result in document["schema"])
    gpu_pool = next(pool for pool in document["pools"] if pool["gpusPerNode"])
    assert gpu_pool["taints"] == ["GPU=true:NoSchedule"] and gpu_pool["gpusAdvertised"] == 1
    assert {(row["workload"], row["pool"], row["lands"]) for row in document["matrix"]} >= {
        ("vllm/vllm-server", "gpu-inference-dev-gpu", True),
        ("vllm/vllm-server", "gpu-inference-dev-system", False),
    }


def test_secure_token_is_set_but_never_printed_or_written(capsys, tmp_path):
    ciphertext = "c2VjcmV0LWNpcGhlcnRleHQtbmV2ZXItc2hvd24"
    code, out = plan(capsys, "--stack-file", str(STACKS / "Pulumi.secret-token.yaml"), "--out", str(tmp_path))

    assert code == 0, out
    secret = (tmp_path / "vllm.secret.vllm-server-hf-token.yaml").read_text()
    assert f"token: '{REDACTED}'" in secret
    written = "".join(path.read_text() for path in tmp_path.glob("*.yaml"))
    assert ciphertext not in out and ciphertext not in written
    assert "not decrypted offline" not in written


def test_unknown_stack_is_a_usage_error(capsys, tmp_path):
    code = main(["plan", "--project-dir", str(ROOT), "--stack", "nope", "--out", str(tmp_path)])

    captured = capsys.readouterr()
    assert code == 2
    assert "Pulumi.nope.yaml" in captured.err and captured.out == ""


def test_invalid_config_is_reported_before_the_sdks_load():
    script = textwrap.dedent(f"""
        import sys
        from components.stackcheck.__main__ import main
        code = main(["plan", "--project-dir", {str(ROOT)!r}, "--stack-file", {str(STACKS / "Pulumi.bad-effect.yaml")!r},
                     "--format", "json"])
        heavy = sorted(name for name in ("pulumi", "pulumi_aws", "pulumi_kubernetes", "kubernetes_validate")
                       if name in sys.modules)
        print("RESULT", code, heavy, file=sys.stderr)
    """)
    completed = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)

    assert "RESULT 2 []" in completed.stderr, completed.stderr


def test_type_token_gives_api_version_and_kind():
    assert api_version_and_kind(DAEMONSET) == ("apps/v1", "DaemonSet")
    assert api_version_and_kind(SERVICE) == ("v1", "Service")
    assert api_version_and_kind(NETWORK_POLICY) == (
        "networking.k8s.io/v1",
        "NetworkPolicy",
    )


def test_rendered_object_drops_pulumi_keys_redacts_secrets_and_restores_integers():
    resource = RegisteredResource(
        type=SECRET,
        name="token",
        parent=None,
        urn="urn:x",
        custom=True,
        inputs={
            "apiVersion": "v1",
            "kind": "Secret",
            "__defaults": [],
            "metadata": {"name": "t", "__defaults": []},
            "stringData": Secret({"token": "hunter2"}),
            "data": {"__key": "eA=="},
            "immutable": True,
        },
    )
    provider = RegisteredResource(
        type=KUBERNETES_PROVIDER, name="k8s", parent=None, urn="urn:y", custom=True, inputs={}
    )
    deployment = RegisteredResource(
        type=DEPLOYMENT,
        name="d",
        parent=None,
        urn="urn:z",
        custom=True,
        inputs={"spec": {"replicas": 2.0}},
    )

    secret, rendered_deployment = kubernetes_objects([resource, provider, deployment])

    assert list(secret.manifest) == ["apiVersion", "kind", "metadata", "data", "immutable", "stringData"]
    assert secret.manifest["metadata"] == {"name": "t"}
    assert secret.manifest["stringData"] == {"token": REDACTED}
    assert secret.manifest["data"] == {"__key": "eA=="}  # a legitimate data key, not a Pulumi one
    assert rendered_deployment.manifest["spec"]["replicas"] == 2 and rendered_deployment.name == "d"
    assert rendered_deployment.file_name == "default.deployment.d.yaml"


def test_schema_check_is_strict_about_unknown_fields():
    from components.stackcheck.plan.schema import validate_objects

    manifest = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "s", "namespace": "n"},
        "spec": {"ports": [{"port": 80, "targetPrt": 8080}]},
    }
    (result,) = validate_objects([(KubernetesObject(manifest, "s", SERVICE), "n.service.s.yaml")], "1.34")

    assert not result.passed
    assert "spec.ports[0]" in result.message and "targetPrt" in result.message


def test_node_group_taints_become_kubernetes_spelling_and_bottlerocket_advertises_gpus():
    from components.stackcheck.plan.pools import node_group_specs

    group = RegisteredResource(
        type=NODE_GROUP,
        name="gpu",
        parent=None,
        urn="urn:g",
        custom=True,
        inputs={
            "nodeGroupName": "gpu",
            "instanceTypes": ["g5.2xlarge", "g5.xlarge"],
            "amiType": "BOTTLEROCKET_x86_64_NVIDIA",
            "scalingConfig": {"desiredSize": 1.0},
            "labels": {"GPU": "true"},
            "taints": [{"key": "GPU", "value": "true", "effect": "NO_EXECUTE"}],
            "diskSize": 80.0,
        },
    )

    (spec,) = node_group_specs([group]).specs

    assert spec.taints == [{"key": "GPU", "value": "true", "effect": "NoExecute"}]
    assert spec.instance_type == "g5.xlarge"  # the smallest the group may start
    assert spec.gpu_advertised_by_host and spec.desired_size == 1 and spec.disk_size_gib == 80


def test_custom_resource_passes_unchecked_while_unknown_built_in_kind_fails():
    from components.stackcheck.plan.schema import validate_objects

    # A kind whose CRD schema is not committed (Karpenter's NodePool is: tests/pools/test_karpenter_manifests.py).
    custom = {"apiVersion": "cert-manager.io/v1", "kind": "Certificate", "metadata": {"name": "gpu"}}
    unknown = {"apiVersion": "apps/v1", "kind": "DaemonSett", "metadata": {"name": "typo", "namespace": "n"}}
    custom_result, unknown_result = validate_objects(
        [
            (KubernetesObject(custom, "gpu", "kubernetes:karpenter.sh/v1:NodePool"), None),
            (KubernetesObject(unknown, "typo", "kubernetes:apps/v1:DaemonSett"), None),
        ],
        "1.34",
    )

    assert custom_result.passed and not custom_result.checked
    assert not unknown_result.passed and "no schema for DaemonSett apps/v1" in unknown_result.message


def test_field_made_secret_by_a_value_inside_it_is_redacted_whole_and_named():
    deployment = RegisteredResource(
        type=DEPLOYMENT,
        name="d",
        parent=None,
        urn="urn:d",
        custom=True,
        inputs={
            "metadata": {"name": "d"},
            "spec": Secret(
                {
                    "replicas": 1.0,
                    "template": {
                        "spec": {"containers": [{"name": "c", "env": [{"name": "TOKEN", "value": "hunter2"}]}]}
                    },
                }
            ),
        },
    )

    (obj,) = kubernetes_objects([deployment])

    assert obj.secret_fields == ("spec",)
    assert obj.manifest["spec"]["replicas"] == REDACTED
    assert "hunter2" not in repr(obj.manifest)


def test_node_pools_take_disk_sizes_from_the_launch_templates_the_program_registers(stack):
    from components.stackcheck.plan.pools import node_group_specs

    run = stack({"gpuNodeGroup": {"diskSize": 300}, "systemNodeGroup": {"diskSize": 40}})
    for group in run.of_type(NODE_GROUP):
        assert "diskSize" not in group.inputs, "the disk is set in the launch template"
    sizes = {spec.name: spec.disk_size_gib for spec in node_group_specs(run.resources).specs}
    assert sizes == {"gpu-inference-dev-gpu": 300, "gpu-inference-dev-system": 40}


def test_yaml_reads_back_as_the_manifest_without_anchors_or_folded_lines(dev_run):
    import yaml

    from components.stackcheck.plan.render import to_yaml

    class PureDumper(yaml.SafeDumper):
        def ignore_aliases(self, data):
            return True

    shared = {"key": "value"}
    crafted = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "x", "labels": shared},
        "data": {
            "script": "line one\nline two\n",
            "long": "word " * 399 + "word",
            "emoji": "rocket \U0001f680",
            "again": shared,
        },
    }
    for manifest in [obj.manifest for obj in kubernetes_objects(dev_run.resources)] + [crafted]:
        text = to_yaml(manifest)
        assert yaml.safe_load(text) == manifest
        assert "&id" not in text and "*id" not in text
    assert "  long: " + crafted["data"]["long"] + "\n" in to_yaml(crafted)  # never folded
    ascii_text = to_yaml(crafted | {"data": {"script": "line one\nline two\n"}})
    assert "script: |" in ascii_text  # multi-line strings as literal blocks
    pure = yaml.dump(
        crafted | {"data": {"script": "line one\nline two\n"}},
        Dumper=PureDumper,
        sort_keys=False,
        default_flow_style=False,
        allow_unicode=True,
        width=1_000_000,
    )
    assert yaml.safe_load(pure) == yaml.safe_load(ascii_text)


def test_the_installed_command_plans_the_checkout_from_another_directory(tmp_path):
    """`.ci/setup` installs the project editable: `.venv/bin/eks-gpu-plan`, the README's quick start, works
    from any directory, reading the project named by --project-dir."""
    command = [str(Path(sys.executable).parent / "eks-gpu-plan"), "--project-dir", str(ROOT), "--stack", "dev"]
    done = subprocess.run([*command, "--out", str(tmp_path / "out")], cwd=tmp_path, capture_output=True, text=True)

    assert done.returncode == 0, done.stdout + done.stderr
    summary, *_ = done.stdout.splitlines()
    assert summary.startswith("OK (exit 0): every check holds")
    assert f"\nPlan of stack dev (project eks-gpu-inference, {ROOT / 'Pulumi.dev.yaml'})\n" in done.stdout
    assert done.stdout.rstrip().endswith("OK: every check holds (exit 0)")
    assert (tmp_path / "out" / "kube-system.daemonset.nvidia-device-plugin.yaml").is_file()
