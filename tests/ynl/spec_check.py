#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""spec_check.py YNL_SRC SPEC: checks of the YNL spec, one TAP line each
(no plan line: check.sh numbers them).

YNL_SRC is a kernel tree with tools/net/ynl and Documentation/netlink
(scripts/ynl-src.sh)."""
import os
import sys

import jsonschema
import yaml

ynl_src, spec_path = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ynl_src, 'tools/net/ynl'))
from lib import SpecFamily  # noqa: E402

results = []


def check(name, ok, diag=()):
    results.append((ok, name, list(diag)))


with open(spec_path) as f:
    spec = yaml.safe_load(f)

proto = spec.get('protocol', 'genetlink')
schema_path = os.path.join(ynl_src, 'Documentation/netlink', proto + '.yaml')
with open(schema_path) as f:
    schema = yaml.safe_load(f)
errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(spec),
                key=lambda e: list(e.absolute_path))
check(f'the spec validates against the {proto} schema it declares '
      f'({os.path.basename(os.path.normpath(ynl_src))}'
      f'/Documentation/netlink/{proto}.yaml)',
      not errors,
      [f'{"/".join(map(str, e.absolute_path))}: {e.message}' for e in errors])

# The YNL library resolves every reference (attribute sets, enums,
# nested sets, request and reply lists) and validates again.
try:
    family = SpecFamily(spec_path, schema_path)
    check('the YNL library loads the spec (every reference resolves)', True)
except Exception as e:  # noqa: BLE001 - report whatever it raised
    family = None
    check('the YNL library loads the spec (every reference resolves)', False,
          [f'{type(e).__name__}: {e}'])

# Address attributes print as addresses (cli.py, ynl.py).
missing = []
addrs = 0
for aset in spec['attribute-sets']:
    for attr in aset['attributes']:
        name = attr['name']
        if name.endswith('-ipv4') or name.endswith('-ipv6'):
            addrs += 1
            want = name[-4:]
            if attr.get('display-hint') != want:
                missing.append(f"{aset['name']}/{name}: display-hint "
                               f"{attr.get('display-hint')}, want {want}")
            if want == 'ipv4' and attr.get('byte-order') != 'big-endian':
                missing.append(f"{aset['name']}/{name}: not big-endian")
check(f'every address attribute ({addrs}) has its display hint', addrs > 0 and not missing,
      missing)

for ok, name, diag in results:
    print(('ok' if ok else 'not ok') + ' - ' + name)
    for d in diag[:20]:
        print('#   ' + d)
sys.exit(0 if all(r[0] for r in results) else 1)
