#!/usr/bin/env python3
"""The testing module's seams (issue 44): fails, naming file and line, when
- a file of the virtual-time room (Sources/AsyncSchedulersTesting/VirtualTime/) names the scope's
  registry, the scope's own types or the runtime hooks: the scheduler knows its scope only through the
  CapturingScope protocol;
- a file outside the runtime-hooks room calls dlsym, dlopen or mprotect;
- a file of the module is longer than 320 lines (rooms of one concept per file, about 300 lines);
- a `package` declaration of the core (Sources/AsyncSchedulers) is not named in the core's Internals
  article, the list of the engine seam (so the article stays true as the seam changes).
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent / "Sources" / "AsyncSchedulersTesting"
forbidden_in_virtual_time = re.compile(
    r"\b(ActiveScopes|CaptureScope|CaptureScopeStateMachine|VirtualClockReads|ScopeDispatch|ScopeWorkSlot|"
    r"RuntimeHooks|RuntimeHook|RuntimeSymbols|TaskIdentity|LibraryImportSlot|GlobalEnqueueHook|"
    r"MainExecutorHook|ClockReadHook|DispatchTimerHook|DispatchQueueHook)\b")
runtime_calls = re.compile(r"\b(dlsym|dlopen|mprotect)\s*\(")
problems = []
for path in sorted(root.rglob("*.swift")):
    relative = path.relative_to(root)
    lines = path.read_text().splitlines()
    if len(lines) > 320:
        problems.append(f"{relative}: {len(lines)} lines (more than 320: split it by concern)")
    for number, line in enumerate(lines, 1):
        code = line.split("//", 1)[0]
        if relative.parts[0] == "VirtualTime" and forbidden_in_virtual_time.search(code):
            problems.append(f"{relative}:{number}: the virtual-time room names the scope or the hooks: {line.strip()}")
        if relative.parts[0] != "RuntimeHooks" and runtime_calls.search(code):
            problems.append(f"{relative}:{number}: only RuntimeHooks/ calls dlsym, dlopen or mprotect: {line.strip()}")
core = root.parent / "AsyncSchedulers"
internals = (core / "AsyncSchedulers.docc" / "Internals.md").read_text()
declaration = re.compile(
    r"\bpackage\s+(?:(?:static|final|mutating|nonisolated|private\(set\))\s+)*"
    r"(?:func|var|let|struct|enum|class|protocol|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)")
for path in sorted(core.rglob("*.swift")):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        match = declaration.search(line.split("//", 1)[0])
        if match and f"{match.group(1)}" not in internals:
            problems.append(
                f"AsyncSchedulers/{path.relative_to(core)}:{number}: package `{match.group(1)}` is not named in "
                "the core's Internals article (the engine seam's list)")
for problem in problems:
    print(problem)
if problems:
    sys.exit(1)
print(f"seams hold in {sum(1 for _ in root.rglob('*.swift'))} files")
