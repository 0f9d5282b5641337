// SPDX-License-Identifier: GPL-2.0-only
/*
 * SRPC messages to and from their bytes (srpc_wire.h).
 *
 * One walk per body layout serves both directions: a cursor either packs
 * the struct's fields into the buffer or unpacks them from it, so the
 * order and sizes of the fields are written down once. Bodies are packed
 * (a u64 may sit at any offset), hence byte by byte access throughout.
 */
#include "srpc_wire.h"
#include "../wire/lnet_wire.h"

struct srpc_cur {
	u8 *out;		/* packing: the message */
	const u8 *in;		/* unpacking: the message */
	u32 off;		/* from the start of the message */
	bool swab;		/* unpacking big-endian bytes */
	int err;		/* first error met */
};

static u32 get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static u32 cur_get32(const struct srpc_cur *c, u32 off)
{
	return c->swab ? get_be32(c->in + off) : lnet_get_le32(c->in + off);
}

static void f32(struct srpc_cur *c, u32 *v)
{
	if (c->out)
		lnet_put_le32(c->out + c->off, *v);
	else
		*v = cur_get32(c, c->off);
	c->off += 4;
}

static void f64(struct srpc_cur *c, u64 *v)
{
	u32 lo, hi;

	if (c->out) {
		lnet_put_le64(c->out + c->off, *v);
		c->off += 8;
		return;
	}
	lo = cur_get32(c, c->off + (c->swab ? 4 : 0));
	hi = cur_get32(c, c->off + (c->swab ? 0 : 4));
	*v = (u64)hi << 32 | lo;
	c->off += 8;
}

static void fs64(struct srpc_cur *c, s64 *v)
{
	u64 u = (u64)*v;

	f64(c, &u);
	*v = (s64)u;
}

static void f16(struct srpc_cur *c, u16 *v)
{
	const u8 *p;

	if (c->out) {
		c->out[c->off] = (u8)*v;
		c->out[c->off + 1] = (u8)(*v >> 8);
	} else {
		p = c->in + c->off;	/* no pointer into a NULL @in when packing */
		*v = c->swab ? (u16)(p[0] << 8 | p[1]) : (u16)(p[1] << 8 | p[0]);
	}
	c->off += 2;
}

/* A u8 that is a boolean: 0 or 1 only. */
static void fbool(struct srpc_cur *c, u8 *v)
{
	if (c->out)
		c->out[c->off] = *v;
	else
		*v = c->in[c->off];
	if (*v > 1)
		c->err = -EINVAL;
	c->off += 1;
}

static bool name_terminated(const char *name)
{
	u32 i;

	for (i = 0; i < LST_NAME_SIZE; i++)
		if (!name[i])
			return true;
	return false;
}

/* A name of LST_NAME_SIZE bytes that must hold its NUL. */
static void fname(struct srpc_cur *c, char *name)
{
	if (c->out)
		memcpy(c->out + c->off, name, LST_NAME_SIZE);
	else
		memcpy(name, c->in + c->off, LST_NAME_SIZE);
	if (!name_terminated(name))
		c->err = -EINVAL;
	c->off += LST_NAME_SIZE;
}

static void fsid(struct srpc_cur *c, struct lst_sid *sid)
{
	f64(c, &sid->ses_nid);
	fs64(c, &sid->ses_stamp);
}

static void fraw(struct srpc_cur *c, u8 *raw, u32 n)
{
	if (c->out)
		memcpy(c->out + c->off, raw, n);
	else
		memcpy(raw, c->in + c->off, n);
	c->off += n;
}

static void fcounters(struct srpc_cur *c, struct srpc_stat_reply *r)
{
	struct sfw_counters *fw = &r->fw;
	struct srpc_counters *rpc = &r->rpc;
	struct lnet_counters_common *ln = &r->lnet;

	f32(c, &fw->running_ms); f32(c, &fw->active_batches);
	f32(c, &fw->zombie_sessions); f32(c, &fw->brw_errors);
	f32(c, &fw->ping_errors);
	f32(c, &rpc->errors); f32(c, &rpc->rpcs_sent); f32(c, &rpc->rpcs_rcvd);
	f32(c, &rpc->rpcs_dropped); f32(c, &rpc->rpcs_expired);
	f64(c, &rpc->bulk_get); f64(c, &rpc->bulk_put);
	f32(c, &ln->msgs_alloc); f32(c, &ln->msgs_max); f32(c, &ln->errors);
	f32(c, &ln->send_count); f32(c, &ln->recv_count);
	f32(c, &ln->route_count); f32(c, &ln->drop_count);
	f64(c, &ln->send_length); f64(c, &ln->recv_length);
	f64(c, &ln->route_length); f64(c, &ln->drop_length);
}

