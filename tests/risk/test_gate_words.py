"""The shared word scan that gates whole-text checks (`sandlot.risk.gate_words`)."""

from __future__ import annotations

import random
import string
import threading

import pytest

from sandlot.risk.gate_words import GateWords


def test_any_in_matches_substrings_anywhere() -> None:
    gate = GateWords("etcdctl", "/v1/kv", "delay(")
    assert gate.any_in("ETCDCTL_API=3 etcdctl del --prefix /")
    assert gate.any_in("curl -X DELETE http://127.0.0.1:8500/v1/kv/?recurse")
    assert gate.any_in("task.delay(42)")
    assert not gate.any_in("ls -la /tmp")
    assert not gate.any_in("")


def test_words_inside_longer_words_and_overlapping_words_are_found() -> None:
    # The scan reports every occurrence, also one word inside another word of another gate.
    outer = GateWords("administrator")
    inner = GateWords("dmin")
    overlapping = GateWords("strator_x", "rator")
    text = "net localgroup administrators"
    assert outer.any_in(text)
    assert inner.any_in(text)
    assert overlapping.any_in(text)


def test_ignore_case_folds_the_text_and_the_words() -> None:
    gate = GateWords("Redfish", "SNMP", ignore_case=True)
    assert gate.words == ("redfish", "snmp")
    assert gate.any_in("curl https://bmc/REDFISH/v1/Systems")
    assert gate.any_in("snmpwalk -v2c")
    exact = GateWords("Redfish")
    assert not exact.any_in("curl https://bmc/redfish/v1")


def test_each_text_gets_its_own_answer_when_texts_alternate() -> None:
    # The scan of the last few texts is kept; answers must never leak from one text to another.
    gate = GateWords("rm -rf")
    texts = ["rm -rf build", "ls", "rm -rf /", "echo rm", "cat x"] * 3
    assert [gate.any_in(t) for t in texts] == ["rm -rf" in t for t in texts]


def test_words_registered_after_a_scan_are_found_in_later_scans() -> None:
    text = "zzgate-first then zzgate-late"
    first = GateWords("zzgate-first")
    assert first.any_in(text)
    late = GateWords("zzgate-late")  # the automaton is rebuilt with the new word
    assert late.any_in(text)
    assert first.any_in(text)


def test_agrees_with_substring_search_on_random_texts() -> None:
    rng = random.Random(7)
    alphabet = "ab/:( " + string.digits[:3]
    gates = [GateWords(*{"".join(rng.choices(alphabet, k=rng.randint(1, 4))) for _ in range(5)}) for _ in range(20)]
    for _ in range(300):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 40)))
        for gate in gates:
            assert gate.any_in(text) == any(word in text for word in gate.words), (gate, text)


def test_an_empty_gate_or_word_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one word"):
        GateWords()
    with pytest.raises(ValueError, match="no empty word"):
        GateWords("ok", "")


def test_concurrent_use_gives_the_same_answers() -> None:
    gate = GateWords("needle")
    texts = [f"{'needle' if i % 3 == 0 else 'hay'} {i}" for i in range(200)]
    expected = ["needle" in t for t in texts]
    results: list[list[bool]] = []

    def scan() -> None:
        results.append([gate.any_in(t) for t in texts])

    threads = [threading.Thread(target=scan) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4
