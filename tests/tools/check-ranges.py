#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check the ranges and defaults the man pages and JSON schemas state
against the tables of lnet_tunables.h.

    check-ranges.py TABLE MAN_DIR SCHEMA_DIR

TABLE is the output of tests/tools/lnet-tables.c (the tables themselves,
not a copy of their numbers). Prints one line per disagreement,
"FILE: NAME: states X, the table says Y" (or "... states nothing"), or
for a list of keys that must be the table's rows "FILE: NAME: a key the
table does not have" / "FILE: NAME: missing, the table has it"; exits 1
when there is any, 0 silently when every page and schema agrees.
"""
import os
import re
import sys

import yaml


def read_table(path):
    rows = {'tunable': {}, 'sock': {}, 'global': {}, 'buffer': {}}
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] in ('tunable', 'sock'):
                rows[w[0]][w[1]] = {'opt': w[2], 'range': (int(w[3]), int(w[4])),
                                         'def': int(w[5])}
            else:
                rows[w[0]][w[1]] = {'range': (int(w[2]), int(w[3])), 'def': int(w[4])}
    return rows


class Report:
    def __init__(self):
        self.problems = []

    def expect(self, where, name, what, stated, want):
        if stated != want:
            self.problems.append('%s: %s: %s: states %s, the table says %s' %
                                 (where, name, what, show(stated), show(want)))


def show(v):
    if v is None:
        return 'nothing'
    if isinstance(v, tuple):
        return '%d-%d' % v
    return str(v)


def items(text, head):
    """The paragraphs of a man page's .It lines matching HEAD (a regex whose
    group 1 is the item's name), each up to the next .It or .El."""
    out = {}
    lines = text.split('\n')
    for i, line in enumerate(lines):
        m = re.match(head, line)
        if not m:
            continue
        body = []
        for nxt in lines[i + 1:]:
            if nxt.startswith('.It ') or nxt.startswith('.El'):
                break
            body.append(nxt)
        out[m.group(1)] = (m, ' '.join(body))
    return out


def one_int(regex, text):
    found = re.findall(regex, text)
    return int(found[0]) if len(found) == 1 else None


def check_set_page(rep, man, rows):
    where = 'lnetctl-set.8'
    text = open(os.path.join(man, where)).read()
    got = items(text, r'^\.It Cm (\w+) Ar (\d+)-(\d+)$')
    for name in sorted(set(got) - set(rows['global'])):
        rep.problems.append('%s: %s: states a range, but the table has no such setting'
                            % (where, name))
    for name, row in rows['global'].items():
        m, body = got.get(name, (None, ''))
        rep.expect(where, name, 'range', m and (int(m.group(2)), int(m.group(3))),
                   row['range'])
        rep.expect(where, name, 'default', one_int(r'\(default (\d+)\)', body), row['def'])
    text = ' '.join(text.split())
    # one range for every kind, then the defaults in the order tiny, small, large
    m = re.search(r'or a count from (\d+) to (\d+) [^.]*\. '
                  r'The defaults are (\d+), (\d+) and (\d+);', text)
    for k, kind in enumerate(['tiny', 'small', 'large']):
        row = rows['buffer'][kind]
        rep.expect(where, kind + '_buffers', 'range',
                   m and (int(m.group(1)), int(m.group(2))), row['range'])
        rep.expect(where, kind + '_buffers', 'default', m and int(m.group(3 + k)), row['def'])


def check_net_page(rep, man, rows):
    """lnetctl-net.8 states each NI and socket LND row's range as "MIN to
    MAX" (MIN may be \\-1), and its default when the row has one (not -1:
    derived)."""
    where = 'lnetctl-net.8'
    got = items(open(os.path.join(man, where)).read(), r'^\.It Fl -([\w-]+) Ar ')
    for row in list(rows['tunable'].values()) + list(rows['sock'].values()):
        m, body = got.get(row['opt'], (None, ''))
        r = re.findall(r'(\\?-)?(\d+) to (\d+)', body)
        rep.expect(where, '--' + row['opt'], 'range',
                   (int(('-' if r[0][0] else '') + r[0][1]), int(r[0][2]))
                   if len(r) == 1 else None, row['range'])
        if row['def'] != -1:
            rep.expect(where, '--' + row['opt'], 'default',
                       one_int(r'\(default (\d+)', body), row['def'])


