"""Random stack files and random command lines given to the plan's `main()`: every answer is an exit code of
0, 1 or 2, never an internal error (3), a traceback or a hang (hypothesis generates the inputs)."""

from __future__ import annotations

import contextlib
import io
import string
import tempfile
import time
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from components.facts.identity import PROJECT
from components.settings.stack import SECTIONS, TOP_LEVEL_KEYS
from components.stackcheck.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
# Deterministic and bounded: the same examples on every run; nearly all are invalid configs, answered before the
# program runs, so the whole test takes a few seconds.
BOUNDED = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FIELDS = sorted({field.alias or name for model in SECTIONS.values() for name, field in model.model_fields.items()})
# Scalars the YAML 1.1 reading and the Pulumi CLI's reading disagree on, and values near the settings' rules.
TRICKY = [
    "1:30",
    "NO",
    "yes",
    "2024-01-02",
    "0x1F",
    "017",
    "1e3",
    ".inf",
    "~",
    "30m",
    "10.0.0.0/16",
    "g5.xlarge",
    "NoSchedule",
    "-1",
    "99999999999999999999",
]
KEYS = st.one_of(
    st.sampled_from([f"{PROJECT}:{key}" for key in TOP_LEVEL_KEYS]),
    st.sampled_from(list(TOP_LEVEL_KEYS)),
    st.sampled_from(["otherproject:vllm", "otherproject:hfToken", f"{PROJECT}:network.cidr", "aws:region"]),
    st.text(string.ascii_letters + ":.-", min_size=1, max_size=12),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(TRICKY),
    st.text(max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), inner, max_size=4),
        st.builds(lambda text: {"secure": text}, st.text(max_size=20)),
    ),
    max_leaves=12,
)
# Text that breaks YAML or stresses the reader: unclosed brackets, tabs, duplicate keys, aliases, bad tags.
FRAGMENTS = st.sampled_from(
    ["[", "]", "{", ": ", "\t", "- ", "&a ", "*a", "*b", "!!binary ", "!tag ", "<<: ", "'", '"', "\n  ", "\n", "%", "#"]
)


@st.composite
def stack_files(draw) -> str:
    """A stack file's text: a generated config, dumped as YAML, sometimes with fragments spliced in."""
    # One key of this project always: a config of other namespaces only is valid, and a valid config runs the
    # whole program (seconds), so such examples stay few.
    # The simplest values (null, {}) leave every default, so the forced key gets another.
    forced = VALUES.filter(lambda value: value not in (None, {}, []))
    config = {draw(st.sampled_from([f"{PROJECT}:{key}" for key in TOP_LEVEL_KEYS])): draw(forced)}
    config.update(draw(st.dictionaries(KEYS, VALUES, max_size=4)))
    text = yaml.safe_dump({"config": config}, sort_keys=False, allow_unicode=True)
    for _ in range(draw(st.integers(0, 3))):
        # After `config:`: a file whose `config` key is broken has no config, which is valid (see above).
        at = draw(st.integers(len("config:\n"), len(text)))
        text = text[:at] + draw(FRAGMENTS) + text[at:]
    return text


ARGUMENT_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=10)


@st.composite
def command_lines(draw, stack_file: str, out: str) -> list[str]:
    """The plan's options with random values, and random extra words; paths stay inside the test's folder."""
    args = ["--project-dir", str(ROOT), "--stack-file", stack_file, "--out", out]
    for _ in range(draw(st.integers(0, 3))):
        option = draw(st.sampled_from(["--stack", "--format", "--stack-file", "--out", "--debug", "--bogus", "word"]))
        if option in ("--stack-file", "--out"):
            args += [option, str(Path(out) / draw(st.text(string.ascii_letters, min_size=1, max_size=8)))]
        elif option in ("--stack", "--format"):
            args += [option, draw(st.one_of(ARGUMENT_TEXT, st.sampled_from(["text", "json", "markdown"])))]
        else:
            args.append(option if option != "word" else draw(ARGUMENT_TEXT))
    return args


@BOUNDED
@given(data=st.data())
def test_random_stack_files_and_command_lines_get_an_exit_code_never_a_traceback(data):
    with tempfile.TemporaryDirectory() as folder:
        stack_file = Path(folder) / "Pulumi.random.yaml"
        stack_file.write_text(data.draw(stack_files(), label="stack file"), encoding="utf-8")
        args = data.draw(command_lines(str(stack_file), str(Path(folder) / "out")), label="arguments")

        out, err = io.StringIO(), io.StringIO()
        started = time.perf_counter()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["plan", *args])
        elapsed = time.perf_counter() - started

    assert code in (0, 1, 2), err.getvalue()
    assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue()
    assert elapsed < 30, f"took {elapsed:.1f} s"
    if code == 2:
        assert err.getvalue() or out.getvalue()  # the problem is said, on stderr or in the report
