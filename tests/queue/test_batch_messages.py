"""What `eks-gpu-batch` tells its user, whole: its name in usage errors, and a long list of missing results cut at
twenty with a mark that more follow. (Its runs against moto's SQS and S3 are in test_batch_command.py.)"""

from __future__ import annotations

import io

import pytest

from components.vllm.queue import batch


def test_a_usage_error_names_the_command_as_the_user_types_it(capsys):
    """argparse prints `usage: <prog> <subcommand> ...` and exits 2 on a missing argument (Python's argparse
    documentation, ArgumentParser.error); the prog is the installed command's name, `eks-gpu-batch` (pyproject.toml, `[project.scripts]`)."""
    with pytest.raises(SystemExit) as exited:
        batch.main(["submit"])

    err = capsys.readouterr().err
    assert exited.value.code == 2
    assert err.startswith("usage: eks-gpu-batch submit ")
    assert (
        err.splitlines()[-1] == "eks-gpu-batch submit: error: the following arguments are required: file, --queue-url"
    )


@pytest.mark.parametrize(
    ("missing", "listed"),
    [
        # Twenty are listed whole; the twenty-first is left out, and " ..." says so.
        pytest.param(20, ", ".join(f"r{index:02}" for index in range(20)), id="twenty"),
        pytest.param(21, ", ".join(f"r{index:02}" for index in range(20)) + " ...", id="twenty-one"),
    ],
)
def test_missing_results_are_listed_up_to_twenty(tmp_path, monkeypatch, missing, listed):
    ids = [f"r{index:02}" for index in range(missing)]
    monkeypatch.setattr(batch, "_clients", lambda *services: [object() for _ in services])
    monkeypatch.setattr(batch, "collect", lambda *args, **kwargs: (0, ids))
    out = tmp_path / "results.jsonl"
    told = io.StringIO()

    code = batch.run(["collect", "--results", "s3://b/out/", "--batch", "b1", "--out", str(out)], stdout=told)

    assert code == 1
    assert told.getvalue() == f"wrote 0 result(s) of batch b1 to {out}\nmissing {missing}: {listed}\n"


def test_each_option_says_what_it_is_for_in_the_help(capsys):
    """`eks-gpu-batch collect --help` as docs/queue.md walks the flow: the results' location is the stack's output,
    `--ids` orders the results and names the missing, `--dead-letter-url` says which missing ones reached the
    dead-letter queue."""
    with pytest.raises(SystemExit):
        batch.main(["collect", "--help"])

    text = " ".join(capsys.readouterr().out.split())
    for option, help_text in {
        "--results RESULTS": "s3://bucket/prefix/ (the stack's output)",
        "--ids IDS": "the submitted file: results in its order, missing ones named",
        "--wait WAIT": "seconds to wait for missing results",
        "--dead-letter-url DEAD_LETTER_URL": "the dead-letter queue, to say which missing ones are there",
    }.items():
        assert f"{option} {help_text}" in text, option


@pytest.mark.parametrize("results", ["https://b/out/", "s3:///out/"], ids=["not-s3", "no-bucket"])
def test_collect_refuses_results_that_are_no_s3_uri_naming_the_option_and_the_form(tmp_path, capsys, results):
    """Before any client is made: the option, the value given and the form the stack's `results` output has."""
    code = batch.main(["collect", "--results", results, "--batch", "b1", "--out", str(tmp_path / "out.jsonl")])

    assert code == 2
    assert capsys.readouterr().err == (
        f"eks-gpu-batch: --results: results {results!r}; allowed: s3://<bucket>/<prefix>/\n"
    )
