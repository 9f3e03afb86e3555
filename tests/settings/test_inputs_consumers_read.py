"""Settings whose value another program reads, checked by that program's rules: a revision as git names refs and
as IAM reads the default S3 prefix it makes, the namespaces every cluster starts with, a Prometheus URL that would
carry a secret, and an AMP workspace ARN against the regions where the service runs.

Each refused row names the key the user wrote and the source of the rule beside it.
"""

from __future__ import annotations

import subprocess

import pytest

from components.settings import PROJECT, ConfigError, parse_settings, parse_stack_config
from components.settings.model_source import is_git_ref

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _problems(values: dict) -> dict[str, str]:
    with pytest.raises(ConfigError) as error:
        parse_settings(values)
    return {problem.key: problem.message for problem in error.value.problems}


# git's own answer, from `git check-ref-format --allow-onelevel` (git-check-ref-format(1): a ref may be one level,
# as the Hub's `main` and `v1.0` are); the expected column is what the man page's rules say, row by row.
REFS = [
    pytest.param("main", True, id="a branch"),
    pytest.param("v1.0", True, id="a tag with a dot"),
    pytest.param("refs/pr/1", True, id="a pull request ref, as the Hub names them"),
    pytest.param(COMMIT, True, id="a commit id"),
    pytest.param("a..b", False, id="rule 3: two consecutive dots"),
    pytest.param("a\x01b", False, id="rule 4: a control character"),
    pytest.param("a\x7fb", False, id="rule 4: DEL"),
    pytest.param("a b", False, id="rule 4: a space"),
    pytest.param("a~1", False, id="rule 4: a tilde"),
    pytest.param("a*", False, id="rule 5: an asterisk"),
    pytest.param("a?", False, id="rule 5: a question mark"),
    pytest.param("a[b", False, id="rule 5: an open bracket"),
    pytest.param("a//b", False, id="rule 6: two slashes"),
    pytest.param("/a", False, id="rule 6: a leading slash"),
    pytest.param("a.", False, id="rule 7: a trailing dot"),
    pytest.param("a@{b", False, id="rule 8: @{"),
    pytest.param("@", False, id="rule 9: @ alone"),
    pytest.param("a\\b", False, id="rule 10: a backslash"),
    pytest.param(".a", False, id="rule 1: a part starting with a dot"),
    pytest.param("a.lock", False, id="rule 1: a part ending .lock"),
    pytest.param("a$b", True, id="a dollar sign, which git allows"),
]


@pytest.mark.parametrize(("revision", "is_ref"), REFS)
def test_a_revision_is_checked_as_git_checks_a_ref_name(revision, is_ref):
    git = subprocess.run(["git", "check-ref-format", "--allow-onelevel", revision], capture_output=True, check=False)
    assert (git.returncode == 0) is is_ref
    assert is_git_ref(revision) is is_ref


@pytest.mark.parametrize("revision", [pytest.param(r, id=p.id) for p in REFS for r, ok in [p.values] if not ok and r])
def test_a_revision_no_git_ref_can_hold_is_refused_naming_vllm_revision(revision):
    message = _problems({"vllm": {"revision": revision}})["vllm.revision"]
    assert message.startswith(f"not a git ref: {revision!r}; allowed: a commit id (40 hex digits) or a tag or branch")


def test_a_blank_revision_is_refused_whole():
    # git-check-ref-format(1), rule 4: no space in a ref name.
    assert _problems({"vllm": {"revision": "  "}}) == {
        "vllm.revision": "not a git ref: '  '; allowed: a commit id (40 hex digits) or a tag or branch as git names "
        "refs: no space, control character, '~', '^', ':', '?', '*', '[' or '\\', no '..' or '@{', no part starting "
        "with '.' or ending '.lock', no empty part, not ending '.'"
    }


@pytest.mark.parametrize(
    ("revision", "why"),
    [
        # IAM User Guide, "IAM JSON policy elements: Resource": `*` and `?` are wildcards in a resource ARN; "IAM
        # policy elements: Variables and tags": `${...}` is a policy variable. git allows `$` in a ref.
        pytest.param("v$1", "'$' opens a policy variable", id="a dollar sign"),
        pytest.param("release/${userid}", "'$' opens a policy variable", id="a policy variable itself"),
    ],
)
def test_a_revision_that_widens_the_default_s3_prefix_is_refused_naming_vllm_revision(revision, why):
    problems = _problems({"vllm": {"revision": revision, "source": {"type": "s3"}}})
    assert list(problems) == ["vllm.revision"]
    assert f"makes the default source.prefix 'Qwen/Qwen2.5-7B-Instruct/{revision}'" in problems["vllm.revision"]
    assert why in problems["vllm.revision"]


def test_the_same_revision_is_accepted_with_a_prefix_given_or_from_the_hub():
    given = parse_settings({"vllm": {"revision": "v$1", "source": {"type": "s3", "prefix": "models/qwen"}}})
    assert given.vllm.weights_prefix == "models/qwen"
    assert parse_settings({"vllm": {"revision": "v$1"}}).vllm.revision == "v$1"


