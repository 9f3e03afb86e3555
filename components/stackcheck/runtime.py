"""Run the Pulumi program in-process under mocks, with a stack's config, and record what it registers.

This is the engine of the offline plan and of the tests: no CLI, no provider plugins, no cloud.
The mocks answer like a fresh deployment would: every registered input comes back as an output,
plus the few computed outputs the program reads (ARNs, names, the kubeconfig).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import runpy
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pulumi
from pulumi.runtime import mocks as pulumi_mocks
from pulumi.runtime import resource as pulumi_resource
from pulumi.runtime import rpc
from pulumi.runtime.proto import provider_pb2, resource_pb2, source_pb2
from pulumi.runtime.settings import reset_options
from pulumi.runtime.stack import run_pulumi_func
from pulumi.runtime.sync_await import _ensure_event_loop, _sync_await

from ..facts.regions import dns_suffix
from ..facts.resource_types import (
    GET_AVAILABILITY_ZONES,
    GET_CALLER_IDENTITY,
    GET_INSTANCE_TYPE_OFFERINGS,
    GET_PARTITION,
    GET_REGION,
    GET_ROLE,
    GET_SUBNETS,
    GET_VPC,
)
from ..vllm.hub_facts import hub_switches
from .dependencies import dependencies_of_inputs, explicit_dependencies, recording_depends_on
from .mock_answers import (
    MOCK_ACCOUNT,
    MOCK_EKS_VPC_CONFIG,
    MOCK_REGION,
    MOCK_SUBNET_IDS,
    MOCK_VPC_ID,
    computed_outputs,
    kubeconfig_of,
    looked_up_role,
    mock_partition,
    mock_region,
    mock_zones,
)

if TYPE_CHECKING:
    from .stack_config import StackConfig


@dataclass(frozen=True)
class RegisteredResource:
    """One resource the program registered: its type token, name, parent and inputs (wire names, camelCase)."""

    type: str
    name: str
    inputs: dict[str, Any]
    parent: str | None
    urn: str
    custom: bool
    id: str = ""
    """The physical id the mocks gave it."""
    transforms: tuple[Any, ...] = ()
    """The transforms in the resource's options (the mock monitor records them but does not run them)."""
    dependencies: tuple[str, ...] = ()
    """URNs of the resources it depends on, explicitly or through its inputs."""
    depends_on: tuple[str, ...] = ()
    """URNs of the resources its `depends_on` option names, a component expanded to its custom children (as the SDK
    sends them), whether or not an input depends on them too."""
    input_dependencies: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """For each input (wire name) whose value came from other resources' outputs, those resources' URNs: the
    outputs it consumes, each of which the engine creates first."""
    delete_before_replace: bool = False
    ignore_changes: tuple[str, ...] = ()
    """Input paths (wire names) the engine leaves alone on update."""
    custom_timeouts: dict[str, str] = field(default_factory=dict)
    """The custom timeouts in the resource's options that are set: `create`, `update`, `delete` ("25m")."""
    provider: str = ""
    """The provider reference (`urn::id`) it was registered with; empty for the default provider."""
    aliases: tuple[dict[str, Any], ...] = ()
    """Its aliases as the SDK sends them (`name`, `parentUrn`, ...: the set fields of each alias spec)."""


