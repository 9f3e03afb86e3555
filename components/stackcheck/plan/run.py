"""The offline plan of a stack: what `pulumi preview` would register, rendered, validated and placed.

`run_plan` loads the project and stack files (stackcheck/stack_config.py), checks the config with the program's own settings
model, runs `__main__.py` under Pulumi mocks, writes every Kubernetes object as YAML, validates
them against the cluster version's schema, and models where each workload lands on the node
groups. It returns a `PlanResult`; `stackcheck.plan.report` turns that into text, markdown or JSON.

The Pulumi SDKs, kubernetes-validate and the placement model are imported inside the steps that
use them: an invalid config is reported before any of them loads.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...facts.resource_types import CLUSTER_TYPES
from ...facts.resource_types import STACK as STACK_TYPE
from ..stack_config import (
    EXIT_FAILED,
    EXIT_INTERNAL,  # noqa: F401 the commands' exit codes, importable from here
    EXIT_INVALID_CONFIG,
    EXIT_OK,
    EXIT_USAGE,  # noqa: F401 the commands' exit codes, importable from here
    InvalidFileError,  # noqa: F401 importable from here
    StackConfig,
    UsageError,
    load_stack_config,
)
from .addons import AddonRow, addon_rows
from .captured_logs import captured_logs

if TYPE_CHECKING:  # the modules behind these types load the SDKs; the plan imports them only when needed
    from ...facts.cold_start import ColdStart
    from ...facts.model_memory import ModelFit
    from ...placement import PlacementRow, Verdict
    from ...placement.evidence import Evidence, Placement
    from ..aws.check import RequestCheck
    from .cost import CostEstimate
    from .render import WrittenFile
    from .schema import SchemaResult

# Version of the JSON document's shape; raised when a field changes meaning or is removed.
JSON_SCHEMA_VERSION = 1
SECRET_OUTPUT = "[secret]"
# What the plan says when the placement model cannot read a workload, before the model's own reason.
_UNREADABLE = "the placement model cannot read the workloads"


@dataclass(frozen=True)
class PlanOptions:
    """What to plan and where to write."""

    project_dir: Path
    """Directory with Pulumi.yaml and the program."""
    stack: str | None = None
    """Stack name. Default: taken from `stack_file` (`Pulumi.<stack>.yaml`), else `dev`."""
    stack_file: Path | None = None
    """Stack config file. Default `<project_dir>/Pulumi.<stack>.yaml`."""
    out_dir: Path | None = None
    """Folder for the YAML files. Default `<project_dir>/out/<stack>`."""
    progress: Callable[[str | None], None] | None = None
    """Called with a short status line before slow steps, and with None when done. Default: silent."""


@dataclass(frozen=True)
class ConfigIssue:
    """One problem with the stack config: the key (inside the project namespace) and the full message."""

    key: str
    message: str


@dataclass(frozen=True)
class ResourceRow:
    """One registered resource, as `pulumi preview` lists it."""

    type: str
    name: str
    urn: str
    parent: str | None
    """URN of the parent; None only for the stack itself."""
    id: str = ""
    """The physical id the mocks gave it (empty for the stack); a resource that takes another's id as an input
    holds this value, which is how the comparison follows a replacement to what depends on it."""
    inputs: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    """What the program registered, keys sorted, secrets redacted (`stackcheck.plan.inputs`); the JSON document
    carries them so that a later plan can be compared with this one."""
    delete_before_replace: bool = False
    """Whether a replacement deletes it before creating the new one (Pulumi's default creates first)."""
    depends_on: tuple[str, ...] = ()
    """URNs its `depends_on` option names (a component as its custom children): the engine creates those first and
    deletes them after it."""
    input_dependencies: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)
    """For each input given another resource's output, the URNs of the resources it came from: ordered the same
    way."""