def test_a_fleet_models_revision_is_checked_under_its_own_key():
    problems = _problems({"models": [{"name": "chat", "model": "gpt2", "revision": "a..b"}]})
    assert problems["models.0.revision"].startswith("not a git ref: 'a..b'")


@pytest.mark.parametrize("namespace", ["default", "kube-system", "kube-public", "kube-node-lease"])
def test_a_namespace_every_cluster_has_is_never_registered_by_the_installed_prometheus(namespace):
    # Kubernetes docs, "Namespaces": the four initial namespaces.
    problems = _problems({"observability": {"monitoringNamespace": namespace, "prometheus": {"install": True}}})
    assert problems["observability.monitoringNamespace"].startswith(
        f"{namespace!r} with prometheus.install true, which creates the namespace"
    )
    assert "allowed: a namespace of its own such as 'monitoring'" in problems["observability.monitoringNamespace"]


def test_a_prometheus_of_the_users_may_live_in_kube_system():
    settings = parse_settings({"observability": {"monitoringNamespace": "kube-system", "prometheusOperator": True}})
    assert settings.observability.monitoring_namespace == "kube-system"


@pytest.mark.parametrize("namespace", ["default", "kube-system", "kube-public", "kube-node-lease"])
def test_a_server_namespace_every_cluster_has_is_refused(namespace):
    assert "system namespace" in _problems({"vllm": {"namespace": namespace}})["vllm.namespace"]


@pytest.mark.parametrize(
    "url",
    [
        # RFC 3986, section 3.2.1: user information ends at the last `@` of the authority.
        pytest.param("https://user:s3cret@prometheus.example.com", id="user and password"),
        pytest.param("http://token@prometheus.monitoring:9090", id="a user name alone"),
        pytest.param("https://a:b@c@prometheus.example.com/api", id="an @ inside the password"),
    ],
)
def test_credentials_in_the_prometheus_url_are_refused_and_never_echoed(url):
    message = _problems({"observability": {"prometheus": {"url": url}}})["observability.prometheus.url"]
    assert message.startswith("credentials in the URL '")
    assert "***@prometheus." in message
    assert "s3cret" not in message and "token@" not in message and ":b@" not in message
    assert "TriggerAuthentication" in message and "ampWorkspace" in message


@pytest.mark.parametrize("url", ["http://prometheus.monitoring:99999", "http://[zz]:9090"])
def test_a_url_python_cannot_split_is_refused_not_raised(url):
    assert (
        "an http:// or https:// URL"
        in _problems({"observability": {"prometheus": {"url": url}}})["observability.prometheus.url"]
    )


def _amp(arn: str, region: str = "us-west-2"):
    return parse_stack_config({"aws:region": region, f"{PROJECT}:observability": {"prometheus": {"ampWorkspace": arn}}})


@pytest.mark.parametrize(
    ("arn_region", "accepted"),
    [
        # botocore 1.44.8 data/endpoints.json, service `aps`: endpoints in us-west-2 and eu-central-1; none in
        # us-nowhere-1 (no such region) nor in cn-north-1 (the aws-cn partition lists no aps endpoint).
        pytest.param("us-west-2", True, id="the stack's region"),
        pytest.param("eu-central-1", True, id="another region of the partition"),
        pytest.param("us-nowhere-1", False, id="no such region"),
        pytest.param("us-west-2a", False, id="a zone"),
    ],
)
def test_an_amp_workspace_arn_names_a_region_where_the_service_runs(arn_region, accepted):
    arn = f"arn:aws:aps:{arn_region}:123456789012:workspace/ws-1"
    if accepted:
        assert _amp(arn).observability.prometheus.amp_workspace == arn
        return
    with pytest.raises(ConfigError) as error:
        _amp(arn)
    (problem,) = error.value.problems
    assert problem.key == "observability.prometheus.ampWorkspace"
    assert f"names region {arn_region!r}, where Amazon Managed Service for Prometheus has no endpoint" in (
        problem.message
    )


_POOLS = {"gpuPools": {"l4": {"instanceTypes": ["g6.xlarge"]}}}


@pytest.mark.parametrize("name", ["default", "kube-system", "kube-public", "kube-node-lease"])
def test_a_model_named_like_a_namespace_every_cluster_has_is_refused_naming_its_name(name):
    # The namespace defaults to the model's name (docs/fleet.md), so the key the user wrote is `name`.
    problems = _problems({**_POOLS, "models": [{"name": name, "model": "gpt2"}]})
    assert list(problems) == ["models.0.name"]
    assert problems["models.0.name"].startswith(f"{name!r} would name the model's namespace (namespace is not set)")
    assert problems["models.0.name"].endswith("allowed: another name, or namespace set to one of its own")


def test_the_same_name_with_a_namespace_of_its_own_is_accepted():
    settings = parse_settings(
        {**_POOLS, "models": [{"name": "default", "namespace": "chat", "model": "gpt2", "pool": "l4"}]}
    )
    assert [server.settings.namespace for server in settings.servers] == ["chat"]
