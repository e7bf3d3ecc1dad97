#!/usr/bin/env python3
"""Fails when a public symbol declared in this package's Sources/ has no doc comment of its own.

  .ci/undocumented.py SYMBOLGRAPH_DIR MODULE...

Reads MODULE.symbols.json and MODULE@*.symbols.json (extensions of other modules' types). A symbol
counts as declared here when its location is under Sources/MODULE/; members a type inherits from a
protocol or a superclass in another module (this package's included: they are checked in the graph of
the module that declares them) are not declared here and need no comment. A comment inherited from the
protocol requirement a symbol implements does not count: the implementation must say what it does.
"""
import glob, json, os, sys

graphs, modules = sys.argv[1], sys.argv[2:]
missing, checked = [], 0
for module in modules:
    files = [os.path.join(graphs, f'{module}.symbols.json')] + sorted(
        glob.glob(os.path.join(graphs, f'{module}@*.symbols.json')))
    for path in files:
        graph = json.load(open(path))
        for symbol in graph['symbols']:
            location = symbol.get('location', {})
            uri = location.get('uri', '')
            if f'/Sources/{module}/' not in uri:
                continue
            checked += 1
            comment = symbol.get('docComment')
            text = ''.join(line.get('text', '') for line in comment['lines']).strip() if comment else ''
            # A comment copied from the requirement a symbol implements names another file (or module).
            inherited = comment is not None and (
                comment.get('module') not in (None, module) or comment.get('uri') not in (None, uri))
            if not text or inherited:
                line = location.get('position', {}).get('line', 0) + 1
                where = 'Sources/' + uri.split('/Sources/', 1)[1]
                name = '.'.join(symbol['pathComponents'])
                missing.append(f'{where}:{line}: public {symbol["kind"]["displayName"].lower()} {name} has no doc comment')
if missing:
    print('\n'.join(missing))
    print(f'{len(missing)} undocumented public symbol(s)')
    sys.exit(1)
print(f'doc comments: all {checked} public symbols of {len(modules)} modules are documented')