def check_yaml_page(rep, man, rows):
    where = 'lnet.yaml.5'
    text = open(os.path.join(man, where)).read()
    for kind, names in (('tunable', rows['tunable']), ('buffer', rows['buffer'])):
        for name, row in names.items():
            m = re.findall(r'^\.Ql %s\n\((\d+) to (\d+)[^,\n]*, default (\d+)\)' % name,
                           text, re.M)
            rep.expect(where, name, 'range',
                       (int(m[0][0]), int(m[0][1])) if len(m) == 1 else None, row['range'])
            rep.expect(where, name, 'default', int(m[0][2]) if len(m) == 1 else None,
                       row['def'])


def check_props(rep, where, props, rows, extra=()):
    """PROPS (a schema's properties) has exactly the rows (and EXTRA), each
    with the row's minimum and maximum, and its default if it states one."""
    for name in sorted(set(props) - set(rows) - set(extra)):
        rep.problems.append('%s: %s: a property the table does not have' % (where, name))
    for name, row in rows.items():
        p = props.get(name, {})
        rng = (p['minimum'], p['maximum']) if 'minimum' in p and 'maximum' in p else None
        rep.expect(where, name, 'range', rng, row['range'])
        if 'default' in p:
            rep.expect(where, name, 'default', p['default'], row['def'])


def check_keys(rep, where, stated, want):
    """STATED (a schema's list of keys) names exactly the rows WANT."""
    for name in sorted(set(stated) - set(want)):
        rep.problems.append('%s: %s: a key the table does not have' % (where, name))
    for name in sorted(set(want) - set(stated)):
        rep.problems.append('%s: %s: missing, the table has it' % (where, name))


# What Lustre's o2iblnd writes besides the socket LND's keys: accepted, ignored.
O2IB_KEYS = ('peercredits_hiw', 'map_on_demand', 'concurrent_sends', 'fmr_pool_size',
             'fmr_flush_trigger', 'fmr_cache', 'ntx')


def check_schemas(rep, schemas, rows):
    load = lambda f: yaml.safe_load(open(os.path.join(schemas, f)))
    defs = load('defs.schema.yaml')['$defs']
    check_props(rep, 'defs.schema.yaml tunables', defs['tunables']['properties'],
                rows['tunable'])
    check_props(rep, 'defs.schema.yaml global', defs['global']['properties'],
                rows['global'], extra=('lnd_timeout', 'max_intf'))
    check_keys(rep, 'defs.schema.yaml shown_tunables',
               defs['shown_tunables']['properties'], rows['tunable'])
    check_props(rep, 'defs.schema.yaml lnd_tunables', defs['lnd_tunables']['properties'],
                rows['sock'], extra=O2IB_KEYS)
    check_keys(rep, 'defs.schema.yaml shown_lnd_tunables',
               defs['shown_lnd_tunables']['properties'], rows['sock'])
    shown = load('global-show.schema.yaml')['properties']['global']['required']
    check_keys(rep, 'global-show.schema.yaml required', shown,
               list(rows['global']) + ['lnd_timeout'])
    lnet = load('lnet.schema.yaml')
    keys = lnet['properties']['buffers']['properties']
    check_keys(rep, 'lnet.schema.yaml buffers', keys, rows['buffer'])
    bufs = {k: [a for a in lnet['$defs']['buffer_' + k]['anyOf'] if 'minimum' in a][0]
            for k in keys if 'buffer_' + k in lnet['$defs']}
    check_props(rep, 'lnet.schema.yaml buffer_*', bufs, rows['buffer'])
    shown = load('routing-show.schema.yaml')['properties']['buffers']['properties']
    check_props(rep, 'routing-show.schema.yaml buffers', shown, rows['buffer'])


def main():
    if len(sys.argv) != 4:
        sys.exit('usage: check-ranges.py TABLE MAN_DIR SCHEMA_DIR')
    rows = read_table(sys.argv[1])
    rep = Report()
    check_set_page(rep, sys.argv[2], rows)
    check_net_page(rep, sys.argv[2], rows)
    check_yaml_page(rep, sys.argv[2], rows)
    check_schemas(rep, sys.argv[3], rows)
    for p in rep.problems:
        print(p)
    sys.exit(1 if rep.problems else 0)


main()
