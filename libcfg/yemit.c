// SPDX-License-Identifier: LGPL-2.1-or-later
/* The YAML writer of show, export and the fuzz round trip: see yemit.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "yemit.h"

#define YEMIT_INDENT	4

static void yemit_emit(struct yemit *w, yaml_event_t *ev, int ok)
{
	if (w->rc) {
		if (ok)
			yaml_event_delete(ev);
		return;
	}
	if (!ok) {
		w->rc = cfg_fail(w->err, -ENOMEM, NULL, "out of memory writing YAML");
		return;
	}
	if (!yaml_emitter_emit(&w->emitter, ev))
		w->rc = cfg_fail(w->err, -EIO, NULL, "cannot write YAML: %s",
				 w->emitter.problem ? w->emitter.problem :
				 "output error");
}

int yemit_begin(struct yemit *w, FILE *out, struct cfg_err *err)
{
	yaml_event_t ev;

	memset(w, 0, sizeof(*w));
	w->err = err;
	if (!yaml_emitter_initialize(&w->emitter))
		return w->rc = cfg_fail(err, -ENOMEM, NULL,
					"out of memory writing YAML");
	yaml_emitter_set_output_file(&w->emitter, out);
	yaml_emitter_set_indent(&w->emitter, YEMIT_INDENT);
	yaml_emitter_set_width(&w->emitter, -1);
	yaml_emitter_set_unicode(&w->emitter, 1);
	yemit_emit(w, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
	yemit_emit(w, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL,
								NULL, 1));
	return w->rc;
}

int yemit_end(struct yemit *w)
{
	yaml_event_t ev;

	yemit_emit(w, &ev, yaml_document_end_event_initialize(&ev, 1));
	yemit_emit(w, &ev, yaml_stream_end_event_initialize(&ev));
	if (!w->rc && !yaml_emitter_flush(&w->emitter))
		w->rc = cfg_fail(w->err, -EIO, NULL, "cannot write YAML: %s",
				 strerror(errno));
	yaml_emitter_delete(&w->emitter);
	return w->rc;
}

void yemit_map_start(struct yemit *w)
{
	yaml_event_t ev;

	yemit_emit(w, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
							       YAML_BLOCK_MAPPING_STYLE));
}

void yemit_map_end(struct yemit *w)
{
	yaml_event_t ev;

	yemit_emit(w, &ev, yaml_mapping_end_event_initialize(&ev));
}

void yemit_seq_start(struct yemit *w)
{
	yaml_event_t ev;

	yemit_emit(w, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
								YAML_BLOCK_SEQUENCE_STYLE));
}

void yemit_seq_end(struct yemit *w)
{
	yaml_event_t ev;

	yemit_emit(w, &ev, yaml_sequence_end_event_initialize(&ev));
}

static void yemit_scalar(struct yemit *w, const char *s, bool plain_ok)
{
	yaml_event_t ev;

	yemit_emit(w, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL,
							(yaml_char_t *)s, (int)strlen(s),
							plain_ok, 1,
							plain_ok ? YAML_ANY_SCALAR_STYLE :
							YAML_SINGLE_QUOTED_SCALAR_STYLE));
}

static bool is_number(const char *s)
{
	char *end;

	errno = 0;
	strtod(s, &end);
	if (end != s && !*end)
		return true;
	strtoll(s, &end, 0);
	return end != s && !*end;
}

/*
 * Would a YAML 1.1 parser (PyYAML, the tests' yaml_eq) read plain @s as
 * something other than a string: null, a boolean or a number?
 */
static bool resolves_to_non_string(const char *s)
{
	static const char *const words[] = {
		"", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n",
		".inf", "-.inf", "+.inf", ".nan", NULL,
	};
	size_t i;

	for (i = 0; words[i]; i++)
		if (!strcasecmp(s, words[i]))
			return true;
	return is_number(s);
}

/*
 * YAML_ANY_SCALAR_STYLE lets libyaml's analysis pick plain only where a
 * parser reads the same characters back (anything starting with an
 * indicator such as '[' or '*' gets quoted); libyaml does not resolve
 * types, so text that would read back as null, a boolean or a number is
 * single-quoted here.
 */
void yemit_str(struct yemit *w, const char *s)
{
	yemit_scalar(w, s, !resolves_to_non_string(s));
}

void yemit_kv_dquoted(struct yemit *w, const char *key, const char *val)
{
	yaml_event_t ev;

	yemit_str(w, key);
	yemit_emit(w, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL,
							(yaml_char_t *)val, (int)strlen(val),
							0, 1, YAML_DOUBLE_QUOTED_SCALAR_STYLE));
}

void yemit_plain(struct yemit *w, const char *s)
{
	yemit_scalar(w, s, true);
}

void yemit_kv_str(struct yemit *w, const char *key, const char *val)
{
	yemit_str(w, key);
	yemit_str(w, val);
}

void yemit_kv_u64(struct yemit *w, const char *key, unsigned long long val)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", val);
	yemit_str(w, key);
	yemit_plain(w, buf);
}

void yemit_kv_s64(struct yemit *w, const char *key, long long val)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", val);
	yemit_str(w, key);
	yemit_plain(w, buf);
}

void yemit_kv_bool(struct yemit *w, const char *key, bool val)
{
	yemit_str(w, key);
	yemit_plain(w, val ? "true" : "false");
}

void yemit_key_map(struct yemit *w, const char *key)
{
	yemit_str(w, key);
	yemit_map_start(w);
}

void yemit_key_seq(struct yemit *w, const char *key)
{
	yemit_str(w, key);
	yemit_seq_start(w);
}
