"""Seeding the weights (`vllm.source.seed`): the copy program's idempotence against a fake S3 and a fake Hub, the
settings' rules, and what the program registers: the Job on the system nodes, its write-only role, its
NetworkPolicy, the server's init container, and the copy in the cold-start budget (verdict 15)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from components.facts import cold_start, system_nodes, versions
from components.facts.cold_start import ColdStart
from components.facts.identity import PROJECT
from components.facts.node_agents import SYSTEM_POOL_LABEL
from components.facts.resource_types import ADDON, DEPLOYMENT, JOB, POD_IDENTITY_ASSOCIATION, ROLE, ROLE_POLICY
from components.placement.cold_start import cold_start_verdict
from components.settings import VllmSettings
from components.stackcheck.__main__ import main
from components.vllm import weights_copy
from components.vllm.weights_copy_script import MARKER, AnotherRevision, copy, marker_key, read_marker, wait
from tests.conftest import dev_stack_config, dev_stack_file, merge, plan_stack_file, run_stack

ROOT = Path(__file__).resolve().parents[2]
REVISION = "a" * 40
PREFIX = f"Qwen/Qwen2.5-7B-Instruct/{REVISION}"
BUCKET = "gpu-inference-dev-vllm-weights"
SEEDED = {"vllm": {"revision": REVISION, "source": {"type": "s3"}}}
# The dev stack's Qwen2.5-7B seeded (facts/cold_start.py figures): the copy takes the image pull, 12.00 GB at 15 GB in
# 6 minutes = 288 s, the download, 15.22 GB at 261.1 MB/s = 58.29 s, and the upload over one S3 connection, 15.22 GB
# at 85 MB/s = 179.06 s: 525.35 s; twice that, 1050.7 s, is under the 30-minute floor, so the Job may run 1800 s
# (components/vllm/weights_copy.py: DEADLINE_FACTOR 2, MIN_DEADLINE_SECONDS 1800).
COPY_DEADLINE = 1800
# The init container waits the Job's deadline and 300 s for the Job's pod to be scheduled: 2100 s.
WAIT_SECONDS = 1800 + 300


class Missing(Exception):
    """What botocore raises for a missing key: a ClientError whose response carries the code."""

    def __init__(self, code: str = "NoSuchKey"):
        super().__init__(code)
        self.response = {"Error": {"Code": code}}


class FakeS3:
    def __init__(self, missing_code: str = "NoSuchKey"):
        self.objects: dict[str, bytes] = {}
        self.writes: list[str] = []
        self.missing_code = missing_code

    def get_object(self, Bucket, Key):
        if Key not in self.objects:
            raise Missing(self.missing_code)

        class Body:
            def read(inner):
                return self.objects[Key]

        return {"Body": Body()}

    def head_object(self, Bucket, Key):
        if Key not in self.objects:
            raise Missing("404" if self.missing_code == "NoSuchKey" else self.missing_code)
        return {"ContentLength": len(self.objects[Key])}

    def upload_file(self, path, bucket, key):
        self.objects[key] = Path(path).read_bytes()
        self.writes.append(key)

    def put_object(self, Bucket, Key, Body):
        self.objects[Key] = Body
        self.writes.append(Key)


def content(model: str, revision: str, filename: str) -> str:
    return f"{model}@{revision}:{filename}"


class FakeHub:
    def __init__(self, files: list[str], fail_on: str | None = None):
        self.listed = files
        self.downloads: list[str] = []
        self.fail_on = fail_on

    def files(self, model, revision):
        # Each file's size, as the Hub lists it: the bytes `download` writes.
        return {name: len(content(model, revision, name).encode()) for name in self.listed}

    def download(self, model, filename, revision, workdir):
        if filename == self.fail_on:
            raise OSError("connection reset")
        self.downloads.append(filename)
        path = Path(workdir) / filename
        path.write_text(content(model, revision, filename))
        return str(path)


HUB_FILES = [
    ".gitattributes",
    "config.json",
    "model-00001-of-00002.safetensors",
    "model-00002-of-00002.safetensors",
    "pytorch_model.bin",
    "original/consolidated.pth",
    "tokenizer.json",
]
WHERE = {"bucket": BUCKET, "prefix": PREFIX, "model": "Qwen/Qwen2.5-7B-Instruct", "revision": REVISION}


def test_a_first_copy_uploads_the_models_files_and_writes_the_marker_last(tmp_path):
    s3, hub = FakeS3(), FakeHub(HUB_FILES)

    assert copy(s3, hub, workdir=str(tmp_path), log=lambda _: None, **WHERE) == "copied"

    copied = ["config.json", "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "tokenizer.json"]
    # Several files at once, in any order; the marker last.
    assert sorted(s3.writes[:-1]) == [f"{PREFIX}/{name}" for name in copied]
    assert s3.writes[-1] == f"{PREFIX}/{MARKER}"
    assert json.loads(s3.objects[marker_key(PREFIX)]) == {
        "model": "Qwen/Qwen2.5-7B-Instruct",
        "revision": REVISION,
        "files": copied,
    }
    assert not list(tmp_path.iterdir())  # each file removed once uploaded


def test_a_second_copy_of_the_same_revision_downloads_and_writes_nothing(tmp_path):
    s3 = FakeS3()
    copy(s3, FakeHub(HUB_FILES), workdir=str(tmp_path), log=lambda _: None, **WHERE)
    again, hub = list(s3.writes), FakeHub(HUB_FILES)

    assert copy(s3, hub, workdir=str(tmp_path), log=lambda _: None, **WHERE) == "present"
    assert hub.downloads == [] and s3.writes == again


def test_a_copy_that_fails_midway_leaves_no_marker_and_a_retry_completes(tmp_path):
    s3 = FakeS3()
    with pytest.raises(OSError):
        copy(s3, FakeHub(HUB_FILES, fail_on="model-00002-of-00002.safetensors"), workdir=str(tmp_path), **WHERE)
    assert read_marker(s3, BUCKET, PREFIX) is None

    assert copy(s3, FakeHub(HUB_FILES), workdir=str(tmp_path), log=lambda _: None, **WHERE) == "copied"
    assert read_marker(s3, BUCKET, PREFIX)["revision"] == REVISION


def test_a_prefix_holding_another_revision_is_not_written_over(tmp_path):
    s3 = FakeS3()
    copy(s3, FakeHub(HUB_FILES), workdir=str(tmp_path), log=lambda _: None, **{**WHERE, "revision": "b" * 40})
    before = dict(s3.objects)

    with pytest.raises(AnotherRevision, match="vllm.source.prefix"):
        copy(s3, FakeHub(HUB_FILES), workdir=str(tmp_path), **WHERE)
    assert s3.objects == before


def test_a_model_without_safetensors_is_refused_before_any_upload(tmp_path):
    s3 = FakeS3()
    with pytest.raises(ValueError, match="safetensors"):
        copy(s3, FakeHub(["config.json", "pytorch_model.bin"]), workdir=str(tmp_path), **WHERE)
    assert s3.writes == []


def test_a_missing_marker_read_without_list_permission_403_counts_as_missing():
    assert read_marker(FakeS3(missing_code="AccessDenied"), BUCKET, PREFIX) is None
    with pytest.raises(Missing):
        read_marker(FakeS3(missing_code="SlowDown"), BUCKET, PREFIX)


def test_the_wait_ends_when_the_marker_names_the_revision_and_gives_up_at_its_timeout(tmp_path):
    now = [0.0]
    s3 = FakeS3()

    def sleep(seconds):
        now[0] += seconds
        if now[0] >= 30:
            copy(s3, FakeHub(HUB_FILES), workdir=str(tmp_path), log=lambda _: None, **WHERE)

    assert wait(s3, timeout=100, clock=lambda: now[0], sleep=sleep, log=lambda _: None, **WHERE)
    assert now[0] == 30

    now[0] = 0.0
    other = {**WHERE, "revision": "c" * 40}
    assert not wait(s3, timeout=100, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s), **other)
    assert now[0] == 100


# The settings.


@pytest.mark.parametrize(
    ("source", "revision", "seeded"),
    [
        ({"type": "s3"}, REVISION, True),  # the stack's own bucket and a pinned commit: seeded by default
        ({"type": "s3"}, None, False),  # no revision: seeded as before, by you, under the model id
        ({"type": "s3"}, "v1.0", False),  # a tag names no fixed commit
        ({"type": "s3", "bucket": "team-models"}, None, False),  # a bucket of yours: not written by default
        ({"type": "s3", "bucket": "team-models", "seed": True}, REVISION, True),
        ({"type": "s3", "seed": False}, None, False),
        ({}, None, False),
    ],
    ids=[
        "own bucket",
        "own bucket without a revision",
        "own bucket with a tag",
        "your bucket",
        "your bucket with seed",
        "seed off",
        "from the hub",
    ],
)
def test_seeding_defaults_to_the_stacks_own_bucket(source, revision, seeded):
    settings = VllmSettings(source=source, revision=revision)
    assert settings.seeds is seeded


@pytest.mark.parametrize(
    ("vllm", "key", "fragment"),
    [
        (
            {"revision": None, "source": {"type": "s3", "seed": True}},
            "revision",
            "is not set, and source.seed copies one pinned revision",
        ),
        ({"revision": "main", "source": {"type": "s3", "seed": True}}, "revision", "'main' is not a commit id"),
        ({"revision": "v1.0", "source": {"type": "s3", "seed": True, "bucket": "b-1"}}, "revision", "commit id"),
        ({"source": {"seed": True}}, "source.seed", "allowed: type 's3'"),
    ],
    ids=["no revision", "a branch", "a tag", "seed from the hub"],
)
def test_seeding_refuses_a_revision_that_is_not_a_commit(capsys, tmp_path, vllm, key, fragment):
    code, document = plan(capsys, tmp_path, {"vllm": vllm})

    assert code == 2
    problems = {problem["key"]: problem["message"] for problem in document["configProblems"]}
    assert set(problems) == {f"vllm.{key}"}
    assert fragment in problems[f"vllm.{key}"]


# What the program registers.


def plan(capsys, tmp_path, overrides: dict) -> tuple[int, dict]:
    """Plan the dev stack with `overrides` merged into its config; the exit code and the JSON document."""
    return plan_stack_file(dev_stack_file(tmp_path, overrides, name="seed"), tmp_path / "out")


def written(tmp_path: Path, kind: str, name: str) -> dict:
    return yaml.safe_load((tmp_path / "out" / f"vllm.{kind}.{name}.yaml").read_text())


@pytest.fixture
def seeded(capsys, tmp_path) -> dict:
    code, document = plan(capsys, tmp_path, SEEDED)
    assert code == 0, document["failures"]
    return document


def test_the_job_copies_the_pinned_revision_on_the_system_nodes(seeded, tmp_path):
    settings = VllmSettings(revision=REVISION, source={"type": "s3"})
    name = weights_copy.job_name("vllm-server", settings)
    job = written(tmp_path, "job", name)
    pod = job["spec"]["template"]["spec"]
    [container] = pod["containers"]

    assert job["spec"]["backoffLimit"] == 2 and "ttlSecondsAfterFinished" not in job["spec"]
    assert job["metadata"]["annotations"]["pulumi.com/replaceUnready"] == "true"  # a failed copy runs again
    assert job["spec"]["activeDeadlineSeconds"] == COPY_DEADLINE
    assert pod["nodeSelector"] == dict([SYSTEM_POOL_LABEL]) and "tolerations" not in pod
    assert pod["restartPolicy"] == "Never" and pod["serviceAccountName"] == "vllm-server-weights-copy"
    assert container["image"] == versions.WEIGHTS_COPY_IMAGE
    command = container["command"]
    assert command[:3] == ["python3", "/opt/weights-copy/weights_copy.py", "copy"]
    assert command[command.index("--revision") + 1] == REVISION
    assert command[command.index("--prefix") + 1] == PREFIX
    env = {variable["name"]: variable["value"] for variable in container["env"]}
    assert env["WEIGHTS_BUCKET"] == BUCKET and env["AWS_REGION"] == "us-west-2"
    assert not any("TOKEN" in variable for variable in env)  # no token in this stack, and never a value
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["resources"]["limits"] == {"cpu": "1", "memory": "2Gi"}
    script = written(tmp_path, "configmap", "vllm-server-weights-copy")["data"]["weights_copy.py"]
    assert script == (ROOT / "components" / "vllm" / "weights_copy_script.py").read_text()
    # The placement model places the Job on the system pool (verdict 9).
    [verdict] = [verdict for verdict in seeded["verdicts"] if verdict["id"] == 9]
    assert verdict["passed"] and f"vllm/{name} on gpu-inference-dev-system" in verdict["details"]


def test_the_job_writes_with_a_role_of_its_own_that_may_only_write_and_read_the_prefix(seeded):
    [role] = [role for role in registered(seeded, ROLE) if role["name"] == "gpu-inference-dev-vllm-weights-writer"]
    [policy] = [policy for policy in registered(seeded, ROLE_POLICY) if policy["inputs"]["role"] == role["id"]]
    statements = json.loads(policy["inputs"]["policy"])["Statement"]
    assert [(s["Action"], s["Resource"]) for s in statements] == [
        (["s3:PutObject", "s3:AbortMultipartUpload"], [f"arn:aws:s3:::{BUCKET}/{PREFIX}/*"]),
        # HeadObject, which the copy asks of each file to skip those already whole, needs s3:GetObject.
        (["s3:GetObject"], [f"arn:aws:s3:::{BUCKET}/{PREFIX}/*"]),
    ]
    associations = {item["inputs"]["serviceAccount"]: item for item in registered(seeded, POD_IDENTITY_ASSOCIATION)}
    assert associations["vllm-server-weights-copy"]["inputs"]["roleArn"].endswith(
        "/gpu-inference-dev-vllm-weights-writer"
    )
    assert associations["vllm-server"]["inputs"]["roleArn"].endswith("/gpu-inference-dev-vllm-weights-reader")


def test_the_job_may_reach_the_hub_s3_and_the_agent_and_nothing_may_reach_it(seeded, tmp_path):
    policy = written(tmp_path, "networkpolicy", "vllm-server-weights-copy")["spec"]
    settings = VllmSettings(revision=REVISION, source={"type": "s3"})
    job = written(tmp_path, "job", weights_copy.job_name("vllm-server", settings))
    assert policy["policyTypes"] == ["Ingress", "Egress"] and "ingress" not in policy
    assert {"ports": [{"protocol": "TCP", "port": 443}]} in policy["egress"]
    assert {"to": [{"ipBlock": {"cidr": "169.254.170.23/32"}}], "ports": [{"protocol": "TCP", "port": 80}]} in policy[
        "egress"
    ]
    selected = policy["podSelector"]["matchLabels"]
    assert selected.items() <= job["spec"]["template"]["metadata"]["labels"].items()
    server = written(tmp_path, "networkpolicy", "vllm-server")["spec"]["podSelector"]["matchLabels"]
    assert not server.items() <= job["spec"]["template"]["metadata"]["labels"].items()


def test_the_server_waits_for_the_marker_and_reads_the_revisions_prefix(seeded, tmp_path):
    deployment = written(tmp_path, "deployment", "vllm-server")
    pod = deployment["spec"]["template"]["spec"]
    [init] = pod["initContainers"]
    settings = VllmSettings(revision=REVISION, source={"type": "s3"})

    assert init["command"][2] == "wait" and init["image"] == settings.image
    assert init["command"][init["command"].index("--timeout") + 1] == str(WAIT_SECONDS)
    assert {"name": "weights-copy", "configMap": {"name": "vllm-server-weights-copy"}} in pod["volumes"]
    args = pod["containers"][0]["args"]
    assert args[0] == f"s3://{BUCKET}/{PREFIX}" and "--revision" not in args
    # 900 s for a node and the image (manifests.SCHEDULING_AND_PULL_SECONDS), the 1800 s startup budget, and the wait.
    assert deployment["spec"]["progressDeadlineSeconds"] == 900 + 1800 + WAIT_SECONDS == 4800
    [start] = seeded["coldStart"]
    [stream] = [step for step in start["steps"] if step["step"] == "weights stream from S3 to the GPUs"]
    # g5.xlarge's 2.5 Gbps baseline, under 8 connections of 85 MB/s.
    assert stream["arithmetic"].startswith("15.22 GB / 312.5 MB/s, network")
    assert start["weightsCopy"]["step"] == cold_start.WEIGHTS_COPY_STEP
    assert start["weightsCopy"]["waitSeconds"] == WAIT_SECONDS
    # On the dev stack's m6i.large system node, three files at once: the pull 288 s, then the slowest of the download
    # and upload (15.22 GB / 97.6 MB/s, the node's 781 Mbps baseline: 155.9 s each) and the volume writing and
    # reading every byte (30.44 GB / 131.1 MB/s, gp3's included 125 MiB/s: 232.2 s): 520.2 s.
    assert start["weightsCopy"]["seconds"] == pytest.approx(520.2, abs=0.05)
    assert start["weightsCopy"]["seconds"] < start["weightsCopy"]["waitSeconds"]


def test_pulumi_waits_for_the_job_and_the_rollout_as_long_as_each_may_take():
    """The Job: its 1800 s deadline and the 300 s scheduling margin, 2100 s = 35 min. The Deployment: its 4800 s
    progress deadline and 5 minutes, 5100 s = 85 min (components/vllm/server.py)."""
    run = run_stack(merge(dev_stack_config(), SEEDED))
    [job] = run.of_type(JOB)
    [deployment] = [r for r in run.of_type(DEPLOYMENT) if r.name.endswith("-vllm-deployment")]

    assert job.custom_timeouts == {"create": "35m", "update": "35m"}
    assert deployment.custom_timeouts == {"create": "85m", "update": "85m"}


def test_a_large_models_copy_may_run_twice_its_estimate():
    """Llama-3.3-70B, 70.56e9 parameters x 2 bytes = 141.12 GB on the default m6i.large system node, three files at
    once: the pull 288 s, then the slowest leg, the gp3 volume writing and reading 282.24 GB at its included
    125 MiB/s = 2153.3 s (the download and upload at the node's 781 Mbps baseline take 1445.5 s each); 2441.3 s,
    twice that 4882.6, rounded up: 4883 s, over the 1800 s floor. The server waits 300 s more."""
    settings = VllmSettings(model="meta-llama/Llama-3.3-70B-Instruct", revision=REVISION, source={"type": "s3"})

    job = weights_copy.job("vllm", settings, "vllm-server", has_token=False, token_secret="")
    command = weights_copy.wait_container(settings)["command"]

    assert job["spec"]["activeDeadlineSeconds"] == 4883
    assert command[command.index("--timeout") + 1] == "5183"


def test_a_new_revision_is_a_new_job_and_a_given_bucket_is_not_written_by_default(capsys, tmp_path):
    first = VllmSettings(revision=REVISION, source={"type": "s3"})
    second = VllmSettings(revision="b" * 40, source={"type": "s3"})
    assert weights_copy.job_name("vllm-server", first) != weights_copy.job_name("vllm-server", second)
    assert len(weights_copy.job_name("x" * 63, first)) <= 63

    code, document = plan(capsys, tmp_path, {"vllm": {"source": {"type": "s3", "bucket": "team-models"}}})
    assert code == 0, document["failures"]
    assert not [resource for resource in document["resources"] if resource["type"] == JOB]
    assert "initContainers" not in written(tmp_path, "deployment", "vllm-server")["spec"]["template"]["spec"]


def test_with_a_hub_token_the_job_reads_the_servers_secret_from_a_file():
    settings = VllmSettings(revision=REVISION, source={"type": "s3"})
    job = weights_copy.job("vllm", settings, "vllm-server", has_token=True, token_secret="vllm-server-hf-token")
    pod = job["spec"]["template"]["spec"]
    [container] = pod["containers"]
    assert {"name": "HF_TOKEN_PATH", "value": "/var/run/secrets/huggingface/token"} in container["env"]
    [volume] = [volume for volume in pod["volumes"] if volume["name"] == "hf-token"]
    assert volume["secret"]["secretName"] == "vllm-server-hf-token"


def test_verdict_15_fails_a_server_that_waits_less_than_the_copy_takes():
    copy_step = system_nodes.weights_copy_step(15e9, ["m6i.large"])
    entry = ColdStart("m", "pool", (), False, 1800.0, None, weights_copy=copy_step, weights_wait=copy_step.seconds - 1)

    verdict, _ = cold_start_verdict([entry])
    assert not verdict.passed and "weights copy to S3 takes about" in verdict.message
    verdict, _ = cold_start_verdict([ColdStart("m", "pool", (), False, 1800.0, None, weights_copy=copy_step)])
    assert not verdict.passed and "does not wait for it" in verdict.message
    waits = ColdStart("m", "pool", (), False, 1800.0, None, weights_copy=copy_step, weights_wait=copy_step.seconds)
    assert cold_start_verdict([waits])[0].passed


def registered(document: dict, type_token: str) -> list[dict]:
    return [resource for resource in document["resources"] if resource["type"] == type_token]


def test_the_cold_start_report_shows_the_copy_with_the_init_containers_wait(capsys, tmp_path):
    stack_file = tmp_path / "Pulumi.seed.yaml"
    config = {f"{PROJECT}:{key}": value for key, value in merge(dev_stack_config(), SEEDED).items()}
    stack_file.write_text(yaml.safe_dump({"config": {"aws:region": "us-west-2", **config}}))
    args = ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out")]

    assert main(args) == 0
    [row] = [line for line in capsys.readouterr().out.splitlines() if cold_start.WEIGHTS_COPY_STEP in line]
    assert row.endswith(f"no: the init container waits up to {WAIT_SECONDS} s")


def test_in_the_fleet_form_each_seeded_model_has_a_job_of_its_own(capsys, tmp_path):
    document = yaml.safe_load((ROOT / "examples" / "fleet" / "Pulumi.fleet.yaml").read_text())
    models = document["config"][f"{PROJECT}:models"]
    for model in models[:2]:
        model.update(source={"type": "s3"}, revision=REVISION)
    stack_file = tmp_path / "Pulumi.fleet.yaml"
    stack_file.write_text(yaml.safe_dump(document))
    args = ["plan", "--project-dir", str(ROOT), "--stack-file", str(stack_file), "--out", str(tmp_path / "out")]
    code = main([*args, "--format", "json"])
    planned = json.loads(capsys.readouterr().out)

    assert code == 0, planned["failures"]
    jobs = [resource for resource in planned["resources"] if resource["type"] == JOB]
    assert sorted(job["name"] for job in jobs) == [
        "gpu-fleet-vllm-llama-8b-weights-copy",
        "gpu-fleet-vllm-qwen-1-5b-weights-copy",
    ]
    waits = {start["model"].split(" ")[0]: start["weightsCopy"] is not None for start in planned["coldStart"]}
    assert waits == {
        models[0]["name"]: True,
        models[1]["name"]: True,
        models[2]["name"]: False,
        models[3]["name"]: False,
    }


def test_the_server_and_the_copy_job_start_after_the_pod_identity_agent_they_take_credentials_from():
    run = run_stack(merge(dev_stack_config(), {"vllm": {"source": {"type": "s3"}}}))
    [agent] = [addon for addon in run.of_type(ADDON) if addon.inputs["addonName"] == "eks-pod-identity-agent"]
    [server] = [d for d in run.of_type(DEPLOYMENT) if d.inputs["metadata"]["name"] == "vllm-server"]
    [job] = run.of_type(JOB)
    assert agent.urn in server.dependencies
    assert agent.urn in job.dependencies
