"""Prints criterion results as a Markdown table of ratios: each bench against the `floor`
function of its group with the same parameter, with the issue-14 target where there is one.
Usage: bench_table.py target/criterion"""
import json
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
rows = {}
for bench in root.glob("**/new/benchmark.json"):
    meta = json.loads(bench.read_text())
    est = json.loads((bench.parent / "estimates.json").read_text())
    key = (meta["group_id"], meta.get("value_str") or "")
    rows.setdefault(key, {})[meta["function_id"]] = est["median"]["point_estimate"]

# (group regex, function, input regex) -> target ratio
TARGETS = [
    (r"render/(openai|gemini)$", "to_value", r"^(100|1000)$", 1.5),
    (r"render_cached/", "to_json", r"^1$", 2.0),
    (r"render_cached/", "to_json", r"^(10|100|1000)$", 1.2),
    (r"dispatch/", "toolkit", r"", 1.3),
    (r"turn/", "execute_calls", r"", 1.05),
    (r"typed/parse$", "parse_text", r"", 1.1),
    (r"typed/render$", "request_part", r"", 1.5),
]


def target(group, function, value):
    for g, f, v, limit in TARGETS:
        if re.match(g, group) and function == f and re.search(v, value):
            return limit
    return None


def fmt(ns: float) -> str:
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.0f} ns"


def order(key):
    group, value = key
    return (group, int(value) if value.isdigit() else 0, value)


print("| bench | input | floor | toolnexus | ratio | target |")
print("|---|---|---|---|---|---|")
for key in sorted(rows, key=order):
    fns = rows[key]
    floor = fns.get("floor")
    for name, ns in sorted(fns.items()):
        if name == "floor":
            continue
        ratio = ns / floor if floor else None
        limit = target(key[0], name, key[1])
        if limit is None or ratio is None:
            goal = ""
        else:
            goal = f"≤ {limit}× {'met' if ratio <= limit else 'MISSED'}"
        shown = f"{ratio:.2f}×" if ratio is not None else "n/a"
        floor_text = fmt(floor) if floor else "-"
        print(f"| {key[0]} ({name}) | {key[1] or '-'} | {floor_text} | {fmt(ns)} | {shown} | {goal} |")