@dataclass
class ProgramRun:
    """What one run of the program registered, and the stack outputs it exported."""

    resources: list[RegisteredResource] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Provider functions and component methods the program called: (token, arguments)."""
    call_providers: list[str] = field(default_factory=list)
    """The provider reference of each call in `calls`, in the same order; empty for the default provider."""
    call_results: list[dict[str, Any]] = field(default_factory=list)
    """What the mocks answered to each call in `calls`, in the same order (`{}`: nothing, as offline)."""
    outputs: dict[str, Any] = field(default_factory=dict)
    secret_outputs: set[str] = field(default_factory=set)
    component_outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    """What each component registered as its outputs (`register_outputs`), by URN; secrets unwrapped, a
    resource as its URN or id (the mocks take no resource references)."""

    def of_type(self, type_token: str) -> list[RegisteredResource]:
        return [resource for resource in self.resources if resource.type == type_token]

    def named(self, name: str) -> RegisteredResource:
        matches = [resource for resource in self.resources if resource.name == name]
        if len(matches) != 1:
            raise KeyError(f"{len(matches)} resources named {name!r}")
        return matches[0]


class _InlineExecutor(ThreadPoolExecutor):
    """Runs submitted work at once on the calling thread.

    The mock monitor answers through the loop's default executor; with worker threads, a resource
    passed as another's input can resolve on a different loop (pulumi/pulumi#6561). Running the
    work inline removes the threads and the flake (as the SDK's own tests do, pulumi/pulumi#7663).
    """

    def submit(self, fn, /, *args, **kwargs):
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to the awaiting coroutine
            future.set_exception(error)
        return future


class _Monitor(pulumi_mocks.MockMonitor):
    """The SDK's mock monitor, without resource references (the other half of the cross-loop flake),
    telling the mocks each registration's parent URN (which `MockResourceArgs` does not carry)."""

    def __init__(self, mocks: RecordingMocks):
        super().__init__(mocks)
        self.recording = mocks

    def SupportsFeature(self, request):  # gRPC method name
        has_support = request.id not in ("outputValues", "resourceReferences")
        return type("SupportsFeatureResponse", (object,), {"hasSupport": has_support})

    def GetDeploymentInfo(self, request):  # gRPC method name
        info = super().GetDeploymentInfo(request)
        features = [f for f in info.supportedFeatures if f != resource_pb2.RESOURCE_MONITOR_FEATURE_RESOURCE_REFERENCES]
        return resource_pb2.DeploymentInfo(supportedFeatures=features)

    def Call(self, request):  # gRPC method name
        """Component methods (`eks.Cluster.get_kubeconfig`), answered by `Mocks.call` like invokes.

        The SDK's mock monitor has no `Call`; this mirrors its `Invoke`.
        """
        _ensure_event_loop()
        args = rpc.deserialize_properties(request.args)
        result = self.recording.call(
            pulumi.runtime.MockCallArgs(token=request.tok, args=args, provider=request.provider)
        )
        return provider_pb2.CallResponse(**{"return": _await_now(rpc.serialize_properties(result, {}))})

    def RegisterResourceOutputs(self, request):  # gRPC method name
        _ensure_event_loop()
        outputs, _ = rpc.deserialize_properties_unwrap_secrets(request.outputs)
        self.recording.run.component_outputs[request.urn] = dict(outputs)
        return super().RegisterResourceOutputs(request)

    def RegisterResource(self, request):  # gRPC method name
        self.recording.current_parent = request.parent or None
        self.recording.current_urn = self.make_urn(request.parent, request.type, request.name)
        self.recording.current_request = request
        return super().RegisterResource(request)


class RecordingMocks(pulumi.runtime.Mocks):
    """Mocks that record every registration and answer with inputs plus computed outputs."""

    def __init__(
        self,
        run: ProgramRun,
        project: str,
        stack: str,
        deployer_arn: str | None = None,
        call_answers: dict[str, dict[str, Any]] | None = None,
        region: str = MOCK_REGION,
    ):
        self.run = run
        self.region = region
        self.partition = mock_partition(region)
        self.zones = mock_zones(region)
        self.call_answers = call_answers or {}
        self.project = project
        self.stack = stack
        self.deployer_arn = deployer_arn
        self.current_parent: str | None = None
        self.current_urn = ""
        self.current_request: Any = None
        self.explicit: dict[tuple[str, str], tuple[str, ...]] | None = None
        """Each resource's `depends_on` URNs, by (type, name), from when the SDK resolved them until it registers;
        None while they are not recorded (`dependencies.recording_depends_on`)."""

    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        resource_id = f"{args.name}-id"
        request = self.current_request
        input_dependencies = dependencies_of_inputs(request)
        dependencies = tuple(request.dependencies) if request is not None else ()
        depends_on = explicit_dependencies(self.explicit, (args.typ, args.name), dependencies, input_dependencies)
        self.run.resources.append(
            RegisteredResource(
                type=args.typ,
                name=args.name,
                inputs=_unwrap(args.inputs),
                parent=self.current_parent,
                urn=self.current_urn,
                custom=bool(args.custom),
                id=resource_id,
                transforms=tuple(args.transforms),
                dependencies=dependencies,
                depends_on=depends_on,
                input_dependencies=input_dependencies,
                delete_before_replace=bool(request.deleteBeforeReplace) if request is not None else False,
                ignore_changes=tuple(request.ignoreChanges) if request is not None else (),
                custom_timeouts=_custom_timeouts(request),
                provider=request.provider if request is not None else "",
                aliases=_aliases(request),
            )
        )
        outputs = computed_outputs(args.typ, args.name, args.inputs, self.region, self.partition, self.stack)
        return resource_id, {**args.inputs, **outputs}

    def call(self, args: pulumi.runtime.MockCallArgs):
        self.run.calls.append((args.token, _unwrap(dict(args.args))))
        self.run.call_providers.append(args.provider or "")
        result = self._answer(args)
        self.run.call_results.append(result)
        return result

    def _answer(self, args: pulumi.runtime.MockCallArgs) -> dict[str, Any]:
        if args.token == "eks:index:Cluster/getKubeconfig":
            # A kubeconfig scoped to the requested profile, shaped like pulumi-eks renders it.
            kubeconfig = kubeconfig_of("mock-cluster")
            profile = args.args.get("profileName")
            if profile:
                kubeconfig["users"][0]["user"]["exec"]["args"] += ["--profile", profile]
            return {"result": json.dumps(kubeconfig)}
        if args.token == GET_VPC:
            return {"id": MOCK_VPC_ID, "cidrBlock": "172.31.0.0/16", "default": True}
        if args.token == "aws:eks/getCluster:getCluster":
            return {"id": args.args.get("name"), "name": args.args.get("name"), "vpcConfig": MOCK_EKS_VPC_CONFIG}
        if args.token in self.call_answers:
            return self.call_answers[args.token]
        if args.token == GET_AVAILABILITY_ZONES:
            return {
                "id": self.region,
                "names": [zone for zone, _ in self.zones],
                "zoneIds": [zone_id for _, zone_id in self.zones],
                "groupNames": [self.region] * len(self.zones),
            }
        if args.token == GET_INSTANCE_TYPE_OFFERINGS:
            # Every asked-for type in every zone but the last, so that zone preference shows offline.
            types = [
                value
                for f in args.args.get("filters") or []
                if f.get("name") == "instance-type"
                for value in f.get("values", [])
            ]
            offered = [(instance_type, zone_id) for instance_type in types for _, zone_id in self.zones[:-1]]
            return {
                "id": self.region,
                "instanceTypes": [t for t, _ in offered],
                "locations": [z for _, z in offered],
                "locationTypes": ["availability-zone-id"] * len(offered),
            }
        if args.token == GET_SUBNETS:
            return {"id": self.region, "ids": list(MOCK_SUBNET_IDS)}
        if args.token == GET_CALLER_IDENTITY:
            # Offline, nobody runs the update: the identity is unknown unless a test names one.
            return {"accountId": MOCK_ACCOUNT, "arn": self.deployer_arn, "userId": "AROAMOCK"}
        if args.token == GET_PARTITION:
            return {"partition": self.partition, "dnsSuffix": dns_suffix(self.partition), "id": self.partition}
        if args.token == GET_REGION:
            return {"name": self.region, "region": self.region}
        if args.token == GET_ROLE:
            return looked_up_role(str(args.args.get("name")), self.partition)
        return {}


def _aliases(request: Any) -> tuple[dict[str, Any], ...]:
    """The alias specs of a RegisterResource request, each as the dict of its set fields (camelCase)."""
    if request is None:
        return ()
    return tuple(
        {descriptor.name: value for descriptor, value in alias.spec.ListFields()}
        for alias in request.aliases
        if alias.HasField("spec")
    )


def _custom_timeouts(request: Any) -> dict[str, str]:
    """The set fields of a RegisterResource request's `customTimeouts` (empty strings mean unset)."""
    if request is None or not request.HasField("customTimeouts"):
        return {}
    timeouts = request.customTimeouts
    return {field: getattr(timeouts, field) for field in ("create", "update", "delete") if getattr(timeouts, field)}


def _unwrap(value: Any) -> Any:
    """Inputs with secrets kept recognisable: a secret becomes `Secret(value)`."""
    if rpc.is_rpc_secret(value):
        return Secret(_unwrap(rpc.unwrap_rpc_secret(value)))
    if isinstance(value, dict):
        return {key: _unwrap(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_unwrap(item) for item in value]
    return value


@dataclass(frozen=True)
class Secret:
    """A value the program registered as secret."""

    value: Any

    def __repr__(self) -> str:
        return "Secret([redacted])"


def run_program(
    program: Path,
    config: dict[str, Any],
    *,
    project: str,
    stack: str,
    secret_keys: tuple[str, ...] = (),
    run: ProgramRun | None = None,
    deployer_arn: str | None = None,
    call_answers: dict[str, dict[str, Any]] | None = None,
    hub_endpoint: str | None = None,
) -> ProgramRun:
    """Run `program` (a Pulumi `__main__.py`) under mocks with `config` (`project:key` -> value).

    Values that are not strings are passed as JSON, as the Pulumi CLI passes structured config. Each call gets a
    fresh event loop and fresh runtime settings, so runs do not leak into each other. The provider functions answer
    for the config's `aws:region` (its zones, partition and ARNs), or for `MOCK_REGION` when it sets none. Raises
    whatever the program raises; pass `run` to see what was registered before it did. `deployer_arn` is what
    `GetCallerIdentity` answers (default: unknown); `call_answers` replaces the mocks' answer to the provider
    functions it names (token -> result). The Hub is offline (`HF_HUB_OFFLINE`) unless `hub_endpoint` is given.
    """
    run = run if run is not None else ProgramRun()
    loop = asyncio.new_event_loop()
    loop.set_default_executor(_InlineExecutor(max_workers=1))
    asyncio.set_event_loop(loop)
    program = Path(program).resolve()
    sys.path.insert(0, str(program.parent))
    try:
        reset_options(project=project, stack=stack, preview=False)
        mocks = RecordingMocks(run, project, stack, deployer_arn, call_answers, mock_region(config))
        pulumi.runtime.set_mocks(mocks, project=project, stack=stack, preview=False, monitor=_Monitor(mocks))
        pulumi.runtime.set_all_config(
            {key: value if isinstance(value, str) else json.dumps(value) for key, value in config.items()},
            list(secret_keys),
        )
        with _without_stack_traces(), _without_nested_loops(), recording_depends_on() as mocks.explicit:
            loop.run_until_complete(run_pulumi_func(lambda: _run_path(program, hub_endpoint)))
            loop.run_until_complete(_collect_outputs(run))
    finally:
        sys.path.remove(str(program.parent))
        _close(loop)
        pulumi.runtime.set_all_config({}, [])
    return run


@contextlib.contextmanager
def _without_stack_traces() -> Iterator[None]:
    """Registrations without the Python stack of the code that made them.

    For every registration the SDK walks the whole stack (`pulumi.runtime.resource._get_stack_trace`), reading
    each frame's source line, to send the engine the resource's source position; the mocks never read it.
    The walks took about a quarter of the program's run when measured, while each mock answer still ran the
    event loop and with it the next registration (deep stacks; see `_without_nested_loops`). Should a later SDK
    rename the function, registrations still work, only slower.
    """
    original = getattr(pulumi_resource, "_get_stack_trace", None)
    if original is None:
        yield
        return
    pulumi_resource._get_stack_trace = source_pb2.StackTrace
    try:
        yield
    finally:
        pulumi_resource._get_stack_trace = original


@contextlib.contextmanager
def _without_nested_loops() -> Iterator[None]:
    """The mock monitor's answers serialized without running the event loop inside them.

    The SDK's mock monitor serializes each answer with `_sync_await`, which runs the loop's ready callbacks
    until the answer is done (pulumi/runtime/mocks.py, `RegisterResource` and `Invoke`, pulumi 3.272.0). With
    the inline executor those callbacks are the next registrations, whose answers run the loop again: the
    Python stack grows by about 18 frames for each registration waiting at the same time, and 51 or more
    (one autoscaler node-template tag per node label, all waiting on the node group) passed the interpreter's
    recursion limit. An answer holds plain values only (inputs read back from the request, computed outputs),
    so its serialization finishes without waiting; `_await_now` runs it to the end on the spot.
    """
    original = getattr(pulumi_mocks, "_sync_await", None)
    if original is None:
        yield
        return
    pulumi_mocks._sync_await = _await_now
    try:
        yield
    finally:
        pulumi_mocks._sync_await = original


def _await_now(awaitable: Any) -> Any:
    """The result of `awaitable`, without running the event loop when it completes without waiting; an
    awaitable that does wait on a future is finished through the loop (`_sync_await`), from where it stopped."""
    if not asyncio.iscoroutine(awaitable):
        return _sync_await(awaitable)
    try:
        pending = awaitable.send(None)
    except StopIteration as done:
        return done.value
    return _sync_await(_Resumed(awaitable, pending))


class _Resumed:
    """A coroutine already started and waiting on `pending`, awaitable again from that point."""

    def __init__(self, coroutine: Any, pending: Any):
        self.coroutine = coroutine
        self.pending = pending

    def __await__(self):
        pending = self.pending
        while True:
            try:
                sent = yield pending
            except BaseException as error:  # handed on to the coroutine, as a task would
                resume, value = self.coroutine.throw, error
            else:
                resume, value = self.coroutine.send, sent
            try:
                pending = resume(value)
            except StopIteration as done:
                return done.value


async def _collect_outputs(run: ProgramRun) -> None:
    stack = pulumi.runtime.settings.get_root_resource()
    for key, value in getattr(stack, "outputs", {}).items():
        output = pulumi.Output.from_input(value)
        run.outputs[key] = await output.future()
        if await output.is_secret():
            run.secret_outputs.add(key)


def _close(loop: asyncio.AbstractEventLoop) -> None:
    pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
    for task in pending:
        task.cancel()
    if pending:
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
    loop.close()
    # A failed run leaves futures whose exception nothing retrieved; asyncio reports each through its loop's
    # exception handler when the future is collected ("Future exception was never retrieved"), whenever the
    # collector happens to run: in a later run in the same process, which would read the log as its own
    # program's error. The run's error has been raised already; what its closed loop reports later is dropped.
    loop.set_exception_handler(_drop_after_close)
    asyncio.set_event_loop(None)


def _drop_after_close(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The exception handler of a run's loop once the run is over (see `_close`)."""


def _run_path(program: Path, hub_endpoint: str | None) -> None:
    # The SDK awaits what the program function returns; run_path returns the program's globals.
    with hub_switches(hub_endpoint):
        runpy.run_path(str(program), run_name="__main__")


def run_stack_program(config: StackConfig, run: ProgramRun) -> None:
    """Run a stack's program (`config`, from `stack_config.load_stack_config`) from its folder into `run`."""
    with contextlib.chdir(config.program.parent):
        run_program(
            config.program,
            config.values,
            project=config.project,
            stack=config.stack,
            secret_keys=config.secret_keys,
            run=run,
        )
