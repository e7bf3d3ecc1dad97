#!/usr/bin/env python3
"""Keeps the code blocks of README.md and Migration.md identical to the compiled snippets of
Sources/AsyncSchedulersExamples. A block preceded by `<!-- snippet: NAME -->` must equal the lines
between `// snippet: NAME` and `// end-snippet` in the examples (dedented).

  .ci/snippets.py --check   exit 1 and list the differences
  .ci/snippets.py --write   rewrite the blocks from the examples
"""
import glob, os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def snippets():
    found = {}
    for path in sorted(glob.glob(os.path.join(root, 'Sources/AsyncSchedulersExamples/*.swift'))):
        name, lines = None, []
        for line in open(path).read().split('\n'):
            start = re.match(r'\s*// snippet: (\S+)\s*$', line)
            if start:
                name, lines = start.group(1), []
            elif re.match(r'\s*// end-snippet\s*$', line):
                indent = min(len(l) - len(l.lstrip()) for l in lines if l.strip())
                found[name] = '\n'.join(l[indent:] for l in lines).rstrip()
                name = None
            elif name:
                lines.append(line)
    return found

def process(path, known, write):
    text = open(path).read()
    problems = []
    def replace(match):
        name = match.group(1)
        if name not in known:
            problems.append(f'{os.path.basename(path)}: no snippet named {name} in the examples')
            return match.group(0)
        if match.group(2).rstrip() != known[name]:
            problems.append(f'{os.path.basename(path)}: block {name} differs from the examples')
        return f'<!-- snippet: {name} -->\n```swift\n{known[name]}\n```'
    new = re.sub(r'<!-- snippet: (\S+) -->\n```swift\n(.*?)```', replace, text, flags=re.S)
    if write and new != text:
        open(path, 'w').write(new)
    return problems

known = snippets()
write = '--write' in sys.argv
problems = []
for doc in ('README.md', 'Migration.md'):
    path = os.path.join(root, doc)
    if os.path.exists(path):
        problems += process(path, known, write)
if problems and not write:
    print('\n'.join(problems))
    sys.exit(1)
print(f'snippets: {len(known)} compiled snippets, documents {"updated" if write else "in sync"}')
