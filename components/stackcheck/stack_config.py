"""A stack's config as the Pulumi CLI would hand it to the program, read offline from the project files.

`load_stack_config` reads Pulumi.yaml and `Pulumi.<stack>.yaml` without the Pulumi CLI and without
decrypting secrets; `UsageError` and `InvalidFileError` say why the files cannot be used. The offline plan
(stackcheck/plan/) and the audit (stackcheck/audit/) start from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Exit codes of `plan` and `audit` (docs/plan.md, "Exit codes"): 0 every check holds, 1 a check failed, 2 the stack
# config, a project file or the command line is invalid (what the user can fix), 3 an internal error (a fault of
# the tool, reported in one line; `--debug` adds the traceback).
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_INVALID_CONFIG = 2
EXIT_USAGE = EXIT_INVALID_CONFIG
EXIT_INTERNAL = 3
# What a `secure:` value becomes offline: it cannot be decrypted without the stack's secrets provider.
SECRET_PLACEHOLDER = "[secret: not decrypted offline]"
# Pulumi.yaml keys that declare a config key rather than give an object value.
_DECLARATION_KEYS = {"type", "description", "default", "value", "secret", "items"}
_NOTHING = object()


class UsageError(Exception):
    """The command cannot start: a missing project or stack file, or an output folder that is a file.

    Given several messages, each is one problem, and `problems` lists them.
    """

    exit_code = EXIT_USAGE

    def __init__(self, *problems: str):
        self.problems = list(problems)
        super().__init__("\n".join(problems))


class InvalidFileError(UsageError):
    """A project or stack file exists but cannot be used: not UTF-8, not YAML, not a mapping."""

    exit_code = EXIT_INVALID_CONFIG


@dataclass(frozen=True)
class StackConfig:
    """A stack's config as the Pulumi CLI would hand it to the program."""

    project: str
    stack: str
    program: Path
    stack_file: Path
    values: dict[str, Any]
    """Every key as `namespace:key`, values as YAML loads them."""
    secure_values: tuple[SecureValue, ...] = ()
    """Every `secure:` value, where it stands and its ciphertext."""

    @property
    def secret_keys(self) -> tuple[str, ...]:
        """Keys whose value (or part of it) is `secure:`; they hold `SECRET_PLACEHOLDER`."""
        return tuple(dict.fromkeys(secure.key for secure in self.secure_values))


@dataclass(frozen=True)
class SecureValue:
    """One `secure:` value of the stack file: the key holding it, the path inside that key's value, the text."""

    key: str
    """`namespace:key`."""
    path: str
    """Inside the key's value, dotted with list positions as `.0` (`cidr`, `extraArgs.0`); empty for the whole."""
    ciphertext: str

    @property
    def config_key(self) -> str:
        """The key and the path inside it, as a problem names the place: `project:network.cidr`."""
        return f"{self.key}.{self.path}" if self.path else self.key

    def problem(self) -> str | None:
        """Why the ciphertext is not one the Pulumi CLI writes, or None when it has that shape."""
        return ciphertext_problem(self.ciphertext)


def ciphertext_problem(ciphertext: str) -> str | None:
    """Why `ciphertext` cannot be a `secure:` value the Pulumi CLI wrote, or None when its shape is right.

    The passphrase and cloud (KMS) secrets providers write `v1:<nonce>:<ciphertext>`, both standard base64, the
    nonce 12 bytes (AES-256-GCM) and the ciphertext at least its 16-byte tag; Pulumi Cloud writes the ciphertext
    as standard base64 (pulumi/pulumi v3.259.0: `sdk/go/common/resource/config/crypt.go`, `symmetricCrypter`;
    `pkg/secrets/service/manager.go`). The offline plan cannot decrypt either, only check the shape.
    """
    if not ciphertext:
        return "it is empty"
    if ciphertext.startswith("v1:"):
        parts = ciphertext.split(":")
        if len(parts) != 3:
            return f"it has {len(parts)} parts separated by ':', where v1: values have 3"
        nonce, sealed = (_base64(part) for part in parts[1:])
        if nonce is None or sealed is None:
            return "its nonce or ciphertext is not standard base64"
        if len(nonce) != 12:
            return f"its nonce is {len(nonce)} bytes, where AES-256-GCM's is 12"
        if len(sealed) < 16:
            return f"its ciphertext is {len(sealed)} bytes, shorter than AES-GCM's 16-byte tag"
        return None
    if _base64(ciphertext) is None:
        return "it is neither v1:<nonce>:<ciphertext> nor standard base64"
    return None


def _base64(text: str) -> bytes | None:
    import base64
    import binascii

    try:
        return base64.b64decode(text, validate=True) if text else None
    except (binascii.Error, ValueError):
        return None