@dataclass
class PlanResult:
    """Everything one plan found; `exit_code` summarises it."""

    project: str
    stack: str
    stack_file: str
    out_dir: str
    config_problems: list[ConfigIssue] = field(default_factory=list)
    config_title: str = "Invalid stack config"
    """What `config_problems` are about: the stack config, or the arguments a component was given
    (`Invalid arguments to GpuNodeGroup(gpu-a)`)."""
    program_error: str | None = None
    program_traceback: str | None = None
    warnings: list[str] = field(default_factory=list)
    resources: list[ResourceRow] = field(default_factory=list)
    written: list[WrittenFile] = field(default_factory=list)
    """One file per Kubernetes object, in registration order."""
    kubernetes_version: str | None = None
    schema: list[SchemaResult] = field(default_factory=list)
    """The schema check of each written object."""
    node_group_problems: list[str] = field(default_factory=list)
    placement_error: str | None = None
    pools: list[dict[str, Any]] = field(default_factory=list)
    """`stackcheck.plan.pools.pool_summary` per pool, GPUs as the device plugin leaves them."""
    matrix: list[PlacementRow] = field(default_factory=list)
    """Whether each workload lands on each pool, and if not why."""
    verdicts: list[Verdict] = field(default_factory=list)
    """The verdicts of the registry (placement/verdicts.py) the plan could judge, in its order."""
    network_problems: list[str] = field(default_factory=list)
    """Node groups outside the stack's private subnets, or a control plane in fewer than two zones."""
    duplicate_objects: list[str] = field(default_factory=list)
    """Kubernetes objects declared by more than one resource, each naming both (the ownership verdict's failures)."""
    outputs: dict[str, Any] = field(default_factory=dict)
    """The stack outputs the program exports; secret ones are replaced by `SECRET_OUTPUT`."""
    aws_requests: list[RequestCheck] = field(default_factory=list)
    """The create requests of each AWS resource, checked against the AWS API models (`stackcheck.aws.check`)."""
    log_groups: list[dict[str, Any]] = field(default_factory=list)
    """The CloudWatch log groups the stack owns (`stackcheck.plan.control_plane.log_groups`)."""
    not_checked: list[str] = field(default_factory=list)
    """Checks of AWS's answers that the program makes at preview and the mocks cannot answer."""
    addons: list[AddonRow] = field(default_factory=list)
    """The EKS add-ons the stack installs, each with its version and where it came from."""
    models: list[ModelFit] = field(default_factory=list)
    """Each served model on each instance type of its pool: whether it fits the GPUs (`model-fits-gpu`)."""
    cold_start: list[ColdStart] = field(default_factory=list)
    """Each served model's cold start, step by step, against its budgets (`stackcheck.plan.cold_start`;
    `cold-start-fits-its-budget`)."""
    cold_start_trade: list[Any] = field(default_factory=list)
    """Per served model, today's start, the fast profile's and one warm node's, each priced (`cold_start_trade`)."""
    cost: CostEstimate | None = None
    """What the registered resources cost an hour and a month (`stackcheck.plan.cost`; `cost-within-budget`)."""

    @property
    def counts(self) -> dict[str, Any]:
        """Resources in total, per type and per provider package (the type token's first part)."""
        types = Counter(row.type for row in self.resources)
        packages = Counter(row.type.split(":", 1)[0] for row in self.resources)
        return {
            "total": len(self.resources),
            "byPackage": dict(sorted(packages.items())),
            "byType": dict(sorted(types.items())),
        }

    @property
    def failures(self) -> list[str]:
        """Every failed check, one line each, naming it."""
        found = [f"config {problem.message}" for problem in self.config_problems]
        if self.program_error:
            found.append(f"program: {self.program_error}")
        found += [f"node group: {problem}" for problem in self.node_group_problems]
        if self.placement_error:
            found.append(f"placement: {self.placement_error}")
        found += [f"network: {problem}" for problem in self.network_problems]
        found += [f"schema: {result.object_id}: {result.message}" for result in self.schema if not result.passed]
        found += [
            f"verdict {verdict.id} {verdict.name}: {verdict.message}" for verdict in self.verdicts if not verdict.passed
        ]
        found += [f"aws request: {line}" for check in self.aws_requests for line in check.failure_lines()]
        return found

    @property
    def exit_code(self) -> int:
        """2 for an invalid config, 1 when any other check failed, else 0."""
        if self.config_problems:
            return EXIT_INVALID_CONFIG
        return EXIT_FAILED if self.failures else EXIT_OK


