"""Finding a witness from outside the run (witness.py): the first independent built-in provider that is
built, offers the operations asked and passes the algorithm's known answers, started apart from the
run's drivers; or, when none can be had, what kept each candidate out, in one line."""

from __future__ import annotations

import re
from collections.abc import Collection

from cryptobench.core import declared
from cryptobench.core.errors import DriverError
from cryptobench.drivers.interface import Driver, Drivers
from cryptobench.verify import witness
from cryptobench.verify.answers import UNSUPPORTED, case_verdicts
from cryptobench.verify.vectors import cases_for, strip_expected


class WitnessSearch:
    """Remembers each would-be witness's offers once started, so a later algorithm skips it unstarted."""

    def __init__(self, drivers: Drivers, known_providers: Collection[str], vectors_dir: str | None, timeout: float):
        self.drivers, self.known_providers = drivers, known_providers
        self.vectors_dir, self.timeout = vectors_dir, timeout
        self._offers: dict[str, dict] = {}  # would-be witnesses' hello offers, once started

    def start(self, alg: str, lone: list[str], ops: set[str], taken: set[str]) -> tuple[str, Driver] | str:
        """The first provider of witness.order() that is built, not in this run's `alg` (`taken`), of
        another family than every provider in `lone`, offers `ops` and passes `alg`'s known answers:
        (id, its driver, which the caller closes), or, when there is none, what kept each out."""
        candidates = witness.order()
        if not candidates:
            return "CRYPTOBENCH_WITNESSES names none"
        if declared.is_declared(alg):  # no built-in provider has it: none is started to learn that
            return f"{alg} is declared by {', '.join(declared.declared_by(alg))}, and no built-in provider offers it"
        families = {witness.family(p) for p in lone}
        unbuilt, offerless, wrong = [], [], []
        for pid in candidates:
            if pid in taken or witness.family(pid) in families or pid not in self.known_providers:
                continue
            offers = self._offers.get(pid)
            if offers is not None and not ops <= set(offers.get(alg, [])):  # known from an earlier start
                offerless.append(pid)
                continue
            got = self.drivers.start_witness(pid)
            if isinstance(got, str):
                fix = re.search(r"`(cryptobench build [^`]+)`", got)
                if fix:
                    unbuilt.append(f"{pid} ({fix.group(1)})")
                else:
                    wrong.append(f"{pid} cannot run: {got}")
                continue
            driver, hello = got
            self._offers[pid] = hello["offers"]
            offered = set(hello["offers"].get(alg, []))
            why = "offerless"
            try:
                why = self._known_answers(driver, alg, offered) if ops <= offered else why
            finally:
                if why:  # not used (or interrupted): stopped now
                    driver.close(timeout=2)
            if not why:
                return pid, driver
            if why == "offerless":
                offerless.append(pid)
            else:
                wrong.append(f"{pid} {why}")
        parts = [f"build {' or '.join(unbuilt)}"] if unbuilt else []
        if offerless:
            verb = "does" if len(offerless) == 1 else "do"
            parts.append(f"{', '.join(offerless)} {verb} not offer {', '.join(sorted(ops))}")
        parts += wrong
        known = ", ".join(candidates)
        return "; ".join(parts) or f"every independent one of {known} is in this run or of {', '.join(lone)}'s library"

    def _known_answers(self, driver: Driver, alg: str, offered: set[str]) -> str:
        """Empty when a would-be witness passes every known answer of `alg` it can run, else how it failed:
        a witness wrong where answers are published is not trusted where they are not."""
        cases = [c for c in cases_for(alg, self.vectors_dir) if c.op in offered]
        if not cases:
            return "has no known answer to check it by"
        try:
            resp = driver.request({"cmd": "verify", "alg": alg, "cases": strip_expected(cases)}, self.timeout)
        except DriverError as e:
            return f"failed its known answers ({e})"
        results = resp.get("results")
        if not isinstance(results, list) or len(results) != len(cases):
            return "failed its known answers (the wrong number of results)"
        passed = 0
        for case, why in case_verdicts(cases, results):
            if why is UNSUPPORTED:
                continue
            if why is not None:
                return f"failed its known answers (vector {case.id}: {why})"[:200]
            passed += 1
        return "" if passed else "passed no known answer"
