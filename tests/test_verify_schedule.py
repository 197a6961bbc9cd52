"""verify/schedule.py: the one thread-pool helper of verification, the per-provider locks and the
profile bench/matrix-profile prints. No driver is started: fakes only, well under a CPU second."""

import threading
import time

import pytest

from cryptobench.verify import schedule


def test_at_once_gives_results_in_order_and_starts_the_costliest_first():
    started: list[str] = []
    gate = threading.Lock()

    def job(name: str) -> str:
        with gate:
            started.append(name)
        return name.upper()

    items = ["small", "huge", "mid"]
    cost = {"small": 1, "huge": 9, "mid": 5}
    assert schedule.at_once(items, job, 1, cost=cost.get) == ["SMALL", "HUGE", "MID"]
    assert started == ["huge", "mid", "small"]  # one worker: longest-processing-time first


def test_a_failing_job_raises_here_sets_stop_and_drops_the_jobs_not_started():
    stop = threading.Event()
    ran: list[int] = []

    def job(i: int) -> int:
        if i == 0:
            raise ValueError("boom")
        time.sleep(0.01)
        ran.append(i)
        return i

    with pytest.raises(ValueError, match="boom"):
        schedule.at_once(list(range(50)), job, 1, stop=stop)
    assert stop.is_set() and len(ran) < 49  # the rest were cancelled or refused (Stopped)


def test_one_thread_at_a_time_per_provider_and_its_busy_time_is_counted():
    providers = schedule.Providers()
    inside = {"a": 0, "b": 0}
    most = {"a": 0, "b": 0}
    lock = threading.Lock()

    def ask(pid: str) -> None:
        with providers.using(pid, "known answers"):
            with lock:
                inside[pid] += 1
                most[pid] = max(most[pid], inside[pid])
            time.sleep(0.01)
            with lock:
                inside[pid] -= 1

    schedule.at_once(["a", "b"] * 4, ask, 8)
    assert most == {"a": 1, "b": 1}  # never two requests to one driver at once
    assert providers.busy["a"]["known answers"] >= 0.04 and providers.busy["b"]["known answers"] >= 0.04
    with providers.stage("differential", "sha256"):
        pass
    prof = providers.profile()
    assert set(prof["spans"]) == {"differential"} and prof["jobs"][0][:2] == ("differential", "sha256")


def test_costs_come_from_the_last_run_and_a_guess_before_any(tmp_path):
    path = str(tmp_path / "verify" / "seconds.json")
    first = schedule.Costs(path)
    assert first.of("sha256", 3.0) == 3.0  # nothing measured yet: the guess
    with first.measure("sha256"):
        pass
    first.save()
    assert schedule.Costs(path).of("sha256", 3.0) < 1.0
    (tmp_path / "verify" / "seconds.json").write_text("not json")
    assert schedule.Costs(path).of("sha256", 3.0) == 3.0  # a broken file is only a lost order


def test_no_more_drivers_work_at_once_than_the_slots():
    providers = schedule.Providers(at_once=2)
    inside, most = [0], [0]
    lock = threading.Lock()

    def ask(pid: str) -> None:
        with providers.using(pid, "differential"):
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.01)
            with lock:
                inside[0] -= 1

    schedule.at_once([f"p{i}" for i in range(8)], ask, 8)
    assert most[0] == 2  # eight providers, eight threads: two drivers at work at a time