def run_plan(options: PlanOptions) -> PlanResult:
    """Plan the stack `options` names; raises `UsageError` when its files cannot be read."""
    progress = options.progress or (lambda message: None)
    try:
        config = load_stack_config(options.project_dir, options.stack, options.stack_file)
        out_dir = options.out_dir or options.project_dir / "out" / config.stack
        if out_dir.exists() and not out_dir.is_dir():
            raise UsageError(f"--out {out_dir} is a file; allowed: a folder (created when missing)")
        result = PlanResult(config.project, config.stack, str(config.stack_file), str(out_dir))
        _import_from(options.project_dir)

        settings, result.config_problems = _settings(config)
        if result.config_problems:
            return result

        progress("loading Pulumi SDKs…")
        from .. import runtime

        progress(f"running {config.program.name} under mocks…")
        run = runtime.ProgramRun()
        _run_program(config, run, result)
        if result.config_problems:
            return result
        result.resources = resource_rows(run.resources, config.project, config.stack)
        result.outputs = {
            key: SECRET_OUTPUT if key in run.secret_outputs else value for key, value in sorted(run.outputs.items())
        }
        if result.program_error:
            return result
        from .network_check import network_problems

        result.network_problems = network_problems(run.resources)
        from .control_plane import log_groups, not_checked_offline

        result.log_groups = log_groups(run.resources)
        result.not_checked = not_checked_offline(run.calls)

        from . import render

        result.kubernetes_version = settings.cluster.version if settings else _cluster_version(run.resources)
        objects = render.kubernetes_objects(run.resources)
        result.warnings += [
            f"{obj.id}: {', '.join(obj.secret_fields)} is secret as a whole (Pulumi marks a field secret when any "
            "value inside it is), so it is written redacted and the schema and placement checks see placeholders; "
            "reference a Secret (secretKeyRef, a secret volume) instead"
            for obj in objects
            if obj.secret_fields
        ]
        result.duplicate_objects = render.duplicate_objects(objects)
        try:
            result.written = render.write_objects(objects, out_dir)
        except OSError as error:  # a folder the user named that cannot be written: theirs to fix
            raise UsageError(
                f"cannot write to {out_dir}: {error.strerror or error}; allowed: a writable folder"
            ) from None

        progress(f"validating {len(objects)} objects against Kubernetes {result.kubernetes_version}…")
        from . import helm_values, schema

        result.schema = schema.validate_objects(
            [(written.object, written.path) for written in result.written], result.kubernetes_version
        ) + helm_values.check_releases(run.resources)

        progress("checking AWS requests against the AWS API models…")
        from ..aws.check import check_resources

        result.aws_requests = check_resources(run.resources, _partition(config.values))
        result.addons = addon_rows(run.resources, run.calls, run.call_results, result.kubernetes_version)

        progress("placing workloads on node pools…")
        from ...placement.evidence import CostTotals, Evidence, Owners
        from .disruption import cold_starts_by_workload, served_models
        from .drivers import gpu_pool_amis
        from .serving import serving_evidence

        placed = _placement(run.resources, objects, result)
        sized = settings is not None and placed is not None
        queues: list[Any] = []
        if sized:
            from .cold_start import cold_starts
            from .models import model_fits
            from .queues import queued_servers

            result.models = model_fits(settings)
            rendered = [written.object for written in result.written]
            result.cold_start = cold_starts(settings, rendered)
            queues = queued_servers(settings, run.resources, rendered, result.cold_start)
        from .cost import stack_cost

        result.cost = cost = stack_cost(run.resources, config.values, settings)
        if sized:
            from .cold_start_trade import cold_start_trades

            result.cold_start_trade = cold_start_trades(settings, rendered, cost.region, cost.spot_discount)
        evidence = Evidence(
            placement=placed,
            model_fits=result.models if sized else None,
            cold_starts=result.cold_start if sized else None,
            workload_cold_starts=cold_starts_by_workload(settings, result.cold_start) if sized else None,
            cost=CostTotals(cost.budget, cost.total("desired"), cost.total("max"), cost.not_priced, cost.currency),
            owners=Owners(render.registered(run.resources), render.declared(objects)),
            serving=serving_evidence(settings) if settings is not None else None,
            drivers=gpu_pool_amis(
                run.resources,
                placed.workloads if placed else None,
                placed.resources if placed else None,
                placed.matrix if placed else None,
            ),
            queues=queues if sized else None,
            served=served_models(settings, objects, run.resources, result.cold_start) if sized else None,
        )
        _judge(evidence, result)
        return result
    finally:
        progress(None)


