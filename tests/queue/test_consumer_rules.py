"""The consumer's rules, run for real: the shipped script as one process against moto's SQS and S3 and a stand-in
for vLLM's OpenAI API (tests/support/queue_services.py), on one mixed queue of over a hundred messages with a 1 s
visibility timeout and `maxReceiveCount` 2. Every message must end as exactly one result or one dead-letter
entry; each test reads one rule off that run.

The expected results follow the issue's rules and `vllm run-batch`'s output line (vllm-project/vllm
vllm/entrypoints/openai/run_batch.py at 53159ce0, `run_request`): a 2xx answer's body in `response.body`, an
error's status in `response.status_code` and its body in `error`.
"""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass

import pytest

from tests.support.queue_run import QueueSetup, consumer_environment, consumer_process, make_queue, wait_until
from tests.support.queue_services import StandIn, chat_line, moto_server, stand_in_server

LOAD = 100
FAILING = ("status:500", "status:503", "status:429", "status:408")
POISON = {
    "not-json": "not json",
    "not-an-object": json.dumps(["a", "list"]),
    "unsafe-custom-id": json.dumps({"custom_id": "../up", "method": "POST", "url": "/v1/completions", "body": {}}),
}
WRONG = {
    "method": ({"method": "GET", "url": "/v1/chat/completions", "body": {}}, "method 'GET'; allowed: 'POST'"),
    "url": ({"method": "POST", "url": "/v1/files", "body": {}}, "url '/v1/files'; allowed:"),
    "body": ({"method": "POST", "url": "/v1/completions", "body": "text"}, "body is not a JSON object"),
    "stream": (
        {"method": "POST", "url": "/v1/completions", "body": {"stream": True}},
        "must not be sent in stream mode",
    ),
}
EARLIER = {"id": "earlier", "custom_id": "twice", "response": {"status_code": 200}, "error": None}


@dataclass
class Run:
    setup: QueueSetup
    stand_in: StandIn
    results: dict[str, dict]
    versions: dict[str, int]
    dead: list[str]
    exit_code: int
    output: str
    remaining: dict[str, int]


def _failing_id(content: str) -> str:
    return "failing-" + content.replace(":", "-")


def _expected_results() -> set[str]:
    keys = {f"load/r{index}.json" for index in range(LOAD)}
    keys |= {"default/bad.json", "default/gone.json", "default/flaky.json", "default/slow.json", "default/twice.json"}
    keys |= {"monday/same.json", "tuesday/same.json"}
    keys |= {f"default/wrong-{name}.json" for name in WRONG}
    return keys


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Run:
    tmp_path = tmp_path_factory.mktemp("consumer")
    with moto_server() as moto, stand_in_server() as stand_in:
        setup = make_queue(moto, "mixed", visibility=1, max_receive_count=2)
        setup.s3.put_object(Bucket=setup.bucket, Key="out/default/twice.json", Body=json.dumps(EARLIER).encode())
        setup.send([chat_line(f"r{index}", "ok") for index in range(LOAD)], batch="load")
        setup.send(
            [
                chat_line("bad", "status:400"),
                chat_line("gone", "status:404"),
                chat_line("flaky", "flaky:1"),
                # Three times the visibility timeout: only the heartbeat keeps it from a second run.
                chat_line("slow", "sleep:3"),
                chat_line("twice", "answered already"),
                *(chat_line(_failing_id(content), content) for content in FAILING),
                *POISON.values(),
                *(json.dumps({"custom_id": f"wrong-{name}", **line}) for name, (line, _) in WRONG.items()),
            ]
        )
        setup.send([chat_line("same", "ok")], batch="monday")
        setup.send([chat_line("same", "ok")], batch="tuesday")
        setup.send([chat_line("fine", "ok")], batch="a/b")
        expected = _expected_results()
        dead: list[str] = []
        environment = consumer_environment(setup, stand_in.url, tmp_path / "alive")
        with consumer_process(environment, tmp_path / "consumer.log") as running:

            def finished() -> bool:
                dead.extend(setup.dead_letters())
                return len(dead) == len(FAILING) + len(POISON) + 1 and setup.result_keys() >= expected

            reached = wait_until(finished, 60, step=0.5)
            running.process.send_signal(signal.SIGTERM)
            code = running.process.wait(timeout=30)
        assert reached, running.output()
        return Run(setup, stand_in, setup.results(), setup.versions(), dead, code, running.output(), setup.counts())


