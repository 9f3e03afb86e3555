"""The commands and configuration the README and docs/ show are ones the tools accept: every `eks-gpu-plan`,
`eks-gpu-audit` and `eks-gpu-batch` line of their shell blocks parses with the command's own parser, the alert-rules command prints
rules, and the weights page's stack config is a valid `vllm` section that copies the weights as the page says.
(The audit's example and the library's programs run whole in tests/audit/test_audit_example.py and
tests/args/test_component_readme.py.)"""

from __future__ import annotations

import re
import shlex

import pytest
import yaml
from conftest import ROOT

from components.observability.alert_rules import main as alert_rules_main
from components.settings import parse_settings
from components.stackcheck.__main__ import build_audit_command_parser, build_plan_command_parser
from components.vllm.queue.batch import build_parser as build_batch_parser

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
PARSERS = {
    "eks-gpu-plan": build_plan_command_parser,
    "eks-gpu-audit": build_audit_command_parser,
    "eks-gpu-batch": build_batch_parser,
}


def shell_blocks(text: str) -> list[str]:
    return re.findall(r"^ *```bash\n(.*?)^ *```", text, re.S | re.M)


def tool_commands() -> list[tuple[str, str, str]]:
    """(document, tool, the command's text after the tool's name) for every shell line that runs a tool."""
    found = []
    for path in DOCUMENTS:
        for block in shell_blocks(path.read_text(encoding="utf-8")):
            for line in block.replace("\\\n", " ").splitlines():
                for step in line.split("&&"):
                    words = step.split("#", 1)[0].split(None, 1)
                    tool = words[0].rsplit("/", 1)[-1] if words else ""
                    if tool in PARSERS:
                        found.append((str(path.relative_to(ROOT)), tool, words[1].strip() if len(words) > 1 else ""))
    return found


def as_arguments(synopsis: str) -> list[str]:
    """A command's arguments as a user would type them: a synopsis's optional parts (`[--format text|json]`) given,
    the first of alternatives taken, a redirection of its output left out."""
    text = re.sub(r"\[([^\]]*)\]", r"\1", synopsis.split(">", 1)[0])
    return [word.split("|", 1)[0] for word in shlex.split(text)]


COMMANDS = tool_commands()


def test_the_documents_show_every_tool():
    assert {tool for _, tool, _ in COMMANDS} == set(PARSERS)
    assert ("README.md", "eks-gpu-plan", "--stack dev") in COMMANDS


@pytest.mark.parametrize(("document", "tool", "command"), COMMANDS, ids=[f"{d}: {t} {c}" for d, t, c in COMMANDS])
def test_every_command_shown_is_one_its_tool_accepts(document, tool, command):
    PARSERS[tool]().parse_args(as_arguments(command))


def test_a_misspelt_option_would_fail_the_check():
    with pytest.raises(SystemExit):
        build_plan_command_parser().parse_args(as_arguments("--stack dev [--fromat json]"))


def test_the_alert_rules_command_the_observability_page_shows_prints_rules(capsys):
    page = (ROOT / "docs" / "observability.md").read_text(encoding="utf-8")
    (command,) = re.findall(r"`\.venv/bin/python -m components\.observability\.alert_rules ([^`]*)`", page, re.S)
    filled = {"<x>": "0.9", "<n>": "2", "<served\nname>": "qwen", "<served name>": "qwen"}
    for placeholder, value in filled.items():
        command = command.replace(placeholder, value)

    assert alert_rules_main(shlex.split(command)) == 0
    rules = yaml.safe_load(capsys.readouterr().out)
    assert 'model_name="qwen"' in str(rules)


def test_the_weights_page_config_is_a_vllm_section_that_copies_the_pinned_revision_to_a_new_bucket():
    page = (ROOT / "docs" / "weights.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"^```yaml\n(.*?)^```", page, re.S | re.M)
    commit = "a09a35458c702b33eeacc393d103063234e8bc28"  # the dev stack's pinned revision (Pulumi.dev.yaml)
    section = yaml.safe_load(block.replace("<commit id>", commit))["eks-gpu-inference:vllm"]

    vllm = parse_settings({"vllm": section}).vllm

    # The page: without `source.bucket` the stack creates one, and the copy Job runs when the revision is a commit.
    assert vllm.source.type == "s3" and vllm.source.bucket is None and vllm.seeds
    assert vllm.revision == commit


def test_the_queue_page_config_feeds_a_server_from_a_queue_at_zero_replicas():
    page = (ROOT / "docs" / "queue.md").read_text(encoding="utf-8")
    block = re.findall(r"^```yaml\n(.*?)^```", page, re.S | re.M)[0]
    section = yaml.safe_load(block)["eks-gpu-inference:vllm"]

    vllm = parse_settings({"vllm": section}).vllm

    assert vllm.queue.enabled and vllm.queue.request_timeout_seconds == 900
    assert vllm.autoscaling.min_replicas == 0 and not vllm.autoscaling.enabled
    assert vllm.scales
