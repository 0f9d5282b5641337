// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fault injection rules (IOC_LNET_FAULT_*, lnet_fault.h): the parsers of
 * their fields as lnetctl fault takes them, add (checked here first, so
 * that the message names the option), delete, reset and the `fault:`
 * document of show, in Lustre's keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "yemit.h"
#include "ops_priv.h"

/* "@x" after expansion: a range in a message from a uapi limit. */
#define STR_(x)		#x
#define STR(x)		STR_(x)

/* ---- parsers ------------------------------------------------------------------ */

int cfg_parse_fault_nid(const char *what, const char *s, struct lnet_fault_nid *out,
			struct cfg_err *err)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(s, "*")) {
		out->fn_kind = LNET_FAULT_NID_ANY;
		return 0;
	}
	if (!strncmp(s, "*@", 2)) {
		out->fn_kind = LNET_FAULT_NID_NET;
		if (cfg_parse_net(what, s + 2, &out->fn_net, err))
			return cfg_fail(err, -EINVAL, NULL,
					"invalid %s '%s': expected a NID, '*' or '*@NET'", what, s);
		return 0;
	}
	out->fn_kind = LNET_FAULT_NID_ONE;
	if (cfg_parse_nid(what, s, &out->fn_nid, err))
		return cfg_fail(err, -EINVAL, NULL,
				"invalid %s '%s': expected a NID, '*' or '*@NET'", what, s);
	return 0;
}

/* Each comma-separated word of @s through @one into @mask; "" words refused. */
static int parse_list(const char *what, const char *s, const char *form,
		      int (*one)(const char *word, uint64_t *mask), uint64_t *mask,
		      struct cfg_err *err)
{
	char *copy = strdup(s), *word, *save = NULL;
	int rc = 0;

	if (!copy)
		return cfg_fail(err, -ENOMEM, NULL, "out of memory");
	*mask = 0;
	if (!*s || s[strlen(s) - 1] == ',' || *s == ',' || strstr(s, ",,"))
		rc = -EINVAL;
	for (word = strtok_r(copy, ",", &save); word && !rc; word = strtok_r(NULL, ",", &save))
		rc = one(word, mask);
	free(copy);
	if (rc)
		return cfg_fail(err, -EINVAL, NULL, "invalid %s '%s': expected %s", what, s, form);
	return 0;
}

static int one_msg(const char *word, uint64_t *mask)
{
#define MSG_NAME(bit, name) if (!strcasecmp(word, name)) { *mask |= (bit); return 0; }
	LNET_FAULT_MSGS(MSG_NAME)
#undef MSG_NAME
	return -EINVAL;
}

int cfg_parse_fault_msgs(const char *what, const char *s, uint32_t *mask, struct cfg_err *err)
{
	uint64_t m;
	int rc = parse_list(what, s, "PUT, ACK, GET or REPLY, or a list of them (PUT,GET)",
			    one_msg, &m, err);

	*mask = rc ? 0 : (uint32_t)m;
	return rc;
}

static int one_portal(const char *word, uint64_t *mask)
{
	struct cfg_err e;
	uint32_t p;

	if (cfg_parse_arg_u32("portal", word, 0, 63, &p, &e))
		return -EINVAL;
	*mask |= 1ULL << p;
	return 0;
}

int cfg_parse_fault_portals(const char *what, const char *s, uint64_t *mask,
			    struct cfg_err *err)
{
	return parse_list(what, s, "a portal 0-63, or a list of them (4,12)", one_portal,
			  mask, err);
}

static int one_hstatus(const char *word, uint64_t *mask)
{
	if (!strcmp(word, "random")) {
		*mask |= LNET_FAULT_HS_ALL;
		return 0;
	}
#define HS_NAME(h, name) if (!strcmp(word, name)) { *mask |= 1U << (h); return 0; }
	LNET_FAULT_HEALTH_ERRORS(HS_NAME)
#undef HS_NAME
	return -EINVAL;
}

int cfg_parse_fault_hstatus(const char *what, const char *s, uint32_t *mask,
			    struct cfg_err *err)
{
	uint64_t m;
	int rc = parse_list(what, s,
			    "local_interrupt, local_dropped, local_aborted, local_no_route, "
			    "local_error, local_timeout, remote_error, remote_dropped, "
			    "remote_timeout, network_timeout or random, or a list of them",
			    one_hstatus, &m, err);

	*mask = rc ? 0 : (uint32_t)m;
	return rc;
}

/* ---- requests ------------------------------------------------------------------- */

