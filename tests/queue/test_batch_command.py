"""`eks-gpu-batch`: `submit` checks every line before it sends any, `collect` gathers a batch in the input's order and
names what is missing and what sits in the dead-letter queue; the flow run end to end against moto, the stand-in
and the consumer (tests/support/queue_services.py). SQS's limits, as its API Reference states them: 1 MiB a
message (attributes included), ten entries and 1 MiB a SendMessageBatch."""

from __future__ import annotations

import io
import json
import signal
from datetime import UTC, datetime

import pytest

from components.vllm.queue import batch
from tests.support.queue_run import consumer_environment, consumer_process, make_queue, wait_until
from tests.support.queue_services import chat_line, moto_server, stand_in_server

MIB = 1024 * 1024


def _dead_letter_count(setup) -> int:
    attributes = setup.sqs.get_queue_attributes(
        QueueUrl=setup.dead_letter_url, AttributeNames=["ApproximateNumberOfMessages"]
    )["Attributes"]
    return int(attributes["ApproximateNumberOfMessages"])


def test_every_bad_line_is_named_and_nothing_else():
    lines = [
        chat_line("a", "ok"),
        "not json",
        chat_line("a", "again"),
        json.dumps({"custom_id": "b", "method": "POST", "url": "/v1/files", "body": {}}),
        chat_line("c/d", "ok"),
    ]
    ids, problems = batch.check_lines(lines, "b1")
    assert ids == ["a", "a"]
    assert problems == [
        "line 2: not JSON (Expecting value: line 1 column 1 (char 0))",
        "line 3: custom_id 'a' is line 1's; allowed: each once",
        "line 4: url '/v1/files'; allowed: /v1/chat/completions, /v1/completions, /v1/embeddings",
        f"line 5: custom_id 'c/d'; allowed: {batch.KEY_PART_RULE}",
    ]


def test_a_line_over_sqss_message_size_with_its_attribute_is_refused_by_number():
    attribute = len("batch-id") + len("String") + len("b1")
    fits = chat_line("big", "x" * (MIB - attribute - len(chat_line("big", ""))))
    assert len(fits.encode()) == MIB - attribute
    assert batch.check_lines([fits], "b1")[1] == []
    over = chat_line("big", "x" * (MIB - attribute - len(chat_line("big", "")) + 1))
    assert batch.check_lines([over], "b1")[1] == [
        f"line 1: {MIB - attribute + 1} bytes; allowed: at most {MIB - attribute} (SQS's message size)"
    ]


def test_lines_go_ten_at_a_time_and_never_over_a_batch_payload():
    small = [chat_line(f"r{index}", "ok") for index in range(25)]
    assert [len(group) for group in batch.batches(small)] == [10, 10, 5]
    big = [chat_line(f"r{index}", "x" * (MIB // 3)) for index in range(4)]
    assert [len(group) for group in batch.batches(big)] == [2, 2]


def test_a_new_batch_id_is_sortable_by_time_and_a_safe_key_part():
    made = batch.new_batch_id(datetime(2026, 12, 4, 22, 5, 1, tzinfo=UTC))
    assert made.startswith("batch-20261204T220501Z-")
    assert len(made) == len("batch-20261204T220501Z-") + 8
    assert batch.is_key_part(made)


def test_a_long_run_shows_a_bar_on_a_terminal_only():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal, piped = Terminal(), io.StringIO()
    for stream in (terminal, piped):
        bar = batch.Progress(200, "sending", stream)
        bar.update(100)
        bar.close()
    assert terminal.getvalue() == f"\rsending [{'#' * 15}{'.' * 15}] 100/200\n"
    assert piped.getvalue() == ""
    short = Terminal()
    batch.Progress(batch.PROGRESS_FROM - 1, "sending", short).update(1)
    assert short.getvalue() == ""


def test_submit_refuses_a_file_with_any_bad_line_and_sends_nothing(tmp_path, capsys):
    source = tmp_path / "requests.jsonl"
    source.write_text(chat_line("a", "ok") + "\nnot json\n")
    code = batch.main(["submit", str(source), "--queue-url", "http://127.0.0.1:1/nowhere"])
    assert code == 2
    assert capsys.readouterr().err == (
        f"eks-gpu-batch: {source}: nothing sent; 1 problem(s):\n"
        "  line 2: not JSON (Expecting value: line 1 column 1 (char 0))\n"
    )


def test_submit_then_collect_gathers_the_batch_in_order_and_names_the_dead_lettered(tmp_path, monkeypatch):
    source = tmp_path / "requests.jsonl"
    contents = {"first": "ok", "broken": "status:500", "refused": "status:400", "last": "ok"}
    source.write_text("".join(chat_line(custom_id, content) + "\n" for custom_id, content in contents.items()))
    out = tmp_path / "results.jsonl"
    with moto_server() as moto, stand_in_server() as stand_in:
        for key, value in moto.environment.items():
            monkeypatch.setenv(key, value)
        setup = make_queue(moto, "submitted", visibility=1, max_receive_count=2)
        sent = io.StringIO()
        assert batch.run(["submit", str(source), "--queue-url", setup.queue_url, "--batch", "b1"], stdout=sent) == 0
        assert sent.getvalue() == "sent 4 request(s) as batch b1\n"
        environment = consumer_environment(setup, stand_in.url, tmp_path / "alive")
        with consumer_process(environment, tmp_path / "consumer.log") as running:
            assert wait_until(
                lambda: len(setup.result_keys()) == 3 and setup.counts()["ApproximateNumberOfMessages"] == 0, 30
            )
            assert wait_until(lambda: _dead_letter_count(setup) == 1, 30), running.output()
            running.process.send_signal(signal.SIGTERM)
            running.process.wait(timeout=30)
        told = io.StringIO()
        arguments = ["collect", "--results", f"s3://{setup.bucket}/out/", "--batch", "b1", "--ids", str(source)]
        arguments += ["--wait", "0.5", "--dead-letter-url", setup.dead_letter_url, "--out", str(out)]
        code = batch.run(arguments, stdout=told)
    assert code == 1
    assert told.getvalue() == (
        f"wrote 3 result(s) of batch b1 to {out}\nmissing 1: broken\nin the dead-letter queue: broken\n"
    )
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["custom_id"] for line in written] == ["first", "refused", "last"]
    assert [line["response"]["status_code"] for line in written] == [200, 400, 200]


@pytest.mark.parametrize("batch_id", ["a/b", ".", "x" * 257], ids=["a-slash", "a-dot", "too-long"])
def test_submit_refuses_a_batch_id_that_is_no_safe_key_part(tmp_path, capsys, batch_id):
    source = tmp_path / "requests.jsonl"
    source.write_text(chat_line("a", "ok") + "\n")
    assert batch.main(["submit", str(source), "--queue-url", "http://127.0.0.1:1/q", "--batch", batch_id]) == 2
    assert f"--batch {batch_id!r}; allowed:" in capsys.readouterr().err
