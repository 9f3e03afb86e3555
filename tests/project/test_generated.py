"""Every input is declared once (its settings field, or its concern's inputs.py), and the files derived from the
declaration hold what it gives: the args classes, Pulumi.yaml's config declarations, the configuration and
components reference pages (docs/reference/) and the package schema. `scripts/generate.py` writes them; its check fails naming the
command while one is out of date."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import shutil
from pathlib import Path

import pytest
import yaml

from components.args.declare import Args, Own, Take
from components.facts import versions
from components.pools.args import GpuNodeGroupArgs
from components.settings import GpuNodeGroupSettings, NetworkSettings, ObservabilitySettings, VllmSettings
from components.settings.section import SectionModel
from components.settings.stack import COLLECTIONS, SECRET_KEYS, SECTIONS
from components.vllm.args import VllmServerArgs
from scripts import generate, generate_args
from scripts.generate_args import STACK_ONLY, DeclarationError, class_docstrings, settings_fields

ROOT = Path(__file__).resolve().parents[2]
COMMAND = "python scripts/generate.py"


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A copy of the derived files, to make stale."""
    for name in (
        "Pulumi.yaml",
        "docs/reference/configuration.md",
        "docs/reference/components.md",
        "plugin/schema.json",
        "components/observability/dashboards/gpu-inference-alerts.yaml",
        "docs/reference/verdicts.md",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    for path in generate_args.generated_args(ROOT):
        copy = tmp_path / path.relative_to(ROOT)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, copy)
    return tmp_path


def stray_args_module(checkout: Path) -> Path:
    """A generated args module no declaration names any more, left in `checkout`'s vLLM folder."""
    stray = checkout / "components" / "vllm" / "old_args.py"
    stray.write_text(f'"""Args of a removed component.\n\n{generate_args.GENERATED_MARKER}.\n"""\n')
    return stray


def test_every_derived_file_is_what_the_declaration_gives():
    assert generate.check() == []


def test_a_stale_derived_file_fails_naming_the_command_that_updates_it(checkout):
    module = checkout / "components" / "cluster" / "args.py"
    module.write_text(module.read_text().replace("Default 3.", "Default 4."))
    (checkout / "Pulumi.yaml").write_text((checkout / "Pulumi.yaml").read_text().replace("natGateways", "nat"))
    stray = stray_args_module(checkout)

    problems = generate.check(checkout)

    assert problems == [
        f"{module} differs from what the settings and the input declarations give now; update it with `{COMMAND}` "
        "and commit it",
        f"{checkout / 'Pulumi.yaml'} differs from what the settings and the input declarations give now; update it "
        f"with `{COMMAND}` and commit it",
        f"{stray} is no args module the input declarations name; remove it",
    ]


def test_the_verdict_reference_is_written_from_the_registry_and_a_stale_one_names_it(checkout):
    page = checkout / "docs" / "reference" / "verdicts.md"
    # The report's numbers and slugs (`PASS  1 gpu-workloads-land-on-gpu-pools`), one row each, in order.
    rows = [line.split(" | ")[:2] for line in page.read_text().splitlines() if line.startswith("| ") and "`" in line]
    assert rows[0] == ["| 1", "`gpu-workloads-land-on-gpu-pools`"]
    assert rows[-1] == ["| 25", "`node-replacement-keeps-models-serving`"]
    assert [row[0] for row in rows] == [f"| {number}" for number in range(1, 26)]
    page.write_text(page.read_text().replace("`cost-within-budget`", "`cost-under-budget`"))

    assert generate.check(checkout) == [
        f"{page} differs from what components/placement/verdicts.py gives now; update it with `{COMMAND}` and commit it"
    ]
    assert generate.main([], root=checkout) == 0
    assert page.read_text() == (ROOT / "docs" / "reference" / "verdicts.md").read_text()


def test_check_mode_exits_1_and_names_the_command_when_the_schema_differs(checkout, capsys):
    (checkout / "plugin" / "schema.json").write_text("{}\n")

    assert generate.main(["--check"], root=checkout) == 1
    assert f"update it with `{COMMAND}` and commit it" in capsys.readouterr().err


def test_write_mode_brings_every_derived_file_up_to_date(checkout):
    reference = checkout / "docs" / "reference" / "configuration.md"
    reference.write_text(reference.read_text().replace("| `cluster.name` |", "| `cluster.nom` |"))
    components_page = checkout / "docs" / "reference" / "components.md"
    components_page.unlink()
    (checkout / "plugin" / "schema.json").write_text("{}\n")
    stray = stray_args_module(checkout)
    hand_written = checkout / "components" / "vllm" / "notes.py"
    hand_written.write_text('"""A module of the vLLM folder that no generator wrote."""\n')

    assert generate.main([], root=checkout) == 0

    assert generate.check(checkout) == []
    assert reference.read_text() == (ROOT / "docs" / "reference" / "configuration.md").read_text()
    assert components_page.read_text() == (ROOT / "docs" / "reference" / "components.md").read_text()
    assert not stray.exists()
    assert hand_written.exists()