def load_stack_config(project_dir: Path, stack: str | None = None, stack_file: Path | None = None) -> StackConfig:
    """Read Pulumi.yaml and the stack file as the Pulumi CLI would, without decrypting secrets.

    Keys without a namespace belong to the project; Pulumi.yaml's declared defaults apply to keys
    the stack file leaves out. A `secure:` value, anywhere inside a key's value, is replaced by
    `SECRET_PLACEHOLDER` and the key is marked secret.
    """
    import yaml

    project_file = _find(project_dir, "Pulumi")
    if project_file is None:
        raise UsageError(f"no Pulumi.yaml in {project_dir} (use --project-dir)")
    project_doc = _load_yaml(project_file, yaml)
    project = project_doc.get("name")
    if not isinstance(project, str) or not project:
        raise UsageError(f"{project_file} has no project name")
    if stack is None:
        stack = _stack_name_of(stack_file) if stack_file else "dev"
    if stack_file is None:
        stack_file = _find(project_dir, f"Pulumi.{stack}")
        if stack_file is None:
            known = sorted(path.name for path in project_dir.glob("Pulumi.*.y*ml"))
            raise UsageError(
                f"no stack file Pulumi.{stack}.yaml in {project_dir}; stack files there: {', '.join(known) or 'none'}"
            )
    elif not stack_file.is_file():
        what = "is a folder" if stack_file.is_dir() else "does not exist"
        raise UsageError(f"stack file {stack_file} {what}; allowed: a Pulumi.<stack>.yaml file")
    stack_doc = _load_yaml(stack_file, yaml)

    values: dict[str, Any] = {}
    for key, declaration in (project_doc.get("config") or {}).items():
        default = _declared_default(declaration)
        if default is not _NOTHING:
            values[_qualified(key, project)] = default
    config = stack_doc.get("config") or {}
    if not isinstance(config, dict):
        raise InvalidFileError(f"{stack_file}: `config` is not a mapping; allowed: `config:` with one key per line")
    for key, value in config.items():
        values[_qualified(str(key), project)] = value
    secure_values: list[SecureValue] = []
    for key, value in values.items():
        found: list[tuple[str, str]] = []
        values[key] = _without_secure_values(value, "", found)
        secure_values += [SecureValue(key, path, ciphertext) for path, ciphertext in found]

    main = project_doc.get("main")
    program = (project_dir / main) if isinstance(main, str) else project_dir
    if program.is_dir():
        program = program / "__main__.py"
    if not program.is_file():
        raise UsageError(f"no program at {program}")
    return StackConfig(project, stack, program, stack_file, values, tuple(secure_values))


def _declared_default(declaration: Any) -> Any:
    if isinstance(declaration, dict) and declaration and set(declaration) <= _DECLARATION_KEYS:
        return declaration.get("value", declaration.get("default", _NOTHING))
    return declaration


def _qualified(key: str, project: str) -> str:
    return key if ":" in key else f"{project}:{key}"


def _without_secure_values(value: Any, path: str, found: list[tuple[str, str]]) -> Any:
    """`value` with each `secure:` value replaced by `SECRET_PLACEHOLDER`; each one's path and ciphertext are
    added to `found`. A secure value is a mapping of the one key `secure` to a string, as Pulumi reads it
    (`sdk/go/common/resource/config/object.go`, `isSecureValue`)."""
    if isinstance(value, dict):
        if set(value) == {"secure"} and isinstance(value["secure"], str):
            found.append((path, value["secure"]))
            return SECRET_PLACEHOLDER
        return {key: _without_secure_values(item, _joined(path, key), found) for key, item in value.items()}
    if isinstance(value, list):
        return [_without_secure_values(item, _joined(path, index), found) for index, item in enumerate(value)]
    return value


def _joined(path: str, part: object) -> str:
    return f"{path}.{part}" if path else str(part)


def _find(directory: Path, stem: str) -> Path | None:
    for suffix in (".yaml", ".yml"):
        path = directory / f"{stem}{suffix}"
        if path.is_file():
            return path
    return None


def _stack_name_of(stack_file: Path) -> str:
    name = stack_file.name
    for suffix in (".yaml", ".yml"):
        name = name.removesuffix(suffix)
    return name.removeprefix("Pulumi.") or "dev"


def _load_yaml(path: Path, yaml: Any) -> dict[str, Any]:
    from . import stack_yaml

    try:
        # Pulumi strips a UTF-8 byte-order mark before parsing (sdk/go/common/workspace/loaders.go,
        # readFileStripUTF8BOM).
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InvalidFileError(
            f"{path} is not UTF-8 text (byte 0x{error.object[error.start]:02x} at offset "
            f"{error.start}); save it as UTF-8, as Pulumi reads it"
        ) from None
    try:
        document = stack_yaml.load(text)
    except stack_yaml.StackYamlError as error:
        raise InvalidFileError(*(f"{path}: {problem}" for problem in error.problems)) from None
    except yaml.YAMLError as error:
        raise InvalidFileError(f"{path} is not valid YAML: {_one_line(error)}") from None
    if document is None:
        return {}
    if not isinstance(document, dict):
        raise InvalidFileError(f"{path} is not a YAML mapping; allowed: keys such as `name:` and `config:`")
    return document


def _one_line(error: Exception) -> str:
    """A YAML error's text on one line: PyYAML spreads its marks over several, with the offending line quoted."""
    return " ".join(part.strip() for part in str(error).splitlines() if part.strip() and part.strip() != "^")