def resource_rows(resources: list[Any], project: str, stack: str) -> list[ResourceRow]:
    """The stack resource, then every registered resource, each with its parent's URN."""
    from .inputs import recorded_inputs

    stack_urn = f"urn:pulumi:{stack}::{project}::{STACK_TYPE}::{project}-{stack}"
    rows = [ResourceRow(STACK_TYPE, f"{project}-{stack}", stack_urn, None)]
    for resource in resources:
        rows.append(
            ResourceRow(
                resource.type,
                resource.name,
                resource.urn,
                resource.parent or stack_urn,
                resource.id,
                recorded_inputs(resource.inputs),
                resource.delete_before_replace,
                resource.depends_on,
                dict(resource.input_dependencies),
            )
        )
    return rows


def _settings(config: StackConfig) -> tuple[Any, list[ConfigIssue]]:
    """The program's own settings model applied to the stack config: (settings, []) or (None, problems).

    `secure:` values that are not Pulumi ciphertext are problems in any project. Another project's config is
    otherwise left to its program. In this project's, a `secure:` value in a key that holds no secret is a
    problem of its own: offline it is a placeholder, so the settings' rules, which would judge the placeholder,
    are not applied to it.
    """
    from ...facts.identity import PROJECT
    from ...settings import ConfigError, ConfigProblem, parse_stack_config
    from ...settings.stack import SECRET_KEYS

    problems = [
        ConfigProblem(
            secure.config_key,
            f"`secure:` value is not Pulumi ciphertext: {reason} (value not shown); allowed: the value "
            f"pulumi config set --secret writes (v1:<nonce>:<ciphertext>, or base64 with Pulumi Cloud)",
            namespace=None,
        )
        for secure in config.secure_values
        if (reason := secure.problem())
    ]
    if config.project != PROJECT:
        return None, [ConfigIssue(problem.key, str(problem)) for problem in problems]
    secret = {f"{PROJECT}:{key}" for key in SECRET_KEYS}
    undecrypted = [secure.config_key for secure in config.secure_values if secure.key not in secret]
    problems += [
        ConfigProblem(
            place,
            "is `secure:`, which cannot be checked offline (the plan does not decrypt); make it plain: "
            f"pulumi config set --path '{place.partition(':')[2]}' <value> (allowed secrets: "
            f"{', '.join(SECRET_KEYS)})",
            namespace=None,
        )
        for place in undecrypted
    ]
    settings = None
    try:
        settings = parse_stack_config(config.values, config.secret_keys)
    except ConfigError as error:
        full = [(str(problem).partition(": ")[0], problem) for problem in error.problems]
        problems += [problem for key, problem in full if not any(_inside(key, place) for place in undecrypted)]
    if problems:
        return None, [ConfigIssue(problem.key, str(problem)) for problem in problems]
    return settings, []


def _inside(key: str, place: str) -> bool:
    """Whether config key `key` (`project:network.cidr`) is `place` or a key within it."""
    return key == place or key.startswith((f"{place}.", f"{place}["))


def _partition(values: dict[str, Any]) -> str:
    """The partition the mocks answered for (stackcheck/mock_answers.py): the config's region's, else `aws`."""
    from ..mock_answers import mock_partition, mock_region

    return mock_partition(mock_region(values))


def _cluster_version(resources: list[Any]) -> str:
    """The Kubernetes version of the registered EKS cluster, else the newest kubernetes-validate knows."""
    for resource in resources:
        if resource.type in CLUSTER_TYPES and resource.inputs.get("version"):
            return str(resource.inputs["version"])
    import kubernetes_validate

    return kubernetes_validate.latest_version()