def test_the_schema_is_analysed_afresh_only_when_args_this_interpreter_imported_were_rewritten(checkout):
    import components.cluster.args  # noqa: F401 the args this interpreter has imported

    args = ROOT / "components" / "cluster" / "args.py"
    page = ROOT / "docs" / "reference" / "configuration.md"
    assert generate.imported_args_rewritten([page, args])
    assert not generate.imported_args_rewritten([page])
    assert not generate.imported_args_rewritten([checkout / "components" / "cluster" / "args.py"])


def test_an_args_field_taken_from_a_setting_is_plain_optional_and_documented_by_the_settings_field():
    setting = {field.name: field for field in settings_fields(GpuNodeGroupSettings)}["disk_size"]
    (field,) = [field for field in dataclasses.fields(GpuNodeGroupArgs) if field.name == "disk_size"]

    assert (field.type, field.default) == (int | None, None)
    assert class_docstrings(GpuNodeGroupArgs)["disk_size"] == (
        f"Plain. {setting.description} Default {GpuNodeGroupSettings.model_fields['disk_size'].default}."
    )


def test_a_component_default_other_than_the_stack_configs_is_the_components_own_sentence():
    description = {field.name: field for field in settings_fields(VllmSettings)}["namespace"].description

    assert class_docstrings(VllmServerArgs)["namespace"] == f"Plain. {description} Default: the component name."


def test_pulumi_yaml_declares_every_top_level_key_with_the_secrets_marked():
    config = yaml.safe_load((ROOT / "Pulumi.yaml").read_text())["config"]

    assert list(config) == [*SECTIONS, *COLLECTIONS, *SECRET_KEYS]
    assert all(config[key]["type"] == "object" for key in SECTIONS)
    assert all(config[key] == {**config[key], "type": "string", "secret": True} for key in SECRET_KEYS)
    assert "amiFamily (AL2023|Bottlerocket)" in config["gpuNodeGroup"]["description"]


def test_the_configuration_reference_gives_every_key_its_default_from_the_settings():
    reference = (ROOT / "docs" / "reference" / "configuration.md").read_text()
    rows = dict(re.findall(r"^\| `([^`]+)` \| (.*?) \| .* \|$", reference, re.M))

    assert rows["cluster.version"] == f"`{versions.DEFAULT_KUBERNETES_VERSION}`"
    assert rows["gpuNodeGroup.diskSize"] == str(GpuNodeGroupSettings.model_fields["disk_size"].default)
    assert rows["systemNodeGroup.diskSize"] == "100"
    # A default the settings compute is given in the words of the field's docstring.
    assert rows["vllm.modelCache.size"].startswith("the model's weights and a tenth more, in whole GiB")
    assert rows["gpuNodeGroup.extraTaints[].key"] == "required"
    assert {f"network.{field.key}" for field in settings_fields(NetworkSettings)} <= set(rows)
    assert {"hfToken", "vllmApiKey"} <= set(rows)


def test_the_components_reference_gives_each_field_the_annotation_and_docstring_of_its_args_class():
    page = (ROOT / "docs" / "reference" / "components.md").read_text()
    section = page.split("### `GpuNodeGroup`\n", 1)[1].split("\n### ", 1)[0]
    # The class as its generated source spells it: each field's annotation and the docstring under it.
    (body,) = ast.parse(inspect.getsource(GpuNodeGroupArgs)).body
    annotations = {
        node.target.id: ast.unparse(node.annotation) for node in body.body if isinstance(node, ast.AnnAssign)
    }
    docstrings = class_docstrings(GpuNodeGroupArgs)

    assert "`eks-gpu-inference:index:GpuNodeGroup`, in `components/pools/gpu_node_group.py`" in section
    assert annotations["cluster_name"] == "pulumi.Input[str]"
    assert [line.split("`")[1] for line in section.splitlines() if line.startswith("- `")] == list(annotations)
    for name, annotation in annotations.items():
        assert f"- `{name}` (`{annotation}`): {docstrings[name]}" in section


def test_the_components_reference_has_a_section_for_every_component_the_package_hosts():
    from plugin.host import components

    page = (ROOT / "docs" / "reference" / "components.md").read_text()
    names = [component.__name__ for component in components()]

    assert {"Network", "GpuNodeGroup", "KarpenterNodePool", "VllmServer"} <= set(names)
    for name in names:
        assert f"### `{name}`\n" in page, name
        assert f"its args are `{name}Args`" in page