def test_every_message_ends_as_one_result_or_one_dead_letter(run):
    assert set(run.results) == _expected_results()
    assert len(run.dead) == len(set(run.dead)) == len(FAILING) + len(POISON) + 1
    assert run.remaining == {"ApproximateNumberOfMessages": 0, "ApproximateNumberOfMessagesNotVisible": 0}


def test_each_result_is_written_once(run):
    """The bucket is versioned: a second write of a key would be a second version."""
    assert set(run.versions.values()) == {1}


def test_an_answer_is_a_result_line_of_vllm_run_batch(run):
    result = run.results["load/r0.json"]
    assert result["custom_id"] == "r0"
    assert result["id"].startswith("vllm-")
    assert result["error"] is None
    assert result["response"]["status_code"] == 200
    assert result["response"]["request_id"].startswith("standin-")
    assert result["response"]["body"]["choices"][0]["message"]["content"] == "echo ok"


@pytest.mark.parametrize(("custom_id", "status"), [("bad", 400), ("gone", 404)])
def test_a_client_error_is_a_result_with_its_error_and_is_not_retried(run, custom_id, status):
    result = run.results[f"default/{custom_id}.json"]
    assert result["response"]["status_code"] == status
    assert "body" not in result["response"]
    assert result["error"] == {"error": {"message": f"stand-in {status}", "code": status}}
    assert run.stand_in.calls[f"status:{status}"] == 1


@pytest.mark.parametrize("content", FAILING)
def test_a_request_that_keeps_failing_is_tried_max_receive_count_times_then_dead_lettered(run, content):
    """5xx, and 408 and 429 like them (RFC 9110 15.5.9, RFC 6585 4: "later", not "never")."""
    assert chat_line(_failing_id(content), content) in run.dead
    assert run.stand_in.calls[content] == run.setup.max_receive_count
    assert f"default/{_failing_id(content)}.json" not in run.results


def test_a_server_error_once_is_answered_on_the_next_receive(run):
    assert run.results["default/flaky.json"]["response"]["status_code"] == 200
    assert run.stand_in.calls["flaky:1"] == 2


def test_a_request_longer_than_the_visibility_timeout_runs_once(run):
    assert run.results["default/slow.json"]["response"]["status_code"] == 200
    assert run.stand_in.calls["sleep:3"] == 1


def test_a_message_whose_result_exists_is_deleted_without_asking_the_server(run):
    assert run.results["default/twice.json"] == EARLIER
    assert run.stand_in.calls["answered already"] == 0


def test_two_batches_reusing_a_custom_id_get_a_result_each(run):
    assert run.results["monday/same.json"]["custom_id"] == run.results["tuesday/same.json"]["custom_id"] == "same"


@pytest.mark.parametrize("name", POISON)
def test_a_message_with_no_usable_custom_id_is_dead_lettered_unasked(run, name):
    assert POISON[name] in run.dead


def test_a_message_with_an_unsafe_batch_id_is_dead_lettered_unasked(run):
    assert chat_line("fine", "ok") in run.dead
    assert not any(key.startswith("a/") for key in run.results)


@pytest.mark.parametrize("name", WRONG)
def test_a_line_the_server_cannot_take_is_an_error_result_unasked(run, name):
    result = run.results[f"default/wrong-{name}.json"]
    assert result["response"]["status_code"] == 400
    assert WRONG[name][1] in result["error"]["error"]["message"]


def test_the_server_is_asked_only_for_what_it_can_answer(run):
    """Poison and wrong lines never reach it: the calls are the load, the two batches and the named requests."""
    named = 1 + 1 + 2 + 1 + len(FAILING) * run.setup.max_receive_count
    assert run.stand_in.calls.total() == LOAD + 2 + named


def test_sigterm_after_the_work_exits_zero_and_says_what_it_did(run):
    assert run.exit_code == 0, run.output
    assert "stopping: no more receives" in run.output
    assert '"answered": ' in run.output