enum srpc_test_param_kind srpc_test_param_kind(u32 service, u32 feats)
{
	if (service == SRPC_SVC_PING)
		return SRPC_PARAM_PING;
	if (service != SRPC_SVC_BRW)
		return SRPC_PARAM_RAW;
	return feats & LST_FEAT_BULK_LEN ? SRPC_PARAM_BULK_V1 : SRPC_PARAM_BULK;
}

static void ftest_param(struct srpc_cur *c, union srpc_test_param *p, u32 kind)
{
	switch (kind) {
	case SRPC_PARAM_PING:
		f32(c, &p->ping.size); f32(c, &p->ping.flags);
		c->off += 4;
		break;
	case SRPC_PARAM_BULK:
		f32(c, &p->bulk.opc); f32(c, &p->bulk.npg); f32(c, &p->bulk.flags);
		break;
	case SRPC_PARAM_BULK_V1:
		f16(c, &p->bulk_v1.opc); f16(c, &p->bulk_v1.flags);
		f32(c, &p->bulk_v1.len); f32(c, &p->bulk_v1.offset);
		break;
	default:
		fraw(c, p->raw, sizeof(p->raw));
	}
}

static void ftest_reqst(struct srpc_cur *c, struct srpc_test_reqst *t, u32 feats)
{
	f64(c, &t->rpyid); f64(c, &t->bulkid); fsid(c, &t->sid); f64(c, &t->bid);
	f32(c, &t->service); f32(c, &t->loop); f32(c, &t->concur);
	fbool(c, &t->is_client); fbool(c, &t->stop_onerr); f32(c, &t->ndest);
	ftest_param(c, &t->param, srpc_test_param_kind(t->service, feats));
}

/* The framework bodies (types 0..11). */
static void walk_framework(struct srpc_cur *c, struct srpc_msg *m)
{
	switch (m->type) {
	case SRPC_MSG_MKSN_REQST: {
		struct srpc_mksn_reqst *b = &m->body.mksn_reqst;

		f64(c, &b->rpyid); fsid(c, &b->sid); f32(c, &b->force); fname(c, b->name);
		break;
	}
	case SRPC_MSG_MKSN_REPLY: {
		struct srpc_mksn_reply *b = &m->body.mksn_reply;

		f32(c, &b->status); fsid(c, &b->sid); f32(c, &b->timeout); fname(c, b->name);
		break;
	}
	case SRPC_MSG_RMSN_REQST:
		f64(c, &m->body.rmsn_reqst.rpyid); fsid(c, &m->body.rmsn_reqst.sid);
		break;
	case SRPC_MSG_RMSN_REPLY:
	case SRPC_MSG_TEST_REPLY:
		f32(c, &m->body.rmsn_reply.status); fsid(c, &m->body.rmsn_reply.sid);
		break;
	case SRPC_MSG_BATCH_REQST: {
		struct srpc_batch_reqst *b = &m->body.bat_reqst;

		f64(c, &b->rpyid); fsid(c, &b->sid); f64(c, &b->bid);
		f32(c, &b->opc); f32(c, &b->testidx); f32(c, &b->arg);
		break;
	}
	case SRPC_MSG_BATCH_REPLY: {
		struct srpc_batch_reply *b = &m->body.bat_reply;

		f32(c, &b->status); fsid(c, &b->sid); f32(c, &b->active); f32(c, &b->time);
		break;
	}
	case SRPC_MSG_STAT_REQST: {
		struct srpc_stat_reqst *b = &m->body.stat_reqst;

		f64(c, &b->rpyid); fsid(c, &b->sid); f32(c, &b->type);
		break;
	}
	case SRPC_MSG_STAT_REPLY:
		f32(c, &m->body.stat_reply.status); fsid(c, &m->body.stat_reply.sid);
		fcounters(c, &m->body.stat_reply);
		break;
	case SRPC_MSG_TEST_REQST:
		ftest_reqst(c, &m->body.tes_reqst, m->ses_feats);
		break;
	case SRPC_MSG_DEBUG_REQST: {
		struct srpc_debug_reqst *b = &m->body.dbg_reqst;

		f64(c, &b->rpyid); fsid(c, &b->sid); f32(c, &b->flags);
		break;
	}
	case SRPC_MSG_DEBUG_REPLY: {
		struct srpc_debug_reply *b = &m->body.dbg_reply;

		f32(c, &b->status); fsid(c, &b->sid); f32(c, &b->timeout);
		f32(c, &b->nbatch); fname(c, b->name);
		break;
	}
	}
}