class _Repeats(SectionModel):
    size: int = 3
    """How many. Default 3."""


class _Unexplained(SectionModel):
    size: int | None = None
    """How many."""


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (_Repeats, "_Repeats.size: its docstring repeats the default 3, which the value states"),
        (_Unexplained, "_Unexplained.size: the default is None: end the docstring with a sentence `Default: "),
    ],
    ids=["a literal default repeated", "a None default left unexplained"],
)
def test_a_field_whose_docstring_breaks_the_default_rule_is_named(model, message):
    with pytest.raises(DeclarationError) as raised:
        settings_fields(model)

    assert message in str(raised.value)


def test_a_settings_field_no_component_takes_must_be_listed_stack_only(monkeypatch):
    # The exporter and the monitors take some of the section's fields by name, none takes this one.
    monkeypatch.setitem(STACK_ONLY, ObservabilitySettings, ("dcgm_exporter",))

    assert generate_args.declaration_problems() == [
        "ObservabilitySettings: ['prometheusOperator', 'prometheus'] are inputs of no component; take them in an args class of "
        "its concern's inputs.py, or list them in that module's STACK_ONLY"
    ]


def test_an_input_only_components_have_may_not_share_a_name_with_a_field_of_a_model_its_class_takes(monkeypatch):
    clash = Args("ClashArgs", "network", "A clash.", (Take(NetworkSettings), Own("mode", "str | None", "Default x.")))
    monkeypatch.setattr(generate_args, "ARGS", (*generate_args.ARGS, clash))

    assert (
        "ClashArgs: ['mode'] would be checked as NetworkSettings fields but are not"
        in generate_args.declaration_problems()
    )


class _Grown(SectionModel):
    size: int = 3
    """How many."""
    colour: str = "red"
    """The colour, added later."""


def test_a_field_added_to_a_settings_model_becomes_a_field_of_each_args_class_that_takes_the_model(monkeypatch):
    grown = Args(
        "GrownArgs", "grown/args", "Inputs of a component.", (Own("name", "str | None", "Default: none."), Take(_Grown))
    )
    monkeypatch.setattr(generate_args, "ARGS", (grown,))
    monkeypatch.setattr(generate_args, "declaration_problems", list)

    source = generate_args.args_modules()["components/grown/args.py"]
    namespace: dict = {}
    # Compiled without this module's `from __future__ import annotations`, as the generated module is.
    exec(compile(source, "grown.py", "exec", dont_inherit=True), namespace)

    fields = {field.name: field for field in dataclasses.fields(namespace["GrownArgs"])}
    assert list(fields) == ["name", "size", "colour"]
    assert (fields["colour"].type, fields["colour"].default) == (str | None, None)


@pytest.mark.parametrize(
    ("importer", "imported", "written"),
    [
        # From components/pools/karpenter/ up two packages to components/, then down into args/.
        pytest.param("pools/karpenter/args", "args/placement", "...args.placement", id="two-up"),
        pytest.param("vllm/args", "args/placement", "..args.placement", id="one-up"),
        pytest.param("pools/auto_mode/args", "pools/args", "..args", id="into-a-parent"),
        pytest.param("pools/args", "pools/karpenter/args", ".karpenter.args", id="into-a-child"),
    ],
)
def test_a_generated_args_module_imports_another_relatively_from_its_own_folder(importer, imported, written):
    assert generate_args.relative_import(importer, imported) == written


def test_every_concerns_declaration_is_found_and_the_plans_record_of_inputs_is_not():
    """Each concern keeps its inputs in its own folder; the plan's `stackcheck/plan/inputs.py` records registered
    inputs and declares none."""
    assert generate_args.declaration_modules() == [
        "components.args.inputs",
        "components.autoscaling.inputs",
        "components.cluster.inputs",
        "components.gpu_agents.inputs",
        "components.observability.inputs",
        "components.pools.auto_mode.inputs",
        "components.pools.inputs",
        "components.pools.karpenter.inputs",
        "components.vllm.inputs",
        "components.vllm.queue.inputs",
    ]


def test_a_new_concerns_declaration_is_found_without_being_listed(tmp_path):
    for folder in ("queue", "stackcheck/plan"):
        (tmp_path / "components" / folder).mkdir(parents=True)
        (tmp_path / "components" / folder / "inputs.py").write_text("ARGS = ()\n")
    assert generate_args.declaration_modules(tmp_path) == ["components.queue.inputs"]
