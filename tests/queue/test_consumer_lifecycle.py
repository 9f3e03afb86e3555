"""The consumer's life in a pod, run for real against moto and the stand-in (tests/support/queue_services.py): killed
part-way and started again, drained on SIGTERM, waiting for the server, and vLLM's preStop waiting for it."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from components.vllm.queue import consumer_script
from tests.support.queue_run import consumer_environment, consumer_process, make_queue, wait_until
from tests.support.queue_services import chat_line, moto_server, stand_in_server

KILLED_LOAD = 120


def _killed_and_started_again(moto, tmp_path) -> dict:
    setup = make_queue(moto, "killed", visibility=2, max_receive_count=5)
    setup.send([chat_line(f"r{index}", "sleep:0.05") for index in range(KILLED_LOAD)], batch="load")
    with stand_in_server() as stand_in:
        environment = consumer_environment(setup, stand_in.url, tmp_path / "alive")
        with consumer_process(environment, tmp_path / "first.log") as first:
            assert wait_until(lambda: len(setup.result_keys()) >= KILLED_LOAD // 3, 60), first.output()
            first.process.send_signal(signal.SIGKILL)
            first.process.wait(timeout=10)
        killed_at = len(setup.result_keys())
        with consumer_process(environment, tmp_path / "second.log") as second:
            assert wait_until(lambda: len(setup.result_keys()) == KILLED_LOAD, 90), second.output()
            assert wait_until(lambda: sum(setup.counts().values()) == 0, 30), second.output()
            second.process.send_signal(signal.SIGTERM)
            code = second.process.wait(timeout=30)
    return {
        "killed_at": killed_at,
        "code": code,
        "keys": setup.result_keys(),
        "versions": setup.versions(),
        "dead": setup.dead_letters(),
    }


def _drained_on_sigterm(moto, tmp_path) -> dict:
    setup = make_queue(moto, "drained", visibility=2, max_receive_count=5)
    setup.send([chat_line(f"r{index}", "sleep:3") for index in range(8)])
    with stand_in_server() as stand_in:
        environment = consumer_environment(setup, stand_in.url, tmp_path / "alive", CONCURRENCY="4")
        with consumer_process(environment, tmp_path / "consumer.log") as running:
            assert wait_until(lambda: stand_in.calls["sleep:3"] == 4, 30), running.output()
            time.sleep(1)
            running.process.send_signal(signal.SIGTERM)
            stopped = time.monotonic()
            code = running.process.wait(timeout=30)
            took = time.monotonic() - stopped
            output = running.output()
    return {
        "code": code,
        "output": output,
        "took": took,
        "results": len(setup.result_keys()),
        "calls": stand_in.calls["sleep:3"],
        "left_queued": wait_until(lambda: setup.counts()["ApproximateNumberOfMessages"] == 4, 10),
        "alive_left": (tmp_path / "alive").exists(),
    }


def _released_when_stopping(moto, tmp_path) -> dict:
    setup = make_queue(moto, "released", visibility=30, max_receive_count=5)
    with stand_in_server() as stand_in:
        environment = consumer_environment(setup, stand_in.url, tmp_path / "alive", RECEIVE_WAIT_SECONDS="5")
        with consumer_process(environment, tmp_path / "consumer.log") as running:
            assert wait_until(lambda: "server ready" in running.output(), 30), running.output()
            running.process.send_signal(signal.SIGTERM)
            setup.send([chat_line("late", "ok")])
            code = running.process.wait(timeout=30)
            output = running.output()
    answer = setup.sqs.receive_message(
        QueueUrl=setup.queue_url, WaitTimeSeconds=5, MessageSystemAttributeNames=["ApproximateReceiveCount"]
    )
    return {"code": code, "output": output, "calls": stand_in.calls["ok"], "messages": answer.get("Messages", [])}


def _waiting_for_health(moto, tmp_path) -> dict:
    setup = make_queue(moto, "not-ready")
    setup.send([chat_line("early", "ok")])
    with stand_in_server(ready=False) as stand_in:
        environment = consumer_environment(setup, stand_in.url, tmp_path / "alive")
        with consumer_process(environment, tmp_path / "consumer.log") as running:
            # Two answers of "not ready" (the consumer asks every 2 s): it has waited, and received nothing.
            assert wait_until(lambda: stand_in.health_checks >= 2, 30), running.output()
            counts_while_not_ready = setup.counts()
            stand_in.ready.set()
            answered = wait_until(lambda: len(setup.result_keys()) == 1, 30)
            running.process.send_signal(signal.SIGTERM)
            code = running.process.wait(timeout=30)
            output = running.output()
    return {"counts_while_not_ready": counts_while_not_ready, "answered": answered, "code": code, "output": output}


def _stopped_before_ready(moto, tmp_path) -> dict:
    setup = make_queue(moto, "never-ready")
    with stand_in_server(ready=False) as stand_in:
        environment = consumer_environment(setup, stand_in.url, tmp_path / "alive")
        with consumer_process(environment, tmp_path / "consumer.log") as running:
            # The alive file says the consumer runs (and listens for SIGTERM), waiting for the server.
            assert wait_until((tmp_path / "alive").exists, 30), running.output()
            running.process.send_signal(signal.SIGTERM)
            code = running.process.wait(timeout=30)
            output = running.output()
    return {"code": code, "output": output}


SCENARIOS = {
    "killed": _killed_and_started_again,
    "drained": _drained_on_sigterm,
    "released": _released_when_stopping,
    "not-ready": _waiting_for_health,
    "never-ready": _stopped_before_ready,
}


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    """The five scenarios side by side, each with its own queue, bucket, stand-in and consumer on one moto server:
    each mostly waits (on visibility timeouts, sleeps of the stand-in, the consumer's polls), so together they take
    about as long as the longest rather than the sum. A scenario that fails raises in its test."""
    with moto_server() as moto, ThreadPoolExecutor(len(SCENARIOS)) as pool:
        yield {name: pool.submit(scenario, moto, tmp_path_factory.mktemp(name)) for name, scenario in SCENARIOS.items()}


def test_a_consumer_killed_part_way_and_started_again_loses_nothing_and_writes_each_result_once(scenarios):
    """SIGKILL leaves up to `CONCURRENCY` messages received and unanswered, some perhaps answered and not deleted;
    they come back after the 2 s visibility timeout, and the next consumer answers them, or deletes those whose
    result is there."""
    observed = scenarios["killed"].result()
    assert observed["killed_at"] < KILLED_LOAD, "the first consumer was to be killed part-way"
    assert observed["code"] == 0
    assert observed["keys"] == {f"load/r{index}.json" for index in range(KILLED_LOAD)}
    assert set(observed["versions"].values()) == {1}
    assert observed["dead"] == []


def test_sigterm_finishes_the_requests_started_and_exits_zero(scenarios):
    """Four 3 s requests on four slots: SIGTERM a second in; each is answered, and the rest stay queued."""
    observed = scenarios["drained"].result()
    assert observed["code"] == 0, observed["output"]
    assert observed["results"] == 4
    assert observed["calls"] == 4
    assert observed["took"] < 10, (
        f"the drain took {observed['took']:.1f} s: it waited for more than the started requests"
    )
    assert observed["left_queued"]
    assert not observed["alive_left"]


def test_messages_a_stopping_consumer_receives_are_visible_again_at_once(scenarios):
    """A long poll that returns after SIGTERM brings messages the consumer will not start: it makes them visible
    again at once, not after the queue's 30 s visibility timeout."""
    observed = scenarios["released"].result()
    assert observed["code"] == 0, observed["output"]
    assert observed["calls"] == 0
    assert [message["Body"] for message in observed["messages"]] == [chat_line("late", "ok")]
    assert observed["messages"][0]["Attributes"]["ApproximateReceiveCount"] == "2"


def test_nothing_is_received_before_the_server_answers_health(scenarios):
    observed = scenarios["not-ready"].result()
    assert observed["counts_while_not_ready"] == {
        "ApproximateNumberOfMessages": 1,
        "ApproximateNumberOfMessagesNotVisible": 0,
    }
    assert observed["answered"], observed["output"]
    assert observed["code"] == 0


def test_a_consumer_stopped_before_the_server_is_ready_exits_zero(scenarios):
    assert scenarios["never-ready"].result()["code"] == 0


# vLLM's preStop: `wait-drained`, on a file the test plays the consumer with.


def test_the_prestop_waits_until_the_consumer_removes_its_alive_file(tmp_path):
    alive = tmp_path / "alive"
    alive.touch()
    clock = [0.0]

    def sleep(seconds: float) -> None:
        clock[0] += seconds
        os.utime(alive, (time.time(), time.time()))  # the consumer still beats
        if clock[0] >= 20:
            alive.unlink()

    assert consumer_script.wait_drained(str(alive), pause=10, timeout=100, clock=lambda: clock[0], sleep=sleep)
    assert 20 <= clock[0] < 22


def test_the_prestop_takes_a_stale_alive_file_for_a_consumer_that_is_gone(tmp_path):
    alive = tmp_path / "alive"
    alive.touch()
    stale = time.time() - 4 * consumer_script.ALIVE_SECONDS
    os.utime(alive, (stale, stale))
    assert consumer_script.wait_drained(str(alive), pause=0, timeout=100, sleep=lambda seconds: None)


def test_the_prestop_gives_up_after_its_timeout(tmp_path):
    alive = tmp_path / "alive"
    alive.touch()
    clock = [0.0]

    def sleep(seconds: float) -> None:
        clock[0] += seconds
        os.utime(alive, (time.time(), time.time()))

    assert not consumer_script.wait_drained(str(alive), pause=10, timeout=30, clock=lambda: clock[0], sleep=sleep)
    assert 40 <= clock[0] <= 42
