/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A YAML document as a small tree (libyaml's event parser underneath).
 * Every node keeps the 1-based line:column where it starts, mapping keys
 * stay in document order, and duplicate keys are rejected while loading,
 * so that the importer can point at the exact spot of any mistake.
 */
#ifndef LNET_CFG_YTREE_H
#define LNET_CFG_YTREE_H

#include <stdbool.h>
#include <stddef.h>
#include "cfg_priv.h"

#define YTREE_MAX_DEPTH		32
#define YTREE_MAX_SIZE		(16U << 20)	/* bytes of YAML text */
#define YTREE_MAX_NODES		1000000U

enum ynode_type {
	YNODE_SCALAR,
	YNODE_MAP,
	YNODE_SEQ,
};

/*
 * In a mapping, the children are the key nodes (scalars) in document order
 * and each key's @value is its value node. In a sequence, the children are
 * the items. A scalar holds its text, NUL-terminated.
 */
struct ynode {
	enum ynode_type type;
	struct cfg_loc loc;
	char *str;			/* scalars */
	size_t len;
	bool plain;			/* scalar written without quotes */
	struct ynode *value;		/* mapping keys: the value */
	struct ynode *first, *last;	/* children */
	struct ynode *next;		/* next sibling */
	size_t nchildren;
};

/*
 * Load @len bytes of YAML. *@root is NULL for an empty stream. At most one
 * document; aliases are refused (no shared nodes, no expansion bombs).
 * Returns 0, -EINVAL (with err->loc and the libyaml problem, or the rule
 * broken: duplicate key, depth, size) or -ENOMEM.
 */
int ytree_load(const char *text, size_t len, struct ynode **root,
	       struct cfg_err *err);
void ytree_free(struct ynode *n);

/* The value of @key in mapping @map, or NULL. */
const struct ynode *ytree_get(const struct ynode *map, const char *key);
/* An empty plain scalar, "~" or "null": a key written without a value. */
bool ytree_is_null(const struct ynode *n);
/* "scalar", "mapping", "sequence": for messages. */
const char *ytree_type_name(enum ynode_type type);

#endif /* LNET_CFG_YTREE_H */