/* The test and join bodies (types 12..17). */
static void walk_tests(struct srpc_cur *c, struct srpc_msg *m)
{
	switch (m->type) {
	case SRPC_MSG_BRW_REQST: {
		struct srpc_brw_reqst *b = &m->body.brw_reqst;

		f64(c, &b->rpyid); f64(c, &b->bulkid);
		f32(c, &b->rw); f32(c, &b->len); f32(c, &b->flags);
		break;
	}
	case SRPC_MSG_BRW_REPLY:
		f32(c, &m->body.brw_reply.status);
		break;
	case SRPC_MSG_PING_REQST: {
		struct srpc_ping_reqst *b = &m->body.ping_reqst;

		f64(c, &b->rpyid); f32(c, &b->magic); f32(c, &b->seq);
		f64(c, &b->time_sec); f64(c, &b->time_nsec);
		break;
	}
	case SRPC_MSG_PING_REPLY: {
		struct srpc_ping_reply *b = &m->body.ping_reply;

		f32(c, &b->status); f32(c, &b->magic); f32(c, &b->seq);
		break;
	}
	case SRPC_MSG_JOIN_REQST: {
		struct srpc_join_reqst *b = &m->body.join_reqst;

		f64(c, &b->rpyid); fsid(c, &b->sid); fname(c, b->group);
		break;
	}
	case SRPC_MSG_JOIN_REPLY: {
		struct srpc_join_reply *b = &m->body.join_reply;

		f32(c, &b->status); fsid(c, &b->sid); f32(c, &b->timeout);
		fname(c, b->session);
		break;
	}
	}
}

static void walk_body(struct srpc_cur *c, struct srpc_msg *m)
{
	c->off = SRPC_HDR_LEN;
	if (m->type < SRPC_MSG_BRW_REQST)
		walk_framework(c, m);
	else
		walk_tests(c, m);
}

int srpc_msg_pack(const struct srpc_msg *m, u8 *buf)
{
	struct srpc_msg tmp = *m;	/* the walk takes non-const fields */
	struct srpc_cur c = { .out = buf };

	if (m->type >= SRPC_MSG_NTYPES)
		return -EINVAL;
	memset(buf, 0, SRPC_MSG_LEN);
	lnet_put_le32(buf, SRPC_MSG_MAGIC);
	lnet_put_le32(buf + 4, m->version);
	lnet_put_le32(buf + 8, m->type);
	lnet_put_le32(buf + 20, m->ses_feats);
	walk_body(&c, &tmp);
	if (c.err)
		memset(buf, 0, SRPC_MSG_LEN);
	return c.err;
}

int srpc_msg_unpack(const u8 *buf, u32 len, struct srpc_msg *m)
{
	struct srpc_cur c = { .in = buf };

	if (len != SRPC_MSG_LEN)
		return -EMSGSIZE;
	memset(m, 0, sizeof(*m));
	if (lnet_get_le32(buf) == SRPC_MSG_MAGIC)
		c.swab = false;
	else if (get_be32(buf) == SRPC_MSG_MAGIC)
		c.swab = true;
	else
		return -EBADMSG;
	m->swabbed = c.swab;
	m->version = cur_get32(&c, 4);
	m->type = cur_get32(&c, 8);
	m->ses_feats = cur_get32(&c, 20);
	if (m->type >= SRPC_MSG_NTYPES || cur_get32(&c, 12) || cur_get32(&c, 16))
		return -EBADMSG;
	walk_body(&c, m);
	if (c.err)
		return -EBADMSG;
	return m->version == SRPC_MSG_VERSION ? 0 : -EPROTO;
}

