/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sections of a YAML document (sec_*.c) and the document-level code
 * that walks them (doc.c). A section is one row of cfg_sections[]: its
 * top-level keys and how it is parsed (YAML -> model), applied (add, or
 * delete for import --del, pushing how to undo each step), read (running
 * configuration -> model, for export --backup), written (model -> YAML)
 * and exported in full (running configuration -> YAML). Adding a section
 * is one file and one line in doc.c's table.
 *
 * Also here: the helpers every section's parser and printer share (key
 * checks, node types, error positions, the show printer).
 */
#ifndef LNET_CFG_SECTION_H
#define LNET_CFG_SECTION_H

#include "ops_priv.h"
#include "yemit.h"
#include "ytree.h"

#include "ip2nets.h"

/* A document as the library allocates it: the public part, then its own. */
struct doc {
	struct cfg_doc pub;
	struct cfg_routing routing;
	struct cfg_global global;
	struct cfg_ip2nets ip2nets;	/* the net section's `ip2nets:` rules */
};

static inline struct doc *doc_priv(const struct cfg_doc *d)
{
	return (struct doc *)((char *)d - offsetof(struct doc, pub));
}

/*
 * Append a copy of model @item (@size bytes; its lists now belong to the
 * copy) to the document's array *@arr of *@n pointers; -ENOMEM in @err.
 */
int doc_append(void *arr, size_t *n, const void *item, size_t size, struct cfg_err *err);

/* --- parsing -------------------------------------------------------------------- */

struct dparse {
	struct cfg_doc *doc;
	struct cfg_err *err;
};

/* Tie the error a shared parser just reported to node @n; returns @rc. */
int at_node(struct cfg_err *err, const struct ynode *n, int rc);
/* Every key of @map is in @allowed or @ignored; the message lists @allowed. */
int check_keys(struct dparse *p, const struct ynode *map, const char *where,
	       const char *const *allowed, const char *const *ignored);
int need_type(struct dparse *p, const struct ynode *n, enum ynode_type type,
	      const char *what);
/* A mapping @what whose keys are all in @allowed. */
int need_map(struct dparse *p, const struct ynode *n, const char *what,
	     const char *const *allowed);
/* A scalar with a value: the text the shared parsers take. */
int need_value(struct dparse *p, const struct ynode *n, const char *what);
/*
 * A number in the document must be written as one: a quoted "3" is a
 * string (the schema says so too). 0 or -EINVAL with the node's place.
 */
int cfg_doc_plain_number(const struct ynode *n, const char *what, struct cfg_err *err);
/* A scalar with a value, written as a number. */
int need_number(struct dparse *p, const struct ynode *n, const char *what);
/* A section or list that may be written empty ("peer ni:"). */
bool is_empty(const struct ynode *n);
/* Each item of the sequence that is @key's value, through @item. */
int parse_items(struct dparse *p, const struct ynode *key,
		int (*item)(struct dparse *p, const struct ynode *item));

/* --- applying ------------------------------------------------------------------- */

struct applier;

/*
 * How to undo one step an import took. @undo gets the record back; @release
 * (NULL: none) frees what it owns. The other fields are the section's.
 */
struct undo {
	int (*undo)(struct applier *a, const struct undo *u, struct cfg_err *e);
	void (*release)(struct undo *u);
	size_t item;		/* index in the doc section */
	bool whole;		/* peers: the whole peer; rules: restore them all */
	void *data;		/* what the step removed or saved */
	size_t ndata;
};

/*
 * Applying compares each object of the document with the running one and
 * changes only what differs: an object in force is left alone (import is
 * idempotent), one that is absent is not an error for import --del. With
 * @plan (import --dry-run) each change is written there as one line and
 * none is made; the sections keep their view of the running state in step
 * as if it had been, so the plan is what the import would do.
 */
struct applier {
	struct cfg_handle *h;
	const struct cfg_doc *doc;
	bool del;
	FILE *plan;
	struct cfg_err *err;
	struct undo *undo;
	size_t nundo, cap;
};

