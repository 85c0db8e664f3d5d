"""Prints criterion results as a Markdown table of ratios: each bench against the `floor`
function of its group with the same parameter. Usage: bench_table.py target/criterion"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1])
rows = {}
for bench in root.glob("**/new/benchmark.json"):
    meta = json.loads(bench.read_text())
    est = json.loads((bench.parent / "estimates.json").read_text())
    key = (meta["group_id"], meta.get("value_str") or "")
    rows.setdefault(key, {})[meta["function_id"]] = est["median"]["point_estimate"]


def fmt(ns: float) -> str:
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.2f} {unit}"
    return f"{ns:.0f} ns"


def order(key):
    group, value = key
    return (group, int(value) if value.isdigit() else 0, value)


print("| bench | input | floor | toolnexus | ratio |")
print("|---|---|---|---|---|")
for key in sorted(rows, key=order):
    fns = rows[key]
    floor = fns.get("floor")
    for name, ns in sorted(fns.items()):
        if name == "floor":
            continue
        ratio = f"{ns / floor:.2f}×" if floor else "n/a"
        print(f"| {key[0]} ({name}) | {key[1]} | {fmt(floor) if floor else '-'} | {fmt(ns)} | {ratio} |")
