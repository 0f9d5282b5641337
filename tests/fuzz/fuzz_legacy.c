// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the module parameter converter (libcfg/legacy.c): the input as a
 * modprobe.d file, and as each of the networks, ip2nets and routes
 * strings. An error must leave a message and write nothing. What converts
 * must parse as an import document, but for what the net section takes
 * from Lustre and evaluates itself (ip2nets, CPT lists, a net with no
 * interfaces: its first interface). Any breach aborts.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../libcfg/ops_priv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A "net type:" item without "local NI(s)" after it. */
static bool has_bare_net(const char *yaml)
{
	const char *p = yaml, *eol;

	while ((p = strstr(p, "-   net type: "))) {
		eol = strchr(p, '\n');
		if (!eol || strncmp(eol + 1, "    local NI(s):", 16))
			return true;
		p = eol;
	}
	return false;
}

static void check(const struct cfg_legacy *l)
{
	struct cfg_err err = { 0 };
	struct cfg_doc *doc = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc;

	if (!f)
		abort();
	rc = cfg_legacy_yaml(l, f, &err);
	fclose(f);
	if (rc && (!err.msg[0] || len))
		abort();
	if (!rc && !l->ip2nets && !strstr(out, "CPT:") && !has_bare_net(out) &&
	    cfg_doc_parse(out, len, &doc, &err))
		abort();
	cfg_doc_free(doc);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *copy;
	struct cfg_legacy l = { 0 };
	struct cfg_err err = { 0 };

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	copy = strdup(text);
	if (copy && !cfg_legacy_modprobe(copy, &l, &err) && (l.networks || l.ip2nets || l.routes))
		check(&l);
	l = (struct cfg_legacy){ .networks = text };
	check(&l);
	l = (struct cfg_legacy){ .ip2nets = text };
	check(&l);
	l = (struct cfg_legacy){ .routes = text };
	check(&l);
	free(copy);
	free(text);
	return 0;
}
