/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A small YAML writer over libyaml's emitter: block style, indent 4, no
 * line folding. Strings are written plain when a YAML parser reads them back
 * as the same string, else quoted (values starting with '[' or '*', "a: b",
 * "true", "12", "null", ...); numbers and booleans are written plain. The first failure sticks: later calls do
 * nothing and yemit_end() returns it, so printers need not check each call.
 */
#ifndef LNET_CFG_YEMIT_H
#define LNET_CFG_YEMIT_H

#include <stdbool.h>
#include <stdio.h>
#include <yaml.h>
#include "cfg_priv.h"

struct yemit {
	yaml_emitter_t emitter;
	int rc;
	struct cfg_err *err;
};

/* Start a stream and its (implicit) document on @out. */
int yemit_begin(struct yemit *w, FILE *out, struct cfg_err *err);
/* Close the document and the stream, flush; 0 or the first error. */
int yemit_end(struct yemit *w);

void yemit_map_start(struct yemit *w);
void yemit_map_end(struct yemit *w);
void yemit_seq_start(struct yemit *w);
void yemit_seq_end(struct yemit *w);
/* A string: quoted when plain text would not read back as this string. */
void yemit_str(struct yemit *w, const char *s);
/* Plain as given: numbers, booleans, index keys ("0: eth0"). */
void yemit_plain(struct yemit *w, const char *s);

void yemit_kv_str(struct yemit *w, const char *key, const char *val);
/* @val double-quoted, as Lustre writes some strings (CPT: "[0]"). */
void yemit_kv_dquoted(struct yemit *w, const char *key, const char *val);
void yemit_kv_u64(struct yemit *w, const char *key, unsigned long long val);
void yemit_kv_s64(struct yemit *w, const char *key, long long val);
void yemit_kv_bool(struct yemit *w, const char *key, bool val);
/* @key, then open a mapping / sequence as its value. */
void yemit_key_map(struct yemit *w, const char *key);
void yemit_key_seq(struct yemit *w, const char *key);

/*
 * Write @doc in the import layout (what export --backup prints and
 * cfg_doc_parse() reads back into an equal document). Nothing is written
 * for an empty document.
 */
int cfg_doc_write(const struct cfg_doc *doc, FILE *out, struct cfg_err *err);

#endif /* LNET_CFG_YEMIT_H */