/*
 * One change, in the grammar lnetctl(8) documents under import --dry-run:
 * "+ KIND NAME[: WHAT]" (added: what it is, or the part of an existing
 * object, a peer's NID), "- KIND NAME[: WHAT]" (deleted), "~ KIND NAME:
 * KEY OLD -> NEW[, ...]" (changed). Written to a->plan, when it is set.
 */
void plan_line(struct applier *a, char op, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "KEY OLD -> NEW" of the change of one value, appended to @buf (@len). */
void plan_change(char *buf, size_t len, const char *key, long long from, long long to);

/* Push @u; on failure @u is released and -ENOMEM is in a->err. */
int push_undo(struct applier *a, struct undo *u);
void release_undo(struct undo *u);
/* The error of an operation, pinned to the document item that caused it. */
int item_failed(struct applier *a, const struct cfg_loc *loc, int rc);

/* --- printing ------------------------------------------------------------------- */

/* A show document that is started only when there is something to print. */
struct printer {
	struct yemit w;
	FILE *out;
	bool started;
	struct cfg_err *err;
};

/* Open the document and its top mapping on first use; errors stick in p->w. */
int pr_start(struct printer *p);
/* Close what pr_start() opened; @rc, else the writer's error. */
int pr_finish(struct printer *p, int rc);

void emit_nid(struct yemit *w, const char *key, const struct lnet_nid *nid);
/* A rule's keys as policy show prints them (sec_udsp.c), in an open mapping. */
void emit_rule_fields(struct yemit *w, const struct lnet_udsp_desc *d);
void emit_net(struct yemit *w, const char *key, u32 net_id);
const char *status_name(u32 status);
/* Unset prints as -1, as Lustre does; every set priority as itself. */
void emit_prio(struct yemit *w, const char *key, u32 prio);
/* "statistics": the counts and the latencies (ni_lat / pr_lat). */
void emit_stats(struct yemit *w, u64 send, u64 recv, u64 drop,
		const struct lnet_ioc_latency lat[__LNET_IOC_LAT_MAX]);
/* sent_stats, received_stats, dropped_stats: by message type, Lustre's order. */
void emit_msg_stats(struct yemit *w,
		    const __u64 st[__LNET_IOC_STATS_MAX][__LNET_IOC_MSG_MAX]);

/* A failure counter of a health status array and the YAML key it shows under. */
struct hs_key {
	const char *key;
	unsigned int idx;	/* LNET_IOC_HS_* */
};

void emit_hs_counters(struct yemit *w, const __u64 *hs, const struct hs_key *keys,
		      size_t n);

/* --- the section table ------------------------------------------------------------ */

struct cfg_section {
	const char *const *keys;	/* its top-level keys, NULL-terminated */
	/*
	 * Applied after the other sections (deleted before them) and written
	 * after them: udsp, whose rules match the objects the others make.
	 */
	bool last;
	/* @key (a top-level key of this section) with a value that is not empty. */
	int (*parse)(struct dparse *p, const struct ynode *key);
	/* Checks across the whole document, once every section is parsed; or NULL. */
	int (*check)(struct dparse *p);
	/* Add (a->del: delete) what the document holds, pushing undo steps. */
	int (*apply)(struct applier *a);
	int (*read)(struct cfg_handle *h, struct cfg_doc *doc, struct cfg_err *err);
	/* Does @doc hold anything of this section? */
	bool (*has)(const struct cfg_doc *doc);
	/* Inside the top mapping of an open document. */
	void (*write)(struct yemit *w, const struct cfg_doc *doc);
	/* The running configuration in full (export without --backup). */
	int (*export)(struct printer *p, struct cfg_handle *h);
	/*
	 * export --backup, for a section that streams it from LNet instead of
	 * read() then write() (peers: 100k peer NIs would be 100k models).
	 */
	int (*backup)(struct printer *p, struct cfg_handle *h);
};

extern const struct cfg_section cfg_sec_net, cfg_sec_peer, cfg_sec_udsp,
	cfg_sec_route, cfg_sec_routing, cfg_sec_global;

#endif /* LNET_CFG_SECTION_H */
