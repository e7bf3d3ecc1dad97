#!/usr/bin/env python3
"""Checks that the production modules (and everything they depend on) link no test framework: none of
them may depend on AsyncSchedulersTesting (which imports Swift Testing when it can), and none of their
sources may import Testing or XCTest. Also that no library or executable depends on a target under
Tests/ (test support and app-pattern targets are for test targets only)."""
import json, pathlib, re, subprocess, sys

PRODUCTION = ["AsyncSchedulers", "AsyncSignals", "AsyncSchedulersBridge", "AsyncSchedulersRxBridge"]
TEST_MODULES = {"AsyncSchedulersTesting", "AsyncSchedulersBridgeTesting", "AsyncSchedulersRxBridgeTesting", "AsyncSchedulersTestSupport"}

package = json.loads(subprocess.check_output(["swift", "package", "describe", "--type", "json"], text=True))
targets = {t["name"]: t for t in package["targets"]}
failures = []
for name in PRODUCTION:
    seen, pending = set(), [name]
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        pending.extend(targets[current].get("target_dependencies", []))
    for bad in sorted(seen & TEST_MODULES):
        failures.append(f"{name} depends on {bad}")
    for module in sorted(seen):
        for source in pathlib.Path(targets[module]["path"]).rglob("*.swift"):
            if re.search(r"^\s*import\s+(Testing|XCTest)\b", source.read_text(), re.M):
                failures.append(f"{name}: {source} imports a test framework")
for name, target in targets.items():
    if target["type"] in ("library", "executable") and not target["path"].startswith("Tests"):
        for dependency in target.get("target_dependencies", []):
            if targets[dependency]["path"].startswith("Tests"):
                failures.append(f"{name} depends on {dependency}, a target under Tests/")
for failure in failures:
    print("FAIL:", failure)
print("production modules link no test framework" if not failures else f"{len(failures)} problem(s)")
sys.exit(1 if failures else 0)
