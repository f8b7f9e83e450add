#!/usr/bin/env python3
"""The mutation scores of proofs/mutants/*.md with the equivalent mutants set aside.

    python3 scripts/mutants-equivalents.py            # rewrite every report's score line
    python3 scripts/mutants-equivalents.py --check    # exit 1 if a report is not as written

An equivalent mutant computes what the original computes, so no test can kill it; it is listed
with the reason in proofs/EQUIVALENT_MUTANTS.md. A survivor counts as equivalent when that
list names it: the same file and the same change (`replace < with <= in scan`, `delete match arm 5 in …`), line and column
aside. Every other survivor, and every timeout, counts against the score.

For each section of a report (one run of `scripts/mutants.sh`: its table of caught / missed /
unviable / timeout and its list of missed mutants) this writes one line after the table:

    Equivalent (proofs/EQUIVALENT_MUTANTS.md): E of the M missed. Caught / non-equivalent viable:
    C of N = P %[, 95 % Wilson interval L % to U % for the path's non-equivalent mutants].

The interval is given for a sampled run (`MUTANTS_SHARD`), as for the raw score: it estimates the
share over all the path's mutants from the sample. Written by a command, so that the score a
report states is the one its lists give.
"""

import glob
import math
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LINE = "Equivalent (proofs/EQUIVALENT_MUTANTS.md):"


def equivalents():
    """(file, change) pairs listed as equivalent."""
    with open(os.path.join(ROOT, "proofs", "EQUIVALENT_MUTANTS.md"), encoding="utf-8") as f:
        text = f.read()
    pairs = set()
    for row in text.splitlines():
        if not row.startswith("| `"):
            continue
        cell = row.split(" | ")[0]
        current = None
        for quoted in re.findall(r"`([^`]+)`", cell.replace("\\|", "|")):
            m = re.match(r"((?:crates/[^/]+/)?src/[^:]+): ((?:replace|delete) .+)$", quoted)
            if m:
                current = source(m.group(1))
                pairs.add((current, m.group(2)))
            elif quoted.startswith(("replace ", "delete ")) and current:
                pairs.add((current, quoted))
    return pairs


def source(path):
    """A source file named the same before and after the maths became crates:
    `crates/probdml/src/vmf/x.rs` and `src/vmf/x.rs` are one file (the crates' module trees
    mirror each other)."""
    return re.sub(r"^crates/[^/]+/", "", path)


def wilson(caught, n):
    z = 1.959964
    p = caught / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return 100 * (mid - half), 100 * (mid + half)


def rewrite(text, known):
    sections = re.split(r"(?m)^(?=## `)", text)
    out = []
    for section in sections:
        table = re.search(r"(?m)^\| (\d+) \| (\d+) \| (\d+) \| (\d+) \| [^|\n]+\|\n", section)
        if not section.startswith("## `") or not table:
            out.append(section)
            continue
        caught, missed, _unviable, timeout = (int(table.group(k)) for k in range(1, 5))
        listed = re.search(r"(?ms)^Missed:\n\n(.*?)(?:\n\n|\Z)", section)
        names = re.findall(r"^- `([^`]+)`", listed.group(1), re.M) if listed else []
        equivalent = 0
        for name in names:
            m = re.match(r"((?:crates/[^/]+/)?src/[^:]+):\d+:\d+: (.+)$", name)
            if m and (source(m.group(1)), m.group(2)) in known:
                equivalent += 1
        section = re.sub(r"(?m)^" + re.escape(LINE) + r"[^\n]*\n\n?", "", section)
        viable = caught + missed + timeout - equivalent
        line = f"{LINE} {equivalent} of the {missed} missed."
        if viable > 0:
            line += f" Caught / non-equivalent viable: {caught} of {viable} = {100 * caught / viable:.0f} %"
            sampled = re.search(r"(?m)^A sample \(shard", section)
            if sampled:
                lo, hi = wilson(caught, viable)
                line += f", 95 % Wilson interval {lo:.0f} % to {hi:.0f} % for the path's non-equivalent mutants"
            line += "."
        # After the table, and after the sample's own interval line when there is one.
        anchor = re.search(r"(?m)^A sample \(shard.*\n", section) or table
        at = anchor.end()
        section = section[:at] + "\n" + line + "\n\n" + section[at:].lstrip("\n")
        out.append(section)
    return "".join(out)


def main():
    check = "--check" in sys.argv
    known = equivalents()
    stale = []
    for path in sorted(glob.glob(os.path.join(ROOT, "proofs", "mutants", "*.md"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = rewrite(text, known)
        if new != text:
            stale.append(os.path.relpath(path, ROOT))
            if not check:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
    if check and stale:
        print("not as scripts/mutants-equivalents.py writes them: " + ", ".join(stale))
        sys.exit(1)


if __name__ == "__main__":
    main()
