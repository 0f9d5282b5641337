#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The soak's arithmetic (scripts/soak.sh).

  report.py runs DIR         add up the selftest runs of DIR (N.I.meta,
                             N.I.yaml, N.I.err): prints "key value" lines
                             and, on stderr, every run that breaks the
                             exactly-once accounting; exit 1 if any does
"""
import glob
import os
import sys

import yaml

LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)

CAUSES = ('timeout', 'unreachable', 'shutdown', 'network', 'start', 'abandoned')
# lnetctl prints no document when no message of a run got through and no
# route leads to the target's net: every message of it failed, unreachable.
NO_ROUTE = 'no route to net'


def one_run(base, tot, bad):
    rc, op, target, count = open(base + '.meta').read().split()
    rc, count = int(rc), int(count)
    err = open(base + '.err').read().strip()
    doc = yaml.load(open(base + '.yaml'), Loader=LOADER) or {}
    tot['runs'] += 1
    tot['sent'] += count
    st = doc.get('selftest')
    if st is None:
        if rc == 1 and NO_ROUTE in err:
            tot['failed'] += count
            tot['no_route'] += count
            return
        bad.append('%s: exit %d, no document: %s' % (base, rc, err))
        return
    by = st['failed_by']
    for c in CAUSES:
        tot[c] += by[c]
    for k in ('ok', 'failed', 'corrupt', 'duplicate'):
        tot[k] += st[k]
    why = []
    if st['ok'] + st['failed'] + st['corrupt'] != count:
        why.append('ok + failed + corrupt != count')
    if sum(by.values()) != st['failed']:
        why.append('failed_by does not add up to failed')
    if st['duplicate'] or by['abandoned']:
        why.append('duplicate %d, abandoned %d' % (st['duplicate'], by['abandoned']))
    if rc != (0 if st['ok'] == count else 1):
        why.append('exit %d' % rc)
    if why:
        bad.append('%s: %s: %s' % (base, ', '.join(why), st))


def runs(d):
    tot = dict.fromkeys(('runs', 'sent', 'ok', 'failed', 'corrupt', 'duplicate',
                         'no_route') + CAUSES, 0)
    bad = []
    for meta in sorted(glob.glob(os.path.join(d, '*.meta'))):
        one_run(meta[:-len('.meta')], tot, bad)
    for k, v in tot.items():
        print(k, v)
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == 'runs':
        return runs(sys.argv[2])
    print('usage: report.py runs DIR', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main())