void srpc_dest_pack(u8 *buf, u32 i, u64 nid, u32 pid)
{
	lnet_put_le64(buf + i * LST_DEST_LEN, nid);
	lnet_put_le32(buf + i * LST_DEST_LEN + 8, pid);
}

void srpc_dest_unpack(const u8 *buf, u32 i, bool swabbed, u64 *nid, u32 *pid)
{
	struct srpc_cur c = { .in = buf, .off = i * LST_DEST_LEN, .swab = swabbed };

	f64(&c, nid);
	f32(&c, pid);
}

/* --- names and tables ------------------------------------------------------------ */

static const struct {
	const char *name;
	u32 body_len;
	u32 service;
} srpc_types[] = {
#define SRPC_TYPE_ROW(n, val, len, svc) [val] = { #n, len, SRPC_SVC_##svc },
	SRPC_MSG_TYPES(SRPC_TYPE_ROW)
#undef SRPC_TYPE_ROW
};

const char *srpc_msg_type_name(u32 type)
{
	return type < SRPC_MSG_NTYPES ? srpc_types[type].name : "?";
}

u32 srpc_msg_body_len(u32 type)
{
	return type < SRPC_MSG_NTYPES ? srpc_types[type].body_len : 0;
}

u32 srpc_msg_service(u32 type)
{
	return type < SRPC_MSG_NTYPES ? srpc_types[type].service : ~0U;
}

const char *srpc_service_name(u32 id)
{
	switch (id) {
#define SRPC_SVC_CASE(name, v) case v: return #name;
	SRPC_SERVICES(SRPC_SVC_CASE)
#undef SRPC_SVC_CASE
	}
	return "?";
}

const char *lst_batch_opc_name(u32 opc)
{
	switch (opc) {
#define LST_OPC_CASE(name, v) case v: return #name;
	LST_BATCH_OPCS(LST_OPC_CASE)
#undef LST_OPC_CASE
	}
	return "?";
}

const char *lst_brw_op_name(u32 rw)
{
	switch (rw) {
#define LST_BRW_CASE(name, v) case v: return #name;
	LST_BRW_OPS(LST_BRW_CASE)
#undef LST_BRW_CASE
	}
	return "?";
}

const char *lst_brw_check_name(u32 flags)
{
	switch (flags) {
#define LST_CHECK_CASE(name, v) case v: return "CHECK_" #name;
	LST_BRW_CHECKS(LST_CHECK_CASE)
#undef LST_CHECK_CASE
	}
	return "?";
}

/* --- the brw pattern ------------------------------------------------------------------ */

/* Write the magic at @p (@wbuf set) or compare it: 0 or -EBADMSG. */
static int brw_word(u8 *wbuf, const u8 *buf, u32 at)
{
	u64 magic = LST_BRW_MAGIC;

	if (wbuf) {
		memcpy(wbuf + at, &magic, 8);
		return 0;
	}
	return memcmp(buf + at, &magic, 8) ? -EBADMSG : 0;
}

/*
 * The words the pattern covers in [@off, @off + @len), page fragment by
 * page fragment (cut at LST_PAGE_SIZE boundaries of the buffer): written
 * when @wbuf is set, else compared with @buf.
 */
static int brw_walk(u8 *wbuf, const u8 *buf, u32 off, u32 len, u32 check)
{
	u32 end = off + len, start, frag, w, last;
	int rc = 0;

	if (!lst_brw_checks(check))
		return 0;
	for (start = off; start < end && !rc; start += frag) {
		frag = LST_PAGE_SIZE - start % LST_PAGE_SIZE;
		if (frag > end - start)
			frag = end - start;
		if (frag < 8)
			continue;
		last = (frag - 8) & ~7U;
		if (check == LST_BRW_CHECK_SIMPLE) {
			rc = brw_word(wbuf, buf, start);
			if (!rc && last)
				rc = brw_word(wbuf, buf, start + last);
			continue;
		}
		for (w = 0; w <= last && !rc; w += 8)
			rc = brw_word(wbuf, buf, start + w);
	}
	return rc;
}

void lst_brw_fill(u8 *buf, u32 off, u32 len, u32 check)
{
	brw_walk(buf, NULL, off, len, check);
}

int lst_brw_check(const u8 *buf, u32 off, u32 len, u32 check)
{
	return brw_walk(NULL, buf, off, len, check);
}