def _issues(error: Any) -> list[ConfigIssue]:  # a ConfigError: this package's, or the program's own copy's
    return [ConfigIssue(problem.key, str(problem)) for problem in error.problems]


def _run_program(config: StackConfig, run: Any, result: PlanResult) -> None:
    """Run the program; a config error it raises becomes `config_problems`, any other `program_error`."""
    from .. import runtime

    with captured_logs() as records:
        try:
            runtime.run_stack_program(config, run)
        except Exception as error:  # reported, not raised: the plan shows what failed
            problems = getattr(error, "problems", None)
            if problems and all(hasattr(problem, "key") for problem in problems):
                result.config_problems = _issues(error)
                result.config_title = getattr(error, "title", None) or result.config_title
            else:
                result.program_error = f"{type(error).__name__}: {error}"
                result.program_traceback = traceback.format_exc()
    for record in records:
        message = record.getMessage()
        if record.levelno >= logging.ERROR:
            result.program_error = result.program_error or f"the program logged an error: {message}"
        else:
            result.warnings.append(message)


def _placement(resources: list[Any], objects: list[Any], result: PlanResult) -> Placement | None:
    """What the placement verdicts judge, from the registered resources and the objects they render; None, with
    the reason in `result`, when the node pools cannot be built or the workloads cannot be read. Fills in the
    result's pools and placement matrix (the node agents' rows marked [EKS] after the stack's own)."""
    from ... import placement
    from ...facts.resource_types import HELM_RELEASE
    from ...placement.evidence import Placement
    from ...placement.scaling import SCALED_OBJECT
    from ...placement.workloads import WORKLOAD_KINDS
    from . import node_agents, pools

    node_groups = pools.node_group_specs(resources)
    result.node_group_problems = node_groups.problems
    try:
        node_pools = pools.build_pools(node_groups)
    except ValueError as error:
        result.node_group_problems.append(str(error))
        return None
    declared = [obj for obj in objects if obj.kind in WORKLOAD_KINDS]
    workloads = [obj.workload() for obj in declared]
    result.pools = [pools.pool_summary(pool) for pool in placement.advertise_gpus(node_pools, workloads)]
    # Keyed by the declaring resource: an object declared twice (reported as a duplicate) is two workloads.
    declaring = [f"{obj.resource_type}::{obj.resource_name}" for obj in declared]
    try:
        agents = node_agents.cluster_agents(resources)
        matrix = placement.placement_matrix(workloads, node_pools, declaring)
        result.matrix = matrix + agents.rows(node_pools)
    except ValueError as error:  # a workload the model cannot read, such as a redacted quantity
        result.placement_error = f"{_UNREADABLE}: {error}"
        return None
    return Placement(
        workloads=workloads,
        pools=node_pools,
        matrix=matrix,
        specs=node_groups.specs,
        resources=declaring,
        agents=agents.agents,
        agent_notes=agents.notes,
        host_engines=agents.dcgm_host_engines(),
        template_tags=pools.template_tags(resources),
        scaled_objects=[obj.manifest for obj in objects if (obj.api_version, obj.kind) == SCALED_OBJECT],
        service_accounts=[obj.workload() for obj in objects if obj.kind == "ServiceAccount"],
        release_namespaces=[
            resource.inputs.get("namespace") or "default" for resource in resources if resource.type == HELM_RELEASE
        ],
    )


def _judge(evidence: Evidence, result: PlanResult) -> None:
    """Every verdict of the registry, in its order, on `evidence`; a verdict whose part of the evidence is missing
    is left out, and each verdict's warnings follow those of the verdicts before it."""
    from ...placement.verdicts import VERDICTS

    for entry in VERDICTS:
        try:
            judged = entry.run(evidence)
        except ValueError as error:  # a workload the model cannot read, such as a redacted quantity
            result.placement_error = result.placement_error or f"{_UNREADABLE}: {error}"
            continue
        if judged is not None:
            result.verdicts.append(judged.verdict)
            result.warnings += judged.warnings


def _import_from(project_dir: Path) -> None:
    """Make the project's packages (components, placement) importable, as running its program would."""
    path = str(project_dir)
    if path not in sys.path:
        sys.path.insert(0, path)
