#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Validate YAML documents against one of the JSON Schemas in yaml-schemas/.

    yaml-validate.py SCHEMA FILE...     (FILE "-" = standard input)

Prints "FILE: ok" for a valid document, else one line per problem,
"FILE:LINE:COL: message (at PATH)", and exits 1; exits 2 on a usage error or
a schema that cannot be read. Run it with /usr/bin/python3: Debian's
python3-jsonschema and python3-yaml are installed for that interpreter.

Documents are read as lnetctl reads them: one document, no duplicate keys
(PyYAML would keep the last one silently), no aliases, integers in decimal
only, mapping keys compared as text (a key 0 is "0"). References between
schemas ($ref: defs.schema.yaml#/...) resolve against the schema's own
directory.
"""
import os
import re
import sys
import warnings

import jsonschema
import yaml


class DocError(Exception):
    def __init__(self, mark, msg):
        super().__init__(msg)
        self.mark = mark


def check_dup_keys(node):
    """Raise DocError at the second occurrence of a repeated mapping key."""
    if isinstance(node, yaml.MappingNode):
        seen = {}
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode):
                if key.value in seen:
                    first = seen[key.value]
                    raise DocError(key.start_mark, "duplicate key '%s' (first at %d:%d)"
                                   % (key.value, first.line + 1, first.column + 1))
                seen[key.value] = key.start_mark
            check_dup_keys(key)
            check_dup_keys(value)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            check_dup_keys(item)


def text_keys(data):
    """JSON objects have text keys: turn YAML keys (0, true) into text."""
    if isinstance(data, dict):
        return {str(k): text_keys(v) for k, v in data.items()}
    if isinstance(data, list):
        return [text_keys(v) for v in data]
    return data


def node_at(node, path):
    """The YAML node at a jsonschema error path (as deep as it goes)."""
    for step in path:
        if isinstance(node, yaml.MappingNode):
            nxt = [v for k, v in node.value if str(k.value) == str(step)]
            if not nxt:
                break
            node = nxt[0]
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            node = node.value[step]
        else:
            break
    return node


class LnetLoader(yaml.SafeLoader):
    """YAML 1.1 as PyYAML reads it, but integers are decimal digits only, as
    lnetctl reads them: 0x10, 010 (octal), 1_000, +1 and 1:30 stay text."""


LnetLoader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != 'tag:yaml.org,2002:int']
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
LnetLoader.add_implicit_resolver('tag:yaml.org,2002:int', re.compile(r'^-?[0-9]+$'),
                                 list('-0123456789'))
LnetLoader.add_constructor('tag:yaml.org,2002:int',
                           lambda loader, node: int(loader.construct_scalar(node), 10))


def key_at(node, err):
    """For an error about a key (one not allowed, or a bad name), its key node."""
    if not isinstance(node, yaml.MappingNode):
        return node
    if err.validator == 'additionalProperties' and isinstance(err.schema, dict):
        known = err.schema.get('properties', {})
        pats = err.schema.get('patternProperties', {})
        bad = [k for k, _ in node.value if str(k.value) not in known and
               not any(re.search(pat, str(k.value)) for pat in pats)]
    elif 'propertyNames' in list(err.schema_path):
        bad = [k for k, _ in node.value if str(k.value) == str(err.instance)]
    else:
        bad = []
    return bad[0] if bad else node


def load_doc(text):
    """(data, root node); the data of an empty document is None."""
    for event in yaml.parse(text, Loader=LnetLoader):
        if isinstance(event, yaml.AliasEvent):
            raise DocError(event.start_mark, 'aliases (*name) are not supported')
    root = yaml.compose(text, Loader=LnetLoader)
    if root is None:
        return None, None
    check_dup_keys(root)
    data = LnetLoader(text).get_single_data()
    return text_keys(data), root


def make_validator(schema_path):
    schema_path = os.path.abspath(schema_path)
    with open(schema_path) as f:
        schema = yaml.safe_load(f)
    store = {}
    sdir = os.path.dirname(schema_path)
    for name in os.listdir(sdir):
        if name.endswith('.schema.yaml'):
            with open(os.path.join(sdir, name)) as f:
                store['file://' + os.path.join(sdir, name)] = yaml.safe_load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        resolver = jsonschema.RefResolver('file://' + schema_path, schema, store=store)
    return cls(schema, resolver=resolver)


def where(name, mark):
    return '%s:%d:%d' % (name, mark.line + 1, mark.column + 1)


def validate(validator, name, text):
    """Print the problems of one document; True when it is valid."""
    try:
        data, root = load_doc(text)
    except DocError as e:
        print('%s: %s' % (where(name, e.mark), e))
        return False
    except yaml.YAMLError as e:
        mark = getattr(e, 'problem_mark', None)
        what = [getattr(e, 'context', None), getattr(e, 'problem', None)]
        print('%s: %s' % (where(name, mark) if mark else name,
                          ', '.join(w for w in what if w) or e))
        return False
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    for e in errors:
        # oneOf/anyOf: the branch that came closest says more than the union
        e = jsonschema.exceptions.best_match([e])
        path = '/'.join(str(p) for p in e.absolute_path) or '(document)'
        node = node_at(root, e.absolute_path) if root is not None else None
        node = key_at(node, e)
        loc = where(name, node.start_mark) if node is not None else name
        print('%s: %s (at %s)' % (loc, e.message, path))
    if not errors:
        print('%s: ok' % name)
    return not errors


def main(argv):
    if len(argv) < 3 or argv[1] in ('-h', '--help'):
        print('usage: yaml-validate.py SCHEMA FILE... (FILE "-" = stdin)',
              file=sys.stderr)
        return 0 if len(argv) > 1 and argv[1] in ('-h', '--help') else 2
    try:
        validator = make_validator(argv[1])
    except (OSError, yaml.YAMLError, jsonschema.SchemaError) as e:
        print('yaml-validate.py: schema %s: %s' % (argv[1], e), file=sys.stderr)
        return 2
    ok = True
    for name in argv[2:]:
        try:
            text = sys.stdin.read() if name == '-' else open(name).read()
        except OSError as e:
            print('yaml-validate.py: %s: %s' % (name, e.strerror), file=sys.stderr)
            return 2
        ok = validate(validator, name, text) and ok
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