static const char *type_name(uint32_t type)
{
	return type == LNET_FAULT_DELAY ? "delay" : "drop";
}

/* What the core would refuse, said with the option it comes from. */
static int fault_check(const struct lnet_ioc_fault *f, struct cfg_err *err)
{
	bool delay = f->fa_type == LNET_FAULT_DELAY;

	if (f->fa_type != LNET_FAULT_DROP && !delay)
		return cfg_fail(err, -EINVAL, NULL, "invalid rule type %u: drop (1) or delay (2)",
				f->fa_type);
	if (!f->fa_rate == !f->fa_interval)
		return cfg_fail(err, -EINVAL, NULL, "give either --rate or --interval, not %s",
				f->fa_rate ? "both" : "neither");
	if (f->fa_rate > LNET_FAULT_RATE_MAX || f->fa_interval > LNET_FAULT_INTERVAL_MAX)
		return cfg_fail(err, -EINVAL, NULL, "%s out of range: %s",
				f->fa_rate ? "--rate" : "--interval", f->fa_rate ?
				"1-" STR(LNET_FAULT_RATE_MAX) :
				"1-" STR(LNET_FAULT_INTERVAL_MAX) " seconds");
	if ((f->fa_flags & LNET_FAULT_F_RANDOM) && !f->fa_interval)
		return cfg_fail(err, -EINVAL, NULL, "--random needs --interval");
	if (f->fa_ptl_mask && (f->fa_msg_mask & (LNET_FAULT_MSG_ACK | LNET_FAULT_MSG_REPLY)))
		return cfg_fail(err, -EINVAL, NULL,
				"--portal with --message ACK or REPLY: those carry no portal");
	if (delay && (!f->fa_latency || f->fa_latency > LNET_FAULT_LATENCY_MAX))
		return cfg_fail(err, -EINVAL, NULL, "a delay rule needs --latency 1-"
				STR(LNET_FAULT_LATENCY_MAX) " (seconds)");
	if (delay && f->fa_hstatus_mask)
		return cfg_fail(err, -EINVAL, NULL, "--health_error is for drop rules only");
	return 0;
}

int cfg_fault_add(struct cfg_handle *h, const struct lnet_ioc_fault *rule, struct cfg_err *err)
{
	struct lnet_ioc_fault f = *rule;
	char doing[64];
	int rc;

	f.fa_hdr.ioc_len = sizeof(f);
	rc = fault_check(&f, err);
	if (rc)
		return rc;
	snprintf(doing, sizeof(doing), "cannot add the %s rule", type_name(f.fa_type));
	rc = cfg_ioctl(h, IOC_LNET_FAULT_ADD, &f);
	if (rc == -ENOSPC)
		return cfg_fail(err, rc, NULL, "%s: %u %s rules already (the most there may be)",
				doing, LNET_FAULT_MAX_RULES, type_name(f.fa_type));
	return rc ? cfg_ioc_fail(h, rc, err, NULL, doing) : 0;
}

int cfg_fault_del(struct cfg_handle *h, uint32_t type, const struct lnet_fault_nid *src,
		  const struct lnet_fault_nid *dst, uint32_t *deleted, struct cfg_err *err)
{
	struct lnet_ioc_fault f = { .fa_hdr.ioc_len = sizeof(f), .fa_type = type };
	char doing[64];
	int rc;

	if (src && dst) {
		f.fa_src = *src;
		f.fa_dst = *dst;
	} else {
		f.fa_flags = LNET_FAULT_F_ALL;
	}
	snprintf(doing, sizeof(doing), "cannot delete %s rules", type_name(type));
	rc = cfg_ioctl(h, IOC_LNET_FAULT_DEL, &f);
	if (rc == -ENOENT && !cfg_unreachable(h))
		return cfg_fail(err, rc, NULL, "%s: no %s rule %s", doing, type_name(type),
				src ? "has this --source and --dest" : "to delete");
	if (!rc && deleted)
		*deleted = f.fa_index;
	return rc ? cfg_ioc_fail(h, rc, err, NULL, doing) : 0;
}

int cfg_fault_reset(struct cfg_handle *h, uint32_t type, struct cfg_err *err)
{
	struct lnet_ioc_fault f = { .fa_hdr.ioc_len = sizeof(f), .fa_type = type };
	char doing[64];
	int rc;

	snprintf(doing, sizeof(doing), "cannot reset the %s rules' counters", type_name(type));
	rc = cfg_ioctl(h, IOC_LNET_FAULT_RESET, &f);
	return rc ? cfg_ioc_fail(h, rc, err, NULL, doing) : 0;
}

