"""Per-cell peak memory: reset before a request, read after, so one big cell does not stick to the rest."""

import subprocess
import sys

import pytest

from cryptobench.measure import memory

HOG = """
import sys
x = bytearray(200 << 20)
x[::4096] = b"\\1" * len(x[::4096])  # touch every page: 200 MiB resident
del x
print("ready", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def hog():
    p = subprocess.Popen([sys.executable, "-c", HOG], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    yield p
    p.stdin.close()
    p.wait(timeout=10)


def test_the_peak_is_reset_between_cells(hog):
    if not memory.reset_peak(hog.pid):
        pytest.skip("this system cannot reset a process's peak resident set (/proc/PID/clear_refs)")
    after = memory.peak_kb(hog.pid)
    assert after is not None and after < 100 * 1024, after  # the 200 MiB of before the reset is gone


def test_the_peak_covers_what_the_process_held(hog):
    assert memory.peak_kb(hog.pid) >= 200 * 1024


def test_a_process_that_is_gone_has_no_figure():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    assert memory.peak_kb(p.pid) is None and memory.reset_peak(p.pid) is False


def test_big_streamed_decryption_keeps_memory_bounded(tmp_path):
    """Above 64 MiB a streamed decrypt/open makes its ciphertext again piece by piece, off the clock,
    instead of holding it (docs/protocol.md): its peak stays within 64 MiB of the encrypting cell's,
    and its output is the same plaintext in every provider (no disagreement)."""
    import json
    import subprocess
    import sys

    out = tmp_path / "r.json"
    run = subprocess.run(
        [sys.executable, "-m", "cryptobench", "run", "--db", str(tmp_path / "r.db"), "--suite", "big",
         "--size", "100MB", "--alg", "aes-128-gcm,aes-128-ctr", "--provider", "c:openssl,go:stdlib,cpp:botan,rust:rustcrypto",
         "--time-per-cell", "0.05", "--passes", "1", "--quiet", "--json", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    doc = json.loads(out.read_text())
    cells = {(c["provider"], c["alg"], c["op"]): c for c in doc["cells"] if c["status"] == "ok"}
    # (the Python driver's regeneration is tested in drivers/python/tests: its pure-Python checksum of
    # 100 MB takes 16 s a cell)
    pairs = [("c:openssl", "aes-128-gcm", "seal", "open"), ("c:openssl", "aes-128-ctr", "encrypt", "decrypt"),
             ("go:stdlib", "aes-128-ctr", "encrypt", "decrypt"), ("cpp:botan", "aes-128-gcm", "seal", "open"),
             ("cpp:botan", "aes-128-ctr", "encrypt", "decrypt"), ("rust:rustcrypto", "aes-128-ctr", "encrypt", "decrypt")]  # fmt: skip
    for pid, alg, fwd, inv in pairs:
        enc, dec = cells[(pid, alg, fwd)], cells[(pid, alg, inv)]
        assert dec["peak_rss_kb"] < enc["peak_rss_kb"] + 64 * 1024, (pid, alg, enc["peak_rss_kb"], dec["peak_rss_kb"])
        assert dec["checksum"].startswith("05f5e100:"), dec["checksum"]  # 100 MB of plaintext
    assert not any("outputs disagree" in w for w in doc["warnings"]), doc["warnings"]


def test_a_library_that_holds_the_stream_is_said_beside_the_cell():
    """The optional `memory` of a bench response (docs/protocol.md): kept in the cell's extra in its
    documented shape, the largest figure of the rounds, and a `library-memory` warning names it; a
    malformed one is ignored, not stored."""
    from cryptobench.core.cell import CellSpec
    from cryptobench.core.settings import Settings
    from cryptobench.measure import sampler
    from cryptobench.report import model
    from cryptobench.run import cell_records

    spec = CellSpec("aes-128-gcm", "open", 100 << 20, 1 << 20, ("java:jca",))
    t = sampler.Track()
    why = "SunJCE's AES/GCM decryption holds the whole ciphertext until doFinal"
    for held in (50 << 20, 100 << 20, 10):
        resp = {"batch": 1, "samples_ns": [9_000_000, 9_100_000], "checksum": "c",
                "memory": {"library_held_bytes": held, "why": why}}  # fmt: skip
        sampler.absorb(t, resp, 300 * 1024)
    for bad in ({"library_held_bytes": "many", "why": why}, {"library_held_bytes": 5}, {"why": why}):
        sampler.absorb(t, {"batch": 1, "samples_ns": [9_000_000], "checksum": "c", "memory": bad}, 300 * 1024)
    s = Settings(suite="t", baseline="java:jca", time_per_cell=1.0, passes=1, min_samples=2, max_rel_ci=0.5)
    rec = cell_records.measured(spec, "java:jca", t, s, None)
    assert rec.extra["memory"] == {"library_held_bytes": 100 << 20, "why": why}
    r = model.Row(rec, summary=model.stats.summarize(rec.per_op_ns))
    out: list = []
    model._cell_warnings(r, 0, 0.02, out)
    mine = [n for n in out if getattr(n, "kind", "") == "library-memory"]
    assert len(mine) == 1 and "peak RSS 300 MiB" in mine[0] and "100.0 MiB" in mine[0] and why in mine[0], out
    assert "library held 100 MiB" in r.notes
    plain = sampler.Track()
    sampler.absorb(plain, {"batch": 1, "samples_ns": [9_000_000], "checksum": "c"}, 1024)
    assert "memory" not in cell_records.measured(spec, "java:jca", plain, s, None).extra
