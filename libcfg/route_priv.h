/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The route, routing, buffers and global sections of a YAML document
 * (doc_route.c, apply_route.c, show_route.c), hooked into the document
 * parser (doc.c), the applier (apply.c) and the writers (show.c).
 */
#ifndef LNET_CFG_ROUTE_PRIV_H
#define LNET_CFG_ROUTE_PRIV_H

#include "yemit.h"
#include "ytree.h"

/* doc_route.c: is @key one of these sections? Then parse it into @doc. */
bool cfg_doc_is_route_section(const char *key);
/*
 * A number in the document must be written as one: a quoted "3" is a
 * string (the schema says so too). 0 or -EINVAL with the node's place.
 */
int cfg_doc_plain_number(const struct ynode *n, const char *what, struct cfg_err *err);

int cfg_doc_parse_route_section(struct cfg_doc *doc, const struct ynode *key,
				struct cfg_err *err);

/*
 * apply_route.c: add (or with @del delete / reset to the defaults) the
 * routes, routing, buffers and global settings of @doc. On failure what
 * this call did is undone; on success *@undo says how to undo it later.
 */
struct cfg_route_undo;
int cfg_doc_apply_routes(struct cfg_handle *h, const struct cfg_doc *doc, bool del,
			 struct cfg_err *err, struct cfg_route_undo **undo);
/* Undo (appending a failure to @err, if any) and free; NULL does nothing. */
void cfg_doc_undo_routes(struct cfg_handle *h, struct cfg_route_undo *undo,
			 struct cfg_err *err);
void cfg_doc_free_routes(struct cfg_route_undo *undo);

/*
 * show_route.c: the running routes, and the routing, buffers and global
 * values that differ from the defaults (what export --backup keeps).
 */
int cfg_doc_read_routes(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err);
bool cfg_doc_has_routes(const struct cfg_doc *doc);
/* Inside the top mapping of an open document. */
void cfg_doc_write_routes(struct yemit *w, const struct cfg_doc *doc);
/* The full export: every value, routes with their state and type. */
int cfg_export_routes(struct yemit *w, struct cfg_handle *h, struct cfg_err *err);

#endif /* LNET_CFG_ROUTE_PRIV_H */