int cfg_fault_get(struct cfg_handle *h, uint32_t type, uint32_t index,
		  struct lnet_ioc_fault *out)
{
	memset(out, 0, sizeof(*out));
	out->fa_hdr.ioc_len = sizeof(*out);
	out->fa_type = type;
	out->fa_index = index;
	return cfg_ioctl(h, IOC_LNET_FAULT_GET, out);
}

/* ---- show ---------------------------------------------------------------------- */

static void kv_pattern(struct yemit *w, const char *key, const struct lnet_fault_nid *p)
{
	char buf[LNET_NID_STR_MAX + 2];

	if (p->fn_kind == LNET_FAULT_NID_ANY) {
		yemit_kv_str(w, key, "*");
	} else if (p->fn_kind == LNET_FAULT_NID_NET) {
		buf[0] = '*';
		buf[1] = '@';
		cfg_net_str(p->fn_net, buf + 2, sizeof(buf) - 2);
		yemit_kv_str(w, key, buf);
	} else {
		yemit_kv_str(w, key, cfg_nid_str(&p->fn_nid, buf, sizeof(buf)));
	}
}

/* The names of the bits of @mask, comma-separated, into @buf. */
static const char *hstatus_names(uint32_t mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (mask == LNET_FAULT_HS_ALL)
		return "random";
#define HS_PUT(h, name) if (mask & (1U << (h)))					\
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? "," : "", name);
	LNET_FAULT_HEALTH_ERRORS(HS_PUT)
#undef HS_PUT
	return buf;
}

static void emit_rule(struct yemit *w, const struct lnet_ioc_fault *f)
{
	bool delay = f->fa_type == LNET_FAULT_DELAY;
	char buf[LNET_NID_STR_MAX > 256 ? LNET_NID_STR_MAX : 256];

	yemit_map_start(w);
	yemit_kv_str(w, "rule_type", type_name(f->fa_type));
	kv_pattern(w, "fa_src", &f->fa_src);
	kv_pattern(w, "fa_dst", &f->fa_dst);
	if (!lnet_nid_is_zero(&f->fa_local_nid))
		yemit_kv_str(w, "fa_local_nid", cfg_nid_str(&f->fa_local_nid, buf, sizeof(buf)));
	yemit_kv_u64(w, "fa_ptl_mask", f->fa_ptl_mask);
	yemit_kv_u64(w, "fa_msg_mask", f->fa_msg_mask);
	yemit_kv_u64(w, delay ? "la_rate" : "da_rate", f->fa_rate);
	yemit_kv_u64(w, delay ? "la_interval" : "da_interval", f->fa_interval);
	if (delay)
		yemit_kv_u64(w, "la_latency", f->fa_latency);
	if (f->fa_hstatus_mask)
		yemit_kv_str(w, "da_health_error",
			     hstatus_names(f->fa_hstatus_mask, buf, sizeof(buf)));
	yemit_kv_u64(w, delay ? "ls_delayed" : "ds_dropped", f->fs_count);
	yemit_kv_u64(w, "fs_count", f->fs_count);
	yemit_kv_u64(w, "fs_put", f->fs_msgs[LNET_IOC_MSG_PUT]);
	yemit_kv_u64(w, "fs_ack", f->fs_msgs[LNET_IOC_MSG_ACK]);
	yemit_kv_u64(w, "fs_get", f->fs_msgs[LNET_IOC_MSG_GET]);
	yemit_kv_u64(w, "fs_reply", f->fs_msgs[LNET_IOC_MSG_REPLY]);
	yemit_map_end(w);
}

int cfg_fault_show(struct cfg_handle *h, uint32_t type, FILE *out, struct cfg_err *err)
{
	struct lnet_ioc_fault f;
	struct yemit w;
	uint32_t i;
	int rc, wrc;

	rc = cfg_fault_get(h, type, 0, &f);
	if (rc == -ENOENT)
		return 0;		/* no rule: nothing to show */
	if (rc)
		return cfg_ioc_fail(h, rc, err, NULL, "cannot read the fault rules");
	rc = yemit_begin(&w, out, err);
	yemit_map_start(&w);
	yemit_key_seq(&w, "fault");
	for (i = 1; !rc; i++) {
		emit_rule(&w, &f);
		rc = cfg_fault_get(h, type, i, &f);
	}
	yemit_seq_end(&w);
	yemit_map_end(&w);
	wrc = yemit_end(&w);
	if (rc != -ENOENT)
		return cfg_ioc_fail(h, rc, err, NULL, "cannot read the fault rules");
	return wrc;
}
