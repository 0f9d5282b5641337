// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz the YAML importer. Every input either parses, or fails with a
 * message tied to a line:column (only running out of memory has no place).
 * A document that parses is written back with the export writer and must
 * parse again into an equal document. Any breach aborts, which libFuzzer
 * reports as a crash.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libcfg/cfg.h"
#include "../../libcfg/yemit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool nets_equal(const struct cfg_doc *a, const struct cfg_doc *b)
{
	size_t i;
	u32 j;

	if (a->nnets != b->nnets)
		return false;
	for (i = 0; i < a->nnets; i++) {
		const struct cfg_net *x = a->nets[i], *y = b->nets[i];

		if (x->net_id != y->net_id || x->nifs != y->nifs ||
		    memcmp(&x->tun, &y->tun, sizeof(x->tun)))
			return false;
		for (j = 0; j < x->nifs; j++)
			if (strcmp(x->ifnames[j], y->ifnames[j]))
				return false;
	}
	return true;
}

static bool peers_equal(const struct cfg_doc *a, const struct cfg_doc *b)
{
	size_t i;
	u32 j;

	if (a->npeers != b->npeers)
		return false;
	for (i = 0; i < a->npeers; i++) {
		const struct cfg_peer *x = a->peers[i], *y = b->peers[i];

		if (!lnet_nid_equal(&x->prim, &y->prim) || x->flags != y->flags ||
		    x->nnids != y->nnids)
			return false;
		for (j = 0; j < x->nnids; j++)
			if (!lnet_nid_equal(&x->nids[j], &y->nids[j]))
				return false;
	}
	return true;
}

static bool rules_equal(const struct cfg_doc *a, const struct cfg_doc *b)
{
	size_t i;

	if (a->npolicies != b->npolicies)
		return false;
	for (i = 0; i < a->npolicies; i++) {
		const struct lnet_udsp_desc *x = &a->policies[i]->d, *y = &b->policies[i]->d;

		if (x->idx != y->idx || x->priority != y->priority ||
		    !lnet_udsp_desc_same_match(x, y))
			return false;
	}
	return true;
}

static void check_roundtrip(const struct cfg_doc *doc)
{
	struct cfg_err err = { 0 };
	struct cfg_doc *again;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	if (cfg_doc_write(doc, f, &err))
		abort();
	if (fclose(f))
		abort();
	if (cfg_doc_parse(buf, len, &again, &err)) {
		fprintf(stderr, "re-parse failed: %u:%u: %s\n%s", err.loc.line,
			err.loc.col, err.msg, buf);
		abort();
	}
	if (!nets_equal(doc, again) || !peers_equal(doc, again) ||
	    !rules_equal(doc, again))
		abort();
	cfg_doc_free(again);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfg_err err = { 0 };
	struct cfg_doc *doc;
	int rc;

	if (size > 65536)
		return 0;
	rc = cfg_doc_parse((const char *)data, size, &doc, &err);
	if (rc) {
		if (!err.msg[0] || (rc != -ENOMEM && !err.loc.line)) {
			fprintf(stderr, "error without a place: %d %u:%u '%s'\n", rc,
				err.loc.line, err.loc.col, err.msg);
			abort();
		}
		return 0;
	}
	check_roundtrip(doc);
	cfg_doc_free(doc);
	return 0;
}
