"""`probdml.instruction_set()` names the widest copy of the kernels that this CPU can run, read
here independently of the extension: from the flags the Linux kernel reports in /proc/cpuinfo
(a flag it reports is one the CPU has and the kernel has enabled the registers of), by the rule
of `crates/probdml-core/src/instruction_set.rs`: a copy runs when the CPU has every feature its trampoline is compiled
with (`#[target_feature(enable = ...)]`)."""

import platform
import re
from pathlib import Path

import pytest

import probdml

ROOT = Path(__file__).resolve().parents[2]

# Each copy, widest first, with the features of its trampoline in crates/probdml-core/src/instruction_set.rs, spelt
# as /proc/cpuinfo spells them (the same names as Rust's for these features).
COPIES = [
    ("avx512", {"avx2", "fma", "avx512f", "avx512dq", "avx512vl", "avx512bw"}),
    ("avx2-fma", {"avx2", "fma"}),
    ("portable", set()),
]
TRAMPOLINES = {"avx512": "avx512", "avx2-fma": "avx2_fma"}


def cpu_flags() -> set[str]:
    cpuinfo = Path("/proc/cpuinfo")
    if platform.machine() not in ("x86_64", "AMD64") or not cpuinfo.exists():
        pytest.skip("the flags are read from Linux's /proc/cpuinfo on x86-64")
    for line in cpuinfo.read_text().splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return set(value.split())
    pytest.fail("/proc/cpuinfo has no flags line")


def test_the_feature_lists_are_those_the_copies_are_compiled_with():
    source = ROOT / "crates" / "probdml-core" / "src" / "instruction_set.rs"
    if not source.exists():
        pytest.skip("the crate's source is not beside these tests")
    text = source.read_text()
    for name, features in COPIES:
        if name == "portable":
            continue
        trampoline = TRAMPOLINES[name]
        match = re.search(
            r'^#\[target_feature\(enable = "([^"]*)"\)\]\n(?:#\[[^\n]*\]\n)*unsafe fn ' + trampoline + r"<",
            text,
            re.MULTILINE,
        )
        assert match, f"no #[target_feature] attribute on fn {trampoline} in {source}"
        assert set(match.group(1).split(",")) == features, (name, match.group(1))


def test_instruction_set_is_the_widest_copy_the_cpu_flags_allow():
    flags = cpu_flags()
    expected = next(name for name, features in COPIES if features <= flags)
    missing = {name: sorted(features - flags) for name, features in COPIES if not features <= flags}
    assert probdml.instruction_set() == expected, f"this CPU lacks {missing}"
