#!/usr/bin/env python3
"""Keeps the code blocks of README.md, Migration.md and the DocC articles (Sources/*/*.docc/*.md)
identical to the compiled snippets of Sources/AsyncSchedulersExamples. A block preceded by
`<!-- snippet: NAME -->` must equal the lines between `// snippet: NAME` and `// end-snippet` in the
examples (dedented). In a DocC article, every Swift code block must be such a snippet, so all the
articles' code compiles. A region between `<!-- shared: NAME -->` and `<!-- end-shared -->` (the
benchmark table, the bridges' API tables) must be the same in every document that has it; the copy in
README.md or Migration.md is the original.

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

def process(path, known, write, every_block_compiled=False):
    text = open(path).read()
    problems = []
    name_of = os.path.relpath(path, root)
    if every_block_compiled:
        for match in re.finditer(r'(?:(<!-- snippet: \S+ -->)\n)?```swift\n', text):
            if not match.group(1):
                line = text.count('\n', 0, match.start()) + 1
                problems.append(f'{name_of}:{line}: a Swift block that is not a compiled snippet')
    def replace(match):
        name = match.group(1)
        if name not in known:
            problems.append(f'{name_of}: no snippet named {name} in the examples')
            return match.group(0)
        if match.group(2).rstrip() != known[name]:
            problems.append(f'{name_of}: block {name} differs from the examples')
        return f'<!-- snippet: {name} -->\n```swift\n{known[name]}\n```'
    new = re.sub(r'<!-- snippet: (\S+) -->\n```swift\n(.*?)```', replace, text, flags=re.S)
    if write and new != text:
        open(path, 'w').write(new)
    return problems

def shared_regions(text):
    return dict(re.findall(r'<!-- shared: (\S+) -->\n(.*?)<!-- end-shared -->', text, flags=re.S))

def process_shared(path, originals, write):
    text = open(path).read()
    problems = []
    def replace(match):
        name = match.group(1)
        if name not in originals:
            originals[name] = match.group(2)  # the first article that has it holds the original
        elif match.group(2) != originals[name]:
            problems.append(f'{os.path.relpath(path, root)}: region {name} differs from its original')
            return f'<!-- shared: {name} -->\n{originals[name]}<!-- end-shared -->'
        return match.group(0)
    new = re.sub(r'<!-- shared: (\S+) -->\n(.*?)<!-- end-shared -->', replace, text, flags=re.S)
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
articles = sorted(glob.glob(os.path.join(root, 'Sources/*/*.docc/**/*.md'), recursive=True))
originals = {}
for doc in ('README.md', 'Migration.md'):
    originals.update(shared_regions(open(os.path.join(root, doc)).read()))
for path in articles:
    problems += process(path, known, write, every_block_compiled=True)
    problems += process_shared(path, originals, write)
if problems and not write:
    print('\n'.join(problems))
    sys.exit(1)
print(f'snippets: {len(known)} compiled snippets; README.md, Migration.md and {len(articles)} DocC pages '
      f'{"updated" if write else "in sync"}')
